// One lane of the RTL SIMT core's lane pipeline: the value an ALU, MUL, link,
// LUI/AUIPC or CSR instruction writes and the thread's next PC (RV32IM, as
// sim/simt/rv32_exec.c computes them).  Combinational; the multiplier is one
// 33 x 33 signed product (the DSP blocks on the ECP5).
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
  output logic [31:0] res_o,
  output logic [31:0] npc_o
);
  localparam logic [31:0] EXIT_ADDR = 32'hFFFF_FFF0;  // FG_EXIT_ADDR: the thread ends

  // MULH* : both operands extended to 33 bits by their signedness
  wire         a_sx = (alu_i == simt_pkg::SIMT_ALU_MULH) || (alu_i == simt_pkg::SIMT_ALU_MULHSU);
  wire         b_sx = (alu_i == simt_pkg::SIMT_ALU_MULH);
  logic [63:0] prod;   // the low 64 bits of the 66-bit signed product
  always_comb prod = 64'($signed({a_sx & a_i[31], a_i}) * $signed({b_sx & b_i[31], b_i}));

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
      simt_pkg::SIMT_ALU_MUL:    res_o = prod[31:0];
      simt_pkg::SIMT_ALU_MULH,
      simt_pkg::SIMT_ALU_MULHSU,
      simt_pkg::SIMT_ALU_MULHU:  res_o = prod[63:32];
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
