/* bg_args: parameter blocks of the background kernels (sw/kernels/bg_*.c,
 * RV32) shared with their host driver (sim/work/bg_kernels.c).  Plain C99,
 * fixed-width fields, GPU addresses as uint32_t: both compilers see the same
 * bytes.  docs/BG_KERNELS.md describes the kernels, their origin and sizes. */
#ifndef BG_ARGS_H
#define BG_ARGS_H

#include <stdint.h>

/* CONV: cuda-convnet filterActs_YxX_color<B_Y=4, B_X=32, imgsPerThread=1,
 * filtersPerThread=4, numColors=1, scale=false, checkImgBounds=true>.
 * Layouts (cuda-convnet): images[pixel * img_stride + image],
 * filters[pixel * num_filters + filter],
 * targets[(filter * modules + module) * num_images + image]. */
#define BG_CONV_BY 4
#define BG_CONV_BX 32
#define BG_CONV_FPT 4 /* filters per thread */
typedef struct {
    uint32_t images, filters, targets;
    int32_t num_images, num_filters;
    int32_t img_size;        /* square images, one colour */
    int32_t filter_size;     /* square filters */
    int32_t padding_start;   /* <= 0 */
    int32_t module_stride;
    int32_t modules_x;       /* modules per row (= per column) */
    int32_t img_stride;      /* = num_images */
    float scale_outputs;
} bg_conv_args;

/* CONV2: cuda-convnet filterActs_YxX_sparse<B_Y=4, B_X=32, imgsPerThread=1,
 * filtersPerThread=8, colorCache=2, scale=false, checkImgBounds=true> (the
 * EDGE artifact's instance), one filter group (numGroups = 1: every filter
 * sees every colour).  Layouts: images[(colour * pixels + pixel) * stride +
 * image], filters[(colour * filterPixels + pixel) * num_filters + filter],
 * targets as CONV's. */
#define BG_CONV2_BY 4
#define BG_CONV2_BX 32
#define BG_CONV2_FPT 8 /* filters per thread */
#define BG_CONV2_CC 2  /* colours per step (colorCache) */
typedef struct {
    uint32_t images, filters, targets;
    int32_t num_images, num_filters, num_colors;
    int32_t img_size, filter_size, padding_start, module_stride, modules_x, img_stride;
    float scale_outputs;
} bg_conv2_args;

/* MM: CUDA SDK matrixMul, C = A * B, 16x16 tiles; A is hA x wA, B is wA x wB. */
#define BG_MM_BLOCK 16
typedef struct {
    uint32_t c, a, b;
    int32_t wa, wb;
} bg_mm_args;

/* BP: Rodinia backprop, bpnn_layerforward_CUDA + bpnn_adjust_weights_cuda
 * (16x16 thread blocks, WIDTH = HEIGHT = 16; the hidden layer has 16 units).
 * Weight matrices are (in + 1) x (hid + 1), row-major. */
#define BG_BP_WIDTH 16
#define BG_BP_HEIGHT 16
#define BG_BP_ETA 0.3f
#define BG_BP_MOMENTUM 0.3f
typedef struct {
    uint32_t input;          /* forward: input units (in + 1); adjust: ly */
    uint32_t output_hidden;  /* forward: unused by the kernel (as in Rodinia) */
    uint32_t weights;        /* input_hidden weights w */
    uint32_t partial_sum;    /* forward: num_blocks * hid */
    uint32_t delta;          /* adjust: hidden delta (hid + 1) */
    uint32_t oldw;           /* adjust: previous weights */
    int32_t in, hid;
} bg_bp_args;

/* BFS: Rodinia bfs (Kernel / Kernel2), 512-thread blocks. */
#define BG_BFS_THREADS 512
typedef struct {
    int32_t starting, no_of_edges;
} bg_bfs_node;
typedef struct {
    uint32_t nodes;          /* bg_bfs_node[n] */
    uint32_t edges;          /* int32 destination ids */
    uint32_t mask, updating, visited; /* uint8 flags [n] */
    uint32_t cost;           /* int32 [n] */
    uint32_t over;           /* uint8 flag, set by Kernel2 */
    int32_t n;
} bg_bfs_args;

/* SC: Rodinia streamcluster's pgain kernel kernel_compute_cost (512-thread
 * blocks, one thread per point).  Coordinates are stored dimension-major
 * (coord[d * num + point]), as Rodinia's coord_d; work_mem holds one row of
 * stride = K + 1 floats per point (zeroed by the host before each launch). */
#define BG_SC_THREADS 512
typedef struct {
    float weight;
    int32_t assign;          /* index of the point's centre */
    float cost;
} bg_sc_point;
typedef struct {
    uint32_t points;         /* bg_sc_point[num] */
    uint32_t coord;          /* float [dim][num] */
    uint32_t work_mem;       /* float [num][stride] */
    uint32_t center_table;   /* int32 [num]: a centre's index among the K centres */
    uint32_t switch_membership; /* uint8 [num] */
    int32_t num, dim, x, k, stride;
} bg_sc_args;

/* KMN: Rodinia kmeans (CUDA): invert_mapping (features point-major ->
 * feature-major) once, then kmeansPoint per iteration; 256-thread blocks. */
#define BG_KMN_THREADS 256
typedef struct {
    uint32_t input;          /* float [npoints][nfeatures] */
    uint32_t features;       /* float [nfeatures][npoints] (invert_mapping's output) */
    uint32_t clusters;       /* float [nclusters][nfeatures] (Rodinia: constant memory) */
    uint32_t membership;     /* int32 [npoints] */
    int32_t npoints, nfeatures, nclusters;
} bg_kmn_args;

/* SRAD: Rodinia srad_v2 (CUDA): srad_cuda_1 (diffusion coefficient and
 * the four directional derivatives) and srad_cuda_2 (divergence, image
 * update) per iteration, 16x16 blocks over a rows x cols image (multiples
 * of 16), row-major. */
#define BG_SRAD_BLOCK 16
typedef struct {
    uint32_t e, w, n, s;     /* float [rows * cols] derivatives */
    uint32_t j, c;           /* image, diffusion coefficient */
    int32_t cols, rows;
    float lambda, q0sqr;
} bg_srad_args;

/* LUD: Rodinia lud (CUDA): per step of 16 columns lud_diagonal (one block
 * of 16 threads), lud_perimeter (blocks of 32 threads) and lud_internal
 * (16x16 blocks), then a last lud_diagonal; dim x dim row-major, in place. */
#define BG_LUD_BLOCK 16
typedef struct {
    uint32_t m;
    int32_t dim, offset;
} bg_lud_args;

/* STREAM: the STREAM benchmark's triad a[i] = b[i] + s * c[i] (McCalpin;
 * its CUDA ports: one thread per element, grid-stride loop), 256-thread
 * blocks.  Not an EDGE kernel: the CM machine's memory-bound GPU workload
 * (docs/CM_MACHINE.md); the arrays are far larger than the LLC. */
#define BG_STREAM_THREADS 256
#define BG_STREAM_SCALAR 3.0f  /* STREAM's scalar */
typedef struct {
    uint32_t a, b, c;        /* float [n] */
    int32_t n;
    float s;
} bg_stream_args;

/* ---- kernel side only: register budget ----
 * The SIMT model charges a kernel every register its ELF names
 * (sim/simt/elf_load.c) and a core has 65536 registers for 2048 threads, so
 * a kernel that names more than 32 registers cannot fill a core with threads
 * (EDGE's background kernels fully occupy the GPU).  GCC uses every register
 * it may, so the kernels reserve some as global register variables, which
 * GCC then never allocates (it spills to local memory instead, like a
 * register-capped CUDA build).  ra, sp, a0-a7, t0-t6 (17) stay available. */
#if defined(__riscv)
#define BG_RESERVE_R(type, name, reg) register type name __asm__(reg);
#define BG_RESERVE_S_REGS                                                                    \
    BG_RESERVE_R(uint32_t, bg_rs0, "s0") BG_RESERVE_R(uint32_t, bg_rs1, "s1")                \
    BG_RESERVE_R(uint32_t, bg_rs2, "s2") BG_RESERVE_R(uint32_t, bg_rs3, "s3")                \
    BG_RESERVE_R(uint32_t, bg_rs4, "s4") BG_RESERVE_R(uint32_t, bg_rs5, "s5")                \
    BG_RESERVE_R(uint32_t, bg_rs6, "s6") BG_RESERVE_R(uint32_t, bg_rs7, "s7")                \
    BG_RESERVE_R(uint32_t, bg_rs8, "s8") BG_RESERVE_R(uint32_t, bg_rs9, "s9")                \
    BG_RESERVE_R(uint32_t, bg_rs10, "s10") BG_RESERVE_R(uint32_t, bg_rs11, "s11")
#define BG_RESERVE_FS_REGS                                                                   \
    BG_RESERVE_R(float, bg_rfs0, "fs0") BG_RESERVE_R(float, bg_rfs1, "fs1")                  \
    BG_RESERVE_R(float, bg_rfs2, "fs2") BG_RESERVE_R(float, bg_rfs3, "fs3")                  \
    BG_RESERVE_R(float, bg_rfs4, "fs4") BG_RESERVE_R(float, bg_rfs5, "fs5")                  \
    BG_RESERVE_R(float, bg_rfs6, "fs6") BG_RESERVE_R(float, bg_rfs7, "fs7")                  \
    BG_RESERVE_R(float, bg_rfs8, "fs8") BG_RESERVE_R(float, bg_rfs9, "fs9")                  \
    BG_RESERVE_R(float, bg_rfs10, "fs10") BG_RESERVE_R(float, bg_rfs11, "fs11")
#define BG_RESERVE_FA_REGS                                                                   \
    BG_RESERVE_R(float, bg_rfa0, "fa0") BG_RESERVE_R(float, bg_rfa1, "fa1")                  \
    BG_RESERVE_R(float, bg_rfa2, "fa2") BG_RESERVE_R(float, bg_rfa3, "fa3")                  \
    BG_RESERVE_R(float, bg_rfa4, "fa4") BG_RESERVE_R(float, bg_rfa5, "fa5")                  \
    BG_RESERVE_R(float, bg_rfa6, "fa6") BG_RESERVE_R(float, bg_rfa7, "fa7")
#endif

#endif
