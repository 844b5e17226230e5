/* KMN background kernels (EDGE Sec. V: K-means from Rodinia).  C ports of
 * Rodinia kmeans' invert_mapping (once: features point-major ->
 * feature-major, so that a warp's loads of one feature coalesce) and
 * kmeansPoint (per iteration: each point's nearest cluster by squared
 * Euclidean distance, clusters and features in order, first minimum wins).
 * 256-thread blocks, no barriers; kmeansPoint's grid is square (Rodinia's
 * num_blocks_perdim), so the last blocks may hold no point.  Rodinia reads
 * the features through a texture and the clusters from constant memory;
 * here both are plain global loads.  The host computes the new centres
 * between iterations (sim/work/bg_edge_apps.c, kmn_*, with the reference). */
#include "fg_kernel.h"
#include "bg_args.h"

void bg_kmn_invert(const bg_kmn_args *a) {
    const int point_id = (int)(fg_thread_idx_x() + fg_block_dim_x() * fg_block_idx_x());
    const int npoints = a->npoints, nfeatures = a->nfeatures;
    if (point_id < npoints) {
        const float *in = (const float *)(uintptr_t)a->input;
        float *out = (float *)(uintptr_t)a->features;
        for (int i = 0; i < nfeatures; i++) out[point_id + npoints * i] = in[point_id * nfeatures + i];
    }
}

void bg_kmn_point(const bg_kmn_args *a) {
    const int block_id = (int)(fg_grid_dim_x() * fg_block_idx_y() + fg_block_idx_x());
    const int point_id = block_id * (int)(fg_block_dim_x() * fg_block_dim_y()) + (int)fg_thread_idx_x();
    const int npoints = a->npoints, nfeatures = a->nfeatures;
    if (point_id < npoints) {
        const float *features = (const float *)(uintptr_t)a->features;
        const float *clusters = (const float *)(uintptr_t)a->clusters;
        int index = -1;
        float min_dist = 3.40282347e38f; /* FLT_MAX */
        for (int i = 0; i < a->nclusters; i++) {
            const float *c = clusters + i * nfeatures;
            float ans = 0.0f;
            for (int j = 0; j < nfeatures; j++) {
                const float diff = features[point_id + j * npoints] - c[j];
                ans += diff * diff;
            }
            if (ans < min_dist) {
                min_dist = ans;
                index = i;
            }
        }
        ((int32_t *)(uintptr_t)a->membership)[point_id] = index;
    }
}
