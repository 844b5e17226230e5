// Age order of the preemption controller's warp slots (EDGE IV-D: the oldest
// / newest victim by allocation order), one flip-flop per slot pair: bit
// i*NW + j of ord_o (row i, column j), j > i, is set when slot i was
// allocated before slot j; for j < i the order is the complement (a strict
// total order), and the bits j <= i are 0.  alloc_i is a set of slots allocated at one edge: they
// become the newest, lower slot older among them.  Pair i < j:
//   j allocated         -> i older (i is older, or both new and i lower)
//   only i allocated    -> j older
//   neither             -> unchanged
// No reset: the controller allocates every slot at its reset (lower slot
// older) through the same input.
//
// Two descriptions of the same next state, chosen by ROWS (default: 1 when
// verilated, 0 elsewhere):
//   ROWS = 0  one always_ff per bit, "set when j is allocated, else clear
//             when i is": Yosys maps each bit onto one ECP5 flip-flop with
//             alloc_i[j] on its sync set (LSR, over CE), alloc_i[i] on its
//             enable and D = 0, no LUT (as a LUT per bit it would cost
//             2,016 LUT4s, docs/PREEMPT.md).  Synthesis and the
//             formal proofs read this form.
//   ROWS = 1  a row at a time with word operations.  The verilated models
//             run this form: 2,016 conditional bit updates a cycle per
//             controller would be most of the verilated FPGA top's time
//             with four 64-slot controllers.
// formal/edge_preempt_age.sby proves the two equal (both from equal states,
// for every input, for all time).
`include "fg_assert.svh"
module edge_preempt_age #(
  parameter int NW = 64,
`ifdef VERILATOR
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

  logic [NW-1:0] ord_q [NW];
  for (genvar i = 0; i < NW; i++) begin : g_age
    if (ROWS) begin : g_row
      // the bits above i: set where allocated, else kept unless i is allocated
      localparam logic [NW-1:0] ABOVE = ~((NW'(1) << i) | (NW'(1) << i) - NW'(1));
      always_ff @(posedge clk_i)
        ord_q[i] <= (alloc_i & ABOVE) | (alloc_i[i] ? '0 : (ord_q[i] & ABOVE));
    end else begin : g_bits
      for (genvar j = 0; j < NW; j++) begin : g_bit
        if (j > i) begin : g_up
          always_ff @(posedge clk_i) begin
            if (alloc_i[j]) ord_q[i][j] <= 1'b1;
            else if (alloc_i[i]) ord_q[i][j] <= 1'b0;
          end
        end else begin : g_low
          always_ff @(posedge clk_i) ord_q[i][j] <= 1'b0;
        end
      end
    end
  end
  for (genvar i = 0; i < NW; i++) begin : g_out
    assign ord_o[i*NW +: NW] = ord_q[i];
  end
endmodule
