// Shim: verilated rtl/prim/fg_sram_sp.sv (unit-test configuration).
#include "fg_shim.hpp"
#include "Vfg_sram_inw.hpp" // Vfg_sram.h and its input widths
extern "C" {
#include "fg_prims.h"
}

extern "C" fg_rtl *fg_sram_rtl_new(const void *params, char *err, size_t errlen) {
    const fg_sram_params *p = static_cast<const fg_sram_params *>(params);
    const char *blk = "fg_sram_sp";
    FG_SRAM_PARAMS(FG_SHIM_CHECK)
    return FG_SHIM_NEW(Vfg_sram, FG_SRAM_INPUTS, FG_SRAM_OUTPUTS);
}
