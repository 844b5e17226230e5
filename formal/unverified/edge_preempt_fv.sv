// Formal harness of edge_preempt (docs/FORMAL.md), at its ports only (the
// block is being restructured; it is not edited here).  Any configuration,
// requests, allocations, warp states and event exits, reset in the first
// cycle and free afterwards, with one premise: the victim drains (no
// pipeline, i-buffer, i-miss, barrier or load activity), so that the flush
// completes; the RTL's own assertions (one-hot victim / restore slot, the
// slot sets consistent, selection only in IDLE) are checked too.
//   victims restored exactly once: STARTs into a preempted victim's slot -
//     RESUMEs = parked victims (victim_mask_o)
//   a RESUME only for a parked victim whose event warp has exited
//   the preemption FSM returns to IDLE: at most 3 + 2^CYC_W - 1 cycles
//     (flush, save count, start) away from IDLE
//   every command names a slot of the core (cmd_slot_o < NW)
module edge_preempt_fv #(
  parameter int NW     = 4,
  parameter int SLOT_W = 2,
  parameter int REGS_W = 3,
  parameter int CYC_W  = 3
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic              cfg_en_i,
  input logic [1:0]        cfg_policy_i,
  input logic [3:0]        cfg_opt_i,
  input logic [CYC_W-1:0]  cfg_save_base_i,
  input logic [7:0]        cfg_save_per_reg_i,
  input logic              req_valid_i,
  input logic [REGS_W-1:0] req_regs_i,
  input logic              free_ctx_i,
  input logic [SLOT_W-1:0] free_slot_i,
  input logic              rf_free_i,
  input logic [NW-1:0]     w_alloc_i,
  input logic [REGS_W-1:0] w_alloc_regs_i,
  input logic [NW-1:0]     w_live_i,
  input logic [NW-1:0]     w_exit_i,
  input logic              v_sb_i,
  input logic              v_ldok_i,
  input logic              ev_exit_i,
  input logic [SLOT_W-1:0] ev_exit_slot_i
);
  localparam logic [2:0] CMD_START = 3'd4, CMD_RESUME = 3'd5;
  localparam logic [3:0] ARG_PREEMPTED = 4'd1;
  localparam logic [1:0] ST_IDLE = 2'd0;
  // the premise: the victim drains
  wire [NW-1:0] w_bar_i = '0, w_ld_i = '0;
  wire          v_pipe_i = 1'b0, v_ibuf_i = 1'b0, v_imiss_i = 1'b0;

  logic [2:0]        cmd_o;
  logic [SLOT_W-1:0] cmd_slot_o, victim_o;
  logic [3:0]        cmd_arg_o;
  logic [1:0]        state_o, err_code_o;
  logic [5:0]        vstat_o;
  logic [NW-1:0]     event_mask_o, victim_mask_o;
  logic              err_valid_o;
  logic [15:0]       cnt_err_o, cnt_abort_o;
  logic [31:0]       cnt_start_free_o, cnt_start_pre_o, cnt_resume_o;
  edge_preempt #(.NW(NW), .SLOT_W(SLOT_W), .REGS_W(REGS_W), .CYC_W(CYC_W)) dut (.*);

  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb if (f_init_q) assume (!rst_ni);
  // the core's contract (sim/twin/edge_preempt.h): slots named are slots of the core
  always_comb assume (32'(free_slot_i) < NW && 32'(ev_exit_slot_i) < NW);

  function automatic logic [7:0] ones(input logic [NW-1:0] m);
    ones = '0;
    for (int i = 0; i < NW; i++) ones = ones + 8'(m[i]);
  endfunction

  wire f_pre = (cmd_o == CMD_START) && cmd_arg_o[0];
  wire f_res = (cmd_o == CMD_RESUME);
  logic [7:0]    f_pre_q, f_res_q, f_busy_q;
  logic [NW-1:0] f_vict_q, f_ev_q;
  always_ff @(posedge clk_i) begin
    f_vict_q <= victim_mask_o;
    f_ev_q   <= event_mask_o;
    if (!rst_ni) begin
      f_pre_q  <= '0;
      f_res_q  <= '0;
      f_busy_q <= '0;
    end else begin
      f_pre_q  <= f_pre_q + 8'(f_pre);
      f_res_q  <= f_res_q + 8'(f_res);
      f_busy_q <= (state_o == ST_IDLE) ? 8'd0 : f_busy_q + 8'd1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
      victims_restored_once: assert (f_pre_q + 8'(f_pre) - f_res_q - 8'(f_res) == ones(victim_mask_o));
      resume_only_parked_and_exited: assert (!f_res || (f_vict_q[cmd_slot_o] && !f_ev_q[cmd_slot_o]));
      fsm_returns_to_idle: assert (32'(f_busy_q) <= 3 + (1 << CYC_W) - 1);
      cmd_slot_in_core: assert (cmd_o == 3'd0 || 32'(cmd_slot_o) < NW);
      victim_in_core: assert (32'(victim_o) < NW);
    end
  end
endmodule
