/* cm_apps: the GPU applications of CM Table II on the CM machine
 * (docs/CM_APPS.md), as bg_app hooks (sim/work/bg_app.h): sizes ("paper" =
 * the CM machine's size), generated inputs, launches, host steps between
 * kernels and host references.  BP, MM and BFS are bg_kernels.c's own
 * kernels; HOT and BLK reuse the F/E benchmarks' kernels
 * (sw/kernels/fe_hotspot.c, fe_blackscholes.c, compiled for the CM machine
 * as cm_hot.c, cm_blk.c); the rest have their own
 * kernels, sw/kernels/cm_*.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe/fe_bench.h"
#include "work/bg_app.h"
#include "../sw/kernels/cm_args.h"
#include "../sw/kernels/fe_args.h"

#define OOM(name)                                                                                                      \
    do {                                                                                                               \
        snprintf(err, errlen, "bg_new %s: out of memory", name);                                                       \
        return NULL;                                                                                                   \
    } while (0)

/* ================================================================ HOT */
/* Rodinia hotspot: calculate_temp (sw/kernels/fe_hotspot.c) launched
 * total / pyramid times, ping-ponging the temperature buffers, as Rodinia's
 * compute_tran_temp.  Constants: Rodinia's hotspot.cu (fe_hs_params). */
#define HOT_PYRAMID 2
typedef struct {
    int n, total;            /* grid n x n, total iterations (a multiple of HOT_PYRAMID) */
    float *temp, *power, *ref;
    uint64_t d_temp[2], d_power, param;
    int launch;              /* launches done in this run */
    bool alloc;
} hot_st;

static void *hot_create(bg_run *b, bool paper, fg_rng *r, char *err, size_t errlen) {
    hot_st *s = calloc(1, sizeof *s);
    if (!s) OOM("hot");
    s->n = paper ? 512 : 64; /* Rodinia's 512 x 512 input */
    s->total = paper ? 8 : 4;
    const size_t nn = (size_t)s->n * s->n;
    s->temp = malloc(nn * 4);
    s->power = malloc(nn * 4);
    if (!s->temp || !s->power) {
        free(s->temp), free(s->power), free(s);
        OOM("hot");
    }
    for (size_t i = 0; i < nn; i++) { /* the ranges of Rodinia's temp_512 / power_512 */
        s->temp[i] = bg_app_frand(r, 322.0f, 345.0f);
        s->power[i] = bg_app_frand(r, 0.0f, 0.0004f);
    }
    const int small = FE_HS_BLOCK - 2 * HOT_PYRAMID, blocks = (s->n + small - 1) / small;
    bg_app_shape(b, 0, (uint32_t)blocks, (uint32_t)blocks, FE_HS_BLOCK, FE_HS_BLOCK, 0);
    bg_app_describe(b, "hot %dx%d grid, %d iterations in %d launches (pyramid %d) of %dx%d blocks of 16x16", s->n,
                    s->n, s->total, s->total / HOT_PYRAMID, HOT_PYRAMID, blocks, blocks);
    return s;
}

static int hot_param(bg_run *b, hot_st *s, char *err, size_t errlen) {
    fe_hs_args a;
    fe_hs_params((unsigned)s->n, HOT_PYRAMID, &a);
    a.power = (uint32_t)s->d_power;
    a.temp_src = (uint32_t)s->d_temp[s->launch & 1];
    a.temp_dst = (uint32_t)s->d_temp[(s->launch + 1) & 1];
    return bg_app_write(b, s->param, &a, sizeof a, err, errlen);
}

static int hot_start(bg_run *b, void *st, char *err, size_t errlen) {
    hot_st *s = st;
    const size_t bytes = (size_t)s->n * s->n * 4;
    if (!s->alloc) {
        if (!(s->d_temp[0] = bg_app_alloc(b, bytes, err, errlen)) ||
            !(s->d_temp[1] = bg_app_alloc(b, bytes, err, errlen)) ||
            !(s->d_power = bg_app_alloc(b, bytes, err, errlen)) || !(s->param = bg_app_alloc(b, 64, err, errlen)))
            return -1;
        s->alloc = true;
        bg_app_param(b, 0, s->param);
    }
    s->launch = 0;
    if (bg_app_write(b, s->d_temp[0], s->temp, bytes, err, errlen) ||
        bg_app_write(b, s->d_power, s->power, bytes, err, errlen) || hot_param(b, s, err, errlen))
        return -1;
    bg_app_output(b, s->d_temp[(s->total / HOT_PYRAMID) & 1], bytes);
    return 0;
}

static int hot_next(bg_run *b, void *st, unsigned ki, char *err, size_t errlen) {
    (void)ki;
    hot_st *s = st;
    if (++s->launch == s->total / HOT_PYRAMID) return BG_APP_DONE;
    return hot_param(b, s, err, errlen) ? -1 : 0;
}

/* The plain stencil over the whole grid, neighbours clamped at its edges,
 * `total` steps (what the pyramids compute). */
static int hot_check(bg_run *b, void *st, char *err, size_t errlen) {
    hot_st *s = st;
    const int n = s->n;
    const size_t nn = (size_t)n * n;
    if (!s->ref) {
        fe_hs_args a;
        fe_hs_params((unsigned)n, HOT_PYRAMID, &a);
        const float sdc = a.step / a.cap, rx_1 = 1.0f / a.rx, ry_1 = 1.0f / a.ry, rz_1 = 1.0f / a.rz;
        float *t = malloc(nn * 4), *u = malloc(nn * 4);
        if (!t || !u) {
            free(t), free(u);
            snprintf(err, errlen, "bg_check hot: out of memory");
            return -1;
        }
        memcpy(t, s->temp, nn * 4);
        for (int it = 0; it < s->total; it++) {
            for (int y = 0; y < n; y++)
                for (int x = 0; x < n; x++) {
                    const int no = y > 0 ? y - 1 : y, so = y < n - 1 ? y + 1 : y, we = x > 0 ? x - 1 : x,
                              ea = x < n - 1 ? x + 1 : x;
                    const float v = t[y * n + x];
                    u[y * n + x] = v + sdc * (s->power[y * n + x] + (t[so * n + x] + t[no * n + x] - 2.0f * v) * ry_1 +
                                              (t[y * n + ea] + t[y * n + we] - 2.0f * v) * rx_1 + (a.amb - v) * rz_1);
                }
            float *w = t;
            t = u;
            u = w;
        }
        free(u);
        s->ref = t;
    }
    return bg_app_cmp_f(b, "temp", s->d_temp[(s->total / HOT_PYRAMID) & 1], s->ref, nn, err, errlen);
}

static void hot_destroy(void *st) {
    hot_st *s = st;
    free(s->temp), free(s->power), free(s->ref), free(s);
}

static const bg_app app_hot = {"hot", "cm_hot", {"fe_hotspot", NULL}, hot_create, hot_start, hot_next,
                               hot_check, hot_destroy};

/* ================================================================ BLK */
/* CUDA SDK BlackScholes: call and put of every option (fe_blackscholes.c,
 * grid-stride loop), the SDK's ranges, riskless rate 0.02, volatility 0.30. */
#define BLK_R 0.02f
#define BLK_V 0.30f
#define BLK_BLOCK 256
typedef struct {
    unsigned n;
    float *in;               /* s, x, t: 3 n */
    uint64_t d[5], param;    /* call, put, s, x, t */
    bool alloc;
} blk_st;

static void *blk_create(bg_run *b, bool paper, fg_rng *r, char *err, size_t errlen) {
    blk_st *s = calloc(1, sizeof *s);
    if (!s) OOM("blk");
    s->n = paper ? 1u << 20 : 1u << 13;
    s->in = malloc((size_t)s->n * 12);
    if (!s->in) {
        free(s);
        OOM("blk");
    }
    for (unsigned i = 0; i < s->n; i++) { /* the SDK's ranges */
        s->in[i] = bg_app_frand(r, 5.0f, 30.0f);
        s->in[s->n + i] = bg_app_frand(r, 1.0f, 100.0f);
        s->in[2 * s->n + i] = bg_app_frand(r, 0.25f, 10.0f);
    }
    const unsigned grid = paper ? 480 : 16; /* the SDK's 480 blocks (of 256 threads: 6 blocks = 48 warps a core) */
    bg_app_shape(b, 0, grid, 1, BLK_BLOCK, 1, 0);
    bg_app_describe(b, "blk %u options, %u blocks of %u threads (grid-stride loop)", s->n, grid, BLK_BLOCK);
    return s;
}

static int blk_start(bg_run *b, void *st, char *err, size_t errlen) {
    blk_st *s = st;
    const size_t bytes = (size_t)s->n * 4;
    if (!s->alloc) {
        for (int i = 0; i < 5; i++)
            if (!(s->d[i] = bg_app_alloc(b, bytes, err, errlen))) return -1;
        if (!(s->param = bg_app_alloc(b, 64, err, errlen))) return -1;
        s->alloc = true;
        bg_app_param(b, 0, s->param);
        bg_app_output(b, s->d[0], bytes);
    }
    fe_bs_args a = {(uint32_t)s->d[0], (uint32_t)s->d[1], (uint32_t)s->d[2], (uint32_t)s->d[3],
                    (uint32_t)s->d[4], s->n, BLK_R, BLK_V};
    float *zero = calloc(1, bytes); /* call and put zeroed: every run's check sees this run's prices */
    if (!zero) {
        snprintf(err, errlen, "bg_start blk: out of memory");
        return -1;
    }
    int rc = bg_app_write(b, s->d[0], zero, bytes, err, errlen) || bg_app_write(b, s->d[1], zero, bytes, err, errlen);
    for (int i = 0; i < 3 && !rc; i++) rc = bg_app_write(b, s->d[2 + i], s->in + (size_t)i * s->n, bytes, err, errlen);
    rc = rc || bg_app_write(b, s->param, &a, sizeof a, err, errlen);
    free(zero);
    return rc ? -1 : 0;
}

/* next() of the applications of one launch */
static int one_launch(bg_run *b, void *st, unsigned ki, char *err, size_t errlen) {
    (void)b, (void)st, (void)ki, (void)err, (void)errlen;
    return BG_APP_DONE;
}

/* fe_bs_body (fe_args.h) is the arithmetic the kernel compiles, so the
 * prices match bit for bit; sim/fe/fe_bench.c checks that arithmetic against
 * double-precision libm. */
static int blk_check(bg_run *b, void *st, char *err, size_t errlen) {
    blk_st *s = st;
    float *call = malloc((size_t)s->n * 4), *put = malloc((size_t)s->n * 4);
    int rc = -1;
    if (!call || !put) snprintf(err, errlen, "bg_check blk: out of memory");
    else {
        for (unsigned i = 0; i < s->n; i++)
            fe_bs_body(s->in[i], s->in[s->n + i], s->in[2 * s->n + i], BLK_R, BLK_V, &call[i], &put[i]);
        rc = bg_app_cmp_f(b, "call", s->d[0], call, s->n, err, errlen) ||
                     bg_app_cmp_f(b, "put", s->d[1], put, s->n, err, errlen)
                 ? -1
                 : 0;
    }
    free(call), free(put);
    return rc;
}

static void blk_destroy(void *st) {
    blk_st *s = st;
    free(s->in), free(s);
}

static const bg_app app_blk = {"blk", "cm_blk", {"fe_blackscholes", NULL}, blk_create, blk_start, one_launch,
                               blk_check, blk_destroy};

/* ================================================================ MUM */
/* MUMmerGPU as GPGPU-Sim's MUM benchmark runs it: a 20,000-base reference
 * (NC_003997.20k) and 50,000 queries of 25 bases.  Ours: the reference
 * uniform random bases; each query a 25-base substring of it at a uniform
 * position with each base substituted (to one of the other three) with
 * probability 1/32, a sequencing error.  The suffix tree of ref + '$' is
 * built on the host by inserting the suffixes one by one (compressed edges). */
typedef struct {
    int rlen, nq, qlen, stride;
    uint8_t *ref, *queries;
    cm_mum_node *nodes;
    int nn;
    int32_t *ref_out;
    uint64_t d_nodes, d_ref, d_q, d_out, param;
    bool alloc;
} mum_st;

static int code_of(uint8_t c) { return c == 'A' ? 0 : c == 'C' ? 1 : c == 'G' ? 2 : c == 'T' ? 3 : 4; }

/* Naive suffix-tree construction: O(n x match depth), fast for random text.
 * Host nodes carry a fifth child for '$'. */
static int mum_build(mum_st *s) {
    const int n = s->rlen + 1; /* with '$' */
    const int cap = 2 * n + 1;
    int32_t (*ch)[5] = malloc((size_t)cap * sizeof *ch);
    int32_t *st = malloc((size_t)cap * 4), *ln = malloc((size_t)cap * 4);
    if (!ch || !st || !ln) {
        free(ch), free(st), free(ln);
        return -1;
    }
    int nn = 1;
    st[0] = 0, ln[0] = 0;
    for (int c = 0; c < 5; c++) ch[0][c] = -1;
    const uint8_t *T = s->ref;
    for (int i = 0; i < n; i++) {
        int node = 0, p = i;
        for (;;) {
            const int c = code_of(T[p]), x = ch[node][c];
            if (x < 0) { /* a new leaf */
                st[nn] = p, ln[nn] = n - p;
                for (int k = 0; k < 5; k++) ch[nn][k] = -1;
                ch[node][c] = nn++;
                break;
            }
            int k = 0;
            while (k < ln[x] && T[st[x] + k] == T[p + k]) k++;
            if (k == ln[x]) {
                node = x, p += k;
                continue;
            }
            /* split the edge into x after k characters */
            const int m = nn++;
            st[m] = st[x], ln[m] = k;
            for (int j = 0; j < 5; j++) ch[m][j] = -1;
            st[x] += k, ln[x] -= k;
            ch[m][code_of(T[st[x]])] = x;
            ch[node][c] = m;
            node = m, p += k; /* the leaf hangs from m next round */
        }
    }
    s->nodes = malloc((size_t)nn * sizeof *s->nodes);
    if (s->nodes)
        for (int i = 0; i < nn; i++) {
            s->nodes[i].start = st[i], s->nodes[i].len = ln[i];
            for (int c = 0; c < 4; c++) s->nodes[i].child[c] = ch[i][c];
        }
    s->nn = nn;
    free(ch), free(st), free(ln);
    return s->nodes ? 0 : -1;
}

/* The kernel's walk (cm_mum.c) on the host. */
static int mum_walk(const mum_st *s, const uint8_t *q, int off) {
    int node = 0, m = 0;
    for (;;) {
        if (off + m >= s->qlen) break;
        const int c = code_of(q[off + m]);
        if (c > 3) break;
        const int ch = s->nodes[node].child[c];
        if (ch < 0) break;
        const int st = s->nodes[ch].start, len = s->nodes[ch].len;
        int k = 0;
        while (k < len && off + m < s->qlen && s->ref[st + k] == q[off + m]) k++, m++;
        if (k < len) break;
        node = ch;
    }
    return m;
}

/* Independent of the tree: the longest prefix of q[off, qlen) found in ref
 * by brute force. */
static int mum_brute(const mum_st *s, const uint8_t *q, int off) {
    int best = 0;
    for (int p = 0; p < s->rlen; p++) {
        int k = 0;
        while (off + k < s->qlen && p + k < s->rlen && s->ref[p + k] == q[off + k]) k++;
        if (k > best) best = k;
    }
    return best;
}

static void *mum_create(bg_run *b, bool paper, fg_rng *r, char *err, size_t errlen) {
    mum_st *s = calloc(1, sizeof *s);
    if (!s) OOM("mum");
    s->rlen = paper ? 20000 : 2000;
    s->nq = paper ? 50000 : 512;
    s->qlen = 25;
    s->stride = s->qlen + 1; /* MUMmerGPU's queries: concatenated, 0-terminated */
    s->ref = malloc((size_t)s->rlen + 1);
    s->queries = calloc((size_t)s->nq, (size_t)s->stride);
    if (!s->ref || !s->queries) goto oom;
    static const char B[4] = {'A', 'C', 'G', 'T'};
    for (int i = 0; i < s->rlen; i++) s->ref[i] = (uint8_t)B[fg_rng_below(r, 4)];
    s->ref[s->rlen] = '$';
    for (int i = 0; i < s->nq; i++) {
        const int p = (int)fg_rng_below(r, (uint64_t)(s->rlen - s->qlen + 1));
        uint8_t *q = s->queries + (size_t)i * s->stride;
        for (int k = 0; k < s->qlen; k++) {
            q[k] = s->ref[p + k];
            if (fg_rng_below(r, 32) == 0) q[k] = (uint8_t)B[(code_of(q[k]) + 1 + fg_rng_below(r, 3)) & 3];
        }
    }
    if (mum_build(s)) goto oom;
    const uint32_t grid = (uint32_t)((s->nq + CM_MUM_THREADS - 1) / CM_MUM_THREADS);
    bg_app_shape(b, 0, grid, 1, CM_MUM_THREADS, 1, 0);
    bg_app_describe(b, "mum %d-base reference (suffix tree of %d nodes), %d queries of %d bases, %u blocks of %d threads",
                    s->rlen, s->nn, s->nq, s->qlen, grid, CM_MUM_THREADS);
    return s;
oom:
    free(s->ref), free(s->queries), free(s);
    OOM("mum");
}

static int mum_start(bg_run *b, void *st, char *err, size_t errlen) {
    mum_st *s = st;
    const size_t out = (size_t)s->nq * s->qlen * 4, qb = (size_t)s->nq * s->stride;
    if (!s->alloc) {
        if (!(s->d_nodes = bg_app_alloc(b, (uint64_t)s->nn * sizeof *s->nodes, err, errlen)) ||
            !(s->d_ref = bg_app_alloc(b, (uint64_t)s->rlen + 1, err, errlen)) ||
            !(s->d_q = bg_app_alloc(b, qb, err, errlen)) || !(s->d_out = bg_app_alloc(b, out, err, errlen)) ||
            !(s->param = bg_app_alloc(b, 64, err, errlen)))
            return -1;
        s->alloc = true;
        bg_app_param(b, 0, s->param);
        bg_app_output(b, s->d_out, out);
    }
    cm_mum_args a = {(uint32_t)s->d_nodes, (uint32_t)s->d_ref, (uint32_t)s->d_q, (uint32_t)s->d_out,
                     s->nq, s->qlen, s->stride};
    int32_t *minus = malloc(out);
    if (!minus) {
        snprintf(err, errlen, "bg_start mum: out of memory");
        return -1;
    }
    memset(minus, 0xff, out); /* -1: every run's check sees this run's results */
    int rc = bg_app_write(b, s->d_nodes, s->nodes, (size_t)s->nn * sizeof *s->nodes, err, errlen) ||
             bg_app_write(b, s->d_ref, s->ref, (size_t)s->rlen + 1, err, errlen) ||
             bg_app_write(b, s->d_q, s->queries, qb, err, errlen) || bg_app_write(b, s->d_out, minus, out, err, errlen) ||
             bg_app_write(b, s->param, &a, sizeof a, err, errlen);
    free(minus);
    return rc ? -1 : 0;
}

static int mum_check(bg_run *b, void *st, char *err, size_t errlen) {
    mum_st *s = st;
    if (!s->ref_out) {
        s->ref_out = malloc((size_t)s->nq * s->qlen * 4);
        if (!s->ref_out) {
            snprintf(err, errlen, "bg_check mum: out of memory");
            return -1;
        }
        for (int i = 0; i < s->nq; i++)
            for (int o = 0; o < s->qlen; o++)
                s->ref_out[(size_t)i * s->qlen + o] = mum_walk(s, s->queries + (size_t)i * s->stride, o);
        /* the tree walk against brute force on the first queries */
        for (int i = 0; i < 16 && i < s->nq; i++)
            for (int o = 0; o < s->qlen; o++) {
                const int w = s->ref_out[(size_t)i * s->qlen + o], f = mum_brute(s, s->queries + (size_t)i * s->stride, o);
                if (w != f) {
                    snprintf(err, errlen, "bg mum: host suffix tree: query %d offset %d matches %d, brute force %d", i,
                             o, w, f);
                    free(s->ref_out);
                    s->ref_out = NULL;
                    return -1;
                }
            }
    }
    return bg_app_cmp_i(b, "match", s->d_out, s->ref_out, (size_t)s->nq * s->qlen, err, errlen);
}

static void mum_destroy(void *st) {
    mum_st *s = st;
    free(s->ref), free(s->queries), free(s->nodes), free(s->ref_out), free(s);
}

static const bg_app app_mum = {"mum", "cm_mum", {"cm_mum", NULL}, mum_create, mum_start, one_launch, mum_check,
                               mum_destroy};

/* ================================================================ IIX */
/* Mars InvertedIndex over generated HTML documents: words of 2-9 random
 * lowercase letters and `<p>` / `<b>` tags, and on average one link per 48
 * bytes, `<a href="http://www.siteK.com/pageJ.html">`, K and J drawn so that a
 * few URLs are common (K < 64 uniform, J = min of two uniform draws below
 * 256); documents padded with spaces to doc_len.  The generator records each
 * document's URLs: the reference is their FNV-1a hashes, independent of the
 * kernel's scanner. */
typedef struct {
    int nd, len, stride, links;
    uint8_t *docs;
    int32_t *counts, *offsets, *keys, *vals; /* the reference (offsets: the prefix sum) */
    uint64_t d_docs, d_counts, d_offsets, d_keys, d_vals, param;
    bool alloc;
} iix_st;

static uint32_t fnv(const char *p, size_t n) {
    uint32_t h = CM_IIX_FNV_BASIS;
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)p[i]) * CM_IIX_FNV_PRIME;
    return h;
}

static void *iix_create(bg_run *b, bool paper, fg_rng *r, char *err, size_t errlen) {
    iix_st *s = calloc(1, sizeof *s);
    if (!s) OOM("iix");
    s->nd = paper ? 28 * 1536 : 512; /* one document per thread slot of the CM GPU */
    s->len = s->stride = 256;
    const size_t maxl = (size_t)s->nd * (size_t)(s->len / 30 + 1);
    s->docs = malloc((size_t)s->nd * s->stride);
    s->counts = calloc((size_t)s->nd, 4);
    s->offsets = calloc((size_t)s->nd, 4);
    s->keys = malloc(maxl * 4);
    s->vals = malloc(maxl * 4);
    if (!s->docs || !s->counts || !s->offsets || !s->keys || !s->vals) goto oom;
    int nl = 0;
    for (int d = 0; d < s->nd; d++) {
        char *doc = (char *)s->docs + (size_t)d * s->stride;
        int p = 0;
        s->offsets[d] = nl;
        for (;;) {
            char tok[80];
            int tl, url0 = -1, url1 = -1;
            if (fg_rng_below(r, 6) == 0) {
                const unsigned k = (unsigned)fg_rng_below(r, 64), j1 = (unsigned)fg_rng_below(r, 256),
                               j2 = (unsigned)fg_rng_below(r, 256);
                tl = snprintf(tok, sizeof tok, "<a href=\"http://www.site%u.com/page%u.html\">", k, j1 < j2 ? j1 : j2);
                url0 = 9, url1 = tl - 2;
            } else if (fg_rng_below(r, 8) == 0) {
                tl = snprintf(tok, sizeof tok, fg_rng_below(r, 2) ? "<p>" : "<b>");
            } else {
                tl = 2 + (int)fg_rng_below(r, 8);
                for (int i = 0; i < tl; i++) tok[i] = (char)('a' + fg_rng_below(r, 26));
            }
            if (p + tl + 1 > s->len) break;
            memcpy(doc + p, tok, (size_t)tl);
            doc[p + tl] = ' ';
            p += tl + 1;
            if (url0 >= 0) {
                s->keys[nl] = (int32_t)fnv(tok + url0, (size_t)(url1 - url0));
                s->vals[nl++] = d;
                s->counts[d]++;
            }
        }
        memset(doc + p, ' ', (size_t)(s->stride - p));
    }
    s->links = nl;
    const uint32_t grid = (uint32_t)((s->nd + CM_IIX_THREADS - 1) / CM_IIX_THREADS);
    bg_app_shape(b, 0, grid, 1, CM_IIX_THREADS, 1, 0);
    bg_app_shape(b, 1, grid, 1, CM_IIX_THREADS, 1, 0);
    bg_app_describe(b, "iix %d documents of %d bytes, %d links; map_count + map, %u blocks of %d threads each", s->nd,
                    s->len, s->links, grid, CM_IIX_THREADS);
    return s;
oom:
    free(s->docs), free(s->counts), free(s->offsets), free(s->keys), free(s->vals), free(s);
    OOM("iix");
}

static int iix_start(bg_run *b, void *st, char *err, size_t errlen) {
    iix_st *s = st;
    const size_t nb = (size_t)s->nd * 4, lb = (size_t)(s->links ? s->links : 1) * 4;
    if (!s->alloc) {
        if (!(s->d_docs = bg_app_alloc(b, (uint64_t)s->nd * s->stride, err, errlen)) ||
            !(s->d_counts = bg_app_alloc(b, nb, err, errlen)) || !(s->d_offsets = bg_app_alloc(b, nb, err, errlen)) ||
            !(s->d_keys = bg_app_alloc(b, lb, err, errlen)) || !(s->d_vals = bg_app_alloc(b, lb, err, errlen)) ||
            !(s->param = bg_app_alloc(b, 64, err, errlen)))
            return -1;
        s->alloc = true;
        bg_app_param(b, 0, s->param);
        bg_app_param(b, 1, s->param);
        bg_app_output(b, s->d_keys, lb);
    }
    cm_iix_args a = {(uint32_t)s->d_docs, (uint32_t)s->d_counts, (uint32_t)s->d_offsets, (uint32_t)s->d_keys,
                     (uint32_t)s->d_vals, s->nd, s->len, s->stride};
    int32_t *minus = malloc(lb > nb ? lb : nb);
    if (!minus) {
        snprintf(err, errlen, "bg_start iix: out of memory");
        return -1;
    }
    memset(minus, 0xff, lb > nb ? lb : nb);
    int rc = bg_app_write(b, s->d_docs, s->docs, (size_t)s->nd * s->stride, err, errlen) ||
             bg_app_write(b, s->d_counts, minus, nb, err, errlen) || bg_app_write(b, s->d_keys, minus, lb, err, errlen) ||
             bg_app_write(b, s->d_vals, minus, lb, err, errlen) || bg_app_write(b, s->param, &a, sizeof a, err, errlen);
    free(minus);
    return rc ? -1 : 0;
}

/* Between MapCount and Map: the exclusive prefix sum of the counts (Mars
 * runs it as a GPU scan; here host work, which takes no GPU cycles). */
static int iix_next(bg_run *b, void *st, unsigned ki, char *err, size_t errlen) {
    iix_st *s = st;
    if (ki == 1) return BG_APP_DONE;
    int32_t *c = malloc((size_t)s->nd * 4);
    if (!c) {
        snprintf(err, errlen, "bg iix: out of memory");
        return -1;
    }
    int rc = bg_app_read(b, s->d_counts, c, (size_t)s->nd * 4, err, errlen);
    int64_t sum = 0;
    for (int d = 0; d < s->nd && !rc; d++) {
        const int32_t n = c[d];
        if (n < 0 || sum + n > s->links) { /* the map's writes must stay inside the buffers */
            snprintf(err, errlen, "bg iix: map_count: document %d has %d links (%lld before it, %d in all)", d, (int)n,
                     (long long)sum, s->links);
            rc = -1;
        }
        c[d] = (int32_t)sum;
        sum += n;
    }
    rc = rc || bg_app_write(b, s->d_offsets, c, (size_t)s->nd * 4, err, errlen);
    free(c);
    return rc ? -1 : 1;
}

static int iix_check(bg_run *b, void *st, char *err, size_t errlen) {
    iix_st *s = st;
    return bg_app_cmp_i(b, "count", s->d_counts, s->counts, (size_t)s->nd, err, errlen) ||
                   bg_app_cmp_i(b, "key", s->d_keys, s->keys, (size_t)s->links, err, errlen) ||
                   bg_app_cmp_i(b, "doc", s->d_vals, s->vals, (size_t)s->links, err, errlen)
               ? -1
               : 0;
}

static void iix_destroy(void *st) {
    iix_st *s = st;
    free(s->docs), free(s->counts), free(s->offsets), free(s->keys), free(s->vals), free(s);
}

static const bg_app app_iix = {"iix", "cm_iix", {"cm_iix_count", "cm_iix_map", NULL}, iix_create, iix_start,
                               iix_next, iix_check, iix_destroy};

/* ================================================================ PATH */
/* Rodinia pathfinder: a rows x cols grid of wall costs uniform in 0..9
 * (Rodinia's `rand() % 10`); result row 0 = wall row 0; each launch of
 * dynproc_kernel advances `pyramid` rows (Rodinia's run: 100000 columns, 100
 * rows, pyramid height 20; ours 101 rows so that every launch is a whole
 * pyramid). */
typedef struct {
    int cols, rows, pyr;
    int32_t *wall, *ref;
    uint64_t d_wall, d_res[2], param;
    int launch;
    bool alloc;
} path_st;

static void *path_create(bg_run *b, bool paper, fg_rng *r, char *err, size_t errlen) {
    path_st *s = calloc(1, sizeof *s);
    if (!s) OOM("path");
    s->cols = paper ? 100000 : 4000;
    s->rows = paper ? 101 : 21;
    s->pyr = paper ? 20 : 5;
    s->wall = malloc((size_t)s->rows * s->cols * 4);
    if (!s->wall) {
        free(s);
        OOM("path");
    }
    for (size_t i = 0; i < (size_t)s->rows * s->cols; i++) s->wall[i] = (int32_t)fg_rng_below(r, 10);
    const int small = CM_PATH_BLOCK - 2 * s->pyr, blocks = (s->cols + small - 1) / small;
    bg_app_shape(b, 0, (uint32_t)blocks, 1, CM_PATH_BLOCK, 1, 0);
    bg_app_describe(b, "path %d columns x %d rows, %d launches (pyramid %d) of %d blocks of %d threads", s->cols,
                    s->rows, (s->rows - 1) / s->pyr, s->pyr, blocks, CM_PATH_BLOCK);
    return s;
}

static int path_param(bg_run *b, path_st *s, char *err, size_t errlen) {
    cm_path_args a = {s->pyr, (uint32_t)(s->d_wall + (uint64_t)s->cols * 4), (uint32_t)s->d_res[s->launch & 1],
                      (uint32_t)s->d_res[(s->launch + 1) & 1], s->cols, s->rows, s->launch * s->pyr, s->pyr};
    return bg_app_write(b, s->param, &a, sizeof a, err, errlen);
}

static int path_start(bg_run *b, void *st, char *err, size_t errlen) {
    path_st *s = st;
    const size_t rb = (size_t)s->cols * 4;
    if (!s->alloc) {
        if (!(s->d_wall = bg_app_alloc(b, rb * s->rows, err, errlen)) ||
            !(s->d_res[0] = bg_app_alloc(b, rb, err, errlen)) || !(s->d_res[1] = bg_app_alloc(b, rb, err, errlen)) ||
            !(s->param = bg_app_alloc(b, 64, err, errlen)))
            return -1;
        s->alloc = true;
        bg_app_param(b, 0, s->param);
        bg_app_output(b, s->d_res[((s->rows - 1) / s->pyr) & 1], rb);
    }
    s->launch = 0;
    return bg_app_write(b, s->d_wall, s->wall, rb * s->rows, err, errlen) ||
                   bg_app_write(b, s->d_res[0], s->wall, rb, err, errlen) || path_param(b, s, err, errlen)
               ? -1
               : 0;
}

static int path_next(bg_run *b, void *st, unsigned ki, char *err, size_t errlen) {
    (void)ki;
    path_st *s = st;
    if (++s->launch == (s->rows - 1) / s->pyr) return BG_APP_DONE;
    return path_param(b, s, err, errlen) ? -1 : 0;
}

static int path_check(bg_run *b, void *st, char *err, size_t errlen) {
    path_st *s = st;
    const int n = s->cols;
    if (!s->ref) {
        int32_t *cur = malloc((size_t)n * 4), *nxt = malloc((size_t)n * 4);
        if (!cur || !nxt) {
            free(cur), free(nxt);
            snprintf(err, errlen, "bg_check path: out of memory");
            return -1;
        }
        memcpy(cur, s->wall, (size_t)n * 4);
        for (int t = 1; t < s->rows; t++) {
            for (int x = 0; x < n; x++) {
                int m = cur[x];
                if (x > 0 && cur[x - 1] < m) m = cur[x - 1];
                if (x < n - 1 && cur[x + 1] < m) m = cur[x + 1];
                nxt[x] = m + s->wall[(size_t)t * n + x];
            }
            int32_t *w = cur;
            cur = nxt;
            nxt = w;
        }
        free(nxt);
        s->ref = cur;
    }
    return bg_app_cmp_i(b, "result", s->d_res[((s->rows - 1) / s->pyr) & 1], s->ref, (size_t)n, err, errlen);
}

static void path_destroy(void *st) {
    path_st *s = st;
    free(s->wall), free(s->ref), free(s);
}

static const bg_app app_path = {"path", "cm_path", {"cm_path", NULL}, path_create, path_start, path_next,
                                path_check, path_destroy};

/* ================================================================ SSSP */
/* LonestarGPU sssp on a Rodinia graphgen-style graph (bg_bfs_graph: 2..4
 * random neighbours per node, every edge both ways, about 6 per node) with
 * weights uniform in 1..100 (independent per direction), source node 0. */
typedef struct {
    int n, m;
    int32_t *row, *col, *w, *ref;
    uint64_t d_row, d_col, d_w, d_dist, d_changed, param;
    unsigned launches;
    bool alloc;
} sssp_st;

static void *sssp_create(bg_run *b, bool paper, fg_rng *r, char *err, size_t errlen) {
    sssp_st *s = calloc(1, sizeof *s);
    if (!s) OOM("sssp");
    s->n = paper ? 65536 : 2048;
    bg_bfs_node *nodes = NULL;
    int32_t *edges = NULL;
    size_t ne = 0;
    if (bg_bfs_graph(r, (size_t)s->n, true, &nodes, &edges, &ne)) {
        free(s);
        OOM("sssp");
    }
    s->m = (int)ne;
    s->row = malloc(((size_t)s->n + 1) * 4);
    s->w = malloc(ne * 4);
    if (!s->row || !s->w) {
        free(nodes), free(edges), free(s->row), free(s->w), free(s);
        OOM("sssp");
    }
    for (int i = 0; i < s->n; i++) s->row[i] = nodes[i].starting;
    s->row[s->n] = s->m;
    for (size_t e = 0; e < ne; e++) s->w[e] = 1 + (int32_t)fg_rng_below(r, 100);
    s->col = edges;
    free(nodes);
    const uint32_t grid = (uint32_t)((s->n + CM_SSSP_THREADS - 1) / CM_SSSP_THREADS);
    bg_app_shape(b, 0, grid, 1, CM_SSSP_THREADS, 1, 0);
    bg_app_describe(b, "sssp %d nodes, %d edges (weights 1..100), relax launches until no change, %u blocks of %d threads",
                    s->n, s->m, grid, CM_SSSP_THREADS);
    return s;
}

static int sssp_start(bg_run *b, void *st, char *err, size_t errlen) {
    sssp_st *s = st;
    const size_t nb = (size_t)s->n * 4;
    if (!s->alloc) {
        if (!(s->d_row = bg_app_alloc(b, nb + 4, err, errlen)) ||
            !(s->d_col = bg_app_alloc(b, (uint64_t)s->m * 4, err, errlen)) ||
            !(s->d_w = bg_app_alloc(b, (uint64_t)s->m * 4, err, errlen)) ||
            !(s->d_dist = bg_app_alloc(b, nb, err, errlen)) || !(s->d_changed = bg_app_alloc(b, 4, err, errlen)) ||
            !(s->param = bg_app_alloc(b, 64, err, errlen)))
            return -1;
        s->alloc = true;
        bg_app_param(b, 0, s->param);
        bg_app_output(b, s->d_dist, nb);
    }
    int32_t *dist = malloc(nb);
    if (!dist) {
        snprintf(err, errlen, "bg_start sssp: out of memory");
        return -1;
    }
    for (int i = 0; i < s->n; i++) dist[i] = CM_SSSP_INF;
    dist[0] = 0;
    const int32_t zero = 0;
    cm_sssp_args a = {(uint32_t)s->d_row, (uint32_t)s->d_col, (uint32_t)s->d_w, (uint32_t)s->d_dist,
                      (uint32_t)s->d_changed, s->n};
    int rc = bg_app_write(b, s->d_row, s->row, nb + 4, err, errlen) ||
             bg_app_write(b, s->d_col, s->col, (size_t)s->m * 4, err, errlen) ||
             bg_app_write(b, s->d_w, s->w, (size_t)s->m * 4, err, errlen) || bg_app_write(b, s->d_dist, dist, nb, err, errlen) ||
             bg_app_write(b, s->d_changed, &zero, 4, err, errlen) || bg_app_write(b, s->param, &a, sizeof a, err, errlen);
    free(dist);
    s->launches = 1;
    return rc ? -1 : 0;
}

static int sssp_next(bg_run *b, void *st, unsigned ki, char *err, size_t errlen) {
    (void)ki;
    sssp_st *s = st;
    int32_t changed;
    if (bg_app_read(b, s->d_changed, &changed, 4, err, errlen)) return -1;
    if (!changed) return BG_APP_DONE;
    if (++s->launches > (unsigned)s->n) { /* Bellman-Ford needs at most n - 1 rounds */
        snprintf(err, errlen, "bg sssp: more than %d relax launches", s->n);
        return -1;
    }
    changed = 0;
    return bg_app_write(b, s->d_changed, &changed, 4, err, errlen) ? -1 : 0;
}

/* Dijkstra with a binary heap of (distance, node), stale entries skipped. */
static int sssp_ref(sssp_st *s) {
    int64_t *h = malloc(((size_t)s->m + 1) * 8);
    s->ref = malloc((size_t)s->n * 4);
    if (!h || !s->ref) {
        free(h);
        return -1;
    }
    for (int i = 0; i < s->n; i++) s->ref[i] = CM_SSSP_INF;
    size_t hn = 0;
    s->ref[0] = 0;
    h[hn++] = 0; /* (dist << 32) | node */
    while (hn) {
        const int64_t top = h[0];
        h[0] = h[--hn];
        for (size_t i = 0;;) { /* sift down */
            size_t c = 2 * i + 1;
            if (c >= hn) break;
            if (c + 1 < hn && h[c + 1] < h[c]) c++;
            if (h[i] <= h[c]) break;
            const int64_t t = h[i];
            h[i] = h[c], h[c] = t, i = c;
        }
        const int u = (int)(top & 0xffffffff), du = (int)(top >> 32);
        if (du != s->ref[u]) continue;
        for (int e = s->row[u]; e < s->row[u + 1]; e++) {
            const int v = s->col[e], nd = du + s->w[e];
            if (nd >= s->ref[v]) continue;
            s->ref[v] = nd;
            size_t i = hn++; /* sift up */
            h[i] = ((int64_t)nd << 32) | v;
            while (i && h[(i - 1) / 2] > h[i]) {
                const int64_t t = h[i];
                h[i] = h[(i - 1) / 2], h[(i - 1) / 2] = t, i = (i - 1) / 2;
            }
        }
    }
    free(h);
    return 0;
}

static int sssp_check(bg_run *b, void *st, char *err, size_t errlen) {
    sssp_st *s = st;
    if (!s->ref && sssp_ref(s)) {
        snprintf(err, errlen, "bg_check sssp: out of memory");
        return -1;
    }
    return bg_app_cmp_i(b, "dist", s->d_dist, s->ref, (size_t)s->n, err, errlen);
}

static void sssp_destroy(void *st) {
    sssp_st *s = st;
    free(s->row), free(s->col), free(s->w), free(s->ref), free(s);
}

static const bg_app app_sssp = {"sssp", "cm_sssp", {"cm_sssp", NULL}, sssp_create, sssp_start, sssp_next,
                                sssp_check, sssp_destroy};

/* ================================================================ PVC */
/* The web log of PVC and PVR: records `GET /URL HTTP/1.1 a.b.c.d\n` with
 * URL `siteK/pageJ.html`, K uniform below `sites` (256) and J the smaller of
 * two uniform draws below 1024 (some pages popular), client addresses
 * uniform.  url[i] = K * 1024 + J, what the references count; with log NULL
 * only the draws are made (PVR's input is PVC's output, not the log). */
#define WEBLOG_PAGES 1024
#define WEBLOG_SITES 256
#define WEBLOG_URLS (WEBLOG_SITES * WEBLOG_PAGES)
static int weblog_url(int32_t id, char *buf, size_t len) {
    return snprintf(buf, len, "site%u/page%u.html", (unsigned)id / WEBLOG_PAGES, (unsigned)id % WEBLOG_PAGES);
}

/* log: n * 64 bytes, off: n + 1; returns the log's bytes */
static size_t weblog_gen(fg_rng *r, int n, unsigned sites, uint8_t *log, int32_t *off, int32_t *url) {
    size_t p = 0;
    for (int i = 0; i < n; i++) {
        const unsigned k = (unsigned)fg_rng_below(r, sites), j1 = (unsigned)fg_rng_below(r, WEBLOG_PAGES),
                       j2 = (unsigned)fg_rng_below(r, WEBLOG_PAGES);
        url[i] = (int32_t)(k * WEBLOG_PAGES + (j1 < j2 ? j1 : j2));
        unsigned ip[4];
        for (int c = 0; c < 4; c++) ip[c] = (unsigned)fg_rng_below(r, 256);
        if (!log) continue;
        char u[40];
        weblog_url(url[i], u, sizeof u);
        off[i] = (int32_t)p;
        p += (size_t)snprintf((char *)log + p, 64, "GET /%s HTTP/1.1 %u.%u.%u.%u\n", u, ip[0], ip[1], ip[2], ip[3]);
    }
    if (log) off[n] = (int32_t)p;
    return p;
}

/* Mars PageViewCount over the web log.  The reference counts the
 * generator's URLs per bucket (FNV-1a of the URL, as the kernel),
 * independent of the kernel's parser. */
typedef struct {
    int n;
    size_t bytes;
    uint8_t *log;
    int32_t *off, *ref;
    uint64_t d_log, d_off, d_table, param;
    bool alloc;
} pvc_st;

static void *pvc_create(bg_run *b, bool paper, fg_rng *r, char *err, size_t errlen) {
    pvc_st *s = calloc(1, sizeof *s);
    if (!s) OOM("pvc");
    s->n = paper ? 1 << 19 : 1 << 13;
    s->off = malloc(((size_t)s->n + 1) * 4);
    s->ref = calloc(CM_PVC_BUCKETS, 4);
    s->log = malloc((size_t)s->n * 64);
    int32_t *url = malloc((size_t)s->n * 4);
    if (!s->off || !s->ref || !s->log || !url) {
        free(s->off), free(s->ref), free(s->log), free(url), free(s);
        OOM("pvc");
    }
    s->bytes = weblog_gen(r, s->n, WEBLOG_SITES, s->log, s->off, url);
    for (int i = 0; i < s->n; i++) {
        char u[40];
        const int ul = weblog_url(url[i], u, sizeof u);
        /* the kernel hashes the URL field, "/" included */
        uint32_t h = (CM_IIX_FNV_BASIS ^ (uint8_t)'/') * CM_IIX_FNV_PRIME;
        for (int c = 0; c < ul; c++) h = (h ^ (uint8_t)u[c]) * CM_IIX_FNV_PRIME;
        s->ref[h & (CM_PVC_BUCKETS - 1)]++;
    }
    free(url);
    const uint32_t grid = paper ? 28 * 6 : 8; /* every thread slot of the CM GPU once (grid-stride loop) */
    bg_app_shape(b, 0, grid, 1, CM_PVC_THREADS, 1, 0);
    bg_app_describe(b, "pvc %d log records (%zu bytes), %d buckets, %u blocks of %d threads (grid-stride loop)", s->n,
                    s->bytes, CM_PVC_BUCKETS, grid, CM_PVC_THREADS);
    return s;
}

static int pvc_start(bg_run *b, void *st, char *err, size_t errlen) {
    pvc_st *s = st;
    const size_t tb = CM_PVC_BUCKETS * 4;
    if (!s->alloc) {
        if (!(s->d_log = bg_app_alloc(b, s->bytes, err, errlen)) ||
            !(s->d_off = bg_app_alloc(b, ((uint64_t)s->n + 1) * 4, err, errlen)) ||
            !(s->d_table = bg_app_alloc(b, tb, err, errlen)) || !(s->param = bg_app_alloc(b, 64, err, errlen)))
            return -1;
        s->alloc = true;
        bg_app_param(b, 0, s->param);
        bg_app_output(b, s->d_table, tb);
    }
    cm_pvc_args a = {(uint32_t)s->d_log, (uint32_t)s->d_off, (uint32_t)s->d_table, s->n};
    int32_t *zero = calloc(1, tb);
    if (!zero) {
        snprintf(err, errlen, "bg_start pvc: out of memory");
        return -1;
    }
    const int rc = bg_app_write(b, s->d_log, s->log, s->bytes, err, errlen) ||
                   bg_app_write(b, s->d_off, s->off, ((size_t)s->n + 1) * 4, err, errlen) ||
                   bg_app_write(b, s->d_table, zero, tb, err, errlen) || bg_app_write(b, s->param, &a, sizeof a, err, errlen);
    free(zero);
    return rc ? -1 : 0;
}

static int pvc_check(bg_run *b, void *st, char *err, size_t errlen) {
    pvc_st *s = st;
    return bg_app_cmp_i(b, "views", s->d_table, s->ref, CM_PVC_BUCKETS, err, errlen);
}

static void pvc_destroy(void *st) {
    pvc_st *s = st;
    free(s->log), free(s->off), free(s->ref), free(s);
}

static const bg_app app_pvc = {"pvc", "cm_pvc", {"cm_pvc", NULL}, pvc_create, pvc_start, one_launch, pvc_check,
                               pvc_destroy};

/* ================================================================ PVR */
/* Mars PageViewRank on PVC's output: the web log of PVC (weblog_gen, its
 * own stream) counted per URL on the host gives the input, one line
 * `URL\tviews\n` per distinct URL in URL order, and Mars's main turns each
 * into a map input record (views, the line's offset).  The GPU maps, then
 * sorts the records by views with one bitonic step per launch; the top ten
 * are the first ten records (Mars's group stage, which only finds where
 * equal views start, is not run).  The reference sorts the generator's
 * counts on the host. */
typedef struct {
    int nlog, n, n_pad, k, j, steps;
    int32_t *in, *ref;       /* in: (views, offset) pairs; ref: views sorted, most first */
    char *text;              /* the input lines */
    uint64_t d_in, d_inter, d_recs, param;
    bool alloc;
} pvr_st;

static int cmp_desc(const void *a, const void *b) {
    const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return x > y ? -1 : x < y;
}

static void *pvr_create(bg_run *b, bool paper, fg_rng *r, char *err, size_t errlen) {
    pvr_st *s = calloc(1, sizeof *s);
    if (!s) OOM("pvr");
    /* paper: PVC's log; test: a smaller one of fewer sites, so that views
     * spread beyond 1 and a wrong order shows */
    s->nlog = paper ? 1 << 19 : 1 << 12;
    const unsigned sites = paper ? WEBLOG_SITES : 4;
    int32_t *url = malloc((size_t)s->nlog * 4), *views = calloc(WEBLOG_URLS, 4);
    if (!url || !views) goto oom;
    weblog_gen(r, s->nlog, sites, NULL, NULL, url);
    for (int i = 0; i < s->nlog; i++) views[url[i]]++;
    for (int u = 0; u < WEBLOG_URLS; u++) s->n += views[u] > 0;
    s->n_pad = CM_PVR_THREADS;
    while (s->n_pad < s->n) s->n_pad *= 2;
    s->in = malloc((size_t)s->n * 8);
    s->ref = malloc((size_t)s->n * 4);
    s->text = malloc((size_t)s->n * 32);
    if (!s->in || !s->ref || !s->text) goto oom;
    size_t p = 0;
    int i = 0;
    for (int u = 0; u < WEBLOG_URLS; u++)
        if (views[u]) {
            s->in[2 * i] = views[u];
            s->in[2 * i + 1] = (int32_t)p;
            s->ref[i++] = views[u];
            p += (size_t)weblog_url(u, s->text + p, 24);
            p += (size_t)snprintf(s->text + p, 8, "\t%d\n", (int)views[u]);
        }
    qsort(s->ref, (size_t)s->n, 4, cmp_desc);
    free(url), free(views);
    for (int k = 2; k <= s->n_pad; k *= 2)
        for (int j = k / 2; j > 0; j /= 2) s->steps++;
    const uint32_t grid = (uint32_t)(s->n_pad / CM_PVR_THREADS);
    bg_app_shape(b, 0, grid, 1, CM_PVR_THREADS, 1, 0);
    bg_app_shape(b, 1, grid, 1, CM_PVR_THREADS, 1, 0);
    bg_app_describe(b, "pvr %d URLs of a %d-record web log (most views %d); map + %d bitonic steps over %d records, %u blocks of %d threads each",
                    s->n, s->nlog, (int)s->ref[0], s->steps, s->n_pad, grid, CM_PVR_THREADS);
    return s;
oom:
    free(url), free(views);
    if (s) free(s->in), free(s->ref), free(s->text);
    free(s);
    OOM("pvr");
}

static int pvr_param(bg_run *b, pvr_st *s, char *err, size_t errlen) {
    cm_pvr_args a = {(uint32_t)s->d_in, (uint32_t)s->d_inter, (uint32_t)s->d_recs, s->n, s->n_pad, s->k, s->j};
    return bg_app_write(b, s->param, &a, sizeof a, err, errlen);
}

static int pvr_start(bg_run *b, void *st, char *err, size_t errlen) {
    pvr_st *s = st;
    const size_t pb = (size_t)s->n * 8;
    if (!s->alloc) {
        if (!(s->d_in = bg_app_alloc(b, pb, err, errlen)) || !(s->d_inter = bg_app_alloc(b, pb, err, errlen)) ||
            !(s->d_recs = bg_app_alloc(b, (uint64_t)s->n_pad * sizeof(cm_pvr_rec), err, errlen)) ||
            !(s->param = bg_app_alloc(b, 64, err, errlen)))
            return -1;
        s->alloc = true;
        bg_app_param(b, 0, s->param);
        bg_app_param(b, 1, s->param);
        /* the ranked records: the padding sorts first */
        bg_app_output(b, s->d_recs + (uint64_t)(s->n_pad - s->n) * sizeof(cm_pvr_rec), (uint64_t)s->n * sizeof(cm_pvr_rec));
    }
    s->k = 2, s->j = 1;
    int32_t *minus = malloc(pb); /* the map must write every pair (the records it writes itself) */
    if (!minus) {
        snprintf(err, errlen, "bg_start pvr: out of memory");
        return -1;
    }
    memset(minus, 0xff, pb);
    const int rc = bg_app_write(b, s->d_in, s->in, pb, err, errlen) || bg_app_write(b, s->d_inter, minus, pb, err, errlen) ||
                   pvr_param(b, s, err, errlen);
    free(minus);
    return rc ? -1 : 0;
}

/* after the map the first step (k 2, j 1); then Mars's loop: j halves, k doubles */
static int pvr_next(bg_run *b, void *st, unsigned ki, char *err, size_t errlen) {
    pvr_st *s = st;
    if (ki == 1 && (s->j /= 2) == 0) {
        s->k *= 2;
        s->j = s->k / 2;
        if (s->k > s->n_pad) return BG_APP_DONE;
    }
    return pvr_param(b, s, err, errlen) ? -1 : 1;
}

/* The pairs as emitted (the input), then the ranked records: each real
 * pair's record exactly once, views in the reference's order; named by the
 * word of the output (bg_app_output) that is wrong. */
static int pvr_check(bg_run *b, void *st, char *err, size_t errlen) {
    pvr_st *s = st;
    if (bg_app_cmp_i(b, "pair", s->d_inter, s->in, (size_t)s->n * 2, err, errlen)) return -1;
    cm_pvr_rec *got = malloc((size_t)s->n * sizeof *got);
    uint8_t *seen = calloc((size_t)s->n, 1);
    int rc = -1;
    if (!got || !seen) snprintf(err, errlen, "bg_check pvr: out of memory");
    else if (!bg_app_read(b, s->d_recs + (uint64_t)(s->n_pad - s->n) * sizeof *got, got, (size_t)s->n * sizeof *got, err,
                          errlen)) {
        rc = 0;
        for (int r = 0; r < s->n && !rc; r++) {
            const cm_pvr_rec *x = &got[r];
            const int i = x->key_off / 8, ok_key = x->key_off >= 0 && x->key_off % 8 == 0 && i < s->n && !seen[i];
            int w = -1; /* the first wrong word of the record */
            if (!ok_key) w = 0;
            else if (x->key_size != 4) w = 1;
            else if (x->val_off != x->key_off + 4) w = 2;
            else if (x->val_size != 4) w = 3;
            else if (s->in[2 * i] != s->ref[r]) w = 0;
            if (w >= 0) {
                snprintf(err, errlen, "bg pvr: rank[%d] = {%d %d %d %d} (views %d), expected %d views: word recs[%d]", r,
                         (int)x->key_off, (int)x->key_size, (int)x->val_off, (int)x->val_size,
                         ok_key ? (int)s->in[2 * i] : -1, (int)s->ref[r], 4 * r + w);
                rc = -1;
            } else {
                seen[i] = 1;
            }
        }
    }
    free(got), free(seen);
    return rc;
}

static void pvr_destroy(void *st) {
    pvr_st *s = st;
    free(s->in), free(s->ref), free(s->text), free(s);
}

static const bg_app app_pvr = {"pvr", "cm_pvr", {"cm_pvr_map", "cm_pvr_sort", NULL}, pvr_create, pvr_start,
                               pvr_next, pvr_check, pvr_destroy};

/* ================================================================ MST */
/* LonestarGPU mst on the graph SSSP runs on (bg_bfs_graph: 2..4 random
 * neighbours per node, every edge both ways, connected), weights uniform in
 * 1..100 per undirected edge (the same both ways).  The host pairs each
 * directed edge with its reverse (the q-th u -> v in u's list is the q-th
 * v -> u in v's: bg_bfs_graph appends both in the same order), numbering
 * the undirected edges; self-loops get no number (key CM_MST_INF). */
typedef struct {
    int n, m, nu;
    int32_t *row, *col, *key, *eu, *ev, *ref;
    uint64_t d_row, d_col, d_key, d_eu, d_ev, d_comp, d_parent, d_minkey, d_inmst, d_changed, param;
    unsigned rounds;
    bool alloc;
} mst_st;

static void *mst_create(bg_run *b, bool paper, fg_rng *r, char *err, size_t errlen) {
    mst_st *s = calloc(1, sizeof *s);
    if (!s) OOM("mst");
    s->n = paper ? 65536 : 2048;
    bg_bfs_node *nodes = NULL;
    size_t ne = 0;
    if (bg_bfs_graph(r, (size_t)s->n, true, &nodes, &s->col, &ne)) {
        free(s);
        OOM("mst");
    }
    s->m = (int)ne;
    s->row = malloc(((size_t)s->n + 1) * 4);
    s->key = malloc(ne * 4);
    s->eu = malloc(ne / 2 * 4 + 4);
    s->ev = malloc(ne / 2 * 4 + 4);
    int32_t *uid = malloc(ne * 4);
    if (!s->row || !s->key || !s->eu || !s->ev || !uid) {
        free(nodes), free(uid), free(s->row), free(s->col), free(s->key), free(s->eu), free(s->ev), free(s);
        OOM("mst");
    }
    for (int i = 0; i < s->n; i++) s->row[i] = nodes[i].starting;
    s->row[s->n] = s->m;
    free(nodes);
    for (int e = 0; e < s->m; e++) uid[e] = -1;
    for (int u = 0; u < s->n; u++)
        for (int e = s->row[u]; e < s->row[u + 1]; e++) {
            const int v = s->col[e];
            if (v <= u) continue;
            int q = 0;
            for (int f = s->row[u]; f < e; f++) q += s->col[f] == v;
            int rev = -1;
            for (int f = s->row[v]; f < s->row[v + 1] && rev < 0; f++)
                if (s->col[f] == u && q-- == 0) rev = f;
            s->eu[s->nu] = u, s->ev[s->nu] = v;
            uid[e] = uid[rev] = s->nu++;
        }
    int32_t *w = malloc((size_t)s->nu * 4);
    if (!w) {
        free(uid), free(s->row), free(s->col), free(s->key), free(s->eu), free(s->ev), free(s);
        OOM("mst");
    }
    for (int i = 0; i < s->nu; i++) w[i] = 1 + (int32_t)fg_rng_below(r, 100);
    for (int e = 0; e < s->m; e++) s->key[e] = uid[e] < 0 ? CM_MST_INF : w[uid[e]] * s->nu + uid[e];
    free(uid), free(w);
    const uint32_t grid = (uint32_t)((s->n + CM_MST_THREADS - 1) / CM_MST_THREADS);
    for (unsigned k = 0; k < 3; k++) bg_app_shape(b, k, grid, 1, CM_MST_THREADS, 1, 0);
    bg_app_describe(b, "mst %d nodes, %d edges (%d undirected, weights 1..100), Boruvka rounds of min + union + jump, %u blocks of %d threads",
                    s->n, s->m, s->nu, grid, CM_MST_THREADS);
    return s;
}

static int mst_start(bg_run *b, void *st, char *err, size_t errlen) {
    mst_st *s = st;
    const size_t nb = (size_t)s->n * 4, ub = (size_t)s->nu * 4 + 4;
    if (!s->alloc) {
        if (!(s->d_row = bg_app_alloc(b, nb + 4, err, errlen)) ||
            !(s->d_col = bg_app_alloc(b, (uint64_t)s->m * 4, err, errlen)) ||
            !(s->d_key = bg_app_alloc(b, (uint64_t)s->m * 4, err, errlen)) || !(s->d_eu = bg_app_alloc(b, ub, err, errlen)) ||
            !(s->d_ev = bg_app_alloc(b, ub, err, errlen)) || !(s->d_comp = bg_app_alloc(b, nb, err, errlen)) ||
            !(s->d_parent = bg_app_alloc(b, nb, err, errlen)) || !(s->d_minkey = bg_app_alloc(b, nb, err, errlen)) ||
            !(s->d_inmst = bg_app_alloc(b, ub, err, errlen)) || !(s->d_changed = bg_app_alloc(b, 4, err, errlen)) ||
            !(s->param = bg_app_alloc(b, 64, err, errlen)))
            return -1;
        s->alloc = true;
        for (unsigned k = 0; k < 3; k++) bg_app_param(b, k, s->param);
        bg_app_output(b, s->d_inmst, (uint64_t)s->nu * 4);
    }
    int32_t *id = malloc(nb), *inf = malloc(nb), *zero = calloc(1, ub);
    int rc = -1;
    if (!id || !inf || !zero) snprintf(err, errlen, "bg_start mst: out of memory");
    else {
        for (int i = 0; i < s->n; i++) id[i] = i, inf[i] = CM_MST_INF;
        cm_mst_args a = {(uint32_t)s->d_row, (uint32_t)s->d_col, (uint32_t)s->d_key, (uint32_t)s->d_eu,
                         (uint32_t)s->d_ev, (uint32_t)s->d_comp, (uint32_t)s->d_parent, (uint32_t)s->d_minkey,
                         (uint32_t)s->d_inmst, (uint32_t)s->d_changed, s->n, s->nu};
        rc = bg_app_write(b, s->d_row, s->row, nb + 4, err, errlen) ||
                     bg_app_write(b, s->d_col, s->col, (size_t)s->m * 4, err, errlen) ||
                     bg_app_write(b, s->d_key, s->key, (size_t)s->m * 4, err, errlen) ||
                     bg_app_write(b, s->d_eu, s->eu, (size_t)s->nu * 4, err, errlen) ||
                     bg_app_write(b, s->d_ev, s->ev, (size_t)s->nu * 4, err, errlen) ||
                     bg_app_write(b, s->d_comp, id, nb, err, errlen) || bg_app_write(b, s->d_parent, id, nb, err, errlen) ||
                     bg_app_write(b, s->d_minkey, inf, nb, err, errlen) || bg_app_write(b, s->d_inmst, zero, ub, err, errlen) ||
                     bg_app_write(b, s->d_changed, zero, 4, err, errlen) || bg_app_write(b, s->param, &a, sizeof a, err, errlen)
                 ? -1
                 : 0;
    }
    free(id), free(inf), free(zero);
    s->rounds = 1;
    return rc;
}

/* min -> union -> (hooked anything?) jump -> min ... */
static int mst_next(bg_run *b, void *st, unsigned ki, char *err, size_t errlen) {
    mst_st *s = st;
    if (ki != 1) return ki == 0 ? 1 : 0;
    int32_t changed;
    if (bg_app_read(b, s->d_changed, &changed, 4, err, errlen)) return -1;
    if (!changed) return BG_APP_DONE;
    if (++s->rounds > 64) { /* Boruvka at least halves the components each round */
        snprintf(err, errlen, "bg mst: more than 64 rounds");
        return -1;
    }
    changed = 0;
    return bg_app_write(b, s->d_changed, &changed, 4, err, errlen) ? -1 : 2;
}

/* Kruskal: the undirected edges by key (weight, then number), joined with
 * a union-find (path halving). */
static int mst_find(int32_t *uf, int x) {
    while (uf[x] != x) x = uf[x] = uf[uf[x]];
    return x;
}

static int cmp_key(const void *a, const void *b) {
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static int mst_ref(mst_st *s) {
    int64_t *e = malloc((size_t)s->nu * 8 + 8);
    int32_t *uf = malloc((size_t)s->n * 4);
    s->ref = calloc((size_t)s->nu + 1, 4);
    if (!e || !uf || !s->ref) {
        free(e), free(uf), free(s->ref);
        s->ref = NULL;
        return -1;
    }
    for (int u = 0; u < s->n; u++)
        for (int k = s->row[u]; k < s->row[u + 1]; k++)
            if (s->col[k] > u && s->key[k] != CM_MST_INF) e[s->key[k] % s->nu] = s->key[k];
    qsort(e, (size_t)s->nu, 8, cmp_key);
    for (int i = 0; i < s->n; i++) uf[i] = i;
    for (int i = 0; i < s->nu; i++) {
        const int id = (int)(e[i] % s->nu), a = mst_find(uf, s->eu[id]), c = mst_find(uf, s->ev[id]);
        if (a != c) uf[a] = c, s->ref[id] = 1;
    }
    free(e), free(uf);
    return 0;
}

static int mst_check(bg_run *b, void *st, char *err, size_t errlen) {
    mst_st *s = st;
    if (!s->ref && mst_ref(s)) {
        snprintf(err, errlen, "bg_check mst: out of memory");
        return -1;
    }
    return bg_app_cmp_i(b, "inmst", s->d_inmst, s->ref, (size_t)s->nu, err, errlen);
}

static void mst_destroy(void *st) {
    mst_st *s = st;
    free(s->row), free(s->col), free(s->key), free(s->eu), free(s->ev), free(s->ref), free(s);
}

static const bg_app app_mst = {"mst", "cm_mst", {"cm_mst_min", "cm_mst_union", "cm_mst_jump", NULL}, mst_create,
                               mst_start, mst_next, mst_check, mst_destroy};

/* ================================================================ SP */
/* LonestarGPU sp on a random 3-SAT formula: m clauses of 3 distinct
 * variables, each negated with probability 1/2, m / n = 4.2 (near the
 * satisfiability threshold, where SP is used); surveys start uniform in
 * [0, 1).  `iters` synchronous updates of every survey (10; 4 at the test
 * size), then the biases (no convergence test, no decimation: a bounded
 * run). */
typedef struct {
    int n, m, iters;
    int32_t *lit, *vrow, *vedge;
    float *eta0, *ref_eta, *ref_bias;
    uint64_t d_lit, d_vrow, d_vedge, d_eta[2], d_bias, param;
    int launch;
    bool alloc;
} sp_st;

static void *sp_create(bg_run *b, bool paper, fg_rng *r, char *err, size_t errlen) {
    sp_st *s = calloc(1, sizeof *s);
    if (!s) OOM("sp");
    s->n = paper ? 10000 : 256;
    s->m = (int)((double)s->n * 4.2);
    s->iters = paper ? 10 : 4;
    const size_t ne = (size_t)s->m * CM_SP_K;
    s->lit = malloc(ne * 4);
    s->vedge = malloc(ne * 4);
    s->vrow = calloc((size_t)s->n + 1, 4);
    s->eta0 = malloc(ne * 4);
    if (!s->lit || !s->vedge || !s->vrow || !s->eta0) {
        free(s->lit), free(s->vedge), free(s->vrow), free(s->eta0), free(s);
        OOM("sp");
    }
    for (int a = 0; a < s->m; a++)
        for (int k = 0; k < CM_SP_K; k++) {
            int v, dup;
            do { /* distinct variables in a clause */
                v = (int)fg_rng_below(r, (uint64_t)s->n);
                dup = 0;
                for (int q = 0; q < k; q++) dup |= abs(s->lit[a * CM_SP_K + q]) - 1 == v;
            } while (dup);
            s->lit[a * CM_SP_K + k] = fg_rng_below(r, 2) ? -(v + 1) : v + 1;
            s->vrow[v + 1]++;
        }
    for (int v = 0; v < s->n; v++) s->vrow[v + 1] += s->vrow[v];
    int32_t *pos = malloc((size_t)s->n * 4);
    if (!pos) {
        free(s->lit), free(s->vedge), free(s->vrow), free(s->eta0), free(s);
        OOM("sp");
    }
    memcpy(pos, s->vrow, (size_t)s->n * 4);
    for (size_t e = 0; e < ne; e++) s->vedge[pos[abs(s->lit[e]) - 1]++] = (int32_t)e;
    free(pos);
    for (size_t e = 0; e < ne; e++) s->eta0[e] = bg_app_frand(r, 0.0f, 1.0f);
    const uint32_t grid = (uint32_t)((s->m + CM_SP_THREADS - 1) / CM_SP_THREADS),
                   vgrid = (uint32_t)((s->n + CM_SP_THREADS - 1) / CM_SP_THREADS);
    bg_app_shape(b, 0, grid, 1, CM_SP_THREADS, 1, 0);
    bg_app_shape(b, 1, vgrid, 1, CM_SP_THREADS, 1, 0);
    bg_app_describe(b, "sp %d variables, %d clauses of %d literals; %d survey updates of %u blocks, then biases, %d threads a block",
                    s->n, s->m, CM_SP_K, s->iters, grid, CM_SP_THREADS);
    return s;
}

/* launch t < iters: eta from d_eta[t & 1] into the other; then the bias
 * from the last */
static int sp_param(bg_run *b, sp_st *s, char *err, size_t errlen) {
    cm_sp_args a = {(uint32_t)s->d_lit, (uint32_t)s->d_vrow, (uint32_t)s->d_vedge, (uint32_t)s->d_eta[s->launch & 1],
                    (uint32_t)s->d_eta[(s->launch + 1) & 1], (uint32_t)s->d_bias, s->m, s->n};
    return bg_app_write(b, s->param, &a, sizeof a, err, errlen);
}

static int sp_start(bg_run *b, void *st, char *err, size_t errlen) {
    sp_st *s = st;
    const size_t eb = (size_t)s->m * CM_SP_K * 4, nb = (size_t)s->n * 4;
    if (!s->alloc) {
        if (!(s->d_lit = bg_app_alloc(b, eb, err, errlen)) || !(s->d_vrow = bg_app_alloc(b, nb + 4, err, errlen)) ||
            !(s->d_vedge = bg_app_alloc(b, eb, err, errlen)) || !(s->d_eta[0] = bg_app_alloc(b, eb, err, errlen)) ||
            !(s->d_eta[1] = bg_app_alloc(b, eb, err, errlen)) || !(s->d_bias = bg_app_alloc(b, nb, err, errlen)) ||
            !(s->param = bg_app_alloc(b, 64, err, errlen)))
            return -1;
        s->alloc = true;
        bg_app_param(b, 0, s->param);
        bg_app_param(b, 1, s->param);
        bg_app_output(b, s->d_eta[s->iters & 1], eb);
    }
    s->launch = 0;
    float *nan = malloc(eb > nb ? eb : nb); /* outputs poisoned: every run's check sees this run's results */
    if (!nan) {
        snprintf(err, errlen, "bg_start sp: out of memory");
        return -1;
    }
    for (size_t i = 0; i < (eb > nb ? eb : nb) / 4; i++) nan[i] = NAN;
    const int rc = bg_app_write(b, s->d_lit, s->lit, eb, err, errlen) ||
                   bg_app_write(b, s->d_vrow, s->vrow, nb + 4, err, errlen) ||
                   bg_app_write(b, s->d_vedge, s->vedge, eb, err, errlen) ||
                   bg_app_write(b, s->d_eta[0], s->eta0, eb, err, errlen) ||
                   bg_app_write(b, s->d_eta[1], nan, eb, err, errlen) || bg_app_write(b, s->d_bias, nan, nb, err, errlen) ||
                   sp_param(b, s, err, errlen);
    free(nan);
    return rc ? -1 : 0;
}

static int sp_next(bg_run *b, void *st, unsigned ki, char *err, size_t errlen) {
    sp_st *s = st;
    if (ki == 1) return BG_APP_DONE;
    ++s->launch;
    if (sp_param(b, s, err, errlen)) return -1;
    return s->launch < s->iters ? 0 : 1;
}

/* One survey update in double precision from SP's definitions: for edge
 * (a, i), over the other variables j of a and the other clauses b of j,
 * split by whether j has the same sign in b as in a. */
static void sp_update_d(const sp_st *s, const float *in, double *out) {
    for (int a = 0; a < s->m; a++)
        for (int i = 0; i < CM_SP_K; i++) {
            double eta = 1.0;
            for (int k = 0; k < CM_SP_K; k++) {
                if (k == i) continue;
                const int la = s->lit[a * CM_SP_K + k], j = abs(la) - 1;
                double same = 1.0, opp = 1.0;
                for (int o = s->vrow[j]; o < s->vrow[j + 1]; o++) {
                    const int e = s->vedge[o];
                    if (e / CM_SP_K == a) continue;
                    if ((s->lit[e] < 0) == (la < 0)) same *= 1.0 - in[e];
                    else opp *= 1.0 - in[e];
                }
                const double pu = (1.0 - opp) * same, ps = (1.0 - same) * opp, p0 = same * opp;
                eta *= pu + ps + p0 > 0.0 ? pu / (pu + ps + p0) : 0.0;
            }
            out[a * CM_SP_K + i] = eta;
        }
}

/* A variable's bias W+ - W- in double precision from the definitions. */
static double sp_bias_d(const sp_st *s, const float *eta, int v) {
    double pos = 1.0, neg = 1.0;
    for (int o = s->vrow[v]; o < s->vrow[v + 1]; o++)
        *(s->lit[s->vedge[o]] > 0 ? &pos : &neg) *= 1.0 - eta[s->vedge[o]];
    const double wp = (1.0 - pos) * neg, wm = (1.0 - neg) * pos, d = wp + wm + pos * neg;
    return d > 0.0 ? (wp - wm) / d : 0.0;
}

/* The reference: the kernels' float formulas on the host, which the GPU
 * must match (the same IEEE single operations; relative 1e-5 as
 * bg_app_cmp_f), themselves checked against SP's definitions in double
 * precision where float's rounding does not accumulate: the first update
 * within SP_TOL_UPDATE and the biases of the final surveys within
 * SP_TOL_BIAS.  (Against a double run of all the updates, float's 1 - eta
 * for eta near 1 carries its rounding on from update to update: past 2e-3
 * after 10 updates at the paper size.) */
#define SP_TOL_UPDATE 1e-5
#define SP_TOL_BIAS 1e-4
static int sp_ref(sp_st *s, char *err, size_t errlen) {
    const size_t ne = (size_t)s->m * CM_SP_K;
    float *cur = malloc(ne * 4), *nxt = malloc(ne * 4);
    double *d = malloc(ne * 8);
    s->ref_bias = malloc((size_t)s->n * 4);
    int rc = -1;
    if (!cur || !nxt || !d || !s->ref_bias) {
        snprintf(err, errlen, "bg_check sp: out of memory");
        goto out;
    }
    memcpy(cur, s->eta0, ne * 4);
    sp_update_d(s, s->eta0, d);
    double worst = 0.0, worst_b = 0.0;
    for (int t = 0; t < s->iters; t++) {
        for (int a = 0; a < s->m; a++) {
            float f[CM_SP_K];
            for (int k = 0; k < CM_SP_K; k++) {
                const int l = s->lit[a * CM_SP_K + k], j = abs(l) - 1;
                float ps = 1.0f, pu = 1.0f;
                for (int o = s->vrow[j]; o < s->vrow[j + 1]; o++) {
                    const int e = s->vedge[o];
                    if (e == a * CM_SP_K + k) continue;
                    if ((s->lit[e] > 0) == (l > 0)) ps *= 1.0f - cur[e];
                    else pu *= 1.0f - cur[e];
                }
                const float dn = ps + pu - ps * pu;
                f[k] = dn > 0.0f ? (1.0f - pu) * ps / dn : 0.0f;
            }
            nxt[a * CM_SP_K] = f[1] * f[2], nxt[a * CM_SP_K + 1] = f[0] * f[2], nxt[a * CM_SP_K + 2] = f[0] * f[1];
        }
        for (size_t e = 0; t == 0 && e < ne; e++) {
            const double x = fabs((double)nxt[e] - d[e]);
            worst = x > worst ? x : worst;
            if (!(x <= SP_TOL_UPDATE)) {
                snprintf(err, errlen, "bg sp: host float update eta[%zu] = %.7g, double %.7g", e, (double)nxt[e], d[e]);
                goto out;
            }
        }
        float *w = cur;
        cur = nxt, nxt = w;
    }
    for (int v = 0; v < s->n; v++) {
        float pp = 1.0f, pm = 1.0f;
        for (int o = s->vrow[v]; o < s->vrow[v + 1]; o++) {
            const int e = s->vedge[o];
            if (s->lit[e] > 0) pp *= 1.0f - cur[e];
            else pm *= 1.0f - cur[e];
        }
        const float wp = (1.0f - pp) * pm, wm = (1.0f - pm) * pp, dn = wp + wm + pp * pm;
        s->ref_bias[v] = dn > 0.0f ? (wp - wm) / dn : 0.0f;
        const double x = fabs((double)s->ref_bias[v] - sp_bias_d(s, cur, v));
        worst_b = x > worst_b ? x : worst_b;
        if (!(x <= SP_TOL_BIAS)) {
            snprintf(err, errlen, "bg sp: host float bias[%d] = %.7g, double %.7g", v, (double)s->ref_bias[v],
                     sp_bias_d(s, cur, v));
            goto out;
        }
    }
    if (getenv("CM_APPS_DEBUG"))
        fprintf(stderr, "# sp: host float against double: first update %.3g, biases %.3g\n", worst, worst_b);
    s->ref_eta = cur, cur = NULL;
    rc = 0;
out:
    free(cur), free(nxt), free(d);
    if (rc) free(s->ref_bias), s->ref_bias = NULL;
    return rc;
}

static int sp_check(bg_run *b, void *st, char *err, size_t errlen) {
    sp_st *s = st;
    if (!s->ref_eta && sp_ref(s, err, errlen)) return -1;
    return bg_app_cmp_f(b, "eta", s->d_eta[s->iters & 1], s->ref_eta, (size_t)s->m * CM_SP_K, err, errlen) ||
                   bg_app_cmp_f(b, "bias", s->d_bias, s->ref_bias, (size_t)s->n, err, errlen)
               ? -1
               : 0;
}

static void sp_destroy(void *st) {
    sp_st *s = st;
    free(s->lit), free(s->vrow), free(s->vedge), free(s->eta0), free(s->ref_eta), free(s->ref_bias), free(s);
}

static const bg_app app_sp = {"sp", "cm_sp", {"cm_sp_eta", "cm_sp_bias", NULL}, sp_create, sp_start, sp_next,
                              sp_check, sp_destroy};

/* ================================================================ list */
const bg_app *const bg_cm_apps[] = {&app_hot,  &app_path, &app_blk, &app_pvc, &app_pvr, &app_mum,
                                    &app_iix,  &app_sssp, &app_mst, &app_sp,  NULL};
