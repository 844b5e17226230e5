/* t_preempt: background kernel of the preemption tests (tests/test_preempt.c).
 * Blocks of 256 threads; each thread runs `iters` rounds of the mode's work
 * and writes one word, which the host recomputes:
 *   T_PRE_LOAD  dependent pointer chase through `next` (warps wait on loads)
 *   T_PRE_BAR   warp 0 of the block spins, the others wait at the barrier;
 *               after it every thread reads a word another warp wrote before
 *               it (wrong results if a barrier is broken)
 *   T_PRE_ALU   a dependent integer chain (no memory)
 *   T_PRE_LOADX the pointer chase with an independent integer chain between
 *               the hops: younger instructions complete while a load is in
 *               flight
 *   T_PRE_FENCE the same chain, each iteration storing an accumulator into
 *               the (then unused) next table, one line per lane, and
 *               fencing: warps wait at the FENCE for the 32 acknowledgements
 *               (EDGE Fig. 11b "memory barrier")
 * Eight accumulators keep enough registers live for any victim to be
 * eligible for the IPv4 event kernel (EDGE IV-D register rule). */
#include "fg_kernel.h"
#include "t_preempt.h"

FG_SHARED uint32_t t_pre_sh[256];

void t_preempt(const struct t_pre_args *p) {
    const uint32_t *next = (const uint32_t *)p->next;
    uint32_t *out = (uint32_t *)p->out;
    uint32_t gid = fg_global_id_x(), tid = fg_tid_x(), n = fg_ntid_x();
    uint32_t a[T_PRE_ACC];
    for (unsigned k = 0; k < T_PRE_ACC; k++) a[k] = gid * 2654435761u + k;
    for (uint32_t it = 0; it < p->iters; it++) {
        if (p->mode == T_PRE_LOAD) {
            /* eight dependent loads in a row: while one is in flight nothing
             * younger can issue, so it can be dropped and replayed */
            uint32_t j = (a[it % T_PRE_ACC] ^ it) & p->mask;
#define T_PRE_HOP j = next[j] & p->mask;
            T_PRE_HOP T_PRE_HOP T_PRE_HOP T_PRE_HOP T_PRE_HOP T_PRE_HOP T_PRE_HOP T_PRE_HOP
            a[it % T_PRE_ACC] += j;
        } else if (p->mode == T_PRE_LOADX) {
            uint32_t j = (a[it % T_PRE_ACC] ^ it) & p->mask, h = a[(it + 1) % T_PRE_ACC];
            for (unsigned k = 0; k < 8; k++) {
                j = next[j] & p->mask;
                h = h * 1664525u + 1013904223u;
            }
            a[it % T_PRE_ACC] += j ^ h;
        } else if (p->mode == T_PRE_BAR) {
            if (fg_warp_id() == 0)
                for (uint32_t s = 0; s < p->spin; s++) a[s % T_PRE_ACC] = a[s % T_PRE_ACC] * 1103515245u + 12345u;
            t_pre_sh[tid] = a[0] ^ a[T_PRE_ACC - 1];
            fg_sync();
            a[it % T_PRE_ACC] += t_pre_sh[(tid + 32) % n];
            fg_sync();
        } else {
            for (uint32_t s = 0; s < p->spin; s++)
                for (unsigned k = 0; k < T_PRE_ACC; k++) a[k] = (a[k] * 1664525u + 1013904223u) ^ (a[(k + 1) % T_PRE_ACC] >> 7);
            if (p->mode == T_PRE_FENCE) {
                ((uint32_t *)next)[(gid * 32 + it) & p->mask] = a[it % T_PRE_ACC];
                __sync_synchronize();
            }
        }
    }
    uint32_t r = 0;
    for (unsigned k = 0; k < T_PRE_ACC; k++) r = r * 31u + a[k];
    out[gid] = r;
}
