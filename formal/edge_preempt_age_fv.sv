// Formal harness of edge_preempt_age (docs/FORMAL.md): its two descriptions
// of the age order, the flip-flop-per-bit form that synthesis and the
// controller's proof read (ROWS = 0) and the row form the verilated models
// run (ROWS = 1), side by side on the same allocations.  From the same state
// (assumed in the third cycle, once both have registered two allocations) they
// hold the same order in every later cycle, for every input: the simulated controller is
// the synthesized one.
module edge_preempt_age_fv #(
  parameter int NW = 64
) (
  input logic          clk_i,
  input logic [NW-1:0] alloc_i
);
  logic [NW*NW-1:0] ord_bits, ord_rows;
  edge_preempt_age #(.NW(NW), .ROWS(1'b0)) u_bits (.clk_i, .alloc_i, .ord_o(ord_bits));
  edge_preempt_age #(.NW(NW), .ROWS(1'b1)) u_rows (.clk_i, .alloc_i, .ord_o(ord_rows));

  // Both forms register the allocation before the order takes it, for the
  // blocks off the diagonal twice (the bit form with a copy per block):
  // after two edges those registers hold the same allocations in both, so
  // the start is the third cycle, where the orders are assumed equal too.
  logic [1:0] f_cyc_q = 2'd0;
  always_ff @(posedge clk_i) if (f_cyc_q != 2'd3) f_cyc_q <= f_cyc_q + 2'd1;
  always_comb
    if (f_cyc_q == 2'd2) a_same_start: assume (ord_bits == ord_rows);
  always_ff @(posedge clk_i)
    if (f_cyc_q == 2'd3) forms_agree: assert (ord_bits == ord_rows);
endmodule
