/* Test-bench helpers shared by every block test (cmocka). */
#ifndef FG_TB_H
#define FG_TB_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fg_block.h"
#include "fg_util.h"

/* The implementation $FG_IMPL names (default lockstep; a bad name fails). */
fg_impl tb_impl(void);
/* Creates a block with the implementation named by $FG_IMPL (default:
 * lockstep, i.e. verilated RTL and C twin compared every cycle).  When
 * $FG_WAVE_DIR is set, the RTL side writes <dir>/<wave_name>.fst. */
fg_block *tb_block(const fg_block_class *cls, const void *params, const char *wave_name);
/* Steps one cycle; fails the test with the divergence/assertion message. */
void tb_step(fg_block *b, const void *in);
/* Seed for a random test, printed with the RTL initial state's seed so that
 * "FG_SEED=<seed> FG_XSEED=<xseed>" repeats the run exactly. */
uint64_t tb_seed(const char *what);
/* Random test length: $FG_CYCLES or the default. */
uint64_t tb_cycles(uint64_t dflt);
/* $FG_TEST / $FG_TEST_SKIP (run only / skip the tests whose names match;
 * patterns with * and ?; scripts/soak.sh skips test_seed_*) apply to every
 * cmocka group of a test program, through tb/fg_tb_filter.c; an FG_TEST that
 * matches no test of the group fails.  Kept for the callers: does nothing. */
void tb_test_filter(void);
/* main's one call: the filters, then the group */
#define tb_run_tests(name, tests) (tb_test_filter(), cmocka_run_group_tests_name(name, tests, NULL, NULL))
/* A running FNV-1a hash of a run's events, for comparing two runs that must
 * be the same event for event (start from TB_HASH_INIT). */
#define TB_HASH_INIT 1469598103934665603ull
static inline void tb_hash_mix(uint64_t *h, uint64_t v) { *h = (*h ^ v) * 1099511628211ull; }

#endif
