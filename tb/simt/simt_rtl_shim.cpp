// The C view of the verilated RTL SIMT core (tb/simt/simt_rtl.h), over
// sim/harness/fg_shim.cpp's model wrapper: its VerilatedContext per model,
// randomized initial state (FG_XSEED), FST traces and assertion reporting.
// The core's ports include packed arrays wider than 64 bits (launch ids,
// rvfi_data_o), which fg_shim's 64-bit port lists cannot bind, so the ports
// are copied here with the model's own types.
#include "fg_shim.hpp"

#include "Vsimt_core.h"
#include "Vsimt_core___024root.h"
#include "Vsimt_core_odd.h"
#include "Vsimt_core_odd___024root.h"
#include "Vsimt_edge_core.h"
#include "Vsimt_edge_core___024root.h"
#include "Vsimt_edge_core_odd.h"
#include "Vsimt_edge_core_odd___024root.h"

extern "C" {
#include "simt_rtl.h"
}

#include <cstdio>
#include <cstdlib>
#include <string>

// -DSIMT_P_<config>_<NAME>=<value> from mk/simt_rtl.mk
#define SIMT_PARAMS(c, edge) \
    {SIMT_P_##c##_NW, SIMT_P_##c##_NL, SIMT_P_##c##_GTO, SIMT_P_##c##_STACK_BYTES, SIMT_P_##c##_CORE_ID, edge}

struct simt_rtl {
    fg_rtl *m = nullptr;
    simt_rtl_params p{};
    simt_rtl_in in{};
    void (*out)(const fg_rtl *, const simt_rtl_params &, simt_rtl_out *) = nullptr;
    std::string err;
    std::string config;
    uint64_t hash = 0xcbf29ce484222325ull, evals = 0;
};

// FG_SIMT_OUT_HASH=file: every output of every evaluation, with its cycle,
// folded into one hash per model, appended to the file as a line when the
// model is freed.  Two versions of the RTL that print the same lines for
// the same runs behaved the same on every output port, cycle for cycle (a
// timing-only rewrite is checked so).
static const char *out_hash_path() {
    static const char *p = std::getenv("FG_SIMT_OUT_HASH");
    return p && *p ? p : nullptr;
}
static void fold(uint64_t &h, uint64_t v) {
    for (int i = 0; i < 8; i++, v >>= 8) h = (h ^ (v & 0xFF)) * 0x100000001b3ull;
}
static void fold_out(simt_rtl *r, const simt_rtl_out *o) {
    uint64_t &h = r->hash;
    // each payload only with its valid (the rest is don't-care: registers
    // without reset, which a rewrite may leave elsewhere)
    const uint32_t w[] = {o->launch_ready, o->launch_ready ? o->launch_slot : 0u, o->done_valid,
                          o->done_valid ? o->done_slot : 0u, o->fault_valid, o->fault_valid ? o->fault_slot : 0u,
                          o->fault_valid ? o->fault_code : 0u, o->fault_valid ? o->fault_pc : 0u, o->mem_req_valid,
                          o->mem_req_valid ? o->mem_req_we : 0u, o->mem_req_valid ? o->mem_req_addr : 0u,
                          o->mem_req_valid ? o->mem_req_be : 0u, o->mem_req_valid && o->mem_req_we ? o->mem_req_wdata : 0u,
                          o->rvfi_valid, o->busy, o->end_event, o->ev_ready, o->cpl_valid,
                          o->cpl_valid ? o->cpl_tag : 0u, o->ev_bad, o->err_valid, o->err_valid ? o->err_code : 0u,
                          o->cmd, o->cmd ? o->cmd_slot : 0u, o->cmd ? o->cmd_arg : 0u, o->event_mask, o->victim_mask,
                          o->cnt_start_free, o->cnt_start_pre, o->cnt_resume, o->cnt_abort};
    fold(h, r->m->cycle);
    for (uint32_t v : w) fold(h, v);
    if (o->rvfi_valid) {
        const uint32_t rv[] = {o->rvfi_slot, o->rvfi_pc, o->rvfi_mask, o->rvfi_rd, o->rvfi_pass};
        for (uint32_t v : rv) fold(h, v);
        fold(h, o->rvfi_order);
        for (unsigned i = 0; i < r->p.nl; i++)
            if (o->rvfi_rd && ((o->rvfi_mask >> (o->rvfi_pass * r->p.nl + i)) & 1)) fold(h, o->rvfi_data[i]);
    }
    r->evals++;
}

template <class M> static M *top_of(const fg_rtl *r) { return static_cast<const FgRtlModel<M> *>(r)->top; }

template <class M> static void copy_in(fg_rtl *r, const void *p) {
    M *t = top_of<M>(r);
    const simt_rtl_in *in = static_cast<const simt_rtl_in *>(p);
    t->local_base_i = in->local_base;
    t->launch_valid_i = in->launch_valid & 1;
    t->launch_pc_i = in->launch_pc;
    t->launch_param_i = in->launch_param;
    t->launch_live_i = in->launch_live;
    t->launch_wib_i = in->launch_wib;
    for (int i = 0; i < 3; i++) {
        t->launch_ctaid_i[i] = in->launch_ctaid[i];
        t->launch_ntid_i[i] = in->launch_ntid[i];
        t->launch_nctaid_i[i] = in->launch_nctaid[i];
    }
    t->launch_shmem_i = in->launch_shmem;
    t->mem_req_ready_i = in->mem_req_ready & 1;
    t->mem_rsp_valid_i = in->mem_rsp_valid & 1;
    t->mem_rsp_rdata_i = in->mem_rsp_rdata;
}

// the core alone: no EDGE controller (its inputs would keep their random
// initial values otherwise)
template <class M> static void copy_in_core(fg_rtl *r, const void *p) {
    copy_in<M>(r, p);
    M *t = top_of<M>(r);
    t->cmd_i = 0;
    t->cmd_slot_i = 0;
    t->cmd_arg_i = 0;
    t->ev_pc_i = 0;
    t->ev_param_i = 0;
    t->ev_threads_i = 0;
    t->save_base_i = 0;
    t->save_mask_i = 0;
    t->v_slot_i = 0;
}

// simt_edge_core's own ports beside the core's
template <class M> static void copy_in_edge(fg_rtl *r, const void *p) {
    copy_in<M>(r, p);
    M *t = top_of<M>(r);
    const simt_rtl_in *in = static_cast<const simt_rtl_in *>(p);
    t->save_base_i = in->save_base;
    t->save_mask_i = in->save_mask;
    t->cfg_en_i = in->cfg_en & 1;
    t->cfg_policy_i = in->cfg_policy & 3;
    t->cfg_opt_i = in->cfg_opt & 15;
    t->cfg_save_base_i = in->cfg_save_base;
    t->cfg_save_per_reg_i = in->cfg_save_per_reg;
    t->ev_valid_i = in->ev_valid & 1;
    t->ev_kernel_i = in->ev_kernel;
    t->ev_param_i = in->ev_param;
    t->ev_tag_i = in->ev_tag & 0xffff;
    t->ev_threads_i = in->ev_threads & 63;
    t->ev_regs_i = in->ev_regs & 127;
}

template <class M> static void copy_out(const fg_rtl *r, const simt_rtl_params &p, simt_rtl_out *o) {
    const M *t = top_of<M>(r);
    o->launch_ready = t->launch_ready_o;
    o->launch_slot = t->launch_slot_o;
    o->done_valid = t->done_valid_o;
    o->done_slot = t->done_slot_o;
    o->fault_valid = t->fault_valid_o;
    o->fault_slot = t->fault_slot_o;
    o->fault_code = t->fault_code_o;
    o->fault_pc = t->fault_pc_o;
    o->mem_req_valid = t->mem_req_valid_o;
    o->mem_req_we = t->mem_req_we_o;
    o->mem_req_addr = t->mem_req_addr_o;
    o->mem_req_be = t->mem_req_be_o;
    o->mem_req_wdata = t->mem_req_wdata_o;
    o->rvfi_valid = t->rvfi_valid_o;
    o->rvfi_slot = t->rvfi_slot_o;
    o->rvfi_order = t->rvfi_order_o;
    o->rvfi_pc = t->rvfi_pc_o;
    o->rvfi_mask = t->rvfi_mask_o;
    o->rvfi_rd = t->rvfi_rd_o;
    o->rvfi_pass = t->rvfi_pass_o;
    for (unsigned i = 0; i < p.nl; i++) o->rvfi_data[i] = t->rvfi_data_o[i];
    o->busy = t->busy_o;
}

template <class M> static void copy_out_edge(const fg_rtl *r, const simt_rtl_params &p, simt_rtl_out *o) {
    copy_out<M>(r, p, o);
    const M *t = top_of<M>(r);
    o->end_event = t->end_event_o;
    o->ev_ready = t->ev_ready_o;
    o->cpl_valid = t->cpl_valid_o;
    o->cpl_tag = t->cpl_tag_o;
    o->ev_bad = t->ev_bad_o;
    o->err_valid = t->err_valid_o;
    o->err_code = t->err_code_o;
    o->cmd = t->cmd_o;
    o->cmd_slot = t->cmd_slot_o;
    o->cmd_arg = t->cmd_arg_o;
    o->event_mask = t->event_mask_o;
    o->victim_mask = t->victim_mask_o;
    o->cnt_start_free = t->cnt_start_free_o;
    o->cnt_start_pre = t->cnt_start_pre_o;
    o->cnt_resume = t->cnt_resume_o;
    o->cnt_abort = t->cnt_abort_o;
}

template <class M, bool EDGE> static simt_rtl *make(const simt_rtl_params &p) {
    auto *r = new simt_rtl;
    auto *m = new FgRtlModel<M>();
    if constexpr (EDGE) {
        m->copy_in_fn = copy_in_edge<M>;
        r->out = copy_out_edge<M>;
    } else {
        m->copy_in_fn = copy_in_core<M>;
        r->out = copy_out<M>;
    }
    m->model = fg_shim_model_name(typeid(M).name());
    r->m = m;
    r->p = p;
    return r;
}

static const char *const config_names[] = {"default", "odd", "edge", "edge_odd"};

extern "C" unsigned simt_rtl_configs(const char *const **names) {
    *names = config_names;
    return 4;
}

static const simt_rtl_params params_default = SIMT_PARAMS(default, false), params_odd = SIMT_PARAMS(odd, false),
                             params_edge = SIMT_PARAMS(edge, true), params_edge_odd = SIMT_PARAMS(edge_odd, true);

extern "C" int simt_rtl_config_params(const char *config, simt_rtl_params *p) {
    if (!std::strcmp(config, "default")) *p = params_default;
    else if (!std::strcmp(config, "odd")) *p = params_odd;
    else if (!std::strcmp(config, "edge")) *p = params_edge;
    else if (!std::strcmp(config, "edge_odd")) *p = params_edge_odd;
    else return -1;
    return 0;
}

extern "C" simt_rtl *simt_rtl_new(const char *config, simt_rtl_params *p, char *err, size_t errlen) {
    simt_rtl *r = nullptr;
    if (!std::strcmp(config, "default")) r = make<Vsimt_core, false>(params_default);
    else if (!std::strcmp(config, "odd")) r = make<Vsimt_core_odd, false>(params_odd);
    else if (!std::strcmp(config, "edge")) r = make<Vsimt_edge_core, true>(params_edge);
    else if (!std::strcmp(config, "edge_odd")) r = make<Vsimt_edge_core_odd, true>(params_edge_odd);
    if (!r) {
        std::snprintf(err, errlen, "simt_rtl: no configuration '%s' (built: default, odd, edge, edge_odd; mk/simt_rtl.mk)",
                      config);
        return nullptr;
    }
    if (p) *p = r->p;
    r->config = config;
    return r;
}

extern "C" void simt_rtl_free(simt_rtl *r) {
    if (!r) return;
    if (out_hash_path() && r->evals) {
        if (FILE *f = std::fopen(out_hash_path(), "a")) {
            std::fprintf(f, "%s %llu cycles %llu evaluations %016llx\n", r->config.c_str(),
                         (unsigned long long)r->m->cycle, (unsigned long long)r->evals, (unsigned long long)r->hash);
            std::fclose(f);
        }
    }
    fg_rtl_free(r->m);
    delete r;
}

extern "C" int simt_rtl_trace(simt_rtl *r, const char *path) { return fg_rtl_trace(r->m, path, 0, 0); }

extern "C" void simt_rtl_reset(simt_rtl *r) {
    r->in = simt_rtl_in{};
    r->m->copy_in_fn(r->m, &r->in);
    fg_rtl_reset(r->m);
}

extern "C" void simt_rtl_eval(simt_rtl *r, const simt_rtl_in *in, simt_rtl_out *out) {
    r->in = *in;
    r->m->copy_in_fn(r->m, &r->in);
    r->m->set_clk(0);
    r->m->eval();
    r->out(r->m, r->p, out);
    if (out_hash_path()) fold_out(r, out);
}

extern "C" void simt_rtl_tick(simt_rtl *r) { fg_rtl_step(r->m, &r->in); }

extern "C" uint64_t simt_rtl_cycle(const simt_rtl *r) { return r->m->cycle; }

extern "C" const char *simt_rtl_error(const simt_rtl *r) { return fg_rtl_error(r->m); }

extern "C" uint64_t simt_rtl_xseed(void) { return fg_rtl_xseed(); }
