// FuseSoC smoke test of edge_ekt (rtl/edge/edge_ekt.core, target sim;
// docs/FUSESOC.md): the same bench on Verilator (--binary) and Icarus.  A
// registration of a one-warp event kernel, then three rings: each launch
// pushes an event-warp descriptor with the registered kernel and the next
// parameter entry (EDGE III-C: head, head + size, ...), and completions
// free them.  Prints PASS, or FAIL with the first difference.  The full
// checks are the lockstep tests and the proof; this shows the core usable
// from another project.
`timescale 1ns/1ps
module edge_ekt_smoke_tb;
  localparam int ENTRIES = 32, ADDR_W = 64, PSIZE_W = 64, DIM_W = 32, SHMEM_W = 16, PRIO_W = 2, MAXEV_W = 16;
  localparam int IDW = $clog2(ENTRIES);
  `include "fg_smoke.svh"
  logic rst_ni = 1'b0;

  logic               cmd_valid_i = 1'b0, cmd_ready_o;
  logic [1:0]         cmd_op_i = '0;
  logic [IDW-1:0]     cmd_id_i = '0;
  logic [ADDR_W-1:0]  cmd_kernel_ptr_i = '0, cmd_param_base_i = '0, cmd_param_end_i = '0;
  logic [PSIZE_W-1:0] cmd_param_size_i = '0;
  logic [DIM_W-1:0]   cmd_grid_x_i = '0, cmd_grid_y_i = '0, cmd_grid_z_i = '0;
  logic [DIM_W-1:0]   cmd_block_x_i = '0, cmd_block_y_i = '0, cmd_block_z_i = '0;
  logic [SHMEM_W-1:0] cmd_shmem_i = '0;
  logic [PRIO_W-1:0]  cmd_prio_i = '0;
  logic [MAXEV_W-1:0] cmd_max_events_i = '0;
  logic               rsp_valid_o, rsp_ready_i = 1'b1;
  logic [2:0]         rsp_status_o;
  logic [IDW-1:0]     rsp_id_o;
  logic [ADDR_W-1:0]  rsp_head_o;
  logic [MAXEV_W-1:0] rsp_inflight_o;
  logic               ring_valid_i = 1'b0, ring_ready_o;
  logic [IDW-1:0]     ring_id_i = '0;
  logic               cpl_valid_i = 1'b0, cpl_ready_o;
  logic [IDW-1:0]     cpl_id_i = '0;
  logic               evw_valid_o, evw_ready_i = 1'b0, pkq_valid_o, pkq_ready_i = 1'b1;
  logic [IDW-1:0]     evw_id_o, pkq_id_o;
  logic [ADDR_W-1:0]  evw_kernel_ptr_o, evw_param_addr_o, pkq_kernel_ptr_o, pkq_param_addr_o;
  logic [DIM_W-1:0]   evw_grid_x_o, evw_grid_y_o, evw_grid_z_o, evw_block_x_o, evw_block_y_o, evw_block_z_o;
  logic [DIM_W-1:0]   pkq_grid_x_o, pkq_grid_y_o, pkq_grid_z_o, pkq_block_x_o, pkq_block_y_o, pkq_block_z_o;
  logic [SHMEM_W-1:0] evw_shmem_o, pkq_shmem_o;
  logic [PRIO_W-1:0]  evw_prio_o, pkq_prio_o;
  logic               err_valid_o;
  logic [2:0]         err_code_o;
  logic [IDW-1:0]     err_id_o;
  logic [ENTRIES-1:0] registered_o;
  logic [31:0]        cnt_launch_o;
  logic [15:0]        cnt_err_unreg_o, cnt_err_overrun_o, cnt_err_cpl_o;
  logic [2:0]         err_status_o;

  edge_ekt dut (.*);

  localparam logic [ADDR_W-1:0] KPTR = 64'h1000, BASE = 64'h2000, SIZE = 64'h40;
  logic [IDW-1:0] id;
  initial begin
    repeat (3) tick();
    rst_ni = 1'b1;
    tick();
    // register: one warp (block 32), four parameter entries, up to two in flight
    cmd_op_i = 2'(edge_pkg::EKT_OP_REG);
    cmd_kernel_ptr_i = KPTR;
    cmd_param_base_i = BASE;
    cmd_param_size_i = SIZE;
    cmd_param_end_i = BASE + 4 * SIZE - 1;
    {cmd_grid_x_i, cmd_grid_y_i, cmd_grid_z_i} = {32'd1, 32'd1, 32'd1};
    {cmd_block_x_i, cmd_block_y_i, cmd_block_z_i} = {32'd32, 32'd1, 32'd1};
    cmd_max_events_i = 16'd2;
    cmd_valid_i = 1'b1;
    while (!cmd_ready_o) tick();
    tick();
    cmd_valid_i = 1'b0;
    while (!rsp_valid_o) tick();
    check("registration status", 64'(rsp_status_o), 64'(edge_pkg::EKT_RSP_OK));
    check("head at registration", rsp_head_o, BASE);
    id = rsp_id_o;
    tick();
    for (int n = 0; n < 3; n++) begin
      ring_id_i = id;
      ring_valid_i = 1'b1;
      while (!ring_ready_o) tick();
      tick();
      ring_valid_i = 1'b0;
      while (!evw_valid_o) tick();
      check($sformatf("launch %0d kernel", n), evw_kernel_ptr_o, KPTR);
      check($sformatf("launch %0d parameter entry", n), evw_param_addr_o, BASE + 64'(n) * SIZE);
      check($sformatf("launch %0d entry id", n), 64'(evw_id_o), 64'(id));
      evw_ready_i = 1'b1;
      tick();
      evw_ready_i = 1'b0;
      // the event kernel completes: its parameter entry is free again
      cpl_id_i = id;
      cpl_valid_i = 1'b1;
      while (!cpl_ready_o) tick();
      tick();
      cpl_valid_i = 1'b0;
      repeat (4) tick();
    end
    check("launches counted", 64'(cnt_launch_o), 64'd3);
    check("errors", 64'(err_valid_o), 64'd0);
    if (errors == 0) $display("PASS: edge_ekt smoke test (3 launches)");
    $finish;
  end
endmodule
