/* histogram64 (F/E Table 3, CUDA SDK histogram64): 64 bins of the top 6
 * bits of every byte of the data.  Pass 1 (fe_hist64): each block counts
 * its words into a shared-memory histogram with shared atomics and writes
 * it as one partial histogram; pass 2 (fe_hist64_merge, one block of 64
 * threads): each thread sums its bin over the partial histograms.  Host
 * reference: sim/fe/fe_bench.c. */
#include "fg_kernel.h"
#include "fe_args.h"

FG_SHARED static uint32_t bins[FE_HIST_BINS];

void fe_hist64(const fe_hist_args *p) {
    const uint32_t tid = fg_thread_idx_x(), nt = fg_block_dim_x();
    const uint32_t *data = (const uint32_t *)(uintptr_t)p->data;
    for (uint32_t b = tid; b < FE_HIST_BINS; b += nt) bins[b] = 0;
    fg_sync();
    for (uint32_t i = fg_block_idx_x() * nt + tid; i < p->n_words; i += fg_grid_dim_x() * nt) {
        uint32_t w = data[i];
        fg_atomic_add(&bins[(w >> 2) & 63u], 1);
        fg_atomic_add(&bins[(w >> 10) & 63u], 1);
        fg_atomic_add(&bins[(w >> 18) & 63u], 1);
        fg_atomic_add(&bins[(w >> 26) & 63u], 1);
    }
    fg_sync();
    uint32_t *partial = (uint32_t *)(uintptr_t)p->partial + fg_block_idx_x() * FE_HIST_BINS;
    for (uint32_t b = tid; b < FE_HIST_BINS; b += nt) partial[b] = bins[b];
}

void fe_hist64_merge(const fe_hist_args *p) {
    const uint32_t bin = fg_thread_idx_x();
    const uint32_t *partial = (const uint32_t *)(uintptr_t)p->partial;
    uint32_t sum = 0;
    for (uint32_t b = 0; b < p->n_blocks; b++) sum += partial[b * FE_HIST_BINS + bin];
    ((uint32_t *)(uintptr_t)p->result)[bin] = sum;
}
