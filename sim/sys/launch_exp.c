/* launch_exp: the launch-latency experiment's runs; see launch_exp.h. */
#include "launch_exp.h"

#include "fg_util.h"
#include "work/ev_work.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int launch_exp_config(fg_config *cfg, const char *path, const char *const *sets, int nsets, char *err,
                      size_t errlen) {
    if (fg_config_load(cfg, path, err, errlen)) return -1;
    for (int i = 0; i < nsets; i++)
        if (fg_config_set(cfg, sets[i], err, errlen)) return -1;
    return 0;
}

int launch_exp_load(sys_params *p, launch_exp_params *x, fg_config *cfg, char *err, size_t errlen) {
    sys_params_default(p);
    if (fg_kernel_path(p->kernel_elf, sizeof p->kernel_elf, "ipv4_fwd", err, errlen) ||
        fg_kernel_path(p->ring_kernel_elf, sizeof p->ring_kernel_elf, "ipv4_fwd_ring", err, errlen))
        return -1;
    x->events = 200;
    x->e2e_events = 200;
    x->e2e = true;
    if (sys_params_load(p, cfg, err, errlen) ||
        fg_config_u64(cfg, "launch_latency", "events", 1, 1000000, &x->events, err, errlen) ||
        fg_config_u64(cfg, "launch_latency", "e2e_events", 1, 1000000, &x->e2e_events, err, errlen) ||
        ev_work_load_configs(cfg, err, errlen) || /* edge.ini's event-kernel sections: read, so typos still show */
        fg_config_check_unused(cfg, err, errlen))
        return -1;
    return 0;
}

static int one(const char *what, const sys_params *p, sys_path path, bool closed, uint64_t n,
               sys_result *res, launch_exp_result *r, char *err, size_t errlen) {
    char e[512];
    if (sys_run(p, path, closed, n, res, e, sizeof e)) {
        snprintf(err, errlen, "%s: %s", what, e);
        return -1;
    }
    r->gpu_cycles += res->gpu_cycles;
    r->warp_instrs += res->warp_instrs;
    r->thread_instrs += res->thread_instrs;
    return 0;
}

int launch_exp_run(const sys_params *p, const launch_exp_params *x, launch_exp_result *r, char *err,
                   size_t errlen) {
    memset(r, 0, sizeof *r);
    double t0 = fg_now(FG_CLOCK_WALL), c0 = fg_now(FG_CLOCK_CPU);
    sys_params b = *p;
    b.nic.early = false; /* the baseline has no doorbell: its task notice follows the data */
    int rc = one("baseline", &b, SYS_BASELINE, true, x->events, &r->base, r, err, errlen) ||
             one("edge", p, SYS_EDGE, true, x->events, &r->edge, r, err, errlen);
    if (!rc && x->e2e) {
        sys_params q = *p;
        rc = one("baseline end-to-end", &b, SYS_BASELINE, false, x->e2e_events, &r->e2e_b, r, err, errlen) ||
             one("edge end-to-end", &q, SYS_EDGE, false, x->e2e_events, &r->e2e_e, r, err, errlen);
        q.nic.rate_mpps = b.nic.rate_mpps = 0; /* saturated: a new batch as soon as a slot frees */
        rc = rc || one("baseline saturated", &b, SYS_BASELINE, false, x->e2e_events, &r->sat_b, r, err, errlen) ||
             one("edge saturated", &q, SYS_EDGE, false, x->e2e_events, &r->sat_e, r, err, errlen);
    }
    r->wall_seconds = fg_now(FG_CLOCK_WALL) - t0;
    r->cpu_seconds = fg_now(FG_CLOCK_CPU) - c0;
    return rc ? -1 : 0;
}

static int check(const char *prog, const char *what, const sys_result *r, uint64_t n) {
    int bad = 0;
    if (r->wrong) {
        fprintf(stderr, "%s: %s: %llu of %llu forwarding results WRONG; first: %s\n", prog, what,
                (unsigned long long)r->wrong, (unsigned long long)r->packets, r->first_wrong);
        bad = 1;
    }
    if (r->events != n) {
        fprintf(stderr, "%s: %s: only %llu of %llu events completed\n", prog, what,
                (unsigned long long)r->events, (unsigned long long)n);
        bad = 1;
    }
    if (r->errors) {
        fprintf(stderr, "%s: %s: %llu front-end errors; first: %s\n", prog, what,
                (unsigned long long)r->errors, r->first_error);
        bad = 1;
    }
    return bad;
}

int launch_exp_check(const char *prog, const launch_exp_params *x, const launch_exp_result *r) {
    int bad = check(prog, "baseline", &r->base, x->events) | check(prog, "edge", &r->edge, x->events);
    if (x->e2e)
        bad |= check(prog, "baseline e2e", &r->e2e_b, x->e2e_events) |
               check(prog, "edge e2e", &r->e2e_e, x->e2e_events) |
               check(prog, "baseline saturated", &r->sat_b, x->e2e_events) |
               check(prog, "edge saturated", &r->sat_e, x->e2e_events);
    return bad;
}
