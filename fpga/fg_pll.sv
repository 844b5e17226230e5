// Design clock from the board's 25 MHz oscillator: one ECP5 EHXPLLL,
// f_out = 25 MHz * CLKFB_DIV / CLKI_DIV, VCO = f_out * CLKOP_DIV (400..800
// MHz; scripts/fpga_top.py picks the dividers for a target frequency).
//
// Simulation bypass (Verilator, Icarus: SYNTHESIS undefined): clk_o is
// clk_i and locked_o is 1.  The verilated top is clocked by its C model at
// "the design clock" directly; nothing else differs.  With FG_PLL_MODEL
// defined the EHXPLLL is instantiated in simulation too, and the
// behavioural model fpga/sim/EHXPLLL.sv stands for it
// (build/bin/fpga_pll_sim: the top at the board's clock and baud).
module fg_pll #(
  parameter int CLKI_DIV  = 1,
  parameter int CLKFB_DIV = 2,
  parameter int CLKOP_DIV = 12
) (
  input  logic clk_i,
  output logic clk_o,
  output logic locked_o
);
`ifdef SYNTHESIS
  `define FG_PLL_INST
`elsif FG_PLL_MODEL
  `define FG_PLL_INST
`endif
`ifdef FG_PLL_INST
  `undef FG_PLL_INST
  logic intfb;  // the internal feedback clock, not used (FEEDBK_PATH CLKOP)
  (* ICP_CURRENT = "12" *) (* LPF_RESISTOR = "8" *) (* MFG_ENABLE_FILTEROPAMP = "1" *)
  (* MFG_GMCREF_SEL = "2" *)
  EHXPLLL #(
    .PLLRST_ENA("DISABLED"), .INTFB_WAKE("DISABLED"), .STDBY_ENABLE("DISABLED"),
    .DPHASE_SOURCE("DISABLED"), .OUTDIVIDER_MUXA("DIVA"), .OUTDIVIDER_MUXB("DIVB"),
    .OUTDIVIDER_MUXC("DIVC"), .OUTDIVIDER_MUXD("DIVD"),
    .CLKI_DIV(CLKI_DIV), .CLKFB_DIV(CLKFB_DIV),
    .CLKOP_ENABLE("ENABLED"), .CLKOP_DIV(CLKOP_DIV), .CLKOP_CPHASE((CLKOP_DIV - 1) / 2),
    .CLKOP_FPHASE(0), .FEEDBK_PATH("CLKOP")
  ) u_pll (
    .RST(1'b0), .STDBY(1'b0), .CLKI(clk_i), .CLKOP(clk_o), .CLKFB(clk_o), .CLKINTFB(intfb),
    .PHASESEL0(1'b0), .PHASESEL1(1'b0), .PHASEDIR(1'b1), .PHASESTEP(1'b1),
    .PHASELOADREG(1'b1), .PLLWAKESYNC(1'b0), .ENCLKOP(1'b0), .LOCK(locked_o)
  );
  logic unused_intfb;
  assign unused_intfb = intfb;
`else
  assign clk_o    = clk_i;
  assign locked_o = 1'b1;
  localparam int unused_divs = CLKI_DIV + CLKFB_DIV + CLKOP_DIV;
`endif
endmodule
