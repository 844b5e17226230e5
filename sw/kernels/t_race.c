/* fg_run --racecheck test kernels (tests/test_fg_run.c, docs/SIMT.md "When a
 * kernel misbehaves"): a block-wide tree reduction in shared memory,
 *   t_reduce_nobar: without the barrier between its steps (a step reads
 *                   partial sums other warps write in the same step: a race);
 *   t_reduce:       the same with fg_sync() after every step (race-free);
 *   t_shared_atomic: every thread adds its input to one shared word with an
 *                   atomic (atomics do not race with each other);
 *   t_global_nobar / t_global: the same question in global memory (below);
 *   t_flag:         a flag in its own shared array (fg_run's unused-array warning).
 * One partial sum per block in out[block]; blocks of up to 256 threads. */
#include "fg_kernel.h"

struct t_race_args {
    const uint32_t *in;
    uint32_t *out;
};

FG_SHARED uint32_t t_race_s[256];

static void reduce(const struct t_race_args *p, int with_barrier) {
    uint32_t t = fg_thread_idx_x(), n = fg_block_dim_x();
    t_race_s[t] = p->in[fg_global_id_x()];
    fg_sync();
    for (uint32_t stride = n / 2; stride > 0; stride >>= 1) {
        if (t < stride) t_race_s[t] += t_race_s[t + stride];
        if (with_barrier) fg_sync();
    }
    if (t == 0) p->out[fg_block_idx_x()] = t_race_s[0];
}

void t_reduce_nobar(const struct t_race_args *p) { reduce(p, 0); }
void t_reduce(const struct t_race_args *p) { reduce(p, 1); }

void t_shared_atomic(const struct t_race_args *p) {
    uint32_t t = fg_thread_idx_x();
    if (t == 0) t_race_s[0] = 0;
    fg_sync();
    __atomic_fetch_add(&t_race_s[0], p->in[fg_global_id_x()], __ATOMIC_RELAXED);
    fg_sync();
    if (t == 0) p->out[fg_block_idx_x()] = t_race_s[0];
}

/* Global memory within a block: each thread copies in[g] to out[g], then
 * takes the word of the thread 32 away (another warp) and stores it back;
 * t_global_nobar has no barrier between the phases (a race on out),
 * t_global the two barriers (out[g] = in[g ^ 32]). */
static void global_swap(const struct t_race_args *p, int with_barrier) {
    uint32_t g = fg_global_id_x();
    p->out[g] = p->in[g];
    if (with_barrier) fg_sync();
    uint32_t v = p->out[g ^ 32];
    if (with_barrier) fg_sync();
    p->out[g] = v;
}

void t_global_nobar(const struct t_race_args *p) { global_swap(p, 0); }
void t_global(const struct t_race_args *p) { global_swap(p, 1); }

/* t_flag: thread 0 of each block sets a flag in shared memory the others
 * read after the barrier; it touches t_race_flag only, and carries t_race_s
 * (fg_run warns: every FG_SHARED array of a file is allocated for each entry). */
FG_SHARED uint32_t t_race_flag[32];

void t_flag(const struct t_race_args *p) {
    if (fg_thread_idx_x() == 0) t_race_flag[0] = p->in[fg_block_idx_x()];
    fg_sync();
    if (fg_thread_idx_x() == 1) p->out[fg_block_idx_x()] = t_race_flag[0];
}
