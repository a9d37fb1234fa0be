/*
 * Board support for QEMU's mps2-an386: reset and vectors, the CMSDK UART0,
 * SysTick, stack paint, semihosting and the mem* functions the library and
 * the compiler expect (there is no libc).
 */
#include "board.h"

/* ---- registers ----------------------------------------------------------- */

#define REG(addr) (*(volatile uint32_t *)(addr))

/* CMSDK APB UART0 (QEMU connects it to the first -serial). */
#define UART0_BASE 0x40004000u
#define UART_DATA REG(UART0_BASE + 0x00)
#define UART_STATE REG(UART0_BASE + 0x04)
#define UART_CTRL REG(UART0_BASE + 0x08)
#define UART_INTCLEAR REG(UART0_BASE + 0x0C)
#define UART_BAUDDIV REG(UART0_BASE + 0x10)
#define UART_STATE_TXFULL 1u
#define UART_STATE_RXFULL 2u
#define UART_CTRL_TX_EN 1u
#define UART_CTRL_RX_EN 2u
#define UART_CTRL_RX_INTEN 8u
#define UART_INT_RX 2u
/* UART0's receive interrupt is IRQ 0 on the AN385/AN386 images. */
#define UART0_RX_IRQ 0u

#define SYST_CSR REG(0xE000E010u)
#define SYST_RVR REG(0xE000E014u)
#define SYST_CVR REG(0xE000E018u)
#define NVIC_ISER0 REG(0xE000E100u)
#define SCB_CPACR REG(0xE000ED88u)

/* SysTick fires every 10 ms. */
#define TICKS_PER_IRQ (BOARD_CPU_HZ / 100u)

#define STACK_PAINT 0xC5C5C5C5u

/* ---- linker symbols ------------------------------------------------------- */

extern uint32_t __data_start[], __data_end[], __data_load[];
extern uint32_t __bss_start[], __bss_end[];
extern uint32_t __stack_bottom[], __stack_top[];

int main(void);

/* ---- mem* (no libc) -------------------------------------------------------- */
/* Built with -fno-builtin -fno-tree-loop-distribute-patterns, so the compiler
 * does not turn these loops back into calls to themselves. */

void *memcpy(void *restrict dst, const void *restrict src, size_t n) {
    uint8_t *d = dst;
    const uint8_t *s = src;
    while (n--) {
        *d++ = *s++;
    }
    return dst;
}

void *memmove(void *dst, const void *src, size_t n) {
    uint8_t *d = dst;
    const uint8_t *s = src;
    if (d < s) {
        while (n--) {
            *d++ = *s++;
        }
    } else if (d > s) {
        d += n;
        s += n;
        while (n--) {
            *--d = *--s;
        }
    }
    return dst;
}

void *memset(void *dst, int c, size_t n) {
    uint8_t *d = dst;
    while (n--) {
        *d++ = (uint8_t)c;
    }
    return dst;
}

int memcmp(const void *a, const void *b, size_t n) {
    const uint8_t *x = a, *y = b;
    for (; n; n--, x++, y++) {
        if (*x != *y) {
            return *x < *y ? -1 : 1;
        }
    }
    return 0;
}

int bcmp(const void *a, const void *b, size_t n) { return memcmp(a, b, n); }

/* The ARM EABI's copy and clear helpers, which the Rust code calls: here
 * the loops above, so the library's own word-copying versions (about 1.5 KiB
 * of flash) are not linked. `__aeabi_memclr` takes (dst, n). */
void __aeabi_memcpy(void *dst, const void *src, size_t n) { memcpy(dst, src, n); }
void __aeabi_memcpy4(void *dst, const void *src, size_t n) __attribute__((alias("__aeabi_memcpy")));
void __aeabi_memcpy8(void *dst, const void *src, size_t n) __attribute__((alias("__aeabi_memcpy")));
void __aeabi_memmove(void *dst, const void *src, size_t n) { memmove(dst, src, n); }
void __aeabi_memmove4(void *dst, const void *src, size_t n) __attribute__((alias("__aeabi_memmove")));
void __aeabi_memmove8(void *dst, const void *src, size_t n) __attribute__((alias("__aeabi_memmove")));
void __aeabi_memclr(void *dst, size_t n) { memset(dst, 0, n); }
void __aeabi_memclr4(void *dst, size_t n) __attribute__((alias("__aeabi_memclr")));
void __aeabi_memclr8(void *dst, size_t n) __attribute__((alias("__aeabi_memclr")));

size_t strlen(const char *s) {
    size_t n = 0;
    while (s[n]) {
        n++;
    }
    return n;
}

/* ---- reset, vectors, faults ------------------------------------------------ */

static volatile uint64_t systick_irqs;

void reset_handler(void);
static void default_handler(void);
static void hard_fault_handler(void);
static void systick_handler(void);
static void uart0_rx_handler(void);

__attribute__((section(".vectors"), used)) static void (*const vectors[16 + 32])(void) = {
    (void (*)(void))__stack_top,
    reset_handler,
    default_handler,    /* NMI */
    hard_fault_handler, /* HardFault */
    hard_fault_handler, /* MemManage */
    hard_fault_handler, /* BusFault */
    hard_fault_handler, /* UsageFault */
    0, 0, 0, 0,
    default_handler, /* SVCall */
    default_handler, /* DebugMon */
    0,
    default_handler, /* PendSV */
    systick_handler,
    [16 + UART0_RX_IRQ] = uart0_rx_handler,
};

__attribute__((noreturn, noinline)) void reset_handler(void) {
    /* The FPU first: the library is built for the hard-float ABI. */
    SCB_CPACR |= 0xFu << 20;
    __asm volatile("dsb\n isb" ::: "memory");
    for (uint32_t *s = __data_load, *d = __data_start; d < __data_end;) {
        *d++ = *s++;
    }
    for (uint32_t *d = __bss_start; d < __bss_end;) {
        *d++ = 0;
    }
    /* Paint the stack below what this function uses (64 bytes of margin). */
    uint32_t *sp;
    __asm volatile("mov %0, sp" : "=r"(sp));
    for (uint32_t *p = __stack_bottom; p < sp - 16;) {
        *p++ = STACK_PAINT;
    }
    semi_exit(main());
}

static void default_handler(void) {
    log_line("device: unexpected exception");
    semi_exit(98);
}

static void hard_fault_handler(void) {
    log_line("device: hard fault");
    semi_exit(99);
}

static void systick_handler(void) { systick_irqs = systick_irqs + 1; }

static void uart0_rx_handler(void) { UART_INTCLEAR = UART_INT_RX; }

/* ---- UART and clock ----------------------------------------------------------- */

void board_init(void) {
    UART_BAUDDIV = 16;
    UART_CTRL = UART_CTRL_TX_EN | UART_CTRL_RX_EN | UART_CTRL_RX_INTEN;
    NVIC_ISER0 = 1u << UART0_RX_IRQ;
    SYST_RVR = TICKS_PER_IRQ - 1;
    SYST_CVR = 0;
    SYST_CSR = 7; /* processor clock, interrupt, enable */
}

void uart_write(const uint8_t *data, size_t len) {
    for (size_t i = 0; i < len; i++) {
        while (UART_STATE & UART_STATE_TXFULL) {
        }
        UART_DATA = data[i];
    }
}

bool uart_read_byte(uint64_t deadline_ms, uint8_t *out) {
    for (;;) {
        /* With interrupts masked, a byte that arrives between the check and
         * WFI still wakes the core (a pending interrupt ends WFI). */
        __asm volatile("cpsid i" ::: "memory");
        if (UART_STATE & UART_STATE_RXFULL) {
            __asm volatile("cpsie i" ::: "memory");
            *out = (uint8_t)UART_DATA;
            return true;
        }
        if (deadline_ms != 0 && clock_ms() >= deadline_ms) {
            __asm volatile("cpsie i" ::: "memory");
            return false;
        }
        /* SysTick wakes the core every 10 ms to check the deadline. */
        __asm volatile("wfi" ::: "memory");
        __asm volatile("cpsie i" ::: "memory");
    }
}

uint64_t clock_ticks(void) {
    for (;;) {
        uint64_t irqs = systick_irqs;
        uint32_t cvr = SYST_CVR;
        if (irqs == systick_irqs) {
            return irqs * TICKS_PER_IRQ + (TICKS_PER_IRQ - 1u - cvr);
        }
    }
}

uint64_t clock_ms(void) { return udiv64_small(clock_ticks(), BOARD_CPU_HZ / 1000u, NULL); }

uint64_t udiv64_small(uint64_t n, uint32_t d, uint32_t *rem) {
    uint64_t q = 0;
    uint32_t r = 0;
    for (int shift = 48; shift >= 0; shift -= 16) {
        /* r < d < 2^16, so the partial dividend fits 32 bits. */
        uint32_t cur = (r << 16) | (uint32_t)((n >> shift) & 0xffffu);
        q = (q << 16) | (cur / d);
        r = cur % d;
    }
    if (rem != NULL) {
        *rem = r;
    }
    return q;
}

size_t stack_high_water(void) {
    const uint32_t *p = __stack_bottom;
    while (p < __stack_top && *p == STACK_PAINT) {
        p++;
    }
    return (size_t)((const uint8_t *)__stack_top - (const uint8_t *)p);
}

size_t stack_size(void) {
    return (size_t)((const uint8_t *)__stack_top - (const uint8_t *)__stack_bottom);
}

/* ---- semihosting ------------------------------------------------------------ */

#define SYS_OPEN 0x01
#define SYS_CLOSE 0x02
#define SYS_WRITE0 0x04
#define SYS_WRITE 0x05
#define SYS_READ 0x06
#define SYS_GET_CMDLINE 0x15
#define SYS_EXIT_EXTENDED 0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026

static int semi_call(int op, const void *arg) {
    register int r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void semi_write0(const char *s) { (void)semi_call(SYS_WRITE0, s); }

bool semi_cmdline(char *buf, size_t len) {
    if (len == 0) {
        return false;
    }
    uint32_t args[2] = {(uint32_t)(uintptr_t)buf, (uint32_t)len};
    if (semi_call(SYS_GET_CMDLINE, args) != 0) {
        buf[0] = 0;
        return false;
    }
    buf[len - 1] = 0;
    return true;
}

static int semi_open(const char *path, int mode) {
    uint32_t args[3] = {(uint32_t)(uintptr_t)path, (uint32_t)mode, (uint32_t)strlen(path)};
    return semi_call(SYS_OPEN, args);
}

static void semi_close(int fd) {
    uint32_t args[1] = {(uint32_t)fd};
    (void)semi_call(SYS_CLOSE, args);
}

long semi_read_file(const char *path, uint8_t *buf, size_t len) {
    int fd = semi_open(path, 1 /* "rb" */);
    if (fd < 0) {
        return -1;
    }
    uint32_t args[3] = {(uint32_t)fd, (uint32_t)(uintptr_t)buf, (uint32_t)len};
    int left = semi_call(SYS_READ, args);
    semi_close(fd);
    if (left < 0 || (size_t)left > len) {
        return -1;
    }
    return (long)(len - (size_t)left);
}

bool semi_write_file(const char *path, const uint8_t *buf, size_t len) {
    int fd = semi_open(path, 5 /* "wb" */);
    if (fd < 0) {
        return false;
    }
    uint32_t args[3] = {(uint32_t)fd, (uint32_t)(uintptr_t)buf, (uint32_t)len};
    int left = semi_call(SYS_WRITE, args);
    semi_close(fd);
    return left == 0;
}

_Noreturn void semi_exit(int code) {
    uint32_t args[2] = {ADP_STOPPED_APPLICATION_EXIT, (uint32_t)code};
    for (;;) {
        (void)semi_call(SYS_EXIT_EXTENDED, args);
    }
}

/* ---- debug console -------------------------------------------------------- */

void log_str(const char *s) { semi_write0(s); }

void log_u64(uint64_t v) {
    char buf[21];
    size_t i = sizeof buf - 1;
    buf[i] = 0;
    do {
        uint32_t digit;
        v = udiv64_small(v, 10, &digit);
        buf[--i] = (char)('0' + digit);
    } while (v && i);
    semi_write0(buf + i);
}

/* Writes bytes, with control characters and non-ASCII shown as '.', in
 * chunks (SYS_WRITE0 takes a NUL-terminated string). */
void log_bytes(const uint8_t *p, size_t n) {
    char chunk[65];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        chunk[k++] = (c >= 0x20 && c < 0x7f) ? (char)c : '.';
        if (k == sizeof chunk - 1) {
            chunk[k] = 0;
            semi_write0(chunk);
            k = 0;
        }
    }
    chunk[k] = 0;
    semi_write0(chunk);
}

void log_line(const char *s) {
    semi_write0(s);
    semi_write0("\n");
}
