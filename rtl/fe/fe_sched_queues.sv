// F/E-bit DRAM scheduler queues (F/E paper Sec. 4.1-4.5, 6.3), placed in front
// of the DRAM scheduler of a GPU memory partition.
//
// Requests are sorted into three strictly ordered queues (Sec. 4.3):
//   queue 0 non-triggered (trigger none, or outside the tracked region),
//   queue 1 triggered CPU, queue 2 triggered GPU.
// Only heads are examined.  A head that needs its line's F/E bits (in region,
// with a trigger or an action) gets them by a lookup in fe_bits and keeps them
// in a per-queue head-bits register; every later write to that line (actions
// of requests leaving other queues, initialisation) is snooped into the
// register, which is how a blocked head is released (Sec. 4.3).  A coalesced
// request leaves only when every masked word satisfies its trigger (4.1).
// Priority non-triggered > triggered CPU > triggered GPU (Sec. 6.3).  The
// winner moves into the registered output toward the DRAM scheduler and its
// action is applied to the F/E bits in that same cycle ("as it leaves").
//
// Handshakes (all outputs depend on state only):
//   request: accepted when req_valid_i && req_ready_o[q], where q is the
//     request's queue (fe_sched_queue_of() in the C twin); per-queue ready so a
//     full, blocked triggered queue never holds off the request that would
//     release it (the interlock of Sec. 4.3/4.5 cannot form).
//   out / nack: registered, valid/ready; held stable while not taken.
//   init: accepted when init_valid_i && init_ready_o; requests are held off
//     (req_ready_o = 0, nothing leaves) while it runs, one line per cycle.
//   reset: clears the F/E store (every line empty, one per cycle: REGION_LINES
//     cycles with init_ready_o = req_ready_o = 0) before anything else, so no
//     request is judged on never-written storage.
// GPU defaults (Sec. 4.1): with req_dflt_i set on a GPU request, reads become
// wait-full / no action and writes no trigger / fill; CPU requests always use
// req_trig_i / req_act_i as the host API gave them (Sec. 4.4).  Codes 3 of
// trigger and action mean none.
// Beyond the paper: per-queue watchdog (wdog_limit_i cycles blocked -> NACK
// carrying the request, nacks_o++, err_o set; 0 = off), counters, and
// stall_mc_o (CM-BAL Sec. 3.2: a request was offered this cycle but its queue
// was full; registered, so it reports the previous cycle).
//
// RTL style (docs/RTL_STYLE.md): trigger, action and queue codes from fe_pkg
// (rtl/fe/fe_enc.toml, the twin's sim/twin/gen/fe_sched_queues_enc.h from
// the same list); named assertions (rtl/include/fg_assert.svh); parameters
// the C twin refuses stop elaboration; derived widths are localparams.
`include "fg_assert.svh"
`include "fg_comb.svh"
`include "fg_enum.svh"
module fe_sched_queues #(
  parameter int          ADDR_W       = 32,
  parameter int          WORDS        = 32,  // F/E bits per line = request mask width
  parameter int          GRAN         = 4,   // bytes per F/E bit (Sec. 4.2: 4)
  parameter logic [31:0] REGION_BASE  = 0,   // byte address of the tracked region (line aligned)
  parameter int          REGION_LINES = 256, // tracked lines
  parameter int          QD_NT        = 8,
  parameter int          QD_CPU       = 8,
  parameter int          QD_GPU       = 8,
  parameter int          TAG_W        = 8,
  parameter int          WD_W         = 16,
  parameter int          CNT_W        = 32,
  parameter int          INIT_W       = 16,
  parameter int          LK_REG       = 0,   // 1: a lookup's address and data registered at the RAM (+2 cycles)
  localparam int         LB           = $clog2(WORDS * GRAN),  // byte offset bits of a line
  localparam int         LN_W         = ADDR_W - LB,            // absolute line number width
  localparam int         BASE_LINE    = REGION_BASE >> LB,
  localparam int         IW           = (REGION_LINES > 1) ? $clog2(REGION_LINES) : 1  // line index
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // requests from the L2 / interconnect
  input  logic              req_valid_i,
  output logic [2:0]        req_ready_o,   // one per queue
  input  logic              req_src_i,     // 0 CPU, 1 GPU
  input  logic              req_we_i,
  input  logic              req_dflt_i,    // apply the GPU defaults
  input  logic [1:0]        req_trig_i,
  input  logic [1:0]        req_act_i,
  input  logic [ADDR_W-1:0] req_addr_i,
  input  logic [WORDS-1:0]  req_mask_i,
  input  logic [TAG_W-1:0]  req_tag_i,
  output logic              stall_mc_o,
  // merged output toward the DRAM scheduler
  output logic              out_valid_o,
  input  logic              out_ready_i,
  output logic              out_src_o,
  output logic              out_we_o,
  output logic [1:0]        out_trig_o,
  output logic [1:0]        out_act_o,
  output logic [ADDR_W-1:0] out_addr_o,
  output logic [WORDS-1:0]  out_mask_o,
  output logic [TAG_W-1:0]  out_tag_o,
  output logic [1:0]        out_q_o,
  // watchdog NACKs back to the requester
  output logic              nack_valid_o,
  input  logic              nack_ready_i,
  output logic              nack_src_o,
  output logic              nack_we_o,
  output logic [1:0]        nack_trig_o,
  output logic [1:0]        nack_act_o,
  output logic [ADDR_W-1:0] nack_addr_o,
  output logic [WORDS-1:0]  nack_mask_o,
  output logic [TAG_W-1:0]  nack_tag_o,
  output logic [1:0]        nack_q_o,
  // start-up initialisation (Sec. 4.5)
  input  logic              init_valid_i,
  output logic              init_ready_o,
  input  logic              init_full_i,
  input  logic [ADDR_W-1:0] init_addr_i,
  input  logic [INIT_W-1:0] init_lines_i,
  // configuration and status
  input  logic [WD_W-1:0]   wdog_limit_i,
  output logic [2:0]        head_blocked_o,
  output logic [23:0]       q_count_o,     // {gpu, cpu, nt}, 8 bits each
  output logic [CNT_W-1:0]  stall_nt_o,    // cycles each head was blocked
  output logic [CNT_W-1:0]  stall_cpu_o,
  output logic [CNT_W-1:0]  stall_gpu_o,
  output logic [CNT_W-1:0]  releases_o,    // blocked heads released by a snooped action
  output logic [CNT_W-1:0]  nacks_o,
  output logic              err_o          // sticky: a watchdog fired
);
  `FG_IMPORT(fe_pkg)
  // Parameter legality, as the C twin (sim/twin/fe_sched_queues.c) refuses:
  // ports cross into C as 64-bit words at most; the line (WORDS * GRAN bytes)
  // a power of two, the region line aligned; queue counts fit q_count_o's 8
  // bits; the reset clear counts the region's lines in INIT_W bits.
  `FG_ASSERT_PARAM(g_chk_words, WORDS >= 1 && WORDS <= 64, "fe_sched_queues: WORDS must be 1..64")
  `FG_ASSERT_PARAM(g_chk_gran, GRAN >= 1 && ((WORDS * GRAN) & (WORDS * GRAN - 1)) == 0,
                   "fe_sched_queues: GRAN must be >= 1 and WORDS * GRAN a power of two")
  `FG_ASSERT_PARAM(g_chk_addr_w, ADDR_W > LB && ADDR_W <= 64,
                   "fe_sched_queues: ADDR_W must be above log2(WORDS * GRAN) and <= 64")
  `FG_ASSERT_PARAM(g_chk_base, (REGION_BASE & 32'(WORDS * GRAN - 1)) == 0,
                   "fe_sched_queues: REGION_BASE must be line aligned")
  `FG_ASSERT_PARAM(g_chk_lines, REGION_LINES >= 1 && 64'(REGION_LINES) < (64'd1 << INIT_W),
                   "fe_sched_queues: REGION_LINES must be 1..2**INIT_W-1")
  `FG_ASSERT_PARAM(g_chk_qd, QD_NT >= 1 && QD_NT <= 255 && QD_CPU >= 1 && QD_CPU <= 255 &&
                   QD_GPU >= 1 && QD_GPU <= 255, "fe_sched_queues: QD_NT, QD_CPU, QD_GPU must be 1..255")
  `FG_ASSERT_PARAM(g_chk_tag_w, TAG_W >= 1 && TAG_W <= 64, "fe_sched_queues: TAG_W must be 1..64")
  `FG_ASSERT_PARAM(g_chk_wd_w, WD_W >= 1 && WD_W <= 63, "fe_sched_queues: WD_W must be 1..63")
  `FG_ASSERT_PARAM(g_chk_cnt_w, CNT_W >= 1 && CNT_W <= 64, "fe_sched_queues: CNT_W must be 1..64")
  `FG_ASSERT_PARAM(g_chk_lk_reg, LK_REG == 0 || LK_REG == 1, "fe_sched_queues: LK_REG must be 0 or 1")
  `FG_ASSERT_PARAM(g_chk_init_w, INIT_W >= 1 && INIT_W <= 63, "fe_sched_queues: INIT_W must be 1..63")
  // queue entry: {line index in the region, needs its bits, tag, mask, addr,
  // act, trig, we, src}; the low OW bits are the request as it leaves.  The
  // region check, whether the request needs its line's bits (in the region,
  // with a trigger or an action) and the index are computed at intake, so a
  // head's checks start from flip-flops.
  localparam int E_SRC = 0, E_WE = 1, E_TRIG = 2, E_ACT = 4, E_ADDR = 6;
  localparam int E_MASK = E_ADDR + ADDR_W, E_TAG = E_MASK + WORDS, OW = E_TAG + TAG_W;
  localparam int E_NEED = OW, E_IDX = OW + 1, EW = E_IDX + IW;

  // Line number relative to the region, with a borrow bit: in the region iff
  // it is below REGION_LINES (an address under the base borrows and is huge).
  function automatic logic [LN_W:0] rel_line(input logic [LN_W-1:0] line);
    rel_line = {1'b0, line} - (LN_W+1)'(BASE_LINE);
  endfunction
  // the trigger rule of F/E 4.1 (wait-full: every masked word full; wait-empty:
  // every one empty), written apart from fe_trigger_check for the assertions
  function automatic logic trig_holds(input logic [1:0] trig, input logic [WORDS-1:0] mask,
                                      input logic [WORDS-1:0] bits);
    trig_holds = (trig == fe_pkg::FE_TRIG_FULL)  ? ((bits & mask) == mask) :
                 (trig == fe_pkg::FE_TRIG_EMPTY) ? ((bits & mask) == '0) : 1'b1;
  endfunction
  function automatic logic in_region(input logic [LN_W:0] rel);
    in_region = rel < (LN_W+1)'(REGION_LINES);
  endfunction

  // ------------------------------------------------------------ intake
  logic [1:0]    in_trig, in_act, in_q;
  logic [LN_W:0] in_rel;
  logic [IW-1:0] in_idx;
  logic          in_in;
  assign in_rel = rel_line(req_addr_i[ADDR_W-1:LB]);
  // A region of a power of two of lines aligned to its size (the default,
  // the memory system's and the test configuration) is the lines whose high
  // bits equal the base's: an equality of those bits, with the index the low
  // bits, instead of a subtract and a compare (the region check leads the
  // queue choice, the push and the FIFO's head register).
  localparam bit ALIGNED = REGION_LINES > 1 && (REGION_LINES & (REGION_LINES - 1)) == 0 &&
                              BASE_LINE % REGION_LINES == 0 && IW < LN_W;
  if (ALIGNED) begin : g_in_aligned
    localparam int HI_W = LN_W - IW;
    assign in_in  = req_addr_i[ADDR_W-1:LB+IW] == HI_W'(BASE_LINE >> IW);
    assign in_idx = req_addr_i[LB +: IW];
    logic unused_rel;
    assign unused_rel = ^in_rel;
  end else begin : g_in_any
    assign in_in  = in_region(in_rel);
    assign in_idx = in_rel[IW-1:0];
  end
  `FG_COMB_READBACK begin
    in_trig = (req_trig_i == 2'd3) ? fe_pkg::FE_TRIG_NONE : req_trig_i;
    in_act  = (req_act_i == 2'd3) ? fe_pkg::FE_ACT_NONE : req_act_i;
    if (req_dflt_i && req_src_i) begin  // GPU defaults, Sec. 4.1
      in_trig = req_we_i ? fe_pkg::FE_TRIG_NONE : fe_pkg::FE_TRIG_FULL;
      in_act  = req_we_i ? fe_pkg::FE_ACT_FILL : fe_pkg::FE_ACT_NONE;
    end
    if (in_trig == fe_pkg::FE_TRIG_NONE || !in_in) in_q = fe_pkg::FE_Q_NT;
    else in_q = req_src_i ? fe_pkg::FE_Q_GPU : fe_pkg::FE_Q_CPU;
  end
  logic [EW-1:0] in_entry;
  assign in_entry = {in_idx, in_in && (in_trig != fe_pkg::FE_TRIG_NONE || in_act != fe_pkg::FE_ACT_NONE), req_tag_i, req_mask_i, req_addr_i, in_act, in_trig,
                     req_we_i, req_src_i};

  // ------------------------------------------------------------ queues
  logic          busy, busy_d;
  // The F/E store's busy flag, as this side uses it: registered here from
  // the store's next value (open_q = !busy; go_q[q] = !busy && !hazard[q]),
  // so the leave decision and the intake start from flip-flops next to the
  // queues, not from the store's register, which sits among its block RAMs
  // (32 in the memory system's configuration) across the die (FPGA_TIMING.md).
  logic          open_q;
  logic [2:0]    go_q;
  logic [2:0]    q_push, q_pop, q_ready, q_valid;
  logic [EW-1:0] q_head [3];
  logic [7:0]    q_cnt  [3];
  logic [$clog2(QD_NT+1)-1:0]  cnt0;
  logic [$clog2(QD_CPU+1)-1:0] cnt1;
  logic [$clog2(QD_GPU+1)-1:0] cnt2;

  always_comb begin
    for (int q = 0; q < 3; q++) q_push[q] = rst_ni && req_valid_i && open_q && (in_q == 2'(q));
  end

  // The non-triggered queue's entries carry one more flag, "leaves without
  // bits" (!need): its head may leave on that flag alone (0 while the queue
  // is empty, as fg_fifo's data_o is), so neither the queue's count nor a
  // decode is in front of the leave decision.  Every entry of the
  // triggered queues needs its bits.
  logic        nt_free;
  logic [2:0]  free;
  fg_fifo #(.WIDTH(EW + 1), .DEPTH(QD_NT)) u_q_nt (
    .clk_i, .rst_ni, .valid_i(q_push[0]), .ready_o(q_ready[0]), .data_i({!in_entry[E_NEED], in_entry}),
    .valid_o(q_valid[0]), .ready_i(q_pop[0]), .data_o({nt_free, q_head[0]}), .count_o(cnt0));
  assign free = {2'b00, nt_free};
  fg_fifo #(.WIDTH(EW), .DEPTH(QD_CPU)) u_q_cpu (
    .clk_i, .rst_ni, .valid_i(q_push[1]), .ready_o(q_ready[1]), .data_i(in_entry),
    .valid_o(q_valid[1]), .ready_i(q_pop[1]), .data_o(q_head[1]), .count_o(cnt1));
  fg_fifo #(.WIDTH(EW), .DEPTH(QD_GPU)) u_q_gpu (
    .clk_i, .rst_ni, .valid_i(q_push[2]), .ready_o(q_ready[2]), .data_i(in_entry),
    .valid_o(q_valid[2]), .ready_i(q_pop[2]), .data_o(q_head[2]), .count_o(cnt2));
  assign q_cnt[0] = 8'(cnt0);
  assign q_cnt[1] = 8'(cnt1);
  assign q_cnt[2] = 8'(cnt2);

  // ------------------------------------------------------------ heads
  logic [2:0]       hb_valid_q;          // head bits register holds the head's line
  logic [WORDS-1:0] hb_q [3];
  // A lookup's read data (the F/E RAM's output, slow on an FPGA block RAM)
  // goes into the head register first; the trigger check of the head bits is
  // registered too (chk_q, sat_q: the check is off the leave decision's
  // path), so a head needing its bits leaves four cycles after it
  // reaches the head (six with LK_REG: the lookup's address registered in
  // front of the store's block RAMs and its data after them, fe_bits
  // LK_REG).  A write snooped into the head bits is checked in the
  // same cycle (its bits come from a register), so a release costs no more.
  logic [2:0]       chk_q, sat_q;        // registered check of the head's bits
  logic [2:0]       chk_d;
  logic             lk_rvalid, lk_pend, lk_apend;
  logic [1:0]       lk_rqid, lk_pqid, lk_aqid;
  logic [IW-1:0]    lk_aidx;
  logic [WORDS-1:0] lk_rdata;
  logic             snoop_we;
  logic [IW-1:0]    snoop_idx;
  logic [WORDS-1:0] snoop_bits;
  logic [2:0]       hit, release_q;
  logic [2:0]       snoop_sat;
  logic [2:0]       need, sat, ok_raw, blk_raw, ok, blocked, due, due_ok, hazard;
  logic [IW-1:0]    h_idx [3];
  logic [1:0]       h_trig [3], h_act [3];
  logic [WORDS-1:0] h_mask [3];

  for (genvar q = 0; q < 3; q++) begin : g_head
    assign h_trig[q] = q_head[q][E_TRIG +: 2];
    assign h_act[q]  = q_head[q][E_ACT +: 2];
    assign h_mask[q] = q_head[q][E_MASK +: WORDS];
    assign h_idx[q]  = q_head[q][E_IDX +: IW];
    fe_trigger_check #(.WORDS(WORDS)) u_check (
      .free_i(free[q]), .need_i(q_head[q][E_NEED]),
      .trig_i(h_trig[q]), .mask_i(h_mask[q]),
      .bits_i(hb_q[q]), .snoop_bits_i(snoop_bits), .snoop_hit_i(hit[q]),
      .chk_valid_i(chk_q[q]), .chk_sat_i(sat_q[q]),
      .need_o(need[q]), .sat_o(sat[q]), .snoop_sat_o(snoop_sat[q]), .ok_o(ok_raw[q]),
      .blocked_o(blk_raw[q]));
    // nothing leaves, waits or is looked up while the initialisation runs;
    // a head on the line an action is being written to (below) waits a cycle
    assign ok[q]      = ok_raw[q] && go_q[q];
    assign blocked[q] = blk_raw[q] && open_q;
    fe_watchdog #(.W(WD_W)) u_wdog (
      .clk_i, .rst_ni, .blocked_i(blocked[q]), .pop_i(q_pop[q]), .limit_i(wdog_limit_i),
      .due_o(due[q]));
  end

  // ------------------------------------------------------------ leave: serve or NACK
  logic       out_valid_q, nack_valid_q;
  logic [OW-1:0] out_q, nack_q;
  logic [1:0] out_qid_q, nack_qid_q;
  logic       disp, nack;
  logic [1:0] disp_q, nack_sel;

  `FG_COMB_READBACK begin
    disp_q = ok[0] ? fe_pkg::FE_Q_NT : ok[1] ? fe_pkg::FE_Q_CPU : fe_pkg::FE_Q_GPU;  // Sec. 6.3
    disp   = (|ok) && (!out_valid_q || out_ready_i);
    nack_sel = due_ok[0] ? fe_pkg::FE_Q_NT : due_ok[1] ? fe_pkg::FE_Q_CPU : fe_pkg::FE_Q_GPU;
    nack     = (|due_ok) && (!nack_valid_q || nack_ready_i);
    for (int q = 0; q < 3; q++)
      q_pop[q] = (disp && disp_q == 2'(q)) || (nack && nack_sel == 2'(q));
  end

  // The action of the leaving request (a read-modify-write of its line's bits,
  // the old bits being the head register), written to the RAM and snooped
  // into the other heads' registers at the next edge (off the leave
  // decision's path; the paper's "as it leaves" plus one cycle).  In
  // that cycle a head on the same line waits (hazard): its bits are the ones
  // before the action, so it neither leaves on them, nor computes an action
  // from them, nor is NACKed on them (its watchdog count goes on).
  logic             act_wr, wr_pend_q;
  logic [WORDS-1:0] act_bits, wr_bits_q;
  logic [IW-1:0]    wr_idx_q;
  // comb_settle: feeds the leave block (due_ok) and reads it (disp), with no
  // bit depending on itself and each variable assigned once (no pulse)
  always_comb begin
    act_wr   = disp && need[disp_q] && h_act[disp_q] != fe_pkg::FE_ACT_NONE;
    act_bits = (h_act[disp_q] == fe_pkg::FE_ACT_EMPTY) ? (hb_q[disp_q] & ~h_mask[disp_q])
                                          : (hb_q[disp_q] | h_mask[disp_q]);
    due_ok = due & ~hazard;
  end
  // hazard[q] = wr_pend_q && need[q] && h_idx[q] == wr_idx_q, registered
  // (the index compare off the leave decision's path).  A head
  // that leaves at the edge is replaced by one with no bits, which cannot
  // leave, be blocked or be NACKed in that cycle anyway, so it is left out.
  logic [2:0] hazard_q;
  assign hazard = hazard_q;
  // the heads' line indices compared pairwise from the head registers, the
  // leaving queue (disp_q, late) only picks one; a queue is not
  // compared with itself (when it is the leaving one its head leaves)
  logic       same01, same02, same12;
  logic [2:0] same_disp;  // head q is on the leaving head's line
  `FG_COMB_READBACK begin
    same01 = h_idx[0] == h_idx[1];
    same02 = h_idx[0] == h_idx[2];
    same12 = h_idx[1] == h_idx[2];
    same_disp[0] = (disp_q == 2'd1) ? same01 : same02;
    same_disp[1] = (disp_q == 2'd0) ? same01 : same12;
    same_disp[2] = (disp_q == 2'd0) ? same02 : same12;
  end
  logic [2:0] hazard_d;
  always_comb begin
    for (int q = 0; q < 3; q++) hazard_d[q] = act_wr && !q_pop[q] && need[q] && same_disp[q];
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wr_pend_q <= 1'b0;
      hazard_q  <= '0;
      open_q    <= 1'b0;
      go_q      <= '0;
    end else begin
      wr_pend_q <= act_wr;
      hazard_q  <= hazard_d;
      open_q    <= !busy_d;
      go_q      <= busy_d ? 3'b000 : ~hazard_d;
    end
  end
  always_ff @(posedge clk_i) begin  // qualified by wr_pend_q
    wr_idx_q  <= h_idx[disp_q];
    wr_bits_q <= act_bits;
  end

  // One lookup per cycle when the port is free: the highest-priority head
  // that needs its bits, has none and has no lookup in flight.  Whether it
  // has either is one register per queue (lkd_q = hb_valid_q | the lookup in
  // flight is its own: the F/E RAM's address, which fans out to
  // every block RAM of the store, 32 in the memory system's configuration,
  // starts from as few logic levels as possible).
  // The choice (lk_sel, hence the address) leaves busy out: while busy there
  // is no lookup, and the port's address is the init sequencer's.
  // The address is chosen by the candidate flags themselves, not through
  // the encoded lk_sel: one logic level less in front of the RAMs.  With
  // LK_REG the store reads the lookup at the next edge from registers, so
  // the port must be free then too: no action written (act_wr: one leaves
  // now) and no initialisation (busy_d).
  logic [2:0]    lk_cand, lkd_q, lkd_d;
  logic          lk;
  logic [1:0]    lk_sel;
  logic [IW-1:0] lk_idx;
  `FG_COMB_READBACK begin
    for (int q = 0; q < 3; q++)
      lk_cand[q] = need[q] && !lkd_q[q];
    lk_sel = lk_cand[0] ? fe_pkg::FE_Q_NT : lk_cand[1] ? fe_pkg::FE_Q_CPU : fe_pkg::FE_Q_GPU;
    lk_idx = lk_cand[0] ? h_idx[0] : lk_cand[1] ? h_idx[1] : h_idx[2];
    lk     = (|lk_cand) && open_q && !wr_pend_q &&  // the port writes a pending action
             (LK_REG == 0 || (!act_wr && !busy_d));
  end

  logic             init_ready;

  fe_bits #(.WORDS(WORDS), .LINES(REGION_LINES), .LN_W(LN_W), .BASE_LINE(BASE_LINE),
            .CNT_W(INIT_W), .LK_REG(LK_REG)) u_bits (
    .clk_i, .rst_ni,
    .init_valid_i, .init_ready_o(init_ready), .init_full_i,
    .init_line_i(init_addr_i[ADDR_W-1:LB]), .init_lines_i, .busy_o(busy), .busy_d_o(busy_d),
    .wr_i(wr_pend_q), .wr_idx_i(wr_idx_q), .wr_bits_i(wr_bits_q),
    .rd_i(lk), .rd_idx_i(lk_idx), .rd_qid_i(lk_sel),
    .rvalid_o(lk_rvalid), .rqid_o(lk_rqid), .rdata_o(lk_rdata),
    .apend_o(lk_apend), .apend_qid_o(lk_aqid), .apend_idx_o(lk_aidx),
    .rpend_o(lk_pend), .rpend_qid_o(lk_pqid),
    .snoop_we_o(snoop_we), .snoop_idx_o(snoop_idx), .snoop_bits_o(snoop_bits));

  // Head-bit registers: captured from a lookup (its data arrives in the
  // cycle after the read), refreshed by every write to the same line (snoop,
  // also in the capturing cycle), dropped when the head leaves.  A blocked
  // head whose trigger the snooped write satisfies is "released".  The check
  // registers follow: valid at the next edge when the head stays and its bits
  // there are not fresh from the RAM (they were valid already, or a write is
  // snooped into them), checked on those bits.
  logic [WORDS-1:0] hb_d [3];
  logic [2:0] hbv_d;
  always_comb begin
    for (int q = 0; q < 3; q++) begin
      // (a head being looked up stays: it can neither leave nor be NACKed)
      lkd_d[q] = hbv_d[q] || (lk && lk_sel == 2'(q)) || (lk_apend && lk_aqid == 2'(q)) ||
                 (lk_pend && lk_pqid == 2'(q));
    end
  end
  `FG_COMB_READBACK begin
    for (int q = 0; q < 3; q++) begin
      hb_d[q]  = hb_q[q];
      hbv_d[q] = hb_valid_q[q];
      if (lk_rvalid && lk_rqid == 2'(q)) begin
        hb_d[q]  = lk_rdata;
        hbv_d[q] = 1'b1;
      end
      hit[q] = snoop_we && q_valid[q] && need[q] && hbv_d[q] && h_idx[q] == snoop_idx;
      if (hit[q]) hb_d[q] = snoop_bits;
      if (q_pop[q]) hbv_d[q] = 1'b0;
      chk_d[q]    = hbv_d[q] && (hb_valid_q[q] || hit[q]);
    end
  end
  // (a snooped head is not popped: the snoop is a write on its line, so it is
  // held by the hazard or by the init, asserted below)
  assign release_q = blocked & hit & snoop_sat;

  // ------------------------------------------------------------ state
  logic [CNT_W-1:0] stall_q [3];
  logic [CNT_W-1:0] releases_q, nacks_q;
  logic [1:0]       rel_n_q;  // releases of the last cycle, not yet in releases_q
  logic             err_q, stall_mc_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      hb_valid_q   <= '0;
      lkd_q        <= '0;
      chk_q        <= '0;
      out_valid_q  <= 1'b0;
      nack_valid_q <= 1'b0;
      stall_q[0]   <= '0;
      stall_q[1]   <= '0;
      stall_q[2]   <= '0;
      releases_q   <= '0;
      rel_n_q      <= '0;
      nacks_q      <= '0;
      err_q        <= 1'b0;
      stall_mc_q   <= 1'b0;
    end else begin
      hb_valid_q <= hbv_d;
      lkd_q      <= lkd_d;
      chk_q      <= chk_d;
      if (disp) out_valid_q <= 1'b1;
      else if (out_ready_i) out_valid_q <= 1'b0;
      if (nack) nack_valid_q <= 1'b1;
      else if (nack_ready_i) nack_valid_q <= 1'b0;
      for (int q = 0; q < 3; q++) if (blocked[q]) stall_q[q] <= stall_q[q] + 1'b1;
      // (the count of a cycle's releases is registered before it is added;
      // releases_o adds it back, so the port sees the same count)
      rel_n_q    <= 2'($countones(release_q));
      releases_q <= releases_q + CNT_W'(rel_n_q);
      if (nack) nacks_q <= nacks_q + 1'b1;  // (an enable: off the adder's carry-in)
      if (nack) err_q <= 1'b1;
      stall_mc_q <= req_valid_i && !q_ready[in_q];
    end
  end

  // Head bits and output data: reset too, so that a reset in mid-run leaves
  // only the RAMs (F/E store, FIFO storage) holding old contents.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int q = 0; q < 3; q++) hb_q[q] <= '0;
      sat_q      <= '0;
      out_q      <= '0;
      out_qid_q  <= '0;
      nack_q     <= '0;
      nack_qid_q <= '0;
    end else begin
      for (int q = 0; q < 3; q++) hb_q[q] <= hb_d[q];
      sat_q <= sat;
      if (disp) begin
        out_q     <= q_head[disp_q][OW-1:0];
        out_qid_q <= disp_q;
      end
      if (nack) begin
        nack_q     <= q_head[nack_sel][OW-1:0];
        nack_qid_q <= nack_sel;
      end
    end
  end

  // ------------------------------------------------------------ outputs
  assign req_ready_o    = open_q ? q_ready : 3'b000;
  assign stall_mc_o     = stall_mc_q;
  assign out_valid_o    = out_valid_q;
  assign out_src_o      = out_q[E_SRC];
  assign out_we_o       = out_q[E_WE];
  assign out_trig_o     = out_q[E_TRIG +: 2];
  assign out_act_o      = out_q[E_ACT +: 2];
  assign out_addr_o     = out_q[E_ADDR +: ADDR_W];
  assign out_mask_o     = out_q[E_MASK +: WORDS];
  assign out_tag_o      = out_q[E_TAG +: TAG_W];
  assign out_q_o        = out_qid_q;
  assign nack_valid_o   = nack_valid_q;
  assign nack_src_o     = nack_q[E_SRC];
  assign nack_we_o      = nack_q[E_WE];
  assign nack_trig_o    = nack_q[E_TRIG +: 2];
  assign nack_act_o     = nack_q[E_ACT +: 2];
  assign nack_addr_o    = nack_q[E_ADDR +: ADDR_W];
  assign nack_mask_o    = nack_q[E_MASK +: WORDS];
  assign nack_tag_o     = nack_q[E_TAG +: TAG_W];
  assign nack_q_o       = nack_qid_q;
  assign init_ready_o   = init_ready;
  assign head_blocked_o = blocked;
  assign q_count_o      = {q_cnt[2], q_cnt[1], q_cnt[0]};
  assign stall_nt_o     = stall_q[0];
  assign stall_cpu_o    = stall_q[1];
  assign stall_gpu_o    = stall_q[2];
  assign releases_o     = releases_q + CNT_W'(rel_n_q);
  assign nacks_o        = nacks_q;
  assign err_o          = err_q;

  // ------------------------------------------------------------ assertions
  // Conservation: every accepted request is in a queue, or has left exactly
  // once (served or NACKed).  Per-queue order comes from the FIFOs; the rest:
  // nothing leaves with an unsatisfied trigger, a NACK is only ever a blocked
  // head, one request never both served and NACKed, and the cached head bits
  // equal the RAM contents when the head leaves with an action.
  logic [CNT_W-1:0] acc_q, left_q;
  logic             lim_on_q;  // the watchdog was on in the last cycle (it uses that limit)
  always_ff @(posedge clk_i) begin
    lim_on_q <= wdog_limit_i != '0;
    if (!rst_ni) begin
      acc_q  <= '0;
      left_q <= '0;
    end else begin
      acc_q  <= acc_q + CNT_W'(|(q_push & q_ready));
      left_q <= left_q + CNT_W'(disp) + CNT_W'(nack);
    end
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // both sides cast: Yosys sizes a narrowing cast's context by its
      // operand (docs/FORMAL.md, formal/repro/yosys_size_cast.sv)
      `FG_ASSERT(feq_accepted_eq_left_plus_held, CNT_W'(acc_q - left_q) ==
                 CNT_W'(CNT_W'(q_cnt[0]) + CNT_W'(q_cnt[1]) + CNT_W'(q_cnt[2])))
      `FG_ASSERT(feq_leaves_satisfied,
                 !disp || !need[disp_q] || (hb_valid_q[disp_q] && sat[disp_q] && !hit[disp_q]))
      `FG_ASSERT(feq_check_of_held_bits, (chk_q & ~hb_valid_q) == '0)
      `FG_ASSERT(feq_nack_only_blocked, !nack || (blocked[nack_sel] && !hazard[nack_sel] && lim_on_q))
      `FG_ASSERT(feq_serve_nack_distinct, !(disp && nack) || disp_q != nack_sel)
      // F/E 4.3: a head stalled on its trigger is "allowed to proceed" once the
      // condition is satisfied by a request through another queue: a release
      // is counted only for a blocked head whose trigger the snooped bits meet
      `FG_ASSERT(feq_release_satisfies, (release_q & ~{trig_holds(h_trig[2], h_mask[2], snoop_bits),
                                                      trig_holds(h_trig[1], h_mask[1], snoop_bits),
                                                      trig_holds(h_trig[0], h_mask[0], snoop_bits)}) == '0)
      // F/E 6.3: "non-triggered requests have the highest priority, followed
      // by triggered CPU requests, and then triggered GPU requests": a head
      // leaves only when no head of a higher-priority queue can leave
      `FG_ASSERT(feq_priority_nt_cpu_gpu, !disp || disp_q == fe_pkg::FE_Q_NT ||
                 (!ok[0] && (disp_q == fe_pkg::FE_Q_CPU || !ok[1])))
      `FG_ASSERT(feq_busy_copies, open_q == !busy && go_q == (busy ? 3'b000 : ~hazard))
      `FG_ASSERT(feq_idle_while_busy, !(busy && (disp || nack || (|(q_push & q_ready)))))
      `FG_ASSERT(feq_blocked_needs_bits, (blocked & ~need) == '0)
      `FG_ASSERT(feq_region_check, !req_valid_i || (in_in == in_region(in_rel) && in_idx == in_rel[IW-1:0]))
      // a lookup's data arrives for a head that is still there and has no bits
      `FG_ASSERT(feq_lookup_for_head, !lk_rvalid || (need[lk_rqid] && !hb_valid_q[lk_rqid] && !q_pop[lk_rqid]))
      // (LK_REG) a registered lookup is of a head that is still there, has
      // no bits and no other lookup in flight, and reads that head's line
      `FG_ASSERT(feq_lookup_reg_for_head, !lk_apend || (need[lk_aqid] && !hb_valid_q[lk_aqid] &&
                                                        !q_pop[lk_aqid] && lk_aidx == h_idx[lk_aqid]))
      `FG_ASSERT(feq_lookup_data_for_head, !lk_pend || (need[lk_pqid] && !hb_valid_q[lk_pqid] && !q_pop[lk_pqid]))
      `FG_ASSERT(feq_lookup_stages_apart, !(lk_apend && lk_pend && lk_aqid == lk_pqid) &&
                                          !(lk_apend && lk_rvalid && lk_aqid == lk_rqid) &&
                                          !(lk_pend && lk_rvalid && lk_pqid == lk_rqid))
      `FG_ASSERT(feq_snooped_head_stays, (hit & q_pop) == '0)
      `FG_ASSERT(feq_init_line_aligned, !(init_valid_i && init_ready) || init_addr_i[LB-1:0] == '0)
      `FG_ASSERT(feq_triggered_heads, (!q_valid[1] || h_trig[1] != fe_pkg::FE_TRIG_NONE) &&
                                      (!q_valid[2] || h_trig[2] != fe_pkg::FE_TRIG_NONE))
    end
  end
  // what the head checks rely on (fe_trigger_check): an empty queue's head
  // entry is 0 (fg_fifo), every entry of a triggered queue needs its bits,
  // and a valid check is of a head that needs its bits; the registered
  // hazard is exact where it matters.  One named assertion per queue
  // (_0/_1/_2), written out: a loop would give Yosys one name three times,
  // and helper vectors would be coverage points that never toggle.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(feq_hazard_exact_0, !(need[0] && hb_valid_q[0]) ||
                                     hazard[0] == (wr_pend_q && h_idx[0] == wr_idx_q))
      `FG_ASSERT(feq_empty_head_zero_0, q_valid[0] || q_head[0] == '0)
      `FG_ASSERT(feq_need_flag_0, nt_free == (q_valid[0] && !need[0]))
      `FG_ASSERT(feq_check_needs_bits_0, !chk_q[0] || need[0])
      `FG_ASSERT(feq_lookup_flag_0, lkd_q[0] == (hb_valid_q[0] || (lk_rvalid && lk_rqid == 2'd0) ||
                                                 (lk_apend && lk_aqid == 2'd0) ||
                                                 (lk_pend && lk_pqid == 2'd0)))
      `FG_ASSERT(feq_hazard_exact_1, !(need[1] && hb_valid_q[1]) ||
                                     hazard[1] == (wr_pend_q && h_idx[1] == wr_idx_q))
      `FG_ASSERT(feq_empty_head_zero_1, q_valid[1] || q_head[1] == '0)
      `FG_ASSERT(feq_need_flag_1, need[1] == q_valid[1])
      `FG_ASSERT(feq_check_needs_bits_1, !chk_q[1] || need[1])
      `FG_ASSERT(feq_lookup_flag_1, lkd_q[1] == (hb_valid_q[1] || (lk_rvalid && lk_rqid == 2'd1) ||
                                                 (lk_apend && lk_aqid == 2'd1) ||
                                                 (lk_pend && lk_pqid == 2'd1)))
      `FG_ASSERT(feq_hazard_exact_2, !(need[2] && hb_valid_q[2]) ||
                                     hazard[2] == (wr_pend_q && h_idx[2] == wr_idx_q))
      `FG_ASSERT(feq_empty_head_zero_2, q_valid[2] || q_head[2] == '0)
      `FG_ASSERT(feq_need_flag_2, need[2] == q_valid[2])
      `FG_ASSERT(feq_check_needs_bits_2, !chk_q[2] || need[2])
      `FG_ASSERT(feq_lookup_flag_2, lkd_q[2] == (hb_valid_q[2] || (lk_rvalid && lk_rqid == 2'd2) ||
                                                 (lk_apend && lk_aqid == 2'd2) ||
                                                 (lk_pend && lk_pqid == 2'd2)))
    end
  end
endmodule
