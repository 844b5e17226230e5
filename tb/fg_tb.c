#include "fg_tb.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "fg_shim.h"

fg_impl tb_impl(void) {
    fg_impl impl = FG_IMPL_LOCKSTEP;
    const char *s = getenv("FG_IMPL");
    if (s && *s && fg_impl_parse(s, &impl)) fail_msg("FG_IMPL=%s: expected c, rtl or lockstep", s);
    return impl;
}

fg_block *tb_block(const fg_block_class *cls, const void *params, const char *wave_name) {
    fg_impl impl = tb_impl();
    char err[256];
    fg_block *b = fg_block_new(cls, impl, params, err, sizeof err);
    if (!b) fail_msg("%s", err);
    static bool xseed_shown;
    if (impl != FG_IMPL_C && !xseed_shown) { /* once a program: one seed for all its models */
        xseed_shown = true;
        printf("# RTL initial state: FG_XSEED=%" PRIu64 "%s\n", fg_rtl_xseed(),
               fg_rtl_xseed() ? "" : " (FG_XINIT=0: all zero)");
    }
    const char *dir = getenv("FG_WAVE_DIR");
    if (dir && *dir && wave_name && impl != FG_IMPL_C) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.fst", dir, wave_name);
        if (fg_block_trace(b, path, fg_env_u64("FG_WAVE_START", 0), fg_env_u64("FG_WAVE_END", 0)))
            fail_msg("cannot open %s", path);
        fg_block_reset(b); /* restart so the trace holds the whole test */
    }
    return b;
}

void tb_step(fg_block *b, const void *in) {
    if (fg_block_step(b, in)) fail_msg("%s", b->error);
}

uint64_t tb_seed(const char *what) {
    uint64_t seed = fg_seed_from_env();
    /* one line that repeats the run: the stimulus seed and the RTL's initial
     * state (drawn apart when neither is given) */
    if (fg_rtl_xseed())
        printf("# %s: seed=%" PRIu64 " (repeat with FG_SEED=%" PRIu64 " FG_XSEED=%" PRIu64 ")\n", what, seed, seed,
               fg_rtl_xseed());
    else
        printf("# %s: seed=%" PRIu64 " (repeat with FG_SEED=%" PRIu64 " FG_XINIT=0)\n", what, seed, seed);
    return seed;
}

uint64_t tb_cycles(uint64_t dflt) { return fg_env_u64("FG_CYCLES", dflt); }

void tb_test_filter(void) {
    /* the filters themselves: tb/fg_tb_filter.c, around every cmocka group */
}
