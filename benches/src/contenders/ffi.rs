//! mrtr through its C ABI: the release `libmrtr.a` of the root workspace,
//! linked by `build.rs`, called through `extern "C"` declarations written
//! from `include/mrtr.h`.
//!
//! On main the C ABI exports the JSON validator only (`mrtr_call_*` are not
//! merged yet), so the C contender runs the `validate` job.

use crate::jobs::Runner;

/// `MRTR_OK`.
const MRTR_OK: i32 = 0;

extern "C" {
    /// `enum mrtr_status mrtr_json_validate(const uint8_t *json, size_t len,
    /// size_t max_depth, size_t *error_offset);`
    fn mrtr_json_validate(
        json: *const u8,
        len: usize,
        max_depth: usize,
        error_offset: *mut usize,
    ) -> i32;
    /// `const char *mrtr_version(void);`
    fn mrtr_version() -> *const core::ffi::c_char;
}

/// The library's version string (proves the link).
pub fn version() -> String {
    // SAFETY: mrtr_version returns a static NUL-terminated string.
    let s = unsafe { core::ffi::CStr::from_ptr(mrtr_version()) };
    s.to_string_lossy().into_owned()
}

/// Validates `bytes` through the C ABI with the default depth.
pub fn validate(bytes: &[u8]) -> bool {
    let mut offset = 0usize;
    // SAFETY: `bytes` is readable for its length; `offset` is a writable,
    // aligned size_t outside `bytes`.
    let status = unsafe { mrtr_json_validate(bytes.as_ptr(), bytes.len(), 0, &mut offset) };
    status == MRTR_OK
}

/// `validate` through the C ABI.
pub fn validate_runner(bytes: Vec<u8>) -> Runner {
    Box::new(move || validate(&bytes) as u64)
}
