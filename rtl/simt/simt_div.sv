// Divide unit of the RTL SIMT core: DIV, DIVU, REM, REMU of one warp
// instruction, thread after thread, one quotient bit per cycle (33 cycles a
// thread), results as RISC-V defines them (division by zero: quotient all
// ones, remainder the dividend; INT_MIN / -1: INT_MIN, remainder 0).
//
// Life: start_i (op, threads) -> cap_i once per pass (the threads' operands
// from the lane pipeline) -> go_i -> busy until done_o -> the core writes
// back res_o pass by pass -> clear_i.  Divisions are rare in the kernels (the
// event kernels have none in their loops), so one shared divider keeps the
// unit small.
`include "fg_assert.svh"
`include "fg_comb.svh"
module simt_div #(
  parameter  int NL = 8,
  localparam int P  = 32 / NL,
  localparam int PW = (P > 1) ? $clog2(P) : 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             start_i,
  input  logic [1:0]       op_i,        // 0 div, 1 divu, 2 rem, 3 remu
  input  logic [31:0]      mask_i,
  input  logic             cap_i,
  input  logic [PW-1:0]    cap_pass_i,
  input  logic [NL*32-1:0] cap_a_i,
  input  logic [NL*32-1:0] cap_b_i,
  input  logic             go_i,
  input  logic             clear_i,
  output logic             idle_o,      // free for a new instruction
  output logic             done_o,      // every result is ready
  input  logic [PW-1:0]    rd_pass_i,
  output logic [NL*32-1:0] res_o        // results of pass rd_pass_i
);
  typedef enum logic [1:0] {ST_IDLE, ST_CAP, ST_RUN, ST_DONE} st_e;
  st_e st_q;
  logic [1:0]        op_q;
  logic [31:0]       todo_q;          // threads still to divide
  logic [32*32-1:0]  a_q, b_q;             // per thread t at [t*32 +: 32]: operands, then results in a_q
  logic              act_q;           // a thread is being divided
  logic [4:0]        t_q;             // that thread
  logic [5:0]        n_q;             // quotient bits done
  logic [31:0]       quo_q, rem_q, ub_q;
  logic              neg_q, rneg_q, zero_q;

  // the next thread to divide: the lowest of todo_q, one-hot (no priority
  // encoder in front of the operand mux) and its number
  wire [31:0] nxt_oh = todo_q & (~todo_q + 32'd1);
  logic [4:0] nxt;
  `FG_COMB_READBACK begin
    nxt = '0;
    for (int t = 0; t < 32; t++) if (nxt_oh[t]) nxt = nxt | 5'(t);
  end

  wire        sgn  = !op_q[0];
  // the word of the thread oh names (one-hot) of a per-thread vector: an AND-OR
  function automatic logic [31:0] thr_oh(input logic [32*32-1:0] v, input logic [31:0] oh);
    thr_oh = '0;
    for (int k = 0; k < 32; k++) if (oh[k]) thr_oh = thr_oh | v[k*32 +: 32];
  endfunction
  wire [31:0] na   = thr_oh(a_q, nxt_oh), nb = thr_oh(b_q, nxt_oh);
  wire        sa   = sgn && na[31], sb = sgn && nb[31];
  wire [32:0] trial = {rem_q, quo_q[31]} - {1'b0, ub_q};
  wire [31:0] q_fin = zero_q ? 32'hFFFF_FFFF : (neg_q ? -quo_q : quo_q);
  wire [31:0] r_fin = rneg_q ? -rem_q : rem_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q   <= ST_IDLE;
      act_q  <= 1'b0;
      todo_q <= '0;
    end else begin
      case (st_q)
        ST_IDLE: if (start_i) begin
          st_q   <= ST_CAP;
          op_q   <= op_i;
          todo_q <= mask_i;
        end
        ST_CAP: if (go_i) st_q <= ST_RUN;
        ST_RUN: begin
          if (!act_q) begin
            if (todo_q == '0) st_q <= ST_DONE;
            else begin
              act_q  <= 1'b1;
              t_q    <= nxt;
              todo_q <= todo_q & ~nxt_oh;
              quo_q  <= sa ? -na : na;
              ub_q   <= sb ? -nb : nb;
              rem_q  <= '0;
              n_q    <= '0;
              neg_q  <= sa ^ sb;
              rneg_q <= sa;
              zero_q <= nb == '0;
            end
          end else if (n_q == 6'd32) begin
            act_q   <= 1'b0;
            for (int t = 0; t < 32; t++) if (t_q == 5'(t)) a_q[t*32 +: 32] <= op_q[1] ? r_fin : q_fin;
          end else begin
            n_q   <= n_q + 6'd1;
            quo_q <= {quo_q[30:0], !trial[32]};
            rem_q <= trial[32] ? {rem_q[30:0], quo_q[31]} : trial[31:0];
          end
        end
        default: if (clear_i) st_q <= ST_IDLE;
      endcase
      for (int t = 0; t < 32; t++)
        if (st_q == ST_CAP && cap_i && 32'(cap_pass_i) == t / NL) begin
          a_q[t*32 +: 32] <= cap_a_i[(t % NL)*32 +: 32];
          b_q[t*32 +: 32] <= cap_b_i[(t % NL)*32 +: 32];
        end
    end
  end

  // the words of pass p's threads (thread p * NL + i at word i): one slice of v
  function automatic logic [NL*32-1:0] pass_words(input logic [32*32-1:0] v, input logic [PW-1:0] p);
    pass_words = '0;
    for (int k = 0; k < P; k++) if (32'(p) == k) pass_words = v[k*NL*32 +: NL*32];
  endfunction
  always_comb res_o = pass_words(a_q, rd_pass_i);

  assign idle_o = st_q == ST_IDLE;
  assign done_o = st_q == ST_DONE;

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(div_start_when_idle, !start_i || st_q == ST_IDLE)
      `FG_ASSERT(div_cap_after_start, !cap_i || st_q == ST_CAP)
      `FG_ASSERT(div_bits_bounded, n_q <= 6'd32 || !act_q)
    end
  end
endmodule
