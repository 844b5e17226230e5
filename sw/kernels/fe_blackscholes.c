/* BlackScholes (F/E Table 3, CUDA SDK BlackScholes): European call and put
 * prices of each option, one option per thread (grid-stride loop).  The
 * arithmetic (fe_bs_body, fe_args.h) is shared with the host reference in
 * sim/fe/fe_bench.c. */
#include "fg_kernel.h"
#include "fe_args.h"

void fe_blackscholes(const fe_bs_args *p) {
    const float *s = (const float *)(uintptr_t)p->s, *x = (const float *)(uintptr_t)p->x;
    const float *t = (const float *)(uintptr_t)p->t;
    float *call = (float *)(uintptr_t)p->call, *put = (float *)(uintptr_t)p->put;
    const uint32_t stride = fg_grid_dim_x() * fg_block_dim_x();
    for (uint32_t i = fg_global_id_x(); i < p->n; i += stride) {
        float c, q;
        fe_bs_body(s[i], x[i], t[i], p->r, p->v, &c, &q);
        call[i] = c;
        put[i] = q;
    }
}
