/* cm_bal_loop: the concurrency-management schemes of CM Sec. 5-6 in the CM
 * machine's loop (docs/CM_BAL.md "In the loop", docs/CM_MACHINE.md).  The
 * CM-CPU / CM-BAL stall monitor (rtl/cm/, twin sim/twin/cm_bal_monitor) runs
 * through fg_block (rtl / c / lockstep) at the machine's size, fed every GPU
 * cycle from the running machine, and sets each SIMT core's active-warp
 * limit; DYNCTA (sim/cm/cm_dyncta.c) sets each core's block limit instead.
 *
 * One GPU cycle n (cm_tick, after gpu_tick):
 *   inputs   stall_mc_i / stall_net_i = partition p's stallMC / stallnet of
 *            cycle n (mem_partition_stall, CM 4.1); issue_stall_i = each
 *            core's scheduler stall bits of cycle n (gpu_issue_stall, CM 4.2
 *            items 6-7); kstart_i / kend_i = every core's bit when a kernel
 *            issued its first instruction / completed in cycle n; mode_i,
 *            static_i, k_i from the scheme (mode off until the GPU side
 *            starts); rd_core_i = the core read this cycle
 *   edge n   fg_block_step
 *   outputs  CM-CPU: cpu_limit_o (new at the edge that ends an interval) is
 *            every core's limit; otherwise rd_limit_o is the limit of the
 *            core selected at edge n.  The loop selects core c at edge
 *            E + 6 + c (E: the interval's last edge), the first edge after
 *            its serial-walk commit at E + 5 + c, and round robin between;
 *   limit    gpu_set_active_warp_limit: the GTO schedulers obey it from GPU
 *            cycle n + 1 (CM-CPU: E + 1; CM-BAL: E + 7 + c). */
#ifndef CM_BAL_LOOP_H
#define CM_BAL_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cm_bal_monitor.h"
#include "cm_dyncta.h"
#include "fg_block.h"
#include "fg_config.h"
#include "simt/gpu.h"

/* [cmbal] protect_events, in cmbal_protect_names order: off; core = a core's
 * background limit is capped while it holds or is assigned an event; gpu =
 * every core's while any event is queued or running (the events' slowdown
 * beside a background is interference in the shared memory, EDGE VI-D) */
enum { CMBAL_PROTECT_OFF = 0, CMBAL_PROTECT_CORE, CMBAL_PROTECT_GPU };
extern const char *const cmbal_protect_names[];

/* [cmbal] scheme, in cmbal_scheme_names order */
enum { CMBAL_BASELINE = 0, CMBAL_STATIC, CMBAL_CM_CPU, CMBAL_BAL1, CMBAL_BAL2, CMBAL_BAL3, CMBAL_BAL4, CMBAL_DYNCTA };
extern const char *const cmbal_scheme_names[]; /* "baseline" .. "dyncta", NULL-terminated */

/* [cmbal] (configs/cm.ini): every parameter of CM Sec. 4-5, the paper's
 * values as defaults. */
typedef struct {
    unsigned scheme;          /* CMBAL_* */
    unsigned static_warps;    /* static TLP: the limit (CM 6.3's SWL) */
    fg_impl impl;             /* the monitor: rtl (default), c, lockstep */
    double t_high, t_low;     /* CM-CPU thresholds, stalls per cycle (CM Sec. 5: 1, 0.25), in steps of 0.25 */
    unsigned k[4];            /* CM-BAL1..4 (CM Sec. 5: 32, 64, 96, 128 stallGPU cycles) */
    unsigned interval;        /* monitoring interval, GPU cycles (CM 4.1: 1024) */
    unsigned fine;            /* CM-CPU steps of 1 at or below this limit, of 2 above (CM 4.1: 8) */
    unsigned explore_warps;   /* CM-BAL after explore_n intervals at one level: up below, down at or */
    unsigned explore_n;       /* above explore_warps (CM 4.2: 6 warps, 4 intervals) */
    unsigned nlvl, levels[CM_MAX_LVL]; /* CM-BAL levels (CM 4.2: 1,2,3,4,6,8,16,24,48) */
    cm_dyncta_params dyn;     /* DYNCTA (cm_dyncta.h) */
    unsigned protect;         /* CMBAL_PROTECT_*: event protection (EDGE VII x CM 4; no paper value: off) */
    unsigned protect_warps;   /* the background limit while protecting: min(scheme's limit, this) */
} cmbal_config;

void cmbal_config_default(cmbal_config *c);
/* [cmbal]; 0 or -1 with a message naming the key. */
int cmbal_config_load(cmbal_config *c, fg_config *cfg, char *err, size_t errlen);
/* The monitor's implementation name, or "none" for a scheme without it
 * (baseline, DYNCTA): the `blocks` entry of an experiment's JSON. */
const char *cmbal_monitor_impl(const cmbal_config *c);

typedef struct cmbal_loop cmbal_loop;

/* The scheme for GPU g (its cores, schedulers, warps and the memory system's
 * partitions size the monitor); NULL with a message. */
cmbal_loop *cmbal_new(const cmbal_config *c, gpu_t *g, char *err, size_t errlen);
void cmbal_free(cmbal_loop *l);
/* The GPU side starts: the scheme's mode from the next cycle (until then the
 * monitor runs with mode off, limits 48). */
void cmbal_start(cmbal_loop *l);
/* A kernel issued its first instruction / completed this cycle. */
void cmbal_kernel_start(cmbal_loop *l);
void cmbal_kernel_end(cmbal_loop *l);
/* After every gpu_tick(): this cycle's partition stall bits (bit p).  The
 * limits it sets (the scheme's, capped by the event protection) hold from
 * the next cycle. */
void cmbal_tick(cmbal_loop *l, uint64_t stall_mc, uint64_t stall_net);
/* This cycle's partition stall bits of GPU g's memory system, as
 * cmbal_tick takes them (bit p: partition p's stallMC / stallnet). */
void cmbal_stall_bits(gpu_t *g, uint64_t *stall_mc, uint64_t *stall_net);
/* cmbal_tick with cmbal_stall_bits. */
void cmbal_tick_gpu(cmbal_loop *l);
/* Cycles since cmbal_new in which the protection capped some core's limit,
 * and core-cycles in which it capped one. */
void cmbal_protect_stats(const cmbal_loop *l, uint64_t *cycles, uint64_t *core_cycles);
/* A core's active-warp limit now, as the scheduler obeys it (the GPU's warps
 * per core: none). */
unsigned cmbal_warp_limit(const cmbal_loop *l, unsigned core);
/* Per core, the warp limit and DYNCTA's block limit (0 for other schemes)
 * averaged over the cycles since the last call; restarts the averages. */
void cmbal_take_averages(cmbal_loop *l, double *warp_limit, double *cta_limit);
/* A lockstep divergence or RTL assertion of the monitor (then it stops). */
const char *cmbal_error(const cmbal_loop *l);

#endif
