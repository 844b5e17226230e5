/* fe_json: the F/E experiment programs' shared options and JSON (fe_json.h). */
#include "fe/fe_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_json.h"
#include "fg_util.h"

void fe_cli_init(fe_cli *c) {
    memset(c, 0, sizeof *c);
    exp_cli_init(&c->e, "configs/fe.ini", NULL, NULL);
    c->seed = 1;
    fg_opt *o = c->opts;
    *o++ = (fg_opt)FG_OPT_GROUP(c->e.opts);
    *o++ = (fg_opt)FG_OPT_U64("--seed", &c->seed, 0, UINT64_MAX, "N", "the benchmarks' input data (default 1)");
    *o++ = (fg_opt)FG_OPT_STR("--kdir", &c->kdir, "DIR", "the kernels (default $BUILD/sw)");
    *o = (fg_opt)FG_OPT_END;
}

void fe_cli_free(fe_cli *c) { exp_cli_free(&c->e); }

int fe_machine_load(const fe_cli *c, fe_machine *m, char *err, size_t errlen) {
    memset(m, 0, sizeof *m);
    fg_config *cfg = fg_config_new();
    int rc = -1;
    if (!cfg) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (exp_cli_load(&c->e, cfg, err, errlen)) goto out;
    if (c->e.impl) {
        char s[64];
        snprintf(s, sizeof s, "mem.fe_impl=%s", c->e.impl);
        if (fg_config_set(cfg, s, err, errlen)) goto out;
    }
    gpu_config_default(&m->gpu);
    fe_host_params_default(&m->host);
    cpu_config_default(&m->cpu);
    uint64_t lat = 18, touch = 0, page = 4096;
    if (gpu_config_load(&m->gpu, cfg, err, errlen) || fe_host_params_load(&m->host, cfg, err, errlen) ||
        cpu_config_load(&m->cpu, cfg, err, errlen) ||
        fg_config_u64(cfg, "fe", "cpu_mem_latency", 1, 10000, &lat, err, errlen) ||
        fg_config_u64(cfg, "fe", "cpu_first_touch_ns", 0, 1000000, &touch, err, errlen) ||
        fg_config_u64(cfg, "fe", "cpu_page_bytes", 512, 1u << 28, &page, err, errlen) ||
        fg_config_check_unused(cfg, err, errlen))
        goto out;
    if (page & (page - 1)) {
        fg_errf(err, errlen, "[fe] cpu_page_bytes = %llu: a power of two", (unsigned long long)page);
        goto out;
    }
    m->cpu_env = (fe_cpu_env){(unsigned)lat, (unsigned)touch, (unsigned)page};
    if (c->kdir) {
        if ((size_t)snprintf(m->kdir, sizeof m->kdir, "%s", c->kdir) >= sizeof m->kdir) {
            fg_errf(err, errlen, "kernel directory %s: longer than %zu characters", c->kdir, sizeof m->kdir - 1);
            goto out;
        }
    } else if (fg_kernel_path(m->kdir, sizeof m->kdir, NULL, err, errlen))
        goto out;
    snprintf(m->config, sizeof m->config, "%s", c->e.config);
    m->seed = c->seed;
    rc = 0;
out:
    fg_config_free(cfg);
    return rc;
}

static const char *const KIND[] = {"copy", "launch", "memcpy", "sync"};

cJSON *fe_result_json(const fe_machine *m, const char *bench, const char *variant, const fe_bench_result *r) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "bench", bench);
    cJSON_AddStringToObject(o, "variant", variant);
    cJSON_AddNumberToObject(o, "size", r->size);
    cJSON_AddStringToObject(o, "describe", r->describe);
    fg_block_use uses[4]; /* which blocks ran as what: the F/E queues ([mem] fe_impl) */
    fg_json_add_blocks(o, uses, gpu_config_blocks(&m->gpu, uses, 4));
    cJSON_AddStringToObject(o, "config", m->config);
    cJSON_AddNumberToObject(o, "seed", (double)m->seed);
    cJSON_AddNumberToObject(o, "runtime_ns", r->runtime_ns);
    cJSON_AddNumberToObject(o, "t_ready_ns", r->t_ready_ns);
    cJSON_AddNumberToObject(o, "t_finish_ns", r->t_finish_ns);
    cJSON_AddNumberToObject(o, "kernel_ns", r->kernel_ns);
    cJSON_AddNumberToObject(o, "launches", r->launches);
    cJSON_AddNumberToObject(o, "copies", r->copies);
    cJSON_AddNumberToObject(o, "bytes_h2d", (double)r->bytes_h2d);
    cJSON_AddNumberToObject(o, "bytes_d2h", (double)r->bytes_d2h);
    cJSON_AddBoolToObject(o, "checked", true);
    cJSON *g = cJSON_CreateObject();
    cJSON_AddNumberToObject(g, "cycles", (double)r->gs.cycles);
    cJSON_AddNumberToObject(g, "warp_instrs", (double)r->gs.warp_instrs);
    cJSON_AddNumberToObject(g, "avg_load_latency", r->gs.avg_load_latency);
    cJSON_AddNumberToObject(g, "l2_hit_rate", r->gs.l2_hit_rate);
    cJSON_AddNumberToObject(g, "fe_tracked", (double)r->gs.fe_tracked);
    cJSON_AddNumberToObject(g, "fe_l2_hits", (double)r->gs.fe_l2_hits);
    cJSON_AddNumberToObject(g, "dram_reads", (double)r->gs.dram_reads);
    cJSON_AddNumberToObject(g, "dram_writes", (double)r->gs.dram_writes);
    cJSON_AddNumberToObject(g, "dma_bytes", (double)r->gs.dma_bytes);
    cJSON_AddNumberToObject(g, "fe_nacks", (double)r->gs.fe_nacks);
    cJSON_AddNumberToObject(g, "port_stalls", (double)r->gs.port_stalls);
    cJSON_AddItemToObject(o, "gpu", g);
    cJSON *tl = cJSON_CreateArray();
    for (unsigned i = 0; i < r->n_cmds; i++) {
        const fe_cmd *c = &r->cmds[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "kind", KIND[c->kind]);
        cJSON_AddStringToObject(e, "label", c->label);
        cJSON_AddNumberToObject(e, "stream", c->stream);
        if (c->kind == FE_CMD_COPY || c->kind == FE_CMD_MEMCPY) {
            cJSON_AddStringToObject(e, "dir", c->dir == FE_H2D ? "H2D" : "D2H");
            cJSON_AddNumberToObject(e, "bytes", (double)c->bytes);
            cJSON_AddNumberToObject(e, "trigger", c->trig);
            cJSON_AddNumberToObject(e, "action", c->act);
        }
        /* times relative to the data being ready (negative: made in advance) */
        double t0 = r->t_ready_ns;
        cJSON_AddNumberToObject(e, "call", c->t_call - t0);
        cJSON_AddNumberToObject(e, "return", c->t_return - t0);
        if (c->kind != FE_CMD_SYNC) {
            cJSON_AddNumberToObject(e, "driver_start", c->t_drv_start - t0);
            cJSON_AddNumberToObject(e, "driver_end", c->t_drv_end - t0);
        }
        cJSON_AddNumberToObject(e, "exec_start", c->t_exec_start - t0);
        cJSON_AddNumberToObject(e, "exec_end", c->t_exec_end - t0);
        cJSON_AddItemToArray(tl, e);
    }
    cJSON_AddItemToObject(o, "timeline", tl);
    return o;
}
