/* cm_run: the CM machine (sim/cm/cm_sys.h, docs/CM_MACHINE.md) running one
 * CPU mix (CM Table IV) with one GPU kernel on its 28 SIMT cores, or either
 * alone.
 *
 *   cm_run [--config configs/cm.ini] [--set sec.key=val ...] [--mix H2|none]
 *          [--gpu stream|bfs|bp|mm|conv|none] [--gpu-size paper|test]
 *          [--scheme baseline|static|cm_cpu|cm_bal1..4|dyncta] [--static-warps N]
 *          [--warmup N] [--instrs N] [--cycles N] [--seed N] [--after-window finish|stop]
 *          [--out results/cm_run.json]
 *       one run: per-core CPU IPC, GPU IPC (total and per core), stallMC,
 *       stallnet and per-1024-cycle intervals (per-core CPU IPC, GPU IPC,
 *       stallMC, stallnet, each GPU core's stallGPU, warp limit and warps
 *       that issued) to --out; --scheme (= --set cmbal.scheme=NAME) picks the
 *       concurrency scheme (sim/cm/cm_bal_loop.h), --static-warps N = static
 *       TLP at N warps (--set cmbal.scheme=static --set cmbal.static_warps=N)
 *   cm_run --motivation [--mix H2] [--gpu stream] [--out results/cm_motivation.json] ...
 *       CM Sec. 3: the mix alone and beside the GPU kernel; per-core IPCs, the
 *       weighted speedup (CM Sec. 5) and cpu_slowdown = cores / weighted speedup
 *   cm_run ... --check-config
 *       loads and checks the configuration, overrides and options, runs
 *       nothing, writes nothing (scripts/sweep.py, before any point runs)
 *   cm_run --bench
 *       simulated cycles per wall second of the whole machine: H2 beside the
 *       STREAM kernel, 300k GPU cycles after a 20k-instruction warm-up (the
 *       GPU run in progress is not finished, so not checked: test_cm_sys and
 *       --motivation check the kernel's results)
 *
 * Measurement window (CM Sec. 5's protocol, shortened by --warmup/--instrs):
 * the CPU cores run alone until the slowest has retired --warmup
 * instructions; then the GPU kernel starts and the window lasts until the
 * slowest core has retired --instrs more (or --cycles GPU cycles).  The GPU
 * kernel runs to completion and starts again for as long as the window
 * lasts, so CPU and GPU IPC are measured over the same cycles; after the
 * window the run in progress finishes (not measured) so that every GPU run is
 * checked against its host reference; --after-window stop leaves it
 * unfinished and unchecked instead (`gpu_run_abandoned` in the JSON), so that
 * an application whose run is longer than the window, or very slow under a
 * low warp limit, costs only the window (its results are checked by
 * test_cm_apps and by the runs completed inside windows).  Without a CPU mix
 * the GPU kernel runs once to completion (or for --cycles). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cm/cm_sys.h"
#include "fg_wave.h"
#include "fg_cli.h"
#include "fg_json.h"
#include "fg_progress.h"
#include "fg_util.h"

typedef struct {
    const char *config, *mix, *out, *gpu, *gpu_size, *scheme, *static_warps;
    uint64_t warmup, instrs, seed, cycles; /* cycles: a window of that many GPU cycles instead */
    bool motivation, bench, quiet, stop_after; /* stop_after: --after-window stop */
    bool check_only;                            /* --check-config: load and check, run nothing */
    char kdir[512];
} opts;

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The memory partitions' counters summed (mem_stats), to take their change
 * over the window: whether the DRAM channels or the networks limit. */
typedef struct {
    uint64_t l2_hits, l2_misses, dram_busy, dram_cycles; /* stall cycles: cm_totals */
} mem_sum;

static mem_sum mem_snapshot(const mem_system *m) {
    mem_sum t = {0};
    for (unsigned p = 0; p < mem_partitions(m); p++) {
        mem_stats st;
        mem_get_stats(m, p, &st);
        t.l2_hits += st.l2_hits;
        t.l2_misses += st.l2_misses;
        t.dram_busy += st.dram_bus_busy;
        t.dram_cycles += st.dram_cycles;
    }
    return t;
}

typedef struct {
    double ipc[CM_MAX_CPU], mpki[CM_MAX_CPU], miss_ns[CM_MAX_CPU];
    double gpu_core_ipc[CM_MAX_GPU], stall_gpu[CM_MAX_GPU]; /* per window cycle (stallGPU: 0 .. schedulers) */
    cm_totals t;
    unsigned ncpu, gpu_runs_checked;
    bool gpu_run_abandoned; /* --after-window stop left a GPU run unfinished */
    mem_sum mem;            /* the memory partitions over the window */
    mem_stats ms;           /* the same, every counter (the breakdown) */
    unsigned n_iv;    /* intervals closed in the window (not the drain after it) */
    const char *gpu_desc;
    double wall, cpu; /* seconds of the measured part: wall clock, process CPU time */
} result;

/* One run (the caller frees *sys, kept for the interval dump); kernel NULL:
 * the mix alone; mix NULL: the GPU alone. */
static int run(const cm_config *c, const cpu_mix *mix, const char *kernel, const opts *o, result *r, cm_sys **sys) {
    char err[600];
    cm_gpu_work w = {kernel, o->gpu_size, o->kdir};
    cm_sys *s = cm_new(c, mix ? mix->apps : NULL, &w, o->seed, err, sizeof err);
    if (!s) {
        fprintf(stderr, "cm_run: %s\n", err);
        return -1;
    }
    fg_progress pr;
    fg_progress_init(&pr);
    const char *what = mix ? (kernel ? "beside the GPU" : "alone") : "GPU alone";
    const char *mname = mix ? mix->name : "no CPU mix";
    while (cm_min_retired(s) < o->warmup && !cm_error(s)) cm_tick(s);
    cm_reset_stats(s);
    double t0 = now_s(), c0 = (double)clock() / CLOCKS_PER_SEC; /* the measured part only */
    cm_gpu_on(s, kernel != NULL);
    const mem_sum m0 = mem_snapshot(cm_mem(s));
    mem_stats s0, s1;
    mem_get_stats(cm_mem(s), MEM_ALL, &s0);
    const uint64_t start = cm_cycle(s);
    const unsigned runs0 = cm_gpu_runs(s);
    for (;;) {
        const uint64_t n = cm_cycle(s) - start;
        if (o->cycles ? n >= o->cycles : mix ? cm_min_retired(s) >= o->instrs : cm_gpu_runs(s) > runs0) break;
        cm_tick(s);
        if (cm_error(s)) break;
        if (!o->quiet && !(n & 0xffff))
            fg_progress_status(&pr, false, "  %s %s: %" PRIu64 " k GPU cycles, slowest core %" PRIu64
                               " instructions, %u GPU runs", mname, what, n / 1000,
                               mix ? cm_min_retired(s) : 0, cm_gpu_runs(s));
    }
    fg_progress_clear(&pr);
    r->wall = now_s() - t0;
    r->cpu = (double)clock() / CLOCKS_PER_SEC - c0;
    cm_get_totals(s, &r->t);
    const mem_sum m1 = mem_snapshot(cm_mem(s));
    mem_get_stats(cm_mem(s), MEM_ALL, &s1);
    mem_stats_delta(&r->ms, &s0, &s1);
    r->mem = (mem_sum){m1.l2_hits - m0.l2_hits, m1.l2_misses - m0.l2_misses, m1.dram_busy - m0.dram_busy,
                       m1.dram_cycles - m0.dram_cycles};
    r->n_iv = cm_intervals(s);
    r->ncpu = cm_cpu_cores(s);
    for (unsigned i = 0; i < r->ncpu; i++) {
        cpu_stats st;
        cpu_core_stats(cm_cpu(s, i), &st);
        r->ipc[i] = (double)st.retired / (double)st.cycles;
        r->mpki[i] = 1000.0 * (double)st.l2_misses / (double)st.retired;
        r->miss_ns[i] = st.miss_n ? (double)st.miss_lat_sum / (double)st.miss_n / c->cpu.clock_mhz * 1000 : 0;
    }
    for (unsigned k = 0; k < c->gpu.num_cores; k++) { /* per GPU core over the window */
        r->gpu_core_ipc[k] = (double)r->t.core[k].warp_instrs / (double)r->t.cycles;
        r->stall_gpu[k] = (double)r->t.core[k].stall_gpu / (double)r->t.cycles;
    }
    /* the run in progress finishes (unmeasured) and is checked like the
     * others; --bench measures speed only and leaves it unfinished */
    cm_gpu_on(s, false);
    const uint64_t drain0 = cm_cycle(s);
    const bool drain = !o->bench && !o->stop_after;
    while (drain && !cm_error(s) && cm_gpu_busy(s) && cm_cycle(s) - drain0 < 100000000) cm_tick(s);
    if (drain && !cm_error(s) && cm_gpu_busy(s)) {
        fprintf(stderr, "cm_run: the GPU run did not finish within 100 M cycles after the window\n");
        cm_free(s);
        return -1;
    }
    if (cm_error(s)) {
        fprintf(stderr, "cm_run: %s\n", cm_error(s));
        cm_free(s);
        return -1;
    }
    r->gpu_runs_checked = cm_gpu_runs(s);
    r->gpu_run_abandoned = !drain && cm_gpu_busy(s);
    r->gpu_desc = kernel ? cm_gpu_describe(s) : "none";
    *sys = s;
    return 0;
}

static cJSON *nums(const double *v, unsigned n) { return cJSON_CreateDoubleArray(v, (int)n); }

static double sum(const double *v, unsigned n) {
    double s = 0;
    for (unsigned i = 0; i < n; i++) s += v[i];
    return s;
}

/* Where the window's responses spent their time and which queue was full
 * how often (mem.h mem_brk; docs/CM_MACHINE.md "Where the time goes"). */
static void breakdown_json(cJSON *mo, const mem_stats *s, unsigned partitions) {
    static const char *const src[2] = {"gpu", "cpu"};
    static const char *const path[MEM_PATHS] = {"hit", "miss", "merge", "write", "other"};
    static const char *const blk[MEM_BLK_COUNT] = {"reply_network", "mshr", "miss_queue", "other"};
    cJSON *b = cJSON_AddObjectToObject(mo, "breakdown_cycles");
    for (unsigned i = 0; i < 2; i++) {
        cJSON *o = cJSON_AddObjectToObject(b, src[i]);
        for (unsigned k = 0; k < MEM_PATHS; k++) {
            const mem_brk *x = &s->brk[i][k];
            if (!x->n) continue;
            const double n = (double)x->n;
            cJSON *e = cJSON_AddObjectToObject(o, path[k]);
            cJSON_AddNumberToObject(e, "responses", n);
            cJSON_AddNumberToObject(e, "request_network", (double)x->req / n);
            cJSON_AddNumberToObject(e, "l2_pipeline", (double)x->pipe / n);
            cJSON_AddNumberToObject(e, "to_reply", (double)x->wait / n);
            if (k == MEM_PATH_MISS) {
                cJSON_AddNumberToObject(e, "miss_queue", (double)x->missq / n);
                cJSON_AddNumberToObject(e, "mc_queues", (double)x->mcq / n);
                cJSON_AddNumberToObject(e, "dram", (double)x->dram / n);
                cJSON_AddNumberToObject(e, "fill_to_reply", (double)x->drain / n);
            }
            cJSON_AddNumberToObject(e, "reply_network", (double)x->rep / n);
            cJSON_AddNumberToObject(e, "at_requester", (double)x->port / n);
            cJSON_AddNumberToObject(e, "total", (double)(x->req + x->pipe + x->wait + x->rep + x->port) / n);
        }
    }
    cJSON *f = cJSON_AddObjectToObject(mo, "full_fraction");
    const double sl = s->l2_cycles ? (double)s->l2_cycles : 1;
    for (unsigned k = 0; k < MEM_BLK_COUNT; k++) {
        char name[48];
        snprintf(name, sizeof name, "l2_head_waits_%s", blk[k]);
        cJSON_AddNumberToObject(f, name, (double)s->l2_blk[k] / sl);
    }
    cJSON_AddNumberToObject(f, "l2_pipeline_full_request_waiting", (double)s->l2_in_wait / sl);
    cJSON_AddNumberToObject(f, "l2_input_queue_full", (double)s->l2_in_full / sl);
    const double pc = s->cycles ? (double)s->cycles * partitions : 1;
    cJSON_AddNumberToObject(f, "mc_stall", (double)s->stall_mc / pc);
    cJSON_AddNumberToObject(f, "mc_input_queue_full", (double)s->mc_q_full / pc);
    cJSON_AddNumberToObject(f, "mc_to_dram_queue_full", (double)s->dram_q_full / pc);
    cJSON_AddNumberToObject(f, "reply_network_stall", (double)s->stall_net / pc);
}

static cJSON *run_json(const cm_config *c, const result *r) {
    cJSON *o = cJSON_CreateObject();
    const double cyc = (double)r->t.cycles;
    cJSON_AddStringToObject(o, "gpu", r->gpu_desc);
    cJSON_AddItemToObject(o, "core_ipc", nums(r->ipc, r->ncpu));
    cJSON_AddNumberToObject(o, "ipc_sum", sum(r->ipc, r->ncpu));
    cJSON_AddItemToObject(o, "core_mpki", nums(r->mpki, r->ncpu));
    cJSON_AddItemToObject(o, "core_miss_latency_ns", nums(r->miss_ns, r->ncpu));
    cJSON_AddNumberToObject(o, "gpu_cycles", cyc);
    cJSON_AddNumberToObject(o, "cpu_cycles", (double)r->t.cpu_cycles);
    cJSON_AddNumberToObject(o, "stall_mc_per_cycle", (double)r->t.stall_mc / cyc);
    cJSON_AddNumberToObject(o, "stall_net_per_cycle", (double)r->t.stall_net / cyc);
    cJSON_AddNumberToObject(o, "gpu_ipc", (double)r->t.gpu_warp_instrs / cyc);
    cJSON_AddNumberToObject(o, "gpu_thread_ipc", (double)r->t.gpu_thread_instrs / cyc);
    cJSON_AddItemToObject(o, "gpu_core_ipc", nums(r->gpu_core_ipc, c->gpu.num_cores));
    cJSON_AddItemToObject(o, "stall_gpu_per_cycle", nums(r->stall_gpu, c->gpu.num_cores));
    cJSON_AddNumberToObject(o, "stall_gpu_pipe_fraction",
                            r->t.stall_gpu ? (double)r->t.stall_pipe / (double)r->t.stall_gpu : 0);
    cJSON_AddNumberToObject(o, "gpu_runs_in_window", r->t.gpu_runs);
    cJSON_AddNumberToObject(o, "gpu_runs_checked", r->gpu_runs_checked);
    cJSON_AddBoolToObject(o, "gpu_run_abandoned", r->gpu_run_abandoned);
    cJSON_AddNumberToObject(o, "cpu_requests", (double)r->t.cpu_requests);
    cJSON_AddNumberToObject(o, "gpu_requests", (double)r->t.gpu_requests);
    /* where the traffic goes: L2 hits travel only the networks, misses also
     * the DRAM channel (docs/RESULTS.md "stallMC") */
    cJSON *mo = cJSON_AddObjectToObject(o, "memory");
    const mem_sum *ms = &r->mem;
    cJSON_AddNumberToObject(mo, "l2_accesses", (double)(ms->l2_hits + ms->l2_misses));
    cJSON_AddNumberToObject(mo, "l2_hit_rate",
                            ms->l2_hits + ms->l2_misses ? (double)ms->l2_hits / (double)(ms->l2_hits + ms->l2_misses) : 0);
    cJSON_AddNumberToObject(mo, "dram_bus_util", ms->dram_cycles ? (double)ms->dram_busy / (double)ms->dram_cycles : 0);
    cJSON_AddNumberToObject(mo, "stall_mc_cycles", (double)r->t.stall_mc);
    cJSON_AddNumberToObject(mo, "stall_net_cycles", (double)r->t.stall_net);
    breakdown_json(mo, &r->ms, c->gpu.mem.partitions);
    cJSON_AddNumberToObject(o, "wall_s", r->wall);
    cJSON_AddNumberToObject(o, "cpu_s", r->cpu);
    return o;
}

static cJSON *intervals_json(const cm_config *c, const cm_sys *s, const result *r) {
    cJSON *a = cJSON_CreateArray();
    const unsigned ncpu = r->ncpu;
    for (unsigned k = 0; k < r->n_iv; k++) {
        const cm_interval *v = cm_interval_at(s, k);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "cpu_ipc", nums(v->cpu_ipc, ncpu));
        cJSON_AddNumberToObject(o, "gpu_ipc", v->gpu_ipc);
        cJSON_AddItemToObject(o, "gpu_core_ipc", nums(v->gpu_core_ipc, c->gpu.num_cores));
        cJSON_AddNumberToObject(o, "stall_mc", v->stall_mc);
        cJSON_AddNumberToObject(o, "stall_net", v->stall_net);
        cJSON_AddItemToObject(o, "stall_gpu", cJSON_CreateIntArray((const int *)v->stall_gpu, (int)c->gpu.num_cores));
        cJSON_AddItemToObject(o, "warp_limit", nums(v->warp_limit, c->gpu.num_cores));
        if (c->bal.scheme == CMBAL_DYNCTA) cJSON_AddItemToObject(o, "cta_limit", nums(v->cta_limit, c->gpu.num_cores));
        cJSON_AddItemToObject(o, "issued_warps",
                              cJSON_CreateIntArray((const int *)v->issued_warps, (int)c->gpu.num_cores));
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

/* Which RTL blocks the run had and how each ran (BRIEF: every experiment
 * says which blocks ran as RTL): the GPU's (gpu_config_blocks: the
 * partitions' F/E queues; the EDGE blocks when warp-level events are on) and
 * the CM-BAL monitor ("none" for a scheme without it); and the scheme. */
static void add_blocks(cJSON *root, const cm_config *c) {
    fg_block_use u[8];
    fg_json_add_blocks(root, u, gpu_config_blocks(&c->gpu, u, 8));
    cJSON_AddStringToObject(cJSON_GetObjectItemCaseSensitive(root, "blocks"), "cm_bal_monitor",
                            cmbal_monitor_impl(&c->bal));
    cJSON_AddStringToObject(root, "scheme", cmbal_scheme_names[c->bal.scheme]);
}

static void add_window(cJSON *root, const opts *o, const char *kernel) {
    cJSON_AddNumberToObject(root, "warmup_instrs", (double)o->warmup);
    cJSON_AddNumberToObject(root, "instrs", (double)o->instrs);
    if (o->cycles) cJSON_AddNumberToObject(root, "window_cycles", (double)o->cycles);
    cJSON_AddStringToObject(root, "window",
                            "CPU cores alone until the slowest retired warmup_instrs; then the GPU kernel starts and "
                            "runs to completion and again, while the window lasts until the slowest CPU core retired "
                            "instrs more (or window_cycles GPU cycles); IPCs are over the window's cycles; the GPU run "
                            "in progress at its end finishes unmeasured; every GPU run is checked against its host "
                            "reference");
    cJSON_AddStringToObject(root, "gpu_kernel", kernel ? kernel : "none");
    cJSON_AddStringToObject(root, "gpu_size", o->gpu_size);
}

static int write_json(cJSON *root, const char *path) {
    char err[300];
    int rc = fg_json_write(root, path, err, sizeof err);
    if (rc) fprintf(stderr, "cm_run: %s\n", err);
    else printf("wrote %s\n", path);
    cJSON_Delete(root);
    return rc ? 1 : 0;
}

static void print_run(const char *what, const cm_config *c, const result *r) {
    const double cyc = (double)r->t.cycles;
    printf("%-14s CPU IPC sum %.3f, GPU IPC %.2f (warp instructions per GPU cycle, %u runs), stallMC %.2f, "
           "stallnet %.2f per cycle, stallGPU %.2f per core-cycle; %" PRIu64 " GPU cycles in %.1f s "
           "(%.0f cycles/s)\n",
           what, sum(r->ipc, r->ncpu), (double)r->t.gpu_warp_instrs / cyc, r->t.gpu_runs,
           (double)r->t.stall_mc / cyc, (double)r->t.stall_net / cyc,
           r->t.gpu_warp_cycles ? (double)r->t.stall_gpu / (double)r->t.gpu_warp_cycles : 0, r->t.cycles, r->wall,
           cyc / r->wall);
    (void)c;
}

/* --gpu: a kernel bg_kernels.h knows (its kernels and the CM applications) or none */
static int gpu_opt(void *ctx, const char *name, const char *v, char *err, size_t errlen) {
    if (!bg_kernel_known(v) && strcmp(v, "none")) {
        snprintf(err, errlen, "%s '%s': not a kernel of sim/work/bg_kernels.h nor none", name, v);
        return -1;
    }
    *(const char **)ctx = v;
    return 0;
}

int main(int argc, char **argv) {
    opts o = {"configs/cm.ini", "H2", NULL, "stream", "paper", NULL, NULL, 200000, 1000000, 1, 0, false, false, false, false, false, ""};
    char kerr[600];
    if (fg_kernel_path(o.kdir, sizeof o.kdir, NULL, kerr, sizeof kerr)) {
        fprintf(stderr, "cm_run: %s\n", kerr);
        return 2;
    }
    fg_cli_list sets = {0};
    const char *after = "finish";
    const fg_opt table[] = {
        FG_OPT_STR("--config", &o.config, "FILE", "the machine (default configs/cm.ini)"),
        FG_OPT_LIST("--set", &sets, "SEC.KEY=VALUE", "an override, after the file (repeatable, in order)"),
        FG_OPT_THREADS(&sets),
        FG_OPT_STR("--mix", &o.mix, "L1|L2|M1|M2|H1|H2|none", "the CPU mix (CM Table IV; default H2)"),
        FG_OPT_CALL("--gpu", gpu_opt, &o.gpu, "KERNEL|none", "the GPU kernel: stream, bfs, bp, mm, conv, a CM application (default stream)"),
        FG_OPT_CHOICE("--gpu-size", &o.gpu_size, "paper|test", "the kernel's input size (default paper)"),
        FG_OPT_STR("--scheme", &o.scheme, "NAME", "baseline|static|cm_cpu|cm_bal1..4|dyncta (= --set cmbal.scheme=NAME)"),
        FG_OPT_STR("--static-warps", &o.static_warps, "N", "static TLP at N warps (= --scheme static, cmbal.static_warps=N)"),
        FG_OPT_U64("--warmup", &o.warmup, 0, UINT64_MAX, "N", "instructions of the CPU cores alone (default 200000)"),
        FG_OPT_U64("--instrs", &o.instrs, 1, UINT64_MAX, "N", "the window: instructions of the slowest core (default 1000000)"),
        FG_OPT_U64("--cycles", &o.cycles, 1, UINT64_MAX, "N", "the window: N GPU cycles instead"),
        FG_OPT_U64("--seed", &o.seed, 0, UINT64_MAX, "N", "the inputs' and streams' seed (default 1)"),
        FG_OPT_CHOICE("--after-window", &after, "finish|stop", "the GPU run in progress after the window (default finish)"),
        FG_OPT_STR("--out", &o.out, "FILE", "the result (default results/cm_run.json, cm_motivation.json, cm_speed.json)"),
        FG_OPT_FLAG("--motivation", &o.motivation, "CM Sec. 3: the mix alone and beside the kernel"),
        FG_OPT_FLAG("--bench", &o.bench, "simulated cycles per wall second of the whole machine"),
        FG_OPT_FLAG("--quiet", &o.quiet, "no progress line"),
        FG_OPT_FLAG("--check-config", &o.check_only, "load and check the configuration and options, run nothing"),
        FG_OPT_GROUP(fg_wave_opts),
        FG_OPT_END};
    fg_cli_parse(&(fg_cli){"cm_run", NULL, NULL, table, NULL}, argc, argv);
    o.stop_after = !strcmp(after, "stop");
    cm_config c;
    cm_config_default(&c);
    fg_config *cf = fg_config_new();
    char err[512];
    /* the file first, then the --set overrides on top */
    if (!cf) return 2;
    if (fg_config_load(cf, o.config, err, sizeof err)) goto bad;
    for (int i = 0; i < sets.n; i++)
        if (fg_config_set(cf, sets.v[i], err, sizeof err)) goto bad;
    /* --scheme / --static-warps over the file and --set (docs/CM_BAL.md "Schemes") */
    if (o.static_warps && o.scheme && strcmp(o.scheme, "static")) {
        fprintf(stderr, "cm_run: --static-warps %s needs --scheme static (got --scheme %s)\n", o.static_warps, o.scheme);
        return 2;
    }
    if (o.static_warps) o.scheme = "static";
    char as[2][160];
    snprintf(as[0], sizeof as[0], "cmbal.scheme=%s", o.scheme ? o.scheme : "");
    snprintf(as[1], sizeof as[1], "cmbal.static_warps=%s", o.static_warps ? o.static_warps : "");
    if ((o.scheme && fg_config_set(cf, as[0], err, sizeof err)) ||
        (o.static_warps && fg_config_set(cf, as[1], err, sizeof err)))
        goto bad;
    if (cm_config_load(&c, cf, err, sizeof err) || fg_config_check_unused(cf, err, sizeof err)) goto bad;
    fg_config_free(cf);
    const char *kernel = strcmp(o.gpu, "none") ? o.gpu : NULL;
    const cpu_mix *mix = strcmp(o.mix, "none") ? cpu_mix_find(o.mix) : NULL;
    if ((strcmp(o.mix, "none") && !mix) || (mix && c.cpu_cores != CPU_MIX_CORES)) {
        fprintf(stderr, "cm_run: --mix %s: one of L1 L2 M1 M2 H1 H2 (CM Table IV) with [cm] cpu_cores = 14, or none\n",
                o.mix);
        return 2;
    }
    if ((o.motivation && (!mix || !kernel)) || (!mix && !kernel)) {
        fprintf(stderr, "cm_run: %s\n", o.motivation ? "--motivation needs a CPU mix and a GPU kernel"
                                                     : "nothing to run: --mix none and --gpu none");
        return 2;
    }
    if (o.check_only) return 0; /* the sweep runner's check of every point before any runs */
    if (o.bench) { /* the whole machine, H2 beside the STREAM kernel, after a warm-up */
        mix = cpu_mix_find("H2");
        kernel = "stream";
        o.gpu_size = "paper";
        o.warmup = 20000;
        o.cycles = 300000;
        o.quiet = true;
    }
    result r[2];
    cm_sys *s = NULL;
    if (o.motivation) {
        cm_sys *s2 = NULL;
        if (run(&c, mix, NULL, &o, &r[0], &s) || run(&c, mix, kernel, &o, &r[1], &s2)) return 1;
        double ws = 0;
        for (unsigned i = 0; i < c.cpu_cores; i++) ws += r[1].ipc[i] / r[0].ipc[i];
        const double a = sum(r[0].ipc, c.cpu_cores), b = sum(r[1].ipc, c.cpu_cores);
        print_run("alone", &c, &r[0]);
        print_run("beside GPU", &c, &r[1]);
        printf("mix %s beside %s: weighted speedup %.3f of %u, cpu_slowdown %.3f (IPC sum %.3f alone, %.3f beside "
               "the GPU); GPU IPC %.2f, stallMC %.2f, stallnet %.3f per cycle; %u GPU runs checked\n",
               mix->name, r[1].gpu_desc, ws, c.cpu_cores, c.cpu_cores / ws, a, b,
               (double)r[1].t.gpu_warp_instrs / (double)r[1].t.cycles,
               (double)r[1].t.stall_mc / (double)r[1].t.cycles, (double)r[1].t.stall_net / (double)r[1].t.cycles,
               r[1].gpu_runs_checked);
        cJSON *root = cJSON_CreateObject();
        cJSON_AddStringToObject(root, "mix", mix->name);
        cJSON_AddItemToObject(root, "apps", cJSON_CreateStringArray(mix->apps, (int)c.cpu_cores));
        cJSON_AddStringToObject(root, "gpu", r[1].gpu_desc);
        add_window(root, &o, kernel);
        cJSON_AddNumberToObject(root, "interval", c.interval);
        add_blocks(root, &c);
        cJSON_AddNumberToObject(root, "cpu_slowdown", c.cpu_cores / ws);
        cJSON_AddNumberToObject(root, "weighted_speedup", ws);
        cJSON_AddStringToObject(root, "definition",
                                "weighted_speedup = sum over the cores of IPC_i beside the GPU / IPC_i alone (CM Sec. "
                                "5 WS_CPU); cpu_slowdown = cores / weighted_speedup; ipc_alone, ipc_with_gpu = sums "
                                "of the cores' IPCs");
        cJSON_AddNumberToObject(root, "ipc_alone", a);
        cJSON_AddNumberToObject(root, "ipc_with_gpu", b);
        cJSON_AddNumberToObject(root, "gpu_ipc", (double)r[1].t.gpu_warp_instrs / (double)r[1].t.cycles);
        cJSON_AddNumberToObject(root, "stall_mc_alone", (double)r[0].t.stall_mc / (double)r[0].t.cycles);
        cJSON_AddNumberToObject(root, "stall_mc_with_gpu", (double)r[1].t.stall_mc / (double)r[1].t.cycles);
        cJSON_AddNumberToObject(root, "stall_net_alone", (double)r[0].t.stall_net / (double)r[0].t.cycles);
        cJSON_AddNumberToObject(root, "stall_net_with_gpu", (double)r[1].t.stall_net / (double)r[1].t.cycles);
        cJSON *al = run_json(&c, &r[0]), *wg = run_json(&c, &r[1]);
        cJSON_AddItemToObject(wg, "intervals", intervals_json(&c, s2, &r[1]));
        cJSON_AddItemToObject(root, "alone", al);
        cJSON_AddItemToObject(root, "with_gpu", wg);
        cm_free(s);
        cm_free(s2);
        return write_json(root, o.out ? o.out : "results/cm_motivation.json");
    }
    if (run(&c, mix, kernel, &o, &r[0], &s)) return 1;
    print_run(mix ? (kernel ? "beside GPU" : "alone") : "GPU alone", &c, &r[0]);
    if (o.bench) {
        printf("CM machine (14 CPU cores running H2, 28 SIMT cores running %s, 6x6 mesh, 8 LLC slices, 8 GDDR5 "
               "channels, F/E queues as %s): %.0f GPU cycles (%.0f CPU cycles) per wall second; %.0f GPU cycles "
               "per CPU second of the process; %.0f warp instructions per wall second\n",
               r[0].gpu_desc, fg_impl_names[c.gpu.mem.fe_impl], (double)r[0].t.cycles / r[0].wall,
               (double)r[0].t.cpu_cycles / r[0].wall, (double)r[0].t.cycles / r[0].cpu,
               (double)r[0].t.gpu_warp_instrs / r[0].wall);
        cJSON *root = cJSON_CreateObject();
        cJSON_AddStringToObject(root, "machine", "CM (configs/cm.ini): 14 CPU cores (H2), 28 SIMT cores, 6x6 mesh");
        cJSON_AddStringToObject(root, "gpu", r[0].gpu_desc);
        cJSON_AddStringToObject(root, "fe_impl", fg_impl_names[c.gpu.mem.fe_impl]);
        add_blocks(root, &c);
        cJSON_AddNumberToObject(root, "gpu_cycles", (double)r[0].t.cycles);
        cJSON_AddNumberToObject(root, "cpu_cycles", (double)r[0].t.cpu_cycles);
        cJSON_AddNumberToObject(root, "warp_instrs", (double)r[0].t.gpu_warp_instrs);
        cJSON_AddNumberToObject(root, "wall_s", r[0].wall);
        cJSON_AddNumberToObject(root, "cpu_s", r[0].cpu);
        cJSON_AddNumberToObject(root, "gpu_cycles_per_wall_s", (double)r[0].t.cycles / r[0].wall);
        cJSON_AddNumberToObject(root, "cpu_cycles_per_wall_s", (double)r[0].t.cpu_cycles / r[0].wall);
        cJSON_AddNumberToObject(root, "gpu_cycles_per_cpu_s", (double)r[0].t.cycles / r[0].cpu);
        cm_free(s);
        return write_json(root, o.out ? o.out : "results/cm_speed.json");
    }
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "mix", mix ? mix->name : "none");
    if (mix) cJSON_AddItemToObject(root, "apps", cJSON_CreateStringArray(mix->apps, (int)c.cpu_cores));
    cJSON_AddStringToObject(root, "gpu", r[0].gpu_desc);
    add_window(root, &o, kernel);
    cJSON_AddNumberToObject(root, "interval", c.interval);
    add_blocks(root, &c);
    cJSON_AddItemToObject(root, "run", run_json(&c, &r[0]));
    cJSON_AddItemToObject(root, "intervals", intervals_json(&c, s, &r[0]));
    cm_free(s);
    int rc = write_json(root, o.out ? o.out : "results/cm_run.json");
    if (fg_wave_finish() && !rc) rc = 1;
    return rc;
bad:
    fprintf(stderr, "cm_run: %s\n", err);
    return 2;
}
