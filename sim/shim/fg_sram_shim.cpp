// Shim: verilated rtl/prim/fg_sram_sp.sv (unit-test configuration).
#include "Vfg_sram.h"
#include "fg_shim.hpp"
extern "C" {
#include "fg_prims.h"
}

extern "C" fg_rtl *fg_sram_rtl_new(const void *params, char *err, size_t errlen) {
    const fg_sram_params *p = static_cast<const fg_sram_params *>(params);
    if (fg_shim_param_check("fg_sram_sp", "WIDTH", p->width, FG_P_WIDTH, err, errlen) ||
        fg_shim_param_check("fg_sram_sp", "DEPTH", p->depth, FG_P_DEPTH, err, errlen))
        return nullptr;
    auto *m_ = new FgRtlModel<Vfg_sram>();
#define FG_SHIM_IN_T_ fg_sram_in_t
#define FG_SHIM_OUT_T_ fg_sram_out_t
    FG_SRAM_INPUTS(FG_SHIM_IN_) FG_SRAM_OUTPUTS(FG_SHIM_OUT_)
    return m_;
}
