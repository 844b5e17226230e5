/* cpu_char: the CPU core and its synthetic streams on their own, over a
 * fixed-latency memory (docs/CPU_MODEL.md), into results/cpu_char.json
 * (scripts/cm_figures.py draws results/cpu_mpki.png and
 * results/cpu_ipc_latency.png):
 *   - every CM Table III application alone: measured L2 MPKI beside the
 *     table's, and IPC, after a 500k-instruction warm-up;
 *   - IPC against the memory latency M for a stream of independent misses
 *     every 8 instructions (with its bound, test_cpu) and for applications
 *     of each MPKI class.
 *
 *   cpu_char [--out results/cpu_char.json] [--lat M]   (M for the MPKI runs, 300) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_core.h"
#include "cpu/cpu_gen.h"
#include "fg_cli.h"
#include "fg_json.h"
#include "fg_util.h"

typedef struct {
    uint64_t i;
} miss8;

static void miss8_next(void *ctx, cpu_inst *o) {
    miss8 *p = ctx;
    memset(o, 0, sizeof *o);
    o->cls = p->i % 8 ? CPU_ALU : CPU_LOAD;
    o->addr = (1ull << 30) + p->i / 8 * 128;
    p->i++;
}

/* IPC over n instructions after `warm`; MPKI through *mpki when not NULL. */
static double measure(const cpu_config *c, cpu_source src, void *ctx, unsigned lat, uint64_t warm,
                      uint64_t n, double *mpki) {
    char err[200];
    cpu_core *k = cpu_core_new(c, src, ctx, err, sizeof err);
    if (!k) {
        fprintf(stderr, "cpu_char: %s\n", err);
        exit(1);
    }
    static cpu_fixmem fm;
    cpu_fixmem_init(&fm, lat);
    cpu_fixmem_run(k, &fm, warm, UINT64_MAX);
    cpu_core_reset_stats(k);
    cpu_fixmem_run(k, &fm, n, UINT64_MAX);
    cpu_stats s;
    cpu_core_stats(k, &s);
    if (mpki) *mpki = 1000.0 * (double)s.l2_misses / (double)s.retired;
    cpu_core_free(k);
    return (double)s.retired / (double)s.cycles;
}

int main(int argc, char **argv) {
    const char *out = "results/cpu_char.json";
    unsigned lat = 300;
    const fg_opt opts[] = {FG_OPT_STR("--out", &out, "FILE", "the result (default results/cpu_char.json)"),
                           FG_OPT_UINT("--lat", &lat, 1, 100000, "M", "memory latency of the MPKI runs, cycles (default 300)"),
                           FG_OPT_END};
    fg_cli_parse(&(fg_cli){"cpu_char", NULL, NULL, opts, NULL}, argc, argv);
    cpu_config c;
    cpu_config_default(&c);
    cpu_gen_params gp;
    cpu_gen_params_default(&gp);
    cJSON *root = cJSON_CreateObject();
    fg_json_add_blocks(root, NULL, 0); /* C models only: no RTL block runs here */
    cJSON_AddNumberToObject(root, "mpki_latency", lat);
    cJSON *apps = cJSON_AddArrayToObject(root, "apps");
    printf("%-10s %4s %8s %9s %6s\n", "app", "type", "table", "measured", "IPC");
    for (unsigned a = 0; a < cpu_n_apps; a++) {
        const cpu_app *app = &cpu_apps[a];
        cpu_gen g;
        cpu_gen_init(&g, app, &gp, 1ull << 30, 1000 + a);
        uint64_t n = (uint64_t)(2000 / (app->mpki / 1000));
        double mpki, ipc = measure(&c, cpu_gen_source, &g, lat, 500000, n < 1000000 ? 1000000 : n, &mpki);
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", app->name);
        cJSON_AddStringToObject(e, "type", (char[]){app->type, 0});
        cJSON_AddNumberToObject(e, "table_mpki", app->mpki);
        cJSON_AddNumberToObject(e, "mpki", mpki);
        cJSON_AddNumberToObject(e, "ipc", ipc);
        cJSON_AddNumberToObject(e, "warm_kb", (double)(g.warm_lines * gp.line_bytes >> 10));
        cJSON_AddItemToArray(apps, e);
        printf("%-10s %4c %8.1f %9.2f %6.2f\n", app->name, app->type, app->mpki, mpki, ipc);
    }
    static const unsigned LAT[] = {1, 50, 100, 200, 300, 400, 600, 800};
    static const char *CURVES[] = {"miss every 8", "gcc", "libquantum", "milc", "omnetpp", "mcf", "soplex"};
    cJSON *curves = cJSON_AddArrayToObject(root, "ipc_vs_latency");
    for (unsigned k = 0; k < sizeof CURVES / sizeof CURVES[0]; k++) {
        cJSON *cv = cJSON_CreateObject(), *pts = cJSON_AddArrayToObject(cv, "points");
        cJSON_AddStringToObject(cv, "name", CURVES[k]);
        printf("IPC vs latency, %s:", CURVES[k]);
        for (unsigned li = 0; li < sizeof LAT / sizeof LAT[0]; li++) {
            double ipc;
            if (!k) {
                miss8 p = {0};
                ipc = measure(&c, miss8_next, &p, LAT[li], 20000, 200000, NULL);
            } else {
                cpu_gen g;
                cpu_gen_init(&g, cpu_app_find(CURVES[k]), &gp, 1ull << 30, 7);
                ipc = measure(&c, cpu_gen_source, &g, LAT[li], 500000, 500000, NULL);
            }
            cJSON *e = cJSON_CreateObject();
            cJSON_AddNumberToObject(e, "latency", LAT[li]);
            cJSON_AddNumberToObject(e, "ipc", ipc);
            if (!k) { /* test_cpu's bound: min(width, W / (1 + l1 + l2 + M)) with MSHRs enough */
                double b = (double)c.window / (1 + c.l1_latency + c.l2_latency + LAT[li]);
                double bm = 8.0 * c.mshrs / LAT[li];
                b = b < bm ? b : bm;
                cJSON_AddNumberToObject(e, "bound", b < c.width ? b : c.width);
            }
            cJSON_AddItemToArray(pts, e);
            printf(" %u:%.3f", LAT[li], ipc);
        }
        printf("\n");
        cJSON_AddItemToArray(curves, cv);
    }
    char err[300];
    if (fg_json_write(root, out, err, sizeof err)) {
        fprintf(stderr, "cpu_char: %s\n", err);
        return 1;
    }
    cJSON_Delete(root);
    printf("wrote %s\n", out);
    return 0;
}
