// Shim: verilated rtl/edge/edge_pewt.sv.
#include "Vedge_pewt.h"
#include "fg_shim.hpp"
extern "C" {
#include "edge_pewt.h"
}

extern "C" fg_rtl *edge_pewt_rtl_new(const void *params, char *err, size_t errlen) {
    const edge_pewt_params *p = static_cast<const edge_pewt_params *>(params);
    const char *blk = "edge_pewt";
    EDGE_PEWT_PARAMS(FG_SHIM_CHECK)
    return FG_SHIM_NEW(Vedge_pewt, EDGE_PEWT_INPUTS, EDGE_PEWT_OUTPUTS);
}
