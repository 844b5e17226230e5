/* preempt_run: see preempt_run.h. */
#include "work/preempt_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fg_util.h"
#include "sys/pcie.h"
#include "work/bg_kernels.h"
#include "work/ipv4_work.h"

#define SLOTS 128

typedef struct {
    uint64_t *start, *first;
    unsigned n, cap;
    prun_result *r;
    unsigned pending[SLOTS], npend;
    bg_run *bg;
    gpu_t *g;
    ipv4_work *w;
    unsigned prio;
    char err[256];
} run_ctx;

const char *const PRUN_VS_NAMES[PRUN_NVS] = {"pipeline", "scoreboard", "load", "icache_miss", "barrier", "ibuf",
                                             "membar"};

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void on_first(void *u, uint64_t tag, uint64_t cyc) { (void)u, (void)tag, (void)cyc; }
static void on_done(void *u, uint64_t tag, uint64_t cyc) {
    run_ctx *x = u;
    if (tag >= BG_TAG_BASE) bg_on_complete(x->bg, tag, cyc);
    else x->pending[x->npend++] = (unsigned)tag;
}
static void on_event(void *u, uint64_t tag, const gpu_event_info *i) {
    run_ctx *x = u;
    (void)tag;
    if (x->n == x->cap) {
        x->cap = x->cap ? 2 * x->cap : 256;
        x->start = realloc(x->start, x->cap * sizeof *x->start);
        x->first = realloc(x->first, x->cap * sizeof *x->first);
        if (!x->start || !x->first) abort();
    }
    x->start[x->n] = i->start - i->arrive;
    x->first[x->n++] = i->first - i->arrive;
    if (i->preempted) {
        x->r->preempted++;
        x->r->avg_start_pre += (double)(i->start - i->arrive);
        x->r->avg_flush_pre += (double)(i->start - i->select);
        for (unsigned b = 0; b < PRUN_NVS; b++) x->r->vs[b] += i->vstat >> b & 1;
    }
    x->r->saved += i->saved;
}

/* An event's packets are in GPU memory (DMA acknowledged): launch it. */
static void on_sent(void *u, uint64_t slot) {
    run_ctx *x = u;
    gpu_launch_desc d = ipv4_work_desc(x->w, (unsigned)slot, IPV4_PKTS_PER_EVENT, x->prio, slot);
    if (gpu_launch(x->g, &d, x->err, sizeof x->err) && !x->err[0]) snprintf(x->err, sizeof x->err, "gpu_launch failed");
}

void prun_run(const prun_params *x, const gpu_config *gc0, const char *kern, prun_result *r) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    memset(r, 0, sizeof *r);
    gpu_config gc = *gc0;
    char err[256], kdir[256], ipv4elf[300];
    if (fg_kernel_path(kdir, sizeof kdir, NULL, r->err, sizeof r->err) ||
        fg_kernel_path(ipv4elf, sizeof ipv4elf, "ipv4_fwd", r->err, sizeof r->err))
        return;
    run_ctx c = {.r = r, .prio = (unsigned)x->prio};
    ipv4_work w = {0};
    pcie_params pp; /* the device's packets cross PCIe at the link's rate (EDGE VI-A, F/E Table 2) */
    pcie_params_default(&pp);
    const double link_bpc = pp.bw_gbps * 1000.0 / gc.clock_mhz;
    bool wok = false;
    gpu_t *g = gpu_new(&gc, err, sizeof err);
    if (!g) { snprintf(r->err, sizeof r->err, "gpu: %s", err); return; }
    c.g = g;
    c.w = &w;
    route_gen_params rp;
    route_gen_params_default(&rp);
    c.bg = bg_new(g, kern, x->size, kdir, x->seed, err, sizeof err);
    if (!c.bg) { snprintf(r->err, sizeof r->err, "%s", err); goto out; }
    if (ipv4_work_init(&w, g, &rp, ipv4elf, SLOTS, EV_RING_PLAIN, err, sizeof err)) {
        snprintf(r->err, sizeof r->err, "%s", err);
        goto out;
    }
    wok = true;
    snprintf(r->desc, sizeof r->desc, "%s", bg_describe(c.bg));
    r->regs_bg = bg_regs_per_thread(c.bg);
    r->regs_ev = w.k.regs_per_thread;
    bool busy[SLOTS] = {0};
    gpu_callbacks cb = {on_first, on_done, &c};
    gpu_set_callbacks(g, &cb);
    gpu_set_event_callback(g, on_event, &c);
    if (bg_start(c.bg, err, sizeof err)) { snprintf(r->err, sizeof r->err, "%s", err); goto out; }
    /* arrivals: the same for every configuration of this kernel */
    fg_rng arr, pk;
    uint64_t ks = 0;
    for (const char *p = kern; *p; p++) ks = ks * 131 + (unsigned char)*p;
    fg_rng_seed(&arr, x->seed ^ ks);
    fg_rng_seed(&pk, x->seed ^ ks ^ 0x5eed);
    uint64_t next = x->warmup + fg_rng_below(&arr, x->gap), sent = 0;
    const uint64_t limit = 2000000000ull;
    while (!gpu_idle(g) && gpu_cycle(g) < limit) {
        uint64_t now = gpu_cycle(g);
        if (now >= next && sent < x->max_events && !bg_done(c.bg)) {
            unsigned slot = (unsigned)(sent % SLOTS);
            /* else the arrival waits for its slot's previous event, or for room in the DMA queue */
            int rc = busy[slot] ? 1 : ipv4_work_send(&w, g, slot, IPV4_PKTS_PER_EVENT, &pk, link_bpc, on_sent, &c, slot,
                                                     err, sizeof err);
            if (rc < 0) {
                snprintf(r->err, sizeof r->err, "%s", err);
                goto out;
            }
            if (rc == 0) {
                busy[slot] = true;
                sent++;
                next = now + x->gap / 2 + fg_rng_below(&arr, x->gap);
            }
        }
        gpu_tick(g);
        if (c.err[0]) { snprintf(r->err, sizeof r->err, "%s", c.err); goto out; }
        while (c.npend) {
            unsigned slot = c.pending[--c.npend];
            busy[slot] = false;
            if (ipv4_work_check(&w, g, slot, IPV4_PKTS_PER_EVENT, err, sizeof err)) {
                snprintf(r->err, sizeof r->err, "%s", err);
                goto out;
            }
        }
    }
    if (gpu_error(g)) { snprintf(r->err, sizeof r->err, "gpu: %s", gpu_error(g)); goto out; }
    if (!gpu_idle(g)) { snprintf(r->err, sizeof r->err, "no progress after %llu cycles", (unsigned long long)limit); goto out; }
    if (!bg_done(c.bg)) { snprintf(r->err, sizeof r->err, "background kernel did not finish"); goto out; }
    if (bg_check(c.bg, err, sizeof err)) { snprintf(r->err, sizeof r->err, "%s", err); goto out; }
    if (c.n != sent) {
        snprintf(r->err, sizeof r->err, "%llu events sent, %u started", (unsigned long long)sent, c.n);
        goto out;
    }
    gpu_preempt_stats ps;
    gpu_get_preempt_stats(g, &ps);
    if (ps.errors) { snprintf(r->err, sizeof r->err, "%llu PEWT/controller errors", (unsigned long long)ps.errors); goto out; }
    r->events = c.n;
    r->aborts = ps.aborts;
    r->drops = ps.drops;
    r->skips = ps.skips;
    r->resumes = ps.resumes;
    r->bg_cycles = bg_cycles(c.bg);
    r->gpu_cycles = gpu_cycle(g);
    r->ipv4_packets = w.checked;
    if (c.n) {
        double ss = 0, sf = 0;
        for (unsigned i = 0; i < c.n; i++) ss += (double)c.start[i], sf += (double)c.first[i];
        r->avg_start = ss / c.n;
        r->avg_first = sf / c.n;
        if (r->preempted) r->avg_start_pre /= (double)r->preempted, r->avg_flush_pre /= (double)r->preempted;
        qsort(c.first, c.n, sizeof *c.first, cmp_u64);
        r->max_first = c.first[c.n - 1];
        qsort(c.start, c.n, sizeof *c.start, cmp_u64);
        r->p50_start = c.start[c.n / 2];
        r->p99_start = c.start[(c.n * 99) / 100 < c.n ? (c.n * 99) / 100 : c.n - 1];
        r->max_start = c.start[c.n - 1];
    }
    r->ok = 1;
out:
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r->wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (wok) ipv4_work_free(&w);
    bg_free(c.bg);
    free(c.start);
    free(c.first);
    gpu_free(g);
}

void prun_params_default(prun_params *x) {
    snprintf(x->size, sizeof x->size, "paper");
    snprintf(x->kernels, sizeof x->kernels, "conv,mm,bp,bfs");
    x->seed = 1;
    x->gap = 2000;
    x->warmup = 2000;
    x->max_events = 300;
    x->prio = 3;
}

int prun_params_load(prun_params *x, fg_config *cfg, char *err, size_t errlen) {
    const char *s = fg_config_str(cfg, "preemption_latency", "size");
    if (s) snprintf(x->size, sizeof x->size, "%s", s);
    s = fg_config_str(cfg, "preemption_latency", "kernels");
    if (s) snprintf(x->kernels, sizeof x->kernels, "%s", s);
    if (fg_config_u64(cfg, "preemption_latency", "seed", 0, UINT64_MAX, &x->seed, err, errlen) ||
        fg_config_u64(cfg, "preemption_latency", "gap_cycles", 2, 100000000, &x->gap, err, errlen) ||
        fg_config_u64(cfg, "preemption_latency", "warmup_cycles", 0, 100000000, &x->warmup, err, errlen) ||
        fg_config_u64(cfg, "preemption_latency", "max_events", 1, 1000000, &x->max_events, err, errlen) ||
        fg_config_u64(cfg, "preemption_latency", "event_priority", 1, 3, &x->prio, err, errlen))
        return -1;
    return 0;
}

