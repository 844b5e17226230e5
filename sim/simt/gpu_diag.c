/* gpu_diag: what the GPU model tells a user whose kernel misbehaves
 * (fg_run, docs/SIMT.md): a pc as function+offset from the kernel's symbol
 * table (gpu_image.c), the live warps of a kernel that does not finish, and
 * an optional check of every global access. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt/gpu_state.h"

int gpu_pc_symbol(const gpu_t *g, uint64_t pc, char *buf, size_t len) {
    return gpu_image_symbol(g->img, g->n_img, pc, buf, len);
}

int gpu_symbol_pc(const gpu_t *g, const char *where, uint64_t *pc) {
    const char *plus = strchr(where, '+');
    size_t len = plus ? (size_t)(plus - where) : strlen(where);
    uint64_t off = 0;
    if (plus) {
        char *end;
        errno = 0;
        off = strtoull(plus + 1, &end, 16);
        if (strncmp(plus + 1, "0x", 2) || end == plus + 3 || *end || errno) return -1;
    }
    if (gpu_image_lookup(g->img, g->n_img, where, len, pc)) return -1;
    *pc += off;
    return 0;
}

unsigned gpu_warps(const gpu_t *g, gpu_warp_info *out, unsigned max) {
    unsigned n = 0;
    gpu_warp_info spare; /* past max: counted, not kept */
    for (unsigned ci = 0; ci < g->cfg.num_cores; ci++) {
        simt_core *c = simt_core_nth(g->core, ci);
        for (unsigned s = 0; s < simt_core_nwarps(c); s++) {
            gpu_warp_info *o = n < max ? &out[n] : &spare;
            const simt_grid *k = simt_core_warp_info(c, s, o);
            if (!k) continue;
            n++;
            o->core = ci;
            o->tag = k->id < g->n_lq ? g->lq[k->id]->tag : 0;
        }
    }
    return n;
}

void gpu_set_access_check(gpu_t *g, gpu_access_check fn, gpu_prov_load prov_load, void *user) {
    if (fn || prov_load) g->serial = true; /* the caller's checks are not thread-safe */
    for (unsigned i = 0; i < g->cfg.num_cores; i++)
        if (simt_core_set_access_check(simt_core_nth(g->core, i), fn, prov_load, user)) {
            gpu_fault(g, "out of memory (--check's provenance)");
            return;
        }
}

void gpu_set_watch(gpu_t *g, const gpu_watch *w) {
    for (unsigned i = 0; i < g->cfg.num_cores; i++) simt_core_set_watch(simt_core_nth(g->core, i), w);
}

void gpu_set_shared_hook(gpu_t *g, gpu_shared_hook fn, void *user) {
    if (fn) g->serial = true;
    for (unsigned i = 0; i < g->cfg.num_cores; i++) simt_core_set_shared_hook(simt_core_nth(g->core, i), fn, user);
}
