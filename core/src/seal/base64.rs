//! Strict base64url without padding (RFC 4648 section 5).
//!
//! Strict means one spelling per byte string: no `=` padding, only the 64
//! alphabet bytes, no length that leaves a lone sextet (`len % 4 == 1`), and
//! the unused low bits of the last character must be zero. So a token cannot
//! be re-spelled into a second valid text.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Marks a byte that is not in the alphabet.
const INVALID: u8 = 0xFF;

const DECODE: [u8; 256] = {
    let mut table = [INVALID; 256];
    let mut i = 0;
    while i < 64 {
        table[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    table
};

#[inline]
fn sym(v: u32) -> u8 {
    // `v & 63` is always a valid index; the fallback is unreachable.
    ALPHABET.get((v & 63) as usize).copied().unwrap_or(b'A')
}

#[inline]
fn val(c: u8) -> u8 {
    DECODE.get(usize::from(c)).copied().unwrap_or(INVALID)
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
    let mut i = src_start;
    let mut o = dst_start;
    let end = buf.len();
    while end - i >= 3 {
        let Some(&[a, b, c]) = buf.get(i..i + 3) else {
            return false;
        };
        let v = (u32::from(a) << 16) | (u32::from(b) << 8) | u32::from(c);
        let Some(dst) = buf.get_mut(o..o + 4) else {
            return false;
        };
        dst.copy_from_slice(&[sym(v >> 18), sym(v >> 12), sym(v >> 6), sym(v)]);
        i += 3;
        o += 4;
    }
    match buf.get(i..end) {
        Some(&[a]) => {
            let v = u32::from(a) << 16;
            if let Some(dst) = buf.get_mut(o..o + 2) {
                dst.copy_from_slice(&[sym(v >> 18), sym(v >> 12)]);
            }
        }
        Some(&[a, b]) => {
            let v = (u32::from(a) << 16) | (u32::from(b) << 8);
            if let Some(dst) = buf.get_mut(o..o + 3) {
                dst.copy_from_slice(&[sym(v >> 18), sym(v >> 12), sym(v >> 6)]);
            }
        }
        _ => {}
    }
    true
}

/// Encodes `src` into the start of `dst`; returns the length written, or
/// `None` if `dst` is too short.
#[cfg(test)]
pub(crate) fn encode(src: &[u8], dst: &mut [u8]) -> Option<usize> {
    let n = encoded_len(src.len());
    let dst = dst.get_mut(..n)?;
    let mut chunks = src.chunks_exact(3);
    let mut outs = dst.chunks_mut(4);
    for (chunk, out) in (&mut chunks).zip(&mut outs) {
        if let (&[a, b, c], [w, x, y, z]) = (chunk, out) {
            let v = (u32::from(a) << 16) | (u32::from(b) << 8) | u32::from(c);
            (*w, *x, *y, *z) = (sym(v >> 18), sym(v >> 12), sym(v >> 6), sym(v));
        }
    }
    match (chunks.remainder(), outs.next()) {
        (&[a], Some([w, x])) => {
            let v = u32::from(a) << 16;
            (*w, *x) = (sym(v >> 18), sym(v >> 12));
        }
        (&[a, b], Some([w, x, y])) => {
            let v = (u32::from(a) << 16) | (u32::from(b) << 8);
            (*w, *x, *y) = (sym(v >> 18), sym(v >> 12), sym(v >> 6));
        }
        _ => {}
    }
    Some(n)
}

/// Decodes `src` strictly into the start of `dst`. Returns the decoded
/// length, or `None` for a non-canonical or invalid encoding, or when `dst`
/// is shorter than [`decoded_len`]`(src.len())`.
pub(crate) fn decode(src: &[u8], dst: &mut [u8]) -> Option<usize> {
    let n = decoded_len(src.len())?;
    let dst = dst.get_mut(..n)?;
    let mut chunks = src.chunks_exact(4);
    let mut outs = dst.chunks_mut(3);
    // OR of every sextet: one branch for the whole body instead of one per byte.
    let mut bad = 0u8;
    for (chunk, out) in (&mut chunks).zip(&mut outs) {
        if let (&[a, b, c, d], [x, y, z]) = (chunk, out) {
            let (a, b, c, d) = (val(a), val(b), val(c), val(d));
            bad |= a | b | c | d;
            let v =
                (u32::from(a) << 18) | (u32::from(b) << 12) | (u32::from(c) << 6) | u32::from(d);
            (*x, *y, *z) = ((v >> 16) as u8, (v >> 8) as u8, v as u8);
        }
    }
    match (chunks.remainder(), outs.next()) {
        (&[], None) => {}
        (&[a, b], Some([x])) => {
            let (a, b) = (val(a), val(b));
            // The low 4 bits of `b` are not part of any byte: they must be 0.
            bad |= a | b | if b & 0x0F != 0 { 0x80 } else { 0 };
            *x = (a << 2) | (b >> 4);
        }
        (&[a, b, c], Some([x, y])) => {
            let (a, b, c) = (val(a), val(b), val(c));
            // The low 2 bits of `c` are not part of any byte: they must be 0.
            bad |= a | b | c | if c & 0x03 != 0 { 0x80 } else { 0 };
            let v = (u32::from(a) << 18) | (u32::from(b) << 12) | (u32::from(c) << 6);
            (*x, *y) = ((v >> 16) as u8, (v >> 8) as u8);
        }
        _ => return None,
    }
    // Valid sextets are < 64, so bits 6 and 7 are set only by INVALID or by
    // the marker for non-zero trailing bits.
    if bad & 0xC0 != 0 {
        return None;
    }
    Some(n)
}
