/* elf_load: loads a RISC-V RV32IMAF kernel ELF into GPU global memory.
 *
 * Kernels are linked at address 0 by sw/crt/kernel.ld with
 * --emit-relocs; the loader copies the allocatable sections to a
 * 4 KiB-aligned block of global memory and applies the absolute
 * relocations (pc-relative ones move with the image).  Sections at
 * FG_SHARED_BASE (.shared) are the kernel's static shared memory: not
 * loaded, and pc-relative references to them are re-aimed.  What moves is
 * decided by the section of the relocation's symbol (sym_moves).  Several
 * kernels can be loaded at once. */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt/gpu_state.h"
#include "simt/simt_abi.h"

#define ERR(...) do { snprintf(err, errlen, __VA_ARGS__); goto fail; } while (0)

static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }

/* Whether a relocation's target moves with the image: decided by the section
 * its symbol is defined in (a loaded one moves; .shared, absolute and
 * undefined symbols do not), never by symbol + addend, which for a
 * pc-relative "label - 10000" near address 0 wraps to 0xFFFFxxxx. */
static bool sym_moves(const Elf32_Sym *syms, unsigned nsym, unsigned si, const Elf32_Shdr *sh, unsigned nsh) {
    if (si == 0 || si >= nsym) return false;
    unsigned x = syms[si].st_shndx;
    if (x == SHN_UNDEF || x >= SHN_LORESERVE || x >= nsh) return false;
    return (sh[x].sh_flags & SHF_ALLOC) && sh[x].sh_addr < FG_SHARED_BASE;
}

/* code symbols by address; at one address a function before a label */
static int sym_cmp(const void *a, const void *b) {
    const simt_sym *x = a, *y = b;
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    return (y->size > 0) - (x->size > 0);
}

int gpu_load_kernel(gpu_t *g, const char *path, const char *symbol, gpu_kernel *out, char *err,
                    size_t errlen) {
    uint8_t *f = NULL;
    long fsz = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp) { snprintf(err, errlen, "kernel %s: cannot open: %s", path, strerror(errno)); return -1; }
    if (fseek(fp, 0, SEEK_END) == 0) fsz = ftell(fp);
    rewind(fp);
    if (fsz < 0) fsz = 0;
    f = malloc((size_t)fsz + 1);
    if (!f || fread(f, 1, (size_t)fsz, fp) != (size_t)fsz) { fclose(fp); ERR("kernel %s: read error", path); }
    fclose(fp);
    if (fsz < 4 || memcmp(f, ELFMAG, SELFMAG) != 0) {
        if (fsz < (long)sizeof(Elf32_Ehdr) && fsz >= 4 && memcmp(f, ELFMAG, SELFMAG) == 0) goto trunc_hdr;
        ERR("kernel %s: not an ELF file", path);
    }
    if (fsz < (long)sizeof(Elf32_Ehdr)) goto trunc_hdr;
    if (f[EI_CLASS] != ELFCLASS32) ERR("kernel %s: not ELF32 (class %u); build for RV32 (-march=rv32imaf_zicsr)", path, f[EI_CLASS]);
    if (f[EI_DATA] != ELFDATA2LSB) ERR("kernel %s: not little-endian", path);
    Elf32_Ehdr eh;
    memcpy(&eh, f, sizeof eh);
    if (eh.e_machine != EM_RISCV) ERR("kernel %s: not RISC-V (e_machine %u)", path, eh.e_machine);
    if (eh.e_type != ET_EXEC) ERR("kernel %s: not an executable (e_type %u)", path, eh.e_type);
    if ((eh.e_flags & 0x6) != 0x2) {
        static const char *const abi[4] = {"soft-float (ilp32)", "single (ilp32f)", "double (ilp32d)", "quad"};
        ERR("kernel %s: wrong float ABI %s; kernels must use -mabi=ilp32f", path, abi[(eh.e_flags >> 1) & 3]);
    }
    if (eh.e_flags & 0x1) ERR("kernel %s: uses compressed (RVC) instructions; build with -march=rv32imaf_zicsr", path);
    if (eh.e_shentsize != sizeof(Elf32_Shdr) || eh.e_shnum == 0 ||
        (uint64_t)eh.e_shoff + (uint64_t)eh.e_shnum * sizeof(Elf32_Shdr) > (uint64_t)fsz)
        ERR("kernel %s: truncated (section header table beyond the file's %ld bytes)", path, fsz);
    Elf32_Shdr *sh = calloc(eh.e_shnum, sizeof *sh);
    if (!sh) ERR("kernel %s: out of memory", path);
    memcpy(sh, f + eh.e_shoff, eh.e_shnum * sizeof *sh);
    /* image span and static shared memory */
    uint64_t span = 0, shm = 0;
    int symtab = -1, nrela = 0;
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        if (sh[i].sh_type != SHT_NOBITS && sh[i].sh_type != SHT_NULL &&
            (uint64_t)sh[i].sh_offset + sh[i].sh_size > (uint64_t)fsz) {
            unsigned long long end = (unsigned long long)sh[i].sh_offset + sh[i].sh_size;
            free(sh); /* the message must not read sh[i] after this (found by make SAN=1) */
            ERR("kernel %s: truncated (section %u ends at %llu, file has %ld bytes)", path, i, end, fsz);
        }
        if (sh[i].sh_type == SHT_SYMTAB) symtab = (int)i;
        if (sh[i].sh_type == SHT_RELA) nrela++;
        if (!(sh[i].sh_flags & SHF_ALLOC) || sh[i].sh_size == 0) continue;
        uint64_t end = (uint64_t)sh[i].sh_addr + sh[i].sh_size;
        if (sh[i].sh_addr >= FG_SHARED_BASE) { if (end - FG_SHARED_BASE > shm) shm = end - FG_SHARED_BASE; }
        else if (end > span) span = end;
    }
    if (span == 0 || eh.e_entry >= span) { free(sh); ERR("kernel %s: no code (entry 0x%x)", path, eh.e_entry); }
    if (!nrela) { free(sh); ERR("kernel %s: no relocations; link with -Wl,--emit-relocs (mk/simt.mk)", path); }
    if (symtab < 0) { free(sh); ERR("kernel %s: no symbol table (stripped?)", path); }
    const Elf32_Sym *syms = (const Elf32_Sym *)(f + sh[symtab].sh_offset);
    unsigned nsym = sh[symtab].sh_size / sizeof(Elf32_Sym);
    const char *strtab = (const char *)(f + sh[sh[symtab].sh_link].sh_offset);
    size_t strsz = sh[sh[symtab].sh_link].sh_size;
    /* entry */
    uint32_t entry = eh.e_entry;
    if (symbol) {
        bool found = false;
        for (unsigned i = 0; i < nsym; i++) {
            if (syms[i].st_name >= strsz || strcmp(strtab + syms[i].st_name, symbol) != 0) continue;
            if (syms[i].st_shndx == SHN_UNDEF) continue;
            entry = syms[i].st_value;
            found = true;
            break;
        }
        if (!found || entry >= span) { free(sh); ERR("kernel %s: symbol '%s' not found", path, symbol); }
    }
    /* place: 4 KiB aligned so that lo12 parts of addresses never change */
    uint64_t raw = gpu_malloc(g, span + 4096);
    if (!raw) { free(sh); ERR("kernel %s: global memory full (%llu bytes needed)", path, (unsigned long long)span); }
    uint64_t base = (raw + 4095) & ~4095ull;
    uint32_t delta = (uint32_t)base;
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        if (!(sh[i].sh_flags & SHF_ALLOC) || sh[i].sh_addr >= FG_SHARED_BASE || !sh[i].sh_size) continue;
        if (sh[i].sh_type == SHT_NOBITS) memset(g->mem + base + sh[i].sh_addr, 0, sh[i].sh_size);
        else memcpy(g->mem + base + sh[i].sh_addr, f + sh[i].sh_offset, sh[i].sh_size);
    }
    /* relocations */
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        if (sh[i].sh_type != SHT_RELA || sh[i].sh_info >= eh.e_shnum) continue;
        const Elf32_Shdr *tgt = &sh[sh[i].sh_info];
        if (!(tgt->sh_flags & SHF_ALLOC) || tgt->sh_addr >= FG_SHARED_BASE) continue;
        unsigned n = sh[i].sh_size / sizeof(Elf32_Rela);
        for (unsigned j = 0; j < n; j++) {
            Elf32_Rela r;
            memcpy(&r, f + sh[i].sh_offset + j * sizeof r, sizeof r);
            unsigned type = ELF32_R_TYPE(r.r_info), si = ELF32_R_SYM(r.r_info);
            bool inside = sym_moves(syms, nsym, si, sh, eh.e_shnum);
            if ((uint64_t)r.r_offset + 4 > span) {
                free(sh);
                ERR("kernel %s: relocation outside the image (0x%x)", path, r.r_offset);
            }
            uint8_t *loc = g->mem + base + r.r_offset;
            uint32_t ins = rd32(loc);
            switch (type) {
            case 1: /* R_RISCV_32 */
                if (inside) { ins += delta; memcpy(loc, &ins, 4); }
                break;
            case 26: /* R_RISCV_HI20 (lui): lo12 unchanged since delta is 4 KiB aligned */
                if (inside) { ins += delta; memcpy(loc, &ins, 4); }
                break;
            case 23: /* R_RISCV_PCREL_HI20 (auipc) to something that does not move */
                if (!inside) { ins -= delta; memcpy(loc, &ins, 4); }
                break;
            case 0: case 16: case 17: case 18: case 19: case 24: case 25: case 27: case 28:
            case 33: case 34: case 35: case 36: case 37: case 38: case 39: case 40:
            case 43: case 44: case 45: case 51: case 52: case 53: case 54: case 55: case 56: case 57:
                break; /* pc-relative, differences, lo12 parts, relaxation hints */
            default:
                free(sh);
                ERR("kernel %s: unsupported relocation type %u at 0x%x (build with mk/simt.mk flags)", path, type,
                    r.r_offset);
            }
        }
    }
    /* registers per thread: every register the code names (+ ra, sp, a0 set at launch) */
    uint64_t used = (1ull << 1) | (1ull << 2) | (1ull << 10);
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        if (!(sh[i].sh_flags & SHF_EXECINSTR) || sh[i].sh_addr >= FG_SHARED_BASE) continue;
        for (uint32_t a = 0; a + 4 <= sh[i].sh_size; a += 4) {
            rv_inst in;
            rv_decode(rd32(f + sh[i].sh_offset + a), &in);
            if (in.op == OP_ILLEGAL) continue; /* data in text */
            used |= in.src_mask | in.dst_mask;
        }
    }
    used &= ~1ull;
    /* code symbols, for function+offset in fault and warp reports */
    unsigned n_sym = 0;
    simt_sym *sym = calloc(nsym ? nsym : 1, sizeof *sym);
    if (!sym) { free(sh); ERR("kernel %s: out of memory", path); }
    for (unsigned i = 1; i < nsym; i++) {
        const Elf32_Sym *y = &syms[i];
        unsigned ty = ELF32_ST_TYPE(y->st_info), x = y->st_shndx;
        if ((ty != STT_FUNC && ty != STT_NOTYPE) || x == SHN_UNDEF || x >= eh.e_shnum || y->st_name >= strsz ||
            !strtab[y->st_name] || !(sh[x].sh_flags & SHF_EXECINSTR) || y->st_value >= span)
            continue;
        const char *nm = strtab + y->st_name;
        if (ty == STT_NOTYPE && (nm[0] == '.' || nm[0] == '$')) continue; /* local labels, mapping symbols */
        sym[n_sym].addr = base + y->st_value;
        sym[n_sym].size = y->st_size;
        snprintf(sym[n_sym].name, sizeof sym[n_sym].name, "%s", nm);
        n_sym++;
    }
    qsort(sym, n_sym, sizeof *sym, sym_cmp);
    free(sh);
    /* record */
    if (g->n_img == g->cap_img) {
        unsigned n = g->cap_img ? g->cap_img * 2 : 8;
        simt_image *p = realloc(g->img, n * sizeof *p);
        if (!p) { free(sym); ERR("kernel %s: out of memory", path); }
        g->img = p;
        g->cap_img = n;
    }
    simt_image *im = &g->img[g->n_img++];
    memset(im, 0, sizeof *im);
    im->base = base;
    im->end = base + span;
    im->shmem_static = (uint32_t)shm;
    im->regs = (unsigned)__builtin_popcountll(used);
    im->reg_mask = used;
    im->sym = sym;
    im->n_sym = n_sym;
    const char *nm = symbol ? symbol : strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    snprintf(im->name, sizeof im->name, "%s", nm);
    gpu_decode_flush(g);
    memset(out, 0, sizeof *out);
    out->entry = base + entry;
    out->regs_per_thread = im->regs;
    out->static_shmem = im->shmem_static;
    snprintf(out->name, sizeof out->name, "%s", im->name);
    out->image_base = base;
    out->image_end = base + span;
    free(f);
    return 0;
trunc_hdr:
    snprintf(err, errlen, "kernel %s: truncated (%ld bytes, shorter than the ELF header)", path, fsz);
fail:
    free(f);
    return -1;
}
