/* C twins of rtl/prim/: cycle-exact models of fg_fifo, fg_sram_sp, fg_rr_arb. */
#include "fg_prims.h"

#include <stdlib.h>
#include <string.h>

static uint64_t mask_bits(uint64_t v, unsigned w) { return w >= 64 ? v : v & ((1ULL << w) - 1); }

/* ------------------------------------------------------------- fg_fifo */
int fg_fifo_c_init(fg_fifo_c *f, size_t elem, unsigned depth) {
    memset(f, 0, sizeof *f);
    if (!elem || !depth) return -1;
    f->elem = elem;
    f->depth = depth;
    /* one element more, always zero: the head while empty (fg_fifo_c_head) */
    f->mem = calloc((size_t)depth + 1, elem);
    return f->mem ? 0 : -1;
}

void fg_fifo_c_free(fg_fifo_c *f) {
    free(f->mem);
    f->mem = NULL;
}

void fg_fifo_c_reset(fg_fifo_c *f) { f->wptr = f->rptr = f->count = 0; }

void fg_fifo_c_edge(fg_fifo_c *f, bool push, const void *data, bool pop) {
    push = push && fg_fifo_c_ready(f);
    pop = pop && fg_fifo_c_valid(f);
    if (push) {
        memcpy(f->mem + (size_t)f->wptr * f->elem, data, f->elem);
        f->wptr = (f->wptr + 1 == f->depth) ? 0 : f->wptr + 1;
    }
    if (pop) f->rptr = (f->rptr + 1 == f->depth) ? 0 : f->rptr + 1;
    f->count += (unsigned)push - (unsigned)pop;
}

typedef struct {
    fg_fifo_params p;
    fg_fifo_c f;
} fifo_twin;

static void *fifo_new(const void *params) {
    fifo_twin *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->p = *(const fg_fifo_params *)params;
    if (t->p.width < 1 || t->p.width > 64 || fg_fifo_c_init(&t->f, sizeof(uint64_t), t->p.depth)) {
        free(t);
        return NULL;
    }
    return t;
}
static void fifo_reset(void *p) { fg_fifo_c_reset(&((fifo_twin *)p)->f); }
static void fifo_outputs(const void *p, void *o) {
    const fifo_twin *t = p;
    fg_fifo_out_t *out = o;
    out->ready_o = fg_fifo_c_ready(&t->f);
    out->valid_o = fg_fifo_c_valid(&t->f);
    memcpy(&out->data_o, fg_fifo_c_head(&t->f), sizeof out->data_o);
    out->count_o = t->f.count;
}
static void fifo_step(void *p, const void *i) {
    fifo_twin *t = p;
    const fg_fifo_in_t *in = i;
    uint64_t d = mask_bits(in->data_i, t->p.width);
    fg_fifo_c_edge(&t->f, in->valid_i & 1, &d, in->ready_i & 1);
}
static void fifo_free(void *p) {
    fifo_twin *t = p;
    fg_fifo_c_free(&t->f);
    free(t);
}

FG_BLOCK_CLASS(fg_fifo, "fg_fifo", FG_FIFO_INPUTS, FG_FIFO_OUTPUTS, fifo);

/* ---------------------------------------------------------- fg_sram_sp */
int fg_sram_c_init(fg_sram_c *s, size_t elem, unsigned depth) {
    memset(s, 0, sizeof *s);
    if (!elem || !depth) return -1;
    s->elem = elem;
    s->depth = depth;
    s->mem = calloc(depth, elem);
    s->rdata = calloc(1, elem);
    return (s->mem && s->rdata) ? 0 : -1;
}

void fg_sram_c_free(fg_sram_c *s) {
    free(s->mem);
    free(s->rdata);
    s->mem = s->rdata = NULL;
}

void fg_sram_c_edge(fg_sram_c *s, bool req, bool we, unsigned addr, const void *wdata) {
    if (!req || addr >= s->depth) return; /* RTL asserts on an out-of-range address */
    if (we) memcpy(s->mem + (size_t)addr * s->elem, wdata, s->elem);
    else memcpy(s->rdata, s->mem + (size_t)addr * s->elem, s->elem);
}

typedef struct {
    fg_sram_params p;
    fg_sram_c s;
} sram_twin;

static void *sram_new(const void *params) {
    sram_twin *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->p = *(const fg_sram_params *)params;
    if (t->p.width < 1 || t->p.width > 64 || fg_sram_c_init(&t->s, sizeof(uint64_t), t->p.depth)) {
        free(t);
        return NULL;
    }
    return t;
}
static void sram_reset(void *p) { (void)p; /* no reset in the RTL either */ }
static void sram_outputs(const void *p, void *o) {
    const sram_twin *t = p;
    memcpy(&((fg_sram_out_t *)o)->rdata_o, t->s.rdata, sizeof(uint64_t));
}
static void sram_step(void *p, const void *i) {
    sram_twin *t = p;
    const fg_sram_in_t *in = i;
    uint64_t d = mask_bits(in->wdata_i, t->p.width);
    fg_sram_c_edge(&t->s, in->req_i & 1, in->we_i & 1, (unsigned)in->addr_i, &d);
}
static void sram_free(void *p) {
    sram_twin *t = p;
    fg_sram_c_free(&t->s);
    free(t);
}

FG_BLOCK_CLASS(fg_sram, "fg_sram_sp", FG_SRAM_INPUTS, FG_SRAM_OUTPUTS, sram);

/* ----------------------------------------------------------- fg_rr_arb */
void fg_rr_c_reset(fg_rr_c *a, unsigned n) {
    a->n = n;
    a->ptr = 0;
}

int fg_rr_c_pick(const fg_rr_c *a, uint64_t req) {
    for (unsigned i = 0; i < a->n; i++) {
        unsigned c = a->ptr + i;
        if (c >= a->n) c -= a->n;
        if (req >> c & 1) return (int)c;
    }
    return -1;
}

unsigned fg_rr_c_next(const fg_rr_c *a, uint64_t req, bool ack) {
    int g = fg_rr_c_pick(a, req);
    if (g < 0 || !ack) return a->ptr;
    return ((unsigned)g + 1 == a->n) ? 0 : (unsigned)g + 1;
}

void fg_rr_c_edge(fg_rr_c *a, uint64_t req, bool ack) { a->ptr = fg_rr_c_next(a, req, ack); }

typedef struct {
    fg_rr_c a;
    fg_rr_in_t last;
} rr_twin;

static void *rr_new(const void *params) {
    const fg_rr_params *p = params;
    if (p->n < 1 || p->n > 64) return NULL;
    rr_twin *t = calloc(1, sizeof *t);
    if (t) fg_rr_c_reset(&t->a, p->n);
    return t;
}
static void rr_reset(void *p) {
    rr_twin *t = p;
    fg_rr_c_reset(&t->a, t->a.n);
    memset(&t->last, 0, sizeof t->last);
}
static void rr_outputs(const void *p, void *o) {
    const rr_twin *t = p;
    fg_rr_out_t *out = o;
    int g = fg_rr_c_pick(&t->a, t->last.req_i);
    out->valid_o = g >= 0;
    out->gnt_o = g >= 0 ? 1ULL << g : 0;
    out->idx_o = g >= 0 ? (uint64_t)g : 0;
    out->ptr_d_o = fg_rr_c_next(&t->a, t->last.req_i, t->last.ack_i & 1);
}
static void rr_step(void *p, const void *i) {
    rr_twin *t = p;
    const fg_rr_in_t *in = i;
    t->last = *in;
    t->last.req_i = mask_bits(in->req_i, t->a.n);
    fg_rr_c_edge(&t->a, t->last.req_i, in->ack_i & 1);
}
static void rr_free(void *p) { free(p); }

FG_BLOCK_CLASS(fg_rr, "fg_rr_arb", FG_RR_INPUTS, FG_RR_OUTPUTS, rr);
