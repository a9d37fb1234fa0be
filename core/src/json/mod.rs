//! A validating, zero-copy JSON reader and a bounded JSON writer.
//!
//! Why hand-written: MRTR needs raw capture of nested values (`arguments`,
//! `requestedSchema`, `requestState` byte for byte), open maps (`inputRequests`)
//! and a hard nesting limit that an attacker cannot turn into stack depth.
//! serde-json-core 0.7 offers none of these (no raw values, no `deserialize_any`,
//! recursive skipping, no surrogate pairs). It was meant for shallow
//! fixed-shape records, but every record MRTR reads has a string that must be
//! echoed as its raw token (task ids, `requestState`) or decoded with
//! surrogate pairs (messages, names), and [`Object::get_unique`] reads the
//! few scalar fields in one walk; so the crate is not a dependency. Nor is
//! serde: the sealed claims and saved calls have codecs of their own (postcard
//! 1's exact bytes, tested against postcard).
//!
//! Model: [`parse`] validates a whole document once, iteratively (an explicit
//! bit stack, never recursion), against RFC 8259: no trailing commas, no leading
//! zeros, no `NaN`/`Infinity`, no control characters in strings, no invalid UTF-8,
//! no lone surrogate escapes, nothing but whitespace after the value. It returns a
//! [`Value`]: a span into the input. Navigation over a validated span cannot fail,
//! so the accessors return `Option` rather than `Result`.
//!
//! Navigation is lazy: finding a member skips the values before it. A
//! document walked level by level (envelope, result, `inputRequests`, each
//! request, its params) would rescan nested values once per level, so
//! [`parse_indexed`] (or [`Value::with_index`] for a value already parsed)
//! records the extent of every container of [`INDEX_MIN_LEN`] bytes or more
//! into caller-provided [`IndexSlot`]s, and skips become a lookup (a walk
//! of siblings keeps a cursor into the slots: each one's slot is found
//! directly).
//! Results are identical with any number of slots, zero included.
//!
//! Duplicate keys: the reader keeps every member (an object is a span). Lookups
//! that matter for the protocol go through [`Object::get_unique`], which fails
//! with [`ErrorKind::DuplicateKey`] when a key occurs twice, and open maps are
//! checked with [`Object::check_unique_keys`] (bounded member count, keys
//! compared in stack blocks so the cost stays near-linear in bytes). A whole
//! value (a request's `params`, tool arguments included) is checked at every
//! depth with [`Value::check_unique_keys_deep`]: one pass, the keys of the
//! open objects on a bounded stack, larger objects in sorted blocks up to
//! [`DEEP_MAX_MEMBERS`].

mod reader;
mod writer;

#[cfg(feature = "form")]
pub(crate) use reader::integer_literal_i64;
pub use reader::{
    parse, parse_indexed, parse_str, parse_with, Array, Chars, Elements, IndexSlot, JsonStr, Kind,
    Members, Object, Value, DEEP_DIRECT_KEYS, DEEP_KEYS, DEEP_MAX_MEMBERS, DEEP_OBJECTS,
    INDEX_MIN_LEN, UNIQUE_KEYS_BLOCK,
};
#[cfg(feature = "client")]
pub(crate) use reader::{parse_value_at, validated_array};
pub use writer::{BufferTooSmall, Writer};

/// Default maximum nesting depth of a document (the outermost value is depth 1).
pub const DEFAULT_MAX_DEPTH: usize = 32;
/// The largest integer every JSON reader reads exactly (2^53 - 1, the
/// largest an IEEE 754 double holds without rounding; JavaScript's
/// `Number.MAX_SAFE_INTEGER`). Ids, task times and designated integer
/// arguments stay within +-this; every other name for it derives from this
/// one.
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;
/// The largest nesting depth a caller may configure.
pub const MAX_DEPTH_LIMIT: usize = 256;
/// Default maximum size of one message the reader accepts (1 MiB).
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 1 << 20;

/// Limits applied while reading a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseLimits {
    /// Maximum nesting depth; the outermost value counts as 1. Clamped to
    /// [`MAX_DEPTH_LIMIT`].
    pub max_depth: usize,
    /// Maximum input size in bytes, checked before any byte is read.
    pub max_bytes: usize,
}

impl Default for ParseLimits {
    fn default() -> Self {
        ParseLimits {
            max_depth: DEFAULT_MAX_DEPTH,
            max_bytes: DEFAULT_MAX_MESSAGE_BYTES,
        }
    }
}

impl ParseLimits {
    /// Limits on depth alone, for a document whose size its caller already
    /// chose (the C API's `mrtr_json_validate`): no bound on bytes, and
    /// `max_depth` 0 selects [`DEFAULT_MAX_DEPTH`]. `None` for a depth over
    /// [`MAX_DEPTH_LIMIT`].
    pub fn depth_only(max_depth: usize) -> Option<Self> {
        let max_depth = match max_depth {
            0 => DEFAULT_MAX_DEPTH,
            d if d <= MAX_DEPTH_LIMIT => d,
            _ => return None,
        };
        Some(ParseLimits {
            max_depth,
            max_bytes: usize::MAX,
        })
    }
}

/// What went wrong while reading or unescaping JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input ended inside a value.
    UnexpectedEnd,
    /// A byte that the grammar does not allow here (this covers trailing
    /// commas, missing colons, single quotes, comments, `NaN`, ...).
    UnexpectedByte,
    /// A number that breaks the RFC 8259 grammar (leading zero, bare `-`,
    /// missing digits after `.` or `e`).
    InvalidNumber,
    /// A backslash escape that is not one of the nine JSON escapes, or a
    /// `\u` with fewer than four hex digits.
    InvalidEscape,
    /// A `\u` escape of a UTF-16 surrogate that has no partner.
    LoneSurrogate,
    /// String bytes that are not valid UTF-8.
    InvalidUtf8,
    /// A raw control character (U+0000..U+001F) inside a string.
    ControlCharacter,
    /// Nesting deeper than the configured limit.
    TooDeep,
    /// Something other than whitespace after the document's value.
    TrailingCharacters,
    /// The input is larger than the configured maximum.
    TooLarge,
    /// A key that must be unique occurs twice in one object.
    DuplicateKey,
    /// An object has more members than the caller allows.
    TooManyMembers,
    /// An output buffer is too small for the unescaped string.
    BufferTooSmall,
}

variant_names! {
    /// The variant's name, NUL-terminated for C (`"TooDeep"`).
    ErrorKind: UnexpectedEnd UnexpectedByte InvalidNumber InvalidEscape LoneSurrogate
    InvalidUtf8 ControlCharacter TooDeep TrailingCharacters TooLarge DuplicateKey TooManyMembers
    BufferTooSmall
}

/// A JSON error with the byte offset where it was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Error {
    /// What went wrong.
    pub kind: ErrorKind,
    /// Byte offset into the input (for [`ErrorKind::BufferTooSmall`], the
    /// number of bytes needed).
    pub offset: usize,
}

impl Error {
    pub(crate) const fn new(kind: ErrorKind, offset: usize) -> Self {
        Error { kind, offset }
    }
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.kind {
            // Here `offset` is the size needed, not a position.
            ErrorKind::BufferTooSmall => write!(f, "BufferTooSmall: needs {} bytes", self.offset),
            kind => write!(f, "{kind:?} at byte {}", self.offset),
        }
    }
}

impl core::error::Error for Error {}

/// Whether `b` is exactly one JSON number (RFC 8259: `-?int frac? exp?`,
/// no leading `+` or zeros, nothing around it).
#[cfg(feature = "form")]
pub(crate) fn is_number_text(b: &[u8]) -> bool {
    matches!(b.first(), Some(b'-' | b'0'..=b'9'))
        && reader::scan_number(b, 0).is_ok_and(|end| end == b.len())
}

#[cfg(test)]
mod tests;

/// Test-only: the bytes the reader walks on this thread (a validation, each
/// member or element stepped over), so a test can bound a loop's work
/// without a clock.
#[cfg(test)]
pub(crate) mod walked {
    std::thread_local! {
        static BYTES: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
    }
    /// Counts `n` bytes walked.
    pub(crate) fn add(n: usize) {
        BYTES.with(|b| b.set(b.get().saturating_add(n)));
    }
    /// The bytes walked since the last call, and starts again at 0.
    pub(crate) fn take() -> usize {
        BYTES.with(|b| b.replace(0))
    }
}
