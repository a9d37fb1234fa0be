/*
 * Helpers shared by the C test suites: exact-size heap copies (so
 * AddressSanitizer and valgrind catch any access past a length), strings,
 * workspaces, and the suites' entry points.
 */
#ifndef MRTR_TESTUTIL_H
#define MRTR_TESTUTIL_H

#include <stdint.h>
#include <stdlib.h>

#include "harness.h"

/* A heap copy of exactly `len` bytes (at least one byte is allocated so the
 * pointer is never NULL; nothing past `len` may be read). */
static inline uint8_t *heap_copy(const void *bytes, size_t len) {
    uint8_t *p = (uint8_t *)malloc(len ? len : 1);
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    if (len) {
        memcpy(p, bytes, len);
    }
    return p;
}

/* A view of a NUL-terminated string (not copied). */
static inline mrtr_str str_of(const char *s) {
    mrtr_str r;
    r.ptr = s;
    r.len = strlen(s);
    return r;
}

/* An exact-size heap copy of a NUL-terminated string; free with
 * str_free. */
static inline mrtr_str heap_str(const char *s) {
    mrtr_str r;
    r.len = strlen(s);
    r.ptr = (const char *)heap_copy(s, r.len);
    return r;
}

static inline void str_free(mrtr_str s) { free((void *)(uintptr_t)s.ptr); }

/* `n` bytes of heap (malloc aligns to at least MRTR_WORKSPACE_ALIGN). */
static inline void *ws_new(size_t n) {
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* The suites (one per file). */
void suite_call(void);
void suite_run(void);
void suite_task(void);
void suite_helpers(void);
void suite_seal(void);
void suite_seal_wipe(void);
void suite_server(void);
void suite_misuse(void);
void suite_contract(void);
void suite_vectors(void);

/* ---- driving a call (any flow) through its legs, checked on the way */

/* Writes the next leg with `id`: the size query and a buffer one byte short
 * both report the exact size, then an exact buffer succeeds. Returns a heap,
 * NUL-terminated copy (free it). */
static inline char *leg(mrtr_call *call, int64_t id) {
    size_t need = 0, n = 0;
    uint8_t *out;
    char *text;
    CHECK_STATUS(mrtr_call_write_request(call, id, NULL, 0, &need), MRTR_ERR_BUFFER_TOO_SMALL);
    CHECK(need > 0);
    out = (uint8_t *)ws_new(need);
    CHECK_STATUS(mrtr_call_write_request(call, id, out, need - 1, &n), MRTR_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_SIZE(n, need);
    n = 0;
    CHECK_STATUS(mrtr_call_write_request(call, id, out, need, &n), MRTR_OK);
    CHECK_EQ_SIZE(n, need);
    text = (char *)ws_new(n + 1);
    memcpy(text, out, n);
    text[n] = '\0';
    free(out);
    return text;
}

/* Feeds `msg` from an exact-size heap copy. With `keep`, the copy is handed
 * back (the event's spans point into it); otherwise it is freed. */
static inline mrtr_status feed(mrtr_call *call, const char *msg, mrtr_event *ev, uint8_t **keep) {
    size_t len = strlen(msg);
    uint8_t *copy = heap_copy(msg, len);
    mrtr_status s = mrtr_call_feed(call, copy, len, ev);
    if (keep != NULL) {
        *keep = copy;
    } else {
        free(copy);
    }
    return s;
}

static inline mrtr_progress progress(const mrtr_call *call) {
    mrtr_progress p;
    memset(&p, 0, sizeof p);
    CHECK_STATUS(mrtr_call_progress(call, &p), MRTR_OK);
    return p;
}

static inline mrtr_phase phase(const mrtr_call *call) { return progress(call).phase; }
/* The cause of the status the last function on `call` returned ("" after
 * MRTR_OK), as mrtr_call_check names it. */
static inline const char *reason_of(const mrtr_call *call) {
    const char *why = NULL;
    if (mrtr_call_check(call, &why) != MRTR_OK || why == NULL) return "(no live call)";
    return why;
}

static inline void check_leg(mrtr_call *call, int64_t id, const char *expected) {
    char *got = leg(call, id);
    CHECK_EQ_TEXT(got, strlen(got), expected);
    free(got);
}

/* The byte every test fills an output with before a call that must not
 * write it; untouched() says whether all n bytes at p still hold it. */
#define CANARY 0xA5

static inline int untouched(const void *p, size_t n) {
    const uint8_t *b = (const uint8_t *)p;
    size_t i;
    for (i = 0; i < n; i++) {
        if (b[i] != CANARY) {
            return 0;
        }
    }
    return 1;
}

#endif /* MRTR_TESTUTIL_H */
