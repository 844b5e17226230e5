/* simt_core_state: the SIMT core's layout (warps, blocks, loads, the
 * LSU, caches, MSHRs, port tags, the writeback queue, the schedulers'
 * compact view) and what its own files share: simt_core.c (the pipeline),
 * simt_core_base.c (faults, deferred work, the writeback queue, a warp's end
 * and the GTO order) and simt_lsu.c (fetch, the LSU and the port).  Nothing
 * else includes it but gpu_internal.h, the white-box view that tests and
 * tools use to read a core's counters; everyone else goes through
 * simt_core.h.  docs/SIMT.md "Layout: who calls whom".
 *
 * Dependencies among the core's files go one way:
 * simt_core.c -> simt_lsu.c -> simt_core_base.c. */
#ifndef SIMT_CORE_STATE_H
#define SIMT_CORE_STATE_H

#include "simt/rv32_exec.h"
#include "simt/simt_abi.h"
#include "simt/simt_core.h"

#define SIMT_CLS_UNKNOWN 0xff /* gcls: the gated instruction's unit class is not known yet */
#define SIMT_MSHR_MERGE 32    /* loads waiting on one L1 MSHR; one more stalls the LSU */

/* The scan checks a gate opening within this many cycles itself (no wake entry). */
#ifndef SIMT_GATE_NEAR
#define SIMT_GATE_NEAR 16
#endif

/* An in-flight load (or atomic) of one warp.  Values of ordinary memory
 * are read at issue (functional model); F/E-tracked lanes get theirs from
 * the memory system's response.  rd is written when every global line of
 * the load has come back (wait == 0) and done has passed.  Dropping one
 * (preemption) = clear valid and the scoreboard entry and set the warp's PC
 * back to ld.pc for the lanes in ld.mask; responses still in flight for it
 * find a different uid and are ignored. */
typedef struct {
    bool valid;
    uint8_t rd;         /* unified register number */
    uint16_t op;        /* rv_op (F/E lanes: how to extend the bytes) */
    uint32_t pc;        /* PC of the load instruction */
    uint32_t mask;      /* lanes */
    uint64_t done;      /* ready cycle of the lines that came back (and of shared / local lanes) */
    unsigned wait;      /* global lines not back yet */
    bool global;        /* it touched global memory (counted in the load latency) */
    bool replay;        /* a plain load (not LR/SC/AMO, not F/E): may be dropped and replayed */
    uint64_t seq;       /* warp's instruction count when it issued */
    uint64_t uid;       /* the core's load number: responses match on it */
    uint64_t issued;    /* cycle it issued */
    uint32_t fe_lanes;  /* lanes in the F/E-tracked region (value from the response) */
    uint32_t val[SIMT_LANES];
    uint32_t addr[SIMT_LANES]; /* F/E lanes: their addresses */
} simt_load;

typedef struct {
    /* hot fields first: the fetch and issue scans read only these, the
     * scoreboard and x.pc (simulation speed) */
    int state;
    uint32_t active;
    unsigned ibuf_n;        /* i-buffer: ibuf_n decoded instructions at pc, pc+4, ... (flush: 0) */
    uint32_t imiss;         /* i-cache line + 1 it waits for (0: none) */
    bool stop_fetch;        /* victim being flushed: no new fetches (EDGE IV-D) */
    bool event;             /* this is an event warp started from the PEWT */
    bool aborted;           /* an event warp ended by a fault: draining its requests (simt_lsu.c) */
    unsigned n_restore;     /* register restore reads in flight: the warp may not issue (EDGE IV-D) */
    /* can_issue's scoreboard check of the instruction at sb_pc remembered
     * (sb_known; every sb_ready write forgets it): its operands are ready
     * from cycle sb_until; sb_cls is its unit class */
    bool sb_known;
    uint8_t sb_cls;
    uint32_t sb_pc;
    uint64_t sb_until;
    unsigned n_ld;
    unsigned n_st;          /* store / atomic line requests not acknowledged yet (FENCE waits) */
    unsigned n_amo;         /* [gpu] atomics = memory: atomic line requests not answered yet (the
                             * warp's loads / stores to their lines and its block barrier wait) */
    unsigned slot;          /* index in the core's warp array */
    unsigned block;         /* index in the core's block array */
    unsigned wib;           /* warp index within the block */
    const simt_grid *grid;  /* its launch */
    unsigned priority;      /* GTO: higher first (event warps on top) */
    uint64_t age;           /* GTO: lower = older */
    /* Divergence: per-thread PCs with min-PC scheduling (docs/SIMT.md).
     * x.pc/active = the group that issues next (the lanes whose PC is the
     * smallest among the schedulable ones); x.lane_pc[] is valid for lanes
     * in live but not in active. */
    uint32_t live;          /* threads not exited */
    uint32_t bar_wait;      /* threads waiting at the block barrier */
    uint64_t fence_since;   /* cycle + 1 its FENCE first found stores outstanding (0: not waiting) */
    uint64_t instrs;        /* warp instructions issued */
    uint64_t issued_at;     /* cycle + 1 of its last issue (the event breakdown) */
    unsigned local_idx;     /* local-memory region (slot; nwarps + PEWT entry for event warps) */
    /* scoreboard: register r may be read/written from cycle sb_ready[r] */
    uint64_t sb_ready[RV_NREGS];
    rv_lanes x;             /* registers, PCs, FP CSRs (the functional state; x.pc first) */
    uint32_t ld_mask;       /* bit j: ld[j].valid (writeback visits only these) */
    simt_load ld[SIMT_MAX_LD];
    uint32_t lr_addr[SIMT_LANES]; /* LR reservation (address + 1; 0 none) */
    uint32_t lr_val[SIMT_LANES];
} simt_warp;


typedef struct {
    bool valid;
    const simt_grid *grid;
    uint32_t ctaid[3];
    unsigned nwarps, live_threads, bar_arrived, warps_done;
    uint32_t shmem_off, shmem_size;
    unsigned regs;
    uint16_t warp_slot[64];
    uint64_t bar_since;       /* cycle the first thread waiting at the barrier arrived */
    uint64_t uid, bar_gen;    /* gpu_shared_hook: placement number, barriers passed */
} simt_block;

/* A load waiting on an L1 MSHR (slot, load index, the load's uid). */
typedef struct {
    uint16_t slot;
    uint8_t ld;
    uint64_t uid;
} simt_waiter;

/* L1 MSHR: one line read in flight, loads merged onto it.  Kept until the
 * response arrives even when every waiter was dropped: a request in the
 * memory system cannot be recalled (the line is installed then). */
typedef struct {
    bool valid;
    uint32_t line;
    unsigned n_wait;
    simt_waiter wait[SIMT_MSHR_MERGE];
} simt_mshr;

/* A min-heap of timed entries (when, then slot / load / uid): the loads due
 * to complete, and the warps whose gate opens at a later cycle. */
typedef struct {
    uint64_t when, uid;
    uint16_t slot;
    uint8_t ld;
} simt_timed;
typedef struct {
    simt_timed *e;
    unsigned n, cap;
} simt_heap;

/* Tags of the core's other requests: what to do with each response. */
enum { TG_FREE = 0, TG_STORE, TG_ATOMIC, TG_FE_LOAD, TG_FE_STORE, TG_RESTORE };
typedef struct {
    uint8_t kind;
    uint8_t ld;             /* atomics, F/E loads: load index */
    uint16_t slot;          /* warp slot */
    uint32_t pc;
    uint64_t age;           /* the warp's age: stores and restores find it live or parked */
    uint64_t uid;           /* atomics, F/E loads: the load's uid */
    uint32_t next;          /* free list */
    uint32_t line;          /* atomics: the line */
    uint32_t lanes;         /* atomics: the lanes on it (lane-form results in this order) */
} simt_tag;

/* A register save (posted write) or restore (read) line waiting for the
 * port (EDGE IV-D). */
typedef struct {
    uint64_t addr, age;
    uint16_t slot;
    bool read;
} simt_bulk;

/* The memory instruction in the load/store unit: its global lines, one per
 * cycle into the L1 / the port (lanes: which lanes touch it). */
enum { LSU_LOAD = 0, LSU_STORE, LSU_AMO };
typedef struct {
    bool busy;
    uint8_t kind;           /* LSU_* */
    uint8_t ld;             /* loads / atomics: load index in the warp */
    uint8_t size;
    uint16_t op;            /* rv_op */
    uint16_t slot;
    uint32_t pc;
    uint64_t uid, age;
    unsigned n, pos;
    uint32_t line[SIMT_LANES], lanes[SIMT_LANES];
    bool fe[SIMT_LANES];
    uint8_t fe_trig, fe_act; /* F/E lines: the instruction's trigger / action (MEM_FE_DEFAULT: F/E 4.1) */
    uint32_t addr[SIMT_LANES], sval[SIMT_LANES]; /* F/E stores, atomics: where and what */
    uint8_t amo_op[SIMT_LANES];   /* [gpu] atomics = memory: each lane's MEM_AMO_* ... */
    uint32_t amo_cmp[SIMT_LANES]; /* ... and for SC the value its LR read */
} simt_lsu;

typedef struct {
    unsigned sets, assoc;
    uint32_t *tag;    /* line address + 1; 0 = invalid */
    uint64_t *lru;
} simt_cache;

/* A victim warp's context parked aside while an event warp runs in its
 * slot (EDGE IV-D), and the event warp's registers there. */
typedef struct {
    bool parked;              /* slot holds a parked victim (event running or resume pending) */
    bool saved;               /* its registers went to memory (else the event's were reserved) */
    unsigned ev_regs;         /* registers per thread of the event warp in the slot */
    uint64_t ev_mask;         /* its register mask (what a saved park wrote out) */
} simt_slot_ev;

/* Work a core's cycle leaves for the serial part of the GPU's cycle (the
 * GPU's threads, docs/SIMT.md "Threads"): what touches state other cores
 * share.  A memory instruction's functional part (loads read, stores and
 * atomics at issue write the memory), and the calls up to the GPU, kept in
 * the order the cycle made them; gpu_tick carries them out core by core, in
 * core order, so every core sees the others' stores as when one thread steps
 * the cores in order. */
typedef struct {
    simt_warp *w;
    simt_load *ld;            /* its load / atomic entry; NULL for a store */
    uint16_t op;              /* rv_op */
    uint8_t size;
    bool amo;                 /* an atomic done at issue ([gpu] atomics = issue) */
    uint32_t m;               /* lanes done here (not F/E lanes, not atomics at the memory) */
    uint8_t *hp[SIMT_LANES];  /* each lane's byte in the memory it addresses */
    uint32_t addr[SIMT_LANES], src[SIMT_LANES];
} simt_dmem;
typedef struct {
    simt_dcall_fn fn;         /* NULL: a simt_dmem (index mem) */
    void *user;
    uint64_t a;
    unsigned mem;
    unsigned char payload[SIMT_DCALL_PAYLOAD];
} simt_dcall;

struct simt_core {
    unsigned id;
    const gpu_config *k;
    uint8_t *gmem;            /* flat global memory (functional) */
    uint64_t gmem_size;
    simt_dcache *dc;
    uint64_t now;             /* the cycle simt_core_tick() runs */
    simt_core_cbs cb;
    const simt_core_hooks *hooks;
    void *ext;
    bool failed;
    char err[384];
    unsigned nwarps;          /* warp slots */
    simt_warp *w;
    simt_block *blk;          /* max_blocks_per_core, + 1 empty block that event warps
                               * point at (EDGE IV-D: an event warp has no TB, no
                               * shared memory, block id 0) */
    unsigned ev_block;        /* its index */
    /* resources held; only the claim / release / park / resume functions and
     * the block scheduler below change them */
    unsigned used_threads, used_blocks, used_regs, used_shmem, used_warps;
    uint8_t *shmem;           /* shmem_per_core bytes */
    uint8_t *local;           /* (nwarps + PEWT entries) * 32 * stack_bytes */
    /* GTO order: live warp slots sorted by (priority desc, age asc) */
    uint16_t *order;
    uint16_t *order_pos;      /* slot -> its index in order (UINT16_MAX: not in it) */
    uint8_t *sched_of;        /* slot -> its scheduler (slot % schedulers_per_core, no division in the scan) */
    /* The schedulers', fetch's and the active-warp limit's compact view of
     * the warps, so that their per-cycle scans read these arrays and not the
     * 14 KB warp structs (simulation speed); simt_warp_touch keeps it
     * current: gate = the first cycle the warp may pass can_issue's checks of
     * its own state (state, lanes, i-buffer, restores, scoreboard; 0: check
     * it), fetch_mask = fetch_wants, lim_ok = it counts toward the limit */
    uint64_t *gate;
    uint8_t *gcls;            /* the unit class of the instruction gate is about (SIMT_CLS_UNKNOWN) */
    uint64_t *fetch_mask;     /* bit per slot */
    uint8_t *lim_ok;
    uint16_t *sorder;         /* per scheduler s, its slots in GTO order: sorder[s * nwarps + i], i < sorder_n[s] */
    unsigned sorder_n[SIMT_MAX_UNITS];
    uint16_t *spos;           /* slot -> its index i in sorder (UINT16_MAX: not in the GTO order) */
    /* per scheduler, bit i: sorder entry i may pass its gate now; a superset
     * (a clear bit means gate > now; wake brings the bit back on time) */
    uint64_t rdy[SIMT_MAX_UNITS][SIMT_MAX_WARPS / 64];
    uint64_t ldst[SIMT_MAX_UNITS][SIMT_MAX_WARPS / 64]; /* bit i: gcls of sorder entry i is CL_LDST */
    simt_heap wake;           /* gates that open at a later cycle (a stale entry: gate changed since) */
    bool check_view;          /* $FG_CHECK_VIEW: each cycle, the view against the warps (a test) */
    /* loads whose lines are all back, by completion cycle (a min-heap; a
     * dropped load's entry finds its uid gone) */
    simt_heap wbq;
    unsigned n_order;
    unsigned n_exempt;        /* warps in the order that simt_limit_exempt exempts (simt_core_sort) */
    int last_issued[SIMT_MAX_UNITS];
    unsigned active_limit;    /* CM-BAL hook: only the first N warps in GTO order issue */
    /* DYNCTA hook (sim/cm/cm_dyncta.c): at most block_limit blocks (0: no
     * limit) and, with block_pause, only the warps of the oldest block_limit
     * blocks issue: the first pause_lim entries of the GTO order
     * (simt_core_sort); idle_cycles / mem_cycles its C_idle / C_mem, counted
     * once a limit was set (gpu_set_block_limit) */
    unsigned block_limit, pause_lim;
    bool block_pause, count_waits;
    uint64_t idle_cycles, mem_cycles;
    uint64_t issued_warps;    /* slots (< 64) that issued since gpu_take_issued_warps */
    uint64_t busy[CL_COUNT][SIMT_MAX_UNITS];
    simt_cache l1, icache;
    unsigned fetch_rr;
    uint64_t next_wb;         /* earliest load completion in wbq */
    /* memory path (simt_lsu.c): one port into the memory system */
    mem_system *ms;
    unsigned port;
    unsigned lsh;             /* log2(line_bytes) */
    simt_lsu lsu;
    simt_mshr *mshr;          /* l1_mshrs */
    uint64_t mshr_gen;        /* bumped when an MSHR is taken or freed */
    struct {                  /* the last line looked up among the MSHRs (line + 1), at mshr_gen */
        uint64_t gen;
        uint32_t line;
        int mi;
    } mshr_memo;
    uint32_t *imshr;          /* icache_mshrs: line + 1 being fetched (0: free) */
    mem_req *pq;              /* port queue (port_queue) */
    unsigned pq_head, pq_n;
    simt_tag *tag;            /* port_tags */
    uint32_t tag_free;        /* free-list head (UINT32_MAX: none) */
    unsigned tags_used, mshrs_used, imshrs_used;
    /* F/E accesses NACKed by the watchdog are sent again (docs/FE_E2E.md): per tag the request as
     * sent, when to send it again (0: not waiting) and how often it was */
    mem_req *fe_req;
    uint64_t *fe_retry_at;
    uint8_t *fe_tries;
    unsigned n_retry;
    /* simt_core_set_event_faults: per warp slot, why its event warp was
     * ended (NULL: every fault stops the core); how many were */
    char (*evf_msg)[384];
    uint64_t evf_aborts;
    simt_bulk *bulk;          /* save / restore lines waiting (nwarps x 64 x 2 when events are on) */
    unsigned bulk_head, bulk_n, bulk_cap;
    unsigned n_save_out;      /* posted save writes not acknowledged */
    unsigned arb_rr;          /* port arbitration: LSU, fetch, save/restore in turn */
    uint64_t ld_uid;
    uint64_t warp_seq;        /* age of the next warp started */
    uint64_t alloc_mask;      /* slots given to a new block this cycle (preemption controller) */
    unsigned alloc_regs;      /* their registers per thread */
    /* EDGE IV-D parked victims (allocated when warp-level events are on) */
    simt_warp *park;          /* per slot */
    simt_slot_ev *sev;        /* per slot */
    uint64_t save_base;       /* this core's register save area: 64 registers x 32 lanes x 4 B per slot */
    /* CM 4.2 stallGPU: bit s of issue_stall = scheduler s could not issue in
     * the core's last cycle while the core held warps; stall_gpu sums the
     * bits, stall_pipe the part where some warp had passed the scoreboard but
     * its unit / the LSU could not take it (Fig. 11 item 7), warp_cycles the
     * cycles the core held at least one warp (gpu_core_stats) */
    uint8_t issue_stall;
    bool evb_on;              /* gpu_set_event_breakdown: evb[] counts event warps' cycles by class */
    uint64_t evb[GPU_EVB_N];
    bool pipe_full;           /* this scheduler's scan: a warp past the scoreboard was refused */
    uint64_t stall_gpu, stall_pipe, warp_cycles;
    /* statistics */
    uint64_t stall_mshr, l1_hits, l1_misses, warp_instrs, thread_instrs;
    uint64_t stall_port, req_sent, rsp_taken, loads, load_cycles, stores, fences, fence_cycles;
    uint64_t fe_nacks, fe_retries;
    /* [gpu] kernel_end_drain: an event warp finished here while data requests
     * were in flight; until none is, memory instructions other than shared
     * ones, FENCEs and barriers wait (simt_lsu_end_drain_refuses).
     * drain_refused: this cycle refused one; drain_new: entered since the
     * last cycle's count */
    bool end_drain, drain_refused, drain_new;
    unsigned data_tags;       /* tags in use for loads, stores and atomics (not register restores) */
    uint64_t end_drains, end_drain_cycles, end_drain_stalls;
    /* optional check of each global access (gpu_set_access_check) */
    gpu_access_check acc_check;
    gpu_prov_load prov_load; /* with it, registers carry provenance (rv_lanes.prov) */
    void *acc_user;
    gpu_shared_hook sh_hook;  /* optional: every shared and global lane access (gpu_set_shared_hook) */
    void *sh_user;
    gpu_watch watch;          /* barrier releases, the issue of one pc (gpu_set_watch) */
    uint32_t watch_pc;        /* watch.pc's pc, or 0xffffffff (no pc: pcs are 4-byte aligned) */
    uint64_t blk_uid;         /* blocks placed so far */
    /* the cycle's deferred work (simt_dmem, simt_dcall above) */
    simt_dcall *dq;
    unsigned dq_n, dq_cap;
    simt_dmem *dm;
    unsigned dm_n, dm_cap;
    unsigned rsp_read;        /* responses read at the begin, taken from the port at the commit */
    bool ticking;             /* between simt_core_begin and the end of simt_core_commit */
    bool threaded;            /* this cycle runs on one of the GPU's threads: memory work deferred */
    bool *cycle_wrote;        /* the GPU's: a commit of this cycle wrote memory (a store or an atomic) */
};

/* The warp in slot may pass its gate: its scheduler's scan visits it. */
static inline void simt_view_ready(simt_core *c, unsigned slot) {
    const unsigned i = c->spos[slot];
    if (i != UINT16_MAX) c->rdy[c->sched_of[slot]][i >> 6] |= 1ull << (i & 63);
}

/* The view of the warp in slot is unknown: the scan checks it in full. */
static inline void simt_view_forget(simt_core *c, unsigned slot) {
    const unsigned i = c->spos[slot];
    c->gate[slot] = 0;
    c->gcls[slot] = SIMT_CLS_UNKNOWN;
    if (i != UINT16_MAX) {
        c->rdy[c->sched_of[slot]][i >> 6] |= 1ull << (i & 63);
        c->ldst[c->sched_of[slot]][i >> 6] &= ~(1ull << (i & 63));
    }
}

/* After any change of w's state, active or live lanes, PC, i-buffer, i-miss,
 * stop-fetch, barrier wait or restore count: the compact view above follows
 * (a parked victim's copy has none). */
static inline void simt_warp_touch(simt_core *c, const simt_warp *w) {
    const unsigned s = w->slot;
    if (w != &c->w[s]) return;
    const uint64_t bit = 1ull << (s & 63);
    simt_view_forget(c, s);
    if (w->state == WS_RUN && w->active && w->ibuf_n < c->k->ibuf_depth && !w->imiss && !w->stop_fetch)
        c->fetch_mask[s >> 6] |= bit;
    else
        c->fetch_mask[s >> 6] &= ~bit;
    c->lim_ok[s] = w->state == WS_RUN && (w->live & ~w->bar_wait);
}

/* The active-warp limit (CM-CPU / CM-BAL, gpu_set_active_warp_limit) holds
 * background warps only: an event kernel's warps (EDGE's warp-level events
 * and launches at raised priority, as the GPU's event path counts them) are
 * never held and take none of its places, so that throttling the background
 * for congestion cannot delay the events it shares the core with.  Whatever
 * changes the answer (a warp's start, end or resume; simt_core_set_priority)
 * is followed by simt_core_sort, which counts the exempt warps (n_exempt;
 * $FG_CHECK_VIEW recounts them every cycle). */
static inline bool simt_limit_exempt(const simt_warp *w) {
    return w->event || (w->priority && w->grid->priority > 0);
}

/* The scoreboard's only writer: register r of w usable from cycle t. */
static inline void simt_sb_set(simt_core *c, simt_warp *w, unsigned r, uint64_t t) {
    w->sb_ready[r] = t;
    w->sb_known = false;
    if (w == &c->w[w->slot]) simt_view_forget(c, w->slot);
}


/* ---- simt_core_base.c: under the pipeline and the LSU ---- */
/* A call up to the GPU: at the commit during the core's cycle, else now. */
void simt_core_up(simt_core *c, simt_dcall_fn fn, uint64_t a);
/* The call up (simt_core_up's fn) for a grid's first instruction: a = the
 * simt_grid pointer. */
void simt_call_first_instr(void *user, uint64_t a, const void *p);
/* A memory instruction's functional part to fill in at the commit. */
simt_dmem *simt_core_defer_mem(simt_core *c);
void simt_heap_push(simt_heap *h, simt_timed e);
simt_timed simt_heap_pop(simt_heap *h);
/* Load ldi of warp slot has all its lines back; it completes at its done cycle. */
void simt_wb_push(simt_core *c, unsigned slot, unsigned ldi);
/* The slot's warp is gone: no scheduler keeps greedily to it. */
void simt_forget_last_issued(simt_core *c, unsigned slot);
/* A draining warp whose last load or store came back finishes (its block
 * may be done; an event warp's slot goes back or to its parked victim). */
void simt_warp_check_done(simt_core *c, simt_warp *w);

/* ---- simt_core.c, for its own files ---- */
bool simt_loads_droppable(const simt_warp *w);
void simt_drop_loads(simt_core *c, simt_warp *w);
void simt_barrier_check(simt_core *c, simt_block *b);
/* Whether no instruction can be fetched at pc (the decoder's rule); why in
 * buf (may be NULL with len 0). */
bool simt_fetch_bad(const simt_dcache *d, uint32_t pc, char *buf, size_t len);

/* ---- simt_lsu.c: the core's memory units ---- */
int simt_lsu_init(simt_core *c);
void simt_lsu_free(simt_core *c);
/* The LSU or the port still has work (simt_core_mem_busy). */
bool simt_lsu_busy(const simt_core *c);
/* Issues a memory instruction: 0 issued, 1 structural stall (no side
 * effects), -1 fault. */
int simt_lsu_issue(simt_core *c, simt_warp *w, const rv_inst *in, uint32_t m);
/* Start of the cycle: take responses from the port. */
void simt_lsu_responses(simt_core *c);
/* After issue: the LSU's next line, instruction fetch, save/restore lines,
 * in turn for the port queue. */
void simt_lsu_requests(simt_core *c);
/* The commit: the deferred memory instruction m (simt_dmem) carried out. */
void simt_lsu_dmem(simt_core *c, const simt_dmem *d);
/* The commit's last step: offer the port queue's head to the memory system. */
void simt_lsu_send(simt_core *c);
void simt_lsu_save(simt_core *c, unsigned slot, uint64_t age, uint64_t mask);
void simt_lsu_restore(simt_core *c, simt_warp *w, uint64_t mask);
/* [gpu] kernel_end_drain: a kernel (an event warp) finished on the core. */
void simt_lsu_kernel_end(simt_core *c);
/* Once per cycle before issue: the end drain is over when no data request is in flight. */
void simt_lsu_end_drain_step(simt_core *c);
/* During the end drain: in (lanes m of w) would touch global or local memory,
 * is an atomic, a FENCE or a barrier, and must wait. */
bool simt_lsu_end_drain_refuses(const simt_core *c, const simt_warp *w, const rv_inst *in, uint32_t m);
uint64_t simt_save_addr(const simt_core *c, unsigned slot, unsigned r);
/* "block (x,y,z) thread (x,y,z)" of lane l of w, for fault messages */
void simt_thread_name(const simt_core *c, const simt_warp *w, unsigned l, char *buf, size_t len);

#endif
