// What edge_preempt's formal harnesses share, inside their module (after the
// port list of edge_preempt_fv_ports.svh): the contract's encodings, the
// controller under proof with every output, the reset in the first cycle,
// the core's free-context assumption, and the signals both judge by.
  localparam logic [2:0] C_NONE = 3'd0, C_FLUSH = 3'd1, C_SKIPBAR = 3'd2, C_DROP = 3'd3,
                         C_START = 3'd4, C_RESUME = 3'd5, C_ABORT = 3'd6;
  localparam logic [1:0] S_IDLE = 2'd0, S_FLUSH = 2'd1, S_SAVE = 2'd2, S_WAIT = 2'd3;
  localparam int CW = 6;                   // the harness's cycle counters (saturating)
  localparam int F_NG = (NW + 7) / 8;      // the tournament's groups of 8 slots

  logic [2:0]        cmd_o;
  logic [SLOT_W-1:0] cmd_slot_o, victim_o;
  logic [3*F_NG-1:0] grp_win_o;
  logic [F_NG-1:0]   pick_grp_o;
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

  // ------------------------------------------------ the core's contract
  wire [NW-1:0] f_busy = event_mask_o | victim_mask_o;
  always_comb
    if (req_valid_i && free_ctx_i)
      a_free_slot_is_free: assume (32'(free_slot_i) < NW && !f_busy[free_slot_i] && !w_alloc_i[free_slot_i]);

  // ------------------------------------------------------------ helpers
  function automatic logic [3:0] ones(input logic [NW-1:0] m);
    ones = '0;
    for (int i = 0; i < NW; i++) ones = ones + 4'(m[i]);
  endfunction
  function automatic logic [NW-1:0] oh(input logic [SLOT_W-1:0] s);
    oh = '0;
    for (int i = 0; i < NW; i++) oh[i] = s == SLOT_W'(i);
  endfunction

  // this cycle's command, by kind
  wire f_flush  = cmd_o == C_FLUSH;
  wire f_skip   = cmd_o == C_SKIPBAR;
  wire f_drop   = cmd_o == C_DROP;
  wire f_startf = cmd_o == C_START && !cmd_arg_o[0];
  wire f_startp = cmd_o == C_START && cmd_arg_o[0];
  wire f_resume = cmd_o == C_RESUME;
  wire f_abort  = cmd_o == C_ABORT;
  wire [NW-1:0] f_slot_oh = oh(cmd_slot_o);

  // errors of this cycle as the contract defines them (judged on the masks)
  wire f_ev_known  = ev_exit_i && 32'(ev_exit_slot_i) < NW && event_mask_o[ev_exit_slot_i];
  wire f_err_alloc = (w_alloc_i & f_busy) != '0;
  // the victim drains (P_DRAIN's condition)
  wire f_drained = !v_pipe_i && !v_ibuf_i && !v_imiss_i && 32'(victim_o) < NW &&
                   !w_bar_i[victim_o] && !w_ld_i[victim_o];
