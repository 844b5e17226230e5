/* fg_json: see fg_json.h. */
#include "fg_json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int fg_json_write(const cJSON *root, const char *path, char *err, size_t errlen) {
    char dir[512];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = 0;
        if (mkdir(dir, 0777) && errno != EEXIST) {
            snprintf(err, errlen, "mkdir %s: %s", dir, strerror(errno));
            return -1;
        }
    }
    char *txt = cJSON_Print(root);
    FILE *f = txt ? fopen(path, "w") : NULL;
    int bad = !f || fputs(txt, f) < 0;
    if (f && fclose(f)) bad = 1;
    if (bad) snprintf(err, errlen, "cannot write %s: %s", path, txt ? strerror(errno) : "out of memory");
    free(txt);
    return bad ? -1 : 0;
}
