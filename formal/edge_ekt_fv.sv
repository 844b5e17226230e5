// Formal harness of edge_ekt (docs/FORMAL.md).  Any host commands (illegal
// operation and ids included), rings, completions and ready patterns, reset
// in the first cycle and free afterwards; every registration uses one
// parameter buffer (base, entry size, end: constants the solver picks), so
// that launches can be checked against it.  The RTL's own named assertions
// (rtl/edge/edge_ekt.sv: the head and in-flight count of the entry being
// launched or completed within bounds, the wrap flag, the precomputed free
// entry, the registered read address, the sequencer back in S_IDLE) are
// proved with these:
//   no ring lost or duplicated: rings accepted = launches + unregistered +
//     overrun errors + rings held (the ring buffer, !ring_ready_o, and at
//     most one being launched)
//   no descriptor lost or duplicated: launches - descriptors taken at
//     evw / pkq <= 2 * OUT_DEPTH (the output FIFOs)
//   one response per host command (at most one outstanding, and none
//     without a command)
//   table indices within bounds: every id the EKT puts out (response,
//   descriptor, error) < ENTRIES
//   the circular parameter buffer's head within bounds (EDGE III-C): every
//   launched parameter address lies in [base, end]
module edge_ekt_fv #(
  parameter int ENTRIES      = 3,
  parameter int ADDR_W       = 4,
  parameter int PSIZE_W      = 3,
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
  input logic               pkq_ready_i
);
  localparam int IDW = (ENTRIES > 1) ? $clog2(ENTRIES) : 1;
  (* anyconst *) logic [ADDR_W-1:0]  f_base, f_end;
  (* anyconst *) logic [PSIZE_W-1:0] f_size;
  wire [ADDR_W-1:0]  cmd_param_base_i = f_base;
  wire [PSIZE_W-1:0] cmd_param_size_i = f_size;
  wire [ADDR_W-1:0]  cmd_param_end_i  = f_end;

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
  edge_ekt #(.ENTRIES(ENTRIES), .ADDR_W(ADDR_W), .PSIZE_W(PSIZE_W), .DIM_W(DIM_W), .SHMEM_W(SHMEM_W),
             .PRIO_W(PRIO_W), .MAXEV_W(MAXEV_W), .WARP_THREADS(WARP_THREADS), .OUT_DEPTH(OUT_DEPTH))
    dut (.*);

  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb if (f_init_q) assume (!rst_ni);

  logic [7:0] f_ring_q, f_taken_q, f_cmd_q, f_rsp_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      f_ring_q  <= '0;
      f_taken_q <= '0;
      f_cmd_q   <= '0;
      f_rsp_q   <= '0;
    end else begin
      f_ring_q  <= f_ring_q + 8'(ring_valid_i && ring_ready_o);
      f_taken_q <= f_taken_q + 8'(evw_valid_o && evw_ready_i) + 8'(pkq_valid_o && pkq_ready_i);
      f_cmd_q   <= f_cmd_q + 8'(cmd_valid_i && cmd_ready_o);
      f_rsp_q   <= f_rsp_q + 8'(rsp_valid_o && rsp_ready_i);
    end
  end
  wire [7:0] f_done = cnt_launch_o[7:0] + cnt_err_unreg_o[7:0] + cnt_err_overrun_o[7:0];
  wire [7:0] f_held = f_ring_q - f_done - 8'(!ring_ready_o);  // the one being launched, if any
  wire [7:0] f_outq = cnt_launch_o[7:0] - f_taken_q;

  always_ff @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
      rings_accepted_eq_done_plus_held: assert (f_held <= 8'd1);
      descriptors_not_lost_or_duplicated: assert (32'(f_outq) <= 2 * OUT_DEPTH);
      one_response_per_command: assert (f_cmd_q - f_rsp_q <= 8'd1);
      response_only_for_command: assert (!rsp_valid_o || f_cmd_q - f_rsp_q == 8'd1);
      err_code_legal: assert (!err_valid_o || (err_code_o >= 3'd1 && err_code_o <= 3'd4));
      // (NOT_REGISTERED / INVALID of an UNREG / READ / unknown operation
      // repeat the command's own id, which may lie beyond the table)
      rsp_id_in_table: assert (!rsp_valid_o || 32'(rsp_id_o) < ENTRIES || rsp_status_o == 3'd3 ||
                               rsp_status_o == 3'd2);
      evw_id_in_table: assert (!evw_valid_o || 32'(evw_id_o) < ENTRIES);
      pkq_id_in_table: assert (!pkq_valid_o || 32'(pkq_id_o) < ENTRIES);
      err_id_in_table: assert (!err_valid_o || 32'(err_id_o) < ENTRIES || err_code_o == 3'd1 ||
                               err_code_o == 3'd4);  // (an unregistered id is the ring's / completion's own)
      evw_param_in_buffer: assert (!evw_valid_o || (evw_param_addr_o >= f_base && evw_param_addr_o <= f_end));
      pkq_param_in_buffer: assert (!pkq_valid_o || (pkq_param_addr_o >= f_base && pkq_param_addr_o <= f_end));
    end
  end
endmodule
