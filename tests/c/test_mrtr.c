/*
 * C tests of the mrtr API: behaviour and misuse (each pointer NULL in turn,
 * zero sizes, one-byte-short buffers, garbage status integers, overlapping
 * and misaligned arguments). Inputs and outputs live in heap blocks of
 * exactly the size passed, so AddressSanitizer and valgrind catch any read or
 * write past a length.
 *
 * Build: scripts/test-c (C99, -Wall -Wextra -Werror -pedantic), together
 * with harness.c and the other suites (test_*.c, declared in testutil.h).
 */
#include <stdint.h>
#include <stdlib.h>

#include "testutil.h"

#ifndef MRTR_EXPECTED_VERSION
#error "compile with -DMRTR_EXPECTED_VERSION=\"x.y.z\" (scripts/test-c does)"
#endif

/* ---- helpers ----------------------------------------------------------- */

/* Validates a NUL-terminated literal from an exact-size heap copy. */
static mrtr_status validate(const char *doc, size_t max_depth, size_t *offset) {
    size_t len = strlen(doc);
    uint8_t *copy = heap_copy(doc, len);
    mrtr_status s = mrtr_json_validate(copy, len, max_depth, offset);
    free(copy);
    return s;
}

/* A document of `depth` nested arrays: "[[...]]". */
static char *nested(size_t depth) {
    char *doc = (char *)malloc(2 * depth + 1);
    if (doc == NULL) {
        exit(2);
    }
    memset(doc, '[', depth);
    memset(doc + depth, ']', depth);
    doc[2 * depth] = '\0';
    return doc;
}

/* Quotes `len` bytes of `text` into a heap buffer of exactly `cap` bytes. */
static mrtr_status quote(const char *text, size_t len, size_t cap, char *result,
                         size_t *written) {
    uint8_t *in = heap_copy(text, len);
    uint8_t *out = (uint8_t *)malloc(cap ? cap : 1);
    mrtr_str s;
    mrtr_status st;
    if (out == NULL) {
        exit(2);
    }
    s.ptr = (const char *)in;
    s.len = len;
    st = mrtr_json_write_string(s, cap ? out : NULL, cap, written);
    if (st == MRTR_OK && result != NULL) {
        memcpy(result, out, *written);
    }
    free(out);
    free(in);
    return st;
}

/* ---- mrtr_version, mrtr_protocol_version -------------------------------- */

static void test_version_is_the_package_version(void) {
    const char *v = mrtr_version();
    CHECK(v != NULL);
    CHECK_EQ_STR(v, MRTR_EXPECTED_VERSION);
    /* Static: the same pointer every time. */
    CHECK(mrtr_version() == v);
}

static void test_protocol_version_is_2026_07_28(void) {
    CHECK_EQ_STR(mrtr_protocol_version(), "2026-07-28");
}

/* ---- mrtr_status, mrtr_status_str --------------------------------------- */

static void test_status_numbering_is_stable(void) {
    CHECK(MRTR_OK == 0);
    CHECK(MRTR_ERR_NULL_POINTER == 1);
    CHECK(MRTR_ERR_INVALID_ARGUMENT == 2);
    CHECK(MRTR_ERR_INVALID_UTF8 == 3);
    CHECK(MRTR_ERR_MISALIGNED == 4);
    CHECK(MRTR_ERR_WRONG_STATE == 5);
    CHECK(MRTR_ERR_NOT_FOUND == 6);
    CHECK(MRTR_ERR_INVALID_VALUE == 7);
    CHECK(MRTR_ERR_BUFFER_TOO_SMALL == 10);
    CHECK(MRTR_ERR_WORKSPACE_TOO_SMALL == 11);
    CHECK(MRTR_ERR_LIMIT_EXCEEDED == 12);
    CHECK(MRTR_ERR_JSON == 20);
    CHECK(MRTR_ERR_ENVELOPE == 21);
    CHECK(MRTR_ERR_PROTOCOL_VIOLATION == 22);
    CHECK(MRTR_ERR_UNDECLARED_CAPABILITY == 23);
    CHECK(MRTR_ERR_UNSUPPORTED_VERSION == 24);
    CHECK(MRTR_ERR_INVALID_SCHEMA == 25);
    CHECK(MRTR_ERR_REFUSED_URL == 26);
    CHECK(MRTR_ERR_RPC_ERROR == 30);
    CHECK(MRTR_ERR_ROUND_CAP == 31);
    CHECK(MRTR_ERR_UNANSWERED_INPUT == 32);
    CHECK(MRTR_ERR_ABORTED == 33);
    CHECK(MRTR_ERR_INVALID_REQUEST_STATE == 40);
    CHECK(MRTR_ERR_KEY_ERROR == 41);
    CHECK(MRTR_ERR_INTERNAL == 99);
}

static void test_status_str_names_every_status(void) {
    static const struct {
        mrtr_status status;
        const char *name;
    } names[] = {
        {MRTR_OK, "MRTR_OK"},
        {MRTR_ERR_NULL_POINTER, "MRTR_ERR_NULL_POINTER"},
        {MRTR_ERR_INVALID_ARGUMENT, "MRTR_ERR_INVALID_ARGUMENT"},
        {MRTR_ERR_INVALID_UTF8, "MRTR_ERR_INVALID_UTF8"},
        {MRTR_ERR_MISALIGNED, "MRTR_ERR_MISALIGNED"},
        {MRTR_ERR_WRONG_STATE, "MRTR_ERR_WRONG_STATE"},
        {MRTR_ERR_NOT_FOUND, "MRTR_ERR_NOT_FOUND"},
        {MRTR_ERR_INVALID_VALUE, "MRTR_ERR_INVALID_VALUE"},
        {MRTR_ERR_BUFFER_TOO_SMALL, "MRTR_ERR_BUFFER_TOO_SMALL"},
        {MRTR_ERR_WORKSPACE_TOO_SMALL, "MRTR_ERR_WORKSPACE_TOO_SMALL"},
        {MRTR_ERR_LIMIT_EXCEEDED, "MRTR_ERR_LIMIT_EXCEEDED"},
        {MRTR_ERR_JSON, "MRTR_ERR_JSON"},
        {MRTR_ERR_ENVELOPE, "MRTR_ERR_ENVELOPE"},
        {MRTR_ERR_PROTOCOL_VIOLATION, "MRTR_ERR_PROTOCOL_VIOLATION"},
        {MRTR_ERR_UNDECLARED_CAPABILITY, "MRTR_ERR_UNDECLARED_CAPABILITY"},
        {MRTR_ERR_UNSUPPORTED_VERSION, "MRTR_ERR_UNSUPPORTED_VERSION"},
        {MRTR_ERR_INVALID_SCHEMA, "MRTR_ERR_INVALID_SCHEMA"},
        {MRTR_ERR_REFUSED_URL, "MRTR_ERR_REFUSED_URL"},
        {MRTR_ERR_RPC_ERROR, "MRTR_ERR_RPC_ERROR"},
        {MRTR_ERR_ROUND_CAP, "MRTR_ERR_ROUND_CAP"},
        {MRTR_ERR_UNANSWERED_INPUT, "MRTR_ERR_UNANSWERED_INPUT"},
        {MRTR_ERR_ABORTED, "MRTR_ERR_ABORTED"},
        {MRTR_ERR_INVALID_REQUEST_STATE, "MRTR_ERR_INVALID_REQUEST_STATE"},
        {MRTR_ERR_KEY_ERROR, "MRTR_ERR_KEY_ERROR"},
        {MRTR_ERR_INTERNAL, "MRTR_ERR_INTERNAL"},
    };
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        CHECK_EQ_STR(mrtr_status_str((int32_t)names[i].status), names[i].name);
    }
}

static void test_status_str_survives_garbage_integers(void) {
    static const int32_t garbage[] = {-1,  8,  9,   13,        27,       34,
                                      42,  98, 100, 255,       256,      -99,
                                      INT32_MIN,    INT32_MAX, INT32_MIN + 1};
    size_t i;
    int32_t v;
    int named = 0;
    for (i = 0; i < sizeof garbage / sizeof garbage[0]; i++) {
        CHECK_EQ_STR(mrtr_status_str(garbage[i]), "MRTR_UNKNOWN_STATUS");
    }
    /* Never NULL, and exactly the 25 statuses have their own names. */
    for (v = -2000; v <= 2000; v++) {
        const char *name = mrtr_status_str(v);
        CHECK(name != NULL);
        if (name != NULL && strcmp(name, "MRTR_UNKNOWN_STATUS") != 0) {
            named++;
            CHECK(strncmp(name, "MRTR_", 5) == 0);
        }
    }
    CHECK(named == 25);
}

/* ---- mrtr_json_validate ------------------------------------------------- */

static void test_validate_accepts_valid_documents(void) {
    static const char *const docs[] = {
        "{}",
        "[]",
        "0",
        "-0.5e+10",
        "\"\"",
        "null",
        " \t\r\n{\"a\" : [1, 2.5, -3e-2, true, false, null]} \n",
        "{\"e\\u00e9\":\"\\ud83d\\ude00\",\"\\\"\\\\\\/\\b\\f\\n\\r\\t\":1}",
        "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"",
        "{\"dup\":1,\"dup\":2}",
    };
    size_t i;
    for (i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        size_t off = 12345;
        CHECK_STATUS(validate(docs[i], 0, &off), MRTR_OK);
        CHECK_EQ_SIZE(off, 12345); /* untouched on success */
    }
}

static void test_validate_reports_malformed_documents_with_offsets(void) {
    static const struct {
        const char *doc;
        size_t offset;
    } cases[] = {
        {"[1,2,]", 5},          /* trailing comma */
        {"{\"a\":1,}", 7},      /* trailing comma in object */
        {"{} x", 3},            /* trailing characters */
        {"01", 1},              /* leading zero */
        {"[NaN]", 1},           /* not JSON */
        {"'a'", 0},             /* single quotes */
        {"{\"a\" 1}", 5},       /* missing colon */
        {"\"\\x\"", 2},         /* bad escape: at the x */
        {"\"\\ud800\"", 1},     /* lone surrogate */
        {"\"a\x01\"", 2},       /* raw control character */
        {"\"\xff\"", 1},        /* invalid UTF-8 */
        {"\"\xc0\xaf\"", 1},    /* overlong UTF-8 */
        {"[1", 2},              /* ends inside a value */
        {"/*c*/1", 0},          /* comments */
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t off = 12345;
        CHECK_STATUS(validate(cases[i].doc, 0, &off), MRTR_ERR_JSON);
        if (off != cases[i].offset) {
            printf("  document %zu: %s\n", i, cases[i].doc);
        }
        CHECK_EQ_SIZE(off, cases[i].offset);
    }
}

static void test_validate_reads_exactly_len_bytes(void) {
    size_t off = 12345;
    /* Only the first 3 bytes are the document; the rest is never read. */
    uint8_t *buf = heap_copy("[1]garbage", 3);
    CHECK_STATUS(mrtr_json_validate(buf, 3, 0, &off), MRTR_OK);
    free(buf);
    /* A NUL byte is data, not a terminator. */
    buf = heap_copy("[1]\0", 4);
    CHECK_STATUS(mrtr_json_validate(buf, 4, 0, &off), MRTR_ERR_JSON);
    CHECK_EQ_SIZE(off, 3);
    free(buf);
}

static void test_validate_empty_input(void) {
    size_t off = 12345;
    /* NULL with length 0 is the empty input: not a document. */
    CHECK_STATUS(mrtr_json_validate(NULL, 0, 0, &off), MRTR_ERR_JSON);
    CHECK_EQ_SIZE(off, 0);
    off = 12345;
    CHECK_STATUS(validate("", 0, &off), MRTR_ERR_JSON);
    CHECK_EQ_SIZE(off, 0);
    off = 12345;
    CHECK_STATUS(validate("   ", 0, &off), MRTR_ERR_JSON);
    CHECK_EQ_SIZE(off, 3);
}

static void test_validate_depth_limits(void) {
    size_t off = 12345;
    char *d32 = nested(32);
    char *d33 = nested(33);
    char *d256 = nested(256);
    char *d257 = nested(257);
    /* 0 selects the default, 32. */
    CHECK(MRTR_JSON_DEFAULT_MAX_DEPTH == 32);
    CHECK(MRTR_JSON_MAX_DEPTH == 256);
    CHECK_STATUS(validate(d32, 0, &off), MRTR_OK);
    CHECK_STATUS(validate(d33, 0, &off), MRTR_ERR_LIMIT_EXCEEDED);
    CHECK_EQ_SIZE(off, 32);
    CHECK_STATUS(validate(d33, 33, NULL), MRTR_OK);
    CHECK_STATUS(validate("[[1]]", 1, &off), MRTR_ERR_LIMIT_EXCEEDED);
    CHECK_EQ_SIZE(off, 1);
    CHECK_STATUS(validate("1", 1, NULL), MRTR_OK);
    CHECK_STATUS(validate(d256, MRTR_JSON_MAX_DEPTH, NULL), MRTR_OK);
    CHECK_STATUS(validate(d257, MRTR_JSON_MAX_DEPTH, &off),
                 MRTR_ERR_LIMIT_EXCEEDED);
    CHECK_EQ_SIZE(off, 256);
    /* Above the maximum is a caller error, not a silent clamp. */
    off = 12345;
    CHECK_STATUS(validate("1", MRTR_JSON_MAX_DEPTH + 1, &off),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(validate("1", SIZE_MAX, &off), MRTR_ERR_INVALID_ARGUMENT);
    CHECK_EQ_SIZE(off, 12345);
    free(d32);
    free(d33);
    free(d256);
    free(d257);
}

static void test_validate_deep_attack_is_refused_without_recursion(void) {
    /* 1 MiB of '[': refused at the limit, not by running out of stack. */
    size_t n = (size_t)1 << 20;
    size_t off = 0;
    uint8_t *doc = (uint8_t *)malloc(n);
    if (doc == NULL) {
        exit(2);
    }
    memset(doc, '[', n);
    CHECK_STATUS(mrtr_json_validate(doc, n, MRTR_JSON_MAX_DEPTH, &off),
                 MRTR_ERR_LIMIT_EXCEEDED);
    CHECK_EQ_SIZE(off, 256);
    free(doc);
}

static void test_validate_misuse(void) {
    size_t off = 12345;
    uint8_t *doc = heap_copy("[1]", 3);
    /* json NULL with a length. */
    CHECK_STATUS(mrtr_json_validate(NULL, 3, 0, &off), MRTR_ERR_NULL_POINTER);
    CHECK_EQ_SIZE(off, 12345);
    /* error_offset NULL is allowed (it is optional). */
    CHECK_STATUS(mrtr_json_validate(doc, 3, 0, NULL), MRTR_OK);
    CHECK_STATUS(mrtr_json_validate(doc, 2, 0, NULL), MRTR_ERR_JSON);
    /* Both NULL. */
    CHECK_STATUS(mrtr_json_validate(NULL, 1, 0, NULL), MRTR_ERR_NULL_POINTER);
    /* Lengths Rust cannot describe are refused before any read. */
    CHECK_STATUS(mrtr_json_validate(doc, SIZE_MAX, 0, &off),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mrtr_json_validate(doc, (size_t)PTRDIFF_MAX + 1, 0, &off),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_EQ_SIZE(off, 12345);
    free(doc);
}

static void test_validate_refuses_bad_error_offset_pointers(void) {
    size_t words[3] = {0, 0, 0};
    /* A misaligned size_t out-param. */
    size_t *odd = (size_t *)((uintptr_t)words + 1);
    union {
        size_t align;
        unsigned char bytes[32];
    } doc;
    CHECK_STATUS(validate("[", 0, odd), MRTR_ERR_MISALIGNED);
    CHECK(words[0] == 0 && words[1] == 0 && words[2] == 0);
    /* An error_offset inside the document. */
    memcpy(doc.bytes, "[1,                             ", 32);
    CHECK_STATUS(mrtr_json_validate(doc.bytes, 32, 0, &doc.align),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK(memcmp(doc.bytes, "[1,                             ", 32) == 0);
}

/* ---- mrtr_json_write_string --------------------------------------------- */

static void test_write_string_escapes_exactly(void) {
    char out[64];
    size_t n = 0;
    CHECK_STATUS(quote("plain", 5, 64, out, &n), MRTR_OK);
    CHECK_EQ_BYTES(out, n, "\"plain\"");
    CHECK_STATUS(quote("a\"b\\c/d", 7, 64, out, &n), MRTR_OK);
    CHECK_EQ_BYTES(out, n, "\"a\\\"b\\\\c/d\"");
    CHECK_STATUS(quote("\n\r\t\b\f\x01\x1f", 7, 64, out, &n), MRTR_OK);
    CHECK_EQ_BYTES(out, n, "\"\\n\\r\\t\\b\\f\\u0001\\u001f\"");
    CHECK_STATUS(quote("caf\xc3\xa9 \xf0\x9f\x98\x80", 10, 64, out, &n),
                 MRTR_OK);
    CHECK_EQ_BYTES(out, n, "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"");
    /* An embedded NUL is a character, escaped. */
    CHECK_STATUS(quote("a\0b", 3, 64, out, &n), MRTR_OK);
    CHECK_EQ_BYTES(out, n, "\"a\\u0000b\"");
    /* The empty string, from a NULL pointer with length 0. */
    {
        uint8_t buf[2];
        mrtr_str empty;
        empty.ptr = NULL;
        empty.len = 0;
        n = 0;
        CHECK_STATUS(mrtr_json_write_string(empty, buf, 2, &n), MRTR_OK);
        CHECK_EQ_BYTES(buf, n, "\"\"");
    }
}

static void test_write_string_output_is_valid_json(void) {
    static const char text[] = "line1\nline2\t\"q\" \\ \x7f \xe2\x80\xa8";
    uint8_t out[128];
    size_t n = 0;
    CHECK_STATUS(mrtr_json_write_string(str_of(text), out, sizeof out, &n),
                 MRTR_OK);
    CHECK_STATUS(mrtr_json_validate(out, n, 1, NULL), MRTR_OK);
}

static void test_write_string_reports_exact_size(void) {
    /* "\"a\\tb\"" needs 6 bytes. */
    size_t n = 0;
    char out[8];
    /* Size query: NULL output with length 0. */
    CHECK_STATUS(quote("a\tb", 3, 0, NULL, &n), MRTR_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_SIZE(n, 6);
    /* One byte short. */
    n = 0;
    CHECK_STATUS(quote("a\tb", 3, 5, NULL, &n), MRTR_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_SIZE(n, 6);
    /* One byte: short. */
    n = 0;
    CHECK_STATUS(quote("a\tb", 3, 1, NULL, &n), MRTR_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_SIZE(n, 6);
    /* Exact. */
    n = 0;
    CHECK_STATUS(quote("a\tb", 3, 6, out, &n), MRTR_OK);
    CHECK_EQ_BYTES(out, n, "\"a\\tb\"");
    /* A non-NULL buffer of length 0 is a size query too. */
    {
        uint8_t one = 0xAA;
        n = 0;
        CHECK_STATUS(mrtr_json_write_string(str_of("xy"), &one, 0, &n),
                     MRTR_ERR_BUFFER_TOO_SMALL);
        CHECK_EQ_SIZE(n, 4);
        CHECK(one == 0xAA);
    }
}

static void test_write_string_never_writes_past_out_len(void) {
    uint8_t buf[16];
    size_t n = 0;
    size_t cap;
    for (cap = 0; cap < 9; cap++) {
        memset(buf, 0xAA, sizeof buf);
        /* "\"hello\\n\"" is 9 bytes; every shorter buffer fails cleanly. */
        CHECK_STATUS(mrtr_json_write_string(str_of("hello\n"), buf, cap, &n),
                     MRTR_ERR_BUFFER_TOO_SMALL);
        CHECK_EQ_SIZE(n, 9);
        {
            size_t i;
            for (i = cap; i < sizeof buf; i++) {
                CHECK(buf[i] == 0xAA);
            }
        }
    }
}

static void test_write_string_refuses_invalid_utf8(void) {
    static const char *const bad[] = {
        "\xff",             /* never valid */
        "\xc3",             /* truncated sequence */
        "\xc0\xaf",         /* overlong '/' */
        "\xed\xa0\x80",     /* UTF-16 surrogate encoded as UTF-8 */
        "\xf4\x90\x80\x80", /* above U+10FFFF */
        "ok\x80",           /* stray continuation byte */
    };
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t n = 12345;
        CHECK_STATUS(quote(bad[i], strlen(bad[i]), 64, NULL, &n),
                     MRTR_ERR_INVALID_UTF8);
        CHECK_EQ_SIZE(n, 12345); /* untouched */
    }
}

static void test_write_string_misuse(void) {
    uint8_t out[16];
    size_t n = 12345;
    mrtr_str text = str_of("x");
    mrtr_str null_text;
    null_text.ptr = NULL;
    null_text.len = 1;
    /* out_written NULL. */
    CHECK_STATUS(mrtr_json_write_string(text, out, sizeof out, NULL),
                 MRTR_ERR_NULL_POINTER);
    /* text.ptr NULL with a length. */
    CHECK_STATUS(mrtr_json_write_string(null_text, out, sizeof out, &n),
                 MRTR_ERR_NULL_POINTER);
    CHECK_EQ_SIZE(n, 12345);
    /* out NULL with a length. */
    CHECK_STATUS(mrtr_json_write_string(text, NULL, 16, &n),
                 MRTR_ERR_NULL_POINTER);
    CHECK_EQ_SIZE(n, 12345);
    /* Everything NULL. */
    CHECK_STATUS(mrtr_json_write_string(null_text, NULL, 16, NULL),
                 MRTR_ERR_NULL_POINTER);
    /* Lengths Rust cannot describe. */
    CHECK_STATUS(mrtr_json_write_string(text, out, SIZE_MAX, &n),
                 MRTR_ERR_INVALID_ARGUMENT);
    text.len = (size_t)PTRDIFF_MAX + 1;
    CHECK_STATUS(mrtr_json_write_string(text, out, sizeof out, &n),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_EQ_SIZE(n, 12345);
}

static void test_write_string_refuses_overlap_and_misalignment(void) {
    union {
        size_t align;
        uint8_t bytes[32];
    } buf;
    size_t words[2] = {0, 0};
    size_t n = 12345;
    mrtr_str text;
    memcpy(buf.bytes, "abcdefgh", 8);
    text.ptr = (const char *)buf.bytes;
    text.len = 8;
    /* Output overlapping the input text. */
    CHECK_STATUS(mrtr_json_write_string(text, buf.bytes + 4, 16, &n),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_EQ_SIZE(n, 12345);
    CHECK(memcmp(buf.bytes, "abcdefgh", 8) == 0);
    /* Output adjacent to the input is fine. */
    CHECK_STATUS(mrtr_json_write_string(text, buf.bytes + 8, 24, &n), MRTR_OK);
    CHECK_EQ_BYTES(buf.bytes + 8, n, "\"abcdefgh\"");
    /* out_written inside the output buffer. */
    text = str_of("x");
    CHECK_STATUS(mrtr_json_write_string(text, buf.bytes, 32, &buf.align),
                 MRTR_ERR_INVALID_ARGUMENT);
    /* out_written misaligned. */
    CHECK_STATUS(
        mrtr_json_write_string(text, buf.bytes, 32,
                               (size_t *)((uintptr_t)words + 3)),
        MRTR_ERR_MISALIGNED);
    CHECK(words[0] == 0 && words[1] == 0);
}

int main(void) {
    RUN(test_version_is_the_package_version);
    RUN(test_protocol_version_is_2026_07_28);
    RUN(test_status_numbering_is_stable);
    RUN(test_status_str_names_every_status);
    RUN(test_status_str_survives_garbage_integers);
    RUN(test_validate_accepts_valid_documents);
    RUN(test_validate_reports_malformed_documents_with_offsets);
    RUN(test_validate_reads_exactly_len_bytes);
    RUN(test_validate_empty_input);
    RUN(test_validate_depth_limits);
    RUN(test_validate_deep_attack_is_refused_without_recursion);
    RUN(test_validate_misuse);
    RUN(test_validate_refuses_bad_error_offset_pointers);
    RUN(test_write_string_escapes_exactly);
    RUN(test_write_string_output_is_valid_json);
    RUN(test_write_string_reports_exact_size);
    RUN(test_write_string_never_writes_past_out_len);
    RUN(test_write_string_refuses_invalid_utf8);
    RUN(test_write_string_misuse);
    RUN(test_write_string_refuses_overlap_and_misalignment);
    suite_call();
    suite_run();
    suite_task();
    suite_helpers();
    suite_seal();
    suite_server();
    suite_misuse();
    suite_contract();
    suite_vectors();
    return harness_finish();
}
