// The doorbell aperture window of the SIMT top (the blocks top has the same
// logic inline, as fg_host_link.sv says): a bus write at byte offset x
// of the window is a front-end write of its data to base_i + x (EDGE III-C:
// what a device's posted write to the doorbell region is), queued in a
// 4-entry FIFO toward the doorbell decoder's wr_* port.  A write that finds
// the FIFO full is counted in drops_o (saturating), not lost silently.
module fg_aperture #(
  parameter int AW     = 64,   // front-end address bits
  parameter int WB     = 8     // word offset bits of a window
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          we_i,
  input  logic [WB-1:0] addr_i,
  input  logic [31:0]   wdata_i,
  input  logic [AW-1:0] base_i,
  output logic          wr_valid_o,
  input  logic          wr_ready_i,
  output logic [AW-1:0] wr_addr_o,
  output logic [31:0]   wr_data_o,
  output logic [15:0]   drops_o,
  output logic [2:0]    count_o
);
  logic [AW-1:0]    addr;
  logic             push_q, ready;
  logic [AW+31:0]   din_q, dout;
  logic [15:0]      drops_q;
  assign addr = base_i + AW'({addr_i, 2'b00});
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      push_q  <= 1'b0;
      drops_q <= '0;
    end else begin
      push_q <= we_i;
      if (push_q && !ready && drops_q != '1) drops_q <= drops_q + 1'b1;
    end
    if (we_i) din_q <= {addr, wdata_i};
  end
  fg_fifo #(.WIDTH(AW + 32), .DEPTH(4)) u_fifo (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(push_q), .ready_o(ready), .data_i(din_q),
    .valid_o(wr_valid_o), .ready_i(wr_ready_i), .data_o(dout), .count_o(count_o));
  assign wr_addr_o = dout[AW+31:32];
  assign wr_data_o = dout[31:0];
  assign drops_o   = drops_q;
endmodule
