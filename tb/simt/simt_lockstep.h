/* simt_lockstep: the retire lockstep of the RTL SIMT core against the
 * reference (docs/SIMT_RTL.md "Checking").
 *
 * The checker collects the core's retire beats per (warp slot, order), all
 * 32 / NL passes of an instruction, in whatever order they come; once the
 * oldest instruction not yet compared is complete, the reference warp steps
 * (program order) and the two records must agree: pc, mask, rd and, for
 * the threads of the mask when rd != 0, the values (a counter CSR's values
 * are taken from the RTL instead).  A done pulse must come after every
 * instruction of the warp retired, with no live thread left in the
 * reference; a fault pulse must be the reference's next instruction's fault
 * (code, pc); nothing retires twice.  At the end, the two memory images
 * must be equal.  The first difference fails the run with one line:
 *   simt lockstep: first difference at cycle C, warp slot S, order N, pc 0x...: <field> rtl=... ref=...
 *
 * simt_lockstep_run drives the core cycle by cycle: the launches as slots
 * free, the memory port (simt_tbmem), the checker.  With cfg->record it
 * also writes what the core did, for a replay in another simulator
 * (tb/simt/simt_core_tb.sv, scripts/check_simt_icarus.sh), all addresses
 * physical word addresses, one item a line:
 *   <record>.mem     the memory before cycle 0, its nonzero words: "@addr value"
 *                    ($readmemh reads it)
 *   <record>.launch  "config NAME nw NW nl NL gto GTO stack_bytes B core_id C local_base HEX",
 *                    then the launches in order: "L pc param live wib ctaid.x ctaid.y ctaid.z
 *                    ntid.x ntid.y ntid.z nctaid.x nctaid.y nctaid.z shmem", in hex
 *   <record>.trace   the events in cycle order (cycle 0: the first after reset):
 *                      R cycle slot order pc mask rd pass data...   a retire beat; data: the values
 *                                                                   of the pass's threads in mask
 *                                                                   when rd != 0, else "-"
 *                      D cycle slot                                 done
 *                      F cycle slot code pc                         fault
 *                      E cycle                                      the last warp ended, core idle
 *                    (cycle, slot, order, rd, pass, code in decimal; pc, mask, data in hex)
 *   <record>.memout  every word written during the run or nonzero before it, with its
 *                    final value: "@addr value"
 * Recording is meant for the deterministic memory (max_lat 1, ready_pct 100)
 * and launches back to back (launch_gap 0), which a bench can replay.
 *
 * With EDGE (a configuration of simt_edge_core, docs/SIMT_RTL.md "EDGE
 * hooks"), cfg->events are pushed into the PEWT as their cycles come and
 * the controller's commands are followed: a START that preempts parks the
 * slot's warp in the checker and the reference (its compared instructions
 * all retired; its LR reservations gone, as the core drops them), the event
 * warp is checked as a launch in that slot, and RESUME brings the victim
 * back, to be checked on from its next instruction.  Every event must end
 * and complete (cpl_valid_o, its tag), no block may report an error, and
 * launch_ready_o / launch_slot_o must name the lowest slot holding neither
 * a warp nor a parked victim, unless an event is pending. */
#ifndef SIMT_LOCKSTEP_H
#define SIMT_LOCKSTEP_H

#include <stdbool.h>
#include <stdint.h>

#include "simt_ref.h"
#include "simt_rtl.h"
#include "simt_tbmem.h"

/* instructions of one warp that may retire ahead of its oldest not yet
 * retired (a division of 32 threads takes over a thousand cycles) */
#define SIMT_LS_WINDOW 4096

typedef struct {
    bool used;
    uint32_t pc, mask, rd, passes;
    uint32_t data[32];
    uint64_t cycle; /* of its last beat */
} simt_ls_entry;

typedef struct {
    bool active;
    unsigned launch;     /* index in the run's launch list */
    uint64_t next;       /* order of the oldest instruction not yet compared */
    simt_ls_entry *e; /* SIMT_LS_WINDOW, by order */
} simt_ls_slot;

/* what the compared instructions were (coverage of a run) */
typedef struct {
    uint64_t instrs, divergent, loads, stores, atomics, muldiv, csr, branches, barriers, exits, beats;
} simt_ls_stats;

typedef struct {
    simt_ref *ref;
    unsigned nl, nw;
    simt_ls_stats st;
    simt_ls_slot s[SIMT_REF_SLOTS];
    simt_ls_slot park[SIMT_REF_SLOTS];     /* a parked victim's checker state (EDGE) */
    simt_ref_warp park_w[SIMT_REF_SLOTS];  /* and its reference warp */
    bool failed;
    char err[640];
} simt_lockstep;

/* 0, or -1 when out of memory */
int simt_lockstep_init(simt_lockstep *ls, simt_ref *ref, unsigned nw, unsigned nl);
void simt_lockstep_free(simt_lockstep *ls);
/* Each returns 0, or -1 with ls->err (the first failure stays). */
int simt_lockstep_launch(simt_lockstep *ls, uint64_t cycle, unsigned slot, unsigned launch, const simt_launch *l);
int simt_lockstep_beat(simt_lockstep *ls, uint64_t cycle, const simt_rtl_out *o);
int simt_lockstep_done(simt_lockstep *ls, uint64_t cycle, unsigned slot);
int simt_lockstep_fault(simt_lockstep *ls, uint64_t cycle, unsigned slot, unsigned code, uint32_t pc);
/* EDGE: the warp in slot is parked (its place taken by an event warp), or comes back. */
int simt_lockstep_park(simt_lockstep *ls, uint64_t cycle, unsigned slot);
int simt_lockstep_resume(simt_lockstep *ls, uint64_t cycle, unsigned slot);

/* How a launch ended. */
typedef struct {
    bool ended, faulted;
    unsigned slot, fault_code;
    uint32_t fault_pc;
    uint64_t instrs;
} simt_launch_end;

/* An event for the PEWT (simt_edge_core's ev_* port), pushed from cycle `at` on. */
typedef struct {
    uint32_t pc, param, tag;
    unsigned threads, regs;
    uint64_t at;
} simt_event;

/* simt_edge_core's configuration inputs */
typedef struct {
    uint32_t save_base, save_mask;
    unsigned en, policy, opt, save_cycles_base, save_cycles_per_reg;
} simt_edge_cfg;

typedef struct {
    const char *config;       /* simt_rtl configuration */
    const char *wave;         /* FST path, or NULL */
    uint32_t local_base;
    uint64_t mem_seed;        /* the memory's latencies and backpressure */
    unsigned max_lat, ready_pct;
    uint64_t max_cycles;
    const simt_launch *launches;
    unsigned nlaunch;
    uint64_t launch_gap;      /* cycles with launch_valid_i low between launches (0: back to back) */
    const char *record;       /* path prefix of the recording (above), or NULL */
    const simt_event *events; /* with an EDGE configuration */
    unsigned nevent;
    simt_edge_cfg edge;
} simt_run_cfg;

typedef struct {
    uint64_t cycles, instrs, mem_reads, mem_writes, mem_stalls;
    simt_ls_stats st;
    unsigned max_warps;       /* most warps in the core at once */
    simt_rtl_params p;
    simt_launch_end end[256]; /* the launches, then the events */
    /* EDGE: the controller's counters at the end, and each event's push, start and end cycles */
    uint64_t start_free, start_pre, resumes, aborts, cpls;
    uint64_t ev_push[128], ev_start[128], ev_end[128];
} simt_run_result;

/* Runs the launches on the RTL (memory image rtl_mem) beside the reference
 * (its own image ref_mem, loaded the same), to the end of every launch.
 * 0, or -1 with the first failure in err. */
int simt_lockstep_run(const simt_run_cfg *cfg, simt_mem *rtl_mem, simt_mem *ref_mem, simt_run_result *res, char *err,
                      size_t errlen);

#endif
