/* simt_core_types: the types and constants of the SIMT core's public API
 * (simt_core.h), in a header with no .c of its own so that the core's
 * internal files (simt_core_base.c, simt_lsu.c) use them without depending on
 * simt_core.c.  docs/SIMT.md "Layout: who calls whom". */
#ifndef SIMT_CORE_TYPES_H
#define SIMT_CORE_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simt/gpu_image.h"
#include "simt/rv32_exec.h"

#define SIMT_LANES RV_LANES
#define SIMT_MAX_LD 16     /* upper bound of gpu_config.max_inflight_loads */
#define SIMT_MAX_WARPS 128 /* warp slots: max_threads_per_core <= 4096 (gpu.c) */
#define SIMT_MAX_UNITS 8

/* One SIMT core: opaque outside the core's own files (simt_core_state.h). */
typedef struct simt_core simt_core;

/* A launch as the cores see it (the GPU's launch record holds one; the
 * pointer stays valid while any of its warps lives). */
typedef struct {
    unsigned id;              /* the GPU's launch index, passed back in the callbacks */
    uint64_t kernel_ptr, param_addr;
    uint32_t grid[3], block[3];
    unsigned threads, nwarps; /* per block */
    unsigned regs, shmem;     /* per block */
    unsigned regs_pt;         /* registers per thread */
    uint64_t reg_mask;        /* which (the kernel image's): saved when an event preempts */
    unsigned priority;
    bool first_done;          /* the GPU has reported its first instruction */
} simt_grid;

/* Warp slot states (simt_core_warp). */
enum { WS_FREE = 0, WS_RUN, WS_DRAIN /* all threads exited, loads in flight */,
       WS_PARKED /* a preempted victim's slot after its event warp exited, until resume */ };

/* Decoded-instruction cache over global memory (simulator speed, not
 * timing), shared by the cores; the GPU clears it when a write touches a
 * loaded kernel image. */
typedef struct {
    uint32_t tag;             /* pc + 1 */
    rv_inst in;
} simt_dcache_ent;
typedef struct {
    simt_dcache_ent *e;
    unsigned mask;
    const uint8_t *mem;
    uint64_t mem_size;
    /* the GPU's loaded kernel images (its array and count, which grow):
     * every launch starts in one, so code runs only there */
    simt_image *const *img;
    const unsigned *n_img;
} simt_dcache;

/* The cached decode of pc, or NULL when it is not cached (simt_decode). */
static inline const rv_inst *simt_decode_hit(const simt_dcache *d, uint32_t pc) {
    const simt_dcache_ent *e = &d->e[(pc >> 2) & d->mask];
    return e->tag == pc + 1 ? &e->in : NULL;
}

/* Up to the GPU: a block of grid finished; the first instruction of grid
 * issued (the GPU sets grid->first_done); a fault stopped the core; an event
 * warp of grid was ended by a fault that stops only it
 * (simt_core_set_event_faults). */
typedef struct {
    void (*block_done)(void *user, const simt_grid *k);
    void (*first_instr)(void *user, const simt_grid *k);
    void (*fault)(void *user, unsigned core, const char *msg);
    void (*event_fault)(void *user, const simt_grid *k, const char *msg);
    void *user;
} simt_core_cbs;

/* An extension of the core (EDGE warp-level events and preemption). */
typedef struct {
    void (*begin)(void *ext);                  /* start of the core's cycle, before the pipeline */
    void (*end)(void *ext);                    /* end of the cycle, after it */
    void (*warp_exit)(void *ext, unsigned slot); /* an event warp finished (its resources are back) */
    bool (*blocks_held)(const void *ext);      /* the core may take no new background block now */
} simt_core_hooks;

/* A call left for the core's commit (simt_core_defer). */
typedef void (*simt_dcall_fn)(void *user, uint64_t a, const void *payload);
enum { SIMT_DCALL_PAYLOAD = 128 };

/* A warp slot as the extension sees it (simt_core_warp). */
typedef struct {
    int state;                /* WS_* */
    bool event;               /* an event warp started from the PEWT */
    bool stop_fetch;          /* being flushed: no new fetches */
    const simt_grid *grid;    /* its launch (state != WS_FREE) */
    uint32_t active, live, bar_wait;
    unsigned n_ld, n_st, ibuf_n;
    unsigned priority;        /* GTO: higher first */
    uint32_t pc;
    uint64_t age;             /* GTO: lower = older */
} simt_warp_status;

/* The warp slots as bit vectors (bit s: slot s, the first 64 slots): not
 * free, draining (threads exited, loads in flight), waiting at a barrier with
 * no lane left to issue, loads in flight. */
typedef struct {
    uint64_t live, drain, bar, loads;
} simt_slot_masks;

/* A running warp's pipeline (EDGE Fig. 11b): results or restore reads
 * pending (pipe), registers not ready (sb), decoded instructions (ibuf), an
 * i-cache miss (imiss), loads that may be dropped (ldok).  All false for a
 * warp that does not run. */
typedef struct {
    bool pipe, sb, ibuf, imiss, ldok;
} simt_warp_pipe;

#endif
