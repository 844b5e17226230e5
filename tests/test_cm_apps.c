/* The GPU applications of CM Table II (sim/work/cm_apps.c behind
 * bg_kernels.h; docs/CM_APPS.md) on the CM machine's GPU (configs/cm.ini
 * [gpu] and [mem]): each at its test size must match its host reference,
 * twice on the same bg_run (the second run's check must see the second
 * run's results), PVC, SSSP and MST also with their atomics performed at the L2
 * ([gpu] atomics = memory); a corrupted output element must be caught and named; a
 * kernel with barriers must finish with an active-warp limit of 1 (the
 * limit does not count warps waiting at a barrier); the names must be
 * those cm_run accepts.  CM_APPS_SIZE=paper runs the CM sizes instead
 * (minutes), CM_APPS_ONLY=name one application. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm/cm_sys.h"
#include "bg_tb.h"
#include "fg_tb.h"
#include "gpu_tb.h"
#include "simt/gpu.h"
#include "work/bg_kernels.h"

/* every application of cm_apps.c, and whether its output is integers */
static const struct {
    const char *name;
    bool is_int;
} APPS[] = {{"hot", false}, {"path", true}, {"blk", false}, {"pvc", true},  {"pvr", true},
            {"mum", true},  {"iix", true},  {"sssp", true}, {"mst", true}, {"sp", false}};
#define NAPPS (sizeof APPS / sizeof APPS[0])

static gpu_t *mk_gpu(unsigned atomics) {
    cm_config c;
    cm_config_default(&c);
    fg_config *cf = fg_config_new();
    char err[512];
    if (fg_config_load(cf, "configs/cm.ini", err, sizeof err) || cm_config_load(&c, cf, err, sizeof err))
        fail_msg("configs/cm.ini: %s", err);
    fg_config_free(cf);
    c.gpu.atomics = atomics;
    gpu_t *g = gpu_new(&c.gpu, err, sizeof err);
    if (!g) fail_msg("gpu_new: %s", err);
    return g;
}

static void run_app(const char *name, const char *size, bool is_int, unsigned limit, unsigned atomics) {
    gpu_t *g = mk_gpu(atomics);
    char err[512];
    bg_run *b = bg_new(g, name, size, tb_kernel_dir(), 1, err, sizeof err);
    if (!b) fail_msg("%s", err);
    if (limit)
        for (unsigned i = 0; i < 64; i++) gpu_set_active_warp_limit(g, i, limit);
    for (int run = 0; run < 2; run++) {
        const double t0 = fg_now(FG_CLOCK_CPU);
        const uint64_t cyc = bg_run_alone(g, b, limit ? 2000000ull : 50000000ull, err, sizeof err);
        if (!cyc) fail_msg("%s %s run %d: %s", name, size, run, err);
        if (bg_check(b, err, sizeof err)) fail_msg("%s %s run %d: %s", name, size, run, err);
        printf("# %s %s%s%s run %d: %s; %u regs/thread, %llu cycles, %u launches, %.2f s cpu\n", name, size,
               limit ? " (limit 1)" : "", atomics == GPU_ATOMICS_MEMORY ? " (atomics = memory)" : "", run, bg_describe(b), bg_regs_per_thread(b), (unsigned long long)cyc,
               bg_launches(b), fg_now(FG_CLOCK_CPU) - t0);
        if (run == 0 && !limit) tb_bg_corrupt_and_check(b, g, is_int);
        if (limit) break;
    }
    bg_free(b);
    gpu_free(g);
}

static void test_apps(void **state) {
    (void)state;
    const char *only = getenv("CM_APPS_ONLY");
    const char *size = getenv("CM_APPS_SIZE") && !strcmp(getenv("CM_APPS_SIZE"), "paper") ? "paper" : "test";
    for (unsigned i = 0; i < NAPPS; i++)
        if (!only || !strcmp(only, APPS[i].name)) run_app(APPS[i].name, size, APPS[i].is_int, 0, GPU_ATOMICS_ISSUE);
}

/* The applications with global atomics (PVC's atomicAdd, SSSP's and MST's atomicMin)
 * with them performed at the L2 ([gpu] atomics = memory): the same outputs. */
static void test_atomics_memory(void **state) {
    (void)state;
    run_app("pvc", "test", true, 0, GPU_ATOMICS_MEMORY);
    run_app("sssp", "test", true, 0, GPU_ATOMICS_MEMORY);
    run_app("mst", "test", true, 0, GPU_ATOMICS_MEMORY);
}

/* PATH's blocks of 8 warps meet a barrier every row: with one active warp
 * a core must still finish them. */
static void test_barrier_limit_1(void **state) {
    (void)state;
    run_app("path", "test", true, 1, GPU_ATOMICS_ISSUE);
}

/* Every application is a name bg_new (and so cm_run --gpu) accepts, listed
 * by bg_kernel_name after the background kernels; an unknown name's error
 * lists them. */
static void test_names(void **state) {
    (void)state;
    for (unsigned i = 0; i < NAPPS; i++) {
        assert_true(bg_kernel_known(APPS[i].name));
        bool listed = false;
        for (unsigned k = 0; bg_kernel_name(k); k++) listed |= !strcmp(bg_kernel_name(k), APPS[i].name);
        assert_true(listed);
    }
    assert_true(bg_kernel_known("mm") && bg_kernel_known("stream"));
    assert_false(bg_kernel_known("fft"));
    assert_false(bg_kernel_known(NULL));
    gpu_t *g = mk_gpu(GPU_ATOMICS_ISSUE);
    char err[512];
    assert_null(bg_new(g, "fft", "test", tb_kernel_dir(), 1, err, sizeof err));
    printf("# error: %s\n", err);
    assert_non_null(strstr(err, "unknown background kernel 'fft'"));
    assert_non_null(strstr(err, " mum"));
    assert_null(bg_new(g, "mum", "huge", tb_kernel_dir(), 1, err, sizeof err));
    assert_non_null(strstr(err, "unknown size 'huge'"));
    assert_null(bg_new(g, "iix", "test", "/nonexistent", 1, err, sizeof err));
    assert_non_null(strstr(err, "cannot open"));
    gpu_free(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_apps),
        cmocka_unit_test(test_atomics_memory),
        cmocka_unit_test(test_barrier_limit_1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
