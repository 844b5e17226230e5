// finegrain on the ULX3S (ECP5 LFE5U-85F): every RTL block behind one
// register bus that a host reaches over the FTDI UART with LiteX's UARTBone
// framing (docs/FPGA.md).
//
//   clk_25mhz -> fg_pll (EHXPLLL) -> design clock, reset synchronizer
//   ftdi_txd -> fg_uart_rx -> RX FIFO -> fg_uartbone -> Wishbone -> bus
//   ftdi_rxd <- fg_uart_tx <------------'
//   bus (word address = window << 8 | offset; fg_regmap_pkg):
//     SYS   fg_sysregs                      ID, clock, scratch, cycles, reset, LEDs
//     DB    fgr_edge_doorbell + edge_doorbell   rings -> EKT
//     AP    doorbell aperture: each write is a front-end write (AP_BASE + offset)
//     EKT   fgr_edge_ekt + edge_ekt
//     FE    fgr_fe_sched_queues + fe_sched_queues (one memory partition)
//     CM    fgr_cm_bal_monitor + cm_bal_monitor (P = 8 partitions, C = 28 cores)
//     PEWTn fgr_edge_pewt + edge_pewt, PREn fgr_edge_preempt + edge_preempt, n = 0..3
//     PLAY  fg_trace_player: a recorded trace replayed into one block (the
//           doorbell, EKT, F/E, CM, PEWT0 or PRE0) at the design clock, its
//           outputs compared in the block's slice
//
// Bus timing: a Wishbone cycle is latched (cycle 1), decoded into a window
// write strobe and a registered word offset (2), copied into the window's own
// bus slice (3), the window's registered read data (4) is muxed and
// registered (5), ack in cycle 5.  Every path into and out of a block is
// register to register.
//
// Ports keep the board's net names (ulx3s_v20.lpf), hence no _i / _o.
module finegrain_ulx3s
#(
  parameter int CLKI_DIV  = 1,    // design clock = 25 MHz * CLKFB_DIV / CLKI_DIV
  parameter int CLKFB_DIV = 2,
  parameter int CLKOP_DIV = 12,   // VCO = design clock * CLKOP_DIV, 400..800 MHz
  parameter int BAUD      = 115200,
  localparam int CLK_HZ   = 25_000_000 / CLKI_DIV * CLKFB_DIV,
  localparam int UART_DIV = (CLK_HZ + BAUD / 2) / BAUD
) (
  input  logic       clk_25mhz,
  input  logic       ftdi_txd,    // FTDI TXD: the FPGA receives
  output logic       ftdi_rxd,    // FTDI RXD: the FPGA transmits
  output logic [7:0] led,
  output logic       wifi_gpio0   // held high: keeps the ESP32 from resetting the board
);
  // the register map (fpga/gen/fg_regmap_pkg.sv)
  localparam int WIN_BITS = fg_regmap_pkg::WIN_BITS;
  localparam int DB_ADDR_W = fg_regmap_pkg::DB_ADDR_W;
  localparam int DB_ENTRIES = fg_regmap_pkg::DB_ENTRIES;
  localparam int EKT_ENTRIES = fg_regmap_pkg::EKT_ENTRIES;
  localparam int NCORES = fg_regmap_pkg::NCORES;
  localparam int WIN_AP = fg_regmap_pkg::WIN_AP;
  localparam int WIN_CM = fg_regmap_pkg::WIN_CM;
  localparam int WIN_DB = fg_regmap_pkg::WIN_DB;
  localparam int WIN_EKT = fg_regmap_pkg::WIN_EKT;
  localparam int WIN_FE = fg_regmap_pkg::WIN_FE;
  localparam int WIN_PEWT = fg_regmap_pkg::WIN_PEWT;
  localparam int WIN_PRE = fg_regmap_pkg::WIN_PRE;
  localparam int WIN_PLAY = fg_regmap_pkg::WIN_PLAY;
  localparam int PLAY_NBLK = fg_regmap_pkg::PLAY_NBLK;
  localparam int WIN_SYS = fg_regmap_pkg::WIN_SYS;
  // ------------------------------------------------------------ clock, reset
  logic clk, locked;
  fg_pll #(.CLKI_DIV(CLKI_DIV), .CLKFB_DIV(CLKFB_DIV), .CLKOP_DIV(CLKOP_DIV)) u_pll (
    .clk_i(clk_25mhz), .clk_o(clk), .locked_o(locked));

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

  // blk_rst_n_q is the root of the blocks' reset: each window has its own
  // registered copy of it (the bus slices below), one cycle later
  logic soft_rst, blk_rst_n_q;
  always_ff @(posedge clk) blk_rst_n_q <= rst_n && !soft_rst;

  // ------------------------------------------------------------ UART, bridge
  logic       rx_v, rx_ferr;
  logic [7:0] rx_d;
  fg_uart_rx #(.DIV(UART_DIV)) u_rx (
    .clk_i(clk), .rst_ni(rst_n), .rx_i(ftdi_txd), .valid_o(rx_v), .data_o(rx_d), .ferr_o(rx_ferr));

  logic       rxf_ready, rxf_v, br_rx_ready;
  logic [7:0] rxf_d;
  logic [2:0] rxf_cnt;
  fg_fifo #(.WIDTH(8), .DEPTH(4)) u_rx_fifo (
    .clk_i(clk), .rst_ni(rst_n), .valid_i(rx_v), .ready_o(rxf_ready), .data_i(rx_d),
    .valid_o(rxf_v), .ready_i(br_rx_ready), .data_o(rxf_d), .count_o(rxf_cnt));

  logic        tx_v, tx_ready, txd;
  logic [7:0]  tx_d;
  logic        wb_cyc, wb_stb, wb_we, wb_ack_q, br_idle, br_tout;
  logic [31:0] wb_adr, wb_dat_w, wb_dat_r_q;
  fg_uartbone #(.TIMEOUT(CLK_HZ / 10)) u_bridge (
    .clk_i(clk), .rst_ni(rst_n),
    .rx_valid_i(rxf_v), .rx_ready_o(br_rx_ready), .rx_data_i(rxf_d),
    .tx_valid_o(tx_v), .tx_ready_i(tx_ready), .tx_data_o(tx_d),
    .wb_cyc_o(wb_cyc), .wb_stb_o(wb_stb), .wb_we_o(wb_we), .wb_adr_o(wb_adr), .wb_dat_o(wb_dat_w),
    .wb_dat_i(wb_dat_r_q), .wb_ack_i(wb_ack_q), .idle_o(br_idle), .timeout_o(br_tout));

  fg_uart_tx #(.DIV(UART_DIV)) u_tx (
    .clk_i(clk), .rst_ni(rst_n), .valid_i(tx_v), .ready_o(tx_ready), .data_i(tx_d), .tx_o(txd));
  assign ftdi_rxd = txd;

  // ------------------------------------------------------------ register bus
  localparam int NWIN = 16;
  // the windows that hold something (the others read 0, have no bus slice)
  localparam logic [NWIN-1:0] WIN_USED = NWIN'(
      (1 << WIN_SYS) | (1 << WIN_DB) | (1 << WIN_AP) | (1 << WIN_EKT) | (1 << WIN_FE) |
      (1 << WIN_CM) | (1 << WIN_PLAY) | (((1 << NCORES) - 1) << WIN_PEWT) |
      (((1 << NCORES) - 1) << WIN_PRE));
  logic                busy_q, p1_q, p2_q, p3_q, p4_q;
  logic [31:0]         adr_q, wdat_q;
  logic                we_q;
  logic [NWIN-1:0]     win_we_q;
  logic [3:0]          win_q, win2_q;
  logic                hit_q, hit2_q;
  logic [WIN_BITS-1:0] off_q;
  logic [31:0]         wdata_q;
  logic [31:0]         win_rdata [NWIN];

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      busy_q   <= 1'b0;
      p1_q     <= 1'b0;
      p2_q     <= 1'b0;
      p3_q     <= 1'b0;
      p4_q     <= 1'b0;
      wb_ack_q <= 1'b0;
      win_we_q <= '0;
    end else begin
      // cycle 1: latch the Wishbone request
      p1_q <= wb_cyc && wb_stb && !busy_q;
      if (wb_cyc && wb_stb && !busy_q) begin
        busy_q <= 1'b1;
      end else if (wb_ack_q) begin
        busy_q <= 1'b0;
      end
      // cycle 2: decode into a window write strobe and a word offset
      p2_q     <= p1_q;
      win_we_q <= '0;
      if (p1_q && we_q && adr_q[31:WIN_BITS+4] == '0) win_we_q[adr_q[WIN_BITS+3:WIN_BITS]] <= 1'b1;
      // cycle 3: the bus slices; cycle 4: the windows' registered read data;
      // cycle 5: muxed, ack
      p3_q     <= p2_q;
      p4_q     <= p3_q;
      wb_ack_q <= p4_q;
    end
  end
  always_ff @(posedge clk) begin
    if (wb_cyc && wb_stb && !busy_q) begin
      adr_q  <= wb_adr;
      wdat_q <= wb_dat_w;
      we_q   <= wb_we;
    end
    if (p1_q) begin
      win_q   <= adr_q[WIN_BITS+3:WIN_BITS];
      hit_q   <= (adr_q[31:WIN_BITS+4] == '0);
      off_q   <= adr_q[WIN_BITS-1:0];
      wdata_q <= wdat_q;
    end
    if (p2_q) begin
      win2_q <= win_q;
      hit2_q <= hit_q;
    end
    if (p4_q) wb_dat_r_q <= hit2_q ? win_rdata[win2_q] : 32'd0;
  end

  // Bus slices and the reset tree (fpga/fg_bus_slice.sv): each window used
  // gets its own registered copy of the write strobe, word offset, write data
  // and block reset, one cycle after the decode.
  logic [NWIN-1:0]     s_we, s_rst_n;
  logic [WIN_BITS-1:0] s_off   [NWIN];
  logic [31:0]         s_wdata [NWIN];
  for (genvar w = 0; w < NWIN; w++) begin : g_slice
    if (WIN_USED[w]) begin : g_used
      fg_bus_slice #(.AW(WIN_BITS)) u_slice (
        .clk_i(clk), .blk_rst_ni(blk_rst_n_q), .we_i(win_we_q[w]), .addr_i(off_q),
        .wdata_i(wdata_q), .rst_no(s_rst_n[w]), .we_o(s_we[w]), .addr_o(s_off[w]),
        .wdata_o(s_wdata[w]));
    end else begin : g_unused
      assign s_we[w]    = 1'b0;
      assign s_off[w]   = '0;
      assign s_wdata[w] = '0;
      assign s_rst_n[w] = 1'b0;
    end
  end

  // ------------------------------------------------------------ SYS window
  logic [5:0] led_reg;
  fg_sysregs #(.CLK_HZ(CLK_HZ), .BAUD(BAUD)) u_sys (
    .clk_i(clk), .rst_ni(rst_n), .blk_rst_ni(s_rst_n[WIN_SYS]), .we_i(s_we[WIN_SYS]),
    .addr_i(s_off[WIN_SYS]), .wdata_i(s_wdata[WIN_SYS]), .rdata_o(win_rdata[WIN_SYS]), .soft_rst_o(soft_rst), .led_o(led_reg));

  // ------------------------------------------------------------ trace player
  // pl_line: the line played (column 0 rst_ni); each block's slice takes its
  // own columns from bit 0 and registers them near the block
  logic [fg_regmap_pkg::PLAY_LW_MAX-1:0] pl_line;
  logic                  pl_v, pl_clr;
  logic [fg_regmap_pkg::PLAY_PASS_W-1:0] pl_pass;
  logic [PLAY_NBLK-1:0]  pl_on, pl_mm;
  logic [8*PLAY_NBLK-1:0] pl_port;
  fg_trace_player u_play (
    .clk_i(clk), .rst_ni(s_rst_n[WIN_PLAY]), .we_i(s_we[WIN_PLAY]), .addr_i(s_off[WIN_PLAY]),
    .wdata_i(s_wdata[WIN_PLAY]), .rdata_o(win_rdata[WIN_PLAY]), .line_o(pl_line), .valid_o(pl_v),
    .on_o(pl_on), .pass_o(pl_pass), .clr_o(pl_clr), .mm_i(pl_mm), .port_i(pl_port));

  // ------------------------------------------------------------ EDGE front-end
  localparam int DB_IDW = $clog2(DB_ENTRIES);
  localparam int EKT_IDW = $clog2(EKT_ENTRIES);

  // doorbell aperture: a bus write at byte offset x is a front-end write of
  // the data to ap_base + x, queued toward the decoder's wr_* port
  logic [DB_ADDR_W-1:0] ap_base;
  logic [DB_ADDR_W-1:0] ap_addr;
  logic                 ap_push_q, ap_ready, ap_v;
  logic [DB_ADDR_W+31:0] ap_din_q, ap_dout;
  logic [15:0]          ap_drops_q;
  logic [2:0]           ap_cnt;
  assign ap_addr = ap_base + DB_ADDR_W'({s_off[WIN_AP], 2'b00});
  always_ff @(posedge clk) begin
    if (!s_rst_n[WIN_AP]) begin
      ap_push_q  <= 1'b0;
      ap_drops_q <= '0;
    end else begin
      ap_push_q <= s_we[WIN_AP];
      if (ap_push_q && !ap_ready && ap_drops_q != '1) ap_drops_q <= ap_drops_q + 1'b1;
    end
    if (s_we[WIN_AP]) ap_din_q <= {ap_addr, s_wdata[WIN_AP]};
  end
  logic db_wr_ready;
  fg_fifo #(.WIDTH(DB_ADDR_W + 32), .DEPTH(4)) u_ap_fifo (
    .clk_i(clk), .rst_ni(s_rst_n[WIN_AP]), .valid_i(ap_push_q), .ready_o(ap_ready), .data_i(ap_din_q),
    .valid_o(ap_v), .ready_i(db_wr_ready), .data_o(ap_dout), .count_o(ap_cnt));
  assign win_rdata[WIN_AP] = 32'd0;

  // doorbell decoder -> ring link -> event kernel table
  logic                  ekt_ring_ready, db_ring_valid, rl_ready, rl_valid;
  logic [DB_IDW-1:0]     db_ring_id, rl_id;
  localparam int PL_DB = fg_regmap_pkg::PLAY_DB;
  localparam int PL_EKT = fg_regmap_pkg::PLAY_EKT;
  localparam int PL_FE = fg_regmap_pkg::PLAY_FE;
  localparam int PL_CM = fg_regmap_pkg::PLAY_CM;
  localparam int PL_PEWT = fg_regmap_pkg::PLAY_PEWT;
  localparam int PL_PRE = fg_regmap_pkg::PLAY_PRE;
  fgs_edge_doorbell #(.PLAYER(1'b1)) u_db (
    .clk_i(clk), .rst_ni(s_rst_n[WIN_DB]), .we_i(s_we[WIN_DB]), .addr_i(s_off[WIN_DB]),
    .wdata_i(s_wdata[WIN_DB]),
    .pl_on_i(pl_on[PL_DB]), .pl_clr_i(pl_clr), .pl_v_i(pl_v), .pl_pass_i(pl_pass),
    .pl_line_i(pl_line[fg_regmap_pkg::PLAY_LW_DB-1:0]), .pl_mm_o(pl_mm[PL_DB]),
    .pl_port_o(pl_port[8*PL_DB +: 8]),
    .rdata_o(win_rdata[WIN_DB]), .wr_valid_i(ap_v), .wr_addr_i(ap_dout[DB_ADDR_W+31:32]),
    .wr_data_i(ap_dout[31:0]), .ring_ready_i(rl_ready), .wr_ready_o(db_wr_ready),
    .ring_valid_o(db_ring_valid), .ring_id_o(db_ring_id), .ap_base_o(ap_base),
    .ap_drops_i(ap_drops_q), .ap_count_i(8'(ap_cnt)));
  // The ring crosses the die from the doorbell's queue into the EKT's
  // lookup (the top's critical path once the controller's was cut): a
  // two-entry FIFO, outputs from flip-flops, takes it at full rate one cycle
  // later than the SIMT model's wiring (docs/FPGA.md, "Links").
  logic [$clog2(3)-1:0] rl_cnt;
  fg_fifo #(.WIDTH(DB_IDW), .DEPTH(2)) u_ring_link (
    .clk_i(clk), .rst_ni(s_rst_n[WIN_EKT]), .valid_i(db_ring_valid), .ready_o(rl_ready),
    .data_i(db_ring_id), .valid_o(rl_valid), .ready_i(ekt_ring_ready), .data_o(rl_id),
    .count_o(rl_cnt));
  fgs_edge_ekt #(.PLAYER(1'b1)) u_ekt (
    .clk_i(clk), .rst_ni(s_rst_n[WIN_EKT]), .we_i(s_we[WIN_EKT]), .addr_i(s_off[WIN_EKT]),
    .wdata_i(s_wdata[WIN_EKT]),
    .pl_on_i(pl_on[PL_EKT]), .pl_clr_i(pl_clr), .pl_v_i(pl_v), .pl_pass_i(pl_pass),
    .pl_line_i(pl_line[fg_regmap_pkg::PLAY_LW_EKT-1:0]), .pl_mm_o(pl_mm[PL_EKT]),
    .pl_port_o(pl_port[8*PL_EKT +: 8]),
    .rdata_o(win_rdata[WIN_EKT]), .ring_valid_i(rl_valid), .ring_id_i(EKT_IDW'(rl_id)),
    .ring_ready_o(ekt_ring_ready));

  // ------------------------------------------------------------ F/E queues
  fgs_fe_sched_queues #(.PLAYER(1'b1)) u_fe (
    .clk_i(clk), .rst_ni(s_rst_n[WIN_FE]), .we_i(s_we[WIN_FE]), .addr_i(s_off[WIN_FE]),
    .wdata_i(s_wdata[WIN_FE]),
    .pl_on_i(pl_on[PL_FE]), .pl_clr_i(pl_clr), .pl_v_i(pl_v), .pl_pass_i(pl_pass),
    .pl_line_i(pl_line[fg_regmap_pkg::PLAY_LW_FE-1:0]), .pl_mm_o(pl_mm[PL_FE]),
    .pl_port_o(pl_port[8*PL_FE +: 8]),
    .rdata_o(win_rdata[WIN_FE]));

  // ------------------------------------------------------------ CM-BAL
  fgs_cm_bal_monitor #(.PLAYER(1'b1)) u_cm (
    .clk_i(clk), .rst_ni(s_rst_n[WIN_CM]), .we_i(s_we[WIN_CM]), .addr_i(s_off[WIN_CM]),
    .wdata_i(s_wdata[WIN_CM]),
    .pl_on_i(pl_on[PL_CM]), .pl_clr_i(pl_clr), .pl_v_i(pl_v), .pl_pass_i(pl_pass),
    .pl_line_i(pl_line[fg_regmap_pkg::PLAY_LW_CM-1:0]), .pl_mm_o(pl_mm[PL_CM]),
    .pl_port_o(pl_port[8*PL_CM +: 8]),
    .rdata_o(win_rdata[WIN_CM]));

  // ------------------------------------------------------------ SIMT cores
  // the player drives core 0's PEWT and controller (the traces' 64 slots); core c's
  // controller has PRE_CORE_NW[c] slots (fpga/regmap.py)
  logic [NCORES-1:0]   c_pewt_mm, c_pre_mm, c_pewt_on, c_pre_on;
  logic [8*NCORES-1:0] c_pewt_port, c_pre_port;
  assign c_pewt_on = NCORES'(pl_on[PL_PEWT]);
  assign c_pre_on  = NCORES'(pl_on[PL_PRE]);
  for (genvar c = 0; c < NCORES; c++) begin : g_core
    localparam bit PL = (c == 0);
    localparam int CNW = 32'(fg_regmap_pkg::PRE_CORE_NW[8*c +: 8]);
    fg_core_slice #(.PLAYER(PL), .NW(CNW)) u_core (
      .clk_i(clk), .pewt_rst_ni(s_rst_n[WIN_PEWT + c]), .pre_rst_ni(s_rst_n[WIN_PRE + c]),
      .pewt_we_i(s_we[WIN_PEWT + c]), .pre_we_i(s_we[WIN_PRE + c]),
      .pewt_addr_i(s_off[WIN_PEWT + c]), .pre_addr_i(s_off[WIN_PRE + c]),
      .pewt_wdata_i(s_wdata[WIN_PEWT + c]), .pre_wdata_i(s_wdata[WIN_PRE + c]),
      .pewt_rdata_o(win_rdata[WIN_PEWT + c]), .pre_rdata_o(win_rdata[WIN_PRE + c]),
      .pl_clr_i(pl_clr), .pl_v_i(pl_v), .pl_pass_i(pl_pass),
      .pewt_pl_on_i(c_pewt_on[c]), .pewt_pl_line_i(pl_line[fg_regmap_pkg::PLAY_LW_PEWT-1:0]),
      .pewt_pl_mm_o(c_pewt_mm[c]), .pewt_pl_port_o(c_pewt_port[8*c +: 8]),
      .pre_pl_on_i(c_pre_on[c]), .pre_pl_line_i(pl_line[fg_regmap_pkg::PLAY_LW_PRE-1:0]),
      .pre_pl_mm_o(c_pre_mm[c]), .pre_pl_port_o(c_pre_port[8*c +: 8]));
  end
  assign pl_mm[PL_PEWT]           = c_pewt_mm[0];
  assign pl_port[8*PL_PEWT +: 8]  = c_pewt_port[7:0];
  assign pl_mm[PL_PRE]            = c_pre_mm[0];
  assign pl_port[8*PL_PRE +: 8]   = c_pre_port[7:0];

  // unused windows read 0
  for (genvar w = 0; w < NWIN; w++) begin : g_nowin
    if (!WIN_USED[w]) begin : g_zero
      assign win_rdata[w] = 32'd0;
    end
  end

  // ------------------------------------------------------------ LEDs
  logic [24:0] hb_q = '0;
  logic [21:0] act_q = '0;
  always_ff @(posedge clk) begin
    hb_q <= hb_q + 1'b1;
    if (!br_idle || rx_v) act_q <= '1;
    else if (act_q != '0) act_q <= act_q - 1'b1;
  end
  assign led        = {led_reg, act_q != '0, hb_q[24]};
  assign wifi_gpio0 = 1'b1;

  logic unused;
  assign unused = ^{rx_ferr, rxf_ready, br_tout, rxf_cnt, win_we_q & ~WIN_USED, c_pewt_mm[NCORES-1:1],
                    c_pre_mm[NCORES-1:1], c_pewt_port[8*NCORES-1:8], c_pre_port[8*NCORES-1:8], rl_cnt};
endmodule
