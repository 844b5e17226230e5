/* The verilated FPGA top (fpga/finegrain_ulx3s.sv) as C sees it: one call per
 * clock cycle with the level of the UART line into the FPGA; the line out
 * and the LEDs are read back.  The only C++ is fg_top_model.cpp. */
#ifndef FG_TOP_MODEL_H
#define FG_TOP_MODEL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fg_top_model fg_top_model;

fg_top_model *fg_top_model_new(void);
/* One rising edge of the design clock with ftdi_txd (the FPGA's RX) = rx;
 * returns ftdi_rxd (the FPGA's TX) after the edge. */
int fg_top_model_step(fg_top_model *m, int rx);
unsigned fg_top_model_leds(const fg_top_model *m);
/* Non-NULL once an RTL assertion failed. */
const char *fg_top_model_error(const fg_top_model *m);
/* FST of every cycle from now on; -1 when the file cannot be opened. */
int fg_top_model_trace(fg_top_model *m, const char *path);
void fg_top_model_free(fg_top_model *m);

#ifdef __cplusplus
}
#endif
#endif
