// Shim: verilated rtl/cm/cm_bal_monitor.sv (test configuration of mk/cm.mk).
#include "Vcm_bal_monitor.h"
#include "fg_shim.hpp"
extern "C" {
#include "cm_bal_monitor.h"
}

extern "C" fg_rtl *cm_bal_monitor_rtl_new(const void *params, char *err, size_t errlen) {
    const cm_bal_monitor_params *p = static_cast<const cm_bal_monitor_params *>(params);
    const char *blk = "cm_bal_monitor";
    CM_BAL_MONITOR_PARAMS(FG_SHIM_CHECK)
    const cm_bal_monitor_params d = cm_bal_monitor_defaults(p->p, p->c); // LEVELS: RTL default
    if (fg_shim_param_check(blk, "NLVL", p->nlvl, d.nlvl, err, errlen)) return nullptr;
    for (unsigned i = 0; i < d.nlvl; i++)
        if (fg_shim_param_check(blk, "LEVELS[i]", p->levels[i], d.levels[i], err, errlen)) return nullptr;
    return FG_SHIM_NEW(Vcm_bal_monitor, CM_BAL_MONITOR_INPUTS, CM_BAL_MONITOR_OUTPUTS);
}
