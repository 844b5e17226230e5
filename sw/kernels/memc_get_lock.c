/* The MemC GET kernel as the EDGE artifact's simpleMemcGetKernel runs it: a
 * request that is not a GET does not return but takes the lock of the set an
 * empty key hashes to (memc_get.c, MEMC_NON_GET_LOCKS).  [memc]
 * non_get_locks = 1 runs it (sim/work/memc_work.c). */
#define MEMC_NON_GET_LOCKS
#include "memc_get.c"
