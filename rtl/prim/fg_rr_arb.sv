// Round-robin arbiter (shared primitive).  Grants the first requester at or
// after the priority pointer; when the grant is taken (ack_i) the pointer
// moves just past the winner, so every requester is served within N grants.
// gnt_o / idx_o are combinational in req_i: use inside a block, not at a
// block boundary.
module fg_rr_arb #(
  parameter int N = 4
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [N-1:0]         req_i,
  input  logic                 ack_i,
  output logic                 valid_o,
  output logic [N-1:0]         gnt_o,
  output logic [((N > 1) ? $clog2(N) : 1)-1:0] idx_o
);
  localparam int IW = (N > 1) ? $clog2(N) : 1;
  localparam logic [IW:0] NN = (IW+1)'(N);

  logic [IW-1:0] ptr_q;
  logic found;

  // The candidate ptr_q + i wrapped into [0, N): a function, not a loop
  // temporary signal (whose top bit would never toggle once wrapped), and
  // the wrap a ?: rather than an if, whose taken arm Verilator -O3 does not
  // count in this unrolled loop (docs/COVERAGE.md).
  function automatic logic [IW-1:0] cand(input logic [IW:0] i);
    logic [IW:0] sum;
    sum  = {1'b0, ptr_q} + i;
    cand = IW'((sum >= NN) ? sum - NN : sum);
  endfunction

  always_comb begin
    found = 1'b0;
    idx_o = '0;
    for (int i = 0; i < N; i++) begin
      if (!found && req_i[cand((IW+1)'(i))]) begin
        found = 1'b1;
        idx_o = cand((IW+1)'(i));
      end
    end
  end

  assign valid_o = found;
  assign gnt_o   = found ? (N'(1) << idx_o) : '0;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) ptr_q <= '0;
    else if (found && ack_i) ptr_q <= (idx_o == IW'(N - 1)) ? '0 : idx_o + 1'b1;
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (32'(ptr_q) < N);
      assert (!found || req_i[idx_o]);
    end
  end
endmodule
