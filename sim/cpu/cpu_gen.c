/* cpu_gen: synthetic CPU instruction streams (CM Tables III, IV);
 * docs/CPU_MODEL.md.
 *
 * Each instruction: a class drawn from a fixed mix; each source present with
 * a probability, its producer distance 1 + geometric (short dependences
 * dominate, as in SPEC); loads and stores pick one of three regions:
 *   cold (probability p_cold = MPKI / (1000 x memory fraction)): a line of a
 *        region far larger than the L2 (and than the core's LLC share),
 *        next in sequence (stream) or uniform at random; with probability
 *        `chase` a cold load's address depends on the previous cold load
 *        (pointer chasing: its misses do not overlap);
 *   hot: a small region that stays in the L1;
 *   warm: a region that fits the L2 but not the L1, sized so that the cold
 *        lines passing through the L2 between two uses of a warm line seldom
 *        evict it (warm_lines() below): the warm region then adds almost no
 *        misses and the L2 MPKI is the cold rate. */
#include "cpu_gen.h"

#include <math.h>
#include <string.h>

/* Pattern and chase fraction are ours (what is known of each program's
 * access behaviour: streaming FP codes, pointer-chasing integer codes). */
const cpu_app cpu_apps[] = {
    {"perlbench", 0.2, 'L', CPU_PAT_RANDOM, 0.3}, {"povray", 0.2, 'L', CPU_PAT_RANDOM, 0.0},
    {"tonto", 0.2, 'L', CPU_PAT_STREAM, 0.0},     {"applu", 0.3, 'L', CPU_PAT_STREAM, 0.0},
    {"calculix", 0.3, 'L', CPU_PAT_STREAM, 0.0},  {"gcc", 0.3, 'L', CPU_PAT_RANDOM, 0.3},
    {"namd", 0.4, 'L', CPU_PAT_STREAM, 0.0},      {"barnes", 0.7, 'L', CPU_PAT_RANDOM, 0.3},
    {"gromacs", 0.7, 'L', CPU_PAT_STREAM, 0.0},   {"sjeng", 0.8, 'L', CPU_PAT_RANDOM, 0.2},
    {"dealII", 1.0, 'L', CPU_PAT_RANDOM, 0.2},    {"wrf", 1.3, 'L', CPU_PAT_STREAM, 0.0},
    {"h264ref", 1.5, 'L', CPU_PAT_STREAM, 0.0},   {"cactusADM", 1.6, 'L', CPU_PAT_STREAM, 0.0},
    {"gobmk", 1.6, 'L', CPU_PAT_RANDOM, 0.2},     {"bzip2", 3.1, 'M', CPU_PAT_RANDOM, 0.1},
    {"sjas", 4.0, 'M', CPU_PAT_RANDOM, 0.3},      {"tpcw", 4.8, 'M', CPU_PAT_RANDOM, 0.3},
    {"Gems", 5.2, 'M', CPU_PAT_STREAM, 0.0},      {"hmmer", 7.0, 'M', CPU_PAT_STREAM, 0.0},
    {"astar", 7.1, 'M', CPU_PAT_RANDOM, 0.5},     {"sjbb", 7.5, 'M', CPU_PAT_RANDOM, 0.3},
    {"swim", 10.0, 'M', CPU_PAT_STREAM, 0.0},     {"ocean", 10.6, 'M', CPU_PAT_STREAM, 0.0},
    {"sphinx3", 12.0, 'M', CPU_PAT_STREAM, 0.0},  {"libquantum", 12.5, 'M', CPU_PAT_STREAM, 0.0},
    {"art", 13.6, 'M', CPU_PAT_RANDOM, 0.1},      {"lbm", 14.0, 'M', CPU_PAT_STREAM, 0.0},
    {"leslie3d", 14.2, 'M', CPU_PAT_STREAM, 0.0}, {"xalan", 14.6, 'M', CPU_PAT_RANDOM, 0.4},
    {"milc", 25.0, 'H', CPU_PAT_STREAM, 0.0},     {"omnetpp", 25.8, 'H', CPU_PAT_RANDOM, 0.5},
    {"mcf", 49.8, 'H', CPU_PAT_RANDOM, 0.6},      {"soplex", 103.2, 'H', CPU_PAT_RANDOM, 0.2},
};
const unsigned cpu_n_apps = sizeof cpu_apps / sizeof cpu_apps[0];

/* CM Table IV (cactusADM is Table III's "cactus"). */
const cpu_mix cpu_mixes[] = {
    {"L1", {"povray", "tonto", "applu", "calculix", "gcc", "namd", "barnes", "gromacs", "sjeng",
            "dealII", "wrf", "h264ref", "cactusADM", "gobmk"}},
    {"L2", {"sjeng", "dealII", "wrf", "h264ref", "cactusADM", "gobmk", "sjeng", "dealII", "wrf",
            "h264ref", "cactusADM", "gobmk", "sjeng", "dealII"}},
    {"M1", {"sjas", "tpcw", "Gems", "hmmer", "astar", "sjbb", "swim", "ocean", "sphinx3",
            "libquantum", "art", "lbm", "leslie3d", "xalan"}},
    {"M2", {"ocean", "sphinx3", "libquantum", "art", "lbm", "leslie3d", "xalan", "ocean", "sphinx3",
            "libquantum", "art", "lbm", "leslie3d", "xalan"}},
    {"H1", {"milc", "soplex", "milc", "omnetpp", "mcf", "soplex", "milc", "omnetpp", "mcf", "soplex",
            "mcf", "soplex", "omnetpp", "mcf"}},
    {"H2", {"omnetpp", "omnetpp", "omnetpp", "omnetpp", "omnetpp", "milc", "milc", "milc", "milc",
            "milc", "soplex", "soplex", "mcf", "mcf"}},
};
const unsigned cpu_n_mixes = sizeof cpu_mixes / sizeof cpu_mixes[0];

const cpu_app *cpu_app_find(const char *name) {
    for (unsigned i = 0; i < cpu_n_apps; i++)
        if (!strcmp(cpu_apps[i].name, name)) return &cpu_apps[i];
    return NULL;
}

const cpu_mix *cpu_mix_find(const char *name) {
    for (unsigned i = 0; i < cpu_n_mixes; i++)
        if (!strcmp(cpu_mixes[i].name, name)) return &cpu_mixes[i];
    return NULL;
}

void cpu_gen_params_default(cpu_gen_params *p) {
    /* SPEC CPU2006-like: about a quarter loads, a tenth stores (ours) */
    p->load_frac = 0.25;
    p->store_frac = 0.10;
    p->br_frac = 0.15;
    p->mul_frac = 0.05;
    p->fp_frac = 0.05;
    p->src_prob = 0.6;
    p->dep_mean = 6;
    p->dep_max = 127;
    p->hot_bytes = 8 << 10;
    p->hot_share = 0.9;
    p->warm_min = 16 << 10;
    p->warm_max = 128 << 10;
    p->cold_bytes = 64ull << 20;
    p->line_bytes = 128;
    p->l2_sets = 256; /* 256 KB, 8-way, 128 B lines (CM Table I) */
    p->l2_ways = 8;
}

uint64_t cpu_gen_footprint(const cpu_gen_params *p) {
    return p->hot_bytes + p->warm_max + p->cold_bytes;
}

/* Probability as a threshold on 32 random bits. */
static uint32_t p32(double p) { return p >= 1 ? UINT32_MAX : p <= 0 ? 0 : (uint32_t)(p * 4294967296.0); }

/* Producer distances: 1 + geometric with mean dep_mean, as a table of
 * CPU_GEN_DIST quantiles (looked up with 12 random bits), capped at dep_max. */
static void dist_table(cpu_gen *g) {
    double q = 1.0 / g->p.dep_mean;
    for (unsigned i = 0; i < CPU_GEN_DIST; i++) {
        double d = 1 + floor(log1p(-(i + 0.5) / CPU_GEN_DIST) / log1p(-q));
        g->dist[i] = (uint8_t)(d > g->p.dep_max ? g->p.dep_max : d);
    }
}

/* The largest warm region (warm_max, then 3/4, 1/2, ... down to warm_min)
 * whose expected misses are <= 2 % of the cold ones.  A warm line, used every
 * L / r_warm instructions (L warm lines), sees E = rate x L / (r_warm x sets)
 * cold lines enter its set in between; with w = (L + hot lines) / sets lines
 * of its own kind per set, it is evicted when more than ways - w of them do:
 * P ~ (E / (1 + E))^(ways - ceil(w)) for geometric gaps (an over-estimate:
 * the model's measured warm misses are several times fewer). */
static uint64_t warm_lines(const cpu_gen_params *p, double r_warm, double rate) {
    const double lb = p->line_bytes, sets = p->l2_sets, ways = p->l2_ways;
    double L = p->warm_max / lb;
    for (; L > p->warm_min / lb; L = floor(L * 0.75)) {
        double E = rate * L / (r_warm * sets), w = ceil((L + p->hot_bytes / lb) / sets);
        double miss = r_warm * pow(E / (1 + E), ways > w ? ways - w : 0);
        if (miss <= 0.02 * rate) break;
    }
    return (uint64_t)(L < p->warm_min / lb ? p->warm_min / lb : L);
}

void cpu_gen_init(cpu_gen *g, const cpu_app *app, const cpu_gen_params *p, uint64_t base,
                  uint64_t seed) {
    memset(g, 0, sizeof *g);
    g->p = *p;
    g->app = app;
    g->base = base;
    fg_rng_seed(&g->rng, seed);
    double mem = p->load_frac + p->store_frac, rate = app->mpki / 1000, p_cold = rate / mem;
    g->t_cls[0] = p32(p->load_frac);
    g->t_cls[1] = p32(p->load_frac + p->store_frac);
    g->t_cls[2] = p32(p->load_frac + p->store_frac + p->br_frac);
    g->t_cls[3] = p32(p->load_frac + p->store_frac + p->br_frac + p->mul_frac);
    g->t_cls[4] = p32(p->load_frac + p->store_frac + p->br_frac + p->mul_frac + p->fp_frac);
    g->t_src = p32(p->src_prob) >> 16;
    g->t_cold = p32(p_cold);
    g->t_hot = p32(p->hot_share);
    g->t_chase = p32(app->chase);
    g->warm_lines = warm_lines(p, mem * (1 - p_cold) * (1 - p->hot_share), rate);
    g->cold_lines = p->cold_bytes / p->line_bytes;
    g->cold_base = base + p->hot_bytes + p->warm_max;
    g->last_cold = UINT64_MAX;
    g->stream = fg_rng_below(&g->rng, g->cold_lines);
    dist_table(g);
}

void cpu_gen_next(cpu_gen *g, cpu_inst *o) {
    static const uint8_t CLS[6] = {CPU_LOAD, CPU_STORE, CPU_BR, CPU_MUL, CPU_FP, CPU_ALU};
    const cpu_gen_params *p = &g->p;
    uint64_t r = fg_rng_next(&g->rng), r2 = fg_rng_next(&g->rng);
    uint32_t u = (uint32_t)r;
    unsigned c = 0;
    while (c < 5 && u >= g->t_cls[c]) c++;
    o->cls = CLS[c];
    o->addr = 0;
    o->dep[0] = o->dep[1] = 0;
    if (o->cls == CPU_LOAD || o->cls == CPU_STORE) {
        /* r: class 32 bits, address distance 12, data distance 12, offset 4;
         * r2: region 32, hot / chase 32 */
        uint64_t off = (r >> 60) % (p->line_bytes / 8) * 8, line;
        o->dep[0] = g->dist[(r >> 32) & (CPU_GEN_DIST - 1)];
        if (o->cls == CPU_STORE) o->dep[1] = g->dist[(r >> 44) & (CPU_GEN_DIST - 1)];
        if ((uint32_t)r2 < g->t_cold) {
            line = g->app->pattern == CPU_PAT_STREAM ? g->stream++ % g->cold_lines
                                                     : fg_rng_below(&g->rng, g->cold_lines);
            o->addr = g->cold_base + line * p->line_bytes + off;
            if (o->cls == CPU_LOAD) {
                uint64_t d = g->seq - g->last_cold;
                if (g->last_cold != UINT64_MAX && d <= p->dep_max && (uint32_t)(r2 >> 32) < g->t_chase)
                    o->dep[0] = (uint8_t)d;
                g->last_cold = g->seq;
            }
        } else if ((uint32_t)(r2 >> 32) < g->t_hot) {
            o->addr = g->base + (r2 >> 32) % (p->hot_bytes / 8) * 8;
        } else {
            line = fg_rng_below(&g->rng, g->warm_lines);
            o->addr = g->base + p->hot_bytes + line * p->line_bytes + off;
        }
    } else { /* r: class 32 bits; r2: two (presence 16, distance 12) */
        for (unsigned k = 0; k < 2; k++) {
            uint32_t x = (uint32_t)(r2 >> (32 * k));
            if ((x & 0xffff) < g->t_src) o->dep[k] = g->dist[(x >> 16) & (CPU_GEN_DIST - 1)];
        }
    }
    g->seq++;
}
