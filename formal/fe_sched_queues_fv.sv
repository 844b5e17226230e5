// Formal harness of fe_sched_queues (with fe_bits, fe_watchdog,
// fe_trigger_check, fg_fifo, fg_sram_sp; docs/FORMAL.md): any request
// stream, initialisation commands (line aligned: the contract), ready
// patterns and watchdog limits, reset in the first cycle and free afterwards;
// the RTL's own assertions are proved too.
//   conservation per queue q: the requests accepted into q and not yet seen
//     to leave (a new entry in the out or the nack register whose queue,
//     out_q_o / nack_q_o, is q) = q_count_o[q], so none is lost, none leaves
//     twice and none leaves from a queue it was not in
//   no overflow / underflow: q_count_o[q] <= its depth; ready only with room
//   what leaves is what its queue holds: a served or NACKed entry of a
//     triggered queue has a trigger and the queue's source and lies in the
//     region; a NACK is only ever of a triggered queue's entry
//   out and nack hold their entry until taken
//   the F/E watchdog (F/E 4.5 leaves timeouts open; ours), under any
//     traffic: with the limit L (wdog_limit_i) held constant and not 0 and
//     the NACK port ready, a head stays blocked on its trigger
//     (head_blocked_o[q]) at most L + WD_SLACK consecutive cycles: then it
//     has left as a NACK or been released
//   a NACK only with the watchdog on (in the cycle its compare was made)
//   every request leaves (served or NACKed): while the block is quiet at its
//     input (no request accepted, no initialisation command), both ports
//     take every cycle and the limit is held at L != 0, some request leaves
//     at least every L + LEAVE_SLACK cycles as long as one is held, so all
//     of them (QD_NT + QD_CPU + QD_GPU at most) have left within
//     (QD_NT + QD_CPU + QD_GPU) * (L + LEAVE_SLACK) cycles
module fe_sched_queues_fv #(
  parameter int          ADDR_W       = 5,
  parameter int          WORDS        = 2,
  parameter int          GRAN         = 4,
  parameter logic [31:0] REGION_BASE  = 8,
  parameter int          REGION_LINES = 3,
  parameter int          QD_NT        = 2,
  parameter int          QD_CPU       = 2,
  parameter int          QD_GPU       = 2,
  parameter int          TAG_W        = 1,
  parameter int          WD_W         = 2,
  parameter int          CNT_W        = 2,
  parameter int          INIT_W       = 2,
  parameter int          WD_SLACK     = 3,
  parameter int          LEAVE_SLACK  = 8
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic              req_valid_i,
  input logic              req_src_i,
  input logic              req_we_i,
  input logic              req_dflt_i,
  input logic [1:0]        req_trig_i,
  input logic [1:0]        req_act_i,
  input logic [ADDR_W-1:0] req_addr_i,
  input logic [WORDS-1:0]  req_mask_i,
  input logic [TAG_W-1:0]  req_tag_i,
  input logic              out_ready_i,
  input logic              nack_ready_i,
  input logic              init_valid_i,
  input logic              init_full_i,
  input logic [ADDR_W-1:0] init_addr_i,
  input logic [INIT_W-1:0] init_lines_i,
  input logic [WD_W-1:0]   wdog_limit_i
);
  localparam int LB        = $clog2(WORDS * GRAN);
  localparam int LN_W      = ADDR_W - LB;
  localparam int BASE_LINE = REGION_BASE >> LB;
  localparam int QW        = 4;  // the harness's per-queue counts (depths below 8)
  logic [2:0]        req_ready_o, head_blocked_o;
  logic              stall_mc_o, out_valid_o, out_src_o, out_we_o, nack_valid_o, nack_src_o,
                     nack_we_o, init_ready_o, err_o;
  logic [1:0]        out_trig_o, out_act_o, out_q_o, nack_trig_o, nack_act_o, nack_q_o;
  logic [ADDR_W-1:0] out_addr_o, nack_addr_o;
  logic [WORDS-1:0]  out_mask_o, nack_mask_o;
  logic [TAG_W-1:0]  out_tag_o, nack_tag_o;
  logic [23:0]       q_count_o;
  logic [CNT_W-1:0]  stall_nt_o, stall_cpu_o, stall_gpu_o, releases_o, nacks_o;
  fe_sched_queues #(.ADDR_W(ADDR_W), .WORDS(WORDS), .GRAN(GRAN), .REGION_BASE(REGION_BASE),
                    .REGION_LINES(REGION_LINES), .QD_NT(QD_NT), .QD_CPU(QD_CPU), .QD_GPU(QD_GPU),
                    .TAG_W(TAG_W), .WD_W(WD_W), .CNT_W(CNT_W), .INIT_W(INIT_W)) dut (.*);

  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb if (f_init_q) assume (!rst_ni);
  // the block's contract: initialisation commands are line aligned
  always_comb if (init_valid_i) assume (init_addr_i[LB-1:0] == '0);

  // the queue a request goes to (the contract's fe_sched_queue_of(), F/E 4.3)
  logic [1:0] f_trig, f_q;
  logic [LN_W:0] f_rel;
  function automatic logic f_in_region(input logic [ADDR_W-1:0] a);
    f_in_region = ({1'b0, a[ADDR_W-1:LB]} - (LN_W+1)'(BASE_LINE)) < (LN_W+1)'(REGION_LINES);
  endfunction
  always_comb begin
    f_trig = (req_trig_i == 2'd3) ? 2'd0 : req_trig_i;
    if (req_dflt_i && req_src_i) f_trig = req_we_i ? 2'd0 : 2'd1;
    f_rel = {1'b0, req_addr_i[ADDR_W-1:LB]} - (LN_W+1)'(BASE_LINE);
    f_q = (f_trig == 2'd0 || !f_in_region(req_addr_i)) ? 2'd0 : (req_src_i ? 2'd2 : 2'd1);
  end
  wire f_acc = rst_ni && req_valid_i && req_ready_o[f_q];

  // a new entry in out / nack this cycle (the register was empty or taken)
  logic f_outv_q, f_outr_q, f_nackv_q, f_nackr_q;
  wire f_out_new  = out_valid_o && (!f_outv_q || f_outr_q);
  wire f_nack_new = nack_valid_o && (!f_nackv_q || f_nackr_q);
  logic [QW-1:0] f_held_q [3];  // accepted into q, not seen to leave before this cycle
  logic [QW-1:0] f_held [3];    // ... nor in this cycle
  logic [QW-1:0] f_cnt [3];
  always_comb begin
    for (int q = 0; q < 3; q++) begin
      f_cnt[q]  = QW'(q_count_o[8*q +: 8]);
      f_held[q] = f_held_q[q] - QW'(f_out_new && out_q_o == 2'(q)) - QW'(f_nack_new && nack_q_o == 2'(q));
    end
  end

  // the watchdog's premises: the limit stays put and is not 0, the NACK
  // port takes; f_blk_q[q] counts the cycles head q has been blocked with
  // the premises holding (restarting when they do not; saturating)
  logic [WD_W-1:0] f_lim_q, f_lim2_q;  // the limit one and two cycles ago
  logic [3:0]      f_blk_q [3];
  wire f_wd_prem = !f_init_q && wdog_limit_i == f_lim_q && wdog_limit_i != '0 && nack_ready_i;
  // the drain's premises: nothing accepted, no initialisation command, both
  // ports take, the limit held; f_stuck_q counts such cycles in a row in
  // which requests are held and none left (saturating)
  logic [3:0] f_stuck_q;
  wire f_quiet = f_wd_prem && !f_acc && !init_valid_i && out_ready_i;
  wire f_any   = q_count_o != '0;
  always_ff @(posedge clk_i) begin
    f_outv_q  <= rst_ni && out_valid_o;
    f_outr_q  <= out_ready_i;
    f_nackv_q <= rst_ni && nack_valid_o;
    f_nackr_q <= nack_ready_i;
    f_lim_q   <= wdog_limit_i;
    f_lim2_q  <= f_lim_q;
    if (!rst_ni || !f_quiet || !f_any || f_out_new || f_nack_new) f_stuck_q <= '0;
    else if (f_stuck_q != '1) f_stuck_q <= f_stuck_q + 4'd1;
    for (int q = 0; q < 3; q++) begin
      if (!rst_ni) begin
        f_held_q[q] <= '0;
        f_blk_q[q]  <= '0;
      end else begin
        f_held_q[q] <= f_held[q] + QW'(f_acc && f_q == 2'(q));
        if (!(head_blocked_o[q] && f_wd_prem)) f_blk_q[q] <= '0;
        else if (f_blk_q[q] != '1) f_blk_q[q] <= f_blk_q[q] + 4'd1;
      end
    end
  end

  // the outputs' previous values, for "held until taken"
  localparam int OW_F = 1 + 1 + 2 + 2 + ADDR_W + WORDS + TAG_W + 2;
  logic [OW_F-1:0] f_out_q, f_nack_q;
  logic [OW_F-1:0] f_out, f_nack;
  assign f_out  = {out_src_o, out_we_o, out_trig_o, out_act_o, out_addr_o, out_mask_o, out_tag_o, out_q_o};
  assign f_nack = {nack_src_o, nack_we_o, nack_trig_o, nack_act_o, nack_addr_o, nack_mask_o, nack_tag_o,
                   nack_q_o};
  always_ff @(posedge clk_i) begin
    f_out_q  <= f_out;
    f_nack_q <= f_nack;
  end

  logic f_cons_ok, f_wd_ok;
  always_comb begin
    f_cons_ok = 1'b1;
    f_wd_ok   = 1'b1;
    for (int q = 0; q < 3; q++) begin
      if (f_held[q] != f_cnt[q]) f_cons_ok = 1'b0;
      if (head_blocked_o[q] && f_wd_prem && 32'(f_blk_q[q]) + 1 > 32'(wdog_limit_i) + WD_SLACK) f_wd_ok = 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
      accepted_eq_left_plus_held: assert (f_cons_ok);
      queues_within_depth: assert (32'(f_cnt[0]) <= QD_NT && 32'(f_cnt[1]) <= QD_CPU &&
                                   32'(f_cnt[2]) <= QD_GPU && q_count_o[23:16+QW] == '0 &&
                                   q_count_o[15:8+QW] == '0 && q_count_o[7:QW] == '0);
      ready_only_with_room: assert ((!req_ready_o[0] || 32'(f_cnt[0]) < QD_NT) &&
                                    (!req_ready_o[1] || 32'(f_cnt[1]) < QD_CPU) &&
                                    (!req_ready_o[2] || 32'(f_cnt[2]) < QD_GPU));
      out_queue_legal: assert (!out_valid_o || out_q_o != 2'd3);
      nack_queue_legal: assert (!nack_valid_o || (nack_q_o == 2'd1 || nack_q_o == 2'd2));
      out_from_its_queue: assert (!out_valid_o || out_q_o == 2'd0 ||
                                  (out_trig_o != 2'd0 && out_trig_o != 2'd3 &&
                                   out_src_o == (out_q_o == 2'd2) && f_in_region(out_addr_o)));
      nack_from_its_queue: assert (!nack_valid_o ||
                                   (nack_trig_o != 2'd0 && nack_trig_o != 2'd3 &&
                                    nack_src_o == (nack_q_o == 2'd2) && f_in_region(nack_addr_o)));
      out_held_until_taken: assert (!(f_outv_q && !f_outr_q) || (out_valid_o && f_out == f_out_q));
      nack_held_until_taken: assert (!(f_nackv_q && !f_nackr_q) || (nack_valid_o && f_nack == f_nack_q));
      // (a NACK decided in cycle t-1 is due on the limit of t-2: ge_q)
      nack_only_with_watchdog: assert (!f_nack_new || f_lim2_q != '0);
      watchdog_blocked_head_leaves: assert (f_wd_ok);
      every_request_leaves: assert (!f_quiet || 32'(f_stuck_q) < 32'(wdog_limit_i) + LEAVE_SLACK);
    end
  end
endmodule
