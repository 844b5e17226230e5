/* memc_get_lock.c's kernel (the artifact's non-GET path) over a receive
 * ring in synchronized memory (memc_get_ring.c). */
#define MEMC_NON_GET_LOCKS
#include "memc_get_ring.c"
