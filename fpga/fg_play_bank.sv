// One bank of the trace player's memory (fpga/fg_trace_player.sv): DEPTH
// words of W bits, one write port (the host's loads) and one registered read
// port with a read enable (the player's stream, and the host's read-back).
// Written so that Yosys infers ECP5 block RAM (DP16KD: two per bank at
// 1024 x 32, the enable on the output latch's clock enable) and Verilator and
// Icarus simulate it; a word never written reads as 0 in the verilated top
// (--x-initial 0) and X in Icarus.  Read and write of one word in one cycle:
// the read data is undefined (never done: loads and replays do not overlap).
module fg_play_bank #(
  parameter int DEPTH = 1024,
  parameter int W     = 32,
  localparam int AW   = $clog2(DEPTH)
) (
  input  logic          clk_i,
  input  logic          we_i,
  input  logic [AW-1:0] waddr_i,
  input  logic [W-1:0]  wdata_i,
  input  logic          re_i,
  input  logic [AW-1:0] raddr_i,
  output logic [W-1:0]  rdata_o
);
  (* no_rw_check *) logic [W-1:0] mem_q [DEPTH];  // reads and writes of one word never meet
  logic [W-1:0] rdata_q;

  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
  end
  always_ff @(posedge clk_i) begin
    if (re_i) rdata_q <= mem_q[raddr_i];
  end
  assign rdata_o = rdata_q;
endmodule
