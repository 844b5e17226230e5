/* RV32IMAF + Zicsr decoder (RISC-V Unprivileged ISA, chapters 2, 7, 8, 9, 11). */
#include "rv32.h"

#include <string.h>

static const char *const names[OP_COUNT] = {
    "illegal", "lui", "auipc", "jal", "jalr", "beq", "bne", "blt", "bge", "bltu", "bgeu",
    "lb", "lh", "lw", "lbu", "lhu", "sb", "sh", "sw",
    "addi", "slti", "sltiu", "xori", "ori", "andi", "slli", "srli", "srai",
    "add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and",
    "fence", "ecall", "ebreak", "csrrw", "csrrs", "csrrc", "csrrwi", "csrrsi", "csrrci",
    "mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu",
    "lr.w", "sc.w", "amoswap.w", "amoadd.w", "amoxor.w", "amoand.w", "amoor.w",
    "amomin.w", "amomax.w", "amominu.w", "amomaxu.w",
    "flw", "fsw", "fmadd.s", "fmsub.s", "fnmsub.s", "fnmadd.s",
    "fadd.s", "fsub.s", "fmul.s", "fdiv.s", "fsqrt.s",
    "fsgnj.s", "fsgnjn.s", "fsgnjx.s", "fmin.s", "fmax.s",
    "fcvt.w.s", "fcvt.wu.s", "fmv.x.w", "feq.s", "flt.s", "fle.s", "fclass.s",
    "fcvt.s.w", "fcvt.s.wu", "fmv.w.x",
};

const char *rv_op_name(unsigned op) { return op < OP_COUNT ? names[op] : "?"; }

/* Register operand kinds for the scoreboard masks. */
enum { R_NONE = 0, R_X, R_F };

static void set(rv_inst *d, unsigned op, unsigned cls, int rdk, int s1k, int s2k, int s3k, uint32_t w) {
    unsigned rd = (w >> 7) & 31, rs1 = (w >> 15) & 31, rs2 = (w >> 20) & 31, rs3 = (w >> 27) & 31;
    d->op = (uint16_t)op;
    d->cls = (uint8_t)cls;
    d->rd = RV_SINK;
    d->src_mask = d->dst_mask = 0;
    if (rdk == R_X && rd != 0) d->rd = (uint8_t)rd;
    if (rdk == R_F) d->rd = (uint8_t)(32 + rd);
    if (d->rd != RV_SINK) d->dst_mask = 1ull << d->rd;
    d->rs1 = (uint8_t)(s1k == R_F ? 32 + rs1 : rs1);
    d->rs2 = (uint8_t)(s2k == R_F ? 32 + rs2 : rs2);
    d->rs3 = (uint8_t)(s3k == R_F ? 32 + rs3 : rs3);
    if (s1k != R_NONE) d->src_mask |= 1ull << d->rs1;
    if (s2k != R_NONE) d->src_mask |= 1ull << d->rs2;
    if (s3k != R_NONE) d->src_mask |= 1ull << d->rs3;
    d->src_mask &= ~1ull; /* x0 is never pending */
}

void rv_decode(uint32_t w, rv_inst *d) {
    memset(d, 0, sizeof *d);
    d->rd = RV_SINK;
    unsigned opc = w & 0x7f, f3 = (w >> 12) & 7, f7 = w >> 25;
    int32_t imm_i = (int32_t)w >> 20;
    /* sign bits are replicated in unsigned arithmetic: shifting a negative
     * int left is undefined in C (found by make SAN=1) */
    const uint32_t sx = (w >> 31) ? ~0u : 0u;
    int32_t imm_s = (int32_t)((sx << 12) | ((w >> 25) & 0x7f) << 5 | ((w >> 7) & 31));
    int32_t imm_b = (int32_t)((sx << 12) | ((w >> 7) & 1) << 11 | ((w >> 25) & 0x3f) << 5 | ((w >> 8) & 0xf) << 1);
    int32_t imm_u = (int32_t)(w & 0xfffff000u);
    int32_t imm_j = (int32_t)((sx << 20) | ((w >> 12) & 0xff) << 12 | ((w >> 20) & 1) << 11 | ((w >> 21) & 0x3ff) << 1);
    d->rm = (uint8_t)f3;
    if ((w & 3) != 3) return; /* compressed: unsupported */
    switch (opc) {
    case 0x37: set(d, OP_LUI, CL_ALU, R_X, R_NONE, R_NONE, R_NONE, w); d->imm = imm_u; return;
    case 0x17: set(d, OP_AUIPC, CL_ALU, R_X, R_NONE, R_NONE, R_NONE, w); d->imm = imm_u; return;
    case 0x6f:
        set(d, OP_JAL, CL_ALU, R_X, R_NONE, R_NONE, R_NONE, w);
        d->imm = imm_j; d->flags = RVF_CTRL; return;
    case 0x67:
        if (f3) return;
        set(d, OP_JALR, CL_ALU, R_X, R_X, R_NONE, R_NONE, w);
        d->imm = imm_i; d->flags = RVF_CTRL; return;
    case 0x63: {
        static const uint16_t b[8] = {OP_BEQ, OP_BNE, 0, 0, OP_BLT, OP_BGE, OP_BLTU, OP_BGEU};
        if (!b[f3]) return;
        set(d, b[f3], CL_ALU, R_NONE, R_X, R_X, R_NONE, w);
        d->imm = imm_b; d->flags = RVF_CTRL; return;
    }
    case 0x03: {
        static const uint16_t l[8] = {OP_LB, OP_LH, OP_LW, 0, OP_LBU, OP_LHU, 0, 0};
        static const uint8_t sz[8] = {1, 2, 4, 0, 1, 2, 0, 0};
        if (!l[f3]) return;
        set(d, l[f3], CL_LDST, R_X, R_X, R_NONE, R_NONE, w);
        d->imm = imm_i; d->size = sz[f3]; d->flags = RVF_LOAD; return;
    }
    case 0x23: {
        static const uint16_t s[8] = {OP_SB, OP_SH, OP_SW, 0, 0, 0, 0, 0};
        if (!s[f3]) return;
        set(d, s[f3], CL_LDST, R_NONE, R_X, R_X, R_NONE, w);
        d->imm = imm_s; d->size = (uint8_t)(1u << f3); d->flags = RVF_STORE; return;
    }
    case 0x13: {
        static const uint16_t o[8] = {OP_ADDI, OP_SLLI, OP_SLTI, OP_SLTIU, OP_XORI, OP_SRLI, OP_ORI, OP_ANDI};
        unsigned op = o[f3];
        if (f3 == 1 && f7 != 0) return;
        if (f3 == 5) {
            if (f7 == 0x20) op = OP_SRAI;
            else if (f7 != 0) return;
        }
        set(d, op, CL_ALU, R_X, R_X, R_NONE, R_NONE, w);
        d->imm = (f3 == 1 || f3 == 5) ? (int32_t)((w >> 20) & 31) : imm_i;
        return;
    }
    case 0x33:
        if (f7 == 0x01) {
            static const uint16_t m[8] = {OP_MUL, OP_MULH, OP_MULHSU, OP_MULHU, OP_DIV, OP_DIVU, OP_REM, OP_REMU};
            set(d, m[f3], f3 < 4 ? CL_MUL : CL_DIV, R_X, R_X, R_X, R_NONE, w);
            return;
        } else {
            static const uint16_t a[8] = {OP_ADD, OP_SLL, OP_SLT, OP_SLTU, OP_XOR, OP_SRL, OP_OR, OP_AND};
            unsigned op = a[f3];
            if (f7 == 0x20) {
                if (f3 == 0) op = OP_SUB;
                else if (f3 == 5) op = OP_SRA;
                else return;
            } else if (f7 != 0) return;
            set(d, op, CL_ALU, R_X, R_X, R_X, R_NONE, w);
            return;
        }
    case 0x0f:
        set(d, OP_FENCE, CL_ALU, R_NONE, R_NONE, R_NONE, R_NONE, w); return;
    case 0x73:
        if (f3 == 0) {
            if (w == 0x00000073u) { set(d, OP_ECALL, CL_ALU, R_NONE, R_NONE, R_NONE, R_NONE, w); d->flags = RVF_CTRL; }
            else if (w == 0x00100073u) { set(d, OP_EBREAK, CL_ALU, R_NONE, R_NONE, R_NONE, R_NONE, w); d->flags = RVF_CTRL; }
            return;
        } else {
            static const uint16_t c[8] = {0, OP_CSRRW, OP_CSRRS, OP_CSRRC, 0, OP_CSRRWI, OP_CSRRSI, OP_CSRRCI};
            if (!c[f3]) return;
            set(d, c[f3], CL_ALU, R_X, f3 < 4 ? R_X : R_NONE, R_NONE, R_NONE, w);
            d->csr = (uint16_t)(w >> 20);
            d->imm = (int32_t)((w >> 15) & 31); /* zimm */
            d->flags = RVF_CSR | RVF_CTRL; /* barrier CSR can stall the warp */
            return;
        }
    case 0x2f: {
        if (f3 != 2) return;
        unsigned f5 = w >> 27, op;
        switch (f5) {
        case 0x02: op = OP_LR; break;
        case 0x03: op = OP_SC; break;
        case 0x01: op = OP_AMOSWAP; break;
        case 0x00: op = OP_AMOADD; break;
        case 0x04: op = OP_AMOXOR; break;
        case 0x0c: op = OP_AMOAND; break;
        case 0x08: op = OP_AMOOR; break;
        case 0x10: op = OP_AMOMIN; break;
        case 0x14: op = OP_AMOMAX; break;
        case 0x18: op = OP_AMOMINU; break;
        case 0x1c: op = OP_AMOMAXU; break;
        default: return;
        }
        if (op == OP_LR && ((w >> 20) & 31)) return;
        set(d, op, CL_LDST, R_X, R_X, op == OP_LR ? R_NONE : R_X, R_NONE, w);
        d->size = 4; d->flags = RVF_AMO | RVF_LOAD;
        return;
    }
    case 0x07:
        if (f3 != 2) return;
        set(d, OP_FLW, CL_LDST, R_F, R_X, R_NONE, R_NONE, w);
        d->imm = imm_i; d->size = 4; d->flags = RVF_LOAD; return;
    case 0x27:
        if (f3 != 2) return;
        set(d, OP_FSW, CL_LDST, R_NONE, R_X, R_F, R_NONE, w);
        d->imm = imm_s; d->size = 4; d->flags = RVF_STORE; return;
    case 0x43: case 0x47: case 0x4b: case 0x4f: {
        if (((w >> 25) & 3) != 0) return; /* fmt = S */
        static const uint16_t f[4] = {OP_FMADD, OP_FMSUB, OP_FNMSUB, OP_FNMADD};
        set(d, f[(opc >> 2) & 3], CL_FPU, R_F, R_F, R_F, R_F, w);
        return;
    }
    case 0x53: {
        unsigned rs2f = (w >> 20) & 31;
        switch (f7) {
        case 0x00: set(d, OP_FADD, CL_FPU, R_F, R_F, R_F, R_NONE, w); return;
        case 0x04: set(d, OP_FSUB, CL_FPU, R_F, R_F, R_F, R_NONE, w); return;
        case 0x08: set(d, OP_FMUL, CL_FPU, R_F, R_F, R_F, R_NONE, w); return;
        case 0x0c: set(d, OP_FDIV, CL_SFU, R_F, R_F, R_F, R_NONE, w); return;
        case 0x2c: if (rs2f) return; set(d, OP_FSQRT, CL_SFU, R_F, R_F, R_NONE, R_NONE, w); return;
        case 0x10:
            if (f3 > 2) return;
            set(d, f3 == 0 ? OP_FSGNJ : f3 == 1 ? OP_FSGNJN : OP_FSGNJX, CL_FPU, R_F, R_F, R_F, R_NONE, w);
            return;
        case 0x14:
            if (f3 > 1) return;
            set(d, f3 == 0 ? OP_FMIN : OP_FMAX, CL_FPU, R_F, R_F, R_F, R_NONE, w); return;
        case 0x60:
            if (rs2f > 1) return;
            set(d, rs2f ? OP_FCVT_WU_S : OP_FCVT_W_S, CL_FPU, R_X, R_F, R_NONE, R_NONE, w); return;
        case 0x70:
            if (rs2f) return;
            if (f3 == 0) { set(d, OP_FMV_X_W, CL_FPU, R_X, R_F, R_NONE, R_NONE, w); return; }
            if (f3 == 1) { set(d, OP_FCLASS, CL_FPU, R_X, R_F, R_NONE, R_NONE, w); return; }
            return;
        case 0x50:
            if (f3 > 2) return;
            set(d, f3 == 2 ? OP_FEQ : f3 == 1 ? OP_FLT : OP_FLE, CL_FPU, R_X, R_F, R_F, R_NONE, w); return;
        case 0x68:
            if (rs2f > 1) return;
            set(d, rs2f ? OP_FCVT_S_WU : OP_FCVT_S_W, CL_FPU, R_F, R_X, R_NONE, R_NONE, w); return;
        case 0x78:
            if (rs2f || f3) return;
            set(d, OP_FMV_W_X, CL_FPU, R_F, R_X, R_NONE, R_NONE, w); return;
        default: return;
        }
    }
    default: return;
    }
}
