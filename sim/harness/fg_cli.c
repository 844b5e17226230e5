/* fg_cli: see fg_cli.h. */
#include "fg_cli.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "fg_config.h"
#include "fg_util.h"

int fg_cli_list_add(fg_cli_list *l, const char *s) {
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 8;
        const char **v = realloc(l->v, (size_t)cap * sizeof *v);
        if (!v) return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = s;
    return 0;
}

void fg_cli_list_free(fg_cli_list *l) {
    free(l->v);
    *l = (fg_cli_list){0};
}

int fg_cli_threads(void *list, const char *name, const char *value, char *err, size_t errlen) {
    (void)name;
    if (!fg_cli_list_add(list, fg_config_threads_set(value))) return 0;
    snprintf(err, errlen, "out of memory");
    return -1;
}

/* the table's entry (groups searched in place) named s, or NULL */
static const fg_opt *find(const fg_opt *t, const char *s) {
    for (; t->name; t++) {
        const fg_opt *o = t->kind == FG_OPT_KIND_GROUP ? find(t->group, s)
                          : t->kind != FG_OPT_KIND_CHECK && !strcmp(t->name, s) ? t : NULL;
        if (o) return o;
    }
    return NULL;
}

/* v is one of the '|'-separated words of choices */
static bool chosen(const char *choices, const char *v) {
    size_t n = strlen(v);
    for (const char *p = choices; *p;) {
        size_t w = strcspn(p, "|");
        if (w == n && !strncmp(p, v, n)) return true;
        p += w + (p[w] == '|');
    }
    return false;
}

/* value v into o's destination: 0, or FG_CLI_ERROR with err */
static int take(const fg_opt *o, const char *v, char *err, size_t errlen) {
    uint64_t u = 0;
    switch (o->kind) {
    case FG_OPT_KIND_STR: *(const char **)o->dst = v; return 0;
    case FG_OPT_KIND_U64: return fg_num_u64(o->name, v, o->min, o->max, o->dst, err, errlen) ? FG_CLI_ERROR : 0;
    case FG_OPT_KIND_UINT:
        if (fg_num_u64(o->name, v, o->min, o->max < UINT_MAX ? o->max : UINT_MAX, &u, err, errlen))
            return FG_CLI_ERROR;
        *(unsigned *)o->dst = (unsigned)u;
        return 0;
    case FG_OPT_KIND_DOUBLE:
        return fg_num_double(o->name, v, o->dmin, o->dmax, o->dst, err, errlen) ? FG_CLI_ERROR : 0;
    case FG_OPT_KIND_CHOICE: {
        if (!chosen(o->choices, v)) return fg_errf(err, errlen, "%s '%s': expected one of %s", o->name, v, o->choices);
        *(const char **)o->dst = v;
        return 0;
    }
    case FG_OPT_KIND_IMPL:
        if (fg_impl_parse(v, o->dst)) return fg_errf(err, errlen, "%s '%s': expected rtl, c or lockstep", o->name, v);
        return 0;
    case FG_OPT_KIND_LIST: return fg_cli_list_add(o->dst, v) ? fg_errf(err, errlen, "out of memory") : 0;
    case FG_OPT_KIND_CALL:
        if (!o->call(o->dst, o->name, v, err, errlen)) return 0;
        if (!*err) fg_errf(err, errlen, "%s '%s': refused", o->name, v); /* the callback said nothing */
        return FG_CLI_ERROR;
    default: return fg_errf(err, errlen, "%s: not an option with a value", o->name);
    }
}

/* the table's CHECK entries (groups included): 0, or FG_CLI_ERROR with err */
static int checks(const fg_opt *t, char *err, size_t errlen) {
    for (; t->name; t++) {
        if (t->kind == FG_OPT_KIND_GROUP && checks(t->group, err, errlen)) return FG_CLI_ERROR;
        if (t->kind == FG_OPT_KIND_CHECK && t->call(t->dst, NULL, NULL, err, errlen)) return FG_CLI_ERROR;
    }
    return 0;
}

int fg_cli_scan(const fg_cli *c, int argc, char **argv, char *err, size_t errlen) {
    if (errlen) *err = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) return FG_CLI_HELP;
        if (a[0] != '-') {
            if (!c->operands) return fg_errf(err, errlen, "unexpected argument '%s' (%s --help lists the options)", a, c->prog);
            if (fg_cli_list_add(c->operands, a)) return fg_errf(err, errlen, "out of memory");
            continue;
        }
        const fg_opt *o = find(c->opts, a);
        if (!o) return fg_errf(err, errlen, "unknown option %s (%s --help lists the options)", a, c->prog);
        if (o->kind == FG_OPT_KIND_FLAG) {
            *(bool *)o->dst = true;
            continue;
        }
        if (i + 1 >= argc) return fg_errf(err, errlen, "%s needs a value (%s)", a, o->arg ? o->arg : "?");
        if (take(o, argv[++i], err, errlen)) return FG_CLI_ERROR;
    }
    return checks(c->opts, err, errlen) ? FG_CLI_ERROR : FG_CLI_OK;
}

void fg_cli_parse(const fg_cli *c, int argc, char **argv) {
    char err[600];
    int rc = fg_cli_scan(c, argc, argv, err, sizeof err);
    if (rc == FG_CLI_HELP) {
        fg_cli_usage(c, stdout);
        exit(0);
    }
    if (rc) {
        fprintf(stderr, "%s: %s\n", c->prog, err);
        exit(2);
    }
}

/* the width of the widest "--name ARG" of t (groups included) */
static int width(const fg_opt *t) {
    int w = 0;
    for (; t->name; t++) {
        if (t->kind == FG_OPT_KIND_CHECK) continue;
        int x = t->kind == FG_OPT_KIND_GROUP ? width(t->group)
                                             : (int)strlen(t->name) + (t->arg ? 1 + (int)strlen(t->arg) : 0);
        w = x > w ? x : w;
    }
    return w;
}

static void lines(const fg_opt *t, int w, FILE *f) {
    for (; t->name; t++) {
        if (t->kind == FG_OPT_KIND_GROUP) {
            lines(t->group, w, f);
            continue;
        }
        if (t->kind == FG_OPT_KIND_CHECK) continue;
        char head[128];
        snprintf(head, sizeof head, "%s%s%s", t->name, t->arg ? " " : "", t->arg ? t->arg : "");
        fprintf(f, "  %-*s  %s\n", w, head, t->help ? t->help : "");
    }
}

void fg_cli_usage(const fg_cli *c, FILE *f) {
    int w = width(c->opts);
    w = w < 10 ? 10 : w > 30 ? 30 : w;
    const char *syn = c->synopsis ? c->synopsis : "[options]";
    for (int k = 0; *syn; k++) { /* one line per form */
        int n = (int)strcspn(syn, "\n");
        fprintf(f, "%s %s %.*s\n", k ? "      " : "usage:", c->prog, n, syn);
        syn += n + (syn[n] == '\n');
    }
    lines(c->opts, w, f);
    fprintf(f, "  %-*s  %s\n", w, "-h, --help", "this text");
    if (c->about) fputs(c->about, f);
}
