/* fe_fig11: F/E Fig. 11 - runtime of the seven F/E Table 3 benchmarks in
 * the four F/E Fig. 7 variants, normalized to the baseline (docs/FE_E2E.md,
 * docs/RESULTS.md).
 *
 *   fe_fig11 [--config configs/fe.ini] [--set section.key=value ...] [--impl rtl|c|lockstep]
 *            [--bench NAME|all] [--variant NAME|all] [--size N | --small] [--seed N]
 *            [--kdir DIR] [--out FILE] [--point]
 *   fe_fig11 --merge LIST --out FILE
 *
 * A run checks every result against its host reference (a wrong one fails
 * the run, exit 1).  --point (scripts/sweep.py): the selected runs' JSON
 * written (one run as it is, several as {"points": [...]}; the experiment,
 * experiments/fe_fig11.ini, is the whole figure as one point).  --merge:
 * the runs of the listed files become the result file
 * (results/fe_fig11.json) and the figure's table is printed from it.
 * Without either, the selected runs are made here and the table printed
 * (and written with --out).  --impl sets [mem] fe_impl (the F/E queues:
 * verilated RTL by default). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe/fe_bench.h"
#include "fg_wave.h"
#include "fe/fe_json.h"
#include "fg_json.h"
#include "fg_util.h"

/* The result file: every benchmark's runtimes, normalized runtimes and
 * speedups, the means, the paper's figures. */
static cJSON *merge(cJSON *points) {
    cJSON *root = cJSON_CreateObject(), *benches = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "figure", "F/E Fig. 11");
    const cJSON *p0 = cJSON_GetArrayItem(points, 0);
    if (p0) {
        cJSON_AddItemToObject(root, "blocks", cJSON_Duplicate(cJSON_GetObjectItem(p0, "blocks"), 1));
        cJSON_AddItemToObject(root, "config", cJSON_Duplicate(cJSON_GetObjectItem(p0, "config"), 1));
        cJSON_AddItemToObject(root, "seed", cJSON_Duplicate(cJSON_GetObjectItem(p0, "seed"), 1));
    }
    double sum = 0, logsum = 0, best = 0, sum_n[FE_VARIANTS] = {0};
    const char *best_name = "";
    unsigned nb = 0;
    for (int b = 0; b < FE_BENCHES; b++) {
        const cJSON *pv[FE_VARIANTS] = {0};
        const cJSON *p;
        cJSON_ArrayForEach(p, points) {
            const cJSON *bn = cJSON_GetObjectItem(p, "bench"), *vn = cJSON_GetObjectItem(p, "variant");
            if (!cJSON_IsString(bn) || strcmp(bn->valuestring, fe_bench_names[b]) || !cJSON_IsString(vn)) continue;
            for (int v = 0; v < FE_VARIANTS; v++)
                if (!strcmp(vn->valuestring, fe_variant_names[v])) pv[v] = p;
        }
        if (!pv[FE_BASELINE]) continue;
        cJSON *o = cJSON_CreateObject(), *rt = cJSON_CreateObject(), *nr = cJSON_CreateObject(),
              *sp = cJSON_CreateObject(), *runs = cJSON_CreateObject();
        double base = fg_json_num(pv[FE_BASELINE], "runtime_ns");
        cJSON_AddNumberToObject(o, "size", fg_json_num(pv[FE_BASELINE], "size"));
        cJSON_AddItemToObject(o, "describe", cJSON_Duplicate(cJSON_GetObjectItem(pv[FE_BASELINE], "describe"), 1));
        bool all = true;
        for (int v = 0; v < FE_VARIANTS; v++) {
            if (!pv[v]) { all = false; continue; }
            double t = fg_json_num(pv[v], "runtime_ns");
            cJSON_AddNumberToObject(rt, fe_variant_names[v], t);
            cJSON_AddNumberToObject(nr, fe_variant_names[v], t / base);
            cJSON_AddNumberToObject(sp, fe_variant_names[v], base / t);
            cJSON *run = cJSON_Duplicate(pv[v], 1);
            cJSON_DeleteItemFromObject(run, "timeline");
            cJSON_AddItemToObject(runs, fe_variant_names[v], run);
        }
        cJSON_AddItemToObject(o, "runtime_ns", rt);
        cJSON_AddItemToObject(o, "normalized", nr);
        cJSON_AddItemToObject(o, "speedup", sp);
        cJSON_AddItemToObject(o, "runs", runs);
        if (pv[FE_FULL_OVERLAP]) cJSON_AddItemToObject(o, "timeline_full_overlap",
                                                       cJSON_Duplicate(cJSON_GetObjectItem(pv[FE_FULL_OVERLAP], "timeline"), 1));
        cJSON_AddItemToObject(o, "timeline_baseline", cJSON_Duplicate(cJSON_GetObjectItem(pv[FE_BASELINE], "timeline"), 1));
        cJSON_AddItemToObject(benches, fe_bench_names[b], o);
        if (!all) continue;
        double s = base / fg_json_num(pv[FE_FULL_OVERLAP], "runtime_ns");
        sum += s;
        logsum += log(s);
        for (int v = 0; v < FE_VARIANTS; v++) sum_n[v] += fg_json_num(pv[v], "runtime_ns") / base;
        if (s > best) best = s, best_name = fe_bench_names[b];
        nb++;
    }
    cJSON_AddItemToObject(root, "benchmarks", benches);
    cJSON_AddNumberToObject(root, "n_benchmarks", nb);
    cJSON_AddNumberToObject(root, "mean_speedup_full_overlap", nb ? sum / nb : 0);
    cJSON_AddNumberToObject(root, "geomean_speedup_full_overlap", nb ? exp(logsum / nb) : 0);
    cJSON_AddNumberToObject(root, "best_speedup_full_overlap", best);
    cJSON_AddStringToObject(root, "best_benchmark", best_name);
    cJSON *mn = cJSON_CreateObject();
    for (int v = 0; v < FE_VARIANTS; v++) cJSON_AddNumberToObject(mn, fe_variant_names[v], nb ? sum_n[v] / nb : 0);
    cJSON_AddItemToObject(root, "mean_normalized", mn);
    cJSON *paper = cJSON_CreateObject();
    cJSON_AddNumberToObject(paper, "mean_speedup_full_overlap", 1.26);
    cJSON_AddNumberToObject(paper, "best_speedup_full_overlap", 1.43);
    cJSON_AddItemToObject(root, "paper", paper);
    return root;
}

static void print_report(const cJSON *root) {
    printf("\nF/E Fig. 11: runtime normalized to the baseline (lower is better); F/E queues: %s\n\n",
           cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "blocks"), "fe_sched_queues")));
    printf("  %-13s %8s %12s | %8s %8s %8s %8s | %s\n", "benchmark", "size", "baseline us", "baseline", "ov-start",
           "ov-finish", "full", "full speedup");
    const cJSON *b;
    cJSON_ArrayForEach(b, cJSON_GetObjectItem(root, "benchmarks")) {
        const cJSON *n = cJSON_GetObjectItem(b, "normalized");
        printf("  %-13s %8.0f %12.1f |", b->string, fg_json_num(b, "size"), fg_json_num(b, "runtime_ns.baseline") / 1e3);
        for (int v = 0; v < FE_VARIANTS; v++) {
            const cJSON *x = cJSON_GetObjectItem(n, fe_variant_names[v]);
            if (x) printf(" %8.3f", x->valuedouble);
            else printf(" %8s", "-");
        }
        const cJSON *s = cJSON_GetObjectItem(cJSON_GetObjectItem(b, "speedup"), "full_overlap");
        if (s) printf(" | %.2fx\n", s->valuedouble);
        else printf(" | -\n");
    }
    if (!fg_json_num(root, "n_benchmarks")) {
        printf("\n  full-overlap speedup: no benchmark ran in all four variants\n");
        return;
    }
    printf("  %-13s %8s %12s |", "mean", "", "");
    for (int v = 0; v < FE_VARIANTS; v++) printf(" %8.3f", fg_json_num(cJSON_GetObjectItem(root, "mean_normalized"), fe_variant_names[v]));
    printf("\n\n  full-overlap speedup: mean %.2fx (geometric %.2fx), best %.2fx (%s); paper: mean 1.26x, best 1.43x\n",
           fg_json_num(root, "mean_speedup_full_overlap"), fg_json_num(root, "geomean_speedup_full_overlap"),
           fg_json_num(root, "best_speedup_full_overlap"), cJSON_GetStringValue(cJSON_GetObjectItem(root, "best_benchmark")));
}

int main(int argc, char **argv) {
    fe_cli cli;
    const char *bench = "all", *variant = "all";
    bool small = false;
    unsigned size = 0;
    char err[512];
    fe_cli_init(&cli);
    const fg_opt opts[] = {
        FG_OPT_GROUP(cli.opts),
        FG_OPT_STR("--bench", &bench, "NAME|all", "one benchmark (F/E Table 3), or all (default)"),
        FG_OPT_STR("--variant", &variant, "NAME|all", "one overlap variant, or all (default)"),
        FG_OPT_UINT("--size", &size, 1, 1u << 22, "N", "elements (default: the benchmark's own)"),
        FG_OPT_FLAG("--small", &small, "each benchmark's small size"),
        FG_OPT_END};
    fg_cli_parse(&(fg_cli){"fe_fig11", "[options]\n--merge LIST --out FILE", NULL, opts, NULL}, argc, argv);
    const char *merge_list = cli.e.merge;
    if (merge_list) {
        if (!cli.e.out) {
            fprintf(stderr, "fe_fig11: --merge needs --out\n");
            return 2;
        }
        cJSON *files = fg_json_read_list(merge_list, err, sizeof err);
        if (!files) { fprintf(stderr, "fe_fig11: %s\n", err); return 2; }
        cJSON *pts = cJSON_CreateArray(), *f; /* a file is one run or {"points": [runs]} */
        cJSON_ArrayForEach(f, files) {
            const cJSON *arr = cJSON_GetObjectItem(f, "points"), *p;
            if (!arr) cJSON_AddItemToArray(pts, cJSON_Duplicate(f, 1));
            cJSON_ArrayForEach(p, arr) cJSON_AddItemToArray(pts, cJSON_Duplicate(p, 1));
        }
        cJSON_Delete(files);
        cJSON *root = merge(pts);
        cJSON_Delete(pts);
        int rc = fg_json_write(root, cli.e.out, err, sizeof err);
        if (rc) fprintf(stderr, "fe_fig11: %s\n", err);
        else print_report(root);
        cJSON_Delete(root);
        return rc ? 2 : 0;
    }
    fe_machine m;
    if (fe_machine_load(&cli, &m, err, sizeof err)) { fprintf(stderr, "fe_fig11: %s\n", err); return 2; }
    int b0 = 0, b1 = FE_BENCHES, v0 = 0, v1 = FE_VARIANTS;
    if (strcmp(bench, "all")) {
        if ((b0 = fe_bench_find(bench)) < 0) { fprintf(stderr, "fe_fig11: unknown benchmark %s\n", bench); return 2; }
        b1 = b0 + 1;
    }
    if (strcmp(variant, "all")) {
        for (v0 = 0; v0 < FE_VARIANTS && strcmp(variant, fe_variant_names[v0]); v0++) {}
        if (v0 == FE_VARIANTS) { fprintf(stderr, "fe_fig11: unknown variant %s\n", variant); return 2; }
        v1 = v0 + 1;
    }
    if (cli.e.check) {
        printf("fe_fig11: configuration ok\n");
        return 0;
    }
    cJSON *pts = cJSON_CreateArray();
    int rc = 0;
    for (int b = b0; b < b1 && !rc; b++)
        for (int v = v0; v < v1 && !rc; v++) {
            fe_bench_opts o = {m.kdir, m.seed, size ? size : small ? fe_bench_small_size(b) : 0};
            fe_bench_result r;
            if (fe_bench_run(&m.gpu, &m.host, b, (fe_variant)v, &o, &r, err, sizeof err)) {
                fprintf(stderr, "fe_fig11: %s %s: %s\n", fe_bench_names[b], fe_variant_names[v], err);
                rc = 1;
                break;
            }
            cJSON *p = fe_result_json(&m, fe_bench_names[b], fe_variant_names[v], &r);
            fe_bench_result_free(&r);
            if (!cli.e.point)
                fprintf(stderr, "  %-12s %-14s %10.1f us  (%s)\n", fe_bench_names[b], fe_variant_names[v],
                        fg_json_num(p, "runtime_ns") / 1e3, cJSON_GetStringValue(cJSON_GetObjectItem(p, "describe")));
            cJSON_AddItemToArray(pts, p);
        }
    if (!rc && cli.e.point) { /* one run, or {"points": [the runs]} */
        cJSON *one = cJSON_GetArraySize(pts) == 1 ? cJSON_DetachItemFromArray(pts, 0) : cJSON_CreateObject();
        if (cJSON_GetArraySize(pts)) {
            cJSON_AddItemToObject(one, "points", pts);
            pts = NULL;
        }
        if (!cli.e.out || fg_json_write(one, cli.e.out, err, sizeof err)) {
            fprintf(stderr, "fe_fig11: %s\n", cli.e.out ? err : "--point needs --out");
            rc = 2;
        }
        cJSON_Delete(one);
    } else if (!rc) {
        cJSON *root = merge(pts);
        if (cli.e.out && fg_json_write(root, cli.e.out, err, sizeof err)) {
            fprintf(stderr, "fe_fig11: %s\n", err);
            rc = 2;
        } else {
            print_report(root);
        }
        cJSON_Delete(root);
    }
    cJSON_Delete(pts);
    if (fg_wave_finish() && !rc) rc = 1;
    return rc;
}
