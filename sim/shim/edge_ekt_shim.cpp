// Shim: verilated rtl/edge/edge_ekt.sv.
#include "Vedge_ekt.h"
#include "fg_shim.hpp"
extern "C" {
#include "edge_ekt.h"
}

extern "C" fg_rtl *edge_ekt_rtl_new(const void *params, char *err, size_t n) {
    const edge_ekt_params *p = static_cast<const edge_ekt_params *>(params);
    if (fg_shim_param_check("edge_ekt", "ENTRIES", p->entries, FG_P_ENTRIES, err, n) ||
        fg_shim_param_check("edge_ekt", "ADDR_W", p->addr_w, FG_P_ADDR_W, err, n) ||
        fg_shim_param_check("edge_ekt", "PSIZE_W", p->psize_w, FG_P_PSIZE_W, err, n) ||
        fg_shim_param_check("edge_ekt", "DIM_W", p->dim_w, FG_P_DIM_W, err, n) ||
        fg_shim_param_check("edge_ekt", "SHMEM_W", p->shmem_w, FG_P_SHMEM_W, err, n) ||
        fg_shim_param_check("edge_ekt", "PRIO_W", p->prio_w, FG_P_PRIO_W, err, n) ||
        fg_shim_param_check("edge_ekt", "MAXEV_W", p->maxev_w, FG_P_MAXEV_W, err, n) ||
        fg_shim_param_check("edge_ekt", "WARP_THREADS", p->warp_threads, FG_P_WARP_THREADS, err, n) ||
        fg_shim_param_check("edge_ekt", "OUT_DEPTH", p->out_depth, FG_P_OUT_DEPTH, err, n))
        return nullptr;
    auto *m_ = new FgRtlModel<Vedge_ekt>();
#define FG_SHIM_IN_T_ edge_ekt_in_t
#define FG_SHIM_OUT_T_ edge_ekt_out_t
    EDGE_EKT_INPUTS(FG_SHIM_IN_) EDGE_EKT_OUTPUTS(FG_SHIM_OUT_)
    return m_;
}
