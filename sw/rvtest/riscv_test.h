/* riscv_test.h: the execution environment of the official riscv-tests
 * (isa/rv32u{i,m,a,f}) on the finegrain SIMT model (docs/SIMT.md,
 * "Conformance").  The suite's own files stay where they are; each test is
 * linked by mk/rvtest.mk with sw/crt/kernel.ld like any kernel and run by
 * tests/test_riscv_conformance.c, by one thread or by the 32 lanes of a warp.
 *
 * - Entry: _start (ELF e_entry), in .text.start so it comes first.  At entry
 *   the model gives every thread a0 = the launch's parameter block, whose
 *   first word is the address of the result buffer, and sp = the top of the
 *   thread's private local memory.  The tests use every register, so a0 is
 *   kept in the thread's local memory (FG_LOCAL_TOP - 4) for the end.
 * - RVTEST_PASS / RVTEST_FAIL record, for thread t, two words at
 *   result + 8 t: status (1 passed, 2 failed; 0 = never got there) and
 *   TESTNUM (gp: the number of the failing test case), then end the thread
 *   (ecall).
 * - RVTEST_RV32UF clears fcsr (flags and rounding mode) first.
 * - Data: the tests put their data in .data (kernel.ld keeps it). */
#ifndef FG_RISCV_TEST_H
#define FG_RISCV_TEST_H

#include "simt/simt_abi.h"

#define FG_RVTEST_PASSED 1
#define FG_RVTEST_FAILED 2

#define TESTNUM gp

#define RVTEST_RV32U .macro init; .endm
#define RVTEST_RV64U RVTEST_RV32U
#define RVTEST_RV32UF .macro init; csrwi fcsr, 0; .endm
#define RVTEST_RV64UF RVTEST_RV32UF

#define RVTEST_CODE_BEGIN                                               \
        .section .text.start, "ax";                                     \
        .globl _start;                                                  \
_start:                                                                 \
        li t0, FG_LOCAL_TOP - 4;                                        \
        sw a0, 0(t0);                                                   \
        li TESTNUM, 0;                                                  \
        init;

/* status in t2, then: result + 8 * (thread index in the block) */
#define RVTEST_CODE_END                                                 \
fg_rvtest_record:                                                       \
        li t0, FG_LOCAL_TOP - 4;                                        \
        lw t0, 0(t0);                                                   \
        lw t0, 0(t0);                                                   \
        csrr t1, FG_CSR_TID_X;                                          \
        slli t1, t1, 3;                                                 \
        add t0, t0, t1;                                                 \
        sw t2, 0(t0);                                                   \
        sw TESTNUM, 4(t0);                                              \
        ecall;                                                          \
        unimp;

#define RVTEST_PASS                                                     \
        fence;                                                          \
        li t2, FG_RVTEST_PASSED;                                        \
        j fg_rvtest_record;

#define RVTEST_FAIL                                                     \
        fence;                                                          \
        li t2, FG_RVTEST_FAILED;                                        \
        j fg_rvtest_record;

#define EXTRA_DATA
#define RVTEST_DATA_BEGIN                                               \
        EXTRA_DATA                                                      \
        .align 4; .global begin_signature; begin_signature:
#define RVTEST_DATA_END .align 4; .global end_signature; end_signature:

#endif
