// Per-queue watchdog (beyond the paper: F/E Sec. 4.5 leaves timeouts to future
// work).  Counts consecutive cycles a head has been blocked on its trigger;
// due_o rises once it has been blocked for limit cycles (limit = 0 disables
// the watchdog, which gives exactly the paper's behaviour).  The count
// restarts whenever the head is not blocked or leaves (pop_i).
//
// Timing: the compare of the count with the limit is registered
// (ge_q), so the limit port's carry chain is not in front of the NACK and the
// pop.  ge_q is computed at each edge from the count the head will have after
// it (n_q = count + 1, saturating) and limit_i of that cycle: due_o in cycle t
// uses the limit of cycle t-1.  With a limit held stable (a configuration
// value) the NACK comes exactly when it would with the compare in-cycle
// (blocked at b, due at b+limit); a change of limit_i takes effect one cycle
// later.  A head popped at an edge is not blocked in the next cycle (its
// successor has no bits), so ge_q needs no pop term.
`include "fg_assert.svh"
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
  `FG_ASSERT_PARAM(g_chk_w, W >= 1 && W <= 63, "fe_watchdog: W must be 1..63")
  logic [W-1:0] n_q;   // blocked cycles so far + 1, saturating at all ones
  logic         ge_q;  // the count of this cycle >= the limit of the last one, limit != 0

  assign due_o = blocked_i && ge_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      n_q  <= W'(1);
      ge_q <= 1'b0;
    end else begin
      if (blocked_i && !pop_i) n_q <= (n_q == '1) ? n_q : n_q + 1'b1;
      else n_q <= W'(1);
      ge_q <= blocked_i && (limit_i != '0) && (n_q >= limit_i);
    end
  end
endmodule
