/* ELF loader (sim/simt/elf_load.c): what it relocates is decided by the
 * section of each relocation's symbol, not by symbol + addend, so a
 * pc-relative target far below its label (negative after linking at 0)
 * moves with the image like the rest (kernel sw/kernels/t_reloc.c). */
#include <stdio.h>
#include <stdlib.h>

#include "fg_tb.h"
#include "simt/simt_abi.h"
#include "gpu_tb.h"

static void test_reloc_negative_pcrel(void **state) {
    (void)state;
    char path[512], err[256];
    tb_kernel_path(path, sizeof path, "t_reloc");
    gpu_t *g = tb_simt_gpu(1);
    gpu_kernel k;
    /* another image first, so the kernel does not sit at the lowest address */
    assert_true(gpu_malloc(g, 12345) != 0);
    if (gpu_load_kernel(g, path, "t_reloc", &k, err, sizeof err)) fail_msg("%s", err);
    uint32_t out[6] = {0}, out_addr = (uint32_t)gpu_malloc(g, sizeof out);
    uint64_t param = gpu_malloc(g, 4);
    assert_int_equal(gpu_mem_write(g, param, &out_addr, 4), 0);
    tb_simt_run1(g, &k, 1, param, 100000, "t_reloc");
    gpu_mem_read(g, out_addr, out, sizeof out);
    printf("# kernel at 0x%llx: label - 100000 -> %u below, label + 100000 -> %u above\n",
           (unsigned long long)k.entry, out[0], out[1]);
    assert_int_equal(out[0], 100000);
    assert_int_equal(out[1], 100000);
    assert_true(out[2] > k.entry - 0x10000 && out[2] < k.entry + 0x10000); /* moved with the image */
    assert_int_equal(out[3], 0x600d);
    assert_int_equal(out[4], FG_SHARED_BASE);
    assert_int_equal(out[5], FG_SHARED_BASE);
    gpu_free(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_reloc_negative_pcrel)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
