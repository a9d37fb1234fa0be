//! A JSON writer into a caller buffer that keeps counting when the buffer is
//! full, so a failed write reports the exact size needed.

use super::JsonStr;

/// The output buffer was too small; `needed` is the exact size required.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BufferTooSmall {
    /// Bytes the complete output needs.
    pub needed: usize,
}

impl core::fmt::Display for BufferTooSmall {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "output buffer too small: needs {} bytes", self.needed)
    }
}

impl core::error::Error for BufferTooSmall {}

/// Writes JSON text into `&mut [u8]`.
///
/// Every method appends; once the buffer is full the writer stops storing
/// bytes but keeps counting, and [`Writer::finish`] returns the full size.
/// The writer does no structural checking: callers emit well-formed JSON by
/// construction (the wire emitters are tested against the official schema).
#[derive(Debug)]
pub struct Writer<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl<'a> Writer<'a> {
    /// A writer that fills `buf` from the start.
    pub fn new(buf: &'a mut [u8]) -> Self {
        Writer { buf, len: 0 }
    }

    /// Bytes written so far (or that would have been written).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing has been written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether everything written so far fit in the buffer.
    pub fn fits(&self) -> bool {
        self.len <= self.buf.len()
    }

    /// The bytes written so far, if they all fit.
    pub fn written(&self) -> Option<&[u8]> {
        self.buf.get(..self.len)
    }

    /// Returns the output length, or the size needed if the buffer was short.
    pub fn finish(self) -> Result<usize, BufferTooSmall> {
        if self.fits() {
            Ok(self.len)
        } else {
            Err(BufferTooSmall { needed: self.len })
        }
    }

    /// Appends bytes as they are (caller guarantees they are valid JSON text
    /// in context).
    pub fn raw(&mut self, bytes: &[u8]) -> &mut Self {
        let end = self.len.saturating_add(bytes.len());
        // `..bytes.len()` of the rest: a length the compiler can see equals
        // the source's, so no length-mismatch panic path is emitted (a
        // `len..end` range with a saturating `end` left one per call site).
        let rest = self.buf.get_mut(self.len..);
        if let Some(dst) = rest.and_then(|r| r.get_mut(..bytes.len())) {
            crate::bytes::copy(dst, bytes);
        }
        self.len = end;
        self
    }

    /// Appends one byte.
    // Out of line: inlined, its bounds check and saturating count took
    // about 40 bytes at each of some 15 call sites on Cortex-M.
    #[inline(never)]
    pub fn byte(&mut self, b: u8) -> &mut Self {
        if let Some(dst) = self.buf.get_mut(self.len) {
            *dst = b;
        }
        self.len = self.len.saturating_add(1);
        self
    }

    /// Appends `s` as a quoted JSON string: `"` and `\` escaped, control
    /// characters as short escapes or `\u00XX`, everything else (non-ASCII
    /// included) as UTF-8.
    pub fn str(&mut self, s: &str) -> &mut Self {
        self.byte(b'"');
        self.escaped(s);
        self.byte(b'"')
    }

    /// Appends one quoted JSON string made of `parts` in order, each
    /// escaped as [`Writer::str`] escapes (a message naming a caller's
    /// value, without a staging copy).
    pub fn str_parts(&mut self, parts: &[&str]) -> &mut Self {
        self.byte(b'"');
        for p in parts {
            self.escaped(p);
        }
        self.byte(b'"')
    }

    /// Appends the inside of the JSON string `s` (no quotes).
    fn escaped(&mut self, s: &str) {
        // Copy the runs between bytes that need an escape in one go (those
        // bytes are all ASCII, so a run never splits a UTF-8 sequence);
        // most strings are a single run.
        let mut rest = s.as_bytes();
        while let Some(i) = rest.iter().position(|&b| needs_escape(b)) {
            let Some((run, tail)) = rest.split_at_checked(i) else {
                break;
            };
            let Some((&b, after)) = tail.split_first() else {
                break;
            };
            self.raw(run);
            self.escape(b);
            rest = after;
        }
        self.raw(rest);
    }

    /// Appends a string given as decoded characters.
    pub fn str_chars(&mut self, chars: impl Iterator<Item = char>) -> &mut Self {
        self.byte(b'"');
        self.escaped_inner(chars);
        self.byte(b'"')
    }

    /// Appends a validated JSON string token exactly as it came (escapes
    /// preserved), for byte-for-byte echoes such as `requestState`.
    pub fn json_str_raw(&mut self, s: &JsonStr<'_>) -> &mut Self {
        self.raw(s.raw_token())
    }

    fn escaped_inner(&mut self, chars: impl Iterator<Item = char>) {
        for c in chars {
            match u8::try_from(c) {
                Ok(b) if needs_escape(b) => self.escape(b),
                _ => {
                    let mut tmp = [0u8; 4];
                    self.raw(c.encode_utf8(&mut tmp).as_bytes());
                }
            }
        }
    }

    /// Appends the escape of `b`, a byte [`needs_escape`] names: a short
    /// escape where JSON has one, else `\u00XX`. Byte-wise, so `str` needs
    /// no char encoding.
    fn escape(&mut self, b: u8) {
        // `"` and `\` escape as themselves; the control characters 0x08
        // to 0x0d by this table (0: 0x0b has no short escape); the rest
        // have none.
        const SHORT: &[u8; 6] = b"btn\0fr";
        let short = if b >= 0x20 {
            b
        } else {
            SHORT
                .get(usize::from(b).wrapping_sub(8))
                .copied()
                .unwrap_or(0)
        };
        if short != 0 {
            self.byte(b'\\').byte(short);
        } else {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let v = usize::from(b);
            self.raw(b"\\u00");
            self.byte(HEX.get(v >> 4).copied().unwrap_or(b'0'));
            self.byte(HEX.get(v & 15).copied().unwrap_or(b'0'));
        }
    }

    /// Appends an unsigned integer.
    pub fn u64(&mut self, v: u64) -> &mut Self {
        // Decimal digits by long division of the value's 32-bit halves by
        // ten in 32-bit steps (a division by the constant ten is a multiply
        // there): a 64-bit division is a call into the soft-division helper
        // on 32-bit targets (about 900 bytes of code on Cortex-M).
        let mut tmp = [0u8; 20];
        let mut i = tmp.len();
        let mut hi = (v >> 32) as u32;
        let mut lo = v as u32;
        loop {
            // (hi, lo) / 10, remainder `r`: lo's 16-bit halves take the
            // remainder of the half above, so no step exceeds 32 bits.
            let mut r = hi % 10;
            hi /= 10;
            let upper = (r << 16) | (lo >> 16);
            r = upper % 10;
            let lower = (r << 16) | (lo & 0xffff);
            r = lower % 10;
            lo = ((upper / 10) << 16) | (lower / 10);
            i -= 1;
            if let Some(d) = tmp.get_mut(i) {
                *d = b'0' + r as u8;
            }
            if (hi == 0 && lo == 0) || i == 0 {
                break;
            }
        }
        let digits = tmp.get(i..).unwrap_or(&[]);
        self.raw(digits)
    }

    /// Appends a signed integer.
    pub fn i64(&mut self, v: i64) -> &mut Self {
        if v < 0 {
            self.byte(b'-');
        }
        self.u64(v.unsigned_abs())
    }

    /// Appends `"key":`.
    pub fn key(&mut self, k: &str) -> &mut Self {
        self.str(k);
        self.byte(b':')
    }

    /// Appends `,` unless `*first` is set; clears `*first`. A small helper
    /// for emitting members and elements in loops.
    pub fn comma(&mut self, first: &mut bool) -> &mut Self {
        if !*first {
            self.byte(b',');
        }
        *first = false;
        self
    }
}

/// Whether JSON text must escape the byte `b` inside a string: the quote,
/// the backslash and the control characters.
fn needs_escape(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20
}
