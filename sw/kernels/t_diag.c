/* fg_run diagnostics test kernels (tests/test_fg_run.c, docs/SIMT.md "When a
 * kernel misbehaves"); each entry is a bug a kernel writer makes:
 *   t_overrun:  out[i] = i for every i < n: with n beyond the buffer it
 *               writes past its end (guard gaps, --check);
 *   t_underrun: thread 0 writes out[-1];
 *   t_deadlock: thread 0 spins on a flag that the other threads set only
 *               after the barrier it never reaches (a barrier deadlock);
 *   t_spin:     every thread spins on a flag nobody sets (--max-seconds);
 *   t_param_write: thread 0 overwrites its argument n (the parameter block
 *               is the launch's, read-only by convention);
 *   t_stride:   thread i writes out[i * n] (--check's provenance);
 *   t_stack:    a local array of n words on the stack: beyond gpu.stack_bytes
 *               it overflows the thread's stack;
 *   t_wildjump: calls through a function pointer taken from its argument n
 *               (a corrupted pointer: a jump to a wild address). */
#include "fg_kernel.h"

struct t_diag_args {
    uint32_t n;
    uint32_t *out;
};

/* not inlined: a fault report names it (function+offset) */
__attribute__((noinline)) static void put(uint32_t *out, int32_t i, uint32_t v) { out[i] = v; }

void t_overrun(const struct t_diag_args *p) {
    uint32_t stride = fg_grid_dim_x() * fg_block_dim_x();
    for (uint32_t i = fg_global_id_x(); i < p->n; i += stride) put(p->out, (int32_t)i, i);
}

void t_underrun(const struct t_diag_args *p) {
    if (fg_global_id_x() == 0) put(p->out, -1, 7);
}

void t_deadlock(const struct t_diag_args *p) {
    volatile uint32_t *flag = p->out;
    if (fg_thread_idx_x() == 0)
        while (!*flag) {
        }
    fg_sync();
    *flag = 1;
}

void t_spin(const struct t_diag_args *p) {
    volatile uint32_t *flag = p->out;
    while (!*flag) {
    }
}

void t_param_write(const struct t_diag_args *p) {
    if (fg_global_id_x() == 0) ((volatile struct t_diag_args *)p)->n = 5;
}

/* not inlined: the array lives in its frame */
__attribute__((noinline)) static uint32_t deep(volatile uint32_t *out, uint32_t n) {
    volatile uint32_t a[1024];
    for (uint32_t i = 0; i < n && i < 1024; i++) a[i] = i;
    return a[n / 2] + (out ? 0 : 1);
}

void t_stack(const struct t_diag_args *p) {
    uint32_t v = deep(p->out, p->n);
    if (fg_global_id_x() == 0) p->out[0] = v;
}

/* t_stride: thread i writes out[i * n]: with n past the buffer and its guard
 * gap the write lands inside the next buffer (--check's provenance). */
void t_stride(const struct t_diag_args *p) { put(p->out, (int32_t)(fg_global_id_x() * p->n), 1); }

/* t_wildjump: n is called as a function (a call through a corrupted
 * function pointer); the jump names this line, the fetch its target. */
typedef void (*t_diag_fn)(uint32_t *out);
void t_wildjump(const struct t_diag_args *p) {
    t_diag_fn f = (t_diag_fn)(uintptr_t)p->n;
    f(p->out);
    p->out[0] = 1;
}
