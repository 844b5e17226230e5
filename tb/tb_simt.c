#include "tb_simt.h"

#include "fg_tb.h"

gpu_t *tb_simt_gpu(unsigned cores) {
    char err[256];
    gpu_config c;
    gpu_config_default(&c);
    c.num_cores = cores;
    c.global_mem_bytes = 16u << 20;
    c.mem.fe_region_bytes = 0; /* no F/E-tracked region (the default one lies beyond 16 MiB) */
    gpu_t *g = gpu_new(&c, err, sizeof err);
    if (!g) fail_msg("gpu_new: %s", err);
    return g;
}

void tb_simt_run1(gpu_t *g, const gpu_kernel *k, unsigned threads, uint64_t param, uint64_t max_cycles,
                  const char *what) {
    char err[256];
    gpu_launch_desc d = {.kernel_ptr = k->entry, .regs_per_thread = k->regs_per_thread, .param_addr = param,
                         .grid = {1, 1, 1}, .block = {threads, 1, 1}};
    if (gpu_launch(g, &d, err, sizeof err)) fail_msg("%s: launch: %s", what, err);
    uint64_t end = gpu_cycle(g) + max_cycles;
    while (!gpu_idle(g) && gpu_cycle(g) < end) gpu_tick(g);
    if (gpu_error(g)) fail_msg("%s: %s", what, gpu_error(g));
    if (!gpu_idle(g)) fail_msg("%s: not done after %llu cycles", what, (unsigned long long)max_cycles);
}
