// A dummy block for scripts/check_manifest.sh: a FIFO (the shared primitive)
// whose head is counted as it leaves.  Only its manifest, fg_dummy.toml,
// tells the flows about it.
`include "fg_assert.svh"
module fg_dummy #(
  parameter int WIDTH = 8
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             valid_i,
  output logic             ready_o,
  input  logic [WIDTH-1:0] data_i,
  output logic             valid_o,
  input  logic             ready_i,
  output logic [WIDTH-1:0] data_o,
  output logic [7:0]       popped_o
);
  `FG_ASSERT_PARAM(g_chk_width, WIDTH >= 2, "fg_dummy: WIDTH must be >= 2")
  logic [1:0] count;
  fg_fifo #(.WIDTH(WIDTH), .DEPTH(3)) u_fifo (
    .clk_i, .rst_ni, .valid_i, .ready_o, .data_i, .valid_o, .ready_i, .data_o, .count_o(count)
  );
  logic unused_count;
  assign unused_count = ^count;
  always_ff @(posedge clk_i) begin
    if (!rst_ni)                  popped_o <= '0;
    else if (valid_o && ready_i)  popped_o <= popped_o + 8'd1;
  end
endmodule
