//! Names packed in one string: a table of NUL-terminated names stored as
//! one string literal, each name found by its byte offset. A `name()`
//! function then keeps one small offset per variant (two bytes) instead of a
//! pointer and a length (eight bytes on 32-bit targets), and the table is
//! stored once however many callers inline the function: read-only data is
//! most of what a small device's flash holds beyond the code.

use core::ffi::CStr;

/// The byte offset of `name` (its NUL included) in `packed`; for constant
/// contexts, where a name missing from the table is a compile error. The
/// first occurrence is taken, which may be the tail of a longer name: the
/// bytes, hence the C string, are the same.
pub const fn offset(packed: &str, name: &str) -> u16 {
    let (p, n) = (packed.as_bytes(), name.as_bytes());
    assert!(
        !n.is_empty() && n[n.len() - 1] == 0,
        "a packed name ends with its NUL"
    );
    let mut i = 0;
    while i + n.len() <= p.len() {
        let mut j = 0;
        while j < n.len() && p[i + j] == n[j] {
            j += 1;
        }
        if j == n.len() {
            assert!(i <= u16::MAX as usize, "a packed name table fits 64 KiB");
            return i as u16;
        }
        i += 1;
    }
    panic!("a name missing from its packed table")
}

/// The NUL-terminated name starting at byte `at` of `packed` (`""` for an
/// offset past the end or a table without its final NUL, which the callers'
/// compile-time offsets rule out). Not inlined: one copy serves every table.
#[inline(never)]
pub const fn at(packed: &'static str, at: u16) -> &'static CStr {
    match packed.as_bytes().split_at_checked(at as usize) {
        Some((_, rest)) => match CStr::from_bytes_until_nul(rest) {
            Ok(c) => c,
            Err(_) => c"",
        },
        None => c"",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PACKED: &str = "NoKeys\0TooLarge\0EventTooLarge\0";

    #[test]
    fn packed_names_are_found_by_offset() {
        assert_eq!(offset(PACKED, "NoKeys\0"), 0);
        assert_eq!(offset(PACKED, "TooLarge\0"), 7);
        assert_eq!(offset(PACKED, "EventTooLarge\0"), 16);
        assert_eq!(at(PACKED, 0), c"NoKeys");
        assert_eq!(at(PACKED, 7), c"TooLarge");
        assert_eq!(at(PACKED, 16), c"EventTooLarge");
        // A tail of a longer name is the same C string.
        assert_eq!(at(PACKED, 21), c"TooLarge");
    }

    #[test]
    fn packed_name_past_the_end_is_empty() {
        assert_eq!(at(PACKED, PACKED.len() as u16), c"");
        assert_eq!(at(PACKED, u16::MAX), c"");
        assert_eq!(at("NoNul", 0), c"");
    }
}
