/*
 * mrtr_server_*: parse requests, look answers up, write every response
 * (exact bytes), refuse undeclared kinds; and the client half and the
 * server half talking over bytes through the C API alone.
 */
#include "testutil.h"

#define META_FORM                                                              \
    "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","  \
    "\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{\"form\":{}}},"       \
    "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"ExampleClient\",\"version\":"      \
    "\"1.0.0\"}}"

static const char REQ_2[] =
    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{" META_FORM
    ",\"name\":\"update_work_item\",\"arguments\":{\"workItemId\": 4522},"
    "\"inputResponses\":{\"resolution\":{\"action\":\"accept\",\"content\":{ \"resolution\": "
    "\"Duplicate\" }}}}}";

static const char SCHEMA_2[] =
    "{\"type\":\"object\",\"properties\":{\"duplicateOfId\":{\"type\":\"number\","
    "\"description\":\"Work item ID of the original bug\"}},\"required\":[\"duplicateOfId\"]}";

static const char ROUND_2[] =
    "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"input_required\","
    "\"inputRequests\":{\"duplicate_of\":{\"method\":\"elicitation/create\",\"params\":{"
    "\"mode\":\"form\",\"message\":\"Since this is a duplicate, which work item is the "
    "original?\",\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"duplicateOfId\":{"
    "\"type\":\"number\",\"description\":\"Work item ID of the original bug\"}},\"required\":"
    "[\"duplicateOfId\"]}}}},\"requestState\":\"eyJyZXNvbHV0aW9uIjoiRHVwbGljYXRlIn0...\"}}";

static mrtr_status parse(const char *text, uint8_t **keep, mrtr_server_request *req,
                         mrtr_server_error *err) {
    size_t len = strlen(text);
    *keep = heap_copy(text, len);
    return mrtr_server_parse_request(*keep, len, 0, req, err);
}

/* Writes with `write` into exact-size buffers: size query, one byte short,
 * exact; returns the heap NUL-terminated text. */
#define WRITE_EXACT(call_with_out)                                             \
    do {                                                                       \
        size_t need_ = 0, n_ = 0;                                              \
        uint8_t *out_ = NULL;                                                  \
        size_t out_len_ = 0;                                                   \
        size_t *w_ = &need_;                                                   \
        CHECK_STATUS(call_with_out, MRTR_ERR_BUFFER_TOO_SMALL);               \
        out_ = (uint8_t *)ws_new(need_);                                       \
        out_len_ = need_ - 1;                                                  \
        w_ = &n_;                                                              \
        CHECK_STATUS(call_with_out, MRTR_ERR_BUFFER_TOO_SMALL);               \
        CHECK_EQ_SIZE(n_, need_);                                              \
        out_len_ = need_;                                                      \
        CHECK_STATUS(call_with_out, MRTR_OK);                                  \
        CHECK_EQ_SIZE(n_, need_);                                              \
        written = (char *)ws_new(n_ + 1);                                      \
        memcpy(written, out_, n_);                                             \
        written[n_] = '\0';                                                    \
        free(out_);                                                            \
    } while (0)

static void test_parse_a_retry_and_read_its_answer(void) {
    uint8_t *msg;
    mrtr_server_request req;
    mrtr_server_answer a;
    mrtr_answer_error e;
    char *written = NULL;
    CHECK_STATUS(parse(REQ_2, &msg, &req, NULL), MRTR_OK);
    CHECK(req.kind == MRTR_INCOMING_REQUEST);
    CHECK(req.method == MRTR_SERVER_METHOD_TOOLS_CALL);
    CHECK(req.id.kind == MRTR_ID_NUMBER && req.id.number == 2);
    CHECK(req.flags == (MRTR_REQUEST_HAS_META | MRTR_REQUEST_HAS_CAPS));
    CHECK(req.client_caps == MRTR_CAP_ELICITATION_FORM);
    CHECK_EQ_BYTES(req.name.ptr, req.name.len, "\"update_work_item\"");
    CHECK_EQ_BYTES(req.arguments.ptr, req.arguments.len, "{\"workItemId\": 4522}");
    CHECK_EQ_BYTES(req.client_name.ptr, req.client_name.len, "\"ExampleClient\"");
    CHECK_EQ_BYTES(req.client_version.ptr, req.client_version.len, "\"1.0.0\"");
    CHECK_EQ_SIZE(req.input_response_count, 1);
    CHECK(req.request_state.len == 0 && req.uri.len == 0 && req.task_id.len == 0);

    CHECK_STATUS(mrtr_server_input_response(req.input_responses, str_of("resolution"),
                                            MRTR_ANSWER_ELICIT, &a, NULL),
                 MRTR_OK);
    CHECK(a.kind == MRTR_ANSWER_ELICIT && a.action == MRTR_ELICIT_ACCEPT && !a.wrapped);
    CHECK_EQ_BYTES(a.content.ptr, a.content.len, "{ \"resolution\": \"Duplicate\" }");
    /* Classify without naming the kind. */
    CHECK_STATUS(mrtr_server_input_response(req.input_responses, str_of("resolution"),
                                            MRTR_ANSWER_NONE, &a, NULL),
                 MRTR_OK);
    CHECK(a.kind == MRTR_ANSWER_ELICIT);
    /* Absent: ask again. */
    CHECK_STATUS(mrtr_server_input_response(req.input_responses, str_of("duplicate_of"),
                                            MRTR_ANSWER_ELICIT, &a, NULL),
                 MRTR_OK);
    CHECK(a.kind == MRTR_ANSWER_NONE);
    /* The wrong kind is the client's fault: -32602 naming the key. */
    CHECK_STATUS(mrtr_server_input_response(req.input_responses, str_of("resolution"),
                                            MRTR_ANSWER_SAMPLING, &a, &e),
                 MRTR_ERR_PROTOCOL_VIOLATION);
    CHECK(e.error == MRTR_ANSWER_WRONG_KIND && e.expected == MRTR_ANSWER_SAMPLING &&
          e.found == MRTR_ANSWER_ELICIT);
    WRITE_EXACT(mrtr_server_write_answer_error(&req.id, str_of("resolution"), &e, out_,
                                               out_len_, w_));
    CHECK_EQ_TEXT(written, strlen(written),
                  "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32602,\"message\":"
                  "\"Invalid params: inputResponses[\\\"resolution\\\"] is not a sampling "
                  "result\"}}");
    free(written);
    free(msg);
}

static void test_answers_of_every_kind(void) {
    static const char map[] =
        "{\"w\":{\"result\":{\"action\":\"decline\"}},"
        "\"s\":{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"Paris\"},"
        "\"model\":\"m-1\",\"stopReason\":\"endTurn\"},"
        "\"r\":{\"roots\":[{\"uri\":\"file:///a\",\"name\":\"A\"},{\"uri\":\"file:///b\"}]},"
        "\"bad\":{\"action\":\"maybe\"},\"junk\":7}";
    mrtr_server_answer a;
    mrtr_answer_error e;
    mrtr_server_root r;
    mrtr_str m = heap_str(map);
    CHECK_STATUS(mrtr_server_input_response(m, str_of("w"), MRTR_ANSWER_ELICIT, &a, NULL),
                 MRTR_OK);
    CHECK(a.kind == MRTR_ANSWER_ELICIT && a.action == MRTR_ELICIT_DECLINE && a.wrapped);
    CHECK(a.content.len == 0);
    CHECK_STATUS(mrtr_server_input_response(m, str_of("s"), MRTR_ANSWER_NONE, &a, NULL),
                 MRTR_OK);
    CHECK(a.kind == MRTR_ANSWER_SAMPLING);
    CHECK_EQ_BYTES(a.role.ptr, a.role.len, "\"assistant\"");
    CHECK_EQ_BYTES(a.model.ptr, a.model.len, "\"m-1\"");
    CHECK_EQ_BYTES(a.stop_reason.ptr, a.stop_reason.len, "\"endTurn\"");
    CHECK_EQ_BYTES(a.text.ptr, a.text.len, "\"Paris\"");
    CHECK_STATUS(mrtr_server_input_response(m, str_of("r"), MRTR_ANSWER_ROOTS, &a, NULL),
                 MRTR_OK);
    CHECK(a.kind == MRTR_ANSWER_ROOTS && a.root_count == 2);
    CHECK_STATUS(mrtr_server_root_at(m, str_of("r"), 0, &r), MRTR_OK);
    CHECK_EQ_BYTES(r.uri.ptr, r.uri.len, "\"file:///a\"");
    CHECK_EQ_BYTES(r.name.ptr, r.name.len, "\"A\"");
    CHECK_STATUS(mrtr_server_root_at(m, str_of("r"), 1, &r), MRTR_OK);
    CHECK(r.name.len == 0);
    CHECK_STATUS(mrtr_server_root_at(m, str_of("r"), 2, &r), MRTR_ERR_NOT_FOUND);
    CHECK_STATUS(mrtr_server_root_at(m, str_of("nope"), 0, &r), MRTR_ERR_NOT_FOUND);
    /* Malformed entries are judged only when looked up. */
    CHECK_STATUS(mrtr_server_input_response(m, str_of("bad"), MRTR_ANSWER_ELICIT, &a, &e),
                 MRTR_ERR_PROTOCOL_VIOLATION);
    CHECK(e.error == MRTR_ANSWER_MALFORMED && e.expected == MRTR_ANSWER_ELICIT);
    CHECK_STATUS(mrtr_server_input_response(m, str_of("junk"), MRTR_ANSWER_ROOTS, &a, &e),
                 MRTR_ERR_PROTOCOL_VIOLATION);
    CHECK(e.error == MRTR_ANSWER_MALFORMED && e.expected == MRTR_ANSWER_ROOTS);
    CHECK_STATUS(mrtr_server_input_response(m, str_of("bad"), MRTR_ANSWER_NONE, &a, &e),
                 MRTR_ERR_PROTOCOL_VIOLATION);
    CHECK(e.expected == MRTR_ANSWER_NONE);
    CHECK_STATUS(mrtr_server_input_response(m, str_of("w"), 4, &a, &e), MRTR_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mrtr_server_input_response(str_of("{\"a\":1,\"a\":2}"), str_of("a"),
                                            MRTR_ANSWER_NONE, &a, &e),
                 MRTR_ERR_PROTOCOL_VIOLATION);
    CHECK_STATUS(mrtr_server_input_response(m, str_of("w"), MRTR_ANSWER_NONE, NULL, &e),
                 MRTR_ERR_NULL_POINTER);
    /* No inputResponses at all: nothing is there. */
    {
        mrtr_str none = {NULL, 0};
        CHECK_STATUS(mrtr_server_input_response(none, str_of("w"), MRTR_ANSWER_ELICIT, &a, NULL),
                     MRTR_OK);
        CHECK(a.kind == MRTR_ANSWER_NONE);
    }
    str_free(m);
}

static void test_parse_refusals_and_their_answers(void) {
    static const struct {
        const char *msg;
        mrtr_status status;
        int32_t code;
        const char *answer;
    } cases[] = {
        {"{\"jsonrpc\":\"2.0\",", MRTR_ERR_JSON, -32700,
         "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}"},
        {"{\"jsonrpc\":\"1.0\",\"id\":4,\"method\":\"tools/call\"}", MRTR_ERR_ENVELOPE, -32600,
         "{\"jsonrpc\":\"2.0\",\"id\":4,\"error\":{\"code\":-32600,\"message\":\"Invalid "
         "Request\"}}"},
        {"{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"tools/call\",\"params\":{\"name\":\"t\"}}",
         MRTR_ERR_PROTOCOL_VIOLATION, -32602,
         "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"error\":{\"code\":-32602,\"message\":\"Invalid "
         "params: missing _meta\"}}"},
        {"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"_meta\":{"
         "\"io.modelcontextprotocol/protocolVersion\":\"2025-11-25\"},\"name\":\"t\"}}",
         MRTR_ERR_UNSUPPORTED_VERSION, -32022,
         "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":-32022,\"message\":\"Unsupported "
         "protocol version\",\"data\":{\"requested\":\"2025-11-25\",\"supported\":"
         "[\"2026-07-28\"]}}}"},
        {"{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{" META_FORM
         ",\"name\":\"t\",\"requestState\":7}}",
         MRTR_ERR_PROTOCOL_VIOLATION, -32602,
         "{\"jsonrpc\":\"2.0\",\"id\":6,\"error\":{\"code\":-32602,\"message\":\"Invalid or "
         "expired requestState\"}}"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t *msg;
        mrtr_server_request req;
        mrtr_server_error err;
        char *written = NULL;
        size_t len = strlen(cases[i].msg);
        CHECK_STATUS(parse(cases[i].msg, &msg, &req, &err), cases[i].status);
        CHECK(err.code == cases[i].code);
        CHECK(err.reason != NULL && err.field != NULL);
        WRITE_EXACT(mrtr_server_write_request_error(msg, len, 0, out_, out_len_, w_));
        CHECK_EQ_TEXT(written, strlen(written), cases[i].answer);
        free(written);
        free(msg);
    }
    /* A message that parses has no error to write. */
    {
        uint8_t *msg;
        mrtr_server_request req;
        uint8_t out[256];
        size_t n = 0;
        CHECK_STATUS(parse(REQ_2, &msg, &req, NULL), MRTR_OK);
        CHECK_STATUS(mrtr_server_write_request_error(msg, strlen(REQ_2), 0, out, sizeof out, &n),
                     MRTR_ERR_WRONG_STATE);
        CHECK_STATUS(mrtr_server_parse_request(msg, strlen(REQ_2), 2, &req, NULL),
                     MRTR_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(mrtr_server_parse_request(msg, strlen(REQ_2), 0, NULL, NULL),
                     MRTR_ERR_NULL_POINTER);
        free(msg);
    }
    /* SEP-draft clients without _meta, when the server allows them. */
    {
        static const char sep[] =
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\"}}";
        mrtr_server_request req;
        CHECK_STATUS(mrtr_server_parse_request((const uint8_t *)sep, sizeof sep - 1,
                                               MRTR_SERVER_META_OPTIONAL, &req, NULL),
                     MRTR_OK);
        CHECK(req.flags == 0 && req.client_caps == 0);
    }
    /* Notifications and responses get no answer. */
    {
        static const char note[] = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\"}";
        static const char resp[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}";
        mrtr_server_request req;
        CHECK_STATUS(mrtr_server_parse_request((const uint8_t *)note, sizeof note - 1, 0, &req,
                                               NULL),
                     MRTR_OK);
        CHECK(req.kind == MRTR_INCOMING_NOTIFICATION);
        CHECK_EQ_BYTES(req.method_json.ptr, req.method_json.len, "\"notifications/cancelled\"");
        CHECK_STATUS(mrtr_server_parse_request((const uint8_t *)resp, sizeof resp - 1, 0, &req,
                                               NULL),
                     MRTR_OK);
        CHECK(req.kind == MRTR_INCOMING_RESPONSE);
    }
}

static mrtr_input_spec spec(uint32_t kind, const char *key) {
    mrtr_input_spec s;
    memset(&s, 0, sizeof s);
    s.kind = kind;
    s.key = str_of(key);
    return s;
}

static void test_input_required_is_exact_and_checked(void) {
    mrtr_input_required ir;
    mrtr_input_spec specs[3];
    mrtr_build_error be;
    char *written = NULL;
    uint8_t out[1024];
    size_t n = 0;
    memset(&ir, 0, sizeof ir);
    ir.id.kind = MRTR_ID_NUMBER;
    ir.id.number = 2;
    ir.method = MRTR_SERVER_METHOD_TOOLS_CALL;
    ir.client_caps = MRTR_CAP_ELICITATION_FORM;
    specs[0] = spec(MRTR_INPUT_ELICIT_FORM, "duplicate_of");
    specs[0].message = str_of("Since this is a duplicate, which work item is the original?");
    specs[0].requested_schema = str_of(SCHEMA_2);
    ir.inputs = specs;
    ir.input_count = 1;
    ir.request_state = str_of("eyJyZXNvbHV0aW9uIjoiRHVwbGljYXRlIn0...");
    WRITE_EXACT(mrtr_server_write_input_required(&ir, out_, out_len_, w_, NULL));
    CHECK_EQ_TEXT(written, strlen(written), ROUND_2);
    free(written);

    /* Sampling was not declared: refused, with what is missing. */
    specs[1] = spec(MRTR_INPUT_SAMPLING, "summary");
    specs[1].params = str_of("{\"messages\":[],\"maxTokens\":10}");
    ir.input_count = 2;
    memset(&be, 0, sizeof be);
    CHECK_STATUS(mrtr_server_write_input_required(&ir, out, sizeof out, &n, &be),
                 MRTR_ERR_UNDECLARED_CAPABILITY);
    CHECK_EQ_SIZE(be.index, 1);
    CHECK(be.missing_caps == MRTR_CAP_SAMPLING);
    CHECK_EQ_STR(be.reason, "MissingCapability");
    WRITE_EXACT(mrtr_server_write_missing_capability(&ir.id, be.missing_caps, out_, out_len_, w_));
    CHECK_EQ_TEXT(written, strlen(written),
                  "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32021,\"message\":\"Missing "
                  "required client capability\",\"data\":{\"requiredCapabilities\":{"
                  "\"sampling\":{}}}}}");
    free(written);
    /* Tools in sampling need sampling.tools. */
    ir.client_caps = MRTR_CAP_ELICITATION_FORM | MRTR_CAP_SAMPLING;
    specs[1].params = str_of("{\"messages\":[],\"maxTokens\":10,\"tools\":[{\"name\":\"x\","
                             "\"inputSchema\":{\"type\":\"object\"}}]}");
    CHECK_STATUS(mrtr_server_write_input_required(&ir, out, sizeof out, &n, &be),
                 MRTR_ERR_UNDECLARED_CAPABILITY);
    CHECK(be.missing_caps == MRTR_CAP_SAMPLING_TOOLS);
    /* Bad inputs. */
    specs[1] = spec(MRTR_INPUT_ELICIT_FORM, "duplicate_of");
    specs[1].message = str_of("again");
    specs[1].requested_schema = str_of(SCHEMA_2);
    CHECK_STATUS(mrtr_server_write_input_required(&ir, out, sizeof out, &n, &be),
                 MRTR_ERR_INVALID_VALUE);
    CHECK_EQ_STR(be.reason, "DuplicateKey");
    specs[1].key = str_of("");
    CHECK_STATUS(mrtr_server_write_input_required(&ir, out, sizeof out, &n, &be),
                 MRTR_ERR_INVALID_VALUE);
    CHECK_EQ_STR(be.reason, "EmptyKey");
    specs[1].key = str_of("k2");
    specs[1].requested_schema = str_of("{\"type\":\"string\"}");
    CHECK_STATUS(mrtr_server_write_input_required(&ir, out, sizeof out, &n, &be),
                 MRTR_ERR_INVALID_VALUE);
    CHECK_EQ_STR(be.reason, "InvalidSchema");
    ir.client_caps |= MRTR_CAP_ELICITATION_URL;
    specs[1] = spec(MRTR_INPUT_ELICIT_URL, "k2");
    specs[1].message = str_of("Open");
    specs[1].url = str_of("no scheme");
    CHECK_STATUS(mrtr_server_write_input_required(&ir, out, sizeof out, &n, &be),
                 MRTR_ERR_INVALID_VALUE);
    CHECK_EQ_STR(be.reason, "InvalidUrl");
    specs[1].kind = 9;
    CHECK_STATUS(mrtr_server_write_input_required(&ir, out, sizeof out, &n, &be),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_EQ_STR(be.reason, "UnknownKind");
    /* Methods that cannot carry input_required; nothing to say. */
    ir.input_count = 1;
    ir.method = MRTR_SERVER_METHOD_TASKS_GET;
    CHECK_STATUS(mrtr_server_write_input_required(&ir, out, sizeof out, &n, &be),
                 MRTR_ERR_WRONG_STATE);
    CHECK_EQ_STR(be.reason, "MRTR_ERR_WRONG_STATE");
    CHECK(be.index == (size_t)-1);
    /* MRTR_ERR_INVALID_ARGUMENT has several causes; the reason names each. */
    ir.method = MRTR_SERVER_METHOD_OTHER;
    CHECK_STATUS(mrtr_server_write_input_required(&ir, out, sizeof out, &n, &be),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_EQ_STR(be.reason, "UnknownMethod");
    ir.method = MRTR_SERVER_METHOD_TOOLS_CALL;
    ir.client_caps = 1u << 30;
    CHECK_STATUS(mrtr_server_write_input_required(&ir, out, sizeof out, &n, &be),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_EQ_STR(be.reason, "UnknownCapability");
    ir.client_caps = MRTR_CAP_ELICITATION_FORM | MRTR_CAP_SAMPLING | MRTR_CAP_ELICITATION_URL;
    ir.input_count = 0;
    ir.request_state.ptr = NULL;
    ir.request_state.len = 0;
    CHECK_STATUS(mrtr_server_write_input_required(&ir, out, sizeof out, &n, &be),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_EQ_STR(be.reason, "Empty");
    /* State only (load shedding), with a string id and a related task. */
    ir.request_state = str_of("s1");
    ir.related_task = str_of("t-1");
    ir.id.kind = MRTR_ID_STRING;
    ir.id.token = str_of("\"req-9\"");
    ir.method = MRTR_SERVER_METHOD_TASKS_RESULT;
    CHECK_STATUS(mrtr_server_write_input_required(&ir, out, sizeof out, &n, &be), MRTR_OK);
    CHECK_EQ_TEXT(out, n,
                  "{\"jsonrpc\":\"2.0\",\"id\":\"req-9\",\"result\":{\"resultType\":"
                  "\"input_required\",\"requestState\":\"s1\",\"_meta\":{"
                  "\"io.modelcontextprotocol/related-task\":{\"taskId\":\"t-1\"}}}}");
    ir.id.token = str_of("req-9");
    CHECK_STATUS(mrtr_server_write_input_required(&ir, out, sizeof out, &n, &be),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_EQ_STR(be.reason, "IdNotAJsonString");
    CHECK_STATUS(mrtr_server_write_input_required(NULL, out, sizeof out, &n, &be),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_server_write_input_required(&ir, out, sizeof out, NULL, &be),
                 MRTR_ERR_NULL_POINTER);
}

static void test_complete_and_error_writers(void) {
    mrtr_request_id id;
    char *written = NULL;
    uint8_t out[256];
    size_t n = 0;
    mrtr_str none = {NULL, 0};
    id.kind = MRTR_ID_NUMBER;
    id.number = 3;
    id.token = none;
    WRITE_EXACT(mrtr_server_write_complete(&id, str_of("{\"content\":[],\"isError\":false}"),
                                           out_, out_len_, w_));
    CHECK_EQ_TEXT(written, strlen(written),
                  "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"resultType\":\"complete\","
                  "\"content\":[],\"isError\":false}}");
    free(written);
    CHECK_STATUS(mrtr_server_write_complete(&id, str_of("\"content\":[]"), out, sizeof out, &n),
                 MRTR_OK);
    CHECK_EQ_TEXT(out, n,
                  "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"resultType\":\"complete\","
                  "\"content\":[]}}");
    CHECK_STATUS(mrtr_server_write_complete(&id, str_of("{\"resultType\":\"input_required\"}"),
                                            out, sizeof out, &n),
                 MRTR_ERR_INVALID_VALUE);
    CHECK_STATUS(mrtr_server_write_complete(&id, str_of("{\"a\":"), out, sizeof out, &n),
                 MRTR_ERR_JSON);
    CHECK_STATUS(mrtr_server_write_complete(NULL, str_of("{}"), out, sizeof out, &n),
                 MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_server_write_error(&id, -32601, str_of("Method \"x\" not found"),
                                         str_of("{\"m\":\"x\"}"), out, sizeof out, &n),
                 MRTR_OK);
    CHECK_EQ_TEXT(out, n,
                  "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32601,\"message\":"
                  "\"Method \\\"x\\\" not found\",\"data\":{\"m\":\"x\"}}}");
    CHECK_STATUS(mrtr_server_write_error(NULL, -32603, str_of("Internal error"), none, out,
                                         sizeof out, &n),
                 MRTR_OK);
    CHECK_EQ_TEXT(out, n,
                  "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32603,\"message\":\"Internal "
                  "error\"}}");
    CHECK_STATUS(mrtr_server_write_error(&id, 1, str_of("m"), str_of("{"), out, sizeof out, &n),
                 MRTR_ERR_JSON);
    WRITE_EXACT(mrtr_server_write_invalid_request_state(&id, out_, out_len_, w_));
    CHECK_EQ_TEXT(written, strlen(written),
                  "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32602,\"message\":\"Invalid "
                  "or expired requestState\"}}");
    free(written);
    CHECK_STATUS(mrtr_server_write_unsupported_version(&id, str_of("\"2025-06-18\""), out,
                                                       sizeof out, &n),
                 MRTR_OK);
    CHECK_EQ_TEXT(out, n,
                  "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32022,\"message\":"
                  "\"Unsupported protocol version\",\"data\":{\"requested\":\"2025-06-18\","
                  "\"supported\":[\"2026-07-28\"]}}}");
    CHECK_STATUS(mrtr_server_write_missing_capability(&id, 1u << 9, out, sizeof out, &n),
                 MRTR_ERR_INVALID_ARGUMENT);
    /* The output may not overlap an input. */
    memcpy(out, "{\"content\":[]}", 14);
    {
        mrtr_str r;
        r.ptr = (const char *)out;
        r.len = 14;
        CHECK_STATUS(mrtr_server_write_complete(&id, r, out, sizeof out, &n),
                     MRTR_ERR_INVALID_ARGUMENT);
    }
}

/* The client half and the server half, talking over bytes: the work item's
 * second round written by the server is what the client reads. */
static void test_client_and_server_over_bytes(void) {
    mrtr_call_config cfg;
    size_t len = 0, n = 0;
    void *ws;
    mrtr_call *call = NULL;
    uint8_t req_buf[2048], resp[2048];
    mrtr_server_request req;
    mrtr_server_answer a;
    mrtr_input_required ir;
    mrtr_input_spec specs[1];
    mrtr_event ev;
    mrtr_input in;
    memset(&cfg, 0, sizeof cfg);
    cfg.method = MRTR_METHOD_TOOLS_CALL;
    cfg.params = str_of("{\"name\":\"update_work_item\",\"arguments\":{\"workItemId\":4522}}");
    cfg.caps = MRTR_CAP_ELICITATION_FORM;
    CHECK_STATUS(mrtr_call_workspace_size(NULL, &len), MRTR_OK);
    ws = ws_new(len);
    CHECK_STATUS(mrtr_call_init(ws, len, &cfg, &call), MRTR_OK);
    CHECK_STATUS(mrtr_call_write_request(call, 1, req_buf, sizeof req_buf, &n), MRTR_OK);

    /* Server: leg 1 has no answers: ask. */
    CHECK_STATUS(mrtr_server_parse_request(req_buf, n, 0, &req, NULL), MRTR_OK);
    CHECK(req.client_caps == MRTR_CAP_ELICITATION_FORM);
    CHECK_STATUS(mrtr_server_input_response(req.input_responses, str_of("duplicate_of"),
                                            MRTR_ANSWER_ELICIT, &a, NULL),
                 MRTR_OK);
    CHECK(a.kind == MRTR_ANSWER_NONE);
    memset(&ir, 0, sizeof ir);
    ir.id = req.id;
    ir.method = (uint32_t)req.method;
    ir.client_caps = req.client_caps;
    specs[0] = spec(MRTR_INPUT_ELICIT_FORM, "duplicate_of");
    specs[0].message = str_of("Which item is the original?");
    specs[0].requested_schema = str_of(SCHEMA_2);
    ir.inputs = specs;
    ir.input_count = 1;
    ir.request_state = str_of("st-1");
    CHECK_STATUS(mrtr_server_write_input_required(&ir, resp, sizeof resp, &n, NULL), MRTR_OK);

    /* Client: reads it, answers, retries. */
    CHECK_STATUS(mrtr_call_feed(call, resp, n, &ev), MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_INPUT_REQUIRED);
    CHECK_STATUS(mrtr_call_input_at(call, 0, &in), MRTR_OK);
    CHECK_EQ_BYTES(in.message.ptr, in.message.len, "Which item is the original?");
    CHECK_STATUS(mrtr_call_answer_elicit(call, 0, MRTR_ELICIT_ACCEPT,
                                         str_of("{\"duplicateOfId\":4301}")),
                 MRTR_OK);
    CHECK_STATUS(mrtr_call_write_request(call, 2, req_buf, sizeof req_buf, &n), MRTR_OK);

    /* Server: leg 2 carries the answer and the state; done. */
    CHECK_STATUS(mrtr_server_parse_request(req_buf, n, 0, &req, NULL), MRTR_OK);
    CHECK_EQ_BYTES(req.request_state.ptr, req.request_state.len, "\"st-1\"");
    CHECK_STATUS(mrtr_server_input_response(req.input_responses, str_of("duplicate_of"),
                                            MRTR_ANSWER_ELICIT, &a, NULL),
                 MRTR_OK);
    CHECK(a.kind == MRTR_ANSWER_ELICIT && a.action == MRTR_ELICIT_ACCEPT);
    CHECK_EQ_BYTES(a.content.ptr, a.content.len, "{\"duplicateOfId\":4301}");
    CHECK_STATUS(mrtr_server_write_complete(&req.id, str_of("\"content\":[]"), resp, sizeof resp,
                                            &n),
                 MRTR_OK);
    CHECK_STATUS(mrtr_call_feed(call, resp, n, &ev), MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_COMPLETE);
    CHECK_EQ_BYTES(resp + ev.result.offset, ev.result.len,
                   "{\"resultType\":\"complete\",\"content\":[]}");
    free(ws);
}

static void test_param_headers_are_checked_against_the_body(void) {
    static const char schema[] =
        "{\"type\":\"object\",\"properties\":{"
        "\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"},"
        "\"priority\":{\"type\":\"integer\",\"x-mcp-header\":\"Priority\"}}}";
    mrtr_str sch = {schema, sizeof schema - 1};
    mrtr_param_header_error err;
    /* Names in any case, values trimmed, base64 decoded. */
    mrtr_http_header ok[] = {
        {{"Content-Type", 12}, {"application/json", 16}},
        {{"mcp-param-region", 16}, {" =?base64?SGVsbG8=?= ", 21}},
        {{"MCP-PARAM-PRIORITY", 18}, {"3", 1}},
    };
    static const char args[] = "{\"region\":\"Hello\",\"priority\":3}";
    mrtr_str a = {args, sizeof args - 1};
    CHECK_STATUS(mrtr_server_check_param_headers(sch, a, ok, 3, &err), MRTR_OK);
    /* Each refusal names the header and why. */
    struct {
        const char *args;
        mrtr_http_header h[2];
        size_t n;
        uint32_t reason;
        const char *header;
    } cases[] = {
        {"{\"region\":\"eu\"}", {{{0, 0}, {0, 0}}}, 0, MRTR_PARAM_HEADER_MISSING, "Region"},
        {"{\"region\":\"eu\"}", {{{"Mcp-Param-Region", 16}, {"us", 2}}}, 1,
         MRTR_PARAM_HEADER_MISMATCH, "Region"},
        {"{\"region\":\"Hello\"}", {{{"Mcp-Param-Region", 16}, {"=?base64?SGVsbG8?=", 18}}}, 1,
         MRTR_PARAM_HEADER_BAD_ENCODING, "Region"},
        {"{}", {{{"Mcp-Param-Priority", 18}, {"1", 1}}}, 1, MRTR_PARAM_HEADER_UNEXPECTED,
         "Priority"},
        {"{\"region\":\"eu\"}",
         {{{"Mcp-Param-Region", 16}, {"eu", 2}}, {{"mcp-param-region", 16}, {"eu", 2}}}, 2,
         MRTR_PARAM_HEADER_REPEATED, "Region"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mrtr_str ca = {cases[i].args, strlen(cases[i].args)};
        err.reason = 0;
        CHECK_STATUS(mrtr_server_check_param_headers(sch, ca, cases[i].n ? cases[i].h : NULL,
                                                     cases[i].n, &err),
                     MRTR_ERR_INVALID_VALUE);
        CHECK(err.reason == cases[i].reason);
        CHECK_EQ_TEXT(err.header.ptr, err.header.len, cases[i].header);
    }
    /* No arguments at all: no header needed; the error record is optional. */
    mrtr_str none = {NULL, 0};
    CHECK_STATUS(mrtr_server_check_param_headers(sch, none, NULL, 0, NULL), MRTR_OK);
    CHECK_STATUS(mrtr_server_check_param_headers(sch, str_of("[1]"), NULL, 0, NULL),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(
        mrtr_server_check_param_headers(
            str_of("{\"properties\":{\"a\":{\"type\":\"number\",\"x-mcp-header\":\"A\"}}}"), none,
            NULL, 0, NULL),
        MRTR_ERR_INVALID_SCHEMA);
    CHECK_STATUS(mrtr_server_check_param_headers(sch, a, NULL, 3, NULL), MRTR_ERR_NULL_POINTER);
}

/* issue 25, item 3: designations below the top level, reached through
 * `properties` alone, are mirrored and checked by their path; anywhere
 * else (or repeated) they make the tool unusable. */
static void test_nested_designations_are_mirrored_and_checked_by_path(void) {
    static const char schema[] =
        "{\"type\":\"object\",\"properties\":{\"target\":{\"type\":\"object\",\"properties\":{"
        "\"zone\":{\"type\":\"string\",\"x-mcp-header\":\"Zone\"}}}}}";
    static const char body[] =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\","
        "\"arguments\":{\"target\":{\"zone\":\"eu-1\"}}}}";
    mrtr_str sch = {schema, sizeof schema - 1};
    size_t count = 0, n = 0;
    mrtr_http_header h[MRTR_HTTP_MAX_HEADERS + 1];
    uint8_t buf[128];
    uint8_t *b = heap_copy(body, sizeof body - 1);
    mrtr_param_header_error err;
    CHECK_STATUS(mrtr_tool_header_check(sch, &count), MRTR_OK);
    CHECK_EQ_SIZE(count, 1);
    CHECK_STATUS(mrtr_http_headers_for_tool_call(b, sizeof body - 1, sch, buf, sizeof buf, &n, h,
                                                 MRTR_HTTP_MAX_HEADERS + 1, &count, NULL),
                 MRTR_OK);
    CHECK_EQ_SIZE(count, MRTR_HTTP_MAX_HEADERS + 1);
    CHECK_EQ_BYTES(h[count - 1].name.ptr, h[count - 1].name.len, "Mcp-Param-Zone");
    CHECK_EQ_BYTES(h[count - 1].value.ptr, h[count - 1].value.len, "eu-1");
    free(b);
    {
        mrtr_http_header sent[] = {{{"Mcp-Param-Zone", 14}, {"eu-2", 4}}};
        CHECK_STATUS(mrtr_server_check_param_headers(
                         sch, str_of("{\"target\":{\"zone\":\"eu-1\"}}"), sent, 1, &err),
                     MRTR_ERR_INVALID_VALUE);
        CHECK(err.reason == MRTR_PARAM_HEADER_MISMATCH);
        CHECK_EQ_TEXT(err.header.ptr, err.header.len, "Zone");
        /* A null intermediate object: the argument is absent. */
        CHECK_STATUS(mrtr_server_check_param_headers(sch, str_of("{\"target\":null}"), sent, 1,
                                                     &err),
                     MRTR_ERR_INVALID_VALUE);
        CHECK(err.reason == MRTR_PARAM_HEADER_UNEXPECTED);
        CHECK_STATUS(mrtr_server_check_param_headers(sch, str_of("{\"target\":null}"), NULL, 0,
                                                     &err),
                     MRTR_OK);
    }
    /* Under `items`, or with x-mcp-header twice: the tool is not usable. */
    CHECK_STATUS(mrtr_tool_header_check(
                     str_of("{\"properties\":{\"l\":{\"type\":\"array\",\"items\":{\"type\":"
                            "\"string\",\"x-mcp-header\":\"L\"}}}}"),
                     &count),
                 MRTR_ERR_INVALID_SCHEMA);
    CHECK_STATUS(mrtr_tool_header_check(
                     str_of("{\"properties\":{\"a\":{\"type\":\"string\",\"x-mcp-header\":\"A\","
                            "\"x-mcp-header\":\"B\"}}}"),
                     &count),
                 MRTR_ERR_INVALID_SCHEMA);
}

/* issue 25, item 4: a body with a repeated member means two things; both
 * halves refuse it. */
static void test_repeated_members_are_refused_on_both_sides(void) {
    static const char schema[] =
        "{\"properties\":{\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"}}}";
    static const char twice[] = "{\"region\":\"eu\",\"region\":\"us\"}";
    mrtr_http_header sent[] = {{{"Mcp-Param-Region", 16}, {"eu", 2}}};
    mrtr_param_header_error perr;
    uint8_t *msg;
    mrtr_server_request req;
    mrtr_server_error err;
    /* Server: the request is invalid params. */
    CHECK_STATUS(parse("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{" META_FORM
                       ",\"name\":\"t\",\"arguments\":{\"region\":\"eu\",\"region\":\"us\"}}}",
                       &msg, &req, &err),
                 MRTR_ERR_PROTOCOL_VIOLATION);
    CHECK(err.code == -32602);
    CHECK_EQ_STR(err.reason, "RepeatedMember");
    CHECK_EQ_STR(err.field, "params");
    free(msg);
    /* Server: the header check alone refuses it too. */
    CHECK_STATUS(mrtr_server_check_param_headers(str_of(schema), str_of(twice), sent, 1, &perr),
                 MRTR_ERR_INVALID_VALUE);
    CHECK(perr.reason == MRTR_PARAM_HEADER_REPEATED_MEMBER);
    CHECK_EQ_TEXT(perr.header.ptr, perr.header.len, "Region");
    /* Client: the call is not started. */
    {
        mrtr_call_limits l;
        mrtr_call_config cfg;
        size_t need = 0;
        void *ws;
        mrtr_call *call = NULL;
        mrtr_str params = heap_str("{\"name\":\"t\",\"arguments\":{\"region\":\"eu\",\"region\":\"us\"}}");
        CHECK_STATUS(mrtr_call_limits_default(&l), MRTR_OK);
        CHECK_STATUS(mrtr_call_workspace_size(&l, &need), MRTR_OK);
        ws = ws_new(need);
        memset(&cfg, 0, sizeof cfg);
        cfg.method = MRTR_METHOD_TOOLS_CALL;
        cfg.params = params;
        cfg.client_name = str_of("ExampleClient");
        cfg.client_version = str_of("1.0.0");
        cfg.limits = &l;
        CHECK_STATUS(mrtr_call_init(ws, need, &cfg, &call), MRTR_ERR_INVALID_ARGUMENT);
        CHECK(call == NULL);
        free(ws);
        str_free(params);
    }
}

/* issue 25, item 5: an integer designation takes safe integers only. */
static void test_integer_designations_take_safe_integers_only(void) {
    static const char schema[] =
        "{\"properties\":{\"n\":{\"type\":\"integer\",\"x-mcp-header\":\"N\"}}}";
    mrtr_str sch = {schema, sizeof schema - 1};
    mrtr_http_header h[MRTR_HTTP_MAX_HEADERS + 1];
    uint8_t buf[128];
    size_t n = 0, count = 0;
    mrtr_param_header_error err;
    struct {
        const char *body;
        mrtr_status status;
        const char *sent;
    } cases[] = {
        {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\","
         "\"arguments\":{\"n\":1e2}}}",
         MRTR_OK, "100"},
        {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\","
         "\"arguments\":{\"n\":1.5}}}",
         MRTR_ERR_INVALID_VALUE, NULL},
        {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\","
         "\"arguments\":{\"n\":9007199254740993}}}",
         MRTR_ERR_INVALID_VALUE, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len = strlen(cases[i].body);
        uint8_t *b = heap_copy(cases[i].body, len);
        CHECK_STATUS(mrtr_http_headers_for_tool_call(b, len, sch, buf, sizeof buf, &n, h,
                                                     MRTR_HTTP_MAX_HEADERS + 1, &count, NULL),
                     cases[i].status);
        if (cases[i].sent) {
            CHECK_EQ_TEXT(h[count - 1].value.ptr, h[count - 1].value.len, cases[i].sent);
        }
        free(b);
    }
    {
        mrtr_http_header sent[] = {{{"Mcp-Param-N", 11}, {"9007199254740993", 16}}};
        CHECK_STATUS(mrtr_server_check_param_headers(sch, str_of("{\"n\":9007199254740993}"),
                                                     sent, 1, &err),
                     MRTR_ERR_INVALID_VALUE);
        CHECK(err.reason == MRTR_PARAM_HEADER_MISMATCH);
    }
    {
        mrtr_http_header sent[] = {{{"Mcp-Param-N", 11}, {"100", 3}}};
        CHECK_STATUS(mrtr_server_check_param_headers(sch, str_of("{\"n\":1e2}"), sent, 1, &err),
                     MRTR_OK);
    }
}

void suite_server(void) {
    RUN(test_parse_a_retry_and_read_its_answer);
    RUN(test_answers_of_every_kind);
    RUN(test_parse_refusals_and_their_answers);
    RUN(test_input_required_is_exact_and_checked);
    RUN(test_complete_and_error_writers);
    RUN(test_client_and_server_over_bytes);
    RUN(test_param_headers_are_checked_against_the_body);
    RUN(test_nested_designations_are_mirrored_and_checked_by_path);
    RUN(test_repeated_members_are_refused_on_both_sides);
    RUN(test_integer_designations_take_safe_integers_only);
}
