//! The HTTP headers of a Streamable HTTP POST (protocol `2026-07-28`), for
//! apps that bring their own HTTP stack.
//!
//! Every POST carries `MCP-Protocol-Version` (it must match the
//! `protocolVersion` in `_meta`), `Mcp-Method` (the JSON-RPC method),
//! `Accept: application/json, text/event-stream` and
//! `Content-Type: application/json`. `tools/call` and `prompts/get` add
//! `Mcp-Name` with `params.name`, `resources/read` adds it with `params.uri`,
//! and the Tasks extension's `tasks/get`, `tasks/update` and `tasks/cancel`
//! add it with `params.taskId` (its Streamable HTTP binding, so that a
//! deployment can route every request of a task to the instance that holds
//! it).
//! A server rejects a request whose headers disagree with its body (error
//! `-32020`), so the values here are taken from the same strings.
//!
//! Value encoding. The revision's texts do not define it; this follows the
//! HTTP standardization proposal (SEP-2243) adopted by the revision: a value
//! is sent as it is when every byte is printable ASCII (0x20..=0x7E), it
//! neither starts nor ends with a space, and it does not itself start with
//! the marker `=?base64?`. Anything else (non-ASCII text, control
//! characters such as CR and LF, which would otherwise allow header
//! injection, edge spaces that HTTP stacks trim) is sent as
//! `=?base64?` + standard base64 (with padding) of its UTF-8 bytes + `?=`.
//! Encoding a value that merely looks like the marker keeps decoding
//! unambiguous. An encoded value longer than [`MAX_HEADER_VALUE_BYTES`] is
//! refused with [`HttpError::ValueTooLong`] rather than sent truncated.

use crate::json::{Chars, JsonStr, Object};
use crate::param_headers::DesignationError;
use crate::wire::{parse_message, Message, WireError, WireLimits, PROTOCOL_VERSION};

/// Header carrying the protocol revision.
pub const MCP_PROTOCOL_VERSION: &str = "MCP-Protocol-Version";
/// Header mirroring the JSON-RPC `method`.
pub const MCP_METHOD: &str = "Mcp-Method";
/// Header mirroring `params.name` (tools, prompts), `params.uri`
/// (resources) or `params.taskId` (task requests of the Tasks extension).
pub const MCP_NAME: &str = "Mcp-Name";
/// `Accept` header name.
pub const ACCEPT: &str = "Accept";
/// What a client accepts: a JSON response or an SSE stream.
pub const ACCEPT_VALUE: &str = "application/json, text/event-stream";
/// `Content-Type` header name.
pub const CONTENT_TYPE: &str = "Content-Type";
/// The body is one JSON-RPC message.
pub const CONTENT_TYPE_VALUE: &str = "application/json";
/// Longest header value this module emits, in bytes.
pub use crate::param_headers::MAX_HEADER_VALUE_BYTES;

/// Opening marker of a base64-encoded value.
pub const BASE64_PREFIX: &str = "=?base64?";
/// Closing marker of a base64-encoded value.
pub const BASE64_SUFFIX: &str = "?=";

/// Why the headers could not be produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HttpError {
    /// The caller's buffer is too small; `needed` is the exact size.
    BufferTooSmall {
        /// Bytes the encoded values need.
        needed: usize,
    },
    /// A value, once encoded, is longer than [`MAX_HEADER_VALUE_BYTES`].
    ValueTooLong {
        /// The encoded length.
        len: usize,
    },
    /// The method is empty or not visible ASCII (a JSON-RPC method name is).
    BadMethod,
    /// `tools/call` and `prompts/get` need `params.name`, `resources/read`
    /// needs `params.uri`, as a string.
    MissingName,
    /// The body is not a request or notification (responses carry no
    /// `Mcp-Method`).
    NotARequest,
    /// The body is not a `tools/call` request (another method, a
    /// notification, a response), where one is needed.
    NotAToolCall,
    /// The body is not a readable JSON-RPC message.
    Wire(WireError),
    /// The tool's `inputSchema` has an invalid `x-mcp-header` designation
    /// (see [`super::tools`]).
    Designation(DesignationError),
    /// A designated argument's JSON type is not the designated one (or
    /// `arguments` is not an object).
    ParamType,
    /// A designated `"integer"` argument is not a safe integer (a fraction
    /// such as `1.5`, or a magnitude over 2^53 - 1 such as
    /// `9007199254740993` or `1e400`): the call is refused, nothing is
    /// mirrored.
    NotSafeInteger,
    /// An object on a designated argument's path has that member twice
    /// (the body means two things): the call is refused.
    RepeatedMember,
}

variant_names! {
    /// The variant's name, NUL-terminated for C (`"MissingName"`), so a C
    /// caller learns which cause of its status it met.
    HttpError: BufferTooSmall ValueTooLong BadMethod MissingName NotARequest NotAToolCall Wire
    Designation ParamType NotSafeInteger RepeatedMember
}

impl core::fmt::Display for HttpError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            HttpError::BufferTooSmall { needed } => {
                write!(f, "header buffer too small: {needed} bytes needed")
            }
            HttpError::ValueTooLong { len } => write!(
                f,
                "encoded header value is {len} bytes, over {MAX_HEADER_VALUE_BYTES}"
            ),
            HttpError::BadMethod => write!(f, "method is not a visible-ASCII token"),
            HttpError::MissingName => write!(f, "request has no params.name / params.uri"),
            HttpError::NotARequest => write!(f, "message is not a request or notification"),
            HttpError::NotAToolCall => write!(f, "message is not a tools/call request"),
            HttpError::Wire(e) => write!(f, "unreadable message: {e}"),
            HttpError::Designation(e) => write!(f, "invalid tool designation: {e}"),
            HttpError::ParamType => write!(f, "a designated argument has another JSON type"),
            HttpError::NotSafeInteger => {
                write!(f, "a designated integer argument is not a safe integer")
            }
            HttpError::RepeatedMember => {
                write!(f, "a designated argument's path repeats a member")
            }
        }
    }
}

impl core::error::Error for HttpError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            HttpError::Wire(e) => Some(e),
            HttpError::Designation(e) => Some(e),
            _ => None,
        }
    }
}

/// Text given as a Rust string or as a validated JSON string token (whose
/// escapes are decoded on the fly, without a copy).
#[derive(Debug, Clone, Copy)]
enum Text<'a> {
    Str(&'a str),
    Json(JsonStr<'a>),
}

impl<'a> Text<'a> {
    fn bytes(&self) -> TextBytes<'a> {
        match *self {
            Text::Str(s) => TextBytes::raw(s.as_bytes()),
            Text::Json(j) => TextBytes::json(j),
        }
    }
}

/// The UTF-8 bytes of a header's text: raw bytes (a Rust string, a JSON
/// literal, digits), then the decoded bytes of a JSON string token when
/// there is one. Every text a header is made of is read through this one
/// type, so the value encoder below is compiled once.
#[derive(Debug, Clone)]
pub(super) struct TextBytes<'a> {
    raw: core::slice::Iter<'a, u8>,
    chars: Option<Chars<'a>>,
    /// The bytes of the last decoded character not yet returned, first in
    /// the low byte.
    pending: u32,
    /// How many bytes `pending` holds.
    pending_len: u8,
}

impl<'a> TextBytes<'a> {
    /// The bytes themselves.
    pub(super) fn raw(raw: &'a [u8]) -> Self {
        TextBytes::raw_then(raw, None)
    }

    /// The UTF-8 bytes of a JSON string token, escapes decoded.
    pub(super) fn json(j: JsonStr<'a>) -> Self {
        TextBytes::raw_then(&[], Some(j))
    }

    /// `raw`, then the decoded bytes of `json`.
    pub(super) fn raw_then(raw: &'a [u8], json: Option<JsonStr<'a>>) -> Self {
        TextBytes {
            raw: raw.iter(),
            chars: json.map(|j| j.chars()),
            pending: 0,
            pending_len: 0,
        }
    }
}

impl Iterator for TextBytes<'_> {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        if let Some(&b) = self.raw.next() {
            return Some(b);
        }
        if self.pending_len == 0 {
            let c = self.chars.as_mut()?.next()?;
            let mut tmp = [0u8; 4];
            self.pending_len = c.encode_utf8(&mut tmp).len() as u8;
            self.pending = u32::from_le_bytes(tmp);
        }
        let b = self.pending as u8;
        self.pending >>= 8;
        self.pending_len -= 1;
        Some(b)
    }
}

/// The length of `bytes` and whether they must be sent base64-encoded (see
/// the module docs), in one pass.
fn scan(bytes: TextBytes<'_>) -> (usize, bool) {
    let mut n = 0usize;
    let mut last = 0u8;
    let mut unsafe_byte = false;
    // Whether the bytes so far match the marker's (case-insensitively).
    let mut marker = true;
    for b in bytes {
        if !(0x20..=0x7E).contains(&b) || (n == 0 && b == b' ') {
            unsafe_byte = true;
        }
        if let Some(m) = BASE64_PREFIX.as_bytes().get(n) {
            marker &= b.eq_ignore_ascii_case(m);
        }
        n += 1;
        last = b;
    }
    let encode = unsafe_byte || last == b' ' || (n >= BASE64_PREFIX.len() && marker);
    (n, encode)
}

/// Whether `bytes` must be sent base64-encoded (see the module docs).
fn must_encode(bytes: TextBytes<'_>) -> bool {
    scan(bytes).1
}

/// The length of the header value for `bytes`, encoded if it must be.
pub(super) fn value_len(bytes: TextBytes<'_>) -> usize {
    match scan(bytes) {
        (n, true) => n
            .div_ceil(3)
            .saturating_mul(4)
            .saturating_add(BASE64_PREFIX.len() + BASE64_SUFFIX.len()),
        (n, false) => n,
    }
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Writes the header value for `bytes` into `out` (which has exactly
/// `value_len(bytes)` bytes).
pub(super) fn write_value(bytes: TextBytes<'_>, out: &mut [u8]) {
    let mut put = Cursor { out, at: 0 };
    if !must_encode(bytes.clone()) {
        for b in bytes {
            put.byte(b);
        }
        return;
    }
    put.bytes(BASE64_PREFIX.as_bytes());
    let mut it = bytes;
    while let Some(a) = it.next() {
        // Past the text's end the source stays at its end: `c` is `None`
        // whenever `b` is.
        let (b, c) = (it.next(), it.next());
        let n = u32::from(a) << 16 | u32::from(b.unwrap_or(0)) << 8 | u32::from(c.unwrap_or(0));
        // The sextets the group's bytes reach (two for one byte, three for
        // two, four for three), then `=` padding to four.
        let shown = 2 + usize::from(b.is_some()) + usize::from(c.is_some());
        for k in 0..4 {
            let shift = 18 - 6 * k as u32;
            // `n >> shift & 63` is below 64, so the lookup always succeeds.
            let sextet = ALPHABET.get(((n >> shift) & 63) as usize).copied();
            put.byte(sextet.filter(|_| k < shown).unwrap_or(b'='));
        }
        if c.is_none() {
            break; // padding written: the input is exhausted
        }
    }
    put.bytes(BASE64_SUFFIX.as_bytes());
}

struct Cursor<'o> {
    out: &'o mut [u8],
    at: usize,
}

impl Cursor<'_> {
    fn byte(&mut self, b: u8) {
        if let Some(d) = self.out.get_mut(self.at) {
            *d = b;
        }
        self.at = self.at.saturating_add(1);
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.byte(b);
        }
    }
}

/// Whether `value` would be sent base64-encoded in a header.
pub fn needs_encoding(value: &str) -> bool {
    must_encode(TextBytes::raw(value.as_bytes()))
}

/// The exact length of the header value for `value`.
pub fn encoded_len(value: &str) -> usize {
    value_len(TextBytes::raw(value.as_bytes()))
}

/// Encodes one header value by the rule in the module docs (for
/// `Mcp-Name`, or for `Mcp-Param-*` headers an app mirrors itself).
pub fn encode_value<'b>(value: &str, out: &'b mut [u8]) -> Result<&'b str, HttpError> {
    let len = encoded_len(value);
    if len > MAX_HEADER_VALUE_BYTES {
        return Err(HttpError::ValueTooLong { len });
    }
    let dst = out
        .get_mut(..len)
        .ok_or(HttpError::BufferTooSmall { needed: len })?;
    write_value(TextBytes::raw(value.as_bytes()), dst);
    // Only ASCII was written.
    core::str::from_utf8(dst).map_err(|_| HttpError::BufferTooSmall { needed: len })
}

/// The methods whose requests carry `Mcp-Name`, and the param mirrored.
const NAMED: [(&str, &str); 6] = [
    ("tools/call", "name"),
    ("prompts/get", "name"),
    ("resources/read", "uri"),
    ("tasks/get", "taskId"),
    ("tasks/update", "taskId"),
    ("tasks/cancel", "taskId"),
];

/// The header set of one POST, before its values are written out.
#[derive(Debug, Clone, Copy)]
pub struct RequestHeaders<'a> {
    method: Text<'a>,
    name: Option<Text<'a>>,
}

impl<'a> RequestHeaders<'a> {
    /// Headers for a request or notification `method`. `name` is the tool
    /// or prompt name, the resource URI or the task id: required for
    /// `tools/call`, `prompts/get`, `resources/read`, `tasks/get`,
    /// `tasks/update` and `tasks/cancel`, sent when given for others.
    pub fn new(method: &'a str, name: Option<&'a str>) -> Result<Self, HttpError> {
        let h = RequestHeaders {
            method: Text::Str(method),
            name: name.map(Text::Str),
        };
        h.check(NAMED.iter().any(|(m, _)| *m == method))
    }

    /// Headers for the JSON-RPC request or notification in `body` (the
    /// bytes about to be sent): the method and, for the methods above,
    /// `params.name`, `params.uri` or `params.taskId`, escapes decoded.
    pub fn for_message(body: &'a [u8], limits: &WireLimits) -> Result<Self, HttpError> {
        // Matched by reference: the message is not copied out of the result.
        let (method, params) = match &parse_message(body, limits) {
            Ok(
                Message::Request { method, params, .. } | Message::Notification { method, params },
            ) => (*method, *params),
            Ok(_) => return Err(HttpError::NotARequest),
            Err(e) => return Err(HttpError::Wire(*e)),
        };
        let param = NAMED
            .iter()
            .find(|(m, _)| method.eq_str(m))
            .map(|(_, p)| *p);
        let name = match param {
            None => None,
            Some(p) => Some(Text::Json(string_member(params, p)?)),
        };
        RequestHeaders {
            method: Text::Json(method),
            name,
        }
        .check(param.is_some())
    }

    fn check(self, name_required: bool) -> Result<Self, HttpError> {
        let mut method = self.method.bytes().peekable();
        if method.peek().is_none() || !method.all(|b| b.is_ascii_graphic()) {
            return Err(HttpError::BadMethod);
        }
        if name_required && self.name.is_none() {
            return Err(HttpError::MissingName);
        }
        for len in [self.method_len(), self.name_len()] {
            if len > MAX_HEADER_VALUE_BYTES {
                return Err(HttpError::ValueTooLong { len });
            }
        }
        Ok(self)
    }

    fn method_len(&self) -> usize {
        self.method.bytes().count()
    }

    fn name_len(&self) -> usize {
        self.name.map_or(0, |n| value_len(n.bytes()))
    }

    /// The exact buffer size [`Self::write`] needs.
    pub fn buffer_len(&self) -> usize {
        self.method_len().saturating_add(self.name_len())
    }

    /// Writes the dynamic values (method, encoded name) into `buf` and
    /// returns the full header set, borrowing `buf`.
    pub fn write<'b>(&self, buf: &'b mut [u8]) -> Result<Headers<'b>, HttpError> {
        let needed = self.buffer_len();
        let buf = buf
            .get_mut(..needed)
            .ok_or(HttpError::BufferTooSmall { needed })?;
        let (m, n) = buf
            .split_at_mut_checked(self.method_len())
            .ok_or(HttpError::BufferTooSmall { needed })?;
        // The method was checked to be visible ASCII: copied as it is.
        m.iter_mut()
            .zip(self.method.bytes())
            .for_each(|(d, b)| *d = b);
        if let Some(name) = self.name {
            write_value(name.bytes(), n);
        }
        let ascii = |b: &'b [u8]| core::str::from_utf8(b).map_err(|_| HttpError::BadMethod);
        Ok(Headers {
            method: ascii(m)?,
            name: match self.name {
                Some(_) => Some(ascii(n)?),
                None => None,
            },
        })
    }
}

fn string_member<'a>(params: Option<Object<'a>>, key: &str) -> Result<JsonStr<'a>, HttpError> {
    params
        .and_then(|p| p.get_unique(key).ok().flatten())
        .and_then(|v| v.as_str())
        .ok_or(HttpError::MissingName)
}

/// The headers of one POST: (name, value) pairs, values ready to send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Headers<'b> {
    method: &'b str,
    name: Option<&'b str>,
}

impl<'b> Headers<'b> {
    /// The `Mcp-Method` value.
    pub fn method(&self) -> &'b str {
        self.method
    }

    /// The `Mcp-Name` value (encoded if needed), when the method has one.
    pub fn name(&self) -> Option<&'b str> {
        self.name
    }

    /// Every header in a fixed order: `MCP-Protocol-Version`, `Mcp-Method`,
    /// `Mcp-Name` (when present), `Accept`, `Content-Type`.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &'b str)> + 'b {
        [
            Some((MCP_PROTOCOL_VERSION, PROTOCOL_VERSION)),
            Some((MCP_METHOD, self.method)),
            self.name.map(|n| (MCP_NAME, n)),
            Some((ACCEPT, ACCEPT_VALUE)),
            Some((CONTENT_TYPE, CONTENT_TYPE_VALUE)),
        ]
        .into_iter()
        .flatten()
    }
}

#[cfg(test)]
mod tests;
