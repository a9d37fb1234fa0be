//! Library facts: version strings.

use core::ffi::{c_char, CStr};

/// This library's version, NUL-terminated, taken from the package manifest.
const VERSION: &CStr =
    match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
        Ok(s) => s,
        // A NUL inside a Cargo version cannot happen; this is a compile-time check.
        Err(_) => panic!("package version contains a NUL byte"),
    };

/// The protocol revision, NUL-terminated.
const PROTOCOL_VERSION: &CStr = c"2026-07-28";

// The C string must spell the core's revision exactly.
const _: () = assert!(bytes_eq(
    PROTOCOL_VERSION.to_bytes(),
    mrtr_core::wire::PROTOCOL_VERSION.as_bytes()
));

/// Byte-slice equality usable in constants (slice patterns: no indexing).
// Rust 1.88 (the minimum) does not count a use inside `const _` as a use.
#[allow(dead_code)]
const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    match (a, b) {
        ([x, a_rest @ ..], [y, b_rest @ ..]) => *x == *y && bytes_eq(a_rest, b_rest),
        ([], []) => true,
        _ => false,
    }
}

/// Returns the library version (for example `"0.1.0"`).
#[unsafe(no_mangle)]
pub extern "C" fn mrtr_version() -> *const c_char {
    VERSION.as_ptr()
}

/// Returns the protocol revision implemented, `"2026-07-28"` (the value of
/// the `MCP-Protocol-Version` HTTP header).
#[unsafe(no_mangle)]
pub extern "C" fn mrtr_protocol_version() -> *const c_char {
    PROTOCOL_VERSION.as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_is_the_package_version() {
        // SAFETY: static NUL-terminated string.
        let v = unsafe { CStr::from_ptr(mrtr_version()) };
        assert_eq!(v.to_bytes(), b"0.1.0");
    }

    #[test]
    fn const_bytes_eq_compares_contents_and_lengths() {
        assert!(bytes_eq(b"", b""));
        assert!(bytes_eq(b"2026-07-28", b"2026-07-28"));
        assert!(!bytes_eq(b"2026-07-28", b"2026-07-29"));
        assert!(!bytes_eq(b"abc", b"ab"));
        assert!(!bytes_eq(b"", b"a"));
    }

    #[test]
    fn protocol_version_is_the_revision() {
        // SAFETY: static NUL-terminated string.
        let v = unsafe { CStr::from_ptr(mrtr_protocol_version()) };
        assert_eq!(v.to_bytes(), b"2026-07-28");
    }
}
