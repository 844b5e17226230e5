/* fg_json: a program's machine-readable results (results/NAME.json): writing
 * them, and reading back the per-point files of a sweep (scripts/sweep.py). */
#ifndef FG_JSON_H
#define FG_JSON_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "fg_block.h"

/* Prints root to path, creating path's directory (one level) when missing.
 * An object without "sources" gets the simulator's sources fingerprint
 * (fg_sources.h) first, so every result names the simulation that printed it.
 * 0, or -1 with a message naming the path. */
int fg_json_write(cJSON *root, const char *path, char *err, size_t errlen);

/* Adds root.blocks = {block name: "rtl" | "c" | "lockstep"} for the n uses
 * (BRIEF: every experiment says which blocks ran as RTL).  A block listed
 * twice with different implementations is recorded as "mixed". */
void fg_json_add_blocks(cJSON *root, const fg_block_use *uses, unsigned n);

/* Parses the JSON file at path: the parsed tree (cJSON_Delete it), or NULL
 * with a message naming the path. */
cJSON *fg_json_read(const char *path, char *err, size_t errlen);

/* Reads a list file, one JSON file's path a line (what the sweep runner
 * passes to a program's --merge), into an array of the parsed files, in
 * order; NULL with a message. */
cJSON *fg_json_read_list(const char *listpath, char *err, size_t errlen);

/* The number at a dotted path ("edge.pcie_doorbell_ns.avg"); 0 if absent. */
double fg_json_num(const cJSON *o, const char *path);

#endif
