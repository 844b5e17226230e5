// CM stall monitor: per-GPU-core CM-BAL logic and stallGPU table (CM Sec. 4.2,
// Fig. 11 items 6-13, Fig. 12; Sec. 5 Mechanism Parameters, Hardware Overhead).
//
// stallGPU (Sec. 4.2 and footnote 9) -- our reading: issue_stall_i has one
// bit per warp scheduler, set by the core in every cycle in which that
// scheduler cannot issue, i.e. no ready warp has passed the scoreboard check
// (item 6) OR the pipeline register of the next stage is full (item 7; the
// footnote's causes: instruction latencies, write-back contention, shared
// memory bank conflicts, coalescing stalls).  Both are "could not issue"
// cycles; the counter adds the set bits, so stallGPU is 0..NSCHED x INTERVAL.
//
// Storage: stallGPU counter SGW bits (11 for 2 x 1024; it holds cycles
// 0..INTERVAL-2, at most 2046), table NLVL x SGW (9 x 11 = 99 bits, the
// paper's footnote 13), NLVL valid bits, level index, 2-bit stay counter,
// the limit register (6 bits), a 3-bit "why" code for observability.
// The interval sample (0..2048) is clamped to 2047 for the 11-bit table.
//
// Moving average (Sec. 4.2): new = 0.25 old + 0.75 sample
//   = floor((old + 3 sample) / 4)  (shift/add; result <= 2047, fits SGW bits).
//   An invalid entry takes the sample as is.
// At every interval end in CM-BAL mode (dec_i from the central CM-CPU logic):
//   Part-1: DOWN -> one level lower, UP -> one level higher, HOLD -> stay.
//   Part-2 (compares the updated average of the current level, cur, with the
//   neighbours; an invalid neighbour means no override, footnote 11):
//     upper valid and cur - avg[up] > k           -> go up (overrides Part-1);
//     else Part-1 says DOWN, lower valid and
//          avg[low] - cur > k                      -> stay (refuse to lower);
//     then, if the result is "stay" and this was the 4th (EXPLORE_N) interval
//     in a row at this level: move one level, up if LEVELS[lvl] < EXPLORE_WARPS
//     (6), down otherwise, to refresh the neighbour's average.
// kstart_i / kend_i invalidate every entry and clear the stay counter; an
// interval that ends in the same cycle does not update the table, Part-2 does
// not override (no valid neighbour) and exploration does not fire.
// Outside CM-BAL mode the level rests at the top (MAXW) and the table is not
// updated.
module cm_bal_core #(
  parameter int NSCHED   = 2,
  parameter int INTERVAL = 1024,
  parameter int MAXW     = 48,
  parameter int NLVL     = 9,
  parameter logic [NLVL*8-1:0] LEVELS = {8'd48, 8'd24, 8'd16, 8'd8, 8'd6, 8'd4, 8'd3, 8'd2, 8'd1},
  parameter int EXPLORE_WARPS = 6,
  parameter int EXPLORE_N     = 4,
  localparam int SGW = $clog2(NSCHED * INTERVAL),
  localparam int KW  = SGW + 1,
  localparam int LW  = $clog2(MAXW + 1),
  localparam int LIW = $clog2(NLVL),
  localparam int XW  = $clog2(EXPLORE_N)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [NSCHED-1:0]  issue_stall_i,  // per scheduler: could not issue this cycle
  input  logic               kstart_i,
  input  logic               kend_i,
  input  logic               end_i,          // last cycle of the interval
  input  logic [1:0]         dec_i,          // central decision (valid with end_i)
  input  logic [1:0]         mode_i,
  input  logic [LW-1:0]      static_i,
  input  logic [KW-1:0]      k_i,
  input  logic [LW-1:0]      cpu_lim_d_i,    // CM-CPU limit after this edge
  output logic [LW-1:0]      limit_o,        // registered active-warp limit
  output logic [LIW-1:0]     lvl_o,
  output logic [XW-1:0]      stay_o,
  output logic [NLVL-1:0]    valid_o,
  output logic [NLVL*SGW-1:0] avg_o,
  output logic [2:0]         why_o
);
  localparam logic [1:0] MODE_OFF = 2'd0, MODE_STATIC = 2'd1, MODE_CPU = 2'd2, MODE_BAL = 2'd3;
  localparam logic [1:0] DEC_DOWN = 2'd1, DEC_UP = 2'd2;
  localparam logic [2:0] WHY_HOLD = 3'd0, WHY_DOWN = 3'd1, WHY_UP = 3'd2, WHY_KEEP = 3'd3,
                         WHY_P2UP = 3'd4, WHY_XUP = 3'd5, WHY_XDOWN = 3'd6;
  localparam logic [LIW-1:0] TOP  = LIW'(NLVL - 1);
  localparam logic [LW-1:0]  MAXL = LW'(MAXW);
  localparam logic [SGW-1:0] SMAX = '1;
  localparam int NW = XW + 1;

  logic [SGW-1:0]  cnt_q;
  logic [SGW-1:0]  ent [NLVL];  // the table entries (registers g_ent[i].avg_q)
  logic [NLVL-1:0] valid_q;
  logic [LIW-1:0]  lvl_q, lvl_d;
  logic [XW-1:0]   stay_q, stay_d;
  logic [LW-1:0]   limit_q, limit_d;
  logic [2:0]      why_q, why_d;

  logic [$clog2(NSCHED+1)-1:0] pop;
  logic [SGW:0]    sample_full;
  logic [SGW-1:0]  sample, cur, avg_lo, avg_up;
  logic [SGW+1:0]  mix;
  logic            bal, kb, upd, has_lo, has_up, p2_up, p2_keep;
  logic [LIW-1:0]  p1, tgt;
  logic [NW-1:0]   nstay;

  logic [LW-1:0]   cur_warps, bal_warps;
  assign cur_warps = LEVELS[8*lvl_q +: LW];
  assign bal_warps = LEVELS[8*lvl_d +: LW];

  assign pop = $bits(pop)'($countones(issue_stall_i));

  assign sample_full = {1'b0, cnt_q} + (SGW+1)'(pop);
  assign sample      = sample_full[SGW] ? SMAX : sample_full[SGW-1:0];
  assign bal         = (mode_i == MODE_BAL);
  assign kb          = kstart_i || kend_i;
  assign upd         = bal && end_i && !kb;
  assign mix         = (SGW+2)'(ent[lvl_q]) + (SGW+2)'(sample) + ((SGW+2)'(sample) << 1);
  assign cur         = valid_q[lvl_q] ? SGW'(mix >> 2) : sample;
  assign has_lo      = !kb && (lvl_q != '0) && valid_q[lvl_q - 1'b1];
  assign has_up      = !kb && (lvl_q != TOP) && valid_q[lvl_q + 1'b1];
  assign avg_lo      = (lvl_q != '0) ? ent[lvl_q - 1'b1] : '0;
  assign avg_up      = (lvl_q != TOP) ? ent[lvl_q + 1'b1] : '0;
  // diff_up = cur - avg[up] > k ; diff_low = avg[low] - cur > k (Sec. 6, Fig. 14)
  assign p2_up       = has_up && ((SGW+2)'(cur) > (SGW+2)'(avg_up) + (SGW+2)'(k_i));
  assign p2_keep     = has_lo && ((SGW+2)'(avg_lo) > (SGW+2)'(cur) + (SGW+2)'(k_i));
  assign nstay       = kb ? NW'(1) : NW'(stay_q) + 1'b1;  // a kernel boundary restarts the count

  always_comb begin
    p1 = lvl_q;
    if (dec_i == DEC_DOWN && lvl_q != '0) p1 = lvl_q - 1'b1;
    else if (dec_i == DEC_UP && lvl_q != TOP) p1 = lvl_q + 1'b1;

    tgt    = p1;
    why_d  = why_q;
    stay_d = stay_q;
    lvl_d  = lvl_q;
    if (!bal) begin
      lvl_d  = TOP;
      stay_d = '0;
    end else if (end_i) begin
      if (p2_up) begin
        tgt = lvl_q + 1'b1;
        why_d = WHY_P2UP;
      end else if (dec_i == DEC_DOWN && p1 != lvl_q && p2_keep) begin
        tgt = lvl_q;
        why_d = WHY_KEEP;
      end else begin
        why_d = (p1 == lvl_q) ? WHY_HOLD : ((p1 < lvl_q) ? WHY_DOWN : WHY_UP);
      end
      if (tgt == lvl_q && nstay == NW'(EXPLORE_N)) begin
        if (32'(cur_warps) < EXPLORE_WARPS && lvl_q != TOP) begin
          tgt = lvl_q + 1'b1;
          why_d = WHY_XUP;
        end else if (lvl_q != '0) begin
          tgt = lvl_q - 1'b1;
          why_d = WHY_XDOWN;
        end
      end
      stay_d = (tgt == lvl_q && nstay != NW'(EXPLORE_N)) ? XW'(nstay) : '0;
      lvl_d  = tgt;
    end
    if (kb) stay_d = '0;
  end

  always_comb begin
    case (mode_i)
      MODE_OFF:    limit_d = MAXL;
      MODE_STATIC: limit_d = (static_i == '0) ? LW'(1) : ((static_i > MAXL) ? MAXL : static_i);
      MODE_CPU:    limit_d = cpu_lim_d_i;
      default:     limit_d = bal_warps;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cnt_q   <= '0;
      valid_q <= '0;
      lvl_q   <= TOP;
      stay_q  <= '0;
      limit_q <= MAXL;
      why_q   <= WHY_HOLD;
    end else begin
      cnt_q   <= end_i ? '0 : ((sample_full[SGW]) ? SMAX : sample_full[SGW-1:0]);
      lvl_q   <= lvl_d;
      stay_q  <= stay_d;
      limit_q <= limit_d;
      why_q   <= why_d;
      if (kb) valid_q <= '0;
      else if (upd) valid_q[lvl_q] <= 1'b1;
    end
  end

  // Table storage without reset (entries are qualified by valid_q): one
  // register per entry, so synthesis sees 9 x SGW flops, not a memory.
  for (genvar i = 0; i < NLVL; i++) begin : g_ent
    logic [SGW-1:0] avg_q;
    always_ff @(posedge clk_i) begin
      if (rst_ni && upd && lvl_q == LIW'(i)) avg_q <= cur; // no write while in reset
    end
    assign ent[i] = avg_q;
    assign avg_o[i*SGW +: SGW] = avg_q;
  end

  assign limit_o = limit_q;
  assign lvl_o   = lvl_q;
  assign stay_o  = stay_q;
  assign valid_o = valid_q;
  assign why_o   = why_q;

  // Immediate assertions: legal limit and level, counters never wrap.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (lvl_q <= TOP);
      assert (limit_q >= LW'(1) && limit_q <= MAXL);
      assert (32'(stay_q) < EXPLORE_N);
      // stallGPU counter: the in-interval count never reaches the clamp
      assert (end_i || !sample_full[SGW]);
      // the value written this edge is legal for the selected mode
      if (mode_i == MODE_OFF) assert (limit_d == MAXL);
      if (mode_i == MODE_BAL) assert (lvl_d <= TOP && limit_d == bal_warps);
      if (mode_i == MODE_CPU) assert (limit_d >= LW'(1) && limit_d <= MAXL);
    end
  end
endmodule
