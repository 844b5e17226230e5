/* gpu_traffic: streaming line traffic standing for a memory-bound GPU kernel
 * on the CM machine's GPU ports (gpu_traffic.h). */
#include "gpu_traffic.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t elem;     /* next line index of this core's part */
    unsigned step;     /* 0 read b, 1 read c, 2 write a */
    unsigned inflight; /* requests not yet answered (reads; writes until acknowledged) */
} core_st;

struct gpu_traffic {
    gpu_traffic_config c;
    core_st *k;
    uint64_t lines, part_lines;
};

gpu_traffic *gpu_traffic_new(const gpu_traffic_config *c) {
    gpu_traffic *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->c = *c;
    t->k = calloc(c->cores, sizeof *t->k);
    if (!t->k) {
        free(t);
        return NULL;
    }
    t->part_lines = c->bytes / 3 / c->line_bytes / c->cores;
    return t;
}

void gpu_traffic_free(gpu_traffic *t) {
    if (!t) return;
    free(t->k);
    free(t);
}

void gpu_traffic_tick(gpu_traffic *t, mem_system *m, bool on) {
    const uint64_t arr = t->part_lines * t->c.cores * t->c.line_bytes; /* one array */
    for (unsigned p = 0; p < t->c.cores; p++) {
        core_st *k = &t->k[p];
        const mem_rsp *r;
        while ((r = mem_rsp_peek(m, p))) {
            k->inflight--;
            mem_rsp_pop(m, p);
        }
        if (!on || k->inflight >= t->c.outstanding) continue;
        bool write = k->step == 2;
        uint64_t line = (uint64_t)p * t->part_lines + k->elem % t->part_lines;
        uint64_t addr = t->c.base + (write ? 0 : k->step == 0 ? arr : 2 * arr) + line * t->c.line_bytes;
        mem_req q = {.id = p, .addr = addr, .bmask = {~0ull, ~0ull}, .op = write ? MEM_WRITE : MEM_READ,
                     .src = MEM_SRC_GPU, .kind = MEM_K_DATA, .fe_trig = MEM_FE_DEFAULT,
                     .fe_act = MEM_FE_DEFAULT, .amo_ops = 1};
        if (mem_send(m, p, &q)) continue;
        k->inflight++;
        t->lines++;
        if (++k->step == 3) {
            k->step = 0;
            k->elem++;
        }
    }
}

uint64_t gpu_traffic_lines(const gpu_traffic *t) { return t->lines; }

bool gpu_traffic_idle(const gpu_traffic *t) {
    for (unsigned p = 0; p < t->c.cores; p++)
        if (t->k[p].inflight) return false;
    return true;
}
