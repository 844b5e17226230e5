/* Scripted stall traces shared by the CM-BAL test and demo. */
#ifndef CM_TRACES_H
#define CM_TRACES_H

/* stallGPU per 1024-cycle interval at each active-warp level, shaped like CM
 * Fig. 12: high at low TLP (too little latency tolerance), a knee at 8-16
 * warps, rising again at high TLP (contention). */
static inline unsigned cm_fig12_stall_gpu(unsigned warps) {
    switch (warps) {
    case 1: return 1000;
    case 2: return 860;
    case 3: return 760;
    case 4: return 680;
    case 6: return 600;
    case 8: return 560;
    case 16: return 540;
    case 24: return 600;
    default: return 700;
    }
}

#endif
