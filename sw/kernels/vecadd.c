/* vecadd: c[i] = a[i] + b[i] — the model for writing a kernel (docs/SIMT.md).
 * Launch with any 1-D grid; param_addr points at a struct vecadd_args. */
#include "fg_kernel.h"

struct vecadd_args {
    const float *a, *b;
    float *c;
    uint32_t n;
};

void vecadd(const struct vecadd_args *p) {
    uint32_t stride = fg_nctaid_x() * fg_ntid_x();
    for (uint32_t i = fg_global_id_x(); i < p->n; i += stride) p->c[i] = p->a[i] + p->b[i];
}
