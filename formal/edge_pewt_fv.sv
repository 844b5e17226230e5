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
  input logic [SLOT_W-1:0] exit_slot_i,
  input logic              f_pick_i      // the solver picks the event it follows
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
  // No event lost or duplicated, event by event (EDGE IV-C: "the
  // SIMT core scheduler ... transfers the event kernel into that core's
  // small pending event warp table, which manages it locally: when the warp
  // completes, the kernel completes"; arrival order is ours, edge_pewt.sv).
  // The harness follows one pushed event (f_pick_i) with its fields, and
  // keeps its own set of warp slots running an event warp (the contract:
  // a start is taken when an event is pending and its slot runs none, or
  // the slot exits at the same edge; an exit when its slot runs one):
  //   pewt_head_is_tracked: once the events pushed before it have started,
  //     the head shows the tracked event with its fields, until it starts
  //   pewt_cpl_is_tracked: the exit of its slot completes it, the cycle
  //     after, with its tag and slot; no other completion carries its slot
  //     while it runs, and it is completed once (the tracker is then free)
  localparam int NS = 1 << SLOT_W;
  localparam int EW = 2 * ADDR_W + TAG_W + THR_W + REGS_W;
  logic [NS-1:0]     f_run_q;
  logic              f_tk_q, f_tk_run_q;
  logic [EW-1:0]     f_tk_ev_q;
  logic [CW-1:0]     f_tk_ahead_q;
  logic [SLOT_W-1:0] f_tk_slot_q;
  logic              f_tk_exit_q;          // its slot exited at the last edge
  logic              f_tk_new_q;           // it started at the last edge
  wire f_push  = ev_valid_i && ev_ready_o;
  wire f_exit  = exit_valid_i && f_run_q[exit_slot_i];
  wire f_start = start_valid_i && hd_valid_o && (!f_run_q[start_slot_i] || (f_exit && exit_slot_i == start_slot_i));
  wire [EW-1:0] f_hd = {hd_kernel_o, hd_param_o, hd_tag_o, hd_threads_o, hd_regs_o};
  wire f_tk_head = f_tk_q && !f_tk_run_q && f_tk_ahead_q == '0;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      f_run_q     <= '0;
      f_tk_q      <= 1'b0;
      f_tk_run_q  <= 1'b0;
      f_tk_exit_q <= 1'b0;
      f_tk_new_q  <= 1'b0;
    end else begin
      f_tk_new_q  <= f_tk_q && !f_tk_run_q && f_start && f_tk_ahead_q == '0;
      for (int i = 0; i < NS; i++) begin
        if (f_exit && exit_slot_i == SLOT_W'(i)) f_run_q[i] <= 1'b0;
        if (f_start && start_slot_i == SLOT_W'(i)) f_run_q[i] <= 1'b1;
      end
      f_tk_exit_q <= f_tk_q && f_tk_run_q && !f_tk_exit_q && f_exit && exit_slot_i == f_tk_slot_q;
      if (f_tk_exit_q) begin
        f_tk_q     <= 1'b0;
        f_tk_run_q <= 1'b0;
      end else if (f_tk_q && !f_tk_run_q) begin
        if (f_start && f_tk_ahead_q == '0) begin
          f_tk_run_q  <= 1'b1;
          f_tk_slot_q <= start_slot_i;
        end else if (f_start) f_tk_ahead_q <= f_tk_ahead_q - 1'b1;
      end else if (!f_tk_q && f_push && f_pick_i) begin
        f_tk_q       <= 1'b1;
        f_tk_ev_q    <= {ev_kernel_i, ev_param_i, ev_tag_i, ev_threads_i, ev_regs_i};
        f_tk_ahead_q <= n_pending_o - CW'(f_start);
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      pewt_head_is_tracked: assert (!f_tk_head || (hd_valid_o && f_hd == f_tk_ev_q));
      pewt_cpl_is_tracked: assert (!f_tk_exit_q || (cpl_valid_o && cpl_tag_o == f_tk_ev_q[REGS_W + THR_W +: TAG_W] &&
                                                     cpl_slot_o == f_tk_slot_q));
      // (a completion the cycle after its start is the slot's last occupant's)
      pewt_cpl_not_early: assert (!(f_tk_q && f_tk_run_q && !f_tk_exit_q && !f_tk_new_q && cpl_valid_o) ||
                                  cpl_slot_o != f_tk_slot_q);
    end
  end
endmodule
