//! The MRTR vocabulary of protocol revision `2026-07-28` as borrowed types.
//!
//! Parsing never copies: every type here borrows from the message bytes.
//! Emitting goes through [`crate::json::Writer`] into caller memory.

pub mod caps;
pub mod envelope;
pub mod error;
pub mod input;
pub mod input_response;
pub mod reply;
pub mod result;
pub mod task;

pub use caps::{ClientCapabilities, ClientInfo};
pub use envelope::{parse_message, parse_message_indexed, Id, Message};
pub use error::{EnvelopeError, ErrorCode, Violation, WireError};
pub use input::{InputKind, InputRequest, InputRequests, INPUT_REQUESTS_KEPT};
pub use input_response::{
    ElicitAction, InputResponse, InputResponses, ResponseKind, Root, ShapeError,
};
pub use result::{
    classify_result, classify_result_from, InputRequiredResult, ResultKind, ResultOutcome,
    ServerRevision,
};
pub use task::{TaskDialect, TaskRecord, TaskStatus};

use crate::json::ParseLimits;

/// The protocol revision this crate implements.
pub const PROTOCOL_VERSION: &str = "2026-07-28";
/// `_meta` key carrying the protocol revision of a request.
pub const META_PROTOCOL_VERSION: &str = c_text(c"io.modelcontextprotocol/protocolVersion");
/// `_meta` key carrying the client's capabilities for one request.
pub const META_CLIENT_CAPABILITIES: &str = c_text(c"io.modelcontextprotocol/clientCapabilities");
/// `_meta` key carrying the client's name and version.
pub const META_CLIENT_INFO: &str = c_text(c"io.modelcontextprotocol/clientInfo");

/// The text of a static C string, made at compile time. A name given to C
/// as well (`server::Field::c_name`) is declared this way so that its `&str`
/// is the C string's bytes without the NUL: one copy in the image.
pub(crate) const fn c_text(c: &'static core::ffi::CStr) -> &'static str {
    match c.to_str() {
        Ok(s) => s,
        Err(_) => "",
    }
}
/// Extension identifier of the Tasks extension.
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// Default cap on the number of entries in one `inputRequests` map.
pub const DEFAULT_MAX_INPUT_REQUESTS: usize = 64;
/// Default cap on the length of an `inputRequests` key, in bytes (decoded).
pub const DEFAULT_MAX_KEY_BYTES: usize = 256;

/// Limits applied when reading protocol messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WireLimits {
    /// JSON size and depth limits.
    pub json: ParseLimits,
    /// Maximum number of input requests in one result (and of input
    /// responses a server reads).
    pub max_input_requests: usize,
    /// Maximum decoded length of one input key.
    pub max_key_bytes: usize,
}

impl Default for WireLimits {
    fn default() -> Self {
        WireLimits {
            json: ParseLimits::default(),
            max_input_requests: DEFAULT_MAX_INPUT_REQUESTS,
            max_key_bytes: DEFAULT_MAX_KEY_BYTES,
        }
    }
}

/// The client methods that may be answered with an `InputRequiredResult`.
pub const MRTR_METHODS: [&str; 4] = [
    "tools/call",
    "prompts/get",
    "resources/read",
    "tasks/result",
];

/// Whether a server may answer `method` with an `InputRequiredResult`.
pub fn method_allows_input_required(method: &str) -> bool {
    MRTR_METHODS.contains(&method)
}

#[cfg(test)]
mod tests;
