/* fe_fig12: F/E Fig. 12 - vectorAdd runtime over sizes for the GPU
 * baseline and full-overlap (F/E Fig. 7 a, d; sim/fe/fe_bench.h), each
 * normalized to a single-threaded CPU doing the same vectorAdd on the CPU
 * core model (sim/fe/fe_cpu.h) into a freshly allocated output ([fe]
 * cpu_first_touch_ns per page); the breakeven sizes where the GPU becomes
 * faster, also against the loop with the output already written, the -O0
 * build, and other first-touch costs (docs/FE_E2E.md, docs/RESULTS.md).
 *
 *   fe_fig12 [--config configs/fe.ini] [--set section.key=value ...] [--impl rtl|c|lockstep]
 *            [--sizes N,N,...] [--seed N] [--kdir DIR] [--out FILE] [--point]
 *   fe_fig12 --merge LIST --out FILE
 *
 * --sizes: elements per vector (default F/E Table 3's 8K..256K, doubling).
 * Breakeven: the smallest measured size from which on the GPU is faster
 * than the CPU at every larger measured size, and the crossing
 * interpolated between that size and the one below it (runtimes linear in
 * the size between two measured points); null when the GPU is slower at the
 * largest size.  --point (scripts/sweep.py): the whole figure as one point;
 * --merge: that point becomes the result file and the table is printed. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe/fe_bench.h"
#include "fg_wave.h"
#include "fe/fe_cpu.h"
#include "fe/fe_json.h"
#include "fg_json.h"
#include "fg_util.h"

#define MAX_SIZES 32

/* Breakeven of one curve (GPU / CPU runtimes over the sizes): -1 none. */
static void breakeven(const double *size, const double *gpu, const double *cpu, unsigned n, double *at,
                      double *interp) {
    *at = *interp = -1;
    unsigned k = n;
    while (k > 0 && gpu[k - 1] < cpu[k - 1]) k--;
    if (k == n) return; /* slower at the largest size */
    *at = size[k];
    if (k == 0) {
        *interp = size[0]; /* faster already at the smallest size measured */
        return;
    }
    /* d(s) = gpu(s) - cpu(s), linear between size[k-1] (d >= 0) and size[k] (d < 0) */
    double d0 = gpu[k - 1] - cpu[k - 1], d1 = gpu[k] - cpu[k];
    *interp = size[k - 1] + (size[k] - size[k - 1]) * d0 / (d0 - d1);
}

static void add_num_or_null(cJSON *o, const char *k, double v) {
    if (v < 0) cJSON_AddNullToObject(o, k);
    else cJSON_AddNumberToObject(o, k, v);
}

/* The breakevens of both GPU curves against one CPU's runtimes. */
static void add_breakevens(cJSON *o, const double *size, double gpu[2][MAX_SIZES], const double *cpu, unsigned n) {
    double at[2], in[2];
    for (int v = 0; v < 2; v++) breakeven(size, gpu[v], cpu, n, &at[v], &in[v]);
    add_num_or_null(o, "breakeven_baseline_elems", at[0]);
    add_num_or_null(o, "breakeven_full_overlap_elems", at[1]);
    add_num_or_null(o, "breakeven_baseline_interp_elems", in[0]);
    add_num_or_null(o, "breakeven_full_overlap_interp_elems", in[1]);
    cJSON_AddNumberToObject(o, "cpu_ns_per_elem", cpu[n - 1] / size[n - 1]);
}

/* The CPUs the GPU is compared with: the figure's (the -O2 loop writing a
 * freshly allocated output, as F/E 7.2 measured its CPU: sim/fe/fe_cpu.h),
 * and beside it the same loop with the output already written and the -O0
 * build (output written). */
enum { CPU_FIG, CPU_WARM, CPU_O0, NCPU };
static const struct {
    const char *sfx, *label;
    fe_cpu_code code;
    bool touch;
} CPUS[NCPU] = {{"", "-O2, output first touched (the figure's CPU)", FE_CPU_O2, true},
                {"_warm", "-O2, output already written", FE_CPU_O2, false},
                {"_O0", "-O0, output already written", FE_CPU_O0, false}};
/* first-touch costs the breakevens are also given for (ns per page) */
static const unsigned TOUCH_NS[] = {0, 250, 500, 750, 1000, 1250, 1500, 2000};
#define NTOUCH (sizeof TOUCH_NS / sizeof *TOUCH_NS)

static const cJSON *cpu_obj(const cJSON *root, int c) {
    char k[16];
    snprintf(k, sizeof k, "cpu%s", CPUS[c].sfx);
    return c == CPU_FIG ? root : cJSON_GetObjectItem(root, k);
}

static void print_breakevens(const cJSON *o) {
    static const char *const keys[2] = {"baseline", "full_overlap"};
    static const double paper[2] = {131072, 32768};
    for (int i = 0; i < 2; i++) {
        char k[64], ki[64];
        snprintf(k, sizeof k, "breakeven_%s_elems", keys[i]);
        snprintf(ki, sizeof ki, "breakeven_%s_interp_elems", keys[i]);
        const cJSON *b = cJSON_GetObjectItem(o, k), *bi = cJSON_GetObjectItem(o, ki);
        if (cJSON_IsNumber(b))
            printf("    breakeven %-13s GPU faster from %.0f elements (crossing ~%.0f); paper %.0f\n", keys[i],
                   b->valuedouble, bi->valuedouble, paper[i]);
        else
            printf("    breakeven %-13s none: the GPU is slower at every measured size; paper %.0f\n", keys[i],
                   paper[i]);
    }
}

static void print_report(const cJSON *root) {
    printf("\nF/E Fig. 12: vectorAdd runtime normalized to a single-threaded CPU (lower is better); F/E queues: "
           "%s\n\n", cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "blocks"), "fe_sched_queues")));
    printf("  %8s %9s %9s %9s | %11s %11s | %9s %9s\n", "elements", "CPU us", "warm us", "-O0 us", "baseline us",
           "full us", "base/CPU", "full/CPU");
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItem(root, "curves")) {
        printf("  %8.0f %9.1f %9.1f %9.1f | %11.1f %11.1f | %9.3f %9.3f\n", fg_json_num(p, "elements"),
               fg_json_num(p, "cpu_ns") / 1e3, fg_json_num(p, "cpu_warm_ns") / 1e3, fg_json_num(p, "cpu_O0_ns") / 1e3,
               fg_json_num(p, "baseline_ns") / 1e3, fg_json_num(p, "full_overlap_ns") / 1e3,
               fg_json_num(p, "baseline_norm"), fg_json_num(p, "full_overlap_norm"));
    }
    printf("\n");
    for (int c = 0; c < NCPU; c++) {
        const cJSON *o = cpu_obj(root, c);
        printf("  CPU %s, %.3f ns per element:\n", CPUS[c].label, fg_json_num(o, "cpu_ns_per_elem"));
        print_breakevens(o);
    }
    printf("  the figure's CPU with other first-touch costs (ns per %.0f-byte page):\n",
           fg_json_num(root, "cpu_model.page_bytes"));
    cJSON_ArrayForEach(p, cJSON_GetObjectItem(root, "first_touch_sensitivity")) {
        printf("   %5.0f ns, %.3f ns per element:\n", fg_json_num(p, "first_touch_ns"), fg_json_num(p, "cpu_ns_per_elem"));
        print_breakevens(p);
    }
    printf("  a CPU taking %.2f ns (baseline) / %.2f ns (full-overlap) per element would break even at the paper's\n"
           "  sizes against this GPU model\n",
           fg_json_num(root, "implied_cpu_ns_per_elem.baseline"), fg_json_num(root, "implied_cpu_ns_per_elem.full_overlap"));
}

static int merge_point(const char *list, const char *out) {
    char err[512];
    cJSON *pts = fg_json_read_list(list, err, sizeof err);
    if (pts && cJSON_GetArraySize(pts) != 1) {
        snprintf(err, sizeof err, "%s: --merge takes one point (the whole figure)", list);
        cJSON_Delete(pts);
        pts = NULL;
    }
    if (!pts || fg_json_write(cJSON_GetArrayItem(pts, 0), out, err, sizeof err)) {
        fprintf(stderr, "fe_fig12: %s\n", err);
        cJSON_Delete(pts);
        return 2;
    }
    print_report(cJSON_GetArrayItem(pts, 0));
    cJSON_Delete(pts);
    return 0;
}

static cJSON *cpu_model_json(const fe_machine *m) {
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "model", "sim/cpu/cpu_core (docs/CPU_MODEL.md), [cpu] of the machine file");
    cJSON_AddStringToObject(c, "stands_for", "Intel Xeon E3-1245 (Sandy Bridge), F/E Table 1");
    cJSON_AddStringToObject(c, "code", "gcc x86-64 scalar loop: -O2 (6 instructions per element; the figure's CPU, "
                                       "and cpu_warm) and -O0 (22, cpu_O0) (sim/fe/fe_cpu.h)");
    cJSON_AddNumberToObject(c, "clock_mhz", m->cpu.clock_mhz);
    cJSON_AddNumberToObject(c, "width", m->cpu.width);
    cJSON_AddNumberToObject(c, "window", m->cpu.window);
    cJSON_AddNumberToObject(c, "mem_per_cycle", m->cpu.mem_per_cycle);
    cJSON_AddNumberToObject(c, "mshrs", m->cpu.mshrs);
    cJSON_AddNumberToObject(c, "l1_latency", m->cpu.l1_latency);
    cJSON_AddNumberToObject(c, "l2_latency", m->cpu.l2_latency);
    cJSON_AddNumberToObject(c, "l3_latency_after_l2", m->cpu_env.mem_latency);
    cJSON_AddNumberToObject(c, "first_touch_ns", m->cpu_env.first_touch_ns);
    cJSON_AddNumberToObject(c, "page_bytes", m->cpu_env.page_bytes);
    return c;
}

int main(int argc, char **argv) {
    fe_cli cli;
    const char *sizes_arg = NULL;
    char err[512];
    fe_cli_init(&cli);
    const fg_opt opts[] = {
        FG_OPT_GROUP(cli.opts),
        FG_OPT_STR("--sizes", &sizes_arg, "N,N,...", "increasing element counts (default 8K..256K, doubling)"),
        FG_OPT_END};
    fg_cli_parse(&(fg_cli){"fe_fig12", "[options]\n--merge LIST --out FILE", NULL, opts, NULL}, argc, argv);
    if (cli.e.merge) {
        if (!cli.e.out) {
            fprintf(stderr, "fe_fig12: --merge needs --out\n");
            return 2;
        }
        return merge_point(cli.e.merge, cli.e.out);
    }
    double size[MAX_SIZES];
    unsigned n = 0;
    if (sizes_arg) {
        const char *s = sizes_arg;
        while (*s) {
            char tok[24];
            size_t len = strcspn(s, ",");
            snprintf(tok, sizeof tok, "%.*s", (int)(len < sizeof tok - 1 ? len : sizeof tok - 1), s);
            const char *end = s + len;
            uint64_t v = 0;
            if (fg_num_u64("--sizes", tok, 1, 1ul << 22, &v, err, sizeof err)) {
                fprintf(stderr, "fe_fig12: %s\n", err);
                return 2;
            }
            if (n == MAX_SIZES || (n && v <= size[n - 1])) {
                fprintf(stderr, "fe_fig12: --sizes %s: increasing element counts 1..4M, at most %d, comma-separated\n",
                        sizes_arg, MAX_SIZES);
                return 2;
            }
            size[n++] = (double)v;
            s = *end ? end + 1 : end;
        }
    } else {
        for (unsigned v = 8192; v <= 262144; v *= 2) size[n++] = v; /* F/E Table 3: 8K-256K */
    }
    fe_machine m;
    if (fe_machine_load(&cli, &m, err, sizeof err)) { fprintf(stderr, "fe_fig12: %s\n", err); return 2; }
    if (cli.e.check) {
        printf("fe_fig12: configuration ok\n");
        return 0;
    }
    double cpu[NCPU][MAX_SIZES], gpu[2][MAX_SIZES], faults[MAX_SIZES];
    cJSON *curves = cJSON_CreateArray();
    int rc = 0;
    for (unsigned i = 0; i < n && !rc; i++) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "elements", size[i]);
        for (int c = 0; c < NCPU && !rc; c++) {
            fe_cpu_env env = m.cpu_env;
            if (!CPUS[c].touch) env.first_touch_ns = 0;
            fe_cpu_result cr;
            if (fe_cpu_vecadd(&m.cpu, &env, CPUS[c].code, (uint64_t)size[i], &cr, err, sizeof err)) {
                fprintf(stderr, "fe_fig12: CPU %.0f elements: %s\n", size[i], err);
                rc = 1;
                break;
            }
            cpu[c][i] = cr.ns;
            char k[64];
            snprintf(k, sizeof k, "cpu%s_ns", CPUS[c].sfx);
            cJSON_AddNumberToObject(p, k, cr.ns);
            snprintf(k, sizeof k, "cpu%s_ipc", CPUS[c].sfx);
            cJSON_AddNumberToObject(p, k, cr.ipc);
            snprintf(k, sizeof k, "cpu%s_cycles_per_elem", CPUS[c].sfx);
            cJSON_AddNumberToObject(p, k, cr.cycles_per_elem);
            if (c == CPU_FIG) {
                faults[i] = (double)cr.faults;
                cJSON_AddNumberToObject(p, "cpu_faults", (double)cr.faults);
                cJSON_AddNumberToObject(p, "cpu_fault_ns", cr.fault_ns);
            }
        }
        const fe_variant vs[2] = {FE_BASELINE, FE_FULL_OVERLAP};
        const char *names[2] = {"baseline", "full_overlap"};
        for (int v = 0; v < 2 && !rc; v++) {
            fe_bench_opts o = {m.kdir, m.seed, (unsigned)size[i]};
            fe_bench_result r;
            if (fe_bench_run(&m.gpu, &m.host, FE_B_VECTORADD, vs[v], &o, &r, err, sizeof err)) {
                fprintf(stderr, "fe_fig12: vectorAdd %s %.0f: %s\n", names[v], size[i], err);
                rc = 1;
                break;
            }
            gpu[v][i] = r.runtime_ns;
            char k[64];
            snprintf(k, sizeof k, "%s_ns", names[v]);
            cJSON_AddNumberToObject(p, k, r.runtime_ns);
            for (int c = 0; c < NCPU; c++) {
                snprintf(k, sizeof k, "%s_norm%s", names[v], CPUS[c].sfx);
                cJSON_AddNumberToObject(p, k, r.runtime_ns / cpu[c][i]);
            }
            snprintf(k, sizeof k, "%s_kernel_ns", names[v]);
            cJSON_AddNumberToObject(p, k, r.kernel_ns);
            fe_bench_result_free(&r);
        }
        if (!cli.e.point)
            fprintf(stderr, "  %7.0f elements: CPU %9.1f us, GPU baseline %9.1f us, full-overlap %9.1f us\n", size[i],
                    cpu[CPU_FIG][i] / 1e3, rc ? 0 : gpu[0][i] / 1e3, rc ? 0 : gpu[1][i] / 1e3);
        cJSON_AddItemToArray(curves, p);
    }
    if (rc) {
        cJSON_Delete(curves);
        return rc;
    }
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "figure", "F/E Fig. 12");
    fg_block_use uses[4];
    fg_json_add_blocks(root, uses, gpu_config_blocks(&m.gpu, uses, 4));
    cJSON_AddStringToObject(root, "config", m.config);
    cJSON_AddNumberToObject(root, "seed", (double)m.seed);
    cJSON_AddItemToObject(root, "cpu_model", cpu_model_json(&m));
    /* the breakevens against the figure's CPU and the two beside it */
    for (int c = 0; c < NCPU; c++) {
        cJSON *o = c == CPU_FIG ? root : cJSON_CreateObject();
        add_breakevens(o, size, gpu, cpu[c], n);
        if (c != CPU_FIG) {
            char k[16];
            snprintf(k, sizeof k, "cpu%s", CPUS[c].sfx);
            cJSON_AddItemToObject(root, k, o);
        }
    }
    /* ... and against the figure's CPU at other first-touch costs: the
     * faults add to the loop's time (sim/fe/fe_cpu.h), so each is the warm
     * run plus the pages times the cost */
    cJSON *sens = cJSON_CreateArray();
    for (unsigned t = 0; t < NTOUCH; t++) {
        double cpu_t[MAX_SIZES];
        for (unsigned i = 0; i < n; i++) cpu_t[i] = cpu[CPU_WARM][i] + faults[i] * TOUCH_NS[t];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "first_touch_ns", TOUCH_NS[t]);
        add_breakevens(o, size, gpu, cpu_t, n);
        cJSON_AddItemToArray(sens, o);
    }
    cJSON_AddItemToObject(root, "first_touch_sensitivity", sens);
    /* the per-element CPU time at which this GPU model would break even at
     * the paper's sizes (its runtime there over the size; interpolated
     * linearly in the size) */
    cJSON *imp = cJSON_CreateObject();
    const double paper_at[2] = {131072, 32768};
    for (int v = 0; v < 2; v++) {
        double t = -1;
        for (unsigned i = 0; i + 1 < n; i++)
            if (size[i] <= paper_at[v] && paper_at[v] <= size[i + 1])
                t = gpu[v][i] + (gpu[v][i + 1] - gpu[v][i]) * (paper_at[v] - size[i]) / (size[i + 1] - size[i]);
        add_num_or_null(imp, v ? "full_overlap" : "baseline", t < 0 ? -1 : t / paper_at[v]);
    }
    cJSON_AddItemToObject(root, "implied_cpu_ns_per_elem", imp);
    cJSON_AddItemToObject(root, "curves", curves);
    cJSON *paper = cJSON_CreateObject();
    cJSON_AddNumberToObject(paper, "breakeven_baseline_elems", 131072);
    cJSON_AddNumberToObject(paper, "breakeven_full_overlap_elems", 32768);
    cJSON_AddItemToObject(root, "paper", paper);
    if (cli.e.out && fg_json_write(root, cli.e.out, err, sizeof err)) {
        fprintf(stderr, "fe_fig12: %s\n", err);
        rc = 2;
    } else if (!cli.e.point) {
        print_report(root);
    }
    cJSON_Delete(root);
    if (fg_wave_finish() && !rc) rc = 1;
    return rc;
}
