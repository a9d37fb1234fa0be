//! Small byte-level helpers that cannot panic.
//!
//! `core`'s `str` searching (`find`, `split_once`, `contains` with a `&str`
//! pattern: the two-way searcher) and `copy_from_slice` (a length check)
//! keep panic branches in the image at the size opt-levels, where they are
//! not inlined and the compiler cannot prove them dead. These helpers walk
//! with iterators and `get`, so no panic path remains.

// Each helper serves the client helpers (roots, url, form); a build without
// all of them leaves some unused.
#![cfg_attr(not(all(feature = "form", feature = "url")), allow(dead_code))]

/// Copies `src` into the front of `dst`, as far as both reach (a
/// `copy_from_slice` without its length-mismatch panic). Returns the
/// number of bytes copied.
pub(crate) fn copy(dst: &mut [u8], src: &[u8]) -> usize {
    let mut n = 0;
    for (d, s) in dst.iter_mut().zip(src) {
        *d = *s;
        n += 1;
    }
    n
}

/// Whether `c` has Unicode's White_Space property: `char::is_whitespace`
/// written as a list. The library's version looks characters above ASCII
/// up in a 256-byte table of the whole Unicode data; White_Space is 25
/// characters, fixed since Unicode 6.2 (the test compares every `char`).
pub(crate) const fn is_white_space(c: char) -> bool {
    matches!(
        c,
        '\u{9}'..='\u{d}'
            | ' '
            | '\u{85}'
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
    )
}

/// Moves `s[i]` to index `at` (`at <= i`) and the elements from `at` on
/// up by one: `s[at..=i].rotate_right(1)` without the library's `memmove`
/// call (about 1.6 KB of code on Cortex-M, where nothing else needs it).
/// The element carried through the run makes a loop the compiler does not
/// turn back into a `memmove`. Does nothing when `at..=i` is out of range.
pub(crate) fn rotate_right_1<T: Copy>(s: &mut [T], at: usize, i: usize) {
    let Some(run) = s.get_mut(at..=i) else {
        return;
    };
    let Some(&last) = run.last() else {
        return;
    };
    let mut carry = last;
    for slot in run.iter_mut() {
        carry = core::mem::replace(slot, carry);
    }
}

/// Copies `len` bytes of `buf` from `from` down to `to` (`to <= from`; the
/// ranges may overlap): `buf.copy_within(from..from + len, to)` without the
/// library's `memmove` call. Returns false (and copies nothing) when the
/// ranges do not lie in `buf` or `to > from`.
pub(crate) fn copy_down(buf: &mut [u8], from: usize, len: usize, to: usize) -> bool {
    let Some(gap) = from.checked_sub(to) else {
        return false;
    };
    let Some(run) = from.checked_add(len).and_then(|end| buf.get_mut(to..end)) else {
        return false;
    };
    // Front to back, one byte at a time: each byte is read before the
    // copy reaches it, so the overlap is safe. The loop ends on a checked
    // read, which keeps the compiler from rewriting it into a `memmove`.
    let mut k = 0;
    while let Some(&b) = run.get(k + gap) {
        if let Some(d) = run.get_mut(k) {
            *d = b;
        }
        k += 1;
    }
    true
}

/// Index of the first `b` in `s`.
pub(crate) fn find_byte(s: &[u8], b: u8) -> Option<usize> {
    s.iter().position(|&c| c == b)
}

/// Index of the first occurrence of `needle` in `s` (`Some(0)` for an
/// empty needle).
pub(crate) fn find(s: &[u8], needle: &[u8]) -> Option<usize> {
    (0..=s.len()).find(|&i| {
        s.get(i..)
            .is_some_and(|t| t.len() >= needle.len() && t.iter().zip(needle).all(|(a, b)| a == b))
    })
}

/// Splits `s` around the first `b` (which belongs to neither part).
/// `b` must be ASCII, so both parts stay valid UTF-8.
pub(crate) fn split_once_byte(s: &str, b: u8) -> Option<(&str, &str)> {
    split_once(s, &[b])
}

/// Splits `s` around the first occurrence of the ASCII `needle` (which
/// belongs to neither part).
pub(crate) fn split_once<'s>(s: &'s str, needle: &[u8]) -> Option<(&'s str, &'s str)> {
    let i = find(s.as_bytes(), needle)?;
    let head = s.get(..i)?;
    let tail = s.get(i.checked_add(needle.len())?..)?;
    Some((head, tail))
}

/// Splits `s` at byte `i` (a char boundary), or `None` when it is not one
/// or lies past the end.
pub(crate) fn split_at(s: &str, i: usize) -> Option<(&str, &str)> {
    Some((s.get(..i)?, s.get(i..)?))
}

/// Whether `s` contains the byte `b`.
// A plain loop rather than `<[u8]>::contains` (core's memchr, with its
// word-at-a-time slicing) so the image keeps no index checks for it.
#[allow(clippy::manual_contains)]
pub(crate) fn contains_byte(s: &[u8], b: u8) -> bool {
    s.iter().any(|&c| c == b)
}

/// Whether the char `c` is one of the ASCII bytes of `set`.
pub(crate) fn is_one_of(c: char, set: &[u8]) -> bool {
    u8::try_from(c).is_ok_and(|b| contains_byte(set, b))
}

/// Iterator over the parts of `s` between `b`s (as `str::split` with an
/// ASCII char, without the searcher).
#[derive(Debug, Clone)]
pub(crate) struct SplitByte<'s> {
    rest: Option<&'s str>,
    b: u8,
}

/// Splits `s` at every `b` (an ASCII byte).
pub(crate) fn split_byte(s: &str, b: u8) -> SplitByte<'_> {
    SplitByte { rest: Some(s), b }
}

impl<'s> Iterator for SplitByte<'s> {
    type Item = &'s str;
    fn next(&mut self) -> Option<&'s str> {
        let rest = self.rest?;
        match split_once_byte(rest, self.b) {
            Some((head, tail)) => {
                self.rest = Some(tail);
                Some(head)
            }
            None => {
                self.rest = None;
                Some(rest)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    #[test]
    fn white_space_is_the_unicode_property() {
        for c in (0..=0x10_ffff).filter_map(char::from_u32) {
            assert_eq!(is_white_space(c), c.is_whitespace(), "U+{:04X}", c as u32);
        }
        assert!(is_white_space('\u{3000}'));
        assert!(!is_white_space('\u{200b}'));
    }

    #[test]
    fn helpers_match_the_str_methods() {
        let cases = ["", ":", "a:b", "::", "a::b::c", "x", "ab:", ":ab", "é:ü::"];
        for s in cases {
            assert_eq!(split_once_byte(s, b':'), s.split_once(':'), "{s:?}");
            assert_eq!(split_once(s, b"::"), s.split_once("::"), "{s:?}");
            assert_eq!(find(s.as_bytes(), b"::"), s.find("::"), "{s:?}");
            assert_eq!(find_byte(s.as_bytes(), b':'), s.find(':'), "{s:?}");
            assert_eq!(contains_byte(s.as_bytes(), b':'), s.contains(':'));
            assert_eq!(
                split_byte(s, b':').collect::<Vec<_>>(),
                s.split(':').collect::<Vec<_>>(),
                "{s:?}"
            );
            for i in 0..=s.len() + 1 {
                assert_eq!(split_at(s, i), s.split_at_checked(i), "{s:?} {i}");
            }
        }
        assert_eq!(find(b"abc", b""), Some(0));
        assert_eq!(find(b"", b"a"), None);
        assert!(is_one_of('+', b"+-.") && !is_one_of('a', b"+-.") && !is_one_of('\u{12b}', b"+"));
        let mut dst = [0u8; 3];
        assert_eq!(copy(&mut dst, b"abcd"), 3);
        assert_eq!(&dst, b"abc");
        assert_eq!(copy(&mut dst, b"z"), 1);
        assert_eq!(&dst, b"zbc");
    }

    /// The moves the sorts and the task head use are exactly the library's
    /// `rotate_right(1)` and `copy_within`, and refuse out-of-range input.
    #[test]
    fn moves_match_rotate_right_and_copy_within() {
        let base: Vec<u8> = (0u8..10).collect();
        for at in 0..10 {
            for i in at..10 {
                let mut ours = base.clone();
                rotate_right_1(&mut ours, at, i);
                let mut theirs = base.clone();
                theirs[at..=i].rotate_right(1);
                assert_eq!(ours, theirs, "{at} {i}");
            }
        }
        let mut untouched = base.clone();
        rotate_right_1(&mut untouched, 3, 10);
        rotate_right_1(&mut untouched, 4, 3);
        assert_eq!(untouched, base);
        for from in 0..10 {
            for to in 0..=from {
                for len in 0..=10 - from {
                    let mut ours = base.clone();
                    assert!(copy_down(&mut ours, from, len, to), "{from} {len} {to}");
                    let mut theirs = base.clone();
                    theirs.copy_within(from..from + len, to);
                    assert_eq!(ours, theirs, "{from} {len} {to}");
                }
            }
        }
        let mut untouched = base.clone();
        assert!(!copy_down(&mut untouched, 5, 6, 0));
        assert!(!copy_down(&mut untouched, 2, 1, 3));
        assert!(!copy_down(&mut untouched, usize::MAX, 2, 0));
        assert_eq!(untouched, base);
    }
}
