#include "simt_elf.h"

#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt_abi.h"

/* As elf_load.c: a relocation's target moves with the image when its symbol
 * is defined in a loaded section. */
static bool sym_moves(const Elf32_Sym *syms, unsigned nsym, unsigned si, const Elf32_Shdr *sh, unsigned nsh) {
    if (si == 0 || si >= nsym) return false;
    const unsigned x = syms[si].st_shndx;
    if (x == SHN_UNDEF || x >= SHN_LORESERVE || x >= nsh) return false;
    return (sh[x].sh_flags & SHF_ALLOC) && sh[x].sh_addr < FG_SHARED_BASE;
}

static int load(simt_mem *m, const char *path, const uint8_t *f, size_t fsz, uint32_t base, const char *symbol,
                simt_elf_image *out, char *err, size_t errlen) {
#define BAD(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)
    Elf32_Ehdr eh;
    if (fsz < sizeof eh || memcmp(f, ELFMAG, SELFMAG) || f[EI_CLASS] != ELFCLASS32 || f[EI_DATA] != ELFDATA2LSB)
        BAD("%s: not a little-endian ELF32 file", path);
    memcpy(&eh, f, sizeof eh);
    if (eh.e_machine != EM_RISCV || eh.e_type != ET_EXEC) BAD("%s: not a RISC-V executable", path);
    if (eh.e_flags & 1) BAD("%s: uses compressed instructions", path);
    if (base & 0xfff) BAD("%s: load address 0x%08x not 4 KiB aligned", path, base);
    if (eh.e_shentsize != sizeof(Elf32_Shdr) || (uint64_t)eh.e_shoff + (uint64_t)eh.e_shnum * sizeof(Elf32_Shdr) > fsz)
        BAD("%s: truncated section headers", path);
    const Elf32_Shdr *sh = (const Elf32_Shdr *)(f + eh.e_shoff);
    uint64_t span = 0;
    int symtab = -1;
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        if (sh[i].sh_type != SHT_NOBITS && (uint64_t)sh[i].sh_offset + sh[i].sh_size > fsz)
            BAD("%s: section %u beyond the file", path, i);
        if (sh[i].sh_type == SHT_SYMTAB) symtab = (int)i;
        if (!(sh[i].sh_flags & SHF_ALLOC) || !sh[i].sh_size) continue;
        if (sh[i].sh_addr >= FG_SHARED_BASE) BAD("%s: static shared memory (this core has none)", path);
        if (sh[i].sh_addr + (uint64_t)sh[i].sh_size > span) span = sh[i].sh_addr + (uint64_t)sh[i].sh_size;
    }
    if (!span || symtab < 0) BAD("%s: no code or no symbol table", path);
    if (!simt_mem_in(m, base, span))
        BAD("%s: %llu bytes at 0x%08x beyond the memory", path, (unsigned long long)span, base);
    const Elf32_Sym *syms = (const Elf32_Sym *)(f + sh[symtab].sh_offset);
    const unsigned nsym = sh[symtab].sh_size / sizeof(Elf32_Sym);
    const char *strtab = (const char *)(f + sh[sh[symtab].sh_link].sh_offset);
    const size_t strsz = sh[sh[symtab].sh_link].sh_size;
    uint32_t entry = eh.e_entry;
    if (symbol) {
        unsigned i = 1;
        while (i < nsym && (syms[i].st_shndx == SHN_UNDEF || syms[i].st_name >= strsz ||
                            strcmp(strtab + syms[i].st_name, symbol)))
            i++;
        if (i >= nsym) BAD("%s: symbol '%s' not found", path, symbol);
        entry = syms[i].st_value;
    }
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        if (!(sh[i].sh_flags & SHF_ALLOC) || !sh[i].sh_size) continue;
        if (sh[i].sh_type == SHT_NOBITS) {
            uint8_t *z = calloc(1, sh[i].sh_size);
            if (!z) BAD("%s: out of memory", path);
            simt_mem_write(m, base + sh[i].sh_addr, z, sh[i].sh_size);
            free(z);
        } else {
            simt_mem_write(m, base + sh[i].sh_addr, f + sh[i].sh_offset, sh[i].sh_size);
        }
    }
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        if (sh[i].sh_type != SHT_RELA || sh[i].sh_info >= eh.e_shnum || !(sh[sh[i].sh_info].sh_flags & SHF_ALLOC))
            continue;
        for (unsigned j = 0; j < sh[i].sh_size / sizeof(Elf32_Rela); j++) {
            Elf32_Rela rel;
            memcpy(&rel, f + sh[i].sh_offset + j * sizeof rel, sizeof rel);
            const unsigned type = ELF32_R_TYPE(rel.r_info);
            const bool inside = sym_moves(syms, nsym, ELF32_R_SYM(rel.r_info), sh, eh.e_shnum);
            if ((uint64_t)rel.r_offset + 4 > span) BAD("%s: relocation outside the image (0x%x)", path, rel.r_offset);
            const uint32_t at = base + rel.r_offset;
            uint32_t w = simt_mem_rd32(m, at);
            switch (type) {
            case 1: case 26: /* R_RISCV_32, R_RISCV_HI20 (lo12 parts unchanged: base is 4 KiB aligned) */
                if (inside) simt_mem_wr32(m, at, w + base);
                break;
            case 23: /* R_RISCV_PCREL_HI20 to something that does not move */
                if (!inside) simt_mem_wr32(m, at, w - base);
                break;
            case 0: case 16: case 17: case 18: case 19: case 24: case 25: case 27: case 28:
            case 33: case 34: case 35: case 36: case 37: case 38: case 39: case 40:
            case 43: case 44: case 45: case 51: case 52: case 53: case 54: case 55: case 56: case 57:
                break; /* pc-relative, differences, lo12 parts, relaxation hints */
            default:
                BAD("%s: unsupported relocation type %u at 0x%x", path, type, rel.r_offset);
            }
        }
    }
    out->entry = base + entry;
    out->base = base;
    out->end = base + (uint32_t)span;
    return 0;
#undef BAD
}

int simt_elf_load(simt_mem *m, const char *path, uint32_t base, const char *symbol, simt_elf_image *out, char *err,
                  size_t errlen) {
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    long fsz = fseek(fp, 0, SEEK_END) == 0 ? ftell(fp) : -1;
    rewind(fp);
    uint8_t *f = fsz > 0 ? malloc((size_t)fsz) : NULL;
    if (!f || fread(f, 1, (size_t)fsz, fp) != (size_t)fsz) {
        fclose(fp);
        free(f);
        snprintf(err, errlen, "%s: read error", path);
        return -1;
    }
    fclose(fp);
    const int rc = load(m, path, f, (size_t)fsz, base, symbol, out, err, errlen);
    free(f);
    return rc;
}
