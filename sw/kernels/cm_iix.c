/* IIX (CM Table II, Mars InvertedIndex): the map stage over HTML documents,
 * one document per thread, scanned byte by byte for links `<a href="URL"`.
 * cm_iix_count is Mars's MapCount (links per document); the host takes the
 * exclusive prefix sum; cm_iix_map is Mars's Map, emitting (hash of URL,
 * document id) at the document's offset.  Each thread streams its own
 * document: a warp reads 32 separate lines a byte at a time, reused for 128
 * loads each only while the L1 still holds them, which it does for few warps
 * (CM Sec. 6: IIX prefers 1-2 warps).  Host reference: iix_scan in
 * sim/work/cm_apps.c (the same scanner). */
#include "fg_kernel.h"
#include "cm_args.h"

/* Scans doc[0, len) for `<a href="`...`"`; with keys != 0 emits each URL's
 * hash and the document id from *keys / *vals on.  Returns the links. */
static int scan(const uint8_t *doc, int len, int32_t *keys, int32_t *vals, int id) {
    static const char pat[] = "<a href=\"";
    int n = 0, st = 0;
    uint32_t h = CM_IIX_FNV_BASIS;
    for (int i = 0; i < len; i++) {
        const uint8_t c = doc[i];
        if (st < 9) { /* matching the pattern */
            st = c == (uint8_t)pat[st] ? st + 1 : (c == '<' ? 1 : 0);
            h = CM_IIX_FNV_BASIS;
        } else if (c == '"') { /* end of the URL */
            if (keys) {
                keys[n] = (int32_t)h;
                vals[n] = id;
            }
            n++;
            st = 0;
        } else {
            h = (h ^ c) * CM_IIX_FNV_PRIME;
        }
    }
    return n;
}

void cm_iix_count(const cm_iix_args *p) {
    const int d = (int)fg_global_id_x();
    if (d >= p->n_docs) return;
    const uint8_t *doc = (const uint8_t *)(uintptr_t)p->docs + d * p->stride;
    ((int32_t *)(uintptr_t)p->counts)[d] = scan(doc, p->doc_len, 0, 0, d);
}

void cm_iix_map(const cm_iix_args *p) {
    const int d = (int)fg_global_id_x();
    if (d >= p->n_docs) return;
    const uint8_t *doc = (const uint8_t *)(uintptr_t)p->docs + d * p->stride;
    const int o = ((const int32_t *)(uintptr_t)p->offsets)[d];
    scan(doc, p->doc_len, (int32_t *)(uintptr_t)p->keys + o, (int32_t *)(uintptr_t)p->vals + o, d);
}
