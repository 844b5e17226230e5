/* fuzz_config: the INI configuration reader with --set overrides
 * (sim/harness/fg_config.c).  `make fuzz` runs it under
 * libFuzzer; make test replays tests/fuzz/corpus/config/ (fuzz_main.c).
 *
 * Input: an INI file's text, then optionally a line "--" and one --set
 * assignment per line.  Every getter is exercised on the keys the machine
 * configs use, so parse, override, typed-read and unused-key paths all run;
 * every failure must be a clear error, never a crash. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fg_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char path[64];
    if (!path[0]) snprintf(path, sizeof path, "/tmp/fuzz_config.%d.ini", (int)getpid());
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    char *sets = strstr(text, "\n--\n");
    if (sets) *sets = 0, sets += 4;
    FILE *f = fopen(path, "wb");
    if (!f) return free(text), 0;
    fputs(text, f);
    fclose(f);
    char err[256];
    fg_config *c = fg_config_new();
    if (c && !fg_config_load(c, path, err, sizeof err)) {
        for (char *line = sets; line && *line;) {
            char *nl = strchr(line, '\n');
            if (nl) *nl = 0;
            fg_config_set(c, line, err, sizeof err);
            line = nl ? nl + 1 : NULL;
        }
        uint64_t u = 16;
        double d = 924;
        bool b = false;
        unsigned e = 0;
        static const char *const choices[] = {"rtl", "c", "lockstep", NULL};
        fg_config_u64(c, "gpu", "num_cores", 1, 64, &u, err, sizeof err);
        fg_config_u64(c, "mem", "dram_banks", 0, UINT64_MAX, &u, err, sizeof err);
        fg_config_double(c, "mem", "dram_mhz", 1, 1e4, &d, err, sizeof err);
        fg_config_bool(c, "preempt", "enable", &b, err, sizeof err);
        fg_config_enum(c, "mem", "fe_impl", choices, &e, err, sizeof err);
        (void)fg_config_str(c, "edge", "policy");
        fg_config_check_unused_section(c, "gpu", err, sizeof err);
        fg_config_check_unused(c, err, sizeof err);
    }
    fg_config_free(c);
    free(text);
    return 0;
}
