/* fg_json: see fg_json.h. */
#include "fg_json.h"

#include "fg_sources.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int fg_json_write(cJSON *root, const char *path, char *err, size_t errlen) {
    if (cJSON_IsObject(root) && !cJSON_HasObjectItem(root, "sources") &&
        !cJSON_AddStringToObject(root, "sources", fg_sources_fingerprint)) {
        snprintf(err, errlen, "cannot write %s: out of memory", path);
        return -1;
    }
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

void fg_json_add_blocks(cJSON *root, const fg_block_use *uses, unsigned n) {
    cJSON *b = cJSON_AddObjectToObject(root, "blocks");
    for (unsigned i = 0; b && i < n; i++) {
        const cJSON *old = cJSON_GetObjectItemCaseSensitive(b, uses[i].block);
        const char *v = fg_impl_name(uses[i].impl);
        if (!old) cJSON_AddStringToObject(b, uses[i].block, v);
        else if (strcmp(old->valuestring, v)) cJSON_ReplaceItemInObjectCaseSensitive(b, uses[i].block, cJSON_CreateString("mixed"));
    }
}

cJSON *fg_json_read(const char *path, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *txt = malloc(cap);
    for (size_t k; txt && (k = fread(txt + n, 1, cap - n - 1, f)) > 0;) {
        n += k;
        if (n + 1 == cap) {
            char *t = realloc(txt, cap *= 2);
            if (!t) free(txt);
            txt = t;
        }
    }
    int rd = ferror(f);
    fclose(f);
    if (!txt || rd) {
        snprintf(err, errlen, "cannot read %s: %s", path, txt ? "read error" : "out of memory");
        free(txt);
        return NULL;
    }
    txt[n] = 0;
    cJSON *j = cJSON_Parse(txt);
    if (!j) snprintf(err, errlen, "%s: not valid JSON (near byte %ld)", path, (long)(cJSON_GetErrorPtr() - txt));
    free(txt);
    return j;
}

cJSON *fg_json_read_list(const char *listpath, char *err, size_t errlen) {
    FILE *f = fopen(listpath, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", listpath, strerror(errno));
        return NULL;
    }
    cJSON *arr = cJSON_CreateArray();
    char line[4096];
    while (arr && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0]) continue;
        cJSON *j = fg_json_read(line, err, errlen);
        if (!j) {
            cJSON_Delete(arr);
            arr = NULL;
            break;
        }
        cJSON_AddItemToArray(arr, j);
    }
    fclose(f);
    if (arr && !cJSON_GetArraySize(arr)) {
        snprintf(err, errlen, "%s: no JSON files listed", listpath);
        cJSON_Delete(arr);
        arr = NULL;
    }
    return arr;
}

double fg_json_num(const cJSON *o, const char *path) {
    char key[128];
    while (o && *path) {
        size_t n = strcspn(path, ".");
        snprintf(key, sizeof key, "%.*s", (int)n, path);
        o = cJSON_GetObjectItemCaseSensitive(o, key);
        path += n + (path[n] == '.');
    }
    return cJSON_IsNumber(o) ? o->valuedouble : 0;
}
