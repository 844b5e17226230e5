// CM stall monitor: central CM-CPU logic beside the CTA scheduler (CM Sec. 4.1,
// Fig. 11 item 5; Sec. 5 Mechanism Thresholds and Hardware Overhead).
//
// Owns the interval counter and the interval's stallMC and stallnet: the
// partitions' stall cycles summed over the interval (= INTERVAL x stalls per
// cycle, 0..P x INTERVAL).  The paper counts per partition (Fig. 11 items 3,
// 4) and adds the P counters at the interval end; here every partition's
// stall bit of a cycle is added as it arrives (one P-input population count
// into a running total: no P-way adder tree in the interval-end
// cycle), which gives the same sums, since a partition's count never
// saturates within an interval.  At the last cycle of every interval it compares
// them with INTERVAL*tH and INTERVAL*tL in integer arithmetic (thresholds are
// given in quarters of a stall per cycle: TH_Q4 = 4 -> tH = 1, TL_Q4 = 1 ->
// tL = 0.25):
//   high: metric >= tH;  low: metric < tL;  medium otherwise.
//   either metric high -> DOWN;  both low -> UP;  else HOLD.
// CM-CPU limit (Sec. 4.1): above FINE warps steps of 2, at or below FINE steps
// of 1: down 48,46,..,10,8,7,..,1; up 1,..,7,8,10,..,48.  Outside CM-CPU mode
// the limit rests at MAXW so that entering the mode starts at full TLP.
//
// RTL style (docs/RTL_STYLE.md): the mode and the decision are the typed
// enums of cm_pkg (rtl/cm/cm_enc.toml); named assertions (fg_assert.svh);
// the parameters the C twin refuses stop elaboration here too.
`include "fg_assert.svh"
`include "fg_enum.svh"
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
  output logic [LW-1:0]     lim_o,    // the CM-CPU limit: a function of registers (below), no flip-flop of its own
  output logic [1:0]        dec_q_o,  // last decision
  output logic [STW-1:0]    stall_mc_q_o,
  output logic [STW-1:0]    stall_net_q_o
`ifdef FORMAL
  ,  // the interval counter, for the block's proof (formal/cm_bal_monitor_fv.sv)
  output logic [CW-1:0]     f_cnt_o
`endif
);
  `FG_IMPORT(cm_pkg)
  // the C twin's refusals (sim/twin/cm_bal_monitor.c, params_ok)
  `FG_ASSERT_PARAM(g_chk_p, P >= 1 && P <= 64, "cm_cpu_central: P must be 1..64")
  `FG_ASSERT_PARAM(g_chk_interval, INTERVAL >= 2, "cm_cpu_central: INTERVAL must be >= 2")
  `FG_ASSERT_PARAM(g_chk_maxw, MAXW >= 1 && MAXW <= 255 && MAXW + 2 < 2 ** LW,
                   "cm_cpu_central: MAXW must be 1..255 and MAXW + 2 fit its width")
  `FG_ASSERT_PARAM(g_chk_fine, FINE >= 1 && FINE <= MAXW, "cm_cpu_central: FINE must be 1..MAXW")
  `FG_ASSERT_PARAM(g_chk_thr, TL_Q4 >= 0 && TL_Q4 <= TH_Q4 && TH_Q4 <= 4 * P,
                   "cm_cpu_central: thresholds must be 0 <= TL_Q4 <= TH_Q4 <= 4 x P")
  localparam logic [SW-1:0] TH_CNT = SW'(INTERVAL * TH_Q4 / 4);
  localparam logic [SW-1:0] TL_CNT = SW'(INTERVAL * TL_Q4 / 4);
  localparam logic [CW-1:0] LAST   = CW'(INTERVAL - 1);
  localparam logic [LW-1:0] MAXL   = LW'(MAXW);
  localparam logic [LW-1:0] FINEL  = LW'(FINE);
  localparam logic [STW-1:0] STMAX = '1;

  logic [CW-1:0]  cnt_q;
  logic [LW-1:0]  lim;
  `FG_ENUM(cm_pkg, cm_dec_e) dec_q;
  logic           dec_dn_q, dec_up_q;  // the last interval end's decision bits (below)
  logic [STW-1:0] smc_q, snet_q;
  logic [SW-1:0]  tot_mc_q, tot_net_q;   // the interval's sums before this cycle
  logic [SW-1:0]  sum_mc, sum_net;        // ... with this cycle's stalls
  logic           mc_hi, net_hi, both_lo;

  // The threshold compares without the sum's carry chain in front of them
  // (timing).  Registers hold the distances of the running totals
  // from tH and tL (dh = tH - tot, dl = tL - tot, signed), counted down by
  // each cycle's stall bits (one carry chain each), so that
  //   sum >= tH  <=>  pop >= dh      sum < tL  <=>  pop < dl
  // with pop (0..P) this cycle's count of stall bits.  Beside each distance a
  // flag register, "far", says which of two ranges it lies in: set, the
  // distance is above P (no count reaches it); clear, it is at most 2P (it
  // fits the low RMW + 1 bits when not negative).  The flag is the previous
  // cycle's distance compared with 2P (a constant compare of a register: no
  // port and no carry chain in front of it), which bounds this cycle's both
  // ways since a cycle takes off 0..P.  The compare is then the sign bit, the
  // flag and a match of the low bits against the count's thermometer code
  // ("at least v bits set", AND/OR logic of the stall bits: no adder, no
  // carry chain on the port's path):
  //   pop >= d  <=>  !far && (d < 0 || OR over v in 0..P of (d == v && pop >= v)).
  // (The alternatives measured, clipped distances and a compare of the
  // count, are in docs/FPGA_TIMING.md.)
  localparam int RMW = $clog2(P + 2);
  localparam int DW  = SW + 1;
  localparam logic [DW-1:0] DH0 = DW'(TH_CNT), DL0 = DW'(TL_CNT);
  localparam logic [DW-1:0] NEAR = DW'(2 * P);  // the far flag's bound
  function automatic logic far(input logic [DW-1:0] d);
    far = !d[DW-1] && d > NEAR;
  endfunction
  // bit v: at least v of the P bits set (bit 0 always)
  function automatic logic [P:0] atleast(input logic [P-1:0] s);
    atleast    = '0;
    atleast[0] = 1'b1;
    for (int i = 0; i < P; i++)
      for (int v = P; v >= 1; v--) atleast[v] = atleast[v] | (atleast[v-1] & s[i]);
  endfunction
  // pop >= d, with th = atleast(the bits) and f the far flag of d
  function automatic logic pop_ge(input logic [P:0] th, input logic [DW-1:0] d, input logic f);
    logic m;
    m = 1'b0;
    for (int v = 0; v <= P; v++) m = m | (th[v] & (d[RMW:0] == (RMW+1)'(v)));
    pop_ge = !f && (d[DW-1] || m);
  endfunction

  logic [DW-1:0]  dh_mc_q, dh_net_q, dl_mc_q, dl_net_q;  // tH - tot_*_q, tL - tot_*_q (signed)
  logic           fh_mc_q, fh_net_q, fl_mc_q, fl_net_q;  // their far flags
  logic [RMW-1:0] pop_mc, pop_net;
  logic [P:0]     th_mc, th_net;

  assign pop_mc  = RMW'($countones(stall_mc_i));
  assign pop_net = RMW'($countones(stall_net_i));
  assign th_mc   = atleast(stall_mc_i);
  assign th_net  = atleast(stall_net_i);
  assign sum_mc  = tot_mc_q  + SW'(pop_mc);
  assign sum_net = tot_net_q + SW'(pop_net);

  assign end_o   = (cnt_q == LAST);
  assign mc_hi   = pop_ge(th_mc,  dh_mc_q,  fh_mc_q);
  assign net_hi  = pop_ge(th_net, dh_net_q, fh_net_q);
  assign both_lo = !pop_ge(th_mc, dl_mc_q, fl_mc_q) && !pop_ge(th_net, dl_net_q, fl_net_q);
  // The decision is registered as its two bits, each from its own compares
  // (no gate of one behind the other): both low excludes either high, since
  // tL <= tH (an assertion below), so DOWN = high, UP = both low.
  always_comb begin
    if (dec_dn_q) dec_q = cm_pkg::CM_DEC_DOWN;
    else if (dec_up_q) dec_q = cm_pkg::CM_DEC_UP;
    else dec_q = cm_pkg::CM_DEC_HOLD;
  end

  // The CM-CPU limit one step down / up from l (Sec. 4.1); the clamp at
  // MAXW compares l itself with a constant (l + 2 > MAXW: l > MAXW - 2, and
  // MAXW >= 4 by g_chk_maxw), no add before it
  localparam logic [LW-1:0] UP_CLAMP_AT = LW'(MAXW - 2);
  function automatic logic [LW-1:0] step_dn(input logic [LW-1:0] l);
    step_dn = (l > FINEL) ? l - LW'(2) : ((l > LW'(1)) ? l - LW'(1) : l);
  endfunction
  function automatic logic [LW-1:0] step_up(input logic [LW-1:0] l);
    step_up = (l < FINEL) ? l + LW'(1) : ((l > UP_CLAMP_AT) ? MAXL : l + LW'(2));
  endfunction

  // The limit as the registers of the last edge give it (timing):
  // the decision of the interval-end cycle goes into dec_q and is applied
  // after the edge, to the limit before it (base_q) and its two steps
  // (dn_q, up_q, registered beside it), together with that edge's mode and
  // interval end.  The same value in every cycle as a limit register
  // updated at the edge (mode not CM-CPU: MAXW; else at the interval end a
  // step down / up by the decision), without the stall port -> decision ->
  // step -> register path.
  logic [LW-1:0] base_q, dn_q, up_q;
  logic          cpu_q, end_q;
  always_comb begin
    if (!cpu_q) lim = MAXL;
    else if (end_q && dec_q == cm_pkg::CM_DEC_DOWN) lim = dn_q;
    else if (end_q && dec_q == cm_pkg::CM_DEC_UP) lim = up_q;
    else lim = base_q;
  end

  // Statistics registers of STW bits (13 as in the paper): when P x INTERVAL
  // is a power of two, that value itself (every partition stalled every
  // cycle) saturates to 2^STW - 1; otherwise every sum fits.  (A sum is at
  // most P x INTERVAL = 2^STW there, so "above 2^STW - 1" is its bit STW.)
  logic [STW-1:0] smc_st, snet_st;
  if (SW > STW) begin : g_sat
    assign smc_st  = sum_mc[STW]  ? STMAX : STW'(sum_mc);
    assign snet_st = sum_net[STW] ? STMAX : STW'(sum_net);
  end else begin : g_fit
    assign smc_st  = STW'(sum_mc);
    assign snet_st = STW'(sum_net);
  end

  assign lim_o         = lim;
  assign dec_q_o       = dec_q;
  assign stall_mc_q_o  = smc_q;
  assign stall_net_q_o = snet_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cnt_q     <= '0;
      tot_mc_q  <= '0;
      tot_net_q <= '0;
      dh_mc_q   <= DH0;
      dh_net_q  <= DH0;
      dl_mc_q   <= DL0;
      dl_net_q  <= DL0;
      fh_mc_q   <= far(DH0);
      fh_net_q  <= far(DH0);
      fl_mc_q   <= far(DL0);
      fl_net_q  <= far(DL0);
      base_q <= MAXL;
      dn_q   <= step_dn(MAXL);
      up_q   <= step_up(MAXL);
      cpu_q  <= 1'b0;
      end_q  <= 1'b0;
      dec_dn_q <= 1'b0;
      dec_up_q <= 1'b0;
      smc_q  <= '0;
      snet_q <= '0;
    end else begin
      cnt_q     <= end_o ? '0 : cnt_q + 1'b1;
      tot_mc_q  <= end_o ? '0 : sum_mc;
      tot_net_q <= end_o ? '0 : sum_net;
      dh_mc_q   <= end_o ? DH0 : dh_mc_q  - DW'(pop_mc);
      dh_net_q  <= end_o ? DH0 : dh_net_q - DW'(pop_net);
      dl_mc_q   <= end_o ? DL0 : dl_mc_q  - DW'(pop_mc);
      dl_net_q  <= end_o ? DL0 : dl_net_q - DW'(pop_net);
      fh_mc_q   <= far(end_o ? DH0 : dh_mc_q);
      fh_net_q  <= far(end_o ? DH0 : dh_net_q);
      fl_mc_q   <= far(end_o ? DL0 : dl_mc_q);
      fl_net_q  <= far(end_o ? DL0 : dl_net_q);
      base_q <= lim;
      dn_q   <= step_dn(lim);
      up_q   <= step_up(lim);
      cpu_q  <= (mode_i == cm_pkg::CM_MODE_CPU);
      end_q  <= end_o;
      if (end_o) begin
        dec_dn_q <= mc_hi || net_hi;
        dec_up_q <= both_lo;
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
      `FG_ASSERT(cpu_limit_in_range, lim >= LW'(1) && lim <= MAXL)
      `FG_ASSERT(cpu_limit_legal_step, lim <= FINEL || lim[0] == FINEL[0] || lim[0] == MAXL[0])
      `FG_ASSERT(cpu_limit_steps_track, dn_q == step_dn(base_q) && up_q == step_up(base_q))
      `FG_ASSERT(cpu_interval_counter_in_range, 32'(cnt_q) <= INTERVAL - 1)
      // before the interval's last cycle, at most P stalls per elapsed cycle
      // (so the sums never wrap: P x INTERVAL fits SW bits)
      `FG_ASSERT(cpu_totals_bounded, 32'(tot_mc_q) <= P * 32'(cnt_q) && 32'(tot_net_q) <= P * 32'(cnt_q))
      // the distance registers are those of the running totals
      `FG_ASSERT(cpu_distances_track_totals,
                 dh_mc_q == DH0 - DW'(tot_mc_q) && dh_net_q == DH0 - DW'(tot_net_q) &&
                 dl_mc_q == DL0 - DW'(tot_mc_q) && dl_net_q == DL0 - DW'(tot_net_q))
      // a far flag: its distance above P when set, at most 2P when clear
      `FG_ASSERT(cpu_far_flags_bound_distances,
                 (fh_mc_q  ? $signed(dh_mc_q)  > $signed(DW'(P)) : $signed(dh_mc_q)  <= $signed(NEAR)) &&
                 (fh_net_q ? $signed(dh_net_q) > $signed(DW'(P)) : $signed(dh_net_q) <= $signed(NEAR)) &&
                 (fl_mc_q  ? $signed(dl_mc_q)  > $signed(DW'(P)) : $signed(dl_mc_q)  <= $signed(NEAR)) &&
                 (fl_net_q ? $signed(dl_net_q) > $signed(DW'(P)) : $signed(dl_net_q) <= $signed(NEAR)))
      `FG_ASSERT(cpu_decision_legal, dec_q != 2'd3)
      `FG_ASSERT(cpu_low_excludes_high, !(both_lo && (mc_hi || net_hi)))
    end
  end

`ifdef FORMAL
  assign f_cnt_o = cnt_q;
`endif
endmodule
