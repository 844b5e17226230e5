// One lane's bank of the RTL SIMT core's register file: the x registers of
// the threads the lane executes (thread pass * NL + lane of every warp slot),
// one write port, two synchronous read ports (rs1, rs2).  Each read port is
// its own copy of the array, written alike, so that each is a plain
// one-write one-read memory (a DP16KD pair on the ECP5 at the default 1024 x
// 32).  x0 and registers a warp has not written yet are the core's business
// (simt_core substitutes their values); a read returns the array's word.
module simt_rf #(
  parameter  int DEPTH = 1024,
  localparam int AW    = $clog2(DEPTH)
) (
  input  logic          clk_i,
  input  logic          we_i,
  input  logic [AW-1:0] waddr_i,
  input  logic [31:0]   wdata_i,
  input  logic [AW-1:0] raddr_a_i,
  output logic [31:0]   rdata_a_o,
  input  logic [AW-1:0] raddr_b_i,
  output logic [31:0]   rdata_b_o
);
  logic [31:0] mem_a [DEPTH];
  logic [31:0] mem_b [DEPTH];
  always_ff @(posedge clk_i) begin
    if (we_i) begin
      mem_a[waddr_i] <= wdata_i;
      mem_b[waddr_i] <= wdata_i;
    end
    rdata_a_o <= mem_a[raddr_a_i];
    rdata_b_o <= mem_b[raddr_b_i];
  end
endmodule
