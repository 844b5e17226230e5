// make COV=1 (docs/COVERAGE.md): every verilated model, when freed, writes
// its context's line and toggle counts to FG_COV_DIR (environment; else the
// coverage build's coverage/dat/, compiled in as FG_COV_DIR), one .dat per
// model, named <model>-<pid>-<n>.dat; mk/cov.mk merges them.  Used by
// fg_shim.hpp and fpga/sim/fg_top_model.cpp.
#ifndef FG_COV_HPP
#define FG_COV_HPP
#if VM_COVERAGE
#include <sys/stat.h>
#include <unistd.h>
#include <verilated.h>
#include <verilated_cov.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

inline void fg_cov_write(VerilatedContext &ctx, const char *model) {
    static std::atomic<unsigned> seq{0};
    const char *env = std::getenv("FG_COV_DIR");
    std::string dir = env && *env ? env : FG_COV_DIR;
    for (size_t i = 1; i <= dir.size(); i++) // mkdir -p
        if (i == dir.size() || dir[i] == '/') ::mkdir(dir.substr(0, i).c_str(), 0777);
    std::string path = dir + "/" + model + "-" + std::to_string(static_cast<long>(::getpid())) + "-" +
                       std::to_string(seq++) + ".dat";
    ctx.coveragep()->write(path.c_str()); // a path it cannot write is a Verilator fatal error
}
#endif
#endif
