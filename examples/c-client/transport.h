/*
 * transport: moves JSON-RPC messages between the client and one MCP server.
 *
 * Two transports, one pull interface (send a request, then take the
 * messages that come back one at a time):
 *   - stdio: the server is a child process; newline-delimited JSON on its
 *     stdin and stdout, its stderr shared with ours;
 *   - HTTP: one POST per request through libcurl, with the headers
 *     mrtr_http_headers_for_message derives from the body; the response is
 *     application/json (one message) or text/event-stream (every `message`
 *     event, decoded with mrtr's SSE decoder). Optionally the server is
 *     started as a child process first (its output goes to our stderr).
 * mrtr itself never does I/O: this file is the application's half.
 */
#ifndef MRTR_CLIENT_TRANSPORT_H
#define MRTR_CLIENT_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

typedef struct transport transport;

typedef struct transport_options {
    /* The server's URL (POST endpoint); NULL speaks stdio to server_argv. */
    const char *http_url;
    /* The server command (NULL-terminated), or NULL for none (HTTP only). */
    char *const *server_argv;
    /* Longest wait for a message or for a spawned HTTP server to accept
     * connections, in milliseconds. */
    int timeout_ms;
    /* Largest message accepted (a stdio line, an HTTP body, an SSE event). */
    size_t max_message_bytes;
    /* Log every message sent and received to stderr. */
    int verbose;
} transport_options;

/* Opens the transport (spawns the server when there is a command). On
 * failure returns NULL and writes a reason to `err`. */
transport *tp_open(const transport_options *opts, char *err, size_t err_len);

/* Sends one request. Messages still queued from the previous request are
 * dropped. Returns 0, or -1 with tp_error() set. */
int tp_send(transport *tp, const uint8_t *msg, size_t len);

/* The next message from the server: `*msg` stays valid until the next
 * tp_* call. Returns 0, or -1 with tp_error() set (timeout, the server
 * closed its side, an HTTP response with no further message, ...). */
int tp_next(transport *tp, const uint8_t **msg, size_t *len);

/* The inputSchema (raw JSON from tools/list, not copied: it must outlive
 * its use) of the tool the next tools/call requests call, or NULL for none:
 * while set, every tools/call request goes out with
 * mrtr_http_headers_for_tool_call's headers (the arguments the schema
 * designates with x-mcp-header mirrored into Mcp-Param-* headers); other
 * requests (the task requests the call becomes) with
 * mrtr_http_headers_for_message's. */
void tp_set_tool_schema(transport *tp, const char *schema, size_t len);

/* What went wrong in the last failing call. */
const char *tp_error(const transport *tp);

/* A short description for logs: "stdio (cmd)" or "HTTP (url)". */
const char *tp_describe(const transport *tp);

/* Closes the connection, ends a spawned server (EOF on stdin, then
 * SIGTERM, then SIGKILL) and frees everything. NULL is fine. */
void tp_close(transport *tp);

#endif
