/* preempt_run: one run of the warp-level preemption study (EDGE Fig. 11):
 * a fresh GPU, a background kernel filling it (sim/work/bg_kernels.h), IPv4
 * event warps (sim/work/ipv4_work.h) arriving at seeded random times: their
 * packets DMA'd through the host port at the PCIe rate, then launched at the
 * SIMT core scheduler; every result checked.  Used by
 * build/bin/preemption_latency (the sweep) and tests/test_preempt.c. */
#ifndef WORK_PREEMPT_RUN_H
#define WORK_PREEMPT_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "simt/gpu.h"

#define PRUN_NVS 7 /* victim-state categories: PRE_VS_* bit order, then GPU_VS_MEMBAR */
extern const char *const PRUN_VS_NAMES[PRUN_NVS];

typedef struct { /* [preemption_latency] */
    char size[16], kernels[64];
    uint64_t seed, gap, warmup, max_events, prio;
} prun_params;

void prun_params_default(prun_params *x);
int prun_params_load(prun_params *x, fg_config *cfg, char *err, size_t errlen);

typedef struct { /* one run; plain data (sent between processes) */
    int ok;
    char err[384];
    uint64_t events, preempted, saved, aborts, drops, skips, resumes;
    double avg_start, avg_first, avg_start_pre;
    double avg_flush_pre; /* victim chosen -> START (the EDGE artifact's window), preempting events */
    uint64_t p50_start, p99_start, max_start, max_first;
    uint64_t vs[PRUN_NVS], bg_cycles, gpu_cycles, ipv4_packets;
    unsigned regs_bg, regs_ev;
    char desc[160];
    double wall;
} prun_result;

/* Runs background kernel `kern` on a GPU configured by gc (its [preempt]
 * policy / options / impl included) with the arrivals of x.  r->ok = 0 and
 * r->err say why on any failure, wrong results included. */
void prun_run(const prun_params *x, const gpu_config *gc, const char *kern, prun_result *r);

#endif
