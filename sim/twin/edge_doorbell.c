/* C twin of rtl/edge/edge_doorbell.sv. */
#include "edge_doorbell.h"

#include <stdlib.h>

#include "fg_prims.h"

typedef struct {
    uint64_t addr, data;
} pt_word;

typedef struct { /* the RTL's decode stage (s_*_q): a write accepted at the last edge */
    bool v;
    uint64_t addr, data, off;
    bool below;
    unsigned region, stride;
} db_stage;

typedef struct {
    edge_doorbell_params p;
    uint64_t m_addr, m_data, m_id;
    fg_fifo_c ring, pt;
    db_stage s;
    bool err_v;
    uint64_t err_code, err_addr, cnt_rings, cnt_range, cnt_align, status;
} db_twin;

void edge_doorbell_params_default(edge_doorbell_params *p) {
    *p = (edge_doorbell_params){32, 64, 32, 16, 2};
}

static uint64_t mask(unsigned w) { return w >= 64 ? ~0ULL : (1ULL << w) - 1; }

static void *db_new(const void *params) {
    const edge_doorbell_params *p = params;
    if (p->entries < 1 || p->addr_w < 8 || p->addr_w > 64 || p->data_w < 1 || p->data_w > 64 ||
        p->ring_depth < 1 || p->pt_depth < 1)
        return NULL;
    db_twin *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->p = *p;
    t->m_addr = mask(p->addr_w);
    t->m_data = mask(p->data_w);
    unsigned idw = 1;
    while ((1u << idw) < p->entries) idw++;
    t->m_id = mask(idw);
    if (fg_fifo_c_init(&t->ring, sizeof(uint64_t), p->ring_depth) ||
        fg_fifo_c_init(&t->pt, sizeof(pt_word), p->pt_depth)) {
        fg_fifo_c_free(&t->ring);
        fg_fifo_c_free(&t->pt);
        free(t);
        return NULL;
    }
    return t;
}

static void db_reset(void *tp) {
    db_twin *t = tp;
    fg_fifo_c_reset(&t->ring);
    fg_fifo_c_reset(&t->pt);
    t->s.v = false; /* the stage's data has no reset, as in the RTL */
    t->err_v = false;
    t->err_code = t->err_addr = t->cnt_rings = t->cnt_range = t->cnt_align = t->status = 0;
}

/* wr_ready_o: both queues have room for the write in the decode stage and one more */
static bool wr_ready(const db_twin *t) {
    if (!t->s.v) return fg_fifo_c_ready(&t->ring) && fg_fifo_c_ready(&t->pt);
    return t->ring.count + 2 <= t->p.ring_depth && t->pt.count + 2 <= t->p.pt_depth;
}

static void db_outputs(const void *tp, void *op) {
    const db_twin *t = tp;
    edge_doorbell_out_t *o = op;
    o->wr_ready_o = wr_ready(t);
    o->pt_valid_o = fg_fifo_c_valid(&t->pt);
    const pt_word *w = fg_fifo_c_head(&t->pt);
    o->pt_addr_o = w->addr;
    o->pt_data_o = w->data;
    o->ring_valid_o = fg_fifo_c_valid(&t->ring);
    o->ring_id_o = *(const uint64_t *)fg_fifo_c_head(&t->ring);
    o->ring_count_o = t->ring.count;
    o->err_valid_o = t->err_v;
    o->err_code_o = t->err_code;
    o->err_addr_o = t->err_addr;
    o->cnt_rings_o = t->cnt_rings;
    o->cnt_err_range_o = t->cnt_range;
    o->cnt_err_align_o = t->cnt_align;
    o->err_status_o = t->status;
}

static uint64_t shr(uint64_t v, unsigned s) { return s >= 64 ? 0 : v >> s; }

static void db_step(void *tp, const void *ip) {
    db_twin *t = tp;
    const edge_doorbell_in_t *in = ip;
    bool fire = (in->wr_valid_i & 1) && wr_ready(t);

    /* stage 2: decode the write accepted at the last edge, under the
     * configuration it was accepted with */
    const db_stage *st = &t->s;
    bool in_region = st->v && !st->below && shr(st->off, st->region) == 0;
    uint64_t id = shr(st->off, st->stride);
    bool aligned = (st->off & (st->stride >= 64 ? ~0ULL : (1ULL << st->stride) - 1)) == 0;
    bool id_range = id < t->p.entries;
    bool ring_push = in_region && id_range && aligned;
    bool pt_push = st->v && !in_region;
    bool bad_range = in_region && !id_range;
    bool bad_align = in_region && id_range && !aligned;

    uint64_t rid = id & t->m_id;
    pt_word pw = {st->addr, st->data};
    fg_fifo_c_edge(&t->ring, ring_push, &rid, in->ring_ready_i & 1);
    fg_fifo_c_edge(&t->pt, pt_push, &pw, in->pt_ready_i & 1);

    t->err_v = bad_range || bad_align;
    if (t->err_v) {
        t->err_code = bad_range ? DB_ERR_RANGE : DB_ERR_ALIGN;
        t->err_addr = st->addr;
    }
    if (ring_push && t->cnt_rings != 0xffffffffULL) t->cnt_rings++;
    if (bad_range) {
        if (t->cnt_range != 0xffff) t->cnt_range++;
        t->status |= 1;
    }
    if (bad_align) {
        if (t->cnt_align != 0xffff) t->cnt_align++;
        t->status |= 2;
    }

    /* stage 1: the accepted write, its offset (with the borrow of addr < base)
     * and the configuration of this cycle */
    t->s.v = fire;
    if (fire) {
        uint64_t addr = in->wr_addr_i & t->m_addr, base = in->cfg_base_i & t->m_addr;
        t->s.addr = addr;
        t->s.data = in->wr_data_i & t->m_data;
        t->s.off = (addr - base) & t->m_addr;
        t->s.below = addr < base;
        t->s.region = (unsigned)(in->cfg_region_log2_i & 63);
        t->s.stride = (unsigned)(in->cfg_stride_log2_i & 63);
    }
}

static void db_free(void *tp) {
    db_twin *t = tp;
    fg_fifo_c_free(&t->ring);
    fg_fifo_c_free(&t->pt);
    free(t);
}

FG_BLOCK_CLASS(edge_doorbell, "edge_doorbell", EDGE_DOORBELL_INPUTS, EDGE_DOORBELL_OUTPUTS, db);
