// CM stall monitor: per-GPU-core CM-BAL state (CM Sec. 4.2, Fig. 11 items
// 6-13, Fig. 12; Sec. 5 Mechanism Parameters, Hardware Overhead).  The
// decision itself (moving average, Part-1 / Part-2, exploration) is made by
// the one cm_bal_decide of the block, for one core per cycle after each
// interval end (CM-BAL decides once per 1024-cycle interval, so the cores
// share one datapath); this module holds what the core needs every
// cycle and what the shared datapath reads and writes.
//
// stallGPU (Sec. 4.2 and footnote 9) -- our reading: issue_stall_i has one
// bit per warp scheduler, set by the core in every cycle in which that
// scheduler cannot issue, i.e. no ready warp has passed the scoreboard check
// (item 6) OR the pipeline register of the next stage is full (item 7; the
// footnote's causes: instruction latencies, write-back contention, shared
// memory bank conflicts, coalescing stalls).  Both are "could not issue"
// cycles; the counter adds the set bits, so stallGPU is 0..NSCHED x INTERVAL.
// It holds cycles 0..INTERVAL-2 (SGW bits, at most 2046); the interval's
// sample (0..2048, this cycle included) is kept in SGW + 1 bits in the
// snapshot and clamped to 2^SGW - 1 by the shared decision datapath (once,
// instead of in every core, for area).
//
// Registers: the stallGPU counter, the level index, the 2-bit stay counter,
// the NLVL valid bits of the table and a 3-bit "why" code (observability);
// the table's averages are in the block's table RAM.  At the interval end
// (end_i) the core keeps a snapshot of what its decision needs: the sample,
// level, stay count, valid bits and whether a kernel boundary came in that
// same cycle.  Its registers keep their value between the interval end and
// its commit (commit_i), apart from the events of those cycles:
//   kstart_i / kend_i  clear the valid bits and the stay counter
//   mode_i != CM-BAL   puts the level at the top (MAXW) and clears stay
// At the commit the decision made from the snapshot (c_*_i) is written and
// the events since the interval end are applied on top of it, so from the
// commit on every register holds what it would hold had the decision been
// written at the interval end itself.
//
// RTL style (docs/RTL_STYLE.md): the why code is a cm_pkg::cm_why_e, kept as
// the bits the decision datapath produces (Icarus 11 has no cast to an enum
// type); named assertions (fg_assert.svh); parameter checks as the C twin's.
`include "fg_assert.svh"
`include "fg_enum.svh"
module cm_bal_core #(
  parameter int NSCHED   = 2,
  parameter int INTERVAL = 1024,
  parameter int NLVL     = 9,
  parameter int EXPLORE_N = 4,
  localparam int SGW = $clog2(NSCHED * INTERVAL),
  localparam int LIW = $clog2(NLVL),
  localparam int XW  = $clog2(EXPLORE_N)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [NSCHED-1:0]  issue_stall_i,  // per scheduler: could not issue this cycle
  input  logic               kstart_i,
  input  logic               kend_i,
  input  logic               end_i,          // last cycle of the interval
  input  logic               bal_i,          // mode_i == CM-BAL this cycle
  input  logic               nonbal_seen_i,  // mode_i was not CM-BAL at an edge since end_i
  // commit of the shared decision (the values it computed from the snapshot)
  input  logic               commit_i,
  input  logic               c_bal_i,        // the mode was CM-BAL at the interval end
  input  logic [LIW-1:0]     c_lvl_i,
  input  logic [XW-1:0]      c_stay_i,
  input  logic [NLVL-1:0]    c_valid_i,
  input  logic [2:0]         c_why_i,        // a cm_pkg::cm_why_e
  // visible state
  output logic [LIW-1:0]     lvl_o,
  output logic [XW-1:0]      stay_o,
  output logic [NLVL-1:0]    valid_o,
  output logic [2:0]         why_o,
  // snapshot of the last interval end
  output logic [SGW:0]       s_sample_o,     // unclamped: 0..NSCHED x INTERVAL
  output logic [LIW-1:0]     s_lvl_o,
  output logic [XW-1:0]      s_stay_o,
  output logic [NLVL-1:0]    s_valid_o,
  output logic               s_kb_o
);
  `FG_IMPORT(cm_pkg)
  `FG_ASSERT_PARAM(g_chk_nsched, NSCHED >= 1 && NSCHED <= 64, "cm_bal_core: NSCHED must be 1..64")
  `FG_ASSERT_PARAM(g_chk_interval, INTERVAL >= 2, "cm_bal_core: INTERVAL must be >= 2")
  `FG_ASSERT_PARAM(g_chk_nlvl, NLVL >= 2 && NLVL <= 16, "cm_bal_core: NLVL must be 2..16")
  `FG_ASSERT_PARAM(g_chk_explore_n, EXPLORE_N >= 2, "cm_bal_core: EXPLORE_N must be >= 2")

  localparam logic [LIW-1:0] TOP  = LIW'(NLVL - 1);
  localparam int             PW   = $clog2(NSCHED + 1);

  logic [SGW-1:0]  cnt_q;
  logic [LIW-1:0]  lvl_q, lvl_d;
  logic [XW-1:0]   stay_q, stay_d;
  logic [NLVL-1:0] valid_q, valid_d;
  logic [2:0]      why_q, why_d;   // a cm_pkg::cm_why_e, from the decision datapath
  logic            kb_seen_q;      // a kernel boundary at an edge since the interval end
  logic [SGW:0]    s_sample_q;
  logic [LIW-1:0]  s_lvl_q;
  logic [XW-1:0]   s_stay_q;
  logic [NLVL-1:0] s_valid_q;
  logic            s_kb_q;

  logic [PW-1:0]   pop;
  logic [SGW:0]    sample_full;
  logic            kb, keep_lvl, keep_stay, keep_valid;

  assign pop         = $bits(pop)'($countones(issue_stall_i));
  assign sample_full = {1'b0, cnt_q} + (SGW+1)'(pop);
  assign kb          = kstart_i || kend_i;

  // Events since the interval end, this cycle's included, on top of a commit.
  assign keep_lvl   = bal_i && !nonbal_seen_i;
  assign keep_stay  = keep_lvl && !kb && !kb_seen_q;
  assign keep_valid = !kb && !kb_seen_q;

  always_comb begin
    lvl_d   = bal_i ? lvl_q : TOP;
    stay_d  = (bal_i && !kb) ? stay_q : '0;
    valid_d = kb ? '0 : valid_q;
    why_d   = why_q;
    if (commit_i) begin
      lvl_d   = keep_lvl ? c_lvl_i : TOP;
      stay_d  = keep_stay ? c_stay_i : '0;
      valid_d = keep_valid ? c_valid_i : '0;
      why_d   = c_bal_i ? c_why_i : why_q;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cnt_q     <= '0;
      lvl_q     <= TOP;
      stay_q    <= '0;
      valid_q   <= '0;
      why_q     <= cm_pkg::CM_WHY_HOLD;
      kb_seen_q <= 1'b0;
    end else begin
      cnt_q     <= end_i ? '0 : sample_full[SGW-1:0];  // below the clamp within the interval
      lvl_q     <= lvl_d;
      stay_q    <= stay_d;
      valid_q   <= valid_d;
      why_q     <= why_d;
      kb_seen_q <= end_i ? 1'b0 : (kb_seen_q || kb);
    end
  end

  // snapshot: no reset (read only by a walk, which starts at an interval end)
  always_ff @(posedge clk_i) begin
    if (end_i) begin
      s_sample_q <= sample_full;
      s_lvl_q    <= lvl_q;
      s_stay_q   <= stay_q;
      s_valid_q  <= valid_q;
      s_kb_q     <= kb;
    end
  end

  assign lvl_o      = lvl_q;
  assign stay_o     = stay_q;
  assign valid_o    = valid_q;
  assign why_o      = why_q;
  assign s_sample_o = s_sample_q;
  assign s_lvl_o    = s_lvl_q;
  assign s_stay_o   = s_stay_q;
  assign s_valid_o  = s_valid_q;
  assign s_kb_o     = s_kb_q;

  // Legal level and stay count, counters never wrap.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(core_level_in_table, lvl_q <= TOP)
      `FG_ASSERT(core_stay_in_range, 32'(stay_q) < EXPLORE_N)
      // stallGPU counter: the in-interval count never reaches the clamp
      `FG_ASSERT(core_stallgpu_no_wrap, end_i || !sample_full[SGW])
      `FG_ASSERT(core_no_commit_at_interval_end, !(commit_i && end_i))
      `FG_ASSERT(core_top_outside_bal, bal_i || (lvl_d == TOP && stay_d == '0))
      `FG_ASSERT(core_why_legal, why_q != 3'd7)
    end
  end
endmodule
