// CM-CPU / CM-BAL stall monitor, block top (CM Sec. 4, Fig. 11): the stall
// bits of P memory partitions, the central CM-CPU logic, C per-core CM-BAL states
// and one CM-BAL decision datapath that the cores share.  Defaults are CM
// Table I: 8 partitions, 28 cores, 2 schedulers, 48 warps; interval 1024
// cycles, tH = 1, tL = 0.25 (Sec. 5).
//
// Run-time inputs (sampled every cycle): mode_i 0 off (limit = MAXW),
// 1 static (limit = static_i clamped to 1..MAXW), 2 CM-CPU, 3 CM-BAL with
// k = k_i (stallGPU cycles; CM-BAL1..4 = 32/64/96/128).
//
// The serial walk (CM-BAL decides once per interval, so one datapath serves
// every core).  At each interval end (edge E, the last cycle
// of the interval) every core keeps a snapshot of its stallGPU sample and
// state; the walk then feeds core c into cm_bal_decide at edge E+1+c and
// commits its decision at edge E+5+c (the last core, C-1, at E+C+4: E+32 for
// 28 cores, well inside the 1024-cycle interval; the datapath's four stages,
// one carry chain each, and the commit as a stage of its own are there for
// timing).  Until its commit a core's
// registers keep their values (kernel boundaries and mode changes still act on
// them); from its commit on they hold exactly what they would hold had the
// decision been written at E.  So core c's new level, limit, stay count,
// reason and table entry become visible c + 5 edges after the interval end
// instead of at it; the central decision, the CM-CPU limit and the stall
// statistics still change at E (interval_o).  kstart_i / kend_i, mode_i and
// k_i of the interval-end cycle are the ones the decision uses.
//
// Storage: per core the stallGPU counter, level, stay count, valid bits and
// reason in flip-flops, with their interval-end snapshot; the moving-average
// table (C rows of NLVL x SGW bits: 28 x 99 b) in NLVL RAMs of C x SGW bits,
// one per entry, each with one write port (the commit writes the one entry
// that changes) and two read ports (the walk reads a whole row, the read
// port below one entry), which Yosys maps to distributed RAM.  The active-warp limit is not stored: it is
// a function of the registered mode, static limit, CM-CPU limit and level.
//
// Outputs depend on state only.  Per-core results go through a read port
// (C x 6 bits of limits do not fit a 64-bit port for C = 28): rd_core_i /
// rd_entry_i select a core and a table entry; the next cycle the rd_*_o
// registers hold that core's state as it was in the selecting cycle.
// interval_o is high for one cycle after each interval end (the cycle in
// which the new central decision and CM-CPU limit are visible).
//
// RTL style (docs/RTL_STYLE.md): the mode codes are cm_pkg's cm_mode_e
// (rtl/cm/cm_enc.toml, also sim/twin/gen/cm_bal_monitor_enc.h); named
// assertions (fg_assert.svh); the parameters the C twin refuses stop
// elaboration here too; widths derived from them are localparams.
// Formal: formal/cm_bal_monitor.sby (docs/FORMAL.md), with the FORMAL-only
// invariants at the end of this file.
`include "fg_assert.svh"
`include "fg_enum.svh"
module cm_bal_monitor #(
  parameter int P        = 8,
  parameter int C        = 28,
  parameter int NSCHED   = 2,
  parameter int MAXW     = 48,
  parameter int INTERVAL = 1024,
  parameter int TH_Q4    = 4,
  parameter int TL_Q4    = 1,
  parameter int FINE     = 8,
  parameter int NLVL     = 9,
  parameter logic [NLVL*8-1:0] LEVELS = {8'd48, 8'd24, 8'd16, 8'd8, 8'd6, 8'd4, 8'd3, 8'd2, 8'd1},
  parameter int EXPLORE_WARPS = 6,
  parameter int EXPLORE_N     = 4,
  localparam int STW = $clog2(P * INTERVAL),
  localparam int SGW = $clog2(NSCHED * INTERVAL),
  localparam int KW  = SGW + 1,
  localparam int LW  = $clog2(MAXW + 1),
  localparam int LIW = $clog2(NLVL),
  localparam int XW  = $clog2(EXPLORE_N),
  localparam int CIW = (C > 1) ? $clog2(C) : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic [P-1:0]          stall_mc_i,
  input  logic [P-1:0]          stall_net_i,
  input  logic [C*NSCHED-1:0]   issue_stall_i,  // core c scheduler s at bit c*NSCHED+s
  input  logic [C-1:0]          kstart_i,
  input  logic [C-1:0]          kend_i,
  input  logic [1:0]            mode_i,
  input  logic [LW-1:0]         static_i,
  input  logic [KW-1:0]         k_i,
  input  logic [CIW-1:0]        rd_core_i,
  input  logic [LIW-1:0]        rd_entry_i,
  output logic                  interval_o,
  output logic [1:0]            decision_o,     // last CM-CPU decision: 0 hold, 1 down, 2 up
  output logic [LW-1:0]         cpu_limit_o,
  output logic [STW-1:0]        stall_mc_o,     // last interval's stallMC (sum of stall cycles)
  output logic [STW-1:0]        stall_net_o,
  output logic [LW-1:0]         rd_limit_o,
  output logic [LIW-1:0]        rd_level_o,
  output logic [XW-1:0]         rd_stay_o,
  output logic [NLVL-1:0]       rd_valid_o,
  output logic [SGW-1:0]        rd_avg_o,
  output logic [2:0]            rd_why_o
);
  `FG_IMPORT(cm_pkg)
  // the C twin's refusals (sim/twin/cm_bal_monitor.c, params_ok); cm_cpu_central
  // checks P, MAXW, FINE and the thresholds, cm_bal_core NSCHED
  `FG_ASSERT_PARAM(g_chk_c, C >= 1 && C <= 64, "cm_bal_monitor: C must be 1..64")
  `FG_ASSERT_PARAM(g_chk_ports, C * NSCHED <= 64 && P <= 64,
                   "cm_bal_monitor: C x NSCHED and P must be <= 64 (64-bit ports)")
  `FG_ASSERT_PARAM(g_chk_interval, INTERVAL >= C + 5,
                   "cm_bal_monitor: INTERVAL must be >= C + 5 (the walk commits within the interval)")
  `FG_ASSERT_PARAM(g_chk_nlvl, NLVL >= 2 && NLVL <= 16, "cm_bal_monitor: NLVL must be 2..16")
  `FG_ASSERT_PARAM(g_chk_maxw, MAXW >= 1 && MAXW <= 255, "cm_bal_monitor: MAXW must be 1..255")
  `FG_ASSERT_PARAM(g_chk_top_level, 32'(LEVELS[8*(NLVL-1) +: 8]) == MAXW,
                   "cm_bal_monitor: LEVELS[NLVL-1] must be MAXW")
  for (genvar i = 0; i < NLVL; i++) begin : g_lvl  // 1 <= LEVELS[0] < LEVELS[1] < ...
    `FG_ASSERT_PARAM(g_chk_level, LEVELS[8*i +: 8] != 8'd0 &&
                     (i == 0 || LEVELS[8*i +: 8] > LEVELS[8*((i > 0) ? i - 1 : 0) +: 8]),
                     "cm_bal_monitor: LEVELS must rise strictly from 1 or more")
  end
  `FG_ASSERT_PARAM(g_chk_explore_n, EXPLORE_N >= 2, "cm_bal_monitor: EXPLORE_N must be >= 2")

  logic end_w;
`ifdef FORMAL
  logic [$clog2(INTERVAL)-1:0] f_cnt;
  logic [3:0]                  f_stage_v;
`endif

  cm_cpu_central #(
    .P(P), .INTERVAL(INTERVAL), .TH_Q4(TH_Q4), .TL_Q4(TL_Q4), .MAXW(MAXW), .FINE(FINE)
  ) u_central (
    .clk_i, .rst_ni,
    .stall_mc_i,
    .stall_net_i,
    .mode_i,
    .end_o        (end_w),
    .lim_o        (cpu_limit_o),
    .dec_q_o      (decision_o),
    .stall_mc_q_o (stall_mc_o),
    .stall_net_q_o(stall_net_o)
`ifdef FORMAL
    , .f_cnt_o    (f_cnt)
`endif
  );

  localparam logic [LW-1:0] MAXL = LW'(MAXW);
  localparam int RW = NLVL * SGW;

  logic bal;
  assign bal = (mode_i == cm_pkg::CM_MODE_BAL);

  // ------------------------------------------------------------ walk
  logic            walk_q, nonbal_seen_q, bal_e_q;
  logic [CIW-1:0]  wp_q;
  logic [KW-1:0]   k_e_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      walk_q        <= 1'b0;
      wp_q          <= '0;
      nonbal_seen_q <= 1'b0;
    end else begin
      if (end_w) begin
        walk_q <= 1'b1;
        wp_q   <= '0;
      end else if (walk_q) begin
        walk_q <= (32'(wp_q) != C - 1);
        wp_q   <= wp_q + 1'b1;
      end
      nonbal_seen_q <= !end_w && (nonbal_seen_q || !bal);
    end
  end
  always_ff @(posedge clk_i) begin  // the interval end's mode and knob (read by the walk only)
    if (end_w) begin
      bal_e_q <= bal;
      k_e_q   <= k_i;
    end
  end

  // ------------------------------------------------------------ cores
  logic [LIW-1:0]  lvl     [C];
  logic [XW-1:0]   stay    [C];
  logic [NLVL-1:0] vld     [C];
  logic [2:0]      why     [C];
  logic [SGW:0]    s_sample[C];
  logic [LIW-1:0]  s_lvl   [C];
  logic [XW-1:0]   s_stay  [C];
  logic [NLVL-1:0] s_valid [C];
  logic [C-1:0]    s_kb;

  logic            d_v, d_wr;
  logic [C-1:0]    d_hot;
  logic [CIW-1:0]  d_c;
  logic [LIW-1:0]  d_lvl;
  logic [XW-1:0]   d_stay;
  logic [NLVL-1:0] d_valid;
  logic [2:0]      d_why;
  logic [NLVL-1:0] d_ent;
  logic [SGW-1:0]  d_avg;

  for (genvar c = 0; c < C; c++) begin : g_core
    cm_bal_core #(
      .NSCHED(NSCHED), .INTERVAL(INTERVAL), .NLVL(NLVL), .EXPLORE_N(EXPLORE_N)
    ) u_core (
      .clk_i, .rst_ni,
      .issue_stall_i(issue_stall_i[c*NSCHED +: NSCHED]),
      .kstart_i     (kstart_i[c]),
      .kend_i       (kend_i[c]),
      .end_i        (end_w),
      .bal_i        (bal),
      .nonbal_seen_i(nonbal_seen_q),
      .commit_i     (d_hot[c]),
      .c_bal_i      (bal_e_q),
      .c_lvl_i      (d_lvl),
      .c_stay_i     (d_stay),
      .c_valid_i    (d_valid),
      .c_why_i      (d_why),
      .lvl_o        (lvl[c]),
      .stay_o       (stay[c]),
      .valid_o      (vld[c]),
      .why_o        (why[c]),
      .s_sample_o   (s_sample[c]),
      .s_lvl_o      (s_lvl[c]),
      .s_stay_o     (s_stay[c]),
      .s_valid_o    (s_valid[c]),
      .s_kb_o       (s_kb[c])
    );
  end

  // ------------------------------------------------------------ table RAM
  // One row per core: NLVL averages of SGW bits (no reset: the valid bits
  // qualify them), one RAM per entry.  The commit writes entry d_ent of row
  // d_c; the walk and the read port read them as they are before the edge.
  logic          rd_ok;
  logic [RW-1:0] walk_row, rd_row;
  for (genvar e = 0; e < NLVL; e++) begin : g_tab
    logic [SGW-1:0] tab_q [C];
    always_ff @(posedge clk_i) begin
      if (rst_ni && d_wr && d_ent[e]) tab_q[d_c] <= d_avg;
    end
    assign walk_row[e*SGW +: SGW] = tab_q[wp_q];
    assign rd_row[e*SGW +: SGW]   = tab_q[rd_core_i];  // rd_core_i >= C: any word, not used
  end

  cm_bal_decide #(
    .NSCHED(NSCHED), .INTERVAL(INTERVAL), .MAXW(MAXW), .NLVL(NLVL), .LEVELS(LEVELS),
    .EXPLORE_WARPS(EXPLORE_WARPS), .EXPLORE_N(EXPLORE_N), .C(C)
  ) u_decide (
    .clk_i, .rst_ni,
    .in_v_i     (walk_q),
    .in_c_i     (wp_q),
    .in_sample_i(s_sample[wp_q]),
    .in_lvl_i   (s_lvl[wp_q]),
    .in_stay_i  (s_stay[wp_q]),
    .in_valid_i (s_valid[wp_q]),
    .in_kb_i    (s_kb[wp_q]),
    .in_row_i   (walk_row),
    .bal_i      (bal_e_q),
    .dec_i      (decision_o),
    .k_i        (k_e_q),
    .out_v_o    (d_v),
    .out_hot_o  (d_hot),
    .out_c_o    (d_c),
    .out_lvl_o  (d_lvl),
    .out_stay_o (d_stay),
    .out_valid_o(d_valid),
    .out_why_o  (d_why),
    .out_wr_o   (d_wr),
    .out_ent_o  (d_ent),
    .out_avg_o  (d_avg)
`ifdef FORMAL
    , .f_stage_v_o(f_stage_v)
`endif
  );

  // ------------------------------------------------------------ read port
  // The limit of the selected core, as the per-core limit register of a
  // one-cycle design would hold it: a function of the last cycle's mode and
  // static limit, the CM-CPU limit register and the core's level register.
  logic [1:0]     mode_q;  // a cm_pkg::cm_mode_e, as mode_i
  logic [LW-1:0]  static_q;
  logic [LIW-1:0] rd_lvl;
  logic [LW-1:0]  rd_lim;
  assign rd_lvl = lvl[rd_core_i];
  always_comb begin
    case (mode_q)
      cm_pkg::CM_MODE_OFF:    rd_lim = MAXL;
      cm_pkg::CM_MODE_STATIC: rd_lim = (static_q == '0) ? LW'(1) : ((static_q > MAXL) ? MAXL : static_q);
      cm_pkg::CM_MODE_CPU:    rd_lim = cpu_limit_o;
      default:                rd_lim = LEVELS[8*rd_lvl +: LW];
    endcase
  end

  logic                 ivl_q;
  logic [LW-1:0]        rd_lim_q;
  logic [LIW-1:0]       rd_lvl_q;
  logic [XW-1:0]        rd_stay_q;
  logic [NLVL-1:0]      rd_vld_q;
  logic [SGW-1:0]       rd_avg_q;
  logic [2:0]           rd_why_q;
  logic                 ent_ok;

  // rd_core_i < C, rd_entry_i < NLVL: lookups in constant tables (a LUT
  // each, no compare in front of the registers)
  localparam logic [2**CIW-1:0] CORE_OK = {(2**CIW){1'b1}} >> (2**CIW - C);     // bits 0..C-1
  localparam logic [2**LIW-1:0] ENT_OK  = {(2**LIW){1'b1}} >> (2**LIW - NLVL);  // bits 0..NLVL-1
  assign rd_ok  = CORE_OK[rd_core_i];
  assign ent_ok = ENT_OK[rd_entry_i];
  // entry rd_entry_i of the row (a mux: no index arithmetic)
  logic [SGW-1:0]  rd_ent;
  always_comb begin
    rd_ent = '0;
    for (int e = 0; e < NLVL; e++) if (rd_entry_i == LIW'(e)) rd_ent = rd_row[e*SGW +: SGW];
  end
  // rd_avg_o is 0 while the entry read is not valid (its storage is never
  // written until then): gated after the registers by the registered valid
  // row and a one-hot of the entry, off the read port's input path
  logic [NLVL-1:0] rd_eoh_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ivl_q     <= 1'b0;
      mode_q    <= cm_pkg::CM_MODE_OFF;
      static_q  <= '0;
      rd_lim_q  <= '0;
      rd_lvl_q  <= '0;
      rd_stay_q <= '0;
      rd_vld_q  <= '0;
      rd_avg_q  <= '0;
      rd_why_q  <= '0;
      rd_eoh_q  <= '0;
    end else begin
      ivl_q     <= end_w;
      mode_q    <= mode_i;
      static_q  <= static_i;
      rd_lim_q  <= rd_ok ? rd_lim : '0;
      rd_lvl_q  <= rd_ok ? rd_lvl : '0;
      rd_stay_q <= rd_ok ? stay[rd_core_i] : '0;
      rd_vld_q  <= rd_ok ? vld[rd_core_i]  : '0;
      rd_why_q  <= rd_ok ? why[rd_core_i]  : '0;
      rd_avg_q  <= (rd_ok && ent_ok) ? rd_ent : '0;
      for (int e = 0; e < NLVL; e++) rd_eoh_q[e] <= (rd_entry_i == LIW'(e));
    end
  end

  assign interval_o = ivl_q;
  assign rd_limit_o = rd_lim_q;
  assign rd_level_o = rd_lvl_q;
  assign rd_stay_o  = rd_stay_q;
  assign rd_valid_o = rd_vld_q;
  assign rd_avg_o   = (|(rd_eoh_q & rd_vld_q)) ? rd_avg_q : '0;
  assign rd_why_o   = rd_why_q;

  // The walk ends before the next interval end; the limit of every core is legal.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(mon_walk_done_at_interval_end, !(end_w && (walk_q || d_v)))
      `FG_ASSERT(mon_core_limit_in_range, !rd_ok || (rd_lim >= LW'(1) && rd_lim <= MAXL))
      `FG_ASSERT(mon_walk_core_in_range, !walk_q || 32'(wp_q) < C)
      `FG_ASSERT(mon_table_write_in_range, !d_wr || 32'(d_c) < C)
    end
  end

`ifdef FORMAL
  // The walk's timing as the contract says (docs/CM_BAL.md, the twin's
  // CM_BAL_COMMIT_EDGES): f_ph_q counts the cycles since the last interval
  // end (0: none since the reset; saturates at C + 5).  Cycle E + j of an
  // interval that ended in cycle E has f_ph_q == j: the walk feeds core j - 1
  // for j in 1..C, the decision datapath's stages A, B, M, C hold core
  // j - 2, j - 3, j - 4, j - 5, so core c commits at the edge ending cycle
  // E + 5 + c, and everything is idle again from E + C + 5 on, before the
  // next interval end (INTERVAL >= C + 5).
  localparam int PHW = $clog2(C + 6);
  localparam logic [PHW-1:0] PHMAX = PHW'(C + 5);
  logic [PHW-1:0] f_ph_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) f_ph_q <= '0;
    else if (end_w) f_ph_q <= PHW'(1);
    else if (f_ph_q != '0 && f_ph_q != PHMAX) f_ph_q <= f_ph_q + 1'b1;
  end
  function automatic bit in_ph(input logic [PHW-1:0] ph, input int lo, input int hi);
    in_ph = 32'(ph) >= lo && 32'(ph) <= hi;
  endfunction
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(mon_phase_is_interval_count, f_ph_q == '0 || f_ph_q == PHMAX || 32'(f_cnt) == 32'(f_ph_q) - 1)
      `FG_ASSERT(mon_walk_timing, walk_q == in_ph(f_ph_q, 1, C) && (!walk_q || 32'(wp_q) == 32'(f_ph_q) - 1))
      `FG_ASSERT(mon_stage_a_timing, f_stage_v[3] == in_ph(f_ph_q, 2, C + 1))
      `FG_ASSERT(mon_stage_b_timing, f_stage_v[2] == in_ph(f_ph_q, 3, C + 2))
      `FG_ASSERT(mon_stage_m_timing, f_stage_v[1] == in_ph(f_ph_q, 4, C + 3))
      `FG_ASSERT(mon_commit_timing, d_v == in_ph(f_ph_q, 5, C + 4) && (!d_v || 32'(d_c) == 32'(f_ph_q) - 5))
      `FG_ASSERT(mon_commit_one_core, d_hot == (d_v ? (C'(1) << d_c) : '0))
      `FG_ASSERT(mon_idle_at_interval_end, !end_w || (!walk_q && f_stage_v == '0))
    end
  end
`endif

endmodule
