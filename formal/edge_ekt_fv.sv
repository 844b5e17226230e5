// Formal harness of edge_ekt (docs/FORMAL.md).  Any host commands (illegal
// operation and ids included, each registration with a parameter buffer of
// its own: base, entry size and end free), rings, completions and ready
// patterns, reset in the first cycle and free afterwards.  The RTL's own named assertions
// (rtl/edge/edge_ekt.sv: the head and in-flight count of the entry being
// launched or completed within bounds, the wrap flag, the precomputed free
// entry, the registered read address, the sequencer back in S_IDLE, and the
// FORMAL-only invariants of the table's words) are proved with these, for
// all time (PDR):
//   no ring lost or duplicated: rings accepted = launches + unregistered and
//     overrun errors + rings held (the ring buffer, !ring_ready_o, and the
//     one being launched)
//   no descriptor lost or duplicated: launches - descriptors taken at
//     evw / pkq = the output FIFOs' entries
//   no completion lost or duplicated: accepted = applied + errors + held
//   one response per host command: accepted - responses = the command
//     registered, carried out or answered (at most one, none without one)
//   each counter (cnt_*_o) counts its events, saturating
//   table indices within bounds: every id the EKT puts out (response,
//   descriptor, error) < ENTRIES
//   a launch reads exactly the registered entry, and the circular parameter
//     buffer's head follows EDGE III-C: per entry, a shadow of the buffer
//     and kernel a registration gave (taken when the entry becomes
//     registered) and of its head (base at the registration; after each
//     launch head + size, or base when head + size passes the end); every
//     launched descriptor carries the entry's kernel pointer and the shadow
//     head as its parameter address, and every registered entry holds the
//     buffer its registration gave
module edge_ekt_fv #(
  parameter int ENTRIES      = 3,
  parameter int ADDR_W       = 3,
  parameter int PSIZE_W      = 2,
  parameter int DIM_W        = 2,
  parameter int SHMEM_W      = 1,
  parameter int PRIO_W       = 1,
  parameter int MAXEV_W      = 2,
  parameter int WARP_THREADS = 2,
  parameter int OUT_DEPTH    = 2
) (
  input logic               clk_i,
  input logic               rst_ni,
  input logic               cmd_valid_i,
  input logic [1:0]         cmd_op_i,
  input logic [$clog2(ENTRIES)-1:0] cmd_id_i,
  input logic [ADDR_W-1:0]  cmd_kernel_ptr_i,
  input logic [DIM_W-1:0]   cmd_grid_x_i,
  input logic [DIM_W-1:0]   cmd_grid_y_i,
  input logic [DIM_W-1:0]   cmd_grid_z_i,
  input logic [DIM_W-1:0]   cmd_block_x_i,
  input logic [DIM_W-1:0]   cmd_block_y_i,
  input logic [DIM_W-1:0]   cmd_block_z_i,
  input logic [SHMEM_W-1:0] cmd_shmem_i,
  input logic [PRIO_W-1:0]  cmd_prio_i,
  input logic [MAXEV_W-1:0] cmd_max_events_i,
  input logic               rsp_ready_i,
  input logic               ring_valid_i,
  input logic [$clog2(ENTRIES)-1:0] ring_id_i,
  input logic               cpl_valid_i,
  input logic [$clog2(ENTRIES)-1:0] cpl_id_i,
  input logic               evw_ready_i,
  input logic               pkq_ready_i,
  input logic [ADDR_W-1:0]  cmd_param_base_i,
  input logic [PSIZE_W-1:0] cmd_param_size_i,
  input logic [ADDR_W-1:0]  cmd_param_end_i
);
  localparam int IDW = (ENTRIES > 1) ? $clog2(ENTRIES) : 1;

  logic               cmd_ready_o, rsp_valid_o, ring_ready_o, cpl_ready_o, evw_valid_o, pkq_valid_o,
                      err_valid_o;
  logic [2:0]         rsp_status_o, err_code_o, err_status_o;
  logic [IDW-1:0]     rsp_id_o, evw_id_o, pkq_id_o, err_id_o;
  logic [ADDR_W-1:0]  rsp_head_o, evw_kernel_ptr_o, evw_param_addr_o, pkq_kernel_ptr_o,
                      pkq_param_addr_o;
  logic [MAXEV_W-1:0] rsp_inflight_o;
  logic [DIM_W-1:0]   evw_grid_x_o, evw_grid_y_o, evw_grid_z_o, evw_block_x_o, evw_block_y_o,
                      evw_block_z_o, pkq_grid_x_o, pkq_grid_y_o, pkq_grid_z_o, pkq_block_x_o,
                      pkq_block_y_o, pkq_block_z_o;
  logic [SHMEM_W-1:0] evw_shmem_o, pkq_shmem_o;
  logic [PRIO_W-1:0]  evw_prio_o, pkq_prio_o;
  logic [ENTRIES-1:0] registered_o;
  logic [31:0]        cnt_launch_o;
  logic [15:0]        cnt_err_unreg_o, cnt_err_overrun_o, cnt_err_cpl_o;
  // the FORMAL-only ports (rtl/edge/edge_ekt.sv)
  logic [2:0]         f_state_o;
  logic               f_cmd_held_o, f_launch_o, f_cpl_app_o;
  logic [$clog2(OUT_DEPTH+1)-1:0] f_evw_cnt_o, f_pkq_cnt_o;
  localparam int DW  = IDW + 2 * ADDR_W + 6 * DIM_W + SHMEM_W + PRIO_W;   // a descriptor
  localparam int QPW = (OUT_DEPTH > 1) ? $clog2(OUT_DEPTH) : 1;
  localparam int LW  = ADDR_W + 3;
  localparam int BW  = ADDR_W + PSIZE_W + LW;                             // base, size, limit
  logic [OUT_DEPTH*DW-1:0] f_evw_mem_o, f_pkq_mem_o;
  logic [QPW-1:0]     f_evw_rptr_o, f_pkq_rptr_o;
  logic [ENTRIES*BW-1:0] f_buf_o;
  logic               f_reg_pend_o;
  logic [IDW-1:0]     f_op_id_o;
  logic [DW-1:0]      f_desc_o;
  edge_ekt #(.ENTRIES(ENTRIES), .ADDR_W(ADDR_W), .PSIZE_W(PSIZE_W), .DIM_W(DIM_W), .SHMEM_W(SHMEM_W),
             .PRIO_W(PRIO_W), .MAXEV_W(MAXEV_W), .WARP_THREADS(WARP_THREADS), .OUT_DEPTH(OUT_DEPTH))
    dut (.*);

  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb if (f_init_q) assume (!rst_ni);

  // The harness's counters are FW bits and wrap: each conservation law is an
  // equation modulo 2^FW, both sides FW-bit wires (docs/FORMAL.md: a Yosys
  // pitfall with casts in comparisons), so it holds for all time; the RTL's
  // own counters (cnt_*_o) saturate, so a law written on them would be false
  // once one saturates: they are checked to count each event instead.
  localparam int FW = 2;
  // (codes and states from edge_pkg, rtl/edge/edge_enc.toml)
  localparam logic [2:0] E_UNREG = 3'(edge_pkg::EKT_ERR_UNREGISTERED), E_OVERRUN = 3'(edge_pkg::EKT_ERR_OVERRUN),
                         E_SPUR = 3'(edge_pkg::EKT_ERR_SPURIOUS_CPL), E_CPL_UNREG = 3'(edge_pkg::EKT_ERR_CPL_UNREGISTERED);
  localparam logic [2:0] S_LAUNCH = 3'(edge_pkg::EKT_S_LAUNCH), S_CPL = 3'(edge_pkg::EKT_S_CPL),
                         S_UNREG = 3'(edge_pkg::EKT_S_UNREG), S_READ = 3'(edge_pkg::EKT_S_READ),
                         S_REG = 3'(edge_pkg::EKT_S_REG);
  wire f_launch  = f_launch_o;     // a descriptor pushed (one at most: RTL ekt_one_push)
  wire f_cpl_app = f_cpl_app_o;    // a completion frees one
  wire f_rerr    = err_valid_o && (err_code_o == E_UNREG || err_code_o == E_OVERRUN);
  wire f_cerr    = err_valid_o && (err_code_o == E_SPUR || err_code_o == E_CPL_UNREG);
  logic [FW-1:0] f_ring_q, f_rerr_q, f_launch_q, f_taken_q, f_cpl_q, f_cerr_q, f_capp_q, f_cmd_q, f_rsp_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      f_ring_q   <= '0;
      f_rerr_q   <= '0;
      f_launch_q <= '0;
      f_taken_q  <= '0;
      f_cpl_q    <= '0;
      f_cerr_q   <= '0;
      f_capp_q   <= '0;
      f_cmd_q    <= '0;
      f_rsp_q    <= '0;
    end else begin
      f_ring_q   <= f_ring_q + FW'(ring_valid_i && ring_ready_o);
      f_rerr_q   <= f_rerr_q + FW'(f_rerr);
      f_launch_q <= f_launch_q + FW'(f_launch);
      f_taken_q  <= f_taken_q + FW'(evw_valid_o && evw_ready_i) + FW'(pkq_valid_o && pkq_ready_i);
      f_cpl_q    <= f_cpl_q + FW'(cpl_valid_i && cpl_ready_o);
      f_cerr_q   <= f_cerr_q + FW'(f_cerr);
      f_capp_q   <= f_capp_q + FW'(f_cpl_app);
      f_cmd_q    <= f_cmd_q + FW'(cmd_valid_i && cmd_ready_o);
      f_rsp_q    <= f_rsp_q + FW'(rsp_valid_o && rsp_ready_i);
    end
  end
  // rings: accepted - (unregistered and overrun errors, the one on err_*_o
  // now included) - launches = the ring buffered (!ring_ready_o) + the one
  // being launched
  wire [FW-1:0] f_ring_lhs = f_ring_q - f_rerr_q - FW'(f_rerr) - f_launch_q;
  wire [FW-1:0] f_ring_rhs = FW'(!ring_ready_o) + FW'(f_state_o == S_LAUNCH);
  // descriptors: launches - descriptors taken = the two FIFOs' entries
  wire [FW-1:0] f_desc_lhs = f_launch_q - f_taken_q;
  wire [FW-1:0] f_desc_rhs = FW'(f_evw_cnt_o) + FW'(f_pkq_cnt_o);
  // completions: accepted - errors - applied = buffered + being applied
  wire [FW-1:0] f_cpl_lhs  = f_cpl_q - f_cerr_q - FW'(f_cerr) - f_capp_q;
  wire [FW-1:0] f_cpl_rhs  = FW'(!cpl_ready_o) + FW'(f_state_o == S_CPL);
  // host commands: accepted - responses taken = the command registered +
  // being carried out + its response waiting (at most one of the three)
  wire          f_cmd_busy = f_state_o == S_UNREG || f_state_o == S_READ || f_state_o == S_REG;
  wire [FW-1:0] f_cmd_lhs  = f_cmd_q - f_rsp_q;
  wire [FW-1:0] f_cmd_rhs  = FW'(f_cmd_held_o) + FW'(f_cmd_busy) + FW'(rsp_valid_o);

  // each RTL counter counts its events, saturating (the error counters go
  // up with the error's pulse on err_*_o, in the same edge)
  logic        f_prev_v_q, f_launch_prev_q;
  logic [31:0] f_cnt_launch_q;
  logic [15:0] f_cnt_unreg_q, f_cnt_overrun_q, f_cnt_cpl_q;
  always_ff @(posedge clk_i) begin
    f_prev_v_q      <= rst_ni;
    f_launch_prev_q <= f_launch;
    f_cnt_launch_q  <= cnt_launch_o;
    f_cnt_unreg_q   <= cnt_err_unreg_o;
    f_cnt_overrun_q <= cnt_err_overrun_o;
    f_cnt_cpl_q     <= cnt_err_cpl_o;
  end
  function automatic logic [15:0] f_sat16(input logic [15:0] c, input logic inc);
    f_sat16 = (inc && c != 16'hffff) ? c + 16'd1 : c;
  endfunction
  wire [31:0] f_launch_exp = (f_launch_prev_q && f_cnt_launch_q != 32'hffffffff) ? f_cnt_launch_q + 32'd1
                                                                                  : f_cnt_launch_q;

  // The registrations' shadows.  A host command is taken at most one at a
  // time (one_response_per_command): the buffer and kernel of the last
  // registration accepted are the ones of the entry that becomes registered
  // next (registered_o rising: S_REG's edge).
  localparam int LW2 = ADDR_W + 1;
  logic [ADDR_W-1:0]  f_cb_q, f_ce_q, f_ck_q;   // the accepted registration's base, end, kernel
  logic [PSIZE_W-1:0] f_cs_q;                   // and entry size
  logic [ENTRIES-1:0][ADDR_W-1:0]  f_sb_q, f_se_q, f_sk_q, f_sh_q;   // per entry: base, end, kernel, head
  logic [ENTRIES-1:0][PSIZE_W-1:0] f_ss_q;                           // and entry size
  logic [ENTRIES-1:0]              f_reg_prev_q;
  // the shadows as of this cycle: an entry registered in this cycle (its
  // bit rising) has the accepted registration's buffer and kernel, head =
  // base, from this cycle on
  logic [ENTRIES-1:0][ADDR_W-1:0]  f_sb, f_se, f_sk, f_sh;
  logic [ENTRIES-1:0][PSIZE_W-1:0] f_ss;
  wire [ENTRIES-1:0] f_rise = rst_ni ? registered_o & ~f_reg_prev_q : '0;
  always_comb
    for (int e = 0; e < ENTRIES; e++) begin
      f_sb[e] = f_rise[e] ? f_cb_q : f_sb_q[e];
      f_ss[e] = f_rise[e] ? f_cs_q : f_ss_q[e];
      f_se[e] = f_rise[e] ? f_ce_q : f_se_q[e];
      f_sk[e] = f_rise[e] ? f_ck_q : f_sk_q[e];
      f_sh[e] = f_rise[e] ? f_cb_q : f_sh_q[e];
    end
  // the launched descriptor's fields (rtl/edge/edge_ekt.sv desc: id, kernel, parameter address, ...)
  wire [IDW-1:0]    f_l_id   = f_desc_o[IDW-1:0];
  wire [ADDR_W-1:0] f_l_kptr = f_desc_o[IDW +: ADDR_W];
  wire [ADDR_W-1:0] f_l_addr = f_desc_o[IDW+ADDR_W +: ADDR_W];
  wire [LW2-1:0]    f_l_next = LW2'(f_sh[f_l_id]) + LW2'(f_ss[f_l_id]);   // head + size
  always_ff @(posedge clk_i) begin
    f_reg_prev_q <= rst_ni ? registered_o : '0;
    if (cmd_valid_i && cmd_ready_o && cmd_op_i == 2'(edge_pkg::EKT_OP_REG)) begin
      f_cb_q <= cmd_param_base_i;
      f_cs_q <= cmd_param_size_i;
      f_ce_q <= cmd_param_end_i;
      f_ck_q <= cmd_kernel_ptr_i;
    end
    f_sb_q <= f_sb;
    f_ss_q <= f_ss;
    f_se_q <= f_se;
    f_sk_q <= f_sk;
    f_sh_q <= f_sh;
    if (rst_ni && f_launch && 32'(f_l_id) < ENTRIES)   // EDGE III-C: past the end, back to base
      f_sh_q[f_l_id] <= f_l_next > LW2'(f_se[f_l_id]) ? f_sb[f_l_id] : ADDR_W'(f_l_next);
  end

  // Induction strengthening (docs/FORMAL.md): every descriptor held in a
  // FIFO names an entry of the table; every registered entry (and the one
  // being registered) has the buffer its registration gave.
  function automatic logic f_desc_ok(input logic [DW-1:0] d);
    f_desc_ok = 32'(d[IDW-1:0]) < ENTRIES;
  endfunction
  function automatic logic f_live(input logic [QPW-1:0] i, input logic [QPW-1:0] rptr,
                                  input logic [$clog2(OUT_DEPTH+1)-1:0] cnt);
    f_live = 32'(cnt) > ((i >= rptr) ? 32'(i) - 32'(rptr) : 32'(i) + OUT_DEPTH - 32'(rptr));
  endfunction
  function automatic logic [BW-1:0] f_buf_of(input logic [ADDR_W-1:0] b, input logic [PSIZE_W-1:0] z,
                                             input logic [ADDR_W-1:0] e);
    f_buf_of = {LW'(e) - LW'({(ADDR_W+1)'(z), 1'b0}), z, b};   // base, size, limit = end - 2 x size
  endfunction
  logic [OUT_DEPTH-1:0] f_evw_ok, f_pkq_ok;
  logic [ENTRIES-1:0]   f_buf_ok;
  always_comb begin
    for (int i = 0; i < OUT_DEPTH; i++) begin
      f_evw_ok[i] = !f_live(QPW'(i), f_evw_rptr_o, f_evw_cnt_o) || f_desc_ok(f_evw_mem_o[i*DW +: DW]);
      f_pkq_ok[i] = !f_live(QPW'(i), f_pkq_rptr_o, f_pkq_cnt_o) || f_desc_ok(f_pkq_mem_o[i*DW +: DW]);
    end
    for (int e = 0; e < ENTRIES; e++)
      f_buf_ok[e] = (!registered_o[e] || f_buf_o[e*BW +: BW] == f_buf_of(f_sb[e], f_ss[e], f_se[e])) &&
                    (!(f_reg_pend_o && 32'(f_op_id_o) == e) ||
                     f_buf_o[e*BW +: BW] == f_buf_of(f_cb_q, f_cs_q, f_ce_q));
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
      evw_fifo_descriptors_ok: assert (&f_evw_ok);
      pkq_fifo_descriptors_ok: assert (&f_pkq_ok);
      entries_have_their_buffer: assert (&f_buf_ok);
      rings_accepted_eq_done_plus_held: assert (f_ring_lhs == f_ring_rhs);
      descriptors_not_lost_or_duplicated: assert (f_desc_lhs == f_desc_rhs);
      completions_accepted_eq_done_plus_held: assert (f_cpl_lhs == f_cpl_rhs);
      commands_accepted_eq_responses_plus_held: assert (f_cmd_lhs == f_cmd_rhs);
      one_response_per_command: assert (f_cmd_lhs <= FW'(1));
      response_only_for_command: assert (!rsp_valid_o || f_cmd_lhs == FW'(1));
      err_code_legal: assert (!err_valid_o || (err_code_o >= 3'd1 && err_code_o <= 3'd4));
      // (NOT_REGISTERED / INVALID of an UNREG / READ / unknown operation
      // repeat the command's own id, which may lie beyond the table)
      rsp_id_in_table: assert (!rsp_valid_o || 32'(rsp_id_o) < ENTRIES || rsp_status_o == 3'd3 ||
                               rsp_status_o == 3'd2);
      evw_id_in_table: assert (!evw_valid_o || 32'(evw_id_o) < ENTRIES);
      pkq_id_in_table: assert (!pkq_valid_o || 32'(pkq_id_o) < ENTRIES);
      err_id_in_table: assert (!err_valid_o || 32'(err_id_o) < ENTRIES || err_code_o == 3'd1 ||
                               err_code_o == 3'd4);  // (an unregistered id is the ring's / completion's own)
      // EDGE III-A..C: a launch of entry e (a descriptor pushed) carries e's
      // registered kernel and its buffer's head
      launch_reads_registered_entry: assert (!f_launch || (32'(f_l_id) < ENTRIES && registered_o[f_l_id] &&
                                                            f_l_kptr == f_sk[f_l_id]));
      launch_param_is_head: assert (!f_launch || 32'(f_l_id) >= ENTRIES || f_l_addr == f_sh[f_l_id]);
    end
    if (rst_ni && f_prev_v_q) begin
      cnt_launch_counts: assert (cnt_launch_o == f_launch_exp);
      cnt_err_unreg_counts: assert (cnt_err_unreg_o ==
                                    f_sat16(f_cnt_unreg_q, err_valid_o && err_code_o == E_UNREG));
      cnt_err_overrun_counts: assert (cnt_err_overrun_o ==
                                      f_sat16(f_cnt_overrun_q, err_valid_o && err_code_o == E_OVERRUN));
      cnt_err_cpl_counts: assert (cnt_err_cpl_o == f_sat16(f_cnt_cpl_q, f_cerr));
    end
  end
endmodule
