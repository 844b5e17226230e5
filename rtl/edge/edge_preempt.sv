// Warp preemption / flush controller, one per SIMT core (EDGE Sec. IV-D,
// Fig. 10; storage and logic budget Sec. IV-E).  The interface and the cycle
// contract are those of sim/twin/edge_preempt.h; this file implements it.
//
// EDGE IV-D: when a single-warp event kernel finds no free warp context, the
// controller borrows one from a running warp (the victim).  It picks the
// victim (oldest / newest by allocation order, or the predicted cheapest),
// checks eligibility (the victim uses at least as many registers per thread
// as the event kernel, is not itself an event warp, is not exiting), then
// sequences the flush with the four optimizations, each switchable on its
// own (cfg_opt_i, latched at selection into opt_q and sent with FLUSH):
//   BOOST   victim priority boost       (carried out by the core)
//   IBUF    i-buffer flush              (carried out by the core)
//   BARSKIP barrier skipping            (SKIPBAR; re-insertion at RESUME)
//   DROP    drop and replay of loads    (DROP, when the core says v_ldok_i)
// then either reserves free registers (rf_free_i) or saves the victim's
// registers to global memory (SAVE, save-cycle count), STARTs the event warp
// in the victim's slot, and after the event warp's exit waits the restore
// time and RESUMEs the victim (EDGE IV-D, last paragraphs).
//
// State (all flops, Sec. IV-E "logic for warp-level preemption"):
//   older_q[i][j]  NW x NW age matrix: i was allocated before j
//   regs_q[i]      registers per thread of the warp in slot i
//   event_q        slots running an event warp
//   vict_q         slots holding a parked (preempted) victim, until RESUME
//   skip_q/saved_q per parked victim: taken out of its barrier / registers saved
//   pend_q         restore-pending (event warp exited, victim not resumed yet)
//   evregs_q[i]    registers per thread of the event warp that borrowed slot i
// Every output is a register (or a register vector): the C side reads
// outputs, computes inputs, steps.
//
// Synthesis (make lint: Yosys 0.23 synth_ecp5, these defaults): 5520 flip-
// flops (4096 age matrix, 2 x 448 register tables, 5 x 64 slot sets, FSMs,
// counters), about 19k LUT4 in about 30k cells.  Most of the logic is the
// age matrix: its update (one LUT4 per bit) and the two 64 x 128-input
// AND-OR reductions of the selection (see g_cpair / g_rpair).
module edge_preempt #(
  parameter int NW     = 64,  // warp slots per core (2048 threads / 32)
  parameter int SLOT_W = 6,   // clog2(NW)
  parameter int REGS_W = 7,   // registers per thread, 0..64
  parameter int CYC_W  = 16   // save / restore cycle counter
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // configuration
  input  logic              cfg_en_i,            // 0: draining (no preemption)
  input  logic [1:0]        cfg_policy_i,        // OLDEST / NEWEST / CHEAPEST
  input  logic [3:0]        cfg_opt_i,           // BOOST / IBUF / BARSKIP / DROP
  input  logic [CYC_W-1:0]  cfg_save_base_i,
  input  logic [7:0]        cfg_save_per_reg_i,
  // request: the PEWT head
  input  logic              req_valid_i,
  input  logic [REGS_W-1:0] req_regs_i,
  // the core's resources
  input  logic              free_ctx_i,
  input  logic [SLOT_W-1:0] free_slot_i,
  input  logic              rf_free_i,
  // per-warp state from the core
  input  logic [NW-1:0]     w_alloc_i,
  input  logic [REGS_W-1:0] w_alloc_regs_i,
  input  logic [NW-1:0]     w_live_i,
  input  logic [NW-1:0]     w_exit_i,
  input  logic [NW-1:0]     w_bar_i,
  input  logic [NW-1:0]     w_ld_i,
  // status of the warp in slot victim_o
  input  logic              v_pipe_i,
  input  logic              v_sb_i,
  input  logic              v_ibuf_i,
  input  logic              v_imiss_i,
  input  logic              v_ldok_i,
  // event warp exits
  input  logic              ev_exit_i,
  input  logic [SLOT_W-1:0] ev_exit_slot_i,
  // command port (registered; non-zero for exactly one cycle per command)
  output logic [2:0]        cmd_o,
  output logic [SLOT_W-1:0] cmd_slot_o,
  output logic [3:0]        cmd_arg_o,
  // observability
  output logic [1:0]        state_o,
  output logic [SLOT_W-1:0] victim_o,
  output logic [5:0]        vstat_o,
  output logic [NW-1:0]     event_mask_o,
  output logic [NW-1:0]     victim_mask_o,
  output logic              err_valid_o,
  output logic [1:0]        err_code_o,
  output logic [15:0]       cnt_err_o,
  output logic [31:0]       cnt_start_free_o,
  output logic [31:0]       cnt_start_pre_o,
  output logic [15:0]       cnt_abort_o,
  output logic [31:0]       cnt_resume_o
);
  // ------------------------------------------------------------ encodings
  localparam logic [2:0] CMD_NONE = 3'd0, CMD_FLUSH = 3'd1, CMD_SKIPBAR = 3'd2, CMD_DROP = 3'd3,
                         CMD_START = 3'd4, CMD_RESUME = 3'd5, CMD_ABORT = 3'd6;
  localparam logic [3:0] ARG_PREEMPTED = 4'd1, ARG_SAVED = 4'd2, ARG_SKIPPED = 4'd4;
  localparam int OPT_BARSKIP_B = 2, OPT_DROP_B = 3;  // cfg_opt_i bits (BOOST, IBUF: core only)
  localparam logic [1:0] POL_NEWEST = 2'd1, POL_CHEAPEST = 2'd2;
  localparam logic [1:0] ST_IDLE = 2'd0, ST_FLUSH = 2'd1, ST_SAVE = 2'd2, ST_WAIT = 2'd3;
  localparam logic [CYC_W-1:0] CYC_MAX = '1;
  localparam int PW = CYC_W + REGS_W + 9;  // save-cycle arithmetic without overflow

  // ---------------------------------------------------------------- state
  logic [NW-1:0]     older_q [NW];   // age matrix rows: older_q[i][j] = i older than j
  logic [REGS_W-1:0] regs_q [NW];    // regs table
  logic [REGS_W-1:0] evregs_q [NW];  // event regs per borrowed slot (restore time)
  logic [NW-1:0]     event_q, vict_q, skip_q, saved_q, pend_q;
  logic [1:0]        st_q;
  logic [SLOT_W-1:0] victim_q;
  logic [5:0]        vstat_q;
  logic              first_q;        // first FLUSH cycle (vstat completes)
  logic              skipped_q;      // this victim was taken out of its barrier
  logic [3:0]        opt_q;          // options of this flush (FLUSH's arg)
  logic [REGS_W-1:0] ereg_q;         // registers of the event this flush is for
  logic [CYC_W-1:0]  cnt_q;          // SAVE countdown
  logic              rbusy_q;        // restore FSM: a slot is being restored
  logic [SLOT_W-1:0] rslot_q;
  logic [CYC_W-1:0]  rcnt_q;
  logic [2:0]        cmd_q;
  logic [SLOT_W-1:0] cmd_slot_q;
  logic [3:0]        cmd_arg_q;
  logic              err_v_q;
  logic [1:0]        err_code_q;
  logic [15:0]       cnt_err_q, cnt_abort_q;
  logic [31:0]       cnt_sfree_q, cnt_spre_q, cnt_res_q;

  // -------------------------------------------------------------- helpers
  function automatic logic [SLOT_W-1:0] first1(input logic [NW-1:0] v);  // lowest set bit
    first1 = '0;
    for (int i = NW - 1; i >= 0; i--) if (v[i]) first1 = SLOT_W'(i);
  endfunction
  // every n-th bit set, from bit 0
  function automatic logic [NW-1:0] every(input int n);
    every = '0;
    for (int i = 0; i < NW; i++) if (i % n == 0) every[i] = 1'b1;
  endfunction

  // save cycles = base + regs * per_reg, saturated to 2^CYC_W - 1 (header)
  function automatic logic [CYC_W-1:0] save_cycles(input logic [CYC_W-1:0] base,
                                                   input logic [7:0] per_reg,
                                                   input logic [REGS_W-1:0] regs);
    logic [PW-1:0] s;
    s = PW'(base) + PW'(regs) * PW'(per_reg);
    save_cycles = (s > PW'(CYC_MAX)) ? CYC_MAX : s[CYC_W-1:0];
  endfunction

  // ------------------------------------------------- victim selection (IV-D)
  // Eligible: live, not exiting, not an event warp, not holding a parked
  // victim, and at least as many registers per thread as the event kernel.
  logic [NW-1:0] regs_ge, elig, t_bar, t_nold, younger, older_any, oldest_oh, newest_oh;
  logic [NW-1:0] pick_oh;
  (* keep *) logic [NW-1:0] cand;  // synthesis: one net per slot, not re-derived per use
  logic [SLOT_W-1:0] pick;

  always_comb begin
    for (int i = 0; i < NW; i++) regs_ge[i] = regs_q[i] >= req_regs_i;
  end
  assign elig   = w_live_i & ~w_exit_i & ~event_q & ~vict_q & regs_ge;
  // CHEAPEST (our third policy): a warp idle at a barrier is free to take
  // when barrier skipping is on; else a warp without loads in flight (the
  // dominant cost, EDGE VI-B / Fig. 11b); else any; oldest within the tier
  // (GTO favours old warps, so they drain first).
  assign t_bar  = elig & w_bar_i;
  assign t_nold = elig & ~w_ld_i;
  always_comb begin
    cand = elig;
    if (cfg_policy_i == POL_CHEAPEST) begin
      if (cfg_opt_i[OPT_BARSKIP_B] && (t_bar != '0)) cand = t_bar;
      else if (t_nold != '0) cand = t_nold;
    end
  end
  assign oldest_oh = cand & ~younger;    // no candidate older than i
  assign newest_oh = cand & ~older_any;  // i older than no candidate
  assign pick_oh   = (cfg_policy_i == POL_NEWEST) ? newest_oh : oldest_oh;
  assign pick      = first1(pick_oh);

  // ------------------------------------------------ age matrix (IV-D)
  // an allocation naming an event warp's or a parked victim's slot is
  // ignored as a whole (PRE_ERR_ALLOC_BUSY)
  wire alloc_busy = (w_alloc_i & (event_q | vict_q)) != '0;
  wire alloc_ok   = !alloc_busy;
  // w_alloc_i's slots become the newest warps, lower slot older within the
  // block; every other row gains them as younger.  Reset goes through the
  // same datapath (every slot allocated at once: lower slot older) so that
  // synthesis keeps one LUT per bit behind one shared enable (a per-bit
  // reset value made Yosys build a reset net per bit: twice the LUTs).
  localparam int NP = (NW + 1) / 2;
  wire [NW-1:0] age_alloc = rst_ni ? w_alloc_i : '1;
  wire          age_en    = !rst_ni || alloc_ok;
  logic [NW*NW-1:0] older_flat;  // the rows side by side

  for (genvar i = 0; i < NW; i++) begin : g_age
    localparam logic [NW-1:0] BELOW = {NW{1'b1}} << (i + 1);
    logic [NW-1:0] row_q;
    always_ff @(posedge clk_i) begin
      if (age_en) row_q <= age_alloc[i] ? (age_alloc & BELOW) : (row_q | age_alloc);
    end
    assign older_q[i] = row_q;
    assign older_flat[i*NW +: NW] = row_q;

    // regs table, and the event registers of a borrowed slot (no reset: read
    // only when saved_q[i] is set, which is written in the same edge)
    logic [REGS_W-1:0] regs_r, evregs_r;
    always_ff @(posedge clk_i) begin
      if (!rst_ni) regs_r <= '0;
      else if (alloc_ok && w_alloc_i[i]) regs_r <= w_alloc_regs_i;
    end
    always_ff @(posedge clk_i) begin
      if (start_pre && victim_q == SLOT_W'(i)) evregs_r <= ereg_q;
    end
    assign regs_q[i]   = regs_r;
    assign evregs_q[i] = evregs_r;
  end

  // Selection reductions, per slot i (EDGE IV-D "oldest" / "newest"):
  //   younger[i]   = OR_j cand[j] & older[j][i]   (column i: a candidate is older)
  //   older_any[i] = OR_j cand[j] & older[i][j]   (row i: older than a candidate)
  // Written as 64-bit word operations (the verilated model stays fast) from
  // kept two-term pairs (a LUT4 each; left alone, ABC maps the 128-input
  // AND-OR trees into wide LUTs at about twice the cells):
  //   cpair[k] = cand[2k] & row 2k | cand[2k+1] & row 2k+1  (bit i: column pair)
  //   rpair[i] bit 2k = t[2k] | t[2k+1], t = row i & cand
  localparam logic [NW-1:0] EVEN = every(2);
  (* keep *) logic [NP*NW-1:0] cpair;
  (* keep *) logic [NW*NW-1:0] rpair;
  wire [2*NP*NW-1:0] rows_p = (2*NP*NW)'(older_flat);
  wire [2*NP-1:0]    cand_p = (2*NP)'(cand);
  for (genvar k = 0; k < NP; k++) begin : g_cpair
    assign cpair[k*NW +: NW] = ({NW{cand_p[2*k]}} & rows_p[2*k*NW +: NW]) |
                               ({NW{cand_p[2*k+1]}} & rows_p[(2*k+1)*NW +: NW]);
  end
  for (genvar i = 0; i < NW; i++) begin : g_rpair
    wire [NW-1:0] t = older_q[i] & cand;
    assign rpair[i*NW +: NW] = (t | (t >> 1)) & EVEN;
    assign older_any[i]      = rpair[i*NW +: NW] != '0;
  end
  always_comb begin
    younger = '0;
    for (int k = 0; k < NP; k++) younger = younger | cpair[k*NW +: NW];
  end

  // ------------------------------------------------ preemption FSM (IV-D)
  wire v_left  = w_exit_i[victim_q] || !w_live_i[victim_q];
  wire drained = !v_pipe_i && !v_ibuf_i && !v_imiss_i && !w_bar_i[victim_q] && !w_ld_i[victim_q];
  wire [CYC_W-1:0] save_n = save_cycles(cfg_save_base_i, cfg_save_per_reg_i, ereg_q);
  wire [3:0] skip_arg = skipped_q ? ARG_SKIPPED : 4'd0;

  logic [1:0]        st_d;
  logic [2:0]        pcmd;        // command of the preemption FSM this edge
  logic [SLOT_W-1:0] pslot;
  logic [3:0]        parg;
  logic              sel, start_free, start_pre, do_skip, to_save, do_abort;

  always_comb begin
    st_d       = st_q;
    pcmd       = CMD_NONE;
    pslot      = '0;
    parg       = '0;
    sel        = 1'b0;
    start_free = 1'b0;
    start_pre  = 1'b0;
    do_skip    = 1'b0;
    to_save    = 1'b0;
    do_abort   = 1'b0;
    case (st_q)
      ST_IDLE: begin
        if (req_valid_i && free_ctx_i) begin
          pcmd = CMD_START;  pslot = free_slot_i;  st_d = ST_WAIT;  start_free = 1'b1;
        end else if (req_valid_i && cfg_en_i && elig != '0) begin
          pcmd = CMD_FLUSH;  pslot = pick;  parg = cfg_opt_i;  st_d = ST_FLUSH;  sel = 1'b1;
        end
      end
      ST_FLUSH: begin
        pslot = victim_q;
        if (v_left) begin
          // a victim that exits while being flushed: back to selection
          pcmd = CMD_ABORT;  parg = skip_arg;  st_d = ST_IDLE;  do_abort = 1'b1;
        end else if (opt_q[OPT_BARSKIP_B] && w_bar_i[victim_q] && !skipped_q) begin
          pcmd = CMD_SKIPBAR;  do_skip = 1'b1;
        end else if (opt_q[OPT_DROP_B] && w_ld_i[victim_q] && v_ldok_i) begin
          pcmd = CMD_DROP;
        end else if (drained) begin
          if (rf_free_i) begin  // reserve free registers
            pcmd = CMD_START;  parg = ARG_PREEMPTED | skip_arg;  st_d = ST_WAIT;  start_pre = 1'b1;
          end else begin        // save the victim's registers first
            st_d = ST_SAVE;  to_save = 1'b1;
          end
        end
      end
      ST_SAVE: begin
        if (cnt_q == '0) begin
          pcmd = CMD_START;  pslot = victim_q;  parg = ARG_PREEMPTED | ARG_SAVED | skip_arg;
          st_d = ST_WAIT;  start_pre = 1'b1;
        end
      end
      default: st_d = ST_IDLE;  // ST_WAIT: the PEWT consumes the start
    endcase
  end

  // ------------------------------------------------------- restore FSM
  // The lowest restore-pending slot is loaded with its restore time (the
  // save count of its event's registers when SAVED, else 0), counts down,
  // then RESUMEs when the preemption FSM leaves the command port free.
  wire [SLOT_W-1:0] rpick   = first1(pend_q);
  wire [CYC_W-1:0]  rload_n = saved_q[rpick] ?
                              save_cycles(cfg_save_base_i, cfg_save_per_reg_i, evregs_q[rpick]) : '0;
  wire rload  = !rbusy_q && (pend_q != '0);
  wire rfire  = rbusy_q && (rcnt_q == '0) && (pcmd == CMD_NONE);
  wire [3:0] rarg = ARG_PREEMPTED | (saved_q[rslot_q] ? ARG_SAVED : 4'd0) |
                    (skip_q[rslot_q] ? ARG_SKIPPED : 4'd0);

  // ------------------------------------------------- events and errors
  wire exit_known   = ev_exit_i && event_q[ev_exit_slot_i];
  wire exit_unknown = ev_exit_i && !event_q[ev_exit_slot_i];

  logic [NW-1:0] ev_exit_oh, free_oh, pre_oh, res_oh;
  always_comb begin
    ev_exit_oh = '0;
    free_oh    = '0;
    pre_oh     = '0;
    res_oh     = '0;
    ev_exit_oh[ev_exit_slot_i] = exit_known;
    free_oh[free_slot_i]       = start_free;
    pre_oh[victim_q]           = start_pre;
    res_oh[rslot_q]            = rfire;
  end

  function automatic logic [15:0] sat16(input logic [15:0] c, input logic [1:0] n);
    logic [16:0] s;
    s = {1'b0, c} + 17'(n);
    sat16 = s[16] ? 16'hffff : s[15:0];
  endfunction
  function automatic logic [31:0] sat32(input logic [31:0] c);
    sat32 = (c == 32'hffffffff) ? c : c + 32'd1;
  endfunction

  // ------------------------------------------------------------ registers
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int i = 0; i < NW; i++) begin
      end
      event_q     <= '0;
      vict_q      <= '0;
      skip_q      <= '0;
      saved_q     <= '0;
      pend_q      <= '0;
      st_q        <= ST_IDLE;
      victim_q    <= '0;
      vstat_q     <= '0;
      first_q     <= 1'b0;
      skipped_q   <= 1'b0;
      opt_q       <= '0;
      ereg_q      <= '0;
      cnt_q       <= '0;
      rbusy_q     <= 1'b0;
      rslot_q     <= '0;
      rcnt_q      <= '0;
      cmd_q       <= CMD_NONE;
      cmd_slot_q  <= '0;
      cmd_arg_q   <= '0;
      err_v_q     <= 1'b0;
      err_code_q  <= '0;
      cnt_err_q   <= '0;
      cnt_abort_q <= '0;
      cnt_sfree_q <= '0;
      cnt_spre_q  <= '0;
      cnt_res_q   <= '0;
    end else begin

      // slot sets: event exits clear, STARTs set, a RESUME frees the victim
      event_q <= (event_q & ~ev_exit_oh) | free_oh | pre_oh;
      pend_q  <= ((pend_q | (ev_exit_oh & vict_q)) & ~res_oh);
      vict_q  <= (vict_q & ~res_oh) | pre_oh;
      skip_q  <= (skip_q & ~res_oh) | (skipped_q ? pre_oh : '0);
      saved_q <= (saved_q & ~res_oh) | ((st_q == ST_SAVE) ? pre_oh : '0);

      // preemption FSM
      st_q    <= st_d;
      first_q <= sel;
      if (sel) begin
        victim_q  <= pick;
        vstat_q   <= {1'b0, w_bar_i[pick], 1'b0, w_ld_i[pick], 2'b00};
        skipped_q <= 1'b0;
        opt_q     <= cfg_opt_i;
        ereg_q    <= req_regs_i;
      end
      if (first_q && st_q == ST_FLUSH)
        vstat_q <= vstat_q | {v_ibuf_i, w_bar_i[victim_q], v_imiss_i, w_ld_i[victim_q], v_sb_i, v_pipe_i};
      if (do_skip) skipped_q <= 1'b1;
      if (to_save) cnt_q <= save_n;
      else if (st_q == ST_SAVE && cnt_q != '0) cnt_q <= cnt_q - 1'b1;

      // restore FSM
      if (rload) begin
        rbusy_q <= 1'b1;
        rslot_q <= rpick;
        rcnt_q  <= rload_n;
      end else if (rbusy_q && rcnt_q != '0) begin
        rcnt_q <= rcnt_q - 1'b1;
      end else if (rfire) begin
        rbusy_q <= 1'b0;
      end

      // the command port: the preemption FSM wins, a RESUME waits
      if (pcmd != CMD_NONE) begin
        cmd_q      <= pcmd;
        cmd_slot_q <= pslot;
        cmd_arg_q  <= parg;
      end else if (rfire) begin
        cmd_q      <= CMD_RESUME;
        cmd_slot_q <= rslot_q;
        cmd_arg_q  <= rarg;
      end else begin
        cmd_q      <= CMD_NONE;
        cmd_slot_q <= '0;
        cmd_arg_q  <= '0;
      end

      // errors (both kinds may happen in one cycle: code 3, counted twice)
      err_v_q <= exit_unknown || alloc_busy;
      if (exit_unknown || alloc_busy) err_code_q <= {alloc_busy, exit_unknown};
      cnt_err_q <= sat16(cnt_err_q, {1'b0, exit_unknown} + {1'b0, alloc_busy});

      // counters
      if (start_free) cnt_sfree_q <= sat32(cnt_sfree_q);
      if (start_pre)  cnt_spre_q  <= sat32(cnt_spre_q);
      if (rfire)      cnt_res_q   <= sat32(cnt_res_q);
      if (do_abort)   cnt_abort_q <= sat16(cnt_abort_q, 2'd1);
    end
  end

  assign cmd_o            = cmd_q;
  assign cmd_slot_o       = cmd_slot_q;
  assign cmd_arg_o        = cmd_arg_q;
  assign state_o          = st_q;
  assign victim_o         = victim_q;
  assign vstat_o          = vstat_q;
  assign event_mask_o     = event_q;
  assign victim_mask_o    = vict_q;
  assign err_valid_o      = err_v_q;
  assign err_code_o       = err_code_q;
  assign cnt_err_o        = cnt_err_q;
  assign cnt_start_free_o = cnt_sfree_q;
  assign cnt_start_pre_o  = cnt_spre_q;
  assign cnt_abort_o      = cnt_abort_q;
  assign cnt_resume_o     = cnt_res_q;

  // ----------------------------------------------------------- invariants
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // at most one command per edge; a RESUME only with the port free
      assert (!(pcmd != CMD_NONE && rfire));
      // the victim is a real slot, not an event warp, not parked; its row
      // of the age matrix is antisymmetric (strict total order)
      if (st_q == ST_FLUSH || st_q == ST_SAVE) begin
        assert (32'(victim_q) < NW);
        assert (!event_q[victim_q] && !vict_q[victim_q]);
        assert (!older_q[victim_q][victim_q]);
        for (int j = 0; j < NW; j++)
          if (j != 32'(victim_q)) assert (older_q[victim_q][j] != older_q[j][victim_q]);
      end
      // a selection picks exactly one eligible warp
      if (sel) begin
        assert (elig[pick] && cand[pick]);
        assert ($countones(oldest_oh) == 1 && $countones(newest_oh) == 1);
      end
      // event / parked / restore-pending sets are consistent: a parked
      // victim's slot runs its event warp or waits for its restore
      assert ((pend_q & event_q) == '0);
      assert ((pend_q & ~vict_q) == '0);
      assert ((vict_q & ~(event_q | pend_q)) == '0);
      assert (((skip_q | saved_q) & ~vict_q) == '0);
      if (rbusy_q) assert (pend_q[rslot_q]);
    end
  end
endmodule
