// The one shared C++ file: drives any verilated model through fg_rtl.
#include "fg_shim.hpp"

static void copy_in(fg_rtl *r, const void *in) {
    const unsigned char *base = static_cast<const unsigned char *>(in);
    for (const FgBind &b : r->ins) {
        uint64_t v;
        std::memcpy(&v, base + b.offset, sizeof v);
        switch (b.bytes) {
        case 1: *static_cast<uint8_t *>(b.member) = static_cast<uint8_t>(v); break;
        case 2: *static_cast<uint16_t *>(b.member) = static_cast<uint16_t>(v); break;
        case 4: *static_cast<uint32_t *>(b.member) = static_cast<uint32_t>(v); break;
        default: *static_cast<uint64_t *>(b.member) = v; break;
        }
    }
}

static bool in_window(const fg_rtl *r) {
    return r->tfp && r->cycle >= r->trace_start && (r->trace_end == 0 || r->cycle <= r->trace_end);
}

static void check_error(fg_rtl *r) {
    if (r->err.empty() && r->ctx.gotError()) {
        r->err = "RTL assertion failed at cycle " + std::to_string(r->cycle) +
                 " (the assertion's file and line are printed above)";
    }
}

// One rising edge: inputs change while clk is low, then clk rises.
static void edge(fg_rtl *r) {
    r->set_clk(0);
    r->eval();
    if (in_window(r)) r->tfp->dump(r->cycle * 10 + 5);
    r->set_clk(1);
    r->eval();
    r->cycle++;
    if (in_window(r)) r->tfp->dump(r->cycle * 10);
    check_error(r);
}

extern "C" void fg_rtl_skip(fg_rtl *r) { r->cycle++; }

extern "C" void fg_rtl_reset(fg_rtl *r) {
    r->set_rst_n(0);
    r->set_clk(0);
    r->eval();
    for (int i = 0; i < 2; i++) edge(r);
    r->set_rst_n(1);
    r->eval();
    r->cycle = 0;
}

extern "C" void fg_rtl_step(fg_rtl *r, const void *in) {
    copy_in(r, in);
    edge(r);
}

extern "C" void fg_rtl_outputs(fg_rtl *r, void *out) {
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

extern "C" const char *fg_rtl_error(const fg_rtl *r) { return r->err.empty() ? nullptr : r->err.c_str(); }

extern "C" void fg_rtl_free(fg_rtl *r) { delete r; }

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
