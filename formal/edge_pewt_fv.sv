// Formal harness of edge_pewt (docs/FORMAL.md): any pushes, starts and exits
// (misuse included: the block must refuse and report it), reset in the first
// cycle and free afterwards.
//   conservation: kernels pushed - completions = PENDING + RUNNING entries
//   (an exit's completion pulse is the cycle after it), so no kernel is lost
//   or completed twice; occupancy adds up to ENTRIES (RTL)
//   table indices within bounds (the head index; RTL: the free entry a push
//   takes, the order FIFO holding exactly the PENDING entries)
module edge_pewt_fv #(
  parameter int ENTRIES = 3,
  parameter int ADDR_W  = 2,
  parameter int TAG_W   = 2,
  parameter int SLOT_W  = 2,
  parameter int THR_W   = 2,
  parameter int REGS_W  = 2
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic              ev_valid_i,
  input logic [ADDR_W-1:0] ev_kernel_i,
  input logic [ADDR_W-1:0] ev_param_i,
  input logic [TAG_W-1:0]  ev_tag_i,
  input logic [THR_W-1:0]  ev_threads_i,
  input logic [REGS_W-1:0] ev_regs_i,
  input logic              start_valid_i,
  input logic [SLOT_W-1:0] start_slot_i,
  input logic              exit_valid_i,
  input logic [SLOT_W-1:0] exit_slot_i
);
  localparam int IDW = (ENTRIES > 1) ? $clog2(ENTRIES) : 1;
  localparam int CW  = $clog2(ENTRIES + 1);
  logic              ev_ready_o, hd_valid_o, cpl_valid_o, err_valid_o;
  logic [IDW-1:0]    hd_idx_o;
  logic [ADDR_W-1:0] hd_kernel_o, hd_param_o;
  logic [TAG_W-1:0]  hd_tag_o, cpl_tag_o;
  logic [THR_W-1:0]  hd_threads_o;
  logic [REGS_W-1:0] hd_regs_o;
  logic [SLOT_W-1:0] cpl_slot_o;
  logic [CW-1:0]     n_pending_o, n_running_o, n_free_o;
  logic [1:0]        err_code_o;
  logic [15:0]       cnt_err_o;
  logic [31:0]       cnt_push_o;
  edge_pewt #(.ENTRIES(ENTRIES), .ADDR_W(ADDR_W), .TAG_W(TAG_W), .SLOT_W(SLOT_W), .THR_W(THR_W),
              .REGS_W(REGS_W)) dut (.*);

  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb if (f_init_q) assume (!rst_ni);

  logic [7:0] f_push_q, f_cpl_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      f_push_q <= '0;
      f_cpl_q  <= '0;
    end else begin
      f_push_q <= f_push_q + 8'(ev_valid_i && ev_ready_o);
      f_cpl_q  <= f_cpl_q + 8'(cpl_valid_o);
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      pushed_eq_completed_plus_held:
        assert (f_push_q - f_cpl_q - 8'(cpl_valid_o) == 8'(n_pending_o) + 8'(n_running_o));
      ready_iff_free: assert (ev_ready_o == (n_free_o != '0));
      head_iff_pending: assert (hd_valid_o == (n_pending_o != '0));
      head_idx_in_table: assert (!hd_valid_o || 32'(hd_idx_o) < ENTRIES);
    end
  end
endmodule
