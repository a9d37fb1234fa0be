//! Answering `roots/list`: checked `file://` roots and a path-to-URI
//! helper.
//!
//! The schema says a root URI "must start with `file://`". Servers use
//! roots as boundaries (is this file inside a root?), usually with a prefix
//! test on the URI or on its decoded path, so a root that decodes to
//! something other than it appears to be is a security problem, not a
//! cosmetic one. [`check_root_uri`] therefore accepts only URIs with one
//! reading: `file://` (lowercase), an empty, `localhost` or plain host name
//! authority, an absolute path of RFC 3986 path characters, well-formed
//! percent-escapes that decode to UTF-8, no encoded NUL or `/`, no `.` or
//! `..` segments (also when encoded), no empty segments except a trailing
//! slash, no query or fragment.

use crate::bytes;
use crate::json::{BufferTooSmall, JsonStr, Writer};
use crate::wire::input_response::{write_roots_result, Root};

/// Why a root URI is refused. Offsets are byte offsets into the URI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootUriError {
    /// The URI does not start with `file://` (lowercase, as the schema
    /// writes it).
    NotFileUri,
    /// No absolute path after the authority (`file://` alone, or
    /// `file://host` without `/...`).
    NoPath,
    /// The authority is not empty, `localhost` or a plain host name
    /// (letters, digits, `-`, `.`, `_`, `~`); ports and userinfo are refused.
    BadHost {
        /// Where it is.
        offset: usize,
    },
    /// A character that must be percent-encoded in a path (space,
    /// controls, non-ASCII, `"<>\^`{|}`).
    MustBeEncoded {
        /// Where it is.
        offset: usize,
    },
    /// A `?` or `#`: roots name directories, not queries.
    QueryOrFragment {
        /// Where it is.
        offset: usize,
    },
    /// A `%` not followed by two hex digits.
    BadPercentEncoding {
        /// Where it is.
        offset: usize,
    },
    /// `%00`: no file name contains NUL.
    EncodedNul {
        /// Where it is.
        offset: usize,
    },
    /// `%2F`: a slash inside one segment, which no POSIX name can hold and
    /// which decodes to a different path than it shows.
    EncodedSlash {
        /// Where it is.
        offset: usize,
    },
    /// The percent-decoded path is not UTF-8.
    NotUtf8,
    /// A `.` or `..` segment (literal or percent-encoded), which would move
    /// the root somewhere other than it reads.
    DotSegment,
    /// An empty segment (`//`) other than a trailing slash.
    EmptySegment,
}

/// Why a `ListRootsResult` was not written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootsError {
    /// `roots[index]` has an unacceptable URI.
    InvalidRoot {
        /// Position in the slice given.
        index: usize,
        /// What is wrong with it.
        error: RootUriError,
    },
    /// The output buffer is too small; `needed` is the exact size.
    BufferTooSmall {
        /// Bytes the result needs.
        needed: usize,
    },
}

/// Why a path could not be turned into a `file://` URI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathError {
    /// The path does not start with `/`.
    NotAbsolute,
    /// The path contains a NUL byte.
    Nul,
    /// The path has a `.` or `..` segment (resolve it first).
    DotSegment,
    /// The path has an empty segment (`//`) other than a trailing slash.
    EmptySegment,
    /// The output buffer is too small; `needed` is the exact size.
    BufferTooSmall {
        /// Bytes the URI needs.
        needed: usize,
    },
}

impl core::fmt::Display for RootUriError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RootUriError::NotFileUri => write!(f, "not a file:// URI"),
            RootUriError::NoPath => write!(f, "no absolute path after the authority"),
            RootUriError::BadHost { offset } => {
                write!(f, "invalid host character at byte {offset}")
            }
            RootUriError::MustBeEncoded { offset } => {
                write!(f, "character that must be percent-encoded at byte {offset}")
            }
            RootUriError::QueryOrFragment { offset } => {
                write!(f, "query or fragment at byte {offset}")
            }
            RootUriError::BadPercentEncoding { offset } => {
                write!(f, "malformed percent-encoding at byte {offset}")
            }
            RootUriError::EncodedNul { offset } => write!(f, "encoded NUL at byte {offset}"),
            RootUriError::EncodedSlash { offset } => write!(f, "encoded slash at byte {offset}"),
            RootUriError::NotUtf8 => write!(f, "decoded path is not UTF-8"),
            RootUriError::DotSegment => write!(f, "path has a . or .. segment"),
            RootUriError::EmptySegment => write!(f, "path has an empty segment"),
        }
    }
}

impl core::error::Error for RootUriError {}

impl core::fmt::Display for RootsError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RootsError::InvalidRoot { index, error } => write!(f, "root {index}: {error}"),
            RootsError::BufferTooSmall { needed } => {
                write!(f, "output buffer too small: needs {needed} bytes")
            }
        }
    }
}

impl core::error::Error for RootsError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            RootsError::InvalidRoot { error, .. } => Some(error),
            RootsError::BufferTooSmall { .. } => None,
        }
    }
}

impl core::fmt::Display for PathError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PathError::NotAbsolute => write!(f, "path is not absolute"),
            PathError::Nul => write!(f, "path contains a NUL byte"),
            PathError::DotSegment => write!(f, "path has a . or .. segment"),
            PathError::EmptySegment => write!(f, "path has an empty segment"),
            PathError::BufferTooSmall { needed } => {
                write!(f, "output buffer too small: needs {needed} bytes")
            }
        }
    }
}

impl core::error::Error for PathError {}

const SCHEME: &str = "file://";

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// RFC 3986 `pchar` minus `%` (checked separately), plus `/`.
fn is_path_char(b: u8) -> bool {
    is_unreserved(b) || b"!$&'()*+,;=:@/".contains(&b)
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Checks one root URI (see the module docs for the rules).
pub fn check_root_uri(uri: &str) -> Result<(), RootUriError> {
    check_uri_bytes(&mut uri.bytes())
}

/// Checks a root URI given as a JSON string token: the rules of
/// [`check_root_uri`] applied to the decoded text, which is what the server
/// reads. An escape cannot hide anything (`\u002e\u002e` is a `..`
/// segment), and a harmless one (`\/`, as some JSON encoders write every
/// slash) does not refuse a valid root. Offsets are into the decoded text.
pub fn check_root_uri_json(uri: &JsonStr<'_>) -> Result<(), RootUriError> {
    // Every character a root URI may hold is ASCII; anything else is
    // refused where it occurs (all characters before it were one byte).
    check_uri_bytes(
        &mut uri
            .chars()
            .map(|c| u8::try_from(c).ok().filter(u8::is_ascii).unwrap_or(0xFF)),
    )
}

/// The one implementation of the root URI rules, over the URI's bytes (or
/// its decoded characters) in order, without a buffer. The iterator is a
/// trait object so the rules are compiled once, not once per source (a
/// root URI is short: the indirect call costs nothing measurable).
fn check_uri_bytes(it: &mut dyn Iterator<Item = u8>) -> Result<(), RootUriError> {
    for want in SCHEME.bytes() {
        if it.next() != Some(want) {
            return Err(RootUriError::NotFileUri);
        }
    }
    // The authority runs to the first `/`; without one there is no path,
    // whatever the authority holds.
    let mut at = SCHEME.len();
    let mut bad_host = None;
    loop {
        match it.next() {
            None => return Err(RootUriError::NoPath),
            Some(b'/') => break,
            Some(b) => {
                if bad_host.is_none() && !is_unreserved(b) {
                    bad_host = Some(at);
                }
                at += 1;
            }
        }
    }
    if let Some(offset) = bad_host {
        return Err(RootUriError::BadHost { offset });
    }
    // The path after its leading `/`: characters, escapes and UTF-8 first
    // (in order), then the segments (the first bad one).
    let mut offset = at + 1;
    // Decoded bytes of the current UTF-8 sequence, to validate it whole.
    let mut seq = [0u8; 4];
    let (mut seq_len, mut seq_need) = (0usize, 0usize);
    let mut segment = Segment::default();
    let mut segment_error = None;
    while let Some(c) = it.next() {
        let (byte, width) = match c {
            b'?' | b'#' => return Err(RootUriError::QueryOrFragment { offset }),
            b'%' => {
                let hi = it.next().and_then(hex_value);
                let lo = hi.and(it.next()).and_then(hex_value);
                let (Some(hi), Some(lo)) = (hi, lo) else {
                    return Err(RootUriError::BadPercentEncoding { offset });
                };
                match hi << 4 | lo {
                    0 => return Err(RootUriError::EncodedNul { offset }),
                    b'/' => return Err(RootUriError::EncodedSlash { offset }),
                    d => (d, 3),
                }
            }
            c if is_path_char(c) => (c, 1),
            _ => return Err(RootUriError::MustBeEncoded { offset }),
        };
        offset += width;
        if c == b'/' {
            if segment_error.is_none() {
                segment_error = segment.error(false);
            }
            segment = Segment::default();
        } else {
            segment.units += 1;
            segment.dots += usize::from(byte == b'.');
        }
        if seq_need == 0 {
            seq_need = match byte {
                0x00..=0x7F => 1,
                0xC0..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF7 => 4,
                _ => return Err(RootUriError::NotUtf8),
            };
            seq_len = 0;
        }
        if let Some(slot) = seq.get_mut(seq_len) {
            *slot = byte;
        }
        seq_len += 1;
        if seq_len == seq_need {
            let bytes = seq.get(..seq_len).unwrap_or(&[]);
            core::str::from_utf8(bytes).map_err(|_| RootUriError::NotUtf8)?;
            seq_need = 0;
        }
    }
    if seq_need != 0 {
        return Err(RootUriError::NotUtf8);
    }
    match segment_error.or(segment.error(true)) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// One path segment as it streams by: its units (a character or a
/// percent-escape) and how many of them decode to `.`.
#[derive(Default)]
struct Segment {
    units: usize,
    dots: usize,
}

impl Segment {
    /// A `.` or `..` segment (literal or encoded), or an empty one that is
    /// not the last (a trailing slash is allowed).
    fn error(&self, last: bool) -> Option<RootUriError> {
        if self.units == self.dots && matches!(self.dots, 1 | 2) {
            Some(RootUriError::DotSegment)
        } else if self.units == 0 && !last {
            Some(RootUriError::EmptySegment)
        } else {
            None
        }
    }
}

/// Checks the segments after the leading `/`: none is a dot segment, none
/// is empty except the last (a trailing slash).
fn check_segments(path: &str, is_dot: fn(&str) -> bool) -> Result<(), PathError> {
    let mut segments = bytes::split_byte(path, b'/').peekable();
    while let Some(s) = segments.next() {
        if is_dot(s) {
            return Err(PathError::DotSegment);
        }
        if s.is_empty() && segments.peek().is_some() {
            return Err(PathError::EmptySegment);
        }
    }
    Ok(())
}

/// Writes a `ListRootsResult` (`{"roots":[...]}`) into `w`, after checking
/// every root URI; nothing is written if one is refused.
pub fn write_roots(w: &mut Writer<'_>, roots: &[Root<'_>]) -> Result<(), RootsError> {
    for (index, r) in roots.iter().enumerate() {
        check_root_uri(r.uri).map_err(|error| RootsError::InvalidRoot { index, error })?;
    }
    write_roots_result(w, roots);
    Ok(())
}

/// Writes a checked `ListRootsResult` into `out`; returns its length.
pub fn write_roots_into(out: &mut [u8], roots: &[Root<'_>]) -> Result<usize, RootsError> {
    let mut w = Writer::new(out);
    write_roots(&mut w, roots)?;
    w.finish()
        .map_err(|BufferTooSmall { needed }| RootsError::BufferTooSmall { needed })
}

/// Turns an absolute POSIX path into a `file://` URI in `out`. Every byte
/// other than letters, digits, `-._~` and `/` is percent-encoded
/// (uppercase hex), which every URI decoder reads back and no parser can
/// misread (`;`, `+`, `:`, `@` and non-ASCII included). The result passes
/// [`check_root_uri`].
pub fn path_to_file_uri<'b>(path: &str, out: &'b mut [u8]) -> Result<&'b str, PathError> {
    let rest = path.strip_prefix('/').ok_or(PathError::NotAbsolute)?;
    if bytes::contains_byte(path.as_bytes(), 0) {
        return Err(PathError::Nul);
    }
    check_segments(rest, |s| s == "." || s == "..")?;
    let needed = path.bytes().fold(SCHEME.len(), |n, b| {
        n.saturating_add(if is_unreserved(b) || b == b'/' { 1 } else { 3 })
    });
    let dst: &'b mut [u8] = out
        .get_mut(..needed)
        .ok_or(PathError::BufferTooSmall { needed })?;
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut w = Writer::new(&mut *dst);
    w.raw(SCHEME.as_bytes());
    for b in path.bytes() {
        if is_unreserved(b) || b == b'/' {
            w.byte(b);
        } else {
            let hi = HEX.get(usize::from(b >> 4)).copied().unwrap_or(b'0');
            let lo = HEX.get(usize::from(b & 15)).copied().unwrap_or(b'0');
            w.raw(&[b'%', hi, lo]);
        }
    }
    let dst: &'b [u8] = dst;
    // Only ASCII was written, exactly `needed` bytes.
    core::str::from_utf8(dst).map_err(|_| PathError::BufferTooSmall { needed })
}

#[cfg(test)]
mod tests;
