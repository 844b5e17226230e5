/* bg_kernels: driver and host references of the background kernels CONV,
 * MM, BP and BFS (EDGE Sec. V, VI-B/C), and the STREAM triad of the CM
 * machine (docs/CM_MACHINE.md).  See bg_kernels.h and
 * docs/BG_KERNELS.md; kernels in sw/kernels/bg_*.c, parameter blocks in
 * sw/kernels/bg_args.h. */
#include "work/bg_kernels.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_util.h"
#include "work/bg_app.h"
#include "../sw/kernels/bg_args.h"

enum { K_CONV, K_MM, K_BP, K_BFS, K_STREAM, K_COUNT };
#define BP_HID 16 /* Rodinia backprop: 16 hidden units (= WIDTH) */
#define BP_OUT 1  /* and one output unit */

struct bg_run {
    gpu_t *g;
    int kind;
    uint64_t seed;
    char desc[200];
    gpu_kernel k[BG_APP_KMAX];
    unsigned nk;
    uint32_t grid[BG_APP_KMAX][3], block[BG_APP_KMAX][3];
    const bg_app *app;      /* an application of bg_app.h (NULL: one of the kinds above) */
    void *st;               /* its state */
    uint64_t kparam[BG_APP_KMAX]; /* its kernels' parameter blocks */
    uint64_t id;            /* run id in the tag (bits 61..20) */
    uint32_t seq;           /* launch sequence in the tag (bits 19..0) */
    uint64_t cur_tag;
    bool allocated, running, done, failed;
    char fail[256];
    unsigned phase;         /* kernel index of the launch in flight */
    unsigned launches, levels;
    uint64_t t_start, t_end;
    uint64_t param;         /* parameter block in GPU memory */
    uint64_t out_addr, out_bytes;
    int n;                  /* MM: matrix dim; BP: input units; BFS: nodes; STREAM: elements */
    /* CONV sizes */
    int n_img, img, nflt, fsz, pad, stride, mx;
    /* host inputs */
    float *f0, *f1, *f2, *f3, *f4; /* CONV: images, filters; MM: A, B; BP: units, w, oldw, hw, target; STREAM: b, c */
    bg_bfs_node *nodes;
    int32_t *edges;
    size_t nedges;
    /* GPU buffers */
    uint64_t d[8];
    /* reference (on first bg_check) */
    bool have_ref;
    float *r0, *r1, *r2;    /* CONV: targets; MM: C; BP: partial sums, w, oldw; STREAM: a */
    int32_t *rcost;         /* BFS */
};

/* ------------------------------------------------------------ helpers */
static float frand(fg_rng *r) { return (float)(fg_rng_next(r) >> 40) * (1.0f / 16777216.0f); } /* [0, 1) */

static bool close_f(float g, float r) {
    if (isnan(g) || isnan(r)) return false;
    float m = fabsf(r);
    return fabsf(g - r) <= 1e-5f * (m > 0.1f ? m : 0.1f);
}

static uint32_t f2u(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static const char *kind_name(int k) {
    static const char *const n[] = {"conv", "mm", "bp", "bfs", "stream"};
    return n[k];
}
static const char *run_name(const bg_run *b) { return b->app ? b->app->name : kind_name(b->kind); }

/* the applications bg_new finds by name: EDGE's further background kernels, then CM Table II's */
static const bg_app *app_at(unsigned i) {
    for (unsigned j = 0; bg_edge_apps[j]; j++, i--)
        if (!i) return bg_edge_apps[j];
    for (unsigned j = 0; bg_cm_apps[j]; j++, i--)
        if (!i) return bg_cm_apps[j];
    return NULL;
}

const char *bg_kernel_name(unsigned i) {
    if (i < K_COUNT) return kind_name((int)i);
    const bg_app *a = app_at(i - K_COUNT);
    return a ? a->name : NULL;
}

bool bg_kernel_known(const char *name) {
    for (unsigned i = 0; name && bg_kernel_name(i); i++)
        if (!strcmp(name, bg_kernel_name(i))) return true;
    return false;
}

static int gread(bg_run *b, uint64_t a, void *p, size_t n, char *err, size_t errlen) {
    if (gpu_mem_read(b->g, a, p, n)) {
        snprintf(err, errlen, "bg %s: cannot read %zu bytes of GPU memory at 0x%" PRIx64, run_name(b), n, a);
        return -1;
    }
    return 0;
}
static int gwrite(bg_run *b, uint64_t a, const void *p, size_t n, char *err, size_t errlen) {
    if (gpu_mem_write(b->g, a, p, n)) {
        snprintf(err, errlen, "bg %s: cannot write %zu bytes of GPU memory at 0x%" PRIx64, run_name(b), n, a);
        return -1;
    }
    return 0;
}

/* -------------------------------------------------------------- sizes */
/* paper: the EDGE artifact's setup (docs/BG_KERNELS.md says where each
 * number comes from); test: scaled down to a few seconds on the model */
static void set_sizes(bg_run *b, bool paper) {
    switch (b->kind) {
    case K_CONV: /* run_conv_kernel defaults: batch 200, 1 colour, 28x28, 16 filters 5x5, pad 0, stride 1 */
        b->n_img = paper ? 200 : 40;
        b->img = paper ? 28 : 16;
        b->nflt = 16;
        b->fsz = 5;
        b->pad = 0;
        b->stride = 1;
        b->mx = 1 + (2 * b->pad + b->img - b->fsz + b->stride - 1) / b->stride;
        break;
    case K_MM: b->n = paper ? 512 : 256; break;     /* MatrixMulBase: 512x512 */
    case K_BP: b->n = paper ? 32768 : 4096; break;  /* layer of 32768 input units */
    case K_BFS: b->n = paper ? 65536 : 32768; break; /* Rodinia graph65536 */
    case K_STREAM: b->n = paper ? 1 << 22 : 1 << 16; break; /* 3 x 16 MiB: 6 x the CM machine's 8 MiB LLC */
    }
}

int bg_bfs_graph(fg_rng *r, size_t n, bool connected, bg_bfs_node **nodes_out, int32_t **edges_out,
                 size_t *n_edges) {
    size_t np = 0;
    int32_t *ps = malloc(4 * n * 4), *pd = malloc(4 * n * 4), *pos = calloc(n, 4), *edges = NULL;
    bg_bfs_node *nodes = calloc(n, sizeof *nodes);
    if (!ps || !pd || !pos || !nodes) goto out;
    for (size_t i = 0; i < n; i++) {
        unsigned ne = 2 + (unsigned)fg_rng_below(r, 3);
        for (unsigned e = 0; e < ne; e++) {
            ps[np] = (int32_t)i;
            pd[np] = (int32_t)(connected && e == 0 && i ? fg_rng_below(r, i) : fg_rng_below(r, n));
            nodes[ps[np]].no_of_edges++;
            nodes[pd[np]].no_of_edges++;
            np++;
        }
    }
    int32_t start = 0;
    for (size_t i = 0; i < n; i++) {
        nodes[i].starting = pos[i] = start;
        start += nodes[i].no_of_edges;
    }
    edges = malloc(2 * np * 4);
    if (edges)
        for (size_t p = 0; p < np; p++) {
            edges[pos[ps[p]]++] = pd[p];
            edges[pos[pd[p]]++] = ps[p];
        }
out:
    free(ps);
    free(pd);
    free(pos);
    if (!edges) {
        free(nodes);
        return -1;
    }
    *nodes_out = nodes;
    *edges_out = edges;
    *n_edges = 2 * np;
    return 0;
}

/* ------------------------------------------------------ input generation */
static int gen_inputs(bg_run *b) {
    fg_rng r;
    fg_rng_seed(&r, b->seed ^ (0x6267ull << 32) ^ (uint64_t)b->kind);
    if (b->kind == K_CONV) {
        size_t ni = (size_t)b->img * b->img * b->n_img, nf = (size_t)b->fsz * b->fsz * b->nflt;
        b->f0 = malloc(ni * 4);
        b->f1 = malloc(nf * 4);
        if (!b->f0 || !b->f1) return -1;
        for (size_t i = 0; i < ni; i++) b->f0[i] = 2.0f * frand(&r) - 1.0f;
        for (size_t i = 0; i < nf; i++) b->f1[i] = 2.0f * frand(&r) - 1.0f;
    } else if (b->kind == K_MM) {
        size_t nn = (size_t)b->n * b->n;
        b->f0 = malloc(nn * 4);
        b->f1 = malloc(nn * 4);
        if (!b->f0 || !b->f1) return -1;
        for (size_t i = 0; i < nn; i++) b->f0[i] = frand(&r); /* SDK randomInit: [0, 1) */
        for (size_t i = 0; i < nn; i++) b->f1[i] = frand(&r);
    } else if (b->kind == K_BP) {
        size_t in = (size_t)b->n, nw = (in + 1) * (BP_HID + 1);
        b->f0 = malloc((in + 1) * 4);
        b->f1 = malloc(nw * 4);
        b->f2 = malloc(nw * 4);
        b->f3 = malloc((BP_HID + 1) * (BP_OUT + 1) * 4);
        b->f4 = malloc((BP_OUT + 1) * 4);
        if (!b->f0 || !b->f1 || !b->f2 || !b->f3 || !b->f4) return -1;
        b->f0[0] = 1.0f; /* bias unit */
        for (size_t i = 1; i <= in; i++) b->f0[i] = frand(&r);
        /* zero-mean small weights keep the hidden sums unsaturated (docs) */
        for (size_t i = 0; i < nw; i++) b->f1[i] = (frand(&r) - 0.5f) * 0.02f;
        for (size_t i = 0; i < nw; i++) b->f2[i] = (frand(&r) - 0.5f) * 0.01f;
        for (size_t i = 0; i < (BP_HID + 1) * (BP_OUT + 1); i++) b->f3[i] = frand(&r) - 0.5f;
        b->f4[0] = 0;
        for (size_t i = 1; i <= BP_OUT; i++) b->f4[i] = frand(&r);
    } else if (b->kind == K_STREAM) {
        b->f0 = malloc((size_t)b->n * 4);
        b->f1 = malloc((size_t)b->n * 4);
        if (!b->f0 || !b->f1) return -1;
        for (int i = 0; i < b->n; i++) b->f0[i] = frand(&r);
        for (int i = 0; i < b->n; i++) b->f1[i] = frand(&r);
    } else {
        /* Rodinia graphgen style (bg_bfs_graph) */
        if (bg_bfs_graph(&r, (size_t)b->n, false, &b->nodes, &b->edges, &b->nedges)) return -1;
    }
    return 0;
}

/* ------------------------------------------------- applications (bg_app.h) */
void bg_app_shape(bg_run *b, unsigned ki, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by, uint64_t param) {
    if (ki >= BG_APP_KMAX) return;
    const uint32_t gr[3] = {gx, gy, 1}, bl[3] = {bx, by, 1};
    memcpy(b->grid[ki], gr, sizeof gr);
    memcpy(b->block[ki], bl, sizeof bl);
    b->kparam[ki] = param;
}

void bg_app_param(bg_run *b, unsigned ki, uint64_t param) {
    if (ki < BG_APP_KMAX) b->kparam[ki] = param;
}

void bg_app_describe(bg_run *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->desc, sizeof b->desc, fmt, ap);
    va_end(ap);
}

void bg_app_output(bg_run *b, uint64_t addr, uint64_t bytes) {
    b->out_addr = addr;
    b->out_bytes = bytes;
}

uint64_t bg_app_alloc(bg_run *b, uint64_t bytes, char *err, size_t errlen) {
    uint64_t a = gpu_malloc(b->g, bytes ? bytes : 4);
    if (!a || a + bytes > 0xFFFFFFFFull) {
        snprintf(err, errlen, "bg %s: GPU memory full (%" PRIu64 " bytes)", run_name(b), bytes);
        return 0;
    }
    return a;
}

int bg_app_write(bg_run *b, uint64_t addr, const void *p, size_t n, char *err, size_t errlen) {
    return gwrite(b, addr, p, n, err, errlen);
}
int bg_app_read(bg_run *b, uint64_t addr, void *p, size_t n, char *err, size_t errlen) {
    return gread(b, addr, p, n, err, errlen);
}

float bg_app_frand(fg_rng *r, float lo, float hi) { return lo + (hi - lo) * frand(r); }

static bg_run *app_new(bg_run *b, const bg_app *app, bool paper, const char *kdir, char *err, size_t errlen) {
    b->app = app;
    char path[1024], e2[256];
    snprintf(path, sizeof path, "%s/%s.elf", kdir, app->elf);
    for (unsigned i = 0; i < BG_APP_KMAX && app->syms[i]; i++) {
        if (gpu_load_kernel(b->g, path, app->syms[i], &b->k[i], e2, sizeof e2)) {
            snprintf(err, errlen, "bg_new %s: %s", app->name, e2);
            bg_free(b);
            return NULL;
        }
        b->nk = i + 1;
    }
    fg_rng r;
    uint64_t h = 14695981039346656037ull; /* FNV-1a of the name: each application its own stream */
    for (const char *c = app->name; *c; c++) h = (h ^ (uint8_t)*c) * 1099511628211ull;
    fg_rng_seed(&r, b->seed ^ h);
    b->st = app->create(b, paper, &r, err, errlen);
    if (!b->st) {
        bg_free(b);
        return NULL;
    }
    return b;
}

/* ------------------------------------------------------------- bg_new */
bg_run *bg_new(gpu_t *g, const char *name, const char *size, const char *kdir, uint64_t seed, char *err,
               size_t errlen) {
    int kind = -1;
    const bg_app *app = NULL;
    for (int k = 0; k < K_COUNT && name; k++)
        if (!strcmp(name, kind_name(k))) kind = k;
    for (unsigned j = 0; kind < 0 && name && app_at(j); j++)
        if (!strcmp(name, app_at(j)->name)) app = app_at(j);
    if (!g) { snprintf(err, errlen, "bg_new: no gpu"); return NULL; }
    if (kind < 0 && !app) {
        size_t o = (size_t)snprintf(err, errlen, "bg_new: unknown background kernel '%s' (expected one of:",
                                    name ? name : "(null)");
        for (unsigned i = 0; bg_kernel_name(i) && o < errlen; i++)
            o += (size_t)snprintf(err + o, errlen - o, " %s", bg_kernel_name(i));
        if (o < errlen) snprintf(err + o, errlen - o, ")");
        return NULL;
    }
    if (!size || (strcmp(size, "paper") && strcmp(size, "test"))) {
        snprintf(err, errlen, "bg_new %s: unknown size '%s' (expected paper or test)", name, size ? size : "(null)");
        return NULL;
    }
    if (!kdir) { snprintf(err, errlen, "bg_new %s: no kernel directory", name); return NULL; }
    bg_run *b = calloc(1, sizeof *b);
    if (!b) { snprintf(err, errlen, "bg_new %s: out of memory", name); return NULL; }
    b->g = g;
    b->kind = kind;
    b->seed = seed;
    b->id = ((uint64_t)(uintptr_t)b >> 4) & ((1ull << 42) - 1);
    if (app) return app_new(b, app, !strcmp(size, "paper"), kdir, err, errlen);
    set_sizes(b, !strcmp(size, "paper"));

    static const char *const syms[K_COUNT][2] = {{"bg_conv", NULL},
                                                 {"bg_mm", NULL},
                                                 {"bg_bp_forward", "bg_bp_adjust"},
                                                 {"bg_bfs_expand", "bg_bfs_update"},
                                                 {"bg_stream_triad", NULL}};
    char path[1024];
    snprintf(path, sizeof path, "%s/bg_%s.elf", kdir, name);
    for (unsigned i = 0; i < 2 && syms[kind][i]; i++) {
        char e2[256];
        if (gpu_load_kernel(g, path, syms[kind][i], &b->k[i], e2, sizeof e2)) {
            snprintf(err, errlen, "bg_new %s: %s", name, e2);
            bg_free(b);
            return NULL;
        }
        b->nk = i + 1;
    }
    for (unsigned i = 0; i < 2; i++) {
        for (int d = 0; d < 3; d++) b->grid[i][d] = b->block[i][d] = 1;
    }
    switch (kind) {
    case K_CONV:
        b->grid[0][0] = (uint32_t)((b->n_img + BG_CONV_BX - 1) / BG_CONV_BX);
        b->grid[0][1] = (uint32_t)(b->mx * b->mx * (b->nflt / (BG_CONV_BY * BG_CONV_FPT)));
        b->block[0][0] = BG_CONV_BX;
        b->block[0][1] = BG_CONV_BY;
        snprintf(b->desc, sizeof b->desc,
                 "conv %d images %dx%d, %d filters %dx%d (%dx%d modules), %u blocks of %ux%u threads", b->n_img,
                 b->img, b->img, b->nflt, b->fsz, b->fsz, b->mx, b->mx, b->grid[0][0] * b->grid[0][1],
                 b->block[0][0], b->block[0][1]);
        break;
    case K_MM:
        b->grid[0][0] = b->grid[0][1] = (uint32_t)(b->n / BG_MM_BLOCK);
        b->block[0][0] = b->block[0][1] = BG_MM_BLOCK;
        snprintf(b->desc, sizeof b->desc, "mm %dx%d, %u blocks of %ux%u threads", b->n, b->n,
                 b->grid[0][0] * b->grid[0][1], b->block[0][0], b->block[0][1]);
        break;
    case K_BP:
        for (unsigned i = 0; i < 2; i++) {
            b->grid[i][1] = (uint32_t)(b->n / BG_BP_HEIGHT);
            b->block[i][0] = BG_BP_WIDTH;
            b->block[i][1] = BG_BP_HEIGHT;
        }
        snprintf(b->desc, sizeof b->desc,
                 "bp %d input units x %d hidden, layerforward + adjust_weights, %u blocks of %ux%u threads each",
                 b->n, BP_HID, b->grid[0][1], b->block[0][0], b->block[0][1]);
        break;
    case K_BFS:
        for (unsigned i = 0; i < 2; i++) {
            b->grid[i][0] = (uint32_t)((b->n + BG_BFS_THREADS - 1) / BG_BFS_THREADS);
            b->block[i][0] = BG_BFS_THREADS;
        }
        break;
    case K_STREAM: /* at most 1024 blocks (grid-stride loop), as STREAM's CUDA ports */
        b->grid[0][0] = (uint32_t)((b->n / BG_STREAM_THREADS) < 1024 ? (b->n / BG_STREAM_THREADS) : 1024);
        b->block[0][0] = BG_STREAM_THREADS;
        snprintf(b->desc, sizeof b->desc, "stream triad a = b + s c, %d floats per array, %u blocks of %u threads",
                 b->n, b->grid[0][0], b->block[0][0]);
        break;
    }
    if (gen_inputs(b)) {
        snprintf(err, errlen, "bg_new %s: out of memory", name);
        bg_free(b);
        return NULL;
    }
    if (kind == K_BFS)
        snprintf(b->desc, sizeof b->desc, "bfs %d nodes, %zu edges, 2 kernels per level of %u blocks of %u threads",
                 b->n, b->nedges, b->grid[0][0], b->block[0][0]);
    return b;
}

void bg_free(bg_run *b) {
    if (!b) return;
    if (b->app && b->st) b->app->destroy(b->st);
    free(b->f0); free(b->f1); free(b->f2); free(b->f3); free(b->f4);
    free(b->nodes); free(b->edges);
    free(b->r0); free(b->r1); free(b->r2); free(b->rcost);
    free(b);
}

unsigned bg_regs_per_thread(const bg_run *b) {
    unsigned r = 0;
    for (unsigned i = 0; i < b->nk; i++)
        if (b->k[i].regs_per_thread > r) r = b->k[i].regs_per_thread;
    return r;
}
const char *bg_describe(const bg_run *b) { return b->desc; }
bool bg_done(const bg_run *b) { return b->done; }
bool bg_running(const bg_run *b) { return b->running; }
uint64_t bg_cycles(const bg_run *b) { return b->done ? b->t_end - b->t_start : 0; }
unsigned bg_launches(const bg_run *b) { return b->launches; }
uint64_t bg_output(const bg_run *b, uint64_t *bytes) {
    if (bytes) *bytes = b->out_bytes;
    return b->out_addr;
}

/* ------------------------------------------------------------ launching */
static int launch(bg_run *b, unsigned ki, char *err, size_t errlen) {
    gpu_launch_desc d;
    memset(&d, 0, sizeof d);
    d.kernel_ptr = b->k[ki].entry;
    d.regs_per_thread = b->k[ki].regs_per_thread;
    memcpy(d.grid, b->grid[ki], sizeof d.grid);
    memcpy(d.block, b->block[ki], sizeof d.block);
    d.param_addr = b->app ? b->kparam[ki] : b->param;
    d.priority = 0;
    b->seq = (b->seq + 1) & 0xFFFFFu;
    d.tag = BG_TAG_BASE | (b->id << 20) | b->seq;
    char e2[256];
    if (gpu_launch(b->g, &d, e2, sizeof e2)) {
        snprintf(err, errlen, "bg %s: %s", run_name(b), e2);
        return -1;
    }
    b->cur_tag = d.tag;
    b->phase = ki;
    b->launches++;
    return 0;
}

static uint64_t balloc(bg_run *b, uint64_t bytes) { return gpu_malloc(b->g, bytes ? bytes : 4); }

static int allocate(bg_run *b, char *err, size_t errlen) {
    uint64_t sz[8] = {0};
    switch (b->kind) {
    case K_CONV:
        sz[0] = (uint64_t)b->img * b->img * b->n_img * 4;
        sz[1] = (uint64_t)b->fsz * b->fsz * b->nflt * 4;
        sz[2] = (uint64_t)b->nflt * b->mx * b->mx * b->n_img * 4;
        b->out_bytes = sz[2];
        break;
    case K_MM: sz[0] = sz[1] = sz[2] = (uint64_t)b->n * b->n * 4; b->out_bytes = sz[2]; break;
    case K_BP: {
        uint64_t in = (uint64_t)b->n, nw = (in + 1) * (BP_HID + 1) * 4;
        sz[0] = (in + 1) * 4;                          /* input units */
        sz[1] = (BP_HID + 1) * 4;                      /* output_hidden (unused by the kernels) */
        sz[2] = nw;                                    /* weights */
        sz[3] = (in / BG_BP_HEIGHT) * BP_HID * 4;      /* partial sums */
        sz[4] = (BP_HID + 1) * 4;                      /* hidden delta */
        sz[5] = nw;                                    /* previous weights */
        b->out_bytes = nw;
        break;
    }
    case K_BFS:
        sz[0] = (uint64_t)b->n * sizeof(bg_bfs_node);
        sz[1] = b->nedges * 4;
        sz[2] = sz[3] = sz[4] = (uint64_t)b->n;        /* mask, updating, visited */
        sz[5] = (uint64_t)b->n * 4;                    /* cost */
        sz[6] = 4;                                     /* over */
        b->out_bytes = sz[5];
        break;
    case K_STREAM: sz[0] = sz[1] = sz[2] = (uint64_t)b->n * 4; b->out_bytes = sz[0]; break;
    }
    for (int i = 0; i < 8; i++) {
        if (!sz[i]) continue;
        b->d[i] = balloc(b, sz[i]);
        if (!b->d[i] || b->d[i] + sz[i] > 0xFFFFFFFFull) {
            snprintf(err, errlen, "bg %s: GPU memory full (%" PRIu64 " bytes)", run_name(b), sz[i]);
            return -1;
        }
    }
    b->param = balloc(b, 64);
    if (!b->param) { snprintf(err, errlen, "bg %s: GPU memory full", run_name(b)); return -1; }
    b->out_addr = b->kind == K_BFS ? b->d[5] : b->kind == K_STREAM ? b->d[0] : b->d[2];
    b->allocated = true;
    return 0;
}

int bg_start(bg_run *b, char *err, size_t errlen) {
    if (b->running) {
        snprintf(err, errlen, "bg_start %s: already running", run_name(b));
        return -1;
    }
    int first = 0;
    if (b->app) {
        if ((first = b->app->start(b, b->st, err, errlen)) < 0) return -1;
        goto go;
    }
    if (!b->allocated && allocate(b, err, errlen)) return -1;
    int rc = 0;
    switch (b->kind) {
    case K_CONV: {
        bg_conv_args a = {(uint32_t)b->d[0], (uint32_t)b->d[1], (uint32_t)b->d[2], b->n_img, b->nflt, b->img,
                          b->fsz, -b->pad, b->stride, b->mx, b->n_img, 1.0f};
        rc = gwrite(b, b->d[0], b->f0, (size_t)b->img * b->img * b->n_img * 4, err, errlen) ||
             gwrite(b, b->d[1], b->f1, (size_t)b->fsz * b->fsz * b->nflt * 4, err, errlen) ||
             gwrite(b, b->param, &a, sizeof a, err, errlen);
        break;
    }
    case K_MM: {
        bg_mm_args a = {(uint32_t)b->d[2], (uint32_t)b->d[0], (uint32_t)b->d[1], b->n, b->n};
        size_t nn = (size_t)b->n * b->n * 4;
        rc = gwrite(b, b->d[0], b->f0, nn, err, errlen) || gwrite(b, b->d[1], b->f1, nn, err, errlen) ||
             gwrite(b, b->param, &a, sizeof a, err, errlen);
        break;
    }
    case K_BP: {
        bg_bp_args a = {(uint32_t)b->d[0], (uint32_t)b->d[1], (uint32_t)b->d[2], (uint32_t)b->d[3],
                        (uint32_t)b->d[4], (uint32_t)b->d[5], b->n, BP_HID};
        size_t nw = ((size_t)b->n + 1) * (BP_HID + 1) * 4;
        rc = gwrite(b, b->d[0], b->f0, ((size_t)b->n + 1) * 4, err, errlen) ||
             gwrite(b, b->d[2], b->f1, nw, err, errlen) || gwrite(b, b->d[5], b->f2, nw, err, errlen) ||
             gwrite(b, b->param, &a, sizeof a, err, errlen);
        break;
    }
    case K_BFS: {
        bg_bfs_args a = {(uint32_t)b->d[0], (uint32_t)b->d[1], (uint32_t)b->d[2], (uint32_t)b->d[3],
                         (uint32_t)b->d[4], (uint32_t)b->d[5], (uint32_t)b->d[6], b->n};
        size_t n = (size_t)b->n;
        uint8_t *flags = calloc(n, 1);
        int32_t *cost = malloc(n * 4);
        if (!flags || !cost) {
            free(flags); free(cost);
            snprintf(err, errlen, "bg_start bfs: out of memory");
            return -1;
        }
        for (size_t i = 0; i < n; i++) cost[i] = -1;
        cost[0] = 0; /* source node 0 */
        uint32_t zero = 0;
        rc = gwrite(b, b->d[0], b->nodes, n * sizeof *b->nodes, err, errlen) ||
             gwrite(b, b->d[1], b->edges, b->nedges * 4, err, errlen) ||
             gwrite(b, b->d[3], flags, n, err, errlen) || gwrite(b, b->d[5], cost, n * 4, err, errlen) ||
             gwrite(b, b->d[6], &zero, 4, err, errlen);
        flags[0] = 1; /* the source is the frontier and visited */
        rc = rc || gwrite(b, b->d[2], flags, n, err, errlen) || gwrite(b, b->d[4], flags, n, err, errlen) ||
             gwrite(b, b->param, &a, sizeof a, err, errlen);
        free(flags);
        free(cost);
        b->levels = 1;
        break;
    }
    case K_STREAM: { /* a zeroed, so that every run's check sees this run's results */
        bg_stream_args a = {(uint32_t)b->d[0], (uint32_t)b->d[1], (uint32_t)b->d[2], b->n, BG_STREAM_SCALAR};
        size_t n = (size_t)b->n * 4;
        float *zero = calloc(1, n);
        if (!zero) {
            snprintf(err, errlen, "bg_start stream: out of memory");
            return -1;
        }
        rc = gwrite(b, b->d[0], zero, n, err, errlen) || gwrite(b, b->d[1], b->f0, n, err, errlen) ||
             gwrite(b, b->d[2], b->f1, n, err, errlen) || gwrite(b, b->param, &a, sizeof a, err, errlen);
        free(zero);
        break;
    }
    }
    if (rc) return -1;
go:
    b->done = b->failed = false;
    b->fail[0] = 0;
    b->launches = 0;
    b->t_start = gpu_cycle(b->g);
    b->t_end = 0;
    if (launch(b, (unsigned)first, err, errlen)) return -1;
    b->running = true;
    return 0;
}

/* --------------------------------------------- BP: the host's middle step */
static float squash(float x) { return 1.0f / (1.0f + expf(-x)); }

/* Rodinia bpnn_train_cuda between the two kernels: hidden units from the
 * blocks' partial sums (+ bias weight), then bpnn_layerforward to the output
 * unit, bpnn_output_error and bpnn_hidden_error -> hidden delta[hid + 1]. */
static void bp_hidden_delta(const bg_run *b, const float *partial, float *hdelta) {
    const int nb = b->n / BG_BP_HEIGHT;
    const float *w = b->f1, *hw = b->f3, *target = b->f4;
    float hidden[BP_HID + 1], output[BP_OUT + 1], odelta[BP_OUT + 1];
    hidden[0] = 1.0f;
    for (int j = 1; j <= BP_HID; j++) {
        float sum = 0;
        for (int k = 0; k < nb; k++) sum += partial[k * BP_HID + j - 1];
        sum += w[j]; /* input_weights[0][j] */
        hidden[j] = squash(sum);
    }
    for (int j = 1; j <= BP_OUT; j++) {
        float sum = 0;
        for (int k = 0; k <= BP_HID; k++) sum += hw[k * (BP_OUT + 1) + j] * hidden[k];
        output[j] = squash(sum);
    }
    for (int j = 1; j <= BP_OUT; j++) {
        float o = output[j], t = target[j];
        odelta[j] = o * (1.0f - o) * (t - o);
    }
    hdelta[0] = 0;
    for (int j = 1; j <= BP_HID; j++) {
        float h = hidden[j], sum = 0;
        for (int k = 1; k <= BP_OUT; k++) sum += odelta[k] * hw[j * (BP_OUT + 1) + k];
        hdelta[j] = h * (1.0f - h) * sum;
    }
}

static int bp_mid(bg_run *b, char *err, size_t errlen) {
    size_t np = (size_t)(b->n / BG_BP_HEIGHT) * BP_HID;
    float *partial = malloc(np * 4), hdelta[BP_HID + 1];
    if (!partial) { snprintf(err, errlen, "bg bp: out of memory"); return -1; }
    int rc = gread(b, b->d[3], partial, np * 4, err, errlen);
    if (!rc) {
        bp_hidden_delta(b, partial, hdelta);
        /* the forward kernel overwrote the weights with its products (as in
         * Rodinia, which copies input_weights to the GPU again) */
        rc = gwrite(b, b->d[4], hdelta, sizeof hdelta, err, errlen) ||
             gwrite(b, b->d[2], b->f1, ((size_t)b->n + 1) * (BP_HID + 1) * 4, err, errlen);
    }
    free(partial);
    return rc ? -1 : 0;
}

/* ------------------------------------------------------- completions */
bool bg_on_complete(bg_run *b, uint64_t tag, uint64_t cycle) {
    if (!b || !b->running || tag != b->cur_tag) return false;
    char err[256] = "";
    int next = -1;
    if (b->app) {
        next = b->app->next(b, b->st, b->phase, err, sizeof err);
        if (next == -1) goto fail;
        if (next == BG_APP_DONE) next = -1;
    } else if (b->kind == K_BP && b->phase == 0) {
        if (bp_mid(b, err, sizeof err)) goto fail;
        next = 1;
    } else if (b->kind == K_BFS) {
        if (b->phase == 0) {
            next = 1;
        } else {
            uint8_t over;
            if (gread(b, b->d[6], &over, 1, err, sizeof err)) goto fail;
            if (over) {
                uint8_t zero = 0;
                if (gwrite(b, b->d[6], &zero, 1, err, sizeof err)) goto fail;
                if (++b->levels > (unsigned)b->n + 1) {
                    snprintf(err, sizeof err, "bg bfs: more than %d levels", b->n + 1);
                    goto fail;
                }
                next = 0;
            }
        }
    }
    if (next >= 0 && launch(b, (unsigned)next, err, sizeof err) == 0) return true;
    if (next >= 0) goto fail;
    b->running = false;
    b->done = true;
    b->t_end = cycle;
    return true;
fail:
    snprintf(b->fail, sizeof b->fail, "%s", err);
    b->failed = true;
    b->running = false;
    b->done = true;
    b->t_end = cycle;
    return true;
}

/* ---------------------------------------------------------- references */
/* filterActs: per (image, module, filter) the products summed in filter
 * pixel order, as the kernel's B_Y-pixel steps do (its padded steps add
 * products with zero filter taps, which leave the sum unchanged). */
static void conv_ref(bg_run *b) {
    const int mods = b->mx * b->mx, fp = b->fsz * b->fsz;
    for (int m = 0; m < mods; m++) {
        const int y0 = -b->pad + (m / b->mx) * b->stride, x0 = -b->pad + (m % b->mx) * b->stride;
        for (int f = 0; f < b->nflt; f++)
            for (int i = 0; i < b->n_img; i++) {
                float prod = 0;
                for (int p = 0; p < fp; p++) {
                    const int y = y0 + p / b->fsz, x = x0 + p % b->fsz;
                    float im = 0;
                    if (y >= 0 && y < b->img && x >= 0 && x < b->img) im = b->f0[(size_t)(y * b->img + x) * b->n_img + i];
                    prod += im * b->f1[p * b->nflt + f];
                }
                b->r0[((size_t)f * mods + m) * b->n_img + i] = 1.0f * prod;
            }
    }
}

/* matrixMul: C[i][j] = sum over k in order of A[i][k] * B[k][j] */
static void mm_ref(bg_run *b) {
    const int n = b->n;
    memset(b->r0, 0, (size_t)n * n * 4);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            const float a = b->f0[(size_t)i * n + k];
            const float *brow = b->f1 + (size_t)k * n;
            float *c = b->r0 + (size_t)i * n;
            for (int j = 0; j < n; j++) c[j] += a * brow[j];
        }
}

static void bp_ref(bg_run *b) {
    const int in = b->n, nb = in / BG_BP_HEIGHT, W = BP_HID + 1;
    /* layerforward: per block, products then the 4-step tree over rows */
    for (int by = 0; by < nb; by++)
        for (int tx = 0; tx < BG_BP_WIDTH; tx++) {
            float v[BG_BP_HEIGHT];
            for (int ty = 0; ty < BG_BP_HEIGHT; ty++) {
                const int row = BG_BP_HEIGHT * by + ty + 1;
                v[ty] = b->f1[(size_t)row * W + tx + 1] * b->f0[row];
            }
            for (int i = 1; i <= 4; i++) {
                const int pt = 1 << i;
                for (int ty = 0; ty < BG_BP_HEIGHT; ty += pt) v[ty] = v[ty] + v[ty + pt / 2];
            }
            b->r0[by * BP_HID + tx] = v[0];
        }
    float hdelta[BP_HID + 1];
    bp_hidden_delta(b, b->r0, hdelta);
    /* adjust_weights on the original weights */
    const size_t nw = ((size_t)in + 1) * W;
    memcpy(b->r1, b->f1, nw * 4);
    memcpy(b->r2, b->f2, nw * 4);
    for (int row = 1; row <= in; row++)
        for (int j = 1; j <= BP_HID; j++) {
            const size_t idx = (size_t)row * W + j;
            const float step = BG_BP_ETA * hdelta[j] * b->f0[row] + BG_BP_MOMENTUM * b->r2[idx];
            b->r1[idx] = b->r1[idx] + step;
            b->r2[idx] = step;
        }
    for (int j = 1; j <= BP_HID; j++) {
        const float step = BG_BP_ETA * hdelta[j] + BG_BP_MOMENTUM * b->r2[j];
        b->r1[j] = b->r1[j] + step;
        b->r2[j] = step;
    }
}

static int bfs_ref(bg_run *b) {
    const int n = b->n;
    int32_t *queue = malloc((size_t)n * 4);
    if (!queue) return -1;
    for (int i = 0; i < n; i++) b->rcost[i] = -1;
    int head = 0, tail = 0;
    b->rcost[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        const int u = queue[head++];
        for (int e = b->nodes[u].starting; e < b->nodes[u].starting + b->nodes[u].no_of_edges; e++) {
            const int v = b->edges[e];
            if (b->rcost[v] < 0) {
                b->rcost[v] = b->rcost[u] + 1;
                queue[tail++] = v;
            }
        }
    }
    free(queue);
    return 0;
}

static int make_ref(bg_run *b) {
    if (b->have_ref) return 0;
    size_t n1 = 0, n2 = 0;
    switch (b->kind) {
    case K_CONV: n1 = (size_t)b->nflt * b->mx * b->mx * b->n_img; break;
    case K_MM: n1 = (size_t)b->n * b->n; break;
    case K_BP: n1 = (size_t)(b->n / BG_BP_HEIGHT) * BP_HID; n2 = ((size_t)b->n + 1) * (BP_HID + 1); break;
    case K_BFS: break;
    case K_STREAM: n1 = (size_t)b->n; break;
    }
    if (b->kind == K_BFS) {
        b->rcost = malloc((size_t)b->n * 4);
        if (!b->rcost || bfs_ref(b)) return -1;
    } else {
        b->r0 = malloc(n1 * 4);
        if (n2) { b->r1 = malloc(n2 * 4); b->r2 = malloc(n2 * 4); }
        if (!b->r0 || (n2 && (!b->r1 || !b->r2))) return -1;
        if (b->kind == K_CONV) conv_ref(b);
        else if (b->kind == K_MM) mm_ref(b);
        else if (b->kind == K_STREAM) for (int i = 0; i < b->n; i++) b->r0[i] = b->f0[i] + BG_STREAM_SCALAR * b->f1[i];
        else bp_ref(b);
    }
    b->have_ref = true;
    return 0;
}

/* ---------------------------------------------------------------- check */
static void where(const bg_run *b, const char *arr, size_t i, char *buf, size_t len) {
    switch (b->kind) {
    case K_CONV: {
        size_t mods = (size_t)b->mx * b->mx, img = i % (size_t)b->n_img, m = (i / (size_t)b->n_img) % mods,
               f = i / ((size_t)b->n_img * mods);
        snprintf(buf, len, "%s[%zu] (filter %zu, module %zu = (%zu,%zu), image %zu)", arr, i, f, m, m / (size_t)b->mx,
                 m % (size_t)b->mx, img);
        break;
    }
    case K_MM: snprintf(buf, len, "%s[%zu] (row %zu, column %zu)", arr, i, i / (size_t)b->n, i % (size_t)b->n); break;
    case K_BP:
        if (!strcmp(arr, "partial_sum"))
            snprintf(buf, len, "%s[%zu] (block %zu, hidden unit %zu)", arr, i, i / BP_HID, i % BP_HID + 1);
        else
            snprintf(buf, len, "%s[%zu] (input unit %zu, hidden unit %zu)", arr, i, i / (BP_HID + 1), i % (BP_HID + 1));
        break;
    default: snprintf(buf, len, "%s[%zu]", arr, i); break;
    }
}

static int cmp_f(bg_run *b, const char *arr, uint64_t addr, const float *ref, size_t n, char *err, size_t errlen) {
    float *got = malloc(n * 4);
    if (!got) { snprintf(err, errlen, "bg_check: out of memory"); return -1; }
    if (gread(b, addr, got, n * 4, err, errlen)) { free(got); return -1; }
    for (size_t i = 0; i < n; i++)
        if (!close_f(got[i], ref[i])) {
            char w[160];
            where(b, arr, i, w, sizeof w);
            snprintf(err, errlen, "bg %s: %s = %.9g (0x%08x), expected %.9g (0x%08x)", run_name(b), w,
                     (double)got[i], f2u(got[i]), (double)ref[i], f2u(ref[i]));
            free(got);
            return -1;
        }
    free(got);
    return 0;
}

int bg_app_cmp_f(bg_run *b, const char *what, uint64_t addr, const float *ref, size_t n, char *err, size_t errlen) {
    return cmp_f(b, what, addr, ref, n, err, errlen);
}

int bg_app_cmp_i(bg_run *b, const char *what, uint64_t addr, const int32_t *ref, size_t n, char *err, size_t errlen) {
    int32_t *got = malloc(n * 4 + 4);
    if (!got) { snprintf(err, errlen, "bg_check: out of memory"); return -1; }
    if (gread(b, addr, got, n * 4, err, errlen)) { free(got); return -1; }
    for (size_t i = 0; i < n; i++)
        if (got[i] != ref[i]) {
            snprintf(err, errlen, "bg %s: %s[%zu] = %d, expected %d", run_name(b), what, i, (int)got[i], (int)ref[i]);
            free(got);
            return -1;
        }
    free(got);
    return 0;
}

int bg_check(bg_run *b, char *err, size_t errlen) {
    if (!b->done) {
        snprintf(err, errlen, "bg_check %s: the run has not finished (%s)", run_name(b),
                 b->running ? "still running" : "never started");
        return -1;
    }
    if (b->failed) { snprintf(err, errlen, "bg_check %s: the run failed: %s", run_name(b), b->fail); return -1; }
    if (b->app) return b->app->check(b, b->st, err, errlen);
    if (make_ref(b)) { snprintf(err, errlen, "bg_check %s: out of memory", run_name(b)); return -1; }
    switch (b->kind) {
    case K_CONV: return cmp_f(b, "targets", b->d[2], b->r0, (size_t)b->nflt * b->mx * b->mx * b->n_img, err, errlen);
    case K_MM: return cmp_f(b, "C", b->d[2], b->r0, (size_t)b->n * b->n, err, errlen);
    case K_BP: {
        size_t nw = ((size_t)b->n + 1) * (BP_HID + 1);
        if (cmp_f(b, "partial_sum", b->d[3], b->r0, (size_t)(b->n / BG_BP_HEIGHT) * BP_HID, err, errlen)) return -1;
        if (cmp_f(b, "w", b->d[2], b->r1, nw, err, errlen)) return -1;
        return cmp_f(b, "oldw", b->d[5], b->r2, nw, err, errlen);
    }
    case K_STREAM: return cmp_f(b, "a", b->d[0], b->r0, (size_t)b->n, err, errlen);
    case K_BFS: {
        size_t n = (size_t)b->n;
        int32_t *got = malloc(n * 4);
        if (!got) { snprintf(err, errlen, "bg_check: out of memory"); return -1; }
        if (gread(b, b->d[5], got, n * 4, err, errlen)) { free(got); return -1; }
        for (size_t i = 0; i < n; i++)
            if (got[i] != b->rcost[i]) {
                snprintf(err, errlen, "bg bfs: cost[%zu] = %d, expected %d", i, (int)got[i], (int)b->rcost[i]);
                free(got);
                return -1;
            }
        free(got);
        return 0;
    }
    }
    return 0;
}

/* ------------------------------------------------------------ run alone */
static void alone_complete(void *u, uint64_t tag, uint64_t cycle) { bg_on_complete((bg_run *)u, tag, cycle); }

uint64_t bg_run_alone(gpu_t *g, bg_run *b, uint64_t max_cycles, char *err, size_t errlen) {
    if (g != b->g) {
        snprintf(err, errlen, "bg_run_alone %s: not the gpu the run was created on", run_name(b));
        return 0;
    }
    gpu_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.complete = alone_complete;
    cb.user = b;
    gpu_set_callbacks(g, &cb);
    if (bg_start(b, err, errlen)) return 0;
    const uint64_t t0 = gpu_cycle(g);
    while (!b->done) {
        if (gpu_error(g)) {
            snprintf(err, errlen, "bg %s: kernel fault: %s", run_name(b), gpu_error(g));
            return 0;
        }
        if (gpu_cycle(g) - t0 >= max_cycles) {
            snprintf(err, errlen, "bg %s: not finished after %" PRIu64 " cycles (%u launches)", run_name(b),
                     max_cycles, b->launches);
            return 0;
        }
        gpu_tick(g);
    }
    if (b->failed) {
        snprintf(err, errlen, "bg %s: %s", run_name(b), b->fail);
        return 0;
    }
    return b->t_end - b->t_start;
}
