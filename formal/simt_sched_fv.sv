// Formal harness of simt_sched, the RTL SIMT core's scoreboard and warp
// scheduler (docs/SIMT_RTL.md, docs/FORMAL.md): any instructions arriving
// in any slot's empty i-buffer, which empties at issue or at any time (a
// flush, a launch); any of them candidates, any ages and priority classes,
// the lane pipeline free or not in any cycle; the units end only an
// instruction they hold (the core's contract: the LSU or the divider ends
// the instruction issued to it).  Reset is asserted in the
// first cycle.  The properties are the RTL's own assertions: nothing issues
// with a pending source or destination, or to a busy unit, or that is not a
// legal candidate; the scoreboard holds exactly the units' destinations;
// a warp of the highest ready class issues, and one does whenever a warp
// is ready and the pipeline takes it; GTO stays on the greedy warp while it
// is ready and in that class.
module simt_sched_fv #(
  parameter int NW  = 3,
  parameter int GTO = 1
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic [NW-1:0]    cand_i,
  input logic [NW-1:0]    legal_i,
  input logic [NW*2-1:0]  unit_i,
  input logic [NW-1:0]    ld_i,
  input logic [4:0]       ld_rs1_i,
  input logic [4:0]       ld_rs2_i,
  input logic [4:0]       ld_rd_i,
  input logic             ld_use1_i,
  input logic             ld_use2_i,
  input logic [NW-1:0]    empty_i,      // an i-buffer empties without issuing
  input logic [NW*32-1:0] age_i,
  input logic [NW*2-1:0]  prio_i,
  input logic             can_issue_i,
  input logic             lsu_end_i,
  input logic             div_end_i
);
  localparam int SW = (NW > 1) ? $clog2(NW) : 1;
  logic             issue_o, lsu_v_o, div_v_o;
  logic [SW-1:0]    pick_o, lsu_slot_o, div_slot_o;
  logic [NW-1:0]    ifault_o;
  logic [4:0]       lsu_rd_o, div_rd_o;
  logic [NW*32-1:0] sb_o;
  logic [NW-1:0]    pick_oh_o;
  logic [NW-1:0]    f_hz_lsu_o, f_hz_div_o;
  // the age order the core keeps (simt_core older_q): any ages, ties by slot
  logic [NW*NW-1:0] older_i;
  always_comb
    for (int i = 0; i < NW; i++)
      for (int j = 0; j < NW; j++)
        older_i[i*NW + j] = age_i[i*32 +: 32] < age_i[j*32 +: 32] || (age_i[i*32 +: 32] == age_i[j*32 +: 32] && i < j);
  // the i-buffers: what the core's dq_* registers hold
  logic [NW-1:0]   ibv_q, use1_i, use2_i;
  logic [NW*5-1:0] rs1_i, rs2_i, rd_i;
  always_ff @(posedge clk_i)
    for (int s = 0; s < NW; s++) begin
      if (!rst_ni) ibv_q[s] <= 1'b0;
      else if (ld_i[s]) ibv_q[s] <= 1'b1;
      else if ((issue_o && pick_oh_o[s]) || empty_i[s]) ibv_q[s] <= 1'b0;
      if (ld_i[s]) begin
        rs1_i[s*5 +: 5] <= ld_rs1_i;
        rs2_i[s*5 +: 5] <= ld_rs2_i;
        rd_i[s*5 +: 5]  <= ld_rd_i;
        use1_i[s]       <= ld_use1_i;
        use2_i[s]       <= ld_use2_i;
      end
    end
  simt_sched #(.NW(NW), .GTO(GTO)) dut (.*);

  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  // induction strengthening: an i-buffer's kept hazards are its fields
  // compared with the unit's destination while the unit holds that slot's
  function automatic logic f_touch(input int s, input logic [4:0] urd);
    f_touch = urd != 5'd0 && ((use1_i[s] && rs1_i[s*5 +: 5] == urd) || (use2_i[s] && rs2_i[s*5 +: 5] == urd) ||
                              rd_i[s*5 +: 5] == urd);
  endfunction
  always_ff @(posedge clk_i)
    if (rst_ni && !f_init_q)
      for (int s = 0; s < NW; s++) begin
        if (ibv_q[s] && lsu_v_o) assert (f_hz_lsu_o[s] == (32'(lsu_slot_o) == s && f_touch(s, lsu_rd_o)));
        if (ibv_q[s] && div_v_o) assert (f_hz_div_o[s] == (32'(div_slot_o) == s && f_touch(s, div_rd_o)));
      end

  always_comb begin
    if (f_init_q) assume (!rst_ni);
    assume (!lsu_end_i || lsu_v_o);
    assume (!div_end_i || div_v_o);
    assume ((cand_i & ~ibv_q) == '0);
    assume ((ld_i & ibv_q) == '0);
  end
endmodule
