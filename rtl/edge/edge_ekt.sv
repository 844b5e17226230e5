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
// launch onto a parameter entry still in use; a completion frees one.
//
// Timing: a ring accepted at edge t is processed at t+1 (SRAM read) and its
// descriptor is pushed at t+2, visible on evw_*/pkq_* after that edge.
//
// For 100 MHz on the ECP5 (issue 11): a host command is registered at the
// edge that accepts it, with its checks (the INVALID compares, block x * y)
// made from the ports in that cycle, and carried out at the next edge, so a
// response comes one cycle later than before (REG: rsp_valid_o two cycles
// after the accepting edge; UNREG / READ: three); the lowest free entry and
// "full" are registers computed from the valid bits of the cycle before
// (never stale: see free_id_q); the single-warp flag of each entry is a
// flip-flop beside the SRAM, written with the entry; the SRAM's write data
// is chosen by the state, not by the launch decision.
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
);
  // ------------------------------------------------------------ encodings
  localparam logic [1:0] OP_REG = 2'd0, OP_UNREG = 2'd1, OP_READ = 2'd2;
  localparam logic [2:0] RSP_OK = 3'd0, RSP_FULL = 3'd1, RSP_INVALID = 3'd2,
                         RSP_NOT_REGISTERED = 3'd3, RSP_BUSY = 3'd4;
  localparam logic [2:0] ERR_UNREGISTERED = 3'd1, ERR_OVERRUN = 3'd2,
                         ERR_SPURIOUS_CPL = 3'd3, ERR_CPL_UNREGISTERED = 3'd4;
  localparam logic [2:0] S_IDLE = 3'd0, S_LAUNCH = 3'd1, S_CPL = 3'd2, S_UNREG = 3'd3,
                         S_READ = 3'd4;

  // ------------------------------------------------- entry word (SRAM row)
  localparam int O_KPTR = 0;
  localparam int O_BASE = O_KPTR + ADDR_W;
  localparam int O_HEAD = O_BASE + ADDR_W;
  localparam int O_SIZE = O_HEAD + ADDR_W;
  localparam int O_END  = O_SIZE + PSIZE_W;
  localparam int O_GX   = O_END + ADDR_W;
  localparam int O_GY   = O_GX + DIM_W;
  localparam int O_GZ   = O_GY + DIM_W;
  localparam int O_BX   = O_GZ + DIM_W;
  localparam int O_BY   = O_BX + DIM_W;
  localparam int O_BZ   = O_BY + DIM_W;
  localparam int O_SHM  = O_BZ + DIM_W;
  localparam int O_PRIO = O_SHM + SHMEM_W;
  localparam int O_MAXE = O_PRIO + PRIO_W;
  localparam int O_INFL = O_MAXE + MAXEV_W;
  localparam int EW     = O_INFL + MAXEV_W;

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
  logic [2:0]         state_q, state_d;
  logic [IDW-1:0]     op_id_q, op_id_d;
  logic [ENTRIES-1:0] valid_q, valid_d;
  logic [ENTRIES-1:0] sgl_q, sgl_d;     // per entry: a single-warp event kernel
  logic               ring_v_q, ring_v_d, cpl_v_q, cpl_v_d, cmd_wait_q;
  logic [IDW-1:0]     ring_id_q, ring_id_d, cpl_id_q, cpl_id_d;
  logic               rsp_v_q, rsp_v_d;
  logic [2:0]         rsp_status_q, rsp_status_d;
  logic [IDW-1:0]     rsp_id_q, rsp_id_d;
  logic [ADDR_W-1:0]  rsp_head_q, rsp_head_d;
  logic [MAXEV_W-1:0] rsp_infl_q, rsp_infl_d;
  logic               err_v_q;
  logic [2:0]         err_code_q, err_code_d;
  logic [IDW-1:0]     err_id_q, err_id_d;
  logic [31:0]        cnt_launch_q, cnt_launch_d;
  logic [15:0]        cnt_unreg_q, cnt_unreg_d, cnt_overrun_q, cnt_overrun_d, cnt_cpl_q, cnt_cpl_d;
  logic [2:0]         status_q, status_d;
  // the host command accepted at the last edge (c_v_q), with its checks
  logic               c_v_q;
  logic [1:0]         c_op_q;
  logic [IDW-1:0]     c_id_q;
  logic [EW-1:0]      c_word_q;         // the entry a registration writes
  logic               c_invalid_q;      // a registration's INVALID checks failed
  logic               c_pre_q;          // grid 1 x 1 x 1 and every block dimension <= WARP_THREADS
  logic [2*TW-1:0]    c_xy_q;           // block x * y
  logic [TW-1:0]      c_zmax_q;         // the largest x * y that fits a warp with block z

  // ------------------------------------------------------- the one SRAM
  logic          ram_req, ram_we;
  logic [IDW-1:0] ram_addr;
  logic [EW-1:0] ram_wdata, rd;

  fg_sram_sp #(.WIDTH(EW), .DEPTH(ENTRIES)) u_ram (
    // no access while in reset: the twin's reset writes nothing
    .clk_i, .req_i(ram_req && rst_ni), .we_i(ram_we), .addr_i(ram_addr), .wdata_i(ram_wdata), .rdata_o(rd)
  );

  // Fields of the entry read in the previous cycle.
  wire [ADDR_W-1:0]  rd_kptr = rd[O_KPTR +: ADDR_W];
  wire [ADDR_W-1:0]  rd_base = rd[O_BASE +: ADDR_W];
  wire [ADDR_W-1:0]  rd_head = rd[O_HEAD +: ADDR_W];
  wire [PSIZE_W-1:0] rd_size = rd[O_SIZE +: PSIZE_W];
  wire [ADDR_W-1:0]  rd_end  = rd[O_END +: ADDR_W];
  wire [MAXEV_W-1:0] rd_maxe = rd[O_MAXE +: MAXEV_W];
  wire [MAXEV_W-1:0] rd_infl = rd[O_INFL +: MAXEV_W];
  // The launched entry's single-warp flag: sampled in S_IDLE at the
  // buffered ring's entry, so in S_LAUNCH (entered only by taking the ring,
  // an edge at which no registration changes sgl_q) it is sgl_q[op_id_q]
  // from a flip-flop rather than through a 32:1 mux (issue 11).
  logic              ring_sgl_q;
  wire               rd_sgl  = ring_sgl_q;

  // Circular parameter buffer (Sec. III-C): one adder, one comparator.
  wire [ADDR_W:0]    head_sum  = {1'b0, rd_head} + (ADDR_W+1)'(rd_size);
  wire               head_wrap = head_sum > {1'b0, rd_end};
  wire [ADDR_W-1:0]  head_next = head_wrap ? rd_base : head_sum[ADDR_W-1:0];

  // ------------------------------------------------ descriptor FIFOs (out)
  logic evw_push, pkq_push, evw_rdy, pkq_rdy;
  logic [DW-1:0] desc, evw_d, pkq_d;
  logic [$clog2(OUT_DEPTH+1)-1:0] unused_evw_cnt, unused_pkq_cnt;

  assign desc = {rd[O_PRIO +: PRIO_W], rd[O_SHM +: SHMEM_W], rd[O_GX +: 6 * DIM_W], rd_head,
                 rd_kptr, op_id_q};

  fg_fifo #(.WIDTH(DW), .DEPTH(OUT_DEPTH)) u_evw_q (
    .clk_i, .rst_ni, .valid_i(evw_push), .ready_o(evw_rdy), .data_i(desc),
    .valid_o(evw_valid_o), .ready_i(evw_ready_i), .data_o(evw_d), .count_o(unused_evw_cnt)
  );
  fg_fifo #(.WIDTH(DW), .DEPTH(OUT_DEPTH)) u_pkq_q (
    .clk_i, .rst_ni, .valid_i(pkq_push), .ready_o(pkq_rdy), .data_i(desc),
    .valid_o(pkq_valid_o), .ready_i(pkq_ready_i), .data_o(pkq_d), .count_o(unused_pkq_cnt)
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
  assign cmd_ready_o  = (state_q == S_IDLE) && !c_v_q && !rsp_v_q &&
                        (cmd_wait_q || (!ring_v_q && !cpl_v_q));
  assign ring_ready_o = !ring_v_q;
  assign cpl_ready_o  = !cpl_v_q;

  wire cmd_fire = cmd_valid_i && cmd_ready_o && rst_ni;
  wire cmd_do   = c_v_q;   // (c_v_q implies S_IDLE)
  logic       arb_valid, arb_ack;
  logic [1:0] unused_arb_gnt;
  logic       arb_idx;   // 0: ring, 1: completion
  assign arb_ack = (state_q == S_IDLE) && !cmd_fire && !cmd_do;
  fg_rr_arb #(.N(2)) u_arb (
    .clk_i, .rst_ni, .req_i({cpl_v_q, ring_v_q}), .ack_i(arb_ack),
    .valid_o(arb_valid), .gnt_o(unused_arb_gnt), .idx_o(arb_idx)
  );
  wire take_ring = arb_ack && arb_valid && !arb_idx;
  wire take_cpl  = arb_ack && arb_valid && arb_idx;

  // --------------------------------------------------- register checks
  function automatic logic id_ok(input logic [IDW-1:0] id, input logic [ENTRIES-1:0] v);
    id_ok = (32'(id) < ENTRIES) && v[id];
  endfunction

  wire reg_invalid = (cmd_kernel_ptr_i == '0) || (cmd_kernel_ptr_i[1:0] != 2'b00) ||
                     (cmd_param_size_i == '0) || (cmd_param_end_i < cmd_param_base_i) ||
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
  logic [IDW-1:0] free_id_c, free_id_q;
  logic           reg_full_q;
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
  // registration is carried out (into sgl_q of the new entry).
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

  wire [EW-1:0] reg_word = {MAXEV_W'(0), cmd_max_events_i, cmd_prio_i, cmd_shmem_i,
                            cmd_block_z_i, cmd_block_y_i, cmd_block_x_i, cmd_grid_z_i,
                            cmd_grid_y_i, cmd_grid_x_i, cmd_param_end_i, cmd_param_size_i,
                            cmd_param_base_i, cmd_param_base_i, cmd_kernel_ptr_i};
  wire           c_reg     = cmd_do && (c_op_q == OP_REG);
  wire           c_reg_ok  = c_reg && !c_invalid_q && !reg_full;
  wire [ADDR_W-1:0] c_base = c_word_q[O_BASE +: ADDR_W];

  // ----------------------------------------------------- S_LAUNCH / S_CPL
  wire launch_overrun = (state_q == S_LAUNCH) && (rd_infl >= rd_maxe);
  wire launch_rdy     = rd_sgl ? evw_rdy : pkq_rdy;
  wire launch_go      = (state_q == S_LAUNCH) && !launch_overrun && launch_rdy;
  assign evw_push = launch_go && rd_sgl && rst_ni;
  assign pkq_push = launch_go && !rd_sgl && rst_ni;
  wire cpl_spurious = (state_q == S_CPL) && (rd_infl == '0);

  // The SRAM port.  The write data depends on the state only: in S_IDLE
  // the only write is a registration, in S_LAUNCH / S_CPL the entry read with
  // its head and in-flight count updated; the decisions gate the request.
  always_comb begin
    ram_req   = 1'b0;
    ram_we    = 1'b0;
    ram_addr  = op_id_q;
    ram_wdata = rd;
    ram_wdata[O_HEAD +: ADDR_W]  = head_next;
    ram_wdata[O_INFL +: MAXEV_W] = rd_infl + 1'b1;
    if (state_q == S_IDLE) ram_wdata = c_word_q;
    else if (state_q == S_CPL) begin
      ram_wdata[O_HEAD +: ADDR_W]  = rd_head;
      ram_wdata[O_INFL +: MAXEV_W] = rd_infl - 1'b1;
    end
    if (cmd_do) begin
      ram_addr = c_id_q;
      if (c_op_q == OP_REG) begin
        ram_req   = !c_invalid_q && !reg_full;
        ram_we    = 1'b1;
        ram_addr  = free_id;
      end else begin
        ram_req = id_ok(c_id_q, valid_q) && (c_op_q == OP_UNREG || c_op_q == OP_READ);
      end
    end else if (take_ring) begin
      ram_req  = id_ok(ring_id_q, valid_q);
      ram_addr = ring_id_q;
    end else if (take_cpl) begin
      ram_req  = id_ok(cpl_id_q, valid_q);
      ram_addr = cpl_id_q;
    end else if (launch_go) begin
      ram_req = 1'b1;
      ram_we  = 1'b1;
    end else if (state_q == S_CPL && !cpl_spurious) begin
      ram_req = 1'b1;
      ram_we  = 1'b1;
    end
  end

  function automatic logic [15:0] sat16(input logic [15:0] c);
    sat16 = (c == 16'hffff) ? c : c + 16'd1;
  endfunction

  // At most one error per cycle (one operation at a time): a ring or a
  // completion naming an unregistered entry, a launch beyond maxNumEvents,
  // a completion with nothing in flight.
  logic           ev_err;
  logic [2:0]     ev_code;
  logic [IDW-1:0] ev_id;
  always_comb begin
    ev_err  = 1'b1;
    ev_code = ERR_OVERRUN;
    ev_id   = op_id_q;
    if (take_ring && !id_ok(ring_id_q, valid_q)) begin
      ev_code = ERR_UNREGISTERED;
      ev_id   = ring_id_q;
    end else if (take_cpl && !id_ok(cpl_id_q, valid_q)) begin
      ev_code = ERR_CPL_UNREGISTERED;
      ev_id   = cpl_id_q;
    end else if (launch_overrun) begin
      ev_code = ERR_OVERRUN;
    end else if (cpl_spurious) begin
      ev_code = ERR_SPURIOUS_CPL;
    end else begin
      ev_err = 1'b0;
    end
  end

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
        ERR_UNREGISTERED: begin cnt_unreg_d = sat16(cnt_unreg_q); status_d[0] = 1'b1; end
        ERR_OVERRUN:      begin cnt_overrun_d = sat16(cnt_overrun_q); status_d[1] = 1'b1; end
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
    if (c_reg_ok) sgl_d[free_id] = sg_new;

    case (state_q)
      S_IDLE: begin
        if (cmd_do) begin
          op_id_d = c_id_q;
          if (c_op_q == OP_REG) begin
            rsp_v_d      = 1'b1;
            rsp_id_d     = c_invalid_q || reg_full ? '0 : free_id;
            rsp_head_d   = c_invalid_q || reg_full ? '0 : c_base;
            rsp_infl_d   = '0;
            rsp_status_d = c_invalid_q ? RSP_INVALID : (reg_full ? RSP_FULL : RSP_OK);
            if (!c_invalid_q && !reg_full) valid_d[free_id] = 1'b1;
          end else if (id_ok(c_id_q, valid_q) && c_op_q != 2'd3) begin
            state_d = (c_op_q == OP_UNREG) ? S_UNREG : S_READ;
          end else begin
            rsp_v_d      = 1'b1;
            rsp_status_d = (c_op_q == 2'd3) ? RSP_INVALID : RSP_NOT_REGISTERED;
            rsp_id_d     = c_id_q;
            rsp_head_d   = '0;
            rsp_infl_d   = '0;
          end
        end else if (take_ring) begin
          ring_v_d = 1'b0;
          op_id_d  = ring_id_q;
          if (id_ok(ring_id_q, valid_q)) state_d = S_LAUNCH;
        end else if (take_cpl) begin
          cpl_v_d = 1'b0;
          op_id_d = cpl_id_q;
          if (id_ok(cpl_id_q, valid_q)) state_d = S_CPL;
        end
      end
      S_LAUNCH: begin
        if (launch_overrun) begin
          state_d = S_IDLE;
        end else if (launch_go) begin
          state_d      = S_IDLE;
          cnt_launch_d = (cnt_launch_q == 32'hffffffff) ? cnt_launch_q : cnt_launch_q + 32'd1;
        end
      end
      S_CPL: state_d = S_IDLE;
      S_UNREG: begin
        state_d      = S_IDLE;
        rsp_v_d      = 1'b1;
        rsp_id_d     = op_id_q;
        rsp_head_d   = rd_head;
        rsp_infl_d   = rd_infl;
        rsp_status_d = (rd_infl != '0) ? RSP_BUSY : RSP_OK;
        if (rd_infl == '0) valid_d[op_id_q] = 1'b0;
      end
      S_READ: begin
        state_d      = S_IDLE;
        rsp_v_d      = 1'b1;
        rsp_id_d     = op_id_q;
        rsp_head_d   = rd_head;
        rsp_infl_d   = rd_infl;
        rsp_status_d = RSP_OK;
      end
      default: state_d = S_IDLE;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q       <= S_IDLE;
      op_id_q       <= '0;
      valid_q       <= '0;
      ring_v_q      <= 1'b0;
      ring_id_q     <= '0;
      cpl_v_q       <= 1'b0;
      cpl_id_q      <= '0;
      cmd_wait_q    <= 1'b0;
      rsp_v_q       <= 1'b0;
      rsp_status_q  <= RSP_OK;
      rsp_id_q      <= '0;
      rsp_head_q    <= '0;
      rsp_infl_q    <= '0;
      err_v_q       <= 1'b0;
      err_code_q    <= '0;
      err_id_q      <= '0;
      cnt_launch_q  <= '0;
      cnt_unreg_q   <= '0;
      cnt_overrun_q <= '0;
      cnt_cpl_q     <= '0;
      status_q      <= '0;
      free_id_q     <= '0;
      reg_full_q    <= 1'b0;
      c_v_q         <= 1'b0;
    end else begin
      state_q       <= state_d;
      op_id_q       <= op_id_d;
      valid_q       <= valid_d;
      ring_v_q      <= ring_v_d;
      ring_id_q     <= ring_id_d;
      cpl_v_q       <= cpl_v_d;
      cpl_id_q      <= cpl_id_d;
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
    end
  end

  // single-warp flags (no reset: a flag is written by its entry's
  // registration before any launch reads it) and the command register
  // (loaded every cycle, read only in the cycle after it was accepted)
  always_ff @(posedge clk_i) begin
    sgl_q       <= sgl_d;
    if (state_q == S_IDLE) ring_sgl_q <= sgl_q[ring_id_q];  // held while S_LAUNCH waits
    c_op_q      <= cmd_op_i;
    c_id_q      <= cmd_id_i;
    c_word_q    <= reg_word;
    c_invalid_q <= reg_invalid;
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
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (state_q <= S_READ);
      // an entry being launched or completed is registered and consistent
      if (state_q == S_LAUNCH || state_q == S_CPL) begin
        assert (valid_q[op_id_q]);
        if (state_q == S_LAUNCH) assert (rd_sgl == sgl_q[op_id_q]);
        assert (rd_head >= rd_base && rd_head <= rd_end);  // head within [base, end]
        assert (rd_infl <= rd_maxe);                        // in-flight within bounds

      end
      if (launch_go) assert (head_next >= rd_base && head_next <= rd_end);
      assert (!(evw_push && pkq_push));
      assert (!(rsp_v_q && cmd_do));                        // a response is never overwritten
      if (cmd_do) assert (state_q == S_IDLE);
      // the precomputed free entry and full flag are those of the valid bits now
      if (c_reg) assert (free_id_q == free_id_c && reg_full_q == (&valid_q));
    end
  end
endmodule
