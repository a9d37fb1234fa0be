/*
 * Misuse of every object and helper function, systematically: each pointer
 * NULL in turn, zero sizes, handles that are not live, arguments inside a
 * workspace. Every refused call must leave its out-params untouched (they
 * are pre-filled with a canary and compared afterwards).
 */
#include "testutil.h"


/* Out-params of every shape, filled with the canary. */
struct outs {
    size_t size;
    int64_t id;
    uint32_t u32;
    uint64_t u64;
    mrtr_phase phase;
    mrtr_input input;
    mrtr_str str;
    mrtr_failure failure;
    mrtr_event event;
    mrtr_progress progress;
    uint8_t buf[64];
};

static void fill(struct outs *o) { memset(o, CANARY, sizeof *o); }

static mrtr_call *live_call(void **ws) {
    mrtr_call_config cfg;
    size_t n = 0;
    mrtr_call *call = NULL;
    memset(&cfg, 0, sizeof cfg);
    cfg.method = MRTR_METHOD_TOOLS_CALL;
    cfg.params = str_of("{\"name\":\"t\"}");
    cfg.caps = MRTR_CAP_ELICITATION_FORM;
    if (mrtr_call_workspace_size(NULL, &n) != MRTR_OK) {
        exit(2);
    }
    *ws = ws_new(n);
    if (mrtr_call_init(*ws, n, &cfg, &call) != MRTR_OK) {
        exit(2);
    }
    return call;
}

static void test_call_getters_refuse_null_and_dead_handles(void) {
    void *ws;
    mrtr_call *call = live_call(&ws);
    uint64_t dead[64];
    const mrtr_call *bad[3];
    size_t i;
    struct outs o;
    memset(dead, 0, sizeof dead);
    bad[0] = NULL;
    bad[1] = (const mrtr_call *)(const void *)dead;
    bad[2] = (const mrtr_call *)(const void *)((const uint8_t *)ws + 8);
    for (i = 0; i < 3; i++) {
        mrtr_status want = i == 0 ? MRTR_ERR_NULL_POINTER : MRTR_ERR_INVALID_ARGUMENT;
        fill(&o);
        CHECK_STATUS(mrtr_call_progress(bad[i], &o.progress), want);
        CHECK_STATUS(mrtr_call_input_at(bad[i], 0, &o.input), want);
        CHECK_STATUS(mrtr_call_input_find(bad[i], str_of("k"), &o.size), want);
        CHECK_STATUS(mrtr_call_input_text(bad[i], 0, MRTR_TEXT_KEY, o.buf, sizeof o.buf, &o.size),
                     want);
        CHECK_STATUS(mrtr_call_result(bad[i], o.buf, 4, &o.str), want);
        CHECK_STATUS(mrtr_call_save(bad[i], o.buf, sizeof o.buf, &o.size), want);
        CHECK_STATUS(mrtr_call_failure(bad[i], &o.failure), want);
        CHECK_STATUS(mrtr_call_write_request((mrtr_call *)(uintptr_t)bad[i], 1, o.buf,
                                             sizeof o.buf, &o.size),
                     want);
        CHECK_STATUS(mrtr_call_resend((mrtr_call *)(uintptr_t)bad[i], 1, o.buf, sizeof o.buf,
                                      &o.size),
                     want);
        CHECK_STATUS(mrtr_call_write_cancel((mrtr_call *)(uintptr_t)bad[i], 1, o.buf,
                                            sizeof o.buf, &o.size),
                     want);
        CHECK_STATUS(mrtr_call_feed((mrtr_call *)(uintptr_t)bad[i], o.buf, 2, &o.event), want);
        CHECK_STATUS(mrtr_call_answer_elicit((mrtr_call *)(uintptr_t)bad[i], 0, 2, str_of("")),
                     want);
        CHECK_STATUS(mrtr_call_answer_json((mrtr_call *)(uintptr_t)bad[i], 0, str_of("{}")),
                     want);
        CHECK_STATUS(mrtr_call_answer_roots((mrtr_call *)(uintptr_t)bad[i], 0, NULL, 0), want);
        CHECK_STATUS(mrtr_call_answer_error((mrtr_call *)(uintptr_t)bad[i], 0, 1), want);
        CHECK(untouched(&o, sizeof o));
    }
    /* Each out-param NULL with a live handle. */
    fill(&o);
    CHECK_STATUS(mrtr_call_progress(call, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_input_at(call, 0, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_input_find(call, str_of("k"), NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_input_text(call, 0, MRTR_TEXT_KEY, o.buf, sizeof o.buf, NULL),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_result(call, o.buf, 4, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_save(call, o.buf, sizeof o.buf, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_save(call, NULL, 5, &o.size), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_failure(call, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_write_cancel(call, 1, o.buf, sizeof o.buf, NULL),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_write_request(call, 1, o.buf, sizeof o.buf, NULL),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_write_request(call, 1, NULL, 10, &o.size), MRTR_ERR_NULL_POINTER);
    CHECK(untouched(&o, sizeof o));
    /* Misaligned out-params: half their size off an 8-byte boundary (4 bytes
     * for the 64-bit types; 2 for the 32-bit size_t of a 32-bit target, which
     * 4 bytes off would align). */
    {
        uint8_t *even = o.buf + 8 - ((uintptr_t)o.buf % 8);
        size_t *odd_size = (size_t *)(void *)(even + sizeof(size_t) / 2);
        mrtr_progress *odd_progress = (mrtr_progress *)(void *)(even + sizeof(int64_t) / 2);
        CHECK_STATUS(mrtr_call_input_find(call, str_of("k"), odd_size), MRTR_ERR_MISALIGNED);
        CHECK_STATUS(mrtr_call_progress(call, odd_progress), MRTR_ERR_MISALIGNED);
    }
    CHECK(untouched(&o, sizeof o));
    /* Getters in the wrong state; a call is not a task. */
    CHECK_STATUS(mrtr_call_write_cancel(call, 1, o.buf, sizeof o.buf, &o.size),
                 MRTR_ERR_WRONG_STATE);
    CHECK_STATUS(mrtr_call_result(call, o.buf, 4, &o.str), MRTR_ERR_WRONG_STATE);
    CHECK_STATUS(mrtr_call_input_at(call, 0, &o.input), MRTR_ERR_NOT_FOUND);
    CHECK(untouched(&o, sizeof o));
    free(ws);
}

static void test_limits_and_restore_refuse_null_pointers(void) {
    struct outs o;
    fill(&o);
    CHECK_STATUS(mrtr_call_limits_default(NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_workspace_size(NULL, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_restore(NULL, 100, NULL, o.buf, 4, (mrtr_call **)(void *)&o.id, NULL),
                 MRTR_ERR_NULL_POINTER);
    CHECK(untouched(&o, sizeof o));
}

static void test_helpers_refuse_null_pointers(void) {
    struct outs o;
    mrtr_str bad = {NULL, 4};
    mrtr_url_info url;
    mrtr_form_field field;
    mrtr_form_option option;
    mrtr_http_header headers[MRTR_HTTP_MAX_HEADERS];
    uint8_t digest[32];
    mrtr_server_request req;
    mrtr_server_answer answer;
    mrtr_server_root root;
    mrtr_request_id id;
    fill(&o);
    memset(&url, CANARY, sizeof url);
    memset(&field, CANARY, sizeof field);
    memset(&option, CANARY, sizeof option);
    memset(headers, CANARY, sizeof headers);
    memset(digest, CANARY, sizeof digest);
    memset(&req, CANARY, sizeof req);
    memset(&answer, CANARY, sizeof answer);
    memset(&root, CANARY, sizeof root);
    /* Strings with a length and no bytes. */
    CHECK_STATUS(mrtr_url_consent(bad, &url, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_form_parse(bad, &o.size, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_form_field_at(bad, 0, &field), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_form_option_at(bad, 0, 0, &option), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_form_text(bad, 0, 0, MRTR_FORM_TEXT_NAME, o.buf, sizeof o.buf, &o.size, NULL),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_form_validate(bad, str_of("{}"), NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_form_validate(str_of("{\"type\":\"object\",\"properties\":{}}"), bad, NULL),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_http_headers(bad, str_of("x"), o.buf, sizeof o.buf, &o.size, headers,
                                   MRTR_HTTP_MAX_HEADERS, &o.size, NULL),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_http_headers_for_message(NULL, 4, o.buf, sizeof o.buf, &o.size, headers,
                                               MRTR_HTTP_MAX_HEADERS, &o.size, NULL),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_http_headers_for_tool_call(NULL, 4, str_of("{}"), o.buf, sizeof o.buf,
                                                 &o.size, headers, MRTR_HTTP_MAX_HEADERS, &o.size, NULL),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_http_headers_for_tool_call((const uint8_t *)"{}", 2, bad, o.buf,
                                                 sizeof o.buf, &o.size, headers,
                                                 MRTR_HTTP_MAX_HEADERS, &o.size, NULL),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_tool_header_check(bad, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_version_retry(NULL, 4, 0), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_binding_digest(bad, str_of("t"), NULL, 0, digest, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_json_decode_string(NULL, 3, o.buf, sizeof o.buf, &o.size),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_server_parse_request(NULL, 3, 0, &req, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_server_input_response(bad, str_of("k"), 0, &answer, NULL),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_server_input_response(str_of("{}"), bad, 0, &answer, NULL),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_server_root_at(bad, str_of("k"), 0, &root), MRTR_ERR_NULL_POINTER);
    /* Each out-param NULL. */
    CHECK_STATUS(mrtr_url_consent(str_of("https://a.example/"), NULL, NULL),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_form_option_at(str_of("{}"), 0, 0, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_form_text(str_of("{}"), 0, 0, 1, o.buf, sizeof o.buf, NULL, NULL),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_http_headers(str_of("tools/call"), str_of("x"), o.buf, sizeof o.buf, NULL,
                                   headers, MRTR_HTTP_MAX_HEADERS, &o.size, NULL),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_http_headers(str_of("tools/call"), str_of("x"), o.buf, sizeof o.buf,
                                   &o.size, headers, MRTR_HTTP_MAX_HEADERS, NULL, NULL),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_sse_decoder_size(10, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_sse_feed(NULL, o.buf, 1, &o.size, NULL, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_sse_end_of_stream(NULL, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_sse_reconnect_info(NULL, (mrtr_sse_reconnect *)(void *)o.buf),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_server_root_at(str_of("{}"), str_of("k"), 0, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_server_write_request_error((const uint8_t *)"{", 1, 0, o.buf, sizeof o.buf,
                                                 NULL),
                 MRTR_ERR_NULL_POINTER);
    id.kind = MRTR_ID_NUMBER;
    id.number = 1;
    id.token.ptr = NULL;
    id.token.len = 0;
    CHECK_STATUS(mrtr_server_write_complete(&id, str_of("{}"), o.buf, sizeof o.buf, NULL),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_server_write_complete(&id, str_of("{}"), NULL, 8, &o.size),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_server_write_error(&id, 1, bad, str_of("1"), o.buf, sizeof o.buf, &o.size),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_server_write_invalid_request_state(NULL, o.buf, sizeof o.buf, &o.size),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_server_write_answer_error(&id, str_of("k"), NULL, o.buf, sizeof o.buf,
                                                &o.size),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_server_write_unsupported_version(&id, bad, o.buf, sizeof o.buf, &o.size),
                 MRTR_ERR_NULL_POINTER);
    /* A bad id kind. */
    id.kind = 7;
    CHECK_STATUS(mrtr_server_write_complete(&id, str_of("{}"), o.buf, sizeof o.buf, &o.size),
                 MRTR_ERR_INVALID_ARGUMENT);
    id.kind = MRTR_ID_NONE;
    CHECK_STATUS(mrtr_server_write_complete(&id, str_of("{}"), o.buf, sizeof o.buf, &o.size),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK(untouched(&o, sizeof o));
    CHECK(untouched(&url, sizeof url));
    CHECK(untouched(&field, sizeof field));
    CHECK(untouched(&option, sizeof option));
    CHECK(untouched(headers, sizeof headers));
    CHECK(untouched(digest, sizeof digest));
    CHECK(untouched(&req, sizeof req));
    CHECK(untouched(&answer, sizeof answer));
    CHECK(untouched(&root, sizeof root));
}

void suite_misuse(void) {
    RUN(test_call_getters_refuse_null_and_dead_handles);
    RUN(test_limits_and_restore_refuse_null_pointers);
    RUN(test_helpers_refuse_null_pointers);
}
