/* Loader test kernel (tests/test_elf_load.c): references the loader must
 * relocate, or leave alone, whatever their addend.
 *   out[0], out[1]: pc-relative targets 100000 bytes below / above a label
 *     (the kernel is linked at 0, so "1f - 100000" wraps to 0xFFFExxxx, as in
 *     riscv-tests' auipc test); both must stay 100000 bytes from the label;
 *   out[2], out[3]: an absolute pointer (R_RISCV_32) to a global, and what
 *     it reads; out[4]: an absolute pointer to a .shared variable (not moved);
 *   out[5]: the .shared variable's address taken pc-relatively (re-aimed). */
#include "fg_kernel.h"

struct t_reloc_args {
    uint32_t *out;
};

static volatile uint32_t word = 0x600d;
FG_SHARED uint32_t sh_word;
static volatile uint32_t *volatile ptrs[2] = {&word, &sh_word};

void t_reloc(const struct t_reloc_args *p) {
    uint32_t below, above, here;
    __asm__ volatile("lla %0, 1f - 100000\n\t"
                     "lla %1, 1f + 100000\n"
                     "1:\tauipc %2, 0"
                     : "=&r"(below), "=&r"(above), "=r"(here));
    p->out[0] = here - below;
    p->out[1] = above - here;
    p->out[2] = (uint32_t)ptrs[0];
    p->out[3] = *ptrs[0];
    p->out[4] = (uint32_t)ptrs[1];
    p->out[5] = (uint32_t)&sh_word;
}
