//! JSON helpers for C applications: validate a document with the core's
//! reader, and quote a string as a JSON string literal (the piece a C app
//! needs most when it builds tool arguments by hand).

use mrtr_core::json::{self, JsonStr, ParseLimits, Writer};

use crate::abi::{finish_output, run, Out, Put};
use crate::mrtr_status;
use crate::types::mrtr_str;

/// The depth `mrtr_json_validate` allows with `max_depth` 0 (the outermost
/// value is depth 1).
pub const MRTR_JSON_DEFAULT_MAX_DEPTH: usize = 32;
/// The largest `max_depth` (the reader's fixed nesting stack: no recursion).
pub const MRTR_JSON_MAX_DEPTH: usize = 256;

// The C constants spell the core's limits (cbindgen needs literals).
const _: () = assert!(MRTR_JSON_DEFAULT_MAX_DEPTH == json::DEFAULT_MAX_DEPTH);
const _: () = assert!(MRTR_JSON_MAX_DEPTH == json::MAX_DEPTH_LIMIT);

/// Checks that `len` bytes at `json` are exactly one RFC 8259 document
/// (strict: no comments, trailing commas, `NaN`, lone surrogates; repeated
/// keys allowed), at most `max_depth` deep (0: the default). Statuses:
/// `MRTR_ERR_JSON` (malformed, the empty input too), `MRTR_ERR_LIMIT_EXCEEDED`
/// (too deep), both with the offset where reading stopped in the optional
/// `*error_offset`; `MRTR_ERR_INVALID_ARGUMENT` (`max_depth` too large).
///
/// # Safety
/// `json` must point to `len` readable bytes (unless `len` is 0);
/// `error_offset` must be NULL or point to a writable `size_t`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_json_validate(
    json: *const u8,
    len: usize,
    max_depth: usize,
    error_offset: *mut usize,
) -> mrtr_status {
    // SAFETY: caller contract; every pointer is checked as it is taken.
    run(|a| unsafe {
        let (error_offset, input) = (a.out_opt(error_offset)?, a.bytes(json, len)?);
        // The caller chose `len`; `in_bytes` has bounded it by isize::MAX.
        let limits =
            ParseLimits::depth_only(max_depth).ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?;
        json::parse_with(input, &limits).map(drop).map_err(|e| {
            error_offset.put(e.offset);
            e.into()
        })
    })
}

/// Writes `text` as a JSON string literal into `out` (the output convention),
/// quotes included: `"`, `\` and control characters escaped.
///
/// # Safety
/// `text.ptr` must point to `text.len` readable bytes (unless `text.len` is
/// 0); `out` must point to `out_len` writable bytes (unless `out_len` is 0);
/// `out_written` must point to a writable `size_t`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_json_write_string(
    text: mrtr_str,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    // SAFETY: caller contract; every pointer is checked as it is taken.
    run(|a| unsafe {
        let (out_written, text) = (a.out(out_written)?, a.str(text)?);
        let mut w = Writer::new(a.out_buf(out, out_len)?);
        w.str(text);
        finish_output(w.finish(), out_written)
    })
}

/// Decodes one JSON string literal (quotes included, as event spans give
/// them: `"caf\u00e9"` -> `café`) into `out`. `MRTR_ERR_JSON`: not exactly
/// one string (whitespace around allowed).
///
/// # Safety
/// `token` must point to `len` readable bytes (unless `len` is 0); `out`
/// must point to `out_len` writable bytes (unless `out_len` is 0);
/// `out_written` to a writable `size_t`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_json_decode_string(
    token: *const u8,
    len: usize,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    run(|a| {
        // SAFETY: caller contract; every pointer is checked as it is taken.
        let (out_written, input, out) = unsafe {
            (
                a.out(out_written)?,
                a.bytes(token, len)?,
                a.out_buf(out, out_len)?,
            )
        };
        let s = json::parse_str(input)?;
        decode_json_str(&s.ok_or(mrtr_status::MRTR_ERR_JSON)?, out, out_written)
    })
}

/// Decodes a validated JSON string into `out` (the `out, out_len,
/// out_written` convention).
pub(crate) fn decode_json_str(
    s: &JsonStr<'_>,
    out: &mut [u8],
    out_written: Out<'_, usize>,
) -> Result<(), mrtr_status> {
    let needed = s.decoded_len();
    if out.len() < needed {
        return finish_output(Err(json::BufferTooSmall { needed }), out_written);
    }
    let n = s.unescape_into(out).map_err(mrtr_status::from)?.len();
    finish_output(Ok(n), out_written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::ptr::{null, null_mut};

    fn validate_bytes(doc: &[u8], depth: usize) -> (mrtr_status, Option<usize>) {
        let mut off = usize::MAX;
        // SAFETY: `doc` and `off` are live for the call.
        let s = unsafe { mrtr_json_validate(doc.as_ptr(), doc.len(), depth, &mut off) };
        (s, (off != usize::MAX).then_some(off))
    }

    #[test]
    fn valid_documents_pass() {
        let doc = br#" {"a":[1,2.5e3,-0,true,false,null,"\u00e9\ud83d\ude00"],"b":{}} "#;
        assert_eq!(validate_bytes(doc, 0), (mrtr_status::MRTR_OK, None));
        assert_eq!(validate_bytes(b"0", 1), (mrtr_status::MRTR_OK, None));
    }

    #[test]
    fn malformed_documents_report_the_offset() {
        assert_eq!(
            validate_bytes(b"[1,2,]", 0),
            (mrtr_status::MRTR_ERR_JSON, Some(5))
        );
        assert_eq!(
            validate_bytes(b"{} x", 0),
            (mrtr_status::MRTR_ERR_JSON, Some(3))
        );
        assert_eq!(
            validate_bytes(b"\"\xff\"", 0),
            (mrtr_status::MRTR_ERR_JSON, Some(1))
        );
        assert_eq!(
            validate_bytes(b"", 0),
            (mrtr_status::MRTR_ERR_JSON, Some(0))
        );
    }

    #[test]
    fn depth_limit_is_enforced_and_defaulted() {
        assert_eq!(validate_bytes(b"[[1]]", 2), (mrtr_status::MRTR_OK, None));
        assert_eq!(
            validate_bytes(b"[[1]]", 1),
            (mrtr_status::MRTR_ERR_LIMIT_EXCEEDED, Some(1))
        );
        let mut deep = [b'['; 66];
        deep[33..].fill(b']');
        assert_eq!(
            validate_bytes(&deep, 0),
            (mrtr_status::MRTR_ERR_LIMIT_EXCEEDED, Some(32))
        );
        assert_eq!(validate_bytes(&deep, 33), (mrtr_status::MRTR_OK, None));
        assert_eq!(
            validate_bytes(b"1", MRTR_JSON_MAX_DEPTH + 1),
            (mrtr_status::MRTR_ERR_INVALID_ARGUMENT, None)
        );
    }

    #[test]
    fn validate_misuse() {
        // SAFETY: NULL with length 0 is the empty input.
        let s = unsafe { mrtr_json_validate(null(), 0, 0, null_mut()) };
        assert_eq!(s, mrtr_status::MRTR_ERR_JSON);
        // SAFETY: refused before any read.
        let s = unsafe { mrtr_json_validate(null(), 1, 0, null_mut()) };
        assert_eq!(s, mrtr_status::MRTR_ERR_NULL_POINTER);
        // An error_offset pointing into the document is refused.
        #[repr(align(8))]
        struct Aligned([u8; 16]);
        let mut doc = Aligned(*b"[1, 2,          ");
        let base = doc.0.as_mut_ptr();
        let inside = base.wrapping_add(8).cast::<usize>();
        // SAFETY: refused before any read or write.
        let s = unsafe { mrtr_json_validate(base, 16, 0, inside) };
        assert_eq!(s, mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
        assert_eq!(&doc.0, b"[1, 2,          ");
        // A misaligned error_offset is refused.
        let mut words = [0usize; 2];
        let odd = words
            .as_mut_ptr()
            .cast::<u8>()
            .wrapping_add(1)
            .cast::<usize>();
        // SAFETY: refused before any read or write.
        let s = unsafe { mrtr_json_validate(b"[".as_ptr(), 1, 0, odd) };
        assert_eq!(s, mrtr_status::MRTR_ERR_MISALIGNED);
        assert_eq!(words, [0, 0]);
    }

    fn quote(text: &str, cap: usize) -> (mrtr_status, std::vec::Vec<u8>, usize) {
        let mut buf = std::vec![0xAAu8; cap];
        let mut n = 12345usize;
        // SAFETY: `text`, `buf` and `n` are live, disjoint locals.
        let s = unsafe {
            mrtr_json_write_string(mrtr_str::from_str(text), buf.as_mut_ptr(), cap, &mut n)
        };
        (s, buf, n)
    }

    #[test]
    fn write_string_escapes_exactly() {
        let (s, buf, n) = quote("a\"b\\c\n\u{1}\u{e9}", 64);
        assert_eq!(s, mrtr_status::MRTR_OK);
        assert_eq!(&buf[..n], "\"a\\\"b\\\\c\\n\\u0001\u{e9}\"".as_bytes());
        let (s, buf, n) = quote("", 2);
        assert_eq!((s, &buf[..n]), (mrtr_status::MRTR_OK, &b"\"\""[..]));
    }

    #[test]
    fn write_string_reports_the_needed_size() {
        // "\"a\\tb\"" is 6 bytes.
        let (s, _, n) = quote("a\tb", 5);
        assert_eq!((s, n), (mrtr_status::MRTR_ERR_BUFFER_TOO_SMALL, 6));
        let (s, _, n) = quote("a\tb", 6);
        assert_eq!((s, n), (mrtr_status::MRTR_OK, 6));
        let mut n = 0usize;
        // SAFETY: size query: no output buffer.
        let s =
            unsafe { mrtr_json_write_string(mrtr_str::from_str("a\tb"), null_mut(), 0, &mut n) };
        assert_eq!((s, n), (mrtr_status::MRTR_ERR_BUFFER_TOO_SMALL, 6));
    }

    #[test]
    fn write_string_misuse() {
        let mut buf = [0u8; 8];
        // SAFETY: refused before any write.
        let s = unsafe {
            mrtr_json_write_string(mrtr_str::from_str("x"), buf.as_mut_ptr(), 8, null_mut())
        };
        assert_eq!(s, mrtr_status::MRTR_ERR_NULL_POINTER);

        let mut n = 77usize;
        let bad = mrtr_str {
            ptr: b"\xc3".as_ptr().cast(),
            len: 1,
        };
        // SAFETY: refused before any write.
        let s = unsafe { mrtr_json_write_string(bad, buf.as_mut_ptr(), 8, &mut n) };
        assert_eq!((s, n), (mrtr_status::MRTR_ERR_INVALID_UTF8, 77));

        // Output overlapping the input text (both pointers derive from one
        // raw pointer, as a C caller's would).
        buf[0] = b'a';
        buf[1] = b'b';
        let base = buf.as_mut_ptr();
        let overlapping = mrtr_str {
            ptr: base.cast_const().cast(),
            len: 2,
        };
        // SAFETY: refused before the output is borrowed.
        let s = unsafe { mrtr_json_write_string(overlapping, base.wrapping_add(1), 4, &mut n) };
        assert_eq!((s, n), (mrtr_status::MRTR_ERR_INVALID_ARGUMENT, 77));
    }
}
