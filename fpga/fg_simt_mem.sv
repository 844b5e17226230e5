// Memory of the SIMT top (finegrain_simt_ulx3s.sv): BYTES of block RAM at
// physical byte addresses [0, BYTES), shared by the core's memory port (c_*)
// and the host's (h_*: the bus's memory region and the fill engine).
//
// One access a cycle.  When both ports ask, the one that did not have the
// last access goes first, so neither starves the other.  The core's requests
// pass through a FIFO of two first, so that its ready comes from a register
// (the core's request logic and this arbitration are not one path); the
// host's ready depends only on that FIFO and a register.  The access is
// registered before the RAM and the read data after it: a read's data comes
// LAT = 3 cycles after the arbiter took it (the host's at its handshake, the
// core's at least a cycle after its own), reads in request order per port,
// writes answered by nothing (the core's memory contract, docs/SIMT_RTL.md).
// An access at or above BYTES touches nothing, a read of it returns 0, and
// err_o pulses with the address, so that the top reports it; no port waits
// on it.
`include "fg_assert.svh"
module fg_simt_mem #(
  parameter  int BYTES = 327680,
  parameter  int LAT   = 3,         // what the pipeline below gives; stated, not chosen
  localparam int WORDS = BYTES / 4,
  localparam int AW    = $clog2(WORDS)
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // the core's memory port
  input  logic        c_valid_i,
  output logic        c_ready_o,
  input  logic        c_we_i,
  input  logic [31:0] c_addr_i,     // byte address, word aligned
  input  logic [3:0]  c_be_i,
  input  logic [31:0] c_wdata_i,
  output logic        c_rsp_valid_o,
  output logic [31:0] c_rsp_rdata_o,
  // the host's: whole words
  input  logic        h_valid_i,
  output logic        h_ready_o,
  input  logic        h_we_i,
  input  logic [31:0] h_addr_i,
  input  logic [31:0] h_wdata_i,
  output logic        h_rsp_valid_o,
  output logic [31:0] h_rsp_rdata_o,
  // an access outside the memory (one cycle), whose address, from which port
  output logic        err_o,
  output logic [31:0] err_addr_o,
  output logic        err_host_o
);
  `FG_ASSERT_PARAM(g_chk_bytes, BYTES >= 8 && BYTES % 4 == 0, "fg_simt_mem: BYTES must be a multiple of 4")
  `FG_ASSERT_PARAM(g_chk_lat, LAT == 3, "fg_simt_mem: its pipeline answers a read in 3 cycles (LAT)")

  // the core's requests: a FIFO of two
  localparam int CQW = 1 + 32 + 4 + 32;
  logic        cq_valid, cq_ready, cq_we;
  logic [31:0] cq_addr, cq_wdata;
  logic [3:0]  cq_be;
  logic [1:0]  cq_count;
  fg_fifo #(.WIDTH(CQW), .DEPTH(2)) u_creq (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(c_valid_i), .ready_o(c_ready_o),
    .data_i({c_we_i, c_addr_i, c_be_i, c_wdata_i}), .valid_o(cq_valid), .ready_i(cq_ready),
    .data_o({cq_we, cq_addr, cq_be, cq_wdata}), .count_o(cq_count));

  // arbitration: prio_h_q = the host goes first on a conflict
  logic prio_h_q;
  assign cq_ready  = !(h_valid_i && prio_h_q);
  assign h_ready_o = !(cq_valid && !prio_h_q);
  wire c_take = cq_valid && cq_ready;
  wire h_take = h_valid_i && h_ready_o;

  // stage 1: the access taken
  logic          a_v_q, a_we_q, a_host_q, a_ok_q;
  logic [31:0]   a_addr_q, a_wdata_q;
  logic [3:0]    a_be_q;
  // stage 2: a read in the RAM; stage 3: its data
  logic          r_v_q, r_host_q, r_ok_q, o_v_q, o_host_q;
  logic [31:0]   o_data_q;
  logic [31:0]   ram_rdata;

  wire [31:0] addr = c_take ? cq_addr : h_addr_i;
  // each port's bound checked beside the arbitration, not after it
  wire c_ok = cq_addr < 32'(BYTES);
  wire h_ok = h_addr_i < 32'(BYTES);
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      prio_h_q <= 1'b0;
      a_v_q    <= 1'b0;
      r_v_q    <= 1'b0;
      o_v_q    <= 1'b0;
    end else begin
      if (c_take) prio_h_q <= 1'b1;
      else if (h_take) prio_h_q <= 1'b0;
      a_v_q <= c_take || h_take;
      r_v_q <= a_v_q && !a_we_q;
      o_v_q <= r_v_q;
    end
    a_we_q    <= c_take ? cq_we : h_we_i;
    a_host_q  <= !c_take;
    a_ok_q    <= c_take ? c_ok : h_ok;
    a_addr_q  <= addr;
    a_be_q    <= c_take ? cq_be : 4'hF;
    a_wdata_q <= c_take ? cq_wdata : h_wdata_i;
    r_host_q  <= a_host_q;
    r_ok_q    <= a_ok_q;
    o_host_q  <= r_host_q;
    o_data_q  <= r_ok_q ? ram_rdata : 32'd0;
  end

  // one RAM per byte lane (a byte store writes its lane only)
  for (genvar b = 0; b < 4; b++) begin : g_lane
    fg_sram_sp #(.WIDTH(8), .DEPTH(WORDS)) u_ram (
      .clk_i(clk_i), .req_i(a_v_q && a_ok_q && (!a_we_q || a_be_q[b])), .we_i(a_we_q),
      .addr_i(a_addr_q[AW+1:2]), .wdata_i(a_wdata_q[8*b +: 8]), .rdata_o(ram_rdata[8*b +: 8]));
  end

  assign c_rsp_valid_o = o_v_q && !o_host_q;
  assign h_rsp_valid_o = o_v_q && o_host_q;
  assign c_rsp_rdata_o = o_data_q;
  assign h_rsp_rdata_o = o_data_q;
  assign err_o         = a_v_q && !a_ok_q;
  assign err_addr_o    = a_addr_q;
  assign err_host_o    = a_host_q;

  logic unused;
  assign unused = ^{a_addr_q[1:0], a_addr_q[31:AW+2], cq_count};

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(simt_mem_one_access, !(c_take && h_take))
    end
  end
endmodule
