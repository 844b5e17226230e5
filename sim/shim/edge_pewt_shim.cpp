// Shim: verilated rtl/edge/edge_pewt.sv, every configuration of rtl/edge/edge_pewt.toml
// (the default and edge_pewt_odd).
#include "fg_shim.hpp"
#include "fg_shim_configs.hpp"
extern "C" {
#include "edge_pewt.h"
}
FG_SHIM_PICK(edge_pewt_rtl_new, "edge_pewt", edge_pewt_params, EDGE_PEWT_PARAMS, EDGE_PEWT_INPUTS,
             EDGE_PEWT_OUTPUTS)
