/* C twin of rtl/cm/cm_bal_monitor.sv (and its cm_cpu_central, cm_bal_core,
 * cm_bal_decide; the partitions' stall counts kept per partition, as in the
 * paper, where the RTL sums them as they arrive).  Every step computes the next
 * state from the current state and inputs, then commits.
 *
 * Each core is kept twice: core[] is its state as a one-cycle design would
 * hold it (the decision written at the interval end, core_step below), vis[]
 * what the RTL's registers and table hold, which only differs between an
 * interval end and the core's commit by the serial walk (c + 5 edges later):
 * there vis[] evolves without the interval-end update, and at the commit it
 * takes core[]'s value.  The RTL reaches the same state another way (the
 * decision from a snapshot, with the events since the interval end applied
 * on top of it); both are that of a one-cycle design from the commit on. */
#include "cm_bal_monitor.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static unsigned clog2u(uint64_t x) { /* SystemVerilog $clog2 */
    unsigned n = 0;
    while ((1ULL << n) < x) n++;
    return n;
}
static uint64_t maskw(unsigned w) { return w >= 64 ? ~0ULL : (1ULL << w) - 1; }

cm_bal_monitor_params cm_bal_monitor_defaults(unsigned p, unsigned c) {
    static const unsigned lv[] = {1, 2, 3, 4, 6, 8, 16, 24, 48}; /* CM Sec. 4.2 */
    cm_bal_monitor_params q = {.p = p, .c = c, .nsched = 2, .maxw = 48, .interval = 1024,
                               .th_q4 = 4, .tl_q4 = 1, .fine = 8, .nlvl = 9,
                               .explore_warps = 6, .explore_n = 4};
    memcpy(q.levels, lv, sizeof lv);
    return q;
}

typedef struct {
    uint64_t cnt, valid, lvl, stay, limit, why; /* cnt_q valid_q lvl_q stay_q limit_q why_q */
    uint64_t avg[CM_MAX_LVL];                   /* avg_q: no reset */
} core_st;

typedef struct {
    cm_bal_monitor_params p;
    unsigned cw, stw, sgw, kw, lw, liw, ciw;
    /* partitions */
    uint64_t mc[64], net[64];
    /* central */
    uint64_t cnt, lim, dec, smc, snet;
    core_st core[CM_MAX_CORES]; /* as decided at the interval end */
    core_st vis[CM_MAX_CORES];  /* as visible (the RTL's registers and table) */
    unsigned wk;                /* edges since the interval end while the walk commits (0: none) */
    /* top */
    uint64_t ivl, rd_lim, rd_lvl, rd_stay, rd_vld, rd_avg, rd_why;
} twin;

static bool params_ok(const cm_bal_monitor_params *p) {
    if (p->p < 1 || p->p > 64 || p->c < 1 || p->c > CM_MAX_CORES || p->nsched < 1 ||
        (uint64_t)p->c * p->nsched > 64 || p->interval < p->c + CM_BAL_COMMIT_EDGES /* the walk ends in the interval */ ||
        p->maxw < 1 || p->nlvl < 2 ||
        p->nlvl > CM_MAX_LVL || p->explore_n < 2 || p->fine < 1 || p->fine > p->maxw ||
        p->tl_q4 > p->th_q4 || p->th_q4 > 4ull * p->p || p->maxw > 255 /* LEVELS: 8-bit fields */)
        return false;
    unsigned lw = clog2u(p->maxw + 1ULL);
    if (p->maxw + 2ULL > maskw(lw)) return false; /* lim_q + 2 must not wrap */
    for (unsigned i = 0; i < p->nlvl; i++)
        if (p->levels[i] < 1 || p->levels[i] > p->maxw || (i && p->levels[i] <= p->levels[i - 1]))
            return false;
    return p->levels[p->nlvl - 1] == p->maxw;
}

static void *tw_new(const void *params) {
    const cm_bal_monitor_params *p = params;
    if (!params_ok(p)) return NULL;
    twin *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->p = *p;
    t->cw = clog2u(p->interval);
    t->stw = clog2u((uint64_t)p->p * p->interval);
    t->sgw = clog2u((uint64_t)p->nsched * p->interval);
    t->kw = t->sgw + 1;
    t->lw = clog2u(p->maxw + 1ULL);
    t->liw = clog2u(p->nlvl);
    t->ciw = p->c > 1 ? clog2u(p->c) : 1;
    return t;
}

static void tw_reset(void *v) {
    twin *t = v;
    memset(t->mc, 0, sizeof t->mc);
    memset(t->net, 0, sizeof t->net);
    t->cnt = 0;
    t->lim = t->p.maxw;
    t->dec = CM_DEC_HOLD;
    t->smc = t->snet = 0;
    for (unsigned c = 0; c < t->p.c; c++) {
        core_st *k = &t->core[c];
        k->cnt = k->valid = k->stay = 0;
        k->lvl = t->p.nlvl - 1;
        k->limit = t->p.maxw;
        k->why = CM_WHY_HOLD;
        /* the table RAM has no reset: a walk cut short by the reset never wrote it */
        memcpy(k->avg, t->vis[c].avg, sizeof k->avg);
        t->vis[c] = *k;
    }
    t->wk = 0;
    t->ivl = t->rd_lim = t->rd_lvl = t->rd_stay = t->rd_vld = t->rd_avg = t->rd_why = 0;
}

static void tw_outputs(const void *v, void *o) {
    const twin *t = v;
    cm_bal_monitor_out_t *out = o;
    out->interval_o = t->ivl;
    out->decision_o = t->dec;
    out->cpu_limit_o = t->lim;
    out->stall_mc_o = t->smc;
    out->stall_net_o = t->snet;
    out->rd_limit_o = t->rd_lim;
    out->rd_level_o = t->rd_lvl;
    out->rd_stay_o = t->rd_stay;
    out->rd_valid_o = t->rd_vld;
    out->rd_avg_o = t->rd_avg;
    out->rd_why_o = t->rd_why;
}

/* cm_bal_core next state; writes *n from *k (old state). */
static void core_step(const twin *t, const core_st *k, core_st *n, unsigned issue, bool kb, bool end,
                      unsigned dec, unsigned mode, uint64_t stat, uint64_t kk, uint64_t cpu_lim_d) {
    const cm_bal_monitor_params *p = &t->p;
    const unsigned sgw = t->sgw, top = p->nlvl - 1;
    const uint64_t smax = maskw(sgw), lvl = k->lvl;
    *n = *k;
    unsigned pop = (unsigned)__builtin_popcount(issue);
    uint64_t sample_full = k->cnt + pop;                    /* sample_full */
    uint64_t sample = sample_full > smax ? smax : sample_full;
    bool bal = mode == CM_MODE_BAL, upd = bal && end && !kb;
    bool vcur = k->valid >> lvl & 1;
    uint64_t cur = vcur ? ((k->avg[lvl] + 3 * sample) >> 2) & smax : sample;
    bool has_lo = !kb && lvl != 0 && (k->valid >> (lvl - 1) & 1);
    bool has_up = !kb && lvl != top && (k->valid >> (lvl + 1) & 1);
    uint64_t avg_lo = lvl != 0 ? k->avg[lvl - 1] : 0, avg_up = lvl != top ? k->avg[lvl + 1] : 0;
    bool p2_up = has_up && cur > avg_up + kk;
    bool p2_keep = has_lo && avg_lo > cur + kk;
    uint64_t nstay = kb ? 1 : k->stay + 1; /* a kernel boundary restarts the count */

    uint64_t p1 = lvl;
    if (dec == CM_DEC_DOWN && lvl != 0) p1 = lvl - 1;
    else if (dec == CM_DEC_UP && lvl != top) p1 = lvl + 1;
    uint64_t tgt = p1, lvl_d = lvl, stay_d = k->stay, why_d = k->why;
    if (!bal) {
        lvl_d = top;
        stay_d = 0;
    } else if (end) {
        if (p2_up) {
            tgt = lvl + 1;
            why_d = CM_WHY_P2UP;
        } else if (dec == CM_DEC_DOWN && p1 != lvl && p2_keep) {
            tgt = lvl;
            why_d = CM_WHY_KEEP;
        } else {
            why_d = p1 == lvl ? CM_WHY_HOLD : (p1 < lvl ? CM_WHY_DOWN : CM_WHY_UP);
        }
        if (tgt == lvl && nstay == p->explore_n) {
            if (p->levels[lvl] < p->explore_warps && lvl != top) {
                tgt = lvl + 1;
                why_d = CM_WHY_XUP;
            } else if (lvl != 0) {
                tgt = lvl - 1;
                why_d = CM_WHY_XDOWN;
            }
        }
        stay_d = (tgt == lvl && nstay != p->explore_n) ? nstay : 0;
        lvl_d = tgt;
    }
    if (kb) stay_d = 0;

    uint64_t limit_d;
    switch (mode) {
    case CM_MODE_OFF: limit_d = p->maxw; break;
    case CM_MODE_STATIC: limit_d = stat == 0 ? 1 : (stat > p->maxw ? p->maxw : stat); break;
    case CM_MODE_CPU: limit_d = cpu_lim_d; break;
    default: limit_d = p->levels[lvl_d]; break;
    }

    n->cnt = end ? 0 : sample;
    n->lvl = lvl_d;
    n->stay = stay_d;
    n->limit = limit_d;
    n->why = why_d;
    if (kb) n->valid = 0;
    else if (upd) n->valid |= 1ULL << lvl;
    if (upd) n->avg[lvl] = cur;
}

static void tw_step(void *v, const void *i) {
    twin *t = v;
    const cm_bal_monitor_in_t *in = i;
    const cm_bal_monitor_params *p = &t->p;
    const uint64_t cmax = maskw(t->cw);
    uint64_t smc_in = in->stall_mc_i & maskw(p->p), snet_in = in->stall_net_i & maskw(p->p);
    uint64_t issue = in->issue_stall_i & maskw(p->c * p->nsched);
    uint64_t kb = (in->kstart_i | in->kend_i) & maskw(p->c);
    unsigned mode = (unsigned)(in->mode_i & 3);
    uint64_t stat = in->static_i & maskw(t->lw), kk = in->k_i & maskw(t->kw);
    uint64_t rd_core = in->rd_core_i & maskw(t->ciw), rd_ent = in->rd_entry_i & maskw(t->liw);

    /* cm_cpu_central: interval end, sums, decision, CM-CPU limit */
    bool end = t->cnt == p->interval - 1;
    uint64_t sum_mc = 0, sum_net = 0;
    for (unsigned q = 0; q < p->p; q++) {
        sum_mc += t->mc[q] + (smc_in >> q & 1);
        sum_net += t->net[q] + (snet_in >> q & 1);
    }
    uint64_t th = (uint64_t)p->interval * p->th_q4 / 4, tl = (uint64_t)p->interval * p->tl_q4 / 4;
    unsigned dec = (sum_mc >= th || sum_net >= th) ? CM_DEC_DOWN
                   : (sum_mc < tl && sum_net < tl) ? CM_DEC_UP
                                                   : CM_DEC_HOLD;
    uint64_t lim_d = t->lim;
    if (mode != CM_MODE_CPU) {
        lim_d = p->maxw;
    } else if (end) {
        if (dec == CM_DEC_DOWN) {
            if (t->lim > p->fine) lim_d = t->lim - 2;
            else if (t->lim > 1) lim_d = t->lim - 1;
        } else if (dec == CM_DEC_UP) {
            if (t->lim < p->fine) lim_d = t->lim + 1;
            else lim_d = t->lim + 2 > p->maxw ? p->maxw : t->lim + 2;
        }
    }

    /* top: read port registers and interval strobe (from the old visible state) */
    bool rd_ok = rd_core < p->c, ent_ok = rd_ent < p->nlvl;
    const core_st *rc = rd_ok ? &t->vis[rd_core] : NULL;
    t->rd_lim = rc ? rc->limit : 0;
    t->rd_lvl = rc ? rc->lvl : 0;
    t->rd_stay = rc ? rc->stay : 0;
    t->rd_vld = rc ? rc->valid : 0;
    t->rd_why = rc ? rc->why : 0;
    t->rd_avg = (rc && ent_ok && (rc->valid >> rd_ent & 1)) ? rc->avg[rd_ent] : 0; /* 0 while not valid */
    t->ivl = end;

    /* cm_bal_core x C: the one-cycle state, and the visible one, which the
     * walk (edges 4 .. C + 3 after the interval end) sets to it, core by core */
    for (unsigned c = 0; c < p->c; c++) {
        core_st n, nv;
        unsigned iss = (unsigned)(issue >> (c * p->nsched) & maskw(p->nsched));
        core_step(t, &t->core[c], &n, iss, kb >> c & 1, end, dec, mode, stat, kk, lim_d);
        core_step(t, &t->vis[c], &nv, iss, kb >> c & 1, false, dec, mode, stat, kk, lim_d);
        t->core[c] = n;
        t->vis[c] = t->wk == c + CM_BAL_COMMIT_EDGES ? n : nv;
    }
    if (end) t->wk = 1;
    else if (t->wk) t->wk = t->wk == p->c + CM_BAL_COMMIT_EDGES - 1 ? 0 : t->wk + 1;

    /* per-partition stallMC / stallnet counters (CM Fig. 11 items 3, 4) */
    for (unsigned q = 0; q < p->p; q++) {
        if (end) {
            t->mc[q] = t->net[q] = 0;
        } else {
            if ((smc_in >> q & 1) && t->mc[q] != cmax) t->mc[q]++;
            if ((snet_in >> q & 1) && t->net[q] != cmax) t->net[q]++;
        }
    }

    /* central registers */
    t->cnt = end ? 0 : t->cnt + 1;
    t->lim = lim_d;
    if (end) {
        uint64_t stmax = maskw(t->stw);
        t->dec = dec;
        t->smc = sum_mc > stmax ? stmax : sum_mc;
        t->snet = sum_net > stmax ? stmax : sum_net;
    }
}

static void tw_free(void *v) { free(v); }

FG_BLOCK_CLASS(cm_bal_monitor, "cm_bal_monitor", CM_BAL_MONITOR_INPUTS, CM_BAL_MONITOR_OUTPUTS, tw);
