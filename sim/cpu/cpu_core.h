/* cpu_core: a trace-driven out-of-order CPU core of the CM machine (CM
 * Table I: 3 instructions per cycle, 128-entry window, at most one memory
 * instruction per cycle, private 32 KB 4-way 2-cycle L1 and 256 KB 8-way
 * 8-cycle L2, 128 B lines, 2 GHz).  docs/CPU_MODEL.md.
 *
 * The core runs in its own clock (cpu_core_cycle() = one CPU cycle) and
 * talks to memory through two small queues, so that the same core runs
 * beside the memory system (cm_sys.c: mem ports, src = MEM_SRC_CPU) or a
 * fixed-latency memory (tests):
 *   - requests it wants sent (L2 misses as line reads, dirty L2 victims as
 *     line writes): cpu_core_req() / cpu_core_req_pop();
 *   - responses: cpu_core_fill(id) before the cycle from which the line is
 *     there (write acknowledgements are not needed: cpu_core_fill ignores
 *     write ids). */
#ifndef CPU_CORE_H
#define CPU_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu_gen.h"
#include "fg_config.h"

typedef struct {
    double clock_mhz;          /* 2000 */
    unsigned width;            /* dispatch, issue and retire per cycle (3) */
    unsigned window;           /* instruction window / ROB entries (128, at most 256) */
    unsigned mem_per_cycle;    /* memory instructions issued per cycle (1) */
    unsigned line_bytes;       /* 128 */
    unsigned l1_bytes, l1_assoc, l1_latency; /* 32 KB, 4, 2 */
    unsigned l2_bytes, l2_assoc, l2_latency; /* 256 KB, 8, 8 (cycles after the L1 lookup) */
    unsigned l2_queue;         /* L1 misses in the L2 lookup pipeline (16) */
    unsigned mshrs;            /* distinct lines missing the L2 at once (16): bounds the MLP */
    unsigned wbuf;             /* write buffer: retired stores not yet in the L1 (16) */
    unsigned out_queue;        /* requests waiting for the memory port (8) */
    unsigned lat[CPU_CLASSES]; /* result latency per class (loads: the caches) */
    bool skip_idle;            /* repeat a cycle without action cheaply (exact; 1) */
} cpu_config;

void cpu_config_default(cpu_config *c);
/* [cpu] keys of a machine file over *c; 0 or -1 with a message. */
int cpu_config_load(cpu_config *c, fg_config *cfg, char *err, size_t errlen);

typedef struct {
    uint64_t id;    /* echo in cpu_core_fill */
    uint64_t addr;  /* line address */
    bool write;     /* a dirty L2 victim (no fill follows) */
} cpu_req;

typedef struct {
    uint64_t cycles, retired;
    uint64_t loads, stores, l1_misses, l2_misses, l2_merges, writebacks;
    uint64_t miss_lat_sum, miss_n; /* L2 miss: request queued -> line filled (CPU cycles) */
    uint64_t stall_window, stall_mshr, stall_wbuf; /* cycles dispatch / the L2 / retirement waited */
} cpu_stats;

typedef struct cpu_core cpu_core;

/* Where a core's instructions come from: next(ctx, &inst), called once per
 * dispatched instruction (cpu_gen_source over a cpu_gen, or a test's own). */
typedef void (*cpu_source)(void *ctx, cpu_inst *out);
void cpu_gen_source(void *gen, cpu_inst *out);

/* A core running the stream of `next`.  NULL with a message on a bad
 * configuration. */
cpu_core *cpu_core_new(const cpu_config *c, cpu_source next, void *ctx, char *err, size_t errlen);
void cpu_core_free(cpu_core *k);
/* One CPU cycle. */
void cpu_core_cycle(cpu_core *k);
uint64_t cpu_core_now(const cpu_core *k); /* cycles run */
/* The oldest request waiting to be sent, or NULL; pop once it was taken. */
const cpu_req *cpu_core_req(const cpu_core *k);
void cpu_core_req_pop(cpu_core *k);
/* The line of read request `id` is back: its waiters complete at the next
 * cpu_core_cycle().  Ids of writes are ignored. */
void cpu_core_fill(cpu_core *k, uint64_t id);
/* Misses in flight (MSHRs in use). */
unsigned cpu_core_pending(const cpu_core *k);
void cpu_core_stats(const cpu_core *k, cpu_stats *s);
/* Counters restart (after a warm-up); caches and window keep their state. */
void cpu_core_reset_stats(cpu_core *k);

/* A fixed-latency memory for a core on its own (tests, characterisation):
 * every line read the core puts out in CPU cycle c is back before cycle
 * c + lat; writes vanish.  cpu_fixmem_run() runs the core until it retired
 * `instrs` more instructions and returns the cycles that took (0 if it did
 * not within max_cycles). */
#define CPU_FIXMEM_Q 4096
typedef struct {
    uint64_t id[CPU_FIXMEM_Q], at[CPU_FIXMEM_Q];
    unsigned head, n;
    unsigned lat;
} cpu_fixmem;
void cpu_fixmem_init(cpu_fixmem *m, unsigned lat);
uint64_t cpu_fixmem_run(cpu_core *k, cpu_fixmem *m, uint64_t instrs, uint64_t max_cycles);

#endif
