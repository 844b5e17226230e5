/* simt_elf: loads a kernel ELF (sw/crt/kernel.ld: linked at 0, with its
 * relocations) into a simt_mem image at a 4 KiB-aligned address, as
 * sim/simt/elf_load.c does into the C model's global memory (that loader
 * needs a whole gpu_t).  Only what the RTL core runs: no static shared
 * memory, no symbols beyond the entry. */
#ifndef SIMT_ELF_H
#define SIMT_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "simt_tbmem.h"

typedef struct {
    uint32_t entry;      /* base + the ELF entry (or the symbol's address) */
    uint32_t base, end;  /* the image in memory */
} simt_elf_image;

/* symbol NULL: the ELF entry.  0, or -1 with the reason in err. */
int simt_elf_load(simt_mem *m, const char *path, uint32_t base, const char *symbol, simt_elf_image *out, char *err,
                  size_t errlen);

#endif
