/* fe_bench: the F/E Table 3 benchmarks in the four F/E Fig. 7 variants
 * (fe_bench.h, docs/FE_E2E.md). */
#include "fe/fe_bench.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../sw/kernels/bg_args.h"
#include "../../sw/kernels/fe_args.h"
#include "fg_util.h"
#include "sys/route_gen.h"
#include "work/bg_kernels.h"

const char *const fe_variant_names[FE_VARIANTS + 1] = {"baseline", "overlap_start", "overlap_finish", "full_overlap",
                                                       NULL};
const char *const fe_bench_names[FE_BENCHES + 1] = {"vectorAdd", "matrixMul", "histogram64", "BlackScholes",
                                                    "BFS",       "HotSpot",   "FIBLookup",   NULL};
/* F/E Table 3: vectorAdd 8K-256K elements (Fig. 11 at 64K), matrixMul 64 x 64,
 * histogram64 256 KB, BlackScholes 64K options, BFS 4K nodes, HotSpot 64 x 64,
 * FIBLookup 512 threads. */
static const unsigned PAPER[FE_BENCHES] = {65536, 64, 262144, 65536, 4096, 64, 512};
static const unsigned SMALL[FE_BENCHES] = {2048, 32, 16384, 2048, 512, 32, 64};

int fe_bench_find(const char *name) {
    for (int i = 0; i < FE_BENCHES; i++)
        if (!strcmp(name, fe_bench_names[i])) return i;
    return -1;
}
unsigned fe_bench_paper_size(int b) { return b >= 0 && b < FE_BENCHES ? PAPER[b] : 0; }
unsigned fe_bench_small_size(int b) { return b >= 0 && b < FE_BENCHES ? SMALL[b] : 0; }

#define MAX_LEVELS 256

/* A buffer copied between host and GPU. */
typedef struct {
    const char *name;
    void *host;
    uint64_t bytes, dev;
} fbuf;

/* One benchmark run: its runtime, buffers, kernels, and what the check needs. */
typedef struct {
    fe_host *h;
    gpu_t *g;
    fe_variant v;
    const fe_bench_opts *o;
    unsigned size;
    fg_rng rng;
    fbuf in[4], out[2];
    unsigned n_in, n_out;
    gpu_launch_desc k[2];
    const char *kname[2];
    unsigned n_k;
    char *err;
    size_t errlen;
    char describe[160];
    /* host data */
    float *f[6];
    uint32_t *u[3];
    /* BFS */
    fe_bfs_node *nodes;
    int32_t *edges, *cost;
    size_t n_edges;
    uint64_t bfs_param[MAX_LEVELS], bfs_over;
    gpu_kernel bfs_k[2];
    unsigned levels;
    /* FIBLookup */
    lpm_route *routes;
    size_t n_routes;
    ipv4_dir dir;
    lpm_ref *lpm;
    uint8_t *pkts;
} fb_ctx;

static int ferr(fb_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int ferr(fb_ctx *c, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, c->errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static float frand(fg_rng *r, float lo, float hi) {
    return lo + (hi - lo) * (float)(fg_rng_next(r) >> 40) * (1.0f / 16777216.0f);
}

static void *take(fb_ctx *c, size_t bytes) {
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p) ferr(c, "out of memory");
    return p;
}

static int load(fb_ctx *c, const char *elf, const char *sym, gpu_kernel *k) {
    char path[512], e[256];
    snprintf(path, sizeof path, "%s/%s.elf", c->o->kdir, elf);
    if (gpu_load_kernel(c->g, path, sym, k, e, sizeof e)) return ferr(c, "%s", e);
    return 0;
}

/* The parameter block of a launch: static data written before the run. */
static uint64_t param(fb_ctx *c, const void *p, size_t n) {
    uint64_t a = fe_malloc(c->h, n);
    if (!a || fe_poke(c->h, a, p, n)) return 0;
    return a;
}

static void launch(fb_ctx *c, const char *name, const gpu_kernel *k, unsigned gx, unsigned gy, unsigned bx,
                   unsigned by, uint64_t prm) {
    gpu_launch_desc *d = &c->k[c->n_k];
    memset(d, 0, sizeof *d);
    d->kernel_ptr = k->entry;
    d->regs_per_thread = k->regs_per_thread;
    d->grid[0] = gx, d->grid[1] = gy, d->grid[2] = 1;
    d->block[0] = bx, d->block[1] = by, d->block[2] = 1;
    d->param_addr = prm;
    c->kname[c->n_k++] = name;
}

/* A buffer the host copies: ordinary memory for the baseline, synchronized
 * memory (F/E 4.2), empty, for the F/E variants. */
static uint64_t dev_buf(fb_ctx *c, uint64_t bytes) {
    return c->v == FE_BASELINE ? fe_malloc(c->h, bytes) : fe_malloc_sync(c->h, bytes, false);
}

static int add_buf(fb_ctx *c, bool out, const char *name, void *host, uint64_t bytes) {
    fbuf *b = out ? &c->out[c->n_out++] : &c->in[c->n_in++];
    *b = (fbuf){name, host, bytes, dev_buf(c, bytes)};
    return b->dev ? 0 : -1;
}

/* ------------------------------------------------ the benchmarks: set-up */

static int vectoradd_setup(fb_ctx *c) {
    const unsigned n = c->size;
    for (int i = 0; i < 3; i++)
        if (!(c->f[i] = take(c, n * 4ull))) return -1;
    for (unsigned i = 0; i < n; i++) c->f[0][i] = frand(&c->rng, 0, 1), c->f[1][i] = frand(&c->rng, 0, 1);
    gpu_kernel k;
    if (load(c, "vecadd", "vecadd", &k) || add_buf(c, false, "A", c->f[0], n * 4ull) ||
        add_buf(c, false, "B", c->f[1], n * 4ull) || add_buf(c, true, "C", c->f[2], n * 4ull))
        return -1;
    uint32_t a[4] = {(uint32_t)c->in[0].dev, (uint32_t)c->in[1].dev, (uint32_t)c->out[0].dev, n};
    uint64_t p = param(c, a, sizeof a);
    launch(c, "vectorAdd", &k, (n + 255) / 256, 1, 256, 1, p);
    snprintf(c->describe, sizeof c->describe, "%u elements, %u blocks x 256 threads", n, (n + 255) / 256);
    return p ? 0 : -1;
}

static int vectoradd_check(fb_ctx *c) {
    for (unsigned i = 0; i < c->size; i++)
        if (c->f[2][i] != c->f[0][i] + c->f[1][i])
            return ferr(c, "vectorAdd: C[%u] = %g, expected %g", i, c->f[2][i], c->f[0][i] + c->f[1][i]);
    return 0;
}

static int matrixmul_setup(fb_ctx *c) {
    const unsigned n = c->size;
    if (n % BG_MM_BLOCK) return ferr(c, "matrixMul: n = %u is not a multiple of %u", n, BG_MM_BLOCK);
    for (int i = 0; i < 3; i++)
        if (!(c->f[i] = take(c, (size_t)n * n * 4))) return -1;
    for (unsigned i = 0; i < n * n; i++) c->f[0][i] = frand(&c->rng, 0, 1), c->f[1][i] = frand(&c->rng, 0, 1);
    gpu_kernel k;
    if (load(c, "bg_mm", "bg_mm", &k) || add_buf(c, false, "A", c->f[0], n * n * 4ull) ||
        add_buf(c, false, "B", c->f[1], n * n * 4ull) || add_buf(c, true, "C", c->f[2], n * n * 4ull))
        return -1;
    bg_mm_args a = {(uint32_t)c->out[0].dev, (uint32_t)c->in[0].dev, (uint32_t)c->in[1].dev, (int32_t)n, (int32_t)n};
    uint64_t p = param(c, &a, sizeof a);
    launch(c, "matrixMul", &k, n / BG_MM_BLOCK, n / BG_MM_BLOCK, BG_MM_BLOCK, BG_MM_BLOCK, p);
    snprintf(c->describe, sizeof c->describe, "%ux%u, %ux%u blocks of 16x16 threads (SDK matrixMul)", n, n,
             n / BG_MM_BLOCK, n / BG_MM_BLOCK);
    return p ? 0 : -1;
}

static int matrixmul_check(fb_ctx *c) {
    const unsigned n = c->size;
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            float s = 0; /* the kernel's order: k = 0 .. n-1, a multiply then an add */
            for (unsigned k = 0; k < n; k++) s += c->f[0][i * n + k] * c->f[1][k * n + j];
            if (c->f[2][i * n + j] != s)
                return ferr(c, "matrixMul: C[%u][%u] = %g, expected %g", i, j, c->f[2][i * n + j], s);
        }
    return 0;
}

static int histogram_setup(fb_ctx *c) {
    const unsigned words = c->size / 4, blocks = words / 1024 < 1 ? 1 : words / 1024 > 64 ? 64 : words / 1024;
    if (c->size % 4 || !words) return ferr(c, "histogram64: %u bytes is not whole words", c->size);
    if (!(c->u[0] = take(c, words * 4ull)) || !(c->u[1] = take(c, FE_HIST_BINS * 4))) return -1;
    for (unsigned i = 0; i < words; i++) c->u[0][i] = (uint32_t)fg_rng_next(&c->rng);
    gpu_kernel k1, k2;
    if (load(c, "fe_histogram64", "fe_hist64", &k1) || load(c, "fe_histogram64", "fe_hist64_merge", &k2) ||
        add_buf(c, false, "data", c->u[0], words * 4ull) || add_buf(c, true, "histogram", c->u[1], FE_HIST_BINS * 4))
        return -1;
    uint64_t partial = fe_malloc(c->h, (uint64_t)blocks * FE_HIST_BINS * 4); /* on the GPU only */
    fe_hist_args a = {(uint32_t)c->in[0].dev, (uint32_t)partial, (uint32_t)c->out[0].dev, words, blocks};
    uint64_t p = partial ? param(c, &a, sizeof a) : 0;
    launch(c, "histogram64", &k1, blocks, 1, 256, 1, p);
    launch(c, "mergeHistogram64", &k2, 1, 1, FE_HIST_BINS, 1, p);
    snprintf(c->describe, sizeof c->describe, "%u bytes, %u blocks x 256 threads + merge (64 threads)", c->size,
             blocks);
    return p ? 0 : -1;
}

static int histogram_check(fb_ctx *c) {
    uint32_t ref[FE_HIST_BINS] = {0};
    const uint8_t *b = (const uint8_t *)c->u[0];
    for (unsigned i = 0; i < c->size; i++) ref[b[i] >> 2]++;
    for (unsigned i = 0; i < FE_HIST_BINS; i++)
        if (c->u[1][i] != ref[i]) return ferr(c, "histogram64: bin %u = %u, expected %u", i, c->u[1][i], ref[i]);
    return 0;
}

#define BS_R 0.02f
#define BS_V 0.30f

static int blackscholes_setup(fb_ctx *c) {
    const unsigned n = c->size;
    for (int i = 0; i < 5; i++)
        if (!(c->f[i] = take(c, n * 4ull))) return -1;
    for (unsigned i = 0; i < n; i++) { /* the SDK's ranges */
        c->f[0][i] = frand(&c->rng, 5.0f, 30.0f);
        c->f[1][i] = frand(&c->rng, 1.0f, 100.0f);
        c->f[2][i] = frand(&c->rng, 0.25f, 10.0f);
    }
    gpu_kernel k;
    if (load(c, "fe_blackscholes", "fe_blackscholes", &k) || add_buf(c, false, "StockPrice", c->f[0], n * 4ull) ||
        add_buf(c, false, "OptionStrike", c->f[1], n * 4ull) || add_buf(c, false, "OptionYears", c->f[2], n * 4ull) ||
        add_buf(c, true, "CallResult", c->f[3], n * 4ull) || add_buf(c, true, "PutResult", c->f[4], n * 4ull))
        return -1;
    fe_bs_args a = {(uint32_t)c->out[0].dev, (uint32_t)c->out[1].dev, (uint32_t)c->in[0].dev,
                    (uint32_t)c->in[1].dev,  (uint32_t)c->in[2].dev,  n, BS_R, BS_V};
    uint64_t p = param(c, &a, sizeof a);
    launch(c, "BlackScholes", &k, (n + 255) / 256, 1, 256, 1, p);
    snprintf(c->describe, sizeof c->describe, "%u options, %u blocks x 256 threads", n, (n + 255) / 256);
    return p ? 0 : -1;
}

/* The closed form in double precision with libm, an independent check of
 * the single-precision arithmetic the kernel and fe_bs_body share. */
static double cnd_d(double d) { return 0.5 * erfc(-d / sqrt(2.0)); }

static int blackscholes_check(fb_ctx *c) {
    for (unsigned i = 0; i < c->size; i++) {
        float s = c->f[0][i], x = c->f[1][i], t = c->f[2][i], call, put;
        fe_bs_body(s, x, t, BS_R, BS_V, &call, &put);
        if (c->f[3][i] != call || c->f[4][i] != put)
            return ferr(c, "BlackScholes: option %u call %g put %g, expected %g %g", i, c->f[3][i], c->f[4][i], call,
                        put);
        double st = sqrt(t), d1 = (log((double)s / x) + (BS_R + 0.5 * BS_V * BS_V) * t) / (BS_V * st), d2 = d1 - BS_V * st;
        double e = exp(-(double)BS_R * t), cd = s * cnd_d(d1) - x * e * cnd_d(d2), pd = x * e * cnd_d(-d2) - s * cnd_d(-d1);
        /* the SDK's polynomial CND is accurate to 7.5e-8; float rounding on prices up to 100 */
        if (fabs(call - cd) > 1e-3 * (1 + fabs(cd)) || fabs(put - pd) > 1e-3 * (1 + fabs(pd)))
            return ferr(c, "BlackScholes: option %u call %g put %g, double precision %g %g", i, call, put, cd, pd);
    }
    return 0;
}

/* Rodinia hotspot's constants (hotspot.cu), computed in double as there and
 * kept as float. */
#define HS_ITER 2 /* Rodinia's run: pyramid height 2, 2 iterations: one launch */

void fe_hs_params(unsigned n, int pyramid, fe_hs_args *a) {
    const double t_chip = 0.0005, chip = 0.016, spec_heat = 1.75e6, k_si = 100, factor = 0.5, max_pd = 3.0e6,
                 precision = 0.001;
    double gh = chip / n, gw = chip / n;
    a->cap = (float)(factor * spec_heat * t_chip * gw * gh);
    a->rx = (float)(gw / (2.0 * k_si * t_chip * gh));
    a->ry = (float)(gh / (2.0 * k_si * t_chip * gw));
    a->rz = (float)(t_chip / (k_si * gh * gw));
    a->step = (float)(precision / (max_pd / (factor * t_chip * spec_heat)));
    a->amb = 80.0f;
    a->n = (int32_t)n;
    a->iterations = pyramid;
    a->border = pyramid; /* pyramid_height * EXPAND_RATE / 2 */
}

static int hotspot_setup(fb_ctx *c) {
    const unsigned n = c->size, small = FE_HS_BLOCK - 2 * HS_ITER, blocks = (n + small - 1) / small;
    for (int i = 0; i < 3; i++)
        if (!(c->f[i] = take(c, (size_t)n * n * 4))) return -1;
    for (unsigned i = 0; i < n * n; i++) { /* the range of Rodinia's temp_64 / power_64 */
        c->f[0][i] = frand(&c->rng, 322.0f, 345.0f);
        c->f[1][i] = frand(&c->rng, 0.0f, 0.0004f);
    }
    gpu_kernel k;
    if (load(c, "fe_hotspot", "fe_hotspot", &k) || add_buf(c, false, "temp", c->f[0], n * n * 4ull) ||
        add_buf(c, false, "power", c->f[1], n * n * 4ull) || add_buf(c, true, "temp_out", c->f[2], n * n * 4ull))
        return -1;
    fe_hs_args a;
    fe_hs_params(n, HS_ITER, &a);
    a.temp_src = (uint32_t)c->in[0].dev;
    a.power = (uint32_t)c->in[1].dev;
    a.temp_dst = (uint32_t)c->out[0].dev;
    uint64_t p = param(c, &a, sizeof a);
    launch(c, "HotSpot", &k, blocks, blocks, FE_HS_BLOCK, FE_HS_BLOCK, p);
    snprintf(c->describe, sizeof c->describe, "%ux%u grid, %u iterations (pyramid %u), %ux%u blocks of 16x16", n, n,
             HS_ITER, HS_ITER, blocks, blocks);
    return p ? 0 : -1;
}

/* Reference: the plain stencil over the whole grid, neighbours clamped at
 * its edges, HS_ITER steps (what the pyramid computes). */
static int hotspot_check(fb_ctx *c) {
    const int n = (int)c->size;
    fe_hs_args a;
    fe_hs_params(c->size, HS_ITER, &a);
    const float sdc = a.step / a.cap, rx_1 = 1.0f / a.rx, ry_1 = 1.0f / a.ry, rz_1 = 1.0f / a.rz;
    float *t = take(c, (size_t)n * n * 4), *u = take(c, (size_t)n * n * 4);
    if (!t || !u) { free(t); free(u); return -1; }
    memcpy(t, c->f[0], (size_t)n * n * 4);
    for (int it = 0; it < HS_ITER; it++) {
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                int nn = y > 0 ? y - 1 : y, ss = y < n - 1 ? y + 1 : y, ww = x > 0 ? x - 1 : x, ee = x < n - 1 ? x + 1 : x;
                float v = t[y * n + x];
                u[y * n + x] = v + sdc * (c->f[1][y * n + x] + (t[ss * n + x] + t[nn * n + x] - 2.0f * v) * ry_1 +
                                          (t[y * n + ee] + t[y * n + ww] - 2.0f * v) * rx_1 + (a.amb - v) * rz_1);
            }
        float *w = t;
        t = u;
        u = w;
    }
    int rc = 0;
    for (int i = 0; i < n * n && !rc; i++)
        if (c->f[2][i] != t[i]) rc = ferr(c, "HotSpot: cell (%d, %d) = %.9g, expected %.9g", i / n, i % n, c->f[2][i], t[i]);
    free(t);
    free(u);
    return rc;
}

static int fib_setup(fb_ctx *c) {
    const unsigned n = c->size;
    char e[256];
    route_gen_params rp;
    route_gen_params_default(&rp);
    rp.seed = c->o->seed;
    if (route_gen(&rp, &c->routes, &c->n_routes, e, sizeof e) ||
        ipv4_dir_build(&c->dir, c->routes, c->n_routes, e, sizeof e))
        return ferr(c, "FIBLookup: %s", e);
    if (!(c->lpm = lpm_ref_build(c->routes, c->n_routes, 32))) return ferr(c, "FIBLookup: out of memory");
    if (!(c->pkts = take(c, (size_t)n * IPV4_PKT_BYTES)) || !(c->u[0] = take(c, n * 4ull))) return -1;
    for (unsigned i = 0; i < n; i++) ipv4_gen_packet(&c->rng, &rp, c->routes, c->n_routes, c->pkts + (size_t)i * IPV4_PKT_BYTES);
    gpu_kernel k;
    if (load(c, "ipv4_fwd", "ipv4_fwd", &k)) return -1;
    /* the FIB: static, in ordinary memory long before (as the EDGE route table) */
    uint64_t l1 = fe_malloc(c->h, 65536 * 4), ch = fe_malloc(c->h, c->dir.n_chunks * 256 * 4ull);
    if (!l1 || !ch || fe_poke(c->h, l1, c->dir.l1, 65536 * 4) || fe_poke(c->h, ch, c->dir.chunks, c->dir.n_chunks * 1024))
        return -1;
    if (add_buf(c, false, "packets", c->pkts, (uint64_t)n * IPV4_PKT_BYTES) || add_buf(c, true, "next_hops", c->u[0], n * 4ull))
        return -1;
    ipv4_params a = {(uint32_t)c->in[0].dev, (uint32_t)c->out[0].dev, (uint32_t)l1, (uint32_t)ch, n, 0, 0, 0};
    uint64_t p = param(c, &a, sizeof a);
    launch(c, "FIBLookup", &k, (n + 31) / 32, 1, 32, 1, p);
    snprintf(c->describe, sizeof c->describe, "%u threads (one packet each), %zu routes (DIR-16-8-8, %zu chunks)", n,
             c->n_routes, c->dir.n_chunks);
    return p ? 0 : -1;
}

static int fib_check(fb_ctx *c) {
    for (unsigned i = 0; i < c->size; i++) {
        uint32_t want = ipv4_forward_ref(c->lpm, c->pkts + (size_t)i * IPV4_PKT_BYTES);
        if (c->u[0][i] != want) return ferr(c, "FIBLookup: packet %u -> %u, expected %u", i, c->u[0][i], want);
    }
    return 0;
}

/* BFS graph, Rodinia graphgen style (2..4 neighbours per node, each edge
 * stored both ways; sim/work/bg_kernels.c) except that a node's first
 * neighbour is an earlier node, so every node is reachable from node 0 and
 * every cost gets written (the copy back waits for all of them). */
static int bfs_setup(fb_ctx *c) {
    const size_t n = c->size;
    c->cost = calloc(n, 4);
    if (!c->cost || bg_bfs_graph(&c->rng, n, true, &c->nodes, &c->edges, &c->n_edges)) return ferr(c, "out of memory");
    if (load(c, "fe_bfs", "fe_bfs_update", &c->bfs_k[0]) || load(c, "fe_bfs", "fe_bfs_expand", &c->bfs_k[1]) ||
        add_buf(c, false, "nodes", c->nodes, n * sizeof *c->nodes) ||
        add_buf(c, false, "edges", c->edges, c->n_edges * 4) || add_buf(c, true, "cost", c->cost, n * 4))
        return -1;
    /* flags on the GPU only (zero at allocation), the over flag copied each level */
    uint64_t mask = fe_malloc(c->h, n), upd = fe_malloc(c->h, n), vis = fe_malloc(c->h, n);
    c->bfs_over = fe_malloc(c->h, 4);
    if (!mask || !upd || !vis || !c->bfs_over) return -1;
    for (unsigned l = 0; l < MAX_LEVELS; l++) { /* a parameter block per level (it carries the level) */
        fe_bfs_args a = {(uint32_t)c->in[0].dev, (uint32_t)c->in[1].dev, (uint32_t)mask, (uint32_t)upd, (uint32_t)vis,
                         (uint32_t)c->out[0].dev, (uint32_t)c->bfs_over, (int32_t)n, (int32_t)l, 0};
        if (!(c->bfs_param[l] = param(c, &a, sizeof a))) return -1;
    }
    snprintf(c->describe, sizeof c->describe, "%zu nodes, %zu edges, 2 kernels per level (%u-thread blocks)", n,
             c->n_edges, FE_BFS_THREADS);
    return 0;
}

static int bfs_check(fb_ctx *c) {
    const size_t n = c->size;
    int32_t *lv = malloc(n * 4), *q = malloc(n * 4);
    if (!lv || !q) { free(lv); free(q); return ferr(c, "out of memory"); }
    for (size_t i = 0; i < n; i++) lv[i] = -1;
    size_t qh = 0, qt = 0;
    lv[0] = 0;
    q[qt++] = 0;
    while (qh < qt) {
        int32_t u = q[qh++];
        for (int32_t e = c->nodes[u].starting; e < c->nodes[u].starting + c->nodes[u].no_of_edges; e++)
            if (lv[c->edges[e]] < 0) lv[c->edges[e]] = lv[u] + 1, q[qt++] = c->edges[e];
    }
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++)
        if (c->cost[i] != lv[i]) rc = ferr(c, "BFS: cost[%zu] = %d, expected %d", i, c->cost[i], lv[i]);
    free(lv);
    free(q);
    return rc;
}

/* ------------------------------------------------ the variants (F/E Fig. 7) */

#define S_MAIN 0 /* kernels (and everything in the baseline) */
#define S_IN 1   /* overlap-start: the copy in with fill */
#define S_OUT 2  /* overlap-finish: the copy back with wait-full */

/* The CPU thread has made the calls it makes in advance; the input is
 * ready once they have left the driver (they are then off the critical
 * path, as F/E Fig. 6 draws them). */
static double data_ready(fb_ctx *c) {
    double t = fe_driver_free(c->h);
    if (t > fe_now(c->h)) fe_cpu_work(c->h, t - fe_now(c->h));
    return fe_now(c->h);
}

static int copies_in(fb_ctx *c, unsigned stream) {
    unsigned act = c->v == FE_BASELINE ? FE_ACTION_NONE : FE_ACTION_FILL;
    for (unsigned i = 0; i < c->n_in; i++)
        if (fe_memcpy_async(c->h, stream, FE_H2D, c->in[i].dev, c->in[i].host, c->in[i].bytes, FE_TRIGGER_NONE, act,
                            c->in[i].name))
            return -1;
    return 0;
}

static int copies_out(fb_ctx *c, unsigned stream, unsigned trig) {
    for (unsigned i = 0; i < c->n_out; i++)
        if (fe_memcpy_async(c->h, stream, FE_D2H, c->out[i].dev, c->out[i].host, c->out[i].bytes, trig,
                            FE_ACTION_NONE, c->out[i].name))
            return -1;
    return 0;
}

static int kernels(fb_ctx *c) {
    for (unsigned i = 0; i < c->n_k; i++)
        if (fe_launch(c->h, S_MAIN, &c->k[i], c->kname[i])) return -1;
    return 0;
}

/* F/E Fig. 7: (a) baseline, (b) overlap-start, (c) overlap-finish, (d) full-overlap. */
static int run_flow(fb_ctx *c, double *t_ready) {
    const bool start = c->v == FE_OVERLAP_START || c->v == FE_FULL_OVERLAP;
    const bool finish = c->v == FE_OVERLAP_FINISH || c->v == FE_FULL_OVERLAP;
    if ((start && kernels(c)) || (finish && copies_out(c, S_OUT, FE_TRIGGER_FILLED))) return -1; /* in advance */
    *t_ready = data_ready(c);
    if (copies_in(c, start ? S_IN : S_MAIN) || (!start && kernels(c)) || (!finish && copies_out(c, S_MAIN, FE_TRIGGER_NONE)))
        return -1;
    return fe_stream_sync(c->h, finish ? S_OUT : S_MAIN);
}

/* One BFS level: reset the over flag, the two kernels (stream 0). */
static int bfs_level(fb_ctx *c, unsigned l, uint32_t *zero) {
    if (l >= MAX_LEVELS) return ferr(c, "BFS: more than %d levels", MAX_LEVELS);
    const unsigned blocks = (c->size + FE_BFS_THREADS - 1) / FE_BFS_THREADS;
    c->n_k = 0;
    launch(c, "BFS Kernel2", &c->bfs_k[0], blocks, 1, FE_BFS_THREADS, 1, c->bfs_param[l]);
    launch(c, "BFS Kernel", &c->bfs_k[1], blocks, 1, FE_BFS_THREADS, 1, c->bfs_param[l]);
    c->levels = l + 1;
    if (fe_memcpy_async(c->h, S_MAIN, FE_H2D, c->bfs_over, zero, 4, FE_TRIGGER_NONE, FE_ACTION_NONE, "over = 0"))
        return -1;
    return kernels(c);
}

/* BFS: the host loop over levels (Rodinia) in stream 0; the graph in (and
 * the costs back) are the copies the variants move (docs/FE_E2E.md). */
static int run_bfs(fb_ctx *c, double *t_ready) {
    const bool start = c->v == FE_OVERLAP_START || c->v == FE_FULL_OVERLAP;
    const bool finish = c->v == FE_OVERLAP_FINISH || c->v == FE_FULL_OVERLAP;
    uint32_t zero = 0, over = 0;
    if ((start && bfs_level(c, 0, &zero)) || (finish && copies_out(c, S_OUT, FE_TRIGGER_FILLED))) return -1;
    *t_ready = data_ready(c);
    if (copies_in(c, start ? S_IN : S_MAIN) || (!start && bfs_level(c, 0, &zero))) return -1;
    for (unsigned l = 1;; l++) {
        if (fe_memcpy_async(c->h, S_MAIN, FE_D2H, c->bfs_over, &over, 4, FE_TRIGGER_NONE, FE_ACTION_NONE, "over") ||
            fe_stream_sync(c->h, S_MAIN))
            return -1;
        if (!over) break;
        if (bfs_level(c, l, &zero)) return -1;
    }
    if (!finish && copies_out(c, S_MAIN, FE_TRIGGER_NONE)) return -1;
    return fe_stream_sync(c->h, finish ? S_OUT : S_MAIN);
}

/* ------------------------------------------------ one run */

static void ctx_free(fb_ctx *c) {
    for (int i = 0; i < 6; i++) free(c->f[i]);
    for (int i = 0; i < 3; i++) free(c->u[i]);
    free(c->nodes);
    free(c->edges);
    free(c->cost);
    free(c->routes);
    if (c->dir.l1) ipv4_dir_free(&c->dir);
    lpm_ref_free(c->lpm);
    free(c->pkts);
    fe_host_free(c->h);
    gpu_free(c->g);
}

int fe_bench_run(const gpu_config *gc, const fe_host_params *hp, int bench, fe_variant v, const fe_bench_opts *o,
                 fe_bench_result *r, char *err, size_t errlen) {
    static int (*const setup[FE_BENCHES])(fb_ctx *) = {vectoradd_setup, matrixmul_setup, histogram_setup,
                                                       blackscholes_setup, bfs_setup, hotspot_setup, fib_setup};
    static int (*const check[FE_BENCHES])(fb_ctx *) = {vectoradd_check, matrixmul_check, histogram_check,
                                                       blackscholes_check, bfs_check, hotspot_check, fib_check};
    memset(r, 0, sizeof *r);
    if (bench < 0 || bench >= FE_BENCHES || v >= FE_VARIANTS || !o->kdir) {
        snprintf(err, errlen, "fe_bench_run: bad benchmark %d / variant %d", bench, (int)v);
        return -1;
    }
    fb_ctx c;
    memset(&c, 0, sizeof c);
    c.v = v;
    c.o = o;
    c.err = err;
    c.errlen = errlen;
    c.size = o->size ? o->size : PAPER[bench];
    fg_rng_seed(&c.rng, o->seed * 7919 + (uint64_t)bench);
    int rc = -1;
    double t_ready = 0;
    if (!(c.g = gpu_new(gc, err, errlen)) || !(c.h = fe_host_new(c.g, hp, err, errlen))) goto out;
    if (setup[bench](&c)) {
        if (fe_error(c.h)) snprintf(err, errlen, "%s: set-up: %s", fe_bench_names[bench], fe_error(c.h));
        goto out;
    }
    if ((bench == FE_B_BFS ? run_bfs(&c, &t_ready) : run_flow(&c, &t_ready)) || fe_error(c.h)) {
        if (fe_error(c.h))
            snprintf(err, errlen, "%s %s: %s", fe_bench_names[bench], fe_variant_names[v], fe_error(c.h));
        goto out;
    }
    if (check[bench](&c)) goto out;
    r->t_ready_ns = t_ready;
    r->t_finish_ns = fe_now(c.h);
    r->runtime_ns = r->t_finish_ns - t_ready;
    r->size = c.size;
    snprintf(r->describe, sizeof r->describe, "%s", c.describe);
    gpu_get_stats(c.g, &r->gs);
    unsigned n;
    const fe_cmd *cmds = fe_commands(c.h, &n);
    r->cmds = malloc((n ? n : 1) * sizeof *r->cmds);
    if (!r->cmds) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    memcpy(r->cmds, cmds, n * sizeof *cmds);
    r->n_cmds = n;
    double k0 = 0, k1 = 0;
    for (unsigned i = 0; i < n; i++) {
        const fe_cmd *m = &cmds[i];
        if (m->kind == FE_CMD_LAUNCH) {
            r->launches++;
            if (!k0 || m->t_exec_start < k0) k0 = m->t_exec_start;
            if (m->t_exec_end > k1) k1 = m->t_exec_end;
        } else if (m->kind == FE_CMD_COPY || m->kind == FE_CMD_MEMCPY) {
            r->copies++;
            if (m->dir == FE_H2D) r->bytes_h2d += m->bytes;
            else r->bytes_d2h += m->bytes;
        }
    }
    r->kernel_ns = k1 - k0;
    rc = 0;
out:
    ctx_free(&c);
    return rc;
}

void fe_bench_result_free(fe_bench_result *r) {
    free(r->cmds);
    r->cmds = NULL;
}
