/* C twin of rtl/edge/edge_preempt.sv (EDGE Sec. IV-D): same state, same
 * decisions, same cycle.  Slot sets are 64-bit masks; the age order is one
 * 64-bit row per slot (older[i] bit j: slot i was allocated before slot j),
 * the full antisymmetric matrix whose upper triangle the RTL stores.  The
 * selection tournament reads it at the same steps as the RTL. */
#include "edge_preempt.h"

#include <stdlib.h>

#define PRE_G 8 /* tournament group size (the RTL's G) */

typedef struct {
    edge_preempt_params p;
    uint64_t m_nw, m_slot, m_regs, m_cyc; /* port / register masks */
    /* per-slot tables */
    uint64_t older[64];
    uint64_t regs[64], evregs[64];
    /* slot sets */
    uint64_t event, vict, skip, saved, pend;
    /* selection (e_q eb_q en_q pol_q cheap_q bsk_q, cand_q, gw_q gany_q, pair_q, dist_q),
     * steps sel 1..5; group winners as indices (the RTL keeps them one-hot); the pick
     * goes to victim at step 4 */
    unsigned sel, ng;
    uint64_t e, eb, en, cand;
    bool pol_newest, cheap, bsk, dist;
    unsigned gw[8], gany;
    bool pair[8][8];
    uint64_t gwin;    /* the group winners of step 3 on, 3 bits each (grp_win_o; reset, unlike gw) */
    uint64_t pgrp;    /* the pick's group, one-hot, the cycle after its load (pick_grp_o) */
    /* preemption FSM */
    unsigned st;
    uint64_t victim, vstat, opt, ereg, cnt;
    bool first, skipped;
    /* victim sets (SET_MAX > 1): sn (slot i and i + 1 hold warps of one
     * allocation), the set size of the selection (kset) and its windows'
     * members (em), then the set under flush: head slot, members, members
     * after the current one, members taken out of their barrier, the head's
     * skip flag, current member is the head, unwinding; comp: parked
     * companions (members but the head) until their event exits */
    uint64_t sn, em, mset, skm, comp;
    unsigned kset, kleft, hidx;
    bool hskip, athead, unw;
    /* restore FSM */
    bool rbusy;
    uint64_t rslot, rcnt;
    /* command port, errors, counters */
    uint64_t cmd, cmd_slot, cmd_arg;
    bool err_v;
    uint64_t err_code, cnt_err, cnt_abort, cnt_sfree, cnt_spre, cnt_res;
} pre_twin;

const char *const edge_preempt_policy_names[] = {"oldest", "newest", "cheapest", NULL};

void edge_preempt_params_default(edge_preempt_params *p) { *p = (edge_preempt_params){64, 6, 7, 16, 1, 1}; }

static uint64_t mask(unsigned w) { return w >= 64 ? ~0ULL : (1ULL << w) - 1; }
static uint64_t bit(uint64_t v, uint64_t i) { return (v >> i) & 1; }

void edge_preempt_victim_bits(edge_preempt_in_t *in, uint64_t victim) {
    unsigned v = (unsigned)(victim & 63);
    in->v_left_i = bit(in->w_exit_i, v) || !bit(in->w_live_i, v);
    in->v_bar_i = bit(in->w_bar_i, v);
    in->v_ld_i = bit(in->w_ld_i, v);
    in->p_left_i = in->v_left_i, in->p_bar_i = in->v_bar_i, in->p_ld_i = in->v_ld_i;
}
/* rows start as "lower slot older": bits above i */
static uint64_t above(unsigned i) { return i >= 63 ? 0 : ~0ULL << (i + 1); }

static void *pre_new(const void *params) {
    const edge_preempt_params *p = params;
    unsigned lg = 0;
    while (p->nw > 1 && (1u << lg) < p->nw) lg++;
    if (p->nw < 2 || p->nw > 64 || p->slot_w != lg || p->regs_w < 1 || p->regs_w > 16 ||
        p->cyc_w < 1 || p->cyc_w > 32 || p->age_rows > 1 || p->set_max < 1 || p->set_max > 4)
        return NULL;
    pre_twin *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->p = *p;
    t->m_nw = mask(p->nw);
    t->m_slot = mask(p->slot_w);
    t->m_regs = mask(p->regs_w);
    t->m_cyc = mask(p->cyc_w);
    t->ng = (p->nw + PRE_G - 1) / PRE_G;
    return t;
}

static void pre_reset(void *tp) {
    pre_twin *t = tp;
    for (unsigned i = 0; i < 64; i++) { /* evregs: no reset, as in the RTL (zero from pre_new) */
        t->older[i] = above(i) & t->m_nw;
        t->regs[i] = 0;
    }
    t->event = t->vict = t->skip = t->saved = t->pend = 0;
    t->st = PRE_ST_IDLE;
    t->sel = 0; /* the tournament's registers have no reset, as in the RTL */
    t->gwin = t->pgrp = 0; /* but the two outputs have */
    t->victim = t->vstat = t->opt = t->ereg = t->cnt = 0;
    t->first = t->skipped = false;
    t->sn = t->comp = 0; /* em, mset, skm, kset, kleft, hidx, hskip, athead: qualified, as in the RTL */
    t->unw = false;
    t->rbusy = false;
    t->rslot = t->rcnt = 0;
    t->cmd = t->cmd_slot = t->cmd_arg = 0;
    t->err_v = false;
    t->err_code = t->cnt_err = t->cnt_abort = t->cnt_sfree = t->cnt_spre = t->cnt_res = 0;
}

static void pre_outputs(const void *tp, void *op) {
    const pre_twin *t = tp;
    edge_preempt_out_t *o = op;
    o->cmd_o = t->cmd;
    o->cmd_slot_o = t->cmd_slot;
    o->cmd_arg_o = t->cmd_arg;
    o->state_o = t->st;
    o->victim_o = t->victim;
    o->grp_win_o = t->gwin;
    o->pick_grp_o = t->pgrp;
    o->vstat_o = t->vstat;
    o->event_mask_o = t->event;
    o->victim_mask_o = t->vict;
    o->err_valid_o = t->err_v;
    o->err_code_o = t->err_code;
    o->cnt_err_o = t->cnt_err;
    o->cnt_start_free_o = t->cnt_sfree;
    o->cnt_start_pre_o = t->cnt_spre;
    o->cnt_abort_o = t->cnt_abort;
    o->cnt_resume_o = t->cnt_res;
}

/* lowest set bit; 0 for an empty set (the RTL's first1) */
static unsigned first1(uint64_t v) {
    for (unsigned i = 0; i < 64; i++)
        if (bit(v, i)) return i;
    return 0;
}

static uint64_t save_cycles(const pre_twin *t, uint64_t base, uint64_t per_reg, uint64_t regs) {
    uint64_t s = base + regs * per_reg;
    return s > t->m_cyc ? t->m_cyc : s;
}

static uint64_t sat(uint64_t c, uint64_t n, uint64_t max) { return c + n > max ? max : c + n; }

static void pre_step(void *tp, const void *ip) {
    pre_twin *t = tp;
    const edge_preempt_in_t *in = ip;
    const unsigned nw = t->p.nw;

    /* ---- inputs, masked to their widths ---- */
    bool en = in->cfg_en_i & 1;
    unsigned pol = in->cfg_policy_i & 3, opt = in->cfg_opt_i & 15;
    uint64_t base = in->cfg_save_base_i & t->m_cyc, per_reg = in->cfg_save_per_reg_i & 0xff;
    bool req = in->req_valid_i & 1;
    uint64_t req_regs = in->req_regs_i & t->m_regs;
    bool free_ctx = in->free_ctx_i & 1, rf_free = in->rf_free_i & 1;
    uint64_t free_slot = in->free_slot_i & t->m_slot;
    uint64_t alloc = in->w_alloc_i & t->m_nw, alloc_regs = in->w_alloc_regs_i & t->m_regs;
    uint64_t live = in->w_live_i & t->m_nw, wexit = in->w_exit_i & t->m_nw;
    uint64_t bar = in->w_bar_i & t->m_nw, ld = in->w_ld_i & t->m_nw;
    bool v_pipe = in->v_pipe_i & 1, v_sb = in->v_sb_i & 1, v_ibuf = in->v_ibuf_i & 1;
    bool v_imiss = in->v_imiss_i & 1, v_ldok = in->v_ldok_i & 1;
    bool v_left = in->v_left_i & 1, v_bar = in->v_bar_i & 1, v_ld = in->v_ld_i & 1;
    bool p_left = in->p_left_i & 1, p_bar = in->p_bar_i & 1, p_ld = in->p_ld_i & 1; /* the pick's, read at step 5 */
    bool ev_exit = in->ev_exit_i & 1;
    uint64_t ev_slot = in->ev_exit_slot_i & t->m_slot;

    /* ---- victim selection ---- */
    uint64_t regs_ge = 0;
    for (unsigned i = 0; i < nw; i++)
        if (t->regs[i] >= req_regs) regs_ge |= 1ULL << i;
    uint64_t base_e = live & ~wexit & ~t->event & ~t->vict;
    uint64_t elig = base_e & regs_ge;
    /* no single victim: the heads of the smallest contiguous sets that cover
     * the need (k warps of one allocation, adjacent slots, k x regs >= need) */
    uint64_t etier = elig, emem = elig;
    unsigned ktier = 1;
    if (!elig && t->p.set_max > 1) {
        uint64_t win = base_e; /* bit h: slots h .. h + k - 1 all free to take, one allocation */
        for (unsigned k = 2; k <= t->p.set_max; k++) {
            win &= (t->sn >> (k - 2)) & (base_e >> (k - 1));
            uint64_t thr = (req_regs + k - 1) / k, heads = 0;
            for (unsigned i = 0; i < nw; i++)
                if (bit(win, i) && t->regs[i] >= thr) heads |= 1ULL << i;
            if (heads) {
                etier = heads, ktier = k, emem = 0;
                for (unsigned j = 0; j < k; j++) emem |= heads << j;
                break;
            }
        }
    }
    /* the candidates of the selection's first edge (RTL cand, step 1) */
    uint64_t cand = t->e;
    if (t->cheap) {
        if (t->bsk && t->eb) cand = t->eb;
        else if (t->en) cand = t->en;
    }

    /* ---- selection tournament: the step of this cycle (RTL gw_d / pair_d / pick_d) ---- */
    const unsigned ng = t->ng;
    unsigned gw_d[8] = {0}, gany_d = 0, pick_d = 0;
    bool pair_d[8][8] = {{false}};
    if (t->sel == 2) { /* within each group, the candidate none of the group beats */
        for (unsigned g = 0; g < ng; g++) {
            bool found = false;
            for (unsigned x = 0; x < PRE_G; x++) {
                unsigned i = g * PRE_G + x;
                if (i >= nw || !bit(t->cand, i)) continue;
                gany_d |= 1u << g;
                bool beaten = false;
                for (unsigned y = 0; y < PRE_G; y++) {
                    unsigned j = g * PRE_G + y;
                    if (j < nw && j != i && bit(t->cand, j) && (t->pol_newest ? bit(t->older[i], j) : bit(t->older[j], i)))
                        beaten = true;
                }
                if (!beaten && !found) gw_d[g] = x, found = true;
            }
        }
    } else if (t->sel == 3) { /* per group pair: is a's winner older than b's? */
        for (unsigned a = 0; a < ng; a++)
            for (unsigned b = a + 1; b < ng; b++) {
                unsigned i = a * PRE_G + t->gw[a], j = b * PRE_G + t->gw[b];
                pair_d[a][b] = i < nw && j < nw && bit(t->older[i], j);
            }
    } else if (t->sel == 4) { /* the group whose winner beats all others */
        for (int a = (int)ng - 1; a >= 0; a--) {
            bool ok = t->gany >> a & 1;
            for (unsigned b = 0; b < ng; b++) {
                if (b == (unsigned)a) continue;
                bool a_older = (unsigned)a < b ? t->pair[a][b] : !t->pair[b][a];
                ok = ok && (!(t->gany >> b & 1) || (t->pol_newest ? !a_older : a_older));
            }
            if (ok) pick_d = (unsigned)a * PRE_G + t->gw[a];
        }
    }
    bool p_alive = !p_left && !t->dist; /* at step 5 victim_o is the pick */
    /* the next member of a set: one allocation with this one, live, not exiting */
    unsigned vn = (unsigned)t->victim + 1;
    bool next_ok = vn < nw && bit(t->sn, t->victim) && bit(live, vn) && !bit(wexit, vn);
    /* step 4's pick becomes victim_o unless the selection is void already */
    bool pick_load = t->sel == 4 && !t->dist;

    /* ---- preemption FSM ---- */
    uint64_t v = t->victim;
    bool drained = !v_pipe && !v_ibuf && !v_imiss && !v_bar && !v_ld;
    uint64_t skip_arg = t->skipped ? PRE_ARG_SKIPPED : 0;
    unsigned st_d = t->st;
    uint64_t pcmd = PRE_CMD_NONE, pslot = 0, parg = 0;
    unsigned sel_d = 0;
    bool sel_load = false, sel_flush = false, start_free = false, start_pre = false, do_skip = false,
         to_save = false, do_abort = false, step_fwd = false, step_back = false, unw_on = false;
    bool hsk = t->athead ? t->skipped : t->hskip; /* the head's skip flag (START's arg) */
    switch (t->st) {
    case PRE_ST_IDLE:
        if (req && free_ctx) {
            pcmd = PRE_CMD_START, pslot = free_slot, st_d = PRE_ST_WAIT, start_free = true;
        } else if (req && en) {
            if (t->sel == 0 || (t->sel == 1 && !t->e)) {
                sel_load = true, sel_d = 1; /* (again) the eligible warps of this edge */
            } else if (t->sel != 5) {
                sel_d = t->sel + 1;
            } else if (p_alive) {
                pcmd = PRE_CMD_FLUSH, pslot = v, parg = opt, st_d = PRE_ST_FLUSH, sel_flush = true;
            } else {
                sel_load = true, sel_d = 1; /* the pick is gone: start again from this edge */
            }
        }
        break;
    case PRE_ST_FLUSH:
        pslot = v;
        if (t->unw) { /* a set given up: ABORT its members back to the head */
            pcmd = PRE_CMD_ABORT, parg = bit(t->skm, v) ? PRE_ARG_SKIPPED : 0, do_abort = true;
            if (t->athead) st_d = PRE_ST_IDLE;
            else step_back = true;
        } else if (v_left || (drained && t->kleft && !next_ok)) {
            /* the victim left, or the set's next member is gone */
            pcmd = PRE_CMD_ABORT, parg = skip_arg, do_abort = true;
            if (t->athead) st_d = PRE_ST_IDLE;
            else step_back = unw_on = true;
        } else if ((t->opt & PRE_OPT_BARSKIP) && v_bar && !t->skipped) {
            pcmd = PRE_CMD_SKIPBAR, do_skip = true;
        } else if ((t->opt & PRE_OPT_DROP) && v_ld && v_ldok) {
            pcmd = PRE_CMD_DROP;
        } else if (drained) {
            if (t->kleft) { /* on to the set's next member */
                pcmd = PRE_CMD_FLUSH, pslot = vn, parg = t->opt, step_fwd = true;
            } else if (rf_free) {
                pcmd = PRE_CMD_START, pslot = t->hidx, parg = PRE_ARG_PREEMPTED | (hsk ? PRE_ARG_SKIPPED : 0);
                st_d = PRE_ST_WAIT, start_pre = true;
            } else {
                st_d = PRE_ST_SAVE, to_save = true;
            }
        }
        break;
    case PRE_ST_SAVE:
        if (t->cnt == 0) {
            pcmd = PRE_CMD_START, pslot = t->hidx;
            parg = PRE_ARG_PREEMPTED | PRE_ARG_SAVED | (hsk ? PRE_ARG_SKIPPED : 0);
            st_d = PRE_ST_WAIT, start_pre = true;
        }
        break;
    default:
        st_d = PRE_ST_IDLE;
    }

    /* ---- restore FSM ---- */
    unsigned rpick = first1(t->pend);
    uint64_t rload_n = bit(t->saved, rpick) ? save_cycles(t, base, per_reg, t->evregs[rpick]) : 0;
    bool rload = !t->rbusy && t->pend;
    bool rfire = t->rbusy && t->rcnt == 0 && pcmd == PRE_CMD_NONE;
    uint64_t rarg = PRE_ARG_PREEMPTED | (bit(t->saved, t->rslot) ? PRE_ARG_SAVED : 0) |
                    (bit(t->skip, t->rslot) ? PRE_ARG_SKIPPED : 0);

    /* ---- events, errors ---- */
    bool exit_known = ev_exit && bit(t->event, ev_slot);
    bool exit_unknown = ev_exit && !bit(t->event, ev_slot);
    bool alloc_busy = (alloc & (t->event | t->vict)) != 0;
    uint64_t ev_exit_oh = exit_known ? 1ULL << ev_slot : 0;
    /* the exiting event's parked companions (the slots above its own) */
    uint64_t ev_comp = 0;
    for (uint64_t c = ev_exit_oh, j = 1; j < t->p.set_max; j++) ev_comp |= c = (c << 1) & t->comp;
    uint64_t free_oh = start_free ? (1ULL << free_slot) & t->m_nw : 0;
    uint64_t pre_oh = start_pre ? 1ULL << t->hidx : 0;                    /* the event warp's slot */
    uint64_t pre_set = start_pre ? t->mset : 0;                            /* every member parks */
    uint64_t pre_skip = start_pre ? t->skm | (t->skipped ? 1ULL << v : 0) : 0;
    uint64_t res_oh = rfire ? 1ULL << t->rslot : 0;

    /* ---- the edge ---- */
    if (!alloc_busy) {
        for (unsigned i = 0; i < nw; i++) {
            if (bit(alloc, i)) {
                t->older[i] = alloc & above(i);
                t->regs[i] = alloc_regs;
            } else {
                t->older[i] |= alloc;
            }
        }
    }

    unsigned st_now = t->st; /* before the edge */
    t->event = (t->event & ~ev_exit_oh) | free_oh | pre_oh;
    t->pend = (t->pend | ((ev_exit_oh | ev_comp) & t->vict)) & ~res_oh;
    t->vict = (t->vict & ~res_oh) | pre_set;
    t->skip = (t->skip & ~res_oh) | pre_skip;
    t->saved = (t->saved & ~res_oh) | (st_now == PRE_ST_SAVE ? pre_set : 0);
    t->comp = (t->comp & ~ev_comp) | (pre_set & ~pre_oh); /* restore-pending from its event's exit on */
    /* the event's registers are timed at the head's restore, a companion's restore waits the base */
    if (start_pre || step_fwd) t->evregs[v] = t->athead ? t->ereg : 0;
    if (!alloc_busy) /* slots i and i + 1 of one allocation (an allocation naming either sets it) */
        t->sn = (t->sn & ~(alloc | alloc >> 1)) | (alloc & alloc >> 1);
    t->sn &= t->m_nw >> 1;

    if (sel_load) t->dist = false;
    else if (t->sel && t->sel != 5 && !alloc_busy && (t->em & alloc)) t->dist = true; /* before e changes */
    if (sel_load) {
        t->e = etier, t->eb = etier & bar, t->en = etier & ~ld, t->em = emem, t->kset = ktier;
        t->pol_newest = pol == PRE_POL_NEWEST, t->cheap = pol == PRE_POL_CHEAPEST;
        t->bsk = (opt & PRE_OPT_BARSKIP) != 0;
    }
    if (t->sel == 1) t->cand = cand;
    if (t->sel == 2) {
        for (unsigned g = 0; g < ng; g++) t->gw[g] = gw_d[g];
        t->gany = gany_d;
    }
    if (t->sel == 3) {
        for (unsigned a = 0; a < ng; a++)
            for (unsigned b = 0; b < ng; b++) t->pair[a][b] = pair_d[a][b];
        t->gwin = 0;
        for (unsigned g = 0; g < ng; g++) t->gwin |= (uint64_t)t->gw[g] << (3 * g);
    }
    if (pick_load) t->victim = pick_d;
    if (step_fwd) t->victim = vn;
    if (step_back) t->victim = v - 1;
    t->pgrp = pick_load ? 1ULL << (pick_d / PRE_G) : 0;
    t->sel = sel_d;

    bool first_now = t->first;
    t->st = st_d;
    t->first = sel_flush;
    if (sel_flush) {
        t->vstat = (p_bar ? PRE_VS_BAR : 0) | (p_ld ? PRE_VS_LOAD : 0);
        t->skipped = false;
        t->opt = opt;
        t->ereg = req_regs;
        t->hidx = v, t->kleft = t->kset - 1, t->skm = 0, t->athead = true;
        t->mset = 0;
        for (unsigned j = 0; j < t->kset; j++) t->mset |= (1ULL << v) << j;
    }
    if (step_fwd) {
        if (t->athead) t->hskip = t->skipped;
        t->skm |= t->skipped ? 1ULL << v : 0;
        t->skipped = false, t->athead = false, t->kleft--;
    }
    if (step_back) t->athead = v - 1 == t->hidx;
    if (unw_on) t->unw = true;
    else if (st_d != PRE_ST_FLUSH) t->unw = false;
    if (first_now && st_now == PRE_ST_FLUSH)
        t->vstat |= (v_ibuf ? PRE_VS_IBUF : 0) | (v_bar ? PRE_VS_BAR : 0) |
                    (v_imiss ? PRE_VS_IMISS : 0) | (v_ld ? PRE_VS_LOAD : 0) |
                    (v_sb ? PRE_VS_SB : 0) | (v_pipe ? PRE_VS_PIPE : 0);
    if (do_skip) t->skipped = true;
    if (to_save) t->cnt = save_cycles(t, base, per_reg, t->ereg);
    else if (st_now == PRE_ST_SAVE && t->cnt) t->cnt--;

    if (rload) {
        t->rbusy = true;
        t->rslot = rpick;
        t->rcnt = rload_n;
    } else if (t->rbusy && t->rcnt) {
        t->rcnt--;
    } else if (rfire) {
        t->rbusy = false;
    }

    if (pcmd != PRE_CMD_NONE) {
        t->cmd = pcmd, t->cmd_slot = pslot, t->cmd_arg = parg;
    } else if (rfire) {
        t->cmd = PRE_CMD_RESUME, t->cmd_slot = t->rslot, t->cmd_arg = rarg;
    } else {
        t->cmd = PRE_CMD_NONE, t->cmd_slot = 0, t->cmd_arg = 0;
    }

    t->err_v = exit_unknown || alloc_busy;
    if (t->err_v) t->err_code = (alloc_busy ? PRE_ERR_ALLOC_BUSY : 0) | (exit_unknown ? PRE_ERR_EXIT_UNKNOWN : 0);
    t->cnt_err = sat(t->cnt_err, (uint64_t)exit_unknown + alloc_busy, 0xffff);

    if (start_free) t->cnt_sfree = sat(t->cnt_sfree, 1, 0xffffffffULL);
    if (start_pre) t->cnt_spre = sat(t->cnt_spre, 1, 0xffffffffULL);
    if (rfire) t->cnt_res = sat(t->cnt_res, 1, 0xffffffffULL);
    if (do_abort) t->cnt_abort = sat(t->cnt_abort, 1, 0xffff);
}

static void pre_free(void *tp) { free(tp); }

FG_BLOCK_CLASS(edge_preempt, "edge_preempt", EDGE_PREEMPT_INPUTS, EDGE_PREEMPT_OUTPUTS, pre);
