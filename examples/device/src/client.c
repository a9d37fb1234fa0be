/*
 * The device as an MCP client: one tools/call to the host server at the
 * other end of the UART, driven to its end by mrtr_run. The device answers
 * every form itself, from its sensor (number fields) and fixed choices
 * (booleans yes, selects their first option, texts its name), offers one
 * root, and declines what it cannot do (URLs, sampling: it has no browser
 * and no model).
 */
#include "board.h"
#include "device.h"
#include "text.h"

/* The sensor reading the device reports, in hundredths of a degree. */
#define SENSOR_CENTI 2310

/* How long the device waits for each message from the host. */
#define ANSWER_TIMEOUT_MS 30000u

/* A workspace sized for these limits, checked at run time. */
static uint64_t workspace[16384 / 8];
/* One request and one response (mrtr_run keeps both in one buffer). */
static uint8_t run_buf[DEVICE_LINE_BYTES + 4096];

/* Ticks spent waiting for the host's answers (not device work). */
static uint64_t waited;

/* Set when the transport gave up (the exit code tells it apart). */
static bool transport_failed;

static int32_t transport(void *user, const uint8_t *req, size_t req_len, uint8_t *resp,
                         size_t resp_cap, size_t *resp_len) {
    (void)user;
    if (req != NULL && req_len > 0) {
        static const uint8_t nl = '\n';
        uart_write(req, req_len);
        uart_write(&nl, 1);
    }
    for (;;) {
        uint64_t t0 = clock_ticks();
        long n = device_read_line(resp, resp_cap, clock_ms() + ANSWER_TIMEOUT_MS, false);
        waited += clock_ticks() - t0;
        if (n == -1) {
            log_line("device: a message longer than the buffer: transport failure");
            transport_failed = true;
            return 1;
        }
        if (n < 0) {
            log_line("device: no answer within 30 s: transport failure");
            transport_failed = true;
            return 1;
        }
        if (n > 0) {
            *resp_len = (size_t)n;
            return 0;
        }
    }
}

/* Builds the form answer field by field from the schema. */
static int32_t elicit(void *user, mrtr_call *call, size_t index, const mrtr_input *input) {
    (void)user;
    if (input->kind != MRTR_INPUT_ELICIT_FORM) {
        log_line("device: URL elicitation declined (no browser)");
        return MRTR_CB_DECLINE;
    }
    size_t fields = 0;
    if (mrtr_form_parse(input->requested_schema, &fields, NULL) != MRTR_OK) {
        log_line("device: a form it cannot read: declined");
        return MRTR_CB_DECLINE;
    }
    static char buf[1024];
    text t = text_new(buf, sizeof buf);
    text_raw(&t, "{");
    for (size_t i = 0; i < fields; i++) {
        mrtr_form_field f;
        if (mrtr_form_field_at(input->requested_schema, i, &f) != MRTR_OK) {
            return MRTR_CB_DECLINE;
        }
        if (i > 0) {
            text_raw(&t, ",");
        }
        /* The name and option values are the schema's string contents,
         * escapes kept: quoted again, they mean what the schema meant. */
        text_raw(&t, "\"");
        text_bytes(&t, f.name.ptr, f.name.len);
        text_raw(&t, "\":");
        mrtr_form_option opt;
        if (f.option_count > 0 &&
            mrtr_form_option_at(input->requested_schema, i, 0, &opt) == MRTR_OK) {
            text_raw(&t, "\"");
            text_bytes(&t, opt.value.ptr, opt.value.len);
            text_raw(&t, "\"");
        } else if (f.kind == MRTR_FIELD_NUMBER) {
            text_centi(&t, SENSOR_CENTI);
        } else if (f.kind == MRTR_FIELD_INTEGER) {
            text_i64(&t, SENSOR_CENTI / 100);
        } else if (f.kind == MRTR_FIELD_BOOLEAN) {
            text_raw(&t, "true");
        } else if (f.default_json.ptr != NULL) {
            text_bytes(&t, f.default_json.ptr, f.default_json.len);
        } else {
            text_raw(&t, "\"mrtr-device\"");
        }
    }
    text_raw(&t, "}");
    if (!t.ok || mrtr_form_validate(input->requested_schema, text_str(&t), NULL) != MRTR_OK) {
        log_line("device: cannot fill the form within its rules: declined");
        return MRTR_CB_DECLINE;
    }
    log_str("device: answering ");
    log_bytes((const uint8_t *)input->key.ptr, input->key.len);
    log_str(" with ");
    log_bytes((const uint8_t *)t.buf, t.len);
    log_str("\n");
    return mrtr_call_answer_elicit(call, index, MRTR_ELICIT_ACCEPT, text_str(&t)) == MRTR_OK
               ? MRTR_CB_ANSWERED
               : MRTR_CB_ABORT;
}

static int32_t sampling(void *user, mrtr_call *call, size_t index, const mrtr_input *input) {
    (void)user;
    (void)call;
    (void)index;
    (void)input;
    log_line("device: sampling asked; the device has no model: the call stops");
    return MRTR_CB_DECLINE;
}

static int32_t roots(void *user, mrtr_call *call, size_t index, const mrtr_input *input) {
    (void)user;
    (void)input;
    static const mrtr_root root = {{"file:///flash/data", 18}, {"data", 4}};
    return mrtr_call_answer_roots(call, index, &root, 1) == MRTR_OK ? MRTR_CB_ANSWERED
                                                                   : MRTR_CB_ABORT;
}

static void sleep_ms(void *user, uint64_t ms) {
    (void)user;
    uint64_t until = clock_ms() + ms;
    while (clock_ms() < until) {
        __asm volatile("wfi");
    }
}

int client_run(const char *tool, const char *args) {
    mrtr_call_limits limits;
    if (mrtr_call_limits_default(&limits) != MRTR_OK) {
        return 1;
    }
    limits.max_message_bytes = DEVICE_LINE_BYTES;
    limits.max_input_requests = 8;
    limits.max_params_bytes = 1024;
    limits.max_inputs_bytes = 4096;
    limits.max_state_bytes = 2048;
    limits.max_answers_bytes = 2048;
    limits.max_rounds = 8;
    size_t need = 0;
    if (mrtr_call_workspace_size(&limits, &need) != MRTR_OK || need > sizeof workspace) {
        log_str("device: the call workspace does not fit: ");
        log_u64(need);
        log_str("\n");
        return 1;
    }
    static char params[1024];
    text p = text_new(params, sizeof params);
    text_raw(&p, "{\"name\":");
    text_json(&p, tool, strlen(tool));
    if (args[0] != 0) {
        text_raw(&p, ",\"arguments\":");
        text_raw(&p, args);
    }
    text_raw(&p, "}");
    if (!p.ok) {
        log_line("device: the tool name or arguments are too long");
        return 1;
    }
    mrtr_call_config cfg = {0};
    cfg.method = MRTR_METHOD_TOOLS_CALL;
    cfg.params = text_str(&p);
    cfg.caps = MRTR_CAP_ELICITATION_FORM | MRTR_CAP_ROOTS;
    cfg.client_name = (mrtr_str){"mrtr-device", 11};
    cfg.client_version = (mrtr_str){"0.1.0", 5};
    cfg.limits = &limits;
    mrtr_call *call = NULL;
    mrtr_status st = mrtr_call_init(workspace, sizeof workspace, &cfg, &call);
    if (st != MRTR_OK) {
        log_str("device: mrtr_call_init: ");
        log_line(mrtr_status_str(st));
        return 1;
    }
    mrtr_run_callbacks cb = {0};
    cb.transport = transport;
    cb.elicit = elicit;
    cb.sampling = sampling;
    cb.roots = roots;
    cb.sleep_ms = sleep_ms;
    mrtr_event ev;
    uint64_t t0 = clock_ticks();
    st = mrtr_run(call, &cb, NULL, run_buf, sizeof run_buf, &ev);
    uint64_t t1 = clock_ticks();
    mrtr_progress prog;
    if (mrtr_call_progress(call, &prog) == MRTR_OK) {
        log_str("device: rounds ");
        log_u64(prog.round);
        log_str(", insns ");
        log_u64((t1 - t0 - waited) * 40u);
        log_str(" (device work, waits for the host excluded)\n");
    }
    if (st == MRTR_OK) {
        log_str("device: result ");
        log_bytes(run_buf + ev.result.offset, ev.result.len);
        log_str("\n");
        return 0;
    }
    log_str("device: the call ended with ");
    log_line(mrtr_status_str(st));
    if (st == MRTR_ERR_RPC_ERROR) {
        log_str("device: error ");
        log_bytes(run_buf + ev.error_message.offset, ev.error_message.len);
        log_str("\n");
        return 2;
    }
    if (st == MRTR_ERR_ABORTED) {
        return transport_failed ? 4 : 5;
    }
    return 3;
}
