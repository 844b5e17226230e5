/* fg_host: the host side of the FPGA top's register bus (docs/FPGA.md).
 *
 * One transport, LiteX's UARTBone framing, over either the board's serial
 * device or a TCP socket (the verilated top's UART model, build/bin/fpga_sim,
 * or anything that forwards a byte stream).  Addresses are byte addresses,
 * word aligned, as LiteX's RemoteClient counts them; the frame carries
 * address / 4.  Register offsets come from fpga/gen/fg_regmap.h (generated
 * with the RTL from fpga/regmap.py).
 *
 *   fg_host *h = fg_host_open("tcp:127.0.0.1:1234", err, sizeof err);
 *   fg_host *h = fg_host_open("/dev/ttyUSB0", err, sizeof err);      115200 baud
 *   fg_host *h = fg_host_open("/dev/ttyUSB0@1000000", err, sizeof err);
 *
 * Every call returns 0 on success, -1 on an I/O error or timeout (the
 * reason in fg_host_error()). */
#ifndef FG_HOST_H
#define FG_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "fg_regmap.h"

typedef struct fg_host fg_host;

/* UARTBone commands (LiteX litex/soc/cores/uart.py) */
enum { FG_UB_WRITE = 0x01, FG_UB_READ = 0x02, FG_UB_WRITE_FIXED = 0x03, FG_UB_READ_FIXED = 0x04 };

/* Builds one frame into buf (room for 6 + 4 * n bytes): command, length n
 * (1..256; 256 is sent as 0), the big-endian word address byte_addr / 4, and
 * for a write the n big-endian data words.  Returns its length. */
size_t fg_ub_frame(uint8_t *buf, uint8_t cmd, unsigned n, uint32_t byte_addr, const uint32_t *data);

fg_host *fg_host_open(const char *where, char *err, size_t errlen);
void fg_host_close(fg_host *h);
const char *fg_host_error(const fg_host *h);
/* Sets the error text; returns -1 (for helpers built on fg_host). */
int fg_host_fail(fg_host *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Reply timeout per read, ms (default 2000). */
void fg_host_set_timeout(fg_host *h, unsigned ms);

int fg_host_read(fg_host *h, uint32_t addr, uint32_t *val);
int fg_host_write(fg_host *h, uint32_t addr, uint32_t val);
/* n consecutive words (n <= 256) */
int fg_host_read_burst(fg_host *h, uint32_t addr, uint32_t *vals, unsigned n);
int fg_host_write_burst(fg_host *h, uint32_t addr, const uint32_t *vals, unsigned n);
/* n words (n <= 256) all to the one address addr (UARTBone's fixed-address
 * write): a stream into a port such as the trace player's LOAD. */
int fg_host_write_fixed(fg_host *h, uint32_t addr, const uint32_t *vals, unsigned n);
/* A register of width bits (<= 64) at addr: word k holds bits 32k.. */
int fg_host_read_field(fg_host *h, uint32_t addr, unsigned width, uint64_t *val);
int fg_host_write_field(fg_host *h, uint32_t addr, unsigned width, uint64_t val);

/* Reads ID, VERSION and MAP_HASH and checks them against fg_regmap.h (the
 * bitstream and this program were built from the same register map). */
int fg_host_check_id(fg_host *h);
/* SYS RESET: every block and its registers back to reset; the bus stays. */
int fg_host_reset_blocks(fg_host *h);
int fg_host_cycles(fg_host *h, uint64_t *cycles);

#endif
