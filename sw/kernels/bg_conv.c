/* CONV background kernel (EDGE Sec. V: "filterActs YxX color" from
 * cuda-convnet, LeNet-like layer).  A C port of
 * filterActs_YxX_color<B_Y=4, B_X=32, imgsPerThread=1, filtersPerThread=4,
 * numColors=1, scale=false, checkImgBounds=true>, the instance the EDGE
 * artifact's 200-image, 16-filter, single-colour layer selects.
 *
 * Block (32, 4): thread (tx, ty) computes image blockIdx.x * 32 + tx against
 * filters ty, ty + 4, ty + 8, ty + 12 of the block's filter group, at module
 * blockIdx.y / blocksPerModule.  Per step of B_Y = 4 filter pixels the block
 * stages 4 pixels x 16 filters and 4 pixels x 32 images in shared memory,
 * with a barrier after the stores and one after the multiply-adds (two
 * barriers per step, ceil(filterPixels / 4) steps).  Host reference:
 * sim/work/bg_kernels.c (conv_ref). */
#include "fg_kernel.h"
#include "bg_args.h"

BG_RESERVE_S_REGS
BG_RESERVE_FS_REGS

#define B_Y BG_CONV_BY
#define B_X BG_CONV_BX
#define FPT BG_CONV_FPT

FG_SHARED static float sh_filters[B_Y][B_Y * FPT]; /* B_Y pixels of B_Y * FPT filters */
FG_SHARED static float sh_images[B_Y][B_X];        /* B_Y pixels of B_X images */

void bg_conv(const bg_conv_args *a) {
    const int num_images = a->num_images, num_filters = a->num_filters;
    const int img_size = a->img_size, filter_size = a->filter_size;
    const int filter_pixels = filter_size * filter_size;
    const int modules = a->modules_x * a->modules_x;
    const int blocks_per_module = num_filters / (B_Y * FPT);
    const int by = (int)fg_block_idx_y();
    const int module_idx = by / blocks_per_module;
    const int block_filter_idx = by % blocks_per_module;
    const int tx = (int)fg_thread_idx_x(), ty = (int)fg_thread_idx_y();
    const int tidx = ty * B_X + tx;
    const int img_y0 = a->padding_start + (module_idx / a->modules_x) * a->module_stride;
    const int img_x0 = a->padding_start + (module_idx % a->modules_x) * a->module_stride;
    const int sh_fy = tidx / (B_Y * FPT), sh_fx = tidx % (B_Y * FPT);
    const int my_img = (int)fg_block_idx_x() * B_X + tx;
    const float *images = (const float *)(uintptr_t)a->images + my_img;
    const float *filters = (const float *)(uintptr_t)a->filters + FPT * B_Y * block_filter_idx +
                           sh_fy * num_filters + sh_fx;
    float *targets = (float *)(uintptr_t)a->targets + module_idx * num_images +
                     (block_filter_idx * B_Y * FPT + ty) * num_images * modules + my_img;

    /* per-thread bases into the tiles: the inner loop uses constant offsets */
    const float *sh_img = &sh_images[0][tx];
    const float *sh_flt = &sh_filters[0][ty];
    float prod0 = 0, prod1 = 0, prod2 = 0, prod3 = 0; /* prod[FPT], kept in registers */

    for (int p = 0; p < filter_pixels; p += B_Y) {
        /* load B_Y pixels of B_Y * FPT filters (p2 loop: B_X / FPT >= B_Y, one pass) */
        if (sh_fy < B_Y) {
            if (p + sh_fy < filter_pixels) sh_filters[sh_fy][sh_fx] = filters[p * num_filters];
            else sh_filters[sh_fy][sh_fx] = 0;
        }
        /* load B_Y pixels of B_X images */
        const int pix = p + ty;
        if (pix < filter_pixels) {
            const int x = img_x0 + pix % filter_size;
            const int y = img_y0 + pix / filter_size;
            if (y >= 0 && y < img_size && x >= 0 && x < img_size && my_img < num_images)
                sh_images[ty][tx] = images[a->img_stride * (y * img_size + x)];
            else
                sh_images[ty][tx] = 0;
        }
        fg_sync();
#pragma GCC unroll 4
        for (int i = 0; i < B_Y; i++) {
            const float im = sh_img[i * B_X];
            const float *fl = sh_flt + i * B_Y * FPT;
            prod0 += im * fl[0 * B_Y];
            prod1 += im * fl[1 * B_Y];
            prod2 += im * fl[2 * B_Y];
            prod3 += im * fl[3 * B_Y];
        }
        fg_sync();
    }
    if (my_img < num_images) {
        const int fstride = B_Y * num_images * modules;
        targets[0 * fstride] = a->scale_outputs * prod0;
        targets[1 * fstride] = a->scale_outputs * prod1;
        targets[2 * fstride] = a->scale_outputs * prod2;
        targets[3 * fstride] = a->scale_outputs * prod3;
    }
}
