// finegrain's SIMT top for the ULX3S (ECP5 LFE5U-85F): EDGE's event path in
// logic (EDGE III-C, IV-C..E).  A doorbell write from the host reaches the
// doorbell decoder, the EKT turns the ring into a single-warp event kernel,
// the PEWT holds it and the preemption controller starts it on the RTL SIMT
// core, in a free warp slot or in a background warp's, whose state it saves
// and restores; the event's completion frees its EKT entry.  The kernels,
// their data and the background kernel live in block RAM the host loads
// (docs/FPGA.md "SIMT top").
//
//   clk_25mhz, ftdi_txd / ftdi_rxd -> fg_host_link (PLL, reset, UART,
//   UARTBone) -> Wishbone -> bus
//   bus (word address; fg_regmap_pkg, fg_simt_pkg):
//     SYS   fg_sysregs                         ID, clock, cycles, reset, LEDs
//     DB    fgs_edge_doorbell + edge_doorbell  rings -> ring link -> EKT
//     AP    doorbell aperture (each write is a front-end write)
//     EKT   fgs_edge_ekt_ev + edge_ekt         single-warp events -> SIMT
//     SIMT  fg_simt_ctl                        the core's configuration, the
//           background launcher, event records, counters, errors, fill
//     MEM   word addresses MEM_WBASE + w: the memory's word w (fg_simt_mem)
//   simt_edge_core (rtl/simt/): the core with its PEWT and controller
//
// Bus timing: a Wishbone cycle is latched (cycle 1) and decoded (2); a
// window access is copied into the window's bus slice (3), its registered
// read data (4) muxed and registered (5), ack in cycle 5, as in the blocks
// top.  A memory access waits for the memory's host port and, for a read,
// for its data (fg_simt_pkg::SIMT_MEM_LAT cycles later).
//
// Ports keep the board's net names (ulx3s_v20.lpf), hence no _i / _o.
`include "fg_assert.svh"
module finegrain_simt_ulx3s
#(
  parameter int CLKI_DIV    = 1,    // design clock = 25 MHz * CLKFB_DIV / CLKI_DIV
  parameter int CLKFB_DIV   = 2,
  parameter int CLKOP_DIV   = 12,   // VCO = design clock * CLKOP_DIV, 400..800 MHz
  parameter int BAUD        = 115200,
  parameter int NW          = fg_simt_pkg::SIMT_NW,
  parameter int NL          = fg_simt_pkg::SIMT_NL,
  parameter int GTO         = 1,
  parameter int STACK_BYTES = fg_simt_pkg::SIMT_STACK,
  parameter int MEM_BYTES   = fg_simt_pkg::SIMT_MEM,
  localparam int CLK_HZ     = 25_000_000 / CLKI_DIV * CLKFB_DIV
) (
  input  logic       clk_25mhz,
  input  logic       ftdi_txd,    // FTDI TXD: the FPGA receives
  output logic       ftdi_rxd,    // FTDI RXD: the FPGA transmits
  output logic [7:0] led,
  output logic       wifi_gpio0   // held high: keeps the ESP32 from resetting the board
);
  localparam int WIN_BITS = fg_regmap_pkg::WIN_BITS;
  localparam int DB_ADDR_W = fg_regmap_pkg::DB_ADDR_W;
  localparam int DB_ENTRIES = fg_regmap_pkg::DB_ENTRIES;
  localparam int EKT_ENTRIES = fg_regmap_pkg::EKT_ENTRIES;
  localparam int WIN_SYS = fg_regmap_pkg::WIN_SYS;
  localparam int WIN_DB = fg_regmap_pkg::WIN_DB;
  localparam int WIN_AP = fg_regmap_pkg::WIN_AP;
  localparam int WIN_EKT = fg_regmap_pkg::WIN_EKT;
  localparam int WIN_SIMT = fg_simt_pkg::WIN_SIMT;
  localparam int PEWT_ENTRIES = 4;
  localparam int SW = (NW > 1) ? $clog2(NW) : 1;
  localparam int P = 32 / NL;
  localparam int PW = (P > 1) ? $clog2(P) : 1;

  // ------------------------------------------------------------ clock, reset, UART, bridge
  logic        clk, rst_n, link_busy, link_rx;
  logic        wb_cyc, wb_stb, wb_we, wb_ack_q;
  logic [31:0] wb_adr, wb_dat_w, wb_dat_r_q;
  fg_host_link #(.CLKI_DIV(CLKI_DIV), .CLKFB_DIV(CLKFB_DIV), .CLKOP_DIV(CLKOP_DIV), .BAUD(BAUD)) u_link (
    .clk_25mhz_i(clk_25mhz), .uart_rx_i(ftdi_txd), .uart_tx_o(ftdi_rxd), .clk_o(clk), .rst_no(rst_n),
    .wb_cyc_o(wb_cyc), .wb_stb_o(wb_stb), .wb_we_o(wb_we), .wb_adr_o(wb_adr), .wb_dat_o(wb_dat_w),
    .wb_dat_i(wb_dat_r_q), .wb_ack_i(wb_ack_q), .busy_o(link_busy), .rx_o(link_rx));

  // blk_rst_n_q is the root of the blocks' reset: each window has its own
  // registered copy of it (the bus slices below), one cycle later
  logic soft_rst, blk_rst_n_q;
  always_ff @(posedge clk) blk_rst_n_q <= rst_n && !soft_rst;

  // ------------------------------------------------------------ register bus
  localparam int NWIN = 16;
  localparam logic [NWIN-1:0] WIN_USED = NWIN'(
      (1 << WIN_SYS) | (1 << WIN_DB) | (1 << WIN_AP) | (1 << WIN_EKT) | (1 << WIN_SIMT));
  logic                busy_q, p1_q, p2_q, p3_q, p4_q;
  logic [31:0]         adr_q, wdat_q;
  logic                we_q;
  logic [NWIN-1:0]     win_we_q;
  logic [3:0]          win_q, win2_q;
  logic                hit_q, hit2_q;
  logic [WIN_BITS-1:0] off_q;
  logic [31:0]         wdata_q;
  logic [31:0]         win_rdata [NWIN];
  // the memory region: a request to the memory's host port (held until
  // taken), then for a read its data
  logic                m_req_q, m_wait_q, m_ack, m_go;
  logic                h_ready, h_rsp_v;
  logic [31:0]         h_rsp_d;
  localparam int MB = fg_simt_pkg::MEM_WBITS;
  wire mem_hit = adr_q[31:MB] == (32-MB)'(fg_simt_pkg::MEM_WBASE >> MB);
  wire win_hit = adr_q[31:WIN_BITS+4] == '0;

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      busy_q   <= 1'b0;
      p1_q     <= 1'b0;
      p2_q     <= 1'b0;
      p3_q     <= 1'b0;
      p4_q     <= 1'b0;
      wb_ack_q <= 1'b0;
      win_we_q <= '0;
      m_req_q  <= 1'b0;
      m_wait_q <= 1'b0;
    end else begin
      // cycle 1: latch the Wishbone request
      p1_q <= wb_cyc && wb_stb && !busy_q;
      if (wb_cyc && wb_stb && !busy_q) busy_q <= 1'b1;
      else if (wb_ack_q) busy_q <= 1'b0;
      // cycle 2: a window strobe and offset, or a memory request
      p2_q     <= p1_q && !mem_hit;
      win_we_q <= '0;
      if (p1_q && !mem_hit && we_q && win_hit) win_we_q[adr_q[WIN_BITS+3:WIN_BITS]] <= 1'b1;
      if (p1_q && mem_hit) m_req_q <= 1'b1;
      else if (m_go) m_req_q <= 1'b0;
      if (m_go && !we_q) m_wait_q <= 1'b1;
      else if (h_rsp_v) m_wait_q <= 1'b0;
      p3_q     <= p2_q;
      p4_q     <= p3_q;
      wb_ack_q <= p4_q || m_ack;
    end
  end
  // a memory write is done when the port takes it, a read when its data comes
  assign m_ack = (m_go && we_q) || (m_wait_q && h_rsp_v);
  always_ff @(posedge clk) begin
    if (wb_cyc && wb_stb && !busy_q) begin
      adr_q  <= wb_adr;
      wdat_q <= wb_dat_w;
      we_q   <= wb_we;
    end
    if (p1_q) begin
      win_q   <= adr_q[WIN_BITS+3:WIN_BITS];
      hit_q   <= win_hit;
      off_q   <= adr_q[WIN_BITS-1:0];
      wdata_q <= wdat_q;
    end
    if (p2_q) begin
      win2_q <= win_q;
      hit2_q <= hit_q;
    end
    if (p4_q) wb_dat_r_q <= hit2_q ? win_rdata[win2_q] : 32'd0;
    else if (m_wait_q && h_rsp_v) wb_dat_r_q <= h_rsp_d;
  end

  // bus slices and the reset tree (fg_bus_slice.sv), per window used
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
      assign win_rdata[w] = 32'd0;
    end
  end

  // ------------------------------------------------------------ SYS window
  logic [5:0] led_reg;
  // fg_sysregs describes the blocks top's cores; NCORES and CORE_NW read
  // this top's one core and its slots instead (registered like the rest)
  logic [31:0] sys_rdata;
  logic        sys_nc_q, sys_nw_q;
  fg_sysregs #(.CLK_HZ(CLK_HZ), .BAUD(BAUD)) u_sys (
    .clk_i(clk), .rst_ni(rst_n), .blk_rst_ni(s_rst_n[WIN_SYS]), .we_i(s_we[WIN_SYS]),
    .addr_i(s_off[WIN_SYS]), .wdata_i(s_wdata[WIN_SYS]), .rdata_o(sys_rdata),
    .soft_rst_o(soft_rst), .led_o(led_reg));
  always_ff @(posedge clk) begin
    sys_nc_q <= s_off[WIN_SYS] == fg_regmap_pkg::SYS_NCORES;
    sys_nw_q <= s_off[WIN_SYS] == fg_regmap_pkg::SYS_CORE_NW;
  end
  assign win_rdata[WIN_SYS] = sys_nc_q ? 32'd1 : sys_nw_q ? 32'(NW) : sys_rdata;

  // ------------------------------------------------------------ EDGE front-end
  localparam int DB_IDW = $clog2(DB_ENTRIES);
  localparam int EKT_IDW = $clog2(EKT_ENTRIES);

  // doorbell aperture (fg_aperture.sv) -> the decoder's wr_* port
  logic [DB_ADDR_W-1:0] ap_base, ap_addr;
  logic                 ap_v, db_wr_ready;
  logic [31:0]          ap_data;
  logic [15:0]          ap_drops;
  logic [2:0]           ap_cnt;
  fg_aperture #(.AW(DB_ADDR_W), .WB(WIN_BITS)) u_ap (
    .clk_i(clk), .rst_ni(s_rst_n[WIN_AP]), .we_i(s_we[WIN_AP]), .addr_i(s_off[WIN_AP]),
    .wdata_i(s_wdata[WIN_AP]), .base_i(ap_base), .wr_valid_o(ap_v), .wr_ready_i(db_wr_ready),
    .wr_addr_o(ap_addr), .wr_data_o(ap_data), .drops_o(ap_drops), .count_o(ap_cnt));
  assign win_rdata[WIN_AP] = 32'd0;

  // doorbell decoder -> ring link -> event kernel table
  logic              ekt_ring_ready, db_ring_valid, rl_ready, rl_valid;
  logic [DB_IDW-1:0] db_ring_id, rl_id;
  logic [fg_regmap_pkg::PLAY_PASS_W-1:0] pl_pass0;
  logic [fg_regmap_pkg::PLAY_LW_DB-1:0]  pl_line0;
  logic                                  db_pl_mm;
  logic [7:0]                            db_pl_port;
  assign pl_pass0 = '0;
  assign pl_line0 = '0;
  fgs_edge_doorbell #(.PLAYER(1'b0)) u_db (
    .clk_i(clk), .rst_ni(s_rst_n[WIN_DB]), .we_i(s_we[WIN_DB]), .addr_i(s_off[WIN_DB]),
    .wdata_i(s_wdata[WIN_DB]),
    .pl_on_i(1'b0), .pl_clr_i(1'b0), .pl_v_i(1'b0), .pl_pass_i(pl_pass0),
    .pl_line_i(pl_line0), .pl_mm_o(db_pl_mm), .pl_port_o(db_pl_port),
    .rdata_o(win_rdata[WIN_DB]), .wr_valid_i(ap_v), .wr_addr_i(ap_addr),
    .wr_data_i(ap_data), .ring_ready_i(rl_ready), .wr_ready_o(db_wr_ready),
    .ring_valid_o(db_ring_valid), .ring_id_o(db_ring_id), .ap_base_o(ap_base),
    .ap_drops_i(ap_drops), .ap_count_i(8'(ap_cnt)));
  logic [$clog2(3)-1:0] rl_cnt;
  fg_fifo #(.WIDTH(DB_IDW), .DEPTH(2)) u_ring_link (
    .clk_i(clk), .rst_ni(s_rst_n[WIN_EKT]), .valid_i(db_ring_valid), .ready_o(rl_ready),
    .data_i(db_ring_id), .valid_o(rl_valid), .ready_i(ekt_ring_ready), .data_o(rl_id),
    .count_o(rl_cnt));

  localparam int ADDR_W = fg_simt_pkg::EKT_ADDR_W;
  localparam int DIM_W = fg_simt_pkg::EKT_DIM_W;
  logic               evw_valid, evw_ready, ekt_cpl_valid, ekt_cpl_ready;
  logic [EKT_IDW-1:0] evw_id, ekt_cpl_id;
  logic [ADDR_W-1:0]  evw_kernel, evw_param;
  logic [DIM_W-1:0]   evw_block_x, evw_block_y, evw_block_z, evw_grid_x, evw_grid_y, evw_grid_z;
  logic [15:0]        evw_shmem;
  logic [1:0]         evw_prio;
  fgs_edge_ekt_ev u_ekt (
    .clk_i(clk), .rst_ni(s_rst_n[WIN_EKT]), .we_i(s_we[WIN_EKT]), .addr_i(s_off[WIN_EKT]),
    .wdata_i(s_wdata[WIN_EKT]), .rdata_o(win_rdata[WIN_EKT]),
    .ring_valid_i(rl_valid), .ring_id_i(EKT_IDW'(rl_id)), .ring_ready_o(ekt_ring_ready),
    .evw_ready_i(evw_ready), .evw_valid_o(evw_valid), .evw_id_o(evw_id),
    .evw_kernel_ptr_o(evw_kernel), .evw_param_addr_o(evw_param), .evw_block_x_o(evw_block_x),
    .evw_block_y_o(evw_block_y), .evw_block_z_o(evw_block_z), .evw_grid_x_o(evw_grid_x),
    .evw_grid_y_o(evw_grid_y), .evw_grid_z_o(evw_grid_z), .evw_shmem_o(evw_shmem), .evw_prio_o(evw_prio),
    .cpl_valid_i(ekt_cpl_valid), .cpl_id_i(ekt_cpl_id), .cpl_ready_o(ekt_cpl_ready));

  // ------------------------------------------------------------ SIMT core
  localparam int TAG_W = 16;
  logic [31:0]      local_base, save_base, save_mask;
  logic             cfg_en;
  logic [1:0]       cfg_policy;
  logic [3:0]       cfg_opt;
  logic [15:0]      cfg_save_base;
  logic [7:0]       cfg_save_per_reg;
  logic             launch_valid, launch_ready;
  logic [SW-1:0]    launch_slot;
  logic [31:0]      launch_pc, launch_param, launch_live;
  logic [95:0]      launch_ctaid, launch_ntid, launch_nctaid;
  logic             ev_valid, ev_ready, cpl_valid, ev_bad;
  logic [31:0]      ev_kernel, ev_param;
  logic [TAG_W-1:0] ev_tag, cpl_tag;
  logic [5:0]       ev_threads;
  logic [6:0]       ev_regs;
  logic             done_valid, end_event, fault_valid, core_busy;
  logic [SW-1:0]    done_slot, fault_slot;
  logic [2:0]       fault_code;
  logic [31:0]      fault_pc;
  logic             c_valid, c_ready, c_we, c_rsp_v;
  logic [31:0]      c_addr, c_wdata, c_rsp_d;
  logic [3:0]       c_be;
  logic             err_valid;
  logic [3:0]       err_code;
  logic [31:0]      cnt_start_free, cnt_start_pre, cnt_resume;
  logic [15:0]      cnt_abort;
  logic             fill_v, fill_ready, mem_err, mem_err_host;
  logic [31:0]      fill_addr, fill_wdata, mem_err_addr;
  logic             chk_v, chk_ready, chk_busy;
  logic [31:0]      chk_addr;
  logic             simt_err;

  // an event the core can run: one block of one warp (x only, 1..32
  // threads), no shared memory (fg_simt_ctl refuses any other)
  wire ev_one_warp = evw_block_x >= DIM_W'(1) && evw_block_x <= DIM_W'(32) && evw_block_y == DIM_W'(1) &&
                     evw_block_z == DIM_W'(1) && evw_grid_x == DIM_W'(1) && evw_grid_y == DIM_W'(1) &&
                     evw_grid_z == DIM_W'(1) && evw_shmem == '0;
  // The EKT's descriptors wait in a FIFO of two on their way to the SIMT
  // window, checked on the way in (ev_one_warp), so that the PEWT's push
  // and the EKT's queue pop (its head register reloaded) are not one path.
  // Under the EKT's reset: a descriptor it let go is not lost to a reset of
  // the window.
  localparam int EQW = EKT_IDW + 32 + 32 + DIM_W + 1;
  logic               evq_valid, evq_ready, evq_ok;
  logic [EKT_IDW-1:0] evq_id;
  logic [31:0]        evq_kernel, evq_param;
  logic [DIM_W-1:0]   evq_block_x;
  logic [1:0]         evq_count;
  fg_fifo #(.WIDTH(EQW), .DEPTH(2)) u_evq (
    .clk_i(clk), .rst_ni(s_rst_n[WIN_EKT]), .valid_i(evw_valid), .ready_o(evw_ready),
    .data_i({evw_id, evw_kernel[31:0], evw_param[31:0], evw_block_x, ev_one_warp}),
    .valid_o(evq_valid), .ready_i(evq_ready), .data_o({evq_id, evq_kernel, evq_param, evq_block_x, evq_ok}),
    .count_o(evq_count));
  fg_simt_ctl #(.NW(NW), .NL(NL), .GTO(GTO), .PEWT_ENTRIES(PEWT_ENTRIES), .MEM_BYTES(MEM_BYTES),
                .MEM_LAT(fg_simt_pkg::SIMT_MEM_LAT),
                .STACK_BYTES(STACK_BYTES), .IDW(EKT_IDW), .DIM_W(DIM_W), .TAG_W(TAG_W), .WB(WIN_BITS)) u_ctl (
    .clk_i(clk), .rst_ni(s_rst_n[WIN_SIMT]), .we_i(s_we[WIN_SIMT]), .addr_i(s_off[WIN_SIMT]),
    .wdata_i(s_wdata[WIN_SIMT]), .rdata_o(win_rdata[WIN_SIMT]),
    .local_base_o(local_base), .save_base_o(save_base), .save_mask_o(save_mask), .cfg_en_o(cfg_en),
    .cfg_policy_o(cfg_policy), .cfg_opt_o(cfg_opt), .cfg_save_base_o(cfg_save_base),
    .cfg_save_per_reg_o(cfg_save_per_reg),
    .launch_valid_o(launch_valid), .launch_ready_i(launch_ready), .launch_pc_o(launch_pc),
    .launch_param_o(launch_param), .launch_live_o(launch_live), .launch_ctaid_o(launch_ctaid),
    .launch_ntid_o(launch_ntid), .launch_nctaid_o(launch_nctaid),
    .evw_valid_i(evq_valid), .evw_ready_o(evq_ready), .evw_id_i(evq_id), .evw_kernel_i(evq_kernel),
    .evw_param_i(evq_param), .evw_block_x_i(evq_block_x), .evw_ok_i(evq_ok),
    .ev_valid_o(ev_valid), .ev_ready_i(ev_ready), .ev_kernel_o(ev_kernel), .ev_param_o(ev_param),
    .ev_tag_o(ev_tag), .ev_threads_o(ev_threads), .ev_regs_o(ev_regs),
    .cpl_valid_i(cpl_valid), .cpl_tag_i(cpl_tag), .ekt_cpl_valid_o(ekt_cpl_valid),
    .ekt_cpl_ready_i(ekt_cpl_ready), .ekt_cpl_id_o(ekt_cpl_id),
    .busy_i(core_busy), .done_valid_i(done_valid), .end_event_i(end_event), .fault_valid_i(fault_valid),
    .fault_slot_i(fault_slot), .fault_code_i(fault_code), .fault_pc_i(fault_pc), .ev_bad_i(ev_bad),
    .err_valid_i(err_valid), .err_code_i(err_code), .cnt_start_free_i(cnt_start_free),
    .cnt_start_pre_i(cnt_start_pre), .cnt_resume_i(cnt_resume), .cnt_abort_i(cnt_abort),
    .mem_err_i(mem_err), .mem_err_addr_i(mem_err_addr),
    .fill_valid_o(fill_v), .fill_ready_i(fill_ready), .fill_addr_o(fill_addr), .fill_wdata_o(fill_wdata),
    .chk_valid_o(chk_v), .chk_ready_i(chk_ready), .chk_addr_o(chk_addr), .chk_rsp_valid_i(h_rsp_v),
    .chk_rsp_data_i(h_rsp_d), .chk_busy_o(chk_busy), .err_o(simt_err));

  // the core's retire beats and the controller's commands: for waveforms
  logic             rvfi_valid;
  logic [SW-1:0]    rvfi_slot, pre_slot;
  logic [31:0]      rvfi_order, rvfi_pc, rvfi_mask;
  logic [4:0]       rvfi_rd;
  logic [PW-1:0]    rvfi_pass;
  logic [NL*32-1:0] rvfi_data;
  logic [2:0]       pre_cmd;
  logic [3:0]       pre_arg;
  logic [NW-1:0]    event_mask, victim_mask;
  // the core and the controller share the SIMT window's reset
  simt_edge_core #(.NW(NW), .NL(NL), .GTO(GTO), .STACK_BYTES(STACK_BYTES), .PEWT_ENTRIES(PEWT_ENTRIES),
                   .TAG_W(TAG_W)) u_core (
    .clk_i(clk), .rst_ni(s_rst_n[WIN_SIMT]), .local_base_i(local_base), .save_base_i(save_base),
    .save_mask_i(save_mask), .cfg_en_i(cfg_en), .cfg_policy_i(cfg_policy), .cfg_opt_i(cfg_opt),
    .cfg_save_base_i(cfg_save_base), .cfg_save_per_reg_i(cfg_save_per_reg),
    .launch_valid_i(launch_valid), .launch_ready_o(launch_ready), .launch_slot_o(launch_slot),
    .launch_pc_i(launch_pc), .launch_param_i(launch_param), .launch_live_i(launch_live),
    .launch_wib_i(32'd0), .launch_ctaid_i(launch_ctaid), .launch_ntid_i(launch_ntid),
    .launch_nctaid_i(launch_nctaid), .launch_shmem_i(32'd0),
    .ev_valid_i(ev_valid), .ev_ready_o(ev_ready), .ev_kernel_i(ev_kernel), .ev_param_i(ev_param),
    .ev_tag_i(ev_tag), .ev_threads_i(ev_threads), .ev_regs_i(ev_regs), .cpl_valid_o(cpl_valid),
    .cpl_tag_o(cpl_tag), .ev_bad_o(ev_bad),
    .done_valid_o(done_valid), .done_slot_o(done_slot), .end_event_o(end_event),
    .fault_valid_o(fault_valid), .fault_slot_o(fault_slot), .fault_code_o(fault_code), .fault_pc_o(fault_pc),
    .mem_req_valid_o(c_valid), .mem_req_ready_i(c_ready), .mem_req_we_o(c_we), .mem_req_addr_o(c_addr),
    .mem_req_be_o(c_be), .mem_req_wdata_o(c_wdata), .mem_rsp_valid_i(c_rsp_v), .mem_rsp_rdata_i(c_rsp_d),
    .rvfi_valid_o(rvfi_valid), .rvfi_slot_o(rvfi_slot), .rvfi_order_o(rvfi_order), .rvfi_pc_o(rvfi_pc),
    .rvfi_mask_o(rvfi_mask), .rvfi_rd_o(rvfi_rd), .rvfi_pass_o(rvfi_pass), .rvfi_data_o(rvfi_data),
    .cmd_o(pre_cmd), .cmd_slot_o(pre_slot), .cmd_arg_o(pre_arg), .event_mask_o(event_mask),
    .victim_mask_o(victim_mask),
    .err_valid_o(err_valid), .err_code_o(err_code), .cnt_start_free_o(cnt_start_free),
    .cnt_start_pre_o(cnt_start_pre), .cnt_resume_o(cnt_resume), .cnt_abort_o(cnt_abort), .busy_o(core_busy));

  // ------------------------------------------------------------ memory
  // the host port: the fill engine first, then the check engine's reads, then
  // the bus's memory request, which also waits for the check's reads in flight
  // (the read data go to whichever waits: the check or the bus, never both)
  assign m_go = m_req_q && h_ready && !fill_v && !chk_busy;
  fg_simt_mem #(.BYTES(MEM_BYTES), .LAT(fg_simt_pkg::SIMT_MEM_LAT)) u_mem (
    .clk_i(clk), .rst_ni(s_rst_n[WIN_SIMT]),
    .c_valid_i(c_valid), .c_ready_o(c_ready), .c_we_i(c_we), .c_addr_i(c_addr), .c_be_i(c_be),
    .c_wdata_i(c_wdata), .c_rsp_valid_o(c_rsp_v), .c_rsp_rdata_o(c_rsp_d),
    .h_valid_i(fill_v || chk_v || (m_req_q && !chk_busy)), .h_ready_o(h_ready),
    .h_we_i(fill_v || (!chk_v && we_q)),
    .h_addr_i(fill_v ? fill_addr : chk_v ? chk_addr : {adr_q[29:0], 2'b00} - (fg_simt_pkg::MEM_WBASE << 2)),
    .h_wdata_i(fill_v ? fill_wdata : wdat_q), .h_rsp_valid_o(h_rsp_v), .h_rsp_rdata_o(h_rsp_d),
    .err_o(mem_err), .err_addr_o(mem_err_addr), .err_host_o(mem_err_host));
  assign fill_ready = h_ready;
  assign chk_ready  = h_ready && !fill_v;

  // ------------------------------------------------------------ LEDs
  // led[2]: the core holds a warp, led[3]: a sticky error in the SIMT window (STATUS)
  logic [24:0] hb_q = '0;
  logic [21:0] act_q = '0;
  always_ff @(posedge clk) begin
    hb_q <= hb_q + 1'b1;
    if (link_busy || link_rx) act_q <= '1;
    else if (act_q != '0) act_q <= act_q - 1'b1;
  end
  assign led        = {led_reg[5:2], simt_err, core_busy, act_q != '0, hb_q[24]};
  assign wifi_gpio0 = 1'b1;

  logic unused;
  assign unused = ^{win_we_q & ~WIN_USED, rl_cnt, launch_slot,
                    done_slot, mem_err_host, led_reg[1:0], evw_kernel[ADDR_W-1:32], evw_param[ADDR_W-1:32],
                    adr_q[31:30], db_pl_mm, db_pl_port, evw_prio, evq_count, rvfi_valid, rvfi_slot,
                    rvfi_order, rvfi_pc, rvfi_mask, rvfi_rd, rvfi_pass, rvfi_data, pre_cmd, pre_slot, pre_arg,
                    event_mask, victim_mask};

  always_ff @(posedge clk) begin
    if (s_rst_n[WIN_SIMT]) begin
      // the host port's read data have one owner: the bus reads only when the check is done
      `FG_ASSERT(simt_top_rsp_owner, !(m_wait_q && chk_busy))
    end
  end
endmodule
