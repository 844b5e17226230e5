/* CONV2 background kernel (EDGE Sec. V: "filterActs YxX sparse" from
 * cuda-convnet, the second LeNet-like layer).  A C port of
 * filterActs_YxX_sparse<B_Y=4, B_X=32, imgsPerThread=1, filtersPerThread=8,
 * colorCache=2, scale=false, checkImgBounds=true>, the instance the EDGE
 * artifact's driver asserts, with one filter group.
 *
 * Block (32, 4): thread (tx, ty) computes image blockIdx.x * 32 + tx against
 * filters ty, ty + 4, .., ty + 28 of the block's 32, at module
 * blockIdx.y / blocksPerModule.  Per step of 2 colours x 4 filter pixels the
 * block stages 8 rows of 32 filters and of 32 images in shared memory, with a
 * barrier after the stores and one after the 8 x 8 multiply-adds.  Host
 * reference: sim/work/bg_edge_apps.c (conv2_*). */
#include "fg_kernel.h"
#include "bg_args.h"

BG_RESERVE_S_REGS
BG_RESERVE_FS_REGS

#define B_Y BG_CONV2_BY
#define B_X BG_CONV2_BX
#define FPT BG_CONV2_FPT
#define CC BG_CONV2_CC

FG_SHARED static float sh_filters[B_Y * CC][B_Y * FPT];
FG_SHARED static float sh_images[B_Y * CC][B_X];

/* no instruction scheduling: hoisting the eight filter loads above the
 * multiply-adds would need more than the 32 registers that let 2048 threads
 * share a core (bg_args.h, register budget) */
__attribute__((optimize("no-schedule-insns", "no-schedule-insns2"))) void bg_conv2(const bg_conv2_args *a) {
    const int num_images = a->num_images, num_filters = a->num_filters, colors = a->num_colors;
    const int img_size = a->img_size, filter_size = a->filter_size;
    const int img_pixels = img_size * img_size, filter_pixels = filter_size * filter_size;
    const int modules = a->modules_x * a->modules_x;
    const int blocks_per_module = num_filters / (B_Y * FPT);
    const int by = (int)fg_block_idx_y();
    const int module_idx = by / blocks_per_module;
    const int block_filter_idx = FPT * B_Y * (by % blocks_per_module);
    const int tx = (int)fg_thread_idx_x(), ty = (int)fg_thread_idx_y();
    const int tidx = ty * B_X + tx;
    const int img_y0 = a->padding_start + (module_idx / a->modules_x) * a->module_stride;
    const int img_x0 = a->padding_start + (module_idx % a->modules_x) * a->module_stride;
    const int sh_fy = tidx / (B_Y * FPT), sh_fx = tidx % (B_Y * FPT); /* sh_fy < B_Y: one p2 pass */
    const int my_img = (int)fg_block_idx_x() * B_X + tx;
    const int img_stride = a->img_stride;
    const float *images = (const float *)(uintptr_t)a->images + my_img;
    const float *filters = (const float *)(uintptr_t)a->filters + block_filter_idx + sh_fy * num_filters + sh_fx;
    float *targets = (float *)(uintptr_t)a->targets + module_idx * num_images +
                     (block_filter_idx + ty) * num_images * modules + my_img;

    float prod[FPT];
    for (int f = 0; f < FPT; f++) prod[f] = 0;
    for (int oc = 0; oc < colors; oc += CC) {
        for (int p = 0; p < filter_pixels; p += B_Y) {
            for (int c = 0; c < CC; c++)
                sh_filters[sh_fy + c * B_Y][sh_fx] =
                    p + sh_fy < filter_pixels ? filters[((oc + c) * filter_pixels + p) * num_filters] : 0.0f;
            const int pix = p + ty;
            if (pix < filter_pixels) {
                const int x = img_x0 + pix % filter_size, y = img_y0 + pix / filter_size;
                if (y >= 0 && y < img_size && x >= 0 && x < img_size && my_img < num_images) {
                    const float *m = images + img_stride * (oc * img_pixels + y * img_size + x);
                    for (int c = 0; c < CC; c++) sh_images[ty + c * B_Y][tx] = m[c * img_stride * img_pixels];
                } else {
                    for (int c = 0; c < CC; c++) sh_images[ty + c * B_Y][tx] = 0;
                }
            }
            fg_sync();
            for (int i = 0; i < B_Y * CC; i++) {
                const float im = sh_images[i][tx];
#pragma GCC unroll 8
                for (int f = 0; f < FPT; f++) prod[f] += im * sh_filters[i][ty + f * B_Y];
            }
            fg_sync();
        }
    }
    if (my_img < num_images)
#pragma GCC unroll 8
        for (int f = 0; f < FPT; f++) targets[f * B_Y * num_images * modules] = a->scale_outputs * prod[f];
}
