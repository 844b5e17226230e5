// Shim: verilated rtl/prim/fg_rr_arb.sv (unit-test configuration).
#include "fg_shim.hpp"
#include "Vfg_rr_inw.hpp" // Vfg_rr.h and its input widths
extern "C" {
#include "fg_prims.h"
}

extern "C" fg_rtl *fg_rr_rtl_new(const void *params, char *err, size_t errlen) {
    const fg_rr_params *p = static_cast<const fg_rr_params *>(params);
    const char *blk = "fg_rr_arb";
    FG_RR_PARAMS(FG_SHIM_CHECK)
    return FG_SHIM_NEW(Vfg_rr, FG_RR_INPUTS, FG_RR_OUTPUTS);
}
