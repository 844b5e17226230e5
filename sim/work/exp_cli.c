/* exp_cli: see exp_cli.h. */
#include "work/exp_cli.h"
#include "fg_wave.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_json.h"

void exp_cli_init(exp_cli *a, const char *config, const char *exp, const char *out) {
    *a = (exp_cli){.config = config, .exp = exp, .out = out};
    snprintf(a->help[0], sizeof a->help[0], "the machine (default %s)", config);
    snprintf(a->help[1], sizeof a->help[1], "the experiment's own file, loaded after it (default %s)", exp ? exp : "");
    snprintf(a->help[2], sizeof a->help[2], "the point's or the result's JSON (%s%s)", out ? "default " : "no default",
             out ? out : "");
    fg_opt *o = a->opts;
    *o++ = (fg_opt)FG_OPT_STR("--config", &a->config, "FILE", a->help[0]);
    if (exp) *o++ = (fg_opt)FG_OPT_STR("--exp", &a->exp, "FILE", a->help[1]);
    *o++ = (fg_opt)FG_OPT_LIST("--set", &a->sets, "SEC.KEY=VALUE", "an override, after the files (repeatable, in order)");
    *o++ = (fg_opt)FG_OPT_THREADS(&a->sets);
    *o++ = (fg_opt)FG_OPT_CHOICE("--impl", &a->impl, "rtl|c|lockstep",
                                 "every RTL block of the run (default: as the configuration says)");
    *o++ = (fg_opt)FG_OPT_FLAG("--point", &a->point, "run one point (scripts/sweep.py)");
    *o++ = (fg_opt)FG_OPT_STR("--merge", &a->merge, "LIST", "merge the point files listed (one path a line)");
    *o++ = (fg_opt)FG_OPT_STR("--out", &a->out, "FILE", a->help[2]);
    *o++ = (fg_opt)FG_OPT_FLAG("--check-config", &a->check, "load and check the configuration, run nothing");
    *o++ = (fg_opt)FG_OPT_GROUP(fg_wave_opts);
    *o = (fg_opt)FG_OPT_END;
}

void exp_cli_free(exp_cli *a) { fg_cli_list_free(&a->sets); }

int exp_cli_load(const exp_cli *a, fg_config *cfg, char *err, size_t errlen) {
    if (fg_config_load(cfg, a->config, err, errlen) || (a->exp && fg_config_load(cfg, a->exp, err, errlen))) return -1;
    for (int i = 0; i < a->sets.n; i++)
        if (fg_config_set(cfg, a->sets.v[i], err, errlen)) return -1;
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

int exp_write_result(cJSON *root, const char *out, const char *prog) {
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
