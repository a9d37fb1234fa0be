//! Static names of the core's error details, for `reason` fields that a C
//! application writes to its log. The names are the Rust variant names;
//! they are stable within a release, but match on the enums and statuses,
//! not on these strings.

use core::ffi::CStr;

use mrtr_core::json::ErrorKind;
use mrtr_core::wire::EnvelopeError;
#[cfg(feature = "client")]
use mrtr_core::wire::{Violation, WireError};

use crate::status::c_name;

/// Declares a name function over an enum's variants, each name written
/// once: the variant's identifier as a static C string.
macro_rules! names {
    ($(#[$m:meta])* $f:ident($t:ident): $($v:ident)+) => {
        $(#[$m])*
        pub(crate) fn $f(e: $t) -> &'static CStr {
            match e {
                $($t::$v { .. } => const { c_name(concat!(stringify!($v), "\0")) },)+
            }
        }
    };
}

names! {
    /// The name of a JSON error kind.
    json_kind(ErrorKind): UnexpectedEnd UnexpectedByte InvalidNumber InvalidEscape LoneSurrogate
    InvalidUtf8 ControlCharacter TooDeep TrailingCharacters TooLarge DuplicateKey TooManyMembers
    BufferTooSmall
}

names! {
    /// The name of a JSON-RPC envelope defect.
    envelope(EnvelopeError): NotAnObject BadVersion BadId BadMethod BadParams ResultXorError
    BadErrorObject DuplicateMember
}

names! {
    /// The name of an MRTR rule breach.
    #[cfg(feature = "client")]
    violation(Violation): InputRequiredWithoutFields UnknownResultType DuplicateResultMember
    InputRequiredNotAllowed MissingResultType BadInputRequests BadRequestState UnknownInputMethod
    BadInputRequest BadElicitationMode DuplicateInputKey TooManyInputRequests BadInputKey
    UndeclaredCapability BadInputResponses BadMeta BadRequestParams ResultNotObject BadTask
    UnknownTaskStatus TaskIdMismatch UnexpectedResultType
}

/// The name of the detail of a wire error.
#[cfg(feature = "client")]
pub(crate) fn wire(e: WireError) -> &'static CStr {
    match e {
        WireError::Json(j) => json_kind(j.kind),
        WireError::Envelope(e) => envelope(e),
        WireError::Protocol(v) => violation(v),
    }
}
