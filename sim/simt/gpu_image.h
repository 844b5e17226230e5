/* gpu_image: a kernel image loaded into GPU memory (elf_load.c) and its code
 * symbols, which gpu_image.c looks a pc up in. */
#ifndef GPU_IMAGE_H
#define GPU_IMAGE_H

#include <stddef.h>
#include <stdint.h>

/* A code symbol of a loaded kernel image (functions, and labels of the
 * startup code), at its address in GPU memory. */
typedef struct {
    uint64_t addr;
    uint32_t size;
    char name[48];
} simt_sym;

typedef struct {
    uint64_t base, end;       /* code+data span in GPU memory */
    uint32_t shmem_static;
    unsigned regs;            /* registers per thread scanned from the code */
    uint64_t reg_mask;        /* which ones (x0..x31, f0..f31): saved when an event warp preempts */
    char name[64];
    simt_sym *sym;            /* its code symbols by address (fault and warp reports: function+offset) */
    unsigned n_sym;
} simt_image;

/* "function+0xoff" of pc in buf when it falls inside one of the n_img
 * images' code (else "image+0xoff" of its image, or "?" and -1 when in none). */
int gpu_image_symbol(const simt_image *img, unsigned n_img, uint64_t pc, char *buf, size_t len);
/* The address of code symbol `name` (len bytes) in one of the images into
 * *addr: 0, or -1 when no image has it. */
int gpu_image_lookup(const simt_image *img, unsigned n_img, const char *name, size_t len, uint64_t *addr);
/* Appends " (function+0xoff)" after every "pc 0x%08x" in msg (cap bytes)
 * that falls inside one of the images' code. */
void gpu_image_annotate_pcs(const simt_image *img, unsigned n_img, char *msg, size_t cap);

#endif
