/* simt_rand: seeded random RV32IM + Zicsr programs for the RTL SIMT core's
 * lockstep (tests/test_simt_rtl.c): ALU and immediate operations, MUL /
 * MULH* / DIV* / REM* (division by zero and INT_MIN / -1 included), byte /
 * half / word loads and stores (aligned) into the thread's stack and its own
 * region of global memory, lane-dependent forward branches, loops of
 * lane-dependent trip counts, id CSR reads, now and then a counter read,
 * a barrier or an early exit (ecall, or a return through ra), ending with
 * every register stored to the region and ecall or a return.
 *
 * A thread's region is REGION bytes at param[0] + g * REGION, g = ctaid.x *
 * ntid.x + tid.x (a0 = param); programs never fault. */
#ifndef SIMT_RAND_H
#define SIMT_RAND_H

#include <stdbool.h>
#include <stdint.h>

#include "simt_asm.h"

#define SIMT_RAND_REGION 256u /* bytes of global memory per thread (a power of two) */
#define SIMT_RAND_STACK 256u  /* bytes of stack below sp a program uses */

typedef struct {
    unsigned items;   /* top-level items of the body */
    bool barriers;    /* barrier CSR writes */
    bool exits;       /* early exits of some threads */
    bool counters;    /* cycle / instret reads */
} simt_rand_opts;

/* Appends one program to a (from its current pc); 0 or -1 (err). */
int simt_rand_program(simt_asm *a, uint64_t *rng, const simt_rand_opts *o, char *err, unsigned errlen);

#endif
