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
