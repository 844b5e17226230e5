// A SIMT core with EDGE's warp-level events (EDGE IV-C, IV-D, Figs. 9-10):
// the RTL SIMT core (simt_core), its pending event warp table (edge_pewt)
// and its warp preemption / flush controller (edge_preempt), wired as the C
// model's sim/simt/simt_edge_core.c wires the same two blocks to the C core.
// docs/SIMT_RTL.md "EDGE hooks".
//
// An event pushed on ev_* waits in the PEWT; the controller starts its warp
// in a free slot, or flushes a victim (a background warp), has the core park
// it and save the registers an event may write, and starts the event warp in
// its slot; when the event warp ends, the controller resumes the victim (the
// core restores its registers) and the PEWT reports the completion on cpl_*.
// Background warps come on launch_* as to the core; a launch waits while an
// event is pending (the controller's free slot is the one a launch takes).
//
// The core has no spare register file: every slot holds 32 registers per
// thread (what the controller is told of each launch), a preempted victim's
// are always saved (rf_free_i low), and the core does the transfer itself; the
// controller's save / restore counts (cfg_save_*) add cycles before START
// and RESUME (0 for none).  Barrier skipping and load drop-and-replay are
// not done by this core: it reports no warp waiting at a barrier for another
// and no droppable loads, so the controller never asks for them.
`include "fg_assert.svh"
module simt_edge_core #(
  parameter  int NW           = 8,
  parameter  int NL           = 8,
  parameter  int GTO          = 1,
  parameter  int STACK_BYTES  = 1024,
  parameter  int CORE_ID      = 0,
  parameter  int RD_DEPTH     = 4,
  parameter  int PEWT_ENTRIES = 4,    // [preempt] pewt_entries
  parameter  int TAG_W        = 16,
  localparam int SW           = (NW > 1) ? $clog2(NW) : 1,
  localparam int P            = 32 / NL,
  localparam int PW           = (P > 1) ? $clog2(P) : 1
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [31:0]        local_base_i,
  input  logic [31:0]        save_base_i,
  input  logic [31:0]        save_mask_i,
  // the controller's configuration ([preempt])
  input  logic               cfg_en_i,
  input  logic [1:0]         cfg_policy_i,
  input  logic [3:0]         cfg_opt_i,
  input  logic [15:0]        cfg_save_base_i,
  input  logic [7:0]         cfg_save_per_reg_i,
  // background warps (simt_core's launch port)
  input  logic               launch_valid_i,
  output logic               launch_ready_o,
  output logic [SW-1:0]      launch_slot_o,
  input  logic [31:0]        launch_pc_i,
  input  logic [31:0]        launch_param_i,
  input  logic [31:0]        launch_live_i,
  input  logic [31:0]        launch_wib_i,
  input  logic [95:0]        launch_ctaid_i,
  input  logic [95:0]        launch_ntid_i,
  input  logic [95:0]        launch_nctaid_i,
  input  logic [31:0]        launch_shmem_i,
  // events (the PEWT's push port) and their completions
  input  logic               ev_valid_i,
  output logic               ev_ready_o,
  input  logic [31:0]        ev_kernel_i,
  input  logic [31:0]        ev_param_i,
  input  logic [TAG_W-1:0]   ev_tag_i,
  input  logic [5:0]         ev_threads_i,     // 1..32: one warp
  input  logic [6:0]         ev_regs_i,
  output logic               cpl_valid_o,
  output logic [TAG_W-1:0]   cpl_tag_o,
  output logic               ev_bad_o,         // an event pushed with 0 or more than 32 threads: refused
  // the core's completions and faults (end_event_o: of an event warp)
  output logic               done_valid_o,
  output logic [SW-1:0]      done_slot_o,
  output logic               end_event_o,
  output logic               fault_valid_o,
  output logic [SW-1:0]      fault_slot_o,
  output logic [2:0]         fault_code_o,
  output logic [31:0]        fault_pc_o,
  // memory port
  output logic               mem_req_valid_o,
  input  logic               mem_req_ready_i,
  output logic               mem_req_we_o,
  output logic [31:0]        mem_req_addr_o,
  output logic [3:0]         mem_req_be_o,
  output logic [31:0]        mem_req_wdata_o,
  input  logic               mem_rsp_valid_i,
  input  logic [31:0]        mem_rsp_rdata_i,
  // retire beats
  output logic               rvfi_valid_o,
  output logic [SW-1:0]      rvfi_slot_o,
  output logic [31:0]        rvfi_order_o,
  output logic [31:0]        rvfi_pc_o,
  output logic [31:0]        rvfi_mask_o,
  output logic [4:0]         rvfi_rd_o,
  output logic [PW-1:0]      rvfi_pass_o,
  output logic [NL*32-1:0]   rvfi_data_o,
  // what the controller commanded this cycle (the core carries it out), its state, errors, counters
  output logic [2:0]         cmd_o,
  output logic [SW-1:0]      cmd_slot_o,
  output logic [3:0]         cmd_arg_o,
  output logic [NW-1:0]      event_mask_o,
  output logic [NW-1:0]      victim_mask_o,
  output logic               err_valid_o,      // the PEWT's or the controller's error pulse
  output logic [3:0]         err_code_o,       // {the PEWT's, the controller's} err_code_o
  output logic [31:0]        cnt_start_free_o,
  output logic [31:0]        cnt_start_pre_o,
  output logic [31:0]        cnt_resume_o,
  output logic [15:0]        cnt_abort_o,
  output logic               busy_o
);
  `FG_ASSERT_PARAM(g_chk_nw, NW >= 2 && NW <= 32, "simt_edge_core: NW must be 2..32")

  localparam int CW = $clog2(PEWT_ENTRIES + 1);

  // the PEWT head and the controller's command
  logic              hd_valid, pewt_ready, pewt_cpl, pewt_err, pre_err;
  logic [31:0]       hd_kernel, hd_param;
  logic [5:0]        hd_threads;
  logic [6:0]        hd_regs;
  logic [CW-1:0]     n_pending;
  logic [2:0]        cmd;
  logic [SW-1:0]     cmd_slot, victim;
  logic [3:0]        cmd_arg;
  // the core's state
  logic [NW-1:0]     w_live, w_exit, w_bar, w_ld, w_event, w_parked;
  logic              v_pipe, v_sb, v_ibuf, v_imiss, v_ldok;
  logic              core_ready, core_done, core_fault, core_end_ev;
  logic [SW-1:0]     core_slot, core_done_slot, core_fault_slot;

  // an event warp ended (done or stopped by a fault): both blocks learn it
  wire ev_exit = (core_done || core_fault) && core_end_ev;
  wire [SW-1:0] ev_exit_slot = core_done ? core_done_slot : core_fault_slot;

  // An event must be one warp: refused with a pulse otherwise (the PEWT
  // never sees it, so no slot waits on it).
  wire ev_ok   = ev_threads_i >= 6'd1 && ev_threads_i <= 6'd32;
  wire ev_push = ev_valid_i && ev_ok && pewt_ready;
  assign ev_ready_o = pewt_ready || !ev_ok;
  always_ff @(posedge clk_i)
    if (!rst_ni) ev_bad_o <= 1'b0;
    else ev_bad_o <= ev_valid_i && !ev_ok;

  // background launches wait while an event is pending or pushed
  // (simt_edge_core.c blocks_held): the controller may start one in the
  // slot a launch would take; and in the cycle an event warp's end is
  // reported: its slot is free in the core, not yet in the controller
  wire held   = n_pending != '0 || ev_push || ev_exit;
  wire launch = launch_valid_i && core_ready && !held;
  assign launch_ready_o = core_ready && !held;
  assign launch_slot_o  = core_slot;


  logic unused_pewt;
  logic [TAG_W-1:0] unused_hd_tag;
  logic [CW-1:0]    unused_n_run, unused_n_free;
  logic [1:0]       perr_code, qerr_code, unused_state;
  logic [15:0]      unused_pcnt_err, unused_qcnt_err;
  logic [31:0]      unused_cnt_push;
  logic [SW-1:0]    unused_cpl_slot;
  logic [$clog2(PEWT_ENTRIES)-1:0] unused_hd_idx;
  edge_pewt #(.ENTRIES(PEWT_ENTRIES), .ADDR_W(32), .TAG_W(TAG_W), .SLOT_W(SW), .THR_W(6), .REGS_W(7)) u_pewt (
    .clk_i, .rst_ni,
    .ev_valid_i(ev_push), .ev_ready_o(pewt_ready), .ev_kernel_i, .ev_param_i, .ev_tag_i,
    .ev_threads_i, .ev_regs_i,
    .start_valid_i(cmd == edge_pkg::PRE_CMD_START), .start_slot_i(cmd_slot),
    .exit_valid_i(ev_exit), .exit_slot_i(ev_exit_slot),
    .hd_valid_o(hd_valid), .hd_idx_o(unused_hd_idx), .hd_kernel_o(hd_kernel), .hd_param_o(hd_param),
    .hd_tag_o(unused_hd_tag), .hd_threads_o(hd_threads), .hd_regs_o(hd_regs),
    .cpl_valid_o(pewt_cpl), .cpl_tag_o(cpl_tag_o), .cpl_slot_o(unused_cpl_slot),
    .n_pending_o(n_pending), .n_running_o(unused_n_run), .n_free_o(unused_n_free),
    .err_valid_o(pewt_err), .err_code_o(perr_code), .cnt_err_o(unused_pcnt_err),
    .cnt_push_o(unused_cnt_push));
  assign cpl_valid_o = pewt_cpl;

  // v_* and p_* name the same slot, victim_o (the core's state of it, this cycle)
  wire v_left = w_exit[victim] || !w_live[victim];
  logic [3*((NW+7)/8)-1:0] unused_grp_win;
  logic [(NW+7)/8-1:0]     unused_pick_grp;
  logic [5:0]              unused_vstat;
  edge_preempt #(.NW(NW), .SLOT_W(SW), .REGS_W(7), .CYC_W(16)) u_pre (
    .clk_i, .rst_ni,
    .cfg_en_i, .cfg_policy_i, .cfg_opt_i, .cfg_save_base_i, .cfg_save_per_reg_i,
    .req_valid_i(hd_valid), .req_regs_i(hd_regs),
    .free_ctx_i(hd_valid && core_ready && !ev_exit), .free_slot_i(core_slot), .rf_free_i(1'b0),
    .w_alloc_i(launch ? NW'(1) << core_slot : '0), .w_alloc_regs_i(7'd32),
    .w_live_i(w_live), .w_exit_i(w_exit), .w_bar_i(w_bar), .w_ld_i(w_ld),
    .v_pipe_i(v_pipe), .v_sb_i(v_sb), .v_ibuf_i(v_ibuf), .v_imiss_i(v_imiss), .v_ldok_i(v_ldok),
    .v_left_i(v_left), .v_bar_i(w_bar[victim]), .v_ld_i(w_ld[victim]),
    .p_left_i(v_left), .p_bar_i(w_bar[victim]), .p_ld_i(w_ld[victim]),
    .ev_exit_i(ev_exit), .ev_exit_slot_i(ev_exit_slot),
    .cmd_o(cmd), .cmd_slot_o(cmd_slot), .cmd_arg_o(cmd_arg), .state_o(unused_state), .victim_o(victim),
    .grp_win_o(unused_grp_win), .pick_grp_o(unused_pick_grp), .vstat_o(unused_vstat),
    .event_mask_o(event_mask_o), .victim_mask_o(victim_mask_o),
    .err_valid_o(pre_err), .err_code_o(qerr_code), .cnt_err_o(unused_qcnt_err),
    .cnt_start_free_o, .cnt_start_pre_o, .cnt_abort_o, .cnt_resume_o);
  assign unused_pewt = ^{unused_hd_tag, unused_n_run, unused_n_free,
                         unused_state, unused_pcnt_err, unused_qcnt_err, unused_cnt_push, unused_cpl_slot,
                         unused_hd_idx, unused_grp_win, unused_pick_grp, unused_vstat, w_event, w_parked};
  assign err_valid_o = pewt_err || pre_err;
  assign err_code_o  = {pewt_err ? perr_code : 2'd0, pre_err ? qerr_code : 2'd0};
  assign cmd_o      = cmd;
  assign cmd_slot_o = cmd_slot;
  assign cmd_arg_o  = cmd_arg;

  simt_core #(.NW(NW), .NL(NL), .GTO(GTO), .STACK_BYTES(STACK_BYTES), .CORE_ID(CORE_ID), .RD_DEPTH(RD_DEPTH)) u_core (
    .clk_i, .rst_ni, .local_base_i,
    .launch_valid_i(launch), .launch_ready_o(core_ready), .launch_slot_o(core_slot),
    .launch_pc_i, .launch_param_i, .launch_live_i, .launch_wib_i, .launch_ctaid_i, .launch_ntid_i,
    .launch_nctaid_i, .launch_shmem_i,
    .cmd_i(cmd), .cmd_slot_i(cmd_slot), .cmd_arg_i(cmd_arg), .ev_pc_i(hd_kernel), .ev_param_i(hd_param),
    .ev_threads_i(hd_threads), .save_base_i, .save_mask_i,
    .w_live_o(w_live), .w_exit_o(w_exit), .w_bar_o(w_bar), .w_ld_o(w_ld), .w_event_o(w_event),
    .w_parked_o(w_parked), .v_slot_i(victim), .v_pipe_o(v_pipe), .v_sb_o(v_sb), .v_ibuf_o(v_ibuf),
    .v_imiss_o(v_imiss), .v_ldok_o(v_ldok),
    .done_valid_o(core_done), .done_slot_o(core_done_slot), .end_event_o(core_end_ev),
    .fault_valid_o(core_fault), .fault_slot_o(core_fault_slot), .fault_code_o, .fault_pc_o,
    .mem_req_valid_o, .mem_req_ready_i, .mem_req_we_o, .mem_req_addr_o, .mem_req_be_o, .mem_req_wdata_o,
    .mem_rsp_valid_i, .mem_rsp_rdata_i,
    .rvfi_valid_o, .rvfi_slot_o, .rvfi_order_o, .rvfi_pc_o, .rvfi_mask_o, .rvfi_rd_o, .rvfi_pass_o, .rvfi_data_o,
    .busy_o);
  assign done_valid_o  = core_done;
  assign done_slot_o   = core_done_slot;
  assign end_event_o   = core_end_ev;
  assign fault_valid_o = core_fault;
  assign fault_slot_o  = core_fault_slot;

endmodule
