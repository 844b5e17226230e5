// FuseSoC smoke test of fe_sched_queues (rtl/fe/fe_sched_queues.core;
// docs/FUSESOC.md), on Icarus or Verilator (--binary).  F/E 4.1-4.3 at the
// RTL's defaults: a GPU load with the GPU defaults (wait-full) on an empty
// line blocks at the head of the triggered-GPU queue; a CPU store with the
// fill action, non-triggered, leaves first, fills the line, and the
// snoop releases the load, which leaves next.  Prints PASS, or FAIL with the
// first difference.
`timescale 1ns/1ps
module fe_sched_queues_smoke_tb;
  localparam int ADDR_W = 32, WORDS = 32, TAG_W = 8, WD_W = 16, CNT_W = 32, INIT_W = 16;
  `include "fg_smoke.svh"
  logic rst_ni = 1'b0;

  logic              req_valid_i = 1'b0, req_src_i = 1'b0, req_we_i = 1'b0, req_dflt_i = 1'b0;
  logic [2:0]        req_ready_o;
  logic [1:0]        req_trig_i = '0, req_act_i = '0;
  logic [ADDR_W-1:0] req_addr_i = '0;
  logic [WORDS-1:0]  req_mask_i = '0;
  logic [TAG_W-1:0]  req_tag_i = '0;
  logic              stall_mc_o;
  logic              out_valid_o, out_ready_i = 1'b0, out_src_o, out_we_o;
  logic [1:0]        out_trig_o, out_act_o, out_q_o;
  logic [ADDR_W-1:0] out_addr_o;
  logic [WORDS-1:0]  out_mask_o;
  logic [TAG_W-1:0]  out_tag_o;
  logic              nack_valid_o, nack_ready_i = 1'b1, nack_src_o, nack_we_o;
  logic [1:0]        nack_trig_o, nack_act_o, nack_q_o;
  logic [ADDR_W-1:0] nack_addr_o;
  logic [WORDS-1:0]  nack_mask_o;
  logic [TAG_W-1:0]  nack_tag_o;
  logic              init_valid_i = 1'b0, init_ready_o, init_full_i = 1'b0;
  logic [ADDR_W-1:0] init_addr_i = '0;
  logic [INIT_W-1:0] init_lines_i = '0;
  logic [WD_W-1:0]   wdog_limit_i = '0;
  logic [2:0]        head_blocked_o;
  logic [23:0]       q_count_o;
  logic [CNT_W-1:0]  stall_nt_o, stall_cpu_o, stall_gpu_o, releases_o, nacks_o;
  logic              err_o;

  fe_sched_queues dut (.*);

  // one request into queue q (0 non-triggered, 1 CPU, 2 GPU)
  task automatic send(input int q, input logic src, input logic we, input logic dflt, input logic [1:0] trig,
                      input logic [1:0] act, input logic [7:0] tag);
    {req_src_i, req_we_i, req_dflt_i, req_trig_i, req_act_i, req_tag_i} = {src, we, dflt, trig, act, tag};
    req_addr_i = 32'h100;  // line 2 of the tracked region
    req_mask_i = '1;
    req_valid_i = 1'b1;
    while (!req_ready_o[q]) tick();
    tick();
    req_valid_i = 1'b0;
  endtask

  initial begin
    repeat (3) tick();
    rst_ni = 1'b1;
    while (req_ready_o == 3'b000) tick();  // the F/E store cleared, every line empty
    send(2, 1'b1, 1'b0, 1'b1, 2'd0, 2'd0, 8'h11);  // GPU load, defaults: wait full (F/E 4.1)
    repeat (8) tick();
    check("the load waits: nothing leaves", 64'(out_valid_o), 64'd0);
    check("the triggered-GPU head is blocked", 64'(head_blocked_o[2]), 64'd1);
    send(0, 1'b0, 1'b1, 1'b0, 2'(fe_pkg::FE_TRIG_NONE), 2'(fe_pkg::FE_ACT_FILL), 8'h22);  // CPU store, fill
    out_ready_i = 1'b1;
    while (!out_valid_o) tick();
    check("first out: the store's tag", 64'(out_tag_o), 64'h22);
    check("first out: a write", 64'(out_we_o), 64'd1);
    tick();
    while (!out_valid_o) tick();
    check("second out: the released load's tag", 64'(out_tag_o), 64'h11);
    check("second out: from the triggered-GPU queue", 64'(out_q_o), 64'd2);
    tick();
    check("releases counted", 64'(releases_o), 64'd1);
    check("no NACK, no watchdog", 64'({nack_valid_o, err_o}), 64'd0);
    if (errors == 0) $display("PASS: fe_sched_queues smoke test (a blocked load released by a fill)");
    $finish;
  end
endmodule
