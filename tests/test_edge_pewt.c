/* Pending event warp table (EDGE IV-C, IV-E): directed tests of the contract
 * in sim/twin/edge_pewt.h (reset, full table, arrival order, same-edge
 * push/start/exit, completion pulse, each error leaving the table as it was)
 * and a random lockstep run (RTL vs C twin) checked every cycle against an
 * independent event-level reference model: every pushed event starts exactly
 * once, in arrival order, and completes exactly once with its own tag. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edge_pewt.h"
#include "fg_tb.h"

#define N_ENT 4
#define N_SLOTS 64
#define NONE (-1)

typedef struct {
    fg_block *b;
    edge_pewt_in_t in;
} pewt_tb;

static const edge_pewt_out_t *out(const pewt_tb *t) { return fg_block_out(t->b); }

static void tb_init(pewt_tb *t, const char *wave) {
    memset(t, 0, sizeof *t);
    edge_pewt_params p;
    edge_pewt_params_default(&p);
    t->b = tb_block(&edge_pewt_class, &p, wave);
}

/* ------------------------------------------------------------ events */
/* Event number seq: every field derived from it, all 64 bits exercised. */
typedef struct {
    uint64_t kernel, param, tag, thr, regs;
} ev_t;

static uint64_t mix(uint64_t x) { /* splitmix64 finalizer */
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static ev_t ev_of(uint64_t seq) {
    return (ev_t){mix(4 * seq + 1), mix(4 * seq + 2), mix(4 * seq + 3), 1 + mix(4 * seq) % 32,
                  mix(4 * seq) / 32 % 65};
}

static void set_ev_fields(edge_pewt_in_t *in, ev_t e) {
    in->ev_valid_i = 1;
    in->ev_kernel_i = e.kernel;
    in->ev_param_i = e.param;
    in->ev_tag_i = e.tag;
    in->ev_threads_i = e.thr;
    in->ev_regs_i = e.regs;
}

static void set_ev(edge_pewt_in_t *in, uint64_t seq) { set_ev_fields(in, ev_of(seq)); }

/* One edge with any of push (event seq), start (into slot), exit (of slot). */
static void edge(pewt_tb *t, long push_seq, int start_slot, int exit_slot) {
    memset(&t->in, 0, sizeof t->in);
    if (push_seq >= 0) set_ev(&t->in, (uint64_t)push_seq);
    if (start_slot >= 0) {
        t->in.start_valid_i = 1;
        t->in.start_slot_i = (uint64_t)start_slot;
    }
    if (exit_slot >= 0) {
        t->in.exit_valid_i = 1;
        t->in.exit_slot_i = (uint64_t)exit_slot;
    }
    tb_step(t->b, &t->in);
    memset(&t->in, 0, sizeof t->in);
}

static void idle(pewt_tb *t, int n) {
    for (int i = 0; i < n; i++) edge(t, NONE, NONE, NONE);
}

static void push(pewt_tb *t, long seq) {
    assert_true(out(t)->ev_ready_o);
    edge(t, seq, NONE, NONE);
}

static void expect_counts(const pewt_tb *t, unsigned pend, unsigned run, unsigned free_) {
    assert_int_equal(out(t)->n_pending_o, pend);
    assert_int_equal(out(t)->n_running_o, run);
    assert_int_equal(out(t)->n_free_o, free_);
    assert_int_equal(out(t)->ev_ready_o, free_ > 0);
    assert_int_equal(out(t)->hd_valid_o, pend > 0);
}

/* The head shows event seq (every field) in entry idx. */
static void expect_head(const pewt_tb *t, uint64_t seq, unsigned idx) {
    const edge_pewt_out_t *o = out(t);
    ev_t e = ev_of(seq);
    assert_true(o->hd_valid_o);
    assert_int_equal(o->hd_idx_o, idx);
    assert_int_equal(o->hd_kernel_o, e.kernel);
    assert_int_equal(o->hd_param_o, e.param);
    assert_int_equal(o->hd_tag_o, e.tag);
    assert_int_equal(o->hd_threads_o, e.thr);
    assert_int_equal(o->hd_regs_o, e.regs);
}

/* Exit of slot: the completion pulse is there for exactly the next cycle. */
static void exit_expect(pewt_tb *t, int slot, uint64_t seq) {
    edge(t, NONE, NONE, slot);
    assert_true(out(t)->cpl_valid_o);
    assert_int_equal(out(t)->cpl_tag_o, ev_of(seq).tag);
    assert_int_equal(out(t)->cpl_slot_o, slot);
    assert_false(out(t)->err_valid_o);
    idle(t, 1);
    assert_false(out(t)->cpl_valid_o);
}

/* Nothing pending: the head reads 0 (never a stale or
 * never-written entry, whatever the storage held at power-up). */
static void expect_head_zero(const edge_pewt_out_t *o) {
    assert_int_equal(o->hd_idx_o, 0);
    assert_int_equal(o->hd_kernel_o | o->hd_param_o | o->hd_tag_o | o->hd_threads_o | o->hd_regs_o, 0);
}

static void expect_reset_state(const pewt_tb *t) {
    const edge_pewt_out_t *o = out(t);
    expect_counts(t, 0, 0, N_ENT);
    expect_head_zero(o);
    assert_false(o->cpl_valid_o);
    assert_int_equal(o->cpl_tag_o, 0);
    assert_int_equal(o->cpl_slot_o, 0);
    assert_false(o->err_valid_o);
    assert_int_equal(o->err_code_o, PEWT_ERR_NONE);
    assert_int_equal(o->cnt_err_o, 0);
    assert_int_equal(o->cnt_push_o, 0);
}

/* ------------------------------------------------------ directed tests */
static void test_reset_state(void **state) {
    (void)state;
    pewt_tb t;
    tb_init(&t, NULL);
    expect_reset_state(&t);
    /* activity, an error and a completion, then a reset while every input
     * is active: the reset cycles must not push, start or count anything.
     * The order FIFO's storage is left with entry 3 in its first word and
     * entry 0 holds event 3, so a push during the reset (into entry 0,
     * FIFO word 0) would show in lockstep on hd_idx_o / hd_* right after. */
    push(&t, 0);
    push(&t, 1);
    push(&t, 2);             /* entries 0, 1, 2 */
    edge(&t, NONE, 4, NONE); /* ev 0 -> slot 4 */
    edge(&t, NONE, 5, 9);    /* ev 1 -> slot 5; exit of slot 9: an error */
    edge(&t, NONE, NONE, 4); /* ev 0 exits: entry 0 free */
    push(&t, 3);             /* -> entry 0 */
    push(&t, 4);             /* -> entry 3, FIFO word 0 */
    assert_int_equal(out(&t)->cnt_err_o, 1);
    expect_counts(&t, 3, 1, 0);
    edge(&t, NONE, NONE, 5); /* entry 1 free */
    t.in.start_valid_i = t.in.exit_valid_i = 1;
    t.in.start_slot_i = 7;
    t.in.exit_slot_i = 5; /* unknown now: an error */
    set_ev(&t.in, 5);
    tb_step(t.b, &t.in); /* these inputs stay applied during the reset */
    assert_int_equal(out(&t)->cnt_push_o, 6);
    fg_block_reset(t.b);
    expect_reset_state(&t);
    /* the table works from scratch: the first push lands in entry 0 */
    push(&t, 10);
    expect_counts(&t, 1, 0, N_ENT - 1);
    expect_head(&t, 10, 0);
    assert_int_equal(out(&t)->cnt_push_o, 1);
    fg_block_free(t.b);
}

/* Push until full: ev_ready_o drops after the 4th, a waiting pusher loses
 * nothing, and every event comes out in order with all its fields. */
static void test_push_until_full(void **state) {
    (void)state;
    pewt_tb t;
    tb_init(&t, NULL);
    long next = 0; /* the event the pusher is offering */
    unsigned accepted = 0;
    for (int c = 0; c < 12; c++) {
        memset(&t.in, 0, sizeof t.in);
        set_ev(&t.in, (uint64_t)next);
        bool fire = out(&t)->ev_ready_o;
        tb_step(t.b, &t.in);
        if (fire) {
            next++;
            accepted++;
        }
        assert_int_equal(out(&t)->n_pending_o, accepted);
        assert_int_equal(out(&t)->ev_ready_o, accepted < N_ENT);
        expect_head(&t, 0, 0);
    }
    assert_int_equal(accepted, N_ENT);
    assert_int_equal(out(&t)->cnt_push_o, N_ENT);
    expect_counts(&t, 4, 0, 0);
    /* a start makes no room (the entry runs); only the exit frees it */
    edge(&t, next, 20, NONE);
    expect_counts(&t, 3, 1, 0);
    expect_head(&t, 1, 1);
    assert_int_equal(out(&t)->cnt_push_o, N_ENT);
    /* exit and offered push at the same edge: ready was 0, the push waits */
    memset(&t.in, 0, sizeof t.in);
    set_ev(&t.in, (uint64_t)next);
    t.in.exit_valid_i = 1;
    t.in.exit_slot_i = 20;
    tb_step(t.b, &t.in);
    expect_counts(&t, 3, 0, 1);
    assert_true(out(&t)->cpl_valid_o);
    assert_int_equal(out(&t)->cpl_tag_o, ev_of(0).tag);
    push(&t, next); /* event 4 into the freed entry 0 */
    expect_counts(&t, 4, 0, 0);
    assert_int_equal(out(&t)->cnt_push_o, N_ENT + 1);
    /* drain: events 1..4 start in arrival order, entries 1, 2, 3, 0 */
    const unsigned idx[] = {1, 2, 3, 0};
    for (unsigned k = 0; k < 4; k++) {
        expect_head(&t, 1 + k, idx[k]);
        edge(&t, NONE, (int)(30 + k), NONE);
    }
    expect_counts(&t, 0, 4, 0);
    for (unsigned k = 0; k < 4; k++) exit_expect(&t, (int)(30 + k), 1 + k);
    expect_counts(&t, 0, 0, N_ENT);
    assert_int_equal(out(&t)->cnt_err_o, 0);
    fg_block_free(t.b);
}

/* Pending entries start in arrival order, not in entry-index order. */
static void test_fifo_order(void **state) {
    (void)state;
    pewt_tb t;
    tb_init(&t, NULL);
    for (long s = 0; s < 4; s++) push(&t, s); /* entries 0..3 */
    edge(&t, NONE, 1, NONE);                  /* ev 0 (entry 0) -> slot 1 */
    edge(&t, NONE, 2, NONE);                  /* ev 1 (entry 1) -> slot 2 */
    edge(&t, NONE, 3, NONE);                  /* ev 2 (entry 2) -> slot 3 */
    expect_head(&t, 3, 3);
    exit_expect(&t, 3, 2); /* entry 2 free */
    push(&t, 10);          /* -> entry 2 */
    exit_expect(&t, 1, 0); /* entry 0 free */
    push(&t, 11);          /* -> entry 0 */
    exit_expect(&t, 2, 1); /* entry 1 free */
    push(&t, 12);          /* -> entry 1 */
    expect_counts(&t, 4, 0, 0);
    const long seq[] = {3, 10, 11, 12};
    const unsigned idx[] = {3, 2, 0, 1};
    for (unsigned k = 0; k < 4; k++) {
        expect_head(&t, (uint64_t)seq[k], idx[k]);
        edge(&t, NONE, (int)(40 + k), NONE);
        expect_counts(&t, 3 - k, k + 1, 0);
    }
    expect_head_zero(out(&t)); /* all four running, none pending: the head reads 0 */
    for (unsigned k = 4; k-- > 0;) exit_expect(&t, (int)(40 + k), (uint64_t)seq[k]);
    assert_int_equal(out(&t)->cnt_err_o, 0);
    fg_block_free(t.b);
}

/* Push, start and exit at the same edge; an exit and a start into the same
 * slot at the same edge; a push and a start at the same edge on an empty
 * table (the pushed entry is not pending before the edge). */
static void test_same_edge(void **state) {
    (void)state;
    pewt_tb t;
    tb_init(&t, NULL);
    push(&t, 0);
    push(&t, 1);
    push(&t, 2);
    edge(&t, NONE, 5, NONE); /* ev 0 runs in slot 5 (entry 0) */
    expect_counts(&t, 2, 1, 1);
    /* push ev 3 (-> entry 3, the lowest free before the edge), start ev 1
     * into slot 7, exit slot 5 (frees entry 0), all at one edge */
    edge(&t, 3, 7, 5);
    expect_counts(&t, 2, 1, 1);
    assert_true(out(&t)->cpl_valid_o);
    assert_int_equal(out(&t)->cpl_tag_o, ev_of(0).tag);
    assert_int_equal(out(&t)->cpl_slot_o, 5);
    assert_false(out(&t)->err_valid_o);
    assert_int_equal(out(&t)->cnt_push_o, 4);
    expect_head(&t, 2, 2);
    /* exit slot 7 (ev 1) and start ev 2 into slot 7 at the same edge: the
     * exit frees the slot first, no error */
    edge(&t, NONE, 7, 7);
    assert_false(out(&t)->err_valid_o);
    assert_true(out(&t)->cpl_valid_o);
    assert_int_equal(out(&t)->cpl_tag_o, ev_of(1).tag);
    expect_counts(&t, 1, 1, 2);
    expect_head(&t, 3, 3);
    /* the slot now maps to ev 2 */
    exit_expect(&t, 7, 2);
    /* start ev 3 into slot 9 and exit slot 9 at the same edge: the exit is
     * judged before the edge (slot 9 ran nothing) -> EXIT_UNKNOWN, start done */
    edge(&t, NONE, 9, 9);
    assert_true(out(&t)->err_valid_o);
    assert_int_equal(out(&t)->err_code_o, PEWT_ERR_EXIT_UNKNOWN);
    assert_false(out(&t)->cpl_valid_o);
    expect_counts(&t, 0, 1, 3);
    exit_expect(&t, 9, 3);
    /* empty table: push and start at one edge -> START_EMPTY, push kept */
    edge(&t, 4, 11, NONE);
    assert_true(out(&t)->err_valid_o);
    assert_int_equal(out(&t)->err_code_o, PEWT_ERR_START_EMPTY);
    expect_counts(&t, 1, 0, 3);
    expect_head(&t, 4, 0);
    edge(&t, NONE, 11, NONE);
    exit_expect(&t, 11, 4);
    assert_int_equal(out(&t)->cnt_err_o, 2);
    assert_int_equal(out(&t)->cnt_push_o, 5);
    fg_block_free(t.b);
}

/* Completion: exactly one cycle, right tag and slot, back-to-back pulses. */
static void test_completion_pulse(void **state) {
    (void)state;
    pewt_tb t;
    tb_init(&t, NULL);
    const int slots[] = {0, 63, 17, 40};
    for (long s = 0; s < 4; s++) push(&t, 100 + s);
    for (int k = 0; k < 4; k++) edge(&t, NONE, slots[k], NONE);
    expect_counts(&t, 0, 4, 0);
    assert_false(out(&t)->cpl_valid_o);
    /* one exit: pulse for exactly one cycle, then cpl_* hold their values */
    edge(&t, NONE, NONE, 63);
    assert_true(out(&t)->cpl_valid_o);
    assert_int_equal(out(&t)->cpl_tag_o, ev_of(101).tag);
    assert_int_equal(out(&t)->cpl_slot_o, 63);
    expect_counts(&t, 0, 3, 1);
    unsigned pulses = 0;
    for (int c = 0; c < 10; c++) {
        idle(&t, 1);
        pulses += (unsigned)out(&t)->cpl_valid_o;
    }
    assert_int_equal(pulses, 0);
    assert_int_equal(out(&t)->cpl_tag_o, ev_of(101).tag);
    /* back-to-back exits at consecutive edges: two consecutive pulses */
    edge(&t, NONE, NONE, 40);
    assert_true(out(&t)->cpl_valid_o);
    assert_int_equal(out(&t)->cpl_tag_o, ev_of(103).tag);
    assert_int_equal(out(&t)->cpl_slot_o, 40);
    edge(&t, NONE, NONE, 0);
    assert_true(out(&t)->cpl_valid_o);
    assert_int_equal(out(&t)->cpl_tag_o, ev_of(100).tag);
    assert_int_equal(out(&t)->cpl_slot_o, 0);
    edge(&t, NONE, NONE, 17);
    assert_true(out(&t)->cpl_valid_o);
    assert_int_equal(out(&t)->cpl_tag_o, ev_of(102).tag);
    assert_int_equal(out(&t)->cpl_slot_o, 17);
    idle(&t, 1);
    assert_false(out(&t)->cpl_valid_o);
    expect_counts(&t, 0, 0, N_ENT);
    /* a second exit of a slot already freed is an error, not a pulse */
    edge(&t, NONE, NONE, 17);
    assert_false(out(&t)->cpl_valid_o);
    assert_int_equal(out(&t)->err_code_o, PEWT_ERR_EXIT_UNKNOWN);
    fg_block_free(t.b);
}

/* Applies one erroneous edge and checks: err pulse with the code for one
 * cycle, cnt_err + n, and every other output exactly as before. */
static void error_edge(pewt_tb *t, int start_slot, int exit_slot, unsigned code, unsigned n) {
    edge_pewt_out_t before = *out(t);
    edge(t, NONE, start_slot, exit_slot);
    edge_pewt_out_t after = *out(t);
    assert_true(after.err_valid_o);
    assert_int_equal(after.err_code_o, code);
    assert_int_equal(after.cnt_err_o, before.cnt_err_o + n);
    after.err_valid_o = before.err_valid_o;
    after.err_code_o = before.err_code_o;
    after.cnt_err_o = before.cnt_err_o;
    assert_false(before.cpl_valid_o);
    assert_memory_equal(&before, &after, sizeof before);
    idle(t, 1);
    assert_false(out(t)->err_valid_o);
    assert_int_equal(out(t)->err_code_o, code); /* the code holds */
}

static void test_errors(void **state) {
    (void)state;
    pewt_tb t;
    tb_init(&t, NULL);
    /* start with nothing pending (and nothing at all) */
    error_edge(&t, 3, NONE, PEWT_ERR_START_EMPTY, 1);
    /* two running (slots 3, 4), two pending */
    for (long s = 0; s < 4; s++) push(&t, s);
    edge(&t, NONE, 3, NONE);
    edge(&t, NONE, 4, NONE);
    idle(&t, 1);
    /* start into a slot that runs an event warp */
    error_edge(&t, 3, NONE, PEWT_ERR_START_BUSY, 1);
    error_edge(&t, 4, NONE, PEWT_ERR_START_BUSY, 1);
    /* exit of a slot that runs no event warp */
    error_edge(&t, NONE, 5, PEWT_ERR_EXIT_UNKNOWN, 1);
    error_edge(&t, NONE, 63, PEWT_ERR_EXIT_UNKNOWN, 1);
    /* both at one edge: both counted, the start's code shown */
    error_edge(&t, 4, 6, PEWT_ERR_START_BUSY, 2);
    assert_int_equal(out(&t)->cnt_err_o, 7);
    /* drain the rest: pending start in order, running complete with their tags */
    edge(&t, NONE, 4, 3); /* busy slot 4 again, exit slot 3 is fine */
    assert_int_equal(out(&t)->err_code_o, PEWT_ERR_START_BUSY);
    assert_true(out(&t)->cpl_valid_o);
    assert_int_equal(out(&t)->cpl_tag_o, ev_of(0).tag);
    expect_counts(&t, 2, 1, 1);
    expect_head(&t, 2, 2);
    /* both pending started in slot order 10, 11 */
    edge(&t, NONE, 10, NONE);
    expect_head(&t, 3, 3);
    edge(&t, NONE, 11, NONE);
    /* both empty and an unknown exit at one edge: 2 more, START_EMPTY shown */
    error_edge(&t, 12, 13, PEWT_ERR_START_EMPTY, 2);
    exit_expect(&t, 4, 1);
    exit_expect(&t, 10, 2);
    exit_expect(&t, 11, 3);
    expect_counts(&t, 0, 0, N_ENT);
    assert_int_equal(out(&t)->cnt_err_o, 10);
    assert_int_equal(out(&t)->cnt_push_o, 4);
    /* cnt_err_o saturates at 0xffff (two errors an edge) */
    memset(&t.in, 0, sizeof t.in);
    t.in.start_valid_i = t.in.exit_valid_i = 1;
    for (uint64_t c = 1; c <= 32768; c++) {
        tb_step(t.b, &t.in);
        uint64_t want = 10 + 2 * c;
        assert_int_equal(out(&t)->cnt_err_o, want > 0xffff ? 0xffff : want);
    }
    fg_block_free(t.b);
}

/* ------------------------------------------------ random lockstep run */
/* The configuration of the random run: entries, slots, field masks. */
static struct {
    unsigned ne, ns;
    uint64_t m_addr, m_tag, m_thr, m_regs;
} rc;

static uint64_t wmask(unsigned w) { return w >= 64 ? ~0ULL : (1ULL << w) - 1; }

static void rc_set(const edge_pewt_params *p) {
    assert_true(p->entries <= N_ENT && (1u << p->slot_w) <= N_SLOTS);
    rc.ne = p->entries;
    rc.ns = 1u << p->slot_w;
    rc.m_addr = wmask(p->addr_w);
    rc.m_tag = wmask(p->tag_w);
    rc.m_thr = wmask(p->thr_w);
    rc.m_regs = wmask(p->regs_w);
}

/* event seq as the table holds it: each field cut to its width */
static ev_t ev_rc(uint64_t seq) {
    ev_t e = ev_of(seq);
    return (ev_t){e.kernel & rc.m_addr, e.param & rc.m_addr, e.tag & rc.m_tag, e.thr & rc.m_thr,
                  e.regs & rc.m_regs};
}

/* Independent reference: events by number, a queue of pending events with
 * the entry each took, the event running in each slot. */
typedef struct {
    long q_seq[N_ENT]; /* N_ENT, N_SLOTS: the largest configuration run */
    unsigned q_idx[N_ENT];
    unsigned q_n;
    uint64_t busy;          /* entries in use */
    long slot_ev[N_SLOTS];  /* event running in each slot, or NONE */
    unsigned slot_idx[N_SLOTS];
    unsigned n_run;
    long next_start;        /* events start in arrival (= number) order */
    uint64_t pushes, errs;
    bool cpl_v;
    long cpl_ev;
    unsigned cpl_slot;
    bool err_v;
    unsigned err_code;
} ref_t;

/* A reset: the table empties, counters and pulses clear; the events it held
 * are lost (marked 2: neither started nor completed from now on). */
static void ref_reset(ref_t *r, unsigned char *started, unsigned char *completed) {
    for (unsigned i = 0; i < r->q_n; i++) started[r->q_seq[i]] = completed[r->q_seq[i]] = 2;
    for (unsigned s = 0; s < N_SLOTS; s++)
        if (r->slot_ev[s] != NONE) completed[r->slot_ev[s]] = 2;
    long next_start = r->next_start;
    memset(r, 0, sizeof *r);
    for (unsigned s = 0; s < N_SLOTS; s++) r->slot_ev[s] = NONE;
    r->next_start = next_start;
}

static void check_outputs(const ref_t *r, const edge_pewt_out_t *o, uint64_t c) {
    unsigned n_free = rc.ne - r->q_n - r->n_run;
    if (o->ev_ready_o != (n_free > 0) || o->n_free_o != n_free || o->n_pending_o != r->q_n ||
        o->n_running_o != r->n_run || o->hd_valid_o != (r->q_n > 0))
        fail_msg("cycle %llu: occupancy ready=%llu free=%llu pend=%llu run=%llu, expected free=%u "
                 "pend=%u run=%u",
                 (unsigned long long)c, (unsigned long long)o->ev_ready_o,
                 (unsigned long long)o->n_free_o, (unsigned long long)o->n_pending_o,
                 (unsigned long long)o->n_running_o, n_free, r->q_n, r->n_run);
    if (r->q_n) {
        ev_t e = ev_rc((uint64_t)r->q_seq[0]);
        if (o->hd_idx_o != r->q_idx[0] || o->hd_tag_o != e.tag || o->hd_kernel_o != e.kernel ||
            o->hd_param_o != e.param || o->hd_threads_o != e.thr || o->hd_regs_o != e.regs)
            fail_msg("cycle %llu: head is entry %llu tag %llx, expected event %ld in entry %u",
                     (unsigned long long)c, (unsigned long long)o->hd_idx_o,
                     (unsigned long long)o->hd_tag_o, r->q_seq[0], r->q_idx[0]);
    } else if (o->hd_idx_o | o->hd_kernel_o | o->hd_param_o | o->hd_tag_o | o->hd_threads_o | o->hd_regs_o) {
        fail_msg("cycle %llu: nothing pending, but the head reads entry %llu tag %llx", (unsigned long long)c,
                 (unsigned long long)o->hd_idx_o, (unsigned long long)o->hd_tag_o);
    }
    if (o->cpl_valid_o != r->cpl_v ||
        (r->cpl_v && (o->cpl_tag_o != ev_rc((uint64_t)r->cpl_ev).tag || o->cpl_slot_o != r->cpl_slot)))
        fail_msg("cycle %llu: completion valid=%llu slot=%llu, expected valid=%d event %ld slot %u",
                 (unsigned long long)c, (unsigned long long)o->cpl_valid_o,
                 (unsigned long long)o->cpl_slot_o, r->cpl_v, r->cpl_ev, r->cpl_slot);
    if (o->err_valid_o != r->err_v || (r->err_v && o->err_code_o != r->err_code))
        fail_msg("cycle %llu: error valid=%llu code=%llu, expected %d/%u", (unsigned long long)c,
                 (unsigned long long)o->err_valid_o, (unsigned long long)o->err_code_o, r->err_v,
                 r->err_code);
    if (o->cnt_push_o != r->pushes || o->cnt_err_o != (r->errs > 0xffff ? 0xffff : r->errs))
        fail_msg("cycle %llu: counters push=%llu err=%llu, expected %llu/%llu", (unsigned long long)c,
                 (unsigned long long)o->cnt_push_o, (unsigned long long)o->cnt_err_o,
                 (unsigned long long)r->pushes, (unsigned long long)r->errs);
}

typedef struct {
    uint64_t full_waits, same_edge3, exit_start_same_slot, err[4], cpl, max_run_full;
} cover_t;

/* The reference's edge; started / completed count per event number. */
static void ref_edge(ref_t *r, const edge_pewt_in_t *in, long push_seq, unsigned char *started,
                     unsigned char *completed, cover_t *cv) {
    unsigned n_free = rc.ne - r->q_n - r->n_run;
    bool push = in->ev_valid_i && n_free > 0;
    unsigned push_idx = 0; /* the lowest entry free before the edge */
    while (push_idx < rc.ne && (r->busy >> push_idx & 1)) push_idx++;
    unsigned ss = (unsigned)in->start_slot_i, xs = (unsigned)in->exit_slot_i;
    bool exit_ok = in->exit_valid_i && r->slot_ev[xs] != NONE;
    bool exit_err = in->exit_valid_i && !exit_ok;
    bool start_empty = in->start_valid_i && r->q_n == 0;
    bool start_busy = in->start_valid_i && r->q_n && r->slot_ev[ss] != NONE && !(in->exit_valid_i && xs == ss);
    bool start_ok = in->start_valid_i && r->q_n && !start_busy;
    if (in->ev_valid_i && !push) cv->full_waits++;
    if (push && start_ok && exit_ok) cv->same_edge3++;
    if (start_ok && exit_ok && xs == ss) cv->exit_start_same_slot++;
    /* completion pulse for the next cycle */
    r->cpl_v = exit_ok;
    if (exit_ok) {
        r->cpl_ev = r->slot_ev[xs];
        r->cpl_slot = xs;
        assert_int_equal(completed[r->cpl_ev], 0); /* completes exactly once */
        completed[r->cpl_ev] = 1;
        r->busy &= ~(1ULL << r->slot_idx[xs]);
        r->slot_ev[xs] = NONE;
        r->n_run--;
        cv->cpl++;
    }
    if (start_ok) {
        long ev = r->q_seq[0];
        assert_int_equal(ev, r->next_start); /* arrival order */
        assert_int_equal(started[ev], 0);    /* starts exactly once */
        started[ev] = 1;
        r->next_start++;
        assert_true(r->slot_ev[ss] == NONE); /* after the exit above */
        r->slot_ev[ss] = ev;
        r->slot_idx[ss] = r->q_idx[0];
        r->n_run++;
        memmove(r->q_seq, r->q_seq + 1, (r->q_n - 1) * sizeof *r->q_seq);
        memmove(r->q_idx, r->q_idx + 1, (r->q_n - 1) * sizeof *r->q_idx);
        r->q_n--;
    }
    if (push) {
        assert_true(push_idx < rc.ne);
        r->busy |= 1ULL << push_idx;
        r->q_seq[r->q_n] = push_seq;
        r->q_idx[r->q_n] = push_idx;
        r->q_n++;
        r->pushes++;
    }
    r->err_v = start_empty || start_busy || exit_err;
    if (r->err_v) {
        r->err_code = start_empty  ? PEWT_ERR_START_EMPTY
                      : start_busy ? PEWT_ERR_START_BUSY
                                   : PEWT_ERR_EXIT_UNKNOWN;
        if (start_empty) cv->err[PEWT_ERR_START_EMPTY]++;
        if (start_busy) cv->err[PEWT_ERR_START_BUSY]++;
        if (exit_err) cv->err[PEWT_ERR_EXIT_UNKNOWN]++;
    }
    r->errs += (uint64_t)(start_empty || start_busy) + (uint64_t)exit_err;
}

static unsigned pick_slot(fg_rng *g) {
    return fg_rng_chance(g, 3, 4) ? (unsigned)fg_rng_below(g, 8) : (unsigned)fg_rng_below(g, rc.ns);
}

/* n cycles of random stimulus (then a drain) on a table with parameters p,
 * in lockstep, against the reference; reset_in > 0: a reset (RTL and twin
 * alike, with whatever inputs are applied) at random cycles, one in reset_in
 * on average, after which the reference starts over and the comparison
 * continues.  full_cover: assert that every corner was reached. */
static void random_run(const char *what, const edge_pewt_params *p, uint64_t n, unsigned reset_in,
                       bool full_cover) {
    fg_rng g;
    fg_rng_seed(&g, tb_seed(what));
    rc_set(p);
    pewt_tb t;
    memset(&t, 0, sizeof t);
    t.b = tb_block(&edge_pewt_class, p, full_cover ? "edge_pewt" : NULL);
    /* every cycle may push at most one event */
    unsigned char *started = calloc(n + 64, 1), *completed = calloc(n + 64, 1);
    assert_non_null(started);
    assert_non_null(completed);
    ref_t r;
    memset(&r, 0, sizeof r);
    for (int s = 0; s < N_SLOTS; s++) r.slot_ev[s] = NONE;
    long ev_at_reset = 0;
    uint64_t resets = 0;
    cover_t cv;
    memset(&cv, 0, sizeof cv);
    long next_ev = 0;
    bool offering = false;
    unsigned p_push = 2, p_start = 2, p_exit = 2; /* in eighths, reshuffled in phases */
    /* the last cycles drain the table: no pushes, only good starts and exits */
    uint64_t drain_from = n > 200 ? n - 200 : n;
    for (uint64_t c = 0; c < n + 200; c++) {
        bool drain = c >= drain_from;
        if (reset_in && !drain && fg_rng_chance(&g, 1, reset_in)) {
            fg_block_reset(t.b); /* the inputs of the last edge stay applied */
            if (t.b->failed) fail_msg("cycle %llu, after a reset: %s", (unsigned long long)c, t.b->error);
            ref_reset(&r, started, completed);
            ev_at_reset = next_ev;
            r.next_start = next_ev;
            resets++;
        }
        const edge_pewt_out_t *o = out(&t);
        check_outputs(&r, o, c);
        if (c % 4096 == 0) {
            p_push = 1 + (unsigned)fg_rng_below(&g, 7);
            p_start = 1 + (unsigned)fg_rng_below(&g, 7);
            p_exit = 1 + (unsigned)fg_rng_below(&g, 7);
        }
        edge_pewt_in_t *in = &t.in;
        /* push: an offered event is held until taken (valid/ready) */
        if (!offering && !drain && fg_rng_chance(&g, p_push, 8)) offering = true;
        if (offering) set_ev_fields(in, ev_rc((uint64_t)next_ev)); /* only bits the ports have */
        else in->ev_valid_i = 0;
        /* start: mostly when something is pending, into a slot with no event warp */
        in->start_valid_i = 0;
        if (fg_rng_chance(&g, drain ? 4 : p_start, 8) && (r.q_n || (!drain && fg_rng_chance(&g, 1, 16)))) {
            unsigned s = pick_slot(&g);
            for (int k = 0; k < 8 && r.slot_ev[s] != NONE && (drain || fg_rng_chance(&g, 7, 8)); k++)
                s = pick_slot(&g);
            if (!drain || r.slot_ev[s] == NONE) {
                in->start_valid_i = 1;
                in->start_slot_i = s;
            }
        }
        /* exit: mostly a slot that runs an event warp, sometimes any slot */
        in->exit_valid_i = 0;
        if (fg_rng_chance(&g, drain ? 4 : p_exit, 8)) {
            if (r.n_run && (drain || fg_rng_chance(&g, 31, 32))) {
                unsigned k = (unsigned)fg_rng_below(&g, r.n_run);
                for (unsigned s = 0; s < rc.ns; s++)
                    if (r.slot_ev[s] != NONE && k-- == 0) {
                        in->exit_slot_i = s;
                        break;
                    }
                in->exit_valid_i = 1;
            } else if (!drain && fg_rng_chance(&g, 1, r.n_run ? 1 : 16)) {
                in->exit_valid_i = 1; /* often an error */
                in->exit_slot_i = pick_slot(&g);
            }
        }
        if (r.n_run == rc.ne) cv.max_run_full++;
        bool taken = in->ev_valid_i && o->ev_ready_o;
        ref_edge(&r, in, next_ev, started, completed, &cv);
        tb_step(t.b, in);
        if (taken) {
            next_ev++;
            offering = false;
        }
    }
    check_outputs(&r, out(&t), n + 200);
    /* conservation: the table drained, every pushed event started and
     * completed exactly once */
    assert_int_equal(r.q_n, 0);
    assert_int_equal(r.n_run, 0);
    assert_int_equal(r.pushes, (uint64_t)(next_ev - ev_at_reset));
    assert_int_equal(r.next_start, next_ev);
    for (long e = 0; e < next_ev; e++)
        if (!started[e] || !completed[e]) fail_msg("event %ld: started %d completed %d", e, started[e], completed[e]);
    if (reset_in) {
        printf("# %llu resets during the run\n", (unsigned long long)resets);
        if (n / reset_in >= 50) assert_true(resets > n / reset_in / 2); /* ~n / reset_in expected */
    }
    printf("# %llu cycles: %ld events pushed, started and completed; %llu waits on a full table, "
           "%llu push+start+exit edges, %llu exit+start same slot, errors empty/busy/unknown "
           "%llu/%llu/%llu, %llu cycles with all running\n",
           (unsigned long long)n, next_ev, (unsigned long long)cv.full_waits,
           (unsigned long long)cv.same_edge3, (unsigned long long)cv.exit_start_same_slot,
           (unsigned long long)cv.err[1], (unsigned long long)cv.err[2], (unsigned long long)cv.err[3],
           (unsigned long long)cv.max_run_full);
    assert_true((uint64_t)next_ev > n / 20);
    if (full_cover && n >= 100000) { /* long runs must have reached every corner, in proportion to their length
                          * (n / 10000: 100 of each at the default 10^6 cycles) */
        const uint64_t k = n / 10000;
        assert_true(r.errs < 0xffff); /* cnt_err_o checked exactly, not saturated */
        assert_true((uint64_t)next_ev > n / 20);
        assert_true(cv.full_waits > n / 100);
        assert_true(cv.same_edge3 > k && cv.exit_start_same_slot > k);
        assert_true(cv.err[1] > k && cv.err[2] > k && cv.err[3] > k);
        assert_true(cv.max_run_full > k);
    }
    free(started);
    free(completed);
    fg_block_free(t.b);
}

static void test_random_lockstep(void **state) {
    (void)state;
    edge_pewt_params p;
    edge_pewt_params_default(&p);
    random_run("edge_pewt random lockstep", &p, tb_cycles(1000000), 0, true);
}

/* The second verilated configuration (rtl/edge/edge_pewt.toml edge_pewt_odd: 3 entries,
 * 32 slots, narrower fields) in random lockstep. */
static const edge_pewt_params ODD = {3, 40, 24, 5, 5, 6};
static void test_odd_random_lockstep(void **state) {
    (void)state;
    random_run("edge_pewt odd configuration random lockstep", &ODD, tb_cycles(1000000) / 5, 0, false);
}

/* Resets at random cycles mid-run, both configurations. */
static void test_random_reset_lockstep(void **state) {
    (void)state;
    edge_pewt_params p;
    edge_pewt_params_default(&p);
    random_run("edge_pewt random resets", &p, tb_cycles(1000000) / 5, 1000, false);
    random_run("edge_pewt odd configuration random resets", &ODD, tb_cycles(1000000) / 5, 1000, false);
}

/* The error counter saturates at 0xffff (two errors an edge: a start with
 * nothing pending and an exit of an unknown slot) and stays there; a reset
 * clears it.  cnt_push_o's bits above 16 are excluded from toggle coverage
 * (tests/coverage_exclude.txt); the random run pushes more than 2^17 events. */
static void test_err_counter_saturates(void **state) {
    (void)state;
    pewt_tb t;
    tb_init(&t, NULL);
    for (unsigned i = 0; i < 0x8001; i++) edge(&t, NONE, (int)(i % N_SLOTS), (int)((i + 1) % N_SLOTS));
    assert_int_equal(out(&t)->cnt_err_o, 0xffff);
    assert_true(out(&t)->err_valid_o);
    error_edge(&t, 3, 4, PEWT_ERR_START_EMPTY, 0); /* saturated: no change */
    idle(&t, 2);
    assert_int_equal(out(&t)->cnt_err_o, 0xffff);
    push(&t, 1);
    assert_int_equal(out(&t)->cnt_push_o, 1);
    idle(&t, 1); /* no inputs while the reset is compared */
    fg_block_reset(t.b);
    expect_reset_state(&t);
    fg_block_free(t.b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reset_state),      cmocka_unit_test(test_push_until_full),
        cmocka_unit_test(test_fifo_order),       cmocka_unit_test(test_same_edge),
        cmocka_unit_test(test_completion_pulse), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_random_lockstep), cmocka_unit_test(test_odd_random_lockstep),
        cmocka_unit_test(test_random_reset_lockstep), cmocka_unit_test(test_err_counter_saturates),
    };
    return tb_run_tests("edge_pewt", tests);
}
