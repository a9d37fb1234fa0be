/*
 * The C contract of every pointer (issue 25): each function takes each
 * pointer through one check, so
 * - a NULL pointer with a non-zero length is MRTR_ERR_NULL_POINTER in every
 *   function that takes a (pointer, length) pair, the optional ones whose
 *   NULL means "none" included (table-driven, one row per pair);
 * - an output that overlaps any input is MRTR_ERR_INVALID_ARGUMENT, the
 *   strings a struct or an array points to included: the string id token of
 *   every server writer, the strings of mrtr_input_required and its specs,
 *   the header names and values of mrtr_server_check_param_headers;
 * and a refused call writes nothing: every out-param is pre-filled with a
 * canary and compared afterwards. Built with AddressSanitizer and
 * UndefinedBehaviorSanitizer by scripts/test-c, which also report any
 * overlapping copy inside the library.
 */
#include "testutil.h"

/* ---------------------------------------------------------------- fixtures */

static const uint8_t KEY[32] = "0123456789abcdef0123456789abcdef";
static const uint8_t NONCE[24] = "nonce-nonce-nonce-nonce";
static const uint8_t BINDING[32] = "binding-binding-binding-binding";
static const char FORM[] = "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}";
static const char HEADER_SCHEMA[] =
    "{\"type\":\"object\",\"properties\":{\"region\":{\"type\":\"string\",\"x-mcp-header\":"
    "\"Region\"}}}";
static const char ROOTS_ROUND[] =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\","
    "\"inputRequests\":{\"r\":{\"method\":\"roots/list\"}}}}";

/* Live objects the rows work on, and every out-param (all canary). */
struct ctx {
    mrtr_call *call; /* ANSWERING one roots input */
    void *call_ws;
    mrtr_sealer *sealer;
    void *sealer_ws;
    mrtr_sse_decoder *dec;
    void *dec_ws;
    mrtr_runner runner; /* of call */
    void *spare_ws; /* for the _init and _restore rows */
    size_t spare_len;
    struct {
        size_t size;
        size_t count;
        mrtr_call *call;
        mrtr_sealer *sealer;
        mrtr_sse_decoder *dec;
        mrtr_event event;
        mrtr_str str;
        mrtr_server_request req;
        mrtr_server_error req_error;
        mrtr_server_answer answer;
        mrtr_answer_error answer_error;
        mrtr_server_root root;
        mrtr_build_error build_error;
        mrtr_param_header_error param_error;
        mrtr_schema_error schema_error;
        mrtr_form_field field;
        mrtr_form_option option;
        mrtr_form_error form_error;
        mrtr_url_info url;
        mrtr_url_refusal refusal;
        mrtr_http_header headers[MRTR_HTTP_MAX_HEADERS + 2];
        mrtr_bytes state;
        mrtr_unseal_reason reason;
        mrtr_unsealed_info info;
        mrtr_sse_event sse;
        mrtr_tool tool;
        mrtr_step step;
        bool again;
        uint8_t digest[MRTR_BINDING_BYTES];
        uint8_t buf[64];
    } o;
};

static int32_t transport_never(void *user, const uint8_t *req, size_t req_len, uint8_t *resp,
                           size_t resp_cap, size_t *resp_len) {
    (void)user;
    (void)req;
    (void)req_len;
    (void)resp;
    (void)resp_cap;
    (void)resp_len;
    harness_failed_checks++; /* a refused run never sends */
    return 1;
}

static void ctx_open(struct ctx *c) {
    mrtr_call_config cfg;
    mrtr_bytes key;
    mrtr_event ev;
    size_t n = 0;
    memset(c, 0, sizeof *c);
    memset(&cfg, 0, sizeof cfg);
    cfg.method = MRTR_METHOD_TOOLS_CALL;
    cfg.params = str_of("{\"name\":\"t\"}");
    cfg.caps = MRTR_CAP_ROOTS;
    if (mrtr_call_workspace_size(NULL, &n) != MRTR_OK) {
        exit(2);
    }
    c->call_ws = ws_new(n);
    c->spare_ws = ws_new(n);
    c->spare_len = n;
    if (mrtr_call_init(c->call_ws, n, &cfg, &c->call) != MRTR_OK) {
        exit(2);
    }
    free(leg(c->call, 1));
    CHECK_STATUS(feed(c->call, ROOTS_ROUND, &ev, NULL), MRTR_OK);
    CHECK(phase(c->call) == MRTR_PHASE_ANSWERING);
    key.ptr = KEY;
    key.len = sizeof KEY;
    c->sealer_ws = ws_new(mrtr_sealer_size());
    if (mrtr_sealer_init(c->sealer_ws, mrtr_sealer_size(), &key, 1, str_of("svc"), 0,
                         MRTR_SEAL_DEFAULT_SKEW_SECONDS, 0, &c->sealer, NULL) != MRTR_OK) {
        exit(2);
    }
    if (mrtr_sse_decoder_size(64, &n) != MRTR_OK) {
        exit(2);
    }
    c->dec_ws = ws_new(n);
    if (mrtr_sse_init(c->dec_ws, n, &c->dec) != MRTR_OK) {
        exit(2);
    }
    if (mrtr_runner_init(&c->runner, c->call, 0, 0, 0) != MRTR_OK) {
        exit(2);
    }
    memset(&c->o, CANARY, sizeof c->o);
}

static void ctx_close(struct ctx *c) {
    mrtr_sealer_wipe(c->sealer);
    free(c->call_ws);
    free(c->spare_ws);
    free(c->sealer_ws);
    free(c->dec_ws);
}

/* ------------------------------------------- NULL with a length, every pair */

/* A NULL pointer with this length in every row. */
#define LEN 3
static const mrtr_str NUL_STR = {NULL, LEN};

static mrtr_call_config cfg_ok(void) {
    mrtr_call_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.method = MRTR_METHOD_TOOLS_CALL;
    cfg.params = str_of("{\"name\":\"t\"}");
    return cfg;
}

/* Filled in place, padding zeroed (copies of them are compared bytewise). */
static void spec_fill(mrtr_input_spec *s) {
    memset(s, 0, sizeof *s);
    s->kind = MRTR_INPUT_ELICIT_FORM;
    s->key = str_of("k");
    s->message = str_of("m");
    s->requested_schema = str_of(FORM);
}

static void ir_fill(mrtr_input_required *ir, const mrtr_input_spec *spec) {
    memset(ir, 0, sizeof *ir);
    ir->id.kind = MRTR_ID_NUMBER;
    ir->id.number = 1;
    ir->method = MRTR_SERVER_METHOD_TOOLS_CALL;
    ir->client_caps = MRTR_CAP_ELICITATION_FORM;
    ir->inputs = spec;
    ir->input_count = 1;
}

static mrtr_input_spec spec_ok(void) {
    mrtr_input_spec s;
    spec_fill(&s);
    return s;
}

static mrtr_input_required ir_ok(const mrtr_input_spec *spec) {
    mrtr_input_required ir;
    ir_fill(&ir, spec);
    return ir;
}

static mrtr_request_id number_id(void) {
    mrtr_request_id id;
    memset(&id, 0, sizeof id);
    id.kind = MRTR_ID_NUMBER;
    id.number = 1;
    return id;
}

static const uint8_t MSG[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}";
static const uint8_t REQ[] = "{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"id\":1,\"params\":{}}";

#define ROW(name, expr)                                \
    static mrtr_status name(struct ctx *c) {           \
        (void)c;                                       \
        return (expr);                                 \
    }

/* Calls. */
static mrtr_status row_call_init_workspace(struct ctx *c) {
    mrtr_call_config cfg = cfg_ok();
    return mrtr_call_init(NULL, c->spare_len, &cfg, &c->o.call);
}
static mrtr_status row_call_init_params(struct ctx *c) {
    mrtr_call_config cfg = cfg_ok();
    cfg.params = NUL_STR;
    return mrtr_call_init(c->spare_ws, c->spare_len, &cfg, &c->o.call);
}
static mrtr_status row_call_init_client_name(struct ctx *c) {
    mrtr_call_config cfg = cfg_ok();
    cfg.client_name = NUL_STR; /* NULL alone is "the library's identity" */
    return mrtr_call_init(c->spare_ws, c->spare_len, &cfg, &c->o.call);
}
static mrtr_status row_call_init_client_version(struct ctx *c) {
    mrtr_call_config cfg = cfg_ok();
    cfg.client_name = str_of("app");
    cfg.client_version = NUL_STR;
    return mrtr_call_init(c->spare_ws, c->spare_len, &cfg, &c->o.call);
}
static mrtr_status row_call_init_task_id(struct ctx *c) {
    mrtr_call_config cfg = cfg_ok();
    cfg.task_id = NUL_STR;
    return mrtr_call_init(c->spare_ws, c->spare_len, &cfg, &c->o.call);
}
ROW(row_call_write_request_out, mrtr_call_write_request(c->call, 9, NULL, LEN, &c->o.size))
ROW(row_call_resend_out, mrtr_call_resend(c->call, 9, NULL, LEN, &c->o.size))
ROW(row_call_write_cancel_out, mrtr_call_write_cancel(c->call, 9, NULL, LEN, &c->o.size))
ROW(row_call_feed_msg, mrtr_call_feed(c->call, NULL, LEN, &c->o.event))
ROW(row_call_input_find_key, mrtr_call_input_find(c->call, NUL_STR, &c->o.size))
/* Input 5 does not exist: the pointers are checked before anything is looked up. */
ROW(row_call_input_text_out,
    mrtr_call_input_text(c->call, 5, MRTR_TEXT_KEY, NULL, LEN, &c->o.size))
ROW(row_call_answer_elicit_content,
    mrtr_call_answer_elicit(c->call, 0, MRTR_ELICIT_ACCEPT, NUL_STR))
ROW(row_call_answer_json_json, mrtr_call_answer_json(c->call, 0, NUL_STR))
ROW(row_call_answer_roots_roots, mrtr_call_answer_roots(c->call, 0, NULL, 1))
static mrtr_status row_call_answer_roots_uri(struct ctx *c) {
    mrtr_root r;
    r.uri = NUL_STR;
    r.name = str_of("n");
    return mrtr_call_answer_roots(c->call, 0, &r, 1);
}
static mrtr_status row_call_answer_roots_name(struct ctx *c) {
    mrtr_root r[2];
    r[0].uri = str_of("file:///a/");
    r[0].name = str_of("a");
    r[1].uri = str_of("file:///b/");
    r[1].name = NUL_STR; /* NULL alone is "no name" */
    return mrtr_call_answer_roots(c->call, 0, r, 2);
}
ROW(row_call_result_fed, mrtr_call_result(c->call, NULL, LEN, &c->o.str))
ROW(row_call_save_out, mrtr_call_save(c->call, NULL, LEN, &c->o.size))
ROW(row_call_restore_saved,
    mrtr_call_restore(c->spare_ws, c->spare_len, NULL, NULL, LEN, &c->o.call, NULL))
ROW(row_call_restore_workspace,
    mrtr_call_restore(NULL, c->spare_len, NULL, MSG, sizeof MSG - 1, &c->o.call, NULL))
static mrtr_status row_run_buf(struct ctx *c) {
    mrtr_run_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.transport = transport_never;
    return mrtr_run(c->call, &cb, NULL, NULL, 64, &c->o.event);
}
ROW(row_runner_init_runner, mrtr_runner_init(NULL, c->call, 0, 0, 0))
ROW(row_runner_next_out, mrtr_runner_next(&c->runner, c->call, NULL, LEN, &c->o.step))
ROW(row_runner_received_msg,
    mrtr_runner_received(&c->runner, c->call, NULL, LEN, &c->o.event, &c->o.again))
ROW(row_runner_answered_runner, mrtr_runner_answered(NULL, c->call, 0, MRTR_CB_ANSWERED))

/* UI helpers. */
ROW(row_form_parse_schema, mrtr_form_parse(NUL_STR, &c->o.size, &c->o.schema_error))
ROW(row_form_field_at_schema, mrtr_form_field_at(NUL_STR, 0, &c->o.field))
ROW(row_form_option_at_schema, mrtr_form_option_at(NUL_STR, 0, 0, &c->o.option))
ROW(row_form_text_schema,
    mrtr_form_text(NUL_STR, 0, 0, MRTR_FORM_TEXT_NAME, c->o.buf, sizeof c->o.buf, &c->o.size, NULL))
ROW(row_form_text_out,
    mrtr_form_text(str_of(FORM), 0, 0, MRTR_FORM_TEXT_NAME, NULL, LEN, &c->o.size, NULL))
ROW(row_form_validate_schema, mrtr_form_validate(NUL_STR, str_of("{}"), &c->o.form_error))
ROW(row_form_validate_content, mrtr_form_validate(str_of(FORM), NUL_STR, &c->o.form_error))
ROW(row_url_consent_url, mrtr_url_consent(NUL_STR, &c->o.url, &c->o.refusal))

/* HTTP and tools. */
ROW(row_http_headers_method,
    mrtr_http_headers(NUL_STR, str_of("t"), c->o.buf, sizeof c->o.buf, &c->o.size, c->o.headers,
                      MRTR_HTTP_MAX_HEADERS, &c->o.count, NULL))
ROW(row_http_headers_name, /* NULL alone is "no name" */
    mrtr_http_headers(str_of("tools/list"), NUL_STR, c->o.buf, sizeof c->o.buf, &c->o.size,
                      c->o.headers, MRTR_HTTP_MAX_HEADERS, &c->o.count, NULL))
ROW(row_http_headers_buf,
    mrtr_http_headers(str_of("tools/list"), str_of(""), NULL, LEN, &c->o.size, c->o.headers,
                      MRTR_HTTP_MAX_HEADERS, &c->o.count, NULL))
ROW(row_http_headers_out_headers,
    mrtr_http_headers(str_of("tools/list"), str_of(""), c->o.buf, sizeof c->o.buf, &c->o.size,
                      NULL, MRTR_HTTP_MAX_HEADERS, &c->o.count, NULL))
ROW(row_http_headers_for_message_body,
    mrtr_http_headers_for_message(NULL, LEN, c->o.buf, sizeof c->o.buf, &c->o.size,
                                  c->o.headers, MRTR_HTTP_MAX_HEADERS, &c->o.count, NULL))
ROW(row_http_headers_for_message_buf,
    mrtr_http_headers_for_message(REQ, sizeof REQ - 1, NULL, LEN, &c->o.size, c->o.headers,
                                  MRTR_HTTP_MAX_HEADERS, &c->o.count, NULL))
ROW(row_http_headers_for_tool_call_body,
    mrtr_http_headers_for_tool_call(NULL, LEN, str_of(HEADER_SCHEMA), c->o.buf, sizeof c->o.buf,
                                    &c->o.size, c->o.headers, MRTR_HTTP_MAX_HEADERS + 2,
                                    &c->o.count, NULL))
ROW(row_http_headers_for_tool_call_schema,
    mrtr_http_headers_for_tool_call(REQ, sizeof REQ - 1, NUL_STR, c->o.buf, sizeof c->o.buf,
                                    &c->o.size, c->o.headers, MRTR_HTTP_MAX_HEADERS + 2,
                                    &c->o.count, NULL))
ROW(row_http_headers_for_tool_call_buf,
    mrtr_http_headers_for_tool_call(REQ, sizeof REQ - 1, str_of(HEADER_SCHEMA), NULL, LEN,
                                    &c->o.size, c->o.headers, MRTR_HTTP_MAX_HEADERS + 2,
                                    &c->o.count, NULL))
ROW(row_tool_header_check_schema, mrtr_tool_header_check(NUL_STR, &c->o.count))
ROW(row_version_retry_msg, mrtr_version_retry(NULL, LEN, 0))
ROW(row_tool_list_result, mrtr_tool_list(NULL, LEN, &c->o.count, &c->o.str, NULL))
ROW(row_tool_at_result, mrtr_tool_at(NULL, LEN, 0, &c->o.tool, NULL))
static mrtr_status row_tool_next_result(struct ctx *c) {
    mrtr_tool_cursor at;
    memset(&at, 0, sizeof at);
    return mrtr_tool_next(NULL, LEN, &at, &c->o.tool, NULL);
}
ROW(row_sse_feed_chunk, mrtr_sse_feed(c->dec, NULL, LEN, &c->o.size, &c->o.sse, NULL))

/* JSON. */
ROW(row_json_validate_json, mrtr_json_validate(NULL, LEN, 0, &c->o.size))
ROW(row_json_write_string_text,
    mrtr_json_write_string(NUL_STR, c->o.buf, sizeof c->o.buf, &c->o.size))
ROW(row_json_write_string_out, mrtr_json_write_string(str_of("x"), NULL, LEN, &c->o.size))
ROW(row_json_decode_string_token,
    mrtr_json_decode_string(NULL, LEN, c->o.buf, sizeof c->o.buf, &c->o.size))
ROW(row_json_decode_string_out,
    mrtr_json_decode_string((const uint8_t *)"\"x\"", 3, NULL, LEN, &c->o.size))

/* Sealing. */
static mrtr_status row_sealer_init_mem(struct ctx *c) {
    mrtr_bytes key = {KEY, sizeof KEY};
    return mrtr_sealer_init(NULL, mrtr_sealer_size(), &key, 1, str_of("svc"), 0, 0, 0,
                            &c->o.sealer, NULL);
}
static mrtr_status row_sealer_init_keys(struct ctx *c) {
    return mrtr_sealer_init(c->spare_ws, mrtr_sealer_size(), NULL, 1, str_of("svc"), 0, 0, 0,
                            &c->o.sealer, NULL);
}
static mrtr_status row_sealer_init_key_bytes(struct ctx *c) {
    mrtr_bytes key = {NULL, sizeof KEY};
    return mrtr_sealer_init(c->spare_ws, mrtr_sealer_size(), &key, 1, str_of("svc"), 0, 0, 0,
                            &c->o.sealer, NULL);
}
static mrtr_status row_sealer_init_audience(struct ctx *c) {
    mrtr_bytes key = {KEY, sizeof KEY};
    return mrtr_sealer_init(c->spare_ws, mrtr_sealer_size(), &key, 1, NUL_STR, 0, 0, 0,
                            &c->o.sealer, NULL);
}
ROW(row_binding_digest_method,
    mrtr_binding_digest(NUL_STR, str_of("t"), (const uint8_t *)"{}", 2, c->o.digest, NULL))
ROW(row_binding_digest_target,
    mrtr_binding_digest(str_of("tools/call"), NUL_STR, (const uint8_t *)"{}", 2, c->o.digest, NULL))
ROW(row_binding_digest_arguments, /* NULL alone is "no arguments" */
    mrtr_binding_digest(str_of("tools/call"), str_of("t"), NULL, 5, c->o.digest, NULL))
static mrtr_status row_principal_digest_principal(struct ctx *c) {
    mrtr_bytes p = {NULL, LEN};
    return mrtr_principal_digest(p, c->o.digest);
}
ROW(row_binding_digest_out, /* 32 bytes */
    mrtr_binding_digest(str_of("tools/call"), str_of("t"), (const uint8_t *)"{}", 2, NULL, NULL))
static mrtr_status row_seal_nonce(struct ctx *c) { /* 24 bytes */
    mrtr_bytes st = {(const uint8_t *)"s", 1};
    return mrtr_seal(c->sealer, 1000, NULL, BINDING, NULL, st, c->o.buf, sizeof c->o.buf,
                     &c->o.size);
}
static mrtr_status row_seal_binding(struct ctx *c) { /* 32 bytes */
    mrtr_bytes st = {(const uint8_t *)"s", 1};
    return mrtr_seal(c->sealer, 1000, NONCE, NULL, NULL, st, c->o.buf, sizeof c->o.buf,
                     &c->o.size);
}
static mrtr_status row_seal_principal(struct ctx *c) {
    mrtr_bytes st = {(const uint8_t *)"s", 1};
    mrtr_bytes who = {NULL, LEN};
    return mrtr_seal(c->sealer, 1000, NONCE, BINDING, &who, st, c->o.buf, sizeof c->o.buf,
                     &c->o.size);
}
static mrtr_status row_seal_state(struct ctx *c) {
    mrtr_bytes st = {NULL, LEN};
    return mrtr_seal(c->sealer, 1000, NONCE, BINDING, NULL, st, c->o.buf, sizeof c->o.buf,
                     &c->o.size);
}
static mrtr_status row_seal_out(struct ctx *c) {
    mrtr_bytes st = {(const uint8_t *)"s", 1};
    return mrtr_seal(c->sealer, 1000, NONCE, BINDING, NULL, st, NULL, LEN, &c->o.size);
}
static mrtr_status row_unseal_token(struct ctx *c) {
    mrtr_bytes tok = {NULL, LEN};
    return mrtr_unseal(c->sealer, 1000, tok, BINDING, NULL, c->o.buf, sizeof c->o.buf,
                       &c->o.state, &c->o.reason, &c->o.info);
}
static mrtr_status row_unseal_binding(struct ctx *c) {
    mrtr_bytes tok = {(const uint8_t *)"m2.x", 4};
    return mrtr_unseal(c->sealer, 1000, tok, NULL, NULL, c->o.buf, sizeof c->o.buf, &c->o.state,
                       &c->o.reason, &c->o.info);
}
static mrtr_status row_unseal_principal(struct ctx *c) {
    mrtr_bytes tok = {(const uint8_t *)"m2.x", 4};
    mrtr_bytes who = {NULL, LEN};
    return mrtr_unseal(c->sealer, 1000, tok, BINDING, &who, c->o.buf, sizeof c->o.buf,
                       &c->o.state, &c->o.reason, &c->o.info);
}
static mrtr_status row_unseal_scratch(struct ctx *c) {
    mrtr_bytes tok = {(const uint8_t *)"m2.x", 4};
    return mrtr_unseal(c->sealer, 1000, tok, BINDING, NULL, NULL, LEN, &c->o.state,
                       &c->o.reason, &c->o.info);
}

/* Server. */
ROW(row_server_parse_request_msg,
    mrtr_server_parse_request(NULL, LEN, 0, &c->o.req, &c->o.req_error))
ROW(row_server_write_request_error_msg,
    mrtr_server_write_request_error(NULL, LEN, 0, c->o.buf, sizeof c->o.buf, &c->o.size))
ROW(row_server_write_request_error_out,
    mrtr_server_write_request_error((const uint8_t *)"{", 1, 0, NULL, LEN, &c->o.size))
ROW(row_server_input_response_map,
    mrtr_server_input_response(NUL_STR, str_of("k"), 0, &c->o.answer, &c->o.answer_error))
ROW(row_server_input_response_key,
    mrtr_server_input_response(str_of("{}"), NUL_STR, 0, &c->o.answer, &c->o.answer_error))
ROW(row_server_root_at_map, mrtr_server_root_at(NUL_STR, str_of("k"), 0, &c->o.root))
ROW(row_server_root_at_key, mrtr_server_root_at(str_of("{}"), NUL_STR, 0, &c->o.root))
static mrtr_status row_input_required_inputs(struct ctx *c) {
    mrtr_input_required ir = ir_ok(NULL);
    return mrtr_server_write_input_required(&ir, c->o.buf, sizeof c->o.buf, &c->o.size,
                                            &c->o.build_error);
}
static mrtr_status row_input_required_spec_key(struct ctx *c) {
    mrtr_input_spec s = spec_ok();
    mrtr_input_required ir = ir_ok(&s);
    s.key = NUL_STR;
    return mrtr_server_write_input_required(&ir, c->o.buf, sizeof c->o.buf, &c->o.size,
                                            &c->o.build_error);
}
static mrtr_status row_input_required_spec_message(struct ctx *c) {
    mrtr_input_spec s = spec_ok();
    mrtr_input_required ir = ir_ok(&s);
    s.message = NUL_STR;
    return mrtr_server_write_input_required(&ir, c->o.buf, sizeof c->o.buf, &c->o.size,
                                            &c->o.build_error);
}
static mrtr_status row_input_required_spec_schema(struct ctx *c) {
    mrtr_input_spec s = spec_ok();
    mrtr_input_required ir = ir_ok(&s);
    s.requested_schema = NUL_STR;
    return mrtr_server_write_input_required(&ir, c->o.buf, sizeof c->o.buf, &c->o.size,
                                            &c->o.build_error);
}
static mrtr_status row_input_required_spec_url(struct ctx *c) {
    mrtr_input_spec s = spec_ok();
    mrtr_input_required ir = ir_ok(&s);
    ir.client_caps = MRTR_CAP_ELICITATION_URL;
    s.kind = MRTR_INPUT_ELICIT_URL;
    s.url = NUL_STR;
    return mrtr_server_write_input_required(&ir, c->o.buf, sizeof c->o.buf, &c->o.size,
                                            &c->o.build_error);
}
static mrtr_status row_input_required_spec_params(struct ctx *c) {
    mrtr_input_spec s = spec_ok();
    mrtr_input_required ir = ir_ok(&s);
    ir.client_caps = MRTR_CAP_SAMPLING;
    s.kind = MRTR_INPUT_SAMPLING;
    s.params = NUL_STR;
    return mrtr_server_write_input_required(&ir, c->o.buf, sizeof c->o.buf, &c->o.size,
                                            &c->o.build_error);
}
static mrtr_status row_input_required_state(struct ctx *c) { /* NULL alone is "none" */
    mrtr_input_spec s = spec_ok();
    mrtr_input_required ir = ir_ok(&s);
    ir.request_state = NUL_STR;
    return mrtr_server_write_input_required(&ir, c->o.buf, sizeof c->o.buf, &c->o.size,
                                            &c->o.build_error);
}
static mrtr_status row_input_required_related_task(struct ctx *c) { /* NULL alone is "none" */
    mrtr_input_spec s = spec_ok();
    mrtr_input_required ir = ir_ok(&s);
    ir.related_task = NUL_STR;
    return mrtr_server_write_input_required(&ir, c->o.buf, sizeof c->o.buf, &c->o.size,
                                            &c->o.build_error);
}
static mrtr_status row_input_required_id_token(struct ctx *c) {
    mrtr_input_spec s = spec_ok();
    mrtr_input_required ir = ir_ok(&s);
    ir.id.kind = MRTR_ID_STRING;
    ir.id.token = NUL_STR;
    return mrtr_server_write_input_required(&ir, c->o.buf, sizeof c->o.buf, &c->o.size,
                                            &c->o.build_error);
}
static mrtr_status row_input_required_out(struct ctx *c) {
    mrtr_input_spec s = spec_ok();
    mrtr_input_required ir = ir_ok(&s);
    return mrtr_server_write_input_required(&ir, NULL, LEN, &c->o.size, &c->o.build_error);
}
static mrtr_status row_write_complete_result(struct ctx *c) {
    mrtr_request_id id = number_id();
    return mrtr_server_write_complete(&id, NUL_STR, c->o.buf, sizeof c->o.buf, &c->o.size);
}
static mrtr_status row_write_complete_id_token(struct ctx *c) {
    mrtr_request_id id = number_id();
    id.kind = MRTR_ID_STRING;
    id.token = NUL_STR;
    return mrtr_server_write_complete(&id, str_of("{}"), c->o.buf, sizeof c->o.buf, &c->o.size);
}
static mrtr_status row_write_complete_out(struct ctx *c) {
    mrtr_request_id id = number_id();
    return mrtr_server_write_complete(&id, str_of("{}"), NULL, LEN, &c->o.size);
}
static mrtr_status row_write_error_message(struct ctx *c) {
    mrtr_request_id id = number_id();
    return mrtr_server_write_error(&id, 1, NUL_STR, str_of("1"), c->o.buf, sizeof c->o.buf,
                                   &c->o.size);
}
static mrtr_status row_write_error_data(struct ctx *c) { /* NULL alone is "no data" */
    mrtr_request_id id = number_id();
    return mrtr_server_write_error(&id, 1, str_of("m"), NUL_STR, c->o.buf, sizeof c->o.buf,
                                   &c->o.size);
}
static mrtr_status row_write_error_out(struct ctx *c) {
    mrtr_request_id id = number_id();
    return mrtr_server_write_error(&id, 1, str_of("m"), str_of("1"), NULL, LEN, &c->o.size);
}
static mrtr_status row_write_missing_capability_out(struct ctx *c) {
    mrtr_request_id id = number_id();
    return mrtr_server_write_missing_capability(&id, MRTR_CAP_ROOTS, NULL, LEN, &c->o.size);
}
static mrtr_status row_write_unsupported_version_requested(struct ctx *c) {
    mrtr_request_id id = number_id();
    return mrtr_server_write_unsupported_version(&id, NUL_STR, c->o.buf, sizeof c->o.buf,
                                                 &c->o.size);
}
static mrtr_status row_write_unsupported_version_out(struct ctx *c) {
    mrtr_request_id id = number_id();
    return mrtr_server_write_unsupported_version(&id, str_of("\"1\""), NULL, LEN, &c->o.size);
}
static mrtr_status row_write_invalid_request_state_out(struct ctx *c) {
    mrtr_request_id id = number_id();
    return mrtr_server_write_invalid_request_state(&id, NULL, LEN, &c->o.size);
}
static mrtr_status row_write_answer_error_key(struct ctx *c) {
    mrtr_request_id id = number_id();
    mrtr_answer_error e = {MRTR_ANSWER_MALFORMED, MRTR_ANSWER_ROOTS, 0};
    return mrtr_server_write_answer_error(&id, NUL_STR, &e, c->o.buf, sizeof c->o.buf,
                                          &c->o.size);
}
static mrtr_status row_write_answer_error_out(struct ctx *c) {
    mrtr_request_id id = number_id();
    mrtr_answer_error e = {MRTR_ANSWER_MALFORMED, MRTR_ANSWER_ROOTS, 0};
    return mrtr_server_write_answer_error(&id, str_of("k"), &e, NULL, LEN, &c->o.size);
}
ROW(row_check_param_headers_schema,
    mrtr_server_check_param_headers(NUL_STR, str_of("{}"), NULL, 0, &c->o.param_error))
ROW(row_check_param_headers_arguments, /* NULL alone is "no arguments" */
    mrtr_server_check_param_headers(str_of(HEADER_SCHEMA), NUL_STR, NULL, 0, &c->o.param_error))
ROW(row_check_param_headers_headers,
    mrtr_server_check_param_headers(str_of(HEADER_SCHEMA), str_of("{}"), NULL, 1,
                                    &c->o.param_error))
static mrtr_status row_check_param_headers_name(struct ctx *c) {
    mrtr_http_header h[2];
    h[0].name = str_of("Accept");
    h[0].value = str_of("*/*");
    h[1].name = NUL_STR;
    h[1].value = str_of("eu");
    return mrtr_server_check_param_headers(str_of(HEADER_SCHEMA), str_of("{}"), h, 2,
                                           &c->o.param_error);
}
static mrtr_status row_check_param_headers_value(struct ctx *c) {
    mrtr_http_header h;
    h.name = str_of("Mcp-Param-Region");
    h.value = NUL_STR;
    return mrtr_server_check_param_headers(str_of(HEADER_SCHEMA), str_of("{}"), &h, 1,
                                           &c->o.param_error);
}

struct row {
    const char *name;
    mrtr_status (*run)(struct ctx *c);
};

#define R(f) {#f, f}
static const struct row NULL_ROWS[] = {
    R(row_call_init_workspace), R(row_call_init_params), R(row_call_init_client_name),
    R(row_call_init_client_version), R(row_call_init_task_id), R(row_call_write_request_out),
    R(row_call_resend_out), R(row_call_write_cancel_out), R(row_call_feed_msg),
    R(row_call_input_find_key), R(row_call_input_text_out), R(row_call_answer_elicit_content),
    R(row_call_answer_json_json), R(row_call_answer_roots_roots), R(row_call_answer_roots_uri),
    R(row_call_answer_roots_name), R(row_call_result_fed), R(row_call_save_out),
    R(row_call_restore_saved), R(row_call_restore_workspace), R(row_run_buf),
    R(row_runner_init_runner), R(row_runner_next_out), R(row_runner_received_msg),
    R(row_runner_answered_runner),
    R(row_form_parse_schema), R(row_form_field_at_schema), R(row_form_option_at_schema),
    R(row_form_text_schema), R(row_form_text_out), R(row_form_validate_schema),
    R(row_form_validate_content), R(row_url_consent_url), R(row_http_headers_method),
    R(row_http_headers_name), R(row_http_headers_buf), R(row_http_headers_out_headers),
    R(row_http_headers_for_message_body), R(row_http_headers_for_message_buf),
    R(row_http_headers_for_tool_call_body), R(row_http_headers_for_tool_call_schema),
    R(row_http_headers_for_tool_call_buf), R(row_tool_header_check_schema),
    R(row_version_retry_msg), R(row_tool_list_result), R(row_tool_at_result),
    R(row_tool_next_result), R(row_principal_digest_principal),
    R(row_sse_feed_chunk), R(row_json_validate_json), R(row_json_write_string_text),
    R(row_json_write_string_out), R(row_json_decode_string_token),
    R(row_json_decode_string_out), R(row_sealer_init_mem), R(row_sealer_init_keys),
    R(row_sealer_init_key_bytes), R(row_sealer_init_audience), R(row_binding_digest_method),
    R(row_binding_digest_target), R(row_binding_digest_arguments), R(row_binding_digest_out),
    R(row_seal_nonce), R(row_seal_binding), R(row_seal_principal), R(row_seal_state),
    R(row_seal_out), R(row_unseal_token), R(row_unseal_binding), R(row_unseal_principal),
    R(row_unseal_scratch), R(row_server_parse_request_msg),
    R(row_server_write_request_error_msg), R(row_server_write_request_error_out),
    R(row_server_input_response_map), R(row_server_input_response_key),
    R(row_server_root_at_map), R(row_server_root_at_key), R(row_input_required_inputs),
    R(row_input_required_spec_key), R(row_input_required_spec_message),
    R(row_input_required_spec_schema), R(row_input_required_spec_url),
    R(row_input_required_spec_params), R(row_input_required_state),
    R(row_input_required_related_task), R(row_input_required_id_token),
    R(row_input_required_out), R(row_write_complete_result), R(row_write_complete_id_token),
    R(row_write_complete_out), R(row_write_error_message), R(row_write_error_data),
    R(row_write_error_out), R(row_write_missing_capability_out),
    R(row_write_unsupported_version_requested), R(row_write_unsupported_version_out),
    R(row_write_invalid_request_state_out), R(row_write_answer_error_key),
    R(row_write_answer_error_out), R(row_check_param_headers_schema),
    R(row_check_param_headers_arguments), R(row_check_param_headers_headers),
    R(row_check_param_headers_name), R(row_check_param_headers_value),
};

static void test_a_null_pointer_with_a_length_is_refused_everywhere(void) {
    struct ctx c;
    size_t i;
    mrtr_progress before, after;
    ctx_open(&c);
    before = progress(c.call);
    for (i = 0; i < sizeof NULL_ROWS / sizeof NULL_ROWS[0]; i++) {
        mrtr_status got;
        memset(&c.o, CANARY, sizeof c.o);
        got = NULL_ROWS[i].run(&c);
        if (got != MRTR_ERR_NULL_POINTER) {
            printf("  %s returned %s, expected MRTR_ERR_NULL_POINTER\n", NULL_ROWS[i].name,
                   mrtr_status_str((int)got));
            harness_failed_checks++;
        }
        if (!untouched(&c.o, sizeof c.o)) {
            printf("  %s wrote an out-param\n", NULL_ROWS[i].name);
            harness_failed_checks++;
        }
    }
    /* The call answered nothing and still waits for its one answer. */
    after = progress(c.call);
    CHECK(after.phase == MRTR_PHASE_ANSWERING);
    CHECK_EQ_SIZE(after.answered_count, before.answered_count);
    CHECK_EQ_SIZE(after.answered_count, 0);
    /* NULL with length 0 stays "none" where a NULL means none. */
    {
        uint8_t digest[MRTR_BINDING_BYTES];
        mrtr_request_id id = number_id();
        mrtr_str none = {NULL, 0};
        size_t n = 0;
        CHECK_STATUS(mrtr_binding_digest(str_of("tools/call"), str_of("t"), NULL, 0, digest, NULL),
                     MRTR_OK);
        CHECK_STATUS(mrtr_server_write_error(&id, 1, str_of("m"), none, c.o.buf, sizeof c.o.buf,
                                             &n),
                     MRTR_OK);
        CHECK_EQ_TEXT(c.o.buf, n,
                      "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1,\"message\":\"m\"}}");
    }
    ctx_close(&c);
}

/* ---------------------------------------------- outputs over the inputs */

/* A string id token, 100 characters quoted, at `at`. */
static mrtr_request_id token_at(uint8_t *at) {
    mrtr_request_id id;
    memset(&id, 0, sizeof id);
    at[0] = '"';
    memset(at + 1, 'q', 100);
    at[101] = '"';
    id.kind = MRTR_ID_STRING;
    id.token.ptr = (const char *)at;
    id.token.len = 102;
    return id;
}

/* Every server writer that takes an id, writing into `out`. */
static mrtr_status write_with_id(int which, const mrtr_request_id *id, uint8_t *out,
                                 size_t out_len, size_t *written) {
    static const mrtr_answer_error e = {MRTR_ANSWER_MALFORMED, MRTR_ANSWER_ROOTS, 0};
    mrtr_input_required ir;
    mrtr_input_spec s = spec_ok();
    switch (which) {
    case 0:
        return mrtr_server_write_complete(id, str_of("{}"), out, out_len, written);
    case 1:
        return mrtr_server_write_error(id, 1, str_of("m"), str_of("{}"), out, out_len, written);
    case 2:
        return mrtr_server_write_missing_capability(id, MRTR_CAP_ROOTS, out, out_len, written);
    case 3:
        return mrtr_server_write_unsupported_version(id, str_of("\"1\""), out, out_len,
                                                     written);
    case 4:
        return mrtr_server_write_invalid_request_state(id, out, out_len, written);
    case 5:
        return mrtr_server_write_answer_error(id, str_of("k"), &e, out, out_len, written);
    default:
        ir = ir_ok(&s);
        ir.id = *id;
        return mrtr_server_write_input_required(&ir, out, out_len, written, NULL);
    }
}
#define WRITERS 7
static const char *const WRITER_NAMES[WRITERS] = {
    "write_complete", "write_error",   "write_missing_capability", "write_unsupported_version",
    "write_invalid_request_state", "write_answer_error", "write_input_required"};

static void test_server_writers_refuse_an_id_token_inside_the_output(void) {
    uint8_t out[1024];
    uint8_t snapshot[sizeof out];
    size_t written;
    int w;
    size_t at;
    /* The token at the start, in the middle and at the end of the output. */
    static const size_t places[] = {0, 300, sizeof out - 102};
    for (w = 0; w < WRITERS; w++) {
        for (at = 0; at < sizeof places / sizeof places[0]; at++) {
            mrtr_request_id id;
            memset(out, CANARY, sizeof out);
            id = token_at(out + places[at]);
            memcpy(snapshot, out, sizeof out);
            memset(&written, CANARY, sizeof written);
            if (write_with_id(w, &id, out, sizeof out, &written) != MRTR_ERR_INVALID_ARGUMENT) {
                printf("  %s: a token at out+%zu was not refused\n", WRITER_NAMES[w],
                       places[at]);
                harness_failed_checks++;
            }
            CHECK(memcmp(out, snapshot, sizeof out) == 0);
            CHECK(untouched(&written, sizeof written));
        }
        /* Just past the output it is an ordinary input. */
        {
            uint8_t both[512 + 102];
            mrtr_request_id id = token_at(both + 512);
            CHECK_STATUS(write_with_id(w, &id, both, 512, &written), MRTR_OK);
            CHECK(written > 102);
        }
    }
}

/* The strings and arrays of mrtr_input_required are inputs too. */
static void test_input_required_refuses_an_output_over_its_strings(void) {
    union {
        uint8_t bytes[1024];
        mrtr_build_error align_;
        mrtr_input_spec align2_;
    } out;
    uint8_t snapshot[sizeof out];
    mrtr_input_spec specs[2];
    mrtr_input_required ir;
    mrtr_build_error be;
    size_t written;
    int i;
    for (i = 0; i < 7; i++) {
        spec_fill(&specs[0]);
        spec_fill(&specs[1]);
        specs[1].key = str_of("k2");
        ir_fill(&ir, specs);
        ir.input_count = 2;
        ir.request_state = str_of("state");
        ir.related_task = str_of("task");
        memset(out.bytes, CANARY, sizeof out.bytes);
        memcpy(out.bytes + 600, FORM, sizeof FORM - 1);
        switch (i) {
        case 0: /* the second spec's key */
            specs[1].key.ptr = (const char *)out.bytes + 600;
            specs[1].key.len = 1;
            break;
        case 1: /* its message */
            specs[1].message.ptr = (const char *)out.bytes + 600;
            specs[1].message.len = 1;
            break;
        case 2: /* its schema */
            specs[1].requested_schema.ptr = (const char *)out.bytes + 600;
            specs[1].requested_schema.len = sizeof FORM - 1;
            break;
        case 3: /* the state */
            ir.request_state.ptr = (const char *)out.bytes + 600;
            ir.request_state.len = 5;
            break;
        case 4: /* the related task */
            ir.related_task.ptr = (const char *)out.bytes + 600;
            ir.related_task.len = 5;
            break;
        case 5: /* the spec array */
            memcpy(out.bytes + 512, specs, sizeof specs);
            ir.inputs = (const mrtr_input_spec *)(const void *)(out.bytes + 512);
            break;
        default: /* the struct */
            memcpy(out.bytes + 512, &ir, sizeof ir);
            break;
        }
        memcpy(snapshot, out.bytes, sizeof out.bytes);
        memset(&written, CANARY, sizeof written);
        memset(&be, CANARY, sizeof be);
        CHECK_STATUS(mrtr_server_write_input_required(
                         i == 6 ? (const mrtr_input_required *)(const void *)(out.bytes + 512)
                                : &ir,
                         out.bytes, sizeof out.bytes, &written, &be),
                     MRTR_ERR_INVALID_ARGUMENT);
        CHECK(memcmp(out.bytes, snapshot, sizeof out.bytes) == 0);
        CHECK(untouched(&written, sizeof written));
        CHECK(untouched(&be, sizeof be));
    }
    /* The error record may not lie over a spec's string either (it is
     * written on a refused input). */
    {
        union {
            mrtr_build_error rec;
            char bytes[64];
        } u;
        uint8_t small[512];
        memset(&u, CANARY, sizeof u);
        memcpy(u.bytes, "sampling", 8);
        specs[0] = spec_ok();
        specs[0].kind = MRTR_INPUT_SAMPLING; /* undeclared: refused, with a record */
        specs[0].key.ptr = u.bytes;
        specs[0].key.len = 8;
        specs[0].params = str_of("{\"messages\":[],\"maxTokens\":1}");
        ir = ir_ok(specs);
        memset(&written, CANARY, sizeof written);
        CHECK_STATUS(mrtr_server_write_input_required(&ir, small, sizeof small, &written, &u.rec),
                     MRTR_ERR_INVALID_ARGUMENT);
        CHECK(memcmp(u.bytes, "sampling", 8) == 0);
        CHECK(untouched(u.bytes + 8, sizeof u.bytes - 8));
        CHECK(untouched(&written, sizeof written));
        /* Apart, the record is written. */
        CHECK_STATUS(mrtr_server_write_input_required(&ir, small, sizeof small, &written, &be),
                     MRTR_ERR_UNDECLARED_CAPABILITY);
        CHECK(be.missing_caps == MRTR_CAP_SAMPLING);
    }
}

static void test_param_header_error_record_may_not_overlap_the_headers(void) {
    static const char args[] = "{\"region\":\"eu\"}";
    /* The record's memory, which also holds a header's bytes. */
    union {
        mrtr_param_header_error rec;
        char bytes[64];
    } u;
    char snapshot[sizeof u.bytes];
    mrtr_http_header h[2];
    mrtr_param_header_error err;
    int i;
    for (i = 0; i < 3; i++) {
        memset(&u, CANARY, sizeof u);
        h[0].name = str_of("Accept");
        h[0].value = str_of("*/*");
        h[1].name = str_of("Mcp-Param-Region");
        h[1].value = str_of("us"); /* a mismatch: refused with a record */
        switch (i) {
        case 0: /* the second header's name */
            memcpy(u.bytes, "Mcp-Param-Region", 16);
            h[1].name.ptr = u.bytes;
            break;
        case 1: /* its value, at the record's end */
            memcpy(u.bytes + sizeof u.rec - 1, "us", 2);
            h[1].value.ptr = u.bytes + sizeof u.rec - 1;
            break;
        default: /* a header that is not an Mcp-Param-* one */
            memcpy(u.bytes + 4, "Accept", 6);
            h[0].name.ptr = u.bytes + 4;
            break;
        }
        memcpy(snapshot, u.bytes, sizeof u.bytes);
        CHECK_STATUS(mrtr_server_check_param_headers(str_of(HEADER_SCHEMA), str_of(args), h, 2,
                                                     &u.rec),
                     MRTR_ERR_INVALID_ARGUMENT);
        CHECK(memcmp(u.bytes, snapshot, sizeof u.bytes) == 0);
    }
    /* Apart, the mismatch is reported in the record. */
    memset(&err, 0, sizeof err);
    CHECK_STATUS(mrtr_server_check_param_headers(str_of(HEADER_SCHEMA), str_of(args), h, 2, &err),
                 MRTR_ERR_INVALID_VALUE);
    CHECK(err.reason == MRTR_PARAM_HEADER_MISMATCH);
    CHECK_EQ_TEXT(err.header.ptr, err.header.len, "Region");
}

/* A roots answer of MRTR_MAX_ROOTS named roots: 64 strings, all checked. */
static void test_a_roots_answer_takes_every_root(void) {
    struct ctx c;
    mrtr_root roots[MRTR_MAX_ROOTS];
    char uris[MRTR_MAX_ROOTS][48];
    char names[MRTR_MAX_ROOTS][32];
    size_t i;
    char *sent;
    ctx_open(&c);
    for (i = 0; i < MRTR_MAX_ROOTS; i++) {
        snprintf(uris[i], sizeof uris[i], "file:///r%u/", (unsigned)i);
        snprintf(names[i], sizeof names[i], "n%u", (unsigned)i);
        roots[i].uri = str_of(uris[i]);
        roots[i].name = str_of(names[i]);
    }
    CHECK_STATUS(mrtr_call_answer_roots(c.call, 0, roots, MRTR_MAX_ROOTS), MRTR_OK);
    CHECK(phase(c.call) == MRTR_PHASE_READY);
    sent = leg(c.call, 2);
    CHECK(strstr(sent, "{\"uri\":\"file:///r0/\",\"name\":\"n0\"}") != NULL);
    CHECK(strstr(sent, "{\"uri\":\"file:///r31/\",\"name\":\"n31\"}") != NULL);
    free(sent);
    ctx_close(&c);
}

void suite_contract(void) {
    RUN(test_a_null_pointer_with_a_length_is_refused_everywhere);
    RUN(test_server_writers_refuse_an_id_token_inside_the_output);
    RUN(test_input_required_refuses_an_output_over_its_strings);
    RUN(test_param_header_error_record_may_not_overlap_the_headers);
    RUN(test_a_roots_answer_takes_every_root);
}
