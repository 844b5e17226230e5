// One register window's slice of the FPGA top's register bus and reset tree
// (finegrain_ulx3s.sv): registered copies of the write strobe, word offset,
// write data and block reset, so that each block's flip-flops are driven from
// registers placed near it rather than from one register across the device
// (a single block reset reaching every flip-flop's LSR was the top's critical
// path, most of it routing; docs/FPGA.md).
//
// (* keep *): the slices of all windows register the same signals, and
// Yosys's opt_merge would otherwise fold them back into one register each.
module fg_bus_slice
#(
  parameter int AW = 8
) (
  input  logic          clk_i,
  input  logic          blk_rst_ni,  // the blocks' reset root
  input  logic          we_i,
  input  logic [AW-1:0] addr_i,
  input  logic [31:0]   wdata_i,
  output logic          rst_no,      // blk_rst_ni one cycle later
  output logic          we_o,
  output logic [AW-1:0] addr_o,
  output logic [31:0]   wdata_o
);
  // power-up values as the top's own reset registers (no write, in reset)
  logic          rst_n_q = 1'b0;
  logic          we_q    = 1'b0;
  logic [AW-1:0] addr_q;
  logic [31:0]   wdata_q;

  (* keep *) always_ff @(posedge clk_i) begin
    rst_n_q <= blk_rst_ni;
    we_q    <= we_i;
    addr_q  <= addr_i;
    wdata_q <= wdata_i;
  end

  assign rst_no  = rst_n_q;
  assign we_o    = we_q;
  assign addr_o  = addr_q;
  assign wdata_o = wdata_q;
endmodule
