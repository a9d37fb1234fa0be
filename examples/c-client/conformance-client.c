/*
 * mrtr-conformance-client: the client adapter the MCP conformance suite
 * runs for its client scenarios (`conformance client --command ...`). The
 * runner starts a scenario server and appends its URL as the last
 * argument (and names the scenario in MCP_CONFORMANCE_SCENARIO).
 *
 * The adapter lists the server's tools (tools/list), leaves out those whose
 * x-mcp-header designations are invalid (mrtr_tool_list, SEP-2243)
 * and calls the others with mrtr_run: the calls the runner names in
 * MCP_CONFORMANCE_CONTEXT ("toolCalls", with their arguments) when it names
 * any, else every tool with a plain value for each required argument (and,
 * in json-schema-2020-12-preservation, the echo tool with the focal tool's
 * inputSchema, verbatim). Designated arguments go out as Mcp-Param-*
 * headers too. It then lists the resources and prompts and reads the first
 * of each (prompts/get and resources/read through mrtr_run as well); a
 * server without them answers with an error, which is not a failure. A
 * request refused with -32022 is sent once more when the server lists
 * 2026-07-28 among its versions (mrtr_version_retry). Every question is
 * answered automatically: forms accepted
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
#include "toollist.h"
#include "transport.h"

/* Largest message one response may carry (the call's default limit). */
#define MAX_MESSAGE_BYTES (1u << 20)
/* Most tools the adapter calls. */
#define MAX_TOOLS 64
/* Most calls the runner's context names. */
#define MAX_CONTEXT_CALLS 16
/* Ids: each call numbers its requests from its own base, so ids never
 * repeat across the calls of one run (calls interleave). */
#define IDS_PER_CALL 1000

static const uint32_t CAPS =
    MRTR_CAP_ELICITATION_FORM | MRTR_CAP_ELICITATION_URL | MRTR_CAP_SAMPLING | MRTR_CAP_ROOTS;

struct adapter {
    transport *tp;
    const char *scenario;
    int64_t next_base;
    tl_client rpc; /* plain requests (lists): ids below the first call's */
    char *tools[MAX_TOOLS];
    char *schemas[MAX_TOOLS]; /* each tool's inputSchema, the raw JSON */
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
    case MRTR_FIELD_INTEGER: {
        /* The bound is exact JSON text; the app converts it if it wants. */
        char bound[64] = "0";
        if (fd->has_minimum && fd->minimum_json.len < sizeof bound) {
            memcpy(bound, fd->minimum_json.ptr, fd->minimum_json.len);
            bound[fd->minimum_json.len] = '\0';
        }
        snprintf(out, len, "%lld", fd->has_minimum ? (long long)strtod(bound, NULL) + 1 : 1LL);
        break;
    }
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

/* `text` as a JSON string into a new allocation; NULL when out of memory. */
static char *json_string(const char *text, size_t len) {
    size_t need = 0;
    char *out;
    if (mrtr_json_write_string((mrtr_str){text, len}, NULL, 0, &need) != MRTR_ERR_BUFFER_TOO_SMALL ||
        (out = malloc(need + 1)) == NULL) {
        return NULL;
    }
    if (mrtr_json_write_string((mrtr_str){text, len}, (uint8_t *)out, need, &need) != MRTR_OK) {
        free(out);
        return NULL;
    }
    out[need] = '\0';
    return out;
}

/* Runs one multi round-trip request (tools/call, prompts/get,
 * resources/read) to its end with mrtr_run; `schema` is the called tool's
 * inputSchema (its designated arguments become Mcp-Param-* headers) or
 * NULL. 0 when it completed. */
static int run_request(struct adapter *a, enum mrtr_method method, const char *label, const char *params,
                       const char *schema) {
    mrtr_call_config cfg;
    mrtr_run_callbacks cb;
    mrtr_call *call = NULL;
    mrtr_event ev;
    void *ws = NULL;
    size_t ws_len = 0;
    uint8_t *buf = malloc(2 * MAX_MESSAGE_BYTES);
    enum mrtr_status st;
    uint32_t rounds = 0;
    if (buf == NULL || mrtr_call_workspace_size(NULL, &ws_len) != MRTR_OK || (ws = malloc(ws_len)) == NULL) {
        free(buf);
        fprintf(stderr, "%s: out of memory\n", label);
        return 1;
    }
    memset(&cfg, 0, sizeof cfg);
    cfg.method = method;
    cfg.params.ptr = params;
    cfg.params.len = strlen(params);
    cfg.caps = CAPS;
    cfg.client_name.ptr = "mrtr-conformance-client";
    cfg.client_name.len = strlen(cfg.client_name.ptr);
    cfg.client_version.ptr = mrtr_version();
    cfg.client_version.len = strlen(mrtr_version());
    st = mrtr_call_init(ws, ws_len, &cfg, &call);
    if (st != MRTR_OK) {
        fprintf(stderr, "%s: mrtr_call_init: %s\n", label, mrtr_status_str(st));
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
    fprintf(stderr, "%s %s (ids from %lld)\n", label, params, (long long)cb.first_id);
    tp_set_tool_schema(a->tp, schema, schema != NULL ? strlen(schema) : 0);
    st = mrtr_run(call, &cb, a, buf, 2 * MAX_MESSAGE_BYTES, &ev);
    tp_set_tool_schema(a->tp, NULL, 0);
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

/* {"name":NAME,"arguments":ARGS} in a new allocation. */
static char *call_params(const char *name, const char *args, size_t args_len) {
    char *n = json_string(name, strlen(name));
    size_t len;
    char *out;
    if (n == NULL) {
        return NULL;
    }
    len = strlen(n) + args_len + 32;
    out = malloc(len);
    if (out != NULL) {
        snprintf(out, len, "{\"name\":%s,\"arguments\":%.*s}", n, (int)args_len, args);
    }
    free(n);
    return out;
}

/* A plain value for each required argument of `schema`, as an object. */
static char *plain_arguments(const char *schema) {
    jl_span s = {schema, strlen(schema)}, props, req, name, prop, type;
    jl_iter it;
    size_t cap = 2, o = 0;
    char *out;
    if (!jl_get(s, "properties", &props)) {
        props.p = "{}";
        props.n = 2;
    }
    if (jl_get(s, "required", &req) && jl_array_begin(req, &it)) {
        while (jl_array_next(&it, &name)) {
            cap += name.n + 32;
        }
    }
    if ((out = malloc(cap + 1)) == NULL) {
        return NULL;
    }
    out[o++] = '{';
    if (jl_get(s, "required", &req) && jl_array_begin(req, &it)) {
        while (jl_array_next(&it, &name)) {
            char *key = jl_string_dup(name, NULL);
            const char *value = "\"conformance\"";
            if (key == NULL) {
                continue;
            }
            if (jl_get(props, key, &prop) && jl_get(prop, "type", &type)) {
                if (jl_string_equals(type, "integer") || jl_string_equals(type, "number")) {
                    value = "1";
                } else if (jl_string_equals(type, "boolean")) {
                    value = "true";
                } else if (jl_string_equals(type, "object")) {
                    value = "{}";
                } else if (jl_string_equals(type, "array")) {
                    value = "[]";
                }
            }
            free(key);
            o += (size_t)snprintf(out + o, cap + 1 - o, "%s%.*s:%s", o > 1 ? "," : "", (int)name.n, name.p,
                                  value);
        }
    }
    out[o++] = '}';
    out[o] = '\0';
    return out;
}

/* Calls tool `t` to its end; 0 when it completed. */
static int run_tool(struct adapter *a, size_t t) {
    char *args = NULL, *params;
    int rc;
    a->called[t] = true;
    if (a->scenario != NULL && strcmp(a->scenario, "json-schema-2020-12-preservation") == 0 &&
        strcmp(a->tools[t], "json_schema_echo") == 0) {
        /* The scenario's echo: another tool's inputSchema, as received. */
        size_t f;
        for (f = 0; f < a->ntools && args == NULL; f++) {
            if (f != t) {
                size_t len = strlen(a->schemas[f]) + 16;
                if ((args = malloc(len)) != NULL) {
                    snprintf(args, len, "{\"schema\":%s}", a->schemas[f]);
                }
            }
        }
    }
    if (args == NULL) {
        args = plain_arguments(a->schemas[t]);
    }
    params = args != NULL ? call_params(a->tools[t], args, strlen(args)) : NULL;
    free(args);
    if (params == NULL) {
        fprintf(stderr, "%s: out of memory\n", a->tools[t]);
        return 1;
    }
    rc = run_request(a, MRTR_METHOD_TOOLS_CALL, "tools/call", params, a->schemas[t]);
    free(params);
    return rc;
}

/* tools/list, every page: keeps the tools whose x-mcp-header designations
 * are valid (toollist.c reads them with mrtr_tool_list / mrtr_tool_next). */
static int list_tools(struct adapter *a) {
    tl_tools list;
    size_t i;
    if (tl_list_tools(&a->rpc, &list) != TL_OK) {
        fprintf(stderr, "%s\n", a->rpc.err);
        return -1;
    }
    if (list.skipped > 0) {
        fprintf(stderr, "tools/list: skipping %zu entries that are not tools\n", list.skipped);
    }
    for (i = 0; i < list.len && a->ntools < MAX_TOOLS; i++) {
        tl_tool *t = &list.items[i];
        if (!t->usable) {
            fprintf(stderr, "tools/list: leaving out %s (invalid x-mcp-header designations)\n", t->name);
            continue;
        }
        /* The adapter keeps the strings: they leave the list. */
        a->tools[a->ntools] = t->name;
        a->schemas[a->ntools++] = t->schema;
        t->name = NULL;
        t->schema = NULL;
    }
    for (i = 0; i < list.len; i++) {
        free(list.items[i].name);
        free(list.items[i].schema);
    }
    free(list.items);
    fprintf(stderr, "tools/list: %zu tools kept\n", a->ntools);
    return 0;
}

/* The calls MCP_CONFORMANCE_CONTEXT names ({"toolCalls":[{"name":..,
 * "arguments":{..}}]}), each to a listed tool. -1 when it names none. */
static int run_context_calls(struct adapter *a, const char *context) {
    jl_span c = {context, strlen(context)}, calls, call, name, args;
    jl_iter it;
    int ran = 0;
    if (!jl_valid(c) || !jl_get(c, "toolCalls", &calls) || !jl_array_begin(calls, &it)) {
        return -1;
    }
    while (jl_array_next(&it, &call) && ran < MAX_CONTEXT_CALLS) {
        char *n, *params;
        size_t t;
        if (!jl_get(call, "name", &name) || (n = jl_string_dup(name, NULL)) == NULL) {
            continue;
        }
        for (t = 0; t < a->ntools && strcmp(a->tools[t], n) != 0; t++) {
        }
        if (t == a->ntools) {
            fprintf(stderr, "context: %s is not a usable tool, not called\n", n);
            free(n);
            continue;
        }
        if (!jl_get(call, "arguments", &args)) {
            args.p = "{}";
            args.n = 2;
        }
        a->called[t] = true;
        params = call_params(n, args.p, args.n);
        if (params == NULL || run_request(a, MRTR_METHOD_TOOLS_CALL, "tools/call", params, a->schemas[t]) != 0) {
            a->failures++;
        }
        free(params);
        free(n);
        ran++;
    }
    return ran > 0 ? 0 : -1;
}

/* Lists `list_method`'s items and calls `method` on the first one with
 * its `key` ("uri" or "name"). A server without them is fine. */
static void read_first(struct adapter *a, const char *list_method, const char *member, const char *key,
                       enum mrtr_method method, const char *label) {
    char *resp, *params;
    size_t len;
    jl_span m, result, items, item, v;
    jl_iter it;
    if (tl_request(&a->rpc, list_method, "", &resp, &len) != TL_OK) {
        fprintf(stderr, "%s: none\n", list_method);
        return;
    }
    m.p = resp;
    m.n = len;
    if (jl_get(m, "result", &result) && jl_get(result, member, &items) && jl_array_begin(items, &it) &&
        jl_array_next(&it, &item) && jl_get(item, key, &v) && jl_kind(v) == '"' &&
        (params = malloc(v.n + 16)) != NULL) {
        snprintf(params, v.n + 16, "{\"%s\":%.*s}", key, (int)v.n, v.p);
        if (run_request(a, method, label, params, NULL) != 0) {
            a->failures++;
        }
        free(params);
    } else {
        fprintf(stderr, "%s: nothing to %s\n", list_method, label);
    }
    free(resp);
}

int main(int argc, char **argv) {
    struct adapter a;
    transport_options topt;
    char err[512];
    const char *scenario = getenv("MCP_CONFORMANCE_SCENARIO");
    const char *context = getenv("MCP_CONFORMANCE_CONTEXT");
    size_t t;
    if (argc < 2) {
        fprintf(stderr, "usage: mrtr-conformance-client [ARGS...] SERVER_URL\n");
        return 2;
    }
    memset(&a, 0, sizeof a);
    a.scenario = scenario;
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
    a.rpc.tp = a.tp;
    a.rpc.next_id = 1;
    a.rpc.caps = CAPS;
    a.rpc.name = "mrtr-conformance-client";
    if (list_tools(&a) != 0) {
        a.failures++;
    }
    if (context == NULL || run_context_calls(&a, context) != 0) {
        for (t = 0; t < a.ntools; t++) {
            if (!a.called[t] && strstr(a.tools[t], "unrelated") == NULL && run_tool(&a, t) != 0) {
                a.failures++;
            }
        }
        run_parallel_tools(&a); /* when no call had an input round */
    }
    read_first(&a, "resources/list", "resources", "uri", MRTR_METHOD_RESOURCES_READ, "resources/read");
    read_first(&a, "prompts/list", "prompts", "name", MRTR_METHOD_PROMPTS_GET, "prompts/get");
    for (t = 0; t < a.ntools; t++) {
        free(a.tools[t]);
        free(a.schemas[t]);
    }
    tp_close(a.tp);
    fprintf(stderr, "%s\n", a.failures == 0 ? "all calls completed" : "some calls failed");
    return a.failures == 0 ? 0 : 1;
}
