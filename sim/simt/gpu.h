/* gpu: the SIMT GPU model's public interface (C model; EDGE Table II
 * defaults).  Everything outside sim/simt/ uses only this header.
 *
 * Time is counted in GPU core cycles; gpu_tick() advances one cycle.  Behind
 * the cores is the memory system of sim/mem/ (interconnect, L2 slices,
 * memory partitions with the F/E-bit DRAM scheduler queues, DRAM), one port
 * per core plus the host port, over a flat byte-addressed global memory.
 * Host and devices reach GPU memory in two ways: timed, through the host
 * port (gpu_dma_write / gpu_dma_read: what a device sends or reads back
 * during an experiment), and untimed (gpu_mem_write / gpu_mem_read: a
 * backdoor for setting up inputs before an experiment and checking results
 * after it).  docs/SIMT.md, docs/LAUNCH_PATH.md. */
#ifndef GPU_H
#define GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fg_block.h"
#include "fg_config.h"
#include "mem/mem.h"
#include "mem/mem_config.h"

typedef struct gpu gpu_t;

/* The warp schedulers' policy ([gpu] warp_scheduler): GTO (greedy then
 * oldest, the papers' machines) or LRR (loose round-robin, GPGPU-Sim's lrr:
 * the first ready warp after the last one issued, within the highest ready
 * priority), a counterfactual for claims that rest on GTO's order. */
enum { GPU_SCHED_GTO, GPU_SCHED_LRR };

/* Where an RV32A atomic (AMO*, LR, SC) on global memory takes its
 * functional effect ([gpu] atomics, docs/SIMT.md "Atomics"): ISSUE, on the
 * flat memory when the warp issues it (the request to the L2 is timing
 * only); MEMORY, at the L2 slice that owns the line when the request is
 * served there (GPGPU-Sim performs atomics at the memory partition), the old
 * value coming back with the response.  Shared-memory atomics act at issue
 * in both. */
enum { GPU_ATOMICS_ISSUE, GPU_ATOMICS_MEMORY };
extern const char *const gpu_atomics_names[]; /* "issue", "memory" */

typedef struct {
    unsigned num_cores;          /* 16 */
    double clock_mhz;            /* 700 */
    unsigned warp_size;          /* 32 (fixed by the ISA model) */
    unsigned max_blocks_per_core;  /* 16 */
    unsigned max_threads_per_core; /* 2048 */
    unsigned regs_per_core;      /* 65536 */
    unsigned shmem_per_core;     /* 48 KB */
    unsigned l1_bytes;           /* 64 KB */
    unsigned l2_bytes;           /* 1 MB (informational: the L2 is mem.l2_*) */
    uint64_t global_mem_bytes;   /* size of the flat global memory */
    /* ... the SIMT model adds its own timing parameters (pipeline latencies,
     * i-buffer depth, MSHRs, ...) here, each read from [gpu] in the config */
    unsigned schedulers_per_core; /* 2 GTO warp schedulers */
    unsigned warp_scheduler;     /* GPU_SCHED_GTO (default) or GPU_SCHED_LRR */
    unsigned atomics;            /* GPU_ATOMICS_ISSUE (default) or GPU_ATOMICS_MEMORY */
    unsigned ibuf_depth;         /* i-buffer entries per warp (2) */
    unsigned line_bytes;         /* cache line (128) */
    unsigned icache_bytes, icache_assoc; /* 16 KB, 4-way; misses are MEM_K_INST reads */
    unsigned icache_mshrs;       /* i-cache lines being fetched at once (4) */
    unsigned l1_assoc;           /* 4 */
    unsigned l1_mshrs;           /* 32 */
    unsigned l1_hit_latency;     /* cycles (20) */
    unsigned shmem_latency;      /* cycles (24), + bank conflicts */
    unsigned max_inflight_loads; /* per warp (8, at most 16) */
    /* the core's one port into the memory system (docs/SIMT.md) */
    unsigned port_queue;         /* requests waiting for the port (8) */
    unsigned port_rsp_per_cycle; /* responses taken from the port per cycle (1) */
    unsigned port_tags;          /* outstanding writes / atomics / F/E accesses / restores (128) */
    unsigned dma_queue;          /* host DMA jobs queued or in flight (16) */
    unsigned dma_chans;          /* host interface queues (F/E 6.2: one per stream) for gpu_copy (8) */
    unsigned dma_read_window;    /* gpu_copy reads: line reads in flight per copy (32) */
    /* F/E accesses NACKed by the watchdog (docs/FE_E2E.md): sent again after
     * fe_retry_backoff << k cycles (k = retries so far), at most fe_retry_max
     * times, then a fault; fe_retry_max = 0: the first NACK faults */
    unsigned fe_retry_max;       /* 4 */
    unsigned fe_retry_backoff;   /* 256 cycles */
    unsigned stack_bytes;        /* per-thread local memory (1024) */
    unsigned max_kernels;        /* concurrently running kernels (32, at most 64) */
    /* kernel_end_drain: when an event warp finishes on a core, the core's
     * other warps may not start a global / local memory access, an atomic, a
     * FENCE or a barrier until none of the core's data requests is in flight
     * (shared-memory accesses go on).  The EDGE artifact's gem5-gpu flushes a
     * core's LSQ at every kernel end and GPGPU-Sim stalls the running kernels'
     * memory instructions on that core until the flush completes (its
     * shader.cc ldst_unit::memory_cycle_gem5), so more events per core cost
     * more stalls (0: off) */
    bool kernel_end_drain;
    /* per functional-unit class: ALU, MUL, DIV, FPU, SFU, LDST */
    unsigned units[6];           /* units per core */
    unsigned lat[6];             /* result latency (LDST: from the memory model) */
    unsigned ii[6];              /* initiation interval */
    /* EDGE warp-level events and preemption ([preempt] section; EDGE IV-C, IV-D) */
    struct {
        bool warp_events;        /* single-warp event launches go to a core's PEWT (1) */
        fg_impl impl;            /* PEWT and controller: rtl | c | lockstep */
        unsigned pewt_entries;   /* 4 (EDGE IV-E) */
        bool enable;             /* 1 = warp-level preemption, 0 = draining (EDGE IV-B) */
        unsigned policy;         /* victim: 0 oldest, 1 newest, 2 cheapest (edge_preempt.h) */
        unsigned opts;           /* flush optimizations, PRE_OPT_* bits */
        unsigned save_base;      /* register save/restore: base cycles */
        unsigned save_per_reg;   /* + cycles per saved register (one 128 B line each) */
        bool idle_skip;          /* don't clock a core's blocks while they are idle (1) */
        /* Experiment modes and policies of EDGE VI-C / VI-D (docs/PREEMPT.md):
         * skip_exec: an event warp completes as soon as it is ready to be
         *   scheduled, i.e. in the cycle after the controller's START gave it a
         *   warp context (a free one, or a flushed victim's), without issuing an
         *   instruction; its victim is resumed as after a real event.  Scheduling
         *   latency is then measured without the events' own execution (EDGE
         *   VI-C, Fig. 12).  Its gpu_event_info is reported at START (first =
         *   start) and the callbacks' first_instr is never called for it (0).
         * extra_regs: an event whose registers all fit in the free register file
         *   may preempt a victim with fewer registers per thread than it needs:
         *   it takes only the victim's warp slot and reserves its own registers
         *   (EDGE VI-C's MemC / IPSec variant; 0 = EDGE IV-D's rule).
         * reserve_cores: spatial reservation (EDGE IV-A, VI-D): the last N cores
         *   take only event kernels (warp-level events and launches with priority
         *   > 0), the others only the rest (0 = off; EDGE's: num_cores / 2).
         * drain: how far draining reaches (EDGE IV-B).  GPU_DRAIN_GPU: while a
         *   launch of higher priority has blocks or a warp-level event is waiting
         *   for a context, no core that could take it starts a lower-priority
         *   block, and an event that could only wait for a context to drain
         *   (preemption off, or no eligible victim) takes the first one freed
         *   on any core.  GPU_DRAIN_CORE: the event is bound at arrival
         *   to one core, whose new blocks alone are held; elsewhere a
         *   lower-priority block still fills what a higher one cannot use. */
        bool skip_exec;
        bool extra_regs;
        unsigned reserve_cores;
        unsigned drain;          /* GPU_DRAIN_* */
        /* reserve_place: which reserved core a warp-level event goes to.
         *   GPU_PLACE_COST: the cheapest with room (EDGE IV-C's SIMT core
         *   scheduler).  GPU_PLACE_ISSUE_RR: the EDGE artifact's (its
         *   issue_block2core): the first with room after the core that was last
         *   given a block or an event, one pointer for background blocks and
         *   events, so events after a background block crowd the first reserved
         *   cores. */
        unsigned reserve_place;  /* GPU_PLACE_* */
        /* reserve_dynamic: the number of reserved cores follows the event load
         *   (EDGE V-A / VII's future work, "dynamically scaling the amount of
         *   reserved resources based on the event rate and using preemption
         *   when free resources are unavailable"; docs/PREEMPT.md).  Every
         *   reserve_period cycles the mean number of events in flight over the
         *   period (warp-level events from arrival to completion, launches of
         *   priority > 0 from launch to completion) enters a moving average
         *   (weight 2^-reserve_ewma_shift); the target is that average over
         *   reserve_per_core events a core, rounded up, within [reserve_min,
         *   reserve_cores].  A higher target is taken at once, a lower one one
         *   core a period (the hysteresis).  An event that finds no reserved
         *   core with room for it but a background core where it can preempt
         *   (preemption on) goes there.  Off: reserve_cores is static. */
        bool reserve_dynamic;
        unsigned reserve_min, reserve_period, reserve_per_core, reserve_ewma_shift;
        /* event_reg_reserve: registers of each core's file that background
         *   blocks (priority 0) never take, so that an event finds its
         *   registers free (EDGE VI-C's "reserve a portion of the register
         *   file for event warps").  An event then needs only a warp slot: it
         *   takes a free one, or preempts any background warp for its slot
         *   and keeps its own registers in the file (the extra_regs rule,
         *   which a reserve turns on).  0: off. */
        unsigned event_reg_reserve;
        /* set_max: the most background warps one event may borrow (EDGE VI-C's
         *   multi-warp preemption, docs/PREEMPT.md "Victim sets"): when no
         *   single warp has the event's registers, the controller takes the
         *   smallest set of adjacent warps of one block whose registers cover
         *   them, the event warp runs in the first's slot and each is resumed
         *   after it.  1 (the default): EDGE IV-D's single victim.  The RTL
         *   controller is verilated for 1 and 4 (impl = c takes 1..4). */
        unsigned set_max;
        /* drop_rule: when a victim's in-flight loads may be dropped (EDGE IV-D,
         *   optimization 4).  GPU_DROP_EXACT: every instruction it issued since
         *   its oldest in-flight load is one of them (a plain load), so rolling
         *   the PC back replays exactly those loads.  GPU_DROP_PIPE: the EDGE
         *   artifact's (shader.cc dropLoads): as soon as nothing but plain
         *   loads is in flight, whatever completed after them.  The artifact
         *   then re-executes the younger instructions too; this model cannot
         *   (they took effect at issue), so it writes the loads' values (read at
         *   issue) at the drop and leaves the PC: the preemption latency of
         *   EDGE Fig. 11 as the artifact measures it, and a victim that resumes
         *   without paying its loads again. */
        unsigned drop_rule;      /* GPU_DROP_* */
        /* event_fetch_priority: an event warp's i-buffer refills before the
         *   round robin's (the EDGE artifact's -edge_int_fetch_high_priority;
         *   EDGE IV-D names only the warp scheduler's priority: 0) */
        bool event_fetch_priority;
    } pre;
    /* the memory system ([mem] section, sim/mem/mem_config.h); core_mhz = clock_mhz */
    mem_config mem;
    /* Requester ports of the caller's on the GPU's memory system, after the
     * cores' and the host port (gpu_extra_port); not a [gpu] key: set by the
     * program that owns those requesters (the CM machine's CPU cores, 0). */
    unsigned extra_ports;
    /* [gpu] threads: host threads that step the SIMT cores' cycles (gpu_tick;
     * docs/SIMT.md "Threads"): 1 steps them in order on the caller's thread, 0
     * (the default) takes $FG_THREADS or else the processors online; never more
     * than num_cores.  Every result is the same for every value. */
    unsigned threads;
} gpu_config;

/* Defaults (EDGE Table II), then [gpu], [preempt] and [mem] keys of cfg
 * override them. */
void gpu_config_default(gpu_config *c);
int gpu_config_load(gpu_config *c, fg_config *cfg, char *err, size_t errlen);

/* The RTL blocks a GPU of this configuration instantiates, with their
 * implementation: each core's PEWT and preemption controller (when
 * warp-level events are on) and each memory partition's F/E queues.
 * Writes at most max entries; returns how many. */
unsigned gpu_config_blocks(const gpu_config *c, fg_block_use *out, unsigned max);

gpu_t *gpu_new(const gpu_config *c, char *err, size_t errlen);
void gpu_free(gpu_t *g);
/* The configuration the GPU runs with. */
const gpu_config *gpu_get_config(const gpu_t *g);

/* Untimed backdoor to global memory, for setting up inputs before an
 * experiment and checking results after it (no memory-system traffic, no
 * time; bounds-checked: -1 on an out-of-range access).  Anything a device
 * sends or reads while the experiment runs goes through gpu_dma_*. */
int gpu_mem_write(gpu_t *g, uint64_t addr, const void *src, size_t len);
int gpu_mem_read(gpu_t *g, uint64_t addr, void *dst, size_t len);

/* Timed host / PCIe DMA through the memory system's host port: the job is
 * cut into line requests (functional, MEM_K_DMA, CPU side for the F/E
 * queues) that enter the port no faster than bytes_per_cycle (the link's
 * rate; 0 = as fast as the port takes them) and after the lines of the jobs
 * queued before it.  cb (may be NULL) runs in the gpu_tick() in which the
 * last line is acknowledged (write: data NULL) or the last data came back
 * (read: data = the len bytes read, valid during the call).  A device write
 * that must follow the DMA (doorbell, completion flag) waits for this
 * callback: PCIe posted-write ordering.  0 queued; 1 the host DMA queue
 * ([gpu] dma_queue jobs) is full, try again after a tick; -1 empty or out of
 * range.  A NACK (F/E watchdog) stops the GPU with a fault. */
typedef void (*gpu_dma_cb)(void *user, uint64_t tag, uint64_t cycle, const void *data, size_t len);
int gpu_dma_write(gpu_t *g, uint64_t addr, const void *src, size_t len, double bytes_per_cycle, gpu_dma_cb cb,
                  void *user, uint64_t tag);
int gpu_dma_read(gpu_t *g, uint64_t addr, size_t len, double bytes_per_cycle, gpu_dma_cb cb, void *user,
                 uint64_t tag);
/* A copy of the F/E host interface (F/E 4.4, 6.2; the F/E runtime,
 * sim/fe/fe_host.h, issues them):
 *   chan: the host interface's queue, one per stream (< [gpu] dma_chans):
 *     copies of one channel go in order, channels take turns line by line,
 *     so a copy waiting on its trigger never holds up another stream's;
 *   fe_trig / fe_act: FE_TRIG_* / FE_ACT_* (sim/twin/fe_sched_queues.h) of
 *     every line request (CPU side; MEM_FE_DEFAULT = none, F/E 4.4);
 *   bytes_per_cycle: the link's rate in the copy's direction, shared by the
 *     copies of that direction (PCIe is full duplex).
 * Host -> GPU (to_host false): line writes paced at the link's rate, done
 * when every line is acknowledged by the memory system (F/E 6.2).  GPU ->
 * host: at most [gpu] dma_read_window line reads in flight; each line's
 * data crosses the link back at bytes_per_cycle in the order it returns,
 * and the copy is done when its last byte has crossed.  cb as for
 * gpu_dma_*; 0 queued, 1 the DMA queue is full, -1 bad arguments. */
typedef struct {
    unsigned chan;
    uint8_t fe_trig, fe_act;
    double bytes_per_cycle;
} gpu_copy_opts;
int gpu_copy(gpu_t *g, bool to_host, uint64_t addr, const void *src, size_t len, const gpu_copy_opts *o,
             gpu_dma_cb cb, void *user, uint64_t tag);
/* No DMA job queued or in flight; how many more jobs the queue takes now. */
bool gpu_dma_idle(const gpu_t *g);
unsigned gpu_dma_free(const gpu_t *g);
/* Simple bump allocator over global memory, 256-byte aligned, never inside
 * the F/E-tracked region; 0 when full. */
uint64_t gpu_malloc(gpu_t *g, uint64_t bytes);
/* The F/E-tracked region ([mem] fe_region_*; accesses there are performed at
 * the DRAM scheduler under the F/E bits, F/E 4.1). */
void gpu_fe_region(const gpu_t *g, uint64_t *base, uint64_t *bytes);
/* F/E 4.2 "synchronized global memory": a bump allocator inside the F/E
 * region, whole 128-byte F/E lines (so no two allocations share an F/E
 * line); 0 when the region is full or empty.  Set its bits with
 * gpu_fe_init (the F/E runtime's fe_malloc_sync does both). */
uint64_t gpu_malloc_sync(gpu_t *g, uint64_t bytes);
/* The address gpu_malloc_sync hands out next (its allocations so far lie
 * below it). */
uint64_t gpu_sync_brk(const gpu_t *g);
/* Marks the F/E bits of [addr, addr + bytes) (inside the region, whole
 * lines) full or empty through the partitions' init ports over the next
 * cycles (F/E 4.5 "zero and mark full"; gpu_idle() waits for it).  0 queued;
 * 1 an init queue is full, tick and try again; -1 bad range. */
int gpu_fe_init(gpu_t *g, uint64_t addr, uint64_t bytes, bool full);
/* A gpu_fe_init still taking effect. */
bool gpu_fe_init_busy(const gpu_t *g);

typedef struct {
    uint64_t entry;           /* kernel pointer: address of the kernel's entry in GPU memory */
    unsigned regs_per_thread; /* from the ELF (registers the code uses) */
    unsigned static_shmem;    /* bytes */
    char name[64];
    uint64_t image_base, image_end; /* the loaded image (code, data, bss) in global memory */
} gpu_kernel;

/* Loads a RISC-V (RV32IMAF) kernel ELF into GPU memory; clear errors for a
 * missing, truncated or wrong-architecture file. */
int gpu_load_kernel(gpu_t *g, const char *elf_path, const char *symbol, gpu_kernel *out,
                    char *err, size_t errlen);

typedef struct {
    uint64_t kernel_ptr;   /* gpu_kernel.entry */
    unsigned regs_per_thread;
    uint32_t grid[3], block[3];
    uint32_t shmem;
    uint64_t param_addr;   /* kernel's parameter buffer in global memory (a0 at entry) */
    unsigned priority;     /* 0 = normal; higher runs first (event kernels) */
    uint64_t tag;          /* caller's id, echoed in the callbacks */
    /* warp-level event kernel (EDGE IV-C): with one block of <= 32 threads and
     * no shared memory it goes straight to a core's PEWT; otherwise it is an
     * ordinary launch (EDGE IV-E: event kernels needing shared memory are
     * treated as regular event kernels). */
    bool warp_event;
} gpu_launch_desc;

/* vstat bit the core adds to the controller's PRE_VS_* (edge_preempt.h,
 * 6 bits): the victim's next instruction was a FENCE waiting for its stores
 * (EDGE Fig. 11b "memory barrier"), seen when the flush began. */
#define GPU_VS_MEMBAR 64u

enum { GPU_DRAIN_GPU = 0, GPU_DRAIN_CORE };
extern const char *const gpu_drain_names[];
enum { GPU_PLACE_COST = 0, GPU_PLACE_ISSUE_RR };
extern const char *const gpu_place_names[];
enum { GPU_DROP_EXACT = 0, GPU_DROP_PIPE };
extern const char *const gpu_drop_names[];

/* How a warp-level event got its warp context, reported with its first
 * instruction (EDGE Fig. 11). */
typedef struct {
    unsigned core;
    uint64_t arrive;       /* cycle it reached the SIMT core scheduler (launch accepted) */
    uint64_t pewt;         /* cycle it entered the chosen core's PEWT */
    uint64_t select;       /* cycle the victim was chosen (preempted only) */
    uint64_t start;        /* cycle the controller started it */
    uint64_t first;        /* cycle of its first instruction */
    bool preempted;        /* borrowed a victim's context (else a free one) */
    bool saved;            /* victim registers saved to memory (else reserved) */
    unsigned victim_slot;
    unsigned set_warps;    /* warps borrowed: 1, a victim set's size (set_max > 1), 0 for a free context */
    unsigned vstat;        /* what the victim was waiting on (PRE_VS_* bits, GPU_VS_MEMBAR) */
    uint64_t victim_age;   /* victim's allocation order */
} gpu_event_info;

typedef struct {
    /* first instruction of the launch issued (any warp) */
    void (*first_instr)(void *user, uint64_t tag, uint64_t cycle);
    /* every thread of the launch exited */
    void (*complete)(void *user, uint64_t tag, uint64_t cycle);
    void *user;
} gpu_callbacks;

void gpu_set_callbacks(gpu_t *g, const gpu_callbacks *cb);
/* Queues a kernel launch (the kernel management unit takes it next cycle).
 * -1 with a message when it can never run (too many threads, registers or
 * shared memory for one core, zero dimensions, bad kernel pointer). */
int gpu_launch(gpu_t *g, const gpu_launch_desc *d, char *err, size_t errlen);
/* gpu_launch's checks alone, nothing queued: what a driver refuses when a
 * kernel is registered for later launches (edgeRegisterEvent, EDGE Table I),
 * so that an event that can never run fails there, not at its first doorbell.
 * -1 with gpu_launch's message. */
int gpu_launch_check(const gpu_t *g, const gpu_launch_desc *d, char *err, size_t errlen);
/* The descriptor of a one-dimensional launch of k: grid x block threads,
 * parameters at param. */
gpu_launch_desc gpu_desc_1d(const gpu_kernel *k, unsigned grid, unsigned block, uint64_t param);
void gpu_tick(gpu_t *g);
uint64_t gpu_cycle(const gpu_t *g);
/* The host threads stepping the cores (docs/SIMT.md "Threads"), and the
 * cycles whose pipelines ran on them so far (the pool's adaptive choice:
 * the rest ran on one thread). */
unsigned gpu_threads_used(const gpu_t *g, uint64_t *threaded_cycles);
/* Nothing left to do: no launch pending or running, no DMA, the memory
 * system empty (or the GPU faulted). */
bool gpu_idle(const gpu_t *g);
/* A fault inside a kernel (bad address, illegal instruction) stops the
 * model: non-NULL message from then on. */
const char *gpu_error(const gpu_t *g);
/* Where the fault came from: the core (-1: none, e.g. the memory system or
 * host DMA; also without a fault) and, in *cycle, the cycle it stopped the
 * model. */
int gpu_error_core(const gpu_t *g, uint64_t *cycle);

/* ---- additions of the SIMT model (beyond the fixed interface) ---- */
/* CM-BAL hook: only the first `limit` background warps of a core in GTO
 * order may issue (0 = no limit); an event kernel's warps are never held and
 * take no place. */
void gpu_set_active_warp_limit(gpu_t *g, unsigned core, unsigned limit);
/* CM-BAL's event protection (sim/cm/cm_bal_loop.h): on[i] = core i holds an
 * event kernel's warp or has an event pushed to it that has not finished;
 * returns whether any event launch waits for a core. */
bool gpu_event_cores(const gpu_t *g, bool *on);
/* DYNCTA hook (Kayiran et al., PACT'13; sim/cm/cm_dyncta.c): the block
 * scheduler gives the core no new block while it holds `limit` (0 = no
 * limit); with pause, only the warps of its oldest `limit` blocks issue (the
 * younger ones wait, from the next cycle).  The first call also starts the
 * core's idle_cycles / mem_cycles counts (gpu_core_stats). */
void gpu_set_block_limit(gpu_t *g, unsigned core, unsigned limit, bool pause);
/* How many blocks of the oldest running launch one core can hold (blocks,
 * threads, warps, registers, shared memory per core); 0 when none runs. */
unsigned gpu_blocks_per_core(const gpu_t *g);
/* The warp slots (< 64) of a core that issued an instruction since the last
 * call, as a mask; clears it. */
uint64_t gpu_take_issued_warps(gpu_t *g, unsigned core);
typedef struct {
    uint64_t cycles, warp_instrs, thread_instrs;
    uint64_t l1_hits, l1_misses, mshr_stalls;
    /* the cores' memory path */
    uint64_t port_stalls;        /* core cycles a request waited for room in its port queue */
    uint64_t mem_requests, mem_responses; /* sent into / taken from the memory system by the cores */
    uint64_t loads, load_cycles; /* global loads completed, their issue -> register-write cycles */
    double avg_load_latency;     /* load_cycles / loads */
    uint64_t stores;             /* store line requests (all acknowledged when idle) */
    uint64_t fences, fence_wait_cycles; /* FENCEs that waited for stores, and how long */
    uint64_t dma_bytes;          /* host DMA bytes written + read */
    uint64_t fe_nacks, fe_retries; /* F/E accesses of the cores NACKed, and sent again */
    /* [gpu] kernel_end_drain: times a core entered the end drain, core cycles
     * in it, and those in which it refused some warp's instruction */
    uint64_t end_drains, end_drain_cycles, end_drain_stalls;
    /* the memory system (mem_get_stats over every partition) */
    uint64_t l2_hits, l2_misses;
    double l2_hit_rate;          /* l2_hits / (l2_hits + l2_misses) */
    uint64_t fe_tracked, fe_l2_hits; /* F/E-tracked requests sent to the F/E queues; answered by the L2 */
    uint64_t dram_reads, dram_writes; /* DRAM requests (each up to a line) */
    uint64_t row_hits, row_misses, row_conflicts; /* DRAM requests by what their bank needed */
    double dram_gbps;            /* DRAM bytes moved (data-bus bursts) per second of GPU time */
    double dram_util;            /* fraction of DRAM data-bus cycles busy */
} gpu_stats;
void gpu_get_stats(const gpu_t *g, gpu_stats *s);
/* Preemption statistics summed over the cores (controller counters). */
typedef struct {
    uint64_t start_free, start_preempt, aborts, resumes, errors, drops, skips;
    uint64_t parked; /* warps parked by the STARTs into a victim: a victim set's each (EDGE VI-C), so = resumes at the end */
} gpu_preempt_stats;
void gpu_get_preempt_stats(const gpu_t *g, gpu_preempt_stats *s);
/* The reservation over the run ([preempt] reserve_dynamic; static: constant):
 * reserved cores summed over cycles (mean = core_cycles / cycles), the
 * fewest and most held, and how often the number changed. */
typedef struct {
    uint64_t core_cycles, cycles, changes;
    unsigned min, max, now;
} gpu_reserve_stats;
void gpu_get_reserve_stats(const gpu_t *g, gpu_reserve_stats *s);
/* Where warp-level events' cycles go (EDGE Fig. 13's high rate): every cycle
 * of every event warp from the controller's START to its exit, in one class:
 * ISSUE it issued; MEMORY an operand waits for a load or atomic in flight, or
 * a FENCE for its stores; DEPEND an operand waits for a pipeline result;
 * FETCH its i-buffer is empty; UNIT ready, but its unit or the LSU is busy;
 * SCHED ready, another warp issued on its scheduler; OTHER (a barrier, no
 * active lanes).  Counted when gpu_set_event_breakdown is on (sums over the
 * run; results and timing are not affected). */
enum { GPU_EVB_ISSUE = 0, GPU_EVB_MEMORY, GPU_EVB_DEPEND, GPU_EVB_FETCH, GPU_EVB_UNIT, GPU_EVB_SCHED,
       GPU_EVB_OTHER, GPU_EVB_N };
extern const char *const gpu_evb_names[GPU_EVB_N];
void gpu_set_event_breakdown(gpu_t *g, bool on);
void gpu_get_event_breakdown(const gpu_t *g, uint64_t out[GPU_EVB_N]);
/* Called when a warp-level event issues its first instruction (EDGE Fig. 11). */
typedef void (*gpu_event_cb)(void *user, uint64_t tag, const gpu_event_info *info);
void gpu_set_event_callback(gpu_t *g, gpu_event_cb cb, void *user);
/* A warp-level event whose F/E access the watchdog NACKed past [gpu]
 * fe_retry_max (its data never came: a device's transfer that did not
 * complete) ends alone: cb(user, tag, why) at the cycle it was ended, then
 * it completes as usual (callbacks.complete) with its outputs unwritten, and
 * nothing else stops.  Without a callback (NULL, the default) such a NACK
 * stops the GPU, as every fault does.  -1 with err: out of memory. */
typedef void (*gpu_event_fault_cb)(void *user, uint64_t tag, const char *why);
int gpu_set_event_fault_callback(gpu_t *g, gpu_event_fault_cb cb, void *user, char *err, size_t errlen);

/* ---- other requesters on the GPU's memory system (the CM machine) ----
 * The GPU owns the memory system and its backing store; gpu_tick() ticks it
 * once per GPU cycle for every port.  A caller with extra_ports requesters
 * sends on gpu_extra_port(g, i) with mem_send() and pops that port's
 * responses (mem_rsp_peek / mem_rsp_pop), before gpu_tick() for the same
 * cycle; requests never touch the GPU's own state.  gpu_idle() waits for
 * their requests too.  docs/SIMT.md "Sharing the memory system". */
mem_system *gpu_mem_system(gpu_t *g);
unsigned gpu_extra_port(const gpu_t *g, unsigned i); /* num_cores + 1 + i */
/* Keeps [addr, addr + bytes) out of gpu_malloc (like the F/E region), e.g.
 * the other requesters' footprints; at most 4 ranges.  0, or -1 when out of
 * memory, overlapping what gpu_malloc already gave out, or one too many. */
int gpu_reserve(gpu_t *g, uint64_t addr, uint64_t bytes);

/* Per-core counters since gpu_new (the CM-BAL monitor's inputs, CM 4.2).
 * stall_gpu: scheduler-cycles in which a scheduler of the core issued no
 * instruction while the core held at least one warp, because no warp within
 * the active-warp limit passed the scoreboard (CM Fig. 11 item 6) or one did
 * and the next stage could not take it (item 7: unit busy, LSU busy or an
 * LSU structural stall, footnote 9); 0 .. schedulers x warp_cycles.
 * stall_pipe: the part of stall_gpu with item 7 present. */
typedef struct {
    uint64_t warp_instrs, thread_instrs;
    uint64_t warp_cycles;        /* cycles the core held at least one warp */
    uint64_t stall_gpu, stall_pipe;
    /* DYNCTA's inputs, counted after gpu_set_block_limit: cycles with no warp
     * ready to run (C_idle), cycles no scheduler issued and every such warp
     * waited for a load (C_mem) */
    uint64_t idle_cycles, mem_cycles;
} gpu_core_stats;
void gpu_get_core_stats(const gpu_t *g, unsigned core, gpu_core_stats *s);
/* The last gpu_tick()'s stall bits of a core: bit s = scheduler s counted a
 * stallGPU cycle (the monitor's issue_stall_i, docs/CM_BAL.md). */
unsigned gpu_issue_stall(const gpu_t *g, unsigned core);

/* ---- diagnostics (gpu_diag.c; fg_run's reports, docs/SIMT.md) ---- */
/* "function+0xoff" of a pc inside a loaded kernel's code (from the ELF's
 * symbol table) into buf; 0 found, -1 not inside any kernel's code (buf =
 * "?").  Fault messages (gpu_error) carry the same after each "pc 0x...". */
int gpu_pc_symbol(const gpu_t *g, uint64_t pc, char *buf, size_t len);
/* The other way: the pc of "function" or "function+0xoff" (as gpu_pc_symbol
 * writes it) in a loaded kernel; 0, or -1 when no kernel has the function or
 * the offset is malformed. */
int gpu_symbol_pc(const gpu_t *g, const char *where, uint64_t *pc);

/* One live warp of a running launch: where its threads are and what they
 * wait for (the report of a kernel that does not finish). */
typedef struct {
    unsigned core, slot;
    uint64_t tag;             /* its launch's gpu_launch_desc.tag */
    bool event;               /* a warp-level event warp (no thread block) */
    bool draining;            /* every thread exited; loads or stores still in flight */
    uint32_t ctaid[3];        /* its block */
    unsigned warp_in_block;
    uint32_t live;            /* lanes whose threads have not exited */
    uint32_t bar_wait;        /* lanes waiting at the block barrier */
    uint32_t lane_pc[32];     /* pc of each live lane (the issuing group's is the warp's pc) */
    unsigned loads, stores;   /* loads in flight, store / atomic lines not acknowledged */
    bool at_fence;            /* its next instruction is a FENCE waiting for its stores */
    uint64_t instrs;          /* warp instructions issued */
    /* its block's barrier: threads that arrived, threads still live, and the
     * cycle the first of the arrived ones got there (valid when arrived > 0) */
    unsigned block_arrived, block_live;
    uint64_t bar_since;
} gpu_warp_info;
/* Fills at most max entries (core by core, slot by slot); returns how many
 * warps there are in all. */
unsigned gpu_warps(const gpu_t *g, gpu_warp_info *out, unsigned max);

/* An optional check of every global-memory access a kernel's thread makes
 * (loads, stores, atomics; fg_run --check): 0 allows it, nonzero stops the
 * GPU with a fault whose message starts with what fn wrote into msg and
 * names the access, pc (function+offset), core, warp, lane, block and
 * thread.  NULL fn: no check (the default, and the faster).
 * With prov_load, each lane's registers also carry provenance: a load from
 * address a gives its register the region prov_load(user, a) returns (1..254;
 * 0: none), address arithmetic keeps it (rv_prov_exec), and fn gets the
 * access's base register's (prov: that region, RV_PROV_NONE, RV_PROV_LOST). */
typedef int (*gpu_access_check)(void *user, uint64_t addr, unsigned size, bool write, unsigned prov, char *msg,
                                size_t msglen);
typedef unsigned (*gpu_prov_load)(void *user, uint64_t addr);
void gpu_set_access_check(gpu_t *g, gpu_access_check fn, gpu_prov_load prov_load, void *user);
/* Every lane's shared-memory and global access, at issue (fg_run --racecheck): word =
 * index of the 4-byte word in the core's shared memory, block_uid = the
 * block's placement (new for every block a core starts), bar_gen = how many
 * barriers the block has passed, tid = the thread's linear index in its block. */
typedef struct {
    unsigned core, warp_slot, lane;
    uint32_t word, off;          /* off: byte offset in the block's shared memory */
    uint64_t block_uid, bar_gen;
    uint32_t ctaid[3], tid, ntid[3], pc;
    unsigned size;
    bool write, atomic;
    bool global; /* a global access (same fields; word = address / 4, off = address) */
} gpu_shared_access;
/* Work of the caller's that runs beside the cores' pipelines in every
 * gpu_tick (the CM machine's CPU cores, docs/SIMT.md "Threads"): par(user, t,
 * n) on each thread t of n (with one thread: par(user, 0, 1)) after the
 * cores' begins, touching nothing the cores, the memory system or another
 * thread's share touch; then serial(user) on the caller's thread before the
 * cores' commits (e.g. the requests the work made, sent in a fixed order).
 * Either may be NULL; gpu_set_side_work(g, NULL, NULL, NULL) removes it. */
typedef void (*gpu_side_par)(void *user, unsigned t, unsigned n);
typedef void (*gpu_side_serial)(void *user);
void gpu_set_side_work(gpu_t *g, gpu_side_par par, gpu_side_serial serial, void *user);
typedef void (*gpu_shared_hook)(void *user, const gpu_shared_access *a);
void gpu_set_shared_hook(gpu_t *g, gpu_shared_hook fn, void *user);
/* Moments of a run a caller watches for (fg_run --wave-at): barrier when a
 * thread block's barrier releases (every live thread of the block arrived),
 * pc when a warp issues the instruction at watch_pc; each with the core and
 * the cycle, called at the core's commit (in core order, on the caller's
 * thread).  NULL: not watched (an issue's pc is then compared with one no
 * instruction has, 0xffffffff: fg_run's time is the same, docs/WAVES.md). */
typedef struct {
    void (*barrier)(void *user, unsigned core, uint64_t cycle);
    void (*pc)(void *user, unsigned core, uint64_t cycle);
    uint32_t watch_pc;
    void *user;
} gpu_watch;
void gpu_set_watch(gpu_t *g, const gpu_watch *w);

#endif
