// The one shared C++ file: drives any verilated model through fg_rtl.
#include "fg_shim.hpp"

#include <cxxabi.h>

extern "C" {
#include "fg_util.h"
}

#include <chrono>
#include <cstdlib>
#include <map>

#ifndef FG_XINIT_OFF
#define FG_XINIT_OFF ""
#endif

static void copy_in(fg_rtl *r, const void *in) {
    if (r->copy_in_fn) {
        r->copy_in_fn(r, in);
        return;
    }
    const unsigned char *base = static_cast<const unsigned char *>(in);
    for (const FgBind &b : r->ins) {
        uint64_t v;
        std::memcpy(&v, base + b.offset, sizeof v);
        v &= b.mask;
        switch (b.bytes) {
        case 1: *static_cast<uint8_t *>(b.member) = static_cast<uint8_t>(v); break;
        case 2: *static_cast<uint16_t *>(b.member) = static_cast<uint16_t>(v); break;
        case 4: *static_cast<uint32_t *>(b.member) = static_cast<uint32_t>(v); break;
        default: *static_cast<uint64_t *>(b.member) = v; break;
        }
    }
}

static bool in_window(const fg_rtl *r) {
    return r->tfp && r->trace_gate && !r->in_reset && r->cycle >= r->trace_start &&
           (r->trace_end == 0 || r->cycle <= r->trace_end);
}

static void check_error(fg_rtl *r) {
    if (r->err.empty() && r->ctx.gotError()) {
        r->err = "RTL assertion failed at cycle " + std::to_string(r->cycle) +
                 " (the assertion's file and line are printed above; RTL initial state: FG_XSEED=" +
                 std::to_string(fg_rtl_xseed()) + ")";
    }
}

static void trace_line(fg_rtl *r);

// Trace time: one cycle is 1 ns (the FST's unit is 1 ps), so GTKWave's time
// axis reads in cycles ("From: 100 ns" = cycle 100) whatever the clock.
static const uint64_t TRACE_PS_PER_CYCLE = 1000;

static void dump(fg_rtl *r, uint64_t t) {
    // a system trace counts the system's cycles (a block may not be clocked in every one)
    if (r->trace_sys) t += (r->trace_cycle - r->trace_base) * TRACE_PS_PER_CYCLE; // mod 2^64: t stays >= 0
    r->trace_last = r->trace_t0 + t;
    r->tfp->dump(r->trace_last);
}

// One rising edge: inputs change while clk is low, then clk rises. The low
// phase is evaluated only when someone looks at it (a trace, a recording, the
// reset) or the model cannot skip it (fall_quiet): the eval at clk = 1 settles
// the new inputs before its edge either way.
static void edge(fg_rtl *r) {
    bool look = r->rec || in_window(r) || r->in_reset;
    if (look || !r->quiet_fall || !r->fall_quiet()) {
        r->set_clk(0);
        r->eval();
    }
    if (r->rec) trace_line(r);
    if (in_window(r)) dump(r, r->cycle * TRACE_PS_PER_CYCLE + TRACE_PS_PER_CYCLE / 2);
    r->set_clk(1);
    r->eval();
    r->cycle++;
    if (in_window(r)) dump(r, r->cycle * TRACE_PS_PER_CYCLE);
    check_error(r);
}

void fg_shim_zero_inputs(fg_rtl *r) {
    std::vector<uint64_t> zero(r->ins.size(), 0);
    copy_in(r, zero.data());
}

extern "C" void fg_rtl_skip(fg_rtl *r) { r->cycle++; }

extern "C" int fg_rtl_set_quiet_fall(fg_rtl *r, int on) {
    r->quiet_fall = on != 0;
    return r->quiet_fall && r->can_fall_quiet();
}

// The reset's own edges are not traced, and a reset after cycles were traced
// continues the trace's time (cycle 0 again, a cycle after the last dump):
// FST time only grows, so GTKWave keeps every cycle of a run that resets a
// block after tracing began (edge_demo, tb_block: trace, then reset).
extern "C" void fg_rtl_reset(fg_rtl *r) {
    r->in_reset = true;
    r->set_rst_n(0);
    r->set_clk(0);
    r->eval();
    for (int i = 0; i < 2; i++) edge(r);
    r->set_rst_n(1);
    r->eval();
    r->cycle = 0;
    r->in_reset = false;
    if (r->trace_last) r->trace_t0 = (r->trace_last / TRACE_PS_PER_CYCLE + 1) * TRACE_PS_PER_CYCLE;
}

extern "C" void fg_rtl_step(fg_rtl *r, const void *in) {
    copy_in(r, in);
    edge(r);
}

extern "C" void fg_rtl_outputs(fg_rtl *r, void *out) {
    if (r->copy_out_fn) {
        r->copy_out_fn(r, out);
        return;
    }
    unsigned char *base = static_cast<unsigned char *>(out);
    for (const FgBind &b : r->outs) {
        uint64_t v;
        switch (b.bytes) {
        case 1: v = *static_cast<uint8_t *>(b.member); break;
        case 2: v = *static_cast<uint16_t *>(b.member); break;
        case 4: v = *static_cast<uint32_t *>(b.member); break;
        default: v = *static_cast<uint64_t *>(b.member); break;
        }
        std::memcpy(base + b.offset, &v, sizeof v);
    }
}

extern "C" int fg_rtl_trace(fg_rtl *r, const char *path, uint64_t start, uint64_t end) {
    if (r->tfp) return -1;
    r->tfp = new VerilatedFstC;
    r->attach_trace(r->tfp);
    r->tfp->open(path);
    if (!r->tfp->isOpen()) {
        delete r->tfp;
        r->tfp = nullptr;
        return -1;
    }
    r->trace_start = start;
    r->trace_end = end;
    return 0;
}

extern "C" void fg_rtl_trace_sync(fg_rtl *r, uint64_t cycle, int on) {
    r->trace_sys = true;
    r->trace_cycle = cycle;
    r->trace_base = r->cycle;
    r->trace_gate = on;
}

extern "C" void fg_rtl_trace_sample(fg_rtl *r) {
    if (r->tfp && !r->in_reset) dump(r, r->cycle * TRACE_PS_PER_CYCLE);
}

extern "C" size_t fg_rtl_state(const fg_rtl *r, const void **bytes) {
    if (r->tfp || r->rec || r->in_reset) return 0;
    *bytes = r->state();
    return r->state_bytes();
}

extern "C" size_t fg_rtl_design_state(const fg_rtl *r, const void **bytes) {
    size_t start, n = r->design_span(&start);
    *bytes = static_cast<const unsigned char *>(r->state()) + start;
    return n;
}

extern "C" void fg_rtl_trace_close(fg_rtl *r) {
    if (!r->tfp) return;
    r->tfp->close();
    delete r->tfp;
    r->tfp = nullptr;
}

extern "C" const char *fg_rtl_error(const fg_rtl *r) { return r->err.empty() ? nullptr : r->err.c_str(); }

static void trace_detach(fg_rtl *r);
extern "C" void fg_rtl_free(fg_rtl *r) {
    trace_detach(r);
    delete r;
}

int fg_shim_param_check(const char *block, const char *param, uint64_t want, uint64_t built,
                        char *err, size_t errlen) {
    if (want == built) return 0;
    std::snprintf(err, errlen,
                  "%s: parameter %s=%llu but the RTL was verilated with %s=%llu; "
                  "rebuild it with that value or use --impl c",
                  block, param, static_cast<unsigned long long>(want), param,
                  static_cast<unsigned long long>(built));
    return -1;
}

void fg_shim_diff(std::string &diff, const char *param, uint64_t want, uint64_t built) {
    if (want == built) return;
    diff += std::string(" ") + param + " (asked " + std::to_string(want) + ", built " +
            std::to_string(built) + ")";
}

void fg_shim_refuse(const char *block, const std::string &why, char *err, size_t errlen) {
    std::snprintf(err, errlen,
                  "%s: no verilated configuration has these parameters; use --impl c, or add a "
                  "configuration (mk/README.md). Verilated:%s",
                  block, why.c_str());
}

// ------------------------------------------- randomized initial state
// FG_XINIT: unset or 1 = random initial state except the XINIT_OFF models
// (-DFG_XINIT_OFF, the Makefile's list); all = those too; 0 = all-zero.
static int xinit_mode() {
    const char *v = std::getenv("FG_XINIT");
    if (!v || !*v || !std::strcmp(v, "1")) return 1;
    if (!std::strcmp(v, "0")) return 0;
    if (!std::strcmp(v, "all")) return 2;
    std::fprintf(stderr, "FG_XINIT=%s: expected 0, 1 or all\n", v);
    std::exit(2);
}

static uint64_t mix64(uint64_t x) { // splitmix64 finalizer
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static uint64_t env_seed(const char *name, bool *set) {
    const char *v = std::getenv(name);
    *set = v && *v;
    if (!*set) return 0;
    return fg_env_u64(name, 0); // strict (fg_num_u64); a malformed value exits 2 naming it
}

extern "C" uint64_t fg_rtl_xseed(void) {
    static const uint64_t seed = [] {
        // both read whatever the mode: a malformed value is refused, not ignored under FG_XINIT=0
        bool xset, sset;
        uint64_t xs = env_seed("FG_XSEED", &xset);
        uint64_t ss = env_seed("FG_SEED", &sset);
        if (xinit_mode() == 0) return uint64_t{0};
        uint64_t s = xs;
        if (!xset) {
            if (sset) s = mix64(ss ^ 0x78696e6974ULL); // "xinit": not the stimulus seed itself
            else s = mix64(static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()));
        }
        return s ? s : 1; // 0 means off
    }();
    return seed;
}

std::string fg_shim_model_name(const char *type) {
    int st = 0;
    char *d = abi::__cxa_demangle(type, nullptr, nullptr, &st);
    std::string n = st == 0 && d ? d : type;
    std::free(d);
    return n.size() > 1 && n[0] == 'V' ? n.substr(1) : n;
}

int fg_xinit_seed(const char *type) {
    uint64_t base = fg_rtl_xseed();
    if (!base) return 0;
    std::string name = fg_shim_model_name(type);
    if (xinit_mode() == 1) {
        const std::string off = std::string(" ") + FG_XINIT_OFF + " ";
        if (off.find(" " + name + " ") != std::string::npos) return 0;
    }
    // one seed per model, not per instance: a test run alone (FG_TEST) sees
    // the same initial state as in the whole program
    uint64_t h = 0xcbf29ce484222325ULL; // FNV-1a of the name
    for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    int s = static_cast<int>(mix64(base ^ h) & 0x7fffffff);
    return s ? s : 1; // Verilator: 0 would mean a seed of its own
}

std::mutex &fg_xinit_lock() {
    static std::mutex m;
    return m;
}

// ------------------------------------------------- lockstep traces
// $FG_TRACE_DIR set: the RTL side of a lockstep run is recorded, one file per
// verilated model, <dir>/<model>.trace (format: docs/TRACES.md), which
// scripts/trace_replay.py replays through the RTL in Icarus.  One instance of
// a model records at a time (another instance alive at once is not
// recorded); the instances that follow append, each from its reset, until
// the file holds $FG_TRACE_CYCLES lines (default 20000), at most
// $FG_TRACE_INST (default 5000) of them from one instance.  A line is one
// clock cycle: the inputs the model sees while the clock is low and the
// outputs it shows then (of the state: the contract, docs/ARCHITECTURE.md),
// before the rising edge.
struct FgTraceRec {
    FILE *f = nullptr;
    uint64_t lines = 0;       // in the file
    uint64_t inst_lines = 0;  // from the recording instance
    bool busy = false;        // an instance is recording
};

static uint64_t env_count(const char *name, uint64_t dflt) {
    bool set;
    uint64_t v = env_seed(name, &set);
    return set ? v : dflt;
}

static std::mutex &trace_lock() {
    static std::mutex m;
    return m;
}

static std::map<std::string, FgTraceRec> &trace_files() {
    static std::map<std::string, FgTraceRec> m;
    return m;
}

static unsigned mask_width(uint64_t m) { return m == ~0ULL ? 64 : static_cast<unsigned>(__builtin_popcountll(m)); }

void fg_trace_attach(fg_rtl *r) {
    const char *dir = std::getenv("FG_TRACE_DIR");
    if (!dir || !*dir) return;
    std::lock_guard<std::mutex> g(trace_lock());
    FgTraceRec &t = trace_files()[r->model];
    if (t.busy || t.lines >= env_count("FG_TRACE_CYCLES", 20000)) return;
    if (!t.f) {
        std::string path = std::string(dir) + "/" + r->model + ".trace";
        t.f = std::fopen(path.c_str(), "w");
        if (!t.f) {
            std::fprintf(stderr, "FG_TRACE_DIR: cannot write %s\n", path.c_str());
            std::exit(2);
        }
        std::fprintf(t.f, "# fgtrace 1\n# model %s\n", r->model.c_str());
        if (r->get_rst_n() >= 0) std::fprintf(t.f, "# in rst_ni 1\n");
        for (const FgBind &b : r->ins) std::fprintf(t.f, "# in %s %u\n", b.name, mask_width(b.mask));
        for (const FgBind &b : r->outs) std::fprintf(t.f, "# out %s %u\n", b.name, b.width);
        std::fflush(t.f);
    }
    t.busy = true;
    t.inst_lines = 0;
    r->rec = &t;
}

static uint64_t member_value(const FgBind &b) {
    switch (b.bytes) {
    case 1: return *static_cast<uint8_t *>(b.member);
    case 2: return *static_cast<uint16_t *>(b.member);
    case 4: return *static_cast<uint32_t *>(b.member);
    default: return *static_cast<uint64_t *>(b.member);
    }
}

static void trace_detach(fg_rtl *r) {
    if (!r->rec) return;
    std::lock_guard<std::mutex> g(trace_lock());
    r->rec->busy = false;
    std::fflush(r->rec->f);
    r->rec = nullptr;
}

static void trace_line(fg_rtl *r) {
    FgTraceRec &t = *r->rec;
    if (t.lines >= env_count("FG_TRACE_CYCLES", 20000) || t.inst_lines >= env_count("FG_TRACE_INST", 5000) ||
        !r->err.empty()) {
        trace_detach(r); // a failed run's cycles are not a reference
        return;
    }
    std::string line;
    char buf[24];
    int rst = r->get_rst_n();
    if (rst >= 0) line += rst ? "1" : "0";
    for (const FgBind &b : r->ins) {
        std::snprintf(buf, sizeof buf, "%s%llx", line.empty() ? "" : " ", static_cast<unsigned long long>(member_value(b)));
        line += buf;
    }
    for (const FgBind &b : r->outs) {
        std::snprintf(buf, sizeof buf, " %llx", static_cast<unsigned long long>(member_value(b)));
        line += buf;
    }
    line += '\n';
    std::fputs(line.c_str(), t.f);
    t.lines++;
    t.inst_lines++;
}
