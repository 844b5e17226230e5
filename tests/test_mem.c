/* The memory system as a whole (sim/mem/, docs/MEM.md): random traffic from
 * many ports through interconnect, L2 slices, F/E queues (FG_IMPL: rtl, c or
 * lockstep, default lockstep) and DRAM, with response back-pressure (ports
 * that stop popping) and small queues everywhere, checked by a scoreboard:
 * every request answered exactly once, with the right data, nothing left in
 * flight.  "Right" is well defined by construction:
 *   - ordinary words have one writer each, which writes 1, 2, 3, ...; a read
 *     returns a value no older than the last write acknowledged before it was
 *     sent and no newer than the last write sent before its response;
 *   - counter words only see atomic adds of 1: the old values an atomic
 *     returns are each of 0..n-1 exactly once, and memory ends at n;
 *   - F/E words are single-assignment: filled once by their owner (GPU
 *     default writes, or CPU writes with action fill), read with the GPU
 *     default (wait for full: must return the value) or non-triggered by the
 *     CPU (0 or the value);
 *   - one token word per partition passes values 1, 2, 3, ... from a GPU
 *     producer (trigger wait-empty, action fill) to a CPU consumer (trigger
 *     wait-full, action empty), which must see them in order.
 * Then: an unsatisfiable wait is NACKed exactly once and the run goes on;
 * idle skipping of the F/E blocks changes nothing; lane-form atomics (the
 * SIMT core's with [gpu] atomics = memory) serialize in lane order within a
 * request and request by request at the slice; malformed requests and bad
 * configurations are refused with a message. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_tb.h"
#include "mem/mem.h"
#include "mem/mem_config.h"

#define NP 8
#define MEM_BYTES (128u << 10)
#define ORD_BYTES (32u << 10)  /* ordinary lines: [0, 32 KiB) */
#define FE_BASE (64u << 10)    /* F/E-tracked lines */
#define FE_BYTES (8u << 10)
#define ORD_WORDS (ORD_BYTES / 4)
#define FE_WORDS (FE_BYTES / 4)
#define MAXC 2048              /* atomics per counter word the bitsets hold */
#define SLOTS 8192
#define GPU_TRACKED_MAX 12     /* < fe_qd_gpu: the triggered-GPU queue never fills */

static fg_impl impl_from_env(void) {
    fg_impl impl = FG_IMPL_LOCKSTEP;
    const char *s = getenv("FG_IMPL");
    if (s && *s && fg_impl_parse(s, &impl)) fail_msg("FG_IMPL=%s: expected c, rtl or lockstep", s);
    return impl;
}

/* Small and slow everywhere, so that every queue fills. */
static void small_config(mem_config *c) {
    mem_config_default(c);
    c->core_mhz = 700;
    c->icnt_mhz = 700;
    c->l2_mhz = 500;
    c->dram_mhz = 500;
    c->partitions = 4;
    c->slices = 2;
    c->icnt_in_flits = 6;
    c->icnt_out_flits = 6;
    c->icnt_latency = 2;
    c->l2_sets = 4;
    c->l2_assoc = 2;
    c->l2_mshrs = 4;
    c->l2_mshr_merge = 2;
    c->l2_latency = 8;
    c->l2_dram_latency = 5;
    c->l2_miss_queue = 2;
    c->l2_return_queue = 2;
    c->l2_amo_queue = 2;
    c->dram_banks = 8;
    c->dram_row_bytes = 1024;
    c->dram_queue = 4;
    c->fe_region_base = FE_BASE;
    c->fe_region_bytes = FE_BYTES;
    c->fe_wdog_limit = 4000000;
    c->fe_impl = impl_from_env();
}

/* ------------------------------------------------------------ scoreboard */
enum { T_SW_WR, T_SW_RD, T_CNT_AMO, T_CNT_RD, T_TIMING, T_SA_FILL, T_SA_RD, T_SA_NT, T_TOK_PUT,
       T_TOK_GET, T_NACK_RD, T_CYC_FILL, T_CYC_TAKE, T_CYC_PEEK, T_KINDS };

typedef struct {
    bool live;
    uint8_t type, op;
    unsigned port, part;
    uint64_t addr, bm[2];
    uint32_t lo[32]; /* per word: the least acceptable value */
    uint32_t val[32];
} slot;

typedef struct {
    mem_config c;
    mem_system *m;
    uint8_t *mem;
    fg_rng rng;
    uint64_t now, cycles;
    slot s[SLOTS];
    uint32_t free_s[SLOTS];
    unsigned n_free;
    /* ordinary words */
    uint32_t sent[ORD_WORDS], acked[ORD_WORDS];
    uint32_t *seen; /* counters: bitset of returned old values, MAXC bits per word */
    /* F/E words */
    uint32_t fill_t[FE_WORDS], order[FE_WORDS];
    bool fill_sent[FE_WORDS], fill_acked[FE_WORDS];
    bool reserved[FE_BYTES / 128]; /* token lines and lines never filled */
    unsigned next_fill, n_fill, gpu_tracked;
    bool fe_traffic;               /* random F/E reads */
    uint64_t tok_addr[16];
    unsigned tok_put, tok_put_ack[16], tok_put_sent[16], tok_get_sent[16], tok_get_got[16], tok_target;
    /* cycled words (one per partition): the CPU fills 1, 2, 3, ... and takes each (wait full, empty) before
     * the next fill, one request at a time; the GPU peeks (F/E 4.1's default read) at any time, and a peek
     * must return a value filled before its response and not taken before it was sent */
    uint64_t cyc_addr[16];
    unsigned cyc_sent[16], cyc_taken[16], cyc_peeks[16], cyc_target;
    bool cyc_busy[16], cyc_full[16];
    /* ports */
    mem_req pend[NP];
    bool has_pend[NP];
    int pend_slot[NP];
    unsigned pop_pct[NP];
    uint32_t fill_q[NP][64];
    unsigned fill_n[NP];
    /* totals */
    uint64_t sent_n, got_n, nacks, by_type[T_KINDS];
    uint64_t hash; /* of every response and its cycle */
    bool quiet_phase;
} tb;

static bool is_counter_line(uint64_t addr) { return (addr / 128) % 4 == 3; }
static uint32_t sa_val(unsigned w) { return (w * 2654435761u) | 1u; }
static unsigned owner(unsigned w) { return w % NP; }

static uint32_t word_at(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static int new_slot(tb *t) {
    if (!t->n_free) fail_msg("scoreboard full");
    int i = (int)t->free_s[--t->n_free];
    memset(&t->s[i], 0, sizeof t->s[i]);
    t->s[i].live = true;
    return i;
}

/* Prepares a request on port p into t->pend[p]; its slot records the check. */
static void stage(tb *t, unsigned p, int si, uint8_t type, uint8_t op, uint64_t addr, uint64_t bm0,
                  uint64_t bm1) {
    slot *s = &t->s[si];
    s->type = type;
    s->op = op;
    s->port = p;
    s->addr = addr;
    s->bm[0] = bm0;
    s->bm[1] = bm1;
    mem_req *r = &t->pend[p];
    memset(r, 0, sizeof *r);
    r->id = (uint64_t)si | (fg_rng_next(&t->rng) << 20); /* the slot, plus noise */
    r->addr = addr;
    r->bmask[0] = bm0;
    r->bmask[1] = bm1;
    r->op = op;
    r->kind = MEM_K_DATA;
    r->fe_trig = MEM_FE_DEFAULT;
    r->fe_act = MEM_FE_DEFAULT;
    r->amo_ops = 1;
    r->data = true;
    t->has_pend[p] = true;
    t->pend_slot[p] = si;
}

static uint64_t word_mask(unsigned wi) { return 0xfull << ((wi * 4) & 63); }
static void set_word(uint64_t bm[2], unsigned wi) { bm[wi / 16] |= word_mask(wi); }

/* One new request for port p (returns false if it has nothing to do). */
static bool generate(tb *t, unsigned p) {
    fg_rng *g = &t->rng;
    if (t->fill_n[p]) { /* a due F/E fill */
        unsigned w = t->fill_q[p][--t->fill_n[p]], wi = w % 32;
        uint64_t bm[2] = {0, 0};
        set_word(bm, wi);
        int si = new_slot(t);
        stage(t, p, si, T_SA_FILL, MEM_WRITE, FE_BASE + (uint64_t)w / 32 * 128, bm[0], bm[1]);
        t->s[si].val[wi] = sa_val(w);
        memcpy(&t->pend[p].wdata[wi * 4], &t->s[si].val[wi], 4);
        if (w % 2) { /* a CPU write with action fill (F/E 4.4) */
            t->pend[p].src = MEM_SRC_CPU;
            t->pend[p].fe_trig = FE_TRIG_NONE;
            t->pend[p].fe_act = FE_ACT_FILL;
        }
        t->fill_sent[w] = true;
        return true;
    }
    for (unsigned k = 0; k < t->c.partitions; k++) { /* tokens: producer k % NP, consumer (k+3) % NP */
        if (p == k % NP && t->tok_put_sent[k] < t->tok_target &&
            t->tok_put_sent[k] - t->tok_put_ack[k] < 3 && t->gpu_tracked < GPU_TRACKED_MAX &&
            fg_rng_chance(g, 1, 4)) {
            int si = new_slot(t);
            stage(t, p, si, T_TOK_PUT, MEM_WRITE, t->tok_addr[k], 0xf, 0);
            t->s[si].part = k;
            uint32_t v = ++t->tok_put_sent[k];
            memcpy(t->pend[p].wdata, &v, 4);
            t->pend[p].fe_trig = FE_TRIG_EMPTY;
            t->pend[p].fe_act = FE_ACT_FILL;
            t->gpu_tracked++;
            return true;
        }
        if (p == (k + 3) % NP && t->tok_get_sent[k] < t->tok_put_sent[k] &&
            t->tok_get_sent[k] - t->tok_get_got[k] < 3 && fg_rng_chance(g, 1, 4)) {
            int si = new_slot(t);
            stage(t, p, si, T_TOK_GET, MEM_READ, t->tok_addr[k], 0xf, 0);
            t->s[si].part = k;
            t->tok_get_sent[k]++;
            t->pend[p].src = MEM_SRC_CPU;
            t->pend[p].fe_trig = FE_TRIG_FULL;
            t->pend[p].fe_act = FE_ACT_EMPTY;
            return true;
        }
    }
    for (unsigned k = 0; t->fe_traffic && k < t->c.partitions; k++) { /* cycled words */
        if (p == (k + 1) % NP && !t->cyc_busy[k] &&
            (t->cyc_full[k] ? t->cyc_sent[k] < t->cyc_target && fg_rng_chance(g, 1, 8)
                            : t->cyc_sent[k] < t->cyc_target || t->cyc_peeks[k])) {
            int si = new_slot(t);
            bool fill = !t->cyc_full[k];
            stage(t, p, si, fill ? T_CYC_FILL : T_CYC_TAKE, fill ? MEM_WRITE : MEM_READ, t->cyc_addr[k], 0xf, 0);
            t->s[si].part = k;
            t->pend[p].src = MEM_SRC_CPU;
            t->pend[p].fe_trig = fill ? FE_TRIG_NONE : FE_TRIG_FULL;
            t->pend[p].fe_act = fill ? FE_ACT_FILL : FE_ACT_EMPTY;
            if (fill) {
                uint32_t v = ++t->cyc_sent[k];
                memcpy(t->pend[p].wdata, &v, 4);
            }
            t->cyc_busy[k] = true;
            return true;
        }
        if (p == (k + 2) % NP && t->cyc_sent[k] && t->cyc_sent[k] < t->cyc_target && !t->quiet_phase &&
            t->gpu_tracked < GPU_TRACKED_MAX && fg_rng_chance(g, 1, 4)) {
            int si = new_slot(t);
            stage(t, p, si, T_CYC_PEEK, MEM_READ, t->cyc_addr[k], 0xf, 0);
            t->s[si].part = k;
            t->s[si].lo[0] = t->cyc_taken[k];
            t->cyc_peeks[k]++;
            t->gpu_tracked++;
            return true;
        }
    }
    if (t->quiet_phase || t->now >= t->cycles || !fg_rng_chance(g, 7, 10)) return false;
    unsigned what = (unsigned)fg_rng_below(g, t->fe_traffic ? 100 : 72);
    uint64_t line = fg_rng_below(g, ORD_BYTES / 128) * 128;
    if (what < 20) { /* single-writer write: some of p's words of a line */
        if (is_counter_line(line)) line -= 128;
        uint64_t bm[2] = {0, 0};
        for (unsigned wi = p; wi < 32; wi += NP)
            if (fg_rng_chance(g, 1, 2) || !(bm[0] | bm[1])) set_word(bm, wi);
        int si = new_slot(t);
        stage(t, p, si, T_SW_WR, MEM_WRITE, line, bm[0], bm[1]);
        for (unsigned wi = 0; wi < 32; wi++) {
            if (!(t->s[si].bm[wi / 16] & word_mask(wi))) continue;
            unsigned w = (unsigned)(line / 4) + wi;
            t->s[si].val[wi] = ++t->sent[w];
            memcpy(&t->pend[p].wdata[wi * 4], &t->s[si].val[wi], 4);
        }
        return true;
    }
    if (what < 45) { /* read of ordinary words (single-writer or counters), any owner */
        uint64_t bm[2] = {0, 0};
        unsigned a = (unsigned)fg_rng_below(g, 32), n = 1 + (unsigned)fg_rng_below(g, 32 - a);
        for (unsigned wi = a; wi < a + n; wi++) set_word(bm, wi);
        int si = new_slot(t);
        stage(t, p, si, is_counter_line(line) ? T_CNT_RD : T_SW_RD, MEM_READ, line, bm[0], bm[1]);
        for (unsigned wi = a; wi < a + n; wi++) t->s[si].lo[wi] = t->acked[line / 4 + wi];
        return true;
    }
    if (what < 60) { /* atomic add of 1 to counter words */
        line = line / 512 * 512 + 3 * 128;
        uint64_t bm[2] = {0, 0};
        unsigned a = (unsigned)fg_rng_below(g, 32), n = 1 + (unsigned)fg_rng_below(g, 4);
        for (unsigned wi = a; wi < a + n && wi < 32; wi++) set_word(bm, wi);
        int si = new_slot(t);
        stage(t, p, si, T_CNT_AMO, MEM_ATOMIC, line, bm[0], bm[1]);
        t->pend[p].amo = MEM_AMO_ADD;
        t->pend[p].amo_ops = (uint8_t)(1 + fg_rng_below(g, 32));
        t->pend[p].kind = MEM_K_ATOMIC;
        for (unsigned wi = 0; wi < 32; wi++) {
            uint32_t one = 1;
            memcpy(&t->pend[p].wdata[wi * 4], &one, 4);
            if (t->s[si].bm[wi / 16] & word_mask(wi)) t->sent[line / 4 + wi]++;
        }
        return true;
    }
    if (what < 72) { /* timing-only, any bytes, any kind */
        int si = new_slot(t);
        uint64_t bm0 = fg_rng_next(g), bm1 = fg_rng_next(g);
        if (!(bm0 | bm1)) bm0 = 1;
        uint8_t op = fg_rng_chance(g, 1, 2) ? MEM_READ : MEM_WRITE;
        stage(t, p, si, T_TIMING, op, line, bm0, bm1);
        t->pend[p].data = false;
        t->pend[p].kind = (uint8_t)fg_rng_below(g, MEM_K_COUNT);
        return true;
    }
    /* F/E words: a line's words due within 2000 cycles */
    unsigned due = t->next_fill;
    while (due < t->n_fill && t->fill_t[t->order[due]] < t->now + 2000) due++;
    if (!due) return false;
    unsigned w0 = t->order[fg_rng_below(g, due)], wi0 = w0 % 32;
    uint64_t laddr = FE_BASE + (uint64_t)w0 / 32 * 128, bm[2] = {0, 0};
    bool gpu = what < 90;
    if (gpu && t->gpu_tracked >= GPU_TRACKED_MAX) return false;
    int si = new_slot(t);
    for (unsigned wi = wi0; wi < 32 && wi < wi0 + 4; wi++) {
        unsigned w = w0 - wi0 + wi;
        if (wi != wi0 && (t->reserved[w / 32] || t->fill_t[w] >= t->now + 2000)) break;
        set_word(bm, wi);
        t->s[si].val[wi] = sa_val(w);
        t->s[si].lo[wi] = t->fill_acked[w];
    }
    stage(t, p, si, gpu ? T_SA_RD : T_SA_NT, MEM_READ, laddr, bm[0], bm[1]);
    if (gpu) {
        t->gpu_tracked++;
    } else {
        t->pend[p].src = MEM_SRC_CPU; /* CPU default: no trigger, no action */
    }
    return true;
}

static void check_rsp(tb *t, unsigned p, const mem_rsp *r) {
    unsigned si = (unsigned)(r->id & 0xfffff);
    if (si >= SLOTS || !t->s[si].live) fail_msg("port %u: response id %" PRIx64 " matches no request", p, r->id);
    slot *s = &t->s[si];
    if (s->port != p || s->addr != r->addr || s->op != r->op)
        fail_msg("response of slot %u on port %u for 0x%" PRIx64 " op %u (sent on %u for 0x%" PRIx64 " op %u)",
                 si, p, r->addr, r->op, s->port, s->addr, s->op);
    if (r->status == MEM_NACK) {
        if (s->type != T_NACK_RD) fail_msg("unexpected NACK of a type %u request", s->type);
        t->nacks++;
    } else if (s->type == T_NACK_RD) {
        fail_msg("an unsatisfiable wait was answered");
    }
    t->hash = t->hash * 1000003u ^ (r->id + t->now * 7919u);
    for (unsigned wi = 0; wi < 32; wi++) {
        if (!(s->bm[wi / 16] & word_mask(wi))) continue;
        uint32_t v = word_at(&r->rdata[wi * 4]);
        unsigned w = (unsigned)(s->addr / 4) + wi;
        if (s->op != MEM_WRITE && s->type != T_TIMING) t->hash = t->hash * 31 + v;
        switch (s->type) {
        case T_SW_WR:
            if (s->val[wi] > t->acked[w]) t->acked[w] = s->val[wi];
            break;
        case T_SW_RD:
        case T_CNT_RD:
            if (v < s->lo[wi] || v > t->sent[w])
                fail_msg("read of word 0x%x returned %u, expected %u..%u", w * 4, v, s->lo[wi], t->sent[w]);
            break;
        case T_CNT_AMO:
            if (v >= MAXC) fail_msg("counter 0x%x beyond the test's bitset", w * 4);
            if (t->seen[w * (MAXC / 32) + v / 32] >> (v % 32) & 1)
                fail_msg("atomic on word 0x%x returned old value %u twice", w * 4, v);
            t->seen[w * (MAXC / 32) + v / 32] |= 1u << (v % 32);
            t->acked[w]++;
            break;
        case T_SA_FILL:
            t->fill_acked[(s->addr - FE_BASE) / 4 + wi] = true;
            break;
        case T_SA_RD:
            if (v != s->val[wi]) fail_msg("F/E wait-full read of 0x%x returned %u, filled with %u", w * 4, v, s->val[wi]);
            break;
        case T_SA_NT:
            if (v != s->val[wi] && (v != 0 || s->lo[wi]))
                fail_msg("F/E non-triggered read of 0x%x returned %u (0 or %u)", w * 4, v, s->val[wi]);
            break;
        case T_TOK_PUT:
            t->tok_put_ack[s->part]++;
            break;
        case T_TOK_GET:
            if (v != ++t->tok_get_got[s->part])
                fail_msg("token of partition %u: got %u, expected %u", s->part, v, t->tok_get_got[s->part]);
            break;
        case T_CYC_FILL:
            t->cyc_busy[s->part] = false;
            t->cyc_full[s->part] = true;
            break;
        case T_CYC_TAKE:
            if (v != t->cyc_sent[s->part])
                fail_msg("cycled word of partition %u: took %u, filled %u", s->part, v, t->cyc_sent[s->part]);
            t->cyc_taken[s->part] = v;
            t->cyc_busy[s->part] = t->cyc_full[s->part] = false;
            break;
        case T_CYC_PEEK:
            if (v <= s->lo[0] || v > t->cyc_sent[s->part])
                fail_msg("peek of the cycled word of partition %u returned %u: taken %u before it was sent, "
                         "filled %u by its response", s->part, v, s->lo[0], t->cyc_sent[s->part]);
            t->cyc_peeks[s->part]--;
            break;
        default:
            break;
        }
    }
    if (s->type == T_SA_RD || s->type == T_TOK_PUT || s->type == T_NACK_RD || s->type == T_CYC_PEEK) t->gpu_tracked--;
    s->live = false;
    t->free_s[t->n_free++] = si;
    t->got_n++;
}

/* One core cycle of every port, then the memory system. */
static void cycle(tb *t) {
    for (unsigned p = 0; p < NP; p++) {
        const mem_rsp *r = mem_rsp_peek(t->m, p);
        if (r && fg_rng_below(&t->rng, 100) < t->pop_pct[p]) {
            check_rsp(t, p, r);
            mem_rsp_pop(t->m, p);
        }
        if (!t->has_pend[p] && !generate(t, p)) continue;
        int rc = mem_send(t->m, p, &t->pend[p]);
        if (rc < 0) fail_msg("mem_send: %s", mem_error(t->m));
        if (rc == 0) {
            t->has_pend[p] = false;
            t->sent_n++;
            t->by_type[t->s[t->pend_slot[p]].type]++;
        }
    }
    mem_tick(t->m);
    t->now++;
    if (mem_error(t->m)) fail_msg("%s", mem_error(t->m));
    while (t->next_fill < t->n_fill && t->fill_t[t->order[t->next_fill]] <= t->now) {
        unsigned w = t->order[t->next_fill], o = owner(w);
        if (t->fill_n[o] == 64) break; /* the owner catches up first */
        t->fill_q[o][t->fill_n[o]++] = w;
        t->next_fill++;
    }
}

typedef struct {
    uint32_t t, w;
} fill_ev;
static int cmp_fill(const void *a, const void *b) {
    const fill_ev *x = a, *y = b;
    return x->t != y->t ? (x->t < y->t ? -1 : 1) : (x->w < y->w ? -1 : x->w > y->w);
}

/* The first F/E line of partition k not yet reserved, now reserved. */
static uint64_t reserve_line(tb *t, unsigned k) {
    const mem_config *c = &t->c;
    for (uint64_t a = FE_BASE;; a += 128)
        if (!t->reserved[(a - FE_BASE) / 128] && (a / c->interleave_bytes) % (c->partitions * c->slices) / c->slices == k) {
            t->reserved[(a - FE_BASE) / 128] = true;
            return a;
        }
}

/* nofill: F/E lines (index from FE_BASE) that are never written. */
static tb *tb_open(const mem_config *c, uint64_t seed, uint64_t cycles, const unsigned *nofill,
                   unsigned n_nofill) {
    tb *t = calloc(1, sizeof *t);
    assert_non_null(t);
    t->c = *c;
    t->mem = calloc(MEM_BYTES, 1);
    t->seen = calloc((size_t)ORD_WORDS * (MAXC / 32), sizeof *t->seen);
    assert_non_null(t->mem);
    assert_non_null(t->seen);
    char err[512];
    t->m = mem_new(c, NP, t->mem, MEM_BYTES, err, sizeof err);
    if (!t->m) fail_msg("%s", err);
    fg_rng_seed(&t->rng, seed);
    t->cycles = cycles;
    t->fe_traffic = true;
    for (unsigned i = 0; i < SLOTS; i++) t->free_s[i] = SLOTS - 1 - i;
    t->n_free = SLOTS;
    for (unsigned p = 0; p < NP; p++) t->pop_pct[p] = 100;
    for (unsigned i = 0; i < n_nofill; i++) t->reserved[nofill[i]] = true;
    /* a token word and a cycled word per partition */
    for (unsigned k = 0; k < c->partitions; k++) t->tok_addr[k] = reserve_line(t, k);
    for (unsigned k = 0; k < c->partitions; k++) t->cyc_addr[k] = reserve_line(t, k);
    t->tok_target = (unsigned)(cycles / 4000) + 4;
    t->cyc_target = (unsigned)(cycles / 3000) + 4;
    /* fills of the single-assignment words at random times in the first 70 % */
    fill_ev *ev = calloc(FE_WORDS, sizeof *ev);
    assert_non_null(ev);
    for (unsigned w = 0; w < FE_WORDS; w++) {
        t->fill_t[w] = UINT32_MAX;
        if (t->reserved[w / 32]) continue;
        t->fill_t[w] = (uint32_t)fg_rng_below(&t->rng, cycles * 7 / 10 + 1);
        ev[t->n_fill++] = (fill_ev){t->fill_t[w], w};
    }
    qsort(ev, t->n_fill, sizeof *ev, cmp_fill);
    for (unsigned i = 0; i < t->n_fill; i++) t->order[i] = ev[i].w;
    free(ev);
    /* F/E 4.5 start-up: the region empty */
    assert_int_equal(mem_fe_init(t->m, FE_BASE, FE_BYTES, false), 0);
    while (mem_fe_init_busy(t->m)) {
        mem_tick(t->m);
        t->now++;
    }
    return t;
}

static void tb_close(tb *t) {
    mem_free(t->m);
    free(t->mem);
    free(t->seen);
    free(t);
}

/* Runs the random phase, then drains: every port pops, no new traffic. */
static void run_random(tb *t) {
    uint64_t phase_end = 0;
    while (t->now < t->cycles) {
        if (t->now >= phase_end) { /* new back-pressure phase */
            phase_end = t->now + 1000 + fg_rng_below(&t->rng, 4000);
            for (unsigned p = 0; p < NP; p++) {
                unsigned k = (unsigned)fg_rng_below(&t->rng, 10);
                t->pop_pct[p] = k < 1 ? 0 : k < 3 ? 20 : 100; /* 10 %: the port does not pop */
            }
            t->quiet_phase = fg_rng_chance(&t->rng, 1, 8); /* nothing new: the F/E blocks go idle */
        }
        cycle(t);
    }
    t->quiet_phase = false;
    for (unsigned p = 0; p < NP; p++) t->pop_pct[p] = 100;
    uint64_t limit = t->now + 2000000;
    while (t->now < limit) {
        bool tokens_done = true;
        for (unsigned k = 0; k < t->c.partitions; k++)
            tokens_done &= t->tok_put_sent[k] == t->tok_target && t->tok_get_got[k] == t->tok_target &&
                           (!t->fe_traffic || (t->cyc_sent[k] >= t->cyc_target && t->cyc_full[k] &&
                                               !t->cyc_busy[k] && !t->cyc_peeks[k]));
        bool idle = t->n_free == SLOTS && mem_idle(t->m) && t->next_fill == t->n_fill;
        for (unsigned p = 0; p < NP; p++) idle &= !t->has_pend[p] && !t->fill_n[p];
        if (idle && tokens_done) break;
        cycle(t);
    }
    if (t->now >= limit) fail_msg("not drained after 2M cycles: %u requests in flight", SLOTS - t->n_free);
}

/* Final memory contents against the scoreboard. */
static void check_final(tb *t) {
    for (unsigned w = 0; w < ORD_WORDS; w++) {
        uint32_t v = word_at(&t->mem[w * 4]);
        if (v != t->sent[w]) fail_msg("word 0x%x ends at %u, expected %u", w * 4, v, t->sent[w]);
        if (!is_counter_line((uint64_t)w * 4)) continue;
        for (uint32_t k = 0; k < v; k++)
            if (!(t->seen[w * (MAXC / 32) + k / 32] >> (k % 32) & 1))
                fail_msg("counter 0x%x: old value %u never returned", w * 4, k);
    }
    for (unsigned w = 0; w < FE_WORDS; w++) {
        uint32_t v = word_at(&t->mem[FE_BASE + w * 4]);
        if (t->reserved[w / 32]) continue;
        if (v != (t->fill_sent[w] ? sa_val(w) : 0)) fail_msg("F/E word 0x%x ends at %u", FE_BASE + w * 4, v);
    }
    for (unsigned k = 0; k < t->c.partitions; k++) {
        assert_int_equal(word_at(&t->mem[t->tok_addr[k]]), t->tok_target);
        if (t->fe_traffic) assert_int_equal(word_at(&t->mem[t->cyc_addr[k]]), t->cyc_sent[k]);
    }
}

/* The clock ratios and the one-slice partitions of the CM machine. */
static void cm_like_config(mem_config *c) {
    small_config(c);
    c->core_mhz = 1400;
    c->icnt_mhz = 1400;
    c->l2_mhz = 700;
    c->dram_mhz = 300; /* CM: 800; slower here, and enough misses in flight */
    c->partitions = 8; /* per slice that the MC input queues fill (stallMC) */
    c->slices = 1;
    c->l2_mshrs = 24;
    c->l2_miss_queue = 8;
}

/* test_random_traffic's length without FG_CYCLES */
#define RANDOM_TRAFFIC_CYCLES 300000

/* Returns the stallMC cycles seen. */
static uint64_t random_run(const mem_config *c, const char *name, uint64_t seed, uint64_t cycles) {
    printf("# %s, F/E queues %s, %" PRIu64 " cycles of traffic\n", name, fg_impl_name(c->fe_impl), cycles);
    tb *t = tb_open(c, seed, cycles, NULL, 0);
    run_random(t);
    check_final(t);
    assert_int_equal(t->sent_n, t->got_n);
    assert_int_equal(t->nacks, 0);
    mem_stats s;
    mem_get_stats(t->m, MEM_ALL, &s);
    uint64_t reqs = 0, lat = 0;
    for (unsigned k = 0; k < MEM_K_COUNT; k++) {
        for (unsigned o = 0; o < 3; o++) reqs += s.req[k][o];
        lat += s.lat_n[k];
    }
    assert_int_equal(reqs, t->sent_n);
    assert_int_equal(lat, t->got_n);
    printf("# %" PRIu64 " requests answered once each (%" PRIu64 " cycles); L2 %" PRIu64 " hits %" PRIu64
           " misses %" PRIu64 " write-backs; DRAM rows %" PRIu64 " hit %" PRIu64 " miss %" PRIu64
           " conflict; F/E %" PRIu64 " tracked %" PRIu64 " releases; stallMC %" PRIu64
           " stallnet %" PRIu64 " cycles\n",
           t->sent_n, t->now, s.l2_hits, s.l2_misses, s.l2_writebacks, s.row_hits, s.row_misses,
           s.row_conflicts, s.fe_tracked, s.fe_releases, s.stall_mc, s.stall_net);
    printf("# cycled words: %u fills, %" PRIu64 " peeks; F/E reads answered by the L2 %" PRIu64 " (lines kept %" PRIu64
           ")\n", t->cyc_sent[0], t->by_type[T_CYC_PEEK], s.fe_l2_hits, s.fe_l2_keeps);
    /* the L2's F/E lines answer the cycled words' peeks: a shortened run (the
     * sanitizer's FG_CYCLES=100000) makes none in about 1 of 30 seeds, the
     * full-length one must make some */
    if (c->fe_l2_cache && (t->by_type[T_CYC_PEEK] || cycles >= RANDOM_TRAFFIC_CYCLES)) assert_true(s.fe_l2_hits > 0);
    printf("# by type: sw-write %" PRIu64 " sw-read %" PRIu64 " atomic %" PRIu64 " cnt-read %" PRIu64
           " timing %" PRIu64 " fe-fill %" PRIu64 " fe-wait %" PRIu64 " fe-nt %" PRIu64 " token %" PRIu64 "/%" PRIu64 "\n",
           t->by_type[T_SW_WR], t->by_type[T_SW_RD], t->by_type[T_CNT_AMO], t->by_type[T_CNT_RD],
           t->by_type[T_TIMING], t->by_type[T_SA_FILL], t->by_type[T_SA_RD], t->by_type[T_SA_NT],
           t->by_type[T_TOK_PUT], t->by_type[T_TOK_GET]);
    /* back-pressure happened where it should: the reply network (stallnet) */
    assert_true(s.stall_net > 0);
    assert_true(s.fe_releases > 0);
    assert_true(s.l2_writebacks > 0 && s.row_conflicts > 0);
    tb_close(t);
    return s.stall_mc;
}

static void test_random_traffic(void **state) {
    (void)state;
    mem_config c;
    uint64_t seed = tb_seed("test_mem random traffic"), cycles = tb_cycles(RANDOM_TRAFFIC_CYCLES);
    small_config(&c);
    uint64_t mc = random_run(&c, "4 partitions x 2 slices", seed, cycles);
    c.fe_l2_cache = true; /* the GPU's F/E reads answered by the L2 where its lines are known full */
    mc += random_run(&c, "4 partitions x 2 slices, F/E lines in the L2", seed + 3, cycles);
    c.fe_l2_cache = false;
    cm_like_config(&c);
    mc += random_run(&c, "8 partitions x 1 slice, CM clocks", seed + 1, cycles / 2);
    c.icnt = MEM_ICNT_MESH; /* the CM mesh, automatic placement of the 8 ports and 8 slices */
    mc += random_run(&c, "8 partitions x 1 slice, CM clocks, 6x6 mesh", seed + 2, cycles / 2);
    assert_true(mc > 0); /* and the MC input queues (stallMC), mostly in the second */
}

/* The same stimulus with and without skipping idle F/E blocks: the same
 * responses at the same cycles, the same statistics. */
static void test_idle_skip_exact(void **state) {
    (void)state;
    uint64_t seed = tb_seed("test_mem idle skip"), hash[2];
    mem_stats st[2];
    for (int k = 0; k < 2; k++) {
        mem_config c;
        small_config(&c);
        c.fe_idle_skip = k == 0;
        tb *t = tb_open(&c, seed, 30000, NULL, 0);
        run_random(t);
        hash[k] = t->hash ^ t->now;
        mem_get_stats(t->m, MEM_ALL, &st[k]);
        tb_close(t);
    }
    assert_true(hash[0] == hash[1]);
    assert_memory_equal(&st[0], &st[1], sizeof st[0]);
}

/* A wait that nothing satisfies is NACKed once by the watchdog (F/E 4.5);
 * traffic around it completes. */
static void test_unsatisfiable_wait(void **state) {
    (void)state;
    mem_config c;
    small_config(&c);
    c.fe_wdog_limit = 500;
    const unsigned never[2] = {5, 9};
    tb *t = tb_open(&c, 5, 20000, never, 2);
    t->fe_traffic = false; /* fills only: a late fill would be NACKed at this watchdog limit */
    t->tok_target = 0;
    int si = new_slot(t);
    stage(t, 0, si, T_NACK_RD, MEM_READ, FE_BASE + 128 * never[0], 0xff, 0); /* GPU default: wait full */
    t->gpu_tracked++;
    int sj = new_slot(t); /* a CPU wait-full */
    stage(t, 1, sj, T_NACK_RD, MEM_READ, FE_BASE + 128 * never[1], 0xf0, 0);
    t->pend[1].src = MEM_SRC_CPU;
    t->pend[1].fe_trig = FE_TRIG_FULL;
    t->gpu_tracked++;
    run_random(t); /* random ordinary traffic and the F/E fills meanwhile */
    check_final(t);
    assert_int_equal(t->nacks, 2);
    assert_int_equal(t->sent_n, t->got_n);
    mem_stats s;
    mem_get_stats(t->m, MEM_ALL, &s);
    assert_int_equal(s.nacks, 2);
    assert_int_equal(s.fe_nacks, 2);
    printf("# 2 unsatisfiable waits NACKed once each; %" PRIu64 " other requests completed\n", t->got_n - 2);
    tb_close(t);
}

/* A small system of 2 ports with the C twin of the F/E queues over fresh
 * zeroed memory (*mem, MEM_BYTES; the caller frees both). */
static mem_system *small_system(mem_config *c, uint8_t **mem) {
    small_config(c);
    c->fe_impl = FG_IMPL_C;
    *mem = calloc(MEM_BYTES, 1);
    char err[256];
    mem_system *m = mem_new(c, 2, *mem, MEM_BYTES, err, sizeof err);
    if (!m) fail_msg("mem_new: %s", err);
    return m;
}

static void test_malformed(void **state) {
    (void)state;
    mem_config c;
    uint8_t *mem;
    mem_system *m = small_system(&c, &mem);
    char err[256];
    mem_req ok = {.id = 1, .addr = 256, .bmask = {1, 0}, .op = MEM_READ, .fe_trig = MEM_FE_DEFAULT,
                  .fe_act = MEM_FE_DEFAULT, .amo_ops = 1};
    struct { mem_req r; unsigned port; const char *why; } bad[12];
    for (unsigned i = 0; i < 12; i++) bad[i].r = ok, bad[i].port = 0;
    bad[0].port = 2, bad[0].why = "port 2 of 2";
    bad[1].r.bmask[0] = 0, bad[1].why = "empty byte mask";
    bad[2].r.addr = 260, bad[2].why = "not line aligned";
    bad[3].r.addr = MEM_BYTES, bad[3].why = "outside";
    bad[4].r.op = 3, bad[4].why = "op 3";
    bad[5].r.bmask[1] = 1ull << 63, bad[5].why = "crosses"; /* fine at 128 B lines: see below */
    bad[6].r.op = MEM_ATOMIC, bad[6].r.amo_ops = 0, bad[6].why = "amo_ops = 0";
    bad[7].r.op = MEM_ATOMIC, bad[7].r.data = true, bad[7].r.bmask[0] = 0x3, bad[7].why = "whole 4-byte words";
    bad[8].r.op = MEM_ATOMIC, bad[8].r.addr = FE_BASE, bad[8].why = "F/E-tracked";
    bad[9].r.fe_trig = 7, bad[9].why = "fe_trig 7";
    bad[10].r.kind = MEM_K_COUNT, bad[10].why = "kind";
    bad[11].r.op = MEM_ATOMIC, bad[11].r.data = true, bad[11].r.bmask[0] = 0xf, bad[11].r.amo = 42, bad[11].why = "amo 42";
    for (unsigned i = 0; i < 12; i++) {
        if (i == 5) continue; /* a 128 B line has 128 mask bits: nothing to cross */
        assert_int_equal(mem_send(m, bad[i].port, &bad[i].r), -1);
        assert_non_null(mem_error(m));
        if (!strstr(mem_error(m), bad[i].why)) fail_msg("case %u: '%s' lacks '%s'", i, mem_error(m), bad[i].why);
        assert_true(mem_idle(m));
    }
    mem_stats s;
    mem_get_stats(m, MEM_ALL, &s);
    for (unsigned k = 0; k < MEM_K_COUNT; k++) assert_int_equal(s.req[k][0] + s.req[k][1] + s.req[k][2], 0);
    assert_int_equal(mem_send(m, 0, &ok), 0); /* nothing was taken: this cycle's one request */
    assert_null(mem_error(m));
    assert_int_equal(mem_send(m, 0, &ok), 1);  /* one per port per cycle */
    assert_int_equal(mem_fe_init(m, FE_BASE + 4, 128, true), -1);
    mem_free(m);
    /* 64 B lines: bits beyond the line cross it */
    c.line_bytes = 64;
    m = mem_new(&c, 1, mem, MEM_BYTES, err, sizeof err);
    assert_non_null(m);
    bad[5].r.bmask[0] = 1;
    assert_int_equal(mem_send(m, 0, &bad[5].r), -1);
    assert_non_null(strstr(mem_error(m), "crosses"));
    mem_free(m);
    free(mem);
}

/* A request with only its id, line and operation set. */
static mem_req req_at(uint64_t id, uint64_t addr, uint8_t op) {
    mem_req r;
    memset(&r, 0, sizeof r);
    r.id = id;
    r.addr = addr;
    r.op = op;
    return r;
}

/* ------------------------------------------------ F/E lines in the L2 */
/* A whole-line F/E request: src, trigger, action; a write carries v in every word. */
static mem_req fe_line_req(uint64_t id, uint64_t addr, uint8_t op, uint8_t src, unsigned trig, unsigned act,
                           uint32_t v) {
    mem_req r = req_at(id, addr, op);
    r.src = src;
    r.kind = MEM_K_DATA;
    r.data = true;
    r.fe_trig = (uint8_t)trig;
    r.fe_act = (uint8_t)act;
    r.amo_ops = 1;
    r.bmask[0] = r.bmask[1] = ~0ull;
    for (unsigned i = 0; op == MEM_WRITE && i < 32; i++) memcpy(&r.wdata[4 * i], &v, 4);
    return r;
}

/* Responses by id (a read's first word, a write's 0), on either port;
 * UINT32_MAX: none yet. */
typedef struct {
    mem_system *m;
    uint32_t got[64];
} fe_tb;

static void fe_tick(fe_tb *t) {
    mem_tick(t->m);
    for (unsigned p = 0; p < 2; p++)
        for (const mem_rsp *r; (r = mem_rsp_peek(t->m, p));) {
            assert_int_equal(r->status, MEM_OK);
            assert_true(r->id < 64);
            if (r->op == MEM_WRITE) t->got[r->id] = 0; /* an acknowledgement: no data */
            else memcpy(&t->got[r->id], r->rdata, 4);
            mem_rsp_pop(t->m, p);
        }
}

/* Sends q (id < 64) on its source's port (GPU 0, CPU 1). */
static void fe_send(fe_tb *t, mem_req q) {
    t->got[q.id] = UINT32_MAX;
    assert_int_equal(mem_send(t->m, q.src == MEM_SRC_CPU, &q), 0);
}

/* Runs until id has its response (its first word) or `limit` cycles passed (UINT32_MAX). */
static uint32_t fe_wait(fe_tb *t, uint64_t id, unsigned limit) {
    for (unsigned i = 0; i < limit && t->got[id] == UINT32_MAX; i++) fe_tick(t);
    return t->got[id];
}

static uint64_t fe_l2_hits(const mem_system *m) {
    mem_stats s;
    mem_get_stats(m, MEM_ALL, &s);
    return s.fe_l2_hits;
}

/* [mem] fe_l2_cache: a line a fill wrote is answered by the L2 to default
 * GPU reads; a CPU read that empties it (F/E 4.4) drops it, so the next GPU
 * read waits for the next fill and returns its value; a read whose response
 * leaves the slice while an emptying request of its line is in flight, or
 * after one passed, leaves nothing behind (every gap between the two, 0-40
 * cycles); an F/E init of the range drops the line.  Port 0 is the GPU's,
 * port 1 the CPU's. */
static void test_fe_l2_cache(void **state) {
    (void)state;
    mem_config c;
    small_config(&c);
    c.fe_l2_cache = true;
    uint8_t *mem = calloc(MEM_BYTES, 1);
    char err[512];
    fe_tb t = {.m = mem_new(&c, 2, mem, MEM_BYTES, err, sizeof err)};
    if (!t.m) fail_msg("%s", err);
    assert_int_equal(mem_fe_init(t.m, FE_BASE, FE_BYTES, false), 0);
    while (mem_fe_init_busy(t.m)) mem_tick(t.m);
    const uint64_t L = FE_BASE + 128;
    const unsigned D = MEM_FE_DEFAULT;
#define FILL(id, v) fe_line_req(id, L, MEM_WRITE, MEM_SRC_CPU, FE_TRIG_NONE, FE_ACT_FILL, v)
#define TAKE(id) fe_line_req(id, L, MEM_READ, MEM_SRC_CPU, FE_TRIG_FULL, FE_ACT_EMPTY, 0)
#define READ(id) fe_line_req(id, L, MEM_READ, MEM_SRC_GPU, D, D, 0)
    fe_send(&t, FILL(1, 11));
    assert_int_equal(fe_wait(&t, 1, 10000), 0);
    fe_send(&t, READ(2));
    assert_int_equal(fe_wait(&t, 2, 10000), 11);
    assert_int_equal(fe_l2_hits(t.m), 1); /* the fill left its bytes */
    fe_send(&t, TAKE(3)); /* the CPU consumes the line: the next GPU read waits for the next fill */
    assert_int_equal(fe_wait(&t, 3, 10000), 11);
    fe_send(&t, READ(4));
    assert_int_equal(fe_wait(&t, 4, 3000), UINT32_MAX);
    assert_int_equal(fe_l2_hits(t.m), 1);
    fe_send(&t, FILL(5, 22));
    assert_int_equal(fe_wait(&t, 4, 10000), 22);
    assert_int_equal(fe_wait(&t, 5, 10000), 0);
    fe_send(&t, READ(6));
    assert_int_equal(fe_wait(&t, 6, 10000), 22);
    assert_int_equal(fe_l2_hits(t.m), 2);
    fe_send(&t, TAKE(7));
    assert_int_equal(fe_wait(&t, 7, 10000), 22);
    unsigned read_first = 0;
    for (unsigned d = 0; d <= 40; d++) { /* the line is empty here */
        fe_send(&t, FILL(8, 100 + d));
        assert_int_equal(fe_wait(&t, 8, 10000), 0);
        fe_send(&t, READ(9));
        for (unsigned i = 0; i < d; i++) fe_tick(&t);
        fe_send(&t, TAKE(10));
        assert_int_equal(fe_wait(&t, 10, 10000), 100 + d);
        if (fe_wait(&t, 9, 300) == UINT32_MAX) { /* the take went first: a fill releases the read */
            fe_send(&t, FILL(11, 200 + d));
            assert_int_equal(fe_wait(&t, 9, 10000), 200 + d);
            fe_send(&t, TAKE(12));
            assert_int_equal(fe_wait(&t, 12, 10000), 200 + d);
        } else {
            assert_int_equal(t.got[9], 100 + d);
            read_first++;
        }
        while (!mem_idle(t.m)) fe_tick(&t);
        fe_send(&t, READ(13)); /* the line is empty: nothing may answer this from the L2 */
        assert_int_equal(fe_wait(&t, 13, 2000), UINT32_MAX);
        fe_send(&t, FILL(14, 300 + d));
        assert_int_equal(fe_wait(&t, 13, 10000), 300 + d);
        fe_send(&t, TAKE(15));
        assert_int_equal(fe_wait(&t, 15, 10000), 300 + d);
        while (!mem_idle(t.m)) fe_tick(&t);
    }
    printf("# the read was performed before the take at %u of 41 gaps\n", read_first);
    assert_true(read_first > 0);
    /* a take of the line that passed the slice before the read but is held in the CPU queue behind a
     * take of another line of the partition (F/E 4.3: each queue strictly ordered) is performed after
     * the read: the read must not leave its bytes, or the read after the take would be answered */
    const uint64_t X = L + (uint64_t)c.interleave_bytes * c.partitions * c.slices; /* L's slice */
    fe_send(&t, FILL(23, 66));
    assert_int_equal(fe_wait(&t, 23, 10000), 0);
    mem_req hx = fe_line_req(20, X, MEM_READ, MEM_SRC_CPU, FE_TRIG_FULL, FE_ACT_EMPTY, 0);
    fe_send(&t, hx); /* X is empty: waits at the head of the CPU queue */
    for (int i = 0; i < 100; i++) fe_tick(&t);
    fe_send(&t, TAKE(21)); /* behind it */
    for (int i = 0; i < 100; i++) fe_tick(&t);
    fe_send(&t, READ(22)); /* L is full: performed at once */
    assert_int_equal(fe_wait(&t, 22, 10000), 66);
    assert_int_equal(t.got[21], UINT32_MAX); /* the take still held */
    mem_req fx = fe_line_req(24, X, MEM_WRITE, MEM_SRC_CPU, FE_TRIG_NONE, FE_ACT_FILL, 77);
    fe_send(&t, fx);
    assert_int_equal(fe_wait(&t, 21, 10000), 66);
    assert_int_equal(fe_wait(&t, 20, 10000), 77);
    while (!mem_idle(t.m)) fe_tick(&t);
    fe_send(&t, READ(25)); /* L is empty */
    assert_int_equal(fe_wait(&t, 25, 2000), UINT32_MAX);
    fe_send(&t, FILL(26, 88));
    assert_int_equal(fe_wait(&t, 25, 10000), 88);
    /* the same with the take's line given no way (both ways of L's L2 set dirty with ordinary lines):
     * the slice counts it apart, and no read keeps bytes while it is in flight.  Ordinary lines 128 +
     * 2048 k share L's slice; even k share its set (small_config: 4 sets of 2 ways) */
    while (!mem_idle(t.m)) fe_tick(&t);
    for (unsigned k = 0; k < 4; k += 2) { /* dirty: L's way evicted */
        mem_req o = fe_line_req(30 + k, 128 + 2048 * k, MEM_WRITE, MEM_SRC_GPU, D, D, 1);
        fe_send(&t, o);
        assert_int_equal(fe_wait(&t, 30 + k, 10000), 0);
    }
    fe_send(&t, hx);
    for (int i = 0; i < 100; i++) fe_tick(&t);
    fe_send(&t, TAKE(40)); /* no way for it: held behind hx */
    for (int i = 0; i < 100; i++) fe_tick(&t);
    for (unsigned k = 6; k < 10; k += 2) { /* clean lines in both ways: a read could take one */
        mem_req o = fe_line_req(35 + k, 128 + 2048 * k, MEM_READ, MEM_SRC_GPU, D, D, 0);
        fe_send(&t, o);
        fe_wait(&t, 35 + k, 10000);
    }
    fe_send(&t, READ(41));
    assert_int_equal(fe_wait(&t, 41, 10000), 88);
    assert_int_equal(t.got[40], UINT32_MAX);
    fe_send(&t, fx);
    assert_int_equal(fe_wait(&t, 40, 10000), 88);
    while (!mem_idle(t.m)) fe_tick(&t);
    fe_send(&t, READ(42)); /* L is empty */
    assert_int_equal(fe_wait(&t, 42, 2000), UINT32_MAX);
    fe_send(&t, FILL(43, 99));
    assert_int_equal(fe_wait(&t, 42, 10000), 99);
    fe_send(&t, TAKE(27));
    assert_int_equal(fe_wait(&t, 27, 10000), 99);
    while (!mem_idle(t.m)) fe_tick(&t);
    /* an F/E init of the range drops the line: the read after it waits */
    fe_send(&t, FILL(16, 44));
    assert_int_equal(fe_wait(&t, 16, 10000), 0);
    uint64_t hits = fe_l2_hits(t.m);
    assert_int_equal(mem_fe_init(t.m, L, 128, false), 0);
    fe_send(&t, READ(17));
    assert_int_equal(fe_wait(&t, 17, 3000), UINT32_MAX);
    assert_int_equal(fe_l2_hits(t.m), hits);
    fe_send(&t, FILL(18, 55));
    assert_int_equal(fe_wait(&t, 17, 10000), 55);
#undef FILL
#undef TAKE
#undef READ
    mem_free(t.m);
    free(mem);
}

/* ------------------------------------------------ lane-form atomics */
static mem_req lane_req(uint64_t id, uint64_t addr) {
    mem_req r = req_at(id, addr, MEM_ATOMIC);
    r.kind = MEM_K_ATOMIC;
    r.fe_trig = r.fe_act = MEM_FE_DEFAULT;
    r.data = r.lanes = true;
    return r;
}
static void lane_add(mem_req *r, unsigned off, unsigned op, uint32_t opnd, uint32_t cmp) {
    r->lane[r->amo_ops++] = (mem_lane){opnd, cmp, (uint8_t)off, (uint8_t)op};
    set_word(r->bmask, off / 4);
}
static uint32_t lane_res(const mem_rsp *r, unsigned i) {
    uint32_t v;
    memcpy(&v, r->rdata + 4 * i, 4);
    return v;
}
static uint32_t peek_word(const uint8_t *mem, uint64_t a) {
    uint32_t v;
    memcpy(&v, mem + a, 4);
    return v;
}
/* Sends each request on its port in the same cycle, runs to idle, keeps the responses. */
static void lane_run(mem_system *m, const mem_req *q, const unsigned *port, unsigned n, mem_rsp *out) {
    for (unsigned i = 0; i < n; i++) assert_int_equal(mem_send(m, port[i], &q[i]), 0);
    unsigned got = 0;
    for (unsigned t = 0; t < 100000 && got < n; t++) {
        mem_tick(m);
        for (unsigned p = 0; p < 2; p++)
            for (const mem_rsp *r; (r = mem_rsp_peek(m, p));) {
                assert_int_equal(r->status, MEM_OK);
                assert_true(r->id < n);
                out[r->id] = *r;
                got++;
                mem_rsp_pop(m, p);
            }
    }
    assert_int_equal(got, n);
    assert_true(mem_idle(m));
}

/* Lane-form atomics (the SIMT core's with [gpu] atomics = memory): the L2
 * performs a request's operations in lane order, so several lanes on one
 * word each see the value the one before left; two requests racing from two
 * ports to one word serialize at the slice, one entirely before the other
 * (the old values fit exactly one of the two orders, and no update is lost);
 * LR / SC compare by value; malformed lane forms are refused. */
static void test_lane_atomics(void **state) {
    (void)state;
    mem_config c;
    uint8_t *mem;
    mem_system *m = small_system(&c, &mem);
    const uint64_t L = 5 * 128; /* a line; words 0 and 3 of it */
    const uint32_t w0 = 1000, w3 = 50;
    memcpy(mem + L, &w0, 4);
    memcpy(mem + L + 12, &w3, 4);
    /* one request: three adds and a max on word 0, a swap on word 3 between them */
    mem_req q[2];
    q[0] = lane_req(0, L);
    lane_add(&q[0], 0, MEM_AMO_ADD, 1, 0);
    lane_add(&q[0], 0, MEM_AMO_ADD, 2, 0);
    lane_add(&q[0], 12, MEM_AMO_SWAP, 7, 0);
    lane_add(&q[0], 0, MEM_AMO_ADD, 4, 0);
    lane_add(&q[0], 0, MEM_AMO_MAXU, 1005, 0);
    mem_rsp r[2];
    const unsigned p0[1] = {0};
    lane_run(m, q, p0, 1, r);
    const uint32_t want0[5] = {1000, 1001, 50, 1003, 1007};
    for (unsigned i = 0; i < 5; i++) assert_int_equal(lane_res(&r[0], i), want0[i]);
    assert_int_equal(peek_word(mem, L), 1007);
    assert_int_equal(peek_word(mem, L + 12), 7);
    /* two requests racing: port 0 adds 1, 2, 3; port 1 adds 100, 200 (and swaps word 3) */
    q[0] = lane_req(0, L);
    for (unsigned k = 1; k <= 3; k++) lane_add(&q[0], 0, MEM_AMO_ADD, k, 0);
    q[1] = lane_req(1, L);
    lane_add(&q[1], 0, MEM_AMO_ADD, 100, 0);
    lane_add(&q[1], 12, MEM_AMO_SWAP, 9, 0);
    lane_add(&q[1], 0, MEM_AMO_ADD, 200, 0);
    const unsigned p01[2] = {0, 1};
    lane_run(m, q, p01, 2, r);
    const uint32_t base = 1007;
    const bool a_first = lane_res(&r[0], 0) == base;
    const uint32_t a0 = a_first ? base : base + 300, b0 = a_first ? base + 6 : base;
    printf("# two lane-form atomics racing to one word: port %u's performed first\n", a_first ? 0u : 1u);
    assert_int_equal(lane_res(&r[0], 0), a0);
    assert_int_equal(lane_res(&r[0], 1), a0 + 1);
    assert_int_equal(lane_res(&r[0], 2), a0 + 3);
    assert_int_equal(lane_res(&r[1], 0), b0);
    assert_int_equal(lane_res(&r[1], 1), 7);
    assert_int_equal(lane_res(&r[1], 2), b0 + 100);
    assert_int_equal(peek_word(mem, L), base + 306);
    assert_int_equal(peek_word(mem, L + 12), 9);
    /* LR / SC: a lane's SC succeeds when the word still holds what its LR read; a second one
     * carrying the same stale value fails; an SC without a reservation fails */
    q[0] = lane_req(0, L);
    lane_add(&q[0], 0, MEM_AMO_LR, 0, 0);
    lane_add(&q[0], 0, MEM_AMO_SC, 77, base + 306);
    lane_add(&q[0], 0, MEM_AMO_SC, 88, base + 306);
    lane_add(&q[0], 12, MEM_AMO_SC_FAIL, 99, 9);
    lane_run(m, q, p0, 1, r);
    assert_int_equal(lane_res(&r[0], 0), base + 306);
    assert_int_equal(lane_res(&r[0], 1), 0);
    assert_int_equal(lane_res(&r[0], 2), 1);
    assert_int_equal(lane_res(&r[0], 3), 1);
    assert_int_equal(peek_word(mem, L), 77);
    assert_int_equal(peek_word(mem, L + 12), 9);
    /* malformed lane forms */
    struct { mem_req r; const char *why; } bad[4];
    for (unsigned i = 0; i < 4; i++) {
        bad[i].r = lane_req(0, L);
        lane_add(&bad[i].r, 0, MEM_AMO_ADD, 1, 0);
    }
    bad[0].r.lane[0].op = MEM_AMO_SC_FAIL + 1, bad[0].why = "amo 12 out of range";
    bad[1].r.lane[0].off = 4, bad[1].why = "not a word of the byte mask";
    bad[2].r.amo_ops = MEM_LANES + 1, bad[2].why = "at most 32";
    bad[3].r.op = MEM_WRITE, bad[3].why = "lane form on a non-atomic";
    for (unsigned i = 0; i < 4; i++) {
        assert_int_equal(mem_send(m, 0, &bad[i].r), -1);
        if (!strstr(mem_error(m), bad[i].why)) fail_msg("case %u: '%s' lacks '%s'", i, mem_error(m), bad[i].why);
    }
    mem_free(m);
    free(mem);
}

/* GPGPU-Sim's partition front end ([mem] l2_in_queue) and what stallMC
 * counts: a port that never takes its responses blocks the slice's head on
 * the reply network; the input queue behind it fills, and with stall_mc =
 * l2_input that is stallMC (gpu_stall_dramfull), while the memory
 * controller's queues, which only misses reach, never fill. */
static void flood_one_line(unsigned in_queue, unsigned stall_mc, mem_stats *s) {
    mem_config c;
    small_config(&c);
    c.fe_impl = FG_IMPL_C;
    c.l2_in_queue = in_queue;
    c.stall_mc = stall_mc;
    uint8_t *mem = calloc(MEM_BYTES, 1);
    char err[256];
    mem_system *m = mem_new(&c, 2, mem, MEM_BYTES, err, sizeof err);
    if (!m) fail_msg("mem_new: %s", err);
    mem_req r = {.id = 1, .addr = 4096, .bmask = {0xf, 0}, .op = MEM_READ, .kind = MEM_K_DATA,
                 .fe_trig = MEM_FE_DEFAULT, .fe_act = MEM_FE_DEFAULT, .amo_ops = 1};
    assert_int_equal(mem_send(m, 0, &r), 0); /* the line into the L2 */
    for (unsigned n = 0; !mem_rsp_peek(m, 0); n++) {
        assert_true(n < 10000);
        mem_tick(m);
    }
    mem_rsp_pop(m, 0);
    for (unsigned n = 0; n < 3000; n++) { /* hits whose responses nobody takes */
        assert_true(mem_send(m, 0, &r) >= 0);
        mem_tick(m);
    }
    mem_get_stats(m, MEM_ALL, s);
    mem_free(m);
    free(mem);
}

static void test_stall_mc_l2_input(void **state) {
    (void)state;
    mem_stats s;
    flood_one_line(2, MEM_STALL_MC_L2_INPUT, &s);
    printf("# input queue of 2, stallMC at it: stallMC %" PRIu64 ", input full %" PRIu64 ", MC queue full %" PRIu64
           " cycles\n", s.stall_mc, s.l2_in_full, s.mc_q_full);
    assert_true(s.l2_in_full > 1000);
    assert_true(s.stall_mc > 1000 && s.stall_mc <= s.cycles);
    assert_int_equal(s.mc_q_full, 0);
    flood_one_line(2, MEM_STALL_MC_CONTROLLER, &s);
    assert_true(s.l2_in_full > 1000);
    assert_int_equal(s.stall_mc, 0);
    flood_one_line(0, MEM_STALL_MC_CONTROLLER, &s); /* one pipeline: no input queue to be full */
    assert_int_equal(s.l2_in_full, 0);
    assert_true(s.l2_in_wait > 1000); /* the requests wait on the network for the full pipeline instead */
}

static void expect_bad(const char *set, const char *why) {
    fg_config *cf = fg_config_new();
    char err[512];
    assert_int_equal(fg_config_load(cf, "configs/edge.ini", err, sizeof err), 0);
    assert_int_equal(fg_config_set(cf, set, err, sizeof err), 0);
    mem_config c;
    mem_config_default(&c);
    if (mem_config_load(&c, cf, err, sizeof err) == 0) fail_msg("%s accepted", set);
    if (!strstr(err, why)) fail_msg("%s: '%s' lacks '%s'", set, err, why);
    printf("# %s -> %s\n", set, err);
    fg_config_free(cf);
}

static void test_bad_configs(void **state) {
    (void)state;
    expect_bad("mem.line_bytes=96", "power of two");
    expect_bad("mem.dram_banks=0", "dram_banks must be >= 1");
    expect_bad("mem.fe_region_base=1000", "region not aligned");
    expect_bad("mem.fe_qd_gpu=8", "fe_qd_nt/fe_qd_cpu/fe_qd_gpu");
    expect_bad("mem.fe_region_bytes=25165824", "fe_region_bytes");
    expect_bad("mem.tCL=abc", "tCL");
    expect_bad("mem.icnt_in_flits=3", "whole packet");
    expect_bad("mem.icnt=torus", "not one of");
    expect_bad("mem.slices=16", "1..64");
    expect_bad("mem.fe_impl=verilog", "fe_impl");
    expect_bad("mem.tRC=20", "tRC");
    expect_bad("mem.core_mhz=800", "differs from [gpu] clock_mhz");
    expect_bad("mem.stall_mc=l2_input", "needs an input queue");
    expect_bad("mem.stall_mc=dram", "not one of");
    /* a config the verilated F/E queues do not fit runs with the C twin */
    fg_config *cf = fg_config_new();
    char err[512];
    assert_int_equal(fg_config_load(cf, "configs/cm.ini", err, sizeof err), 0);
    assert_int_equal(fg_config_set(cf, "mem.fe_qd_gpu=8", err, sizeof err), 0);
    assert_int_equal(fg_config_set(cf, "mem.fe_impl=c", err, sizeof err), 0);
    mem_config c;
    mem_config_default(&c);
    assert_int_equal(mem_config_load(&c, cf, err, sizeof err), 0);
    fg_config_free(cf);
    uint8_t *mem = calloc(256u << 20, 1);
    mem_system *m = mem_new(&c, 1, mem, 256u << 20, err, sizeof err);
    assert_non_null(m);
    mem_free(m);
    /* the region must lie in memory */
    assert_null(mem_new(&c, 1, mem, 64u << 20, err, sizeof err));
    assert_non_null(strstr(err, "beyond"));
    free(mem);
    /* the F/E block's rtl_new picks the verilated configuration by its
     * parameters, or names every configuration there is */
    fe_sched_queues_params fp;
    char why[200];
    assert_false(mem_config_fe_params(&c, &fp, why, sizeof why)); /* fe_qd_gpu = 8: the twin's own */
    fg_block *blk = fg_block_new(&fe_sched_queues_class, FG_IMPL_RTL, &fp, err, sizeof err);
    assert_null(blk);
    printf("# %s\n", err);
    assert_non_null(strstr(err, "fe_sched_queues differs in"));
    assert_non_null(strstr(err, "fe_sched_queues_sys differs in QD_GPU (asked 8, built 16)"));
    blk = fg_block_new(&fe_sched_queues_class, FG_IMPL_LOCKSTEP, &fp, err, sizeof err);
    assert_null(blk);
    /* every machine config loads and builds, with its RTL */
    const char *files[] = {"configs/edge.ini", "configs/fe.ini", "configs/cm.ini"};
    for (unsigned i = 0; i < 3; i++) {
        cf = fg_config_new();
        assert_int_equal(fg_config_load(cf, files[i], err, sizeof err), 0);
        mem_config_default(&c);
        if (mem_config_load(&c, cf, err, sizeof err)) fail_msg("%s: %s", files[i], err);
        assert_int_equal(fg_config_check_unused_section(cf, "mem", err, sizeof err), 0);
        fg_config_free(cf);
        assert_int_equal(c.fe_impl, FG_IMPL_RTL);
        mem = calloc(256u << 20, 1);
        m = mem_new(&c, 4, mem, 256u << 20, err, sizeof err);
        if (!m) fail_msg("%s: %s", files[i], err);
        mem_lat l;
        assert_int_equal(mem_unloaded_latency(&c, 0, MEM_LAT_ROW_MISS, 128, &l), 0);
        printf("# %s: %u partitions x %u slices, L2 %" PRIu64 " KiB, peak DRAM %.1f GB/s, unloaded read miss "
               "%" PRIu64 " core cycles\n",
               files[i], c.partitions, c.slices, mem_config_l2_bytes(&c) >> 10, mem_config_peak_gbps(&c), l.total);
        mem_free(m);
        free(mem);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_traffic), cmocka_unit_test(test_idle_skip_exact),
        cmocka_unit_test(test_unsatisfiable_wait), cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_lane_atomics),     cmocka_unit_test(test_fe_l2_cache),
        cmocka_unit_test(test_bad_configs),      cmocka_unit_test(test_stall_mc_l2_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
