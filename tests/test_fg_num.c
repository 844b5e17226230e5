/* The strict number reader (fg_num_*, fg_util.h) and the config getters and
 * section check built on it (fg_config.h): every form it must refuse. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fg_config.h"
#include "fg_tb.h"

static char err[512];

static void test_whole_accepted(void **st) {
    (void)st;
    uint64_t v = 7;
    assert_int_equal(fg_num_u64("x", "0", 0, 10, &v, err, sizeof err), 0);
    assert_int_equal(v, 0);
    assert_int_equal(fg_num_u64("x", "1000000", 0, UINT64_MAX, &v, err, sizeof err), 0);
    assert_int_equal(v, 1000000);
    assert_int_equal(fg_num_u64("x", "0x1F", 0, UINT64_MAX, &v, err, sizeof err), 0);
    assert_int_equal(v, 31);
    assert_int_equal(fg_num_u64("x", "18446744073709551615", 0, UINT64_MAX, &v, err, sizeof err), 0);
    assert_true(v == UINT64_MAX);
    int64_t s = 0;
    assert_int_equal(fg_num_i64("x", "-0x10", INT64_MIN, INT64_MAX, &s, err, sizeof err), 0);
    assert_int_equal(s, -16);
    assert_int_equal(fg_num_i64("x", "-9223372036854775808", INT64_MIN, INT64_MAX, &s, err, sizeof err), 0);
    assert_true(s == INT64_MIN);
    double d = 0;
    assert_int_equal(fg_num_double("x", "1e-3", 0, 1, &d, err, sizeof err), 0);
    assert_true(d == 1e-3);
    assert_int_equal(fg_num_double("x", "2.5", 0, 10, &d, err, sizeof err), 0);
    assert_int_equal(fg_num_double("x", ".5", 0, 10, &d, err, sizeof err), 0);
}

/* each refused, *out unchanged, the name and the value in the message */
static void refused_u64(const char *s, uint64_t max, const char *why) {
    uint64_t v = 12345;
    err[0] = 0;
    assert_int_equal(fg_num_u64("--opt", s, 0, max, &v, err, sizeof err), -1);
    assert_int_equal(v, 12345);
    assert_non_null(strstr(err, "--opt"));
    assert_non_null(strstr(err, why));
    assert_null(strchr(err, '\n'));
}

static void test_whole_refused(void **st) {
    (void)st;
    const char *bad[] = {"", "abc", "1e6", "10k", " 5", "5 ", "+5", "-5", "0x", "0xg", "1_000", "1.0", "5abc", NULL};
    for (int i = 0; bad[i]; i++) refused_u64(bad[i], UINT64_MAX, "expected a whole number");
    refused_u64("010", UINT64_MAX, "leading zero");
    refused_u64("00", UINT64_MAX, "leading zero");
    refused_u64("18446744073709551616", UINT64_MAX, "too large");
    refused_u64("11", 10, "outside [0, 10]");
    uint64_t v = 3;
    assert_int_equal(fg_num_pow2("l1_bytes", "1000", 1, 1u << 24, &v, err, sizeof err), -1);
    assert_non_null(strstr(err, "power of two"));
    assert_int_equal(v, 3);
    assert_int_equal(fg_num_pow2("l1_bytes", "1024", 1, 1u << 24, &v, err, sizeof err), 0);
    assert_int_equal(v, 1024);
    int64_t s = 1;
    assert_int_equal(fg_num_i64("x", "9223372036854775808", INT64_MIN, INT64_MAX, &s, err, sizeof err), -1);
    assert_int_equal(fg_num_i64("x", "--1", INT64_MIN, INT64_MAX, &s, err, sizeof err), -1);
    double d = 4;
    const char *badd[] = {"", "abc", "0x10", "inf", "nan", "1e", "1e+", ".", "-", "1.5s", " 1", "+1", NULL};
    for (int i = 0; badd[i]; i++) {
        assert_int_equal(fg_num_double("--t", badd[i], -10, 10, &d, err, sizeof err), -1);
        assert_non_null(strstr(err, "--t"));
    }
    assert_int_equal(fg_num_double("--t", "1e400", 0, 1e300, &d, err, sizeof err), -1);
    assert_int_equal(fg_num_double("--t", "11", -10, 10, &d, err, sizeof err), -1);
    assert_true(d == 4);
}

static void test_config_getters(void **st) {
    (void)st;
    fg_config *c = fg_config_new();
    assert_int_equal(fg_config_set(c, "gpu.num_cores=010", err, sizeof err), 0);
    assert_int_equal(fg_config_set(c, "gpu.l1_bytes=1000", err, sizeof err), 0);
    assert_int_equal(fg_config_set(c, "gpu.clock_mhz=0x10", err, sizeof err), 0);
    uint64_t v = 1;
    assert_int_equal(fg_config_u64(c, "gpu", "num_cores", 1, 1024, &v, err, sizeof err), -1);
    assert_non_null(strstr(err, "[gpu] num_cores"));
    assert_int_equal(v, 1);
    assert_int_equal(fg_config_pow2(c, "gpu", "l1_bytes", 128, 1u << 24, &v, err, sizeof err), -1);
    assert_non_null(strstr(err, "[gpu] l1_bytes"));
    double d = 1;
    assert_int_equal(fg_config_double(c, "gpu", "clock_mhz", 1, 1e5, &d, err, sizeof err), -1);
    fg_config_free(c);
}

static void test_config_sections(void **st) {
    (void)st;
    static const char *const read[] = {"gpu", "preempt", NULL};
    uint64_t v;
    fg_config *c = fg_config_new();
    assert_int_equal(fg_config_set(c, "gpu.num_cores=4", err, sizeof err), 0);
    assert_int_equal(fg_config_u64(c, "gpu", "num_cores", 1, 1024, &v, err, sizeof err), 0);
    assert_int_equal(fg_config_check_sections(c, read, err, sizeof err), 0);
    /* a typo'd section from --set, a known section this program does not read */
    const char *bad[] = {"preemt.enable=0", "gpux.num_cores=4", "pcie.lanes=8", NULL};
    for (int i = 0; bad[i]; i++) {
        fg_config *b = fg_config_new();
        assert_int_equal(fg_config_set(b, bad[i], err, sizeof err), 0);
        bool on = false;
        assert_int_equal(fg_config_u64(b, "gpu", "num_cores", 1, 1024, &v, err, sizeof err), 0);
        assert_int_equal(fg_config_bool(b, "preempt", "enable", &on, err, sizeof err), 0);
        assert_int_equal(fg_config_check_sections(b, read, err, sizeof err), -1);
        assert_non_null(strstr(err, "does not read section"));
        assert_non_null(strstr(err, "[gpu] [preempt]"));
        fg_config_free(b);
    }
    /* an unread key of a read section, by --set and from a file */
    assert_int_equal(fg_config_set(c, "gpu.num_core=1", err, sizeof err), 0);
    assert_int_equal(fg_config_check_sections(c, read, err, sizeof err), -1);
    assert_non_null(strstr(err, "reads no key num_core in [gpu]"));
    fg_config_free(c);
    char path[] = "/tmp/test_fg_num_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("[gpu]\nnum_cores = 2\nnum_core = 1\n[pcie]\nlanes = 8\n", f);
    fclose(f);
    c = fg_config_new();
    assert_int_equal(fg_config_load(c, path, err, sizeof err), 0);
    assert_int_equal(fg_config_u64(c, "gpu", "num_cores", 1, 1024, &v, err, sizeof err), 0);
    assert_int_equal(fg_config_check_sections(c, read, err, sizeof err), -1); /* [pcie]: another program's */
    assert_non_null(strstr(err, "num_core"));
    assert_null(strstr(err, "lanes"));
    fg_config_free(c);
    f = fopen(path, "w");
    fputs("[gpux]\nnum_cores = 2\n", f);
    fclose(f);
    c = fg_config_new();
    assert_int_equal(fg_config_load(c, path, err, sizeof err), 0);
    assert_int_equal(fg_config_check_sections(c, read, err, sizeof err), -1);
    assert_non_null(strstr(err, "[gpux]"));
    unlink(path);
    fg_config_free(c);
}

/* a temporary config file holding text; its path in path (mkstemp's template) */
static void write_config(char *path, const char *text) {
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
}

/* A config file that sets nothing the program reads (empty, or only other
 * programs' sections) would run on the built-in defaults: refused, naming
 * the file's sections and the ones the program reads. */
static void test_config_sets_nothing_read(void **st) {
    (void)st;
    static const char *const read[] = {"gpu", NULL};
    const char *texts[] = {"", "; only a comment\n", "[pcie]\nlanes = 8\n", "[gpu]\n"};
    for (int i = 0; i < 4; i++) {
        char path[] = "/tmp/test_fg_num_XXXXXX";
        write_config(path, texts[i]);
        uint64_t v = 0;
        for (int check = 0; check < 3; check++) {
            fg_config *c = fg_config_new();
            assert_int_equal(fg_config_load(c, path, err, sizeof err), 0);
            assert_int_equal(fg_config_u64(c, "gpu", "num_cores", 1, 1024, &v, err, sizeof err), 0);
            int rc = check == 0   ? fg_config_check_sections(c, read, err, sizeof err)
                     : check == 1 ? fg_config_check_unused(c, err, sizeof err)
                                  : fg_config_check_unused_section(c, "gpu", err, sizeof err);
            assert_int_equal(rc, -1);
            assert_non_null(strstr(err, path));
            assert_non_null(strstr(err, "sets nothing this program reads"));
            assert_non_null(strstr(err, "it reads [gpu]"));
            assert_null(strchr(err, '\n'));
            if (i == 2) assert_non_null(strstr(err, "[pcie]"));
            fg_config_free(c);
        }
        unlink(path);
    }
    /* a file whose one key the program reads counts, even when --set overrides it */
    char path[] = "/tmp/test_fg_num_XXXXXX";
    write_config(path, "[gpu]\nnum_cores = 2\n[pcie]\nlanes = 8\n");
    fg_config *c = fg_config_new();
    uint64_t v = 0;
    assert_int_equal(fg_config_load(c, path, err, sizeof err), 0);
    assert_int_equal(fg_config_set(c, "gpu.num_cores=3", err, sizeof err), 0);
    assert_int_equal(fg_config_u64(c, "gpu", "num_cores", 1, 1024, &v, err, sizeof err), 0);
    assert_int_equal(v, 3);
    assert_int_equal(fg_config_check_sections(c, read, err, sizeof err), 0);
    fg_config_free(c);
    unlink(path);
}

/* A syntax error names the file, the line, what is wrong on it and the line itself. */
static void test_config_syntax_error(void **st) {
    (void)st;
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"[gpu]\nnum_cores = 2\nl1_bytes 4096\n", ":3: syntax error: expected key = value, [section] or a ; comment: 'l1_bytes 4096'"},
        {"; machine\n[gpu\nnum_cores = 2\n", ":2: syntax error: a section header needs its closing ']': '[gpu'"},
    };
    for (int i = 0; i < 2; i++) {
        char path[] = "/tmp/test_fg_num_XXXXXX";
        write_config(path, cases[i].text);
        fg_config *c = fg_config_new();
        assert_int_equal(fg_config_load(c, path, err, sizeof err), -1);
        assert_non_null(strstr(err, path));
        if (!strstr(err, cases[i].want)) fail_msg("got '%s', wanted '%s'", err, cases[i].want);
        fg_config_free(c);
        unlink(path);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_accepted),
        cmocka_unit_test(test_whole_refused),
        cmocka_unit_test(test_config_getters),
        cmocka_unit_test(test_config_sections),
        cmocka_unit_test(test_config_sets_nothing_read),
        cmocka_unit_test(test_config_syntax_error),
    };
    return tb_run_tests("fg_num", tests);
}
