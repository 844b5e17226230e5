/* fuzz_cli: fg_run's command line (sim/prog/fg_run_cli.c fg_run_parse: the
 * options, buffer and argument specs, dimensions, numbers, --dump / --print
 * references, --config and --set into the GPU configuration), up to, not
 * including, building the GPU and running.  `make fuzz`
 * runs it under libFuzzer; make test replays tests/fuzz/corpus/cli/
 * (fuzz_main.c).
 *
 * Input: the arguments, one per line (argv[0] is added).  A --config value
 * must be a relative path without ".." (a file of the tree, e.g.
 * configs/edge.ini), or the input is skipped: the fuzzer must not read
 * devices or block on a FIFO.  Every failure must be a clear error (exit
 * status 2), never a crash. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fg_run_cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_ARGS = 64 };

static int config_ok(const char *p) {
    struct stat st;
    return p[0] && p[0] != '/' && !strstr(p, "..") && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!fg_run_errf) fg_run_errf = fopen("/dev/null", "w"); /* the errors' text is not checked */
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    char *argv[MAX_ARGS + 1];
    int argc = 0;
    argv[argc++] = "fg_run";
    for (char *line = text; line && argc < MAX_ARGS;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        argv[argc++] = line;
        line = nl ? nl + 1 : NULL;
    }
    argv[argc] = NULL;
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--config") && !config_ok(argv[i + 1])) goto out;
    fg_run_opts o;
    int rc = fg_run_parse(argc, argv, &o);
    if (rc > 0 && rc != 2) abort(); /* a bad command line is exit status 2, nothing else */
    if (rc < 0 && !o.kpath) abort(); /* accepted without --kernel */
    fg_run_opts_free(&o);
out:
    free(text);
    return 0;
}
