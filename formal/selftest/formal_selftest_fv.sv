// A proof made to fail, for scripts/check_formal_report.sh (docs/FORMAL.md):
// a 3-bit counter from reset, counting when inc_i is set.  count_never_6 is
// false when the counter runs free (WRAP 0: reached 7 cycles after the
// reset) and true when it wraps from 3 to 0 (WRAP 1), where k-induction of
// a short depth still fails on it (4 -> 5 -> 6 is a path of states the
// assertion allows) and reports UNKNOWN.  count_zero_after_reset holds in
// both, so the report must name the one that fails.
module formal_selftest_fv #(
  parameter bit WRAP = 1'b0
) (
  input logic clk_i,
  input logic rst_ni,
  input logic inc_i
);
  logic [2:0] c_q;
  logic       f_init_q = 1'b1;
  logic       f_rst_q;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb if (f_init_q) assume (!rst_ni);
  always_ff @(posedge clk_i) begin
    f_rst_q <= !rst_ni;
    if (!rst_ni) c_q <= '0;
    else if (inc_i) c_q <= (WRAP && c_q == 3'd3) ? 3'd0 : c_q + 3'd1;
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
      count_zero_after_reset: assert (!f_rst_q || c_q == '0);
      count_never_6: assert (c_q != 3'd6);
    end
  end
endmodule
