/* transport: see transport.h. */
#define _POSIX_C_SOURCE 200809L

#include "transport.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "jsonlite.h"
#include "mrtr.h"

/* Most messages one HTTP response may carry (notifications included), and
 * most bytes they may hold together: a stream that floods is refused
 * rather than buffered. */
#define MAX_QUEUED_MESSAGES 1024
#define MAX_QUEUED_BYTES (16u << 20)
/* How long a server gets to exit after EOF on stdin / SIGTERM. */
#define EXIT_GRACE_MS 2000
/* Bytes of a message shown in --verbose logs. */
#define VERBOSE_SHOWN_BYTES 2000

struct message {
    uint8_t *bytes;
    size_t len;
};

struct transport {
    int is_http;
    int timeout_ms;
    size_t max_message;
    int verbose;
    char err[512];
    char desc[512];

    /* The spawned server, if any. */
    pid_t child;
    int to_child;   /* its stdin (stdio mode), or -1 */
    int from_child; /* its stdout (stdio mode), or -1 */

    /* stdio: bytes read but not yet returned, rbuf[rstart..rlen). */
    uint8_t *rbuf;
    size_t rcap, rstart, rlen;

    /* HTTP. */
    CURL *curl;
    char *url;
    struct message queue[MAX_QUEUED_MESSAGES];
    size_t qlen, qhead, qbytes;
    uint8_t *body; /* an application/json body being received */
    size_t body_len;
    int body_too_large;
    int events_failed;     /* SSE events the decoder refused (not UTF-8) */
    int queue_overflow;
    char content_type[128];
    /* The called tool's inputSchema (tp_set_tool_schema), or NULL. */
    const char *tool_schema;
    size_t tool_schema_len;
    void *sse_ws;
    size_t sse_ws_len;
    struct mrtr_sse_decoder *sse;
};

static void set_err(transport *tp, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tp->err, sizeof tp->err, fmt, ap);
    va_end(ap);
}

static long long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms) {
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static void log_message(const transport *tp, const char *dir, const uint8_t *msg, size_t len) {
    if (!tp->verbose) {
        return;
    }
    fprintf(stderr, "    %s ", dir);
    jl_write_safe(stderr, (const char *)msg, len < VERBOSE_SHOWN_BYTES ? len : VERBOSE_SHOWN_BYTES);
    fprintf(stderr, "%s\n", len > VERBOSE_SHOWN_BYTES ? " ..." : "");
}

/* ---- child process ---------------------------------------------------- */

static void describe_status(int status, char *out, size_t len) {
    if (WIFEXITED(status)) {
        snprintf(out, len, "exit status %d", WEXITSTATUS(status));
    } else if (WIFSIGNALED(status)) {
        snprintf(out, len, "killed by signal %d", WTERMSIG(status));
    } else {
        snprintf(out, len, "status %d", status);
    }
}

/* Waits up to `ms` for the child to exit; 1 when it did (reaped). */
static int wait_child(transport *tp, long ms, int *status) {
    long long deadline = now_ms() + ms;
    for (;;) {
        pid_t r = waitpid(tp->child, status, WNOHANG);
        if (r == tp->child || (r < 0 && errno != EINTR)) {
            tp->child = -1;
            return 1;
        }
        if (now_ms() >= deadline) {
            return 0;
        }
        sleep_ms(10);
    }
}

static void set_cloexec(int fd) {
    int flags = fcntl(fd, F_GETFD);
    if (flags >= 0) {
        (void)fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
    }
}

static void close_fd(int *fd) {
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

/* Starts argv. In stdio mode its stdin and stdout are pipes to us; in HTTP
 * mode its stdin is /dev/null and its stdout our stderr. An exec failure
 * is reported here, through a close-on-exec pipe, not later as an EOF. */
static int spawn(transport *tp, char *const *argv) {
    int in[2] = {-1, -1}, out[2] = {-1, -1}, report[2] = {-1, -1};
    int child_errno = 0;
    ssize_t got;
    pid_t pid;
    if ((!tp->is_http && (pipe(in) != 0 || pipe(out) != 0)) || pipe(report) != 0) {
        set_err(tp, "pipe: %s", strerror(errno));
        close_fd(&in[0]), close_fd(&in[1]), close_fd(&out[0]), close_fd(&out[1]);
        close_fd(&report[0]), close_fd(&report[1]);
        return -1;
    }
    set_cloexec(report[0]);
    set_cloexec(report[1]);
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        set_err(tp, "fork: %s", strerror(errno));
        close_fd(&in[0]), close_fd(&in[1]), close_fd(&out[0]), close_fd(&out[1]);
        close_fd(&report[0]), close_fd(&report[1]);
        return -1;
    }
    if (pid == 0) {
        int e;
        if (tp->is_http) {
            int devnull = open("/dev/null", O_RDONLY);
            if (devnull >= 0) {
                dup2(devnull, STDIN_FILENO);
                close(devnull);
            }
            dup2(STDERR_FILENO, STDOUT_FILENO);
        } else {
            dup2(in[0], STDIN_FILENO);
            dup2(out[1], STDOUT_FILENO);
            close(in[0]), close(in[1]), close(out[0]), close(out[1]);
            /* Its own process group: a Ctrl-C on the terminal reaches the
             * client alone, which can then cancel a task on a live server
             * (the server still ends on EOF when the client goes). */
            (void)setpgid(0, 0);
        }
        close(report[0]);
        signal(SIGPIPE, SIG_DFL);
        execvp(argv[0], argv);
        e = errno;
        if (write(report[1], &e, sizeof e) < 0) {
            /* nothing more to do: the parent sees an exit status */
        }
        _exit(127);
    }
    tp->child = pid;
    close_fd(&report[1]);
    do {
        got = read(report[0], &child_errno, sizeof child_errno);
    } while (got < 0 && errno == EINTR);
    close_fd(&report[0]);
    if (!tp->is_http) {
        close_fd(&in[0]);
        close_fd(&out[1]);
        tp->to_child = in[1];
        tp->from_child = out[0];
        set_cloexec(tp->to_child);
        set_cloexec(tp->from_child);
    }
    if (got == (ssize_t)sizeof child_errno) {
        int status;
        set_err(tp, "cannot run %s: %s", argv[0], strerror(child_errno));
        wait_child(tp, EXIT_GRACE_MS, &status);
        return -1;
    }
    return 0;
}

/* Ends the child: EOF on its stdin first (stdio servers exit on it), then
 * SIGTERM, then SIGKILL. */
static void end_child(transport *tp) {
    int status;
    close_fd(&tp->to_child);
    if (tp->child > 0 && !tp->is_http && wait_child(tp, EXIT_GRACE_MS, &status)) {
        return;
    }
    if (tp->child > 0) {
        kill(tp->child, SIGTERM);
        if (!wait_child(tp, EXIT_GRACE_MS, &status)) {
            kill(tp->child, SIGKILL);
            wait_child(tp, EXIT_GRACE_MS, &status);
        }
    }
}

/* ---- stdio -------------------------------------------------------------- */

static int stdio_send(transport *tp, const uint8_t *msg, size_t len) {
    size_t off = 0;
    uint8_t *line = malloc(len + 1);
    size_t i;
    if (line == NULL) {
        set_err(tp, "out of memory");
        return -1;
    }
    /* Newline-delimited framing: a raw CR or LF in valid JSON can only be
     * whitespace between tokens, so it becomes a space. */
    for (i = 0; i < len; i++) {
        line[i] = (msg[i] == '\n' || msg[i] == '\r') ? ' ' : msg[i];
    }
    line[len] = '\n';
    while (off < len + 1) {
        ssize_t w = write(tp->to_child, line + off, len + 1 - off);
        if (w < 0) {
            if (errno == EINTR) {
                continue;
            }
            set_err(tp, "writing to the server: %s", strerror(errno));
            free(line);
            return -1;
        }
        off += (size_t)w;
    }
    free(line);
    return 0;
}

static int stdio_next(transport *tp, const uint8_t **msg, size_t *len) {
    long long deadline = now_ms() + tp->timeout_ms;
    for (;;) {
        uint8_t *start = tp->rbuf + tp->rstart;
        uint8_t *nl = memchr(start, '\n', tp->rlen - tp->rstart);
        if (nl != NULL) {
            size_t n = (size_t)(nl - start);
            tp->rstart += n + 1;
            if (n > 0 && start[n - 1] == '\r') {
                n--;
            }
            if (n == 0) {
                continue; /* blank lines are not messages */
            }
            *msg = start;
            *len = n;
            return 0;
        }
        if (tp->rstart > 0) {
            memmove(tp->rbuf, tp->rbuf + tp->rstart, tp->rlen - tp->rstart);
            tp->rlen -= tp->rstart;
            tp->rstart = 0;
        }
        if (tp->rlen == tp->rcap) {
            set_err(tp, "the server sent a line longer than %zu bytes", tp->max_message);
            return -1;
        }
        {
            struct pollfd pfd;
            long long left = deadline - now_ms();
            int r;
            ssize_t got;
            if (left <= 0) {
                set_err(tp, "no message from the server within %d ms", tp->timeout_ms);
                return -1;
            }
            pfd.fd = tp->from_child;
            pfd.events = POLLIN;
            pfd.revents = 0;
            r = poll(&pfd, 1, (int)left);
            if (r < 0 && errno == EINTR) {
                continue;
            }
            if (r < 0) {
                set_err(tp, "poll: %s", strerror(errno));
                return -1;
            }
            if (r == 0) {
                continue; /* the deadline check above ends the wait */
            }
            got = read(tp->from_child, tp->rbuf + tp->rlen, tp->rcap - tp->rlen);
            if (got < 0 && errno == EINTR) {
                continue;
            }
            if (got < 0) {
                set_err(tp, "reading from the server: %s", strerror(errno));
                return -1;
            }
            if (got == 0) {
                int status = 0;
                char how[64] = "still running";
                if (tp->child > 0 && wait_child(tp, 500, &status)) {
                    describe_status(status, how, sizeof how);
                }
                set_err(tp, "the server closed its output (%s)%s", how,
                        tp->rlen > 0 ? " in the middle of a message" : "");
                return -1;
            }
            tp->rlen += (size_t)got;
        }
    }
}

/* ---- HTTP --------------------------------------------------------------- */

/* Frees every queued message, those already handed out included (their
 * views end with the next tp_* call). */
static void queue_clear(transport *tp) {
    size_t i;
    for (i = 0; i < tp->qlen; i++) {
        free(tp->queue[i].bytes);
    }
    tp->qlen = 0;
    tp->qhead = 0;
    tp->qbytes = 0;
}

static int queue_push(transport *tp, const uint8_t *msg, size_t len) {
    uint8_t *copy;
    if (tp->qlen == MAX_QUEUED_MESSAGES || len > MAX_QUEUED_BYTES - tp->qbytes) {
        tp->queue_overflow = 1;
        return -1;
    }
    copy = malloc(len > 0 ? len : 1);
    if (copy == NULL) {
        tp->queue_overflow = 1;
        return -1;
    }
    memcpy(copy, msg, len);
    tp->queue[tp->qlen].bytes = copy;
    tp->queue[tp->qlen].len = len;
    tp->qlen++;
    tp->qbytes += len;
    return 0;
}

static int content_type_is(const transport *tp, const char *want) {
    return strcmp(tp->content_type, want) == 0;
}

static size_t on_header(char *data, size_t size, size_t nmemb, void *user) {
    transport *tp = user;
    size_t n = size * nmemb;
    static const char name[] = "content-type:";
    if (n >= 5 && memcmp(data, "HTTP/", 5) == 0) {
        tp->content_type[0] = '\0'; /* a new response (after 100 Continue) */
    } else if (n > sizeof name - 1) {
        size_t i;
        for (i = 0; i < sizeof name - 1; i++) {
            if (tolower((unsigned char)data[i]) != name[i]) {
                break;
            }
        }
        if (i == sizeof name - 1) {
            /* The media type, lower-cased, without parameters. */
            size_t o = 0;
            while (i < n && (data[i] == ' ' || data[i] == '\t')) {
                i++;
            }
            while (i < n && o + 1 < sizeof tp->content_type && data[i] != ';' && data[i] != '\r' &&
                   data[i] != '\n' && data[i] != ' ') {
                tp->content_type[o++] = (char)tolower((unsigned char)data[i++]);
            }
            tp->content_type[o] = '\0';
        }
    }
    return n;
}

/* Feeds SSE bytes to the decoder, queueing the data of `message` events. */
static int sse_feed(transport *tp, const uint8_t *p, size_t n) {
    while (n > 0) {
        struct mrtr_sse_event ev;
        size_t consumed = 0;
        enum mrtr_status st = mrtr_sse_feed(tp->sse, p, n, &consumed, &ev, NULL);
        if (st == MRTR_ERR_LIMIT_EXCEEDED) {
            /* An event over the message limit: the server broke the size
             * contract on our stream. Stop here instead of skipping to the
             * event's end, which a hostile server need never send (the
             * decoder's memory is bounded, the time to drain is not). */
            set_err(tp, "SSE event over the %zu-byte message limit", tp->max_message);
            return -1;
        } else if (st == MRTR_ERR_INVALID_UTF8) {
            tp->events_failed++; /* that event is skipped; the stream goes on */
        } else if (st != MRTR_OK) {
            set_err(tp, "SSE decoder: %s", mrtr_status_str(st));
            return -1;
        } else if (ev.has_event && ev.data.len > 0 && ev.event_type.len == 7 &&
                   memcmp(ev.event_type.ptr, "message", 7) == 0) {
            if (queue_push(tp, (const uint8_t *)ev.data.ptr, ev.data.len) != 0) {
                return -1;
            }
        }
        if (consumed == 0 && !(st == MRTR_OK && ev.has_event)) {
            set_err(tp, "SSE decoder made no progress");
            return -1;
        }
        p += consumed;
        n -= consumed;
    }
    return 0;
}

static size_t on_body(char *data, size_t size, size_t nmemb, void *user) {
    transport *tp = user;
    size_t n = size * nmemb;
    if (content_type_is(tp, "text/event-stream")) {
        return sse_feed(tp, (const uint8_t *)data, n) == 0 ? n : 0;
    }
    if (tp->body_len + n > tp->max_message) {
        tp->body_too_large = 1;
        return 0;
    }
    memcpy(tp->body + tp->body_len, data, n);
    tp->body_len += n;
    return n;
}

/* Whether `msg` (a request this client wrote) is a tools/call. */
static int is_tool_call(const uint8_t *msg, size_t len) {
    jl_span m, method;
    m.p = (const char *)msg;
    m.n = len;
    return jl_get(m, "method", &method) && jl_string_equals(method, "tools/call");
}

/* The headers for `msg`: for a tools/call with a tool schema set, those of
 * mrtr_http_headers_for_tool_call (Mcp-Param-* headers for the arguments
 * the schema designates), else those of mrtr_http_headers_for_message
 * (the task requests a call becomes: tasks/get, tasks/update,
 * tasks/cancel). */
static enum mrtr_status message_headers(transport *tp, const uint8_t *msg, size_t len, uint8_t *buf,
                                        size_t buf_len, size_t *need, struct mrtr_http_header *hdrs,
                                        size_t cap, size_t *count) {
    if (tp->tool_schema != NULL && is_tool_call(msg, len)) {
        mrtr_str schema = {tp->tool_schema, tp->tool_schema_len};
        return mrtr_http_headers_for_tool_call(msg, len, schema, buf, buf_len, need, hdrs, cap, count, NULL);
    }
    return mrtr_http_headers_for_message(msg, len, buf, buf_len, need, hdrs, cap, count, NULL);
}

static struct curl_slist *request_headers(transport *tp, const uint8_t *msg, size_t len) {
    struct mrtr_http_header *hdrs = NULL;
    size_t need = 0, count = 0, cap = MRTR_HTTP_MAX_HEADERS, i;
    uint8_t *buf = NULL;
    struct curl_slist *list = NULL;
    enum mrtr_status st;
    /* Sizes first (entries and bytes), then the headers. */
    for (;;) {
        struct mrtr_http_header *h = realloc(hdrs, cap * sizeof *hdrs);
        uint8_t *b;
        if (h == NULL) {
            free(hdrs);
            free(buf);
            set_err(tp, "out of memory");
            return NULL;
        }
        hdrs = h;
        b = realloc(buf, need > 0 ? need : 1);
        if (b == NULL) {
            free(hdrs);
            free(buf);
            set_err(tp, "out of memory");
            return NULL;
        }
        buf = b;
        st = message_headers(tp, msg, len, buf, need, &need, hdrs, cap, &count);
        if (st != MRTR_ERR_BUFFER_TOO_SMALL) {
            break;
        }
        if (count > cap) {
            cap = count;
        }
    }
    if (st != MRTR_OK) {
        set_err(tp, "request headers: %s", mrtr_status_str(st));
        free(hdrs);
        free(buf);
        return NULL;
    }
    for (i = 0; i < count; i++) {
        size_t n = hdrs[i].name.len + 2 + hdrs[i].value.len + 1;
        char *line = malloc(n);
        struct curl_slist *next;
        if (line == NULL) {
            break;
        }
        if (hdrs[i].value.len == 0) {
            /* libcurl drops "Name: " (an empty value); "Name;" sends it. */
            snprintf(line, n, "%.*s;", (int)hdrs[i].name.len, hdrs[i].name.ptr);
        } else {
            snprintf(line, n, "%.*s: %.*s", (int)hdrs[i].name.len, hdrs[i].name.ptr,
                     (int)hdrs[i].value.len, hdrs[i].value.ptr);
        }
        if (tp->verbose) {
            fprintf(stderr, "    --> %s\n", line);
        }
        next = curl_slist_append(list, line);
        free(line);
        if (next == NULL) {
            break;
        }
        list = next;
    }
    free(buf);
    free(hdrs);
    if (i < count) {
        curl_slist_free_all(list);
        set_err(tp, "out of memory");
        return NULL;
    }
    /* No "Expect: 100-continue" round trip for large bodies. */
    {
        struct curl_slist *next = curl_slist_append(list, "Expect:");
        if (next == NULL) {
            curl_slist_free_all(list);
            set_err(tp, "out of memory");
            return NULL;
        }
        list = next;
    }
    return list;
}

static int http_send(transport *tp, const uint8_t *msg, size_t len) {
    struct curl_slist *headers = request_headers(tp, msg, len);
    long long deadline = now_ms() + tp->timeout_ms;
    CURLcode rc;
    long status = 0;
    int result = 0;
    if (headers == NULL) {
        return -1;
    }
    for (;;) {
        long long left = deadline - now_ms();
        tp->body_len = 0;
        tp->body_too_large = 0;
        tp->events_failed = 0;
        tp->queue_overflow = 0;
        tp->content_type[0] = '\0';
        queue_clear(tp);
        if (mrtr_sse_init(tp->sse_ws, tp->sse_ws_len, &tp->sse) != MRTR_OK) {
            set_err(tp, "SSE decoder init failed");
            result = -1;
            break;
        }
        curl_easy_setopt(tp->curl, CURLOPT_HTTPHEADER, headers);
        curl_easy_setopt(tp->curl, CURLOPT_POSTFIELDS, (const char *)msg);
        curl_easy_setopt(tp->curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
        curl_easy_setopt(tp->curl, CURLOPT_TIMEOUT_MS, left > 0 ? (long)left : 1L);
        rc = curl_easy_perform(tp->curl);
        /* A server we just started may not listen yet: retry until the
         * deadline. Otherwise a refused connection is the answer. */
        if (rc == CURLE_COULDNT_CONNECT && tp->child > 0 && now_ms() + 100 < deadline) {
            int st;
            if (waitpid(tp->child, &st, WNOHANG) == tp->child) {
                char how[64];
                tp->child = -1;
                describe_status(st, how, sizeof how);
                set_err(tp, "the server exited before accepting connections (%s)", how);
                result = -1;
                break;
            }
            sleep_ms(100);
            continue;
        }
        if (rc != CURLE_OK) {
            if (tp->body_too_large) {
                set_err(tp, "HTTP response body over %zu bytes", tp->max_message);
            } else if (tp->queue_overflow) {
                set_err(tp, "more than %d messages or %u bytes in one HTTP response", MAX_QUEUED_MESSAGES,
                        MAX_QUEUED_BYTES);
            } else if (rc == CURLE_WRITE_ERROR && tp->err[0] != '\0') {
                /* sse_feed said why */
            } else {
                set_err(tp, "HTTP POST %s: %s", tp->url, curl_easy_strerror(rc));
            }
            result = -1;
            break;
        }
        curl_easy_getinfo(tp->curl, CURLINFO_RESPONSE_CODE, &status);
        if (tp->verbose) {
            fprintf(stderr, "    <-- HTTP %ld %s\n", status, tp->content_type);
        }
        if (content_type_is(tp, "text/event-stream")) {
            bool discarded = false;
            if (mrtr_sse_end_of_stream(tp->sse, &discarded) == MRTR_OK && discarded && tp->verbose) {
                fprintf(stderr, "    <-- (the stream ended inside an event; discarded)\n");
            }
        } else if (content_type_is(tp, "application/json")) {
            jl_span b;
            b.p = (const char *)tp->body;
            b.n = tp->body_len;
            b = jl_trim(b);
            if (b.n > 0 && queue_push(tp, (const uint8_t *)b.p, b.n) != 0) {
                set_err(tp, "out of memory");
                result = -1;
                break;
            }
        } else if (tp->body_len > 0 || (status / 100) != 2) {
            set_err(tp, "HTTP %ld with Content-Type \"%s\" (expected application/json or text/event-stream)",
                    status, tp->content_type);
            result = -1;
            break;
        }
        /* An error status with a JSON-RPC body (a 400 carrying -32022, ...)
         * is a message like any other; without one it is a transport
         * failure. */
        if ((status / 100) != 2 && tp->qlen == 0) {
            set_err(tp, "HTTP %ld without a JSON-RPC message", status);
            result = -1;
            break;
        }
        if (tp->qlen == 0) {
            set_err(tp, "HTTP %ld with no JSON-RPC message%s", status,
                    tp->events_failed > 0 ? " (events that were not UTF-8 were skipped)" : "");
        }
        break;
    }
    curl_easy_setopt(tp->curl, CURLOPT_HTTPHEADER, NULL);
    curl_slist_free_all(headers);
    return result;
}

static int http_next(transport *tp, const uint8_t **msg, size_t *len) {
    if (tp->qhead == tp->qlen) {
        if (tp->err[0] == '\0') {
            set_err(tp, "the HTTP response carried no further message%s",
                    tp->events_failed > 0 ? " (events that were not UTF-8 were skipped)" : "");
        }
        return -1;
    }
    *msg = tp->queue[tp->qhead].bytes;
    *len = tp->queue[tp->qhead].len;
    tp->qhead++;
    return 0;
}

static int http_open(transport *tp, const char *url) {
    static int curl_ready = 0;
    size_t need = 0;
    if (!curl_ready) {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
            set_err(tp, "curl_global_init failed");
            return -1;
        }
        curl_ready = 1;
        atexit(curl_global_cleanup);
    }
    tp->url = malloc(strlen(url) + 1);
    tp->body = malloc(tp->max_message > 0 ? tp->max_message : 1);
    if (mrtr_sse_decoder_size(tp->max_message, &need) != MRTR_OK) {
        set_err(tp, "SSE decoder size");
        return -1;
    }
    tp->sse_ws = malloc(need); /* malloc's alignment covers MRTR_WORKSPACE_ALIGN */
    tp->sse_ws_len = need;
    tp->curl = curl_easy_init();
    if (tp->url == NULL || tp->body == NULL || tp->sse_ws == NULL || tp->curl == NULL) {
        set_err(tp, "out of memory");
        return -1;
    }
    strcpy(tp->url, url);
    curl_easy_setopt(tp->curl, CURLOPT_URL, tp->url);
    curl_easy_setopt(tp->curl, CURLOPT_POST, 1L);
    curl_easy_setopt(tp->curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(tp->curl, CURLOPT_FOLLOWLOCATION, 0L);
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(tp->curl, CURLOPT_PROTOCOLS_STR, "http,https");
#endif
    curl_easy_setopt(tp->curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(tp->curl, CURLOPT_WRITEDATA, tp);
    curl_easy_setopt(tp->curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(tp->curl, CURLOPT_HEADERDATA, tp);
    curl_easy_setopt(tp->curl, CURLOPT_USERAGENT, "mrtr-client");
    return 0;
}

/* ---- interface ---------------------------------------------------------- */

transport *tp_open(const transport_options *opts, char *err, size_t err_len) {
    transport *tp = calloc(1, sizeof *tp);
    size_t i, o = 0;
    if (tp == NULL) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    tp->child = -1;
    tp->to_child = -1;
    tp->from_child = -1;
    tp->is_http = opts->http_url != NULL;
    tp->timeout_ms = opts->timeout_ms;
    tp->max_message = opts->max_message_bytes;
    tp->verbose = opts->verbose;
    signal(SIGPIPE, SIG_IGN); /* a dead server is an EPIPE, not our death */
    if (tp->is_http) {
        o += (size_t)snprintf(tp->desc, sizeof tp->desc, "HTTP %s", opts->http_url);
    } else {
        o += (size_t)snprintf(tp->desc, sizeof tp->desc, "stdio:");
    }
    for (i = 0; opts->server_argv != NULL && opts->server_argv[i] != NULL && o < sizeof tp->desc; i++) {
        o += (size_t)snprintf(tp->desc + o, sizeof tp->desc - o, "%s%s",
                              tp->is_http && i == 0 ? " (server: " : " ", opts->server_argv[i]);
    }
    if (tp->is_http && opts->server_argv != NULL && o < sizeof tp->desc) {
        snprintf(tp->desc + o, sizeof tp->desc - o, ")");
    }
    if (tp->is_http) {
        if (http_open(tp, opts->http_url) != 0) {
            goto fail;
        }
    } else {
        tp->rcap = tp->max_message + 2; /* the message, CR, LF */
        tp->rbuf = malloc(tp->rcap);
        if (tp->rbuf == NULL) {
            set_err(tp, "out of memory");
            goto fail;
        }
        if (opts->server_argv == NULL || opts->server_argv[0] == NULL) {
            set_err(tp, "no server command");
            goto fail;
        }
    }
    if (opts->server_argv != NULL && opts->server_argv[0] != NULL && spawn(tp, opts->server_argv) != 0) {
        goto fail;
    }
    return tp;
fail:
    snprintf(err, err_len, "%s", tp->err);
    tp_close(tp);
    return NULL;
}

int tp_send(transport *tp, const uint8_t *msg, size_t len) {
    tp->err[0] = '\0';
    log_message(tp, "-->", msg, len);
    return tp->is_http ? http_send(tp, msg, len) : stdio_send(tp, msg, len);
}

int tp_next(transport *tp, const uint8_t **msg, size_t *len) {
    int r = tp->is_http ? http_next(tp, msg, len) : stdio_next(tp, msg, len);
    if (r == 0) {
        log_message(tp, "<--", *msg, *len);
    }
    return r;
}

void tp_set_tool_schema(transport *tp, const char *schema, size_t len) {
    tp->tool_schema = schema;
    tp->tool_schema_len = len;
}

const char *tp_error(const transport *tp) {
    return tp->err;
}

const char *tp_describe(const transport *tp) {
    return tp->desc;
}

void tp_close(transport *tp) {
    if (tp == NULL) {
        return;
    }
    end_child(tp);
    close_fd(&tp->from_child);
    if (tp->curl != NULL) {
        curl_easy_cleanup(tp->curl);
    }
    queue_clear(tp);
    free(tp->rbuf);
    free(tp->url);
    free(tp->body);
    free(tp->sse_ws);
    free(tp);
}
