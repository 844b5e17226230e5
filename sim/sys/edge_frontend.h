/* edge_frontend: the GPU front-end's EDGE path (EDGE Sec. III-C, Fig. 6).
 *
 * Glues the verilated (or C twin, or lockstep) doorbell decoder and event
 * kernel table blocks to the rest of the system, one step per GPU core cycle:
 *
 *   MMIO write (from PCIe) -> edge_doorbell wr_*  --ring_*-->  edge_ekt ring_*
 *   host register/unregister -> edge_ekt cmd_* / rsp_*
 *   edge_ekt evw_* (single-warp event)   -> dispatch delay -> launch callback
 *   edge_ekt pkq_* (larger event kernel) -> pending kernel queue -> dispatch
 *                                           delay -> launch callback
 *   kernel completion (edge_fe_complete) -> edge_ekt cpl_*
 *   err_* pulses of both blocks -> error callback + counters (never dropped)
 *
 * The front-end cycles of each event (doorbell write presented to the
 * decoder -> descriptor leaves the EKT) are counted by stepping the blocks;
 * the dispatch to the SIMT core (KMU -> KDU -> SIMT core scheduler) is the
 * modeled constant dispatch_cycles (EDGE VI-A: 300 cycles, from DTBL's 283). */
#ifndef SYS_EDGE_FRONTEND_H
#define SYS_EDGE_FRONTEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "edge_doorbell.h"
#include "edge_ekt.h"
#include "fg_config.h"

typedef struct {
    fg_impl impl;               /* [edge] impl: rtl | c | lockstep (default rtl) */
    unsigned dispatch_cycles;   /* [edge] dispatch_cycles, 300 (EDGE VI-A) */
    uint64_t doorbell_base;     /* [edge] doorbell_base: aperture in the GPU's MMIO space */
    unsigned doorbell_region_log2; /* [edge] doorbell_region_log2, 12 */
    unsigned doorbell_stride_log2; /* [edge] doorbell_stride_log2, 3 (one 8-byte register per entry) */
    unsigned event_priority;    /* [edge] event_priority: GPU priority of event warps, 3 */
    edge_ekt_params ekt;
    edge_doorbell_params db;
} edge_fe_params;

void edge_fe_params_default(edge_fe_params *p);
int edge_fe_params_load(edge_fe_params *p, fg_config *cfg, char *err, size_t errlen);

/* One event on its way to the SIMT cores, with the front-end's timestamps. */
typedef struct {
    unsigned id;           /* EKT entry */
    bool single;           /* came out of evw (single warp) rather than pkq */
    uint64_t kernel_ptr, param_addr;
    uint32_t grid[3], block[3], shmem, prio;
    uint64_t key;          /* the writer's tag of the doorbell write */
    uint64_t c_write;      /* cycle the write was first presented to the decoder */
    uint64_t c_desc;       /* cycle the descriptor left the EKT */
    uint64_t c_dispatch;   /* cycle handed to the SIMT core scheduler */
} edge_fe_event;

typedef struct {
    /* event ready for the SIMT core scheduler (after the dispatch delay) */
    void (*launch)(void *user, const edge_fe_event *e);
    /* an err_* pulse or an inconsistency; key = the write's tag when known */
    void (*error)(void *user, const char *msg, uint64_t key, uint64_t cycle);
    /* an ordinary (non-doorbell) write passed through the decoder */
    void (*passthrough)(void *user, uint64_t addr, uint32_t data);
    void *user;
} edge_fe_callbacks;

typedef struct {
    unsigned op; /* EKT_OP_REG / UNREG / READ */
    unsigned id;
    uint64_t kernel_ptr, param_base, param_size, param_end;
    uint32_t grid[3], block[3], shmem, prio, max_events;
} edge_fe_cmd;

typedef struct {
    unsigned status, id;
    uint64_t head;
    unsigned inflight;
} edge_fe_rsp;

typedef struct edge_fe edge_fe;

edge_fe *edge_fe_new(const edge_fe_params *p, const edge_fe_callbacks *cb, char *err,
                     size_t errlen);
void edge_fe_free(edge_fe *f);
const edge_fe_params *edge_fe_get_params(const edge_fe *f);

/* Doorbell address of EKT entry id. */
uint64_t edge_fe_doorbell_addr(const edge_fe *f, unsigned id);
/* An MMIO write arriving at the front-end now (queued, presented in order). */
int edge_fe_write(edge_fe *f, uint64_t addr, uint32_t data, uint64_t key);
/* A kernel of EKT entry id completed: frees one in-flight event. */
int edge_fe_complete(edge_fe *f, unsigned id);
/* Queues a register / unregister / read command; refuses (-1, and the error
 * callback says why) a registration whose parameter buffer is not a whole
 * number of entries (end - base not a multiple of the entry size). */
int edge_fe_command(edge_fe *f, const edge_fe_cmd *c);
/* The oldest finished command's response (false while none). */
bool edge_fe_response(edge_fe *f, edge_fe_rsp *r);

/* One GPU core cycle: read outputs, compute inputs, step both blocks.
 * -1 on a lockstep divergence or RTL assertion (message in err). */
int edge_fe_step(edge_fe *f, char *err, size_t errlen);
uint64_t edge_fe_cycle(const edge_fe *f);
/* Nothing queued, nothing inside the blocks or the dispatch pipeline. */
bool edge_fe_idle(const edge_fe *f);

typedef struct {
    uint64_t writes, doorbells, passthrough, descriptors_evw, descriptors_pkq, completions;
    uint64_t errors;         /* error callbacks raised */
    /* the blocks' own counters (RTL outputs) */
    uint64_t db_rings, db_err_range, db_err_align;
    uint64_t ekt_launches, ekt_err_unreg, ekt_err_overrun, ekt_err_cpl;
} edge_fe_stats;
void edge_fe_get_stats(const edge_fe *f, edge_fe_stats *s);

#endif
