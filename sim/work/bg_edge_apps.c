/* bg_edge_apps: the background kernels of EDGE's list (Sec. V) beyond
 * bg_kernels.c's CONV, MM, BP and BFS, as bg_app hooks (sim/work/bg_app.h):
 * CONV2 (cuda-convnet filterActs_YxX_sparse), SC (Rodinia streamcluster's
 * pgain), KMN (Rodinia kmeans), SRAD (Rodinia srad_v2) and LUD (Rodinia lud).  Sizes, the
 * inputs (deterministic in the seed), the host side of their multi-kernel
 * flows and host references that repeat the kernels' float operations in
 * the same order, so that results match bit for bit and every decision the
 * host takes on GPU results is the reference's.  docs/BG_KERNELS.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "work/bg_app.h"
#include "../sw/kernels/bg_args.h"

#define OOM(name)                                                                                                      \
    do {                                                                                                               \
        snprintf(err, errlen, "bg_new %s: out of memory", name);                                                       \
        return NULL;                                                                                                   \
    } while (0)

/* ================================================================= SC */
/* Rodinia streamcluster (CUDA): localSearch -> pFL calls pgain for random
 * candidate centres x; pgain launches kernel_compute_cost once and does the
 * rest on the CPU.  Here: a start solution with point 0 as the only centre
 * (every point assigned to it), then `calls` pgain calls for candidates drawn
 * from the seed, each one launch.  z (the facility cost) is hiz / zdiv with
 * hiz = the start solution's cost (Rodinia pkmedian starts its search for z
 * at (hiz + loz) / 2 and narrows it; zdiv is our choice, per size, such that
 * opening a candidate pays for some and not for others: uniform points in
 * more dimensions have relatively closer distances). */
typedef struct {
    int num, dim, calls, kmax;   /* kmax: most centres there can be (1 + calls) */
    float z, zdiv;
    float *coord_pm;             /* point-major [num][dim] (host dist) */
    float *coord_dm;             /* dimension-major [dim][num] (GPU layout) */
    int32_t *xs;                 /* candidate per call */
    bg_sc_point *p0;             /* start solution */
    /* the run's host state (GPU results feed it) */
    bg_sc_point *p;
    uint8_t *is_center;
    int32_t *center_table;
    int k, call;
    float *work;                 /* work_mem read back */
    uint8_t *sw;
    uint64_t d_points, d_coord, d_work, d_ct, d_sw, param;
    bool alloc;
    /* reference */
    bool have_ref;
    bg_sc_point *rp;
    float *rwork;                /* last call's work_mem */
    uint8_t *rsw;
    int rk_last;                 /* K of the last call (its stride - 1) */
    int k_last;
} sc_st;

static float sc_dist(const sc_st *s, int a, int b) { /* Rodinia dist(): dimension order */
    float r = 0.0f;
    for (int i = 0; i < s->dim; i++) {
        const float t = s->coord_pm[(size_t)a * s->dim + i] - s->coord_pm[(size_t)b * s->dim + i];
        r += t * t;
    }
    return r;
}

static void *sc_create(bg_run *b, bool paper, fg_rng *r, char *err, size_t errlen) {
    sc_st *s = calloc(1, sizeof *s);
    if (!s) OOM("sc");
    /* Rodinia's run line "10 20 256 65536 65536 1000": 65536 points of 256
     * dimensions in one chunk (two pgain calls: each launch runs about 0.8 M
     * cycles on the model); test: 32768 points (64 blocks, 4 per core) of
     * 16 dimensions, four calls */
    s->num = paper ? 65536 : 32768;
    s->dim = paper ? 256 : 16;
    s->calls = paper ? 2 : 4;
    s->zdiv = paper ? 64.0f : 16.0f;
    s->kmax = 1 + s->calls;
    const size_t n = (size_t)s->num, nd = n * (size_t)s->dim;
    s->coord_pm = malloc(nd * 4);
    s->coord_dm = malloc(nd * 4);
    s->xs = malloc((size_t)s->calls * 4);
    s->p0 = malloc(n * sizeof *s->p0);
    s->p = malloc(n * sizeof *s->p);
    s->is_center = malloc(n);
    s->center_table = malloc(n * 4);
    s->work = malloc(n * (size_t)(s->kmax + 1) * 4);
    s->sw = malloc(n);
    if (!s->coord_pm || !s->coord_dm || !s->xs || !s->p0 || !s->p || !s->is_center || !s->center_table || !s->work ||
        !s->sw) {
        free(s->coord_pm), free(s->coord_dm), free(s->xs), free(s->p0), free(s->p), free(s->is_center);
        free(s->center_table), free(s->work), free(s->sw), free(s);
        OOM("sc");
    }
    /* Rodinia SimStream: coordinates uniform in [0, 1), weight 1 */
    for (size_t i = 0; i < nd; i++) s->coord_pm[i] = bg_app_frand(r, 0.0f, 1.0f);
    for (size_t i = 0; i < n; i++)
        for (int d = 0; d < s->dim; d++) s->coord_dm[(size_t)d * n + i] = s->coord_pm[i * (size_t)s->dim + d];
    float hiz = 0.0f;
    for (int i = 0; i < s->num; i++) {
        s->p0[i].weight = 1.0f;
        s->p0[i].assign = 0;
        s->p0[i].cost = sc_dist(s, i, 0) * s->p0[i].weight;
        hiz += s->p0[i].cost;
    }
    s->z = hiz / s->zdiv;
    for (int c = 0; c < s->calls; c++) s->xs[c] = (int32_t)fg_rng_below(r, (uint64_t)s->num);
    const uint32_t blocks = (uint32_t)((s->num + BG_SC_THREADS - 1) / BG_SC_THREADS);
    bg_app_shape(b, 0, blocks, 1, BG_SC_THREADS, 1, 0);
    bg_app_describe(b, "sc %d points x %d dims, %d pgain calls of %u blocks of %d threads", s->num, s->dim, s->calls,
                    blocks, BG_SC_THREADS);
    return s;
}

/* pgain's CPU part before the launch: centre table (is_center order) */
static int sc_centers(int num, const uint8_t *is_center, int32_t *center_table) {
    int k = 0;
    for (int i = 0; i < num; i++)
        if (is_center[i]) center_table[i] = k++;
    return k;
}

/* pgain's CPU part after the launch (Rodinia streamcluster_cuda.cu): the
 * centres to close, the cost of opening x, and if it pays, the reassignment
 * (switched points and those of closed centres move to x).  -1: out of memory. */
static int sc_gain(const sc_st *s, int x, int k, const float *work, const uint8_t *sw, bg_sc_point *p,
                    uint8_t *is_center, const int32_t *center_table) {
    const int num = s->num, stride = k + 1;
    float *gl_lower = calloc((size_t)k, 4), cost_of_opening_x = 0.0f;
    int to_close = 0;
    if (!gl_lower) return -1;
    for (int i = 0; i < num; i++)
        if (is_center[i]) {
            float low = s->z;
            for (int j = 0; j < num; j++) low += work[(size_t)j * stride + center_table[i]];
            gl_lower[center_table[i]] = low;
            if (low > 0) {
                to_close++;
                cost_of_opening_x -= low;
            }
        }
    cost_of_opening_x += s->z;
    for (int j = 0; j < num; j++) cost_of_opening_x += work[(size_t)j * stride + k];
    if (cost_of_opening_x < 0) {
        for (int i = 0; i < num; i++) {
            const bool close_center = gl_lower[center_table[p[i].assign]] > 0;
            if (sw[i] || close_center) {
                p[i].cost = sc_dist(s, i, x) * p[i].weight;
                p[i].assign = x;
            }
        }
        for (int i = 0; i < num; i++)
            if (is_center[i] && gl_lower[center_table[i]] > 0) is_center[i] = 0;
        is_center[x] = 1;
    }
    free(gl_lower);
    return 0;
}

/* the state of call s->call into GPU memory: points, centre table, zeroed work_mem and switch flags */
static int sc_prepare(bg_run *b, sc_st *s, char *err, size_t errlen) {
    const size_t n = (size_t)s->num;
    s->k = sc_centers(s->num, s->is_center, s->center_table);
    if (s->k > s->kmax) {
        snprintf(err, errlen, "bg sc: %d centres (at most %d expected)", s->k, s->kmax);
        return -1;
    }
    memset(s->work, 0, n * (size_t)(s->k + 1) * 4);
    memset(s->sw, 0, n);
    bg_sc_args a = {(uint32_t)s->d_points, (uint32_t)s->d_coord, (uint32_t)s->d_work, (uint32_t)s->d_ct,
                    (uint32_t)s->d_sw, s->num, s->dim, s->xs[s->call], s->k, s->k + 1};
    return bg_app_write(b, s->d_points, s->p, n * sizeof *s->p, err, errlen) ||
                   bg_app_write(b, s->d_ct, s->center_table, n * 4, err, errlen) ||
                   bg_app_write(b, s->d_work, s->work, n * (size_t)(s->k + 1) * 4, err, errlen) ||
                   bg_app_write(b, s->d_sw, s->sw, n, err, errlen) ||
                   bg_app_write(b, s->param, &a, sizeof a, err, errlen)
               ? -1
               : 0;
}

static int sc_start(bg_run *b, void *st, char *err, size_t errlen) {
    sc_st *s = st;
    const size_t n = (size_t)s->num;
    if (!s->alloc) {
        if (!(s->d_points = bg_app_alloc(b, n * sizeof(bg_sc_point), err, errlen)) ||
            !(s->d_coord = bg_app_alloc(b, n * (size_t)s->dim * 4, err, errlen)) ||
            !(s->d_work = bg_app_alloc(b, n * (size_t)(s->kmax + 1) * 4, err, errlen)) ||
            !(s->d_ct = bg_app_alloc(b, n * 4, err, errlen)) || !(s->d_sw = bg_app_alloc(b, n, err, errlen)) ||
            !(s->param = bg_app_alloc(b, 64, err, errlen)))
            return -1;
        s->alloc = true;
        bg_app_param(b, 0, s->param);
        if (bg_app_write(b, s->d_coord, s->coord_dm, n * (size_t)s->dim * 4, err, errlen)) return -1;
    }
    memcpy(s->p, s->p0, n * sizeof *s->p);
    memset(s->is_center, 0, n);
    s->is_center[0] = 1;
    s->call = 0;
    bg_app_output(b, s->d_work, n * (size_t)(s->kmax + 1) * 4);
    return sc_prepare(b, s, err, errlen) ? -1 : 0;
}

static int sc_next(bg_run *b, void *st, unsigned ki, char *err, size_t errlen) {
    (void)ki;
    sc_st *s = st;
    const size_t n = (size_t)s->num;
    if (bg_app_read(b, s->d_work, s->work, n * (size_t)(s->k + 1) * 4, err, errlen) ||
        bg_app_read(b, s->d_sw, s->sw, n, err, errlen))
        return -1;
    if (sc_gain(s, s->xs[s->call], s->k, s->work, s->sw, s->p, s->is_center, s->center_table)) {
        snprintf(err, errlen, "bg sc: out of memory");
        return -1;
    }
    s->k_last = s->k;
    /* the last output stays in GPU memory for bg_check (work_mem, switch
     * flags); the points move on as the next pgain would copy them */
    bg_app_output(b, s->d_work, n * (size_t)(s->k + 1) * 4);
    if (++s->call == s->calls)
        return bg_app_write(b, s->d_points, s->p, n * sizeof *s->p, err, errlen) ? -1 : BG_APP_DONE;
    return sc_prepare(b, s, err, errlen) ? -1 : 0;
}

/* the whole flow on the host: kernel_compute_cost per call in the kernel's
 * float order, then the same CPU part */
static int sc_ref(sc_st *s) {
    const size_t n = (size_t)s->num;
    uint8_t *isc = calloc(n, 1);
    int32_t *ct = malloc(n * 4);
    s->rp = malloc(n * sizeof *s->rp);
    s->rwork = malloc(n * (size_t)(s->kmax + 1) * 4);
    s->rsw = malloc(n);
    if (!isc || !ct || !s->rp || !s->rwork || !s->rsw) {
        free(isc), free(ct);
        return -1;
    }
    memcpy(s->rp, s->p0, n * sizeof *s->rp);
    isc[0] = 1;
    for (int c = 0; c < s->calls; c++) {
        const int k = sc_centers(s->num, isc, ct), x = s->xs[c], stride = k + 1;
        memset(s->rwork, 0, n * (size_t)stride * 4);
        memset(s->rsw, 0, n);
        for (int t = 0; t < s->num; t++) {
            float dist = 0.0f;
            for (int i = 0; i < s->dim; i++) {
                const float d = s->coord_dm[(size_t)i * n + t] - s->coord_dm[(size_t)i * n + x];
                dist += d * d;
            }
            const float x_cost = dist * s->rp[t].weight, cost = s->rp[t].cost;
            float *lower = s->rwork + (size_t)t * stride;
            if (x_cost < cost) {
                s->rsw[t] = 1;
                lower[k] += x_cost - cost;
            } else {
                lower[ct[s->rp[t].assign]] += cost - x_cost;
            }
        }
        s->rk_last = k;
        if (sc_gain(s, x, k, s->rwork, s->rsw, s->rp, isc, ct)) {
            free(isc), free(ct);
            return -1;
        }
    }
    free(isc), free(ct);
    s->have_ref = true;
    return 0;
}

static int sc_check(bg_run *b, void *st, char *err, size_t errlen) {
    sc_st *s = st;
    if (!s->have_ref && sc_ref(s)) {
        snprintf(err, errlen, "bg_check sc: out of memory");
        return -1;
    }
    if (s->rk_last != s->k_last) {
        snprintf(err, errlen, "bg sc: %d centres at the last pgain call, expected %d", s->k_last, s->rk_last);
        return -1;
    }
    const size_t n = (size_t)s->num;
    if (bg_app_cmp_f(b, "work_mem", s->d_work, s->rwork, n * (size_t)(s->rk_last + 1), err, errlen)) return -1;
    /* the last call's switch flags, then the final assignment */
    uint8_t *got = malloc(n);
    int rc = !got || bg_app_read(b, s->d_sw, got, n, err, errlen);
    for (size_t i = 0; !rc && i < n; i++)
        if (got[i] != s->rsw[i]) {
            snprintf(err, errlen, "bg sc: switch_membership[%zu] = %u, expected %u", i, got[i], s->rsw[i]);
            rc = 1;
        }
    free(got);
    if (!rc) {
        bg_sc_point *gp = malloc(n * sizeof *gp);
        rc = !gp || bg_app_read(b, s->d_points, gp, n * sizeof *gp, err, errlen);
        for (size_t i = 0; !rc && i < n; i++)
            if (gp[i].assign != s->rp[i].assign || memcmp(&gp[i].cost, &s->rp[i].cost, 4)) {
                snprintf(err, errlen, "bg sc: point[%zu] assigned to %d at cost %.9g, expected %d at %.9g", i,
                         (int)gp[i].assign, (double)gp[i].cost, (int)s->rp[i].assign, (double)s->rp[i].cost);
                rc = 1;
            }
        free(gp);
    }
    if (rc == 1 && !strstr(err, "bg sc")) snprintf(err, errlen, "bg_check sc: out of memory");
    return rc ? -1 : 0;
}

static void sc_destroy(void *st) {
    sc_st *s = st;
    free(s->coord_pm), free(s->coord_dm), free(s->xs), free(s->p0), free(s->p), free(s->is_center);
    free(s->center_table), free(s->work), free(s->sw), free(s->rp), free(s->rwork), free(s->rsw), free(s);
}

static const bg_app app_sc = {"sc", "bg_sc", {"bg_sc_cost", NULL}, sc_create, sc_start, sc_next, sc_check, sc_destroy};

/* ================================================================ KMN */
/* Rodinia kmeans (CUDA): invert_mapping once, then per iteration
 * kmeansPoint and, on the CPU, the changed memberships (delta) and the new
 * centres (sum of the members' features in point order / count); repeat
 * while delta > 0 (Rodinia: delta > threshold 0.001) and at most max_iter
 * times.  Initial clusters: the first nclusters points, as Rodinia. */
#define KMN_MAXF 64 /* features and clusters the host step handles */
#define KMN_MAXC 8
typedef struct {
    int np, nf, nc, max_iter;
    float *feat;                 /* [np][nf] */
    float *clusters;             /* the run's current clusters */
    int32_t *member, *prev;
    int iter;
    uint64_t d_in, d_feat, d_cl, d_mem, param;
    bool alloc;
    bool have_ref;
    float *rclusters;
    int32_t *rmember;
    int riter;
} kmn_st;

static void *kmn_create(bg_run *b, bool paper, fg_rng *r, char *err, size_t errlen) {
    kmn_st *s = calloc(1, sizeof *s);
    if (!s) OOM("kmn");
    /* the EDGE artifact's command line (benchmarks/bin/gem5_fusion_kmeans/
     * commandline.cuda: "-o -r -i data/28k.txt"): points of 34 features,
     * Rodinia's default 5 clusters and 500 iterations at most; 65536 points,
     * not 28000: 28000 points make 110 blocks of 256 threads, which leave
     * this GPU's 128 block slots partly free (events then never preempt);
     * test: 32768 points (144 blocks, 128 with points) of 8 features */
    s->np = paper ? 65536 : 32768;
    s->nf = paper ? 34 : 8;
    s->nc = 5;
    s->max_iter = paper ? 500 : 50;
    const size_t n = (size_t)s->np;
    s->feat = malloc(n * (size_t)s->nf * 4);
    s->clusters = malloc((size_t)s->nc * (size_t)s->nf * 4);
    s->member = malloc(n * 4);
    s->prev = malloc(n * 4);
    float *centre = malloc((size_t)s->nc * (size_t)s->nf * 4);
    if (!s->feat || !s->clusters || !s->member || !s->prev || !centre) {
        free(s->feat), free(s->clusters), free(s->member), free(s->prev), free(centre), free(s);
        OOM("kmn");
    }
    /* points scattered around nc centres uniform in [0, 1)^nf (the
     * artifact's KDD-cup records are not generated here) */
    for (int i = 0; i < s->nc * s->nf; i++) centre[i] = bg_app_frand(r, 0.0f, 1.0f);
    for (size_t i = 0; i < n; i++) {
        const int c = (int)fg_rng_below(r, (uint64_t)s->nc);
        for (int j = 0; j < s->nf; j++)
            s->feat[i * (size_t)s->nf + j] = centre[c * s->nf + j] + bg_app_frand(r, -0.2f, 0.2f);
    }
    free(centre);
    const uint32_t blocks = (uint32_t)((s->np + BG_KMN_THREADS - 1) / BG_KMN_THREADS);
    uint32_t perdim = (uint32_t)sqrt((double)blocks);
    while (perdim * perdim < blocks) perdim++;
    bg_app_shape(b, 0, blocks, 1, BG_KMN_THREADS, 1, 0);
    bg_app_shape(b, 1, perdim, perdim, BG_KMN_THREADS, 1, 0);
    bg_app_describe(b,
                    "kmn %d points x %d features, %d clusters, invert_mapping (%u blocks) + kmeansPoint per iteration "
                    "(%ux%u blocks) of %d threads",
                    s->np, s->nf, s->nc, blocks, perdim, perdim, BG_KMN_THREADS);
    return s;
}

static int kmn_start(bg_run *b, void *st, char *err, size_t errlen) {
    kmn_st *s = st;
    const size_t n = (size_t)s->np, nfb = n * (size_t)s->nf * 4, ncb = (size_t)s->nc * (size_t)s->nf * 4;
    if (!s->alloc) {
        if (!(s->d_in = bg_app_alloc(b, nfb, err, errlen)) || !(s->d_feat = bg_app_alloc(b, nfb, err, errlen)) ||
            !(s->d_cl = bg_app_alloc(b, ncb, err, errlen)) || !(s->d_mem = bg_app_alloc(b, n * 4, err, errlen)) ||
            !(s->param = bg_app_alloc(b, 64, err, errlen)))
            return -1;
        s->alloc = true;
        bg_app_param(b, 0, s->param);
        bg_app_param(b, 1, s->param);
    }
    memcpy(s->clusters, s->feat, ncb); /* the first nc points */
    for (size_t i = 0; i < n; i++) s->prev[i] = -1;
    s->iter = 0;
    bg_kmn_args a = {(uint32_t)s->d_in, (uint32_t)s->d_feat, (uint32_t)s->d_cl, (uint32_t)s->d_mem, s->np, s->nf,
                     s->nc};
    /* features_flipped and membership cleared, so that each run's check sees its own results */
    float *zero = calloc(n, (size_t)s->nf * 4);
    if (!zero) {
        snprintf(err, errlen, "bg_start kmn: out of memory");
        return -1;
    }
    const int rc = bg_app_write(b, s->d_in, s->feat, nfb, err, errlen) ||
                   bg_app_write(b, s->d_feat, zero, nfb, err, errlen) ||
                   bg_app_write(b, s->d_mem, s->prev, n * 4, err, errlen) ||
                   bg_app_write(b, s->d_cl, s->clusters, ncb, err, errlen) ||
                   bg_app_write(b, s->param, &a, sizeof a, err, errlen);
    free(zero);
    bg_app_output(b, s->d_mem, n * 4);
    return rc ? -1 : 0;
}

/* Rodinia kmeans_clustering's CPU step: delta, new centres; 1 while it goes on */
static int kmn_step(const kmn_st *s, const int32_t *member, int32_t *prev, float *clusters, int *iter) {
    const int nf = s->nf, nc = s->nc;
    float sum[KMN_MAXF * KMN_MAXC];
    int len[8] = {0}, delta = 0;
    memset(sum, 0, sizeof sum);
    for (int i = 0; i < s->np; i++) {
        const int m = member[i];
        if (m != prev[i]) delta++;
        prev[i] = m;
        len[m]++;
        for (int j = 0; j < nf; j++) sum[m * nf + j] += s->feat[(size_t)i * nf + j];
    }
    for (int i = 0; i < nc; i++)
        for (int j = 0; j < nf; j++)
            if (len[i] > 0) clusters[i * nf + j] = sum[i * nf + j] / (float)len[i];
    return delta > 0 && ++*iter < s->max_iter;
}

static int kmn_next(bg_run *b, void *st, unsigned ki, char *err, size_t errlen) {
    kmn_st *s = st;
    if (ki == 0) return 1;
    const size_t n = (size_t)s->np, ncb = (size_t)s->nc * (size_t)s->nf * 4;
    if (bg_app_read(b, s->d_mem, s->member, n * 4, err, errlen)) return -1;
    for (size_t i = 0; i < n; i++)
        if (s->member[i] < 0 || s->member[i] >= s->nc) {
            snprintf(err, errlen, "bg kmn: membership[%zu] = %d, not a cluster", i, (int)s->member[i]);
            return -1;
        }
    const int more = kmn_step(s, s->member, s->prev, s->clusters, &s->iter);
    /* the new centres into GPU memory (the next kmeansPoint reads them; after the last, bg_check does) */
    if (bg_app_write(b, s->d_cl, s->clusters, ncb, err, errlen)) return -1;
    return more ? 1 : BG_APP_DONE;
}

static int kmn_ref(kmn_st *s) {
    const size_t n = (size_t)s->np;
    const int nf = s->nf, nc = s->nc;
    s->rclusters = malloc((size_t)nc * nf * 4);
    s->rmember = malloc(n * 4);
    int32_t *prev = malloc(n * 4);
    if (!s->rclusters || !s->rmember || !prev) {
        free(prev);
        return -1;
    }
    memcpy(s->rclusters, s->feat, (size_t)nc * nf * 4);
    for (size_t i = 0; i < n; i++) prev[i] = -1;
    s->riter = 0;
    do {
        for (size_t p = 0; p < n; p++) { /* kmeansPoint */
            int index = -1;
            float min_dist = 3.40282347e38f;
            for (int i = 0; i < nc; i++) {
                float ans = 0.0f;
                for (int j = 0; j < nf; j++) {
                    const float diff = s->feat[p * nf + j] - s->rclusters[i * nf + j];
                    ans += diff * diff;
                }
                if (ans < min_dist) {
                    min_dist = ans;
                    index = i;
                }
            }
            s->rmember[p] = index;
        }
    } while (kmn_step(s, s->rmember, prev, s->rclusters, &s->riter));
    free(prev);
    s->have_ref = true;
    return 0;
}

static int kmn_check(bg_run *b, void *st, char *err, size_t errlen) {
    kmn_st *s = st;
    if (!s->have_ref && kmn_ref(s)) {
        snprintf(err, errlen, "bg_check kmn: out of memory");
        return -1;
    }
    if (s->iter != s->riter) {
        snprintf(err, errlen, "bg kmn: %d iterations, expected %d", s->iter + 1, s->riter + 1);
        return -1;
    }
    const size_t n = (size_t)s->np;
    if (bg_app_cmp_i(b, "membership", s->d_mem, s->rmember, n, err, errlen) ||
        bg_app_cmp_f(b, "clusters", s->d_cl, s->rclusters, (size_t)s->nc * s->nf, err, errlen))
        return -1;
    /* invert_mapping's output: the features transposed, exactly */
    float *t = malloc(n * (size_t)s->nf * 4);
    if (!t) {
        snprintf(err, errlen, "bg_check kmn: out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < s->nf; j++) t[(size_t)j * n + i] = s->feat[i * (size_t)s->nf + j];
    const int rc = bg_app_cmp_f(b, "features_flipped", s->d_feat, t, n * (size_t)s->nf, err, errlen);
    free(t);
    return rc;
}

static void kmn_destroy(void *st) {
    kmn_st *s = st;
    free(s->feat), free(s->clusters), free(s->member), free(s->prev), free(s->rclusters), free(s->rmember), free(s);
}

static const bg_app app_kmn = {"kmn", "bg_kmn", {"bg_kmn_invert", "bg_kmn_point", NULL}, kmn_create, kmn_start,
                               kmn_next, kmn_check, kmn_destroy};

/* =============================================================== SRAD */
/* Rodinia srad_v2 (CUDA): J = exp(I) with I uniform in [0, 1] (Rodinia's
 * random_matrix); per iteration the CPU computes q0sqr over the region of
 * interest rows r1..r2, columns c1..c2 (float sums in row order), then
 * srad_cuda_1 and srad_cuda_2 run. */
typedef struct {
    int rows, cols, iters, r1, r2, c1, c2;
    float lambda;
    float *j0;                   /* the start image */
    float *j;                    /* the run's image (read back after each iteration) */
    int iter;
    uint64_t d[6], param;        /* e, w, n, s, j, c */
    bool alloc;
    bool have_ref;
    float *rj, *rc;
} srad_st;

static void *srad_create(bg_run *b, bool paper, fg_rng *r, char *err, size_t errlen) {
    srad_st *s = calloc(1, sizeof *s);
    if (!s) OOM("srad");
    /* Rodinia srad_v2's run line "2048 2048 0 127 0 127 0.5 2" at a quarter
     * of the pixels, 1024 x 1024 (4096 blocks; 2048 x 2048 runs 6.4 M cycles,
     * 86 s of CPU on the model); test: 256 x 256 (256 blocks); the same
     * region, lambda and iterations */
    s->rows = s->cols = paper ? 1024 : 256;
    s->r1 = 0, s->r2 = 127, s->c1 = 0, s->c2 = 127;
    s->lambda = 0.5f;
    s->iters = 2;
    const size_t n = (size_t)s->rows * s->cols;
    s->j0 = malloc(n * 4);
    s->j = malloc(n * 4);
    if (!s->j0 || !s->j) {
        free(s->j0), free(s->j), free(s);
        OOM("srad");
    }
    for (size_t i = 0; i < n; i++) s->j0[i] = expf(bg_app_frand(r, 0.0f, 1.0f));
    const uint32_t gx = (uint32_t)(s->cols / BG_SRAD_BLOCK), gy = (uint32_t)(s->rows / BG_SRAD_BLOCK);
    bg_app_shape(b, 0, gx, gy, BG_SRAD_BLOCK, BG_SRAD_BLOCK, 0);
    bg_app_shape(b, 1, gx, gy, BG_SRAD_BLOCK, BG_SRAD_BLOCK, 0);
    bg_app_describe(b, "srad %dx%d image, %d iterations of srad_cuda_1 + srad_cuda_2, %ux%u blocks of 16x16", s->rows,
                    s->cols, s->iters, gx, gy);
    return s;
}

/* the CPU's statistics of the region of interest (Rodinia srad.cu) */
static float srad_q0sqr(const srad_st *s, const float *J) {
    float sum = 0, sum2 = 0;
    for (int i = s->r1; i <= s->r2; i++)
        for (int k = s->c1; k <= s->c2; k++) {
            const float t = J[i * s->cols + k];
            sum += t;
            sum2 += t * t;
        }
    const float size_r = (float)((s->r2 - s->r1 + 1) * (s->c2 - s->c1 + 1));
    const float mean = sum / size_r, var = (sum2 / size_r) - mean * mean;
    return var / (mean * mean);
}

static int srad_param(bg_run *b, srad_st *s, const float *J, char *err, size_t errlen) {
    bg_srad_args a = {(uint32_t)s->d[0], (uint32_t)s->d[1], (uint32_t)s->d[2], (uint32_t)s->d[3],
                      (uint32_t)s->d[4], (uint32_t)s->d[5], s->cols,       s->rows,
                      s->lambda,         srad_q0sqr(s, J)};
    return bg_app_write(b, s->param, &a, sizeof a, err, errlen);
}

static int srad_start(bg_run *b, void *st, char *err, size_t errlen) {
    srad_st *s = st;
    const size_t bytes = (size_t)s->rows * s->cols * 4;
    if (!s->alloc) {
        for (int i = 0; i < 6; i++)
            if (!(s->d[i] = bg_app_alloc(b, bytes, err, errlen))) return -1;
        if (!(s->param = bg_app_alloc(b, 64, err, errlen))) return -1;
        s->alloc = true;
        bg_app_param(b, 0, s->param);
        bg_app_param(b, 1, s->param);
    }
    s->iter = 0;
    bg_app_output(b, s->d[4], bytes);
    return bg_app_write(b, s->d[4], s->j0, bytes, err, errlen) || srad_param(b, s, s->j0, err, errlen) ? -1 : 0;
}

static int srad_next(bg_run *b, void *st, unsigned ki, char *err, size_t errlen) {
    srad_st *s = st;
    if (ki == 0) return 1;
    if (++s->iter == s->iters) return BG_APP_DONE;
    /* Rodinia copies J back and forth around each iteration: the CPU reads it for q0sqr */
    if (bg_app_read(b, s->d[4], s->j, (size_t)s->rows * s->cols * 4, err, errlen) ||
        srad_param(b, s, s->j, err, errlen))
        return -1;
    return 0;
}

/* both kernels per pixel with the borders clamped, in their float order */
static int srad_ref(srad_st *s) {
    const int R = s->rows, Cn = s->cols;
    const size_t n = (size_t)R * Cn;
    float *dn = malloc(n * 4), *ds = malloc(n * 4), *dw = malloc(n * 4), *de = malloc(n * 4), *jn = malloc(n * 4);
    s->rj = malloc(n * 4);
    s->rc = malloc(n * 4);
    if (!dn || !ds || !dw || !de || !jn || !s->rj || !s->rc) {
        free(dn), free(ds), free(dw), free(de), free(jn);
        return -1;
    }
    memcpy(s->rj, s->j0, n * 4);
    float *J = s->rj, *C = s->rc;
    for (int it = 0; it < s->iters; it++) {
        const float q0sqr = srad_q0sqr(s, J);
        for (int i = 0; i < R; i++)
            for (int k = 0; k < Cn; k++) {
                const size_t x = (size_t)i * Cn + k;
                const float jc = J[x];
                const float nn = J[(size_t)(i > 0 ? i - 1 : 0) * Cn + k] - jc;
                const float ss = J[(size_t)(i < R - 1 ? i + 1 : R - 1) * Cn + k] - jc;
                const float ww = J[(size_t)i * Cn + (k > 0 ? k - 1 : 0)] - jc;
                const float ee = J[(size_t)i * Cn + (k < Cn - 1 ? k + 1 : Cn - 1)] - jc;
                const float g2 = (nn * nn + ss * ss + ww * ww + ee * ee) / (jc * jc);
                const float l = (nn + ss + ww + ee) / jc;
                const float num = (0.5f * g2) - ((1.0f / 16.0f) * (l * l));
                float den = 1 + (.25f * l);
                const float qsqr = num / (den * den);
                den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
                const float c = 1.0f / (1.0f + den);
                C[x] = c < 0 ? 0.0f : c > 1 ? 1.0f : c;
                dn[x] = nn, ds[x] = ss, dw[x] = ww, de[x] = ee;
            }
        for (int i = 0; i < R; i++)
            for (int k = 0; k < Cn; k++) {
                const size_t x = (size_t)i * Cn + k;
                const float cc = C[x];
                const float cs = C[(size_t)(i < R - 1 ? i + 1 : R - 1) * Cn + k];
                const float ce = C[(size_t)i * Cn + (k < Cn - 1 ? k + 1 : Cn - 1)];
                const float d_sum = cc * dn[x] + cs * ds[x] + cc * dw[x] + ce * de[x];
                jn[x] = J[x] + 0.25f * s->lambda * d_sum;
            }
        memcpy(J, jn, n * 4);
    }
    free(dn), free(ds), free(dw), free(de), free(jn);
    s->have_ref = true;
    return 0;
}

static int srad_check(bg_run *b, void *st, char *err, size_t errlen) {
    srad_st *s = st;
    if (!s->have_ref && srad_ref(s)) {
        snprintf(err, errlen, "bg_check srad: out of memory");
        return -1;
    }
    const size_t n = (size_t)s->rows * s->cols;
    if (bg_app_cmp_f(b, "J", s->d[4], s->rj, n, err, errlen)) return -1;
    return bg_app_cmp_f(b, "C", s->d[5], s->rc, n, err, errlen);
}

static void srad_destroy(void *st) {
    srad_st *s = st;
    free(s->j0), free(s->j), free(s->rj), free(s->rc), free(s);
}

static const bg_app app_srad = {"srad", "bg_srad", {"bg_srad_1", "bg_srad_2", NULL}, srad_create, srad_start,
                                srad_next, srad_check, srad_destroy};

/* ================================================================ LUD */
/* Rodinia lud (CUDA, lud_cuda): for offset = 0, 16, .. < dim - 16 the
 * triple lud_diagonal, lud_perimeter, lud_internal, then lud_diagonal at
 * the last offset; no pivoting, so the matrix is made diagonally dominant. */
#define LBS BG_LUD_BLOCK
typedef struct {
    int dim, offset;
    float *m0;
    uint64_t d_m, param;
    bool alloc;
    bool have_ref;
    float *rm;
} lud_st;

static void lud_shapes(bg_run *b, const lud_st *s) {
    const uint32_t k = (uint32_t)((s->dim - s->offset) / LBS - 1);
    bg_app_shape(b, 0, 1, 1, LBS, 1, s->param);
    bg_app_shape(b, 1, k ? k : 1, 1, 2 * LBS, 1, s->param);
    bg_app_shape(b, 2, k ? k : 1, k ? k : 1, LBS, LBS, s->param);
}

static void *lud_create(bg_run *b, bool paper, fg_rng *r, char *err, size_t errlen) {
    lud_st *s = calloc(1, sizeof *s);
    if (!s) OOM("lud");
    /* Rodinia's 512.dat size (its inputs: 64, 256, 512, 2048); test: 256 */
    s->dim = paper ? 512 : 256;
    const size_t n = (size_t)s->dim * s->dim;
    s->m0 = malloc(n * 4);
    if (!s->m0) {
        free(s);
        OOM("lud");
    }
    for (int i = 0; i < s->dim; i++)
        for (int j = 0; j < s->dim; j++)
            s->m0[(size_t)i * s->dim + j] = bg_app_frand(r, 0.0f, 1.0f) + (i == j ? (float)s->dim : 0.0f);
    lud_shapes(b, s);
    bg_app_describe(b,
                    "lud %dx%d, %d steps of lud_diagonal (1 block of 16) + lud_perimeter (%d.. blocks of 32) + "
                    "lud_internal (%dx%d.. blocks of 16x16), then lud_diagonal",
                    s->dim, s->dim, s->dim / LBS - 1, s->dim / LBS - 1, s->dim / LBS - 1, s->dim / LBS - 1);
    return s;
}

static int lud_param(bg_run *b, lud_st *s, char *err, size_t errlen) {
    bg_lud_args a = {(uint32_t)s->d_m, s->dim, s->offset};
    lud_shapes(b, s);
    return bg_app_write(b, s->param, &a, sizeof a, err, errlen);
}

static int lud_start(bg_run *b, void *st, char *err, size_t errlen) {
    lud_st *s = st;
    const size_t bytes = (size_t)s->dim * s->dim * 4;
    if (!s->alloc) {
        if (!(s->d_m = bg_app_alloc(b, bytes, err, errlen)) || !(s->param = bg_app_alloc(b, 64, err, errlen)))
            return -1;
        s->alloc = true;
    }
    s->offset = 0;
    bg_app_output(b, s->d_m, bytes);
    return bg_app_write(b, s->d_m, s->m0, bytes, err, errlen) || lud_param(b, s, err, errlen) ? -1 : 0;
}

static int lud_next(bg_run *b, void *st, unsigned ki, char *err, size_t errlen) {
    lud_st *s = st;
    if (ki == 0) return s->offset == s->dim - LBS ? BG_APP_DONE : 1;
    if (ki == 1) return 2;
    s->offset += LBS;
    return lud_param(b, s, err, errlen) ? -1 : 0;
}

/* the three kernels on the host, thread by thread in their float order (no
 * thread reads what another writes between two barriers, so any order of
 * the threads gives the kernel's values) */
static void lud_diag_ref(float *m, int dim, int off) {
    float sh[LBS][LBS];
    for (int i = 0; i < LBS; i++)
        for (int t = 0; t < LBS; t++) sh[i][t] = m[(size_t)(off + i) * dim + off + t];
    for (int i = 0; i < LBS - 1; i++) {
        for (int t = i + 1; t < LBS; t++) {
            for (int j = 0; j < i; j++) sh[t][i] -= sh[t][j] * sh[j][i];
            sh[t][i] /= sh[i][i];
        }
        for (int t = i + 1; t < LBS; t++)
            for (int j = 0; j < i + 1; j++) sh[i + 1][t] -= sh[i + 1][j] * sh[j][t];
    }
    for (int i = 1; i < LBS; i++)
        for (int t = 0; t < LBS; t++) m[(size_t)(off + i) * dim + off + t] = sh[i][t];
}

static void lud_perim_ref(float *m, int dim, int off) {
    float d[LBS][LBS], pr[LBS][LBS], pc[LBS][LBS];
    for (int i = 0; i < LBS; i++)
        for (int t = 0; t < LBS; t++) d[i][t] = m[(size_t)(off + i) * dim + off + t];
    for (int bcol = LBS; bcol < dim - off; bcol += LBS) {
        for (int i = 0; i < LBS; i++)
            for (int t = 0; t < LBS; t++) {
                pr[i][t] = m[(size_t)(off + i) * dim + off + bcol + t];
                pc[i][t] = m[(size_t)(off + bcol + i) * dim + off + t];
            }
        for (int t = 0; t < LBS; t++)
            for (int i = 1; i < LBS; i++)
                for (int j = 0; j < i; j++) pr[i][t] -= d[i][j] * pr[j][t];
        for (int t = 0; t < LBS; t++)
            for (int i = 0; i < LBS; i++) {
                for (int j = 0; j < i; j++) pc[t][i] -= pc[t][j] * d[j][i];
                pc[t][i] /= d[i][i];
            }
        for (int i = 0; i < LBS; i++)
            for (int t = 0; t < LBS; t++) {
                if (i) m[(size_t)(off + i) * dim + off + bcol + t] = pr[i][t];
                m[(size_t)(off + bcol + i) * dim + off + t] = pc[i][t];
            }
    }
}

static void lud_internal_ref(float *m, int dim, int off) {
    for (int r0 = off + LBS; r0 < dim; r0 += LBS)
        for (int c0 = off + LBS; c0 < dim; c0 += LBS)
            for (int ty = 0; ty < LBS; ty++)
                for (int tx = 0; tx < LBS; tx++) {
                    float sum = 0;
                    for (int i = 0; i < LBS; i++)
                        sum += m[(size_t)(r0 + ty) * dim + off + i] * m[(size_t)(off + i) * dim + c0 + tx];
                    m[(size_t)(r0 + ty) * dim + c0 + tx] -= sum;
                }
}

static int lud_check(bg_run *b, void *st, char *err, size_t errlen) {
    lud_st *s = st;
    const size_t n = (size_t)s->dim * s->dim;
    if (!s->have_ref) {
        if (!(s->rm = malloc(n * 4))) {
            snprintf(err, errlen, "bg_check lud: out of memory");
            return -1;
        }
        memcpy(s->rm, s->m0, n * 4);
        int off = 0;
        for (; off < s->dim - LBS; off += LBS) {
            lud_diag_ref(s->rm, s->dim, off);
            lud_perim_ref(s->rm, s->dim, off);
            lud_internal_ref(s->rm, s->dim, off);
        }
        lud_diag_ref(s->rm, s->dim, off);
        s->have_ref = true;
    }
    return bg_app_cmp_f(b, "m", s->d_m, s->rm, n, err, errlen);
}

static void lud_destroy(void *st) {
    lud_st *s = st;
    free(s->m0), free(s->rm), free(s);
}

static const bg_app app_lud = {"lud", "bg_lud", {"bg_lud_diagonal", "bg_lud_perimeter", "bg_lud_internal", NULL},
                               lud_create, lud_start, lud_next, lud_check, lud_destroy};

/* ============================================================== CONV2 */
/* cuda-convnet filterActs_YxX_sparse (sw/kernels/bg_conv2.c), one launch:
 * the second convolution layer of a LeNet-like net, fed by CONV's 16
 * filters (16 colours); our sizes (docs/BG_KERNELS.md). */
typedef struct {
    int n_img, colors, img, nflt, fsz, mx;
    float *images, *filters, *ref;
    uint64_t d_img, d_flt, d_tgt, param;
    bool alloc;
} conv2_st;

static size_t conv2_targets(const conv2_st *s) { return (size_t)s->nflt * s->mx * s->mx * s->n_img; }

static void *conv2_create(bg_run *b, bool paper, fg_rng *r, char *err, size_t errlen) {
    conv2_st *s = calloc(1, sizeof *s);
    if (!s) OOM("conv2");
    /* paper: CONV's 200 images after its 24x24 output is pooled to 12x12,
     * its 16 filters as colours, 32 filters 5x5; test: 40 images, 4 colours,
     * 64 filters (256 blocks, 16 a core) */
    s->n_img = paper ? 200 : 40;
    s->colors = paper ? 16 : 4;
    s->img = 12;
    s->nflt = paper ? 32 : 64;
    s->fsz = 5;
    s->mx = s->img - s->fsz + 1; /* pad 0, stride 1 */
    const size_t ni = (size_t)s->colors * s->img * s->img * s->n_img;
    const size_t nf = (size_t)s->colors * s->fsz * s->fsz * s->nflt;
    s->images = malloc(ni * 4);
    s->filters = malloc(nf * 4);
    if (!s->images || !s->filters) {
        free(s->images), free(s->filters), free(s);
        OOM("conv2");
    }
    for (size_t i = 0; i < ni; i++) s->images[i] = bg_app_frand(r, -1.0f, 1.0f);
    for (size_t i = 0; i < nf; i++) s->filters[i] = bg_app_frand(r, -1.0f, 1.0f);
    const uint32_t gx = (uint32_t)((s->n_img + BG_CONV2_BX - 1) / BG_CONV2_BX),
                   gy = (uint32_t)(s->mx * s->mx * (s->nflt / (BG_CONV2_BY * BG_CONV2_FPT)));
    bg_app_shape(b, 0, gx, gy, BG_CONV2_BX, BG_CONV2_BY, 0);
    bg_app_describe(b, "conv2 %d images %dx%d, %d colours, %d filters %dx%d (%dx%d modules), %u blocks of 32x4 threads",
                    s->n_img, s->img, s->img, s->colors, s->nflt, s->fsz, s->fsz, s->mx, s->mx, gx * gy);
    return s;
}

static int conv2_start(bg_run *b, void *st, char *err, size_t errlen) {
    conv2_st *s = st;
    const size_t ni = (size_t)s->colors * s->img * s->img * s->n_img * 4,
                 nf = (size_t)s->colors * s->fsz * s->fsz * s->nflt * 4, nt = conv2_targets(s) * 4;
    if (!s->alloc) {
        if (!(s->d_img = bg_app_alloc(b, ni, err, errlen)) || !(s->d_flt = bg_app_alloc(b, nf, err, errlen)) ||
            !(s->d_tgt = bg_app_alloc(b, nt, err, errlen)) || !(s->param = bg_app_alloc(b, 64, err, errlen)))
            return -1;
        s->alloc = true;
        bg_app_param(b, 0, s->param);
    }
    bg_conv2_args a = {(uint32_t)s->d_img, (uint32_t)s->d_flt, (uint32_t)s->d_tgt, s->n_img, s->nflt, s->colors,
                       s->img, s->fsz, 0, 1, s->mx, s->n_img, 1.0f};
    float *zero = calloc(1, nt); /* targets cleared: each run's check sees its own results */
    if (!zero) {
        snprintf(err, errlen, "bg_start conv2: out of memory");
        return -1;
    }
    const int rc = bg_app_write(b, s->d_img, s->images, ni, err, errlen) ||
                   bg_app_write(b, s->d_flt, s->filters, nf, err, errlen) ||
                   bg_app_write(b, s->d_tgt, zero, nt, err, errlen) ||
                   bg_app_write(b, s->param, &a, sizeof a, err, errlen);
    free(zero);
    bg_app_output(b, s->d_tgt, nt);
    return rc ? -1 : 0;
}

static int conv2_next(bg_run *b, void *st, unsigned ki, char *err, size_t errlen) {
    (void)b, (void)st, (void)ki, (void)err, (void)errlen;
    return BG_APP_DONE;
}

/* per (image, module, filter) the products in the kernel's order: colour
 * pairs, steps of 4 filter pixels, within a step the pair's first colour's
 * pixels, then the second's (the kernel's padded steps add products with
 * zero filter taps, which change nothing) */
static int conv2_check(bg_run *b, void *st, char *err, size_t errlen) {
    conv2_st *s = st;
    const int mods = s->mx * s->mx, fp = s->fsz * s->fsz, ip = s->img * s->img;
    if (!s->ref) {
        if (!(s->ref = malloc(conv2_targets(s) * 4))) {
            snprintf(err, errlen, "bg_check conv2: out of memory");
            return -1;
        }
        for (int m = 0; m < mods; m++)
            for (int f = 0; f < s->nflt; f++)
                for (int i = 0; i < s->n_img; i++) {
                    float prod = 0;
                    for (int oc = 0; oc < s->colors; oc += BG_CONV2_CC)
                        for (int p = 0; p < fp; p += BG_CONV2_BY)
                            for (int c = 0; c < BG_CONV2_CC; c++)
                                for (int q = p; q < p + BG_CONV2_BY && q < fp; q++) {
                                    const int y = m / s->mx + q / s->fsz, x = m % s->mx + q % s->fsz;
                                    prod += s->images[((size_t)(oc + c) * ip + y * s->img + x) * s->n_img + i] *
                                            s->filters[((size_t)(oc + c) * fp + q) * s->nflt + f];
                                }
                    s->ref[((size_t)f * mods + m) * s->n_img + i] = 1.0f * prod;
                }
    }
    return bg_app_cmp_f(b, "targets", s->d_tgt, s->ref, conv2_targets(s), err, errlen);
}

static void conv2_destroy(void *st) {
    conv2_st *s = st;
    free(s->images), free(s->filters), free(s->ref), free(s);
}

static const bg_app app_conv2 = {"conv2", "bg_conv2", {"bg_conv2", NULL}, conv2_create, conv2_start, conv2_next,
                                 conv2_check, conv2_destroy};

const bg_app *const bg_edge_apps[] = {&app_conv2, &app_sc, &app_kmn, &app_srad, &app_lud, NULL};
