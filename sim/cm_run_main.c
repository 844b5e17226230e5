/* cm_run: the CM machine (sim/cm/cm_sys.h, docs/CM_MACHINE.md) running one
 * CPU mix (CM Table IV) alone or beside the GPU side, CM Sec. 5's protocol:
 * the CPU cores run alone until the slowest has retired --warmup
 * instructions, then the GPU side starts and the run lasts until the slowest
 * core has retired --instrs more.
 *
 *   cm_run [--config configs/cm.ini] [--set sec.key=val ...] [--mix H2]
 *          [--gpu stream|none] [--warmup N] [--instrs N] [--seed N]
 *          [--out results/cm_run.json]
 *       one run; per-core CPU IPC, stallMC, stallnet, GPU figures and per-1024-
 *       cycle intervals (per-core CPU IPC, GPU IPC, stallMC, stallnet, each
 *       GPU core's stallGPU) to --out
 *   cm_run --motivation [--out results/cm_motivation.json] ...
 *       the mix alone and beside the GPU side: per-core IPCs, the weighted
 *       speedup (CM Sec. 5) and cpu_slowdown = cores / weighted speedup
 *   cm_run --bench
 *       simulated cycles per wall second of the whole machine: H2 beside the
 *       GPU side, 500k GPU cycles after a 20k-instruction warm-up
 *
 * The GPU side is a stand-in until the SIMT cores run on the memory system
 * (gpu_traffic.h): streaming line traffic from the 28 GPU cores' ports. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cm/cm_sys.h"
#include "fg_json.h"

typedef struct {
    const char *config, *mix, *out;
    cm_gpu_kind gpu;
    uint64_t warmup, instrs, seed, cycles; /* cycles: run that many GPU cycles instead (--bench) */
    bool motivation, bench, quiet;
} opts;

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct {
    double ipc[CM_MAX_CPU], mpki[CM_MAX_CPU], miss_ns[CM_MAX_CPU];
    cm_totals t;
    double wall, cpu; /* seconds of the measured part: wall clock, process CPU time */
} result;

/* One run; the caller frees *sys (kept for the interval dump). */
static int run(const cm_config *c, const cpu_mix *mix, const opts *o, cm_gpu_kind gpu, result *r,
               cm_sys **sys) {
    char err[400];
    cm_sys *s = cm_new(c, mix->apps, gpu, o->seed, err, sizeof err);
    if (!s) {
        fprintf(stderr, "cm_run: %s\n", err);
        return -1;
    }
    while (cm_min_retired(s) < o->warmup) cm_tick(s);
    cm_reset_stats(s);
    double t0 = now_s(), c0 = (double)clock() / CLOCKS_PER_SEC; /* the measured part only */
    cm_gpu_on(s, gpu != CM_GPU_NONE);
    uint64_t next_report = 1000000;
    uint64_t start = cm_cycle(s);
    while (o->cycles ? cm_cycle(s) - start < o->cycles : cm_min_retired(s) < o->instrs) {
        cm_tick(s);
        if (cm_error(s)) {
            fprintf(stderr, "cm_run: %s\n", cm_error(s));
            cm_free(s);
            return -1;
        }
        if (!o->quiet && cm_cycle(s) >= next_report) {
            fprintf(stderr, "\r  %s %s: %" PRIu64 "M GPU cycles, slowest core %" PRIu64 " instructions ", mix->name,
                    gpu ? "+ GPU" : "alone", cm_cycle(s) / 1000000, cm_min_retired(s));
            next_report += 1000000;
        }
    }
    if (!o->quiet) fprintf(stderr, "\r%70s\r", "");
    r->wall = now_s() - t0;
    r->cpu = (double)clock() / CLOCKS_PER_SEC - c0;
    cm_get_totals(s, &r->t);
    for (unsigned i = 0; i < c->cpu_cores; i++) {
        cpu_stats st;
        cpu_core_stats(cm_cpu(s, i), &st);
        r->ipc[i] = (double)st.retired / (double)st.cycles;
        r->mpki[i] = 1000.0 * (double)st.l2_misses / (double)st.retired;
        r->miss_ns[i] = st.miss_n ? (double)st.miss_lat_sum / (double)st.miss_n / c->cpu.clock_mhz * 1000 : 0;
    }
    *sys = s;
    return 0;
}

static cJSON *nums(const double *v, unsigned n) { return cJSON_CreateDoubleArray(v, (int)n); }

static cJSON *run_json(const cm_config *c, cm_gpu_kind gpu, const result *r) {
    cJSON *o = cJSON_CreateObject();
    double sum = 0;
    for (unsigned i = 0; i < c->cpu_cores; i++) sum += r->ipc[i];
    cJSON_AddStringToObject(o, "gpu", gpu == CM_GPU_STREAM ? "stream stand-in" : "none");
    cJSON_AddItemToObject(o, "core_ipc", nums(r->ipc, c->cpu_cores));
    cJSON_AddNumberToObject(o, "ipc_sum", sum);
    cJSON_AddItemToObject(o, "core_mpki", nums(r->mpki, c->cpu_cores));
    cJSON_AddItemToObject(o, "core_miss_latency_ns", nums(r->miss_ns, c->cpu_cores));
    cJSON_AddNumberToObject(o, "gpu_cycles", (double)r->t.cycles);
    cJSON_AddNumberToObject(o, "cpu_cycles", (double)r->t.cpu_cycles);
    cJSON_AddNumberToObject(o, "stall_mc_per_cycle", (double)r->t.stall_mc / (double)r->t.cycles);
    cJSON_AddNumberToObject(o, "stall_net_per_cycle", (double)r->t.stall_net / (double)r->t.cycles);
    cJSON_AddNumberToObject(o, "gpu_lines_per_cycle", (double)r->t.gpu_lines / (double)r->t.cycles);
    cJSON_AddNullToObject(o, "gpu_ipc"); /* no SIMT kernel yet */
    cJSON_AddNumberToObject(o, "wall_s", r->wall);
    cJSON_AddNumberToObject(o, "cpu_s", r->cpu);
    return o;
}

static cJSON *intervals_json(const cm_config *c, const cm_sys *s) {
    cJSON *a = cJSON_CreateArray();
    for (unsigned k = 0; k < cm_intervals(s); k++) {
        const cm_interval *v = cm_interval_at(s, k);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "cpu_ipc", nums(v->cpu_ipc, c->cpu_cores));
        if (v->gpu_ipc < 0) cJSON_AddNullToObject(o, "gpu_ipc");
        else cJSON_AddNumberToObject(o, "gpu_ipc", v->gpu_ipc);
        cJSON_AddNumberToObject(o, "gpu_lines", v->gpu_lines);
        cJSON_AddNumberToObject(o, "stall_mc", v->stall_mc);
        cJSON_AddNumberToObject(o, "stall_net", v->stall_net);
        cJSON_AddItemToObject(o, "stall_gpu", cJSON_CreateIntArray((const int *)v->stall_gpu, (int)c->gpu_cores));
        cJSON_AddItemToArray(a, o);
    }
    return a;
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
    double sum = 0;
    for (unsigned i = 0; i < c->cpu_cores; i++) sum += r->ipc[i];
    printf("%-12s IPC sum %.3f, stallMC %.2f/cycle, stallnet %.2f/cycle, GPU %.2f lines/cycle, "
           "%" PRIu64 " GPU cycles in %.1f s (%.0f cycles/s)\n",
           what, sum, (double)r->t.stall_mc / (double)r->t.cycles, (double)r->t.stall_net / (double)r->t.cycles,
           (double)r->t.gpu_lines / (double)r->t.cycles, r->t.cycles, r->wall, (double)r->t.cycles / r->wall);
}

int main(int argc, char **argv) {
    opts o = {"configs/cm.ini", "H2", NULL, CM_GPU_STREAM, 200000, 1000000, 1, 0, false, false, false};
    fg_config *cf = fg_config_new();
    char err[512];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--config") && v) o.config = argv[++i];
        else if (!strcmp(a, "--mix") && v) o.mix = argv[++i];
        else if (!strcmp(a, "--out") && v) o.out = argv[++i];
        else if (!strcmp(a, "--warmup") && v) o.warmup = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(a, "--instrs") && v) o.instrs = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(a, "--seed") && v) o.seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(a, "--gpu") && v && (!strcmp(v, "stream") || !strcmp(v, "none"))) {
            o.gpu = strcmp(argv[++i], "none") ? CM_GPU_STREAM : CM_GPU_NONE;
        } else if (!strcmp(a, "--set") && v) {
            i++; /* applied over the file below */
        } else if (!strcmp(a, "--motivation")) o.motivation = true;
        else if (!strcmp(a, "--bench")) o.bench = true;
        else if (!strcmp(a, "--quiet")) o.quiet = true;
        else {
            fprintf(stderr, "usage: cm_run [--config F] [--set s.k=v] [--mix L1|L2|M1|M2|H1|H2] [--gpu stream|none]\n"
                            "              [--warmup N] [--instrs N] [--seed N] [--out F] [--motivation | --bench]\n");
            return 2;
        }
    }
    cm_config c;
    cm_config_default(&c);
    /* the file first, then the --set overrides on top */
    if (fg_config_load(cf, o.config, err, sizeof err)) goto bad;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--set") && i + 1 < argc && fg_config_set(cf, argv[++i], err, sizeof err)) goto bad;
    if (cm_config_load(&c, cf, err, sizeof err) || fg_config_check_unused(cf, err, sizeof err)) goto bad;
    fg_config_free(cf);
    const cpu_mix *mix = cpu_mix_find(o.mix);
    if (!mix || c.cpu_cores != CPU_MIX_CORES) {
        fprintf(stderr, "cm_run: --mix %s: one of L1 L2 M1 M2 H1 H2 (CM Table IV), with [cm] cpu_cores = 14\n", o.mix);
        return 2;
    }
    if (o.bench) { /* the whole machine, H2 beside the GPU side, after a warm-up */
        o.warmup = 20000;
        o.cycles = 500000;
        o.quiet = true;
    }
    result r[2];
    cm_sys *s = NULL;
    if (o.motivation) {
        cm_sys *s2 = NULL;
        if (run(&c, mix, &o, CM_GPU_NONE, &r[0], &s) || run(&c, mix, &o, CM_GPU_STREAM, &r[1], &s2)) return 1;
        cm_free(s);
        cm_free(s2);
        double ws = 0, a = 0, b = 0;
        for (unsigned i = 0; i < c.cpu_cores; i++) {
            ws += r[1].ipc[i] / r[0].ipc[i];
            a += r[0].ipc[i];
            b += r[1].ipc[i];
        }
        print_run("alone", &c, &r[0]);
        print_run("beside GPU", &c, &r[1]);
        printf("mix %s: weighted speedup %.3f of %u, cpu_slowdown %.3f (IPC sum %.3f alone, %.3f beside the GPU)\n",
               mix->name, ws, c.cpu_cores, c.cpu_cores / ws, a, b);
        cJSON *root = cJSON_CreateObject();
        cJSON_AddStringToObject(root, "mix", mix->name);
        cJSON_AddItemToObject(root, "apps", cJSON_CreateStringArray(mix->apps, (int)c.cpu_cores));
        cJSON_AddStringToObject(root, "gpu", "stream stand-in (28 GPU ports, STREAM-triad-like line traffic)");
        cJSON_AddNumberToObject(root, "warmup_instrs", (double)o.warmup);
        cJSON_AddNumberToObject(root, "instrs", (double)o.instrs);
        cJSON_AddNumberToObject(root, "cpu_slowdown", c.cpu_cores / ws);
        cJSON_AddNumberToObject(root, "weighted_speedup", ws);
        cJSON_AddNumberToObject(root, "ipc_alone", a);
        cJSON_AddNumberToObject(root, "ipc_with_gpu", b);
        cJSON_AddItemToObject(root, "alone", run_json(&c, CM_GPU_NONE, &r[0]));
        cJSON_AddItemToObject(root, "with_gpu", run_json(&c, CM_GPU_STREAM, &r[1]));
        return write_json(root, o.out ? o.out : "results/cm_motivation.json");
    }
    if (run(&c, mix, &o, o.gpu, &r[0], &s)) return 1;
    print_run(o.gpu ? "beside GPU" : "alone", &c, &r[0]);
    if (o.bench) {
        printf("CM machine (14 CPU cores, GPU stand-in on 28 ports, 6x6 mesh, 8 LLC slices, 8 GDDR5 channels): "
               "%.0f GPU cycles (%.0f CPU cycles) per wall second; %.0f GPU cycles per CPU second of the "
               "process\n",
               (double)r[0].t.cycles / r[0].wall, (double)r[0].t.cpu_cycles / r[0].wall,
               (double)r[0].t.cycles / r[0].cpu);
        cm_free(s);
        return 0;
    }
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "mix", mix->name);
    cJSON_AddItemToObject(root, "apps", cJSON_CreateStringArray(mix->apps, (int)c.cpu_cores));
    cJSON_AddNumberToObject(root, "interval", c.interval);
    cJSON_AddItemToObject(root, "run", run_json(&c, o.gpu, &r[0]));
    cJSON_AddItemToObject(root, "intervals", intervals_json(&c, s));
    cm_free(s);
    return write_json(root, o.out ? o.out : "results/cm_run.json");
bad:
    fprintf(stderr, "cm_run: %s\n", err);
    return 2;
}
