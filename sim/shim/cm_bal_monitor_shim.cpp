// Shim: verilated rtl/cm/cm_bal_monitor.sv (test configuration of mk/cm.mk).
#include "Vcm_bal_monitor.h"
#include "fg_shim.hpp"
extern "C" {
#include "cm_bal_monitor.h"
}

extern "C" fg_rtl *cm_bal_monitor_rtl_new(const void *params, char *err, size_t errlen) {
    const cm_bal_monitor_params *p = static_cast<const cm_bal_monitor_params *>(params);
    const cm_bal_monitor_params d = cm_bal_monitor_defaults(p->p, p->c); // LEVELS: RTL default
    if (fg_shim_param_check("cm_bal_monitor", "P", p->p, FG_P_P, err, errlen) ||
        fg_shim_param_check("cm_bal_monitor", "C", p->c, FG_P_C, err, errlen) ||
        fg_shim_param_check("cm_bal_monitor", "NSCHED", p->nsched, FG_P_NSCHED, err, errlen) ||
        fg_shim_param_check("cm_bal_monitor", "MAXW", p->maxw, FG_P_MAXW, err, errlen) ||
        fg_shim_param_check("cm_bal_monitor", "INTERVAL", p->interval, FG_P_INTERVAL, err, errlen) ||
        fg_shim_param_check("cm_bal_monitor", "TH_Q4", p->th_q4, FG_P_TH_Q4, err, errlen) ||
        fg_shim_param_check("cm_bal_monitor", "TL_Q4", p->tl_q4, FG_P_TL_Q4, err, errlen) ||
        fg_shim_param_check("cm_bal_monitor", "FINE", p->fine, FG_P_FINE, err, errlen) ||
        fg_shim_param_check("cm_bal_monitor", "EXPLORE_WARPS", p->explore_warps, FG_P_EXPLORE_WARPS, err, errlen) ||
        fg_shim_param_check("cm_bal_monitor", "EXPLORE_N", p->explore_n, FG_P_EXPLORE_N, err, errlen) ||
        fg_shim_param_check("cm_bal_monitor", "NLVL", p->nlvl, d.nlvl, err, errlen))
        return nullptr;
    for (unsigned i = 0; i < d.nlvl; i++)
        if (fg_shim_param_check("cm_bal_monitor", "LEVELS[i]", p->levels[i], d.levels[i], err, errlen))
            return nullptr;
    auto *m_ = new FgRtlModel<Vcm_bal_monitor>();
#define FG_SHIM_IN_T_ cm_bal_monitor_in_t
#define FG_SHIM_OUT_T_ cm_bal_monitor_out_t
    CM_BAL_MONITOR_INPUTS(FG_SHIM_IN_) CM_BAL_MONITOR_OUTPUTS(FG_SHIM_OUT_)
    return m_;
}
