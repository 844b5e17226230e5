/* mem_copy: streaming copy dst[i] = src[i] over the whole grid, the
 * bandwidth microbenchmark of build/bin/mem_bench (results/mem_bench.json,
 * `achieved_dram_gbps`; docs/MEM.md).
 *
 * Each thread moves UNROLL words per trip, issuing all UNROLL loads before
 * the first store so that a warp keeps UNROLL line reads in flight (the SIMT
 * model allows max_inflight_loads per warp); consecutive lanes read
 * consecutive words, so each warp load is one 128 B line. */
#include "fg_kernel.h"

#define UNROLL 4

struct mem_copy_args {
    const uint32_t *src;
    uint32_t *dst;
    uint32_t n; /* words; any value (the tail is handled) */
};

void mem_copy(const struct mem_copy_args *p) {
    const uint32_t stride = fg_grid_dim_x() * fg_block_dim_x();
    const uint32_t n = p->n;
    uint32_t i = fg_global_id_x();
    for (; i + (UNROLL - 1) * stride < n; i += UNROLL * stride) {
        uint32_t v[UNROLL];
        for (unsigned u = 0; u < UNROLL; u++) v[u] = p->src[i + u * stride];
        for (unsigned u = 0; u < UNROLL; u++) p->dst[i + u * stride] = v[u];
    }
    for (; i < n; i += stride) p->dst[i] = p->src[i];
}
