/*
 * Tasks through the one mrtr_call handle: a call that follows its task in
 * place, a task restarted from a stored id, both dialects end to end from
 * the C API (every request compared byte for byte), cancel, failure,
 * save/restore, and misuse.
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
    mrtr_call *task;
};

/* The config that restarts task `id` of `dialect`. */
static mrtr_call_config task_config(uint32_t dialect, mrtr_str id, uint32_t flags, uint32_t caps) {
    mrtr_call_config c;
    memset(&c, 0, sizeof c);
    c.task_dialect = dialect;
    c.task_id = id;
    c.flags = flags;
    c.caps = caps;
    c.client_name = str_of("ExampleClient");
    c.client_version = str_of("1.0.0");
    return c;
}

static mrtr_status tstart(struct tfix *t, const mrtr_call_config *c) {
    t->len = 0;
    t->task = NULL;
    CHECK_STATUS(mrtr_call_workspace_size(c->limits, &t->len), MRTR_OK);
    t->ws = ws_new(t->len);
    return mrtr_call_init(t->ws, t->len, c, &t->task);
}

static mrtr_task_request next_request(const mrtr_call *t) { return progress(t).task_request; }

#define DETAILED(id, status, extra)                                            \
    "{\"jsonrpc\":\"2.0\",\"id\":" #id ",\"result\":{\"resultType\":\"complete\","              \
    "\"taskId\":\"b-7\",\"status\":\"" status "\",\"createdAt\":\"2026-07-28T10:00:00Z\","     \
    "\"lastUpdatedAt\":\"2026-07-28T10:00:01Z\",\"ttlMs\":null" extra "}}"

/* The rest of the extension flow after the first tasks/get (id first),
 * on any handle in the task flow at b-7 with a 500 ms hint. */
static void extension_flow_from_first_poll(mrtr_call *task, int64_t first) {
    mrtr_event ev;
    uint8_t *done;
    mrtr_input in;
    mrtr_str result;
    mrtr_progress pr;
    char get[1024];
    static const char done_msg[] = DETAILED(
        5, "completed",
        ",\"result\":{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":"
        "\"deployed\"}],\"isError\":false}");
    pr = progress(task);
    CHECK(pr.flow == MRTR_FLOW_TASK && pr.phase == MRTR_PHASE_READY);
    CHECK(pr.task_dialect == MRTR_TASK_DIALECT_EXTENSION);
    CHECK(pr.poll_ms == 500);
    CHECK(pr.task_request == MRTR_TASK_REQUEST_GET);
    CHECK(pr.has_next_id && pr.next_id == first);
    CHECK_EQ_BYTES(pr.task_id.ptr, pr.task_id.len, "\"b-7\"");
    CHECK(first == 2);
    check_leg(task, 2, GET(2));
    CHECK(progress(task).polls == 1);
    CHECK_STATUS(feed(task, DETAILED(2, "working", ",\"pollIntervalMs\":2000"), &ev, NULL),
                 MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_TASK_POLL && ev.wait_ms == 2000);
    CHECK(progress(task).poll_ms == 2000);
    check_leg(task, 3, GET(3));
    CHECK_STATUS(feed(task,
                       DETAILED(3, "input_required",
                                ",\"inputRequests\":{\"confirm\":{\"method\":\"elicitation/"
                                "create\",\"params\":{\"message\":\"Deploy?\",\"requestedSchema\":"
                                "{\"type\":\"object\",\"properties\":{\"ok\":{\"type\":\"boolean\""
                                "}}}}}}"),
                       &ev, NULL),
                 MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_INPUT_REQUIRED && ev.input_count == 1);
    CHECK(phase(task) == MRTR_PHASE_ANSWERING);
    CHECK(progress(task).round == 1 && progress(task).input_count == 1);
    CHECK_STATUS(mrtr_call_input_at(task, 0, &in), MRTR_OK);
    CHECK(in.kind == MRTR_INPUT_ELICIT_FORM);
    CHECK_EQ_BYTES(in.message.ptr, in.message.len, "Deploy?");
    CHECK_STATUS(mrtr_call_answer_elicit(task, 0, MRTR_ELICIT_ACCEPT, str_of("{\"ok\":true}")),
                 MRTR_OK);
    CHECK(progress(task).answered_count == 1);
    CHECK(next_request(task) == MRTR_TASK_REQUEST_RESPOND);
    check_leg(task, 4,
               "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tasks/update\",\"params\":{" EXT_META
               ",\"taskId\":\"b-7\",\"inputResponses\":{\"confirm\":{\"action\":\"accept\","
               "\"content\":{\"ok\":true}}}}}");
    CHECK_STATUS(feed(task, "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"resultType\":\"complete\"}}",
                       &ev, NULL),
                 MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_TASK_POLL && ev.wait_ms == 2000);
    snprintf(get, sizeof get, "%s", GET(5));
    check_leg(task, 5, get);
    CHECK_STATUS(feed(task, done_msg, &ev, &done), MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_COMPLETE);
    CHECK_EQ_BYTES(done + ev.result.offset, ev.result.len,
                   "{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":"
                   "\"deployed\"}],\"isError\":false}");
    CHECK_STATUS(mrtr_call_result(task, done, sizeof done_msg - 1, &result), MRTR_OK);
    CHECK((const uint8_t *)result.ptr == done + ev.result.offset);
    CHECK(phase(task) == MRTR_PHASE_DONE);
    free(done);
}

static void test_a_call_follows_its_extension_task_in_place(void) {
    void *cws;
    size_t clen = 0;
    mrtr_call *call = NULL;
    mrtr_call_config cc;
    mrtr_event ev;
    uint8_t out[2048];
    size_t n = 0;
    uint8_t *created;
    struct tfix t;
    mrtr_call_config tc;
    mrtr_str id;
    static const char created_msg[] =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"task\",\"taskId\":\"b-7\","
        "\"status\":\"working\",\"createdAt\":\"2026-07-28T10:00:00Z\",\"lastUpdatedAt\":"
        "\"2026-07-28T10:00:00Z\",\"ttlMs\":60000,\"pollIntervalMs\":500}}";

    memset(&cc, 0, sizeof cc);
    cc.method = MRTR_METHOD_TOOLS_CALL;
    cc.params = str_of("{\"name\":\"build\"}");
    cc.caps = MRTR_CAP_ELICITATION_FORM | MRTR_CAP_TASKS;
    cc.client_name = str_of("ExampleClient");
    cc.client_version = str_of("1.0.0");
    CHECK_STATUS(mrtr_call_workspace_size(NULL, &clen), MRTR_OK);
    cws = ws_new(clen);
    CHECK_STATUS(mrtr_call_init(cws, clen, &cc, &call), MRTR_OK);
    CHECK(progress(call).flow == MRTR_FLOW_CALL);
    CHECK(progress(call).task_request == MRTR_TASK_REQUEST_NONE);
    CHECK(progress(call).task_dialect == MRTR_TASK_DIALECT_NONE);
    CHECK_STATUS(mrtr_call_write_request(call, 1, out, sizeof out, &n), MRTR_OK);
    created = heap_copy(created_msg, sizeof created_msg - 1);
    CHECK_STATUS(mrtr_call_feed(call, created, sizeof created_msg - 1, &ev), MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_TASK_CREATED);
    CHECK(ev.task_dialect == MRTR_TASK_DIALECT_EXTENSION);
    CHECK(ev.task_status == MRTR_TASK_STATUS_WORKING);
    CHECK(ev.has_task_poll_ms && ev.task_poll_ms == 500);
    CHECK_EQ_BYTES(created + ev.task_id.offset, ev.task_id.len, "\"b-7\"");

    /* A second handle restarts the same task from the event's id token,
     * as an app does after a restart that kept only the id. */
    id.ptr = (const char *)created + ev.task_id.offset;
    id.len = ev.task_id.len;
    tc = task_config((uint32_t)ev.task_dialect, id, MRTR_CALL_TASK_ID_JSON, cc.caps);
    tc.task_poll_ms = ev.task_poll_ms;
    tc.first_id = 2;
    CHECK_STATUS(tstart(&t, &tc), MRTR_OK);
    free(created); /* the id was copied, by both handles */

    /* The call itself follows its task in place. */
    extension_flow_from_first_poll(call, progress(call).next_id);
    free(cws);
    extension_flow_from_first_poll(t.task, progress(t.task).next_id);
    free(t.ws);
}

#define SEED_META                                                              \
    "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","  \
    "\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{\"form\":{}}}"

static void test_seed_dialect_echoes_request_state(void) {
    struct tfix t;
    mrtr_call_config tc = task_config(MRTR_TASK_DIALECT_SEED, str_of("t\"1"),
                                      MRTR_CALL_NO_CLIENT_INFO, MRTR_CAP_ELICITATION_FORM);
    mrtr_event ev;
    CHECK_STATUS(tstart(&t, &tc), MRTR_OK);
    check_leg(t.task, 1,
               "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/get\",\"params\":{" SEED_META
               "},\"taskId\":\"t\\\"1\"}}");
    CHECK_STATUS(feed(t.task,
                       "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"taskId\":\"t\\u00221\","
                       "\"status\":\"input_required\"}}",
                       &ev, NULL),
                 MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_TASK_NEXT);
    CHECK(next_request(t.task) == MRTR_TASK_REQUEST_RESULT);
    free(leg(t.task, 2));
    CHECK_STATUS(feed(t.task,
                       "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"input_required\","
                       "\"inputRequests\":{\"k\":{\"method\":\"elicitation/create\",\"params\":{"
                       "\"message\":\"m\",\"requestedSchema\":{\"type\":\"object\"}}}},"
                       "\"requestState\":\"x\\/y\"}}",
                       &ev, NULL),
                 MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_INPUT_REQUIRED);
    CHECK_STATUS(mrtr_call_answer_elicit(t.task, 0, MRTR_ELICIT_DECLINE, str_of("")), MRTR_OK);
    check_leg(t.task, 3,
               "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tasks/input_response\",\"params\":{" SEED_META
               ",\"io.modelcontextprotocol/related-task\":{\"taskId\":\"t\\\"1\"}},"
               "\"inputResponses\":{\"k\":{\"action\":\"decline\"}},\"requestState\":\"x\\/y\"}}");
    CHECK_STATUS(feed(t.task, "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}", &ev, NULL), MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_TASK_POLL && ev.wait_ms == 1000);
    free(t.ws);
}

static void test_cancel_failure_and_save(void) {
    struct tfix t;
    mrtr_call_config tc = task_config(MRTR_TASK_DIALECT_EXTENSION, str_of("b-7"), 0,
                                      MRTR_CAP_ELICITATION_FORM | MRTR_CAP_TASKS);
    mrtr_event ev;
    uint8_t out[2048], *msg, *saved;
    size_t n = 0, need = 0;
    char text[32];
    void *ws2;
    mrtr_call *t2 = NULL;
    mrtr_failure fail;

    /* Cancel from READY. */
    CHECK_STATUS(tstart(&t, &tc), MRTR_OK);
    CHECK_STATUS(mrtr_call_write_cancel(t.task, 1, out, sizeof out, &n), MRTR_OK);
    CHECK_EQ_TEXT(out, n,
                  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/cancel\",\"params\":{" EXT_META
                  ",\"taskId\":\"b-7\"}}");
    CHECK(next_request(t.task) == MRTR_TASK_REQUEST_CANCEL);
    CHECK_STATUS(feed(t.task, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", &ev, NULL), MRTR_OK);
    CHECK(ev.kind == MRTR_EVENT_TASK_CANCELLED);
    CHECK(phase(t.task) == MRTR_PHASE_DONE);
    /* Cancelled: done without a result. */
    CHECK_STATUS(mrtr_call_result(t.task, out, 4, (mrtr_str *)(void *)text), MRTR_ERR_WRONG_STATE);
    free(t.ws);

    /* A failed task reports the error with spans. */
    CHECK_STATUS(tstart(&t, &tc), MRTR_OK);
    free(leg(t.task, 1));
    CHECK_STATUS(feed(t.task,
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
    free(leg(t.task, 1));
    CHECK_STATUS(feed(t.task,
                       DETAILED(1, "input_required",
                                ",\"inputRequests\":{\"c\":{\"method\":\"elicitation/create\","
                                "\"params\":{\"message\":\"Sure?\",\"requestedSchema\":{\"type\":"
                                "\"object\"}}}}"),
                       &ev, NULL),
                 MRTR_OK);
    CHECK_STATUS(mrtr_call_save(t.task, NULL, 0, &need), MRTR_ERR_BUFFER_TOO_SMALL);
    saved = (uint8_t *)ws_new(need);
    CHECK_STATUS(mrtr_call_save(t.task, saved, need, &n), MRTR_OK);
    ws2 = ws_new(t.len);
    CHECK_STATUS(mrtr_call_restore(ws2, t.len, NULL, saved, need, &t2, NULL), MRTR_OK);
    free(t.ws);
    free(saved);
    CHECK(phase(t2) == MRTR_PHASE_ANSWERING);
    /* A call save is not a task save and the reverse. */
    CHECK_STATUS(mrtr_call_answer_error(t2, 0, 3), MRTR_OK);
    CHECK_STATUS(mrtr_call_failure(t2, &fail), MRTR_OK);
    CHECK(fail.kind == MRTR_FAILURE_ANSWERED_WITH_ERROR && fail.code == 3);
    free(ws2);
}

/* Task ids at the ends of +-(2^53-1): both ends are ids, one past is
 * refused at init, and after the top id there is no next one (issue 16). */
static void test_task_ids_at_the_ends_of_the_range(void) {
    static const int64_t MAX = INT64_C(9007199254740991);
    mrtr_call_config tc = task_config(MRTR_TASK_DIALECT_EXTENSION, str_of("b-7"), 0,
                                      MRTR_CAP_TASKS);
    size_t need = 0, n = 0;
    uint8_t *ws;
    uint8_t out[1024];
    mrtr_call *task = NULL;
    int64_t id = 0;
    CHECK_STATUS(mrtr_call_workspace_size(NULL, &need), MRTR_OK);
    ws = (uint8_t *)ws_new(need);
    tc.first_id = -MAX - 1;
    CHECK_STATUS(mrtr_call_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.first_id = INT64_MAX;
    CHECK_STATUS(mrtr_call_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.first_id = -MAX;
    CHECK_STATUS(mrtr_call_init(ws, need, &tc, &task), MRTR_OK);
    id = progress(task).next_id;
    CHECK(id == -MAX);
    CHECK_STATUS(mrtr_call_write_request(task, id, out, sizeof out, &n), MRTR_OK);
    CHECK(progress(task).has_next_id && progress(task).next_id == -MAX + 1);
    tc.first_id = MAX;
    CHECK_STATUS(mrtr_call_init(ws, need, &tc, &task), MRTR_OK);
    id = progress(task).next_id;
    CHECK(id == MAX);
    CHECK_STATUS(mrtr_call_write_request(task, id, out, sizeof out, &n), MRTR_OK);
    CHECK(!progress(task).has_next_id);
    CHECK_STATUS(mrtr_call_write_cancel(task, MAX + 1, out, sizeof out, &n),
                 MRTR_ERR_INVALID_ARGUMENT);
    free(ws);
}

static void test_task_init_misuse(void) {
    struct tfix t;
    mrtr_call_config tc = task_config(MRTR_TASK_DIALECT_EXTENSION, str_of("b-7"), 0,
                                      MRTR_CAP_TASKS);
    size_t need = 0, reported = 0;
    uint8_t *ws;
    mrtr_call *task = NULL;
    mrtr_call_limits l;
    CHECK_STATUS(mrtr_call_limits_default(&l), MRTR_OK);
    CHECK(l.max_polls == 100000 && l.default_poll_ms == 1000 && l.min_poll_ms == 100 &&
          l.max_poll_ms == 60000);
    CHECK_EQ_SIZE(l.max_params_bytes, 16384);
    CHECK_STATUS(mrtr_call_workspace_size(NULL, &need), MRTR_OK);
    ws = (uint8_t *)ws_new(need + 8);
    CHECK_STATUS(mrtr_call_init(NULL, need, &tc, &task), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_init(ws, need, NULL, &task), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_init(ws, need, &tc, NULL), MRTR_ERR_NULL_POINTER);
    CHECK_STATUS(mrtr_call_init(ws + 4, need, &tc, &task), MRTR_ERR_MISALIGNED);
    tc.out_needed = &reported;
    CHECK_STATUS(mrtr_call_init(ws, need - 1, &tc, &task), MRTR_ERR_WORKSPACE_TOO_SMALL);
    CHECK_EQ_SIZE(reported, need);
    tc.task_dialect = 0; /* a call, but with a task id and no method */
    CHECK_STATUS(mrtr_call_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.task_dialect = MRTR_TASK_DIALECT_EXTENSION;
    tc.method = MRTR_METHOD_TOOLS_CALL; /* a task with a method */
    CHECK_STATUS(mrtr_call_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.method = 0;
    tc.params = str_of("{\"name\":\"x\"}"); /* a task with params */
    CHECK_STATUS(mrtr_call_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.params = str_of("");
    tc.task_dialect = 3;
    CHECK_STATUS(mrtr_call_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.task_dialect = MRTR_TASK_DIALECT_EXTENSION;
    tc.caps = MRTR_CAP_ELICITATION_FORM; /* no tasks extension */
    CHECK_STATUS(mrtr_call_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.caps = MRTR_CAP_TASKS;
    /* The first id must be a JSON-safe integer (issue 16). */
    tc.first_id = INT64_MIN;
    CHECK_STATUS(mrtr_call_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.first_id = INT64_C(9007199254740992);
    CHECK_STATUS(mrtr_call_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.first_id = 0;
    tc.task_id = str_of("");
    CHECK_STATUS(mrtr_call_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.task_id = str_of("b-7");
    tc.flags = MRTR_CALL_TASK_ID_JSON; /* not a JSON string */
    CHECK_STATUS(mrtr_call_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.task_id = str_of("\"\"");
    CHECK_STATUS(mrtr_call_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.flags = 4;
    CHECK_STATUS(mrtr_call_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    tc.flags = 0;
    tc.task_id = str_of("b-7");
    l.min_poll_ms = 70000;
    tc.limits = &l;
    CHECK_STATUS(mrtr_call_init(ws, need, &tc, &task), MRTR_ERR_INVALID_ARGUMENT);
    CHECK(task == NULL);
    tc.limits = NULL;
    CHECK_STATUS(mrtr_call_init(ws, need, &tc, &task), MRTR_OK);
    /* Wrong states. */
    {
        mrtr_event ev;
        uint8_t out[8];
        size_t n = 0;
        CHECK_STATUS(feed(task, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", &ev, NULL),
                     MRTR_ERR_WRONG_STATE);
        CHECK_STATUS(mrtr_call_resend(task, 1, out, sizeof out, &n), MRTR_ERR_WRONG_STATE);
        CHECK_STATUS(mrtr_call_answer_json(task, 0, str_of("{}")), MRTR_ERR_WRONG_STATE);
    }
    (void)t;
    free(ws);
}

void suite_task(void) {
    RUN(test_a_call_follows_its_extension_task_in_place);
    RUN(test_seed_dialect_echoes_request_state);
    RUN(test_cancel_failure_and_save);
    RUN(test_task_init_misuse);
    RUN(test_task_ids_at_the_ends_of_the_range);
}
