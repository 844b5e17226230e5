// CM stall monitor: the CM-BAL decision of one GPU core (CM Sec. 4.2, Fig. 11
// items 8-13, Fig. 12; Sec. 5 Mechanism Parameters), one datapath shared by
// all cores of the block, which feeds it one core per cycle after each
// interval end (issue 11).  Pipelined: a core given on in_* appears on out_*
// three edges later and is committed at the fourth edge after it was given.
//
//   stage A (registers): the core's interval-end snapshot (sample, level, stay
//            count, valid bits, kernel boundary) and its table row; 3 x sample;
//            the levels one above and one below
//   stage B (registers): the updated average of the current level (cur) and
//            the neighbours' averages with k folded in (avg[up] + k,
//            avg[low] - k), Part-1's level, the stay count + 1
//   stage C (registers): Part-2 compares and the level decision, registered
//            with the updated table row and a one-hot of the core (out_*), so
//            that the commit into the core's registers (C destinations) is a
//            stage of its own (issue 11: the compares -> decision -> commit
//            path was the block's critical path, 71.1 MHz)
//
// Moving average (Sec. 4.2): new = 0.25 old + 0.75 sample
//   = floor((old + 3 sample) / 4)  (shift/add; result <= 2047, fits SGW bits);
//   an invalid entry takes the sample as is.
// At the interval end, in CM-BAL mode (dec_i from the central CM-CPU logic):
//   Part-1: DOWN -> one level lower, UP -> one level higher, HOLD -> stay.
//   Part-2 (compares the updated average of the current level, cur, with the
//   neighbours; an invalid neighbour means no override, footnote 11):
//     upper valid and cur - avg[up] > k           -> go up (overrides Part-1);
//     else Part-1 says DOWN, lower valid and
//          avg[low] - cur > k                      -> stay (refuse to lower);
//     then, if the result is "stay" and this was the EXPLORE_N-th interval in
//     a row at this level: move one level, up if LEVELS[lvl] < EXPLORE_WARPS
//     (6), down otherwise, to refresh the neighbour's average.
// A kernel boundary in the interval-end cycle: no table update, no Part-2
// override (no valid neighbour), the stay count restarts.  Outside CM-BAL
// mode the level goes to the top, the stay count to 0 and the table is not
// updated.
module cm_bal_decide #(
  parameter int NSCHED   = 2,
  parameter int INTERVAL = 1024,
  parameter int MAXW     = 48,
  parameter int NLVL     = 9,
  parameter logic [NLVL*8-1:0] LEVELS = {8'd48, 8'd24, 8'd16, 8'd8, 8'd6, 8'd4, 8'd3, 8'd2, 8'd1},
  parameter int EXPLORE_WARPS = 6,
  parameter int EXPLORE_N     = 4,
  parameter int C             = 28,
  parameter int CIW           = 5,
  localparam int SGW = $clog2(NSCHED * INTERVAL),
  localparam int KW  = SGW + 1,
  localparam int LW  = $clog2(MAXW + 1),
  localparam int LIW = $clog2(NLVL),
  localparam int XW  = $clog2(EXPLORE_N),
  localparam int RW  = NLVL * SGW
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // the core walked this cycle
  input  logic               in_v_i,
  input  logic [CIW-1:0]     in_c_i,
  input  logic [SGW-1:0]     in_sample_i,
  input  logic [LIW-1:0]     in_lvl_i,
  input  logic [XW-1:0]      in_stay_i,
  input  logic [NLVL-1:0]    in_valid_i,
  input  logic               in_kb_i,
  input  logic [RW-1:0]      in_row_i,
  // of the interval end (stable during the walk)
  input  logic               bal_i,
  input  logic [1:0]         dec_i,
  input  logic [KW-1:0]      k_i,
  // the decision (registers), committed at this edge
  output logic               out_v_o,
  output logic [C-1:0]       out_hot_o,      // out_v_o at bit out_c_o
  output logic [CIW-1:0]     out_c_o,
  output logic [LIW-1:0]     out_lvl_o,
  output logic [XW-1:0]      out_stay_o,
  output logic [NLVL-1:0]    out_valid_o,
  output logic [2:0]         out_why_o,
  output logic               out_wr_o,       // write the table row
  output logic [RW-1:0]      out_row_o
);
  localparam logic [1:0] DEC_DOWN = 2'd1, DEC_UP = 2'd2;
  localparam logic [2:0] WHY_HOLD = 3'd0, WHY_DOWN = 3'd1, WHY_UP = 3'd2, WHY_KEEP = 3'd3,
                         WHY_P2UP = 3'd4, WHY_XUP = 3'd5, WHY_XDOWN = 3'd6;
  localparam logic [LIW-1:0] TOP = LIW'(NLVL - 1);
  localparam int NW = XW + 1;
  localparam int MW = SGW + 2;  // mix, avg[up] + k
  localparam int DW = SGW + 3;  // avg[low] - k, signed

  // entry i of a table row (a mux over the entries: no index arithmetic)
  function automatic logic [SGW-1:0] ent(input logic [RW-1:0] row, input logic [LIW-1:0] i);
    ent = '0;
    for (int e = 0; e < NLVL; e++) if (i == LIW'(e)) ent = row[e*SGW +: SGW];
  endfunction

  // ---------------------------------------------------------------- stage A
  logic            a_v_q, a_kb_q;
  logic [CIW-1:0]  a_c_q;
  logic [SGW-1:0]  a_s_q;
  logic [MW-1:0]   a_s3_q;
  logic [LIW-1:0]  a_lvl_q, a_lup_q, a_llo_q;  // level, level + 1, level - 1 (mod 2^LIW)
  logic [XW-1:0]   a_stay_q;
  logic [NLVL-1:0] a_valid_q;
  logic [RW-1:0]   a_row_q;

  // ---------------------------------------------------------------- stage B
  logic [SGW-1:0] b_cur_d;
  logic [MW-1:0]  b_upk_d;
  logic [DW-1:0]  b_lok_d;
  logic           b_has_lo_d, b_has_up_d, b_xup_d;
  logic [LIW-1:0] b_p1_d;
  logic [NW-1:0]  b_nstay_d;
  always_comb begin
    logic [MW-1:0] mix;
    mix        = MW'(ent(a_row_q, a_lvl_q)) + a_s3_q;
    b_cur_d    = a_valid_q[a_lvl_q] ? SGW'(mix >> 2) : a_s_q;
    b_has_lo_d = !a_kb_q && (a_lvl_q != '0) && a_valid_q[a_llo_q];
    b_has_up_d = !a_kb_q && (a_lvl_q != TOP) && a_valid_q[a_lup_q];
    b_upk_d    = ((a_lvl_q != TOP) ? MW'(ent(a_row_q, a_lup_q)) : '0) + MW'(k_i);
    b_lok_d    = ((a_lvl_q != '0) ? DW'(ent(a_row_q, a_llo_q)) : '0) - DW'(k_i);
    b_p1_d     = a_lvl_q;
    if (dec_i == DEC_DOWN && a_lvl_q != '0) b_p1_d = a_llo_q;
    else if (dec_i == DEC_UP && a_lvl_q != TOP) b_p1_d = a_lup_q;
    b_nstay_d  = a_kb_q ? NW'(1) : NW'(a_stay_q) + 1'b1;  // a kernel boundary restarts the count
    b_xup_d    = 1'b0;  // the level has fewer than EXPLORE_WARPS warps (a constant per level)
    for (int e = 0; e < NLVL; e++)
      if (a_lvl_q == LIW'(e)) b_xup_d = (32'(LEVELS[8*e +: LW]) < EXPLORE_WARPS) && (e != NLVL - 1);
  end

  logic            b_v_q, b_kb_q, b_has_lo_q, b_has_up_q, b_xup_q;
  logic [CIW-1:0]  b_c_q;
  logic [SGW-1:0]  b_cur_q;
  logic [MW-1:0]   b_upk_q;
  logic [DW-1:0]   b_lok_q;
  logic [LIW-1:0]  b_lvl_q, b_lup_q, b_llo_q, b_p1_q;
  logic [NW-1:0]   b_nstay_q;
  logic [NLVL-1:0] b_valid_q;
  logic [RW-1:0]   b_row_q;

  // ---------------------------------------------------------------- stage C
  // diff_up = cur - avg[up] > k ; diff_low = avg[low] - cur > k (Sec. 6, Fig. 14)
  logic            p2_up, p2_keep, upd;
  logic [LIW-1:0]  tgt;
  logic [2:0]      c_why_d;
  logic [LIW-1:0]  c_lvl_d;
  logic [XW-1:0]   c_stay_d;
  logic [NLVL-1:0] c_valid_d;
  logic [RW-1:0]   c_row_d;
  always_comb begin
    p2_up   = b_has_up_q && (MW'(b_cur_q) > b_upk_q);
    p2_keep = b_has_lo_q && ($signed(b_lok_q) > $signed(DW'(b_cur_q)));
    upd     = bal_i && !b_kb_q;
    tgt     = b_p1_q;
    c_why_d = WHY_HOLD;
    if (p2_up) begin
      tgt     = b_lup_q;
      c_why_d = WHY_P2UP;
    end else if (dec_i == DEC_DOWN && b_p1_q != b_lvl_q && p2_keep) begin
      tgt     = b_lvl_q;
      c_why_d = WHY_KEEP;
    end else begin
      c_why_d = (b_p1_q == b_lvl_q) ? WHY_HOLD : ((b_p1_q < b_lvl_q) ? WHY_DOWN : WHY_UP);
    end
    if (tgt == b_lvl_q && b_nstay_q == NW'(EXPLORE_N)) begin
      if (b_xup_q) begin
        tgt     = b_lup_q;
        c_why_d = WHY_XUP;
      end else if (b_lvl_q != '0) begin
        tgt     = b_llo_q;
        c_why_d = WHY_XDOWN;
      end
    end
    c_lvl_d   = bal_i ? tgt : TOP;
    c_stay_d  = (bal_i && !b_kb_q && tgt == b_lvl_q && b_nstay_q != NW'(EXPLORE_N)) ? XW'(b_nstay_q) : '0;
    c_valid_d = b_kb_q ? '0 : (b_valid_q | (upd ? (NLVL'(1) << b_lvl_q) : '0));
    c_row_d   = b_row_q;
    for (int e = 0; e < NLVL; e++) if (b_lvl_q == LIW'(e)) c_row_d[e*SGW +: SGW] = b_cur_q;
  end

  logic            c_v_q, c_wr_q;
  logic [C-1:0]    c_hot_q;
  logic [CIW-1:0]  c_c_q;
  logic [LIW-1:0]  c_lvl_q;
  logic [XW-1:0]   c_stay_q;
  logic [NLVL-1:0] c_valid_q;
  logic [2:0]      c_why_q;
  logic [RW-1:0]   c_row_q;
  assign out_v_o     = c_v_q;
  assign out_hot_o   = c_hot_q;
  assign out_c_o     = c_c_q;
  assign out_lvl_o   = c_lvl_q;
  assign out_stay_o  = c_stay_q;
  assign out_valid_o = c_valid_q;
  assign out_why_o   = c_why_q;
  assign out_wr_o    = c_wr_q;
  assign out_row_o   = c_row_q;

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      a_v_q   <= 1'b0;
      b_v_q   <= 1'b0;
      c_v_q   <= 1'b0;
      c_wr_q  <= 1'b0;
      c_hot_q <= '0;
    end else begin
      a_v_q   <= in_v_i;
      b_v_q   <= a_v_q;
      c_v_q   <= b_v_q;
      c_wr_q  <= b_v_q && upd;
      for (int i = 0; i < C; i++) c_hot_q[i] <= b_v_q && (b_c_q == CIW'(i));
    end
  end
  // data: no reset (qualified by a_v_q / b_v_q / c_v_q)
  always_ff @(posedge clk_i) begin
    a_c_q     <= in_c_i;
    a_kb_q    <= in_kb_i;
    a_s_q     <= in_sample_i;
    a_s3_q    <= MW'(in_sample_i) + (MW'(in_sample_i) << 1);
    a_lvl_q   <= in_lvl_i;
    a_lup_q   <= in_lvl_i + 1'b1;
    a_llo_q   <= in_lvl_i - 1'b1;
    a_stay_q  <= in_stay_i;
    a_valid_q <= in_valid_i;
    a_row_q   <= in_row_i;
    b_c_q      <= a_c_q;
    b_kb_q     <= a_kb_q;
    b_cur_q    <= b_cur_d;
    b_upk_q    <= b_upk_d;
    b_lok_q    <= b_lok_d;
    b_has_lo_q <= b_has_lo_d;
    b_has_up_q <= b_has_up_d;
    b_xup_q    <= b_xup_d;
    b_lvl_q    <= a_lvl_q;
    b_lup_q    <= a_lup_q;
    b_llo_q    <= a_llo_q;
    b_p1_q     <= b_p1_d;
    b_nstay_q  <= b_nstay_d;
    b_valid_q  <= a_valid_q;
    b_row_q    <= a_row_q;
    c_c_q     <= b_c_q;
    c_lvl_q   <= c_lvl_d;
    c_stay_q  <= c_stay_d;
    c_valid_q <= c_valid_d;
    c_why_q   <= c_why_d;
    c_row_q   <= c_row_d;
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni && a_v_q) assert (a_lvl_q <= TOP);
    if (rst_ni && b_v_q) assert (32'(c_lvl_d) <= 32'(TOP) && 32'(c_stay_d) < EXPLORE_N);
    if (rst_ni) assert ($countones(c_hot_q) == (c_v_q ? 1 : 0));
  end
endmodule
