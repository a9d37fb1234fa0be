/*
 * The device as a stateless MCP 2026-07-28 server: server/discover,
 * tools/list and three tools that ask for input mid-call. Nothing about a
 * call is kept between requests: what a later round needs travels sealed
 * in requestState, bound to the tool and its arguments.
 */
#include "device.h"

#include "board.h"
#include "text.h"
#include "trust.h"

/* The sensor's raw reading, in hundredths of a degree (a real board reads
 * its ADC here). */
#define SENSOR_RAW_CENTI 2310

static uint8_t out[DEVICE_OUT_BYTES];

/* ---- tool descriptions ----------------------------------------------------- */

#define DOORS_SCHEMA                                                                           \
    "{\"type\":\"object\",\"properties\":{\"door\":{\"type\":\"string\",\"enum\":[\"front\"," \
    "\"back\",\"garage\"],\"description\":\"Which door to unlock\"}},\"required\":[\"door\"]}"
#define EMPTY_SCHEMA "{\"type\":\"object\",\"properties\":{}}"

#define CONFIRM_FORM                                                                        \
    "{\"type\":\"object\",\"properties\":{\"confirm\":{\"type\":\"boolean\",\"title\":"     \
    "\"Unlock the door?\"}},\"required\":[\"confirm\"]}"
#define REFERENCE_FORM                                                                      \
    "{\"type\":\"object\",\"properties\":{\"celsius\":{\"type\":\"integer\",\"title\":"     \
    "\"Reference temperature (\\u00b0C)\",\"minimum\":-40,\"maximum\":125}},\"required\":" \
    "[\"celsius\"]}"
#define APPLY_FORM                                                                          \
    "{\"type\":\"object\",\"properties\":{\"apply\":{\"type\":\"boolean\",\"title\":"       \
    "\"Apply the offset?\"}},\"required\":[\"apply\"]}"
#define LOG_SAMPLING                                                                        \
    "{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":"           \
    "\"Summarize these door events in one line: 08:02 front unlocked; 08:05 front "        \
    "locked; 12:30 back unlocked by code.\"}}],\"systemPrompt\":\"You summarize device "    \
    "logs.\",\"maxTokens\":64}"

static const char TOOLS[] =
    "\"tools\":["
    "{\"name\":\"unlock_door\",\"description\":\"Unlocks a door after the user confirms "
    "(form elicitation); refused on decline.\",\"inputSchema\":" DOORS_SCHEMA "},"
    "{\"name\":\"calibrate_sensor\",\"description\":\"Calibrates the temperature sensor "
    "in two rounds: a reference reading, then whether to apply the offset.\","
    "\"inputSchema\":" EMPTY_SCHEMA "},"
    "{\"name\":\"summarize_log\",\"description\":\"Summarizes the door log with the "
    "client's model (sampling).\",\"inputSchema\":" EMPTY_SCHEMA "}"
    "],\"ttlMs\":0,\"cacheScope\":\"public\"";

static const char DISCOVER[] =
    "\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":{\"tools\":{}},"
    "\"instructions\":\"An MCP device (Cortex-M4, C firmware on libmrtr): it asks before "
    "it acts.\",\"ttlMs\":0,\"cacheScope\":\"public\",\"_meta\":{"
    "\"io.modelcontextprotocol/serverInfo\":{\"name\":\"mrtr-device\",\"version\":\"0.1.0\"}}";

/* ---- sending ---------------------------------------------------------------- */

/* Nothing is sent from here: every handler writes one response into `out`
 * and returns its length (0: no response), and main() sends it after
 * measuring the work. */
#define send_line(p, n) ((void)(p), (void)(n))

const uint8_t *server_output(void) { return out; }

/* The length of a written response, or of -32603 when it could not be
 * written. */
static size_t sent(const mrtr_request_id *id, mrtr_status st, size_t n) {
    if (st == MRTR_OK) {
        send_line(out, n);
        return n;
    }
    log_str("device: cannot write a response: ");
    log_line(mrtr_status_str(st));
    static const char msg[] = "Internal error";
    mrtr_str m = {msg, sizeof msg - 1}, none = {0, 0};
    if (mrtr_server_write_error(id, -32603, m, none, out, sizeof out, &n) == MRTR_OK) {
        send_line(out, n);
        return n;
    }
    return 0;
}

static size_t send_complete(const mrtr_request_id *id, mrtr_str members) {
    size_t n = 0;
    return sent(id, mrtr_server_write_complete(id, members, out, sizeof out, &n), n);
}

static size_t send_error(const mrtr_request_id *id, int32_t code, const char *message) {
    size_t n = 0;
    mrtr_str m = {message, strlen(message)}, none = {0, 0};
    return sent(id, mrtr_server_write_error(id, code, m, none, out, sizeof out, &n), n);
}

/* A tool result with one text block. */
static size_t send_text(const mrtr_request_id *id, mrtr_str body, bool is_error) {
    static char buf[512];
    text t = text_new(buf, sizeof buf);
    text_raw(&t, "\"content\":[{\"type\":\"text\",\"text\":");
    text_json(&t, body.ptr, body.len);
    text_raw(&t, is_error ? "}],\"isError\":true" : "}],\"isError\":false");
    if (!t.ok) {
        return send_error(id, -32603, "Internal error");
    }
    return send_complete(id, text_str(&t));
}

/* ---- one call's context ---------------------------------------------------- */

typedef struct call {
    const mrtr_server_request *req;
    uint8_t binding[32];
    /* The unsealed state of an earlier round (len 0: first round). */
    mrtr_bytes state;
} call;

/* Asks `spec` (one input) and seals `state` for the next round. */
static size_t ask(call *c, const mrtr_input_spec *spec, const char *state) {
    uint64_t now = 0;
    const mrtr_sealer *sealer = trust_sealer();
    if (sealer == NULL || !trust_now(&now)) {
        return send_error(&c->req->id, -32603, "The device cannot seal state (not provisioned)");
    }
    uint8_t nonce[24];
    trust_nonce(nonce);
    static uint8_t token[DEVICE_TOKEN_BYTES];
    size_t tlen = 0;
    mrtr_bytes st = {(const uint8_t *)state, strlen(state)};
    mrtr_status s = mrtr_seal(sealer, now, nonce, c->binding, NULL, st, token, sizeof token, &tlen);
    if (s != MRTR_OK) {
        log_str("device: seal: ");
        log_line(mrtr_status_str(s));
        return send_error(&c->req->id, -32603, "Internal error");
    }
    mrtr_input_required ir = {0};
    ir.id = c->req->id;
    ir.method = MRTR_SERVER_METHOD_TOOLS_CALL;
    ir.client_caps = c->req->client_caps;
    ir.inputs = spec;
    ir.input_count = 1;
    ir.request_state.ptr = (const char *)token;
    ir.request_state.len = tlen;
    size_t n = 0;
    mrtr_build_error err;
    s = mrtr_server_write_input_required(&ir, out, sizeof out, &n, &err);
    if (s == MRTR_ERR_UNDECLARED_CAPABILITY) {
        n = 0;
        s = mrtr_server_write_missing_capability(&c->req->id, err.missing_caps, out, sizeof out, &n);
    }
    return sent(&c->req->id, s, n);
}

static mrtr_input_spec form(const char *key, mrtr_str message, const char *schema) {
    mrtr_input_spec s = {0};
    s.kind = MRTR_INPUT_ELICIT_FORM;
    s.key.ptr = key;
    s.key.len = strlen(key);
    s.message = message;
    s.requested_schema.ptr = schema;
    s.requested_schema.len = strlen(schema);
    return s;
}

static mrtr_str lit(const char *s) {
    mrtr_str r = {s, strlen(s)};
    return r;
}

/* The answer under `key`: 1 found (in *a), 0 absent (ask again), -1 an
 * error response was sent. */
static int answer(call *c, const char *key, uint32_t kind, mrtr_server_answer *a) {
    mrtr_answer_error err;
    mrtr_status s = mrtr_server_input_response(c->req->input_responses, lit(key), kind, a, &err);
    if (s == MRTR_OK) {
        return a->kind == MRTR_ANSWER_NONE ? 0 : 1;
    }
    size_t n = 0;
    if (s == MRTR_ERR_PROTOCOL_VIOLATION && err.error != 0) {
        s = mrtr_server_write_answer_error(&c->req->id, lit(key), &err, out, sizeof out, &n);
        (void)sent(&c->req->id, s, n);
    } else {
        (void)send_error(&c->req->id, -32602, "Invalid inputResponses");
    }
    return -1;
}

/* Checks an accepted form answer against the form the device asked. */
static bool valid_form(call *c, const char *schema, const mrtr_server_answer *a) {
    mrtr_form_error ferr;
    if (mrtr_form_validate(lit(schema), a->content, &ferr) == MRTR_OK) {
        return true;
    }
    (void)send_error(&c->req->id, -32602, "Invalid answer: the content does not match the form");
    return false;
}

static bool state_is(const call *c, const char *prefix) {
    size_t n = strlen(prefix);
    return c->state.len >= n && memcmp(c->state.ptr, prefix, n) == 0;
}

/* ---- unlock_door --------------------------------------------------------- */

static size_t unlock_door(call *c) {
    mrtr_str door = {0, 0};
    char name[8];
    size_t nlen = 0;
    if (!json_member(c->req->arguments, "door", &door) ||
        mrtr_json_decode_string((const uint8_t *)door.ptr, door.len, (uint8_t *)name, sizeof name,
                                &nlen) != MRTR_OK) {
        return send_error(&c->req->id, -32602, "Invalid arguments: door must be front, back or garage");
    }
    mrtr_str d = {name, nlen};
    if (!str_eq(d, "front") && !str_eq(d, "back") && !str_eq(d, "garage")) {
        return send_error(&c->req->id, -32602, "Invalid arguments: door must be front, back or garage");
    }
    char msgbuf[64], resbuf[96];
    text m = text_new(msgbuf, sizeof msgbuf);
    text_raw(&m, "Really unlock the ");
    text_bytes(&m, name, nlen);
    text_raw(&m, " door?");
    mrtr_input_spec spec = form("confirm", text_str(&m), CONFIRM_FORM);
    /* An answer counts only with the state of the round that asked it. */
    mrtr_server_answer a;
    int got = 0;
    if (state_is(c, "unlock/1")) {
        got = answer(c, "confirm", MRTR_ANSWER_ELICIT, &a);
        if (got < 0) {
            return 0;
        }
    }
    if (got == 0) {
        return ask(c, &spec, "unlock/1");
    }
    text r = text_new(resbuf, sizeof resbuf);
    text_raw(&r, "Door ");
    text_bytes(&r, name, nlen);
    if (a.action == MRTR_ELICIT_ACCEPT) {
        if (!valid_form(c, CONFIRM_FORM, &a)) {
            return 0;
        }
        mrtr_str v = {0, 0};
        if (json_member(a.content, "confirm", &v) && json_is_true(v)) {
            text_raw(&r, " unlocked.");
            return send_text(&c->req->id, text_str(&r), false);
        }
        text_raw(&r, " stays locked: not confirmed.");
    } else if (a.action == MRTR_ELICIT_DECLINE) {
        text_raw(&r, " stays locked: declined.");
    } else {
        text_raw(&r, " stays locked: cancelled.");
    }
    return send_text(&c->req->id, text_str(&r), true);
}

/* ---- calibrate_sensor ---------------------------------------------------- */

/* Reads "cal/2 <celsius>" back from the state. */
static bool sealed_reference(const call *c, int64_t *celsius) {
    if (!state_is(c, "cal/2 ")) {
        return false;
    }
    mrtr_str v = {(const char *)c->state.ptr + 6, c->state.len - 6};
    return json_int(v, celsius) && *celsius >= -40 && *celsius <= 125;
}

/* Asks whether to apply the offset against `celsius`, sealing the
 * reference in the state ("cal/2 <celsius>") for round 3. */
static size_t ask_apply(call *c, int64_t celsius) {
    char buf[160];
    text q = text_new(buf, sizeof buf);
    text_raw(&q, "The sensor reads ");
    text_centi(&q, SENSOR_RAW_CENTI);
    text_raw(&q, " \xc2\xb0" "C against your ");
    text_i64(&q, celsius);
    text_raw(&q, " \xc2\xb0" "C: apply an offset of ");
    text_centi(&q, celsius * 100 - SENSOR_RAW_CENTI);
    text_raw(&q, " \xc2\xb0" "C?");
    mrtr_input_spec spec = form("apply", text_str(&q), APPLY_FORM);
    char state[16];
    text s = text_new(state, sizeof state - 1);
    text_raw(&s, "cal/2 ");
    text_i64(&s, celsius);
    state[s.len] = 0;
    return ask(c, &spec, state);
}

static size_t calibrate_sensor(call *c) {
    int64_t celsius = 0;
    mrtr_server_answer a;
    if (sealed_reference(c, &celsius)) {
        /* Round 3: the reference comes from the sealed state, never from
         * what the client sends now. */
        int got = answer(c, "apply", MRTR_ANSWER_ELICIT, &a);
        if (got < 0) {
            return 0;
        }
        if (got == 0) {
            /* Ask again under the same sealed reference. */
            return ask_apply(c, celsius);
        }
        char buf[160];
        text r = text_new(buf, sizeof buf);
        mrtr_str v = {0, 0};
        if (a.action == MRTR_ELICIT_ACCEPT) {
            if (!valid_form(c, APPLY_FORM, &a)) {
                return 0;
            }
            if (json_member(a.content, "apply", &v) && json_is_true(v)) {
                text_raw(&r, "Sensor calibrated: reference ");
                text_i64(&r, celsius);
                text_raw(&r, " \xc2\xb0" "C, offset ");
                text_centi(&r, celsius * 100 - SENSOR_RAW_CENTI);
                text_raw(&r, " \xc2\xb0" "C.");
                return send_text(&c->req->id, text_str(&r), false);
            }
        }
        text_raw(&r, "Calibration not applied.");
        return send_text(&c->req->id, text_str(&r), true);
    }
    /* Rounds 1 and 2: the reference reading. */
    mrtr_input_spec spec =
        form("reference", lit("Measure the room with a reference thermometer: how warm is it?"),
             REFERENCE_FORM);
    int got = 0;
    if (state_is(c, "cal/1")) {
        got = answer(c, "reference", MRTR_ANSWER_ELICIT, &a);
        if (got < 0) {
            return 0;
        }
    }
    if (got == 0) {
        return ask(c, &spec, "cal/1");
    }
    if (a.action != MRTR_ELICIT_ACCEPT) {
        return send_text(&c->req->id, lit("Calibration cancelled."), true);
    }
    if (!valid_form(c, REFERENCE_FORM, &a)) {
        return 0;
    }
    mrtr_str v = {0, 0};
    if (!json_member(a.content, "celsius", &v) || !json_int(v, &celsius)) {
        return send_error(&c->req->id, -32602, "Invalid answer: celsius must be an integer");
    }
    return ask_apply(c, celsius);
}

/* ---- summarize_log ------------------------------------------------------- */

static size_t summarize_log(call *c) {
    mrtr_input_spec spec = {0};
    spec.kind = MRTR_INPUT_SAMPLING;
    spec.key = lit("summary");
    spec.params = lit(LOG_SAMPLING);
    mrtr_server_answer a;
    int got = 0;
    if (state_is(c, "log/1")) {
        got = answer(c, "summary", MRTR_ANSWER_SAMPLING, &a);
        if (got < 0) {
            return 0;
        }
    }
    if (got == 0 || a.text.ptr == NULL) {
        return ask(c, &spec, "log/1");
    }
    char summary[256], buf[300];
    size_t n = 0;
    if (mrtr_json_decode_string((const uint8_t *)a.text.ptr, a.text.len, (uint8_t *)summary,
                                sizeof summary, &n) != MRTR_OK) {
        return send_error(&c->req->id, -32602, "Invalid answer: the summary is too long");
    }
    text r = text_new(buf, sizeof buf);
    text_raw(&r, "Door log: ");
    text_bytes(&r, summary, n);
    if (!r.ok) {
        return send_error(&c->req->id, -32602, "Invalid answer: the summary is too long");
    }
    return send_text(&c->req->id, text_str(&r), false);
}

/* ---- dispatch ------------------------------------------------------------------ */

static size_t tools_call(const mrtr_server_request *req) {
    char name[32];
    size_t nlen = 0;
    if (mrtr_json_decode_string((const uint8_t *)req->name.ptr, req->name.len, (uint8_t *)name,
                                sizeof name, &nlen) != MRTR_OK) {
        return send_error(&req->id, -32602, "Unknown tool");
    }
    mrtr_str tool = {name, nlen};
    size_t (*run)(call *) = NULL;
    uint32_t needs = 0;
    if (str_eq(tool, "unlock_door")) {
        run = unlock_door;
        needs = MRTR_CAP_ELICITATION_FORM;
    } else if (str_eq(tool, "calibrate_sensor")) {
        run = calibrate_sensor;
        needs = MRTR_CAP_ELICITATION_FORM;
    } else if (str_eq(tool, "summarize_log")) {
        run = summarize_log;
        needs = MRTR_CAP_SAMPLING;
    } else {
        char msg[64];
        text m = text_new(msg, sizeof msg - 1);
        text_raw(&m, "Unknown tool: ");
        text_bytes(&m, name, nlen);
        msg[m.ok ? m.len : 0] = 0;
        return send_error(&req->id, -32602, m.ok ? msg : "Unknown tool");
    }
    if ((req->client_caps & needs) != needs) {
        size_t n = 0;
        return sent(&req->id, mrtr_server_write_missing_capability(&req->id, needs, out, sizeof out, &n), n);
    }
    call c;
    c.req = req;
    c.state.ptr = NULL;
    c.state.len = 0;
    static const char method[] = "tools/call";
    mrtr_str m = {method, sizeof method - 1};
    const uint8_t *args = (const uint8_t *)req->arguments.ptr;
    if (mrtr_binding_digest(m, tool, args, req->arguments.len, c.binding, NULL) != MRTR_OK) {
        return send_error(&req->id, -32602, "Invalid arguments");
    }
    if (req->request_state.ptr != NULL) {
        /* Attacker input: decode, unseal against this very request. */
        static uint8_t token[DEVICE_TOKEN_BYTES];
        static uint8_t scratch[DEVICE_TOKEN_BYTES];
        size_t tlen = 0;
        uint64_t now = 0;
        mrtr_unseal_reason why = 0;
        mrtr_status s = MRTR_ERR_INVALID_REQUEST_STATE;
        const mrtr_sealer *sealer = trust_sealer();
        if (sealer != NULL && trust_now(&now) &&
            mrtr_json_decode_string((const uint8_t *)req->request_state.ptr, req->request_state.len,
                                    token, sizeof token, &tlen) == MRTR_OK) {
            mrtr_bytes tok = {token, tlen};
            s = mrtr_unseal(sealer, now, tok, c.binding, NULL, scratch, sizeof scratch, &c.state,
                            &why, NULL);
        }
        if (s != MRTR_OK) {
            log_str("device: requestState refused: ");
            log_line(s == MRTR_ERR_INVALID_REQUEST_STATE ? mrtr_unseal_reason_str(why)
                                                         : mrtr_status_str(s));
            size_t n = 0;
            return sent(&req->id, mrtr_server_write_invalid_request_state(&req->id, out, sizeof out, &n), n);
        }
    }
    return run(&c);
}

size_t server_handle(const uint8_t *msg, size_t len) {
    mrtr_server_request req;
    mrtr_server_error err;
    size_t n = 0;
    mrtr_status s = mrtr_server_parse_request(msg, len, 0, &req, &err);
    if (s != MRTR_OK) {
        if (mrtr_server_write_request_error(msg, len, 0, out, sizeof out, &n) == MRTR_OK) {
            send_line(out, n);
            return n;
        }
        return 0;
    }
    if (req.kind != MRTR_INCOMING_REQUEST) {
        return 0; /* notifications and responses need no answer */
    }
    char method[24];
    size_t mlen = 0;
    mrtr_str name = {method, 0};
    if (mrtr_json_decode_string((const uint8_t *)req.method_json.ptr, req.method_json.len,
                                (uint8_t *)method, sizeof method, &mlen) == MRTR_OK) {
        name.len = mlen;
    }
    switch (req.method) {
    case MRTR_SERVER_METHOD_TOOLS_CALL:
        return tools_call(&req);
    case MRTR_SERVER_METHOD_OTHER:
        if (str_eq(name, "server/discover")) {
            return send_complete(&req.id, lit(DISCOVER));
        }
        if (str_eq(name, "tools/list")) {
            return send_complete(&req.id, lit(TOOLS));
        }
        break;
    default:
        break;
    }
    return send_error(&req.id, -32601, "Method not found");
}

size_t server_line_too_long(void) {
    /* Like the demo server: -32700 without an id, the line skipped. */
    static const char msg[] = "Parse error: message too large";
    mrtr_str m = {msg, sizeof msg - 1}, none = {0, 0};
    size_t n = 0;
    if (mrtr_server_write_error(NULL, -32700, m, none, out, sizeof out, &n) == MRTR_OK) {
        send_line(out, n);
        return n;
    }
    return 0;
}
