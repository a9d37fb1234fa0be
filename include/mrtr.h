/*
 * mrtr: MCP Multi Round-Trip Requests (protocol 2026-07-28) for C.
 *
 * The contract, said once for every function:
 * - Every fallible function returns mrtr_status (MRTR_OK = 0). Out-params
 *   are written only on success, except those a function names for a
 *   failure (the size needed with MRTR_ERR_BUFFER_TOO_SMALL; details such
 *   as the offset of mrtr_json_validate or the reason of mrtr_unseal).
 * - Common statuses, not repeated per function: MRTR_ERR_NULL_POINTER (a
 *   required pointer is NULL, or NULL comes with a non-zero length),
 *   MRTR_ERR_MISALIGNED, MRTR_ERR_INVALID_ARGUMENT (a handle that is not a
 *   live object of its type, or an argument that overlaps the object's
 *   workspace or an output).
 * - Why, where a status has several causes: a call remembers the cause of
 *   the last failure of a function on it, read with mrtr_call_check
 *   ("NotAnOption", "IdNotFresh", ...); a function taking mrtr_call *
 *   clears it ("") on success, one taking const mrtr_call * keeps it; functions
 *   without a handle take an optional const char **out_reason, or say it
 *   in their error record (reason). A reason is the static name of the
 *   core's cause, else the status's own name; a pointer the checks
 *   refuse writes none.
 * - Pointers: an input points to the stated number of readable bytes that
 *   do not change during the call; NULL only with length 0, also where
 *   NULL means "none". An output points to writable memory of its type and
 *   overlaps no input, the strings a struct or array points to included.
 *   Nothing is kept after return except the workspace an object lives in.
 * - Objects (calls, runners, SSE decoders, sealers) live in caller memory
 *   aligned to MRTR_WORKSPACE_ALIGN: size it (_workspace_size, _size, or
 *   sizeof), start it with _init; the handle is its address. Do not move
 *   or copy it, nor use one object from two threads at once. Views an
 *   object hands out stay valid until the next call that mutates it.
 *   There is nothing to free.
 * - The output convention (out, out_len, out_written): *out_written gets
 *   the bytes written, or with MRTR_ERR_BUFFER_TOO_SMALL the size needed
 *   (out NULL, out_len 0 asks for it); on failure out holds garbage.
 * - Strings are UTF-8 mrtr_str (pointer + length, not NUL-terminated); a
 *   const char * result is static, never NULL, not to be freed. Nothing
 *   allocates; no globals, no threads, no I/O.
 *
 * Quick start: a complete program. One tool call over stdio (each request
 * a line out, each message a line in), the library deciding the loop; it
 * accepts every form with {} (a real app shows it: mrtr_call_input_at,
 * mrtr_form_*). mrtr_run is the same loop over callbacks.
 *
 *   #include <stdio.h>
 *   #include <string.h>
 *   #include "mrtr.h"
 *
 *   int main(void) {
 *       static uint64_t ws[8192];          // 64 KiB, 8-aligned, no heap
 *       static uint8_t out[16384], msg[65536];
 *       mrtr_call_config cfg = {0};
 *       mrtr_call *call = NULL;
 *       mrtr_runner run;
 *       mrtr_step step;
 *       mrtr_event ev;
 *       bool again = false;
 *       cfg.method = MRTR_METHOD_TOOLS_CALL;
 *       cfg.params = (mrtr_str){"{\"name\":\"deploy\"}", 17};
 *       cfg.caps = MRTR_CAP_ELICITATION_FORM;
 *       if (mrtr_call_init(ws, sizeof ws, &cfg, &call) != MRTR_OK ||
 *           mrtr_runner_init(&run, call, 0, 0, 0) != MRTR_OK) return 1;
 *       for (;;) {
 *           if (mrtr_runner_next(&run, call, out, sizeof out, &step)) return 1;
 *           if (step.kind == MRTR_STEP_DONE) break;
 *           if (step.kind == MRTR_STEP_SEND) {
 *               printf("%.*s\n", (int)step.len, (const char *)out);
 *               fflush(stdout);
 *               do {                       // again: unrelated, read on
 *                   if (!fgets((char *)msg, sizeof msg, stdin)) return 1;
 *                   if (mrtr_runner_received(&run, call, msg,
 *                           strcspn((char *)msg, "\n"), &ev, &again)) return 1;
 *               } while (again);
 *           } else if (step.kind == MRTR_STEP_ASK) {
 *               mrtr_str content = {"{}", 2};
 *               if (mrtr_call_answer_elicit(call, step.index,
 *                       MRTR_ELICIT_ACCEPT, content) ||
 *                   mrtr_runner_answered(&run, call, step.index,
 *                       MRTR_CB_ANSWERED)) return 1;
 *           }                              // MRTR_STEP_WAIT: sleep wait_ms
 *       }
 *       if (step.status != MRTR_OK) return 1;   // RPC error, task cancelled
 *       fprintf(stderr, "%.*s\n", (int)ev.result.len,
 *               (const char *)msg + ev.result.offset);
 *       return 0;
 *   }
 */

/*
 * Contents (75 functions).
 *
 * Client calls (one handle for a call and the task it becomes):
 *   mrtr_call_limits_default    Writes the default limits to `*out` (see `mrtr_call_limits`)
 *   mrtr_call_workspace_size
 *   mrtr_call_request_size_max
 *   mrtr_call_check
 *   mrtr_call_init
 *   mrtr_call_write_request
 *   mrtr_call_resend
 *   mrtr_call_write_cancel
 *   mrtr_call_feed
 *   mrtr_call_progress
 *   mrtr_call_input_at
 *   mrtr_call_input_find
 *   mrtr_call_input_text
 *   mrtr_call_answer_elicit
 *   mrtr_call_answer_json
 *   mrtr_call_answer_roots
 *   mrtr_call_answer_error
 *   mrtr_call_result
 *   mrtr_call_save
 *   mrtr_call_restore
 *   mrtr_call_failure
 *
 * The run loop (the library's: as steps, or blocking over callbacks):
 *   mrtr_runner_init
 *   mrtr_runner_next
 *   mrtr_runner_received
 *   mrtr_runner_answered
 *   mrtr_run
 *
 * Client helpers: forms, URL consent, HTTP headers, tools, version retry, SSE:
 *   mrtr_form_parse
 *   mrtr_form_field_at
 *   mrtr_form_option_at
 *   mrtr_form_text
 *   mrtr_form_validate
 *   mrtr_form_write_content
 *   mrtr_http_headers
 *   mrtr_http_headers_for_message
 *   mrtr_http_headers_for_tool_call
 *   mrtr_tool_header_check
 *   mrtr_version_retry
 *   mrtr_sse_decoder_size            Writes the workspace size of a decoder for events of up to...
 *   mrtr_sse_init
 *   mrtr_sse_feed
 *   mrtr_sse_end_of_stream
 *   mrtr_sse_reconnect_info
 *   mrtr_tool_list
 *   mrtr_tool_at
 *   mrtr_tool_next
 *   mrtr_url_consent
 *
 * Server:
 *   mrtr_server_parse_request
 *   mrtr_server_write_request_error
 *   mrtr_server_input_response
 *   mrtr_server_root_at
 *   mrtr_server_write_input_required
 *   mrtr_server_write_complete
 *   mrtr_server_write_error
 *   mrtr_server_write_missing_capability
 *   mrtr_server_write_unsupported_version
 *   mrtr_server_write_invalid_request_state
 *   mrtr_server_write_answer_error
 *   mrtr_server_check_param_headers
 *
 * Sealing requestState:
 *   mrtr_unseal_reason_str              Returns a static description of an unseal reason for log...
 *   mrtr_invalid_request_state_message  Returns `"Invalid or expired requestState"`, the message...
 *   mrtr_sealer_size                    Returns the bytes `mrtr_sealer_init` needs
 *   mrtr_seal_token_len                 Returns the exact length of a token of `state_len` bytes...
 *   mrtr_unseal_scratch_len             Returns the scratch `mrtr_unseal` needs for a `token_len...
 *   mrtr_sealer_init
 *   mrtr_sealer_wipe                    Zeroes the sealer (derived keys included) and dead stack...
 *   mrtr_binding_digest
 *   mrtr_principal_digest               Writes to `out` (`MRTR_PRINCIPAL_DIGEST_BYTES`) SHA-256...
 *   mrtr_seal
 *   mrtr_unseal
 *
 * Library: versions, statuses, JSON:
 *   mrtr_version             Returns the library version (for example `"0.1.0"`)
 *   mrtr_protocol_version    Returns the protocol revision implemented, `"2026-07-28"` (the valu...
 *   mrtr_json_validate
 *   mrtr_json_write_string
 *   mrtr_json_decode_string
 *   mrtr_status_str          Returns the name of a status (`"MRTR_OK"`, ...; `"MRTR_UNKNOWN_STAT...
 */

#ifndef MRTR_H
#define MRTR_H

/* Generated by cbindgen from ffi/ (scripts/gen-header). Do not edit. */

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
/*
 * MRTR_ALIGNED(n) aligns the storage structs a caller may allocate itself
 * (cbindgen's [layout] aligned_n names it; without that setting cbindgen
 * 0.29 emits over-aligned structs as incomplete types). Predefine it to
 * override.
 */
#if !defined(MRTR_ALIGNED)
#  if defined(__cplusplus) && __cplusplus >= 201103L
#    define MRTR_ALIGNED(n) alignas(n)
#  elif defined(__GNUC__) || defined(__clang__)
#    define MRTR_ALIGNED(n) __attribute__((aligned(n)))
#  elif defined(_MSC_VER)
#    define MRTR_ALIGNED(n) __declspec(align(n))
#  else
#    error "mrtr.h: define MRTR_ALIGNED(n) for this compiler"
#  endif
#endif

/* MRTR_NODISCARD: the compiler warns when a returned mrtr_status is
 * ignored, and a (void) cast marks it ignored on purpose: [[nodiscard]] in
 * C++17 and C23 (GCC's -std=c2x too), clang's warn_unused_result otherwise.
 * GCC before C23 gets no attribute: its warn_unused_result cannot be
 * silenced by a cast. Define MRTR_NODISCARD before the include to choose. */
#if !defined(MRTR_NODISCARD)
#  if defined(__cplusplus) && __cplusplus >= 201703L
#    define MRTR_NODISCARD [[nodiscard]]
#  elif !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ > 201710L
#    define MRTR_NODISCARD [[nodiscard]]
#  elif defined(__clang__)
#    define MRTR_NODISCARD __attribute__((warn_unused_result))
#  else
#    define MRTR_NODISCARD
#  endif
#endif

// `mrtr_call_config.flags`: send no `io.modelcontextprotocol/clientInfo`.
#define MRTR_CALL_NO_CLIENT_INFO 1
// `mrtr_call_config.flags`: `task_id` is a JSON string token (as in
// `mrtr_event.task_id`), echoed as written; otherwise plain text.
#define MRTR_CALL_TASK_ID_JSON (1 << 1)

// Capability bit: form-mode elicitation (`elicitation.form`).
#define MRTR_CAP_ELICITATION_FORM 1
// Capability bit: URL-mode elicitation (`elicitation.url`).
#define MRTR_CAP_ELICITATION_URL (1 << 1)
// Capability bit: sampling (`sampling`).
#define MRTR_CAP_SAMPLING (1 << 2)
// Capability bit: sampling with tools (`sampling.tools`; implies sampling).
#define MRTR_CAP_SAMPLING_TOOLS (1 << 3)
// Capability bit: sampling with context inclusion (`sampling.context`;
// implies sampling).
#define MRTR_CAP_SAMPLING_CONTEXT (1 << 4)
// Capability bit: roots (`roots`).
#define MRTR_CAP_ROOTS (1 << 5)
// Capability bit: the Tasks extension
// (`extensions["io.modelcontextprotocol/tasks"]`).
#define MRTR_CAP_TASKS (1 << 6)
// Every capability bit mrtr knows; other bits are
// `MRTR_ERR_INVALID_ARGUMENT`.
#define MRTR_CAP_ALL ((1 << 7) - 1)

// Text field of an input: its key (also its bit in `mrtr_input.escaped`).
#define MRTR_TEXT_KEY 1
// Text field of an input: the elicitation message.
#define MRTR_TEXT_MESSAGE (1 << 1)
// Text field of an input: the URL of a URL elicitation.
#define MRTR_TEXT_URL (1 << 2)
// Text field of an input: the sampling `systemPrompt`.
#define MRTR_TEXT_SYSTEM_PROMPT (1 << 3)

// Most roots one answer may carry.
#define MRTR_MAX_ROOTS 32

// Elicitation action: submitted or confirmed.
#define MRTR_ELICIT_ACCEPT 1
// Elicitation action: explicitly declined.
#define MRTR_ELICIT_DECLINE 2
// Elicitation action: dismissed.
#define MRTR_ELICIT_CANCEL 3

// Most fields a form may have (larger schemas are refused).
#define MRTR_FORM_MAX_FIELDS 64
// Text of a form (`mrtr_form_text`): a field's name; also its bit in `escaped`.
#define MRTR_FORM_TEXT_NAME 1
// Text of a form: a field's title.
#define MRTR_FORM_TEXT_TITLE (1 << 1)
// Text of a form: a field's description.
#define MRTR_FORM_TEXT_DESCRIPTION (1 << 2)
// Text of a form: an option's value.
#define MRTR_FORM_TEXT_OPTION_VALUE (1 << 3)
// Text of a form: an option's title.
#define MRTR_FORM_TEXT_OPTION_TITLE (1 << 4)
// `mrtr_form_value.kind`: text, or the chosen option of a single-select.
#define MRTR_FORM_VALUE_TEXT 1
// `mrtr_form_value.kind`: a whole number (`integer`).
#define MRTR_FORM_VALUE_INTEGER 2
// `mrtr_form_value.kind`: a number as its exact JSON decimal text (`text`).
#define MRTR_FORM_VALUE_DECIMAL 3
// `mrtr_form_value.kind`: a boolean (`boolean`).
#define MRTR_FORM_VALUE_BOOL 4
// `mrtr_form_value.kind`: one chosen option of a multi-select (`text`);
// consecutive choices of one field are its selection, in order.
#define MRTR_FORM_VALUE_CHOICE 5
// Most choices one multi-select answer may carry.
#define MRTR_FORM_MAX_CHOICES 64

// Standard headers of one POST (`MCP-Protocol-Version`, `Mcp-Method`,
// `Mcp-Name`, `Accept`, `Content-Type`): the least `headers_cap`.
#define MRTR_HTTP_MAX_HEADERS 5
// Longest header value emitted (an encoded `Mcp-Name`); `MRTR_ERR_LIMIT_EXCEEDED` beyond.
#define MRTR_HTTP_MAX_VALUE_BYTES 8192

// Resends of one request after error `-32022` (a second one is final).
#define MRTR_MAX_VERSION_RETRIES 1

// The depth `mrtr_json_validate` allows with `max_depth` 0 (the outermost
// value is depth 1).
#define MRTR_JSON_DEFAULT_MAX_DEPTH 32
// The largest `max_depth` (the reader's fixed nesting stack: no recursion).
#define MRTR_JSON_MAX_DEPTH 256

// The alignment every mrtr workspace needs (`_init` functions return
// `MRTR_ERR_MISALIGNED` otherwise). `malloc`, `static uint64_t ws[N]` and
// `MRTR_ALIGNED(8) static uint8_t ws[N]` all satisfy it.
#define MRTR_WORKSPACE_ALIGN 8

// A reply (UI callback, `mrtr_runner_answered`): answered through `mrtr_call_answer_*`.
#define MRTR_CB_ANSWERED 0
// A reply: declined (an elicitation is answered `decline`; sampling and
// roots have no refusal: `MRTR_ERR_ABORTED`, the call stays `ANSWERING`).
#define MRTR_CB_DECLINE 1
// A reply: dismissed (an elicitation is answered `cancel`; else as DECLINE).
#define MRTR_CB_CANCEL 2
// A reply: stop with `MRTR_ERR_ABORTED` (so does any other value).
#define MRTR_CB_ABORT 3

// Default of `max_unrelated` (`mrtr_runner_init`, `mrtr_run_callbacks`).
#define MRTR_RUN_DEFAULT_MAX_UNRELATED 16

#define MRTR_SEAL_MAX_KEYS 8
#define MRTR_SEAL_MIN_KEY_BYTES 32
#define MRTR_SEAL_NONCE_BYTES 24
#define MRTR_SEAL_MAX_TTL_SECONDS 86400
#define MRTR_SEAL_MAX_SKEW_SECONDS 300
#define MRTR_SEAL_TOKEN_ID_BYTES 16

#define MRTR_BINDING_BYTES 32

#define MRTR_PRINCIPAL_DIGEST_BYTES 32

#define MRTR_SEAL_DEFAULT_TTL_SECONDS 600

#define MRTR_INVALID_REQUEST_STATE_CODE -32602

// Latest `now` `mrtr_seal` and `mrtr_unseal` accept: 9999-12-31T23:59:59Z.
#define MRTR_SEAL_MAX_UNIX_TIME 253402300799
// Suggested clock skew allowance: 60 s.
#define MRTR_SEAL_DEFAULT_SKEW_SECONDS 60
// Default largest token (`max_token` 0): with its quotes, a call's 4 KiB.
#define MRTR_SEAL_DEFAULT_MAX_TOKEN_BYTES 4094

#define MRTR_ID_NONE 0
#define MRTR_ID_NUMBER 1
#define MRTR_ID_STRING 2

// `mrtr_server_parse_request` flag: accept core requests without `_meta` (SEP-
// draft clients, which then may be asked nothing).
#define MRTR_SERVER_META_OPTIONAL 1

#define MRTR_REQUEST_HAS_META 1
#define MRTR_REQUEST_HAS_CAPS (1 << 1)

#define MRTR_ANSWER_WRONG_KIND 1
#define MRTR_ANSWER_MALFORMED 2

#define MRTR_PARAM_HEADER_MISSING 1
#define MRTR_PARAM_HEADER_UNEXPECTED 2
#define MRTR_PARAM_HEADER_BAD_ENCODING 3
#define MRTR_PARAM_HEADER_MISMATCH 4
#define MRTR_PARAM_HEADER_REPEATED 5
#define MRTR_PARAM_HEADER_REPEATED_MEMBER 6

// Most tools one `tools/list` page may list (`MRTR_ERR_LIMIT_EXCEEDED` beyond).
#define MRTR_MAX_TOOLS_PER_PAGE 1024

// URL warning: the scheme is not `https`.
#define MRTR_URL_WARN_NOT_HTTPS 1
// URL warning: neither `http` nor `https` (may open another application).
#define MRTR_URL_WARN_UNSUPPORTED_SCHEME (1 << 1)
// URL warning: a punycode host label (`xn--`), may show as look-alike Unicode.
#define MRTR_URL_WARN_PUNYCODE (1 << 2)
// URL warning: a userinfo part (`user@`), often posing as a trusted name.
#define MRTR_URL_WARN_USERINFO (1 << 3)
// URL warning: the host is an IP address.
#define MRTR_URL_WARN_IP_LITERAL (1 << 4)
// URL warning: the host has non-ASCII characters (possible look-alikes).
#define MRTR_URL_WARN_NON_ASCII_HOST (1 << 5)
// URL warning: the URL has no host (`mailto:`, `file:///...`).
#define MRTR_URL_WARN_NO_HOST (1 << 6)

// The result of every fallible function: `MRTR_OK` (0), or an error. The
// codes come in decades (caller misuse, memory or limits, the peer's bytes,
// a call's end, sealing) and never change meaning.
typedef enum mrtr_status {
  MRTR_OK = 0,                          // Success.
  // A required pointer is NULL, or NULL comes with a non-zero length.
  MRTR_ERR_NULL_POINTER = 1,
  // An argument is out of range (a length above `PTRDIFF_MAX`, an output
  // overlapping an input, a handle that is no live object, a bad limit).
  MRTR_ERR_INVALID_ARGUMENT = 2,
  MRTR_ERR_INVALID_UTF8 = 3,            // A string argument is not valid UTF-8.
  // A pointer is not aligned as its type or workspace requires.
  MRTR_ERR_MISALIGNED = 4,
  // The object's state does not allow this call (e.g. feeding before sending).
  MRTR_ERR_WRONG_STATE = 5,
  MRTR_ERR_NOT_FOUND = 6,               // No item with that key or index.
  // An application value breaks its rules (an answer of the wrong shape,
  // form content failing its schema, a root that is not a `file://` URI).
  MRTR_ERR_INVALID_VALUE = 7,
  // The output is too small; `*out_written` holds the size needed.
  MRTR_ERR_BUFFER_TOO_SMALL = 10,
  // The workspace is smaller than its `_workspace_size` / `_size`.
  MRTR_ERR_WORKSPACE_TOO_SMALL = 11,
  // A configured limit is exceeded (depth, size, count, ids, unrelated messages).
  MRTR_ERR_LIMIT_EXCEEDED = 12,
  // Not valid JSON (RFC 8259), or a key twice where keys must be unique.
  MRTR_ERR_JSON = 20,
  MRTR_ERR_ENVELOPE = 21,               // Not a JSON-RPC 2.0 message.
  MRTR_ERR_PROTOCOL_VIOLATION = 22,     // JSON-RPC, but against an MCP/MRTR rule.
  // An input kind the request did not declare, or a capability the
  // server needs and the request lacks.
  MRTR_ERR_UNDECLARED_CAPABILITY = 23,
  MRTR_ERR_UNSUPPORTED_VERSION = 24,    // A protocol revision this library does not speak.
  // A form schema outside the protocol's subset (the form cannot be shown
  // as asked), or a tool's invalid `x-mcp-header` (do not call the tool).
  MRTR_ERR_INVALID_SCHEMA = 25,
  // A URL a consent screen cannot show honestly: do not offer to open it.
  MRTR_ERR_REFUSED_URL = 26,
  // The call ended with a JSON-RPC error response (or a failed task).
  MRTR_ERR_RPC_ERROR = 30,
  // The server asked past the round cap (or the state-only round cap).
  MRTR_ERR_ROUND_CAP = 31,
  // An input is still unanswered (or a callback did not answer it).
  MRTR_ERR_UNANSWERED_INPUT = 32,
  // The run stopped: the app asked, refused, or the task was cancelled.
  MRTR_ERR_ABORTED = 33,
  // A `requestState` failed verification; the reason is for logs only.
  MRTR_ERR_INVALID_REQUEST_STATE = 40,
  // A sealing key is unusable (too short, duplicate key id, empty ring).
  MRTR_ERR_KEY_ERROR = 41,
  // A bug in mrtr: a state the library believed unreachable. Please report.
  MRTR_ERR_INTERNAL = 99,
} mrtr_status;

// What a fed message meant.
typedef enum mrtr_event_kind {
  MRTR_EVENT_COMPLETE = 1,         // The final `result`. -> DONE
  MRTR_EVENT_INPUT_REQUIRED = 2,   // `input_count` questions. -> ANSWERING
  MRTR_EVENT_RETRY_AFTER = 3,      // State-only round: next request after `wait_ms`. -> READY
  MRTR_EVENT_RPC_ERROR = 4,        // JSON-RPC error (`error_*`). -> DONE
  // The call now follows task `task_*`. -> READY (`tasks/get` after `poll_ms`)
  MRTR_EVENT_TASK_CREATED = 5,
  // Not the answer (another id, a notification): keep feeding. -> SENT
  MRTR_EVENT_UNRELATED = 6,
  MRTR_EVENT_TASK_POLL = 7,        // Task: next request after `wait_ms`. -> READY
  // Task: next request now (seed dialect: `tasks/result`). -> READY
  MRTR_EVENT_TASK_NEXT = 8,
  MRTR_EVENT_TASK_FAILED = 9,      // Task failed with `error_*` (Tasks extension). -> DONE
  MRTR_EVENT_TASK_CANCELLED = 10,  // Task cancelled. -> DONE
} mrtr_event_kind;

// A task protocol.
typedef enum mrtr_task_dialect {
  MRTR_TASK_DIALECT_NONE = 0,       // Not a task.
  // SEP draft / 2025-11-25: `tasks/result`, `tasks/input_response`.
  MRTR_TASK_DIALECT_SEED = 1,
  // Tasks extension: `inputRequests` on `tasks/get`, `tasks/update`.
  MRTR_TASK_DIALECT_EXTENSION = 2,
} mrtr_task_dialect;

// The status of a task.
typedef enum mrtr_task_status {
  MRTR_TASK_STATUS_NONE = 0,            // Not a task.
  MRTR_TASK_STATUS_WORKING = 1,         // `working`.
  MRTR_TASK_STATUS_INPUT_REQUIRED = 2,  // `input_required`.
  MRTR_TASK_STATUS_COMPLETED = 3,       // `completed`.
  MRTR_TASK_STATUS_FAILED = 4,          // `failed`.
  MRTR_TASK_STATUS_CANCELLED = 5,       // `cancelled`.
} mrtr_task_status;

// Where a call is in its flow.
typedef enum mrtr_phase {
  MRTR_PHASE_READY = 1,      // Write the next request.
  MRTR_PHASE_SENT = 2,       // A request is in flight: feed what arrives.
  MRTR_PHASE_ANSWERING = 3,  // Answer every input.
  MRTR_PHASE_DONE = 4,       // Finished: result, JSON-RPC error, or failed/cancelled task.
  MRTR_PHASE_FAILED = 5,     // Ended by an error (`mrtr_call_failure`).
} mrtr_phase;

// Which flow a call is in.
typedef enum mrtr_flow {
  MRTR_FLOW_CALL = 1,  // The call's own request and its retries.
  MRTR_FLOW_TASK = 2,  // The task the call became (or restarted as).
} mrtr_flow;

// The task request written next (or in flight).
typedef enum mrtr_task_request {
  MRTR_TASK_REQUEST_NONE = 0,     // Not a task.
  MRTR_TASK_REQUEST_GET = 1,      // `tasks/get`.
  MRTR_TASK_REQUEST_RESULT = 2,   // `tasks/result` (seed dialect).
  // The answers: `tasks/input_response` (seed), `tasks/update` (extension).
  MRTR_TASK_REQUEST_RESPOND = 3,
  MRTR_TASK_REQUEST_CANCEL = 4,   // `tasks/cancel`.
} mrtr_task_request;

// The kind of an input request.
typedef enum mrtr_input_kind {
  // Form elicitation: show `requested_schema` (`mrtr_form_*`), `mrtr_call_answer_elicit`.
  MRTR_INPUT_ELICIT_FORM = 1,
  // URL elicitation: consent to open `url` (`mrtr_url_consent`), answer without content.
  MRTR_INPUT_ELICIT_URL = 2,
  // Sampling: answer a `CreateMessageResult` (`mrtr_call_answer_json`).
  MRTR_INPUT_SAMPLING = 3,
  MRTR_INPUT_ROOTS = 4,        // Roots: `mrtr_call_answer_roots`.
} mrtr_input_kind;

// Why a call ended `FAILED`.
typedef enum mrtr_failure_kind {
  // Not acceptable JSON (syntax, UTF-8, depth, size); see `offset`.
  MRTR_FAILURE_JSON = 1,
  MRTR_FAILURE_ENVELOPE = 2,                    // Not JSON-RPC 2.0.
  MRTR_FAILURE_PROTOCOL = 3,                    // Breaks an MRTR rule (see `reason`).
  // `inputRequests` over `max_inputs_bytes` (`needed`, `limit`).
  MRTR_FAILURE_INPUTS_TOO_LARGE = 4,
  // `requestState` over `max_state_bytes` (`needed`, `limit`).
  MRTR_FAILURE_STATE_TOO_LARGE = 5,
  MRTR_FAILURE_TOO_MANY_ROUNDS = 6,             // Over `max_rounds` (`limit`).
  MRTR_FAILURE_TOO_MANY_STATE_ONLY_ROUNDS = 7,  // Over `max_state_only_rounds` (`limit`).
  MRTR_FAILURE_TOO_MANY_POLLS = 8,              // Over `max_polls` (`limit`).
  // `mrtr_call_answer_error` on input `index` with `code`.
  MRTR_FAILURE_ANSWERED_WITH_ERROR = 9,
} mrtr_failure_kind;

// Why one answer value is not acceptable (`bound`: in `mrtr_form_error`).
typedef enum mrtr_field_error {
  MRTR_FIELD_ERROR_NONE = 0,              // No error.
  MRTR_FIELD_ERROR_MISSING = 1,           // A required field has no answer.
  MRTR_FIELD_ERROR_WRONG_TYPE = 2,        // The answer has the wrong JSON type.
  MRTR_FIELD_ERROR_TOO_SHORT = 3,         // Shorter than `min_length` (`bound`).
  MRTR_FIELD_ERROR_TOO_LONG = 4,          // Longer than `max_length` (`bound`).
  MRTR_FIELD_ERROR_BELOW_MINIMUM = 5,     // Below `minimum`.
  MRTR_FIELD_ERROR_ABOVE_MAXIMUM = 6,     // Above `maximum`.
  MRTR_FIELD_ERROR_NOT_AN_INTEGER = 7,    // A fraction where whole numbers are asked.
  MRTR_FIELD_ERROR_BAD_EMAIL = 8,         // Not an email address.
  MRTR_FIELD_ERROR_BAD_URI = 9,           // Not a URI.
  MRTR_FIELD_ERROR_BAD_DATE = 10,         // Not a date.
  MRTR_FIELD_ERROR_BAD_DATE_TIME = 11,    // Not a date-time.
  MRTR_FIELD_ERROR_NOT_AN_OPTION = 12,    // Not one of the options.
  MRTR_FIELD_ERROR_TOO_FEW_ITEMS = 13,    // Fewer selections than `min_items` (`bound`).
  MRTR_FIELD_ERROR_TOO_MANY_ITEMS = 14,   // More selections than `max_items` (`bound`).
  MRTR_FIELD_ERROR_DUPLICATE_ITEM = 15,   // The same option twice.
  MRTR_FIELD_ERROR_UNKNOWN_FIELD = 16,    // A field the form does not define.
  MRTR_FIELD_ERROR_DUPLICATE_FIELD = 17,  // A field given twice.
} mrtr_field_error;

// What kind of input a field takes.
typedef enum mrtr_field_kind {
  MRTR_FIELD_TEXT = 1,           // Free text (`min_length`, `max_length`, `format`).
  MRTR_FIELD_NUMBER = 2,         // A number (`minimum_json`, `maximum_json`).
  MRTR_FIELD_INTEGER = 3,        // A whole number (`minimum_json`, `maximum_json`).
  MRTR_FIELD_BOOLEAN = 4,        // Yes or no.
  // Exactly one of the options (`option_count`, `mrtr_form_option_at`).
  MRTR_FIELD_SINGLE_SELECT = 5,
  MRTR_FIELD_MULTI_SELECT = 6,   // Any number of distinct options (`min_items`, `max_items`).
} mrtr_field_kind;

// The required syntax of a text field.
typedef enum mrtr_string_format {
  MRTR_FORMAT_NONE = 0,       // Any text.
  MRTR_FORMAT_EMAIL = 1,      // An email address.
  MRTR_FORMAT_URI = 2,        // A URI with a scheme.
  MRTR_FORMAT_DATE = 3,       // An RFC 3339 date (`2026-07-28`).
  MRTR_FORMAT_DATE_TIME = 4,  // An RFC 3339 date-time (`2026-07-28T09:30:00Z`).
} mrtr_string_format;

// What `mrtr_runner_next` says to do.
typedef enum mrtr_step_kind {
  // Send `out[0..len)`, then pass each message received to
  // `mrtr_runner_received` until it says `again` false.
  MRTR_STEP_SEND = 1,
  // Ask the user about input `index` (`mrtr_call_input_at`), answer it
  // (`mrtr_call_answer_*`) and report with `mrtr_runner_answered`.
  MRTR_STEP_ASK = 2,
  MRTR_STEP_WAIT = 3,  // Wait `wait_ms` milliseconds, then ask for the next step.
  MRTR_STEP_DONE = 4,  // The run is over: `status` is its result, the last event its message.
} mrtr_step_kind;

// Why a token was refused, for the log (the wire answer is the same for all;
// `mrtr_unseal_reason_str` says each in words).
typedef enum mrtr_unseal_reason {
  MRTR_UNSEAL_MALFORMED = 1,
  MRTR_UNSEAL_TOO_LARGE = 2,
  MRTR_UNSEAL_UNKNOWN_KEY = 3,
  MRTR_UNSEAL_TAMPERED = 4,
  MRTR_UNSEAL_EXPIRED = 5,
  MRTR_UNSEAL_NOT_YET_VALID = 6,
  MRTR_UNSEAL_WRONG_AUDIENCE = 7,
  MRTR_UNSEAL_WRONG_REQUEST = 8,
  MRTR_UNSEAL_WRONG_PRINCIPAL = 9,
  MRTR_UNSEAL_CLOCK_OUT_OF_RANGE = 10,
} mrtr_unseal_reason;

// What arrived: a request (every field set), a notification (`method_json`,
// `params`) or a response; the last two get no answer (HTTP `202`).
typedef enum mrtr_incoming_kind {
  MRTR_INCOMING_REQUEST = 1,
  MRTR_INCOMING_NOTIFICATION = 2,
  MRTR_INCOMING_RESPONSE = 3,
} mrtr_incoming_kind;

// A method the server half reads (`OTHER`: route it by `method_json`, or
// answer `-32601`); only `TOOLS_CALL`, `PROMPTS_GET`, `RESOURCES_READ` and
// `TASKS_RESULT` may be answered with `input_required`.
typedef enum mrtr_server_method {
  MRTR_SERVER_METHOD_OTHER = 0,
  MRTR_SERVER_METHOD_TOOLS_CALL = 1,
  MRTR_SERVER_METHOD_PROMPTS_GET = 2,
  MRTR_SERVER_METHOD_RESOURCES_READ = 3,
  MRTR_SERVER_METHOD_TASKS_GET = 4,
  MRTR_SERVER_METHOD_TASKS_RESULT = 5,
  MRTR_SERVER_METHOD_TASKS_CANCEL = 6,
  MRTR_SERVER_METHOD_TASKS_INPUT_RESPONSE = 7,
  MRTR_SERVER_METHOD_TASKS_UPDATE = 8,
} mrtr_server_method;

// The kind of an input response (`NONE`: nothing under the key: ask).
typedef enum mrtr_answer_kind {
  MRTR_ANSWER_NONE = 0,
  MRTR_ANSWER_ELICIT = 1,
  MRTR_ANSWER_SAMPLING = 2,
  MRTR_ANSWER_ROOTS = 3,
} mrtr_answer_kind;

// The method of a call.
typedef enum mrtr_method {
  MRTR_METHOD_TOOLS_CALL = 1,      // `tools/call` (params need `name`).
  MRTR_METHOD_PROMPTS_GET = 2,     // `prompts/get` (params need `name`).
  MRTR_METHOD_RESOURCES_READ = 3,  // `resources/read` (params need `uri`).
} mrtr_method;

// A call in caller memory (opaque; the pointer is the workspace).
typedef struct mrtr_call mrtr_call;

// A sealer living in caller memory (opaque).
typedef struct mrtr_sealer mrtr_sealer;

// An SSE decoder living in caller memory (opaque).
typedef struct mrtr_sse_decoder mrtr_sse_decoder;

// Every capacity and cap of a call and its task. Start from
// `mrtr_call_limits_default`; 0 never means "default".
typedef struct mrtr_call_limits {
  size_t max_message_bytes;        // Largest server message, bytes (default 1 MiB).
  size_t max_depth;                // Deepest JSON nesting (default 32; 4 to `MRTR_JSON_MAX_DEPTH`).
  // Most inputs in one round (default 64; 1 to 256; 23 workspace bytes each).
  size_t max_input_requests;
  size_t max_key_bytes;            // Longest input key, decoded bytes (default 256; at least 1).
  // Params as sent, `_meta` included, or a task's `_meta` and id (default 16 KiB).
  size_t max_params_bytes;
  size_t max_inputs_bytes;         // One round's `inputRequests` (default 16 KiB).
  size_t max_state_bytes;          // The `requestState` token, quotes included (default 4 KiB).
  size_t max_answers_bytes;        // One round's answers, JSON bytes (default 16 KiB).
  uint32_t max_rounds;             // Most `input_required` rounds (default 10).
  uint32_t max_state_only_rounds;  // Most consecutive state-only rounds (default 3).
  uint32_t backoff_initial_ms;     // Backoff after the first state-only round, ms (default 50).
  uint32_t backoff_max_ms;         // Ceiling of the doubling backoff, ms (default 250).
  uint32_t max_polls;              // Most `tasks/get` requests (default 100,000).
  uint64_t default_poll_ms;        // Poll interval when the server gives none, ms (default 1,000).
  uint64_t min_poll_ms;            // Poll interval floor, ms (default 100).
  uint64_t max_poll_ms;            // Poll interval ceiling, ms (default 60,000).
} mrtr_call_limits;

// A borrowed UTF-8 string: `len` bytes at `ptr`, not NUL-terminated (a NUL
// byte inside is an ordinary character). `ptr` may be NULL only when `len`
// is 0. Strings that mrtr hands out point into caller memory or static
// data, and say in each function's documentation how long they stay valid.
typedef struct mrtr_str {
  const char *ptr;  // The first byte, or NULL for the empty string.
  size_t len;       // Length in bytes.
} mrtr_str;

// How to start a call: a method with params, or (`task_dialect` set) a
// task restarted from its id. Zero it, then set fields; copied at init.
typedef struct mrtr_call_config {
  uint32_t method;                        // A `mrtr_method`; 0 to restart a task.
  // Params object, e.g. `{"name":"get_weather","arguments":{..}}`; empty for a task.
  // Its `_meta` is merged; a `task` member asks for a seed-dialect task.
  struct mrtr_str params;
  // `MRTR_CAP_*` bits declared on every request; extension tasks need `MRTR_CAP_TASKS`.
  uint32_t caps;
  // `clientInfo.name`; {NULL, 0} sends mrtr's own name and version.
  struct mrtr_str client_name;
  struct mrtr_str client_version;         // `clientInfo.version` (with `client_name`).
  uint32_t flags;                         // `MRTR_CALL_*` flags.
  // First id `mrtr_progress.next_id` suggests (0 means 1), within +-(2^53-1).
  int64_t first_id;
  const struct mrtr_call_limits *limits;  // The limits; NULL for the defaults.
  // Optional: the size needed on `MRTR_ERR_WORKSPACE_TOO_SMALL`.
  size_t *out_needed;
  // Task restart: a `mrtr_task_dialect`; `NONE` (0) for a call.
  uint32_t task_dialect;
  // Task restart: the task id (see `MRTR_CALL_TASK_ID_JSON`).
  struct mrtr_str task_id;
  uint64_t task_poll_ms;                  // Task restart: its poll hint, ms; 0 for none.
  // Optional: on a failure with several causes, a static name of the
  // cause (`"MissingTarget"`: params without `name`/`uri`;
  // `"RepeatedMember"`, `"UnknownFlag"`, `"BadLimits"`, ...).
  const char **out_reason;
} mrtr_call_config;

// A part of a message the caller fed: `len` bytes starting `offset` bytes
// into it. Valid for as long as the caller keeps those bytes; an absent
// part is `{0, 0}`. Spans of JSON strings include the quotes (decode them
// with `mrtr_json_decode_string`); spans of other values are the raw JSON.
typedef struct mrtr_span {
  size_t offset;  // Offset of the first byte.
  size_t len;     // Length in bytes.
} mrtr_span;

// What a fed message meant. Spans point into the fed bytes; fields a kind
// does not use are zero.
typedef struct mrtr_event {
  enum mrtr_event_kind kind;            // What happened.
  size_t input_count;                   // `INPUT_REQUIRED`: the number of questions.
  // `RETRY_AFTER`, `TASK_POLL`: ms to wait before the next request.
  uint64_t wait_ms;
  int64_t error_code;                   // `RPC_ERROR`, `TASK_FAILED`: the error code.
  struct mrtr_span result;              // `COMPLETE`: the result object.
  struct mrtr_span error_message;       // `RPC_ERROR`, `TASK_FAILED`: the message (a JSON string).
  // `RPC_ERROR`, `TASK_FAILED`: the data, raw JSON; empty when absent.
  struct mrtr_span error_data;
  // `TASK_CREATED`: the task id, a JSON string (to restart: `MRTR_CALL_TASK_ID_JSON`).
  struct mrtr_span task_id;
  enum mrtr_task_dialect task_dialect;  // `TASK_CREATED`: the dialect.
  enum mrtr_task_status task_status;    // `TASK_CREATED`: the task's status.
  // `TASK_CREATED`: the server's poll hint, ms (if `has_task_poll_ms`).
  uint64_t task_poll_ms;
  bool has_task_poll_ms;                // `TASK_CREATED`: the server gave a poll hint.
} mrtr_event;

// Where a call is; views point into the workspace.
typedef struct mrtr_progress {
  enum mrtr_phase phase;                // The phase.
  enum mrtr_flow flow;                  // The flow.
  enum mrtr_task_request task_request;  // Task: the request next or in flight.
  enum mrtr_task_dialect task_dialect;  // Task: the dialect.
  uint32_t round;                       // Input rounds in the current flow.
  uint32_t polls;                       // Task: `tasks/get` requests written.
  size_t input_count;                   // Inputs asked in the current round.
  size_t answered_count;                // Inputs answered in the current round.
  int64_t last_id;                      // The last JSON-RPC id used (if `has_last_id`).
  // Next request's id: `first_id`, then `last_id` + 1 (if `has_next_id`; not past 2^53-1).
  int64_t next_id;
  uint64_t poll_ms;                     // Task: the poll interval, ms (the hint, clamped).
  // The `requestState` the next request echoes, raw; empty when none.
  struct mrtr_str request_state;
  struct mrtr_str task_id;              // Task: the task id as sent (a JSON string).
  bool has_last_id;                     // `last_id` is set.
  bool has_next_id;                     // `next_id` is set.
} mrtr_progress;

// One input request of the current round, as views into the workspace.
// A text field the server escaped holds the JSON text and has its
// `MRTR_TEXT_*` bit in `escaped` (decode: `mrtr_call_input_text`).
// Absent fields are {NULL, 0}.
typedef struct mrtr_input {
  enum mrtr_input_kind kind;         // What is asked.
  struct mrtr_str key;               // The server's key.
  struct mrtr_str message;           // Elicitations: the message for the user.
  struct mrtr_str url;               // URL mode: the URL to open after consent.
  struct mrtr_str requested_schema;  // Form mode: `requestedSchema`, raw JSON.
  struct mrtr_str params;            // Sampling: the whole `params`, raw JSON.
  struct mrtr_str system_prompt;     // Sampling: `systemPrompt`.
  uint64_t max_tokens;               // Sampling: `maxTokens`.
  // `MRTR_TEXT_*` bits of the fields that hold escaped JSON text.
  uint32_t escaped;
  bool has_tools;                    // Sampling: `tools` present.
  bool wants_context;                // Sampling: `includeContext` asks more than `"none"`.
  bool has_system_prompt;            // Sampling: `systemPrompt` present.
  bool answered;                     // Already answered.
} mrtr_input;

// One root for `mrtr_call_answer_roots`.
typedef struct mrtr_root {
  struct mrtr_str uri;   // A `file://` URI (checked: `MRTR_ERR_INVALID_VALUE`).
  // Display name; {NULL, 0} for none (an empty non-NULL string is sent as `""`).
  struct mrtr_str name;
} mrtr_root;

// The terminal error of a failed call.
typedef struct mrtr_failure {
  enum mrtr_status status;      // The status the failing function returned.
  enum mrtr_failure_kind kind;  // The cause.
  // Static NUL-terminated name of the precise cause, for logs
  // (`"TooDeep"`, `"BadId"`, ...).
  const char *reason;
  size_t offset;                // `JSON`: byte offset where reading stopped.
  size_t index;                 // `ANSWERED_WITH_ERROR`: the input's index.
  int64_t code;                 // `ANSWERED_WITH_ERROR`: the application's code.
  size_t needed;                // `*_TOO_LARGE`: bytes needed.
  uint64_t limit;               // `*_TOO_LARGE`, `TOO_MANY_*`: the limit.
} mrtr_failure;

// Why a schema was refused, from `mrtr_form_parse`.
typedef struct mrtr_schema_error {
  // The property at fault; empty (NULL) for the schema's top level.
  struct mrtr_str property;
  bool property_escaped;                // `property` holds escaped JSON text.
  // The keyword or option value at fault, as written; empty when none.
  struct mrtr_str keyword;
  // A static name of the error, for logs (`"UnsupportedKeyword"`).
  const char *reason;
  enum mrtr_field_error default_error;  // `InvalidDefault`: what is wrong with the default.
} mrtr_schema_error;

// One field of a form, views into the schema. A text view whose
// `MRTR_FORM_TEXT_*` bit is set in `escaped` holds escaped JSON text
// (decode it with `mrtr_form_text`). A bound counts only when its `has_`
// flag is set; number bounds are exact JSON text, empty when absent
// (`strtod` a copy for a `double`).
typedef struct mrtr_form_field {
  struct mrtr_str name;            // The property name: the key of the answer.
  struct mrtr_str title;           // The label to show (empty when none).
  struct mrtr_str description;     // Help text (empty when none).
  uint32_t escaped;                // `MRTR_FORM_TEXT_*` bits of the views holding escaped text.
  size_t index;                    // Position among the fields (0-based).
  enum mrtr_field_kind kind;       // The input kind.
  enum mrtr_string_format format;  // Text: the required syntax.
  bool required;                   // The answer must contain this field.
  bool has_min_length;             // `min_length` is set.
  bool has_max_length;             // `max_length` is set.
  bool has_minimum;                // `minimum_json` is set.
  bool has_maximum;                // `maximum_json` is set.
  bool has_min_items;              // `min_items` is set.
  bool has_max_items;              // `max_items` is set.
  uint64_t min_length;             // Text: fewest characters (Unicode scalar values).
  uint64_t max_length;             // Text: most characters.
  uint64_t min_items;              // Multi-select: fewest selections.
  uint64_t max_items;              // Multi-select: most selections.
  size_t option_count;             // Selects: the number of options.
  // The default as raw JSON (checked against the field); empty when none.
  struct mrtr_str default_json;
  // Numbers: the inclusive lower bound as the schema wrote it (`0.1`).
  struct mrtr_str minimum_json;
  struct mrtr_str maximum_json;    // Numbers: the inclusive upper bound as the schema wrote it.
} mrtr_form_field;

// One option of a select field.
typedef struct mrtr_form_option {
  struct mrtr_str value;  // The value sent when chosen.
  struct mrtr_str title;  // The label to show (empty when none: show `value`).
  uint32_t escaped;       // `MRTR_FORM_TEXT_OPTION_*` bits of the views holding escaped text.
  bool has_title;         // The schema gives a title.
} mrtr_form_option;

// The first problem of an answer, from `mrtr_form_validate`.
typedef struct mrtr_form_error {
  struct mrtr_str field;        // The field's name; empty when the content is not an object.
  bool field_escaped;           // `field` holds escaped JSON text.
  size_t field_index;           // The field's index, or `SIZE_MAX` when the form has no such field.
  enum mrtr_field_error error;  // What is wrong.
  // The bound of `TOO_SHORT`, `TOO_LONG`, `TOO_FEW_ITEMS`, `TOO_MANY_ITEMS`.
  uint64_t bound;
  // A static name of the error, for logs (`"TooShort"`, `"NotAnObject"`).
  const char *reason;
} mrtr_form_error;

// One answer for `mrtr_form_write_content`: a field by name and its value.
typedef struct mrtr_form_value {
  struct mrtr_str name;  // The field's name, as text (not JSON).
  uint32_t kind;         // A `MRTR_FORM_VALUE_*`.
  struct mrtr_str text;  // `TEXT`, `CHOICE`: the text; `DECIMAL`: the number's JSON text.
  int64_t integer;       // `INTEGER`: the number.
  bool boolean;          // `BOOL`: the value.
} mrtr_form_value;

// One HTTP header: from `mrtr_http_headers*` ready to send (unsafe values
// `=?base64?...?=`); to `mrtr_server_check_param_headers` as received.
typedef struct mrtr_http_header {
  struct mrtr_str name;   // The header name.
  struct mrtr_str value;  // The value.
} mrtr_http_header;

// A run of one call in caller memory: `mrtr_runner r;` then
// `mrtr_runner_init(&r, call, ...)`. Opaque; do not move or copy it.
typedef struct MRTR_ALIGNED(8) mrtr_runner {
  uint64_t _opaque[14];
} mrtr_runner;

// One step of a run. Fields a kind does not use are zero.
typedef struct mrtr_step {
  enum mrtr_step_kind kind;         // What to do.
  // `SEND`: the request's length (on `MRTR_ERR_BUFFER_TOO_SMALL`: the
  // bytes `out` needs).
  size_t len;
  size_t index;                     // `ASK`: the input's index.
  enum mrtr_input_kind input_kind;  // `ASK`: the input's kind.
  uint64_t wait_ms;                 // `WAIT`: milliseconds.
  // `DONE`: `MRTR_OK` (`COMPLETE`), `MRTR_ERR_RPC_ERROR` (`RPC_ERROR`,
  // `TASK_FAILED`) or `MRTR_ERR_ABORTED` (`TASK_CANCELLED`).
  enum mrtr_status status;
} mrtr_step;

// The application side of `mrtr_run`. Zero-initialize, then set.
typedef struct mrtr_run_callbacks {
  // Required: sends `req[0..req_len)` (NULL, 0: send nothing, the last
  // message was unrelated) and writes the next message received, at most
  // `resp_cap` bytes, to `resp`, its length to `*resp_len`; a message
  // that does not fit: its length, over `resp_cap` (the run stops with
  // `MRTR_ERR_BUFFER_TOO_SMALL`, see `out_needed`). Non-zero stops the
  // run with `MRTR_ERR_ABORTED` (the call stays `SENT`).
  int32_t (*transport)(void *user, const uint8_t *req, size_t req_len, uint8_t *resp, size_t resp_cap, size_t *resp_len);
  // Form and URL elicitations: ask about input `index` (`*input`), answer
  // with `mrtr_call_answer_*` and return a `MRTR_CB_*` reply. NULL: such
  // an input ends the run with `MRTR_ERR_UNANSWERED_INPUT`.
  int32_t (*elicit)(void *user, struct mrtr_call *call, size_t index, const struct mrtr_input *input);
  // Sampling requests, as `elicit`.
  int32_t (*sampling)(void *user, struct mrtr_call *call, size_t index, const struct mrtr_input *input);
  // Roots requests, as `elicit`.
  int32_t (*roots)(void *user, struct mrtr_call *call, size_t index, const struct mrtr_input *input);
  // Optional: waits `ms` milliseconds (a `WAIT` step); NULL: no wait.
  void (*sleep_ms)(void *user, uint64_t ms);
  // As `mrtr_runner_init`'s.
  int64_t first_id;
  // As `mrtr_runner_init`'s.
  int64_t id_step;
  // As `mrtr_runner_init`'s.
  uint32_t max_unrelated;
  // Optional: on `MRTR_ERR_BUFFER_TOO_SMALL`, receives the `buf_len` the
  // run needs (a request that did not fit, or a transport that set
  // `*resp_len` over `resp_cap`: the message did not fit). Run again
  // with a buffer that large: the runner resends the request in flight.
  size_t *out_needed;
} mrtr_run_callbacks;

// Borrowed bytes that need not be text (keys, sealed state): `len` bytes
// at `ptr`. `ptr` may be NULL only when `len` is 0.
typedef struct mrtr_bytes {
  const uint8_t *ptr;  // The first byte, or NULL when empty.
  size_t len;          // Length in bytes.
} mrtr_bytes;

// An accepted token, for a replay cache: `token_id` (distinct per seal, stable
// under re-escaping) and `expires_at`, its last valid unix second.
typedef struct mrtr_unsealed_info {
  uint8_t token_id[MRTR_SEAL_TOKEN_ID_BYTES];
  uint64_t expires_at;
} mrtr_unsealed_info;

// A JSON-RPC request id: `kind` `MRTR_ID_NONE` (no id), `MRTR_ID_NUMBER`
// (`number`) or `MRTR_ID_STRING` (`token`, its JSON token).
typedef struct mrtr_request_id {
  uint32_t kind;
  int64_t number;
  struct mrtr_str token;
} mrtr_request_id;

// A parsed message as views into its bytes: strings are JSON tokens (quotes
// included: `mrtr_json_decode_string`), objects raw JSON, absent members
// empty. `flags`: `MRTR_REQUEST_HAS_META`, `MRTR_REQUEST_HAS_CAPS`
// (`client_caps`, `MRTR_CAP_*` bits, declared). `protocol_version`, when sent,
// is `"2026-07-28"` (an HTTP `MCP-Protocol-Version` that differs is `-32020`).
typedef struct mrtr_server_request {
  enum mrtr_incoming_kind kind;
  enum mrtr_server_method method;
  struct mrtr_str method_json;
  struct mrtr_request_id id;
  uint32_t flags;
  uint32_t client_caps;
  struct mrtr_str params;
  struct mrtr_str meta;
  struct mrtr_str protocol_version;
  struct mrtr_str client_name;
  struct mrtr_str client_version;
  struct mrtr_str name;
  struct mrtr_str uri;
  struct mrtr_str arguments;
  struct mrtr_str task;
  struct mrtr_str input_responses;
  size_t input_response_count;
  struct mrtr_str request_state;
  struct mrtr_str task_id;
} mrtr_server_request;

// Why a message cannot be served: the `code` to answer (`-32700`, `-32600`,
// `-32602`, `-32022`), the `id` when readable, and static names for logs of
// the cause (`reason`) and of the member at fault (`field`, or `""`).
typedef struct mrtr_server_error {
  int32_t code;
  struct mrtr_request_id id;
  const char *reason;
  const char *field;
} mrtr_server_error;

// One answer as views (JSON tokens): elicitation `action` (`MRTR_ELICIT_*`)
// and `content` (accept); sampling `content`, `role`, `model`, `stop_reason`,
// `text` (one text block); roots `root_count`. `result` is the bare result,
// `wrapped` true for the SEP draft's `{"result": ..}`.
typedef struct mrtr_server_answer {
  enum mrtr_answer_kind kind;
  uint32_t action;
  struct mrtr_str content;
  struct mrtr_str role;
  struct mrtr_str model;
  struct mrtr_str stop_reason;
  struct mrtr_str text;
  size_t root_count;
  struct mrtr_str result;
  bool wrapped;
} mrtr_server_answer;

// Why an answer is unusable: `error` `MRTR_ANSWER_WRONG_KIND` (`found`: the
// kind sent) or `MRTR_ANSWER_MALFORMED`; `expected`: the kind looked for
// (`NONE` when unknown). Kinds are `mrtr_answer_kind` values.
typedef struct mrtr_answer_error {
  uint32_t error;
  uint32_t expected;
  uint32_t found;
} mrtr_answer_error;

// One root of a roots answer: `uri` and `name` (when sent), JSON tokens.
typedef struct mrtr_server_root {
  struct mrtr_str uri;
  struct mrtr_str name;
} mrtr_server_root;

// One input request: `kind` (`mrtr_input_kind`), `key` (1 to 256 bytes,
// unique), then form `message`, `requested_schema`; URL `message`, `url`;
// sampling `params` (raw JSON); roots nothing.
typedef struct mrtr_input_spec {
  uint32_t kind;
  struct mrtr_str key;
  struct mrtr_str message;
  struct mrtr_str requested_schema;
  struct mrtr_str url;
  struct mrtr_str params;
} mrtr_input_spec;

// An `InputRequiredResult`: the request's `id`, `method`
// (`mrtr_server_method`) and `client_caps`; `input_count` `inputs` (0 with a
// state: a state-only round); `request_state` (sealed token) and
// `related_task` (SEP task dialect), `{NULL, 0}` for none.
typedef struct mrtr_input_required {
  struct mrtr_request_id id;
  uint32_t method;
  uint32_t client_caps;
  const struct mrtr_input_spec *inputs;
  size_t input_count;
  struct mrtr_str request_state;
  struct mrtr_str related_task;
} mrtr_input_required;

// Why `mrtr_server_write_input_required` refused: the input's `index`
// (`SIZE_MAX`: no input), the `MRTR_CAP_*` bits the client lacks
// (`missing_caps`: answer with `mrtr_server_write_missing_capability`), and
// the cause's static name (`reason`, for every failure).
typedef struct mrtr_build_error {
  size_t index;
  uint32_t missing_caps;
  const char *reason;
} mrtr_build_error;

// Why `mrtr_server_check_param_headers` refused: `reason` `MRTR_PARAM_HEADER_`
// `MISSING`, `UNEXPECTED` (no such argument), `BAD_ENCODING` (base64),
// `MISMATCH` (value or type), `REPEATED` (header twice), `REPEATED_MEMBER` (in
// the body); `header`: the designated name after `Mcp-Param-`, a view into
// `input_schema`.
typedef struct mrtr_param_header_error {
  uint32_t reason;
  struct mrtr_str header;
} mrtr_param_header_error;

// One dispatched event: views into the workspace, valid until the next call.
typedef struct mrtr_sse_event {
  bool has_event;                 // An event was dispatched (the other fields are set only then).
  struct mrtr_str event_type;     // The event type; `"message"` when the event named none.
  struct mrtr_str data;           // The data lines joined with `\n`: for MCP, one JSON-RPC message.
  struct mrtr_str last_event_id;  // The last event id at dispatch (empty when none was ever set).
} mrtr_sse_event;

// What a reconnection needs: `Last-Event-ID` and the server's `retry`.
typedef struct mrtr_sse_reconnect {
  struct mrtr_str last_event_id;  // The last event id, empty when none (valid until the next call).
  uint64_t retry_ms;              // The server's `retry` in ms (saturating), when `has_retry_ms`.
  bool has_retry_ms;              // The server set a reconnection time.
} mrtr_sse_reconnect;

// One tool of a `tools/list` page: views into the page.
typedef struct mrtr_tool {
  // The name's JSON string token, quotes included (`mrtr_json_decode_string`).
  struct mrtr_str name;
  // The `inputSchema` object, raw JSON (for `mrtr_http_headers_for_tool_call`).
  struct mrtr_str input_schema;
  // False when its `x-mcp-header` designations are invalid: never call it.
  bool usable;
  size_t designation_count;      // The number of designated properties (0 when not `usable`).
} mrtr_tool;

// Where `mrtr_tool_next` stands in one page: zeroed to start; one page only.
typedef struct mrtr_tool_cursor {
  size_t index;     // The index of the tool the next call reads.
  size_t offset;    // Private: where the next read starts (0: the page is not read yet).
  size_t page_len;  // Private: the length of the page the cursor walks.
} mrtr_tool_cursor;

// A URL split for the consent screen: views into the URL given.
typedef struct mrtr_url_info {
  struct mrtr_str scheme;    // The scheme as written (compare case-insensitively).
  struct mrtr_str userinfo;  // The userinfo (if `has_userinfo`): never show it as the destination.
  struct mrtr_str host;      // The host the link goes to (IPv6 with brackets); empty when none.
  struct mrtr_str path;      // The path (possibly empty).
  struct mrtr_str query;     // The query without `?` (when `has_query`).
  struct mrtr_str fragment;  // The fragment without `#` (when `has_fragment`).
  uint32_t warnings;         // `MRTR_URL_WARN_*` bits.
  uint16_t port;             // The explicit port (when `has_port`).
  bool has_port;             // A port is given.
  bool has_userinfo;         // A userinfo part is present.
  bool has_query;            // A query is present.
  bool has_fragment;         // A fragment is present.
} mrtr_url_info;

// Why a URL was refused.
typedef struct mrtr_url_refusal {
  const char *reason;  // A static name of the cause, for logs (`"Backslash"`, `"AmbiguousIpv4"`).
  size_t offset;       // The byte offset of the offending character (when `has_offset`).
  bool has_offset;     // The cause names a position.
} mrtr_url_refusal;

#ifdef __cplusplus
extern "C" {
#endif // __cplusplus

// Writes the default limits to `*out` (see `mrtr_call_limits`).
MRTR_NODISCARD enum mrtr_status mrtr_call_limits_default(struct mrtr_call_limits *out);

// Writes to `*out_size` the workspace bytes a call (and its task) needs
// under `limits` (NULL: defaults). `MRTR_ERR_INVALID_ARGUMENT`: limits out
// of their ranges, a poll floor over its ceiling, a region over 4 GiB.
MRTR_NODISCARD enum mrtr_status
mrtr_call_workspace_size(const struct mrtr_call_limits *limits, size_t *out_size);

// Writes to `*out_size` the largest request a call (and its task) writes
// under `limits` (NULL: defaults): a send buffer of this size never gets
// `MRTR_ERR_BUFFER_TOO_SMALL`. A receive buffer needs
// `limits->max_message_bytes`; `mrtr_run`'s buffer, both.
// `MRTR_ERR_INVALID_ARGUMENT`: as `mrtr_call_workspace_size`.
MRTR_NODISCARD enum mrtr_status
mrtr_call_request_size_max(const struct mrtr_call_limits *limits, size_t *out_size);

// Checks `call` and says why the last function on it failed: `MRTR_OK`
// with, in `*out_reason` (optional), the name of the cause of the last
// failure (`""` once a function taking `mrtr_call *` succeeded after it;
// one taking `const mrtr_call *` leaves it): the core's cause
// (`"AlreadyAnswered"`, `"ContentRequired"`, `"NotAnOption"`: a form value
// that is none of its options, `"IdNotFresh"`, `"Transport"`: `mrtr_run`'s
// transport failed), `"Overlap"` or `"BadRange"` (arguments the checks
// refused), else the status's own name (`"MRTR_ERR_NULL_POINTER"`).
// Or the status every `mrtr_call_*` function gives this handle, its cause
// in `*out_reason`: `"Null"`, `"Misaligned"`, `"MovedOrCopied"` (the
// workspace was copied or moved after init: a workspace is lent, never
// copied), `"NotAnObject"` (no live call starts there).
MRTR_NODISCARD enum mrtr_status
mrtr_call_check(const struct mrtr_call *call, const char **out_reason);

// Starts a call in `workspace` (`len` bytes, `MRTR_WORKSPACE_ALIGN`ed, at
// least `mrtr_call_workspace_size`) -> `READY`, handle in `*out_call`.
// Params are validated and rendered once; a set `task_dialect` restarts
// that task (first request `tasks/get`). Once the arguments pass their
// checks the workspace's old contents are gone, even if init fails.
// - `MRTR_ERR_WORKSPACE_TOO_SMALL`: size in `config->out_needed` if set.
// - `MRTR_ERR_INVALID_ARGUMENT`: unknown method, dialect, cap bit or flag;
//   bad limits or `first_id`; params not an object, without `name`/`uri`,
//   with `inputResponses`/`requestState`, a bad `_meta`/`task`, a member
//   twice, an object over 1024 members; an empty or bad task id; the
//   extension dialect without `MRTR_CAP_TASKS`; params with a task.
// - `MRTR_ERR_INVALID_UTF8`; `MRTR_ERR_JSON`: params not JSON.
// - `MRTR_ERR_LIMIT_EXCEEDED`: params over `max_params_bytes` or too deep.
MRTR_NODISCARD enum mrtr_status
mrtr_call_init(void *workspace, size_t len, const struct mrtr_call_config *config,
               struct mrtr_call **out_call);

// `READY` -> `SENT`: writes the next request (the call's, or the task
// request `mrtr_progress.task_request` names) with id `id` into `out`.
// Ids must increase within +-(2^53-1) (`mrtr_progress.next_id`).
// `*out_written` gets the length, or the size needed with
// `MRTR_ERR_BUFFER_TOO_SMALL` (call unchanged). `MRTR_ERR_WRONG_STATE`
// (not `READY`), `MRTR_ERR_UNANSWERED_INPUT` (inputs left),
// `MRTR_ERR_INVALID_ARGUMENT` (id not fresh or out of range).
MRTR_NODISCARD enum mrtr_status
mrtr_call_write_request(struct mrtr_call *call, int64_t id, uint8_t *out, size_t out_len,
                        size_t *out_written);

// `SENT`, after a transport failure: writes the request in flight again
// with a fresh `id`; a late response to the old id is then `UNRELATED`.
// As `mrtr_call_write_request` (`MRTR_ERR_WRONG_STATE` unless `SENT`).
MRTR_NODISCARD enum mrtr_status
mrtr_call_resend(struct mrtr_call *call, int64_t id, uint8_t *out, size_t out_len,
                 size_t *out_written);

// Task flow, `READY`/`SENT`/`ANSWERING` -> `SENT`: writes `tasks/cancel`
// (a response to a request in flight becomes unrelated); acknowledged by
// `MRTR_EVENT_TASK_CANCELLED`. As `mrtr_call_write_request`;
// `MRTR_ERR_WRONG_STATE` in the call flow or once done.
MRTR_NODISCARD enum mrtr_status
mrtr_call_write_cancel(struct mrtr_call *call, int64_t id, uint8_t *out, size_t out_len,
                       size_t *out_written);

// `SENT`: feeds one complete JSON-RPC message; what it meant goes to
// `*out_event` (spans into `msg`; see `mrtr_event_kind` for the phase
// after each kind). `MRTR_ERR_WRONG_STATE` (not `SENT`) changes nothing.
// Terminal (-> `FAILED`, see `mrtr_call_failure`): `MRTR_ERR_JSON`,
// `_ENVELOPE`, `_PROTOCOL_VIOLATION`, `_UNDECLARED_CAPABILITY`,
// `_LIMIT_EXCEEDED`, `_ROUND_CAP`.
MRTR_NODISCARD enum mrtr_status
mrtr_call_feed(struct mrtr_call *call, const uint8_t *msg, size_t len,
               struct mrtr_event *out_event);

// Writes where the call is to `*out`.
MRTR_NODISCARD enum mrtr_status
mrtr_call_progress(const struct mrtr_call *call, struct mrtr_progress *out);

// Writes input `index` of the current round (server order) to `*out`.
// `MRTR_ERR_NOT_FOUND` past the last input.
MRTR_NODISCARD enum mrtr_status
mrtr_call_input_at(const struct mrtr_call *call, size_t index, struct mrtr_input *out);

// Writes to `*out_index` the index of the input whose key decodes to
// `key`. `MRTR_ERR_NOT_FOUND`, `MRTR_ERR_INVALID_UTF8`.
MRTR_NODISCARD enum mrtr_status
mrtr_call_input_find(const struct mrtr_call *call, struct mrtr_str key, size_t *out_index);

// Decodes text `field` (one `MRTR_TEXT_*` bit) of input `index` into
// `out` as UTF-8, output as `mrtr_call_write_request`.
// `MRTR_ERR_NOT_FOUND` (no such input or field), `MRTR_ERR_INVALID_ARGUMENT`
// (not one known bit), `MRTR_ERR_BUFFER_TOO_SMALL`.
MRTR_NODISCARD enum mrtr_status
mrtr_call_input_text(const struct mrtr_call *call, size_t index, uint32_t field, uint8_t *out,
                     size_t out_len, size_t *out_written);

// `ANSWERING`: answers elicitation `index` with `MRTR_ELICIT_*` `action`
// and, for a form `accept` only, `content` (a JSON object; check it with
// `mrtr_form_validate`). The last answer makes the call `READY`.
// - `MRTR_ERR_WRONG_STATE`: not `ANSWERING`, or already answered.
// - `MRTR_ERR_NOT_FOUND`; `MRTR_ERR_JSON`: content not JSON.
// - `MRTR_ERR_INVALID_VALUE`: not an elicitation, content missing for a
//   form `accept` or given otherwise, not an object.
// - `MRTR_ERR_LIMIT_EXCEEDED` (`max_answers_bytes`);
//   `MRTR_ERR_INVALID_ARGUMENT` (unknown action).
MRTR_NODISCARD enum mrtr_status
mrtr_call_answer_elicit(struct mrtr_call *call, size_t index, uint32_t action,
                        struct mrtr_str content);

// Answers input `index` with its bare JSON result (`CreateMessageResult`,
// `ListRootsResult`, elicitation result; never `{"result": ..}`). As
// `mrtr_call_answer_elicit`; `MRTR_ERR_INVALID_VALUE`: not an object,
// wrapped, an unknown shape or kind, or a root URI refused.
MRTR_NODISCARD enum mrtr_status
mrtr_call_answer_json(struct mrtr_call *call, size_t index, struct mrtr_str json);

// Answers roots input `index` with `n` roots (at most `MRTR_MAX_ROOTS`),
// each a `file://` URI without dot segments. As `mrtr_call_answer_elicit`
// (`MRTR_ERR_INVALID_VALUE`: a refused URI); `MRTR_ERR_LIMIT_EXCEEDED`
// (too many), `MRTR_ERR_INVALID_UTF8`.
MRTR_NODISCARD enum mrtr_status
mrtr_call_answer_roots(struct mrtr_call *call, size_t index, const struct mrtr_root *roots,
                       size_t n);

// Ends the call because the app cannot answer input `index` (MRTR has no
// error answer): `MRTR_OK`, and the call is `FAILED` with
// `MRTR_FAILURE_ANSWERED_WITH_ERROR` and `code`. `MRTR_ERR_WRONG_STATE`
// (not `ANSWERING`, or already answered), `MRTR_ERR_NOT_FOUND`.
MRTR_NODISCARD enum mrtr_status
mrtr_call_answer_error(struct mrtr_call *call, size_t index, int64_t code);

// Writes to `*out` the final result, found in `fed` (the bytes whose
// feeding completed the call). `MRTR_ERR_WRONG_STATE` before completion,
// `MRTR_ERR_INVALID_ARGUMENT` for other bytes.
MRTR_NODISCARD enum mrtr_status
mrtr_call_result(const struct mrtr_call *call, const uint8_t *fed, size_t fed_len,
                 struct mrtr_str *out);

// Saves a `READY`, `SENT` or `ANSWERING` call into `out`, output as
// `mrtr_call_write_request` (restored in `SENT`: `mrtr_call_resend`).
// `MRTR_ERR_WRONG_STATE` once done or failed, `MRTR_ERR_BUFFER_TOO_SMALL`.
MRTR_NODISCARD enum mrtr_status
mrtr_call_save(const struct mrtr_call *call, uint8_t *out, size_t out_len, size_t *out_written);

// Restores a save into `workspace` (as `mrtr_call_init`) under `limits`
// (NULL: defaults; a save cannot raise them), re-validating every region;
// the next id is one past the saved last id. `MRTR_ERR_WORKSPACE_TOO_SMALL`;
// `MRTR_ERR_UNSUPPORTED_VERSION` (another save format, or `_meta` naming
// another protocol version or none); `MRTR_ERR_INVALID_ARGUMENT` (not a
// save, a broken invariant, a region over its limit, bad limits). On a
// failure, `*out_reason` (optional) names the cause: `"Decode"` (not a
// save), `"Version"`, `"ProtocolVersion"`, `"TooLarge"` (a region over its
// limit), `"BadLimits"`, an invariant (`"BadHead"`, `"PartlyAnswered"`,
// ...), or the status's own name.
MRTR_NODISCARD enum mrtr_status
mrtr_call_restore(void *workspace, size_t len, const struct mrtr_call_limits *limits,
                  const uint8_t *saved, size_t saved_len, struct mrtr_call **out_call,
                  const char **out_reason);

// `FAILED`: writes why to `*out`; `MRTR_ERR_WRONG_STATE` otherwise.
MRTR_NODISCARD enum mrtr_status
mrtr_call_failure(const struct mrtr_call *call, struct mrtr_failure *out);

// Checks `schema` (`mrtr_input.requested_schema`) against the protocol's
// subset; writes its number of fields. Show a form only after `MRTR_OK`.
// `MRTR_ERR_INVALID_SCHEMA` (details to `*out_error` if not NULL),
// `MRTR_ERR_JSON`, `MRTR_ERR_LIMIT_EXCEEDED` (depth 32, 1 MiB),
// `MRTR_ERR_INVALID_UTF8`.
MRTR_NODISCARD enum mrtr_status
mrtr_form_parse(struct mrtr_str schema, size_t *out_field_count,
                struct mrtr_schema_error *out_error);

// Writes field `index` (schema order) to `*out`. `MRTR_ERR_NOT_FOUND` (no
// such field), the statuses of `mrtr_form_parse`.
MRTR_NODISCARD enum mrtr_status
mrtr_form_field_at(struct mrtr_str schema, size_t index, struct mrtr_form_field *out);

// Writes option `option` of select field `field` to `*out`.
// `MRTR_ERR_NOT_FOUND` (no such select or option), those of `mrtr_form_parse`.
MRTR_NODISCARD enum mrtr_status
mrtr_form_option_at(struct mrtr_str schema, size_t field, size_t option,
                    struct mrtr_form_option *out);

// Decodes text `which` (`MRTR_FORM_TEXT_*`; `option` for `OPTION_*` only)
// into `out` as `mrtr_json_write_string` does. `MRTR_ERR_NOT_FOUND` (no such
// field, option or text), `MRTR_ERR_INVALID_ARGUMENT` (unknown `which`),
// those of `mrtr_form_parse`. On a failure `*out_reason` (optional) names
// the cause: `"NoSuchField"`, `"NoSuchOption"`, `"NoSuchText"` (the field
// or option has no such text: an absent title is normal), `"UnknownText"`,
// a schema error's (`"UnsupportedKeyword"`, ...), or the status's own name.
MRTR_NODISCARD enum mrtr_status
mrtr_form_text(struct mrtr_str schema, size_t field, size_t option, uint32_t which, uint8_t *out,
               size_t out_len, size_t *out_written, const char **out_reason);

// Checks an answer `content` (the object sent with `MRTR_ELICIT_ACCEPT`)
// against the form. `MRTR_ERR_INVALID_VALUE` (first problem to `*out_error`
// if not NULL, fields in schema order, then unknown ones), `MRTR_ERR_JSON`
// (content not JSON), those of `mrtr_form_parse`.
MRTR_NODISCARD enum mrtr_status
mrtr_form_validate(struct mrtr_str schema, struct mrtr_str content,
                   struct mrtr_form_error *out_error);

// Writes the `content` of a form `accept` from typed values, checked
// against the form as `mrtr_form_validate` checks (and as
// `mrtr_call_answer_elicit` checks again): the object to pass to it, no
// JSON written by hand. Output convention of `mrtr_json_write_string`.
// `MRTR_ERR_INVALID_VALUE`: a value the form refuses, an unknown or
// repeated field, a required field missing (first problem to `*out_error`
// if not NULL); `MRTR_ERR_INVALID_ARGUMENT`: an unknown kind;
// `MRTR_ERR_LIMIT_EXCEEDED`: more than `MRTR_FORM_MAX_CHOICES` choices for
// one field; those of `mrtr_form_parse`.
MRTR_NODISCARD enum mrtr_status
mrtr_form_write_content(struct mrtr_str schema, const struct mrtr_form_value *values, size_t n,
                        uint8_t *out, size_t out_len, size_t *out_written,
                        struct mrtr_form_error *out_error);

// The headers of a POST of `method` with `name`, the tool, prompt, resource
// URI or task id (needed by `tools/call`, `prompts/get`, `resources/read`,
// `tasks/get|update|cancel`; `{NULL, 0}` for none): values into `buf` as
// `mrtr_json_write_string` writes, headers (views) to `out_headers`.
// `MRTR_ERR_BUFFER_TOO_SMALL`, `MRTR_ERR_LIMIT_EXCEEDED` (a value too long),
// `MRTR_ERR_INVALID_ARGUMENT` (bad method, missing name, `headers_cap` below
// `MRTR_HTTP_MAX_HEADERS`), `MRTR_ERR_INVALID_UTF8`. On a failure
// `*out_reason` (optional) names the cause: `"BadMethod"`, `"MissingName"`,
// `"HeadersCapTooSmall"`, `"ValueTooLong"`, `"NotARequest"`, `"NotAToolCall"`, `"Wire"`,
// `"ParamType"`, `"NotSafeInteger"`, `"RepeatedMember"`, `"Designation"`,
// `"TooFewHeaderEntries"`, or the status's own name.
MRTR_NODISCARD enum mrtr_status
mrtr_http_headers(struct mrtr_str method, struct mrtr_str name, uint8_t *buf, size_t buf_len,
                  size_t *out_written, struct mrtr_http_header *out_headers, size_t headers_cap,
                  size_t *out_count, const char **out_reason);

// `mrtr_http_headers` with method and name read from `body`, one request or
// notification. Also `MRTR_ERR_JSON`, `MRTR_ERR_ENVELOPE` (not a message),
// `MRTR_ERR_INVALID_ARGUMENT` (a response).
MRTR_NODISCARD enum mrtr_status
mrtr_http_headers_for_message(const uint8_t *body, size_t body_len, uint8_t *buf, size_t buf_len,
                              size_t *out_written, struct mrtr_http_header *out_headers,
                              size_t headers_cap, size_t *out_count, const char **out_reason);

// `mrtr_http_headers_for_message` for a `tools/call` `body`, plus one
// `Mcp-Param-<Name>` per argument `input_schema` designates (SEP-2243).
// `MRTR_ERR_BUFFER_TOO_SMALL` also for too few entries (those needed to
// `*out_count`), `MRTR_ERR_INVALID_SCHEMA` (bad designations: do not call),
// `MRTR_ERR_INVALID_VALUE` (an argument of the wrong type, an unsafe integer,
// a repeated member, `arguments` not an object), `MRTR_ERR_INVALID_ARGUMENT`
// (not `tools/call`).
MRTR_NODISCARD enum mrtr_status
mrtr_http_headers_for_tool_call(const uint8_t *body, size_t body_len, struct mrtr_str input_schema,
                                uint8_t *buf, size_t buf_len, size_t *out_written,
                                struct mrtr_http_header *out_headers, size_t headers_cap,
                                size_t *out_count, const char **out_reason);

// Checks the `x-mcp-header` designations (SEP-2243) of a tool's raw
// `inputSchema`; writes their number to `*out_count` if not NULL. Never call
// a tool refused here. `MRTR_ERR_INVALID_SCHEMA` (an invalid designation, no
// object `properties`), `MRTR_ERR_INVALID_UTF8`.
MRTR_NODISCARD enum mrtr_status
mrtr_tool_header_check(struct mrtr_str input_schema, size_t *out_count);

// After response `msg` to a request resent `retries` times: `MRTR_OK` (send
// it again, new id) for a `-32022` whose `data.supported` lists
// `mrtr_protocol_version()` and `data.requested` does not, with `retries`
// below `MRTR_MAX_VERSION_RETRIES`;
// `MRTR_ERR_UNSUPPORTED_VERSION` for any other `-32022` (final); `MRTR_ERR_JSON`
// (a repeated member in `data`); `MRTR_ERR_NOT_FOUND` (no `-32022`).
MRTR_NODISCARD enum mrtr_status
mrtr_version_retry(const uint8_t *msg, size_t msg_len, uint32_t retries);

// Returns the library version (for example `"0.1.0"`).
const char *mrtr_version(void);

// Returns the protocol revision implemented, `"2026-07-28"` (the value of
// the `MCP-Protocol-Version` HTTP header).
const char *mrtr_protocol_version(void);

// Checks that `len` bytes at `json` are exactly one RFC 8259 document
// (strict: no comments, trailing commas, `NaN`, lone surrogates; repeated
// keys allowed), at most `max_depth` deep (0: the default). Statuses:
// `MRTR_ERR_JSON` (malformed, the empty input too), `MRTR_ERR_LIMIT_EXCEEDED`
// (too deep), both with the offset where reading stopped in the optional
// `*error_offset`; `MRTR_ERR_INVALID_ARGUMENT` (`max_depth` too large).
MRTR_NODISCARD enum mrtr_status
mrtr_json_validate(const uint8_t *json, size_t len, size_t max_depth, size_t *error_offset);

// Writes `text` as a JSON string literal into `out` (the output convention),
// quotes included: `"`, `\` and control characters escaped.
MRTR_NODISCARD enum mrtr_status
mrtr_json_write_string(struct mrtr_str text, uint8_t *out, size_t out_len, size_t *out_written);

// Decodes one JSON string literal (quotes included, as event spans give
// them: `"caf\u00e9"` -> `café`) into `out`. `MRTR_ERR_JSON`: not exactly
// one string (whitespace around allowed).
MRTR_NODISCARD enum mrtr_status
mrtr_json_decode_string(const uint8_t *token, size_t len, uint8_t *out, size_t out_len,
                        size_t *out_written);

// Starts a run of `call` in `*runner`: `first_id` the first request's id
// (0: the call's next id), `id_step` added per request (0 means 1; e.g. 2
// for two runs sharing a connection), `max_unrelated` messages tolerated
// while awaiting one answer (0: `MRTR_RUN_DEFAULT_MAX_UNRELATED`).
// `MRTR_ERR_INVALID_ARGUMENT`: `id_step` < 0, `first_id` beyond +-(2^53-1).
MRTR_NODISCARD enum mrtr_status
mrtr_runner_init(struct mrtr_runner *runner, const struct mrtr_call *call, int64_t first_id,
                 int64_t id_step, uint32_t max_unrelated);

// Writes the next step to `*out_step`, for `SEND` the request to `out`
// (`out_len` bytes): a fresh leg, or the one in flight again with a fresh
// id. Statuses: those of `mrtr_call_write_request`; `MRTR_ERR_WRONG_STATE`
// (the call is `DONE` or `FAILED`); `MRTR_ERR_LIMIT_EXCEEDED` (the next id
// would pass 2^53-1).
MRTR_NODISCARD enum mrtr_status
mrtr_runner_next(struct mrtr_runner *runner, struct mrtr_call *call, uint8_t *out, size_t out_len,
                 struct mrtr_step *out_step);

// Feeds a message received after `SEND` (as `mrtr_call_feed`, event to
// `*out_event`); `*out_again`: it was unrelated, pass the next message.
// `MRTR_ERR_LIMIT_EXCEEDED`: more than `max_unrelated` in a row.
MRTR_NODISCARD enum mrtr_status
mrtr_runner_received(struct mrtr_runner *runner, struct mrtr_call *call, const uint8_t *msg,
                     size_t len, struct mrtr_event *out_event, bool *out_again);

// Reports what the app did about input `index` after `ASK`: `reply` is a
// `MRTR_CB_*` value. `MRTR_ERR_ABORTED`: `MRTR_CB_ABORT`, a refusal of a
// sampling or roots input, or an error answer; `MRTR_ERR_UNANSWERED_INPUT`:
// `MRTR_CB_ANSWERED` without an answer.
MRTR_NODISCARD enum mrtr_status
mrtr_runner_answered(struct mrtr_runner *runner, struct mrtr_call *call, size_t index,
                     int32_t reply);

// Runs `call` to its end over the `mrtr_runner_*` steps: each request is
// written at the start of `buf` (`buf_len` bytes: enough for any run is
// `mrtr_call_request_size_max` plus `max_message_bytes` of the call's
// limits) and the answer received after it; `cb` does the
// I/O and answers the inputs. At `DONE`, `*out_event` (spans into `buf`)
// is the last message and the status the step's (`MRTR_OK`;
// `MRTR_ERR_RPC_ERROR`: a `-32022` may go to `mrtr_version_retry`;
// `MRTR_ERR_ABORTED`: task cancelled). Else the first step's error, or
// `MRTR_ERR_ABORTED` (a callback stopped the run), `MRTR_ERR_UNANSWERED_INPUT`
// (no callback for a kind), `MRTR_ERR_BUFFER_TOO_SMALL` (a request or a
// message did not fit: the size needed goes to `cb->out_needed`). The
// call's phase tells where it stopped.
MRTR_NODISCARD enum mrtr_status
mrtr_run(struct mrtr_call *call, const struct mrtr_run_callbacks *cb, void *user, uint8_t *buf,
         size_t buf_len, struct mrtr_event *out_event);

// Returns a static description of an unseal reason for logs (`"token
// expired"`; `"unknown reason"` for other numbers).
const char *mrtr_unseal_reason_str(int32_t reason);

// Returns `"Invalid or expired requestState"`, the message (with code
// `MRTR_INVALID_REQUEST_STATE_CODE`) for every refused `requestState`.
const char *mrtr_invalid_request_state_message(void);

// Returns the bytes `mrtr_sealer_init` needs.
size_t mrtr_sealer_size(void);

// Returns the exact length of a token of `state_len` bytes of state (and a
// principal when `principal`); saturates at `SIZE_MAX`.
size_t mrtr_seal_token_len(size_t state_len, bool principal);

// Returns the scratch `mrtr_unseal` needs for a `token_len`-byte token (at
// most `token_len`).
size_t mrtr_unseal_scratch_len(size_t token_len);

// Builds a sealer in `mem` (`len` >= `mrtr_sealer_size()`), handle in `*out`.
// `keys`: 1 to `MRTR_SEAL_MAX_KEYS` secrets (copied) of at least
// `MRTR_SEAL_MIN_KEY_BYTES`; `keys[0]` seals, all unseal (rotation:
// docs/ARCHITECTURE.md, section 7). `audience`: 1 to 256 bytes. 0 selects the
// default `ttl_seconds` and `max_token`; `skew_seconds` is as given.
//
// Returns `MRTR_OK`, `MRTR_ERR_KEY_ERROR` (count, length, all-equal bytes,
// repeated key id), `MRTR_ERR_INVALID_ARGUMENT` (audience, `max_token`, ttl or
// skew over its maximum), `MRTR_ERR_WORKSPACE_TOO_SMALL`,
// `MRTR_ERR_INVALID_UTF8`. On a failure `*out_reason` (optional) names the
// cause: `"NoKeys"`, `"TooManyKeys"`, `"KeyTooShort"`, `"WeakKey"`,
// `"DuplicateKeyId"`, `"EmptyAudience"`, `"AudienceTooLong"`,
// `"MaxTokenTooSmall"`, `"TtlOutOfRange"`, `"SkewOutOfRange"`, or the
// status's own name.
MRTR_NODISCARD enum mrtr_status
mrtr_sealer_init(void *mem, size_t len, const struct mrtr_bytes *keys, size_t nkeys,
                 struct mrtr_str audience, uint64_t ttl_seconds, uint64_t skew_seconds,
                 size_t max_token, struct mrtr_sealer **out, const char **out_reason);

// Zeroes the sealer (derived keys included) and dead stack; the handle is then
// invalid. A NULL or invalid handle is ignored.
void mrtr_sealer_wipe(struct mrtr_sealer *sealer);

// Writes to `out` (`MRTR_BINDING_BYTES`) the binding digest of a request: its
// method, target (name or URI) and canonical `arguments` (NULL with length 0:
// none).
//
// Returns `MRTR_OK`, `MRTR_ERR_JSON` (not JSON, a duplicate key),
// `MRTR_ERR_LIMIT_EXCEEDED` (too deep, too many members),
// `MRTR_ERR_INVALID_UTF8`. On a failure `*out_reason` (optional) names the
// cause: a JSON error's kind (`"UnexpectedByte"`, `"TooDeep"`, ...),
// `"DuplicateKey"`, `"TooManyMembers"`, `"TooManyOpenMembers"`,
// `"TooLarge"`, or the status's own name.
MRTR_NODISCARD enum mrtr_status
mrtr_binding_digest(struct mrtr_str method, struct mrtr_str target, const uint8_t *arguments,
                    size_t arguments_len, uint8_t *out, const char **out_reason);

// Writes to `out` (`MRTR_PRINCIPAL_DIGEST_BYTES`) SHA-256 of `principal`, what
// a token binds: a key for shared records that is not the credential. Returns
// `MRTR_OK` or a common status.
MRTR_NODISCARD enum mrtr_status mrtr_principal_digest(struct mrtr_bytes principal, uint8_t *out);

// Seals `state` into a token (ASCII, `mrtr_seal_token_len` bytes) in `out`.
// `now`: unix seconds; `nonce`: `MRTR_SEAL_NONCE_BYTES`, random or a counter
// (a repeat is safe); `binding`: `mrtr_binding_digest`; `principal`: NULL
// for none. Output convention of `mrtr_json_write_string`.
//
// Returns `MRTR_OK`, `MRTR_ERR_BUFFER_TOO_SMALL`, `MRTR_ERR_LIMIT_EXCEEDED`
// (over `max_token`), `MRTR_ERR_INVALID_ARGUMENT` (`now` out of range).
MRTR_NODISCARD enum mrtr_status
mrtr_seal(const struct mrtr_sealer *sealer, uint64_t now, const uint8_t *nonce,
          const uint8_t *binding, const struct mrtr_bytes *principal, struct mrtr_bytes state,
          uint8_t *out, size_t out_len, size_t *out_written);

// Checks `token` (decoded JSON string) for the request that echoed it (`now`,
// `binding`, `principal`) and views its state in `*out_state`, inside
// `scratch` (`mrtr_unseal_scratch_len` bytes; zeroed on refusal). `out_info`:
// NULL, or the token id and last valid second, for a replay cache.
//
// Returns `MRTR_OK`; `MRTR_ERR_INVALID_REQUEST_STATE` with `*out_reason` (log
// it; answer `mrtr_server_write_invalid_request_state`);
// `MRTR_ERR_BUFFER_TOO_SMALL` (scratch).
MRTR_NODISCARD enum mrtr_status
mrtr_unseal(const struct mrtr_sealer *sealer, uint64_t now, struct mrtr_bytes token,
            const uint8_t *binding, const struct mrtr_bytes *principal, uint8_t *scratch,
            size_t scratch_len, struct mrtr_bytes *out_state, enum mrtr_unseal_reason *out_reason,
            struct mrtr_unsealed_info *out_info);

// Reads one message (`len` bytes at `msg`) into `*out` under the 2026-07-28
// rules; `flags` 0 or `MRTR_SERVER_META_OPTIONAL`.
//
// Returns `MRTR_OK`; for a message to answer with
// `mrtr_server_write_request_error` (`*out_error`, when not NULL, says why):
// `MRTR_ERR_JSON` (`-32700`), `MRTR_ERR_LIMIT_EXCEEDED` (`-32700`; `-32602`
// for `inputResponses` or an object of over 1024 members), `MRTR_ERR_ENVELOPE`
// (`-32600`), `MRTR_ERR_UNSUPPORTED_VERSION` (`-32022`),
// `MRTR_ERR_PROTOCOL_VIOLATION` (`-32602`).
MRTR_NODISCARD enum mrtr_status
mrtr_server_parse_request(const uint8_t *msg, size_t len, uint32_t flags,
                          struct mrtr_server_request *out, struct mrtr_server_error *out_error);

// Writes the error response for a message `mrtr_server_parse_request` refused
// (same `msg`, `len`, `flags`). Output convention of `mrtr_json_write_string`.
//
// Returns `MRTR_OK`, `MRTR_ERR_BUFFER_TOO_SMALL`, `MRTR_ERR_WRONG_STATE` (the
// message is fine).
MRTR_NODISCARD enum mrtr_status
mrtr_server_write_request_error(const uint8_t *msg, size_t len, uint32_t flags, uint8_t *out,
                                size_t out_len, size_t *out_written);

// Writes to `*out` the answer under `key` in `input_responses` (from
// `mrtr_server_request`). `expected`: the `mrtr_answer_kind` asked, or
// `MRTR_ANSWER_NONE` for any.
//
// Returns `MRTR_OK` (kind `MRTR_ANSWER_NONE`: absent);
// `MRTR_ERR_PROTOCOL_VIOLATION` (unusable: `*out_error`, when not NULL, for
// `mrtr_server_write_answer_error`); `MRTR_ERR_JSON`,
// `MRTR_ERR_PROTOCOL_VIOLATION`, `MRTR_ERR_LIMIT_EXCEEDED` (not a valid map:
// never for the map of a request `mrtr_server_parse_request` accepted, which
// checked it under the same rules);
// `MRTR_ERR_INVALID_UTF8`.
MRTR_NODISCARD enum mrtr_status
mrtr_server_input_response(struct mrtr_str input_responses, struct mrtr_str key, uint32_t expected,
                           struct mrtr_server_answer *out, struct mrtr_answer_error *out_error);

// Writes root `index` of the roots answer under `key` to `*out`.
//
// Returns `MRTR_OK`, `MRTR_ERR_NOT_FOUND` (no roots answer, or no such index),
// `MRTR_ERR_PROTOCOL_VIOLATION` (unusable), the map statuses of
// `mrtr_server_input_response`.
MRTR_NODISCARD enum mrtr_status
mrtr_server_root_at(struct mrtr_str input_responses, struct mrtr_str key, size_t index,
                    struct mrtr_server_root *out);

// Writes an `InputRequiredResult`; every input is checked first (declared
// kind; key; form schema; URL scheme; sampling `messages`, `maxTokens`).
// Output convention of `mrtr_json_write_string`.
//
// Returns `MRTR_OK`; `MRTR_ERR_BUFFER_TOO_SMALL`;
// `MRTR_ERR_UNDECLARED_CAPABILITY`, `MRTR_ERR_INVALID_VALUE` (an input
// refused: `*out_error`); `MRTR_ERR_LIMIT_EXCEEDED` (over 64);
// `MRTR_ERR_WRONG_STATE` (method); `MRTR_ERR_INVALID_ARGUMENT` (nothing to
// send, unknown value, bad id); `MRTR_ERR_INVALID_UTF8`. Every failure names
// its cause in `out_error->reason` (`"Empty"`, `"NoId"`, `"UnknownMethod"`,
// `"UnknownKind"`, `"UnknownCapability"`, an input's refusal, ...).
MRTR_NODISCARD enum mrtr_status
mrtr_server_write_input_required(const struct mrtr_input_required *ir, uint8_t *out, size_t out_len,
                                 size_t *out_written, struct mrtr_build_error *out_error);

// Writes a complete result for `id`: `result` is the result object or its
// members alone (`resultType` goes first). Output convention of
// `mrtr_json_write_string`.
//
// Returns `MRTR_OK`, `MRTR_ERR_BUFFER_TOO_SMALL`, `MRTR_ERR_JSON`,
// `MRTR_ERR_INVALID_VALUE` (a `resultType` not `"complete"`),
// `MRTR_ERR_INVALID_ARGUMENT` (no id, a bad id), `MRTR_ERR_INVALID_UTF8`.
MRTR_NODISCARD enum mrtr_status
mrtr_server_write_complete(const struct mrtr_request_id *id, struct mrtr_str result, uint8_t *out,
                           size_t out_len, size_t *out_written);

// Writes a JSON-RPC error: `code`, `message` (text), `data` (raw JSON; `{NULL,
// 0}`: none). `id` NULL or `MRTR_ID_NONE` omits the id. Output as
// `mrtr_server_write_complete`.
//
// Returns `MRTR_OK`, `MRTR_ERR_BUFFER_TOO_SMALL`, `MRTR_ERR_JSON`,
// `MRTR_ERR_INVALID_UTF8`, `MRTR_ERR_INVALID_ARGUMENT` (a bad id).
MRTR_NODISCARD enum mrtr_status
mrtr_server_write_error(const struct mrtr_request_id *id, int32_t code, struct mrtr_str message,
                        struct mrtr_str data, uint8_t *out, size_t out_len, size_t *out_written);

// Writes `-32021` with `data.requiredCapabilities` from `required_caps`
// (`MRTR_CAP_*`, e.g. `mrtr_build_error.missing_caps`). Output and statuses as
// `mrtr_server_write_complete`.
MRTR_NODISCARD enum mrtr_status
mrtr_server_write_missing_capability(const struct mrtr_request_id *id, uint32_t required_caps,
                                     uint8_t *out, size_t out_len, size_t *out_written);

// Writes `-32022` with `data.requested` (`requested_json`, a quoted JSON
// string; else `MRTR_ERR_JSON`) and `data.supported`. `id` may be NULL. Output
// and statuses as `mrtr_server_write_error`.
MRTR_NODISCARD enum mrtr_status
mrtr_server_write_unsupported_version(const struct mrtr_request_id *id,
                                      struct mrtr_str requested_json, uint8_t *out, size_t out_len,
                                      size_t *out_written);

// Writes `-32602` "Invalid or expired requestState", the answer to every
// `requestState` that fails to unseal. As `mrtr_server_write_complete`.
MRTR_NODISCARD enum mrtr_status
mrtr_server_write_invalid_request_state(const struct mrtr_request_id *id, uint8_t *out,
                                        size_t out_len, size_t *out_written);

// Writes `-32602` for the unusable answer `*err` under `key` (from
// `mrtr_server_input_response`). As `mrtr_server_write_complete`.
MRTR_NODISCARD enum mrtr_status
mrtr_server_write_answer_error(const struct mrtr_request_id *id, struct mrtr_str key,
                               const struct mrtr_answer_error *err, uint8_t *out, size_t out_len,
                               size_t *out_written);

// SEP-2243: checks the `n` `headers` of a `tools/call` (as received) against
// its `arguments` (`{NULL, 0}`: none) for the tool's `input_schema` (rules:
// docs/ARCHITECTURE.md, section 5).
//
// Returns `MRTR_OK`; `MRTR_ERR_INVALID_VALUE` (no match: `*out_error`; answer
// `-32020`, HTTP 400); `MRTR_ERR_INVALID_SCHEMA`; `MRTR_ERR_INVALID_ARGUMENT`
// (`arguments` not an object); `MRTR_ERR_INVALID_UTF8`.
MRTR_NODISCARD enum mrtr_status
mrtr_server_check_param_headers(struct mrtr_str input_schema, struct mrtr_str arguments,
                                const struct mrtr_http_header *headers, size_t n,
                                struct mrtr_param_header_error *out_error);

// Writes the workspace size of a decoder for events of up to
// `max_event_bytes` of data (1 MiB fits any default-limit message).
// `MRTR_ERR_INVALID_ARGUMENT` (overflow).
MRTR_NODISCARD enum mrtr_status mrtr_sse_decoder_size(size_t max_event_bytes, size_t *out_size);

// Starts a decoder in `workspace`, the rest of it past the state being the
// event buffer; writes the handle. `MRTR_ERR_WORKSPACE_TOO_SMALL` (below
// `mrtr_sse_decoder_size(0)`).
MRTR_NODISCARD enum mrtr_status
mrtr_sse_init(void *workspace, size_t len, struct mrtr_sse_decoder **out_dec);

// Feeds stream bytes, split anywhere, up to one event: writes the bytes used
// to `*consumed` (also on the errors below); call again with the rest.
// `MRTR_OK` (`out->has_event`); `MRTR_ERR_LIMIT_EXCEEDED` (event over the
// buffer, type or id too long), `MRTR_ERR_INVALID_UTF8`: event skipped, go on.
// On a failure `*out_reason` (optional) names the cause: `"EventTooLarge"`
// (a larger decoder would take it), `"EventTypeTooLong"`,
// `"EventIdTooLong"`, `"InvalidUtf8"`, or the status's own name.
MRTR_NODISCARD enum mrtr_status
mrtr_sse_feed(struct mrtr_sse_decoder *dec, const uint8_t *chunk, size_t len, size_t *consumed,
              struct mrtr_sse_event *out, const char **out_reason);

// The connection closed: drops an unfinished event (writes whether to
// `*out_discarded` if not NULL), keeps the last id and retry for the next.
MRTR_NODISCARD enum mrtr_status
mrtr_sse_end_of_stream(struct mrtr_sse_decoder *dec, bool *out_discarded);

// Writes what a reconnection needs to `*out`.
MRTR_NODISCARD enum mrtr_status
mrtr_sse_reconnect_info(const struct mrtr_sse_decoder *dec, struct mrtr_sse_reconnect *out);

// Returns the name of a status (`"MRTR_OK"`, ...; `"MRTR_UNKNOWN_STATUS"`
// for an integer that is none).
const char *mrtr_status_str(int32_t status);

// Reads a `tools/list` `result` object: its number of tools and, if
// `out_next_cursor` is not NULL, the `nextCursor` token (NULL: last page).
// `MRTR_ERR_JSON`, `MRTR_ERR_INVALID_UTF8`, `MRTR_ERR_PROTOCOL_VIOLATION` (no
// `tools` array), `MRTR_ERR_LIMIT_EXCEEDED` (too many tools, too deep). On a
// failure `*out_reason` (optional) names the cause: `"NotAList"`,
// `"TooMany"`, `"Tool"` (a malformed tool), a JSON error's kind
// (`"TooDeep"`, `"UnexpectedByte"`, ...), or the status's own name.
MRTR_NODISCARD enum mrtr_status
mrtr_tool_list(const uint8_t *result, size_t len, size_t *out_count,
               struct mrtr_str *out_next_cursor, const char **out_reason);

// Writes tool `index` of the page to `*out` (random access; to read all,
// `mrtr_tool_next`). `MRTR_ERR_NOT_FOUND` (no such index), those of
// `mrtr_tool_list`; `MRTR_ERR_PROTOCOL_VIOLATION` also for a malformed tool;
// `*out_reason` as for `mrtr_tool_list`.
MRTR_NODISCARD enum mrtr_status
mrtr_tool_at(const uint8_t *result, size_t len, size_t index, struct mrtr_tool *out,
             const char **out_reason);

// Writes the next tool of the page to `*out` and moves `*cursor` past it.
// `MRTR_ERR_NOT_FOUND` after the last; `MRTR_ERR_PROTOCOL_VIOLATION` (a
// malformed tool, skipped: call again); `MRTR_ERR_INVALID_ARGUMENT` (a
// cursor of another page: `"OtherPage"`); first call: those of
// `mrtr_tool_list`; `*out_reason` as for `mrtr_tool_list`.
MRTR_NODISCARD enum mrtr_status
mrtr_tool_next(const uint8_t *result, size_t len, struct mrtr_tool_cursor *cursor,
               struct mrtr_tool *out, const char **out_reason);

// Splits a URL-mode elicitation's decoded `url` for the consent screen, or
// refuses one browsers would read otherwise than it looks: never open that.
// `MRTR_ERR_REFUSED_URL` (`*out_refusal` if not NULL), `MRTR_ERR_INVALID_UTF8`.
MRTR_NODISCARD enum mrtr_status
mrtr_url_consent(struct mrtr_str url, struct mrtr_url_info *out,
                 struct mrtr_url_refusal *out_refusal);

#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

#endif  /* MRTR_H */
