/* edge_fig13: EDGE Fig. 13 (Sec. VI-D), event and background slowdown with
 * draining (D), reservation (R: half the SIMT cores for events, half for the
 * background) and preemption (P), at a low and a high event rate, and the
 * ANTT.
 *
 * One point = one event kind beside one background kernel in one mode at
 * one rate, or one of them alone (rate = alone): events are offered every
 * gap cycles (per kind and rate; uniform +-50 %, seeded: the same offers in
 * D, R and P) and sent
 * while fewer than the rate's limit are in flight (low: 2; high: 32 IPv4 /
 * IPv6, 16 MemC / IPSec, as EDGE VI-D), for as long as the background runs;
 * every event executes and its results are checked.  Event runtime = launch
 * at the SIMT core scheduler -> complete (scheduling time included).
 * --merge: slowdown = shared / alone (events: mean runtime over the run's
 * events / mean alone; background: its cycles / alone), per pair and
 * averaged over the pairs; ANTT (Eyerman & Eeckhout, EDGE [14]) = the mean
 * over every event and the background of T_shared / T_alone.
 * Usage: sim/work/mt_prog.h; rates and sizes: configs/edge_fig13.ini; the
 * sweep: experiments/edge_fig13.ini; docs/RESULTS.md.
 *
 * With a [cmbal] scheme (sim/cm/cm_bal_loop.h; baseline: the protection
 * alone), the CM-BAL loop runs beside the GPU, fed every cycle, and sets
 * each core's background warp limit (event warps are never held); its
 * points carry a "cmbal" object and --merge reports every mode x protection
 * variant the points ran (experiments/edge_protect*.ini, docs/CM_BAL.md
 * "Protecting events"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm/cm_bal_loop.h"
#include "fg_json.h"
#include "work/exp_cli.h"
#include "work/mt_launch.h"
#include "work/mt_prog.h"
#include "work/mt_stats.h"

#define MAXE 4
#define MAXB 9 /* EDGE V's nine background kernels (docs/BG_KERNELS.md) */
static const char *const EVS[MAXE] = {"ipv4", "ipv6", "memc", "ipsec"};
static const char *const BGS[MAXB] = {"conv", "mm", "bp", "bfs", "sc", "kmn", "srad", "lud", "conv2"};
/* D, R, P: EDGE Fig. 13; A (adaptive: [preempt] reserve_dynamic, EDGE VII's
 * future work) when the experiment runs it */
static const char *const MODES[4] = {"D", "R", "P", "A"};
static const char *const RATES[2] = {"low", "high"};

static int idx(const char *const *names, unsigned n, const char *s) {
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(names[i], s)) return (int)i;
    return -1;
}

/* [edge_fig13] rate and its limits -> the run's offers */
static int prepare(mt_params *x, gpu_config *gc, fg_config *cfg, cJSON *point, char *err, size_t errlen) {
    static const char *const RATE_NAMES[] = {"low", "high", "alone", NULL};
    unsigned rate = 1;
    uint64_t low_n = 2, high_ip = 32, high_n = 16, alone_n = 24;
    /* offer periods per event kind (low, high), the EDGE artifact's timer
     * periods: configs/edge_fig13.ini names the scripts */
    uint64_t gaps[MAXE][2] = {{1015, 150}, {1015, 150}, {12000, 1500}, {12000, 1500}};
    const char *s = "edge_fig13";
    if (fg_config_enum(cfg, s, "rate", RATE_NAMES, &rate, err, errlen) ||
        fg_config_u64(cfg, s, "low_inflight", 1, 32, &low_n, err, errlen) ||
        fg_config_u64(cfg, s, "high_inflight_ip", 1, 32, &high_ip, err, errlen) ||
        fg_config_u64(cfg, s, "high_inflight", 1, 32, &high_n, err, errlen) ||
        fg_config_u64(cfg, s, "alone_events", 1, 100000, &alone_n, err, errlen))
        return -1;
    for (unsigned e = 0; e < MAXE; e++)
        for (unsigned r = 0; r < 2; r++) {
            char key[32];
            snprintf(key, sizeof key, "%s_%s_gap", EVS[e], RATES[r]);
            if (fg_config_u64(cfg, s, key, 2, 100000000, &gaps[e][r], err, errlen)) return -1;
        }
    if (gc->pre.skip_exec) {
        snprintf(err, errlen, "EDGE Fig. 13 runs the events: [preempt] skip_exec must be 0");
        return -1;
    }
    bool ev_none = !strcmp(x->event, "none"), bg_none = !strcmp(x->bg, "none");
    if ((rate == 2) != (ev_none || bg_none)) {
        snprintf(err, errlen, "rate = alone is for an event kind or a background alone (the other none)");
        return -1;
    }
    if (rate == 2 && bg_none) { /* events in isolation, one at a time */
        x->max_inflight = 1;
        x->max_events = alone_n;
    } else if (rate < 2) {
        bool ip = !strcmp(x->event, "ipv4") || !strcmp(x->event, "ipv6");
        int e = idx(EVS, MAXE, x->event);
        if (e < 0) {
            snprintf(err, errlen, "[edge_fig13] event = '%s': not one of ipv4 ipv6 memc ipsec none", x->event);
            return -1;
        }
        uint64_t gap = gaps[e][rate];
        x->max_inflight = (unsigned)(rate ? (ip ? high_ip : high_n) : low_n);
        x->gap_min = gap / 2;
        x->gap_max = gap + gap / 2;
    }
    cJSON_AddStringToObject(point, "rate", RATE_NAMES[rate]);
    return 0;
}

typedef struct {
    bool have;
    double *rt;    /* event runtimes */
    size_t n;
    double bg, sched, dropped, offered;
    double ev_slow, bg_slow, antt;
    double evb[GPU_EVB_N]; /* an event's cycles from START to exit by class, mean over its events */
    unsigned regs_ev, regs_bg; /* registers per thread of the event and background kernels */
    double resv_mean, resv_max;  /* A: reserved cores over the run (point's reserve_dynamic); < 0: not A */
} cell;

/* point's event_breakdown (sums over its n events) -> means per event */
static void read_evb(const cJSON *p, size_t n, double out[GPU_EVB_N]) {
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(p, "event_breakdown");
    for (unsigned i = 0; i < GPU_EVB_N; i++) out[i] = o && n ? fg_json_num(o, gpu_evb_names[i]) / (double)n : 0;
}

/* The alone runs, what the slowdowns divide by: per event kind its mean
 * runtime and where a mean event's cycles go, per background its cycles */
typedef struct {
    double ev[MAXE], sched[MAXE], evb[MAXE][GPU_EVB_N];
    double bg[MAXB];
} alone_runs;

/* p into a when it is the alone run of an event kind or a background; false
 * when it is neither */
static bool read_alone(const cJSON *p, alone_runs *a) {
    const char *ev = mt_jstr(p, "event"), *bg = mt_jstr(p, "background");
    int e = idx(EVS, MAXE, ev), b = idx(BGS, MAXB, bg);
    if (strcmp(mt_jstr(p, "rate"), "alone")) return false;
    if (e >= 0 && !strcmp(bg, "none")) {
        size_t n, ns;
        double *rt = mt_jarray(p, "runtime", &n), *sl = mt_jarray(p, "sched", &ns);
        a->ev[e] = mt_mean(rt, n);
        read_evb(p, n, a->evb[e]);
        a->sched[e] = mt_mean(sl, ns);
        free(sl);
        free(rt);
    } else if (b >= 0 && !strcmp(ev, "none")) {
        a->bg[b] = fg_json_num(p, "bg_cycles");
    } else
        return false;
    return true;
}

/* {sched_wait, issue, memory, ...}: where a mean event's runtime goes */
static cJSON *evb_json(double sched, const double evb[GPU_EVB_N]) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "sched_wait", sched);
    for (unsigned i = 0; i < GPU_EVB_N; i++) cJSON_AddNumberToObject(o, gpu_evb_names[i], evb[i]);
    return o;
}

static cJSON *cell_json(const cell *k) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "event_slowdown", k->ev_slow);
    cJSON_AddNumberToObject(o, "bg_slowdown", k->bg_slow);
    cJSON_AddNumberToObject(o, "antt", k->antt);
    cJSON_AddNumberToObject(o, "events", (double)k->n);
    cJSON_AddNumberToObject(o, "offered", k->offered);
    cJSON_AddNumberToObject(o, "dropped", k->dropped);
    cJSON_AddNumberToObject(o, "avg_event_runtime", mt_mean(k->rt, k->n));
    if (k->resv_mean >= 0) {
        cJSON_AddNumberToObject(o, "reserved_cores_mean", k->resv_mean);
        cJSON_AddNumberToObject(o, "reserved_cores_max", k->resv_max);
    }
    cJSON_AddNumberToObject(o, "avg_sched_latency", k->sched);
    cJSON_AddNumberToObject(o, "bg_cycles", k->bg);
    cJSON_AddItemToObject(o, "event_breakdown", evb_json(k->sched, k->evb));
    return o;
}

/* ---- the protection's report: every mode x [cmbal] protect_events variant ---- */

#define MAXV 8 /* variants: modes x protections */

typedef struct {
    bool have;
    double ev_slow, ev_p99, bg_slow, antt, n, protect_cycles;
    double sched, evb[GPU_EVB_N]; /* a mean event's cycles: launch -> START, then START -> exit by class */
} vcell;

static int report_protect(const cJSON *points, const char *out, const char *prog) {
    char var[MAXV][24];
    unsigned nv = 0;
    alone_runs iso = {0};
    vcell(*c)[MAXB][2][MAXV] = calloc(MAXE, sizeof *c);
    if (!c) return 1;
    const char *scheme = NULL;
    const cJSON *p;
    int bad = 0;
    cJSON_ArrayForEach(p, points) read_alone(p, &iso); /* first: the slowdowns divide by them */
    cJSON_ArrayForEach(p, points) {
        const cJSON *cb = cJSON_GetObjectItemCaseSensitive(p, "cmbal");
        const char *ev = mt_jstr(p, "event"), *bg = mt_jstr(p, "background"), *rate = mt_jstr(p, "rate");
        if (!cb) {
            fprintf(stderr, "%s: point %s/%s/%s ran without [cmbal]: report the protection's points alone\n", prog, ev,
                    bg, rate);
            bad = 1;
            break;
        }
        if (!scheme) scheme = mt_jstr(cb, "scheme");
        if (strcmp(scheme, mt_jstr(cb, "scheme"))) {
            fprintf(stderr, "%s: points ran [cmbal] schemes %s and %s: report one at a time\n", prog, scheme,
                    mt_jstr(cb, "scheme"));
            bad = 1;
            break;
        }
        if (!strcmp(rate, "alone")) continue;
        int e = idx(EVS, MAXE, ev), b = idx(BGS, MAXB, bg), r = idx(RATES, 2, rate);
        char name[24];
        snprintf(name, sizeof name, "%s/%s", mt_jstr(p, "mode"), mt_jstr(cb, "protect_events"));
        unsigned v = 0;
        while (v < nv && strcmp(var[v], name)) v++;
        if (v == nv && nv < MAXV) snprintf(var[nv++], sizeof var[0], "%s", name);
        if (e < 0 || b < 0 || r < 0 || v >= MAXV || iso.ev[e] <= 0 || iso.bg[b] <= 0) {
            fprintf(stderr, "%s: point %s/%s/%s/%s: not a pair of the figure, more than %d variants, or no alone run "
                    "of its event or background\n", prog, ev, bg, rate, name, MAXV);
            bad = 1;
            break;
        }
        size_t n;
        double *rt = mt_jarray(p, "runtime", &n);
        const double bgc = fg_json_num(p, "bg_cycles");
        vcell *k = &c[e][b][r][v];
        k->have = true;
        k->n = (double)n;
        k->ev_slow = mt_slowdown(mt_mean(rt, n), iso.ev[e]);
        k->antt = mt_antt(rt, n, iso.ev[e], bgc, iso.bg[b]);
        k->ev_p99 = mt_slowdown(mt_percentile(rt, n, 99), iso.ev[e]); /* (sorts rt) */
        k->bg_slow = mt_slowdown(bgc, iso.bg[b]);
        k->protect_cycles = fg_json_num(cb, "protect_cycles");
        size_t ns;
        double *sl = mt_jarray(p, "sched", &ns);
        k->sched = mt_mean(sl, ns);
        read_evb(p, n, k->evb);
        free(sl);
        free(rt);
    }
    cJSON *root = cJSON_CreateObject(), *pairs = cJSON_CreateObject(), *avg = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "experiment", "EDGE Fig. 13 beside CM-BAL: the events protected from the "
                                                "background's interference (EDGE VI-D, VII; CM 4)");
    cJSON_AddStringToObject(root, "size", mt_jstr(cJSON_GetArrayItem(points, 0), "size"));
    cJSON_AddItemToObject(root, "blocks", mt_blocks(points));
    cJSON_AddStringToObject(root, "scheme", scheme ? scheme : "");
    cJSON_AddStringToObject(root, "definitions",
                            "variant: mode/protect_events; event slowdown: mean runtime / mean alone; event p99: "
                            "99th-percentile runtime / mean alone; background slowdown: cycles / alone; ANTT as "
                            "EDGE Fig. 13; averages: arithmetic mean over the pairs that ran every variant");
    cJSON *va = cJSON_AddArrayToObject(root, "variants");
    for (unsigned v = 0; v < nv; v++) cJSON_AddItemToArray(va, cJSON_CreateString(var[v]));
    printf("\nEDGE Fig. 13 beside CM-BAL (%s): event mean / event p99 / background / ANTT, against isolation\n",
           scheme ? scheme : "?");
    for (unsigned r = 0; r < 2 && !bad; r++) {
        double mean[MAXV][4] = {{0}}, mevb[MAXV][GPU_EVB_N + 1] = {{0}};
        unsigned np = 0;
        for (unsigned e = 0; e < MAXE; e++)
            for (unsigned b = 0; b < MAXB; b++) {
                vcell *k = c[e][b][r];
                unsigned have = 0;
                for (unsigned v = 0; v < nv; v++) have += k[v].have;
                if (!have) continue;
                char name[32];
                snprintf(name, sizeof name, "%s/%s", EVS[e], BGS[b]);
                if (have != nv) {
                    fprintf(stderr, "%s: %s %s rate: ran %u of the %u variants\n", prog, name, RATES[r], have, nv);
                    bad = 1;
                    continue;
                }
                if (np == 0) {
                    printf("\n%s rate          ", RATES[r]);
                    for (unsigned v = 0; v < nv; v++) printf("  %-27s", var[v]);
                    printf("\n");
                }
                cJSON *po = cJSON_GetObjectItemCaseSensitive(pairs, name);
                if (!po) po = cJSON_AddObjectToObject(pairs, name);
                cJSON *ro = cJSON_AddObjectToObject(po, RATES[r]);
                printf("  %-14s", name);
                for (unsigned v = 0; v < nv; v++) {
                    cJSON *o = cJSON_AddObjectToObject(ro, var[v]);
                    cJSON_AddNumberToObject(o, "event_slowdown", k[v].ev_slow);
                    cJSON_AddNumberToObject(o, "event_p99_slowdown", k[v].ev_p99);
                    cJSON_AddNumberToObject(o, "bg_slowdown", k[v].bg_slow);
                    cJSON_AddNumberToObject(o, "antt", k[v].antt);
                    cJSON_AddNumberToObject(o, "events", k[v].n);
                    cJSON_AddNumberToObject(o, "protect_cycles", k[v].protect_cycles);
                    cJSON_AddItemToObject(o, "event_breakdown", evb_json(k[v].sched, k[v].evb));
                    const double x[4] = {k[v].ev_slow, k[v].ev_p99, k[v].bg_slow, k[v].antt};
                    for (unsigned j = 0; j < 4; j++) mean[v][j] += x[j];
                    mevb[v][0] += k[v].sched;
                    for (unsigned j = 0; j < GPU_EVB_N; j++) mevb[v][j + 1] += k[v].evb[j];
                    printf("  %5.2f %6.2f %5.2f %6.2f  ", x[0], x[1], x[2], x[3]);
                }
                printf("\n");
                np++;
            }
        if (!np) continue;
        cJSON *ra = cJSON_AddObjectToObject(avg, RATES[r]);
        printf("  %-14s", "average");
        for (unsigned v = 0; v < nv; v++) {
            cJSON *o = cJSON_AddObjectToObject(ra, var[v]);
            static const char *const K[4] = {"event_slowdown", "event_p99_slowdown", "bg_slowdown", "antt"};
            for (unsigned j = 0; j < 4; j++) cJSON_AddNumberToObject(o, K[j], mean[v][j] / np);
            cJSON_AddNumberToObject(o, "pairs", np);
            for (unsigned j = 0; j <= GPU_EVB_N; j++) mevb[v][j] /= np;
            cJSON_AddItemToObject(o, "event_breakdown", evb_json(mevb[v][0], mevb[v] + 1));
            printf("  %5.2f %6.2f %5.2f %6.2f  ", mean[v][0] / np, mean[v][1] / np, mean[v][2] / np, mean[v][3] / np);
        }
        printf("\n\n  mean event runtime by class, cycles (mean over the pairs; sched_wait = launch -> START)\n  %-8s %10s",
               "", "sched_wait");
        for (unsigned j = 0; j < GPU_EVB_N; j++) printf(" %8s", gpu_evb_names[j]);
        printf("\n");
        for (unsigned v = 0; v < nv; v++) {
            printf("  %-8s %10.0f", var[v], mevb[v][0]);
            for (unsigned j = 0; j < GPU_EVB_N; j++) printf(" %8.0f", mevb[v][j + 1]);
            printf("\n");
        }
    }
    cJSON_AddItemToObject(root, "average", avg);
    cJSON_AddItemToObject(root, "pairs", pairs);
    if (!bad) bad = exp_write_result(root, out, prog);
    cJSON_Delete(root);
    free(c);
    return bad;
}

static int report(const cJSON *points, const char *out, const char *prog) {
    const cJSON *q;
    if (mt_launch_points(points)) return mt_launch_report(points, out, prog);
    cJSON_ArrayForEach(q, points) if (cJSON_GetObjectItemCaseSensitive(q, "cmbal")) return report_protect(points, out, prog);
    cell(*c)[MAXB][2][4] = calloc(MAXE, sizeof *c);
    alone_runs iso = {0};
    if (!c) return 1;
    const cJSON *p;
    cJSON_ArrayForEach(p, points) {
        if (read_alone(p, &iso)) continue;
        const char *ev = mt_jstr(p, "event"), *bg = mt_jstr(p, "background"), *rate = mt_jstr(p, "rate");
        int e = idx(EVS, MAXE, ev), b = idx(BGS, MAXB, bg), r = idx(RATES, 2, rate), m = idx(MODES, 4, mt_jstr(p, "mode"));
        if (e >= 0 && b >= 0 && r >= 0 && m >= 0) {
            cell *k = &c[e][b][r][m];
            size_t n, ns;
            double *rt = mt_jarray(p, "runtime", &n), *sl = mt_jarray(p, "sched", &ns);
            const cJSON *rv = cJSON_GetObjectItemCaseSensitive(p, "reserve_dynamic");
            *k = (cell){true, rt, n, fg_json_num(p, "bg_cycles"), mt_mean(sl, ns), fg_json_num(p, "dropped"),
                        fg_json_num(p, "offered"), 0, 0, 0, {0}, 0, 0,
                        rv ? fg_json_num(rv, "mean_cores") : -1, rv ? fg_json_num(rv, "max_cores") : -1};
            read_evb(p, n, k->evb);
            k->regs_ev = (unsigned)fg_json_num(p, "regs_event");
            k->regs_bg = (unsigned)fg_json_num(p, "regs_background");
            free(sl);
        } else {
            fprintf(stderr, "%s: point %s/%s/%s/%s is not part of EDGE Fig. 13\n", prog, ev, bg, rate,
                    mt_jstr(p, "mode"));
            free(c);
            return 1;
        }
    }
    const char *size = mt_jstr(cJSON_GetArrayItem(points, 0), "size");
    cJSON *root = cJSON_CreateObject(), *pairs = cJSON_CreateObject(), *avg = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "experiment", "EDGE Fig. 13: slowdowns with draining, reservation, preemption; ANTT");
    cJSON_AddStringToObject(root, "size", size);
    cJSON_AddItemToObject(root, "blocks", mt_blocks(points));
    cJSON_AddStringToObject(root, "definitions",
                            "event runtime: launch at the SIMT core scheduler -> complete (scheduling included); "
                            "slowdown: shared / alone (events: mean runtime / mean alone); ANTT: mean over the run's "
                            "events and its background of T_shared / T_alone (Eyerman & Eeckhout 2008); averages: "
                            "arithmetic mean over the pairs; ratios: of those averages");
    cJSON *al = cJSON_AddObjectToObject(root, "alone"), *ale = cJSON_AddObjectToObject(al, "event_runtime"),
          *alb = cJSON_AddObjectToObject(al, "bg_cycles");
    cJSON *alx = cJSON_AddObjectToObject(al, "event_breakdown");
    for (unsigned e = 0; e < MAXE; e++)
        if (iso.ev[e] > 0) {
            cJSON_AddNumberToObject(ale, EVS[e], iso.ev[e]);
            cJSON_AddItemToObject(alx, EVS[e], evb_json(iso.sched[e], iso.evb[e]));
        }
    for (unsigned b = 0; b < MAXB; b++)
        if (iso.bg[b] > 0) cJSON_AddNumberToObject(alb, BGS[b], iso.bg[b]);
    printf("\nEDGE Fig. 13: slowdown against isolation (event / background / ANTT), %s sizes; blocks: %s\n", size,
           mt_jstr(cJSON_GetObjectItemCaseSensitive(root, "blocks"), "edge_pewt"));
    unsigned nm = 3; /* modes: D R P, and A when any point ran it */
    cJSON_ArrayForEach(p, points) if (!strcmp(mt_jstr(p, "mode"), "A")) nm = 4;
    double mean[2][4][3] = {{{0}}}; /* rate, mode, (event, bg, antt) */
    double mevb[2][4][GPU_EVB_N + 1] = {{{0}}}; /* rate, mode, (sched wait, GPU_EVB_*): mean over the pairs */
    unsigned np[2] = {0};
    int bad = 0;
    for (unsigned r = 0; r < 2; r++) {
        printf("\n%s rate                 %-24s %-24s %-24s%s\n", RATES[r], "draining (D)", "reservation (R)",
               "preemption (P)", nm > 3 ? " adaptive reservation (A)" : "");
        for (unsigned e = 0; e < MAXE; e++)
            for (unsigned b = 0; b < MAXB; b++) {
                cell *k = c[e][b][r];
                if (!k[0].have && !k[1].have && !k[2].have && !k[3].have) continue;
                char name[32];
                snprintf(name, sizeof name, "%s/%s", EVS[e], BGS[b]);
                if (!(k[0].have && k[1].have && k[2].have && (nm < 4 || k[3].have)) || iso.ev[e] <= 0 || iso.bg[b] <= 0) {
                    fprintf(stderr, "%s: %s %s rate: needs D, R and P%s and both alone runs\n", prog, name, RATES[r],
                            nm > 3 ? " and A (another pair ran it)" : "");
                    bad = 1;
                    continue;
                }
                if (!k[0].n || !k[1].n || !k[2].n || (nm > 3 && !k[3].n)) {
                    fprintf(stderr, "%s: %s %s rate: a mode ran no event (the background ended before the first "
                            "offer: shorten [edge_fig13] %s_%s_gap)\n", prog, name, RATES[r], EVS[e], RATES[r]);
                    bad = 1;
                    continue;
                }
                cJSON *po = cJSON_GetObjectItemCaseSensitive(pairs, name);
                if (!po) {
                    /* EDGE IV-D: an event preempts a warp only when the warp's registers hold its own */
                    po = cJSON_AddObjectToObject(pairs, name);
                    cJSON_AddNumberToObject(po, "regs_event", k[2].regs_ev);
                    cJSON_AddNumberToObject(po, "regs_background", k[2].regs_bg);
                    cJSON_AddBoolToObject(po, "preemption_possible", k[2].regs_bg >= k[2].regs_ev);
                }
                cJSON *ro = cJSON_AddObjectToObject(po, RATES[r]);
                printf("  %-18s", name);
                for (unsigned m = 0; m < nm; m++) {
                    k[m].ev_slow = mt_slowdown(mt_mean(k[m].rt, k[m].n), iso.ev[e]);
                    k[m].bg_slow = mt_slowdown(k[m].bg, iso.bg[b]);
                    k[m].antt = mt_antt(k[m].rt, k[m].n, iso.ev[e], k[m].bg, iso.bg[b]);
                    mean[r][m][0] += k[m].ev_slow, mean[r][m][1] += k[m].bg_slow, mean[r][m][2] += k[m].antt;
                    mevb[r][m][0] += k[m].sched;
                    for (unsigned j = 0; j < GPU_EVB_N; j++) mevb[r][m][j + 1] += k[m].evb[j];
                    cJSON_AddItemToObject(ro, MODES[m], cell_json(&k[m]));
                    printf("  %6.2f %5.2f %6.2f (%4zu)", k[m].ev_slow, k[m].bg_slow, k[m].antt, k[m].n);
                }
                printf("\n");
                np[r]++;
            }
        cJSON *ra = cJSON_AddObjectToObject(avg, RATES[r]);
        printf("  %-18s", "average");
        for (unsigned m = 0; m < nm; m++) {
            for (unsigned j = 0; j < 3; j++) mean[r][m][j] = np[r] ? mean[r][m][j] / np[r] : 0;
            cJSON *mo = cJSON_AddObjectToObject(ra, MODES[m]);
            cJSON_AddNumberToObject(mo, "event_slowdown", mean[r][m][0]);
            cJSON_AddNumberToObject(mo, "bg_slowdown", mean[r][m][1]);
            cJSON_AddNumberToObject(mo, "antt", mean[r][m][2]);
            cJSON_AddNumberToObject(mo, "pairs", np[r]);
            for (unsigned j = 0; j <= GPU_EVB_N; j++) mevb[r][m][j] = np[r] ? mevb[r][m][j] / np[r] : 0;
            cJSON_AddItemToObject(mo, "event_breakdown", evb_json(mevb[r][m][0], mevb[r][m] + 1));
            printf("  %6.2f %5.2f %6.2f       ", mean[r][m][0], mean[r][m][1], mean[r][m][2]);
        }
        printf("\n");
    }
    /* where a mean event's runtime goes, per rate and mode (averages over the pairs) */
    printf("\nmean event runtime by class, cycles (sched_wait = launch -> START; the rest START -> exit)\n");
    printf("  %-10s", "");
    printf(" %10s", "sched_wait");
    for (unsigned j = 0; j < GPU_EVB_N; j++) printf(" %8s", gpu_evb_names[j]);
    printf("\n");
    for (unsigned r = 0; r < 2; r++)
        for (unsigned m = 0; m < nm; m++) {
            printf("  %-4s %-5s %10.0f", RATES[r], MODES[m], mevb[r][m][0]);
            for (unsigned j = 0; j < GPU_EVB_N; j++) printf(" %8.0f", mevb[r][m][j + 1]);
            printf("\n");
        }
    for (unsigned e = 0; e < MAXE; e++)
        if (iso.ev[e] > 0) {
            printf("  alone %-4s %10.0f", EVS[e], iso.sched[e]);
            for (unsigned j = 0; j < GPU_EVB_N; j++) printf(" %8.0f", iso.evb[e][j]);
            printf("\n");
        }
    /* headline ratios: how much P improves on D or R (a larger slowdown / P's) */
    static const struct { const char *key; unsigned r, num, den, what; double paper; } RAT[] = {
        {"antt_p_over_d_high", 1, 0, 2, 2, 1.4},   {"antt_p_over_r_high", 1, 1, 2, 2, 2.7},
        {"event_p_over_d_high", 1, 0, 2, 0, 1.4},  {"event_p_over_r_high", 1, 1, 2, 0, 2.8},
        {"event_p_over_d_low", 0, 0, 2, 0, 1.3},   {"antt_p_over_d_low", 0, 0, 2, 2, 0},
        {"antt_p_over_r_low", 0, 1, 2, 2, 0},      {"event_r_over_p_low", 0, 2, 1, 0, 2.3},
        {"bg_r_over_p_low", 0, 1, 2, 1, 1.3},      {"bg_p_over_d_high", 1, 2, 0, 1, 1.3},
        {"bg_p_over_r_high", 1, 2, 1, 1, 1.2}};
    cJSON *pap = cJSON_AddObjectToObject(root, "paper");
    printf("\n%-22s %8s   paper\n", "ratio", "model");
    for (unsigned i = 0; i < sizeof RAT / sizeof RAT[0]; i++) {
        double d = mean[RAT[i].r][RAT[i].den][RAT[i].what], v = d > 0 ? mean[RAT[i].r][RAT[i].num][RAT[i].what] / d : 0;
        cJSON_AddNumberToObject(root, RAT[i].key, v);
        if (RAT[i].paper > 0) cJSON_AddNumberToObject(pap, RAT[i].key, RAT[i].paper);
        printf("%-22s %7.2fx   ", RAT[i].key, v);
        if (RAT[i].paper > 0) printf("%.1fx\n", RAT[i].paper);
        else printf("-\n");
    }
    /* A against each of D, R, P: how much the adaptive reservation improves on it (EDGE VII expects the
     * dynamic approach to beat each at one rate or the other) */
    for (unsigned r = 0; r < 2 && nm > 3; r++)
        for (unsigned m = 0; m < 3; m++)
            for (unsigned w = 0; w < 3; w += 2) {
                char key[40];
                snprintf(key, sizeof key, "%s_%c_over_a_%s", w ? "antt" : "event", MODES[m][0] + 32, RATES[r]);
                const double d = mean[r][3][w], v = d > 0 ? mean[r][m][w] / d : 0;
                cJSON_AddNumberToObject(root, key, v);
                printf("%-22s %7.2fx   -\n", key, v);
            }
    cJSON_AddStringToObject(root, "ratios", "x_p_over_y: y's average slowdown / P's (how much P improves on y); "
                                            "x_r_over_p: P's / R's; bg_p_over_y: P's background slowdown / y's");
    if (nm > 3) cJSON_AddStringToObject(root, "ratios_a", "x_y_over_a_rate: y's average slowdown / A's");
    cJSON *mh = cJSON_AddObjectToObject(pap, "memc_high_event_slowdown");
    cJSON_AddNumberToObject(mh, "D", 37), cJSON_AddNumberToObject(mh, "R", 109), cJSON_AddNumberToObject(mh, "P", 48);
    cJSON_AddItemToObject(root, "average", avg);
    cJSON_AddItemToObject(root, "pairs", pairs);
    bad |= exp_write_result(root, out, prog);
    cJSON_Delete(root);
    for (unsigned e = 0; e < MAXE; e++)
        for (unsigned b = 0; b < MAXB; b++)
            for (unsigned r = 0; r < 2; r++)
                for (unsigned m = 0; m < 4; m++) free(c[e][b][r][m].rt);
    free(c);
    return bad;
}

/* ---- CM-BAL beside the GPU (one point per process) ---- */

static struct {
    cmbal_config c;
    cmbal_loop *l;
} B;

static int bal_attach(void *u, gpu_t *g, char *err, size_t errlen) {
    (void)u;
    return (B.l = cmbal_new(&B.c, g, err, errlen)) ? 0 : -1;
}
static void bal_start(void *u) { (void)u, cmbal_start(B.l); }
static void bal_first(void *u) { (void)u, cmbal_kernel_start(B.l); }
static void bal_end(void *u) { (void)u, cmbal_kernel_end(B.l); }
static const char *bal_tick(void *u) {
    (void)u;
    cmbal_tick_gpu(B.l);
    return cmbal_error(B.l);
}

/* [cmbal] scheme given (baseline too: the protection alone): the loop runs
 * beside the GPU (--impl picks the monitor's implementation with the other
 * blocks') */
static int beside(fg_config *cfg, const char *impl, mt_hooks *h, char *err, size_t errlen) {
    cmbal_config_default(&B.c);
    const bool given = fg_config_str(cfg, "cmbal", "scheme") != NULL;
    if (cmbal_config_load(&B.c, cfg, err, errlen)) return -1;
    if (impl && fg_impl_parse(impl, &B.c.impl)) {
        snprintf(err, errlen, "--impl %s: expected rtl, c or lockstep", impl);
        return -1;
    }
    if (B.c.scheme == CMBAL_DYNCTA) {
        snprintf(err, errlen, "[cmbal] scheme = dyncta: not beside events (it holds blocks, not warps)");
        return -1;
    }
    if (!given && B.c.protect != CMBAL_PROTECT_OFF) {
        snprintf(err, errlen, "[cmbal] protect_events = %s needs a [cmbal] scheme (baseline: the protection alone)",
                 cmbal_protect_names[B.c.protect]);
        return -1;
    }
    if (given) *h = (mt_hooks){NULL, bal_attach, bal_start, bal_first, bal_end, bal_tick};
    return 0;
}

static void beside_done(cJSON *o) {
    if (o && B.l) {
        cJSON *cb = cJSON_AddObjectToObject(o, "cmbal");
        cJSON_AddStringToObject(cb, "scheme", cmbal_scheme_names[B.c.scheme]);
        cJSON_AddStringToObject(cb, "protect_events", cmbal_protect_names[B.c.protect]);
        cJSON_AddNumberToObject(cb, "protect_warps", B.c.protect_warps);
        uint64_t pc, pcc;
        cmbal_protect_stats(B.l, &pc, &pcc);
        cJSON_AddNumberToObject(cb, "protect_cycles", (double)pc);
        cJSON_AddNumberToObject(cb, "protect_core_cycles", (double)pcc);
        cJSON_AddStringToObject(cJSON_GetObjectItemCaseSensitive(o, "blocks"), "cm_bal_monitor",
                                cmbal_monitor_impl(&B.c));
    }
    cmbal_free(B.l);
    B.l = NULL;
}

int main(int argc, char **argv) {
    static const mt_fig F = {"edge_fig13", prepare, report, beside, beside_done};
    return mt_prog_main(argc, argv, &F);
}
