/* simt_rand: seeded random RV32IMA + Zicsr programs for the RTL SIMT core's
 * lockstep (tests/test_simt_rtl.c): ALU and immediate operations, MUL /
 * MULH* / DIV* / REM* (division by zero and INT_MIN / -1 included), byte /
 * half / word loads and stores (aligned) into the thread's stack and its own
 * region of global memory, atomics, lane-dependent forward branches, loops
 * of lane-dependent trip counts, id CSR reads, now and then a counter read,
 * a barrier or an early exit (ecall, or a return through ra), ending with
 * every register stored to the region and ecall or a return.
 *
 * A thread's region is REGION bytes at param[0] + g * REGION, g = ctaid.x *
 * ntid.x + tid.x (a0 = param); programs never fault.
 *
 * Atomics (o->atomics): AMOs, LR / SC pairs (now and then an SC to another
 * word, or with no LR before it) and LR / SC retry loops, on the thread's
 * own words (region, stack) and on its warp's WARP_WORDS words at amo_base +
 * 4 * COMMON_WORDS + (g / 32) * 4 * WARP_WORDS, which its threads share.  The
 * lockstep steps the reference in each warp's retire order, not in the
 * order the core's memory port saw the warps, so a word shared between
 * warps may only take operations whose end value does not depend on their
 * order: the COMMON_WORDS words at amo_base each take one commutative AMO
 * (add, xor, or, and, min, max, minu, maxu by word) with rd = x0. */
#ifndef SIMT_RAND_H
#define SIMT_RAND_H

#include <stdbool.h>
#include <stdint.h>

#include "simt_asm.h"

#define SIMT_RAND_REGION 256u /* bytes of global memory per thread (a power of two) */
#define SIMT_RAND_STACK 256u  /* bytes of stack below sp a program uses */
#define SIMT_RAND_COMMON_WORDS 16u
#define SIMT_RAND_WARP_WORDS 16u

typedef struct {
    unsigned items;   /* top-level items of the body */
    bool barriers;    /* barrier CSR writes */
    bool exits;       /* early exits of some threads */
    bool counters;    /* cycle / instret reads */
    bool atomics;     /* AMOs and LR / SC */
    uint32_t amo_base; /* the words of atomics shared between threads (above) */
} simt_rand_opts;

/* Appends one program to a (from its current pc); 0 or -1 (err). */
int simt_rand_program(simt_asm *a, uint64_t *rng, const simt_rand_opts *o, char *err, unsigned errlen);

#endif
