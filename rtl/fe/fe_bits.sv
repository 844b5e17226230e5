// F/E bit store (F/E paper Sec. 4.2): one bit per GRAN-byte word over a tracked
// region of LINES lines ("synchronized global memory", Sec. 4.2 and 9), held
// line-wide in an inferable single-port RAM (fg_sram_sp, WORDS bits per RAM
// word) so one read returns every bit a coalesced request can cover.
//
// One access per cycle, by priority:
//   1. an action write (wr_i): the new bits of a line whose request left at
//      the edge before (at most one: nothing leaves during the init);
//   2. the start-up initialisation (Sec. 4.5: "zero out memory and mark it as
//      full"): a command marks init_lines_i lines from init_line_i all full or
//      all empty, one line per cycle (waiting a cycle for an action write);
//      lines outside the region are skipped.  busy_o is high meanwhile and
//      the scheduler holds requests off;
//   3. a head lookup (rd_i): the bits appear on rdata_o the next cycle with
//      rvalid_o and the requesting queue on rqid_o; with LK_REG, two cycles
//      later: the lookup's address is registered in front of the RAM
//      (apend_o meanwhile) and its data after it (rpend_o meanwhile).
// LK_REG is for a store spread over many block RAMs (the memory system's:
// 32 across the die): the address then reaches every RAM from a register,
// and the read data crosses the die from a register, not in the same cycle
// as the scheduler's choice of head or the RAM's slow clock-to-output.  The
// caller keeps the port free in the cycle the registered address reads
// (no write, no initialisation: feb_no_write_and_lookup,
// feb_no_lookup_while_busy).  A write in the
// cycle between the read and the data register is folded into the data
// (writes are whole lines), so rdata_o is the line as it is when it
// appears, as without the registers.
// Every write is also shown on snoop_* (same cycle) so the scheduler keeps its
// cached head bits exact: that snoop is the paper's release mechanism (4.3).
//
// Reset clears the store: after every reset the sequencer
// marks all LINES lines empty, one per cycle, exactly as an init command of
// the whole region would (busy_o high, init_ready_o low, requests held off),
// so no request is ever served from never-written storage.  The Sec. 4.5
// start-up routine's commands ("mark it as full") follow it.
//
// RTL style (docs/RTL_STYLE.md): named assertions, parameter checks (the
// scheduler's, sim/twin/fe_sched_queues.c, for the ones it passes down).
`include "fg_assert.svh"
`include "fg_comb.svh"
module fe_bits #(
  parameter int WORDS     = 32,
  parameter int LINES     = 256,
  parameter int LN_W      = 25,   // width of an absolute line number
  parameter int BASE_LINE = 0,    // first tracked line (absolute line number)
  parameter int CNT_W     = 16,
  parameter int LK_REG    = 0,    // 1: register the lookup's address and data (two more cycles)
  localparam int IW       = (LINES > 1) ? $clog2(LINES) : 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // start-up initialisation command
  input  logic             init_valid_i,
  output logic             init_ready_o,
  input  logic             init_full_i,
  input  logic [LN_W-1:0]  init_line_i,
  input  logic [CNT_W-1:0] init_lines_i,
  output logic             busy_o,
  output logic             busy_d_o,     // busy_o at the next edge (out of reset)
  // action write
  input  logic             wr_i,
  input  logic [IW-1:0]    wr_idx_i,
  input  logic [WORDS-1:0] wr_bits_i,
  // head lookup
  input  logic             rd_i,
  input  logic [IW-1:0]    rd_idx_i,
  input  logic [1:0]       rd_qid_i,
  output logic             rvalid_o,
  output logic [1:0]       rqid_o,
  output logic [WORDS-1:0] rdata_o,
  output logic             apend_o,      // LK_REG: a lookup taken at the last edge, read now
  output logic [1:0]       apend_qid_o,
  output logic [IW-1:0]    apend_idx_o,  // (its line: for the caller's assertions)
  output logic             rpend_o,      // LK_REG: read at the last edge, data at the next
  output logic [1:0]       rpend_qid_o,
  // every write of this cycle
  output logic             snoop_we_o,
  output logic [IW-1:0]    snoop_idx_o,
  output logic [WORDS-1:0] snoop_bits_o
);
  // the reset clear counts the lines in left_q
  `FG_ASSERT_PARAM(g_chk_words, WORDS >= 1 && WORDS <= 64, "fe_bits: WORDS must be 1..64")
  `FG_ASSERT_PARAM(g_chk_cnt_w, CNT_W >= 1 && CNT_W <= 63, "fe_bits: CNT_W must be 1..63")
  `FG_ASSERT_PARAM(g_chk_lk_reg, LK_REG == 0 || LK_REG == 1, "fe_bits: LK_REG must be 0 or 1")
  `FG_ASSERT_PARAM(g_chk_lines, LINES >= 1 && 64'(LINES) < (64'd1 << CNT_W),
                   "fe_bits: LINES must be 1..2**CNT_W-1 (INIT_W of the scheduler)")

  logic             busy_q, full_q;
  logic [LN_W-1:0]  cur_q;
  logic [IW-1:0]    cur_idx_q;
  logic             cur_in_q;
  logic [CNT_W-1:0] left_q;
  logic             rvalid_q;
  logic [1:0]       rqid_q;

  // The line the sequencer writes next, relative to the region with a borrow
  // bit (in the region iff below LINES), kept in registers next to cur_q: the
  // subtract and compare are done on the next line before the edge, not on
  // the snoop's path into the scheduler's head checks.
  // The two candidates' index and region flag are computed side by side from
  // registers (the next line) and from the command port (the first line),
  // and only then chosen (the choice, which depends on busy_q and
  // the command's valid, is not in front of the subtract and compare).
  logic [LN_W:0]   rel_inc, rel_init;
  logic [IW-1:0]   cur_idx, cur_idx_d;
  logic            cur_in, cur_in_d, in_inc, in_init, step, start;
  logic [LN_W-1:0] cur_d, cur_inc;
  logic            busy_d;
  `FG_COMB_READBACK begin
    cur_inc  = cur_q + 1'b1;
    rel_inc  = {1'b0, cur_inc} - (LN_W+1)'(BASE_LINE);
    in_inc   = rel_inc < (LN_W+1)'(LINES);
    rel_init = {1'b0, init_line_i} - (LN_W+1)'(BASE_LINE);
    in_init  = rel_init < (LN_W+1)'(LINES);
    step     = busy_q && !wr_i;
    start    = !busy_q && init_valid_i && init_lines_i != '0;
    busy_d   = step ? left_q != CNT_W'(1) : (start || busy_q);
    cur_d     = cur_q;
    cur_idx_d = cur_idx_q;
    cur_in_d  = cur_in_q;
    if (step) begin
      cur_d     = cur_inc;
      cur_idx_d = rel_inc[IW-1:0];
      cur_in_d  = in_inc;
    end else if (start) begin
      cur_d     = init_line_i;
      cur_idx_d = rel_init[IW-1:0];
      cur_in_d  = in_init;
    end
  end

  // the lookup at the port: as given, or (LK_REG) as registered at the last edge
  logic             rd;
  logic [IW-1:0]    rd_idx;
  logic [1:0]       rd_qid;
  if (LK_REG != 0) begin : g_in_reg
    logic          rd_q;
    logic [IW-1:0] rd_idx_q;
    logic [1:0]    rd_qid_q;
    always_ff @(posedge clk_i) begin
      if (!rst_ni) rd_q <= 1'b0;
      else         rd_q <= rd_i;
    end
    always_ff @(posedge clk_i) begin  // qualified by rd_q
      rd_idx_q <= rd_idx_i;
      rd_qid_q <= rd_qid_i;
    end
    assign rd          = rd_q;
    assign rd_idx      = rd_idx_q;
    assign rd_qid      = rd_qid_q;
    assign apend_o     = rd_q;
    assign apend_qid_o = rd_qid_q;
    assign apend_idx_o = rd_idx_q;
  end else begin : g_no_in_reg
    assign rd          = rd_i;
    assign rd_idx      = rd_idx_i;
    assign rd_qid      = rd_qid_i;
    assign apend_o     = 1'b0;
    assign apend_qid_o = '0;
    assign apend_idx_o = '0;
  end

  logic             ram_req, ram_we;
  logic [IW-1:0]    ram_addr;
  logic [WORDS-1:0] ram_wdata;

  // (the address: the write sources' one chosen from registers, then the
  // lookup's last, which comes through the scheduler's choice of head)
  logic [IW-1:0] wr_addr;
  `FG_COMB_READBACK begin
    wr_addr   = wr_i ? wr_idx_i : cur_idx;
    ram_addr  = (wr_i || busy_q) ? wr_addr : rd_idx;
    ram_req   = 1'b0;
    ram_we    = 1'b0;
    ram_wdata = wr_bits_i;
    if (wr_i) begin
      ram_req  = 1'b1;
      ram_we   = 1'b1;
    end else if (busy_q) begin
      ram_req   = cur_in;
      ram_we    = 1'b1;
      ram_wdata = full_q ? '1 : '0;
    end else if (rd) begin
      ram_req = 1'b1;
    end
  end

  // (no RAM access while in reset, so a mid-run reset keeps the store intact)
  logic [WORDS-1:0] ram_rdata;
  fg_sram_sp #(.WIDTH(WORDS), .DEPTH(LINES)) u_ram (
    .clk_i, .req_i(ram_req && rst_ni), .we_i(ram_we), .addr_i(ram_addr), .wdata_i(ram_wdata),
    .rdata_o(ram_rdata)
  );

  assign init_ready_o = !busy_q;
  assign busy_o       = busy_q;
  assign busy_d_o     = busy_d;
  // the write of this cycle, from the write sources only (not through the
  // lookup's address mux: the snoop compare is on the scheduler's paths)
  assign snoop_we_o   = (wr_i || (busy_q && cur_in)) && rst_ni;
  assign snoop_idx_o  = wr_i ? wr_idx_i : cur_idx;
  assign snoop_bits_o = wr_i ? wr_bits_i : (full_q ? '1 : '0);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin  // the reset clear: every line empty
      busy_q   <= 1'b1;
      full_q   <= 1'b0;
      cur_q    <= LN_W'(BASE_LINE);
      cur_idx_q <= '0;
      cur_in_q <= 1'b1;
      left_q   <= CNT_W'(LINES);
      rvalid_q <= 1'b0;
      rqid_q   <= '0;
    end else begin
      rvalid_q <= rd && !busy_q && !wr_i;
      if (rd) rqid_q <= rd_qid;
      cur_q     <= cur_d;
      cur_idx_q <= cur_idx_d;
      cur_in_q  <= cur_in_d;
      busy_q    <= busy_d;
      if (step) begin
        left_q <= left_q - 1'b1;
      end else if (start) begin
        full_q <= init_full_i;
        left_q <= init_lines_i;
      end
    end
  end

  if (LK_REG != 0) begin : g_out_reg
    // the read of the last edge (rvalid_q, rqid_q) moves into the output
    // register at this one; a write of this cycle to its line is kept beside
    // it and chosen after the registers, so that the RAM's output feeds a
    // flip-flop alone (placed at the RAM) and nothing else
    logic             ovalid_q, fix_q;
    logic [1:0]       oqid_q;
    logic [IW-1:0]    ridx_q;
    logic [WORDS-1:0] odata_q, fix_bits_q;
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        ovalid_q <= 1'b0;
        oqid_q   <= '0;
        fix_q    <= 1'b0;
      end else begin
        ovalid_q <= rvalid_q;
        oqid_q   <= rqid_q;
        fix_q    <= rvalid_q && snoop_we_o && snoop_idx_o == ridx_q;
      end
    end
    always_ff @(posedge clk_i) begin  // qualified by ovalid_q, as the RAM's data
      if (rd) ridx_q <= rd_idx;
      odata_q    <= ram_rdata;
      fix_bits_q <= snoop_bits_o;
    end
    assign rvalid_o    = ovalid_q;
    assign rqid_o      = oqid_q;
    assign rdata_o     = fix_q ? fix_bits_q : odata_q;
    assign rpend_o     = rvalid_q;
    assign rpend_qid_o = rqid_q;
  end else begin : g_no_out_reg
    assign rvalid_o    = rvalid_q;
    assign rqid_o      = rqid_q;
    assign rdata_o     = ram_rdata;
    assign rpend_o     = 1'b0;
    assign rpend_qid_o = '0;
  end

  // The scheduler never asks for an action write and a lookup in the same
  // cycle, nor for a lookup while the initialisation owns the port.
  assign cur_idx = cur_idx_q;
  assign cur_in  = cur_in_q;

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(feb_cur_index_exact,
                 {cur_in_q, cur_idx_q} == {({1'b0, cur_q} - (LN_W+1)'(BASE_LINE)) < (LN_W+1)'(LINES),
                                           IW'({1'b0, cur_q} - (LN_W+1)'(BASE_LINE))})
      `FG_ASSERT(feb_no_write_and_lookup, !(wr_i && rd))
      `FG_ASSERT(feb_no_lookup_while_busy, !(busy_q && rd))
      `FG_ASSERT(feb_busy_lines_left, !busy_q || left_q != '0)
      `FG_ASSERT(feb_snoop_is_the_write, snoop_we_o == (ram_req && ram_we) &&
                 (!snoop_we_o || (snoop_idx_o == ram_addr && snoop_bits_o == ram_wdata)))
    end
  end
endmodule
