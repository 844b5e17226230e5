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
// formal/simt_sched.sby).
//
// The pick is one-hot and flat, a few logic levels deep: GTO's "oldest" is
// read from older_i, a matrix of the slots' age order the core keeps in
// registers (no age comparison in the issue path), and the picked
// instruction's destination is decoded per slot.
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
);
  `FG_ASSERT_PARAM(g_chk_nw, NW >= 1 && NW <= 32, "simt_sched: NW must be 1..32")

  logic [NW*32-1:0] sb_q;
  logic             lsu_v_q, div_v_q;
  logic [SW-1:0]    lsu_slot_q, div_slot_q, last_q;
  logic [4:0]       lsu_rd_q, div_rd_q;

  logic [NW-1:0] ready;
  always_comb
    for (int s = 0; s < NW; s++) begin
      logic [4:0]  rs1, rs2, rd;
      logic [1:0]  unit;
      logic [31:0] sb;
      rs1  = rs1_i[s*5 +: 5];
      rs2  = rs2_i[s*5 +: 5];
      rd   = rd_i[s*5 +: 5];
      unit = unit_i[s*2 +: 2];
      sb   = sb_q[s*32 +: 32];
      ifault_o[s] = cand_i[s] && !legal_i[s];
      ready[s]    = cand_i[s] && legal_i[s] && !(use1_i[s] && sb[rs1]) && !(use2_i[s] && sb[rs2]) &&
                    !(rd != 5'd0 && sb[rd]) &&
                    (unit != simt_pkg::SIMT_UNIT_LSU || !lsu_v_q) && (unit != simt_pkg::SIMT_UNIT_DIV || !div_v_q);
    end

  // the highest class with a ready warp, and which ready warps are in it
  logic [1:0]    top;
  logic [NW-1:0] rtop;
  `FG_COMB_READBACK begin
    top = '0;
    for (int s = 0; s < NW; s++)
      if (ready[s] && prio_i[s*2 +: 2] > top) top = prio_i[s*2 +: 2];
    for (int s = 0; s < NW; s++) rtop[s] = ready[s] && prio_i[s*2 +: 2] == top;
  end

  // GTO: the greedy warp while it is ready in the top class, else the
  // oldest such warp (none older than it among them); loose round-robin:
  // the first such warp after the last issued
  logic [NW-1:0] last_oh, oldest, pick_oh;
  always_comb
    for (int s = 0; s < NW; s++) last_oh[s] = last_q == SW'(s);
  always_comb
    for (int s = 0; s < NW; s++) begin
      logic older_ready;
      older_ready = 1'b0;
      for (int j = 0; j < NW; j++) if (j != s && rtop[j] && older_i[j*NW + s]) older_ready = 1'b1;
      oldest[s] = rtop[s] && !older_ready;
    end
  `FG_COMB_READBACK begin
    pick_oh = '0;
    if (GTO != 0) pick_oh = (rtop & last_oh) != '0 ? last_oh : oldest;
    else begin
      logic found;
      found = 1'b0;
      for (int k = 1; k <= NW; k++) begin
        logic [SW-1:0] s;
        s = SW'((32'(last_q) + k) % NW);
        if (!found && rtop[s]) begin
          found = 1'b1;
          pick_oh[s] = 1'b1;
        end
      end
    end
  end
  wire pick_v = pick_oh != '0;
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
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(sched_scoreboard_exact, sb_exact)
      `FG_ASSERT(sched_issue_no_pending_source, !issue_o || !((p_use1 && p_sb[p_rs1]) || (p_use2 && p_sb[p_rs2])))
      `FG_ASSERT(sched_issue_no_pending_dest, !issue_o || p_rd == 5'd0 || !p_sb[p_rd])
      `FG_ASSERT(sched_issue_legal_candidate, !issue_o || (p_cand && p_legal))
      `FG_ASSERT(sched_issue_unit_free, !(iss_lsu && lsu_v_q) && !(iss_div && div_v_q))
      `FG_ASSERT(sched_pick_in_range, !issue_o || 32'(pick_o) < NW)
      `FG_ASSERT(sched_pick_onehot, $onehot0(pick_oh))
      `FG_ASSERT(sched_ready_issues, !can_issue_i || rtop == '0 || issue_o)
      `FG_ASSERT(sched_gto_greedy, GTO == 0 || !issue_o || !rtop[last_q] || pick_o == last_q)
      `FG_ASSERT(sched_top_class_first, !issue_o || p_prio == top)
      `FG_ASSERT(sched_lsu_end_expected, !lsu_end_i || lsu_v_q)
      `FG_ASSERT(sched_div_end_expected, !div_end_i || div_v_q)
    end
  end
endmodule
