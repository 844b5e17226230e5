/* ev_work: the registry of event-kernel kinds and the helpers they share. */
#include "work/ev_work.h"

#include <stdio.h>
#include <string.h>

const ev_work_ops *const ev_work_kinds[] = {&ev_ipv4_ops, &ev_ipv6_ops, &ev_memc_ops, &ev_ipsec_ops, NULL};

const ev_work_ops *ev_work_find(const char *name) {
    for (const ev_work_ops *const *k = ev_work_kinds; *k; k++)
        if (!strcmp((*k)->name, name)) return *k;
    return NULL;
}

int ev_work_load_configs(fg_config *cfg, char *err, size_t errlen) {
    for (const ev_work_ops *const *k = ev_work_kinds; *k; k++)
        if ((*k)->load_config(cfg, err, errlen)) return -1;
    return 0;
}

int ev_cfg_load(fg_config *cfg, const char *section, const ev_cfg_key *k, size_t n, uint64_t *seed, char *err,
                size_t errlen) {
    if (!cfg) return 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = *k[i].dst;
        if (fg_config_u64(cfg, section, k[i].key, k[i].min, k[i].max, &v, err, errlen)) return -1;
        *k[i].dst = (unsigned)v;
    }
    return seed ? fg_config_u64(cfg, section, "seed", 0, UINT64_MAX, seed, err, errlen) : 0;
}

const char *ev_elf_path(char *buf, size_t len, const char *kdir, const char *name) {
    snprintf(buf, len, "%s/%s.elf", kdir, name);
    return buf;
}

gpu_launch_desc ev_warp_desc(const gpu_kernel *k, uint64_t param, unsigned threads, unsigned priority,
                             uint64_t tag) {
    gpu_launch_desc d = {0};
    d.kernel_ptr = k->entry;
    d.regs_per_thread = k->regs_per_thread;
    d.grid[0] = d.grid[1] = d.grid[2] = 1;
    d.block[0] = threads, d.block[1] = d.block[2] = 1;
    d.param_addr = param;
    d.priority = priority;
    d.tag = tag;
    d.warp_event = true; /* EDGE IV-C: one block of <= 32 threads, no shared memory -> PEWT */
    return d;
}
