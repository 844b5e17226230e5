// Per-queue watchdog (beyond the paper: F/E Sec. 4.5 leaves timeouts to future
// work).  Counts consecutive cycles a head has been blocked on its trigger;
// due_o rises once it has been blocked for limit_i cycles (limit_i = 0
// disables the watchdog, which gives exactly the paper's behaviour).  The
// count restarts whenever the head is not blocked or leaves (pop_i).
module fe_watchdog #(
  parameter int W = 16
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         blocked_i,
  input  logic         pop_i,
  input  logic [W-1:0] limit_i,
  output logic         due_o
);
  logic [W-1:0] cnt_q;

  assign due_o = blocked_i && (limit_i != '0) && (cnt_q >= limit_i);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) cnt_q <= '0;
    else if (blocked_i && !pop_i) cnt_q <= (cnt_q == '1) ? cnt_q : cnt_q + 1'b1;
    else cnt_q <= '0;
  end
endmodule
