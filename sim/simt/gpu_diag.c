/* gpu_diag: what the GPU model tells a user whose kernel misbehaves
 * (issue 16 item 5; fg_run, docs/SIMT.md): a pc as function+offset from the
 * kernel's symbol table (elf_load.c keeps it), the live warps of a kernel
 * that does not finish, and an optional check of every global access. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt/gpu_internal.h"

/* the symbol of image im at or before pc (NULL: none) */
static const simt_sym *sym_at(const simt_image *im, uint64_t pc) {
    const simt_sym *best = NULL;
    unsigned lo = 0, hi = im->n_sym;
    while (lo < hi) { /* last symbol with addr <= pc */
        unsigned mid = (lo + hi) / 2;
        if (im->sym[mid].addr <= pc) lo = mid + 1;
        else hi = mid;
    }
    for (unsigned i = lo; i-- > 0;) { /* prefer a function that contains pc over a label after it */
        const simt_sym *s = &im->sym[i];
        if (!best) best = s;
        if (s->size && pc < s->addr + s->size) return s;
        if (s->addr != best->addr) break;
    }
    return best;
}

int gpu_pc_symbol(const gpu_t *g, uint64_t pc, char *buf, size_t len) {
    for (unsigned i = 0; i < g->n_img; i++) {
        const simt_image *im = &g->img[i];
        if (pc < im->base || pc >= im->end) continue;
        const simt_sym *s = sym_at(im, pc);
        if (s) snprintf(buf, len, "%s+0x%llx", s->name, (unsigned long long)(pc - s->addr));
        else snprintf(buf, len, "%s image+0x%llx", im->name, (unsigned long long)(pc - im->base));
        return 0;
    }
    snprintf(buf, len, "?");
    return -1;
}

void gpu_annotate_pcs(const gpu_t *g, char *msg, size_t cap) {
    char *p = msg;
    while ((p = strstr(p, "pc 0x"))) {
        char *hex = p + 5, *end, sym[96], ins[112];
        unsigned long pc = strtoul(hex, &end, 16);
        p = end;
        if (end == hex || gpu_pc_symbol(g, pc, sym, sizeof sym)) continue;
        int n = snprintf(ins, sizeof ins, " (%s)", sym);
        size_t tail = strlen(end);
        if ((size_t)(end - msg) + (size_t)n + tail + 1 > cap) return; /* no room: leave it bare */
        memmove(end + n, end, tail + 1);
        memcpy(end, ins, (size_t)n);
        p = end + n;
    }
}

unsigned gpu_warps(const gpu_t *g, gpu_warp_info *out, unsigned max) {
    unsigned n = 0;
    for (unsigned ci = 0; ci < g->cfg.num_cores; ci++) {
        const simt_core *c = &g->core[ci];
        for (unsigned s = 0; s < c->nwarps; s++) {
            const simt_warp *w = &c->w[s];
            if (w->state != WS_RUN && w->state != WS_DRAIN) continue;
            if (n++ >= max) continue;
            gpu_warp_info *o = &out[n - 1];
            memset(o, 0, sizeof *o);
            const simt_block *b = &c->blk[w->block];
            o->core = ci;
            o->slot = s;
            o->tag = w->grid->id < g->n_lq ? g->lq[w->grid->id]->tag : 0;
            o->event = w->event;
            o->draining = w->state == WS_DRAIN;
            memcpy(o->ctaid, b->ctaid, sizeof o->ctaid);
            o->warp_in_block = w->wib;
            o->live = w->live;
            o->bar_wait = w->bar_wait;
            for (unsigned l = 0; l < SIMT_LANES; l++)
                if (w->live >> l & 1) o->lane_pc[l] = (w->active >> l & 1) ? w->x.pc : w->x.lane_pc[l];
            o->loads = w->n_ld;
            o->stores = w->n_st;
            o->at_fence = w->fence_since != 0;
            o->instrs = w->instrs;
            if (!w->event) {
                o->block_arrived = b->bar_arrived;
                o->block_live = b->live_threads;
                o->bar_since = b->bar_since;
            }
        }
    }
    return n;
}

void gpu_set_access_check(gpu_t *g, gpu_access_check fn, gpu_prov_load prov_load, void *user) {
    if (fn || prov_load) g->serial = true; /* the caller's checks are not thread-safe */
    for (unsigned i = 0; i < g->cfg.num_cores; i++) {
        simt_core *c = &g->core[i];
        c->acc_check = fn;
        c->acc_user = user;
        c->prov_load = prov_load;
        for (unsigned s = 0; prov_load && s < c->nwarps; s++)
            if (!c->w[s].x.prov && !(c->w[s].x.prov = calloc(RV_NREGS + 1, sizeof *c->w[s].x.prov))) {
                gpu_fault(g, "out of memory (--check's provenance)");
                return;
            }
    }
}

void gpu_set_shared_hook(gpu_t *g, gpu_shared_hook fn, void *user) {
    if (fn) g->serial = true;
    for (unsigned i = 0; i < g->cfg.num_cores; i++) {
        g->core[i].sh_hook = fn;
        g->core[i].sh_user = user;
    }
}
