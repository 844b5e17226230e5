/* rv32_exec: functional execution of one RV32IMAF + Zicsr instruction
 * (everything but loads, stores and atomics, which the SIMT core's
 * load/store unit does) across the active lanes of a warp.
 *
 * It works on a lane context (the registers, per-lane PCs, PC and FP CSRs of
 * one warp) and, for CSR reads, on the ids of the warp's threads; it knows
 * nothing of cores, GPUs or timing, so tests/test_rv32_exec.c drives it
 * alone (STYLE.md: execute on a lane/CSR context, Vortex simx's emulator
 * apart from its core). */
#ifndef RV32_EXEC_H
#define RV32_EXEC_H

#include <stddef.h>
#include <stdint.h>

#include "simt/rv32.h"

#define RV_LANES 32

/* Runs the statements for every lane l set in mask m; a full warp takes the
 * plain loop (which GCC vectorizes). */
#define RV_EACH_LANE(m, ...)                                              \
    do {                                                                  \
        if ((m) == 0xffffffffu) {                                         \
            for (unsigned l = 0; l < RV_LANES; l++) { __VA_ARGS__; }      \
        } else {                                                          \
            for (uint32_t mm_ = (m); mm_; mm_ &= mm_ - 1) {               \
                unsigned l = (unsigned)__builtin_ctz(mm_);                \
                __VA_ARGS__;                                              \
            }                                                             \
        }                                                                 \
    } while (0)

/* One warp's architectural state.  Registers are register-major
 * (r[reg][lane]) so every instruction is one loop over the lanes; row
 * RV_SINK is the write-only sink that replaces x0 as a destination. */
typedef struct {
    uint32_t pc;                  /* PC of the issuing group */
    uint32_t frm, fflags;         /* FP rounding mode / flags (per warp) */
    uint32_t lane_pc[RV_LANES];   /* per-thread PCs, written by divergent control flow */
    uint32_t r[RV_NREGS + 1][RV_LANES]; /* x0..x31, f0..f31, sink */
    /* fg_run --check: which buffer each register's value points into, per
     * lane (RV_PROV_*), or NULL (not tracked: the default) */
    uint8_t (*prov)[RV_LANES];
} rv_lanes;

/* A register's provenance: no pointer, a pointer derived from the caller's
 * region 1..254 (fg_run: its --buf arguments), or one whose origin was lost
 * (two pointers combined). */
enum { RV_PROV_NONE = 0, RV_PROV_LOST = 255 };

/* What the id CSRs (simt_abi.h) and the counters read, for the warp's
 * threads: thread id of lane l = linear index wib * 32 + l in the block. */
typedef struct {
    uint32_t ntid[3], ctaid[3], nctaid[3];
    uint32_t wib;                 /* warp index within the block */
    uint32_t core, shmem;         /* core id, block's shared-memory bytes */
    uint64_t cycle, instret;      /* GPU cycle, warp instructions issued */
} rv_csr_ids;

/* Result of one instruction. */
enum {
    EX_NEXT = 0, /* every active lane goes to pc + 4 */
    EX_JUMP,     /* every active lane goes to *npc */
    EX_SPLIT,    /* lanes diverge: their next PCs are in x->lane_pc[] */
    EX_BARRIER,  /* a write to the barrier CSR: the lanes wait at pc + 4 */
    EX_EXIT,     /* ecall: the lanes exit */
    EX_FAULT     /* illegal instruction / CSR, ebreak: message in err */
};

/* After rv_exec of a non-memory instruction: rd's provenance from its
 * operands' through the address arithmetic a compiler emits (add of an
 * offset, a pointer moved or aligned); anything else yields no pointer. */
void rv_prov_exec(rv_lanes *x, const rv_inst *in, uint32_t m);

/* Executes `in` at x->pc for the lanes in m (not 0).  ids is read only by
 * CSR instructions (may be NULL otherwise).  On EX_FAULT err holds the
 * reason with the pc (the caller adds where: core, warp). */
int rv_exec(rv_lanes *x, const rv_csr_ids *ids, const rv_inst *in, uint32_t m, uint32_t *npc, char *err,
            size_t errlen);

/* Thread id (x, y, z) of lane `lane` of warp `wib` in a block of ntid. */
void rv_lane_tid(const uint32_t ntid[3], unsigned wib, unsigned lane, uint32_t tid[3]);

#endif
