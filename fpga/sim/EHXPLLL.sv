// Behavioural model of the ECP5 EHXPLLL, for simulation only: Yosys maps
// fpga/fg_pll.sv's instance to the device's PLL, and this file is in no
// synthesis file list (it is compiled only into build/bin/fpga_pll_sim,
// mk/fpga_top.mk, with fg_pll built for the PLL by +define+FG_PLL_MODEL).
//
// What it models, of what fg_pll uses: CLKOP fed back to CLKFB (FEEDBK_PATH
// "CLKOP"), so f(CLKOP) = f(CLKI) * CLKFB_DIV / CLKI_DIV; the VCO, f(CLKOP) *
// CLKOP_DIV, must lie in 400..800 MHz and the phase detector's input,
// f(CLKI) / CLKI_DIV, in 3.125..400 MHz (the device's ranges; out of them the
// model stops the simulation).  CLKI's period is measured on its edges; CLKOP
// starts after LOCK_IN input cycles and LOCK rises LOCK_OUT output cycles
// later.  Not modelled: phase shifts, the other outputs (held low), jitter,
// losing lock.
module EHXPLLL #(
  parameter PLLRST_ENA      = "DISABLED",
  parameter INTFB_WAKE      = "DISABLED",
  parameter STDBY_ENABLE    = "DISABLED",
  parameter DPHASE_SOURCE   = "DISABLED",
  parameter OUTDIVIDER_MUXA = "DIVA",
  parameter OUTDIVIDER_MUXB = "DIVB",
  parameter OUTDIVIDER_MUXC = "DIVC",
  parameter OUTDIVIDER_MUXD = "DIVD",
  parameter int CLKI_DIV    = 1,
  parameter int CLKFB_DIV   = 1,
  parameter CLKOP_ENABLE    = "ENABLED",
  parameter int CLKOP_DIV   = 8,
  parameter int CLKOP_CPHASE = 0,
  parameter int CLKOP_FPHASE = 0,
  parameter FEEDBK_PATH     = "CLKOP",
  parameter int LOCK_IN     = 4,     // input cycles measured before CLKOP runs
  parameter int LOCK_OUT    = 64     // CLKOP cycles before LOCK
) (
  input  logic CLKI,
  input  logic CLKFB,
  input  logic PHASESEL1,
  input  logic PHASESEL0,
  input  logic PHASEDIR,
  input  logic PHASESTEP,
  input  logic PHASELOADREG,
  input  logic STDBY,
  input  logic PLLWAKESYNC,
  input  logic RST,
  input  logic ENCLKOP,
  output logic CLKOP,
  output logic CLKINTFB,
  output logic LOCK
);
  realtime t_last, t_in;
  int      n_in = 0;
  logic    clk = 1'b0;
  int      n_out = 0;

  always @(posedge CLKI) begin
    if (n_in > 0) t_in <= $realtime - t_last;
    t_last <= $realtime;
    n_in   <= n_in + 1;
  end

  // the configuration fpga/fg_pll.sv sets, the only one modelled
  initial begin
    if (FEEDBK_PATH != "CLKOP" || CLKOP_ENABLE != "ENABLED" || PLLRST_ENA != "DISABLED" ||
        INTFB_WAKE != "DISABLED" || STDBY_ENABLE != "DISABLED" || DPHASE_SOURCE != "DISABLED" ||
        OUTDIVIDER_MUXA != "DIVA" || OUTDIVIDER_MUXB != "DIVB" || OUTDIVIDER_MUXC != "DIVC" ||
        OUTDIVIDER_MUXD != "DIVD" || CLKOP_CPHASE != (CLKOP_DIV - 1) / 2 || CLKOP_FPHASE != 0)
      $fatal(1, "EHXPLLL model: only fpga/fg_pll.sv's configuration is modelled");
  end

  initial begin
    real f_in, f_out, f_vco, f_pfd;
    realtime half;
    wait (n_in > LOCK_IN);
    f_in  = 1.0e3 / t_in;  // MHz
    f_pfd = f_in / CLKI_DIV;
    f_out = f_pfd * CLKFB_DIV;
    f_vco = f_out * CLKOP_DIV;
    $display("EHXPLLL model: CLKI %.3f MHz / %0d * %0d = CLKOP %.3f MHz, VCO %.1f MHz", f_in, CLKI_DIV,
             CLKFB_DIV, f_out, f_vco);
    if (f_pfd < 3.125 || f_pfd > 400.0) $fatal(1, "EHXPLLL model: phase detector %.3f MHz outside 3.125..400", f_pfd);
    if (f_vco < 400.0 || f_vco > 800.0) $fatal(1, "EHXPLLL model: VCO %.1f MHz outside 400..800", f_vco);
    half = t_in * CLKI_DIV / CLKFB_DIV / 2.0;
    forever begin
      #(half) clk = ~clk;
      if (clk) n_out = n_out + 1;
    end
  end

  assign CLKOP    = clk;
  assign CLKINTFB = 1'b0;
  assign LOCK     = (n_out >= LOCK_OUT);

  logic unused;
  assign unused = ^{CLKFB, PHASESEL1, PHASESEL0, PHASEDIR, PHASESTEP, PHASELOADREG, STDBY, PLLWAKESYNC, RST,
                    ENCLKOP};
endmodule
