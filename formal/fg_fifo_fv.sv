// Formal harness of fg_fifo (docs/FORMAL.md): any input sequence, reset
// asserted in the first cycle and free afterwards (mid-run resets included).
//   no overflow / underflow: a push only with room, a pop only when not empty
//   (the handshakes; count_o never exceeds DEPTH, asserted in the RTL)
//   conservation: entries pushed - entries popped = count_o
//   order: an entry leaves after exactly the entries ahead of it, with its
//   data (the tracker under `ifdef FORMAL in rtl/prim/fg_fifo.sv)
module fg_fifo_fv #(
  parameter int WIDTH = 4,
  parameter int DEPTH = 3
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             valid_i,
  input logic [WIDTH-1:0] data_i,
  input logic             ready_i
);
  localparam int CW = $clog2(DEPTH + 1);
  logic             ready_o, valid_o;
  logic [WIDTH-1:0] data_o;
  logic [CW-1:0]    count_o;
  logic [DEPTH*WIDTH-1:0] f_mem_o;  // (used by the proofs of other blocks)
  logic [((DEPTH > 1) ? $clog2(DEPTH) : 1)-1:0] f_rptr_o;
  fg_fifo #(.WIDTH(WIDTH), .DEPTH(DEPTH)) dut (.*);

  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb if (f_init_q) assume (!rst_ni);

  wire push = valid_i && ready_o;
  wire pop  = valid_o && ready_i;

  // entries in - out, modulo 2^8 (the relation is modular, so it holds
  // across wrap-around)
  logic [7:0] f_in_q, f_out_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      f_in_q  <= '0;
      f_out_q <= '0;
    end else begin
      f_in_q  <= f_in_q + 8'(push);
      f_out_q <= f_out_q + 8'(pop);
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      no_overflow:   assert (!push || 32'(count_o) < DEPTH);
      no_underflow:  assert (!pop || count_o != '0);
      ready_iff_room: assert (ready_o == (32'(count_o) < DEPTH));
      valid_iff_held: assert (valid_o == (count_o != '0));
      in_eq_out_plus_held: assert (f_in_q - f_out_q == 8'(count_o));
    end
  end
endmodule
