/* fg_config: configuration files (configs/NAME.ini, parsed by Debian's libinih)
 * plus command-line overrides "--set section.key=value".  Every getter
 * rejects malformed values with a message naming the file, section and key;
 * fg_config_check_unused() reports keys nobody read (typos). */
#ifndef FG_CONFIG_H
#define FG_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fg_util.h"

typedef struct fg_config fg_config;

fg_config *fg_config_new(void);
void fg_config_free(fg_config *c);
/* Loads an INI file; later loads and overrides win.  Returns 0 or -1 with a
 * message in err (missing file; a syntax error names the file, the line,
 * what is wrong on it and the line). */
int fg_config_load(fg_config *c, const char *path, char *err, size_t errlen);
/* "section.key=value" */
int fg_config_set(fg_config *c, const char *assignment, char *err, size_t errlen);
/* A program's --threads N as the assignment "gpu.threads=N" for
 * fg_config_set (one buffer: the last --threads wins, as the last --set). */
const char *fg_config_threads_set(const char *n);

/* Typed getters: return 0 and store the value (or leave *out = default when
 * the key is absent); -1 with a message when present but malformed or out
 * of [min, max].  Numbers are read by fg_num_* (fg_util.h): decimal or 0x
 * hex, nothing after them, no octal. */
int fg_config_u64(fg_config *c, const char *section, const char *key, uint64_t min, uint64_t max,
                  uint64_t *out, char *err, size_t errlen);
/* A size that must be a power of two: any other value is refused. */
int fg_config_pow2(fg_config *c, const char *section, const char *key, uint64_t min, uint64_t max,
                   uint64_t *out, char *err, size_t errlen);
int fg_config_double(fg_config *c, const char *section, const char *key, double min, double max,
                     double *out, char *err, size_t errlen);
int fg_config_bool(fg_config *c, const char *section, const char *key, bool *out, char *err,
                   size_t errlen);
/* Returns the raw string or NULL; the pointer lives as long as c. */
const char *fg_config_str(fg_config *c, const char *section, const char *key);
/* One of choices[] (NULL-terminated) -> its index in *out. */
int fg_config_enum(fg_config *c, const char *section, const char *key, const char *const *choices,
                   unsigned *out, char *err, size_t errlen);
/* -1 with a message listing keys that were set but never read.  This and
 * the two below first refuse any --set override no getter read, naming the
 * sections the program read (a typo'd section or key), then a loaded file
 * that sets nothing the program read (empty, or only other programs'
 * sections: the run would be on the built-in defaults). */
int fg_config_check_unused(const fg_config *c, char *err, size_t errlen);
/* The same for the keys of one section only (a program that reads one
 * section of a machine file, e.g. fg_run and [gpu]). */
int fg_config_check_unused_section(const fg_config *c, const char *section, char *err, size_t errlen);
/* A program's whole check, after its loaders ran: -1 with a message for a
 * --set override no getter read (naming the sections the getters read), a
 * file's section that no program reads (a typo; a shared machine file's
 * sections for other programs are left alone), or a key never read in one
 * of the sections of read (NULL-terminated: those the program reads whole). */
int fg_config_check_sections(const fg_config *c, const char *const *read, char *err, size_t errlen);

#endif
