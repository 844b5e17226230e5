// CM stall monitor: sampling counters of ONE memory partition (CM Sec. 4.1,
// Fig. 11 items 3 and 4; Sec. 5 Hardware Overhead: two 10-bit counters).
//
// stall_mc_i : this cycle a request from the request network was stalled
//              because the memory controller queue is full (stallMC).
// stall_net_i: this cycle a reply was stalled because the reply network is
//              full (stallnet).
// The registers count the cycles 0..INTERVAL-2 of an interval, so they need
// only $clog2(INTERVAL) bits (10 for 1024); the count of the whole interval
// (registers + the last cycle's bit, 0..INTERVAL) is handed to the central
// unit combinationally at end_i, and the registers restart at zero.
// The increment saturates; an assertion proves it is never needed (no silent
// wrap, no silent saturation).
module cm_partition_counters #(
  parameter int INTERVAL = 1024,
  localparam int CW = $clog2(INTERVAL)
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        stall_mc_i,
  input  logic        stall_net_i,
  input  logic        end_i,      // last cycle of the interval (from the central unit)
  output logic [CW:0] mc_o,       // stallMC cycles of the interval, this cycle included
  output logic [CW:0] net_o       // stallnet cycles of the interval, this cycle included
);
  localparam logic [CW-1:0] MAX = '1;

  logic [CW-1:0] mc_q, net_q;

  assign mc_o  = {1'b0, mc_q}  + {{CW{1'b0}}, stall_mc_i};
  assign net_o = {1'b0, net_q} + {{CW{1'b0}}, stall_net_i};

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      mc_q  <= '0;
      net_q <= '0;
    end else if (end_i) begin
      mc_q  <= '0;
      net_q <= '0;
    end else begin
      if (stall_mc_i  && mc_q  != MAX) mc_q  <= mc_q + 1'b1;
      if (stall_net_i && net_q != MAX) net_q <= net_q + 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (end_i || !(stall_mc_i && mc_q == MAX));
      assert (end_i || !(stall_net_i && net_q == MAX));
    end
  end
endmodule
