/* Doorbell decoder, EDGE Sec. III-C: C twin and ports of
 * rtl/edge/edge_doorbell.sv.
 *
 * Front-end memory-mapped writes inside the doorbell aperture
 * [cfg_base, cfg_base + 2^cfg_region_log2) ring doorbell
 * id = offset >> cfg_stride_log2 (one doorbell per EKT entry); they are queued
 * (ring_*) toward the EKT.  A doorbell write that is not stride-aligned or
 * whose id >= ENTRIES raises err_* and is counted; every other write passes
 * through untouched (pt_*).  wr_ready_o is low unless both queues have room
 * for the write being decoded and one more, so no write is ever dropped or
 * duplicated.
 *
 * Timing: a write accepted at edge t is decoded in the cycle after, under the
 * cfg_* values of its accepting cycle, and is on ring_* / pt_* after edge t+1;
 * its err_* pulse (a bad doorbell write) is high in the cycle after edge t+1.
 * (Two stages, for 100 MHz on the ECP5.) */
#ifndef EDGE_DOORBELL_H
#define EDGE_DOORBELL_H

#include "fg_block.h"

/* DB_ERR_NONE / _RANGE / _ALIGN (err_code_o): generated from the list the RTL's
 * edge_pkg comes from too (rtl/edge/edge_enc.toml, docs/RTL_STYLE.md) */
#include "gen/edge_doorbell_enc.h"

#define EDGE_DOORBELL_INPUTS(X)                                                                    \
    X(cfg_base_i, 64) X(cfg_region_log2_i, 6) X(cfg_stride_log2_i, 6) X(wr_valid_i, 1)             \
    X(wr_addr_i, 64) X(wr_data_i, 32) X(pt_ready_i, 1) X(ring_ready_i, 1)

#define EDGE_DOORBELL_OUTPUTS(X)                                                                   \
    X(wr_ready_o, 1) X(pt_valid_o, 1) X(pt_addr_o, 64) X(pt_data_o, 32) X(ring_valid_o, 1)       \
    X(ring_id_o, 5) X(ring_count_o, 5) X(err_valid_o, 1) X(err_code_o, 2) X(err_addr_o, 64)      \
    X(cnt_rings_o, 32) X(cnt_err_range_o, 16) X(cnt_err_align_o, 16) X(err_status_o, 2)

typedef struct { EDGE_DOORBELL_INPUTS(FG_FIELD) } edge_doorbell_in_t;
typedef struct { EDGE_DOORBELL_OUTPUTS(FG_FIELD) } edge_doorbell_out_t;

typedef struct {
    unsigned entries;    /* ENTRIES: doorbells = EKT entries, 32 */
    unsigned addr_w;     /* ADDR_W, 64 */
    unsigned data_w;     /* DATA_W, 32 */
    unsigned ring_depth; /* RING_DEPTH: queued rings, 16 */
    unsigned pt_depth;   /* PT_DEPTH: pass-through queue, 2 */
} edge_doorbell_params;

/* verilated parameters (field, RTL name), checked by the shim */
#define EDGE_DOORBELL_PARAMS(X)                                                                    \
    X(entries, ENTRIES) X(addr_w, ADDR_W) X(data_w, DATA_W) X(ring_depth, RING_DEPTH)              \
    X(pt_depth, PT_DEPTH)

void edge_doorbell_params_default(edge_doorbell_params *p);
extern const fg_block_class edge_doorbell_class;

#endif
