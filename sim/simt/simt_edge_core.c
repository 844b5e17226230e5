/* simt_edge_core: EDGE warp-level events inside the SIMT model (EDGE IV-C,
 * IV-D, Figs. 9-10); see simt_edge_core.h.  Per core, two RTL blocks
 * (verilated, C twin or both in lockstep, chosen by [preempt] impl):
 *   - the pending event warp table, rtl/edge/edge_pewt.sv
 *   - the warp preemption / flush controller, rtl/edge/edge_preempt.sv
 * and the C glue that makes them part of the core: each cycle it carries out
 * the controller's command (flush, barrier skip, load drop, start, resume,
 * abort) on the core's warps, then reports the warps' state back to the
 * blocks and clocks them.  Contracts: sim/twin/edge_pewt.h,
 * sim/twin/edge_preempt.h; design: docs/PREEMPT.md. */
#include "simt/simt_edge_core.h"
#include "fg_wave.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edge_pewt.h"
#include "edge_preempt.h"
#include "fg_util.h"

/* GTO priorities (higher first).  Background launches use 0..3. */
#define PRIO_EVENT 0xffffu /* EDGE IV-D: a running event warp is on top */
#define PRIO_BOOST 0xfffeu /* flush optimization 1: victim priority boost */

struct simt_edge_core {
    simt_core *c;
    const gpu_config *k;
    simt_edge_cbs cb;
    fg_block *pewt, *pre;
    edge_pewt_in_t pin;
    edge_preempt_in_t qin;
    unsigned prio_save[64];     /* victim's priority before the boost */
    uint32_t skip_bar[64];      /* lanes taken out of their barrier (barrier skipping) */
    uint64_t select_cycle[64];
    bool membar[64];            /* the victim waited at a FENCE when its flush began (GPU_VS_MEMBAR) */
    uint16_t exitq[64];         /* event warps that exited, reported one per cycle */
    unsigned exit_n;
    bool pushed;                /* the SIMT core scheduler pushed an event this cycle */
    unsigned skip_slot;         /* [preempt] skip_exec: slot + 1 of the event warp to finish next cycle */
    uint64_t drops, skips, parked;
    uint64_t held;              /* slots parked by a START (victims, a set's companions) until their RESUME */
    bool trace;                 /* $FG_PREEMPT_TRACE: print every command */
    bool waves;                 /* FST traces open: clock every cycle */
    uint64_t skipped;           /* idle cycles not clocked (edge_end) */
};

static void edge_begin(void *ext);
static void edge_end(void *ext);
static void edge_warp_exit(void *ext, unsigned slot);
static bool edge_blocks_held(const void *ext);
static const simt_core_hooks HOOKS = {edge_begin, edge_end, edge_warp_exit, edge_blocks_held};

simt_edge_core *simt_edge_new(simt_core *c, const gpu_config *k, const simt_edge_cbs *cb, char *err, size_t errlen) {
    simt_edge_core *e = calloc(1, sizeof *e);
    if (!e) { snprintf(err, errlen, "gpu_new: out of memory"); return NULL; }
    e->c = c;
    e->k = k;
    e->cb = *cb;
    edge_pewt_params pp;
    edge_pewt_params_default(&pp);
    pp.entries = k->pre.pewt_entries;
    edge_preempt_params qp;
    edge_preempt_params_default(&qp);
    qp.set_max = k->pre.set_max; /* victim sets: the controller verilated with FG_PREEMPT_SETS */
    char e2[256];
    e->pewt = fg_block_new(&edge_pewt_class, k->pre.impl, &pp, e2, sizeof e2);
    const unsigned id = simt_core_id(c), nwarps = simt_core_nwarps(c);
    if (!e->pewt) { snprintf(err, errlen, "core %u PEWT: %s", id, e2); goto fail; }
    e->pre = fg_block_new(&edge_preempt_class, k->pre.impl, &qp, e2, sizeof e2);
    if (!e->pre) { snprintf(err, errlen, "core %u preemption controller: %s", id, e2); goto fail; }
    if (nwarps > qp.nw) {
        snprintf(err, errlen, "core %u: %u warp slots, the preemption controller has %u", id, nwarps, qp.nw);
        goto fail;
    }
    e->trace = getenv("FG_PREEMPT_TRACE") != NULL;
    fg_wave_place(e->pewt, "gpu.core%u", id);
    fg_wave_place(e->pre, "gpu.core%u", id);
    if (fg_block_idle_skip(e->pewt) || fg_block_idle_skip(e->pre)) {
        snprintf(err, errlen, "core %u: out of memory", id);
        goto fail;
    }
    /* $FG_WAVE_DIR: FST of core 0's two blocks (RTL side), cycle window
     * $FG_WAVE_START..$FG_WAVE_END; tb/waves/edge_{pewt,preempt}.gtkw read them
     * after `make wave` points copies at these files */
    const char *wd = getenv("FG_WAVE_DIR");
    if (wd && id == 0 && k->pre.impl != FG_IMPL_C) {
        char path[512];
        uint64_t t0 = fg_env_u64("FG_WAVE_START", 0), t1 = fg_env_u64("FG_WAVE_END", 0);
        snprintf(path, sizeof path, "%s/simt_core0_edge_pewt.fst", wd);
        if (fg_block_trace(e->pewt, path, t0, t1)) { snprintf(err, errlen, "cannot trace to %s", path); goto fail; }
        snprintf(path, sizeof path, "%s/simt_core0_edge_preempt.fst", wd);
        if (fg_block_trace(e->pre, path, t0, t1)) { snprintf(err, errlen, "cannot trace to %s", path); goto fail; }
        e->waves = true;
    }
    e->qin.cfg_en_i = k->pre.enable;
    e->qin.cfg_policy_i = k->pre.policy;
    e->qin.cfg_opt_i = k->pre.opts;
    e->qin.cfg_save_base_i = k->pre.save_base;
    e->qin.cfg_save_per_reg_i = k->pre.save_per_reg;
    simt_core_set_hooks(c, &HOOKS, e);
    return e;
fail:
    simt_edge_free(e);
    return NULL;
}

void simt_edge_free(simt_edge_core *e) {
    if (!e) return;
    fg_block_free(e->pewt);
    fg_block_free(e->pre);
    free(e);
}

/* The calls up to the GPU are made at the core's commit, in order with the
 * core's own (simt_core_defer). */
_Static_assert(sizeof(gpu_event_info) <= SIMT_DCALL_PAYLOAD, "gpu_event_info fits a deferred call");
static void call_started(void *user, uint64_t tag, const void *ev) {
    const simt_edge_core *e = user;
    e->cb.started(e->cb.user, tag, ev);
}
static void call_done(void *user, uint64_t tag, const void *p) {
    (void)p;
    const simt_edge_core *e = user;
    e->cb.done(e->cb.user, tag);
}

static bool edge_blocks_held(const void *ext) {
    const simt_edge_core *e = ext;
    const edge_pewt_out_t *po = fg_block_out(e->pewt);
    return po->n_pending_o > 0 || e->pushed;
}

/* ------------------------------------------------------------ commands */

/* the lanes barrier skipping took out of slot s's barrier go back in */
static void bar_reinsert(simt_edge_core *e, unsigned s) {
    const uint32_t m = e->skip_bar[s];
    e->skip_bar[s] = 0;
    simt_core_barrier_rejoin(e->c, s, m);
}

/* Starts the PEWT head's event warp in slot s (EDGE IV-D: in a free context,
 * or in the flushed victim's, whose context is parked aside). */
static void cmd_start(simt_edge_core *e, unsigned s, unsigned arg) {
    simt_core *c = e->c;
    const edge_pewt_out_t *po = fg_block_out(e->pewt);
    const edge_preempt_out_t *qo = fg_block_out(e->pre);
    uint64_t tag = po->hd_tag_o;
    const simt_grid *k = po->hd_valid_o ? e->cb.grid(e->cb.user, tag) : NULL;
    if (!k) {
        simt_core_fault(c, "core %u: preemption controller started slot %u with no pending event", simt_core_id(c), s);
        return;
    }
    simt_warp_status w;
    simt_core_warp(c, s, &w);
    gpu_event_info ev = {0};
    ev.start = simt_core_now(c);
    ev.preempted = arg & PRE_ARG_PREEMPTED;
    ev.saved = arg & PRE_ARG_SAVED;
    ev.victim_slot = s;
    if (arg & PRE_ARG_PREEMPTED) {
        if (w.state != WS_RUN) {
            simt_core_fault(c, "core %u: controller preempted slot %u, which runs no warp", simt_core_id(c), s);
            return;
        }
        /* a victim set (EDGE VI-C): the slots the controller parked with s that
         * the core holds no victim in yet, s's companions; their registers with
         * s's are the event's */
        const uint64_t comp = qo->victim_mask_o & ~e->held & ~(1ULL << s);
        e->held |= comp | 1ULL << s;
        ev.set_warps = 1 + (unsigned)__builtin_popcountll(comp);
        e->parked += ev.set_warps;
        if ((arg & PRE_ARG_SAVED) && w.grid->regs_pt * ev.set_warps < k->regs_pt) { /* extra_regs asked for 0 */
            simt_core_fault(c, "core %u: slot %u: registers saved for an event with more registers than its victims",
                            simt_core_id(c), s);
            return;
        }
        for (uint64_t m = comp; m; m &= m - 1) { /* parked whole; the event's registers are timed at s */
            unsigned j = (unsigned)__builtin_ctzll(m);
            simt_warp_status cw;
            simt_core_warp(c, j, &cw);
            if (cw.state != WS_RUN || cw.grid != w.grid) {
                simt_core_fault(c, "core %u: slot %u parked with slot %u, but not a warp of its kernel",
                                simt_core_id(c), j, s);
                return;
            }
            simt_core_set_priority(c, j, e->prio_save[j]);
            simt_core_stop_fetch(c, j, false, false);
            simt_core_park_idle(c, j, arg & PRE_ARG_SAVED);
        }
        ev.select = e->select_cycle[s];
        ev.vstat = (unsigned)qo->vstat_o | (e->membar[s] ? GPU_VS_MEMBAR : 0);
        ev.victim_age = w.age;
        simt_core_set_priority(c, s, e->prio_save[s]);
        simt_core_stop_fetch(c, s, false, false);
        simt_core_park(c, s, k->regs_pt, k->reg_mask, arg & PRE_ARG_SAVED);
    } else {
        if (w.state != WS_FREE) {
            simt_core_fault(c, "core %u: controller started an event in busy slot %u", simt_core_id(c), s);
            return;
        }
        simt_core_claim(c, s, k->regs_pt);
    }
    simt_core_defer(c, call_started, e, tag, &ev, sizeof ev);
    simt_core_start_event(c, s, k, simt_core_nwarps(c) + (unsigned)po->hd_idx_o, PRIO_EVENT);
    e->pin.start_valid_i = 1;
    e->pin.start_slot_i = s;
    if (e->k->pre.skip_exec) { /* EDGE VI-C: ready to be scheduled; skip its execution */
        simt_core_drain_warp(c, s); /* issues nothing; finished next cycle, after the PEWT took the start */
        e->skip_slot = s + 1;
    }
}

/* The event warp in slot s is gone: put the victim back (EDGE IV-D). */
static void cmd_resume(simt_edge_core *e, unsigned s, unsigned arg) {
    simt_core *c = e->c;
    if (!simt_core_parked(c, s)) {
        simt_core_fault(c, "core %u: controller resumed slot %u, which holds no parked victim", simt_core_id(c), s);
        return;
    }
    simt_core_resume(c, s);
    e->held &= ~(1ULL << s);
    if (arg & PRE_ARG_SKIPPED) bar_reinsert(e, s);
    simt_core_sort(c);
}

static void do_command(simt_edge_core *e) {
    simt_core *c = e->c;
    const edge_preempt_out_t *qo = fg_block_out(e->pre);
    unsigned s = (unsigned)qo->cmd_slot_o, arg = (unsigned)qo->cmd_arg_o;
    if (qo->cmd_o == PRE_CMD_NONE) return;
    const unsigned id = simt_core_id(c), nwarps = simt_core_nwarps(c);
    if (s >= nwarps) {
        simt_core_fault(c, "core %u: controller command %u for slot %u (core has %u)", id, (unsigned)qo->cmd_o,
                        s, nwarps);
        return;
    }
    simt_warp_status w;
    simt_core_warp(c, s, &w);
    if (e->trace) {
        static const char *const nm[] = {"none", "FLUSH", "SKIPBAR", "DROP", "START", "RESUME", "ABORT", "?"};
        fprintf(stderr, "[preempt] cycle %llu core %u %s slot %u arg 0x%x (state %d, n_ld %u, ldok %d, ibuf %u, bar 0x%x, "
                "n_st %u, pc 0x%x, at fence %d; parked 0x%llx)\n", (unsigned long long)simt_core_now(c), id,
                nm[qo->cmd_o & 7], s, arg, w.state, w.n_ld, simt_core_loads_droppable(c, s), w.ibuf_n, w.bar_wait,
                w.n_st, w.pc, simt_core_at_fence(c, s), (unsigned long long)qo->victim_mask_o);
    }
    uint32_t m;
    switch (qo->cmd_o) {
    case PRE_CMD_FLUSH: /* stop fetching; optimizations 1 (boost) and 2 (i-buffer flush) */
        e->select_cycle[s] = simt_core_now(c);
        e->prio_save[s] = w.priority;
        e->membar[s] = simt_core_at_fence(c, s);
        simt_core_stop_fetch(c, s, true, arg & PRE_OPT_IBUF);
        if (arg & PRE_OPT_BOOST) {
            simt_core_set_priority(c, s, PRIO_BOOST);
            simt_core_sort(c);
        }
        break;
    case PRE_CMD_SKIPBAR: /* optimization 3: out of the barrier now, back in on resume */
        if ((m = simt_core_barrier_skip(c, s))) {
            e->skip_bar[s] = m;
            e->skips++;
        }
        break;
    case PRE_CMD_DROP: /* optimization 4: drop in-flight loads, replay on resume */
        if (simt_core_drop_loads(c, s)) e->drops++;
        break;
    case PRE_CMD_START: cmd_start(e, s, arg); break;
    case PRE_CMD_RESUME: cmd_resume(e, s, arg); break;
    case PRE_CMD_ABORT: /* the victim exited while being flushed */
        simt_core_stop_fetch(c, s, false, false);
        if (w.priority == PRIO_BOOST) simt_core_set_priority(c, s, e->prio_save[s]);
        if (arg & PRE_ARG_SKIPPED) bar_reinsert(e, s);
        simt_core_sort(c);
        break;
    default:
        simt_core_fault(c, "core %u: unknown controller command %u", id, (unsigned)qo->cmd_o);
    }
}

/* start of the core's cycle: completions, errors, the controller's command */
static void edge_begin(void *ext) {
    simt_edge_core *e = ext;
    simt_core *c = e->c;
    const edge_pewt_out_t *po = fg_block_out(e->pewt);
    if (po->cpl_valid_o) { /* the PEWT freed the entry: the event kernel is complete */
        if (e->cb.grid(e->cb.user, po->cpl_tag_o)) simt_core_defer(c, call_done, e, po->cpl_tag_o, NULL, 0);
        else simt_core_fault(c, "core %u: PEWT completion for unknown launch %llu", simt_core_id(c),
                             (unsigned long long)po->cpl_tag_o);
    }
    if (po->err_valid_o) simt_core_fault(c, "core %u: PEWT error %u", simt_core_id(c), (unsigned)po->err_code_o);
    if (e->skip_slot) { /* its exit reaches the blocks one edge after the start (edge_pewt.h) */
        simt_core_finish_drained(c, e->skip_slot - 1);
        e->skip_slot = 0;
    }
    const edge_preempt_out_t *qo = fg_block_out(e->pre);
    if (qo->err_valid_o)
        simt_core_fault(c, "core %u: preemption controller error %u", simt_core_id(c), (unsigned)qo->err_code_o);
    do_command(e);
}

/* an event warp finished (the core has put its slot back or marked it
 * WS_PARKED for the victim's RESUME): report it to both blocks */
static void edge_warp_exit(void *ext, unsigned slot) {
    simt_edge_core *e = ext;
    e->exitq[e->exit_n++] = (uint16_t)slot;
    simt_core_kernel_end(e->c); /* an event is a kernel of one warp */
}

/* ------------------------------------------------- block inputs, clock */

/* Both blocks idle, and this cycle's inputs keep them so: no entry, no
 * event warp, no parked victim, controller in IDLE with nothing on its
 * ports, and no push, start, exit or block allocation now.  An edge would
 * change no register (sim/twin/edge_pewt.h, edge_preempt.h), so the core
 * counts the cycle without clocking the blocks: most cores of a GPU with
 * few events are idle most of the time. */
static bool quiescent(const simt_edge_core *e) {
    const edge_pewt_out_t *po = fg_block_out(e->pewt);
    const edge_preempt_out_t *qo = fg_block_out(e->pre);
    unsigned regs;
    return !e->waves && !e->exit_n && !e->pin.ev_valid_i && !e->pin.start_valid_i && !simt_core_alloc_mask(e->c, &regs) &&
           !po->n_pending_o && !po->n_running_o && !po->cpl_valid_o && !po->err_valid_o &&
           qo->state_o == PRE_ST_IDLE && qo->cmd_o == PRE_CMD_NONE && !qo->err_valid_o && !qo->event_mask_o &&
           !qo->victim_mask_o;
}

/* An event whose registers fit in the free file takes only a victim's slot:
 * [preempt] extra_regs, or a register reserve kept for events (EDGE VI-C). */
static bool extra_regs(const simt_edge_core *e) { return e->k->pre.extra_regs || e->k->pre.event_reg_reserve; }

/* end of the core's cycle: block inputs from the core's state, one edge */
static void edge_end(void *ext) {
    simt_edge_core *e = ext;
    simt_core *c = e->c;
    const edge_pewt_out_t *po = fg_block_out(e->pewt);
    const edge_preempt_out_t *qo = fg_block_out(e->pre);
    edge_preempt_in_t *q = &e->qin;
    if (e->k->pre.idle_skip && quiescent(e)) {
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
    /* registers the event needs from its victim: its own count (EDGE IV-D), or
     * none when they all fit in the free register file and [preempt]
     * extra_regs lets it reserve them there (EDGE VI-C); rf_free_i then makes
     * the START reserve them.  The register file only fills between selection
     * and START by a START (no block lands while the PEWT holds the event). */
    q->req_regs_i = extra_regs(e) && simt_core_regs_fit(c, (unsigned)po->hd_regs_o) ? 0 : po->hd_regs_o;
    unsigned fs = 0;
    q->free_ctx_i = po->hd_valid_o && simt_core_free_ctx(c, (unsigned)po->hd_regs_o, &fs);
    q->free_slot_i = fs;
    q->rf_free_i = simt_core_regs_fit(c, (unsigned)po->hd_regs_o);
    unsigned alloc_regs;
    q->w_alloc_i = simt_core_alloc_mask(c, &alloc_regs);
    q->w_alloc_regs_i = alloc_regs;
    simt_slot_masks sm;
    simt_core_slot_masks(c, &sm);
    q->w_live_i = sm.live;
    q->w_exit_i = sm.drain;
    q->w_bar_i = sm.bar;
    q->w_ld_i = sm.loads;
    /* the status of the warp in slot victim_o (the pick of a selection from its
     * last step on, then the victim): its bits of the vectors above, and its
     * pipeline state (EDGE Fig. 11b categories) */
    edge_preempt_victim_bits(q, qo->victim_o);
    simt_warp_pipe vp;
    simt_core_warp_pipe(c, qo->victim_o < simt_core_nwarps(c) ? (unsigned)qo->victim_o : 0, &vp);
    q->v_pipe_i = vp.pipe;
    q->v_sb_i = vp.sb;
    q->v_ibuf_i = vp.ibuf;
    q->v_imiss_i = vp.imiss;
    q->v_ldok_i = vp.ldok;
    if (fg_block_step(e->pewt, &e->pin) || fg_block_step(e->pre, q))
        simt_core_fault(c, "core %u: %s", simt_core_id(c), e->pewt->failed ? e->pewt->error : e->pre->error);
    e->pin.ev_valid_i = e->pin.start_valid_i = e->pin.exit_valid_i = 0;
    q->ev_exit_i = 0;
    e->pushed = false;
}

/* ------------------------------------------------ SIMT core scheduler */

bool simt_edge_can_push(const simt_edge_core *e) {
    const edge_pewt_out_t *po = fg_block_out(e->pewt);
    return !e->pushed && po->ev_ready_o;
}

/* Cost of sending event k to the core (lower is better; EDGE IV-C picks a
 * core with a free warp context first, then the cheapest to preempt):
 *   16 per event already pending in its PEWT, plus
 *   0  a free warp context with the registers the event needs,
 *   1  a victim waiting at a barrier (skipping makes it ~free),
 *   2  a victim with no loads in flight,
 *   3  victims that all wait on loads,
 *   8  no eligible victim (or preemption off): wait for a context to drain. */
unsigned simt_edge_cost(const simt_edge_core *e, const simt_grid *k) {
    const simt_core *c = e->c;
    const edge_pewt_out_t *po = fg_block_out(e->pewt);
    const unsigned nwarps = simt_core_nwarps(c);
    unsigned base = SIMT_EDGE_COST_PENDING * (unsigned)po->n_pending_o, slot;
    if (!po->n_pending_o && simt_core_free_ctx(c, k->regs_pt, &slot)) return base;
    if (!e->k->pre.enable) return base + SIMT_EDGE_COST_DRAIN;
    unsigned best = SIMT_EDGE_COST_DRAIN;
    for (unsigned i = 0; i < nwarps && best > 1; i++) {
        simt_warp_status w;
        simt_core_warp(c, i, &w);
        if (w.state != WS_RUN || w.event || w.stop_fetch) continue;
        /* (a victim set of up to set_max warps of its block: the controller needs them adjacent) */
        if (w.grid->regs_pt * e->k->pre.set_max < k->regs_pt && !(extra_regs(e) && simt_core_regs_fit(c, k->regs_pt)))
            continue;
        unsigned est = (w.bar_wait && !w.active && (e->k->pre.opts & PRE_OPT_BARSKIP)) ? 1 : w.n_ld ? 3 : 2;
        if (est < best) best = est;
    }
    return base + best;
}

void simt_edge_push(simt_edge_core *e, const simt_grid *k, uint64_t tag) {
    e->pin.ev_valid_i = 1;
    e->pin.ev_kernel_i = k->kernel_ptr;
    e->pin.ev_param_i = k->param_addr;
    e->pin.ev_tag_i = tag;
    e->pin.ev_threads_i = k->threads;
    e->pin.ev_regs_i = k->regs_pt;
    e->pushed = true;
}

void simt_edge_stats(const simt_edge_core *e, gpu_preempt_stats *s) {
    const edge_preempt_out_t *qo = fg_block_out(e->pre);
    const edge_pewt_out_t *po = fg_block_out(e->pewt);
    s->start_free += qo->cnt_start_free_o;
    s->start_preempt += qo->cnt_start_pre_o;
    s->aborts += qo->cnt_abort_o;
    s->resumes += qo->cnt_resume_o;
    s->errors += qo->cnt_err_o + po->cnt_err_o;
    s->drops += e->drops;
    s->parked += e->parked;
    s->skips += e->skips;
}
