/*
 * mrtr_call_*: the spec's flows end to end (every request compared byte for
 * byte, every buffer sized exactly and one byte short), the rules, and
 * misuse (each pointer NULL in turn, wrong states, workspaces one byte too
 * small, misaligned, copied or stale handles, arguments inside the
 * workspace).
 */
#include "testutil.h"

#define CLIENT_INFO                                                            \
    "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"ExampleClient\","     \
    "\"version\":\"1.0.0\"}"
#define META(caps)                                                             \
    "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","  \
    "\"io.modelcontextprotocol/clientCapabilities\":" caps "," CLIENT_INFO "}"
#define HEAD(id) "{\"jsonrpc\":\"2.0\",\"id\":" #id ",\"method\":\"tools/call\",\"params\":"

struct fixture {
    void *ws;
    size_t len;
    mrtr_call *call;
};

static mrtr_call_config config_of(uint32_t method, mrtr_str params, uint32_t caps,
                                  const mrtr_call_limits *limits) {
    mrtr_call_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.method = method;
    cfg.params = params;
    cfg.caps = caps;
    cfg.client_name = str_of("ExampleClient");
    cfg.client_version = str_of("1.0.0");
    cfg.limits = limits;
    return cfg;
}

/* Starts a call with the example client in an exact-size workspace. The
 * params live in a heap copy freed right after init (init copies them). */
static mrtr_status start(struct fixture *f, uint32_t method, const char *params, uint32_t caps,
                         const mrtr_call_limits *limits) {
    mrtr_str p = heap_str(params);
    mrtr_call_config cfg = config_of(method, p, caps, limits);
    mrtr_status s;
    f->len = 0;
    f->call = NULL;
    CHECK_STATUS(mrtr_call_workspace_size(limits, &f->len), MRTR_OK);
    f->ws = ws_new(f->len);
    s = mrtr_call_init(f->ws, f->len, &cfg, &f->call);
    str_free(p);
    return s;
}

static void stop(struct fixture *f) { free(f->ws); }

/* ---- the work item (MRTR spec): two rounds, the second with state ------- */

static const char WORK_ITEM_PARAMS[] =
    "{\"name\": \"update_work_item\", \"arguments\": {\"workItemId\": 4522, \"fields\": { "
    "\"System.State\": \"Resolved\" }}}";

#define WORK_ITEM_P                                                            \
    "{" META("{\"elicitation\":{\"form\":{}}}") ",\"name\":\"update_work_item\","  \
    "\"arguments\":{\"workItemId\": 4522, \"fields\": { \"System.State\": \"Resolved\" }}"

static const char WORK_ITEM_REQ_1[] = HEAD(1) WORK_ITEM_P "}}";
static const char WORK_ITEM_REQ_2[] =
    HEAD(2) WORK_ITEM_P ",\"inputResponses\":{\"resolution\":{\"action\":\"accept\","
    "\"content\":{ \"resolution\": \"Duplicate\" }}}}}";
static const char WORK_ITEM_REQ_3[] =
    HEAD(3) WORK_ITEM_P ",\"inputResponses\":{\"duplicate_of\":{\"action\":\"accept\","
    "\"content\":{\"duplicateOfId\":4301}}},\"requestState\":"
    "\"eyJyZXNvbHV0aW9uIjoiRHVwbGljYXRlIn0...\"}}";

static const char WORK_ITEM_ROUND_1[] =
    "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"result\": {\n"
    "    \"resultType\": \"input_required\",\n    \"inputRequests\": {\n"
    "      \"resolution\": {\n        \"method\": \"elicitation/create\",\n"
    "        \"params\": {\n          \"message\": \"Resolving Bug #4522 requires a "
    "resolution. How was this bug resolved?\",\n"
    "          \"requestedSchema\": {\n            \"type\": \"object\",\n"
    "            \"properties\": {\n              \"resolution\": {\n"
    "                \"type\": \"string\",\n"
    "                \"enum\": [\"Fixed\", \"Won't Fix\", \"Duplicate\", \"By Design\"],\n"
    "                \"description\": \"Resolution type for this bug\"\n"
    "              }\n            },\n            \"required\": [\"resolution\"]\n"
    "          }\n        }\n      }\n    }\n  }\n}";

static const char WORK_ITEM_ROUND_2[] =
    "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 2,\n  \"result\": {\n"
    "    \"resultType\": \"input_required\",\n    \"inputRequests\": {\n"
    "      \"duplicate_of\": {\n        \"method\": \"elicitation/create\",\n"
    "        \"params\": {\n          \"message\": \"Since this is a duplicate, which "
    "work item is the original?\",\n"
    "          \"requestedSchema\": {\n            \"type\": \"object\",\n"
    "            \"properties\": {\n              \"duplicateOfId\": {\n"
    "                \"type\": \"number\",\n"
    "                \"description\": \"Work item ID of the original bug\"\n"
    "              }\n            },\n            \"required\": [\"duplicateOfId\"]\n"
    "          }\n        }\n      }\n    },\n"
    "    \"requestState\": \"eyJyZXNvbHV0aW9uIjoiRHVwbGljYXRlIn0...\"\n  }\n}";

static const char WORK_ITEM_DONE[] =
    "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 3,\n  \"result\": {\n    \"content\": [\n"
    "      {\n        \"type\": \"text\",\n        \"text\": \"Bug #4522 resolved as "
    "Duplicate of Bug #4301. State set to Resolved and duplicate link created.\"\n"
    "      }\n    ],\n    \"isError\": false\n  }\n}";

static void test_work_item_takes_two_rounds_and_echoes_request_state(void) {
    struct fixture f;
    mrtr_event ev;
    mrtr_input in;
    mrtr_str result;
    uint8_t *done;
    size_t count = 99, fields = 0;
    uint32_t round = 99;
    mrtr_form_option opt;
    mrtr_form_error ferr;

    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, WORK_ITEM_PARAMS, MRTR_CAP_ELICITATION_FORM,
                       NULL),
                 MRTR_OK);
    CHECK(phase(f.call) == MRTR_PHASE_READY);
    check_leg(f.call, 1, WORK_ITEM_REQ_1);
    CHECK(phase(f.call) == MRTR_PHASE_SENT);

    CHECK_STATUS(feed(f.call, WORK_ITEM_ROUND_1, &ev, NULL), MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_INPUT_REQUIRED);
    CHECK_EQ_SIZE(ev.input_count, 1);
    CHECK(phase(f.call) == MRTR_PHASE_ANSWERING);
    count = progress(f.call).input_count;
    CHECK_EQ_SIZE(count, 1);
    CHECK_STATUS(mrtr_call_input_at(f.call, 0, &in), MRTR_OK);
    CHECK(in.kind == MRTR_INPUT_ELICIT_FORM);
    CHECK_EQ_BYTES(in.key.ptr, in.key.len, "resolution");
    CHECK_EQ_BYTES(in.message.ptr, in.message.len,
                   "Resolving Bug #4522 requires a resolution. How was this bug resolved?");
    CHECK(in.escaped == 0);
    CHECK(!in.answered);
    CHECK(in.url.len == 0 && in.params.len == 0);
    /* The schema view feeds the form helpers directly. */
    CHECK_STATUS(mrtr_form_parse(in.requested_schema, &fields, NULL), MRTR_OK);
    CHECK_EQ_SIZE(fields, 1);
    CHECK_STATUS(mrtr_form_option_at(in.requested_schema, 0, 1, &opt), MRTR_OK);
    CHECK_EQ_BYTES(opt.value.ptr, opt.value.len, "Won't Fix");
    CHECK_STATUS(mrtr_form_validate(in.requested_schema, str_of("{\"resolution\":\"Maybe\"}"),
                                    &ferr),
                 MRTR_ERR_INVALID_VALUE);
    CHECK(ferr.error == MRTR_FIELD_ERROR_NOT_AN_OPTION);
    CHECK_EQ_BYTES(ferr.field.ptr, ferr.field.len, "resolution");
    CHECK_STATUS(mrtr_form_validate(in.requested_schema,
                                    str_of("{ \"resolution\": \"Duplicate\" }"), NULL),
                 MRTR_OK);
    /* No retry before every input is answered. */
    {
        uint8_t out[8];
        size_t n = 4242;
        CHECK_STATUS(mrtr_call_write_request(f.call, 2, out, sizeof out, &n),
                     MRTR_ERR_UNANSWERED_INPUT);
        CHECK_EQ_SIZE(n, 4242);
    }
    {
        mrtr_str content = heap_str("{ \"resolution\": \"Duplicate\" }");
        CHECK_STATUS(mrtr_call_answer_elicit(f.call, 0, MRTR_ELICIT_ACCEPT, content), MRTR_OK);
        str_free(content);
    }
    CHECK(phase(f.call) == MRTR_PHASE_READY);
    CHECK_STATUS(mrtr_call_input_at(f.call, 0, &in), MRTR_OK);
    CHECK(in.answered);
    check_leg(f.call, 2, WORK_ITEM_REQ_2);

    CHECK_STATUS(feed(f.call, WORK_ITEM_ROUND_2, &ev, NULL), MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_INPUT_REQUIRED);
    round = progress(f.call).round;
    CHECK(round == 2);
    CHECK_STATUS(mrtr_call_input_at(f.call, 0, &in), MRTR_OK);
    CHECK_EQ_BYTES(in.key.ptr, in.key.len, "duplicate_of");
    {
        size_t idx = 99;
        mrtr_str key = heap_str("duplicate_of");
        CHECK_STATUS(mrtr_call_input_find(f.call, key, &idx), MRTR_OK);
        CHECK_EQ_SIZE(idx, 0);
        str_free(key);
        CHECK_STATUS(mrtr_call_input_find(f.call, str_of("resolution"), &idx),
                     MRTR_ERR_NOT_FOUND);
    }
    CHECK_STATUS(mrtr_call_answer_elicit(f.call, 0, MRTR_ELICIT_ACCEPT,
                                         str_of("{\"duplicateOfId\":4301}")),
                 MRTR_OK);
    check_leg(f.call, 3, WORK_ITEM_REQ_3);

    CHECK_STATUS(feed(f.call, WORK_ITEM_DONE, &ev, &done), MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_COMPLETE);
    CHECK(phase(f.call) == MRTR_PHASE_DONE);
    CHECK_EQ_SIZE(ev.result.offset, 45);
    CHECK_EQ_SIZE(ev.result.len, sizeof WORK_ITEM_DONE - 1 - 45 - 2);
    CHECK(done[ev.result.offset] == '{');
    CHECK_STATUS(mrtr_call_result(f.call, done, sizeof WORK_ITEM_DONE - 1, &result), MRTR_OK);
    CHECK((const uint8_t *)result.ptr == done + ev.result.offset);
    CHECK_EQ_SIZE(result.len, ev.result.len);
    /* Other bytes are not the completing message. */
    CHECK_STATUS(mrtr_call_result(f.call, done, 10, &result), MRTR_ERR_INVALID_ARGUMENT);
    free(done);
    /* Done: nothing more to write. */
    {
        uint8_t out[8];
        size_t n = 0;
        CHECK_STATUS(mrtr_call_write_request(f.call, 4, out, sizeof out, &n),
                     MRTR_ERR_WRONG_STATE);
    }
    stop(&f);
}

/* ---- GitHub login + capital of France: one round, two kinds ------------ */

static const char SPEC_INPUT_REQUIRED[] =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\","
    "\"inputRequests\":{\"github_login\":{\"method\":\"elicitation/create\",\"params\":{"
    "\"mode\":\"form\",\"message\":\"Please provide your GitHub username\","
    "\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}},"
    "\"required\":[\"name\"]}}},\"capital_of_france\":{\"method\":\"sampling/createMessage\","
    "\"params\":{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\","
    "\"text\":\"What is the capital of France?\"}}],\"modelPreferences\":{\"hints\":[{\"name\":"
    "\"claude-3-sonnet\"}],\"intelligencePriority\":0.8,\"speedPriority\":0.5},"
    "\"systemPrompt\":\"You are a helpful assistant.\",\"maxTokens\":100}}},"
    "\"requestState\":\"AEAD-protected blob\"}}";

static const char SAMPLING_ANSWER[] =
    "{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"The capital of France "
    "is Paris.\"},\"model\":\"claude-3-sonnet-20240307\",\"stopReason\":\"endTurn\"}";

#define GH_P                                                                   \
    "{" META("{\"elicitation\":{\"form\":{}},\"sampling\":{}}")                   \
    ",\"name\":\"get_weather\",\"arguments\":{\"location\":\"New York\"}"

static void test_github_login_and_capital_of_france_in_one_round(void) {
    struct fixture f;
    mrtr_event ev;
    mrtr_input in;
    uint8_t *done;
    mrtr_str result;
    static const char done_msg[] =
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"complete\",\"content\":"
        "[{\"type\":\"text\",\"text\":\"Current weather in New York:\\nTemperature: 72\xc2\xb0"
        "F\"}],\"isError\":false}}";

    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL,
                       "{\"name\":\"get_weather\",\"arguments\":{\"location\":\"New York\"}}",
                       MRTR_CAP_ELICITATION_FORM | MRTR_CAP_SAMPLING, NULL),
                 MRTR_OK);
    check_leg(f.call, 1, HEAD(1) GH_P "}}");
    CHECK_STATUS(feed(f.call, SPEC_INPUT_REQUIRED, &ev, NULL), MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_INPUT_REQUIRED);
    CHECK_EQ_SIZE(ev.input_count, 2);

    CHECK_STATUS(mrtr_call_input_at(f.call, 0, &in), MRTR_OK);
    CHECK(in.kind == MRTR_INPUT_ELICIT_FORM);
    CHECK_EQ_BYTES(in.key.ptr, in.key.len, "github_login");
    CHECK_EQ_BYTES(in.message.ptr, in.message.len, "Please provide your GitHub username");
    CHECK_EQ_BYTES(in.requested_schema.ptr, in.requested_schema.len,
                   "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}},"
                   "\"required\":[\"name\"]}");

    CHECK_STATUS(mrtr_call_input_at(f.call, 1, &in), MRTR_OK);
    CHECK(in.kind == MRTR_INPUT_SAMPLING);
    CHECK_EQ_BYTES(in.key.ptr, in.key.len, "capital_of_france");
    CHECK(in.max_tokens == 100);
    CHECK(in.has_system_prompt && !in.has_tools && !in.wants_context);
    CHECK_EQ_BYTES(in.system_prompt.ptr, in.system_prompt.len, "You are a helpful assistant.");
    CHECK(in.params.len > 0 && in.params.ptr[0] == '{' && in.params.ptr[in.params.len - 1] == '}');
    CHECK(in.message.len == 0 && in.requested_schema.len == 0);
    CHECK_STATUS(mrtr_call_input_at(f.call, 2, &in), MRTR_ERR_NOT_FOUND);

    /* Kinds must match: a sampling answer for the form is refused. */
    CHECK_STATUS(mrtr_call_answer_json(f.call, 0, str_of(SAMPLING_ANSWER)),
                 MRTR_ERR_INVALID_VALUE);
    CHECK_STATUS(mrtr_call_answer_elicit(f.call, 1, MRTR_ELICIT_DECLINE, str_of("")),
                 MRTR_ERR_INVALID_VALUE);
    /* The SEP draft's wrapping is refused: clients send the bare result. */
    CHECK_STATUS(mrtr_call_answer_json(f.call, 0,
                                       str_of("{\"result\":{\"action\":\"decline\"}}")),
                 MRTR_ERR_INVALID_VALUE);
    /* A form accept needs content; content must be JSON. */
    CHECK_STATUS(mrtr_call_answer_elicit(f.call, 0, MRTR_ELICIT_ACCEPT, str_of("")),
                 MRTR_ERR_INVALID_VALUE);
    CHECK_STATUS(mrtr_call_answer_elicit(f.call, 0, MRTR_ELICIT_ACCEPT, str_of("{\"name\":")),
                 MRTR_ERR_JSON);
    CHECK_STATUS(mrtr_call_answer_elicit(f.call, 0, 0, str_of("")), MRTR_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mrtr_call_answer_elicit(f.call, 0, 4, str_of("")), MRTR_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mrtr_call_answer_elicit(f.call, 2, MRTR_ELICIT_DECLINE, str_of("")),
                 MRTR_ERR_NOT_FOUND);

    CHECK_STATUS(mrtr_call_answer_elicit(f.call, 0, MRTR_ELICIT_ACCEPT,
                                         str_of("{\"name\":\"octocat\"}")),
                 MRTR_OK);
    CHECK_STATUS(mrtr_call_answer_elicit(f.call, 0, MRTR_ELICIT_DECLINE, str_of("")),
                 MRTR_ERR_WRONG_STATE);
    CHECK(phase(f.call) == MRTR_PHASE_ANSWERING);
    /* A sampling result the server half refuses (role twice, a role the
     * schema does not allow) is refused here too (issue 16). */
    CHECK_STATUS(mrtr_call_answer_json(
                     f.call, 1,
                     str_of("{\"role\":\"assistant\",\"role\":\"user\",\"content\":{\"type\":"
                            "\"text\",\"text\":\"x\"},\"model\":\"m\"}")),
                 MRTR_ERR_INVALID_VALUE);
    CHECK_STATUS(mrtr_call_answer_json(
                     f.call, 1,
                     str_of("{\"role\":\"system\",\"content\":{\"type\":\"text\",\"text\":"
                            "\"x\"},\"model\":\"m\"}")),
                 MRTR_ERR_INVALID_VALUE);
    {
        mrtr_str a = heap_str(SAMPLING_ANSWER);
        CHECK_STATUS(mrtr_call_answer_json(f.call, 1, a), MRTR_OK);
        str_free(a);
    }
    CHECK(phase(f.call) == MRTR_PHASE_READY);
    check_leg(f.call, 2,
              HEAD(2) GH_P ",\"inputResponses\":{\"github_login\":{\"action\":\"accept\","
                           "\"content\":{\"name\":\"octocat\"}},\"capital_of_france\":{\"role\":"
                           "\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"The capital "
                           "of France is Paris.\"},\"model\":\"claude-3-sonnet-20240307\","
                           "\"stopReason\":\"endTurn\"}},\"requestState\":\"AEAD-protected "
                           "blob\"}}");
    CHECK_STATUS(feed(f.call, done_msg, &ev, &done), MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_COMPLETE);
    CHECK_EQ_SIZE(ev.result.offset, 33);
    CHECK_EQ_SIZE(ev.result.len, sizeof done_msg - 1 - 34);
    CHECK_STATUS(mrtr_call_result(f.call, done, sizeof done_msg - 1, &result), MRTR_OK);
    CHECK_EQ_TEXT(result.ptr, result.len,
                  "{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":"
                  "\"Current weather in New York:\\nTemperature: 72\xc2\xb0"
                  "F\"}],\"isError\":false}");
    free(done);
    stop(&f);
}

/* ---- load shedding: state-only rounds with a doubling backoff ---------- */

#define SHED_P "{" META("{}") ",\"name\":\"crunch\""

static void test_load_shedding_retries_with_state_only_and_backoff(void) {
    struct fixture f;
    mrtr_event ev;
    mrtr_failure fail;
    uint32_t round = 0;
    size_t count = 9;
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"crunch\"}", 0, NULL), MRTR_OK);
    check_leg(f.call, 1, HEAD(1) SHED_P "}}");
    CHECK_STATUS(feed(f.call,
                      "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\","
                      "\"requestState\":\"s1\"}}",
                      &ev, NULL),
                 MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_RETRY_AFTER);
    CHECK(ev.wait_ms == 50);
    CHECK(phase(f.call) == MRTR_PHASE_READY);
    count = progress(f.call).input_count;
    CHECK_EQ_SIZE(count, 0);
    check_leg(f.call, 2, HEAD(2) SHED_P ",\"requestState\":\"s1\"}}");
    CHECK_STATUS(feed(f.call,
                      "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"input_required\","
                      "\"requestState\":\"s2\"}}",
                      &ev, NULL),
                 MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_RETRY_AFTER && ev.wait_ms == 100);
    check_leg(f.call, 3, HEAD(3) SHED_P ",\"requestState\":\"s2\"}}");
    CHECK_STATUS(feed(f.call,
                      "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"resultType\":\"input_required\","
                      "\"requestState\":\"s3\"}}",
                      &ev, NULL),
                 MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_RETRY_AFTER && ev.wait_ms == 200);
    check_leg(f.call, 4, HEAD(4) SHED_P ",\"requestState\":\"s3\"}}");
    /* A fourth state-only round exceeds the default cap of 3. */
    CHECK_STATUS(mrtr_call_failure(f.call, &fail), MRTR_ERR_WRONG_STATE);
    CHECK_STATUS(feed(f.call,
                      "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"resultType\":\"input_required\","
                      "\"requestState\":\"s4\"}}",
                      &ev, NULL),
                 MRTR_ERR_ROUND_CAP);
    CHECK(phase(f.call) == MRTR_PHASE_FAILED);
    CHECK_STATUS(mrtr_call_failure(f.call, &fail), MRTR_OK);
    CHECK(fail.status == MRTR_ERR_ROUND_CAP);
    CHECK(fail.kind == MRTR_FAILURE_TOO_MANY_STATE_ONLY_ROUNDS);
    CHECK(fail.limit == 3);
    CHECK_EQ_STR(fail.reason, "TooManyStateOnlyRounds");
    round = progress(f.call).round;
    CHECK(round == 4);
    stop(&f);

    /* Three state-only rounds, then the answer: complete. */
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"crunch\"}", 0, NULL), MRTR_OK);
    free(leg(f.call, 1));
    CHECK_STATUS(feed(f.call,
                      "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\","
                      "\"requestState\":\"s1\"}}",
                      &ev, NULL),
                 MRTR_OK);
    free(leg(f.call, 2));
    CHECK_STATUS(feed(f.call,
                      "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"complete\","
                      "\"content\":[{\"type\":\"text\",\"text\":\"42\"}]}}",
                      &ev, NULL),
                 MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_COMPLETE);
    stop(&f);
}

/* ---- rules ------------------------------------------------------------- */

static void test_request_state_is_echoed_byte_for_byte(void) {
    struct fixture f;
    mrtr_event ev;
    CHECK_STATUS(start(&f, MRTR_METHOD_PROMPTS_GET, "{\"name\":\"t\"}", 0, NULL), MRTR_OK);
    check_leg(f.call, 1,
              "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/get\",\"params\":{" META(
                  "{}") ",\"name\":\"t\"}}");
    CHECK_STATUS(feed(f.call,
                      "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\","
                      "\"requestState\":\"a\\/b\\u00e9\"}}",
                      &ev, NULL),
                 MRTR_OK);
    check_leg(f.call, 2,
              "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"prompts/get\",\"params\":{" META(
                  "{}") ",\"name\":\"t\",\"requestState\":\"a\\/b\\u00e9\"}}");
    stop(&f);
}

static void test_escaped_keys_and_messages_decode_on_request(void) {
    struct fixture f;
    mrtr_event ev;
    mrtr_input in;
    size_t n = 0, idx = 9;
    char text[64];
    CHECK_STATUS(start(&f, MRTR_METHOD_RESOURCES_READ, "{\"uri\":\"file:///a\"}",
                       MRTR_CAP_ELICITATION_URL, NULL),
                 MRTR_OK);
    free(leg(f.call, 1));
    CHECK_STATUS(
        feed(f.call,
             "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\","
             "\"inputRequests\":{\"k\\u00e9y\":{\"method\":\"elicitation/create\",\"params\":{"
             "\"mode\":\"url\",\"message\":\"Open\\nthis\",\"url\":\"https://x.example/p\"}}}}}",
             &ev, NULL),
        MRTR_OK);
    CHECK_STATUS(mrtr_call_input_at(f.call, 0, &in), MRTR_OK);
    CHECK(in.kind == MRTR_INPUT_ELICIT_URL);
    CHECK(in.escaped == (MRTR_TEXT_KEY | MRTR_TEXT_MESSAGE));
    CHECK_EQ_BYTES(in.key.ptr, in.key.len, "k\\u00e9y");
    CHECK_EQ_BYTES(in.url.ptr, in.url.len, "https://x.example/p");
    /* Decoded: exact size, one byte short, size query. */
    CHECK_STATUS(mrtr_call_input_text(f.call, 0, MRTR_TEXT_KEY, NULL, 0, &n),
                 MRTR_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_SIZE(n, 4);
    CHECK_STATUS(mrtr_call_input_text(f.call, 0, MRTR_TEXT_KEY, (uint8_t *)text, 3, &n),
                 MRTR_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_SIZE(n, 4);
    CHECK_STATUS(mrtr_call_input_text(f.call, 0, MRTR_TEXT_KEY, (uint8_t *)text, 4, &n),
                 MRTR_OK);
    CHECK_EQ_BYTES(text, n, "k\xc3\xa9y");
    CHECK_STATUS(
        mrtr_call_input_text(f.call, 0, MRTR_TEXT_MESSAGE, (uint8_t *)text, sizeof text, &n),
        MRTR_OK);
    CHECK_EQ_BYTES(text, n, "Open\nthis");
    CHECK_STATUS(mrtr_call_input_text(f.call, 0, MRTR_TEXT_URL, (uint8_t *)text, sizeof text, &n),
                 MRTR_OK);
    CHECK_EQ_BYTES(text, n, "https://x.example/p");
    CHECK_STATUS(mrtr_call_input_text(f.call, 0, MRTR_TEXT_SYSTEM_PROMPT, (uint8_t *)text,
                                      sizeof text, &n),
                 MRTR_ERR_NOT_FOUND);
    CHECK_STATUS(mrtr_call_input_text(f.call, 0, 3, (uint8_t *)text, sizeof text, &n),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mrtr_call_input_text(f.call, 1, MRTR_TEXT_KEY, (uint8_t *)text, sizeof text, &n),
                 MRTR_ERR_NOT_FOUND);
    /* Keys are found by their decoded text. */
    CHECK_STATUS(mrtr_call_input_find(f.call, str_of("k\xc3\xa9y"), &idx), MRTR_OK);
    CHECK_EQ_SIZE(idx, 0);
    /* URL mode: accept carries no content. */
    CHECK_STATUS(mrtr_call_answer_elicit(f.call, 0, MRTR_ELICIT_ACCEPT, str_of("{}")),
                 MRTR_ERR_INVALID_VALUE);
    CHECK_STATUS(mrtr_call_answer_elicit(f.call, 0, MRTR_ELICIT_ACCEPT, str_of("")), MRTR_OK);
    check_leg(f.call, 2,
              "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":{" META(
                  "{\"elicitation\":{\"url\":{}}}") ",\"uri\":\"file:///a\","
                                                    "\"inputResponses\":{\"k\\u00e9y\":{"
                                                    "\"action\":\"accept\"}}}}");
    stop(&f);
}

static void test_rpc_errors_are_events_with_spans(void) {
    struct fixture f;
    mrtr_event ev;
    uint8_t *msg;
    char text[64];
    size_t n = 0;
    static const char err[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,"
                              "\"message\":\"Bad \\\"x\\\"\",\"data\":{\"k\":[1]}}}";
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", 0, NULL), MRTR_OK);
    free(leg(f.call, 1));
    CHECK_STATUS(feed(f.call, err, &ev, &msg), MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_RPC_ERROR);
    CHECK(ev.error_code == -32602);
    CHECK_EQ_BYTES(msg + ev.error_message.offset, ev.error_message.len, "\"Bad \\\"x\\\"\"");
    CHECK_EQ_BYTES(msg + ev.error_data.offset, ev.error_data.len, "{\"k\":[1]}");
    CHECK_STATUS(mrtr_json_decode_string(msg + ev.error_message.offset, ev.error_message.len,
                                         (uint8_t *)text, sizeof text, &n),
                 MRTR_OK);
    CHECK_EQ_BYTES(text, n, "Bad \"x\"");
    CHECK(ev.result.len == 0 && ev.task_id.len == 0);
    CHECK(phase(f.call) == MRTR_PHASE_DONE);
    free(msg);
    stop(&f);
}

static void test_unrelated_messages_change_nothing(void) {
    struct fixture f;
    mrtr_event ev;
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", 0, NULL), MRTR_OK);
    free(leg(f.call, 5));
    CHECK_STATUS(feed(f.call,
                      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}",
                      &ev, NULL),
                 MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_UNRELATED);
    CHECK_STATUS(feed(f.call, "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}", &ev, NULL),
                 MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_UNRELATED);
    CHECK(phase(f.call) == MRTR_PHASE_SENT);
    CHECK_STATUS(feed(f.call, "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}", &ev, NULL),
                 MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_COMPLETE);
    stop(&f);
}

static void test_an_undeclared_kind_is_a_protocol_violation(void) {
    struct fixture f;
    mrtr_event ev;
    mrtr_failure fail;
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", MRTR_CAP_ELICITATION_FORM,
                       NULL),
                 MRTR_OK);
    free(leg(f.call, 1));
    CHECK_STATUS(feed(f.call,
                      "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\","
                      "\"inputRequests\":{\"r\":{\"method\":\"roots/list\"}}}}",
                      &ev, NULL),
                 MRTR_ERR_UNDECLARED_CAPABILITY);
    CHECK(phase(f.call) == MRTR_PHASE_FAILED);
    CHECK_STATUS(mrtr_call_failure(f.call, &fail), MRTR_OK);
    CHECK(fail.kind == MRTR_FAILURE_PROTOCOL);
    CHECK(fail.status == MRTR_ERR_UNDECLARED_CAPABILITY);
    CHECK_EQ_STR(fail.reason, "UndeclaredCapability");
    /* A failed call accepts nothing more. */
    CHECK_STATUS(feed(f.call, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", &ev, NULL),
                 MRTR_ERR_WRONG_STATE);
    stop(&f);

    /* Garbage on the connection is a transport failure with an offset. */
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", 0, NULL), MRTR_OK);
    free(leg(f.call, 1));
    CHECK_STATUS(feed(f.call, "{\"jsonrpc\":\"2.0\",\"id\":1,]", &ev, NULL), MRTR_ERR_JSON);
    CHECK_STATUS(mrtr_call_failure(f.call, &fail), MRTR_OK);
    CHECK(fail.kind == MRTR_FAILURE_JSON);
    CHECK_EQ_SIZE(fail.offset, 24);
    CHECK_EQ_STR(fail.reason, "UnexpectedByte");
    stop(&f);
}

static void test_roots_answers_are_checked_and_exact(void) {
    struct fixture f;
    mrtr_event ev;
    mrtr_root roots[2];
    mrtr_root many[MRTR_MAX_ROOTS + 1];
    size_t i;
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", MRTR_CAP_ROOTS, NULL),
                 MRTR_OK);
    free(leg(f.call, 1));
    CHECK_STATUS(feed(f.call,
                      "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\","
                      "\"inputRequests\":{\"r\":{\"method\":\"roots/list\"}}}}",
                      &ev, NULL),
                 MRTR_OK);
    roots[0].uri = str_of("file:///home/u/project");
    roots[0].name = str_of("Project \"A\"");
    roots[1].uri = str_of("file:///tmp/");
    roots[1].name.ptr = NULL;
    roots[1].name.len = 0;
    for (i = 0; i < sizeof many / sizeof many[0]; i++) {
        many[i] = roots[1];
    }
    CHECK_STATUS(mrtr_call_answer_roots(f.call, 0, NULL, 1), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_answer_roots(f.call, 0, many, MRTR_MAX_ROOTS + 1),
                 MRTR_ERR_LIMIT_EXCEEDED);
    {
        mrtr_root bad = roots[0];
        bad.uri = str_of("file:///home/../etc");
        CHECK_STATUS(mrtr_call_answer_roots(f.call, 0, &bad, 1), MRTR_ERR_INVALID_VALUE);
        bad.uri = str_of("https://example.com/");
        CHECK_STATUS(mrtr_call_answer_roots(f.call, 0, &bad, 1), MRTR_ERR_INVALID_VALUE);
    }
    CHECK_STATUS(mrtr_call_answer_json(f.call, 0, str_of("{\"action\":\"decline\"}")),
                 MRTR_ERR_INVALID_VALUE);
    /* answer_json runs the same root check as answer_roots (issue 16: it
     * sent these), escaped dot segments included. */
    CHECK_STATUS(mrtr_call_answer_json(
                     f.call, 0, str_of("{\"roots\":[{\"uri\":\"file:///etc/../root/.ssh\"}]}")),
                 MRTR_ERR_INVALID_VALUE);
    CHECK_STATUS(
        mrtr_call_answer_json(f.call, 0,
                              str_of("{\"roots\":[{\"uri\":\"file:///etc/\\u002e\\u002e/root\"}]}")),
        MRTR_ERR_INVALID_VALUE);
    CHECK_STATUS(mrtr_call_answer_json(
                     f.call, 0, str_of("{\"roots\":[{\"uri\":\"https://evil.example/x\"}]}")),
                 MRTR_ERR_INVALID_VALUE);
    CHECK_STATUS(mrtr_call_answer_roots(f.call, 0, roots, 2), MRTR_OK);
    check_leg(f.call, 2,
              HEAD(2) "{" META("{\"roots\":{}}") ",\"name\":\"t\",\"inputResponses\":{\"r\":{"
                                               "\"roots\":[{\"uri\":\"file:///home/u/project\","
                                               "\"name\":\"Project \\\"A\\\"\"},{\"uri\":"
                                               "\"file:///tmp/\"}]}}}}");
    stop(&f);
}

/* A JSON root uri is checked decoded, as the server reads it: escapes
 * cannot hide a dot segment, and a valid root spelled with escaped slashes
 * (as some JSON encoders write them) is accepted and sent as given. */
static void test_json_root_uris_are_checked_decoded(void) {
    struct fixture f;
    mrtr_event ev;
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", MRTR_CAP_ROOTS, NULL),
                 MRTR_OK);
    free(leg(f.call, 1));
    CHECK_STATUS(feed(f.call,
                      "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\","
                      "\"inputRequests\":{\"r\":{\"method\":\"roots/list\"}}}}",
                      &ev, NULL),
                 MRTR_OK);
    CHECK_STATUS(mrtr_call_answer_json(
                     f.call, 0,
                     str_of("{\"roots\":[{\"uri\":\"file:\\/\\/\\/etc\\/\\u002E%2e\\/root\"}]}")),
                 MRTR_ERR_INVALID_VALUE);
    CHECK(phase(f.call) == MRTR_PHASE_ANSWERING);
    CHECK_STATUS(mrtr_call_answer_json(
                     f.call, 0,
                     str_of("{\"roots\":[{\"uri\":\"file:\\/\\/\\/home\\/u\\/project\"}]}")),
                 MRTR_OK);
    check_leg(f.call, 2,
              HEAD(2) "{" META("{\"roots\":{}}") ",\"name\":\"t\",\"inputResponses\":{\"r\":{"
                                               "\"roots\":[{\"uri\":"
                                               "\"file:\\/\\/\\/home\\/u\\/project\"}]}}}}");
    stop(&f);
}

static void test_answering_with_an_error_ends_the_call(void) {
    struct fixture f;
    mrtr_event ev;
    mrtr_failure fail;
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", MRTR_CAP_SAMPLING, NULL),
                 MRTR_OK);
    free(leg(f.call, 1));
    CHECK_STATUS(feed(f.call,
                      "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\","
                      "\"inputRequests\":{\"s\":{\"method\":\"sampling/createMessage\",\"params\":{"
                      "\"messages\":[],\"maxTokens\":5}}}}}",
                      &ev, NULL),
                 MRTR_OK);
    CHECK_STATUS(mrtr_call_answer_error(f.call, 1, -1), MRTR_ERR_NOT_FOUND);
    CHECK_STATUS(mrtr_call_answer_error(f.call, 0, -77), MRTR_OK);
    CHECK(phase(f.call) == MRTR_PHASE_FAILED);
    CHECK_STATUS(mrtr_call_failure(f.call, &fail), MRTR_OK);
    CHECK(fail.kind == MRTR_FAILURE_ANSWERED_WITH_ERROR);
    CHECK(fail.status == MRTR_ERR_ABORTED);
    CHECK_EQ_SIZE(fail.index, 0);
    CHECK(fail.code == -77);
    stop(&f);
}

static void test_wrong_states_and_ids(void) {
    struct fixture f;
    mrtr_event ev;
    uint8_t out[4096];
    size_t n = 4242;

    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", MRTR_CAP_ELICITATION_FORM,
                       NULL),
                 MRTR_OK);
    /* Nothing sent yet. */
    CHECK_STATUS(feed(f.call, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", &ev, NULL),
                 MRTR_ERR_WRONG_STATE);
    CHECK_STATUS(mrtr_call_resend(f.call, 2, out, sizeof out, &n), MRTR_ERR_WRONG_STATE);
    CHECK(!progress(f.call).has_last_id);
    CHECK(progress(f.call).has_next_id);
    CHECK(progress(f.call).next_id == 1);
    CHECK_STATUS(mrtr_call_answer_elicit(f.call, 0, MRTR_ELICIT_DECLINE, str_of("")),
                 MRTR_ERR_WRONG_STATE);
    /* Ids: within +-(2^53-1). */
    CHECK_STATUS(mrtr_call_write_request(f.call, (int64_t)1 << 53, out, sizeof out, &n),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_EQ_SIZE(n, 4242);
    CHECK_STATUS(mrtr_call_write_request(f.call, 7, out, sizeof out, &n), MRTR_OK);
    CHECK(progress(f.call).has_last_id && progress(f.call).last_id == 7);
    CHECK(progress(f.call).has_next_id && progress(f.call).next_id == 8);
    /* Sent: no second write; resend needs a fresh id. */
    CHECK_STATUS(mrtr_call_write_request(f.call, 8, out, sizeof out, &n), MRTR_ERR_WRONG_STATE);
    CHECK_STATUS(mrtr_call_resend(f.call, 7, out, sizeof out, &n), MRTR_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mrtr_call_resend(f.call, 9, out, sizeof out, &n), MRTR_OK);
    CHECK_EQ_TEXT(out, n,
                  "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{" META(
                      "{\"elicitation\":{\"form\":{}}}") ",\"name\":\"t\"}}");
    /* The superseded id's answer is not ours any more. */
    CHECK_STATUS(feed(f.call, "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}", &ev, NULL),
                 MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_UNRELATED);
    stop(&f);
}

/* ---- save and restore --------------------------------------------------- */

static void test_save_and_restore_continue_the_call_elsewhere(void) {
    struct fixture f;
    mrtr_event ev;
    size_t need = 0, n = 0, ws_len = 0;
    uint8_t *saved;
    void *ws2;
    mrtr_call *call2 = NULL;
    const char *why = NULL;
    int64_t id = 0;
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, WORK_ITEM_PARAMS, MRTR_CAP_ELICITATION_FORM,
                       NULL),
                 MRTR_OK);
    free(leg(f.call, 1));
    CHECK_STATUS(feed(f.call, WORK_ITEM_ROUND_1, &ev, NULL), MRTR_OK);
    CHECK_STATUS(mrtr_call_answer_elicit(f.call, 0, MRTR_ELICIT_ACCEPT,
                                         str_of("{ \"resolution\": \"Duplicate\" }")),
                 MRTR_OK);
    free(leg(f.call, 2));
    CHECK_STATUS(feed(f.call, WORK_ITEM_ROUND_2, &ev, NULL), MRTR_OK);
    /* Size query, one byte short, exact. */
    CHECK_STATUS(mrtr_call_save(f.call, NULL, 0, &need), MRTR_ERR_BUFFER_TOO_SMALL);
    saved = (uint8_t *)ws_new(need);
    CHECK_STATUS(mrtr_call_save(f.call, saved, need - 1, &n), MRTR_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_SIZE(n, need);
    CHECK_STATUS(mrtr_call_save(f.call, saved, need, &n), MRTR_OK);
    CHECK_EQ_SIZE(n, need);
    stop(&f);

    CHECK_STATUS(mrtr_call_workspace_size(NULL, &ws_len), MRTR_OK);
    ws2 = ws_new(ws_len);
    CHECK_STATUS(mrtr_call_restore(ws2, ws_len - 1, NULL, saved, need, &call2, &why),
                 MRTR_ERR_WORKSPACE_TOO_SMALL);
    CHECK(call2 == NULL);
    CHECK_EQ_STR(why, "MRTR_ERR_WORKSPACE_TOO_SMALL");
    /* A damaged save is refused, and the reason says which cause. */
    saved[0] ^= 1;
    CHECK_STATUS(mrtr_call_restore(ws2, ws_len, NULL, saved, need, &call2, &why),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_EQ_STR(why, "Decode");
    saved[0] ^= 1;
    CHECK_STATUS(mrtr_call_restore(ws2, ws_len, NULL, saved, need - 1, &call2, NULL),
                 MRTR_ERR_INVALID_ARGUMENT);
    why = NULL;
    CHECK_STATUS(mrtr_call_restore(ws2, ws_len, NULL, saved, need, &call2, &why), MRTR_OK);
    CHECK(why == NULL);
    free(saved);
    CHECK(phase(call2) == MRTR_PHASE_ANSWERING);
    id = progress(call2).next_id;
    CHECK(id == 3);
    CHECK_STATUS(mrtr_call_answer_elicit(call2, 0, MRTR_ELICIT_ACCEPT,
                                         str_of("{\"duplicateOfId\":4301}")),
                 MRTR_OK);
    check_leg(call2, 3, WORK_ITEM_REQ_3);
    CHECK_STATUS(feed(call2, WORK_ITEM_DONE, &ev, NULL), MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_COMPLETE);
    /* Done calls cannot be saved. */
    CHECK_STATUS(mrtr_call_save(call2, NULL, 0, &n), MRTR_ERR_WRONG_STATE);
    free(ws2);
}

/* ---- limits, init and handles ------------------------------------------- */

static void test_limits_and_workspace_sizes(void) {
    mrtr_call_limits l;
    size_t n = 0, d = 0;
    CHECK_STATUS(mrtr_call_limits_default(NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_limits_default(&l), MRTR_OK);
    CHECK_EQ_SIZE(l.max_message_bytes, 1u << 20);
    CHECK_EQ_SIZE(l.max_depth, 32);
    CHECK_EQ_SIZE(l.max_input_requests, 64);
    CHECK_EQ_SIZE(l.max_key_bytes, 256);
    CHECK_EQ_SIZE(l.max_params_bytes, 16384);
    CHECK_EQ_SIZE(l.max_inputs_bytes, 16384);
    CHECK_EQ_SIZE(l.max_state_bytes, 4096);
    CHECK_EQ_SIZE(l.max_answers_bytes, 16384);
    CHECK(l.max_rounds == 10 && l.max_state_only_rounds == 3);
    CHECK(l.backoff_initial_ms == 50 && l.backoff_max_ms == 250);
    CHECK_STATUS(mrtr_call_workspace_size(NULL, &d), MRTR_OK);
    CHECK_STATUS(mrtr_call_workspace_size(&l, &n), MRTR_OK);
    CHECK_EQ_SIZE(n, d);
    /* 54,720 bytes of regions plus the state record. */
    CHECK(d > 54720 && d < 54720 + 1024);
    printf("  default call workspace: %zu bytes\n", d);
    CHECK_STATUS(mrtr_call_workspace_size(NULL, NULL), MRTR_ERR_NULL_POINTER);
    /* The largest request under the defaults: params 16,384 + state 4,096
     * + answers 16,384 with 64 headers of 6 + keys min(inputs 16,384,
     * 64 x (6 x 256 + 2)) + 2 x 64 + 256 bytes of syntax. */
    {
        size_t r = 0, r2 = 0;
        CHECK_STATUS(mrtr_call_request_size_max(NULL, &r), MRTR_OK);
        CHECK_EQ_SIZE(r, 16384 + 4096 + 16384 + 384 + 16384 + 128 + 256);
        CHECK_STATUS(mrtr_call_request_size_max(&l, &r2), MRTR_OK);
        CHECK_EQ_SIZE(r2, r);
        CHECK_STATUS(mrtr_call_request_size_max(NULL, NULL), MRTR_ERR_NULL_POINTER);
        l.max_input_requests = 0;
        CHECK_STATUS(mrtr_call_request_size_max(&l, &r2), MRTR_ERR_INVALID_ARGUMENT);
        CHECK_EQ_SIZE(r2, r);
    }
    l.max_input_requests = 0;
    CHECK_STATUS(mrtr_call_workspace_size(&l, &n), MRTR_ERR_INVALID_ARGUMENT);
    l.max_input_requests = 257;
    CHECK_STATUS(mrtr_call_workspace_size(&l, &n), MRTR_ERR_INVALID_ARGUMENT);
    l.max_input_requests = 64;
    l.max_depth = 3;
    CHECK_STATUS(mrtr_call_workspace_size(&l, &n), MRTR_ERR_INVALID_ARGUMENT);
    l.max_depth = MRTR_JSON_MAX_DEPTH + 1;
    CHECK_STATUS(mrtr_call_workspace_size(&l, &n), MRTR_ERR_INVALID_ARGUMENT);
    l.max_depth = 32;
    l.max_inputs_bytes = SIZE_MAX;
    CHECK_STATUS(mrtr_call_workspace_size(&l, &n), MRTR_ERR_INVALID_ARGUMENT);
    CHECK_EQ_SIZE(n, d);
}

static void test_init_misuse(void) {
    mrtr_call_limits l;
    mrtr_call_config cfg;
    size_t need = 0, reported = 0;
    uint8_t *ws;
    mrtr_call *call = NULL;
    mrtr_str params = heap_str("{\"name\":\"t\"}");
    CHECK_STATUS(mrtr_call_limits_default(&l), MRTR_OK);
    CHECK_STATUS(mrtr_call_workspace_size(&l, &need), MRTR_OK);
    ws = (uint8_t *)ws_new(need + 8);
    cfg = config_of(MRTR_METHOD_TOOLS_CALL, params, 0, &l);

    /* Each pointer NULL in turn. */
    CHECK_STATUS(mrtr_call_init(NULL, need, &cfg, &call), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_init(ws, need, NULL, &call), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_init(ws, need, &cfg, NULL), MRTR_ERR_NULL_POINTER);
    CHECK(call == NULL);
    /* Zero and one-byte-short workspaces; the needed size is reported. */
    cfg.out_needed = &reported;
    CHECK_STATUS(mrtr_call_init(ws, 0, &cfg, &call), MRTR_ERR_WORKSPACE_TOO_SMALL);
    CHECK_EQ_SIZE(reported, need);
    reported = 0;
    CHECK_STATUS(mrtr_call_init(ws, need - 1, &cfg, &call), MRTR_ERR_WORKSPACE_TOO_SMALL);
    CHECK_EQ_SIZE(reported, need);
    CHECK(call == NULL);
    /* Misaligned. */
    CHECK_STATUS(mrtr_call_init(ws + 1, need, &cfg, &call), MRTR_ERR_MISALIGNED);
    CHECK_STATUS(mrtr_call_init(ws + 4, need, &cfg, &call), MRTR_ERR_MISALIGNED);
    /* Bad config values; each INVALID_ARGUMENT names its cause. */
    {
        const char *why = NULL;
#define REFUSED_BECAUSE(name)                                                         \
    do {                                                                              \
        why = NULL;                                                                   \
        CHECK_STATUS(mrtr_call_init(ws, need, &cfg, &call), MRTR_ERR_INVALID_ARGUMENT); \
        CHECK(why != NULL && strcmp(why, name) == 0);                                 \
    } while (0)
        cfg.out_reason = &why;
        cfg.method = 0;
        REFUSED_BECAUSE("UnknownMethod");
        cfg.method = 4;
        REFUSED_BECAUSE("UnknownMethod");
        cfg.method = MRTR_METHOD_TOOLS_CALL;
        cfg.caps = 1u << 7;
        REFUSED_BECAUSE("UnknownCapability");
        cfg.caps = 0;
        cfg.flags = MRTR_CALL_TASK_ID_JSON; /* a task id flag for a call */
        REFUSED_BECAUSE("TaskIdWithoutDialect");
        cfg.flags = 4;
        REFUSED_BECAUSE("UnknownFlag");
        cfg.flags = 0;
        cfg.client_name = str_of("\xff");
        CHECK_STATUS(mrtr_call_init(ws, need, &cfg, &call), MRTR_ERR_INVALID_UTF8);
        cfg.client_name = str_of("ExampleClient");
        cfg.params.ptr = NULL;
        CHECK_STATUS(mrtr_call_init(ws, need, &cfg, &call), MRTR_ERR_NULL_POINTER);
        cfg.params = str_of("{\"name\":");
        CHECK_STATUS(mrtr_call_init(ws, need, &cfg, &call), MRTR_ERR_JSON);
        cfg.params = str_of("[1]");
        REFUSED_BECAUSE("NotAnObject");
        cfg.params = str_of("{\"arguments\":{}}");
        REFUSED_BECAUSE("MissingTarget");
        cfg.params = str_of("{\"name\":\"t\",\"requestState\":\"x\"}");
        REFUSED_BECAUSE("Reserved");
        cfg.params = str_of("{\"name\":\"t\",\"inputResponses\":{}}");
        REFUSED_BECAUSE("Reserved");
        cfg.params = str_of("{\"name\":\"t\",\"arguments\":{\"a\":1,\"a\":2}}");
        REFUSED_BECAUSE("RepeatedMember");
        cfg.method = MRTR_METHOD_RESOURCES_READ;
        cfg.params = str_of("{\"name\":\"t\"}");
        REFUSED_BECAUSE("MissingTarget");
#undef REFUSED_BECAUSE
        cfg.out_reason = NULL;
    }
    cfg.method = MRTR_METHOD_TOOLS_CALL;
    /* Params over max_params_bytes. */
    l.max_params_bytes = 32;
    cfg.params = params;
    CHECK_STATUS(mrtr_call_workspace_size(&l, &need), MRTR_OK);
    CHECK_STATUS(mrtr_call_init(ws, need, &cfg, &call), MRTR_ERR_LIMIT_EXCEEDED);
    CHECK(call == NULL);
    l.max_params_bytes = 16384;
    CHECK_STATUS(mrtr_call_workspace_size(&l, &need), MRTR_OK);
    /* Arguments inside the workspace. */
    memcpy(ws + need - 16, "{\"name\":\"t\"}", 12);
    cfg.params.ptr = (const char *)(ws + need - 16);
    cfg.params.len = 12;
    CHECK_STATUS(mrtr_call_init(ws, need, &cfg, &call), MRTR_ERR_INVALID_ARGUMENT);
    cfg.params = params;
    CHECK_STATUS(mrtr_call_init(ws, need, &cfg, (mrtr_call **)(void *)(ws + 64)),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK(call == NULL);
    /* And finally a good one. */
    CHECK_STATUS(mrtr_call_init(ws, need, &cfg, &call), MRTR_OK);
    CHECK((void *)call == (void *)ws);
    free(ws);
    str_free(params);
}

static void test_handles_are_checked(void) {
    struct fixture f;
    mrtr_progress p;
    uint8_t *copy;
    mrtr_call_config cfg;
    mrtr_call *again = NULL;
    mrtr_str bad = str_of("{");
    size_t zero_len = 4096;
    uint64_t *zeros = (uint64_t *)calloc(zero_len / 8, 8);
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", 0, NULL), MRTR_OK);
    CHECK_STATUS(mrtr_call_progress(NULL, &p), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_progress(f.call, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_progress((const mrtr_call *)(const void *)((uint8_t *)f.ws + 1), &p),
                 MRTR_ERR_MISALIGNED);
    /* Never initialized (zeros). */
    CHECK_STATUS(mrtr_call_progress((const mrtr_call *)(const void *)zeros, &p),
                 MRTR_ERR_INVALID_ARGUMENT);
    /* A copy of a live workspace elsewhere is refused (it would be used at
     * the wrong address); mrtr_call_check names each cause. */
    copy = (uint8_t *)ws_new(f.len);
    memcpy(copy, f.ws, f.len);
    CHECK_STATUS(mrtr_call_progress((const mrtr_call *)(const void *)copy, &p),
                 MRTR_ERR_INVALID_ARGUMENT);
    {
        const char *why = NULL;
        CHECK_STATUS(mrtr_call_check((const mrtr_call *)(const void *)copy, &why),
                     MRTR_ERR_INVALID_ARGUMENT);
        CHECK(why != NULL && strcmp(why, "MovedOrCopied") == 0);
        why = NULL;
        CHECK_STATUS(mrtr_call_check((const mrtr_call *)(const void *)zeros, &why),
                     MRTR_ERR_INVALID_ARGUMENT);
        CHECK(why != NULL && strcmp(why, "NotAnObject") == 0);
        why = NULL;
        CHECK_STATUS(mrtr_call_check(NULL, &why), MRTR_ERR_NULL_POINTER);
        CHECK(why != NULL && strcmp(why, "Null") == 0);
        why = NULL;
        CHECK_STATUS(mrtr_call_check((const mrtr_call *)(const void *)((uint8_t *)f.ws + 4), &why),
                     MRTR_ERR_MISALIGNED);
        CHECK(why != NULL && strcmp(why, "Misaligned") == 0);
        why = NULL;
        /* The handle is live; the last function on it failed for a NULL
         * out-param (mrtr_call_progress(f.call, NULL) above). */
        CHECK_STATUS(mrtr_call_check(f.call, &why), MRTR_OK);
        CHECK_EQ_STR(why, "MRTR_ERR_NULL_POINTER");
        CHECK_STATUS(mrtr_call_check(f.call, NULL), MRTR_OK);
    }
    free(copy);
    /* Another object type is not a call. */
    {
        size_t sn = 0;
        void *sws;
        mrtr_sse_decoder *dec = NULL;
        CHECK_STATUS(mrtr_sse_decoder_size(0, &sn), MRTR_OK);
        sws = ws_new(sn);
        CHECK_STATUS(mrtr_sse_init(sws, sn, &dec), MRTR_OK);
        CHECK_STATUS(mrtr_call_progress((const mrtr_call *)(const void *)dec, &p),
                     MRTR_ERR_INVALID_ARGUMENT);
        free(sws);
    }
    /* A failed re-init of the same workspace invalidates the old handle. */
    CHECK_STATUS(mrtr_call_progress(f.call, &p), MRTR_OK);
    cfg = config_of(MRTR_METHOD_TOOLS_CALL, bad, 0, NULL);
    CHECK_STATUS(mrtr_call_init(f.ws, f.len, &cfg, &again), MRTR_ERR_JSON);
    CHECK(again == NULL);
    CHECK_STATUS(mrtr_call_progress(f.call, &p), MRTR_ERR_INVALID_ARGUMENT);
    /* Out-params may not point into the workspace. */
    stop(&f);
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", 0, NULL), MRTR_OK);
    CHECK_STATUS(mrtr_call_progress(f.call, (mrtr_progress *)(void *)((uint8_t *)f.ws + 256)),
                 MRTR_ERR_INVALID_ARGUMENT);
    free(zeros);
    stop(&f);
}

static void test_feed_misuse(void) {
    struct fixture f;
    mrtr_event ev;
    uint8_t *msg;
    static const char done[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}";
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", 0, NULL), MRTR_OK);
    free(leg(f.call, 1));
    msg = heap_copy(done, sizeof done - 1);
    CHECK_STATUS(mrtr_call_feed(NULL, msg, sizeof done - 1, &ev), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_feed(f.call, NULL, sizeof done - 1, &ev), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_feed(f.call, msg, sizeof done - 1, NULL), MRTR_ERR_NULL_POINTER);
    /* The event may not overlap the message or the workspace. */
    {
        uint8_t *big = (uint8_t *)ws_new(sizeof(mrtr_event) + sizeof done);
        memcpy(big, done, sizeof done - 1);
        CHECK_STATUS(mrtr_call_feed(f.call, big, sizeof done - 1, (mrtr_event *)(void *)big),
                     MRTR_ERR_INVALID_ARGUMENT);
        free(big);
    }
    CHECK_STATUS(mrtr_call_feed(f.call, msg, sizeof done - 1,
                                (mrtr_event *)(void *)((uint8_t *)f.ws + 512)),
                 MRTR_ERR_INVALID_ARGUMENT);
    /* A message inside the workspace is refused. */
    memcpy((uint8_t *)f.ws + f.len - 64, done, sizeof done - 1);
    CHECK_STATUS(mrtr_call_feed(f.call, (uint8_t *)f.ws + f.len - 64, sizeof done - 1, &ev),
                 MRTR_ERR_INVALID_ARGUMENT);
    /* The call is still SENT after all the refusals. */
    CHECK(phase(f.call) == MRTR_PHASE_SENT);
    /* A zero-length message is no JSON: a transport failure. */
    CHECK_STATUS(mrtr_call_feed(f.call, NULL, 0, &ev), MRTR_ERR_JSON);
    free(msg);
    stop(&f);
}

static void test_client_info_choices(void) {
    struct fixture f;
    mrtr_call_config cfg;
    mrtr_call *call = NULL;
    size_t n = 0;
    uint8_t out[1024];
    char ver[64];
    CHECK_STATUS(mrtr_call_workspace_size(NULL, &n), MRTR_OK);
    f.ws = ws_new(n);
    cfg = config_of(MRTR_METHOD_TOOLS_CALL, str_of("{\"name\":\"t\",\"_meta\":{\"k\":1}}"), 0,
                    NULL);
    cfg.flags = MRTR_CALL_NO_CLIENT_INFO;
    cfg.first_id = 40;
    CHECK_STATUS(mrtr_call_init(f.ws, n, &cfg, &call), MRTR_OK);
    {
        CHECK(progress(call).has_next_id);
        CHECK(progress(call).next_id == 40);
    }
    CHECK_STATUS(mrtr_call_write_request(call, 40, out, sizeof out, &n), MRTR_OK);
    CHECK_EQ_TEXT(out, n,
                  "{\"jsonrpc\":\"2.0\",\"id\":40,\"method\":\"tools/call\",\"params\":{\"_meta\":{"
                  "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                  "\"io.modelcontextprotocol/clientCapabilities\":{},\"k\":1},\"name\":\"t\"}}");
    /* No name: the library's own identity. */
    cfg.flags = 0;
    cfg.client_name.ptr = NULL;
    cfg.client_name.len = 0;
    CHECK_STATUS(mrtr_call_workspace_size(NULL, &n), MRTR_OK);
    CHECK_STATUS(mrtr_call_init(f.ws, n, &cfg, &call), MRTR_OK);
    CHECK_STATUS(mrtr_call_write_request(call, 1, out, sizeof out, &n), MRTR_OK);
    sprintf(ver, "{\"name\":\"mrtr\",\"version\":\"%s\"}", mrtr_version());
    out[n] = '\0';
    CHECK(strstr((const char *)out, ver) != NULL);
    free(f.ws);
}

/* ---- issue 16: restore invariants and the id range ----------------------- */

/* Skips a postcard varint at `*pos`. */
static void skip_varint(const uint8_t *b, size_t n, size_t *pos) {
    while (*pos < n && (b[*pos] & 0x80) != 0) {
        (*pos)++;
    }
    (*pos)++;
}

/* A call answering the spec's two questions with only the first answered,
 * saved (phase ANSWERING), then the same save re-encoded as SENT with the
 * retry id 1 in flight: a retry missing an answer. Refused, where it used
 * to restore and `resend` wrote the incomplete retry. */
static void test_restore_refuses_a_sent_call_with_a_partly_answered_round(void) {
    struct fixture f;
    mrtr_event ev;
    size_t need = 0, n = 0, ws_len = 0, pos, i;
    uint8_t *saved, *forged;
    void *ws2;
    mrtr_call *call2 = NULL;
    const char *why = NULL;
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL,
                       "{\"name\":\"get_weather\",\"arguments\":{\"location\":\"New York\"}}",
                       MRTR_CAP_ELICITATION_FORM | MRTR_CAP_SAMPLING, NULL),
                 MRTR_OK);
    free(leg(f.call, 1));
    CHECK_STATUS(feed(f.call, SPEC_INPUT_REQUIRED, &ev, NULL), MRTR_OK);
    CHECK_STATUS(mrtr_call_answer_elicit(f.call, 0, MRTR_ELICIT_ACCEPT,
                                         str_of("{\"name\":\"octocat\"}")),
                 MRTR_OK);
    CHECK_STATUS(mrtr_call_save(f.call, NULL, 0, &need), MRTR_ERR_BUFFER_TOO_SMALL);
    saved = (uint8_t *)ws_new(need);
    CHECK_STATUS(mrtr_call_save(f.call, saved, need, &n), MRTR_OK);
    stop(&f);
    /* magic 4, version, kind, phase (offset 6), variant, next, flags; then
     * rounds, state_only, polls, poll_ms (varints); last_id Some(1) (01 02);
     * in_flight None (00). */
    CHECK(saved[6] == 3);
    pos = 10;
    for (i = 0; i < 4; i++) {
        skip_varint(saved, n, &pos);
    }
    CHECK(pos + 3 <= n && saved[pos] == 1 && saved[pos + 1] == 2 && saved[pos + 2] == 0);
    forged = (uint8_t *)ws_new(n + 1);
    memcpy(forged, saved, pos + 2);
    forged[6] = 2; /* SENT */
    forged[pos + 2] = 1; /* in_flight = Some(1) */
    forged[pos + 3] = 2;
    memcpy(forged + pos + 4, saved + pos + 3, n - pos - 3);

    CHECK_STATUS(mrtr_call_workspace_size(NULL, &ws_len), MRTR_OK);
    ws2 = ws_new(ws_len);
    CHECK_STATUS(mrtr_call_restore(ws2, ws_len, NULL, forged, n + 1, &call2, &why),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK(call2 == NULL);
    CHECK_EQ_STR(why, "PartlyAnswered");
    /* Control: the genuine save restores, answering, one answer given. */
    CHECK_STATUS(mrtr_call_restore(ws2, ws_len, NULL, saved, n, &call2, NULL), MRTR_OK);
    CHECK(phase(call2) == MRTR_PHASE_ANSWERING);
    free(saved);
    free(forged);
    free(ws2);
}

/* The first id is a JSON-safe integer, +-(2^53-1), or init refuses it; the
 * next id past the top is LIMIT_EXCEEDED, never a wrapped or unsendable id. */
static void test_first_id_range_and_the_last_id(void) {
    static const int64_t MAX = INT64_C(9007199254740991);
    mrtr_call_config cfg;
    mrtr_str params = heap_str("{\"name\":\"t\"}");
    size_t len = 0, n = 0;
    void *ws;
    mrtr_call *call = NULL;
    int64_t id = 0;
    uint8_t out[1024];
    const int64_t bad[4] = {MAX + 1, -MAX - 1, INT64_MIN, INT64_MAX};
    int k;
    CHECK_STATUS(mrtr_call_workspace_size(NULL, &len), MRTR_OK);
    ws = ws_new(len);
    cfg = config_of(MRTR_METHOD_TOOLS_CALL, params, 0, NULL);
    for (k = 0; k < 4; k++) {
        cfg.first_id = bad[k];
        CHECK_STATUS(mrtr_call_init(ws, len, &cfg, &call), MRTR_ERR_INVALID_ARGUMENT);
    }
    cfg.first_id = -MAX;
    CHECK_STATUS(mrtr_call_init(ws, len, &cfg, &call), MRTR_OK);
    id = progress(call).next_id;
    CHECK(id == -MAX);
    CHECK_STATUS(mrtr_call_write_request(call, id, out, sizeof out, &n), MRTR_OK);
    cfg.first_id = MAX;
    CHECK_STATUS(mrtr_call_init(ws, len, &cfg, &call), MRTR_OK);
    id = progress(call).next_id;
    CHECK(id == MAX);
    CHECK_STATUS(mrtr_call_write_request(call, id, out, sizeof out, &n), MRTR_OK);
    /* The top id is used: there is no next one. */
    CHECK(!progress(call).has_next_id);
    free(ws);
    str_free(params);
}

/* Every status with several causes on a call names its cause: after any
 * mrtr_call_* function, mrtr_call_check says why it failed ("" after
 * MRTR_OK), the core's own name for the cause. */
static void test_call_check_names_the_cause_of_the_last_failure(void) {
    struct fixture f;
    mrtr_event ev;
    mrtr_progress p;
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, WORK_ITEM_PARAMS, MRTR_CAP_ELICITATION_FORM,
                       NULL),
                 MRTR_OK);
    CHECK_EQ_STR(reason_of(f.call), "");
    free(leg(f.call, 1));
    CHECK_STATUS(feed(f.call, WORK_ITEM_ROUND_1, &ev, NULL), MRTR_OK);
    /* Two MRTR_ERR_NOT_FOUND, two causes. */
    {
        uint8_t text[256];
        size_t n = 0;
        CHECK_STATUS(mrtr_call_input_text(f.call, 5, MRTR_TEXT_MESSAGE, text, sizeof text, &n),
                     MRTR_ERR_NOT_FOUND);
        CHECK_EQ_STR(reason_of(f.call), "NoSuchInput");
        CHECK_STATUS(mrtr_call_input_text(f.call, 0, MRTR_TEXT_URL, text, sizeof text, &n),
                     MRTR_ERR_NOT_FOUND);
        CHECK_EQ_STR(reason_of(f.call), "NoSuchText");
    }
    /* Three MRTR_ERR_INVALID_VALUE, three causes. */
    CHECK_STATUS(mrtr_call_answer_elicit(f.call, 0, MRTR_ELICIT_ACCEPT,
                                         str_of("{\"resolution\":\"Nope\"}")),
                 MRTR_ERR_INVALID_VALUE);
    CHECK_EQ_STR(reason_of(f.call), "NotAnOption");
    CHECK_STATUS(mrtr_call_answer_elicit(f.call, 0, MRTR_ELICIT_ACCEPT, str_of("")),
                 MRTR_ERR_INVALID_VALUE);
    CHECK_EQ_STR(reason_of(f.call), "ContentRequired");
    CHECK_STATUS(mrtr_call_answer_elicit(f.call, 0, MRTR_ELICIT_DECLINE, str_of("{}")),
                 MRTR_ERR_INVALID_VALUE);
    CHECK_EQ_STR(reason_of(f.call), "ContentNotAllowed");
    CHECK_STATUS(mrtr_call_answer_json(f.call, 0, str_of("{\"result\":{\"action\":\"cancel\"}}")),
                 MRTR_ERR_INVALID_VALUE);
    CHECK_EQ_STR(reason_of(f.call), "Wrapped");
    CHECK_STATUS(mrtr_call_answer_elicit(f.call, 0, 99, str_of("")), MRTR_ERR_INVALID_ARGUMENT);
    CHECK_EQ_STR(reason_of(f.call), "UnknownAction");
    /* An out-param inside the workspace: refused by the argument checks. */
    CHECK_STATUS(mrtr_call_progress(f.call, (mrtr_progress *)(void *)((uint8_t *)f.ws + 256)),
                 MRTR_ERR_INVALID_ARGUMENT);
    CHECK_EQ_STR(reason_of(f.call), "Overlap");
    CHECK_STATUS(mrtr_call_answer_elicit(f.call, 0, MRTR_ELICIT_DECLINE, str_of("")), MRTR_OK);
    CHECK_EQ_STR(reason_of(f.call), "");
    /* Answered: the call is READY, no longer answering... */
    CHECK_STATUS(mrtr_call_answer_elicit(f.call, 0, MRTR_ELICIT_DECLINE, str_of("")),
                 MRTR_ERR_WRONG_STATE);
    CHECK_EQ_STR(reason_of(f.call), "WrongState");
    /* Reading the call keeps the reason; a function that changes it clears
     * it on success. */
    CHECK_STATUS(mrtr_call_progress(f.call, &p), MRTR_OK);
    CHECK_EQ_STR(reason_of(f.call), "WrongState");
    /* ... and an id that is not fresh. */
    {
        uint8_t out[4096];
        size_t n = 0;
        CHECK_STATUS(mrtr_call_write_request(f.call, 1, out, sizeof out, &n),
                     MRTR_ERR_INVALID_ARGUMENT);
        CHECK_EQ_STR(reason_of(f.call), "IdNotFresh");
        CHECK_STATUS(mrtr_call_write_request(f.call, 2, out, 4, &n), MRTR_ERR_BUFFER_TOO_SMALL);
        CHECK_EQ_STR(reason_of(f.call), "MRTR_ERR_BUFFER_TOO_SMALL");
    }
    stop(&f);
}

void suite_call(void) {
    RUN(test_call_check_names_the_cause_of_the_last_failure);
    RUN(test_work_item_takes_two_rounds_and_echoes_request_state);
    RUN(test_github_login_and_capital_of_france_in_one_round);
    RUN(test_restore_refuses_a_sent_call_with_a_partly_answered_round);
    RUN(test_first_id_range_and_the_last_id);
    RUN(test_load_shedding_retries_with_state_only_and_backoff);
    RUN(test_request_state_is_echoed_byte_for_byte);
    RUN(test_escaped_keys_and_messages_decode_on_request);
    RUN(test_rpc_errors_are_events_with_spans);
    RUN(test_unrelated_messages_change_nothing);
    RUN(test_an_undeclared_kind_is_a_protocol_violation);
    RUN(test_roots_answers_are_checked_and_exact);
    RUN(test_json_root_uris_are_checked_decoded);
    RUN(test_answering_with_an_error_ends_the_call);
    RUN(test_wrong_states_and_ids);
    RUN(test_save_and_restore_continue_the_call_elsewhere);
    RUN(test_limits_and_workspace_sizes);
    RUN(test_init_misuse);
    RUN(test_handles_are_checked);
    RUN(test_feed_misuse);
    RUN(test_client_info_choices);
}

/* ---- mrtr_run ------------------------------------------------------------ */

static const char NOTIFICATION[] =
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}";

/* One leg of a scripted server: the request expected (NULL: not checked),
 * the reply, and how many notifications come first on the stream. */
struct step {
    const char *expect;
    const char *reply;
    int notify_first;
};

struct script {
    const struct step *steps;
    size_t n;
    size_t leg;
    int pending;  /* notifications sent for `leg` so far */
    int sends;    /* transport calls with a request */
    int reads;    /* transport calls without one */
    uint64_t sleeps[8];
    int nsleeps;
    int32_t fail; /* non-zero: the transport returns it */
    size_t lie;   /* added to the reported length */
};

static int32_t scripted(void *user, const uint8_t *req, size_t req_len, uint8_t *resp,
                        size_t cap, size_t *len) {
    struct script *s = (struct script *)user;
    const char *msg;
    size_t n;
    if (req != NULL) {
        s->sends++;
        if (s->leg >= s->n) {
            CHECK(!"more requests than the script has");
            return 99;
        }
        if (s->steps[s->leg].expect != NULL) {
            CHECK_EQ_TEXT(req, req_len, s->steps[s->leg].expect);
        }
        if (s->fail) {
            return s->fail;
        }
        s->pending = 0;
    } else {
        s->reads++;
        CHECK(req_len == 0);
        if (s->leg >= s->n) {
            CHECK(!"asked for a message with none pending");
            return 98;
        }
    }
    if (s->pending < s->steps[s->leg].notify_first) {
        msg = NOTIFICATION;
        s->pending++;
    } else {
        msg = s->steps[s->leg++].reply;
    }
    n = strlen(msg);
    if (n > cap) {
        return 97;
    }
    memcpy(resp, msg, n);
    *len = n + s->lie;
    return 0;
}

static void record_sleep(void *user, uint64_t ms) {
    struct script *s = (struct script *)user;
    if (s->nsleeps < 8) {
        s->sleeps[s->nsleeps++] = ms;
    }
}

static int keyed(const mrtr_input *in, const char *key) {
    return in->key.len == strlen(key) && memcmp(in->key.ptr, key, in->key.len) == 0;
}

static int32_t work_item_ui(void *user, mrtr_call *call, size_t index, const mrtr_input *in) {
    const char *content = NULL;
    (void)user;
    if (in->kind != MRTR_INPUT_ELICIT_FORM) {
        return MRTR_CB_ABORT;
    }
    if (keyed(in, "resolution")) {
        content = "{ \"resolution\": \"Duplicate\" }";
    } else if (keyed(in, "duplicate_of")) {
        content = "{\"duplicateOfId\":4301}";
    } else {
        return MRTR_CB_ABORT;
    }
    return mrtr_call_answer_elicit(call, index, MRTR_ELICIT_ACCEPT, str_of(content)) == MRTR_OK
               ? MRTR_CB_ANSWERED
               : MRTR_CB_ABORT;
}

static int32_t decline_ui(void *user, mrtr_call *call, size_t index, const mrtr_input *in) {
    (void)user, (void)call, (void)index, (void)in;
    return MRTR_CB_DECLINE;
}

static int32_t abort_ui(void *user, mrtr_call *call, size_t index, const mrtr_input *in) {
    (void)user, (void)call, (void)index, (void)in;
    return MRTR_CB_ABORT;
}

static int32_t lazy_ui(void *user, mrtr_call *call, size_t index, const mrtr_input *in) {
    (void)user, (void)call, (void)index, (void)in;
    return MRTR_CB_ANSWERED; /* without answering */
}

static mrtr_run_callbacks callbacks(void) {
    mrtr_run_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.transport = scripted;
    cb.elicit = work_item_ui;
    cb.sleep_ms = record_sleep;
    return cb;
}

#define TASK_OF(id, status, extra)                                             \
    "{\"jsonrpc\":\"2.0\",\"id\":" #id ",\"result\":{\"resultType\":\"complete\","              \
    "\"taskId\":\"j1\",\"status\":\"" status "\",\"createdAt\":\"2026-07-28T10:00:00Z\","      \
    "\"lastUpdatedAt\":\"2026-07-28T10:00:01Z\",\"ttlMs\":null" extra "}}"

/* mrtr_run follows the task the server moves the call to: it waits the
 * task's hint, polls until the result, and ids continue; a failed task
 * is MRTR_ERR_RPC_ERROR with its error, a cancelled one MRTR_ERR_ABORTED. */
static void test_run_follows_the_task_to_its_end(void) {
    struct fixture f;
    struct step steps[3];
    struct script s;
    mrtr_run_callbacks cb = callbacks();
    mrtr_event ev;
    size_t len = 4096;
    uint8_t *buf = (uint8_t *)ws_new(len);
    mrtr_progress pr;
    static const char created[] =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"task\",\"taskId\":\"j1\","
        "\"status\":\"working\",\"createdAt\":\"2026-07-28T10:00:00Z\",\"lastUpdatedAt\":"
        "\"2026-07-28T10:00:00Z\",\"ttlMs\":null,\"pollIntervalMs\":700}}";
    int round;
    for (round = 0; round < 3; round++) {
        memset(steps, 0, sizeof steps);
        steps[0].reply = created;
        steps[1].reply = TASK_OF(2, "working", ",\"pollIntervalMs\":300");
        steps[2].reply = round == 0   ? TASK_OF(3, "completed", ",\"result\":{\"resultType\":"
                                                              "\"complete\",\"content\":[]}")
                         : round == 1 ? TASK_OF(3, "failed", ",\"error\":{\"code\":-32001,"
                                                             "\"message\":\"boom\"}")
                                      : TASK_OF(3, "cancelled", "");
        memset(&s, 0, sizeof s);
        s.steps = steps;
        s.n = 3;
        CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"job\"}", MRTR_CAP_TASKS, NULL),
                     MRTR_OK);
        CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, len, &ev),
                     round == 0   ? MRTR_OK
                     : round == 1 ? MRTR_ERR_RPC_ERROR
                                  : MRTR_ERR_ABORTED);
        /* The run's status names its cause on the call (read before any
         * other function; reading does not clear it either). */
        CHECK_EQ_STR(reason_of(f.call), round == 0   ? ""
                                        : round == 1 ? "TaskFailed"
                                                     : "TaskCancelled");
        CHECK(s.sends == 3 && s.leg == 3);
        CHECK(s.nsleeps == 2 && s.sleeps[0] == 700 && s.sleeps[1] == 300);
        pr = progress(f.call);
        CHECK(pr.flow == MRTR_FLOW_TASK && pr.phase == MRTR_PHASE_DONE);
        CHECK(pr.polls == 2 && pr.has_last_id && pr.last_id == 3);
        if (round == 0) {
            CHECK(ev.kind == MRTR_EVENT_COMPLETE);
            CHECK_EQ_TEXT(buf + ev.result.offset, ev.result.len,
                          "{\"resultType\":\"complete\",\"content\":[]}");
        } else if (round == 1) {
            CHECK(ev.kind == MRTR_EVENT_TASK_FAILED && ev.error_code == -32001);
            CHECK_EQ_TEXT(buf + ev.error_message.offset, ev.error_message.len, "\"boom\"");
        } else {
            CHECK(ev.kind == MRTR_EVENT_TASK_CANCELLED);
        }
        stop(&f);
    }
    free(buf);
}

static void test_run_drives_the_work_item_flow(void) {
    struct fixture f;
    struct step steps[3];
    struct script s;
    mrtr_run_callbacks cb = callbacks();
    mrtr_event ev;
    size_t len = 4096;
    uint8_t *buf = (uint8_t *)ws_new(len);
    steps[0].expect = WORK_ITEM_REQ_1;
    steps[0].reply = WORK_ITEM_ROUND_1;
    steps[0].notify_first = 0;
    steps[1].expect = WORK_ITEM_REQ_2;
    steps[1].reply = WORK_ITEM_ROUND_2;
    steps[1].notify_first = 1;
    steps[2].expect = WORK_ITEM_REQ_3;
    steps[2].reply = WORK_ITEM_DONE;
    steps[2].notify_first = 0;
    memset(&s, 0, sizeof s);
    s.steps = steps;
    s.n = 3;
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, WORK_ITEM_PARAMS, MRTR_CAP_ELICITATION_FORM,
                       NULL),
                 MRTR_OK);
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, len, &ev), MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_COMPLETE);
    CHECK(s.sends == 3 && s.reads == 1 && s.leg == 3);
    /* The result span points into buf, after the last request. */
    CHECK_EQ_SIZE(ev.result.offset, (sizeof WORK_ITEM_REQ_3 - 1) + 45);
    CHECK_EQ_TEXT(buf + ev.result.offset, ev.result.len,
                  "{\n    \"content\": [\n      {\n        \"type\": \"text\",\n        \"text\": "
                  "\"Bug #4522 resolved as Duplicate of Bug #4301. State set to Resolved and "
                  "duplicate link created.\"\n      }\n    ],\n    \"isError\": false\n  }");
    CHECK(phase(f.call) == MRTR_PHASE_DONE);
    /* A finished call does not run again. */
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, len, &ev), MRTR_ERR_WRONG_STATE);
    stop(&f);
    free(buf);
}

/* The run steps (mrtr_runner_*) drive the same flow as mrtr_run, with the
 * app's own loop doing the I/O: each request as scripted, the notification
 * passed on with `again`, both questions asked, the result at the end. */
static void test_runner_steps_drive_the_work_item_flow(void) {
    struct fixture f;
    struct step steps[3];
    struct script s;
    mrtr_runner r;
    mrtr_step st;
    mrtr_event ev;
    uint8_t out[2048], msg[2048];
    size_t n = 0, asks = 0, waits = 0;
    bool again = false;
    steps[0].expect = WORK_ITEM_REQ_1;
    steps[0].reply = WORK_ITEM_ROUND_1;
    steps[0].notify_first = 0;
    steps[1].expect = WORK_ITEM_REQ_2;
    steps[1].reply = WORK_ITEM_ROUND_2;
    steps[1].notify_first = 1;
    steps[2].expect = WORK_ITEM_REQ_3;
    steps[2].reply = WORK_ITEM_DONE;
    steps[2].notify_first = 0;
    memset(&s, 0, sizeof s);
    s.steps = steps;
    s.n = 3;
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, WORK_ITEM_PARAMS, MRTR_CAP_ELICITATION_FORM,
                       NULL),
                 MRTR_OK);
    CHECK_STATUS(mrtr_runner_init(&r, f.call, 0, 0, 0), MRTR_OK);
    for (;;) {
        CHECK_STATUS(mrtr_runner_next(&r, f.call, out, sizeof out, &st), MRTR_OK);
        if (st.kind == MRTR_STEP_DONE) {
            break;
        }
        if (st.kind == MRTR_STEP_SEND) {
            const uint8_t *req = out;
            size_t req_len = st.len;
            do {
                CHECK(scripted(&s, req, req_len, msg, sizeof msg, &n) == 0);
                req = NULL;
                req_len = 0;
                CHECK_STATUS(mrtr_runner_received(&r, f.call, msg, n, &ev, &again), MRTR_OK);
            } while (again);
        } else if (st.kind == MRTR_STEP_ASK) {
            mrtr_input in;
            asks++;
            CHECK(st.input_kind == MRTR_INPUT_ELICIT_FORM);
            CHECK_STATUS(mrtr_call_input_at(f.call, st.index, &in), MRTR_OK);
            CHECK_STATUS(mrtr_runner_answered(&r, f.call, st.index,
                                              work_item_ui(NULL, f.call, st.index, &in)),
                         MRTR_OK);
        } else {
            waits++;
        }
    }
    CHECK(st.status == MRTR_OK && ev.kind == MRTR_EVENT_COMPLETE);
    CHECK(s.sends == 3 && s.reads == 1 && s.leg == 3 && asks == 2 && waits == 0);
    CHECK(phase(f.call) == MRTR_PHASE_DONE);
    /* Done stays done; a finished call is not runnable. */
    CHECK_STATUS(mrtr_runner_next(&r, f.call, out, sizeof out, &st), MRTR_OK);
    CHECK(st.kind == MRTR_STEP_DONE);
    CHECK_STATUS(mrtr_runner_init(&r, f.call, 0, 0, 0), MRTR_OK);
    CHECK_STATUS(mrtr_runner_next(&r, f.call, out, sizeof out, &st), MRTR_ERR_WRONG_STATE);
    /* A runner is tied to the call it was started for. */
    {
        struct fixture g;
        CHECK_STATUS(start(&g, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", 0, NULL), MRTR_OK);
        CHECK_STATUS(mrtr_runner_next(&r, g.call, out, sizeof out, &st),
                     MRTR_ERR_INVALID_ARGUMENT);
        CHECK_EQ_STR(reason_of(g.call), "RunnerOfAnotherCall");
        CHECK(phase(g.call) == MRTR_PHASE_READY);
        stop(&g);
    }
    stop(&f);
}

/* A run whose next leg would need an id past 2^53-1 stops with
 * LIMIT_EXCEEDED before writing it (issue 16: it used to fail the write
 * with INVALID_ARGUMENT, as if the caller had passed a bad id). */
static void test_run_stops_when_the_ids_are_used_up(void) {
    struct fixture f;
    struct step steps[1];
    struct script s;
    mrtr_run_callbacks cb = callbacks();
    mrtr_event ev;
    uint8_t buf[2048];

    steps[0].expect = HEAD(9007199254740991) SHED_P "}}";
    steps[0].reply = "{\"jsonrpc\":\"2.0\",\"id\":9007199254740991,\"result\":{"
                     "\"resultType\":\"input_required\",\"requestState\":\"s1\"}}";
    steps[0].notify_first = 0;
    memset(&s, 0, sizeof s);
    s.steps = steps;
    s.n = 1;
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"crunch\"}", 0, NULL), MRTR_OK);
    cb.first_id = INT64_C(9007199254740991);
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, sizeof buf, &ev), MRTR_ERR_LIMIT_EXCEEDED);
    CHECK(s.sends == 1 && s.nsleeps == 1);
    CHECK(phase(f.call) == MRTR_PHASE_READY);
    CHECK(!progress(f.call).has_next_id);
    /* Run again: nothing left to send with. */
    cb.first_id = 0;
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, sizeof buf, &ev), MRTR_ERR_LIMIT_EXCEEDED);
    CHECK(s.sends == 1);
    stop(&f);
}

static void test_run_waits_the_backoff_of_state_only_rounds(void) {
    struct fixture f;
    struct step steps[4];
    struct script s;
    mrtr_run_callbacks cb = callbacks();
    mrtr_event ev;
    uint8_t buf[2048];
    steps[0].expect = HEAD(1) SHED_P "}}";
    steps[0].reply = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\","
                     "\"requestState\":\"s1\"}}";
    steps[1].expect = HEAD(2) SHED_P ",\"requestState\":\"s1\"}}";
    steps[1].reply = "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"input_required\","
                     "\"requestState\":\"s2\"}}";
    steps[2].expect = HEAD(3) SHED_P ",\"requestState\":\"s2\"}}";
    steps[2].reply = "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"resultType\":\"input_required\","
                     "\"requestState\":\"s3\"}}";
    steps[3].expect = HEAD(4) SHED_P ",\"requestState\":\"s3\"}}";
    steps[3].reply = "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"content\":[]}}";
    steps[0].notify_first = steps[1].notify_first = steps[2].notify_first =
        steps[3].notify_first = 0;
    memset(&s, 0, sizeof s);
    s.steps = steps;
    s.n = 4;
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"crunch\"}", 0, NULL), MRTR_OK);
    /* A first id no request can carry is refused before anything is sent
     * (issue 16: it used to be accepted, and the run sent nothing). */
    cb.first_id = INT64_MIN;
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, sizeof buf, &ev), MRTR_ERR_INVALID_ARGUMENT);
    cb.first_id = INT64_C(9007199254740992);
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, sizeof buf, &ev), MRTR_ERR_INVALID_ARGUMENT);
    CHECK(s.sends == 0 && s.reads == 0);
    cb.first_id = 0;
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, sizeof buf, &ev), MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_COMPLETE);
    CHECK(s.nsleeps == 3);
    CHECK(s.sleeps[0] == 50 && s.sleeps[1] == 100 && s.sleeps[2] == 200);
    stop(&f);
}

static const char FORM_ASK[] =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\","
    "\"inputRequests\":{\"k\":{\"method\":\"elicitation/create\",\"params\":{\"message\":\"m\","
    "\"requestedSchema\":{\"type\":\"object\",\"properties\":{}}}}}}}";

static void test_run_outcomes_and_misuse(void) {
    struct fixture f;
    struct step steps[2];
    struct script s;
    mrtr_run_callbacks cb = callbacks();
    mrtr_event ev;
    uint8_t buf[2048];


    /* An RPC error: MRTR_ERR_RPC_ERROR, with the event written. */
    steps[0].expect = NULL;
    steps[0].reply = "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"nope\"}}";
    steps[0].notify_first = 0;
    memset(&s, 0, sizeof s);
    s.steps = steps;
    s.n = 1;
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", MRTR_CAP_ELICITATION_FORM,
                       NULL),
                 MRTR_OK);
    memset(&ev, 0, sizeof ev);
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, sizeof buf, &ev), MRTR_ERR_RPC_ERROR);
    CHECK_EQ_STR(reason_of(f.call), "RpcError");
    CHECK(ev.kind == MRTR_EVENT_RPC_ERROR && ev.error_code == -32601);
    CHECK_EQ_BYTES(buf + ev.error_message.offset, ev.error_message.len, "\"nope\"");
    stop(&f);

    /* A declined elicitation is answered `decline` by the runner. */
    steps[0].reply = FORM_ASK;
    steps[1].expect = HEAD(2) "{" META("{\"elicitation\":{\"form\":{}}}") ",\"name\":\"t\","
                              "\"inputResponses\":{\"k\":{\"action\":\"decline\"}}}}";
    steps[1].reply = "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}";
    steps[1].notify_first = 0;
    memset(&s, 0, sizeof s);
    s.steps = steps;
    s.n = 2;
    cb.elicit = decline_ui;
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", MRTR_CAP_ELICITATION_FORM,
                       NULL),
                 MRTR_OK);
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, sizeof buf, &ev), MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_COMPLETE);
    stop(&f);

    /* Abort, no callback, a callback that does not answer: the call stays
     * ANSWERING and a later run continues it. */
    memset(&s, 0, sizeof s);
    s.steps = steps;
    s.n = 2;
    cb.elicit = abort_ui;
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", MRTR_CAP_ELICITATION_FORM,
                       NULL),
                 MRTR_OK);
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, sizeof buf, &ev), MRTR_ERR_ABORTED);
    CHECK_EQ_STR(reason_of(f.call), "Aborted");
    CHECK(phase(f.call) == MRTR_PHASE_ANSWERING);
    cb.elicit = NULL;
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, sizeof buf, &ev), MRTR_ERR_UNANSWERED_INPUT);
    CHECK_EQ_STR(reason_of(f.call), "NoCallback");
    cb.elicit = lazy_ui;
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, sizeof buf, &ev), MRTR_ERR_UNANSWERED_INPUT);
    CHECK_EQ_STR(reason_of(f.call), "Unanswered");
    cb.elicit = decline_ui;
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, sizeof buf, &ev), MRTR_OK);
    CHECK(s.sends == 2);
    stop(&f);

    /* A failing transport stops the run; the call stays SENT and resumes
     * with a resend under a fresh id. */
    memset(&s, 0, sizeof s);
    s.steps = steps;
    s.n = 2;
    s.fail = 5;
    steps[0].reply = "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}";
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", 0, NULL), MRTR_OK);
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, sizeof buf, &ev), MRTR_ERR_ABORTED);
    CHECK_EQ_STR(reason_of(f.call), "Transport");
    CHECK(phase(f.call) == MRTR_PHASE_SENT);
    s.fail = 0;
    steps[0].expect = HEAD(2) "{" META("{}") ",\"name\":\"t\"}}";
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, sizeof buf, &ev), MRTR_OK);
    stop(&f);
    steps[0].expect = NULL;

    /* A message that did not fit: the transport reports its length, the
     * run says how large its buffer must be (request + message), and a run
     * with that buffer resends the request in flight and completes. */
    {
        static uint8_t big[8192];
        static const char first[] = HEAD(1) "{" META("{}") ",\"name\":\"t\"}}";
        size_t needed = 0;
        memset(&s, 0, sizeof s);
        s.steps = steps;
        s.n = 1;
        s.lie = sizeof buf;
        steps[0].reply = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}";
        cb.out_needed = &needed;
        CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", 0, NULL), MRTR_OK);
        CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, sizeof buf, &ev), MRTR_ERR_BUFFER_TOO_SMALL);
        CHECK(needed == strlen(first) + strlen(steps[0].reply) + sizeof buf);
        CHECK(phase(f.call) == MRTR_PHASE_SENT);
        CHECK(needed <= sizeof big);
        memset(&s, 0, sizeof s);
        s.steps = steps;
        s.n = 1;
        steps[0].reply = "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}";
        CHECK_STATUS(mrtr_run(f.call, &cb, &s, big, needed, &ev), MRTR_OK);
        CHECK(s.sends == 1);
        cb.out_needed = NULL;
        stop(&f);
    }

    /* Misuse: NULL arguments, a buffer too small, a bad id step. */
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", 0, NULL), MRTR_OK);
    memset(&s, 0, sizeof s);
    s.steps = steps;
    s.n = 1;
    CHECK_STATUS(mrtr_run(NULL, &cb, &s, buf, sizeof buf, &ev), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_run(f.call, NULL, &s, buf, sizeof buf, &ev), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, NULL, sizeof buf, &ev), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, sizeof buf, NULL), MRTR_ERR_NULL_POINTER);
    cb.transport = NULL;
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, sizeof buf, &ev), MRTR_ERR_NULL_POINTER);
    cb.transport = scripted;
    cb.id_step = -1;
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, sizeof buf, &ev), MRTR_ERR_INVALID_ARGUMENT);
    cb.id_step = 0;
    stop(&f);
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", 0, NULL), MRTR_OK);
    {
        size_t needed = 0;
        cb.out_needed = &needed;
        CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, 40, &ev), MRTR_ERR_BUFFER_TOO_SMALL);
        CHECK(needed == strlen(HEAD(1) "{" META("{}") ",\"name\":\"t\"}}"));
        cb.out_needed = NULL;
    }
    CHECK(phase(f.call) == MRTR_PHASE_READY);
    CHECK(s.sends == 0);
    /* The buffer may not lie in the workspace. */
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, (uint8_t *)f.ws + 64, 512, &ev),
                 MRTR_ERR_INVALID_ARGUMENT);
    stop(&f);
}

static void test_run_caps_rounds_and_unrelated_messages(void) {
    struct fixture f;
    struct step steps[12];
    struct script s;
    mrtr_run_callbacks cb = callbacks();
    mrtr_event ev;
    uint8_t buf[4096];
    mrtr_failure fail;
    static char asks[12][256];
    size_t i;
    cb.elicit = decline_ui;
    for (i = 0; i < 12; i++) {
        sprintf(asks[i],
                "{\"jsonrpc\":\"2.0\",\"id\":%u,\"result\":{\"resultType\":\"input_required\","
                "\"inputRequests\":{\"k\":{\"method\":\"elicitation/create\",\"params\":{"
                "\"message\":\"m\",\"requestedSchema\":{\"type\":\"object\"}}}}}}",
                (unsigned)(i + 1));
        steps[i].expect = NULL;
        steps[i].reply = asks[i];
        steps[i].notify_first = 0;
    }
    memset(&s, 0, sizeof s);
    s.steps = steps;
    s.n = 12;
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", MRTR_CAP_ELICITATION_FORM,
                       NULL),
                 MRTR_OK);
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, sizeof buf, &ev), MRTR_ERR_ROUND_CAP);
    CHECK(s.sends == 11);
    CHECK_STATUS(mrtr_call_failure(f.call, &fail), MRTR_OK);
    CHECK(fail.kind == MRTR_FAILURE_TOO_MANY_ROUNDS && fail.limit == 10);
    stop(&f);

    /* Unrelated messages while waiting: up to max_unrelated, then the run
     * stops with the call still SENT. */
    memset(&s, 0, sizeof s);
    steps[0].notify_first = 2;
    steps[0].reply = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}";
    s.steps = steps;
    s.n = 1;
    cb.max_unrelated = 1;
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", 0, NULL), MRTR_OK);
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, sizeof buf, &ev), MRTR_ERR_LIMIT_EXCEEDED);
    CHECK_EQ_STR(reason_of(f.call), "TooManyUnrelated");
    CHECK(s.reads == 1);
    CHECK(phase(f.call) == MRTR_PHASE_SENT);
    stop(&f);
    memset(&s, 0, sizeof s);
    s.steps = steps;
    s.n = 1;
    cb.max_unrelated = 2;
    CHECK_STATUS(start(&f, MRTR_METHOD_TOOLS_CALL, "{\"name\":\"t\"}", 0, NULL), MRTR_OK);
    CHECK_STATUS(mrtr_run(f.call, &cb, &s, buf, sizeof buf, &ev), MRTR_OK);
    CHECK(s.reads == 2 && s.sends == 1);
    CHECK(ev.kind == MRTR_EVENT_COMPLETE);
    stop(&f);
}

void suite_run(void) {
    RUN(test_run_drives_the_work_item_flow);
    RUN(test_runner_steps_drive_the_work_item_flow);
    RUN(test_run_follows_the_task_to_its_end);
    RUN(test_run_waits_the_backoff_of_state_only_rounds);
    RUN(test_run_stops_when_the_ids_are_used_up);
    RUN(test_run_outcomes_and_misuse);
    RUN(test_run_caps_rounds_and_unrelated_messages);
}
