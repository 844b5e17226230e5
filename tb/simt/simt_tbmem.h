/* simt_tbmem: the memory behind the RTL SIMT core's port (docs/SIMT_RTL.md
 * "memory"), and the byte image it and the reference (simt_ref.c) each keep.
 *
 * simt_mem is a byte-addressed image that marks the 4 KiB pages written, so
 * that clearing and comparing two images touch only those.  simt_tbmem
 * answers the port: writes with byte enables, reads answered in request
 * order, each after its own random latency of 1..max_lat cycles (one
 * response a cycle), mem_req_ready_i deasserted at random; both from a
 * seed.  max_lat = 1 and ready_pct = 100 is the plain memory. */
#ifndef SIMT_TBMEM_H
#define SIMT_TBMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIMT_MEM_PAGE 4096u

/* splitmix64: the test bench's seeded random numbers */
static inline uint64_t simt_rng(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* uniform in [0, n) (n > 0) */
static inline uint32_t simt_rng_below(uint64_t *s, uint32_t n) { return (uint32_t)((simt_rng(s) >> 32) * n >> 32); }

typedef struct {
    uint8_t *b;
    uint64_t size;
    uint8_t *dirty; /* one byte per page */
} simt_mem;

int simt_mem_init(simt_mem *m, uint64_t size);
void simt_mem_free(simt_mem *m);
/* Zeroes the pages written since the last clear. */
void simt_mem_clear(simt_mem *m);
static inline bool simt_mem_in(const simt_mem *m, uint64_t a, uint64_t n) { return a + n <= m->size && a + n >= a; }
/* Callers check the range first (simt_mem_in). */
void simt_mem_write(simt_mem *m, uint64_t a, const void *p, size_t n);
void simt_mem_read(const simt_mem *m, uint64_t a, void *p, size_t n);
uint32_t simt_mem_rd32(const simt_mem *m, uint64_t a);
void simt_mem_wr32(simt_mem *m, uint64_t a, uint32_t v);
/* The pages src wrote, into dst. */
void simt_mem_copy(simt_mem *dst, const simt_mem *src);
/* The first address where the two images differ (over the pages either
 * wrote), or -1. */
int64_t simt_mem_diff(const simt_mem *x, const simt_mem *y);

typedef struct {
    simt_mem *m;
    unsigned max_lat, ready_pct;
    uint64_t rng;
    struct simt_tbmem_rsp { uint64_t due; uint32_t data; } *q;
    unsigned qcap, head, n;
    uint64_t last_due;
    uint8_t ready, rsp_valid; /* what this cycle drives */
    uint64_t reads, writes, stalls;
    char err[256];
} simt_tbmem;

void simt_tbmem_init(simt_tbmem *t, simt_mem *m, uint64_t seed, unsigned max_lat, unsigned ready_pct);
void simt_tbmem_free(simt_tbmem *t);
/* This cycle's inputs to the core: mem_req_ready_i and the response. */
void simt_tbmem_drive(simt_tbmem *t, uint64_t cycle, uint8_t *ready, uint8_t *rsp_valid, uint32_t *rsp_data);
/* The rising edge: the response driven is consumed, a request offered
 * while ready is taken.  -1 with t->err on a request the memory cannot
 * take (address not word aligned or beyond the memory, too many reads
 * outstanding). */
int simt_tbmem_clock(simt_tbmem *t, uint64_t cycle, bool req_valid, bool we, uint32_t addr, unsigned be,
                     uint32_t wdata);
/* Reads outstanding (requested, not yet answered). */
static inline unsigned simt_tbmem_pending(const simt_tbmem *t) { return t->n; }

#endif
