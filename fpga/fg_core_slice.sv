// One SIMT core's EDGE blocks on the FPGA: its pending event warp table and
// its preemption / flush controller, each in its own register window; the
// host plays the SIMT core (docs/FPGA.md).
//
// LINK (preemption window register) = 0: every input of both blocks comes
// from the host's registers.  LINK = 1: the system's wiring (sim/simt/
// simt_edge_core.c, docs/PREEMPT.md): the controller's request is the PEWT
// head (hd_valid_o, hd_regs_o), each START command starts the PEWT head in
// the command's slot, and an event-warp exit the host gives the controller
// (ev_exit_i) also exits that slot in the PEWT.  The PEWT's own start /
// exit registers are ignored while LINK = 1.
//
// The request, and the PEWT's start and exit, go through a register each
// (one cycle later than the system's wiring; the PEWT's start and exit in
// both modes, so that no LINK select stands between the registers and the
// PEWT, and a host's start and exit keep their order): from the PEWT's head
// across the device into the controller's 64 register compares, and from the
// controller's command into the PEWT's start logic, each was the top's
// critical path (docs/FPGA.md).  The PEWT's head moves at the edge that takes
// the registered start, so that a head just started is not requested again
// while its stale copy shows, the request register holds no request in a
// START's cycle and the next.
//
// PLAYER = 1 (core 0): the trace player's ports of both blocks
// (fpga/fg_trace_player.sv); the player drives a block's ports directly,
// in front of the LINK glue.
//
// NW: the controller's warp slots (fg_regmap_pkg::PRE_CORE_NW); the window
// keeps the 64-slot layout, bits at and above NW ignored (fgs_edge_preempt).
module fg_core_slice #(
  parameter bit PLAYER = 1'b0,
  parameter int NW     = 64
) (
  // each window's own bus slice and reset copy (finegrain_ulx3s.sv); both
  // resets are released at the same edge
  input  logic                clk_i,
  input  logic                pewt_rst_ni,
  input  logic                pre_rst_ni,
  input  logic                pewt_we_i,
  input  logic                pre_we_i,
  input  logic [fg_regmap_pkg::WIN_BITS-1:0] pewt_addr_i,
  input  logic [fg_regmap_pkg::WIN_BITS-1:0] pre_addr_i,
  input  logic [31:0]         pewt_wdata_i,
  input  logic [31:0]         pre_wdata_i,
  output logic [31:0]         pewt_rdata_o,
  output logic [31:0]         pre_rdata_o,
  // the trace player (PLAYER = 1): the blocks' slices' pl_* ports
  input  logic                pl_clr_i,
  input  logic                pl_v_i,
  input  logic [fg_regmap_pkg::PLAY_PASS_W-1:0] pl_pass_i,
  input  logic                pewt_pl_on_i,
  input  logic [fg_regmap_pkg::PLAY_LW_PEWT-1:0] pewt_pl_line_i,
  output logic                pewt_pl_mm_o,
  output logic [7:0]          pewt_pl_port_o,
  input  logic                pre_pl_on_i,
  input  logic [fg_regmap_pkg::PLAY_LW_PRE-1:0]  pre_pl_line_i,
  output logic                pre_pl_mm_o,
  output logic [7:0]          pre_pl_port_o
);
  localparam logic [2:0] CMD_START = 3'd4;  // PRE_CMD_START (sim/twin/edge_preempt.h)

  logic                   link;
  logic                   hd_valid;
  logic [fg_regmap_pkg::PEWT_REGS_W-1:0] hd_regs;
  logic                   h_start_v, h_exit_v, x_start_v, x_exit_v;
  logic [fg_regmap_pkg::PEWT_SLOT_W-1:0] h_start_slot, h_exit_slot, x_start_slot, x_exit_slot;
  logic                   h_req_v, x_req_v, h_evx, x_evx;
  logic [fg_regmap_pkg::PRE_REGS_W-1:0]  h_req_regs, x_req_regs;
  logic [fg_regmap_pkg::PRE_SLOT_W-1:0]  h_evx_slot, x_evx_slot, cmd_slot;
  logic [2:0]             cmd;

  fgs_edge_pewt #(.PLAYER(PLAYER)) u_pewt (
    .clk_i, .rst_ni(pewt_rst_ni), .we_i(pewt_we_i), .addr_i(pewt_addr_i), .wdata_i(pewt_wdata_i),
    .rdata_o(pewt_rdata_o),
    .pl_on_i(pewt_pl_on_i), .pl_clr_i, .pl_v_i, .pl_line_i(pewt_pl_line_i), .pl_pass_i, .pl_mm_o(pewt_pl_mm_o),
    .pl_port_o(pewt_pl_port_o),
    .h_start_valid_i(h_start_v), .x_start_valid_i(x_start_v),
    .h_start_slot_i(h_start_slot), .x_start_slot_i(x_start_slot),
    .h_exit_valid_i(h_exit_v), .x_exit_valid_i(x_exit_v),
    .h_exit_slot_i(h_exit_slot), .x_exit_slot_i(x_exit_slot),
    .hd_valid_o(hd_valid), .hd_regs_o(hd_regs));

  fgs_edge_preempt #(.PLAYER(PLAYER), .NW(NW)) u_pre (
    .clk_i, .rst_ni(pre_rst_ni), .we_i(pre_we_i), .addr_i(pre_addr_i), .wdata_i(pre_wdata_i),
    .rdata_o(pre_rdata_o),
    .pl_on_i(pre_pl_on_i), .pl_clr_i, .pl_v_i, .pl_line_i(pre_pl_line_i), .pl_pass_i, .pl_mm_o(pre_pl_mm_o),
    .pl_port_o(pre_pl_port_o),
    .h_req_valid_i(h_req_v), .x_req_valid_i(x_req_v),
    .h_req_regs_i(h_req_regs), .x_req_regs_i(x_req_regs),
    .h_ev_exit_i(h_evx), .x_ev_exit_i(x_evx),
    .h_ev_exit_slot_i(h_evx_slot), .x_ev_exit_slot_i(x_evx_slot),
    .cmd_o(cmd), .cmd_slot_o(cmd_slot), .link_o(link));

  // every glue signal is a register output of a block or of a wrapper, and
  // the PEWT's start and exit come from the glue's own registers in both
  // modes (no LINK select between them and the PEWT: the two blocks may be
  // placed far apart)
  logic                                  lreq_v_q, st_v_q, ex_v_q;
  logic [fg_regmap_pkg::PRE_REGS_W-1:0]  lreq_regs_q;
  logic [fg_regmap_pkg::PEWT_SLOT_W-1:0] st_slot_q, ex_slot_q;
  always_ff @(posedge clk_i) begin
    if (!pre_rst_ni) begin
      lreq_v_q <= 1'b0;
    end else begin
      lreq_v_q <= link && hd_valid && cmd != CMD_START && !st_v_q;
    end
    lreq_regs_q <= fg_regmap_pkg::PRE_REGS_W'(hd_regs);
  end
  always_ff @(posedge clk_i) begin
    if (!pewt_rst_ni) begin
      st_v_q <= 1'b0;
      ex_v_q <= 1'b0;
    end else begin
      st_v_q <= link ? cmd == CMD_START : h_start_v;
      ex_v_q <= link ? h_evx : h_exit_v;
    end
    st_slot_q <= link ? fg_regmap_pkg::PEWT_SLOT_W'(cmd_slot) : h_start_slot;
    ex_slot_q <= link ? fg_regmap_pkg::PEWT_SLOT_W'(h_evx_slot) : h_exit_slot;
  end
  assign x_req_v      = link ? lreq_v_q : h_req_v;
  assign x_req_regs   = link ? lreq_regs_q : h_req_regs;
  assign x_start_v    = st_v_q;
  assign x_start_slot = st_slot_q;
  assign x_evx        = h_evx;
  assign x_evx_slot   = h_evx_slot;
  assign x_exit_v     = ex_v_q;
  assign x_exit_slot  = ex_slot_q;
endmodule
