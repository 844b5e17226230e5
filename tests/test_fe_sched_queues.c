/* Tests of the F/E-bit DRAM scheduler queues (rtl/fe/fe_sched_queues.sv and
 * its C twin): directed scenarios from the F/E paper (Sec. 4.1-4.5, 6.3) and
 * a random lockstep run with a transaction-level scoreboard.  Every test runs
 * the RTL and the twin in lockstep by default (FG_IMPL overrides). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fe_sched_queues.h"
#include "fg_tb.h"

/* The verilated configuration (rtl/fe/fe_sched_queues.toml). */
static const fe_sched_queues_params P = {
    .addr_w = 32, .words = 32, .gran = 4, .region_base = 4096, .region_lines = 16,
    .qd_nt = 4, .qd_cpu = 4, .qd_gpu = 4, .tag_w = 8, .wd_w = 16, .cnt_w = 32, .init_w = 16};
#define LINE(i) (4096u + 128u * (unsigned)(i))
#define ALL 0xffffffffu

typedef struct {
    uint64_t cycle;
    unsigned q, tag;
} ev;

typedef struct {
    fg_block *b;
    fe_sched_queues_in_t in;
    uint64_t cyc;
    ev served[512], nacked[64];
    unsigned n_served, n_nacked;
} bench;

static const fe_sched_queues_out_t *O(const bench *t) { return fg_block_out(t->b); }

/* Waits out the clear of the F/E store that follows every reset. */
static void wait_clear(bench *t);

static void bench_open(bench *t, const char *wave) {
    memset(t, 0, sizeof *t);
    t->b = tb_block(&fe_sched_queues_class, &P, wave);
    t->in.out_ready_i = 1;
    t->in.nack_ready_i = 1;
    wait_clear(t);
}

/* One cycle: records outputs taken (served / NACKed) with their cycle. */
static void step(bench *t) {
    const fe_sched_queues_out_t *o = O(t);
    if (o->out_valid_o && t->in.out_ready_i && t->n_served < 512)
        t->served[t->n_served++] = (ev){t->cyc, (unsigned)o->out_q_o, (unsigned)o->out_tag_o};
    if (o->nack_valid_o && t->in.nack_ready_i && t->n_nacked < 64)
        t->nacked[t->n_nacked++] = (ev){t->cyc, (unsigned)o->nack_q_o, (unsigned)o->nack_tag_o};
    tb_step(t->b, &t->in);
    t->cyc++;
}
static void run(bench *t, unsigned n) {
    while (n--) step(t);
}
/* After reset the block clears every tracked line (one per cycle) before it
 * takes a request or an init command (F/E Sec. 4.5). */
static void wait_clear(bench *t) {
    for (unsigned i = 0; i < P.region_lines; i++) {
        assert_int_equal(O(t)->req_ready_o, 0);
        assert_int_equal(O(t)->init_ready_o, 0);
        step(t);
    }
    assert_int_equal(O(t)->req_ready_o, 7);
    assert_int_equal(O(t)->init_ready_o, 1);
}

typedef struct {
    unsigned src, we, dflt, trig, act, tag;
    uint32_t addr, mask;
} req;

static unsigned queue_of(const req *r) {
    fe_sched_queues_in_t in = {.req_src_i = r->src, .req_we_i = r->we, .req_dflt_i = r->dflt,
                               .req_trig_i = r->trig, .req_act_i = r->act, .req_addr_i = r->addr};
    return fe_sched_queue_of(&P, &in, NULL, NULL);
}
static void set_req(bench *t, const req *r) {
    t->in.req_valid_i = 1;
    t->in.req_src_i = r->src;
    t->in.req_we_i = r->we;
    t->in.req_dflt_i = r->dflt;
    t->in.req_trig_i = r->trig;
    t->in.req_act_i = r->act;
    t->in.req_addr_i = r->addr;
    t->in.req_mask_i = r->mask;
    t->in.req_tag_i = r->tag;
}
/* Offers a request until it is accepted; returns the cycle it was. */
static uint64_t send(bench *t, req r) {
    set_req(t, &r);
    unsigned q = queue_of(&r);
    for (unsigned i = 0; i < 1000; i++) {
        bool ok = O(t)->req_ready_o >> q & 1;
        uint64_t c = t->cyc;
        step(t);
        if (ok) {
            t->in.req_valid_i = 0;
            return c;
        }
    }
    fail_msg("request tag %u never accepted", r.tag);
    return 0;
}
static req gpu_read(uint32_t a, uint32_t m, unsigned tag) { return (req){1, 0, 1, 0, 0, tag, a, m}; }
static req gpu_write(uint32_t a, uint32_t m, unsigned tag) { return (req){1, 1, 1, 0, 0, tag, a, m}; }
static req cpu(unsigned we, unsigned trig, unsigned act, uint32_t a, uint32_t m, unsigned tag) {
    return (req){0, we, 0, trig, act, tag, a, m};
}

/* Start-up initialisation; checks requests are held off while it runs and
 * that it takes exactly one cycle per line. */
static void init_range(bench *t, uint32_t addr, unsigned lines, unsigned full) {
    while (!O(t)->init_ready_o) step(t);
    t->in.init_valid_i = 1;
    t->in.init_addr_i = addr;
    t->in.init_lines_i = lines;
    t->in.init_full_i = full;
    step(t);
    t->in.init_valid_i = 0;
    for (unsigned i = 0; i < lines; i++) {
        assert_int_equal(O(t)->init_ready_o, 0);
        assert_int_equal(O(t)->req_ready_o, 0);
        step(t);
    }
    assert_int_equal(O(t)->init_ready_o, 1);
}

static const ev *find(const ev *v, unsigned n, unsigned tag) {
    for (unsigned i = 0; i < n; i++)
        if (v[i].tag == tag) return &v[i];
    return NULL;
}
static const ev *served(const bench *t, unsigned tag) { return find(t->served, t->n_served, tag); }
static const ev *nacked(const bench *t, unsigned tag) { return find(t->nacked, t->n_nacked, tag); }

/* Probe of a line's bits: a CPU wait-full (or wait-empty) read with a short
 * watchdog is served iff every masked bit is full (empty). */
static bool probe(bench *t, uint32_t a, uint32_t m, unsigned trig, unsigned tag) {
    uint64_t lim = t->in.wdog_limit_i;
    t->in.wdog_limit_i = 8;
    send(t, cpu(0, trig, 0, a, m, tag));
    for (unsigned i = 0; i < 40 && !served(t, tag) && !nacked(t, tag); i++) step(t);
    t->in.wdog_limit_i = lim;
    assert_true(served(t, tag) || nacked(t, tag));
    return served(t, tag) != NULL;
}

/* ----------------------------------------------------------- directed */

/* Every trigger x action combination on a full and on an empty line: served
 * iff the trigger holds (else the watchdog NACKs it), and the line's bits
 * afterwards are the action applied (or unchanged when not served). */
static void test_trigger_action_matrix(void **state) {
    (void)state;
    bench t;
    bench_open(&t, NULL);
    t.in.wdog_limit_i = 20;
    unsigned tag = 1;
    for (unsigned full = 0; full < 2; full++)
        for (unsigned trig = 0; trig < 3; trig++)
            for (unsigned act = 0; act < 3; act++) {
                uint32_t a = LINE(3);
                init_range(&t, a, 1, full);
                unsigned my = tag++;
                send(&t, cpu(act != 0, trig, act, a, ALL, my));
                run(&t, 30);
                bool want = trig == FE_TRIG_NONE || (trig == FE_TRIG_FULL) == (full == 1);
                assert_int_equal(served(&t, my) != NULL, want);
                assert_int_equal(nacked(&t, my) != NULL, !want);
                if (want) assert_int_equal(served(&t, my)->q, trig ? FE_Q_CPU : FE_Q_NT);
                unsigned after = full;
                if (want && act == FE_ACT_FILL) after = 1;
                if (want && act == FE_ACT_EMPTY) after = 0;
                assert_int_equal(probe(&t, a, ALL, FE_TRIG_FULL, tag++), after == 1);
                assert_int_equal(probe(&t, a, ALL, FE_TRIG_EMPTY, tag++), after == 0);
            }
    fg_block_free(t.b);
}

/* Overlap-start (Sec. 5.1): the kernel's GPU read reaches the controller
 * before the CPU's memcpyHtoD; it stalls at the head of the triggered-GPU
 * queue and is released by the CPU write's fill passing through the
 * non-triggered queue. */
static void test_overlap_start(void **state) {
    (void)state;
    bench t;
    bench_open(&t, "fe_sched_queues");
    send(&t, gpu_read(LINE(2), 0x0000ffff, 10));
    run(&t, 40);
    assert_int_equal(O(&t)->head_blocked_o, 4);
    assert_null(served(&t, 10));
    assert_true(O(&t)->stall_gpu_o >= 36);
    uint64_t fill = send(&t, cpu(1, FE_TRIG_NONE, FE_ACT_FILL, LINE(2), ALL, 11));
    run(&t, 10);
    const ev *w = served(&t, 11), *r = served(&t, 10);
    assert_non_null(w);
    assert_non_null(r);
    assert_int_equal(w->q, FE_Q_NT);
    assert_int_equal(r->q, FE_Q_GPU);
    /* accepted at c; at the NT head in c+1, which looks its line's bits up
     * (the fill is a read-modify-write); bits back into the head register at
     * c+2 (no bypass of the RAM's output), checked in c+3 (the
     * check is registered), leaves in c+4; on the output from c+5.  The
     * fill is written (and snooped, and the GPU read's bits checked) at the
     * edge after it leaves, which releases the GPU read: it leaves two cycles
     * after the fill. */
    assert_int_equal(w->cycle, fill + 5);
    assert_int_equal(r->cycle, w->cycle + 2);
    assert_int_equal(O(&t)->releases_o, 1);
    assert_int_equal(O(&t)->head_blocked_o, 0);
    assert_int_equal(O(&t)->nacks_o, 0);
    fg_block_free(t.b);
}

/* Overlap-finish (Sec. 5.2): the CPU's memcpyDtoH read (wait-full, empty)
 * is queued before the kernel writes its result; the GPU write's implicit
 * fill releases it. */
static void test_overlap_finish(void **state) {
    (void)state;
    bench t;
    bench_open(&t, NULL);
    send(&t, cpu(0, FE_TRIG_FULL, FE_ACT_EMPTY, LINE(5), ALL, 20));
    run(&t, 20);
    assert_int_equal(O(&t)->head_blocked_o, 2);
    send(&t, gpu_write(LINE(5), ALL, 21));
    run(&t, 10);
    assert_non_null(served(&t, 21));
    assert_non_null(served(&t, 20));
    assert_int_equal(served(&t, 20)->cycle, served(&t, 21)->cycle + 2); /* action written the cycle after */
    assert_int_equal(served(&t, 20)->q, FE_Q_CPU);
    assert_int_equal(O(&t)->releases_o, 1);
    /* the DtoH read emptied the line again */
    assert_false(probe(&t, LINE(5), ALL, FE_TRIG_FULL, 22));
    fg_block_free(t.b);
}

/* A triggered CPU request stalls while GPU requests pass it, and the reverse. */
static void test_bypass_both_ways(void **state) {
    (void)state;
    bench t;
    bench_open(&t, NULL);
    init_range(&t, LINE(0), 2, 1); /* lines 0, 1 full; the rest empty */
    send(&t, cpu(0, FE_TRIG_FULL, FE_ACT_NONE, LINE(7), ALL, 30));
    for (unsigned i = 0; i < 6; i++) send(&t, gpu_read(LINE(i & 1), ALL, 31 + i));
    run(&t, 26); /* one bit-needing request per 4 cycles per queue */
    for (unsigned i = 0; i < 6; i++) assert_non_null(served(&t, 31 + i));
    assert_null(served(&t, 30));
    assert_int_equal(O(&t)->head_blocked_o, 2);
    send(&t, gpu_write(LINE(7), ALL, 43)); /* releases the CPU head */
    run(&t, 8);
    assert_non_null(served(&t, 30));
    assert_true(served(&t, 30)->cycle == served(&t, 43)->cycle + 2);
    /* reverse: a GPU read on an empty line; triggered CPU reads pass it */
    send(&t, gpu_read(LINE(8), ALL, 40));
    for (unsigned i = 0; i < 2; i++) send(&t, cpu(0, FE_TRIG_EMPTY, 0, LINE(9), ALL, 41 + i));
    run(&t, 10);
    assert_null(served(&t, 40));
    assert_non_null(served(&t, 41));
    assert_non_null(served(&t, 42));
    assert_int_equal(O(&t)->head_blocked_o, 4);
    send(&t, cpu(1, FE_TRIG_NONE, FE_ACT_FILL, LINE(8), ALL, 44));
    run(&t, 8);
    assert_non_null(served(&t, 40));
    assert_true(served(&t, 40)->cycle == served(&t, 44)->cycle + 2);
    assert_int_equal(O(&t)->releases_o, 2);
    assert_int_equal(O(&t)->head_blocked_o, 0);
    fg_block_free(t.b);
}

/* The action of a request that leaves at edge t is written (and snooped) at
 * t+1; in the cycle between, a head of another queue on the same
 * line must not be served on its bits from before the action.  A fill leaves
 * the non-triggered queue while a wait-empty CPU read of that line holds the
 * empty bits: the read waits that cycle, then sees the line full and stays
 * blocked (served without the hazard: a wait-empty read after the fill). */
static void test_action_hazard(void **state) {
    (void)state;
    bench t;
    bench_open(&t, NULL);
    init_range(&t, LINE(3), 1, 0);
    t.in.out_ready_i = 0;
    send(&t, cpu(0, FE_TRIG_NONE, FE_ACT_NONE, LINE(200), ALL, 70)); /* fills the output register */
    send(&t, cpu(1, FE_TRIG_NONE, FE_ACT_FILL, LINE(3), ALL, 71));
    send(&t, cpu(0, FE_TRIG_EMPTY, FE_ACT_NONE, LINE(3), ALL, 72));
    run(&t, 10); /* both heads hold the empty line's bits */
    assert_int_equal(O(&t)->head_blocked_o, 0);
    t.in.out_ready_i = 1;
    run(&t, 10);
    assert_non_null(served(&t, 70));
    assert_non_null(served(&t, 71));
    assert_null(served(&t, 72));
    assert_int_equal(O(&t)->head_blocked_o, 2);
    send(&t, cpu(1, FE_TRIG_NONE, FE_ACT_EMPTY, LINE(3), ALL, 73)); /* empties it again: released */
    run(&t, 10);
    assert_non_null(served(&t, 72));
    assert_int_equal(served(&t, 72)->cycle, served(&t, 73)->cycle + 2);
    assert_int_equal(O(&t)->releases_o, 1);
    fg_block_free(t.b);
}

/* Sec. 4.3: with a single queue, a GPU read of an empty location would block
 * the CPU write that fills it forever.  Here the triggered-GPU queue is full
 * of such reads (and refuses more: stall_mc_o), yet the filling CPU write is
 * accepted by its own queue and releases every one of them. */
static void test_no_single_queue_interlock(void **state) {
    (void)state;
    bench t;
    bench_open(&t, NULL);
    for (unsigned i = 0; i < 4; i++) send(&t, gpu_read(LINE(4), 0xffu << (8 * i), 50 + i));
    run(&t, 5);
    assert_int_equal(O(&t)->req_ready_o, 3); /* GPU queue full, the others open */
    req extra = gpu_read(LINE(4), ALL, 54);
    set_req(&t, &extra);
    step(&t);
    assert_int_equal(O(&t)->stall_mc_o, 1); /* offered, rejected: queue full */
    step(&t);
    assert_int_equal(O(&t)->stall_mc_o, 1);
    t.in.req_valid_i = 0;
    step(&t);
    assert_int_equal(O(&t)->stall_mc_o, 0);
    run(&t, 50);
    assert_int_equal(t.n_served, 0); /* everything waits */
    send(&t, cpu(1, FE_TRIG_NONE, FE_ACT_FILL, LINE(4), ALL, 55));
    send(&t, extra);
    run(&t, 30);
    assert_int_equal(t.n_served, 6);
    assert_int_equal(t.served[0].tag, 55);
    for (unsigned i = 0; i < 5; i++) assert_int_equal(t.served[1 + i].tag, 50 + i);
    assert_int_equal(O(&t)->nacks_o, 0);
    fg_block_free(t.b);
}

/* Coalesced request (Sec. 4.1): a 32-word GPU read waits until every word is
 * full; three partial fills do not release it, the fourth does.  A CPU read of
 * the first 4 words only is served after the first fill. */
static void test_coalesced_partial_fills(void **state) {
    (void)state;
    bench t;
    bench_open(&t, NULL);
    send(&t, gpu_read(LINE(6) + 12, ALL, 60)); /* low address bits are carried, not used */
    send(&t, cpu(0, FE_TRIG_FULL, 0, LINE(6), 0xf, 61));
    for (unsigned k = 0; k < 4; k++) {
        run(&t, 20);
        assert_null(served(&t, 60));
        assert_int_equal(O(&t)->head_blocked_o & 4, 4);
        send(&t, gpu_write(LINE(6), 0xffu << (8 * k), 62 + k));
        run(&t, 8);
        assert_non_null(served(&t, 62 + k));
        assert_true(served(&t, 61) != NULL);
        assert_int_equal(served(&t, 60) != NULL, k == 3);
    }
    assert_int_equal(t.served[t.n_served - 1].tag, 60);
    assert_int_equal(O(&t)->releases_o, 2); /* CPU read once, GPU read once */
    fg_block_free(t.b);
}

/* Watchdog (beyond the paper): a read of a location nobody fills is NACKed
 * after exactly wdog_limit_i blocked cycles, carrying the request; the queue
 * moves on.  With the watchdog off it waits forever (the paper's behaviour). */
static void test_watchdog_nack(void **state) {
    (void)state;
    bench t;
    bench_open(&t, NULL);
    init_range(&t, LINE(0), 1, 1);
    send(&t, gpu_read(LINE(9) + 4, 0x30, 70));
    send(&t, gpu_read(LINE(0), ALL, 71));
    run(&t, 500);
    assert_int_equal(t.n_nacked + t.n_served, 0);
    assert_int_equal(O(&t)->head_blocked_o, 4);
    uint64_t stalled = O(&t)->stall_gpu_o;
    /* blocked cycles already exceed it: fires as soon as it is seen, which is
     * one cycle after it is set (the compare is registered, the
     * watchdog uses the limit of the cycle before) */
    t.in.wdog_limit_i = 50;
    step(&t);
    assert_int_equal(O(&t)->nack_valid_o, 0);
    step(&t);
    assert_int_equal(O(&t)->nack_valid_o, 1);
    t.in.wdog_limit_i = 0;
    run(&t, 10);
    assert_non_null(nacked(&t, 70));
    assert_non_null(served(&t, 71));
    /* a fresh one, with the watchdog on from the start */
    t.in.wdog_limit_i = 50;
    t.in.nack_ready_i = 0; /* the NACK waits on the requester without loss */
    send(&t, gpu_read(LINE(10), 0x1, 72));
    uint64_t b0 = 0;
    while (!O(&t)->head_blocked_o) {
        step(&t);
        assert_true(t.cyc < 2000);
    }
    b0 = t.cyc;
    while (!O(&t)->nack_valid_o) {
        step(&t);
        assert_true(t.cyc < b0 + 100);
    }
    assert_int_equal(t.cyc, b0 + 51); /* blocked 50 cycles, NACK on the next */
    const fe_sched_queues_out_t *o = O(&t);
    assert_int_equal(o->nack_tag_o, 72);
    assert_int_equal(o->nack_addr_o, LINE(10));
    assert_int_equal(o->nack_mask_o, 1);
    assert_int_equal(o->nack_trig_o, FE_TRIG_FULL);
    assert_int_equal(o->nack_src_o, FE_SRC_GPU);
    assert_int_equal(o->nack_q_o, FE_Q_GPU);
    run(&t, 5);
    assert_int_equal(O(&t)->nack_valid_o, 1);
    t.in.nack_ready_i = 1;
    run(&t, 2);
    assert_int_equal(O(&t)->nack_valid_o, 0);
    assert_int_equal(O(&t)->nacks_o, 2);
    assert_int_equal(O(&t)->err_o, 1);
    assert_int_equal(O(&t)->stall_gpu_o, stalled + 2 + 51);
    fg_block_free(t.b);
}

/* Queue-full back-pressure: with the DRAM side stalled, the non-triggered
 * queue fills (4 + the output register), the next request is refused with
 * stall_mc_o, nothing is lost and everything leaves in order. */
static void test_backpressure(void **state) {
    (void)state;
    bench t;
    bench_open(&t, NULL);
    t.in.out_ready_i = 0;
    for (unsigned i = 0; i < 5; i++) send(&t, cpu(1, 0, 0, 0x100000 + 64 * i, ALL, 80 + i));
    run(&t, 3);
    assert_int_equal(O(&t)->req_ready_o & 1, 0);
    assert_int_equal((O(&t)->q_count_o & 0xff), 4);
    req r = cpu(1, 0, 0, 0x200000, ALL, 85);
    set_req(&t, &r);
    run(&t, 20);
    assert_int_equal(O(&t)->stall_mc_o, 1);
    assert_int_equal(O(&t)->out_tag_o, 80); /* held stable */
    t.in.out_ready_i = 1;
    while (t.in.req_valid_i) {
        bool ok = O(&t)->req_ready_o & 1;
        step(&t);
        if (ok) t.in.req_valid_i = 0;
    }
    run(&t, 10);
    assert_int_equal(t.n_served, 6);
    for (unsigned i = 0; i < 6; i++) assert_int_equal(t.served[i].tag, 80 + i);
    assert_int_equal(O(&t)->stall_mc_o, 0);
    fg_block_free(t.b);
}

/* Tracked region (Sec. 4.2, 9) and start-up routine (Sec. 4.5): a triggered
 * read outside the region is non-triggered and never waits; lines marked
 * empty again block; an init range partly outside the region is clipped. */
static void test_region_and_init(void **state) {
    (void)state;
    bench t;
    bench_open(&t, NULL);
    send(&t, gpu_read(LINE(16), ALL, 90)); /* first line past the region */
    send(&t, gpu_read(LINE(0) - 128, ALL, 91));
    run(&t, 5);
    assert_int_equal(served(&t, 90)->q, FE_Q_NT);
    assert_int_equal(served(&t, 91)->q, FE_Q_NT);
    init_range(&t, LINE(14), 6, 1); /* lines 14, 15 in region, 16..19 outside */
    assert_true(probe(&t, LINE(15), ALL, FE_TRIG_FULL, 92));
    assert_false(probe(&t, LINE(13), ALL, FE_TRIG_FULL, 93));
    init_range(&t, LINE(15), 1, 0);
    assert_true(probe(&t, LINE(15), ALL, FE_TRIG_EMPTY, 94));
    assert_true(probe(&t, LINE(14), ALL, FE_TRIG_FULL, 95));
    /* a head waiting when the init runs sees the init's write (snooped) */
    send(&t, gpu_read(LINE(11), 0x3, 96));
    run(&t, 5);
    assert_int_equal(O(&t)->head_blocked_o, 4);
    init_range(&t, LINE(10), 3, 1);
    run(&t, 4);
    assert_non_null(served(&t, 96));
    fg_block_free(t.b);
}

/* Requests must never be served from never-written F/E
 * storage.  A reset clears the store (every line empty, requests held off
 * meanwhile), so what a run left behind - here lines marked full, and a
 * request waiting at the input during the reset - is not seen afterwards:
 * a wait-full read after the reset blocks, a wait-empty read is served. */
static void test_reset_clears_store(void **state) {
    (void)state;
    bench t;
    bench_open(&t, NULL);
    init_range(&t, LINE(0), 16, 1);
    assert_true(probe(&t, LINE(3), ALL, FE_TRIG_FULL, 1));
    req r = gpu_read(LINE(3), ALL, 2);
    set_req(&t, &r); /* offered through the reset: held off, then accepted */
    fg_block_reset(t.b);
    wait_clear(&t);
    step(&t);
    t.in.req_valid_i = 0;
    run(&t, 20);
    assert_null(served(&t, 2)); /* the line is empty again */
    assert_int_equal(O(&t)->head_blocked_o, 4);
    for (unsigned i = 0; i < 16; i++) assert_true(probe(&t, LINE(i), ALL, FE_TRIG_EMPTY, 10 + i));
    fg_block_free(t.b);
}

/* ----------------------------------------------------------- random */

typedef struct {
    unsigned tag, q, src, we, trig, act;
    uint32_t addr, mask;
    uint64_t released; /* cycle its trigger became true while at the head, or 0 */
} sb_entry;

typedef struct {
    const fe_sched_queues_params *p;
    uint32_t lbytes; /* bytes per line */
    sb_entry e[3][8];
    unsigned h[3], n[3];
    uint32_t bits[16];
} scoreboard;

static uint64_t bits_of(unsigned w) { return w >= 64 ? ~0ULL : (1ULL << w) - 1; }
static uint32_t *sb_line(scoreboard *s, uint32_t addr) {
    return &s->bits[(addr - s->p->region_base) / s->lbytes];
}
static bool sb_sat(scoreboard *s, const sb_entry *e) {
    if (!fe_sched_in_region(s->p, e->addr) || e->trig == FE_TRIG_NONE) return true;
    uint32_t b = *sb_line(s, e->addr) & e->mask;
    return e->trig == FE_TRIG_FULL ? b == e->mask : b == 0;
}
static sb_entry *sb_head(scoreboard *s, unsigned q) { return s->n[q] ? &s->e[q][s->h[q]] : NULL; }
static sb_entry sb_pop(scoreboard *s, unsigned q) {
    assert_true(s->n[q] > 0);
    sb_entry e = s->e[q][s->h[q]];
    s->h[q] = (s->h[q] + 1) % 8;
    s->n[q]--;
    return e;
}

/* Random lockstep of configuration p (at most 16 lines, queues of at most 8)
 * against the scoreboard; with reset_in != 0 a reset about every reset_in
 * cycles (RTL and twin reset the same way at random cycles,
 * the comparison goes on; the scoreboard drops what the reset drops). */
static void random_run(const fe_sched_queues_params *p, uint64_t seed, uint64_t cycles,
                       uint64_t reset_in) {
    fg_rng r;
    fg_rng_seed(&r, seed);
    fg_block *b = tb_block(&fe_sched_queues_class, p, NULL);
    fe_sched_queues_in_t in = {0};
    scoreboard sb;
    memset(&sb, 0, sizeof sb);
    sb.p = p;
    sb.lbytes = p->words * p->gran;
    assert_true(p->region_lines <= 16 && p->qd_nt <= 8 && p->qd_cpu <= 8 && p->qd_gpu <= 8);
    const uint32_t lb = sb.lbytes, all = (uint32_t)bits_of(p->words);
#define RLINE(i) ((uint32_t)p->region_base + lb * (uint32_t)(i))
    uint64_t accepted = 0, n_served = 0, n_nacked = 0, n_rel_checked = 0, max_lat = 0;
    uint64_t n_resets = 0, dropped = 0, lim_prev = 0;
    unsigned seq = 0, ready_phase = 0;
    bool have = false;
    fe_sched_queues_in_t cur = {0};
    for (uint64_t c = 0; c < cycles + 20000; c++) {
        bool drain = c >= cycles;
        const fe_sched_queues_out_t *o = fg_block_out(b);
        if (c % 40000 == 0) {
            static const unsigned lims[] = {0, 6, 40, 300};
            in.wdog_limit_i = lims[fg_rng_below(&r, 4)];
            ready_phase = (unsigned)fg_rng_below(&r, 3);
        }
        if (drain) in.wdog_limit_i = 16;
        if (reset_in && !drain && fg_rng_below(&r, reset_in) == 0) {
            for (unsigned k = 0; k < 3; k++) dropped += sb.n[k];
            memset(sb.n, 0, sizeof sb.n);
            memset(sb.bits, 0, sizeof sb.bits); /* the store is cleared */
            fg_block_reset(b);
            if (b->failed) fail_msg("seed %" PRIu64 ": %s", seed, b->error);
            o = fg_block_out(b);
            n_resets++;
        }
        /* a request: hold it (70%) or draw a new one */
        if (!have || fg_rng_chance(&r, 3, 10)) {
            memset(&cur, 0, sizeof cur);
            unsigned kind = (unsigned)fg_rng_below(&r, 100);
            cur.req_src_i = kind < 55;
            /* GPU requests mostly with the defaults, some with their own trigger / action */
            cur.req_dflt_i = kind < 55 ? !fg_rng_chance(&r, 1, 10) : fg_rng_chance(&r, 1, 8);
            cur.req_we_i = kind < 30 ? 0 : kind < 55 ? 1 : fg_rng_chance(&r, 1, 2);
            cur.req_trig_i = fg_rng_below(&r, 4);
            cur.req_act_i = fg_rng_below(&r, 4);
            uint64_t line = fg_rng_below(&r, p->region_lines);
            cur.req_addr_i = RLINE(line) + p->gran * fg_rng_below(&r, p->words) +
                             fg_rng_below(&r, p->gran); /* any byte: carried, not used */
            if (fg_rng_chance(&r, 1, 12))
                cur.req_addr_i = fg_rng_chance(&r, 1, 2) ? RLINE(fg_rng_below(&r, 3) + p->region_lines)
                                                         : (uint32_t)fg_rng_next(&r);
            cur.req_addr_i &= bits_of(p->addr_w);
            unsigned mk = (unsigned)fg_rng_below(&r, 4);
            cur.req_mask_i = (mk == 0 ? ALL
                              : mk == 1 ? (uint32_t)fg_rng_next(&r)
                              : mk == 2 ? 1u << fg_rng_below(&r, p->words)
                                        : 0xffu << (8 * fg_rng_below(&r, (p->words + 7) / 8))) & all;
            have = true;
        }
        cur.req_tag_i = seq & bits_of(p->tag_w);
        in.req_valid_i = !drain && fg_rng_chance(&r, 3, 5);
        in.req_src_i = cur.req_src_i;
        in.req_we_i = cur.req_we_i;
        in.req_dflt_i = cur.req_dflt_i;
        in.req_trig_i = cur.req_trig_i;
        in.req_act_i = cur.req_act_i;
        in.req_addr_i = cur.req_addr_i;
        in.req_mask_i = cur.req_mask_i;
        in.req_tag_i = cur.req_tag_i;
        in.out_ready_i = drain || (ready_phase == 0 ? 1 : fg_rng_chance(&r, ready_phase == 1 ? 4 : 1, 5));
        in.nack_ready_i = drain || fg_rng_chance(&r, 7, 10);
        in.init_valid_i = !drain && fg_rng_chance(&r, 1, 3000);
        in.init_full_i = fg_rng_chance(&r, 1, 2);
        in.init_addr_i = (RLINE(fg_rng_below(&r, p->region_lines + 4)) - lb * 2) & bits_of(p->addr_w);
        in.init_lines_i = 1 + fg_rng_below(&r, 6);

        unsigned trig, act, q = fe_sched_queue_of(p, &in, &trig, &act);
        bool acc = in.req_valid_i && (o->req_ready_o >> q & 1);
        bool out_free = !o->out_valid_o || in.out_ready_i;
        bool nack_free = !o->nack_valid_o || in.nack_ready_i;
        bool init_acc = in.init_valid_i && o->init_ready_o && in.init_lines_i;
        /* the watchdog uses the limit of the cycle before */
        uint64_t lim = lim_prev;
        lim_prev = in.wdog_limit_i & bits_of(p->wd_w);
        if (fg_block_step(b, &in)) fail_msg("seed %" PRIu64 ": %s", seed, b->error);
        o = fg_block_out(b);

        /* NACK first: judged on the bits before this cycle's action */
        if (nack_free && o->nack_valid_o) {
            unsigned nq = (unsigned)o->nack_q_o;
            assert_true(nq == FE_Q_CPU || nq == FE_Q_GPU);
            assert_true(lim != 0);
            sb_entry e = sb_pop(&sb, nq);
            assert_int_equal(o->nack_tag_o, e.tag);
            assert_int_equal(o->nack_addr_o, e.addr);
            assert_int_equal(o->nack_mask_o, e.mask);
            assert_false(sb_sat(&sb, &e)); /* a NACK is only for an unsatisfied trigger */
            n_nacked++;
        }
        if (out_free && o->out_valid_o) { /* a request left its queue this cycle */
            unsigned dq = (unsigned)o->out_q_o;
            sb_entry e = sb_pop(&sb, dq); /* per-queue order, exactly once */
            assert_int_equal(o->out_tag_o, e.tag);
            assert_int_equal(o->out_addr_o, e.addr);
            assert_int_equal(o->out_mask_o, e.mask);
            assert_int_equal(o->out_src_o, e.src);
            assert_int_equal(o->out_we_o, e.we);
            assert_int_equal(o->out_trig_o, e.trig);
            assert_int_equal(o->out_act_o, e.act);
            if (!sb_sat(&sb, &e))
                fail_msg("seed %" PRIu64 " cycle %" PRIu64 ": tag %u served with its trigger unsatisfied",
                         seed, c, e.tag);
            if (e.released && e.released != ~0ULL) {
                uint64_t lat = c - e.released;
                if (lat > max_lat) max_lat = lat;
                n_rel_checked++;
            }
            if (fe_sched_in_region(p, e.addr) && e.act != FE_ACT_NONE) {
                uint32_t *w = sb_line(&sb, e.addr);
                *w = e.act == FE_ACT_FILL ? (*w | e.mask) : (*w & ~e.mask);
                /* heads of the other queues this action satisfies: released now */
                for (unsigned k = 1; k < 3; k++) {
                    sb_entry *h = sb_head(&sb, k);
                    if (h && k != dq && !h->released && sb_sat(&sb, h)) h->released = c;
                }
            }
            n_served++;
        }
        if (init_acc) {
            for (unsigned i = 0; i < in.init_lines_i; i++) {
                uint32_t a = (uint32_t)in.init_addr_i + lb * i;
                if (fe_sched_in_region(p, a)) *sb_line(&sb, a) = in.init_full_i ? all : 0;
            }
        }
        if (acc) {
            assert_true(sb.n[q] < 8);
            sb.e[q][(sb.h[q] + sb.n[q]) % 8] =
                (sb_entry){(unsigned)in.req_tag_i, q, (unsigned)in.req_src_i, (unsigned)in.req_we_i,
                           trig, act, (uint32_t)in.req_addr_i, (uint32_t)in.req_mask_i, 0};
            sb.n[q]++;
            accepted++;
            seq++;
            have = false;
        }
        /* new heads that are already satisfied are not "released" */
        for (unsigned k = 1; k < 3; k++) {
            sb_entry *h = sb_head(&sb, k);
            if (h && !h->released && sb_sat(&sb, h)) h->released = ~0ULL;
        }
        uint64_t cnt = o->q_count_o;
        for (unsigned k = 0; k < 3; k++) assert_int_equal(cnt >> (8 * k) & 0xff, sb.n[k]);
    }
    const fe_sched_queues_out_t *o = fg_block_out(b);
    assert_int_equal(o->q_count_o, 0);
    /* every request left exactly once, or was dropped by a reset */
    assert_int_equal(accepted, n_served + n_nacked + dropped);
    if (!n_resets) assert_int_equal(o->nacks_o, n_nacked & bits_of(p->cnt_w));
    printf("# %" PRIu64 " cycles: %" PRIu64 " accepted, %" PRIu64 " served, %" PRIu64
           " NACKed, %" PRIu64 " releases (RTL counter), stalled-head cycles nt/cpu/gpu %" PRIu64
           "/%" PRIu64 "/%" PRIu64 "\n",
           cycles + 20000, accepted, n_served, n_nacked, (uint64_t)o->releases_o,
           (uint64_t)o->stall_nt_o, (uint64_t)o->stall_cpu_o, (uint64_t)o->stall_gpu_o);
    if (reset_in) printf("# %" PRIu64 " resets at random cycles, %" PRIu64 " queued requests dropped by them\n",
                         n_resets, dropped);
    printf("# deepest release-to-serve latency: %" PRIu64 " cycles (%" PRIu64 " released requests)\n",
           max_lat, n_rel_checked);
    assert_true(accepted > cycles / 10);
    assert_true(n_nacked > 0 && n_rel_checked > 0);
    if (reset_in && cycles / reset_in >= 50) assert_true(n_resets > 0); /* short runs (make wave) may see none */
    assert_int_equal(o->stall_nt_o, 0);
#undef RLINE
    fg_block_free(b);
}

static void test_random_lockstep(void **state) {
    (void)state;
    random_run(&P, tb_seed("fe_sched_queues random"), tb_cycles(1000000), 0);
}

/* The second verilated configuration (rtl/fe/fe_sched_queues.toml `odd`: no
 * parameter a power of two that need not be - 11 lines, queues 3/5/2,
 * 30-bit addresses, 5-bit tags, 7-bit watchdog, 20-bit counters, 5-bit init
 * counts, 64-byte lines at an odd base), in lockstep, and both
 * configurations with resets at random cycles. */
static const fe_sched_queues_params P_ODD = {
    .addr_w = 30, .words = 16, .gran = 4, .region_base = 448, .region_lines = 11,
    .qd_nt = 3, .qd_cpu = 5, .qd_gpu = 2, .tag_w = 5, .wd_w = 7, .cnt_w = 20, .init_w = 5,
    .lk_reg = 1};

static void test_random_lockstep_odd(void **state) {
    (void)state;
    random_run(&P_ODD, tb_seed("fe_sched_queues odd"), tb_cycles(300000), 0);
}

static void test_reset_lockstep(void **state) {
    (void)state;
    random_run(&P, tb_seed("fe_sched_queues reset"), tb_cycles(200000), 20000);
    random_run(&P_ODD, tb_seed("fe_sched_queues odd reset"), tb_cycles(200000), 20000);
}

/* Coverage: the memory system's configuration
 * (fe_sched_queues_sys, rtl/fe/fe_sched_queues.toml: 16384 lines from 0, queues of 16, 32-bit
 * watchdog) driven over the ranges its users reach only in part: triggered
 * CPU and GPU requests (also GPU ones without the defaults) at any byte of
 * the 2 MiB region, init commands anywhere in the address space and of up to
 * 2^15 + lines, 32-bit watchdog limits, a triggered-CPU queue filled to its
 * 16 entries.  Conservation is checked at the end (every accepted request
 * served or NACKed once); the lockstep compares every port every cycle. */
static const fe_sched_queues_params P_SYS = {
    .addr_w = 32, .words = 32, .gran = 4, .region_base = 0, .region_lines = 16384,
    .qd_nt = 16, .qd_cpu = 16, .qd_gpu = 16, .tag_w = 8, .wd_w = 32, .cnt_w = 32, .init_w = 16,
    .lk_reg = 1};

static void test_sys_ranges(void **state) {
    (void)state;
    fg_rng r;
    fg_rng_seed(&r, tb_seed("fe_sched_queues sys ranges"));
    fg_block *b = tb_block(&fe_sched_queues_class, &P_SYS, NULL);
    fe_sched_queues_in_t in = {.out_ready_i = 1, .nack_ready_i = 1};
    uint64_t acc = 0, served = 0, nacked = 0, c = 0;
    unsigned max_cpu = 0, inits = 0;
#define SYS_STEP()                                                                                 \
    do {                                                                                           \
        const fe_sched_queues_out_t *o_ = fg_block_out(b);                                         \
        unsigned q_ = fe_sched_queue_of(&P_SYS, &in, NULL, NULL);                                  \
        acc += in.req_valid_i && (o_->req_ready_o >> q_ & 1);                                      \
        served += o_->out_valid_o && in.out_ready_i;                                               \
        nacked += o_->nack_valid_o && in.nack_ready_i;                                             \
        inits += in.init_valid_i && o_->init_ready_o && in.init_lines_i;                           \
        if (fg_block_step(b, &in)) fail_msg("%s", b->error);                                       \
        c++;                                                                                       \
    } while (0)
    while (!((const fe_sched_queues_out_t *)fg_block_out(b))->init_ready_o) SYS_STEP(); /* the reset clear, 16384 lines */
    /* init commands: anywhere (lines outside the region skipped), then one of
     * 2^15 + lines; while not valid the command port carries random values */
    for (unsigned k = 0; k < 12; k++) {
        in.init_valid_i = 1;
        in.init_full_i = k & 1;
        in.init_addr_i = (uint32_t)fg_rng_next(&r) & ~127u;
        in.init_lines_i = k == 11 ? 0x8000 + 3 : 1 + fg_rng_below(&r, 4);
        if (k == 10) in.init_addr_i = 128u * 16000; /* runs past the region's end */
        SYS_STEP();
        in.init_valid_i = 0;
        while (!((const fe_sched_queues_out_t *)fg_block_out(b))->init_ready_o) {
            in.init_addr_i = (uint32_t)fg_rng_next(&r);
            in.init_lines_i = fg_rng_next(&r) & 0xffff;
            SYS_STEP();
        }
    }
    assert_int_equal(inits, 12);
    /* triggered requests over the region; the watchdog limit random over 32
     * bits, then short so that blocked heads are NACKed */
    for (unsigned phase = 0; phase < 4; phase++) {
        for (unsigned i = 0; i < 6000; i++) {
            unsigned kind = (unsigned)fg_rng_below(&r, 4);
            in.req_valid_i = fg_rng_chance(&r, 1, 2);
            in.req_src_i = kind != 0;
            in.req_dflt_i = kind == 1;
            in.req_we_i = fg_rng_chance(&r, 1, 2);
            in.req_trig_i = 1 + fg_rng_below(&r, 2);
            in.req_act_i = fg_rng_below(&r, 4);
            in.req_addr_i = (uint32_t)fg_rng_next(&r) & 0x1fffff; /* any byte of the 2 MiB */
            in.req_mask_i = (uint32_t)fg_rng_next(&r);
            in.req_tag_i = (uint32_t)fg_rng_next(&r) & 0xff;
            in.out_ready_i = phase == 1 ? fg_rng_chance(&r, 1, 4) : 1;
            in.nack_ready_i = fg_rng_chance(&r, 3, 4);
            if (i % 500 == 0) in.wdog_limit_i = phase == 0 ? (uint32_t)fg_rng_next(&r) : 30;
            if (phase == 2) { /* a CPU queue of 16 wait-full reads of an empty line */
                in.req_src_i = 0;
                in.req_dflt_i = 0;
                in.req_trig_i = FE_TRIG_FULL;
                in.req_act_i = 0;
                in.req_addr_i = 128u * 9000;
                in.req_mask_i = ALL;
                in.wdog_limit_i = 0;
                in.req_valid_i = 1;
            }
            SYS_STEP();
            unsigned n_cpu = (unsigned)(((const fe_sched_queues_out_t *)fg_block_out(b))->q_count_o >> 8 & 0xff);
            if (n_cpu > max_cpu) max_cpu = n_cpu;
        }
    }
    in.req_valid_i = 0;
    in.out_ready_i = in.nack_ready_i = 1;
    in.wdog_limit_i = 30;
    for (unsigned i = 0; i < 20000 && ((const fe_sched_queues_out_t *)fg_block_out(b))->q_count_o; i++) SYS_STEP();
    for (unsigned i = 0; i < 4; i++) SYS_STEP();
#undef SYS_STEP
    const fe_sched_queues_out_t *o = fg_block_out(b);
    assert_int_equal(o->q_count_o, 0);
    assert_int_equal(acc, served + nacked);
    assert_int_equal(max_cpu, 16);
    assert_int_equal(o->nacks_o, nacked);
    assert_true(nacked > 0 && served > 0);
    printf("# sys ranges: %" PRIu64 " cycles, %" PRIu64 " accepted, %" PRIu64 " served, %" PRIu64
           " NACKed, %u init commands\n", c, acc, served, nacked, inits);
    fg_block_free(b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trigger_action_matrix),
        cmocka_unit_test(test_overlap_start),
        cmocka_unit_test(test_overlap_finish),
        cmocka_unit_test(test_bypass_both_ways),
        cmocka_unit_test(test_action_hazard),
        cmocka_unit_test(test_no_single_queue_interlock),
        cmocka_unit_test(test_coalesced_partial_fills),
        cmocka_unit_test(test_watchdog_nack),
        cmocka_unit_test(test_backpressure),
        cmocka_unit_test(test_region_and_init),
        cmocka_unit_test(test_reset_clears_store),
        cmocka_unit_test(test_random_lockstep),
        cmocka_unit_test(test_random_lockstep_odd),
        cmocka_unit_test(test_reset_lockstep),
        cmocka_unit_test(test_sys_ranges),
    };
    return tb_run_tests("fe_sched_queues", tests);
}
