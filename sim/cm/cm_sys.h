/* cm_sys: the CM machine (CM Table I; docs/CM_MACHINE.md): 14 CPU cores
 * (sim/cpu/) and the SIMT GPU (sim/simt/: 28 cores running a real kernel)
 * sharing one memory system (sim/mem/: the 6x6 mesh, 8 LLC slices, 8 GDDR5
 * channels).  The GPU owns the memory system; the CPU cores are requesters
 * on its extra ports (gpu_config.extra_ports, gpu_extra_port):
 *   ports 0 .. gpu cores - 1   GPU cores (2 per GPU router of the mesh)
 *   port  gpu cores            the host DMA port (unused by this machine)
 *   ports gpu cores + 1 + i    CPU core i (1 per CPU router)
 *
 * Clocks.  cm_tick() is one GPU core cycle (the memory system's core clock,
 * 1400 MHz).  The CPU domain (2000 MHz) runs floor(n f_cpu / f_core) cycles
 * before GPU tick n (integer kHz: exact, deterministic; 1 or 2 CPU cycles per
 * tick at 10:7), like the memory system's own domains.  One tick:
 *   1. each CPU core's responses that became peekable in the last mem_tick
 *      are handed to it (cpu_core_fill: the line is there from its next cycle);
 *   2. the CPU cycles of this tick, every core;
 *   3. each CPU core's oldest waiting request is offered to its port (at most
 *      one per port per tick: mem_send's rule);
 *   4. gpu_tick(): the GPU cores' cycle, then the memory system's (one
 *      mem_tick for every port);
 *   5. stallMC / stallnet of every partition sampled (CM 4.1); the
 *      concurrency scheme's cycle (cm_bal_loop.h: the CM-BAL monitor fed with
 *      this cycle's stalls sets the warp limits the cores obey from the next
 *      one); a GPU run that
 *      finished is checked against its host reference and, while the GPU side
 *      is on, started again; interval statistics closed every `interval` ticks
 *      (per-core stallGPU, CM 4.2, from gpu_get_core_stats).
 * The CPU cores never wait for the GPU or the other way round: only the
 * shared mesh, LLC and DRAM couple them. */
#ifndef CM_SYS_H
#define CM_SYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cm/cm_bal_loop.h"
#include "cpu/cpu_core.h"
#include "cpu/cpu_gen.h"
#include "fg_config.h"
#include "simt/gpu.h"
#include "work/bg_kernels.h"

#define CM_MAX_CPU 64
#define CM_MAX_GPU 64

typedef struct {
    gpu_config gpu;            /* [gpu], [preempt], [mem] (gpu.mem: the memory system) */
    cpu_config cpu;            /* [cpu] */
    cpu_gen_params gen;        /* synthetic streams (docs/CPU_MODEL.md) */
    unsigned cpu_cores;        /* [cm] cpu_cores: 14 */
    uint64_t cpu_base;         /* [cm] cpu_base: the CPU cores' footprints from here (kept out of gpu_malloc) */
    unsigned interval;         /* [cm] interval: 1024 GPU cycles (CM 4.1) */
    cmbal_config bal;          /* [cmbal]: the concurrency scheme (cm_bal_loop.h) */
} cm_config;

void cm_config_default(cm_config *c);
/* configs/cm.ini: [gpu], [preempt], [mem], [cpu], [cm], [cmbal]; 0 or -1 with a message. */
int cm_config_load(cm_config *c, fg_config *cfg, char *err, size_t errlen);

/* The GPU side: a kernel of sim/work/bg_kernels.h (bfs, bp, mm, conv,
 * stream) at a size (paper | test), its ELFs in kdir ($BUILD/sw). */
typedef struct {
    const char *kernel;        /* NULL: no GPU kernel */
    const char *size;
    const char *kdir;
} cm_gpu_work;

/* One interval's figures (CM 4.1-4.2). */
typedef struct {
    double cpu_ipc[CM_MAX_CPU];     /* per CPU core, instructions per CPU cycle */
    double gpu_ipc;                 /* warp instructions per GPU cycle, all cores */
    double gpu_core_ipc[CM_MAX_GPU];/* per GPU core */
    unsigned stall_mc, stall_net;   /* summed over partitions: 0 .. P x interval */
    unsigned stall_gpu[CM_MAX_GPU]; /* per GPU core: 0 .. schedulers x interval */
    double warp_limit[CM_MAX_GPU];  /* per GPU core: its active-warp limit, averaged over the cycles */
    double cta_limit[CM_MAX_GPU];   /* per GPU core: DYNCTA's block limit, averaged (0: other schemes) */
    unsigned issued_warps[CM_MAX_GPU]; /* per GPU core: warps that issued an instruction */
} cm_interval;

typedef struct cm_sys cm_sys;

/* The machine running apps[i] on CPU core i (CM Table III names, cpu_cores of
 * them; apps NULL: no CPU cores run) and `gpu` on the GPU (kernel NULL: no
 * kernel); NULL with a message. */
cm_sys *cm_new(const cm_config *c, const char *const *apps, const cm_gpu_work *gpu, uint64_t seed, char *err,
               size_t errlen);
void cm_free(cm_sys *s);
/* Switches the GPU side on or off.  On: the kernel starts (inputs written,
 * first launch) and is started again each time a run finishes.  Off: the run
 * in progress finishes, none follows. */
void cm_gpu_on(cm_sys *s, bool on);
void cm_tick(cm_sys *s);
uint64_t cm_cycle(const cm_sys *s);         /* GPU cycles */
uint64_t cm_cpu_cycle(const cm_sys *s);     /* CPU cycles */
unsigned cm_cpu_cores(const cm_sys *s);     /* running CPU cores (0 without apps) */
const cpu_core *cm_cpu(const cm_sys *s, unsigned i);
uint64_t cm_min_retired(const cm_sys *s);   /* the slowest CPU core's instructions (UINT64_MAX: none) */
/* GPU runs finished and checked against the host reference (all passed, or
 * cm_error says which did not) since cm_new; a run in progress. */
unsigned cm_gpu_runs(const cm_sys *s);
bool cm_gpu_busy(const cm_sys *s);
const char *cm_gpu_describe(const cm_sys *s); /* the kernel and its size, or "none" */
/* Counters restart (after a warm-up): CPU cores, stall totals, GPU
 * instructions and stallGPU as seen from here, intervals. */
void cm_reset_stats(cm_sys *s);
/* Intervals closed since the last reset. */
unsigned cm_intervals(const cm_sys *s);
const cm_interval *cm_interval_at(const cm_sys *s, unsigned i);
/* Totals since the last reset. */
typedef struct {
    uint64_t cycles, cpu_cycles;
    uint64_t stall_mc, stall_net;   /* partition-cycles */
    uint64_t gpu_warp_instrs, gpu_thread_instrs;
    uint64_t stall_gpu, stall_pipe; /* scheduler-cycles, all GPU cores (gpu_core_stats) */
    uint64_t gpu_warp_cycles;       /* core-cycles with warps, all GPU cores */
    uint64_t cpu_requests;          /* requests the CPU cores sent into the memory system */
    uint64_t gpu_requests;          /* requests the GPU cores sent (gpu_stats.mem_requests) */
    unsigned gpu_runs;              /* GPU runs finished (and checked) */
    gpu_core_stats core[CM_MAX_GPU];/* per GPU core */
} cm_totals;
void cm_get_totals(const cm_sys *s, cm_totals *t);
gpu_t *cm_gpu(cm_sys *s);
cmbal_loop *cm_bal(cm_sys *s);              /* the concurrency scheme in the loop */
bg_run *cm_gpu_run(cm_sys *s);              /* the GPU kernel's driver (NULL: none) */
mem_system *cm_mem(cm_sys *s);
/* A CPU request the memory system refused, a GPU fault or a GPU result that
 * differs from its host reference. */
const char *cm_error(const cm_sys *s);

#endif
