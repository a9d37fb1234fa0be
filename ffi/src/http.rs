//! `mrtr_http_headers*`: the headers of a Streamable HTTP POST, for apps
//! with their own HTTP stack.

use mrtr_core::client::http::{HttpError, RequestHeaders};
use mrtr_core::wire::WireLimits;

use crate::abi::{finish_output, Args};
use crate::mrtr_status;
use crate::status::status_of;
use crate::types::mrtr_str;

/// The most headers one POST carries: `MCP-Protocol-Version`,
/// `Mcp-Method`, `Mcp-Name` (tools, prompts, resources), `Accept`,
/// `Content-Type`. The header array passed must hold this many.
pub const MRTR_HTTP_MAX_HEADERS: usize = 5;
/// The longest value mrtr emits (an encoded `Mcp-Name`); longer ones are
/// `MRTR_ERR_LIMIT_EXCEEDED`.
pub const MRTR_HTTP_MAX_VALUE_BYTES: usize = 8192;
const _: () = assert!(MRTR_HTTP_MAX_VALUE_BYTES == mrtr_core::client::http::MAX_HEADER_VALUE_BYTES);

/// One HTTP header: views into static text or the caller's buffer.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_http_header {
    /// The header name.
    pub name: mrtr_str,
    /// The value, ready to send (non-ASCII or unsafe values are
    /// `=?base64?...?=`-encoded).
    pub value: mrtr_str,
}

fn status_of_http(e: HttpError) -> mrtr_status {
    match e {
        HttpError::BufferTooSmall { .. } => mrtr_status::MRTR_ERR_BUFFER_TOO_SMALL,
        HttpError::ValueTooLong { .. } => mrtr_status::MRTR_ERR_LIMIT_EXCEEDED,
        HttpError::BadMethod | HttpError::MissingName | HttpError::NotARequest => {
            mrtr_status::MRTR_ERR_INVALID_ARGUMENT
        }
        HttpError::Wire(w) => w.into(),
    }
}

/// Writes the dynamic values into `buf` and the header list.
///
/// # Safety
/// `buf` must point to `buf_len` writable bytes (unless 0), `out_written`
/// to a writable `size_t`, `out_headers` to `headers_cap` writable
/// `mrtr_http_header`, `out_count` to a writable `size_t`; `inputs` are
/// the spans of the other arguments.
#[allow(clippy::too_many_arguments)]
unsafe fn emit(
    headers: Result<RequestHeaders<'_>, HttpError>,
    a: &mut Args,
    buf: *mut u8,
    buf_len: usize,
    out_written: *mut usize,
    out_headers: *mut mrtr_http_header,
    headers_cap: usize,
    out_count: *mut usize,
) -> Result<(), mrtr_status> {
    // SAFETY: caller contract; every pointer is checked as it is taken.
    let (out_written, out_count) = unsafe { (a.out(out_written)?, a.out(out_count)?) };
    // SAFETY: caller contract.
    let out_headers = unsafe { a.out_array(out_headers, MRTR_HTTP_MAX_HEADERS) }?;
    if headers_cap < MRTR_HTTP_MAX_HEADERS {
        return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
    }
    // SAFETY: caller contract; overlaps refused.
    let buf = unsafe { a.out_buf(buf, buf_len) }?;
    let h = headers.map_err(status_of_http)?;
    let needed = h.buffer_len();
    if buf.len() < needed {
        return finish_output(Err(mrtr_core::json::BufferTooSmall { needed }), out_written);
    }
    let written = h.write(buf).map_err(status_of_http)?;
    let mut n = 0usize;
    for (i, (name, value)) in written.iter().enumerate().take(MRTR_HTTP_MAX_HEADERS) {
        // SAFETY: `i < MRTR_HTTP_MAX_HEADERS <= headers_cap`; the array is
        // writable (caller contract), aligned and disjoint (checked).
        unsafe {
            out_headers.add(i).write(mrtr_http_header {
                name: mrtr_str::from_str(name),
                value: mrtr_str::from_str(value),
            })
        };
        n = i + 1;
    }
    out_count.write(n);
    finish_output(Ok(needed), out_written)
}

/// The headers of a POST carrying a request or notification `method`,
/// with `name` (the tool or prompt name, or the resource URI; required for
/// `tools/call`, `prompts/get`, `resources/read`; `ptr` NULL for none).
///
/// The encoded values are written into `buf` (output convention of
/// `mrtr_json_write_string`: `*out_written` gets the bytes used, or the
/// size needed with `MRTR_ERR_BUFFER_TOO_SMALL`); the headers go to
/// `out_headers` (at least `MRTR_HTTP_MAX_HEADERS` entries, views into
/// static text and `buf`) and their number to `*out_count`.
///
/// Returns `MRTR_OK`, `MRTR_ERR_BUFFER_TOO_SMALL`, `MRTR_ERR_LIMIT_EXCEEDED`
/// (an encoded value over `MRTR_HTTP_MAX_VALUE_BYTES`),
/// `MRTR_ERR_INVALID_ARGUMENT` (an empty or non-visible-ASCII method, a missing
/// name, `headers_cap` too small),
/// `MRTR_ERR_INVALID_UTF8`.
///
/// # Safety
/// `method` and `name` readable; `buf` must point to `buf_len` writable
/// bytes (unless 0); `out_written` and `out_count` to writable `size_t`;
/// `out_headers` to `headers_cap` writable `mrtr_http_header`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_http_headers(
    method: mrtr_str,
    name: mrtr_str,
    buf: *mut u8,
    buf_len: usize,
    out_written: *mut usize,
    out_headers: *mut mrtr_http_header,
    headers_cap: usize,
    out_count: *mut usize,
) -> mrtr_status {
    status_of((|| {
        let mut a = Args::free();
        // SAFETY: caller contract.
        let method = unsafe { a.str(method) }?;
        let name = if name.ptr.is_null() {
            None
        } else {
            // SAFETY: caller contract.
            Some(unsafe { a.str(name) }?)
        };
        // SAFETY: caller contract.
        unsafe {
            emit(
                RequestHeaders::new(method, name),
                &mut a,
                buf,
                buf_len,
                out_written,
                out_headers,
                headers_cap,
                out_count,
            )
        }
    })())
}

/// The headers of a POST carrying `body`, one JSON-RPC request or
/// notification (the bytes `mrtr_call_write_request` produced): method and
/// `params.name` / `params.uri` are read from it, escapes decoded, so the
/// headers cannot disagree with the body. Outputs and statuses as
/// `mrtr_http_headers`, plus `MRTR_ERR_JSON` / `MRTR_ERR_ENVELOPE` for a
/// body that is not a readable message and `MRTR_ERR_INVALID_ARGUMENT` for
/// a response.
///
/// # Safety
/// `body` must point to `body_len` readable bytes; the outputs as for
/// `mrtr_http_headers`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_http_headers_for_message(
    body: *const u8,
    body_len: usize,
    buf: *mut u8,
    buf_len: usize,
    out_written: *mut usize,
    out_headers: *mut mrtr_http_header,
    headers_cap: usize,
    out_count: *mut usize,
) -> mrtr_status {
    status_of((|| {
        let mut a = Args::free();
        // SAFETY: caller contract.
        let body = unsafe { a.bytes(body, body_len) }?;
        let limits = WireLimits::default();
        // SAFETY: caller contract.
        unsafe {
            emit(
                RequestHeaders::for_message(body, &limits),
                &mut a,
                buf,
                buf_len,
                out_written,
                out_headers,
                headers_cap,
                out_count,
            )
        }
    })())
}
