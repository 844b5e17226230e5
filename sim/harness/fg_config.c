#include "fg_config.h"

#include "fg_util.h"

#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *section, *key, *value, *origin;
    bool used;
} entry;

/* a loaded file and the entries it set (indexes into e: a later file or
 * --set overriding a key keeps its entry) */
typedef struct {
    char *path;
    size_t *keys;
    size_t n, cap;
} file_rec;

struct fg_config {
    entry *e;
    size_t n, cap;
    char **read; /* every section a getter asked about, present or not */
    size_t nread, capread;
    file_rec *files;
    size_t nfiles, capfiles;
};

fg_config *fg_config_new(void) { return calloc(1, sizeof(fg_config)); }

void fg_config_free(fg_config *c) {
    if (!c) return;
    for (size_t i = 0; i < c->n; i++) {
        free(c->e[i].section);
        free(c->e[i].key);
        free(c->e[i].value);
        free(c->e[i].origin);
    }
    free(c->e);
    for (size_t i = 0; i < c->nread; i++) free(c->read[i]);
    free(c->read);
    for (size_t i = 0; i < c->nfiles; i++) {
        free(c->files[i].path);
        free(c->files[i].keys);
    }
    free(c->files);
    free(c);
}

static entry *find(const fg_config *c, const char *section, const char *key) {
    for (size_t i = c->n; i-- > 0;)
        if (!strcmp(c->e[i].section, section) && !strcmp(c->e[i].key, key)) return &c->e[i];
    return NULL;
}

static int put(fg_config *c, const char *section, const char *key, const char *value,
               const char *origin) {
    entry *x = find(c, section, key);
    if (x) {
        char *v = strdup(value), *o = strdup(origin);
        if (!v || !o) {
            free(v);
            free(o);
            return -1;
        }
        free(x->value);
        free(x->origin);
        x->value = v;
        x->origin = o;
        return 0;
    }
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 32;
        entry *ne = realloc(c->e, cap * sizeof *ne);
        if (!ne) return -1;
        c->e = ne;
        c->cap = cap;
    }
    entry *e = &c->e[c->n];
    e->section = strdup(section);
    e->key = strdup(key);
    e->value = strdup(value);
    e->origin = strdup(origin);
    e->used = false;
    if (!e->section || !e->key || !e->value || !e->origin) return -1;
    c->n++;
    return 0;
}

/* find() for a getter: also notes that the program reads this section */
static entry *lookup(fg_config *c, const char *section, const char *key) {
    bool seen = false;
    for (size_t i = 0; i < c->nread && !seen; i++) seen = !strcmp(c->read[i], section);
    if (!seen && c->nread == c->capread) {
        size_t cap = c->capread ? 2 * c->capread : 16;
        char **nr = realloc(c->read, cap * sizeof *nr);
        if (nr) c->read = nr, c->capread = cap;
    }
    if (!seen && c->nread < c->capread && (c->read[c->nread] = strdup(section))) c->nread++;
    return find(c, section, key);
}

typedef struct {
    fg_config *c;
    const char *path;
} load_ctx;

static int on_kv(void *user, const char *section, const char *name, const char *value) {
    load_ctx *l = user;
    if (put(l->c, section, name, value, l->path)) return 0;
    file_rec *r = &l->c->files[l->c->nfiles - 1];
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 32, *nk = realloc(r->keys, cap * sizeof *nk);
        if (!nk) return 0;
        r->keys = nk;
        r->cap = cap;
    }
    r->keys[r->n++] = (size_t)(find(l->c, section, name) - l->c->e);
    return 1;
}

/* What is wrong on line `line` of path: libinih reports only the number of
 * the first line it could not read (a section header without its ']', a
 * line that is neither key = value nor a comment, or one longer than its
 * INI_MAX_LINE of 200 characters). */
static void syntax_error(const char *path, int line, char *err, size_t errlen) {
    char text[4096] = "";
    FILE *f = fopen(path, "r");
    for (int i = 0; f && i < line && fgets(text, sizeof text, f); i++) {
    }
    if (f) fclose(f);
    text[strcspn(text, "\r\n")] = 0;
    const char *t = text + strspn(text, " \t");
    const char *why = strlen(text) >= 199   ? "longer than the reader's 199 characters"
                      : *t == '['           ? "a section header needs its closing ']'"
                      : !strpbrk(t, "=:")   ? "expected key = value, [section] or a ; comment"
                                            : "cannot be read";
    snprintf(err, errlen, "config %s:%d: syntax error: %s: '%.60s%s'", path, line, why, t,
             strlen(t) > 60 ? "..." : "");
}

int fg_config_load(fg_config *c, const char *path, char *err, size_t errlen) {
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "config %s: %s", path, strerror(errno));
        return -1;
    }
    if (c->nfiles == c->capfiles) {
        size_t cap = c->capfiles ? 2 * c->capfiles : 4;
        file_rec *nf = realloc(c->files, cap * sizeof *nf);
        if (!nf) {
            fclose(f);
            snprintf(err, errlen, "config %s: out of memory", path);
            return -1;
        }
        c->files = nf;
        c->capfiles = cap;
    }
    c->files[c->nfiles] = (file_rec){.path = strdup(path)};
    if (!c->files[c->nfiles].path) {
        fclose(f);
        snprintf(err, errlen, "config %s: out of memory", path);
        return -1;
    }
    c->nfiles++;
    load_ctx l = {c, path};
    int rc = ini_parse_file(f, on_kv, &l);
    fclose(f);
    if (rc > 0) {
        syntax_error(path, rc, err, errlen);
        return -1;
    }
    if (rc) {
        snprintf(err, errlen, "config %s: out of memory", path);
        return -1;
    }
    return 0;
}

int fg_config_set(fg_config *c, const char *a, char *err, size_t errlen) {
    const char *dot = strchr(a, '.'), *eq = strchr(a, '=');
    if (!dot || !eq || dot > eq || dot == a || eq == dot + 1) {
        snprintf(err, errlen, "--set %s: expected section.key=value", a);
        return -1;
    }
    char sec[128], key[128];
    size_t ls = (size_t)(dot - a), lk = (size_t)(eq - dot - 1);
    if (ls >= sizeof sec || lk >= sizeof key) {
        snprintf(err, errlen, "--set %s: name too long", a);
        return -1;
    }
    memcpy(sec, a, ls);
    sec[ls] = 0;
    memcpy(key, dot + 1, lk);
    key[lk] = 0;
    if (put(c, sec, key, eq + 1, "--set")) {
        snprintf(err, errlen, "--set: out of memory");
        return -1;
    }
    return 0;
}

const char *fg_config_str(fg_config *c, const char *section, const char *key) {
    entry *x = lookup(c, section, key);
    if (!x) return NULL;
    x->used = true;
    return x->value;
}

/* A number getter's entry, marked read, with "origin: [section] key =" (the
 * name its message gives the value) in name; NULL when absent. */
static entry *number_entry(fg_config *c, const char *section, const char *key, char *name, size_t len) {
    entry *x = lookup(c, section, key);
    if (!x) return NULL;
    x->used = true;
    snprintf(name, len, "%s: [%s] %s =", x->origin, x->section, x->key);
    return x;
}

int fg_config_u64(fg_config *c, const char *section, const char *key, uint64_t min, uint64_t max,
                  uint64_t *out, char *err, size_t errlen) {
    char name[384];
    entry *x = number_entry(c, section, key, name, sizeof name);
    return x ? fg_num_u64(name, x->value, min, max, out, err, errlen) : 0;
}

int fg_config_pow2(fg_config *c, const char *section, const char *key, uint64_t min, uint64_t max,
                   uint64_t *out, char *err, size_t errlen) {
    char name[384];
    entry *x = number_entry(c, section, key, name, sizeof name);
    return x ? fg_num_pow2(name, x->value, min, max, out, err, errlen) : 0;
}

int fg_config_double(fg_config *c, const char *section, const char *key, double min, double max,
                     double *out, char *err, size_t errlen) {
    char name[384];
    entry *x = number_entry(c, section, key, name, sizeof name);
    return x ? fg_num_double(name, x->value, min, max, out, err, errlen) : 0;
}

int fg_config_bool(fg_config *c, const char *section, const char *key, bool *out, char *err,
                   size_t errlen) {
    static const char *const choices[] = {"false", "true", "0", "1", "no", "yes", "off", "on", NULL};
    unsigned i;
    entry *x = lookup(c, section, key);
    if (!x) return 0;
    if (fg_config_enum(c, section, key, choices, &i, err, errlen)) return -1;
    *out = i & 1;
    return 0;
}

int fg_config_enum(fg_config *c, const char *section, const char *key, const char *const *choices,
                   unsigned *out, char *err, size_t errlen) {
    entry *x = lookup(c, section, key);
    if (!x) return 0;
    x->used = true;
    for (unsigned i = 0; choices[i]; i++)
        if (!strcmp(choices[i], x->value)) {
            *out = i;
            return 0;
        }
    int n = snprintf(err, errlen, "%s: [%s] %s = '%s' is not one of:", x->origin, section, key,
                     x->value);
    for (unsigned i = 0; choices[i] && n > 0 && (size_t)n < errlen; i++)
        n += snprintf(err + n, errlen - (size_t)n, " %s", choices[i]);
    return -1;
}

static bool was_read(const fg_config *c, const char *section) {
    for (size_t i = 0; i < c->nread; i++)
        if (!strcmp(c->read[i], section)) return true;
    return false;
}

/* " [a] [b])" of the sections the program read, appended at err + n */
static void list_read(const fg_config *c, char *err, size_t errlen, int n) {
    for (size_t i = 0; i < c->nread && n > 0 && (size_t)n < errlen; i++)
        n += snprintf(err + n, errlen - (size_t)n, " [%s]", c->read[i]);
    if (n > 0 && (size_t)n < errlen) snprintf(err + n, errlen - (size_t)n, ")");
}

/* A file that sets nothing the program reads (empty, the wrong file, only
 * other programs' sections) would leave every value at its built-in
 * default: a mistake.  Names the file's sections and the ones read. */
static int check_files(const fg_config *c, char *err, size_t errlen) {
    for (size_t f = 0; f < c->nfiles; f++) {
        const file_rec *r = &c->files[f];
        bool read = false;
        for (size_t k = 0; k < r->n && !read; k++) read = c->e[r->keys[k]].used;
        if (read) continue;
        int n = snprintf(err, errlen, "config %s sets nothing this program reads (the file's sections:", r->path);
        size_t shown = 0;
        for (size_t k = 0; k < r->n && n > 0 && (size_t)n < errlen; k++) {
            const char *sec = c->e[r->keys[k]].section;
            bool dup = false;
            for (size_t j = 0; j < k && !dup; j++) dup = !strcmp(c->e[r->keys[j]].section, sec);
            if (!dup) n += snprintf(err + n, errlen - (size_t)n, " [%s]", sec), shown++;
        }
        if (n > 0 && (size_t)n < errlen)
            n += snprintf(err + n, errlen - (size_t)n, "%s; it reads", shown ? "" : " none");
        list_read(c, err, errlen, n);
        return -1;
    }
    return 0;
}

/* an override nobody read is always a mistake: a typo'd section or key;
 * then a file that sets nothing read (check_files) */
static int check_sets(const fg_config *c, char *err, size_t errlen) {
    for (size_t i = 0; i < c->n; i++) {
        const entry *x = &c->e[i];
        if (x->used || strcmp(x->origin, "--set")) continue;
        int n = was_read(c, x->section)
                    ? snprintf(err, errlen, "--set %s.%s: this program reads no key %s in [%s] (it reads",
                               x->section, x->key, x->key, x->section)
                    : snprintf(err, errlen, "--set %s.%s: this program does not read section [%s] (it reads",
                               x->section, x->key, x->section);
        list_read(c, err, errlen, n);
        return -1;
    }
    return check_files(c, err, errlen);
}

static int check_unused(const fg_config *c, const char *section, char *err, size_t errlen) {
    if (check_sets(c, err, errlen)) return -1;
    int n = 0;
    for (size_t i = 0; i < c->n; i++) {
        if (c->e[i].used || (section && strcmp(c->e[i].section, section))) continue;
        if (n == 0) n = snprintf(err, errlen, "unknown configuration keys (typo?):");
        if (n > 0 && (size_t)n < errlen)
            n += snprintf(err + n, errlen - (size_t)n, " %s:[%s]%s", c->e[i].origin,
                          c->e[i].section, c->e[i].key);
    }
    return n ? -1 : 0;
}

int fg_config_check_unused(const fg_config *c, char *err, size_t errlen) {
    return check_unused(c, NULL, err, errlen);
}

int fg_config_check_unused_section(const fg_config *c, const char *section, char *err, size_t errlen) {
    return check_unused(c, section, err, errlen);
}

/* Every section some program reads from a shared configuration file
 * (configs/NAME.ini): a file may hold sections for other programs, but a
 * section no program reads is a typo. */
static const char *const KNOWN_SECTIONS[] = {
    "gpu", "preempt", "mem", "pcie", "host", "edge", "nic", "routes", "sys", "ipv6", "memc", "ipsec",
    "cpu", "cm", "cmbal", "fe", "launch_latency", "preemption_latency", "edge_fig12", "edge_fig13", NULL};

static bool in_list(const char *const *list, const char *s) {
    for (; *list; list++)
        if (!strcmp(*list, s)) return true;
    return false;
}

int fg_config_check_sections(const fg_config *c, const char *const *read, char *err, size_t errlen) {
    if (check_sets(c, err, errlen)) return -1;
    for (size_t i = 0; i < c->n; i++) {
        const entry *x = &c->e[i];
        if (was_read(c, x->section) || in_list(read, x->section) || in_list(KNOWN_SECTIONS, x->section))
            continue; /* (a shared machine file's sections for other programs) */
        int n = snprintf(err, errlen, "%s: section [%s] (key %s) is read by no program (this one reads",
                         x->origin, x->section, x->key);
        list_read(c, err, errlen, n);
        return -1;
    }
    for (const char *const *r = read; *r; r++)
        if (check_unused(c, *r, err, errlen)) return -1;
    return 0;
}

const char *fg_config_threads_set(const char *n) {
    static char buf[64];
    snprintf(buf, sizeof buf, "gpu.threads=%s", n);
    return buf;
}
