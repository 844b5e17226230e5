// Shim: verilated rtl/edge/edge_preempt.sv, every configuration of
// rtl/edge/edge_preempt.toml (the default 64 slots and the second, edge_preempt_w44).
#include "fg_shim.hpp"
#include "fg_shim_configs.hpp"
extern "C" {
#include "edge_preempt.h"
}
FG_SHIM_PICK(edge_preempt_rtl_new, "edge_preempt", edge_preempt_params, EDGE_PREEMPT_PARAMS,
             EDGE_PREEMPT_INPUTS, EDGE_PREEMPT_OUTPUTS)
