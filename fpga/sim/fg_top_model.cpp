// Thin C++ shim over a verilated FPGA top (fg_top_model.h): FG_VTOP, the
// verilated class, is Vfinegrain_ulx3s (the blocks top) unless the build
// names another with the same ports (Vfinegrain_simt_ulx3s).  The PLL is
// bypassed in simulation (fpga/fg_pll.sv): clk_25mhz clocks the design.
#include "fg_top_model.h"

#include <verilated.h>
#include <verilated_fst_c.h>

#include <string>

#ifndef FG_VTOP
#define FG_VTOP Vfinegrain_ulx3s
#endif
#define FG_STR2(x) #x
#define FG_STR(x) FG_STR2(x)
#include FG_STR(FG_VTOP.h)
#include "fg_cov.hpp"

struct fg_top_model {
    VerilatedContext ctx;
    FG_VTOP *top = nullptr;
    VerilatedFstC *tfp = nullptr;
    uint64_t cycle = 0;
    std::string err;
};

extern "C" fg_top_model *fg_top_model_new(void) {
    auto *m = new fg_top_model;
    m->ctx.traceEverOn(true);
    m->ctx.fatalOnError(false);
    Verilated::threadContextp(&m->ctx);
    m->top = new FG_VTOP(&m->ctx, "top");
    m->top->ftdi_txd = 1;
    m->top->clk_25mhz = 0;
    m->top->eval();
    return m;
}

extern "C" int fg_top_model_step(fg_top_model *m, int rx) {
    m->top->ftdi_txd = rx ? 1 : 0;
    m->top->clk_25mhz = 0;
    m->top->eval();
    if (m->tfp) m->tfp->dump(m->cycle * 10 + 5);
    m->top->clk_25mhz = 1;
    m->top->eval();
    m->cycle++;
    if (m->tfp) m->tfp->dump(m->cycle * 10);
    if (m->err.empty() && m->ctx.gotError())
        m->err = "RTL assertion failed at cycle " + std::to_string(m->cycle);
    return m->top->ftdi_rxd;
}

extern "C" unsigned fg_top_model_leds(const fg_top_model *m) { return m->top->led; }

extern "C" const char *fg_top_model_error(const fg_top_model *m) {
    return m->err.empty() ? nullptr : m->err.c_str();
}

extern "C" int fg_top_model_trace(fg_top_model *m, const char *path) {
    if (m->tfp) return -1;
    m->tfp = new VerilatedFstC;
    m->top->trace(m->tfp, 99);
    m->tfp->open(path);
    if (!m->tfp->isOpen()) {
        delete m->tfp;
        m->tfp = nullptr;
        return -1;
    }
    return 0;
}

extern "C" void fg_top_model_free(fg_top_model *m) {
    if (!m) return;
    if (m->tfp) {
        m->tfp->close();
        delete m->tfp;
    }
    Verilated::threadContextp(&m->ctx);
    m->top->final();
#if VM_COVERAGE
    fg_cov_write(m->ctx, m->top->modelName());
#endif
    delete m->top;
    delete m;
}
