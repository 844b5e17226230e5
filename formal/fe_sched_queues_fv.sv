// Formal harness of fe_sched_queues (with fe_bits, fe_watchdog,
// fe_trigger_check, fg_fifo, fg_sram_sp; docs/FORMAL.md): any request
// stream, initialisation commands (line aligned: the contract), ready
// patterns and watchdog limits, reset in the first cycle and free afterwards;
// the RTL's own assertions are proved too.  The F/E paper's rules (
// trigger on all words, actions, snoop release, FIFO order, priority) are
// stated at the end, selected by F_RULES.
//   conservation per queue q: the requests accepted into q and not yet seen
//     to leave (a new entry in the out or the nack register whose queue,
//     out_q_o / nack_q_o, is q) = q_count_o[q], so none is lost, none leaves
//     twice and none leaves from a queue it was not in
//   no overflow / underflow: q_count_o[q] <= its depth; ready only with room
//   what leaves is what its queue holds: a served or NACKed entry of a
//     triggered queue has a trigger and the queue's source and lies in the
//     region; a NACK is only ever of a triggered queue's entry
//   out and nack hold their entry until taken
//   the F/E watchdog (F/E 4.5 leaves timeouts open; ours), under any
//     traffic: with the limit L (wdog_limit_i) held constant and not 0 and
//     the NACK port ready, a head stays blocked on its trigger
//     (head_blocked_o[q]) at most L + WD_SLACK consecutive cycles: then it
//     has left as a NACK or been released
//   and not before the limit, under any traffic and limits: a NACK takes a
//     head blocked for L + 1 cycles in a row up to the cycle it is decided
//     in, L the limit the watchdog's registered compare read (the cycle
//     before), so a head blocked from cycle b is NACKed at b + L at the
//     earliest (F/E 4.5's timeout, ours: "after the limit, not before")
//   a NACK only with the watchdog on (in the cycle its compare was made)
//   every request leaves (served or NACKed): while the block is quiet at its
//     input (no request accepted, no initialisation command), both ports
//     take every cycle and the limit is held at L != 0, some request leaves
//     at least every L + LEAVE_SLACK cycles as long as one is held, so all
//     of them (QD_NT + QD_CPU + QD_GPU at most) have left within
//     (QD_NT + QD_CPU + QD_GPU) * (L + LEAVE_SLACK) cycles
module fe_sched_queues_fv #(
  parameter int          ADDR_W       = 5,
  parameter int          WORDS        = 2,
  parameter int          GRAN         = 4,
  parameter logic [31:0] REGION_BASE  = 8,
  parameter int          REGION_LINES = 3,
  parameter int          QD_NT        = 2,
  parameter int          QD_CPU       = 2,
  parameter int          QD_GPU       = 2,
  parameter int          TAG_W        = 1,
  parameter int          WD_W         = 2,
  parameter int          CNT_W        = 2,
  parameter int          INIT_W       = 2,
  parameter int          LK_REG       = 0,
  parameter int          WD_SLACK     = 3,
  parameter int          LEAVE_SLACK  = 8,
  // which of the papers' rules (below) this proof states: 1 the shadow's
  // (trigger on all words, NACK / blocked only when false), 2 the tracked
  // request's (FIFO order, non-triggered first), 3 both
  parameter int          F_RULES      = 3
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic              req_valid_i,
  input logic              req_src_i,
  input logic              req_we_i,
  input logic              req_dflt_i,
  input logic [1:0]        req_trig_i,
  input logic [1:0]        req_act_i,
  input logic [ADDR_W-1:0] req_addr_i,
  input logic [WORDS-1:0]  req_mask_i,
  input logic [TAG_W-1:0]  req_tag_i,
  input logic              out_ready_i,
  input logic              nack_ready_i,
  input logic              init_valid_i,
  input logic              init_full_i,
  input logic [ADDR_W-1:0] init_addr_i,
  input logic [INIT_W-1:0] init_lines_i,
  input logic [WD_W-1:0]   wdog_limit_i,
  input logic              f_pick_i      // the solver picks the request it tracks (FIFO order)
);
  localparam int LB        = $clog2(WORDS * GRAN);
  localparam int LN_W      = ADDR_W - LB;
  localparam int BASE_LINE = REGION_BASE >> LB;
  localparam int QW        = 4;  // the harness's per-queue counts (depths below 8)
  logic [2:0]        req_ready_o, head_blocked_o;
  logic              stall_mc_o, out_valid_o, out_src_o, out_we_o, nack_valid_o, nack_src_o,
                     nack_we_o, init_ready_o, err_o;
  logic [1:0]        out_trig_o, out_act_o, out_q_o, nack_trig_o, nack_act_o, nack_q_o;
  logic [ADDR_W-1:0] out_addr_o, nack_addr_o;
  logic [WORDS-1:0]  out_mask_o, nack_mask_o;
  logic [TAG_W-1:0]  out_tag_o, nack_tag_o;
  logic [23:0]       q_count_o;
  logic [CNT_W-1:0]  stall_nt_o, stall_cpu_o, stall_gpu_o, releases_o, nacks_o;
  fe_sched_queues #(.ADDR_W(ADDR_W), .WORDS(WORDS), .GRAN(GRAN), .REGION_BASE(REGION_BASE),
                    .REGION_LINES(REGION_LINES), .QD_NT(QD_NT), .QD_CPU(QD_CPU), .QD_GPU(QD_GPU),
                    .TAG_W(TAG_W), .WD_W(WD_W), .CNT_W(CNT_W), .INIT_W(INIT_W),
                    .LK_REG(LK_REG)) dut (.*);

  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb if (f_init_q) assume (!rst_ni);
  // the block's contract: initialisation commands are line aligned
  always_comb if (init_valid_i) assume (init_addr_i[LB-1:0] == '0);

  // the queue a request goes to (the contract's fe_sched_queue_of(), F/E 4.3)
  logic [1:0] f_trig, f_q;
  logic [LN_W:0] f_rel;
  function automatic logic f_in_region(input logic [ADDR_W-1:0] a);
    f_in_region = ({1'b0, a[ADDR_W-1:LB]} - (LN_W+1)'(BASE_LINE)) < (LN_W+1)'(REGION_LINES);
  endfunction
  always_comb begin
    f_trig = (req_trig_i == 2'd3) ? 2'd0 : req_trig_i;
    if (req_dflt_i && req_src_i) f_trig = req_we_i ? 2'd0 : 2'd1;
    f_rel = {1'b0, req_addr_i[ADDR_W-1:LB]} - (LN_W+1)'(BASE_LINE);
    f_q = (f_trig == 2'd0 || !f_in_region(req_addr_i)) ? 2'd0 : (req_src_i ? 2'd2 : 2'd1);
  end
  wire f_acc = rst_ni && req_valid_i && req_ready_o[f_q];

  // a new entry in out / nack this cycle (the register was empty or taken)
  logic f_outv_q, f_outr_q, f_nackv_q, f_nackr_q;
  wire f_out_new  = out_valid_o && (!f_outv_q || f_outr_q);
  wire f_nack_new = nack_valid_o && (!f_nackv_q || f_nackr_q);
  logic [QW-1:0] f_held_q [3];  // accepted into q, not seen to leave before this cycle
  logic [QW-1:0] f_held [3];    // ... nor in this cycle
  logic [QW-1:0] f_cnt [3];
  always_comb begin
    for (int q = 0; q < 3; q++) begin
      f_cnt[q]  = QW'(q_count_o[8*q +: 8]);
      f_held[q] = f_held_q[q] - QW'(f_out_new && out_q_o == 2'(q)) - QW'(f_nack_new && nack_q_o == 2'(q));
    end
  end

  // the watchdog's premises: the limit stays put and is not 0, the NACK
  // port takes; f_blk_q[q] counts the cycles head q has been blocked with
  // the premises holding (restarting when they do not; saturating)
  logic [WD_W-1:0] f_lim_q, f_lim2_q;  // the limit one and two cycles ago
  logic [3:0]      f_blk_q [3];
  // f_run_q[q]: cycles in a row head q was blocked, up to the last cycle
  // (any premises; saturating above the largest limit)
  logic [WD_W:0]   f_run_q [3];
  wire f_wd_prem = !f_init_q && wdog_limit_i == f_lim_q && wdog_limit_i != '0 && nack_ready_i;
  // the drain's premises: nothing accepted, no initialisation command, both
  // ports take, the limit held; f_stuck_q counts such cycles in a row in
  // which requests are held and none left (saturating)
  logic [3:0] f_stuck_q;
  wire f_quiet = f_wd_prem && !f_acc && !init_valid_i && out_ready_i;
  wire f_any   = q_count_o != '0;
  always_ff @(posedge clk_i) begin
    f_outv_q  <= rst_ni && out_valid_o;
    f_outr_q  <= out_ready_i;
    f_nackv_q <= rst_ni && nack_valid_o;
    f_nackr_q <= nack_ready_i;
    f_lim_q   <= wdog_limit_i;
    f_lim2_q  <= f_lim_q;
    if (!rst_ni || !f_quiet || !f_any || f_out_new || f_nack_new) f_stuck_q <= '0;
    else if (f_stuck_q != '1) f_stuck_q <= f_stuck_q + 4'd1;
    for (int q = 0; q < 3; q++) begin
      if (!rst_ni) begin
        f_held_q[q] <= '0;
        f_blk_q[q]  <= '0;
        f_run_q[q]  <= '0;
      end else begin
        f_held_q[q] <= f_held[q] + QW'(f_acc && f_q == 2'(q));
        if (!head_blocked_o[q]) f_run_q[q] <= '0;
        else if (f_run_q[q] != '1) f_run_q[q] <= f_run_q[q] + 1'b1;
        if (!(head_blocked_o[q] && f_wd_prem)) f_blk_q[q] <= '0;
        else if (f_blk_q[q] != '1) f_blk_q[q] <= f_blk_q[q] + 4'd1;
      end
    end
  end

  // the outputs' previous values, for "held until taken"
  localparam int OW_F = 1 + 1 + 2 + 2 + ADDR_W + WORDS + TAG_W + 2;
  logic [OW_F-1:0] f_out_q, f_nack_q;
  logic [OW_F-1:0] f_out, f_nack;
  assign f_out  = {out_src_o, out_we_o, out_trig_o, out_act_o, out_addr_o, out_mask_o, out_tag_o, out_q_o};
  assign f_nack = {nack_src_o, nack_we_o, nack_trig_o, nack_act_o, nack_addr_o, nack_mask_o, nack_tag_o,
                   nack_q_o};
  always_ff @(posedge clk_i) begin
    f_out_q  <= f_out;
    f_nack_q <= f_nack;
  end

  logic f_cons_ok, f_wd_ok;
  // the blocked run of the queue a new NACK comes from (decided last cycle);
  // a queue that cannot NACK (nack_queue_legal) reads as long enough
  wire [WD_W:0] f_nack_run = (nack_q_o == 2'd1) ? f_run_q[1] : (nack_q_o == 2'd2) ? f_run_q[2] : '1;
  always_comb begin
    f_cons_ok = 1'b1;
    f_wd_ok   = 1'b1;
    for (int q = 0; q < 3; q++) begin
      if (f_held[q] != f_cnt[q]) f_cons_ok = 1'b0;
      if (head_blocked_o[q] && f_wd_prem && 32'(f_blk_q[q]) + 1 > 32'(wdog_limit_i) + WD_SLACK) f_wd_ok = 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
      accepted_eq_left_plus_held: assert (f_cons_ok);
      queues_within_depth: assert (32'(f_cnt[0]) <= QD_NT && 32'(f_cnt[1]) <= QD_CPU &&
                                   32'(f_cnt[2]) <= QD_GPU && q_count_o[23:16+QW] == '0 &&
                                   q_count_o[15:8+QW] == '0 && q_count_o[7:QW] == '0);
      ready_only_with_room: assert ((!req_ready_o[0] || 32'(f_cnt[0]) < QD_NT) &&
                                    (!req_ready_o[1] || 32'(f_cnt[1]) < QD_CPU) &&
                                    (!req_ready_o[2] || 32'(f_cnt[2]) < QD_GPU));
      out_queue_legal: assert (!out_valid_o || out_q_o != 2'd3);
      nack_queue_legal: assert (!nack_valid_o || (nack_q_o == 2'd1 || nack_q_o == 2'd2));
      out_from_its_queue: assert (!out_valid_o || out_q_o == 2'd0 ||
                                  (out_trig_o != 2'd0 && out_trig_o != 2'd3 &&
                                   out_src_o == (out_q_o == 2'd2) && f_in_region(out_addr_o)));
      nack_from_its_queue: assert (!nack_valid_o ||
                                   (nack_trig_o != 2'd0 && nack_trig_o != 2'd3 &&
                                    nack_src_o == (nack_q_o == 2'd2) && f_in_region(nack_addr_o)));
      out_held_until_taken: assert (!(f_outv_q && !f_outr_q) || (out_valid_o && f_out == f_out_q));
      nack_held_until_taken: assert (!(f_nackv_q && !f_nackr_q) || (nack_valid_o && f_nack == f_nack_q));
      // (a NACK decided in cycle t-1 is due on the limit of t-2: ge_q)
      nack_only_with_watchdog: assert (!f_nack_new || f_lim2_q != '0);
      watchdog_blocked_head_leaves: assert (f_wd_ok);
      watchdog_nack_not_early: assert (!f_nack_new || 32'(f_nack_run) > 32'(f_lim2_q));
      every_request_leaves: assert (!f_quiet || 32'(f_stuck_q) < 32'(wdog_limit_i) + LEAVE_SLACK);
    end
  end
  // ------------------------------------------------------------ the papers' rules
  // Written from the F/E paper (Lustig & Martonosi, HPCA 2013), not from the
  // C twin: a shadow of the F/E bits (f_fe_q, one WORDS-bit word per region
  // line) that the harness updates from what the ports show, and one request
  // chosen by the solver (f_pick_i) followed through its queue.
  //   Sec. 4.1 "For coalesced requests, responses are returned when all the
  //     relevant F/E bits indicate readiness": a served request with a
  //     trigger finds it true on ALL its masked words (fe_served_trigger_all).
  //   Sec. 4.1 "When the request is processed, the update action directs
  //     whether the F/E bit should be filled, emptied, or left unchanged",
  //     Sec. 4.3 "At that point, if an update action was specified, the F/E
  //     bit is updated": the shadow applies each served request's action once,
  //     to its masked words of its line only, in the order they are served;
  //     the block's own bits must then agree with it, which every trigger
  //     property below checks.
  //   Sec. 4.3 "If the trigger of a request is not satisfied, the DRAM
  //     scheduler will stall that request ... and it will then snoop the
  //     requests passing through the other queues for an action which causes
  //     the trigger to become satisfied. When this occurs, the previously
  //     blocked request is then released": a head is shown blocked
  //     (head_blocked_o) only while its trigger is false on the shadow
  //     (fe_blocked_only_unsatisfied: an action that satisfies it releases it
  //     at once), and a watchdog NACK (ours) only takes a head whose trigger
  //     is false (fe_nack_trigger_unsatisfied).
  //   Sec. 4.3 "Each of the DRAM scheduler queues is strictly ordered": the
  //     tracked request leaves (served or NACKed) after exactly the requests
  //     of its queue accepted before it, with its own fields (fe_fifo_order_*).
  //   Sec. 6.3 "non-triggered requests have the highest priority, followed by
  //     triggered CPU requests, and then triggered GPU requests": while the
  //     tracked request is a non-triggered head that needs no F/E bits, no
  //     triggered request is served, and it is served as soon as the output
  //     register is free (fe_nt_first, fe_nt_free_leaves).  (Triggered CPU
  //     over triggered GPU depends on when a head's lookup returns, which the
  //     ports do not show: not stated here; the RTL computes it in disp_q.)
  // Timing (docs/FORMAL.md): a request served at t-1 is in the out register
  // at t (f_out_new) and its action is written to the store at the end of t,
  // so the shadow during t (before this cycle's update) is the store's
  // contents; an initialisation accepted at t-1 is applied with the action of
  // t, after it (the store writes a pending action before an init line).
  localparam int IW_F = (REGION_LINES > 1) ? $clog2(REGION_LINES) : 1;
  function automatic logic [IW_F-1:0] f_idx(input logic [ADDR_W-1:0] a);
    f_idx = IW_F'({1'b0, a[ADDR_W-1:LB]} - (LN_W+1)'(BASE_LINE));
  endfunction
  // the trigger on the masked words (F/E 4.1: 1 wait-full, 2 wait-empty)
  function automatic logic f_trig_ok(input logic [1:0] trig, input logic [WORDS-1:0] mask,
                                     input logic [WORDS-1:0] b);
    f_trig_ok = (trig == 2'd1) ? ((b & mask) == mask) : (trig == 2'd2) ? ((b & mask) == '0) : 1'b1;
  endfunction
  logic [WORDS-1:0] f_fe_q [REGION_LINES];
  logic [WORDS-1:0] f_fe_d [REGION_LINES];
  logic             f_ini_q, f_ini_full_q;        // an initialisation accepted last cycle
  logic [LN_W-1:0]  f_ini_line_q;
  logic [INIT_W-1:0] f_ini_lines_q;
  wire f_out_act = f_out_new && f_in_region(out_addr_o);
  always_comb begin
    for (int r = 0; r < REGION_LINES; r++) begin
      f_fe_d[r] = f_fe_q[r];
      if (f_out_act && f_idx(out_addr_o) == IW_F'(r)) begin
        if (out_act_o == 2'd1) f_fe_d[r] = f_fe_d[r] | out_mask_o;
        if (out_act_o == 2'd2) f_fe_d[r] = f_fe_d[r] & ~out_mask_o;
      end
      // lines init_line .. init_line + lines - 1 (mod 2^LN_W) in the region
      if (f_ini_q && 32'(LN_W'(LN_W'(BASE_LINE + r) - f_ini_line_q)) < 32'(f_ini_lines_q))
        f_fe_d[r] = f_ini_full_q ? '1 : '0;
    end
  end
  always_ff @(posedge clk_i) begin
    f_ini_q       <= rst_ni && init_valid_i && init_ready_o;
    f_ini_full_q  <= init_full_i;
    f_ini_line_q  <= init_addr_i[ADDR_W-1:LB];
    f_ini_lines_q <= init_lines_i;
    for (int r = 0; r < REGION_LINES; r++) f_fe_q[r] <= rst_ni ? f_fe_d[r] : '0;  // reset: all empty
  end

  // the tracked request: its queue, its fields as they leave (the GPU
  // defaults of 4.1 and code 3 = none applied), the requests of its queue
  // still ahead of it (accepted before it, not yet seen to leave)
  localparam int FW = 1 + 1 + 2 + 2 + ADDR_W + WORDS + TAG_W;
  logic          f_trk_q;
  logic [1:0]    f_trk_qid_q;
  logic [FW-1:0] f_trk_q_d;
  logic [QW-1:0] f_ahead_q, f_ahead;
  logic [1:0]    f_act;
  always_comb begin
    f_act = (req_act_i == 2'd3) ? 2'd0 : req_act_i;
    if (req_dflt_i && req_src_i) f_act = req_we_i ? 2'd1 : 2'd0;
  end
  wire [FW-1:0] f_req_fields = {req_src_i, req_we_i, f_trig, f_act, req_addr_i, req_mask_i, req_tag_i};
  wire [FW-1:0] f_out_fields = {out_src_o, out_we_o, out_trig_o, out_act_o, out_addr_o, out_mask_o, out_tag_o};
  wire [FW-1:0] f_nack_fields = {nack_src_o, nack_we_o, nack_trig_o, nack_act_o, nack_addr_o, nack_mask_o,
                                 nack_tag_o};
  wire f_out_trk  = f_trk_q && f_out_new && out_q_o == f_trk_qid_q;    // a leave from its queue
  wire f_nack_trk = f_trk_q && f_nack_new && nack_q_o == f_trk_qid_q;
  wire f_trk_left = (f_out_trk || f_nack_trk) && f_ahead_q == '0;
  assign f_ahead = f_ahead_q - QW'(f_out_trk) - QW'(f_nack_trk);
  // the tracked request at its queue's head in this cycle (in the FIFO since
  // an earlier edge, nothing ahead of it still there)
  wire f_trk_head = f_trk_q && !f_trk_left && f_ahead == '0;
  wire [ADDR_W-1:0] f_trk_addr = f_trk_q_d[TAG_W + WORDS +: ADDR_W];
  wire [WORDS-1:0]  f_trk_mask = f_trk_q_d[TAG_W +: WORDS];
  wire [1:0]        f_trk_trig = f_trk_q_d[TAG_W + WORDS + ADDR_W + 2 +: 2];
  wire [1:0]        f_trk_act  = f_trk_q_d[TAG_W + WORDS + ADDR_W +: 2];
  wire f_trk_free = !f_in_region(f_trk_addr) || (f_trk_trig == 2'd0 && f_trk_act == 2'd0);
  logic f_ntfree_head_q, f_out_free_q, f_idle_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      f_trk_q <= 1'b0;
    end else if (f_trk_q) begin
      f_ahead_q <= f_ahead;
      if (f_trk_left) f_trk_q <= 1'b0;
    end else if (f_acc && f_pick_i) begin
      f_trk_q     <= 1'b1;
      f_trk_qid_q <= f_q;
      f_trk_q_d   <= f_req_fields;
      f_ahead_q   <= f_held[f_q];
    end
    // last cycle: the tracked request was a non-triggered head needing no
    // bits, the output register free or taken, no initialisation running
    f_ntfree_head_q <= rst_ni && f_trk_head && f_trk_qid_q == 2'd0 && f_trk_free;
    f_out_free_q    <= !out_valid_o || out_ready_i;
    f_idle_q        <= init_ready_o;
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
      if (F_RULES & 1) begin
        fe_served_trigger_all: assert (!f_out_act ||
                                       f_trig_ok(out_trig_o, out_mask_o, f_fe_q[f_idx(out_addr_o)]));
        fe_nack_trigger_unsatisfied: assert (!f_nack_new ||
                                             !f_trig_ok(nack_trig_o, nack_mask_o, f_fe_q[f_idx(nack_addr_o)]));
        fe_blocked_only_unsatisfied: assert (!(f_trk_head && head_blocked_o[f_trk_qid_q]) ||
                                             !f_trig_ok(f_trk_trig, f_trk_mask, f_fe_q[f_idx(f_trk_addr)]));
      end
      if (F_RULES & 2) begin
        fe_fifo_order_out: assert (!(f_out_trk && f_ahead_q == '0) || f_out_fields == f_trk_q_d);
        fe_fifo_order_nack: assert (!(f_nack_trk && f_ahead_q == '0) || f_nack_fields == f_trk_q_d);
        fe_nt_first: assert (!f_ntfree_head_q || !(f_out_new && out_q_o != 2'd0));
        fe_nt_free_leaves: assert (!(f_ntfree_head_q && f_out_free_q && f_idle_q) ||
                                   (f_out_new && out_q_o == 2'd0 && f_ahead_q == '0 && f_out_trk));
      end
    end
  end
endmodule
