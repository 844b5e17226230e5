/* The replay driver of the fuzz harnesses (tests/fuzz/fuzz_*.c) for make
 * test: runs LLVMFuzzerTestOneInput on every file of the directories or
 * files named on the command line (the kept corpus: inputs that once
 * crashed, and hand-made malformed ones) and prints one TAP line each; a
 * crash or a sanitizer report fails the program.  libFuzzer's own main is
 * used instead under `make fuzz`. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned n;

static void one(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("not ok %u - %s: cannot open\n", ++n, path);
        return;
    }
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *d = malloc(sz > 0 ? (size_t)sz : 1);
    size_t got = d ? fread(d, 1, (size_t)(sz > 0 ? sz : 0), f) : 0;
    fclose(f);
    LLVMFuzzerTestOneInput(d, got);
    free(d);
    printf("ok %u - %s\n", ++n, path);
    fflush(stdout);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            struct dirent **names;
            int k = scandir(argv[i], &names, NULL, alphasort);
            for (int j = 0; j < k; j++) {
                if (names[j]->d_name[0] != '.') {
                    char p[4096];
                    snprintf(p, sizeof p, "%s/%s", argv[i], names[j]->d_name);
                    one(p);
                }
                free(names[j]);
            }
            free(names);
        } else {
            one(argv[i]);
        }
    }
    printf("1..%u\n", n);
    return n ? 0 : 1;
}
