/* scripts/check_threads.sh's kernel: every thread takes a ticket from one
 * global counter (an atomic add) and writes its id at the ticket's place, and
 * the cycle it did so.  The order array is the order in which the cores'
 * atomics reached the counter, cycle by cycle and core by core: the GPU's
 * threads (gpu.threads) must leave it as one thread does. */
#include "fg_kernel.h"

struct t_ticket_args {
    uint32_t *ticket;
    uint32_t *order;
    uint32_t *clk;
};

void t_ticket(const struct t_ticket_args *p) {
    uint32_t id = fg_global_id_x();
    uint32_t t = fg_atomic_add(p->ticket, 1);
    p->order[t] = id;
    p->clk[id] = fg_clock();
}
