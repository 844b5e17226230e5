/* exp_cli: see exp_cli.h. */
#include "work/exp_cli.h"
#include "fg_wave.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_json.h"

int exp_cli_init(exp_cli *a, int argc, const char *config, const char *exp, const char *out) {
    *a = (exp_cli){.config = config, .exp = exp, .out = out};
    a->sets = calloc((size_t)(argc > 0 ? argc : 1), sizeof *a->sets);
    return a->sets ? 0 : -1;
}

void exp_cli_free(exp_cli *a) {
    free(a->sets);
    a->sets = NULL;
}

int exp_cli_arg(exp_cli *a, int argc, char **argv, int *i) {
    static const struct { const char *opt; size_t off; } V[] = {
        {"--config", offsetof(exp_cli, config)}, {"--exp", offsetof(exp_cli, exp)},
        {"--impl", offsetof(exp_cli, impl)},     {"--out", offsetof(exp_cli, out)},
        {"--merge", offsetof(exp_cli, merge)}};
    const char *s = argv[*i];
    if (fg_wave_arg(argv[0], argc, argv, i)) return 1;
    if (!strcmp(s, "--point")) {
        a->point = true;
        return 1;
    }
    if (!strcmp(s, "--check-config")) {
        a->check = true;
        return 1;
    }
    if (*i + 1 >= argc) return 0;
    if (!strcmp(s, "--set")) {
        a->sets[a->nsets++] = argv[++*i];
        return 1;
    }
    if (!strcmp(s, "--threads")) {
        a->sets[a->nsets++] = fg_config_threads_set(argv[++*i]);
        return 1;
    }
    for (size_t k = 0; k < sizeof V / sizeof V[0]; k++)
        if (!strcmp(s, V[k].opt)) {
            *(const char **)((char *)a + V[k].off) = argv[++*i];
            return 1;
        }
    return 0;
}

int exp_cli_load(const exp_cli *a, fg_config *cfg, char *err, size_t errlen) {
    if (fg_config_load(cfg, a->config, err, errlen) || fg_config_load(cfg, a->exp, err, errlen)) return -1;
    for (int i = 0; i < a->nsets; i++)
        if (fg_config_set(cfg, a->sets[i], err, errlen)) return -1;
    return 0;
}

int exp_cli_impl(const exp_cli *a, gpu_config *gc, char *err, size_t errlen) {
    if (!a->impl) return 0;
    if (fg_impl_parse(a->impl, &gc->pre.impl)) {
        snprintf(err, errlen, "--impl %s: expected rtl, c or lockstep", a->impl);
        return -1;
    }
    gc->mem.fe_impl = gc->pre.impl;
    return 0;
}

int exp_write_result(const cJSON *root, const char *out, const char *prog) {
    char err[600];
    if (fg_json_write(root, out, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", prog, err);
        return 1;
    }
    printf("\nwrote %s\n", out);
    return 0;
}

cJSON *exp_cli_points(const exp_cli *a, const char *prog) {
    char err[600];
    cJSON *points = fg_json_read_list(a->merge, err, sizeof err);
    if (!points) fprintf(stderr, "%s: %s\n", prog, err);
    return points;
}

int exp_cli_check_unused(fg_config *cfg, const char *own, char *err, size_t errlen) {
    const char *const sec[] = {"gpu", "preempt", "mem", own, NULL};
    return fg_config_check_sections(cfg, sec, err, errlen);
}

int exp_cli_checked(const exp_cli *a, const char *prog) {
    if (!a->check) return 0;
    printf("%s: configuration ok\n", prog);
    return 1;
}
