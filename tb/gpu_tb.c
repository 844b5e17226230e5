/* Test-bench helpers of the GPU-level tests; see gpu_tb.h. */
#include "gpu_tb.h"

#include <stdio.h>
#include <stdlib.h>

#include "fg_tb.h"

const char *tb_kernel_path(char *buf, size_t len, const char *name) {
    const char *b = getenv("BUILD");
    snprintf(buf, len, "%s/sw/%s.elf", b && *b ? b : "build", name);
    return buf;
}

uint64_t tb_gpu_put(gpu_t *g, const void *p, size_t n) {
    uint64_t a = gpu_malloc(g, n);
    if (!a || gpu_mem_write(g, a, p, n)) fail_msg("no room for %zu bytes in GPU memory", n);
    return a;
}
