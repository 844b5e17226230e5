/* PVR (CM Table II, Mars PageViewRank): ranks the URLs of PVC's output by
 * their views.  cm_pvr_map is Mars's Map (emit (views, line offset); every
 * record emits one 8-byte pair, so Mars's MapCount and its prefix sum would
 * give offset 8 i and are not run) and builds the sort's records;
 * cm_pvr_sort is one step (k, j) of Mars's global bitonic sort
 * (bitonicKernel): each record is compared through its key in the
 * intermediate buffer (an indirect load, as Mars's getCompareValue), views
 * descending.  Host reference: the generator's view counts sorted on the
 * host, sim/work/cm_apps.c. */
#include "fg_kernel.h"
#include "cm_args.h"

void cm_pvr_map(const cm_pvr_args *p) {
    const int32_t *in = (const int32_t *)(uintptr_t)p->in;
    int32_t *inter = (int32_t *)(uintptr_t)p->inter;
    cm_pvr_rec *recs = (cm_pvr_rec *)(uintptr_t)p->recs;
    const int stride = (int)(fg_grid_dim_x() * CM_PVR_THREADS);
    for (int i = (int)fg_global_id_x(); i < p->n_pad; i += stride) {
        cm_pvr_rec r = {-1, -1, -1, -1};
        if (i < p->n) {
            inter[2 * i] = in[2 * i];
            inter[2 * i + 1] = in[2 * i + 1];
            r.key_off = 8 * i, r.key_size = 4, r.val_off = 8 * i + 4, r.val_size = 4;
        }
        recs[i] = r;
    }
}

/* Mars's getCompareValue with PVR's compare: -1 orders a first. */
static int compare(const uint8_t *inter, const cm_pvr_rec *a, const cm_pvr_rec *b) {
    if (a->key_off == -1 || b->key_off == -1) return a->key_off == b->key_off ? 0 : a->key_off == -1 ? -1 : 1;
    const int32_t h1 = *(const int32_t *)(inter + a->key_off), h2 = *(const int32_t *)(inter + b->key_off);
    return h1 > h2 ? -1 : h1 < h2 ? 1 : 0;
}

void cm_pvr_sort(const cm_pvr_args *p) {
    const uint8_t *inter = (const uint8_t *)(uintptr_t)p->inter;
    cm_pvr_rec *recs = (cm_pvr_rec *)(uintptr_t)p->recs;
    const int i = (int)fg_global_id_x(), ixj = i ^ p->j;
    if (i >= p->n_pad || ixj <= i) return;
    const cm_pvr_rec a = recs[i], b = recs[ixj];
    const int c = compare(inter, &a, &b);
    if ((i & p->k) == 0 ? c == 1 : c == -1) {
        recs[i] = b;
        recs[ixj] = a;
    }
}
