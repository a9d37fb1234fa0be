/*
 * The firmware's two roles and its buffer sizes. Every buffer is static:
 * no heap, no allocation, sizes fixed at build time.
 */
#ifndef DEVICE_H
#define DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mrtr.h"

/* Longest line (one JSON-RPC message) read from the UART; a longer one is
 * skipped to its end and answered with -32700. */
#define DEVICE_LINE_BYTES 8192u
/* Longest response the server writes. */
#define DEVICE_OUT_BYTES 4096u
/* Longest requestState token the device seals or accepts. */
#define DEVICE_TOKEN_BYTES 512u

/* Server role: handles one message and writes its response (if any) into
 * server_output(); returns the response's length, 0 for none. */
size_t server_handle(const uint8_t *msg, size_t len);
/* Writes the -32700 answer to a line over DEVICE_LINE_BYTES. */
size_t server_line_too_long(void);
const uint8_t *server_output(void);

/* Client role: calls `tool` with `args` (a JSON object, or empty for none)
 * on the host server at the other end of the UART and answers what it
 * asks; returns the process exit code (0 complete, 2 JSON-RPC error, 3
 * protocol violation or cap, 4 transport, 1 local error). */
int client_run(const char *tool, const char *args);

/* Reads one line from the UART into buf (terminator dropped, a trailing
 * CR too): its length, -1 when it was longer than cap, -2 when
 * `deadline_ms` (clock_ms(); 0: none) came first. With `skip_long` a
 * longer line is read to its end first (the server answers it and goes
 * on); without, -1 comes as soon as the line outgrows `cap` (the client
 * gives the call up anyway, and a megabyte line must not hold it until
 * the deadline). */
long device_read_line(uint8_t *buf, size_t cap, uint64_t deadline_ms, bool skip_long);

#endif
