// Random, 4-state, event-driven run of edge_preempt in Icarus (not a
// replayed trace): a small fake SIMT core drives the ports as the twin's
// contract says (sim/twin/edge_preempt.h), inputs changed at the negative
// edge.  v_left_i / v_bar_i / v_ld_i and p_left_i / p_bar_i / p_ld_i carry
// the bits of slot victim_o (the controller's own assumptions
// pre_v_status_is_victims / pre_p_status_is_picks), so the selection's
// FLUSH, SKIPBAR, DROP, SAVE, START and RESUME paths all run.  Registers
// start X (no reset value forced), as in the replay.
//
// Ends with one line:
//   RAND-DONE cycles N x X flush F drop D skip K start S resume R abort A
// and exits with $fatal on an output X after reset.  A zero-time loop
// (always_comb blocks that wake each other) never reaches the line: the
// caller's time limit reports it with the last RAND-CYCLE line (+progress)
// (scripts/check_preempt_icarus.sh).
`timescale 1ns/1ps
module edge_preempt_rand_tb #(
  parameter int NW     = 64,
  parameter int SLOT_W = 6,
  parameter int REGS_W = 7,
  parameter int CYC_W  = 16,
  parameter bit AGE_ROWS = 1'b1,  // the age order's row form: Icarus runs the bit form ~20x slower
  parameter int CYCLES = 3000,
  parameter int SEED   = 1
);
  localparam int NG = (NW + 7) / 8;
  logic clk_i = 1'b0;
  logic rst_ni;
  logic cfg_en_i;
  logic [1:0] cfg_policy_i;
  logic [3:0] cfg_opt_i;
  logic [CYC_W-1:0] cfg_save_base_i;
  logic [7:0] cfg_save_per_reg_i;
  logic req_valid_i;
  logic [REGS_W-1:0] req_regs_i;
  logic free_ctx_i;
  logic [SLOT_W-1:0] free_slot_i;
  logic rf_free_i;
  logic [NW-1:0] w_alloc_i, w_live_i, w_exit_i, w_bar_i, w_ld_i;
  logic [REGS_W-1:0] w_alloc_regs_i;
  logic v_pipe_i, v_sb_i, v_ibuf_i, v_imiss_i, v_ldok_i, v_left_i, v_bar_i, v_ld_i;
  logic p_left_i, p_bar_i, p_ld_i;
  logic ev_exit_i;
  logic [SLOT_W-1:0] ev_exit_slot_i;
  logic [2:0] cmd_o;
  logic [SLOT_W-1:0] cmd_slot_o;
  logic [3:0] cmd_arg_o;
  logic [1:0] state_o;
  logic [SLOT_W-1:0] victim_o;
  logic [3*NG-1:0] grp_win_o;
  logic [NG-1:0] pick_grp_o;
  logic [5:0] vstat_o;
  logic [NW-1:0] event_mask_o, victim_mask_o;
  logic err_valid_o;
  logic [1:0] err_code_o;
  logic [15:0] cnt_err_o, cnt_abort_o;
  logic [31:0] cnt_start_free_o, cnt_start_pre_o, cnt_resume_o;

  edge_preempt #(.NW(NW), .SLOT_W(SLOT_W), .REGS_W(REGS_W), .CYC_W(CYC_W)) dut (.*);
  defparam dut.u_age.ROWS = AGE_ROWS;

  // the fake core: which slots hold a warp, which of them are leaving
  logic [NW-1:0] live, leaving, ev_run;
  integer seed, cyc, xs, n_flush, n_drop, n_skip, n_start, n_resume, n_abort, i, k, g;

  function automatic logic [NW-1:0] rbits(input integer pct);
    logic [NW-1:0] r;
    for (int b = 0; b < NW; b++) r[b] = ($urandom % 100) < pct;
    return r;
  endfunction

  // outputs after reset carry no X
  wire out_x = $isunknown({cmd_o, cmd_slot_o, cmd_arg_o, state_o, victim_o, grp_win_o, pick_grp_o, vstat_o,
                           event_mask_o, victim_mask_o, err_valid_o, err_code_o, cnt_err_o, cnt_abort_o,
                           cnt_start_free_o, cnt_start_pre_o, cnt_resume_o});

  // drive the victim's and the pick's status from slot victim_o (the contract)
  task automatic drive_status;
    logic left;
    left = w_exit_i[victim_o] || !w_live_i[victim_o];
    v_left_i = left;  v_bar_i = w_bar_i[victim_o];  v_ld_i = w_ld_i[victim_o];
    p_left_i = left;  p_bar_i = w_bar_i[victim_o];  p_ld_i = w_ld_i[victim_o];
  endtask

  initial begin
    seed = SEED;
    k = $urandom(seed);
    cyc = 0; xs = 0; n_flush = 0; n_drop = 0; n_skip = 0; n_start = 0; n_resume = 0; n_abort = 0;
    live = '0; leaving = '0; ev_run = '0;
    rst_ni = 1'b0;
    cfg_en_i = 1'b1; cfg_policy_i = 2'd0; cfg_opt_i = 4'hf; cfg_save_base_i = CYC_W'(3);
    cfg_save_per_reg_i = 8'd1; req_valid_i = 1'b0; req_regs_i = '0; free_ctx_i = 1'b0; free_slot_i = '0;
    rf_free_i = 1'b0; w_alloc_i = '0; w_alloc_regs_i = '0; w_live_i = '0; w_exit_i = '0; w_bar_i = '0;
    w_ld_i = '0; v_pipe_i = 1'b0; v_sb_i = 1'b0; v_ibuf_i = 1'b0; v_imiss_i = 1'b0; v_ldok_i = 1'b0;
    v_left_i = 1'b1; v_bar_i = 1'b0; v_ld_i = 1'b0; p_left_i = 1'b1; p_bar_i = 1'b0; p_ld_i = 1'b0;
    ev_exit_i = 1'b0; ev_exit_slot_i = '0;
    for (cyc = 0; cyc < CYCLES; cyc++) begin
      if ($test$plusargs("progress") && cyc % 100 == 0) $display("RAND-CYCLE %0d", cyc);
      #5 clk_i = 1'b1;
      #5 clk_i = 1'b0;
      // the cycle after the edge: outputs, then the core's reaction
      if (cyc >= 3 && out_x) begin
        xs++;
        $fatal(1, "RAND-FAIL cycle %0d: an output is X (cmd %b victim %b state %b)", cyc, cmd_o, victim_o, state_o);
      end
      rst_ni = cyc >= 2;
      if (rst_ni && cyc >= 3) begin
        case (cmd_o)
          3'd1: n_flush++;
          3'd2: n_skip++;
          3'd3: n_drop++;
          3'd4: begin n_start++; ev_run[cmd_slot_o] = 1'b1; live[cmd_slot_o] = 1'b1; end
          3'd5: n_resume++;
          3'd6: n_abort++;
          default: ;
        endcase
      end
      // warps that were leaving are gone; some running warps leave
      live = live & ~leaving;
      leaving = live & ~ev_run & ~event_mask_o & ~victim_mask_o & rbits(2);
      // a new block now and then: free slots, the lower ones first
      w_alloc_i = '0;
      if (($urandom % 8) == 0) begin
        k = 1 + $urandom % 4;
        for (i = 0; i < NW && k > 0; i++)
          if (!live[i] && !ev_run[i] && !victim_mask_o[i] && !event_mask_o[i]) begin
            w_alloc_i[i] = 1'b1; k--;
          end
        // now and then an allocation into a busy slot (PRE_ERR_ALLOC_BUSY)
        if (($urandom % 50) == 0) w_alloc_i = w_alloc_i | (event_mask_o | victim_mask_o);
      end
      w_alloc_regs_i = REGS_W'($urandom % 40);
      // an event warp exits now and then (sometimes a bogus slot)
      ev_exit_i = 1'b0;
      ev_exit_slot_i = SLOT_W'($urandom);
      if ((ev_run != '0) && ($urandom % 6) == 0) begin
        g = $urandom % NW;
        for (i = 0; i < NW; i++)
          if (ev_run[(g + i) % NW]) begin ev_exit_slot_i = SLOT_W'((g + i) % NW); i = NW; end
        ev_exit_i = 1'b1;
        ev_run[ev_exit_slot_i] = 1'b0;
        if (!victim_mask_o[ev_exit_slot_i]) live[ev_exit_slot_i] = 1'b0;
      end else if (($urandom % 40) == 0) begin
        ev_exit_i = 1'b1;
      end
      live = live | w_alloc_i;
      w_live_i = live | victim_mask_o | event_mask_o;
      w_exit_i = leaving;
      w_bar_i = rbits(15);
      w_ld_i = rbits(30);
      // the request: a PEWT head that stays until a START
      if (!req_valid_i || cmd_o == 3'd4) begin
        req_valid_i = ($urandom % 4) == 0;
        req_regs_i = REGS_W'($urandom % 24);
      end
      // a free context is a slot holding no warp, no event warp and no
      // parked victim (the contract: free_slot_i names a free context)
      free_ctx_i = 1'b0;
      free_slot_i = '0;
      if (($urandom % 10) == 0) begin
        g = $urandom % NW;
        for (i = 0; i < NW; i++)
          if (!free_ctx_i && !w_live_i[(g + i) % NW] && !ev_run[(g + i) % NW]) begin
            free_ctx_i = 1'b1;
            free_slot_i = SLOT_W'((g + i) % NW);
          end
      end
      rf_free_i = $urandom % 2;
      cfg_en_i = ($urandom % 64) != 0;
      if (($urandom % 200) == 0) cfg_policy_i = 2'($urandom % 3);
      if (($urandom % 200) == 0) cfg_opt_i = 4'($urandom);
      if (($urandom % 300) == 0) cfg_save_base_i = CYC_W'($urandom % 8);
      v_pipe_i = ($urandom % 3) == 0;
      v_sb_i = ($urandom % 3) == 0;
      v_ibuf_i = ($urandom % 3) == 0;
      v_imiss_i = ($urandom % 4) == 0;
      v_ldok_i = $urandom % 2;
      drive_status();
    end
    $display("RAND-DONE cycles %0d x %0d flush %0d drop %0d skip %0d start %0d resume %0d abort %0d",
             cyc, xs, n_flush, n_drop, n_skip, n_start, n_resume, n_abort);
    $finish;
  end
endmodule
