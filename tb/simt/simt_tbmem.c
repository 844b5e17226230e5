#include "simt_tbmem.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int simt_mem_init(simt_mem *m, uint64_t size) {
    m->size = size;
    m->b = calloc(1, size); /* zero pages on demand: only the pages written cost anything */
    m->dirty = calloc(1, (size + SIMT_MEM_PAGE - 1) / SIMT_MEM_PAGE);
    return m->b && m->dirty ? 0 : -1;
}

void simt_mem_free(simt_mem *m) {
    free(m->b);
    free(m->dirty);
    m->b = m->dirty = NULL;
}

void simt_mem_clear(simt_mem *m) {
    const uint64_t np = (m->size + SIMT_MEM_PAGE - 1) / SIMT_MEM_PAGE;
    for (uint64_t p = 0; p < np; p++) {
        if (!m->dirty[p]) continue;
        memset(m->b + p * SIMT_MEM_PAGE, 0, SIMT_MEM_PAGE);
        m->dirty[p] = 0;
    }
}

void simt_mem_write(simt_mem *m, uint64_t a, const void *p, size_t n) {
    if (!n) return;
    memcpy(m->b + a, p, n);
    for (uint64_t pg = a / SIMT_MEM_PAGE; pg <= (a + n - 1) / SIMT_MEM_PAGE; pg++) m->dirty[pg] = 1;
}

void simt_mem_read(const simt_mem *m, uint64_t a, void *p, size_t n) { memcpy(p, m->b + a, n); }

uint32_t simt_mem_rd32(const simt_mem *m, uint64_t a) {
    uint32_t v;
    memcpy(&v, m->b + a, 4);
    return v;
}

void simt_mem_wr32(simt_mem *m, uint64_t a, uint32_t v) { simt_mem_write(m, a, &v, 4); }

void simt_mem_copy(simt_mem *dst, const simt_mem *src) {
    const uint64_t np = (src->size + SIMT_MEM_PAGE - 1) / SIMT_MEM_PAGE;
    for (uint64_t p = 0; p < np; p++)
        if (src->dirty[p] && simt_mem_in(dst, p * SIMT_MEM_PAGE, SIMT_MEM_PAGE))
            simt_mem_write(dst, p * SIMT_MEM_PAGE, src->b + p * SIMT_MEM_PAGE, SIMT_MEM_PAGE);
}

int64_t simt_mem_diff(const simt_mem *x, const simt_mem *y) {
    const uint64_t size = x->size < y->size ? x->size : y->size;
    const uint64_t np = (size + SIMT_MEM_PAGE - 1) / SIMT_MEM_PAGE;
    for (uint64_t p = 0; p < np; p++) {
        if (!x->dirty[p] && !y->dirty[p]) continue;
        const uint8_t *a = x->b + p * SIMT_MEM_PAGE, *b = y->b + p * SIMT_MEM_PAGE;
        if (!memcmp(a, b, SIMT_MEM_PAGE)) continue;
        for (unsigned i = 0;; i++)
            if (a[i] != b[i]) return (int64_t)(p * SIMT_MEM_PAGE + i);
    }
    return -1;
}

void simt_tbmem_init(simt_tbmem *t, simt_mem *m, uint64_t seed, unsigned max_lat, unsigned ready_pct) {
    memset(t, 0, sizeof *t);
    t->m = m;
    t->max_lat = max_lat ? max_lat : 1;
    t->ready_pct = ready_pct > 100 ? 100 : ready_pct;
    t->rng = seed;
    t->qcap = 4096;
    t->q = calloc(t->qcap, sizeof *t->q);
}

void simt_tbmem_free(simt_tbmem *t) {
    free(t->q);
    t->q = NULL;
}

void simt_tbmem_drive(simt_tbmem *t, uint64_t cycle, uint8_t *ready, uint8_t *rsp_valid, uint32_t *rsp_data) {
    t->ready = t->ready_pct >= 100 || simt_rng_below(&t->rng, 100) < t->ready_pct;
    t->rsp_valid = t->n && t->q[t->head].due <= cycle;
    *ready = t->ready;
    *rsp_valid = t->rsp_valid;
    /* a data word when there is no response: the core must not look at it */
    *rsp_data = t->rsp_valid ? t->q[t->head].data : (uint32_t)simt_rng(&t->rng);
}

int simt_tbmem_clock(simt_tbmem *t, uint64_t cycle, bool req_valid, bool we, uint32_t addr, unsigned be,
                     uint32_t wdata) {
    if (t->rsp_valid) {
        t->head = (t->head + 1) % t->qcap;
        t->n--;
    }
    if (!req_valid) return 0;
    if (!t->ready) {
        t->stalls++;
        return 0;
    }
    if (addr & 3) {
        snprintf(t->err, sizeof t->err, "simt tbmem: cycle %" PRIu64 ": %s at 0x%08x is not word aligned", cycle,
                 we ? "write" : "read", addr);
        return -1;
    }
    if (!simt_mem_in(t->m, addr, 4)) {
        snprintf(t->err, sizeof t->err,
                 "simt tbmem: cycle %" PRIu64 ": %s at physical 0x%08x beyond the %" PRIu64 " MiB memory", cycle,
                 we ? "write" : "read", addr, t->m->size >> 20);
        return -1;
    }
    if (we) {
        for (unsigned i = 0; i < 4; i++) {
            if (!(be >> i & 1)) continue;
            const uint8_t v = (uint8_t)(wdata >> 8 * i);
            simt_mem_write(t->m, addr + i, &v, 1);
        }
        t->writes++;
        return 0;
    }
    if (t->n == t->qcap) {
        snprintf(t->err, sizeof t->err, "simt tbmem: cycle %" PRIu64 ": more than %u reads outstanding", cycle,
                 t->qcap);
        return -1;
    }
    /* in order, one a cycle, none before the cycle after the request */
    uint64_t due = cycle + 1 + (t->max_lat > 1 ? simt_rng_below(&t->rng, t->max_lat) : 0);
    if (t->n && due <= t->last_due) due = t->last_due + 1;
    t->last_due = due;
    t->q[(t->head + t->n) % t->qcap] = (struct simt_tbmem_rsp){due, simt_mem_rd32(t->m, addr)};
    t->n++;
    t->reads++;
    return 0;
}
