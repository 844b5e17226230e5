// Shim: verilated rtl/edge/edge_ekt.sv.
#include "Vedge_ekt.h"
#include "fg_shim.hpp"
extern "C" {
#include "edge_ekt.h"
}

extern "C" fg_rtl *edge_ekt_rtl_new(const void *params, char *err, size_t errlen) {
    const edge_ekt_params *p = static_cast<const edge_ekt_params *>(params);
    const char *blk = "edge_ekt";
    EDGE_EKT_PARAMS(FG_SHIM_CHECK)
    return FG_SHIM_NEW(Vedge_ekt, EDGE_EKT_INPUTS, EDGE_EKT_OUTPUTS);
}
