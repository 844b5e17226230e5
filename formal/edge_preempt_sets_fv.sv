// Formal harness of edge_preempt's victim sets (EDGE VI-C multi-warp
// preemption; sim/twin/edge_preempt.h "Victim sets", docs/PREEMPT.md),
// compiled with FG_PREEMPT_SETS (formal/edge_preempt_sets.sby).  Ports only,
// as formal/edge_preempt_fv.sv, which proves the single-victim controller
// (the build without the define); the RTL's own assertions are proved here
// too (pre_set_contiguous, pre_comp_parked, pre_parked_event_or_pending, ...).
//
// Inputs are free, reset in the first cycle and free afterwards, with the same
// contract assumptions as the single-victim harness (a_*).  Properties (every
// cycle after reset; "t-1" is the cycle before):
//   the set: a set's members are FLUSHed in slot order, from the head the
//     policy picked, each next one only once the last is drained and only if
//     it is of one allocation with it (a pair the harness tracks itself),
//     live, not exiting, holding no event or victim; at most SET_MAX of them
//   giving up: ABORT the current member (it left, or the next one is gone),
//     then one ABORT a cycle back to the head, then IDLE
//   the START: into the head, parking exactly the members FLUSHed (no more,
//     no fewer), and, when no allocation named a member since the head's
//     FLUSH, members that are adjacent slots of one allocation; with the
//     request unchanged since the selection (the premise of the
//     single-victim harness), their registers cover the request, and a set
//     of two or more is chosen only when no single warp was eligible
//   restored exactly once: a victim bit rises only at a START and falls only
//     by a RESUME of a restore-pending slot; the event's exit makes its head
//     and all its companions restore-pending; members parked - RESUMEs =
//     parked victims (mod 16)
//   liveness: under the single-victim harness's premises P_DRAIN and P_EXIT,
//     the FSM returns to IDLE within B_IDLE cycles, a restore-pending victim
//     is resumed within B_RES cycles, and with no request everything is back
//     (IDLE, no event warp, no parked victim) within B_QUIET cycles
module edge_preempt_sets_fv #(
  parameter int NW      = 4,
  parameter int SLOT_W  = 2,
  parameter int REGS_W  = 2,
  parameter int CYC_W   = 2,
  parameter int D_DRAIN = 2,
  parameter int E_EXIT  = 2,
  // the bounds (docs/FORMAL.md), NMAX = 2^CYC_W - 1 the longest save count:
  // the single-victim harness's, with room for a set's extra members (their
  // FLUSHes, the unwind's ABORTs, their RESUMEs).  They are what the proof
  // shows at NW 4, not derived tight: at NW 3 B_QUIET's form (20) is too
  // small (a counterexample at frame 28; 25 passes there)
  parameter int B_IDLE  = D_DRAIN + 1 + (`FG_PREEMPT_SETS - 1) + (1 << CYC_W) + 1,
  parameter int B_RES   = (1 << CYC_W) - 1 + D_DRAIN + 5 + 2 * (`FG_PREEMPT_SETS - 1),
  parameter int B_QUIET = NW * ((1 << CYC_W) + 1) + 3 + 2 * (`FG_PREEMPT_SETS - 1)
) (
`include "edge_preempt_fv_ports.svh"
);
  `include "edge_preempt_fv_dut.svh"
  localparam int SET_MAX = `FG_PREEMPT_SETS;

  // ------------------------------------------ allocations (the harness's own)
  // f_sn_q[i]: slots i and i + 1 were named by one accepted allocation (the
  // latest naming either); f_wregs_q: the registers each slot was given
  logic [NW-1:0]        f_sn_q;
  logic [NW*REGS_W-1:0] f_wregs_q;
  always_ff @(posedge clk_i) begin
    for (int i = 0; i < NW; i++) begin
      if (!rst_ni) begin
        f_sn_q[i] <= 1'b0;
        f_wregs_q[i*REGS_W +: REGS_W] <= '0;
      end else if (!f_err_alloc) begin
        if (w_alloc_i[i]) f_wregs_q[i*REGS_W +: REGS_W] <= w_alloc_regs_i;
        if (i + 1 < NW && (w_alloc_i[i] || w_alloc_i[(i + 1) % NW]))
          f_sn_q[i] <= w_alloc_i[i] && w_alloc_i[(i + 1) % NW];
      end
    end
  end

  // ----------------------------------------------- the cycle before (t-1)
  logic              f_on_q, f_req_q, f_free_q, f_en_q, f_drained_q, f_vleft_q, f_rf_q;
  logic [1:0]        f_st_q;
  logic [REGS_W-1:0] f_rregs_q;
  logic [NW-1:0]     f_live_q, f_wexit_q, f_ev_q, f_vm_q, f_sn_qq, f_exit_oh_q;
  always_ff @(posedge clk_i) begin
    f_on_q      <= rst_ni;
    f_st_q      <= state_o;
    f_req_q     <= req_valid_i;
    f_free_q    <= free_ctx_i;
    f_en_q      <= cfg_en_i;
    f_rf_q      <= rf_free_i;
    f_drained_q <= f_drained;
    f_vleft_q   <= v_left_i;
    f_rregs_q   <= req_regs_i;
    f_live_q    <= w_live_i;
    f_wexit_q   <= w_exit_i;
    f_ev_q      <= event_mask_o;
    f_vm_q      <= victim_mask_o;
    f_sn_qq     <= f_sn_q;
    f_exit_oh_q <= f_ev_known ? oh(ev_exit_slot_i) : '0;
  end

  // victim sets add one rule for the core (docs/PREEMPT.md "Victim sets"):
  // while a set is flushed or saved, no new block is given a slot of it (the
  // members FLUSHed so far and the one after the current member): the
  // controller checks the next member's pair at its turn and does not watch
  // the members it has flushed (as the single-victim controller does not
  // watch its drained victim).  The C core keeps it: no block lands while
  // the PEWT holds an event.
  wire [NW-1:0]      f_set_now = ((f_flush && f_st_q == S_IDLE) ? '0 : f_fs_q) | (f_flush ? f_slot_oh : '0);
  wire [SLOT_W-1:0]  f_cur_now = (f_flush || f_abort) ? cmd_slot_o : f_cur_q;
  always_comb
    if (f_on_q && (state_o == S_FLUSH || state_o == S_SAVE))
      a_set_not_reallocated: assume ((w_alloc_i & (f_set_now | oh(f_cur_now + SLOT_W'(1)))) == '0);

  // ------------------------------------------------ the selection (edge S)
  // the request has waited with the same registers and no slot was allocated
  // for the last F_STAB cycles (the single-victim harness's premise); a single
  // warp eligible at S (six edges before the head's FLUSH shows)
  localparam int F_STAB = 6, F_SEL = 6;
  logic [2:0]       f_stab_q;
  logic [F_SEL-1:0] f_single_q;
  logic [NW-1:0]    f_elig;
  always_comb
    for (int i = 0; i < NW; i++)
      f_elig[i] = w_live_i[i] && !w_exit_i[i] && !f_busy[i] && f_wregs_q[i*REGS_W +: REGS_W] >= req_regs_i;
  always_ff @(posedge clk_i) begin
    if (!rst_ni || !req_valid_i || req_regs_i != f_rregs_q || w_alloc_i != '0) f_stab_q <= '0;
    else if (f_stab_q != '1) f_stab_q <= f_stab_q + 3'd1;
    f_single_q <= {f_single_q[F_SEL-2:0], f_elig != '0};
  end

  // ------------------------------------------------ the set under flush
  // f_fs_q the members FLUSHed since the head's FLUSH (cleared by the return
  // to IDLE), f_cur_q the member the last FLUSH / ABORT named, f_head_q the
  // head; f_unw_q the set is being given up (ABORTs back to the head);
  // f_stable_q the request's registers and the allocations unchanged since
  // the selection, f_need_q its registers, f_nosingle_q no single warp was
  // eligible at S
  logic [NW-1:0]     f_fs_q;
  logic [SLOT_W-1:0] f_cur_q, f_head_q;
  logic              f_unw_q, f_stable_q, f_nosingle_q;
  logic [REGS_W-1:0] f_need_q;
  wire f_head_flush = f_flush && f_st_q == S_IDLE;
  wire f_next_flush = f_flush && f_st_q == S_FLUSH;
  always_ff @(posedge clk_i) begin
    if (!rst_ni || state_o == S_IDLE) begin
      f_fs_q  <= '0;
      f_unw_q <= 1'b0;
    end else begin
      if (f_flush) f_fs_q <= (f_head_flush ? '0 : f_fs_q) | f_slot_oh;
      if (f_abort) f_unw_q <= 1'b1;
    end
    if (f_flush || f_abort) f_cur_q <= cmd_slot_o;
    if (f_head_flush) begin
      f_head_q     <= cmd_slot_o;
      f_need_q     <= f_rregs_q;
      f_stable_q   <= 32'(f_stab_q) >= F_STAB;
      f_nosingle_q <= !f_single_q[F_SEL-1];
    end else if (w_alloc_i != '0 || req_regs_i != f_need_q) f_stable_q <= 1'b0;
  end
  // the registers of the members FLUSHed
  logic [REGS_W+2:0] f_fs_regs;
  always_comb begin
    f_fs_regs = '0;
    for (int i = 0; i < NW; i++) if (f_fs_q[i]) f_fs_regs = f_fs_regs + (REGS_W+3)'(f_wregs_q[i*REGS_W +: REGS_W]);
  end
  // the members are adjacent slots from the head, each pair of one allocation
  // (f_sn_qq: as the controller saw them at the edge that decided the START)
  function automatic logic run_from(input logic [NW-1:0] m, input logic [SLOT_W-1:0] h, input logic [NW-1:0] sn);
    logic [NW-1:0] hoh;
    hoh = oh(h);
    run_from = (m & hoh) != '0 && (m & ~(hoh | (m << 1))) == '0 && ((m & (m >> 1)) & ~sn) == '0 &&
               (m & (hoh - 1'b1)) == '0;
  endfunction

  // ------------------------------------------ parked, pending, restored
  // f_mem_q[h]: the members parked by the START into h (its event's set);
  // an event's known exit makes them restore-pending
  logic [NW-1:0] f_mem_q [NW];
  logic [NW-1:0] f_pend_q, f_comp;
  logic [3:0]    f_parked_q, f_res_q;  // members parked, RESUMEs (mod 16)
  // (this cycle's: a START shown now names its set)
  logic [NW-1:0] f_mem [NW];
  always_comb begin
    f_comp = '0;
    for (int h = 0; h < NW; h++) begin
      f_mem[h] = (cmd_o == C_START && f_slot_oh[h]) ? (f_startp ? f_fs_q : '0) : f_mem_q[h];
      if (event_mask_o[h]) f_comp = f_comp | (f_mem[h] & ~oh(SLOT_W'(h)));
    end
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      f_pend_q   <= '0;
      f_parked_q <= '0;
      f_res_q    <= '0;
      for (int h = 0; h < NW; h++) f_mem_q[h] <= '0;
    end else begin
      f_pend_q   <= (f_pend_q & ~(f_resume ? f_slot_oh : '0)) |
                    ((f_ev_known ? f_mem[ev_exit_slot_i] : '0) & victim_mask_o);
      f_parked_q <= f_parked_q + (f_startp ? ones(f_fs_q) : 4'd0);
      f_res_q    <= f_res_q + 4'(f_resume);
      for (int h = 0; h < NW; h++) f_mem_q[h] <= f_mem[h];
    end
  end
  wire [NW-1:0] f_pend = f_pend_q & ~(f_resume ? f_slot_oh : '0);

  // --------------------------------------------- premises and liveness
  logic [3:0] f_evage_q [NW];
  logic       f_old_ev;
  logic [CW-1:0] f_fl_age_q;
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
      f_fl_age_q <= '0;
      f_nidle_q  <= '0;
      f_rwait_q  <= '0;
      f_quiet_q  <= '0;
    end else begin
      f_fl_age_q <= (state_o != S_FLUSH) ? '0 : (f_fl_age_q == '1) ? f_fl_age_q : f_fl_age_q + CW'(1);
      f_nidle_q  <= (f_nidle == '1) ? f_nidle_q : f_nidle;
      f_rwait_q  <= (f_rwait == '1) ? f_rwait_q : f_rwait;
      f_quiet_q  <= (f_quiet == '1) ? f_quiet_q : f_quiet;
    end
  end

  // ----------------------------------------------------------- properties
  wire f_on = rst_ni && !f_init_q && f_on_q;
  always_ff @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
      set_size_bound: assert (ones(f_fs_q) <= 4'(SET_MAX));
      set_is_run: assert (f_fs_q == '0 || run_from(f_fs_q, f_head_q, '1));
      pending_is_parked: assert ((f_pend & ~victim_mask_o) == '0);
      pending_not_event: assert ((f_pend & event_mask_o) == '0);
      // a parked victim's slot runs its event warp, is a running event's
      // companion, or waits for its restore
      parked_accounted: assert ((victim_mask_o & ~(event_mask_o | f_comp | f_pend)) == '0);
      victims_restored_once: assert (f_parked_q + (f_startp ? ones(f_fs_q) : 4'd0) - f_res_q - 4'(f_resume) ==
                                     ones(victim_mask_o));
      fsm_returns_to_idle: assert (32'(f_nidle) <= B_IDLE);
      restore_within_bound: assert (32'(f_rwait) <= B_RES);
      quiet_all_restored: assert (32'(f_quiet) < B_QUIET ||
                                  (state_o == S_IDLE && event_mask_o == '0 && victim_mask_o == '0));
    end
    if (f_on) begin
      // the next member: once the last is drained, the slot above it, of
      // one allocation with it, live, not exiting, running no event warp and
      // holding no victim, the set not being given up
      next_member_legal: assert (!f_next_flush ||
                                 (32'(f_cur_q) + 1 < NW && cmd_slot_o == f_cur_q + SLOT_W'(1) && f_drained_q &&
                                  !f_vleft_q && !f_unw_q && f_sn_qq[f_cur_q] && f_live_q[cmd_slot_o] &&
                                  !f_wexit_q[cmd_slot_o] && !f_ev_q[cmd_slot_o] && !f_vm_q[cmd_slot_o] &&
                                  victim_o == cmd_slot_o && state_o == S_FLUSH));
      // giving up: the current member (it left, or it is drained and the
      // next one is gone), then each member below it, back to the head
      abort_legal: assert (!f_abort || (f_st_q == S_FLUSH &&
                           (f_unw_q ? (cmd_slot_o == f_cur_q - SLOT_W'(1) && f_cur_q != f_head_q) :
                                      cmd_slot_o == f_cur_q) &&
                           (state_o == S_IDLE) == (cmd_slot_o == f_head_q)));
      abort_has_cause: assert (!f_abort || f_unw_q || f_vleft_q || f_wexit_q[cmd_slot_o] ||
                               !f_live_q[cmd_slot_o] ||
                               (f_drained_q && f_fs_q != '0 && ones(f_fs_q) < 4'(SET_MAX)));
      // the START of a set: into the head, every member parked, the members
      // adjacent slots of one allocation, their registers covering the need,
      // and more than one only when no single warp was eligible
      start_pre_into_head: assert (!f_startp ||
                                   (cmd_slot_o == f_head_q && !f_unw_q && f_fs_q != '0 &&
                                    (f_fs_q & (f_ev_q | f_vm_q)) == '0));
      start_set_contiguous: assert (!f_startp || !f_stable_q || run_from(f_fs_q, f_head_q, f_sn_qq));
      start_set_covers: assert (!f_startp || !f_stable_q || f_fs_regs >= (REGS_W+3)'(f_need_q));
      start_set_smallest: assert (!f_startp || !f_stable_q || ones(f_fs_q) == 4'd1 || f_nosingle_q);
      start_free_legal: assert (!f_startf || (f_st_q == S_IDLE && f_req_q && f_free_q && !f_vm_q[cmd_slot_o]));
      // victim bits: up only by a START's set, down only by a RESUME of a
      // restore-pending slot
      victim_mask_tracks: assert (victim_mask_o ==
                                  ((f_vm_q & ~(f_resume ? f_slot_oh : '0)) | (f_startp ? f_fs_q : '0)));
      resume_legal: assert (!f_resume || (f_pend_q[cmd_slot_o] && f_vm_q[cmd_slot_o]));
      event_mask_tracks: assert (event_mask_o ==
                                 ((f_ev_q & ~f_exit_oh_q) | (cmd_o == C_START ? f_slot_oh : '0)));
    end
  end
endmodule
