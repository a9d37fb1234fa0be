// include/mrtr.h must compile on its own as C++17 with
// -Wall -Wextra -Werror -pedantic, with C linkage for every function.
#include "mrtr.h"

static_assert(MRTR_OK == 0, "MRTR_OK is 0");
static_assert(sizeof(mrtr_str) == sizeof(const char *) + sizeof(size_t), "mrtr_str is ptr+len");

extern "C" {
typedef const char *version_fn(void);
typedef mrtr_status validate_fn(const uint8_t *, size_t, size_t, size_t *);
}
version_fn *const header_check_version = mrtr_version;
validate_fn *const header_check_validate = mrtr_json_validate;

static_assert(MRTR_WORKSPACE_ALIGN == 8, "workspaces are 8-aligned");
static_assert(sizeof(mrtr_span) == 2 * sizeof(size_t), "mrtr_span is offset+len");

int header_check_objects() {
    mrtr_call_limits l;
    size_t n = 0;
    if (mrtr_call_limits_default(&l) != MRTR_OK) return 1;
    return mrtr_call_workspace_size(&l, &n) == MRTR_OK ? 0 : 1;
}

int header_check_main() {
    mrtr_str s = {"x", 1};
    size_t n = 0;
    return mrtr_json_write_string(s, nullptr, 0, &n) == MRTR_ERR_BUFFER_TOO_SMALL ? 0 : 1;
}
