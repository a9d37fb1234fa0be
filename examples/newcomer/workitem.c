/*
 * A first program on the installed mrtr C library: one tools/call of the
 * demo server's update_work_item, the SEP's two-round example. Resolving
 * Bug #4522 asks for a resolution ("Duplicate"), then for the original
 * (4301); the second round carries the first answer in requestState.
 *
 *   workitem SERVER_CMD [ARGS...]     e.g. workitem target/release/mrtr-demo-server
 *
 * mrtr_run drives the call; this file is the application's half: a stdio
 * transport (the server is a child process, one JSON-RPC message per
 * line) and an elicit callback that answers each form from a table.
 * Prints each question, then the result's text; exits 0 only when the call
 * completes. How to build it: examples/newcomer/README.md. POSIX + C99.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <mrtr.h>

/* The server's stdin and stdout, seen from here. */
typedef struct {
    FILE *to_server;
    FILE *from_server;
} stdio_link;

/* Starts argv[0] with its stdin and stdout on pipes. */
static pid_t spawn(char **argv, stdio_link *link) {
    int up[2], down[2];
    if (pipe(up) != 0 || pipe(down) != 0) return -1;
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        dup2(down[0], STDIN_FILENO);
        dup2(up[1], STDOUT_FILENO);
        close(up[0]);
        close(up[1]);
        close(down[0]);
        close(down[1]);
        execvp(argv[0], argv);
        perror(argv[0]);
        _exit(127);
    }
    close(down[0]);
    close(up[1]);
    link->to_server = fdopen(down[1], "w");
    link->from_server = fdopen(up[0], "r");
    return link->to_server && link->from_server ? pid : -1;
}

/* mrtr_run's transport: send the request (if any) as one line, read the
 * next line into resp. */
static int32_t transport(void *user, const uint8_t *req, size_t req_len, uint8_t *resp,
                         size_t resp_cap, size_t *resp_len) {
    stdio_link *link = user;
    if (req != NULL) {
        if (fwrite(req, 1, req_len, link->to_server) != req_len ||
            fputc('\n', link->to_server) == EOF || fflush(link->to_server) != 0)
            return 1;
    }
    size_t n = 0;
    int c;
    while ((c = fgetc(link->from_server)) != EOF && c != '\n') {
        if (n == resp_cap) return 1; /* larger than the buffer: stop */
        resp[n++] = (uint8_t)c;
    }
    if (c == EOF) return 1;
    *resp_len = n;
    return 0;
}

/* The answers, by input key (a real client asks its user). */
static const struct {
    const char *key;
    const char *content;
} ANSWERS[] = {
    {"resolution", "{\"resolution\":\"Duplicate\"}"},
    {"duplicate_of", "{\"duplicateOfId\":4301}"},
};

static int32_t elicit(void *user, mrtr_call *call, size_t index, const mrtr_input *in) {
    (void)user;
    printf("question %.*s: %.*s\n", (int)in->key.len, in->key.ptr, (int)in->message.len,
           in->message.ptr);
    for (size_t i = 0; i < sizeof ANSWERS / sizeof ANSWERS[0]; i++) {
        if (in->key.len == strlen(ANSWERS[i].key) &&
            memcmp(in->key.ptr, ANSWERS[i].key, in->key.len) == 0) {
            mrtr_str content = {ANSWERS[i].content, strlen(ANSWERS[i].content)};
            printf("answer   %s\n", ANSWERS[i].content);
            return mrtr_call_answer_elicit(call, index, MRTR_ELICIT_ACCEPT, content) == MRTR_OK
                       ? MRTR_CB_ANSWERED
                       : MRTR_CB_ABORT;
        }
    }
    return MRTR_CB_DECLINE;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s SERVER_CMD [ARGS...]\n", argv[0]);
        return 1;
    }
    signal(SIGPIPE, SIG_IGN);
    stdio_link link;
    pid_t server = spawn(argv + 1, &link);
    if (server < 0) {
        perror("spawn");
        return 1;
    }

    /* The call lives in a workspace the program provides. */
    static uint64_t ws[8192]; /* 64 KiB, 8-aligned */
    size_t need = 0;
    if (mrtr_call_workspace_size(NULL, &need) != MRTR_OK || need > sizeof ws) {
        fprintf(stderr, "workspace: %zu bytes needed\n", need);
        return 1;
    }
    static const char params[] =
        "{\"name\":\"update_work_item\","
        "\"arguments\":{\"workItemId\":4522,\"fields\":{\"System.State\":\"Resolved\"}}}";
    mrtr_call_config cfg = {0};
    cfg.method = MRTR_METHOD_TOOLS_CALL;
    cfg.params = (mrtr_str){params, sizeof params - 1};
    cfg.caps = MRTR_CAP_ELICITATION_FORM;
    mrtr_call *call = NULL;
    mrtr_status st = mrtr_call_init(ws, sizeof ws, &cfg, &call);
    if (st != MRTR_OK) {
        fprintf(stderr, "mrtr_call_init: %s\n", mrtr_status_str(st));
        return 1;
    }

    /* One request and one response at a time. */
    static uint8_t buf[1 << 17];
    mrtr_run_callbacks cb = {0};
    cb.transport = transport;
    cb.elicit = elicit;
    mrtr_event ev;
    st = mrtr_run(call, &cb, &link, buf, sizeof buf, &ev);
    int rc = 1;
    if (st == MRTR_OK && ev.kind == MRTR_EVENT_COMPLETE) {
        /* The result object: print the first "text" member, decoded. */
        const char *result = (const char *)buf + ev.result.offset;
        size_t len = ev.result.len, at = 0;
        static const char tag[] = "\"text\":";
        while (at + sizeof tag - 1 <= len && memcmp(result + at, tag, sizeof tag - 1) != 0) at++;
        size_t start = at + sizeof tag - 1, end = start + 1;
        while (end < len && (result[end] != '"' || result[end - 1] == '\\')) end++;
        char text[512];
        size_t n = 0;
        if (end < len && mrtr_json_decode_string((const uint8_t *)result + start, end + 1 - start,
                                                 (uint8_t *)text, sizeof text, &n) == MRTR_OK) {
            printf("result   %.*s\n", (int)n, text);
            rc = 0;
        } else {
            fprintf(stderr, "no text in the result: %.*s\n", (int)len, result);
        }
    } else {
        fprintf(stderr, "mrtr_run: %s\n", mrtr_status_str(st));
    }
    fclose(link.to_server); /* EOF: the server exits */
    fclose(link.from_server);
    waitpid(server, NULL, 0);
    return rc;
}
