// Shim: verilated rtl/cm/cm_bal_monitor.sv, every configuration of rtl/cm/cm_bal_monitor.toml
// (the test configuration and cm_bal_monitor_odd).  LEVELS is
// the RTL default in every configuration.
#include "fg_shim.hpp"
#include "fg_shim_configs.hpp"
extern "C" {
#include "cm_bal_monitor.h"
}

FG_SHIM_PICK(cm_bal_monitor_rtl_pick, "cm_bal_monitor", cm_bal_monitor_params, CM_BAL_MONITOR_PARAMS,
             CM_BAL_MONITOR_INPUTS, CM_BAL_MONITOR_OUTPUTS)

extern "C" fg_rtl *cm_bal_monitor_rtl_new(const void *params, char *err, size_t errlen) {
    const cm_bal_monitor_params *p = static_cast<const cm_bal_monitor_params *>(params);
    const char *blk = "cm_bal_monitor";
    const cm_bal_monitor_params d = cm_bal_monitor_defaults(p->p, p->c); // LEVELS: RTL default
    if (fg_shim_param_check(blk, "NLVL", p->nlvl, d.nlvl, err, errlen)) return nullptr;
    for (unsigned i = 0; i < d.nlvl; i++)
        if (fg_shim_param_check(blk, "LEVELS[i]", p->levels[i], d.levels[i], err, errlen)) return nullptr;
    return cm_bal_monitor_rtl_pick(params, err, errlen);
}
