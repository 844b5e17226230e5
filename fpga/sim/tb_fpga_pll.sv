// The ULX3S top as the board runs it, in simulation: the 25 MHz oscillator
// into the PLL (the behavioural EHXPLLL, fpga/sim/EHXPLLL.sv), the
// design at the PLL's clock, and the UART at 115200 baud with the divider the
// board's bitstream has (CLK_HZ / BAUD), driven bit by bit at real time
// (build/bin/fpga_pll_sim, scripts/test_fpga_pll.sh; docs/FPGA.md).  The
// verilated top of fpga_sim bypasses the PLL and runs the UART at 4 cycles a
// bit; this bench is where both are the board's.
//
// Over UARTBone frames: ID, VERSION, CLK_HZ and BAUD read back; SCRATCH
// written and read; then the cycle counter read twice some time apart: the
// cycles counted match the PLL's frequency times the time between the two
// reads.  Exits with $fatal on any difference, a framing error or a time
// limit.  Time unit: ns (verilated with --timescale 1ns/1ps).
module tb_fpga_pll #(
  parameter int CLKI_DIV  = 1,
  parameter int CLKFB_DIV = 2,
  parameter int CLKOP_DIV = 12,
  parameter int BAUD      = 115200
);
  localparam int    CLK_HZ = 25_000_000 / CLKI_DIV * CLKFB_DIV;
  localparam real   BIT_NS = 1.0e9 / BAUD;
  localparam logic [31:0] WA_ID = 32'(fg_regmap_pkg::SYS_ID);  // SYS is window 0
  localparam logic [31:0] WA_VERSION = 32'(fg_regmap_pkg::SYS_VERSION);
  localparam logic [31:0] WA_CLK_HZ = 32'(fg_regmap_pkg::SYS_CLK_HZ);
  localparam logic [31:0] WA_BAUD = 32'(fg_regmap_pkg::SYS_BAUD);
  localparam logic [31:0] WA_SCRATCH = 32'(fg_regmap_pkg::SYS_SCRATCH);
  localparam logic [31:0] WA_CYCLE_LO = 32'(fg_regmap_pkg::SYS_CYCLE_LO);

  logic       clk_25mhz = 1'b0;
  logic       rx = 1'b1;      // into the FPGA (ftdi_txd)
  logic       tx;             // out of it (ftdi_rxd)
  logic [7:0] led;
  logic       wifi_gpio0;

  initial forever #20 clk_25mhz = ~clk_25mhz;

  finegrain_ulx3s #(.CLKI_DIV(CLKI_DIV), .CLKFB_DIV(CLKFB_DIV), .CLKOP_DIV(CLKOP_DIV), .BAUD(BAUD)) u_top (
    .clk_25mhz, .ftdi_txd(rx), .ftdi_rxd(tx), .led, .wifi_gpio0);

  // ---------------------------------------------------------------- UART
  byte unsigned rxbuf [256];  // every byte received, in order
  int           nrx = 0;
  int           framing = 0;
  logic         unused;
  assign unused = ^{led, wifi_gpio0};
  initial begin : receiver
    byte unsigned b;
    forever begin
      @(negedge tx);
      #(BIT_NS / 2);
      if (tx == 1'b0) begin
        for (int i = 0; i < 8; i++) begin
          #(BIT_NS);
          b[i] = tx;
        end
        #(BIT_NS);
        if (tx != 1'b1) framing = framing + 1;
        else if (nrx < 256) begin
          rxbuf[nrx] = b;
          nrx = nrx + 1;
        end
      end
    end
  end

  task automatic send_byte(input byte unsigned b);
    rx = 1'b0;
    #(BIT_NS);
    for (int i = 0; i < 8; i++) begin
      rx = b[i];
      #(BIT_NS);
    end
    rx = 1'b1;
    #(BIT_NS);
  endtask

  task automatic send_word(input logic [31:0] w);
    for (int i = 3; i >= 0; i--) send_byte(w[8*i +: 8]);
  endtask

  realtime t_sent;  // the end of the last frame sent
  task automatic ub_read(input logic [31:0] wa, output logic [31:0] v);
    int at;
    at = nrx;
    send_byte(8'h02);
    send_byte(8'h01);
    send_word(wa);
    t_sent = $realtime;
    wait (nrx >= at + 4);
    v = {rxbuf[at], rxbuf[at + 1], rxbuf[at + 2], rxbuf[at + 3]};
  endtask

  task automatic ub_write(input logic [31:0] wa, input logic [31:0] v);
    send_byte(8'h01);
    send_byte(8'h01);
    send_word(wa);
    send_word(v);
  endtask

  task automatic expect_eq(input string what, input logic [31:0] got, input logic [31:0] want);
    if (got !== want) $fatal(1, "tb_fpga_pll: %s: 0x%08x, expected 0x%08x", what, got, want);
    $display("tb_fpga_pll: %-8s 0x%08x", what, got);
  endtask

  initial begin : test
    logic [31:0] v, c0, c1;
    realtime t0, t1;
    real want, tol;
    $display("tb_fpga_pll: 25 MHz * %0d / %0d = %0d Hz, UART %0d baud (%.1f ns a bit, divider %0d)",
             CLKFB_DIV, CLKI_DIV, CLK_HZ, BAUD, BIT_NS, (CLK_HZ + BAUD / 2) / BAUD);
    wait (u_top.locked);
    $display("tb_fpga_pll: PLL locked at %.1f us", $realtime / 1000.0);
    #(20 * BIT_NS);
    ub_read(WA_ID, v);
    expect_eq("ID", v, fg_regmap_pkg::ID);
    ub_read(WA_VERSION, v);
    expect_eq("VERSION", v, fg_regmap_pkg::VERSION);
    ub_read(WA_CLK_HZ, v);
    expect_eq("CLK_HZ", v, 32'(CLK_HZ));
    ub_read(WA_BAUD, v);
    expect_eq("BAUD", v, 32'(BAUD));
    ub_write(WA_SCRATCH, 32'h600DCAFE);
    ub_read(WA_SCRATCH, v);
    expect_eq("SCRATCH", v, 32'h600DCAFE);
    // the design's clock against simulated time: two reads of the cycle
    // counter, whose registers are read at the same point of two identical
    // frames, the frames' ends apart by t1 - t0
    ub_read(WA_CYCLE_LO, c0);
    t0 = t_sent;
    #(100_000);
    ub_read(WA_CYCLE_LO, c1);
    t1 = t_sent;
    want = (t1 - t0) * 1.0e-9 * CLK_HZ;
    tol = 4.0 + want * 1.0e-4;  // UART sampling (a cycle or two), the model's ps rounding of the period
    $display("tb_fpga_pll: %0d cycles in %.3f us, %.1f expected at %0d Hz", c1 - c0, (t1 - t0) / 1000.0,
             want, CLK_HZ);
    if ((c1 - c0) < want - tol || (c1 - c0) > want + tol)
      $fatal(1, "tb_fpga_pll: the design clock is not the PLL's %0d Hz", CLK_HZ);
    if (framing != 0) $fatal(1, "tb_fpga_pll: %0d framing errors", framing);
    $display("tb_fpga_pll: PASS at %.3f ms simulated", $realtime / 1.0e6);
    $finish;
  end

  initial begin : limit
    repeat (30) #(1_000_000);  // 1 ms at a time (Verilator 5.006 keeps a delay in 32 bits of ps)
    $fatal(1, "tb_fpga_pll: no answer within 30 ms simulated");
  end
endmodule
