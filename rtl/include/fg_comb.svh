// A combinational block that reads back a variable it writes (a value built
// bit by bit, or a step that reads the step before), docs/RTL_STYLE.md:
//
//   `FG_COMB_READBACK begin
//     best = '0;
//     for (int a = 0; a < NG; a++) best[a] = ...;
//     pick = gw & best[...];
//   end
//
// IEEE 1800-2017 9.2.2.2.1 leaves what an always_comb writes out of its
// sensitivity; Icarus 11 does not, and with the default-then-override pulses
// such a block wakes itself and its readers: edge_preempt's victim pick kept
// Icarus in one time step forever.  Simulators get always @*, which Icarus
// settles; synthesis (Yosys defines SYNTHESIS) gets always_comb, which Yosys
// maps differently from always @* in some blocks, so the netlists the FPGA
// figures were measured on stay as they were (make fpga-netlists).  The body
// is the same text for both.  scripts/check_comb_settle.py (make lint) fails
// on an always_comb that reads back what it writes.
`ifndef FG_COMB_SVH
`define FG_COMB_SVH
`ifdef SYNTHESIS
  `define FG_COMB_READBACK always_comb
`else
  `define FG_COMB_READBACK always @*
`endif
`endif
