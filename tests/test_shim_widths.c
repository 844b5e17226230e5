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
 * diverged within 8 cycles). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "edge_doorbell.h"
#include "edge_pewt.h"
#include "edge_preempt.h"
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
    const edge_preempt_params p = {44, 6, 7, 12, 1};
    run(&edge_preempt_class, &p, "edge_preempt w44, 64-bit random inputs", tb_cycles(20000),
        preempt_v_bits);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_doorbell_odd),
        cmocka_unit_test(test_pewt_odd),
        cmocka_unit_test(test_preempt_w44),
    };
    return tb_run_tests("shim_widths", tests);
}
