#include "simt_asm.h"

#include <stdio.h>
#include <string.h>

void simt_asm_init(simt_asm *a, uint32_t base) {
    a->base = base;
    a->n = 0;
    a->nfix = 0;
    a->overflow = 0;
    for (unsigned i = 0; i < SIMT_ASM_LABELS; i++) a->label[i] = -1;
}

void simt_asm_emit(simt_asm *a, uint32_t word) {
    if (a->n >= SIMT_ASM_MAX) { a->overflow = 1; return; }
    a->w[a->n++] = word;
}

void simt_asm_li(simt_asm *a, unsigned rd, uint32_t v) {
    int32_t lo = (int32_t)(v << 20) >> 20; /* sign-extended low 12 bits */
    uint32_t hi = (v - (uint32_t)lo) >> 12;
    if (hi) {
        simt_asm_emit(a, A_LUI(rd, hi));
        if (lo) simt_asm_emit(a, A_ADDI(rd, rd, lo));
    } else {
        simt_asm_emit(a, A_ADDI(rd, 0, lo));
    }
}

void simt_asm_label(simt_asm *a, unsigned label) {
    if (label < SIMT_ASM_LABELS) a->label[label] = (int32_t)a->n;
    else a->overflow = 1;
}

static void use_label(simt_asm *a, uint32_t word, unsigned label) {
    if (label >= SIMT_ASM_LABELS || a->nfix >= SIMT_ASM_MAX) { a->overflow = 1; return; }
    a->fix[a->nfix].at = a->n;
    a->fix[a->nfix].label = label;
    a->nfix++;
    simt_asm_emit(a, word);
}

void simt_asm_branch(simt_asm *a, unsigned f3, unsigned rs1, unsigned rs2, unsigned label) {
    use_label(a, rv_b(0, rs2, rs1, f3), label);
}

void simt_asm_jal(simt_asm *a, unsigned rd, unsigned label) { use_label(a, rv_j(0, rd), label); }

int simt_asm_end(simt_asm *a, char *err, unsigned errlen) {
    if (a->overflow) {
        snprintf(err, errlen, "simt_asm: more than %u words or %u labels", SIMT_ASM_MAX, SIMT_ASM_LABELS);
        return -1;
    }
    for (unsigned i = 0; i < a->nfix; i++) {
        const unsigned at = a->fix[i].at, l = a->fix[i].label;
        if (a->label[l] < 0) {
            snprintf(err, errlen, "simt_asm: label %u used at word %u, never placed", l, at);
            return -1;
        }
        const int32_t off = 4 * (a->label[l] - (int32_t)at);
        uint32_t w = a->w[at];
        if ((w & 0x7f) == 0x63) {
            if (off < -4096 || off > 4094) {
                snprintf(err, errlen, "simt_asm: branch at word %u out of range", at);
                return -1;
            }
            a->w[at] = rv_b(off, w >> 20 & 31, w >> 15 & 31, w >> 12 & 7);
        } else {
            a->w[at] = rv_j(off, w >> 7 & 31);
        }
    }
    return 0;
}
