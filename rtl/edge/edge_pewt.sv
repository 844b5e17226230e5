// Pending event warp table (PEWT) of an EDGE SIMT core.
//
// EDGE Sec. IV-C (Fig. 9): warp-level event kernels (one block of <= 32
// threads, no shared memory) bypass the KMU; the SIMT core scheduler picks a
// core and transfers the event kernel into that core's small pending event
// warp table, which manages it locally: when the warp completes, the kernel
// completes.  Sec. IV-D: a pending event waits for a warp context, either a
// free one or one borrowed from a victim warp by the preemption controller
// (rtl/edge/edge_preempt.sv), which forwards its START to start_*.
// Sec. IV-E: a four-entry table, 160 B per SIMT core.
//
// Entry life: FREE -push-> PENDING -start-> RUNNING (in warp slot `slot`)
// -exit-> FREE, with one completion pulse carrying the launch tag.  The
// contract (ports, timing, errors) is sim/twin/edge_pewt.h.
//
// Beyond the paper (our choices):
//   - pending entries start in arrival order (an fg_fifo of entry indices);
//     a push takes the lowest free entry;
//   - start, exit and push may all happen at the same edge, every decision
//     judged on the state before the edge; an exit frees its slot before a
//     start into the same slot at the same edge (so that start is legal);
//   - misuse (start with nothing pending, start into a slot already running
//     an event warp, exit of a slot running none) is ignored and reported:
//     err_valid_o pulses the cycle after, cnt_err_o counts (a start error and
//     an exit error at the same edge count 2; err_code_o shows the start's).
//
// Storage (default parameters), against EDGE IV-E's 160 B = 1280 bits per
// core (40 B per entry, which fits two 8 B pointers + six 4 B dimensions):
//   per entry kernel 64 + param 64 + tag 64 + threads 6 + regs 7 + slot 6
//   + state 2 (pend_q / run_q) = 213 bits; 4 entries = 852 bits = 106.5 B,
//   67% of the budget (no grid/block dimensions: a single-warp kernel only
//   needs its thread count; a 64-bit launch tag instead).  Arrival order:
//   4 x 2 bits + pointers and count = 15 bits.  Outside the table proper:
//   completion 71, error 19, push counter 32 bits.  All registers: 989 bits
//   = 123.6 B, still under 160 B (Yosys synth_ecp5: 991 FFs, the 2 extra
//   being a read register Yosys makes of the order FIFO's read port).
//
// Style (docs/RTL_STYLE.md): entry states and error codes from edge_pkg
// (rtl/edge/edge_enc.toml, the twin's sim/twin/gen/edge_pewt_enc.h comes from
// the same list); named assertions (rtl/include/fg_assert.svh); parameters
// the twin refuses stop elaboration.
`include "fg_assert.svh"
`include "fg_comb.svh"
`include "fg_enum.svh"
module edge_pewt #(
  parameter int ENTRIES = 4,
  parameter int ADDR_W  = 64,
  parameter int TAG_W   = 64,
  parameter int SLOT_W  = 6,
  parameter int THR_W   = 6,
  parameter int REGS_W  = 7,
  // derived widths, not settable
  localparam int IDW    = (ENTRIES > 1) ? $clog2(ENTRIES) : 1,  // entry index
  localparam int CW     = $clog2(ENTRIES + 1)                   // entry count 0..ENTRIES
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // push: a single-warp event kernel from the SIMT core scheduler (IV-C)
  input  logic              ev_valid_i,
  output logic              ev_ready_o,
  input  logic [ADDR_W-1:0] ev_kernel_i,
  input  logic [ADDR_W-1:0] ev_param_i,
  input  logic [TAG_W-1:0]  ev_tag_i,
  input  logic [THR_W-1:0]  ev_threads_i,
  input  logic [REGS_W-1:0] ev_regs_i,
  // start: the head pending event gets warp slot start_slot_i (IV-D)
  input  logic              start_valid_i,
  input  logic [SLOT_W-1:0] start_slot_i,
  // exit: the event warp in exit_slot_i finished
  input  logic              exit_valid_i,
  input  logic [SLOT_W-1:0] exit_slot_i,
  // head of the pending entries (oldest first)
  output logic              hd_valid_o,
  output logic [IDW-1:0]    hd_idx_o,
  output logic [ADDR_W-1:0] hd_kernel_o,
  output logic [ADDR_W-1:0] hd_param_o,
  output logic [TAG_W-1:0]  hd_tag_o,
  output logic [THR_W-1:0]  hd_threads_o,
  output logic [REGS_W-1:0] hd_regs_o,
  // completion: one pulse per exit of a running event warp
  output logic              cpl_valid_o,
  output logic [TAG_W-1:0]  cpl_tag_o,
  output logic [SLOT_W-1:0] cpl_slot_o,
  // occupancy (the SIMT core scheduler reads n_free_o / ev_ready_o)
  output logic [CW-1:0]     n_pending_o,
  output logic [CW-1:0]     n_running_o,
  output logic [CW-1:0]     n_free_o,
  // errors and counters
  output logic              err_valid_o,
  output logic [1:0]        err_code_o,
  output logic [15:0]       cnt_err_o,
  output logic [31:0]       cnt_push_o
);
  `FG_IMPORT(edge_pkg)
  // Parameter legality, as the C twin (sim/twin/edge_pewt.c) refuses: ports
  // cross into C as 64-bit words at most, entry masks are 64-bit words.
  `FG_ASSERT_PARAM(g_chk_entries, ENTRIES >= 1 && ENTRIES <= 64, "edge_pewt: ENTRIES must be 1..64")
  `FG_ASSERT_PARAM(g_chk_addr_w, ADDR_W >= 1 && ADDR_W <= 64, "edge_pewt: ADDR_W must be 1..64")
  `FG_ASSERT_PARAM(g_chk_tag_w, TAG_W >= 1 && TAG_W <= 64, "edge_pewt: TAG_W must be 1..64")
  `FG_ASSERT_PARAM(g_chk_slot_w, SLOT_W >= 1 && SLOT_W <= 32, "edge_pewt: SLOT_W must be 1..32")
  `FG_ASSERT_PARAM(g_chk_thr_w, THR_W >= 1 && THR_W <= 64, "edge_pewt: THR_W must be 1..64")
  `FG_ASSERT_PARAM(g_chk_regs_w, REGS_W >= 1 && REGS_W <= 64, "edge_pewt: REGS_W must be 1..64")

  // ---------------------------------------------------------------- state
  // Entry state (edge_pkg::pewt_state_e, in the entries' scopes g_ent[i]):
  // pend[i] = PENDING, run[i] = RUNNING, FREE = neither.
  logic [ENTRIES-1:0] pend, run;
  logic              cpl_v_q;
  logic [TAG_W-1:0]  cpl_tag_q;
  logic [SLOT_W-1:0] cpl_slot_q;
  logic              err_v_q;
  `FG_ENUM(edge_pkg, pewt_err_e) err_code_q, err_code;
  logic [15:0]       cnt_err_q;
  logic [31:0]       cnt_push_q;

  function automatic logic [CW-1:0] popcnt(input logic [ENTRIES-1:0] m);
    popcnt = '0;
    for (int i = 0; i < ENTRIES; i++) popcnt = popcnt + CW'(m[i]);
  endfunction

  // One-hot (or zero) entry masks of this cycle's push, start and exit.
  logic [ENTRIES-1:0] push_oh, start_oh, exit_oh;

  // ------------------------------------------------------------ the entries
  // Entry i is generate scope g_ent[i] (one group of signals per entry in the
  // waveforms): its state (FREE / PENDING / RUNNING by name) and its payload.  The payload is plain
  // enable flops without reset, meaningful only while the entry is PENDING /
  // RUNNING.  Each entry offers its fields to the head read-out when it is
  // the head and its tag to the completion when its slot exits; the outputs
  // OR these together (an AND-OR of the decoded index: ~3 LUT4 per bit under
  // Yosys, against ~5 for the equivalent priority if-chain).
  localparam int HW = 2 * ADDR_W + TAG_W + THR_W + REGS_W;   // head fields
  logic [ENTRIES-1:0]        start_hit, exit_hit;            // RUNNING in start_slot_i / exit_slot_i
  logic [ENTRIES*SLOT_W-1:0] slots;                          // entry i's slot at [i*SLOT_W +: SLOT_W]
  logic [ENTRIES*HW-1:0]     hd_sel;                         // entry i's fields if it is the head
  logic [ENTRIES*TAG_W-1:0]  exit_sel;                       // entry i's tag if its slot exits

  for (genvar i = 0; i < ENTRIES; i++) begin : g_ent
    // the state keeps the package's encoding (Yosys would otherwise re-encode it)
    (* fsm_encoding = "none" *) `FG_ENUM(edge_pkg, pewt_state_e) state_q;
    logic [ADDR_W-1:0] kernel_q, param_q;
    logic [TAG_W-1:0]  tag_q;
    logic [THR_W-1:0]  thr_q;
    logic [REGS_W-1:0] regs_q;
    logic [SLOT_W-1:0] slot_q;

    // at most one of push / start / exit names an entry at an edge (a push
    // takes a FREE entry, a start the PENDING head, an exit a RUNNING one)
    always_ff @(posedge clk_i) begin
      if (!rst_ni)           state_q <= edge_pkg::PEWT_ST_FREE;
      else if (push_oh[i])   state_q <= edge_pkg::PEWT_ST_PENDING;
      else if (start_oh[i])  state_q <= edge_pkg::PEWT_ST_RUNNING;
      else if (exit_oh[i])   state_q <= edge_pkg::PEWT_ST_FREE;
    end
    wire pend_q = state_q == edge_pkg::PEWT_ST_PENDING;
    wire run_q  = state_q == edge_pkg::PEWT_ST_RUNNING;

    always_ff @(posedge clk_i) begin
      if (push_oh[i]) begin
        kernel_q <= ev_kernel_i;
        param_q  <= ev_param_i;
        tag_q    <= ev_tag_i;
        thr_q    <= ev_threads_i;
        regs_q   <= ev_regs_i;
      end
      if (start_oh[i]) slot_q <= start_slot_i;
    end

    assign pend[i]       = pend_q;
    assign run[i]        = run_q;
    assign slots[i*SLOT_W +: SLOT_W] = slot_q;
    assign start_hit[i]  = run_q && (slot_q == start_slot_i);
    assign exit_hit[i]   = run_q && (slot_q == exit_slot_i);
    // only a PENDING entry offers its fields: with nothing pending (the
    // order FIFO shows index 0) the head reads 0, not a payload that may
    // never have been written (randomized initial state, docs/ARCHITECTURE.md)
    assign hd_sel[i*HW +: HW]         = (pend_q && hd_idx_o == IDW'(i)) ?
                                        {kernel_q, param_q, tag_q, thr_q, regs_q} : '0;
    assign exit_sel[i*TAG_W +: TAG_W] = exit_hit[i] ? tag_q : '0;
  end

  // The head entry's fields (0 when hd_valid_o = 0, as the C twin mirrors:
  // the order FIFO then shows 0 and entry 0 is not pending) and the exiting
  // entry's tag (at most one RUNNING entry per slot: asserted).
  logic [HW-1:0]    hd_fields;
  logic [TAG_W-1:0] exit_tag;
  `FG_COMB_READBACK begin
    hd_fields = '0;
    exit_tag  = '0;
    for (int i = 0; i < ENTRIES; i++) begin
      hd_fields = hd_fields | hd_sel[i*HW +: HW];
      exit_tag  = exit_tag | exit_sel[i*TAG_W +: TAG_W];
    end
  end
  assign {hd_kernel_o, hd_param_o, hd_tag_o, hd_threads_o, hd_regs_o} = hd_fields;

  // ------------------------------------------------------------------ push
  // A push takes the lowest free entry.  ev_ready_o comes from state only:
  // an entry freed at the same edge is not reused before the next cycle.
  // Writes are gated by rst_ni so that the reset cycles never touch the
  // payload or the order FIFO's storage (the C twin's reset does not either).
  wire [ENTRIES-1:0] free_m = ~(pend | run);
  logic [IDW-1:0] free_idx;
  always_comb begin
    free_idx = '0;
    for (int i = ENTRIES - 1; i >= 0; i--) if (free_m[i]) free_idx = IDW'(i);
  end
  assign ev_ready_o = |free_m;
  wire push = rst_ni && ev_valid_i && ev_ready_o;

  // ------------------------------------------- exit and start (IV-C, IV-D)
  // exit: frees the RUNNING entry of exit_slot_i (completion next cycle)
  wire exit_ok  = exit_valid_i && (|exit_hit);
  wire exit_err = exit_valid_i && !(|exit_hit);
  // start: the head (oldest PENDING entry) into start_slot_i, unless no entry
  // is pending or the slot already runs an event warp that is not exiting now
  wire start_empty = start_valid_i && !hd_valid_o;
  wire start_busy  = start_valid_i && hd_valid_o && (|start_hit) &&
                     !(exit_valid_i && (exit_slot_i == start_slot_i));
  wire start_ok    = rst_ni && start_valid_i && hd_valid_o && !start_busy;

  assign push_oh  = push ? (ENTRIES'(1) << free_idx) : '0;
  assign start_oh = start_ok ? (ENTRIES'(1) << hd_idx_o) : '0;
  assign exit_oh  = exit_ok ? exit_hit : '0;

  // --------------------------------------------- arrival order (IV-C)
  logic unused_ord_ready;
`ifdef FORMAL
  logic [ENTRIES*IDW-1:0] f_ord_mem;
  logic [IDW-1:0]         f_ord_rptr;
`endif
  fg_fifo #(.WIDTH(IDW), .DEPTH(ENTRIES)) u_order (
    .clk_i, .rst_ni, .valid_i(push), .ready_o(unused_ord_ready), .data_i(free_idx),
    .valid_o(hd_valid_o), .ready_i(start_ok), .data_o(hd_idx_o), .count_o(n_pending_o)
`ifdef FORMAL
    , .f_mem_o(f_ord_mem), .f_rptr_o(f_ord_rptr)
`endif
  );

  // ------------------------------------------------ errors and counters
  wire        any_err  = start_empty || start_busy || exit_err;
  assign err_code = start_empty ? edge_pkg::PEWT_ERR_START_EMPTY :
                    start_busy  ? edge_pkg::PEWT_ERR_START_BUSY : edge_pkg::PEWT_ERR_EXIT_UNKNOWN;
  wire [1:0]  n_err    = 2'(start_empty || start_busy) + 2'(exit_err);
  wire [16:0] err_sum  = {1'b0, cnt_err_q} + 17'(n_err);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cpl_v_q    <= 1'b0;
      cpl_tag_q  <= '0;
      cpl_slot_q <= '0;
      err_v_q    <= 1'b0;
      err_code_q <= edge_pkg::PEWT_ERR_NONE;
      cnt_err_q  <= '0;
      cnt_push_q <= '0;
    end else begin
      cpl_v_q <= exit_ok;
      if (exit_ok) begin
        cpl_tag_q  <= exit_tag;
        cpl_slot_q <= exit_slot_i;
      end
      err_v_q <= any_err;
      if (any_err) err_code_q <= err_code;
      cnt_err_q <= err_sum[16] ? 16'hffff : err_sum[15:0];
      if (push && cnt_push_q != 32'hffffffff) cnt_push_q <= cnt_push_q + 32'd1;
    end
  end

  // -------------------------------------------------------------- outputs
  assign cpl_valid_o  = cpl_v_q;
  assign cpl_tag_o    = cpl_tag_q;
  assign cpl_slot_o   = cpl_slot_q;
  assign n_running_o  = popcnt(run);
  assign n_free_o     = popcnt(free_m);
  assign err_valid_o  = err_v_q;
  assign err_code_o   = err_code_q;
  assign cnt_err_o    = cnt_err_q;
  assign cnt_push_o   = cnt_push_q;

  // ----------------------------------------------------------- invariants
  // no two RUNNING entries share a slot (one flag, so that the assertion is
  // one named property, not one per unrolled pair)
  logic slots_distinct;
  always_comb begin
    slots_distinct = 1'b1;
    for (int i = 0; i < ENTRIES; i++)
      for (int j = 0; j < ENTRIES; j++)
        if (j > i && run[i] && run[j] && slots[i*SLOT_W +: SLOT_W] == slots[j*SLOT_W +: SLOT_W])
          slots_distinct = 1'b0;
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(pewt_one_state_per_entry, (pend & run) == '0)
      `FG_ASSERT(pewt_order_counts_pending, n_pending_o == popcnt(pend))  // the order FIFO holds the PENDING entries
      `FG_ASSERT(pewt_counts_sum_to_entries, 32'(n_pending_o) + 32'(n_running_o) + 32'(n_free_o) == ENTRIES)
      `FG_ASSERT(pewt_head_is_pending, !hd_valid_o || pend[hd_idx_o])
      // exit_slot_i means something only with exit_valid_i (a 4-state simulator
      // sees X there otherwise)
      `FG_ASSERT(pewt_exit_slot_unique, !exit_valid_i || popcnt(exit_hit) <= CW'(1))
      `FG_ASSERT(pewt_running_slots_distinct, slots_distinct)
      `FG_ASSERT(pewt_push_takes_free, !push || free_m[free_idx])
      `FG_ASSERT(pewt_start_slot_free, !start_ok || !(|(start_hit & ~exit_oh)))  // never two warps in one slot
    end
  end

`ifdef FORMAL
  // Proofs (formal/edge_pewt.sby, docs/FORMAL.md).  The order FIFO holds
  // exactly the PENDING entries, each once (k-induction needs it: the head
  // after a start is the next one); a push never finds the FIFO full.
  logic [ENTRIES-1:0][IDW-1:0] f_ord;   // k-th oldest pending entry
  logic                        f_ord_ok;
  logic [31:0]                 f_a;
  `FG_COMB_READBACK begin
    f_ord_ok = 1'b1;
    for (int k = 0; k < ENTRIES; k++) begin
      f_a = 32'(f_ord_rptr) + 32'(k);
      if (f_a >= ENTRIES) f_a = f_a - ENTRIES;
      f_ord[k] = '0;
      for (int m = 0; m < ENTRIES; m++) if (f_a == 32'(m)) f_ord[k] = f_ord_mem[m*IDW +: IDW];
      if (32'(k) < 32'(n_pending_o)) begin
        if (32'(f_ord[k]) >= ENTRIES || (pend & (ENTRIES'(1) << f_ord[k])) == '0) f_ord_ok = 1'b0;
        for (int j = 0; j < k; j++) if (f_ord[j] == f_ord[k]) f_ord_ok = 1'b0;
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(pewt_order_holds_the_pending, f_ord_ok)
      `FG_ASSERT(pewt_order_no_overflow, !push || unused_ord_ready)
      `FG_ASSERT(pewt_head_idx_in_table, !hd_valid_o || 32'(hd_idx_o) < ENTRIES)
    end
  end
`endif
endmodule
