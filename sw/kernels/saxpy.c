/* saxpy: out[i] = a * x[i] + y[i], the worked example of docs/SIMT.md
 * ("Writing and running a kernel"); run it with build/bin/fg_run:
 *
 *   build/bin/fg_run --kernel build/sw/saxpy.elf --entry saxpy --grid 4 --block 256 \
 *       --buf x=f32:1024:ramp --buf y=f32:1024:fill:1 --buf out=f32:1024 \
 *       --arg u32:1000 --arg f32:2.5 --arg buf:x --arg buf:y --arg buf:out --print out:8
 *
 * The parameter block is the --arg list in order, 4 bytes each, so the
 * struct below lists the same fields in the same order (pointers are 32-bit
 * on the GPU).  Any 1-D grid works: the loop strides over the whole grid. */
#include "fg_kernel.h"

struct saxpy_args {
    uint32_t n;
    float a;
    const float *x, *y;
    float *out;
};

void saxpy(const struct saxpy_args *p) {
    uint32_t stride = fg_grid_dim_x() * fg_block_dim_x();
    for (uint32_t i = fg_global_id_x(); i < p->n; i += stride) p->out[i] = p->a * p->x[i] + p->y[i];
}
