/* The concurrency schemes in the CM machine's loop (sim/cm/cm_bal_loop.c,
 * docs/CM_BAL.md "In the loop"), on the STREAM triad (test size) with the
 * machine of configs/cm.ini:
 *   - static TLP really limits: every core's limit is the configured one and
 *     the cores issue from about that many warps per interval, far fewer
 *     than in the baseline;
 *   - the monitor's limit changes how many warps each core issues from in
 *     the running machine: CM-CPU, fed the machine's stallnet (the triad's
 *     arrays fit in the LLC at this size, so the reply network congests),
 *     lowers the limits step by step, and the cores' issuing warps follow;
 *     the limits change on the cycles the contract gives (CM-CPU: every core
 *     at E + 1; CM-BAL: core c at E + 7 + c, E the interval's last edge);
 *   - a whole short CM workload (H2 beside the triad, CM-BAL1) with the
 *     monitor in lockstep (verilated RTL vs C twin) runs without divergence,
 *     the limits moving and kernel boundaries seen;
 *   - DYNCTA's block limit holds the cores to one block, and pausing stops
 *     the warps of the blocks beyond the limit at once;
 *   - bad scheme names and values are refused with a message (the event
 *     protection's too; its runs: tests/test_edge_mt.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm/cm_sys.h"
#include "fg_tb.h"
#include "gpu_tb.h"

/* configs/cm.ini with "sec.key=value" overrides (NULL-terminated) */
static void load(cm_config *c, const char *const *sets) {
    cm_config_default(c);
    fg_config *cf = fg_config_new();
    char err[512];
    if (fg_config_load(cf, "configs/cm.ini", err, sizeof err)) fail_msg("%s", err);
    for (unsigned i = 0; sets && sets[i]; i++)
        if (fg_config_set(cf, sets[i], err, sizeof err)) fail_msg("%s", err);
    if (cm_config_load(c, cf, err, sizeof err) || fg_config_check_unused(cf, err, sizeof err)) fail_msg("%s", err);
    fg_config_free(cf);
    c->gpu.mem.fe_impl = FG_IMPL_C; /* the F/E queues are not what this tests */
}

/* the triad (test size), beside mix (NULL: none), the GPU side on */
static cm_sys *make(const cm_config *c, const char *mix) {
    char err[600];
    cm_gpu_work w = {"stream", "test", tb_kernel_dir()};
    cm_sys *s = cm_new(c, mix ? cpu_mix_find(mix)->apps : NULL, &w, 3, err, sizeof err);
    if (!s) fail_msg("%s", err);
    while (mix && cm_min_retired(s) < 2000) cm_tick(s);
    cm_reset_stats(s);
    cm_gpu_on(s, true);
    return s;
}

static void tick(cm_sys *s, uint64_t n) {
    for (uint64_t i = 0; i < n; i++) {
        cm_tick(s);
        if (cm_error(s)) fail_msg("tick %" PRIu64 ": %s", cm_cycle(s), cm_error(s));
    }
}

/* mean over intervals [from, n) and cores of the warps that issued */
static double mean_issued(const cm_sys *s, unsigned from, unsigned cores) {
    double sum = 0;
    unsigned n = 0;
    for (unsigned k = from; k < cm_intervals(s); k++, n++)
        for (unsigned i = 0; i < cores; i++) sum += cm_interval_at(s, k)->issued_warps[i];
    return n ? sum / n / cores : 0;
}

static double run_static(const char *warps, unsigned n_iv) {
    cm_config c;
    const char *sets[] = {"cmbal.scheme=static", "cmbal.impl=c", NULL, NULL};
    char b[64];
    if (warps) {
        snprintf(b, sizeof b, "cmbal.static_warps=%s", warps);
        sets[2] = b;
    }
    if (!warps) sets[0] = "cmbal.scheme=baseline";
    load(&c, sets);
    cm_sys *s = make(&c, NULL);
    tick(s, (uint64_t)n_iv * c.interval);
    const unsigned lim = warps ? (unsigned)atoi(warps) : 48;
    for (unsigned k = 1; k < n_iv; k++) /* the first interval holds the start (48 for a cycle or so) */
        for (unsigned i = 0; i < c.gpu.num_cores; i++) {
            const cm_interval *v = cm_interval_at(s, k);
            assert_true(v->warp_limit[i] == lim);
            assert_true(v->issued_warps[i] <= 48);
        }
    double m = mean_issued(s, 1, c.gpu.num_cores);
    cm_free(s);
    return m;
}

static void test_static_limits(void **state) {
    (void)state;
    const unsigned n_iv = 12;
    double base = run_static(NULL, n_iv), w4 = run_static("4", n_iv), w1 = run_static("1", n_iv);
    printf("# STREAM (test size) alone: warps issuing per core-interval: %.1f at 48 warps, %.1f at static 4, "
           "%.1f at static 1\n", base, w4, w1);
    /* a limit of L lets about L warps issue at a time; over an interval a
     * few more, since a warp that exits (or waits at a barrier) gives its
     * place to the next in GTO order (docs/SIMT.md): the triad's warps are
     * short, so two to three times L issue per interval (11.9 at 4, 3.1 at
     * 1, against 34.4 unlimited) */
    assert_true(w4 <= 4 * 4 && w1 <= 4 * 1);
    assert_true(base >= 2 * w4 && w4 > 2 * w1);
}

/* cycles (after cm_tick) at which a core's limit changed */
typedef struct {
    uint64_t at[64];
    unsigned n;
} changes;

static void record(cm_sys *s, unsigned cores, unsigned *last, changes *ch) {
    for (unsigned i = 0; i < cores; i++) {
        unsigned l = cmbal_warp_limit(cm_bal(s), i);
        if (l != last[i] && ch[i].n < 64) ch[i].at[ch[i].n++] = cm_cycle(s);
        last[i] = l;
    }
}

static void test_cm_cpu_lowers_limits(void **state) {
    (void)state;
    cm_config c;
    load(&c, (const char *const[]){"cmbal.scheme=cm_cpu", NULL}); /* the monitor as verilated RTL */
    cm_sys *s = make(&c, "H2");
    const unsigned n_iv = 30, nc = c.gpu.num_cores;
    unsigned last[CM_MAX_GPU];
    changes ch[CM_MAX_GPU] = {0};
    for (unsigned i = 0; i < nc; i++) last[i] = cmbal_warp_limit(cm_bal(s), i);
    for (uint64_t n = 0; n < (uint64_t)n_iv * c.interval; n++) {
        tick(s, 1);
        record(s, nc, last, ch);
    }
    const cm_interval *first = cm_interval_at(s, 1), *end = cm_interval_at(s, n_iv - 1);
    double early = 0, late = 0;
    for (unsigned k = 1; k < 4; k++)
        for (unsigned i = 0; i < nc; i++) early += cm_interval_at(s, k)->issued_warps[i];
    for (unsigned k = n_iv - 3; k < n_iv; k++)
        for (unsigned i = 0; i < nc; i++) late += cm_interval_at(s, k)->issued_warps[i];
    early /= 3.0 * nc;
    late /= 3.0 * nc;
    printf("# CM-CPU, H2 beside STREAM (test size): limit %.0f -> %.0f warps over %u intervals (%u changes), "
           "warps issuing per core-interval %.1f -> %.1f\n", first->warp_limit[0], end->warp_limit[0], n_iv,
           ch[0].n, early, late);
    assert_true(end->warp_limit[0] <= 30 && first->warp_limit[0] >= 44);
    for (unsigned i = 0; i < nc; i++) {
        assert_true(end->warp_limit[i] == end->warp_limit[0]); /* one limit for all (CM 4.1) */
        assert_int_equal(ch[i].n, ch[0].n);
        for (unsigned j = 0; j < ch[i].n; j++) {
            assert_int_equal(ch[i].at[j], ch[0].at[j]);                /* every core in the same cycle */
            /* obeyed from GPU cycle E + 1 (cm_cycle after the tick of E) */
            assert_int_equal(ch[i].at[j] % c.bal.interval, 0);
        }
    }
    /* the cores issue from fewer warps (a few more than the limit: warps of
     * the test-size triad are short, and as the oldest finish the next ones
     * move into the first L of the GTO order) */
    assert_true(late < 0.8 * early);
    cm_free(s);
}

static void test_lockstep_workload(void **state) {
    (void)state;
    cm_config c;
    load(&c, (const char *const[]){"cmbal.scheme=cm_bal1", "cmbal.impl=lockstep", NULL});
    cm_sys *s = make(&c, "H2");
    const unsigned n_iv = 40, nc = c.gpu.num_cores;
    unsigned last[CM_MAX_GPU], low = 48;
    changes ch[CM_MAX_GPU] = {0};
    for (unsigned i = 0; i < nc; i++) last[i] = cmbal_warp_limit(cm_bal(s), i);
    for (uint64_t n = 0; n < (uint64_t)n_iv * c.interval; n++) {
        tick(s, 1); /* fails at the first lockstep divergence (cm_error) */
        record(s, nc, last, ch);
    }
    unsigned moved = 0;
    for (unsigned i = 0; i < nc; i++) {
        moved += ch[i].n > 0;
        for (unsigned k = 0; k < n_iv; k++)
            if (cm_interval_at(s, k)->warp_limit[i] < low) low = (unsigned)cm_interval_at(s, k)->warp_limit[i];
        /* core c's new level is read the edge after its commit (E + 5 + c)
         * and obeyed from the next cycle, E + 7 + c (E = interval - 1) */
        for (unsigned j = 0; j < ch[i].n; j++) assert_int_equal(ch[i].at[j] % c.bal.interval, (6 + i) % c.bal.interval);
    }
    cm_totals t;
    cm_get_totals(s, &t);
    printf("# CM-BAL1 in lockstep (RTL vs twin), H2 beside STREAM (test size): %u intervals, %u GPU runs "
           "(kernel boundaries), %u of %u cores changed limits, lowest %u warps, GPU IPC %.2f\n", n_iv, t.gpu_runs,
           moved, nc, low, (double)t.gpu_warp_instrs / (double)t.cycles);
    assert_true(t.gpu_runs >= 2 && moved == nc && low < 48);
    assert_null(cm_error(s));
    cm_free(s);
}

static void test_dyncta_one_block(void **state) {
    (void)state;
    cm_config c;
    /* C_mem > 0 lowers, nothing raises: the limit stays at 1 block (8 warps) */
    load(&c, (const char *const[]){"cmbal.scheme=dyncta", "cmbal.dyncta_init_ctas=1", "cmbal.dyncta_t_mem_l=0",
                                   "cmbal.dyncta_t_mem_h=0", "cmbal.dyncta_t_idle=16777216", NULL});
    cm_sys *s = make(&c, NULL);
    const unsigned n_iv = 12;
    tick(s, (uint64_t)n_iv * c.interval);
    for (unsigned k = 1; k < n_iv; k++)
        for (unsigned i = 0; i < c.gpu.num_cores; i++) {
            assert_true(cm_interval_at(s, k)->cta_limit[i] == 1);
            assert_true(cm_interval_at(s, k)->warp_limit[i] == 48);
        }
    double one = mean_issued(s, 1, c.gpu.num_cores);
    cm_free(s);
    printf("# DYNCTA held at 1 block of 8 warps: %.1f warps issuing per core-interval\n", one);
    assert_true(one <= 12 && one >= 4);
}

/* gpu_set_block_limit's pausing: with the paper-size triad (16 elements per
 * thread, blocks that live long) every core holds 6 blocks of 8 warps; a
 * limit of 1 block with pausing lets only the oldest block's warps issue from
 * the next cycle, without pausing all 6 keep issuing until they end. */
static unsigned issuing_after_limit(bool pause) {
    cm_config c;
    load(&c, NULL);
    char err[600];
    cm_gpu_work w = {"stream", "paper", tb_kernel_dir()};
    cm_sys *s = cm_new(&c, NULL, &w, 3, err, sizeof err);
    if (!s) fail_msg("%s", err);
    cm_gpu_on(s, true);
    tick(s, 4000);
    gpu_t *g = cm_gpu(s);
    assert_int_equal(gpu_blocks_per_core(g), 6); /* 256 threads: 1536 / 256 */
    unsigned most = 0;
    for (unsigned i = 0; i < c.gpu.num_cores; i++) {
        gpu_set_block_limit(g, i, 1, pause);
        gpu_take_issued_warps(g, i);
    }
    tick(s, 1024);
    for (unsigned i = 0; i < c.gpu.num_cores; i++) {
        unsigned n = (unsigned)__builtin_popcountll(gpu_take_issued_warps(g, i));
        if (n > most) most = n;
    }
    cm_free(s);
    return most;
}

static void test_block_pause(void **state) {
    (void)state;
    unsigned paused = issuing_after_limit(true), running = issuing_after_limit(false);
    printf("# block limit 1 on 6 resident blocks: at most %u warps of a core issue in the next 1024 cycles "
           "with pausing, %u without\n", paused, running);
    assert_true(paused <= 8);
    assert_true(running > 24);
}

static void expect_refused2(const char *set, const char *set2, const char *what) {
    cm_config c;
    cm_config_default(&c);
    fg_config *cf = fg_config_new();
    char err[600] = "";
    if (fg_config_load(cf, "configs/cm.ini", err, sizeof err) || fg_config_set(cf, set, err, sizeof err) ||
        (set2 && fg_config_set(cf, set2, err, sizeof err)))
        fail_msg("%s", err);
    int rc = cm_config_load(&c, cf, err, sizeof err);
    if (!rc) rc = fg_config_check_unused(cf, err, sizeof err);
    if (!rc) { /* values the machine decides: refused by cm_new */
        cm_gpu_work w = {"stream", "test", tb_kernel_dir()};
        cm_sys *s = cm_new(&c, NULL, &w, 1, err, sizeof err);
        if (s) {
            cm_free(s);
            fail_msg("%s accepted", set);
        }
    }
    fg_config_free(cf);
    printf("# %s: %s\n", set, err);
    if (!strstr(err, what)) fail_msg("%s: message '%s' does not name '%s'", set, err, what);
}

static void expect_refused(const char *set, const char *what) { expect_refused2(set, NULL, what); }

static void test_bad_config(void **state) {
    (void)state;
    expect_refused("cmbal.scheme=cm_bal5", "scheme");
    expect_refused("cmbal.static_warps=0", "static_warps");
    expect_refused("cmbal.static_warps=4x", "static_warps");
    expect_refused("cmbal.impl=verilog", "impl");
    expect_refused("cmbal.t_high=0.3", "t_high");
    expect_refused("cmbal.t_low=2", "t_low");
    expect_refused("cmbal.k_bal1=-1", "k_bal1");
    expect_refused("cmbal.levels=1,2,2,48", "levels");
    expect_refused2("cmbal.levels=1,2,4,32", "cmbal.scheme=cm_bal1", "levels");
    expect_refused2("cmbal.interval=16", "cmbal.scheme=cm_bal1", "interval");
    expect_refused("cmbal.dyncta_t_mem_l=1000", "dyncta_t_mem_l"); /* above configs/cm.ini's t_mem_h = 768 */
    expect_refused("cmbal.dyncta_pause=maybe", "dyncta_pause");
    expect_refused("cmbal.colour=blue", "colour");
    expect_refused("cmbal.protect_events=maybe", "protect_events");
    expect_refused("cmbal.protect_warps=0", "protect_warps");
    expect_refused("cmbal.protect_warps=64", "protect_warps");
    expect_refused2("cmbal.protect_warps=49", "cmbal.protect_events=core", "protect_warps"); /* 48 warps per core */
    cm_config c;
    load(&c, (const char *const[]){"cmbal.scheme=static", "cmbal.static_warps=49", NULL});
    char err[600];
    cm_gpu_work w = {"stream", "test", tb_kernel_dir()};
    assert_null(cm_new(&c, NULL, &w, 1, err, sizeof err));
    assert_non_null(strstr(err, "static_warps"));
    /* the RTL is verilated at the paper's thresholds; another runs on the twin */
    load(&c, (const char *const[]){"cmbal.scheme=cm_cpu", "cmbal.t_high=0.75", NULL});
    assert_null(cm_new(&c, NULL, &w, 1, err, sizeof err));
    printf("# cm_cpu, t_high = 0.75, impl = rtl: %s\n", err);
    assert_non_null(strstr(err, "impl = c"));
    c.bal.impl = FG_IMPL_C;
    cm_sys *s = cm_new(&c, NULL, &w, 1, err, sizeof err);
    assert_non_null(s);
    cm_free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_static_limits),
        cmocka_unit_test(test_cm_cpu_lowers_limits),
        cmocka_unit_test(test_lockstep_workload),
        cmocka_unit_test(test_dyncta_one_block),
        cmocka_unit_test(test_block_pause),
        cmocka_unit_test(test_bad_config),
    };
    return tb_run_tests("cm_bal_loop", tests);
}
