/* C twin of rtl/edge/edge_pewt.sv: same state, same decisions, same cycle.
 * Every combinational value is computed from the state before the edge, then
 * all registers update together.  Comments name the RTL signal mirrored. */
#include "edge_pewt.h"

#include <stdlib.h>
#include <string.h>

#include "fg_prims.h"

typedef struct { /* one entry's payload (no reset in the RTL) */
    uint64_t kernel, param, tag, thr, regs, slot;
} pewt_entry;

typedef struct {
    edge_pewt_params p;
    uint64_t m_ent, m_addr, m_tag, m_slot, m_thr, m_regs;
    pewt_entry *e;     /* kernel_q, param_q, tag_q, thr_q, regs_q, slot_q */
    uint64_t pend;     /* bit i: g_ent[i].state_q == PEWT_ST_PENDING */
    uint64_t run;      /* bit i: g_ent[i].state_q == PEWT_ST_RUNNING */
    fg_fifo_c order;   /* u_order: entry indices in arrival order (uint8_t) */
    bool cpl_v;        /* cpl_v_q */
    uint64_t cpl_tag;  /* cpl_tag_q */
    uint64_t cpl_slot; /* cpl_slot_q */
    bool err_v;        /* err_v_q */
    uint64_t err_code, cnt_err, cnt_push;
} pewt_twin;

void edge_pewt_params_default(edge_pewt_params *p) { *p = (edge_pewt_params){4, 64, 64, 6, 6, 7}; }

static uint64_t mask(unsigned w) { return w >= 64 ? ~0ULL : (1ULL << w) - 1; }

static unsigned popcnt(uint64_t m) { return (unsigned)__builtin_popcountll(m); }

static void *pewt_new(const void *params) {
    const edge_pewt_params *p = params;
    if (p->entries < 1 || p->entries > 64 || p->addr_w < 1 || p->addr_w > 64 || p->tag_w < 1 ||
        p->tag_w > 64 || p->slot_w < 1 || p->slot_w > 32 || p->thr_w < 1 || p->thr_w > 64 ||
        p->regs_w < 1 || p->regs_w > 64)
        return NULL;
    pewt_twin *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->p = *p;
    t->m_ent = mask(p->entries);
    t->m_addr = mask(p->addr_w);
    t->m_tag = mask(p->tag_w);
    t->m_slot = mask(p->slot_w);
    t->m_thr = mask(p->thr_w);
    t->m_regs = mask(p->regs_w);
    t->e = calloc(p->entries, sizeof *t->e); /* read only once written (hd_*, cpl_tag) */
    if (!t->e || fg_fifo_c_init(&t->order, 1, p->entries)) {
        free(t->e);
        fg_fifo_c_free(&t->order);
        free(t);
        return NULL;
    }
    return t;
}

static void pewt_reset(void *tp) {
    pewt_twin *t = tp;
    fg_fifo_c_reset(&t->order); /* pointers only, as in the RTL */
    t->pend = t->run = 0;
    t->cpl_v = false;
    t->cpl_tag = t->cpl_slot = 0;
    t->err_v = false;
    t->err_code = t->cnt_err = t->cnt_push = 0;
    /* the payload keeps its contents: the RTL has no reset on it and gates
     * its writes with rst_ni */
}

static unsigned hd_idx(const pewt_twin *t) { return *(const uint8_t *)fg_fifo_c_head(&t->order); }

static void pewt_outputs(const void *tp, void *op) {
    const pewt_twin *t = tp;
    edge_pewt_out_t *o = op;
    uint64_t free_m = ~(t->pend | t->run) & t->m_ent;
    unsigned h = hd_idx(t);
    o->ev_ready_o = free_m != 0;
    o->hd_valid_o = fg_fifo_c_valid(&t->order);
    o->hd_idx_o = h;
    /* AND-OR of the decoded index over the PENDING entries: an index beyond
     * the entries, or nothing pending, reads 0 */
    const pewt_entry z = {0};
    const pewt_entry *e = h < t->p.entries && (t->pend >> h & 1) ? &t->e[h] : &z;
    o->hd_kernel_o = e->kernel;
    o->hd_param_o = e->param;
    o->hd_tag_o = e->tag;
    o->hd_threads_o = e->thr;
    o->hd_regs_o = e->regs;
    o->cpl_valid_o = t->cpl_v;
    o->cpl_tag_o = t->cpl_tag;
    o->cpl_slot_o = t->cpl_slot;
    o->n_pending_o = t->order.count;
    o->n_running_o = popcnt(t->run);
    o->n_free_o = popcnt(free_m);
    o->err_valid_o = t->err_v;
    o->err_code_o = t->err_code;
    o->cnt_err_o = t->cnt_err;
    o->cnt_push_o = t->cnt_push;
}

static void pewt_step(void *tp, const void *ip) {
    pewt_twin *t = tp;
    const edge_pewt_in_t *in = ip;

    /* ---- combinational values of the cycle before the edge ---- */
    uint64_t free_m = ~(t->pend | t->run) & t->m_ent;
    unsigned free_idx = free_m ? (unsigned)__builtin_ctzll(free_m) : 0;
    bool push = (in->ev_valid_i & 1) && free_m;
    uint64_t sslot = in->start_slot_i & t->m_slot, xslot = in->exit_slot_i & t->m_slot;
    bool start_v = in->start_valid_i & 1, exit_v = in->exit_valid_i & 1;
    uint64_t start_hit = 0, exit_hit = 0, exit_tag = 0;
    for (unsigned i = 0; i < t->p.entries; i++) {
        if (!(t->run >> i & 1)) continue;
        if (t->e[i].slot == sslot) start_hit |= 1ULL << i;
        if (t->e[i].slot == xslot) {
            exit_hit |= 1ULL << i;
            exit_tag |= t->e[i].tag;
        }
    }
    bool hd_valid = fg_fifo_c_valid(&t->order);
    unsigned h = hd_idx(t);
    bool exit_ok = exit_v && exit_hit, exit_err = exit_v && !exit_hit;
    bool start_empty = start_v && !hd_valid;
    bool start_busy = start_v && hd_valid && start_hit && !(exit_v && xslot == sslot);
    bool start_ok = start_v && hd_valid && !start_busy;
    bool any_err = start_empty || start_busy || exit_err;
    unsigned err_code = start_empty  ? PEWT_ERR_START_EMPTY
                        : start_busy ? PEWT_ERR_START_BUSY
                                     : PEWT_ERR_EXIT_UNKNOWN;
    unsigned n_err = (unsigned)(start_empty || start_busy) + (unsigned)exit_err;
    uint64_t push_oh = push ? 1ULL << free_idx : 0;
    uint64_t start_oh = start_ok ? 1ULL << h : 0;
    uint64_t exit_oh = exit_ok ? exit_hit : 0;

    /* ---- the edge: order FIFO ---- */
    uint8_t fi = (uint8_t)free_idx;
    fg_fifo_c_edge(&t->order, push, &fi, start_ok);

    /* ---- the edge: payload ---- */
    if (push) {
        pewt_entry *e = &t->e[free_idx];
        e->kernel = in->ev_kernel_i & t->m_addr;
        e->param = in->ev_param_i & t->m_addr;
        e->tag = in->ev_tag_i & t->m_tag;
        e->thr = in->ev_threads_i & t->m_thr;
        e->regs = in->ev_regs_i & t->m_regs;
    }
    if (start_ok) t->e[h].slot = sslot;

    /* ---- the edge: registers ---- */
    t->pend = ((t->pend & ~start_oh) | push_oh) & t->m_ent;
    t->run = ((t->run & ~exit_oh) | start_oh) & t->m_ent;
    t->cpl_v = exit_ok;
    if (exit_ok) {
        t->cpl_tag = exit_tag;
        t->cpl_slot = xslot;
    }
    t->err_v = any_err;
    if (any_err) t->err_code = err_code;
    t->cnt_err = t->cnt_err + n_err > 0xffff ? 0xffff : t->cnt_err + n_err;
    if (push && t->cnt_push != 0xffffffffULL) t->cnt_push++;
}

static void pewt_free(void *tp) {
    pewt_twin *t = tp;
    fg_fifo_c_free(&t->order);
    free(t->e);
    free(t);
}

FG_BLOCK_CLASS(edge_pewt, "edge_pewt", EDGE_PEWT_INPUTS, EDGE_PEWT_OUTPUTS, pewt);
