// CM-CPU / CM-BAL stall monitor, block top (CM Sec. 4, Fig. 11): P memory
// partition counter pairs, the central CM-CPU logic, and C per-core CM-BAL
// units.  Defaults are CM Table I: 8 partitions, 28 cores, 2 schedulers,
// 48 warps; interval 1024 cycles, tH = 1, tL = 0.25 (Sec. 5).
//
// Run-time inputs (sampled every cycle): mode_i 0 off (limit = MAXW),
// 1 static (limit = static_i clamped to 1..MAXW), 2 CM-CPU, 3 CM-BAL with
// k = k_i (stallGPU cycles; CM-BAL1..4 = 32/64/96/128).
//
// Outputs depend on state only.  Per-core results go through a read port
// (C x 6 bits of limits do not fit a 64-bit port for C = 28): rd_core_i /
// rd_entry_i select a core and a table entry; the next cycle the rd_*_o
// registers hold that core's state as it was in the selecting cycle.
// interval_o is high for one cycle after each interval end (the cycle in which
// the new limits, levels and decision are visible in the registers).
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
  localparam int CW  = $clog2(INTERVAL),
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
  logic [P*(CW+1)-1:0] mc_cnt, net_cnt;
  logic                end_w;
  logic [1:0]          dec_w;
  logic [LW-1:0]       cpu_lim_d;

  for (genvar p = 0; p < P; p++) begin : g_part
    cm_partition_counters #(.INTERVAL(INTERVAL)) u_part (
      .clk_i, .rst_ni,
      .stall_mc_i (stall_mc_i[p]),
      .stall_net_i(stall_net_i[p]),
      .end_i      (end_w),
      .mc_o       (mc_cnt[p*(CW+1) +: CW+1]),
      .net_o      (net_cnt[p*(CW+1) +: CW+1])
    );
  end

  cm_cpu_central #(
    .P(P), .INTERVAL(INTERVAL), .TH_Q4(TH_Q4), .TL_Q4(TL_Q4), .MAXW(MAXW), .FINE(FINE)
  ) u_central (
    .clk_i, .rst_ni,
    .mc_i         (mc_cnt),
    .net_i        (net_cnt),
    .mode_i,
    .end_o        (end_w),
    .dec_o        (dec_w),
    .lim_d_o      (cpu_lim_d),
    .lim_q_o      (cpu_limit_o),
    .dec_q_o      (decision_o),
    .stall_mc_q_o (stall_mc_o),
    .stall_net_q_o(stall_net_o)
  );

  logic [LW-1:0]        lim   [C];
  logic [LIW-1:0]       lvl   [C];
  logic [XW-1:0]        stay  [C];
  logic [NLVL-1:0]      vld   [C];
  logic [NLVL*SGW-1:0]  avg   [C];
  logic [2:0]           why   [C];

  for (genvar c = 0; c < C; c++) begin : g_core
    cm_bal_core #(
      .NSCHED(NSCHED), .INTERVAL(INTERVAL), .MAXW(MAXW), .NLVL(NLVL), .LEVELS(LEVELS),
      .EXPLORE_WARPS(EXPLORE_WARPS), .EXPLORE_N(EXPLORE_N)
    ) u_core (
      .clk_i, .rst_ni,
      .issue_stall_i(issue_stall_i[c*NSCHED +: NSCHED]),
      .kstart_i     (kstart_i[c]),
      .kend_i       (kend_i[c]),
      .end_i        (end_w),
      .dec_i        (dec_w),
      .mode_i,
      .static_i,
      .k_i,
      .cpu_lim_d_i  (cpu_lim_d),
      .limit_o      (lim[c]),
      .lvl_o        (lvl[c]),
      .stay_o       (stay[c]),
      .valid_o      (vld[c]),
      .avg_o        (avg[c]),
      .why_o        (why[c])
    );
  end

  // Read port and interval strobe registers.
  logic                 ivl_q;
  logic [LW-1:0]        rd_lim_q;
  logic [LIW-1:0]       rd_lvl_q;
  logic [XW-1:0]        rd_stay_q;
  logic [NLVL-1:0]      rd_vld_q;
  logic [SGW-1:0]       rd_avg_q;
  logic [2:0]           rd_why_q;
  logic                 rd_ok, ent_ok;

  assign rd_ok  = (32'(rd_core_i) < C);
  assign ent_ok = (32'(rd_entry_i) < NLVL);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ivl_q     <= 1'b0;
      rd_lim_q  <= '0;
      rd_lvl_q  <= '0;
      rd_stay_q <= '0;
      rd_vld_q  <= '0;
      rd_avg_q  <= '0;
      rd_why_q  <= '0;
    end else begin
      ivl_q     <= end_w;
      rd_lim_q  <= rd_ok ? lim[rd_core_i]  : '0;
      rd_lvl_q  <= rd_ok ? lvl[rd_core_i]  : '0;
      rd_stay_q <= rd_ok ? stay[rd_core_i] : '0;
      rd_vld_q  <= rd_ok ? vld[rd_core_i]  : '0;
      rd_why_q  <= rd_ok ? why[rd_core_i]  : '0;
      rd_avg_q  <= (rd_ok && ent_ok) ? avg[rd_core_i][32'(rd_entry_i)*SGW +: SGW] : '0;
    end
  end

  assign interval_o = ivl_q;
  assign rd_limit_o = rd_lim_q;
  assign rd_level_o = rd_lvl_q;
  assign rd_stay_o  = rd_stay_q;
  assign rd_valid_o = rd_vld_q;
  assign rd_avg_o   = rd_avg_q;
  assign rd_why_o   = rd_why_q;

  // Port packing: C*NSCHED, C and P must each be <= 64 (64-bit port rule);
  // the defaults (28 x 2 = 56) fit.
endmodule
