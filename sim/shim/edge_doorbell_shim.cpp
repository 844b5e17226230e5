// Shim: verilated rtl/edge/edge_doorbell.sv.
#include "Vedge_doorbell.h"
#include "fg_shim.hpp"
extern "C" {
#include "edge_doorbell.h"
}

extern "C" fg_rtl *edge_doorbell_rtl_new(const void *params, char *err, size_t errlen) {
    const edge_doorbell_params *p = static_cast<const edge_doorbell_params *>(params);
    const char *blk = "edge_doorbell";
    EDGE_DOORBELL_PARAMS(FG_SHIM_CHECK)
    return FG_SHIM_NEW(Vedge_doorbell, EDGE_DOORBELL_INPUTS, EDGE_DOORBELL_OUTPUTS);
}
