/* MUM (CM Table II, MUMmerGPU): each thread aligns one query (a short read)
 * against the suffix tree of the reference: for every offset of the query it
 * walks from the root, choosing the child by the next base and comparing the
 * edge's label in the reference text, and writes the length of the longest
 * match starting there (MUMmerGPU's per-offset match; MUMmerGPU reaches the
 * next offset by a suffix link, this walk restarts from the root).  Each
 * thread reads its own query over and over and the tree's top levels are
 * shared: a warp's working set is its 32 queries plus the tree's upper
 * nodes, which the 16 KB L1 holds only for a few warps (CM Sec. 3: MUM
 * prefers low TLP).  Host reference: mum_walk in sim/work/cm_apps.c. */
#include "fg_kernel.h"
#include "cm_args.h"

static inline int base_code(uint8_t c) { return c == 'A' ? 0 : c == 'C' ? 1 : c == 'G' ? 2 : c == 'T' ? 3 : -1; }

void cm_mum(const cm_mum_args *p) {
    const int qi = (int)fg_global_id_x();
    if (qi >= p->n_queries) return;
    const cm_mum_node *nodes = (const cm_mum_node *)(uintptr_t)p->nodes;
    const uint8_t *ref = (const uint8_t *)(uintptr_t)p->ref;
    const uint8_t *q = (const uint8_t *)(uintptr_t)p->queries + qi * p->stride;
    int32_t *out = (int32_t *)(uintptr_t)p->out + qi * p->qlen;
    const int L = p->qlen;
    for (int off = 0; off < L; off++) {
        int node = 0, m = 0;
        for (;;) {
            if (off + m >= L) break;
            const int c = base_code(q[off + m]);
            if (c < 0) break;
            const int ch = nodes[node].child[c];
            if (ch < 0) break;
            const int s = nodes[ch].start, len = nodes[ch].len;
            int k = 0;
            while (k < len && off + m < L && ref[s + k] == q[off + m]) k++, m++;
            if (k < len) break;
            node = ch;
        }
        out[off] = m;
    }
}
