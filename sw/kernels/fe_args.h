/* fe_args: parameter blocks of the F/E benchmarks' kernels (sw/kernels/fe_*.c,
 * RV32), shared with their host side (sim/fe/fe_bench.c).  Plain C99, fixed
 * width fields, GPU addresses as uint32_t: both compilers see the same
 * bytes.  vectorAdd, matrixMul and FIBLookup reuse vecadd.c, bg_mm.c and
 * ipv4_fwd.c.  docs/FE_E2E.md "Benchmarks". */
#ifndef FE_ARGS_H
#define FE_ARGS_H

#include <stdint.h>

#include "bg_args.h"

/* histogram64 (CUDA SDK): 64 bins of the top 6 bits of every byte.  Pass 1:
 * each block a shared-memory histogram of its words, written as one
 * partial histogram; pass 2 (one block of 64 threads): bin sums. */
#define FE_HIST_BINS 64
typedef struct {
    uint32_t data;     /* uint32 words */
    uint32_t partial;  /* uint32 [blocks][64] */
    uint32_t result;   /* uint32 [64] */
    uint32_t n_words, n_blocks;
} fe_hist_args;

/* BlackScholes (CUDA SDK): European call and put per option. */
typedef struct {
    uint32_t call, put, s, x, t; /* float arrays */
    uint32_t n;
    float r, v;        /* riskless rate 0.02, volatility 0.30 (SDK) */
} fe_bs_args;

/* HotSpot (Rodinia): transient thermal simulation, BLOCK x BLOCK thread
 * blocks computing `iterations` steps of a pyramid (Rodinia's
 * calculate_temp); grid_cols = grid_rows = n. */
#define FE_HS_BLOCK 16
typedef struct {
    uint32_t power, temp_src, temp_dst; /* float [n][n] */
    int32_t n, iterations, border;
    float cap, rx, ry, rz, step, amb;
} fe_hs_args;

/* BFS (Rodinia, two kernels per level).  Ours: the level's frontier is
 * made by fe_bfs_update (Kernel2) before fe_bfs_expand (Kernel) expands it,
 * and a node's cost is written once, by fe_bfs_update when it joins the
 * frontier (= Rodinia's cost[tid] + 1); docs/FE_E2E.md explains why. */
#define FE_BFS_THREADS 256
typedef bg_bfs_node fe_bfs_node; /* Rodinia's Node (bg_args.h) */
typedef struct {
    uint32_t nodes;    /* fe_bfs_node[n] */
    uint32_t edges;    /* int32 destination ids */
    uint32_t mask, updating, visited; /* uint8 flags [n] */
    uint32_t cost;     /* int32 [n] */
    uint32_t over;     /* uint32 flag, set by fe_bfs_expand */
    int32_t n, level, src;
} fe_bfs_args;

/* ---- BlackScholes' arithmetic, shared by the kernel and the host
 * reference (single precision; no libm on the GPU): expf / logf by range
 * reduction and polynomials, the SDK's cumulative normal (Abramowitz &
 * Stegun 26.2.17) and option body.  -ffp-contract=off on the GPU and C11 on
 * the host keep every operation as written, so both compute the same bits;
 * the test also checks them against double-precision libm. */
static inline float fe_expf(float x) {
    if (x < -87.0f) x = -87.0f;
    if (x > 88.0f) x = 88.0f;
    int32_t k = (int32_t)(x * 1.44269504f + (x >= 0.0f ? 0.5f : -0.5f));
    float r = x - (float)k * 0.693145752f - (float)k * 1.42860677e-6f; /* ln 2 = hi + lo */
    float p = 1.0f + r * (1.0f + r * (0.5f + r * (0.166666672f + r * (0.0416666679f + r * (0.00833333377f +
                                                                                            r * 0.00138888892f)))));
    union { uint32_t u; float f; } s = {(uint32_t)(k + 127) << 23};
    return p * s.f;
}

static inline float fe_logf(float x) {
    union { float f; uint32_t u; } v = {x};
    int32_t e = (int32_t)((v.u >> 23) & 0xff) - 127;
    v.u = (v.u & 0x007fffffu) | 0x3f800000u; /* mantissa in [1, 2) */
    float m = v.f;
    if (m > 1.41421356f) {
        m = m * 0.5f;
        e++;
    }
    float s = (m - 1.0f) / (m + 1.0f), s2 = s * s;
    float l = 2.0f * s * (1.0f + s2 * (0.333333343f + s2 * (0.200000003f + s2 * (0.142857149f + s2 * 0.111111112f))));
    return (float)e * 0.693147182f + l;
}

static inline float fe_cnd(float d) {
    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f, a5 = 1.330274429f;
    const float rsqrt2pi = 0.39894228040143267793994605993438f;
    float k = 1.0f / (1.0f + 0.2316419f * __builtin_fabsf(d));
    float cnd = rsqrt2pi * fe_expf(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0 ? 1.0f - cnd : cnd;
}

static inline void fe_bs_body(float s, float x, float t, float r, float v, float *call, float *put) {
    float sqrt_t = __builtin_sqrtf(t);
    float d1 = (fe_logf(s / x) + (r + 0.5f * v * v) * t) / (v * sqrt_t);
    float d2 = d1 - v * sqrt_t;
    float cndd1 = fe_cnd(d1), cndd2 = fe_cnd(d2);
    float exp_rt = fe_expf(-r * t);
    *call = s * cndd1 - x * exp_rt * cndd2;
    *put = x * exp_rt * (1.0f - cndd2) - s * (1.0f - cndd1);
}

#endif
