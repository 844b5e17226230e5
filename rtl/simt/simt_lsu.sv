// Load/store unit of the RTL SIMT core: one warp load, store or atomic at a
// time, one memory request per active thread in thread order (no
// coalescing), the loaded values kept until the core writes them back pass
// by pass.
//
// Atomics (RV32A) thread after thread, each a read then (but for LR and a
// failed SC) a write, nothing else of the core on the port in between: a
// thread's AMO sees the one before it, as the C model's lanes in lane order
// (sim/simt/simt_lsu.c amo_lane).  LR keeps a reservation per slot and
// thread (address and the value read); SC succeeds when the thread holds one
// for the address and the word still has that value, and clears it either
// way; a launch clears its slot's.
//
// Life: start_i (kind, threads) -> cap_i once per pass (the threads'
// physical addresses and store data from the lane pipeline) -> go_i (every
// address legal) or drop_i (the instruction faulted: nothing is accessed) ->
// requests -> done_o (stores: every request accepted; loads: every response
// back) -> the core writes back (loads) and retires -> clear_i.
`include "fg_assert.svh"
module simt_lsu #(
  parameter  int NW = 8,
  parameter  int NL = 8,
  localparam int SW = (NW > 1) ? $clog2(NW) : 1,
  localparam int P  = 32 / NL,
  localparam int PW = (P > 1) ? $clog2(P) : 1,
  localparam int RAW = $clog2(NW * 32)          // reservation address: slot * 32 + thread
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             start_i,
  input  logic             store_i,
  input  logic [1:0]       size_i,       // log2 bytes
  input  logic             unsigned_i,
  input  logic [31:0]      mask_i,
  input  logic             amo_i,
  input  logic [4:0]       amo_op_i,     // funct5
  input  logic [SW-1:0]    slot_i,
  input  logic [NW-1:0]    rsv_clr_i,    // the slots whose reservations go (a warp starts or resumes there)
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
  logic              store_q, uns_q, amo_q;
  logic [4:0]        amo_op_q;
  logic [SW-1:0]     slot_q;
  // an atomic's thread: its read, its response, its write
  typedef enum logic [1:0] {AM_RD, AM_WAIT, AM_WR} am_e;
  am_e               am_q;
  logic [4:0]        am_t_q;
  logic [31:0]       am_wdata_q;
  logic [29:0]       a_am;                     // the atomic's thread: word address, operand (a_rt, d_rt at its read)
  logic [31:0]       am_s;
  logic [1:0]        size_q;
  logic [31:0]       req_todo_q, rsp_todo_q;   // threads still to request / to answer
  logic [32*32-1:0]  addr_q, data_q;           // per thread t at [t*32 +: 32]: address; store data, then the loaded value

  // thread t's word of a per-thread vector: a mux of constant part-selects
  function automatic logic [31:0] thr(input logic [32*32-1:0] v, input logic [4:0] t);
    thr = '0;
    for (int k = 0; k < 32; k++) if (t == 5'(k)) thr = v[k*32 +: 32];
  endfunction

  function automatic logic [1:0] thr_off(input logic [32*32-1:0] v, input logic [4:0] t);
    thr_off = '0;
    for (int k = 0; k < 32; k++) if (t == 5'(k)) thr_off = v[k*32 +: 2];
  endfunction

  // the same with the thread one-hot (an AND-OR: no decode of an index)
  function automatic logic [31:0] thr_oh(input logic [32*32-1:0] v, input logic [31:0] t_oh);
    thr_oh = '0;
    for (int k = 0; k < 32; k++) if (t_oh[k]) thr_oh = thr_oh | v[k*32 +: 32];
  endfunction

  function automatic logic [1:0] off_oh(input logic [32*32-1:0] v, input logic [31:0] t_oh);
    off_oh = '0;
    for (int k = 0; k < 32; k++) if (t_oh[k]) off_oh = off_oh | v[k*32 +: 2];
  endfunction

  // the lowest set bit of m (one carry chain), and its index
  function automatic logic [31:0] low_oh(input logic [31:0] m);
    low_oh = m & (~m + 32'd1);
  endfunction
  function automatic logic [4:0] enc(input logic [31:0] oh);
    enc = '0;
    for (int t = 0; t < 32; t++) if (oh[t]) enc = enc | 5'(t);
  endfunction

  // the thread of the next request, of the next response, and the value loaded
  wire [31:0] rt_oh = low_oh(req_todo_q);
  wire [31:0] at_oh = low_oh(rsp_todo_q);
  wire [4:0]  rt    = enc(rt_oh);
  wire [4:0]  at    = enc(at_oh);
  // the next response's byte offset, kept like a_rt below (lsu_next_rsp_exact)
  logic [1:0] off;
  wire  [31:0] rsp_rest = rsp_todo_q & ~at_oh;
  wire  [31:0] at2_oh   = low_oh(rsp_rest);
  wire [31:0] sh  = rsp_data_i >> {off, 3'b0};
  logic [31:0] ld;
  always_comb
    case (size_q)
      2'd0:    ld = uns_q ? {24'd0, sh[7:0]} : {{24{sh[7]}}, sh[7:0]};
      2'd1:    ld = uns_q ? {16'd0, sh[15:0]} : {{16{sh[15]}}, sh[15:0]};
      default: ld = sh;
    endcase

  // The next request's address and store data, kept in registers (equal to
  // thr(addr_q, rt) and thr(data_q, rt) while running: lsu_next_exact): the
  // port's address path starts at a register, not at the thread pick.  Each
  // cycle they take the thread that is next after this cycle: the one after
  // rt when a request goes, rt when it does not; before running, rt's words
  // as the passes are captured.
  logic [31:0] a_rt, d_rt;
  wire  [31:0] rest   = req_todo_q & ~rt_oh;
  wire  [31:0] rt2_oh = low_oh(rest);
  wire         cap_rt = cap_i && 32'(cap_pass_i) == 32'(rt) / NL;
  logic [31:0] cap_a_rt, cap_d_rt;
  always_comb begin
    cap_a_rt = '0;
    cap_d_rt = '0;
    for (int i = 0; i < NL; i++)
      if (32'(rt) % NL == i) begin
        cap_a_rt = cap_addr_i[i*32 +: 32];
        cap_d_rt = cap_data_i[i*32 +: 32];
      end
  end
  wire [1:0]  roff = a_rt[1:0];
  wire        am_wr = amo_q && am_q == AM_WR;
  assign req_valid_o = st_q == ST_RUN && (amo_q ? (am_q == AM_RD && req_todo_q != '0) || am_wr : req_todo_q != '0);
  assign req_we_o    = amo_q ? am_wr : store_q;
  assign req_addr_o  = am_wr ? {a_am, 2'b00} : {a_rt[31:2], 2'b00};
  assign req_wdata_o = am_wr ? am_wdata_q : d_rt << {roff, 3'b0};
  assign req_be_o    = size_q == 2'd0 ? 4'b0001 << roff : size_q == 2'd1 ? 4'b0011 << roff : 4'b1111;

  wire fire = req_valid_o && req_ready_i;

  // reservations: valid bits per slot and thread, address and value in a RAM
  // read at the next thread to request (rt: stable for at least the cycle
  // before its read goes out, and no write touches its entry meanwhile), so
  // that the entry is compared with the thread's address as the read goes
  // out and only the value is left for the response (a cycle later at the
  // earliest)
  logic [NW*32-1:0] rsv_v_q;
  logic [61:0]      rsv_mem [NW*32];
  logic [61:0]      rsv_rd;
  logic             rsv_we;
  logic [61:0]      rsv_wdata;
  wire [RAW-1:0]    rsv_raddr = RAW'(32'(slot_q) * 32 + 32'(rt));
  logic             rsv_aeq_q;                 // the entry's address is the thread's (at its read)
  logic [31:0]      rsv_val_q;                 // the entry's value
  wire [RAW-1:0]    rsv_waddr = RAW'(32'(slot_q) * 32 + 32'(am_t_q));
  always_ff @(posedge clk_i) begin
    if (rsv_we) rsv_mem[rsv_waddr] <= rsv_wdata;
    rsv_rd <= rsv_mem[rsv_raddr];
  end

  // an atomic's response: the value for rd, the word to write, the reservation
  wire [31:0] am_old = rsp_data_i;
  wire        am_rsp = amo_q && st_q == ST_RUN && am_q == AM_WAIT && rsp_valid_i;
  wire        sc_ok  = rsv_v_q[32'(slot_q) * 32 + 32'(am_t_q)] && rsv_aeq_q && rsv_val_q == am_old;
  logic [31:0] am_new, am_res;
  logic        am_write;
  always_comb begin
    am_write = 1'b1;
    am_res   = am_old;
    case (amo_op_q)
      5'h02:   begin am_new = am_old; am_write = 1'b0; end                       // LR
      5'h03:   begin am_new = am_s; am_write = sc_ok; am_res = {31'd0, !sc_ok}; end  // SC
      5'h01:   am_new = am_s;                                                     // swap
      5'h04:   am_new = am_old ^ am_s;
      5'h0c:   am_new = am_old & am_s;
      5'h08:   am_new = am_old | am_s;
      5'h10:   am_new = $signed(am_old) < $signed(am_s) ? am_old : am_s;
      5'h14:   am_new = $signed(am_old) > $signed(am_s) ? am_old : am_s;
      5'h18:   am_new = am_old < am_s ? am_old : am_s;
      5'h1c:   am_new = am_old > am_s ? am_old : am_s;
      default: am_new = am_old + am_s;                                            // add
    endcase
    rsv_we    = am_rsp && amo_op_q == 5'h02;
    rsv_wdata = {a_am, am_old};
  end
  wire fire_adv = fire && !am_wr;
  // nothing left to request or answer after this cycle, no atomic's write owed but the one in AM_WAIT's
  wire run_end  = (fire_adv ? rest : req_todo_q) == '0 && (rsp_valid_i ? rsp_rest : rsp_todo_q) == '0 &&
                  !(amo_q && am_q == AM_WR && !fire);
  always_ff @(posedge clk_i)
    if (st_q == ST_CAP) begin
      if (cap_rt) begin
        a_rt <= cap_a_rt;
        d_rt <= cap_d_rt;
      end else begin
        a_rt <= thr_oh(addr_q, rt_oh);
        d_rt <= thr_oh(data_q, rt_oh);
      end
    end else if (fire_adv) begin
      a_rt <= thr_oh(addr_q, rt2_oh);
      d_rt <= thr_oh(data_q, rt2_oh);
    end
  logic [1:0] cap_off_at;
  always_comb begin
    cap_off_at = '0;
    for (int i = 0; i < NL; i++) if (32'(at) % NL == i) cap_off_at = cap_addr_i[i*32 +: 2];
  end
  always_ff @(posedge clk_i)
    if (st_q == ST_CAP) off <= cap_i && 32'(cap_pass_i) == 32'(at) / NL ? cap_off_at : off_oh(addr_q, at_oh);
    else if (rsp_valid_i) off <= off_oh(addr_q, at2_oh);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q       <= ST_IDLE;
      req_todo_q <= '0;
      rsp_todo_q <= '0;
      rsv_v_q    <= '0;
    end else begin
      for (int s = 0; s < NW; s++) if (rsv_clr_i[s]) rsv_v_q[s*32 +: 32] <= '0;
      case (st_q)
        ST_IDLE: if (start_i) begin
          st_q       <= ST_CAP;
          store_q    <= store_i;
          size_q     <= size_i;
          uns_q      <= unsigned_i;
          amo_q      <= amo_i;
          amo_op_q   <= amo_op_i;
          slot_q     <= slot_i;
          am_q       <= AM_RD;
          req_todo_q <= mask_i;
          rsp_todo_q <= store_i ? '0 : mask_i;
        end
        ST_CAP: if (drop_i) st_q <= ST_IDLE;
                else if (go_i) st_q <= ST_RUN;
        ST_RUN: begin
          if (fire_adv) req_todo_q <= rest;
          if (rsp_valid_i) rsp_todo_q <= rsp_rest;
          if (amo_q) begin
            case (am_q)
              AM_RD:   if (fire) begin
                am_q   <= AM_WAIT;
                am_t_q <= rt;
                a_am   <= a_rt[31:2];
                am_s   <= d_rt;
                rsv_aeq_q <= rsv_rd[61:32] == a_rt[31:2];
                rsv_val_q <= rsv_rd[31:0];
              end
              AM_WAIT: if (rsp_valid_i) begin
                am_q       <= am_write ? AM_WR : AM_RD;
                am_wdata_q <= am_new;
              end
              default: if (fire) am_q <= AM_RD;
            endcase
            if (am_rsp && amo_op_q == 5'h02) rsv_v_q[32'(slot_q) * 32 + 32'(am_t_q)] <= 1'b1;
            if (am_rsp && amo_op_q == 5'h03) rsv_v_q[32'(slot_q) * 32 + 32'(am_t_q)] <= 1'b0;
          end
          // (the SC's outcome, late after the reservation's read, enters last)
          if (run_end && !(amo_q && am_q == AM_WAIT && am_write)) st_q <= ST_DONE;
        end
        default: if (clear_i) st_q <= ST_IDLE;
      endcase
      for (int t = 0; t < 32; t++) begin
        if (st_q == ST_CAP && cap_i && 32'(cap_pass_i) == t / NL) begin
          addr_q[t*32 +: 32] <= cap_addr_i[(t % NL)*32 +: 32];
          data_q[t*32 +: 32] <= cap_data_i[(t % NL)*32 +: 32];
        end
        if (st_q == ST_RUN && rsp_valid_i && at_oh[t]) data_q[t*32 +: 32] <= amo_q ? am_res : ld;
      end
    end
  end

  // the words of pass p's threads (thread p * NL + i at word i): one slice of v
  function automatic logic [NL*32-1:0] pass_words(input logic [32*32-1:0] v, input logic [PW-1:0] p);
    pass_words = '0;
    for (int k = 0; k < P; k++) if (32'(p) == k) pass_words = v[k*NL*32 +: NL*32];
  endfunction
  always_comb res_o = pass_words(data_q, rd_pass_i);

  assign idle_o = st_q == ST_IDLE;
  assign done_o = st_q == ST_DONE;

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(lsu_start_when_idle, !start_i || st_q == ST_IDLE)
      `FG_ASSERT(lsu_cap_after_start, !cap_i || st_q == ST_CAP)
      // the kept next request and next response offset are those of rt and at
      `FG_ASSERT(lsu_next_exact, st_q != ST_RUN || req_todo_q == '0 ||
                                 (a_rt == thr(addr_q, rt) && d_rt == thr(data_q, rt)))
      `FG_ASSERT(lsu_next_rsp_exact, st_q != ST_RUN || rsp_todo_q == '0 || off == thr_off(addr_q, at))
      // a response belongs to a load this unit requested and has not been answered
      `FG_ASSERT(lsu_rsp_expected, !rsp_valid_i || (st_q == ST_RUN && (rsp_todo_q & ~req_todo_q) != '0))
    end
  end
endmodule
