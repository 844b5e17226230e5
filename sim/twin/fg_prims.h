/* C twins of the shared RTL primitives (rtl/prim/).  Each is usable two
 * ways: as a component inside a bigger block's C twin (fg_fifo_c, ...), and
 * as a block class (fg_fifo_class, ...) for its own port-level lockstep test
 * against the verilated primitive. */
#ifndef FG_PRIMS_H
#define FG_PRIMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fg_block.h"

/* ---- fg_fifo: rtl/prim/fg_fifo.sv ---------------------------------- */
typedef struct {
    size_t elem;       /* bytes per entry */
    unsigned depth;
    unsigned wptr, rptr, count;
    unsigned char *mem;
} fg_fifo_c;

int fg_fifo_c_init(fg_fifo_c *f, size_t elem, unsigned depth);
void fg_fifo_c_free(fg_fifo_c *f);
void fg_fifo_c_reset(fg_fifo_c *f);  /* pointers only: storage keeps its contents, as in RTL */
static inline bool fg_fifo_c_ready(const fg_fifo_c *f) { return f->count != f->depth; }
static inline bool fg_fifo_c_valid(const fg_fifo_c *f) { return f->count != 0; }
/* the head entry; zeros while empty (data_o is 0 then, as in the RTL) */
static inline const void *fg_fifo_c_head(const fg_fifo_c *f) {
    return f->mem + (size_t)(f->count ? f->rptr : f->depth) * f->elem;
}
/* One clock edge: push happens when push && ready, pop when pop && valid
 * (both judged on the state before the edge, as in the RTL). */
void fg_fifo_c_edge(fg_fifo_c *f, bool push, const void *data, bool pop);

#define FG_FIFO_INPUTS(X) X(valid_i, 16) X(data_i, 16) X(ready_i, 1)
#define FG_FIFO_OUTPUTS(X) X(ready_o, 1) X(valid_o, 1) X(data_o, 16) X(count_o, 3)
typedef struct { FG_FIFO_INPUTS(FG_FIELD) } fg_fifo_in_t;
typedef struct { FG_FIFO_OUTPUTS(FG_FIELD) } fg_fifo_out_t;
typedef struct { unsigned width, depth; } fg_fifo_params;
/* verilated parameters (field, RTL name), checked by the shim */
#define FG_FIFO_PARAMS(X) X(width, WIDTH) X(depth, DEPTH)
extern const fg_block_class fg_fifo_class;

/* ---- fg_sram_sp: rtl/prim/fg_sram_sp.sv ----------------------------- */
typedef struct {
    size_t elem;
    unsigned depth;
    unsigned char *mem;
    unsigned char *rdata; /* registered read data */
} fg_sram_c;

int fg_sram_c_init(fg_sram_c *s, size_t elem, unsigned depth);
void fg_sram_c_free(fg_sram_c *s);
/* One edge: when req, either writes wdata at addr or loads rdata from addr. */
void fg_sram_c_edge(fg_sram_c *s, bool req, bool we, unsigned addr, const void *wdata);

#define FG_SRAM_INPUTS(X) X(req_i, 1) X(we_i, 1) X(addr_i, 4) X(wdata_i, 40)
#define FG_SRAM_OUTPUTS(X) X(rdata_o, 40)
typedef struct { FG_SRAM_INPUTS(FG_FIELD) } fg_sram_in_t;
typedef struct { FG_SRAM_OUTPUTS(FG_FIELD) } fg_sram_out_t;
typedef struct { unsigned width, depth; } fg_sram_params;
/* verilated parameters (field, RTL name), checked by the shim */
#define FG_SRAM_PARAMS(X) X(width, WIDTH) X(depth, DEPTH)
extern const fg_block_class fg_sram_class;

/* ---- fg_rr_arb: rtl/prim/fg_rr_arb.sv ------------------------------- */
typedef struct {
    unsigned n;
    unsigned ptr;
} fg_rr_c;

void fg_rr_c_reset(fg_rr_c *a, unsigned n);
/* Index granted for req (bit mask), or -1 when nothing requests. */
int fg_rr_c_pick(const fg_rr_c *a, uint64_t req);
/* The pointer after one edge (ptr_d_o): past the grant when ack and something
 * was granted, else unchanged. */
unsigned fg_rr_c_next(const fg_rr_c *a, uint64_t req, bool ack);
/* One edge: the pointer becomes fg_rr_c_next. */
void fg_rr_c_edge(fg_rr_c *a, uint64_t req, bool ack);

/* gnt_o / idx_o / ptr_d_o are combinational in req_i and ack_i, so the port-level twin keeps the
 * last inputs to compute them, exactly like the evaluated RTL does. */
#define FG_RR_INPUTS(X) X(req_i, 5) X(ack_i, 1)
#define FG_RR_OUTPUTS(X) X(valid_o, 1) X(gnt_o, 5) X(idx_o, 3) X(ptr_d_o, 3)
typedef struct { FG_RR_INPUTS(FG_FIELD) } fg_rr_in_t;
typedef struct { FG_RR_OUTPUTS(FG_FIELD) } fg_rr_out_t;
typedef struct { unsigned n; } fg_rr_params;
/* verilated parameters (field, RTL name), checked by the shim */
#define FG_RR_PARAMS(X) X(n, N)
extern const fg_block_class fg_rr_class;

#endif
