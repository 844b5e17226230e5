// Shim: verilated rtl/edge/edge_ekt.sv, every configuration of rtl/edge/edge_ekt.toml
// (the default one and edge_ekt_e24, 24 entries).
#include "fg_shim.hpp"
#include "fg_shim_configs.hpp"
extern "C" {
#include "edge_ekt.h"
}
FG_SHIM_PICK(edge_ekt_rtl_new, "edge_ekt", edge_ekt_params, EDGE_EKT_PARAMS, EDGE_EKT_INPUTS,
             EDGE_EKT_OUTPUTS)
