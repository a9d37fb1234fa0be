/*
 * mrtr-conformance-client: the client adapter the MCP conformance suite
 * runs for its client scenarios (`conformance client --command ...`). The
 * runner starts a scenario server and appends its URL as the last
 * argument (and names the scenario in MCP_CONFORMANCE_SCENARIO).
 *
 * The adapter lists the server's tools (tools/list) and calls each one
 * with mrtr_run, answering every question automatically: forms accepted
 * with each field's default or a plain value of its type, URL elicitations
 * accepted, sampling answered with a fixed text, roots with none. A tool
 * whose name says "unrelated" is called in the middle of another call's
 * input round (a second mrtr_call while the first waits for its retry):
 * the parallel-isolation rule says nothing of the first call may leak into
 * it. C99 on include/mrtr.h and the client's transport.c.
 *
 * Exit status: 0 when every call completed, 1 otherwise.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jsonlite.h"
#include "mrtr.h"
#include "transport.h"

/* Largest message one response may carry (the call's default limit). */
#define MAX_MESSAGE_BYTES (1u << 20)
/* Most tools the adapter calls. */
#define MAX_TOOLS 64
/* Ids: each call numbers its requests from its own base, so ids never
 * repeat across the calls of one run (calls interleave). */
#define IDS_PER_CALL 1000

static const uint32_t CAPS =
    MRTR_CAP_ELICITATION_FORM | MRTR_CAP_ELICITATION_URL | MRTR_CAP_SAMPLING | MRTR_CAP_ROOTS;

struct adapter {
    transport *tp;
    uint8_t *buf; /* request + response of the run in progress */
    size_t buf_len;
    int64_t next_base;
    char *tools[MAX_TOOLS];
    bool called[MAX_TOOLS];
    size_t ntools;
    int failures;
};

static int run_tool(struct adapter *a, size_t t);

/* ---- mrtr_run callbacks ---------------------------------------------------- */

static int32_t on_transport(void *user, const uint8_t *req, size_t req_len, uint8_t *resp, size_t resp_cap,
                            size_t *resp_len) {
    struct adapter *a = user;
    const uint8_t *msg;
    size_t len;
    if (req != NULL && tp_send(a->tp, req, req_len) != 0) {
        fprintf(stderr, "  transport: %s\n", tp_error(a->tp));
        return 1;
    }
    if (tp_next(a->tp, &msg, &len) != 0) {
        fprintf(stderr, "  transport: %s\n", tp_error(a->tp));
        return 1;
    }
    if (len > resp_cap) {
        fprintf(stderr, "  a message of %zu bytes does not fit the buffer (%zu)\n", len, resp_cap);
        return 1;
    }
    memcpy(resp, msg, len);
    *resp_len = len;
    return 0;
}

/* Calls the tools meant to run beside another call ("unrelated"), once. */
static void run_parallel_tools(struct adapter *a) {
    size_t t;
    for (t = 0; t < a->ntools; t++) {
        if (!a->called[t] && strstr(a->tools[t], "unrelated") != NULL) {
            fprintf(stderr, "  (calling %s while this call waits for its retry)\n", a->tools[t]);
            if (run_tool(a, t) != 0) {
                a->failures++;
            }
        }
    }
}

/* A plain value for a form field: its default, else one of its type. */
static void field_value(mrtr_str schema, size_t f, const struct mrtr_form_field *fd, char *out, size_t len) {
    struct mrtr_form_option opt;
    if (fd->default_json.len > 0 && fd->default_json.len < len) {
        memcpy(out, fd->default_json.ptr, fd->default_json.len);
        out[fd->default_json.len] = '\0';
        return;
    }
    switch (fd->kind) {
    case MRTR_FIELD_BOOLEAN:
        snprintf(out, len, "true");
        break;
    case MRTR_FIELD_NUMBER:
    case MRTR_FIELD_INTEGER:
        snprintf(out, len, "%lld", fd->has_minimum ? (long long)fd->minimum + 1 : 1LL);
        break;
    case MRTR_FIELD_SINGLE_SELECT:
    case MRTR_FIELD_MULTI_SELECT:
        if (mrtr_form_option_at(schema, f, 0, &opt) == MRTR_OK && (opt.escaped & MRTR_FORM_TEXT_OPTION_VALUE) == 0) {
            snprintf(out, len, "%s\"%.*s\"%s", fd->kind == MRTR_FIELD_MULTI_SELECT ? "[" : "", (int)opt.value.len,
                     opt.value.ptr, fd->kind == MRTR_FIELD_MULTI_SELECT ? "]" : "");
        } else {
            snprintf(out, len, "null");
        }
        break;
    default:
        snprintf(out, len, "\"conformance\"");
        break;
    }
}

static int32_t on_elicit(void *user, mrtr_call *call, size_t index, const mrtr_input *in) {
    struct adapter *a = user;
    char content[4096];
    size_t count = 0, f, o = 0;
    enum mrtr_status st;
    run_parallel_tools(a);
    if (in->kind == MRTR_INPUT_ELICIT_URL) {
        st = mrtr_call_answer_elicit(call, index, MRTR_ELICIT_ACCEPT, (mrtr_str){NULL, 0});
        fprintf(stderr, "  URL elicitation: accept\n");
        return st == MRTR_OK ? MRTR_CB_ANSWERED : MRTR_CB_ABORT;
    }
    if (mrtr_form_parse(in->requested_schema, &count, NULL) != MRTR_OK) {
        fprintf(stderr, "  form: schema refused, declining\n");
        return MRTR_CB_DECLINE;
    }
    o += (size_t)snprintf(content + o, sizeof content - o, "{");
    for (f = 0; f < count && o < sizeof content; f++) {
        struct mrtr_form_field fd;
        char value[512];
        if (mrtr_form_field_at(in->requested_schema, f, &fd) != MRTR_OK || (fd.escaped & MRTR_FORM_TEXT_NAME) != 0) {
            continue;
        }
        field_value(in->requested_schema, f, &fd, value, sizeof value);
        o += (size_t)snprintf(content + o, sizeof content - o, "%s\"%.*s\":%s", o > 1 ? "," : "",
                              (int)fd.name.len, fd.name.ptr, value);
    }
    if (o + 2 > sizeof content) {
        return MRTR_CB_DECLINE;
    }
    o += (size_t)snprintf(content + o, sizeof content - o, "}");
    if (mrtr_form_validate(in->requested_schema, (mrtr_str){content, o}, NULL) != MRTR_OK) {
        fprintf(stderr, "  form: no valid automatic answer, declining\n");
        return MRTR_CB_DECLINE;
    }
    st = mrtr_call_answer_elicit(call, index, MRTR_ELICIT_ACCEPT, (mrtr_str){content, o});
    fprintf(stderr, "  form: accept %s\n", content);
    return st == MRTR_OK ? MRTR_CB_ANSWERED : MRTR_CB_ABORT;
}

static int32_t on_sampling(void *user, mrtr_call *call, size_t index, const mrtr_input *in) {
    static const char reply[] = "{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"ok\"},"
                                "\"model\":\"mrtr-conformance-client\",\"stopReason\":\"endTurn\"}";
    (void)in;
    run_parallel_tools(user);
    fprintf(stderr, "  sampling: fixed reply\n");
    return mrtr_call_answer_json(call, index, (mrtr_str){reply, sizeof reply - 1}) == MRTR_OK ? MRTR_CB_ANSWERED
                                                                                              : MRTR_CB_ABORT;
}

static int32_t on_roots(void *user, mrtr_call *call, size_t index, const mrtr_input *in) {
    (void)in;
    run_parallel_tools(user);
    fprintf(stderr, "  roots: none\n");
    return mrtr_call_answer_roots(call, index, NULL, 0) == MRTR_OK ? MRTR_CB_ANSWERED : MRTR_CB_ABORT;
}

static void on_sleep(void *user, uint64_t ms) {
    struct timespec ts;
    (void)user;
    ts.tv_sec = (time_t)(ms / 1000);
    ts.tv_nsec = (long)(ms % 1000) * 1000000L;
    nanosleep(&ts, NULL);
}

/* ---- calls ------------------------------------------------------------------ */

/* Calls tool `t` to its end with mrtr_run; 0 when it completed. */
static int run_tool(struct adapter *a, size_t t) {
    mrtr_call_config cfg;
    mrtr_run_callbacks cb;
    mrtr_call *call = NULL;
    mrtr_event ev;
    void *ws;
    size_t ws_len = 0;
    char params[512];
    uint8_t *buf = malloc(2 * MAX_MESSAGE_BYTES);
    enum mrtr_status st;
    uint32_t rounds = 0;
    size_t name_len = 0, n;
    static const char head[] = "{\"name\":", tail[] = ",\"arguments\":{}}";
    a->called[t] = true;
    /* The name as a JSON string: whatever the server called its tool. */
    st = mrtr_json_write_string((mrtr_str){a->tools[t], strlen(a->tools[t])}, (uint8_t *)params + sizeof head - 1,
                                sizeof params - sizeof head - sizeof tail, &name_len);
    memcpy(params, head, sizeof head - 1);
    n = sizeof head - 1 + name_len;
    if (st == MRTR_OK) {
        memcpy(params + n, tail, sizeof tail); /* with its NUL */
        n += sizeof tail - 1;
    }
    if (buf == NULL || st != MRTR_OK ||
        mrtr_call_workspace_size(NULL, &ws_len) != MRTR_OK || (ws = malloc(ws_len)) == NULL) {
        free(buf);
        fprintf(stderr, "%s: out of memory\n", a->tools[t]);
        return 1;
    }
    memset(&cfg, 0, sizeof cfg);
    cfg.method = MRTR_METHOD_TOOLS_CALL;
    cfg.params.ptr = params;
    cfg.params.len = n;
    cfg.caps = CAPS;
    cfg.client_name.ptr = "mrtr-conformance-client";
    cfg.client_name.len = strlen(cfg.client_name.ptr);
    cfg.client_version.ptr = mrtr_version();
    cfg.client_version.len = strlen(mrtr_version());
    st = mrtr_call_init(ws, ws_len, &cfg, &call);
    if (st != MRTR_OK) {
        fprintf(stderr, "%s: mrtr_call_init: %s\n", a->tools[t], mrtr_status_str(st));
        free(ws);
        free(buf);
        return 1;
    }
    memset(&cb, 0, sizeof cb);
    cb.transport = on_transport;
    cb.elicit = on_elicit;
    cb.sampling = on_sampling;
    cb.roots = on_roots;
    cb.sleep_ms = on_sleep;
    cb.first_id = a->next_base;
    a->next_base += IDS_PER_CALL;
    fprintf(stderr, "tools/call %s (ids from %lld)\n", a->tools[t], (long long)cb.first_id);
    st = mrtr_run(call, &cb, a, buf, 2 * MAX_MESSAGE_BYTES, &ev);
    {
        mrtr_progress pr;
        rounds = mrtr_call_progress(call, &pr) == MRTR_OK ? pr.round : 0;
    }
    if (st == MRTR_OK && ev.kind == MRTR_EVENT_COMPLETE) {
        jl_span r;
        r.p = (const char *)buf + ev.result.offset;
        r.n = ev.result.len;
        fprintf(stderr, "  complete after %u round%s: ", rounds, rounds == 1 ? "" : "s");
        jl_compact(stderr, r, 300);
        fprintf(stderr, "\n");
    } else if (st == MRTR_ERR_RPC_ERROR) {
        fprintf(stderr, "  JSON-RPC error %lld\n", (long long)ev.error_code);
    } else {
        struct mrtr_failure f;
        fprintf(stderr, "  failed: %s", mrtr_status_str(st));
        if (mrtr_call_failure(call, &f) == MRTR_OK && f.reason != NULL) {
            fprintf(stderr, " (%s)", f.reason);
        }
        fprintf(stderr, "\n");
    }
    free(ws);
    free(buf);
    return st == MRTR_OK && ev.kind == MRTR_EVENT_COMPLETE ? 0 : 1;
}

/* tools/list is not a multi round-trip request, so it is written here
 * (with the per-request _meta every 2026-07-28 request carries). */
static int list_tools(struct adapter *a) {
    char req[1024];
    const uint8_t *msg;
    size_t len;
    jl_span m, result, tools, tool, name;
    jl_iter it;
    int n = snprintf(req, sizeof req,
                     "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                     "\"io.modelcontextprotocol/protocolVersion\":\"%s\","
                     "\"io.modelcontextprotocol/clientCapabilities\":"
                     "{\"elicitation\":{\"form\":{},\"url\":{}},\"sampling\":{},\"roots\":{}},"
                     "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"mrtr-conformance-client\","
                     "\"version\":\"%s\"}}}}",
                     mrtr_protocol_version(), mrtr_version());
    if (n < 0 || (size_t)n >= sizeof req) {
        return -1;
    }
    if (tp_send(a->tp, (const uint8_t *)req, (size_t)n) != 0 || tp_next(a->tp, &msg, &len) != 0) {
        fprintf(stderr, "tools/list: %s\n", tp_error(a->tp));
        return -1;
    }
    m.p = (const char *)msg;
    m.n = len;
    if (!jl_valid(m) || !jl_get(m, "result", &result) || !jl_get(result, "tools", &tools) ||
        !jl_array_begin(tools, &it)) {
        fprintf(stderr, "tools/list: no tools in the answer\n");
        return -1;
    }
    while (jl_array_next(&it, &tool) && a->ntools < MAX_TOOLS) {
        char *s;
        if (jl_get(tool, "name", &name) && (s = jl_string_dup(name, NULL)) != NULL) {
            a->tools[a->ntools++] = s;
        }
    }
    fprintf(stderr, "tools/list: %zu tools\n", a->ntools);
    return 0;
}

int main(int argc, char **argv) {
    struct adapter a;
    transport_options topt;
    char err[512];
    const char *scenario = getenv("MCP_CONFORMANCE_SCENARIO");
    size_t t;
    if (argc < 2) {
        fprintf(stderr, "usage: mrtr-conformance-client [ARGS...] SERVER_URL\n");
        return 2;
    }
    memset(&a, 0, sizeof a);
    a.next_base = IDS_PER_CALL;
    memset(&topt, 0, sizeof topt);
    topt.http_url = argv[argc - 1];
    topt.timeout_ms = 30000;
    topt.max_message_bytes = MAX_MESSAGE_BYTES;
    topt.verbose = getenv("MRTR_VERBOSE") != NULL;
    fprintf(stderr, "mrtr-conformance-client %s: scenario %s, server %s\n", mrtr_version(),
            scenario != NULL ? scenario : "(unnamed)", topt.http_url);
    a.tp = tp_open(&topt, err, sizeof err);
    if (a.tp == NULL) {
        fprintf(stderr, "transport: %s\n", err);
        return 1;
    }
    if (list_tools(&a) != 0) {
        a.failures++;
    }
    for (t = 0; t < a.ntools; t++) {
        if (!a.called[t] && strstr(a.tools[t], "unrelated") == NULL && run_tool(&a, t) != 0) {
            a.failures++;
        }
    }
    run_parallel_tools(&a); /* when no call had an input round */
    for (t = 0; t < a.ntools; t++) {
        free(a.tools[t]);
    }
    tp_close(a.tp);
    fprintf(stderr, "%s\n", a.failures == 0 ? "all calls completed" : "some calls failed");
    return a.failures == 0 ? 0 : 1;
}
