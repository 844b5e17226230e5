// Shim: verilated rtl/edge/edge_preempt.sv.
#include "Vedge_preempt.h"
#include "fg_shim.hpp"
extern "C" {
#include "edge_preempt.h"
}

extern "C" fg_rtl *edge_preempt_rtl_new(const void *params, char *err, size_t errlen) {
    const edge_preempt_params *p = static_cast<const edge_preempt_params *>(params);
    const char *blk = "edge_preempt";
    EDGE_PREEMPT_PARAMS(FG_SHIM_CHECK)
    return FG_SHIM_NEW(Vedge_preempt, EDGE_PREEMPT_INPUTS, EDGE_PREEMPT_OUTPUTS);
}
