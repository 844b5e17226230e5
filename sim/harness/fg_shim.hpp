// Generic C++ core of every verilated-model shim.  A block's shim
// (sim/shim/<block>_shim.cpp) instantiates FgRtlModel<V<block>> and binds its
// ports from the block's X-macro port lists; everything else lives here.
#ifndef FG_SHIM_HPP
#define FG_SHIM_HPP

#include <verilated.h>
#include <verilated_fst_c.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "fg_shim.h"
#include "fg_cov.hpp"

struct FgBind {
    void *member;   // the model's port member (CData/SData/IData/QData)
    unsigned bytes; // sizeof the member
    size_t offset;  // offset of the uint64_t field in the C struct
    uint64_t mask;  // inputs: the port's width in this configuration
    const char *name = nullptr; // the port's name (lockstep traces, docs/TRACES.md)
    unsigned width = 0;         // outputs: its width in this configuration
};

// The ports of verilated model M and their widths, generated per model from
// Verilator's header (Makefile: V<model>_inw.hpp).  The C structs carry
// every port as 64 bits and the port lists give the default widths; a
// configuration with narrower ports must not see the bits above its width
// (Verilator assumes them 0), so the shim masks each input, as the twins do.
// An output's width is this configuration's in a lockstep trace's header
// (docs/TRACES.md), which the FPGA's trace player checks column by column.
struct FgPortWidth {
    const char *name;
    unsigned width;
};
template <class M> struct FgInWidths; // only the generated specialisations exist
template <class M> uint64_t fg_in_mask(const char *port) {
    for (const FgPortWidth *p = FgInWidths<M>::list; p->name; p++)
        if (std::strcmp(p->name, port) == 0) return p->width >= 64 ? ~0ULL : (1ULL << p->width) - 1;
    return ~0ULL; // not reached: every input of the port list is a port of M
}
template <class M> unsigned fg_out_width(const char *port, unsigned dflt) {
    for (const FgPortWidth *p = FgInWidths<M>::list; p->name; p++)
        if (std::strcmp(p->name, port) == 0) return p->width;
    return dflt;
}

struct fg_rtl {
    VerilatedContext ctx;
    std::vector<FgBind> ins, outs;
    VerilatedFstC *tfp = nullptr;
    uint64_t trace_start = 0, trace_end = 0, cycle = 0;
    uint64_t trace_t0 = 0, trace_last = 0; // FST time of cycle 0, last time dumped (fg_shim.cpp)
    uint64_t trace_cycle = 0, trace_base = 0; // a system trace: this edge's system cycle, the block's (fg_wave.c)
    bool trace_sys = false, trace_gate = true;
    bool in_reset = false;
    std::string err;
    std::string model;          // the verilated model's name (V<model>), for traces
    struct FgTraceRec *rec = nullptr; // lockstep trace being recorded ($FG_TRACE_DIR), or none
    // The ports copied in and out as straight-line code of the block's own
    // lists (FG_SHIM_NEW): what the loops over ins / outs do, without a
    // bind's size test per port on every edge (the F/E queues have 40 ports).
    void (*copy_in_fn)(fg_rtl *r, const void *in) = nullptr;
    void (*copy_out_fn)(const fg_rtl *r, void *out) = nullptr;

    virtual ~fg_rtl() {
        if (tfp) {
            tfp->close();
            delete tfp;
        }
    }
    virtual void set_clk(uint8_t v) = 0;
    // Drops clk to 0 without an eval, where the model lets the shim say so
    // (FgRtlModel::fall_quiet); false: it does not, eval instead.
    virtual bool fall_quiet() = 0;
    virtual bool can_fall_quiet() const = 0;
    bool quiet_fall = true; // fg_rtl_set_quiet_fall (the exactness test's reference turns it off)
    virtual void set_rst_n(uint8_t v) = 0;
    virtual int get_rst_n() const = 0; // -1: the block has no reset port
    virtual void eval() = 0;
    virtual void attach_trace(VerilatedFstC *t) = 0;
    // The model's whole state: Verilator flattens every block into its root
    // object (no module classes: build/vl/<model>/ has only the root's), so
    // equal bytes after an edge mean the same state (fg_block's idle skip).
    virtual const void *state() const = 0;
    virtual size_t state_bytes() const = 0;
    // The part of state() two instances can share: the design's variables,
    // without the module's name and the model's pointers (fg_rtl_design_state).
    virtual size_t design_span(size_t *start) const = 0;

    template <typename T>
    static FgBind bind(T *member, size_t offset, uint64_t mask, const char *name, unsigned width) {
        static_assert(sizeof(T) <= 8, "ports wider than 64 bits are not allowed at block boundaries");
        return FgBind{member, static_cast<unsigned>(sizeof(T)), offset, mask, name, width};
    }
};

// Blocks without a reset port (e.g. the SRAM primitive) are allowed.
template <class M, class = void> struct FgHasRst : std::false_type {};
template <class M> struct FgHasRst<M, std::void_t<decltype(std::declval<M>().rst_ni)>> : std::true_type {};

// Verilator 5 (5.006) keeps clk's value at the last eval in the root's
// __Vtrigrprev__TOP__clk_i and fires the posedge logic when clk_i is 1 and
// that is 0. The eval at clk = 0 only settles the inputs' combinational logic
// (the ico region), which the eval at clk = 1 runs again before the edge; so
// setting both to 0 is that eval's whole effect on the next edge. A Verilator
// that names it otherwise gets the eval (FgRtlModel::fall_quiet).
template <class R, class = void> struct FgHasClkPrev : std::false_type {};
template <class R>
struct FgHasClkPrev<R, std::void_t<decltype(std::declval<R>().__Vtrigrprev__TOP__clk_i)>> : std::true_type {};

// Randomized initial state (the models are verilated with
// --x-assign unique --x-initial unique): the Verilator seed for model
// `type` (a typeid name), or 0 for all-zero storage (FG_XINIT=0, or a model
// of a block in the Makefile's XINIT_OFF).  Holds a lock, taken by the
// caller, while the model is constructed: Verilator draws the values from a
// per-thread generator reseeded through a process-wide epoch.
int fg_xinit_seed(const char *type);
std::mutex &fg_xinit_lock();

template <class M> struct FgRtlModel : fg_rtl {
    M *top;
    static constexpr bool kClkPrev = FgHasClkPrev<std::remove_pointer_t<decltype(std::declval<M &>().rootp)>>::value;
    explicit FgRtlModel() {
        ctx.traceEverOn(true);
        ctx.fatalOnError(false); // a failed assertion is reported, not abort()ed
        std::lock_guard<std::mutex> g(fg_xinit_lock());
        int seed = fg_xinit_seed(typeid(M).name());
        ctx.randReset(seed ? 2 : 0); // 2: random values; 0: zeros
        if (seed) ctx.randSeed(seed);
        Verilated::threadContextp(&ctx); // see ~FgRtlModel
        top = new M(&ctx, "top");
    }
    ~FgRtlModel() override {
        if (tfp) {
            tfp->close();
            delete tfp;
            tfp = nullptr;
        }
        // A model's scopes unregister from Verilated::threadContextp(), the
        // context this thread used last, not their own (verilator issue
        // #8265); that may be another, already freed model's context.
        Verilated::threadContextp(&ctx);
        top->final();
#if VM_COVERAGE
        fg_cov_write(ctx, top->modelName());
#endif
        delete top;
    }
    void set_clk(uint8_t v) override { top->clk_i = v; }
    bool fall_quiet() override {
        if constexpr (kClkPrev) {
            top->clk_i = 0;
            top->rootp->__Vtrigrprev__TOP__clk_i = 0;
            return true;
        } else {
            return false;
        }
    }
    bool can_fall_quiet() const override { return kClkPrev; }
    void set_rst_n(uint8_t v) override {
        if constexpr (FgHasRst<M>::value) top->rst_ni = v;
        else (void)v;
    }
    int get_rst_n() const override {
        if constexpr (FgHasRst<M>::value) return top->rst_ni;
        else return -1;
    }
    void eval() override { top->eval(); }
    void attach_trace(VerilatedFstC *t) override { top->trace(t, 99); }
    const void *state() const override { return top->rootp; }
    size_t state_bytes() const override { return sizeof *top->rootp; }
    size_t design_span(size_t *start) const override {
        const char *b = reinterpret_cast<const char *>(top->rootp);
        *start = sizeof(VerilatedModule);
        return static_cast<size_t>(reinterpret_cast<const char *>(&top->rootp->vlSymsp) - b) - *start;
    }
};

// Drives every input port 0 (with a randomized initial state they start
// random; the first reset must not see such inputs, nothing drives them so).
void fg_shim_zero_inputs(fg_rtl *r);
// The model's name from its typeid (the generated class V<model>).
std::string fg_shim_model_name(const char *type);
// Starts recording a new model's lockstep trace when $FG_TRACE_DIR is set
// (fg_shim.cpp, docs/TRACES.md); after the ports are bound.
void fg_trace_attach(fg_rtl *r);

// Creates verilated model V and binds every port of the block's X-macro lists
// in list order (port i is the i-th uint64_t of the C struct), with the
// copies of those lists in and out (fg_rtl copy_in_fn / copy_out_fn).
#define FG_SHIM_IN_(n, w)                                                                          \
    m_->ins.push_back(fg_rtl::bind(&m_->top->n, m_->ins.size() * sizeof(uint64_t), fg_in_mask<M_>(#n), #n, (w)));
#define FG_SHIM_OUT_(n, w)                                                                         \
    m_->outs.push_back(fg_rtl::bind(&m_->top->n, m_->outs.size() * sizeof(uint64_t), ~0ULL, #n, \
                                    fg_out_width<M_>(#n, (w))));
#define FG_SHIM_CIN_(n, w)                                                                         \
    t_->n = static_cast<std::remove_reference_t<decltype(t_->n)>>(src_[i_] & b_[i_].mask);         \
    i_++;
#define FG_SHIM_COUT_(n, w) dst_[i_++] = static_cast<uint64_t>(t_->n);
#define FG_SHIM_NEW(V, INPUTS, OUTPUTS)                                                            \
    ([] {                                                                                          \
        using M_ = V;                                                                              \
        auto *m_ = new FgRtlModel<M_>();                                                           \
        INPUTS(FG_SHIM_IN_) OUTPUTS(FG_SHIM_OUT_)                                                  \
        m_->copy_in_fn = [](fg_rtl *r_, const void *in_) {                                         \
            M_ *t_ = static_cast<FgRtlModel<M_> *>(r_)->top;                                       \
            const uint64_t *src_ = static_cast<const uint64_t *>(in_);                             \
            const FgBind *b_ = r_->ins.data();                                                     \
            unsigned i_ = 0;                                                                       \
            INPUTS(FG_SHIM_CIN_)                                                                   \
        };                                                                                         \
        m_->copy_out_fn = [](const fg_rtl *r_, void *out_) {                                       \
            const M_ *t_ = static_cast<const FgRtlModel<M_> *>(r_)->top;                           \
            uint64_t *dst_ = static_cast<uint64_t *>(out_);                                        \
            unsigned i_ = 0;                                                                       \
            OUTPUTS(FG_SHIM_COUT_)                                                                 \
        };                                                                                         \
        fg_shim_zero_inputs(m_);                                                                   \
        m_->model = fg_shim_model_name(typeid(M_).name());                                         \
        fg_trace_attach(m_);                                                                       \
        return static_cast<fg_rtl *>(m_);                                                          \
    }())

// X-macro entry for a block's parameter list (X(field, NAME)): inside an
// rtl_new(params, err, errlen) with `p` the typed parameters and `blk` the
// block's name, refuses parameters that differ from the verilated -GNAME=.
#define FG_SHIM_CHECK(field, NAME)                                                                 \
    if (fg_shim_param_check(blk, #NAME, p->field, FG_P_##NAME, err, errlen)) return nullptr;

// Copies a parameter-mismatch message into err; used by the shims.
int fg_shim_param_check(const char *block, const char *param, uint64_t want, uint64_t built,
                        char *err, size_t errlen);

// Several verilated configurations of one block (b_CONFIGS in mk/README.md).
// The generated fg_shim_configs.hpp holds one struct per configuration (V =
// its model, name, one constant per parameter) and FG_SHIM_MODELS(X).
// FG_SHIM_PICK defines the block's rtl_new `fn`: it builds the configuration
// whose parameters all equal the requested ones, or refuses, naming every
// configuration there is and the parameters in which each differs.
void fg_shim_diff(std::string &diff, const char *param, uint64_t want, uint64_t built);
void fg_shim_refuse(const char *block, const std::string &why, char *err, size_t errlen);
#define FG_SHIM_DIFF_(field, NAME) fg_shim_diff(diff_, #NAME, p_->field, C_::NAME);
#define FG_SHIM_TRY_(C) if (fg_rtl *r_ = fg_shim_try_<C>(p, why)) return r_;
#define FG_SHIM_PICK(fn, blk, PTYPE, PARAMS, INPUTS, OUTPUTS)                                      \
    template <class C_> static fg_rtl *fg_shim_try_(const PTYPE *p_, std::string &why_) {          \
        std::string diff_;                                                                         \
        PARAMS(FG_SHIM_DIFF_)                                                                      \
        if (diff_.empty()) return FG_SHIM_NEW(typename C_::V, INPUTS, OUTPUTS);                     \
        why_ += std::string("\n  ") + C_::name + " differs in" + diff_;                             \
        return nullptr;                                                                            \
    }                                                                                              \
    extern "C" fg_rtl *fn(const void *params, char *err, size_t errlen) {                          \
        const PTYPE *p = static_cast<const PTYPE *>(params);                                       \
        std::string why;                                                                           \
        FG_SHIM_MODELS(FG_SHIM_TRY_)                                                               \
        fg_shim_refuse(blk, why, err, errlen);                                                     \
        return nullptr;                                                                            \
    }

#endif
