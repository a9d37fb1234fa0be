//! The binding digest: which request a sealed `requestState` belongs to.
//!
//! A token is bound to SHA-256 over
//!
//! ```text
//! "mrtr binding v1\0"
//! || u64le(len(method)) || method
//! || u64le(len(target)) || target
//! || 0x00                                  (arguments absent)
//!  | 0x01 || canonical(arguments)         (arguments present, even `{}`)
//! ```
//!
//! The canonical form is JSON text that depends only on the value, not on how
//! the client spelled it:
//! - no whitespace;
//! - object members sorted by their decoded keys (code point order, which is
//!   also UTF-8 byte order); a key that occurs twice is an error;
//! - strings (keys and values) compared and written by their decoded text,
//!   escaped one way only: `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, other
//!   control characters as `\u00xx` (lower-case hex), everything else as raw
//!   UTF-8 (so `"\u0041"` and `"A"`, `"\/"` and `"/"` are the same string);
//! - numbers by their exact literal bytes (so `1`, `1.0` and `1e0` differ:
//!   the seal does not guess which numbers an application treats as equal);
//! - `true`, `false`, `null` as themselves; arrays keep their order.
//!
//! The text is streamed straight into the hasher; nothing is buffered. Keys
//! are sorted by repeated selection (each pass finds the smallest key greater
//! than the previous one), which needs no memory but is quadratic, so objects
//! are capped at [`MAX_CANON_MEMBERS`] members and nesting at
//! [`MAX_CANON_DEPTH`]. Nesting is walked with an explicit stack of
//! [`MAX_CANON_DEPTH`] small frames (under 1 KiB in all), never recursion.
//!
//! Cost: each selection pass over an object skips over its values, so the
//! work is at most `len(arguments) * MAX_CANON_MEMBERS * MAX_CANON_DEPTH`
//! byte steps in the adversarial worst case, and linear plus
//! `members^2` key comparisons for the usual flat arguments.

use core::cmp::Ordering;

use sha2::{Digest, Sha256};

use crate::json::{Elements, JsonStr, Kind, Object, Value, Writer};

/// Most members one object may have in canonicalized arguments.
pub const MAX_CANON_MEMBERS: usize = 128;

/// Deepest nesting of objects and arrays in canonicalized arguments (the
/// outermost container counts as 1).
pub const MAX_CANON_DEPTH: usize = 16;

/// Domain label that starts every binding digest.
const BINDING_LABEL: &[u8] = b"mrtr binding v1\0";

/// Why arguments have no canonical form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CanonError {
    /// An object has the same key twice (compared after unescaping), so its
    /// meaning depends on which parser reads it.
    DuplicateKey,
    /// An object has more than [`MAX_CANON_MEMBERS`] members.
    TooManyMembers,
    /// Objects and arrays nest deeper than [`MAX_CANON_DEPTH`].
    TooDeep,
}

impl CanonError {
    /// A short, stable description for logs.
    pub fn reason(&self) -> &'static str {
        match self {
            CanonError::DuplicateKey => "arguments contain a duplicate object key",
            CanonError::TooManyMembers => "arguments contain an object with too many members",
            CanonError::TooDeep => "arguments nest too deeply",
        }
    }
}

impl core::fmt::Display for CanonError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.reason())
    }
}

/// Where canonical bytes go.
pub(crate) trait Sink {
    fn put(&mut self, bytes: &[u8]);
}

impl Sink for Writer<'_> {
    fn put(&mut self, bytes: &[u8]) {
        self.raw(bytes);
    }
}

/// A SHA-256 with a small staging buffer in front, so the many one- and
/// two-byte writes of the canonical form do not each pay for a hasher call.
struct HashSink {
    hasher: Sha256,
    buf: [u8; 64],
    len: usize,
}

impl HashSink {
    fn new() -> Self {
        HashSink {
            hasher: Sha256::new(),
            buf: [0; 64],
            len: 0,
        }
    }

    fn flush(&mut self) {
        self.hasher.update(self.buf.get(..self.len).unwrap_or(&[]));
        self.len = 0;
    }

    fn finish(mut self) -> [u8; 32] {
        self.flush();
        self.hasher.finalize().into()
    }
}

impl Sink for HashSink {
    fn put(&mut self, bytes: &[u8]) {
        let end = self.len.saturating_add(bytes.len());
        if let Some(dst) = self.buf.get_mut(self.len..end) {
            dst.copy_from_slice(bytes);
            self.len = end;
        } else {
            self.flush();
            if bytes.len() < self.buf.len() {
                if let Some(dst) = self.buf.get_mut(..bytes.len()) {
                    dst.copy_from_slice(bytes);
                    self.len = bytes.len();
                }
            } else {
                self.hasher.update(bytes);
            }
        }
    }
}

/// Computes the digest that binds a sealed state to one request: the method
/// (`tools/call`, `prompts/get`, `resources/read`), the target (tool or prompt
/// name, or resource URI, as decoded text) and the canonical form of the
/// arguments. `None` (no `arguments` member) and `Some({})` give different
/// digests. Any JSON value is accepted as arguments.
pub fn binding_digest(
    method: &str,
    target: &str,
    arguments: Option<Value<'_>>,
) -> Result<[u8; 32], CanonError> {
    let mut sink = HashSink::new();
    sink.put(BINDING_LABEL);
    for part in [method, target] {
        let len = u64::try_from(part.len()).unwrap_or(u64::MAX);
        sink.put(&len.to_le_bytes());
        sink.put(part.as_bytes());
    }
    match arguments {
        None => sink.put(&[0]),
        Some(value) => {
            sink.put(&[1]);
            canonicalize(value, &mut sink)?;
        }
    }
    Ok(sink.finish())
}

/// Writes the canonical form of `value` (the text the binding digest hashes)
/// into `out`. Meant for logs and tests; [`binding_digest`] never buffers it.
/// A short buffer is reported by [`Writer::finish`].
pub fn write_canonical(value: Value<'_>, out: &mut Writer<'_>) -> Result<(), CanonError> {
    canonicalize(value, out)
}

/// One open container on the explicit stack.
enum Frame<'a> {
    /// An object, with the last key emitted (members go out in key order).
    Object {
        object: Object<'a>,
        last: Option<JsonStr<'a>>,
    },
    /// An array, with the elements still to emit.
    Array { rest: Elements<'a>, first: bool },
}

type Stack<'a> = heapless::Vec<Frame<'a>, MAX_CANON_DEPTH>;

pub(crate) fn canonicalize<S: Sink>(root: Value<'_>, sink: &mut S) -> Result<(), CanonError> {
    let mut stack = Stack::new();
    open(root, &mut stack, sink)?;
    while let Some(top) = stack.last_mut() {
        let next = match top {
            Frame::Object { object, last } => match next_member(*object, *last)? {
                Some((key, value)) => {
                    if last.is_some() {
                        sink.put(b",");
                    }
                    put_string(key, sink);
                    sink.put(b":");
                    *last = Some(key);
                    value
                }
                None => {
                    sink.put(b"}");
                    stack.pop();
                    continue;
                }
            },
            Frame::Array { rest, first } => match rest.next() {
                Some(value) => {
                    if !*first {
                        sink.put(b",");
                    }
                    *first = false;
                    value
                }
                None => {
                    sink.put(b"]");
                    stack.pop();
                    continue;
                }
            },
        };
        open(next, &mut stack, sink)?;
    }
    Ok(())
}

/// Emits a scalar whole, or the opening of a container and pushes its frame.
fn open<'a, S: Sink>(
    value: Value<'a>,
    stack: &mut Stack<'a>,
    sink: &mut S,
) -> Result<(), CanonError> {
    let frame = match value.kind() {
        Kind::Object => {
            let Some(object) = value.as_object() else {
                return Ok(());
            };
            if object.iter().nth(MAX_CANON_MEMBERS).is_some() {
                return Err(CanonError::TooManyMembers);
            }
            Frame::Object { object, last: None }
        }
        Kind::Array => {
            let Some(array) = value.as_array() else {
                return Ok(());
            };
            Frame::Array {
                rest: array.iter(),
                first: true,
            }
        }
        Kind::String => {
            if let Some(s) = value.as_str() {
                put_string(s, sink);
            }
            return Ok(());
        }
        // Numbers by their exact literal; `true`, `false`, `null` as they are.
        Kind::Number | Kind::Bool | Kind::Null => {
            sink.put(value.raw());
            return Ok(());
        }
    };
    let opening: &[u8] = match frame {
        Frame::Object { .. } => b"{",
        Frame::Array { .. } => b"[",
    };
    stack.push(frame).map_err(|_| CanonError::TooDeep)?;
    sink.put(opening);
    Ok(())
}

/// The member with the smallest key greater than `last` (or the smallest
/// key when `last` is `None`). Two members with equal keys are an error.
fn next_member<'a>(
    object: Object<'a>,
    last: Option<JsonStr<'a>>,
) -> Result<Option<(JsonStr<'a>, Value<'a>)>, CanonError> {
    let mut best: Option<(JsonStr<'a>, Value<'a>)> = None;
    for (key, value) in object.iter() {
        if let Some(last) = &last {
            if compare_keys(&key, last) != Ordering::Greater {
                continue;
            }
        }
        match &best {
            None => best = Some((key, value)),
            Some((best_key, _)) => match compare_keys(&key, best_key) {
                Ordering::Less => best = Some((key, value)),
                // Every distinct key is the minimum of some pass, so every
                // duplicate pair meets here.
                Ordering::Equal => return Err(CanonError::DuplicateKey),
                Ordering::Greater => {}
            },
        }
    }
    Ok(best)
}

/// Orders keys by decoded text, in code point order.
fn compare_keys(a: &JsonStr<'_>, b: &JsonStr<'_>) -> Ordering {
    if !a.has_escapes() && !b.has_escapes() {
        // Validated UTF-8: byte order is code point order.
        a.raw_inner().cmp(b.raw_inner())
    } else {
        a.chars().cmp(b.chars())
    }
}

/// Writes a string in the one canonical escaping.
fn put_string<S: Sink>(s: JsonStr<'_>, sink: &mut S) {
    sink.put(b"\"");
    if !s.has_escapes() {
        // A validated string without escapes holds no `"`, `\` or control
        // character, so its raw bytes already are the canonical spelling.
        sink.put(s.raw_inner());
    } else {
        for c in s.chars() {
            match c {
                '"' => sink.put(b"\\\""),
                '\\' => sink.put(b"\\\\"),
                '\u{8}' => sink.put(b"\\b"),
                '\u{c}' => sink.put(b"\\f"),
                '\n' => sink.put(b"\\n"),
                '\r' => sink.put(b"\\r"),
                '\t' => sink.put(b"\\t"),
                c if u32::from(c) < 0x20 => {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    let v = u32::from(c) as usize;
                    let hi = HEX.get(v >> 4).copied().unwrap_or(b'0');
                    let lo = HEX.get(v & 15).copied().unwrap_or(b'0');
                    sink.put(&[b'\\', b'u', b'0', b'0', hi, lo]);
                }
                c => {
                    let mut tmp = [0u8; 4];
                    sink.put(c.encode_utf8(&mut tmp).as_bytes());
                }
            }
        }
    }
    sink.put(b"\"");
}
