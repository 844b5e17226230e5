// Shim: verilated rtl/fe/fe_sched_queues.sv (configuration from mk/fe.mk).
#include "Vfe_sched_queues.h"
#include "fg_shim.hpp"
extern "C" {
#include "fe_sched_queues.h"
}

extern "C" fg_rtl *fe_sched_queues_rtl_new(const void *params, char *err, size_t errlen) {
    const fe_sched_queues_params *p = static_cast<const fe_sched_queues_params *>(params);
    const char *blk = "fe_sched_queues";
    FE_SCHED_QUEUES_PARAMS(FG_SHIM_CHECK)
    return FG_SHIM_NEW(Vfe_sched_queues, FE_SCHED_QUEUES_INPUTS, FE_SCHED_QUEUES_OUTPUTS);
}
