// Inferable single-port synchronous SRAM (shared primitive).  One access per
// cycle: a write, or a read whose data appears on rdata_o after the edge and
// stays there until the next read.  No reset on the array or on rdata, so
// Yosys maps it to block RAM.  Named assertions: rtl/include/fg_assert.svh.
`include "fg_assert.svh"
module fg_sram_sp #(
  parameter int WIDTH = 32,
  parameter int DEPTH = 32,
  localparam int AW   = (DEPTH > 1) ? $clog2(DEPTH) : 1  // address width (derived)
) (
  input  logic                     clk_i,
  input  logic                     req_i,
  input  logic                     we_i,
  input  logic [AW-1:0]            addr_i,
  input  logic [WIDTH-1:0]         wdata_i,
  output logic [WIDTH-1:0]         rdata_o
);
  `FG_ASSERT_PARAM(g_chk_width, WIDTH >= 1, "fg_sram_sp: WIDTH must be >= 1")
  `FG_ASSERT_PARAM(g_chk_depth, DEPTH >= 1, "fg_sram_sp: DEPTH must be >= 1")

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
    if (req_i) begin
      `FG_ASSERT(sram_addr_in_range, 32'(addr_i) < DEPTH)
    end
  end

`ifdef FORMAL
  // Proofs (formal/, docs/FORMAL.md): one word, at an address the solver
  // chooses (f_addr), is shadowed from its first write: the array holds the
  // last data written there, and a read of it returns that data on rdata_o,
  // which holds it until the next read.
  (* anyconst *) logic [AW-1:0] f_addr;
  logic             f_v_q = 1'b0, f_rchk_q = 1'b0;
  logic [WIDTH-1:0] f_data_q, f_rexp_q;
  always_ff @(posedge clk_i) begin
    if (req_i && we_i && addr_i == f_addr) begin
      f_v_q    <= 1'b1;
      f_data_q <= wdata_i;
    end
    if (req_i && !we_i) begin
      f_rchk_q <= f_v_q && addr_i == f_addr;
      f_rexp_q <= f_data_q;
    end
  end
  always_ff @(posedge clk_i) begin
    `FG_ASSUME(sram_addr_legal, 32'(f_addr) < DEPTH)
    `FG_ASSERT(sram_holds_last_write, !f_v_q || mem_q[f_addr] == f_data_q)
    `FG_ASSERT(sram_read_returns_last_write, !f_rchk_q || rdata_o == f_rexp_q)
  end
`endif
endmodule
