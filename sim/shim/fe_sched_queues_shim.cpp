// Shim: verilated rtl/fe/fe_sched_queues.sv, every configuration of rtl/fe/fe_sched_queues.toml
// (the test configuration and the memory system's, fe_sched_queues_sys).
#include "fg_shim.hpp"
#include "fg_shim_configs.hpp"
extern "C" {
#include "fe_sched_queues.h"
}
FG_SHIM_PICK(fe_sched_queues_rtl_new, "fe_sched_queues", fe_sched_queues_params,
             FE_SCHED_QUEUES_PARAMS, FE_SCHED_QUEUES_INPUTS, FE_SCHED_QUEUES_OUTPUTS)
