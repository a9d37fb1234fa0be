//! Static names of the core's error details, for `reason` fields that a C
//! application writes to its log. The names are the Rust variant names;
//! they are stable within a release, but match on the enums and statuses,
//! not on these strings.

use core::ffi::CStr;

use mrtr_core::json::ErrorKind;
use mrtr_core::wire::EnvelopeError;
#[cfg(feature = "client")]
use mrtr_core::wire::{Violation, WireError};

/// The name of a JSON error kind.
pub(crate) fn json_kind(k: ErrorKind) -> &'static CStr {
    use ErrorKind as K;
    match k {
        K::UnexpectedEnd => c"UnexpectedEnd",
        K::UnexpectedByte => c"UnexpectedByte",
        K::InvalidNumber => c"InvalidNumber",
        K::InvalidEscape => c"InvalidEscape",
        K::LoneSurrogate => c"LoneSurrogate",
        K::InvalidUtf8 => c"InvalidUtf8",
        K::ControlCharacter => c"ControlCharacter",
        K::TooDeep => c"TooDeep",
        K::TrailingCharacters => c"TrailingCharacters",
        K::TooLarge => c"TooLarge",
        K::DuplicateKey => c"DuplicateKey",
        K::TooManyMembers => c"TooManyMembers",
        K::BufferTooSmall => c"BufferTooSmall",
    }
}

/// The name of a JSON-RPC envelope defect.
pub(crate) fn envelope(e: EnvelopeError) -> &'static CStr {
    use EnvelopeError as E;
    match e {
        E::NotAnObject => c"NotAnObject",
        E::BadVersion => c"BadVersion",
        E::BadId => c"BadId",
        E::BadMethod => c"BadMethod",
        E::BadParams => c"BadParams",
        E::ResultXorError => c"ResultXorError",
        E::BadErrorObject => c"BadErrorObject",
        E::DuplicateMember => c"DuplicateMember",
    }
}

/// The name of an MRTR rule breach.
#[cfg(feature = "client")]
pub(crate) fn violation(v: Violation) -> &'static CStr {
    use Violation as V;
    match v {
        V::InputRequiredWithoutFields => c"InputRequiredWithoutFields",
        V::UnknownResultType => c"UnknownResultType",
        V::DuplicateResultMember => c"DuplicateResultMember",
        V::InputRequiredNotAllowed => c"InputRequiredNotAllowed",
        V::MissingResultType => c"MissingResultType",
        V::BadInputRequests => c"BadInputRequests",
        V::BadRequestState => c"BadRequestState",
        V::UnknownInputMethod => c"UnknownInputMethod",
        V::BadInputRequest => c"BadInputRequest",
        V::BadElicitationMode => c"BadElicitationMode",
        V::DuplicateInputKey => c"DuplicateInputKey",
        V::TooManyInputRequests => c"TooManyInputRequests",
        V::BadInputKey => c"BadInputKey",
        V::UndeclaredCapability => c"UndeclaredCapability",
        V::BadInputResponses => c"BadInputResponses",
        V::BadMeta => c"BadMeta",
        V::BadRequestParams => c"BadRequestParams",
        V::ResultNotObject => c"ResultNotObject",
        V::BadTask => c"BadTask",
        V::UnknownTaskStatus => c"UnknownTaskStatus",
        V::TaskIdMismatch => c"TaskIdMismatch",
        V::UnexpectedResultType => c"UnexpectedResultType",
    }
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
