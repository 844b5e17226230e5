/* gpu_image: a loaded kernel image's code symbols (elf_load.c keeps them):
 * a pc as function+offset, in fault and warp reports.  It uses no other file
 * of the GPU model, so that gpu.c (faults) and gpu_diag.c (gpu_pc_symbol)
 * both may. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt/gpu_image.h"

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

int gpu_image_symbol(const simt_image *img, unsigned n_img, uint64_t pc, char *buf, size_t len) {
    for (unsigned i = 0; i < n_img; i++) {
        const simt_image *im = &img[i];
        if (pc < im->base || pc >= im->end) continue;
        const simt_sym *s = sym_at(im, pc);
        if (s) snprintf(buf, len, "%s+0x%llx", s->name, (unsigned long long)(pc - s->addr));
        else snprintf(buf, len, "%s image+0x%llx", im->name, (unsigned long long)(pc - im->base));
        return 0;
    }
    snprintf(buf, len, "?");
    return -1;
}

int gpu_image_lookup(const simt_image *img, unsigned n_img, const char *name, size_t len, uint64_t *addr) {
    for (unsigned i = 0; i < n_img; i++)
        for (unsigned s = 0; s < img[i].n_sym; s++)
            if (strlen(img[i].sym[s].name) == len && !strncmp(img[i].sym[s].name, name, len)) {
                *addr = img[i].sym[s].addr;
                return 0;
            }
    return -1;
}

void gpu_image_annotate_pcs(const simt_image *img, unsigned n_img, char *msg, size_t cap) {
    char *p = msg;
    while ((p = strstr(p, "pc 0x"))) {
        char *hex = p + 5, *end, sym[96], ins[112];
        unsigned long pc = strtoul(hex, &end, 16);
        p = end;
        if (end == hex || gpu_image_symbol(img, n_img, pc, sym, sizeof sym)) continue;
        int n = snprintf(ins, sizeof ins, " (%s)", sym);
        size_t tail = strlen(end);
        if ((size_t)(end - msg) + (size_t)n + tail + 1 > cap) return; /* no room: leave it bare */
        memmove(end + n, end, tail + 1);
        memcpy(end, ins, (size_t)n);
        p = end + n;
    }
}
