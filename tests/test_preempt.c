/* Warp-level events and preemption in the SIMT model (EDGE IV-C, IV-D):
 * the PEWT and the preemption controller (RTL and C twin in lockstep by
 * default, FG_IMPL / [preempt] impl) driving a real core running the
 * t_preempt background kernel while IPv4 event warps arrive.  Every run
 * checks the background results and every event's results against host
 * references, so a broken flush, save/restore, barrier re-insertion or load
 * replay shows up as a wrong word. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edge_preempt.h"
#include "fg_tb.h"
#include "gpu_tb.h"
#include "simt/gpu.h"
#include "simt/gpu_internal.h"
#include "work/ipv4_work.h"
#include "work/preempt_run.h"
#include "../sw/kernels/t_preempt.h"

static char kpath_buf[512];
static const char *kpath(const char *name) { return tb_kernel_path(kpath_buf, sizeof kpath_buf, name); }

#define BG_BLOCKS 8   /* x 256 threads = 2048: the core's 64 warp slots */
#define BG_THREADS 256
#define MAX_EV 64

typedef struct {
    /* scenario */
    unsigned mode, iters, spin, policy, opts, regs_per_core, n_ev, drop_rule;
    bool enable, fetch_prio;
    uint64_t first_arrival, gap, l2_latency;
    /* results */
    unsigned started, preempted, saved, completed, bg_done;
    uint64_t lat_sum, lat_max, vstat_or;
    uint64_t evb[GPU_EVB_N]; /* the event warps' cycles by class */
    gpu_preempt_stats ps;
    uint64_t cycles;
} scen;

typedef struct {
    scen *s;
    gpu_t *g;
    ipv4_work *w;
    unsigned pending_check[MAX_EV];
    unsigned n_check;
} ctx;

static void on_first(void *u, uint64_t tag, uint64_t cyc) { (void)u, (void)tag, (void)cyc; }
static void on_done(void *u, uint64_t tag, uint64_t cyc) {
    ctx *x = u;
    (void)cyc;
    if (tag == 0) x->s->bg_done = 1;
    else x->pending_check[x->n_check++] = (unsigned)(tag - 1);
}
static void on_event(void *u, uint64_t tag, const gpu_event_info *i) {
    ctx *x = u;
    (void)tag;
    uint64_t lat = i->first - i->arrive;
    x->s->started++;
    x->s->lat_sum += lat;
    if (lat > x->s->lat_max) x->s->lat_max = lat;
    if (i->preempted) {
        x->s->preempted++;
        x->s->vstat_or |= i->vstat;
    }
    x->s->saved += i->saved;
}

/* Host reference of t_preempt for one block. */
static void ref_block(const struct t_pre_args *a, const uint32_t *next, uint32_t blk, uint32_t *out) {
    static uint32_t acc[BG_THREADS][T_PRE_ACC], sh[BG_THREADS];
    for (uint32_t t = 0; t < BG_THREADS; t++)
        for (unsigned k = 0; k < T_PRE_ACC; k++) acc[t][k] = (blk * BG_THREADS + t) * 2654435761u + k;
    for (uint32_t it = 0; it < a->iters; it++) {
        if (a->mode == T_PRE_BAR) {
            for (uint32_t t = 0; t < BG_THREADS; t++) {
                uint32_t *x = acc[t];
                if (t < 32)
                    for (uint32_t s = 0; s < a->spin; s++) x[s % T_PRE_ACC] = x[s % T_PRE_ACC] * 1103515245u + 12345u;
                sh[t] = x[0] ^ x[T_PRE_ACC - 1];
            }
            for (uint32_t t = 0; t < BG_THREADS; t++) acc[t][it % T_PRE_ACC] += sh[(t + 32) % BG_THREADS];
            continue;
        }
        for (uint32_t t = 0; t < BG_THREADS; t++) {
            uint32_t *x = acc[t];
            if (a->mode == T_PRE_LOAD) {
                uint32_t j = (x[it % T_PRE_ACC] ^ it) & a->mask;
                for (unsigned k = 0; k < 8; k++) j = next[j] & a->mask;
                x[it % T_PRE_ACC] += j;
            } else if (a->mode == T_PRE_LOADX) {
                uint32_t j = (x[it % T_PRE_ACC] ^ it) & a->mask, h = x[(it + 1) % T_PRE_ACC];
                for (unsigned k = 0; k < 8; k++) {
                    j = next[j] & a->mask;
                    h = h * 1664525u + 1013904223u;
                }
                x[it % T_PRE_ACC] += j ^ h;
            } else {
                for (uint32_t s = 0; s < a->spin; s++)
                    for (unsigned k = 0; k < T_PRE_ACC; k++)
                        x[k] = (x[k] * 1664525u + 1013904223u) ^ (x[(k + 1) % T_PRE_ACC] >> 7);
            }
        }
    }
    for (uint32_t t = 0; t < BG_THREADS; t++) {
        uint32_t r = 0;
        for (unsigned k = 0; k < T_PRE_ACC; k++) r = r * 31u + acc[t][k];
        out[t] = r;
    }
}

static fg_impl impl_from_env(void) { return tb_impl(); }

/* One core, the background kernel filling it, s->n_ev IPv4 event warps
 * arriving every s->gap cycles from s->first_arrival. */
static void run(scen *s) {
    gpu_config c;
    gpu_config_default(&c);
    c.num_cores = 1;
    c.global_mem_bytes = 64u << 20;
    c.mem.fe_region_bytes = 0; /* (the default F/E region lies beyond 64 MiB) */
    if (s->l2_latency) c.mem.l2_latency = (unsigned)s->l2_latency; /* a slow memory: victims wait on loads */
    if (s->regs_per_core) c.regs_per_core = s->regs_per_core;
    c.pre.impl = impl_from_env();
    c.mem.fe_impl = c.pre.impl; /* every DRAM access passes the F/E queues */
    c.pre.enable = s->enable;
    c.pre.policy = s->policy;
    c.pre.opts = s->opts;
    c.pre.event_fetch_priority = s->fetch_prio;
    c.pre.drop_rule = s->drop_rule;
    char err[256];
    gpu_t *g = gpu_new(&c, err, sizeof err);
    if (!g) fail_msg("gpu_new: %s", err);
    gpu_set_event_breakdown(g, true);
    ipv4_work w;
    route_gen_params rp;
    route_gen_params_default(&rp);
    rp.n_routes = 2048;
    if (ipv4_work_init(&w, g, &rp, kpath("ipv4_fwd"), MAX_EV, EV_RING_PLAIN, err, sizeof err)) fail_msg("%s", err);
    gpu_kernel k;
    if (gpu_load_kernel(g, kpath("t_preempt"), "t_preempt", &k, err, sizeof err)) fail_msg("%s", err);
    assert_true(k.regs_per_thread >= w.k.regs_per_thread); /* every warp is an eligible victim */
    /* background inputs */
    uint32_t mask = 16383, n = BG_BLOCKS * BG_THREADS;
    uint32_t *next = malloc((mask + 1) * 4), *got = malloc(n * 4), *want = malloc(BG_THREADS * 4);
    fg_rng rng;
    fg_rng_seed(&rng, 7);
    for (uint32_t i = 0; i <= mask; i++) next[i] = i;
    for (uint32_t i = mask; i > 0; i--) { /* a random cyclic-ish permutation */
        uint32_t j = (uint32_t)fg_rng_below(&rng, i + 1), t = next[i];
        next[i] = next[j];
        next[j] = t;
    }
    uint64_t nexta = gpu_malloc(g, (mask + 1) * 4), outa = gpu_malloc(g, n * 4);
    assert_int_equal(gpu_mem_write(g, nexta, next, (mask + 1) * 4), 0);
    struct t_pre_args a = {(uint32_t)nexta, (uint32_t)outa, s->mode, s->iters, s->spin, mask};
    uint64_t pa = gpu_malloc(g, sizeof a);
    assert_int_equal(gpu_mem_write(g, pa, &a, sizeof a), 0);
    ctx x = {.s = s, .g = g, .w = &w};
    gpu_callbacks cb = {on_first, on_done, &x};
    gpu_set_callbacks(g, &cb);
    gpu_set_event_callback(g, on_event, &x);
    gpu_launch_desc d = gpu_desc_1d(&k, BG_BLOCKS, BG_THREADS, pa);
    if (gpu_launch(g, &d, err, sizeof err)) fail_msg("%s", err);
    unsigned sent = 0;
    while (!gpu_idle(g) && gpu_cycle(g) < 20000000) {
        if (sent < s->n_ev && gpu_cycle(g) == s->first_arrival + sent * s->gap) {
            if (ipv4_work_fill(&w, g, sent, 32, &rng, err, sizeof err)) fail_msg("%s", err);
            gpu_launch_desc e = ipv4_work_desc(&w, sent, 32, 3, 1 + sent);
            if (gpu_launch(g, &e, err, sizeof err)) fail_msg("%s", err);
            sent++;
        }
        gpu_tick(g);
        while (x.n_check) {
            unsigned slot = x.pending_check[--x.n_check];
            if (ipv4_work_check(&w, g, slot, 32, err, sizeof err)) fail_msg("event %u: %s", slot, err);
            s->completed++;
        }
    }
    if (gpu_error(g)) fail_msg("gpu: %s", gpu_error(g));
    assert_true(gpu_idle(g));
    s->cycles = gpu_cycle(g);
    gpu_stats gs; /* no request lost or duplicated, dropped loads' included */
    gpu_get_stats(g, &gs);
    assert_int_equal(gs.mem_requests, gs.mem_responses);
    gpu_get_preempt_stats(g, &s->ps);
    gpu_get_event_breakdown(g, s->evb);
    assert_int_equal(gpu_mem_read(g, outa, got, n * 4), 0);
    for (uint32_t b = 0; b < BG_BLOCKS; b++) {
        ref_block(&a, next, b, want);
        for (uint32_t t = 0; t < BG_THREADS; t++)
            if (got[b * BG_THREADS + t] != want[t])
                fail_msg("background block %u thread %u: 0x%08x, host reference 0x%08x", b, t, got[b * BG_THREADS + t],
                         want[t]);
    }
    assert_int_equal(s->bg_done, 1);
    assert_int_equal(s->completed, s->n_ev);
    assert_int_equal(s->started, s->n_ev);
    assert_int_equal(s->ps.errors, 0);
    printf("# mode %u policy %u opts 0x%x en %d: %u events, %u preempted (%u saved), avg %.1f max %llu cycles; "
           "drops %llu skips %llu aborts %llu; %llu cycles\n",
           s->mode, s->policy, s->opts, s->enable, s->started, s->preempted, s->saved,
           (double)s->lat_sum / s->started, (unsigned long long)s->lat_max, (unsigned long long)s->ps.drops,
           (unsigned long long)s->ps.skips, (unsigned long long)s->ps.aborts, (unsigned long long)s->cycles);
    ipv4_work_free(&w);
    free(next);
    free(got);
    free(want);
    gpu_free(g);
}

static scen base(unsigned mode) {
    scen s = {0};
    s.mode = mode;
    s.iters = mode == T_PRE_LOAD || mode == T_PRE_LOADX ? 12 : mode == T_PRE_BAR ? 8 : mode == T_PRE_FENCE ? 60 : 2;
    s.spin = mode == T_PRE_BAR ? 60 : mode == T_PRE_FENCE ? 1 : 20;
    s.enable = true;
    s.policy = PRE_POL_NEWEST;
    s.n_ev = 6;
    s.first_arrival = 3000;
    s.gap = 2500;
    return s;
}



/* A free warp context: no preemption, the event starts at once. */
static void test_free_context(void **st) {
    (void)st;
    scen s = base(T_PRE_ALU);
    s.first_arrival = 1; /* before the background kernel's blocks land */
    s.n_ev = 1;
    run(&s);
    assert_int_equal(s.preempted, 0);
    assert_int_equal(s.ps.start_free, 1);
}

/* Victims waiting on loads: dropping them (EDGE IV-D opt. 4) removes the wait. */
static void test_drop_loads(void **st) {
    (void)st;
    scen none = base(T_PRE_LOAD), drop = base(T_PRE_LOAD);
    none.l2_latency = drop.l2_latency = 1500; /* their responses arrive long after the drop */
    none.policy = drop.policy = PRE_POL_OLDEST; /* GTO runs the oldest: they wait on loads */
    drop.opts = PRE_OPT_DROP | PRE_OPT_IBUF;
    none.opts = PRE_OPT_IBUF;
    run(&none);
    run(&drop);
    assert_int_equal(none.preempted, none.n_ev);
    assert_true(none.vstat_or & PRE_VS_LOAD);
    assert_true(drop.ps.drops > 0);
    assert_int_equal(none.ps.drops, 0);
    assert_true(drop.lat_sum < none.lat_sum);
}

/* Victims whose loads younger instructions follow (an independent chain
 * between the hops): EDGE IV-D's condition never lets them drop; the EDGE
 * artifact's rule ([preempt] drop_rule = pipe) drops them once only loads are
 * in flight, their values written at the drop, and the background's results
 * (checked by run) stay exact. */
static void test_drop_rule(void **st) {
    (void)st;
    scen exact = base(T_PRE_LOADX), pipe = base(T_PRE_LOADX);
    exact.l2_latency = pipe.l2_latency = 1500;
    exact.policy = pipe.policy = PRE_POL_OLDEST;
    exact.opts = pipe.opts = PRE_OPT_DROP | PRE_OPT_IBUF;
    pipe.drop_rule = GPU_DROP_PIPE;
    run(&exact);
    run(&pipe);
    assert_int_equal(exact.preempted, exact.n_ev);
    assert_true(exact.vstat_or & PRE_VS_LOAD);
    assert_int_equal(exact.ps.drops, 0);
    assert_true(pipe.ps.drops > 0);
    assert_true(pipe.lat_sum < exact.lat_sum);
    printf("drop rule: exact %llu drops, %.0f cycles per event; pipe %llu drops, %.0f\n",
           (unsigned long long)exact.ps.drops, (double)exact.lat_sum / exact.started,
           (unsigned long long)pipe.ps.drops, (double)pipe.lat_sum / pipe.started);
}

/* Victims at a barrier: skipping it (opt. 3), re-inserted on resume; the
 * kernel's cross-warp reads after the barrier prove it still holds. */
static void test_barrier_skip(void **st) {
    (void)st;
    scen none = base(T_PRE_BAR), skip = base(T_PRE_BAR);
    skip.opts = PRE_OPT_BARSKIP;
    /* the cheapest policy takes a warp waiting at the barrier whenever one is
     * eligible (newest depended on which warp GTO had starved when an event
     * came, and with the memory system's timing none was at the barrier) */
    none.policy = skip.policy = PRE_POL_CHEAPEST;
    run(&none);
    run(&skip);
    assert_true(skip.ps.skips > 0);
    assert_true(none.vstat_or & PRE_VS_BAR);
    assert_true(skip.lat_sum < none.lat_sum);
}

/* Victims waiting at a FENCE for their stores (EDGE Fig. 11b "memory
 * barrier", GPU_VS_MEMBAR): without the i-buffer flush the FENCE holds the
 * victim until the acknowledgements arrive; with it the victim drains at
 * once. */
static void test_fence_victims(void **st) {
    (void)st;
    scen none = base(T_PRE_FENCE), ibuf = base(T_PRE_FENCE);
    none.policy = ibuf.policy = PRE_POL_OLDEST;
    none.l2_latency = ibuf.l2_latency = 1500; /* acknowledgements take long: warps sit at their FENCE */
    none.first_arrival = ibuf.first_arrival = 100000; /* in the loop, past the start-up */
    none.gap = ibuf.gap = 20000;
    ibuf.opts = PRE_OPT_IBUF;
    run(&none);
    run(&ibuf);
    assert_int_equal(none.preempted, none.n_ev);
    assert_true(none.vstat_or & GPU_VS_MEMBAR);
    assert_true(ibuf.lat_sum < none.lat_sum);
}

/* A background that uses exactly the register file: an event must save the
 * victim's registers to global memory instead of reserving free ones. */
static scen full_register_file(unsigned n_ev) {
    scen s = base(T_PRE_ALU);
    s.opts = PRE_OPT_ALL;
    s.n_ev = n_ev;
    gpu_config c;
    gpu_config_default(&c);
    char err[256];
    gpu_t *g = gpu_new(&c, err, sizeof err);
    gpu_kernel k;
    if (!g || gpu_load_kernel(g, kpath("t_preempt"), "t_preempt", &k, err, sizeof err)) fail_msg("%s", err);
    s.regs_per_core = k.regs_per_thread * BG_BLOCKS * BG_THREADS;
    gpu_free(g);
    return s;
}

/* Register save to / restore from global memory: the victims' results stay
 * bit-exact. */
static void test_save_restore(void **st) {
    (void)st;
    scen s = full_register_file(6);
    run(&s);
    assert_int_equal(s.preempted, s.n_ev);
    assert_int_equal(s.saved, s.n_ev);
}

/* Each optimization alone, and all together, over every background mode and
 * both paper policies plus CHEAPEST: results always correct. */
static void test_all_combinations(void **st) {
    (void)st;
    static const unsigned opts[] = {0, PRE_OPT_BOOST, PRE_OPT_IBUF, PRE_OPT_BARSKIP, PRE_OPT_DROP, PRE_OPT_ALL};
    for (unsigned m = 0; m < 3; m++)
        for (unsigned p = 0; p < 3; p++)
            for (unsigned o = 0; o < 6; o++) {
                if (p == PRE_POL_CHEAPEST && o != 0 && o != 5) continue;
                scen s = base(m);
                s.policy = p;
                s.opts = opts[o];
                s.n_ev = 4;
                s.gap = 1700;
                run(&s);
                assert_true(s.preempted > 0);
            }
}

/* Draining (EDGE IV-B): no preemption; the event waits for the first free
 * context, which the core keeps for it by taking no new background block. */
static void test_draining(void **st) {
    (void)st;
    scen s = base(T_PRE_ALU);
    s.enable = false;
    s.n_ev = 3;
    run(&s);
    assert_int_equal(s.preempted, 0);
    assert_int_equal(s.ps.start_preempt, 0);
    assert_int_equal(s.ps.start_free, s.n_ev);
}

/* Draining's reach (EDGE IV-B, [preempt] drain) on two cores
 * with more background blocks than fit, core 1 under a warp limit (its first
 * blocks finish early), one
 * IPv4 event, preemption off.
 * drain = gpu: no core starts a background block while the event waits, and
 * it takes the first context freed on either core; drain = core: it is bound
 * to one core at arrival and the other core keeps starting blocks. */
typedef struct {
    unsigned drain;
    bool hp_block; /* instead of the event: one 512-thread block at priority 3 (IV-B's TB path) */
    /* results: background blocks started by the cycle of arrival, start, completion */
    uint32_t nb_arrive, nb_start, nb_done, ev_core, pewt_wait;
    uint64_t arrive, start, done;
} drain_scen;

static void on_drain_event(void *u, uint64_t tag, const gpu_event_info *i) {
    drain_scen *d = u;
    (void)tag;
    d->arrive = i->arrive, d->start = i->start, d->ev_core = i->core;
    d->pewt_wait = (uint32_t)(i->pewt - i->arrive);
}
static void on_drain_done(void *u, uint64_t tag, uint64_t cyc) {
    drain_scen *d = u;
    if (tag == 1) d->done = cyc;
}
static void on_drain_first(void *u, uint64_t tag, uint64_t cyc) {
    drain_scen *d = u;
    if (tag == 1 && d->hp_block) d->start = cyc;
}

static void run_drain(drain_scen *d) {
    gpu_config c;
    gpu_config_default(&c);
    c.num_cores = 2;
    c.global_mem_bytes = 64u << 20;
    c.mem.fe_region_bytes = 0;
    c.pre.impl = impl_from_env();
    c.pre.enable = false;
    c.pre.drain = d->drain;
    char err[256];
    gpu_t *g = gpu_new(&c, err, sizeof err);
    if (!g) fail_msg("gpu_new: %s", err);
    ipv4_work w;
    route_gen_params rp;
    route_gen_params_default(&rp);
    rp.n_routes = 2048;
    if (ipv4_work_init(&w, g, &rp, kpath("ipv4_fwd"), 1, EV_RING_PLAIN, err, sizeof err)) fail_msg("%s", err);
    gpu_kernel k;
    if (gpu_load_kernel(g, kpath("t_preempt"), "t_preempt", &k, err, sizeof err)) fail_msg("%s", err);
    const uint32_t blocks = 40, mask = 1023; /* 16 fit (8 per core), 24 wait */
    uint64_t nexta = gpu_malloc(g, (mask + 1) * 4), outa = gpu_malloc(g, blocks * BG_THREADS * 4);
    struct t_pre_args a = {(uint32_t)nexta, (uint32_t)outa, T_PRE_ALU, 1, 2, mask};
    uint64_t pa = gpu_malloc(g, sizeof a);
    assert_int_equal(gpu_mem_write(g, pa, &a, sizeof a), 0);
    gpu_callbacks cb = {on_drain_first, on_drain_done, d};
    gpu_set_callbacks(g, &cb);
    gpu_set_event_callback(g, on_drain_event, d);
    gpu_launch_desc bd = gpu_desc_1d(&k, blocks, BG_THREADS, pa);
    bd.tag = 0;
    if (gpu_launch(g, &bd, err, sizeof err)) fail_msg("%s", err);
    const simt_launch *bg = g->lq[0];
    gpu_set_active_warp_limit(g, 1, 16); /* core 1 runs its first blocks to the end first */
    enum { MAXC = 1000000 };
    uint32_t *nb = calloc(MAXC, sizeof *nb); /* background blocks started, per cycle */
    fg_rng rng;
    fg_rng_seed(&rng, 3);
    while (!gpu_idle(g) && gpu_cycle(g) < MAXC) {
        if (gpu_cycle(g) == 1500) { /* every context busy, 24 blocks waiting */
            gpu_launch_desc e = gpu_desc_1d(&k, 1, 2 * BG_THREADS, pa);
            if (d->hp_block) {
                e.priority = 3, e.tag = 1, d->arrive = gpu_cycle(g);
            } else {
                if (ipv4_work_fill(&w, g, 0, 32, &rng, err, sizeof err)) fail_msg("%s", err);
                e = ipv4_work_desc(&w, 0, 32, 3, 1);
            }
            if (gpu_launch(g, &e, err, sizeof err)) fail_msg("%s", err);
        }
        gpu_tick(g);
        nb[gpu_cycle(g) - 1] = bg->next_block;
    }
    if (gpu_error(g)) fail_msg("gpu: %s", gpu_error(g));
    if (!gpu_idle(g) || d->done <= d->start || d->start <= d->arrive)
        fail_msg("idle %d cycle %llu arrive %llu start %llu done %llu", gpu_idle(g), (unsigned long long)gpu_cycle(g),
                 (unsigned long long)d->arrive, (unsigned long long)d->start, (unsigned long long)d->done);
    if (!d->hp_block && ipv4_work_check(&w, g, 0, 32, err, sizeof err)) fail_msg("event: %s", err);
    assert_int_equal(bg->blocks_done, blocks);
    d->nb_arrive = nb[d->arrive], d->nb_start = nb[d->start - 1], d->nb_done = nb[d->done - 1];
    printf("# drain %s%s: event on core %d, start %llu cycles after arrival (%u of them before its PEWT); "
           "background blocks started while it waited %u, until it completed %u\n",
           gpu_drain_names[d->drain], d->hp_block ? " (512-thread block)" : "", d->hp_block ? -1 : (int)d->ev_core,
           (unsigned long long)(d->start - d->arrive), d->pewt_wait, d->nb_start - d->nb_arrive,
           d->nb_done - d->nb_arrive);
    free(nb);
    ipv4_work_free(&w);
    gpu_free(g);
}

static void test_drain_scope(void **st) {
    (void)st;
    drain_scen gw = {.drain = GPU_DRAIN_GPU}, co = {.drain = GPU_DRAIN_CORE};
    run_drain(&gw);
    run_drain(&co);
    assert_int_equal(gw.nb_start, gw.nb_arrive); /* held everywhere while it waited */
    assert_true(gw.pewt_wait > 0);              /* ... in the GPU's queue, not a core's PEWT */
    assert_true(co.nb_start > co.nb_arrive);     /* the other core kept starting blocks */
    assert_int_equal(co.pewt_wait, 0);
    assert_int_equal(gw.ev_core, 1), assert_int_equal(co.ev_core, 0); /* bound at arrival (ties: core 0) */
    assert_true(gw.start - gw.arrive < co.start - co.arrive); /* first context freed anywhere */
    assert_true(gw.nb_done > gw.nb_start);       /* blocks start again while the event runs */
    /* a higher-priority block that needs two freed blocks' contexts: drained
     * GPU-wide no background block refills the first, so it starts after the
     * second; bound per core, background blocks keep taking what frees */
    drain_scen hg = {.drain = GPU_DRAIN_GPU, .hp_block = true}, hc = {.drain = GPU_DRAIN_CORE, .hp_block = true};
    run_drain(&hg);
    run_drain(&hc);
    assert_int_equal(hg.nb_start, hg.nb_arrive);
    assert_true(hc.nb_start > hc.nb_arrive);
    assert_true(hg.start - hg.arrive < hc.start - hc.arrive);
}

/* [preempt] event_fetch_priority (the EDGE artifact's fetch priority): the
 * event warps' cycles waiting for an i-buffer refill fall when their fetch
 * goes before the round robin of 64 background warps; results stay exact. */
static void test_event_fetch_priority(void **st) {
    (void)st;
    scen rr = base(T_PRE_ALU), pr = base(T_PRE_ALU);
    pr.fetch_prio = true;
    run(&rr);
    run(&pr);
    uint64_t all_rr = 0, all_pr = 0;
    for (unsigned i = 0; i < GPU_EVB_N; i++) all_rr += rr.evb[i], all_pr += pr.evb[i];
    printf("# event warps' fetch wait: round robin %llu of %llu cycles, fetch priority %llu of %llu\n",
           (unsigned long long)rr.evb[GPU_EVB_FETCH], (unsigned long long)all_rr,
           (unsigned long long)pr.evb[GPU_EVB_FETCH], (unsigned long long)all_pr);
    assert_int_equal(rr.evb[GPU_EVB_ISSUE], pr.evb[GPU_EVB_ISSUE]); /* the same instructions */
    assert_true(2 * pr.evb[GPU_EVB_FETCH] < rr.evb[GPU_EVB_FETCH]);
}

/* Background kernels of EDGE VI-B (test sizes) on the full
 * 16-core GPU, IPv4 events every ~400 cycles: background and event results
 * stay exact however often their warps are preempted. */
static void test_bg_kernels_under_preemption(void **st) {
    (void)st;
    /* (MM runs in the preemption_latency sweep; its 160k cycles x 16 cores in
     * lockstep would cost more than the rest of this program) */
    static const struct { const char *k; unsigned pol, opts; } R[] = {
        {"conv", PRE_POL_NEWEST, PRE_OPT_ALL}, {"bp", PRE_POL_OLDEST, 0}, {"bfs", PRE_POL_CHEAPEST, PRE_OPT_ALL}};
    prun_params x;
    prun_params_default(&x);
    snprintf(x.size, sizeof x.size, "test");
    x.gap = 400;
    x.max_events = 80;
    for (unsigned i = 0; i < 3; i++) {
        gpu_config c;
        gpu_config_default(&c);
        c.pre.impl = c.mem.fe_impl = impl_from_env();
        c.pre.policy = R[i].pol;
        c.pre.opts = R[i].opts;
        prun_result r;
        prun_run(&x, &c, R[i].k, &r);
        if (!r.ok) fail_msg("%s: %s", R[i].k, r.err);
        printf("# %s: %llu events, %llu preempted, %llu resumed, avg preemption %.1f cycles, %llu packets checked\n",
               R[i].k, (unsigned long long)r.events, (unsigned long long)r.preempted,
               (unsigned long long)r.resumes, r.avg_start_pre, (unsigned long long)r.ipv4_packets);
        /* BFS's short blocks free contexts so often that events seldom need to preempt */
        if (strcmp(R[i].k, "bfs")) assert_true(r.preempted > 0);
        assert_int_equal(r.resumes, r.preempted);
        assert_int_equal(r.ipv4_packets, r.events * 32);
    }
}

/* Not clocking idle cores' blocks (the default) changes nothing: the same
 * run with every block clocked every cycle gives the same figures. */
static void test_idle_skip_exact(void **st) {
    (void)st;
    prun_params x;
    prun_params_default(&x);
    snprintf(x.size, sizeof x.size, "test");
    x.max_events = 40;
    prun_result r[2];
    for (unsigned i = 0; i < 2; i++) {
        gpu_config c;
        gpu_config_default(&c);
        c.pre.impl = c.mem.fe_impl = impl_from_env();
        c.pre.idle_skip = i;
        prun_run(&x, &c, "bp", &r[i]);
        if (!r[i].ok) fail_msg("idle_skip %u: %s", i, r[i].err);
    }
    assert_true(r[0].preempted > 0);
    assert_int_equal(r[0].gpu_cycles, r[1].gpu_cycles);
    assert_int_equal(r[0].events, r[1].events);
    assert_int_equal(r[0].preempted, r[1].preempted);
    assert_int_equal(r[0].max_start, r[1].max_start);
    assert_true(r[0].avg_start == r[1].avg_start && r[0].avg_first == r[1].avg_first);
    assert_memory_equal(r[0].vs, r[1].vs, sizeof r[0].vs);
}

/* One preemption with every optimization and a full register file (SAVE
 * and restore): `make wave` runs only this test with $FG_WAVE_DIR set and
 * gets core 0's PEWT and controller FSTs (build/waves/simt_core0_*.fst). */
static void test_one_preemption(void **st) {
    (void)st;
    scen s = full_register_file(1);
    run(&s);
    assert_int_equal(s.preempted, 1);
    assert_int_equal(s.saved, 1);
    assert_int_equal(s.ps.resumes, 1);
}

int main(void) {
    if (getenv("FG_WAVE_DIR")) {
        const struct CMUnitTest wave[] = {cmocka_unit_test(test_one_preemption)};
        return cmocka_run_group_tests_name("preempt_wave", wave, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_preemption),
        cmocka_unit_test(test_free_context), cmocka_unit_test(test_drop_loads), cmocka_unit_test(test_drop_rule),
        cmocka_unit_test(test_barrier_skip), cmocka_unit_test(test_fence_victims),
        cmocka_unit_test(test_save_restore),
        cmocka_unit_test(test_draining),     cmocka_unit_test(test_drain_scope),
        cmocka_unit_test(test_event_fetch_priority),
        cmocka_unit_test(test_all_combinations),
        cmocka_unit_test(test_bg_kernels_under_preemption), cmocka_unit_test(test_idle_skip_exact),
    };
    return cmocka_run_group_tests_name("preempt", tests, NULL, NULL);
}
