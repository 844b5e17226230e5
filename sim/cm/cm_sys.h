/* cm_sys: the CM machine (CM Table I; docs/CM_MACHINE.md): 14 CPU cores
 * (sim/cpu/) and the GPU side sharing one memory system (sim/mem/: the 6x6
 * mesh, 8 LLC slices, 8 GDDR5 channels) over its ports:
 *   ports 0 .. gpu_cores-1   GPU cores (2 per GPU router of the mesh)
 *   port  gpu_cores          the host DMA port (unused by this machine)
 *   ports cpu_port0 + i      CPU core i (1 per CPU router)
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
 *   4. the GPU side's cycle (the stand-in's requests), then mem_tick();
 *   5. stallMC / stallnet of every partition sampled (CM 4.1), interval
 *      statistics closed every `interval` ticks.
 * The CPU cores never wait for the GPU side or the other way round: only the
 * shared mesh, LLC and DRAM couple them. */
#ifndef CM_SYS_H
#define CM_SYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu/cpu_core.h"
#include "cpu/cpu_gen.h"
#include "fg_config.h"
#include "mem/mem.h"
#include "mem/mem_config.h"

#define CM_MAX_CPU 64
#define CM_MAX_GPU 64

typedef enum { CM_GPU_NONE = 0, CM_GPU_STREAM } cm_gpu_kind;

typedef struct {
    mem_config mem;            /* [mem] (core_mhz = [gpu] clock_mhz) */
    cpu_config cpu;            /* [cpu] */
    cpu_gen_params gen;        /* synthetic streams (docs/CPU_MODEL.md) */
    unsigned gpu_cores;        /* [gpu] num_cores: 28 */
    unsigned cpu_cores;        /* [cm] cpu_cores: 14 */
    unsigned cpu_port0;        /* [cm] cpu_port0: 29 (after the GPU cores and the host port) */
    uint64_t cpu_base;         /* [cm] cpu_base: the CPU cores' footprints from here */
    uint64_t gpu_base, gpu_bytes; /* [cm] gpu_base, gpu_bytes: the GPU side's arrays */
    uint64_t mem_bytes;        /* [cm] mem_bytes: the flat memory (timing-only traffic never touches it) */
    unsigned interval;         /* [cm] interval: 1024 GPU cycles (CM 4.1) */
    unsigned gpu_outstanding;  /* [cm] gpu_outstanding: the stand-in's requests in flight per core */
} cm_config;

void cm_config_default(cm_config *c);
/* configs/cm.ini: [gpu], [mem], [cpu], [cm]; 0 or -1 with a message. */
int cm_config_load(cm_config *c, fg_config *cfg, char *err, size_t errlen);

/* One interval's figures (CM 4.1-4.2). */
typedef struct {
    double cpu_ipc[CM_MAX_CPU];   /* per CPU core, instructions per CPU cycle */
    double gpu_ipc;               /* warp instructions per GPU cycle (< 0: no GPU kernel) */
    double gpu_lines;             /* the stand-in's lines per GPU cycle */
    unsigned stall_mc, stall_net; /* summed over partitions: 0 .. P x interval */
    unsigned stall_gpu[CM_MAX_GPU]; /* per GPU core (0 with the stand-in: no warps) */
} cm_interval;

typedef struct cm_sys cm_sys;

/* The machine running apps[i] on CPU core i (CM Table III names, cpu_cores of
 * them) and `gpu` on the GPU side; NULL with a message. */
cm_sys *cm_new(const cm_config *c, const char *const *apps, cm_gpu_kind gpu, uint64_t seed, char *err,
               size_t errlen);
void cm_free(cm_sys *s);
/* Switches the GPU side on or off (off: nothing new is sent). */
void cm_gpu_on(cm_sys *s, bool on);
void cm_tick(cm_sys *s);
uint64_t cm_cycle(const cm_sys *s);         /* GPU cycles */
uint64_t cm_cpu_cycle(const cm_sys *s);     /* CPU cycles */
const cpu_core *cm_cpu(const cm_sys *s, unsigned i);
uint64_t cm_min_retired(const cm_sys *s);   /* the slowest CPU core's instructions */
/* Counters restart (after a warm-up): CPU cores, the memory system's stall
 * totals as seen from here, intervals. */
void cm_reset_stats(cm_sys *s);
/* Intervals closed since the last reset. */
unsigned cm_intervals(const cm_sys *s);
const cm_interval *cm_interval_at(const cm_sys *s, unsigned i);
/* Totals since the last reset. */
typedef struct {
    uint64_t cycles, cpu_cycles;
    uint64_t stall_mc, stall_net;   /* partition-cycles */
    uint64_t gpu_lines;
} cm_totals;
void cm_get_totals(const cm_sys *s, cm_totals *t);
mem_system *cm_mem(cm_sys *s);
const char *cm_error(const cm_sys *s);

#endif
