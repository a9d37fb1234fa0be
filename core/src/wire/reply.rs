//! The error responses every side writes: a JSON-RPC error, and the MCP
//! errors whose `data` the schema fixes (`-32021` missing capability,
//! `-32022` unsupported version, the frozen `requestState` error).

use super::caps::ClientCapabilities;
use super::envelope::Id;
use super::error::{ErrorCode, INVALID_REQUEST_STATE_MESSAGE};
use crate::json::Writer;

/// Writes a JSON-RPC error response. `data` is raw JSON written as given
/// (callers pass validated JSON). With no `id` (the request's id could not
/// be read) the member is omitted: the 2026-07-28 schema makes `id` optional
/// on error responses and does not allow `null` as a `RequestId`.
pub fn write_error_response(
    w: &mut Writer<'_>,
    id: Option<&Id<'_>>,
    code: i32,
    message: &str,
    data: Option<&[u8]>,
) {
    write_error_open(w, id, code);
    w.str(message);
    if let Some(d) = data {
        w.raw(b",\"data\":").raw(d);
    }
    w.raw(b"}}");
}

/// Writes error `-32021` with `data.requiredCapabilities`.
pub fn write_missing_capability(
    w: &mut Writer<'_>,
    id: Option<&Id<'_>>,
    required: &ClientCapabilities,
) {
    write_error_head(w, id, ErrorCode::MissingRequiredClientCapability);
    w.raw(b",\"data\":{\"requiredCapabilities\":");
    required.write(w);
    w.raw(b"}}}");
}

/// Writes error `-32022` with `data.requested` and `data.supported`.
pub fn write_unsupported_version(
    w: &mut Writer<'_>,
    id: Option<&Id<'_>>,
    requested: &str,
    supported: &[&str],
) {
    write_error_head(w, id, ErrorCode::UnsupportedProtocolVersion);
    w.raw(b",\"data\":{\"requested\":")
        .str(requested)
        .raw(b",\"supported\":[");
    let mut first = true;
    for s in supported {
        w.comma(&mut first).str(s);
    }
    w.raw(b"]}}}");
}

/// Writes the error for a `requestState` that fails verification: always
/// `-32602 "Invalid or expired requestState"`, whatever the cause.
pub fn write_invalid_request_state(w: &mut Writer<'_>, id: Option<&Id<'_>>) {
    write_error_response(
        w,
        id,
        ErrorCode::InvalidParams.code(),
        INVALID_REQUEST_STATE_MESSAGE,
        None,
    );
}

fn write_error_head(w: &mut Writer<'_>, id: Option<&Id<'_>>, code: ErrorCode) {
    write_error_open(w, id, code.code());
    w.str(code.default_message());
}

/// Writes `{"jsonrpc":"2.0","id":ID,"error":{"code":CODE,"message":` (the
/// `id` member omitted when `None`); the caller writes the message string,
/// optional `,"data":..` and `}}`.
pub fn write_error_open(w: &mut Writer<'_>, id: Option<&Id<'_>>, code: i32) {
    super::envelope::write_open(w, id);
    w.raw(b"\"error\":{\"code\":")
        .i64(i64::from(code))
        .raw(b",\"message\":");
}
