/* The verilated-model shim masks every input to its port's width in the
 * model's own configuration (sim/harness/fg_shim.hpp, FgInWidths: the widths
 * come from Verilator's header of each configuration), as the C twins mask to
 * their parameters.  A caller may fill a port's uint64_t with anything: bits
 * above the port's width reach neither model.  Each case drives a block's
 * second (narrower) configuration in lockstep with its twin with every input
 * field a full 64-bit random value; without the shim's mask the RTL sees the
 * upper bits and diverges from the twin (tried: with the mask
 * removed, the doorbell diverged at cycle 2 on pt_data_o, the PEWT at cycle 1 on
 * err_code_o).  Inputs within a port's width but outside the block's range
 * are covered too: the preemption controller at NW = 44 gets slot indices
 * 44..63, which it must treat as the twin does (an exit for slot >= NW is
 * EXIT_UNKNOWN; before that was fixed the RTL read event_q past its end and
 * diverged within 8 cycles).
 *
 * The shim also leaves out the eval at clk = 0 of each edge (fg_shim.cpp
 * edge, FgRtlModel::fall_quiet): quiet_fall_exact drives two instances of
 * each of six blocks with the same random inputs and resets, one with that
 * eval, and compares their whole state and outputs after every edge (tried:
 * with the trigger's last value left at 1 no edge fires and the state
 * differs at the first edge). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm_bal_monitor.h"
#include "edge_doorbell.h"
#include "edge_ekt.h"
#include "edge_pewt.h"
#include "edge_preempt.h"
#include "fe_sched_queues.h"
#include "fg_shim.h"
#include "fg_tb.h"

/* xorshift64*: the test's own stream, seeded by tb_seed */
static uint64_t rnd(uint64_t *s) {
    *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

/* The preemption controller's v_left_i / v_bar_i / v_ld_i (and p_* at S+5)
 * are, by its contract (sim/twin/edge_preempt.h), the bits of slot victim_o
 * in w_exit_i / w_live_i, w_bar_i, w_ld_i; the RTL assumes it
 * (pre_v_status_is_victims, pre_p_status_is_picks), so they follow the random
 * vectors rather than being random themselves. */
static void preempt_v_bits(const void *out, void *in) {
    edge_preempt_victim_bits(in, ((const edge_preempt_out_t *)out)->victim_o);
}

/* cycles of lockstep with every input field a fresh 64-bit random value
 * (then fix(outputs, inputs) where the contract ties inputs together) */
static void run(const fg_block_class *cls, const void *params, const char *what, uint64_t cycles,
                void (*fix)(const void *out, void *in)) {
    uint64_t s = tb_seed(what) | 1;
    fg_block *b = fg_block_new(cls, FG_IMPL_LOCKSTEP, params, NULL, 0);
    assert_non_null(b);
    uint64_t in[64];
    assert_true(cls->in_size <= sizeof in);
    for (uint64_t c = 0; c < cycles; c++) {
        for (size_t i = 0; i < cls->in_size / sizeof(uint64_t); i++) in[i] = rnd(&s);
        if (fix) fix(fg_block_out(b), in);
        tb_step(b, in);
    }
    printf("# %s: %" PRIu64 " cycles in lockstep\n", what, cycles);
    fg_block_free(b);
}

/* rtl/edge/edge_doorbell.toml edge_doorbell_odd: DATA_W 20, ADDR_W 48 (cfg_base_i, wr_addr_i) */
static void test_doorbell_odd(void **state) {
    (void)state;
    const edge_doorbell_params p = {24, 48, 20, 5, 3};
    run(&edge_doorbell_class, &p, "edge_doorbell odd, 64-bit random inputs", tb_cycles(20000), NULL);
}

/* rtl/edge/edge_pewt.toml edge_pewt_odd: ADDR_W 40, TAG_W 24, SLOT_W 5, THR_W 5, REGS_W 6 */
static void test_pewt_odd(void **state) {
    (void)state;
    const edge_pewt_params p = {3, 40, 24, 5, 5, 6};
    run(&edge_pewt_class, &p, "edge_pewt odd, 64-bit random inputs", tb_cycles(20000), NULL);
}

/* rtl/edge/edge_preempt.toml edge_preempt_w44: NW 44 (the w_* slot sets, slot indices
 * 44..63 past the end), CYC_W 12 (cfg_save_base_i) */
static void test_preempt_w44(void **state) {
    (void)state;
    const edge_preempt_params p = {44, 6, 7, 12, 1, 1};
    run(&edge_preempt_class, &p, "edge_preempt w44, 64-bit random inputs", tb_cycles(20000),
        preempt_v_bits);
}

/* Two RTL instances, one evaluating the low phase of each edge and one not:
 * equal state bytes and outputs after every edge, resets at random cycles.
 * The inputs are random, then fixed where the contract ties them or where
 * they would keep the block idle (fix), and the outputs must change often. */
static void exact(const fg_block_class *cls, const void *params, const char *what, uint64_t cycles,
                  void (*fix)(const void *out, void *in)) {
    uint64_t s = tb_seed(what) | 1, h = TB_HASH_INIT;
    fg_block *a = fg_block_new(cls, FG_IMPL_RTL, params, NULL, 0);
    fg_block *b = fg_block_new(cls, FG_IMPL_RTL, params, NULL, 0);
    assert_non_null(a);
    assert_non_null(b);
    /* the fast path exists in this build (a Verilator that renamed the
     * trigger's state would silently evaluate both phases again) */
    assert_int_equal(fg_rtl_set_quiet_fall(a->rtl, 1), 1);
    fg_rtl_set_quiet_fall(b->rtl, 0);
    uint64_t in[64];
    const size_t n = cls->in_size / sizeof(uint64_t);
    assert_true(n <= 64);
    /* bytes that differ between the two right after the same construction and
     * reset are the struct's padding (heap contents): not compared */
    const unsigned char *sa, *sb;
    size_t ns = fg_rtl_design_state(a->rtl, (const void **)&sa);
    assert_int_equal(fg_rtl_design_state(b->rtl, (const void **)&sb), ns);
    unsigned char *same = malloc(ns);
    assert_non_null(same);
    size_t pad = 0;
    for (size_t i = 0; i < ns; i++) pad += !(same[i] = sa[i] == sb[i]);
    assert_true(pad < 32);
    uint64_t resets = 0, changes = 0, prev[64] = {0};
    assert_true(cls->out_size <= sizeof prev);
    for (uint64_t c = 0; c < cycles; c++) {
        if (rnd(&s) % 5000 == 0) {
            fg_block_reset(a);
            fg_block_reset(b);
            resets++;
        }
        for (size_t i = 0; i < n; i++) in[i] = rnd(&s);
        if (fix) fix(fg_block_out(a), in);
        assert_int_equal(fg_block_step(a, in), 0);
        assert_int_equal(fg_block_step(b, in), 0);
        for (size_t i = 0; i < ns; i++)
            if (same[i] && sa[i] != sb[i]) fail_msg("%s: state byte %zu differs after edge %" PRIu64, what, i, c);
        if (memcmp(fg_block_out(a), fg_block_out(b), cls->out_size))
            fail_msg("%s: the outputs differ after edge %" PRIu64, what, c);
        const uint64_t *o = fg_block_out(a);
        changes += memcmp(o, prev, cls->out_size) != 0;
        memcpy(prev, o, cls->out_size);
        for (size_t i = 0; i < cls->out_size / sizeof(uint64_t); i++) tb_hash_mix(&h, o[i]);
    }
    printf("# %s: %" PRIu64 " edges, %" PRIu64 " resets, the outputs changed at %" PRIu64
           ", the same %zu state bytes (of %zu) both ways, outputs hash %016" PRIx64 "\n",
           what, cycles, resets, changes, ns - pad, ns, h);
    assert_true(changes > cycles / 20); /* the block was driven, not idle */
    free(same);
    fg_block_free(a);
    fg_block_free(b);
}

/* the F/E queues' test configuration (16 lines at 4096): requests in and
 * around the region, init commands in 1 of 64 cycles, short watchdog limits */
static void fe_fix(const void *out, void *in) {
    (void)out;
    fe_sched_queues_in_t *i = in;
    i->req_addr_i = 4096 - 256 + (i->req_addr_i & 0xfff) % (18 * 128 + 256);
    i->init_valid_i = i->init_valid_i && (i->init_addr_i & 63) == 0;
    i->init_addr_i = 4096 + 128 * (i->init_addr_i % 20);
    i->init_lines_i &= 7;
    i->wdog_limit_i &= 0x3f;
}

static void test_quiet_fall_exact(void **state) {
    (void)state;
    uint64_t cyc = tb_cycles(20000);
    edge_doorbell_params db = {24, 48, 20, 5, 3};
    exact(&edge_doorbell_class, &db, "quiet fall: edge_doorbell odd", cyc, NULL);
    edge_pewt_params pw = {3, 40, 24, 5, 5, 6};
    exact(&edge_pewt_class, &pw, "quiet fall: edge_pewt odd", cyc, NULL);
    edge_preempt_params pr = {44, 6, 7, 12, 1, 1};
    exact(&edge_preempt_class, &pr, "quiet fall: edge_preempt w44", cyc, preempt_v_bits);
    edge_ekt_params ek;
    edge_ekt_params_default(&ek);
    exact(&edge_ekt_class, &ek, "quiet fall: edge_ekt", cyc, NULL);
    cm_bal_monitor_params cm = cm_bal_monitor_test_params();
    exact(&cm_bal_monitor_class, &cm, "quiet fall: cm_bal_monitor", cyc, NULL);
    const fe_sched_queues_params fe = {
        .addr_w = 32, .words = 32, .gran = 4, .region_base = 4096, .region_lines = 16,
        .qd_nt = 4, .qd_cpu = 4, .qd_gpu = 4, .tag_w = 8, .wd_w = 16, .cnt_w = 32, .init_w = 16};
    exact(&fe_sched_queues_class, &fe, "quiet fall: fe_sched_queues", cyc, fe_fix);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_doorbell_odd),
        cmocka_unit_test(test_pewt_odd),
        cmocka_unit_test(test_preempt_w44),
        cmocka_unit_test(test_quiet_fall_exact),
    };
    return tb_run_tests("shim_widths", tests);
}
