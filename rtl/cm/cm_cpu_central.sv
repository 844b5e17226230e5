// CM stall monitor: central CM-CPU logic beside the CTA scheduler (CM Sec. 4.1,
// Fig. 11 item 5; Sec. 5 Mechanism Thresholds and Hardware Overhead).
//
// Owns the interval counter and the interval's stallMC and stallnet: the
// partitions' stall cycles summed over the interval (= INTERVAL x stalls per
// cycle, 0..P x INTERVAL).  The paper counts per partition (Fig. 11 items 3,
// 4) and adds the P counters at the interval end; here every partition's
// stall bit of a cycle is added as it arrives (one P-input population count
// into a running total, issue 11: no P-way adder tree in the interval-end
// cycle), which gives the same sums, since a partition's count never
// saturates within an interval.  At the last cycle of every interval it
// them with INTERVAL*tH and INTERVAL*tL in integer arithmetic (thresholds are
// given in quarters of a stall per cycle: TH_Q4 = 4 -> tH = 1, TL_Q4 = 1 ->
// tL = 0.25):
//   high: metric >= tH;  low: metric < tL;  medium otherwise.
//   either metric high -> DOWN;  both low -> UP;  else HOLD.
// CM-CPU limit (Sec. 4.1): above FINE warps steps of 2, at or below FINE steps
// of 1: down 48,46,..,10,8,7,..,1; up 1,..,7,8,10,..,48.  Outside CM-CPU mode
// the limit rests at MAXW so that entering the mode starts at full TLP.
module cm_cpu_central #(
  parameter int P        = 8,
  parameter int INTERVAL = 1024,
  parameter int TH_Q4    = 4,
  parameter int TL_Q4    = 1,
  parameter int MAXW     = 48,
  parameter int FINE     = 8,
  localparam int CW   = $clog2(INTERVAL),
  localparam int SW   = $clog2(P * INTERVAL + 1),    // exact sum width
  localparam int STW  = $clog2(P * INTERVAL),        // stored statistics (saturating)
  localparam int LW   = $clog2(MAXW + 1)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [P-1:0]      stall_mc_i,   // per partition: a stallMC cycle (Sec. 4.1)
  input  logic [P-1:0]      stall_net_i,  // per partition: a stallnet cycle
  input  logic [1:0]        mode_i,
  output logic              end_o,    // last cycle of the interval
  output logic [LW-1:0]     lim_q_o,
  output logic [1:0]        dec_q_o,  // last decision
  output logic [STW-1:0]    stall_mc_q_o,
  output logic [STW-1:0]    stall_net_q_o
);
  localparam logic [1:0] MODE_CPU = 2'd2;
  localparam logic [1:0] DEC_HOLD = 2'd0, DEC_DOWN = 2'd1, DEC_UP = 2'd2;
  localparam logic [SW-1:0] TH_CNT = SW'(INTERVAL * TH_Q4 / 4);
  localparam logic [SW-1:0] TL_CNT = SW'(INTERVAL * TL_Q4 / 4);
  localparam logic [CW-1:0] LAST   = CW'(INTERVAL - 1);
  localparam logic [LW-1:0] MAXL   = LW'(MAXW);
  localparam logic [LW-1:0] FINEL  = LW'(FINE);
  localparam logic [STW-1:0] STMAX = '1;

  logic [CW-1:0]  cnt_q;
  logic [LW-1:0]  lim_q, lim_d;
  logic [1:0]     dec_q, dec_d;
  logic [STW-1:0] smc_q, snet_q;
  logic [SW-1:0]  tot_mc_q, tot_net_q;   // the interval's sums before this cycle
  logic [SW-1:0]  sum_mc, sum_net;        // ... with this cycle's stalls
  logic           mc_hi, net_hi, both_lo;

  // The threshold compares without the sum's carry chain in front of them
  // (issue 11: timing): the distances of the running totals from tH and tL,
  // clipped at P + 1, are kept in registers (rem_*_q), so that
  //   sum >= tH  <=>  pop >= min(tH - tot, P + 1)   (0 once tot >= tH)
  //   sum <  tL  <=>  pop <  min(tL - tot, P + 1)   (0 once tot >= tL)
  // with pop (<= P) this cycle's stall bits; the same decisions as comparing
  // the sums.
  localparam int RMW = $clog2(P + 2);
  localparam logic [RMW-1:0] RMAX = RMW'(P + 1);
  function automatic logic [RMW-1:0] gap_of(input logic [SW-1:0] thr, input logic [SW-1:0] tot);
    if (tot >= thr) gap_of = '0;
    else if (thr - tot > SW'(P)) gap_of = RMAX;
    else gap_of = RMW'(thr - tot);
  endfunction
  localparam logic [RMW-1:0] RH0 = gap_of(TH_CNT, SW'(0)), RL0 = gap_of(TL_CNT, SW'(0));

  logic [RMW-1:0] rh_mc_q, rh_net_q, rl_mc_q, rl_net_q;  // distances of tot_*_q
  logic [RMW-1:0] pop_mc, pop_net;

  assign pop_mc  = RMW'($countones(stall_mc_i));
  assign pop_net = RMW'($countones(stall_net_i));
  assign sum_mc  = tot_mc_q  + SW'(pop_mc);
  assign sum_net = tot_net_q + SW'(pop_net);

  assign end_o   = (cnt_q == LAST);
  assign mc_hi   = (pop_mc  >= rh_mc_q);
  assign net_hi  = (pop_net >= rh_net_q);
  assign both_lo = (pop_mc < rl_mc_q) && (pop_net < rl_net_q);
  assign dec_d   = (mc_hi || net_hi) ? DEC_DOWN : (both_lo ? DEC_UP : DEC_HOLD);

  always_comb begin
    lim_d = lim_q;
    if (mode_i != MODE_CPU) begin
      lim_d = MAXL;
    end else if (end_o) begin
      if (dec_d == DEC_DOWN) begin
        if (lim_q > FINEL) lim_d = lim_q - LW'(2);
        else if (lim_q > LW'(1)) lim_d = lim_q - LW'(1);
      end else if (dec_d == DEC_UP) begin
        if (lim_q < FINEL) lim_d = lim_q + LW'(1);
        else if (lim_q + LW'(2) > MAXL) lim_d = MAXL;
        else lim_d = lim_q + LW'(2);
      end
    end
  end

  // Statistics registers of STW bits (13 as in the paper): when P x INTERVAL
  // is a power of two, that value itself (every partition stalled every
  // cycle) saturates to 2^STW - 1; otherwise every sum fits.
  logic [STW-1:0] smc_st, snet_st;
  if (SW > STW) begin : g_sat
    assign smc_st  = (sum_mc  > SW'(STMAX)) ? STMAX : STW'(sum_mc);
    assign snet_st = (sum_net > SW'(STMAX)) ? STMAX : STW'(sum_net);
  end else begin : g_fit
    assign smc_st  = STW'(sum_mc);
    assign snet_st = STW'(sum_net);
  end

  assign lim_q_o       = lim_q;
  assign dec_q_o       = dec_q;
  assign stall_mc_q_o  = smc_q;
  assign stall_net_q_o = snet_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cnt_q     <= '0;
      tot_mc_q  <= '0;
      tot_net_q <= '0;
      rh_mc_q   <= RH0;
      rh_net_q  <= RH0;
      rl_mc_q   <= RL0;
      rl_net_q  <= RL0;
      lim_q  <= MAXL;
      dec_q  <= DEC_HOLD;
      smc_q  <= '0;
      snet_q <= '0;
    end else begin
      cnt_q     <= end_o ? '0 : cnt_q + 1'b1;
      tot_mc_q  <= end_o ? '0 : sum_mc;
      tot_net_q <= end_o ? '0 : sum_net;
      rh_mc_q   <= end_o ? RH0 : gap_of(TH_CNT, sum_mc);
      rh_net_q  <= end_o ? RH0 : gap_of(TH_CNT, sum_net);
      rl_mc_q   <= end_o ? RL0 : gap_of(TL_CNT, sum_mc);
      rl_net_q  <= end_o ? RL0 : gap_of(TL_CNT, sum_net);
      lim_q <= lim_d;
      if (end_o) begin
        dec_q  <= dec_d;
        smc_q  <= smc_st;
        snet_q <= snet_st;
      end
    end
  end

  // The CM-CPU limit is always a legal CM-CPU value: 1..FINE, or a step of 2
  // above FINE (or MAXW itself); steps of 2 down from MAXW reach the values of
  // MAXW's parity, steps up from FINE those of FINE's.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (lim_q >= LW'(1) && lim_q <= MAXL);
      // before the interval's last cycle, at most P stalls per elapsed cycle
      assert (32'(tot_mc_q) <= P * 32'(cnt_q) && 32'(tot_net_q) <= P * 32'(cnt_q));
      assert (lim_q <= FINEL || lim_q[0] == FINEL[0] || lim_q[0] == MAXL[0]);
      // the distance registers are those of the running totals
      assert (rh_mc_q == gap_of(TH_CNT, tot_mc_q) && rh_net_q == gap_of(TH_CNT, tot_net_q) &&
              rl_mc_q == gap_of(TL_CNT, tot_mc_q) && rl_net_q == gap_of(TL_CNT, tot_net_q));
    end
  end
endmodule
