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
// Victim selection takes SEL_CYCLES = 5 cycles (for the ECP5 clock target,
// and a fraction of the area of a one-cycle 64 x 64 reduction), as a
// tournament over groups of G = 8 slots:
//   edge S    (IDLE, a request, no free context, cfg_en_i): the eligible warps
//             (e_q), those of them at a barrier / without loads, the policy;
//             a selection begins at the first such edge with an eligible
//             warp (while there is none, e_q is loaded again every edge)
//   edge S+1  cand_q := the candidates (eligible warps of the policy's tier)
//   edge S+2  per group, the oldest (newest) candidate within the group, from
//             the group's 8 x 8 block of the age order: gw_q (one-hot), gany_q
//   edge S+3  per pair of groups, which group winner is older: pair_q, one
//             bit of the age order each, at the winners' positions
//   edge S+4  the group whose winner beats every other group's: the pick,
//             loaded into victim_q / vidx_q, so victim_o names it and the
//             core reports its status (p_* at S+5, v_* in FLUSH)
//   edge S+5  FLUSH(pick) when the request still waits with no free context,
//             cfg_en_i is still set, the pick is still live and not exiting
//             (!p_left_i),
//             and no warp eligible at S has been re-allocated at edges
//             S+1..S+4 (its warp exited and a new block took the slot);
//             otherwise back to the start (a new selection from this edge on)
// state_o stays IDLE meanwhile; a request that finds a free context STARTs
// there at once, abandoning a selection under way.  An allocation moves only
// the slots it names, so while no eligible warp is re-allocated the order
// among the candidates stays as it was after edge S, and the pick is the
// oldest / newest candidate of edge S by it.  The group winners are
// one-hot (S+3 reads the age order through one-hot AND-ORs: fewer LUTs than
// through their indices, measured); the victim (= the pick) and the restore
// slot are one-hot for the slot sets and carry a registered index besides,
// for the command port and victim_o (no one-hot encoder in front of either).
//
// The victim's per-warp bits come from the core on v_left_i / v_bar_i /
// v_ld_i, beside v_pipe_i .. v_ldok_i: the core reports the status of the warp
// in slot victim_o, which is the pick from edge S+4 on (so no 64:1 mux of
// w_* at the victim's index stands in front of the FSM's command; the core
// muxes its own per-warp state for the other v_* already).  At S+5 the FSM
// reads the same three bits of the pick on p_left_i / p_bar_i / p_ld_i
// instead (victim_o names the pick then too), and v_* in FLUSH only: so a
// core that registers the bits a cycle ahead drives v_* from its register
// of slot victim_o and p_* from the group winners' (below), and the choice
// between the two is no multiplexer in front of the FSM.  A core may
// register those bits a cycle ahead from registered outputs only:
// victim_o names the same slot after the next edge unless the selection loads
// its pick there, and that pick is group g's winner (g * G + grp_win_o[g])
// for the g that pick_grp_o then shows (one-hot; 0 when victim_o did not
// change at the last edge).  So the core registers the bits of slot victim_o
// (v_*, read in FLUSH, when victim_o has not changed for a cycle) and of each
// group winner's slot (p_*: the winner's of the group pick_grp_o shows): no
// tournament and no 64:1 mux in front of the FSM (the FPGA top's core slice
// does, fpga/regmap.py PRE_VSTAT).
//
// Victim sets (EDGE VI-C's multi-warp preemption; sim/twin/edge_preempt.h
// "Victim sets"): with FG_PREEMPT_SETS defined to N (the parameter SET_MAX's
// default, 1..4), an event no single warp has the registers for borrows the
// smallest set of up to SET_MAX adjacent slots of one allocation that covers
// them, flushed member by member.  The define compiles the logic and the
// parameter in: without it (the default, and the FPGA top) the controller is
// the single-victim one of EDGE IV-D and synthesizes to its netlist bit for
// bit (Yosys maps even an unused parameter or dead logic differently).
//
// State (flops but evregs_q, Sec. IV-E "logic for warp-level preemption"):
//   ord_q[i][j]    the age order as one bit per slot pair i < j (2016 flops
//                  for 64 slots): i was allocated before j; for j < i the
//                  order is the complement (a strict total order); each bit
//                  a flip-flop with no LUT (its set and enable pins), the
//                  registered allocation kept once per 8 x 8 block (576
//                  flops for 64 slots) so that its nets stay in the block
//   regs_q[i]      registers per thread of the warp in slot i
//   event_q        slots running an event warp
//   vict_q         slots holding a parked (preempted) victim, until RESUME
//   skip_q/saved_q per parked victim: taken out of its barrier / registers saved
//   pend_q         restore-pending (event warp exited, victim not resumed yet)
//   evregs_q[i]    registers per thread of the event warp that borrowed slot i
//                  (LUT RAM: written at the victim's index, read at two)
// Every output is a register (or a register vector; cnt_err_o and
// cnt_resume_o add the last edge's count to a register): the C side reads
// outputs, computes inputs, steps.
//
// Style (docs/RTL_STYLE.md): commands, arguments, options, policies, FSM
// states and error codes from edge_pkg (rtl/edge/edge_enc.toml; the twin's
// sim/twin/gen/edge_preempt_enc.h comes from the same list); named
// assertions (rtl/include/fg_assert.svh); parameters checked at elaboration
// as the twin checks them.
`include "fg_assert.svh"
`include "fg_comb.svh"
`include "fg_enum.svh"
module edge_preempt #(
  parameter int NW     = 64,  // warp slots per core (2048 threads / 32)
  parameter int SLOT_W = 6,   // clog2(NW)
  parameter int REGS_W = 7,   // registers per thread, 0..64
  parameter int CYC_W  = 16   // save / restore cycle counter
`ifdef FG_PREEMPT_SETS
  , parameter int SET_MAX = `FG_PREEMPT_SETS  // most warps one event may borrow, 1..4 (EDGE VI-C)
`endif
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
  input  logic              v_left_i,            // exited or exiting: w_exit_i or !w_live_i of that slot
  input  logic              v_bar_i,             // w_bar_i of that slot
  input  logic              v_ld_i,              // w_ld_i of that slot
  // the same three bits of the pick (slot victim_o at S+5, read there only)
  input  logic              p_left_i,
  input  logic              p_bar_i,
  input  logic              p_ld_i,
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
  // (NW + 7) / 8: NG, the tournament's groups of G = 8 slots (below)
  output logic [3*((NW+7)/8)-1:0] grp_win_o,    // per group: its winner's index within the group
  output logic [(NW+7)/8-1:0]     pick_grp_o,   // the group of the pick loaded into victim_o at the last edge
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
  `FG_IMPORT(edge_pkg)
  // parameter legality, as the twin refuses (sim/twin/edge_preempt.c)
  `FG_ASSERT_PARAM(g_chk_nw, NW >= 2 && NW <= 64, "edge_preempt: NW must be 2..64")
  `FG_ASSERT_PARAM(g_chk_slot_w, SLOT_W == $clog2(NW), "edge_preempt: SLOT_W must be clog2(NW)")
  `FG_ASSERT_PARAM(g_chk_regs_w, REGS_W >= 1 && REGS_W <= 16, "edge_preempt: REGS_W must be 1..16")
  `FG_ASSERT_PARAM(g_chk_cyc_w, CYC_W >= 1 && CYC_W <= 32, "edge_preempt: CYC_W must be 1..32")
`ifdef FG_PREEMPT_SETS
  `FG_ASSERT_PARAM(g_chk_set_max, SET_MAX >= 1 && SET_MAX <= 4, "edge_preempt: SET_MAX must be 1..4")
`endif

  // ------------------------------------------------------------ encodings
  // cfg_opt_i's bits the controller itself reads (BOOST, IBUF: the core only)
  localparam logic [3:0] OPT_BARSKIP = edge_pkg::PRE_OPT_BARSKIP, OPT_DROP = edge_pkg::PRE_OPT_DROP;

  // selection tournament: NG groups of G slots
  localparam int G     = 8;
  localparam int NG    = (NW + G - 1) / G;
  localparam int NWP   = NG * G;              // slots padded to whole groups
  localparam logic [2:0] SEL_LAST = 3'd5;
  `FG_ASSERT_PARAM(g_chk_g, G == 8, "edge_preempt: the tournament's step S+3 is written for groups of 8")

  // -------------------------------------------------------------- helpers
  function automatic logic [15:0] sat16(input logic [15:0] c, input logic [1:0] n);
    logic [16:0] s;
    s = {1'b0, c} + 17'(n);
    sat16 = s[16] ? 16'hffff : s[15:0];
  endfunction
  function automatic logic [31:0] sat32(input logic [31:0] c);
    sat32 = (c == 32'hffffffff) ? c : c + 32'd1;
  endfunction
  function automatic logic [2:0] enc8(input logic [7:0] oh);
    enc8 = '0;
    for (int i = 0; i < 8; i++) enc8 = enc8 | (oh[i] ? 3'(i) : '0);
  endfunction

  // ---------------------------------------------------------------- state
  logic [NW-1:0]     ord_q [NW];      // age order (edge_preempt_age): ord_q[i][j], j > i only
  logic [REGS_W-1:0] regs_q [NW];     // regs table
  logic [REGS_W-1:0] evregs_q [NW];   // event regs per borrowed slot (restore time)
  logic [NW-1:0]     event_q, vict_q, skip_q, saved_q, pend_q;
  logic [NW-1:0]     busy_q;          // event_q | vict_q (one register: fewer inputs in front of e_q)
  `FG_ENUM(edge_pkg, pre_state_e) st_q;
  logic [2:0]        sel_q;           // selection step (0: none), within edge_pkg::PRE_ST_IDLE
  logic [NW-1:0]     e_q, eb_q, en_q; // eligible warps of edge S; at a barrier; without loads
  logic [NG-1:0]     e_grp_q;         // per group of G slots: some warp of it in e_q
  logic              pol_q, cheap_q, bsk_q;  // policy newest / cheapest, barrier skipping
  logic              dist_q;          // a warp eligible at S was re-allocated since
  logic [NW-1:0]     cand_q;          // candidates of the selection under way
  logic [NWP-1:0]    gw_q;            // per group: its winner, one-hot
  logic [NG-1:0]     gany_q;          // per group: has a candidate
  logic [NG*NG-1:0]  pair_q;          // [a*NG+b], a < b: a's winner is older
  logic [NW-1:0]     victim_q;        // the pick / victim, one-hot (loaded at S+4)
  logic [SLOT_W-1:0] vidx_q;          // ... its index: victim_o, the slot v_* describe
  logic [3*NG-1:0]   gidx_q;          // per group: its winner's index within the group (grp_win_o)
  logic [NG-1:0]     pgrp_q;          // the pick's group, one-hot, the edge it is loaded (pick_grp_o)
  logic [5:0]        vstat_q;
  logic              first_q;         // first FLUSH cycle (vstat completes)
  logic              skipped_q;       // this victim was taken out of its barrier
  logic [3:0]        opt_q;           // options of this flush (FLUSH's arg)
  logic [REGS_W-1:0] ereg_q;          // registers of the event this flush is for
  logic              rbusy_q;         // restore FSM: a slot is being restored
  logic [NW-1:0]     rslot_q;         // ... the slot, one-hot
  logic [SLOT_W-1:0] rsidx_q;         // ... its index
  logic              rsaved_q;        // ... its registers were saved
  logic              rskip_q;         // ... it was taken out of its barrier
  logic              rnew_q;          // ... taken at the last edge (its pend / skip / saved bits clear now)
  `FG_ENUM(edge_pkg, pre_cmd_e) cmd_q;
  logic [SLOT_W-1:0] cmd_slot_q;
  logic [3:0]        cmd_arg_q;
  logic              err_v_q;
  logic [1:0]        err_code_q;
  logic [15:0]       cnt_err_q, cnt_abort_q;
  logic [1:0]        err_n_q;         // errors of the last edge, not yet in cnt_err_q (its add off the error path)
  logic [31:0]       cnt_sfree_q, cnt_spre_q, cnt_res_q;
  logic              res_n_q;         // a RESUME at the last edge, not yet in cnt_res_q (its enable off rfire)
`ifdef FG_PREEMPT_SETS
  // victim sets
  localparam bit SETS = SET_MAX > 1;
  logic [NW-1:0]     sn_q;            // slots i and i + 1 hold warps of one allocation
  logic [NW-1:0]     em_q;            // members of the candidate sets of edge S (their re-allocation voids it)
  logic [2:0]        kset_q;          // set size of the selection under way
  logic [2:0]        kleft_q;         // members after the current one
  logic [NW-1:0]     mset_q, hoh_q;   // the set under flush; its head, one-hot
  logic [SLOT_W-1:0] hidx_q;          // ... the head's index (the START's slot)
  logic [NW-1:0]     skm_q;           // members taken out of their barrier, before the current one
  logic              hskip_q;         // the head was taken out of its barrier
  logic              athead_q;        // the current member is the head
  logic              unw_q;           // the set is given up: ABORT back to the head
  logic [NW-1:0]     comp_q;          // parked companions (members but the head) until their event exits
`endif

  // ------------------------------------------------- age order (IV-D)
  // An allocation naming an event warp's or a parked victim's slot is
  // ignored as a whole (PRE_ERR_ALLOC_BUSY).  w_alloc_i's slots become the
  // newest warps, lower slot older within the block (edge_preempt_age.sv:
  // one flip-flop per slot pair on its set and enable pins, no LUT).  Reset
  // goes through the same datapath (every slot allocated at once: lower slot
  // older).
  //
  // The age order takes the accepted allocation one edge later in its
  // diagonal 8 x 8 blocks (the pairs within a group of G slots) and two
  // edges later in the others (edge_preempt_age.sv: a register, then a copy
  // per block, so neither w_alloc_i -> the 64-wide busy check nor the
  // register reaches 2,016 age bits spread over the die in one cycle).
  // Nothing sees the difference: the age order is read only by the
  // selection's steps S+2 (the diagonal blocks) and S+3 (the others), among
  // candidates of edge S: each read holds every allocation up to edge S, and
  // a later allocation of a non-candidate does not change the order among
  // candidates (a candidate re-allocated at S+1..S+4 voids the selection,
  // dist_q).  The regs table takes the allocation at its own edge (the
  // eligibility reads it at the next; no bypass of a late table from the
  // registered allocation, whose compare would fan out to the 64 slots).
  // Reset: every slot allocated, so the second edge after the reset edge
  // has set the reset order; the reset zeroes the table.
  wire          alloc_busy = (w_alloc_i & busy_q) != '0;
  wire          alloc_ok   = !alloc_busy;
  wire [NW-1:0] age_alloc  = !rst_ni ? '1 : (alloc_ok ? w_alloc_i : '0);
  logic [NW*NW-1:0] ord_flat;
  edge_preempt_age #(.NW(NW)) u_age (.clk_i, .alloc_i(age_alloc), .ord_o(ord_flat));
  for (genvar i = 0; i < NW; i++) begin : g_ord
    assign ord_q[i] = ord_flat[i*NW +: NW];
  end

  // regs table; the event registers of a borrowed slot (no reset: read
  // only when saved_q[i] is set, which is written in the same edge)
  logic start_pre;  // a START into the victim's slot at this edge (FSM below)
  for (genvar i = 0; i < NW; i++) begin : g_slot
    always_ff @(posedge clk_i) begin
      if (!rst_ni) regs_q[i] <= '0;
      else if (w_alloc_i[i] && alloc_ok) regs_q[i] <= w_alloc_regs_i;
    end
  end
  // evregs_q is written at one index (the victim's) and read at two (the
  // restore look-ahead's, below): LUT RAM, not 64 x 7 flip-flops
  logic [SLOT_W-1:0] victim_idx;
`ifdef FG_PREEMPT_SETS
  // (a set: the event's count at the head, 0 at each companion, written as
  // the flush passes each member: a companion's restore waits the base only)
  logic step_fwd_w;
  always_ff @(posedge clk_i) begin
    if (start_pre || step_fwd_w) evregs_q[victim_idx] <= athead_q ? ereg_q : '0;
  end
`else
  always_ff @(posedge clk_i) begin
    if (start_pre) evregs_q[victim_idx] <= ereg_q;
  end
`endif

  // ------------------------------------------------- eligibility (IV-D)
  // Eligible: live, not exiting, not an event warp, not holding a parked
  // victim, and at least as many registers per thread as the event kernel.
  (* keep *) logic [NW-1:0] regs_ge;  // keep: a LUT level of its own, not merged into wide functions
  logic [NW-1:0] elig;
  always_comb begin
    for (int i = 0; i < NW; i++) regs_ge[i] = regs_q[i] >= req_regs_i;
  end
  assign elig = w_live_i & ~w_exit_i & ~busy_q & regs_ge;
`ifdef FG_PREEMPT_SETS
  // With SET_MAX > 1 and no single victim: the heads of the smallest sets of
  // k adjacent slots of one allocation that cover the need (regs >= ceil(need
  // / k): k x regs >= need); etier the selection's candidates, emem their
  // sets' members, ktier k
  function automatic logic [2*NW+2:0] set_tier(input logic [NW-1:0] el, input logic [NW-1:0] be,
                                               input logic [NW-1:0] sn, input logic [NW*REGS_W-1:0] rg,
                                               input logic [REGS_W-1:0] need);
    logic [NW-1:0]   win, heads, et, em;
    logic [REGS_W:0] thr;
    logic [2:0]      kt;
    logic            found;
    et    = el;
    em    = el;
    kt    = 3'd1;
    win   = be;
    heads = '0;
    thr   = '0;
    found = 1'b0;
    if (SETS && el == '0) begin
      for (int k = 2; k <= SET_MAX; k++) begin
        win = win & (sn >> (k - 2)) & (be >> (k - 1));
        thr = (REGS_W+1)'(({1'b0, need} + (REGS_W+1)'(k - 1)) / (REGS_W+1)'(k));
        for (int i = 0; i < NW; i++) heads[i] = win[i] && {1'b0, rg[i*REGS_W +: REGS_W]} >= thr;
        if (!found && heads != '0) begin
          found = 1'b1;
          et    = heads;
          kt    = 3'(k);
          em    = '0;
          for (int j = 0; j < k; j++) em = em | (heads << j);
        end
      end
    end
    set_tier = {kt, em, et};
  endfunction
  wire [NW-1:0] base_e = w_live_i & ~w_exit_i & ~busy_q;
  logic [NW*REGS_W-1:0] regs_flat;
  for (genvar i = 0; i < NW; i++) begin : g_regs_flat
    assign regs_flat[i*REGS_W +: REGS_W] = regs_q[i];
  end
  logic [NW-1:0] etier, emem;
  logic [2:0]    ktier;
  assign {ktier, emem, etier} = set_tier(elig, base_e, sn_q, regs_flat, req_regs_i);
  wire [NWP-1:0] elig_p = NWP'(etier);
`else
  wire [NWP-1:0] elig_p = NWP'(elig);
`endif

  // ------------------------------------------------- selection tournament
  // Each step's logic runs under its own sel_q test, so the verilated model
  // evaluates it only in its cycle (synthesis: the same logic before the
  // step's register enable).  Step S+3 is computed in every cycle in
  // synthesis (SIM_ALL): its kept LUT4 pieces must not take the test as a
  // fifth input; it is read only at S+3 either way.
`ifdef SYNTHESIS
  localparam bit SIM_ALL = 1'b1;
`else
  localparam bit SIM_ALL = 1'b0;
`endif
  // S+1: the candidates.  CHEAPEST (our third policy): a warp idle at a
  // barrier is free to take when barrier skipping is on; else a warp without
  // loads in flight (the dominant cost, EDGE VI-B / Fig. 11b); else any;
  // oldest within the tier (GTO favours old warps, so they drain first).
  logic [NW-1:0] cand;
  always_comb begin
    cand = e_q;
    if (cheap_q) begin
      if (bsk_q && (eb_q != '0)) cand = eb_q;
      else if (en_q != '0) cand = en_q;
    end
  end

  // S+2: within each group, the candidate no other candidate of the group is
  // older (newer) than: for i, j in the group, j older than i is
  // ord_q[j][i] when j < i, !ord_q[i][j] when j > i.
  wire [NWP-1:0] cand_p = NWP'(cand_q);
  logic [NWP-1:0] gw_d;
  logic [NG-1:0]  gany_d;
  always_comb begin
    logic beaten, j_older;
    beaten  = 1'b0;
    j_older = 1'b0;
    gw_d    = '0;
    gany_d  = '0;
    if (sel_q == 3'd2) begin
      for (int i = 0; i < NW; i++) begin
        beaten = 1'b0;
        for (int j = (i / G) * G; j < (i / G) * G + G; j++)
          if (j < NW && j != i) begin
            j_older = (j < i) ? ord_q[j][i] : !ord_q[i][j];
            beaten  = beaten | (cand_p[j] & (pol_q ? !j_older : j_older));
          end
        gw_d[i] = cand_p[i] && !beaten;
      end
      for (int g = 0; g < NG; g++) gany_d[g] = cand_p[g*G +: G] != '0;
    end
  end

  // S+3: per pair of groups a < b, is a's winner older than b's?  The
  // winner's row of the pair's 8 x 8 block of the age order (a < b: stored
  // bits), then its bit at b's winner: two one-hot AND-ORs.
  // Written as LUT4-sized pieces, each kept as a net of its own: two
  // one-hot terms per piece, four pieces per OR, so a 16-input AND-OR is two
  // LUT levels and the step four (left to ABC it takes six levels, or wide
  // multiplexers whose size swings with unrelated changes).  G = 8 (checked
  // above).  Pair p = a*NG + b.
  // Group a's winner as the pair's row pieces read it: one copy per pair
  // (loaded from gw_d at every edge, which is 0 but at S+2, so at S+3 it
  // equals gw_q; keep, or Yosys merges them back), so each bit drives
  // the eight pieces of one block and not 56 across the controller (in the
  // four-core FPGA top the shared gw_q was 6.4 % of the router's overused
  // wires, docs/FPGA_TIMING.md).
  logic [NG*NG*G-1:0] gw_pair;   // [p][x], p = a*NG + b, a < b (else 0)
  for (genvar a = 0; a < NG; a++) begin : g_gwa
    for (genvar b = 0; b < NG; b++) begin : g_gwb
      if (b > a) begin : g_pair
        logic [G-1:0] gwr_q;
        (* keep *) always_ff @(posedge clk_i) gwr_q <= gw_d[a*G +: G];
        assign gw_pair[(a*NG + b)*G +: G] = gwr_q;
      end else begin : g_none
        assign gw_pair[(a*NG + b)*G +: G] = '0;
      end
    end
  end
  (* keep *) logic [NG*NG*4*G-1:0] s3_rq;   // row bit y of pair p: four pieces [p][y][k]
  (* keep *) logic [NG*NG*G-1:0]   s3_row;  // a's winner's row of the pair's block [p][y]
  (* keep *) logic [NG*NG*4-1:0]   s3_pq;   // the pair: four pieces [p][k]
  logic [NG*NG-1:0] pair_d;
  `FG_COMB_READBACK begin
    s3_rq  = '0;
    s3_row = '0;
    s3_pq  = '0;
    pair_d = '0;
    if (SIM_ALL || sel_q == 3'd3) begin
      for (int a = 0; a < NG; a++)
        for (int b = a + 1; b < NG; b++) begin
          for (int y = 0; y < G; y++) begin
            // slots a*G + 2k and a*G + 2k + 1 against column b*G + y (a slot
            // or column past NW holds no candidate)
            for (int k = 0; k < 4; k++)
              for (int x = 2*k; x < 2*k + 2; x++)
                if (a*G + x < NW && b*G + y < NW)
                  s3_rq[((a*NG + b)*G + y)*4 + k] = s3_rq[((a*NG + b)*G + y)*4 + k] |
                                                    (gw_pair[(a*NG + b)*G + x] & ord_q[a*G + x][b*G + y]);
            s3_row[(a*NG + b)*G + y] = s3_rq[((a*NG + b)*G + y)*4 +: 4] != '0;
          end
          for (int k = 0; k < 4; k++)
            s3_pq[(a*NG + b)*4 + k] = (s3_row[(a*NG + b)*G + 2*k] & gw_q[b*G + 2*k]) |
                                      (s3_row[(a*NG + b)*G + 2*k + 1] & gw_q[b*G + 2*k + 1]);
          pair_d[a*NG + b] = s3_pq[(a*NG + b)*4 +: 4] != '0;
        end
    end
  end

  // S+4: the group whose winner beats every other group's winner.  Its
  // winner, the pick, becomes the victim (victim_o) unless the selection is
  // void already (a candidate re-allocated at S+1..S+3: the order S+2 and
  // S+3 read may have moved under it, so no pick is shown)
  wire pick_load = sel_q == 3'd4 && !dist_q;
  logic [NG-1:0] gbest;
  logic [NW-1:0] pick_d;
  logic [SLOT_W-1:0] pidx_d;
  `FG_COMB_READBACK begin
    logic ok, a_older;
    ok      = 1'b0;
    a_older = 1'b0;
    gbest   = '0;
    pick_d  = '0;
    pidx_d  = '0;
    if (sel_q == 3'd4) begin
      for (int a = 0; a < NG; a++) begin
        ok = gany_q[a];
        for (int b = 0; b < NG; b++)
          if (b != a) begin
            a_older = (a < b) ? pair_q[a*NG + b] : !pair_q[b*NG + a];
            ok = ok & (!gany_q[b] | (pol_q ? !a_older : a_older));
          end
        gbest[a] = ok;
      end
      for (int i = 0; i < NW; i++) pick_d[i] = gw_q[i] && gbest[i / G];
      for (int g = 0; g < NG; g++) pidx_d = pidx_d | (gbest[g] ? SLOT_W'(g * G + 32'(gidx_q[3*g +: 3])) : '0);
    end
  end

  // ------------------------------------------------ preemption FSM (IV-D)
  // the victim's per-warp bits are the core's v_* inputs (the pick's at S+5: p_*)
  wire drained  = !v_pipe_i && !v_ibuf_i && !v_imiss_i && !v_bar_i && !v_ld_i;
  wire p_alive  = !p_left_i && !dist_q;  // at S+5 victim_o is the pick
  assign victim_idx = vidx_q;
  // the SAVE time (EDGE IV-D), loaded entering SAVE: save_due from the
  // (save cycles + 1)-th SAVE cycle on (edge_preempt_timer.sv)
  logic save_due;
  wire [3:0] skip_arg = skipped_q ? edge_pkg::PRE_ARG_SKIPPED : 4'd0;
`ifdef FG_PREEMPT_SETS
  // a set's next member: one allocation with the current one, live, not exiting
  wire [SLOT_W-1:0] vnext = vidx_q + SLOT_W'(1);
  wire next_ok  = sn_q[vidx_q] && w_live_i[vnext] && !w_exit_i[vnext];
  wire more     = kleft_q != '0;
  wire [3:0] hsk_arg = (athead_q ? skipped_q : hskip_q) ? edge_pkg::PRE_ARG_SKIPPED : 4'd0;  // the head's
  logic step_fwd, step_back, unw_on;
  assign step_fwd_w = step_fwd;
`endif

  `FG_ENUM(edge_pkg, pre_state_e) st_d;
  logic [2:0]        sel_d;
  `FG_ENUM(edge_pkg, pre_cmd_e) pcmd;  // command of the preemption FSM this edge
  logic [SLOT_W-1:0] pslot;
  logic [3:0]        parg;
  logic              sel_load, sel_flush, start_free, do_skip, to_save, do_abort;

  always_comb begin
    st_d       = st_q;
    sel_d      = 3'd0;
    pcmd       = edge_pkg::PRE_CMD_NONE;
    pslot      = '0;
    parg       = '0;
    sel_load   = 1'b0;
    sel_flush  = 1'b0;
    start_free = 1'b0;
    start_pre  = 1'b0;
    do_skip    = 1'b0;
    to_save    = 1'b0;
    do_abort   = 1'b0;
`ifdef FG_PREEMPT_SETS
    step_fwd   = 1'b0;
    step_back  = 1'b0;
    unw_on     = 1'b0;
`endif
    case (st_q)
      edge_pkg::PRE_ST_IDLE: begin
        if (req_valid_i && free_ctx_i) begin
          pcmd = edge_pkg::PRE_CMD_START;  pslot = free_slot_i;  st_d = edge_pkg::PRE_ST_WAIT;  start_free = 1'b1;
        end else if (req_valid_i && cfg_en_i) begin
          if (sel_q == 3'd0 || (sel_q == 3'd1 && e_grp_q == '0)) begin
            sel_load = 1'b1;  sel_d = 3'd1;   // (again) the eligible warps of this edge
          end else if (sel_q != SEL_LAST) begin
            sel_d = sel_q + 3'd1;
          end else if (p_alive) begin
            pcmd = edge_pkg::PRE_CMD_FLUSH;  pslot = victim_idx;  parg = cfg_opt_i;  st_d = edge_pkg::PRE_ST_FLUSH;  sel_flush = 1'b1;
          end else begin
            sel_load = 1'b1;  sel_d = 3'd1;   // the pick is gone: start again from this edge
          end
        end
      end
      edge_pkg::PRE_ST_FLUSH: begin
        pslot = victim_idx;
`ifdef FG_PREEMPT_SETS
        if (unw_q) begin
          // a set given up: ABORT its members back to the head
          pcmd = edge_pkg::PRE_CMD_ABORT;  parg = (skm_q & victim_q) != '0 ? edge_pkg::PRE_ARG_SKIPPED : 4'd0;
          do_abort = 1'b1;
          if (athead_q) st_d = edge_pkg::PRE_ST_IDLE;
          else step_back = 1'b1;
        end else if (v_left_i || (more && drained && !next_ok)) begin
          // a victim that exits while being flushed (or a set whose next
          // member is gone): back to selection, a set's members first
          pcmd = edge_pkg::PRE_CMD_ABORT;  parg = skip_arg;  do_abort = 1'b1;
          if (athead_q) st_d = edge_pkg::PRE_ST_IDLE;
          else begin step_back = 1'b1;  unw_on = 1'b1; end
        end else
`else
        if (v_left_i) begin
          // a victim that exits while being flushed: back to selection
          pcmd = edge_pkg::PRE_CMD_ABORT;  parg = skip_arg;  st_d = edge_pkg::PRE_ST_IDLE;  do_abort = 1'b1;
        end else
`endif
        if ((opt_q & OPT_BARSKIP) != '0 && v_bar_i && !skipped_q) begin
          pcmd = edge_pkg::PRE_CMD_SKIPBAR;  do_skip = 1'b1;
        end else if ((opt_q & OPT_DROP) != '0 && v_ld_i && v_ldok_i) begin
          pcmd = edge_pkg::PRE_CMD_DROP;
        end else if (drained) begin
`ifdef FG_PREEMPT_SETS
          if (more) begin       // on to the set's next member
            pcmd = edge_pkg::PRE_CMD_FLUSH;  pslot = vnext;  parg = opt_q;  step_fwd = 1'b1;
          end else if (rf_free_i) begin  // reserve free registers
            pcmd = edge_pkg::PRE_CMD_START;  pslot = hidx_q;  parg = edge_pkg::PRE_ARG_PREEMPTED | hsk_arg;
            st_d = edge_pkg::PRE_ST_WAIT;  start_pre = 1'b1;
          end else begin
`else
          if (rf_free_i) begin  // reserve free registers
            pcmd = edge_pkg::PRE_CMD_START;  parg = edge_pkg::PRE_ARG_PREEMPTED | skip_arg;  st_d = edge_pkg::PRE_ST_WAIT;  start_pre = 1'b1;
          end else begin
`endif        // save the victim's registers first
            st_d = edge_pkg::PRE_ST_SAVE;  to_save = 1'b1;
          end
        end
      end
      edge_pkg::PRE_ST_SAVE: begin
        if (save_due) begin
`ifdef FG_PREEMPT_SETS
          pcmd = edge_pkg::PRE_CMD_START;  pslot = hidx_q;  parg = edge_pkg::PRE_ARG_PREEMPTED | edge_pkg::PRE_ARG_SAVED | hsk_arg;
`else
          pcmd = edge_pkg::PRE_CMD_START;  pslot = victim_idx;  parg = edge_pkg::PRE_ARG_PREEMPTED | edge_pkg::PRE_ARG_SAVED | skip_arg;
`endif
          st_d = edge_pkg::PRE_ST_WAIT;  start_pre = 1'b1;
        end
      end
      default: st_d = edge_pkg::PRE_ST_IDLE;  // edge_pkg::PRE_ST_WAIT: the PEWT consumes the start
    endcase
  end

  // ------------------------------------------------------- restore FSM
  // The lowest restore-pending slot is taken when the FSM is free; its
  // restore time (the save count of its event's registers with the save
  // configuration of that edge when SAVED, else 0) is timed by a second
  // edge_preempt_timer, which computes it in the cycles after the taking
  // edge (the multiply is off the slot-choice path) and is due exactly when
  // a count loaded at the taking edge would be.  Then RESUME when the
  // preemption FSM leaves the command port free (the timer stays due).
  //
  // The lowest pending slot is found one edge ahead (so no 64-bit first-one
  // carry chain and 64-wide AND-OR of evregs / saved stand in front of the
  // timer).  Let Q be the
  // pending slots not under restore (pend_q without rslot_q while busy).  At
  // an edge T with the FSM free, pend_q = Q of T-1 plus the slot an event
  // exit added at T-1 (a RESUME at T-1 removed rslot, already out of Q; a
  // take at T-1 would leave the FSM busy at T).  So every edge registers
  // the lowest slot of Q with its evregs / saved (rl_*_q, a priority-mux
  // tree of log depth) and the slot an exit adds (ra_*_q); the take at T
  // picks the lower of the two: the same slot at the same edge as a search
  // of pend_q at T (asserted below).
  logic [NW-1:0] rq;  // Q: pending, not under restore
  assign rq = pend_q & ~(rbusy_q ? rslot_q : '0);
  // priority-mux tree over rq: level 0 the slots, each level the lower
  // valid child of a pair; nodes padded to a power of two
  localparam int RT_N = 1 << $clog2(NW);
  localparam int RT_D = 2 + SLOT_W;  // {skip, saved, index}
  // A function of its arguments, worked in place level by level (node n of
  // a level is written after its children 2n, 2n+1 of the level below are
  // read, and after node n / 2, the only reader of the old n): not an
  // always_comb that clears a module-level tree and then reads what it
  // wrote, which an event-driven simulator re-runs on its own writes (Icarus
  // stalled in it at the first cycles; docs/RTL_STYLE.md).  The same logic.
  function automatic logic [RT_D:0] rtree(input logic [NW-1:0] v, input logic [NW-1:0] sv,
                                          input logic [NW-1:0] kv);
    logic [RT_N-1:0]           tv;
    logic [RT_N*RT_D-1:0]      td;  // node n at [n*RT_D +: RT_D] (one flat vector: Yosys 0.23)
    tv = '0;
    td = '0;
    for (int i = 0; i < NW; i++) begin
      tv[i] = v[i];
      td[i*RT_D +: RT_D] = {kv[i], sv[i], SLOT_W'(i)};
    end
    for (int l = 1; l <= $clog2(NW); l++)
      for (int n = 0; n < (RT_N >> l); n++) begin
        td[n*RT_D +: RT_D] = tv[2*n] ? td[2*n*RT_D +: RT_D] : td[(2*n+1)*RT_D +: RT_D];
        tv[n] = tv[2*n] | tv[2*n+1];
      end
    rtree = {tv[0], td[RT_D-1:0]};
  endfunction
  logic              rt_any;
  logic [RT_D-1:0]   rl_d;
  assign {rt_any, rl_d} = rtree(rq, saved_q, skip_q);
  logic              rl_any_q, rl_saved_q, rl_skip_q, ra_v_q, ra_saved_q, ra_skip_q;
  logic [SLOT_W-1:0] rl_idx_q, ra_idx_q;
  logic [NW-1:0]     ra_oh_q;  // the exit's slot, one-hot (decoded before its register)
  logic [REGS_W-1:0] ra_regs_q;
  logic [NW-1:0]     rl_oh;     // Q's lowest, one-hot: decoded beside the compare below
  always_comb begin
    for (int i = 0; i < NW; i++) rl_oh[i] = rl_idx_q == SLOT_W'(i);
  end
  // the take: the lower of Q's lowest and the slot added at the last edge;
  // its one-hot form is a mux of the two one-hot forms after the compare,
  // not a decode of the compare's result (timing; decoding Q's lowest
  // before its register would lengthen the tree's path instead)
  wire               use_a     = ra_v_q && (!rl_any_q || ra_idx_q < rl_idx_q);
  wire [SLOT_W-1:0]  low_idx   = use_a ? ra_idx_q : rl_idx_q;
  wire [REGS_W-1:0]  low_regs  = use_a ? ra_regs_q : evregs_q[rl_idx_q];
  wire               low_saved = use_a ? ra_saved_q : rl_saved_q;
  wire               low_skip  = use_a ? ra_skip_q : rl_skip_q;
  wire [NW-1:0]      pend_low  = use_a ? ra_oh_q : rl_oh;  // lowest pending slot, one-hot
  wire rtake = !rbusy_q && (rl_any_q || ra_v_q);
  logic rtime_due;
  wire rdue  = rbusy_q && rtime_due;
  wire rfire = rdue && (pcmd == edge_pkg::PRE_CMD_NONE);
  wire [3:0] rarg = edge_pkg::PRE_ARG_PREEMPTED | (rsaved_q ? edge_pkg::PRE_ARG_SAVED : 4'd0) |
                    (rskip_q ? edge_pkg::PRE_ARG_SKIPPED : 4'd0);

  // ------------------------------------------------- events and errors
  logic [NW-1:0] ev_slot_oh, free_oh;
  always_comb begin
    for (int i = 0; i < NW; i++) begin
      ev_slot_oh[i] = ev_exit_slot_i == SLOT_W'(i);
      free_oh[i]    = start_free && free_slot_i == SLOT_W'(i);
    end
  end
  // a slot index past NW (NW not a power of two) holds no event warp: EXIT_UNKNOWN, as
  // in the twin, not an out-of-range read; at NW = 2^SLOT_W every index is a slot, and
  // the elaboration-time choice leaves no compare in the netlist
  localparam bit NW_POW2      = NW == (1 << SLOT_W);
  wire           ev_in_range  = NW_POW2 ? 1'b1 : ev_exit_slot_i < SLOT_W'(NW);
  wire           ev_is_event  = ev_in_range && event_q[ev_exit_slot_i];  // a mux, not decode + reduce (timing)
  wire           exit_known   = ev_exit_i && ev_is_event;
  wire           exit_unknown = ev_exit_i && !ev_is_event;
  // the known exit's slot, bit by bit: slot i is named and runs an event warp
  // (= exit_known at i, without the 64:1 mux of event_q in front: timing)
  wire [NW-1:0]  ev_exit_oh   = ev_exit_i ? (ev_slot_oh & event_q) : '0;
`ifdef FG_PREEMPT_SETS
  wire [NW-1:0]  pre_oh       = start_pre ? hoh_q : '0;    // the event warp's slot
  wire [NW-1:0]  pre_set      = start_pre ? mset_q : '0;   // every member parks
  wire [NW-1:0]  pre_skip     = start_pre ? (skm_q | (skipped_q ? victim_q : '0)) : '0;
  // the exiting event's parked companions: the slots above its own
  function automatic logic [NW-1:0] comp_chain(input logic [NW-1:0] oh, input logic [NW-1:0] comp);
    logic [NW-1:0] c, all;
    c   = oh;
    all = '0;
    for (int j = 1; j < SET_MAX; j++) begin
      c   = (c << 1) & comp;
      all = all | c;
    end
    comp_chain = all;
  endfunction
  wire [NW-1:0] ev_comp = comp_chain(ev_exit_oh, comp_q);
`else
  wire [NW-1:0]  pre_oh       = start_pre ? victim_q : '0;
`endif
  wire [NW-1:0]  res_oh       = rfire ? rslot_q : '0;
  // A slot under restore is in no reader's view of pend / skip / saved (rq
  // masks it; its skip and saved flags travel with the take), so its bits
  // clear at the edge after the take, from registers: rfire, which the
  // preemption FSM's command (and with it the core's v_* inputs) gates,
  // then reaches the 128 flip-flops of vict and busy only, not 320.
  wire [NW-1:0]  clr_oh       = rnew_q ? rslot_q : '0;

  // ------------------------------------------------------ next state
  // The slot sets change only at an event exit, a START, a take's next edge
  // or a RESUME: with none of them each next value below is the register itself, so the sets
  // load every edge, without a shared enable (rfire would otherwise drive
  // the enable of 384 flip-flops).
  logic [NW-1:0]     event_d, vict_d, skip_d, saved_d, pend_d;
  logic [NW-1:0]     victim_d;
  logic [5:0]        vstat_d;
  logic              skipped_d;
  logic [3:0]        opt_d;
  logic [REGS_W-1:0] ereg_d;
  logic              rbusy_d, rsaved_d;
  logic [NW-1:0]     rslot_d;
  `FG_ENUM(edge_pkg, pre_cmd_e) cmd_d;
  logic [SLOT_W-1:0] cmd_slot_d;
  logic [3:0]        cmd_arg_d;
  logic              err_v_d;
  logic [1:0]        err_code_d;

  always_comb begin
    event_d = (event_q & ~ev_exit_oh) | free_oh | pre_oh;
`ifdef FG_PREEMPT_SETS
    pend_d  = (pend_q | ((ev_exit_oh | ev_comp) & vict_q)) & ~clr_oh;
    vict_d  = (vict_q & ~res_oh) | pre_set;
    skip_d  = (skip_q & ~clr_oh) | pre_skip;
    saved_d = (saved_q & ~clr_oh) | ((st_q == edge_pkg::PRE_ST_SAVE) ? pre_set : '0);
`else
    pend_d  = (pend_q | (ev_exit_oh & vict_q)) & ~clr_oh;
    vict_d  = (vict_q & ~res_oh) | pre_oh;
    skip_d  = (skip_q & ~clr_oh) | (skipped_q ? pre_oh : '0);
    saved_d = (saved_q & ~clr_oh) | ((st_q == edge_pkg::PRE_ST_SAVE) ? pre_oh : '0);
`endif

    // preemption FSM: the victim, what it was waiting on, the flush options
`ifdef FG_PREEMPT_SETS
    victim_d  = pick_load ? pick_d : step_fwd ? (victim_q << 1) : step_back ? (victim_q >> 1) : victim_q;
`else
    victim_d  = pick_load ? pick_d : victim_q;
`endif
    vstat_d   = vstat_q;
    skipped_d = skipped_q;
    opt_d     = opt_q;
    ereg_d    = ereg_q;
    if (sel_flush) begin
      vstat_d   = {1'b0, p_bar_i, 1'b0, p_ld_i, 2'b00};
      skipped_d = 1'b0;
      opt_d     = cfg_opt_i;
      ereg_d    = req_regs_i;
    end
    if (first_q && st_q == edge_pkg::PRE_ST_FLUSH)
      vstat_d = vstat_q | {v_ibuf_i, v_bar_i, v_imiss_i, v_ld_i, v_sb_i, v_pipe_i};
    if (do_skip) skipped_d = 1'b1;
`ifdef FG_PREEMPT_SETS
    if (step_fwd) skipped_d = 1'b0;
`endif

    // restore FSM
    rbusy_d  = rbusy_q;
    rslot_d  = rslot_q;
    rsaved_d = rsaved_q;
    if (rtake) begin
      rbusy_d  = 1'b1;
      rslot_d  = pend_low;
      rsaved_d = low_saved;
    end else if (rfire) begin
      rbusy_d = 1'b0;
    end

    // the command port: the preemption FSM wins, a RESUME waits
    cmd_d      = edge_pkg::PRE_CMD_NONE;
    cmd_slot_d = '0;
    cmd_arg_d  = '0;
    if (pcmd != edge_pkg::PRE_CMD_NONE) begin
      cmd_d      = pcmd;
      cmd_slot_d = pslot;
      cmd_arg_d  = parg;
    end else if (rfire) begin
      cmd_d      = edge_pkg::PRE_CMD_RESUME;
      cmd_slot_d = rsidx_q;
      cmd_arg_d  = rarg;
    end

    // errors (both kinds may happen in one cycle: code 3, counted twice)
    err_v_d    = exit_unknown || alloc_busy;
    err_code_d = (exit_unknown || alloc_busy) ? {alloc_busy, exit_unknown} : err_code_q;
  end

  // selection pipeline registers (no reset: qualified by sel_q)
  always_ff @(posedge clk_i) begin
    if (sel_load) begin
`ifdef FG_PREEMPT_SETS
      e_q     <= etier;
      for (int g = 0; g < NG; g++) e_grp_q[g] <= elig_p[g*G +: G] != '0;
      eb_q    <= etier & w_bar_i;
      en_q    <= etier & ~w_ld_i;
`else
      e_q     <= elig;
      for (int g = 0; g < NG; g++) e_grp_q[g] <= elig_p[g*G +: G] != '0;
      eb_q    <= elig & w_bar_i;
      en_q    <= elig & ~w_ld_i;
`endif
      pol_q   <= (cfg_policy_i == edge_pkg::PRE_POL_NEWEST);
      cheap_q <= (cfg_policy_i == edge_pkg::PRE_POL_CHEAPEST);
      bsk_q   <= (cfg_opt_i & OPT_BARSKIP) != '0;
    end
    if (sel_q == 3'd1) cand_q <= cand;
    if (sel_q == 3'd2) begin
      gw_q   <= gw_d;
      gany_q <= gany_d;
    end
    if (sel_q == 3'd3) pair_q <= pair_d;
    // (reset: grp_win_o is an output, defined from reset on)
    if (!rst_ni) gidx_q <= '0;
    else if (sel_q == 3'd3)
      for (int g = 0; g < NG; g++) gidx_q[3*g +: 3] <= 3'(enc8(gw_q[g*G +: G]));
    // a warp eligible at S given to a new block at S+1..S+4 voids the selection
    if (sel_load) dist_q <= 1'b0;
`ifdef FG_PREEMPT_SETS
    else if (sel_q != 3'd0 && sel_q != SEL_LAST && alloc_ok && (em_q & w_alloc_i) != '0) dist_q <= 1'b1;
`else
    else if (sel_q != 3'd0 && sel_q != SEL_LAST && alloc_ok && (e_q & w_alloc_i) != '0) dist_q <= 1'b1;
`endif
  end

  // restore FSM data (no reset: qualified by rbusy_q)
  always_ff @(posedge clk_i) begin
    rslot_q  <= rslot_d;
    rsaved_q <= rsaved_d;
    if (rtake) begin
      rsidx_q <= low_idx;
      rskip_q <= low_skip;
    end
  end
  // the restore FSM's look-ahead (above): Q's lowest slot, the slot an exit adds
  always_ff @(posedge clk_i) begin
    rl_idx_q   <= rl_d[SLOT_W-1:0];
    ra_oh_q    <= ev_slot_oh;
    rl_saved_q <= rl_d[SLOT_W];
    rl_skip_q  <= rl_d[SLOT_W+1];
    ra_idx_q   <= ev_exit_slot_i;
    ra_saved_q <= saved_q[ev_exit_slot_i];
    ra_skip_q  <= skip_q[ev_exit_slot_i];
    ra_regs_q  <= evregs_q[ev_exit_slot_i];
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rl_any_q <= 1'b0;
      ra_v_q   <= 1'b0;
      rnew_q   <= 1'b0;
    end else begin
      rl_any_q <= rt_any;
      rnew_q   <= rtake;
      ra_v_q   <= exit_known && vict_q[ev_exit_slot_i];
    end
  end

  // the two timers (a restore of an unsaved victim takes 0 cycles: N = 0)
  // N = 0 (the timers' zero_i): no save time.  The restore's for each of
  // the two slots the take chooses between, then chosen with it (use_a):
  // not a compare behind the choice of the slot's registers, which was the
  // block's critical path
  wire base0    = cfg_save_base_i == '0;
  wire per0     = cfg_save_per_reg_i == '0;
  wire ra_zero  = !ra_saved_q || (base0 && (ra_regs_q == '0 || per0));
  wire rl_zero  = !rl_saved_q || (base0 && (evregs_q[rl_idx_q] == '0 || per0));
  edge_preempt_timer #(.REGS_W(REGS_W), .CYC_W(CYC_W)) u_save_time (
    .clk_i, .rst_ni, .load_i(to_save), .base_i(cfg_save_base_i), .per_reg_i(cfg_save_per_reg_i),
    .regs_i(ereg_q), .zero_i(base0 && (ereg_q == '0 || per0)), .due_o(save_due));
  edge_preempt_timer #(.REGS_W(REGS_W), .CYC_W(CYC_W)) u_restore_time (
    .clk_i, .rst_ni, .load_i(rtake), .base_i(low_saved ? cfg_save_base_i : '0),
    .per_reg_i(cfg_save_per_reg_i), .regs_i(low_saved ? low_regs : '0),
    .zero_i(use_a ? ra_zero : rl_zero), .due_o(rtime_due));

`ifdef FG_PREEMPT_SETS
  // victim sets: the allocation pairs, the set under flush, the companions
  wire [NW-1:0] sn_d = ((sn_q & ~(w_alloc_i | (w_alloc_i >> 1))) | (w_alloc_i & (w_alloc_i >> 1))) &
                       (NW'({NW{1'b1}}) >> 1);
  function automatic logic [NW-1:0] set_mask(input logic [NW-1:0] head, input logic [2:0] k);
    logic [NW-1:0] m;
    m = '0;
    for (int j = 0; j < SET_MAX; j++) m = m | ((3'(j) < k) ? (head << j) : '0);
    set_mask = m;
  endfunction
  wire [NW-1:0] mset_d = set_mask(victim_q, kset_q);
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      sn_q   <= '0;
      comp_q <= '0;
      unw_q  <= 1'b0;
    end else begin
      if (alloc_ok) sn_q <= sn_d;
      comp_q <= (comp_q & ~ev_comp) | (pre_set & ~pre_oh);  // pending from their event's exit on
      unw_q  <= unw_on || (unw_q && st_d == edge_pkg::PRE_ST_FLUSH);
    end
  end
  // (no reset: qualified by the FSM's state, as the selection's registers)
  always_ff @(posedge clk_i) begin
    if (sel_load) begin
      em_q   <= emem;
      kset_q <= ktier;
    end
    if (sel_flush) begin
      hidx_q   <= vidx_q;
      hoh_q    <= victim_q;
      mset_q   <= mset_d;
      kleft_q  <= kset_q - 3'd1;
      skm_q    <= '0;
      athead_q <= 1'b1;
    end
    if (step_fwd) begin
      if (athead_q) hskip_q <= skipped_q;
      skm_q    <= skm_q | (skipped_q ? victim_q : '0);
      athead_q <= 1'b0;
      kleft_q  <= kleft_q - 3'd1;
    end
    if (step_back) athead_q <= vidx_q - SLOT_W'(1) == hidx_q;
  end

`endif
  // slot sets: loaded every edge, reset included (no enable, see above)
  always_ff @(posedge clk_i) begin
    event_q <= rst_ni ? event_d : '0;
    vict_q  <= rst_ni ? vict_d  : '0;
    skip_q  <= rst_ni ? skip_d  : '0;
    saved_q <= rst_ni ? saved_d : '0;
    pend_q  <= rst_ni ? pend_d  : '0;
    busy_q  <= rst_ni ? (event_d | vict_d) : '0;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q        <= edge_pkg::PRE_ST_IDLE;
      sel_q       <= 3'd0;
      victim_q    <= NW'(1);
      vidx_q      <= '0;
      pgrp_q      <= '0;
      vstat_q     <= '0;
      first_q     <= 1'b0;
      skipped_q   <= 1'b0;
      opt_q       <= '0;
      ereg_q      <= '0;
      rbusy_q     <= 1'b0;
      cmd_q       <= edge_pkg::PRE_CMD_NONE;
      cmd_slot_q  <= '0;
      cmd_arg_q   <= '0;
      err_v_q     <= 1'b0;
      err_code_q  <= '0;
      cnt_err_q   <= '0;
      err_n_q     <= '0;
      cnt_abort_q <= '0;
      cnt_sfree_q <= '0;
      cnt_spre_q  <= '0;
      cnt_res_q   <= '0;
      res_n_q     <= 1'b0;
    end else begin
      st_q        <= st_d;
      sel_q       <= sel_d;
      victim_q    <= victim_d;
`ifdef FG_PREEMPT_SETS
      vidx_q      <= pick_load ? pidx_d : step_fwd ? vnext : step_back ? vidx_q - SLOT_W'(1) : vidx_q;
`else
      vidx_q      <= pick_load ? pidx_d : vidx_q;
`endif
      pgrp_q      <= pick_load ? gbest : '0;
      vstat_q     <= vstat_d;
      first_q     <= sel_flush;
      skipped_q   <= skipped_d;
      opt_q       <= opt_d;
      ereg_q      <= ereg_d;
      rbusy_q     <= rbusy_d;
      cmd_q       <= cmd_d;
      cmd_slot_q  <= cmd_slot_d;
      cmd_arg_q   <= cmd_arg_d;
      err_v_q     <= err_v_d;
      err_code_q  <= err_code_d;
      err_n_q     <= {exit_unknown && alloc_busy, exit_unknown != alloc_busy};  // their sum, in LUTs (an adder is a carry cell the placer puts by the counters)
      cnt_err_q   <= sat16(cnt_err_q, err_n_q);
      cnt_sfree_q <= start_free ? sat32(cnt_sfree_q) : cnt_sfree_q;
      cnt_spre_q  <= start_pre ? sat32(cnt_spre_q) : cnt_spre_q;
      res_n_q     <= rfire;
      cnt_res_q   <= cnt_res;
      cnt_abort_q <= do_abort ? sat16(cnt_abort_q, 2'd1) : cnt_abort_q;
    end
  end

  assign cmd_o            = cmd_q;
  assign cmd_slot_o       = cmd_slot_q;
  assign cmd_arg_o        = cmd_arg_q;
  assign state_o          = st_q;
  assign victim_o         = victim_idx;
  assign grp_win_o        = gidx_q;
  assign pick_grp_o       = pgrp_q;
  assign vstat_o          = vstat_q;
  assign event_mask_o     = event_q;
  assign victim_mask_o    = vict_q;
  assign err_valid_o      = err_v_q;
  assign err_code_o       = err_code_q;
  assign cnt_err_o        = sat16(cnt_err_q, err_n_q);  // = the count after the last edge
  assign cnt_start_free_o = cnt_sfree_q;
  assign cnt_start_pre_o  = cnt_spre_q;
  assign cnt_abort_o      = cnt_abort_q;
  assign cnt_resume_o     = cnt_res;  // = the count after the last edge

  wire [31:0] cnt_res = res_n_q ? sat32(cnt_res_q) : cnt_res_q;

  // ----------------------------------------------------------- invariants
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // at most one command per edge; a RESUME only with the port free
      `FG_ASSERT(pre_one_cmd_per_edge, !(pcmd != edge_pkg::PRE_CMD_NONE && rfire))
      // the one-hot registers are one-hot
      `FG_ASSERT(pre_victim_onehot, $countones(victim_q) == 1)
      `FG_ASSERT(pre_victim_index, victim_q[vidx_q])
      `FG_ASSERT(pre_rslot_index, !rbusy_q || rslot_q[rsidx_q])
      `FG_ASSERT(pre_rslot_onehot, !rbusy_q || $countones(rslot_q) == 1)
      // selection only in IDLE; each group's winner is one of its candidates
      `FG_ASSERT(pre_sel_only_idle, sel_q == 3'd0 || st_q == edge_pkg::PRE_ST_IDLE)
      `FG_ASSERT(pre_sel_step_range, sel_q <= SEL_LAST)
      `FG_ASSERT(pre_sel_any_matches, sel_q == 3'd0 || (e_grp_q != '0) == (e_q != '0))
      `FG_ASSERT(pre_cand_eligible, sel_q != 3'd2 || (cand_q != '0 && (cand_q & ~e_q) == '0))
      // (one-hot or zero without $countones of a part-select at a loop
      // index, which Icarus 11 evaluates wrongly: the assertion failed in
      // the replay for groups whose winners were 0 / one-hot)
      for (int g = 0; g < NG; g++) begin
        `FG_ASSERT(pre_group_winner_onehot, sel_q != 3'd2 ||
                   (((gw_d[g*G +: G] & (gw_d[g*G +: G] - G'(1))) == '0) && ((gw_d[g*G +: G] != '0) == gany_d[g])))
      end
      `FG_ASSERT(pre_best_group_onehot, sel_q != 3'd4 || $countones(gbest) == 1)
      `FG_ASSERT(pre_pick_is_candidate, sel_q != SEL_LAST || dist_q || (victim_q & ~cand_q) == '0)
      // a FLUSH names a live warp that is no event warp and holds no victim
      `FG_ASSERT(pre_flush_victim_ok, !sel_flush || (!p_left_i && (victim_q & ~event_q & ~vict_q) != '0))
      // the core reports the status of the warp in slot victim_o on v_*
      // and, at S+5, the pick's (the same slot) on p_* (sim/twin/edge_preempt.h):
      // where the FSM reads them, they are that slot's bits of w_exit_i /
      // w_live_i, w_bar_i, w_ld_i (assumptions of the proofs)
      `FG_ASSUME(pre_v_status_is_victims, st_q != edge_pkg::PRE_ST_FLUSH ||
                 (v_left_i == (w_exit_i[vidx_q] || !w_live_i[vidx_q]) && v_bar_i == w_bar_i[vidx_q] &&
                  v_ld_i == w_ld_i[vidx_q]))
      `FG_ASSUME(pre_p_status_is_picks, !(sel_q == SEL_LAST && !dist_q) ||
                 (p_left_i == (w_exit_i[vidx_q] || !w_live_i[vidx_q]) && p_bar_i == w_bar_i[vidx_q] &&
                  p_ld_i == w_ld_i[vidx_q]))
      // the victim is not an event warp, not parked
      `FG_ASSERT(pre_victim_not_event_or_parked,
                 !(st_q == edge_pkg::PRE_ST_FLUSH || st_q == edge_pkg::PRE_ST_SAVE) || (victim_q & (event_q | vict_q)) == '0)
      // event / parked / restore-pending sets are consistent: a parked
      // victim's slot runs its event warp or waits for its restore
      `FG_ASSERT(pre_busy_is_event_or_parked, busy_q == (event_q | vict_q))
      `FG_ASSERT(pre_pending_not_event, (pend_q & event_q) == '0)
      `FG_ASSERT(pre_pending_is_parked, (pend_q & ~vict_q) == '0)
`ifdef FG_PREEMPT_SETS
      `FG_ASSERT(pre_parked_event_or_pending, (vict_q & ~(event_q | pend_q | comp_q | (rbusy_q ? rslot_q : '0))) == '0)
      // victim sets: a companion is parked and runs no event warp; a set
      // parks free warps of one allocation in adjacent slots from its head
      `FG_ASSERT(pre_comp_parked, (comp_q & ~vict_q) == '0 && (comp_q & event_q) == '0)
      `FG_ASSERT(pre_set_contiguous, !start_pre ||
                 ((mset_q & busy_q) == '0 && (mset_q & hoh_q) != '0 && ((mset_q & (mset_q >> 1)) & ~sn_q) == '0 &&
                  ((mset_q & ~hoh_q) & ~(mset_q << 1)) == '0 && (hoh_q & (mset_q << 1)) == '0))
`else
      `FG_ASSERT(pre_parked_event_or_pending, (vict_q & ~(event_q | pend_q | (rbusy_q ? rslot_q : '0))) == '0)
`endif
      `FG_ASSERT(pre_skip_saved_parked, ((skip_q | saved_q) & ~vict_q) == '0)
      // a slot under restore: parked, pending and with its flags until the
      // edge after its take, then in none of the three sets
      `FG_ASSERT(pre_restore_slot_parked, !rbusy_q || (vict_q & rslot_q) != '0)
      `FG_ASSERT(pre_restore_slot_pending, !rbusy_q || !rnew_q ||
                 ((pend_q & rslot_q) != '0 && rsaved_q == ((saved_q & rslot_q) != '0) &&
                  rskip_q == ((skip_q & rslot_q) != '0)))
      `FG_ASSERT(pre_restore_slot_cleared, !rbusy_q || rnew_q || ((pend_q | skip_q | saved_q) & rslot_q) == '0)
      `FG_ASSERT(pre_take_then_busy, !rnew_q || rbusy_q)
      // the look-ahead's take is the lowest pending slot, with its saved flag
      // and its event's registers (the search it replaces: pend_q's first one)
      `FG_ASSERT(pre_exit_oh_is_known_exit, ev_exit_oh == (exit_known ? ev_slot_oh : '0))
      `FG_ASSERT(pre_take_lowest_pending,
                 !rtake || (pend_low == (pend_q & (~pend_q + NW'(1))) && pend_low[low_idx] && low_saved == ((saved_q & pend_low) != '0)
                            && low_skip == ((skip_q & pend_low) != '0)
                            && (!low_saved || low_regs == evregs_q[low_idx])))
    end
  end
endmodule
