// SIMT window of the SIMT top (finegrain_simt_ulx3s.sv): the core's and its
// preemption controller's configuration, the background grid launcher, the
// link from the EKT's single-warp events to the PEWT and from the PEWT's
// completions back to the EKT, the events' launch-to-exit records, the fill
// engine, counters and sticky errors.  Registers: fpga/gen/fg_simt_pkg.sv
// (SIMT_*), docs/FPGA.md "SIMT top".
//
// Events.  A descriptor on evw_* (EDGE III-C: the EKT's launch of a
// single-warp event kernel on a doorbell) goes to the PEWT as it is: kernel,
// parameter entry, threads (block x), tag = {sequence, doorbell id}.  Its
// push cycle is kept by sequence; the completion of the tag gives a record
// {tag, cycles from the push to the completion, the cycle of the
// completion} in a FIFO the host pops, and the doorbell id goes back to the
// EKT (cpl_*: frees the event's parameter entry).  A descriptor the core
// cannot run (evw_ok_i low: not one block of one warp of 1..32 threads,
// or shared memory; the top checks that) never reaches the PEWT: it is taken, flagged
// (STATUS.EV_BAD) and its doorbell id goes back to the EKT at once, so its
// parameter entry is not lost.
//
// Background.  LAUNCH starts BG_NCTA one-warp blocks of BG_NTID threads
// (1..32) at BG_PC with BG_PARAM, block i with ctaid (i, 0, 0); a grid of
// other shape is refused (STATUS.LAUNCH_BAD), as is a LAUNCH while one runs.
//
// Fill.  A FILL_COUNT write writes FILL_VALUE into FILL_COUNT words from
// FILL_ADDR through the memory's host port (route tables are mostly runs).
//
// Check.  A CHK_COUNT write sums CHK_COUNT words from CHK_ADDR, read through
// the memory's host port one a cycle behind the fill: CHK_SUM = the words'
// sum, CHK_SUM2 = the sum of the running sums (Fletcher's two sums, mod 2^32:
// a changed word, or two words swapped, changes them), so that the host
// compares a whole image with its own in two words instead of reading it
// over the UART.  The bus's own memory accesses wait until the check's last
// read is back (chk_busy_o), so the read data are the check's alone; a
// CLEAR stops a check (its reads in flight still come back).
`include "fg_assert.svh"
module fg_simt_ctl #(
  parameter  int NW           = 4,
  parameter  int NL           = 4,
  parameter  int GTO          = 1,
  parameter  int PEWT_ENTRIES = 4,
  parameter  int MEM_BYTES    = 327680,
  parameter  int MEM_LAT      = 3,       // the memory's cycles from a read taken to its data
  parameter  int STACK_BYTES  = 256,
  parameter  int IDW          = 5,      // doorbell / EKT id bits
  parameter  int DIM_W        = 32,
  parameter  int TAG_W        = 16,
  parameter  int WB           = 8,      // word offset bits of a window
  localparam int SW           = (NW > 1) ? $clog2(NW) : 1,
  // events in flight: pending in the PEWT or running in a slot
  localparam int IB           = $clog2(PEWT_ENTRIES + NW) + 1,
  localparam int SEQ_W        = TAG_W - IDW
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // bus (the window's slice)
  input  logic               we_i,
  input  logic [WB-1:0]      addr_i,
  input  logic [31:0]        wdata_i,
  output logic [31:0]        rdata_o,
  // configuration
  output logic [31:0]        local_base_o,
  output logic [31:0]        save_base_o,
  output logic [31:0]        save_mask_o,
  output logic               cfg_en_o,
  output logic [1:0]         cfg_policy_o,
  output logic [3:0]         cfg_opt_o,
  output logic [15:0]        cfg_save_base_o,
  output logic [7:0]         cfg_save_per_reg_o,
  // background launches
  output logic               launch_valid_o,
  input  logic               launch_ready_i,
  output logic [31:0]        launch_pc_o,
  output logic [31:0]        launch_param_o,
  output logic [31:0]        launch_live_o,
  output logic [95:0]        launch_ctaid_o,
  output logic [95:0]        launch_ntid_o,
  output logic [95:0]        launch_nctaid_o,
  // the EKT's single-warp events -> the PEWT
  input  logic               evw_valid_i,
  output logic               evw_ready_o,
  input  logic [IDW-1:0]     evw_id_i,
  input  logic [31:0]        evw_kernel_i,
  input  logic [31:0]        evw_param_i,
  input  logic [DIM_W-1:0]   evw_block_x_i,
  input  logic               evw_ok_i,         // one block of one warp (block x 1..32), no shared memory
  output logic               ev_valid_o,
  input  logic               ev_ready_i,
  output logic [31:0]        ev_kernel_o,
  output logic [31:0]        ev_param_o,
  output logic [TAG_W-1:0]   ev_tag_o,
  output logic [5:0]         ev_threads_o,
  output logic [6:0]         ev_regs_o,
  // completions: the PEWT's -> the EKT's
  input  logic               cpl_valid_i,
  input  logic [TAG_W-1:0]   cpl_tag_i,
  output logic               ekt_cpl_valid_o,
  input  logic               ekt_cpl_ready_i,
  output logic [IDW-1:0]     ekt_cpl_id_o,
  // the core's state
  input  logic               busy_i,
  input  logic               done_valid_i,
  input  logic               end_event_i,
  input  logic               fault_valid_i,
  input  logic [SW-1:0]      fault_slot_i,
  input  logic [2:0]         fault_code_i,
  input  logic [31:0]        fault_pc_i,
  input  logic               ev_bad_i,
  input  logic               err_valid_i,
  input  logic [3:0]         err_code_i,
  input  logic [31:0]        cnt_start_free_i,
  input  logic [31:0]        cnt_start_pre_i,
  input  logic [31:0]        cnt_resume_i,
  input  logic [15:0]        cnt_abort_i,
  // the memory's errors (fg_simt_mem)
  input  logic               mem_err_i,
  input  logic [31:0]        mem_err_addr_i,
  // the fill engine's writes (the memory's host port)
  output logic               fill_valid_o,
  input  logic               fill_ready_i,
  output logic [31:0]        fill_addr_o,
  output logic [31:0]        fill_wdata_o,
  // the check engine's reads (the same port, after the fill)
  output logic               chk_valid_o,
  input  logic               chk_ready_i,
  output logic [31:0]        chk_addr_o,
  input  logic               chk_rsp_valid_i,
  input  logic [31:0]        chk_rsp_data_i,
  output logic               chk_busy_o,       // reads to send or in flight
  output logic               err_o             // a sticky error (STATUS)
);
  `FG_ASSERT_PARAM(g_chk_tag, SEQ_W >= IB, "fg_simt_ctl: TAG_W too small for the events in flight")

  // ---------------------------------------------------------------- registers
  logic [31:0] local_base_q, save_base_q, save_mask_q, pre_cfg_q, pre_cost_q, bg_pc_q, bg_param_q;
  logic [31:0] bg_ncta_q, bg_ntid_q, fill_addr_q, fill_value_q, fill_left_q;
  logic [31:0] chk_addr_q, chk_left_q, chk_sum_q, chk_sum2_q;
  logic [3:0]  chk_pend_q;  // reads in the memory's pipeline (at most MEM_LAT)
  logic [6:0]  ev_regs_q;
  logic [31:0] cycle_q, bg_launched_q, bg_done_q, ev_done_q, faults_q, cta_q;
  logic        launching_q;
  // sticky errors and their first values
  logic        s_mem_q, s_fault_q, s_bad_q, s_err_q, s_lost_q, s_launch_q, s_cpl_q;
  logic [31:0] mem_err_addr_q, fault_pc_q;
  logic [16:0] fault_q;
  logic [3:0]  err_code_q;

  wire wr       = we_i;
  wire ctl_wr   = wr && addr_i == WB'(fg_simt_pkg::SIMT_CTRL);
  wire do_clear = ctl_wr && wdata_i[fg_simt_pkg::SIMT_CTRL_CLEAR];
  wire ncta_ok  = bg_ncta_q != '0;
  wire ntid_ok  = bg_ntid_q >= 32'd1 && bg_ntid_q <= 32'd32;
  wire do_launch = ctl_wr && wdata_i[fg_simt_pkg::SIMT_CTRL_LAUNCH];
  wire launch_go = do_launch && !launching_q && ncta_ok && ntid_ok;
  wire launch_take = launch_valid_o && launch_ready_i;

  // fill: one word a cycle while the host port takes it
  wire fill_take = fill_valid_o && fill_ready_i;
  // check: one read a cycle while the port takes it; a response adds its word
  wire chk_take  = chk_valid_o && chk_ready_i;
  wire chk_rsp   = chk_rsp_valid_i && chk_pend_q != '0;
  wire chk_start = wr && addr_i == WB'(fg_simt_pkg::SIMT_CHK_COUNT) && !chk_busy_o;
  wire [31:0] chk_sum_n = chk_sum_q + chk_rsp_data_i;

  // ---------------------------------------------------------------- events
  logic [SEQ_W-1:0] seq_q;
  logic [31:0]      push_cyc_q [2**IB];
  logic [IB:0]      inflight_q;
  wire ev_ok   = evw_ok_i;
  wire ev_push = ev_valid_o && ev_ready_i;
  // refused: taken in a cycle without a completion (both go back to the EKT)
  wire ev_refuse = evw_valid_i && !ev_ok && !cpl_valid_i;
  assign ev_valid_o   = evw_valid_i && ev_ok;
  assign evw_ready_o  = ev_ok ? ev_ready_i : ev_refuse;
  assign ev_kernel_o  = evw_kernel_i;
  assign ev_param_o   = evw_param_i;
  assign ev_tag_o     = {seq_q, evw_id_i};
  assign ev_threads_o = 6'(evw_block_x_i);
  assign ev_regs_o    = ev_regs_q;

  // the records: {tag, cycles, end cycle}
  localparam int RW = TAG_W + 64;
  logic          rec_ready, rec_v, rec_pop;
  logic [RW-1:0] rec_head;
  logic [$clog2(fg_simt_pkg::SIMT_REC_DEPTH + 1)-1:0] rec_cnt;
  wire [IB-1:0]  cpl_seq = cpl_tag_i[IDW +: IB];
  wire [31:0]    rec_cycles = cycle_q - push_cyc_q[cpl_seq];
  assign rec_pop = wr && addr_i == WB'(fg_simt_pkg::SIMT_REC_TAG) && rec_v;
  fg_fifo #(.WIDTH(RW), .DEPTH(fg_simt_pkg::SIMT_REC_DEPTH)) u_rec (
    .clk_i(clk_i), .rst_ni(rst_ni && !do_clear), .valid_i(cpl_valid_i), .ready_o(rec_ready),
    .data_i({cpl_tag_i, rec_cycles, cycle_q}), .valid_o(rec_v), .ready_i(rec_pop), .data_o(rec_head),
    .count_o(rec_cnt));

  // the doorbell ids back to the EKT (one completion at a time there):
  // completions, and refused events
  logic       cq_ready;
  logic [2:0] cq_cnt;
  fg_fifo #(.WIDTH(IDW), .DEPTH(4)) u_cplq (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(cpl_valid_i || ev_refuse), .ready_o(cq_ready),
    .data_i(cpl_valid_i ? cpl_tag_i[IDW-1:0] : evw_id_i),
    .valid_o(ekt_cpl_valid_o), .ready_i(ekt_cpl_ready_i), .data_o(ekt_cpl_id_o), .count_o(cq_cnt));

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      local_base_q  <= '0;
      save_base_q   <= '0;
      save_mask_q   <= '1;
      pre_cfg_q     <= 32'(fg_simt_pkg::SIMT_PRE_CFG_RESET);
      pre_cost_q    <= '0;
      ev_regs_q     <= 7'd32;
      bg_pc_q       <= '0;
      bg_param_q    <= '0;
      bg_ncta_q     <= '0;
      bg_ntid_q     <= 32'd32;
      fill_addr_q   <= '0;
      fill_value_q  <= '0;
      fill_left_q   <= '0;
      chk_addr_q    <= '0;
      chk_left_q    <= '0;
      chk_pend_q    <= '0;
      chk_sum_q     <= '0;
      chk_sum2_q    <= '0;
      cycle_q       <= '0;
      launching_q   <= 1'b0;
      cta_q         <= '0;
      seq_q         <= '0;
      inflight_q    <= '0;
    end else begin
      cycle_q <= cycle_q + 32'd1;
      if (wr) begin
        unique case (addr_i)
          WB'(fg_simt_pkg::SIMT_LOCAL_BASE): local_base_q <= wdata_i;
          WB'(fg_simt_pkg::SIMT_SAVE_BASE):  save_base_q  <= wdata_i;
          WB'(fg_simt_pkg::SIMT_SAVE_MASK):  save_mask_q  <= wdata_i;
          WB'(fg_simt_pkg::SIMT_PRE_CFG):    pre_cfg_q    <= wdata_i;
          WB'(fg_simt_pkg::SIMT_PRE_COST):   pre_cost_q   <= wdata_i;
          WB'(fg_simt_pkg::SIMT_EV_REGS):    ev_regs_q    <= wdata_i[6:0];
          WB'(fg_simt_pkg::SIMT_BG_PC):      bg_pc_q      <= wdata_i;
          WB'(fg_simt_pkg::SIMT_BG_PARAM):   bg_param_q   <= wdata_i;
          WB'(fg_simt_pkg::SIMT_BG_NCTA):    bg_ncta_q    <= wdata_i;
          WB'(fg_simt_pkg::SIMT_BG_NTID):    bg_ntid_q    <= wdata_i;
          WB'(fg_simt_pkg::SIMT_FILL_ADDR):  fill_addr_q  <= wdata_i;
          WB'(fg_simt_pkg::SIMT_FILL_VALUE): fill_value_q <= wdata_i;
          WB'(fg_simt_pkg::SIMT_CHK_ADDR):   if (!chk_busy_o) chk_addr_q <= wdata_i;
          default: ;
        endcase
      end
      // the fill: a count written while a fill runs adds nothing and is an error
      if (wr && addr_i == WB'(fg_simt_pkg::SIMT_FILL_COUNT) && fill_left_q == '0) fill_left_q <= wdata_i;
      else if (fill_take) begin
        fill_left_q <= fill_left_q - 32'd1;
        fill_addr_q <= fill_addr_q + 32'd4;
      end
      // the check: a count written while one runs changes nothing and is an error
      if (do_clear) chk_left_q <= '0;
      else if (chk_start) begin
        chk_left_q <= wdata_i;
        chk_sum_q  <= '0;
        chk_sum2_q <= '0;
      end else begin
        if (chk_take) begin
          chk_left_q <= chk_left_q - 32'd1;
          chk_addr_q <= chk_addr_q + 32'd4;
        end
        if (chk_rsp) begin
          chk_sum_q  <= chk_sum_n;
          chk_sum2_q <= chk_sum2_q + chk_sum_n;
        end
      end
      chk_pend_q <= chk_pend_q + 4'(chk_take) - 4'(chk_rsp);
      // the grid launcher
      if (launch_go) begin
        launching_q <= 1'b1;
        cta_q       <= '0;
      end else if (launch_take) begin
        cta_q <= cta_q + 32'd1;
        if (cta_q + 32'd1 == bg_ncta_q) launching_q <= 1'b0;
      end
      // events in flight, their sequence numbers
      if (ev_push) seq_q <= seq_q + 1'b1;
      inflight_q <= inflight_q + (IB+1)'(ev_push) - (IB+1)'(cpl_valid_i);
    end
    if (ev_push) push_cyc_q[seq_q[IB-1:0]] <= cycle_q;
  end

  // counters and sticky errors: CLEAR restarts them
  wire fill_bad = wr && addr_i == WB'(fg_simt_pkg::SIMT_FILL_COUNT) && fill_left_q != '0;
  wire chk_bad  = wr && (addr_i == WB'(fg_simt_pkg::SIMT_CHK_COUNT) || addr_i == WB'(fg_simt_pkg::SIMT_CHK_ADDR)) &&
                  chk_busy_o;
  always_ff @(posedge clk_i) begin
    if (!rst_ni || do_clear) begin
      bg_launched_q <= '0;
      bg_done_q     <= '0;
      ev_done_q     <= '0;
      faults_q      <= '0;
      s_mem_q       <= 1'b0;
      s_fault_q     <= 1'b0;
      s_bad_q       <= 1'b0;
      s_err_q       <= 1'b0;
      s_lost_q      <= 1'b0;
      s_launch_q    <= 1'b0;
      s_cpl_q       <= 1'b0;
      mem_err_addr_q <= '0;
      fault_q       <= '0;
      fault_pc_q    <= '0;
      err_code_q    <= '0;
    end else begin
      if (launch_take) bg_launched_q <= bg_launched_q + 32'd1;
      if (done_valid_i && !end_event_i) bg_done_q <= bg_done_q + 32'd1;
      if (cpl_valid_i) ev_done_q <= ev_done_q + 32'd1;
      if (fault_valid_i) begin
        faults_q <= faults_q + 32'd1;
        if (!s_fault_q) begin
          fault_q    <= {end_event_i, 8'(fault_slot_i), 5'd0, fault_code_i};
          fault_pc_q <= fault_pc_i;
        end
        s_fault_q <= 1'b1;
      end
      if (mem_err_i && !s_mem_q) begin
        s_mem_q        <= 1'b1;
        mem_err_addr_q <= mem_err_addr_i;
      end
      if (ev_bad_i || ev_refuse) s_bad_q <= 1'b1;
      if (err_valid_i && !s_err_q) begin
        s_err_q    <= 1'b1;
        err_code_q <= err_code_i;
      end
      if (cpl_valid_i && !rec_ready) s_lost_q <= 1'b1;
      if ((cpl_valid_i || ev_refuse) && !cq_ready) s_cpl_q <= 1'b1;
      if ((do_launch && !launch_go) || fill_bad || chk_bad) s_launch_q <= 1'b1;
    end
  end

  assign local_base_o       = local_base_q;
  assign save_base_o        = save_base_q;
  assign save_mask_o        = save_mask_q;
  assign cfg_en_o           = pre_cfg_q[0];
  assign cfg_policy_o       = pre_cfg_q[2:1];
  assign cfg_opt_o          = pre_cfg_q[7:4];
  assign cfg_save_base_o    = pre_cost_q[15:0];
  assign cfg_save_per_reg_o = pre_cost_q[23:16];
  assign launch_valid_o     = launching_q;
  assign launch_pc_o        = bg_pc_q;
  assign launch_param_o     = bg_param_q;
  assign launch_live_o      = bg_ntid_q >= 32'd32 ? 32'hFFFF_FFFF : (32'd1 << bg_ntid_q[4:0]) - 32'd1;
  assign launch_ctaid_o     = {32'd0, 32'd0, cta_q};
  assign launch_ntid_o      = {32'd1, 32'd1, bg_ntid_q};
  assign launch_nctaid_o    = {32'd1, 32'd1, bg_ncta_q};
  assign fill_valid_o       = fill_left_q != '0;
  assign fill_addr_o        = fill_addr_q;
  assign fill_wdata_o       = fill_value_q;
  assign chk_valid_o        = chk_left_q != '0;
  assign chk_addr_o         = chk_addr_q;
  assign chk_busy_o         = chk_left_q != '0 || chk_pend_q != '0;
  assign err_o              = s_mem_q || s_fault_q || s_bad_q || s_err_q || s_lost_q || s_launch_q || s_cpl_q;

  // ---------------------------------------------------------------- reads
  logic [fg_simt_pkg::SIMT_ST_W-1:0] status;
  always_comb begin
    status                  = '0;
    status[fg_simt_pkg::SIMT_ST_BUSY]      = busy_i;
    status[fg_simt_pkg::SIMT_ST_LAUNCHING] = launching_q;
    status[fg_simt_pkg::SIMT_ST_MEM_ERR]   = s_mem_q;
    status[fg_simt_pkg::SIMT_ST_FAULT]     = s_fault_q;
    status[fg_simt_pkg::SIMT_ST_EV_BAD]    = s_bad_q;
    status[fg_simt_pkg::SIMT_ST_ERR]       = s_err_q;
    status[fg_simt_pkg::SIMT_ST_REC_LOST]  = s_lost_q;
    status[fg_simt_pkg::SIMT_ST_FILLING]   = fill_valid_o;
    status[fg_simt_pkg::SIMT_ST_REFUSED]   = s_launch_q;
    status[fg_simt_pkg::SIMT_ST_CPL_LOST]  = s_cpl_q;
    status[fg_simt_pkg::SIMT_ST_CHECKING]  = chk_busy_o;
  end
  logic [31:0] rdata_q;
  always_ff @(posedge clk_i) begin
    unique case (addr_i)
      WB'(fg_simt_pkg::SIMT_ID):             rdata_q <= fg_simt_pkg::SIMT_ID_VALUE;
      WB'(fg_simt_pkg::SIMT_PARAMS):         rdata_q <= {8'(PEWT_ENTRIES), 7'd0, GTO != 0, 8'(NL), 8'(NW)};
      WB'(fg_simt_pkg::SIMT_MEM_BYTES):      rdata_q <= 32'(MEM_BYTES);
      WB'(fg_simt_pkg::SIMT_STACK_BYTES):    rdata_q <= 32'(STACK_BYTES);
      WB'(fg_simt_pkg::SIMT_STATUS):         rdata_q <= 32'(status);
      WB'(fg_simt_pkg::SIMT_LOCAL_BASE):     rdata_q <= local_base_q;
      WB'(fg_simt_pkg::SIMT_SAVE_BASE):      rdata_q <= save_base_q;
      WB'(fg_simt_pkg::SIMT_SAVE_MASK):      rdata_q <= save_mask_q;
      WB'(fg_simt_pkg::SIMT_PRE_CFG):        rdata_q <= pre_cfg_q;
      WB'(fg_simt_pkg::SIMT_PRE_COST):       rdata_q <= pre_cost_q;
      WB'(fg_simt_pkg::SIMT_EV_REGS):        rdata_q <= 32'(ev_regs_q);
      WB'(fg_simt_pkg::SIMT_BG_PC):          rdata_q <= bg_pc_q;
      WB'(fg_simt_pkg::SIMT_BG_PARAM):       rdata_q <= bg_param_q;
      WB'(fg_simt_pkg::SIMT_BG_NCTA):        rdata_q <= bg_ncta_q;
      WB'(fg_simt_pkg::SIMT_BG_NTID):        rdata_q <= bg_ntid_q;
      WB'(fg_simt_pkg::SIMT_BG_LAUNCHED):    rdata_q <= bg_launched_q;
      WB'(fg_simt_pkg::SIMT_BG_DONE):        rdata_q <= bg_done_q;
      WB'(fg_simt_pkg::SIMT_EV_DONE):        rdata_q <= ev_done_q;
      WB'(fg_simt_pkg::SIMT_CNT_START_FREE): rdata_q <= cnt_start_free_i;
      WB'(fg_simt_pkg::SIMT_CNT_START_PRE):  rdata_q <= cnt_start_pre_i;
      WB'(fg_simt_pkg::SIMT_CNT_RESUME):     rdata_q <= cnt_resume_i;
      WB'(fg_simt_pkg::SIMT_CNT_ABORT):      rdata_q <= 32'(cnt_abort_i);
      WB'(fg_simt_pkg::SIMT_FAULTS):         rdata_q <= faults_q;
      WB'(fg_simt_pkg::SIMT_REC_COUNT):      rdata_q <= 32'(rec_cnt);
      WB'(fg_simt_pkg::SIMT_REC_TAG):        rdata_q <= rec_v ? 32'(rec_head[RW-1 -: TAG_W]) : '1;
      WB'(fg_simt_pkg::SIMT_REC_CYCLES):     rdata_q <= rec_head[63:32];
      WB'(fg_simt_pkg::SIMT_REC_END):        rdata_q <= rec_head[31:0];
      WB'(fg_simt_pkg::SIMT_FAULT):          rdata_q <= 32'(fault_q);
      WB'(fg_simt_pkg::SIMT_FAULT_PC):       rdata_q <= fault_pc_q;
      WB'(fg_simt_pkg::SIMT_MEM_ERR_ADDR):   rdata_q <= mem_err_addr_q;
      WB'(fg_simt_pkg::SIMT_ERR_CODE):       rdata_q <= 32'(err_code_q);
      WB'(fg_simt_pkg::SIMT_FILL_ADDR):      rdata_q <= fill_addr_q;
      WB'(fg_simt_pkg::SIMT_FILL_VALUE):     rdata_q <= fill_value_q;
      WB'(fg_simt_pkg::SIMT_FILL_COUNT):     rdata_q <= fill_left_q;
      WB'(fg_simt_pkg::SIMT_CHK_ADDR):       rdata_q <= chk_addr_q;
      WB'(fg_simt_pkg::SIMT_CHK_COUNT):      rdata_q <= chk_left_q + 32'(chk_pend_q);
      WB'(fg_simt_pkg::SIMT_CHK_SUM):        rdata_q <= chk_sum_q;
      WB'(fg_simt_pkg::SIMT_CHK_SUM2):       rdata_q <= chk_sum2_q;
      default:                  rdata_q <= '0;
    endcase
  end
  assign rdata_o = rdata_q;

  logic unused;
  assign unused = ^{cq_cnt, cpl_tag_i[TAG_W-1:IDW+IB], seq_q[SEQ_W-1:IB], evw_block_x_i[DIM_W-1:6]};

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // a completion for every push, and no more events in flight than the
      // PEWT and the slots hold (the push-cycle table's size)
      `FG_ASSERT(simt_ctl_inflight, inflight_q <= (IB+1)'(PEWT_ENTRIES + NW))
      `FG_ASSERT(simt_ctl_cpl_pushed, !cpl_valid_i || inflight_q != '0 || ev_push)
      // the memory answers a read MEM_LAT cycles after taking it: never more in flight
      `FG_ASSERT(simt_ctl_chk_pend, chk_pend_q <= 4'(MEM_LAT))
    end
  end
endmodule
