/*
 * Freestanding proof: libmrtr.a runs with no C library, no allocator, no
 * threads and no unwinder. Built by scripts/test-freestanding with
 *   -ffreestanding -nostdlib -static -fno-stack-protector -fno-builtin
 * for x86_64 Linux: this file supplies the process entry (_start), the two
 * system calls it needs (write, exit) and the memory functions that compilers
 * may call (memcpy, memmove, memset, memcmp, bcmp, strlen).
 *
 * Each call into mrtr runs on a separate, painted stack, so the program can
 * print exactly how many bytes of stack the call used (its high-water mark).
 * It ends with "freestanding: N passed, M failed" and exits non-zero on any
 * failure. Later functions (call, server, seal) extend it to the whole
 * work-item flow.
 */
#include "mrtr.h"

#ifndef MRTR_EXPECTED_VERSION
#error "compile with -DMRTR_EXPECTED_VERSION=\"x.y.z\" (scripts/test-freestanding does)"
#endif

#if !defined(__x86_64__) || !defined(__linux__)
#error "the freestanding proof targets x86_64 Linux (syscall ABI, _start)"
#endif

/* ---- the C runtime this program provides -------------------------------- */

static long sys_write(int fd, const void *buf, size_t len) {
    long ret;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(1L), "D"((long)fd), "S"(buf), "d"(len)
                     : "rcx", "r11", "memory");
    return ret;
}

static void sys_exit(int code) __attribute__((noreturn));
static void sys_exit(int code) {
    __asm__ volatile("syscall" : : "a"(60L), "D"((long)code) : "rcx", "r11", "memory");
    for (;;) {
    }
}

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
int bcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);

void *memcpy(void *restrict dst, const void *restrict src, size_t n) {
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    while (n--) {
        *d++ = *s++;
    }
    return dst;
}

void *memmove(void *dst, const void *src, size_t n) {
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    if (d < s) {
        while (n--) {
            *d++ = *s++;
        }
    } else {
        while (n--) {
            d[n] = s[n];
        }
    }
    return dst;
}

void *memset(void *dst, int c, size_t n) {
    unsigned char *d = (unsigned char *)dst;
    while (n--) {
        *d++ = (unsigned char)c;
    }
    return dst;
}

int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *x = (const unsigned char *)a;
    const unsigned char *y = (const unsigned char *)b;
    for (; n; n--, x++, y++) {
        if (*x != *y) {
            return *x < *y ? -1 : 1;
        }
    }
    return 0;
}

int bcmp(const void *a, const void *b, size_t n) { return memcmp(a, b, n); }

size_t strlen(const char *s) {
    size_t n = 0;
    while (s[n]) {
        n++;
    }
    return n;
}

/* ---- output ------------------------------------------------------------- */

static void put(const char *s) { sys_write(1, s, strlen(s)); }

static void put_bytes(const void *p, size_t n) { sys_write(1, p, n); }

static void put_uint(size_t v) {
    char buf[24];
    size_t i = sizeof buf;
    do {
        buf[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v && i);
    put_bytes(buf + i, sizeof buf - i);
}

static int passed, failed;

static void check(int ok, const char *what) {
    if (ok) {
        passed++;
    } else {
        failed++;
        put("FAIL ");
        put(what);
        put("\n");
    }
}

static int str_eq(const char *a, const char *b) {
    size_t n = strlen(b);
    return strlen(a) == n && memcmp(a, b, n) == 0;
}

/* ---- stack measurement -------------------------------------------------- */

/* fs_call_on_stack(top, fn, arg): runs fn(arg) with the stack pointer at
 * `top` (16-byte aligned) and returns its result on the original stack. */
long fs_call_on_stack(void *top, long (*fn)(void *), void *arg);
__asm__(".text\n"
        ".globl fs_call_on_stack\n"
        ".type fs_call_on_stack,@function\n"
        "fs_call_on_stack:\n"
        "    push %rbp\n"
        "    mov %rsp, %rbp\n"
        "    mov %rdi, %rsp\n"
        "    mov %rdx, %rdi\n"
        "    call *%rsi\n"
        "    mov %rbp, %rsp\n"
        "    pop %rbp\n"
        "    ret\n"
        ".size fs_call_on_stack, .-fs_call_on_stack\n");

#define PROBE_STACK_BYTES (64 * 1024)
#define PAINT 0xA5u
static unsigned char probe_stack[PROBE_STACK_BYTES] __attribute__((aligned(16)));
static size_t high_water;

/* Runs fn(arg) on the painted stack; returns fn's result and stores the
 * bytes of stack it touched (its own frame and the fs_call_on_stack return
 * address included). */
static long measure(const char *name, long (*fn)(void *), void *arg) {
    size_t i;
    size_t used;
    long ret;
    memset(probe_stack, PAINT, sizeof probe_stack);
    ret = fs_call_on_stack(probe_stack + sizeof probe_stack, fn, arg);
    for (i = 0; i < sizeof probe_stack && probe_stack[i] == PAINT; i++) {
    }
    used = sizeof probe_stack - i;
    check(i > 0, "stack probe overflowed");
    put("stack ");
    put(name);
    put(": ");
    put_uint(used);
    put(" bytes\n");
    if (used > high_water) {
        high_water = used;
    }
    return ret;
}

/* ---- the calls ---------------------------------------------------------- */

/* A JSON-RPC response carrying an InputRequiredResult (elicitation and
 * sampling requests plus requestState), as a server sends it. */
static const char sample_response[] =
    "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{"
    "\"resultType\":\"input_required\","
    "\"inputRequests\":{"
    "\"github_login\":{\"method\":\"elicitation/create\",\"params\":{"
    "\"message\":\"Please provide your GitHub username\","
    "\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"name\":"
    "{\"type\":\"string\"}},\"required\":[\"name\"]}}},"
    "\"capital_of_france\":{\"method\":\"sampling/createMessage\",\"params\":{"
    "\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\","
    "\"text\":\"What is the capital of France?\"}}],\"maxTokens\":100}}},"
    "\"requestState\":\"eyJsb2NhdGlvbiI6Ik5ldyBZb3JrIn0\"}}";

static char deep_doc[2 * MRTR_JSON_MAX_DEPTH];

static long call_version(void *arg) {
    (void)arg;
    return str_eq(mrtr_version(), MRTR_EXPECTED_VERSION) && str_eq(mrtr_protocol_version(), "2026-07-28") &&
           str_eq(mrtr_status_str(MRTR_ERR_JSON), "MRTR_ERR_JSON") &&
           str_eq(mrtr_status_str(-5), "MRTR_UNKNOWN_STATUS");
}

static long call_validate_sample(void *arg) {
    (void)arg;
    return mrtr_json_validate((const uint8_t *)sample_response, sizeof sample_response - 1, 0,
                              NULL);
}

static long call_validate_invalid(void *arg) {
    size_t *offset = (size_t *)arg;
    /* The sample with its last byte cut off. */
    return mrtr_json_validate((const uint8_t *)sample_response, sizeof sample_response - 2, 0,
                              offset);
}

static long call_validate_deep(void *arg) {
    (void)arg;
    return mrtr_json_validate((const uint8_t *)deep_doc, sizeof deep_doc, MRTR_JSON_MAX_DEPTH,
                              NULL);
}

struct quote_args {
    uint8_t out[64];
    size_t written;
};

static long call_write_string(void *arg) {
    struct quote_args *q = (struct quote_args *)arg;
    mrtr_str text;
    text.ptr = "caf\xc3\xa9 \"au lait\"\n";
    text.len = strlen(text.ptr);
    return mrtr_json_write_string(text, q->out, sizeof q->out, &q->written);
}

static void run(void) {
    size_t i;
    size_t offset = 0;
    struct quote_args q;
    static const char quoted[] = "\"caf\xc3\xa9 \\\"au lait\\\"\\n\"";

    for (i = 0; i < MRTR_JSON_MAX_DEPTH; i++) {
        deep_doc[i] = '[';
        deep_doc[MRTR_JSON_MAX_DEPTH + i] = ']';
    }

    check(measure("mrtr_version+mrtr_status_str", call_version, NULL) == 1, "version strings");
    check(measure("mrtr_json_validate(sample)", call_validate_sample, NULL) == MRTR_OK,
          "sample response is valid JSON");
    check(measure("mrtr_json_validate(truncated)", call_validate_invalid, &offset) ==
              MRTR_ERR_JSON,
          "truncated sample is malformed");
    check(offset == sizeof sample_response - 2, "error offset is the end of the input");
    check(measure("mrtr_json_validate(depth 256)", call_validate_deep, NULL) == MRTR_OK,
          "256-deep document within MRTR_JSON_MAX_DEPTH");
    q.written = 0;
    check(measure("mrtr_json_write_string", call_write_string, &q) == MRTR_OK, "quote");
    check(q.written == sizeof quoted - 1 && memcmp(q.out, quoted, q.written) == 0,
          "quoted bytes");

    put("stack high-water mark: ");
    put_uint(high_water);
    put(" bytes\n");
    put("freestanding: ");
    put_uint((size_t)passed);
    put(" passed, ");
    put_uint((size_t)failed);
    put(" failed\n");
}

/* Process entry: no C runtime, so clear the frame pointer, align the stack
 * as the ABI requires at a call, and never return. */
void fs_main(void) __attribute__((noreturn));
void fs_main(void) {
    run();
    sys_exit(failed == 0 ? 0 : 1);
}

__asm__(".text\n"
        ".globl _start\n"
        ".type _start,@function\n"
        "_start:\n"
        "    xor %ebp, %ebp\n"
        "    and $-16, %rsp\n"
        "    call fs_main\n"
        "    ud2\n"
        ".size _start, .-_start\n");
