// Formal harness of edge_preempt_age (docs/FORMAL.md): its two descriptions
// of the age order, the flip-flop-per-bit form that synthesis and the
// controller's proof read (ROWS = 0) and the row form (ROWS = 1), side by
// side on the same allocations, each instance's form set here.  From the
// same state (assumed in the third cycle, once both have registered two
// allocations) they hold the same order in every later cycle, for every
// input: the two forms are one design.
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
  // the start is the third cycle (f_cyc_q 2), where the orders are assumed
  // equal too; from the fourth on they are compared, in the cycle itself (an
  // assertion in a clocked block would be checked one step later, past the
  // base case's window, so that the base case could not fail).  The base
  // case (k-induction, depth 4: steps 0..3) thus checks one edge from any
  // equal state under any allocation, i.e. that both forms compute the same
  // next order; the induction step extends it to every later cycle.
  logic [1:0] f_cyc_q = 2'd0;
  always_ff @(posedge clk_i) if (f_cyc_q != 2'd3) f_cyc_q <= f_cyc_q + 2'd1;
  always_comb begin
    if (f_cyc_q == 2'd2) a_same_start: assume (ord_bits == ord_rows);
    if (f_cyc_q == 2'd3) forms_agree: assert (ord_bits == ord_rows);
  end
endmodule
