/* STREAM triad (McCalpin's STREAM, as its CUDA ports write it): a[i] = b[i]
 * + s * c[i], one element per thread per step of a grid-stride loop.  Each
 * warp's loads and store cover whole 128 B lines (32 consecutive floats), no
 * element is touched twice: two line reads and one line write per 32
 * elements, the memory-bound GPU workload of the CM machine
 * (docs/CM_MACHINE.md).  Host reference: make_ref in sim/work/bg_kernels.c
 * (the same expression in the same float order). */
#include "fg_kernel.h"
#include "bg_args.h"

void bg_stream_triad(const bg_stream_args *p) {
    float *a = (float *)(uintptr_t)p->a;
    const float *b = (const float *)(uintptr_t)p->b, *c = (const float *)(uintptr_t)p->c;
    const float s = p->s;
    const int stride = (int)(fg_grid_dim_x() * BG_STREAM_THREADS);
    for (int i = (int)fg_global_id_x(); i < p->n; i += stride) a[i] = b[i] + s * c[i];
}
