//! Complete results and the errors a server sends, into caller buffers
//! (the error for an answer it cannot use is written beside the answers,
//! in `answer`).
//!
//! Each writer emits one whole JSON-RPC message and returns its length, or
//! the exact size needed when `out` is too small.

use core::fmt;

use crate::json::{self, BufferTooSmall, JsonStr, ParseLimits, Writer};
use crate::wire::envelope::write_result_head;
use crate::wire::reply as wire_error;
use crate::wire::{ClientCapabilities, ErrorCode, Id};

/// Why a complete result was not written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompleteError {
    /// The result bytes are not a JSON object, nor a list of object members
    /// (the reader's error, offsets relative to the given bytes for an
    /// object, to the emitted result object for members).
    InvalidJson(json::Error),
    /// The caller's object already has a `resultType` other than
    /// `"complete"`, or more than one, or the members form names one (the
    /// writer adds it there).
    ConflictingResultType,
    /// The output buffer is too small; `needed` is the exact size.
    BufferTooSmall {
        /// Bytes the whole message needs.
        needed: usize,
    },
}

impl fmt::Display for CompleteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompleteError::InvalidJson(e) => {
                write!(f, "result is not a JSON object or object members: {e}")
            }
            CompleteError::ConflictingResultType => f.write_str(
                "result has a resultType other than \"complete\", has it twice, \
                 or names it in members form",
            ),
            CompleteError::BufferTooSmall { needed } => {
                write!(f, "output buffer too small: needs {needed} bytes")
            }
        }
    }
}

impl core::error::Error for CompleteError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            CompleteError::InvalidJson(e) => Some(e),
            _ => None,
        }
    }
}

/// Generous limits for checking the app's own result bytes: the app is not
/// the attacker, the point is that the output is one well-formed object.
pub(crate) const APP_JSON_LIMITS: ParseLimits = ParseLimits {
    max_depth: json::MAX_DEPTH_LIMIT,
    max_bytes: usize::MAX,
};

const RESULT_TYPE_COMPLETE: &[u8] = b"\"resultType\":\"complete\"";

fn trim_ws(mut b: &[u8]) -> &[u8] {
    let is_ws = |c: &u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r');
    while let [c, rest @ ..] = b {
        if !is_ws(c) {
            break;
        }
        b = rest;
    }
    while let [rest @ .., c] = b {
        if !is_ws(c) {
            break;
        }
        b = rest;
    }
    b
}

/// Writes a complete result: `{"jsonrpc":"2.0","id":..,"result":{"resultType":
/// "complete",..}}`.
///
/// `result` is either a whole JSON object (`{"content":[..]}`), whose members
/// are kept as sent with `resultType` put first (an object that already says
/// `"resultType":"complete"` is written as is; any other `resultType` is
/// refused), or the members alone (`"content":[..],"isError":false`, or
/// nothing for an empty result), which must not name `resultType`.
///
/// An object is validated before anything is written. Members are validated
/// in place once written, so with a too-small `out` the error for malformed
/// members comes on the call that has room.
pub fn write_complete(out: &mut [u8], id: &Id<'_>, result: &[u8]) -> Result<usize, CompleteError> {
    let body = trim_ws(result);
    let mut w = Writer::new(out);
    write_result_head(&mut w, id);
    if body.first() == Some(&b'{') {
        write_complete_object(&mut w, &app_object(body)?)?;
        w.byte(b'}');
    } else {
        let start = w.len();
        w.byte(b'{').raw(RESULT_TYPE_COMPLETE);
        if !body.is_empty() {
            w.byte(b',').raw(body);
        }
        w.byte(b'}');
        let end = w.len();
        w.byte(b'}');
        if let Some(written) = w.written() {
            // The result span alone must be one object (this also rejects
            // members that close the object early and smuggle envelope
            // members).
            let obj = app_object(written.get(start..end).unwrap_or(&[]))?;
            if obj.get_unique("resultType").is_err() {
                return Err(CompleteError::ConflictingResultType);
            }
        }
    }
    w.finish()
        .map_err(|e| CompleteError::BufferTooSmall { needed: e.needed })
}

/// The app's result bytes read as one JSON object (with
/// [`APP_JSON_LIMITS`]): the reader's error, or
/// [`CompleteError::ConflictingResultType`] for any other value. Both forms
/// of [`write_complete`] read through here.
#[inline(always)]
fn app_object(bytes: &[u8]) -> Result<json::Object<'_>, CompleteError> {
    json::parse_with(bytes, &APP_JSON_LIMITS)
        .map_err(CompleteError::InvalidJson)?
        .as_object()
        .ok_or(CompleteError::ConflictingResultType)
}

/// Writes the result object `obj` so that it carries `"resultType":
/// "complete"`: as is when it already says so (once), else with
/// `resultType` put first and the members kept as sent. Any other
/// `resultType`, or more than one, is [`CompleteError::ConflictingResultType`]
/// (checked before anything is written). Every completed result mrtr writes
/// goes through here: [`write_complete`], the `result` of a completed task
/// ([`super::write_detailed_task`]) and the seed dialect's `tasks/result`
/// ([`super::write_task_result_seed`]).
pub(crate) fn write_complete_object(
    w: &mut Writer<'_>,
    obj: &json::Object<'_>,
) -> Result<(), CompleteError> {
    match obj
        .get_unique("resultType")
        .map_err(|_| CompleteError::ConflictingResultType)?
    {
        Some(rt) if rt.as_str().is_some_and(|s| s.eq_str("complete")) => {
            w.raw(obj.raw());
        }
        Some(_) => return Err(CompleteError::ConflictingResultType),
        None => {
            w.byte(b'{').raw(RESULT_TYPE_COMPLETE);
            // The members between the braces, as sent.
            let inner = trim_ws(
                obj.raw()
                    .get(1..obj.raw().len().saturating_sub(1))
                    .unwrap_or(&[]),
            );
            if !inner.is_empty() {
                w.byte(b',').raw(inner);
            }
            w.byte(b'}');
        }
    }
    Ok(())
}

pub(super) fn done(w: Writer<'_>) -> Result<usize, BufferTooSmall> {
    w.finish()
}

/// `-32700 Parse error` without an `id` member (the id of unreadable JSON is
/// unknown).
pub fn write_parse_error(out: &mut [u8]) -> Result<usize, BufferTooSmall> {
    write_error(
        out,
        None,
        ErrorCode::ParseError,
        ErrorCode::ParseError.default_message(),
    )
}

/// `-32600 Invalid Request` (no `id` member when it could not be read).
pub fn write_invalid_request(out: &mut [u8], id: Option<&Id<'_>>) -> Result<usize, BufferTooSmall> {
    let code = ErrorCode::InvalidRequest;
    write_error(out, id, code, code.default_message())
}

/// `-32601 Method not found`.
pub fn write_method_not_found(out: &mut [u8], id: &Id<'_>) -> Result<usize, BufferTooSmall> {
    let code = ErrorCode::MethodNotFound;
    write_error(out, Some(id), code, code.default_message())
}

/// `-32602` with the app's message (unknown tool, bad arguments, ...).
pub fn write_invalid_params(
    out: &mut [u8],
    id: &Id<'_>,
    message: &str,
) -> Result<usize, BufferTooSmall> {
    write_error(out, Some(id), ErrorCode::InvalidParams, message)
}

/// `-32603 Internal error`.
pub fn write_internal_error(out: &mut [u8], id: Option<&Id<'_>>) -> Result<usize, BufferTooSmall> {
    let code = ErrorCode::InternalError;
    write_error(out, id, code, code.default_message())
}

/// `-32020`: an HTTP header (e.g. `MCP-Protocol-Version`) is missing, malformed
/// or does not match the body. `message` says which.
pub fn write_header_mismatch(
    out: &mut [u8],
    id: Option<&Id<'_>>,
    message: &str,
) -> Result<usize, BufferTooSmall> {
    write_error(out, id, ErrorCode::HeaderMismatch, message)
}

/// `-32021` with `data.requiredCapabilities` (e.g. the `missing` of
/// [`super::BuildError::MissingCapability`]).
pub fn write_missing_capability(
    out: &mut [u8],
    id: &Id<'_>,
    required: &ClientCapabilities,
) -> Result<usize, BufferTooSmall> {
    let mut w = Writer::new(out);
    wire_error::write_missing_capability(&mut w, Some(id), required);
    done(w)
}

/// `-32022` with `data.requested` (the client's value, echoed as sent) and
/// `data.supported` (`supported`, e.g. `&[PROTOCOL_VERSION]`).
pub fn write_unsupported_version(
    out: &mut [u8],
    id: Option<&Id<'_>>,
    requested: &JsonStr<'_>,
    supported: &[&str],
) -> Result<usize, BufferTooSmall> {
    let code = ErrorCode::UnsupportedProtocolVersion;
    let mut w = Writer::new(out);
    write_error_open(&mut w, id, code);
    w.str(code.default_message())
        .raw(b",\"data\":{\"requested\":")
        .json_str_raw(requested)
        .raw(b",\"supported\":[");
    let mut first = true;
    for s in supported {
        w.comma(&mut first).str(s);
    }
    w.raw(b"]}}}");
    done(w)
}

/// `-32602 "Invalid or expired requestState"`: the one answer to every
/// `requestState` that fails to unseal or verify, whatever the reason (log
/// the reason, never send it).
pub fn write_invalid_request_state(out: &mut [u8], id: &Id<'_>) -> Result<usize, BufferTooSmall> {
    let parts = [crate::wire::error::INVALID_REQUEST_STATE_MESSAGE];
    write_error_parts(out, Some(id), ErrorCode::InvalidParams, &parts)
}

/// Writes the error response `code` whose message is `parts` in order (one
/// JSON string, each part escaped): the answer error and the request error
/// both end here.
pub(super) fn write_error_parts(
    out: &mut [u8],
    id: Option<&Id<'_>>,
    code: ErrorCode,
    parts: &[&str],
) -> Result<usize, BufferTooSmall> {
    let mut w = Writer::new(out);
    write_error_open(&mut w, id, code);
    w.str_parts(parts).raw(b"}}");
    done(w)
}

/// See [`crate::wire::reply::write_error_open`] (the `id` member is
/// omitted when unknown, as the schema requires).
pub(super) fn write_error_open(w: &mut Writer<'_>, id: Option<&Id<'_>>, code: ErrorCode) {
    crate::wire::reply::write_error_open(w, id, code.code());
}

fn write_error(
    out: &mut [u8],
    id: Option<&Id<'_>>,
    code: ErrorCode,
    message: &str,
) -> Result<usize, BufferTooSmall> {
    write_error_parts(out, id, code, &[message])
}
