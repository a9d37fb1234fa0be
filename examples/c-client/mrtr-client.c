/*
 * mrtr-client: a terminal MCP client for Multi Round-Trip Requests, in C99
 * on include/mrtr.h only.
 *
 *   mrtr-client [options] (tool NAME [ARGS_JSON] | prompt NAME [ARGS_JSON]
 *                          | resource URI) [-- SERVER_CMD ARGS...]
 *
 * It sends one tools/call, prompts/get or resources/read and drives it to
 * its end: every time the server answers input_required, the questions are
 * answered (from --answers, or by asking on the terminal) and the request
 * is retried with the answers and the echoed requestState. Each round is
 * shown on stderr; the final result JSON goes to stdout.
 *
 * It declares the Tasks extension (SEP-2663: tasks/get, tasks/update;
 * --no-tasks leaves it out): when the server moves the call to a task, the
 * same mrtr_call handle follows the task to its end, answering its input
 * rounds, and --cancel-after or Ctrl-C cancels it (tasks/cancel). Before a
 * tools/call it reads the server's tools/list once (every page,
 * toollist.c): a tool that is not listed, or whose x-mcp-header
 * designations are invalid (SEP-2243), is not called; over HTTP every leg
 * of the call, retries included, carries the Mcp-Param-* headers of the
 * tool's designated arguments.
 *
 * mrtr does the protocol (mrtr_call_*: ids, echo, caps, round caps, tasks;
 * forms, URL consent, HTTP headers, SSE); this file is the application's
 * half: the transport (transport.c), the terminal UI and the exit codes.
 *
 * Exit codes: 0 complete; 1 usage or local error (arguments, answers
 * file); 2 the server answered a JSON-RPC error; 3 protocol violation by
 * the server or round cap reached; 4 transport failure; 5 an input could
 * not be answered (sampling or roots with no answer and no terminal, or
 * refused by the user); 6 the task failed; 7 the task was cancelled; 8 the
 * tool is not called (not listed, or excluded for invalid designations).
 */
#define _XOPEN_SOURCE 700 /* POSIX.1-2008 with XSI: realpath, sigaction */

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jsonlite.h"
#include "mrtr.h"
#include "toollist.h"
#include "transport.h"

enum exit_code {
    EXIT_COMPLETE = 0,
    EXIT_LOCAL = 1,
    EXIT_RPC_ERROR = 2,
    EXIT_PROTOCOL = 3,
    EXIT_TRANSPORT = 4,
    EXIT_UNANSWERED = 5,
    EXIT_TASK_FAILED = 6,
    EXIT_TASK_CANCELLED = 7,
    EXIT_TOOL_REFUSED = 8
};

/* JSON-RPC ids: tools/list pages count up from 1, the call from here. */
#define FIRST_CALL_ID 1000

/* Most unrelated messages (notifications, other ids) tolerated while one
 * request waits for its answer: a server that floods is a broken peer. */
#define MAX_UNRELATED_PER_REQUEST 1000
/* Unrelated messages logged one per line for each request; the rest are
 * counted in one line. */
#define SHOWN_UNRELATED 5
/* Largest answers file read. */
#define MAX_ANSWERS_FILE_BYTES (16u << 20)
/* Default wait for a message from the server, ms. */
#define DEFAULT_TIMEOUT_MS 30000
/* Longest compact JSON shown for an answer, bytes. */
#define SHOWN_ANSWER_BYTES 240

static const char USAGE[] =
    "usage: mrtr-client [options] (tool NAME [ARGS_JSON] | prompt NAME [ARGS_JSON] | resource URI)\n"
    "                   [-- SERVER_CMD ARGS...]\n"
    "\n"
    "Sends one MCP request (protocol 2026-07-28) and answers the server's questions\n"
    "(multi round-trip requests) until the result arrives. Rounds go to stderr, the\n"
    "result JSON to stdout. The server is SERVER_CMD over stdio (default: the demo\n"
    "server, mrtr-demo-server), or the URL given with --http.\n"
    "\n"
    "Before a tool call it reads the server's tools/list (every page): a tool that is\n"
    "not listed, or whose x-mcp-header designations are invalid, is not called; over\n"
    "HTTP every request of the call carries the Mcp-Param-* headers of its designated\n"
    "arguments. It declares the Tasks extension and follows a call the server runs\n"
    "as a task to its end (tasks/get, tasks/update); Ctrl-C cancels a task.\n"
    "\n"
    "options:\n"
    "  --answers FILE     answer questions from FILE: a JSON object mapping each input\n"
    "                     key to its result ({\"action\":\"accept\",\"content\":{..}}, a\n"
    "                     CreateMessageResult, {\"roots\":[..]}), or to an array of\n"
    "                     results used in turn when the key is asked again\n"
    "  --max-rounds N     give up after N input_required rounds (default 10)\n"
    "  --http URL         POST to URL (streamable HTTP) instead of stdio; with a\n"
    "                     SERVER_CMD, start it first and wait until it accepts\n"
    "  --interactive      ask on stdin even when it is not a terminal\n"
    "  --no-input         never ask: unanswered elicitations are declined\n"
    "  --timeout MS       wait at most MS for each server message (default 30000)\n"
    "  --no-tasks         do not declare the Tasks extension (a server then answers\n"
    "                     inline, or refuses a task-only tool with -32021)\n"
    "  --cancel-after MS  cancel the task (tasks/cancel) once MS have passed since\n"
    "                     the call started and the server has moved it to a task\n"
    "  -v, --verbose      log every message sent and received\n"
    "  -h, --help         this text\n"
    "\n"
    "exit status: 0 complete, 1 usage or local error, 2 JSON-RPC error from the\n"
    "server, 3 protocol violation or round cap, 4 transport failure, 5 a question\n"
    "that could not be answered, 6 the task failed, 7 the task was cancelled, 8 the\n"
    "tool is not called (not in tools/list, or excluded: invalid x-mcp-header)\n";

struct options {
    const char *answers_path;
    long max_rounds; /* -1: the library default */
    const char *http_url;
    int interactive; /* -1: when stdin is a terminal */
    int timeout_ms;
    int verbose;
    int no_tasks;
    long cancel_after_ms; /* -1: never */
    uint32_t method;
    const char *method_name;
    const char *target; /* tool or prompt name, resource URI */
    const char *args_json;
    char **server_argv;
};

/* ---- output ------------------------------------------------------------- */

static bool g_color;

static const char *bold(void) {
    return g_color ? "\033[1m" : "";
}
static const char *dim(void) {
    return g_color ? "\033[2m" : "";
}
static const char *reset(void) {
    return g_color ? "\033[0m" : "";
}

static void say(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

/* Peer text on the terminal: escaped (jl_write_safe), every line indented. */
static void say_text(const char *indent, const char *text, size_t len) {
    size_t start = 0, i;
    fputs(indent, stderr);
    for (i = 0; i <= len; i++) {
        if (i == len || text[i] == '\n') {
            jl_write_safe(stderr, text + start, i - start);
            if (i < len) {
                fputc('\n', stderr);
                fputs(indent, stderr);
            }
            start = i + 1;
        }
    }
}

/* Compact JSON for a one-line summary, cut after SHOWN_ANSWER_BYTES. */
static void say_json_short(const char *json, size_t len) {
    jl_span t;
    t.p = json;
    t.n = len;
    if (jl_compact(stderr, t, SHOWN_ANSWER_BYTES)) {
        say(" ...");
    }
}

/* The status of a call whose failure changes nothing for us (the call is
 * being ended anyway). GCC's warn_unused_result ignores a (void) cast. */
static void ignore_status(enum mrtr_status st) {
    (void)st;
}

static int fail(int code, const char *fmt, ...) {
    va_list ap;
    say("mrtr-client: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    say("\n");
    return code;
}

/* ---- growable text ------------------------------------------------------ */

struct buf {
    char *p;
    size_t len, cap;
    bool oom;
};

static void buf_add(struct buf *b, const char *s, size_t n) {
    if (b->oom) {
        return;
    }
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        char *p;
        while (cap < b->len + n + 1) {
            cap *= 2;
        }
        p = realloc(b->p, cap);
        if (p == NULL) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void buf_str(struct buf *b, const char *s) {
    buf_add(b, s, strlen(s));
}

/* Is `text` valid UTF-8 (so it can become a JSON string)? */
static bool valid_utf8(const char *text, size_t len) {
    size_t need = 0;
    mrtr_str s;
    s.ptr = text;
    s.len = len;
    return mrtr_json_write_string(s, NULL, 0, &need) == MRTR_ERR_BUFFER_TOO_SMALL;
}

/* Appends `text` as a JSON string literal (mrtr_json_write_string).
 * Invalid UTF-8 marks the buffer failed, like running out of memory:
 * check text typed by the user with valid_utf8 first. */
static void buf_json_string(struct buf *b, const char *text, size_t len) {
    size_t need = 0;
    mrtr_str s;
    char *tmp;
    s.ptr = text;
    s.len = len;
    if (mrtr_json_write_string(s, NULL, 0, &need) != MRTR_ERR_BUFFER_TOO_SMALL || (tmp = malloc(need)) == NULL) {
        b->oom = true;
        return;
    }
    if (mrtr_json_write_string(s, (uint8_t *)tmp, need, &need) == MRTR_OK) {
        buf_add(b, tmp, need);
    } else {
        b->oom = true;
    }
    free(tmp);
}

/* ---- reading the terminal ----------------------------------------------- */

/* One line from stdin without its newline (free it); NULL at end of input. */
static char *ask(const char *fmt, ...) {
    va_list ap;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fflush(stderr);
    n = getline(&line, &cap, stdin);
    if (n < 0) {
        free(line);
        say("\n");
        return NULL;
    }
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) {
        line[--n] = '\0';
    }
    if (!isatty(STDIN_FILENO)) {
        say("%s\n", line); /* echo scripted input so the transcript reads */
    }
    return line;
}

/* Yes/no question; `dflt` on an empty line; -1 at end of input. */
static int ask_yes_no(const char *question, int dflt) {
    for (;;) {
        char *line = ask("%s [%s] ", question, dflt ? "Y/n" : "y/N");
        int r;
        if (line == NULL) {
            return -1;
        }
        if (line[0] == '\0') {
            r = dflt;
        } else if (strcmp(line, "y") == 0 || strcmp(line, "Y") == 0 || strcmp(line, "yes") == 0) {
            r = 1;
        } else if (strcmp(line, "n") == 0 || strcmp(line, "N") == 0 || strcmp(line, "no") == 0) {
            r = 0;
        } else {
            say("      please answer y or n\n");
            free(line);
            continue;
        }
        free(line);
        return r;
    }
}

/* ---- the answers file --------------------------------------------------- */

struct asked {
    char *key;
    unsigned times;
};

struct answers {
    char *text;
    jl_span doc;
    struct asked *asked;
    size_t asked_len;
    const char *path;
};

static int load_answers(struct answers *a, const char *path) {
    FILE *f = fopen(path, "rb");
    size_t len = 0, got;
    memset(a, 0, sizeof *a);
    a->path = path;
    if (f == NULL) {
        return fail(EXIT_LOCAL, "cannot open answers file %s: %s", path, strerror(errno));
    }
    a->text = malloc(MAX_ANSWERS_FILE_BYTES);
    if (a->text == NULL) {
        fclose(f);
        return fail(EXIT_LOCAL, "out of memory");
    }
    while ((got = fread(a->text + len, 1, MAX_ANSWERS_FILE_BYTES - len, f)) > 0) {
        len += got;
        if (len == MAX_ANSWERS_FILE_BYTES) {
            fclose(f);
            return fail(EXIT_LOCAL, "answers file %s is larger than %u bytes", path, MAX_ANSWERS_FILE_BYTES);
        }
    }
    fclose(f);
    a->doc.p = a->text;
    a->doc.n = len;
    {
        size_t offset = 0;
        enum mrtr_status st = mrtr_json_validate((const uint8_t *)a->text, len, 64, &offset);
        if (st != MRTR_OK) {
            return fail(EXIT_LOCAL, "answers file %s is not valid JSON (%s at byte %zu)", path,
                        mrtr_status_str(st), offset);
        }
    }
    if (jl_kind(a->doc) != '{') {
        return fail(EXIT_LOCAL, "answers file %s must hold a JSON object (input key -> result)", path);
    }
    return 0;
}

/* The answer for `key` this time it is asked: the value, or the next
 * element of an array value. False when the file has none (left). */
static bool answer_for(struct answers *a, const char *key, jl_span *out) {
    jl_span v;
    size_t i;
    unsigned times = 0;
    if (a->text == NULL || !jl_get(a->doc, key, &v)) {
        return false;
    }
    for (i = 0; i < a->asked_len; i++) {
        if (strcmp(a->asked[i].key, key) == 0) {
            times = a->asked[i].times++;
            break;
        }
    }
    if (i == a->asked_len) {
        struct asked *grown = realloc(a->asked, (a->asked_len + 1) * sizeof *grown);
        char *copy = malloc(strlen(key) + 1);
        if (grown == NULL || copy == NULL) {
            free(copy);
            if (grown != NULL) {
                a->asked = grown;
            }
            return false;
        }
        strcpy(copy, key);
        a->asked = grown;
        a->asked[a->asked_len].key = copy;
        a->asked[a->asked_len].times = 1;
        a->asked_len++;
    }
    if (jl_kind(v) != '[') {
        *out = v;
        return true;
    }
    {
        jl_iter it;
        jl_span e;
        unsigned k = 0;
        jl_array_begin(v, &it);
        while (jl_array_next(&it, &e)) {
            if (k++ == times) {
                *out = e;
                return true;
            }
        }
    }
    return false; /* every listed answer was used */
}

static void free_answers(struct answers *a) {
    size_t i;
    for (i = 0; i < a->asked_len; i++) {
        free(a->asked[i].key);
    }
    free(a->asked);
    free(a->text);
}

/* ---- texts of an input -------------------------------------------------- */

/* A text field of input `i`, decoded, NUL-terminated (free it). */
static char *input_text(mrtr_call *call, size_t i, const mrtr_input *in, uint32_t field, mrtr_str view) {
    size_t need = 0;
    char *out;
    if ((in->escaped & field) == 0) {
        out = malloc(view.len + 1);
        if (out != NULL) {
            if (view.len > 0) {
                memcpy(out, view.ptr, view.len);
            }
            out[view.len] = '\0';
        }
        return out;
    }
    if (mrtr_call_input_text(call, i, field, NULL, 0, &need) != MRTR_ERR_BUFFER_TOO_SMALL) {
        need = 0;
    }
    out = malloc(need + 1);
    if (out == NULL) {
        return NULL;
    }
    if (need > 0 && mrtr_call_input_text(call, i, field, (uint8_t *)out, need, &need) != MRTR_OK) {
        need = 0;
    }
    out[need] = '\0';
    return out;
}

/* A text of a form (field label, option title, ...), decoded (free it). */
static char *form_text(mrtr_str schema, size_t field, size_t option, uint32_t which, mrtr_str view,
                       uint32_t escaped) {
    size_t need = 0;
    char *out;
    if ((escaped & which) == 0) {
        out = malloc(view.len + 1);
        if (out != NULL) {
            if (view.len > 0) {
                memcpy(out, view.ptr, view.len);
            }
            out[view.len] = '\0';
        }
        return out;
    }
    if (mrtr_form_text(schema, field, option, which, NULL, 0, &need, NULL) != MRTR_ERR_BUFFER_TOO_SMALL) {
        need = 0;
    }
    out = malloc(need + 1);
    if (out == NULL) {
        return NULL;
    }
    if (need > 0 && mrtr_form_text(schema, field, option, which, (uint8_t *)out, need, &need, NULL) != MRTR_OK) {
        need = 0;
    }
    out[need] = '\0';
    return out;
}

static const char *kind_label(mrtr_input_kind kind) {
    switch (kind) {
    case MRTR_INPUT_ELICIT_FORM:
        return "form";
    case MRTR_INPUT_ELICIT_URL:
        return "URL";
    case MRTR_INPUT_SAMPLING:
        return "sampling";
    case MRTR_INPUT_ROOTS:
        return "roots";
    }
    return "input";
}

static const char *field_error_text(const struct mrtr_form_error *e, char *buf, size_t len) {
    switch (e->error) {
    case MRTR_FIELD_ERROR_MISSING:
        return "a value is required";
    case MRTR_FIELD_ERROR_WRONG_TYPE:
        return "not a value of this field's type";
    case MRTR_FIELD_ERROR_TOO_SHORT:
        snprintf(buf, len, "too short (at least %llu characters)", (unsigned long long)e->bound);
        return buf;
    case MRTR_FIELD_ERROR_TOO_LONG:
        snprintf(buf, len, "too long (at most %llu characters)", (unsigned long long)e->bound);
        return buf;
    case MRTR_FIELD_ERROR_BELOW_MINIMUM:
        return "below the minimum";
    case MRTR_FIELD_ERROR_ABOVE_MAXIMUM:
        return "above the maximum";
    case MRTR_FIELD_ERROR_NOT_AN_INTEGER:
        return "a whole number is required";
    case MRTR_FIELD_ERROR_BAD_EMAIL:
        return "not an email address";
    case MRTR_FIELD_ERROR_BAD_URI:
        return "not a URI";
    case MRTR_FIELD_ERROR_BAD_DATE:
        return "not a date (YYYY-MM-DD)";
    case MRTR_FIELD_ERROR_BAD_DATE_TIME:
        return "not a date-time (YYYY-MM-DDThh:mm:ssZ)";
    case MRTR_FIELD_ERROR_NOT_AN_OPTION:
        return "not one of the options";
    case MRTR_FIELD_ERROR_TOO_FEW_ITEMS:
        snprintf(buf, len, "choose at least %llu", (unsigned long long)e->bound);
        return buf;
    case MRTR_FIELD_ERROR_TOO_MANY_ITEMS:
        snprintf(buf, len, "choose at most %llu", (unsigned long long)e->bound);
        return buf;
    case MRTR_FIELD_ERROR_DUPLICATE_ITEM:
        return "an option chosen twice";
    case MRTR_FIELD_ERROR_UNKNOWN_FIELD:
        return "a field the form does not have";
    case MRTR_FIELD_ERROR_DUPLICATE_FIELD:
        return "a field given twice";
    case MRTR_FIELD_ERROR_NONE:
        break;
    }
    return e->reason != NULL ? e->reason : "invalid";
}

/* ---- answering: shared ---------------------------------------------------- */

struct session {
    struct options *opt;
    struct answers answers;
    bool interactive;
};

static void say_answered_elicit(uint32_t action, const char *content, size_t len, const char *source) {
    const char *name = action == MRTR_ELICIT_ACCEPT ? "accept" : action == MRTR_ELICIT_DECLINE ? "decline" : "cancel";
    say("      %s->%s %s%s%s", bold(), reset(), bold(), name, reset());
    if (content != NULL && len > 0) {
        say(" ");
        say_json_short(content, len);
    }
    say("%s  (%s)%s\n", dim(), source, reset());
}

/* One line for an answer given as JSON (a bare result): the action and
 * content of an elicitation, the reply of a sampling request, the roots. */
static void say_answer(mrtr_input_kind kind, jl_span value, const char *source) {
    jl_span v, text, content;
    jl_iter it;
    say("      %s->%s ", bold(), reset());
    if ((kind == MRTR_INPUT_ELICIT_FORM || kind == MRTR_INPUT_ELICIT_URL) && jl_get(value, "action", &v)) {
        char *action = jl_string_dup(v, NULL);
        say("%s%s%s", bold(), action != NULL ? action : "?", reset());
        free(action);
        if (jl_get(value, "content", &content)) {
            say(" ");
            jl_compact(stderr, content, SHOWN_ANSWER_BYTES);
        }
    } else if (kind == MRTR_INPUT_SAMPLING && jl_get(value, "content", &content) && jl_get(content, "text", &text)) {
        char *t = jl_string_dup(text, NULL);
        char *model = jl_get(value, "model", &v) ? jl_string_dup(v, NULL) : NULL;
        say("reply \"");
        if (t != NULL) {
            jl_write_safe(stderr, t, strlen(t) < SHOWN_ANSWER_BYTES ? strlen(t) : SHOWN_ANSWER_BYTES);
        }
        say("\" (model ");
        if (model != NULL) {
            jl_write_safe(stderr, model, strlen(model));
        }
        say(")");
        free(t);
        free(model);
    } else if (kind == MRTR_INPUT_ROOTS && jl_get(value, "roots", &v) && jl_array_begin(v, &it)) {
        jl_span root, uri;
        size_t n = 0;
        while (jl_array_next(&it, &root)) {
            char *u = jl_get(root, "uri", &uri) ? jl_string_dup(uri, NULL) : NULL;
            say("%s", n++ == 0 ? "" : ", ");
            if (u != NULL) {
                jl_write_safe(stderr, u, strlen(u));
            }
            free(u);
        }
        if (n == 0) {
            say("no roots");
        }
    } else {
        jl_compact(stderr, value, SHOWN_ANSWER_BYTES);
    }
    say("%s  (%s)%s\n", dim(), source, reset());
}

/* ---- answering from the answers file ------------------------------------ */

static int answer_from_file(struct session *s, mrtr_call *call, size_t i, const mrtr_input *in, const char *key,
                            jl_span value) {
    mrtr_str json;
    enum mrtr_status st;
    if (jl_kind(value) != '{') {
        return fail(EXIT_LOCAL, "answers file: the answer for \"%s\" must be a JSON object", key);
    }
    json.ptr = value.p;
    json.len = value.n;
    if (in->kind == MRTR_INPUT_ELICIT_FORM) {
        jl_span action, content;
        if (jl_get(value, "action", &action) && jl_string_equals(action, "accept") &&
            jl_get(value, "content", &content)) {
            struct mrtr_form_error fe;
            mrtr_str c;
            c.ptr = content.p;
            c.len = content.n;
            st = mrtr_form_validate(in->requested_schema, c, &fe);
            if (st == MRTR_ERR_INVALID_VALUE) {
                char tmp[96];
                say("      answers file: field \"");
                jl_write_safe(stderr, fe.field.ptr, fe.field.len);
                say("\": %s\n", field_error_text(&fe, tmp, sizeof tmp));
                return fail(EXIT_LOCAL, "the answer for \"%s\" in %s does not fit the server's form", key,
                            s->answers.path);
            }
            if (st != MRTR_OK && st != MRTR_ERR_INVALID_SCHEMA) {
                return fail(EXIT_LOCAL, "the answer for \"%s\": %s", key, mrtr_status_str(st));
            }
        }
    }
    st = mrtr_call_answer_json(call, i, json);
    if (st != MRTR_OK) {
        return fail(EXIT_LOCAL, "the answer for \"%s\" in %s does not fit a %s request (%s)", key, s->answers.path,
                    kind_label(in->kind), mrtr_status_str(st));
    }
    say_answer(in->kind, value, "answers file");
    return 0;
}

/* ---- answering on the terminal: forms ----------------------------------- */

/* Lists the options of select field `f`, numbered from 1. */
static void show_options(mrtr_str schema, size_t f, const struct mrtr_form_field *fd) {
    size_t k;
    for (k = 0; k < fd->option_count; k++) {
        struct mrtr_form_option opt;
        char *t;
        if (mrtr_form_option_at(schema, f, k, &opt) != MRTR_OK) {
            continue;
        }
        t = opt.has_title ? form_text(schema, f, k, MRTR_FORM_TEXT_OPTION_TITLE, opt.title, opt.escaped)
                          : form_text(schema, f, k, MRTR_FORM_TEXT_OPTION_VALUE, opt.value, opt.escaped);
        say("          %zu) ", k + 1);
        if (t != NULL) {
            jl_write_safe(stderr, t, strlen(t));
        }
        say("\n");
        free(t);
    }
}

/* The option of field `f` whose number (1-based), value or title is the
 * text at `p` up to `len` bytes; SIZE_MAX when none. */
static size_t find_option(mrtr_str schema, size_t f, const struct mrtr_form_field *fd, const char *p, size_t len) {
    size_t k;
    char *end;
    unsigned long n;
    errno = 0;
    n = strtoul(p, &end, 10);
    if (end == p + len && len > 0 && errno == 0 && n >= 1 && n <= fd->option_count) {
        return n - 1;
    }
    for (k = 0; k < fd->option_count; k++) {
        struct mrtr_form_option opt;
        char *v, *t;
        bool same;
        if (mrtr_form_option_at(schema, f, k, &opt) != MRTR_OK) {
            continue;
        }
        v = form_text(schema, f, k, MRTR_FORM_TEXT_OPTION_VALUE, opt.value, opt.escaped);
        t = opt.has_title ? form_text(schema, f, k, MRTR_FORM_TEXT_OPTION_TITLE, opt.title, opt.escaped) : NULL;
        same = (v != NULL && strlen(v) == len && memcmp(v, p, len) == 0) ||
               (t != NULL && strlen(t) == len && memcmp(t, p, len) == 0);
        free(v);
        free(t);
        if (same) {
            return k;
        }
    }
    return SIZE_MAX;
}

/* The JSON value typed for `field` (appended to `out`); 0 ok, 1 retry,
 * -1 skip the field, -2 end of input. */
static int read_field_value(mrtr_str schema, size_t f, const struct mrtr_form_field *fd, struct buf *out) {
    char *line;
    switch (fd->kind) {
    case MRTR_FIELD_SINGLE_SELECT:
    case MRTR_FIELD_MULTI_SELECT:
        line = ask(fd->kind == MRTR_FIELD_SINGLE_SELECT ? "        choose 1-%zu: "
                                                         : "        choose any of 1-%zu, separated by commas: ",
                   fd->option_count);
        break;
    case MRTR_FIELD_BOOLEAN:
        line = ask("        y/n: ");
        break;
    default:
        line = ask("        > ");
        break;
    }
    if (line == NULL) {
        return -2;
    }
    if (line[0] == '\0') {
        free(line);
        if (fd->default_json.len > 0) {
            buf_add(out, fd->default_json.ptr, fd->default_json.len);
            return 0;
        }
        if (!fd->required) {
            return -1;
        }
        say("        a value is required\n");
        return 1;
    }
    if (!valid_utf8(line, strlen(line))) {
        say("        not valid UTF-8 text\n");
        free(line);
        return 1;
    }
    switch (fd->kind) {
    case MRTR_FIELD_TEXT:
        buf_json_string(out, line, strlen(line));
        break;
    case MRTR_FIELD_NUMBER:
    case MRTR_FIELD_INTEGER: {
        jl_span n;
        n.p = line;
        n.n = strlen(line);
        if (!jl_valid(n) || (jl_kind(n) != '-' && (jl_kind(n) < '0' || jl_kind(n) > '9'))) {
            say("        not a number\n");
            free(line);
            return 1;
        }
        buf_add(out, n.p, n.n);
        break;
    }
    case MRTR_FIELD_BOOLEAN:
        if (strcmp(line, "y") == 0 || strcmp(line, "yes") == 0 || strcmp(line, "true") == 0) {
            buf_str(out, "true");
        } else if (strcmp(line, "n") == 0 || strcmp(line, "no") == 0 || strcmp(line, "false") == 0) {
            buf_str(out, "false");
        } else {
            say("        please answer y or n\n");
            free(line);
            return 1;
        }
        break;
    case MRTR_FIELD_SINGLE_SELECT:
    case MRTR_FIELD_MULTI_SELECT: {
        /* One choice, or (multi-select) several separated by commas: each
         * by number, value or title. */
        const char *p = line;
        bool multi = fd->kind == MRTR_FIELD_MULTI_SELECT;
        size_t chosen = 0;
        if (multi) {
            buf_str(out, "[");
        }
        for (;;) {
            const char *end;
            size_t item_len, o;
            struct mrtr_form_option opt;
            char *value;
            while (*p == ' ' || (multi && *p == ',')) {
                p++;
            }
            if (*p == '\0') {
                break;
            }
            end = multi ? strchr(p, ',') : NULL;
            if (end == NULL) {
                end = p + strlen(p);
            }
            item_len = (size_t)(end - p);
            while (item_len > 0 && p[item_len - 1] == ' ') {
                item_len--;
            }
            o = find_option(schema, f, fd, p, item_len);
            if (o == SIZE_MAX || mrtr_form_option_at(schema, f, o, &opt) != MRTR_OK) {
                say("        not an option: choose by number (1-%zu) or name\n", fd->option_count);
                free(line);
                return 1;
            }
            value = form_text(schema, f, o, MRTR_FORM_TEXT_OPTION_VALUE, opt.value, opt.escaped);
            if (value == NULL) {
                free(line);
                return -2;
            }
            if (chosen++ > 0) {
                buf_str(out, ",");
            }
            buf_json_string(out, value, strlen(value));
            free(value);
            p = end;
        }
        if (multi) {
            buf_str(out, "]");
        }
        break;
    }
    }
    free(line);
    return 0;
}

static int ui_form(mrtr_call *call, size_t i, const mrtr_input *in) {
    mrtr_str schema = in->requested_schema;
    struct mrtr_schema_error se;
    size_t count = 0, f;
    struct buf content = {NULL, 0, 0, false};
    bool any = false;
    int yn;
    enum mrtr_status st = mrtr_form_parse(schema, &count, &se);
    if (st != MRTR_OK) {
        say("      the form cannot be shown: %s (%s)", mrtr_status_str(st),
            st == MRTR_ERR_INVALID_SCHEMA && se.reason != NULL ? se.reason : "-");
        say("\n");
        if (mrtr_call_answer_elicit(call, i, MRTR_ELICIT_CANCEL, (mrtr_str){NULL, 0}) != MRTR_OK) {
            return fail(EXIT_LOCAL, "cannot answer input %zu", i);
        }
        say_answered_elicit(MRTR_ELICIT_CANCEL, NULL, 0, "form not shown");
        return 0;
    }
    yn = ask_yes_no("      Fill in this form? (n declines)", 1);
    if (yn != 1) {
        uint32_t action = yn == 0 ? MRTR_ELICIT_DECLINE : MRTR_ELICIT_CANCEL;
        if (mrtr_call_answer_elicit(call, i, action, (mrtr_str){NULL, 0}) != MRTR_OK) {
            return fail(EXIT_LOCAL, "cannot answer input %zu", i);
        }
        say_answered_elicit(action, NULL, 0, yn == 0 ? "you declined" : "end of input");
        return 0;
    }
    buf_str(&content, "{");
    for (f = 0; f < count; f++) {
        struct mrtr_form_field fd;
        char *label, *desc;
        if (mrtr_form_field_at(schema, f, &fd) != MRTR_OK) {
            continue;
        }
        label = fd.title.len > 0 ? form_text(schema, f, 0, MRTR_FORM_TEXT_TITLE, fd.title, fd.escaped)
                                 : form_text(schema, f, 0, MRTR_FORM_TEXT_NAME, fd.name, fd.escaped);
        desc = form_text(schema, f, 0, MRTR_FORM_TEXT_DESCRIPTION, fd.description, fd.escaped);
        say("      %s", bold());
        jl_write_safe(stderr, label != NULL ? label : "?", label != NULL ? strlen(label) : 1);
        say("%s%s", reset(), fd.required ? " (required)" : " (optional)");
        if (fd.kind == MRTR_FIELD_TEXT && fd.format != MRTR_FORMAT_NONE) {
            say(", %s", fd.format == MRTR_FORMAT_EMAIL  ? "email"
                        : fd.format == MRTR_FORMAT_URI  ? "URI"
                        : fd.format == MRTR_FORMAT_DATE ? "date YYYY-MM-DD"
                                                        : "date-time");
        }
        if (fd.kind == MRTR_FIELD_TEXT && (fd.has_min_length || fd.has_max_length)) {
            if (fd.has_min_length && fd.has_max_length) {
                say(", %llu-%llu characters", (unsigned long long)fd.min_length, (unsigned long long)fd.max_length);
            } else if (fd.has_min_length) {
                say(", at least %llu characters", (unsigned long long)fd.min_length);
            } else {
                say(", at most %llu characters", (unsigned long long)fd.max_length);
            }
        }
        if (fd.kind == MRTR_FIELD_NUMBER || fd.kind == MRTR_FIELD_INTEGER) {
            say(", %s", fd.kind == MRTR_FIELD_INTEGER ? "whole number" : "number");
            if (fd.has_minimum) {
                say(" >= %.*s", (int)fd.minimum_json.len, fd.minimum_json.ptr);
            }
            if (fd.has_maximum) {
                say(" <= %.*s", (int)fd.maximum_json.len, fd.maximum_json.ptr);
            }
        }
        if (fd.default_json.len > 0) {
            say(", Enter for ");
            jl_write_safe(stderr, fd.default_json.ptr, fd.default_json.len);
        }
        say("\n");
        if (desc != NULL && desc[0] != '\0') {
            say_text("        ", desc, strlen(desc));
            say("\n");
        }
        free(label);
        free(desc);
        if (fd.kind == MRTR_FIELD_SINGLE_SELECT || fd.kind == MRTR_FIELD_MULTI_SELECT) {
            show_options(schema, f, &fd);
        }
        for (;;) {
            struct buf value = {NULL, 0, 0, false};
            struct buf candidate = {NULL, 0, 0, false};
            struct mrtr_form_error fe;
            char *name = form_text(schema, f, 0, MRTR_FORM_TEXT_NAME, fd.name, fd.escaped);
            int r = read_field_value(schema, f, &fd, &value);
            if (r == -2 || name == NULL) {
                free(name);
                free(value.p);
                free(content.p);
                if (mrtr_call_answer_elicit(call, i, MRTR_ELICIT_CANCEL, (mrtr_str){NULL, 0}) != MRTR_OK) {
                    return fail(EXIT_LOCAL, "cannot answer input %zu", i);
                }
                say_answered_elicit(MRTR_ELICIT_CANCEL, NULL, 0, "end of input");
                return 0;
            }
            if (r == 1 || r == -1) {
                free(name);
                free(value.p);
                if (r == -1) {
                    break; /* optional field left out */
                }
                continue;
            }
            /* Check the value with the core's form rules: the content so
             * far plus this field. A problem of this field asks again;
             * fields not filled in yet (missing) are not its problem. */
            buf_add(&candidate, content.p, content.len);
            if (any) {
                buf_str(&candidate, ",");
            }
            buf_json_string(&candidate, name, strlen(name));
            buf_str(&candidate, ":");
            buf_add(&candidate, value.p, value.len);
            buf_str(&candidate, "}");
            free(name);
            if (candidate.oom || value.oom) {
                free(candidate.p);
                free(value.p);
                free(content.p);
                return fail(EXIT_LOCAL, "out of memory");
            }
            st = mrtr_form_validate(schema, (mrtr_str){candidate.p, candidate.len}, &fe);
            if (st == MRTR_ERR_INVALID_VALUE && fe.field_index == f) {
                char tmp[96];
                say("        %s", field_error_text(&fe, tmp, sizeof tmp));
                if (fe.error == MRTR_FIELD_ERROR_BELOW_MINIMUM && fd.has_minimum) {
                    say(" (%.*s)", (int)fd.minimum_json.len, fd.minimum_json.ptr);
                } else if (fe.error == MRTR_FIELD_ERROR_ABOVE_MAXIMUM && fd.has_maximum) {
                    say(" (%.*s)", (int)fd.maximum_json.len, fd.maximum_json.ptr);
                }
                say("\n");
                free(candidate.p);
                free(value.p);
                continue;
            }
            /* Accepted: the candidate without its closing brace. */
            free(content.p);
            content = candidate;
            content.len--;
            content.p[content.len] = '\0';
            any = true;
            free(value.p);
            break;
        }
    }
    buf_str(&content, "}");
    if (content.oom) {
        free(content.p);
        return fail(EXIT_LOCAL, "out of memory");
    }
    {
        struct mrtr_form_error fe;
        st = mrtr_form_validate(schema, (mrtr_str){content.p, content.len}, &fe);
        if (st != MRTR_OK) {
            char tmp[96];
            say("      the answer does not fit the form: %s\n",
                st == MRTR_ERR_INVALID_VALUE ? field_error_text(&fe, tmp, sizeof tmp) : mrtr_status_str(st));
            free(content.p);
            if (mrtr_call_answer_elicit(call, i, MRTR_ELICIT_CANCEL, (mrtr_str){NULL, 0}) != MRTR_OK) {
                return fail(EXIT_LOCAL, "cannot answer input %zu", i);
            }
            say_answered_elicit(MRTR_ELICIT_CANCEL, NULL, 0, "invalid form");
            return 0;
        }
    }
    st = mrtr_call_answer_elicit(call, i, MRTR_ELICIT_ACCEPT, (mrtr_str){content.p, content.len});
    if (st != MRTR_OK) {
        free(content.p);
        return fail(EXIT_LOCAL, "cannot answer input %zu: %s", i, mrtr_status_str(st));
    }
    say_answered_elicit(MRTR_ELICIT_ACCEPT, content.p, content.len, "typed");
    free(content.p);
    return 0;
}

/* ---- answering on the terminal: URL consent ------------------------------ */

static const struct {
    uint32_t bit;
    const char *text;
} URL_WARNINGS[] = {
    {MRTR_URL_WARN_NOT_HTTPS, "not https: the connection is not encrypted"},
    {MRTR_URL_WARN_UNSUPPORTED_SCHEME, "not a web address (unusual scheme)"},
    {MRTR_URL_WARN_PUNYCODE, "the host is punycode (xn--): it may imitate another name"},
    {MRTR_URL_WARN_USERINFO, "text before '@' is a user name, not the destination"},
    {MRTR_URL_WARN_IP_LITERAL, "the host is a bare IP address"},
    {MRTR_URL_WARN_NON_ASCII_HOST, "the host has non-ASCII characters: it may imitate another name"},
    {MRTR_URL_WARN_NO_HOST, "no host"},
};

static int answer_elicit_simple(mrtr_call *call, size_t i, uint32_t action, const char *why) {
    if (mrtr_call_answer_elicit(call, i, action, (mrtr_str){NULL, 0}) != MRTR_OK) {
        return fail(EXIT_LOCAL, "cannot answer input %zu", i);
    }
    say_answered_elicit(action, NULL, 0, why);
    return 0;
}

static int ui_url(mrtr_call *call, size_t i, const mrtr_input *in) {
    struct mrtr_url_info info;
    struct mrtr_url_refusal refusal;
    char *url = input_text(call, i, in, MRTR_TEXT_URL, in->url);
    size_t w, host_at;
    int yn;
    enum mrtr_status st;
    if (url == NULL) {
        return fail(EXIT_LOCAL, "out of memory");
    }
    st = mrtr_url_consent((mrtr_str){url, strlen(url)}, &info, &refusal);
    if (st != MRTR_OK) {
        say("      the server's URL cannot be shown honestly: %s", st == MRTR_ERR_REFUSED_URL && refusal.reason != NULL
                                                                      ? refusal.reason
                                                                      : mrtr_status_str(st));
        if (st == MRTR_ERR_REFUSED_URL && refusal.has_offset) {
            say(" at byte %zu", refusal.offset);
        }
        say("\n        ");
        jl_write_safe(stderr, url, strlen(url));
        say("\n");
        free(url);
        return answer_elicit_simple(call, i, MRTR_ELICIT_DECLINE, "URL refused");
    }
    say("      the server asks you to open:\n        ");
    host_at = info.host.len > 0 ? (size_t)(info.host.ptr - url) : strlen(url);
    jl_write_safe(stderr, url, host_at);
    if (info.host.len > 0) {
        say("%s", g_color ? "\033[1;4m" : "");
        jl_write_safe(stderr, info.host.ptr, info.host.len);
        say("%s", reset());
        jl_write_safe(stderr, info.host.ptr + info.host.len, strlen(url) - host_at - info.host.len);
    }
    say("\n      host: %s", bold());
    jl_write_safe(stderr, info.host.ptr != NULL ? info.host.ptr : "", info.host.len);
    say("%s\n", reset());
    if (info.has_userinfo) {
        say("      user name part: ");
        jl_write_safe(stderr, info.userinfo.ptr, info.userinfo.len);
        say("\n");
    }
    for (w = 0; w < sizeof URL_WARNINGS / sizeof URL_WARNINGS[0]; w++) {
        if (info.warnings & URL_WARNINGS[w].bit) {
            say("      %swarning:%s %s\n", bold(), reset(), URL_WARNINGS[w].text);
        }
    }
    free(url);
    yn = ask_yes_no("      Open it in your browser and continue?", 0);
    if (yn != 1) {
        return answer_elicit_simple(call, i, yn == 0 ? MRTR_ELICIT_DECLINE : MRTR_ELICIT_CANCEL,
                                    yn == 0 ? "you declined" : "end of input");
    }
    {
        char *line = ask("      Press Enter when you are done in the browser. ");
        if (line == NULL) {
            return answer_elicit_simple(call, i, MRTR_ELICIT_CANCEL, "end of input");
        }
        free(line);
    }
    return answer_elicit_simple(call, i, MRTR_ELICIT_ACCEPT, "you opened the URL");
}

/* ---- answering on the terminal: sampling --------------------------------- */

static void show_content_block(jl_span block) {
    jl_span type, text;
    char *t;
    if (jl_get(block, "type", &type) && jl_string_equals(type, "text") && jl_get(block, "text", &text) &&
        (t = jl_string_dup(text, NULL)) != NULL) {
        say_text("          ", t, strlen(t));
        say("\n");
        free(t);
    } else if (jl_get(block, "type", &type) && (t = jl_string_dup(type, NULL)) != NULL) {
        say("          [%s content]\n", t); /* images, audio, tool use: not rendered here */
        free(t);
    }
}

static void show_sampling(mrtr_call *call, size_t i, const mrtr_input *in) {
    jl_span params, messages, m, role, content, block;
    jl_iter it, blocks;
    params.p = in->params.ptr;
    params.n = in->params.len;
    if (in->has_system_prompt) {
        char *sp = input_text(call, i, in, MRTR_TEXT_SYSTEM_PROMPT, in->system_prompt);
        say("      system prompt:\n");
        if (sp != NULL) {
            say_text("          ", sp, strlen(sp));
            say("\n");
        }
        free(sp);
    }
    if (jl_get(params, "messages", &messages) && jl_array_begin(messages, &it)) {
        while (jl_array_next(&it, &m)) {
            char *r = jl_get(m, "role", &role) ? jl_string_dup(role, NULL) : NULL;
            say("      %s%s%s:\n", bold(), r != NULL ? r : "?", reset());
            free(r);
            if (!jl_get(m, "content", &content)) {
                continue;
            }
            if (jl_array_begin(content, &blocks)) {
                while (jl_array_next(&blocks, &block)) {
                    show_content_block(block);
                }
            } else {
                show_content_block(content);
            }
        }
    }
    say("      max tokens: %llu%s%s\n", (unsigned long long)in->max_tokens,
        in->has_tools ? "; the server offers tools" : "",
        in->wants_context ? "; asks to include context (ignored)" : "");
}

static int ui_sampling(mrtr_call *call, size_t i, const mrtr_input *in) {
    struct buf result = {NULL, 0, 0, false};
    char *reply;
    enum mrtr_status st;
    int yn;
    show_sampling(call, i, in);
    yn = ask_yes_no("      Approve this sampling request?", 0);
    if (yn != 1) {
        ignore_status(mrtr_call_answer_error(call, i, -1));
        return fail(EXIT_UNANSWERED, "sampling request %s: MRTR has no refusal for sampling, so the call ends here",
                    yn == 0 ? "refused" : "not answered (end of input)");
    }
    for (;;) {
        reply = ask("      Type the assistant's reply (one line): ");
        if (reply == NULL || valid_utf8(reply, strlen(reply))) {
            break;
        }
        say("      not valid UTF-8 text\n");
        free(reply);
    }
    if (reply == NULL) {
        ignore_status(mrtr_call_answer_error(call, i, -1));
        return fail(EXIT_UNANSWERED, "sampling request not answered (end of input)");
    }
    buf_str(&result, "{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":");
    buf_json_string(&result, reply, strlen(reply));
    buf_str(&result, "},\"model\":\"human-via-mrtr-client\",\"stopReason\":\"endTurn\"}");
    free(reply);
    if (result.oom) {
        free(result.p);
        return fail(EXIT_LOCAL, "the reply is not valid UTF-8 (or out of memory)");
    }
    st = mrtr_call_answer_json(call, i, (mrtr_str){result.p, result.len});
    if (st != MRTR_OK) {
        free(result.p);
        return fail(EXIT_LOCAL, "cannot answer the sampling request: %s", mrtr_status_str(st));
    }
    {
        jl_span r;
        r.p = result.p;
        r.n = result.len;
        say_answer(MRTR_INPUT_SAMPLING, r, "typed");
    }
    free(result.p);
    return 0;
}

/* ---- answering on the terminal: roots ------------------------------------ */

/* "file://" + the percent-encoded absolute path of the current directory. */
static char *cwd_uri(char **name_out) {
    char *cwd = getcwd(NULL, 0);
    struct buf uri = {NULL, 0, 0, false};
    const char *p, *base;
    if (cwd == NULL) {
        return NULL;
    }
    buf_str(&uri, "file://");
    for (p = cwd; *p != '\0'; p++) {
        unsigned char c = (unsigned char)*p;
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
            c == '_' || c == '~' || c == '/') {
            buf_add(&uri, p, 1);
        } else {
            char esc[4];
            snprintf(esc, sizeof esc, "%%%02X", c);
            buf_add(&uri, esc, 3);
        }
    }
    base = strrchr(cwd, '/');
    base = (base != NULL && base[1] != '\0') ? base + 1 : cwd;
    *name_out = malloc(strlen(base) + 1);
    if (*name_out != NULL) {
        strcpy(*name_out, base);
    }
    free(cwd);
    if (uri.oom || *name_out == NULL) {
        free(uri.p);
        free(*name_out);
        *name_out = NULL;
        return NULL;
    }
    return uri.p;
}

static int ui_roots(mrtr_call *call, size_t i) {
    char *name = NULL;
    char *uri = cwd_uri(&name);
    mrtr_root root;
    enum mrtr_status st;
    int yn;
    if (uri == NULL) {
        return fail(EXIT_LOCAL, "cannot read the current directory");
    }
    say("      the server asks which directories it may work in; offering the current one:\n        ");
    jl_write_safe(stderr, uri, strlen(uri));
    say("\n");
    yn = ask_yes_no("      Share it?", 1);
    root.uri.ptr = uri;
    root.uri.len = strlen(uri);
    root.name.ptr = name;
    root.name.len = strlen(name);
    st = mrtr_call_answer_roots(call, i, &root, yn == 1 ? 1 : 0);
    if (st == MRTR_ERR_INVALID_VALUE && yn == 1) {
        say("      this directory cannot be sent as a root (%s); sending none\n", mrtr_status_str(st));
        st = mrtr_call_answer_roots(call, i, NULL, 0);
        yn = 0;
    }
    if (st != MRTR_OK) {
        free(uri);
        free(name);
        return fail(EXIT_LOCAL, "cannot answer the roots request: %s", mrtr_status_str(st));
    }
    say("      %s->%s %s%s  (%s)%s\n", bold(), reset(), yn == 1 ? "1 root" : "no roots", dim(),
        yn == 1 ? "you shared it" : "you declined", reset());
    free(uri);
    free(name);
    return 0;
}

/* ---- one round ----------------------------------------------------------- */

static int answer_input(struct session *s, mrtr_call *call, size_t i) {
    mrtr_input in;
    char *key, *message = NULL;
    jl_span value;
    int rc;
    if (mrtr_call_input_at(call, i, &in) != MRTR_OK) {
        return fail(EXIT_LOCAL, "cannot read input %zu", i);
    }
    key = input_text(call, i, &in, MRTR_TEXT_KEY, in.key);
    if (key == NULL) {
        return fail(EXIT_LOCAL, "out of memory");
    }
    say("   %s[", bold());
    jl_write_safe(stderr, key, strlen(key));
    say("]%s %s", reset(), kind_label(in.kind));
    if (in.kind == MRTR_INPUT_ELICIT_FORM || in.kind == MRTR_INPUT_ELICIT_URL) {
        message = input_text(call, i, &in, MRTR_TEXT_MESSAGE, in.message);
        say(": ");
        if (message != NULL) {
            say_text("", message, strlen(message));
        }
        free(message);
    } else if (in.kind == MRTR_INPUT_SAMPLING) {
        say(": the server asks your model for a reply");
    } else {
        say(": the server asks for your roots (directories it may use)");
    }
    say("\n");
    if (answer_for(&s->answers, key, &value)) {
        rc = answer_from_file(s, call, i, &in, key, value);
    } else if (s->interactive) {
        switch (in.kind) {
        case MRTR_INPUT_ELICIT_FORM:
            rc = ui_form(call, i, &in);
            break;
        case MRTR_INPUT_ELICIT_URL:
            rc = ui_url(call, i, &in);
            break;
        case MRTR_INPUT_SAMPLING:
            rc = ui_sampling(call, i, &in);
            break;
        default:
            rc = ui_roots(call, i);
            break;
        }
    } else if (in.kind == MRTR_INPUT_ELICIT_FORM || in.kind == MRTR_INPUT_ELICIT_URL) {
        rc = answer_elicit_simple(call, i, MRTR_ELICIT_DECLINE, "no answer given and no terminal to ask");
    } else {
        ignore_status(mrtr_call_answer_error(call, i, -1));
        rc = fail(EXIT_UNANSWERED, "no answer for %s input \"%s\" and no terminal to ask (use --answers)",
                  kind_label(in.kind), key);
    }
    free(key);
    return rc;
}

/* The decoded length of the requestState the next leg echoes, or -1. */
static long long state_length(const mrtr_call *call) {
    mrtr_progress pr;
    mrtr_str tok;
    size_t need = 0;
    enum mrtr_status st;
    if (mrtr_call_progress(call, &pr) != MRTR_OK || pr.request_state.len == 0) {
        return -1;
    }
    tok = pr.request_state;
    st = mrtr_json_decode_string((const uint8_t *)tok.ptr, tok.len, NULL, 0, &need);
    if (st == MRTR_OK) {
        return 0;
    }
    return st == MRTR_ERR_BUFFER_TOO_SMALL ? (long long)need : -1;
}

/* The method of an unrelated message, for the log line. */
static void say_unrelated(const uint8_t *msg, size_t len) {
    jl_span m, method, id;
    m.p = (const char *)msg;
    m.n = len;
    say("   %s(skipped ", dim());
    if (jl_get(m, "method", &method)) {
        char *name = jl_string_dup(method, NULL);
        say("%s ", jl_get(m, "id", &id) ? "server request" : "notification");
        if (name != NULL) {
            jl_write_safe(stderr, name, strlen(name));
        }
        free(name);
    } else if (jl_get(m, "id", &id)) {
        say("a response to id ");
        jl_write_safe(stderr, id.p, id.n < 40 ? id.n : 40);
    } else {
        say("an unrelated message");
    }
    say(")%s\n", reset());
}

static void say_failure(const mrtr_call *call, enum mrtr_status st) {
    struct mrtr_failure f;
    say("mrtr-client: the call failed: %s", mrtr_status_str(st));
    if (mrtr_call_failure(call, &f) == MRTR_OK) {
        say(" (%s", f.reason != NULL ? f.reason : "?");
        if (f.kind == MRTR_FAILURE_JSON) {
            say(" at byte %zu", f.offset);
        } else if (f.kind == MRTR_FAILURE_TOO_MANY_ROUNDS || f.kind == MRTR_FAILURE_TOO_MANY_STATE_ONLY_ROUNDS) {
            say(", limit %llu", (unsigned long long)f.limit);
        } else if (f.kind == MRTR_FAILURE_INPUTS_TOO_LARGE || f.kind == MRTR_FAILURE_STATE_TOO_LARGE) {
            say(", needs %zu bytes, limit %llu", f.needed, (unsigned long long)f.limit);
        }
        say(")");
    }
    say("\n");
}

/* Set by SIGINT while a task runs: its next request is its cancellation. */
static volatile sig_atomic_t g_interrupted;
/* --cancel-after: when a task is cancelled (CLOCK_MONOTONIC ms), or -1. */
static long long g_cancel_at = -1;

static void on_sigint(int sig) {
    (void)sig;
    g_interrupted = 1;
}

/* While a task runs, Ctrl-C cancels it (no SA_RESTART: it ends a wait);
 * otherwise, and once the cancellation is sent, it ends the program. */
static void catch_sigint(bool cancels_task) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = cancels_task ? on_sigint : SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

static long long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits `ms`, or less: until Ctrl-C, or until the --cancel-after moment. */
static void sleep_ms(uint64_t ms) {
    struct timespec ts;
    if (g_cancel_at >= 0) {
        long long left = g_cancel_at - now_ms();
        if (left < 0) {
            left = 0;
        }
        if ((uint64_t)left < ms) {
            ms = (uint64_t)left;
        }
    }
    ts.tv_sec = (time_t)(ms / 1000);
    ts.tv_nsec = (long)(ms % 1000) * 1000000L;
    while (!g_interrupted && nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* Whether the task is to be cancelled now (Ctrl-C, --cancel-after), and
 * why. */
static const char *cancel_reason(void) {
    if (g_interrupted) {
        return "interrupted";
    }
    if (g_cancel_at >= 0 && now_ms() >= g_cancel_at) {
        return "--cancel-after";
    }
    return NULL;
}

/* The error of a failed task: its message and code on stderr. */
static void say_task_error(const uint8_t *msg, const mrtr_event *ev) {
    jl_span m;
    char *text;
    m.p = (const char *)msg + ev->error_message.offset;
    m.n = ev->error_message.len;
    text = jl_string_dup(m, NULL);
    say("%s<- the task failed%s with error %lld: ", bold(), reset(), (long long)ev->error_code);
    if (text != NULL) {
        say_text("", text, strlen(text));
    }
    say("\n");
    free(text);
    if (ev->error_data.len > 0) {
        jl_span data;
        data.p = (const char *)msg + ev->error_data.offset;
        data.n = ev->error_data.len;
        say("   data: ");
        jl_pretty(stderr, data, 1);
        say("\n");
    }
}

/* ---- the call ------------------------------------------------------------ */

static bool in_task_flow(const mrtr_call *call) {
    mrtr_progress pr;
    return mrtr_call_progress(call, &pr) == MRTR_OK && pr.flow == MRTR_FLOW_TASK;
}

static int run_call(struct session *s, mrtr_call *call, transport *tp) {
    uint8_t *req = NULL;
    size_t req_cap = 0;
    unsigned requests = 0;
    int rc = EXIT_TRANSPORT;
    bool cancelling = false;
    for (;;) {
        int64_t id;
        size_t req_len = 0, unrelated = 0;
        const uint8_t *msg = NULL;
        size_t len = 0;
        mrtr_event ev;
        enum mrtr_status st;
        uint32_t round = 0;
        size_t n, i;
        bool cancel = false;
        {
            mrtr_progress pr;
            const char *why = cancel_reason();
            if (mrtr_call_progress(call, &pr) != MRTR_OK || !pr.has_next_id) {
                rc = fail(EXIT_PROTOCOL, "request ids used up");
                break;
            }
            id = pr.next_id;
            if (why != NULL && pr.flow == MRTR_FLOW_TASK && !cancelling) {
                say("%s-> cancelling task ", bold());
                jl_write_safe(stderr, pr.task_id.ptr, pr.task_id.len);
                say("%s (%s)\n", reset(), why);
                cancel = true;
                cancelling = true;
                /* Once: waits are whole again, a second Ctrl-C ends us. */
                g_cancel_at = -1;
                g_interrupted = 0;
                catch_sigint(false);
            }
        }
        st = cancel ? mrtr_call_write_cancel(call, id, req, req_cap, &req_len)
                    : mrtr_call_write_request(call, id, req, req_cap, &req_len);
        if (st == MRTR_ERR_BUFFER_TOO_SMALL) {
            uint8_t *grown = realloc(req, req_len);
            if (grown == NULL) {
                rc = fail(EXIT_LOCAL, "out of memory");
                break;
            }
            req = grown;
            req_cap = req_len;
            st = cancel ? mrtr_call_write_cancel(call, id, req, req_cap, &req_len)
                        : mrtr_call_write_request(call, id, req, req_cap, &req_len);
        }
        if (st != MRTR_OK) {
            rc = fail(EXIT_LOCAL, "cannot write request: %s", mrtr_status_str(st));
            break;
        }
        if (tp_send(tp, req, req_len) != 0) {
            rc = fail(EXIT_TRANSPORT, "transport: %s", tp_error(tp));
            break;
        }
        requests++;
        for (;;) {
            if (tp_next(tp, &msg, &len) != 0) {
                rc = fail(EXIT_TRANSPORT, "transport: %s", tp_error(tp));
                goto done;
            }
            st = mrtr_call_feed(call, msg, len, &ev);
            if (st != MRTR_OK) {
                say_failure(call, st);
                rc = EXIT_PROTOCOL;
                goto done;
            }
            if (ev.kind != MRTR_EVENT_UNRELATED) {
                break;
            }
            if (++unrelated <= SHOWN_UNRELATED) {
                say_unrelated(msg, len);
            }
            if (unrelated > MAX_UNRELATED_PER_REQUEST) {
                say("   %s(skipped %zu more)%s\n", dim(), unrelated - 1 - SHOWN_UNRELATED, reset());
                rc = fail(EXIT_PROTOCOL, "more than %d unrelated messages while waiting for one answer",
                          MAX_UNRELATED_PER_REQUEST);
                goto done;
            }
        }
        if (unrelated > SHOWN_UNRELATED) {
            say("   %s(skipped %zu more unrelated messages)%s\n", dim(), unrelated - SHOWN_UNRELATED, reset());
        }
        {
            mrtr_progress pr;
            round = mrtr_call_progress(call, &pr) == MRTR_OK ? pr.round : 0;
        }
        switch (ev.kind) {
        case MRTR_EVENT_COMPLETE: {
            mrtr_str result;
            jl_span r;
            say("%s<- complete%s after %u round%s, %u request%s\n", bold(), reset(), round, round == 1 ? "" : "s",
                requests, requests == 1 ? "" : "s");
            if (mrtr_call_result(call, msg, len, &result) != MRTR_OK) {
                rc = fail(EXIT_LOCAL, "cannot read the result");
                goto done;
            }
            r.p = result.ptr;
            r.n = result.len;
            jl_pretty(stdout, r, 0);
            fputc('\n', stdout);
            fflush(stdout);
            rc = EXIT_COMPLETE;
            goto done;
        }
        case MRTR_EVENT_RPC_ERROR: {
            jl_span m, data;
            char *text;
            m.p = (const char *)msg + ev.error_message.offset;
            m.n = ev.error_message.len;
            text = jl_string_dup(m, NULL);
            say("%s<- JSON-RPC error %lld%s: ", bold(), (long long)ev.error_code, reset());
            if (text != NULL) {
                say_text("", text, strlen(text));
            }
            say("\n");
            free(text);
            if (ev.error_data.len > 0) {
                data.p = (const char *)msg + ev.error_data.offset;
                data.n = ev.error_data.len;
                say("   data: ");
                jl_pretty(stderr, data, 1);
                say("\n");
            }
            rc = EXIT_RPC_ERROR;
            goto done;
        }
        case MRTR_EVENT_RETRY_AFTER: {
            long long sl = state_length(call);
            say("%s-> round %u%s: no questions, only requestState (%lld bytes): retrying in %llu ms\n", bold(),
                round, reset(), sl, (unsigned long long)ev.wait_ms);
            sleep_ms(ev.wait_ms);
            continue;
        }
        case MRTR_EVENT_INPUT_REQUIRED: {
            long long sl = state_length(call);
            n = ev.input_count;
            say("%s-> round %u%s: the server needs %zu answer%s", bold(), round, reset(), n, n == 1 ? "" : "s");
            if (sl >= 0) {
                say(", requestState %lld bytes", sl);
            }
            say("\n");
            for (i = 0; i < n; i++) {
                rc = answer_input(s, call, i);
                if (rc != 0) {
                    goto done;
                }
            }
            if (in_task_flow(call)) {
                say("   %ssending %zu answer%s to the task (tasks/update)%s\n", dim(), n, n == 1 ? "" : "s", reset());
            } else if (sl >= 0) {
                say("   %sretrying with %zu answer%s and the requestState echoed (%lld bytes)%s\n", dim(), n,
                    n == 1 ? "" : "s", sl, reset());
            } else {
                say("   %sretrying with %zu answer%s (no requestState)%s\n", dim(), n, n == 1 ? "" : "s", reset());
            }
            continue;
        }
        case MRTR_EVENT_TASK_CREATED: {
            /* The same handle now follows the task: poll it. */
            mrtr_progress pr;
            if (mrtr_call_progress(call, &pr) != MRTR_OK) {
                rc = fail(EXIT_LOCAL, "cannot read the call's progress");
                goto done;
            }
            say("%s<- the server moved the call to task ", bold());
            jl_write_safe(stderr, pr.task_id.ptr, pr.task_id.len);
            say("%s: polling every %llu ms\n", reset(), (unsigned long long)pr.poll_ms);
            catch_sigint(true);
            sleep_ms(pr.poll_ms);
            continue;
        }
        case MRTR_EVENT_TASK_POLL:
            say("   %stask working: next poll in %llu ms%s\n", dim(), (unsigned long long)ev.wait_ms, reset());
            sleep_ms(ev.wait_ms);
            continue;
        case MRTR_EVENT_TASK_NEXT:
            continue;
        case MRTR_EVENT_TASK_FAILED:
            say_task_error(msg, &ev);
            rc = EXIT_TASK_FAILED;
            goto done;
        case MRTR_EVENT_TASK_CANCELLED:
            say("%s<- the task was cancelled%s%s\n", bold(), reset(),
                cancelling ? " (the server acknowledged tasks/cancel)" : " by the server");
            rc = EXIT_TASK_CANCELLED;
            goto done;
        default:
            rc = fail(EXIT_PROTOCOL, "unexpected event %d", (int)ev.kind);
            goto done;
        }
    }
done:
    free(req);
    return rc;
}

/* ---- arguments ----------------------------------------------------------- */

/* The demo server: $MRTR_DEMO_SERVER, next to this program, or in the
 * repository's target/release (this program lives in build/). */
static char *find_demo_server(void) {
    const char *env = getenv("MRTR_DEMO_SERVER");
    char self[PATH_MAX];
    ssize_t n;
    static const char *const rel[] = {"/mrtr-demo-server", "/../target/release/mrtr-demo-server"};
    size_t k;
    if (env != NULL && env[0] != '\0') {
        char *copy = malloc(strlen(env) + 1);
        if (copy != NULL) {
            strcpy(copy, env);
        }
        return copy;
    }
    n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        return NULL;
    }
    self[n] = '\0';
    if (strrchr(self, '/') != NULL) {
        *strrchr(self, '/') = '\0';
    }
    for (k = 0; k < sizeof rel / sizeof rel[0]; k++) {
        size_t len = strlen(self) + strlen(rel[k]) + 1;
        char *path = malloc(len);
        if (path == NULL) {
            return NULL;
        }
        snprintf(path, len, "%s%s", self, rel[k]);
        if (access(path, X_OK) == 0) {
            char *clean = realpath(path, NULL); /* no "build/../" in the log */
            if (clean != NULL) {
                free(path);
                return clean;
            }
            return path;
        }
        free(path);
    }
    return NULL;
}

static int parse_args(int argc, char **argv, struct options *o) {
    int i;
    char **rest = NULL;
    int nrest = 0;
    memset(o, 0, sizeof *o);
    o->max_rounds = -1;
    o->cancel_after_ms = -1;
    o->interactive = -1;
    o->timeout_ms = DEFAULT_TIMEOUT_MS;
    rest = calloc((size_t)argc + 1, sizeof *rest);
    if (rest == NULL) {
        return fail(EXIT_LOCAL, "out of memory");
    }
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            o->server_argv = argv + i + 1;
            if (argv[i + 1] == NULL) {
                free(rest);
                return fail(EXIT_LOCAL, "no server command after --");
            }
            break;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(USAGE, stdout);
            free(rest);
            exit(0);
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            o->verbose = 1;
        } else if (strcmp(a, "--interactive") == 0) {
            o->interactive = 1;
        } else if (strcmp(a, "--no-input") == 0) {
            o->interactive = 0;
        } else if (strcmp(a, "--no-tasks") == 0) {
            o->no_tasks = 1;
        } else if ((strcmp(a, "--answers") == 0 || strcmp(a, "--max-rounds") == 0 || strcmp(a, "--http") == 0 ||
                    strcmp(a, "--timeout") == 0 || strcmp(a, "--cancel-after") == 0)) {
            const char *v = argv[i + 1];
            if (v == NULL) {
                free(rest);
                return fail(EXIT_LOCAL, "%s needs a value\n\n%s", a, USAGE);
            }
            i++;
            if (strcmp(a, "--answers") == 0) {
                o->answers_path = v;
            } else if (strcmp(a, "--http") == 0) {
                o->http_url = v;
            } else {
                char *end;
                long n;
                errno = 0;
                n = strtol(v, &end, 10);
                if (*v == '\0' || *end != '\0' || errno != 0 || n < 1 || n > INT_MAX) {
                    free(rest);
                    return fail(EXIT_LOCAL, "%s: not a positive number: %s", a, v);
                }
                if (strcmp(a, "--max-rounds") == 0) {
                    o->max_rounds = n;
                } else if (strcmp(a, "--cancel-after") == 0) {
                    o->cancel_after_ms = n;
                } else {
                    o->timeout_ms = (int)n;
                }
            }
        } else if (a[0] == '-' && a[1] != '\0' && nrest == 0) {
            free(rest);
            return fail(EXIT_LOCAL, "unknown option %s\n\n%s", a, USAGE);
        } else {
            rest[nrest++] = argv[i];
        }
    }
    if (nrest >= 2 && (strcmp(rest[0], "tool") == 0 || strcmp(rest[0], "prompt") == 0) && nrest <= 3) {
        bool tool = strcmp(rest[0], "tool") == 0;
        o->method = tool ? MRTR_METHOD_TOOLS_CALL : MRTR_METHOD_PROMPTS_GET;
        o->method_name = tool ? "tools/call" : "prompts/get";
        o->target = rest[1];
        o->args_json = nrest == 3 ? rest[2] : "{}";
    } else if (nrest == 2 && strcmp(rest[0], "resource") == 0) {
        o->method = MRTR_METHOD_RESOURCES_READ;
        o->method_name = "resources/read";
        o->target = rest[1];
    } else {
        free(rest);
        return fail(EXIT_LOCAL, "expected tool NAME [ARGS_JSON], prompt NAME [ARGS_JSON] or resource URI\n\n%s",
                    USAGE);
    }
    free(rest);
    return 0;
}

static int build_params(const struct options *o, struct buf *params) {
    buf_str(params, o->method == MRTR_METHOD_RESOURCES_READ ? "{\"uri\":" : "{\"name\":");
    buf_json_string(params, o->target, strlen(o->target));
    if (params->oom) {
        return fail(EXIT_LOCAL, "the name or URI is not valid UTF-8");
    }
    if (o->args_json != NULL) {
        jl_span a;
        a.p = o->args_json;
        a.n = strlen(o->args_json);
        if (!jl_valid(a) || jl_kind(a) != '{') {
            return fail(EXIT_LOCAL, "ARGS_JSON must be a JSON object: %s", o->args_json);
        }
        buf_str(params, ",\"arguments\":");
        buf_add(params, a.p, a.n);
    }
    buf_str(params, "}");
    return params->oom ? fail(EXIT_LOCAL, "out of memory") : 0;
}

static uint32_t client_caps(const struct options *o) {
    uint32_t caps = MRTR_CAP_ELICITATION_FORM | MRTR_CAP_ELICITATION_URL | MRTR_CAP_SAMPLING | MRTR_CAP_ROOTS;
    return o->no_tasks ? caps : caps | MRTR_CAP_TASKS;
}

/* tools/list, every page, once for this connection: the tool to call must
 * be listed and usable (SEP-2243); its inputSchema then gives every HTTP
 * leg of the call its Mcp-Param-* headers. A server that answers
 * tools/list with a JSON-RPC error lists nothing to check against: the
 * call goes out without the list (a server that designates arguments
 * lists them). 0, or the exit code. */
static int check_tool(const struct options *o, transport *tp, tl_tools *tools) {
    tl_client rpc;
    const tl_tool *t;
    size_t count = 0, i;
    enum tl_status st;
    memset(&rpc, 0, sizeof rpc);
    rpc.tp = tp;
    rpc.next_id = 1;
    rpc.caps = client_caps(o);
    rpc.name = "mrtr-client";
    st = tl_list_tools(&rpc, tools);
    if (st == TL_RPC_ERROR) {
        say("   %stools/list refused (", dim());
        jl_write_safe(stderr, rpc.err, strlen(rpc.err));
        say("): calling without the list%s\n", reset());
        tl_free(tools);
        return 0;
    }
    if (st != TL_OK) {
        int code = st == TL_TRANSPORT ? EXIT_TRANSPORT : st == TL_PROTOCOL ? EXIT_PROTOCOL : EXIT_LOCAL;
        say("mrtr-client: ");
        jl_write_safe(stderr, rpc.err, strlen(rpc.err));
        say("\n");
        return code;
    }
    say("   %stools/list: %zu tool%s on %zu page%s%s\n", dim(), tools->len, tools->len == 1 ? "" : "s", tools->pages,
        tools->pages == 1 ? "" : "s", reset());
    t = tl_find(tools, o->target);
    if (t == NULL) {
        say("mrtr-client: the server lists no tool named \"");
        jl_write_safe(stderr, o->target, strlen(o->target));
        say("\"; not calling it. Listed:");
        for (i = 0; i < tools->len; i++) {
            say(" ");
            jl_write_safe(stderr, tools->items[i].name, strlen(tools->items[i].name));
        }
        say("%s\n", tools->len == 0 ? " (none)" : "");
        return EXIT_TOOL_REFUSED;
    }
    if (!t->usable) {
        mrtr_str schema;
        schema.ptr = t->schema;
        schema.len = strlen(t->schema);
        say("mrtr-client: not calling \"");
        jl_write_safe(stderr, t->name, strlen(t->name));
        say("\": its inputSchema's x-mcp-header designations are invalid (%s), so a client must "
            "exclude the tool (SEP-2243)\n",
            mrtr_status_str(mrtr_tool_header_check(schema, &count)));
        return EXIT_TOOL_REFUSED;
    }
    tp_set_tool_schema(tp, t->schema, strlen(t->schema));
    return 0;
}

int main(int argc, char **argv) {
    struct options opt;
    struct session s;
    struct buf params = {NULL, 0, 0, false};
    mrtr_call_limits limits;
    mrtr_call_config cfg;
    mrtr_call *call = NULL;
    void *ws = NULL;
    size_t ws_len = 0, needed = 0;
    transport_options topt;
    transport *tp = NULL;
    char *demo_server = NULL;
    char *default_argv[2] = {NULL, NULL};
    char err[512];
    const char *name = "mrtr-client";
    enum mrtr_status st;
    tl_tools tools;
    int rc;

    g_color = isatty(STDERR_FILENO) && getenv("NO_COLOR") == NULL;
    memset(&tools, 0, sizeof tools);
    rc = parse_args(argc, argv, &opt);
    if (rc != 0) {
        return rc;
    }
    memset(&s, 0, sizeof s);
    s.opt = &opt;
    s.interactive = opt.interactive == 1 || (opt.interactive == -1 && isatty(STDIN_FILENO));
    if (opt.answers_path != NULL && (rc = load_answers(&s.answers, opt.answers_path)) != 0) {
        free_answers(&s.answers);
        return rc;
    }
    if ((rc = build_params(&opt, &params)) != 0) {
        goto out;
    }

    if (mrtr_call_limits_default(&limits) != MRTR_OK) {
        rc = fail(EXIT_LOCAL, "mrtr_call_limits_default failed");
        goto out;
    }
    if (opt.max_rounds > 0) {
        limits.max_rounds = (uint32_t)opt.max_rounds;
    }
    st = mrtr_call_workspace_size(&limits, &ws_len);
    if (st != MRTR_OK || (ws = malloc(ws_len)) == NULL) {
        rc = fail(EXIT_LOCAL, "cannot size the call workspace: %s", mrtr_status_str(st));
        goto out;
    }
    memset(&cfg, 0, sizeof cfg);
    cfg.method = opt.method;
    cfg.params.ptr = params.p;
    cfg.params.len = params.len;
    cfg.caps = client_caps(&opt);
    cfg.first_id = FIRST_CALL_ID;
    cfg.client_name.ptr = name;
    cfg.client_name.len = strlen(name);
    cfg.client_version.ptr = mrtr_version();
    cfg.client_version.len = strlen(mrtr_version());
    cfg.limits = &limits;
    cfg.out_needed = &needed;
    st = mrtr_call_init(ws, ws_len, &cfg, &call);
    if (st != MRTR_OK) {
        rc = fail(EXIT_LOCAL, "cannot start the call: %s (check the name, URI and arguments)", mrtr_status_str(st));
        goto out;
    }

    memset(&topt, 0, sizeof topt);
    topt.http_url = opt.http_url;
    topt.server_argv = opt.server_argv;
    topt.timeout_ms = opt.timeout_ms;
    topt.max_message_bytes = limits.max_message_bytes;
    topt.verbose = opt.verbose;
    if (topt.server_argv == NULL && opt.http_url == NULL) {
        demo_server = find_demo_server();
        if (demo_server == NULL) {
            rc = fail(EXIT_TRANSPORT, "no server: build mrtr-demo-server (cargo build --release -p "
                                      "mrtr-demo-server), set MRTR_DEMO_SERVER, or pass -- SERVER_CMD");
            goto out;
        }
        default_argv[0] = demo_server;
        topt.server_argv = default_argv;
    }
    tp = tp_open(&topt, err, sizeof err);
    if (tp == NULL) {
        rc = fail(EXIT_TRANSPORT, "transport: %s", err);
        goto out;
    }
    say("%smrtr-client%s %s: %s ", bold(), reset(), mrtr_version(), opt.method_name);
    jl_write_safe(stderr, opt.target, strlen(opt.target));
    if (opt.args_json != NULL) {
        say(" ");
        say_json_short(opt.args_json, strlen(opt.args_json));
    }
    say("\n   %sserver: ", dim());
    {
        const char *d = tp_describe(tp);
        jl_write_safe(stderr, d, strlen(d));
    }
    say("%s\n   %sanswers: %s%s\n", reset(), dim(),
        opt.answers_path != NULL ? opt.answers_path : (s.interactive ? "asked on the terminal" : "none (declining)"),
        reset());
    if (opt.method == MRTR_METHOD_TOOLS_CALL && (rc = check_tool(&opt, tp, &tools)) != 0) {
        goto out;
    }
    if (opt.cancel_after_ms > 0) {
        g_cancel_at = now_ms() + opt.cancel_after_ms;
    }
    rc = run_call(&s, call, tp);
out:
    if (tp != NULL) {
        tp_set_tool_schema(tp, NULL, 0);
    }
    tl_free(&tools);
    tp_close(tp);
    free(demo_server);
    free(ws);
    free(params.p);
    free_answers(&s.answers);
    return rc;
}
