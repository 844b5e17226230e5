/* mt_prog: see mt_prog.h. */
#include "work/mt_prog.h"
#include "fg_wave.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_json.h"
#include "work/ev_work.h"
#include "work/exp_cli.h"

const char *mt_jstr(const cJSON *o, const char *key) {
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(s) ? s->valuestring : "";
}

double *mt_jarray(const cJSON *o, const char *key, size_t *n) {
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key), *v;
    *n = 0;
    int k = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0;
    double *x = k > 0 ? malloc((size_t)k * sizeof *x) : NULL;
    if (!x) return NULL;
    cJSON_ArrayForEach(v, a) x[(*n)++] = v->valuedouble;
    return x;
}

int mt_points_ok(const cJSON *points, const char *prog) {
    const cJSON *p, *first = cJSON_GetArrayItem(points, 0);
    if (!first) {
        fprintf(stderr, "%s: no points to merge\n", prog);
        return 1;
    }
    cJSON_ArrayForEach(p, points) {
        if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "ok"))) {
            fprintf(stderr, "%s: point %s/%s/%s failed: %s\n", prog, mt_jstr(p, "event"), mt_jstr(p, "background"),
                    mt_jstr(p, "mode"), mt_jstr(p, "error"));
            return 1;
        }
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(p, "blocks"), *b = cJSON_GetObjectItemCaseSensitive(first, "blocks");
        if (strcmp(mt_jstr(p, "size"), mt_jstr(first, "size")) || !cJSON_Compare(a, b, 1)) {
            fprintf(stderr, "%s: points differ in size or blocks: report one setting at a time\n", prog);
            return 1;
        }
    }
    return 0;
}

cJSON *mt_blocks(const cJSON *points) {
    return cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(points, 0), "blocks"), 1);
}

/* One point: the run's figures and every event's scheduling latency and
 * runtime (cycles from its launch at the SIMT core scheduler). */
static cJSON *point_json(const char *name, const mt_params *x, const gpu_config *gc, const mt_result *r, cJSON *pj) {
    cJSON *o = pj;
    cJSON_AddStringToObject(o, "figure", name);
    cJSON_AddStringToObject(o, "event", x->event);
    cJSON_AddStringToObject(o, "background", x->bg);
    cJSON_AddStringToObject(o, "size", x->size);
    cJSON_AddStringToObject(o, "mode", mt_mode_name(gc));
    cJSON_AddNumberToObject(o, "seed", (double)x->seed);
    cJSON_AddNumberToObject(o, "gap_min", (double)x->gap_min);
    cJSON_AddNumberToObject(o, "gap_max", (double)x->gap_max);
    cJSON_AddNumberToObject(o, "max_inflight", x->max_inflight);
    cJSON_AddBoolToObject(o, "skip_exec", gc->pre.skip_exec);
    cJSON_AddBoolToObject(o, "extra_regs", gc->pre.extra_regs);
    cJSON_AddNumberToObject(o, "reserve_cores", gc->pre.reserve_cores);
    if (gc->pre.event_reg_reserve) cJSON_AddNumberToObject(o, "event_reg_reserve", gc->pre.event_reg_reserve);
    if (gc->pre.set_max > 1) cJSON_AddNumberToObject(o, "set_max", gc->pre.set_max);
    if (gc->pre.reserve_dynamic) { /* [preempt] reserve_dynamic: the reservation over the measured part */
        cJSON *rv = cJSON_AddObjectToObject(o, "reserve_dynamic");
        cJSON_AddNumberToObject(rv, "min", gc->pre.reserve_min);
        cJSON_AddNumberToObject(rv, "period", gc->pre.reserve_period);
        cJSON_AddNumberToObject(rv, "per_core", gc->pre.reserve_per_core);
        cJSON_AddNumberToObject(rv, "ewma_shift", gc->pre.reserve_ewma_shift);
        cJSON_AddNumberToObject(rv, "mean_cores", r->rs.cycles ? (double)r->rs.core_cycles / (double)r->rs.cycles : 0);
        cJSON_AddNumberToObject(rv, "max_cores", r->rs.max);
        cJSON_AddNumberToObject(rv, "changes", (double)r->rs.changes);
    }
    fg_block_use uses[4]; /* the EKT and doorbell decoder are not in these runs (mt_prog.h) */
    fg_json_add_blocks(o, uses, gpu_config_blocks(gc, uses, 4));
    cJSON_AddBoolToObject(o, "ok", r->ok);
    cJSON_AddStringToObject(o, "error", r->ok ? "" : r->err);
    cJSON_AddStringToObject(o, "bg_description", r->bg_desc);
    cJSON_AddNumberToObject(o, "regs_event", r->regs_ev);
    cJSON_AddNumberToObject(o, "regs_background", r->regs_bg);
    cJSON_AddNumberToObject(o, "offered", (double)r->offered);
    cJSON_AddNumberToObject(o, "dropped", (double)r->dropped);
    cJSON_AddNumberToObject(o, "events", r->n_ev);
    cJSON_AddNumberToObject(o, "checked", (double)r->checked);
    cJSON_AddStringToObject(o, "check", gc->pre.skip_exec ? "skipped: inputs arrived, every output byte untouched"
                                                          : "every output word against the host reference");
    unsigned pre = 0, sav = 0;
    for (unsigned i = 0; i < r->n_ev; i++) pre += r->ev[i].preempted, sav += r->ev[i].saved;
    cJSON_AddNumberToObject(o, "preempted", pre);
    cJSON_AddNumberToObject(o, "registers_saved", sav);
    if (gc->pre.set_max > 1) { /* victim sets: warps borrowed over the preempted events */
        unsigned w = 0;
        for (unsigned i = 0; i < r->n_ev; i++) w += r->ev[i].preempted ? r->ev[i].set_warps : 0;
        cJSON_AddNumberToObject(o, "warps_borrowed", w);
    }
    cJSON_AddNumberToObject(o, "loads_dropped", (double)r->ps.drops);
    cJSON_AddNumberToObject(o, "barriers_skipped", (double)r->ps.skips);
    cJSON_AddNumberToObject(o, "bg_cycles", (double)r->bg_cycles);
    cJSON_AddNumberToObject(o, "gpu_cycles", (double)r->gpu_cycles);
    cJSON_AddNumberToObject(o, "warm_events", (double)x->warm_events);
    cJSON_AddNumberToObject(o, "warm_cycles", (double)r->warm_cycles);
    cJSON_AddNumberToObject(o, "wall_seconds", r->wall);
    cJSON *evb = cJSON_AddObjectToObject(o, "event_breakdown"); /* cycles over the run's event warps */
    for (unsigned i = 0; i < GPU_EVB_N; i++) cJSON_AddNumberToObject(evb, gpu_evb_names[i], (double)r->evb[i]);
    /* [gpu] kernel_end_drain: drains entered, core cycles in them, and those that refused an instruction */
    cJSON *ked = cJSON_AddObjectToObject(o, "kernel_end_drain");
    cJSON_AddBoolToObject(ked, "on", gc->kernel_end_drain);
    cJSON_AddNumberToObject(ked, "drains", (double)r->end_drains);
    cJSON_AddNumberToObject(ked, "cycles", (double)r->end_drain_cycles);
    cJSON_AddNumberToObject(ked, "stalled_cycles", (double)r->end_drain_stalls);
    cJSON *sl = cJSON_AddArrayToObject(o, "sched"), *rt = cJSON_AddArrayToObject(o, "runtime");
    for (unsigned i = 0; i < r->n_ev; i++) {
        cJSON_AddItemToArray(sl, cJSON_CreateNumber((double)(r->ev[i].start - r->ev[i].launch)));
        cJSON_AddItemToArray(rt, cJSON_CreateNumber((double)(r->ev[i].done - r->ev[i].launch)));
    }
    if (x->link_fault) { /* events ended alone by a fault, and the first one's diagnostic */
        cJSON_AddNumberToObject(o, "faulted", (double)r->faulted);
        cJSON_AddStringToObject(o, "fault", r->fault);
    }
    if (x->hold) { /* overflow = hold: offers that waited for a slot, the most waiting at once */
        cJSON_AddNumberToObject(o, "held", (double)r->held);
        cJSON_AddNumberToObject(o, "max_backlog", (double)r->max_backlog);
    }
    if (x->timeline) { /* the launch path (mt_run.h): every event from its DMA's start at the GPU (cycles); its
                        * first byte left the device first_byte cycles before that, after waiting `waited`
                        * cycles for a slot (overflow = hold) */
        static const char *const LN[] = {"after_ack", "early", "host"}, *const RN[] = {"plain", "sync"};
        cJSON *t = cJSON_AddObjectToObject(o, "timeline");
        cJSON_AddStringToObject(t, "launch", LN[x->launch]);
        cJSON_AddStringToObject(t, "ring", RN[x->ring]);
        cJSON_AddNumberToObject(t, "ns_per_cycle", 1000.0 / gc->clock_mhz);
        cJSON_AddNumberToObject(t, "first_byte", ceil(x->pcie.round_trip_ns / 2 * gc->clock_mhz / 1000.0));
        static const char *const K[] = {"waited", "acked", "launched", "start", "done", "told"};
        for (unsigned k = 0; k < 6; k++) {
            cJSON *a = cJSON_AddArrayToObject(t, K[k]);
            for (unsigned i = 0; i < r->n_ev; i++) {
                const mt_event *e = &r->ev[i];
                const uint64_t v[] = {e->sent + e->sent - e->arrived, e->acked, e->launch, e->start, e->done, e->told};
                cJSON_AddItemToArray(a, cJSON_CreateNumber((double)(v[k] - e->sent)));
            }
        }
    }
    return o;
}

/* o: the point's JSON so far (the figure's prepare may have added to it) */
static int one_point(const mt_fig *f, mt_params *x, gpu_config *gc, fg_config *cfg, const mt_hooks *h, cJSON *o,
                     const char *out, const char *prog) {
    char err[600];
    mt_result r;
    mt_run(x, gc, cfg, h, &r);
    point_json(f->name, x, gc, &r, o);
    if (f->beside_done) f->beside_done(o);
    int bad = !r.ok;
    if (bad) fprintf(stderr, "%s: %s on %s, %s: %s\n", prog, x->event, x->bg, mt_mode_name(gc), r.err);
    else if (r.faulted)
        fprintf(stderr, "%s: %llu event(s) ended alone by a fault, the run went on: %s\n", prog,
                (unsigned long long)r.faulted, r.fault);
    if (fg_json_write(o, out, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", prog, err);
        bad = 1;
    } else if (r.ok) {
        double s = 0;
        for (unsigned i = 0; i < r.n_ev; i++) s += (double)(r.ev[i].start - r.ev[i].launch);
        printf("%s on %s (%s), mode %s: %u events (%llu offered, %llu dropped), %llu checked, avg scheduling %.1f "
               "cycles, background %llu cycles (%.1f s); wrote %s\n",
               x->event, x->bg, x->size, mt_mode_name(gc), r.n_ev, (unsigned long long)r.offered,
               (unsigned long long)r.dropped, (unsigned long long)r.checked, r.n_ev ? s / r.n_ev : 0,
               (unsigned long long)r.bg_cycles, r.wall, out);
    }
    cJSON_Delete(o);
    mt_result_free(&r);
    return bad;
}

int mt_prog_main(int argc, char **argv, const mt_fig *f) {
    char expdef[128], err[600];
    snprintf(expdef, sizeof expdef, "configs/%s.ini", f->name);
    exp_cli a;
    exp_cli_init(&a, "configs/edge.ini", expdef, NULL);
    const fg_opt opts[] = {FG_OPT_GROUP(a.opts), FG_OPT_END};
    const fg_cli cli = {f->name,
                        "[options] --point --out POINT.json [--wave FILE.fst ...]\n"
                        "[options] --check-config\n[--config FILE] [--exp FILE] --merge LIST --out RESULT.json",
                        NULL, opts, NULL};
    fg_cli_parse(&cli, argc, argv);
    fg_config *cfg = fg_config_new();
    int rc = 2;
    if (!cfg) goto done;
    if (!a.check && ((!a.point && !a.merge) || !a.out)) {
        fprintf(stderr, "%s: give --point --out POINT.json, --merge LIST --out RESULT.json or --check-config (%s --help "
                "lists the options)\n", f->name, f->name);
        goto done;
    }
    if (a.merge) {
        cJSON *points = exp_cli_points(&a, f->name);
        rc = !points ? 2 : mt_points_ok(points, f->name) || f->report(points, a.out, f->name);
        cJSON_Delete(points);
        goto done;
    }
    if (exp_cli_load(&a, cfg, err, sizeof err)) goto cfg_err;
    gpu_config gc;
    gpu_config_default(&gc);
    mt_params x;
    mt_params_default(&x);
    if (gpu_config_load(&gc, cfg, err, sizeof err) || ev_work_load_configs(cfg, err, sizeof err) ||
        mt_params_load(&x, cfg, f->name, err, sizeof err) || exp_cli_impl(&a, &gc, err, sizeof err))
        goto cfg_err;
    cJSON *o = cJSON_CreateObject();
    mt_hooks h = {0};
    if ((f->prepare && f->prepare(&x, &gc, cfg, o, err, sizeof err)) ||
        (f->beside && f->beside(cfg, a.impl, &h, err, sizeof err)) ||
        exp_cli_check_unused(cfg, f->name, err, sizeof err)) {
        if (f->beside_done) f->beside_done(NULL);
        cJSON_Delete(o);
        goto cfg_err;
    }
    if (exp_cli_checked(&a, f->name)) {
        if (f->beside_done) f->beside_done(NULL);
        cJSON_Delete(o);
        rc = 0;
        goto done;
    }
    rc = one_point(f, &x, &gc, cfg, &h, o, a.out, f->name);
    if (fg_wave_finish() && !rc) rc = 1;
done:
    exp_cli_free(&a);
    fg_config_free(cfg);
    return rc;
cfg_err:
    fprintf(stderr, "%s: %s\n", f->name, err);
    goto done;
}
