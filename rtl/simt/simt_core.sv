// A SIMT core in RTL: warps of 32 threads running RV32IMA + Zicsr kernels
// compiled from C (the C model's ISA, sim/simt/, minus F), executed over
// NL lanes in 32 / NL passes.  The contract (ports, address map, faults,
// retire beats) is docs/SIMT_RTL.md.
//
// Pipeline (one instruction at a time per warp, warps interleaved):
//   fetch   a warp whose group is known and whose i-buffer is empty reads its
//           pc through the memory port (round robin over the warps);
//   issue   one warp a cycle whose i-buffer holds an instruction with no
//           pending source or destination (the per-warp scoreboard), its
//           unit free: GTO (greedy, then oldest; EDGE Table II) or loose
//           round-robin;
//   passes  R (register read, synchronous RAM) -> E (lanes compute) -> W
//           (register write, retire beat, per-thread PCs), one pass a cycle;
//   scan    the warp's next group: the smallest PC among its live threads
//           not waiting at the barrier, and the threads there (the C
//           model's min-PC reconvergence, docs/SIMT.md), NL threads a cycle.
// Loads, stores and divisions hand their operands to the LSU / divider in W
// and complete later; their destination stays pending in the scoreboard, so
// the warp goes on with independent instructions.  They write back through
// the same register write port when the lane pipeline is empty.
//
// EDGE hooks (EDGE IV-D; docs/SIMT_RTL.md "EDGE hooks"): the preemption
// controller's commands on cmd_* are carried out in the cycle they come.
// FLUSH stops a victim's fetch (with its options: i-buffer flush, priority
// boost); START runs an event warp in a free slot or in a drained victim's,
// whose slot state is parked in a shadow copy and whose per-thread PCs and
// registers an event may write (save_mask_i, those the victim has written)
// are copied to the save area through the memory port before the event warp
// runs; RESUME puts the victim back and reads them back before it runs again;
// ABORT ends a flush.  The core reports each slot's state (w_*) and the
// victim's (v_*) to the controller.
//
// Registers a warp has not written since its launch read as their launch
// values (x1 = FG_EXIT_ADDR, x2 = FG_LOCAL_TOP, x10 = the parameter block, 0
// else): the first write of a register writes every thread of it (the
// others' launch value), so the register file needs no clearing.
`include "fg_assert.svh"
`include "fg_comb.svh"
module simt_core #(
  parameter  int NW          = 8,     // warp slots
  parameter  int NL          = 8,     // lanes: a warp instruction takes 32 / NL passes
  parameter  int GTO         = 1,     // 1: greedy-then-oldest issue; 0: loose round-robin
  parameter  int STACK_BYTES = 1024,  // per-thread local memory ([gpu] stack_bytes)
  parameter  int CORE_ID     = 0,     // what the core-id CSR reads
  parameter  int RD_DEPTH    = 4,     // reads in flight on the memory port
  localparam int SW          = (NW > 1) ? $clog2(NW) : 1,
  localparam int P           = 32 / NL,
  localparam int PW          = (P > 1) ? $clog2(P) : 1,
  localparam int PB          = $clog2(P),                 // pass bits of a register address
  localparam int RFD         = NW * P * 32,
  localparam int RFAW        = $clog2(RFD)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [31:0]        local_base_i,
  // launch
  input  logic               launch_valid_i,
  output logic               launch_ready_o,
  output logic [SW-1:0]      launch_slot_o,
  input  logic [31:0]        launch_pc_i,
  input  logic [31:0]        launch_param_i,
  input  logic [31:0]        launch_live_i,
  input  logic [31:0]        launch_wib_i,
  input  logic [95:0]        launch_ctaid_i,   // {z, y, x}
  input  logic [95:0]        launch_ntid_i,
  input  logic [95:0]        launch_nctaid_i,
  input  logic [31:0]        launch_shmem_i,
  // EDGE: the preemption controller's command and the event a START starts
  input  logic [2:0]         cmd_i,            // edge_pkg::PRE_CMD_*
  input  logic [SW-1:0]      cmd_slot_i,
  input  logic [3:0]         cmd_arg_i,        // FLUSH: PRE_OPT_*; START / RESUME: PRE_ARG_*
  input  logic [31:0]        ev_pc_i,
  input  logic [31:0]        ev_param_i,
  input  logic [5:0]         ev_threads_i,     // 1..32
  input  logic [31:0]        save_base_i,      // the save area (physical, word aligned)
  input  logic [31:0]        save_mask_i,      // bit r: an event may write x_r
  // EDGE: the slots' and the victim's state for the controller
  output logic [NW-1:0]      w_live_o,         // holds a warp context (running, or a parked victim)
  output logic [NW-1:0]      w_exit_o,         // its warp is ending (no live thread, or stopped)
  output logic [NW-1:0]      w_bar_o,
  output logic [NW-1:0]      w_ld_o,           // a load of its warp is in the LSU
  output logic [NW-1:0]      w_event_o,        // runs an event warp
  output logic [NW-1:0]      w_parked_o,       // holds a parked victim
  input  logic [SW-1:0]      v_slot_i,
  output logic               v_pipe_o,
  output logic               v_sb_o,
  output logic               v_ibuf_o,
  output logic               v_imiss_o,
  output logic               v_ldok_o,
  // completion and faults
  output logic               done_valid_o,
  output logic [SW-1:0]      done_slot_o,
  output logic               end_event_o,      // with a done or fault pulse: the warp was an event's
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
  output logic               busy_o
);
  `FG_ASSERT_PARAM(g_chk_nw, NW >= 1 && NW <= 32, "simt_core: NW must be 1..32")
  `FG_ASSERT_PARAM(g_chk_nl, NL == 1 || NL == 2 || NL == 4 || NL == 8 || NL == 16 || NL == 32,
                   "simt_core: NL must be 1, 2, 4, 8, 16 or 32")
  `FG_ASSERT_PARAM(g_chk_stack, STACK_BYTES >= 16 && STACK_BYTES <= 65536 && (STACK_BYTES & (STACK_BYTES - 1)) == 0,
                   "simt_core: STACK_BYTES must be a power of two in 16..65536")
  `FG_ASSERT_PARAM(g_chk_rd, RD_DEPTH >= 1 && RD_DEPTH <= 64, "simt_core: RD_DEPTH must be 1..64")

  localparam logic [31:0] EXIT_ADDR  = 32'hFFFF_FFF0;   // FG_EXIT_ADDR
  localparam logic [31:0] LOCAL_TOP  = 32'hF000_0000;   // FG_LOCAL_TOP
  localparam logic [31:0] LOCAL_BOT  = LOCAL_TOP - 32'(STACK_BYTES);
  localparam logic [31:0] GUARD_END  = 32'h0000_1000;   // FG_GUARD_END
  localparam logic [31:0] SHARED_BASE = 32'hC000_0000;  // FG_SHARED_BASE: global memory ends here
  localparam int          STK_SH     = $clog2(STACK_BYTES);

  // ------------------------------------------------------------ warp state
  logic [NW-1:0]             valid_q, grp_q, busy_q, scan_req_q, ibv_q, fpend_q, dead_q;
  logic [NW-1:0]             ev_q, stopf_q, boost_q, parked_q, hold;
  // A FLUSH takes effect in its own cycle (the controller reads the
  // victim's state at its end): no fetch starts, and with the i-buffer flush
  // no instruction issues, for the victim in that cycle.
  logic [NW-1:0]             flush_now;
  wire                       flush_ibuf = (cmd_arg_i & edge_pkg::PRE_OPT_IBUF) != '0;
  always_comb
    for (int s = 0; s < NW; s++) flush_now[s] = cmd_i == edge_pkg::PRE_CMD_FLUSH && cmd_slot_i == SW'(s);
  // Per slot s, flat (plain registers: Yosys 0.23 reads no multi-dimensional
  // packed arrays and its memory passes fail on these as arrays): x_q[s*32 +: 32].
  // The per-thread PCs stay in their slot (g_slot[s].lpc); the scan sees the
  // threads of the pass it reads next of every slot, pf_lpc_all[(s*NL + i)*32 +: 32]
  // (p0_lpc_all: pass 0, for a scan that starts), the save transfer those of
  // its pass, x_lpc_all.
  logic [NW*32-1:0]          live_q, bar_q, pc_q, act_q, order_q, age_n_all, ib_q, fpc_q;
  logic [NW*3-1:0]           fcode_q;
  logic [NW*NL*32-1:0]       pf_lpc_all, p0_lpc_all, x_lpc_all;
  logic [NW*32-1:0]          wib_q, shmem_q, param_q;
  logic [NW*96-1:0]          ctaid_q, ntid_q, nctaid_q;
  logic [31:0]               age_ctr_q;
  logic [63:0]               cycle_q, instret_q;

  // the launch value of register r of a warp whose parameter block is param
  function automatic logic [31:0] init_val(input logic [4:0] r, input logic [31:0] param);
    case (r)
      5'd1:    init_val = EXIT_ADDR;
      5'd2:    init_val = LOCAL_TOP;
      5'd10:   init_val = param;
      default: init_val = '0;
    endcase
  endfunction

  // Slot s's field of a per-slot vector: an AND-OR over the slots (a mux of
  // constant part-selects; a variable part-select would be a barrel shifter).
  function automatic logic [31:0] slot32(input logic [NW*32-1:0] v, input logic [SW-1:0] s);
    slot32 = '0;
    for (int k = 0; k < NW; k++) if (s == SW'(k)) slot32 = slot32 | v[k*32 +: 32];
  endfunction
  function automatic logic [95:0] slot96(input logic [NW*96-1:0] v, input logic [SW-1:0] s);
    slot96 = '0;
    for (int k = 0; k < NW; k++) if (s == SW'(k)) slot96 = slot96 | v[k*96 +: 96];
  endfunction
  // the same with the slot one-hot (s_oh[k]: slot k; none: 0)
  function automatic logic [31:0] oh32(input logic [NW*32-1:0] v, input logic [NW-1:0] s_oh);
    oh32 = '0;
    for (int k = 0; k < NW; k++) if (s_oh[k]) oh32 = oh32 | v[k*32 +: 32];
  endfunction
  function automatic logic [2:0] slot3(input logic [NW*3-1:0] v, input logic [SW-1:0] s);
    slot3 = '0;
    for (int k = 0; k < NW; k++) if (s == SW'(k)) slot3 = slot3 | v[k*3 +: 3];
  endfunction
  function automatic logic [NL*32-1:0] slot_nl(input logic [NW*NL*32-1:0] v, input logic [SW-1:0] s);
    slot_nl = '0;
    for (int k = 0; k < NW; k++) if (s == SW'(k)) slot_nl = slot_nl | v[k*NL*32 +: NL*32];
  endfunction
  function automatic logic [NL*32-1:0] oh_nl(input logic [NW*NL*32-1:0] v, input logic [NW-1:0] s_oh);
    oh_nl = '0;
    for (int k = 0; k < NW; k++) if (s_oh[k]) oh_nl = oh_nl | v[k*NL*32 +: NL*32];
  endfunction

  // the words of pass p's threads (thread p * NL + i at word i): one slice of v
  function automatic logic [NL*32-1:0] pass_words(input logic [32*32-1:0] v, input logic [PW-1:0] p);
    pass_words = '0;
    for (int k = 0; k < P; k++) if (32'(p) == k) pass_words = v[k*NL*32 +: NL*32];
  endfunction

  // ------------------------------------------------------ i-buffer decode
  // The fetched word is decoded as it arrives and the fields issue needs
  // are kept beside the i-buffer (slot s's at [s*k +: k]): issue reads
  // registers, not a decoder per slot.
  logic          f_legal, f_csr_bad, f_use1, f_use2, f_store, f_uns, f_amo;
  logic [1:0]    f_unit, f_size, f_divop;
  logic [4:0]    f_rd, f_rs1, f_rs2, f_amo_op;
  logic [4:0]    unused_f_alu;
  logic          unused_f_bimm, unused_f_br, unused_f_jal, unused_f_jalr, unused_f_ecall, unused_f_bar;
  logic [31:0]   unused_f_imm;
  logic [2:0]    unused_f_f3;
  logic [11:0]   unused_f_csr;
  simt_decode u_dec_f (
    .insn_i(mem_rsp_rdata_i), .legal_o(f_legal), .csr_bad_o(f_csr_bad), .unit_o(f_unit), .alu_o(unused_f_alu),
    .rd_o(f_rd), .rs1_o(f_rs1), .rs2_o(f_rs2), .use_rs1_o(f_use1), .use_rs2_o(f_use2), .b_imm_o(unused_f_bimm),
    .imm_o(unused_f_imm), .br_o(unused_f_br), .br_f3_o(unused_f_f3), .jal_o(unused_f_jal), .jalr_o(unused_f_jalr),
    .ecall_o(unused_f_ecall), .bar_o(unused_f_bar), .csr_o(unused_f_csr), .store_o(f_store), .size_o(f_size),
    .lunsigned_o(f_uns), .div_op_o(f_divop), .amo_o(f_amo), .amo_op_o(f_amo_op));
  logic [NW-1:0]   d_legal, d_csr_bad, d_use1, d_use2, d_store, d_uns, d_amo;
  logic [NW*2-1:0] d_unit, d_size, d_divop;
  logic [NW*5-1:0] d_rd, d_rs1, d_rs2, d_amo_op;
  // per slot: the i-buffer's instruction's destination would be a first
  // write, its sources read their launch values (the warp's wr mask)
  logic [NW-1:0]   d_fw, d_i1, d_i2, d_lsu, d_div;
  logic [NW-1:0]   f_ld;           // the slot whose i-buffer takes the fetch response

  // ------------------------------------------------------------- the units
  logic lsu_idle, lsu_done, div_idle, div_done;

  // --------------------------------------------------------------- issue
  // The scoreboard and the warp scheduler (simt_sched): a candidate is a
  // running warp whose i-buffer holds an instruction and which has none in
  // the lane pipeline.
  logic            seq_v_q, e_v_q, w_v_q, wbk_v_q;
  logic [PW-1:0]   seq_pass_q;
  logic            wb_req;
  logic [NW-1:0]   cand, ifault;
  always_comb
    for (int s = 0; s < NW; s++)
      cand[s] = valid_q[s] && ibv_q[s] && !busy_q[s] && !dead_q[s] && !hold[s] &&
                !(flush_now[s] && flush_ibuf);
  wire seq_free = !seq_v_q || seq_pass_q == PW'(P - 1);
  logic x_stall;   // the save / restore transfer needs a register port (below)
  wire can_issue = seq_free && !wb_req && !wbk_v_q && !x_stall;

  // priority classes (EDGE IV-D): an event warp, then a victim being flushed
  // with the boost, then the background
  logic [NW*2-1:0] prio;
  always_comb
    for (int s = 0; s < NW; s++) prio[s*2 +: 2] = ev_q[s] ? 2'd2 : boost_q[s] ? 2'd1 : 2'd0;

  logic [SW-1:0] pick, lm_slot, dm_slot;
  logic [NW-1:0] pick_oh;
  logic [NW*NW-1:0] older_q;       // [i*NW + j]: slot i's warp is older than slot j's (GTO)
  logic [4:0]    lm_rd, dm_rd;
  logic          issue, lm_v, dm_v, lsu_end, div_end;
  logic [NW*32-1:0] sb_q;          // the scoreboard, for the waveforms
  logic             unused_sb;
  assign unused_sb = ^sb_q;
  simt_sched #(.NW(NW), .GTO(GTO)) u_sched (
    .clk_i, .rst_ni, .cand_i(cand), .legal_i(d_legal & ~d_csr_bad), .rs1_i(d_rs1), .rs2_i(d_rs2), .rd_i(d_rd),
    .use1_i(d_use1), .use2_i(d_use2), .unit_i(d_unit), .ld_i(f_ld), .ld_rs1_i(f_rs1), .ld_rs2_i(f_rs2),
    .ld_rd_i(f_rd), .ld_use1_i(f_use1), .ld_use2_i(f_use2), .older_i(older_q), .prio_i(prio), .can_issue_i(can_issue),
    .lsu_end_i(lsu_end), .div_end_i(div_end), .issue_o(issue), .pick_o(pick), .pick_oh_o(pick_oh), .ifault_o(ifault),
    .lsu_v_o(lm_v), .lsu_slot_o(lm_slot), .lsu_rd_o(lm_rd), .div_v_o(dm_v), .div_slot_o(dm_slot),
    .div_rd_o(dm_rd), .sb_o(sb_q)
`ifdef FORMAL
    , .f_hz_lsu_o(), .f_hz_div_o()
`endif
  );


  // ------------------------------------------------- the lane pipeline
  // The instruction of a pass, kept with it through R, E and W.
  logic [SW-1:0]  seq_slot_q, e_slot_q, w_slot_q;
  logic [31:0]    seq_insn_q;
  logic [4:0]     e_ra_q, e_rb_q;                 // the rs1 / rs2 fields of the instruction in E
  logic [31:0]    seq_pc_q, e_pc_q, w_pc_q;
  logic [31:0]    seq_mask_q, e_mask_q, w_mask_q;
  logic [31:0]    seq_order_q, e_order_q, w_order_q;
  logic           seq_fw_q, e_fw_q, w_fw_q;       // first write of rd since launch
  logic           seq_i1_q, e_i1_q, seq_i2_q, e_i2_q;   // rs1 / rs2 not yet written: launch value
  logic [PW-1:0]  e_pass_q, w_pass_q;

  // Decoded fields of the instruction in R, E and W: decoded once as it
  // enters R, then registered along with it (E and W read registers, no
  // decoder).
  logic        r_legal, r_csr_bad, r_use1, r_use2, r_bimm, r_br, r_jal, r_jalr, r_ecall, r_bar, r_store, r_uns, r_amo;
  logic [4:0]  r_amo_op;
  logic [1:0]  r_unit, r_size, r_divop;
  logic [4:0]  r_alu, r_rd, r_rs1, r_rs2;
  logic [31:0] r_imm;
  logic [2:0]  r_f3;
  logic [11:0] r_csr;
  simt_decode u_dec_r (
    .insn_i(seq_insn_q), .legal_o(r_legal), .csr_bad_o(r_csr_bad), .unit_o(r_unit), .alu_o(r_alu), .rd_o(r_rd),
    .rs1_o(r_rs1), .rs2_o(r_rs2), .use_rs1_o(r_use1), .use_rs2_o(r_use2), .b_imm_o(r_bimm), .imm_o(r_imm),
    .br_o(r_br), .br_f3_o(r_f3), .jal_o(r_jal), .jalr_o(r_jalr), .ecall_o(r_ecall), .bar_o(r_bar), .csr_o(r_csr),
    .store_o(r_store), .size_o(r_size), .lunsigned_o(r_uns), .div_op_o(r_divop), .amo_o(r_amo), .amo_op_o(r_amo_op));
  localparam int DQW = 13 + 5 + 2 + 2 + 2 + 5 + 5 + 5 + 5 + 32 + 3 + 12;
  logic [DQW-1:0] e_dq_q, w_dq_q;

  logic        e_legal, e_csr_bad, e_use1, e_use2, e_bimm, e_br, e_jal, e_jalr, e_ecall, e_bar, e_store, e_uns, e_amo;
  logic [4:0]  e_amo_op;
  logic [1:0]  e_unit, e_size, e_divop;
  logic [4:0]  e_alu, e_rd, e_rs1, e_rs2;
  logic [31:0] e_imm;
  logic [2:0]  e_f3;
  logic [11:0] e_csr;
  assign {e_legal, e_csr_bad, e_use1, e_use2, e_bimm, e_br, e_jal, e_jalr, e_ecall, e_bar, e_store, e_uns, e_amo,
         e_amo_op, e_unit, e_size, e_divop, e_alu, e_rd, e_rs1, e_rs2, e_imm, e_f3, e_csr} = e_dq_q;

  logic        w_legal, w_csr_bad, w_use1, w_use2, w_bimm, w_br, w_jal, w_jalr, w_ecall, w_bar, w_store, w_uns, w_amo;
  logic [4:0]  w_amo_op;
  logic [1:0]  w_unit, w_size, w_divop;
  logic [4:0]  w_alu, w_rd, w_rs1, w_rs2;
  logic [31:0] w_imm;
  logic [2:0]  w_f3;
  logic [11:0] w_csr;
  assign {w_legal, w_csr_bad, w_use1, w_use2, w_bimm, w_br, w_jal, w_jalr, w_ecall, w_bar, w_store, w_uns, w_amo,
         w_amo_op, w_unit, w_size, w_divop, w_alu, w_rd, w_rs1, w_rs2, w_imm, w_f3, w_csr} = w_dq_q;

  // issue-time fields of the picked warp (AND-OR over the one-hot pick)
  logic       p_fw, p_i1, p_i2, p_lsu, p_div, p_store, p_uns, p_amo;
  logic [1:0] p_size, p_divop;
  logic [4:0] p_amo_op;
  `FG_COMB_READBACK begin
    p_fw = 1'b0; p_i1 = 1'b0; p_i2 = 1'b0; p_lsu = 1'b0; p_div = 1'b0; p_store = 1'b0; p_uns = 1'b0; p_amo = 1'b0;
    p_size = '0; p_divop = '0; p_amo_op = '0;
    for (int s = 0; s < NW; s++)
      if (pick_oh[s]) begin
        p_fw     = p_fw | d_fw[s];
        p_i1     = p_i1 | d_i1[s];
        p_i2     = p_i2 | d_i2[s];
        p_lsu    = p_lsu | d_lsu[s];
        p_div    = p_div | d_div[s];
        p_store  = p_store | d_store[s];
        p_uns    = p_uns | d_uns[s];
        p_amo    = p_amo | d_amo[s];
        p_size   = p_size | d_size[s*2 +: 2];
        p_divop  = p_divop | d_divop[s*2 +: 2];
        p_amo_op = p_amo_op | d_amo_op[s*5 +: 5];
      end
  end
  // unused decode outputs of E and W
  logic unused_e, unused_w;
  assign unused_e = ^{e_legal, e_csr_bad, e_use1, e_use2, e_bar, e_rs1, e_rs2, e_divop, e_uns, e_rd, e_fw_q, e_store,
                      e_amo, e_amo_op, e_unit};
  assign unused_w = ^{w_legal, w_csr_bad, w_use1, w_use2, w_bimm, w_br, w_jal, w_jalr, w_rs1, w_rs2,
                      w_imm, w_f3, w_csr, w_size, w_uns, w_store, w_ecall, w_divop, w_amo, w_amo_op};

  // register file: one bank per lane, addressed {slot, pass, register}
  function automatic logic [RFAW-1:0] rf_addr(input logic [SW-1:0] s, input logic [PW-1:0] p, input logic [4:0] r);
    rf_addr = (RFAW'(s) << (PB + 5)) | (PB > 0 ? (RFAW'(p) << 5) : RFAW'(0)) | RFAW'(r);
  endfunction

  logic [NL-1:0]      rf_we;
  logic [RFAW-1:0]    rf_waddr;
  logic [NL*32-1:0]   rf_wdata, rf_ra, rf_rb;
  logic [SW-1:0] x_slot_q;
  logic [NW-1:0] x_slot_oh_q;  // x_slot_q one-hot: the slots' hold bits without a decoder
  logic [4:0]    x_reg_q;
  logic [PW-1:0] x_pass_q;
  logic          x_rd;       // the save transfer reads port A this cycle (R is empty)
  wire [RFAW-1:0] rf_raddr_a = x_rd ? rf_addr(x_slot_q, x_pass_q, x_reg_q)
                                    : rf_addr(seq_slot_q, seq_pass_q, seq_insn_q[19:15]);
  wire [RFAW-1:0] rf_raddr_b = rf_addr(seq_slot_q, seq_pass_q, seq_insn_q[24:20]);
  for (genvar i = 0; i < NL; i++) begin : g_rf
    simt_rf #(.DEPTH(RFD)) u_rf (
      .clk_i, .we_i(rf_we[i]), .waddr_i(rf_waddr), .wdata_i(rf_wdata[i*32 +: 32]),
      .raddr_a_i(rf_raddr_a), .rdata_a_o(rf_ra[i*32 +: 32]), .raddr_b_i(rf_raddr_b), .rdata_b_o(rf_rb[i*32 +: 32]));
  end

  // E: operands, the lanes' results and next PCs, addresses and their faults
  logic [NL*32-1:0] e_a, e_b2, e_res, e_npc, e_addr;
  logic [NL*132-1:0] e_pp;
  // per lane: an access there would fault (not aligned, or outside the
  // local window and the global range), and whether for alignment; W
  // decides from these, the thread's mask and the unit whether it does
  logic [NL-1:0]    e_lbad, e_lal, w_lbad_q, w_lal_q;
  // the value of CSR c for thread t of slot s
  function automatic logic [31:0] csr_val(input logic [11:0] c, input logic [4:0] t, input logic [31:0] wib,
                                          input logic [95:0] ctaid, input logic [95:0] ntid,
                                          input logic [95:0] nctaid, input logic [31:0] shmem,
                                          input logic [63:0] cyc, input logic [63:0] iret);
    case (c)
      12'hC00, 12'hC01: csr_val = cyc[31:0];
      12'hC80, 12'hC81: csr_val = cyc[63:32];
      12'hC02:          csr_val = iret[31:0];
      12'hC82:          csr_val = iret[63:32];
      12'hCC0:          csr_val = (wib << 5) + 32'(t);     // 1-D blocks: tid.x = warp in block * 32 + lane
      12'hCC3:          csr_val = ctaid[31:0];
      12'hCC4:          csr_val = ctaid[63:32];
      12'hCC5:          csr_val = ctaid[95:64];
      12'hCC6:          csr_val = ntid[31:0];
      12'hCC7:          csr_val = ntid[63:32];
      12'hCC8:          csr_val = ntid[95:64];
      12'hCC9:          csr_val = nctaid[31:0];
      12'hCCA:          csr_val = nctaid[63:32];
      12'hCCB:          csr_val = nctaid[95:64];
      12'hCCC:          csr_val = 32'(t);
      12'hCCD:          csr_val = wib;
      12'hCCE:          csr_val = 32'(CORE_ID);
      12'hCCF:          csr_val = shmem;
      default:          csr_val = '0;                      // tid.y, tid.z, the barrier CSR
    endcase
  endfunction

  wire [31:0] e_param = slot32(param_q, e_slot_q);
  // the local-memory window: slot s's warp has window s, an event warp in
  // slot s window NW + s (the victim parked there keeps its stack)
  wire [31:0] e_win = 32'(e_slot_q) + (ev_q[e_slot_q] ? 32'(NW) : 32'd0);
  for (genvar i = 0; i < NL; i++) begin : g_lane
    wire [4:0]  t  = 5'(32'(e_pass_q) * NL + i);
    logic [31:0] a, b2, csr;
    always_comb a  = e_ra_q == 5'd0 ? '0 : e_i1_q ? init_val(e_ra_q, e_param) : rf_ra[i*32 +: 32];
    always_comb b2 = e_rb_q == 5'd0 ? '0 : e_i2_q ? init_val(e_rb_q, e_param) : rf_rb[i*32 +: 32];
    always_comb csr = csr_val(e_csr, t, slot32(wib_q, e_slot_q), slot96(ctaid_q, e_slot_q), slot96(ntid_q, e_slot_q),
                              slot96(nctaid_q, e_slot_q), slot32(shmem_q, e_slot_q), cycle_q, instret_q);
    wire [31:0] b  = e_bimm ? e_imm : b2;
    // the kernel address of a load / store and where it is (docs/SIMT_RTL.md)
    wire [31:0] ka = a + e_imm;
    wire        al = e_size == 2'd0 || (e_size == 2'd1 ? !ka[0] : ka[1:0] == 2'b00);
    wire        in_local = ka >= LOCAL_BOT && ka < LOCAL_TOP;
    wire [31:0] pa = in_local ? local_base_i + (((e_win << 5) + 32'(t)) << STK_SH) + (ka - LOCAL_BOT) : ka;
    assign e_lbad[i] = !al || !(in_local || (ka >= GUARD_END && ka < SHARED_BASE));
    assign e_lal[i]  = !al;
    simt_alu u_alu (
      .alu_i(e_alu), .a_i(a), .b_i(b), .rs2_i(b2), .imm_i(e_imm), .pc_i(e_pc_q), .csr_i(csr), .br_i(e_br),
      .br_f3_i(e_f3), .jal_i(e_jal), .jalr_i(e_jalr), .ecall_i(e_ecall),
      .res_o(e_res[i*32 +: 32]), .pp_o(e_pp[i*132 +: 132]), .npc_o(e_npc[i*32 +: 32]));
    assign e_a[i*32 +: 32]    = a;
    assign e_b2[i*32 +: 32]   = b2;
    assign e_addr[i*32 +: 32] = pa;
  end

  logic [NL*32-1:0] w_res_q, w_npc_q, w_a_q, w_b2_q, w_addr_q;
  logic [NL*132-1:0] w_pp_q;
  // W: a MUL*'s value from its partial products (simt_alu pp_o), the others' from E
  function automatic logic [31:0] mul_sum(input logic [131:0] pp, input logic hi);
    logic [63:0] p;
    p = {pp[131:100], 32'd0} + {{14{pp[99]}}, pp[99:66], 16'd0} + {{14{pp[65]}}, pp[65:32], 16'd0} +
        {32'd0, pp[31:0]};
    mul_sum = hi ? p[63:32] : p[31:0];
  endfunction
  wire w_mul = w_alu == simt_pkg::SIMT_ALU_MUL || w_alu == simt_pkg::SIMT_ALU_MULH ||
               w_alu == simt_pkg::SIMT_ALU_MULHSU || w_alu == simt_pkg::SIMT_ALU_MULHU;
  logic [NL*32-1:0] w_val;
  always_comb
    for (int i = 0; i < NL; i++)
      w_val[i*32 +: 32] = w_mul ? mul_sum(w_pp_q[i*132 +: 132], w_alu != simt_pkg::SIMT_ALU_MUL) : w_res_q[i*32 +: 32];
  // the fault of the pass in W: its lowest faulting thread's
  logic             w_fault;
  logic [2:0]       w_fcode;
  `FG_COMB_READBACK begin
    w_fault = 1'b0;
    w_fcode = simt_pkg::SIMT_FAULT_NONE;
    for (int i = NL - 1; i >= 0; i--)
      if (w_unit == simt_pkg::SIMT_UNIT_LSU && w_mask_q[32'(w_pass_q) * NL + i] && w_lbad_q[i]) begin
        w_fault = 1'b1;
        w_fcode = w_lal_q[i] ? simt_pkg::SIMT_FAULT_ALIGN : simt_pkg::SIMT_FAULT_ADDR;
      end
  end
  logic             lf_q;          // the LSU instruction in W faulted in an earlier pass
  logic [2:0]       lf_code_q;
  wire              w_last = w_pass_q == PW'(P - 1);

  // ------------------------------------------------- LSU and divider
  // what the unit's instruction needs at write-back (set at issue)
  logic          lm_fw_q, dm_fw_q, lm_ld_q;
  logic [31:0]   lm_mask_q, dm_mask_q, lm_order_q, dm_order_q, lm_pc_q, dm_pc_q;

  wire w_lsu = w_v_q && w_unit == simt_pkg::SIMT_UNIT_LSU;
  wire w_div = w_v_q && w_unit == simt_pkg::SIMT_UNIT_DIV;
  // the instruction faulted (in an earlier pass or this one): dropped
  wire lsu_bad = w_lsu && w_last && ((lf_q && w_pass_q != '0) || w_fault);
  logic [PW-1:0]    wbk_pass_q;
  logic             wbk_src_q;                             // 0 LSU, 1 divider
  logic [NL*32-1:0] lsu_res, div_res;
  logic             lsu_req_v, lsu_req_rdy, lsu_req_we, lsu_rsp_v;
  logic [31:0]      lsu_req_addr, lsu_req_wdata;
  logic [3:0]       lsu_req_be;
  wire wbk_last = wbk_v_q && wbk_pass_q == PW'(P - 1);
  assign lsu_end = (wbk_last && !wbk_src_q) || lsu_bad;
  assign div_end = wbk_last && wbk_src_q;

  simt_lsu #(.NW(NW), .NL(NL)) u_lsu (
    .clk_i, .rst_ni,
    .start_i(issue && p_lsu), .store_i(p_store), .size_i(p_size),
    .unsigned_i(p_uns), .mask_i(oh32(act_q, pick_oh)), .amo_i(p_amo), .amo_op_i(p_amo_op), .slot_i(pick),
    .rsv_clr_i(rsv_clr),
    .cap_i(w_lsu), .cap_pass_i(w_pass_q), .cap_addr_i(w_addr_q), .cap_data_i(w_b2_q),
    .go_i(w_lsu && w_last && !lsu_bad), .drop_i(lsu_bad),
    .clear_i(wbk_last && !wbk_src_q), .idle_o(lsu_idle), .done_o(lsu_done),
    .req_valid_o(lsu_req_v), .req_ready_i(lsu_req_rdy), .req_we_o(lsu_req_we), .req_addr_o(lsu_req_addr),
    .req_be_o(lsu_req_be), .req_wdata_o(lsu_req_wdata), .rsp_valid_i(lsu_rsp_v), .rsp_data_i(mem_rsp_rdata_i),
    .rd_pass_i(wbk_pass_q), .res_o(lsu_res));

  simt_div #(.NL(NL)) u_div (
    .clk_i, .rst_ni,
    .start_i(issue && p_div), .op_i(p_divop), .mask_i(oh32(act_q, pick_oh)),
    .cap_i(w_div), .cap_pass_i(w_pass_q), .cap_a_i(w_a_q), .cap_b_i(w_b2_q), .go_i(w_div && w_last),
    .clear_i(wbk_last && wbk_src_q), .idle_o(div_idle), .done_o(div_done),
    .rd_pass_i(wbk_pass_q), .res_o(div_res));

  // A unit's write-back waits for the lane pipeline to empty (issue stops
  // meanwhile), then takes the register write port for P cycles.
  logic lsu_wb_q;   // the LSU's instruction is written back (or retired) already
  assign wb_req = (lsu_done && !lsu_wb_q) || div_done;
  wire wbk_start = wb_req && !wbk_v_q && !seq_v_q && !e_v_q && !w_v_q;
  logic             x_wr;      // the restore writes a pass of a register this cycle
  logic [NL*32-1:0] x_buf_q;
  wire wbk_pick_div = !(lsu_done && !lsu_wb_q);

  // ------------------------------------------- register write and retire
  logic [SW-1:0] wk_slot;
  logic [4:0]    wk_rd;
  logic          wk_fw;
  logic [31:0]   wk_mask, wk_order, wk_pc;
  logic [NL*32-1:0] wk_data;
  always_comb begin
    wk_slot  = wbk_src_q ? dm_slot : lm_slot;
    wk_rd    = wbk_src_q ? dm_rd : lm_rd;
    wk_fw    = wbk_src_q ? dm_fw_q : lm_fw_q;
    wk_mask  = wbk_src_q ? dm_mask_q : lm_mask_q;
    wk_order = wbk_src_q ? dm_order_q : lm_order_q;
    wk_pc    = wbk_src_q ? dm_pc_q : lm_pc_q;
    wk_data  = wbk_src_q ? div_res : lsu_res;
  end
  wire w_alu_v = w_v_q && w_unit == simt_pkg::SIMT_UNIT_ALU;
  // a write covers the pass's active threads; a register's first write
  // also gives the others their launch value
  logic [NL-1:0] w_act, wk_act;
  always_comb
    for (int i = 0; i < NL; i++) begin
      w_act[i]  = w_mask_q[32'(w_pass_q) * NL + i];
      wk_act[i] = wk_mask[32'(wbk_pass_q) * NL + i];
    end
  always_comb begin
    rf_we    = '0;
    rf_waddr = '0;
    rf_wdata = '0;
    if (w_alu_v && w_rd != 5'd0) begin
      rf_waddr = rf_addr(w_slot_q, w_pass_q, w_rd);
      for (int i = 0; i < NL; i++) begin
        rf_we[i] = w_act[i] || w_fw_q;
        rf_wdata[i*32 +: 32] = w_act[i] ? w_val[i*32 +: 32] : init_val(w_rd, slot32(param_q, w_slot_q));
      end
    end else if (wbk_v_q && wk_rd != 5'd0) begin
      rf_waddr = rf_addr(wk_slot, wbk_pass_q, wk_rd);
      for (int i = 0; i < NL; i++) begin
        rf_we[i] = wk_act[i] || wk_fw;
        rf_wdata[i*32 +: 32] = wk_act[i] ? wk_data[i*32 +: 32] : init_val(wk_rd, slot32(param_q, wk_slot));
      end
    end else if (x_wr && x_reg_q != 5'd0) begin
      rf_waddr = rf_addr(x_slot_q, x_pass_q, x_reg_q);
      rf_we    = '1;
      rf_wdata = x_buf_q;
    end
  end
  always_comb begin
    rvfi_valid_o = w_alu_v || wbk_v_q;
    rvfi_slot_o  = w_alu_v ? w_slot_q : wk_slot;
    rvfi_order_o = w_alu_v ? w_order_q : wk_order;
    rvfi_pc_o    = w_alu_v ? w_pc_q : wk_pc;
    rvfi_mask_o  = w_alu_v ? w_mask_q : wk_mask;
    rvfi_rd_o    = w_alu_v ? w_rd : wk_rd;
    rvfi_pass_o  = w_alu_v ? w_pass_q : wbk_pass_q;
    rvfi_data_o  = w_alu_v ? w_val : wk_data;
  end

  // ------------------------------------------------------------ the scan
  logic          sc_v_q;
  logic [SW-1:0] sc_slot_q;
  logic [PW-1:0] sc_pass_q;
  logic          sc_any_q;
  logic [31:0]   sc_min_q, sc_mask_q;
  logic          sc_any;
  logic [31:0]   sc_min, sc_mask;
  // The scan reads each pass a cycle ahead (pf_*: the pass it starts with
  // when it starts, the next one while it runs, pass 0 again at its last,
  // a barrier restart when every thread has left the barrier) and reduces
  // its lanes by pairs into registers (pr_*: LV nodes); in the next cycle it
  // reduces those and merges the pass with the passes before.
  // Nothing else writes the scanned slot's PCs, live or barrier bits
  // meanwhile: its warp is busy (no W), and no launch, START or transfer
  // takes a slot whose warp is busy (simt_scan_slot_valid,
  // simt_start_victim_drained).
  localparam int LV = NL > 1 ? NL / 2 : 1;
  logic [LV-1:0]    pr_v_q;
  logic [LV*32-1:0] pr_min_q, pr_mask_q;
  logic [2*LV-1:0]    sn_v;      // the second part of the tree, node k as nd_* (1 the root)
  logic [2*LV*32-1:0] sn_min, sn_mask;
  wire [31:0]   sc_live = slot32(live_q, sc_slot_q);
  wire [31:0]   sc_bar  = slot32(bar_q, sc_slot_q);
  // the save transfer's read of the per-thread PCs (its item 0)
  logic          x_pcrd;
  wire [NL*32-1:0] x_lpc = slot_nl(x_lpc_all, x_slot_q);
  // A pass's lanes reduced as a tree, log2(NL) levels of one comparison
  // (not NL in a row): node k (1 the root, NL + i lane i; with NL = 1 the
  // lane is the root) holds whether any of its threads counts, their
  // smallest PC and the threads at it.  min is associative and ties take the
  // union, so the order of the merges does not change the group.
  logic [2*NL-1:0]    nd_v;
  logic [2*NL*32-1:0] nd_min, nd_mask;
  // (equal = neither less: two carry chains side by side, not a chain and
  // an equality behind it)
  function automatic logic [64:0] merge(input logic av, input logic [31:0] amin, input logic [31:0] amask,
                                        input logic bv, input logic [31:0] bmin, input logic [31:0] bmask);
    logic a_lt, b_lt;
    a_lt = amin < bmin;
    b_lt = bmin < amin;
    if (av && bv && !a_lt && !b_lt)     merge = {1'b1, amin, amask | bmask};
    else if (av && (!bv || a_lt))        merge = {1'b1, amin, amask};
    else if (bv)                         merge = {1'b1, bmin, bmask};
    else                                 merge = {1'b0, amin, amask};
  endfunction
  `FG_COMB_READBACK begin
    sn_v    = '0;
    sn_min  = '0;
    sn_mask = '0;
    for (int i = 0; i < LV; i++) begin
      sn_v[LV + i]               = pr_v_q[i];
      sn_min[(LV + i)*32 +: 32]  = pr_min_q[i*32 +: 32];
      sn_mask[(LV + i)*32 +: 32] = pr_mask_q[i*32 +: 32];
    end
    for (int k = LV - 1; k >= 1; k--)
      {sn_v[k], sn_min[k*32 +: 32], sn_mask[k*32 +: 32]} =
        merge(sn_v[2*k], sn_min[2*k*32 +: 32], sn_mask[2*k*32 +: 32],
              sn_v[2*k+1], sn_min[(2*k+1)*32 +: 32], sn_mask[(2*k+1)*32 +: 32]);
  end
  always_comb {sc_any, sc_min, sc_mask} = merge(sc_any_q, sc_min_q, sc_mask_q, sn_v[1], sn_min[32 +: 32], sn_mask[32 +: 32]);
  wire sc_last = sc_v_q && sc_pass_q == PW'(P - 1);
  logic [SW-1:0] sc_next;
  logic          sc_next_v;
  // the lowest slot that asks, one-hot for the reads ahead and as a number
  wire [NW-1:0] sc_req     = scan_req_q & ~hold;
  wire [NW-1:0] sc_next_oh = sc_req & (~sc_req + NW'(1));
  `FG_COMB_READBACK begin
    sc_next_v = sc_req != '0;
    sc_next   = '0;
    for (int s = 0; s < NW; s++) if (sc_next_oh[s]) sc_next = sc_next | SW'(s);
  end
  wire sc_start = !sc_v_q && sc_next_v;
  // a starting scan reads pass 0 of the slot that asks; a running one its
  // next pass (pf_run_pass, from registers alone) of its slot
  wire [PW-1:0]  pf_run_pass = sc_last ? '0 : sc_pass_q + PW'(1);
  wire [PW-1:0]  pf_pass = sc_start ? '0 : pf_run_pass;
  wire [31:0]    pf_live = sc_start ? oh32(live_q, sc_next_oh) : slot32(live_q, sc_slot_q);
  wire [31:0]    pf_bar  = sc_last ? '0 : sc_start ? oh32(bar_q, sc_next_oh) : slot32(bar_q, sc_slot_q);
  wire [NL*32-1:0] pf_lpc = sc_start ? oh_nl(p0_lpc_all, sc_next_oh) : slot_nl(pf_lpc_all, sc_slot_q);
  `FG_COMB_READBACK begin
    nd_v    = '0;
    nd_min  = '0;
    nd_mask = '0;
    for (int i = 0; i < NL; i++) begin
      nd_v[NL + i]               = pf_live[32'(pf_pass) * NL + i] && !pf_bar[32'(pf_pass) * NL + i];
      nd_min[(NL + i)*32 +: 32]  = pf_lpc[i*32 +: 32];
      nd_mask[(NL + i)*32 +: 32] = 32'd1 << (32'(pf_pass) * NL + i);
    end
    for (int k = NL - 1; k >= LV; k--)
      {nd_v[k], nd_min[k*32 +: 32], nd_mask[k*32 +: 32]} =
        merge(nd_v[2*k], nd_min[2*k*32 +: 32], nd_mask[2*k*32 +: 32],
              nd_v[2*k+1], nd_min[(2*k+1)*32 +: 32], nd_mask[(2*k+1)*32 +: 32]);
  end
  always_ff @(posedge clk_i) begin
    pr_v_q    <= nd_v[LV +: LV];
    pr_min_q  <= nd_min[LV*32 +: LV*32];
    pr_mask_q <= nd_mask[LV*32 +: LV*32];
  end

  // ------------------------------------------------------------ fetch
  logic [SW-1:0] f_pick;
  logic [NW-1:0] f_after_q;   // the slots after the one that fetched last (round robin)
  logic          f_pick_v;
  logic [NW-1:0] f_cand;
  always_comb
    for (int s = 0; s < NW; s++)
      f_cand[s] = valid_q[s] && grp_q[s] && !ibv_q[s] && !fpend_q[s] && !dead_q[s] && !busy_q[s] && !stopf_q[s] &&
                  !hold[s] && !flush_now[s];
  logic [NW-1:0] f_pick_oh, f_unfetchable;
  // the first candidate after the last to fetch, else the first: the
  // lowest of those after it, else the lowest of all (one carry chain each)
  wire [NW-1:0] f_hi   = f_cand & f_after_q;
  wire [NW-1:0] f_pool = f_hi != '0 ? f_hi : f_cand;
  `FG_COMB_READBACK begin
    f_pick_oh = f_pool & (~f_pool + NW'(1));
    f_pick_v  = f_pool != '0;
    f_pick    = '0;
    for (int s = 0; s < NW; s++) if (f_pick_oh[s]) f_pick = f_pick | SW'(s);
  end
  wire [31:0] f_pc = oh32(pc_q, f_pick_oh);
  // whether each slot's pc can be fetched is known before the pick
  always_comb
    for (int s = 0; s < NW; s++) begin
      logic [31:0] pc;
      pc = pc_q[s*32 +: 32];
      f_unfetchable[s] = pc[1:0] != 2'b00 || pc < GUARD_END || pc >= SHARED_BASE;
    end
  wire f_bad = (f_pick_oh & f_unfetchable) != '0;
  wire f_fault = f_pick_v && f_bad;

  // --------------------------------------------- register save / restore
  // One transfer at a time (saves first, then restores, lowest slot first):
  // for each item of the slot's save set (psm: bit r > 0 register x_r, bit
  // 0 the per-thread PCs, x0's place), pass by pass, the NL threads' words
  // between the register file (the PCs) and the save area, thread t of item
  // r of slot s at save_base_i + ((s * 32 + r) * 32 + t) * 4.  A save reads a
  // pass of a register through read port A while R is empty (issue waits),
  // of the PCs through the scan's read path while the scan is idle, then
  // writes its words; a restore reads the words, then writes the pass when
  // neither W nor a unit's write-back does (issue waits).  The slot's warp
  // waits meanwhile (hold); an event warp's PCs are set when its slot's save
  // ends.
  localparam logic [1:0] X_READ = 2'd0, X_CAP = 2'd1, X_MEM = 2'd2, X_WAIT = 2'd3;
  logic [NW-1:0]   xs_pend_q, xr_pend_q;     // a save / restore of the slot waits
  logic [NW*32-1:0] psm_q;                   // per slot: the registers saved
  logic            x_v_q, x_save_q;
  logic [1:0]      x_ph_q;
  logic [31:0]     x_mask_q;
  logic [5:0]      x_i_q, x_n_q;             // words requested / back of the pass
  wire             x_take_save = |xs_pend_q;
  wire             x_take      = !x_v_q && (|xs_pend_q || |xr_pend_q);
  wire [NW-1:0]    x_take_set  = x_take_save ? xs_pend_q : xr_pend_q;
  // the lowest slot of the set, one-hot and as a number, and its save set
  wire [NW-1:0]    x_take_oh = x_take_set & (~x_take_set + NW'(1));
  logic [SW-1:0]   x_take_slot;
  `FG_COMB_READBACK begin
    x_take_slot = '0;
    for (int s = 0; s < NW; s++) if (x_take_oh[s]) x_take_slot = x_take_slot | SW'(s);
  end
  wire [31:0]      x_take_psm = oh32(psm_q, x_take_oh);
  always_comb
    for (int s = 0; s < NW; s++) hold[s] = xs_pend_q[s] || xr_pend_q[s] || (x_v_q && x_slot_oh_q[s]);
  // the lowest set bit's index (one carry chain, then an OR per index bit)
  function automatic logic [4:0] lowest(input logic [31:0] m);
    logic [31:0] oh;
    oh     = m & (~m + 32'd1);
    lowest = '0;
    for (int r = 0; r < 32; r++) if (oh[r]) lowest = lowest | 5'(r);
  endfunction
  wire [31:0] x_addr = save_base_i + ((((32'(x_slot_q) << 5) | 32'(x_reg_q)) << 7) |
                                      ((32'(x_pass_q) * NL + 32'(x_i_q)) << 2));
  logic [31:0] x_wdata;
  always_comb begin
    x_wdata = '0;
    for (int i = 0; i < NL; i++) if (x_i_q == 6'(i)) x_wdata = x_buf_q[i*32 +: 32];
  end
  assign x_rd    = x_v_q && x_save_q && x_ph_q == X_READ && x_reg_q != 5'd0 && !seq_v_q;
  assign x_pcrd  = x_v_q && x_save_q && x_ph_q == X_READ && x_reg_q == 5'd0 && !sc_v_q;
  assign x_stall = x_v_q && ((x_save_q && x_ph_q == X_READ && x_reg_q != 5'd0) ||
                             (!x_save_q && x_ph_q == X_WAIT && x_n_q == 6'(NL)));
  assign x_wr    = x_v_q && !x_save_q && x_ph_q == X_WAIT && x_n_q == 6'(NL) && !w_alu_v && !wbk_v_q;
  wire [31:0] x_rest = x_mask_q & ~(32'd1 << x_reg_q);
  // the transfer's last step: its slot's save or restore is done
  wire x_end = ((fire_x && x_save_q && x_i_q == 6'(NL - 1)) || x_wr) && x_pass_q == PW'(P - 1) && x_rest == '0;

  // ---------------------------------------------------- the memory port
  // The transfer, fetch and the LSU share it (the transfer first; fetch
  // and the LSU take turns when both ask); a read needs a place in the
  // owner FIFO, which routes each response (in order) back.
  logic            turn_q;             // 1: the LSU has priority
  logic            own_rdy, own_v;
  logic [SW+1:0]   own_data;           // {transfer, LSU, fetching slot}
  logic [$clog2(RD_DEPTH+1)-1:0] own_cnt;
  wire x_req  = x_v_q && x_ph_q == X_MEM && (x_save_q || own_rdy);
  wire f_req  = f_pick_v && !f_bad && own_rdy;
  wire l_req  = lsu_req_v && (lsu_req_we || own_rdy);
  wire g_x    = x_req;
  wire g_lsu  = !g_x && l_req && (turn_q || !f_req);
  wire g_f    = !g_x && f_req && !g_lsu;
  assign mem_req_valid_o = g_x || g_lsu || g_f;
  assign mem_req_we_o    = g_x ? x_save_q : g_lsu && lsu_req_we;
  assign mem_req_addr_o  = g_x ? x_addr : g_lsu ? lsu_req_addr : {f_pc[31:2], 2'b00};
  assign mem_req_be_o    = (g_x || !g_lsu) ? 4'b1111 : lsu_req_be;
  assign mem_req_wdata_o = g_x ? x_wdata : g_lsu ? lsu_req_wdata : '0;
  wire fire_x   = g_x && mem_req_ready_i;
  wire fire_lsu = g_lsu && mem_req_ready_i;
  wire fire_f   = g_f && mem_req_ready_i;
  assign lsu_req_rdy = fire_lsu;
  wire own_push = (fire_x && !x_save_q) || (fire_lsu && !lsu_req_we) || fire_f;
  fg_fifo #(.WIDTH(SW + 2), .DEPTH(RD_DEPTH)) u_owner (
    .clk_i, .rst_ni, .valid_i(own_push), .ready_o(own_rdy), .data_i({g_x, g_lsu, f_pick}),
    .valid_o(own_v), .ready_i(mem_rsp_valid_i), .data_o(own_data), .count_o(own_cnt)
`ifdef FORMAL
    , .f_mem_o(), .f_rptr_o()
`endif
  );
  wire x_rsp = mem_rsp_valid_i && own_data[SW+1];
  assign lsu_rsp_v = mem_rsp_valid_i && own_data[SW];
  wire f_rsp = mem_rsp_valid_i && !own_data[SW] && !own_data[SW+1];
  wire [SW-1:0] f_rsp_slot = own_data[SW-1:0];
  always_comb
    for (int s = 0; s < NW; s++) f_ld[s] = f_rsp && f_rsp_slot == SW'(s);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      x_v_q <= 1'b0;
    end else begin
      if (x_take) begin
        // an empty save set needs no transfer
        x_v_q    <= x_take_psm != '0;
        x_save_q <= x_take_save;
        x_slot_q <= x_take_slot;
        x_slot_oh_q <= x_take_oh;
        x_mask_q <= x_take_psm;
        x_reg_q  <= lowest(x_take_psm);
        x_pass_q <= '0;
        x_ph_q   <= x_take_save ? X_READ : X_MEM;
        x_i_q    <= '0;
        x_n_q    <= '0;
      end
      if (x_rd) x_ph_q <= X_CAP;
      if (x_pcrd) begin   // combinational read: straight to the writes
        x_buf_q <= x_lpc;
        x_ph_q  <= X_MEM;
      end
      if (x_v_q && x_ph_q == X_CAP) begin
        x_buf_q <= rf_ra;
        x_ph_q  <= X_MEM;
      end
      if (fire_x) begin
        x_i_q <= x_i_q + 6'd1;
        if (!x_save_q && x_i_q == 6'(NL - 1)) x_ph_q <= X_WAIT;
      end
      if (x_rsp) begin
        for (int i = 0; i < NL; i++) if (x_n_q == 6'(i)) x_buf_q[i*32 +: 32] <= mem_rsp_rdata_i;
        x_n_q <= x_n_q + 6'd1;
      end
      if ((fire_x && x_save_q && x_i_q == 6'(NL - 1)) || x_wr) begin
        x_i_q  <= '0;
        x_n_q  <= '0;
        x_ph_q <= x_save_q ? X_READ : X_MEM;
        if (x_pass_q == PW'(P - 1)) begin
          x_pass_q <= '0;
          x_mask_q <= x_rest;
          x_reg_q  <= lowest(x_rest);
          if (x_rest == '0) x_v_q <= 1'b0;
        end else
          x_pass_q <= x_pass_q + PW'(1);
      end
    end
  end
  // ----------------------------------------------- launch, done, faults
  logic [SW-1:0] free_slot;
  logic          free_v;
  always_comb begin
    free_v    = ~&(valid_q | parked_q);
    free_slot = '0;
    for (int s = NW - 1; s >= 0; s--) if (!valid_q[s] && !parked_q[s]) free_slot = SW'(s);
  end
  assign launch_ready_o = rst_ni && free_v;
  assign launch_slot_o  = free_slot;
  wire launch = launch_valid_i && launch_ready_o;

  // EDGE commands (edge_pkg::PRE_*)
  wire ev_start = cmd_i == edge_pkg::PRE_CMD_START;
  wire ev_pre   = ev_start && (cmd_arg_i & edge_pkg::PRE_ARG_PREEMPTED) != '0;
  wire ev_saved = (cmd_arg_i & edge_pkg::PRE_ARG_SAVED) != '0;
  wire [31:0] ev_live = ev_threads_i >= 6'd32 ? '1 : (32'd1 << ev_threads_i) - 32'd1;
  // a warp starting or resuming in a slot holds no reservation there (its
  // victim's, or the event warp's, are gone: an SC after them fails)
  logic [NW-1:0] rsv_clr;
  always_comb
    for (int s = 0; s < NW; s++)
      rsv_clr[s] = (launch && free_slot == SW'(s)) ||
                   ((ev_start || cmd_i == edge_pkg::PRE_CMD_RESUME) && cmd_slot_i == SW'(s));

  logic [NW-1:0] fin;
  always_comb
    for (int s = 0; s < NW; s++)
      fin[s] = valid_q[s] && !busy_q[s] && !hold[s] && !(lm_v && lm_slot == SW'(s)) && !(dm_v && dm_slot == SW'(s)) &&
               (dead_q[s] || live_q[(s) * 32 +: 32] == '0);
  logic [SW-1:0] fin_slot;
  always_comb begin
    fin_slot = '0;
    for (int s = NW - 1; s >= 0; s--) if (fin[s]) fin_slot = SW'(s);
  end
  wire fin_v = |fin;

  // ----------------------------------------------------- per-slot state
  // What happens to slot s this cycle (at most one of launch / issue / W /
  // scan end / fetch / response / write-back end names a given field of a
  // slot at an edge: asserted below where it is not evident).
  wire fcode_lsu_sel = lf_q && w_pass_q != '0;
  for (genvar s = 0; s < NW; s++) begin : g_slot
    wire l_oh    = launch && free_slot == SW'(s);
    wire i_oh    = issue && pick_oh[s];
    wire w_oh    = w_v_q && w_slot_q == SW'(s);
    wire wbad    = lsu_bad && w_slot_q == SW'(s);
    wire wok     = w_v_q && w_last && !lsu_bad && w_slot_q == SW'(s);
    wire scs     = sc_start && sc_next == SW'(s);
    wire scd     = sc_last && sc_slot_q == SW'(s);
    wire sc_barr = scd && !sc_any && (live_q[s*32 +: 32] & bar_q[s*32 +: 32]) != '0;
    wire ff      = f_fault && f_pick_oh[s];
    wire fr      = fire_f && f_pick_oh[s];
    wire rsp     = f_ld[s];
    wire fo      = fin_v && fin_slot == SW'(s);
    wire c_oh    = cmd_slot_i == SW'(s);
    wire c_flush = c_oh && cmd_i == edge_pkg::PRE_CMD_FLUSH;
    wire c_start = c_oh && ev_start;
    wire c_park  = c_oh && ev_pre;
    wire c_res   = c_oh && cmd_i == edge_pkg::PRE_CMD_RESUME;
    wire c_abort = c_oh && cmd_i == edge_pkg::PRE_CMD_ABORT;
    logic        valid, grp, busy, scan_req, ibv, fpend, dead, ev, stopf, boost, parked;
    logic [31:0] live, bar, pc, act, wr, order, age, ib, fpc, wib, shmem, param;
    logic [2:0]  fcode;
    logic [95:0] ctaid, ntid, nctaid;
    // the i-buffer's instruction decoded (u_dec_f at the fetch response)
    logic        dq_legal, dq_csr_bad, dq_use1, dq_use2, dq_store, dq_uns, dq_amo;
    logic [1:0]  dq_unit, dq_size, dq_divop;
    logic [4:0]  dq_rd, dq_rs1, dq_rs2, dq_amo_op;
    // the parked victim (EDGE IV-D): its slot state while an event warp runs there
    logic        p_grp;
    logic [31:0] p_live, p_bar, p_pc, p_act, p_wr, p_order, p_age, p_wib, p_shmem, p_param, psm;
    logic [95:0] p_ctaid, p_ntid, p_nctaid;
    // the age a launch, START or RESUME gives the slot's warp
    wire  [31:0] age_n = c_res ? p_age : (l_oh || c_start) ? age_ctr_q : age;
    // per-thread PCs (thread t at lpc[t*32 +: 32]): the launch pc, then each
    // pass's next PCs; the scan reads the threads of its pass
    logic [1023:0]     lpc;

    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        valid    <= 1'b0;
        grp      <= 1'b0;
        busy     <= 1'b0;
        scan_req <= 1'b0;
        ibv      <= 1'b0;
        fpend    <= 1'b0;
        dead     <= 1'b0;
        ev       <= 1'b0;
        stopf    <= 1'b0;
        boost    <= 1'b0;
        parked   <= 1'b0;
        xs_pend_q[s] <= 1'b0;
        xr_pend_q[s] <= 1'b0;
      end else begin
        if (l_oh || c_start) begin
          valid    <= 1'b1;
          grp      <= 1'b0;
          busy     <= 1'b1;
          scan_req <= 1'b1;
          ibv      <= 1'b0;
          fpend    <= 1'b0;
          dead     <= 1'b0;
          ev       <= c_start;
          stopf    <= 1'b0;
          boost    <= 1'b0;
        end
        if (c_park) parked <= 1'b1;
        if (c_park && ev_saved) xs_pend_q[s] <= 1'b1;
        if (c_res && ev_saved) xr_pend_q[s] <= 1'b1;
        if (x_take && x_take_oh[s]) begin
          if (x_take_save) xs_pend_q[s] <= 1'b0;
          else xr_pend_q[s] <= 1'b0;
        end
        if (c_res) begin
          valid    <= 1'b1;
          parked   <= 1'b0;
          grp      <= p_grp;
          busy     <= 1'b0;
          scan_req <= 1'b0;
          ibv      <= 1'b0;
          fpend    <= 1'b0;
          dead     <= 1'b0;
          ev       <= 1'b0;
        end
        if (c_flush) begin
          stopf <= 1'b1;
          if ((cmd_arg_i & edge_pkg::PRE_OPT_BOOST) != '0) boost <= 1'b1;
          if ((cmd_arg_i & edge_pkg::PRE_OPT_IBUF) != '0) ibv <= 1'b0;
        end
        if (c_abort || c_res) begin
          stopf <= 1'b0;
          boost <= 1'b0;
        end
        if (fo) begin
          valid <= 1'b0;
          ev    <= 1'b0;
        end
        if (i_oh) begin
          ibv   <= 1'b0;
          busy  <= 1'b1;
          grp   <= 1'b0;
        end
        if (ifault[s] || ff) dead <= 1'b1;
        if (wbad) begin
          busy  <= 1'b0;
          dead  <= 1'b1;
        end
        if (wok) scan_req <= 1'b1;
        if (scs) scan_req <= 1'b0;
        if (scd && !sc_barr) busy <= 1'b0;
        if (scd && sc_any) grp <= 1'b1;
        if (fr) fpend <= 1'b1;
        if (rsp) begin
          ibv   <= 1'b1;
          fpend <= 1'b0;
        end
      end
    end

    // data: no reset (meaningful only while the slot holds a warp)
    always_ff @(posedge clk_i) begin
      if (c_park) begin
        p_grp    <= grp;
        p_live   <= live;
        p_bar    <= bar;
        p_pc     <= pc;
        p_act    <= act;
        p_wr     <= wr;
        p_order  <= order;
        p_age    <= age;
        p_wib    <= wib;
        p_shmem  <= shmem;
        p_param  <= param;
        p_ctaid  <= ctaid;
        p_ntid   <= ntid;
        p_nctaid <= nctaid;
        psm      <= ev_saved ? (save_mask_i & wr & ~32'd1) | 32'd1 : '0;
      end
      if (l_oh) begin
        live   <= launch_live_i;
        bar    <= '0;
        wr     <= '0;
        order  <= '0;
        wib    <= launch_wib_i;
        shmem  <= launch_shmem_i;
        param  <= launch_param_i;
        ctaid  <= launch_ctaid_i;
        ntid   <= launch_ntid_i;
        nctaid <= launch_nctaid_i;
      end
      if (c_start) begin   // an event is one block of one warp (EDGE IV-C)
        pc     <= ev_pc_i;  // its threads' PCs once the victim's are saved (a free slot: at once)
        live   <= ev_live;
        bar    <= '0;
        wr     <= '0;
        order  <= '0;
        wib    <= '0;
        shmem  <= '0;
        param  <= ev_param_i;
        ctaid  <= '0;
        ntid   <= {32'd1, 32'd1, 26'd0, ev_threads_i};
        nctaid <= {32'd1, 32'd1, 32'd1};
      end
      if (c_res) begin
        live   <= p_live;
        bar    <= p_bar;
        pc     <= p_pc;
        act    <= p_act;
        wr     <= p_wr;
        order  <= p_order;
        wib    <= p_wib;
        shmem  <= p_shmem;
        param  <= p_param;
        ctaid  <= p_ctaid;
        ntid   <= p_ntid;
        nctaid <= p_nctaid;
      end
      age <= age_n;
      if (i_oh) begin
        order <= order + 32'd1;
        if (dq_rd != 5'd0) wr[dq_rd] <= 1'b1;
      end
      // W: the threads of the pass that exit or arrive at the barrier
      for (int t = 0; t < 32; t++)
        if (w_oh && 32'(w_pass_q) == t / NL && w_mask_q[t]) begin
          if (w_npc_q[(t % NL)*32 +: 32] == EXIT_ADDR) live[t] <= 1'b0;
          if (w_bar) bar[t] <= 1'b1;
        end
      if (sc_barr) bar <= '0;
      if (scd && sc_any) begin
        pc  <= sc_min;
        act <= sc_mask;
      end
      if (rsp) begin
        ib         <= mem_rsp_rdata_i;
        dq_legal   <= f_legal;
        dq_csr_bad <= f_csr_bad;
        dq_use1    <= f_use1;
        dq_use2    <= f_use2;
        dq_store   <= f_store;
        dq_uns     <= f_uns;
        dq_amo     <= f_amo;
        dq_unit    <= f_unit;
        dq_size    <= f_size;
        dq_divop   <= f_divop;
        dq_rd      <= f_rd;
        dq_rs1     <= f_rs1;
        dq_rs2     <= f_rs2;
        dq_amo_op  <= f_amo_op;
      end
      // why the warp stopped
      if (ifault[s]) begin
        fcode <= !d_legal[s] ? simt_pkg::SIMT_FAULT_ILLEGAL : simt_pkg::SIMT_FAULT_CSR;
        fpc   <= pc;
      end
      if (wbad) begin
        fcode <= fcode_lsu_sel ? lf_code_q : w_fcode;
        fpc   <= w_pc_q;
      end
      if (ff) begin
        fcode <= simt_pkg::SIMT_FAULT_FETCH;
        fpc   <= f_pc;
      end
    end

    logic [NL*32-1:0]  pf_pass_w, x_pass_w;
    always_ff @(posedge clk_i)
      for (int t = 0; t < 32; t++)
        if (l_oh) lpc[t*32 +: 32] <= launch_pc_i;
        else if (c_start && !c_park) lpc[t*32 +: 32] <= ev_pc_i;
        else if (x_end && x_save_q && x_slot_oh_q[s]) lpc[t*32 +: 32] <= pc;
        else if (x_wr && x_reg_q == 5'd0 && x_slot_oh_q[s] && 32'(x_pass_q) == t / NL)
          lpc[t*32 +: 32] <= x_buf_q[(t % NL)*32 +: 32];
        else if (w_oh && 32'(w_pass_q) == t / NL && w_mask_q[t]) lpc[t*32 +: 32] <= w_npc_q[(t % NL)*32 +: 32];
    always_comb pf_pass_w = pass_words(lpc, pf_run_pass);
    always_comb x_pass_w  = pass_words(lpc, x_pass_q);
    assign pf_lpc_all[s*NL*32 +: NL*32] = pf_pass_w;
    assign p0_lpc_all[s*NL*32 +: NL*32] = lpc[0 +: NL*32];
    assign x_lpc_all[s*NL*32 +: NL*32]  = x_pass_w;

    assign valid_q[s]    = valid;
    assign grp_q[s]      = grp;
    assign busy_q[s]     = busy;
    assign scan_req_q[s] = scan_req;
    assign ibv_q[s]      = ibv;
    assign fpend_q[s]    = fpend;
    assign dead_q[s]     = dead;
    assign ev_q[s]       = ev;
    assign stopf_q[s]    = stopf;
    assign boost_q[s]    = boost;
    assign parked_q[s]   = parked;
    assign psm_q[s*32 +: 32] = psm;
    assign live_q[s*32 +: 32]    = live;
    assign bar_q[s*32 +: 32]     = bar;
    assign pc_q[s*32 +: 32]      = pc;
    assign act_q[s*32 +: 32]     = act;
    assign order_q[s*32 +: 32]   = order;
    assign age_n_all[s*32 +: 32] = age_n;
    assign d_legal[s]   = dq_legal;
    assign d_csr_bad[s] = dq_csr_bad;
    assign d_use1[s]    = dq_use1;
    assign d_use2[s]    = dq_use2;
    assign d_store[s]   = dq_store;
    assign d_uns[s]     = dq_uns;
    assign d_amo[s]     = dq_amo;
    assign d_unit[s*2 +: 2]   = dq_unit;
    assign d_size[s*2 +: 2]   = dq_size;
    assign d_divop[s*2 +: 2]  = dq_divop;
    assign d_rd[s*5 +: 5]     = dq_rd;
    assign d_rs1[s*5 +: 5]    = dq_rs1;
    assign d_rs2[s*5 +: 5]    = dq_rs2;
    assign d_amo_op[s*5 +: 5] = dq_amo_op;
    assign d_fw[s]  = dq_rd != 5'd0 && !wr[dq_rd];
    assign d_i1[s]  = !wr[dq_rs1];
    assign d_i2[s]  = !wr[dq_rs2];
    assign d_lsu[s] = dq_unit == simt_pkg::SIMT_UNIT_LSU;
    assign d_div[s] = dq_unit == simt_pkg::SIMT_UNIT_DIV;
    assign ib_q[s*32 +: 32]      = ib;
    assign fpc_q[s*32 +: 32]     = fpc;
    assign fcode_q[s*3 +: 3]     = fcode;
    assign wib_q[s*32 +: 32]     = wib;
    assign shmem_q[s*32 +: 32]   = shmem;
    assign param_q[s*32 +: 32]   = param;
    assign ctaid_q[s*96 +: 96]   = ctaid;
    assign ntid_q[s*96 +: 96]    = ntid;
    assign nctaid_q[s*96 +: 96]  = nctaid;
  end

  // ------------------------------------------------------- shared state
  // GTO's age order, from the ages the slots take this edge (smaller is
  // older, equal ages by slot index): the scheduler compares no ages
  always_ff @(posedge clk_i)
    for (int i = 0; i < NW; i++)
      for (int j = 0; j < NW; j++)
        older_q[i*NW + j] <= age_n_all[i*32 +: 32] < age_n_all[j*32 +: 32] ||
                             (age_n_all[i*32 +: 32] == age_n_all[j*32 +: 32] && i < j);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      age_ctr_q  <= '0;
      cycle_q    <= '0;
      instret_q  <= '0;
      seq_v_q    <= 1'b0;
      e_v_q      <= 1'b0;
      w_v_q      <= 1'b0;
      wbk_v_q    <= 1'b0;
      sc_v_q     <= 1'b0;
      f_after_q  <= ~NW'(1);
      turn_q     <= 1'b0;
      lsu_wb_q   <= 1'b0;
      lf_q       <= 1'b0;
      done_valid_o  <= 1'b0;
      fault_valid_o <= 1'b0;
    end else begin
      cycle_q <= cycle_q + 64'd1;
      if (launch || ev_start) age_ctr_q <= age_ctr_q + 32'd1;

      // issue: the picked warp's instruction enters the lane pipeline
      if (issue) begin
        instret_q <= instret_q + 64'd1;
        if (p_lsu) begin
          lm_fw_q    <= p_fw;
          lm_ld_q    <= !p_store && !p_amo;
          lm_mask_q  <= oh32(act_q, pick_oh);
          lm_order_q <= oh32(order_q, pick_oh);
          lm_pc_q    <= oh32(pc_q, pick_oh);
          lsu_wb_q   <= 1'b0;
        end
        if (p_div) begin
          dm_fw_q    <= p_fw;
          dm_mask_q  <= oh32(act_q, pick_oh);
          dm_order_q <= oh32(order_q, pick_oh);
          dm_pc_q    <= oh32(pc_q, pick_oh);
        end
        seq_slot_q  <= pick;
        seq_insn_q  <= oh32(ib_q, pick_oh);
        seq_pc_q    <= oh32(pc_q, pick_oh);
        seq_mask_q  <= oh32(act_q, pick_oh);
        seq_order_q <= oh32(order_q, pick_oh);
        seq_fw_q    <= p_fw;
        seq_i1_q    <= p_i1;
        seq_i2_q    <= p_i2;
      end

      // R: one pass a cycle
      if (issue) begin
        seq_v_q    <= 1'b1;
        seq_pass_q <= '0;
      end else if (seq_v_q) begin
        if (seq_pass_q == PW'(P - 1)) seq_v_q <= 1'b0;
        else seq_pass_q <= seq_pass_q + PW'(1);
      end
      e_v_q <= seq_v_q;
      if (seq_v_q) begin
        e_slot_q  <= seq_slot_q;
        e_ra_q    <= seq_insn_q[19:15];
        e_rb_q    <= seq_insn_q[24:20];
        e_dq_q    <= {r_legal, r_csr_bad, r_use1, r_use2, r_bimm, r_br, r_jal, r_jalr, r_ecall, r_bar, r_store,
                      r_uns, r_amo, r_amo_op, r_unit, r_size, r_divop, r_alu, r_rd, r_rs1, r_rs2, r_imm, r_f3,
                      r_csr};
        e_pc_q    <= seq_pc_q;
        e_mask_q  <= seq_mask_q;
        e_order_q <= seq_order_q;
        e_fw_q    <= seq_fw_q;
        e_i1_q    <= seq_i1_q;
        e_i2_q    <= seq_i2_q;
        e_pass_q  <= seq_pass_q;
      end

      // E -> W
      w_v_q <= e_v_q;
      if (e_v_q) begin
        w_slot_q  <= e_slot_q;
        w_dq_q    <= e_dq_q;
        w_pc_q    <= e_pc_q;
        w_mask_q  <= e_mask_q;
        w_order_q <= e_order_q;
        w_fw_q    <= e_fw_q;
        w_pass_q  <= e_pass_q;
        w_res_q   <= e_res;
        w_pp_q    <= e_pp;
        w_npc_q   <= e_npc;
        w_a_q     <= e_a;
        w_b2_q    <= e_b2;
        w_addr_q  <= e_addr;
        w_lbad_q  <= e_lbad;
        w_lal_q   <= e_lal;
      end

      // W: an LSU instruction's first fault (lowest thread) is kept to its last pass
      if (w_lsu) begin
        if (w_pass_q == '0 || !lf_q) begin
          lf_q      <= w_fault;
          lf_code_q <= w_fcode;
        end
      end

      // the scan
      if (sc_start) begin
        sc_v_q    <= 1'b1;
        sc_slot_q <= sc_next;
        sc_pass_q <= '0;
        sc_any_q  <= 1'b0;
        sc_mask_q <= '0;
        sc_min_q  <= '0;
      end else if (sc_v_q) begin
        if (sc_last) begin
          if (sc_any || (sc_live & sc_bar) == '0)
            sc_v_q <= 1'b0;
          else begin
            // every live thread waits at the barrier: all leave it, scan again
            sc_pass_q <= '0;
            sc_any_q  <= 1'b0;
            sc_mask_q <= '0;
          end
        end else begin
          sc_pass_q <= sc_pass_q + PW'(1);
          sc_any_q  <= sc_any;
          sc_min_q  <= sc_min;
          sc_mask_q <= sc_mask;
        end
      end

      // fetch and the port's turn
      if (fire_f) f_after_q <= ~((f_pick_oh << 1) - NW'(1));
      if (mem_req_valid_o && mem_req_ready_i) turn_q <= !g_lsu;

      // write-back of the LSU / divider
      if (wbk_start) begin
        wbk_v_q    <= 1'b1;
        wbk_src_q  <= wbk_pick_div;
        wbk_pass_q <= '0;
      end else if (wbk_v_q) begin
        if (wbk_last) begin
          wbk_v_q <= 1'b0;
          if (!wbk_src_q) lsu_wb_q <= 1'b1;
        end else
          wbk_pass_q <= wbk_pass_q + PW'(1);
      end

      // a finished warp (all threads exited, or stopped by a fault) leaves
      done_valid_o  <= fin_v && !dead_q[fin_slot];
      fault_valid_o <= fin_v && dead_q[fin_slot];
      if (fin_v) begin
        end_event_o  <= ev_q[fin_slot];
        done_slot_o  <= fin_slot;
        fault_slot_o <= fin_slot;
        fault_code_o <= slot3(fcode_q, fin_slot);
        fault_pc_o   <= slot32(fpc_q, fin_slot);
      end
    end
  end
  assign busy_o = |(valid_q | parked_q);

  // ------------------------------------------------ EDGE: state reported
  always_comb
    for (int s = 0; s < NW; s++) begin
      w_exit_o[s] = valid_q[s] && (dead_q[s] || live_q[s*32 +: 32] == '0);
      w_ld_o[s]   = lm_v && lm_slot == SW'(s) && lm_ld_q;
    end
  assign w_live_o   = valid_q | parked_q;
  // blocks are one warp: no warp waits at a barrier for another (the
  // controller's barrier skipping has nothing to skip)
  assign w_bar_o    = '0;
  assign w_event_o  = ev_q;
  assign w_parked_o = parked_q;
  wire v_lsu = lm_v && lm_slot == v_slot_i;
  wire v_div = dm_v && dm_slot == v_slot_i;
  assign v_pipe_o  = busy_q[v_slot_i] || scan_req_q[v_slot_i] || v_lsu || v_div || hold[v_slot_i];
  assign v_sb_o    = slot32(sb_q, v_slot_i) != '0;
  assign v_ibuf_o  = ibv_q[v_slot_i];
  assign v_imiss_o = fpend_q[v_slot_i];
  // no drop-and-replay of in-flight loads: the controller waits for them
  assign v_ldok_o  = 1'b0;

  // ------------------------------------------------------------ invariants
  logic unused_cnt;
  assign unused_cnt = ^{own_cnt, own_v};
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // (the scoreboard's invariants are simt_sched's, proved in formal/simt_sched.sby)
      `FG_ASSERT(simt_issue_group_nonempty, !issue || slot32(act_q, pick) != '0)
      `FG_ASSERT(simt_issue_group_live, !issue || (slot32(act_q, pick) & ~slot32(live_q, pick)) == '0)
      `FG_ASSERT(simt_one_writer, !(w_alu_v && wbk_v_q))
      `FG_ASSERT(simt_x_slot_onehot, !x_v_q || x_slot_oh_q == NW'(1) << x_slot_q)
      `FG_ASSERT(simt_rsp_has_owner, !mem_rsp_valid_i || own_v)
      `FG_ASSERT(simt_fetch_rsp_pending, !f_rsp || fpend_q[f_rsp_slot])
      `FG_ASSERT(simt_launch_1d, !launch || launch_ntid_i[95:32] == 64'h0000_0001_0000_0001)
      // the scheduler's view of the units is theirs
      `FG_ASSERT(simt_lsu_busy_is_tracked, lm_v == !lsu_idle)
      `FG_ASSERT(simt_div_busy_is_tracked, dm_v == !div_idle)
      `FG_ASSERT(simt_scan_slot_valid, !sc_v_q || valid_q[sc_slot_q])
      // EDGE: the controller's commands as its contract (sim/twin/edge_preempt.h) and this core's
      `FG_ASSERT(simt_cmd_slot_range, cmd_i == edge_pkg::PRE_CMD_NONE || 32'(cmd_slot_i) < NW)
      `FG_ASSERT(simt_cmd_no_skip_drop, cmd_i != edge_pkg::PRE_CMD_SKIPBAR && cmd_i != edge_pkg::PRE_CMD_DROP)
      `FG_ASSERT(simt_start_not_launch, !(launch && ev_start))
      `FG_ASSERT(simt_start_free_slot, !ev_start || ev_pre || (!valid_q[cmd_slot_i] && !parked_q[cmd_slot_i]))
      // no spare registers: a preempted victim's are saved (rf_free_i low)
      `FG_ASSERT(simt_start_saves, !ev_pre || ev_saved)
      // a victim is a running background warp with nothing in flight (the controller's drained test)
      `FG_ASSERT(simt_start_victim_runs, !ev_pre || (valid_q[cmd_slot_i] && !parked_q[cmd_slot_i] &&
                 !ev_q[cmd_slot_i] && !dead_q[cmd_slot_i] && !fin[cmd_slot_i]))
      `FG_ASSERT(simt_start_victim_drained, !ev_pre || (!busy_q[cmd_slot_i] && !scan_req_q[cmd_slot_i] &&
                 !ibv_q[cmd_slot_i] && !fpend_q[cmd_slot_i] && !hold[cmd_slot_i]))
      `FG_ASSERT(simt_start_victim_no_unit, !ev_pre || (!(lm_v && lm_slot == cmd_slot_i) &&
                 !(dm_v && dm_slot == cmd_slot_i)))
      `FG_ASSERT(simt_resume_parked, cmd_i != edge_pkg::PRE_CMD_RESUME ||
                 (parked_q[cmd_slot_i] && !valid_q[cmd_slot_i]))
      `FG_ASSERT(simt_ev_threads, !ev_start || (ev_threads_i >= 6'd1 && ev_threads_i <= 6'd32))
      `FG_ASSERT(simt_x_rsp_expected, !x_rsp || (x_v_q && !x_save_q && x_n_q < 6'(NL)))
    end
  end
endmodule
