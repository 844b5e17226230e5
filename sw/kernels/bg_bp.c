/* BP background kernels (EDGE Sec. V: Back Propagation from Rodinia).
 * C ports of Rodinia's bpnn_layerforward_CUDA and bpnn_adjust_weights_cuda:
 * grid (1, in / 16), block (16, 16), hidden layer of 16 units.
 *
 * bg_bp_forward: each block multiplies 16 input units by their 16x16 weights
 * in shared memory and reduces the 16 rows by a tree (log2(16) = 4 steps,
 * a barrier after each), 3 + 4 + 1 = 8 barriers per thread; thread (0, ty)
 * writes the block's partial sum of hidden unit ty + 1.  As in Rodinia the
 * kernel also writes the partly reduced products back over the weights (the
 * host restores them before the second kernel).
 * bg_bp_adjust: w += ETA * delta * ly + MOMENTUM * oldw (and oldw = the
 * step) for every weight, one barrier, then block 0 adjusts the bias row.
 * Host reference: sim/work/bg_kernels.c (bp_forward_ref, bp_adjust_ref). */
#include "fg_kernel.h"
#include "bg_args.h"

#define WIDTH BG_BP_WIDTH
#define HEIGHT BG_BP_HEIGHT

FG_SHARED static float input_node[HEIGHT];
FG_SHARED static float weight_matrix[HEIGHT][WIDTH];

void bg_bp_forward(const bg_bp_args *p) {
    const int by = (int)fg_block_idx_y();
    const int tx = (int)fg_thread_idx_x(), ty = (int)fg_thread_idx_y();
    const int hid = p->hid;
    const int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    const int index_in = HEIGHT * by + ty + 1;
    const float *input = (const float *)(uintptr_t)p->input;
    float *w = (float *)(uintptr_t)p->weights;
    float *partial = (float *)(uintptr_t)p->partial_sum;

    if (tx == 0) input_node[ty] = input[index_in];
    fg_sync();
    weight_matrix[ty][tx] = w[index];
    fg_sync();
    weight_matrix[ty][tx] = weight_matrix[ty][tx] * input_node[ty];
    fg_sync();
    for (int i = 1; i <= 4; i++) { /* i <= log2(HEIGHT) */
        const int power_two = 1 << i;
        if (ty % power_two == 0) weight_matrix[ty][tx] = weight_matrix[ty][tx] + weight_matrix[ty + power_two / 2][tx];
        fg_sync();
    }
    w[index] = weight_matrix[ty][tx];
    fg_sync();
    if (tx == 0) partial[by * hid + ty] = weight_matrix[tx][ty];
}

void bg_bp_adjust(const bg_bp_args *p) {
    const int by = (int)fg_block_idx_y();
    const int tx = (int)fg_thread_idx_x(), ty = (int)fg_thread_idx_y();
    const int hid = p->hid;
    const int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    const int index_y = HEIGHT * by + ty + 1;
    const int index_x = tx + 1;
    const float *delta = (const float *)(uintptr_t)p->delta;
    const float *ly = (const float *)(uintptr_t)p->input;
    float *w = (float *)(uintptr_t)p->weights;
    float *oldw = (float *)(uintptr_t)p->oldw;

    w[index] += BG_BP_ETA * delta[index_x] * ly[index_y] + BG_BP_MOMENTUM * oldw[index];
    oldw[index] = BG_BP_ETA * delta[index_x] * ly[index_y] + BG_BP_MOMENTUM * oldw[index];
    fg_sync();
    if (ty == 0 && by == 0) {
        w[index_x] += BG_BP_ETA * delta[index_x] + BG_BP_MOMENTUM * oldw[index_x];
        oldw[index_x] = BG_BP_ETA * delta[index_x] + BG_BP_MOMENTUM * oldw[index_x];
    }
}
