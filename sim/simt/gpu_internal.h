/* gpu_internal: the white-box view of the GPU model for tests and tools
 * that look inside it: the GPU level (gpu_state.h) and the cores' layout
 * (simt_core_state.h), so that e.g. g->core[i].used_warps reads a core's
 * resource count.  The model's own files outside the core use gpu_state.h and
 * the core's API (simt_core.h). */
#ifndef GPU_INTERNAL_H
#define GPU_INTERNAL_H

#include "simt/gpu_state.h"
#include "simt/simt_core_state.h"

#endif
