// Shim: verilated rtl/prim/fg_rr_arb.sv (unit-test configuration).
#include "Vfg_rr.h"
#include "fg_shim.hpp"
extern "C" {
#include "fg_prims.h"
}

extern "C" fg_rtl *fg_rr_rtl_new(const void *params, char *err, size_t errlen) {
    const fg_rr_params *p = static_cast<const fg_rr_params *>(params);
    if (fg_shim_param_check("fg_rr_arb", "N", p->n, FG_P_N, err, errlen)) return nullptr;
    auto *m_ = new FgRtlModel<Vfg_rr>();
#define FG_SHIM_IN_T_ fg_rr_in_t
#define FG_SHIM_OUT_T_ fg_rr_out_t
    FG_RR_INPUTS(FG_SHIM_IN_) FG_RR_OUTPUTS(FG_SHIM_OUT_)
    return m_;
}
