/* partition: a memory partition's front: its slices' miss queues -> the
 * F/E-bit DRAM scheduler queues (rtl/fe/fe_sched_queues.sv through fg_block:
 * rtl, c or lockstep; verilated configuration fe_sched_queues_sys) -> the
 * FR-FCFS scheduler of its DRAM channel (dram.c) -> returns to the slices.
 *
 * The F/E block is clocked at the core clock (the one RTL clock).  Its tag
 * indexes a side table holding the whole request (the record); its address
 * is relative to the partition's share of the tracked region, so that one
 * verilated configuration (REGION_BASE = 0) serves every machine.  Requests
 * outside the region carry no trigger and no action and take the
 * non-triggered queue: L2 fills and write-backs (F/E 4.3).
 *
 * stallMC (CM 3.2) is the block's stall_mc_o: a request was offered and its
 * queue was full.  A request is offered from one of three per-class miss
 * queues per slice, one whose F/E queue has room first, so a full triggered
 * queue never holds off a request that could release it (the F/E 4.3
 * interlock, avoided at the block's input by its per-queue ready). */
#include "partition.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fg_wave.h"

static uint32_t fe_rel(const mem_part *pt, uint64_t local) { return (uint32_t)(local - pt->fe_base); }

void part_fe_fields(const mem_part *pt, mem_rec *r) {
    if (r->type != REC_EXT || !r->tracked) {
        mem_rec_fe_plain(r);
        return;
    }
    unsigned src = FE_SRC_GPU, trig = FE_TRIG_NONE, act = FE_ACT_NONE, dflt = 0;
    bool we = r->q.op == MEM_WRITE;
    unsigned t = r->q.fe_trig, a = r->q.fe_act;
    if (r->q.src == MEM_SRC_CPU) { /* F/E 4.4: what the host API gave; default none */
        src = FE_SRC_CPU;
        trig = t == MEM_FE_DEFAULT ? FE_TRIG_NONE : t;
        act = a == MEM_FE_DEFAULT ? FE_ACT_NONE : a;
    } else if (t == MEM_FE_DEFAULT && a == MEM_FE_DEFAULT) {
        dflt = 1; /* F/E 4.1 defaults applied in the RTL (req_dflt_i) */
    } else {
        trig = t != MEM_FE_DEFAULT ? t : we ? FE_TRIG_NONE : FE_TRIG_FULL;
        act = a != MEM_FE_DEFAULT ? a : we ? FE_ACT_FILL : FE_ACT_NONE;
    }
    fe_sched_queues_in_t in = {.req_src_i = src, .req_we_i = r->q.op == MEM_WRITE,
                               .req_dflt_i = dflt, .req_trig_i = trig, .req_act_i = act,
                               .req_addr_i = fe_rel(pt, r->local)};
    r->fe_src = (uint8_t)src;
    r->fe_trig = (uint8_t)trig;
    r->fe_act = (uint8_t)act;
    r->fe_dflt = (uint8_t)dflt;
    r->fe_q = (uint8_t)fe_sched_queue_of(&pt->fp, &in, NULL, NULL);
}

/* DRAM bursts of an access: the burst-sized pieces of the line it touches. */
static unsigned bursts_of(const mem_config *c, const uint64_t bm[2]) {
    unsigned bb = c->dram_bus_bytes * c->dram_burst, n = 0;
    if (bb >= c->line_bytes) return 1;
    for (unsigned o = 0; o < c->line_bytes; o += bb) {
        bool any = false;
        for (unsigned i = o; i < o + bb && !any; i++) any = bm[i >> 6] >> (i & 63) & 1;
        n += any;
    }
    return n ? n : 1;
}

/* The partition's view of a record's slice. */
static const part_slice *slice_of(const mem_part *pt, const mem_rec *r) {
    return &pt->up[r->slice % pt->e.c->slices];
}

static void hook_perform(void *ctx, uint32_t rec) {
    mem_part *pt = ctx;
    mem_rec *r = &pt->e.pool->rec[rec];
    if (r->type == REC_EXT) mem_data_perform(pt->e.data, r); /* F/E-tracked: performed here */
}

static bool hook_retire(void *ctx, uint32_t rec) {
    mem_part *pt = ctx;
    mem_rec *r = &pt->e.pool->rec[rec];
    if (r->type == REC_WB) {
        mem_rec_free(pt->e.pool, rec);
        return true;
    }
    mq *ret = slice_of(pt, r)->ret;
    if (mq_full(ret)) return false;
    r->rsp.status = MEM_OK;
    mq_push(ret, rec, 0);
    return true;
}

int part_init(mem_part *pt, unsigned p, const part_env *e, char *err, size_t errlen) {
    const mem_config *c = e->c;
    char why[160];
    memset(pt, 0, sizeof *pt);
    pt->e = *e;
    pt->p = p;
    pt->up = calloc(c->slices, sizeof *pt->up);
    if (!pt->up) {
        snprintf(err, errlen, "partition %u: out of memory", p);
        return -1;
    }
    memcpy(pt->up, e->slices, c->slices * sizeof *pt->up);
    pt->e.slices = pt->up;
    mem_config_fe_params(c, &pt->fp, why, sizeof why);
    pt->fe_base = c->fe_region_base / c->partitions; /* the region is stripe-aligned */
    pt->fe = fg_block_new(&fe_sched_queues_class, c->fe_impl, &pt->fp, err, errlen);
    if (!pt->fe) return -1;
    pt->in.wdog_limit_i = c->fe_wdog_limit;
    /* Power-up, before the machine's cycle 0: after reset the block clears its
     * F/E store, one line per cycle, and holds requests off meanwhile
     * (docs/FE_SCHED.md). */
    for (uint64_t i = 0; !((const fe_sched_queues_out_t *)fg_block_out(pt->fe))->init_ready_o; i++) {
        if (i > pt->fp.region_lines || fg_block_step(pt->fe, &pt->in)) {
            snprintf(err, errlen, "partition %u: the F/E store's reset clear did not end after %u cycles%s%s",
                     p, pt->fp.region_lines, pt->fe->error[0] ? ": " : "", pt->fe->error);
            return -1;
        }
    }
    fg_wave_place(pt->fe, "mem.part%u", p); /* the machine's cycle 0 */
    if (fg_block_idle_skip(pt->fe)) {
        snprintf(err, errlen, "partition %u: out of memory", p);
        return -1;
    }
    unsigned tags = 1u << pt->fp.tag_w;
    if (tags > 4096) tags = 4096;
    pt->tag_rec = calloc(tags, sizeof *pt->tag_rec);
    pt->tag_free = calloc(tags, sizeof *pt->tag_free);
    if (!pt->tag_rec || !pt->tag_free) {
        snprintf(err, errlen, "partition %u: out of memory", p);
        return -1;
    }
    for (unsigned t = 0; t < tags; t++) pt->tag_free[t] = tags - 1 - t;
    pt->n_tag_free = tags;
    dram_hooks dh = {pt, hook_retire, hook_perform, NULL};
    pt->dram = dram_new(c, &dh);
    if (!pt->dram) {
        snprintf(err, errlen, "partition %u: out of memory", p);
        return -1;
    }
    return 0;
}

void part_free(mem_part *pt) {
    fg_block_free(pt->fe);
    dram_free(pt->dram);
    free(pt->tag_rec);
    free(pt->tag_free);
    free(pt->up);
}


/* Bytes of this partition below global address a (its local address space
 * is the global one with the other partitions' chunks squeezed out). */
static uint64_t below(const mem_part *pt, uint64_t a) {
    const mem_config *c = pt->e.c;
    uint64_t share = (uint64_t)c->slices * c->interleave_bytes, stripe = share * c->partitions;
    uint64_t r = a % stripe, in = r > pt->p * share ? r - pt->p * share : 0;
    return a / stripe * share + (in < share ? in : share);
}

int part_fe_init_span(const mem_part *pt, uint64_t addr, uint64_t bytes, uint64_t span[2]) {
    const mem_config *c = pt->e.c;
    uint64_t lim = (1ull << pt->fp.init_w) - 1, region = c->fe_region_bytes / c->partitions;
    uint64_t lo = below(pt, addr), hi = below(pt, addr + bytes);
    lo = lo > pt->fe_base ? lo - pt->fe_base : 0;
    hi = hi > pt->fe_base ? hi - pt->fe_base : 0;
    if (hi > region) hi = region;
    if (lo > hi) lo = hi;
    span[0] = lo;
    span[1] = hi;
    uint64_t lines = (hi - lo) / 128, cmds = (lines + lim - 1) / lim;
    return pt->init_n + cmds > FE_INIT_RING;
}

void part_fe_init_push(mem_part *pt, const uint64_t span[2], bool full) {
    uint64_t lim = (1ull << pt->fp.init_w) - 1;
    for (uint64_t a = span[0]; a < span[1];) {
        uint64_t n = (span[1] - a) / 128;
        if (n > lim) n = lim;
        pt->init[(pt->init_head + pt->init_n++) % FE_INIT_RING] = (fe_init_cmd){a, (uint32_t)n, full};
        a += n * 128;
    }
}

bool part_init_busy(const mem_part *pt) {
    const fe_sched_queues_out_t *o = fg_block_out(pt->fe);
    return pt->init_n || !o->init_ready_o;
}

bool part_quiet(const mem_part *pt) { return !pt->init_n && pt->quiet >= 2; }

/* The request to offer this cycle: the first visible miss-queue head (slices
 * round robin, classes NT > CPU > GPU) whose F/E queue has room, else the
 * first visible head (offered anyway: stallMC). */
static mq *pick(mem_part *pt, uint64_t l2_now, uint64_t ready_bits) {
    unsigned S = pt->e.c->slices;
    mq *first = NULL;
    for (unsigned i = 0; i < S; i++) {
        mq *miss = pt->up[(pt->rr + i) % S].miss;
        for (unsigned q = 0; q < 3; q++) {
            mq_ent *h = mq_head(&miss[q]);
            if (!h || h->t >= l2_now) continue;
            if (ready_bits >> q & 1) return &miss[q];
            if (!first) first = &miss[q];
        }
    }
    return first;
}

/* The first failure of a cycle, for part_cycle's caller. */
static void part_fail(mem_part *pt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void part_fail(mem_part *pt, const char *fmt, ...) {
    if (pt->err[0]) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pt->err, sizeof pt->err, fmt, ap);
    va_end(ap);
}

/* Bit w: some byte of word w (4 B) of the 64 bytes m masks (16 bits). */
static inline uint64_t word_bits(uint64_t m) {
    m = (m | m >> 1 | m >> 2 | m >> 3) & 0x1111111111111111ull; /* bit 4w */
    m = (m | m >> 3) & 0x0303030303030303ull;
    m = (m | m >> 6) & 0x000f000f000f000full;
    m = (m | m >> 12) & 0x000000ff000000ffull;
    return (m | m >> 24) & 0xffffull;
}

int part_cycle(mem_part *pt, uint64_t l2_now) {
    const mem_config *c = pt->e.c;
    mem_rec *rec = pt->e.pool->rec;
    fe_sched_queues_in_t *in = &pt->in;
    const fe_sched_queues_out_t pre = *(const fe_sched_queues_out_t *)fg_block_out(pt->fe);
    pt->err[0] = '\0';
    in->req_valid_i = 0;
    in->init_valid_i = 0;
    in->out_ready_i = dram_can_accept(pt->dram);
    uint32_t nack = pre.nack_valid_o ? pt->tag_rec[pre.nack_tag_o] : MEM_NONE;
    in->nack_ready_i = nack != MEM_NONE && !mq_full(slice_of(pt, &rec[nack])->ret);
    if (pt->init_n && pre.init_ready_o) {
        fe_init_cmd *k = &pt->init[pt->init_head];
        in->init_valid_i = 1;
        in->init_full_i = k->full;
        in->init_addr_i = k->rel;
        in->init_lines_i = k->lines;
        pt->init_head = (pt->init_head + 1) % FE_INIT_RING;
        pt->init_n--;
    }
    mq *src = pt->n_tag_free ? pick(pt, l2_now, pre.req_ready_o) : NULL;
    mem_rec *r = NULL;
    if (src) {
        r = &rec[mq_head(src)->rec];
        in->req_valid_i = 1;
        in->req_src_i = r->fe_src;
        in->req_we_i = r->q.op == MEM_WRITE;
        in->req_dflt_i = r->fe_dflt;
        in->req_trig_i = r->fe_trig;
        in->req_act_i = r->fe_act;
        in->req_addr_i = fe_rel(pt, r->local);
        in->req_mask_i = 0;
        unsigned off = (unsigned)(r->local & 127); /* the request's words in the 128 B F/E line */
        const unsigned nw = c->line_bytes / 4;
        const uint64_t words = (word_bits(r->q.bmask[0]) | word_bits(r->q.bmask[1]) << 16) & ((1ull << nw) - 1);
        in->req_mask_i |= words << (off / 4);
        in->req_addr_i -= off;
        in->req_tag_i = pt->tag_free[pt->n_tag_free - 1];
    }
    bool in_idle = !in->req_valid_i && !in->init_valid_i;
    bool out_idle = !pre.q_count_o && !pre.out_valid_o && !pre.nack_valid_o && pre.init_ready_o &&
                    !pre.stall_mc_o;
    if (c->fe_idle_skip && in_idle && out_idle && pt->quiet >= 2) {
        fg_block_skip(pt->fe);
    } else if (fg_block_step(pt->fe, in)) {
        part_fail(pt, "%s", pt->fe->error);
        return -1;
    }
    pt->quiet = in_idle && out_idle ? (pt->quiet < 2 ? pt->quiet + 1 : 2) : 0;
    if (r && (pre.req_ready_o >> r->fe_q & 1)) { /* accepted: its tag is taken (before any is freed) */
        pt->tag_rec[in->req_tag_i] = mq_head(src)->rec;
        pt->n_tag_free--;
        r->t_mc = l2_now;
        if (c->fe_admit && r->type == REC_EXT && r->tracked && r->fe_q != FE_Q_NT)
            slice_of(pt, r)->admitted[r->fe_q]--; /* its miss-queue place is free again */
        mq_pop(src);
        pt->rr = (pt->rr + 1) % c->slices;
    }
    if (pre.out_valid_o && !in->out_ready_i) pt->dram_q_full++;
    if (pre.out_valid_o && in->out_ready_i) { /* into the FR-FCFS queue */
        uint32_t ri = pt->tag_rec[pre.out_tag_o];
        mem_rec *x = &rec[ri];
        if ((uint32_t)pre.out_addr_o != (uint32_t)(fe_rel(pt, x->local) & ~127u))
            part_fail(pt, "F/E output tag %u carries address 0x%x, its request 0x%x", (unsigned)pre.out_tag_o,
                      (unsigned)pre.out_addr_o, fe_rel(pt, x->local));
        pt->tag_free[pt->n_tag_free++] = (uint32_t)pre.out_tag_o;
        x->t_dram = l2_now;
        dram_push(pt->dram, ri, x->local, x->q.op != MEM_READ, bursts_of(c, x->q.bmask));
    }
    if (pre.nack_valid_o && in->nack_ready_i) { /* watchdog NACK back to the requester */
        rec[nack].rsp.status = MEM_NACK;
        mq_push(slice_of(pt, &rec[nack])->ret, nack, 0);
        pt->tag_free[pt->n_tag_free++] = (uint32_t)pre.nack_tag_o;
    }
    pt->stall_mc = ((const fe_sched_queues_out_t *)fg_block_out(pt->fe))->stall_mc_o;
    return pt->err[0] ? -1 : 0;
}
