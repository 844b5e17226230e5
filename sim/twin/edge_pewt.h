/* Pending event warp table (PEWT), EDGE Sec. IV-C and IV-E: C twin and ports
 * of rtl/edge/edge_pewt.sv.  One per SIMT core.
 *
 * Single-warp event kernels (one block of <= 32 threads, no shared memory)
 * bypass the KMU: the SIMT core scheduler pushes them straight into a core's
 * PEWT (EDGE IV-C, Fig. 9).  An entry is FREE, PENDING (waiting for a warp
 * context: a free one, or one borrowed by the preemption controller) or
 * RUNNING (its warp occupies slot `slot`).  Pending entries start in arrival
 * order; a running entry is freed when its warp exits, which emits one
 * completion pulse carrying the launch tag.
 *
 * Timing (every output is state only; "edge e" = the rising edge that ends
 * the cycle in which the inputs were applied):
 *   push   ev_valid_i && ev_ready_o at edge e  -> entry PENDING after e; it is
 *          the head (hd_*) after e when no older entry is pending.
 *   start  start_valid_i at edge e -> the head becomes RUNNING in start_slot_i
 *          after e; hd_* shows the next pending entry (or hd_valid_o = 0).
 *   exit   exit_valid_i at edge e -> the RUNNING entry in exit_slot_i is FREE
 *          after e, and cpl_valid_o = 1 for exactly the cycle after e with
 *          that entry's tag and slot.
 *   Push, start and exit may all happen at the same edge (the pushed entry
 *   cannot be the one started: it is not pending before the edge).
 *   Every decision is judged on the state before the edge, so: a push takes
 *   the lowest entry free before the edge (hd_idx_o names it), never the one
 *   an exit frees at that edge; an exit of the slot a start fills at the same
 *   edge is EXIT_UNKNOWN.  One exception, exit first: a start into the slot
 *   whose event warp exits at the same edge is legal (not START_BUSY).
 *   hd_kernel_o..hd_regs_o / hd_idx_o are 0 while hd_valid_o = 0 (never a
 *   stale or never-written entry).  cpl_tag_o / cpl_slot_o and
 *   err_code_o hold their last values; cnt_err_o / cnt_push_o saturate.
 * Errors (input misuse; the operation is ignored, nothing is lost or
 * changed; err_valid_o pulses the cycle after with the code, cnt_err_o counts;
 * a start error and an exit error at one edge count 2 and show the start's):
 *   PEWT_ERR_START_EMPTY   start with no pending entry
 *   PEWT_ERR_START_BUSY    start into a slot that already runs an event warp
 *   PEWT_ERR_EXIT_UNKNOWN  exit of a slot that runs no event warp
 * (a push into a full table is not an error: ev_ready_o is 0 and the pusher
 * waits; the SIMT core scheduler reads ev_ready_o / n_free_o to pick a core).
 */
#ifndef EDGE_PEWT_H
#define EDGE_PEWT_H

#include "fg_block.h"

/* PEWT_ERR_* (err_code_o) and PEWT_ST_* (an entry's state): generated from the
 * list the RTL's edge_pkg comes from too (rtl/edge/edge_enc.toml,
 * docs/RTL_STYLE.md) */
#include "gen/edge_pewt_enc.h"

/* Widths below are those of the default configuration. */
#define EDGE_PEWT_INPUTS(X)                                                                        \
    X(ev_valid_i, 1) X(ev_kernel_i, 64) X(ev_param_i, 64) X(ev_tag_i, 64) X(ev_threads_i, 6)       \
    X(ev_regs_i, 7) X(start_valid_i, 1) X(start_slot_i, 6) X(exit_valid_i, 1) X(exit_slot_i, 6)

#define EDGE_PEWT_OUTPUTS(X)                                                                       \
    X(ev_ready_o, 1) X(hd_valid_o, 1) X(hd_idx_o, 2) X(hd_kernel_o, 64) X(hd_param_o, 64)           \
    X(hd_tag_o, 64) X(hd_threads_o, 6) X(hd_regs_o, 7) X(cpl_valid_o, 1) X(cpl_tag_o, 64)           \
    X(cpl_slot_o, 6) X(n_pending_o, 3) X(n_running_o, 3) X(n_free_o, 3) X(err_valid_o, 1)           \
    X(err_code_o, 2) X(cnt_err_o, 16) X(cnt_push_o, 32)

typedef struct { EDGE_PEWT_INPUTS(FG_FIELD) } edge_pewt_in_t;
typedef struct { EDGE_PEWT_OUTPUTS(FG_FIELD) } edge_pewt_out_t;

typedef struct {
    unsigned entries; /* ENTRIES, 4 (EDGE IV-E: a four-entry table, 160 B per core) */
    unsigned addr_w;  /* ADDR_W: kernel pointer and parameter address, 64 */
    unsigned tag_w;   /* TAG_W: launch tag echoed on completion, 64 */
    unsigned slot_w;  /* SLOT_W: warp slot number (64 warp contexts per core), 6 */
    unsigned thr_w;   /* THR_W: thread count 1..32, 6 */
    unsigned regs_w;  /* REGS_W: registers per thread 0..64, 7 */
} edge_pewt_params;

#define EDGE_PEWT_PARAMS(X)                                                                        \
    X(entries, ENTRIES) X(addr_w, ADDR_W) X(tag_w, TAG_W) X(slot_w, SLOT_W) X(thr_w, THR_W)         \
    X(regs_w, REGS_W)

void edge_pewt_params_default(edge_pewt_params *p);
extern const fg_block_class edge_pewt_class;

#endif
