/* simt_edge_core: EDGE warp-level events inside the SIMT model (EDGE IV-C,
 * IV-D, Figs. 9-10).  Per core, two RTL blocks (verilated, C twin or both in
 * lockstep, chosen by [preempt] impl):
 *   - the pending event warp table, rtl/edge/edge_pewt.sv
 *   - the warp preemption / flush controller, rtl/edge/edge_preempt.sv
 * and the C glue that makes them part of the core: each cycle it carries out
 * the controller's command (flush, barrier skip, load drop, start, resume,
 * abort) on the core's warps, then reports the warps' state back to the
 * blocks and clocks them.  Also the SIMT core scheduler's choice of a core
 * for each arriving warp-level event.  Contracts: sim/twin/edge_pewt.h,
 * sim/twin/edge_preempt.h; design: docs/PREEMPT.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edge_pewt.h"
#include "edge_preempt.h"
#include "fg_util.h"
#include "simt/gpu_internal.h"

/* GTO priorities (higher first).  Background launches use 0..3. */
#define PRIO_EVENT 0xffffu /* EDGE IV-D: a running event warp is on top */
#define PRIO_BOOST 0xfffeu /* flush optimization 1: victim priority boost */

struct simt_edge_core {
    fg_block *pewt, *pre;
    edge_pewt_in_t pin;
    edge_preempt_in_t qin;
    simt_warp *park;            /* per slot: the preempted victim's context */
    bool parked[64];            /* slot holds a parked victim (event running or restore pending) */
    unsigned prio_save[64];     /* victim's priority before the boost */
    uint32_t skip_bar[64];      /* lanes taken out of their barrier (barrier skipping) */
    unsigned ev_regs[64];       /* regs per thread of the event warp in the slot */
    uint64_t ev_mask[64];       /* its register mask (what a SAVED start wrote out) */
    uint64_t select_cycle[64];
    uint16_t exitq[64];         /* event warps that exited, reported one per cycle */
    unsigned exit_n;
    bool pushed;                /* the SIMT core scheduler pushed an event this cycle */
    uint64_t drops, skips;
    bool trace;                 /* $FG_PREEMPT_TRACE: print every command */
    bool waves;                 /* FST traces open: clock every cycle */
    uint64_t skipped;           /* idle cycles not clocked (simt_edge_end) */
};

int simt_edge_init(gpu_t *g, simt_core *c, char *err, size_t errlen) {
    const gpu_config *k = &g->cfg;
    simt_edge_core *e = calloc(1, sizeof *e);
    if (!e) { snprintf(err, errlen, "gpu_new: out of memory"); return -1; }
    c->edge = e;
    e->park = calloc(c->nwarps, sizeof *e->park);
    if (!e->park) { snprintf(err, errlen, "gpu_new: out of memory"); return -1; }
    edge_pewt_params pp;
    edge_pewt_params_default(&pp);
    pp.entries = k->pre.pewt_entries;
    edge_preempt_params qp;
    edge_preempt_params_default(&qp);
    char e2[256];
    e->pewt = fg_block_new(&edge_pewt_class, k->pre.impl, &pp, e2, sizeof e2);
    if (!e->pewt) { snprintf(err, errlen, "core %u PEWT: %s", c->id, e2); return -1; }
    e->pre = fg_block_new(&edge_preempt_class, k->pre.impl, &qp, e2, sizeof e2);
    if (!e->pre) { snprintf(err, errlen, "core %u preemption controller: %s", c->id, e2); return -1; }
    if (c->nwarps > qp.nw) {
        snprintf(err, errlen, "core %u: %u warp slots, the preemption controller has %u", c->id, c->nwarps, qp.nw);
        return -1;
    }
    e->trace = getenv("FG_PREEMPT_TRACE") != NULL;
    /* $FG_WAVE_DIR: FST of core 0's two blocks (RTL side), cycle window
     * $FG_WAVE_START..$FG_WAVE_END; tb/waves/edge_{pewt,preempt}.gtkw read them
     * after `make wave` points copies at these files */
    const char *wd = getenv("FG_WAVE_DIR");
    if (wd && c->id == 0 && k->pre.impl != FG_IMPL_C) {
        char path[512];
        uint64_t t0 = fg_env_u64("FG_WAVE_START", 0), t1 = fg_env_u64("FG_WAVE_END", 0);
        snprintf(path, sizeof path, "%s/simt_core0_edge_pewt.fst", wd);
        if (fg_block_trace(e->pewt, path, t0, t1)) { snprintf(err, errlen, "cannot trace to %s", path); return -1; }
        snprintf(path, sizeof path, "%s/simt_core0_edge_preempt.fst", wd);
        if (fg_block_trace(e->pre, path, t0, t1)) { snprintf(err, errlen, "cannot trace to %s", path); return -1; }
        e->waves = true;
    }
    e->qin.cfg_en_i = k->pre.enable;
    e->qin.cfg_policy_i = k->pre.policy;
    e->qin.cfg_opt_i = k->pre.opts;
    e->qin.cfg_save_base_i = k->pre.save_base;
    e->qin.cfg_save_per_reg_i = k->pre.save_per_reg;
    return 0;
}

void simt_edge_free(simt_core *c) {
    simt_edge_core *e = c->edge;
    if (!e) return;
    fg_block_free(e->pewt);
    fg_block_free(e->pre);
    free(e->park);
    free(e);
    c->edge = NULL;
}

bool simt_edge_blocks_held(const simt_core *c) {
    const edge_pewt_out_t *po = fg_block_out(c->edge->pewt);
    return po->n_pending_o > 0 || c->edge->pushed;
}

/* ------------------------------------------------------------ commands */

static uint64_t save_addr(const gpu_t *g, const simt_core *c, unsigned slot, unsigned r) {
    return g->save_base + (((uint64_t)c->id * c->nwarps + slot) * RV_NREGS + r) * SIMT_LANES * 4;
}

static void bar_reinsert(gpu_t *g, simt_core *c, simt_warp *w) {
    simt_edge_core *e = c->edge;
    uint32_t m = e->skip_bar[w->slot];
    e->skip_bar[w->slot] = 0;
    if (!m || w->state != WS_RUN) return;
    simt_block *b = &c->blk[w->block];
    w->bar_wait |= m;
    w->active &= ~m;
    b->bar_arrived += (unsigned)__builtin_popcount(m);
    simt_barrier_check(g, c, b);
}

/* Starts the PEWT head's event warp in slot s (EDGE IV-D: in a free context,
 * or in the flushed victim's, whose context is parked aside). */
static void cmd_start(gpu_t *g, simt_core *c, unsigned s, unsigned arg) {
    simt_edge_core *e = c->edge;
    const edge_pewt_out_t *po = fg_block_out(e->pewt);
    const edge_preempt_out_t *qo = fg_block_out(e->pre);
    unsigned li = (unsigned)po->hd_tag_o;
    if (!po->hd_valid_o || li >= g->n_lq || g->lq[li].state != LS_EV_CORE) {
        gpu_fault(g, "core %u: preemption controller started slot %u with no pending event", c->id, s);
        return;
    }
    simt_launch *L = &g->lq[li];
    simt_warp *w = &c->w[s];
    e->ev_regs[s] = L->regs_pt;
    e->ev_mask[s] = L->reg_mask;
    L->ev.start = g->cycle;
    L->ev.preempted = arg & PRE_ARG_PREEMPTED;
    L->ev.saved = arg & PRE_ARG_SAVED;
    L->ev.victim_slot = s;
    if (arg & PRE_ARG_PREEMPTED) {
        if (w->state != WS_RUN) {
            gpu_fault(g, "core %u: controller preempted slot %u, which runs no warp", c->id, s);
            return;
        }
        L->ev.select = e->select_cycle[s];
        L->ev.vstat = (unsigned)qo->vstat_o;
        L->ev.victim_age = w->age;
        w->priority = e->prio_save[s];
        w->stop_fetch = false;
        e->park[s] = *w;
        e->parked[s] = true;
        if (arg & PRE_ARG_SAVED) {
            /* registers the event kernel uses go to the preallocated region */
            for (unsigned r = 0; r < RV_NREGS; r++)
                if (e->ev_mask[s] >> r & 1) {
                    gpu_mem_write(g, save_addr(g, c, s, r), e->park[s].r[r], SIMT_LANES * 4);
                    memset(e->park[s].r[r], 0, SIMT_LANES * 4); /* overwritten by the event warp */
                }
        } else {
            c->used_regs += L->regs_pt * SIMT_LANES; /* EDGE IV-D: free registers reserved */
        }
    } else {
        if (w->state != WS_FREE) {
            gpu_fault(g, "core %u: controller started an event in busy slot %u", c->id, s);
            return;
        }
        c->used_warps++;
        c->used_threads += SIMT_LANES;
        c->used_regs += L->regs_pt * SIMT_LANES;
    }
    simt_forget_last_issued(c, s);
    simt_warp_start(g, w, li, g->cfg.max_blocks_per_core, 0);
    w->event = true;
    w->local_idx = c->nwarps + (unsigned)po->hd_idx_o;
    w->priority = PRIO_EVENT;
    simt_core_sort(c);
    e->pin.start_valid_i = 1;
    e->pin.start_slot_i = s;
}

/* The event warp in slot s is gone: put the victim back (EDGE IV-D). */
static void cmd_resume(gpu_t *g, simt_core *c, unsigned s, unsigned arg) {
    simt_edge_core *e = c->edge;
    if (!e->parked[s] || c->w[s].state != WS_PARKED) {
        gpu_fault(g, "core %u: controller resumed slot %u, which holds no parked victim", c->id, s);
        return;
    }
    simt_warp *w = &c->w[s];
    *w = e->park[s];
    e->parked[s] = false;
    if (arg & PRE_ARG_SAVED) {
        for (unsigned r = 0; r < RV_NREGS; r++)
            if (e->ev_mask[s] >> r & 1) gpu_mem_read(g, save_addr(g, c, s, r), w->r[r], SIMT_LANES * 4);
    } else {
        c->used_regs -= e->ev_regs[s] * SIMT_LANES;
    }
    w->ibuf_n = 0;
    w->fetch_ready = 0;
    if (arg & PRE_ARG_SKIPPED) bar_reinsert(g, c, w);
    simt_core_sort(c);
}

static void do_command(gpu_t *g, simt_core *c) {
    simt_edge_core *e = c->edge;
    const edge_preempt_out_t *qo = fg_block_out(e->pre);
    unsigned s = (unsigned)qo->cmd_slot_o, arg = (unsigned)qo->cmd_arg_o;
    if (qo->cmd_o == PRE_CMD_NONE) return;
    if (s >= c->nwarps) {
        gpu_fault(g, "core %u: controller command %u for slot %u (core has %u)", c->id, (unsigned)qo->cmd_o, s,
                  c->nwarps);
        return;
    }
    simt_warp *w = &c->w[s];
    if (e->trace) {
        static const char *const nm[] = {"none", "FLUSH", "SKIPBAR", "DROP", "START", "RESUME", "ABORT", "?"};
        fprintf(stderr, "[preempt] cycle %llu core %u %s slot %u arg 0x%x (state %d, n_ld %u, ldok %d, ibuf %u, bar 0x%x)\n",
                (unsigned long long)g->cycle, c->id, nm[qo->cmd_o & 7], s, arg, w->state, w->n_ld,
                simt_loads_droppable(w), w->ibuf_n, w->bar_wait);
    }
    switch (qo->cmd_o) {
    case PRE_CMD_FLUSH: /* stop fetching; optimizations 1 (boost) and 2 (i-buffer flush) */
        e->select_cycle[s] = g->cycle;
        e->prio_save[s] = w->priority;
        w->stop_fetch = true;
        if (arg & PRE_OPT_IBUF) w->ibuf_n = 0;
        if (arg & PRE_OPT_BOOST) {
            w->priority = PRIO_BOOST;
            simt_core_sort(c);
        }
        break;
    case PRE_CMD_SKIPBAR: /* optimization 3: out of the barrier now, back in on resume */
        if (w->state == WS_RUN && w->bar_wait) {
            e->skip_bar[s] = w->bar_wait;
            c->blk[w->block].bar_arrived -= (unsigned)__builtin_popcount(w->bar_wait);
            w->bar_wait = 0;
            e->skips++;
        }
        break;
    case PRE_CMD_DROP: /* optimization 4: drop in-flight loads, replay on resume */
        if (w->state == WS_RUN && simt_loads_droppable(w)) {
            simt_drop_loads(g, c, w);
            e->drops++;
        }
        break;
    case PRE_CMD_START: cmd_start(g, c, s, arg); break;
    case PRE_CMD_RESUME: cmd_resume(g, c, s, arg); break;
    case PRE_CMD_ABORT: /* the victim exited while being flushed */
        w->stop_fetch = false;
        if (w->priority == PRIO_BOOST) w->priority = e->prio_save[s];
        if (arg & PRE_ARG_SKIPPED) bar_reinsert(g, c, w);
        simt_core_sort(c);
        break;
    default:
        gpu_fault(g, "core %u: unknown controller command %u", c->id, (unsigned)qo->cmd_o);
    }
}

void simt_edge_begin(gpu_t *g, simt_core *c) {
    simt_edge_core *e = c->edge;
    const edge_pewt_out_t *po = fg_block_out(e->pewt);
    if (po->cpl_valid_o) { /* the PEWT freed the entry: the event kernel is complete */
        unsigned li = (unsigned)po->cpl_tag_o;
        if (li < g->n_lq && g->lq[li].state == LS_EV_CORE) gpu_block_done(g, li);
        else gpu_fault(g, "core %u: PEWT completion for unknown launch %u", c->id, li);
    }
    if (po->err_valid_o) gpu_fault(g, "core %u: PEWT error %u", c->id, (unsigned)po->err_code_o);
    const edge_preempt_out_t *qo = fg_block_out(e->pre);
    if (qo->err_valid_o) gpu_fault(g, "core %u: preemption controller error %u", c->id, (unsigned)qo->err_code_o);
    do_command(g, c);
}

void simt_edge_warp_exit(gpu_t *g, simt_core *c, simt_warp *w) {
    simt_edge_core *e = c->edge;
    unsigned s = w->slot;
    w->event = false;
    if (e->parked[s]) {
        w->state = WS_PARKED; /* the victim comes back with RESUME */
    } else {
        c->used_warps--;
        c->used_threads -= SIMT_LANES;
        c->used_regs -= e->ev_regs[s] * SIMT_LANES;
    }
    e->exitq[e->exit_n++] = (uint16_t)s;
    simt_core_sort(c);
    (void)g;
}

/* ------------------------------------------------- block inputs, clock */

static bool free_context(const gpu_t *g, const simt_core *c, unsigned regs, unsigned *slot) {
    const gpu_config *k = &g->cfg;
    if (c->used_warps >= c->nwarps || c->used_threads + SIMT_LANES > k->max_threads_per_core ||
        c->used_regs + regs * SIMT_LANES > k->regs_per_core)
        return false;
    for (unsigned i = 0; i < c->nwarps; i++)
        if (c->w[i].state == WS_FREE) { *slot = i; return true; }
    return false;
}

/* Both blocks idle, and this cycle's inputs keep them so: no entry, no
 * event warp, no parked victim, controller in IDLE with nothing on its
 * ports, and no push, start, exit or block allocation now.  An edge would
 * change no register (sim/twin/edge_pewt.h, edge_preempt.h), so the core
 * counts the cycle without clocking the blocks: most cores of a GPU with
 * few events are idle most of the time. */
static bool quiescent(const simt_edge_core *e, const simt_core *c) {
    const edge_pewt_out_t *po = fg_block_out(e->pewt);
    const edge_preempt_out_t *qo = fg_block_out(e->pre);
    return !e->waves && !e->exit_n && !e->pin.ev_valid_i && !e->pin.start_valid_i && !c->alloc_mask &&
           !po->n_pending_o && !po->n_running_o && !po->cpl_valid_o && !po->err_valid_o &&
           qo->state_o == PRE_ST_IDLE && qo->cmd_o == PRE_CMD_NONE && !qo->err_valid_o && !qo->event_mask_o &&
           !qo->victim_mask_o;
}

void simt_edge_end(gpu_t *g, simt_core *c) {
    simt_edge_core *e = c->edge;
    const gpu_config *k = &g->cfg;
    const uint64_t now = g->cycle;
    const edge_pewt_out_t *po = fg_block_out(e->pewt);
    const edge_preempt_out_t *qo = fg_block_out(e->pre);
    edge_preempt_in_t *q = &e->qin;
    if (k->pre.idle_skip && quiescent(e, c)) {
        fg_block_skip(e->pewt);
        fg_block_skip(e->pre);
        e->skipped++;
        return;
    }
    if (e->exit_n) {
        unsigned s = e->exitq[0];
        memmove(e->exitq, e->exitq + 1, --e->exit_n * sizeof e->exitq[0]);
        e->pin.exit_valid_i = q->ev_exit_i = 1;
        e->pin.exit_slot_i = q->ev_exit_slot_i = s;
    }
    q->req_valid_i = po->hd_valid_o;
    q->req_regs_i = po->hd_regs_o;
    unsigned fs = 0;
    q->free_ctx_i = po->hd_valid_o && free_context(g, c, (unsigned)po->hd_regs_o, &fs);
    q->free_slot_i = fs;
    q->rf_free_i = c->used_regs + po->hd_regs_o * SIMT_LANES <= k->regs_per_core;
    q->w_alloc_i = c->alloc_mask;
    q->w_alloc_regs_i = c->alloc_regs;
    uint64_t live = 0, ex = 0, bar = 0, ld = 0;
    for (unsigned i = 0; i < c->nwarps; i++) {
        const simt_warp *w = &c->w[i];
        uint64_t bit = 1ull << i;
        if (w->state != WS_FREE) live |= bit;
        if (w->state == WS_DRAIN) ex |= bit;
        if (w->state == WS_RUN && w->bar_wait && !w->active) bar |= bit;
        if (w->n_ld) ld |= bit;
    }
    q->w_live_i = live;
    q->w_exit_i = ex;
    q->w_bar_i = bar;
    q->w_ld_i = ld;
    /* the victim's pipeline state (EDGE Fig. 11b categories) */
    const simt_warp *v = &c->w[qo->victim_o < c->nwarps ? qo->victim_o : 0];
    uint64_t ldregs = 0;
    for (unsigned j = 0; j < SIMT_MAX_LD; j++)
        if (v->ld[j].valid && v->ld[j].rd != RV_SINK) ldregs |= 1ull << v->ld[j].rd;
    bool pipe = false, sb = false;
    for (unsigned r = 0; r < RV_NREGS; r++)
        if (v->sb_ready[r] > now) {
            sb = true;
            if (!(ldregs >> r & 1)) pipe = true;
        }
    bool run = v->state == WS_RUN;
    q->v_pipe_i = run && pipe;
    q->v_sb_i = run && sb;
    q->v_ibuf_i = run && v->ibuf_n > 0;
    q->v_imiss_i = run && v->fetch_ready > now;
    q->v_ldok_i = run && simt_loads_droppable(v);
    if (fg_block_step(e->pewt, &e->pin) || fg_block_step(e->pre, q))
        gpu_fault(g, "core %u: %s", c->id, e->pewt->failed ? e->pewt->error : e->pre->error);
    e->pin.ev_valid_i = e->pin.start_valid_i = e->pin.exit_valid_i = 0;
    q->ev_exit_i = 0;
    e->pushed = false;
}

/* ------------------------------------------------ SIMT core scheduler */

/* Cost of sending event L to core c (lower is better; EDGE IV-C picks a core
 * with a free warp context first, then the cheapest to preempt):
 *   16 per event already pending in its PEWT, plus
 *   0  a free warp context with the registers the event needs,
 *   1  a victim waiting at a barrier (skipping makes it ~free),
 *   2  a victim with no loads in flight,
 *   3  victims that all wait on loads,
 *   8  no eligible victim (or preemption off): wait for a context to drain. */
static unsigned core_cost(const gpu_t *g, const simt_core *c, const simt_launch *L) {
    const edge_pewt_out_t *po = fg_block_out(c->edge->pewt);
    unsigned base = 16 * (unsigned)po->n_pending_o, slot;
    if (!po->n_pending_o && free_context(g, c, L->regs_pt, &slot)) return base;
    if (!g->cfg.pre.enable) return base + 8;
    unsigned best = 8;
    for (unsigned i = 0; i < c->nwarps && best > 1; i++) {
        const simt_warp *w = &c->w[i];
        if (w->state != WS_RUN || w->event || w->stop_fetch) continue;
        if (g->lq[w->launch].regs_pt < L->regs_pt) continue;
        unsigned est = (w->bar_wait && !w->active && (g->cfg.pre.opts & PRE_OPT_BARSKIP)) ? 1 : w->n_ld ? 3 : 2;
        if (est < best) best = est;
    }
    return base + best;
}

void simt_edge_schedule(gpu_t *g) {
    const unsigned nc = g->cfg.num_cores;
    for (unsigned n = 0; n < nc; n++) { /* oldest event first, at most one per core */
        simt_launch *L = NULL;
        for (unsigned j = 0; j < g->n_lq; j++)
            if (g->lq[j].state == LS_EV_WAIT && (!L || g->lq[j].seq < L->seq)) L = &g->lq[j];
        if (!L) return;
        int bestc = -1;
        unsigned bestcost = ~0u;
        for (unsigned i = 0; i < nc; i++) {
            simt_core *c = &g->core[(g->ev_rr + i) % nc];
            const edge_pewt_out_t *po = fg_block_out(c->edge->pewt);
            if (c->edge->pushed || !po->ev_ready_o) continue;
            unsigned cost = core_cost(g, c, L);
            if (cost < bestcost) { bestcost = cost; bestc = (int)c->id; }
        }
        if (bestc < 0) return; /* every PEWT full or already fed this cycle: wait */
        simt_core *c = &g->core[bestc];
        simt_edge_core *e = c->edge;
        e->pin.ev_valid_i = 1;
        e->pin.ev_kernel_i = L->d.kernel_ptr;
        e->pin.ev_param_i = L->d.param_addr;
        e->pin.ev_tag_i = (uint64_t)(L - g->lq);
        e->pin.ev_threads_i = L->threads;
        e->pin.ev_regs_i = L->regs_pt;
        e->pushed = true;
        L->state = LS_EV_CORE;
        g->ev_waiting--;
        memset(&L->ev, 0, sizeof L->ev);
        L->ev.core = c->id;
        L->ev.arrive = g->cycle;
        g->ev_rr = (unsigned)(bestc + 1) % nc;
    }
}

void gpu_get_preempt_stats(const gpu_t *g, gpu_preempt_stats *s) {
    memset(s, 0, sizeof *s);
    for (unsigned i = 0; i < g->cfg.num_cores; i++) {
        const simt_edge_core *e = g->core[i].edge;
        if (!e) continue;
        const edge_preempt_out_t *qo = fg_block_out(e->pre);
        const edge_pewt_out_t *po = fg_block_out(e->pewt);
        s->start_free += qo->cnt_start_free_o;
        s->start_preempt += qo->cnt_start_pre_o;
        s->aborts += qo->cnt_abort_o;
        s->resumes += qo->cnt_resume_o;
        s->errors += qo->cnt_err_o + po->cnt_err_o;
        s->drops += e->drops;
        s->skips += e->skips;
    }
}
