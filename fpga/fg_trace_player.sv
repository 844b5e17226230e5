// The FPGA top's trace player (docs/FPGA.md, "The trace player"): a block's
// port trace, recorded from a system run (`fgtrace 1`, docs/TRACES.md) and
// loaded by the host into block RAM, replayed into the block at the design
// clock, one trace line per cycle, with the block's outputs compared on chip
// against the recorded ones (in the block's slice, fpga/gen/fgs_<block>.sv).
//
// Memory: rows of NB 32-bit words, one bank per word (fg_play_group,
// fg_play_bank), shared by the blocks: one block plays at a time.  The banks
// come in depth tiers (fpga/regmap.py PLAY_TIERS: the first words deepest),
// so a narrow block has more rows than a wide one; a block can play the rows
// of its last word's bank (BROWS).  A row is
// one entry of a run-length coded trace: a header and the line's columns
// from bit HW up (rst_ni, the inputs, the expected outputs, in the trace's
// column order; fpga/gen/fg_regmap.h has each block's layout).  A row is
// played for its run length in cycles; a row's header holds the NEXT row's
// (bits [14:0] its run length - 1, bit [15] set when it is one cycle: the
// host computes both), the RUN0 register the first row's.
//
// Loads: the host writes a row's words in order to LOAD (UARTBone's fixed-
// address burst); SUM1 / SUM2 are a Fletcher-style checksum of the words
// loaded since ROW was written (SUM1 += word, SUM2 += SUM1, mod 2^32), which
// the host compares with its own: a word lost, doubled, changed or out of
// order on the line shows.
//
// Stream (one line per cycle, any run lengths): the banks' read data (the
// next row) sits one row ahead of the line register (the row played);
// "advance" (re) moves the read data into the line and reads the row after
// it, in the same edge.  Whether to advance at the end of a cycle is decided
// a cycle ahead and registered (re_q: in every group and here), from the
// run counter or, for a row just taken, from its header's one-cycle bit.
//
// Compare latency: the line leaves here (line_o) in cycle T-1, is registered
// in the block's slice (T: the block's inputs and, beside the block, its
// expected outputs), the block's outputs and the expected ones registered
// (T+1) and compared, the differences registered (T+2), the slice's mismatch
// flag (T+3), registered here (T+4): the line index of a mismatch is that of
// the line played 5 cycles before, from idx_q.
//
// Passes: a block whose line is wider than a row (the EKT) has its outputs
// in groups; a row holds the inputs and one group's expected outputs, and
// pass_o (PASS) tells the block's slice which ports to compare.  The host
// replays the trace once per pass (docs/FPGA.md, "The trace player").
//
// While on_o[b], block b's inputs and reset come from line_o (its reset held
// low while no line is valid: priming, draining, after a mismatch), and the
// block returns to its registers when the replay is over (reset at that
// point: the last cycles it saw were reset cycles).
`include "fg_assert.svh"
module fg_trace_player #(
  parameter int NB    = fg_regmap_pkg::PLAY_NB,
  parameter int DEPTH = fg_regmap_pkg::PLAY_ROWS,      // rows of the deepest banks
  parameter int NBLK  = fg_regmap_pkg::PLAY_NBLK,
  parameter int NG    = fg_regmap_pkg::PLAY_NG,        // bank groups
  parameter logic [8*NG-1:0] G_BASE = fg_regmap_pkg::PLAY_G_BASE,  // a group's first bank
  parameter logic [8*NG-1:0] G_N = fg_regmap_pkg::PLAY_G_N,        // its banks
  parameter logic [8*NG-1:0] G_AW = fg_regmap_pkg::PLAY_G_AW,      // log2 of its rows
  parameter logic [8*NBLK-1:0] WPR = fg_regmap_pkg::PLAY_WPR,      // words per row of each block
  parameter logic [16*NBLK-1:0] BROWS = fg_regmap_pkg::PLAY_BROWS, // rows each block can play
  localparam int PW    = fg_regmap_pkg::PLAY_PASS_W,  // PASS's bits
  parameter logic [PW*NBLK-1:0] LAST_PASS = fg_regmap_pkg::PLAY_LAST_PASS,  // its passes - 1
  localparam int AW   = $clog2(DEPTH),
  localparam int HW   = fg_regmap_pkg::PLAY_HDR_W,
  parameter int LW    = fg_regmap_pkg::PLAY_LW_MAX,  // columns of the widest block
  localparam int LAT  = 5,
  localparam int A    = fg_regmap_pkg::WIN_BITS
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // the PLAY window (its bus slice)
  input  logic              we_i,
  input  logic [A-1:0]      addr_i,
  input  logic [31:0]       wdata_i,
  output logic [31:0]       rdata_o,
  // to the blocks' slices
  output logic [LW-1:0]     line_o,    // columns of the line played; bit 0 rst_ni
  output logic              valid_o,   // line_o is a trace line
  output logic [NBLK-1:0]   on_o,      // block b plays
  output logic [PW-1:0]     pass_o,    // the outputs its slice compares (PASS)
  output logic              clr_o,     // a replay starts (the slices unfreeze)
  input  logic [NBLK-1:0]   mm_i,      // a slice's first mismatch
  input  logic [8*NBLK-1:0] port_i     // its lowest output column
);
  `FG_ASSERT_PARAM(g_chk_nb, NB >= 2 && NB <= 256 - 64, "NB: 2 .. 192 words per row")
  `FG_ASSERT_PARAM(g_chk_depth, DEPTH >= 2 && DEPTH <= 32768 && (1 << AW) == DEPTH,
                   "DEPTH: a power of two, 2 .. 32768")
  `FG_ASSERT_PARAM(g_chk_nblk, NBLK >= 1 && NBLK <= 8, "NBLK: 1 .. 8 blocks")
  `FG_ASSERT_PARAM(g_chk_hw, HW == 16, "the row header is 16 bits")
  `FG_ASSERT_PARAM(g_chk_lw, LW >= 2 && HW + LW <= 32 * NB, "LW: the widest line fits a row")

  typedef enum logic [1:0] {S_IDLE, S_PRIME, S_RUN, S_DRAIN} st_e;

  // ---------------------------------------------------------------- memory
  logic              re_d, re_q, ld_d, ld_q;
  logic [AW-1:0]     ldv_d, ldv_q;
  logic              wgo_d, wgo_q;
  logic [7:0]        wbank_d, wbank_q;
  logic [AW-1:0]     wrow_d, wrow_q;
  logic [31:0]       wdat_d, wdat_q;
  logic [32*NB-1:0]  ram, line;

  for (genvar g = 0; g < NG; g++) begin : g_grp
    localparam int BASE = {24'd0, G_BASE[8*g +: 8]};
    localparam int NBG  = {24'd0, G_N[8*g +: 8]};
    localparam int GD   = 1 << G_AW[8*g +: 8];
    fg_play_group #(.AW(AW), .DEPTH(GD), .NBG(NBG), .BASE(BASE)) u_grp (
      .clk_i, .re_i(re_d), .ld_i(ld_q), .ldv_i(ldv_q), .wgo_i(wgo_q), .wbank_i(wbank_q),
      .wrow_i(wrow_q), .wdat_i(wdat_q), .rdata_o(ram[32*BASE +: 32*NBG]),
      .line_o(line[32*BASE +: 32*NBG]));
  end

  // the run of the row the line takes at the next advance: the header of the
  // row in the line (each row's header holds the next row's run), or RUN0 for
  // the first (registers both: not the block RAMs' read data, 5.6 ns from its
  // clock on the ECP5, docs/FPGA_TIMING.md)
  logic [15:0] run0_d, run0_q;
  logic [14:0] nx_run;
  logic        nx_one;
  assign nx_run = (st_q == S_PRIME) ? run0_q[14:0] : line[14:0];
  assign nx_one = (st_q == S_PRIME) ? run0_q[15] : line[15];

  // ---------------------------------------------------------------- registers
  logic [2:0]   sel_d, sel_q;
  logic [PW-1:0] pass_d, pass_q;
  logic [15:0]  nent_d, nent_q;
  logic [AW:0]  row_d, row_q;
  logic [7:0]   bank_d, bank_q;
  st_e          st_d, st_q;
  logic [1:0]   pc_d, pc_q;
  logic [14:0]  rem_d, rem_q;
  logic [AW:0]  ent_d, ent_q;     // rows taken into the line
  logic         lv_d, lv_q;       // the line is a trace line
  logic [31:0]  lines_d, lines_q, cmpn_d, cmpn_q, mml_d, mml_q;
  logic [7:0]   mmp_d, mmp_q;
  logic         done_d, done_q, mism_d, mism_q, stop_d, stop_q, ref_d, ref_q;
  logic [2:0]   why_d, why_q;
  logic [3:0]   dr_d, dr_q;
  logic [31:0]  sum1_d, sum1_q, sum2_d, sum2_q;  // the load's checksums
  logic [NBLK-1:0] on_d, on_q;
  logic         clr_d, clr_q;
  logic         mm_q;
  logic [7:0]   mmport_q;
  logic [31:0]  idx_q [LAT];

  logic [1:0]  stb;
  logic        busy;
  logic [7:0]  wpr;
  logic [15:0] brows;  // rows the selected block can play
  logic [PW-1:0] lastp;  // its last pass
  assign stb  = (we_i && addr_i == fg_regmap_pkg::PLAYR_CTRL) ? wdata_i[1:0] : 2'b00;
  assign busy = (st_q != S_IDLE);
  assign wpr  = WPR[8*sel_q +: 8];
  assign brows = BROWS[16*sel_q +: 16];
  assign lastp = LAST_PASS[PW*sel_q +: PW];

  logic w_sel, w_nent, w_row, w_load, w_run0, w_pass;  // a bus write of the register
  assign w_sel  = we_i && addr_i == fg_regmap_pkg::PLAYR_SEL;
  assign w_nent = we_i && addr_i == fg_regmap_pkg::PLAYR_NENT;
  assign w_row  = we_i && addr_i == fg_regmap_pkg::PLAYR_ROW;
  assign w_load = we_i && addr_i == fg_regmap_pkg::PLAYR_LOAD;
  assign w_run0 = we_i && addr_i == fg_regmap_pkg::PLAYR_RUN0;
  assign w_pass = we_i && addr_i == fg_regmap_pkg::PLAYR_PASS;

  always_comb begin
    st_d    = st_q;
    pc_d    = pc_q;
    re_d    = 1'b0;
    ld_d    = 1'b0;
    ldv_d   = ldv_q;
    rem_d   = rem_q;
    ent_d   = ent_q;
    lv_d    = lv_q;
    lines_d = lines_q;
    cmpn_d  = cmpn_q;
    done_d  = done_q;
    mism_d  = mism_q;
    stop_d  = stop_q;
    ref_d   = ref_q;
    why_d   = why_q;
    mml_d   = mml_q;
    mmp_d   = mmp_q;
    dr_d    = dr_q;
    clr_d   = 1'b0;
    on_d    = on_q;
    sel_d   = sel_q;
    pass_d  = pass_q;
    nent_d  = nent_q;
    row_d   = row_q;
    bank_d  = bank_q;
    wgo_d   = 1'b0;
    wbank_d = wbank_q;
    wrow_d  = wrow_q;
    wdat_d  = wdat_q;
    run0_d  = run0_q;
    sum1_d  = sum1_q;
    sum2_d  = sum2_q;

    // ---- configuration and loads (refused while a replay runs)
    if (busy && (w_sel || w_nent || w_row || w_load || w_run0 || w_pass)) begin
      ref_d = 1'b1;
      why_d = 3'd4;
    end else begin
      if (w_sel) begin
        if (wdata_i < 32'(NBLK)) sel_d = wdata_i[2:0];
        else begin
          ref_d = 1'b1;
          why_d = 3'd2;
        end
      end
      if (w_nent) nent_d = wdata_i[15:0];
      // held as written (PW bits: a larger value reads back clipped); START
      // checks it against the block's passes, whichever SEL comes first
      if (w_pass) pass_d = (wdata_i > 32'((1 << PW) - 1)) ? '1 : wdata_i[PW-1:0];
      if (w_run0) run0_d = wdata_i[15:0];
      if (w_row) begin
        row_d  = (wdata_i > 32'(DEPTH)) ? (AW + 1)'(DEPTH) : wdata_i[AW:0];
        bank_d = '0;
        sum1_d = '0;
        sum2_d = '0;
      end
      if (w_load) begin
        if (32'(row_q) >= 32'(brows)) begin
          ref_d = 1'b1;
          why_d = 3'd5;
        end else begin
          wgo_d   = 1'b1;
          wbank_d = bank_q;
          wrow_d  = row_q[AW-1:0];
          wdat_d  = wdata_i;
          sum1_d  = sum1_q + wdata_i;
          sum2_d  = sum2_q + sum1_q + wdata_i;
          if (bank_q == wpr - 8'd1) begin
            bank_d = '0;
            row_d  = row_q + 1'b1;
          end else begin
            bank_d = bank_q + 8'd1;
          end
        end
      end
    end

    // ---- the stream
    if (st_q == S_PRIME) begin
      // pc 0: address 0 loaded; 1: read row 0; 2: row 0 in the read data,
      // taken into the line at the end of this cycle (re_q), row 1 read
      pc_d = pc_q + 1'b1;
      if (pc_q != 2'd2) re_d = 1'b1;
    end
    if ((st_q == S_RUN || (st_q == S_PRIME && pc_q == 2'd2)) && !mism_q) begin
      if (re_q) begin
        // the line takes the read data's row at the end of this cycle
        if (ent_q < nent_q[AW:0]) begin
          lv_d  = 1'b1;
          rem_d = nx_run;
          ent_d = ent_q + 1'b1;
          re_d  = nx_one;
          st_d  = S_RUN;
        end else begin
          lv_d = 1'b0;
          st_d = S_DRAIN;
          dr_d = 4'(LAT + 2);
        end
      end else begin
        rem_d = rem_q - 1'b1;
        re_d  = (rem_q == 15'd1);
      end
    end
    if (lv_q) begin
      lines_d = lines_q + 1'b1;
      if (line[HW]) cmpn_d = cmpn_q + 1'b1;
    end
    if (st_q == S_DRAIN) begin
      if (dr_q != '0) dr_d = dr_q - 1'b1;
      else begin
        st_d   = S_IDLE;
        done_d = 1'b1;
        on_d   = '0;
      end
    end
    // the first mismatch: recorded, and the stream stops
    if (mm_q && busy && !mism_q) begin
      mism_d = 1'b1;
      mml_d  = idx_q[LAT-1];
      mmp_d  = mmport_q;
      lv_d   = 1'b0;
      re_d   = 1'b0;
      if (st_q != S_DRAIN) begin
        st_d = S_DRAIN;
        dr_d = 4'(LAT + 2);
      end
    end
    // STOP: the stream ends now
    if (stb[1] && busy) begin
      stop_d = 1'b1;
      lv_d   = 1'b0;
      re_d   = 1'b0;
      if (st_q != S_DRAIN) begin
        st_d = S_DRAIN;
        dr_d = 4'(LAT + 2);
      end
    end
    // START
    if (stb[0]) begin
      if (busy) begin
        ref_d = 1'b1;
        why_d = 3'd1;
      end else if (nent_q == '0 || nent_q > brows) begin
        ref_d = 1'b1;
        why_d = 3'd3;
      end else if (pass_q > lastp) begin
        ref_d = 1'b1;
        why_d = 3'd6;
      end else begin
        st_d    = S_PRIME;
        pc_d    = '0;
        ld_d    = 1'b1;
        ldv_d   = '0;
        clr_d   = 1'b1;
        on_d    = NBLK'(1) << sel_q;
        lines_d = '0;
        cmpn_d  = '0;
        ent_d   = '0;
        lv_d    = 1'b0;
        done_d  = 1'b0;
        mism_d  = 1'b0;
        stop_d  = 1'b0;
        ref_d   = 1'b0;
        why_d   = '0;
        mml_d   = '0;
        mmp_d   = '0;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q   <= S_IDLE;
      pc_q   <= '0;
      re_q   <= 1'b0;
      ld_q   <= 1'b0;
      wgo_q  <= 1'b0;
      lv_q   <= 1'b0;
      done_q <= 1'b0;
      mism_q <= 1'b0;
      stop_q <= 1'b0;
      ref_q  <= 1'b0;
      why_q  <= '0;
      sum1_q <= '0;
      sum2_q <= '0;
      run0_q <= '0;
      on_q   <= '0;
      clr_q  <= 1'b0;
      mm_q   <= 1'b0;
      sel_q  <= '0;
      pass_q <= '0;
      nent_q <= '0;
      row_q  <= '0;
      bank_q <= '0;
      lines_q <= '0;
      cmpn_q <= '0;
      mml_q  <= '0;
      mmp_q  <= '0;
      ent_q  <= '0;
    end else begin
      st_q   <= st_d;
      pc_q   <= pc_d;
      re_q   <= re_d;
      ld_q   <= ld_d;
      wgo_q  <= wgo_d;
      lv_q   <= lv_d;
      done_q <= done_d;
      mism_q <= mism_d;
      stop_q <= stop_d;
      ref_q  <= ref_d;
      why_q  <= why_d;
      sum1_q <= sum1_d;
      sum2_q <= sum2_d;
      run0_q <= run0_d;
      on_q   <= on_d;
      clr_q  <= clr_d;
      mm_q   <= |(mm_i & on_q);
      sel_q  <= sel_d;
      pass_q <= pass_d;
      nent_q <= nent_d;
      row_q  <= row_d;
      bank_q <= bank_d;
      lines_q <= lines_d;
      cmpn_q <= cmpn_d;
      mml_q  <= mml_d;
      mmp_q  <= mmp_d;
      ent_q  <= ent_d;
    end
  end
  // data registers without reset
  always_ff @(posedge clk_i) begin
    ldv_q   <= ldv_d;
    wbank_q <= wbank_d;
    wrow_q  <= wrow_d;
    wdat_q  <= wdat_d;
    rem_q   <= rem_d;
    dr_q    <= dr_d;
    mmport_q <= port_i[8*sel_q +: 8];
    idx_q[0] <= lines_q;
    for (int k = 1; k < LAT; k++) idx_q[k] <= idx_q[k-1];
  end

  // ---------------------------------------------------------------- outputs
  assign line_o  = {line[HW+LW-1:HW+1], line[HW] && lv_q};
  assign valid_o = lv_q;
  assign on_o    = on_q;
  assign pass_o  = pass_q;
  assign clr_o   = clr_q;

  // ---------------------------------------------------------------- bus reads
  logic [31:0] status, rdata_d, rdata_q;
  assign status = {21'd0, why_q, 3'd0, ref_q, stop_q, mism_q, done_q, busy};
  always_comb begin
    unique case (addr_i)
      fg_regmap_pkg::PLAYR_CTRL, fg_regmap_pkg::PLAYR_STATUS: rdata_d = status;
      fg_regmap_pkg::PLAYR_SEL:      rdata_d = 32'(sel_q);
      fg_regmap_pkg::PLAYR_NENT:     rdata_d = 32'(nent_q);
      fg_regmap_pkg::PLAYR_ROW:      rdata_d = 32'(row_q);
      fg_regmap_pkg::PLAYR_LOADED:   rdata_d = {8'd0, bank_q, 16'(row_q)};
      fg_regmap_pkg::PLAYR_LINES:    rdata_d = lines_q;
      fg_regmap_pkg::PLAYR_COMPARED: rdata_d = cmpn_q;
      fg_regmap_pkg::PLAYR_MM_LINE:  rdata_d = mml_q;
      fg_regmap_pkg::PLAYR_MM_PORT:  rdata_d = 32'(mmp_q);
      fg_regmap_pkg::PLAYR_ROWS:     rdata_d = 32'(brows);
      fg_regmap_pkg::PLAYR_WORDS:    rdata_d = 32'(NB);
      fg_regmap_pkg::PLAYR_SUM1:     rdata_d = sum1_q;
      fg_regmap_pkg::PLAYR_SUM2:     rdata_d = sum2_q;
      fg_regmap_pkg::PLAYR_RUN0:     rdata_d = 32'(run0_q);
      fg_regmap_pkg::PLAYR_PASS:     rdata_d = 32'(pass_q);
      fg_regmap_pkg::PLAYR_PASSES:   rdata_d = 32'(lastp) + 32'd1;
      default:                       rdata_d = '0;
    endcase
  end
  always_ff @(posedge clk_i) rdata_q <= rdata_d;
  assign rdata_o = rdata_q;

  logic unused;
  // the header of the line and the data of the row after it (only its header
  // is read here); the bits above the widest block
  assign unused = ^{ram, line};
endmodule
