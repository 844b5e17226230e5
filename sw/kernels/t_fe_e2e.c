/* Test kernels of the F/E end-to-end tests (tests/test_fe_e2e.c). */
#include "fg_kernel.h"
#include "fg_fe.h"

struct t_fe_args {
    uint32_t in, out, n, mode, val;
};

/* One thread per word: out[i] = in[i] + 1 with plain C accesses (F/E 4.1
 * defaults: the load waits for full, the store fills), and the cycle after
 * thread 0's load completed in out[n]. */
void t_fe_copy(const struct t_fe_args *p) {
    const uint32_t i = fg_global_id_x();
    if (i >= p->n) return;
    const volatile uint32_t *in = (const volatile uint32_t *)(uintptr_t)p->in;
    volatile uint32_t *out = (volatile uint32_t *)(uintptr_t)p->out;
    uint32_t v = in[i];
    __asm__ volatile("mv %0, %0" : "+r"(v)); /* reads v: the scoreboard holds the warp until the load is back */
    uint32_t t = fg_clock();
    out[i] = v + 1;
    if (i == 0) out[p->n] = t;
}

/* The explicit accesses of fg_fe.h, thread 0, mode:
 *   0: out[0] = fg_ld_wait_full(in)          1: out[0] = fg_ld_wait_empty(in)
 *   2: out[0] = fg_ld_consume(in)            3: out[0] = fg_ld_none(in)
 *   4: fg_st_fill(in, val)                   5: fg_st_empty(in, val)
 *   6: fg_st_produce(in, val)                7: fg_st_none(in, val)
 * then out[1] = 1 (a plain store to ordinary memory: done). */
void t_fe_modes(const struct t_fe_args *p) {
    if (fg_global_id_x()) return;
    volatile uint32_t *in = (volatile uint32_t *)(uintptr_t)p->in;
    volatile uint32_t *out = (volatile uint32_t *)(uintptr_t)p->out;
    switch (p->mode) {
    case 0: out[0] = fg_ld_wait_full(in); break;
    case 1: out[0] = fg_ld_wait_empty(in); break;
    case 2: out[0] = fg_ld_consume(in); break;
    case 3: out[0] = fg_ld_none(in); break;
    case 4: fg_st_fill(in, p->val); break;
    case 5: fg_st_empty(in, p->val); break;
    case 6: fg_st_produce(in, p->val); break;
    default: fg_st_none(in, p->val); break;
    }
    __sync_synchronize(); /* the F/E store is performed before `done` */
    out[1] = 1;
}
