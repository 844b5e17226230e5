// Formal harness of edge_doorbell (docs/FORMAL.md): any configuration and
// any write stream and ready pattern, reset in the first cycle and free
// afterwards.  Port-level properties here; the conservation of writes
// (accepted = rings + pass-through + errors + held) and "every id pushed
// into the ring FIFO is < ENTRIES" are the RTL's `ifdef FORMAL block (that
// the FIFO hands out exactly what was pushed, in order, is fg_fifo's proof;
// an id check at ring_id_o itself does not close by induction, since the
// FIFO's storage is invisible here).
module edge_doorbell_fv #(
  parameter int ENTRIES    = 3,
  parameter int ADDR_W     = 10,
  parameter int DATA_W     = 2,
  parameter int RING_DEPTH = 3,
  parameter int PT_DEPTH   = 2
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic [ADDR_W-1:0] cfg_base_i,
  input logic [5:0]        cfg_region_log2_i,
  input logic [5:0]        cfg_stride_log2_i,
  input logic              wr_valid_i,
  input logic [ADDR_W-1:0] wr_addr_i,
  input logic [DATA_W-1:0] wr_data_i,
  input logic              pt_ready_i,
  input logic              ring_ready_i
);
  localparam int IDW = (ENTRIES > 1) ? $clog2(ENTRIES) : 1;
  logic              wr_ready_o, pt_valid_o, ring_valid_o, err_valid_o;
  logic [ADDR_W-1:0] pt_addr_o, err_addr_o;
  logic [DATA_W-1:0] pt_data_o;
  logic [IDW-1:0]    ring_id_o;
  logic [$clog2(RING_DEPTH+1)-1:0] ring_count_o;
  logic [1:0]        err_code_o, err_status_o;
  logic [31:0]       cnt_rings_o;
  logic [15:0]       cnt_err_range_o, cnt_err_align_o;
  edge_doorbell #(.ENTRIES(ENTRIES), .ADDR_W(ADDR_W), .DATA_W(DATA_W), .RING_DEPTH(RING_DEPTH),
                  .PT_DEPTH(PT_DEPTH)) dut (.*);

  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb if (f_init_q) assume (!rst_ni);

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      ring_count_in_bounds: assert (32'(ring_count_o) <= RING_DEPTH);
      ring_valid_iff_held: assert (ring_valid_o == (ring_count_o != '0));
      err_code_legal: assert (!err_valid_o || err_code_o == 2'd1 || err_code_o == 2'd2);
    end
  end
endmodule
