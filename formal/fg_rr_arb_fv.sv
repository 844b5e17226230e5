// Formal harness of fg_rr_arb (docs/FORMAL.md): any requests and
// acknowledgements, reset asserted in the first cycle and free afterwards.
// The properties are the RTL's own (its assertions and the `ifdef FORMAL
// block: pointer in range, one-hot grant on a requester, every requester
// served within N grants, the next pointer in range).
module fg_rr_arb_fv #(
  parameter int N = 5
) (
  input logic         clk_i,
  input logic         rst_ni,
  input logic [N-1:0] req_i,
  input logic         ack_i
);
  localparam int IW = (N > 1) ? $clog2(N) : 1;
  logic          valid_o;
  logic [N-1:0]  gnt_o;
  logic [IW-1:0] idx_o, ptr_d_o;
  fg_rr_arb #(.N(N)) dut (.*);

  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb if (f_init_q) assume (!rst_ni);
endmodule
