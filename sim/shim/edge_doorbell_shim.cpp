// Shim: verilated rtl/edge/edge_doorbell.sv, every configuration of rtl/edge/edge_doorbell.toml
// (the default and edge_doorbell_odd).
#include "fg_shim.hpp"
#include "fg_shim_configs.hpp"
extern "C" {
#include "edge_doorbell.h"
}
FG_SHIM_PICK(edge_doorbell_rtl_new, "edge_doorbell", edge_doorbell_params, EDGE_DOORBELL_PARAMS,
             EDGE_DOORBELL_INPUTS, EDGE_DOORBELL_OUTPUTS)
