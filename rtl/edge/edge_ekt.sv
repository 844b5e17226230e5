// Event kernel table (EKT) of EDGE's kernel management unit.
//
// EDGE Sec. III-A: stores pre-configured event kernel metadata (kernel
// pointer, dimensions, shared memory) so that a device can launch the kernel
// without the host.  Sec. III-B/C: each entry also holds the parameter
// buffer's base / head / entry size / end; a launch reads the entry, emits
// the kernel descriptor with the current head as the parameter address, and
// advances the head by the entry size, back to base past the end (one adder
// and one comparator).  Sec. IV-E: 32 entries x 66 B in a small SRAM with a
// single read/write port.  Sec. III-C: single-warp event kernels leave toward
// the SIMT core scheduler (evw_*), larger ones toward a pending event kernel
// queue (pkq_*).
//
// Beyond the paper (EDGE Table I maxNumEvents): each entry counts its events
// in flight; a ring beyond maxNumEvents is an overrun error instead of a
// launch onto a parameter entry still in use; a completion frees one.  A
// registration whose parameter buffer holds fewer than maxNumEvents entries
// is refused (RSP_BUF_SHORT), so that no two events in
// flight ever share a parameter entry.
//
// Timing: a ring accepted at edge t is processed at t+1 (SRAM read) and its
// descriptor is pushed at t+2, visible on evw_*/pkq_* after that edge.
//
// For the ECP5 clock target: a host command is registered at the edge that
// accepts it, with its checks (the INVALID compares, block x * y) made from
// the ports in that cycle, and carried out at the next edge, so a response
// takes one edge more than one carried out at the accepting edge would
// (REG: rsp_valid_o three edges
// after the accepting edge, the buffer check taking the third, S_REG;
// UNREG / READ: three); the lowest free entry and
// "full" are registers computed from the valid bits of the cycle before
// (never stale: see free_id_q); the single-warp flag of each entry is a
// flip-flop beside the SRAM, written with the entry; the SRAM's write data
// is chosen by the state, not by the launch decision; the table is two
// arrays at one address (static fields, written only by a registration from
// registers, and head / in-flight count), so the large one's write enable
// comes from a flip-flop; the buffered ring's, completion's and command's
// entry-is-valid bits are registers kept up to date with the valid bits; a
// launch's wrap decision is made one launch ahead and kept with the head
// (see wrap_next), so the head's adder feeds the table through a
// multiplexer only; the buffer check multiplies maxNumEvents itself (no
// decrement in front of the multipliers); these two are invisible at the
// ports (the twin computes the same values its own way).
//
// Style (docs/RTL_STYLE.md): operations, response and error codes and the
// FSM's states from edge_pkg (rtl/edge/edge_enc.toml, the twin's
// sim/twin/gen/edge_ekt_enc.h from the same list); named assertions
// (rtl/include/fg_assert.svh); parameters the twin refuses stop elaboration.
`include "fg_assert.svh"
`include "fg_comb.svh"
`include "fg_enum.svh"
module edge_ekt #(
  parameter int ENTRIES      = 32,
  parameter int ADDR_W       = 64,
  parameter int PSIZE_W      = 64,
  parameter int DIM_W        = 32,
  parameter int SHMEM_W      = 16,
  parameter int PRIO_W       = 2,
  parameter int MAXEV_W      = 16,
  parameter int WARP_THREADS = 32,
  parameter int OUT_DEPTH    = 2,
  localparam int IDW         = (ENTRIES > 1) ? $clog2(ENTRIES) : 1
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // host commands: register / unregister / read (EDGE Table I)
  input  logic               cmd_valid_i,
  output logic               cmd_ready_o,
  input  logic [1:0]         cmd_op_i,
  input  logic [IDW-1:0]     cmd_id_i,
  input  logic [ADDR_W-1:0]  cmd_kernel_ptr_i,
  input  logic [ADDR_W-1:0]  cmd_param_base_i,
  input  logic [PSIZE_W-1:0] cmd_param_size_i,
  input  logic [ADDR_W-1:0]  cmd_param_end_i,
  input  logic [DIM_W-1:0]   cmd_grid_x_i,
  input  logic [DIM_W-1:0]   cmd_grid_y_i,
  input  logic [DIM_W-1:0]   cmd_grid_z_i,
  input  logic [DIM_W-1:0]   cmd_block_x_i,
  input  logic [DIM_W-1:0]   cmd_block_y_i,
  input  logic [DIM_W-1:0]   cmd_block_z_i,
  input  logic [SHMEM_W-1:0] cmd_shmem_i,
  input  logic [PRIO_W-1:0]  cmd_prio_i,
  input  logic [MAXEV_W-1:0] cmd_max_events_i,
  output logic               rsp_valid_o,
  input  logic               rsp_ready_i,
  output logic [2:0]         rsp_status_o,
  output logic [IDW-1:0]     rsp_id_o,
  output logic [ADDR_W-1:0]  rsp_head_o,
  output logic [MAXEV_W-1:0] rsp_inflight_o,
  // doorbell rings from the decoder (launch requests)
  input  logic               ring_valid_i,
  output logic               ring_ready_o,
  input  logic [IDW-1:0]     ring_id_i,
  // event completions (free one in-flight event)
  input  logic               cpl_valid_i,
  output logic               cpl_ready_o,
  input  logic [IDW-1:0]     cpl_id_i,
  // single-warp event kernels -> SIMT core scheduler
  output logic               evw_valid_o,
  input  logic               evw_ready_i,
  output logic [IDW-1:0]     evw_id_o,
  output logic [ADDR_W-1:0]  evw_kernel_ptr_o,
  output logic [ADDR_W-1:0]  evw_param_addr_o,
  output logic [DIM_W-1:0]   evw_grid_x_o,
  output logic [DIM_W-1:0]   evw_grid_y_o,
  output logic [DIM_W-1:0]   evw_grid_z_o,
  output logic [DIM_W-1:0]   evw_block_x_o,
  output logic [DIM_W-1:0]   evw_block_y_o,
  output logic [DIM_W-1:0]   evw_block_z_o,
  output logic [SHMEM_W-1:0] evw_shmem_o,
  output logic [PRIO_W-1:0]  evw_prio_o,
  // larger event kernels -> pending event kernel queue
  output logic               pkq_valid_o,
  input  logic               pkq_ready_i,
  output logic [IDW-1:0]     pkq_id_o,
  output logic [ADDR_W-1:0]  pkq_kernel_ptr_o,
  output logic [ADDR_W-1:0]  pkq_param_addr_o,
  output logic [DIM_W-1:0]   pkq_grid_x_o,
  output logic [DIM_W-1:0]   pkq_grid_y_o,
  output logic [DIM_W-1:0]   pkq_grid_z_o,
  output logic [DIM_W-1:0]   pkq_block_x_o,
  output logic [DIM_W-1:0]   pkq_block_y_o,
  output logic [DIM_W-1:0]   pkq_block_z_o,
  output logic [SHMEM_W-1:0] pkq_shmem_o,
  output logic [PRIO_W-1:0]  pkq_prio_o,
  // errors: one-cycle pulse per failed ring / completion, counters, sticky status
  output logic               err_valid_o,
  output logic [2:0]         err_code_o,
  output logic [IDW-1:0]     err_id_o,
  output logic [ENTRIES-1:0] registered_o,
  output logic [31:0]        cnt_launch_o,
  output logic [15:0]        cnt_err_unreg_o,
  output logic [15:0]        cnt_err_overrun_o,
  output logic [15:0]        cnt_err_cpl_o,
  output logic [2:0]         err_status_o
`ifdef FORMAL
  ,  // for the proof's harness (formal/edge_ekt_fv.sv, docs/FORMAL.md)
  output logic [2:0]         f_state_o,     // the sequencer's state
  output logic               f_cmd_held_o,  // a host command registered, to be carried out
  output logic               f_launch_o,    // a descriptor pushed at this edge
  output logic               f_cpl_app_o,   // a completion frees an event in flight at this edge
  output logic [$clog2(OUT_DEPTH+1)-1:0] f_evw_cnt_o, f_pkq_cnt_o,  // the descriptor FIFOs' entries
  output logic [OUT_DEPTH*(IDW + 2*ADDR_W + 6*DIM_W + SHMEM_W + PRIO_W)-1:0]
                             f_evw_mem_o, f_pkq_mem_o,   // their storage (descriptor words)
  output logic [((OUT_DEPTH > 1) ? $clog2(OUT_DEPTH) : 1)-1:0] f_evw_rptr_o, f_pkq_rptr_o,
  output logic [ENTRIES*(2*ADDR_W + PSIZE_W + 3)-1:0] f_buf_o,  // per entry: base, size, limit
  output logic               f_reg_pend_o,  // S_REG of a registration that passed INVALID / FULL
  output logic [IDW-1:0]     f_op_id_o,     // the operation's entry
  output logic [IDW + 2*ADDR_W + 6*DIM_W + SHMEM_W + PRIO_W-1:0]
                             f_desc_o       // the descriptor a launch pushes (with f_launch_o)
`endif
);
  `FG_IMPORT(edge_pkg)
  // parameter legality: the twin's refusals (sim/twin/edge_ekt.c ekt_new)
  `FG_ASSERT_PARAM(g_chk_entries, ENTRIES >= 1 && ENTRIES <= 64, "edge_ekt: ENTRIES must be 1..64")
  `FG_ASSERT_PARAM(g_chk_addr_w, ADDR_W >= 2 && ADDR_W <= 64, "edge_ekt: ADDR_W must be 2..64")
  `FG_ASSERT_PARAM(g_chk_psize_w, PSIZE_W >= 1 && PSIZE_W <= 64, "edge_ekt: PSIZE_W must be 1..64")
  `FG_ASSERT_PARAM(g_chk_dim_w, DIM_W >= 1 && DIM_W <= 32, "edge_ekt: DIM_W must be 1..32")
  `FG_ASSERT_PARAM(g_chk_shmem_w, SHMEM_W >= 1 && SHMEM_W <= 32, "edge_ekt: SHMEM_W must be 1..32")
  `FG_ASSERT_PARAM(g_chk_prio_w, PRIO_W >= 1 && PRIO_W <= 8, "edge_ekt: PRIO_W must be 1..8")
  `FG_ASSERT_PARAM(g_chk_maxev_w, MAXEV_W >= 1 && MAXEV_W <= 32, "edge_ekt: MAXEV_W must be 1..32")
  `FG_ASSERT_PARAM(g_chk_warp, WARP_THREADS >= 1 && WARP_THREADS <= 1024,
                   "edge_ekt: WARP_THREADS must be 1..1024")
  `FG_ASSERT_PARAM(g_chk_warp_dim, 64'(WARP_THREADS) < (64'(1) << DIM_W),
                   "edge_ekt: WARP_THREADS must fit DIM_W bits")
  `FG_ASSERT_PARAM(g_chk_depth, OUT_DEPTH >= 1, "edge_ekt: OUT_DEPTH must be >= 1")

  // ------------------------------------------------- entry word (SRAM row)
  // One row per entry, kept as two arrays at the same address (as an SRAM
  // with a write mask would): the fields a registration writes and nothing
  // else changes (static word), and the head and in-flight count that a
  // launch / completion writes back (dynamic word).
  localparam int O_KPTR = 0;
  localparam int O_BASE = O_KPTR + ADDR_W;
  localparam int O_SIZE = O_BASE + ADDR_W;
  localparam int O_LIM  = O_SIZE + PSIZE_W;     // end - 2 x size (LW bits), not end: see wrap_next
  localparam int LW     = ADDR_W + 3;
  localparam int O_GX   = O_LIM + LW;
  localparam int O_GY   = O_GX + DIM_W;
  localparam int O_GZ   = O_GY + DIM_W;
  localparam int O_BX   = O_GZ + DIM_W;
  localparam int O_BY   = O_BX + DIM_W;
  localparam int O_BZ   = O_BY + DIM_W;
  localparam int O_SHM  = O_BZ + DIM_W;
  localparam int O_PRIO = O_SHM + SHMEM_W;
  localparam int O_MAXE = O_PRIO + PRIO_W;
  localparam int CWW    = O_MAXE + MAXEV_W;     // the command register's part of the static word
  localparam int O_BWR  = CWW;                  // base + size > end: a launch from base wraps
  localparam int SW     = O_BWR + 1;            // static word
  // dynamic word: the head with its wrap flag (head + size > end, i.e. the
  // next launch wraps), and the in-flight count, in two arrays at one
  // address (a completion writes only the count)
  localparam int HW     = ADDR_W + 1;
  // maxNumEvents against the parameter buffer: maxNumEvents x entry size in
  // 16-bit slices of the entry size, one multiplier each
  localparam int NSL    = (PSIZE_W + 15) / 16;
  localparam int PPW    = MAXEV_W + 16;         // a slice's partial product
  localparam int PW     = 16 * NSL + MAXEV_W;   // the whole product
  localparam int RW     = ((ADDR_W > PSIZE_W) ? ADDR_W : PSIZE_W) + 1;  // end - base + size
  localparam int CW     = ((PW > RW) ? PW : RW) + 1;  // end - base + size - the product, signed

  // ------------------------------------------ descriptor (output FIFO word)
  localparam int D_ID   = 0;
  localparam int D_KPTR = D_ID + IDW;
  localparam int D_PAR  = D_KPTR + ADDR_W;
  localparam int D_DIMS = D_PAR + ADDR_W;         // gx gy gz bx by bz
  localparam int D_SHM  = D_DIMS + 6 * DIM_W;
  localparam int D_PRIO = D_SHM + SHMEM_W;
  localparam int DW     = D_PRIO + PRIO_W;

  localparam int TW = $clog2(WARP_THREADS + 1);   // width of a dimension that fits a warp

  // ---------------------------------------------------------------- state
  `FG_ENUM(edge_pkg, ekt_state_e) state_q, state_d;
  logic [IDW-1:0]     op_id_q, op_id_d;
  // op_id_q one-hot, for the per-entry updates of the valid, single-warp and
  // maxNumEvents flags (op_id_q also addresses the SRAM and fills the
  // descriptors; a register keeps its decode off that fanout)
  logic [ENTRIES-1:0] op_oh_q;
  logic [ENTRIES-1:0] valid_q, valid_d;
  logic [ENTRIES-1:0] sgl_q, sgl_d;     // per entry: a single-warp event kernel
  logic               ring_v_q, ring_v_d, cpl_v_q, cpl_v_d, cmd_wait_q;
  // id_ok of the buffered ring's / completion's entry, kept up to date with
  // valid_q (no 32:1 mux in front of the SRAM request)
  logic               ring_ok_q, ring_ok_d, cpl_ok_q, cpl_ok_d;
  logic [IDW-1:0]     ring_id_q, ring_id_d, cpl_id_q, cpl_id_d;
  logic               rsp_v_q, rsp_v_d;
  `FG_ENUM(edge_pkg, ekt_rsp_e) rsp_status_q, rsp_status_d;
  logic [IDW-1:0]     rsp_id_q, rsp_id_d;
  logic [ADDR_W-1:0]  rsp_head_q, rsp_head_d;
  logic [MAXEV_W-1:0] rsp_infl_q, rsp_infl_d;
  logic               err_v_q;
  `FG_ENUM(edge_pkg, ekt_err_e) err_code_q, err_code_d;
  logic [IDW-1:0]     err_id_q, err_id_d;
  logic [31:0]        cnt_launch_q, cnt_launch_d;
  logic [15:0]        cnt_unreg_q, cnt_unreg_d, cnt_overrun_q, cnt_overrun_d, cnt_cpl_q, cnt_cpl_d;
  logic [2:0]         status_q, status_d;
  // the host command accepted at the last edge (c_v_q), with its checks
  logic               c_v_q;
  logic [1:0]         c_op_q;
  logic [IDW-1:0]     c_id_q;
  logic [CWW-1:0]     c_word_q;         // the static word a registration writes (but its wrap flag)
  logic               c_invalid_q;      // a registration's INVALID checks failed (but end < base)
  logic               c_ok_q;           // id_ok(command id) (UNREG / READ)
  logic               c_we_q;           // a REG that writes the table (the table was not full)
  logic [PPW-1:0]     c_pp_q [NSL];     // maxNumEvents x entry size, per 16-bit slice
  logic [ADDR_W:0]    c_span_q;         // end - base, its borrow (end < base) on top
  logic [RW-1:0]      c_room_q;         // end - base + size
  logic               c_pre_q;          // grid 1 x 1 x 1 and every block dimension <= WARP_THREADS
  logic [2*TW-1:0]    c_xy_q;           // block x * y
  logic [TW-1:0]      c_zmax_q;         // the largest x * y that fits a warp with block z
  // the lowest free entry and "table full", precomputed (see free_id_c)
  logic [IDW-1:0]     free_id_q;
  logic               reg_full_q;

  // ------------------------------------------------------------ the SRAM
  // Dynamic words: a single port (read, or write back a launch / completion
  // / registration) onto two arrays at one address, head + wrap flag and
  // in-flight count; a completion writes only the count.
  logic               ram_req, ram_we, ram_h_we;
  logic [IDW-1:0]     ram_addr;
  logic [HW-1:0]      ram_h_wdata, ry_h;
  logic [MAXEV_W-1:0] ram_n_wdata, ry_n;

  // no access while in reset: the twin's reset writes nothing
  fg_sram_sp #(.WIDTH(HW), .DEPTH(ENTRIES)) u_ram_h (
    .clk_i, .req_i(ram_req && rst_ni && (ram_h_we || !ram_we)), .we_i(ram_we), .addr_i(ram_addr),
    .wdata_i(ram_h_wdata), .rdata_o(ry_h)
  );
  fg_sram_sp #(.WIDTH(MAXEV_W), .DEPTH(ENTRIES)) u_ram_n (
    .clk_i, .req_i(ram_req && rst_ni), .we_i(ram_we), .addr_i(ram_addr), .wdata_i(ram_n_wdata),
    .rdata_o(ry_n)
  );

  // Static words, at the same addresses: written only by a registration,
  // from registers (the command register, the precomputed free entry), so
  // the write enable of these 32 x 483 b of LUT RAM comes from a flip-flop
  // (its routing to every cell is long).  A REG is
  // written whenever the table is not full, also when its checks fail: the
  // entry stays free (valid bit clear), and no read returns it.  Read in
  // every S_IDLE cycle at the entry the next operation would take (the
  // command's, else the arbiter's pick), so the row is in rs_q when S_LAUNCH,
  // S_CPL, S_UNREG or S_READ starts; outside S_IDLE rs_q holds.
  // The read address is a register (rs_addr_q: this address fans out to
  // every cell of the LUT RAM, so no arbiter pointer -> choice -> address
  // multiplexer may stand in front of it): it is computed one cycle
  // ahead from the next values of the registers the choice depends on (see
  // rs_addr_d below) and equals, in every cycle, the command's entry if one
  // is registered, else the entry of the arbiter's choice (asserted).
  // a launch from base wraps: base + size > end, i.e. size > end - base
  // (end >= base in a registration that passes its checks)
  wire            c_bwrap = (ADDR_W+1)'(c_word_q[O_SIZE +: PSIZE_W]) > (ADDR_W+1)'(c_span_q[ADDR_W-1:0]);
  logic [SW-1:0]  stat_q [ENTRIES];
  logic [SW-1:0]  rs_q;
  logic           arb_idx;     // 0: ring, 1: completion
  logic [IDW-1:0] rs_addr_q;

  always_ff @(posedge clk_i) begin
    if (c_we_q && rst_ni) stat_q[free_id_q] <= {c_bwrap, c_word_q};
    if (state_q == edge_pkg::EKT_S_IDLE) rs_q <= (32'(rs_addr_q) < ENTRIES) ? stat_q[rs_addr_q] : '0;
  end

  // Fields of the entry read in the previous cycle.
  wire [ADDR_W-1:0]  rd_kptr = rs_q[O_KPTR +: ADDR_W];
  wire [ADDR_W-1:0]  rd_base = rs_q[O_BASE +: ADDR_W];
  wire [PSIZE_W-1:0] rd_size = rs_q[O_SIZE +: PSIZE_W];
  wire [LW-1:0]      rd_lim2 = rs_q[O_LIM +: LW];
  wire [MAXEV_W-1:0] rd_maxe = rs_q[O_MAXE +: MAXEV_W];
  wire               rd_bwr  = rs_q[O_BWR];
  wire [ADDR_W-1:0]  rd_head = ry_h[ADDR_W-1:0];
  wire               rd_wrap = ry_h[ADDR_W];
  wire [MAXEV_W-1:0] rd_infl = ry_n;
  // The launched entry's single-warp flag: sampled in S_IDLE at the
  // buffered ring's entry, so in S_LAUNCH (entered only by taking the ring,
  // an edge at which no registration changes sgl_q) it is sgl_q[op_id_q]
  // from a flip-flop rather than through a 32:1 mux.
  logic              ring_sgl_q;
  wire               rd_sgl  = ring_sgl_q;
  // Likewise "maxNumEvents in flight" per entry (a flip-flop beside the
  // SRAM, kept with the in-flight count), sampled in S_IDLE, so the overrun
  // decision of S_LAUNCH is a register, not a compare of the SRAM's words
  // in front of the descriptor FIFOs' push.
  logic [ENTRIES-1:0] atmax_q, atmax_d;
  logic               ring_atmax_q;

  // Circular parameter buffer (Sec. III-C): one adder, one comparator, side
  // by side.  The wrap decision of a launch (head + size > end) is made one
  // launch ahead and kept with the head (rd_wrap), so the adder's result
  // only passes a multiplexer on its way to the table (no wrap compare
  // between the head's read and its write data).
  // The comparator makes the next launch's decision from the current head:
  // without a wrap the next head is head + size, and head + 2 x size > end
  // is compared as head > end - 2 x size, with end - 2 x size (in LW bits,
  // negative when 2 x size > end) computed at the registration and stored
  // in place of end; with a wrap the next head is base, whose decision
  // (base + size > end) the registration stored (rd_bwr).  The size is taken
  // in ADDR_W + 1 bits, as the twin does.
  // (without a wrap, head + size <= end fits ADDR_W bits)
  wire [ADDR_W-1:0]  head_sum  = rd_head + ADDR_W'(rd_size);
  wire [ADDR_W-1:0]  head_next = rd_wrap ? rd_base : head_sum;
  wire               wrap_next = rd_wrap ? rd_bwr : (rd_lim2[LW-1] || (rd_head > rd_lim2[ADDR_W-1:0]));

  // ------------------------------------------------ descriptor FIFOs (out)
  logic evw_push, pkq_push, evw_rdy, pkq_rdy;
  logic [DW-1:0] desc, evw_d, pkq_d;
  logic [$clog2(OUT_DEPTH+1)-1:0] unused_evw_cnt, unused_pkq_cnt;

  assign desc = {rs_q[O_PRIO +: PRIO_W], rs_q[O_SHM +: SHMEM_W], rs_q[O_GX +: 6 * DIM_W], rd_head,
                 rd_kptr, op_id_q};

  fg_fifo #(.WIDTH(DW), .DEPTH(OUT_DEPTH)) u_evw_q (
    .clk_i, .rst_ni, .valid_i(evw_push), .ready_o(evw_rdy), .data_i(desc),
    .valid_o(evw_valid_o), .ready_i(evw_ready_i), .data_o(evw_d), .count_o(unused_evw_cnt)
`ifdef FORMAL
    , .f_mem_o(f_evw_mem_o), .f_rptr_o(f_evw_rptr_o)
`endif
  );
  fg_fifo #(.WIDTH(DW), .DEPTH(OUT_DEPTH)) u_pkq_q (
    .clk_i, .rst_ni, .valid_i(pkq_push), .ready_o(pkq_rdy), .data_i(desc),
    .valid_o(pkq_valid_o), .ready_i(pkq_ready_i), .data_o(pkq_d), .count_o(unused_pkq_cnt)
`ifdef FORMAL
    , .f_mem_o(f_pkq_mem_o), .f_rptr_o(f_pkq_rptr_o)
`endif
  );

  assign {evw_prio_o, evw_shmem_o, evw_block_z_o, evw_block_y_o, evw_block_x_o, evw_grid_z_o,
          evw_grid_y_o, evw_grid_x_o, evw_param_addr_o, evw_kernel_ptr_o, evw_id_o} = evw_d;
  assign {pkq_prio_o, pkq_shmem_o, pkq_block_z_o, pkq_block_y_o, pkq_block_x_o, pkq_grid_z_o,
          pkq_grid_y_o, pkq_grid_x_o, pkq_param_addr_o, pkq_kernel_ptr_o, pkq_id_o} = pkq_d;

  // ------------------------------------------------ arbitration in S_IDLE
  // Host commands are taken when nothing else waits, or after they have
  // waited once (cmd_wait_q), so rings cannot starve the host.  A command is
  // registered at the accepting edge (c_*_q) and carried out at the next
  // (cmd_do), in S_IDLE.  Rings and completions are buffered one deep and
  // served round-robin.
  assign cmd_ready_o  = (state_q == edge_pkg::EKT_S_IDLE) && !c_v_q && !rsp_v_q &&
                        (cmd_wait_q || (!ring_v_q && !cpl_v_q));
  assign ring_ready_o = !ring_v_q;
  assign cpl_ready_o  = !cpl_v_q;

  wire cmd_fire = cmd_valid_i && cmd_ready_o && rst_ni;
  wire cmd_do   = c_v_q;   // (c_v_q implies S_IDLE)
  logic       arb_valid, arb_ack;
  logic [1:0] unused_arb_gnt;
  // The arbiter's pointer after this edge (N = 2: 1 = the completion comes
  // first when both wait), so that its next choice, and the static rows'
  // read address, are known one cycle ahead.
  logic       arb_cpl_first_d;
  assign arb_ack = (state_q == edge_pkg::EKT_S_IDLE) && !cmd_fire && !cmd_do;
  fg_rr_arb #(.N(2)) u_arb (
    .clk_i, .rst_ni, .req_i({cpl_v_q, ring_v_q}), .ack_i(arb_ack),
    .valid_o(arb_valid), .gnt_o(unused_arb_gnt), .idx_o(arb_idx), .ptr_d_o(arb_cpl_first_d)
  );
  wire take_ring = arb_ack && arb_valid && !arb_idx;
  wire take_cpl  = arb_ack && arb_valid && arb_idx;

  // --------------------------------------------------- register checks
  function automatic logic id_ok(input logic [IDW-1:0] id, input logic [ENTRIES-1:0] v);
    id_ok = (32'(id) < ENTRIES) && v[id];
  endfunction

  wire reg_invalid = (cmd_kernel_ptr_i == '0) || (cmd_kernel_ptr_i[1:0] != 2'b00) ||
                     (cmd_param_size_i == '0) ||
                     (cmd_max_events_i == '0) ||
                     (cmd_grid_x_i == '0) || (cmd_grid_y_i == '0) || (cmd_grid_z_i == '0) ||
                     (cmd_block_x_i == '0) || (cmd_block_y_i == '0) || (cmd_block_z_i == '0);

  // Lowest free entry (the doorbell id a registration returns) and "table
  // full", precomputed into registers from the valid bits of the cycle
  // before: a registration never reads a stale value, because valid_q only
  // changes at a REG or at S_UNREG, and both raise rsp_v_q, which holds
  // cmd_ready_o low for at least the next cycle (asserted below).  The
  // priority encoder thus ends in its own register instead of feeding the
  // dynamic-index valid update and the SRAM address in the same cycle.
  logic [IDW-1:0] free_id_c;
  always_comb begin
    free_id_c = '0;
    for (int i = ENTRIES - 1; i >= 0; i--) if (!valid_q[i]) free_id_c = IDW'(i);
  end
  wire [IDW-1:0] free_id  = free_id_q;
  wire           reg_full = reg_full_q;

  // A warp-level event kernel: one block of at most WARP_THREADS threads:
  // grid 1 x 1 x 1, every block dimension <= WARP_THREADS, block x * y and
  // floor(WARP_THREADS / z) (a table) from the ports at the accepting edge;
  // x * y <= floor(WARP_THREADS / z), i.e. x * y * z <= WARP_THREADS, when the
  // registration is carried out (into sg_q), written into sgl_q of the new
  // entry in S_REG (before any launch of it: it becomes valid there).
  wire dims_small = (cmd_block_x_i <= DIM_W'(WARP_THREADS)) && (cmd_block_y_i <= DIM_W'(WARP_THREADS)) &&
                    (cmd_block_z_i <= DIM_W'(WARP_THREADS));
  wire grid_one   = (cmd_grid_x_i == DIM_W'(1)) && (cmd_grid_y_i == DIM_W'(1)) &&
                    (cmd_grid_z_i == DIM_W'(1));
  logic [TW-1:0] zmax;
  always_comb begin
    zmax = '0;
    for (int z = 1; z <= WARP_THREADS; z++) if (cmd_block_z_i == DIM_W'(z)) zmax = TW'(WARP_THREADS / z);
  end
  wire sg_new = c_pre_q && (c_xy_q <= (2*TW)'(c_zmax_q));
  logic sg_q;

  // end - 2 x size, the size taken in ADDR_W + 1 bits as by head_sum
  wire [LW-1:0] reg_lim = LW'(cmd_param_end_i) - LW'({(ADDR_W+1)'(cmd_param_size_i), 1'b0});
  wire [CWW-1:0] reg_word = {cmd_max_events_i, cmd_prio_i, cmd_shmem_i,
                            cmd_block_z_i, cmd_block_y_i, cmd_block_x_i, cmd_grid_z_i,
                            cmd_grid_y_i, cmd_grid_x_i, reg_lim, cmd_param_size_i,
                            cmd_param_base_i, cmd_kernel_ptr_i};

  // The parameter buffer holds (end - base) / size + 1 entries (end is the
  // last entry's address, as the head's wrap compare has it); a registration
  // whose maxNumEvents exceeds them would let launches in flight share a
  // parameter entry, so it is refused (RSP_BUF_SHORT):
  // (maxNumEvents - 1) x size > end - base, compared as maxNumEvents x size
  // > end - base + size (no decrement in front of the
  // multipliers; equal for maxNumEvents >= 1, and 0 is INVALID).  The
  // partial products of the 16-bit slices of size are registered at the
  // accepting edge (one multiplier each), with end - base + size (a
  // three-operand sum), and their sum is compared with it when the command
  // is carried out.  The even slices' products do not overlap, nor do the odd
  // ones', when MAXEV_W <= 16 (then they are concatenated, and one adder
  // remains).
  wire [MAXEV_W-1:0] reg_m = cmd_max_events_i;
  logic [PW-1:0] pp_even, pp_odd;
  `FG_COMB_READBACK begin
    pp_even = '0;
    pp_odd  = '0;
    for (int k = 0; k < NSL; k++) begin
      if (MAXEV_W <= 16) begin
        if (k % 2 == 0) pp_even = pp_even | (PW'(c_pp_q[k]) << (16 * k));
        else            pp_odd  = pp_odd  | (PW'(c_pp_q[k]) << (16 * k));
      end else begin
        pp_even = pp_even + (PW'(c_pp_q[k]) << (16 * k));
      end
    end
  end
  // the product > end - base + size: the sign of one three-operand sum (a
  // carry-save layer and one carry chain, no adder in front of a comparator)
  wire [CW-1:0]  c_diff   = CW'(c_room_q) - CW'(pp_even) - CW'(pp_odd);
  wire           c_short  = c_diff[CW-1];
  logic          c_short_q;   // c_short of the REG carried out, for S_REG

  wire           c_reg     = cmd_do && (c_op_q == edge_pkg::EKT_OP_REG);
  // S_REG finishes a registration one edge after it was carried out (the
  // buffer check has its own cycle): its response (status, id, head) was
  // loaded then, with rsp_valid_o low, and is made BUF_SHORT if the check
  // failed; otherwise the entry becomes valid.
  wire           s_reg_ok  = (state_q == edge_pkg::EKT_S_REG) && (rsp_status_q == edge_pkg::EKT_RSP_OK) && !c_short_q;
  wire [ADDR_W-1:0] c_base = c_word_q[O_BASE +: ADDR_W];
  // the INVALID checks: the registered ones and end < base, the borrow of
  // end - base (so the compare's carry chain does not feed the OR of the
  // zero checks in the accepting cycle)
  wire           c_invalid = c_invalid_q || c_span_q[ADDR_W];

  // ----------------------------------------------------- S_LAUNCH / S_CPL
  wire launch_overrun = (state_q == edge_pkg::EKT_S_LAUNCH) && ring_atmax_q;
  wire launch_rdy     = rd_sgl ? evw_rdy : pkq_rdy;
  wire launch_go      = (state_q == edge_pkg::EKT_S_LAUNCH) && !launch_overrun && launch_rdy;
  assign evw_push = launch_go && rd_sgl && rst_ni;
  assign pkq_push = launch_go && !rd_sgl && rst_ni;
  wire cpl_spurious = (state_q == edge_pkg::EKT_S_CPL) && (rd_infl == '0);

  // The dynamic words' port.  The write data depends on the state only: in
  // S_IDLE the only write is a registration (head = base, nothing in flight;
  // like the static word, written whenever the table is not full), in
  // S_LAUNCH / S_CPL the head and in-flight count updated; the decisions
  // gate the request.  Address and read enable come from registers (so
  // neither the arbiter's choice -> the address multiplexer -> the LUT RAM
  // read, nor the taking of a ring -> the read enable of the 65-bit read
  // register, is a path): S_IDLE reads in every cycle without a
  // registration's write, at the registered read address (the command's
  // entry, else the arbiter's pick: the ring or completion taken now, if
  // one is), and the read word is used only in the state such a take
  // enters, right after it; out of S_IDLE the operation's entry is written.
  assign ram_addr = (state_q != edge_pkg::EKT_S_IDLE) ? op_id_q : (c_we_q ? free_id : rs_addr_q);
  always_comb begin
    ram_h_we    = state_q != edge_pkg::EKT_S_CPL;
    ram_h_wdata = {wrap_next, head_next};
    ram_n_wdata = rd_infl + 1'b1;
    ram_req     = launch_go || (state_q == edge_pkg::EKT_S_CPL && !cpl_spurious);
    ram_we      = 1'b1;
    if (state_q == edge_pkg::EKT_S_IDLE) begin
      ram_h_wdata = {c_bwrap, c_base};
      ram_n_wdata = '0;
      ram_req     = c_we_q || (32'(rs_addr_q) < ENTRIES);
      ram_we      = c_we_q;
    end else if (state_q == edge_pkg::EKT_S_CPL) begin
      ram_n_wdata = rd_infl - 1'b1;
    end
  end

  function automatic logic [15:0] sat16(input logic [15:0] c);
    sat16 = (c == 16'hffff) ? c : c + 16'd1;
  endfunction

  // At most one error per cycle (one operation at a time): a ring or a
  // completion naming an unregistered entry, a launch beyond maxNumEvents,
  // a completion with nothing in flight.
  // Each a single expression, not a default cleared later in an
  // always_comb: the default-then-clear made ev_err pulse in zero time in
  // every evaluation, which re-ran the sequencing block that reads it and,
  // through it, this one again, without end in an event-driven simulator
  // (Icarus hung as soon as ring_valid_i rose; docs/RTL_STYLE.md).
  wire ev_ring = take_ring && !ring_ok_q;
  wire ev_cpl  = take_cpl && !cpl_ok_q;
  wire ev_err  = ev_ring || ev_cpl || launch_overrun || cpl_spurious;
  `FG_ENUM(edge_pkg, ekt_err_e) ev_code;
  logic [IDW-1:0] ev_id;
  assign ev_code = ev_ring ? edge_pkg::EKT_ERR_UNREGISTERED :
                   ev_cpl  ? edge_pkg::EKT_ERR_CPL_UNREGISTERED :
                   cpl_spurious && !launch_overrun ? edge_pkg::EKT_ERR_SPURIOUS_CPL :
                   edge_pkg::EKT_ERR_OVERRUN;
  assign ev_id   = ev_ring ? ring_id_q : (ev_cpl ? cpl_id_q : op_id_q);

  // ---------------------------------------------------------- sequencing
  always_comb begin
    state_d      = state_q;
    op_id_d      = op_id_q;
    valid_d      = valid_q;
    sgl_d        = sgl_q;
    ring_v_d     = ring_v_q;
    ring_id_d    = ring_id_q;
    cpl_v_d      = cpl_v_q;
    cpl_id_d     = cpl_id_q;
    rsp_v_d      = rsp_v_q && !rsp_ready_i;
    rsp_status_d = rsp_status_q;
    rsp_id_d     = rsp_id_q;
    rsp_head_d   = rsp_head_q;
    rsp_infl_d   = rsp_infl_q;
    err_code_d   = err_code_q;
    err_id_d     = err_id_q;
    cnt_launch_d = cnt_launch_q;
    cnt_unreg_d  = cnt_unreg_q;
    cnt_overrun_d = cnt_overrun_q;
    cnt_cpl_d    = cnt_cpl_q;
    status_d     = status_q;

    // errors: code and id, a saturating counter and a sticky bit per kind
    if (ev_err) begin
      err_code_d = ev_code;
      err_id_d   = ev_id;
      case (ev_code)
        edge_pkg::EKT_ERR_UNREGISTERED: begin cnt_unreg_d = sat16(cnt_unreg_q); status_d[0] = 1'b1; end
        edge_pkg::EKT_ERR_OVERRUN:      begin cnt_overrun_d = sat16(cnt_overrun_q); status_d[1] = 1'b1; end
        default:          begin cnt_cpl_d = sat16(cnt_cpl_q); status_d[2] = 1'b1; end
      endcase
    end
    if (ring_valid_i && ring_ready_o) begin
      ring_v_d  = 1'b1;
      ring_id_d = ring_id_i;
    end
    if (cpl_valid_i && cpl_ready_o) begin
      cpl_v_d  = 1'b1;
      cpl_id_d = cpl_id_i;
    end
    if (s_reg_ok) sgl_d = (sgl_q & ~op_oh_q) | (sg_q ? op_oh_q : '0);   // the entry becoming valid
    // in flight == maxNumEvents: none at a registration (maxNumEvents >= 1),
    // after a launch if the count reaches it, none after a completion
    atmax_d = atmax_q;
    if (s_reg_ok || (state_q == edge_pkg::EKT_S_CPL && !cpl_spurious)) atmax_d = atmax_q & ~op_oh_q;
    if (launch_go) atmax_d = (atmax_q & ~op_oh_q) | ((rd_infl + 1'b1 == rd_maxe) ? op_oh_q : '0);

    case (state_q)
      edge_pkg::EKT_S_IDLE: begin
        if (cmd_do) begin
          op_id_d = c_id_q;
          if (c_op_q == edge_pkg::EKT_OP_REG) begin
            state_d      = edge_pkg::EKT_S_REG;
            op_id_d      = free_id;
            rsp_id_d     = c_invalid || reg_full ? '0 : free_id;
            rsp_head_d   = c_invalid || reg_full ? '0 : c_base;
            rsp_infl_d   = '0;
            if (c_invalid)     rsp_status_d = edge_pkg::EKT_RSP_INVALID;
            else if (reg_full) rsp_status_d = edge_pkg::EKT_RSP_FULL;
            else               rsp_status_d = edge_pkg::EKT_RSP_OK;
          end else if (c_ok_q && c_op_q != 2'd3) begin
            if (c_op_q == edge_pkg::EKT_OP_UNREG) state_d = edge_pkg::EKT_S_UNREG;
            else                                  state_d = edge_pkg::EKT_S_READ;
          end else begin
            rsp_v_d      = 1'b1;
            if (c_op_q == 2'd3) rsp_status_d = edge_pkg::EKT_RSP_INVALID;   // no such operation
            else                rsp_status_d = edge_pkg::EKT_RSP_NOT_REGISTERED;
            rsp_id_d     = c_id_q;
            rsp_head_d   = '0;
            rsp_infl_d   = '0;
          end
        end else if (take_ring) begin
          ring_v_d = 1'b0;
          op_id_d  = ring_id_q;
          if (ring_ok_q) state_d = edge_pkg::EKT_S_LAUNCH;
        end else if (take_cpl) begin
          cpl_v_d = 1'b0;
          op_id_d = cpl_id_q;
          if (cpl_ok_q) state_d = edge_pkg::EKT_S_CPL;
        end
      end
      edge_pkg::EKT_S_LAUNCH: begin
        if (launch_overrun) begin
          state_d = edge_pkg::EKT_S_IDLE;
        end else if (launch_go) begin
          state_d      = edge_pkg::EKT_S_IDLE;
          cnt_launch_d = (cnt_launch_q == 32'hffffffff) ? cnt_launch_q : cnt_launch_q + 32'd1;
        end
      end
      edge_pkg::EKT_S_CPL: state_d = edge_pkg::EKT_S_IDLE;
      edge_pkg::EKT_S_UNREG: begin
        state_d      = edge_pkg::EKT_S_IDLE;
        rsp_v_d      = 1'b1;
        rsp_id_d     = op_id_q;
        rsp_head_d   = rd_head;
        rsp_infl_d   = rd_infl;
        if (rd_infl != '0) rsp_status_d = edge_pkg::EKT_RSP_BUSY;
        else               rsp_status_d = edge_pkg::EKT_RSP_OK;
        if (rd_infl == '0) valid_d = valid_q & ~op_oh_q;
      end
      edge_pkg::EKT_S_READ: begin
        state_d      = edge_pkg::EKT_S_IDLE;
        rsp_v_d      = 1'b1;
        rsp_id_d     = op_id_q;
        rsp_head_d   = rd_head;
        rsp_infl_d   = rd_infl;
        rsp_status_d = edge_pkg::EKT_RSP_OK;
      end
      edge_pkg::EKT_S_REG: begin
        state_d = edge_pkg::EKT_S_IDLE;
        rsp_v_d = 1'b1;
        if (s_reg_ok) valid_d = valid_q | op_oh_q;
        else if (rsp_status_q == edge_pkg::EKT_RSP_OK) begin   // the buffer check failed
          rsp_status_d = edge_pkg::EKT_RSP_BUF_SHORT;
          rsp_id_d     = '0;
          rsp_head_d   = '0;
        end
      end
      default: state_d = edge_pkg::EKT_S_IDLE;
    endcase
  end

  // The static rows' read address after this edge: the command's entry if
  // one is accepted now (c_v_q, c_id_q after the edge), else the entry of
  // the arbiter's choice from the requests and the pointer after the edge.
  wire           arb_cpl_d = cpl_v_d && (arb_cpl_first_d || !ring_v_d);
  wire [IDW-1:0] rs_addr_d = cmd_fire ? cmd_id_i : (arb_cpl_d ? cpl_id_d : ring_id_d);

  // id_ok of the entry buffered after this edge, from the valid bits after
  // it: those now, with the registration's entry set (s_reg_ok, at op_id_q)
  // and the unregistered entry cleared (S_UNREG with nothing in flight).
  wire v_clr = (state_q == edge_pkg::EKT_S_UNREG) && (rd_infl == '0);
  always_comb begin
    ring_ok_d = (32'(ring_id_d) < ENTRIES) &&
                ((valid_q[ring_id_d] && !(v_clr && ring_id_d == op_id_q)) ||
                 (s_reg_ok && ring_id_d == op_id_q));
    cpl_ok_d  = (32'(cpl_id_d) < ENTRIES) &&
                ((valid_q[cpl_id_d] && !(v_clr && cpl_id_d == op_id_q)) ||
                 (s_reg_ok && cpl_id_d == op_id_q));
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q       <= edge_pkg::EKT_S_IDLE;
      op_id_q       <= '0;
      op_oh_q       <= ENTRIES'(1);
      valid_q       <= '0;
      ring_v_q      <= 1'b0;
      ring_id_q     <= '0;
      ring_ok_q     <= 1'b0;
      cpl_v_q       <= 1'b0;
      cpl_id_q      <= '0;
      cpl_ok_q      <= 1'b0;
      cmd_wait_q    <= 1'b0;
      rsp_v_q       <= 1'b0;
      rsp_status_q  <= edge_pkg::EKT_RSP_OK;
      rsp_id_q      <= '0;
      rsp_head_q    <= '0;
      rsp_infl_q    <= '0;
      err_v_q       <= 1'b0;
      err_code_q    <= edge_pkg::EKT_ERR_NONE;
      err_id_q      <= '0;
      cnt_launch_q  <= '0;
      cnt_unreg_q   <= '0;
      cnt_overrun_q <= '0;
      cnt_cpl_q     <= '0;
      status_q      <= '0;
      free_id_q     <= '0;
      reg_full_q    <= 1'b0;
      c_v_q         <= 1'b0;
      rs_addr_q     <= '0;
    end else begin
      state_q       <= state_d;
      op_id_q       <= op_id_d;
      op_oh_q       <= ENTRIES'(1) << op_id_d;   // zero for an id beyond the table
      valid_q       <= valid_d;
      ring_v_q      <= ring_v_d;
      ring_id_q     <= ring_id_d;
      ring_ok_q     <= ring_ok_d;
      cpl_v_q       <= cpl_v_d;
      cpl_id_q      <= cpl_id_d;
      cpl_ok_q      <= cpl_ok_d;
      cmd_wait_q    <= cmd_valid_i && !cmd_ready_o;
      rsp_v_q       <= rsp_v_d;
      rsp_status_q  <= rsp_status_d;
      rsp_id_q      <= rsp_id_d;
      rsp_head_q    <= rsp_head_d;
      rsp_infl_q    <= rsp_infl_d;
      err_v_q       <= ev_err;
      err_code_q    <= err_code_d;
      err_id_q      <= err_id_d;
      cnt_launch_q  <= cnt_launch_d;
      cnt_unreg_q   <= cnt_unreg_d;
      cnt_overrun_q <= cnt_overrun_d;
      cnt_cpl_q     <= cnt_cpl_d;
      status_q      <= status_d;
      free_id_q     <= free_id_c;
      reg_full_q    <= &valid_q;
      c_v_q         <= cmd_fire;
      rs_addr_q     <= rs_addr_d;
    end
  end

  // single-warp flags (no reset: a flag is written by its entry's
  // registration before any launch reads it) and the command register
  // (loaded every cycle, read only in the cycle after it was accepted)
  always_ff @(posedge clk_i) begin
    sgl_q       <= sgl_d;
    sg_q        <= sg_new;
    if (state_q == edge_pkg::EKT_S_IDLE) ring_sgl_q <= sgl_q[ring_id_q];  // held while S_LAUNCH waits
    atmax_q     <= atmax_d;
    if (state_q == edge_pkg::EKT_S_IDLE) ring_atmax_q <= (32'(ring_id_q) < ENTRIES) && atmax_q[ring_id_q];
    c_op_q      <= cmd_op_i;
    c_id_q      <= cmd_id_i;
    c_word_q    <= reg_word;
    c_invalid_q <= reg_invalid;
    // the valid bits cannot change at the accepting edge (no command is
    // carried out there, and the FSM is in S_IDLE), so these hold at the next
    c_ok_q      <= id_ok(cmd_id_i, valid_q);
    c_we_q      <= cmd_fire && (cmd_op_i == edge_pkg::EKT_OP_REG) && !(&valid_q);
    for (int k = 0; k < NSL; k++)
      c_pp_q[k] <= PPW'(reg_m) * PPW'(16'(cmd_param_size_i >> (16 * k)));
    c_span_q    <= {1'b0, cmd_param_end_i} - {1'b0, cmd_param_base_i};
    c_room_q    <= RW'(cmd_param_end_i) + RW'(cmd_param_size_i) - RW'(cmd_param_base_i);
    c_short_q   <= c_short;
    c_pre_q     <= grid_one && dims_small;
    c_xy_q      <= (2*TW)'(cmd_block_x_i[TW-1:0]) * (2*TW)'(cmd_block_y_i[TW-1:0]);
    c_zmax_q    <= zmax;
  end

  assign rsp_valid_o       = rsp_v_q;
  assign rsp_status_o      = rsp_status_q;
  assign rsp_id_o          = rsp_id_q;
  assign rsp_head_o        = rsp_head_q;
  assign rsp_inflight_o    = rsp_infl_q;
  assign err_valid_o       = err_v_q;
  assign err_code_o        = err_code_q;
  assign err_id_o          = err_id_q;
  assign registered_o      = valid_q;
  assign cnt_launch_o      = cnt_launch_q;
  assign cnt_err_unreg_o   = cnt_unreg_q;
  assign cnt_err_overrun_o = cnt_overrun_q;
  assign cnt_err_cpl_o     = cnt_cpl_q;
  assign err_status_o      = status_q;

  // ----------------------------------------------------------- invariants
  wire [LW-1:0] rd_end  = rd_lim2 + LW'({(ADDR_W+1)'(rd_size), 1'b0});   // end, for the checks
  wire          op_busy = state_q == edge_pkg::EKT_S_LAUNCH || state_q == edge_pkg::EKT_S_CPL;
  // every operation's access to the dynamic words is made, at its entry
  wire ram_rd = ram_req && !ram_we, ram_wr = ram_req && ram_we;
  wire ram_access_ok =
    (!(take_ring && ring_ok_q) || (ram_rd && ram_addr == ring_id_q)) &&
    (!(take_cpl && cpl_ok_q) || (ram_rd && ram_addr == cpl_id_q)) &&
    (!(cmd_do && (c_op_q == edge_pkg::EKT_OP_UNREG || c_op_q == edge_pkg::EKT_OP_READ) && c_ok_q) ||
     (ram_rd && ram_addr == c_id_q)) &&
    (!c_we_q || (ram_wr && ram_addr == free_id)) &&
    (!launch_go || (ram_wr && ram_addr == op_id_q)) &&
    (!(state_q == edge_pkg::EKT_S_CPL && !cpl_spurious) || (ram_wr && ram_addr == op_id_q));
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(ekt_state_legal, state_q <= edge_pkg::EKT_S_REG)
      `FG_ASSERT(ekt_reg_rsp_held, state_q != edge_pkg::EKT_S_REG || !rsp_v_q)
      // an entry being launched or completed is registered and consistent
      `FG_ASSERT(ekt_op_entry_valid, !op_busy || (32'(op_id_q) < ENTRIES && valid_q[op_id_q]))
      `FG_ASSERT(ekt_op_onehot, !op_busy || op_oh_q == ENTRIES'(1) << op_id_q)
      `FG_ASSERT(ekt_launch_flags, state_q != edge_pkg::EKT_S_LAUNCH ||
                 (rd_sgl == sgl_q[op_id_q] && ring_atmax_q == (rd_infl >= rd_maxe)))
      // the circular parameter buffer's head within [base, end] (EDGE III-C)
      `FG_ASSERT(ekt_head_in_buffer, !op_busy || (rd_head >= rd_base && LW'(rd_head) <= rd_end))
      // the wrap flag kept with the head is the head's wrap decision
      `FG_ASSERT(ekt_wrap_flag, !op_busy ||
                 rd_wrap == (LW'(rd_head) + LW'((ADDR_W+1)'(rd_size)) > rd_end))
      `FG_ASSERT(ekt_inflight_bounded, !op_busy || rd_infl <= rd_maxe)
      `FG_ASSERT(ekt_next_head_in_buffer, !launch_go || (head_next >= rd_base && LW'(head_next) <= rd_end))
      `FG_ASSERT(ekt_one_push, !(evw_push && pkq_push))
      `FG_ASSERT(ekt_rsp_not_overwritten, !(rsp_v_q && cmd_do))
      `FG_ASSERT(ekt_cmd_in_idle, !cmd_do || state_q == edge_pkg::EKT_S_IDLE)
      // the precomputed free entry and full flag are those of the valid bits now
      `FG_ASSERT(ekt_free_id_current, !c_reg || (free_id_q == free_id_c && reg_full_q == (&valid_q)))
      `FG_ASSERT(ekt_cmd_checks_current, !cmd_do ||
                 (c_ok_q == id_ok(c_id_q, valid_q) && c_we_q == (c_reg && !reg_full)))
      `FG_ASSERT(ekt_no_stray_write, cmd_do || !c_we_q)
      `FG_ASSERT(ekt_ok_flags_current, ring_ok_q == id_ok(ring_id_q, valid_q) &&
                 cpl_ok_q == id_ok(cpl_id_q, valid_q))
      // the registered read address is the entry the next operation takes
      `FG_ASSERT(ekt_read_addr, rs_addr_q == (c_v_q ? c_id_q : (arb_idx ? cpl_id_q : ring_id_q)))
      // the dynamic words' accesses: each operation's, at its entry
      `FG_ASSERT(ekt_ram_access, ram_access_ok)
    end
  end

`ifdef FORMAL
  assign f_state_o    = state_q;
  assign f_cmd_held_o = c_v_q;
  assign f_launch_o   = evw_push || pkq_push;
  assign f_desc_o     = desc;
  assign f_cpl_app_o  = state_q == edge_pkg::EKT_S_CPL && !cpl_spurious;
  assign f_evw_cnt_o  = unused_evw_cnt;
  assign f_pkq_cnt_o  = unused_pkq_cnt;
  for (genvar e = 0; e < ENTRIES; e++) begin : g_fbuf
    assign f_buf_o[e*(ADDR_W+PSIZE_W+LW) +: ADDR_W+PSIZE_W+LW] = stat_q[e][O_BASE +: ADDR_W+PSIZE_W+LW];
  end

  // Induction strengthening for the unbounded proof (docs/FORMAL.md): what
  // the table, its read registers and the command register hold.  The
  // dynamic words are shadowed here (f_hd_q, f_in_q: written as the two
  // arrays are), since the SRAMs' arrays are not visible.
  logic               f_past_q = 1'b0;
  logic [HW-1:0]      f_hd_q [ENTRIES];
  logic [MAXEV_W-1:0] f_in_q [ENTRIES];
  always_ff @(posedge clk_i) begin
    f_past_q <= 1'b1;
    if (ram_req && rst_ni && ram_we && ram_h_we && 32'(ram_addr) < ENTRIES) f_hd_q[ram_addr] <= ram_h_wdata;
    if (ram_req && rst_ni && ram_we && 32'(ram_addr) < ENTRIES) f_in_q[ram_addr] <= ram_n_wdata;
  end
  // a static word a registration that passed its checks wrote: entry size
  // and maxNumEvents not 0, end (limit + 2 x size) an ADDR_W-bit address
  // >= base, the wrap flag of a launch from base
  function automatic logic f_stat_ok(input logic [SW-1:0] w);
    logic [LW-1:0] e, b, z;
    e = w[O_LIM +: LW] + LW'({(ADDR_W+1)'(w[O_SIZE +: PSIZE_W]), 1'b0});
    b = LW'(w[O_BASE +: ADDR_W]);
    z = LW'(w[O_SIZE +: PSIZE_W]);
    f_stat_ok = z != '0 && w[O_MAXE +: MAXEV_W] != '0 && (e >> ADDR_W) == '0 && b <= e &&
                w[O_BWR] == (b + z > e);
  endfunction
  // and its dynamic words: the head in [base, end] with its wrap flag, the
  // events in flight <= maxNumEvents, the "at maxNumEvents" flag
  function automatic logic f_dyn_ok(input logic [SW-1:0] w, input logic [HW-1:0] h,
                                    input logic [MAXEV_W-1:0] n, input logic am);
    logic [LW-1:0] e, b, z, hd;
    e  = w[O_LIM +: LW] + LW'({(ADDR_W+1)'(w[O_SIZE +: PSIZE_W]), 1'b0});
    b  = LW'(w[O_BASE +: ADDR_W]);
    z  = LW'(w[O_SIZE +: PSIZE_W]);
    hd = LW'(h[ADDR_W-1:0]);
    f_dyn_ok = hd >= b && hd <= e && h[ADDR_W] == (hd + z > e) && n <= w[O_MAXE +: MAXEV_W] &&
               am == (n == w[O_MAXE +: MAXEV_W]);
  endfunction
  // every registered entry's words
  logic [ENTRIES-1:0] f_ent_ok;
  always_comb
    for (int e = 0; e < ENTRIES; e++)
      f_ent_ok[e] = !valid_q[e] ||
                    (f_stat_ok(stat_q[e]) && f_dyn_ok(stat_q[e], f_hd_q[e], f_in_q[e], atmax_q[e]));
  // the command register: loaded from the ports at every edge, so its
  // fields agree with each other from the first edge on
  wire [LW-1:0] f_c_end = c_word_q[O_LIM +: LW] + LW'({(ADDR_W+1)'(c_word_q[O_SIZE +: PSIZE_W]), 1'b0});
  wire          f_c_reg_v = (state_q == edge_pkg::EKT_S_REG) && (rsp_status_q == edge_pkg::EKT_RSP_OK);
  assign f_reg_pend_o = f_c_reg_v;
  assign f_op_id_o    = op_id_q;
  wire          f_rd_st = state_q == edge_pkg::EKT_S_LAUNCH || state_q == edge_pkg::EKT_S_CPL ||
                          state_q == edge_pkg::EKT_S_UNREG || state_q == edge_pkg::EKT_S_READ;
  always_ff @(posedge clk_i) begin
    if (f_past_q) begin
      `FG_ASSERT(ekt_f_cmd_word, c_span_q == {1'b0, f_c_end[ADDR_W-1:0]} - {1'b0, c_base} &&
                 (f_c_end >> ADDR_W) == '0 &&
                 (c_invalid_q || (c_word_q[O_SIZE +: PSIZE_W] != '0 && c_word_q[O_MAXE +: MAXEV_W] != '0)))
    end
    if (rst_ni) begin
      `FG_ASSERT(ekt_f_entries_ok, &f_ent_ok)
      // a registration that passed the INVALID and FULL checks: its entry
      // written, free, head = base, nothing in flight
      `FG_ASSERT(ekt_f_reg_entry, !f_c_reg_v ||
                 (32'(op_id_q) < ENTRIES && !valid_q[op_id_q] && op_oh_q == ENTRIES'(1) << op_id_q &&
                  f_stat_ok(stat_q[op_id_q]) &&
                  f_hd_q[op_id_q] == {stat_q[op_id_q][O_BWR], stat_q[op_id_q][O_BASE +: ADDR_W]} &&
                  f_in_q[op_id_q] == '0))
      // the words read for the operation under way are its entry's
      `FG_ASSERT(ekt_f_read_words, !f_rd_st ||
                 (32'(op_id_q) < ENTRIES && rs_q == stat_q[op_id_q] && ry_h == f_hd_q[op_id_q] &&
                  ry_n == f_in_q[op_id_q]))
      `FG_ASSERT(ekt_f_launch_atmax, state_q != edge_pkg::EKT_S_LAUNCH || ring_atmax_q == atmax_q[op_id_q])
    end
  end

  // The sequencer returns to S_IDLE (liveness, docs/FORMAL.md): every other state is
  // left at the next edge, but S_LAUNCH, which waits only while the
  // descriptor's FIFO is full (an overrun leaves at once).
  `FG_ENUM(edge_pkg, ekt_state_e) f_state_q;
  logic f_go_q;
  always_ff @(posedge clk_i) begin
    f_state_q <= state_q;
    f_go_q    <= launch_rdy || launch_overrun;
    if (rst_ni) begin
      `FG_ASSERT(ekt_fsm_returns_to_idle, f_state_q == edge_pkg::EKT_S_IDLE ||
                 state_q == edge_pkg::EKT_S_IDLE ||
                 (f_state_q == edge_pkg::EKT_S_LAUNCH && state_q == edge_pkg::EKT_S_LAUNCH && !f_go_q))
    end
  end
`endif
endmodule
