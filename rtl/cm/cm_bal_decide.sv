// CM stall monitor: the CM-BAL decision of one GPU core (CM Sec. 4.2, Fig. 11
// items 8-13, Fig. 12; Sec. 5 Mechanism Parameters), one datapath shared by
// all cores of the block, which feeds it one core per cycle after each
// interval end.  Pipelined: a core given on in_* appears on out_*
// four edges later and is committed at the fifth edge after it was given.
// Every stage holds at most one carry chain (timing: the compares, the level
// decision, the exploration and the stay count are too long for one stage):
//
//   stage A (registers): the core's interval-end snapshot (sample, clamped
//            to 2^SGW - 1, level, stay count, valid bits, kernel boundary)
//            and its table row; the levels one above and one below
//   stage B (registers): the row's three entries the decision reads (current
//            level, one above, one below), the neighbours' as the values that
//            make their Part-2 compare false where Part-2 may not use them
//            (no valid neighbour, nothing to refuse), and whether the current
//            one is valid; 3 x sample; Part-1's level and, from it, the three
//            outcomes Part-2 chooses from (raise, refuse to lower, Part-1's
//            level), each with the exploration and the mode applied; the
//            level as a one-hot
//   stage M (registers): the updated average of the current level (cur) and
//            the neighbours' averages with k folded in (avg[up] + k,
//            avg[low] - k): three adders side by side
//   stage C (registers): the two Part-2 compares and the choice of outcome
//            by their carries alone (no valid bit after the carry chains,
//            for timing), registered with the
//            valid bits, the table write (cur at the level's entry) and a
//            one-hot of the core (out_*), so that the commit into the core's
//            registers (C destinations) is a stage of its own
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
//
// RTL style (docs/RTL_STYLE.md): the decision and why codes are cm_pkg's
// cm_dec_e / cm_why_e; named assertions (fg_assert.svh); parameter checks as
// the C twin's; CIW is derived from C.
`include "fg_assert.svh"
`include "fg_comb.svh"
`include "fg_enum.svh"
module cm_bal_decide #(
  parameter int NSCHED   = 2,
  parameter int INTERVAL = 1024,
  parameter int MAXW     = 48,
  parameter int NLVL     = 9,
  parameter logic [NLVL*8-1:0] LEVELS = {8'd48, 8'd24, 8'd16, 8'd8, 8'd6, 8'd4, 8'd3, 8'd2, 8'd1},
  parameter int EXPLORE_WARPS = 6,
  parameter int EXPLORE_N     = 4,
  parameter int C             = 28,
  localparam int CIW = (C > 1) ? $clog2(C) : 1,
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
  input  logic [SGW:0]       in_sample_i,    // unclamped (0..NSCHED x INTERVAL)
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
  output logic               out_wr_o,       // write out_avg_o into the table ...
  output logic [NLVL-1:0]    out_ent_o,      // ... at this entry (one-hot) of row out_c_o
  output logic [SGW-1:0]     out_avg_o
`ifdef FORMAL
  ,  // the stages' valid bits {A, B, M, C}, for the block's proof
  output logic [3:0]         f_stage_v_o
`endif
);
  `FG_IMPORT(cm_pkg)
  `FG_ASSERT_PARAM(g_chk_c, C >= 1 && C <= 64, "cm_bal_decide: C must be 1..64")
  `FG_ASSERT_PARAM(g_chk_nlvl, NLVL >= 2 && NLVL <= 16, "cm_bal_decide: NLVL must be 2..16")
  `FG_ASSERT_PARAM(g_chk_explore_n, EXPLORE_N >= 2, "cm_bal_decide: EXPLORE_N must be >= 2")
  `FG_ASSERT_PARAM(g_chk_maxw, MAXW >= 1 && MAXW <= 255, "cm_bal_decide: MAXW must be 1..255")
  localparam logic [LIW-1:0] TOP = LIW'(NLVL - 1);
  localparam int NW = XW + 1;
  localparam int MW = SGW + 2;  // mix, avg[up] + k
  localparam int DW = SGW + 3;  // avg[low] - k, signed
  localparam int OW = LIW + XW + 3;  // an outcome: {level, stay count, why}

  // entry i of a table row (a mux over the entries: no index arithmetic)
  function automatic logic [SGW-1:0] ent(input logic [RW-1:0] row, input logic [LIW-1:0] i);
    ent = '0;
    for (int e = 0; e < NLVL; e++) if (i == LIW'(e)) ent = row[e*SGW +: SGW];
  endfunction

  // ---------------------------------------------------------------- stage A
  logic            a_v_q, a_kb_q;
  logic [CIW-1:0]  a_c_q;
  logic [SGW-1:0]  a_s_q;
  logic [LIW-1:0]  a_lvl_q, a_lup_q, a_llo_q;  // level, level + 1, level - 1 (mod 2^LIW)
  logic [XW-1:0]   a_stay_q;
  logic [NLVL-1:0] a_valid_q;
  logic [RW-1:0]   a_row_q;

  // ---------------------------------------------------------------- stage B
  logic [SGW-1:0]  b_ecur_d, b_eup_d, b_elo_d;
  logic [MW-1:0]   b_s3_d;
  logic            b_vcur_d, b_has_lo_d, b_has_up_d, b_keep_ok_d;  // has_*, keep_ok: gate the entries
  logic [LIW-1:0]  b_o_up_d;                 // Part-2 raises: the level (stay 0, why P2UP)
  logic [OW-1:0]   b_o_keep_d, b_o_p1_d;     // Part-2 refuses to lower; Part-1 stands
  logic [NLVL-1:0] b_loh_d;
  `FG_COMB_READBACK begin
    logic [LIW-1:0] p1, x_tgt;
    logic [NW-1:0]  nstay;
    logic           xup, x_move;
    logic [2:0]     why_p1, x_why;  // cm_pkg::cm_why_e codes
    logic [XW-1:0]  stay_kept;
    b_ecur_d    = ent(a_row_q, a_lvl_q);
    b_s3_d      = MW'(a_s_q) + (MW'(a_s_q) << 1);
    b_vcur_d    = a_valid_q[a_lvl_q];
    b_has_lo_d  = !a_kb_q && (a_lvl_q != '0) && a_valid_q[a_llo_q];
    b_has_up_d  = !a_kb_q && (a_lvl_q != TOP) && a_valid_q[a_lup_q];
    b_loh_d     = '0;
    for (int e = 0; e < NLVL; e++) b_loh_d[e] = (a_lvl_q == LIW'(e));
    p1          = a_lvl_q;  // Part-1
    if (dec_i == cm_pkg::CM_DEC_DOWN && a_lvl_q != '0) p1 = a_llo_q;
    else if (dec_i == cm_pkg::CM_DEC_UP && a_lvl_q != TOP) p1 = a_lup_q;
    nstay       = a_kb_q ? NW'(1) : NW'(a_stay_q) + 1'b1;  // a kernel boundary restarts the count
    xup         = 1'b0;  // the level has fewer than EXPLORE_WARPS warps (a constant per level)
    for (int e = 0; e < NLVL; e++)
      if (a_lvl_q == LIW'(e)) xup = (32'(LEVELS[8*e +: LW]) < EXPLORE_WARPS) && (e != NLVL - 1);
    why_p1      = (p1 == a_lvl_q) ? cm_pkg::CM_WHY_HOLD : ((p1 < a_lvl_q) ? cm_pkg::CM_WHY_DOWN : cm_pkg::CM_WHY_UP);
    b_keep_ok_d = (dec_i == cm_pkg::CM_DEC_DOWN) && (p1 != a_lvl_q);  // a refusal needs a step down to refuse
    // Part-2 reads a neighbour only when it is valid (footnote 11), and
    // refuses to lower only when Part-1 lowers.  Otherwise the neighbour's
    // entry is replaced by one that fails its compare in stage C: above,
    // 2^SGW - 1 (cur - avg[up] > k needs cur > 2^SGW - 1 + k: never); below,
    // 0 (avg[low] - cur > k needs -k > cur >= 0: never).
    b_eup_d     = b_has_up_d ? ent(a_row_q, a_lup_q) : '1;
    b_elo_d     = (b_has_lo_d && b_keep_ok_d) ? ent(a_row_q, a_llo_q) : '0;
    // The outcomes, with the exploration and the mode applied.  Raising never
    // stays at the level; refusing to lower always does, and Part-1 does when
    // it holds.  Staying for the EXPLORE_N-th interval in a row explores: one
    // level up below EXPLORE_WARPS warps, else one down (none below level 0).
    x_move      = (nstay == NW'(EXPLORE_N)) && (xup || a_lvl_q != '0);
    x_tgt       = xup ? a_lup_q : a_llo_q;
    x_why       = xup ? cm_pkg::CM_WHY_XUP : cm_pkg::CM_WHY_XDOWN;
    stay_kept   = (bal_i && !a_kb_q && nstay != NW'(EXPLORE_N)) ? XW'(nstay) : '0;
    b_o_up_d    = bal_i ? a_lup_q : TOP;
    b_o_keep_d  = x_move ? {bal_i ? x_tgt : TOP, XW'(0), x_why} : {bal_i ? a_lvl_q : TOP, stay_kept, cm_pkg::CM_WHY_KEEP};
    b_o_p1_d    = (p1 != a_lvl_q) ? {bal_i ? p1 : TOP, XW'(0), why_p1}
                : x_move          ? {bal_i ? x_tgt : TOP, XW'(0), x_why}
                                  : {bal_i ? a_lvl_q : TOP, stay_kept, cm_pkg::CM_WHY_HOLD};
  end

  logic            b_v_q, b_kb_q, b_vcur_q;
  logic [CIW-1:0]  b_c_q;
  logic [SGW-1:0]  b_s_q, b_ecur_q, b_eup_q, b_elo_q;
  logic [MW-1:0]   b_s3_q;
  logic [LIW-1:0]  b_o_up_q;
  logic [OW-1:0]   b_o_keep_q, b_o_p1_q;
  logic [NLVL-1:0] b_valid_q, b_loh_q;

  // ---------------------------------------------------------------- stage M
  logic [SGW-1:0] m_cur_d;
  logic [MW-1:0]  m_upk_d;
  logic [DW-1:0]  m_lok_d;
  always_comb begin
    logic [MW-1:0] mix;
    mix     = MW'(b_ecur_q) + b_s3_q;
    m_cur_d = b_vcur_q ? SGW'(mix >> 2) : b_s_q;
    m_upk_d = MW'(b_eup_q) + MW'(k_i);
    m_lok_d = DW'(b_elo_q) - DW'(k_i);
  end

  logic            m_v_q, m_kb_q;
  logic [CIW-1:0]  m_c_q;
  logic [SGW-1:0]  m_cur_q;
  logic [MW-1:0]   m_upk_q;
  logic [DW-1:0]   m_lok_q;
  logic [LIW-1:0]  m_o_up_q;
  logic [OW-1:0]   m_o_keep_q, m_o_p1_q;
  logic [NLVL-1:0] m_valid_q, m_loh_q;

  // ---------------------------------------------------------------- stage C
  // diff_up = cur - avg[up] > k ; diff_low = avg[low] - cur > k (Sec. 6, Fig. 14)
  logic            p2_up, p2_keep, upd;
  logic [2:0]      c_why_d;
  logic [LIW-1:0]  c_lvl_d;
  logic [XW-1:0]   c_stay_d;
  logic [NLVL-1:0] c_valid_d;
  `FG_COMB_READBACK begin
    p2_up   = MW'(m_cur_q) > m_upk_q;                        // 0 without a valid upper entry
    p2_keep = $signed(m_lok_q) > $signed(DW'(m_cur_q));      // 0 unless Part-2 may refuse
    upd     = bal_i && !m_kb_q;
    if (p2_up) {c_lvl_d, c_stay_d, c_why_d} = {m_o_up_q, XW'(0), cm_pkg::CM_WHY_P2UP};    // raise (overrides Part-1)
    else if (p2_keep) {c_lvl_d, c_stay_d, c_why_d} = m_o_keep_q;                  // refuse to lower
    else {c_lvl_d, c_stay_d, c_why_d} = m_o_p1_q;                              // Part-1
    c_valid_d = m_kb_q ? '0 : (m_valid_q | (upd ? m_loh_q : '0));
  end

  logic            c_v_q, c_wr_q;
  logic [C-1:0]    c_hot_q;
  logic [CIW-1:0]  c_c_q;
  logic [LIW-1:0]  c_lvl_q;
  logic [XW-1:0]   c_stay_q;
  logic [NLVL-1:0] c_valid_q, c_ent_q;
  logic [2:0]      c_why_q;
  logic [SGW-1:0]  c_avg_q;
  assign out_v_o     = c_v_q;
  assign out_hot_o   = c_hot_q;
  assign out_c_o     = c_c_q;
  assign out_lvl_o   = c_lvl_q;
  assign out_stay_o  = c_stay_q;
  assign out_valid_o = c_valid_q;
  assign out_why_o   = c_why_q;
  assign out_wr_o    = c_wr_q;
  assign out_ent_o   = c_ent_q;
  assign out_avg_o   = c_avg_q;

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      a_v_q   <= 1'b0;
      b_v_q   <= 1'b0;
      m_v_q   <= 1'b0;
      c_v_q   <= 1'b0;
      c_wr_q  <= 1'b0;
      c_hot_q <= '0;
    end else begin
      a_v_q   <= in_v_i;
      b_v_q   <= a_v_q;
      m_v_q   <= b_v_q;
      c_v_q   <= m_v_q;
      c_wr_q  <= m_v_q && upd;
      for (int i = 0; i < C; i++) c_hot_q[i] <= m_v_q && (m_c_q == CIW'(i));
    end
  end
  // data: no reset (qualified by a_v_q / b_v_q / m_v_q / c_v_q)
  always_ff @(posedge clk_i) begin
    a_c_q       <= in_c_i;
    a_kb_q      <= in_kb_i;
    a_s_q       <= in_sample_i[SGW] ? '1 : in_sample_i[SGW-1:0];  // clamped to 2^SGW - 1
    a_lvl_q     <= in_lvl_i;
    a_lup_q     <= in_lvl_i + 1'b1;
    a_llo_q     <= in_lvl_i - 1'b1;
    a_stay_q    <= in_stay_i;
    a_valid_q   <= in_valid_i;
    a_row_q     <= in_row_i;
    b_c_q       <= a_c_q;
    b_kb_q      <= a_kb_q;
    b_s_q       <= a_s_q;
    b_s3_q      <= b_s3_d;
    b_ecur_q    <= b_ecur_d;
    b_eup_q     <= b_eup_d;
    b_elo_q     <= b_elo_d;
    b_vcur_q    <= b_vcur_d;
    b_o_up_q    <= b_o_up_d;
    b_o_keep_q  <= b_o_keep_d;
    b_o_p1_q    <= b_o_p1_d;
    b_valid_q   <= a_valid_q;
    b_loh_q     <= b_loh_d;
    m_c_q       <= b_c_q;
    m_kb_q      <= b_kb_q;
    m_cur_q     <= m_cur_d;
    m_upk_q     <= m_upk_d;
    m_lok_q     <= m_lok_d;
    m_o_up_q    <= b_o_up_q;
    m_o_keep_q  <= b_o_keep_q;
    m_o_p1_q    <= b_o_p1_q;
    m_valid_q   <= b_valid_q;
    m_loh_q     <= b_loh_q;
    c_c_q       <= m_c_q;
    c_lvl_q     <= c_lvl_d;
    c_stay_q    <= c_stay_d;
    c_valid_q   <= c_valid_d;
    c_why_q     <= c_why_d;
    c_ent_q     <= m_loh_q;
    c_avg_q     <= m_cur_q;
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(dec_level_in_table, !a_v_q || a_lvl_q <= TOP)
      `FG_ASSERT(dec_level_onehot, !b_v_q || $countones(b_loh_q) == 1)
      `FG_ASSERT(dec_result_in_range, !m_v_q || (32'(c_lvl_d) <= 32'(TOP) && 32'(c_stay_d) < EXPLORE_N))
      `FG_ASSERT(dec_commit_onehot, $countones(c_hot_q) == (c_v_q ? 1 : 0))
      `FG_ASSERT(dec_write_onehot, !c_wr_q || (c_v_q && $countones(c_ent_q) == 1))
      `FG_ASSERT(dec_core_in_range, (!a_v_q || 32'(a_c_q) < C) && (!b_v_q || 32'(b_c_q) < C) &&
                                    (!m_v_q || 32'(m_c_q) < C) && (!c_v_q || 32'(c_c_q) < C))
      // the walk feeds consecutive cores: the stages hold cores c, c-1, c-2, c-3
      `FG_ASSERT(dec_stages_consecutive,
                 (!(in_v_i && a_v_q) || in_c_i == a_c_q + 1'b1) && (!(a_v_q && b_v_q) || a_c_q == b_c_q + 1'b1) &&
                 (!(b_v_q && m_v_q) || b_c_q == m_c_q + 1'b1) && (!(m_v_q && c_v_q) || m_c_q == c_c_q + 1'b1))
    end
  end

`ifdef FORMAL
  assign f_stage_v_o = {a_v_q, b_v_q, m_v_q, c_v_q};
`endif
endmodule
