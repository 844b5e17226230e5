/* mt_run: see mt_run.h. */
#include "work/mt_run.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fg_util.h"
#include "sys/edge_frontend.h"
#include "sys/pcie.h"
#include "work/bg_kernels.h"
#include "work/ev_work.h"

#define SLOTS 64 /* parameter slots per kind: > max_inflight */

typedef struct {
    gpu_t *g;
    const ev_work_ops *ops;
    void *w;
    bg_run *bg;
    mt_hooks h;              /* (all NULL: none) */
    unsigned prio, n_req;
    mt_launch launch;
    mt_result *r;
    int cur[SLOTS];          /* the slot's event (index in r->ev), -1 free */
    /* the slot's event is checked / its DMA acknowledged: the slot (and its
     * send state) is free once both are (an early event may finish before
     * its DMA's last acknowledgement is back) */
    bool checked[SLOTS], acked[SLOTS];
    /* link_fault: the slot's DMA will never be acknowledged; its faulted
     * event done, the slot's ring words are being marked empty again
     * (rearm_queued: the F/E initialization was queued) */
    bool lost[SLOTS], rearming[SLOTS], rearm_queued[SLOTS];
    unsigned n_rearm;
    /* launch = host: the host's threads, launches due at a cycle (FIFO:
     * the launch thread is serial), the links the completions cross */
    host_cpu host;
    pcie_link host_link, dev_link;
    struct { uint64_t at; unsigned slot; } due[SLOTS];
    unsigned due_head, due_n;
    const mt_params *x;
    double ns_per_cycle, link_bpc;
    uint64_t *backlog;       /* overflow = hold: arrival cycles of the offers waiting, oldest first */
    size_t bl_head, bl_n, bl_cap;
    unsigned done[SLOTS], ndone; /* slots whose event completed this tick */
    unsigned cap, inflight;
    char err[256];
} ctx;

const char *mt_mode_name(const gpu_config *gc) {
    if (gc->pre.reserve_dynamic) return "A";
    if (gc->pre.reserve_cores) return "R";
    if (!gc->pre.enable) return "D";
    if (gc->pre.event_reg_reserve) return "V"; /* preemption beside a register reserve for events */
    if (gc->pre.set_max > 1) return "S";       /* preemption of victim sets (EDGE VI-C) */
    return gc->pre.extra_regs ? "X" : "P";
}

static uint64_t to_cycle(const ctx *c, double ns) { return (uint64_t)ceil(ns / c->ns_per_cycle - 1e-9); }

/* the device learns of a completion: the GPU's completion-queue write
 * (EDGE III-B), or the host's completion thread's after its synchronize */
static uint64_t told(ctx *c, uint64_t done) {
    const double t = (double)done * c->ns_per_cycle;
    if (c->launch == MT_LAUNCH_HOST)
        return to_cycle(c, pcie_link_write(&c->dev_link, PCIE_FROM_GPU, host_cpu_complete(&c->host, t), 8));
    return to_cycle(c, pcie_link_write(&c->dev_link, PCIE_FROM_GPU, t, 4));
}

static void on_first(void *u, uint64_t tag, uint64_t cyc) {
    ctx *c = u;
    if (tag >= BG_TAG_BASE && c->h.bg_first) c->h.bg_first(c->h.user);
    if (tag < SLOTS && c->cur[tag] >= 0 && c->launch == MT_LAUNCH_HOST) c->r->ev[c->cur[tag]].start = cyc;
}

static void on_done(void *u, uint64_t tag, uint64_t cyc) {
    ctx *c = u;
    if (tag >= BG_TAG_BASE) {
        bg_on_complete(c->bg, tag, cyc);
        if (c->h.bg_end) c->h.bg_end(c->h.user);
        return;
    }
    if (tag >= SLOTS || c->cur[tag] < 0) {
        snprintf(c->err, sizeof c->err, "completion of unknown event tag %llu", (unsigned long long)tag);
        return;
    }
    c->r->ev[c->cur[tag]].done = cyc;
    c->r->ev[c->cur[tag]].told = told(c, cyc);
    c->done[c->ndone++] = (unsigned)tag;
}

/* the warp context is ready (reported at START with skip_exec, else with
 * the first instruction: start is the START cycle either way) */
static void on_event(void *u, uint64_t tag, const gpu_event_info *i) {
    ctx *c = u;
    if (tag >= SLOTS || c->cur[tag] < 0) return;
    mt_event *e = &c->r->ev[c->cur[tag]];
    e->start = i->start;
    e->core = i->core;
    e->preempted = i->preempted;
    e->saved = i->saved;
    e->set_warps = i->set_warps;
}

static gpu_launch_desc event_desc(const ctx *c, unsigned slot) {
    gpu_launch_desc d = c->ops->desc(c->w, slot, c->n_req, c->prio, slot);
    if (c->launch == MT_LAUNCH_HOST) d.priority = 0, d.warp_event = false; /* an ordinary kernel (EDGE Fig. 8b) */
    return d;
}

static void launch(ctx *c, unsigned slot) {
    gpu_launch_desc d = event_desc(c, slot);
    c->r->ev[c->cur[slot]].launch = gpu_cycle(c->g);
    if (gpu_launch(c->g, &d, c->err, sizeof c->err) && !c->err[0]) snprintf(c->err, sizeof c->err, "gpu_launch failed");
}

static void slot_release(ctx *c, unsigned slot) {
    if (!c->checked[slot] || !c->acked[slot] || c->rearming[slot]) return;
    c->cur[slot] = -1;
    c->checked[slot] = c->acked[slot] = c->lost[slot] = false;
}

/* An event ended alone by a fault (its loads NACKed past the retries: its
 * data never came); the run goes on, and its slot is re-armed once done. */
static void on_event_fault(void *u, uint64_t tag, const char *why) {
    ctx *c = u;
    if (tag >= SLOTS || c->cur[tag] < 0) {
        snprintf(c->err, sizeof c->err, "fault of unknown event tag %llu", (unsigned long long)tag);
        return;
    }
    mt_result *r = c->r;
    r->ev[c->cur[tag]].faulted = true;
    if (!r->faulted++)
        snprintf(r->fault, sizeof r->fault, "%s event %d in ring slot %u%s ended alone: %s", c->x->event, c->cur[tag],
                 (unsigned)tag, c->lost[tag] ? " (its DMA never completed: link fault injected)" : "", why);
}

/* The faulted events' slots marked empty again (ops->rearm), each once its
 * DMA is acknowledged or known lost; released when that has taken effect. */
static int rearm_step(ctx *c, char *err, size_t errlen) {
    for (unsigned s = 0; s < SLOTS; s++) {
        if (!c->rearming[s] || (!c->acked[s] && !c->lost[s])) continue;
        if (!c->rearm_queued[s]) {
            const int rc = c->ops->rearm(c->w, c->g, s, c->n_req, err, errlen);
            if (rc < 0) return -1;
            c->rearm_queued[s] = rc == 0;
        } else if (!gpu_fe_init_busy(c->g)) {
            c->rearming[s] = c->rearm_queued[s] = false;
            c->n_rearm--;
            c->acked[s] = true;
            slot_release(c, s);
        }
    }
    return 0;
}

/* launch = host: the task notice lands in host memory as the data reaches
 * the GPU (posted after it on the device's link); the launch thread polls,
 * calls launch, the command reaches the KMU and is dispatched */
static void host_notice(ctx *c, unsigned slot, size_t bytes) {
    const mt_event *e = &c->r->ev[c->cur[slot]];
    const double t_data = ((double)e->sent + (double)bytes / c->link_bpc) * c->ns_per_cycle;
    double start, ret, at_gpu;
    host_cpu_notice(&c->host, pcie_link_write(&c->host_link, PCIE_TO_GPU, t_data - c->x->pcie.round_trip_ns / 2, 8),
                    &start, &ret, &at_gpu);
    c->due[(c->due_head + c->due_n++) % SLOTS].at = to_cycle(c, at_gpu) + c->x->dispatch_cycles;
    c->due[(c->due_head + c->due_n - 1) % SLOTS].slot = slot;
}

/* an event's inputs are in GPU memory (DMA acknowledged): launch it, unless
 * it was launched when its DMA started or waits for the host */
static void on_sent(void *u, uint64_t slot) {
    ctx *c = u;
    c->r->ev[c->cur[slot]].acked = gpu_cycle(c->g);
    c->acked[slot] = true;
    if (c->launch == MT_LAUNCH_AFTER_ACK) launch(c, (unsigned)slot);
    else slot_release(c, (unsigned)slot);
}

/* launch = host: the launches due by now, once their DMA is acknowledged */
static void host_launches(ctx *c) {
    while (c->due_n && c->due[c->due_head].at <= gpu_cycle(c->g) && c->acked[c->due[c->due_head].slot]) {
        launch(c, c->due[c->due_head].slot);
        c->due_head = (c->due_head + 1) % SLOTS;
        c->due_n--;
    }
}

static int fail(mt_result *r, const char *what, const char *msg) {
    snprintf(r->err, sizeof r->err, "%s%s%s", what, *what ? ": " : "", msg);
    return -1;
}

/* One offer (arrived at `arrived`) sent now into a free slot: 0 sent; 1 not
 * now (no free slot or event budget, or the DMA queue is full); 2 no room
 * and not held (dropped); -1 error. */
static int try_send(ctx *c, const mt_params *x, fg_rng *pk, uint64_t arrived, uint64_t now, double link_bpc,
                    char *err, size_t errlen) {
    mt_result *r = c->r;
    int slot = -1;
    for (int s = 0; s < SLOTS && slot < 0; s++)
        if (c->cur[s] < 0) slot = s;
    if (c->inflight >= x->max_inflight || slot < 0) return x->hold ? 1 : 2;
    if (r->n_ev == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 1024;
        mt_event *p = realloc(r->ev, c->cap * sizeof *p);
        if (!p) return fg_errf(err, errlen, "out of memory");
        r->ev = p;
    }
    c->cur[slot] = (int)r->n_ev;
    const bool cut = x->link_fault && r->n_ev + 1 == x->link_fault;
    if (cut) c->ops->link_fault(c->w, (unsigned)slot, true, x->link_fault_bytes);
    int rc = c->ops->send(c->w, c->g, (unsigned)slot, c->n_req, pk, link_bpc, on_sent, c, (unsigned)slot, err, errlen);
    if (rc) {
        c->cur[slot] = -1; /* (rc 1: the DMA queue is full: offer again next cycle) */
        if (cut) c->ops->link_fault(c->w, (unsigned)slot, false, 0);
        return rc;
    }
    c->lost[slot] = cut;
    r->ev[r->n_ev++] = (mt_event){.sent = now, .arrived = arrived, .slot = (unsigned)slot};
    c->inflight++;
    if (c->launch == MT_LAUNCH_EARLY) launch(c, (unsigned)slot);
    if (c->launch == MT_LAUNCH_HOST) host_notice(c, (unsigned)slot, c->ops->in_bytes(c->w, c->n_req));
    return 0;
}

static int backlog_push(ctx *c, uint64_t arrived, char *err, size_t errlen) {
    if (c->bl_n == c->bl_cap) {
        size_t cap = c->bl_cap ? 2 * c->bl_cap : 256;
        uint64_t *b = malloc(cap * sizeof *b);
        if (!b) return fg_errf(err, errlen, "out of memory");
        for (size_t i = 0; i < c->bl_n; i++) b[i] = c->backlog[(c->bl_head + i) % c->bl_cap];
        free(c->backlog);
        c->backlog = b, c->bl_cap = cap, c->bl_head = 0;
    }
    c->backlog[(c->bl_head + c->bl_n++) % c->bl_cap] = arrived;
    if (c->bl_n > c->r->max_backlog) c->r->max_backlog = c->bl_n;
    return 0;
}

/* A DMA into a ring slot still waiting for the slot's words to be empty
 * after x->ring_stall cycles: the slot's previous event never handed it
 * back.  -1 with the slot named. */
static int ring_stalled(const ctx *c, const mt_params *x, uint64_t now, char *err, size_t errlen) {
    for (unsigned s = 0; s < SLOTS; s++) {
        if (c->cur[s] < 0 || c->acked[s] || c->lost[s]) continue;
        const mt_event *e = &c->r->ev[c->cur[s]];
        if (now - e->sent > x->ring_stall)
            return fg_errf(err, errlen,
                           "%s ring slot %u: the device's DMA of event %d has waited %llu cycles for the slot's "
                           "words to be empty ([mt] ring_stall_cycles = %llu): its previous event never handed it "
                           "back (a kernel that does not empty its slot?)",
                           x->event, s, c->cur[s], (unsigned long long)(now - e->sent),
                           (unsigned long long)x->ring_stall);
    }
    return 0;
}

/* Offers, sends, checks until the background is done (or max_events
 * events were sent) and the GPU is idle. */
static int loop(ctx *c, const mt_params *x, bool skip, double link_bpc) {
    mt_result *r = c->r;
    char err[256];
    fg_rng arr, pk;
    uint64_t ks = 0;
    for (const char *p = x->event; *p; p++) ks = ks * 131 + (unsigned char)*p;
    for (const char *p = x->bg; *p; p++) ks = ks * 131 + (unsigned char)*p;
    fg_rng_seed(&arr, x->seed ^ ks); /* the same offers in every mode */
    fg_rng_seed(&pk, x->seed ^ ks ^ 0x5eed);
    const uint64_t span = x->gap_max - x->gap_min + 1, limit = 4000000000ull;
    uint64_t next = gpu_cycle(c->g) + x->warmup + x->gap_min + fg_rng_below(&arr, span);
    for (;;) {
        const uint64_t now = gpu_cycle(c->g);
        bool offering = c->ops && (!x->max_events || (x->hold ? r->offered : r->n_ev) < x->max_events) &&
                        (!c->bg || !bg_done(c->bg));
        if (!offering && gpu_idle(c->g) && !c->due_n && !c->bl_n && !c->n_rearm) break;
        if (now >= limit) return fail(r, "", "no progress after 4e9 cycles");
        if (offering && now >= next) { /* an arrival */
            int rc = x->hold ? backlog_push(c, now, err, sizeof err)
                             : try_send(c, x, &pk, now, now, link_bpc, err, sizeof err);
            if (rc < 0) return fail(r, "", err);
            if (rc == 2) r->dropped++;
            if (rc != 1) {
                r->offered++;
                next = now + x->gap_min + fg_rng_below(&arr, span);
            }
        }
        while (c->bl_n) { /* held offers, in arrival order, as slots free up */
            int rc = try_send(c, x, &pk, c->backlog[c->bl_head], now, link_bpc, err, sizeof err);
            if (rc < 0) return fail(r, "", err);
            if (rc) break;
            r->held += c->backlog[c->bl_head] < now;
            c->bl_head = (c->bl_head + 1) % c->bl_cap;
            c->bl_n--;
        }
        if (x->ring == EV_RING_SYNC && !(now & 1023) && ring_stalled(c, x, now, err, sizeof err))
            return fail(r, "", err);
        if (c->due_n) host_launches(c);
        if (c->n_rearm && rearm_step(c, err, sizeof err)) return fail(r, "", err);
        gpu_tick(c->g);
        const char *he = c->h.tick ? c->h.tick(c->h.user) : NULL;
        if (he) return fail(r, "", he);
        if (c->err[0]) return fail(r, "", c->err);
        if (gpu_error(c->g)) return fail(r, "gpu", gpu_error(c->g));
        while (c->ndone) {
            unsigned slot = c->done[--c->ndone];
            if (r->ev[c->cur[slot]].faulted) { /* its outputs were never written: not checked */
                c->rearming[slot] = true;
                c->n_rearm++;
            } else {
                int rc = skip ? c->ops->check_skipped(c->w, c->g, slot, c->n_req, err, sizeof err)
                              : c->ops->check_running(c->w, c->g, slot, c->n_req, err, sizeof err);
                if (rc) return fail(r, "event", err);
                r->checked++;
            }
            c->checked[slot] = true;
            slot_release(c, slot);
            /* no event of the kind running: the state they share (MemC's locks) */
            if (!--c->inflight && c->ops->check_idle(c->w, c->g, err, sizeof err)) return fail(r, "events", err);
        }
    }
    return 0;
}

void mt_run(const mt_params *x, const gpu_config *gc, fg_config *cfg, const mt_hooks *h, mt_result *r) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    memset(r, 0, sizeof *r);
    char err[256], kdir[256];
    ctx c = {.prio = x->priority, .launch = x->launch, .r = r, .x = x};
    if (h) c.h = *h;
    for (unsigned s = 0; s < SLOTS; s++) c.cur[s] = -1;
    if (fg_kernel_path(kdir, sizeof kdir, NULL, r->err, sizeof r->err)) goto out;
    const double link_bpc = x->pcie.bw_gbps * 1000.0 / gc->clock_mhz;
    bool ev_none = !strcmp(x->event, "none"), bg_none = !strcmp(x->bg, "none");
    if (!ev_none && !(c.ops = ev_work_find(x->event))) {
        fail(r, "", "unknown event kind (ipv4, ipv6, memc, ipsec, none)");
        goto out;
    }
    if (ev_none && bg_none) {
        fail(r, "", "nothing to run: event and background are both none");
        goto out;
    }
    if (bg_none && !x->max_events) {
        fail(r, "", "events in isolation need max_events");
        goto out;
    }
    if (x->ring == EV_RING_SYNC && gc->mem.fe_wdog_limit && x->ring_stall >= gc->mem.fe_wdog_limit) {
        fail(r, "", "ring_stall_cycles must be below [mem] fe_wdog_limit: the F/E watchdog would NACK the stalled "
                    "DMA first, without naming the slot");
        goto out;
    }
    if (x->launch == MT_LAUNCH_HOST && gc->pre.skip_exec) {
        fail(r, "", "launch = host runs ordinary kernels: skip_exec (of warp-level events) would not apply");
        goto out;
    }
    if (x->ring == EV_RING_SYNC && gc->pre.skip_exec) {
        fail(r, "", "ring = sync needs the event kernels to run: with skip_exec no kernel hands its slot back");
        goto out;
    }
    if (x->link_fault && x->launch != MT_LAUNCH_EARLY) {
        fail(r, "", "link_fault_event needs launch = early: launched after its DMA's acknowledgement, the event "
                    "would never start");
        goto out;
    }
    if (x->link_fault_bytes % 4) {
        fail(r, "", "link_fault_bytes must be a multiple of 4 (the F/E bits are per word)");
        goto out;
    }
    if (x->max_inflight < 1 || x->max_inflight > SLOTS / 2 || x->gap_min > x->gap_max) {
        fail(r, "", "max_inflight must be 1..32 and gap_min <= gap_max");
        goto out;
    }
    c.ns_per_cycle = 1000.0 / gc->clock_mhz;
    c.link_bpc = link_bpc;
    pcie_link_init(&c.host_link, &x->pcie);
    pcie_link_init(&c.dev_link, &x->pcie);
    host_cpu_init(&c.host, &x->host, &c.host_link, x->host_poll_ns);
    if (!(c.g = gpu_new(gc, err, sizeof err))) {
        fail(r, "gpu", err);
        goto out;
    }
    if (c.h.attach && c.h.attach(c.h.user, c.g, err, sizeof err)) {
        fail(r, "", err);
        goto out;
    }
    if (!bg_none && !(c.bg = bg_new(c.g, x->bg, x->size, kdir, x->bg_seed, err, sizeof err))) {
        fail(r, "", err);
        goto out;
    }
    if (c.ops) {
        if (!(c.w = c.ops->init(c.g, cfg, kdir, SLOTS, x->ring, err, sizeof err))) {
            fail(r, "", err);
            goto out;
        }
        c.n_req = c.ops->reqs_per_event;
        r->regs_ev = c.ops->regs(c.w);
        /* an event kind that can never run is refused here, as edgeRegisterEvent would (EDGE Table I) */
        const gpu_launch_desc d = event_desc(&c, 0);
        if (gpu_launch_check(c.g, &d, err, sizeof err)) {
            fail(r, "event registration refused", err);
            goto out;
        }
    }
    if (c.bg) {
        snprintf(r->bg_desc, sizeof r->bg_desc, "%s", bg_describe(c.bg));
        r->regs_bg = bg_regs_per_thread(c.bg);
    }
    gpu_callbacks cb = {on_first, on_done, &c};
    gpu_set_callbacks(c.g, &cb);
    gpu_set_event_callback(c.g, on_event, &c);
    /* a ring slot whose data never comes ends its event alone (the F/E
     * watchdog, F/E 4.5): the other events and the background go on */
    if (x->ring == EV_RING_SYNC && gpu_set_event_fault_callback(c.g, on_event_fault, &c, err, sizeof err)) {
        fail(r, "gpu", err);
        goto out;
    }
    gpu_set_event_breakdown(c.g, true);
    uint64_t evb0[GPU_EVB_N] = {0};
    gpu_preempt_stats ps0 = {0};
    gpu_stats st0 = {0}, st;
    gpu_reserve_stats rs0 = {0};
    if (c.ops && x->warm_events) {
        /* warm-up: events one at a time on the otherwise empty GPU, not
         * counted, so that every run (isolation too) measures warm caches,
         * i-caches and tables; then the background starts */
        mt_params w = *x;
        w.max_events = x->warm_events, w.max_inflight = 1, w.warmup = 0, w.gap_min = w.gap_max = 1;
        w.seed = x->seed ^ 0x3a7du;
        w.link_fault = 0;
        bg_run *bg = c.bg;
        c.bg = NULL;
        int rc = loop(&c, &w, gc->pre.skip_exec, link_bpc);
        c.bg = bg;
        if (rc) goto out;
        gpu_get_event_breakdown(c.g, evb0);
        gpu_get_preempt_stats(c.g, &ps0);
        gpu_get_stats(c.g, &st0);
        gpu_get_reserve_stats(c.g, &rs0);
        r->n_ev = 0, r->checked = 0, r->offered = 0, r->dropped = 0, r->faulted = 0, r->fault[0] = 0;
    }
    r->warm_cycles = gpu_cycle(c.g);
    if (c.bg && bg_start(c.bg, err, sizeof err)) {
        fail(r, "", err);
        goto out;
    }
    if (c.bg && c.h.bg_start) c.h.bg_start(c.h.user);
    if (loop(&c, x, gc->pre.skip_exec, link_bpc)) goto out;
    if (c.bg && !bg_done(c.bg)) {
        fail(r, "", "background kernel did not finish");
        goto out;
    }
    if (c.bg && bg_check(c.bg, err, sizeof err)) {
        fail(r, "background", err);
        goto out;
    }
    for (unsigned i = 0; i < r->n_ev; i++)
        if (!r->ev[i].done || r->ev[i].start < r->ev[i].launch || r->ev[i].done < r->ev[i].start) {
            snprintf(r->err, sizeof r->err, "event %u: sent %llu launch %llu start %llu done %llu: out of order", i,
                     (unsigned long long)r->ev[i].sent, (unsigned long long)r->ev[i].launch,
                     (unsigned long long)r->ev[i].start, (unsigned long long)r->ev[i].done);
            goto out;
        }
    gpu_get_preempt_stats(c.g, &r->ps);
    r->ps.start_free -= ps0.start_free, r->ps.start_preempt -= ps0.start_preempt, r->ps.resumes -= ps0.resumes;
    r->ps.parked -= ps0.parked;
    gpu_get_event_breakdown(c.g, r->evb);
    for (unsigned i = 0; i < GPU_EVB_N; i++) r->evb[i] -= evb0[i];
    gpu_get_reserve_stats(c.g, &r->rs);
    r->rs.cycles -= rs0.cycles, r->rs.core_cycles -= rs0.core_cycles, r->rs.changes -= rs0.changes;
    gpu_get_stats(c.g, &st);
    r->end_drains = st.end_drains - st0.end_drains;
    r->end_drain_cycles = st.end_drain_cycles - st0.end_drain_cycles;
    r->end_drain_stalls = st.end_drain_stalls - st0.end_drain_stalls;
    if (r->ps.errors) {
        snprintf(r->err, sizeof r->err, "%llu PEWT/controller errors", (unsigned long long)r->ps.errors);
        goto out;
    }
    if (r->faulted > (x->link_fault && x->link_fault <= r->n_ev && r->ev[x->link_fault - 1].faulted)) {
        snprintf(r->err, sizeof r->err, "%llu events ended by a fault no link fault explains; the first: %.300s",
                 (unsigned long long)r->faulted, r->fault);
        goto out;
    }
    if (r->checked + r->faulted != r->n_ev || r->ps.resumes != r->ps.parked) {
        snprintf(r->err, sizeof r->err, "%u events sent, %llu checked, %llu ended by a fault, %llu preempted (%llu "
                 "warps parked), %llu resumed", r->n_ev, (unsigned long long)r->checked, (unsigned long long)r->faulted,
                 (unsigned long long)r->ps.start_preempt, (unsigned long long)r->ps.parked,
                 (unsigned long long)r->ps.resumes);
        goto out;
    }
    r->bg_cycles = c.bg ? bg_cycles(c.bg) : 0;
    r->gpu_cycles = gpu_cycle(c.g);
    r->ok = 1;
out:
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r->wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (c.w) c.ops->free(c.w);
    free(c.backlog);
    bg_free(c.bg);
    gpu_free(c.g);
}

void mt_result_free(mt_result *r) {
    free(r->ev);
    r->ev = NULL;
    r->n_ev = 0;
}

void mt_params_default(mt_params *x) {
    memset(x, 0, sizeof *x);
    snprintf(x->event, sizeof x->event, "ipv4");
    snprintf(x->bg, sizeof x->bg, "bp");
    snprintf(x->size, sizeof x->size, "paper");
    x->seed = 1;
    x->bg_seed = 1;
    x->gap_min = 2000;
    x->gap_max = 5000;
    x->warmup = 2000;
    x->warm_events = 0;
    x->max_inflight = 1;
    x->priority = 3;
    pcie_params_default(&x->pcie);
    host_params_default(&x->host);
    x->ring_stall = 200000;
    x->link_fault_bytes = 4;
    x->host_poll_ns = 100.0;
    edge_fe_params ep;
    edge_fe_params_default(&ep);
    x->dispatch_cycles = ep.dispatch_cycles;
}

int mt_params_load(mt_params *x, fg_config *cfg, const char *section, char *err, size_t errlen) {
    static const struct { const char *key; size_t off, len; } S[] = {
        {"event", offsetof(mt_params, event), sizeof x->event},
        {"background", offsetof(mt_params, bg), sizeof x->bg},
        {"size", offsetof(mt_params, size), sizeof x->size}};
    for (unsigned i = 0; i < 3; i++) {
        const char *s = fg_config_str(cfg, section, S[i].key);
        if (!s) continue;
        if (strlen(s) >= S[i].len) {
            snprintf(err, errlen, "[%s] %s = %s: too long", section, S[i].key, s);
            return -1;
        }
        snprintf((char *)x + S[i].off, S[i].len, "%s", s);
    }
    uint64_t mi = x->max_inflight, pr = x->priority;
    if (fg_config_u64(cfg, section, "seed", 0, UINT64_MAX, &x->seed, err, errlen) ||
        fg_config_u64(cfg, section, "bg_seed", 0, UINT64_MAX, &x->bg_seed, err, errlen) ||
        fg_config_u64(cfg, section, "gap_min", 1, 100000000, &x->gap_min, err, errlen) ||
        fg_config_u64(cfg, section, "gap_max", 1, 100000000, &x->gap_max, err, errlen) ||
        fg_config_u64(cfg, section, "warmup", 0, 100000000, &x->warmup, err, errlen) ||
        fg_config_u64(cfg, section, "warm_events", 0, 100000, &x->warm_events, err, errlen) ||
        fg_config_u64(cfg, section, "max_inflight", 1, SLOTS / 2, &mi, err, errlen) ||
        fg_config_u64(cfg, section, "max_events", 0, 10000000, &x->max_events, err, errlen) ||
        fg_config_u64(cfg, section, "priority", 1, 3, &pr, err, errlen) || pcie_params_load(&x->pcie, cfg, err, errlen))
        return -1;
    x->max_inflight = (unsigned)mi;
    x->priority = (unsigned)pr;
    static const char *const LAUNCH[] = {"after_ack", "early", "host", NULL}, *const RING[] = {"plain", "sync", NULL};
    unsigned lv = x->launch, rv = x->ring;
    if (fg_config_enum(cfg, section, "launch", LAUNCH, &lv, err, errlen) ||
        fg_config_enum(cfg, section, "ring", RING, &rv, err, errlen))
        return -1;
    uint64_t dc = x->dispatch_cycles;
    static const char *const OVF[] = {"drop", "hold", NULL};
    unsigned ov = x->hold;
    if (fg_config_enum(cfg, section, "overflow", OVF, &ov, err, errlen) ||
        fg_config_u64(cfg, section, "ring_stall_cycles", 1, UINT32_MAX, &x->ring_stall, err, errlen) ||
        fg_config_u64(cfg, section, "link_fault_event", 0, 10000000, &x->link_fault, err, errlen) ||
        fg_config_u64(cfg, section, "link_fault_bytes", 0, 1u << 20, &x->link_fault_bytes, err, errlen) ||
        fg_config_bool(cfg, section, "timeline", &x->timeline, err, errlen) ||
        host_params_load(&x->host, cfg, err, errlen) ||
        fg_config_double(cfg, "host", "poll_ns", 0, 1e9, &x->host_poll_ns, err, errlen) ||
        fg_config_u64(cfg, "edge", "dispatch_cycles", 0, 1000000, &dc, err, errlen))
        return -1;
    x->dispatch_cycles = (unsigned)dc;
    x->hold = ov == 1;
    x->launch = (mt_launch)lv;
    x->ring = (ev_ring)rv;
    if (x->launch == MT_LAUNCH_EARLY && x->ring != EV_RING_SYNC) {
        snprintf(err, errlen, "[%s] launch = early needs ring = sync: with plain memory the kernel would read its "
                              "inputs before they land", section);
        return -1;
    }
    if (x->gap_min > x->gap_max) {
        snprintf(err, errlen, "[%s] gap_min %llu > gap_max %llu", section, (unsigned long long)x->gap_min,
                 (unsigned long long)x->gap_max);
        return -1;
    }
    return 0;
}
