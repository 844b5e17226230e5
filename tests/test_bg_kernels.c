/* Background kernels CONV, MM, BP, BFS, CONV2, SC, KMN, SRAD, LUD (sim/work/bg_kernels.h, EDGE Sec. V,
 * VI-B/C) and the CM machine's STREAM triad: each runs at its "test" size on the EDGE Table II GPU
 * (gpu_config_default), driven through bg_on_complete by callbacks the test
 * owns, and must match the host reference; the kernel must be able to fill
 * a core (2048 threads' registers fit) and, at test size, does fill one; a
 * corrupted output element must be caught; bad names / sizes / directories
 * and misuse give clear errors.  Prints registers per thread, cycles and
 * wall time per kernel.  BG_SIZE=paper also runs the paper sizes (slow; the
 * figures of docs/BG_KERNELS.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bg_tb.h"
#include "fg_tb.h"
#include "gpu_tb.h"
#include "simt/gpu.h"
#include "simt/gpu_internal.h"
#include "work/bg_kernels.h"

static gpu_t *mk_gpu(gpu_config *c) {
    char err[256];
    gpu_config_default(c); /* EDGE Table II: 16 cores x 2048 threads, 16 blocks, 65536 registers */
    gpu_t *g = gpu_new(c, err, sizeof err);
    if (!g) fail_msg("gpu_new: %s", err);
    return g;
}

typedef struct {
    bg_run *b;
    unsigned mine, foreign;
} fwd;
static void on_complete(void *u, uint64_t tag, uint64_t cycle) {
    fwd *f = u;
    if (bg_on_complete(f->b, tag, cycle)) f->mine++;
    else f->foreign++;
}

static double now_s(clockid_t id) {
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Runs one background kernel with callbacks the test owns (the way the
 * experiment will), checks it and reports its figures. */
static void run_kernel(const char *name, const char *size, bool is_int) {
    gpu_config c;
    gpu_t *g = mk_gpu(&c);
    char err[512];
    bg_run *b = bg_new(g, name, size, tb_kernel_dir(), 1, err, sizeof err);
    if (!b) fail_msg("%s", err);
    const unsigned regs = bg_regs_per_thread(b);
    /* a block shape and register count that can fill a core with threads */
    assert_true(regs > 0);
    assert_true(regs * c.max_threads_per_core <= c.regs_per_core);

    fwd f = {b, 0, 0};
    gpu_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.complete = on_complete;
    cb.user = &f;
    gpu_set_callbacks(g, &cb);
    assert_false(bg_on_complete(b, 7, 0));           /* not running: nothing is ours */
    assert_int_equal(bg_check(b, err, sizeof err), -1); /* not run yet */
    assert_non_null(strstr(err, "not finished"));

    const double t0 = now_s(CLOCK_MONOTONIC), cpu0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
    if (bg_start(b, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(bg_start(b, err, sizeof err), -1); /* already running */
    assert_non_null(strstr(err, "already running"));
    assert_false(bg_on_complete(b, 7, 0));           /* a foreign tag */
    assert_false(bg_on_complete(b, BG_TAG_BASE, 0)); /* a tag in the range but not this launch */
    const uint64_t c0 = gpu_cycle(g), limit = 400000000ull;
    unsigned peak = 0;
    while (!bg_done(b)) {
        if (gpu_error(g)) fail_msg("%s: kernel fault: %s", name, gpu_error(g));
        if (gpu_cycle(g) - c0 > limit) fail_msg("%s: not finished after %llu cycles", name, (unsigned long long)limit);
        gpu_tick(g);
        if ((gpu_cycle(g) & 63) == 0)
            for (unsigned i = 0; i < c.num_cores; i++)
                if (g->core[i].used_threads > peak) peak = g->core[i].used_threads;
    }
    const double wall = now_s(CLOCK_MONOTONIC) - t0, cpu = now_s(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
    if (bg_check(b, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(f.mine, bg_launches(b));
    assert_int_equal(f.foreign, 0);
    gpu_stats st;
    gpu_get_stats(g, &st);
    printf("# %s %s: %s\n#   %u regs/thread, %llu cycles, %u launches, peak %u threads on a core, "
           "%.1f M warp instr, %.2f s wall, %.2f s cpu\n",
           name, size, bg_describe(b), regs, (unsigned long long)bg_cycles(b), bg_launches(b), peak,
           (double)st.warp_instrs / 1e6, wall, cpu);
    printf("#   memory: global load latency %.0f cycles on average, L2 hit rate %.0f %%, DRAM %.1f GB/s (%.0f %% busy)\n",
           st.avg_load_latency, 100 * st.l2_hit_rate, st.dram_gbps, 100 * st.dram_util);
    assert_int_equal(st.mem_requests, st.mem_responses); /* no request lost or duplicated */
    if (!strcmp(size, "test")) assert_int_equal(peak, c.max_threads_per_core); /* fills a core */
    tb_bg_corrupt_and_check(b, g, is_int);
    bg_free(b);
    gpu_free(g);
}

static void test_conv(void **state) { (void)state; run_kernel("conv", "test", false); }
static void test_mm(void **state) { (void)state; run_kernel("mm", "test", false); }
static void test_bp(void **state) { (void)state; run_kernel("bp", "test", false); }
static void test_bfs(void **state) { (void)state; run_kernel("bfs", "test", true); }
static void test_stream(void **state) { (void)state; run_kernel("stream", "test", false); }
static void test_conv2(void **state) { (void)state; run_kernel("conv2", "test", false); }
static void test_sc(void **state) { (void)state; run_kernel("sc", "test", false); }
static void test_kmn(void **state) { (void)state; run_kernel("kmn", "test", true); }
static void test_srad(void **state) { (void)state; run_kernel("srad", "test", false); }
static void test_lud(void **state) { (void)state; run_kernel("lud", "test", false); }

/* bg_run_alone, run twice on the same bg_run (same inputs, same buffers) */
static void test_run_alone_again(void **state) {
    (void)state;
    gpu_config c;
    gpu_t *g = mk_gpu(&c);
    char err[512];
    bg_run *b = bg_new(g, "bfs", "test", tb_kernel_dir(), 2, err, sizeof err);
    if (!b) fail_msg("%s", err);
    for (int i = 0; i < 2; i++) {
        uint64_t cyc = bg_run_alone(g, b, 100000000ull, err, sizeof err);
        if (!cyc) fail_msg("%s", err);
        assert_int_equal(cyc, bg_cycles(b));
        if (bg_check(b, err, sizeof err)) fail_msg("run %d: %s", i, err);
        printf("# bfs test, seed 2, run %d alone: %llu cycles, %u launches (%u levels)\n", i,
               (unsigned long long)cyc, bg_launches(b), bg_launches(b) / 2);
    }
    /* a budget too small: a clear error, not a hang */
    assert_int_equal(bg_run_alone(g, b, 1000, err, sizeof err), 0);
    assert_non_null(strstr(err, "not finished"));
    bg_free(b);
    gpu_free(g);
}

static void expect_new_err(gpu_t *g, const char *name, const char *size, const char *dir, const char *what) {
    char err[512] = "";
    bg_run *b = bg_new(g, name, size, dir, 1, err, sizeof err);
    assert_null(b);
    if (!strstr(err, what)) fail_msg("expected '%s' in: %s", what, err);
    printf("# error: %s\n", err);
}

static void test_errors(void **state) {
    (void)state;
    gpu_config c;
    gpu_t *g = mk_gpu(&c);
    expect_new_err(g, "fft", "test", tb_kernel_dir(), "unknown background kernel 'fft'");
    expect_new_err(g, NULL, "test", tb_kernel_dir(), "unknown background kernel");
    expect_new_err(g, "mm", "huge", tb_kernel_dir(), "unknown size 'huge'");
    expect_new_err(g, "mm", NULL, tb_kernel_dir(), "unknown size");
    expect_new_err(g, "conv", "test", "/nonexistent", "cannot open");
    expect_new_err(NULL, "mm", "test", tb_kernel_dir(), "no gpu");
    gpu_free(g);
}

/* The paper sizes, one after the other (docs/BG_KERNELS.md): registered
 * only when BG_SIZE=paper is set (about two minutes of CPU time), so that
 * make test never counts a test that ran nothing.  The Fig. 11 sweep
 * (make demo / make results) also runs every kernel at these sizes and checks
 * every result. */
static void test_paper(void **state) {
    (void)state;
    const char *only = getenv("BG_ONLY");
    static const char *const names[] = {"conv", "mm", "bp", "bfs", "conv2", "sc", "kmn", "srad", "lud"};
    static const bool is_int[] = {false, false, false, true, false, false, true, false, false};
    for (int i = 0; i < 9; i++)
        if (!only || !strcmp(only, names[i])) run_kernel(names[i], "paper", is_int[i]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conv),   cmocka_unit_test(test_mm),
        cmocka_unit_test(test_bp),     cmocka_unit_test(test_bfs),
        cmocka_unit_test(test_stream), cmocka_unit_test(test_conv2),
        cmocka_unit_test(test_sc),
        cmocka_unit_test(test_kmn),    cmocka_unit_test(test_srad),
        cmocka_unit_test(test_lud),
        cmocka_unit_test(test_run_alone_again), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_paper),
    };
    const char *s = getenv("BG_SIZE");
    const size_t n = sizeof tests / sizeof tests[0] - !(s && !strcmp(s, "paper"));
    if (n < sizeof tests / sizeof tests[0]) printf("# paper sizes not registered (BG_SIZE=paper runs them)\n");
    return _cmocka_run_group_tests("bg_kernels", tests, n, NULL, NULL);
}
