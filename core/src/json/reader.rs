//! The validating scanner and the span types that navigate validated input.

use super::{Error, ErrorKind, ParseLimits, MAX_DEPTH_LIMIT};

/// Returns `b[start..end]`, or an empty slice when the range is out of bounds.
/// Spans handed out by this module are always in bounds; the fallback keeps the
/// code free of panicking index operations.
#[inline]
fn sub(b: &[u8], start: usize, end: usize) -> &[u8] {
    b.get(start..end).unwrap_or(&[])
}

#[inline]
fn at(b: &[u8], i: usize) -> u8 {
    // 0 is never valid JSON at a position the scanner looks at, so it doubles
    // as the end-of-input marker.
    b.get(i).copied().unwrap_or(0)
}

#[inline]
fn skip_ws(b: &[u8], mut i: usize) -> usize {
    // Compact JSON: no whitespace at all, one comparison.
    if at(b, i) > b' ' {
        return i;
    }
    loop {
        // Indentation comes in runs of spaces: the run is measured a word
        // at a time (`w ^ SPACES` is zero exactly at the spaces, so its
        // lowest non-zero byte is the first byte that is not a space).
        if let Some(w) = word_at(b, i) {
            let x = w ^ SPACES;
            if x == 0 {
                i += 8;
                continue;
            }
            i += first(x);
        }
        match at(b, i) {
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            _ => return i,
        }
    }
}

// Word-at-a-time scanning: eight bytes per step through the runs that carry
// no syntax (string contents, the inside of skipped values, indentation).
// Classic SWAR bit tricks; in each mask the lowest set bit marks exactly the
// first matching byte (false positives can only sit above a true match), so
// `first` of a mask is the offset of the first byte of interest.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;
const SPACES: u64 = ONES * 0x20;

/// The eight bytes at `i` as a little-endian word, if there are eight.
#[inline]
fn word_at(b: &[u8], i: usize) -> Option<u64> {
    // A wrapped end is below the start, an empty range `get` refuses: two
    // comparisons, no overflow check.
    let chunk: [u8; 8] = b.get(i..i.wrapping_add(8))?.try_into().ok()?;
    Some(u64::from_le_bytes(chunk))
}

/// The high bit of each byte of `w` that equals `byte` (lowest one exact).
#[inline]
fn eq_mask(w: u64, byte: u8) -> u64 {
    let x = w ^ (ONES * u64::from(byte));
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// Offset within the word of the byte a non-zero mask flags first.
#[inline]
fn first(mask: u64) -> usize {
    (mask.trailing_zeros() / 8) as usize
}

fn end_or(b: &[u8], i: usize, kind: ErrorKind) -> Error {
    if i >= b.len() {
        Error::new(ErrorKind::UnexpectedEnd, i)
    } else {
        Error::new(kind, i)
    }
}

fn hex4(b: &[u8], i: usize) -> Option<u16> {
    let mut v: u16 = 0;
    for k in 0..4 {
        let d = match at(b, i + k) {
            c @ b'0'..=b'9' => c - b'0',
            c @ b'a'..=b'f' => c - b'a' + 10,
            c @ b'A'..=b'F' => c - b'A' + 10,
            _ => return None,
        };
        v = (v << 4) | u16::from(d);
    }
    Some(v)
}

/// The high bit of each byte of `w` that a string scan must look at: a
/// quote, a backslash, a control character (below 0x20) or a byte of a
/// multi-byte UTF-8 sequence (0x80 and up); lowest one exact. One mask for
/// the four: below the first such byte every byte is in 0x20..0x80 and is
/// neither quote nor backslash, so no subtraction borrows and none of the
/// terms sets a high bit there; at that byte one of them does (`x - 1`
/// wraps for the byte a XOR zeroed, `w - 0x20` for a control character, `w`
/// itself for a high byte).
#[inline(always)]
fn string_mask(w: u64) -> u64 {
    ((w ^ (ONES * u64::from(b'"'))).wrapping_sub(ONES)
        | (w ^ (ONES * u64::from(b'\\'))).wrapping_sub(ONES)
        | w.wrapping_sub(SPACES)
        | w)
        & HIGHS
}

/// Scans a string starting at the opening quote `b[i] == b'"'`.
/// Returns the offset just past the closing quote and whether it had escapes.
///
/// Inlined fast path for the common string, printable ASCII without escapes
/// that ends at least eight bytes before the input does: eight bytes a step
/// until the first byte that is a quote, a backslash, a control character
/// or not ASCII; a quote ends the string. Anything else goes on from that
/// byte in [`scan_string_full`] (nothing before it needs another look).
#[inline(always)]
fn scan_string(b: &[u8], i: usize) -> Result<(usize, bool), Error> {
    let mut j = i + 1;
    while let Some(w) = word_at(b, j) {
        let m = string_mask(w);
        if m == 0 {
            j += 8;
            continue;
        }
        j += first(m);
        if at(b, j) == b'"' {
            return Ok((j + 1, false));
        }
        break;
    }
    scan_string_full(b, j)
}

/// [`scan_string`] for every string, from `j` inside it (every byte
/// before `j` plain printable ASCII): escapes, UTF-8 (each multi-byte
/// sequence checked where it stands, so the text is read once), the
/// input's last bytes. Errors name the first fault in document order.
#[inline(never)]
fn scan_string_full(b: &[u8], mut j: usize) -> Result<(usize, bool), Error> {
    let mut escaped = false;
    loop {
        // Eight plain bytes at a time.
        if let Some(w) = word_at(b, j) {
            let m = string_mask(w);
            if m == 0 {
                j += 8;
                continue;
            }
            j += first(m);
        }
        let c = match b.get(j) {
            Some(&c) => c,
            None => return Err(Error::new(ErrorKind::UnexpectedEnd, j)),
        };
        match c {
            b'"' => return Ok((j + 1, escaped)),
            b'\\' => {
                escaped = true;
                match at(b, j + 1) {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => j += 2,
                    b'u' => {
                        let u = hex4(b, j + 2)
                            .ok_or_else(|| end_or(b, j + 2, ErrorKind::InvalidEscape))?;
                        if (0xDC00..=0xDFFF).contains(&u) {
                            return Err(Error::new(ErrorKind::LoneSurrogate, j));
                        }
                        if (0xD800..=0xDBFF).contains(&u) {
                            if at(b, j + 6) != b'\\' || at(b, j + 7) != b'u' {
                                return Err(Error::new(ErrorKind::LoneSurrogate, j));
                            }
                            let lo = hex4(b, j + 8)
                                .ok_or_else(|| end_or(b, j + 8, ErrorKind::InvalidEscape))?;
                            if !(0xDC00..=0xDFFF).contains(&lo) {
                                return Err(Error::new(ErrorKind::LoneSurrogate, j));
                            }
                            j += 12;
                        } else {
                            j += 6;
                        }
                    }
                    _ => return Err(end_or(b, j + 1, ErrorKind::InvalidEscape)),
                }
            }
            0x00..=0x1F => return Err(Error::new(ErrorKind::ControlCharacter, j)),
            // The common two-byte sequence (Latin, Greek, Cyrillic, ...)
            // without the general check's table: what it accepts for such a
            // lead byte.
            0xC2..=0xDF if matches!(at(b, j + 1), 0x80..=0xBF) => j += 2,
            0x80.. => j += utf8_sequence(b, j, c)?,
            _ => j += 1,
        }
    }
}

/// The length of the UTF-8 sequence whose lead byte `c` (0x80 or above)
/// is at `b[j]`, if it is a valid one (shortest form, no surrogate, at most
/// U+10FFFF: the second byte's range depends on the lead, the others are
/// continuation bytes). An input that ends inside it is
/// [`ErrorKind::UnexpectedEnd`].
fn utf8_sequence(b: &[u8], j: usize, c: u8) -> Result<usize, Error> {
    let (len, lo, hi) = match c {
        0xC2..=0xDF => (2, 0x80, 0xBF),
        0xE0 => (3, 0xA0, 0xBF),
        0xED => (3, 0x80, 0x9F),
        0xE1..=0xEF => (3, 0x80, 0xBF),
        0xF0 => (4, 0x90, 0xBF),
        0xF4 => (4, 0x80, 0x8F),
        0xF1..=0xF3 => (4, 0x80, 0xBF),
        _ => return Err(Error::new(ErrorKind::InvalidUtf8, j)),
    };
    for k in 1..len {
        let (lo, hi) = if k == 1 { (lo, hi) } else { (0x80, 0xBF) };
        if !(lo..=hi).contains(&at(b, j + k)) {
            return Err(if j + k >= b.len() {
                Error::new(ErrorKind::UnexpectedEnd, b.len())
            } else {
                Error::new(ErrorKind::InvalidUtf8, j)
            });
        }
    }
    Ok(len)
}

fn scan_digits(b: &[u8], mut i: usize) -> usize {
    while at(b, i).is_ascii_digit() {
        i += 1;
    }
    i
}

/// Scans a number starting at `b[i]` (a `-` or a digit). Returns its end.
pub(crate) fn scan_number(b: &[u8], i: usize) -> Result<usize, Error> {
    let mut j = i;
    if at(b, j) == b'-' {
        j += 1;
    }
    match at(b, j) {
        b'0' => {
            j += 1;
            if at(b, j).is_ascii_digit() {
                return Err(Error::new(ErrorKind::InvalidNumber, j));
            }
        }
        b'1'..=b'9' => j = scan_digits(b, j),
        _ => return Err(end_or(b, j, ErrorKind::InvalidNumber)),
    }
    if at(b, j) == b'.' {
        let k = scan_digits(b, j + 1);
        if k == j + 1 {
            return Err(end_or(b, k, ErrorKind::InvalidNumber));
        }
        j = k;
    }
    if matches!(at(b, j), b'e' | b'E') {
        j += 1;
        if matches!(at(b, j), b'+' | b'-') {
            j += 1;
        }
        let k = scan_digits(b, j);
        if k == j {
            return Err(end_or(b, k, ErrorKind::InvalidNumber));
        }
        j = k;
    }
    Ok(j)
}

fn scan_literal(b: &[u8], i: usize, lit: &[u8]) -> Result<usize, Error> {
    for (k, &c) in lit.iter().enumerate() {
        if at(b, i + k) != c {
            return Err(end_or(b, i + k, ErrorKind::UnexpectedByte));
        }
    }
    Ok(i + lit.len())
}

/// One bit per open container: 1 = object, 0 = array.
struct BitStack {
    bits: [u64; MAX_DEPTH_LIMIT / 64],
    depth: usize,
}

impl BitStack {
    fn push(&mut self, is_object: bool) {
        let (w, bit) = (self.depth / 64, self.depth % 64);
        if let Some(word) = self.bits.get_mut(w) {
            if is_object {
                *word |= 1 << bit;
            } else {
                *word &= !(1 << bit);
            }
        }
        self.depth += 1;
    }
    fn top_is_object(&self) -> bool {
        let d = self.depth.wrapping_sub(1);
        self.bits
            .get(d / 64)
            .map(|w| (w >> (d % 64)) & 1 == 1)
            .unwrap_or(false)
    }
}

/// Containers nested deeper than this are not recorded in a skip index
/// (their ancestors are; the stack array below stays 128 bytes).
const INDEX_MAX_DEPTH: usize = 32;

/// Containers shorter than this (brackets included) are not recorded in a
/// skip index: scanning them costs about what a lookup does, and the slots
/// go further on a long message.
pub const INDEX_MIN_LEN: usize = 32;

/// Where [`scan_value`] records containers: the caller's slots, how many are
/// filled, and the open slot of each nesting level.
struct Recorder<'s> {
    slots: &'s mut [IndexSlot],
    filled: usize,
    /// Per nesting level, the open container's slot plus one (wrapping), or
    /// 0 for none: "none" is the zero the array starts as, so making the
    /// recorder clears memory instead of filling it (a `memset` of its own,
    /// 184 bytes on Cortex-M).
    open: [u32; INDEX_MAX_DEPTH],
}

impl<'s> Recorder<'s> {
    const NONE: u32 = 0;

    fn new(slots: &'s mut [IndexSlot]) -> Self {
        Recorder {
            slots,
            filled: 0,
            open: [Self::NONE; INDEX_MAX_DEPTH],
        }
    }

    /// A non-empty container opens at `b[i]`, at nesting level `depth`
    /// (0 = outermost).
    #[inline]
    fn open(&mut self, b: &[u8], i: usize, depth: usize) {
        let Some(level) = self.open.get_mut(depth) else {
            return;
        };
        *level = Self::NONE;
        if let (Some(slot), Ok(n)) = (self.slots.get_mut(self.filled), u32::try_from(self.filled)) {
            *slot = IndexSlot {
                start: (b.as_ptr() as usize).wrapping_add(i),
                len: 0,
                skip: 1,
            };
            *level = n.wrapping_add(1);
            self.filled += 1;
        }
    }

    /// The container open at nesting level `depth` closes at `b[i]`.
    #[inline]
    fn close(&mut self, b: &[u8], i: usize, depth: usize) {
        // None (0) becomes u32::MAX, a slot no caller has: nothing to close.
        let Some(n) = self.open.get(depth).map(|tag| tag.wrapping_sub(1)) else {
            return;
        };
        if let Some(slot) = self.slots.get_mut(n as usize) {
            let len = (b.as_ptr() as usize)
                .wrapping_add(i + 1)
                .wrapping_sub(slot.start);
            // A container of 4 GiB or more keeps its slot (its descendants'
            // follow it) with length 0, which no lookup accepts: it is
            // scanned.
            slot.len = u32::try_from(len).unwrap_or(0);
            // Itself and its descendants: the next sibling's slot is `skip`
            // slots on.
            slot.skip = u32::try_from(self.filled.saturating_sub(n as usize)).unwrap_or(u32::MAX);
            // A short container is skipped as fast by scanning: hand its
            // slot back. Its descendants are shorter still and were handed
            // back first, so it holds the last slot filled.
            if len < INDEX_MIN_LEN && n as usize + 1 == self.filled {
                self.filled -= 1;
            }
        }
    }
}

/// Validates one value starting at `i` (after optional whitespace), with
/// nesting at most `max_depth`, recording non-empty containers in `rec`.
/// Returns `(value_start, value_end)`.
fn scan_value(
    b: &[u8],
    i: usize,
    max_depth: usize,
    rec: &mut Recorder<'_>,
) -> Result<(usize, usize), Error> {
    let max_depth = max_depth.min(MAX_DEPTH_LIMIT);
    let mut stack = BitStack {
        bits: [0; MAX_DEPTH_LIMIT / 64],
        depth: 0,
    };
    let mut i = skip_ws(b, i);
    let value_start = i;
    // Whether a member's key comes first (one call site of `scan_key`, so
    // it is inlined without a second copy).
    let mut key = false;
    'value: loop {
        if key {
            i = scan_key(b, i)?;
        }
        // Expecting a value at `i` (whitespace already skipped).
        match at(b, i) {
            open @ (b'{' | b'[') => {
                if stack.depth >= max_depth {
                    return Err(Error::new(ErrorKind::TooDeep, i));
                }
                let is_object = open == b'{';
                let open_at = i;
                stack.push(is_object);
                i = skip_ws(b, i + 1);
                let close = if is_object { b'}' } else { b']' };
                if at(b, i) == close {
                    stack.depth -= 1;
                    i += 1;
                } else {
                    rec.open(b, open_at, stack.depth - 1);
                    key = is_object;
                    continue 'value;
                }
            }
            b'"' => i = scan_string(b, i)?.0,
            b'-' | b'0'..=b'9' => i = scan_number(b, i)?,
            b't' => i = scan_literal(b, i, b"true")?,
            b'f' => i = scan_literal(b, i, b"false")?,
            b'n' => i = scan_literal(b, i, b"null")?,
            _ => return Err(end_or(b, i, ErrorKind::UnexpectedByte)),
        }
        // After a value: close containers or continue with a comma.
        loop {
            if stack.depth == 0 {
                return Ok((value_start, i));
            }
            i = skip_ws(b, i);
            let in_object = stack.top_is_object();
            match at(b, i) {
                b',' => {
                    i = skip_ws(b, i + 1);
                    key = in_object;
                    continue 'value;
                }
                b'}' if in_object => {
                    stack.depth -= 1;
                    rec.close(b, i, stack.depth);
                    i += 1;
                }
                b']' if !in_object => {
                    stack.depth -= 1;
                    rec.close(b, i, stack.depth);
                    i += 1;
                }
                _ => return Err(end_or(b, i, ErrorKind::UnexpectedByte)),
            }
        }
    }
}

/// Scans `"key" :` at `i` and returns the offset of the member's value.
#[inline(always)]
fn scan_key(b: &[u8], i: usize) -> Result<usize, Error> {
    if at(b, i) != b'"' {
        return Err(end_or(b, i, ErrorKind::UnexpectedByte));
    }
    let (j, _) = scan_string(b, i)?;
    let j = skip_ws(b, j);
    if at(b, j) != b':' {
        return Err(end_or(b, j, ErrorKind::UnexpectedByte));
    }
    Ok(skip_ws(b, j + 1))
}

/// Parses and validates a whole document with the default limits.
pub fn parse(input: &[u8]) -> Result<Value<'_>, Error> {
    parse_with(input, &ParseLimits::default())
}

/// [`parse`] for a document meant to be one string: the string, `None` for
/// a valid document of another kind, and otherwise the error `parse` gives.
/// A document that is one string token and nothing else (no whitespace
/// around it) is scanned where it stands, its escapes noted as it is read;
/// any other document, and any fault, goes through [`parse`].
pub fn parse_str(input: &[u8]) -> Result<Option<JsonStr<'_>>, Error> {
    if at(input, 0) == b'"' && input.len() <= ParseLimits::default().max_bytes {
        if let Ok((end, escaped)) = scan_string_full(input, 1) {
            if end == input.len() {
                return Ok(Some(JsonStr {
                    token: input,
                    escaped,
                }));
            }
        }
    }
    parse(input).map(|v| v.as_str())
}

/// Parses and validates a whole document: exactly one value, surrounded by
/// optional whitespace. The size limit is checked before reading.
pub fn parse_with<'a>(input: &'a [u8], limits: &ParseLimits) -> Result<Value<'a>, Error> {
    parse_indexed(input, limits, &mut [])
}

/// Validates the one value that starts at `input[at..]` (after optional
/// whitespace), at most `max_depth` deep, reading no byte past it: the
/// value and the offset just past it. For walking the elements of an
/// array one at a time when the array is too long to validate again for
/// each (a page of tools read by a cursor).
#[cfg(feature = "client")]
pub(crate) fn parse_value_at(
    input: &[u8],
    at: usize,
    max_depth: usize,
) -> Result<(Value<'_>, usize), Error> {
    let mut rec = Recorder::new(&mut []);
    let (start, end) = scan_value(input, at, max_depth, &mut rec)?;
    #[cfg(test)]
    super::walked::add(end.saturating_sub(at));
    Ok((
        Value {
            src: sub(input, start, end),
            ix: &[],
            plain: false,
        },
        end,
    ))
}

/// One slot of a skip index (see [`parse_indexed`]): where a container of
/// the document starts, how long it is, and how many slots it and its
/// descendants fill. 16 bytes on 64-bit targets (12 on 32-bit ones); the
/// fields are private, so a slot only ever holds what the reader recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct IndexSlot {
    /// Address of the container's first byte (`{` or `[`).
    start: usize,
    /// Its length in bytes, brackets included (0: not usable, scan it).
    len: u32,
    /// The slots of the container and of its recorded descendants (which
    /// follow it): the next recorded container after it is `skip` slots on.
    skip: u32,
}

impl IndexSlot {
    /// An unused slot, to initialise arrays: `[IndexSlot::EMPTY; 32]`.
    pub const EMPTY: IndexSlot = IndexSlot {
        start: 0,
        len: 0,
        skip: 0,
    };
}

/// [`parse_with`], recording a skip index into `slots`: the extent of every
/// object and array of at least [`INDEX_MIN_LEN`] bytes nested at most 32
/// deep, in document order, until the slots run out.
///
/// Navigation is lazy: walking an object's members skips each member's value
/// to find the next key, and without an index a skip scans the value's bytes
/// again, so a document walked level by level is scanned once per level. A
/// recorded container is skipped by looking its slot up instead (a walk of
/// siblings finds each one's slot directly, as each slot counts the slots
/// of its descendants; a walk that starts mid-object searches once). Containers past the last slot are scanned as with [`parse_with`],
/// so any number of slots (zero included) gives the same results; the first
/// ones in document order are the outer, most walked levels. The returned
/// spans borrow the slots. Slots are 16 bytes each (64-bit); a message of the
/// protocol has a few dozen such containers (the spec's InputRequiredResult
/// example, indented as the spec page shows it: 17); one slot per 48 bytes
/// of message recorded every such container of the benchmark inputs.
pub fn parse_indexed<'a>(
    input: &'a [u8],
    limits: &ParseLimits,
    slots: &'a mut [IndexSlot],
) -> Result<Value<'a>, Error> {
    if input.len() > limits.max_bytes {
        return Err(Error::new(ErrorKind::TooLarge, limits.max_bytes));
    }
    #[cfg(test)]
    super::walked::add(input.len());
    let mut rec = Recorder::new(slots);
    let (start, end) = scan_value(input, 0, limits.max_depth, &mut rec)?;
    let rest = skip_ws(input, end);
    if rest != input.len() {
        return Err(Error::new(ErrorKind::TrailingCharacters, rest));
    }
    let Recorder { slots, filled, .. } = rec;
    let slots: &'a [IndexSlot] = slots;
    Ok(Value {
        src: sub(input, start, end),
        ix: slots.get(..filled).unwrap_or(&[]),
        plain: false,
    })
}

/// Records the containers of the validated span `b` that [`parse_indexed`]
/// records (at least [`INDEX_MIN_LEN`] bytes, nested at most
/// [`INDEX_MAX_DEPTH`] deep, in document order, until the slots run out), as it does, without validating again: one pass of the
/// skipping scanner. Returns the number of slots filled.
fn index_validated(b: &[u8], slots: &mut [IndexSlot]) -> usize {
    let mut rec = Recorder::new(slots);
    let mut depth = 0usize;
    let mut j = 0usize;
    loop {
        j = to_structural(b, j);
        match b.get(j) {
            None => return rec.filled,
            Some(b'"') => {
                j = skip_string(b, j).0;
                continue;
            }
            Some(b'{' | b'[') => {
                // Empty ones too: they are short, so `close` hands their
                // slot back, as the validating scan never takes one.
                rec.open(b, j, depth);
                depth += 1;
            }
            Some(b'}' | b']') => {
                depth = depth.saturating_sub(1);
                rec.close(b, j, depth);
            }
            Some(_) => {}
        }
        j += 1;
    }
}

/// The end of the recorded container at `b[i]`, if `ix` has it.
#[inline]
fn indexed_end(b: &[u8], i: usize, ix: &[IndexSlot]) -> Option<usize> {
    if ix.is_empty() {
        return None;
    }
    let addr = (b.as_ptr() as usize).wrapping_add(i);
    let k = ix.binary_search_by(|s| s.start.cmp(&addr)).ok()?;
    slot_end(b, i, ix.get(k)?.len as usize)
}

// ---------------------------------------------------------------------------
// Navigation over validated spans. These never fail: their input was checked.

/// The offset of the first quote or bracket at or after `j`, eight bytes a
/// step; in the last seven bytes of `b` it stops at `j` (the caller reads
/// byte by byte there). `| 0x20` folds `[` onto `{` and `]` onto `}` (and
/// nothing else onto them).
#[inline]
fn to_structural(b: &[u8], mut j: usize) -> usize {
    while let Some(w) = word_at(b, j) {
        let folded = w | SPACES;
        let m = eq_mask(w, b'"') | eq_mask(folded, b'{') | eq_mask(folded, b'}');
        if m != 0 {
            return j + first(m);
        }
        j += 8;
    }
    j
}

/// The first slot at or after `from` whose container starts at or after
/// `addr` (slots are in document order, so this is where a container at
/// `addr` would be recorded); `ix.len()` past the end.
#[inline]
fn slot_from(ix: &[IndexSlot], from: usize, addr: usize) -> usize {
    let rest = ix.get(from..).unwrap_or(&[]);
    from.saturating_add(rest.partition_point(|s| s.start < addr))
}

/// [`skip_value`] for a walk of siblings that keeps a slot cursor `cur`: the
/// first slot that can belong to this value or a later sibling. Returns the
/// value's end, the first slot at or after the value's start (its own when
/// it is a recorded container), whether it is a string without escapes
/// (found while skipping it), and the cursor for the next sibling: past
/// the value's slot and its descendants' ([`IndexSlot::skip`]), so that a
/// walk of siblings looks each one's slot up directly; a search only when
/// the cursor is behind (a walk that did not start at the first member).
#[inline(always)]
fn skip_value_from(
    b: &[u8],
    i: usize,
    ix: &[IndexSlot],
    cur: usize,
) -> (usize, usize, usize, bool) {
    // Test-only: count the bytes scanned again (not those a slot skips).
    let walked = |end: usize| {
        #[cfg(test)]
        super::walked::add(end.saturating_sub(i));
        end
    };
    match at(b, i) {
        b'"' => {
            let (end, escaped) = skip_string(b, i);
            return (walked(end), cur, cur, !escaped);
        }
        b'{' | b'[' => {}
        _ => return (walked(skip_value(b, i, &[])), cur, cur, false),
    }
    let addr = (b.as_ptr() as usize).wrapping_add(i);
    let mut k = cur;
    let mut slot = ix.get(k);
    if slot.is_some_and(|s| s.start < addr) {
        k = slot_from(ix, k, addr);
        slot = ix.get(k);
    }
    if let Some(s) = slot {
        if s.start == addr {
            let end = slot_end(b, i, s.len as usize).unwrap_or_else(|| skip_value(b, i, &[]));
            return (end, k, k.saturating_add((s.skip as usize).max(1)), false);
        }
    }
    // Not recorded: neither is anything inside it.
    (walked(skip_value(b, i, &[])), k, k, false)
}

/// The end of a container at `b[i]` recorded with length `len`, checked.
#[inline]
fn slot_end(b: &[u8], i: usize, len: usize) -> Option<usize> {
    if len < 2 {
        return None;
    }
    let end = i.checked_add(len)?;
    // Recorded by the reader for this very document, so always true; checked
    // so that a wrong slot could only ever cost a rescan, never a bad span.
    (end <= b.len() && matches!(at(b, end.wrapping_sub(1)), b'}' | b']')).then_some(end)
}

/// Skips one validated value starting at `i`; returns its end. A container
/// recorded in `ix` is skipped without reading it.
fn skip_value(b: &[u8], i: usize, ix: &[IndexSlot]) -> usize {
    match at(b, i) {
        b'"' => skip_string(b, i).0,
        b'{' | b'[' => {
            // An empty one (`{}`, `[]`: capabilities, settings) ends at once.
            if matches!(at(b, i + 1), b'}' | b']') {
                return i + 2;
            }
            if let Some(end) = indexed_end(b, i, ix) {
                return end;
            }
            let mut depth = 0usize;
            let mut j = i;
            loop {
                j = to_structural(b, j);
                match b.get(j) {
                    None => return b.len(),
                    Some(b'"') => {
                        j = skip_string(b, j).0;
                        continue;
                    }
                    Some(b'{' | b'[') => depth += 1,
                    Some(b'}' | b']') => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return j + 1;
                        }
                    }
                    Some(_) => {}
                }
                j += 1;
            }
        }
        _ => {
            let mut j = i;
            while j < b.len()
                && !matches!(at(b, j), b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
            {
                j += 1;
            }
            j
        }
    }
}

/// Skips a validated string at `b[i] == b'"'`; returns the offset past its
/// closing quote and whether it has escapes.
fn skip_string(b: &[u8], i: usize) -> (usize, bool) {
    let mut j = i + 1;
    let mut escaped = false;
    loop {
        if let Some(w) = word_at(b, j) {
            // Quotes and backslashes, one `& !w` for both (as in
            // `string_mask`: the XORs keep each byte's high bit).
            let m = ((w ^ (ONES * u64::from(b'"'))).wrapping_sub(ONES)
                | (w ^ (ONES * u64::from(b'\\'))).wrapping_sub(ONES))
                & !w
                & HIGHS;
            if m == 0 {
                j += 8;
                continue;
            }
            j += first(m);
        }
        match b.get(j) {
            None => return (b.len(), escaped),
            Some(b'\\') => {
                escaped = true;
                j += 2;
            }
            Some(b'"') => return (j + 1, escaped),
            Some(_) => j += 1,
        }
    }
}

/// The JSON type of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `{...}`
    Object,
    /// `[...]`
    Array,
    /// `"..."`
    String,
    /// A number.
    Number,
    /// `true` or `false`.
    Bool,
    /// `null`.
    Null,
}

/// A validated JSON value: a span into the input, without surrounding whitespace.
///
/// Equality compares the bytes (not the skip index a span may carry).
#[derive(Clone, Copy)]
pub struct Value<'a> {
    src: &'a [u8],
    /// The document's skip index ([`parse_indexed`]), possibly empty.
    ix: &'a [IndexSlot],
    /// Known to be a string without escapes (the walk that found the value
    /// skipped it and saw none), so [`Value::as_str`] need not look again;
    /// `false` when not known.
    plain: bool,
}

/// The value of `text` when it is an integer literal (`-?digits`, no
/// fraction, no exponent) that fits `i64`; `None` otherwise.
pub(crate) fn integer_literal_i64(text: &[u8]) -> Option<i64> {
    let (neg, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut v: i64 = 0;
    for &d in digits {
        let d = i64::from(d - b'0');
        v = v.checked_mul(10)?;
        v = if neg {
            v.checked_sub(d)?
        } else {
            v.checked_add(d)?
        };
    }
    Some(v)
}

/// Debug, equality and hashing of the span types look at their bytes only.
macro_rules! span_traits {
    ($t:ident) => {
        impl core::fmt::Debug for $t<'_> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($t))
                    .field("src", &self.src)
                    .finish()
            }
        }
        impl PartialEq for $t<'_> {
            fn eq(&self, other: &Self) -> bool {
                self.src == other.src
            }
        }
        impl Eq for $t<'_> {}
    };
}
span_traits!(Value);
span_traits!(Object);
span_traits!(Array);

impl<'a> Value<'a> {
    /// The exact bytes of the value as they appeared in the input.
    pub fn raw(&self) -> &'a [u8] {
        self.src
    }

    /// The value over `src`, a span this crate validated as one JSON value
    /// (no surrounding whitespace) and kept, such as a call's copy of the
    /// `inputRequests` it received: read again without a second validation.
    /// Navigation only uses checked access, so on any other bytes it reads
    /// nonsense but never fails or panics.
    #[cfg_attr(not(feature = "client"), allow(dead_code))] // used by client::exchange
    pub(crate) fn of_validated(src: &'a [u8]) -> Value<'a> {
        Value {
            src,
            ix: &[],
            plain: false,
        }
    }

    /// The value's JSON type.
    pub fn kind(&self) -> Kind {
        match at(self.src, 0) {
            b'{' => Kind::Object,
            b'[' => Kind::Array,
            b'"' => Kind::String,
            b't' | b'f' => Kind::Bool,
            b'n' => Kind::Null,
            _ => Kind::Number,
        }
    }

    /// This value with a skip index in `slots`, built in one pass of the
    /// skipping scanner (the value was validated when it was parsed), for a
    /// value parsed without one that is about to be walked level by level.
    /// Reads exactly as `self` does (see [`parse_indexed`]); the result
    /// borrows the slots.
    pub fn with_index<'s>(&self, slots: &'s mut [IndexSlot]) -> Value<'s>
    where
        'a: 's,
    {
        let filled = index_validated(self.src, slots);
        let slots: &'s [IndexSlot] = slots;
        Value {
            src: self.src,
            ix: slots.get(..filled).unwrap_or(&[]),
            plain: false,
        }
    }

    /// The value as an object, if it is one.
    pub fn as_object(&self) -> Option<Object<'a>> {
        (self.kind() == Kind::Object).then_some(Object {
            src: self.src,
            ix: self.ix,
        })
    }

    /// The value as an array, if it is one.
    pub fn as_array(&self) -> Option<Array<'a>> {
        (self.kind() == Kind::Array).then_some(Array {
            src: self.src,
            ix: self.ix,
        })
    }

    /// The value as a string, if it is one.
    pub fn as_str(&self) -> Option<JsonStr<'a>> {
        if self.plain {
            return Some(JsonStr {
                token: self.src,
                escaped: false,
            });
        }
        (self.kind() == Kind::String).then(|| JsonStr::from_token(self.src))
    }

    /// The value as a boolean, if it is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self.src {
            b"true" => Some(true),
            b"false" => Some(false),
            _ => None,
        }
    }

    /// Whether the value is `null`.
    pub fn is_null(&self) -> bool {
        self.src == b"null"
    }

    /// The value as a signed integer: only an integer literal (no fraction, no
    /// exponent) that fits in `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        if self.kind() != Kind::Number {
            return None;
        }
        integer_literal_i64(self.src)
    }

    /// The value as an unsigned integer (integer literal that fits in `u64`).
    pub fn as_u64(&self) -> Option<u64> {
        if self.kind() != Kind::Number || !self.src.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let mut v: u64 = 0;
        for &d in self.src {
            v = v.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
        }
        Some(v)
    }

    /// Whether the value is a number (any form).
    pub fn is_number(&self) -> bool {
        self.kind() == Kind::Number
    }
}

/// How many keys [`Object::check_unique_keys`] compares per walk of the
/// earlier members (a stack array of this many key offsets and hashes, 640
/// bytes on 64-bit targets).
pub const UNIQUE_KEYS_BLOCK: usize = 40;

/// How many keys of the open objects [`Value::check_unique_keys_deep`]
/// holds at once (offset and hash, or offset and text length: 8 bytes
/// each, on the stack); an object whose keys do not fit is checked on
/// its own with [`Object::check_unique_keys`] when it closes.
pub const DEEP_KEYS: usize = 128;

/// How many nested objects [`Value::check_unique_keys_deep`] follows with
/// its key stack; an object nested deeper is checked on its own with
/// [`Object::check_unique_keys`] (the default parse depth,
/// [`super::DEFAULT_MAX_DEPTH`], never gets there).
pub const DEEP_OBJECTS: usize = 32;

/// The most members [`Value::check_unique_keys_deep`] accepts in an object
/// that it checks on its own (one whose keys do not fit the key stack):
/// more is [`ErrorKind::TooManyMembers`]. It bounds the work of a hostile
/// document: such a check costs about members² / (2 x 128) member steps
/// (it takes the keys in blocks of 128), so a megabyte of large objects
/// stays within a few tens of validations of it.
pub const DEEP_MAX_MEMBERS: usize = 1024;

/// How many keys of one object [`Value::check_unique_keys_deep`] tags with
/// their text's length instead of its hash (a key is compared with the
/// earlier ones of equal tag): the few keys of a short object cost less to
/// compare than to hash. Past this count the earlier keys are hashed, and
/// every later one is, as in a wide object.
pub const DEEP_DIRECT_KEYS: usize = 8;

/// One open object of [`Value::check_unique_keys_deep`]: where it starts,
/// where its keys start on the key stack, whether they overflowed it, and
/// whether their entries hold hashes (else text lengths).
#[derive(Clone, Copy, Default)]
struct OpenObject {
    start: usize,
    base: usize,
    full: bool,
    hashed: bool,
}

impl<'a> Value<'a> {
    /// Checks that no object anywhere in this value (itself included, at
    /// any depth, inside arrays too) has a key twice, keys compared by
    /// their decoded text. The error ([`ErrorKind::DuplicateKey`]) names
    /// the repeated member (offset of its value within this value).
    ///
    /// Cost: one pass over the bytes. The keys of the open objects are
    /// held on a stack of [`DEEP_KEYS`] entries, so a key is compared only
    /// with the earlier keys of its own object: directly while the object
    /// has at most [`DEEP_DIRECT_KEYS`] keys, by hash first past that; an
    /// object whose keys do not fit, or nested deeper than [`DEEP_OBJECTS`]
    /// objects, is checked with [`Object::check_unique_keys`] instead (its
    /// own pass, through the skip index when the value has one), and may
    /// have at most [`DEEP_MAX_MEMBERS`] members
    /// ([`ErrorKind::TooManyMembers`]). No allocation, no recursion.
    pub fn check_unique_keys_deep(&self) -> Result<(), Error> {
        self.check_unique_keys_deep_past(None)
    }

    /// [`Value::check_unique_keys_deep`], told of one string `known` that a
    /// member of an object in this value has as its value (a member the
    /// caller has read already, such as a request's long `requestState`):
    /// that value is stepped over by its length instead of scanned again.
    /// The result is the same whatever `known` is; only a string at the
    /// place of a member value in this value saves the scan.
    pub(crate) fn check_unique_keys_deep_past(
        &self,
        known: Option<JsonStr<'_>>,
    ) -> Result<(), Error> {
        let b = self.src;
        // Where `known` starts in `b` (`usize::MAX`: not in `b`) and its
        // length: a string that starts there is that very token.
        let (known_at, known_len) = known.map_or((usize::MAX, 0), |k| {
            let t = k.raw_token();
            let at = (t.as_ptr() as usize).wrapping_sub(b.as_ptr() as usize);
            match at.checked_add(t.len()).is_some_and(|end| end <= b.len()) {
                true => (at, t.len()),
                false => (usize::MAX, 0),
            }
        });
        let ix = self.ix;
        let mut keys = [(0u32, 0u32); DEEP_KEYS];
        let mut nkeys = 0usize;
        let mut open = [OpenObject::default(); DEEP_OBJECTS];
        let mut nopen = 0usize;
        // Objects open beyond `open` (always the innermost ones).
        let mut unframed = 0usize;
        let base = b.as_ptr() as usize;
        let on_its_own = |start: usize, end: usize| -> Result<(), Error> {
            let from = ix.partition_point(|s| s.start < base.wrapping_add(start));
            let o = Object {
                src: sub(b, start, end),
                ix: ix.get(from..).unwrap_or(&[]),
            };
            o.unique_keys_large()
                .map_err(|e| Error::new(e.kind, e.offset.saturating_add(start)))
        };
        let mut i = 0usize;
        while i < b.len() {
            match at(b, i) {
                b'"' => {
                    let (end, escaped) = skip_string(b, i);
                    let j = skip_ws(b, end);
                    // In validated JSON a string followed by a colon is a key
                    // of the innermost open container, an object.
                    if at(b, j) != b':' {
                        i = j;
                        continue;
                    }
                    if unframed == 0 {
                        if let Some(top) = nopen.checked_sub(1).and_then(|t| open.get_mut(t)) {
                            if !top.full {
                                let key = JsonStr {
                                    token: sub(b, i, end),
                                    escaped,
                                };
                                if !top.hashed && nkeys.saturating_sub(top.base) >= DEEP_DIRECT_KEYS
                                {
                                    // Past the direct count: hash the earlier keys.
                                    for e in keys.get_mut(top.base..nkeys).unwrap_or(&mut []) {
                                        e.1 = key_token_at(b, e.0 as usize).text_hash();
                                    }
                                    top.hashed = true;
                                }
                                // The tag: the text's length until then, else its
                                // hash; equal texts have equal tags either way.
                                let h = match top.hashed {
                                    false => u32::try_from(key.decoded_len()).unwrap_or(u32::MAX),
                                    true => key.text_hash(),
                                };
                                let earlier = keys.get(top.base..nkeys).unwrap_or(&[]);
                                let repeated = earlier.iter().any(|&(o, t)| {
                                    t == h && key_token_at(b, o as usize).eq_json_str(&key)
                                });
                                if repeated {
                                    return Err(Error::new(
                                        ErrorKind::DuplicateKey,
                                        skip_ws(b, j + 1),
                                    ));
                                }
                                match (keys.get_mut(nkeys), u32::try_from(i)) {
                                    (Some(slot), Ok(at)) => {
                                        *slot = (at, h);
                                        nkeys += 1;
                                    }
                                    _ => top.full = true,
                                }
                            }
                        }
                    }
                    // The key's value: a string is skipped here, as it cannot
                    // be a key (no colon test for it).
                    i = skip_ws(b, j + 1);
                    if at(b, i) == b'"' {
                        i = match i == known_at {
                            true => i + known_len,
                            false => skip_string(b, i).0,
                        };
                    }
                }
                b'{' => {
                    match open.get_mut(nopen) {
                        Some(o) if unframed == 0 => {
                            *o = OpenObject {
                                start: i,
                                base: nkeys,
                                full: false,
                                hashed: false,
                            };
                            nopen += 1;
                        }
                        _ => {
                            let end = skip_value(b, i, ix);
                            on_its_own(i, end)?;
                            unframed += 1;
                        }
                    }
                    i += 1;
                }
                b'}' => {
                    if unframed > 0 {
                        unframed -= 1;
                    } else if let Some(o) = nopen.checked_sub(1).and_then(|t| open.get(t)) {
                        if o.full {
                            on_its_own(o.start, i + 1)?;
                        }
                        nkeys = o.base;
                        nopen -= 1;
                    }
                    i += 1;
                }
                _ => i += 1,
            }
        }
        Ok(())
    }
}

/// How many keys [`Value::check_unique_keys_deep`] takes in a block when
/// it checks a large object on its own ([`Object::check_unique_keys`]
/// takes [`UNIQUE_KEYS_BLOCK`]).
const SORTED_BLOCK: usize = 128;

/// Sorts a block of (hash, offset) pairs in place by binary insertion:
/// every access is checked without a panic path (the library sort keeps
/// one for an inconsistent order, and the footprint report counts it), and
/// a block has at most [`SORTED_BLOCK`] entries, so the moves stay small.
pub(super) fn sort_block(block: &mut [(u32, usize)]) {
    for i in 1..block.len() {
        let Some(&item) = block.get(i) else {
            break;
        };
        let (mut lo, mut hi) = (0, i);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let Some(&other) = block.get(mid) else {
                break;
            };
            if other <= item {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        crate::bytes::rotate_right_1(block, lo, i);
    }
}

/// The key token at `offset` of `b` (an opening quote).
fn key_token_at(b: &[u8], offset: usize) -> JsonStr<'_> {
    let (end, escaped) = skip_string(b, offset);
    JsonStr {
        token: sub(b, offset, end),
        escaped,
    }
}

/// A validated JSON object.
#[derive(Clone, Copy)]
pub struct Object<'a> {
    src: &'a [u8],
    ix: &'a [IndexSlot],
}

impl<'a> Object<'a> {
    /// The exact bytes of the object.
    pub fn raw(&self) -> &'a [u8] {
        self.src
    }

    /// The object as a [`Value`].
    pub fn as_value(&self) -> Value<'a> {
        Value {
            src: self.src,
            ix: self.ix,
            plain: false,
        }
    }

    /// This object with a skip index in `slots`: see [`Value::with_index`].
    pub fn with_index<'s>(&self, slots: &'s mut [IndexSlot]) -> Object<'s>
    where
        'a: 's,
    {
        let v = self.as_value().with_index(slots);
        Object {
            src: v.src,
            ix: v.ix,
        }
    }

    /// The members in document order.
    pub fn iter(&self) -> Members<'a> {
        Members {
            src: self.src,
            ix: self.ix,
            pos: 1,
            cur: own_slot_skipped(self.src, self.ix),
        }
    }

    /// The first member's key, its value not read (a walk of the members
    /// skips each value to reach the next key).
    pub(crate) fn first_key(&self) -> Option<JsonStr<'a>> {
        let i = skip_ws(self.src, 1);
        (at(self.src, i) == b'"').then(|| key_token_at(self.src, i))
    }

    /// Whether the object has no members.
    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }

    /// Number of members (duplicates counted).
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// The first member named `key` (escapes in the document's key are decoded
    /// before comparing).
    pub fn get(&self, key: &str) -> Option<Value<'a>> {
        self.iter().find(|(k, _)| k.eq_str(key)).map(|(_, v)| v)
    }

    /// The member named `key`, failing with [`ErrorKind::DuplicateKey`] if it
    /// occurs more than once.
    pub fn get_unique(&self, key: &str) -> Result<Option<Value<'a>>, Error> {
        // The loop of get_unique_many, for one key: one body in the image.
        let [found] = self.get_unique_many([key]);
        found
    }

    /// Looks up several keys in one pass over the members (each
    /// [`Object::get_unique`] is a pass of its own, skipping every value on
    /// the way). Entry `i` of the result is what `get_unique(keys[i])`
    /// returns.
    pub fn get_unique_many<const N: usize>(
        &self,
        keys: [&str; N],
    ) -> [Result<Option<Value<'a>>, Error>; N] {
        let mut out: [Result<Option<Value<'a>>, Error>; N] = [Ok(None); N];
        self.get_unique_into(&keys, &mut out);
        out
    }

    /// The body of [`Object::get_unique_many`], one copy for every `N`
    /// (monomorphised, it was one per key count: about 300 bytes each on
    /// Cortex-M). Entry `i` of `out` (as long as `keys`, all `Ok(None)`)
    /// receives what `get_unique(keys[i])` returns.
    fn get_unique_into(&self, keys: &[&str], out: &mut [Result<Option<Value<'a>>, Error>]) {
        for (k, v) in self.iter() {
            for (slot, key) in out.iter_mut().zip(keys) {
                if k.eq_str(key) {
                    *slot = match *slot {
                        Ok(None) => Ok(Some(v)),
                        Ok(Some(_)) => Err(Error::new(ErrorKind::DuplicateKey, self.offset_of(v))),
                        Err(e) => Err(e),
                    };
                }
            }
        }
    }

    /// Checks that no key occurs twice and that there are at most
    /// `max_members` members. The error names the first offending member in
    /// document order (offset of its value).
    ///
    /// Cost: keys are compared in blocks of [`UNIQUE_KEYS_BLOCK`] held on the
    /// stack, so earlier members are re-walked once per block rather than
    /// once per member. (Re-walking per member also re-skips every earlier
    /// value, which made the check quadratic in the *bytes* of the object,
    /// not just in its member count: ~46x the validation cost on a 1 MiB map.)
    pub fn check_unique_keys(&self, max_members: usize) -> Result<usize, Error> {
        self.check_unique_keys_visit(max_members, &mut |_, _| {})
    }

    /// [`Object::check_unique_keys`], handing each member it walks to
    /// `visit` on the way, in document order: the check's own walk is the
    /// only one, where a check followed by a walk of the members reads
    /// them twice. Every member up to the check's end is visited (none
    /// past `max_members`), also when the check then fails: a caller that
    /// reads the members in `visit` keeps its own errors and reports them
    /// only when the check succeeds, so the check's errors come first as
    /// they would after a separate check. `visit` is a `dyn` so that
    /// there is one body of the check in an image.
    pub(crate) fn check_unique_keys_visit(
        &self,
        max_members: usize,
        visit: &mut dyn FnMut(JsonStr<'a>, Value<'a>),
    ) -> Result<usize, Error> {
        let mut block = [(0u32, 0usize); UNIQUE_KEYS_BLOCK];
        self.unique_keys_in_blocks(max_members, &mut block, visit)
    }

    /// The one body of the repeat checks of an object's keys
    /// ([`Object::check_unique_keys_visit`], and
    /// [`Value::check_unique_keys_deep`] for an object it checks on its
    /// own), in blocks of `block.len()` keys: each key as a hash of its
    /// decoded text and its offset, a block sorted by both, so that keys
    /// of equal hash are neighbours in document order; every key of the
    /// earlier blocks is looked up in it by binary search. Keys are
    /// compared only when their hashes agree, read again from their
    /// offsets. An object of n members costs about n² / (2 x the block
    /// length) member steps. Visits every member up to the check's end
    /// (none past `max_members`); the error names the first member, in
    /// document order, equal to an earlier one (its value's offset), and
    /// only then the first member past `max_members`.
    fn unique_keys_in_blocks(
        &self,
        max_members: usize,
        block: &mut [(u32, usize)],
        visit: &mut dyn FnMut(JsonStr<'a>, Value<'a>),
    ) -> Result<usize, Error> {
        let mut members = self.iter();
        let mut seen = 0usize; // members checked in earlier blocks
        loop {
            // Fill the next block, stopping at the member limit.
            let mut len = 0usize;
            let mut over_limit = None;
            for slot in block.iter_mut() {
                let Some((k, v)) = members.next() else { break };
                if seen + len >= max_members {
                    over_limit = Some(v);
                    break;
                }
                *slot = (k.text_hash(), self.key_offset(&k));
                len += 1;
                visit(k, v);
            }
            let filled = block.get_mut(..len).unwrap_or(&mut []);
            sort_block(filled);
            let filled: &[(u32, usize)] = filled;
            // The least offset of a key equal to an earlier one: in the
            // block (an earlier key of equal hash sorts just before it) or
            // in an earlier block (one walk, each looked up by its hash).
            let mut first_dup = usize::MAX;
            for (i, &(h, at)) in filled.iter().enumerate() {
                let before = filled.get(..i).unwrap_or(&[]);
                // Read the key again only if an earlier one shares its hash.
                if at < first_dup && before.last().is_some_and(|&(hb, _)| hb == h) {
                    let key = self.key_at(at);
                    if before
                        .iter()
                        .rev()
                        .take_while(|&&(hb, _)| hb == h)
                        .any(|&(_, o)| self.key_at(o).eq_json_str(&key))
                    {
                        first_dup = at;
                    }
                }
            }
            for (prev, _) in self.iter().take(seen) {
                let h = prev.text_hash();
                let from = filled.partition_point(|&(x, _)| x < h);
                let same = filled.get(from..).unwrap_or(&[]);
                if let Some(&(_, at)) = same
                    .iter()
                    .take_while(|&&(x, _)| x == h)
                    .find(|&&(_, at)| at < first_dup && prev.eq_json_str(&self.key_at(at)))
                {
                    first_dup = at;
                }
            }
            if first_dup != usize::MAX {
                let at = first_dup;
                let offset = self.member_at(at).map_or(at, |(_, v)| self.offset_of(v));
                return Err(Error::new(ErrorKind::DuplicateKey, offset));
            }
            if let Some(v) = over_limit {
                return Err(Error::new(ErrorKind::TooManyMembers, self.offset_of(v)));
            }
            seen += len;
            if len == 0 || len < block.len() {
                return Ok(seen);
            }
        }
    }

    /// [`Object::unique_keys_in_blocks`] for an object the deep check takes
    /// on its own: blocks of [`SORTED_BLOCK`], up to [`DEEP_MAX_MEMBERS`].
    /// Not inlined, so that its block is on the stack only while it runs
    /// (the deep check's frame stays as deep as its key stack).
    #[inline(never)]
    fn unique_keys_large(&self) -> Result<(), Error> {
        let mut block = [(0u32, 0usize); SORTED_BLOCK];
        self.unique_keys_in_blocks(DEEP_MAX_MEMBERS, &mut block, &mut |_, _| {})
            .map(|_| ())
    }

    /// The key whose opening quote is at `offset` (from [`Object::key_offset`]).
    fn key_at(&self, offset: usize) -> JsonStr<'a> {
        let (end, escaped) = skip_string(self.src, offset);
        JsonStr {
            token: sub(self.src, offset, end),
            escaped,
        }
    }

    fn offset_of(&self, v: Value<'a>) -> usize {
        self.offset_in(v.src)
    }

    fn offset_in(&self, span: &[u8]) -> usize {
        (span.as_ptr() as usize).wrapping_sub(self.src.as_ptr() as usize)
    }

    /// Byte offset of a member's key within this object, for a key that this
    /// object's [`Object::iter`] returned.
    pub(crate) fn key_offset(&self, key: &JsonStr<'a>) -> usize {
        (key.token.as_ptr() as usize).wrapping_sub(self.src.as_ptr() as usize)
    }

    /// The bytes after the opening quote of the key at `offset` (from
    /// [`Object::key_offset`]) up to the end of the object, so that keys can
    /// be compared (see [`Chars::from_key_tail`]) without first finding where
    /// they end.
    #[cfg_attr(not(feature = "seal"), allow(dead_code))] // used by seal::canon
    pub(crate) fn key_tail_at(&self, offset: usize) -> &'a [u8] {
        sub(self.src, offset.saturating_add(1), self.src.len())
    }

    /// The member whose key starts at `offset` (from [`Object::key_offset`]).
    pub(crate) fn member_at(&self, offset: usize) -> Option<(JsonStr<'a>, Value<'a>)> {
        if at(self.src, offset) != b'"' {
            return None;
        }
        Members {
            src: self.src,
            ix: self.ix,
            pos: offset,
            cur: 0,
        }
        .next()
    }
}

/// 1 when the first slot of `ix` is the container `src` itself (a span's
/// index starts at its own slot when it has one), else 0: where a walk of
/// its children starts its slot cursor.
#[inline]
fn own_slot_skipped(src: &[u8], ix: &[IndexSlot]) -> usize {
    usize::from(ix.first().is_some_and(|s| s.start == src.as_ptr() as usize))
}

/// Iterator over an object's members.
#[derive(Debug, Clone)]
pub struct Members<'a> {
    src: &'a [u8],
    /// The document's skip index from some slot at or before the first one
    /// inside this object on (a value's index may start at its own slot).
    ix: &'a [IndexSlot],
    pos: usize,
    /// The slot at or before the next container member's (see [`slot_from`]).
    cur: usize,
}

impl<'a> Iterator for Members<'a> {
    type Item = (JsonStr<'a>, Value<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.src;
        let mut i = skip_ws(b, self.pos);
        if at(b, i) == b',' {
            i = skip_ws(b, i + 1);
        }
        if at(b, i) != b'"' {
            self.pos = b.len();
            return None;
        }
        let (key_end, escaped) = skip_string(b, i);
        let key = JsonStr {
            token: sub(b, i, key_end),
            escaped,
        };
        let mut j = skip_ws(b, key_end);
        j = skip_ws(b, j + 1); // the colon
        let (end, k, next, plain) = skip_value_from(b, j, self.ix, self.cur);
        self.pos = end;
        self.cur = next;
        Some((
            key,
            Value {
                src: sub(b, j, end),
                ix: self.ix.get(k..).unwrap_or(&[]),
                plain,
            },
        ))
    }
}

/// The array `src`, which a validation of the document it is part of
/// found to be one (walked without an index).
#[cfg(feature = "client")]
pub(crate) fn validated_array(src: &[u8]) -> Array<'_> {
    Array { src, ix: &[] }
}

/// A validated JSON array.
#[derive(Clone, Copy)]
pub struct Array<'a> {
    src: &'a [u8],
    ix: &'a [IndexSlot],
}

impl<'a> Array<'a> {
    /// The exact bytes of the array.
    pub fn raw(&self) -> &'a [u8] {
        self.src
    }
    /// The elements in order.
    pub fn iter(&self) -> Elements<'a> {
        Elements {
            src: self.src,
            ix: self.ix,
            pos: 1,
            cur: own_slot_skipped(self.src, self.ix),
        }
    }
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.iter().count()
    }
    /// Whether the array is empty.
    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }
}

/// Iterator over an array's elements.
#[derive(Debug, Clone)]
pub struct Elements<'a> {
    src: &'a [u8],
    /// As in [`Members`].
    ix: &'a [IndexSlot],
    pos: usize,
    /// As in [`Members`].
    cur: usize,
}

impl<'a> Iterator for Elements<'a> {
    type Item = Value<'a>;
    fn next(&mut self) -> Option<Value<'a>> {
        let b = self.src;
        let mut i = skip_ws(b, self.pos);
        if at(b, i) == b',' {
            i = skip_ws(b, i + 1);
        }
        if matches!(at(b, i), b']' | 0) {
            self.pos = b.len();
            return None;
        }
        let (end, k, next, plain) = skip_value_from(b, i, self.ix, self.cur);
        self.pos = end;
        self.cur = next;
        Some(Value {
            src: sub(b, i, end),
            ix: self.ix.get(k..).unwrap_or(&[]),
            plain,
        })
    }
}

/// Writes the decoded text (escapes resolved, no quotes): `{}` of the
/// token `"He said \"hi\""` is `He said "hi"`. `{:?}` shows the token.
impl core::fmt::Display for JsonStr<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if let Some(s) = self.as_borrowed() {
            return f.write_str(s);
        }
        self.chars()
            .try_for_each(|c| core::fmt::Write::write_char(f, c))
    }
}

/// A validated JSON string: the token as it appeared, quotes and escapes
/// included, so it can be echoed byte for byte or decoded on demand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonStr<'a> {
    token: &'a [u8],
    escaped: bool,
}

impl<'a> JsonStr<'a> {
    fn from_token(token: &'a [u8]) -> Self {
        let inner = sub(token, 1, token.len().saturating_sub(1));
        JsonStr {
            token,
            escaped: inner.contains(&b'\\'),
        }
    }

    /// The exact token bytes, including the surrounding quotes.
    pub fn raw_token(&self) -> &'a [u8] {
        self.token
    }

    /// The bytes between the quotes, escapes not decoded.
    pub fn raw_inner(&self) -> &'a [u8] {
        sub(self.token, 1, self.token.len().saturating_sub(1))
    }

    /// Whether the token contains backslash escapes.
    pub fn has_escapes(&self) -> bool {
        self.escaped
    }

    /// The text without copying, when the token has no escapes; `None`
    /// when it has any (`"caf\u00e9"`), even though it is valid text. To
    /// compare with a name use [`Self::eq_str`]; to show or copy the text
    /// use [`Self::chars`] or the `Display` impl (`{}` writes the decoded
    /// text), which work whether or not the token has escapes.
    pub fn as_borrowed(&self) -> Option<&'a str> {
        if self.escaped {
            None
        } else {
            core::str::from_utf8(self.raw_inner()).ok()
        }
    }

    /// The decoded characters.
    pub fn chars(&self) -> Chars<'a> {
        Chars {
            b: self.raw_inner(),
            i: 0,
        }
    }

    /// Writes the decoded text to `f` character by character (no copy, no
    /// allocation), for `Display` impls.
    pub(crate) fn write_chars(&self, f: &mut impl core::fmt::Write) -> core::fmt::Result {
        self.chars().try_for_each(|c| f.write_char(c))
    }

    /// Length of the decoded text in UTF-8 bytes.
    pub fn decoded_len(&self) -> usize {
        if !self.escaped {
            return self.raw_inner().len();
        }
        self.chars().map(char::len_utf8).sum()
    }

    /// Whether the decoded text equals `s`.
    pub fn eq_str(&self, s: &str) -> bool {
        if !self.escaped {
            return self.raw_inner() == s.as_bytes();
        }
        self.chars().eq(s.chars())
    }

    /// FNV-1a of the decoded text's UTF-8 bytes: equal texts hash equally,
    /// however they are escaped.
    fn text_hash(&self) -> u32 {
        let mut h: u32 = 0x811c_9dc5;
        let mut eat = |bytes: &[u8]| {
            for &b in bytes {
                h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
            }
        };
        if self.escaped {
            let mut buf = [0u8; 4];
            for c in self.chars() {
                eat(c.encode_utf8(&mut buf).as_bytes());
            }
        } else {
            eat(self.raw_inner());
        }
        h
    }

    /// Whether two tokens decode to the same text.
    pub fn eq_json_str(&self, other: &JsonStr<'_>) -> bool {
        if !self.escaped && !other.escaped {
            return self.raw_inner() == other.raw_inner();
        }
        self.chars().eq(other.chars())
    }

    /// Decodes the text into `buf` and returns it, or fails with
    /// [`ErrorKind::BufferTooSmall`] (offset = bytes needed).
    pub fn unescape_into<'b>(&self, buf: &'b mut [u8]) -> Result<&'b str, Error> {
        let needed = self.decoded_len();
        let Some(out) = buf.get_mut(..needed) else {
            return Err(Error::new(ErrorKind::BufferTooSmall, needed));
        };
        if !self.escaped {
            // No escapes: the text is the token's inside, already checked
            // UTF-8 (and `needed` is its length): one copy, not a decode
            // per character.
            for (dst, src) in out.iter_mut().zip(self.raw_inner()) {
                *dst = *src;
            }
            return core::str::from_utf8(out).map_err(|_| Error::new(ErrorKind::InvalidUtf8, 0));
        }
        let mut n = 0;
        for c in self.chars() {
            let len = c.len_utf8();
            if let Some(dst) = out.get_mut(n..n + len) {
                c.encode_utf8(dst);
            }
            n += len;
        }
        core::str::from_utf8(out).map_err(|_| Error::new(ErrorKind::InvalidUtf8, 0))
    }
}

/// Iterator over the decoded characters of a validated string.
#[derive(Debug, Clone)]
pub struct Chars<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Chars<'a> {
    /// The characters of a validated string whose bytes start at `tail` and
    /// may run past its closing quote (see [`Object::key_tail_at`]).
    #[cfg_attr(not(feature = "seal"), allow(dead_code))] // used by seal::canon
    pub(crate) fn from_key_tail(tail: &'a [u8]) -> Self {
        Chars { b: tail, i: 0 }
    }
}

impl Iterator for Chars<'_> {
    type Item = char;
    fn next(&mut self) -> Option<char> {
        let b = self.b;
        let c = *b.get(self.i)?;
        if c == b'"' {
            // A raw quote only ever closes the string (inside, quotes are
            // escaped), so this also ends an open-ended tail.
            return None;
        }
        if c == b'\\' {
            let e = at(b, self.i + 1);
            self.i += 2;
            let simple = match e {
                b'"' => '"',
                b'\\' => '\\',
                b'/' => '/',
                b'b' => '\u{8}',
                b'f' => '\u{c}',
                b'n' => '\n',
                b'r' => '\r',
                b't' => '\t',
                _ => {
                    let hi = u32::from(hex4(b, self.i).unwrap_or(0xFFFD));
                    self.i += 4;
                    if (0xD800..=0xDBFF).contains(&hi) {
                        let lo = u32::from(hex4(b, self.i + 2).unwrap_or(0xDC00));
                        self.i += 6;
                        let cp =
                            0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF);
                        return Some(char::from_u32(cp).unwrap_or('\u{FFFD}'));
                    }
                    return Some(char::from_u32(hi).unwrap_or('\u{FFFD}'));
                }
            };
            return Some(simple);
        }
        // Validated UTF-8: decode one scalar value.
        let len = match c {
            0x00..=0x7F => 1,
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            _ => 4,
        };
        let s = sub(b, self.i, self.i + len);
        self.i += len.max(1);
        core::str::from_utf8(s)
            .ok()
            .and_then(|s| s.chars().next())
            .or(Some('\u{FFFD}'))
    }
}

#[cfg(test)]
mod scan_tests {
    use super::*;

    /// A string value found by a walk carries what the skip saw about its
    /// escapes; `as_str` answers as it does for a value it knows nothing of.
    #[test]
    fn walked_strings_read_as_unwalked_ones() {
        let doc = br#"{"a":"plain","b":"esc\"aped","c":["x","y\\z","0123456789abcdef","\u00e9"],"d":1,"e":"\n","f":""}"#;
        let v = parse(doc).unwrap();
        let mut seen = 0;
        let mut check = |x: Value<'_>| {
            let fresh = Value::of_validated(x.raw());
            assert_eq!(x.as_str(), fresh.as_str(), "{:?}", x.raw());
            if let Some(s) = x.as_str() {
                assert_eq!(s.has_escapes(), s.raw_inner().contains(&b'\\'));
                seen += 1;
            }
        };
        for (_, m) in v.as_object().unwrap().iter() {
            check(m);
            if let Some(a) = m.as_array() {
                a.iter().for_each(&mut check);
            }
        }
        assert_eq!(seen, 8);
    }

    /// A string's multi-byte sequences are checked where they stand, as
    /// the library's UTF-8 check judges them: every lead byte with every
    /// second and third byte, and four-byte sequences through each second
    /// byte, at every alignment, cut short too.
    #[test]
    fn utf8_sequences_are_checked_in_place_as_the_library_does() {
        let mut buf = std::vec::Vec::new();
        for lead in 0x80..=0xFFu8 {
            for b1 in 0..=255u8 {
                let thirds: &[u8] = if lead >= 0xE0 {
                    &[0x20, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
                } else {
                    b"x"
                };
                for &b2 in thirds {
                    for pad in 0..9usize {
                        buf.clear();
                        buf.push(b'"');
                        buf.resize(1 + pad, b'a');
                        let seq = [lead, b1, b2, 0x80];
                        let n = match lead {
                            0xC0..=0xDF => 2,
                            0xE0..=0xEF => 3,
                            _ => 4,
                        };
                        buf.extend_from_slice(&seq[..n]);
                        let text_ok = core::str::from_utf8(&buf[1..]).is_ok();
                        buf.extend_from_slice(b"bc\"abcdefgh");
                        let got = scan_string(&buf, 0);
                        if text_ok {
                            assert_eq!(got, Ok((1 + pad + n + 3, false)), "{buf:?}");
                        } else {
                            assert_eq!(
                                got,
                                Err(Error::new(ErrorKind::InvalidUtf8, 1 + pad)),
                                "{buf:?}"
                            );
                        }
                        // The input ends inside the sequence.
                        let cut = &buf[..1 + pad + 1];
                        assert_eq!(
                            scan_string(cut, 0).unwrap_err().kind,
                            if (0xC2..=0xF4).contains(&lead) {
                                ErrorKind::UnexpectedEnd
                            } else {
                                ErrorKind::InvalidUtf8
                            },
                            "{cut:?}"
                        );
                    }
                }
            }
        }
    }

    /// The inlined fast path answers exactly as the full scan, for every
    /// byte value at every position and alignment, whatever follows the
    /// string (quotes, high bytes, the end of the input mid-word).
    #[test]
    fn string_fast_path_agrees_with_the_full_scan() {
        let tails: [&[u8]; 6] = [
            b"",
            b"\"",
            b"\xff\xfe",
            b"abcdefghij",
            b",\"k\":\"\xc3\xa9\"}",
            b"\x00",
        ];
        let mut buf = std::vec::Vec::new();
        for lead in 0..3usize {
            for len in 0..24usize {
                for pos in 0..len.max(1) {
                    for byte in 0..=255u8 {
                        for tail in tails {
                            buf.clear();
                            buf.resize(lead, b' ');
                            buf.push(b'"');
                            buf.resize(lead + 1 + len, b'a');
                            if len > 0 {
                                buf[lead + 1 + pos] = byte;
                            }
                            buf.push(b'"');
                            buf.extend_from_slice(tail);
                            assert_eq!(
                                scan_string(&buf, lead),
                                scan_string_full(&buf, lead + 1),
                                "{buf:?}"
                            );
                            // Cut short: the input ends inside the string.
                            if byte % 17 != 0 {
                                continue;
                            }
                            for cut in lead + 1..buf.len() {
                                let b = &buf[..cut];
                                assert_eq!(
                                    scan_string(b, lead),
                                    scan_string_full(b, lead + 1),
                                    "{b:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
        // Random bytes, mostly printable, at random lengths.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            buf.clear();
            buf.push(b'"');
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let n = (x >> 58) as usize;
            for _ in 0..n {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let r = (x >> 33) as u8;
                buf.push(if x >> 62 == 0 { r } else { b'a' + r % 26 });
            }
            assert_eq!(scan_string(&buf, 0), scan_string_full(&buf, 1), "{buf:?}");
        }
    }
}

#[cfg(test)]
mod index_tests {
    use super::*;

    fn filled<'a>(v: &Value<'a>) -> &'a [IndexSlot] {
        v.ix
    }

    #[test]
    fn containers_of_32_bytes_or_more_are_recorded_in_document_order() {
        let doc = br#"{"a":[1,{"x":"0123456789abcdefghij"}],"b":{"c":[],"d":{"e":[["0123456789abcdefghijklmnop"]]}}}"#;
        let mut slots = [IndexSlot::EMPTY; 16];
        let v = parse_indexed(doc, &ParseLimits::default(), &mut slots).unwrap();
        let ix = filled(&v);
        // 32 bytes and up: the root (94), `[1,{..}]` (32), `{"c":..}` (51),
        // `{"e":..}` (38), `[[..]]` (32); not `{"x":..}` (28), `[]` (2), nor
        // `["0123..p"]` (30).
        let expect: [(usize, usize); 5] = [(0, 94), (5, 32), (42, 51), (54, 38), (59, 32)];
        assert_eq!(ix.len(), expect.len());
        for (slot, (at, len)) in ix.iter().zip(expect) {
            assert_eq!(slot.start, doc.as_ptr() as usize + at);
            assert_eq!(slot.len as usize, len);
            assert!(len >= INDEX_MIN_LEN);
            assert!(matches!(doc[at], b'{' | b'['));
            assert!(matches!(doc[at + len - 1], b'}' | b']'));
            assert_eq!(indexed_end(doc, at, ix), Some(at + len));
        }
        // A short container, an empty one and a scalar are not in the index,
        // and are skipped by scanning all the same.
        assert_eq!(indexed_end(doc, 8, ix), None);
        assert_eq!(skip_value(doc, 8, ix), 36);
        assert_eq!(indexed_end(doc, 47, ix), None);
        assert_eq!(skip_value(doc, 47, ix), 49);
        assert_eq!(indexed_end(doc, 6, ix), None);
        assert_eq!(indexed_end(doc, 60, ix), None);
        assert_eq!(skip_value(doc, 60, ix), 90);
    }

    #[test]
    fn the_first_containers_fill_the_slots_and_the_rest_are_scanned() {
        let e = br#"["0123456789abcdefghijklmnopqrstuv"]"#; // 36 bytes
        let mut doc = std::vec::Vec::from(&b"["[..]);
        for k in 0..4 {
            if k > 0 {
                doc.push(b',');
            }
            doc.extend_from_slice(e);
        }
        doc.push(b']');
        let doc = &doc[..];
        let mut slots = [IndexSlot::EMPTY; 2];
        let v = parse_indexed(doc, &ParseLimits::default(), &mut slots).unwrap();
        // The root and the first element; the other three are scanned.
        assert_eq!(filled(&v).len(), 2);
        assert_eq!(indexed_end(doc, 0, filled(&v)), Some(doc.len()));
        assert_eq!(indexed_end(doc, 1, filled(&v)), Some(37));
        assert_eq!(indexed_end(doc, 38, filled(&v)), None);
        let got = v.as_array().unwrap().iter().map(|x| x.raw());
        assert!(got.eq([&e[..]; 4]));
        // No slots: nothing recorded, same navigation.
        let v = parse_indexed(doc, &ParseLimits::default(), &mut []).unwrap();
        assert!(filled(&v).is_empty());
        assert!(v
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.raw())
            .eq([&e[..]; 4]));
    }

    #[test]
    fn containers_deeper_than_32_levels_are_not_recorded() {
        let mut doc = [0u8; 100];
        doc[..50].fill(b'[');
        doc[50..].fill(b']');
        let mut slots = [IndexSlot::EMPTY; 64];
        let limits = ParseLimits {
            max_depth: 64,
            ..ParseLimits::default()
        };
        let v = parse_indexed(&doc, &limits, &mut slots).unwrap();
        let ix = filled(&v);
        // Levels 0..=31 are recordable; their lengths are 100 - 2 * level,
        // all at least 32 bytes, so exactly those 32 are recorded.
        assert_eq!(ix.len(), INDEX_MAX_DEPTH);
        for (d, slot) in ix.iter().enumerate() {
            assert_eq!(indexed_end(&doc, d, ix), Some(100 - d));
            assert_eq!(slot.len as usize, 100 - 2 * d);
        }
        assert_eq!(indexed_end(&doc, 32, ix), None);
        assert_eq!(skip_value(&doc, 32, ix), 68);
    }

    #[test]
    fn indexing_a_parsed_value_records_what_parse_indexed_records() {
        let docs: [&[u8]; 7] = [
            br#"{"a":[1,{"x":"0123456789abcdefghij"}],"b":{"c":[],"d":{"e":[["0123456789abcdefghijklmnop"]]}}}"#,
            br#"[{"k":"0123456789abcdefghijklmnopq"},{"k":"0123456789abcdefghijklmnop"},{ "k" : [ ] , "l" : "0123456789abcdef" }]"#,
            b"[ { } , [\n] , {\"k\" : [ 1 ] } ]",
            br#"{"s":"{[\"]}","t":["]","{"],"u":{"v":"\\"}}"#,
            b"[[[[[[1]]]]]]",
            b"{}",
            b"\"[{\"",
        ];
        for doc in docs {
            for n in [0usize, 1, 2, 3, 16] {
                let mut a = [IndexSlot::EMPTY; 16];
                let mut b = [IndexSlot::EMPTY; 16];
                let direct = parse_indexed(doc, &ParseLimits::default(), &mut a[..n]).unwrap();
                let plain = parse(doc).unwrap();
                let later = plain.with_index(&mut b[..n]);
                assert_eq!(filled(&later), filled(&direct), "{n} slots: {doc:?}");
                assert_eq!(later.raw(), plain.raw());
            }
        }
        // Deeper than the recorded levels.
        let mut doc = [0u8; 80];
        doc[..40].fill(b'[');
        doc[40..].fill(b']');
        let limits = ParseLimits {
            max_depth: 64,
            ..ParseLimits::default()
        };
        let (mut a, mut b) = ([IndexSlot::EMPTY; 64], [IndexSlot::EMPTY; 64]);
        let direct = parse_indexed(&doc, &limits, &mut a).unwrap();
        let later = parse_with(&doc, &limits).unwrap().with_index(&mut b);
        assert_eq!(filled(&later), filled(&direct));
        // Levels 0..=24 are 32 bytes or longer (80 - 2 * level).
        assert_eq!(filled(&later).len(), 25);
    }

    #[test]
    fn a_failed_parse_returns_no_index() {
        let mut slots = [IndexSlot::EMPTY; 4];
        let e = parse_indexed(br#"{"a":[1,2}"#, &ParseLimits::default(), &mut slots).unwrap_err();
        assert_eq!(e, Error::new(ErrorKind::UnexpectedByte, 9));
    }

    #[test]
    fn parse_str_answers_what_parse_and_as_str_answer() {
        let mut big = std::vec![b'"'];
        big.resize(crate::json::ParseLimits::default().max_bytes, b'a');
        big.push(b'"');
        let docs: &[&[u8]] = &[
            br#""""#,
            br#""plain""#,
            br#""caf\u00e9 \"q\"""#,
            br#" "spaced" "#,
            br#""a" "#,
            br#""a"x"#,
            br#""a""b""#,
            br#""unterminated"#,
            br#""bad \x escape""#,
            b"\"ctl \x01\"",
            b"\"bad utf8 \xff\"",
            b"\"",
            b"",
            b"   ",
            b"1",
            b"[\"a\"]",
            b"{\"a\":1}",
            b"[\"\xff\"]",
            &big,
        ];
        for doc in docs {
            let want = parse(doc).map(|v| v.as_str());
            assert_eq!(
                parse_str(doc),
                want,
                "{:?}",
                std::string::String::from_utf8_lossy(doc)
            );
        }
        let s = parse_str(br#""a\nb""#).unwrap().unwrap();
        assert!(s.has_escapes());
        assert!(!parse_str(br#""ab""#).unwrap().unwrap().has_escapes());
    }
}
