/* fg_block: the one C interface every RTL block and its C twin share.
 *
 * A block is described once by an X-macro list of its input and output ports
 * (name, width in bits, <= 64).  From that list come:
 *   - the C structs <blk>_in_t / <blk>_out_t (one uint64_t per port, in list
 *     order, so port i lives at offset i * 8),
 *   - the port tables used by the lockstep comparator (FG_BLOCK_CLASS),
 *   - the shim's bindings to the verilated model's members (FG_SHIM_NEW).
 *
 * Contract (docs/ARCHITECTURE.md): every output depends on state only, so a
 * cycle is "read outputs, compute inputs, step".  fg_block_step() applies the
 * inputs, gives one rising clock edge and leaves the new outputs readable.
 */
#ifndef FG_BLOCK_H
#define FG_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { FG_IMPL_C = 0, FG_IMPL_RTL = 1, FG_IMPL_LOCKSTEP = 2 } fg_impl;

/* "c", "rtl", "lockstep" in fg_impl order, NULL-terminated (fg_config_enum). */
extern const char *const fg_impl_names[];
/* Parses "c", "rtl" or "lockstep"; returns -1 on anything else. */
int fg_impl_parse(const char *s, fg_impl *out);
const char *fg_impl_name(fg_impl impl);

/* Which RTL block a program instantiated, and as what: experiment JSON
 * records these as its `blocks` object (fg_json_add_blocks). */
typedef struct {
    const char *block; /* the RTL module's name, e.g. "edge_pewt" */
    fg_impl impl;
} fg_block_use;

/* Port i of a table is the i-th uint64_t of the block's C struct. */
typedef struct {
    const char *name;
    unsigned width; /* bits, 1..64 */
} fg_port;

/* Helpers for the X-macro lists: FG_FIELD declares a struct member,
 * FG_PORT_DESC a port-table entry. */
#define FG_FIELD(name, width) uint64_t name;
#define FG_PORT_DESC(name, width) {#name, (width)},
#define FG_LEN(a) (sizeof(a) / sizeof *(a))

typedef struct fg_rtl fg_rtl; /* opaque verilated model, see fg_shim.h */

typedef struct fg_block_class {
    const char *name;
    const fg_port *in_ports;
    unsigned n_in;
    size_t in_size;
    const fg_port *out_ports;
    unsigned n_out;
    size_t out_size;
    /* C twin */
    void *(*twin_new)(const void *params);
    void (*twin_reset)(void *twin);
    void (*twin_outputs)(const void *twin, void *out);
    void (*twin_step)(void *twin, const void *in);
    void (*twin_free)(void *twin);
    /* verilated RTL; NULL when the binary was built without it.  Fails (and
     * says why in err) when params differ from the verilated parameters. */
    fg_rtl *(*rtl_new)(const void *params, char *err, size_t errlen);
} fg_block_class;

/* Defines `const fg_block_class <pfx>_class` for a twin whose functions are
 * <twin>_new/_reset/_outputs/_step/_free, with ports from the X-macro lists
 * and <pfx>_rtl_new (from the block's shim) as a weak symbol, so binaries
 * without the verilated model still link and run the twin. */
#define FG_BLOCK_CLASS(pfx, label, INPUTS, OUTPUTS, twin)                                          \
    fg_rtl *pfx##_rtl_new(const void *, char *, size_t) __attribute__((weak));                     \
    static const fg_port pfx##_in_ports[] = {INPUTS(FG_PORT_DESC)};                                 \
    static const fg_port pfx##_out_ports[] = {OUTPUTS(FG_PORT_DESC)};                               \
    _Static_assert(sizeof(pfx##_in_t) == FG_LEN(pfx##_in_ports) * sizeof(uint64_t),                \
                   #pfx "_in_t is its port list");                                                  \
    _Static_assert(sizeof(pfx##_out_t) == FG_LEN(pfx##_out_ports) * sizeof(uint64_t),              \
                   #pfx "_out_t is its port list");                                                 \
    const fg_block_class pfx##_class = {                                                            \
        label, pfx##_in_ports, FG_LEN(pfx##_in_ports), sizeof(pfx##_in_t), pfx##_out_ports,         \
        FG_LEN(pfx##_out_ports), sizeof(pfx##_out_t), twin##_new, twin##_reset, twin##_outputs,     \
        twin##_step, twin##_free, pfx##_rtl_new}

typedef struct {
    uint64_t cycle;
    const char *port;
    uint64_t rtl_value;
    uint64_t c_value;
} fg_mismatch;

typedef struct fg_block {
    const fg_block_class *cls;
    fg_impl impl;
    void *twin;
    fg_rtl *rtl;
    uint64_t cycle;      /* rising edges since reset */
    void *out;           /* outputs of the current state */
    void *out_other;     /* lockstep: the C twin's view */
    bool failed;         /* lockstep divergence or RTL assertion */
    fg_mismatch mismatch;
    char error[256];
    const struct fg_block_tracer *tracer; /* the tracer installed when it was created, or NULL */
    void *wave;          /* the tracer's record of this instance (fg_wave.c: its part of the run's
                          * FST), or NULL: not traced */
    void *wave_prev;     /* with it: the outputs before the last edge */
    /* fg_block_idle_skip: the last inputs, the state before the last edge,
     * and whether that edge left the state as it was (a fixed point); after
     * a probe that found the state moving, the next probe waits for
     * idle_backoff edges in a row with repeated inputs (idle_wait counts
     * them down; idle_backoff doubles up to FG_IDLE_BACKOFF with each such
     * probe and with a fixed point whose skips did not pay for its probe,
     * and halves with one whose skips did: idle_min or more, idle_run
     * counts them), and a state of idle_min x FG_IDLE_PROBE_BYTES bytes
     * waits for idle_min repeats */
    void *idle_in, *idle_state;
    size_t idle_bytes;
    bool idle_have, idle_fixed;
    unsigned idle_wait, idle_backoff, idle_min;
    uint64_t idle_run;
    uint64_t idle_skipped;
} fg_block;

/* Creates and resets a block.  Returns NULL and writes a message to err on
 * failure (RTL not built, parameter mismatch, out of memory). */
fg_block *fg_block_new(const fg_block_class *cls, fg_impl impl, const void *params,
                       char *err, size_t errlen);
void fg_block_free(fg_block *b);
void fg_block_reset(fg_block *b);
/* Outputs of the current state (valid until the next step). */
const void *fg_block_out(const fg_block *b);
/* Applies inputs and clocks one rising edge.  Returns 0, or -1 when the
 * lockstep diverged or an RTL assertion fired (b->error says which port /
 * assertion, at which cycle, with both values). */
int fg_block_step(fg_block *b, const void *in);
/* Counts one cycle without clocking the block: for a caller that knows the
 * block is idle and that this cycle's inputs would leave every register as it
 * is (sim/simt/simt_edge_core.c skips idle cores this way).  Cycle numbers
 * (lockstep and assertion reports, waveform time) stay those of the caller. */
void fg_block_skip(fg_block *b);
/* Lets fg_block_step skip the edges that cannot change anything (--impl rtl
 * only): once an edge with the same inputs as the edge before left the
 * model's state byte for byte as it was, every further edge with those
 * inputs would too, so they are counted (fg_block_skip) until the inputs
 * change.  Exact, for a block whose idle cycles are many and whose inputs
 * repeat (the EDGE front end); a trace or lockstep record gets every edge.
 * A block whose state moves under repeated inputs (a counter, a busy
 * queue), or whose fixed points end before their skips pay for the probe
 * that found them, is probed again only after 1, 2, 4 ... FG_IDLE_BACKOFF
 * edges in a row with repeated inputs, and a block with a large state (the F/E queues'
 * bit store) only after one edge in a row per FG_IDLE_PROBE_BYTES of it, so
 * that the probe's copy and comparison of the whole state is paid for by
 * the edges it saves.
 * $FG_IDLE_SKIP=0 turns it off.  Returns 0, or -1 out of memory. */
int fg_block_idle_skip(fg_block *b);
#define FG_IDLE_BACKOFF 256
#define FG_IDLE_PROBE_BYTES 4096
/* A tracer of every block created while it is installed (fg_wave.c installs
 * one for --wave, so that this file knows no waveform code).  attach may
 * decline (leave b->wave NULL); edge (before an edge), step (after it, with
 * its inputs and the outputs before it) and detach (at fg_block_free) are
 * called only while b->wave is set. */
typedef struct fg_block_tracer {
    void (*attach)(fg_block *b);
    void (*edge)(fg_block *b);
    void (*step)(fg_block *b, const void *in, const void *out_before);
    void (*detach)(fg_block *b);
} fg_block_tracer;
/* Installs t (NULL: none) for the blocks created from now on; a block keeps
 * the one it was created under. */
void fg_block_set_tracer(const fg_block_tracer *t);

/* FST waveform of the RTL side from cycle start to end (end 0 = no end). */
int fg_block_trace(fg_block *b, const char *path, uint64_t start, uint64_t end);

/* Compares two output structs of cls; fills m and returns false on the first
 * differing port. */
bool fg_ports_equal(const fg_port *ports, unsigned n, const void *a, const void *b,
                    fg_mismatch *m);
/* Looks a port value up by name (tests and trace printing). */
uint64_t fg_port_get(const fg_port *ports, unsigned n, const void *s, const char *name);

#ifdef __cplusplus
}
#endif
#endif
