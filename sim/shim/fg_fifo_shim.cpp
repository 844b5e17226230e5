// Shim: verilated rtl/prim/fg_fifo.sv (unit-test configuration).
#include "Vfg_fifo.h"
#include "fg_shim.hpp"
extern "C" {
#include "fg_prims.h"
}

extern "C" fg_rtl *fg_fifo_rtl_new(const void *params, char *err, size_t errlen) {
    const fg_fifo_params *p = static_cast<const fg_fifo_params *>(params);
    if (fg_shim_param_check("fg_fifo", "WIDTH", p->width, FG_P_WIDTH, err, errlen) ||
        fg_shim_param_check("fg_fifo", "DEPTH", p->depth, FG_P_DEPTH, err, errlen))
        return nullptr;
    auto *m_ = new FgRtlModel<Vfg_fifo>();
#define FG_SHIM_IN_T_ fg_fifo_in_t
#define FG_SHIM_OUT_T_ fg_fifo_out_t
    FG_FIFO_INPUTS(FG_SHIM_IN_) FG_FIFO_OUTPUTS(FG_SHIM_OUT_)
    return m_;
}
