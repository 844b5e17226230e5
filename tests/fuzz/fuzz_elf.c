/* fuzz_elf: the kernel ELF loader (sim/simt/elf_load.c,
 * gpu_load_kernel).  `make fuzz` runs it under libFuzzer; make test replays
 * tests/fuzz/corpus/elf/ (fuzz_main.c).  Each input is loaded as a kernel
 * file into a fresh small GPU (C twins, so no verilated model is needed);
 * every malformed file must give a clear error, never a crash or a write
 * outside the image. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "simt/gpu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char path[64];
    if (!path[0]) snprintf(path, sizeof path, "/tmp/fuzz_elf.%d.elf", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    gpu_config c;
    gpu_config_default(&c);
    c.num_cores = 1;
    c.global_mem_bytes = 8u << 20;
    c.mem.fe_region_bytes = 0;
    c.mem.fe_impl = FG_IMPL_C;
    c.pre.impl = FG_IMPL_C;
    char err[512];
    gpu_t *g = gpu_new(&c, err, sizeof err);
    if (!g) return 0;
    gpu_kernel k;
    static const char *const syms[] = {"main", "saxpy", "_start"};
    for (unsigned i = 0; i < 3; i++) gpu_load_kernel(g, path, syms[i], &k, err, sizeof err);
    gpu_free(g);
    return 0;
}
