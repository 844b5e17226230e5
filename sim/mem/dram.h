/* dram: one GDDR5 channel of a memory partition: an FR-FCFS scheduler over
 * a finite queue and a bank model with open rows, every timing constraint of
 * CM Table I plus write latency and bus turnaround (docs/MEM.md, "DRAM").
 * Clocked at the DRAM command clock; all times are its cycles.  Usable on
 * its own (tests/test_mem_dram.c drives it directly). */
#ifndef DRAM_H
#define DRAM_H

#include <stdbool.h>
#include <stdint.h>

typedef struct mem_config mem_config;
typedef struct dram_chan dram_chan;

typedef enum { DRAM_ACT = 0, DRAM_PRE, DRAM_RD, DRAM_WR } dram_cmd;

typedef struct {
    void *ctx;
    /* The request's last data beat has passed: true = taken, false = hold it
     * and ask again next cycle (its slot in the return path was full). */
    bool (*retire)(void *ctx, uint32_t rec);
    /* Its first column command was issued: the point where the access is
     * performed (data of F/E-tracked lines, docs/MEM.md).  May be NULL. */
    void (*perform)(void *ctx, uint32_t rec);
    /* Every command, for tests and traces.  May be NULL. */
    void (*command)(void *ctx, dram_cmd cmd, unsigned bank, uint64_t row, uint32_t rec,
                    uint64_t cycle);
} dram_hooks;

typedef struct {
    uint64_t reads, writes;                       /* requests served */
    uint64_t row_hits, row_misses, row_conflicts; /* per request, by what its bank needed */
    uint64_t bus_busy;                            /* data-bus cycles */
    uint64_t acts, pres;
} dram_stats;

dram_chan *dram_new(const mem_config *c, const dram_hooks *h);
void dram_free(dram_chan *d);
/* Room in the scheduler queue. */
bool dram_can_accept(const dram_chan *d);
/* Queues an access of `bursts` bursts to a partition-local line address
 * (seen from the next cycle on).  Accesses to the same line are performed
 * in arrival order. */
void dram_push(dram_chan *d, uint32_t rec, uint64_t local, bool write, unsigned bursts);
/* One command-clock cycle: retire finished accesses, issue at most one
 * command.  `now` counts cycles from 0, one more per call. */
void dram_cycle(dram_chan *d, uint64_t now);
bool dram_idle(const dram_chan *d);
/* The scheduler skips its scan while no command can issue (on by default);
 * off, it scans every cycle: the reference tests/test_mem_dram.c holds the
 * skip to. */
void dram_set_wake(dram_chan *d, bool on);
const dram_stats *dram_get_stats(const dram_chan *d);

/* Address mapping of a partition-local byte address (docs/MEM.md):
 * column = low bits within a row, then bank, then row. */
void dram_map(const mem_config *c, uint64_t local, unsigned *bank, uint64_t *row);

#endif
