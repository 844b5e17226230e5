// A group of NBG banks of the trace player's memory (fpga/fg_trace_player.sv)
// with its own registered copies of the read enable, read address, write
// enables, write address and write data, so that no single register drives
// every block RAM of the memory across the device (the memory's banks sit in
// the block-RAM rows of the whole die).  (* keep *): every group registers
// the same signals, and Yosys's opt_merge would otherwise fold the copies
// back into one register each (as fpga/fg_bus_slice.sv).
//
// Cycle contract (with the player): re_i at edge E is re_q after it; at the
// next edge the banks read row ra_q into rdata_o, line_o takes the banks'
// previous read data (the row before), and ra_q moves to the next row.
// ld_i loads ra_q with ldv_i instead (no read).  A write: wgo_i with the
// row's word wbank_i (global word index), row wrow_i and data wdat_i, written
// two edges later.
//
// The group's banks have DEPTH rows, the player's addresses AW bits: a
// group of a shallower tier uses the address's low bits (the player never
// plays or loads a block beyond its rows).
module fg_play_group #(
  parameter int AW    = 12,    // the player's row address
  parameter int DEPTH = 4096,  // rows of this group's banks
  parameter int NBG   = 5,     // banks in this group
  parameter int BASE  = 0,     // global index of its first bank
  localparam int GAW  = $clog2(DEPTH)
) (
  input  logic              clk_i,
  input  logic              re_i,
  input  logic              ld_i,
  input  logic [AW-1:0]     ldv_i,
  input  logic              wgo_i,
  input  logic [7:0]        wbank_i,
  input  logic [AW-1:0]     wrow_i,
  input  logic [31:0]       wdat_i,
  output logic [32*NBG-1:0] rdata_o,   // the banks' read data (the row last read)
  output logic [32*NBG-1:0] line_o     // the row before it: the line played
);
  logic              re_q = 1'b0;
  logic [AW-1:0]     ra_q;
  logic [NBG-1:0]    wen_q = '0;
  logic [AW-1:0]     wa_q;
  logic [31:0]       wd_q;
  logic [32*NBG-1:0] line_q;

  (* keep *) always_ff @(posedge clk_i) begin
    re_q <= re_i;
    if (ld_i) ra_q <= ldv_i;
    else if (re_q) ra_q <= ra_q + 1'b1;
    for (int k = 0; k < NBG; k++) wen_q[k] <= wgo_i && (wbank_i == 8'(BASE + k));
    wa_q <= wrow_i;
    wd_q <= wdat_i;
  end

  for (genvar k = 0; k < NBG; k++) begin : g_bank
    fg_play_bank #(.DEPTH(DEPTH), .W(32)) u_bank (
      .clk_i, .we_i(wen_q[k]), .waddr_i(wa_q[GAW-1:0]), .wdata_i(wd_q), .re_i(re_q), .raddr_i(ra_q[GAW-1:0]),
      .rdata_o(rdata_o[32*k +: 32]));
  end

  always_ff @(posedge clk_i) begin
    if (re_q) line_q <= rdata_o;
  end
  assign line_o = line_q;

  if (GAW < AW) begin : g_unused
    logic unused;
    assign unused = ^{ra_q[AW-1:GAW], wa_q[AW-1:GAW]};
  end
endmodule
