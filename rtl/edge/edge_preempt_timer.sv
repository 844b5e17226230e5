// Save / restore timer of the preemption controller (EDGE Sec. IV-D: the
// victim's registers go to global memory and come back; the time is
// save cycles = base + registers x cycles per register, saturated to
// 2^CYC_W - 1, sim/twin/edge_preempt.h).  One instance times the SAVE state,
// one the restore; rtl/edge/edge_preempt.sv qualifies due_o with its state.
//
// load_i at edge E latches base, cycles per register and registers; due_o is
// set from cycle E+1+N on (N the save count) until the next load.  That is
// the cycle a counter loaded with N at edge E and counting to 0 reads 0 in
// (the contract's timing), without the multiply and the saturation in front
// of the counter at E (together too long a path for one cycle):
//   cycle E+1 (edge_pkg::PRE_PH_MUL)  due when N = 0 (zero_q: seen from the operands at
//                       the load, without the multiply); prod_q := regs x
//                       per_reg, and whether N = 1
//   cycle E+2 (edge_pkg::PRE_PH_ADD)  due when N = 1; else cnt_q := N = base + prod_q,
//                       saturated
//   cycle E+3.. (edge_pkg::PRE_PH_CNT) due when cnt_q = 2 (two_q), else it counts down:
//                       N >= 2 is due at E+3 + (N-2) = E+1+N
// due_o is a register (due_q), the phase decode of zero_q / one_q / two_q
// made one edge ahead from their next values: it starts the controller's
// START / RESUME decision, whose fire signal fans out to every slot set:
// neither the decode's two LUT levels nor N = 0 as a 31-input compare of the
// operands stands in front of it (docs/FPGA_TIMING.md).
//   edge_pkg::PRE_PH_DUE              due until the next load (a RESUME waiting for the
//                       command port)
//
// Style (docs/RTL_STYLE.md): its phases are edge_pkg::pre_phase_e
// (rtl/edge/edge_enc.toml); named assertions; parameters checked.
`include "fg_assert.svh"
`include "fg_enum.svh"
module edge_preempt_timer #(
  parameter int REGS_W = 7,
  parameter int CYC_W  = 16
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              load_i,
  input  logic [CYC_W-1:0]  base_i,
  input  logic [7:0]        per_reg_i,
  input  logic [REGS_W-1:0] regs_i,
  // N = 0 for this load's operands: base_i = 0 and regs_i or per_reg_i 0.
  // The caller decodes it from its own registers, where the operands come
  // through multiplexers (the restore's: the decode beside the choice of
  // slot, not behind it); pre_timer_zero_is_n checks it.
  input  logic              zero_i,
  output logic              due_o
);
  localparam int PRW = REGS_W + 8;                            // product width
  localparam int SW  = (PRW > CYC_W ? PRW : CYC_W) + 1;       // sum width, no overflow
  `FG_IMPORT(edge_pkg)
  `FG_ASSERT_PARAM(g_chk_regs_w, REGS_W >= 1 && REGS_W <= 16, "edge_preempt_timer: REGS_W must be 1..16")
  `FG_ASSERT_PARAM(g_chk_cyc_w, CYC_W >= 1 && CYC_W <= 32, "edge_preempt_timer: CYC_W must be 1..32")

  `FG_ENUM(edge_pkg, pre_phase_e) ph_q;
  logic [CYC_W-1:0]  base_q, cnt_q;
  logic [7:0]        per_q;
  logic [REGS_W-1:0] regs_q;
  logic [PRW-1:0]    prod_q;
  logic              zero_q;  // N = 0
  logic              one_q;   // N = 1
  logic              two_q;   // cnt_q = 2
  logic              due_q;   // due_o

  // N = 1 from the operands: base + regs x per is 1 when base is 1 and the
  // product 0, or base 0 and regs = per = 1 (N = 0: zero_i).
  wire prod0 = (regs_q == '0) || (per_q == '0);
  wire one   = ((base_q == CYC_W'(1)) && prod0) ||
               ((base_q == '0) && (regs_q == REGS_W'(1)) && (per_q == 8'd1));
  wire [SW-1:0] sum = SW'(base_q) + SW'(prod_q);
  wire [CYC_W-1:0] n_sat = (sum > SW'({CYC_W{1'b1}})) ? {CYC_W{1'b1}} : sum[CYC_W-1:0];

  // the phase decode (what due_q holds, asserted below)
  function automatic logic due_of(input logic [1:0] ph, input logic z, input logic o, input logic t);
    case (ph)
      edge_pkg::PRE_PH_MUL:  due_of = z;
      edge_pkg::PRE_PH_ADD:  due_of = o;
      edge_pkg::PRE_PH_CNT:  due_of = t;
      default: due_of = 1'b1;
    endcase
  endfunction
  assign due_o = due_q;

  // operands and product: no reset (read only in the phases a load starts)
  always_ff @(posedge clk_i) begin
    if (load_i) begin
      base_q <= base_i;
      per_q  <= per_reg_i;
      regs_q <= regs_i;
      zero_q <= zero_i;
    end
    if (ph_q == edge_pkg::PRE_PH_MUL) begin
      prod_q <= PRW'(regs_q) * PRW'(per_q);
      one_q  <= one;
    end
    // two_q: cnt_q = 2, kept beside the count (the loaded N, or the count
    // after a step down from 3)
    if (ph_q == edge_pkg::PRE_PH_ADD) begin
      cnt_q <= n_sat;
      two_q <= {1'b0, n_sat} == (CYC_W + 1)'(2);
    end else if (ph_q == edge_pkg::PRE_PH_CNT && !two_q) begin
      cnt_q <= cnt_q - 1'b1;
      two_q <= {1'b0, cnt_q} == (CYC_W + 1)'(3);
    end
  end

  // due_q follows ph_q and the decodes: each branch is the decode of the
  // phase entered with the value its register takes at the same edge
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ph_q  <= edge_pkg::PRE_PH_DUE;
      due_q <= 1'b1;
    end else if (load_i) begin
      ph_q  <= edge_pkg::PRE_PH_MUL;
      due_q <= zero_i;
    end else if (due_q) begin
      ph_q  <= edge_pkg::PRE_PH_DUE;
      due_q <= 1'b1;
    end else if (ph_q == edge_pkg::PRE_PH_MUL) begin
      ph_q  <= edge_pkg::PRE_PH_ADD;
      due_q <= one;
    end else if (ph_q == edge_pkg::PRE_PH_ADD) begin
      ph_q  <= edge_pkg::PRE_PH_CNT;
      due_q <= {1'b0, n_sat} == (CYC_W + 1)'(2);
    end else begin  // counting, not due: two_q follows cnt_q's step down
      due_q <= {1'b0, cnt_q} == (CYC_W + 1)'(3);
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(pre_timer_count_above_two, ph_q != edge_pkg::PRE_PH_CNT || cnt_q >= CYC_W'(2) || CYC_W < 2)
      // the registered decodes are what they stand for
      `FG_ASSERT(pre_timer_two_is_count, ph_q != edge_pkg::PRE_PH_CNT || two_q == ({1'b0, cnt_q} == (CYC_W + 1)'(2)))
      `FG_ASSERT(pre_timer_due_is_phase, due_q == due_of(ph_q, zero_q, one_q, two_q))
      `FG_ASSERT(pre_timer_zero_is_n, ph_q != edge_pkg::PRE_PH_MUL ||
                 zero_q == ((base_q == '0) && ((regs_q == '0) || (per_q == '0))))
    end
  end
endmodule
