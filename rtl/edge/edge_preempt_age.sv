// Age order of the preemption controller's warp slots (EDGE IV-D: the oldest
// / newest victim by allocation order), one flip-flop per slot pair: bit
// i*NW + j of ord_o (row i, column j), j > i, is set when slot i was
// allocated before slot j; for j < i the order is the complement (a strict
// total order), and the bits j <= i are 0.  alloc_i is a set of slots
// allocated at one edge: they become the newest, lower slot older among
// them.  Pair i < j:
//   j allocated         -> i older (i is older, or both new and i lower)
//   only i allocated    -> j older
//   neither             -> unchanged
// No reset: the controller allocates every slot at its reset (lower slot
// older) through the same input.
//
// When: the order is kept in 8 x 8 blocks (groups of G slots, the
// selection's, edge_preempt.sv).  A diagonal block (both slots in one group)
// takes an allocation at the next edge, every other block one edge later
// (a register between, then a copy of it per block: each copy's bit drives
// the set or enable pins of at most eight bits, in its block, where one
// shared register's bit drove 63 across the controller -- 7.8 % of the
// four-core FPGA top's overused wires -- and the controller's 64-wide busy
// check in front of the copies reaches only the diagonal's).  The
// controller reads the diagonal blocks one edge after its selection's
// first edge and the others two edges after it (edge_preempt.sv).
//
// Two descriptions of the same next state, chosen by ROWS (default: 1 when
// verilated, unless FG_AGE_BITS is defined, 0 elsewhere):
//   ROWS = 0  one always_ff per bit, "set when j is allocated, else clear
//             when i is": Yosys maps each bit onto one ECP5 flip-flop with
//             the allocation of j on its sync set (LSR, over CE), that of
//             i on its enable and D = 0, no LUT (as a LUT per bit it would
//             cost 2,016 LUT4s, docs/PREEMPT.md).  Synthesis and the formal
//             proofs read this form.
//   ROWS = 1  two registers, a row at a time with word operations.  The
//             verilated models run this form by default: 2,016 conditional
//             bit updates a cycle per controller would be most of the
//             verilated FPGA top's time with four 64-slot controllers; the
//             model edge_preempt_bits (FG_AGE_BITS) runs ROWS = 0 in lockstep
//             with the twin.
// formal/edge_preempt_age.sby proves the two equal (both from equal states,
// for every input, for all time).
`include "fg_assert.svh"
module edge_preempt_age #(
  parameter int NW = 64,
`ifdef FG_AGE_BITS
  parameter bit ROWS = 1'b0
`elsif VERILATOR
  parameter bit ROWS = 1'b1
`else
  parameter bit ROWS = 1'b0
`endif
) (
  input  logic          clk_i,
  input  logic [NW-1:0] alloc_i,
  output logic [NW*NW-1:0] ord_o
);
  `FG_ASSERT_PARAM(g_chk_nw, NW >= 2 && NW <= 64, "edge_preempt_age: NW must be 2..64")

  localparam int G   = 8;                 // the selection's groups (edge_preempt.sv)
  localparam int NG  = (NW + G - 1) / G;
  localparam int NWP = NG * G;

  logic [NW-1:0] ord_q [NW];
  logic [NW-1:0] alloc_q;                 // the allocation of the last edge
  always_ff @(posedge clk_i) alloc_q <= alloc_i;
  if (ROWS) begin : g_rows
    logic [NW-1:0] alloc_qq;              // ... and of the edge before
    always_ff @(posedge clk_i) alloc_qq <= alloc_q;
    for (genvar i = 0; i < NW; i++) begin : g_row
      // the bits above i: set where allocated, else kept unless i is
      // allocated; in i's group from the last edge's allocation, elsewhere
      // from the one before
      localparam logic [NW-1:0] ABOVE = ~((NW'(1) << i) | (NW'(1) << i) - NW'(1));
      localparam logic [NW-1:0] GRP   = NW'((NWP'(1) << G) - NWP'(1)) << ((i / G) * G);
      wire [NW-1:0] set_v = (alloc_q & GRP) | (alloc_qq & ~GRP);
      wire [NW-1:0] clr_v = (alloc_q[i] ? GRP : '0) | (alloc_qq[i] ? ~GRP : '0);
      always_ff @(posedge clk_i)
        ord_q[i] <= (set_v & ABOVE) | (ord_q[i] & ABOVE & ~clr_v);
    end
  end else begin : g_blocks
    // block (a, b), a <= b: rows a*G.., columns b*G..; its copies of the
    // allocation of group a (enables) and group b (sets): the diagonal's
    // of alloc_i, the others' of alloc_q; keep: Yosys would merge equal
    // flip-flops back into one
    wire [NWP-1:0] alloc_p  = NWP'(alloc_i);
    wire [NWP-1:0] alloc_qp = NWP'(alloc_q);
    logic unused_qp;  // no block off the diagonal when NW <= G
    assign unused_qp = ^alloc_qp;
    for (genvar a = 0; a < NG; a++) begin : g_a
      for (genvar b = a; b < NG; b++) begin : g_b
        logic [G-1:0] ce_q, set_q;
        if (b == a) begin : g_diag
          (* keep *) always_ff @(posedge clk_i) ce_q <= alloc_p[a*G +: G];
          assign set_q = ce_q;
        end else begin : g_off
          (* keep *) always_ff @(posedge clk_i) ce_q <= alloc_qp[a*G +: G];
          (* keep *) always_ff @(posedge clk_i) set_q <= alloc_qp[b*G +: G];
        end
        // (not every copy's bit has a reader: the diagonal's first column,
        // slots past NW)
        logic unused_cp;
        assign unused_cp = ^{ce_q, set_q};
        for (genvar x = 0; x < G; x++) begin : g_x
          for (genvar y = 0; y < G; y++) begin : g_y
            if (a*G + x < NW && b*G + y < NW && b*G + y > a*G + x) begin : g_bit
              always_ff @(posedge clk_i) begin
                if (set_q[y]) ord_q[a*G + x][b*G + y] <= 1'b1;
                else if (ce_q[x]) ord_q[a*G + x][b*G + y] <= 1'b0;
              end
            end
          end
        end
      end
    end
    for (genvar i = 0; i < NW; i++) begin : g_low
      for (genvar j = 0; j <= i; j++) begin : g_bit
        always_ff @(posedge clk_i) ord_q[i][j] <= 1'b0;
      end
    end
  end
  for (genvar i = 0; i < NW; i++) begin : g_out
    assign ord_o[i*NW +: NW] = ord_q[i];
  end
endmodule
