/* simt_asm: a tiny RV32IMA + Zicsr encoder for the RTL SIMT core's test
 * programs (tests/test_simt_rtl.c's directed cases, simt_rand.c's random
 * programs): one function per format, macros per instruction, and a buffer
 * with forward / backward labels resolved at the end. */
#ifndef SIMT_ASM_H
#define SIMT_ASM_H

#include <stdint.h>

static inline uint32_t rv_r(unsigned f7, unsigned rs2, unsigned rs1, unsigned f3, unsigned rd, unsigned opc) {
    return (uint32_t)f7 << 25 | (uint32_t)(rs2 & 31) << 20 | (uint32_t)(rs1 & 31) << 15 | (uint32_t)f3 << 12 |
           (uint32_t)(rd & 31) << 7 | opc;
}
static inline uint32_t rv_i(int32_t imm, unsigned rs1, unsigned f3, unsigned rd, unsigned opc) {
    return ((uint32_t)imm & 0xfffu) << 20 | (uint32_t)(rs1 & 31) << 15 | (uint32_t)f3 << 12 | (uint32_t)(rd & 31) << 7 |
           opc;
}
static inline uint32_t rv_s(int32_t imm, unsigned rs2, unsigned rs1, unsigned f3, unsigned opc) {
    uint32_t u = (uint32_t)imm;
    return (u >> 5 & 0x7f) << 25 | (uint32_t)(rs2 & 31) << 20 | (uint32_t)(rs1 & 31) << 15 | (uint32_t)f3 << 12 |
           (u & 31) << 7 | opc;
}
static inline uint32_t rv_b(int32_t off, unsigned rs2, unsigned rs1, unsigned f3) {
    uint32_t u = (uint32_t)off;
    return (u >> 12 & 1) << 31 | (u >> 5 & 0x3f) << 25 | (uint32_t)(rs2 & 31) << 20 | (uint32_t)(rs1 & 31) << 15 |
           (uint32_t)f3 << 12 | (u >> 1 & 0xf) << 8 | (u >> 11 & 1) << 7 | 0x63;
}
static inline uint32_t rv_u(uint32_t imm20, unsigned rd, unsigned opc) {
    return (imm20 & 0xfffffu) << 12 | (uint32_t)(rd & 31) << 7 | opc;
}
static inline uint32_t rv_j(int32_t off, unsigned rd) {
    uint32_t u = (uint32_t)off;
    return (u >> 20 & 1) << 31 | (u >> 1 & 0x3ff) << 21 | (u >> 11 & 1) << 20 | (u >> 12 & 0xff) << 12 |
           (uint32_t)(rd & 31) << 7 | 0x6f;
}

/* funct3 of the branches */
enum { RV_BEQ = 0, RV_BNE = 1, RV_BLT = 4, RV_BGE = 5, RV_BLTU = 6, RV_BGEU = 7 };

#define A_LUI(rd, imm20) rv_u((imm20), (rd), 0x37)
#define A_AUIPC(rd, imm20) rv_u((imm20), (rd), 0x17)
#define A_JAL(rd, off) rv_j((off), (rd))
#define A_JALR(rd, rs1, imm) rv_i((imm), (rs1), 0, (rd), 0x67)
#define A_ADDI(rd, rs1, imm) rv_i((imm), (rs1), 0, (rd), 0x13)
#define A_SLTI(rd, rs1, imm) rv_i((imm), (rs1), 2, (rd), 0x13)
#define A_SLTIU(rd, rs1, imm) rv_i((imm), (rs1), 3, (rd), 0x13)
#define A_XORI(rd, rs1, imm) rv_i((imm), (rs1), 4, (rd), 0x13)
#define A_ORI(rd, rs1, imm) rv_i((imm), (rs1), 6, (rd), 0x13)
#define A_ANDI(rd, rs1, imm) rv_i((imm), (rs1), 7, (rd), 0x13)
#define A_SLLI(rd, rs1, sh) rv_i((sh) & 31, (rs1), 1, (rd), 0x13)
#define A_SRLI(rd, rs1, sh) rv_i((sh) & 31, (rs1), 5, (rd), 0x13)
#define A_SRAI(rd, rs1, sh) rv_i(0x400 | ((sh) & 31), (rs1), 5, (rd), 0x13)
#define A_ADD(rd, a, b) rv_r(0, (b), (a), 0, (rd), 0x33)
#define A_SUB(rd, a, b) rv_r(0x20, (b), (a), 0, (rd), 0x33)
#define A_AND(rd, a, b) rv_r(0, (b), (a), 7, (rd), 0x33)
#define A_SLL(rd, a, b) rv_r(0, (b), (a), 1, (rd), 0x33)
#define A_MUL(rd, a, b) rv_r(1, (b), (a), 0, (rd), 0x33)
#define A_DIV(rd, a, b) rv_r(1, (b), (a), 4, (rd), 0x33)
#define A_DIVU(rd, a, b) rv_r(1, (b), (a), 5, (rd), 0x33)
#define A_REM(rd, a, b) rv_r(1, (b), (a), 6, (rd), 0x33)
#define A_LB(rd, rs1, imm) rv_i((imm), (rs1), 0, (rd), 0x03)
#define A_LH(rd, rs1, imm) rv_i((imm), (rs1), 1, (rd), 0x03)
#define A_LW(rd, rs1, imm) rv_i((imm), (rs1), 2, (rd), 0x03)
#define A_LBU(rd, rs1, imm) rv_i((imm), (rs1), 4, (rd), 0x03)
#define A_LHU(rd, rs1, imm) rv_i((imm), (rs1), 5, (rd), 0x03)
#define A_SB(rs2, rs1, imm) rv_s((imm), (rs2), (rs1), 0, 0x23)
#define A_SH(rs2, rs1, imm) rv_s((imm), (rs2), (rs1), 1, 0x23)
#define A_SW(rs2, rs1, imm) rv_s((imm), (rs2), (rs1), 2, 0x23)
#define A_CSRRW(rd, csr, rs1) rv_i((int32_t)(csr), (rs1), 1, (rd), 0x73)
#define A_CSRRS(rd, csr, rs1) rv_i((int32_t)(csr), (rs1), 2, (rd), 0x73)
#define A_CSRRWI(rd, csr, zimm) rv_i((int32_t)(csr), (zimm), 5, (rd), 0x73)
#define A_CSRR(rd, csr) A_CSRRS((rd), (csr), 0)
/* funct5 of the atomics; aq = rl = 0 (the core orders nothing either way) */
enum {
    RV_AMOADD = 0x00, RV_AMOSWAP = 0x01, RV_LR = 0x02, RV_SC = 0x03, RV_AMOXOR = 0x04, RV_AMOOR = 0x08,
    RV_AMOAND = 0x0c, RV_AMOMIN = 0x10, RV_AMOMAX = 0x14, RV_AMOMINU = 0x18, RV_AMOMAXU = 0x1c
};
#define A_AMO(f5, rd, rs2, rs1) rv_r((unsigned)(f5) << 2, (rs2), (rs1), 2, (rd), 0x2f)
#define A_LR(rd, rs1) A_AMO(RV_LR, (rd), 0, (rs1))
#define A_SC(rd, rs2, rs1) A_AMO(RV_SC, (rd), (rs2), (rs1))
#define A_ECALL 0x00000073u
#define A_EBREAK 0x00100073u
#define A_FENCE 0x0ff0000fu
#define A_NOP A_ADDI(0, 0, 0)

/* A program being assembled: words from `base` (its address), labels
 * 0..SIMT_ASM_LABELS-1; a branch or jal to a label not yet placed is
 * patched when simt_asm_end resolves it. */
#define SIMT_ASM_MAX 8192
#define SIMT_ASM_LABELS 256
typedef struct {
    uint32_t base, n;
    uint32_t w[SIMT_ASM_MAX];
    int32_t label[SIMT_ASM_LABELS];  /* word index, -1 unplaced */
    struct { uint32_t at; unsigned label; } fix[SIMT_ASM_MAX];
    unsigned nfix;
    int overflow;
} simt_asm;

void simt_asm_init(simt_asm *a, uint32_t base);
void simt_asm_emit(simt_asm *a, uint32_t word);
/* li rd, v in one or two instructions */
void simt_asm_li(simt_asm *a, unsigned rd, uint32_t v);
void simt_asm_label(simt_asm *a, unsigned label);
/* bXX rs1, rs2, label (f3: RV_BEQ ...) and jal rd, label */
void simt_asm_branch(simt_asm *a, unsigned f3, unsigned rs1, unsigned rs2, unsigned label);
void simt_asm_jal(simt_asm *a, unsigned rd, unsigned label);
/* The address of the next word. */
static inline uint32_t simt_asm_pc(const simt_asm *a) { return a->base + 4 * a->n; }
/* Resolves the labels: 0, or -1 (overflow, an unplaced label, an offset
 * out of range) with the reason in err. */
int simt_asm_end(simt_asm *a, char *err, unsigned errlen);

#endif
