/* The programs' command-line reader (fg_cli.h): every kind of option, the
 * ranges, a missing value, an unknown option, a repeatable one, groups,
 * CHECK entries, operands, the generated --help (no CHECK entries in it), and
 * fg_cli_parse's exit status 2 with a one-line "prog: ..." message. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fg_cli.h"
#include "fg_tb.h"

/* one program's options, every kind */
typedef struct {
    bool flag;
    const char *str, *choice;
    uint64_t u64;
    unsigned uns;
    double dbl;
    fg_impl impl;
    fg_cli_list list, operands;
    int calls;
    const char *last_call;
} opts_t;

static int even(void *ctx, const char *name, const char *v, char *err, size_t errlen) {
    opts_t *o = ctx;
    if (strlen(v) % 2) {
        snprintf(err, errlen, "%s %s: an even number of characters", name, v);
        return -1;
    }
    o->calls++;
    o->last_call = v;
    return 0;
}

typedef struct prog prog_t;
static int grouped_needs_flag(void *ctx, const char *name, const char *v, char *err, size_t errlen);

struct prog {
    opts_t o;
    bool grouped;
    fg_opt group[3];
    fg_opt table[14];
    fg_cli cli;
};

/* a CHECK entry: runs once all options are read, whatever their order */
static int grouped_needs_flag(void *ctx, const char *name, const char *v, char *err, size_t errlen) {
    const prog_t *p = ctx;
    assert_null(name);
    assert_null(v);
    if (!p->grouped || p->o.flag) return 0;
    snprintf(err, errlen, "--grouped needs --flag");
    return -1;
}

static void prog_init(prog_t *p, bool operands) {
    memset(p, 0, sizeof *p);
    opts_t *o = &p->o;
    o->str = "dflt";
    o->choice = "a";
    o->u64 = 5;
    o->impl = FG_IMPL_C;
    p->group[0] = (fg_opt)FG_OPT_FLAG("--grouped", &p->grouped, "in a group");
    p->group[1] = (fg_opt)FG_OPT_CHECK(grouped_needs_flag, p);
    p->group[2] = (fg_opt)FG_OPT_END;
    const fg_opt t[] = {
        FG_OPT_FLAG("--flag", &o->flag, "a flag"),
        FG_OPT_STR("--str", &o->str, "S", "a string"),
        FG_OPT_U64("--u64", &o->u64, 1, 100, "N", "a number in [1, 100]"),
        FG_OPT_UINT("--uns", &o->uns, 0, 7, "N", "a small number"),
        FG_OPT_DOUBLE("--dbl", &o->dbl, 0.5, 2, "X", "a real in [0.5, 2]"),
        FG_OPT_CHOICE("--choice", &o->choice, "a|bb|c", "one of three"),
        FG_OPT_IMPL("--impl", &o->impl, "an implementation"),
        FG_OPT_LIST("--set", &o->list, "K=V", "repeatable"),
        FG_OPT_THREADS(&o->list),
        FG_OPT_CALL("--even", even, o, "S", "checked by a callback"),
        FG_OPT_GROUP(p->group),
        FG_OPT_END};
    memcpy(p->table, t, sizeof t);
    p->cli = (fg_cli){"tprog", NULL, "about text\n", p->table, operands ? &o->operands : NULL};
}

static void prog_free(prog_t *p) {
    fg_cli_list_free(&p->o.list);
    fg_cli_list_free(&p->o.operands);
}

static char err[600];

/* fg_cli_scan over the arguments given (NULL-terminated) */
static int scan(prog_t *p, ...) {
    char *argv[32] = {"tprog"};
    int argc = 1;
    va_list ap;
    va_start(ap, p);
    for (char *a; (a = va_arg(ap, char *));) argv[argc++] = a;
    va_end(ap);
    return fg_cli_scan(&p->cli, argc, argv, err, sizeof err);
}

static void test_kinds(void **st) {
    (void)st;
    prog_t p;
    prog_init(&p, false);
    assert_int_equal(scan(&p, NULL), FG_CLI_OK); /* defaults untouched */
    assert_false(p.o.flag);
    assert_string_equal(p.o.str, "dflt");
    assert_int_equal(p.o.u64, 5);
    assert_int_equal(scan(&p, "--flag", "--str", "-x", "--u64", "0x64", "--uns", "7", "--dbl", "1.5e0", "--choice",
                          "bb", "--impl", "lockstep", "--even", "ab", "--grouped", NULL),
                     FG_CLI_OK);
    assert_true(p.o.flag);
    assert_string_equal(p.o.str, "-x"); /* a value may start with '-' */
    assert_int_equal(p.o.u64, 100);
    assert_int_equal(p.o.uns, 7);
    assert_true(p.o.dbl == 1.5);
    assert_string_equal(p.o.choice, "bb");
    assert_int_equal(p.o.impl, FG_IMPL_LOCKSTEP);
    assert_int_equal(p.o.calls, 1);
    assert_string_equal(p.o.last_call, "ab");
    assert_true(p.grouped);
    assert_int_equal(scan(&p, "--grouped", "--flag", NULL), FG_CLI_OK); /* checked after the last option */
    assert_int_equal(scan(&p, "--str", "one", "--str", "two", NULL), FG_CLI_OK); /* the last one */
    assert_string_equal(p.o.str, "two");
    prog_free(&p);
}

static void test_repeatable(void **st) {
    (void)st;
    prog_t p;
    prog_init(&p, false);
    assert_int_equal(scan(&p, "--set", "a.b=1", "--threads", "3", "--set", "a.b=2", NULL), FG_CLI_OK);
    assert_int_equal(p.o.list.n, 3); /* in command-line order, --threads among them */
    assert_string_equal(p.o.list.v[0], "a.b=1");
    assert_string_equal(p.o.list.v[1], "gpu.threads=3");
    assert_string_equal(p.o.list.v[2], "a.b=2");
    for (int i = 0; i < 40; i++) assert_int_equal(scan(&p, "--set", "x.y=z", NULL), FG_CLI_OK); /* grows */
    assert_int_equal(p.o.list.n, 43);
    prog_free(&p);
}

/* refused: FG_CLI_ERROR, the destinations unchanged, err holds want */
static void refused(const char *want, const char *a, const char *v) {
    prog_t p;
    prog_init(&p, false);
    assert_int_equal(scan(&p, (char *)a, (char *)v, NULL), FG_CLI_ERROR);
    if (!strstr(err, want)) fail_msg("'%s %s': '%s' not in '%s'", a, v ? v : "", want, err);
    assert_int_equal(p.o.u64, 5);
    assert_int_equal(p.o.uns, 0);
    assert_string_equal(p.o.choice, "a");
    assert_int_equal(p.o.impl, FG_IMPL_C);
    assert_int_equal(p.o.calls, 0);
    prog_free(&p);
}

static void test_refused(void **st) {
    (void)st;
    refused("--u64 0: outside [1, 100]", "--u64", "0");
    refused("--u64 101: outside [1, 100]", "--u64", "101");
    refused("--u64 '1e2': expected a whole number", "--u64", "1e2");
    refused("--u64 '010': a decimal with a leading zero", "--u64", "010");
    refused("--uns 8: outside [0, 7]", "--uns", "8");
    refused("--dbl 3: outside [0.5, 2]", "--dbl", "3");
    refused("--dbl 'x': expected a decimal number", "--dbl", "x");
    refused("--choice 'b': expected one of a|bb|c", "--choice", "b");
    refused("--impl 'verilog': expected rtl, c or lockstep", "--impl", "verilog");
    refused("--even abc: an even number of characters", "--even", "abc");
    refused("--u64 needs a value (N)", "--u64", NULL);
    refused("--set needs a value", "--set", NULL);
    refused("unknown option --nope (tprog --help lists the options)", "--nope", "1");
    refused("unknown option -x", "-x", NULL);
    refused("unexpected argument 'stray' (tprog --help lists the options)", "stray", NULL);
    refused("--grouped needs --flag", "--grouped", NULL); /* a group's CHECK entry */
}

static void test_operands(void **st) {
    (void)st;
    prog_t p;
    prog_init(&p, true);
    assert_int_equal(scan(&p, "one", "--flag", "two", NULL), FG_CLI_OK);
    assert_int_equal(p.o.operands.n, 2);
    assert_string_equal(p.o.operands.v[0], "one");
    assert_string_equal(p.o.operands.v[1], "two");
    assert_true(p.o.flag);
    prog_free(&p);
}

/* runs fg_cli_parse in a child: its exit status, stdout and stderr */
static int child(prog_t *p, char **argv, int argc, char *out, size_t outn, char *errt, size_t errn) {
    int po[2], pe[2];
    assert_int_equal(pipe(po), 0);
    assert_int_equal(pipe(pe), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (!pid) {
        dup2(po[1], 1);
        dup2(pe[1], 2);
        close(po[0]);
        close(pe[0]);
        fg_cli_parse(&p->cli, argc, argv);
        _exit(77); /* parsed: went on */
    }
    close(po[1]);
    close(pe[1]);
    ssize_t n = read(po[0], out, outn - 1), m = read(pe[0], errt, errn - 1);
    out[n > 0 ? n : 0] = 0;
    errt[m > 0 ? m : 0] = 0;
    close(po[0]);
    close(pe[0]);
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_parse_exits(void **st) {
    (void)st;
    prog_t p;
    prog_init(&p, false);
    char out[4096], e[1024];
    char *bad[] = {"tprog", "--u64", "1000"};
    assert_int_equal(child(&p, bad, 3, out, sizeof out, e, sizeof e), 2);
    assert_string_equal(e, "tprog: --u64 1000: outside [1, 100]\n"); /* one line, the program named */
    assert_string_equal(out, "");
    char *unknown[] = {"tprog", "--frob"};
    assert_int_equal(child(&p, unknown, 2, out, sizeof out, e, sizeof e), 2);
    assert_string_equal(e, "tprog: unknown option --frob (tprog --help lists the options)\n");
    char *good[] = {"tprog", "--flag"};
    assert_int_equal(child(&p, good, 2, out, sizeof out, e, sizeof e), 77);
    assert_string_equal(e, "");
    char *help[] = {"tprog", "--u64", "3", "--help", "--nope"}; /* --help wins, nothing after it read */
    assert_int_equal(child(&p, help, 5, out, sizeof out, e, sizeof e), 0);
    assert_string_equal(e, "");
    /* one line per option, the help in one column after the widest "--name ARG" */
    const char *want[] = {"usage: tprog [options]\n",
                          "\n  --flag                 a flag\n",
                          "\n  --u64 N                a number in [1, 100]\n",
                          "\n  --choice a|bb|c        one of three\n",
                          "\n  --impl rtl|c|lockstep  an implementation\n",
                          "\n  --threads N            host threads",
                          "\n  --grouped              in a group\n",
                          "\n  -h, --help             this text\nabout text\n"};
    for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(out, want[i])) fail_msg("--help: '%s' not in:\n%s", want[i], out);
    unsigned lines = 0;
    for (const char *c = out; *c; c++) lines += *c == '\n';
    assert_int_equal(lines, 1 + 11 + 1 + 1); /* usage, one per option, -h, about */
    prog_free(&p);
}

static void test_usage_forms(void **st) {
    (void)st;
    const fg_opt t[] = {FG_OPT_END};
    fg_cli c = {"p", "[options] --point\n--merge LIST", NULL, t, NULL};
    char buf[512] = {0};
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    assert_non_null(f);
    fg_cli_usage(&c, f);
    fclose(f);
    assert_string_equal(buf, "usage: p [options] --point\n       p --merge LIST\n  -h, --help  this text\n");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kinds),       cmocka_unit_test(test_repeatable),  cmocka_unit_test(test_refused),
        cmocka_unit_test(test_operands),    cmocka_unit_test(test_parse_exits), cmocka_unit_test(test_usage_forms),
    };
    return tb_run_tests("fg_cli", tests);
}
