/*
 * toollist: the requests both C clients send outside a multi round-trip
 * call (tools/list, resources/list, prompts/list) and the server's tool
 * list, read page by page with mrtr_tool_list / mrtr_tool_next.
 *
 * A plain request carries the per-request _meta every 2026-07-28 request
 * carries (protocol version, client capabilities, client info); one
 * refused with -32022 is sent once more when mrtr_version_retry says so.
 * Each tool keeps its name (decoded), its inputSchema (raw JSON, for
 * tp_set_tool_schema) and whether its x-mcp-header designations allow
 * calling it (SEP-2243: a client must not call a tool whose designations
 * are invalid).
 */
#ifndef MRTR_CLIENT_TOOLLIST_H
#define MRTR_CLIENT_TOOLLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "transport.h"

/* Most tools/list pages read (a server whose cursors never end is cut). */
#define TL_MAX_PAGES 64
/* Most other messages (notifications, other ids) passed over while a
 * plain request waits for its answer. */
#define TL_MAX_UNRELATED 1000

/* Results of tl_request and tl_list_tools. */
enum tl_status {
    TL_OK = 0,
    TL_TRANSPORT = -1, /* tp_error() says why */
    TL_RPC_ERROR = -2, /* the server answered a JSON-RPC error */
    TL_PROTOCOL = -3,  /* an answer that is not what the method returns */
    TL_LOCAL = -4      /* out of memory, a request too large */
};

/* What a plain request is sent with. */
typedef struct tl_client {
    transport *tp;
    int64_t next_id;     /* the next JSON-RPC id; incremented per request */
    uint32_t caps;       /* MRTR_CAP_* bits, declared in _meta */
    const char *name;    /* clientInfo.name */
    char err[512];       /* why the last request failed */
    long long rpc_code;  /* TL_RPC_ERROR: the error code */
} tl_client;

/* One tool of the list. */
typedef struct tl_tool {
    char *name;   /* decoded, NUL-terminated */
    char *schema; /* inputSchema, raw JSON, NUL-terminated */
    bool usable;  /* false: invalid x-mcp-header designations */
} tl_tool;

typedef struct tl_tools {
    tl_tool *items;
    size_t len;
    size_t skipped; /* entries that were not tools (no name or schema) */
    size_t pages;
} tl_tools;

/* Writes the clientCapabilities object of `caps` (MRTR_CAP_* bits) into
 * `out` (NUL-terminated); 0, or -1 when it does not fit. */
int tl_caps_json(uint32_t caps, char *out, size_t len);

/* Sends `method` with `extra` members first in params ("" for none) and
 * the per-request _meta, and copies the response into `*out` (free it).
 * TL_OK on a result. */
enum tl_status tl_request(tl_client *c, const char *method, const char *extra, char **out, size_t *out_len);

/* Reads every page of tools/list into `*out` (free it with tl_free). */
enum tl_status tl_list_tools(tl_client *c, tl_tools *out);

/* The tool named `name`, or NULL when the list has none. */
const tl_tool *tl_find(const tl_tools *t, const char *name);

void tl_free(tl_tools *t);

#endif
