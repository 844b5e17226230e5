// Inferable single-port synchronous SRAM (shared primitive).  One access per
// cycle: a write, or a read whose data appears on rdata_o after the edge and
// stays there until the next read.  No reset on the array or on rdata, so
// Yosys maps it to block RAM.
module fg_sram_sp #(
  parameter int WIDTH = 32,
  parameter int DEPTH = 32
) (
  input  logic                     clk_i,
  input  logic                     req_i,
  input  logic                     we_i,
  input  logic [((DEPTH > 1) ? $clog2(DEPTH) : 1)-1:0] addr_i,
  input  logic [WIDTH-1:0]         wdata_i,
  output logic [WIDTH-1:0]         rdata_o
);
  logic [WIDTH-1:0] mem_q [DEPTH];
  logic [WIDTH-1:0] rdata_q;

  always_ff @(posedge clk_i) begin
    if (req_i) begin
      if (we_i) mem_q[addr_i] <= wdata_i;
      else      rdata_q <= mem_q[addr_i];
    end
  end

  assign rdata_o = rdata_q;

  always_ff @(posedge clk_i) begin
    if (req_i) assert (32'(addr_i) < DEPTH);
  end
endmodule
