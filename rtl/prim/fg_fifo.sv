// Synchronous FIFO with valid/ready on both sides (shared primitive).
// Outputs depend on state only: ready_o = not full, valid_o = not empty,
// data_o = the head entry.  Any DEPTH >= 1 (not only powers of two).
module fg_fifo #(
  parameter int WIDTH = 8,
  parameter int DEPTH = 4
) (
  input  logic             clk_i,
  input  logic             rst_ni,  // synchronous, active low
  input  logic             valid_i,
  output logic             ready_o,
  input  logic [WIDTH-1:0] data_i,
  output logic             valid_o,
  input  logic             ready_i,
  output logic [WIDTH-1:0] data_o,
  output logic [$clog2(DEPTH+1)-1:0] count_o
);
  localparam int PW = (DEPTH > 1) ? $clog2(DEPTH) : 1;
  localparam int CW = $clog2(DEPTH+1);
  localparam logic [PW-1:0] LAST = PW'(DEPTH - 1);

  logic [WIDTH-1:0] mem_q [DEPTH];
  logic [PW-1:0] wptr_q, rptr_q;
  logic [CW-1:0] count_q;

  wire push = valid_i && ready_o;
  wire pop  = valid_o && ready_i;

  assign ready_o = (count_q != CW'(DEPTH));
  assign valid_o = (count_q != '0);
  assign data_o  = mem_q[rptr_q];
  assign count_o = count_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wptr_q  <= '0;
      rptr_q  <= '0;
      count_q <= '0;
    end else begin
      if (push) wptr_q <= (wptr_q == LAST) ? '0 : wptr_q + 1'b1;
      if (pop)  rptr_q <= (rptr_q == LAST) ? '0 : rptr_q + 1'b1;
      if (push && !pop) count_q <= count_q + 1'b1;
      else if (pop && !push) count_q <= count_q - 1'b1;
    end
  end

  // Storage without reset so that it maps to distributed RAM.
  always_ff @(posedge clk_i) begin
    if (push) mem_q[wptr_q] <= data_i;
  end

  // Invariants: occupancy within [0, DEPTH]; pointers in range.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (32'(count_q) <= DEPTH);
      assert (32'(wptr_q) < DEPTH && 32'(rptr_q) < DEPTH);
    end
  end
endmodule
