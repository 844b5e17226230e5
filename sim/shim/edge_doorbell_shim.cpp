// Shim: verilated rtl/edge/edge_doorbell.sv.
#include "Vedge_doorbell.h"
#include "fg_shim.hpp"
extern "C" {
#include "edge_doorbell.h"
}

extern "C" fg_rtl *edge_doorbell_rtl_new(const void *params, char *err, size_t n) {
    const edge_doorbell_params *p = static_cast<const edge_doorbell_params *>(params);
    if (fg_shim_param_check("edge_doorbell", "ENTRIES", p->entries, FG_P_ENTRIES, err, n) ||
        fg_shim_param_check("edge_doorbell", "ADDR_W", p->addr_w, FG_P_ADDR_W, err, n) ||
        fg_shim_param_check("edge_doorbell", "DATA_W", p->data_w, FG_P_DATA_W, err, n) ||
        fg_shim_param_check("edge_doorbell", "RING_DEPTH", p->ring_depth, FG_P_RING_DEPTH, err, n) ||
        fg_shim_param_check("edge_doorbell", "PT_DEPTH", p->pt_depth, FG_P_PT_DEPTH, err, n))
        return nullptr;
    auto *m_ = new FgRtlModel<Vedge_doorbell>();
#define FG_SHIM_IN_T_ edge_doorbell_in_t
#define FG_SHIM_OUT_T_ edge_doorbell_out_t
    EDGE_DOORBELL_INPUTS(FG_SHIM_IN_) EDGE_DOORBELL_OUTPUTS(FG_SHIM_OUT_)
    return m_;
}
