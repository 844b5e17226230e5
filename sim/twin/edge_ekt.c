/* C twin of rtl/edge/edge_ekt.sv: same state, same decisions, same cycle.
 * Comments name the RTL signal each value mirrors. */
#include "edge_ekt.h"

#include <stdlib.h>
#include <string.h>

#include "fg_prims.h"

typedef struct { /* one SRAM row */
    uint64_t kptr, base, head, size, end, dims[6], shmem, prio, maxe, infl, single;
} ekt_entry;

typedef struct { /* one descriptor FIFO word */
    uint64_t id, kptr, param, dims[6], shmem, prio;
} ekt_desc;

typedef struct {
    edge_ekt_params p;
    uint64_t m_addr, m_psize, m_dim, m_shmem, m_prio, m_maxev, m_id;
    fg_sram_c ram; /* rows of ekt_entry; ram.rdata mirrors rd */
    fg_fifo_c evw, pkq;
    fg_rr_c arb;
    unsigned state, op_id;
    uint64_t valid;
    bool ring_v, cpl_v, cmd_wait;
    unsigned ring_id, cpl_id;
    bool rsp_v;
    uint64_t rsp_status, rsp_id, rsp_head, rsp_infl;
    bool err_v;
    uint64_t err_code, err_id;
    uint64_t cnt_launch, cnt_unreg, cnt_overrun, cnt_cpl, status;
    bool c_v;          /* c_v_q: a host command was accepted at the last edge ... */
    edge_ekt_in_t c_in; /* ... with these port values (the RTL's command register) */
    bool c_short;       /* c_short_q: the buffer check of the REG carried out, for EKT_S_REG */
} ekt_twin;

void edge_ekt_params_default(edge_ekt_params *p) {
    *p = (edge_ekt_params){32, 64, 64, 32, 16, 2, 16, 32, 2};
}

static uint64_t mask(unsigned w) { return w >= 64 ? ~0ULL : (1ULL << w) - 1; }

static void *ekt_new(const void *params) {
    const edge_ekt_params *p = params;
    if (p->entries < 1 || p->entries > 64 || p->addr_w < 2 || p->addr_w > 64 || p->psize_w < 1 ||
        p->psize_w > 64 || p->dim_w < 1 || p->dim_w > 32 || p->shmem_w < 1 || p->shmem_w > 32 ||
        p->prio_w < 1 || p->prio_w > 8 || p->maxev_w < 1 || p->maxev_w > 32 ||
        p->warp_threads < 1 || p->warp_threads > 1024 || p->out_depth < 1 ||
        (1ull << p->dim_w) <= p->warp_threads) /* the RTL compares block dims with DIM_W'(WARP_THREADS) */
        return NULL;
    ekt_twin *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->p = *p;
    t->m_addr = mask(p->addr_w);
    t->m_psize = mask(p->psize_w);
    t->m_dim = mask(p->dim_w);
    t->m_shmem = mask(p->shmem_w);
    t->m_prio = mask(p->prio_w);
    t->m_maxev = mask(p->maxev_w);
    unsigned idw = 1;
    while ((1u << idw) < p->entries) idw++;
    t->m_id = mask(idw);
    if (fg_sram_c_init(&t->ram, sizeof(ekt_entry), p->entries) ||
        fg_fifo_c_init(&t->evw, sizeof(ekt_desc), p->out_depth) ||
        fg_fifo_c_init(&t->pkq, sizeof(ekt_desc), p->out_depth)) {
        fg_sram_c_free(&t->ram);
        fg_fifo_c_free(&t->evw);
        fg_fifo_c_free(&t->pkq);
        free(t);
        return NULL;
    }
    return t;
}

static void ekt_reset(void *tp) {
    ekt_twin *t = tp;
    fg_fifo_c_reset(&t->evw);
    fg_fifo_c_reset(&t->pkq);
    fg_rr_c_reset(&t->arb, 2);
    t->state = EKT_S_IDLE;
    t->op_id = 0;
    t->valid = 0;
    t->ring_v = t->cpl_v = t->cmd_wait = false;
    t->ring_id = t->cpl_id = 0;
    t->rsp_v = false;
    t->rsp_status = t->rsp_id = t->rsp_head = t->rsp_infl = 0;
    t->err_v = false;
    t->err_code = t->err_id = 0;
    t->cnt_launch = t->cnt_unreg = t->cnt_overrun = t->cnt_cpl = t->status = 0;
    t->c_v = false;
}

static bool cmd_ready(const ekt_twin *t) {
    return t->state == EKT_S_IDLE && !t->c_v && !t->rsp_v && (t->cmd_wait || (!t->ring_v && !t->cpl_v));
}

static void put_desc(uint64_t *id, uint64_t *kptr, uint64_t *param, uint64_t *dims, uint64_t *shmem,
                     uint64_t *prio, const ekt_desc *d) {
    *id = d->id;
    *kptr = d->kptr;
    *param = d->param;
    memcpy(dims, d->dims, sizeof d->dims);
    *shmem = d->shmem;
    *prio = d->prio;
}

static void ekt_outputs(const void *tp, void *op) {
    const ekt_twin *t = tp;
    edge_ekt_out_t *o = op;
    o->cmd_ready_o = cmd_ready(t);
    o->rsp_valid_o = t->rsp_v;
    o->rsp_status_o = t->rsp_status;
    o->rsp_id_o = t->rsp_id;
    o->rsp_head_o = t->rsp_head;
    o->rsp_inflight_o = t->rsp_infl;
    o->ring_ready_o = !t->ring_v;
    o->cpl_ready_o = !t->cpl_v;
    uint64_t dims[6];
    o->evw_valid_o = fg_fifo_c_valid(&t->evw);
    put_desc(&o->evw_id_o, &o->evw_kernel_ptr_o, &o->evw_param_addr_o, dims, &o->evw_shmem_o,
             &o->evw_prio_o, fg_fifo_c_head(&t->evw));
    o->evw_grid_x_o = dims[0], o->evw_grid_y_o = dims[1], o->evw_grid_z_o = dims[2];
    o->evw_block_x_o = dims[3], o->evw_block_y_o = dims[4], o->evw_block_z_o = dims[5];
    o->pkq_valid_o = fg_fifo_c_valid(&t->pkq);
    put_desc(&o->pkq_id_o, &o->pkq_kernel_ptr_o, &o->pkq_param_addr_o, dims, &o->pkq_shmem_o,
             &o->pkq_prio_o, fg_fifo_c_head(&t->pkq));
    o->pkq_grid_x_o = dims[0], o->pkq_grid_y_o = dims[1], o->pkq_grid_z_o = dims[2];
    o->pkq_block_x_o = dims[3], o->pkq_block_y_o = dims[4], o->pkq_block_z_o = dims[5];
    o->err_valid_o = t->err_v;
    o->err_code_o = t->err_code;
    o->err_id_o = t->err_id;
    o->registered_o = t->valid;
    o->cnt_launch_o = t->cnt_launch;
    o->cnt_err_unreg_o = t->cnt_unreg;
    o->cnt_err_overrun_o = t->cnt_overrun;
    o->cnt_err_cpl_o = t->cnt_cpl;
    o->err_status_o = t->status;
}

static bool id_ok(const ekt_twin *t, unsigned id) { return id < t->p.entries && (t->valid >> id & 1); }
static uint64_t sat(uint64_t c, uint64_t max) { return c == max ? c : c + 1; }

/* The RTL's ev_err: pulse, code and id, a saturating counter and a sticky
 * status bit per kind. */
static void error(ekt_twin *t, unsigned code, unsigned id) {
    t->err_v = true;
    t->err_code = code;
    t->err_id = id;
    if (code == EKT_ERR_UNREGISTERED) {
        t->cnt_unreg = sat(t->cnt_unreg, 0xffff);
        t->status |= 1;
    } else if (code == EKT_ERR_OVERRUN) {
        t->cnt_overrun = sat(t->cnt_overrun, 0xffff);
        t->status |= 2;
    } else {
        t->cnt_cpl = sat(t->cnt_cpl, 0xffff);
        t->status |= 4;
    }
}

static void ekt_step(void *tp, const void *ip) {
    ekt_twin *t = tp;
    const edge_ekt_in_t *in = ip;
    /* rd (the SRAM's registered read data) before this edge; a read below replaces it */
    const ekt_entry cur = *(const ekt_entry *)t->ram.rdata;
    const ekt_entry *r = &cur;

    /* ---- combinational values of the cycle before the edge ---- */
    bool cmd_rdy = cmd_ready(t);
    bool cmd_fire = (in->cmd_valid_i & 1) && cmd_rdy;
    /* the command carried out at this edge: the one accepted at the last */
    bool cmd_do = t->c_v;
    const edge_ekt_in_t *ci = &t->c_in;
    unsigned op = ci->cmd_op_i & 3, cid = (unsigned)(ci->cmd_id_i & t->m_id);
    bool arb_ack = t->state == EKT_S_IDLE && !cmd_fire && !cmd_do;
    uint64_t req = (uint64_t)t->ring_v | (uint64_t)t->cpl_v << 1;
    int g = fg_rr_c_pick(&t->arb, req);
    bool take_ring = arb_ack && g == 0, take_cpl = arb_ack && g == 1;

    ekt_entry nw = {0};
    nw.kptr = ci->cmd_kernel_ptr_i & t->m_addr;
    nw.base = nw.head = ci->cmd_param_base_i & t->m_addr;
    nw.size = ci->cmd_param_size_i & t->m_psize;
    nw.end = ci->cmd_param_end_i & t->m_addr;
    const uint64_t *dsrc[6] = {&ci->cmd_grid_x_i, &ci->cmd_grid_y_i, &ci->cmd_grid_z_i,
                               &ci->cmd_block_x_i, &ci->cmd_block_y_i, &ci->cmd_block_z_i};
    bool dim_zero = false;
    for (int i = 0; i < 6; i++) {
        nw.dims[i] = *dsrc[i] & t->m_dim;
        dim_zero |= nw.dims[i] == 0;
    }
    nw.shmem = ci->cmd_shmem_i & t->m_shmem;
    nw.prio = ci->cmd_prio_i & t->m_prio;
    nw.maxe = ci->cmd_max_events_i & t->m_maxev;
    uint64_t w = t->p.warp_threads;
    bool small = nw.dims[3] <= w && nw.dims[4] <= w && nw.dims[5] <= w;
    nw.single = nw.dims[0] == 1 && nw.dims[1] == 1 && nw.dims[2] == 1 && small &&
                nw.dims[3] * nw.dims[4] * nw.dims[5] <= w;
    bool reg_invalid = nw.kptr == 0 || (nw.kptr & 3) || nw.size == 0 || nw.end < nw.base ||
                       nw.maxe == 0 || dim_zero;
    bool reg_full = t->valid == mask(t->p.entries);
    /* c_short: the buffer holds (end - base) / size + 1
     * entries, fewer than maxNumEvents iff (maxNumEvents - 1) x size >
     * end - base, i.e. size > floor((end - base) / (maxNumEvents - 1)) */
    uint64_t span = (nw.end - nw.base) & t->m_addr, m = (nw.maxe - 1) & t->m_maxev;
    bool reg_short = m != 0 && nw.size > span / m;
    unsigned free_id = 0;
    while (free_id < t->p.entries && (t->valid >> free_id & 1)) free_id++;
    if (free_id >= t->p.entries) free_id = 0;

    bool overrun = t->state == EKT_S_LAUNCH && r->infl >= r->maxe;
    bool launch_rdy = r->single ? fg_fifo_c_ready(&t->evw) : fg_fifo_c_ready(&t->pkq);
    bool launch_go = t->state == EKT_S_LAUNCH && !overrun && launch_rdy;
    bool cpl_spurious = t->state == EKT_S_CPL && r->infl == 0;

    unsigned __int128 sum = (unsigned __int128)r->head + (r->size & mask(t->p.addr_w + 1 > 64 ? 64 : t->p.addr_w + 1));
    uint64_t head_next = sum > r->end ? r->base : (uint64_t)sum;

    ekt_desc d = {t->op_id, r->kptr, r->head, {0}, r->shmem, r->prio};
    memcpy(d.dims, r->dims, sizeof d.dims);

    /* ---- the edge: SRAM port ---- */
    ekt_entry wr = *r;
    if (cmd_do) {
        if (op == EKT_OP_REG) {
            if (!reg_invalid && !reg_full && !reg_short) fg_sram_c_edge(&t->ram, true, true, free_id, &nw);
        } else if (id_ok(t, cid) && (op == EKT_OP_UNREG || op == EKT_OP_READ)) {
            fg_sram_c_edge(&t->ram, true, false, cid, NULL);
        }
    } else if (take_ring) {
        if (id_ok(t, t->ring_id)) fg_sram_c_edge(&t->ram, true, false, t->ring_id, NULL);
    } else if (take_cpl) {
        if (id_ok(t, t->cpl_id)) fg_sram_c_edge(&t->ram, true, false, t->cpl_id, NULL);
    } else if (launch_go) {
        wr.head = head_next & t->m_addr;
        wr.infl = (wr.infl + 1) & t->m_maxev;
        fg_sram_c_edge(&t->ram, true, true, t->op_id, &wr);
    } else if (t->state == EKT_S_CPL && !cpl_spurious) {
        wr.infl = (wr.infl - 1) & t->m_maxev;
        fg_sram_c_edge(&t->ram, true, true, t->op_id, &wr);
    }

    /* ---- the edge: primitives ---- */
    fg_fifo_c_edge(&t->evw, launch_go && r->single, &d, in->evw_ready_i & 1);
    fg_fifo_c_edge(&t->pkq, launch_go && !r->single, &d, in->pkq_ready_i & 1);
    fg_rr_c_edge(&t->arb, req, arb_ack);

    /* ---- the edge: registers (RTL order) ---- */
    t->err_v = false;
    if (t->rsp_v && (in->rsp_ready_i & 1)) t->rsp_v = false;
    bool ring_rdy = !t->ring_v, cpl_rdy = !t->cpl_v;
    if ((in->ring_valid_i & 1) && ring_rdy) {
        t->ring_v = true;
        t->ring_id = (unsigned)(in->ring_id_i & t->m_id);
    }
    if ((in->cpl_valid_i & 1) && cpl_rdy) {
        t->cpl_v = true;
        t->cpl_id = (unsigned)(in->cpl_id_i & t->m_id);
    }
    t->cmd_wait = (in->cmd_valid_i & 1) && !cmd_rdy;
    t->c_v = cmd_fire;
    if (cmd_fire) t->c_in = *in;

    switch (t->state) {
    case EKT_S_IDLE:
        if (cmd_do) {
            t->op_id = cid;
            if (op == EKT_OP_REG) { /* EKT_S_REG answers; the payload is loaded now */
                bool ok = !reg_invalid && !reg_full;
                t->state = EKT_S_REG;
                t->op_id = free_id;
                t->c_short = reg_short;
                t->rsp_id = ok ? free_id : 0;
                t->rsp_head = ok ? nw.base : 0;
                t->rsp_infl = 0;
                t->rsp_status = reg_invalid ? EKT_RSP_INVALID : reg_full ? EKT_RSP_FULL : EKT_RSP_OK;
            } else if (id_ok(t, cid) && op != 3) {
                t->state = op == EKT_OP_UNREG ? EKT_S_UNREG : EKT_S_READ;
            } else {
                t->rsp_v = true;
                t->rsp_status = op == 3 ? EKT_RSP_INVALID : EKT_RSP_NOT_REGISTERED;
                t->rsp_id = cid;
                t->rsp_head = 0;
                t->rsp_infl = 0;
            }
        } else if (take_ring) {
            t->ring_v = false;
            t->op_id = t->ring_id;
            if (id_ok(t, t->ring_id)) t->state = EKT_S_LAUNCH;
            else error(t, EKT_ERR_UNREGISTERED, t->ring_id);
        } else if (take_cpl) {
            t->cpl_v = false;
            t->op_id = t->cpl_id;
            if (id_ok(t, t->cpl_id)) t->state = EKT_S_CPL;
            else error(t, EKT_ERR_CPL_UNREGISTERED, t->cpl_id);
        }
        break;
    case EKT_S_LAUNCH:
        if (overrun) {
            t->state = EKT_S_IDLE;
            error(t, EKT_ERR_OVERRUN, t->op_id);
        } else if (launch_go) {
            t->state = EKT_S_IDLE;
            t->cnt_launch = sat(t->cnt_launch, 0xffffffffULL);
        }
        break;
    case EKT_S_CPL:
        t->state = EKT_S_IDLE;
        if (cpl_spurious) error(t, EKT_ERR_SPURIOUS_CPL, t->op_id);
        break;
    case EKT_S_UNREG:
        t->state = EKT_S_IDLE;
        t->rsp_v = true;
        t->rsp_id = t->op_id;
        t->rsp_head = r->head;
        t->rsp_infl = r->infl;
        t->rsp_status = r->infl ? EKT_RSP_BUSY : EKT_RSP_OK;
        if (!r->infl) t->valid &= ~(1ULL << t->op_id);
        break;
    case EKT_S_READ:
        t->state = EKT_S_IDLE;
        t->rsp_v = true;
        t->rsp_id = t->op_id;
        t->rsp_head = r->head;
        t->rsp_infl = r->infl;
        t->rsp_status = EKT_RSP_OK;
        break;
    case EKT_S_REG:
        t->state = EKT_S_IDLE;
        t->rsp_v = true;
        if (t->rsp_status == EKT_RSP_OK && !t->c_short) {
            t->valid |= 1ULL << t->op_id;
        } else if (t->rsp_status == EKT_RSP_OK) { /* the buffer check failed */
            t->rsp_status = EKT_RSP_BUF_SHORT;
            t->rsp_id = 0;
            t->rsp_head = 0;
        }
        break;
    default:
        t->state = EKT_S_IDLE;
    }
}

static void ekt_free(void *tp) {
    ekt_twin *t = tp;
    fg_sram_c_free(&t->ram);
    fg_fifo_c_free(&t->evw);
    fg_fifo_c_free(&t->pkq);
    free(t);
}

FG_BLOCK_CLASS(edge_ekt, "edge_ekt", EDGE_EKT_INPUTS, EDGE_EKT_OUTPUTS, ekt);
