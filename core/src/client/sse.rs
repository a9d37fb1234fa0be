//! An incremental Server-Sent Events decoder for the Streamable HTTP
//! transport, following the WHATWG HTML "server-sent events" parsing rules.
//!
//! Feed it the response body in chunks of any size, split anywhere (inside a
//! CRLF, inside a UTF-8 sequence, inside a field name); it yields one
//! [`Event`] per dispatch. Event data is stored in a buffer the caller lends
//! ([`SseDecoder::new`]); its length is the maximum event size. Nothing is
//! allocated and no line is buffered: field values stream straight into
//! their destination, so an endless line costs no memory.
//!
//! Rules implemented (WHATWG HTML, section "Parsing an event stream"):
//! - one U+FEFF byte order mark at the start of a stream is stripped;
//! - lines end with CRLF, LF or CR (a CR at the end of a chunk and an LF at
//!   the start of the next one are one line end);
//! - a line starting with `:` is a comment; `name:value` sets a field, with
//!   one optional space after the colon stripped; a line without a colon is a
//!   field with an empty value;
//! - `data` lines are joined with `\n`; `event` sets the type (default
//!   `message`); `id` sets the last event ID unless it contains U+0000;
//!   `retry` sets the reconnection time when it is only ASCII digits; other
//!   fields are ignored;
//! - a blank line dispatches: the last event ID is committed even when no
//!   data came; an event without any `data` line is not yielded;
//! - at the end of a stream an unfinished event (or line) is discarded.
//!
//! Where this decoder is stricter than a browser (and why):
//! - bytes that are not UTF-8 make the event fail with
//!   [`SseError::InvalidUtf8`] instead of becoming U+FFFD: the payload is a
//!   JSON-RPC message, and silently rewriting its text would change it;
//! - values longer than their limit fail the event with a precise error. The
//!   decoder then discards the rest of that event and resumes cleanly at the
//!   next blank line; one error is reported per event.
//!
//! MCP servers may send a priming event (an `id` and an empty `data` line) so
//! that a client can resume with `Last-Event-ID`: it is yielded as an event
//! with empty data, and [`SseDecoder::last_event_id`] keeps the id.

use crate::json::Value;
use crate::wire::{parse_message, Message, WireError, WireLimits};

/// Maximum length of an `event` field value, in bytes. MCP uses `message`
/// (or no type at all); a longer type fails the event with
/// [`SseError::EventTypeTooLong`].
pub const MAX_EVENT_TYPE_BYTES: usize = 64;
/// Maximum length of an `id` field value, in bytes. Ids are echoed in the
/// `Last-Event-ID` header on reconnection; MCP SDKs use ids well under 100
/// bytes. A longer id fails its event with [`SseError::EventIdTooLong`] at
/// the end of its line and leaves the last event ID unchanged (an id
/// containing NUL is ignored, as the standard says, however long).
pub const MAX_EVENT_ID_BYTES: usize = 256;
/// A suggested data buffer size: the default maximum JSON message size of
/// the reader, so any message the wire layer accepts fits in one event.
pub const DEFAULT_MAX_EVENT_BYTES: usize = crate::json::DEFAULT_MAX_MESSAGE_BYTES;

const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

/// Why an event could not be yielded. The decoder has already recovered:
/// keep feeding; the rest of the failed event is discarded up to its blank
/// line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SseError {
    /// The event's data (its `data` lines joined with `\n`) is longer than
    /// the buffer lent to the decoder.
    EventTooLarge {
        /// The maximum event size: the length of the data buffer.
        limit: usize,
    },
    /// An `event` value is longer than [`MAX_EVENT_TYPE_BYTES`].
    EventTypeTooLong,
    /// An `id` value is longer than [`MAX_EVENT_ID_BYTES`].
    EventIdTooLong,
    /// The event's data, type or id is not valid UTF-8.
    InvalidUtf8,
}

variant_names! {
    /// The variant's name, NUL-terminated for C (`"EventTooLarge"`).
    SseError: EventTooLarge EventTypeTooLong EventIdTooLong InvalidUtf8
}

impl core::fmt::Display for SseError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SseError::EventTooLarge { limit } => {
                write!(f, "SSE event data exceeds {limit} bytes")
            }
            SseError::EventTypeTooLong => {
                write!(f, "SSE event type exceeds {MAX_EVENT_TYPE_BYTES} bytes")
            }
            SseError::EventIdTooLong => {
                write!(f, "SSE event id exceeds {MAX_EVENT_ID_BYTES} bytes")
            }
            SseError::InvalidUtf8 => write!(f, "SSE event is not valid UTF-8"),
        }
    }
}

impl core::error::Error for SseError {}

/// One dispatched event. Borrows the decoder: valid until the next call
/// that mutates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event<'a> {
    /// The event type; `"message"` when the event had no `event` field.
    pub event_type: &'a str,
    /// The data lines joined with `\n`.
    pub data: &'a str,
    /// The last event ID at dispatch (possibly set by an earlier event;
    /// empty when none was ever set on this stream).
    pub last_event_id: &'a str,
}

impl<'a> Event<'a> {
    /// Whether the type is `message`, the type MCP servers use.
    pub fn is_message(&self) -> bool {
        self.event_type == "message"
    }

    /// Reads the data as one JSON-RPC message.
    pub fn message(&self, limits: &WireLimits) -> Result<Message<'a>, WireError> {
        parse_message(self.data.as_bytes(), limits)
    }

    /// Reads the data as a JSON value (for callers that do their own
    /// envelope handling).
    pub fn json(&self, limits: &crate::json::ParseLimits) -> Result<Value<'a>, crate::json::Error> {
        crate::json::parse_with(self.data.as_bytes(), limits)
    }
}

/// A small inline byte buffer that reports overflow instead of growing.
#[derive(Debug, Clone, Copy)]
struct Inline<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> Inline<N> {
    const EMPTY: Self = Inline {
        bytes: [0; N],
        len: 0,
    };

    /// Appends `src`; false (nothing stored) if it does not fit.
    fn push(&mut self, src: &[u8]) -> bool {
        let end = self.len.saturating_add(src.len());
        // A length the compiler sees equal to `src`'s: no panic path.
        let rest = self.bytes.get_mut(self.len..);
        match rest.and_then(|r| r.get_mut(..src.len())) {
            Some(dst) => {
                crate::bytes::copy(dst, src);
                self.len = end;
                true
            }
            None => false,
        }
    }

    fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or(&[])
    }

    fn as_str(&self) -> &str {
        core::str::from_utf8(self.as_bytes()).unwrap_or("")
    }
}

/// The field a line is setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Data,
    Event,
    Id,
    Retry,
}

/// Where the decoder is within the current line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line {
    /// Nothing read on this line yet.
    Start,
    /// Reading a field name (stored in `name`).
    Name,
    /// Right after the colon: one space may still be stripped.
    ValueStart(Field),
    /// Inside a field value.
    Value(Field),
    /// A comment or an unknown field: skip to the end of the line.
    Skip,
}

/// The incremental decoder. Holds the per-stream parser state, the
/// event-source state that survives reconnection (last event ID,
/// reconnection time) and borrows the data buffer.
#[derive(Debug)]
pub struct SseDecoder<'b> {
    data: &'b mut [u8],
    data_len: usize,
    /// Number of `data` lines in the current event. Lines are joined
    /// lazily (the `\n` is written when the next line starts), so no
    /// trailing `\n` has to be removed and no spare byte is needed.
    data_lines: usize,
    event_type: Inline<MAX_EVENT_TYPE_BYTES>,
    /// The "last event ID buffer" of the stream being parsed.
    id_buffer: Inline<MAX_EVENT_ID_BYTES>,
    /// The value of the `id` line being read, and whether it may still be
    /// committed (no NUL, not too long).
    id_line: Inline<MAX_EVENT_ID_BYTES>,
    id_line_ok: bool,
    /// The `id` line being read outgrew its limit. Decided at the line end,
    /// not when the limit is met: a NUL later in the line makes the standard
    /// ignore the id, and whether the NUL or the limit comes first must not
    /// depend on how the stream was split.
    id_line_too_long: bool,
    /// The event source's "last event ID string", committed at dispatch.
    last_event_id: Inline<MAX_EVENT_ID_BYTES>,
    retry_value: u64,
    retry_digits: bool,
    retry_ok: bool,
    reconnection_time_ms: Option<u64>,
    /// Field names we act on are at most 5 bytes (`event`, `retry`).
    name: Inline<5>,
    line: Line,
    /// The previous byte was a CR: an LF now belongs to that line end.
    after_cr: bool,
    /// Bytes of the start-of-stream BOM matched so far; 3 once decided.
    bom: usize,
    /// The current event already failed (error reported; its data is
    /// discarded up to its blank line).
    failed: bool,
    /// An event was just dispatched: its buffers are cleared when the
    /// decoder next reads, so the yielded [`Event`] can borrow them.
    dispatched: bool,
}

impl<'b> SseDecoder<'b> {
    /// A decoder whose events may hold up to `data.len()` bytes of data.
    pub fn new(data: &'b mut [u8]) -> Self {
        SseDecoder {
            data,
            data_len: 0,
            data_lines: 0,
            event_type: Inline::EMPTY,
            id_buffer: Inline::EMPTY,
            id_line: Inline::EMPTY,
            id_line_ok: false,
            id_line_too_long: false,
            last_event_id: Inline::EMPTY,
            retry_value: 0,
            retry_digits: false,
            retry_ok: false,
            reconnection_time_ms: None,
            name: Inline::EMPTY,
            line: Line::Start,
            after_cr: false,
            bom: 0,
            failed: false,
            dispatched: false,
        }
    }

    /// The maximum event size: the length of the data buffer.
    pub fn max_event_bytes(&self) -> usize {
        self.data.len()
    }

    /// The last event ID committed by a dispatch: send it as
    /// `Last-Event-ID` when reconnecting. Empty when none.
    pub fn last_event_id(&self) -> &str {
        self.last_event_id.as_str()
    }

    /// The reconnection time the server asked for with `retry`, in
    /// milliseconds, if it sent one (on any stream of this decoder).
    /// Values too large for `u64` saturate.
    pub fn reconnection_time_ms(&self) -> Option<u64> {
        self.reconnection_time_ms
    }

    /// Consumes bytes from the front of `input` until an event is yielded,
    /// an error is found or `input` is empty (then `None`: feed the next
    /// chunk). After `Some`, call again with the rest of `input`.
    pub fn feed(&mut self, input: &mut &[u8]) -> Option<Result<Event<'_>, SseError>> {
        loop {
            match self.advance(input) {
                Step::NeedMore => return None,
                Step::Error(e) => return Some(Err(e)),
                Step::Dispatch => {
                    if self.data_lines > 0 && !self.failed {
                        return Some(self.event());
                    }
                }
            }
        }
    }

    /// Ends the current stream (the connection closed): an unfinished event
    /// or line is discarded, as the standard requires. Returns whether
    /// anything was discarded. The decoder is then ready for the next
    /// stream (a reconnection) and keeps [`Self::last_event_id`] and
    /// [`Self::reconnection_time_ms`].
    pub fn end_of_stream(&mut self) -> bool {
        self.clear_dispatched();
        let pending = self.data_lines > 0
            || self.event_type.len > 0
            || self.failed
            || self.line != Line::Start
            || (1..BOM.len()).contains(&self.bom);
        self.clear_event();
        self.id_buffer = Inline::EMPTY;
        self.name = Inline::EMPTY;
        self.line = Line::Start;
        self.after_cr = false;
        self.bom = 0;
        pending
    }

    fn clear_event(&mut self) {
        self.data_len = 0;
        self.data_lines = 0;
        self.event_type = Inline::EMPTY;
        self.failed = false;
    }

    fn clear_dispatched(&mut self) {
        if self.dispatched {
            self.dispatched = false;
            self.clear_event();
        }
    }

    /// The event just dispatched (data present, not failed).
    fn event(&self) -> Result<Event<'_>, SseError> {
        let data = self.data.get(..self.data_len).unwrap_or(&[]);
        let data = core::str::from_utf8(data).map_err(|_| SseError::InvalidUtf8)?;
        let event_type = match core::str::from_utf8(self.event_type.as_bytes()) {
            Ok("") => "message",
            Ok(t) => t,
            Err(_) => return Err(SseError::InvalidUtf8),
        };
        Ok(Event {
            event_type,
            data,
            last_event_id: self.last_event_id.as_str(),
        })
    }

    /// Marks the current event failed; returns the error to report, or
    /// `None` if this event already reported one.
    fn fail(&mut self, e: SseError) -> Option<SseError> {
        if self.failed {
            None
        } else {
            self.failed = true;
            Some(e)
        }
    }

    fn push_data(&mut self, bytes: &[u8]) -> Option<SseError> {
        if self.failed {
            return None;
        }
        let end = self.data_len.saturating_add(bytes.len());
        // A length the compiler sees equal to `bytes`'s: no panic path.
        let rest = self.data.get_mut(self.data_len..);
        match rest.and_then(|r| r.get_mut(..bytes.len())) {
            Some(dst) => {
                crate::bytes::copy(dst, bytes);
                self.data_len = end;
                None
            }
            None => {
                let limit = self.data.len();
                self.fail(SseError::EventTooLarge { limit })
            }
        }
    }

    fn advance(&mut self, input: &mut &[u8]) -> Step {
        self.clear_dispatched();
        while self.bom < BOM.len() {
            let Some((&b, rest)) = input.split_first() else {
                return Step::NeedMore;
            };
            if BOM.get(self.bom) == Some(&b) {
                self.bom += 1;
                *input = rest;
            } else {
                if self.bom > 0 {
                    // A partial BOM starts a field name that matches no
                    // field, so the line is ignored.
                    self.line = Line::Skip;
                }
                self.bom = BOM.len();
            }
        }
        while let Some((&b, rest)) = input.split_first() {
            if b == b'\r' || b == b'\n' {
                *input = rest;
                let lf_after_cr = b == b'\n' && self.after_cr;
                self.after_cr = b == b'\r';
                if lf_after_cr {
                    continue;
                }
                match self.end_of_line() {
                    Step::NeedMore => continue,
                    step => return step,
                }
            }
            self.after_cr = false;
            match self.line {
                Line::Start if b == b':' => {
                    *input = rest;
                    self.line = Line::Skip;
                }
                Line::Start | Line::Name => {
                    *input = rest;
                    if b == b':' {
                        match self.field() {
                            Some(f) => {
                                self.line = Line::ValueStart(f);
                                if let Some(e) = self.begin_value(f) {
                                    return Step::Error(e);
                                }
                            }
                            None => self.line = Line::Skip,
                        }
                    } else if self.name.push(&[b]) {
                        self.line = Line::Name;
                    } else {
                        self.line = Line::Skip;
                    }
                }
                Line::ValueStart(f) if b == b' ' => {
                    *input = rest;
                    self.line = Line::Value(f);
                }
                Line::ValueStart(f) | Line::Value(f) => {
                    self.line = Line::Value(f);
                    // The whole run up to the line end goes at once.
                    let (value, after) = input
                        .split_at_checked(line_run(input))
                        .unwrap_or((input, &[]));
                    *input = after;
                    if let Some(e) = self.value_bytes(f, value) {
                        return Step::Error(e);
                    }
                }
                Line::Skip => {
                    *input = input.get(line_run(input)..).unwrap_or(&[]);
                }
            }
        }
        Step::NeedMore
    }

    /// The field named by the bytes in `name`, if it is one we act on.
    fn field(&self) -> Option<Field> {
        match self.name.as_bytes() {
            b"data" => Some(Field::Data),
            b"event" => Some(Field::Event),
            b"id" => Some(Field::Id),
            b"retry" => Some(Field::Retry),
            _ => None,
        }
    }

    /// A field's value begins (after the colon, or at the end of a line
    /// that is only a field name).
    fn begin_value(&mut self, f: Field) -> Option<SseError> {
        match f {
            Field::Data => {
                let first = self.data_lines == 0;
                self.data_lines = self.data_lines.saturating_add(1);
                if !first {
                    return self.push_data(b"\n");
                }
            }
            Field::Event => self.event_type = Inline::EMPTY,
            Field::Id => {
                self.id_line = Inline::EMPTY;
                self.id_line_ok = true;
                self.id_line_too_long = false;
            }
            Field::Retry => {
                self.retry_value = 0;
                self.retry_digits = false;
                self.retry_ok = true;
            }
        }
        None
    }

    /// Bytes of a field's value (never containing CR or LF).
    fn value_bytes(&mut self, f: Field, value: &[u8]) -> Option<SseError> {
        match f {
            Field::Data => self.push_data(value),
            Field::Event => {
                if self.event_type.push(value) {
                    None
                } else {
                    self.fail(SseError::EventTypeTooLong)
                }
            }
            Field::Id => {
                if !self.id_line_ok {
                    None
                } else if value.contains(&0) {
                    // The standard ignores an id containing NULL.
                    self.id_line_ok = false;
                    None
                } else {
                    // Nothing more is stored once the limit is passed (a
                    // short piece after a long one must not fit in).
                    if self.id_line_too_long || !self.id_line.push(value) {
                        self.id_line_too_long = true;
                    }
                    None
                }
            }
            Field::Retry => {
                for &c in value {
                    if c.is_ascii_digit() {
                        self.retry_digits = true;
                        self.retry_value = self
                            .retry_value
                            .saturating_mul(10)
                            .saturating_add(u64::from(c - b'0'));
                    } else {
                        self.retry_ok = false;
                    }
                }
                None
            }
        }
    }

    /// A line ended: finish its field, or dispatch on a blank line.
    fn end_of_line(&mut self) -> Step {
        let line = self.line;
        self.line = Line::Start;
        let field = match line {
            Line::Start => {
                // A blank line: commit the id, then let `feed` yield the
                // event; its buffers are cleared on the next read.
                self.last_event_id = self.id_buffer;
                self.dispatched = true;
                return Step::Dispatch;
            }
            Line::Skip => None,
            Line::Name => {
                // A line with no colon: the whole line is the field name
                // and the value is empty.
                let f = self.field();
                if let Some(f) = f {
                    if let Some(e) = self.begin_value(f) {
                        self.name = Inline::EMPTY;
                        return Step::Error(e);
                    }
                }
                f
            }
            Line::ValueStart(f) | Line::Value(f) => Some(f),
        };
        self.name = Inline::EMPTY;
        match field {
            Some(Field::Id) if self.id_line_ok => {
                if self.id_line_too_long {
                    if let Some(e) = self.fail(SseError::EventIdTooLong) {
                        return Step::Error(e);
                    }
                } else if core::str::from_utf8(self.id_line.as_bytes()).is_ok() {
                    self.id_buffer = self.id_line;
                } else if let Some(e) = self.fail(SseError::InvalidUtf8) {
                    return Step::Error(e);
                }
            }
            Some(Field::Retry) if self.retry_ok && self.retry_digits => {
                self.reconnection_time_ms = Some(self.retry_value);
            }
            _ => {}
        }
        Step::NeedMore
    }
}

/// Length of the run of bytes before the next CR or LF.
fn line_run(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&c| c == b'\r' || c == b'\n')
        .unwrap_or(bytes.len())
}

/// What [`SseDecoder::advance`] stopped for.
enum Step {
    NeedMore,
    Error(SseError),
    Dispatch,
}

#[cfg(test)]
mod tests;
