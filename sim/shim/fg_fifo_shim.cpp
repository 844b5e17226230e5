// Shim: verilated rtl/prim/fg_fifo.sv (unit-test configuration).
#include "fg_shim.hpp"
#include "Vfg_fifo_inw.hpp" // Vfg_fifo.h and its input widths
extern "C" {
#include "fg_prims.h"
}

extern "C" fg_rtl *fg_fifo_rtl_new(const void *params, char *err, size_t errlen) {
    const fg_fifo_params *p = static_cast<const fg_fifo_params *>(params);
    const char *blk = "fg_fifo";
    FG_FIFO_PARAMS(FG_SHIM_CHECK)
    return FG_SHIM_NEW(Vfg_fifo, FG_FIFO_INPUTS, FG_FIFO_OUTPUTS);
}
