// Formal harness of cm_bal_monitor (with cm_cpu_central, cm_bal_core,
// cm_bal_decide; docs/FORMAL.md), at its ports only (the block is being
// restructured; it is not edited here).  Any stall bits, kernel boundaries,
// modes, knobs and read-port selections, reset in the first cycle and free
// afterwards.  The RTL's own assertions are checked too (the CM-CPU limit a
// legal step value, stallGPU never wraps, the serial walk ends before the
// next interval end, every core's limit legal).
//   interval_o pulses once every INTERVAL cycles, exactly
//   CM-CPU limit within [1, MAXW]; the decision a legal code (hold/down/up)
//   table indices within bounds: the read port's level < NLVL, its stay
//   count < EXPLORE_N, its limit within [1, MAXW] for a core of the block
module cm_bal_monitor_fv #(
  parameter int P        = 2,
  parameter int C        = 3,
  parameter int NSCHED   = 1,
  parameter int MAXW     = 48,
  parameter int INTERVAL = 8,
  parameter int NLVL     = 9,
  parameter int EXPLORE_N = 4,
  localparam int STW = $clog2(P * INTERVAL),
  localparam int SGW = $clog2(NSCHED * INTERVAL),
  localparam int KW  = SGW + 1,
  localparam int LW  = $clog2(MAXW + 1),
  localparam int LIW = $clog2(NLVL),
  localparam int XW  = $clog2(EXPLORE_N),
  localparam int CIW = (C > 1) ? $clog2(C) : 1
) (
  input logic                clk_i,
  input logic                rst_ni,
  input logic [P-1:0]        stall_mc_i,
  input logic [P-1:0]        stall_net_i,
  input logic [C*NSCHED-1:0] issue_stall_i,
  input logic [C-1:0]        kstart_i,
  input logic [C-1:0]        kend_i,
  input logic [1:0]          mode_i,
  input logic [LW-1:0]       static_i,
  input logic [KW-1:0]       k_i,
  input logic [CIW-1:0]      rd_core_i,
  input logic [LIW-1:0]      rd_entry_i
);
  logic            interval_o;
  logic [1:0]      decision_o;
  logic [LW-1:0]   cpu_limit_o, rd_limit_o;
  logic [STW-1:0]  stall_mc_o, stall_net_o;
  logic [LIW-1:0]  rd_level_o;
  logic [XW-1:0]   rd_stay_o;
  logic [NLVL-1:0] rd_valid_o;
  logic [SGW-1:0]  rd_avg_o;
  logic [2:0]      rd_why_o;
  cm_bal_monitor #(.P(P), .C(C), .NSCHED(NSCHED), .MAXW(MAXW), .INTERVAL(INTERVAL), .NLVL(NLVL),
                   .EXPLORE_N(EXPLORE_N), .FINE(8), .TH_Q4(4), .TL_Q4(1)) dut (.*);

  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb if (f_init_q) assume (!rst_ni);

  // cycles since the reset, modulo INTERVAL, and whether an interval ended
  logic [$clog2(INTERVAL)-1:0] f_n_q;
  logic f_ended_q, f_rd_ok_q;
  always_ff @(posedge clk_i) begin
    f_rd_ok_q <= rst_ni && 32'(rd_core_i) < C;
    if (!rst_ni) begin
      f_n_q     <= '0;
      f_ended_q <= 1'b0;
    end else begin
      f_n_q     <= (32'(f_n_q) == INTERVAL - 1) ? '0 : f_n_q + 1'b1;
      f_ended_q <= f_ended_q || (32'(f_n_q) == INTERVAL - 1);
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
      interval_every_interval_cycles: assert (interval_o == (f_ended_q && f_n_q == '0));
      cpu_limit_in_range: assert (cpu_limit_o >= LW'(1) && cpu_limit_o <= LW'(MAXW));
      decision_legal: assert (decision_o != 2'd3);
      rd_level_in_table: assert (32'(rd_level_o) < NLVL);
      rd_stay_in_range: assert (32'(rd_stay_o) < EXPLORE_N);
      rd_limit_in_range: assert (!f_rd_ok_q || (rd_limit_o >= LW'(1) && rd_limit_o <= LW'(MAXW)));
    end
  end
endmodule
