/* fg_json: writing a program's machine-readable results (results/NAME.json). */
#ifndef FG_JSON_H
#define FG_JSON_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* Prints root to path, creating path's directory (one level) when missing.
 * 0, or -1 with a message naming the path. */
int fg_json_write(const cJSON *root, const char *path, char *err, size_t errlen);

#endif
