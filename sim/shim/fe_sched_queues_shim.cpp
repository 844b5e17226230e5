// Shim: verilated rtl/fe/fe_sched_queues.sv (configuration from mk/fe.mk).
#include "Vfe_sched_queues.h"
#include "fg_shim.hpp"
extern "C" {
#include "fe_sched_queues.h"
}

extern "C" fg_rtl *fe_sched_queues_rtl_new(const void *params, char *err, size_t errlen) {
    const fe_sched_queues_params *p = static_cast<const fe_sched_queues_params *>(params);
    const char *b = "fe_sched_queues";
    if (fg_shim_param_check(b, "ADDR_W", p->addr_w, FG_P_ADDR_W, err, errlen) ||
        fg_shim_param_check(b, "WORDS", p->words, FG_P_WORDS, err, errlen) ||
        fg_shim_param_check(b, "GRAN", p->gran, FG_P_GRAN, err, errlen) ||
        fg_shim_param_check(b, "REGION_BASE", p->region_base, FG_P_REGION_BASE, err, errlen) ||
        fg_shim_param_check(b, "REGION_LINES", p->region_lines, FG_P_REGION_LINES, err, errlen) ||
        fg_shim_param_check(b, "QD_NT", p->qd_nt, FG_P_QD_NT, err, errlen) ||
        fg_shim_param_check(b, "QD_CPU", p->qd_cpu, FG_P_QD_CPU, err, errlen) ||
        fg_shim_param_check(b, "QD_GPU", p->qd_gpu, FG_P_QD_GPU, err, errlen) ||
        fg_shim_param_check(b, "TAG_W", p->tag_w, FG_P_TAG_W, err, errlen) ||
        fg_shim_param_check(b, "WD_W", p->wd_w, FG_P_WD_W, err, errlen) ||
        fg_shim_param_check(b, "CNT_W", p->cnt_w, FG_P_CNT_W, err, errlen) ||
        fg_shim_param_check(b, "INIT_W", p->init_w, FG_P_INIT_W, err, errlen))
        return nullptr;
    auto *m_ = new FgRtlModel<Vfe_sched_queues>();
#define FG_SHIM_IN_T_ fe_sched_queues_in_t
#define FG_SHIM_OUT_T_ fe_sched_queues_out_t
    FE_SCHED_QUEUES_INPUTS(FG_SHIM_IN_) FE_SCHED_QUEUES_OUTPUTS(FG_SHIM_OUT_)
    return m_;
}
