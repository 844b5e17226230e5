/* fg_wave: one FST per system run (docs/WAVES.md).
 *
 * With --wave FILE.fst every RTL block instance a program creates (through
 * fg_block_new) is traced: a verilated one by Verilator (ports and every
 * internal signal), a C twin by its ports, a lockstep pair by both.  At the
 * end of the run the per-instance traces are merged into FILE.fst under a
 * hierarchy that mirrors the system, e.g.
 *     frontend.edge_doorbell.ring_valid_o   frontend.edge_ekt.state_q
 *     gpu.core3.edge_pewt.*                 gpu.core3.edge_preempt.*
 *     mem.part2.fe_sched_queues.*           cm.cm_bal_monitor.*
 *     gpu.core3.c_twin.edge_pewt.*          (lockstep: the twin beside the RTL)
 * one cycle = 1 ns, time 0 = the system's cycle 0, and FILE.gtkw is written
 * beside it (scripts/gtkw.py) showing the instances active in the window.
 * The window is --wave-start .. --wave-end (cycles), or --wave-span cycles
 * centred on the Nth occurrence of an event (--wave-at KIND:N, KIND one of
 * ring, preempt, nack, limit, which the blocks' ports show, or one the
 * program reports itself: fg_wave_kinds); a ring's window runs on to its
 * event warp's START.  The save file holds one group per place (gpu.core3,
 * mem.part2, frontend, cm) with its instances' groups: the event's place
 * first and open (the instance it showed in first), every other place
 * closed; without an event, the places a program names (fg_wave_show)
 * first and open. */
#ifndef FG_WAVE_H
#define FG_WAVE_H

#include <stdbool.h>
#include <stdint.h>

#include "fg_block.h"
#include "fg_cli.h"

/* The wave options, a group for a program's option table (fg_cli.h): a
 * malformed value is refused with the option's message. */
extern const fg_opt fg_wave_opts[];
/* A wave was asked for (blocks created from now on are traced). */
bool fg_wave_on(void);
/* Names an instance's place in the system ("gpu.core3"; its module's name is
 * the level below); it is traced from then on (cycles a block ran before,
 * the F/E power-up, show only as their end state). */
void fg_wave_place(fg_block *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The system's cycle counter (the GPU's: sim/simt/gpu.c), which every
 * instance's edges are timed by (a core the GPU does not clock while idle
 * keeps the system's time); NULL: none, each block counts its own edges from
 * its placing. */
void fg_wave_clock(const uint64_t *cycle);
/* An event a program reports itself (fg_wave_event) for --wave-at, beside
 * the blocks' own.  arg: what follows "KIND:" -- "N", the Nth occurrence;
 * another word (e.g. "ADDR"), the program's own argument (fg_wave_at), the
 * first occurrence; NULL, nothing (--wave-at KIND), the first occurrence. */
typedef struct {
    const char *kind, *arg;
    const char *what; /* in messages: "barrier release" */
} fg_wave_kind;
/* The events the program reports, declared before its options are parsed:
 * --wave-at refuses any other (kinds must outlive the run). */
void fg_wave_kinds(const fg_wave_kind *kinds, unsigned n);
/* The program's event --wave-at asks for (its argument, when it takes one
 * that is not N, in *arg), or NULL: none, or no wave. */
const char *fg_wave_at(const char **arg);
/* One occurrence of the program's event `kind` at system cycle `cycle`, in
 * place (e.g. "gpu.core3"; NULL: none in particular). */
void fg_wave_event(const char *kind, uint64_t cycle, const char *place);
/* A place the save file shows first and open when no event is asked for or
 * the event has no place (e.g. the cores a kernel ran on), in place order. */
void fg_wave_show(const char *place);
/* The run will not happen (an input refused after the system was built):
 * nothing is written, the per-instance traces are removed. */
void fg_wave_cancel(void);
/* Merges the traces into the one FST and writes its save file; returns 0, or
 * -1 after saying why (the asked-for event never happened, a file cannot be
 * written).  Runs at exit too when a program ends without calling it. */
int fg_wave_finish(void);

#endif
