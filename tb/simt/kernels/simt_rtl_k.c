/* Compiled code for the RTL SIMT core's lockstep (tests/test_simt_rtl.c):
 * what GCC makes of divergent C, beyond the hand-assembled cases: calls and
 * returns, stack frames, loops of thread-dependent trip counts, a switch
 * (a jump table: one jalr whose targets differ by thread), early returns
 * and fg_exit() from inside a callee, and a barrier in divergent code. */
#include "fg_kernel.h"

static __attribute__((noinline)) unsigned collatz(unsigned n) {
    unsigned s = 0;
    while (n != 1) {
        n = (n & 1) ? 3 * n + 1 : n / 2;
        s++;
    }
    return s;
}

static __attribute__((noinline)) unsigned pick(unsigned k, unsigned x) {
    switch (k & 7) {
    case 0: return x + 1;
    case 1: return x * 3;
    case 2: return x ^ 0x55;
    case 3: return x << 2;
    case 4: return x - 7;
    case 5: return x / 3;
    case 6: return x % 5;
    default: return ~x;
    }
}

static __attribute__((noinline)) void maybe_leave(unsigned t) {
    if (t == 13) fg_exit();
}

/* out[t] for every thread of the block (a0 = out) */
void diverge(unsigned *out) {
    const unsigned t = fg_tid_x();
    volatile unsigned buf[8];
    if (t % 5 == 4) return;
    unsigned acc = collatz(t + 1);
    for (unsigned i = 0; i < t % 4 + 1; i++) acc = pick(acc + i + t, acc);
    for (unsigned i = 0; i < 8; i++) buf[i] = acc + i * t;
    maybe_leave(t);
    if (t & 1) {
        acc += buf[t % 8];
        fg_sync();
    } else {
        acc -= buf[(t + 3) % 8];
        fg_sync();
    }
    out[t] = acc / (t + 1) + acc % (t + 2);
}
