// Formal harness of fe_sched_queues (docs/FORMAL.md), at its ports only (the
// block is being restructured; it is not edited here): any request stream,
// initialisation commands and ready patterns, reset in the first cycle and
// free afterwards; the RTL's own assertions are checked too.
//   conservation per queue q: requests accepted into q - served from q -
//     NACKed from q = q_count_o[q] (so none is lost or leaves twice);
//     "served" / "NACKed" is a new entry in the out / nack register, whose
//     queue is out_q_o / nack_q_o
//   no overflow / underflow: q_count_o[q] <= its depth; an entry leaves only
//     from a queue that holds one
//   out and nack hold their entry until taken
//   the F/E watchdog (F/E 4.5 leaves timeouts open; ours): with the limit L
//     held constant and not 0 and the NACK port ready, no head stays blocked
//     on its trigger for more than L + WD_SLACK cycles: it leaves as a NACK
module fe_sched_queues_fv #(
  parameter int          ADDR_W       = 8,
  parameter int          WORDS        = 2,
  parameter int          GRAN         = 4,
  parameter logic [31:0] REGION_BASE  = 8,
  parameter int          REGION_LINES = 3,
  parameter int          QD_NT        = 2,
  parameter int          QD_CPU       = 2,
  parameter int          QD_GPU       = 2,
  parameter int          TAG_W        = 2,
  parameter int          WD_W         = 2,
  parameter int          CNT_W        = 8,
  parameter int          INIT_W       = 2,
  parameter int          WD_SLACK     = 3
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
  localparam int LB = $clog2(WORDS * GRAN);
  localparam int LN_W = ADDR_W - LB;
  localparam int BASE_LINE = REGION_BASE >> LB;
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
  always_comb begin
    f_trig = (req_trig_i == 2'd3) ? 2'd0 : req_trig_i;
    if (req_dflt_i && req_src_i) f_trig = req_we_i ? 2'd0 : 2'd1;
    f_rel = {1'b0, req_addr_i[ADDR_W-1:LB]} - (LN_W+1)'(BASE_LINE);
    f_q = (f_trig == 2'd0 || f_rel >= (LN_W+1)'(REGION_LINES)) ? 2'd0 : (req_src_i ? 2'd2 : 2'd1);
  end
  wire f_acc = rst_ni && req_valid_i && req_ready_o[f_q];

  // a new entry in out / nack this cycle (the register was empty or taken)
  logic f_outv_q, f_outr_q, f_nackv_q, f_nackr_q;
  wire f_out_new  = out_valid_o && (!f_outv_q || f_outr_q);
  wire f_nack_new = nack_valid_o && (!f_nackv_q || f_nackr_q);
  logic [7:0] f_in_q [3], f_left_q [3];
  logic [7:0] f_cnt [3], f_left [3];
  logic [7:0] f_blk_q [3];
  logic [WD_W-1:0] f_lim_q;
  always_comb begin
    for (int q = 0; q < 3; q++) begin
      f_cnt[q]  = q_count_o[8*q +: 8];
      f_left[q] = f_left_q[q] + 8'(f_out_new && out_q_o == 2'(q)) + 8'(f_nack_new && nack_q_o == 2'(q));
    end
  end
  always_ff @(posedge clk_i) begin
    f_outv_q  <= rst_ni && out_valid_o;
    f_outr_q  <= out_ready_i;
    f_nackv_q <= rst_ni && nack_valid_o;
    f_nackr_q <= nack_ready_i;
    f_lim_q   <= wdog_limit_i;
    for (int q = 0; q < 3; q++) begin
      if (!rst_ni) begin
        f_in_q[q]   <= '0;
        f_left_q[q] <= '0;
        f_blk_q[q]  <= '0;
      end else begin
        f_in_q[q]   <= f_in_q[q] + 8'(f_acc && f_q == 2'(q));
        f_left_q[q] <= f_left[q];
        f_blk_q[q]  <= head_blocked_o[q] ? f_blk_q[q] + 8'd1 : 8'd0;
      end
    end
  end
  // the watchdog's premises: the limit stays put, the NACK port drains
  always_comb if (!f_init_q && rst_ni) assume (wdog_limit_i == f_lim_q);
  always_comb assume (nack_ready_i);

  // the outputs' previous values, for "held until taken"
  logic [ADDR_W-1:0] f_oaddr_q, f_naddr_q;
  logic [TAG_W-1:0]  f_otag_q, f_ntag_q;
  logic [1:0]        f_oq_q, f_nq_q;
  always_ff @(posedge clk_i) begin
    f_oaddr_q <= out_addr_o;  f_otag_q <= out_tag_o;  f_oq_q <= out_q_o;
    f_naddr_q <= nack_addr_o; f_ntag_q <= nack_tag_o; f_nq_q <= nack_q_o;
  end

  logic f_cons_ok, f_bound_ok, f_wd_ok;
  always_comb begin
    f_cons_ok  = 1'b1;
    f_bound_ok = (32'(f_cnt[0]) <= QD_NT) && (32'(f_cnt[1]) <= QD_CPU) && (32'(f_cnt[2]) <= QD_GPU);
    f_wd_ok    = 1'b1;
    for (int q = 0; q < 3; q++) begin
      if (f_in_q[q] - f_left[q] != f_cnt[q]) f_cons_ok = 1'b0;
      if (wdog_limit_i != '0 && 32'(f_blk_q[q]) > 32'(wdog_limit_i) + WD_SLACK) f_wd_ok = 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
      accepted_eq_left_plus_held: assert (f_cons_ok);
      queues_within_depth: assert (f_bound_ok);
      out_queue_legal: assert (!out_valid_o || out_q_o != 2'd3);
      nack_queue_legal: assert (!nack_valid_o || nack_q_o != 2'd3);
      out_held_until_taken: assert (!(f_outv_q && !f_outr_q) ||
                                    (out_valid_o && out_addr_o == f_oaddr_q && out_tag_o == f_otag_q &&
                                     out_q_o == f_oq_q));
      nack_held_until_taken: assert (!(f_nackv_q && !f_nackr_q) ||
                                     (nack_valid_o && nack_addr_o == f_naddr_q && nack_tag_o == f_ntag_q &&
                                      nack_q_o == f_nq_q));
      watchdog_blocked_head_leaves: assert (f_wd_ok);
      nack_only_with_watchdog: assert (!f_nack_new || f_lim_q != '0);
    end
  end
endmodule
