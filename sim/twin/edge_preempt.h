/* Warp preemption / flush controller, EDGE Sec. IV-D and Fig. 10: C twin and
 * ports of rtl/edge/edge_preempt.sv.  One per SIMT core, beside its PEWT.
 *
 * The controller decides and sequences; the SIMT core (C model) owns the
 * pipeline, reports per-warp state on w_* / v_* and carries out the
 * commands on cmd_*.  Division of work (docs/PREEMPT.md):
 *
 *   controller (RTL)                         SIMT core (C)
 *   - per-slot age matrix, regs table        - warps, i-buffer, scoreboard,
 *   - which slots run event warps /            MSHRs, barriers, registers
 *     hold a preempted victim                - does FLUSH / SKIPBAR / DROP /
 *   - victim selection + eligibility           START / RESUME / ABORT
 *   - flush sequence, drained test,          - reports w_* every cycle and the
 *     save / restore timing                    victim's v_* status
 *
 * Request: req_valid_i / req_regs_i come from the PEWT head (hd_valid_o,
 * hd_regs_o).  The controller never pops the PEWT itself: its START command
 * is what the core forwards to the PEWT's start_valid_i / start_slot_i.
 *
 * Preemption FSM (state_o):
 *   IDLE  request and free_ctx_i      -> cmd START(free_slot_i, arg 0), WAIT
 *                                        (at any step of a selection, which it ends)
 *         request, no free context, cfg_en_i
 *                                     -> victim selection: its first edge S is
 *                                        the first such edge at which some warp
 *                                        is eligible; the candidates (eligible
 *                                        warps of the policy's tier) and the
 *                                        policy are those of edge S
 *         selection, edges S+1..S+4   -> tournament steps (state_o stays IDLE);
 *                                        it ends if the request or cfg_en_i goes
 *         edge S+4: victim_o := the pick (the core reports its status on
 *         v_* from the next cycle on), unless a warp eligible at S was
 *         re-allocated at edges S+1..S+3 (the selection is void; victim_o
 *         stays)
 *         edge S+5: request, no free context, cfg_en_i, the pick live and not
 *         exiting (!p_left_i), and no warp eligible at S re-allocated
 *         (w_alloc_i) at edges S+1..S+4
 *                                     -> vstat_o := the pick's status,
 *                                        cmd FLUSH(victim_o, cfg_opt_i), FLUSH
 *                                        (otherwise a new selection whose first
 *                                        edge may be this one)
 *         otherwise stay (draining when cfg_en_i = 0, or no eligible victim)
 *   So a FLUSH comes SEL_CYCLES = 5 edges after the edge at which the request
 *   found no free context and some eligible warp (a tournament over
 *   groups of 8 slots for 100 MHz on the ECP5 and a fraction of the area of a
 *   one-cycle reduction); the pick is the oldest / newest candidate of edge S
 *   by the allocation order after edge S (nothing in it moves while no
 *   candidate is re-allocated).
 *   FLUSH victim left (v_left_i)                    -> cmd ABORT(v), IDLE
 *         OPT_BARSKIP and v_bar_i and not skipped     -> cmd SKIPBAR(v)
 *         OPT_DROP and v_ld_i and v_ldok_i            -> cmd DROP(v)
 *         drained: !v_pipe_i && !v_ibuf_i && !v_imiss_i && !v_bar_i && !v_ld_i
 *             rf_free_i -> cmd START(v, PREEMPTED | (SKIPPED if skipped)), WAIT
 *             else      -> SAVE, counter := save cycles
 *   SAVE  counter == 0 -> cmd START(v, PREEMPTED | SAVED | (SKIPPED)), WAIT; else count down
 *   WAIT  one cycle (the PEWT consumes the start), -> IDLE
 * save cycles = cfg_save_base_i + req_regs_i * cfg_save_per_reg_i, saturated
 * to 2^CYC_W - 1 (the same count, with that event's regs, for the restore).
 *
 * ABORT carries PRE_ARG_SKIPPED when the victim had been taken out of its
 * barrier (the core puts it back and undoes the boost and fetch stop).
 *
 * Age matrix: w_alloc_i is the set of slots given to the warps of one new
 * block this cycle (lower slot = older warp of the block); they become the
 * newest warps of the core and w_alloc_regs_i their registers per thread.
 * w_live_i: the slot holds a warp context (running, event or parked victim).
 *
 * Eligibility (EDGE IV-D): live, not exiting, not an event warp, not holding
 * a preempted victim (until resumed), and regs[v] >= req_regs_i.
 * Policies (cfg_policy_i): OLDEST, NEWEST (by allocation order, the age
 * matrix), CHEAPEST: oldest among eligible warps at a barrier when
 * OPT_BARSKIP is on, else oldest among eligible warps without in-flight
 * loads, else oldest eligible.
 *
 * Restore FSM (runs beside the preemption FSM): ev_exit_i for a slot whose
 * event warp had borrowed a victim marks it restore-pending; the lowest
 * pending slot waits save-cycles (computed with that event's regs) when its
 * registers were SAVED, 0 otherwise, then cmd RESUME(slot, arg as at START).
 * The preemption FSM's command wins the single cmd port; a RESUME waits.
 *
 * Commands are registered: cmd_o is non-zero for exactly one cycle per
 * command, the cycle after the edge that decided it.  The core carries the
 * command out in that cycle, before it computes the next inputs.
 *
 * Errors (ignored, err_valid_o pulses the cycle after, cnt_err_o counts):
 *   PRE_ERR_EXIT_UNKNOWN  ev_exit_i for a slot not running an event warp (a
 *                         slot index >= NW included)
 *   PRE_ERR_ALLOC_BUSY    w_alloc_i names a slot holding an event warp or a
 *                         victim (the whole allocation is ignored)
 * Both are judged against event_mask_o / victim_mask_o as they are at the
 * edge.  A START decided at that edge does not count yet (its event warp
 * starts in the cycle after, EDGE IV-D): an ev_exit_i naming the START's
 * slot at that edge is EXIT_UNKNOWN and the START happens all the same
 * (tests/test_edge_preempt.c test_exit_at_start_edge).
 *
 * Details the contract above leaves open, as rtl/edge/edge_preempt.sv and
 * the twin implement them (tests/test_edge_preempt.c checks each):
 *   - Candidates (eligible warps of the policy's tier: cfg_policy_i,
 *     cfg_opt_i's BARSKIP, w_bar_i, w_ld_i) are those of edge S; cfg_opt_i,
 *     req_regs_i, vstat and the pick's liveness those of edge S+5.
 *   - The FLUSH edge latches cfg_opt_i (= FLUSH's arg) and req_regs_i: the FLUSH
 *     state's BARSKIP / DROP tests use the latched options, the save count
 *     and the restore count use the latched registers.  cfg_save_base_i /
 *     cfg_save_per_reg_i are read when a count is loaded (entering SAVE, and
 *     when the restore FSM takes a slot).  req_valid_i is not looked at again
 *     after the FLUSH (the PEWT head only leaves by START).
 *   - victim_o is the pick from the selection's edge S+4 on and keeps it
 *     through FLUSH, SAVE and WAIT until the next selection's edge S+4 (0
 *     after reset); it is loaded at every edge S+4 of a selection not void
 *     by then, also of one that then ends without a FLUSH.  v_*
 *     always describe the warp in slot victim_o, as the core sees it in that
 *     cycle: v_left_i = w_exit_i[v] || !w_live_i[v], v_bar_i = w_bar_i[v],
 *     v_ld_i = w_ld_i[v] besides v_pipe_i .. v_ldok_i (the core muxes its
 *     own per-warp state, as for the others: the 64:1 muxes are
 *     off the controller's FSM path).  To register them a cycle ahead a core
 *     needs registered outputs only: grp_win_o (3 bits per group of 8 slots:
 *     its winner's index within the group, loaded at S+3, 0 after reset) and
 *     pick_grp_o (one-hot: the group of the pick loaded into victim_o at the
 *     last edge; 0 when victim_o did not change there).  After an edge with
 *     pick_grp_o[g] set, victim_o = 8g + grp_win_o[g] of the cycle before;
 *     otherwise victim_o is that of the cycle before (or 0 after a reset)
 *     (fpga/regmap.py PRE_VSTAT).  v_* are read in FLUSH only; at S+5 the
 *     same three bits of the pick (slot victim_o then) come on p_left_i /
 *     p_bar_i / p_ld_i, so a core that registers them drives v_* from its
 *     register of slot victim_o and p_* from the group winners' (the one of
 *     pick_grp_o's group), with no choice between the two in front of the
 *     FSM.  The RTL checks both against w_* where it reads them (FG_ASSUME
 *     pre_v_status_is_victims, pre_p_status_is_picks).  vstat_o: at the FLUSH
 *     edge BAR / LOAD from p_bar_i / p_ld_i (the pick's); in the first FLUSH cycle it ORs in
 *     v_pipe / v_sb / v_imiss / v_ibuf / v_bar / v_ld of the victim, i.e.
 *     after the core carried out FLUSH (with OPT_IBUF an i-buffer emptied by
 *     the flush does not show).  Final from the second FLUSH cycle on, so it
 *     is valid with START and ABORT.
 *   - cmd_slot_o / cmd_arg_o are 0 when cmd_o is NONE; SKIPBAR / DROP carry 0.
 *   - SAVE lasts save cycles + 1 cycles (counter loaded with N, START
 *     decided when it reads 0): START comes N + 1 cycles later than with
 *     rf_free_i.  (The RTL computes N in the cycles after the loading edge,
 *     rtl/edge/edge_preempt_timer.sv, and is due in the same cycle.)  The victim's exit is only looked at in FLUSH (a drained
 *     victim has nothing in flight).
 *   - Restore: ev_exit_i at edge e marks the slot; the restore FSM (one slot
 *     at a time, lowest pending first) loads it at the next edge it is free,
 *     so an undelayed RESUME is visible N + 3 cycles after the exit cycle
 *     (N = 0 when not SAVED).  ABORT carries only SKIPPED (a core that
 *     dropped loads knows it from the DROP).
 *   - cfg_policy_i = 3 behaves as OLDEST.  A free-context START happens with
 *     cfg_en_i = 0 too.  The core must not name free_slot_i in w_alloc_i in a
 *     cycle with req_valid_i && free_ctx_i (the START may take it at that
 *     edge), and free_slot_i must hold no event warp or victim.
 *   - Reset age order: lower slot older (only matters for slots never
 *     allocated).  Allocating the slot of a victim still in FLUSH is not an
 *     error (only event / parked slots are checked).
 *   - Both errors in one cycle: err_code_o = 3 (the codes OR'ed) and
 *     cnt_err_o += 2; err_code_o holds the last code; every counter saturates.
 *
 * Victim sets (SET_MAX > 1; EDGE VI-C: "preempt more than one warp from the
 * background kernel, such that the event kernel can use the registers from
 * multiple contiguous warps").  A block's registers are one range in warp
 * order, so the warps of one allocation in adjacent slots hold adjacent
 * registers; the controller keeps, per slot i, whether slots i and i + 1 were
 * given to one allocation (an accepted w_alloc_i naming either sets it to
 * "both named"; reset clears it).
 *   - Selection edge S: when no warp is eligible alone, for k = 2 .. SET_MAX
 *     in turn, a head h is a candidate when slots h .. h + k - 1 are each
 *     live, not exiting, not an event warp or parked victim, adjacent pairs
 *     of one allocation, and k x regs[h] >= req_regs_i (the members' counts
 *     are regs[h]: one allocation); the first k with a candidate is the set
 *     size (the smallest set), its heads the candidates (policy and tiers as
 *     for single victims, on the heads' bits).  A warp in any candidate set
 *     re-allocated at S+1..S+4 voids the selection.
 *   - Edge S+5: FLUSH(head) as for a single victim (the head is the pick).
 *   - FLUSH, per member in slot order: v_* describe the current member
 *     (victim_o); BARSKIP / DROP as for a single victim; once it is drained,
 *     if members remain: FLUSH(next member, the latched options) and
 *     victim_o := next (pick_grp_o stays 0), provided the next slot is still
 *     of one allocation with this one, live and not exiting; otherwise, or
 *     when the current member leaves (v_left_i), ABORT(current) and then one
 *     ABORT a cycle for each member before it, back to the head (arg SKIPPED
 *     if that member was taken out of its barrier), then IDLE.
 *   - After the last member is drained: START(head) as for a single victim
 *     (SAVE first unless rf_free_i; the save time is the event's registers',
 *     as before), arg SKIPPED from the head's flag.  Every member becomes a
 *     parked victim (victim_mask_o), the head runs the event warp
 *     (event_mask_o); the members but the head are its companions.
 *   - The event warp's exit makes the head and its companions restore-
 *     pending at once; the restore FSM resumes each slot (lowest first) with
 *     its own SAVED / SKIPPED: the head waits the event's restore time, a
 *     companion save_base cycles when SAVED (its transfer's set-up), else 0.
 *   - cnt_start_pre_o counts a set's START once; cnt_resume_o and
 *     cnt_abort_o count every command.
 * With SET_MAX = 1 none of this exists and every cycle is as above.
 */
#ifndef EDGE_PREEMPT_H
#define EDGE_PREEMPT_H

#include "fg_block.h"

/* PRE_CMD_* (cmd_o), PRE_ARG_* (cmd_arg_o bits with START / RESUME; FLUSH
 * carries cfg_opt_i), PRE_OPT_* (cfg_opt_i bits: the four flush
 * optimizations of EDGE IV-D, each on its own), PRE_POL_* (cfg_policy_i),
 * PRE_ST_* (state_o), PRE_VS_* (vstat_o bits: what the victim was waiting on
 * when selected, EDGE Fig. 11b), PRE_ERR_* (err_code_o): generated from
 * rtl/edge/edge_enc.toml, the list the RTL's edge_pkg comes from */
#include "gen/edge_preempt_enc.h"
/* "oldest", "newest", "cheapest" in PRE_POL_* order, NULL-terminated */
extern const char *const edge_preempt_policy_names[];

/* Widths below are those of the default configuration (64 warp slots); the
 * verilated second configuration (rtl/edge/edge_preempt.toml edge_preempt_w44: NW = 44,
 * CYC_W = 12) has narrower ports: the twin and the verilated model's shim both
 * mask every input to its width in the configuration (tests/test_shim_widths.c). */
#define EDGE_PREEMPT_INPUTS(X)                                                                     \
    X(cfg_en_i, 1) X(cfg_policy_i, 2) X(cfg_opt_i, 4) X(cfg_save_base_i, 16)                        \
    X(cfg_save_per_reg_i, 8) X(req_valid_i, 1) X(req_regs_i, 7) X(free_ctx_i, 1)                    \
    X(free_slot_i, 6) X(rf_free_i, 1) X(w_alloc_i, 64) X(w_alloc_regs_i, 7) X(w_live_i, 64)         \
    X(w_exit_i, 64) X(w_bar_i, 64) X(w_ld_i, 64) X(v_pipe_i, 1) X(v_sb_i, 1) X(v_ibuf_i, 1)         \
    X(v_imiss_i, 1) X(v_ldok_i, 1) X(v_left_i, 1) X(v_bar_i, 1) X(v_ld_i, 1) X(p_left_i, 1)        \
    X(p_bar_i, 1) X(p_ld_i, 1) X(ev_exit_i, 1) X(ev_exit_slot_i, 6)

#define EDGE_PREEMPT_OUTPUTS(X)                                                                    \
    X(cmd_o, 3) X(cmd_slot_o, 6) X(cmd_arg_o, 4) X(state_o, 2) X(victim_o, 6) X(grp_win_o, 24)      \
    X(pick_grp_o, 8) X(vstat_o, 6) X(event_mask_o, 64) X(victim_mask_o, 64) X(err_valid_o, 1)        \
    X(err_code_o, 2) X(cnt_err_o, 16) X(cnt_start_free_o, 32) X(cnt_start_pre_o, 32)                \
    X(cnt_abort_o, 16) X(cnt_resume_o, 32)

typedef struct { EDGE_PREEMPT_INPUTS(FG_FIELD) } edge_preempt_in_t;
typedef struct { EDGE_PREEMPT_OUTPUTS(FG_FIELD) } edge_preempt_out_t;

typedef struct {
    unsigned nw;     /* NW: warp slots per core, 64 (2048 threads / 32) */
    unsigned slot_w; /* SLOT_W: clog2(NW), 6 */
    unsigned regs_w; /* REGS_W: registers per thread 0..64, 7 */
    unsigned cyc_w;  /* CYC_W: save / restore cycle counter, 16 */
    /* AGE_ROWS: which description of the age order the verilated model runs
     * (rtl/edge/edge_preempt_age.sv): 1 the rows (the default models), 0 the
     * flip-flop per bit synthesis takes (model edge_preempt_bits); it picks
     * the model and changes no behaviour, so the twin only checks 0 or 1 */
    unsigned age_rows;
    /* SET_MAX: the most warps one event may borrow, 1..4 (EDGE VI-C's
     * multi-warp preemption, "Victim sets" above); 1 (the default) is the
     * single-victim controller of EDGE IV-D */
    unsigned set_max;
} edge_preempt_params;

#define EDGE_PREEMPT_PARAMS(X) \
    X(nw, NW) X(slot_w, SLOT_W) X(regs_w, REGS_W) X(cyc_w, CYC_W) X(age_rows, AGE_ROWS) X(set_max, SET_MAX)

void edge_preempt_params_default(edge_preempt_params *p);
/* The core's side of the contract above: v_left_i / v_bar_i / v_ld_i and
 * p_left_i / p_bar_i / p_ld_i set to the bits of slot `victim` (the
 * controller's victim_o) in in's w_exit_i / w_live_i, w_bar_i, w_ld_i (fill
 * the vectors first). */
void edge_preempt_victim_bits(edge_preempt_in_t *in, uint64_t victim);
extern const fg_block_class edge_preempt_class;

#endif
