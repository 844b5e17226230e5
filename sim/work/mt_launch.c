/* mt_launch: see mt_launch.h. */
#include "work/mt_launch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_json.h"
#include "work/exp_cli.h"
#include "work/mt_prog.h"
#include "work/mt_stats.h"

bool mt_launch_points(const cJSON *points) {
    const cJSON *p;
    cJSON_ArrayForEach(p, points) if (cJSON_GetObjectItemCaseSensitive(p, "timeline")) return true;
    return false;
}

enum { P_FIRST, P_SLOT, P_TO_START, P_EXEC, P_NOTIFY, P_DMA, P_LAUNCH, P_OVERLAP, P_N };
static const char *const PART[P_N] = {"first_byte", "slot_wait", "to_start", "exec",
                                      "notify",     "dma",       "launch_after_dma", "exec_during_dma"};

/* One point's path cell: its name, e2e summary (ns) and mean parts (ns). */
static cJSON *cell(const cJSON *p, const char *prog, char *path, size_t plen, double *e2e_mean, double *e2e_p99) {
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(p, "timeline");
    snprintf(path, plen, "%s/%s", mt_jstr(t, "launch"), mt_jstr(t, "ring"));
    const double ns = fg_json_num(t, "ns_per_cycle"), fb = fg_json_num(t, "first_byte");
    static const char *const K[6] = {"waited", "acked", "launched", "start", "done", "told"};
    double *a[6];
    size_t n = 0, m;
    for (unsigned k = 0; k < 6; k++) {
        a[k] = mt_jarray(t, K[k], &m);
        if (k && m != n) {
            fprintf(stderr, "%s: point %s/%s/%s: timeline arrays of unequal length\n", prog, mt_jstr(p, "event"),
                    mt_jstr(p, "background"), mt_jstr(p, "rate"));
            for (unsigned j = 0; j <= k; j++) free(a[j]);
            return NULL;
        }
        n = m;
    }
    double *e2e = malloc((n ? n : 1) * sizeof *e2e), part[P_N] = {0};
    for (size_t i = 0; i < n; i++) {
        const double w = a[0][i], ack = a[1][i], la = a[2][i], st = a[3][i], dn = a[4][i], tl = a[5][i];
        e2e[i] = (fb + w + tl) * ns;
        const double v[P_N] = {fb,  w, st, dn - st, tl - dn, ack, la > ack ? la - ack : 0,
                               ack > st ? (ack < dn ? ack : dn) - st : 0};
        for (unsigned j = 0; j < P_N; j++) part[j] += v[j] * ns / (double)n;
    }
    mt_summary s = mt_summarize(e2e, n);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "events", (double)n);
    cJSON_AddNumberToObject(o, "e2e_mean_ns", s.avg);
    cJSON_AddNumberToObject(o, "e2e_p99_ns", s.p99);
    cJSON *po = cJSON_AddObjectToObject(o, "parts_ns");
    for (unsigned j = 0; j < P_N; j++) cJSON_AddNumberToObject(po, PART[j], part[j]);
    cJSON_AddNumberToObject(o, "offered", fg_json_num(p, "offered"));
    cJSON_AddNumberToObject(o, "dropped", fg_json_num(p, "dropped"));
    cJSON_AddNumberToObject(o, "regs_event", fg_json_num(p, "regs_event"));
    *e2e_mean = s.avg, *e2e_p99 = s.p99;
    free(e2e);
    for (unsigned k = 0; k < 6; k++) free(a[k]);
    return o;
}

#define MAXPATH 8

int mt_launch_report(const cJSON *points, const char *out, const char *prog) {
    cJSON *root = cJSON_CreateObject(), *cells = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "experiment", "launch paths: end-to-end request latency beside EDGE Fig. 13's "
                                                "backgrounds (host launch, doorbell after the DMA, early + F/E ring)");
    cJSON_AddStringToObject(root, "size", mt_jstr(cJSON_GetArrayItem(points, 0), "size"));
    cJSON_AddItemToObject(root, "blocks", mt_blocks(points));
    cJSON_AddStringToObject(root, "definitions",
                            "e2e: first byte at the device -> the device told of the completion, ns; parts (means, "
                            "ns): first_byte + slot_wait + to_start (DMA start at the GPU -> START) + exec + notify "
                            "= e2e; dma, launch_after_dma and exec_during_dma (START -> DMA acknowledged) beside "
                            "them; average: over the cells of each path");
    char paths[MAXPATH][64];
    unsigned np = 0;
    double sum[MAXPATH][2] = {{0}};
    unsigned cnt[MAXPATH] = {0};
    int bad = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, points) {
        if (!cJSON_GetObjectItemCaseSensitive(p, "timeline")) {
            fprintf(stderr, "%s: point %s/%s/%s has no timeline: run every point of a launch-path sweep with "
                            "[edge_fig13] timeline = true\n",
                    prog, mt_jstr(p, "event"), mt_jstr(p, "background"), mt_jstr(p, "rate"));
            bad = 1;
            break;
        }
        char path[64], key[96];
        double mean, p99;
        cJSON *c = cell(p, prog, path, sizeof path, &mean, &p99);
        if (!c) {
            bad = 1;
            break;
        }
        unsigned k = 0;
        while (k < np && strcmp(paths[k], path)) k++;
        if (k == np) {
            if (np == MAXPATH) {
                fprintf(stderr, "%s: more than %u launch paths\n", prog, MAXPATH);
                cJSON_Delete(c);
                bad = 1;
                break;
            }
            snprintf(paths[np++], sizeof paths[0], "%s", path);
        }
        snprintf(key, sizeof key, "%s/%s", mt_jstr(p, "event"), mt_jstr(p, "background"));
        cJSON *pair = cJSON_GetObjectItemCaseSensitive(cells, key);
        if (!pair) pair = cJSON_AddObjectToObject(cells, key);
        cJSON *row = cJSON_GetObjectItemCaseSensitive(pair, mt_jstr(p, "rate"));
        if (!row) row = cJSON_AddObjectToObject(pair, mt_jstr(p, "rate"));
        if (cJSON_GetObjectItemCaseSensitive(row, path)) {
            fprintf(stderr, "%s: two points for %s %s %s\n", prog, key, mt_jstr(p, "rate"), path);
            cJSON_Delete(c);
            bad = 1;
            break;
        }
        cJSON_AddItemToObject(row, path, c);
        sum[k][0] += mean, sum[k][1] += p99, cnt[k]++;
    }
    if (!bad) {
        cJSON *avg = cJSON_AddObjectToObject(root, "average");
        printf("launch paths, end-to-end request latency (ns): mean / p99\n  %-22s", "");
        for (unsigned k = 0; k < np; k++) printf(" %20s", paths[k]);
        printf("\n");
        const cJSON *pair, *row;
        cJSON_ArrayForEach(pair, cells) cJSON_ArrayForEach(row, pair) {
            printf("  %-14s %-7s", pair->string, row->string);
            for (unsigned k = 0; k < np; k++) {
                const cJSON *c = cJSON_GetObjectItemCaseSensitive(row, paths[k]);
                if (c) printf(" %9.0f / %8.0f", fg_json_num(c, "e2e_mean_ns"), fg_json_num(c, "e2e_p99_ns"));
                else printf(" %20s", "-");
            }
            printf("\n");
        }
        printf("  %-22s", "average");
        for (unsigned k = 0; k < np; k++) {
            cJSON *o = cJSON_AddObjectToObject(avg, paths[k]);
            cJSON_AddNumberToObject(o, "e2e_mean_ns", sum[k][0] / cnt[k]);
            cJSON_AddNumberToObject(o, "e2e_p99_ns", sum[k][1] / cnt[k]);
            cJSON_AddNumberToObject(o, "cells", cnt[k]);
            printf(" %9.0f / %8.0f", sum[k][0] / cnt[k], sum[k][1] / cnt[k]);
        }
        printf("\n");
        cJSON_AddItemToObject(root, "cells", cells);
        cells = NULL;
        bad = exp_write_result(root, out, prog);
    }
    cJSON_Delete(cells);
    cJSON_Delete(root);
    return bad;
}
