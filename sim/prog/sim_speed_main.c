/* sim_speed: simulation-speed benchmark.  Not a test.
 *
 * Runs the launch-latency experiment's system runs (sim/sys/launch_exp.h:
 * the same six sys_run() calls build/bin/launch_latency makes) once with
 * every RTL block of the run (the EDGE front-end's doorbell decoder and
 * event kernel table, each core's PEWT and preemption controller) as
 * verilated RTL, once as their C twins and once in lockstep, as
 * launch_latency --impl rtl|c|lockstep does, and prints for
 * each the simulated GPU cycles, the wall time, simulated GPU cycles per
 * second of wall time and warp instructions per second, plus the wall-time
 * ratios rtl/c and lockstep/c (and the process CPU time, which a busy
 * machine does not inflate).  Then a busy workload (MM 512x512 filling every
 * core, C twins): the same figures while the cores, the L2
 * and DRAM are busy.  The three runs must simulate the same
 * number of cycles and instructions (the twins are cycle-exact), and every
 * forwarding result is checked as in launch_latency; either failing is an
 * error (exit 1).  Writes results/sim_speed.json.
 *
 *   sim_speed [--config configs/edge.ini] [--set section.key=value ...]
 *             [--events N] [--busy-only] [--busy-impl c|rtl|lockstep] [--out results/sim_speed.json]
 *
 * --events N: serial events per path (as launch_latency --events; default
 * [launch_latency] events = 200); the end-to-end runs use
 * [launch_latency] e2e_events (--set launch_latency.e2e_events=N).
 * --busy-only: the busy workload alone.  --busy-impl: its blocks (each
 * core's PEWT and preemption controller, each partition's F/E queues) as C
 * twins (the default), verilated RTL or both in lockstep. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_cli.h"
#include "fg_json.h"
#include "fg_pool.h"
#include "fg_util.h"
#include "sys/launch_exp.h"
#include "work/bg_kernels.h"

static const fg_impl impls[3] = {FG_IMPL_RTL, FG_IMPL_C, FG_IMPL_LOCKSTEP};

static int write_json(const char *out, cJSON *root) {
    char err[600];
    if (!fg_json_write(root, out, err, sizeof err)) return 0;
    fprintf(stderr, "sim_speed: %s\n", err);
    return -1;
}

/* The launch-latency run with every RTL block as RTL, C twins and lockstep. */
static int launch_speed(const sys_params *p, const launch_exp_params *x, cJSON *root) {
    char err[512];
    int bad = 0;
    launch_exp_result *r = calloc(3, sizeof *r);
    if (!r) return 1;
    printf("Simulation speed: the launch-latency run (%llu serial events per path, 4 x %llu end-to-end;\n"
           "%u SIMT cores at %.0f MHz), RTL blocks as RTL, as C twins and in lockstep\n\n",
           (unsigned long long)x->events, (unsigned long long)x->e2e_events, p->gpu.num_cores, p->gpu.clock_mhz);
    printf("  %-9s %12s %8s %8s %14s %12s %14s %16s\n", "impl", "GPU cycles", "wall s", "CPU s",
           "GPU cycles/s", "warp instrs", "warp instrs/s", "thread instrs/s");
    for (int i = 0; i < 3; i++) {
        sys_params q = *p;
        q.edge.impl = impls[i];     /* every RTL block of the run, as launch_latency --impl: the front-end, */
        q.gpu.pre.impl = impls[i];  /* each core's PEWT / preemption controller, */
        q.gpu.mem.fe_impl = impls[i]; /* each memory partition's F/E queues */
        if (launch_exp_run(&q, x, &r[i], err, sizeof err)) {
            fprintf(stderr, "sim_speed: %s: %s\n", fg_impl_name(impls[i]), err);
            return 1;
        }
        char what[64];
        snprintf(what, sizeof what, "sim_speed (%s)", fg_impl_name(impls[i]));
        bad |= launch_exp_check(what, x, &r[i]);
        double w = r[i].wall_seconds > 0 ? r[i].wall_seconds : 1e-9;
        printf("  %-9s %12llu %8.3f %8.3f %14.0f %12llu %14.0f %16.0f\n", fg_impl_name(impls[i]),
               (unsigned long long)r[i].gpu_cycles, r[i].wall_seconds, r[i].cpu_seconds,
               (double)r[i].gpu_cycles / w,
               (unsigned long long)r[i].warp_instrs, (double)r[i].warp_instrs / w,
               (double)r[i].thread_instrs / w);
        fflush(stdout);
    }
    for (int i = 1; i < 3; i++)
        if (r[i].gpu_cycles != r[0].gpu_cycles || r[i].warp_instrs != r[0].warp_instrs) {
            fprintf(stderr, "sim_speed: %s simulated %llu cycles / %llu warp instructions, rtl %llu / %llu: "
                            "the implementations disagree\n", fg_impl_name(impls[i]),
                    (unsigned long long)r[i].gpu_cycles, (unsigned long long)r[i].warp_instrs,
                    (unsigned long long)r[0].gpu_cycles, (unsigned long long)r[0].warp_instrs);
            bad = 1;
        }
    double c = r[1].wall_seconds > 0 ? r[1].wall_seconds : 1e-9;
    double rtl_c = r[0].wall_seconds / c, ls_c = r[2].wall_seconds / c;
    double cc = r[1].cpu_seconds > 0 ? r[1].cpu_seconds : 1e-9;
    printf("\n  wall-time ratio rtl/c      %6.2fx   (CPU time %.2fx)\n"
           "  wall-time ratio lockstep/c %6.2fx   (CPU time %.2fx)\n"
           "  (GPU cycles/s and instructions/s are per second of wall time; on a loaded machine\n"
           "   wall time exceeds CPU time)\n",
           rtl_c, r[0].cpu_seconds / cc, ls_c, r[2].cpu_seconds / cc);

    cJSON_AddStringToObject(root, "workload", "launch-latency");
    cJSON_AddNumberToObject(root, "events", (double)x->events);
    cJSON_AddNumberToObject(root, "e2e_events", (double)x->e2e_events);
    for (int i = 0; i < 3; i++) {
        cJSON *o = cJSON_AddObjectToObject(root, fg_impl_name(impls[i]));
        double w = r[i].wall_seconds > 0 ? r[i].wall_seconds : 1e-9;
        cJSON_AddNumberToObject(o, "gpu_cycles", (double)r[i].gpu_cycles);
        cJSON_AddNumberToObject(o, "wall_seconds", r[i].wall_seconds);
        cJSON_AddNumberToObject(o, "cpu_seconds", r[i].cpu_seconds);
        cJSON_AddNumberToObject(o, "gpu_cycles_per_second", (double)r[i].gpu_cycles / w);
        cJSON_AddNumberToObject(o, "warp_instrs", (double)r[i].warp_instrs);
        cJSON_AddNumberToObject(o, "warp_instrs_per_second", (double)r[i].warp_instrs / w);
        cJSON_AddNumberToObject(o, "thread_instrs", (double)r[i].thread_instrs);
        cJSON_AddNumberToObject(o, "thread_instrs_per_second", (double)r[i].thread_instrs / w);
    }
    cJSON *ra = cJSON_AddObjectToObject(root, "wall_ratio");
    cJSON_AddNumberToObject(ra, "rtl_over_c", rtl_c);
    cJSON_AddNumberToObject(ra, "lockstep_over_c", ls_c);
    cJSON *rc = cJSON_AddObjectToObject(root, "cpu_ratio");
    cJSON_AddNumberToObject(rc, "rtl_over_c", r[0].cpu_seconds / cc);
    cJSON_AddNumberToObject(rc, "lockstep_over_c", r[2].cpu_seconds / cc);
    free(r);
    return bad;
}

static void nothing(void *arg, unsigned t, unsigned n) { (void)arg, (void)t, (void)n; }

/* What one run of an empty function on a pool of n threads costs: the
 * handoff every threaded GPU cycle pays twice (to the workers and back),
 * which depends on how far apart the host puts the processors. */
static double handoff_ns(unsigned n) {
    char err[128];
    fg_pool *p = fg_pool_new(n, err, sizeof err);
    if (!p) return 0;
    enum { RUNS = 100000 };
    for (unsigned i = 0; i < RUNS / 10; i++) fg_pool_run(p, nothing, NULL); /* warm-up */
    const double t0 = fg_now(FG_CLOCK_WALL);
    for (unsigned i = 0; i < RUNS; i++) fg_pool_run(p, nothing, NULL);
    const double ns = (fg_now(FG_CLOCK_WALL) - t0) / RUNS * 1e9;
    fg_pool_free(p);
    return ns;
}

/* The busy workload: MM 512x512 (EDGE's background kernel
 * at the EDGE artifact's size, sim/work/bg_kernels.h) filling every core of
 * the machine, C twins for every block, the result checked.  Simulator speed
 * while the cores, the L2 and DRAM are busy, where the launch-latency run
 * above is mostly idle cycles. */
static int busy_run(const gpu_config *gc, fg_impl impl, cJSON *root) {
    char err[512];
    gpu_config c = *gc;
    c.pre.impl = c.mem.fe_impl = impl;
    char kdir[512];
    gpu_t *g = fg_kernel_path(kdir, sizeof kdir, NULL, err, sizeof err) ? NULL : gpu_new(&c, err, sizeof err);
    bg_run *b = g ? bg_new(g, "mm", "paper", kdir, 1, err, sizeof err) : NULL;
    if (!b) {
        fprintf(stderr, "sim_speed: busy workload: %s\n", err);
        gpu_free(g);
        return -1;
    }
    uint64_t thr_cycles = 0;
    const unsigned nthr = gpu_threads_used(g, NULL);
    const double handoff = nthr > 1 ? handoff_ns(nthr) : 0;
    double w0 = fg_now(FG_CLOCK_WALL), c0 = fg_now(FG_CLOCK_CPU);
    uint64_t cycles = bg_run_alone(g, b, 4000000000ull, err, sizeof err);
    double wall = fg_now(FG_CLOCK_WALL) - w0, cpu = fg_now(FG_CLOCK_CPU) - c0;
    int bad = !cycles || bg_check(b, err, sizeof err);
    if (bad) fprintf(stderr, "sim_speed: busy workload: %s\n", err);
    gpu_stats s;
    gpu_get_stats(g, &s);
    if (!bad) {
        printf("\nBusy workload: %s on %u cores (blocks: %s), result checked\n", bg_describe(b), c.num_cores,
               impl == FG_IMPL_C ? "C twins" : impl == FG_IMPL_RTL ? "verilated RTL" : "lockstep");
        printf("  %llu GPU cycles, %llu warp instructions in %.2f s wall, %.2f s CPU: %.0f GPU cycles/s and %.0f "
               "warp instrs/s per wall second (%.0f and %.0f per CPU second); L2 hit rate %.2f, DRAM %.1f GB/s\n",
               (unsigned long long)cycles, (unsigned long long)s.warp_instrs, wall, cpu, cycles / wall,
               s.warp_instrs / wall, cycles / cpu, s.warp_instrs / cpu, s.l2_hit_rate, s.dram_gbps);
        gpu_threads_used(g, &thr_cycles);
        if (nthr > 1)
            printf("  %u threads: %llu of the cycles' pipelines on them (the rest on one: the pool's choice); a "
                   "handoff to the threads and back took %.0f ns\n", nthr, (unsigned long long)thr_cycles, handoff);
        cJSON *o = cJSON_AddObjectToObject(root, "busy");
        cJSON_AddStringToObject(o, "workload", bg_describe(b));
        cJSON_AddNumberToObject(o, "gpu_cores", c.num_cores);
        cJSON_AddNumberToObject(o, "gpu_cycles", (double)cycles);
        cJSON_AddNumberToObject(o, "warp_instrs", (double)s.warp_instrs);
        cJSON_AddNumberToObject(o, "wall_seconds", wall);
        cJSON_AddNumberToObject(o, "cpu_seconds", cpu);
        cJSON_AddNumberToObject(o, "gpu_cycles_per_second", cycles / wall);
        cJSON_AddNumberToObject(o, "warp_instrs_per_second", s.warp_instrs / wall);
        cJSON_AddNumberToObject(o, "gpu_cycles_per_cpu_second", cycles / cpu);
        cJSON_AddNumberToObject(o, "warp_instrs_per_cpu_second", s.warp_instrs / cpu);
        cJSON_AddNumberToObject(o, "l2_hit_rate", s.l2_hit_rate);
        cJSON_AddNumberToObject(o, "dram_gbps", s.dram_gbps);
        cJSON_AddNumberToObject(o, "threads", nthr);
        cJSON_AddNumberToObject(o, "threaded_cycles", (double)thr_cycles);
        if (nthr > 1) cJSON_AddNumberToObject(o, "pool_handoff_ns", handoff);
        fg_block_use uses[4];
        fg_json_add_blocks(o, uses, gpu_config_blocks(&c, uses, 4));
    }
    bg_free(b);
    gpu_free(g);
    return bad ? -1 : 0;
}

int main(int argc, char **argv) {
    const char *cfgpath = "configs/edge.ini", *out = "results/sim_speed.json";
    uint64_t events = 0;
    bool busy_only = false;
    fg_impl busy_impl = FG_IMPL_C;
    fg_cli_list sets = {0};
    char err[512];
    const fg_opt opts[] = {
        FG_OPT_STR("--config", &cfgpath, "FILE", "the machine (default configs/edge.ini)"),
        FG_OPT_LIST("--set", &sets, "SEC.KEY=VALUE", "an override, after the file (repeatable, in order)"),
        FG_OPT_THREADS(&sets),
        FG_OPT_U64("--events", &events, 1, 1000000, "N", "serial events per path (default [launch_latency] events)"),
        FG_OPT_FLAG("--busy-only", &busy_only, "the busy workload alone"),
        FG_OPT_IMPL("--busy-impl", &busy_impl, "the busy workload's blocks (default c)"),
        FG_OPT_STR("--out", &out, "FILE", "the result (default results/sim_speed.json)"),
        FG_OPT_END};
    fg_cli_parse(&(fg_cli){"sim_speed", NULL, NULL, opts, NULL}, argc, argv);
    fg_config *cfg = fg_config_new();
    sys_params p;
    launch_exp_params x;
    if (!cfg || launch_exp_config(cfg, cfgpath, sets.v, sets.n, err, sizeof err) ||
        launch_exp_load(&p, &x, cfg, err, sizeof err)) {
        fprintf(stderr, "sim_speed: %s\n", cfg ? err : "out of memory");
        return 2;
    }
    if (events) x.events = events;

    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "benchmark", "sim-speed");
    cJSON_AddStringToObject(root, "config", cfgpath);
    cJSON_AddNumberToObject(root, "gpu_cores", p.gpu.num_cores);
    cJSON_AddNumberToObject(root, "gpu_clock_mhz", p.gpu.clock_mhz);
    int bad = 0;
    if (!busy_only) bad |= launch_speed(&p, &x, root);
    if (busy_run(&p.gpu, busy_impl, root)) bad = 1;
    cJSON_AddBoolToObject(root, "results_ok", !bad);
    if (write_json(out, root)) bad = 1;
    else printf("  wrote %s\n", out);
    cJSON_Delete(root);
    fg_cli_list_free(&sets);
    fg_config_free(cfg);
    return bad ? 1 : 0;
}
