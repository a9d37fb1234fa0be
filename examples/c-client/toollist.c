/* toollist: see toollist.h. */
#define _POSIX_C_SOURCE 200809L

#include "toollist.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonlite.h"
#include "mrtr.h"

static void set_err(tl_client *c, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
}

int tl_caps_json(uint32_t caps, char *out, size_t len) {
    size_t o = 0;
    int n;
    const char *sep = "";
#define TL_ADD(text)                                                                                               \
    do {                                                                                                           \
        n = snprintf(out + o, len - o, "%s%s", sep, (text));                                                       \
        if (n < 0 || (size_t)n >= len - o) {                                                                       \
            return -1;                                                                                             \
        }                                                                                                          \
        o += (size_t)n;                                                                                            \
        sep = ",";                                                                                                 \
    } while (0)
    if (len == 0) {
        return -1;
    }
    out[0] = '\0';
    n = snprintf(out, len, "{");
    if (n < 0 || (size_t)n >= len) {
        return -1;
    }
    o = (size_t)n;
    if ((caps & (MRTR_CAP_ELICITATION_FORM | MRTR_CAP_ELICITATION_URL)) != 0) {
        const char *both = "\"elicitation\":{\"form\":{},\"url\":{}}";
        const char *form = "\"elicitation\":{\"form\":{}}";
        const char *url = "\"elicitation\":{\"url\":{}}";
        TL_ADD((caps & MRTR_CAP_ELICITATION_FORM) == 0 ? url
               : (caps & MRTR_CAP_ELICITATION_URL) == 0 ? form
                                                        : both);
    }
    if ((caps & MRTR_CAP_SAMPLING) != 0) {
        TL_ADD("\"sampling\":{}");
    }
    if ((caps & MRTR_CAP_ROOTS) != 0) {
        TL_ADD("\"roots\":{}");
    }
    if ((caps & MRTR_CAP_TASKS) != 0) {
        TL_ADD("\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}");
    }
    sep = "";
    TL_ADD("}");
#undef TL_ADD
    return 0;
}

/* Whether `msg` is a response (a result or an error) to request `id`. A
 * message that is not JSON counts as the answer: the caller reports it. */
static bool answers(const uint8_t *msg, size_t len, long long id) {
    jl_span m, v, ignored;
    char want[32];
    m.p = (const char *)msg;
    m.n = len;
    if (!jl_valid(m)) {
        return true;
    }
    if (!jl_get(m, "id", &v) || jl_get(m, "method", &ignored)) {
        return false; /* a notification or a request of the server's */
    }
    snprintf(want, sizeof want, "%lld", id);
    return v.n == strlen(want) && memcmp(v.p, want, v.n) == 0;
}

enum tl_status tl_request(tl_client *c, const char *method, const char *extra, char **out, size_t *out_len) {
    char caps[256];
    size_t cap;
    char *req;
    int attempt;
    *out = NULL;
    *out_len = 0;
    c->err[0] = '\0';
    if (tl_caps_json(c->caps, caps, sizeof caps) != 0) {
        set_err(c, "%s: capabilities do not fit", method);
        return TL_LOCAL;
    }
    cap = strlen(extra) + strlen(method) + strlen(c->name) + sizeof caps + 512;
    if ((req = malloc(cap)) == NULL) {
        set_err(c, "out of memory");
        return TL_LOCAL;
    }
    for (attempt = 0; attempt < 2; attempt++) {
        const uint8_t *msg;
        size_t len, skipped = 0;
        jl_span m, v;
        enum mrtr_status st;
        long long id = (long long)c->next_id;
        int n;
        c->next_id++;
        n = snprintf(req, cap,
                         "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"method\":\"%s\",\"params\":{%s%s\"_meta\":{"
                         "\"io.modelcontextprotocol/protocolVersion\":\"%s\","
                         "\"io.modelcontextprotocol/clientCapabilities\":%s,"
                         "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"%s\",\"version\":\"%s\"}}}}",
                         id, method, extra, extra[0] != '\0' ? "," : "",
                         mrtr_protocol_version(), caps, c->name, mrtr_version());
        if (n < 0 || (size_t)n >= cap) {
            free(req);
            set_err(c, "%s: the request does not fit", method);
            return TL_LOCAL;
        }
        if (tp_send(c->tp, (const uint8_t *)req, (size_t)n) != 0) {
            free(req);
            set_err(c, "%s: %s", method, tp_error(c->tp));
            return TL_TRANSPORT;
        }
        /* The answer: notifications and other ids before it are passed over. */
        for (;;) {
            if (tp_next(c->tp, &msg, &len) != 0) {
                free(req);
                set_err(c, "%s: %s", method, tp_error(c->tp));
                return TL_TRANSPORT;
            }
            if (answers(msg, len, id)) {
                break;
            }
            if (++skipped > TL_MAX_UNRELATED) {
                free(req);
                set_err(c, "%s: more than %d other messages before the answer", method, TL_MAX_UNRELATED);
                return TL_PROTOCOL;
            }
        }
        st = mrtr_version_retry(msg, len, (uint32_t)attempt);
        if (st == MRTR_OK && attempt == 0) {
            fprintf(stderr, "%s: -32022, and the server lists %s: sending it again\n", method,
                    mrtr_protocol_version());
            continue;
        }
        if (st == MRTR_ERR_UNSUPPORTED_VERSION) {
            free(req);
            set_err(c, "%s: the server supports no revision this client speaks, or refused %s", method,
                    mrtr_protocol_version());
            return TL_RPC_ERROR;
        }
        m.p = (const char *)msg;
        m.n = len;
        if (jl_valid(m) && jl_get(m, "error", &v)) {
            jl_span code, text;
            char *t = NULL;
            c->rpc_code = 0;
            if (jl_get(v, "code", &code)) {
                c->rpc_code = strtoll(code.p, NULL, 10);
            }
            if (jl_get(v, "message", &text)) {
                t = jl_string_dup(text, NULL);
            }
            set_err(c, "%s: JSON-RPC error %lld: %s", method, c->rpc_code, t != NULL ? t : "(no message)");
            free(t);
            free(req);
            return TL_RPC_ERROR;
        }
        if (!jl_valid(m) || !jl_get(m, "result", &v) || jl_kind(v) != '{') {
            free(req);
            set_err(c, "%s: the answer carries no result", method);
            return TL_PROTOCOL;
        }
        if ((*out = malloc(len + 1)) == NULL) {
            free(req);
            set_err(c, "out of memory");
            return TL_LOCAL;
        }
        memcpy(*out, msg, len);
        (*out)[len] = '\0';
        *out_len = len;
        free(req);
        return TL_OK;
    }
    free(req);
    set_err(c, "%s: -32022 again after sending it once more", method);
    return TL_RPC_ERROR;
}

/* A copy of `n` bytes at `p`, NUL-terminated; NULL when out of memory. */
static char *dup_bytes(const char *p, size_t n) {
    char *s = malloc(n + 1);
    if (s != NULL) {
        memcpy(s, p, n);
        s[n] = '\0';
    }
    return s;
}

/* The decoded text of JSON string token `tok`; NULL when out of memory. */
static char *decode_name(mrtr_str tok) {
    size_t n = 0;
    char *s;
    enum mrtr_status st = mrtr_json_decode_string((const uint8_t *)tok.ptr, tok.len, NULL, 0, &n);
    if (st == MRTR_OK) {
        return dup_bytes("", 0);
    }
    if (st != MRTR_ERR_BUFFER_TOO_SMALL || (s = malloc(n + 1)) == NULL) {
        return NULL;
    }
    if (mrtr_json_decode_string((const uint8_t *)tok.ptr, tok.len, (uint8_t *)s, n, &n) != MRTR_OK) {
        free(s);
        return NULL;
    }
    s[n] = '\0';
    return s;
}

/* Appends the tools of one page; its nextCursor token goes to `*cursor`
 * (a copy, NULL for the last page). */
static enum tl_status read_page(tl_client *c, jl_span result, tl_tools *out, char **cursor) {
    size_t count = 0, i;
    mrtr_str next = {NULL, 0};
    enum mrtr_status st = mrtr_tool_list((const uint8_t *)result.p, result.n, &count, &next, NULL);
    tl_tool *grown;
    *cursor = NULL;
    if (st != MRTR_OK) {
        set_err(c, "tools/list: not a tool list (%s)", mrtr_status_str(st));
        return TL_PROTOCOL;
    }
    if (count > 0) {
        grown = realloc(out->items, (out->len + count) * sizeof *grown);
        if (grown == NULL) {
            set_err(c, "out of memory");
            return TL_LOCAL;
        }
        out->items = grown;
    }
    /* One pass over the page (mrtr_tool_next); a malformed tool is stepped
     * over, anything else ends the page. */
    mrtr_tool_cursor at = {0};
    for (i = 0; i < count; i++) {
        mrtr_tool t;
        tl_tool *dst = &out->items[out->len];
        st = mrtr_tool_next((const uint8_t *)result.p, result.n, &at, &t, NULL);
        if (st == MRTR_ERR_NOT_FOUND) {
            break;
        }
        if (st != MRTR_OK) {
            out->skipped++;
            if (st != MRTR_ERR_PROTOCOL_VIOLATION) {
                break;
            }
            continue;
        }
        dst->name = decode_name(t.name);
        dst->schema = dup_bytes(t.input_schema.ptr, t.input_schema.len);
        dst->usable = t.usable;
        if (dst->name == NULL || dst->schema == NULL) {
            free(dst->name);
            free(dst->schema);
            set_err(c, "out of memory");
            return TL_LOCAL;
        }
        out->len++;
    }
    if (next.ptr != NULL && (*cursor = dup_bytes(next.ptr, next.len)) == NULL) {
        set_err(c, "out of memory");
        return TL_LOCAL;
    }
    return TL_OK;
}

enum tl_status tl_list_tools(tl_client *c, tl_tools *out) {
    char *cursor = NULL;
    memset(out, 0, sizeof *out);
    do {
        char *resp = NULL, *extra = NULL;
        size_t len = 0;
        jl_span m, result;
        enum tl_status st;
        if (cursor != NULL) {
            size_t n = strlen(cursor) + 16;
            if ((extra = malloc(n)) == NULL) {
                free(cursor);
                set_err(c, "out of memory");
                return TL_LOCAL;
            }
            snprintf(extra, n, "\"cursor\":%s", cursor);
            free(cursor);
            cursor = NULL;
        }
        st = tl_request(c, "tools/list", extra != NULL ? extra : "", &resp, &len);
        free(extra);
        if (st != TL_OK) {
            return st;
        }
        m.p = resp;
        m.n = len;
        if (!jl_get(m, "result", &result)) {
            free(resp);
            set_err(c, "tools/list: the answer carries no result");
            return TL_PROTOCOL;
        }
        st = read_page(c, result, out, &cursor);
        free(resp);
        if (st != TL_OK) {
            free(cursor);
            return st;
        }
        out->pages++;
    } while (cursor != NULL && out->pages < TL_MAX_PAGES);
    if (cursor != NULL) {
        free(cursor);
        set_err(c, "tools/list: still more pages after %d", TL_MAX_PAGES);
        return TL_PROTOCOL;
    }
    return TL_OK;
}

const tl_tool *tl_find(const tl_tools *t, const char *name) {
    size_t i;
    for (i = 0; i < t->len; i++) {
        if (strcmp(t->items[i].name, name) == 0) {
            return &t->items[i];
        }
    }
    return NULL;
}

void tl_free(tl_tools *t) {
    size_t i;
    for (i = 0; i < t->len; i++) {
        free(t->items[i].name);
        free(t->items[i].schema);
    }
    free(t->items);
    memset(t, 0, sizeof *t);
}
