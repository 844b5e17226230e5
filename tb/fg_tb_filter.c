/* FG_TEST / FG_TEST_SKIP for every cmocka group of every test program: the
 * test link wraps cmocka's group runner (-Wl,--wrap=_cmocka_run_group_tests,
 * the Makefile's TEST_LDFLAGS), so a program that calls cmocka directly gets
 * the filters too, and an FG_TEST pattern that matches none of a group's
 * tests fails instead of running 0 tests and reporting PASSED (a misspelled
 * name from a reproduction line). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

int __real__cmocka_run_group_tests(const char *group_name, const struct CMUnitTest *const tests,
                                   const size_t num_tests, CMFixtureFunction group_setup,
                                   CMFixtureFunction group_teardown);
int __wrap__cmocka_run_group_tests(const char *group_name, const struct CMUnitTest *const tests,
                                   const size_t num_tests, CMFixtureFunction group_setup,
                                   CMFixtureFunction group_teardown);

/* cmocka's pattern language: * any run, ? one character */
static bool match(const char *p, const char *s) {
    if (!*p) return !*s;
    if (*p == '*') return match(p + 1, s) || (*s && match(p, s + 1));
    return *s && (*p == '?' || *p == *s) && match(p + 1, s + 1);
}

int __wrap__cmocka_run_group_tests(const char *group_name, const struct CMUnitTest *const tests,
                                   const size_t num_tests, CMFixtureFunction group_setup,
                                   CMFixtureFunction group_teardown) {
    const char *only = getenv("FG_TEST"), *skip = getenv("FG_TEST_SKIP");
    if (only && *only) {
        size_t hit = 0;
        for (size_t i = 0; i < num_tests; i++) hit += tests[i].name && match(only, tests[i].name);
        if (!hit) {
            printf("1..1\nnot ok 1 - FG_TEST=%s matches no test of %s\n", only, group_name);
            fprintf(stderr, "FG_TEST=%s matches none of the %zu tests of %s (patterns: * and ?; e.g. '*random*')\n",
                    only, num_tests, group_name);
            return 1;
        }
        cmocka_set_test_filter(only);
    }
    if (skip && *skip) cmocka_set_skip_filter(skip);
    return __real__cmocka_run_group_tests(group_name, tests, num_tests, group_setup, group_teardown);
}
