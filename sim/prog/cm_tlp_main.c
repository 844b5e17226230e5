/* cm_tlp: the static-TLP sweep that classifies a GPU application (CM Sec. 5,
 * Table II's "Opt. TLP"): the application runs once to completion on the CM
 * machine's GPU (configs/cm.ini; no CPU cores run, as the application's own
 * property is measured) with every SIMT core's active-warp limit fixed at
 * each of the given values (gpu_set_active_warp_limit before the kernel
 * starts; 48 = the baseline's 48 warps), and its result is checked against
 * the host reference.  Prints per limit the cycles, IPC (warp instructions
 * per GPU cycle, all cores), IPC relative to the 48-warp run, the L1 hit rate
 * and the most warps a core held; then the optimal limit (the highest IPC).
 * --window N measures IPC over the run's first N GPU cycles instead (a run
 * that has not finished by then is stopped and not checked; low limits make
 * runs many times longer, and the IPC of the first N cycles classifies as
 * well when N spans several launches' worth of the run).
 * docs/CM_APPS.md shows the table it printed for every application.
 *
 *   cm_tlp [--config configs/cm.ini] [--size paper|test] [--limits 1,2,4,6,8,16,24,48]
 *          [--seed N] [--max-cycles N] [--window N] [--out F.json] APP...
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm/cm_sys.h"
#include "fg_cli.h"
#include "fg_json.h"
#include "fg_util.h"
#include "simt/gpu_internal.h"

#define MAX_LIMITS 16

typedef struct {
    uint64_t cycles, warp_instrs, l1_hits, l1_misses;
    unsigned peak_warps;
    double wall;
    bool ok, finished;
    char err[400], desc[200];
} point;

/* --limits L: at most MAX_LIMITS warp counts in 1..64, comma-separated */
typedef struct {
    unsigned v[MAX_LIMITS], n;
} limits_t;

static int parse_limits(void *ctx, const char *name, const char *v, char *err, size_t errlen) {
    limits_t *l = ctx;
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", v);
    l->n = 0;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        uint64_t x;
        if (l->n == MAX_LIMITS || fg_num_u64(name, t, 1, 64, &x, err, errlen)) {
            snprintf(err, errlen, "%s %s: at most %d warp counts in 1..64, comma-separated", name, v, MAX_LIMITS);
            return -1;
        }
        l->v[l->n++] = (unsigned)x;
    }
    if (l->n) return 0;
    snprintf(err, errlen, "%s: no warp counts", name);
    return -1;
}

static void run_one(const cm_config *c, const char *app, const char *size, const char *kdir, uint64_t seed,
                    unsigned limit, uint64_t max_cycles, uint64_t window, point *p) {
    memset(p, 0, sizeof *p);
    const cm_gpu_work w = {app, size, kdir};
    cm_sys *s = cm_new(c, NULL, &w, seed, p->err, sizeof p->err);
    if (!s) return;
    gpu_t *g = cm_gpu(s);
    snprintf(p->desc, sizeof p->desc, "%s", cm_gpu_describe(s));
    for (unsigned i = 0; i < c->gpu.num_cores; i++) gpu_set_active_warp_limit(g, i, limit);
    const double t0 = fg_now(FG_CLOCK_WALL);
    cm_gpu_on(s, true);
    cm_gpu_on(s, false); /* this run finishes, none follows */
    gpu_stats a, b;
    gpu_get_stats(g, &a);
    const uint64_t c0 = cm_cycle(s);
    while (!cm_gpu_runs(s) && !cm_error(s) && cm_cycle(s) - c0 < max_cycles && !(window && cm_cycle(s) - c0 >= window)) {
        cm_tick(s);
        if ((cm_cycle(s) & 255) == 0)
            for (unsigned i = 0; i < c->gpu.num_cores; i++)
                if (g->core[i].used_warps > p->peak_warps) p->peak_warps = g->core[i].used_warps;
    }
    gpu_get_stats(g, &b);
    p->wall = fg_now(FG_CLOCK_WALL) - t0;
    if (cm_error(s)) snprintf(p->err, sizeof p->err, "%s", cm_error(s));
    else if (!cm_gpu_runs(s) && window && cm_cycle(s) - c0 >= window) {
        p->ok = true;
        p->cycles = cm_cycle(s) - c0;
        p->warp_instrs = b.warp_instrs - a.warp_instrs;
        p->l1_hits = b.l1_hits - a.l1_hits;
        p->l1_misses = b.l1_misses - a.l1_misses;
    } else if (!cm_gpu_runs(s))
        snprintf(p->err, sizeof p->err, "not finished after %" PRIu64 " GPU cycles (limit %u: deadlock or too slow)",
                 max_cycles, limit);
    else {
        p->ok = p->finished = true;
        p->cycles = bg_cycles(cm_gpu_run(s));
        p->warp_instrs = b.warp_instrs - a.warp_instrs;
        p->l1_hits = b.l1_hits - a.l1_hits;
        p->l1_misses = b.l1_misses - a.l1_misses;
    }
    cm_free(s);
}

int main(int argc, char **argv) {
    const char *config = "configs/cm.ini", *size = "paper", *out = NULL;
    uint64_t seed = 1, max_cycles = 40000000, window = 0;
    limits_t lim = {{1, 2, 4, 6, 8, 16, 24, 48}, 8};
    fg_cli_list apps = {0};
    const fg_opt opts[] = {
        FG_OPT_STR("--config", &config, "FILE", "the machine (default configs/cm.ini)"),
        FG_OPT_CHOICE("--size", &size, "paper|test", "the applications' input size (default paper)"),
        FG_OPT_CALL("--limits", parse_limits, &lim, "L,L,...", "active-warp limits, 1..64 (default 1,2,4,6,8,16,24,48)"),
        FG_OPT_U64("--seed", &seed, 0, UINT64_MAX, "N", "the inputs' seed (default 1)"),
        FG_OPT_U64("--max-cycles", &max_cycles, 1, UINT64_MAX, "N", "give up a run after N GPU cycles (default 40000000)"),
        FG_OPT_U64("--window", &window, 1, UINT64_MAX, "N", "IPC over the first N GPU cycles (default: the whole run)"),
        FG_OPT_STR("--out", &out, "F.json", "the result (default: none written)"),
        FG_OPT_END};
    fg_cli_parse(&(fg_cli){"cm_tlp", "[options] APP...", NULL, opts, &apps}, argc, argv);
    for (int k = 0; k < apps.n; k++)
        if (!bg_kernel_known(apps.v[k])) {
            fprintf(stderr, "cm_tlp: unknown application '%s' (apps:", apps.v[k]);
            for (unsigned j = 0; bg_kernel_name(j); j++) fprintf(stderr, " %s", bg_kernel_name(j));
            fprintf(stderr, ")\n");
            return 2;
        }
    if (!apps.n) {
        fprintf(stderr, "cm_tlp: no application given\n");
        return 2;
    }
    const unsigned na = (unsigned)apps.n, nl = lim.n, *limits = lim.v;
    char err[700], kdir[600];
    if (fg_kernel_path(kdir, sizeof kdir, NULL, err, sizeof err)) {
        fprintf(stderr, "cm_tlp: %s\n", err);
        return 2;
    }
    cm_config c;
    cm_config_default(&c);
    fg_config *cf = fg_config_new();
    if (fg_config_load(cf, config, err, sizeof err) || cm_config_load(&c, cf, err, sizeof err)) {
        fprintf(stderr, "cm_tlp: %s\n", err);
        return 2;
    }
    fg_config_free(cf);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "config", config);
    cJSON_AddStringToObject(root, "size", size);
    cJSON_AddNumberToObject(root, "window", (double)window);
    cJSON *japps = cJSON_AddObjectToObject(root, "apps");
    int rc = 0;
    for (unsigned ai = 0; ai < na; ai++) {
        point p[MAX_LIMITS];
        double best = 0, base = 0;
        unsigned best_l = 0;
        printf("%s (%s size)\n", apps.v[ai], size);
        for (unsigned li = 0; li < nl; li++) {
            run_one(&c, apps.v[ai], size, kdir, seed, limits[li], max_cycles, window, &p[li]);
            if (li == 0) printf("  %s\n  limit     cycles   IPC  L1 hit  peak warps  wall s  run\n", p[0].desc);
            if (!p[li].ok) {
                printf("  %5u  %s\n", limits[li], p[li].err);
                fflush(stdout);
                rc = 1;
                continue;
            }
            const double ipc = (double)p[li].warp_instrs / (double)p[li].cycles;
            if (ipc > best) best = ipc, best_l = limits[li];
            if (limits[li] == 48) base = ipc;
            const uint64_t acc = p[li].l1_hits + p[li].l1_misses;
            printf("  %5u %10" PRIu64 " %5.2f  %5.1f%%  %10u  %6.1f  %s\n", limits[li], p[li].cycles, ipc,
                   acc ? 100.0 * (double)p[li].l1_hits / (double)acc : 0.0, p[li].peak_warps, p[li].wall,
                   p[li].finished ? "finished, checked" : "window");
            fflush(stdout);
        }
        cJSON *ja = cJSON_AddObjectToObject(japps, apps.v[ai]);
        cJSON_AddStringToObject(ja, "describe", p[0].desc);
        cJSON *jl = cJSON_AddArrayToObject(ja, "points");
        for (unsigned li = 0; li < nl; li++) {
            if (!p[li].ok) continue;
            const double ipc = (double)p[li].warp_instrs / (double)p[li].cycles;
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "limit", limits[li]);
            cJSON_AddNumberToObject(o, "cycles", (double)p[li].cycles);
            cJSON_AddNumberToObject(o, "ipc", ipc);
            if (base > 0) cJSON_AddNumberToObject(o, "ipc_rel_48", ipc / base);
            cJSON_AddNumberToObject(o, "l1_hits", (double)p[li].l1_hits);
            cJSON_AddNumberToObject(o, "l1_misses", (double)p[li].l1_misses);
            cJSON_AddNumberToObject(o, "peak_warps", p[li].peak_warps);
            cJSON_AddBoolToObject(o, "finished", p[li].finished);
            cJSON_AddItemToArray(jl, o);
        }
        cJSON_AddNumberToObject(ja, "optimal_limit", best_l);
        printf("  relative to 48 warps:");
        for (unsigned li = 0; li < nl; li++)
            if (p[li].ok && base > 0) printf(" %u:%.2f", limits[li], (double)p[li].warp_instrs / (double)p[li].cycles / base);
        printf("\n  optimal TLP: %u warps (IPC %.2f)\n", best_l, best);
        fflush(stdout);
    }
    if (out) {
        char *txt = cJSON_Print(root);
        FILE *f = fopen(out, "w");
        if (!f || !txt || fputs(txt, f) < 0) {
            fprintf(stderr, "cm_tlp: cannot write %s\n", out);
            rc = 1;
        }
        if (f) fclose(f);
        free(txt);
    }
    cJSON_Delete(root);
    fg_cli_list_free(&apps);
    return rc;
}
