// Doorbell decoder in the GPU front-end (EDGE Sec. III-C).
//
// Each EKT entry is tied to one memory-mapped doorbell register; a device
// launches an event kernel by writing to it.  The decoder watches the
// front-end's write stream: writes inside the doorbell aperture
// [cfg_base_i, cfg_base_i + 2^cfg_region_log2_i) ring doorbell
// id = offset >> cfg_stride_log2_i and are queued toward the EKT; every other
// write passes through untouched.  A doorbell write whose id is beyond the
// table (id >= ENTRIES) or that is not stride-aligned is an error: a pulse on
// err_*, a saturating counter, a sticky status bit, and no ring.
//
// No ring is ever lost or duplicated: wr_ready_o is low unless both queues
// have room for the write being decoded and for one more (it depends on state
// only), so the front-end holds the write.  The written data is not
// interpreted (EDGE: any write rings).
//
// Timing (a two-stage decode, for the ECP5 clock target): the accepting edge
// stores the write with its offset in the aperture (one subtractor) and the
// aperture masks of the configuration it was written under (cfg_* are
// sampled then); the next edge decodes it (mask tests, id) and pushes the
// ring or the pass-through write, or raises err_*.  A write accepted at edge
// t is on ring_* / pt_* after edge t+1 (err_valid_o high in the cycle after
// t+1): one edge more than a single-stage decoder.
//
// Style (docs/RTL_STYLE.md): error codes from edge_pkg (rtl/edge/edge_enc.toml,
// the twin's sim/twin/gen/edge_doorbell_enc.h comes from the same list);
// named assertions (rtl/include/fg_assert.svh); parameters the twin refuses
// stop elaboration.
`include "fg_assert.svh"
`include "fg_enum.svh"
module edge_doorbell #(
  parameter int ENTRIES    = 32,
  parameter int ADDR_W     = 64,
  parameter int DATA_W     = 32,
  parameter int RING_DEPTH = 16,
  parameter int PT_DEPTH   = 2,
  // derived widths, not settable
  localparam int IDW       = (ENTRIES > 1) ? $clog2(ENTRIES) : 1,  // doorbell id
  localparam int RCW       = $clog2(RING_DEPTH + 1),               // ring count 0..RING_DEPTH
  localparam int PCW       = $clog2(PT_DEPTH + 1)                  // pass-through count
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // configuration (quasi-static, set by the driver)
  input  logic [ADDR_W-1:0] cfg_base_i,
  input  logic [5:0]        cfg_region_log2_i,
  input  logic [5:0]        cfg_stride_log2_i,
  // front-end memory-mapped writes
  input  logic              wr_valid_i,
  output logic              wr_ready_o,
  input  logic [ADDR_W-1:0] wr_addr_i,
  input  logic [DATA_W-1:0] wr_data_i,
  // ordinary writes, passed through
  output logic              pt_valid_o,
  input  logic              pt_ready_i,
  output logic [ADDR_W-1:0] pt_addr_o,
  output logic [DATA_W-1:0] pt_data_o,
  // rings toward the EKT
  output logic              ring_valid_o,
  input  logic              ring_ready_i,
  output logic [IDW-1:0]    ring_id_o,
  output logic [RCW-1:0]    ring_count_o,
  // errors
  output logic              err_valid_o,
  output logic [1:0]        err_code_o,
  output logic [ADDR_W-1:0] err_addr_o,
  output logic [31:0]       cnt_rings_o,
  output logic [15:0]       cnt_err_range_o,
  output logic [15:0]       cnt_err_align_o,
  output logic [1:0]        err_status_o
);
  `FG_IMPORT(edge_pkg)
  // Parameter legality, as the C twin (sim/twin/edge_doorbell.c) refuses:
  // ports cross into C as 64-bit words at most.
  `FG_ASSERT_PARAM(g_chk_entries, ENTRIES >= 1, "edge_doorbell: ENTRIES must be >= 1")
  `FG_ASSERT_PARAM(g_chk_addr_w, ADDR_W >= 8 && ADDR_W <= 64, "edge_doorbell: ADDR_W must be 8..64")
  `FG_ASSERT_PARAM(g_chk_data_w, DATA_W >= 1 && DATA_W <= 64, "edge_doorbell: DATA_W must be 1..64")
  `FG_ASSERT_PARAM(g_chk_depths, RING_DEPTH >= 1 && PT_DEPTH >= 1,
                   "edge_doorbell: RING_DEPTH and PT_DEPTH must be >= 1")

  localparam logic [ADDR_W-1:0] ONES = '1;

  logic ring_rdy, pt_rdy;
  logic [RCW-1:0] ring_cnt;
  logic [PCW-1:0] pt_cnt;

  // ------------------------------------------------------ stage 1: accept
  // Both queues must hold the write in the decode stage and this one.
  localparam logic [RCW-1:0] RING_MAX2 = RCW'((RING_DEPTH >= 2) ? RING_DEPTH - 2 : 0);
  localparam logic [PCW-1:0] PT_MAX2   = PCW'((PT_DEPTH >= 2) ? PT_DEPTH - 2 : 0);
  logic s_v_q;
  wire  room2 = (RING_DEPTH >= 2) && (PT_DEPTH >= 2) && (ring_cnt <= RING_MAX2) && (pt_cnt <= PT_MAX2);
  assign wr_ready_o = s_v_q ? room2 : ring_rdy && pt_rdy;
  wire wr_fire = wr_valid_i && wr_ready_o && rst_ni; // nothing enters while in reset

  // Offset in the aperture with its borrow (addr < base), and the masks:
  //   rmask: offset bits at or above cfg_region_log2 (the write is in the aperture iff none is set)
  //   amask: offset bits below cfg_stride_log2 (aligned iff none is set)
  //   imask: offset bits at or above cfg_stride_log2 + IDW (id < 2^IDW iff none is set)
  wire [ADDR_W:0]   diff  = {1'b0, wr_addr_i} - {1'b0, cfg_base_i};
  wire [6:0]        ishift = 7'(cfg_stride_log2_i) + 7'(IDW);
  wire [ADDR_W-1:0] rmask = ONES << cfg_region_log2_i;
  wire [ADDR_W-1:0] amask = ~(ONES << cfg_stride_log2_i);
  wire [ADDR_W-1:0] imask = ONES << ishift;

  logic [ADDR_W-1:0] s_addr_q, s_off_q, s_rmask_q, s_amask_q, s_imask_q;
  logic [DATA_W-1:0] s_data_q;
  logic              s_below_q;
  logic [5:0]        s_stride_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) s_v_q <= 1'b0;
    else         s_v_q <= wr_fire;
  end
  // stage data: loaded every cycle, no reset (read only in the cycle after
  // a write was accepted, qualified by s_v_q; the stage always drains then)
  always_ff @(posedge clk_i) begin
    s_addr_q   <= wr_addr_i;
    s_data_q   <= wr_data_i;
    s_off_q    <= diff[ADDR_W-1:0];
    s_below_q  <= diff[ADDR_W];
    s_rmask_q  <= rmask;
    s_amask_q  <= amask;
    s_imask_q  <= imask;
    s_stride_q <= cfg_stride_log2_i;
  end

  // ------------------------------------------------------ stage 2: decode
  wire [IDW-1:0]    id        = IDW'(s_off_q >> s_stride_q);
  wire              in_region = !s_below_q && ((s_off_q & s_rmask_q) == '0);
  wire              aligned   = (s_off_q & s_amask_q) == '0;
  wire              id_range  = ((s_off_q & s_imask_q) == '0) && (32'(id) < ENTRIES);

  wire ring_push = s_v_q && in_region && id_range && aligned;
  wire pt_push   = s_v_q && !in_region;
  wire bad_range = s_v_q && in_region && !id_range;
  wire bad_align = s_v_q && in_region && id_range && !aligned;

  fg_fifo #(.WIDTH(IDW), .DEPTH(RING_DEPTH)) u_ring_q (
    .clk_i, .rst_ni, .valid_i(ring_push), .ready_o(ring_rdy), .data_i(id),
    .valid_o(ring_valid_o), .ready_i(ring_ready_i), .data_o(ring_id_o), .count_o(ring_cnt)
  );
  assign ring_count_o = ring_cnt;

  fg_fifo #(.WIDTH(ADDR_W + DATA_W), .DEPTH(PT_DEPTH)) u_pt_q (
    .clk_i, .rst_ni, .valid_i(pt_push), .ready_o(pt_rdy), .data_i({s_data_q, s_addr_q}),
    .valid_o(pt_valid_o), .ready_i(pt_ready_i), .data_o({pt_data_o, pt_addr_o}),
    .count_o(pt_cnt)
  );

  // Errors and counters: the decode's bad-range / bad-alignment
  // flags and the write's address are registered as they are (no enable), and
  // the error registers and counters take them one edge later; the ports show
  // the registers with that last edge's flags applied (state only), i.e.
  // exactly what registers updated at the decoding edge would hold, without
  // the decode driving the enables of 64 + 2 x 16 flip-flops.
  logic              brange_q, balign_q;
  logic [ADDR_W-1:0] baddr_q;
  `FG_ENUM(edge_pkg, db_err_e) err_code_q, err_code;
  logic [1:0]        status_q;
  logic [ADDR_W-1:0] err_addr_q;
  logic [31:0]       cnt_rings_q;
  logic [15:0]       cnt_range_q, cnt_align_q;
  wire               err_v     = brange_q || balign_q;
  assign err_code = err_v ? (brange_q ? edge_pkg::DB_ERR_RANGE : edge_pkg::DB_ERR_ALIGN) : err_code_q;
  wire  [ADDR_W-1:0] err_addr  = err_v ? baddr_q : err_addr_q;
  wire  [15:0]       cnt_range = (brange_q && cnt_range_q != 16'hffff) ? cnt_range_q + 16'd1 : cnt_range_q;
  wire  [15:0]       cnt_align = (balign_q && cnt_align_q != 16'hffff) ? cnt_align_q + 16'd1 : cnt_align_q;
  wire  [1:0]        status    = status_q | {balign_q, brange_q};

  always_ff @(posedge clk_i) begin
    baddr_q <= s_addr_q;  // read only with brange_q / balign_q
    if (!rst_ni) begin
      brange_q    <= 1'b0;
      balign_q    <= 1'b0;
      err_code_q  <= edge_pkg::DB_ERR_NONE;
      err_addr_q  <= '0;
      cnt_rings_q <= '0;
      cnt_range_q <= '0;
      cnt_align_q <= '0;
      status_q    <= '0;
    end else begin
      brange_q    <= bad_range;
      balign_q    <= bad_align;
      err_code_q  <= err_code;
      err_addr_q  <= err_addr;
      cnt_range_q <= cnt_range;
      cnt_align_q <= cnt_align;
      status_q    <= status;
      if (ring_push && cnt_rings_q != 32'hffffffff) cnt_rings_q <= cnt_rings_q + 32'd1;
    end
  end

  assign err_valid_o     = err_v;
  assign err_code_o      = err_code;
  assign err_addr_o      = err_addr;
  assign cnt_rings_o     = cnt_rings_q;
  assign cnt_err_range_o = cnt_range;
  assign cnt_err_align_o = cnt_align;
  assign err_status_o    = status;

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // every decoded write goes exactly one way, into a queue with room
      `FG_ASSERT(db_decode_one_way,
                 32'(ring_push) + 32'(pt_push) + 32'(bad_range) + 32'(bad_align) == 32'(s_v_q))
      `FG_ASSERT(db_ring_push_room, !ring_push || ring_rdy)
      `FG_ASSERT(db_pt_push_room, !pt_push || pt_rdy)
    end
  end

`ifdef FORMAL
  // Proofs (formal/edge_doorbell.sby, docs/FORMAL.md): no write lost or
  // duplicated.  Writes accepted - (rings and pass-through writes taken +
  // errors decoded) = writes held (in the decode stage or a queue), modulo
  // 2^8; the ring FIFO never holds an id beyond the table.
  logic [7:0] f_in_q, f_out_q;
  wire  [7:0] f_out_now = 8'(ring_valid_o && ring_ready_i) + 8'(pt_valid_o && pt_ready_i) +
                          8'(bad_range) + 8'(bad_align);
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      f_in_q  <= '0;
      f_out_q <= '0;
    end else begin
      f_in_q  <= f_in_q + 8'(wr_fire);
      f_out_q <= f_out_q + f_out_now;
    end
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(db_in_eq_out_plus_held, f_in_q - f_out_q == 8'(s_v_q) + 8'(ring_cnt) + 8'(pt_cnt))
      `FG_ASSERT(db_ring_id_in_table, !ring_push || 32'(id) < ENTRIES)
      `FG_ASSERT(db_no_ring_overflow, !ring_push || 32'(ring_cnt) < RING_DEPTH)
      `FG_ASSERT(db_no_pt_overflow, !pt_push || 32'(pt_cnt) < PT_DEPTH)
    end
  end

  // The decode's rules (EDGE III-C), restated on the write's offset in the
  // aperture and the stride it was accepted with, not on the stage's masks:
  // a ring is at or above the base and stride-aligned; cnt_rings_o counts
  // exactly the rings (saturating).
  localparam int FW = ADDR_W + 1;  // a shift by >= FW leaves no bit, as past the address it must
  wire [FW-1:0] f_off = {1'b0, s_off_q};
  logic [31:0]  f_rings_q;
  logic         f_rp_q, f_live_q;
  always_ff @(posedge clk_i) begin
    f_rings_q <= cnt_rings_q;
    f_rp_q    <= ring_push;
    f_live_q  <= rst_ni;
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      `FG_ASSERT(db_ring_not_below_base, !ring_push || !s_below_q)
      `FG_ASSERT(db_ring_aligned, !ring_push || (f_off & ((FW'(1) << s_stride_q) - FW'(1))) == '0)
      `FG_ASSERT(db_ring_id_is_offset, !ring_push || FW'(id) == (f_off >> s_stride_q))
    end
    if (rst_ni && f_live_q) begin
      `FG_ASSERT(db_rings_counted, cnt_rings_q == ((f_rp_q && f_rings_q != '1) ? f_rings_q + 32'd1 : f_rings_q))
    end
  end
`endif
endmodule
