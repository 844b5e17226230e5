// The host's link into the SIMT top (finegrain_simt_ulx3s.sv): the design
// clock from the board's 25 MHz, its power-on reset, and the FTDI UART with
// LiteX's UARTBone framing onto a Wishbone classic master.  The blocks top
// (finegrain_ulx3s.sv) has the same logic inline: its routes in
// fpga/top_timing.json name cells by where they sit in the hierarchy, so it
// takes this module at its next place and route (docs/FPGA.md "The SIMT top").
//
//   clk_25mhz -> fg_pll (EHXPLLL) -> clk_o; reset held 16 cycles after lock
//   ftdi_txd -> fg_uart_rx -> RX FIFO -> fg_uartbone -> wb_*
//   ftdi_rxd <- fg_uart_tx <------------'
module fg_host_link
#(
  parameter  int CLKI_DIV  = 1,    // design clock = 25 MHz * CLKFB_DIV / CLKI_DIV
  parameter  int CLKFB_DIV = 2,
  parameter  int CLKOP_DIV = 12,   // VCO = design clock * CLKOP_DIV, 400..800 MHz
  parameter  int BAUD      = 115200,
  localparam int CLK_HZ    = 25_000_000 / CLKI_DIV * CLKFB_DIV,
  localparam int UART_DIV  = (CLK_HZ + BAUD / 2) / BAUD
) (
  input  logic        clk_25mhz_i,
  input  logic        uart_rx_i,    // FTDI TXD: the FPGA receives
  output logic        uart_tx_o,    // FTDI RXD: the FPGA transmits
  output logic        clk_o,
  output logic        rst_no,       // released synchronously, 16 cycles after the PLL locked
  // Wishbone classic master (word addresses)
  output logic        wb_cyc_o,
  output logic        wb_stb_o,
  output logic        wb_we_o,
  output logic [31:0] wb_adr_o,
  output logic [31:0] wb_dat_o,
  input  logic [31:0] wb_dat_i,
  input  logic        wb_ack_i,
  // activity: the bridge is inside a frame, a byte came in this cycle
  output logic        busy_o,
  output logic        rx_o
);
  logic clk, locked;
  fg_pll #(.CLKI_DIV(CLKI_DIV), .CLKFB_DIV(CLKFB_DIV), .CLKOP_DIV(CLKOP_DIV)) u_pll (
    .clk_i(clk_25mhz_i), .clk_o(clk), .locked_o(locked));

  // reset: held for 16 cycles after lock, released synchronously
  logic [1:0] lock_sync_q = 2'b00;
  logic [4:0] por_q = '0;
  logic       rst_n_q = 1'b0;
  always_ff @(posedge clk) begin
    lock_sync_q <= {lock_sync_q[0], locked};
    if (!lock_sync_q[1]) por_q <= '0;
    else if (!por_q[4]) por_q <= por_q + 1'b1;
    rst_n_q <= por_q[4];
  end
  wire rst_n = rst_n_q;

  logic       rx_v, rx_ferr;
  logic [7:0] rx_d;
  fg_uart_rx #(.DIV(UART_DIV)) u_rx (
    .clk_i(clk), .rst_ni(rst_n), .rx_i(uart_rx_i), .valid_o(rx_v), .data_o(rx_d), .ferr_o(rx_ferr));

  logic       rxf_ready, rxf_v, br_rx_ready;
  logic [7:0] rxf_d;
  logic [2:0] rxf_cnt;
  fg_fifo #(.WIDTH(8), .DEPTH(4)) u_rx_fifo (
    .clk_i(clk), .rst_ni(rst_n), .valid_i(rx_v), .ready_o(rxf_ready), .data_i(rx_d),
    .valid_o(rxf_v), .ready_i(br_rx_ready), .data_o(rxf_d), .count_o(rxf_cnt));

  logic       tx_v, tx_ready, br_idle, br_tout;
  logic [7:0] tx_d;
  fg_uartbone #(.TIMEOUT(CLK_HZ / 10)) u_bridge (
    .clk_i(clk), .rst_ni(rst_n),
    .rx_valid_i(rxf_v), .rx_ready_o(br_rx_ready), .rx_data_i(rxf_d),
    .tx_valid_o(tx_v), .tx_ready_i(tx_ready), .tx_data_o(tx_d),
    .wb_cyc_o(wb_cyc_o), .wb_stb_o(wb_stb_o), .wb_we_o(wb_we_o), .wb_adr_o(wb_adr_o), .wb_dat_o(wb_dat_o),
    .wb_dat_i(wb_dat_i), .wb_ack_i(wb_ack_i), .idle_o(br_idle), .timeout_o(br_tout));

  fg_uart_tx #(.DIV(UART_DIV)) u_tx (
    .clk_i(clk), .rst_ni(rst_n), .valid_i(tx_v), .ready_o(tx_ready), .data_i(tx_d), .tx_o(uart_tx_o));

  assign clk_o  = clk;
  assign rst_no = rst_n;
  assign busy_o = !br_idle;
  assign rx_o   = rx_v;

  logic unused;
  assign unused = ^{rx_ferr, rxf_ready, br_tout, rxf_cnt};
endmodule
