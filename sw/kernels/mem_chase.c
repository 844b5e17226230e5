/* mem_chase: memory latency microbenchmarks of build/bin/mem_bench
 * (results/mem_bench.json; docs/MEM.md).
 *
 * Warp 0 of block 0 chases pointers: p = next[p], `warm` then `hops` times, each load
 * depending on the one before, so exactly one line request is in flight; all
 * its lanes follow the same chain (one coalesced request per hop).  It
 * writes the cycles the timed hops took (fg_clock, the GPU core clock) to
 * out[0], the final index to out[1] (the host checks it against the chain)
 * and the clock at its end to out[2].  next[] is a random cyclic permutation laid out by the host with
 * one element per line, so every hop touches a new line.
 *
 * Every other warp of the grid, when `load_words` > 0, is a load generator:
 * it streams reads over load[0 .. load_words) (one line per warp load), with
 * `gap` iterations of dependent ALU work between its loads, `load_iters`
 * loads in all, and records the clock when it ends.  The offered load is set
 * by the number of generator warps and the gap; the chase measures the
 * latency under that load, and the host checks (and else re-runs with more
 * iterations) that every generator was still loading when the chase ended. */
#include "fg_kernel.h"

struct mem_chase_args {
    const uint32_t *next; /* element index -> next element index (one element per line) */
    uint32_t warm;        /* hops before the timed ones (fill the caches) */
    uint32_t hops;        /* timed hops */
    uint32_t *out;        /* [0] cycles, [1] last index, [2] chase end clock,
                           * [2 + 2 * warp] generator sum, [3 + 2 * warp] its end clock */
    const uint32_t *load; /* generator array (NULL / 0 words: none) */
    uint32_t load_words;
    uint32_t load_iters;
    uint32_t gap;
};

void mem_chase(const struct mem_chase_args *p) {
    const uint32_t tid = fg_tid_x();
    const uint32_t warp = (fg_ctaid_x() * fg_ntid_x() + tid) / 32;
    if (warp == 0) {
        const uint32_t *next = p->next;
        uint32_t idx = 0;
        for (uint32_t h = 0; h < p->warm; h++) idx = next[idx * 32];
        /* Neither clock read waits for the load before it: t0 is read while
         * the last warm hop is in flight, t1 while the last timed one is, so
         * in the steady state t1 - t0 is exactly hops x one hop. */
        uint32_t t0 = fg_clock();
        for (uint32_t h = 0; h < p->hops; h++) idx = next[idx * 32];
        uint32_t t1 = fg_clock();
        if (fg_lane_id() == 0) {
            p->out[0] = t1 - t0;
            p->out[1] = idx;
            p->out[2] = t1;
        }
        return;
    }
    if (!p->load_words) return;
    /* generator: each warp starts at its own line and strides over the array */
    const uint32_t nwarps = fg_nctaid_x() * fg_ntid_x() / 32;
    const uint32_t lines = p->load_words / 32; /* the host makes it > the generator warps */
    uint32_t line = warp % lines, sum = 0, x = tid;
    for (uint32_t it = 0; it < p->load_iters; it++) {
        sum += p->load[line * 32 + fg_lane_id()];
        line += nwarps; /* no remainder: a DIV would cost more than the gap */
        while (line >= lines) line -= lines;
        for (uint32_t g = 0; g < p->gap; g++) x = x * 1664525u + 1013904223u; /* ALU work */
    }
    /* x is stored so that the compiler keeps the gap loop */
    if (fg_lane_id() == 0) {
        p->out[2 + 2 * warp] = sum ^ x;
        p->out[3 + 2 * warp] = fg_clock();
    }
}
