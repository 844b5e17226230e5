// Round-robin arbiter (shared primitive).  Grants the first requester at or
// after the priority pointer; when the grant is taken (ack_i) the pointer
// moves just past the winner, so every requester is served within N grants.
// gnt_o / idx_o / ptr_d_o are combinational in req_i and ack_i: use inside a
// block, not at a block boundary.  ptr_d_o is the pointer after this edge
// (reset aside), for a block that must know the next grant a cycle ahead.  Named assertions: rtl/include/fg_assert.svh.
`include "fg_assert.svh"
`include "fg_comb.svh"
module fg_rr_arb #(
  parameter int N  = 4,
  localparam int IW = (N > 1) ? $clog2(N) : 1  // index width (derived)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [N-1:0]         req_i,
  input  logic                 ack_i,
  output logic                 valid_o,
  output logic [N-1:0]         gnt_o,
  output logic [IW-1:0]        idx_o,
  output logic [IW-1:0]        ptr_d_o
);
  `FG_ASSERT_PARAM(g_chk_n, N >= 1, "fg_rr_arb: N must be >= 1")
  localparam logic [IW:0] NN = (IW+1)'(N);

  logic [IW-1:0] ptr_q;
  logic found;

  // The candidate ptr_q + i wrapped into [0, N): a function, not a loop
  // temporary signal (whose top bit would never toggle once wrapped), and
  // the wrap a ?: rather than an if, whose taken arm Verilator -O3 does not
  // count in this unrolled loop (docs/COVERAGE.md).  The pointer is an
  // argument: a function reads no module signal (scripts/check_func_args.py).
  function automatic logic [IW-1:0] cand(input logic [IW-1:0] ptr, input logic [IW:0] i);
    logic [IW:0] sum;
    sum  = {1'b0, ptr} + i;
    cand = IW'((sum >= NN) ? sum - NN : sum);
  endfunction

  `FG_COMB_READBACK begin
    found = 1'b0;
    idx_o = '0;
    for (int i = 0; i < N; i++) begin
      if (!found && req_i[cand(ptr_q, (IW+1)'(i))]) begin
        found = 1'b1;
        idx_o = cand(ptr_q, (IW+1)'(i));
      end
    end
  end

  assign valid_o = found;
  assign gnt_o   = found ? (N'(1) << idx_o) : '0;
  assign ptr_d_o = !(found && ack_i) ? ptr_q : (idx_o == IW'(N - 1)) ? '0 : idx_o + 1'b1;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) ptr_q <= '0;
    else ptr_q <= ptr_d_o;
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(arb_ptr_in_range, 32'(ptr_q) < N)
      `FG_ASSERT(arb_grant_on_requester, !found || req_i[idx_o])
    end
  end

`ifdef FORMAL
  // Proofs (formal/, docs/FORMAL.md).  A grant exactly when someone requests
  // (on a requester: asserted above), and no requester is passed over more
  // than N-1 times: g_fair[i].f_wait_q counts the grants taken by others
  // while i kept requesting; with the pointer's distance to i it never
  // exceeds N-1 (each such grant moves the pointer past its winner, strictly
  // closer to i).
  logic [N-1:0] f_fair;
  for (genvar i = 0; i < N; i++) begin : g_fair
    logic [IW:0] f_wait_q;
    always_ff @(posedge clk_i) begin
      if (!rst_ni || !req_i[i] || (found && ack_i && idx_o == IW'(i))) f_wait_q <= '0;
      else if (found && ack_i) f_wait_q <= f_wait_q + 1'b1;
    end
    // distance from the pointer to i, going up and wrapping at N
    wire [IW:0] f_dist = (32'(ptr_q) <= i) ? (IW+1)'(i) - {1'b0, ptr_q}
                                           : (IW+1)'(i + N) - {1'b0, ptr_q};
    assign f_fair[i] = {1'b0, f_wait_q} + {1'b0, f_dist} <= (IW+2)'(N - 1);
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(arb_served_within_n, &f_fair)
      `FG_ASSERT(arb_grant_iff_request, found == (req_i != '0))
      `FG_ASSERT(arb_idx_in_range, 32'(idx_o) < N)
      `FG_ASSERT(arb_ptr_d_in_range, 32'(ptr_d_o) < N)
    end
  end
`endif
endmodule
