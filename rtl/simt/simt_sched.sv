// Issue stage of the RTL SIMT core: the per-warp scoreboard and the warp
// scheduler.
//
// A candidate (a running warp whose i-buffer holds an instruction and which
// has none in the lane pipeline) is ready when no source or destination of
// that instruction is pending in its scoreboard and its unit is free; one
// ready warp issues a cycle when the lane pipeline takes one: GTO (the
// greedy warp, the last issued, while it stays ready, else the oldest ready;
// EDGE Table II's and CM Sec. 2.1's machines, as the C model's [gpu]
// warp_scheduler = gto) or loose round-robin (the first ready warp after the
// last issued), both within the highest priority class that has a ready warp
// (EDGE IV-D: a running event warp above the background, a victim being
// flushed boosted above the rest; the C model's warp priorities).  A
// candidate whose instruction cannot execute (illegal, a bad CSR access) is
// reported instead (the core stops it).
//
// Pending = the destination of an instruction the LSU or the divider still
// holds: set at issue, cleared when that unit's instruction ends (written
// back, or dropped on a fault).  One instruction per unit is in flight, so
// the units' own slot and destination registers say which bit each
// scoreboard bit stands for (the invariant sched_scoreboard_exact, proved in
// formal/simt_sched.sby).  Whether a slot's instruction touches the unit's
// destination is therefore known when the instruction arrives in the
// i-buffer (ld_i) and stays so until the unit takes another instruction: it
// is kept per slot and unit in a register (hz_*_q; sched_hazard_exact), and
// readiness reads no scoreboard bit.
//
// The pick is one-hot and flat, a few logic levels deep: which slot beats
// which is decided from registers only (the classes, the greedy warp, and
// GTO's age order from older_i, a matrix the core keeps in registers), and
// the picked instruction's destination is decoded per slot.
`include "fg_assert.svh"
`include "fg_comb.svh"
module simt_sched #(
  parameter  int NW  = 8,
  parameter  int GTO = 1,
  localparam int SW  = (NW > 1) ? $clog2(NW) : 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [NW-1:0]    cand_i,
  input  logic [NW-1:0]    legal_i,      // the instruction decodes and its CSR access is legal
  input  logic [NW*5-1:0]  rs1_i,
  input  logic [NW*5-1:0]  rs2_i,
  input  logic [NW*5-1:0]  rd_i,         // 0: writes no register
  input  logic [NW-1:0]    use1_i,
  input  logic [NW-1:0]    use2_i,
  input  logic [NW*2-1:0]  unit_i,       // simt_pkg::simt_unit_e
  // slot s's i-buffer takes an instruction this cycle (its fields: ld_*_i;
  // the fields above are its until the next)
  input  logic [NW-1:0]    ld_i,
  input  logic [4:0]       ld_rs1_i,
  input  logic [4:0]       ld_rs2_i,
  input  logic [4:0]       ld_rd_i,
  input  logic             ld_use1_i,
  input  logic             ld_use2_i,
  input  logic [NW*NW-1:0] older_i,      // [i*NW + j]: slot i launched before slot j (a strict total order)
  input  logic [NW*2-1:0]  prio_i,       // priority class: higher first (0 background)
  input  logic             can_issue_i,  // the lane pipeline takes an instruction this cycle
  input  logic             lsu_end_i,    // the LSU's instruction is over
  input  logic             div_end_i,    // the divider's instruction is over
  output logic             issue_o,
  output logic [SW-1:0]    pick_o,
  output logic [NW-1:0]    pick_oh_o,    // pick_o one-hot (0 when no warp is ready)
  output logic [NW-1:0]    ifault_o,
  output logic             lsu_v_o,      // the LSU holds an instruction of slot lsu_slot_o
  output logic [SW-1:0]    lsu_slot_o,
  output logic [4:0]       lsu_rd_o,
  output logic             div_v_o,
  output logic [SW-1:0]    div_slot_o,
  output logic [4:0]       div_rd_o,
  output logic [NW*32-1:0] sb_o          // slot s's pending registers at [s*32 +: 32]
`ifdef FORMAL
  ,  // the kept hazards, for the harness's induction strengthening (formal/simt_sched_fv.sv)
  output logic [NW-1:0]    f_hz_lsu_o,
  output logic [NW-1:0]    f_hz_div_o
`endif
);
  `FG_ASSERT_PARAM(g_chk_nw, NW >= 1 && NW <= 32, "simt_sched: NW must be 1..32")

  logic [NW*32-1:0] sb_q;
  logic             lsu_v_q, div_v_q;
  logic [SW-1:0]    lsu_slot_q, div_slot_q, last_q;
  logic [4:0]       lsu_rd_q, div_rd_q;

  // an instruction's sources or destination include a unit's destination urd
  function automatic logic touches(input logic [4:0] rs1, input logic [4:0] rs2, input logic [4:0] rd,
                                   input logic use1, input logic use2, input logic [4:0] urd);
    touches = urd != 5'd0 && ((use1 && rs1 == urd) || (use2 && rs2 == urd) || rd == urd);
  endfunction
  // hz_*_q[s]: slot s's instruction touches the destination of the unit's
  // instruction when that is slot s's (pending while the unit holds it)
  logic [NW-1:0] hz_lsu_q, hz_div_q;
  logic [NW-1:0] ready;
  always_comb
    for (int s = 0; s < NW; s++) begin
      logic [1:0] unit;
      unit = unit_i[s*2 +: 2];
      ifault_o[s] = cand_i[s] && !legal_i[s];
      ready[s]    = cand_i[s] && legal_i[s] && !(hz_lsu_q[s] && lsu_v_q) && !(hz_div_q[s] && div_v_q) &&
                    (unit != simt_pkg::SIMT_UNIT_LSU || !lsu_v_q) && (unit != simt_pkg::SIMT_UNIT_DIV || !div_v_q);
    end

  // The pick as a contest: slot j beats slot s when its class is higher, or
  // the class is the same and j comes first in the policy's order (GTO: the
  // greedy warp, then older before younger; loose round-robin: nearer after
  // the last issued).  The order is strict and total and read from
  // registers only, so the one ready warp no ready warp beats is the pick
  // (one level of AND-OR after readiness): the ready warp of the highest
  // class that is greedy, else the oldest, or the first after the last.
  logic [NW-1:0] last_oh, pick_oh;
  logic [NW*NW-1:0] beats;   // [j*NW + s]: j beats s
  logic [NW-1:0] after;       // slot s comes after the last issued
  always_comb
    for (int s = 0; s < NW; s++) begin
      last_oh[s] = last_q == SW'(s);
      after[s]   = 32'(s) > 32'(last_q);
    end
  always_comb
    for (int j = 0; j < NW; j++)
      for (int s = 0; s < NW; s++) begin
        logic [1:0] pj, ps;
        logic       first;
        pj = prio_i[j*2 +: 2];
        ps = prio_i[s*2 +: 2];
        // round-robin: the slots after the last issued come first, then
        // the rest from slot 0, each run in index order (no modulo: NW need
        // not be a power of two)
        if (GTO != 0) first = last_oh[j] || (!last_oh[s] && older_i[j*NW + s]);
        else          first = after[j] != after[s] ? after[j] : j < s;
        beats[j*NW + s] = j != s && (pj > ps || (pj == ps && first));
      end
  always_comb
    for (int s = 0; s < NW; s++) begin
      logic beaten;
      beaten = 1'b0;
      for (int j = 0; j < NW; j++) if (ready[j] && beats[j*NW + s]) beaten = 1'b1;
      pick_oh[s] = ready[s] && !beaten;
    end
  // the highest class with a ready warp and which ready warps are in it (the
  // invariants' terms)
  logic [1:0]    top;
  logic [NW-1:0] rtop;
  `FG_COMB_READBACK begin
    top = '0;
    for (int s = 0; s < NW; s++)
      if (ready[s] && prio_i[s*2 +: 2] > top) top = prio_i[s*2 +: 2];
    for (int s = 0; s < NW; s++) rtop[s] = ready[s] && prio_i[s*2 +: 2] == top;
  end
  wire pick_v = ready != '0;
  `FG_COMB_READBACK begin
    pick_o = '0;
    for (int s = 0; s < NW; s++) if (pick_oh[s]) pick_o = pick_o | SW'(s);
  end
  assign pick_oh_o = pick_oh;
  assign issue_o   = can_issue_i && pick_v;

  // the picked instruction's destination and unit (for the invariants), and
  // per slot whether its instruction goes to the LSU or the divider
  logic [4:0]    p_rd;
  logic [1:0]    p_unit;
  logic [NW-1:0] is_lsu, is_div;
  `FG_COMB_READBACK begin
    p_rd   = '0;
    p_unit = '0;
    for (int s = 0; s < NW; s++) begin
      is_lsu[s] = unit_i[s*2 +: 2] == simt_pkg::SIMT_UNIT_LSU;
      is_div[s] = unit_i[s*2 +: 2] == simt_pkg::SIMT_UNIT_DIV;
      if (pick_oh[s]) begin
        p_rd   = p_rd | rd_i[s*5 +: 5];
        p_unit = p_unit | unit_i[s*2 +: 2];
      end
    end
  end
  wire iss_lsu = issue_o && (pick_oh & is_lsu) != '0;
  wire iss_div = issue_o && (pick_oh & is_div) != '0;

  // a unit taking an instruction (of the picked slot, whose i-buffer
  // empties) touches no other slot's; an arriving instruction is compared
  // with what the units hold
  always_ff @(posedge clk_i)
    if (!rst_ni) begin
      hz_lsu_q <= '0;
      hz_div_q <= '0;
    end else for (int s = 0; s < NW; s++) begin
      if (iss_lsu) hz_lsu_q[s] <= 1'b0;
      else if (ld_i[s])
        hz_lsu_q[s] <= lsu_slot_q == SW'(s) && touches(ld_rs1_i, ld_rs2_i, ld_rd_i, ld_use1_i, ld_use2_i, lsu_rd_q);
      if (iss_div) hz_div_q[s] <= 1'b0;
      else if (ld_i[s])
        hz_div_q[s] <= div_slot_q == SW'(s) && touches(ld_rs1_i, ld_rs2_i, ld_rd_i, ld_use1_i, ld_use2_i, div_rd_q);
    end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      sb_q    <= '0;
      lsu_v_q <= 1'b0;
      div_v_q <= 1'b0;
      last_q  <= '0;
    end else begin
      if (issue_o) last_q <= pick_o;
      if (lsu_end_i) lsu_v_q <= 1'b0;
      if (div_end_i) div_v_q <= 1'b0;
      // a unit's end clears its destination; an issue to a unit sets the
      // picked warp's (bit by bit: no index arithmetic in the issue path)
      for (int s = 0; s < NW; s++)
        for (int r = 1; r < 32; r++) begin
          if ((lsu_end_i && lsu_slot_q == SW'(s) && lsu_rd_q == 5'(r)) ||
              (div_end_i && div_slot_q == SW'(s) && div_rd_q == 5'(r)))
            sb_q[s*32 + r] <= 1'b0;
          if (issue_o && pick_oh[s] && (is_lsu[s] || is_div[s]) && rd_i[s*5 +: 5] == 5'(r)) sb_q[s*32 + r] <= 1'b1;
        end
      if (iss_lsu) begin
        lsu_v_q    <= 1'b1;
        lsu_slot_q <= pick_o;
        lsu_rd_q   <= p_rd;
      end
      if (iss_div) begin
        div_v_q    <= 1'b1;
        div_slot_q <= pick_o;
        div_rd_q   <= p_rd;
      end
    end
  end

  assign lsu_v_o    = lsu_v_q;
  assign lsu_slot_o = lsu_slot_q;
  assign lsu_rd_o   = lsu_rd_q;
  assign div_v_o    = div_v_q;
  assign div_slot_o = div_slot_q;
  assign div_rd_o   = div_rd_q;
  assign sb_o       = sb_q;
`ifdef FORMAL
  assign f_hz_lsu_o = hz_lsu_q;
  assign f_hz_div_o = hz_div_q;
`endif

  // ----------------------------------------------------------- invariants
  // the scoreboard holds exactly the units' destinations (x0 never)
  logic sb_exact;
  `FG_COMB_READBACK begin
    sb_exact = 1'b1;
    for (int s = 0; s < NW; s++) begin
      logic [31:0] want;
      want = '0;
      if (lsu_v_q && lsu_slot_q == SW'(s)) want = want | (32'd1 << lsu_rd_q);
      if (div_v_q && div_slot_q == SW'(s)) want = want | (32'd1 << div_rd_q);
      if (sb_q[s*32 +: 32] != (want & ~32'd1)) sb_exact = 1'b0;
    end
  end
  // a candidate's kept hazard is the scoreboard's answer
  logic hz_exact;
  `FG_COMB_READBACK begin
    hz_exact = 1'b1;
    for (int s = 0; s < NW; s++) begin
      logic [31:0] sb;
      logic [4:0]  rs1, rs2, rd;
      sb  = sb_q[s*32 +: 32];
      rs1 = rs1_i[s*5 +: 5];
      rs2 = rs2_i[s*5 +: 5];
      rd  = rd_i[s*5 +: 5];
      if (cand_i[s] && ((hz_lsu_q[s] && lsu_v_q) || (hz_div_q[s] && div_v_q)) !=
                       ((use1_i[s] && sb[rs1]) || (use2_i[s] && sb[rs2]) || (rd != 5'd0 && sb[rd])))
        hz_exact = 1'b0;
    end
  end
  logic [31:0] p_sb;
  logic [4:0]  p_rs1, p_rs2;
  logic [1:0]  p_prio;
  logic        p_use1, p_use2, p_cand, p_legal;
  always_comb begin
    p_sb = '0; p_rs1 = '0; p_rs2 = '0; p_use1 = 1'b0; p_use2 = 1'b0; p_cand = 1'b0; p_legal = 1'b0; p_prio = '0;
    for (int s = 0; s < NW; s++)
      if (pick_o == SW'(s)) begin
        p_sb    = sb_q[s*32 +: 32];
        p_rs1   = rs1_i[s*5 +: 5];
        p_rs2   = rs2_i[s*5 +: 5];
        p_use1  = use1_i[s];
        p_use2  = use2_i[s];
        p_cand  = cand_i[s];
        p_legal = legal_i[s];
        p_prio  = prio_i[s*2 +: 2];
      end
  end
  // loose round-robin's order restated as distance after the last issued
  // (the pick reads it as two runs): no ready warp of the top class nearer
  function automatic logic [SW:0] rr_dist(input logic [SW-1:0] s, input logic [SW-1:0] l);
    logic [SW+1:0] v;
    v       = (SW+2)'(s) + (SW+2)'(NW) - (SW+2)'(l) - (SW+2)'(1);
    rr_dist = v >= (SW+2)'(NW) ? (SW+1)'(v - (SW+2)'(NW)) : (SW+1)'(v);
  endfunction
  logic rr_nearer;
  always_comb begin
    rr_nearer = 1'b0;
    for (int s = 0; s < NW; s++)
      if (rtop[s] && rr_dist(SW'(s), last_q) < rr_dist(pick_o, last_q)) rr_nearer = 1'b1;
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(sched_scoreboard_exact, sb_exact)
      `FG_ASSERT(sched_hazard_exact, hz_exact)
      `FG_ASSERT(sched_load_not_candidate, (ld_i & cand_i) == '0)
      `FG_ASSERT(sched_issue_no_pending_source, !issue_o || !((p_use1 && p_sb[p_rs1]) || (p_use2 && p_sb[p_rs2])))
      `FG_ASSERT(sched_issue_no_pending_dest, !issue_o || p_rd == 5'd0 || !p_sb[p_rd])
      `FG_ASSERT(sched_issue_legal_candidate, !issue_o || (p_cand && p_legal))
      `FG_ASSERT(sched_issue_unit_free, !(iss_lsu && lsu_v_q) && !(iss_div && div_v_q))
      `FG_ASSERT(sched_pick_in_range, !issue_o || 32'(pick_o) < NW)
      `FG_ASSERT(sched_pick_onehot, $onehot0(pick_oh))
      `FG_ASSERT(sched_issue_picks, !issue_o || pick_oh == NW'(1) << pick_o)
      `FG_ASSERT(sched_ready_issues, !can_issue_i || rtop == '0 || issue_o)
      `FG_ASSERT(sched_gto_greedy, GTO == 0 || !issue_o || !rtop[last_q] || pick_o == last_q)
      `FG_ASSERT(sched_lrr_nearest, GTO != 0 || !issue_o || !rr_nearer)
      `FG_ASSERT(sched_top_class_first, !issue_o || p_prio == top)
      `FG_ASSERT(sched_lsu_end_expected, !lsu_end_i || lsu_v_q)
      `FG_ASSERT(sched_div_end_expected, !div_end_i || div_v_q)
    end
  end
endmodule
