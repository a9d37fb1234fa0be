/*
 * Board support for QEMU's mps2-an386 (Cortex-M4F at 25 MHz): the UART the
 * MCP stdio transport runs on, a millisecond clock, the painted stack, and
 * Arm semihosting, which stands in for the parts a real board has in
 * hardware (the non-volatile store, the debug console, the exit code).
 */
#ifndef DEVICE_BOARD_H
#define DEVICE_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The C library functions this firmware defines itself (board.c). */
void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);

/* CPU clock of the board (QEMU's mps2 SYSCLK), which SysTick counts. */
#define BOARD_CPU_HZ 25000000u

/* Starts the UART (both directions, receive interrupt) and the 10 ms
 * SysTick clock. */
void board_init(void);

/* Writes `len` bytes to the UART (blocking). */
void uart_write(const uint8_t *data, size_t len);

/* Waits (sleeping with WFI) for the next byte from the UART until
 * clock_ms() reaches `deadline_ms` (0: no deadline); false on the
 * deadline. */
bool uart_read_byte(uint64_t deadline_ms, uint8_t *out);

/* Milliseconds since reset (64 bits: it never wraps). */
uint64_t clock_ms(void);

/* n / d, and n % d in *rem (NULL: not wanted), for 0 < d < 65536, by
 * 16-bit long division: 32-bit divisions only, so the image links no 64-bit
 * division helper (the library needs none either). */
uint64_t udiv64_small(uint64_t n, uint32_t d, uint32_t *rem);

/* SysTick ticks (1 / BOARD_CPU_HZ s) since reset. Under `qemu -icount
 * shift=0` one instruction is one nanosecond of virtual time, so a
 * difference of ticks times 40 is the number of instructions executed
 * (to 40 instructions). */
uint64_t clock_ticks(void);

/* Stack bytes ever used since reset: the painted region below the stack's
 * top that no longer holds the paint. */
size_t stack_high_water(void);
/* Total stack bytes (the linker script's STACK_SIZE). */
size_t stack_size(void);

/* Semihosting (the debugger, or QEMU with -semihosting-config enable=on). */
/* Writes a NUL-terminated string to the debug console (QEMU: stderr). */
void semi_write0(const char *s);
/* Fills `buf` with the command line (NUL-terminated); false if none. */
bool semi_cmdline(char *buf, size_t len);
/* Reads up to `len` bytes of file `path` into `buf`; returns the bytes
 * read, or -1 when the file cannot be opened. */
long semi_read_file(const char *path, uint8_t *buf, size_t len);
/* Replaces file `path` with `len` bytes; false on any failure. */
bool semi_write_file(const char *path, const uint8_t *buf, size_t len);
/* Ends the program with `code` (QEMU exits with it). */
_Noreturn void semi_exit(int code);

/* Debug console helpers (semihosting). */
void log_str(const char *s);
void log_u64(uint64_t v);
void log_bytes(const uint8_t *p, size_t n);
void log_line(const char *s);

#endif
