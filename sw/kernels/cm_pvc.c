/* PVC (CM Table II, Mars PageViewCount): each thread takes web-log records
 * (`GET /URL HTTP/1.1 client-ip` lines, Mars's input index gives their
 * starts), finds the URL byte by byte, hashes it (FNV-1a) and adds one view
 * to its bucket with atomicAdd: Mars's map (emit (URL, 1)) with the reduce
 * (sum per URL) done by atomics into a hash-indexed table instead of Mars's
 * sort and group.  Host reference: the generator's URLs counted per bucket
 * in sim/work/cm_apps.c. */
#include "fg_kernel.h"
#include "cm_args.h"

void cm_pvc(const cm_pvc_args *p) {
    const uint8_t *log = (const uint8_t *)(uintptr_t)p->log;
    const int32_t *off = (const int32_t *)(uintptr_t)p->offsets;
    uint32_t *table = (uint32_t *)(uintptr_t)p->table;
    const int stride = (int)(fg_grid_dim_x() * CM_PVC_THREADS);
    for (int r = (int)fg_global_id_x(); r < p->n; r += stride) {
        int i = off[r];
        const int end = off[r + 1];
        while (i < end && log[i] != ' ') i++; /* the method */
        i++;
        uint32_t h = CM_IIX_FNV_BASIS;
        for (; i < end && log[i] != ' '; i++) h = (h ^ log[i]) * CM_IIX_FNV_PRIME;
        fg_atomic_add(&table[h & (CM_PVC_BUCKETS - 1)], 1);
    }
}
