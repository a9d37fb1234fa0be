//! Error codes of MCP 2026-07-28 and the errors of the wire layer.

use crate::json;

/// JSON-RPC and MCP error codes used by MRTR.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(i32)]
pub enum ErrorCode {
    /// Invalid JSON was received.
    ParseError = -32700,
    /// The JSON sent is not a valid request object.
    InvalidRequest = -32600,
    /// The method does not exist or is not available.
    MethodNotFound = -32601,
    /// Invalid method parameters (also: a `requestState` that fails verification).
    InvalidParams = -32602,
    /// Internal error.
    InternalError = -32603,
    /// HTTP headers do not match the body, or are missing or malformed.
    HeaderMismatch = -32020,
    /// The request needs a client capability that was not declared.
    MissingRequiredClientCapability = -32021,
    /// The request's protocol revision is not supported.
    UnsupportedProtocolVersion = -32022,
}

impl ErrorCode {
    /// The numeric code.
    pub const fn code(self) -> i32 {
        self as i32
    }

    /// The code for a number, if it is one of these.
    pub fn from_code(code: i64) -> Option<Self> {
        Some(match code {
            -32700 => ErrorCode::ParseError,
            -32600 => ErrorCode::InvalidRequest,
            -32601 => ErrorCode::MethodNotFound,
            -32602 => ErrorCode::InvalidParams,
            -32603 => ErrorCode::InternalError,
            -32020 => ErrorCode::HeaderMismatch,
            -32021 => ErrorCode::MissingRequiredClientCapability,
            -32022 => ErrorCode::UnsupportedProtocolVersion,
            _ => return None,
        })
    }

    /// The conventional message for the code.
    pub const fn default_message(self) -> &'static str {
        match self {
            ErrorCode::ParseError => "Parse error",
            ErrorCode::InvalidRequest => "Invalid Request",
            ErrorCode::MethodNotFound => "Method not found",
            ErrorCode::InvalidParams => "Invalid params",
            ErrorCode::InternalError => "Internal error",
            ErrorCode::HeaderMismatch => "Header mismatch",
            ErrorCode::MissingRequiredClientCapability => "Missing required client capability",
            ErrorCode::UnsupportedProtocolVersion => "Unsupported protocol version",
        }
    }
}

/// Why a message could not be read as the protocol requires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WireError {
    /// The bytes are not acceptable JSON (syntax, UTF-8, depth, size).
    Json(json::Error),
    /// The JSON is not a JSON-RPC 2.0 message.
    Envelope(EnvelopeError),
    /// The message is JSON-RPC but breaks an MRTR rule.
    Protocol(Violation),
}

impl From<json::Error> for WireError {
    fn from(e: json::Error) -> Self {
        WireError::Json(e)
    }
}

impl From<EnvelopeError> for WireError {
    fn from(e: EnvelopeError) -> Self {
        WireError::Envelope(e)
    }
}

impl From<Violation> for WireError {
    fn from(e: Violation) -> Self {
        WireError::Protocol(e)
    }
}

/// JSON-RPC 2.0 envelope defects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnvelopeError {
    /// The message is not a JSON object (batches are not part of MCP).
    NotAnObject,
    /// `jsonrpc` is missing or not `"2.0"`.
    BadVersion,
    /// `id` is missing where required, or not a string or integer.
    BadId,
    /// `method` is not a string.
    BadMethod,
    /// `params` is present but not an object.
    BadParams,
    /// A response has both `result` and `error`, or neither.
    ResultXorError,
    /// `error` is not an object with an integer `code` and a string `message`.
    BadErrorObject,
    /// An envelope member occurs twice.
    DuplicateMember,
}

/// Breaches of MRTR rules in a well-formed JSON-RPC message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Violation {
    /// `resultType` is `input_required` but neither `inputRequests` nor
    /// `requestState` is present (an empty map counts as absent).
    InputRequiredWithoutFields,
    /// `resultType` is not a string or has an unknown value.
    UnknownResultType,
    /// `resultType`, `inputRequests` or `requestState` occurs twice in one
    /// result: which copy counts would be the reader's guess, and two
    /// readers guessing differently is how a smuggled answer gets through.
    DuplicateResultMember,
    /// `input_required` in answer to a method that cannot carry it.
    InputRequiredNotAllowed,
    /// `inputRequests` (or `requestState`) without `resultType`: a server of
    /// an earlier revision cannot send them.
    MissingResultType,
    /// `inputRequests` is not an object.
    BadInputRequests,
    /// `requestState` is not a string.
    BadRequestState,
    /// An input request's `method` is missing or unknown.
    UnknownInputMethod,
    /// An input request is not an object, or its `params` are malformed for
    /// its method (missing message, schema, url, messages, maxTokens ...).
    BadInputRequest,
    /// Elicitation `mode` is neither `form` nor `url`.
    BadElicitationMode,
    /// The same key occurs twice in `inputRequests` or `inputResponses`.
    DuplicateInputKey,
    /// More input requests than the configured limit.
    TooManyInputRequests,
    /// An input key is empty or longer than the configured limit.
    BadInputKey,
    /// The server asked for a kind of input the request did not declare.
    UndeclaredCapability,
    /// `inputResponses` is not an object, or an entry is not an object.
    BadInputResponses,
    /// `_meta` is missing or malformed, or lacks a required key.
    BadMeta,
    /// A required field of the request's params is missing or mistyped.
    BadRequestParams,
    /// A response's `result` is not an object (MCP results always are).
    ResultNotObject,
    /// A task record lacks `taskId` or `status`, a field is mistyped, or a
    /// field its status requires is missing (`inputRequests`, `result`,
    /// `error`).
    BadTask,
    /// A task `status` that is not one of the five the protocol defines.
    UnknownTaskStatus,
    /// A task response names a different task than the one asked about.
    TaskIdMismatch,
    /// A known `resultType` that the method cannot return (e.g. `task` in
    /// answer to `tasks/get`).
    UnexpectedResultType,
}

impl Violation {
    /// What `get_unique_many` found for one member, a repeat of it refused
    /// as `self` (the error its reader gives for every fault of that
    /// member). One body for every reader that tells members apart.
    pub(crate) fn or_if_repeated<'a>(
        self,
        found: &Result<Option<json::Value<'a>>, json::Error>,
    ) -> Result<Option<json::Value<'a>>, Violation> {
        match found {
            Ok(v) => Ok(*v),
            Err(_) => Err(self),
        }
    }
}

impl core::fmt::Display for WireError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            WireError::Json(e) => write!(f, "invalid JSON: {e}"),
            WireError::Envelope(e) => write!(f, "not JSON-RPC 2.0: {e}"),
            WireError::Protocol(v) => write!(f, "MRTR violation: {v}"),
        }
    }
}

impl core::error::Error for WireError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            WireError::Json(e) => Some(e),
            WireError::Envelope(e) => Some(e),
            WireError::Protocol(v) => Some(v),
        }
    }
}

impl core::fmt::Display for EnvelopeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            EnvelopeError::NotAnObject => "message is not a JSON object",
            EnvelopeError::BadVersion => "jsonrpc is missing or not \"2.0\"",
            EnvelopeError::BadId => "id is missing or not a string or integer",
            EnvelopeError::BadMethod => "method is not a string",
            EnvelopeError::BadParams => "params is not an object",
            EnvelopeError::ResultXorError => "response needs exactly one of result and error",
            EnvelopeError::BadErrorObject => {
                "error is not an object with an integer code and a string message"
            }
            EnvelopeError::DuplicateMember => "an envelope member occurs twice",
        })
    }
}

impl core::error::Error for EnvelopeError {}

impl core::fmt::Display for Violation {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Violation::InputRequiredWithoutFields => {
                "input_required without inputRequests or requestState"
            }
            Violation::UnknownResultType => "resultType is not a known string",
            Violation::DuplicateResultMember => {
                "resultType, inputRequests or requestState occurs twice"
            }
            Violation::InputRequiredNotAllowed => {
                "input_required for a method that cannot carry it"
            }
            Violation::MissingResultType => "inputRequests or requestState without resultType",
            Violation::BadInputRequests => "inputRequests is not an object",
            Violation::BadRequestState => "requestState is not a string",
            Violation::UnknownInputMethod => "input request method is missing or unknown",
            Violation::BadInputRequest => "malformed input request",
            Violation::BadElicitationMode => "elicitation mode is neither form nor url",
            Violation::DuplicateInputKey => "an input key occurs twice",
            Violation::TooManyInputRequests => "more input requests than the limit",
            Violation::BadInputKey => "input key is empty or too long",
            Violation::UndeclaredCapability => "input request for an undeclared capability",
            Violation::BadInputResponses => "inputResponses or one of its entries is not an object",
            Violation::BadMeta => "_meta is missing or malformed",
            Violation::BadRequestParams => "request params are missing or mistyped",
            Violation::ResultNotObject => "result is not an object",
            Violation::BadTask => "malformed task record",
            Violation::UnknownTaskStatus => "unknown task status",
            Violation::TaskIdMismatch => "task response names another task",
            Violation::UnexpectedResultType => "resultType the method cannot return",
        })
    }
}

impl core::error::Error for Violation {}

/// The one message sent for every `requestState` verification failure.
pub const INVALID_REQUEST_STATE_MESSAGE: &str = "Invalid or expired requestState";

variant_names! {
    /// The variant's name, NUL-terminated for C (`"BadVersion"`).
    EnvelopeError: NotAnObject BadVersion BadId BadMethod BadParams ResultXorError
    BadErrorObject DuplicateMember
}

variant_names! {
    /// The variant's name, NUL-terminated for C (`"BadRequestState"`).
    Violation: InputRequiredWithoutFields UnknownResultType DuplicateResultMember
    InputRequiredNotAllowed MissingResultType BadInputRequests BadRequestState UnknownInputMethod
    BadInputRequest BadElicitationMode DuplicateInputKey TooManyInputRequests BadInputKey
    UndeclaredCapability BadInputResponses BadMeta BadRequestParams ResultNotObject BadTask
    UnknownTaskStatus TaskIdMismatch UnexpectedResultType
}

impl WireError {
    /// The detail's name, NUL-terminated for C: the JSON error kind's, the
    /// envelope defect's or the rule breach's (`"BadRequestState"`).
    pub const fn name(&self) -> &'static core::ffi::CStr {
        match self {
            WireError::Json(j) => j.kind.name(),
            WireError::Envelope(e) => e.name(),
            WireError::Protocol(v) => v.name(),
        }
    }
}
