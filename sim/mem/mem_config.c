/* mem_config: defaults (the EDGE machine), the [mem] section, checks. */
#include "mem_config.h"

#include "fg_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mem_config_default(mem_config *c) {
    memset(c, 0, sizeof *c);
    /* GPGPU-Sim configs/GTX480/gpgpusim.config unless noted (configs/edge.ini
     * repeats each value with its source) */
    c->core_mhz = 700; /* EDGE Table II */
    c->icnt_mhz = 700; /* -gpgpu_clock_domains 700:700:700:924 */
    c->l2_mhz = 700;
    c->dram_mhz = 924;
    c->partitions = 6;         /* -gpgpu_n_mem 6 */
    c->slices = 2;             /* -gpgpu_n_sub_partition_per_mchannel 2 */
    c->interleave_bytes = 256; /* -gpgpu_mem_addr_mapping dramid@8 */
    c->line_bytes = 128;
    c->icnt = MEM_ICNT_XBAR;
    c->flit_bytes = 32; /* config_fermi_islip.icnt flit_size */
    c->icnt_in_flits = 16;
    c->icnt_out_flits = 16;
    c->icnt_latency = 4;
    /* the mesh when [mem] icnt = mesh: CM Table I; pipeline and link ours */
    c->mesh_cols = c->mesh_rows = 6;
    c->mesh_vcs = 4;
    c->mesh_vc_flits = 4;
    c->mesh_router_cycles = 2;
    c->mesh_link_cycles = 1;
    c->l2_sets = 85; /* 12 slices x 85 x 8 x 128 B = 0.996 MiB (EDGE Table II: 1 MB) */
    c->l2_assoc = 8; /* -gpgpu_cache:dl2 N:64:128:8 */
    c->l2_mshrs = 32; /* ... A:32:4 */
    c->l2_mshr_merge = 4;
    c->l2_latency = 120;      /* -rop_latency 120 */
    c->l2_dram_latency = 100; /* -dram_latency 100 */
    c->l2_miss_queue = 32;
    c->l2_return_queue = 58; /* -gpgpu_dram_return_queue_size 116 per channel, 2 slices */
    c->l2_amo_cycles = 1;
    c->l2_amo_queue = 8;
    c->fe_impl = FG_IMPL_C;
    c->fe_region_base = 192ull << 20;
    c->fe_region_bytes = 12ull << 20; /* 2 MiB per partition */
    c->fe_qd_nt = c->fe_qd_cpu = c->fe_qd_gpu = 16;
    c->fe_wdog_limit = 1000000;
    c->fe_idle_skip = true;
    c->dram_banks = 16;      /* nbk=16 */
    c->dram_row_bytes = 4096; /* 6 column bits x 64 B atoms in the address mapping */
    c->dram_bus_bytes = 8;   /* -gpgpu_n_mem_per_ctrlr 2 x -gpgpu_dram_buswidth 4 */
    c->dram_burst = 8;       /* -gpgpu_dram_burst_length 8 */
    c->dram_data_rate = 4;   /* -dram_data_command_freq_ratio 4 (GDDR5) */
    c->dram_queue = 16;      /* -gpgpu_frfcfs_dram_sched_queue_size 16 */
    /* -gpgpu_dram_timing_opt (Hynix H5GQ1H24AFR) = CM Table I */
    c->tCL = 12;
    c->tWL = 4;
    c->tRP = 12;
    c->tRC = 40;
    c->tRAS = 28;
    c->tCCD = 2;
    c->tRCD = 12;
    c->tRRD = 6;
    c->tCDLR = 5;
    c->tWR = 12;
    c->tRTW_gap = 2; /* GPGPU-Sim's tRTW = CL + BL/ratio + 2 - WL */
}

#define U(f, lo, hi) {#f, offsetof(mem_config, f), lo, hi}
static const struct {
    const char *key;
    size_t off;
    unsigned min, max;
} UKEYS[] = {
    U(partitions, 1, 64),      U(slices, 1, 64),         U(interleave_bytes, 16, 1u << 20),
    U(line_bytes, 16, 128),    U(flit_bytes, 4, 256),    U(icnt_in_flits, 1, 4096),
    U(icnt_out_flits, 1, 4096), U(icnt_latency, 1, 1000), U(l2_sets, 1, 1u << 20),
    U(l2_assoc, 1, 64),        U(l2_mshrs, 1, 4096),     U(l2_mshr_merge, 1, 64),
    U(l2_latency, 1, 10000),   U(l2_dram_latency, 0, 10000), U(l2_miss_queue, 1, 4096),
    U(l2_in_queue, 0, 4096),
    U(l2_return_queue, 1, 4096), U(l2_amo_cycles, 1, 1000), U(l2_amo_queue, 1, 4096),
    U(fe_qd_nt, 1, 255),       U(fe_qd_cpu, 1, 255),     U(fe_qd_gpu, 1, 255),
    U(dram_banks, 0, 64),      U(dram_row_bytes, 16, 1u << 20), U(dram_bus_bytes, 1, 128),
    U(dram_burst, 1, 64),      U(dram_data_rate, 1, 8),  U(dram_queue, 1, 1024),
    U(tCL, 1, 1000),           U(tWL, 1, 1000),          U(tRP, 1, 1000),
    U(tRC, 1, 1000),           U(tRAS, 1, 1000),         U(tCCD, 1, 1000),
    U(tRCD, 1, 1000),          U(tRRD, 1, 1000),         U(tCDLR, 0, 1000),
    U(tWR, 0, 1000),           U(tRTW_gap, 0, 1000),         U(mesh_cols, 1, 64),
    U(mesh_rows, 1, 64),       U(mesh_vcs, 1, 8),            U(mesh_vc_flits, 1, 64),
    U(mesh_router_cycles, 1, 100), U(mesh_link_cycles, 1, 100),
};
#undef U

static const char *const ICNT_NAMES[] = {"xbar", "mesh", NULL};
static const char *const STALL_MC_NAMES[] = {"controller", "l2_input", NULL};

/* "r0, r1, ..." (router numbers) into list[max]; -1 with a message. */
static int router_list(fg_config *cfg, const char *key, uint8_t *list, unsigned max, unsigned *n,
                       char *err, size_t errlen) {
    const char *s = fg_config_str(cfg, "mem", key);
    if (!s) return 0;
    *n = 0;
    while (*s) {
        char tok[24], name[64];
        size_t len = strcspn(s, ", \t");
        uint64_t v = 0;
        snprintf(name, sizeof name, "[mem] %s: router", key);
        snprintf(tok, sizeof tok, "%.*s", (int)(len < sizeof tok - 1 ? len : sizeof tok - 1), s);
        if (*n == max) {
            snprintf(err, errlen, "[mem] %s: more than %u routers", key, max);
            return -1;
        }
        if (fg_num_u64(name, tok, 0, 255, &v, err, errlen)) return -1;
        list[(*n)++] = (uint8_t)v;
        s += len;
        while (*s == ' ' || *s == ',' || *s == '\t') s++;
    }
    return 0;
}

int mem_config_load(mem_config *c, fg_config *cfg, char *err, size_t errlen) {
    for (size_t i = 0; i < sizeof UKEYS / sizeof UKEYS[0]; i++) {
        unsigned *f = (unsigned *)((char *)c + UKEYS[i].off);
        uint64_t v = *f;
        if (fg_config_u64(cfg, "mem", UKEYS[i].key, UKEYS[i].min, UKEYS[i].max, &v, err, errlen))
            return -1;
        *f = (unsigned)v;
    }
    static const struct { const char *key; size_t off; } DKEYS[] = {
        {"core_mhz", offsetof(mem_config, core_mhz)}, {"icnt_mhz", offsetof(mem_config, icnt_mhz)},
        {"l2_mhz", offsetof(mem_config, l2_mhz)},     {"dram_mhz", offsetof(mem_config, dram_mhz)}};
    for (size_t i = 0; i < 4; i++)
        if (fg_config_double(cfg, "mem", DKEYS[i].key, 1, 100000, (double *)((char *)c + DKEYS[i].off),
                             err, errlen))
            return -1;
    /* The core clock is the GPU's: [gpu] clock_mhz when the file has one. */
    double gpu_mhz = 0;
    if (fg_config_double(cfg, "gpu", "clock_mhz", 1, 100000, &gpu_mhz, err, errlen)) return -1;
    if (gpu_mhz > 0) {
        if (fg_config_str(cfg, "mem", "core_mhz") && gpu_mhz != c->core_mhz) {
            snprintf(err, errlen, "[mem] core_mhz = %g differs from [gpu] clock_mhz = %g (leave it out)",
                     c->core_mhz, gpu_mhz);
            return -1;
        }
        c->core_mhz = gpu_mhz;
    }
    unsigned impl = c->fe_impl, icnt = c->icnt, stall_mc = c->stall_mc;
    if (fg_config_enum(cfg, "mem", "fe_impl", fg_impl_names, &impl, err, errlen) ||
        fg_config_enum(cfg, "mem", "icnt", ICNT_NAMES, &icnt, err, errlen) ||
        fg_config_enum(cfg, "mem", "stall_mc", STALL_MC_NAMES, &stall_mc, err, errlen) ||
        fg_config_u64(cfg, "mem", "fe_region_base", 0, UINT64_MAX, &c->fe_region_base, err, errlen) ||
        fg_config_u64(cfg, "mem", "fe_region_bytes", 0, UINT64_MAX, &c->fe_region_bytes, err,
                      errlen) ||
        fg_config_u64(cfg, "mem", "fe_wdog_limit", 0, UINT32_MAX, &c->fe_wdog_limit, err, errlen) ||
        fg_config_bool(cfg, "mem", "fe_idle_skip", &c->fe_idle_skip, err, errlen) ||
        fg_config_bool(cfg, "mem", "fe_admit", &c->fe_admit, err, errlen) ||
        fg_config_bool(cfg, "mem", "fe_l2_cache", &c->fe_l2_cache, err, errlen) ||
        router_list(cfg, "mesh_port_routers", c->mesh_port_router, MEM_MESH_PORTS, &c->mesh_n_ports,
                    err, errlen) ||
        router_list(cfg, "mesh_slice_routers", c->mesh_slice_router, 64, &c->mesh_n_slices, err,
                    errlen))
        return -1;
    c->fe_impl = (fg_impl)impl;
    c->icnt = icnt;
    c->stall_mc = stall_mc;
    if (c->stall_mc == MEM_STALL_MC_L2_INPUT && !c->l2_in_queue) {
        snprintf(err, errlen, "[mem] stall_mc = l2_input needs an input queue (l2_in_queue > 0)");
        return -1;
    }
    return mem_config_check(c, err, errlen);
}

static bool pow2(uint64_t x) { return x && !(x & (x - 1)); }

unsigned mem_config_burst_cycles(const mem_config *c) { return c->dram_burst / c->dram_data_rate; }

unsigned mem_config_bursts(const mem_config *c, unsigned bytes) {
    unsigned b = c->dram_bus_bytes * c->dram_burst;
    return bytes <= b ? 1 : (bytes + b - 1) / b;
}

unsigned mem_config_flits(const mem_config *c, unsigned bytes) {
    return 1 + (bytes + c->flit_bytes - 1) / c->flit_bytes;
}

double mem_config_peak_gbps(const mem_config *c) {
    return (double)c->dram_bus_bytes * c->dram_data_rate * c->dram_mhz * 1e6 * c->partitions / 1e9;
}

uint64_t mem_config_l2_bytes(const mem_config *c) {
    return (uint64_t)c->partitions * c->slices * c->l2_sets * c->l2_assoc * c->line_bytes;
}

void mem_config_map(const mem_config *c, uint64_t addr, unsigned *part, unsigned *slice,
                    uint64_t *local) {
    uint64_t n_slices = (uint64_t)c->partitions * c->slices;
    uint64_t chunk = addr / c->interleave_bytes, sg = chunk % n_slices;
    *slice = (unsigned)sg;
    *part = (unsigned)(sg / c->slices);
    *local = chunk / n_slices * c->slices * c->interleave_bytes +
             sg % c->slices * c->interleave_bytes + addr % c->interleave_bytes;
}

int mem_config_check(const mem_config *c, char *err, size_t errlen) {
    char why[200] = "";
    uint64_t stripe = (uint64_t)c->interleave_bytes * c->partitions * c->slices;
    unsigned pkt = mem_config_flits(c, c->line_bytes);
    if (!(c->core_mhz > 0 && c->icnt_mhz > 0 && c->l2_mhz > 0 && c->dram_mhz > 0))
        snprintf(why, sizeof why, "core_mhz, icnt_mhz, l2_mhz and dram_mhz must be > 0");
    else if (c->partitions < 1 || c->slices < 1 || c->partitions * c->slices > 64)
        snprintf(why, sizeof why, "partitions x slices must be 1..64 (is %u x %u)", c->partitions,
                 c->slices);
    else if (!pow2(c->line_bytes) || c->line_bytes < 16 || c->line_bytes > 128)
        snprintf(why, sizeof why, "line_bytes = %u must be a power of two in 16..128", c->line_bytes);
    else if (!pow2(c->interleave_bytes) || c->interleave_bytes < c->line_bytes)
        snprintf(why, sizeof why, "interleave_bytes = %u must be a power of two >= line_bytes",
                 c->interleave_bytes);
    else if (c->icnt > MEM_ICNT_MESH)
        snprintf(why, sizeof why, "icnt must be xbar or mesh");
    else if (c->icnt == MEM_ICNT_MESH && (c->mesh_cols * c->mesh_rows > 64 || !c->mesh_vcs ||
                                          !c->mesh_vc_flits || !c->mesh_router_cycles ||
                                          !c->mesh_link_cycles))
        snprintf(why, sizeof why, "mesh: cols x rows <= 64 routers, and >= 1 VC, buffer, router "
                 "cycle and link cycle (is %ux%u, %u, %u, %u, %u)", c->mesh_cols, c->mesh_rows,
                 c->mesh_vcs, c->mesh_vc_flits, c->mesh_router_cycles, c->mesh_link_cycles);
    else if (c->icnt == MEM_ICNT_MESH && c->mesh_n_slices && c->mesh_n_slices < c->partitions * c->slices)
        snprintf(why, sizeof why, "mesh_slice_routers lists %u routers for %u slices", c->mesh_n_slices,
                 c->partitions * c->slices);
    else if (c->icnt_in_flits < pkt || c->icnt_out_flits < pkt)
        snprintf(why, sizeof why,
                 "icnt_in_flits and icnt_out_flits must hold a whole packet (%u flits of %u B)", pkt,
                 c->flit_bytes);
    else if (c->l2_sets < 1 || c->l2_assoc < 1 || c->l2_mshrs < 1 || c->l2_mshr_merge < 1)
        snprintf(why, sizeof why, "l2_sets, l2_assoc, l2_mshrs, l2_mshr_merge must be >= 1");
    else if (c->fe_region_base % stripe || c->fe_region_bytes % stripe)
        snprintf(why, sizeof why,
                 "fe_region_base and fe_region_bytes must be multiples of interleave_bytes x "
                 "partitions x slices = %llu (region not aligned)",
                 (unsigned long long)stripe);
    else if (c->fe_region_bytes && c->interleave_bytes < 128)
        snprintf(why, sizeof why, "an F/E region needs interleave_bytes >= 128 (one F/E line)");
    else if (c->fe_region_bytes / c->partitions / 128 > UINT32_MAX)
        snprintf(why, sizeof why, "fe_region_bytes too large");
    else if (c->dram_banks < 1)
        snprintf(why, sizeof why, "dram_banks must be >= 1 (is 0)");
    else if (!pow2(c->dram_row_bytes) || c->dram_row_bytes < c->line_bytes)
        snprintf(why, sizeof why, "dram_row_bytes = %u must be a power of two >= line_bytes",
                 c->dram_row_bytes);
    else if (!pow2(c->dram_bus_bytes) || !pow2(c->dram_burst) || c->dram_burst % c->dram_data_rate)
        snprintf(why, sizeof why,
                 "dram_bus_bytes and dram_burst must be powers of two and dram_burst a multiple "
                 "of dram_data_rate");
    else if (c->tRC < c->tRAS)
        snprintf(why, sizeof why, "tRC = %u must be >= tRAS = %u", c->tRC, c->tRAS);
    else if (c->l2_amo_cycles < 1 || c->l2_latency < 1)
        snprintf(why, sizeof why, "l2_latency and l2_amo_cycles must be >= 1");
    if (why[0]) {
        snprintf(err, errlen, "[mem]: %s", why);
        return -1;
    }
    fe_sched_queues_params p;
    char nf[160];
    if (c->fe_impl != FG_IMPL_C && !mem_config_fe_params(c, &p, nf, sizeof nf)) {
        snprintf(err, errlen,
                 "[mem] fe_impl = %s: the verilated F/E queues (fe_sched_queues_sys) "
                 "do not fit:%s; use fe_impl = c or change those keys",
                 fg_impl_name(c->fe_impl), nf);
        return -1;
    }
    return 0;
}

/* = fe_sched_queues_sys_GPARAMS, [block.configs.sys] of rtl/fe/fe_sched_queues.toml (the shim
 * refuses if they ever differ; test_mem runs it as rtl). */
static const fe_sched_queues_params SYS = {
    .addr_w = 32, .words = 32, .gran = 4, .region_base = 0, .region_lines = 16384,
    .qd_nt = 16, .qd_cpu = 16, .qd_gpu = 16, .tag_w = 8, .wd_w = 32, .cnt_w = 32, .init_w = 16,
    .lk_reg = 1};

static unsigned bits_for(uint64_t v) {
    unsigned b = 1;
    while (b < 63 && (v >> b)) b++;
    return b;
}

bool mem_config_fe_params(const mem_config *c, fe_sched_queues_params *p, char *why_not,
                          size_t len) {
    uint64_t lines = c->fe_region_bytes / c->partitions / (SYS.words * SYS.gran);
    int n = 0;
    why_not[0] = '\0';
#define NOTE(...)                                                                                  \
    if (n >= 0 && (size_t)n < len) n += snprintf(why_not + n, len - (size_t)n, __VA_ARGS__)
    if (lines > SYS.region_lines)
        NOTE(" fe_region_bytes (%llu lines per partition, verilated %u)", (unsigned long long)lines,
             SYS.region_lines);
    if (c->fe_qd_nt != SYS.qd_nt || c->fe_qd_cpu != SYS.qd_cpu || c->fe_qd_gpu != SYS.qd_gpu)
        NOTE(" fe_qd_nt/fe_qd_cpu/fe_qd_gpu (%u/%u/%u, verilated %u/%u/%u)", c->fe_qd_nt,
             c->fe_qd_cpu, c->fe_qd_gpu, SYS.qd_nt, SYS.qd_cpu, SYS.qd_gpu);
    if (bits_for(c->fe_wdog_limit) > SYS.wd_w)
        NOTE(" fe_wdog_limit (> %u bits)", SYS.wd_w);
#undef NOTE
    *p = SYS;
    if (!why_not[0]) return true;
    /* the twin takes any size: exactly what the config asks for */
    p->region_lines = lines ? (unsigned)lines : 1;
    p->qd_nt = c->fe_qd_nt;
    p->qd_cpu = c->fe_qd_cpu;
    p->qd_gpu = c->fe_qd_gpu;
    p->wd_w = bits_for(c->fe_wdog_limit);
    p->tag_w = bits_for(c->fe_qd_nt + c->fe_qd_cpu + c->fe_qd_gpu + 3);
    return false;
}
