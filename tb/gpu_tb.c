/* Test-bench helpers of the GPU-level tests; see gpu_tb.h. */
#include "gpu_tb.h"

#include <stdio.h>
#include <stdlib.h>

#include "fg_tb.h"
#include "fg_util.h"

const char *tb_kernel_dir(void) {
    static char dir[512];
    char err[700];
    if (fg_kernel_path(dir, sizeof dir, NULL, err, sizeof err)) fail_msg("%s", err);
    return dir;
}

const char *tb_kernel_path(char *buf, size_t len, const char *name) {
    char err[700];
    if (fg_kernel_path(buf, len, name, err, sizeof err)) fail_msg("%s", err);
    return buf;
}

uint64_t tb_gpu_put(gpu_t *g, const void *p, size_t n) {
    uint64_t a = gpu_malloc(g, n);
    if (!a || gpu_mem_write(g, a, p, n)) fail_msg("no room for %zu bytes in GPU memory", n);
    return a;
}

gpu_t *tb_simt_gpu(unsigned cores) { return tb_simt_gpu_atomics(cores, GPU_ATOMICS_ISSUE); }

gpu_t *tb_simt_gpu_atomics(unsigned cores, unsigned atomics) {
    char err[256];
    gpu_config c;
    gpu_config_default(&c);
    c.num_cores = cores;
    c.atomics = atomics;
    c.global_mem_bytes = 16u << 20;
    c.mem.fe_region_bytes = 0; /* no F/E-tracked region (the default one lies beyond 16 MiB) */
    gpu_t *g = gpu_new(&c, err, sizeof err);
    if (!g) fail_msg("gpu_new: %s", err);
    return g;
}

void tb_simt_run1(gpu_t *g, const gpu_kernel *k, unsigned threads, uint64_t param, uint64_t max_cycles,
                  const char *what) {
    char err[256];
    gpu_launch_desc d = gpu_desc_1d(k, 1, threads, param);
    if (gpu_launch(g, &d, err, sizeof err)) fail_msg("%s: launch: %s", what, err);
    uint64_t end = gpu_cycle(g) + max_cycles;
    while (!gpu_idle(g) && gpu_cycle(g) < end) gpu_tick(g);
    if (gpu_error(g)) fail_msg("%s: %s", what, gpu_error(g));
    if (!gpu_idle(g)) fail_msg("%s: not done after %llu cycles", what, (unsigned long long)max_cycles);
}
