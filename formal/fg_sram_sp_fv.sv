// Formal harness of fg_sram_sp (docs/FORMAL.md): any accesses whose address
// is in range (the block's contract; inside the blocks that use it the
// same assertion is a proof obligation on the address they compute).  The
// properties are the RTL's own `ifdef FORMAL block (the array keeps the last
// write; a read returns it and holds it).
module fg_sram_sp_fv #(
  parameter int WIDTH = 4,
  parameter int DEPTH = 12
) (
  input logic                      clk_i,
  input logic                      req_i,
  input logic                      we_i,
  input logic [$clog2(DEPTH)-1:0]  addr_i,
  input logic [WIDTH-1:0]          wdata_i
);
  logic [WIDTH-1:0] rdata_o;
  fg_sram_sp #(.WIDTH(WIDTH), .DEPTH(DEPTH)) dut (.*);
  always_comb if (req_i) assume (32'(addr_i) < DEPTH);
endmodule
