/* simt_ref: the reference the RTL SIMT core is checked against
 * (docs/SIMT_RTL.md "Checking"): the C SIMT model's architecture, one warp
 * instruction at a time, with this core's address map and faults.
 *
 * Each warp slot holds the C model's lane context (sim/simt/rv32_exec.h:
 * registers and per-thread PCs), its live and barrier-wait masks and its
 * order counter.  A step issues the group of schedulable threads (live, not
 * waiting at the barrier) at the smallest PC after the threads at
 * FG_EXIT_ADDR have exited (simt_core.c reconverge/advance), decodes with
 * rv_decode, performs loads, stores and atomics itself on its own memory
 * image and everything else with rv_exec.  Atomics are the C model's
 * [gpu] atomics = issue (sim/simt/simt_lsu.c amo_lane): thread after thread
 * in thread order, LR reserving (kernel address, value read) per thread, SC
 * succeeding iff the thread's reservation is for its address and the word
 * still holds the value reserved. */
#ifndef SIMT_REF_H
#define SIMT_REF_H

#include <stdbool.h>
#include <stdint.h>

#include "simt/rv32_exec.h"
#include "simt_tbmem.h"

#define SIMT_REF_SLOTS 32

/* a warp's launch (the core's launch_* ports) */
typedef struct {
    uint32_t pc, param, live, wib;
    uint32_t ctaid[3], ntid[3], nctaid[3], shmem;
} simt_launch;

/* one retired warp instruction */
typedef struct {
    unsigned slot;
    uint64_t order;
    uint32_t pc, mask, insn;
    uint32_t live;        /* the warp's live threads when it issued (mask != live: divergent) */
    uint16_t op;          /* enum rv_op */
    unsigned rd;          /* 0: no register written */
    bool no_compare;      /* reads a counter (cycle, time, instret): values not compared */
    uint32_t values[32];  /* rd's new value for the threads in mask */
} simt_rec;

enum { SIMT_REF_RETIRED = 0, SIMT_REF_FAULT, SIMT_REF_DONE, SIMT_REF_ERROR };

typedef struct {
    bool valid;
    rv_lanes x;
    uint32_t live, bar_wait;
    uint64_t order;
    rv_csr_ids ids;
    unsigned fault_code;
    uint32_t fault_pc;
    uint32_t lr_addr[32]; /* LR reservation: kernel address + 1, 0 none (as the C model's lr_addr) */
    uint32_t lr_val[32];
    unsigned window;      /* its local-memory window: the slot (an event warp's: NW + slot) */
} simt_ref_warp;

typedef struct {
    simt_mem *m;
    uint32_t local_base, stack_bytes, core_id;
    simt_ref_warp w[SIMT_REF_SLOTS];
    char err[256]; /* SIMT_REF_ERROR: a memory access beyond the image (the test's own mistake) */
    char why[160]; /* SIMT_REF_FAULT: what faulted */
} simt_ref;

void simt_ref_init(simt_ref *r, simt_mem *m, uint32_t local_base, uint32_t stack_bytes, uint32_t core_id);
/* Starts a warp in `slot` (docs/SIMT_RTL.md "launch"). */
void simt_ref_launch(simt_ref *r, unsigned slot, const simt_launch *l);
/* The warp's next instruction: SIMT_REF_RETIRED with *rec filled,
 * SIMT_REF_FAULT with *code / *pc (the warp stops: its slot is freed),
 * SIMT_REF_DONE when it has no live thread left (slot freed), or
 * SIMT_REF_ERROR (r->err). */
int simt_ref_step(simt_ref *r, unsigned slot, simt_rec *rec, unsigned *code, uint32_t *pc);
/* Sets rd of the threads in mask (a counter's value taken from the RTL). */
void simt_ref_set_reg(simt_ref *r, unsigned slot, unsigned rd, uint32_t mask, const uint32_t *values);

#endif
