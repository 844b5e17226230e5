/* cm_dyncta: DYNCTA's per-core block limit (cm_dyncta.h). */
#include "cm_dyncta.h"

#include <stdlib.h>

struct cm_dyncta {
    cm_dyncta_params p;
    gpu_t *g;
    unsigned cores, left;     /* cycles left in the period */
    bool on;
    unsigned *n;              /* per core: the block limit */
    gpu_core_stats *s0;       /* per core: counts at the period's start */
};

cm_dyncta *cm_dyncta_new(const cm_dyncta_params *p, gpu_t *g) {
    cm_dyncta *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->p = *p;
    d->g = g;
    d->cores = gpu_get_config(g)->num_cores;
    d->n = calloc(d->cores, sizeof *d->n);
    d->s0 = calloc(d->cores, sizeof *d->s0);
    if (!d->n || !d->s0) {
        cm_dyncta_free(d);
        return NULL;
    }
    return d;
}

void cm_dyncta_free(cm_dyncta *d) {
    if (!d) return;
    free(d->n);
    free(d->s0);
    free(d);
}

void cm_dyncta_start(cm_dyncta *d) {
    if (d->on) return;
    d->on = true;
    d->left = d->p.period;
    const unsigned max = gpu_get_config(d->g)->max_blocks_per_core;
    for (unsigned c = 0; c < d->cores; c++) {
        d->n[c] = d->p.init && d->p.init < max ? d->p.init : max;
        gpu_set_block_limit(d->g, c, d->n[c], d->p.pause);
        gpu_get_core_stats(d->g, c, &d->s0[c]);
    }
}

void cm_dyncta_tick(cm_dyncta *d) {
    if (!d->on || --d->left) return;
    d->left = d->p.period;
    const unsigned N = gpu_blocks_per_core(d->g); /* 0: no kernel running, the limits stay */
    for (unsigned c = 0; c < d->cores; c++) {
        gpu_core_stats s;
        gpu_get_core_stats(d->g, c, &s);
        const uint64_t idle = s.idle_cycles - d->s0[c].idle_cycles, mem = s.mem_cycles - d->s0[c].mem_cycles;
        d->s0[c] = s;
        if (!N) continue;
        unsigned n = d->n[c] < N ? d->n[c] : N;
        if (idle >= d->p.t_idle || mem < d->p.t_mem_l) n = n < N ? n + 1 : N;
        else if (mem > d->p.t_mem_h && n > 1) n--;
        if (n != d->n[c]) gpu_set_block_limit(d->g, c, n, d->p.pause);
        d->n[c] = n;
    }
}

unsigned cm_dyncta_limit(const cm_dyncta *d, unsigned core) { return core < d->cores ? d->n[core] : 0; }
