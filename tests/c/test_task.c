/*
 * mrtr_task_*: both task dialects end to end from the C API (every request
 * compared byte for byte), cancel, failure, save/restore, and misuse.
 */
#include "testutil.h"

#define CLIENT_INFO                                                            \
    "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"ExampleClient\","     \
    "\"version\":\"1.0.0\"}"
#define EXT_META                                                               \
    "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","  \
    "\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{\"form\":{}},"   \
    "\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}," CLIENT_INFO "}"
#define GET(id)                                                                \
    "{\"jsonrpc\":\"2.0\",\"id\":" #id ",\"method\":\"tasks/get\",\"params\":{" EXT_META   \
    ",\"taskId\":\"b-7\"}}"

struct tfix {
    void *ws;
    size_t len;
    mrtr_task *task;
};

static mrtr_task_config task_config(uint32_t dialect, mrtr_str id, uint32_t flags, uint32_t caps) {
    mrtr_task_config c;
    memset(&c, 0, sizeof c);
    c.dialect = dialect;
    c.task_id = id;
    c.flags = flags;
    c.caps = caps;
    c.client_name = str_of("ExampleClient");
    c.client_version = str_of("1.0.0");
    return c;
}

static mrtr_status tstart(struct tfix *t, const mrtr_task_config *c) {
    t->len = 0;
    t->task = NULL;
    CHECK_STATUS(mrtr_task_workspace_size(c->limits, &t->len), MRTR_OK);
    t->ws = ws_new(t->len);
    return mrtr_task_init(t->ws, t->len, c, &t->task);
}

/* Writes the task's next request: size query, one byte short, exact. */
static char *tleg(mrtr_task *task, int64_t id) {
    size_t need = 0, n = 0;
    uint8_t *out;
    char *text;
    CHECK_STATUS(mrtr_task_write_request(task, id, NULL, 0, &need), MRTR_ERR_BUFFER_TOO_SMALL);
    out = (uint8_t *)ws_new(need);
    CHECK_STATUS(mrtr_task_write_request(task, id, out, need - 1, &n), MRTR_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_SIZE(n, need);
    CHECK_STATUS(mrtr_task_write_request(task, id, out, need, &n), MRTR_OK);
    CHECK_EQ_SIZE(n, need);
    text = (char *)ws_new(n + 1);
    memcpy(text, out, n);
    text[n] = '\0';
    free(out);
    return text;
}

static void check_tleg(mrtr_task *task, int64_t id, const char *expected) {
    char *got = tleg(task, id);
    CHECK_EQ_TEXT(got, strlen(got), expected);
    free(got);
}

static mrtr_status tfeed(mrtr_task *task, const char *msg, mrtr_event *ev, uint8_t **keep) {
    size_t len = strlen(msg);
    uint8_t *copy = heap_copy(msg, len);
    mrtr_status s = mrtr_task_feed(task, copy, len, ev);
    if (keep != NULL) {
        *keep = copy;
    } else {
        free(copy);
    }
    return s;
}

static mrtr_task_request next_request(const mrtr_task *t) {
    mrtr_task_request r = (mrtr_task_request)0;
    CHECK_STATUS(mrtr_task_next_request(t, &r), MRTR_OK);
    return r;
}

static mrtr_phase tphase(const mrtr_task *t) {
    mrtr_phase p = (mrtr_phase)0;
    CHECK_STATUS(mrtr_task_state(t, &p), MRTR_OK);
    return p;
}

#define DETAILED(id, status, extra)                                            \
    "{\"jsonrpc\":\"2.0\",\"id\":" #id ",\"result\":{\"resultType\":\"complete\","              \
    "\"taskId\":\"b-7\",\"status\":\"" status "\",\"createdAt\":\"2026-07-28T10:00:00Z\","     \
    "\"lastUpdatedAt\":\"2026-07-28T10:00:01Z\",\"ttlMs\":null" extra "}}"

static void test_extension_dialect_from_create_task_to_result(void) {
    void *cws;
    size_t clen = 0;
    mrtr_call *call = NULL;
    mrtr_call_config cc;
    mrtr_event ev;
    uint8_t out[2048];
    size_t n = 0;
    uint8_t *created, *done;
    struct tfix t;
    mrtr_task_config tc;
    mrtr_str id;
    uint64_t poll = 0;
    mrtr_input in;
    mrtr_str result;
    static const char created_msg[] =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"task\",\"taskId\":\"b-7\","
        "\"status\":\"working\",\"createdAt\":\"2026-07-28T10:00:00Z\",\"lastUpdatedAt\":"
        "\"2026-07-28T10:00:00Z\",\"ttlMs\":60000,\"pollIntervalMs\":500}}";
    static const char done_msg[] = DETAILED(
        5, "completed",
        ",\"result\":{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":"
        "\"deployed\"}],\"isError\":false}");

    memset(&cc, 0, sizeof cc);
    cc.method = MRTR_METHOD_TOOLS_CALL;
    cc.params = str_of("{\"name\":\"build\"}");
    cc.caps = MRTR_CAP_ELICITATION_FORM | MRTR_CAP_TASKS;
    CHECK_STATUS(mrtr_call_workspace_size(NULL, &clen), MRTR_OK);
    cws = ws_new(clen);
    CHECK_STATUS(mrtr_call_init(cws, clen, &cc, &call), MRTR_OK);
    CHECK_STATUS(mrtr_call_write_request(call, 1, out, sizeof out, &n), MRTR_OK);
    created = heap_copy(created_msg, sizeof created_msg - 1);
    CHECK_STATUS(mrtr_call_feed(call, created, sizeof created_msg - 1, &ev), MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_TASK_CREATED);
    CHECK(ev.task_dialect == MRTR_TASK_DIALECT_EXTENSION);
    CHECK(ev.task_status == MRTR_TASK_STATUS_WORKING);
    CHECK(ev.has_task_poll_ms && ev.task_poll_ms == 500);
    CHECK_EQ_BYTES(created + ev.task_id.offset, ev.task_id.len, "\"b-7\"");

    /* Follow it: the config straight from the event. */
    id.ptr = (const char *)created + ev.task_id.offset;
    id.len = ev.task_id.len;
    tc = task_config((uint32_t)ev.task_dialect, id, MRTR_TASK_ID_JSON, cc.caps);
    tc.poll_ms = ev.task_poll_ms;
    tc.first_id = 2;
    CHECK_STATUS(tstart(&t, &tc), MRTR_OK);
    free(created); /* the id was copied */
    free(cws);
    CHECK_STATUS(mrtr_task_poll_ms(t.task, &poll), MRTR_OK);
    CHECK(poll == 500);
    CHECK(next_request(t.task) == MRTR_TASK_REQUEST_GET);
    {
        int64_t next = 0;
        CHECK_STATUS(mrtr_task_next_id(t.task, &next), MRTR_OK);
        CHECK(next == 2);
    }
    check_tleg(t.task, 2, GET(2));
    CHECK_STATUS(tfeed(t.task, DETAILED(2, "working", ",\"pollIntervalMs\":2000"), &ev, NULL),
                 MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_TASK_POLL && ev.wait_ms == 2000);
    check_tleg(t.task, 3, GET(3));
    CHECK_STATUS(tfeed(t.task,
                       DETAILED(3, "input_required",
                                ",\"inputRequests\":{\"confirm\":{\"method\":\"elicitation/"
                                "create\",\"params\":{\"message\":\"Deploy?\",\"requestedSchema\":"
                                "{\"type\":\"object\",\"properties\":{\"ok\":{\"type\":\"boolean\""
                                "}}}}}}"),
                       &ev, NULL),
                 MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_INPUT_REQUIRED && ev.input_count == 1);
    CHECK(tphase(t.task) == MRTR_PHASE_ANSWERING);
    CHECK_STATUS(mrtr_task_input_at(t.task, 0, &in), MRTR_OK);
    CHECK(in.kind == MRTR_INPUT_ELICIT_FORM);
    CHECK_EQ_BYTES(in.message.ptr, in.message.len, "Deploy?");
    CHECK_STATUS(mrtr_task_answer_elicit(t.task, 0, MRTR_ELICIT_ACCEPT, str_of("{\"ok\":true}")),
                 MRTR_OK);
    CHECK(next_request(t.task) == MRTR_TASK_REQUEST_RESPOND);
    check_tleg(t.task, 4,
               "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tasks/update\",\"params\":{" EXT_META
               ",\"taskId\":\"b-7\",\"inputResponses\":{\"confirm\":{\"action\":\"accept\","
               "\"content\":{\"ok\":true}}}}}");
    CHECK_STATUS(tfeed(t.task, "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"resultType\":\"complete\"}}",
                       &ev, NULL),
                 MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_TASK_POLL && ev.wait_ms == 2000);
    check_tleg(t.task, 5, GET(5));
    CHECK_STATUS(tfeed(t.task, done_msg, &ev, &done), MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_COMPLETE);
    CHECK_EQ_BYTES(done + ev.result.offset, ev.result.len,
                   "{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":"
                   "\"deployed\"}],\"isError\":false}");
    CHECK_STATUS(mrtr_task_result(t.task, done, sizeof done_msg - 1, &result), MRTR_OK);
    CHECK((const uint8_t *)result.ptr == done + ev.result.offset);
    CHECK(tphase(t.task) == MRTR_PHASE_DONE);
    free(done);
    free(t.ws);
}

#define SEED_META                                                              \
    "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","  \
    "\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{\"form\":{}}}"

static void test_seed_dialect_echoes_request_state(void) {
    struct tfix t;
    mrtr_task_config tc = task_config(MRTR_TASK_DIALECT_SEED, str_of("t\"1"),
                                      MRTR_TASK_NO_CLIENT_INFO, MRTR_CAP_ELICITATION_FORM);
    mrtr_event ev;
    CHECK_STATUS(tstart(&t, &tc), MRTR_OK);
    check_tleg(t.task, 1,
               "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/get\",\"params\":{" SEED_META
               "},\"taskId\":\"t\\\"1\"}}");
    CHECK_STATUS(tfeed(t.task,
                       "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"taskId\":\"t\\u00221\","
                       "\"status\":\"input_required\"}}",
                       &ev, NULL),
                 MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_TASK_NEXT);
    CHECK(next_request(t.task) == MRTR_TASK_REQUEST_RESULT);
    free(tleg(t.task, 2));
    CHECK_STATUS(tfeed(t.task,
                       "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"input_required\","
                       "\"inputRequests\":{\"k\":{\"method\":\"elicitation/create\",\"params\":{"
                       "\"message\":\"m\",\"requestedSchema\":{\"type\":\"object\"}}}},"
                       "\"requestState\":\"x\\/y\"}}",
                       &ev, NULL),
                 MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_INPUT_REQUIRED);
    CHECK_STATUS(mrtr_task_answer_elicit(t.task, 0, MRTR_ELICIT_DECLINE, str_of("")), MRTR_OK);
    check_tleg(t.task, 3,
               "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tasks/input_response\",\"params\":{" SEED_META
               ",\"io.modelcontextprotocol/related-task\":{\"taskId\":\"t\\\"1\"}},"
               "\"inputResponses\":{\"k\":{\"action\":\"decline\"}},\"requestState\":\"x\\/y\"}}");
    CHECK_STATUS(tfeed(t.task, "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}", &ev, NULL), MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_TASK_POLL && ev.wait_ms == 1000);
    free(t.ws);
}

static void test_cancel_failure_and_save(void) {
    struct tfix t;
    mrtr_task_config tc = task_config(MRTR_TASK_DIALECT_EXTENSION, str_of("b-7"), 0,
                                      MRTR_CAP_ELICITATION_FORM | MRTR_CAP_TASKS);
    mrtr_event ev;
    uint8_t out[2048], *msg, *saved;
    size_t n = 0, need = 0;
    char text[32];
    void *ws2;
    mrtr_task *t2 = NULL;
    mrtr_failure fail;

    /* Cancel from READY. */
    CHECK_STATUS(tstart(&t, &tc), MRTR_OK);
    CHECK_STATUS(mrtr_task_write_cancel(t.task, 1, out, sizeof out, &n), MRTR_OK);
    CHECK_EQ_TEXT(out, n,
                  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/cancel\",\"params\":{" EXT_META
                  ",\"taskId\":\"b-7\"}}");
    CHECK(next_request(t.task) == MRTR_TASK_REQUEST_CANCEL);
    CHECK_STATUS(tfeed(t.task, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", &ev, NULL), MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_TASK_CANCELLED);
    CHECK(tphase(t.task) == MRTR_PHASE_DONE);
    CHECK_STATUS(mrtr_task_result(t.task, out, 4, (mrtr_str *)(void *)text), MRTR_ERR_NOT_FOUND);
    free(t.ws);

    /* A failed task reports the error with spans. */
    CHECK_STATUS(tstart(&t, &tc), MRTR_OK);
    free(tleg(t.task, 1));
    CHECK_STATUS(tfeed(t.task,
                       DETAILED(1, "failed",
                                ",\"error\":{\"code\":-32000,\"message\":\"disk full\"}"),
                       &ev, &msg),
                 MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_TASK_FAILED && ev.error_code == -32000);
    CHECK_STATUS(mrtr_json_decode_string(msg + ev.error_message.offset, ev.error_message.len,
                                         (uint8_t *)text, sizeof text, &n),
                 MRTR_OK);
    CHECK_EQ_BYTES(text, n, "disk full");
    CHECK(ev.error_data.len == 0);
    free(msg);
    free(t.ws);

    /* Save in ANSWERING, restore elsewhere, continue. */
    CHECK_STATUS(tstart(&t, &tc), MRTR_OK);
    free(tleg(t.task, 1));
    CHECK_STATUS(tfeed(t.task,
                       DETAILED(1, "input_required",
                                ",\"inputRequests\":{\"c\":{\"method\":\"elicitation/create\","
                                "\"params\":{\"message\":\"Sure?\",\"requestedSchema\":{\"type\":"
                                "\"object\"}}}}"),
                       &ev, NULL),
                 MRTR_OK);
    CHECK_STATUS(mrtr_task_save(t.task, NULL, 0, &need), MRTR_ERR_BUFFER_TOO_SMALL);
    saved = (uint8_t *)ws_new(need);
    CHECK_STATUS(mrtr_task_save(t.task, saved, need, &n), MRTR_OK);
    ws2 = ws_new(t.len);
    CHECK_STATUS(mrtr_task_restore(ws2, t.len, NULL, saved, need, &t2), MRTR_OK);
    free(t.ws);
    free(saved);
    CHECK(tphase(t2) == MRTR_PHASE_ANSWERING);
    /* A call save is not a task save and the reverse. */
    CHECK_STATUS(mrtr_task_answer_error(t2, 0, 3), MRTR_OK);
    CHECK_STATUS(mrtr_task_failure(t2, &fail), MRTR_OK);
    CHECK(fail.kind == MRTR_FAILURE_ANSWERED_WITH_ERROR && fail.code == 3);
    free(ws2);
}

/* Task ids at the ends of +-(2^53-1): both ends are ids, one past is
 * refused at init, and after the top id there is no next one (issue 16). */
static void test_task_ids_at_the_ends_of_the_range(void) {
    static const int64_t MAX = INT64_C(9007199254740991);
    mrtr_task_config tc = task_config(MRTR_TASK_DIALECT_EXTENSION, str_of("b-7"), 0,
                                      MRTR_CAP_TASKS);
    size_t need = 0, n = 0;
    uint8_t *ws;
    uint8_t out[1024];
    mrtr_task *task = NULL;
    int64_t id = 0;
    CHECK_STATUS(mrtr_task_workspace_size(NULL, &need), MRTR_OK);
    ws = (uint8_t *)ws_new(need);
    tc.first_id = -MAX - 1;
    CHECK_STATUS(mrtr_task_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.first_id = INT64_MAX;
    CHECK_STATUS(mrtr_task_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.first_id = -MAX;
    CHECK_STATUS(mrtr_task_init(ws, need, &tc, &task), MRTR_OK);
    CHECK_STATUS(mrtr_task_next_id(task, &id), MRTR_OK);
    CHECK(id == -MAX);
    CHECK_STATUS(mrtr_task_write_request(task, id, out, sizeof out, &n), MRTR_OK);
    CHECK_STATUS(mrtr_task_next_id(task, &id), MRTR_OK);
    CHECK(id == -MAX + 1);
    tc.first_id = MAX;
    CHECK_STATUS(mrtr_task_init(ws, need, &tc, &task), MRTR_OK);
    CHECK_STATUS(mrtr_task_next_id(task, &id), MRTR_OK);
    CHECK(id == MAX);
    CHECK_STATUS(mrtr_task_write_request(task, id, out, sizeof out, &n), MRTR_OK);
    CHECK_STATUS(mrtr_task_next_id(task, &id), MRTR_ERR_LIMIT_EXCEEDED);
    CHECK_STATUS(mrtr_task_write_cancel(task, MAX + 1, out, sizeof out, &n),
                 MRTR_ERR_INVALID_ARGUMENT);
    free(ws);
}

static void test_task_init_misuse(void) {
    struct tfix t;
    mrtr_task_config tc = task_config(MRTR_TASK_DIALECT_EXTENSION, str_of("b-7"), 0,
                                      MRTR_CAP_TASKS);
    size_t need = 0, reported = 0;
    uint8_t *ws;
    mrtr_task *task = NULL;
    mrtr_task_limits l;
    CHECK_STATUS(mrtr_task_limits_default(&l), MRTR_OK);
    CHECK(l.max_polls == 100000 && l.default_poll_ms == 1000 && l.min_poll_ms == 100 &&
          l.max_poll_ms == 60000);
    CHECK_EQ_SIZE(l.max_params_bytes, 1024);
    CHECK_STATUS(mrtr_task_workspace_size(NULL, &need), MRTR_OK);
    ws = (uint8_t *)ws_new(need + 8);
    CHECK_STATUS(mrtr_task_init(NULL, need, &tc, &task), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_task_init(ws, need, NULL, &task), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_task_init(ws, need, &tc, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_task_init(ws + 4, need, &tc, &task), MRTR_ERR_MISALIGNED);
    tc.out_needed = &reported;
    CHECK_STATUS(mrtr_task_init(ws, need - 1, &tc, &task), MRTR_ERR_WORKSPACE_TOO_SMALL);
    CHECK_EQ_SIZE(reported, need);
    tc.dialect = 0;
    CHECK_STATUS(mrtr_task_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.dialect = 3;
    CHECK_STATUS(mrtr_task_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.dialect = MRTR_TASK_DIALECT_EXTENSION;
    tc.caps = MRTR_CAP_ELICITATION_FORM; /* no tasks extension */
    CHECK_STATUS(mrtr_task_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.caps = MRTR_CAP_TASKS;
    /* The first id must be a JSON-safe integer (issue 16). */
    tc.first_id = INT64_MIN;
    CHECK_STATUS(mrtr_task_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.first_id = INT64_C(9007199254740992);
    CHECK_STATUS(mrtr_task_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.first_id = 0;
    tc.task_id = str_of("");
    CHECK_STATUS(mrtr_task_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.task_id = str_of("b-7");
    tc.flags = MRTR_TASK_ID_JSON; /* not a JSON string */
    CHECK_STATUS(mrtr_task_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.task_id = str_of("\"\"");
    CHECK_STATUS(mrtr_task_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.flags = 4;
    CHECK_STATUS(mrtr_task_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.flags = 0;
    tc.task_id = str_of("b-7");
    l.min_poll_ms = 70000;
    tc.limits = &l;
    CHECK_STATUS(mrtr_task_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    CHECK(task == NULL);
    tc.limits = NULL;
    CHECK_STATUS(mrtr_task_init(ws, need, &tc, &task), MRTR_OK);
    /* Wrong states. */
    {
        mrtr_event ev;
        uint8_t out[8];
        size_t n = 0;
        CHECK_STATUS(tfeed(task, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", &ev, NULL),
                     MRTR_ERR_WRONG_STATE);
        CHECK_STATUS(mrtr_task_resend(task, 1, out, sizeof out, &n), MRTR_ERR_WRONG_STATE);
        CHECK_STATUS(mrtr_task_answer_json(task, 0, str_of("{}")), MRTR_ERR_WRONG_STATE);
    }
    /* A call handle is not a task. */
    {
        mrtr_phase p;
        t.task = task;
        CHECK_STATUS(mrtr_call_state((const mrtr_call *)(const void *)t.task, &p),
                     MRTR_ERR_INVALID_ARGUMENT);
    }
    free(ws);
}

void suite_task(void) {
    RUN(test_extension_dialect_from_create_task_to_result);
    RUN(test_seed_dialect_echoes_request_state);
    RUN(test_cancel_failure_and_save);
    RUN(test_task_init_misuse);
    RUN(test_task_ids_at_the_ends_of_the_range);
}
