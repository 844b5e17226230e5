/* rv32_exec: functional execution of RV32IMAF + Zicsr (non-memory
 * instructions) across the active lanes of a warp; see rv32_exec.h.  A full
 * mask takes the branch-free path. */
#include "simt/rv32_exec.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "simt/rv32_fp.h"
#include "simt/simt_abi.h"

#define LANES(...) RV_EACH_LANE(m, __VA_ARGS__)

static uint32_t fclass(uint32_t x) {
    uint32_t s = x >> 31, e = (x >> 23) & 0xff, mnt = x & 0x7fffff;
    if (e == 0xff) {
        if (mnt == 0) return s ? 1u << 0 : 1u << 7;
        return (mnt & 0x400000) ? 1u << 9 : 1u << 8;
    }
    if (e == 0) {
        if (mnt == 0) return s ? 1u << 3 : 1u << 4;
        return s ? 1u << 2 : 1u << 5;
    }
    return s ? 1u << 1 : 1u << 6;
}

void rv_lane_tid(const uint32_t ntid[3], unsigned wib, unsigned lane, uint32_t tid[3]) {
    uint32_t lin = wib * RV_LANES + lane;
    tid[0] = lin % ntid[0];
    tid[1] = (lin / ntid[0]) % ntid[1];
    tid[2] = lin / (ntid[0] * ntid[1]);
}

/* CSR read for one lane; -1 if the CSR does not exist. */
static int64_t csr_read(const rv_lanes *x, const rv_csr_ids *id, unsigned csr, unsigned lane) {
    uint32_t tid[3];
    switch (csr) {
    case 0x001: return x->fflags;
    case 0x002: return x->frm;
    case 0x003: return (x->frm << 5) | x->fflags;
    case 0xC00: case 0xC01: return (uint32_t)id->cycle;
    case 0xC80: case 0xC81: return (uint32_t)(id->cycle >> 32);
    case 0xC02: return (uint32_t)id->instret;
    case 0xC82: return (uint32_t)(id->instret >> 32);
    case FG_CSR_TID_X: case FG_CSR_TID_Y: case FG_CSR_TID_Z:
        rv_lane_tid(id->ntid, id->wib, lane, tid);
        return tid[csr - FG_CSR_TID_X];
    case FG_CSR_CTAID_X: case FG_CSR_CTAID_Y: case FG_CSR_CTAID_Z: return id->ctaid[csr - FG_CSR_CTAID_X];
    case FG_CSR_NTID_X: case FG_CSR_NTID_Y: case FG_CSR_NTID_Z: return id->ntid[csr - FG_CSR_NTID_X];
    case FG_CSR_NCTAID_X: case FG_CSR_NCTAID_Y: case FG_CSR_NCTAID_Z: return id->nctaid[csr - FG_CSR_NCTAID_X];
    case FG_CSR_LANEID: return lane;
    case FG_CSR_WARPID: return id->wib;
    case FG_CSR_COREID: return id->core;
    case FG_CSR_SHMEM: return id->shmem;
    case FG_CSR_BARRIER: return 0;
    default: return -1;
    }
}

int rv_exec(rv_lanes *x, const rv_csr_ids *ids, const rv_inst *in, uint32_t m, uint32_t *npc, char *err,
            size_t errlen) {
    uint32_t *d = x->r[in->rd];
    const uint32_t *a = x->r[in->rs1], *b = x->r[in->rs2], *e = x->r[in->rs3];
    const int32_t imm = in->imm;
    const uint32_t uimm = (uint32_t)imm, pc = x->pc;
    switch (in->op) {
    case OP_LUI: LANES(d[l] = uimm); break;
    case OP_AUIPC: LANES(d[l] = pc + uimm); break;
    case OP_ADDI: LANES(d[l] = a[l] + uimm); break;
    case OP_SLTI: LANES(d[l] = (int32_t)a[l] < imm); break;
    case OP_SLTIU: LANES(d[l] = a[l] < uimm); break;
    case OP_XORI: LANES(d[l] = a[l] ^ uimm); break;
    case OP_ORI: LANES(d[l] = a[l] | uimm); break;
    case OP_ANDI: LANES(d[l] = a[l] & uimm); break;
    case OP_SLLI: LANES(d[l] = a[l] << imm); break;
    case OP_SRLI: LANES(d[l] = a[l] >> imm); break;
    case OP_SRAI: LANES(d[l] = (uint32_t)((int32_t)a[l] >> imm)); break;
    case OP_ADD: LANES(d[l] = a[l] + b[l]); break;
    case OP_SUB: LANES(d[l] = a[l] - b[l]); break;
    case OP_SLL: LANES(d[l] = a[l] << (b[l] & 31)); break;
    case OP_SLT: LANES(d[l] = (int32_t)a[l] < (int32_t)b[l]); break;
    case OP_SLTU: LANES(d[l] = a[l] < b[l]); break;
    case OP_XOR: LANES(d[l] = a[l] ^ b[l]); break;
    case OP_SRL: LANES(d[l] = a[l] >> (b[l] & 31)); break;
    case OP_SRA: LANES(d[l] = (uint32_t)((int32_t)a[l] >> (b[l] & 31))); break;
    case OP_OR: LANES(d[l] = a[l] | b[l]); break;
    case OP_AND: LANES(d[l] = a[l] & b[l]); break;
    case OP_MUL: LANES(d[l] = a[l] * b[l]); break;
    case OP_MULH: LANES(d[l] = (uint32_t)(((int64_t)(int32_t)a[l] * (int64_t)(int32_t)b[l]) >> 32)); break;
    case OP_MULHSU: LANES(d[l] = (uint32_t)(((int64_t)(int32_t)a[l] * (int64_t)(uint64_t)b[l]) >> 32)); break;
    case OP_MULHU: LANES(d[l] = (uint32_t)(((uint64_t)a[l] * (uint64_t)b[l]) >> 32)); break;
    case OP_DIV:
        LANES({
            int32_t x = (int32_t)a[l], y = (int32_t)b[l];
            d[l] = y == 0 ? 0xffffffffu : (x == INT32_MIN && y == -1) ? (uint32_t)x : (uint32_t)(x / y);
        });
        break;
    case OP_DIVU: LANES(d[l] = b[l] ? a[l] / b[l] : 0xffffffffu); break;
    case OP_REM:
        LANES({
            int32_t x = (int32_t)a[l], y = (int32_t)b[l];
            d[l] = y == 0 ? (uint32_t)x : (x == INT32_MIN && y == -1) ? 0 : (uint32_t)(x % y);
        });
        break;
    case OP_REMU: LANES(d[l] = b[l] ? a[l] % b[l] : a[l]); break;
    case OP_FSGNJ: LANES(d[l] = (a[l] & 0x7fffffffu) | (b[l] & 0x80000000u)); break;
    case OP_FSGNJN: LANES(d[l] = (a[l] & 0x7fffffffu) | (~b[l] & 0x80000000u)); break;
    case OP_FSGNJX: LANES(d[l] = a[l] ^ (b[l] & 0x80000000u)); break;
    case OP_FMV_X_W: case OP_FMV_W_X: LANES(d[l] = a[l]); break;
    case OP_FCLASS: LANES(d[l] = fclass(a[l])); break;
    case OP_FADD: case OP_FSUB: case OP_FMUL: case OP_FDIV: case OP_FSQRT:
    case OP_FMADD: case OP_FMSUB: case OP_FNMSUB: case OP_FNMADD: case OP_FMIN: case OP_FMAX:
    case OP_FCVT_W_S: case OP_FCVT_WU_S: case OP_FCVT_S_W: case OP_FCVT_S_WU: case OP_FEQ: case OP_FLT: case OP_FLE: {
        int rm = rv_fp_rm(in->op, in->rm, x->frm);
        if (rm < 0) {
            snprintf(err, errlen, "illegal instruction (reserved rounding mode: rm %u, frm %u) at pc 0x%08x", in->rm,
                     x->frm, pc);
            return EX_FAULT;
        }
        rv_fp_exec(in->op, (unsigned)rm, m, d, a, b, e, &x->fflags);
        break;
    }
    case OP_FENCE: break;
    case OP_JAL:
        LANES(d[l] = pc + 4);
        *npc = pc + uimm;
        return EX_JUMP;
    case OP_JALR: {
        uint32_t t0 = 0, first = 1, uniform = 1;
        /* read the targets before writing rd (rd may equal rs1) */
        LANES({
            uint32_t t = (a[l] + uimm) & ~1u;
            if (first) { t0 = t; first = 0; }
            else if (t != t0) uniform = 0;
            x->lane_pc[l] = t;
        });
        LANES(d[l] = pc + 4);
        if (uniform) { *npc = t0; return EX_JUMP; }
        return EX_SPLIT;
    }
    case OP_BEQ: case OP_BNE: case OP_BLT: case OP_BGE: case OP_BLTU: case OP_BGEU: {
        uint32_t t = 0;
        switch (in->op) {
        case OP_BEQ: LANES(t |= (uint32_t)(a[l] == b[l]) << l); break;
        case OP_BNE: LANES(t |= (uint32_t)(a[l] != b[l]) << l); break;
        case OP_BLT: LANES(t |= (uint32_t)((int32_t)a[l] < (int32_t)b[l]) << l); break;
        case OP_BGE: LANES(t |= (uint32_t)((int32_t)a[l] >= (int32_t)b[l]) << l); break;
        case OP_BLTU: LANES(t |= (uint32_t)(a[l] < b[l]) << l); break;
        default: LANES(t |= (uint32_t)(a[l] >= b[l]) << l); break;
        }
        if (t == m) { *npc = pc + uimm; return EX_JUMP; }
        if (t == 0) return EX_NEXT;
        LANES(x->lane_pc[l] = (t >> l & 1) ? pc + uimm : pc + 4);
        return EX_SPLIT;
    }
    case OP_ECALL: return EX_EXIT;
    case OP_EBREAK:
        snprintf(err, errlen, "ebreak at pc 0x%08x", pc);
        return EX_FAULT;
    case OP_CSRRW: case OP_CSRRS: case OP_CSRRC: case OP_CSRRWI: case OP_CSRRSI: case OP_CSRRCI: {
        unsigned csr = in->csr;
        bool imm_form = in->op >= OP_CSRRWI;
        unsigned kind = imm_form ? in->op - OP_CSRRWI : in->op - OP_CSRRW; /* 0 w, 1 s, 2 c */
        bool writes = kind == 0 || (imm_form ? in->imm != 0 : in->rs1 != 0);
        unsigned l0 = (unsigned)__builtin_ctz(m);
        uint32_t wv = imm_form ? (uint32_t)in->imm : a[l0];
        if (csr_read(x, ids, csr, l0) < 0) {
            snprintf(err, errlen, "illegal CSR 0x%03x at pc 0x%08x", csr, pc);
            return EX_FAULT;
        }
        if (in->rd != RV_SINK) LANES(d[l] = (uint32_t)csr_read(x, ids, csr, l));
        if (!writes) return EX_NEXT;
        if (csr == FG_CSR_BARRIER) return EX_BARRIER;
        if (csr <= 3) {
            uint32_t old = (uint32_t)csr_read(x, ids, csr, l0);
            uint32_t nv = kind == 0 ? wv : kind == 1 ? (old | wv) : (old & ~wv);
            if (csr == 1) x->fflags = nv & 31;
            else if (csr == 2) x->frm = nv & 7;
            else { x->fflags = nv & 31; x->frm = (nv >> 5) & 7; }
            return EX_NEXT;
        }
        snprintf(err, errlen, "write to read-only CSR 0x%03x at pc 0x%08x", csr, pc);
        return EX_FAULT;
    }
    default:
        snprintf(err, errlen, "illegal instruction at pc 0x%08x", pc);
        return EX_FAULT;
    }
    return EX_NEXT;
}

void rv_prov_exec(rv_lanes *x, const rv_inst *in, uint32_t m) {
    uint8_t *d = x->prov[in->rd];
    const uint8_t *a = x->prov[in->rs1], *b = x->prov[in->rs2];
    switch (in->op) {
    case OP_ADDI: case OP_ANDI: LANES(d[l] = a[l]); break; /* p + k, mv, p & ~3 */
    case OP_ADD: case OP_AND: /* p + i (either side); p + q means nothing */
        LANES(d[l] = !a[l] ? b[l] : !b[l] ? a[l] : RV_PROV_LOST);
        break;
    case OP_SUB: LANES(d[l] = b[l] ? RV_PROV_NONE : a[l]); break; /* p - i; p - q is a length */
    default: LANES(d[l] = RV_PROV_NONE); break;
    }
}
