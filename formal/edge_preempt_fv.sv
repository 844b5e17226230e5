// Formal harness of edge_preempt with its two edge_preempt_timer instances
// (docs/FORMAL.md).  Ports only: nothing here names an internal signal, so
// the controller's internals may change under the proof; what is
// proved is the contract of sim/twin/edge_preempt.h and docs/PREEMPT.md, plus
// the RTL's own named assertions (pre_*, pre_timer_*).
//
// Inputs are free (configuration, requests, allocations, warp states, victim
// status, event exits, misuse included: the block must refuse and count it),
// reset in the first cycle and free afterwards.  Assumed, from the contract
// (named a_*): the core names a free context only when it is one (free_slot_i
// a slot of the core, holding no event warp or victim, not allocated in the
// same cycle), and the RTL's own assumptions pre_v_status_is_victims and
// pre_p_status_is_picks (the core reports the bits of the warp in slot
// victim_o on v_left_i / v_bar_i / v_ld_i, and at S+5 the pick's on p_left_i /
// p_bar_i / p_ld_i, where the controller reads them).  Nothing else is assumed.  The liveness statements are bounded
// and hold under premises that the harness checks cycle by cycle (a counter
// restarts when a premise does not hold), so they restrict no other property:
//   P_DRAIN  the victim drains: from its D_DRAIN-th FLUSH cycle on, no
//            pipeline / i-buffer / i-miss activity, not at a barrier, no
//            loads in flight (the core carried out FLUSH, SKIPBAR, DROP)
//   P_EXIT   event warps exit: while some event warp has run E_EXIT cycles
//            or more, the core reports an event warp's exit (ev_exit_i for
//            a slot in event_mask_o) in that cycle
// Properties (every cycle after reset; "t-1" is the cycle before):
//   commands: each command is one the contract allows at that point, on the
//     slot it names (FLUSH a live, non-exiting warp that runs no event and
//     holds no victim, with cfg_opt_i; SKIPBAR / DROP / ABORT / START-
//     preempted the victim of the last FLUSH, in its flush; START-free only
//     for a request finding a free context, on free_slot_i; RESUME only a
//     parked victim whose event warp has exited, with its START's argument);
//     no START without a free context or a flushed, drained victim
//   the SAVE time: a saved START comes exactly N + 1 SAVE cycles after SAVE
//     was entered (N = base + regs x per-reg, saturated to 2^CYC_W - 1)
//   masks: event_mask_o / victim_mask_o change only by START, RESUME and a
//     known exit; a parked victim's slot runs its event warp or waits for its
//     restore, never both
//   counting: STARTs into a victim - RESUMEs = parked victims, so every
//     preempted victim is resumed exactly once (mod 2^4: NW <= 15);
//     cnt_start_free_o / cnt_start_pre_o / cnt_resume_o / cnt_abort_o count
//     every such command and cnt_err_o every error (saturating)
//   errors: err_valid_o / err_code_o exactly for the exits and allocations
//     the contract calls errors, judged on the masks at that edge
//   liveness: under P_DRAIN the FSM is back in IDLE within B_IDLE cycles;
//     under P_DRAIN a restore-pending victim is resumed within B_RES cycles
//     of the last RESUME / its exit; under P_DRAIN and P_EXIT and with no
//     request, the FSM is IDLE, no event warp runs and no victim is parked
//     (every victim restored) within B_QUIET cycles
module edge_preempt_fv #(
  parameter int NW      = 3,
  parameter int SLOT_W  = 2,
  parameter int REGS_W  = 2,
  parameter int CYC_W   = 2,
  parameter int D_DRAIN = 2,  // P_DRAIN: the victim drained from its D_DRAIN-th FLUSH cycle on
  parameter int E_EXIT  = 2,  // P_EXIT: an event warp running E_EXIT cycles is made to exit
  // the bounds (docs/FORMAL.md; each fails at one less), NMAX = 2^CYC_W - 1
  // the longest save / restore count:
  //   B_IDLE  non-IDLE cycles in a row: FLUSH D_DRAIN + 1, SAVE NMAX + 1, WAIT 1
  //   B_RES   cycles in a row with a victim restore-pending and no RESUME:
  //           NMAX + 2 (exit, take, count, RESUME) + D_DRAIN + 3 (the command
  //           port held by the preemption FSM: the FLUSH decision, D_DRAIN + 1
  //           FLUSH cycles with a command, the last an ABORT, then a START
  //           for a free context)
  //   B_QUIET the quiet cycle by which everything is back: the flush under
  //           way ends and its event warp exits while the other NW - 1
  //           victims are restored; NW restores one after the other, NMAX + 2
  //           cycles each, + 2, + 1 for the cycle a RESUME can lose the
  //           command port to the START into the last victim
  parameter int B_IDLE  = D_DRAIN + 1 + (1 << CYC_W) + 1,
  parameter int B_RES   = (1 << CYC_W) - 1 + D_DRAIN + 5,
  parameter int B_QUIET = NW * ((1 << CYC_W) + 1) + 3
) (
`include "edge_preempt_fv_ports.svh"
);
  `include "edge_preempt_fv_dut.svh"
  localparam logic [3:0] A_PRE = 4'd1, A_SAVED = 4'd2, A_SKIPPED = 4'd4;
  localparam logic [3:0] O_BARSKIP = 4'd4, O_DROP = 4'd8;
  localparam int NMAX = (1 << CYC_W) - 1;  // the saturated save count

  // the slot of group g's winner, g the bit set in a one-hot group mask
  function automatic int gsel(input logic [F_NG-1:0] grp, input logic [3*F_NG-1:0] win);
    gsel = 0;
    for (int g = 0; g < F_NG; g++) if (grp[g]) gsel = g * 8 + int'(win[3*g +: 3]);
  endfunction
  function automatic logic [15:0] sat16(input logic [15:0] c, input logic [1:0] n);
    sat16 = (17'(c) + 17'(n) > 17'hffff) ? 16'hffff : c + 16'(n);
  endfunction
  function automatic logic [31:0] sat32(input logic [31:0] c, input logic n);
    sat32 = (n && c != 32'hffffffff) ? c + 32'd1 : c;
  endfunction
  wire f_err_exit = ev_exit_i && !f_ev_known;

  // ----------------------------------------------- the cycle before (t-1)
  logic              f_on_q;        // out of reset in t-1 (t-1's values below are meaningful)
  logic [1:0]        f_st_q;
  logic              f_req_q, f_free_q, f_en_q, f_rf_q, f_ldok_q, f_drained_q;
  logic [SLOT_W-1:0] f_fslot_q;
  logic [3:0]        f_opt_q;
  logic [REGS_W-1:0] f_rregs_q;
  logic [CYC_W-1:0]  f_base_q;
  logic [7:0]        f_per_q;
  logic [NW-1:0]     f_live_q, f_wexit_q, f_bar_q, f_ld_q, f_ev_q, f_vm_q, f_exit_oh_q;
  logic              f_err_exit_q, f_err_alloc_q;
  logic [15:0]       f_cerr_q, f_cabort_q;
  logic [31:0]       f_csf_q, f_csp_q, f_cres_q;
  logic [SLOT_W-1:0] f_vict_q;
  logic [3*F_NG-1:0] f_gwin_q;
  always_ff @(posedge clk_i) begin
    f_on_q        <= rst_ni;
    f_st_q        <= state_o;
    f_req_q       <= req_valid_i;
    f_free_q      <= free_ctx_i;
    f_en_q        <= cfg_en_i;
    f_rf_q        <= rf_free_i;
    f_ldok_q      <= v_ldok_i;
    f_drained_q   <= f_drained;
    f_fslot_q     <= free_slot_i;
    f_opt_q       <= cfg_opt_i;
    f_rregs_q     <= req_regs_i;
    f_base_q      <= cfg_save_base_i;
    f_per_q       <= cfg_save_per_reg_i;
    f_live_q      <= w_live_i;
    f_wexit_q     <= w_exit_i;
    f_bar_q       <= w_bar_i;
    f_ld_q        <= w_ld_i;
    f_ev_q        <= event_mask_o;
    f_vm_q        <= victim_mask_o;
    f_exit_oh_q   <= f_ev_known ? oh(ev_exit_slot_i) : '0;
    f_err_exit_q  <= f_err_exit;
    f_err_alloc_q <= f_err_alloc;
    f_cerr_q      <= cnt_err_o;
    f_cabort_q    <= cnt_abort_o;
    f_csf_q       <= cnt_start_free_o;
    f_csp_q       <= cnt_start_pre_o;
    f_cres_q      <= cnt_resume_o;
    f_vict_q      <= victim_o;
    f_gwin_q      <= grp_win_o;
  end

  // ------------------------------------------- the warps' registers
  // EDGE IV-D: "we avoid changing the resource requirements of a victim warp
  // during preemption and only allow event warps to preempt victim warps with
  // the same or lower number of registers" (the contract's reading: the event
  // warp needs at most the victim's registers per thread).  The registers each
  // slot was allocated with (an allocation naming a busy slot is refused).
  // A selection reads the request's registers at its first edge and FLUSHes
  // at its sixth (the RTL's header); the core's PEWT head keeps its fields
  // while it waits, but the inputs here are free, so the property is stated
  // under a premise the harness counts (restricting nothing else): for the
  // last F_STAB cycles the request has waited with the same registers and no
  // slot was allocated (the core allocates only free slots; the inputs here
  // may re-allocate a live warp's slot under a selection).
  localparam int F_STAB = 6;
  logic [NW*REGS_W-1:0] f_wregs_q;  // slot i's at [i*REGS_W +: REGS_W]
  logic [2:0]        f_stab_q;
  always_ff @(posedge clk_i) begin
    for (int i = 0; i < NW; i++)
      if (!rst_ni) f_wregs_q[i*REGS_W +: REGS_W] <= '0;
      else if (w_alloc_i[i] && !f_err_alloc) f_wregs_q[i*REGS_W +: REGS_W] <= w_alloc_regs_i;
    if (!rst_ni || !req_valid_i || req_regs_i != f_rregs_q || w_alloc_i != '0) f_stab_q <= '0;
    else if (f_stab_q != '1) f_stab_q <= f_stab_q + 3'd1;
  end

  // ------------------------------------------- the victim by policy
  // EDGE VI-B: "two warp selection policies: Newest and Oldest, where the
  // most or least recently launched warps are selected, respectively"; EDGE
  // IV-D: the victim is a running warp (not exiting, not itself an event
  // warp, not holding a parked victim) and "only allow event warps to
  // preempt victim warps with the same or lower number of registers".  The
  // harness keeps its own allocation order, one bit per slot pair i < j (i
  // allocated before j); the slots of one accepted allocation become the
  // newest, lower slot older among them (the contract's tie rule), and a
  // reset allocates every slot at once.  The selection is the contract's
  // (the RTL's header): the eligible warps and the policy of its first edge
  // S, FLUSH decided at edge S+5 and shown at S+6, so each cycle's eligible
  // set, policy and order after its edge go into a six-cycle delay line,
  // reduced at once to the one warp the policy selects (f_pick).  Between S
  // and the FLUSH an allocation of a warp that is not eligible at S leaves
  // the order among the eligible ones as it was (one that is eligible voids
  // the selection: no FLUSH), so the order after edge S decides.  CHEAPEST
  // (not the paper's) and the unused code 3 are not stated here.
  localparam int F_SEL = 6;  // edges from S to the cycle that shows the FLUSH
  logic [NW*NW-1:0] f_ord_q;  // bit i*NW + j, i < j: slot i allocated before slot j
  logic [NW*NW-1:0] f_ord_d;
  logic [NW-1:0]    f_elig, f_pick;
  always_comb begin
    f_ord_d = f_ord_q;
    for (int i = 0; i < NW; i++)
      for (int j = i + 1; j < NW; j++)
        if (!rst_ni) f_ord_d[i*NW + j] = 1'b1;
        else if (!f_err_alloc && w_alloc_i[j]) f_ord_d[i*NW + j] = 1'b1;
        else if (!f_err_alloc && w_alloc_i[i]) f_ord_d[i*NW + j] = 1'b0;
    for (int i = 0; i < NW; i++)
      f_elig[i] = w_live_i[i] && !w_exit_i[i] && !f_busy[i] && f_wregs_q[i*REGS_W +: REGS_W] >= req_regs_i;
    // the eligible warp no other eligible warp is older (OLDEST) / newer (NEWEST) than
    for (int i = 0; i < NW; i++) begin
      f_pick[i] = f_elig[i];
      for (int j = 0; j < NW; j++)
        if (j != i && f_elig[j] &&
            ((i < j ? f_ord_d[i*NW + j] : !f_ord_d[j*NW + i]) == (cfg_policy_i == 2'd1)))
          f_pick[i] = 1'b0;
    end
  end
  // per cycle of the delay line: the policy is OLDEST or NEWEST, and the pick
  logic [F_SEL-1:0]    f_pk_v_q;
  logic [NW*F_SEL-1:0] f_pk_q;
  always_ff @(posedge clk_i) begin
    f_ord_q  <= f_ord_d;
    f_pk_v_q <= {f_pk_v_q[F_SEL-2:0], cfg_policy_i == 2'd0 || cfg_policy_i == 2'd1};
    f_pk_q   <= {f_pk_q[NW*(F_SEL-1)-1:0], f_pick};
  end

  // ------------------------------------------- the flush under way
  // FLUSH's slot and options, its registers (req_regs_i at the FLUSH edge),
  // whether a SKIPBAR was sent, the save count N of the SAVE entered
  // (from that edge's configuration), SAVE cycles so far, FLUSH cycles so far
  logic [SLOT_W-1:0] f_fl_slot_q;
  logic [3:0]        f_fl_opt_q;
  logic [REGS_W-1:0] f_fl_regs_q;
  logic              f_skipped_q;
  logic [CYC_W-1:0]  f_n_q;
  logic [CW-1:0]     f_save_len_q, f_fl_age_q;
  wire [REGS_W+8:0]  f_n_raw = (REGS_W+9)'(f_base_q) + (REGS_W+9)'(f_fl_regs_q) * (REGS_W+9)'(f_per_q);
  wire [CYC_W-1:0]   f_n_new = (f_n_raw > (REGS_W+9)'(NMAX)) ? CYC_W'(NMAX) : f_n_raw[CYC_W-1:0];
  // this cycle counted: the SAVE cycles including this one
  wire [CW-1:0]      f_save_len = (state_o == S_SAVE) ? f_save_len_q + CW'(1) : '0;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      f_skipped_q  <= 1'b0;
      f_save_len_q <= '0;
      f_fl_age_q   <= '0;
    end else begin
      if (f_flush) begin
        f_fl_slot_q <= cmd_slot_o;
        f_fl_opt_q  <= cmd_arg_o;
        f_fl_regs_q <= f_rregs_q;
        f_skipped_q <= 1'b0;
      end else if (f_skip) f_skipped_q <= 1'b1;
      if (state_o == S_SAVE && f_st_q == S_FLUSH) f_n_q <= f_n_new;
      f_save_len_q <= f_save_len;  // (<= N + 1 while save_not_past_due holds)
      f_fl_age_q   <= (state_o != S_FLUSH) ? '0 : (f_fl_age_q == '1) ? f_fl_age_q : f_fl_age_q + CW'(1);
    end
  end
  // the N of this SAVE (loaded in its first cycle)
  wire [CYC_W-1:0] f_n = (state_o == S_SAVE && f_st_q == S_FLUSH) ? f_n_new : f_n_q;

  // ---------------------------------------- restore-pending, START's args
  // a victim is restore-pending from its event warp's (known) exit to its
  // RESUME; f_arg_q[s] is the argument of the START into slot s
  logic [NW-1:0] f_pend_q;
  logic [3:0]    f_arg_q [NW];
  logic [3:0]    f_spre_q, f_res_q;  // STARTs into a victim, RESUMEs (mod 16)
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      f_pend_q <= '0;
      f_spre_q <= '0;
      f_res_q  <= '0;
    end else begin
      f_pend_q <= (f_pend_q & ~(f_resume ? f_slot_oh : '0)) |
                  ((f_ev_known ? oh(ev_exit_slot_i) : '0) & victim_mask_o);
      f_spre_q <= f_spre_q + 4'(f_startp);
      f_res_q  <= f_res_q + 4'(f_resume);
    end
    for (int i = 0; i < NW; i++)
      if (f_startp && f_slot_oh[i]) f_arg_q[i] <= cmd_arg_o;
  end
  // pending after this cycle's RESUME (the RTL clears the slot's victim bit at
  // the edge that decides the RESUME, the cycle before cmd_o shows it)
  wire [NW-1:0] f_pend = f_pend_q & ~(f_resume ? f_slot_oh : '0);

  // --------------------------------------------- premises and liveness
  // event warps' ages (cycles in event_mask_o, saturating at E_EXIT)
  logic [3:0] f_evage_q [NW];
  logic       f_old_ev;
  always_comb begin
    f_old_ev = 1'b0;
    for (int i = 0; i < NW; i++) if (event_mask_o[i] && 32'(f_evage_q[i]) >= E_EXIT) f_old_ev = 1'b1;
  end
  wire f_p_drain = !(state_o == S_FLUSH && 32'(f_fl_age_q) >= D_DRAIN) || f_drained;
  wire f_p_exit  = !f_old_ev || f_ev_known;
  logic [CW-1:0] f_nidle_q, f_rwait_q, f_quiet_q;
  wire [CW-1:0]  f_nidle = (state_o == S_IDLE || !f_p_drain) ? '0 : f_nidle_q + CW'(1);
  wire [CW-1:0]  f_rwait = (f_pend == '0 || f_resume || !f_p_drain) ? '0 : f_rwait_q + CW'(1);
  wire [CW-1:0]  f_quiet = (req_valid_i || !f_p_drain || !f_p_exit) ? '0 : f_quiet_q + CW'(1);
  always_ff @(posedge clk_i) begin
    for (int i = 0; i < NW; i++)
      f_evage_q[i] <= (!rst_ni || !event_mask_o[i]) ? 4'd0 :
                      (32'(f_evage_q[i]) >= E_EXIT) ? f_evage_q[i] : f_evage_q[i] + 4'd1;
    if (!rst_ni) begin
      f_nidle_q <= '0;
      f_rwait_q <= '0;
      f_quiet_q <= '0;
    end else begin
      f_nidle_q <= (f_nidle == '1) ? f_nidle_q : f_nidle;
      f_rwait_q <= (f_rwait == '1) ? f_rwait_q : f_rwait;
      f_quiet_q <= (f_quiet == '1) ? f_quiet_q : f_quiet;
    end
  end

  // ----------------------------------------------------------- properties
  wire f_on = rst_ni && !f_init_q && f_on_q;  // this cycle and the one before out of reset
  always_ff @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
      cmd_legal: assert (cmd_o <= C_ABORT);
      cmd_slot_in_core: assert (cmd_o == C_NONE ? (cmd_slot_o == '0 && cmd_arg_o == '0) : 32'(cmd_slot_o) < NW);
      victim_in_core: assert (32'(victim_o) < NW);
      // a core that registers victim_o's bits a cycle ahead (below) knows it
      // after a reset too: slot 0, no pick
      victim_after_reset: assert (f_on_q || (victim_o == '0 && pick_grp_o == '0));
      pending_is_parked: assert ((f_pend & ~victim_mask_o) == '0);
      pending_not_event: assert ((f_pend & event_mask_o) == '0);
      parked_runs_event_or_pending: assert ((victim_mask_o & ~(event_mask_o | f_pend)) == '0);
      victims_restored_once: assert (f_spre_q + 4'(f_startp) - f_res_q - 4'(f_resume) == ones(victim_mask_o));
      fsm_returns_to_idle: assert (32'(f_nidle) <= B_IDLE);
      restore_within_bound: assert (32'(f_rwait) <= B_RES);
      quiet_all_restored: assert (32'(f_quiet) < B_QUIET ||
                                  (state_o == S_IDLE && event_mask_o == '0 && victim_mask_o == '0));
    end
    if (f_on) begin
      // FLUSH: decided in IDLE for a request with no free context and cfg_en_i,
      // on a live, non-exiting warp that runs no event warp and holds no victim
      flush_legal: assert (!f_flush ||
                           (f_st_q == S_IDLE && f_req_q && !f_free_q && f_en_q &&
                            f_live_q[cmd_slot_o] && !f_wexit_q[cmd_slot_o] &&
                            !f_ev_q[cmd_slot_o] && !f_vm_q[cmd_slot_o] &&
                            cmd_arg_o == f_opt_q && state_o == S_FLUSH && victim_o == cmd_slot_o));
      // the victim holds at least the registers of the request it was flushed for
      flush_victim_has_regs: assert (!f_flush || 32'(f_stab_q) < F_STAB || 32'(cmd_slot_o) >= NW ||
                                     f_wregs_q[32'(cmd_slot_o)*REGS_W +: REGS_W] >= f_rregs_q);
      skipbar_legal: assert (!f_skip ||
                             (f_st_q == S_FLUSH && cmd_slot_o == f_fl_slot_q && (f_fl_opt_q & O_BARSKIP) != '0 &&
                              f_bar_q[cmd_slot_o] && !f_skipped_q && cmd_arg_o == '0));
      drop_legal: assert (!f_drop ||
                          (f_st_q == S_FLUSH && cmd_slot_o == f_fl_slot_q && (f_fl_opt_q & O_DROP) != '0 &&
                           f_ld_q[cmd_slot_o] && f_ldok_q && cmd_arg_o == '0));
      abort_legal: assert (!f_abort ||
                           (f_st_q == S_FLUSH && cmd_slot_o == f_fl_slot_q &&
                            (f_wexit_q[cmd_slot_o] || !f_live_q[cmd_slot_o]) &&
                            cmd_arg_o == (f_skipped_q ? A_SKIPPED : 4'd0) && state_o == S_IDLE));
      // no START without a free context or a flushed, drained victim
      start_free_legal: assert (!f_startf ||
                                (f_st_q == S_IDLE && f_req_q && f_free_q && cmd_slot_o == f_fslot_q &&
                                 cmd_arg_o == '0 && state_o == S_WAIT));
      start_pre_legal: assert (!f_startp ||
                               (cmd_slot_o == f_fl_slot_q && !f_ev_q[cmd_slot_o] && !f_vm_q[cmd_slot_o] &&
                                state_o == S_WAIT &&
                                cmd_arg_o[2] == f_skipped_q && cmd_arg_o[3] == 1'b0 &&
                                (f_st_q == S_FLUSH ? (f_drained_q && f_rf_q && !cmd_arg_o[1]) :
                                 (f_st_q == S_SAVE && cmd_arg_o[1]))));
      // the SAVE time (contract: N + 1 SAVE cycles)
      save_time_exact: assert (!(f_startp && f_st_q == S_SAVE) || 32'(f_save_len_q) == 32'(f_n_q) + 1);
      save_not_past_due: assert (state_o != S_SAVE || 32'(f_save_len) <= 32'(f_n) + 1);
      // RESUME: a parked victim whose event warp exited, with its START's argument
      resume_legal: assert (!f_resume ||
                            (f_pend_q[cmd_slot_o] && f_vm_q[cmd_slot_o] && cmd_arg_o == f_arg_q[cmd_slot_o]));
      // the masks change only by START, RESUME and a known exit
      event_mask_tracks: assert (event_mask_o ==
                                 ((f_ev_q & ~f_exit_oh_q) | (cmd_o == C_START ? f_slot_oh : '0)));
      victim_mask_tracks: assert (victim_mask_o ==
                                  ((f_vm_q & ~(f_resume ? f_slot_oh : '0)) | (f_startp ? f_slot_oh : '0)));
      // errors and counters
      err_exact: assert (err_valid_o == (f_err_exit_q || f_err_alloc_q) &&
                         (!err_valid_o || err_code_o == {f_err_alloc_q, f_err_exit_q}));
      cnt_err_counts: assert (cnt_err_o == sat16(f_cerr_q, err_valid_o ? 2'(err_code_o[0]) + 2'(err_code_o[1]) : 2'd0));
      cnt_start_free_counts: assert (cnt_start_free_o == sat32(f_csf_q, f_startf));
      cnt_start_pre_counts: assert (cnt_start_pre_o == sat32(f_csp_q, f_startp));
      cnt_resume_counts: assert (cnt_resume_o == sat32(f_cres_q, f_resume));
      cnt_abort_counts: assert (cnt_abort_o == sat16(f_cabort_q, 2'(f_abort)));
      // victim_o (the slot v_* describe) changes only at an edge taken in
      // IDLE (a selection's step 4), so it is constant through FLUSH, SAVE
      // and WAIT; a FLUSH names the slot victim_o showed the cycle before
      victim_only_in_idle: assert (f_st_q == S_IDLE || victim_o == f_vict_q);
      // what a core needs to register v_* a cycle ahead from registered
      // outputs only (the FPGA top's slice): victim_o is last cycle's, or,
      // where pick_grp_o (zero or one-hot) shows group g, the slot of g's
      // winner that grp_win_o showed last cycle
      pick_grp_onehot0: assert ((pick_grp_o & (pick_grp_o - 1'b1)) == '0);
      victim_next_known: assert (pick_grp_o == '0 ? victim_o == f_vict_q :
                                 32'(victim_o) == gsel(pick_grp_o, f_gwin_q));
      flush_names_victim: assert (!f_flush || cmd_slot_o == f_vict_q);
      // the victim is the eligible warp of edge S that its policy selects
      flush_victim_by_policy: assert (!f_flush || !f_pk_v_q[F_SEL-1] ||
                                      f_pk_q[NW*(F_SEL-1) +: NW] == oh(cmd_slot_o));
    end
  end
endmodule
