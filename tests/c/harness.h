/*
 * A tiny test harness for the mrtr C API: plain C99, no dependencies.
 *
 *   static void test_something(void) { CHECK(x == 1); CHECK_STATUS(f(), MRTR_OK); }
 *   int main(void) { RUN(test_something); return harness_finish(); }
 *
 * Counters live in harness.c, so tests may span several files (suites.h).
 *
 * A test passes when none of its checks failed; every failed check prints
 * file:line and the values involved. A test that cannot run on this
 * platform or build is not run but skipped with its reason:
 * SKIP(test_something, "why") prints "skip test_something (why)".
 * harness_finish() prints the closing line exactly as "N passed, M failed",
 * followed by ", K skipped" when K > 0, and returns the process exit code
 * (skips do not fail the run).
 */
#ifndef MRTR_TEST_HARNESS_H
#define MRTR_TEST_HARNESS_H

#include <stdio.h>
#include <string.h>

#include "mrtr.h"

extern int harness_failed_checks; /* in the running test */

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stdout, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, \
                    #cond);                                                  \
            harness_failed_checks++;                                         \
        }                                                                    \
    } while (0)

#define CHECK_STATUS(expr, expected)                                          \
    do {                                                                      \
        mrtr_status got_ = (expr);                                            \
        mrtr_status want_ = (expected);                                       \
        if (got_ != want_) {                                                  \
            fprintf(stdout, "%s:%d: %s returned %s (%d), expected %s (%d)\n", \
                    __FILE__, __LINE__, #expr, mrtr_status_str((int)got_),    \
                    (int)got_, mrtr_status_str((int)want_), (int)want_);      \
            harness_failed_checks++;                                          \
        }                                                                     \
    } while (0)

#define CHECK_EQ_SIZE(actual, expected)                                       \
    do {                                                                      \
        size_t a_ = (actual);                                                 \
        size_t e_ = (expected);                                               \
        if (a_ != e_) {                                                       \
            fprintf(stdout, "%s:%d: %s == %zu, expected %zu\n", __FILE__,     \
                    __LINE__, #actual, a_, e_);                               \
            harness_failed_checks++;                                          \
        }                                                                     \
    } while (0)

#define CHECK_EQ_STR(actual, expected)                                        \
    do {                                                                      \
        const char *a_ = (actual);                                            \
        const char *e_ = (expected);                                          \
        if (a_ == NULL || strcmp(a_, e_) != 0) {                              \
            fprintf(stdout, "%s:%d: %s == \"%s\", expected \"%s\"\n",        \
                    __FILE__, __LINE__, #actual, a_ ? a_ : "(NULL)", e_);     \
            harness_failed_checks++;                                          \
        }                                                                     \
    } while (0)

/* `len` bytes at `actual` equal the string literal `expected` (no NUL). */
#define CHECK_EQ_BYTES(actual, len, expected)                                 \
    do {                                                                      \
        size_t l_ = (len);                                                    \
        if (l_ != sizeof(expected) - 1 ||                                     \
            memcmp((actual), (expected), l_) != 0) {                          \
            fprintf(stdout, "%s:%d: %s is \"%.*s\" (%zu bytes), expected "   \
                    "\"%s\"\n", __FILE__, __LINE__, #actual, (int)l_,         \
                    (const char *)(actual), l_, (expected));                  \
            harness_failed_checks++;                                          \
        }                                                                     \
    } while (0)

/* `len` bytes at `actual` equal the NUL-terminated string `expected`. */
#define CHECK_EQ_TEXT(actual, len, expected)                                  \
    do {                                                                      \
        size_t l_ = (len);                                                    \
        const char *e_ = (expected);                                          \
        if (l_ != strlen(e_) || memcmp((actual), e_, l_) != 0) {              \
            fprintf(stdout, "%s:%d: %s is\n  \"%.*s\" (%zu bytes), expected\n" \
                    "  \"%s\" (%zu bytes)\n", __FILE__, __LINE__, #actual,     \
                    (int)l_, (const char *)(actual), l_, e_, strlen(e_));     \
            harness_failed_checks++;                                          \
        }                                                                     \
    } while (0)

#define RUN(test) harness_run(#test, test)
#define SKIP(test, why) harness_skip(#test, why)

void harness_run(const char *name, void (*test)(void));
void harness_skip(const char *name, const char *why);
int harness_finish(void);

#endif /* MRTR_TEST_HARNESS_H */
