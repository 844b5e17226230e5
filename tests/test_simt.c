/* SIMT model tests: kernels compiled from C (sw/kernels/t_*.c, vecadd.c)
 * run on the model and are checked against the same computation on the
 * host; plus ELF errors, launch limits, faults, timing and scheduling. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fg_tb.h"
#include "simt/gpu.h"
#include "simt/gpu_internal.h"

#ifndef SW_DIR
#define SW_DIR "build/sw"
#endif

static char kpath_buf[512];
static const char *kpath(const char *name) {
    const char *b = getenv("BUILD");
    snprintf(kpath_buf, sizeof kpath_buf, "%s/sw/%s.elf", b ? b : "build", name);
    return kpath_buf;
}

typedef struct {
    uint64_t first, done;
    int nfirst, ndone;
} cbrec;
static void cb_first(void *u, uint64_t tag, uint64_t cyc) {
    cbrec *r = (cbrec *)u + tag;
    if (!r->nfirst++) r->first = cyc;
}
static void cb_done(void *u, uint64_t tag, uint64_t cyc) {
    cbrec *r = (cbrec *)u + tag;
    r->ndone++;
    r->done = cyc;
}

static gpu_t *mk_gpu(gpu_config *c) {
    char err[256];
    gpu_t *g = gpu_new(c, err, sizeof err);
    if (!g) fail_msg("gpu_new: %s", err);
    return g;
}

static gpu_kernel load(gpu_t *g, const char *file, const char *sym) {
    gpu_kernel k;
    char err[256];
    if (gpu_load_kernel(g, kpath(file), sym, &k, err, sizeof err)) fail_msg("%s", err);
    return k;
}

static uint64_t put(gpu_t *g, const void *p, size_t n) {
    uint64_t a = gpu_malloc(g, n);
    assert_true(a != 0);
    assert_int_equal(gpu_mem_write(g, a, p, n), 0);
    return a;
}

/* Launches and runs to completion; returns cycles from launch to completion. */
static uint64_t run(gpu_t *g, const gpu_kernel *k, uint32_t gx, uint32_t bx, uint64_t param, cbrec *rec) {
    gpu_launch_desc d = {0};
    char err[256];
    d.kernel_ptr = k->entry;
    d.regs_per_thread = k->regs_per_thread;
    d.grid[0] = gx; d.grid[1] = d.grid[2] = 1;
    d.block[0] = bx; d.block[1] = d.block[2] = 1;
    d.param_addr = param;
    cbrec local[1] = {{0}};
    gpu_callbacks cb = {cb_first, cb_done, rec ? rec : local};
    gpu_set_callbacks(g, &cb);
    uint64_t t0 = gpu_cycle(g);
    if (gpu_launch(g, &d, err, sizeof err)) fail_msg("launch: %s", err);
    while (!gpu_idle(g)) {
        gpu_tick(g);
        if (gpu_cycle(g) - t0 > 200000000ull) fail_msg("kernel did not finish");
    }
    if (gpu_error(g)) fail_msg("kernel fault: %s", gpu_error(g));
    return gpu_cycle(g) - t0;
}

/* ---------------------------------------------------------------- vecadd */
static void test_vecadd(void **state) {
    (void)state;
    gpu_config c;
    gpu_config_default(&c);
    c.num_cores = 4;
    gpu_t *g = mk_gpu(&c);
    gpu_kernel k = load(g, "vecadd", "vecadd");
    enum { N = 10000 };
    float *a = malloc(N * 4), *b = malloc(N * 4), *r = malloc(N * 4);
    for (int i = 0; i < N; i++) { a[i] = (float)i * 0.5f; b[i] = 3.0f - (float)i; }
    uint32_t args[4];
    args[0] = (uint32_t)put(g, a, N * 4);
    args[1] = (uint32_t)put(g, b, N * 4);
    args[2] = (uint32_t)gpu_malloc(g, N * 4);
    args[3] = N;
    uint64_t pa = put(g, args, sizeof args);
    uint64_t cyc = run(g, &k, 20, 128, pa, NULL);
    gpu_mem_read(g, args[2], r, N * 4);
    for (int i = 0; i < N; i++)
        if (r[i] != a[i] + b[i]) fail_msg("c[%d] = %g, expected %g", i, r[i], a[i] + b[i]);
    printf("# vecadd N=%d: %llu cycles, regs/thread %u\n", N, (unsigned long long)cyc, k.regs_per_thread);
    free(a); free(b); free(r);
    gpu_free(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vecadd),
    };
    return cmocka_run_group_tests_name("simt", tests, NULL, NULL);
}
