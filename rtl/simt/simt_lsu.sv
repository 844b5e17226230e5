// Load/store unit of the RTL SIMT core: one warp load or store at a time,
// one memory request per active thread in thread order (no coalescing), the
// loaded values kept until the core writes them back pass by pass.
//
// Life: start_i (kind, threads) -> cap_i once per pass (the threads'
// physical addresses and store data from the lane pipeline) -> go_i (every
// address legal) or drop_i (the instruction faulted: nothing is accessed) ->
// requests -> done_o (stores: every request accepted; loads: every response
// back) -> the core writes back (loads) and retires -> clear_i.
`include "fg_assert.svh"
module simt_lsu #(
  parameter  int NL = 8,
  localparam int P  = 32 / NL,
  localparam int PW = (P > 1) ? $clog2(P) : 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             start_i,
  input  logic             store_i,
  input  logic [1:0]       size_i,       // log2 bytes
  input  logic             unsigned_i,
  input  logic [31:0]      mask_i,
  input  logic             cap_i,
  input  logic [PW-1:0]    cap_pass_i,
  input  logic [NL*32-1:0] cap_addr_i,
  input  logic [NL*32-1:0] cap_data_i,
  input  logic             go_i,
  input  logic             drop_i,
  input  logic             clear_i,
  output logic             idle_o,
  output logic             done_o,
  // requests (the core's port arbiter) and this unit's responses, in order
  output logic             req_valid_o,
  input  logic             req_ready_i,
  output logic             req_we_o,
  output logic [31:0]      req_addr_o,
  output logic [3:0]       req_be_o,
  output logic [31:0]      req_wdata_o,
  input  logic             rsp_valid_i,
  input  logic [31:0]      rsp_data_i,
  // loaded values of pass rd_pass_i
  input  logic [PW-1:0]    rd_pass_i,
  output logic [NL*32-1:0] res_o
);
  typedef enum logic [1:0] {ST_IDLE, ST_CAP, ST_RUN, ST_DONE} st_e;
  st_e st_q;
  logic              store_q, uns_q;
  logic [1:0]        size_q;
  logic [31:0]       req_todo_q, rsp_todo_q;   // threads still to request / to answer
  logic [31:0]       addr_q [32], data_q [32];  // per thread: address; store data, then the loaded value

  function automatic logic [4:0] lowest(input logic [31:0] m);
    lowest = '0;
    for (int t = 31; t >= 0; t--) if (m[t]) lowest = 5'(t);
  endfunction

  logic [4:0]  rt, at;      // thread of the next request, of the next response
  logic [1:0]  off;
  logic [31:0] sh, ld;
  always_comb begin
    rt  = lowest(req_todo_q);
    at  = lowest(rsp_todo_q);
    off = addr_q[at][1:0];
    sh  = rsp_data_i >> {off, 3'b0};
    case (size_q)
      2'd0:    ld = uns_q ? {24'd0, sh[7:0]} : {{24{sh[7]}}, sh[7:0]};
      2'd1:    ld = uns_q ? {16'd0, sh[15:0]} : {{16{sh[15]}}, sh[15:0]};
      default: ld = sh;
    endcase
  end

  wire [1:0] roff = addr_q[rt][1:0];
  assign req_valid_o = st_q == ST_RUN && req_todo_q != '0;
  assign req_we_o    = store_q;
  assign req_addr_o  = {addr_q[rt][31:2], 2'b00};
  assign req_wdata_o = data_q[rt] << {roff, 3'b0};
  assign req_be_o    = size_q == 2'd0 ? 4'b0001 << roff : size_q == 2'd1 ? 4'b0011 << roff : 4'b1111;

  wire fire = req_valid_o && req_ready_i;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q       <= ST_IDLE;
      req_todo_q <= '0;
      rsp_todo_q <= '0;
    end else begin
      case (st_q)
        ST_IDLE: if (start_i) begin
          st_q       <= ST_CAP;
          store_q    <= store_i;
          size_q     <= size_i;
          uns_q      <= unsigned_i;
          req_todo_q <= mask_i;
          rsp_todo_q <= store_i ? '0 : mask_i;
        end
        ST_CAP: if (drop_i) st_q <= ST_IDLE;
                else if (go_i) st_q <= ST_RUN;
        ST_RUN: begin
          if (fire) req_todo_q <= req_todo_q & ~(32'd1 << rt);
          if (rsp_valid_i) rsp_todo_q <= rsp_todo_q & ~(32'd1 << at);
          if ((req_todo_q & ~(fire ? 32'd1 << rt : 32'd0)) == '0 &&
              (rsp_todo_q & ~(rsp_valid_i ? 32'd1 << at : 32'd0)) == '0) st_q <= ST_DONE;
        end
        default: if (clear_i) st_q <= ST_IDLE;
      endcase
      if (st_q == ST_CAP && cap_i)
        for (int i = 0; i < NL; i++) begin
          addr_q[32'(cap_pass_i) * NL + i] <= cap_addr_i[i*32 +: 32];
          data_q[32'(cap_pass_i) * NL + i] <= cap_data_i[i*32 +: 32];
        end
      if (st_q == ST_RUN && rsp_valid_i) data_q[at] <= ld;
    end
  end

  always_comb
    for (int i = 0; i < NL; i++) res_o[i*32 +: 32] = data_q[32'(rd_pass_i) * NL + i];

  assign idle_o = st_q == ST_IDLE;
  assign done_o = st_q == ST_DONE;

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(lsu_start_when_idle, !start_i || st_q == ST_IDLE)
      `FG_ASSERT(lsu_cap_after_start, !cap_i || st_q == ST_CAP)
      // a response belongs to a load this unit requested and has not been answered
      `FG_ASSERT(lsu_rsp_expected, !rsp_valid_i || (st_q == ST_RUN && (rsp_todo_q & ~req_todo_q) != '0))
    end
  end
endmodule
