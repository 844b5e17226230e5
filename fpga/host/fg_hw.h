/* fg_hw: EDGE, F/E and CM helpers over fg_host (the FPGA top's register
 * windows, fpga/gen/fg_regmap.h).  Each helper does what a driver would:
 * write the stimulus registers, fire the strobe, wait (bounded) for the
 * block to take it, read the result, pop what it consumed.  Return 0, or -1
 * with the reason in fg_host_error() (I/O, or a handshake that never
 * completed). */
#ifndef FG_HW_H
#define FG_HW_H

#include <stdint.h>

#include "fg_host.h"

/* Polls a window's CTRL until (CTRL & bits) == 0, at most tries reads. */
int fg_hw_wait_clear(fg_host *h, uint32_t win, uint32_t bits, unsigned tries);

/* ---- EDGE: event kernel table (EDGE Table I) and doorbells */
typedef struct {
    uint64_t kernel_ptr, param_base, param_size, param_end;
    uint32_t grid[3], block[3];
    unsigned shmem, prio, max_events;
} fg_hw_kernel;

typedef struct {
    unsigned status, id, inflight;
    uint64_t head;
} fg_hw_rsp;

/* One EKT command (EKT_OP_REG / UNREG / READ) and its response. */
int fg_hw_ekt_cmd(fg_host *h, unsigned op, unsigned id, const fg_hw_kernel *k, fg_hw_rsp *rsp);
/* An event completion for doorbell id (frees one event in flight). */
int fg_hw_ekt_complete(fg_host *h, unsigned id);

typedef struct {
    unsigned valid, id, shmem, prio;
    uint64_t kernel_ptr, param_addr;
    uint32_t grid[3], block[3];
} fg_hw_desc;

/* Reads and pops the head descriptor of evw (pkq = 0: single-warp events)
 * or pkq (1: larger event kernels); d->valid = 0 when there is none. */
int fg_hw_ekt_pop_desc(fg_host *h, int pkq, fg_hw_desc *d);

/* A front-end write of data to the address AP_BASE + offset (the doorbell
 * aperture window); with AP_BASE = CFG_BASE (the reset values) offset
 * id << stride rings doorbell id; an offset beyond the window (FG_WIN_BYTES)
 * is refused. */
int fg_hw_frontend_write(fg_host *h, uint32_t offset, uint32_t data);
int fg_hw_ring(fg_host *h, unsigned id);

/* ---- F/E-bit DRAM scheduler queues */
typedef struct {
    unsigned src, we, dflt, trig, act, tag;
    uint32_t addr, mask;
} fg_hw_fe_req;

typedef struct {
    unsigned valid, src, we, trig, act, tag, q;
    uint32_t addr, mask;
} fg_hw_fe_out;

/* Offers a request and waits until its queue takes it. */
int fg_hw_fe_push(fg_host *h, const fg_hw_fe_req *r);
/* Reads and pops the output request (nack = 0) or the NACK (nack = 1). */
int fg_hw_fe_pop(fg_host *h, int nack, fg_hw_fe_out *o);
/* Marks lines starting at addr full or empty and waits until done. */
int fg_hw_fe_init(fg_host *h, int full, uint32_t addr, unsigned lines);

/* ---- CM-CPU / CM-BAL stall monitor */
int fg_hw_cm_config(fg_host *h, unsigned mode, unsigned static_limit, unsigned k);
/* Held stall inputs: bit p of mc / net stalls partition p every cycle;
 * bit c * NSCHED + s of issue stalls scheduler s of core c. */
int fg_hw_cm_stall(fg_host *h, uint32_t mc, uint32_t net, uint64_t issue);
/* Returns once at least n more intervals have ended. */
int fg_hw_cm_wait_intervals(fg_host *h, unsigned n, unsigned tries);
int fg_hw_cm_limit(fg_host *h, unsigned *cpu_limit, unsigned *decision);
int fg_hw_cm_core(fg_host *h, unsigned core, unsigned *limit, unsigned *level);

#endif
