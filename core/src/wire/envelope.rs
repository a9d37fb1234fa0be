//! JSON-RPC 2.0 envelopes: request, notification, result and error responses.

use super::error::{EnvelopeError, Violation, WireError};
use super::WireLimits;
use crate::json::{self, JsonStr, Kind, Object, Value, Writer};

/// A JSON-RPC id: an integer or a string. (MCP forbids `null` ids on
/// requests; an error response may carry none when the id was unreadable.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Id<'a> {
    /// An integer id (fits in `i64`).
    Number(i64),
    /// A string id, as its validated token.
    Str(JsonStr<'a>),
}

impl<'a> Id<'a> {
    fn from_value(v: Value<'a>) -> Result<Self, EnvelopeError> {
        match v.kind() {
            Kind::Number => v.as_i64().map(Id::Number).ok_or(EnvelopeError::BadId),
            Kind::String => v.as_str().map(Id::Str).ok_or(EnvelopeError::BadId),
            _ => Err(EnvelopeError::BadId),
        }
    }

    /// Whether this id is the integer `n`.
    pub fn is_number(&self, n: i64) -> bool {
        matches!(self, Id::Number(v) if *v == n)
    }

    /// Writes the id as JSON.
    pub fn write(&self, w: &mut Writer<'_>) {
        match self {
            Id::Number(n) => {
                w.i64(*n);
            }
            Id::Str(s) => {
                w.json_str_raw(s);
            }
        }
    }
}

/// One JSON-RPC message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Message<'a> {
    /// A request (has an id and a method).
    Request {
        /// The request id.
        id: Id<'a>,
        /// The method name.
        method: JsonStr<'a>,
        /// The params object, if present.
        params: Option<Object<'a>>,
    },
    /// A notification (a method, no id).
    Notification {
        /// The method name.
        method: JsonStr<'a>,
        /// The params object, if present.
        params: Option<Object<'a>>,
    },
    /// A successful response.
    Result {
        /// The id of the request answered.
        id: Id<'a>,
        /// The result object.
        result: Object<'a>,
    },
    /// An error response.
    Error {
        /// The id of the request answered (absent or `null` when the server
        /// could not read it).
        id: Option<Id<'a>>,
        /// The error code.
        code: i64,
        /// The error message.
        message: JsonStr<'a>,
        /// Optional error data.
        data: Option<Value<'a>>,
    },
}

/// Parses one JSON-RPC message, validating the JSON with `limits` and the
/// envelope strictly: `jsonrpc` must be `"2.0"`, envelope members must be
/// unique, a response carries exactly one of `result` and `error`.
pub fn parse_message<'a>(bytes: &'a [u8], limits: &WireLimits) -> Result<Message<'a>, WireError> {
    parse_message_indexed(bytes, limits, &mut [])
}

/// [`parse_message`] with a skip index in `slots` (see
/// [`json::parse_indexed`]): the same result, and reading what it returns
/// (classifying a result, iterating its input requests) no longer rescans
/// nested values at every level. 32 slots (512 bytes on 64-bit targets)
/// cover a typical message; the spans borrow the slots.
pub fn parse_message_indexed<'a>(
    bytes: &'a [u8],
    limits: &WireLimits,
    slots: &'a mut [json::IndexSlot],
) -> Result<Message<'a>, WireError> {
    let doc = json::parse_indexed(bytes, &limits.json, slots)?;
    let obj = doc.as_object().ok_or(EnvelopeError::NotAnObject)?;
    let mut jsonrpc = None;
    let mut id = None;
    let mut method = None;
    let mut params = None;
    let mut result = None;
    let mut error = None;
    for (k, v) in obj.iter() {
        let slot = if k.eq_str("jsonrpc") {
            &mut jsonrpc
        } else if k.eq_str("id") {
            &mut id
        } else if k.eq_str("method") {
            &mut method
        } else if k.eq_str("params") {
            &mut params
        } else if k.eq_str("result") {
            &mut result
        } else if k.eq_str("error") {
            &mut error
        } else {
            continue;
        };
        if slot.replace(v).is_some() {
            return Err(EnvelopeError::DuplicateMember.into());
        }
    }
    match jsonrpc.and_then(|v| v.as_str()) {
        Some(s) if s.eq_str("2.0") => {}
        _ => return Err(EnvelopeError::BadVersion.into()),
    }
    // The id read once, here; each kind of message judges it in its own
    // order below (one reading in the image, not one per kind).
    let read_id = id.map(Id::from_value);
    if let Some(m) = method {
        let method = m.as_str().ok_or(EnvelopeError::BadMethod)?;
        if result.is_some() || error.is_some() {
            return Err(EnvelopeError::ResultXorError.into());
        }
        let params = match params {
            None => None,
            Some(p) => Some(p.as_object().ok_or(EnvelopeError::BadParams)?),
        };
        return Ok(match read_id {
            None => Message::Notification { method, params },
            Some(id) => Message::Request {
                id: id?,
                method,
                params,
            },
        });
    }
    match (result, error) {
        (Some(r), None) => {
            let id = read_id.ok_or(EnvelopeError::BadId)??;
            let result = r.as_object().ok_or(Violation::ResultNotObject)?;
            Ok(Message::Result { id, result })
        }
        (None, Some(e)) => {
            let id = match id {
                None => None,
                Some(v) if v.is_null() => None,
                Some(_) => read_id.transpose()?,
            };
            // One walk for the three members; any fault is the same error.
            let members = e
                .as_object()
                .map(|e| e.get_unique_many(["code", "message", "data"]));
            let Some([Ok(Some(code)), Ok(Some(message)), Ok(data)]) = members else {
                return Err(EnvelopeError::BadErrorObject.into());
            };
            match (code.as_i64(), message.as_str()) {
                (Some(code), Some(message)) => Ok(Message::Error {
                    id,
                    code,
                    message,
                    data,
                }),
                _ => Err(EnvelopeError::BadErrorObject.into()),
            }
        }
        _ => Err(EnvelopeError::ResultXorError.into()),
    }
}

/// Writes `{"jsonrpc":"2.0","id":ID,"method":METHOD,"params":` — the caller
/// then writes the params object and closes with `}`.
pub fn write_request_head(w: &mut Writer<'_>, id: &Id<'_>, method: &str) {
    write_open(w, Some(id));
    w.raw(b"\"method\":").str(method).raw(b",\"params\":");
}

/// Writes `{"jsonrpc":"2.0","id":ID,"result":` — the caller then writes the
/// result object and closes with `}`.
pub fn write_result_head(w: &mut Writer<'_>, id: &Id<'_>) {
    write_open(w, Some(id));
    w.raw(b"\"result\":");
}

/// Writes `{"jsonrpc":"2.0",` and, with an `id`, `"id":ID,`: the opening
/// every response shares (an error response may have no `id`).
pub(crate) fn write_open(w: &mut Writer<'_>, id: Option<&Id<'_>>) {
    w.raw(b"{\"jsonrpc\":\"2.0\",");
    if let Some(id) = id {
        w.raw(b"\"id\":");
        id.write(w);
        w.byte(b',');
    }
}
