/* gpu_internal: the SIMT model's state, explicit so that later mechanisms
 * (warp preemption, EDGE IV-D; CM-BAL active-warp limit) can read and
 * manipulate it: per-warp PCs / masks, barrier state, i-buffer, scoreboard,
 * in-flight loads with their PCs, MSHRs, register allocation. */
#ifndef GPU_INTERNAL_H
#define GPU_INTERNAL_H

#include "simt/gpu.h"
#include "simt/rv32.h"
#include "simt/simt_abi.h"

#define SIMT_LANES 32
#define SIMT_MAX_LD 16     /* upper bound of gpu_config.max_inflight_loads */
#define SIMT_MAX_UNITS 8

/* An in-flight load (or atomic) of one warp: values are read from memory at
 * issue and written into rd when it completes.  Dropping one (preemption)
 * = clear valid, release its MSHR reference and the scoreboard entry, and
 * set the warp's PC back to ld.pc for the lanes in ld.mask. */
typedef struct {
    bool valid;
    uint8_t rd;         /* unified register number */
    uint32_t pc;        /* PC of the load instruction */
    uint32_t mask;      /* lanes */
    uint64_t done;      /* completion cycle */
    int mshr;           /* MSHR index it waits on (-1: none, e.g. L1 hit) */
    bool replay;        /* a plain load (not LR/SC/AMO): may be dropped and replayed */
    uint64_t seq;       /* warp's instruction count when it issued */
    uint32_t val[SIMT_LANES];
} simt_load;

enum { WS_FREE = 0, WS_RUN, WS_DRAIN /* all threads exited, loads in flight */,
       WS_PARKED /* a preempted victim's slot after its event warp exited, until RESUME */ };


typedef struct {
    int state;
    unsigned slot;          /* index in the core's warp array */
    unsigned block;         /* index in the core's block array */
    unsigned wib;           /* warp index within the block */
    unsigned launch;        /* launch index */
    unsigned priority;      /* GTO: higher first (event warps on top) */
    uint64_t age;           /* GTO: lower = older */
    /* Divergence: per-thread PCs with min-PC scheduling (docs/SIMT.md).
     * pc/active = the group that issues next (the lanes whose PC is the
     * smallest among the schedulable ones); lane_pc[] is valid for lanes in
     * live but not in active. */
    uint32_t pc;
    uint32_t active;
    uint32_t live;          /* threads not exited */
    uint32_t bar_wait;      /* threads waiting at the block barrier */
    uint32_t lane_pc[SIMT_LANES];
    /* i-buffer: ibuf_n decoded instructions at pc, pc+4, ... (flush: 0) */
    unsigned ibuf_n;
    uint64_t fetch_ready;   /* i-cache miss outstanding until this cycle */
    /* scoreboard: register r may be read/written from cycle sb_ready[r] */
    uint64_t sb_ready[RV_NREGS];
    simt_load ld[SIMT_MAX_LD];
    unsigned n_ld;
    uint32_t frm, fflags;
    uint32_t lr_addr[SIMT_LANES]; /* LR reservation (address + 1; 0 none) */
    uint32_t lr_val[SIMT_LANES];
    uint64_t instrs;        /* warp instructions issued */
    /* EDGE warp-level events and preemption (sim/simt/simt_edge_core.c) */
    unsigned local_idx;     /* local-memory region (slot; nwarps + PEWT entry for event warps) */
    bool event;             /* this is an event warp started from the PEWT */
    bool stop_fetch;        /* victim being flushed: no new fetches (EDGE IV-D) */
    uint32_t r[RV_NREGS + 1][SIMT_LANES]; /* x0..x31, f0..f31, sink */
} simt_warp;

typedef struct {
    bool valid;
    unsigned launch;
    uint32_t ctaid[3];
    unsigned nwarps, live_threads, bar_arrived, warps_done;
    uint32_t shmem_off, shmem_size;
    unsigned regs;
    uint16_t warp_slot[64];
} simt_block;

typedef struct {
    bool valid;
    uint32_t line;
    uint64_t done;
} simt_mshr;

typedef struct simt_edge_core simt_edge_core; /* PEWT + preemption controller of one core */

typedef struct {
    unsigned sets, assoc;
    uint32_t *tag;    /* line address + 1; 0 = invalid */
    uint64_t *lru;
} simt_cache;

typedef struct {
    unsigned id;
    unsigned nwarps;          /* warp slots */
    simt_warp *w;
    simt_block *blk;          /* max_blocks_per_core, + 1 empty block that event warps
                               * point at (EDGE IV-D: an event warp has no TB, no
                               * shared memory, block id 0) */
    unsigned used_threads, used_blocks, used_regs, used_shmem, used_warps;
    uint8_t *shmem;           /* shmem_per_core bytes */
    uint8_t *local;           /* nwarps * 32 * stack_bytes */
    /* GTO order: live warp slots sorted by (priority desc, age asc) */
    uint16_t *order;
    unsigned n_order;
    int last_issued[SIMT_MAX_UNITS];
    unsigned active_limit;    /* CM-BAL hook: only the first N warps in GTO order issue */
    uint64_t busy[CL_COUNT][SIMT_MAX_UNITS];
    simt_cache l1, icache;
    simt_mshr *mshr;
    unsigned fetch_rr;
    uint64_t next_wb;         /* earliest in-flight load completion */
    simt_edge_core *edge;     /* NULL when warp-level events are off */
    uint64_t alloc_mask;      /* slots given to a new block this cycle (preemption controller) */
    unsigned alloc_regs;      /* their registers per thread */
    /* statistics */
    uint64_t stall_mshr, l1_hits, l1_misses;
} simt_core;

/* Launch states.  Warp-level events (EDGE IV-C) skip the KMU: they wait for
 * the SIMT core scheduler, then sit in a core's PEWT until they complete. */
enum { LS_FREE = 0, LS_PENDING, LS_RUNNING, LS_EV_WAIT, LS_EV_CORE };

typedef struct {
    int state;                /* LS_* */
    gpu_launch_desc d;
    uint64_t seq;
    uint32_t nblocks, next_block, blocks_done;
    unsigned threads, nwarps, regs, shmem; /* regs: per block */
    unsigned regs_pt;         /* registers per thread */
    uint64_t reg_mask;        /* which (the kernel image's), saved when an event preempts */
    bool first_done;
    /* warp-level event (EDGE IV-C): dispatched to a core's PEWT, not as blocks */
    bool warp_event;
    gpu_event_info ev;        /* filled when it starts, reported with its first instruction */
} simt_launch;

typedef struct {
    uint64_t base, end;       /* code+data span in GPU memory */
    uint32_t shmem_static;
    unsigned regs;            /* registers per thread scanned from the code */
    uint64_t reg_mask;        /* which ones (x0..x31, f0..f31): saved when an event warp preempts */
    char name[64];
} simt_image;

typedef struct {
    uint32_t tag;             /* pc + 1 */
    rv_inst in;
} simt_dcache_ent;

struct gpu {
    gpu_config cfg;
    uint8_t *mem;
    uint64_t mem_size, brk;
    uint64_t cycle;
    bool failed;
    char err[512];
    gpu_callbacks cb;
    gpu_event_cb ev_cb;
    void *ev_user;
    simt_dcache_ent *dc;      /* decoded-instruction cache (simulator speed, not timing) */
    unsigned dc_mask;
    simt_image *img;
    unsigned n_img, cap_img;
    simt_launch *lq;
    unsigned n_lq;
    uint64_t launch_seq, warp_seq;
    simt_core *core;
    unsigned rr_core;
    unsigned running;         /* launches pending or running */
    uint64_t save_base;       /* register save area for preempted victims (EDGE IV-D) */
    unsigned ev_rr;           /* SIMT core scheduler: round-robin start for warp-level events */
    unsigned ev_waiting;      /* launches in LS_EV_WAIT */
    uint64_t warp_instrs, thread_instrs;
};

/* simt_core.c */
int simt_core_init(gpu_t *g, simt_core *c, unsigned id);
void simt_core_free(simt_core *c);
void simt_core_tick(gpu_t *g, simt_core *c);
/* Tries to place one block of launch li on core c; true on success. */
bool simt_core_try_block(gpu_t *g, simt_core *c, unsigned li, uint32_t block_idx);
void simt_core_sort(simt_core *c);
void gpu_fault(gpu_t *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const rv_inst *gpu_decode(gpu_t *g, uint32_t pc);
/* gpu.c: called when a block of launch li finishes */
void gpu_block_done(gpu_t *g, unsigned li);
void gpu_first_instr(gpu_t *g, unsigned li);

/* simt_edge_core.c: EDGE warp-level events and preemption in the SIMT core */
int simt_edge_init(gpu_t *g, simt_core *c, char *err, size_t errlen);
void simt_edge_free(simt_core *c);
/* start of the core's cycle: carry out the blocks' commands, completions */
void simt_edge_begin(gpu_t *g, simt_core *c);
/* end of the core's cycle: block inputs from the core's state, one edge */
void simt_edge_end(gpu_t *g, simt_core *c);
/* SIMT core scheduler: picks cores for waiting warp-level events */
void simt_edge_schedule(gpu_t *g);
/* an event warp finished (all threads exited, no loads in flight) */
void simt_edge_warp_exit(gpu_t *g, simt_core *c, simt_warp *w);
/* the core accepts no new background block while its PEWT has work waiting */
bool simt_edge_blocks_held(const simt_core *c);
/* warp state helpers of simt_core.c used by simt_edge_core.c */
void simt_warp_start(gpu_t *g, simt_warp *w, unsigned li, unsigned block, unsigned wib);
/* the slot's warp is gone: no scheduler keeps greedily to it */
void simt_forget_last_issued(simt_core *c, unsigned slot);
bool simt_loads_droppable(const simt_warp *w);
void simt_drop_loads(gpu_t *g, simt_core *c, simt_warp *w);
void simt_barrier_check(gpu_t *g, simt_core *c, simt_block *b);
void simt_reconverge(gpu_t *g, simt_core *c, simt_warp *w);

/* rv32_exec.c: result of a non-memory instruction */
enum { EX_NEXT = 0, EX_JUMP, EX_SPLIT, EX_BARRIER, EX_EXIT, EX_FAULT };
int rv_exec(gpu_t *g, simt_core *c, simt_warp *w, const rv_inst *in, uint32_t m, uint32_t *npc);
/* Element (lane) ids */
void simt_lane_tid(const simt_launch *L, unsigned wib, unsigned lane, uint32_t tid[3]);

#endif
