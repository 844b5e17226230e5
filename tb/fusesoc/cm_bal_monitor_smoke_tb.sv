// FuseSoC smoke test of cm_bal_monitor (rtl/cm/cm_bal_monitor.core;
// docs/FUSESOC.md), on Icarus or Verilator (--binary).  CM-CPU (CM 4.1) on a
// small monitor (2 partitions, 4 cores, 64-cycle intervals): an interval with
// every partition's stallMC bit set makes the decision "down" and lowers the
// CPU limit below MAXW; a quiet interval then makes it "up" and raises the
// limit again.  Prints PASS, or FAIL with the first difference.
`timescale 1ns/1ps
module cm_bal_monitor_smoke_tb;
  localparam int P = 2, C = 4, NSCHED = 2, MAXW = 48, INTERVAL = 64, NLVL = 9, EXPLORE_N = 4;
  localparam int STW = $clog2(P * INTERVAL), SGW = $clog2(NSCHED * INTERVAL), KW = SGW + 1;
  localparam int LW = $clog2(MAXW + 1), LIW = $clog2(NLVL), XW = $clog2(EXPLORE_N), CIW = $clog2(C);
  `include "fg_smoke.svh"
  logic rst_ni = 1'b0;

  logic [P-1:0]        stall_mc_i = '0, stall_net_i = '0;
  logic [C*NSCHED-1:0] issue_stall_i = '0;
  logic [C-1:0]        kstart_i = '0, kend_i = '0;
  logic [1:0]          mode_i = 2'(cm_pkg::CM_MODE_CPU);
  logic [LW-1:0]       static_i = '0;
  logic [KW-1:0]       k_i = '0;
  logic [CIW-1:0]      rd_core_i = '0;
  logic [LIW-1:0]      rd_entry_i = '0;
  logic                interval_o;
  logic [1:0]          decision_o;
  logic [LW-1:0]       cpu_limit_o, rd_limit_o;
  logic [STW-1:0]      stall_mc_o, stall_net_o;
  logic [LIW-1:0]      rd_level_o;
  logic [XW-1:0]       rd_stay_o;
  logic [NLVL-1:0]     rd_valid_o;
  logic [SGW-1:0]      rd_avg_o;
  logic [2:0]          rd_why_o;

  cm_bal_monitor #(.P(P), .C(C), .NSCHED(NSCHED), .MAXW(MAXW), .INTERVAL(INTERVAL)) dut (.*);

  task automatic next_interval();
    tick();
    while (!interval_o) tick();
  endtask

  logic [LW-1:0] low;
  initial begin
    repeat (3) tick();
    rst_ni = 1'b1;
    next_interval();  // the first, partial interval
    check("the CM-CPU limit starts at MAXW", 64'(cpu_limit_o), 64'(MAXW));
    stall_mc_i = '1;  // every partition congested every cycle
    next_interval();
    check("decision after a congested interval", 64'(decision_o), 64'(cm_pkg::CM_DEC_DOWN));
    if (cpu_limit_o >= LW'(MAXW)) begin
      $display("FAIL: the CM-CPU limit did not go down: %0d", cpu_limit_o);
      errors++;
    end
    check("the interval's stallMC", 64'(stall_mc_o), 64'(P * INTERVAL - 1));
    low = cpu_limit_o;
    stall_mc_i = '0;
    next_interval();
    check("decision after a quiet interval", 64'(decision_o), 64'(cm_pkg::CM_DEC_UP));
    if (cpu_limit_o <= low) begin
      $display("FAIL: the CM-CPU limit did not go up: %0d after %0d", cpu_limit_o, low);
      errors++;
    end
    if (errors == 0) $display("PASS: cm_bal_monitor smoke test (CM-CPU down %0d, up %0d)", low, cpu_limit_o);
    $finish;
  end
endmodule
