/* launch_exp: the system runs of the launch-latency experiment (EDGE Sec.
 * VI-A), shared by build/bin/launch_latency (which prints
 * and saves the latency figures) and build/bin/sim_speed (which times the
 * same runs with the EDGE front-end as RTL, C twins and lockstep).
 *
 * One experiment = serial (closed-loop) events through the baseline and the
 * EDGE path, then, unless e2e is false, both paths at [nic] rate_mpps and
 * saturated for the end-to-end figures: six sys_run() calls. */
#ifndef SYS_LAUNCH_EXP_H
#define SYS_LAUNCH_EXP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sys.h"

typedef struct {
    uint64_t events;     /* [launch_latency] events: serial events per path, 200 */
    uint64_t e2e_events; /* [launch_latency] e2e_events: events per end-to-end run, 200 */
    bool e2e;            /* also the four end-to-end runs, true */
} launch_exp_params;

typedef struct {
    sys_result base, edge;                 /* serial events: launch latency */
    sys_result e2e_b, e2e_e, sat_b, sat_e; /* end-to-end at the offered load / saturated */
    /* totals over every run of the experiment */
    uint64_t gpu_cycles;                   /* simulated GPU cycles (sys_result.gpu_cycles) */
    uint64_t warp_instrs, thread_instrs;
    double wall_seconds;                   /* wall-clock time of the runs (monotonic clock) */
    double cpu_seconds;                    /* CPU time of this process during the runs */
} launch_exp_result;

/* Loads the INI file `path`, then applies each "section.key=value" of
 * sets[0..nsets).  0, or -1 with a message. */
int launch_exp_config(fg_config *cfg, const char *path, const char *const *sets, int nsets, char *err,
                      size_t errlen);

/* Machine and experiment parameters from cfg: sys defaults with
 * kernel_elf = $BUILD/sw/ipv4_fwd.elf (BUILD unset: build), every section
 * sys_params_load reads, [launch_latency] events / e2e_events; then rejects
 * keys nobody read.  0, or -1 with a message. */
int launch_exp_load(sys_params *p, launch_exp_params *x, fg_config *cfg, char *err, size_t errlen);

/* Runs the experiment.  -1 with a message naming the run on a setup error,
 * a model fault, a lockstep divergence or a timeout; wrong results are
 * left to launch_exp_check(). */
int launch_exp_run(const sys_params *p, const launch_exp_params *x, launch_exp_result *r, char *err,
                   size_t errlen);

/* Prints "prog: run: ..." to stderr for every wrong forwarding result,
 * missing event or front-end error; returns 1 if there was any, else 0. */
int launch_exp_check(const char *prog, const launch_exp_params *x, const launch_exp_result *r);

#endif
