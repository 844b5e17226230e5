/* SP (CM Table II, LonestarGPU sp): survey propagation on a random 3-SAT
 * formula (Braunstein, Mezard, Zecchina).  cm_sp_eta: one clause a per
 * thread (grid-stride) computes, for each of its variables j, the products
 * of (1 - eta) over j's other clauses with the same sign (Ps) and the
 * opposite sign (Pu), and from them the new survey of each of its edges:
 *   eta[a][i] = prod_{j in a, j != i} (1 - Pu_j) Ps_j / (Ps_j + Pu_j - Ps_j Pu_j)
 * reading the previous launch's surveys (a synchronous update, so that the
 * result does not depend on the order threads run).  cm_sp_bias: one
 * variable per thread, its bias W+ - W- from the products over its positive
 * and negative occurrences (LonestarGPU's update_bias, which decimation
 * ranks by).  Irregular: each clause walks three variables' occurrence
 * lists, ~13 surveys each, scattered over the whole array.  Host reference
 * (double precision): sp_ref in sim/work/cm_apps.c. */
#include "fg_kernel.h"
#include "cm_args.h"

void cm_sp_eta(const cm_sp_args *p) {
    const int32_t *lit = (const int32_t *)(uintptr_t)p->lit, *vrow = (const int32_t *)(uintptr_t)p->vrow;
    const int32_t *vedge = (const int32_t *)(uintptr_t)p->vedge;
    const float *in = (const float *)(uintptr_t)p->eta_in;
    float *out = (float *)(uintptr_t)p->eta_out;
    const int stride = (int)(fg_grid_dim_x() * CM_SP_THREADS);
    for (int a = (int)fg_global_id_x(); a < p->m; a += stride) {
        float f[CM_SP_K];
        for (int k = 0; k < CM_SP_K; k++) {
            const int l = lit[a * CM_SP_K + k], j = (l > 0 ? l : -l) - 1, self = a * CM_SP_K + k;
            float ps = 1.0f, pu = 1.0f;
            for (int o = vrow[j]; o < vrow[j + 1]; o++) {
                const int e = vedge[o];
                if (e == self) continue;
                const float t = 1.0f - in[e];
                if ((lit[e] > 0) == (l > 0)) ps *= t;
                else pu *= t;
            }
            const float d = ps + pu - ps * pu;
            f[k] = d > 0.0f ? (1.0f - pu) * ps / d : 0.0f;
        }
        out[a * CM_SP_K + 0] = f[1] * f[2];
        out[a * CM_SP_K + 1] = f[0] * f[2];
        out[a * CM_SP_K + 2] = f[0] * f[1];
    }
}

void cm_sp_bias(const cm_sp_args *p) {
    const int32_t *lit = (const int32_t *)(uintptr_t)p->lit, *vrow = (const int32_t *)(uintptr_t)p->vrow;
    const int32_t *vedge = (const int32_t *)(uintptr_t)p->vedge;
    const float *eta = (const float *)(uintptr_t)p->eta_in;
    float *bias = (float *)(uintptr_t)p->bias;
    const int stride = (int)(fg_grid_dim_x() * CM_SP_THREADS);
    for (int v = (int)fg_global_id_x(); v < p->n; v += stride) {
        float pp = 1.0f, pm = 1.0f; /* over the positive, the negative occurrences */
        for (int o = vrow[v]; o < vrow[v + 1]; o++) {
            const int e = vedge[o];
            if (lit[e] > 0) pp *= 1.0f - eta[e];
            else pm *= 1.0f - eta[e];
        }
        const float wp = (1.0f - pp) * pm, wm = (1.0f - pm) * pp, d = wp + wm + pp * pm;
        bias[v] = d > 0.0f ? (wp - wm) / d : 0.0f;
    }
}
