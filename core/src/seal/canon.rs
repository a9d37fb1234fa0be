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
//! The text is streamed straight into the hasher; nothing is buffered and
//! nothing is allocated. Nesting is walked with an explicit stack, never
//! recursion. Opening an object records where each of its keys starts (a
//! `u32` per member) on a second small stack, shared by all the objects open
//! at once, and sorts those offsets in place by binary insertion (about
//! `n log n` key comparisons, equal keys found on the way); the members are
//! then emitted in that order. Limits, each with its own error:
//! [`MAX_CANON_MEMBERS`] per object, [`MAX_CANON_DEPTH`] levels of nesting and
//! [`MAX_CANON_OPEN_MEMBERS`] members in all the objects open at once (along
//! one path from the root). Memory: under 3 KiB of stack in all.
//!
//! Cost: every byte is scanned a small number of times per open container
//! around it (at most [`MAX_CANON_DEPTH`] containers), plus about `n log n`
//! key comparisons per object of `n` members, each costing the length of the
//! two keys' common prefix (a key's end is never searched for): linear in
//! practice, and about `len(arguments) * log2(MAX_CANON_MEMBERS)` extra steps
//! for keys crafted to share long prefixes.

use core::cmp::Ordering;

use sha2::{Digest, Sha256};

use crate::json::{Chars, Elements, JsonStr, Kind, Object, Value, Writer};

/// Most members one object may have in canonicalized arguments.
pub const MAX_CANON_MEMBERS: usize = 128;

/// Deepest nesting of objects and arrays in canonicalized arguments (the
/// outermost container counts as 1).
pub const MAX_CANON_DEPTH: usize = 16;

/// Most members in all the objects open at once, that is, summed over the
/// objects on one path from the root of the arguments to a value: four
/// nested objects of the widest kind.
pub const MAX_CANON_OPEN_MEMBERS: usize = 4 * MAX_CANON_MEMBERS;

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
    /// Nested objects hold more than [`MAX_CANON_OPEN_MEMBERS`] members
    /// between them along one path.
    TooManyOpenMembers,
    /// An object is 4 GiB or larger.
    TooLarge,
}

variant_names! {
    /// The variant's name, NUL-terminated for C (`"DuplicateKey"`).
    CanonError: DuplicateKey TooManyMembers TooDeep TooManyOpenMembers TooLarge
}

impl CanonError {
    /// A short, stable description for logs.
    pub fn reason(&self) -> &'static str {
        match self {
            CanonError::DuplicateKey => "arguments contain a duplicate object key",
            CanonError::TooManyMembers => "arguments contain an object with too many members",
            CanonError::TooDeep => "arguments nest too deeply",
            CanonError::TooManyOpenMembers => {
                "arguments nest objects with too many members between them"
            }
            CanonError::TooLarge => "arguments contain an object of 4 GiB or more",
        }
    }
}

impl core::fmt::Display for CanonError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.reason())
    }
}

impl core::error::Error for CanonError {}

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
        // A length the compiler sees equal to `bytes`'s: no panic path.
        let rest = self.buf.get_mut(self.len..);
        if let Some(dst) = rest.and_then(|r| r.get_mut(..bytes.len())) {
            crate::bytes::copy(dst, bytes);
            self.len = end;
        } else {
            self.flush();
            if bytes.len() < self.buf.len() {
                if let Some(dst) = self.buf.get_mut(..bytes.len()) {
                    crate::bytes::copy(dst, bytes);
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
    /// An object: its key offsets, sorted by key, are `offsets[base..]` (the
    /// frames above it are arrays or keep theirs above), and `next` is the
    /// position of the next member to emit.
    Object {
        object: Object<'a>,
        base: usize,
        next: usize,
    },
    /// An array, with the elements still to emit.
    Array { rest: Elements<'a>, first: bool },
}

/// The walk's whole memory: the container stack and the key offsets of the
/// open objects.
struct Walk<'a> {
    stack: heapless::Vec<Frame<'a>, MAX_CANON_DEPTH>,
    offsets: heapless::Vec<u32, MAX_CANON_OPEN_MEMBERS>,
}

fn to_usize(offset: u32) -> usize {
    usize::try_from(offset).unwrap_or(usize::MAX)
}

pub(crate) fn canonicalize<S: Sink>(root: Value<'_>, sink: &mut S) -> Result<(), CanonError> {
    let mut walk = Walk {
        stack: heapless::Vec::new(),
        offsets: heapless::Vec::new(),
    };
    open(root, &mut walk, sink)?;
    while let Some(top) = walk.stack.last_mut() {
        let next = match top {
            Frame::Object { object, base, next } => {
                let member = walk
                    .offsets
                    .get(base.saturating_add(*next))
                    .and_then(|&offset| object.member_at(to_usize(offset)));
                match member {
                    Some((key, value)) => {
                        if *next > 0 {
                            sink.put(b",");
                        }
                        *next += 1;
                        put_string(key, sink);
                        sink.put(b":");
                        value
                    }
                    None => {
                        let base = *base;
                        sink.put(b"}");
                        walk.stack.pop();
                        walk.offsets.truncate(base);
                        continue;
                    }
                }
            }
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
                    walk.stack.pop();
                    continue;
                }
            },
        };
        open(next, &mut walk, sink)?;
    }
    Ok(())
}

/// Emits a scalar whole, or the opening of a container and pushes its frame
/// (for an object, after recording and sorting where its keys start).
fn open<'a, S: Sink>(
    value: Value<'a>,
    walk: &mut Walk<'a>,
    sink: &mut S,
) -> Result<(), CanonError> {
    let frame = match value.kind() {
        Kind::Object => {
            let Some(object) = value.as_object() else {
                return Ok(());
            };
            if walk.stack.is_full() {
                return Err(CanonError::TooDeep);
            }
            let base = walk.offsets.len();
            for (count, (key, _)) in object.iter().enumerate() {
                if count >= MAX_CANON_MEMBERS {
                    return Err(CanonError::TooManyMembers);
                }
                let offset =
                    u32::try_from(object.key_offset(&key)).map_err(|_| CanonError::TooLarge)?;
                walk.offsets
                    .push(offset)
                    .map_err(|_| CanonError::TooManyOpenMembers)?;
            }
            sort_keys(object, walk.offsets.get_mut(base..).unwrap_or(&mut []))?;
            Frame::Object {
                object,
                base,
                next: 0,
            }
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
    walk.stack.push(frame).map_err(|_| CanonError::TooDeep)?;
    sink.put(opening);
    Ok(())
}

/// Sorts key offsets by their keys, in place, by binary insertion: each key
/// is placed by binary search in the sorted prefix, which also meets any key
/// equal to it there (the prefix holds distinct keys, so a search for a key
/// that is present ends on it).
fn sort_keys(object: Object<'_>, offsets: &mut [u32]) -> Result<(), CanonError> {
    for i in 1..offsets.len() {
        let Some(&offset) = offsets.get(i) else {
            break;
        };
        let key = object.key_tail_at(to_usize(offset));
        let (mut lo, mut hi) = (0, i);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let Some(&other) = offsets.get(mid) else {
                break;
            };
            match compare_keys(object.key_tail_at(to_usize(other)), key) {
                Ordering::Less => lo = mid + 1,
                Ordering::Greater => hi = mid,
                Ordering::Equal => return Err(CanonError::DuplicateKey),
            }
        }
        crate::bytes::rotate_right_1(offsets, lo, i);
    }
    Ok(())
}

/// Orders two keys by decoded text, in code point order, given the bytes
/// after their opening quotes. Costs the length of their common prefix: the
/// end of a key is found only by reaching it.
fn compare_keys(a: &[u8], b: &[u8]) -> Ordering {
    let mut i = 0;
    loop {
        match (a.get(i), b.get(i)) {
            (Some(&x), Some(&y)) if !matches!(x, b'"' | b'\\') && !matches!(y, b'"' | b'\\') => {
                if x != y {
                    // Both raw UTF-8 after an identical prefix: byte order is
                    // code point order.
                    return x.cmp(&y);
                }
                i += 1;
            }
            _ => break,
        }
    }
    // An escape or the end of a key on either side. Both are at a character
    // boundary (a `"` or `\` cannot follow an unfinished UTF-8 sequence), so
    // the rest compares character by character.
    let rest_a = Chars::from_key_tail(a.get(i..).unwrap_or(&[]));
    let rest_b = Chars::from_key_tail(b.get(i..).unwrap_or(&[]));
    rest_a.cmp(rest_b)
}

/// The escape of each control character, by its code: the letter of its
/// short form (`\b`, `\t`, `\n`, `\f`, `\r`) or `u` for `\u00XX`.
const ESCAPES: &[u8; 32] = b"uuuuuuuubtnufruuuuuuuuuuuuuuuuuu";

/// Writes a string in the one canonical escaping.
fn put_string<S: Sink>(s: JsonStr<'_>, sink: &mut S) {
    sink.put(b"\"");
    if !s.has_escapes() {
        // A validated string without escapes holds no `"`, `\` or control
        // character, so its raw bytes already are the canonical spelling.
        sink.put(s.raw_inner());
    } else {
        for c in s.chars() {
            let escape = match c {
                '"' | '\\' => Some(c as u8),
                _ => ESCAPES.get(u32::from(c) as usize).copied(),
            };
            match escape {
                Some(b'u') => {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    let v = u32::from(c) as usize;
                    let hi = HEX.get(v >> 4).copied().unwrap_or(b'0');
                    let lo = HEX.get(v & 15).copied().unwrap_or(b'0');
                    sink.put(&[b'\\', b'u', b'0', b'0', hi, lo]);
                }
                Some(e) => sink.put(&[b'\\', e]),
                None => {
                    let mut tmp = [0u8; 4];
                    sink.put(c.encode_utf8(&mut tmp).as_bytes());
                }
            }
        }
    }
    sink.put(b"\"");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_walk_needs_under_3_kib() {
        assert!(core::mem::size_of::<Walk<'_>>() < 3 * 1024);
    }
}
