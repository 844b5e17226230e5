// One lane of the RTL SIMT core's lane pipeline: the value an ALU, link,
// LUI/AUIPC or CSR instruction writes, the four partial products of a MUL*
// and the thread's next PC (RV32IM, as sim/simt/rv32_exec.c computes them).
// Combinational.  The 33 x 33 signed product a MUL* needs is split in four
// 17 x 17 signed products (one DSP block each on the ECP5) that the core's
// W stage adds (simt_core mul_sum), so that E holds no adder behind the
// multipliers.
module simt_alu (
  input  logic [4:0]  alu_i,   // simt_pkg::simt_alu_e
  input  logic [31:0] a_i,     // rs1
  input  logic [31:0] b_i,     // rs2 or the immediate
  input  logic [31:0] rs2_i,   // rs2 (branch compare)
  input  logic [31:0] imm_i,
  input  logic [31:0] pc_i,
  input  logic [31:0] csr_i,   // the thread's value of the instruction's CSR
  input  logic        br_i,
  input  logic [2:0]  br_f3_i,
  input  logic        jal_i,
  input  logic        jalr_i,
  input  logic        ecall_i,
  output logic [31:0] res_o,   // 0 for MUL*
  output logic [131:0] pp_o,   // {(a_hi * b_hi)[31:0], a_hi * b_lo, a_lo * b_hi, a_lo * b_lo}, the operands split at bit 16
  output logic [31:0] npc_o
);
  localparam logic [31:0] EXIT_ADDR = 32'hFFFF_FFF0;  // FG_EXIT_ADDR: the thread ends

  // MULH* : both operands extended to 33 bits by their signedness
  wire         a_sx = (alu_i == simt_pkg::SIMT_ALU_MULH) || (alu_i == simt_pkg::SIMT_ALU_MULHSU);
  wire         b_sx = (alu_i == simt_pkg::SIMT_ALU_MULH);
  // a = a_hi * 2^16 + a_lo with a_hi the signed 17 bits above bit 16 (bit 32
  // the sign extension by the signedness), a_lo the 16 below, unsigned
  wire [16:0]  a_hi = {a_sx & a_i[31], a_i[31:16]}, b_hi = {b_sx & b_i[31], b_i[31:16]};
  wire [16:0]  a_lo = {1'b0, a_i[15:0]}, b_lo = {1'b0, b_i[15:0]};
  logic [31:0] hh;
  logic [33:0] hl, lh;
  logic [31:0] ll;
  always_comb begin
    hh = 32'($signed(a_hi) * $signed(b_hi));   // its bits above 31 fall beyond the 64-bit product
    hl = $signed(a_hi) * $signed(b_lo);
    lh = $signed(a_lo) * $signed(b_hi);
    ll = a_i[15:0] * b_i[15:0];
  end
  assign pp_o = {hh, hl, lh, ll};

  logic taken;
  always_comb begin
    case (br_f3_i)
      3'd0:    taken = a_i == rs2_i;
      3'd1:    taken = a_i != rs2_i;
      3'd4:    taken = $signed(a_i) < $signed(rs2_i);
      3'd5:    taken = $signed(a_i) >= $signed(rs2_i);
      3'd6:    taken = a_i < rs2_i;
      default: taken = a_i >= rs2_i;
    endcase
  end

  always_comb begin
    case (alu_i)
      simt_pkg::SIMT_ALU_ADD:    res_o = a_i + b_i;
      simt_pkg::SIMT_ALU_SUB:    res_o = a_i - b_i;
      simt_pkg::SIMT_ALU_SLL:    res_o = a_i << b_i[4:0];
      simt_pkg::SIMT_ALU_SLT:    res_o = {31'd0, $signed(a_i) < $signed(b_i)};
      simt_pkg::SIMT_ALU_SLTU:   res_o = {31'd0, a_i < b_i};
      simt_pkg::SIMT_ALU_XOR:    res_o = a_i ^ b_i;
      simt_pkg::SIMT_ALU_SRL:    res_o = a_i >> b_i[4:0];
      simt_pkg::SIMT_ALU_SRA:    res_o = 32'($signed(a_i) >>> b_i[4:0]);
      simt_pkg::SIMT_ALU_OR:     res_o = a_i | b_i;
      simt_pkg::SIMT_ALU_AND:    res_o = a_i & b_i;
      simt_pkg::SIMT_ALU_LUI:    res_o = imm_i;
      simt_pkg::SIMT_ALU_AUIPC:  res_o = pc_i + imm_i;
      simt_pkg::SIMT_ALU_LINK:   res_o = pc_i + 32'd4;
      simt_pkg::SIMT_ALU_CSR:    res_o = csr_i;
      default:                   res_o = '0;
    endcase
    if (ecall_i)                 npc_o = EXIT_ADDR;
    else if (jal_i)              npc_o = pc_i + imm_i;
    else if (jalr_i)             npc_o = (a_i + imm_i) & ~32'd1;
    else if (br_i && taken)      npc_o = pc_i + imm_i;
    else                         npc_o = pc_i + 32'd4;
  end
endmodule
