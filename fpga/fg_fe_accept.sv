// Whether fe_sched_queues takes the request on its req_* inputs at this
// edge: req_valid_i && req_ready_o[q], q the queue the request goes to
// (docs/FE_SCHED.md "Queue choice and ready"; the same decision as the
// block's intake and the twin's fe_sched_queue_of()).  The F/E register
// wrapper holds req_valid_i until this is 1.
`include "fg_comb.svh"
module fg_fe_accept #(
  parameter int          ADDR_W       = 32,
  parameter int          WORDS        = 32,
  parameter int          GRAN         = 4,
  parameter logic [31:0] REGION_BASE  = 0,
  parameter int          REGION_LINES = 256
) (
  input  logic              valid_i,
  input  logic              src_i,
  input  logic              we_i,
  input  logic              dflt_i,
  input  logic [1:0]        trig_i,
  input  logic [ADDR_W-1:0] addr_i,
  input  logic [2:0]        ready_i,
  output logic              accept_o
);
  localparam int LB        = $clog2(WORDS * GRAN);
  localparam int LN_W      = ADDR_W - LB;
  localparam int BASE_LINE = REGION_BASE >> LB;

  logic [1:0]    trig, q;
  logic [LN_W:0] rel;
  `FG_COMB_READBACK begin
    trig = (trig_i == 2'd3) ? 2'd0 : trig_i;
    if (dflt_i && src_i) trig = we_i ? 2'd0 : 2'd1;  // GPU defaults (F/E 4.1)
    rel = {1'b0, addr_i[ADDR_W-1:LB]} - (LN_W+1)'(BASE_LINE);
    if (trig == 2'd0 || !(rel < (LN_W+1)'(REGION_LINES))) q = 2'd0;
    else q = src_i ? 2'd2 : 2'd1;
    accept_o = valid_i && ready_i[q];
  end

  logic unused;
  assign unused = ^addr_i[LB-1:0];
endmodule
