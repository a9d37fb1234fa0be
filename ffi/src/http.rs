//! `mrtr_http_headers*`: the headers of a Streamable HTTP POST, for apps
//! with their own HTTP stack.

use mrtr_core::client::http::{HttpError, RequestHeaders, MAX_HEADER_VALUE_BYTES};
use mrtr_core::client::tools::{version_answer, Designations, ParamHeaders};
use mrtr_core::client::tools::{VersionAnswer::*, MAX_VERSION_RETRIES};
use mrtr_core::wire::WireLimits;

use crate::abi::{finish_output, run, Args};
use crate::mrtr_status::{self, *};
use crate::types::{mrtr_http_header, mrtr_str, same};

/// The most headers one POST carries: `MCP-Protocol-Version`,
/// `Mcp-Method`, `Mcp-Name` (tools, prompts, resources, tasks), `Accept`,
/// `Content-Type`. The header array passed must hold this many.
pub const MRTR_HTTP_MAX_HEADERS: usize = 5;
/// The longest value mrtr emits (an encoded `Mcp-Name`); longer ones are
/// `MRTR_ERR_LIMIT_EXCEEDED`.
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
        return Err(MRTR_ERR_INVALID_ARGUMENT);
    }
    // SAFETY: caller contract; overlaps refused.
    let buf = unsafe { a.out_buf(buf, buf_len) }?;
    let (h, p) = (headers?, params.transpose()?);
    let std_len = h.buffer_len();
    let needed = std_len.saturating_add(p.map_or(0, |p| p.buffer_len()));
    let count = p.map_or(0, |p| p.count());
    if headers_cap - MRTR_HTTP_MAX_HEADERS < count {
        out_count.write(MRTR_HTTP_MAX_HEADERS + count);
        out_written.write(needed);
        return Err(MRTR_ERR_BUFFER_TOO_SMALL);
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
    h.write(std_buf)?
        .iter()
        .for_each(|(name, value)| put(name, value));
    if let Some(p) = p {
        p.write(param_buf, put)?;
    }
    out_count.write(n);
    finish_output(Ok(needed), out_written)
}

/// The headers of a POST carrying a request or notification `method`,
/// with `name` (the tool or prompt name, the resource URI or the task id;
/// required for `tools/call`, `prompts/get`, `resources/read`, `tasks/get`,
/// `tasks/update`, `tasks/cancel`; `{NULL, 0}` for none).
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
    let o = (buf, buf_len, out_written);
    let l = (out_headers, headers_cap, out_count);
    // SAFETY: caller contract; every pointer is checked as it is taken.
    run(|a| unsafe {
        let h = RequestHeaders::new(a.str(method)?, a.str_opt(name)?);
        emit(a, h, None, o, l)
    })
}

/// The headers of a POST carrying `body`, one JSON-RPC request or
/// notification (the bytes `mrtr_call_write_request` produced): method and
/// `params.name` / `params.uri` / `params.taskId` are read from it, escapes
/// decoded, so the
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
    let o = (buf, buf_len, out_written);
    let l = (out_headers, headers_cap, out_count);
    // SAFETY: caller contract; every pointer is checked as it is taken.
    run(|a| unsafe {
        let h = RequestHeaders::for_message(a.bytes(body, body_len)?, &WireLimits::default());
        emit(a, h, None, o, l)
    })
}

/// The headers of a POST carrying `body`, a `tools/call` request, for the
/// tool whose `inputSchema` (the raw JSON from `tools/list`) is
/// `input_schema`: the headers of `mrtr_http_headers_for_message`, then one
/// `Mcp-Param-<Name>` header for each argument the schema designates with
/// `"x-mcp-header": "<Name>"` (SEP-2243), at any depth reached through
/// `properties` (`arguments.target.zone`), in the schema's document order.
/// An absent or `null` argument (or one below a member that is absent,
/// `null` or not an object) sends no header; a string is sent as it is
/// when it is safe header text, else `=?base64?...?=`-encoded; an integer,
/// which must be a safe integer (at most 2^53 - 1 in magnitude: `1.5`,
/// `9007199254740993` and `1e400` are refused), in canonical decimal form
/// (`1e2` as `100`); a boolean as `true` or `false`.
///
/// `out_headers` holds `headers_cap` entries: at least
/// `MRTR_HTTP_MAX_HEADERS` plus one per mirrored argument (when it holds
/// fewer, `MRTR_ERR_BUFFER_TOO_SMALL` with the entries needed in
/// `*out_count` and the bytes needed in `*out_written`). Names and values
/// are views into static text and `buf`.
///
/// Returns the statuses of `mrtr_http_headers_for_message`, plus
/// `MRTR_ERR_INVALID_SCHEMA` (the schema's designations are invalid, see
/// `mrtr_tool_header_check`: do not call that tool),
/// `MRTR_ERR_INVALID_VALUE` (a designated argument of another JSON type
/// than its designation, an integer that is not a safe integer, a member
/// repeated on a designated argument's path, or `arguments` not an
/// object: nothing is mirrored) and
/// `MRTR_ERR_INVALID_ARGUMENT` (the body is not a `tools/call` request).
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
) -> mrtr_status {
    let o = (buf, buf_len, out_written);
    let l = (out_headers, headers_cap, out_count);
    // SAFETY: caller contract; every pointer is checked as it is taken.
    run(|a| unsafe {
        let (body, schema, limits) = (
            a.bytes(body, body_len)?,
            a.str(input_schema)?,
            WireLimits::default(),
        );
        let p = ParamHeaders::for_message(body, schema.as_bytes(), &limits);
        emit(a, RequestHeaders::for_message(body, &limits), Some(p), o, l)
    })
}

/// Checks a tool's `x-mcp-header` designations (SEP-2243) before the tool
/// is offered: `input_schema` is its `inputSchema` from `tools/list`, the
/// raw JSON. A designation is valid on a property reached from the root
/// through `properties` alone, at any depth (`target.zone`), and nowhere
/// else (not on the root, not under `items`, `anyOf`,
/// `additionalProperties`, `$defs`, ...); its name is a non-empty HTTP
/// token (ASCII letters, digits and ``!#$%&'*+-.^_`|~``: no space, colon,
/// control or non-ASCII character), the property's one `type` is
/// `"string"`, `"integer"` or `"boolean"` (neither `x-mcp-header` nor
/// `type` repeated), and no other designation at any depth has the same
/// name ignoring case; a tool has at most 64 designations and nests at
/// most 32 levels deep. A client must not call a tool whose designations
/// are invalid (the other tools of the list stay usable).
///
/// Returns `MRTR_OK` with the number of designated properties in
/// `*out_count` (0 for a schema without any), `MRTR_ERR_INVALID_SCHEMA`
/// (an invalid designation, or a schema that is not a JSON object with an
/// object `properties`), `MRTR_ERR_NULL_POINTER`, `MRTR_ERR_INVALID_UTF8`.
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
        if let Some(o) = out_count {
            o.write(d.len());
        }
        Ok(())
    })
}

/// How many times one request is sent again after error `-32022`: once.
/// This library speaks one revision, so a resend carries the same version
/// as before; a second `-32022` is the server refusing it
/// (`mrtr_version_retry` then returns `MRTR_ERR_UNSUPPORTED_VERSION`).
pub const MRTR_MAX_VERSION_RETRIES: u32 = 1;
same! { MRTR_MAX_VERSION_RETRIES => MAX_VERSION_RETRIES }

/// What to do after a response to a request: `msg` is the response,
/// `retries` how many times this request was already sent again after a
/// `-32022` (0 for the first answer). Returns `MRTR_OK` (send the request
/// again, unchanged, with a new id) only when `msg` is error `-32022`
/// (unsupported protocol version) whose `data.supported` lists
/// `"2026-07-28"` (`mrtr_protocol_version()`, the only revision this
/// library speaks), whose `data.requested` is not that revision, and
/// `retries` is below `MRTR_MAX_VERSION_RETRIES` (1). Any other `-32022`
/// returns `MRTR_ERR_UNSUPPORTED_VERSION`, a final answer: the server and
/// this library share no revision, or the server refused this one
/// (`data.requested` names it, or it was already sent again), even when
/// `data.supported` lists it. So a loop that counts its resends into
/// `retries` sends a request at most twice. A `-32022` whose `data` holds
/// a repeated member (`supported` twice, say) is `MRTR_ERR_JSON`. Any
/// other message (a result, another error, an unreadable message) is
/// `MRTR_ERR_NOT_FOUND`: no version answer in it.
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
