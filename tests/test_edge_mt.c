/* EDGE Figs. 12-13 machinery: the statistics and the
 * slowdown / ANTT arithmetic against hand-computed cases (the functions and
 * both programs' --merge), the timed send of every event kind, the
 * skip-execution mode, the reservation policy, the extra-registers variant,
 * and one tiny point of each figure through build/bin/edge_fig12 and
 * edge_fig13 (--point, --merge) with every event and background result
 * checked.  Blocks in lockstep by default (FG_IMPL). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fg_json.h"
#include "fg_tb.h"
#include "fg_util.h"
#include "gpu_tb.h"
#include "simt/gpu_internal.h"
#include "work/bg_kernels.h"
#include "work/ev_work.h"
#include "work/mt_prog.h"
#include "work/mt_run.h"
#include "work/mt_stats.h"

static void near(double a, double b) { assert_true(fabs(a - b) < 1e-9 * (fabs(b) + 1)); }
#define NEAR(a, b) near((a), (b))

/* ------------------------------------------------------------ arithmetic */

static void test_stats_hand_computed(void **st) {
    (void)st;
    double x[5] = {5, 1, 4, 2, 3};
    mt_summary s = mt_summarize(x, 5);
    assert_int_equal(s.n, 5);
    NEAR(s.avg, 3), NEAR(s.p50, 3), NEAR(s.p99, 5), NEAR(s.max, 5); /* ranks ceil(2.5) = 3, ceil(4.95) = 5 */
    double y[200];
    for (int i = 0; i < 200; i++) y[i] = 200 - i;
    NEAR(mt_percentile(y, 200, 99), 198); /* rank ceil(198) */
    NEAR(mt_percentile(y, 200, 50), 100);
    NEAR(mt_percentile(y, 0, 99), 0);
    NEAR(mt_slowdown(300, 250), 1.2);
    /* two events of 300 and 500 cycles (250 alone) beside a background of
     * 1500 (1000 alone): (1.2 + 2.0 + 1.5) / 3 */
    const double ev[2] = {300, 500};
    NEAR(mt_antt(ev, 2, 250, 1500, 1000), 4.7 / 3);
    NEAR(mt_antt(ev, 0, 250, 1500, 1000), 1.5);
    const double a[2] = {10, 30}, b[2] = {2, 3};
    NEAR(mt_ratio_of_means(a, b, 2), 8);
    NEAR(mt_geomean_ratio(a, b, 2), sqrt(50));
}

/* ------------------------------------------------ programs and point files */

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (!f) fail_msg("cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

static void scratch(char *dir, size_t n, const char *name) {
    snprintf(dir, n, "%s/test-edge-mt-%s", fg_build_dir(), name);
    mkdir(dir, 0755);
}

/* runs build/bin/<prog> with args (from the repository root); its exit status */
static int run_prog(const char *prog, const char *args, const char *log) {
    char cmd[2048];
    if (snprintf(cmd, sizeof cmd, "%s/bin/%s %s > %s 2>&1", fg_build_dir(), prog, args, log) >= (int)sizeof cmd)
        fail_msg("run_prog: the command for %s is too long", prog);
    int rc = system(cmd);
    if (rc) {
        printf("# %s failed (status %d); its output:\n", cmd, rc);
        snprintf(cmd, sizeof cmd, "sed 's/^/#   /' %s", log);
        if (system(cmd)) printf("#   (no log)\n");
    }
    return rc;
}

static cJSON *merge(const char *prog, const char *dir, const char *const *points, unsigned n) {
    char list[600], out[600], log[600], text[8192] = "", args[2048];
    for (unsigned i = 0; i < n; i++) {
        size_t l = strlen(text);
        snprintf(text + l, sizeof text - l, "%s/%s\n", dir, points[i]);
    }
    snprintf(list, sizeof list, "%s/list.txt", dir);
    snprintf(out, sizeof out, "%s/result.json", dir);
    snprintf(log, sizeof log, "%s/merge.log", dir);
    write_text(list, text);
    snprintf(args, sizeof args, "--merge %s --out %s", list, out);
    if (run_prog(prog, args, log)) fail_msg("%s --merge failed", prog);
    char err[600];
    cJSON *r = fg_json_read(out, err, sizeof err);
    if (!r) fail_msg("%s", err);
    return r;
}

/* writes dir/file from a printf format (a hand-made point file); file */
__attribute__((format(printf, 3, 4))) static const char *put_point(const char *dir, const char *file, const char *fmt,
                                                                 ...) {
    char text[1024], path[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    write_text(path, text);
    return file;
}

#define BLOCKS "\"blocks\": {\"edge_pewt\": \"c\"}, \"ok\": true, \"size\": \"test\""

/* Fig. 12's merge on hand-made points: pooled per pair over seeds, ratios
 * of the pairs' means, the register rule's "possible" set, the variant. */
static void test_fig12_merge_hand_computed(void **st) {
    (void)st;
    char dir[512];
    scratch(dir, sizeof dir, "f12merge");
    static const struct { const char *file, *ev, *bg, *mode, *sched; unsigned re, rb; } P[] = {
        {"a.json", "ipv4", "conv", "D", "[100, 300]", 9, 30}, {"b.json", "ipv4", "conv", "D", "[200]", 9, 30},
        {"c.json", "ipv4", "conv", "P", "[2, 4]", 9, 30},     {"d.json", "ipv4", "conv", "P", "[3]", 9, 30},
        {"e.json", "memc", "bp", "D", "[1000]", 24, 21},      {"f.json", "memc", "bp", "P", "[1000]", 24, 21},
        {"g.json", "memc", "bp", "X", "[10]", 24, 21}};
    const char *files[7];
    for (unsigned i = 0; i < 7; i++)
        files[i] = put_point(dir, P[i].file,
                             "{" BLOCKS ", \"skip_exec\": true, \"event\": \"%s\", \"background\": \"%s\", "
                             "\"mode\": \"%s\", \"regs_event\": %u, \"regs_background\": %u, \"preempted\": 0, "
                             "\"sched\": %s}",
                             P[i].ev, P[i].bg, P[i].mode, P[i].re, P[i].rb, P[i].sched);
    cJSON *r = merge("edge_fig12", dir, files, 7);
    /* ipv4/conv: D {100, 300, 200} avg 200 max 300, P {2, 4, 3} avg 3 max 4;
     * memc/bp: D 1000, P 1000, X 10 */
    NEAR(fg_json_num(r, "pairs.ipv4/conv.D.avg"), 200);
    NEAR(fg_json_num(r, "pairs.ipv4/conv.D.p99"), 300);
    NEAR(fg_json_num(r, "pairs.ipv4/conv.avg_ratio"), 200.0 / 3);
    NEAR(fg_json_num(r, "avg_ratio"), 600.0 / 501.5);
    NEAR(fg_json_num(r, "tail_ratio"), 650.0 / 502);
    NEAR(fg_json_num(r, "avg_ratio_possible"), 200.0 / 3); /* memc (24) cannot preempt bp (21) */
    NEAR(fg_json_num(r, "tail_ratio_possible"), 75);
    NEAR(fg_json_num(r, "avg_ratio_extra_regs"), 600.0 / 6.5);
    NEAR(fg_json_num(r, "tail_ratio_extra_regs"), 650.0 / 7);
    NEAR(fg_json_num(r, "n_pairs_possible"), 1);
    cJSON_Delete(r);
}

/* Fig. 13's merge on hand-made points (see the comments for the numbers);
 * the background is SC, one of the five kernels the merge once refused. */
static void test_fig13_merge_hand_computed(void **st) {
    (void)st;
    char dir[512];
    scratch(dir, sizeof dir, "f13merge");
    static const struct { const char *file, *ev, *bg, *rate, *mode, *rt; unsigned bgc; } P[] = {
        {"a.json", "ipv4", "none", "alone", "P", "[200, 300]", 0},    /* alone 250 */
        {"b.json", "none", "sc", "alone", "P", "[]", 1000},           /* alone 1000 */
        {"c.json", "ipv4", "sc", "high", "D", "[300, 500]", 1500},    /* 1.6, 1.5, ANTT 4.7 / 3 */
        {"d.json", "ipv4", "sc", "high", "R", "[1000]", 2000},        /* 4.0, 2.0, ANTT 3 */
        {"e.json", "ipv4", "sc", "high", "P", "[250, 250, 250]", 1200} /* 1.0, 1.2, ANTT 1.05 */};
    const char *files[5];
    for (unsigned i = 0; i < 5; i++)
        files[i] = put_point(dir, P[i].file,
                             "{" BLOCKS ", \"event\": \"%s\", \"background\": \"%s\", \"rate\": \"%s\", "
                             "\"mode\": \"%s\", \"runtime\": %s, \"sched\": [], \"bg_cycles\": %u}",
                             P[i].ev, P[i].bg, P[i].rate, P[i].mode, P[i].rt, P[i].bgc);
    cJSON *r = merge("edge_fig13", dir, files, 5);
    NEAR(fg_json_num(r, "pairs.ipv4/sc.high.D.event_slowdown"), 1.6);
    NEAR(fg_json_num(r, "pairs.ipv4/sc.high.D.bg_slowdown"), 1.5);
    NEAR(fg_json_num(r, "pairs.ipv4/sc.high.D.antt"), 4.7 / 3);
    NEAR(fg_json_num(r, "pairs.ipv4/sc.high.R.antt"), 3);
    NEAR(fg_json_num(r, "pairs.ipv4/sc.high.P.antt"), 1.05);
    NEAR(fg_json_num(r, "average.high.P.bg_slowdown"), 1.2);
    NEAR(fg_json_num(r, "antt_p_over_d_high"), (4.7 / 3) / 1.05);
    NEAR(fg_json_num(r, "antt_p_over_r_high"), 3 / 1.05);
    NEAR(fg_json_num(r, "event_p_over_d_high"), 1.6);
    NEAR(fg_json_num(r, "event_p_over_r_high"), 4);
    NEAR(fg_json_num(r, "bg_p_over_d_high"), 0.8);
    NEAR(fg_json_num(r, "alone.event_runtime.ipv4"), 250);
    assert_null(cJSON_GetObjectItemCaseSensitive(r, "antt_p_over_a_high")); /* no A point: no A ratio */
    cJSON_Delete(r);
    /* with an adaptive-reservation (A) point too: its cell and A's ratios */
    const char *a5[6];
    memcpy(a5, files, sizeof files);
    a5[5] = put_point(dir, "f.json", "{" BLOCKS ", \"event\": \"ipv4\", \"background\": \"sc\", \"rate\": \"high\", "
                      "\"mode\": \"A\", \"runtime\": [250, 750], \"sched\": [], \"bg_cycles\": 1100}");
    r = merge("edge_fig13", dir, a5, 6); /* A: event 2.0, bg 1.1, ANTT (1 + 3 + 1.1) / 3 */
    NEAR(fg_json_num(r, "pairs.ipv4/sc.high.A.event_slowdown"), 2.0);
    NEAR(fg_json_num(r, "pairs.ipv4/sc.high.A.antt"), 5.1 / 3);
    NEAR(fg_json_num(r, "antt_p_over_a_high"), 1.05 / (5.1 / 3));
    NEAR(fg_json_num(r, "antt_r_over_a_high"), 3 / (5.1 / 3));
    NEAR(fg_json_num(r, "event_d_over_a_high"), 0.8);
    NEAR(fg_json_num(r, "antt_p_over_d_high"), (4.7 / 3) / 1.05); /* D R P unchanged */
    cJSON_Delete(r);
}

/* The launch-path report (sim/work/mt_launch.h) on hand-made points: at 2 ns
 * a cycle and a first byte of 100 cycles, two events told 400 and 600
 * cycles after their DMA's start, the second after waiting 100 for a slot:
 * e2e (100 + 0 + 400) * 2 = 1000 ns and (100 + 100 + 600) * 2 = 1600 ns,
 * mean 1300, p99 1600; START 10 and 30 cycles in (to_start 40 ns), done at
 * 350 and 560 (exec 870 ns), the DMA acknowledged at 300 and 500 (dma 800
 * ns), so 290 and 470 cycles ran during it (760 ns); a second path's cell
 * and the average over the cells; a point without a timeline is refused. */
static void test_launch_merge_hand_computed(void **st) {
    (void)st;
    char dir[512], log[600], args[1400];
    scratch(dir, sizeof dir, "lmerge");
    static const char *const TL[2] = {
        "\"launch\": \"early\", \"ring\": \"sync\", \"ns_per_cycle\": 2, \"first_byte\": 100, \"waited\": "
        "[0, 100], \"acked\": [300, 500], \"launched\": [0, 0], \"start\": [10, 30], \"done\": [350, 560], "
        "\"told\": [400, 600]",
        "\"launch\": \"after_ack\", \"ring\": \"plain\", \"ns_per_cycle\": 2, \"first_byte\": 100, "
        "\"waited\": [0], \"acked\": [300], \"launched\": [300], \"start\": [310], \"done\": [500], "
        "\"told\": [650]"};
    const char *files[3];
    for (unsigned i = 0; i < 2; i++)
        files[i] = put_point(dir, i ? "b.json" : "a.json",
                             "{" BLOCKS ", \"event\": \"ipv4\", \"background\": \"mm\", \"rate\": \"high\", "
                             "\"offered\": 3, \"dropped\": 1, \"regs_event\": 9, \"timeline\": {%s}}", TL[i]);
    cJSON *r = merge("edge_fig13", dir, files, 2);
    NEAR(fg_json_num(r, "cells.ipv4/mm.high.early/sync.e2e_mean_ns"), 1300);
    NEAR(fg_json_num(r, "cells.ipv4/mm.high.early/sync.e2e_p99_ns"), 1600);
    NEAR(fg_json_num(r, "cells.ipv4/mm.high.early/sync.parts_ns.first_byte"), 200);
    NEAR(fg_json_num(r, "cells.ipv4/mm.high.early/sync.parts_ns.slot_wait"), 100);
    NEAR(fg_json_num(r, "cells.ipv4/mm.high.early/sync.parts_ns.to_start"), 40);
    NEAR(fg_json_num(r, "cells.ipv4/mm.high.early/sync.parts_ns.exec"), 870);
    NEAR(fg_json_num(r, "cells.ipv4/mm.high.early/sync.parts_ns.notify"), 90);
    NEAR(fg_json_num(r, "cells.ipv4/mm.high.early/sync.parts_ns.dma"), 800);
    NEAR(fg_json_num(r, "cells.ipv4/mm.high.early/sync.parts_ns.exec_during_dma"), 760);
    NEAR(fg_json_num(r, "cells.ipv4/mm.high.after_ack/plain.e2e_mean_ns"), 1500); /* (100 + 650) * 2 */
    NEAR(fg_json_num(r, "cells.ipv4/mm.high.after_ack/plain.parts_ns.exec_during_dma"), 0);
    NEAR(fg_json_num(r, "average.early/sync.e2e_mean_ns"), 1300);
    cJSON_Delete(r);
    files[2] = put_point(dir, "c.json", "{" BLOCKS ", \"event\": \"ipv4\", \"background\": \"bfs\", \"rate\": "
                                        "\"high\", \"runtime\": [1], \"sched\": [1], \"bg_cycles\": 5}");
    char text[1800];
    snprintf(text, sizeof text, "%s/%s\n%s/%s\n", dir, files[0], dir, files[2]);
    snprintf(args, sizeof args, "%s/list2.txt", dir);
    write_text(args, text);
    snprintf(log, sizeof log, "%s/refused.log", dir);
    snprintf(args, sizeof args, "--merge %s/list2.txt --out %s/never.json", dir, dir);
    assert_int_not_equal(run_prog("edge_fig13", args, log), 0);
    snprintf(args, sizeof args, "grep -q 'has no timeline' %s", log);
    assert_int_equal(system(args), 0);
}

/* ------------------------------------------------------- the runs */

static mt_params small(const char *ev, const char *bg) {
    mt_params x;
    mt_params_default(&x);
    snprintf(x.event, sizeof x.event, "%s", ev);
    snprintf(x.bg, sizeof x.bg, "%s", bg);
    snprintf(x.size, sizeof x.size, "test");
    x.gap_min = 1200;
    x.gap_max = 2400;
    return x;
}

static gpu_config machine(bool enable, bool skip) {
    gpu_config c;
    gpu_config_default(&c);
    c.pre.impl = c.mem.fe_impl = tb_impl();
    c.pre.enable = enable;
    c.pre.skip_exec = skip;
    return c;
}

static void run_ok(const mt_params *x, const gpu_config *c, mt_result *r) {
    mt_run(x, c, NULL, NULL, r);
    if (!r->ok) fail_msg("%s on %s, %s: %s", x->event, x->bg, mt_mode_name(c), r->err);
    assert_true(r->n_ev > 0);
    assert_int_equal(r->checked, r->n_ev);
}

static double avg_sched(const mt_result *r) {
    double s = 0;
    for (unsigned i = 0; i < r->n_ev; i++) s += (double)(r->ev[i].start - r->ev[i].launch);
    return s / r->n_ev;
}

static unsigned count_preempted(const mt_result *r) {
    unsigned n = 0;
    for (unsigned i = 0; i < r->n_ev; i++) n += r->ev[i].preempted;
    return n;
}

/* Every kind's send: the inputs cross the host DMA port at the link's rate
 * and arrive exactly (check_skipped), the outputs stay poisoned until the
 * kernel runs; then the event runs and check passes, and check_skipped
 * sees the outputs written.  A full DMA queue refuses the send untouched. */
typedef struct {
    unsigned sent;
    uint64_t cycle;
    gpu_t *g;
} sent_ctx;
static void on_sent(void *u, uint64_t tag) {
    sent_ctx *s = u;
    s->sent += (unsigned)tag;
    s->cycle = gpu_cycle(s->g);
}

static void test_send_every_kind(void **st) {
    (void)st;
    const char *kdir = tb_kernel_dir();
    for (const ev_work_ops *const *k = ev_work_kinds; *k; k++) {
        const ev_work_ops *o = *k;
        gpu_config c = machine(true, false);
        c.num_cores = 2;
        char err[512];
        gpu_t *g = gpu_new(&c, err, sizeof err);
        if (!g) fail_msg("%s", err);
        void *w = o->init(g, NULL, kdir, 4, EV_RING_PLAIN, err, sizeof err);
        if (!w) fail_msg("%s: %s", o->name, err);
        fg_rng rng;
        fg_rng_seed(&rng, 3);
        sent_ctx s = {0, 0, g};
        unsigned n = o->reqs_per_event;
        const uint64_t scratch_addr = gpu_malloc(g, 64);
        while (gpu_dma_free(g) > 0) /* fill the queue: the send must refuse, rng untouched */
            assert_int_equal(gpu_dma_write(g, scratch_addr, "x", 1, 0, NULL, NULL, 0), 0);
        fg_rng before = rng;
        assert_int_equal(o->send(w, g, 1, n, &rng, 1.0, on_sent, &s, 1, err, sizeof err), 1);
        assert_memory_equal(&before, &rng, sizeof rng);
        while (!gpu_dma_idle(g)) gpu_tick(g);
        const uint64_t t0 = gpu_cycle(g);
        assert_int_equal(o->send(w, g, 1, n, &rng, 1.0, on_sent, &s, 1, err, sizeof err), 0);
        while (!s.sent && gpu_cycle(g) < t0 + 100000) gpu_tick(g);
        assert_int_equal(s.sent, 1);
        assert_true(s.cycle - t0 >= 32); /* at one byte per cycle: every kind sends more than 32 bytes */
        if (o->check_skipped(w, g, 1, n, err, sizeof err)) fail_msg("%s: %s", o->name, err);
        gpu_launch_desc d = o->desc(w, 1, n, 3, 7);
        if (gpu_launch(g, &d, err, sizeof err)) fail_msg("%s", err);
        while (!gpu_idle(g)) gpu_tick(g);
        if (gpu_error(g)) fail_msg("%s: %s", o->name, gpu_error(g));
        if (o->check(w, g, 1, n, err, sizeof err)) fail_msg("%s", err);
        if (o->check_running(w, g, 1, n, err, sizeof err) || o->check_idle(w, g, err, sizeof err)) fail_msg("%s", err);
        assert_int_equal(o->check_skipped(w, g, 1, n, err, sizeof err), -1);
        assert_true(strstr(err, "output") || strstr(err, "input")); /* IPSec encrypts its payload in place */
        printf("# %s: inputs sent in %llu cycles at 1 B/cycle; ran and checked\n", o->name,
               (unsigned long long)(s.cycle - t0));
        o->free(w);
        gpu_free(g);
    }
}

/* skip_exec on a tiny GPU: the event gets its context and completes at
 * once; no instruction issues, its outputs stay poisoned, it is reported at
 * START with first = start; without skip_exec the same event runs. */
typedef struct {
    unsigned firsts, events, done;
    gpu_event_info info;
    uint64_t done_cycle;
} skip_ctx;
static void sk_first(void *u, uint64_t tag, uint64_t cyc) { (void)tag, (void)cyc, ((skip_ctx *)u)->firsts++; }
static void sk_done(void *u, uint64_t tag, uint64_t cyc) {
    skip_ctx *s = u;
    (void)tag;
    s->done++;
    s->done_cycle = cyc;
}
static void sk_event(void *u, uint64_t tag, const gpu_event_info *i) {
    skip_ctx *s = u;
    (void)tag;
    s->events++;
    s->info = *i;
}

static void test_skip_exec_unit(void **st) {
    (void)st;
    const char *kdir = tb_kernel_dir();
    for (int skip = 1; skip >= 0; skip--) {
        gpu_config c = machine(true, skip);
        c.num_cores = 1;
        char err[512];
        gpu_t *g = gpu_new(&c, err, sizeof err);
        if (!g) fail_msg("%s", err);
        const ev_work_ops *o = ev_work_find("ipv4");
        void *w = o->init(g, NULL, kdir, 2, EV_RING_PLAIN, err, sizeof err);
        if (!w) fail_msg("%s", err);
        fg_rng rng;
        fg_rng_seed(&rng, 5);
        if (o->fill(w, g, 0, 32, &rng, err, sizeof err)) fail_msg("%s", err);
        skip_ctx s = {0};
        gpu_callbacks cb = {sk_first, sk_done, &s};
        gpu_set_callbacks(g, &cb);
        gpu_set_event_callback(g, sk_event, &s);
        gpu_launch_desc d = o->desc(w, 0, 32, 3, 1);
        if (gpu_launch(g, &d, err, sizeof err)) fail_msg("%s", err);
        while (!gpu_idle(g)) gpu_tick(g);
        if (gpu_error(g)) fail_msg("%s", gpu_error(g));
        gpu_stats gs;
        gpu_get_stats(g, &gs);
        assert_int_equal(s.events, 1);
        assert_int_equal(s.done, 1);
        if (skip) {
            assert_int_equal(gs.warp_instrs, 0);
            assert_int_equal(s.firsts, 0);
            assert_true(s.info.first == s.info.start);
            assert_true(s.done_cycle - s.info.start <= 3); /* exit the cycle after START, PEWT completion after */
            if (o->check_skipped(w, g, 0, 32, err, sizeof err)) fail_msg("%s", err);
        } else {
            assert_true(gs.warp_instrs > 0);
            assert_int_equal(s.firsts, 1);
            if (o->check(w, g, 0, 32, err, sizeof err)) fail_msg("%s", err);
        }
        printf("# skip_exec %d: START at %llu, complete at %llu, %llu warp instructions\n", skip,
               (unsigned long long)s.info.start, (unsigned long long)s.done_cycle, (unsigned long long)gs.warp_instrs);
        o->free(w);
        gpu_free(g);
    }
}

/* The Fig. 12 mode on a full GPU (BP, test size): preempted victims are
 * resumed after the skipped event, draining waits for a block to finish;
 * every background word and every skipped event's memory checked. */
static void test_skip_exec_draining_vs_preemption(void **st) {
    (void)st;
    mt_params x = small("ipv4", "bp");
    mt_result d, p;
    gpu_config cd = machine(false, true), cp = machine(true, true);
    run_ok(&x, &cd, &d);
    run_ok(&x, &cp, &p);
    for (unsigned i = 0; i < p.n_ev; i++) assert_true(p.ev[i].done - p.ev[i].start <= 3);
    assert_int_equal(count_preempted(&d), 0);
    assert_true(count_preempted(&p) > 0);
    assert_int_equal(p.ps.resumes, count_preempted(&p));
    assert_true(avg_sched(&d) > 10 * avg_sched(&p));
    printf("# ipv4 on bp (test), skipped: draining %u events avg %.1f cycles, preemption %u events avg %.1f "
           "(%u preempted)\n", d.n_ev, avg_sched(&d), p.n_ev, avg_sched(&p), count_preempted(&p));
    mt_result_free(&d);
    mt_result_free(&p);
}

/* Reservation: with reserve_cores = 2 of 4 the background's blocks land
 * only on cores 0-1, warp-level events and a priority-1 launch only on
 * 2-3; a configuration without a background core is refused. */
static void test_reservation_policy(void **st) {
    (void)st;
    gpu_config c = machine(false, false);
    c.num_cores = 4;
    c.pre.reserve_cores = 4;
    char err[512];
    const char *kdir = tb_kernel_dir();
    assert_null(gpu_new(&c, err, sizeof err));
    assert_non_null(strstr(err, "reserve_cores"));
    c.pre.reserve_cores = 2;
    gpu_t *g = gpu_new(&c, err, sizeof err);
    if (!g) fail_msg("%s", err);
    bg_run *b = bg_new(g, "bp", "test", kdir, 1, err, sizeof err);
    const ev_work_ops *o = ev_work_find("ipv4");
    void *w = b ? o->init(g, NULL, kdir, 4, EV_RING_PLAIN, err, sizeof err) : NULL;
    if (!w) fail_msg("%s", err);
    if (bg_start(b, err, sizeof err)) fail_msg("%s", err);
    for (int i = 0; i < 300; i++) gpu_tick(g);
    assert_true(g->core[0].used_blocks > 0 && g->core[1].used_blocks > 0);
    assert_int_equal(g->core[2].used_blocks + g->core[3].used_blocks, 0);
    fg_rng rng;
    fg_rng_seed(&rng, 9);
    if (o->fill(w, g, 0, 32, &rng, err, sizeof err) || o->fill(w, g, 1, 32, &rng, err, sizeof err)) fail_msg("%s", err);
    gpu_launch_desc e = o->desc(w, 0, 32, 3, 1), k = o->desc(w, 1, 32, 1, 2);
    k.warp_event = false; /* an ordinary launch at raised priority: an event kernel through the KMU */
    if (gpu_launch(g, &e, err, sizeof err) || gpu_launch(g, &k, err, sizeof err)) fail_msg("%s", err);
    for (int i = 0; i < 4; i++) gpu_tick(g);
    assert_int_equal(g->core[2].used_blocks + g->core[3].used_blocks, 1); /* k's block */
    while (!gpu_idle(g)) {
        gpu_tick(g);
        const simt_launch *L = NULL;
        for (unsigned i = 0; i < g->n_lq; i++)
            if (g->lq[i]->warp_event && g->lq[i]->state == LS_EV_CORE) L = g->lq[i];
        if (L) assert_true(L->ev.core >= 2);
    }
    if (gpu_error(g)) fail_msg("%s", gpu_error(g));
    if (o->check(w, g, 0, 32, err, sizeof err) || o->check(w, g, 1, 32, err, sizeof err)) fail_msg("%s", err);
    o->free(w);
    bg_free(b);
    gpu_free(g);
    /* the whole run on the 16-core GPU: every event on cores 8-15 */
    mt_params x = small("ipv4", "bp");
    x.max_inflight = 8;
    x.gap_min = 100, x.gap_max = 300;
    gpu_config cr = machine(false, false), cp = machine(true, false);
    cr.pre.reserve_cores = 8;
    mt_result r, p;
    run_ok(&x, &cr, &r);
    run_ok(&x, &cp, &p);
    unsigned low = 0;
    for (unsigned i = 0; i < r.n_ev; i++) assert_true(r.ev[i].core >= 8);
    for (unsigned i = 0; i < p.n_ev; i++) low += p.ev[i].core < 8;
    assert_true(low > 0);
    assert_true(r.bg_cycles > p.bg_cycles); /* the background has half the cores */
    printf("# reservation: %u events all on cores 8-15, background %llu cycles (preemption: %llu, %u of %u events "
           "on cores 0-7)\n", r.n_ev, (unsigned long long)r.bg_cycles, (unsigned long long)p.bg_cycles, low, p.n_ev);
    mt_result_free(&r);
    mt_result_free(&p);
}

/* Dynamic reservation ([preempt] reserve_dynamic, EDGE VII): bad settings
 * refused naming the key; the controller's rule directed (events in flight
 * set by hand on an idle GPU: the period's mean enters the moving average,
 * the target is taken at once, a lower one a core a period, within
 * [reserve_min, reserve_cores]); and a whole run at a high rate, where the
 * reserve grows from 1, events the reserve cannot start preempt on the
 * background's cores, and the results stay exact. */
static void test_reservation_dynamic(void **st) {
    (void)st;
    char err[512];
    gpu_config c = machine(true, false);
    c.pre.reserve_dynamic = true;
    assert_null(gpu_new(&c, err, sizeof err)); /* no maximum */
    assert_non_null(strstr(err, "reserve_dynamic needs reserve_cores"));
    c.pre.reserve_cores = 4;
    c.pre.reserve_min = 5;
    assert_null(gpu_new(&c, err, sizeof err));
    assert_non_null(strstr(err, "reserve_min"));
    c.pre.reserve_min = 1;
    c.pre.reserve_period = 0;
    assert_null(gpu_new(&c, err, sizeof err));
    assert_non_null(strstr(err, "reserve_period"));
    fg_config *fc = fg_config_new();
    if (fg_config_set(fc, "preempt.reserve_ewma_shift=17", err, sizeof err)) fail_msg("%s", err);
    gpu_config d;
    gpu_config_default(&d);
    assert_int_not_equal(gpu_config_load(&d, fc, err, sizeof err), 0);
    assert_non_null(strstr(err, "reserve_ewma_shift"));
    fg_config_free(fc);

    c.pre.reserve_period = 10;
    c.pre.reserve_per_core = 4;
    c.pre.reserve_ewma_shift = 0; /* the average is the last period's mean */
    gpu_t *g = gpu_new(&c, err, sizeof err);
    if (!g) fail_msg("%s", err);
    assert_int_equal(g->resv_now, 1); /* starts at reserve_min */
    g->ev_live = 9;
    for (int i = 0; i < 9; i++) gpu_tick(g);
    assert_int_equal(g->resv_now, 1);
    gpu_tick(g);
    assert_int_equal(g->resv_now, 3); /* ceil(9 / 4), at once */
    g->ev_live = 40;
    for (int i = 0; i < 10; i++) gpu_tick(g);
    assert_int_equal(g->resv_now, 4); /* reserve_cores bounds it */
    g->ev_live = 0;
    for (unsigned want = 3; want >= 1; want--) {
        for (int i = 0; i < 10; i++) gpu_tick(g);
        assert_int_equal(g->resv_now, want); /* one core a period, down to reserve_min */
    }
    for (int i = 0; i < 30; i++) gpu_tick(g);
    assert_int_equal(g->resv_now, 1);
    gpu_reserve_stats rs;
    gpu_get_reserve_stats(g, &rs);
    assert_int_equal(rs.cycles, 80);
    assert_int_equal(rs.changes, 5); /* 1 -> 3 -> 4 -> 3 -> 2 -> 1 */
    assert_int_equal(rs.min, 1);
    assert_int_equal(rs.max, 4);
    /* counted after the cycle's step: 9x1 + 3, 9x3 + 4, 9x4 + 3, 9x3 + 2, 9x2 + 1, 30x1 */
    assert_int_equal(rs.core_cycles, 12 + 31 + 39 + 29 + 19 + 30);
    gpu_free(g);
    c.pre.reserve_ewma_shift = 1; /* half of the new mean: 9 -> 4.5 events, 2 cores */
    g = gpu_new(&c, err, sizeof err);
    g->ev_live = 9;
    for (int i = 0; i < 10; i++) gpu_tick(g);
    assert_int_equal(g->resv_now, 2);
    gpu_free(g);

    /* a whole run: IPv4 at a high rate beside BP, at most 8 reserved cores */
    mt_params x = small("ipv4", "bp");
    x.max_inflight = 32;
    x.gap_min = 100, x.gap_max = 200;
    gpu_config a = machine(true, false);
    a.pre.reserve_dynamic = true;
    a.pre.reserve_cores = 8;
    a.pre.reserve_min = 1;
    mt_result r;
    run_ok(&x, &a, &r);
    assert_string_equal(mt_mode_name(&a), "A");
    assert_true(r.rs.max >= 2 && r.rs.max <= 8);
    assert_true(r.rs.changes > 0);
    const double mean = (double)r.rs.core_cycles / (double)r.rs.cycles;
    assert_true(mean > 0 && mean <= 8);
    unsigned high = 0, below = 0;
    for (unsigned i = 0; i < r.n_ev; i++) {
        high += r.ev[i].core >= 8;
        below += r.ev[i].core < 16 - r.rs.max; /* never reserved: only a preemption puts an event there */
    }
    assert_true(high * 2 > r.n_ev); /* most on the reserved end */
    assert_true(below > 0);
    printf("# dynamic reservation: %u events, %u on cores 8-15, %u on cores never reserved, %.2f cores reserved on "
           "average (at most %u, %llu changes), %u preempted\n", r.n_ev, high, below, mean, r.rs.max,
           (unsigned long long)r.rs.changes, count_preempted(&r));
    mt_result_free(&r);
}

/* Where reserved cores' events go: [preempt] reserve_place = cost spreads
 * them over the reserved cores by the SIMT core scheduler's cost; issue_rr,
 * the EDGE artifact's issue_block2core, hands each to the first reserved core
 * with room after the core last given a block or event, so after the
 * background's blocks they crowd the first reserved core.  16-entry PEWTs
 * (the artifact's 16 blocks per core) as C twins: the RTL PEWT has 4. */
static void test_reservation_placement(void **st) {
    (void)st;
    mt_params x = small("ipv4", "bp");
    x.max_inflight = 8;
    x.gap_min = 20, x.gap_max = 60;
    unsigned first[2], n[2];
    for (unsigned place = 0; place < 2; place++) {
        gpu_config c = machine(false, false);
        c.pre.impl = FG_IMPL_C;
        c.pre.reserve_cores = 8;
        c.pre.pewt_entries = 16;
        c.pre.reserve_place = place ? GPU_PLACE_ISSUE_RR : GPU_PLACE_COST;
        mt_result r;
        run_ok(&x, &c, &r);
        unsigned per[16] = {0};
        for (unsigned i = 0; i < r.n_ev; i++) {
            assert_true(r.ev[i].core >= 8);
            per[r.ev[i].core]++;
        }
        first[place] = per[8], n[place] = r.n_ev;
        printf("# reserve_place %s: %u events, per reserved core", gpu_place_names[place], r.n_ev);
        for (unsigned k = 8; k < 16; k++) printf(" %u", per[k]);
        printf("\n");
        mt_result_free(&r);
    }
    /* cost: about an eighth on core 8; issue_rr: the most there, well above it */
    assert_true(first[0] * 4 < n[0]);
    assert_true(first[1] * 2 > n[1]);
}

/* EDGE VI-C variant: MemC (24 registers) cannot preempt BP (21) under the
 * IV-D rule; with extra_regs it borrows a victim's slot and reserves its
 * registers in the free register file (never saved).  Executed for real
 * too: the victims' and the events' results stay exact. */
static void test_extra_regs(void **st) {
    (void)st;
    mt_params x = small("memc", "bp");
    gpu_config cp = machine(true, true), cx = machine(true, true);
    cx.pre.extra_regs = true;
    mt_result p, xr;
    run_ok(&x, &cp, &p);
    run_ok(&x, &cx, &xr);
    assert_true(xr.regs_ev > xr.regs_bg);
    assert_int_equal(count_preempted(&p), 0);
    assert_true(count_preempted(&xr) > 0);
    for (unsigned i = 0; i < xr.n_ev; i++) assert_false(xr.ev[i].saved);
    assert_true(avg_sched(&xr) < avg_sched(&p));
    printf("# memc on bp (test), skipped: rule %.1f cycles (%u preempted), extra registers %.1f (%u preempted)\n",
           avg_sched(&p), count_preempted(&p), avg_sched(&xr), count_preempted(&xr));
    mt_result_free(&p);
    mt_result_free(&xr);
    gpu_config run = machine(true, false);
    run.pre.extra_regs = true;
    x.max_inflight = 6;
    x.gap_min = 200, x.gap_max = 600;
    run_ok(&x, &run, &xr);
    assert_true(count_preempted(&xr) > 0);
    printf("# memc on bp (test), executed with extra registers: %u events, %u preempted, all checked\n", xr.n_ev,
           count_preempted(&xr));
    mt_result_free(&xr);
}

/* Victim sets ([preempt] set_max, EDGE VI-C: "preempt more than one warp
 * ... such that the event kernel can use the registers from multiple
 * contiguous warps"): bad values refused; MemC (24 registers), which cannot
 * preempt BP (21) alone, borrows two adjacent BP warps of one block (42), so
 * it waits far less; each set's warps are parked and resumed (the run checks
 * resumes = warps parked); the RTL controller in lockstep with its twin by
 * default (edge_preempt_set4); executed for real, every result exact. */
static void test_victim_sets(void **st) {
    (void)st;
    char err[512];
    gpu_config c = machine(true, false);
    for (unsigned v = 0; v < 3; v++) {
        static const unsigned bad[] = {0, 5, 3};
        c.pre.set_max = bad[v];
        c.pre.impl = v == 2 ? FG_IMPL_RTL : FG_IMPL_C;
        assert_null(gpu_new(&c, err, sizeof err));
        assert_non_null(strstr(err, "set_max"));
    }
    mt_params x = small("memc", "bp");
    gpu_config cp = machine(true, true), cs = machine(true, true);
    cs.pre.set_max = 4;
    mt_result p, sr;
    run_ok(&x, &cp, &p);
    run_ok(&x, &cs, &sr);
    assert_string_equal(mt_mode_name(&cs), "S");
    assert_int_equal(count_preempted(&p), 0);
    assert_true(count_preempted(&sr) > 0);
    unsigned warps = 0;
    for (unsigned i = 0; i < sr.n_ev; i++)
        if (sr.ev[i].preempted) {
            assert_int_equal(sr.ev[i].set_warps, 2); /* the smallest set: 2 x 21 >= 24 */
            warps += sr.ev[i].set_warps;
        }
    assert_int_equal(sr.ps.parked, sr.ps.resumes);
    assert_true(avg_sched(&sr) * 2 < avg_sched(&p));
    printf("# memc on bp (test), skipped: rule %.1f cycles (%u preempted), victim sets %.1f (%u preempted, %u warps)\n",
           avg_sched(&p), count_preempted(&p), avg_sched(&sr), count_preempted(&sr), warps);
    mt_result_free(&p);
    mt_result_free(&sr);
    gpu_config run = machine(true, false);
    run.pre.set_max = 4;
    x.max_inflight = 6;
    x.gap_min = 200, x.gap_max = 600;
    run_ok(&x, &run, &sr);
    assert_true(count_preempted(&sr) > 0);
    printf("# memc on bp (test), executed with victim sets: %u events, %u preempted, all checked\n", sr.n_ev,
           count_preempted(&sr));
    mt_result_free(&sr);
}

/* A register reserve for events ([preempt] event_reg_reserve, EDGE VI-C):
 * bad sizes refused; BP's blocks never take a core's last N registers (and
 * do without the reserve, so the check can fail); MemC (24 registers), which
 * cannot preempt BP (21) under the IV-D rule and finds no free registers
 * beside it, then starts in a free slot or preempts for a slot only, never
 * saving, and waits far less; executed for real, every result exact. */
static void test_event_reg_reserve(void **st) {
    (void)st;
    char err[512];
    gpu_config c = machine(true, false);
    c.pre.event_reg_reserve = c.regs_per_core;
    assert_null(gpu_new(&c, err, sizeof err));
    assert_non_null(strstr(err, "event_reg_reserve"));
    const unsigned reserve = 832; /* one IPSec warp's worth (26 registers x 32), MemC's 768 fits */
    /* 32768 registers (GTX 480's): BP's blocks (21 registers a thread) are limited by the register file,
     * not by the 2048 threads as with the default 65536 */
    c.regs_per_core = 32768;
    unsigned most[2] = {0, 0};
    for (unsigned v = 0; v < 2; v++) {
        c.pre.event_reg_reserve = v ? reserve : 0;
        gpu_t *g = gpu_new(&c, err, sizeof err);
        if (!g) fail_msg("%s", err);
        bg_run *b = bg_new(g, "bp", "test", tb_kernel_dir(), 1, err, sizeof err);
        if (!b || bg_start(b, err, sizeof err)) fail_msg("%s", err);
        for (int i = 0; i < 3000 && !gpu_idle(g); i++) {
            gpu_tick(g);
            for (unsigned k = 0; k < c.num_cores; k++)
                if (g->core[k].used_regs > most[v]) most[v] = g->core[k].used_regs;
        }
        bg_free(b);
        gpu_free(g);
    }
    assert_true(most[0] > c.regs_per_core - reserve); /* BP alone fills past the reserve's bound */
    assert_true(most[1] <= c.regs_per_core - reserve);
    /* a background block that cannot fit beside the reserve is refused at launch */
    c.pre.event_reg_reserve = c.regs_per_core - 32;
    gpu_t *g = gpu_new(&c, err, sizeof err);
    if (!g) fail_msg("%s", err);
    bg_run *b = bg_new(g, "bp", "test", tb_kernel_dir(), 1, err, sizeof err);
    assert_true(!b || bg_start(b, err, sizeof err));
    assert_non_null(strstr(err, "event_reg_reserve"));
    bg_free(b);
    gpu_free(g);

    mt_params x = small("memc", "bp");
    gpu_config cp = machine(true, true), cv = machine(true, true);
    cp.regs_per_core = cv.regs_per_core = 32768;
    cv.pre.event_reg_reserve = reserve;
    mt_result p, vr;
    run_ok(&x, &cp, &p);
    run_ok(&x, &cv, &vr);
    assert_string_equal(mt_mode_name(&cv), "V");
    assert_int_equal(count_preempted(&p), 0);
    for (unsigned i = 0; i < vr.n_ev; i++) assert_false(vr.ev[i].saved);
    assert_true(avg_sched(&vr) * 4 < avg_sched(&p)); /* registers free, slots too: no drain to wait for */
    printf("# memc on bp (test), skipped: rule %.1f cycles (%u preempted), %u registers reserved %.1f (%u "
           "preempted); background %llu / %llu cycles\n", avg_sched(&p), count_preempted(&p), reserve, avg_sched(&vr),
           count_preempted(&vr), (unsigned long long)p.bg_cycles, (unsigned long long)vr.bg_cycles);
    mt_result_free(&p);
    mt_result_free(&vr);
    gpu_config run = machine(true, false);
    run.regs_per_core = 32768;
    run.pre.event_reg_reserve = reserve;
    x.max_inflight = 6;
    x.gap_min = 200, x.gap_max = 600;
    run_ok(&x, &run, &vr);
    printf("# memc on bp (test), executed beside the reserve: %u events, %u preempted, all checked\n", vr.n_ev,
           count_preempted(&vr));
    mt_result_free(&vr);
}

/* An event kind no core can ever hold is refused when it is registered, before any doorbell: a
 * warp of IPSec (26 registers a thread, 832 a warp) on cores of 800 registers, on both launch paths. */
static void test_event_refused_at_registration(void **st) {
    (void)st;
    for (unsigned host = 0; host < 2; host++) {
        mt_params x = small("ipsec", "none");
        x.max_events = 4;
        x.launch = host ? MT_LAUNCH_HOST : x.launch;
        gpu_config c = machine(true, false);
        c.regs_per_core = 800;
        mt_result r;
        mt_run(&x, &c, NULL, NULL, &r);
        assert_false(r.ok);
        if (!strstr(r.err, "event registration refused") || !strstr(r.err, "too many registers per block"))
            fail_msg("%s", r.err);
        assert_int_equal(r.n_ev, 0);
        printf("# %s: %s\n", host ? "host launch" : "doorbell", r.err);
        mt_result_free(&r);
        c.regs_per_core = 832; /* one warp's worth: accepted, and the events run */
        run_ok(&x, &c, &r);
        assert_int_equal(r.n_ev, 4);
        mt_result_free(&r);
    }
}

/* ---------------------------------------------- tiny points of the figures */

static void test_fig12_tiny_point(void **st) {
    (void)st;
    char dir[512], args[2048], log[600];
    scratch(dir, sizeof dir, "f12point");
    static const char *const M[3][2] = {{"D", "--set preempt.enable=0"}, {"P", "--set preempt.enable=1"},
                                        {"X", "--set preempt.enable=1 --set preempt.extra_regs=1"}};
    const char *files[6];
    char names[6][32];
    unsigned n = 0;
    for (unsigned e = 0; e < 2; e++)
        for (unsigned m = 0; m < 3; m++) {
            const char *ev = e ? "memc" : "ipv4";
            if (!e && m == 2) continue;
            snprintf(names[n], sizeof names[n], "%s_%s.json", ev, M[m][0]);
            snprintf(args, sizeof args,
                     "--impl %s --set edge_fig12.size=test --set edge_fig12.background=bp --set edge_fig12.event=%s "
                     "--set edge_fig12.gap_min=1200 --set edge_fig12.gap_max=2400 %s --point --out %s/%s",
                     fg_impl_name(tb_impl()), ev, M[m][1], dir, names[n]);
            snprintf(log, sizeof log, "%s/%s.log", dir, names[n]);
            if (run_prog("edge_fig12", args, log)) fail_msg("edge_fig12 --point failed");
            files[n] = names[n];
            n++;
        }
    cJSON *r = merge("edge_fig12", dir, files, n);
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "pairs"), "ipv4/bp");
    assert_non_null(p);
    assert_true(fg_json_num(r, "avg_ratio") > 1);
    assert_true(fg_json_num(r, "avg_ratio_extra_regs") > fg_json_num(r, "avg_ratio"));
    assert_true(fg_json_num(r, "pairs.memc/bp.P.preempted") == 0);
    assert_true(fg_json_num(r, "pairs.memc/bp.X.preempted") > 0);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "blocks"), "edge_pewt")->valuestring,
                        fg_impl_name(tb_impl()));
    printf("# tiny Fig. 12 (bp test): ipv4 D/P avg %.1fx, tail %.1fx; with memc extra registers %.1fx\n",
           fg_json_num(r, "pairs.ipv4/bp.avg_ratio"), fg_json_num(r, "pairs.ipv4/bp.max_ratio"),
           fg_json_num(r, "avg_ratio_extra_regs"));
    cJSON_Delete(r);
}

/* memc on bp (test size, 4 in flight at the high rate) with each of runs'
 * settings and the common ones: dir/<file> per run; files[i] = its file */
static void fig13_points(const char *dir, const char *const runs[][2], unsigned n, const char *common,
                         const char **files) {
    char args[2048], log[600];
    for (unsigned i = 0; i < n; i++) {
        snprintf(args, sizeof args,
                 "--impl %s --set edge_fig13.size=test --set edge_fig13.background=bp --set edge_fig13.event=memc "
                 "--set edge_fig13.high_inflight=4 --set edge_fig13.memc_high_gap=400 %s %s --point --out %s/%s",
                 fg_impl_name(tb_impl()), common, runs[i][1], dir, runs[i][0]);
        snprintf(log, sizeof log, "%s/%s.log", dir, runs[i][0]);
        if (run_prog("edge_fig13", args, log)) fail_msg("edge_fig13 --point failed");
        files[i] = runs[i][0];
    }
}

static void test_fig13_tiny_point(void **st) {
    (void)st;
    char dir[512];
    scratch(dir, sizeof dir, "f13point");
    static const char *const RUNS[5][2] = {
        {"D.json", "--set edge_fig13.rate=high --set preempt.enable=0"},
        {"R.json", "--set edge_fig13.rate=high --set preempt.enable=0 --set preempt.reserve_cores=8"},
        {"P.json", "--set edge_fig13.rate=high --set preempt.enable=1"},
        {"ev.json", "--set edge_fig13.rate=alone --set edge_fig13.background=none --set edge_fig13.alone_events=4"},
        {"bg.json", "--set edge_fig13.rate=alone --set edge_fig13.event=none"}};
    const char *files[5];
    fig13_points(dir, RUNS, 5, "", files);
    cJSON *r = merge("edge_fig13", dir, files, 5);
    for (unsigned m = 0; m < 3; m++) {
        char k[64];
        static const char *const MODES[3] = {"D", "R", "P"};
        snprintf(k, sizeof k, "pairs.memc/bp.high.%s.event_slowdown", MODES[m]);
        assert_true(fg_json_num(r, k) >= 0.9);
        snprintf(k, sizeof k, "pairs.memc/bp.high.%s.events", MODES[m]);
        assert_true(fg_json_num(r, k) > 0);
    }
    assert_true(fg_json_num(r, "pairs.memc/bp.high.R.bg_slowdown") > 1.2); /* half the cores */
    assert_true(fg_json_num(r, "antt_p_over_d_high") > 0 && fg_json_num(r, "antt_p_over_r_high") > 0);
    printf("# tiny Fig. 13 (memc on bp test, 4 in flight): event slowdown D %.2f R %.2f P %.2f, ANTT P over D "
           "%.2fx, over R %.2fx\n",
           fg_json_num(r, "pairs.memc/bp.high.D.event_slowdown"), fg_json_num(r, "pairs.memc/bp.high.R.event_slowdown"),
           fg_json_num(r, "pairs.memc/bp.high.P.event_slowdown"), fg_json_num(r, "antt_p_over_d_high"),
           fg_json_num(r, "antt_p_over_r_high"));
    cJSON_Delete(r);
}

/* CM-BAL's event protection beside Fig. 13's events ([cmbal] protect_events,
 * the loop with scheme = baseline: the cap alone): memc on bp at a high rate
 * under preemption, protect off / core / gpu, merged into the variant
 * report.  Off never caps; core and gpu do, gpu on more core-cycles; capping
 * the background slows it and speeds the events; the JSON names every
 * variant.  A protection without a scheme is refused with a message. */
static void test_fig13_protect(void **st) {
    (void)st;
    char dir[512], args[2048], log[600];
    scratch(dir, sizeof dir, "f13protect");
    static const char *const RUNS[5][2] = {
        {"off.json", "--set edge_fig13.rate=high --set cmbal.protect_events=off"},
        {"core.json", "--set edge_fig13.rate=high --set cmbal.protect_events=core"},
        {"gpu.json", "--set edge_fig13.rate=high --set cmbal.protect_events=gpu"},
        {"ev.json", "--set edge_fig13.rate=alone --set edge_fig13.background=none --set edge_fig13.alone_events=4"},
        {"bg.json", "--set edge_fig13.rate=alone --set edge_fig13.event=none"}};
    const char *files[5];
    fig13_points(dir, RUNS, 5, "--set preempt.enable=1 --set cmbal.scheme=baseline --set cmbal.protect_warps=2",
                 files);
    double cc[3];
    for (unsigned i = 0; i < 3; i++) {
        char path[700], err[600];
        snprintf(path, sizeof path, "%s/%s", dir, RUNS[i][0]);
        cJSON *p = fg_json_read(path, err, sizeof err);
        if (!p) fail_msg("%s", err);
        cc[i] = fg_json_num(p, "cmbal.protect_core_cycles");
        assert_string_equal(mt_jstr(cJSON_GetObjectItemCaseSensitive(p, "blocks"), "cm_bal_monitor"), "none");
        cJSON_Delete(p);
    }
    assert_true(cc[0] == 0 && cc[1] > 0 && cc[2] > cc[1]);
    cJSON *r = merge("edge_fig13", dir, files, 5);
    const double ev[3] = {fg_json_num(r, "pairs.memc/bp.high.P/off.event_slowdown"),
                          fg_json_num(r, "pairs.memc/bp.high.P/core.event_slowdown"),
                          fg_json_num(r, "pairs.memc/bp.high.P/gpu.event_slowdown")};
    const double bg[3] = {fg_json_num(r, "pairs.memc/bp.high.P/off.bg_slowdown"),
                          fg_json_num(r, "pairs.memc/bp.high.P/core.bg_slowdown"),
                          fg_json_num(r, "pairs.memc/bp.high.P/gpu.bg_slowdown")};
    printf("# memc on bp (test), protect_warps 2: event slowdown off %.2f core %.2f gpu %.2f, background %.2f %.2f "
           "%.2f; core-cycles capped %.0f / %.0f\n", ev[0], ev[1], ev[2], bg[0], bg[1], bg[2], cc[1], cc[2]);
    assert_true(ev[0] > 0 && fg_json_num(r, "pairs.memc/bp.high.P/gpu.event_p99_slowdown") >= ev[2] * 0.9);
    assert_true(bg[2] > bg[0]);   /* the cap holds the background back */
    assert_true(ev[2] < ev[0]);   /* and the events gain */
    assert_string_equal(mt_jstr(r, "scheme"), "baseline");
    cJSON_Delete(r);
    /* a protection without a scheme: refused, naming what to add */
    snprintf(log, sizeof log, "%s/refused.log", dir);
    snprintf(args, sizeof args, "--set edge_fig13.size=test --set edge_fig13.background=bp --set edge_fig13.event=memc "
             "--set cmbal.protect_events=gpu --point --out %s/never.json", dir);
    assert_int_not_equal(run_prog("edge_fig13", args, log), 0);
    snprintf(args, sizeof args, "grep -q 'needs a .cmbal. scheme' %s", log);
    assert_int_equal(system(args), 0);
}

/* Isolation in the shared runs' steady state (EDGE Fig. 13's baseline): with
 * warm_events, the alone events' runtimes do not depend on how many run
 * (each core's i-cache and L1 warm); without, the first event on each of the
 * 16 cores pays cold misses and the mean is inflated, which made shared runs
 * look faster than isolation. */
static void test_warm_isolation(void **st) {
    (void)st;
    char dir[512], args[1024], path[600], err[256];
    scratch(dir, sizeof dir, "warm");
    double first[2], last[2], fetch[2];
    for (unsigned warm = 0; warm < 2; warm++) {
        snprintf(args, sizeof args,
                 "--impl c --set edge_fig13.size=test --set edge_fig13.background=none --set edge_fig13.rate=alone "
                 "--set edge_fig13.event=ipv4 --set edge_fig13.alone_events=24 --set edge_fig13.warm_events=%u "
                 "--point --out %s/w%u.json",
                 warm ? 32 : 0, dir, warm);
        snprintf(path, sizeof path, "%s/w%u.log", dir, warm);
        if (run_prog("edge_fig13", args, path)) fail_msg("edge_fig13 --point failed");
        snprintf(path, sizeof path, "%s/w%u.json", dir, warm);
        cJSON *p = fg_json_read(path, err, sizeof err);
        if (!p) fail_msg("%s", err);
        size_t n;
        double *rt = mt_jarray(p, "runtime", &n);
        assert_int_equal(n, 24);
        first[warm] = mt_mean(rt, 16), last[warm] = mt_mean(rt + 16, 8);
        fetch[warm] = fg_json_num(p, "event_breakdown.fetch") / 24;
        free(rt);
        cJSON_Delete(p);
    }
    printf("# ipv4 alone, 24 events: cold first 16 %.0f / last 8 %.0f cycles (fetch %.0f per event); warm %.0f / %.0f "
           "(fetch %.0f)\n", first[0], last[0], fetch[0], first[1], last[1], fetch[1]);
    assert_true(first[0] > 1.3 * last[0] && fetch[0] > 100); /* the cold bias this guards against */
    assert_true(first[1] < 1.15 * last[1] && fetch[1] < 20);
}

/* The launch path (mt_run.h launch / ring): with a synchronized receive ring
 * and the launch at the DMA's start, every IPv4 and MemC event beside BP
 * starts before its DMA is acknowledged and still computes every result
 * exactly (its loads waited for the words to land); the same early launch
 * over ordinary memory reads its inputs before they land and the run fails
 * on a wrong result (the check this path relies on); the combinations that
 * cannot work are refused with a message. */
static void test_launch_early_ring(void **st) {
    (void)st;
    const char *kinds[] = {"ipv4", "memc"};
    for (unsigned k = 0; k < 2; k++) {
        mt_params x = small(kinds[k], "bp");
        x.max_inflight = 4;
        x.launch = MT_LAUNCH_EARLY;
        x.ring = EV_RING_SYNC;
        gpu_config c = machine(true, false);
        mt_result r;
        run_ok(&x, &c, &r);
        unsigned before = 0;
        double e2e = 0;
        for (unsigned i = 0; i < r.n_ev; i++) {
            assert_int_equal(r.ev[i].launch, r.ev[i].sent);
            assert_true(r.ev[i].acked > r.ev[i].sent);
            before += r.ev[i].start < r.ev[i].acked;
            e2e += (double)(r.ev[i].done - r.ev[i].sent);
        }
        assert_true(before > 0);
        printf("# %s on bp (test), early launch + synchronized ring: %u events, %u started before their DMA was "
               "acknowledged, every result exact; mean end-to-end %.0f cycles\n",
               kinds[k], r.n_ev, before, e2e / r.n_ev);
        mt_result_free(&r);
        x.ring = EV_RING_PLAIN; /* refused by mt_params_load; run here to see the check catch it */
        mt_run(&x, &c, NULL, NULL, &r);
        assert_false(r.ok);
        assert_non_null(strstr(r.err, "event"));
        printf("# %s, early launch over ordinary memory: %s\n", kinds[k], r.err);
        mt_result_free(&r);
    }
    mt_params x = small("ipsec", "bp");
    x.ring = EV_RING_SYNC;
    gpu_config c = machine(true, false);
    mt_result r;
    mt_run(&x, &c, NULL, NULL, &r);
    assert_false(r.ok);
    assert_non_null(strstr(r.err, "in place"));
    mt_result_free(&r);
    x = small("ipv4", "bp");
    x.ring = EV_RING_SYNC;
    c = machine(true, true);
    mt_run(&x, &c, NULL, NULL, &r);
    assert_false(r.ok);
    assert_non_null(strstr(r.err, "skip_exec"));
    mt_result_free(&r);
    char err[256];
    fg_config *cfg = fg_config_new();
    assert_int_equal(fg_config_set(cfg, "mt.launch=early", err, sizeof err), 0);
    mt_params_default(&x);
    assert_int_equal(mt_params_load(&x, cfg, "mt", err, sizeof err), -1);
    assert_non_null(strstr(err, "needs ring = sync"));
    assert_int_equal(fg_config_set(cfg, "mt.ring=fast", err, sizeof err), 0);
    assert_int_equal(mt_params_load(&x, cfg, "mt", err, sizeof err), -1);
    assert_non_null(strstr(err, "fast"));
    fg_config_free(cfg);
}

/* The host launch path (EDGE Fig. 8b): each event is an ordinary kernel
 * launched by the host's polling thread after its task notice, never before
 * its DMA is acknowledged, at least the host API's launch call and driver
 * latency ([host]) after its data; every path tells the device after the
 * completion. */
static void test_launch_host(void **st) {
    (void)st;
    mt_params x = small("ipv4", "bp");
    x.max_inflight = 4;
    x.launch = MT_LAUNCH_HOST;
    gpu_config c = machine(true, false);
    mt_result r;
    run_ok(&x, &c, &r);
    const double host_cycles = (x.host.launch_call_ns + x.host.launch_driver_ns) * c.clock_mhz / 1000.0;
    double wait = 0;
    for (unsigned i = 0; i < r.n_ev; i++) {
        const mt_event *e = &r.ev[i];
        assert_true(e->launch >= e->acked && e->launch >= e->sent + host_cycles + x.dispatch_cycles);
        assert_true(e->start >= e->launch && e->told > e->done);
        assert_false(e->preempted); /* an ordinary kernel: no PEWT, no preemption */
        wait += (double)(e->launch - e->acked);
    }
    printf("# ipv4 on bp (test), host launch: %u events, launch %.0f cycles after the DMA's acknowledgement on "
           "average\n", r.n_ev, wait / r.n_ev);
    mt_result_free(&r);
    c = machine(true, true); /* skip_exec skips warp-level events only: refused, not a misleading check */
    mt_run(&x, &c, NULL, NULL, &r);
    assert_false(r.ok);
    assert_non_null(strstr(r.err, "ordinary kernels"));
    mt_result_free(&r);
}

/* Faults of the receive ring: more offers than slots with overflow = hold
 * are held, none lost and sent in arrival order; a kernel that never hands
 * its slot back (sw/kernels/t_ring_leak.c in ipv4_fwd_ring's place) stops
 * the run naming the slot once the next DMA into it has waited
 * ring_stall_cycles, not a silent hang; a bound the F/E watchdog would beat
 * is refused. */
static void test_ring_faults(void **st) {
    (void)st;
    mt_params x = small("ipv4", "bp");
    x.max_inflight = 2;
    x.gap_min = 50, x.gap_max = 100;
    x.ring = EV_RING_SYNC;
    x.launch = MT_LAUNCH_EARLY;
    x.hold = true;
    gpu_config c = machine(true, false);
    mt_result r;
    run_ok(&x, &c, &r);
    assert_true(r.held > 0 && r.max_backlog > 1);
    assert_int_equal(r.dropped, 0);
    assert_int_equal(r.offered, r.n_ev);
    for (unsigned i = 1; i < r.n_ev; i++)
        assert_true(r.ev[i].arrived >= r.ev[i - 1].arrived && r.ev[i].sent >= r.ev[i - 1].sent);
    printf("# ipv4 on bp (test), 2 slots, overflow = hold: %llu offers, %llu held (at most %llu at once), none "
           "lost, sent in order\n", (unsigned long long)r.offered, (unsigned long long)r.held,
           (unsigned long long)r.max_backlog);
    mt_result_free(&r);
    /* the leaking kernel, through a kernel directory where it stands in for ipv4_fwd_ring */
    char dir[512], sw[600], src[PATH_MAX + 64], dst[1200], err[256];
    scratch(dir, sizeof dir, "leak");
    snprintf(sw, sizeof sw, "%s/sw", dir);
    mkdir(sw, 0755);
    char real[PATH_MAX];
    if (!realpath(tb_kernel_dir(), real)) fail_msg("realpath %s", tb_kernel_dir());
    static const char *const K[] = {"ipv4_fwd", "bg_bp"};
    for (unsigned i = 0; i < 2; i++) {
        snprintf(src, sizeof src, "%s/%s.elf", real, K[i]);
        snprintf(dst, sizeof dst, "%s/%s.elf", sw, K[i]);
        unlink(dst);
        if (symlink(src, dst)) fail_msg("symlink %s", dst);
    }
    snprintf(src, sizeof src, "%s/t_ring_leak.elf", real);
    snprintf(dst, sizeof dst, "%s/ipv4_fwd_ring.elf", sw);
    unlink(dst);
    if (symlink(src, dst)) fail_msg("symlink %s", dst);
    char *old = getenv("BUILD") ? strdup(getenv("BUILD")) : NULL;
    setenv("BUILD", dir, 1);
    x = small("ipv4", "bp");
    x.ring = EV_RING_SYNC;
    x.ring_stall = 20000;
    mt_run(&x, &c, NULL, NULL, &r);
    if (old) setenv("BUILD", old, 1);
    else unsetenv("BUILD");
    free(old);
    assert_false(r.ok);
    if (!strstr(r.err, "ipv4 ring slot 0") || !strstr(r.err, "never handed it back")) fail_msg("%s", r.err);
    printf("# a kernel that keeps its slot: %s\n", r.err);
    mt_result_free(&r);
    x = small("ipv4", "bp");
    x.ring = EV_RING_SYNC;
    x.ring_stall = c.mem.fe_wdog_limit;
    mt_run(&x, &c, NULL, NULL, &r);
    assert_false(r.ok);
    assert_non_null(strstr(r.err, "fe_wdog_limit"));
    mt_result_free(&r);
    fg_config *cfg = fg_config_new();
    assert_int_equal(fg_config_set(cfg, "mt.overflow=queue", err, sizeof err), 0);
    mt_params_default(&x);
    assert_int_equal(mt_params_load(&x, cfg, "mt", err, sizeof err), -1);
    assert_non_null(strstr(err, "queue"));
    fg_config_free(cfg);
}

/* A device's DMA that never completes (a link fault after the count word):
 * the early-launched event's loads of its packets are NACKed by the F/E
 * watchdog past the retries, that event alone ends with a diagnostic naming
 * its ring slot, the slot is marked empty again and reused, every other
 * event and the background are checked. */
static void test_link_fault(void **st) {
    (void)st;
    mt_params x = small("ipv4", "bp");
    x.ring = EV_RING_SYNC;
    x.launch = MT_LAUNCH_EARLY;
    x.max_inflight = 2;
    x.link_fault = 3;
    x.ring_stall = 20000;
    gpu_config c = machine(true, false);
    c.mem.fe_wdog_limit = 30000; /* the watchdog's verdict within the background's run */
    mt_result r;
    mt_run(&x, &c, NULL, NULL, &r);
    if (!r.ok) fail_msg("%s", r.err);
    assert_int_equal(r.faulted, 1);
    assert_true(r.ev[2].faulted);
    assert_int_equal(r.checked, r.n_ev - 1);
    unsigned reused = 0; /* events in the faulted slot after it was marked empty again */
    for (unsigned i = 3; i < r.n_ev; i++) reused += r.ev[i].slot == r.ev[2].slot && r.ev[i].sent > r.ev[2].done;
    assert_true(reused > 0);
    if (!strstr(r.fault, "ipv4 event 2 in ring slot") || !strstr(r.fault, "link fault injected") ||
        !strstr(r.fault, "F/E watchdog NACK: load"))
        fail_msg("%s", r.fault);
    printf("# link fault in event 2 of %u (its slot used %u times after it): %s\n", r.n_ev, reused, r.fault);
    mt_result_free(&r);
    x.launch = MT_LAUNCH_AFTER_ACK; /* would never start: refused */
    mt_run(&x, &c, NULL, NULL, &r);
    assert_false(r.ok);
    assert_non_null(strstr(r.err, "needs launch = early"));
    mt_result_free(&r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stats_hand_computed),
        cmocka_unit_test(test_fig12_merge_hand_computed),
        cmocka_unit_test(test_fig13_merge_hand_computed),
        cmocka_unit_test(test_launch_merge_hand_computed),
        cmocka_unit_test(test_send_every_kind),
        cmocka_unit_test(test_skip_exec_unit),
        cmocka_unit_test(test_skip_exec_draining_vs_preemption),
        cmocka_unit_test(test_reservation_policy),
        cmocka_unit_test(test_reservation_placement),
        cmocka_unit_test(test_reservation_dynamic),
        cmocka_unit_test(test_extra_regs),
        cmocka_unit_test(test_event_reg_reserve),
        cmocka_unit_test(test_event_refused_at_registration),
        cmocka_unit_test(test_victim_sets),
        cmocka_unit_test(test_fig12_tiny_point),
        cmocka_unit_test(test_fig13_tiny_point),
        cmocka_unit_test(test_fig13_protect),
        cmocka_unit_test(test_warm_isolation),
        cmocka_unit_test(test_launch_early_ring),
        cmocka_unit_test(test_launch_host),
        cmocka_unit_test(test_ring_faults),
        cmocka_unit_test(test_link_fault),
    };
    return cmocka_run_group_tests_name("edge_mt", tests, NULL, NULL);
}
