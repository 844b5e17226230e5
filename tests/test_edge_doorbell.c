/* Doorbell decoder: decode rules, pass-through, errors, back-pressure, and a
 * random lockstep run with a scoreboard (every accepted write leaves exactly
 * once: as a ring with the right id, as a pass-through write, or as an error). */
#include <stdio.h>
#include <string.h>

#include "edge_doorbell.h"
#include "fg_tb.h"

#define BASE 0xfe000000ULL

typedef struct {
    fg_block *b;
    edge_doorbell_in_t in;
    bool hold_ring, hold_pt;
    /* scoreboard */
    uint64_t exp_ring[64], exp_pt[64][2];
    unsigned rh, rn, ph, pn;
    uint64_t rings, pts, errs_range, errs_align, accepted;
    unsigned entries; /* of the configuration */
    uint64_t m_data;  /* DATA_W bits */
} db_tb;

static const edge_doorbell_out_t *out(const db_tb *t) { return fg_block_out(t->b); }

static void init_p(db_tb *t, const edge_doorbell_params *p, const char *wave) {
    memset(t, 0, sizeof *t);
    t->entries = p->entries;
    t->m_data = p->data_w >= 64 ? ~0ULL : (1ULL << p->data_w) - 1;
    t->b = tb_block(&edge_doorbell_class, p, wave);
    t->in.cfg_base_i = BASE;
    t->in.cfg_region_log2_i = 12; /* a 4 KB doorbell page */
    t->in.cfg_stride_log2_i = 3;  /* one 8-byte register per doorbell */
}

static void init(db_tb *t, const char *wave) {
    edge_doorbell_params p;
    edge_doorbell_params_default(&p);
    init_p(t, &p, wave);
}

/* Reference decode, written independently of the twin. */
static int classify(const db_tb *t, uint64_t addr, uint64_t *id) {
    uint64_t base = t->in.cfg_base_i, size = 1ULL << t->in.cfg_region_log2_i;
    if (addr < base || addr - base >= size) return 0; /* pass-through */
    uint64_t off = addr - base, stride = 1ULL << t->in.cfg_stride_log2_i;
    *id = off / stride;
    if (*id >= t->entries) return DB_ERR_RANGE + 10;
    if (off % stride) return DB_ERR_ALIGN + 10;
    return 1;
}

static void cycle(db_tb *t) {
    const edge_doorbell_out_t *o = out(t);
    t->in.ring_ready_i = !t->hold_ring;
    t->in.pt_ready_i = !t->hold_pt;
    if (o->ring_valid_o && t->in.ring_ready_i) {
        assert_true(t->rn > 0);
        assert_int_equal(o->ring_id_o, t->exp_ring[t->rh]);
        t->rh = (t->rh + 1) % 64;
        t->rn--;
        t->rings++;
    }
    if (o->pt_valid_o && t->in.pt_ready_i) {
        assert_true(t->pn > 0);
        assert_int_equal(o->pt_addr_o, t->exp_pt[t->ph][0]);
        assert_int_equal(o->pt_data_o, t->exp_pt[t->ph][1] & t->m_data);
        t->ph = (t->ph + 1) % 64;
        t->pn--;
        t->pts++;
    }
    /* an empty queue's data reads 0 (never storage that
     * was never written, whatever it held at power-up) */
    if (!o->ring_valid_o) assert_int_equal(o->ring_id_o, 0);
    if (!o->pt_valid_o) assert_int_equal(o->pt_addr_o | o->pt_data_o, 0);
    if (o->err_valid_o) {
        if (o->err_code_o == DB_ERR_RANGE) t->errs_range++;
        else if (o->err_code_o == DB_ERR_ALIGN) t->errs_align++;
        else fail_msg("bad error code %llu", (unsigned long long)o->err_code_o);
    }
    bool fire = t->in.wr_valid_i && o->wr_ready_o;
    if (fire) {
        uint64_t id = 0;
        int k = classify(t, t->in.wr_addr_i, &id);
        t->accepted++;
        if (k == 1) {
            assert_true(t->rn < 64);
            t->exp_ring[(t->rh + t->rn++) % 64] = id;
        } else if (k == 0) {
            t->exp_pt[(t->ph + t->pn) % 64][0] = t->in.wr_addr_i;
            t->exp_pt[(t->ph + t->pn++) % 64][1] = t->in.wr_data_i;
        }
    }
    tb_step(t->b, &t->in);
    if (fire) t->in.wr_valid_i = 0;
}

static void write(db_tb *t, uint64_t addr, uint32_t data) {
    t->in.wr_valid_i = 1;
    t->in.wr_addr_i = addr;
    t->in.wr_data_i = data;
    for (int i = 0; i < 1000 && t->in.wr_valid_i; i++) cycle(t);
    assert_int_equal(t->in.wr_valid_i, 0);
}

static void settle(db_tb *t, int n) {
    for (int i = 0; i < n; i++) cycle(t);
}

static void test_decode(void **state) {
    (void)state;
    db_tb t;
    init(&t, "edge_doorbell");
    write(&t, BASE + 0, 1);        /* doorbell 0 */
    write(&t, BASE + 8 * 5, 1);    /* doorbell 5 */
    write(&t, BASE + 8 * 31, 1);   /* doorbell 31, the last */
    write(&t, BASE - 4, 0x1234);   /* below the aperture: ordinary write */
    write(&t, BASE + 4096, 0x55);  /* just past the aperture: ordinary write */
    settle(&t, 5);
    assert_int_equal(t.rings, 3);
    assert_int_equal(t.pts, 2);
    assert_int_equal(out(&t)->cnt_rings_o, 3);
    assert_int_equal(out(&t)->err_status_o, 0);
    /* different configuration at run time: 64-byte stride */
    t.in.cfg_stride_log2_i = 6;
    write(&t, BASE + 64 * 7, 1);
    settle(&t, 3);
    assert_int_equal(t.rings, 4);
    fg_block_free(t.b);
}

static void test_errors(void **state) {
    (void)state;
    db_tb t;
    init(&t, NULL);
    write(&t, BASE + 8 * 32, 1); /* id 32: beyond the table */
    settle(&t, 2);
    assert_int_equal(t.errs_range, 1);
    assert_int_equal(out(&t)->err_addr_o, BASE + 8 * 32);
    write(&t, BASE + 8 * 3 + 4, 1); /* inside doorbell 3 but not aligned */
    settle(&t, 2);
    assert_int_equal(t.errs_align, 1);
    assert_int_equal(out(&t)->cnt_err_range_o, 1);
    assert_int_equal(out(&t)->cnt_err_align_o, 1);
    assert_int_equal(out(&t)->err_status_o, 3);
    assert_int_equal(t.rings + t.pts, 0); /* neither launched nor passed on */
    write(&t, BASE + 8, 1); /* still works afterwards */
    settle(&t, 2);
    assert_int_equal(t.rings, 1);
    fg_block_free(t.b);
}

/* Exact timing (a two-stage decode): a write accepted at edge t
 * is decoded in the next cycle and is on ring_* / pt_* after edge t+1; an
 * error pulse is high in the cycle after t+1.  Back-to-back doorbell writes
 * are accepted every cycle while the ring queue drains. */
static void test_timing(void **state) {
    (void)state;
    db_tb t;
    init(&t, NULL);
    t.in.wr_valid_i = 1;
    t.in.wr_addr_i = BASE + 8 * 9;
    assert_true(out(&t)->wr_ready_o);
    cycle(&t); /* edge t: accepted */
    assert_false(out(&t)->ring_valid_o);
    cycle(&t); /* edge t+1: decoded, pushed */
    assert_true(out(&t)->ring_valid_o);
    assert_int_equal(out(&t)->ring_id_o, 9);
    settle(&t, 2);
    assert_int_equal(t.rings, 1);
    /* pass-through: same two edges */
    t.in.wr_valid_i = 1;
    t.in.wr_addr_i = BASE - 64;
    t.in.wr_data_i = 0xabcd;
    t.hold_pt = true;
    cycle(&t);
    assert_false(out(&t)->pt_valid_o);
    cycle(&t);
    assert_true(out(&t)->pt_valid_o);
    assert_int_equal(out(&t)->pt_addr_o, BASE - 64);
    t.hold_pt = false;
    settle(&t, 2);
    assert_int_equal(t.pts, 1);
    /* error: pulse in the cycle after the decoding edge */
    t.in.wr_valid_i = 1;
    t.in.wr_addr_i = BASE + 8 * 40;
    cycle(&t);
    assert_false(out(&t)->err_valid_o);
    cycle(&t);
    assert_true(out(&t)->err_valid_o);
    assert_int_equal(out(&t)->err_addr_o, BASE + 8 * 40);
    cycle(&t);
    assert_false(out(&t)->err_valid_o);
    /* back to back: one doorbell write accepted per cycle */
    unsigned acc = 0;
    for (int c = 0; c < 20; c++) {
        t.in.wr_valid_i = 1;
        t.in.wr_addr_i = BASE + 8 * (c % 32);
        if (out(&t)->wr_ready_o) acc++;
        cycle(&t);
    }
    assert_int_equal(acc, 20);
    t.in.wr_valid_i = 0;
    settle(&t, 4);
    assert_int_equal(t.rings, 21);
    assert_int_equal(t.rn, 0);
    fg_block_free(t.b);
}

/* Back-pressure from the EKT: RING_DEPTH rings queue, then wr_ready_o drops;
 * nothing is lost or duplicated when the EKT resumes. */
static void test_backpressure(void **state) {
    (void)state;
    db_tb t;
    init(&t, NULL);
    t.hold_ring = true;
    unsigned accepted = 0;
    for (int c = 0; c < 40; c++) {
        t.in.wr_valid_i = 1;
        t.in.wr_addr_i = BASE + 8 * (c % 32);
        if (out(&t)->wr_ready_o) accepted++;
        cycle(&t);
    }
    assert_int_equal(accepted, 16);
    assert_int_equal(out(&t)->ring_count_o, 16);
    assert_false(out(&t)->wr_ready_o);
    t.in.wr_valid_i = 0;
    t.hold_ring = false;
    settle(&t, 30);
    assert_int_equal(t.rings, 16);
    assert_int_equal(t.rn, 0);
    fg_block_free(t.b);
}

/* A random configuration (coverage): the aperture anywhere
 * in the 64-bit space, every region and stride size 0..63. */
static void random_config(db_tb *t, fg_rng *r) {
    uint64_t k = fg_rng_below(r, 4), st = fg_rng_below(r, 64);
    t->in.cfg_base_i = k == 0 ? fg_rng_next(r)                       /* anywhere */
                     : k == 1 ? ~0ULL - fg_rng_below(r, 1ULL << 20)  /* near the top */
                              : fg_rng_next(r) & ~0xfffULL;          /* page-aligned */
    t->in.cfg_stride_log2_i = st;
    /* mostly an aperture of 32 doorbells or more, sometimes any size */
    uint64_t reg = fg_rng_chance(r, 1, 4) ? fg_rng_below(r, 64)
                                          : st + 5 + fg_rng_below(r, 64 - (st < 58 ? st : 58) - 5);
    t->in.cfg_region_log2_i = reg > 63 ? 63 : reg;
}

/* n cycles of random writes to a decoder with parameters p, in lockstep,
 * against the scoreboard, with random back-pressure, then drained.
 * reset_in > 0: a reset (RTL and twin alike, with the inputs of the last edge
 * applied) at random cycles, one in reset_in on average, after which the
 * scoreboard starts over (what was in flight is gone) and the comparison
 * continues.  full_cover: every outcome reached.  vary_cfg (coverage): a
 * new random configuration every 1..64 cycles, also while writes
 * are in flight (a write is decoded under the configuration of the cycle it
 * was accepted in), and addresses around the doorbells, below the base and
 * anywhere; otherwise the 4 KB page at BASE of init(). */
static void random_run(const char *what, const edge_doorbell_params *p, uint64_t n, unsigned reset_in,
                       bool full_cover, bool vary_cfg) {
    fg_rng r;
    fg_rng_seed(&r, tb_seed(what));
    db_tb t;
    init_p(&t, p, NULL);
    uint64_t resets = 0, next_cfg = 0;
    /* functional coverage of the range check's boundary: aligned doorbell
     * writes at id 0, the table's last id (entries - 1) and the first id
     * beyond it (entries: a range error) */
    uint64_t b_first = 0, b_last = 0, b_beyond = 0;
    for (uint64_t c = 0; c < n; c++) {
        if (vary_cfg && c == next_cfg) {
            random_config(&t, &r);
            next_cfg = c + 1 + fg_rng_below(&r, 64);
        }
        if (reset_in && fg_rng_chance(&r, 1, reset_in)) {
            fg_block_reset(t.b);
            if (t.b->failed) fail_msg("cycle %llu, after a reset: %s", (unsigned long long)c, t.b->error);
            t.rn = t.pn = 0;
            t.rings = t.pts = t.errs_range = t.errs_align = t.accepted = 0;
            assert_int_equal(out(&t)->cnt_rings_o, 0);
            assert_false(out(&t)->ring_valid_o || out(&t)->pt_valid_o || out(&t)->err_valid_o);
            resets++;
        }
        t.hold_ring = fg_rng_chance(&r, 1, 3);
        t.hold_pt = fg_rng_chance(&r, 1, 3);
        if (!t.in.wr_valid_i && fg_rng_chance(&r, 2, 3)) {
            uint64_t k = fg_rng_below(&r, 10), a, base = t.in.cfg_base_i;
            uint64_t stride = 1ULL << t.in.cfg_stride_log2_i;
            if (!vary_cfg) {
                if (k < 6) a = BASE + 8 * fg_rng_below(&r, 33);      /* doorbell (or beyond the table) */
                else if (k < 7) a = BASE + fg_rng_below(&r, 4096);   /* anywhere in the page */
                else a = fg_rng_next(&r) & 0xffffffffffULL;           /* anywhere */
            } else if (k < 5) a = base + stride * fg_rng_below(&r, 40); /* doorbells, some beyond */
            else if (k < 6) a = base + stride * fg_rng_below(&r, 32) + fg_rng_below(&r, 8);
            else if (k < 7) a = base - 1 - fg_rng_below(&r, 4096);      /* below the base */
            else a = fg_rng_next(&r);                                    /* anywhere */
            uint64_t off = a - base;
            if (a >= base && off % stride == 0 && (off >> t.in.cfg_stride_log2_i) >> 16 == 0) {
                uint64_t id = off >> t.in.cfg_stride_log2_i;
                b_first += id == 0;
                b_last += id == t.entries - 1;
                b_beyond += id == t.entries;
            }
            t.in.wr_valid_i = 1;
            t.in.wr_addr_i = a;
            t.in.wr_data_i = fg_rng_next(&r) & t.m_data;
        }
        cycle(&t);
    }
    t.in.wr_valid_i = 0;
    t.hold_ring = t.hold_pt = false;
    settle(&t, 40);
    assert_int_equal(t.rn + t.pn, 0);
    assert_int_equal(t.accepted, t.rings + t.pts + t.errs_range + t.errs_align);
    printf("# %s%llu writes: %llu rings, %llu pass-through, %llu range errors, %llu alignment errors"
           " (since the last of %llu resets)\n",
           vary_cfg ? "random configurations: " : "", (unsigned long long)t.accepted, (unsigned long long)t.rings, (unsigned long long)t.pts,
           (unsigned long long)t.errs_range, (unsigned long long)t.errs_align, (unsigned long long)resets);
    printf("# range boundary bins (aligned writes at id 0, %u, %u): %llu %llu %llu\n", t.entries - 1, t.entries,
           (unsigned long long)b_first, (unsigned long long)b_last, (unsigned long long)b_beyond);
    if (!vary_cfg && n >= 20000) assert_true(b_first > 0 && b_last > 0 && b_beyond > 0);
    if (full_cover && n >= 100000) /* long runs must have exercised every outcome */
        assert_true(t.rings > n / 1000 && t.pts > n / 1000 && t.errs_range > n / 10000 &&
                    t.errs_align > n / 10000);
    if (reset_in && n / reset_in >= 50) assert_true(resets > n / reset_in / 2); /* ~n / reset_in expected */
    if (vary_cfg && n >= 20000)
        assert_true(t.rings > n / 100 && t.pts > n / 100 && t.errs_range > n / 1000 && t.errs_align > n / 1000);
    fg_block_free(t.b);
}

static void test_random_lockstep(void **state) {
    (void)state;
    edge_doorbell_params p;
    edge_doorbell_params_default(&p);
    random_run("edge_doorbell random lockstep", &p, tb_cycles(1000000), 0, true, false);
}

/* The second verilated configuration (rtl/edge/edge_doorbell.toml edge_doorbell_odd: 24
 * doorbells, so ids 24..31 of the page are range errors; 48-bit addresses,
 * 20-bit data, queues of 5 and 3) in random lockstep. */
static const edge_doorbell_params ODD = {24, 48, 20, 5, 3};
static void test_odd_random_lockstep(void **state) {
    (void)state;
    random_run("edge_doorbell odd configuration random lockstep", &ODD, tb_cycles(1000000) / 5, 0, true, false);
}

/* Resets at random cycles mid-run, both configurations. */
static void test_random_reset_lockstep(void **state) {
    (void)state;
    edge_doorbell_params p;
    edge_doorbell_params_default(&p);
    random_run("edge_doorbell random resets", &p, tb_cycles(1000000) / 5, 1000, false, false);
    random_run("edge_doorbell odd configuration random resets", &ODD, tb_cycles(1000000) / 5, 1000, false, false);
}

static void test_random_config(void **state) {
    (void)state;
    edge_doorbell_params p;
    edge_doorbell_params_default(&p);
    random_run("edge_doorbell random configuration", &p, tb_cycles(1000000) / 5, 0, false, true);
}

/* The error counters saturate at 0xffff instead of wrapping; the ring
 * counter counts 2^17 + 3 rings exactly (its bits above 16 are excluded from
 * toggle coverage: tests/coverage_exclude.txt). */
static void test_counters(void **state) {
    (void)state;
    db_tb t;
    init(&t, NULL);
    for (unsigned i = 0; i < 0x10002; i++) write(&t, BASE + 8 * 32 + 8 * (i % 8), i); /* range */
    for (unsigned i = 0; i < 0x10002; i++) write(&t, BASE + 8 * (i % 32) + 1 + i % 7, i); /* alignment */
    settle(&t, 3);
    assert_int_equal(t.errs_range, 0x10002);
    assert_int_equal(t.errs_align, 0x10002);
    assert_int_equal(out(&t)->cnt_err_range_o, 0xffff);
    assert_int_equal(out(&t)->cnt_err_align_o, 0xffff);
    assert_int_equal(out(&t)->err_status_o, 3);
    for (unsigned i = 0; i < (1u << 17) + 3; i++) write(&t, BASE + 8 * (i % 32), i);
    settle(&t, 3);
    assert_int_equal(t.rings, (1u << 17) + 3);
    assert_int_equal(out(&t)->cnt_rings_o, (1u << 17) + 3);
    assert_int_equal(out(&t)->cnt_err_range_o, 0xffff); /* stays saturated */
    fg_block_reset(t.b); /* clears every counter and the status */
    assert_int_equal(out(&t)->cnt_rings_o, 0);
    assert_int_equal(out(&t)->cnt_err_range_o, 0);
    assert_int_equal(out(&t)->cnt_err_align_o, 0);
    assert_int_equal(out(&t)->err_status_o, 0);
    fg_block_free(t.b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_timing),
        cmocka_unit_test(test_backpressure),
        cmocka_unit_test(test_random_lockstep),
        cmocka_unit_test(test_odd_random_lockstep),
        cmocka_unit_test(test_random_reset_lockstep),
        cmocka_unit_test(test_random_config),
        cmocka_unit_test(test_counters),
    };
    return tb_run_tests("edge_doorbell", tests);
}
