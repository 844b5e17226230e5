/* C twin of rtl/fe/fe_sched_queues.sv (with fe_bits, fe_trigger_check,
 * fe_watchdog): every combinational value is computed from the state before
 * the edge exactly as the RTL does, then all registers update together. */
#include "fe_sched_queues.h"

#include <stdlib.h>
#include <string.h>

#include "fg_prims.h"

const fe_sched_queues_params fe_sched_queues_default_params = {
    .addr_w = 32, .words = 32, .gran = 4, .region_base = 0, .region_lines = 256,
    .qd_nt = 8, .qd_cpu = 8, .qd_gpu = 8, .tag_w = 8, .wd_w = 16, .cnt_w = 32, .init_w = 16,
    .lk_reg = 0};

typedef struct { /* one queue entry (the RTL packs {tag, mask, addr, act, trig, we, src}) */
    uint64_t addr, mask;
    uint64_t tag; /* TAG_W <= 64 */
    uint8_t src, we, trig, act;
} fe_entry;

typedef struct {
    fe_sched_queues_params p;
    unsigned lb, ln_w, iw;
    uint64_t base_line;
    fg_fifo_c q[3];
    /* head bits */
    bool hbv[3];
    uint64_t hb[3];
    bool chk[3], sat[3]; /* registered check of the head bits (chk_q, sat_q) */
    uint64_t wd[3];  /* watchdog: consecutive blocked cycles (the RTL keeps this + 1, n_q) */
    bool wd_ge[3];   /* its registered compare (ge_q): wd >= the limit of the last cycle */
    /* outputs */
    bool out_valid, nack_valid;
    fe_entry out_e, nack_e;
    unsigned out_qid, nack_qid;
    uint64_t stall[3], releases, nacks;
    bool err, stall_mc;
    /* the action of the request that left at the last edge, written at this one */
    bool wr_pend;
    uint64_t wr_idx, wr_bits;
    /* fe_bits */
    fg_sram_c ram;
    bool busy, full, rvalid; /* rvalid, rqid: the RAM read at the last edge */
    uint64_t cur, left;
    unsigned rqid;
    /* lk_reg: the lookup's address register (read at the next edge) and the
     * data register (the read before, with the line written since) */
    bool avalid, ovalid;
    unsigned aqid, oqid;
    uint64_t aidx, ridx, odata;
} twin;

static uint64_t mk(unsigned w) { return w >= 64 ? ~0ULL : (1ULL << w) - 1; }
static unsigned clog2(uint64_t n) {
    unsigned b = 0;
    while ((1ULL << b) < n) b++;
    return b;
}

/* Relative line with a borrow bit (LN_W+1 bits), as rel_line() in the RTL. */
static uint64_t rel_line(const twin *t, uint64_t line) {
    return ((line & mk(t->ln_w)) - t->base_line) & mk(t->ln_w + 1);
}

static void geometry(const fe_sched_queues_params *p, unsigned *lb, unsigned *ln_w,
                     uint64_t *base_line) {
    *lb = clog2((uint64_t)p->words * p->gran);
    *ln_w = p->addr_w - *lb;
    *base_line = (p->region_base >> *lb) & mk(*ln_w);
}

bool fe_sched_in_region(const fe_sched_queues_params *p, uint64_t addr) {
    unsigned lb, ln_w;
    uint64_t base;
    geometry(p, &lb, &ln_w, &base);
    uint64_t rel = ((((addr & mk(p->addr_w)) >> lb) & mk(ln_w)) - base) & mk(ln_w + 1);
    return rel < p->region_lines;
}

unsigned fe_sched_queue_of(const fe_sched_queues_params *p, const fe_sched_queues_in_t *in,
                           unsigned *trig, unsigned *act) {
    unsigned tr = (unsigned)in->req_trig_i & 3, ac = (unsigned)in->req_act_i & 3;
    if (tr == 3) tr = FE_TRIG_NONE;
    if (ac == 3) ac = FE_ACT_NONE;
    if ((in->req_dflt_i & 1) && (in->req_src_i & 1)) { /* GPU defaults, Sec. 4.1 */
        tr = (in->req_we_i & 1) ? FE_TRIG_NONE : FE_TRIG_FULL;
        ac = (in->req_we_i & 1) ? FE_ACT_FILL : FE_ACT_NONE;
    }
    if (trig) *trig = tr;
    if (act) *act = ac;
    if (tr == FE_TRIG_NONE || !fe_sched_in_region(p, in->req_addr_i)) return FE_Q_NT;
    return (in->req_src_i & 1) ? FE_Q_GPU : FE_Q_CPU;
}

static bool params_ok(const fe_sched_queues_params *p) {
    uint64_t lbytes = (uint64_t)p->words * p->gran;
    return p->words >= 1 && p->words <= 64 && p->gran >= 1 && (lbytes & (lbytes - 1)) == 0 &&
           p->addr_w > clog2(lbytes) && p->addr_w <= 64 && p->region_lines >= 1 &&
           p->qd_nt >= 1 && p->qd_nt <= 255 && p->qd_cpu >= 1 && p->qd_cpu <= 255 &&
           p->qd_gpu >= 1 && p->qd_gpu <= 255 && p->tag_w >= 1 && p->tag_w <= 64 &&
           p->wd_w >= 1 && p->wd_w <= 63 && p->cnt_w >= 1 && p->cnt_w <= 64 && p->init_w >= 1 &&
           p->init_w <= 63 && (p->region_base & (lbytes - 1)) == 0 &&
           p->region_lines < (1ULL << p->init_w) && /* the reset clear counts lines in INIT_W bits */
           p->lk_reg <= 1;
}

static void tw_free(void *v) {
    twin *t = v;
    if (!t) return;
    for (int q = 0; q < 3; q++) fg_fifo_c_free(&t->q[q]);
    fg_sram_c_free(&t->ram);
    free(t);
}

static void *tw_new(const void *params) {
    const fe_sched_queues_params *p = params;
    if (!params_ok(p)) return NULL;
    twin *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->p = *p;
    geometry(p, &t->lb, &t->ln_w, &t->base_line);
    t->iw = p->region_lines > 1 ? clog2(p->region_lines) : 1;
    unsigned d[3] = {p->qd_nt, p->qd_cpu, p->qd_gpu};
    int bad = fg_sram_c_init(&t->ram, sizeof(uint64_t), p->region_lines);
    for (int q = 0; q < 3; q++) bad |= fg_fifo_c_init(&t->q[q], sizeof(fe_entry), d[q]);
    if (bad) {
        tw_free(t);
        return NULL;
    }
    return t;
}

/* Everything with a reset in the RTL; RAM and FIFO storage keep their data.
 * Reset starts the clear of the F/E store (fe_bits): every line marked empty,
 * one per cycle from the first edge after reset, busy meanwhile. */
static void tw_reset(void *v) {
    twin *t = v;
    for (int q = 0; q < 3; q++) {
        fg_fifo_c_reset(&t->q[q]);
        t->hbv[q] = false;
        t->hb[q] = 0;
        t->chk[q] = t->sat[q] = false;
        t->wd[q] = 0;
        t->wd_ge[q] = false;
        t->stall[q] = 0;
    }
    t->out_valid = t->nack_valid = false;
    memset(&t->out_e, 0, sizeof t->out_e);
    memset(&t->nack_e, 0, sizeof t->nack_e);
    t->out_qid = t->nack_qid = 0;
    t->releases = t->nacks = 0;
    t->err = t->stall_mc = false;
    t->full = t->rvalid = t->wr_pend = false;
    t->busy = true;
    t->cur = t->base_line;
    t->left = t->p.region_lines;
    t->rqid = 0;
    t->avalid = t->ovalid = false;
    t->aqid = t->oqid = 0;
}

/* Combinational view of the heads (fe_trigger_check + busy gating). */
typedef struct {
    bool valid[3], need[3], ok[3], blocked[3], hazard[3];
    bool hbv[3];    /* head bits valid (the head-bit registers) */
    uint64_t hb[3]; /* head bits as seen this cycle */
    uint64_t idx[3];
    const fe_entry *h[3];
} heads;

static void eval_heads(const twin *t, heads *hd) {
    for (int q = 0; q < 3; q++) {
        const fe_entry *e = fg_fifo_c_head(&t->q[q]);
        hd->h[q] = e;
        hd->valid[q] = fg_fifo_c_valid(&t->q[q]);
        uint64_t rel = rel_line(t, e->addr >> t->lb);
        hd->idx[q] = rel & mk(t->iw);
        bool in_region = rel < t->p.region_lines;
        hd->hbv[q] = t->hbv[q]; /* no bypass: a lookup's data goes into the head register first */
        hd->hb[q] = t->hb[q];
        hd->need[q] = hd->valid[q] && in_region && (e->trig != 0 || e->act != 0);
        /* the leave decision uses the check registered at the last edge */
        bool ok = hd->valid[q] && (!hd->need[q] || (t->chk[q] && t->sat[q]));
        bool blk = hd->need[q] && t->chk[q] && !t->sat[q];
        hd->hazard[q] = t->wr_pend && hd->need[q] && hd->idx[q] == t->wr_idx; /* its line is written now */
        hd->ok[q] = ok && !t->busy && !hd->hazard[q];
        hd->blocked[q] = blk && !t->busy;
    }
}

static void tw_outputs(const void *v, void *o) {
    const twin *t = v;
    fe_sched_queues_out_t *out = o;
    heads hd;
    eval_heads(t, &hd);
    uint64_t rdy = 0, blk = 0, cnt = 0;
    for (int q = 0; q < 3; q++) {
        if (!t->busy && fg_fifo_c_ready(&t->q[q])) rdy |= 1u << q;
        if (hd.blocked[q]) blk |= 1u << q;
        cnt |= (uint64_t)(t->q[q].count & 0xff) << (8 * q);
    }
    out->req_ready_o = rdy;
    out->stall_mc_o = t->stall_mc;
    out->out_valid_o = t->out_valid;
    out->out_src_o = t->out_e.src;
    out->out_we_o = t->out_e.we;
    out->out_trig_o = t->out_e.trig;
    out->out_act_o = t->out_e.act;
    out->out_addr_o = t->out_e.addr;
    out->out_mask_o = t->out_e.mask;
    out->out_tag_o = t->out_e.tag;
    out->out_q_o = t->out_qid;
    out->nack_valid_o = t->nack_valid;
    out->nack_src_o = t->nack_e.src;
    out->nack_we_o = t->nack_e.we;
    out->nack_trig_o = t->nack_e.trig;
    out->nack_act_o = t->nack_e.act;
    out->nack_addr_o = t->nack_e.addr;
    out->nack_mask_o = t->nack_e.mask;
    out->nack_tag_o = t->nack_e.tag;
    out->nack_q_o = t->nack_qid;
    out->init_ready_o = !t->busy;
    out->head_blocked_o = blk;
    out->q_count_o = cnt;
    out->stall_nt_o = t->stall[0];
    out->stall_cpu_o = t->stall[1];
    out->stall_gpu_o = t->stall[2];
    out->releases_o = t->releases;
    out->nacks_o = t->nacks;
    out->err_o = t->err;
}

static int first(const bool b[3]) { return b[0] ? 0 : b[1] ? 1 : 2; }

static void tw_step(void *v, const void *i) {
    twin *t = v;
    const fe_sched_queues_in_t *in = i;
    const fe_sched_queues_params *p = &t->p;
    const uint64_t cmask = mk(p->cnt_w);

    /* intake */
    unsigned trig, act;
    unsigned in_q = fe_sched_queue_of(p, in, &trig, &act);
    fe_entry ne = {.addr = in->req_addr_i & mk(p->addr_w), .mask = in->req_mask_i & mk(p->words),
                   .tag = in->req_tag_i & mk(p->tag_w), .src = in->req_src_i & 1,
                   .we = in->req_we_i & 1, .trig = (uint8_t)trig, .act = (uint8_t)act};
    bool req_valid = in->req_valid_i & 1;

    /* heads, leave (serve / NACK) */
    heads hd;
    eval_heads(t, &hd);
    uint64_t limit = in->wdog_limit_i & mk(p->wd_w);
    bool due[3], any_ok = false, any_due = false;
    for (int q = 0; q < 3; q++) {
        due[q] = hd.blocked[q] && t->wd_ge[q] && !hd.hazard[q]; /* limit of the last cycle */
        any_ok |= hd.ok[q];
        any_due |= due[q];
    }
    int dq = first(hd.ok), nq = first(due);
    bool disp = any_ok && (!t->out_valid || (in->out_ready_i & 1));
    bool nack = any_due && (!t->nack_valid || (in->nack_ready_i & 1));
    bool pop[3];
    for (int q = 0; q < 3; q++) pop[q] = (disp && dq == q) || (nack && nq == q);

    const fe_entry *de = hd.h[dq];
    bool act_wr = disp && hd.need[dq] && de->act != FE_ACT_NONE;
    uint64_t act_bits = de->act == FE_ACT_EMPTY ? (hd.hb[dq] & ~de->mask) : (hd.hb[dq] | de->mask);
    act_bits &= mk(p->words);

    bool cand[3], any_cand = false;
    for (int q = 0; q < 3; q++) {
        cand[q] = hd.need[q] && !t->busy && !t->hbv[q] && !(t->rvalid && t->rqid == (unsigned)q) &&
                  !(t->avalid && t->aqid == (unsigned)q) && !(t->ovalid && t->oqid == (unsigned)q);
        any_cand |= cand[q];
    }
    int lq = first(cand);
    /* fe_bits' busy after this edge */
    bool busy_d = t->busy ? (t->wr_pend || t->left != 1)
                          : ((in->init_valid_i & 1) && (in->init_lines_i & mk(p->init_w)) != 0);
    /* with lk_reg the lookup reads at the next edge: the port must be free then */
    bool lk = any_cand && !t->wr_pend && (!p->lk_reg || (!act_wr && !busy_d));
    /* the lookup the port serves this cycle */
    bool rd = p->lk_reg ? t->avalid : lk;
    uint64_t rd_idx = p->lk_reg ? t->aidx : hd.idx[lq];
    unsigned rd_qid = p->lk_reg ? t->aqid : (unsigned)lq;

    /* fe_bits port: the pending action write, the init, a lookup */
    uint64_t cur_rel = rel_line(t, t->cur);
    bool ram_req = false, ram_we = false;
    uint64_t ram_addr = rd_idx, ram_wdata = t->wr_bits;
    if (t->wr_pend) {
        ram_req = ram_we = true;
        ram_addr = t->wr_idx;
    } else if (t->busy) {
        ram_req = cur_rel < p->region_lines;
        ram_we = true;
        ram_addr = cur_rel & mk(t->iw);
        ram_wdata = t->full ? mk(p->words) : 0;
    } else if (rd) {
        ram_req = true;
    }
    bool snoop_we = ram_req && ram_we;
    /* the lookup whose data the heads take this cycle */
    bool arr = p->lk_reg ? t->ovalid : t->rvalid;
    unsigned arr_q = p->lk_reg ? t->oqid : t->rqid;
    uint64_t arr_data = p->lk_reg ? t->odata : *(const uint64_t *)t->ram.rdata;

    /* head-bit registers, releases */
    uint64_t hb_d[3];
    bool hbv_d[3], chk_d[3], sat_d[3];
    unsigned nrel = 0;
    for (int q = 0; q < 3; q++) {
        hb_d[q] = hd.hb[q];
        hbv_d[q] = hd.hbv[q];
        if (arr && arr_q == (unsigned)q) { /* the lookup's data arrives: capture */
            hb_d[q] = arr_data;
            hbv_d[q] = true;
        }
        bool hit = snoop_we && hd.need[q] && hbv_d[q] && hd.idx[q] == ram_addr;
        if (hit) hb_d[q] = ram_wdata;
        if (pop[q]) hbv_d[q] = false;
        /* the check of the bits the head has at the edge, unless fresh from the RAM */
        const fe_entry *e = hd.h[q];
        uint64_t m = (hit ? ram_wdata : t->hb[q]) & e->mask;
        sat_d[q] = e->trig == FE_TRIG_FULL ? m == e->mask : e->trig == FE_TRIG_EMPTY ? m == 0 : true;
        chk_d[q] = hbv_d[q] && (t->hbv[q] || hit);
        if (hd.blocked[q] && hit && sat_d[q]) nrel++;
    }

    /* registers */
    for (int q = 0; q < 3; q++) {
        t->hb[q] = hb_d[q];
        t->hbv[q] = hbv_d[q];
        t->chk[q] = chk_d[q];
        t->sat[q] = sat_d[q];
        t->stall[q] = (t->stall[q] + hd.blocked[q]) & cmask;
        /* fe_watchdog's ge_q: the count after this edge (if the head stays
         * blocked) against this cycle's limit */
        uint64_t wd_next = t->wd[q] == mk(p->wd_w) ? t->wd[q] : t->wd[q] + 1;
        t->wd_ge[q] = hd.blocked[q] && limit != 0 && wd_next >= limit;
        if (hd.blocked[q] && !pop[q]) {
            if (t->wd[q] != mk(p->wd_w)) t->wd[q]++;
        } else {
            t->wd[q] = 0;
        }
    }
    if (disp) {
        t->out_valid = true;
        t->out_e = *de;
        t->out_qid = (unsigned)dq;
    } else if (in->out_ready_i & 1) {
        t->out_valid = false;
    }
    if (nack) {
        t->nack_valid = true;
        t->nack_e = *hd.h[nq];
        t->nack_qid = (unsigned)nq;
    } else if (in->nack_ready_i & 1) {
        t->nack_valid = false;
    }
    t->releases = (t->releases + nrel) & cmask;
    t->nacks = (t->nacks + nack) & cmask;
    t->err |= nack;
    t->stall_mc = req_valid && !fg_fifo_c_ready(&t->q[in_q]);

    for (int q = 0; q < 3; q++)
        fg_fifo_c_edge(&t->q[q], req_valid && !t->busy && in_q == (unsigned)q, &ne, pop[q]);

    /* fe_bits registers (state before the edge: t->busy etc. still old) */
    bool was_busy = t->busy, was_wr = t->wr_pend;
    if (p->lk_reg) {
        if (t->rvalid)
            t->odata = snoop_we && ram_addr == t->ridx ? ram_wdata : *(const uint64_t *)t->ram.rdata;
        t->ovalid = t->rvalid;
        t->oqid = t->rqid;
        if (rd) t->ridx = rd_idx;
        t->avalid = lk;
        if (lk) {
            t->aidx = hd.idx[lq];
            t->aqid = (unsigned)lq;
        }
    }
    t->rvalid = rd && !was_busy && !was_wr;
    if (rd) t->rqid = rd_qid;
    t->wr_pend = act_wr;
    t->wr_idx = hd.idx[dq];
    t->wr_bits = act_bits;
    if (was_busy && !was_wr) {
        t->cur = (t->cur + 1) & mk(t->ln_w);
        t->left = (t->left - 1) & mk(p->init_w);
        if (t->left == 0) t->busy = false;
    } else if (!was_busy && (in->init_valid_i & 1) && (in->init_lines_i & mk(p->init_w)) != 0) {
        t->busy = true;
        t->full = in->init_full_i & 1;
        t->cur = ((in->init_addr_i & mk(p->addr_w)) >> t->lb) & mk(t->ln_w);
        t->left = in->init_lines_i & mk(p->init_w);
    }
    fg_sram_c_edge(&t->ram, ram_req, ram_we, (unsigned)ram_addr, &ram_wdata);
}

FG_BLOCK_CLASS(fe_sched_queues, "fe_sched_queues", FE_SCHED_QUEUES_INPUTS, FE_SCHED_QUEUES_OUTPUTS, tw);
