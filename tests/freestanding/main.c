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
 * failure. It runs the MRTR spec's work-item flow to completion (a call in
 * a static workspace, the recorded server messages, every request compared
 * byte for byte) and a requestState seal/unseal round trip.
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

/* ---- the work-item flow ------------------------------------------------- */

static const char WI_PARAMS[] =
    "{\"name\": \"update_work_item\", \"arguments\": {\"workItemId\": 4522, \"fields\": { "
    "\"System.State\": \"Resolved\" }}}";

#define WI_HEAD(id) "{\"jsonrpc\":\"2.0\",\"id\":" #id ",\"method\":\"tools/call\",\"params\":"
#define WI_P                                                                   \
    "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","  \
    "\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{\"form\":{}}},"       \
    "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"ExampleClient\",\"version\":"      \
    "\"1.0.0\"}},\"name\":\"update_work_item\",\"arguments\":{\"workItemId\": 4522, "     \
    "\"fields\": { \"System.State\": \"Resolved\" }}"

static const char *const WI_REQUESTS[3] = {
    WI_HEAD(1) WI_P "}}",
    WI_HEAD(2) WI_P ",\"inputResponses\":{\"resolution\":{\"action\":\"accept\","
                    "\"content\":{\"resolution\":\"Duplicate\"}}}}}",
    WI_HEAD(3) WI_P ",\"inputResponses\":{\"duplicate_of\":{\"action\":\"accept\","
                    "\"content\":{\"duplicateOfId\":4301}}},\"requestState\":"
                    "\"eyJyZXNvbHV0aW9uIjoiRHVwbGljYXRlIn0...\"}}",
};

static const char *const WI_REPLIES[3] = {
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\","
    "\"inputRequests\":{\"resolution\":{\"method\":\"elicitation/create\",\"params\":{"
    "\"message\":\"Resolving Bug #4522 requires a resolution. How was this bug resolved?\","
    "\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"resolution\":{\"type\":"
    "\"string\",\"enum\":[\"Fixed\",\"Won't Fix\",\"Duplicate\",\"By Design\"],"
    "\"description\":\"Resolution type for this bug\"}},\"required\":[\"resolution\"]}}}}}}",
    "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"input_required\","
    "\"inputRequests\":{\"duplicate_of\":{\"method\":\"elicitation/create\",\"params\":{"
    "\"message\":\"Since this is a duplicate, which work item is the original?\","
    "\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"duplicateOfId\":{\"type\":"
    "\"number\",\"description\":\"Work item ID of the original bug\"}},\"required\":"
    "[\"duplicateOfId\"]}}}},\"requestState\":\"eyJyZXNvbHV0aW9uIjoiRHVwbGljYXRlIn0...\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[{\"type\":\"text\",\"text\":"
    "\"Bug #4522 resolved as Duplicate of Bug #4301. State set to Resolved and duplicate "
    "link created.\"}],\"isError\":false}}",
};

static const char *const WI_ANSWERS[2] = {
    "{\"resolution\":\"Duplicate\"}",
    "{\"duplicateOfId\":4301}",
};

/* The workspace: room for the default limits, aligned as mrtr requires. */
static uint64_t call_ws[65536 / 8];
static mrtr_call *call;
static mrtr_call_limits limits;
static uint8_t request[1024];
static size_t request_len;
static mrtr_event event;

static long call_limits(void *arg) {
    size_t *sizes = (size_t *)arg;
    if (mrtr_call_workspace_size(NULL, &sizes[0]) != MRTR_OK ||
        mrtr_call_limits_default(&limits) != MRTR_OK) {
        return -1;
    }
    /* The work item's high-water marks (core::client tests derive them). */
    limits.max_input_requests = 1;
    limits.max_params_bytes = 320;
    limits.max_inputs_bytes = 572;
    limits.max_state_bytes = 40;
    limits.max_answers_bytes = 56;
    return mrtr_call_workspace_size(&limits, &sizes[1]);
}

static long call_init(void *arg) {
    mrtr_call_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.method = MRTR_METHOD_TOOLS_CALL;
    cfg.params.ptr = WI_PARAMS;
    cfg.params.len = sizeof WI_PARAMS - 1;
    cfg.caps = MRTR_CAP_ELICITATION_FORM;
    cfg.client_name.ptr = "ExampleClient";
    cfg.client_name.len = 13;
    cfg.client_version.ptr = "1.0.0";
    cfg.client_version.len = 5;
    cfg.limits = &limits;
    return mrtr_call_init(call_ws, *(size_t *)arg, &cfg, &call);
}

static long call_write(void *arg) {
    return mrtr_call_write_request(call, *(int64_t *)arg, request, sizeof request, &request_len);
}

static long call_feed(void *arg) {
    const char *msg = (const char *)arg;
    return mrtr_call_feed(call, (const uint8_t *)msg, strlen(msg), &event);
}

static long call_answer(void *arg) {
    mrtr_str content;
    content.ptr = (const char *)arg;
    content.len = strlen(content.ptr);
    return mrtr_call_answer_elicit(call, 0, MRTR_ELICIT_ACCEPT, content);
}

static void run_work_item(size_t tight) {
    int64_t id;
    int ok = 1;
    check(measure("mrtr_call_init", call_init, &tight) == MRTR_OK, "call init");
    for (id = 1; id <= 3; id++) {
        check(measure("mrtr_call_write_request", call_write, &id) == MRTR_OK, "write request");
        ok = request_len == strlen(WI_REQUESTS[id - 1]) &&
             memcmp(request, WI_REQUESTS[id - 1], request_len) == 0;
        check(ok, "request bytes");
        if (!ok) {
            put_bytes(request, request_len);
            put("\n");
        }
        check(measure("mrtr_call_feed", call_feed, (void *)(uintptr_t)WI_REPLIES[id - 1]) ==
                  MRTR_OK,
              "feed");
        if (id < 3) {
            check(event.kind == MRTR_EVENT_INPUT_REQUIRED && event.input_count == 1,
                  "input required");
            check(measure("mrtr_call_answer_elicit", call_answer,
                          (void *)(uintptr_t)WI_ANSWERS[id - 1]) == MRTR_OK,
                  "answer");
        }
    }
    check(event.kind == MRTR_EVENT_COMPLETE, "work item complete");
    check(event.result.len > 0 && WI_REPLIES[2][event.result.offset] == '{', "result span");
}

/* ---- seal / unseal ------------------------------------------------------- */

static uint64_t sealer_mem[4096 / 8];
static mrtr_sealer *sealer;
static uint8_t binding[32];
static uint8_t token[256];
static size_t token_len;
static uint8_t scratch[256];
static mrtr_bytes unsealed;
static const uint8_t SEAL_KEY[32] = "0123456789abcdef0123456789abcdef";
static const uint8_t SEAL_NONCE[24] = "nonce-nonce-nonce-nonce";

static long seal_init(void *arg) {
    mrtr_bytes key;
    mrtr_str audience;
    (void)arg;
    if (mrtr_sealer_size() > sizeof sealer_mem) {
        return -1;
    }
    key.ptr = SEAL_KEY;
    key.len = sizeof SEAL_KEY;
    audience.ptr = "https://mcp.example.com";
    audience.len = strlen(audience.ptr);
    return mrtr_sealer_init(sealer_mem, sizeof sealer_mem, &key, 1, audience, 0,
                            MRTR_SEAL_DEFAULT_SKEW_SECONDS, 0, &sealer, NULL);
}

static long seal_binding(void *arg) {
    static const char args[] = "{\"workItemId\": 4522, \"fields\": { \"System.State\": \"Resolved\" }}";
    mrtr_str method, target;
    (void)arg;
    method.ptr = "tools/call";
    method.len = 10;
    target.ptr = "update_work_item";
    target.len = 16;
    return mrtr_binding_digest(method, target, (const uint8_t *)args, sizeof args - 1, binding, NULL);
}

static long seal_seal(void *arg) {
    mrtr_bytes state;
    (void)arg;
    state.ptr = (const uint8_t *)"{\"resolution\":\"Duplicate\"}";
    state.len = 26;
    return mrtr_seal(sealer, 1000, SEAL_NONCE, binding, NULL, state, token, sizeof token,
                     &token_len);
}

static long seal_unseal(void *arg) {
    mrtr_bytes tok;
    mrtr_unseal_reason reason;
    tok.ptr = token;
    tok.len = token_len;
    return mrtr_unseal(sealer, *(uint64_t *)arg, tok, binding, NULL, scratch, sizeof scratch,
                       &unsealed, &reason, NULL);
}

static void run_seal(void) {
    uint64_t now = 1030, late = 1000 + 600 + 61;
    check(measure("mrtr_sealer_init", seal_init, NULL) == MRTR_OK, "sealer init");
    check(measure("mrtr_binding_digest", seal_binding, NULL) == MRTR_OK, "binding digest");
    check(measure("mrtr_seal", seal_seal, NULL) == MRTR_OK, "seal");
    check(token_len == mrtr_seal_token_len(26, false) && memcmp(token, "m2.", 3) == 0,
          "token shape");
    check(measure("mrtr_unseal", seal_unseal, &now) == MRTR_OK, "unseal");
    check(unsealed.len == 26 && memcmp(unsealed.ptr, "{\"resolution\":\"Duplicate\"}", 26) == 0,
          "unsealed state");
    check(measure("mrtr_unseal(expired)", seal_unseal, &late) == MRTR_ERR_INVALID_REQUEST_STATE,
          "expired token refused");
}

static void run(void) {
    size_t i;
    size_t offset = 0;
    size_t sizes[2] = {0, 0};
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

    check(measure("mrtr_call_workspace_size", call_limits, sizes) == MRTR_OK, "workspace sizes");
    put("call workspace: default limits ");
    put_uint(sizes[0]);
    put(" bytes, work-item limits ");
    put_uint(sizes[1]);
    put(" bytes\n");
    check(sizes[0] <= sizeof call_ws, "default workspace fits the static buffer");
    run_work_item(sizes[1]);
    run_seal();

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
