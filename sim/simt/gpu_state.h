/* gpu_state: the GPU level of the SIMT model (gpu.c, gpu_diag.c,
 * elf_load.c): the launch table, the loaded kernel images, the cores and
 * their EDGE parts.  The cores are opaque here (simt_core.h): these files
 * act on them through the core's API only.  Tests and tools that look inside
 * include gpu_internal.h instead. */
#ifndef GPU_STATE_H
#define GPU_STATE_H

#include "simt/gpu.h"
#include "simt/gpu_image.h"
#include "simt/simt_core.h"
#include "simt/simt_edge_core.h"

/* Launch states.  Warp-level events (EDGE IV-C) skip the KMU: they wait for
 * the SIMT core scheduler, then sit in a core's PEWT until they complete. */
enum { LS_FREE = 0, LS_PENDING, LS_RUNNING, LS_EV_WAIT, LS_EV_CORE };

/* One launch; allocated once and reused, so the cores' pointers to its
 * grid stay valid while the table grows. */
typedef struct {
    int state;                /* LS_* */
    simt_grid k;              /* what the cores see (k.id = index in the table) */
    uint64_t tag;             /* caller's id */
    uint64_t seq;
    uint32_t nblocks, next_block, blocks_done;
    /* warp-level event (EDGE IV-C): dispatched to a core's PEWT, not as blocks */
    bool warp_event;
    bool is_event;            /* a warp-level event or a launch of priority > 0: in gpu.ev_live */
    uint64_t ev_queued;       /* cycle it reached the SIMT core scheduler */
    gpu_event_info ev;        /* filled when it starts, reported with its first instruction */
} simt_launch;


/* A host DMA job (gpu_dma_write / gpu_dma_read / gpu_copy): line requests
 * on the host port, sent in job order within its channel (channels take
 * turns line by line), complete when every line is answered (and, for a
 * gpu_copy read, when its last byte has crossed the link to the host). */
typedef struct {
    bool used, read;
    bool windowed;            /* gpu_copy read: [gpu] dma_read_window requests in flight, the data paced
                               * on the way back; otherwise requests paced at the link's rate */
    bool crossing;            /* every line answered, the last bytes still crossing the link */
    uint8_t fe_trig, fe_act;  /* of every line request (MEM_FE_DEFAULT: none, F/E 4.4) */
    unsigned chan;
    uint64_t addr;
    size_t len, sent;         /* bytes; bytes whose lines were sent */
    uint8_t *buf;             /* write: the bytes (copied); read: filled by the responses */
    double rate, credit;      /* link bytes per cycle; bytes arrived and not yet sent */
    double cross_end;         /* windowed read: cycle its last answered line has crossed the link */
    unsigned lines, done;     /* line requests sent, answered */
    gpu_dma_cb cb;
    void *user;
    uint64_t tag;
} gpu_dma_job;

struct gpu {
    gpu_config cfg;
    uint8_t *mem;
    uint64_t mem_size, brk;
    mem_system *ms;           /* ports 0..num_cores-1: the cores; num_cores: host DMA */
    gpu_dma_job *dma;         /* dma_queue jobs */
    unsigned *dma_ring;       /* per channel: jobs still sending, in order (dma_chans rings of dma_queue) */
    unsigned *dma_head, *dma_sending; /* per channel */
    unsigned dma_jobs, dma_crossing;
    unsigned dma_rr_paced, dma_rr_win; /* channel that goes first: paced jobs, windowed reads */
    bool dma_win_first;       /* which of the two kinds is offered first this cycle */
    double dma_up_free;       /* cycle the link toward the host is free (windowed reads) */
    uint64_t fe_sync_brk;     /* gpu_malloc_sync's next free byte in the F/E region */
    uint64_t dma_bytes;
    uint64_t cycle;
    bool failed;
    char err[512];
    int err_core;       /* the core the fault came from, -1: none (gpu_error_core) */
    uint64_t err_cycle;
    gpu_callbacks cb;
    gpu_event_cb ev_cb;
    void *ev_user;
    gpu_event_fault_cb evf_cb;
    void *evf_user;
    simt_dcache dc;           /* decoded instructions (simulator speed, not timing) */
    /* threads (gpu_tick): the pool (NULL: one thread), each thread's decode
     * cache (dcp[0] = &dc), the cores ticked this cycle, and whether something
     * that is not thread-safe asks for the cores to be stepped in order */
    struct fg_pool *pool;
    simt_dcache **dcp;
    unsigned n_threads;
    unsigned *on, n_on;
    bool serial;
    uint64_t par_cycles;      /* cycles whose pipelines ran on the pool ($FG_THREADS_STATS) */
    bool stats;               /* $FG_THREADS_STATS: time the parts of gpu_tick */
    double t_serial, t_par;   /* wall seconds in the serial parts and in the pipelines' part */
    gpu_side_par side_par;    /* gpu_set_side_work */
    gpu_side_serial side_serial;
    void *side_user;
    bool cycle_wrote;         /* a core's commit of this cycle wrote memory (simt_lsu_dmem) */
    simt_image *img;
    unsigned n_img, cap_img;
    simt_launch **lq;
    unsigned n_lq;
    uint64_t launch_seq;
    simt_core *core;          /* the cores, one array (simt_core_array; simt_core_nth) */
    simt_edge_core **edge;    /* per core; NULL entries when warp-level events are off */
    unsigned rr_core;
    unsigned running;         /* launches pending or running */
    uint64_t save_base;       /* register save area for preempted victims (EDGE IV-D) */
    unsigned ev_rr;           /* SIMT core scheduler: round-robin start for warp-level events */
    unsigned last_issue;      /* the core last given a block or an event ([preempt] reserve_place) */
    unsigned ev_waiting;      /* launches in LS_EV_WAIT */
    /* reservation ([preempt] reserve_cores, reserve_dynamic): the last resv_now
     * cores take only events; the controller's state (gpu.c reserve_step) */
    unsigned resv_now;
    unsigned ev_live;         /* events in flight (simt_launch.is_event) */
    uint64_t resv_acc;        /* ev_live summed over this period's cycles */
    uint64_t resv_avg;        /* moving average of events in flight, in 1/256 */
    unsigned resv_tick;       /* cycles into the period */
    gpu_reserve_stats resv_st;
    uint64_t resv[4][2];      /* gpu_reserve: [base, end) ranges gpu_malloc skips */
    unsigned n_resv;
};

/* A fault inside a kernel or the model: stops the GPU (gpu_error). */
void gpu_fault(gpu_t *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Forgets every decoded instruction (a kernel image was loaded or written). */
void gpu_decode_flush(gpu_t *g);

#endif
