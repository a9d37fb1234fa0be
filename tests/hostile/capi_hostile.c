/*
 * Hostile server messages fed straight into the C API (mrtr_call_feed),
 * without any transport: the same payloads as tests/hostile/fake_server.py,
 * each into a fresh call in SENT, with the exact status and failure reason
 * asserted. Built by tests/hostile/run.sh under AddressSanitizer and UBSan
 * with tests/c/harness.c; closes with "N passed, M failed".
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"

/* A call in SENT with id 1 in flight, in a static workspace aligned to
 * MRTR_WORKSPACE_ALIGN (8) by its union with a uint64_t (C99). */
static union {
    unsigned char bytes[128 * 1024];
    uint64_t align;
} ws;
#define workspace ws.bytes
static mrtr_call *call;

static void start_call(uint32_t caps) {
    static const char params[] = "{\"name\":\"hostile\",\"arguments\":{}}";
    mrtr_call_config cfg;
    uint8_t out[4096];
    size_t written = 0;
    memset(&cfg, 0, sizeof cfg);
    cfg.method = MRTR_METHOD_TOOLS_CALL;
    cfg.params.ptr = params;
    cfg.params.len = sizeof params - 1;
    cfg.caps = caps;
    call = NULL;
    CHECK_STATUS(mrtr_call_init(workspace, sizeof workspace, &cfg, &call), MRTR_OK);
    CHECK_STATUS(mrtr_call_write_request(call, 1, out, sizeof out, &written), MRTR_OK);
}

/* Feeds `msg` and checks the status and, for a failed call, the reason. */
static void feed_expect(const char *msg, size_t len, mrtr_status want, const char *reason) {
    mrtr_event ev;
    mrtr_failure f;
    CHECK_STATUS(mrtr_call_feed(call, (const uint8_t *)msg, len, &ev), want);
    if (reason != NULL) {
        CHECK_STATUS(mrtr_call_failure(call, &f), MRTR_OK);
        CHECK(f.reason != NULL);
        if (f.reason != NULL) {
            CHECK_EQ_STR(f.reason, reason);
        }
    }
}

static void feed_str(const char *msg, mrtr_status want, const char *reason) {
    feed_expect(msg, strlen(msg), want, reason);
}

static char *deep_message(size_t depth, size_t *len) {
    static const char head[] =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\",\"content\":[],"
        "\"structuredContent\":{\"deep\":";
    size_t n = sizeof head - 1 + 2 * depth + 3;
    char *m = malloc(n);
    if (m == NULL) {
        return NULL;
    }
    memcpy(m, head, sizeof head - 1);
    memset(m + sizeof head - 1, '[', depth);
    memset(m + sizeof head - 1 + depth, ']', depth);
    memcpy(m + sizeof head - 1 + 2 * depth, "}}}", 3);
    *len = n;
    return m;
}

static void test_ten_thousand_deep_nesting_is_too_deep(void) {
    size_t len = 0;
    char *m = deep_message(10000, &len);
    CHECK(m != NULL);
    if (m == NULL) {
        return;
    }
    start_call(MRTR_CAP_ELICITATION_FORM);
    feed_expect(m, len, MRTR_ERR_LIMIT_EXCEEDED, "TooDeep");
    free(m);
}

/* 100 MB in one message: refused by its length before a byte is parsed, so
 * in far less time than reading 100 MB would take. */
static void test_a_100_mb_message_is_refused_by_its_size(void) {
    static const char head[] =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\",\"content\":[{\"type\":"
        "\"text\",\"text\":\"";
    size_t n = 100u * 1000u * 1000u;
    char *m = malloc(n);
    clock_t t0;
    double ms;
    CHECK(m != NULL);
    if (m == NULL) {
        return;
    }
    memset(m, 'A', n);
    memcpy(m, head, sizeof head - 1);
    memcpy(m + n - 6, "\"}]}}", 5);
    m[n - 1] = '\n';
    start_call(MRTR_CAP_ELICITATION_FORM);
    t0 = clock();
    feed_expect(m, n, MRTR_ERR_LIMIT_EXCEEDED, "TooLarge");
    ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC;
    printf("     (100 MB refused in %.3f ms of CPU)\n", ms);
    CHECK(ms < 50.0);
    free(m);
}

/* Invalid UTF-8 inside a message is a JSON error (MRTR_ERR_INVALID_UTF8 is
 * for the strings an application passes in). */
static void test_bytes_that_are_not_utf8_are_refused(void) {
    start_call(MRTR_CAP_ELICITATION_FORM);
    feed_str("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\",\"content\":[{\"type\":"
             "\"text\",\"text\":\"bad \xff\xfe here\"}]}}",
             MRTR_ERR_JSON, "InvalidUtf8");
    start_call(MRTR_CAP_ELICITATION_FORM);
    feed_str("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\",\"content\":[{\"type\":"
             "\"text\",\"text\":\"a\xc0\xaf"
             "b\"}]}}",
             MRTR_ERR_JSON, "InvalidUtf8");
    start_call(MRTR_CAP_ELICITATION_FORM);
    feed_str("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\",\"content\":[{\"type\":"
             "\"text\",\"text\":\"\xed\xa0\x80\"}]}}",
             MRTR_ERR_JSON, "InvalidUtf8");
}

static void test_lone_surrogate_escapes_are_refused(void) {
    start_call(MRTR_CAP_ELICITATION_FORM);
    feed_str("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\",\"content\":[{\"type\":"
             "\"text\",\"text\":\"x\\ud800y\"}]}}",
             MRTR_ERR_JSON, "LoneSurrogate");
    start_call(MRTR_CAP_ELICITATION_FORM);
    feed_str("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\",\"content\":[{\"type\":"
             "\"text\",\"text\":\"\\udc00\"}]}}",
             MRTR_ERR_JSON, "LoneSurrogate");
}

static void test_duplicate_keys_are_refused_where_they_decide(void) {
    start_call(MRTR_CAP_ELICITATION_FORM);
    feed_str("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\","
             "\"resultType\":\"complete\",\"content\":[]}}",
             MRTR_ERR_PROTOCOL_VIOLATION, "DuplicateResultMember");
    start_call(MRTR_CAP_ELICITATION_FORM);
    feed_str("{\"jsonrpc\":\"2.0\",\"id\":999,\"id\":1,\"result\":{\"resultType\":\"complete\",\"content\":[]}}",
             MRTR_ERR_ENVELOPE, "DuplicateMember");
    start_call(MRTR_CAP_ELICITATION_FORM);
    feed_str("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\",\"inputRequests\":{"
             "\"k\":{\"method\":\"roots/list\"},\"k\":{\"method\":\"roots/list\"}},\"requestState\":\"s\"}}",
             MRTR_ERR_PROTOCOL_VIOLATION, "DuplicateInputKey");
}

static void test_nan_like_numbers_are_refused(void) {
    static const char *const tokens[] = {"NaN", "Infinity", "-Infinity", "01", ".5", "+1", "0x1F"};
    size_t i;
    for (i = 0; i < sizeof tokens / sizeof tokens[0]; i++) {
        char msg[256];
        mrtr_event ev;
        int n = snprintf(msg, sizeof msg,
                         "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\",\"content\":[],"
                         "\"structuredContent\":{\"score\":%s}}}",
                         tokens[i]);
        start_call(MRTR_CAP_ELICITATION_FORM);
        CHECK(n > 0 && (size_t)n < sizeof msg);
        CHECK_STATUS(mrtr_call_feed(call, (const uint8_t *)msg, (size_t)n, &ev), MRTR_ERR_JSON);
    }
    /* Valid JSON numbers beyond double range are passed through raw. */
    start_call(MRTR_CAP_ELICITATION_FORM);
    feed_str("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\",\"content\":[],"
             "\"structuredContent\":{\"score\":1e400}}}",
             MRTR_OK, NULL);
}

static void test_answers_for_other_ids_are_unrelated_then_ours_completes(void) {
    static const char *const others[] = {
        "{\"jsonrpc\":\"2.0\",\"id\":999,\"result\":{\"resultType\":\"complete\",\"content\":[]}}",
        "{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{\"resultType\":\"complete\",\"content\":[]}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1001,\"error\":{\"code\":-32603,\"message\":\"NOT YOURS\"}}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"x\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":77,\"method\":\"ping\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}",
    };
    static const char ours[] =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\","
        "\"text\":\"the real answer\"}]}}";
    mrtr_event ev;
    size_t i;
    start_call(MRTR_CAP_ELICITATION_FORM);
    for (i = 0; i < sizeof others / sizeof others[0]; i++) {
        CHECK_STATUS(mrtr_call_feed(call, (const uint8_t *)others[i], strlen(others[i]), &ev), MRTR_OK);
        CHECK(ev.kind == MRTR_EVENT_UNRELATED);
    }
    CHECK_STATUS(mrtr_call_feed(call, (const uint8_t *)ours, sizeof ours - 1, &ev), MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_COMPLETE);
    CHECK_EQ_TEXT(ours + ev.result.offset, ev.result.len,
                  "{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":\"the real answer\"}]}");
}

static void test_a_1_mb_request_state_is_over_its_region(void) {
    static const char head[] =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\",\"requestState\":\"";
    size_t state = 1000000, n = sizeof head - 1 + state + 3;
    char *m = malloc(n);
    mrtr_failure f;
    mrtr_event ev;
    CHECK(m != NULL);
    if (m == NULL) {
        return;
    }
    memcpy(m, head, sizeof head - 1);
    memset(m + sizeof head - 1, 'S', state);
    memcpy(m + sizeof head - 1 + state, "\"}}", 3);
    start_call(MRTR_CAP_ELICITATION_FORM);
    CHECK_STATUS(mrtr_call_feed(call, (const uint8_t *)m, n, &ev), MRTR_ERR_LIMIT_EXCEEDED);
    CHECK_STATUS(mrtr_call_failure(call, &f), MRTR_OK);
    CHECK(f.kind == MRTR_FAILURE_STATE_TOO_LARGE);
    CHECK_EQ_SIZE(f.needed, (size_t)1000002); /* the token with its quotes */
    CHECK(f.limit == 4096);
    free(m);
}

static void test_input_required_forever_stops_at_the_round_cap(void) {
    mrtr_call_limits limits;
    mrtr_call_config cfg;
    static const char params[] = "{\"name\":\"hostile\",\"arguments\":{}}";
    char msg[512];
    uint8_t out[8192];
    size_t written = 0;
    mrtr_event ev;
    int64_t id;
    mrtr_status st = MRTR_OK;
    CHECK_STATUS(mrtr_call_limits_default(&limits), MRTR_OK);
    memset(&cfg, 0, sizeof cfg);
    cfg.method = MRTR_METHOD_TOOLS_CALL;
    cfg.params.ptr = params;
    cfg.params.len = sizeof params - 1;
    cfg.caps = MRTR_CAP_ROOTS;
    cfg.limits = &limits;
    CHECK_STATUS(mrtr_call_init(workspace, sizeof workspace, &cfg, &call), MRTR_OK);
    for (id = 1; id <= 20 && st == MRTR_OK; id++) {
        int n;
        CHECK_STATUS(mrtr_call_write_request(call, id, out, sizeof out, &written), MRTR_OK);
        n = snprintf(msg, sizeof msg,
                     "{\"jsonrpc\":\"2.0\",\"id\":%d,\"result\":{\"resultType\":\"input_required\","
                     "\"inputRequests\":{\"r\":{\"method\":\"roots/list\"}},\"requestState\":\"round-%d\"}}",
                     (int)id, (int)id);
        st = mrtr_call_feed(call, (const uint8_t *)msg, (size_t)n, &ev);
        if (st == MRTR_OK) {
            CHECK(ev.kind == MRTR_EVENT_INPUT_REQUIRED);
            CHECK_STATUS(mrtr_call_answer_roots(call, 0, NULL, 0), MRTR_OK);
        }
    }
    /* Ten rounds are answered; the eleventh input_required ends the call. */
    CHECK_STATUS(st, MRTR_ERR_ROUND_CAP);
    CHECK(id == 12);
}

int main(void) {
    RUN(test_ten_thousand_deep_nesting_is_too_deep);
    RUN(test_a_100_mb_message_is_refused_by_its_size);
    RUN(test_bytes_that_are_not_utf8_are_refused);
    RUN(test_lone_surrogate_escapes_are_refused);
    RUN(test_duplicate_keys_are_refused_where_they_decide);
    RUN(test_nan_like_numbers_are_refused);
    RUN(test_answers_for_other_ids_are_unrelated_then_ours_completes);
    RUN(test_a_1_mb_request_state_is_over_its_region);
    RUN(test_input_required_forever_stops_at_the_round_cap);
    return harness_finish();
}
