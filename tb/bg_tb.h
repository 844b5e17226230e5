/* bg_tb: test helpers for bg_kernels.h runs (test_bg_kernels, test_cm_apps). */
#ifndef BG_TB_H
#define BG_TB_H

#include <stdbool.h>

#include "simt/gpu.h"
#include "work/bg_kernels.h"

/* Changes one element of the run's main output (bg_output; integer + 1, or a
 * float scaled): bg_check must fail naming its index; restored, it passes
 * again.  Fails the cmocka test otherwise. */
void tb_bg_corrupt_and_check(bg_run *b, gpu_t *g, bool is_int);

#endif
