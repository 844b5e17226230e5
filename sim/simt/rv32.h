/* rv32: RV32IMAF + Zicsr instruction decoding for the SIMT model.
 *
 * Registers are numbered in one space: 0..31 are x0..x31, 32..63 are
 * f0..f31, and RV_SINK (64) is a write-only sink that replaces x0 as a
 * destination (so the executor never tests for x0).  Each decoded
 * instruction carries its scoreboard masks (sources, destination). */
#ifndef RV32_H
#define RV32_H

#include <stdint.h>

#define RV_NREGS 64
#define RV_SINK 64

enum rv_op {
    OP_ILLEGAL = 0,
    OP_LUI, OP_AUIPC, OP_JAL, OP_JALR,
    OP_BEQ, OP_BNE, OP_BLT, OP_BGE, OP_BLTU, OP_BGEU,
    OP_LB, OP_LH, OP_LW, OP_LBU, OP_LHU, OP_SB, OP_SH, OP_SW,
    OP_ADDI, OP_SLTI, OP_SLTIU, OP_XORI, OP_ORI, OP_ANDI, OP_SLLI, OP_SRLI, OP_SRAI,
    OP_ADD, OP_SUB, OP_SLL, OP_SLT, OP_SLTU, OP_XOR, OP_SRL, OP_SRA, OP_OR, OP_AND,
    OP_FENCE, OP_ECALL, OP_EBREAK,
    OP_CSRRW, OP_CSRRS, OP_CSRRC, OP_CSRRWI, OP_CSRRSI, OP_CSRRCI,
    OP_MUL, OP_MULH, OP_MULHSU, OP_MULHU, OP_DIV, OP_DIVU, OP_REM, OP_REMU,
    OP_LR, OP_SC, OP_AMOSWAP, OP_AMOADD, OP_AMOXOR, OP_AMOAND, OP_AMOOR,
    OP_AMOMIN, OP_AMOMAX, OP_AMOMINU, OP_AMOMAXU,
    OP_FLW, OP_FSW, OP_FMADD, OP_FMSUB, OP_FNMSUB, OP_FNMADD,
    OP_FADD, OP_FSUB, OP_FMUL, OP_FDIV, OP_FSQRT,
    OP_FSGNJ, OP_FSGNJN, OP_FSGNJX, OP_FMIN, OP_FMAX,
    OP_FCVT_W_S, OP_FCVT_WU_S, OP_FMV_X_W, OP_FEQ, OP_FLT, OP_FLE, OP_FCLASS,
    OP_FCVT_S_W, OP_FCVT_S_WU, OP_FMV_W_X,
    OP_COUNT
};

/* Functional-unit classes (per-class latency and initiation interval). */
enum rv_class { CL_ALU = 0, CL_MUL, CL_DIV, CL_FPU, CL_SFU, CL_LDST, CL_COUNT };

/* flags */
#define RVF_LOAD   0x01u /* reads memory, writes rd at completion */
#define RVF_STORE  0x02u
#define RVF_AMO    0x04u /* atomic (LR/SC/AMO*) */
#define RVF_CTRL   0x08u /* may change the PC (branch/jump/ecall/barrier) */
#define RVF_CSR    0x10u

typedef struct {
    uint16_t op;       /* enum rv_op */
    uint8_t cls;       /* enum rv_class */
    uint8_t flags;
    uint8_t rd, rs1, rs2, rs3; /* unified register numbers (rd may be RV_SINK) */
    uint8_t rm;        /* FP rounding-mode field */
    uint8_t size;      /* memory access size in bytes */
    uint8_t fe;        /* F/E access (custom-0/1, sw/include/fg_fe.h): RV_FE | trigger | action << 2; 0 = none */
    uint16_t csr;
    int32_t imm;
    uint64_t src_mask; /* scoreboard: registers read */
    uint64_t dst_mask; /* scoreboard: register written (0 for x0/none) */
} rv_inst;

/* F/E accesses (F/E 4.1, 4.5 "GPU requests also have triggers and update
 * conditions explicitly specified"): the word load / store of custom-0
 * (0x0B) / custom-1 (0x2B), R-type, funct3 = 010, funct7 = action << 2 |
 * trigger (FE_TRIG_* / FE_ACT_* of sim/twin/fe_sched_queues.h, codes 0..2),
 * rs2 = x0 for the load; address = rs1, no offset.  Decoded as OP_LW / OP_SW
 * with `fe` set.  docs/FE_E2E.md, sw/include/fg_fe.h. */
#define RV_FE 0x80u
#define RV_FE_TRIG(fe) ((fe) & 3u)
#define RV_FE_ACT(fe) (((fe) >> 2) & 3u)

/* Decodes one 32-bit instruction word; op == OP_ILLEGAL when unknown.
 * Compressed (16-bit) encodings are not supported and decode as illegal. */
void rv_decode(uint32_t word, rv_inst *out);
const char *rv_op_name(unsigned op);

#endif
