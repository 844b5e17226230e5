// Formal harness of cm_bal_monitor (with cm_cpu_central, cm_bal_core,
// cm_bal_decide; docs/FORMAL.md).  Any stall bits, kernel boundaries, modes,
// knobs, static limits and read-port selections, illegal ones included (a
// core or table entry past the end of the block, the unused mode code 3 is
// CM-BAL), reset in the first cycle and free afterwards.  Proved at its
// ports:
//   interval_o pulses once every INTERVAL cycles, exactly, from the reset on
//   stall_mc_o / stall_net_o: the stall bits of the last whole interval,
//   counted here, saturated to 2^STW - 1 (P x INTERVAL, every partition
//   stalled every cycle, is 2^STW at the proof's parameters)
//   CM-CPU limit within [1, MAXW]; the decision a legal code (hold/down/up)
//   the read port: a level < NLVL (its limit within [1, MAXW]), a stay count
//   < EXPLORE_N, a legal why code, for a core of the block; all 0 for a core
//   past the end; rd_avg_o 0 unless the entry read is valid
//   CM-CPU's decision from tH / tL, its limit moving by its steps (CM 4.1)
//   CM-BAL (CM 4.2): a core's limit is one of the paper's levels and moves
//   by at most one level a decision, and the exploration comes after exactly
//   EXPLORE_N intervals in a row at a level (followed for one core the
//   solver picks)
// with every assertion of the RTL (named, FG_ASSERT: level and stay count of
// every core in range, stallGPU never wraps within an interval, the walk's
// cores and table writes within bounds, the walk and the four stages of the
// decision datapath at exactly the cycles the contract gives and idle at
// every interval end, the CM-CPU limit a legal step, the central totals
// bounded; the FORMAL-only ones in cm_bal_monitor.sv).
module cm_bal_monitor_fv #(
  parameter int P        = 2,
  parameter int C        = 3,
  parameter int NSCHED   = 1,
  parameter int MAXW     = 48,
  parameter int INTERVAL = 8,
  parameter int NLVL     = 9,
  parameter int EXPLORE_N = 4,
  localparam int STW = $clog2(P * INTERVAL),
  localparam int SGW = $clog2(NSCHED * INTERVAL),
  localparam int KW  = SGW + 1,
  localparam int LW  = $clog2(MAXW + 1),
  localparam int LIW = $clog2(NLVL),
  localparam int XW  = $clog2(EXPLORE_N),
  localparam int CIW = (C > 1) ? $clog2(C) : 1,
  localparam int SW  = $clog2(P * INTERVAL + 1)
) (
  input logic                clk_i,
  input logic                rst_ni,
  input logic [P-1:0]        stall_mc_i,
  input logic [P-1:0]        stall_net_i,
  input logic [C*NSCHED-1:0] issue_stall_i,
  input logic [C-1:0]        kstart_i,
  input logic [C-1:0]        kend_i,
  input logic [1:0]          mode_i,
  input logic [LW-1:0]       static_i,
  input logic [KW-1:0]       k_i,
  input logic [CIW-1:0]      rd_core_i,
  input logic [LIW-1:0]      rd_entry_i,
  input logic [CIW-1:0]      f_core_i      // the solver picks the core whose levels are followed
);
  logic            interval_o;
  logic [1:0]      decision_o;
  logic [LW-1:0]   cpu_limit_o, rd_limit_o;
  logic [STW-1:0]  stall_mc_o, stall_net_o;
  logic [LIW-1:0]  rd_level_o;
  logic [XW-1:0]   rd_stay_o;
  logic [NLVL-1:0] rd_valid_o;
  logic [SGW-1:0]  rd_avg_o;
  logic [2:0]      rd_why_o;
  cm_bal_monitor #(.P(P), .C(C), .NSCHED(NSCHED), .MAXW(MAXW), .INTERVAL(INTERVAL), .NLVL(NLVL),
                   .EXPLORE_N(EXPLORE_N), .FINE(8), .TH_Q4(4), .TL_Q4(1)) dut (.*);

  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb if (f_init_q) assume (!rst_ni);

  // cycles since the reset, modulo INTERVAL, and whether an interval ended;
  // the stall bits counted over the running interval and the last whole one
  localparam int NW = $clog2(INTERVAL);
  localparam logic [STW-1:0] STMAX = '1;
  function automatic logic [STW-1:0] sat(input logic [SW-1:0] x);
    sat = (32'(x) > 32'(STMAX)) ? STMAX : STW'(x);
  endfunction
  logic [NW-1:0] f_n_q;
  logic          f_ended_q, f_rd_ok_q;
  logic [SW-1:0] f_mc_q, f_net_q, f_mc, f_net, f_mc_last_q, f_net_last_q;
  assign f_mc  = f_mc_q  + SW'($countones(stall_mc_i));
  assign f_net = f_net_q + SW'($countones(stall_net_i));
  always_ff @(posedge clk_i) begin
    f_rd_ok_q <= rst_ni && 32'(rd_core_i) < C;
    if (!rst_ni) begin
      f_n_q        <= '0;
      f_ended_q    <= 1'b0;
      f_mc_q       <= '0;
      f_net_q      <= '0;
      f_mc_last_q  <= '0;
      f_net_last_q <= '0;
    end else begin
      f_n_q     <= (32'(f_n_q) == INTERVAL - 1) ? '0 : f_n_q + 1'b1;
      f_ended_q <= f_ended_q || (32'(f_n_q) == INTERVAL - 1);
      if (32'(f_n_q) == INTERVAL - 1) begin
        f_mc_q       <= '0;
        f_net_q      <= '0;
        f_mc_last_q  <= f_mc;
        f_net_last_q <= f_net;
      end else begin
        f_mc_q  <= f_mc;
        f_net_q <= f_net;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
      interval_every_interval_cycles: assert (interval_o == (f_ended_q && f_n_q == '0));
      stall_mc_is_last_interval: assert (stall_mc_o == sat(f_mc_last_q));
      stall_net_is_last_interval: assert (stall_net_o == sat(f_net_last_q));
      interval_sums_bounded: assert (32'(f_mc_q) <= P * 32'(f_n_q) && 32'(f_net_q) <= P * 32'(f_n_q));
      cpu_limit_in_range: assert (cpu_limit_o >= LW'(1) && cpu_limit_o <= LW'(MAXW));
      decision_legal: assert (decision_o != 2'd3);
      rd_level_in_table: assert (32'(rd_level_o) < NLVL);
      rd_stay_in_range: assert (32'(rd_stay_o) < EXPLORE_N);
      rd_why_legal: assert (rd_why_o != 3'd7);
      rd_limit_in_range: assert (!f_rd_ok_q || (rd_limit_o >= LW'(1) && rd_limit_o <= LW'(MAXW)));
      rd_past_end_reads_zero: assert (f_rd_ok_q || (rd_limit_o == '0 && rd_level_o == '0 && rd_stay_o == '0 &&
                                                     rd_valid_o == '0 && rd_why_o == '0 && rd_avg_o == '0));
      rd_avg_only_valid: assert (rd_avg_o == '0 || rd_valid_o != '0);
    end
  end
  // The CM-CPU limit's moves (written from the rule, not from the
  // RTL's step functions): CM 4.1 lowers the GPU's concurrency when the
  // memory or the network is congested (stallMC or stallnet above tH) and
  // raises it when both are below tL, one decision per interval, between 1
  // warp and the core's 48 (CM Sec. 5, Table I: "at most 48 warps running
  // concurrently"); the step is the project's reading (docs/CM_BAL.md,
  // cm_cpu_central.sv): 2 warps above FINE = 8, 1 at or below, clamped to
  // [1, MAXW].  Outside CM-CPU the limit is MAXW.  So the limit after an
  // edge is the one before it, moved by at most the decision's step and only
  // in the cycle after an interval end (interval_o), in the decision's
  // direction (decision_o).
  localparam int F_FINE = 8;
  function automatic logic [LW-1:0] f_dn(input logic [LW-1:0] l);
    f_dn = (32'(l) > F_FINE) ? l - LW'(2) : (l > LW'(1)) ? l - LW'(1) : l;
  endfunction
  function automatic logic [LW-1:0] f_up(input logic [LW-1:0] l);
    f_up = (32'(l) < F_FINE) ? l + LW'(1) : (32'(l) + 2 > MAXW) ? LW'(MAXW) : l + LW'(2);
  endfunction
  logic [LW-1:0] f_lim_q;
  logic          f_cpu_q, f_lv_q;
  always_ff @(posedge clk_i) begin
    f_lim_q <= cpu_limit_o;
    f_cpu_q <= mode_i == 2'd2;  // CM_MODE_CPU
    f_lv_q  <= rst_ni && !f_init_q;
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni && f_lv_q) begin
      cpu_limit_maxw_outside_cpu: assert (f_cpu_q || cpu_limit_o == LW'(MAXW));
      cpu_limit_moves_by_steps: assert (!f_cpu_q || cpu_limit_o ==
                                        ((interval_o && decision_o == 2'd1) ? f_dn(f_lim_q) :
                                         (interval_o && decision_o == 2'd2) ? f_up(f_lim_q) : f_lim_q));
    end
  end
  // The decision itself (CM 4.1): "If either of these metrics is high, the
  // memory subsystem is assumed to be congested ... we reduce the level of
  // concurrency ... If both metrics are low, we increase TLP ... Otherwise,
  // we keep the active warp limit unchanged", with the thresholds of CM
  // Sec. 5 ("We use 1 and 0.25 for tH and tL"), in stalled partitions per
  // cycle, so over an interval: high is at or above tH x INTERVAL stall
  // bits, low below tL x INTERVAL (docs/CM_BAL.md).  Written from the
  // interval's sums counted here and the paper's constants, not from the
  // RTL's distance registers or its TH_CNT / TL_CNT.
  localparam int F_TH = INTERVAL, F_TL = INTERVAL / 4;
  wire [1:0] f_dec = (32'(f_mc_last_q) >= F_TH || 32'(f_net_last_q) >= F_TH) ? 2'd1 :  // DOWN
                     (32'(f_mc_last_q) < F_TL && 32'(f_net_last_q) < F_TL)   ? 2'd2 :  // UP
                                                                               2'd0;   // HOLD
  always_ff @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
      decision_from_thresholds: assert (!interval_o || decision_o == f_dec);
    end
  end

  // CM-BAL's levels (CM 4.2): "our algorithm changes the TLP level not with
  // fixed steps, but using predetermined levels: 1, 2, 3, 4, 6, 8, 16, 24,
  // and 48 warps"; Part-1 moves one level, Part-2 "increases concurrency to
  // the next level" or keeps it, the exploration moves to a neighbouring
  // level.  So in CM-BAL a core's limit is one of these levels (within [1,
  // 48]) and one decision moves it by at most one level.  Followed for one
  // core f_c_q (f_core_i at the reset) at the interval ends at which the
  // solver selects it on the read port (its level of the interval-end cycle
  // E shows at E + 1); its decision is committed at the edge ending cycle
  // E + 5 + c (f_n_q = 4 + c) and shows on the read port from a selection at
  // f_n_q >= 5 + c up to the next interval end.  Nothing is assumed: the
  // solver may follow the core or not.  (The Part-2 compares themselves are
  // proved on the decision datapath, formal/cm_bal_decide_fv.sv.)
  // The interval count (CM 4.2: "if the algorithm stays in the same
  // concurrency level for 4 consecutive intervals, we increase or decrease
  // TLP if the current concurrency level is less than 6 or greater than or
  // equal to 6, respectively"), for the same core and decisions, when no
  // kernel boundary of the core came since the interval end (one restarts
  // the count): the stay count read after the commit is the one of the
  // interval end + 1 if the level stayed, else 0
  // (cmbal_stay_counts_intervals), so it cannot stay a 4th time; and an
  // exploration (why XUP / XDOWN) comes only after EXPLORE_N - 1 intervals
  // at the level and this one, one level up below 6 warps, else one down
  // (cmbal_explore_after_n).
  localparam int F_TOP = NLVL - 1;
  localparam logic [NLVL*8-1:0] F_LEVELS = {8'd48, 8'd24, 8'd16, 8'd8, 8'd6, 8'd4, 8'd3, 8'd2, 8'd1};
  wire             f_end = rst_ni && 32'(f_n_q) == INTERVAL - 1;  // an interval's last cycle (E)
  logic [CIW-1:0]  f_c_q;
  logic            f_post_q, f_e_sel_q, f_x_s_q, f_allbal_q, f_chks_q, f_bal1_q, f_bal2_q;
  logic [LIW-1:0]  f_x_lvl_q, f_chk_lvl_q;
  logic [XW-1:0]   f_x_stay_q, f_chk_stay_q;
  logic            f_nokb_q, f_chk_nokb_q;  // no kernel boundary of the core since the interval end
  wire             f_kb_c = (kstart_i[f_c_q] || kend_i[f_c_q]) && 32'(f_c_q) < C;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) f_c_q <= f_core_i;
    f_post_q <= f_end;
    if (f_end) f_e_sel_q <= rd_core_i == f_c_q && 32'(f_c_q) < C && mode_i == 2'd3;
    // CM-BAL in every cycle since the last interval end
    f_allbal_q <= (f_end || f_allbal_q) && mode_i == 2'd3;
    if (!rst_ni) f_x_s_q <= 1'b0;
    else if (f_post_q) begin
      f_x_s_q    <= f_e_sel_q;
      f_x_lvl_q  <= rd_level_o;
      f_x_stay_q <= rd_stay_o;
    end
    f_nokb_q     <= (f_end || f_nokb_q) && !f_kb_c;
    f_chks_q    <= rst_ni && f_x_s_q && f_allbal_q && rd_core_i == f_c_q && 32'(f_n_q) >= 5 + 32'(f_c_q);
    f_chk_lvl_q <= f_x_lvl_q;
    f_chk_stay_q <= f_x_stay_q;
    f_chk_nokb_q <= f_nokb_q && !f_kb_c;
    f_bal1_q    <= rst_ni && mode_i == 2'd3;
    f_bal2_q    <= f_bal1_q;
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
      cmbal_level_one_step: assert (!f_chks_q || 32'(rd_level_o) == 32'(f_chk_lvl_q) ||
                                    32'(rd_level_o) == 32'(f_chk_lvl_q) + 1 || 32'(rd_level_o) + 1 == 32'(f_chk_lvl_q));
      cmbal_stay_counts_intervals: assert (!(f_chks_q && f_chk_nokb_q) ||
                                           32'(rd_stay_o) == ((rd_level_o == f_chk_lvl_q) ? 32'(f_chk_stay_q) + 1 : 0));
      cmbal_explore_after_n: assert (!(f_chks_q && f_chk_nokb_q && (rd_why_o == 3'd5 || rd_why_o == 3'd6)) ||
                                     (32'(f_chk_stay_q) + 1 == EXPLORE_N &&
                                      ((32'(F_LEVELS[8*f_chk_lvl_q +: 8]) < 6 && 32'(f_chk_lvl_q) < F_TOP) ?
                                         (rd_why_o == 3'd5 && 32'(rd_level_o) == 32'(f_chk_lvl_q) + 1) :
                                         (rd_why_o == 3'd6 && 32'(rd_level_o) + 1 == 32'(f_chk_lvl_q)))));
      // the limit read (mode of two cycles before, level of the cycle before)
      cmbal_limit_is_a_level: assert (!f_bal2_q || !f_rd_ok_q ||
                                      (32'(rd_level_o) <= F_TOP && rd_limit_o == LW'(F_LEVELS[8*rd_level_o +: 8])));
    end
  end
endmodule
