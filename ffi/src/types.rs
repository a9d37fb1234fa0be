//! Plain data types shared by the C API.

use core::ffi::c_char;

/// A borrowed UTF-8 string: `len` bytes at `ptr`, not NUL-terminated (a NUL
/// byte inside is an ordinary character). `ptr` may be NULL only when `len`
/// is 0. Strings that mrtr hands out point into caller memory or static
/// data, and say in each function's documentation how long they stay valid.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_str {
    /// The first byte, or NULL for the empty string.
    pub ptr: *const c_char,
    /// Length in bytes.
    pub len: usize,
}

impl mrtr_str {
    /// A `mrtr_str` viewing a Rust string (for Rust callers and tests).
    pub const fn from_str(s: &str) -> mrtr_str {
        mrtr_str {
            ptr: s.as_ptr().cast(),
            len: s.len(),
        }
    }
}
