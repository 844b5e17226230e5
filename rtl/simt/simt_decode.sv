// Instruction decoder of the RTL SIMT core: one RV32IMA + Zicsr word into the
// fields the issue stage and the lane pipeline use.  The encodings accepted
// are the C model's (sim/simt/rv32_decode.c) minus F and the F/E custom
// opcodes, which this core does not execute (legal_o = 0: fault ILLEGAL).
// MISC-MEM decodes as a no-op (the C model's FENCE: one memory port, in
// order, so there is nothing to wait for).  Combinational.
`include "fg_comb.svh"
module simt_decode (
  input  logic [31:0] insn_i,
  output logic        legal_o,     // 0: fault ILLEGAL
  output logic        csr_bad_o,   // a CSR that does not exist or a write to a read-only one: fault CSR
  output logic [1:0]  unit_o,      // simt_pkg::simt_unit_e
  output logic [4:0]  alu_o,       // simt_pkg::simt_alu_e (unit ALU)
  output logic [4:0]  rd_o,        // 0: writes no register
  output logic [4:0]  rs1_o,
  output logic [4:0]  rs2_o,
  output logic        use_rs1_o,
  output logic        use_rs2_o,
  output logic        b_imm_o,     // operand b is the immediate
  output logic [31:0] imm_o,
  output logic        br_o,        // conditional branch, condition br_f3_o
  output logic [2:0]  br_f3_o,
  output logic        jal_o,
  output logic        jalr_o,
  output logic        ecall_o,     // the lanes exit
  output logic        bar_o,       // a write to the barrier CSR
  output logic [11:0] csr_o,
  output logic        store_o,     // unit LSU: store (else load)
  output logic [1:0]  size_o,      // unit LSU: log2 bytes
  output logic        lunsigned_o, // unit LSU: zero-extend
  output logic [1:0]  div_op_o,    // unit DIV: 0 div, 1 divu, 2 rem, 3 remu
  output logic        amo_o,       // unit LSU: an atomic (LR, SC, AMO*), word sized, no offset
  output logic [4:0]  amo_op_o     // its funct5 (0x02 LR, 0x03 SC, 0x01 swap, 0x00 add, ...)
);
  wire [6:0] opc = insn_i[6:0];
  wire [2:0] f3  = insn_i[14:12];
  wire [6:0] f7  = insn_i[31:25];
  wire [31:0] imm_i = {{20{insn_i[31]}}, insn_i[31:20]};
  wire [31:0] imm_s = {{20{insn_i[31]}}, insn_i[31:25], insn_i[11:7]};
  wire [31:0] imm_b = {{19{insn_i[31]}}, insn_i[31], insn_i[7], insn_i[30:25], insn_i[11:8], 1'b0};
  wire [31:0] imm_u = {insn_i[31:12], 12'b0};
  wire [31:0] imm_j = {{11{insn_i[31]}}, insn_i[31], insn_i[19:12], insn_i[20], insn_i[30:21], 1'b0};

  // the CSRs this core has (sim/simt/simt_abi.h; cycle, time, instret and
  // their high halves); only the barrier CSR may be written
  function automatic logic csr_exists(input logic [11:0] c);
    csr_exists = (c == 12'hC00) || (c == 12'hC01) || (c == 12'hC02) || (c == 12'hC80) ||
                 (c == 12'hC81) || (c == 12'hC82) || (c[11:4] == 8'hCC) || (c == 12'h8C0);
  endfunction

  // the AMO funct5 values of RV32A besides LR (0x02)
  function automatic logic amo_f5(input logic [4:0] f);
    case (f)
      5'h00, 5'h01, 5'h03, 5'h04, 5'h08, 5'h0c, 5'h10, 5'h14, 5'h18, 5'h1c: amo_f5 = 1'b1;
      default: amo_f5 = 1'b0;
    endcase
  endfunction

  `FG_COMB_READBACK begin
    legal_o     = 1'b0;
    csr_bad_o   = 1'b0;
    unit_o      = simt_pkg::SIMT_UNIT_ALU;
    alu_o       = simt_pkg::SIMT_ALU_ADD;
    rd_o        = 5'd0;
    rs1_o       = insn_i[19:15];
    rs2_o       = insn_i[24:20];
    use_rs1_o   = 1'b0;
    use_rs2_o   = 1'b0;
    b_imm_o     = 1'b0;
    imm_o       = imm_i;
    br_o        = 1'b0;
    br_f3_o     = f3;
    jal_o       = 1'b0;
    jalr_o      = 1'b0;
    ecall_o     = 1'b0;
    bar_o       = 1'b0;
    csr_o       = insn_i[31:20];
    store_o     = 1'b0;
    size_o      = f3[1:0];
    lunsigned_o = f3[2];
    div_op_o    = f3[1:0];
    amo_o       = 1'b0;
    amo_op_o    = insn_i[31:27];
    case (opc)
      7'h37: begin legal_o = 1'b1; rd_o = insn_i[11:7]; alu_o = simt_pkg::SIMT_ALU_LUI; imm_o = imm_u; end
      7'h17: begin legal_o = 1'b1; rd_o = insn_i[11:7]; alu_o = simt_pkg::SIMT_ALU_AUIPC; imm_o = imm_u; end
      7'h6f: begin legal_o = 1'b1; rd_o = insn_i[11:7]; alu_o = simt_pkg::SIMT_ALU_LINK; imm_o = imm_j; jal_o = 1'b1; end
      7'h67: if (f3 == 3'd0) begin
        legal_o = 1'b1; rd_o = insn_i[11:7]; alu_o = simt_pkg::SIMT_ALU_LINK; jalr_o = 1'b1; use_rs1_o = 1'b1;
      end
      7'h63: if (f3 != 3'd2 && f3 != 3'd3) begin
        legal_o = 1'b1; br_o = 1'b1; imm_o = imm_b; use_rs1_o = 1'b1; use_rs2_o = 1'b1;
      end
      7'h03: if (f3 != 3'd3 && f3 != 3'd6 && f3 != 3'd7) begin
        legal_o = 1'b1; unit_o = simt_pkg::SIMT_UNIT_LSU; rd_o = insn_i[11:7]; use_rs1_o = 1'b1;
      end
      7'h23: if (f3 <= 3'd2) begin
        legal_o = 1'b1; unit_o = simt_pkg::SIMT_UNIT_LSU; store_o = 1'b1; imm_o = imm_s;
        use_rs1_o = 1'b1; use_rs2_o = 1'b1;
      end
      7'h13: begin
        rd_o = insn_i[11:7]; use_rs1_o = 1'b1; b_imm_o = 1'b1;
        legal_o = 1'b1;
        case (f3)
          3'd0: alu_o = simt_pkg::SIMT_ALU_ADD;
          3'd1: begin alu_o = simt_pkg::SIMT_ALU_SLL; legal_o = (f7 == 7'h00); end
          3'd2: alu_o = simt_pkg::SIMT_ALU_SLT;
          3'd3: alu_o = simt_pkg::SIMT_ALU_SLTU;
          3'd4: alu_o = simt_pkg::SIMT_ALU_XOR;
          3'd5: begin
            alu_o   = (f7 == 7'h20) ? simt_pkg::SIMT_ALU_SRA : simt_pkg::SIMT_ALU_SRL;
            legal_o = (f7 == 7'h00) || (f7 == 7'h20);
          end
          3'd6: alu_o = simt_pkg::SIMT_ALU_OR;
          default: alu_o = simt_pkg::SIMT_ALU_AND;
        endcase
        if (!legal_o) rd_o = 5'd0;
      end
      7'h33: begin
        rd_o = insn_i[11:7]; use_rs1_o = 1'b1; use_rs2_o = 1'b1;
        if (f7 == 7'h01) begin
          legal_o = 1'b1;
          case (f3)
            3'd0: alu_o = simt_pkg::SIMT_ALU_MUL;
            3'd1: alu_o = simt_pkg::SIMT_ALU_MULH;
            3'd2: alu_o = simt_pkg::SIMT_ALU_MULHSU;
            3'd3: alu_o = simt_pkg::SIMT_ALU_MULHU;
            default: unit_o = simt_pkg::SIMT_UNIT_DIV;
          endcase
        end else if (f7 == 7'h00 || (f7 == 7'h20 && (f3 == 3'd0 || f3 == 3'd5))) begin
          legal_o = 1'b1;
          case (f3)
            3'd0: alu_o = f7[5] ? simt_pkg::SIMT_ALU_SUB : simt_pkg::SIMT_ALU_ADD;
            3'd1: alu_o = simt_pkg::SIMT_ALU_SLL;
            3'd2: alu_o = simt_pkg::SIMT_ALU_SLT;
            3'd3: alu_o = simt_pkg::SIMT_ALU_SLTU;
            3'd4: alu_o = simt_pkg::SIMT_ALU_XOR;
            3'd5: alu_o = f7[5] ? simt_pkg::SIMT_ALU_SRA : simt_pkg::SIMT_ALU_SRL;
            3'd6: alu_o = simt_pkg::SIMT_ALU_OR;
            default: alu_o = simt_pkg::SIMT_ALU_AND;
          endcase
        end
        if (!legal_o) rd_o = 5'd0;
      end
      7'h2f: if (f3 == 3'd2 && (insn_i[31:27] == 5'h02 ? insn_i[24:20] == 5'd0 : amo_f5(insn_i[31:27]))) begin
        legal_o = 1'b1; unit_o = simt_pkg::SIMT_UNIT_LSU; amo_o = 1'b1; rd_o = insn_i[11:7]; imm_o = '0;
        use_rs1_o = 1'b1; use_rs2_o = insn_i[31:27] != 5'h02; size_o = 2'd2; lunsigned_o = 1'b0;
      end
      7'h0f: legal_o = 1'b1;
      7'h73: begin
        if (f3 == 3'd0) begin
          legal_o = (insn_i == 32'h00000073);
          ecall_o = legal_o;
        end else if (f3 != 3'd4) begin
          // Zicsr: rs (or the 5-bit zimm) set, or csrrw(i): the CSR is written
          legal_o   = 1'b1;
          rd_o      = insn_i[11:7];
          alu_o     = simt_pkg::SIMT_ALU_CSR;
          use_rs1_o = !f3[2];
          csr_bad_o = !csr_exists(insn_i[31:20]) ||
                      ((f3[1:0] == 2'd1 || insn_i[19:15] != 5'd0) && insn_i[31:20] != 12'h8C0);
          bar_o     = (f3[1:0] == 2'd1 || insn_i[19:15] != 5'd0) && insn_i[31:20] == 12'h8C0;
        end
      end
      default: ;
    endcase
  end
endmodule
