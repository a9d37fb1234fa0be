//! The one status type every fallible C function returns, its names, and the
//! mapping from the core's error types.
//!
//! Numbering is part of the ABI: a value, once released, keeps its meaning
//! forever. Codes are grouped in decades with gaps so a group can grow
//! without renumbering: 1-9 caller misuse, 10-19 caller memory or limits too
//! small, 20-29 the peer's bytes are unacceptable, 30-39 a call ended without
//! a result, 40-49 `requestState` sealing, 99 internal.

use core::ffi::{c_char, CStr};

use mrtr_core::wire::{Violation, WireError};
use mrtr_core::{json, names};

/// The result of every fallible function: `MRTR_OK` (0), or an error. The
/// codes come in decades (caller misuse, memory or limits, the peer's bytes,
/// a call's end, sealing) and never change meaning.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum mrtr_status {
    /// Success.
    MRTR_OK = 0,

    /// A required pointer is NULL, or NULL comes with a non-zero length.
    MRTR_ERR_NULL_POINTER = 1,
    /// An argument is out of range (a length above `PTRDIFF_MAX`, an output
    /// overlapping an input, a handle that is no live object, a bad limit).
    MRTR_ERR_INVALID_ARGUMENT = 2,
    /// A string argument is not valid UTF-8.
    MRTR_ERR_INVALID_UTF8 = 3,
    /// A pointer is not aligned as its type or workspace requires.
    MRTR_ERR_MISALIGNED = 4,
    /// The object's state does not allow this call (e.g. feeding before sending).
    MRTR_ERR_WRONG_STATE = 5,
    /// No item with that key or index.
    MRTR_ERR_NOT_FOUND = 6,
    /// An application value breaks its rules (an answer of the wrong shape,
    /// form content failing its schema, a root that is not a `file://` URI).
    MRTR_ERR_INVALID_VALUE = 7,

    /// The output is too small; `*out_written` holds the size needed.
    MRTR_ERR_BUFFER_TOO_SMALL = 10,
    /// The workspace is smaller than its `_workspace_size` / `_size`.
    MRTR_ERR_WORKSPACE_TOO_SMALL = 11,
    /// A configured limit is exceeded (depth, size, count, ids, unrelated messages).
    MRTR_ERR_LIMIT_EXCEEDED = 12,

    /// Not valid JSON (RFC 8259), or a key twice where keys must be unique.
    MRTR_ERR_JSON = 20,
    /// Not a JSON-RPC 2.0 message.
    MRTR_ERR_ENVELOPE = 21,
    /// JSON-RPC, but against an MCP/MRTR rule.
    MRTR_ERR_PROTOCOL_VIOLATION = 22,
    /// An input kind the request did not declare, or a capability the
    /// server needs and the request lacks.
    MRTR_ERR_UNDECLARED_CAPABILITY = 23,
    /// A protocol revision this library does not speak.
    MRTR_ERR_UNSUPPORTED_VERSION = 24,
    /// A form schema outside the protocol's subset (the form cannot be shown
    /// as asked), or a tool's invalid `x-mcp-header` (do not call the tool).
    MRTR_ERR_INVALID_SCHEMA = 25,
    /// A URL a consent screen cannot show honestly: do not offer to open it.
    MRTR_ERR_REFUSED_URL = 26,

    /// The call ended with a JSON-RPC error response (or a failed task).
    MRTR_ERR_RPC_ERROR = 30,
    /// The server asked past the round cap (or the state-only round cap).
    MRTR_ERR_ROUND_CAP = 31,
    /// An input is still unanswered (or a callback did not answer it).
    MRTR_ERR_UNANSWERED_INPUT = 32,
    /// The run stopped: the app asked, refused, or the task was cancelled.
    MRTR_ERR_ABORTED = 33,

    /// A `requestState` failed verification; the reason is for logs only.
    MRTR_ERR_INVALID_REQUEST_STATE = 40,
    /// A sealing key is unusable (too short, duplicate key id, empty ring).
    MRTR_ERR_KEY_ERROR = 41,

    /// A bug in mrtr: a state the library believed unreachable. Please report.
    MRTR_ERR_INTERNAL = 99,
}

/// Declares the list of every status and its name function, from the
/// variant names alone.
macro_rules! statuses {
    ($($v:ident)+) => {
        /// Every status, in numeric order. Kept in step with the enum by a
        /// test that counts the variants in this file's source.
        pub(crate) const ALL_STATUSES: [mrtr_status; [$(stringify!($v)),+].len()] =
            [$(mrtr_status::$v),+];

        impl mrtr_status {
            /// The status's C name, as a static NUL-terminated string: the
            /// names are packed in one string, each status keeping its
            /// offset, found at compile time ([`mrtr_core::names`]).
            pub fn name(self) -> &'static CStr {
                const NAMES: &str = concat!($(stringify!($v), "\0"),+);
                const AT: [u16; ALL_STATUSES.len()] =
                    [$(names::offset(NAMES, concat!(stringify!($v), "\0"))),+];
                match status_index(self as i32).and_then(|i| AT.get(i)) {
                    Some(&at) => names::at(NAMES, at),
                    None => UNKNOWN_STATUS,
                }
            }
        }
    };
}

statuses! {
    MRTR_OK MRTR_ERR_NULL_POINTER MRTR_ERR_INVALID_ARGUMENT MRTR_ERR_INVALID_UTF8
    MRTR_ERR_MISALIGNED MRTR_ERR_WRONG_STATE MRTR_ERR_NOT_FOUND MRTR_ERR_INVALID_VALUE
    MRTR_ERR_BUFFER_TOO_SMALL MRTR_ERR_WORKSPACE_TOO_SMALL MRTR_ERR_LIMIT_EXCEEDED MRTR_ERR_JSON
    MRTR_ERR_ENVELOPE MRTR_ERR_PROTOCOL_VIOLATION MRTR_ERR_UNDECLARED_CAPABILITY
    MRTR_ERR_UNSUPPORTED_VERSION MRTR_ERR_INVALID_SCHEMA MRTR_ERR_REFUSED_URL MRTR_ERR_RPC_ERROR
    MRTR_ERR_ROUND_CAP MRTR_ERR_UNANSWERED_INPUT MRTR_ERR_ABORTED MRTR_ERR_INVALID_REQUEST_STATE
    MRTR_ERR_KEY_ERROR MRTR_ERR_INTERNAL
}

/// The name of integers that are not a status.
const UNKNOWN_STATUS: &CStr = c"MRTR_UNKNOWN_STATUS";

impl mrtr_status {
    /// The status with this numeric value, if any. Taking the raw integer is
    /// what keeps [`mrtr_status_str`] sound: a C caller can pass any `int`,
    /// and an out-of-range Rust enum value would be undefined behaviour.
    pub fn from_raw(raw: i32) -> Option<mrtr_status> {
        status_index(raw).and_then(|i| ALL_STATUSES.get(i).copied())
    }

    /// Whether this is `MRTR_OK`.
    pub fn is_ok(self) -> bool {
        self == mrtr_status::MRTR_OK
    }
}

/// The position in [`ALL_STATUSES`] of the status with this numeric value.
fn status_index(raw: i32) -> Option<usize> {
    ALL_STATUSES.iter().position(|s| *s as i32 == raw)
}

/// Returns the name of a status (`"MRTR_OK"`, ...; `"MRTR_UNKNOWN_STATUS"`
/// for an integer that is none).
#[unsafe(no_mangle)]
pub extern "C" fn mrtr_status_str(status: i32) -> *const c_char {
    match mrtr_status::from_raw(status) {
        Some(s) => s.name().as_ptr(),
        None => UNKNOWN_STATUS.as_ptr(),
    }
}

impl From<json::ErrorKind> for mrtr_status {
    fn from(kind: json::ErrorKind) -> Self {
        use json::ErrorKind as K;
        // Exhaustive on purpose: a new kind in the core must pick its status.
        match kind {
            K::UnexpectedEnd
            | K::UnexpectedByte
            | K::InvalidNumber
            | K::InvalidEscape
            | K::LoneSurrogate
            | K::InvalidUtf8
            | K::ControlCharacter
            | K::TrailingCharacters
            | K::DuplicateKey => mrtr_status::MRTR_ERR_JSON,
            K::TooDeep | K::TooLarge | K::TooManyMembers => mrtr_status::MRTR_ERR_LIMIT_EXCEEDED,
            K::BufferTooSmall => mrtr_status::MRTR_ERR_BUFFER_TOO_SMALL,
        }
    }
}

impl From<json::Error> for mrtr_status {
    fn from(e: json::Error) -> Self {
        e.kind.into()
    }
}

impl From<json::BufferTooSmall> for mrtr_status {
    fn from(_: json::BufferTooSmall) -> Self {
        mrtr_status::MRTR_ERR_BUFFER_TOO_SMALL
    }
}

impl From<Violation> for mrtr_status {
    fn from(v: Violation) -> Self {
        use Violation as V;
        match v {
            V::UndeclaredCapability => mrtr_status::MRTR_ERR_UNDECLARED_CAPABILITY,
            V::TooManyInputRequests => mrtr_status::MRTR_ERR_LIMIT_EXCEEDED,
            V::InputRequiredWithoutFields
            | V::UnknownResultType
            | V::DuplicateResultMember
            | V::InputRequiredNotAllowed
            | V::MissingResultType
            | V::BadInputRequests
            | V::BadRequestState
            | V::UnknownInputMethod
            | V::BadInputRequest
            | V::BadElicitationMode
            | V::DuplicateInputKey
            | V::BadInputKey
            | V::BadInputResponses
            | V::BadMeta
            | V::BadRequestParams
            | V::ResultNotObject
            | V::BadTask
            | V::UnknownTaskStatus
            | V::TaskIdMismatch
            | V::UnexpectedResultType => mrtr_status::MRTR_ERR_PROTOCOL_VIOLATION,
        }
    }
}

impl From<WireError> for mrtr_status {
    fn from(e: WireError) -> Self {
        match e {
            WireError::Json(e) => e.into(),
            WireError::Envelope(_) => mrtr_status::MRTR_ERR_ENVELOPE,
            WireError::Protocol(v) => v.into(),
        }
    }
}

#[cfg(feature = "client")]
impl From<mrtr_core::client::tools::ToolListError> for mrtr_status {
    fn from(e: mrtr_core::client::tools::ToolListError) -> Self {
        use mrtr_core::client::tools::ToolListError as E;
        match e {
            E::Json(j) => j.into(),
            E::TooMany => mrtr_status::MRTR_ERR_LIMIT_EXCEEDED,
            E::NotAList | E::Tool { .. } => mrtr_status::MRTR_ERR_PROTOCOL_VIOLATION,
        }
    }
}

#[cfg(feature = "client")]
impl From<mrtr_core::client::sse::SseError> for mrtr_status {
    fn from(e: mrtr_core::client::sse::SseError) -> Self {
        use mrtr_core::client::sse::SseError as E;
        match e {
            E::InvalidUtf8 => mrtr_status::MRTR_ERR_INVALID_UTF8,
            E::EventTooLarge { .. } | E::EventTypeTooLong | E::EventIdTooLong => {
                mrtr_status::MRTR_ERR_LIMIT_EXCEEDED
            }
        }
    }
}

#[cfg(feature = "client")]
impl From<mrtr_core::client::http::HttpError> for mrtr_status {
    fn from(e: mrtr_core::client::http::HttpError) -> Self {
        use mrtr_core::client::http::HttpError as E;
        match e {
            E::BufferTooSmall { .. } => mrtr_status::MRTR_ERR_BUFFER_TOO_SMALL,
            E::ValueTooLong { .. } => mrtr_status::MRTR_ERR_LIMIT_EXCEEDED,
            E::BadMethod | E::MissingName | E::NotARequest | E::NotAToolCall => {
                mrtr_status::MRTR_ERR_INVALID_ARGUMENT
            }
            E::Designation(_) => mrtr_status::MRTR_ERR_INVALID_SCHEMA,
            E::ParamType | E::NotSafeInteger | E::RepeatedMember => {
                mrtr_status::MRTR_ERR_INVALID_VALUE
            }
            E::Wire(w) => w.into(),
        }
    }
}

/// Collapses an internal `Result` into the status an exported function
/// returns.
pub(crate) fn status_of(r: Result<(), mrtr_status>) -> mrtr_status {
    match r {
        Ok(()) => mrtr_status::MRTR_OK,
        Err(s) => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::format;

    #[test]
    fn every_status_is_listed_once_in_numeric_order() {
        // Count the variants in this file's enum so a new status cannot be
        // left out of ALL_STATUSES (and so of `mrtr_status_str`).
        let src = include_str!("status.rs");
        let body = src
            .split("pub enum mrtr_status {")
            .nth(1)
            .and_then(|rest| rest.split("\n}").next())
            .unwrap();
        let variants = body
            .lines()
            .filter(|l| l.trim_start().starts_with("MRTR_") && l.contains(" = "))
            .count();
        assert_eq!(variants, ALL_STATUSES.len());
        for pair in ALL_STATUSES.windows(2) {
            assert!((pair[0] as i32) < (pair[1] as i32), "{pair:?}");
        }
    }

    #[test]
    fn names_are_the_c_names() {
        for s in ALL_STATUSES {
            assert_eq!(s.name().to_str().unwrap(), format!("{s:?}"));
            assert_eq!(mrtr_status::from_raw(s as i32), Some(s));
            // SAFETY: `mrtr_status_str` returns a static C string.
            let c = unsafe { CStr::from_ptr(mrtr_status_str(s as i32)) };
            assert_eq!(c, s.name());
        }
    }

    #[test]
    fn numbering_is_stable() {
        use mrtr_status::*;
        let expected = [
            (MRTR_OK, 0),
            (MRTR_ERR_NULL_POINTER, 1),
            (MRTR_ERR_INVALID_ARGUMENT, 2),
            (MRTR_ERR_INVALID_UTF8, 3),
            (MRTR_ERR_MISALIGNED, 4),
            (MRTR_ERR_WRONG_STATE, 5),
            (MRTR_ERR_NOT_FOUND, 6),
            (MRTR_ERR_INVALID_VALUE, 7),
            (MRTR_ERR_BUFFER_TOO_SMALL, 10),
            (MRTR_ERR_WORKSPACE_TOO_SMALL, 11),
            (MRTR_ERR_LIMIT_EXCEEDED, 12),
            (MRTR_ERR_JSON, 20),
            (MRTR_ERR_ENVELOPE, 21),
            (MRTR_ERR_PROTOCOL_VIOLATION, 22),
            (MRTR_ERR_UNDECLARED_CAPABILITY, 23),
            (MRTR_ERR_UNSUPPORTED_VERSION, 24),
            (MRTR_ERR_INVALID_SCHEMA, 25),
            (MRTR_ERR_REFUSED_URL, 26),
            (MRTR_ERR_RPC_ERROR, 30),
            (MRTR_ERR_ROUND_CAP, 31),
            (MRTR_ERR_UNANSWERED_INPUT, 32),
            (MRTR_ERR_ABORTED, 33),
            (MRTR_ERR_INVALID_REQUEST_STATE, 40),
            (MRTR_ERR_KEY_ERROR, 41),
            (MRTR_ERR_INTERNAL, 99),
        ];
        assert_eq!(expected.len(), ALL_STATUSES.len());
        for (s, v) in expected {
            assert_eq!(s as i32, v, "{s:?}");
        }
    }

    #[test]
    fn unknown_integers_have_the_unknown_name() {
        for raw in [-1, 8, 9, 13, 27, 34, 42, 98, 100, i32::MIN, i32::MAX] {
            // SAFETY: `mrtr_status_str` returns a static C string.
            let c = unsafe { CStr::from_ptr(mrtr_status_str(raw)) };
            assert_eq!(c.to_bytes(), b"MRTR_UNKNOWN_STATUS", "{raw}");
        }
        let known = (-1000..1000)
            .filter(|r| mrtr_status::from_raw(*r).is_some())
            .count();
        assert_eq!(known, ALL_STATUSES.len());
    }

    #[test]
    fn core_errors_map_to_statuses() {
        use json::ErrorKind as K;
        let at = |kind| json::Error { kind, offset: 0 };
        assert_eq!(
            mrtr_status::from(at(K::UnexpectedByte)),
            mrtr_status::MRTR_ERR_JSON
        );
        assert_eq!(
            mrtr_status::from(at(K::InvalidUtf8)),
            mrtr_status::MRTR_ERR_JSON
        );
        assert_eq!(
            mrtr_status::from(at(K::DuplicateKey)),
            mrtr_status::MRTR_ERR_JSON
        );
        assert_eq!(
            mrtr_status::from(at(K::TooDeep)),
            mrtr_status::MRTR_ERR_LIMIT_EXCEEDED
        );
        assert_eq!(
            mrtr_status::from(at(K::TooLarge)),
            mrtr_status::MRTR_ERR_LIMIT_EXCEEDED
        );
        assert_eq!(
            mrtr_status::from(at(K::BufferTooSmall)),
            mrtr_status::MRTR_ERR_BUFFER_TOO_SMALL
        );
        assert_eq!(
            mrtr_status::from(json::BufferTooSmall { needed: 3 }),
            mrtr_status::MRTR_ERR_BUFFER_TOO_SMALL
        );
        assert_eq!(
            mrtr_status::from(WireError::Json(at(K::UnexpectedEnd))),
            mrtr_status::MRTR_ERR_JSON
        );
        assert_eq!(
            mrtr_status::from(WireError::Envelope(
                mrtr_core::wire::EnvelopeError::BadVersion
            )),
            mrtr_status::MRTR_ERR_ENVELOPE
        );
        assert_eq!(
            mrtr_status::from(WireError::Protocol(Violation::UndeclaredCapability)),
            mrtr_status::MRTR_ERR_UNDECLARED_CAPABILITY
        );
        assert_eq!(
            mrtr_status::from(WireError::Protocol(Violation::TooManyInputRequests)),
            mrtr_status::MRTR_ERR_LIMIT_EXCEEDED
        );
        assert_eq!(
            mrtr_status::from(WireError::Protocol(Violation::BadMeta)),
            mrtr_status::MRTR_ERR_PROTOCOL_VIOLATION
        );
    }
}
