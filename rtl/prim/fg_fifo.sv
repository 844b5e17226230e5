// Synchronous FIFO with valid/ready on both sides (shared primitive).
// Outputs depend on state only: ready_o = not full, valid_o = not empty,
// data_o = the head entry.  Any DEPTH >= 1 (not only powers of two).
// The head entry is a register of its own (head_q), loaded from the storage
// (read at the entry after the head) when the head leaves, or from data_i
// when the entry pushed becomes the head: data_o comes from a flip-flop, not
// through the storage's read multiplexer (the F/E scheduler checks its heads
// in the cycle they appear).  Port behaviour is that of the plain
// first-word-fall-through FIFO, except that data_o is 0 while the FIFO is
// empty (the C twin models the same): it never shows storage that was never
// written, whose contents a real flop or RAM does not define (Verilator's
// randomized initial state models that, docs/ARCHITECTURE.md).
// Named assertions: rtl/include/fg_assert.svh (docs/RTL_STYLE.md).
`include "fg_assert.svh"
module fg_fifo #(
  parameter int WIDTH = 8,
  parameter int DEPTH = 4,
  // derived widths, not settable
  localparam int PW    = (DEPTH > 1) ? $clog2(DEPTH) : 1,  // pointer
  localparam int CW    = $clog2(DEPTH + 1)                 // count 0..DEPTH
) (
  input  logic             clk_i,
  input  logic             rst_ni,  // synchronous, active low
  input  logic             valid_i,
  output logic             ready_o,
  input  logic [WIDTH-1:0] data_i,
  output logic             valid_o,
  input  logic             ready_i,
  output logic [WIDTH-1:0] data_o,
  output logic [CW-1:0]    count_o
`ifdef FORMAL
  ,  // the storage and read pointer, for the proofs of the blocks around (docs/FORMAL.md)
  output logic [DEPTH*WIDTH-1:0] f_mem_o,
  output logic [PW-1:0]    f_rptr_o
`endif
);
  `FG_ASSERT_PARAM(g_chk_width, WIDTH >= 1, "fg_fifo: WIDTH must be >= 1")
  `FG_ASSERT_PARAM(g_chk_depth, DEPTH >= 1, "fg_fifo: DEPTH must be >= 1")
  localparam logic [PW-1:0] LAST = PW'(DEPTH - 1);

  logic [WIDTH-1:0] mem_q [DEPTH];
  logic [PW-1:0] wptr_q, rptr_q;
  logic [CW-1:0] count_q;

  wire push = valid_i && ready_o;
  wire pop  = valid_o && ready_i;

  assign ready_o = (count_q != CW'(DEPTH));
  assign valid_o = (count_q != '0);
  logic [WIDTH-1:0] head_q;
  wire  [PW-1:0]    rnext = (rptr_q == LAST) ? '0 : rptr_q + 1'b1;
  assign data_o  = head_q;
  assign count_o = count_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wptr_q  <= '0;
      rptr_q  <= '0;
      count_q <= '0;
    end else begin
      if (push) wptr_q <= (wptr_q == LAST) ? '0 : wptr_q + 1'b1;
      if (pop)  rptr_q <= rnext;
      if (push && !pop) count_q <= count_q + 1'b1;
      else if (pop && !push) count_q <= count_q - 1'b1;
    end
  end

  // Storage without reset so that it maps to distributed RAM.  The entry
  // after the head is written at least one edge before it is read here
  // (count_q >= 2), also after a reset (the pointers restart at 0 and only
  // entries pushed since are read).
  always_ff @(posedge clk_i) begin
    if (push) mem_q[wptr_q] <= data_i;
  end
  // head_q equals mem_q[rptr_q] while the FIFO holds an entry and 0 while it
  // is empty (reset, or the last entry leaving with nothing pushed).
  always_ff @(posedge clk_i) begin
    if (!rst_ni) head_q <= '0;
    else if (push && (count_q == '0 || (pop && count_q == CW'(1)))) head_q <= data_i;
    else if (pop && count_q == CW'(1)) head_q <= '0;
    else if (pop) head_q <= mem_q[rnext];
  end

  // Invariants: occupancy within [0, DEPTH]; pointers in range.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(fifo_count_in_range, 32'(count_q) <= DEPTH)
      `FG_ASSERT(fifo_ptrs_in_range, 32'(wptr_q) < DEPTH && 32'(rptr_q) < DEPTH)
    end
  end

`ifdef FORMAL
  // Induction strengthening for the proofs (formal/, docs/FORMAL.md): the
  // write pointer is count_q entries past the read pointer, and the head
  // register mirrors the storage at the read pointer, 0 while empty (the
  // claim above).
  // Order: one entry, chosen by the solver (f_pick on its push), is tracked
  // with the number of entries ahead of it; it leaves after exactly those,
  // with its data, and meanwhile sits in the storage f_ahead_q past the head.
  (* anyseq *) logic f_pick;
  logic             f_trk_q;
  logic [CW-1:0]    f_ahead_q;
  logic [WIDTH-1:0] f_data_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) f_trk_q <= 1'b0;
    else if (!f_trk_q && push && f_pick) begin
      f_trk_q   <= 1'b1;
      f_ahead_q <= count_q - CW'(pop);
      f_data_q  <= data_i;
    end else if (f_trk_q && pop) begin
      if (f_ahead_q == '0) f_trk_q <= 1'b0;
      else f_ahead_q <= f_ahead_q - 1'b1;
    end
  end
  for (genvar i = 0; i < DEPTH; i++) begin : g_fmem
    assign f_mem_o[i*WIDTH +: WIDTH] = mem_q[i];
  end
  assign f_rptr_o = rptr_q;
  // (pointer sums wrap by one conditional subtraction: a modulo is slow for the solver)
  wire [31:0] f_wsum = 32'(rptr_q) + 32'(count_q);
  wire [31:0] f_tsum = 32'(rptr_q) + 32'(f_ahead_q);
  wire [PW-1:0] f_wexp = PW'((f_wsum >= DEPTH) ? f_wsum - DEPTH : f_wsum);
  wire [PW-1:0] f_tpos = PW'((f_tsum >= DEPTH) ? f_tsum - DEPTH : f_tsum);
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(fifo_wptr_rptr_count, wptr_q == f_wexp)
      `FG_ASSERT(fifo_head_mirrors_storage, count_q == '0 ? head_q == '0 : head_q == mem_q[rptr_q])
      `FG_ASSERT(fifo_tracked_held, !f_trk_q || f_ahead_q < count_q)
      `FG_ASSERT(fifo_tracked_stored, !f_trk_q || mem_q[f_tpos] == f_data_q)
      `FG_ASSERT(fifo_tracked_leaves_in_order, !(f_trk_q && pop && f_ahead_q == '0) || data_o == f_data_q)
    end
  end
`endif
endmodule
