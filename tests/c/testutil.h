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
void suite_vectors(void);

#endif /* MRTR_TESTUTIL_H */
