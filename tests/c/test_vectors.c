/*
 * The shared vectors (tests/vectors/, turned into C tables by
 * gen_vectors.py at test time). Every server_response vector is fed to a
 * fresh call as the first response after its request: the outcome category
 * must match `expect`, with the inputs' kinds and decoded keys, the decoded
 * requestState, and the RPC error's code and decoded message. Every
 * client_request vector goes through the server parser: the outcome, the
 * method, the request state, the answers (keys and shapes), the protocol
 * version, the name, uri and task id.
 */
#include "testutil.h"
#include "vectors_table.h"

/* Decodes a JSON string token into a heap buffer; returns its length. */
static size_t decode(const uint8_t *tok, size_t len, uint8_t **out) {
    size_t n = 0;
    *out = NULL;
    if (mrtr_json_decode_string(tok, len, NULL, 0, &n) != MRTR_ERR_BUFFER_TOO_SMALL && n != 0) {
        return (size_t)-1;
    }
    *out = (uint8_t *)ws_new(n);
    if (mrtr_json_decode_string(tok, len, *out, n, &n) != MRTR_OK) {
        return (size_t)-1;
    }
    return n;
}

static int same(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen) {
    return alen == blen && (alen == 0 || memcmp(a, b, alen) == 0);
}

/* Runs one vector; returns 1 when the call concludes what `expect` says. */
static int run_vector(const struct vector *v) {
    mrtr_call_limits l;
    mrtr_call_config cfg;
    size_t len = 0, n = 0, i;
    void *ws;
    mrtr_call *call = NULL;
    uint8_t out[4096];
    uint8_t *msg;
    mrtr_event ev;
    mrtr_status s;
    mrtr_failure fail;
    int ok = 1;

    /* Regions large enough that only the protocol limits of the vector
     * format apply (depth 32, 1 MiB, 64 inputs, 256-byte keys). */
    if (mrtr_call_limits_default(&l) != MRTR_OK) {
        return 0;
    }
    l.max_inputs_bytes = (size_t)1 << 20;
    l.max_state_bytes = (size_t)1 << 20;
    memset(&cfg, 0, sizeof cfg);
    cfg.method = v->method;
    cfg.params = str_of(v->method == MRTR_METHOD_RESOURCES_READ ? "{\"uri\":\"file:///x\"}"
                                                                : "{\"name\":\"t\"}");
    cfg.caps = v->caps;
    cfg.limits = &l;
    if (mrtr_call_workspace_size(&l, &len) != MRTR_OK) {
        return 0;
    }
    ws = ws_new(len);
    if (mrtr_call_init(ws, len, &cfg, &call) != MRTR_OK ||
        mrtr_call_write_request(call, v->id, out, sizeof out, &n) != MRTR_OK) {
        free(ws);
        return 0;
    }
    msg = heap_copy(v->bytes, v->len);
    memset(&ev, 0, sizeof ev);
    s = mrtr_call_feed(call, msg, v->len, &ev);
    switch (v->outcome) {
    case 1:
        ok = s == MRTR_OK && ev.kind == MRTR_EVENT_COMPLETE;
        break;
    case 2:
        if (s != MRTR_OK) {
            ok = 0;
            break;
        }
        if (v->inputs == 0) {
            ok = ev.kind == MRTR_EVENT_RETRY_AFTER;
        } else {
            ok = ev.kind == MRTR_EVENT_INPUT_REQUIRED && ev.input_count == v->inputs;
        }
        for (i = 0; ok && i < v->inputs; i++) {
            mrtr_input in;
            uint8_t key[512];
            size_t klen = 0;
            static const char kinds[] = " FUSR";
            ok = mrtr_call_input_at(call, i, &in) == MRTR_OK &&
                 kinds[(int)in.kind] == v->kinds[i] &&
                 mrtr_call_input_text(call, i, MRTR_TEXT_KEY, key, sizeof key, &klen) ==
                     MRTR_OK &&
                 same(key, klen, v->keys[i].bytes, v->keys[i].len);
        }
        if (ok) {
            mrtr_progress pr;
            mrtr_status st = mrtr_call_progress(call, &pr);
            mrtr_str token = pr.request_state;
            if (st == MRTR_OK && token.len == 0) {
                st = MRTR_ERR_NOT_FOUND;
            }
            if (!v->has_state) {
                ok = st == MRTR_ERR_NOT_FOUND;
            } else {
                uint8_t *decoded = NULL;
                size_t dlen = st == MRTR_OK
                                  ? decode((const uint8_t *)token.ptr, token.len, &decoded)
                                  : (size_t)-1;
                ok = dlen != (size_t)-1 && same(decoded, dlen, v->state, v->state_len);
                free(decoded);
            }
        }
        break;
    case 3:
        ok = s == MRTR_OK && ev.kind == MRTR_EVENT_RPC_ERROR && ev.error_code == v->code;
        if (ok) {
            uint8_t *decoded = NULL;
            size_t dlen = decode(msg + ev.error_message.offset, ev.error_message.len, &decoded);
            ok = dlen != (size_t)-1 && same(decoded, dlen, v->message, v->message_len);
            free(decoded);
        }
        break;
    default:
        ok = s != MRTR_OK && mrtr_call_failure(call, &fail) == MRTR_OK;
        if (!ok) {
            break;
        }
        if (strcmp(v->error, "json") == 0) {
            ok = fail.kind == MRTR_FAILURE_JSON &&
                 (s == MRTR_ERR_JSON || s == MRTR_ERR_LIMIT_EXCEEDED);
        } else if (strcmp(v->error, "envelope") == 0) {
            ok = fail.kind == MRTR_FAILURE_ENVELOPE && s == MRTR_ERR_ENVELOPE;
        } else {
            ok = fail.kind == MRTR_FAILURE_PROTOCOL &&
                 (s == MRTR_ERR_PROTOCOL_VIOLATION || s == MRTR_ERR_UNDECLARED_CAPABILITY ||
                  s == MRTR_ERR_LIMIT_EXCEEDED);
        }
        break;
    }
    if (!ok) {
        printf("  vector %s: status %s, event kind %d, input_count %zu\n", v->name,
               mrtr_status_str((int32_t)s), (int)ev.kind, ev.input_count);
    }
    free(msg);
    free(ws);
    return ok;
}

static void test_every_server_response_vector(void) {
    size_t i, passed = 0, total = sizeof VECTORS / sizeof VECTORS[0];
    size_t by_outcome[5] = {0, 0, 0, 0, 0};
    for (i = 0; i < total; i++) {
        int ok = run_vector(&VECTORS[i]);
        CHECK(ok);
        if (ok) {
            passed++;
            by_outcome[VECTORS[i].outcome]++;
        }
    }
    printf("  vectors: %zu of %zu agree (complete %zu, input_required %zu, rpc_error %zu, "
           "invalid %zu); %d skipped:\n",
           passed, total, by_outcome[1], by_outcome[2], by_outcome[3], by_outcome[4],
           VECTORS_SKIPPED_COUNT);
    for (i = 0; i < (size_t)VECTORS_SKIPPED_COUNT; i++) {
        printf("    %s (%s)\n", VECTORS_SKIPPED[i].name, VECTORS_SKIPPED[i].why);
    }
    /* The shared set has 209 server_response vectors; a table much smaller
     * means the generator lost some. */
    CHECK(total >= 190);
}

/* Whether a JSON token view decodes to the expected optional text. */
static int token_is(mrtr_str token, const struct vector_text *want) {
    uint8_t *decoded = NULL;
    size_t n;
    int ok;
    if (!want->present) {
        return token.len == 0;
    }
    if (token.len == 0) {
        return 0;
    }
    n = decode((const uint8_t *)token.ptr, token.len, &decoded);
    ok = n != (size_t)-1 && same(decoded, n, want->bytes, want->len);
    free(decoded);
    return ok;
}

static const char *const METHOD_NAMES[] = {
    NULL,          "tools/call",  "prompts/get",          "resources/read", "tasks/get",
    "tasks/result", "tasks/cancel", "tasks/input_response", "tasks/update",
};

/* Runs one client_request vector through the server parser (SEP-era
 * requests without _meta are the app's policy, so they are parsed with
 * MRTR_SERVER_META_OPTIONAL, as the vector format says). */
static int run_request_vector(const struct request_vector *v) {
    uint8_t *msg = heap_copy(v->bytes, v->len);
    mrtr_server_request req;
    mrtr_server_error err;
    mrtr_status s;
    int ok = 1;
    size_t i;
    memset(&req, 0, sizeof req);
    memset(&err, 0, sizeof err);
    s = mrtr_server_parse_request(msg, v->len, MRTR_SERVER_META_OPTIONAL, &req, &err);
    if (v->outcome == 4) {
        const char *category;
        if (s == MRTR_OK) {
            /* A notification or a response cannot carry a call. */
            category = req.kind == MRTR_INCOMING_REQUEST ? "none" : "envelope";
        } else {
            category = err.code == -32700 ? "json" : err.code == -32600 ? "envelope" : "protocol";
        }
        ok = strcmp(category, v->error) == 0;
    } else {
        ok = s == MRTR_OK && req.kind == MRTR_INCOMING_REQUEST;
        if (ok) {
            const char *named = METHOD_NAMES[(int)req.method];
            if (named != NULL) {
                ok = same((const uint8_t *)named, strlen(named), v->method.bytes, v->method.len);
            } else {
                ok = token_is(req.method_json, &v->method);
            }
        }
        ok = ok && (req.request_state.len > 0) == (v->has_state != 0) &&
             req.input_response_count == v->responses &&
             token_is(req.protocol_version, &v->version) &&
             token_is(req.name, &v->target_name) && token_is(req.uri, &v->uri) &&
             token_is(req.task_id, &v->task_id);
        for (i = 0; ok && i < v->responses; i++) {
            mrtr_server_answer a;
            mrtr_str key;
            mrtr_status st;
            key.ptr = (const char *)v->keys[i].bytes;
            key.len = v->keys[i].len;
            st = mrtr_server_input_response(req.input_responses, key, MRTR_ANSWER_NONE, &a, NULL);
            if (st == MRTR_OK) {
                ok = a.kind != MRTR_ANSWER_NONE && a.wrapped == (v->shapes[i] == 'W');
            } else {
                /* Present but of no known shape: judged only when looked up. */
                ok = st == MRTR_ERR_PROTOCOL_VIOLATION;
            }
        }
    }
    if (!ok) {
        printf("  request vector %s: status %s, kind %d, code %d\n", v->name,
               mrtr_status_str((int32_t)s), (int)req.kind, (int)err.code);
    }
    free(msg);
    return ok;
}

static void test_every_client_request_vector(void) {
    size_t i, passed = 0, total = sizeof REQUEST_VECTORS / sizeof REQUEST_VECTORS[0];
    for (i = 0; i < total; i++) {
        int ok = run_request_vector(&REQUEST_VECTORS[i]);
        CHECK(ok);
        passed += ok ? 1 : 0;
    }
    printf("  client_request vectors: %zu of %zu agree\n", passed, total);
    CHECK(total >= 70);
}

void suite_vectors(void) {
    RUN(test_every_server_response_vector);
    RUN(test_every_client_request_vector);
}
