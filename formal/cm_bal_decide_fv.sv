// Formal harness of cm_bal_decide, the CM-BAL decision datapath that the
// cores of cm_bal_monitor share (docs/FORMAL.md).  The block's own proof
// (formal/cm_bal_monitor.sby) covers the walk that feeds it, its timing and
// the table around it; this one states CM-BAL's Part-2 on the datapath's
// inputs: the moving averages of the core's table row, its valid bits, the
// interval's stallGPU sample, CM-CPU's decision and k.
//
// CM 4.2: "CM-BAL logic calculates the moving average of stallGPU for each
// concurrency level in each interval ... At the end of an interval, we update
// the one that has been used during that interval ... A new entry is created
// for a level with the value of stallGPU of the interval in which the
// concurrency level was used for the first time.  In subsequent intervals
// during which the same level is used, CM-BAL logic updates the moving
// average using mov_avg_new = mov_avg_old x 0.25 + stallGPU x 0.75."
// Part-2: "if decreasing the number of active warps ... would potentially
// increase stallGPU by more than a parameter k ..., CM-BAL does not allow
// concurrency to be reduced.  Second, ... if increasing the number of active
// warps ... would potentially reduce stallGPU by more than k ..., CM-BAL
// increases concurrency to the next level ... CM-BAL logic compares the
// moving average of stallGPU of the current level with that of the
// lower/upper level", footnote 11: "If the moving average of stallGPU in the
// lower or upper level is invalid for this comparison, Part-2 does not
// override the decision made by Part-1 of CM-BAL."  CM Sec. 6 (Fig. 14):
// "diff_low = (stallGPU of the lower concurrency level - stallGPU of the
// current concurrency level); and diff_up = (stallGPU of the current
// concurrency level - stallGPU of the upper concurrency level).  If
// diff_low > k, CM-BAL does not reduce the GPU TLP.  If diff_up > k, CM-BAL
// increases the GPU TLP."
//
// The current level's average compared is the updated one (docs/CM_BAL.md):
// floor((old + 3 x sample) / 4), or the sample where the entry is invalid,
// with the sample clamped to 2^SGW - 1 (the table's width).  A kernel
// boundary in the interval-end cycle invalidates every entry ("All moving
// average entries are invalidated at the beginning and end of a kernel"), so
// Part-2 has no valid neighbour then and the table is not updated.
//
// Proved, for a core given on in_* (CM-BAL mode at its stage B), from what
// the harness computes on the inputs it was given with (row, valid bits,
// sample, level, kernel boundary) and dec_i / k_i where the datapath reads
// them:
//   p2_raises_iff_diff_up      the why code says Part-2 raised (P2UP)
//                              exactly when the upper entry is valid and
//                              diff_up > k
//   p2_refuses_only_diff_low   it says Part-2 refused to lower (KEEP) only
//                              when Part-1 lowers (CM-CPU's decision DOWN,
//                              the level not the lowest), the lower entry is
//                              valid, diff_low > k and Part-2 does not raise;
//                              and then Part-1's step down is not taken (the
//                              why code is KEEP, or an exploration move,
//                              CM 4.2's third decision)
//   avg_update_is_paper        the table write: exactly with CM-BAL at stage
//                              C and no kernel boundary, at the level's
//                              entry, of the updated average
//   explore_on_nth_stay        CM 4.2's third decision, "if the algorithm
//                              stays in the same concurrency level for 4
//                              consecutive intervals, we increase or
//                              decrease TLP if the current concurrency level
//                              is less than 6 or greater than or equal to 6,
//                              respectively": the core's stay count
//                              (in_stay_i, the intervals in a row it stayed
//                              before this one) + 1 = EXPLORE_N and this
//                              interval stays (no raise; Part-1 holds or
//                              Part-2 refuses to lower), no kernel boundary
//                              -> exactly then an exploration (XUP / XDOWN),
//                              one level up below EXPLORE_WARPS (6) warps,
//                              else one down, its count restarted
//   stay_counts_intervals      otherwise a stay keeps the level with the
//                              count + 1 (0 after a kernel boundary, which
//                              restarts it), and a move restarts it (0)
// with every assertion of the RTL (named, FG_ASSERT).
//
// Assumed, the monitor's walk (cm_bal_monitor.sv; proved there by
// mon_walk_timing / dec_stages_consecutive): a core given is one of the
// block's (in_c_i < C) at a level of the table (in_lvl_i < NLVL), one core
// after the one given in the cycle before when that one was given too.
// bal_i, dec_i and k_i are free in every cycle: the harness keeps the values
// of the cycles in which the datapath reads them.
module cm_bal_decide_fv #(
  parameter int NSCHED    = 1,
  parameter int INTERVAL  = 8,
  parameter int MAXW      = 48,
  parameter int NLVL      = 9,
  parameter int EXPLORE_N = 4,
  parameter int C         = 3,
  localparam int CIW = (C > 1) ? $clog2(C) : 1,
  localparam int SGW = $clog2(NSCHED * INTERVAL),
  localparam int KW  = SGW + 1,
  localparam int LIW = $clog2(NLVL),
  localparam int XW  = $clog2(EXPLORE_N),
  localparam int RW  = NLVL * SGW
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             in_v_i,
  input logic [CIW-1:0]   in_c_i,
  input logic [SGW:0]     in_sample_i,
  input logic [LIW-1:0]   in_lvl_i,
  input logic [XW-1:0]    in_stay_i,
  input logic [NLVL-1:0]  in_valid_i,
  input logic             in_kb_i,
  input logic [RW-1:0]    in_row_i,
  input logic             bal_i,
  input logic [1:0]       dec_i,
  input logic [KW-1:0]    k_i
);
  logic            out_v_o, out_wr_o;
  logic [C-1:0]    out_hot_o;
  logic [CIW-1:0]  out_c_o;
  logic [LIW-1:0]  out_lvl_o;
  logic [XW-1:0]   out_stay_o;
  logic [NLVL-1:0] out_valid_o, out_ent_o;
  logic [2:0]      out_why_o;
  logic [SGW-1:0]  out_avg_o;
  logic [3:0]      f_stage_v_o;
  cm_bal_decide #(.NSCHED(NSCHED), .INTERVAL(INTERVAL), .MAXW(MAXW), .NLVL(NLVL),
                  .EXPLORE_N(EXPLORE_N), .C(C)) dut (.*);

  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb if (f_init_q) assume (!rst_ni);

  // cm_pkg's why codes
  localparam logic [2:0] W_KEEP = 3'd3, W_P2UP = 3'd4, W_XUP = 3'd5, W_XDOWN = 3'd6;
  // the paper's levels (CM 4.2) and its exploration threshold (6 warps)
  localparam logic [NLVL*8-1:0] F_LEVELS = {8'd48, 8'd24, 8'd16, 8'd8, 8'd6, 8'd4, 8'd3, 8'd2, 8'd1};
  localparam int F_XWARPS = 6;

  // the walk's contract
  logic           f_in_v_q;
  logic [CIW-1:0] f_in_c_q;
  always_ff @(posedge clk_i) begin
    f_in_v_q <= rst_ni && in_v_i;
    f_in_c_q <= in_c_i;
  end
  always_comb
    if (rst_ni && in_v_i) begin
      a_walk_core_in_block: assume (32'(in_c_i) < C);
      a_walk_level_in_table: assume (32'(in_lvl_i) < NLVL);
      a_walk_consecutive: assume (!f_in_v_q || in_c_i == f_in_c_q + 1'b1);
    end

  // a core given in cycle c0 (stage A's inputs), CM-BAL and CM-CPU's
  // decision of c1 (stage B reads them), k of c2 (stage M); the result is
  // out_* in c4, the table write's mode that of c3 (stage C)
  logic            f_v1_q, f_v2_q, f_v3_q, f_v4_q;
  logic [SGW-1:0]  f_s1_q;
  logic [LIW-1:0]  f_l1_q, f_l2_q, f_l3_q, f_l4_q;
  logic [NLVL-1:0] f_vd1_q;
  logic            f_kb1_q, f_kb2_q, f_kb3_q, f_kb4_q;
  logic [XW-1:0]   f_st1_q, f_st2_q, f_st3_q, f_st4_q;
  logic            f_stays3_q, f_stays4_q;
  logic [RW-1:0]   f_row1_q;
  logic            f_bal2_q, f_bal3_q, f_bal4_q, f_wbal4_q;
  logic [1:0]      f_dec2_q;
  logic            f_up3_q, f_keep3_q, f_up4_q, f_keep4_q;
  logic [SGW-1:0]  f_cur2_q, f_cur3_q, f_cur4_q;
  logic [SGW-1:0]  f_tup2_q, f_tlo2_q;
  logic            f_vup2_q, f_vlo2_q;

  // the entries at the level, above and below it, of the row given
  logic [SGW-1:0] f_tcur, f_tup, f_tlo, f_cur;
  logic           f_vcur, f_vup, f_vlo;
  always_comb begin
    f_tcur = '0;
    f_tup  = '0;
    f_tlo  = '0;
    f_vcur = 1'b0;
    f_vup  = 1'b0;
    f_vlo  = 1'b0;
    for (int e = 0; e < NLVL; e++) begin
      if (32'(f_l1_q) == e)     begin f_tcur = f_row1_q[e*SGW +: SGW];  f_vcur = f_vd1_q[e]; end
      if (32'(f_l1_q) + 1 == e) begin f_tup  = f_row1_q[e*SGW +: SGW];  f_vup  = f_vd1_q[e]; end
      if (32'(f_l1_q) == e + 1) begin f_tlo  = f_row1_q[e*SGW +: SGW];  f_vlo  = f_vd1_q[e]; end
    end
    // the moving average (CM 4.2), or the sample for an invalid entry
    f_cur = f_vcur ? SGW'(((SGW+2)'(f_tcur) + 3 * (SGW+2)'(f_s1_q)) >> 2) : f_s1_q;
  end
  // Part-2's compares (c2, with k of c2): diff_up > k, diff_low > k, each
  // with its neighbour valid and no kernel boundary; diff_low only where
  // Part-1 lowers (CM-CPU's DOWN, not at the lowest level)
  wire f_up   = !f_kb2_q && f_vup2_q && 32'(f_cur2_q) > 32'(f_tup2_q) + 32'(k_i);
  wire f_keep = !f_kb2_q && f_dec2_q == 2'd1 && f_vlo2_q && 32'(f_tlo2_q) > 32'(f_cur2_q) + 32'(k_i);
  // the interval stays at the level: no raise, and Part-1 holds (no step:
  // HOLD, a step past the lowest / highest level, or the code 3 CM-CPU never
  // gives) or Part-2 refuses to lower
  wire f_p1_holds = !(f_dec2_q == 2'd1 && f_l2_q != '0) && !(f_dec2_q == 2'd2 && 32'(f_l2_q) < NLVL - 1);
  wire f_stays = !f_up && (f_keep || f_p1_holds);

  always_ff @(posedge clk_i) begin
    // c0 -> c1
    f_v1_q   <= rst_ni && in_v_i;
    f_s1_q   <= in_sample_i[SGW] ? '1 : in_sample_i[SGW-1:0];
    f_l1_q   <= in_lvl_i;
    f_vd1_q  <= in_valid_i;
    f_kb1_q  <= in_kb_i;
    f_st1_q  <= in_stay_i;
    f_row1_q <= in_row_i;
    // c1 -> c2
    f_v2_q   <= rst_ni && f_v1_q;
    f_l2_q   <= f_l1_q;
    f_kb2_q  <= f_kb1_q;
    f_st2_q  <= f_st1_q;
    f_bal2_q <= bal_i;
    f_dec2_q <= dec_i;
    f_cur2_q <= f_cur;
    f_tup2_q <= f_tup;
    f_tlo2_q <= f_tlo;
    f_vup2_q <= f_vup && 32'(f_l1_q) < NLVL - 1;
    f_vlo2_q <= f_vlo && f_l1_q != '0;
    // c2 -> c3
    f_v3_q    <= rst_ni && f_v2_q;
    f_l3_q    <= f_l2_q;
    f_kb3_q   <= f_kb2_q;
    f_st3_q   <= f_st2_q;
    f_stays3_q <= f_stays;
    f_bal3_q  <= f_bal2_q;
    f_cur3_q  <= f_cur2_q;
    f_up3_q   <= f_up;
    f_keep3_q <= f_keep;
    // c3 -> c4
    f_v4_q    <= rst_ni && f_v3_q;
    f_l4_q    <= f_l3_q;
    f_kb4_q   <= f_kb3_q;
    f_st4_q   <= f_st3_q;
    f_stays4_q <= f_stays3_q;
    f_bal4_q  <= f_bal3_q;
    f_wbal4_q <= bal_i;
    f_cur4_q  <= f_cur3_q;
    f_up4_q   <= f_up3_q;
    f_keep4_q <= f_keep3_q;
  end

  logic [NLVL-1:0] f_ent4;
  always_comb for (int e = 0; e < NLVL; e++) f_ent4[e] = 32'(f_l4_q) == e;
  wire f_refuse4 = f_keep4_q && !f_up4_q;
  // the exploration: the EXPLORE_N-th interval in a row that stays, up below
  // F_XWARPS warps (never past the top), else down
  wire            f_x4    = f_stays4_q && !f_kb4_q && 32'(f_st4_q) + 1 == EXPLORE_N;
  wire            f_xup4  = 32'(F_LEVELS[8*f_l4_q +: 8]) < F_XWARPS && 32'(f_l4_q) < NLVL - 1;
  wire [LIW-1:0]  f_xlvl4 = f_xup4 ? f_l4_q + 1'b1 : f_l4_q - 1'b1;
  always_ff @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
      out_valid_in_time: assert (out_v_o == f_v4_q);
      p2_raises_iff_diff_up: assert (!(f_v4_q && f_bal4_q) || (out_why_o == W_P2UP) == f_up4_q);
      p2_refuses_only_diff_low: assert (!(f_v4_q && f_bal4_q) ||
                                        ((out_why_o == W_KEEP) ? f_refuse4 :
                                         (!f_refuse4 || out_why_o == W_XUP || out_why_o == W_XDOWN)));
      avg_update_is_paper: assert (out_wr_o == (f_v4_q && f_wbal4_q && !f_kb4_q) &&
                                   (!out_wr_o || (out_ent_o == f_ent4 && out_avg_o == f_cur4_q)));
      explore_on_nth_stay: assert (!(f_v4_q && f_bal4_q) ||
                                   ((out_why_o == W_XUP || out_why_o == W_XDOWN) == f_x4 &&
                                    (!f_x4 || (out_why_o == (f_xup4 ? W_XUP : W_XDOWN) &&
                                               out_lvl_o == f_xlvl4 && out_stay_o == '0))));
      stay_counts_intervals: assert (!(f_v4_q && f_bal4_q) || f_x4 ||
                                     (f_stays4_q ? (out_lvl_o == f_l4_q &&
                                                    32'(out_stay_o) == (f_kb4_q ? 0 : 32'(f_st4_q) + 1))
                                                 : out_stay_o == '0));
    end
  end
endmodule
