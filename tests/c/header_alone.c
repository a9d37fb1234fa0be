/*
 * include/mrtr.h must compile on its own (no other includes before it) as
 * C99 and C11 with -Wall -Wextra -Werror -pedantic: scripts/test-c builds this
 * file both ways. The declarations below fail to compile if the header's
 * types drift from what the C API promises.
 */
#include "mrtr.h"

typedef char assert_status_is_zero_ok[MRTR_OK == 0 ? 1 : -1];
typedef char assert_str_has_ptr_len[sizeof(((mrtr_str *)0)->len) == sizeof(size_t) ? 1 : -1];

const char *(*const header_check_version)(void) = mrtr_version;
const char *(*const header_check_status_str)(int32_t) = mrtr_status_str;
mrtr_status (*const header_check_validate)(const uint8_t *, size_t, size_t, size_t *) =
    mrtr_json_validate;
mrtr_status (*const header_check_quote)(mrtr_str, uint8_t *, size_t, size_t *) =
    mrtr_json_write_string;

/* The object functions: workspaces, handles, events. */
typedef char assert_workspace_align[MRTR_WORKSPACE_ALIGN == 8 ? 1 : -1];
typedef char assert_span_is_offset_len[sizeof(mrtr_span) == 2 * sizeof(size_t) ? 1 : -1];
mrtr_status (*const header_check_call_init)(void *, size_t, const mrtr_call_config *,
                                            mrtr_call **) = mrtr_call_init;
mrtr_status (*const header_check_call_feed)(mrtr_call *, const uint8_t *, size_t,
                                            mrtr_event *) = mrtr_call_feed;
mrtr_status (*const header_check_run)(mrtr_call *, const mrtr_run_callbacks *, void *, uint8_t *,
                                      size_t, mrtr_event *) = mrtr_run;
mrtr_status (*const header_check_progress)(const mrtr_call *, mrtr_progress *) =
    mrtr_call_progress;
mrtr_status (*const header_check_sse_feed)(mrtr_sse_decoder *, const uint8_t *, size_t, size_t *,
                                           mrtr_sse_event *, const char **) = mrtr_sse_feed;
size_t (*const header_check_sealer_size)(void) = mrtr_sealer_size;
mrtr_status (*const header_check_server_parse)(const uint8_t *, size_t, uint32_t,
                                               mrtr_server_request *, mrtr_server_error *) =
    mrtr_server_parse_request;
