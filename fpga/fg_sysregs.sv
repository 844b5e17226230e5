// SYS window of the FPGA top (fpga/gen/fg_regmap_pkg.sv SYS_*): identity,
// clock, scratch, cycle counter, soft reset, LEDs.  Same bus as the block
// register wrappers: write strobe, word offset, registered read data.
module fg_sysregs
#(
  parameter int CLK_HZ = 50_000_000,
  parameter int BAUD   = 115200
) (
  input  logic                clk_i,
  input  logic                rst_ni,      // bus reset (power-on only)
  input  logic                blk_rst_ni,  // the blocks' reset (restarts the cycle counter)
  input  logic                we_i,
  input  logic [fg_regmap_pkg::WIN_BITS-1:0] addr_i,
  input  logic [31:0]         wdata_i,
  output logic [31:0]         rdata_o,
  output logic                soft_rst_o,  // high for 8 cycles after a RESET write
  output logic [5:0]          led_o
);
  logic [31:0] scratch_q, rdata_q;
  logic [63:0] cycle_q;
  logic [3:0]  rst_cnt_q;
  logic [5:0]  led_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      scratch_q <= '0;
      rst_cnt_q <= '0;
      led_q     <= '0;
    end else begin
      if (we_i && addr_i == fg_regmap_pkg::SYS_SCRATCH) scratch_q <= wdata_i;
      if (we_i && addr_i == fg_regmap_pkg::SYS_LED) led_q <= wdata_i[7:2];
      if (we_i && addr_i == fg_regmap_pkg::SYS_RESET && wdata_i[0]) rst_cnt_q <= 4'd8;
      else if (rst_cnt_q != '0) rst_cnt_q <= rst_cnt_q - 1'b1;
    end
  end
  always_ff @(posedge clk_i) begin
    if (!blk_rst_ni) cycle_q <= '0;
    else cycle_q <= cycle_q + 1'b1;
  end

  logic [31:0] rdata_d;
  always_comb begin
    unique case (addr_i)
      fg_regmap_pkg::SYS_ID:       rdata_d = fg_regmap_pkg::ID;
      fg_regmap_pkg::SYS_VERSION:  rdata_d = fg_regmap_pkg::VERSION;
      fg_regmap_pkg::SYS_MAP_HASH: rdata_d = fg_regmap_pkg::MAP_HASH;
      fg_regmap_pkg::SYS_CLK_HZ:   rdata_d = 32'(CLK_HZ);
      fg_regmap_pkg::SYS_BAUD:     rdata_d = 32'(BAUD);
      fg_regmap_pkg::SYS_NCORES:   rdata_d = 32'(fg_regmap_pkg::NCORES);
      fg_regmap_pkg::SYS_SCRATCH:  rdata_d = scratch_q;
      fg_regmap_pkg::SYS_CYCLE_LO: rdata_d = cycle_q[31:0];
      fg_regmap_pkg::SYS_CYCLE_HI: rdata_d = cycle_q[63:32];
      fg_regmap_pkg::SYS_LED:      rdata_d = {24'd0, led_q, 2'b00};
      fg_regmap_pkg::SYS_CORE_NW:  rdata_d = 32'(fg_regmap_pkg::PRE_CORE_NW);
      default:      rdata_d = '0;
    endcase
  end
  always_ff @(posedge clk_i) rdata_q <= rdata_d;

  assign rdata_o    = rdata_q;
  assign soft_rst_o = (rst_cnt_q != '0);
  assign led_o      = led_q;

  logic unused;
  assign unused = ^wdata_i[1:0];
endmodule
