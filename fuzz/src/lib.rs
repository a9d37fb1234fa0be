//! The fuzz harnesses of mrtr-core, one module per cargo-fuzz target.
//!
//! Each `run(data)` is the whole target: it decodes `data` in the format its
//! module documents, drives the core, and panics (which libFuzzer reports as
//! a crash) when a property fails. The properties are the ones the core's
//! docs promise; the oracles are independent where one exists (serde_json
//! for the JSON reader, the WHATWG `url` crate for the consent screen's
//! host, a re-parse of every emitted message for the state machines).
//!
//! Shared input conventions:
//! - Byte `0xFF` never occurs in UTF-8, so no valid JSON text contains it:
//!   targets that take several documents split their input at `0xFF`
//!   ([`segments`]). The first segment is the *control* segment: flags, then
//!   a stream of choices ([`Choices`]) the harness draws from whenever it
//!   has to decide something (which answer, which order). A seed can leave
//!   it empty: every draw is then 0, the harness's default path.
//! - `scripts/fuzz-seed` writes seed corpora in these formats from
//!   `tests/vectors/` and from recorded flows.

pub mod canon;
pub mod client_feed;
pub mod form;
pub mod json;
pub mod seal_misuse;
pub mod server_parse;
pub mod sse;
pub mod task_feed;
pub mod unseal;
pub mod url;

mod oracle;

/// Separator between the segments of an input (never valid UTF-8).
pub const SEP: u8 = 0xFF;

/// A message segment that means "the transport failed: resend" instead of
/// bytes to feed.
pub const RESEND: &[u8] = &[0xFE];

/// A message segment that means "cancel the task now" (task_feed only).
pub const CANCEL: &[u8] = &[0xFD];

/// Splits `data` at every [`SEP`]: the control segment, then the rest.
pub fn segments(data: &[u8]) -> (&[u8], Vec<&[u8]>) {
    let mut parts = data.split(|&b| b == SEP);
    let control = parts.next().unwrap_or(&[]);
    (control, parts.collect())
}

/// A stream of fuzzer-chosen decisions; 0 once exhausted.
#[derive(Debug, Clone)]
pub struct Choices<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Choices<'a> {
    /// Draws from `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Choices { bytes, pos: 0 }
    }

    /// The next byte (0 when exhausted).
    pub fn byte(&mut self) -> u8 {
        let b = self.bytes.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        usize::from(self.byte()) % n
    }

    /// A fair-ish coin.
    pub fn flag(&mut self) -> bool {
        self.byte() & 1 == 1
    }
}

/// Replaces the id of an emitted request (`{"jsonrpc":"2.0","id":OLD,...`)
/// with `new`, for comparing a resend with the request it repeats.
pub fn with_id(request: &[u8], old: i64, new: i64) -> Vec<u8> {
    let old_head = format!("{{\"jsonrpc\":\"2.0\",\"id\":{old},");
    let new_head = format!("{{\"jsonrpc\":\"2.0\",\"id\":{new},");
    let rest = request
        .strip_prefix(old_head.as_bytes())
        .unwrap_or_else(|| panic!("request does not start with id {old}"));
    let mut out = new_head.into_bytes();
    out.extend_from_slice(rest);
    out
}
