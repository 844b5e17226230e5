/* bg_tb: test helpers for bg_kernels.h runs (bg_tb.h). */
#include "bg_tb.h"

#include <stdio.h>
#include <string.h>

#include "fg_tb.h"

void tb_bg_corrupt_and_check(bg_run *b, gpu_t *g, bool is_int) {
    char err[512];
    uint64_t bytes, addr = bg_output(b, &bytes);
    assert_true(addr != 0 && bytes >= 8);
    const uint64_t idx = bytes / 4 / 2 + 3;
    uint32_t orig, bad;
    assert_int_equal(gpu_mem_read(g, addr + idx * 4, &orig, 4), 0);
    if (is_int) {
        bad = orig + 1;
    } else {
        float f;
        memcpy(&f, &orig, 4);
        f = f * 1.001f + 0.01f;
        memcpy(&bad, &f, 4);
    }
    assert_int_equal(gpu_mem_write(g, addr + idx * 4, &bad, 4), 0);
    assert_int_equal(bg_check(b, err, sizeof err), -1);
    char want[32];
    snprintf(want, sizeof want, "[%llu]", (unsigned long long)idx);
    if (!strstr(err, want)) fail_msg("corrupted element %s not named in: %s", want, err);
    printf("#   corrupted element caught: %s\n", err);
    assert_int_equal(gpu_mem_write(g, addr + idx * 4, &orig, 4), 0);
    if (bg_check(b, err, sizeof err)) fail_msg("after restoring: %s", err);
}
