//! Plain data types shared by the C API.

use core::ffi::c_char;

/// A borrowed UTF-8 string: `len` bytes at `ptr`, not NUL-terminated (a NUL
/// byte inside is an ordinary character). `ptr` may be NULL only when `len`
/// is 0. Strings that mrtr hands out point into caller memory or static
/// data, and say in each function's documentation how long they stay valid.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct mrtr_str {
    /// The first byte, or NULL for the empty string.
    pub ptr: *const c_char,
    /// Length in bytes.
    pub len: usize,
}

impl mrtr_str {
    /// A `mrtr_str` viewing a Rust string (for Rust callers and tests).
    pub const fn from_str(s: &str) -> mrtr_str {
        mrtr_str::of_bytes(s.as_bytes())
    }

    /// A view of bytes known to be UTF-8 (JSON text the core validated).
    pub(crate) const fn of_bytes(b: &[u8]) -> mrtr_str {
        mrtr_str {
            ptr: b.as_ptr().cast(),
            len: b.len(),
        }
    }
}

/// One HTTP header: from `mrtr_http_headers*` ready to send (unsafe values
/// `=?base64?...?=`); to `mrtr_server_check_param_headers` as received.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct mrtr_http_header {
    /// The header name.
    pub name: mrtr_str,
    /// The value.
    pub value: mrtr_str,
}

/// Borrowed bytes that need not be text (keys, sealed state): `len` bytes
/// at `ptr`. `ptr` may be NULL only when `len` is 0.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct mrtr_bytes {
    /// The first byte, or NULL when empty.
    pub ptr: *const u8,
    /// Length in bytes.
    pub len: usize,
}

/// A part of a message the caller fed: `len` bytes starting `offset` bytes
/// into it. Valid for as long as the caller keeps those bytes; an absent
/// part is `{0, 0}`. Spans of JSON strings include the quotes (decode them
/// with `mrtr_json_decode_string`); spans of other values are the raw JSON.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct mrtr_span {
    /// Offset of the first byte.
    pub offset: usize,
    /// Length in bytes.
    pub len: usize,
}

#[cfg(feature = "client")]
impl mrtr_span {
    /// The span of `part`, a sub-slice of `base`; `{0, 0}` if it is not one
    /// (addresses are only compared, never dereferenced).
    pub(crate) fn of(base: &[u8], part: &[u8]) -> mrtr_span {
        let offset = (part.as_ptr() as usize).wrapping_sub(base.as_ptr() as usize);
        match offset.checked_add(part.len()) {
            Some(end) if end <= base.len() => mrtr_span {
                offset,
                len: part.len(),
            },
            _ => mrtr_span::default(),
        }
    }

    /// This span moved `by` bytes further (a span of a message that sits
    /// inside a larger buffer).
    pub(crate) fn shifted(self, by: usize) -> mrtr_span {
        if self.len == 0 {
            return self;
        }
        mrtr_span {
            offset: self.offset.saturating_add(by),
            len: self.len,
        }
    }
}

#[cfg(any(feature = "client", feature = "server"))]
impl mrtr_str {
    /// The empty string (NULL pointer, length 0).
    pub(crate) const EMPTY: mrtr_str = mrtr_str {
        ptr: core::ptr::null(),
        len: 0,
    };

    /// A view of an optional string; [`mrtr_str::EMPTY`] for none.
    #[cfg(feature = "client")]
    pub(crate) fn opt(s: Option<&str>) -> mrtr_str {
        s.map_or(mrtr_str::EMPTY, mrtr_str::from_str)
    }

    /// A view of an optional JSON string: the bytes between its quotes,
    /// which the reader validated, so they are its text unless the token
    /// has escapes (then `bit` is or-ed into `escaped`); empty for none.
    #[cfg(feature = "client")]
    pub(crate) fn json(
        s: Option<mrtr_core::json::JsonStr<'_>>,
        escaped: &mut u32,
        bit: u32,
    ) -> mrtr_str {
        let Some(s) = s else {
            return mrtr_str::EMPTY;
        };
        if s.has_escapes() {
            *escaped |= bit;
        }
        mrtr_str::of_bytes(s.raw_inner())
    }
}

#[cfg(any(feature = "client", feature = "server"))]
impl Default for mrtr_str {
    fn default() -> Self {
        mrtr_str::EMPTY
    }
}

/// Declares how a C enum mirrors a core numbering: `Enum::of(code)` is the
/// variant whose discriminant is `code` (the core's number), and a compile-
/// time check makes the list the enum's numbering from its first value on.
/// The enum itself stays a plain item (cbindgen does not expand macros).
#[cfg(any(feature = "client", feature = "server", feature = "seal"))]
macro_rules! c_enum {
    ($ty:ident: $($v:ident)+) => {
        impl $ty {
            const ALL: &'static [$ty] = &[$($ty::$v),+];
            /// The variant numbered `code`; the first one when none is.
            pub(crate) fn of(code: u32) -> $ty {
                let i = code.wrapping_sub(Self::ALL[0] as u32) as usize;
                Self::ALL.get(i).copied().unwrap_or(Self::ALL[0])
            }
        }
        const _: () = {
            let mut i = 0;
            while i < $ty::ALL.len() {
                assert!($ty::ALL[i] as usize == $ty::ALL[0] as usize + i);
                i += 1;
            }
        };
    };
}
#[cfg(any(feature = "client", feature = "server", feature = "seal"))]
pub(crate) use c_enum;

/// Compile-time checks that the C constants equal the core's numbers.
#[cfg(any(feature = "client", feature = "server", feature = "seal"))]
macro_rules! same {
    ($($c:expr => $core:expr),+ $(,)?) => {
        const _: () = { $(assert!($c as u64 == $core as u64);)+ };
    };
}
#[cfg(any(feature = "client", feature = "server", feature = "seal"))]
pub(crate) use same;
