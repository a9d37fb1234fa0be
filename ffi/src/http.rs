//! `mrtr_http_headers*`: the headers of a Streamable HTTP POST, for apps
//! with their own HTTP stack.

use mrtr_core::client::http::{HttpError, RequestHeaders, MAX_HEADER_VALUE_BYTES};
use mrtr_core::client::tools::{version_answer, Designations, ParamHeaders};
use mrtr_core::client::tools::{VersionAnswer::*, MAX_VERSION_RETRIES};
use mrtr_core::wire::WireLimits;

use core::ffi::c_char;

use crate::abi::{finish_output, run, Args, Put};
use crate::mrtr_status::{self, *};
use crate::types::{mrtr_http_header, mrtr_str, same};

/// Standard headers of one POST (`MCP-Protocol-Version`, `Mcp-Method`,
/// `Mcp-Name`, `Accept`, `Content-Type`): the least `headers_cap`.
pub const MRTR_HTTP_MAX_HEADERS: usize = 5;
/// Longest header value emitted (an encoded `Mcp-Name`); `MRTR_ERR_LIMIT_EXCEEDED` beyond.
pub const MRTR_HTTP_MAX_VALUE_BYTES: usize = 8192;
same! { MRTR_HTTP_MAX_VALUE_BYTES => MAX_HEADER_VALUE_BYTES }

/// The outputs every `mrtr_http_headers*` function shares, unchecked: the
/// buffer (`buf`, `buf_len`, `out_written`) and the header array
/// (`out_headers`, `headers_cap`, `out_count`).
type Buf = (*mut u8, usize, *mut usize);
type List = (*mut mrtr_http_header, usize, *mut usize);

/// Writes the dynamic values into `buf` and the header list: the standard
/// headers, then the `Mcp-Param-*` headers of `params` when given.
///
/// # Safety
/// `buf` must point to `buf_len` writable bytes (unless 0), `out_written`
/// and `out_count` to a writable `size_t`, `out_headers` to `headers_cap`
/// writable `mrtr_http_header`; `a` holds the inputs.
unsafe fn emit(
    a: &mut Args,
    headers: Result<RequestHeaders<'_>, HttpError>,
    params: Option<Result<ParamHeaders<'_>, HttpError>>,
    (buf, buf_len, out_written): Buf,
    (out_headers, headers_cap, out_count): List,
) -> Result<(), mrtr_status> {
    // SAFETY: caller contract; every pointer is checked as it is taken.
    let (out_written, out_count) = unsafe { (a.out(out_written)?, a.out(out_count)?) };
    // Too small an array is still claimed, so NULL or misalignment is
    // reported first. With parameters the whole array is claimed.
    let claimed = match (headers_cap < MRTR_HTTP_MAX_HEADERS, params.is_some()) {
        (false, true) => headers_cap,
        _ => MRTR_HTTP_MAX_HEADERS,
    };
    // SAFETY: caller contract.
    let out_headers = unsafe { a.out_array(out_headers, claimed) }?;
    if headers_cap < MRTR_HTTP_MAX_HEADERS {
        return Err(a.refuse(MRTR_ERR_INVALID_ARGUMENT, c"HeadersCapTooSmall"));
    }
    // SAFETY: caller contract; overlaps refused.
    let buf = unsafe { a.out_buf(buf, buf_len) }?;
    let mut refused = |e: HttpError| a.refuse(e.into(), e.name());
    let h = headers.map_err(&mut refused)?;
    let p = params.transpose().map_err(&mut refused)?;
    let std_len = h.buffer_len();
    let needed = std_len.saturating_add(p.map_or(0, |p| p.buffer_len()));
    let count = p.map_or(0, |p| p.count());
    if headers_cap - MRTR_HTTP_MAX_HEADERS < count {
        out_count.write(MRTR_HTTP_MAX_HEADERS + count);
        out_written.write(needed);
        return Err(a.refuse(MRTR_ERR_BUFFER_TOO_SMALL, c"TooFewHeaderEntries"));
    }
    if buf.len() < needed {
        return finish_output(Err(mrtr_core::json::BufferTooSmall { needed }), out_written);
    }
    let (std_buf, param_buf) = buf.split_at_mut(std_len);
    let mut n = 0usize;
    let mut put = |name: &str, value: &str| {
        if n < claimed {
            let (name, value) = (mrtr_str::from_str(name), mrtr_str::from_str(value));
            // SAFETY: `n < claimed <= headers_cap`; the array is writable
            // (caller contract), aligned and disjoint (checked).
            unsafe { out_headers.add(n).write(mrtr_http_header { name, value }) };
            n += 1;
        }
    };
    h.write(std_buf)
        .map_err(|e| a.refuse(e.into(), e.name()))?
        .iter()
        .for_each(|(name, value)| put(name, value));
    if let Some(p) = p {
        p.write(param_buf, put)
            .map_err(|e| a.refuse(e.into(), e.name()))?;
    }
    out_count.write(n);
    finish_output(Ok(needed), out_written)
}

/// The headers of a POST of `method` with `name`, the tool, prompt, resource
/// URI or task id (needed by `tools/call`, `prompts/get`, `resources/read`,
/// `tasks/get|update|cancel`; `{NULL, 0}` for none): values into `buf` as
/// `mrtr_json_write_string` writes, headers (views) to `out_headers`.
/// `MRTR_ERR_BUFFER_TOO_SMALL`, `MRTR_ERR_LIMIT_EXCEEDED` (a value too long),
/// `MRTR_ERR_INVALID_ARGUMENT` (bad method, missing name, `headers_cap` below
/// `MRTR_HTTP_MAX_HEADERS`), `MRTR_ERR_INVALID_UTF8`. On a failure
/// `*out_reason` (optional) names the cause: `"BadMethod"`, `"MissingName"`,
/// `"HeadersCapTooSmall"`, `"ValueTooLong"`, `"NotARequest"`, `"NotAToolCall"`, `"Wire"`,
/// `"ParamType"`, `"NotSafeInteger"`, `"RepeatedMember"`, `"Designation"`,
/// `"TooFewHeaderEntries"`, or the status's own name.
///
/// # Safety
/// `method` and `name` readable; `buf` must point to `buf_len` writable
/// bytes (unless 0); `out_written` and `out_count` to writable `size_t`;
/// `out_headers` to `headers_cap` writable `mrtr_http_header`; `out_reason` NULL
/// or a writable `const char *`.
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
    out_reason: *mut *const c_char,
) -> mrtr_status {
    let o = (buf, buf_len, out_written);
    let l = (out_headers, headers_cap, out_count);
    // SAFETY: caller contract; every pointer is checked as it is taken.
    run(|a| unsafe {
        a.told(out_reason, |a| {
            let h = RequestHeaders::new(a.str(method)?, a.str_opt(name)?);
            emit(a, h, None, o, l)
        })
    })
}

/// `mrtr_http_headers` with method and name read from `body`, one request or
/// notification. Also `MRTR_ERR_JSON`, `MRTR_ERR_ENVELOPE` (not a message),
/// `MRTR_ERR_INVALID_ARGUMENT` (a response).
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
    out_reason: *mut *const c_char,
) -> mrtr_status {
    let o = (buf, buf_len, out_written);
    let l = (out_headers, headers_cap, out_count);
    // SAFETY: caller contract; every pointer is checked as it is taken.
    run(|a| unsafe {
        a.told(out_reason, |a| {
            let h = RequestHeaders::for_message(a.bytes(body, body_len)?, &WireLimits::default());
            emit(a, h, None, o, l)
        })
    })
}

// The mirroring rules (absent and null arguments, base64 for unsafe text,
// safe integers in canonical decimal): docs/ARCHITECTURE.md, section 9.
/// `mrtr_http_headers_for_message` for a `tools/call` `body`, plus one
/// `Mcp-Param-<Name>` per argument `input_schema` designates (SEP-2243).
/// `MRTR_ERR_BUFFER_TOO_SMALL` also for too few entries (those needed to
/// `*out_count`), `MRTR_ERR_INVALID_SCHEMA` (bad designations: do not call),
/// `MRTR_ERR_INVALID_VALUE` (an argument of the wrong type, an unsafe integer,
/// a repeated member, `arguments` not an object), `MRTR_ERR_INVALID_ARGUMENT`
/// (not `tools/call`).
///
/// # Safety
/// `body` must point to `body_len` readable bytes, `input_schema` be
/// readable; the outputs as for `mrtr_http_headers`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_http_headers_for_tool_call(
    body: *const u8,
    body_len: usize,
    input_schema: mrtr_str,
    buf: *mut u8,
    buf_len: usize,
    out_written: *mut usize,
    out_headers: *mut mrtr_http_header,
    headers_cap: usize,
    out_count: *mut usize,
    out_reason: *mut *const c_char,
) -> mrtr_status {
    let o = (buf, buf_len, out_written);
    let l = (out_headers, headers_cap, out_count);
    // SAFETY: caller contract; every pointer is checked as it is taken.
    run(|a| unsafe {
        a.told(out_reason, |a| {
            let (body, schema, limits) = (
                a.bytes(body, body_len)?,
                a.str(input_schema)?,
                WireLimits::default(),
            );
            let p = ParamHeaders::for_message(body, schema.as_bytes(), &limits);
            emit(a, RequestHeaders::for_message(body, &limits), Some(p), o, l)
        })
    })
}

/// Checks the `x-mcp-header` designations (SEP-2243) of a tool's raw
/// `inputSchema`; writes their number to `*out_count` if not NULL. Never call
/// a tool refused here. `MRTR_ERR_INVALID_SCHEMA` (an invalid designation, no
/// object `properties`), `MRTR_ERR_INVALID_UTF8`.
///
/// # Safety
/// `input_schema` readable; `out_count` NULL or a writable `size_t`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_tool_header_check(
    input_schema: mrtr_str,
    out_count: *mut usize,
) -> mrtr_status {
    // SAFETY: caller contract; every pointer is checked as it is taken.
    run(|a| unsafe {
        let (out_count, schema) = (a.out_opt(out_count)?, a.str(input_schema)?);
        let d = Designations::parse(schema.as_bytes()).map_err(|_| MRTR_ERR_INVALID_SCHEMA)?;
        out_count.put(d.len());
        Ok(())
    })
}

/// Resends of one request after error `-32022` (a second one is final).
pub const MRTR_MAX_VERSION_RETRIES: u32 = 1;
same! { MRTR_MAX_VERSION_RETRIES => MAX_VERSION_RETRIES }

/// After response `msg` to a request resent `retries` times: `MRTR_OK` (send
/// it again, new id) for a `-32022` whose `data.supported` lists
/// `mrtr_protocol_version()` and `data.requested` does not, with `retries`
/// below `MRTR_MAX_VERSION_RETRIES`;
/// `MRTR_ERR_UNSUPPORTED_VERSION` for any other `-32022` (final); `MRTR_ERR_JSON`
/// (a repeated member in `data`); `MRTR_ERR_NOT_FOUND` (no `-32022`).
///
/// # Safety
/// `msg` must point to `msg_len` readable bytes.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_version_retry(
    msg: *const u8,
    msg_len: usize,
    retries: u32,
) -> mrtr_status {
    run(|a| {
        // SAFETY: caller contract.
        let msg = unsafe { a.bytes(msg, msg_len) }?;
        match version_answer(msg, &WireLimits::default(), retries)? {
            Some(Retry) => Ok(()),
            Some(Unsupported | Refused) => Err(MRTR_ERR_UNSUPPORTED_VERSION),
            None => Err(MRTR_ERR_NOT_FOUND),
        }
    })
}
