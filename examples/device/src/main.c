/*
 * mrtr device firmware: an MCP server (default) or client on the UART.
 *
 * The command line (semihosting; on a real board, a boot option):
 *   device server [trace]          serve MCP over the UART until reset
 *                                  (trace: log every line both ways)
 *   device client TOOL [ARGS_JSON] call TOOL on the host server across the
 *                                  UART, answer its questions, exit
 */
#include "board.h"
#include "device.h"
#include "trust.h"

static uint8_t line[DEVICE_LINE_BYTES];

long device_read_line(uint8_t *buf, size_t cap, uint64_t deadline_ms, bool skip_long) {
    size_t n = 0;
    bool too_long = false;
    for (;;) {
        uint8_t c = 0;
        if (!uart_read_byte(deadline_ms, &c)) {
            return -2;
        }
        if (c == '\n') {
            break;
        }
        if (n < cap) {
            buf[n++] = c;
        } else if (skip_long) {
            too_long = true;
        } else {
            return -1;
        }
    }
    if (too_long) {
        return -1;
    }
    if (n > 0 && buf[n - 1] == '\r') {
        n--;
    }
    return (long)n;
}

static void log_stats(long in, size_t out, uint64_t ticks) {
    log_str("device: request in=");
    log_u64((uint64_t)in);
    log_str(" out=");
    log_u64(out);
    /* Under qemu -icount shift=0 a tick (1/25 MHz) is 40 instructions. */
    log_str(" insns=");
    log_u64(ticks * 40u);
    log_str(" stack_high_water=");
    log_u64(stack_high_water());
    log_str("\n");
}

/* Trace mode: every line received and sent goes to the debug console. */
static bool trace;

_Noreturn static void serve(void) {
    if (trust_init()) {
        log_str("device: sealing on, epoch ");
        log_u64(trust_epoch());
        log_str("\n");
    }
    static const uint8_t nl = '\n';
    for (;;) {
        long n = device_read_line(line, sizeof line, 0, true);
        if (n == 0) {
            continue;
        }
        if (trace) {
            log_str("<- ");
            if (n > 0) {
                log_bytes(line, (size_t)n);
            } else {
                log_str("(a line over the limit, skipped)");
            }
            log_str("\n");
        }
        uint64_t t0 = clock_ticks();
        size_t out = n < 0 ? server_line_too_long() : server_handle(line, (size_t)n);
        uint64_t t1 = clock_ticks();
        if (out > 0) {
            uart_write(server_output(), out);
            uart_write(&nl, 1);
            if (trace) {
                log_str("-> ");
                log_bytes(server_output(), out);
                log_str("\n");
            }
        }
        log_stats(n, out, t1 - t0);
    }
}

/* Splits the command line in place: the first `max` words; the rest of the
 * line (from the word after them) goes to *rest. */
static size_t split(char *s, char **words, size_t max, char **rest) {
    size_t n = 0;
    *rest = NULL;
    while (*s) {
        while (*s == ' ') {
            s++;
        }
        if (!*s) {
            break;
        }
        if (n == max) {
            *rest = s;
            break;
        }
        words[n++] = s;
        while (*s && *s != ' ') {
            s++;
        }
        if (*s) {
            *s++ = 0;
        }
    }
    return n;
}

int main(void) {
    board_init();
    static char cmd[1024];
    char *words[3] = {0, 0, 0};
    char *rest = NULL;
    size_t n = semi_cmdline(cmd, sizeof cmd) ? split(cmd, words, 3, &rest) : 0;
    log_str("device: mrtr ");
    log_str(mrtr_version());
    log_str(", MCP ");
    log_line(mrtr_protocol_version());
    bool client = n >= 2 && strlen(words[1]) == 6 && memcmp(words[1], "client", 6) == 0;
    if (client && n >= 3) {
        int code = client_run(words[2], rest ? rest : "");
        log_str("device: client exit ");
        log_u64((uint64_t)code);
        log_str(", stack_high_water=");
        log_u64(stack_high_water());
        log_str("\n");
        return code;
    }
    if (n >= 3 && strlen(words[2]) == 5 && memcmp(words[2], "trace", 5) == 0) {
        trace = true;
    }
    if (client || (n >= 2 && !(strlen(words[1]) == 6 && memcmp(words[1], "server", 6) == 0))) {
        log_line("device: usage: device server [trace] | device client TOOL [ARGS_JSON]");
        return 1;
    }
    serve();
}
