//! Strict base64url without padding (RFC 4648 section 5).
//!
//! Strict means one spelling per byte string: no `=` padding, only the 64
//! alphabet bytes, no length that leaves a lone sextet (`len % 4 == 1`), and
//! the unused low bits of the last character must be zero. So a token cannot
//! be re-spelled into a second valid text.

/// All-ones when `b`, else zero: lets the per-character maps run without
/// branches or table lookups, so the compiler can vectorize them.
#[inline(always)]
fn mask(b: bool) -> u8 {
    0u8.wrapping_sub(u8::from(b))
}

/// The alphabet character of a sextet (only the low 6 bits are used):
/// `A-Z` = 0..25, `a-z` = 26..51, `0-9` = 52..61, `-` = 62, `_` = 63.
#[inline(always)]
fn sym(x: u8) -> u8 {
    let x = x & 63;
    let offset = 65u8 // 'A' - 0
        .wrapping_add(6 & mask(x >= 26)) // 'a' - 26 = 71
        .wrapping_sub(75 & mask(x >= 52)) // '0' - 52 = -4
        .wrapping_sub(13 & mask(x >= 62)) // '-' - 62 = -17
        .wrapping_add(49 & mask(x >= 63)); // '_' - 63 = 32
    x.wrapping_add(offset)
}

/// The sextet of an alphabet character, or a value with bit 7 set for any
/// other byte.
#[inline(always)]
fn val(c: u8) -> u8 {
    let upper = mask(c.wrapping_sub(b'A') < 26);
    let lower = mask(c.wrapping_sub(b'a') < 26);
    let digit = mask(c.wrapping_sub(b'0') < 10);
    let dash = mask(c == b'-');
    let underscore = mask(c == b'_');
    let v = (upper & c.wrapping_sub(b'A'))
        | (lower & c.wrapping_sub(b'a' - 26))
        | (digit & c.wrapping_add(52 - b'0'))
        | (dash & 62)
        | (underscore & 63);
    v | (!(upper | lower | digit | dash | underscore) & 0x80)
}

/// Input bytes per block of the bulk loops (output: 64 characters).
const BLOCK: usize = 48;

/// Encodes whole groups: `src.len()` a multiple of 3, `dst.len()` 4/3 of it.
/// Sextets are split first and mapped to characters in a second pass, which
/// the compiler can vectorize.
fn encode_groups(src: &[u8], dst: &mut [u8]) {
    // Not `zip`: zipping two chunk iterators divides by a runtime chunk
    // size, which leaves a division-by-zero panic path.
    let mut outs = dst.chunks_exact_mut(4);
    for g in src.chunks_exact(3) {
        let Some(out) = outs.next() else { break };
        if let (&[a, b, c], [w, x, y, z]) = (g, out) {
            (*w, *x, *y, *z) = (a >> 2, (a << 4) | (b >> 4), (b << 2) | (c >> 6), c);
        }
    }
    for c in dst.iter_mut() {
        *c = sym(*c);
    }
}

/// Encodes the final 1 or 2 bytes (no padding) through [`encode_groups`]:
/// the bytes zero-padded to a group, of whose characters the first 2 or 3
/// are the tail's (one character map in the image, not one per tail
/// character).
fn encode_tail(src: &[u8], dst: &mut [u8]) {
    let mut group = [0u8; 3];
    let mut chars = [0u8; 4];
    if let Some(g) = group.get_mut(..src.len()) {
        crate::bytes::copy(g, src);
    }
    encode_groups(&group, &mut chars);
    crate::bytes::copy(dst, chars.get(..dst.len()).unwrap_or(&[]));
}

/// Decodes whole groups (`src.len()` a multiple of 4, at most 64) into
/// `dst`; returns the OR of all sextets, whose bit 7 flags a bad character.
fn decode_groups(src: &[u8], dst: &mut [u8]) -> u8 {
    let mut sextets = [0u8; 64];
    let mut bad = 0u8;
    for (s, &c) in sextets.iter_mut().zip(src) {
        let v = val(c);
        bad |= v;
        *s = v;
    }
    let mut outs = dst.chunks_exact_mut(3);
    for g in sextets.chunks_exact(4) {
        let Some(out) = outs.next() else { break };
        if let (&[a, b, c, d], [x, y, z]) = (g, out) {
            (*x, *y, *z) = ((a << 2) | (b >> 4), (b << 4) | (c >> 2), (c << 6) | d);
        }
    }
    bad
}

/// Length of the encoding of `n` bytes (saturating on absurd sizes).
pub(crate) const fn encoded_len(n: usize) -> usize {
    let full = (n / 3).saturating_mul(4);
    let tail = match n % 3 {
        0 => 0,
        1 => 2,
        _ => 3,
    };
    full.saturating_add(tail)
}

/// Length of the bytes an encoding of `m` characters decodes to, or `None`
/// when no byte string encodes to that many characters.
pub(crate) const fn decoded_len(m: usize) -> Option<usize> {
    let full = (m / 4) * 3;
    match m % 4 {
        0 => Some(full),
        2 => Some(full + 1),
        3 => Some(full + 2),
        _ => None,
    }
}

/// Encodes `buf[src_start..]` in place into `buf[dst_start..]`, where the
/// encoding ends exactly at `buf.len()`.
///
/// Precondition (checked; returns `false` when violated):
/// `buf.len() - dst_start == encoded_len(buf.len() - src_start)`. Then the
/// source begins `ceil(n / 3)` bytes after the destination, which is exactly
/// the slack a forward pass needs: group `g` writes `dst + 4g .. dst + 4g + 4`
/// and the next group reads from `src + 3(g + 1)`, and
/// `4g + 4 <= ceil(n / 3) + 3g + 3` for every group `g < ceil(n / 3)`. Each
/// group's three bytes are read before its four characters are written.
pub(crate) fn encode_in_place(buf: &mut [u8], src_start: usize, dst_start: usize) -> bool {
    let n = buf.len().saturating_sub(src_start);
    if src_start > buf.len()
        || dst_start > src_start
        || buf.len().saturating_sub(dst_start) != encoded_len(n)
    {
        return false;
    }
    let end = buf.len();
    let full_end = end - (n % 3);
    let (mut i, mut o) = (src_start, dst_start);
    // Each block is copied out before its characters are written, so the
    // slack argument above holds block by block as it does group by group.
    let mut block = [0u8; BLOCK];
    while i < full_end {
        let len = (full_end - i).min(BLOCK);
        let (Some(src), Some(tmp)) = (buf.get(i..i + len), block.get_mut(..len)) else {
            return false;
        };
        crate::bytes::copy(tmp, src);
        let out_len = len / 3 * 4;
        let Some(dst) = buf.get_mut(o..o + out_len) else {
            return false;
        };
        encode_groups(tmp, dst);
        i += len;
        o += out_len;
    }
    let tail = block.get_mut(..end - full_end).unwrap_or(&mut []);
    crate::bytes::copy(tail, buf.get(full_end..end).unwrap_or(&[]));
    encode_tail(tail, buf.get_mut(o..).unwrap_or(&mut []));
    true
}

/// Encodes `src` into the start of `dst`; returns the length written, or
/// `None` if `dst` is too short.
#[cfg(test)]
pub(crate) fn encode(src: &[u8], dst: &mut [u8]) -> Option<usize> {
    let n = encoded_len(src.len());
    let dst = dst.get_mut(..n)?;
    let full = src.len() / 3 * 3;
    let (groups, tail) = src.split_at_checked(full)?;
    let (dst_groups, dst_tail) = dst.split_at_mut_checked(full / 3 * 4)?;
    encode_groups(groups, dst_groups);
    encode_tail(tail, dst_tail);
    Some(n)
}

/// Decodes `src` strictly into the start of `dst`. Returns the decoded
/// length, or `None` for a non-canonical or invalid encoding, or when `dst`
/// is shorter than [`decoded_len`]`(src.len())`.
pub(crate) fn decode(src: &[u8], dst: &mut [u8]) -> Option<usize> {
    let n = decoded_len(src.len())?;
    let dst = dst.get_mut(..n)?;
    let full = src.len() / 4 * 4;
    let (groups, tail) = src.split_at_checked(full)?;
    let (dst_groups, dst_tail) = dst.split_at_mut_checked(full / 4 * 3)?;
    // OR of every sextet: one branch for the whole body instead of one per
    // character. Valid sextets are < 64, so bit 7 is set only by a bad one.
    let mut bad = 0u8;
    for (chunk, out) in groups.chunks(64).zip(dst_groups.chunks_mut(BLOCK)) {
        bad |= decode_groups(chunk, out);
    }
    // The 2 or 3 final characters, padded with `A` (sextet 0) to a group
    // and decoded as one: the byte after the tail's must then be zero, or
    // the last character has bits that belong to no byte (its low 4 or 2).
    if !tail.is_empty() {
        let mut group = *b"AAAA";
        let mut bytes = [0u8; 3];
        if let Some(g) = group.get_mut(..tail.len()) {
            crate::bytes::copy(g, tail);
        }
        bad |= decode_groups(&group, &mut bytes);
        let (head, rest) = bytes.split_at_checked(dst_tail.len())?;
        bad |= mask(rest.first() != Some(&0)) & 0x80;
        crate::bytes::copy(dst_tail, head);
    }
    if bad & 0x80 != 0 {
        return None;
    }
    Some(n)
}
