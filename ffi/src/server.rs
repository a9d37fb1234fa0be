//! `mrtr_server_*`: the server half for C (docs/ARCHITECTURE.md, section
//! 5). Every function is stateless: parse a request into views of
//! its bytes, look answers up by key, write each response into a caller
//! buffer in one call. Every number, name and rule comes from the core; this
//! file only moves values across the boundary.

use core::ffi::c_char;

use mrtr_core::json::{self, BufferTooSmall, IndexSlot, JsonStr, Object, Writer};
use mrtr_core::param_headers::{check_param_header_list, Designations, ParamHeaderError};
use mrtr_core::server::{
    any_answer, roots_answer, write_answer_error, write_complete, write_invalid_request_state,
    write_missing_capability, write_request_error, write_unsupported_version, AnyAnswer, Ask,
    BuildError, CompleteError, Field, Incoming, InputRequiredBuilder, MetaPolicy, Method,
    RequestErrorKind, ServerRequest, UnusableAnswer, MAX_INPUT_REQUESTS_CAPACITY,
};
use mrtr_core::wire::reply::write_error_response;
use mrtr_core::wire::{
    ClientCapabilities, Id, InputKind, InputResponses, ResponseKind, WireLimits, PROTOCOL_VERSION,
};

use crate::abi::{finish_output, run, Args, Out, Put, Take, Views};
use crate::mrtr_status;
use crate::mrtr_status as S;
use crate::types::{c_enum, mrtr_http_header, mrtr_str, same};

/// Skip-index slots `mrtr_server_parse_request` keeps on its stack: every
/// container of a request of about 1.5 KB (one per 48 bytes).
const SERVER_INDEX_SLOTS: usize = 32;

// The server functions read with `WireLimits::default()`, the protocol's
// own bounds (see docs/ARCHITECTURE.md, section 5): nothing is
// sized by them, and the caller bounds the work by the `len` it passes.
fn limits() -> WireLimits {
    WireLimits::default()
}

fn caps_of(bits: u32) -> Result<ClientCapabilities, S> {
    ClientCapabilities::from_bits(bits).ok_or(S::MRTR_ERR_INVALID_ARGUMENT)
}

// `mrtr_request_id.kind` values.
#[allow(missing_docs)]
pub const MRTR_ID_NONE: u32 = 0;
#[allow(missing_docs)]
pub const MRTR_ID_NUMBER: u32 = 1;
#[allow(missing_docs)]
pub const MRTR_ID_STRING: u32 = 2;

/// A JSON-RPC request id: `kind` `MRTR_ID_NONE` (no id), `MRTR_ID_NUMBER`
/// (`number`) or `MRTR_ID_STRING` (`token`, its JSON token).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
#[allow(missing_docs)]
pub struct mrtr_request_id {
    pub kind: u32,
    pub number: i64,
    pub token: mrtr_str,
}

impl mrtr_request_id {
    fn of(id: Option<&Id<'_>>) -> Self {
        let (kind, number, token) = match id {
            None => (MRTR_ID_NONE, 0, mrtr_str::EMPTY),
            Some(Id::Number(n)) => (MRTR_ID_NUMBER, *n, mrtr_str::EMPTY),
            Some(Id::Str(s)) => (MRTR_ID_STRING, 0, token(Some(*s))),
        };
        mrtr_request_id {
            kind,
            number,
            token,
        }
    }

    /// Reads a caller's id: `Ok(None)` for `MRTR_ID_NONE`.
    ///
    /// # Safety
    /// A string id's token must be readable.
    unsafe fn read<'a>(&self, a: &mut Args) -> Result<Option<Id<'a>>, S> {
        let bad = S::MRTR_ERR_INVALID_ARGUMENT;
        match self.kind {
            MRTR_ID_NONE => Ok(None),
            MRTR_ID_NUMBER => Ok(Some(Id::Number(self.number))),
            MRTR_ID_STRING => {
                // SAFETY: caller contract.
                let t = unsafe { a.str(self.token) }?;
                let s = json::parse(t.as_bytes()).ok().and_then(|v| v.as_str());
                Ok(Some(Id::Str(
                    s.ok_or_else(|| a.refuse(bad, c"IdNotAJsonString"))?,
                )))
            }
            _ => Err(a.refuse(bad, c"UnknownIdKind")),
        }
    }
}

/// A method the server half reads (`OTHER`: route it by `method_json`, or
/// answer `-32601`); only `TOOLS_CALL`, `PROMPTS_GET`, `RESOURCES_READ` and
/// `TASKS_RESULT` may be answered with `input_required`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[allow(missing_docs)]
pub enum mrtr_server_method {
    #[default]
    MRTR_SERVER_METHOD_OTHER = 0,
    MRTR_SERVER_METHOD_TOOLS_CALL = 1,
    MRTR_SERVER_METHOD_PROMPTS_GET = 2,
    MRTR_SERVER_METHOD_RESOURCES_READ = 3,
    MRTR_SERVER_METHOD_TASKS_GET = 4,
    MRTR_SERVER_METHOD_TASKS_RESULT = 5,
    MRTR_SERVER_METHOD_TASKS_CANCEL = 6,
    MRTR_SERVER_METHOD_TASKS_INPUT_RESPONSE = 7,
    MRTR_SERVER_METHOD_TASKS_UPDATE = 8,
}
c_enum! { mrtr_server_method: MRTR_SERVER_METHOD_OTHER MRTR_SERVER_METHOD_TOOLS_CALL MRTR_SERVER_METHOD_PROMPTS_GET
MRTR_SERVER_METHOD_RESOURCES_READ MRTR_SERVER_METHOD_TASKS_GET
MRTR_SERVER_METHOD_TASKS_RESULT MRTR_SERVER_METHOD_TASKS_CANCEL
MRTR_SERVER_METHOD_TASKS_INPUT_RESPONSE MRTR_SERVER_METHOD_TASKS_UPDATE }

/// `mrtr_server_parse_request` flag: accept core requests without `_meta` (SEP-
/// draft clients, which then may be asked nothing).
pub const MRTR_SERVER_META_OPTIONAL: u32 = 1;

/// What arrived: a request (every field set), a notification (`method_json`,
/// `params`) or a response; the last two get no answer (HTTP `202`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[allow(missing_docs)]
pub enum mrtr_incoming_kind {
    #[default]
    MRTR_INCOMING_REQUEST = 1,
    MRTR_INCOMING_NOTIFICATION = 2,
    MRTR_INCOMING_RESPONSE = 3,
}

// `mrtr_server_request.flags` bits.
#[allow(missing_docs)]
pub const MRTR_REQUEST_HAS_META: u32 = 1;
#[allow(missing_docs)]
pub const MRTR_REQUEST_HAS_CAPS: u32 = 1 << 1;

/// A parsed message as views into its bytes: strings are JSON tokens (quotes
/// included: `mrtr_json_decode_string`), objects raw JSON, absent members
/// empty. `flags`: `MRTR_REQUEST_HAS_META`, `MRTR_REQUEST_HAS_CAPS`
/// (`client_caps`, `MRTR_CAP_*` bits, declared). `protocol_version`, when sent,
/// is `"2026-07-28"` (an HTTP `MCP-Protocol-Version` that differs is `-32020`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
#[allow(missing_docs)]
pub struct mrtr_server_request {
    pub kind: mrtr_incoming_kind,
    pub method: mrtr_server_method,
    pub method_json: mrtr_str,
    pub id: mrtr_request_id,
    pub flags: u32,
    pub client_caps: u32,
    pub params: mrtr_str,
    pub meta: mrtr_str,
    pub protocol_version: mrtr_str,
    pub client_name: mrtr_str,
    pub client_version: mrtr_str,
    pub name: mrtr_str,
    pub uri: mrtr_str,
    pub arguments: mrtr_str,
    pub task: mrtr_str,
    pub input_responses: mrtr_str,
    pub input_response_count: usize,
    pub request_state: mrtr_str,
    pub task_id: mrtr_str,
}

/// Why a message cannot be served: the `code` to answer (`-32700`, `-32600`,
/// `-32602`, `-32022`), the `id` when readable, and static names for logs of
/// the cause (`reason`) and of the member at fault (`field`, or `""`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(missing_docs)]
pub struct mrtr_server_error {
    pub code: i32,
    pub id: mrtr_request_id,
    pub reason: *const c_char,
    pub field: *const c_char,
}

fn policy_of(flags: u32) -> Result<MetaPolicy, S> {
    match flags {
        0 => Ok(MetaPolicy::Required),
        MRTR_SERVER_META_OPTIONAL => Ok(MetaPolicy::Optional),
        _ => Err(S::MRTR_ERR_INVALID_ARGUMENT),
    }
}

/// The view of an optional JSON string token (empty for none). Not
/// inlined: a request view reads a dozen of them.
#[inline(never)]
fn token(s: Option<JsonStr<'_>>) -> mrtr_str {
    s.map_or(mrtr_str::EMPTY, |s| mrtr_str::of_bytes(s.raw_token()))
}

fn raw(o: Option<Object<'_>>) -> mrtr_str {
    o.map_or(mrtr_str::EMPTY, |o| mrtr_str::of_bytes(o.raw()))
}

fn request_view(req: &ServerRequest<'_>) -> mrtr_server_request {
    // `_meta` and its members read in place (no copy of the request's
    // `_meta`).
    let (meta, method) = (req.meta.as_ref(), req.method);
    let info = meta.and_then(|m| m.client_info.as_ref());
    let has_caps = meta.is_some_and(|m| m.client_capabilities.is_some());
    mrtr_server_request {
        method: mrtr_server_method::of(method.code()),
        method_json: token(if let Method::Other(n) = method {
            Some(n)
        } else {
            None
        }),
        id: mrtr_request_id::of(Some(&req.id)),
        flags: (u32::from(meta.is_some()) * MRTR_REQUEST_HAS_META)
            | (u32::from(has_caps) * MRTR_REQUEST_HAS_CAPS),
        client_caps: req.client_capabilities().bits(),
        params: raw(req.params),
        meta: raw(meta.map(|m| m.raw)),
        protocol_version: token(meta.and_then(|m| m.protocol_version)),
        client_name: token(info.map(|i| i.name)),
        client_version: token(info.map(|i| i.version)),
        name: token(req.name),
        uri: token(req.uri),
        arguments: raw(req.arguments),
        task: raw(req.task),
        input_responses: raw(req.input_responses.map(|r| r.raw())),
        input_response_count: req.input_responses.map_or(0, |r| r.raw().len()),
        request_state: token(req.request_state),
        task_id: token(req.task_id),
        ..Default::default()
    }
}

fn request_error_status(kind: &RequestErrorKind<'_>) -> S {
    match kind {
        RequestErrorKind::Json(e) => (*e).into(),
        RequestErrorKind::Envelope(_) => S::MRTR_ERR_ENVELOPE,
        RequestErrorKind::UnsupportedProtocolVersion { .. } => S::MRTR_ERR_UNSUPPORTED_VERSION,
        k if k.is_limit() => S::MRTR_ERR_LIMIT_EXCEEDED,
        _ => S::MRTR_ERR_PROTOCOL_VIOLATION,
    }
}

/// Reads one message (`len` bytes at `msg`) into `*out` under the 2026-07-28
/// rules; `flags` 0 or `MRTR_SERVER_META_OPTIONAL`.
///
/// Returns `MRTR_OK`; for a message to answer with
/// `mrtr_server_write_request_error` (`*out_error`, when not NULL, says why):
/// `MRTR_ERR_JSON` (`-32700`), `MRTR_ERR_LIMIT_EXCEEDED` (`-32700`; `-32602`
/// for `inputResponses` or an object of over 1024 members), `MRTR_ERR_ENVELOPE`
/// (`-32600`), `MRTR_ERR_UNSUPPORTED_VERSION` (`-32022`),
/// `MRTR_ERR_PROTOCOL_VIOLATION` (`-32602`).
///
/// # Safety
/// `msg` readable for `len` bytes; `out` writable; `out_error` NULL or
/// writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_server_parse_request(
    msg: *const u8,
    len: usize,
    flags: u32,
    out: *mut mrtr_server_request,
    out_error: *mut mrtr_server_error,
) -> mrtr_status {
    run(|a| {
        // SAFETY: caller contract; every pointer is checked as it is taken.
        let (out, out_error, bytes) =
            unsafe { (a.out(out)?, a.out_opt(out_error)?, a.bytes(msg, len)?) };
        let policy = policy_of(flags)?;
        // A skip index on the stack (256 B on 32-bit targets); the views
        // point into `msg`, never into the slots.
        let mut slots = [IndexSlot::EMPTY; SERVER_INDEX_SLOTS];
        // Read through a reference: the request is not copied out of the
        // result.
        match &ServerRequest::parse_indexed(bytes, &limits(), policy, &mut slots) {
            Ok(Incoming::Request(req)) => out.write(request_view(req)),
            Ok(Incoming::Notification(n)) => out.write(mrtr_server_request {
                kind: mrtr_incoming_kind::MRTR_INCOMING_NOTIFICATION,
                method_json: token(Some(n.method)),
                params: raw(n.params),
                ..Default::default()
            }),
            Ok(Incoming::Response) => out.write(mrtr_server_request {
                kind: mrtr_incoming_kind::MRTR_INCOMING_RESPONSE,
                ..Default::default()
            }),
            Err(e) => {
                let reason = e.kind.name();
                out_error.put(mrtr_server_error {
                    code: e.code().code(),
                    id: mrtr_request_id::of(e.id.as_ref()),
                    reason: reason.as_ptr(),
                    field: e.kind.field().map_or(c"", Field::c_name).as_ptr(),
                });
                return Err(request_error_status(&e.kind));
            }
        }
        Ok(())
    })
}

/// Writes the error response for a message `mrtr_server_parse_request` refused
/// (same `msg`, `len`, `flags`). Output convention of `mrtr_json_write_string`.
///
/// Returns `MRTR_OK`, `MRTR_ERR_BUFFER_TOO_SMALL`, `MRTR_ERR_WRONG_STATE` (the
/// message is fine).
///
/// # Safety
/// `msg` readable for `len` bytes; `out` writable for `out_len` bytes (unless
/// 0); `out_written` writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_server_write_request_error(
    msg: *const u8,
    len: usize,
    flags: u32,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    run(|a| {
        // SAFETY: caller contract; every pointer is checked as it is taken.
        let (out_written, bytes) = unsafe { (a.out(out_written)?, a.bytes(msg, len)?) };
        // SAFETY: as above.
        let out = unsafe { a.out_buf(out, out_len) }?;
        // Read through a reference: the error is not copied out of the
        // result.
        match &ServerRequest::parse_with(bytes, &limits(), policy_of(flags)?) {
            Ok(_) => Err(S::MRTR_ERR_WRONG_STATE),
            Err(e) => finish_output(write_request_error(out, e), out_written),
        }
    })
}

// ----------------------------------------------------------------- answers

/// The kind of an input response (`NONE`: nothing under the key: ask).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[allow(missing_docs)]
pub enum mrtr_answer_kind {
    #[default]
    MRTR_ANSWER_NONE = 0,
    MRTR_ANSWER_ELICIT = 1,
    MRTR_ANSWER_SAMPLING = 2,
    MRTR_ANSWER_ROOTS = 3,
}
c_enum! { mrtr_answer_kind: MRTR_ANSWER_NONE MRTR_ANSWER_ELICIT MRTR_ANSWER_SAMPLING MRTR_ANSWER_ROOTS }

/// One answer as views (JSON tokens): elicitation `action` (`MRTR_ELICIT_*`)
/// and `content` (accept); sampling `content`, `role`, `model`, `stop_reason`,
/// `text` (one text block); roots `root_count`. `result` is the bare result,
/// `wrapped` true for the SEP draft's `{"result": ..}`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
#[allow(missing_docs)]
pub struct mrtr_server_answer {
    pub kind: mrtr_answer_kind,
    pub action: u32,
    pub content: mrtr_str,
    pub role: mrtr_str,
    pub model: mrtr_str,
    pub stop_reason: mrtr_str,
    pub text: mrtr_str,
    pub root_count: usize,
    pub result: mrtr_str,
    pub wrapped: bool,
}

/// Why an answer is unusable: `error` `MRTR_ANSWER_WRONG_KIND` (`found`: the
/// kind sent) or `MRTR_ANSWER_MALFORMED`; `expected`: the kind looked for
/// (`NONE` when unknown). Kinds are `mrtr_answer_kind` values.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(missing_docs)]
pub struct mrtr_answer_error {
    pub error: u32,
    pub expected: u32,
    pub found: u32,
}

// `mrtr_answer_error.error` values: the core's `UnusableAnswer::number`.
#[allow(missing_docs)]
pub const MRTR_ANSWER_WRONG_KIND: u32 = 1;
#[allow(missing_docs)]
pub const MRTR_ANSWER_MALFORMED: u32 = 2;

fn kind_of(code: u32) -> Result<Option<ResponseKind>, S> {
    let kind = ResponseKind::from_code(code);
    kind.map(Some)
        .or((code == 0).then_some(None))
        .ok_or(S::MRTR_ERR_INVALID_ARGUMENT)
}

/// Reads a request's raw `inputResponses` again (empty: none).
fn responses_of(raw: &str) -> Result<Option<InputResponses<'_>>, S> {
    if raw.is_empty() {
        return Ok(None);
    }
    let v = json::parse_with(raw.as_bytes(), &limits().json)?;
    Ok(Some(InputResponses::parse(v, &limits())?))
}

/// Writes to `*out` the answer under `key` in `input_responses` (from
/// `mrtr_server_request`). `expected`: the `mrtr_answer_kind` asked, or
/// `MRTR_ANSWER_NONE` for any.
///
/// Returns `MRTR_OK` (kind `MRTR_ANSWER_NONE`: absent);
/// `MRTR_ERR_PROTOCOL_VIOLATION` (unusable: `*out_error`, when not NULL, for
/// `mrtr_server_write_answer_error`); `MRTR_ERR_JSON`,
/// `MRTR_ERR_PROTOCOL_VIOLATION`, `MRTR_ERR_LIMIT_EXCEEDED` (not a valid map:
/// never for the map of a request `mrtr_server_parse_request` accepted, which
/// checked it under the same rules);
/// `MRTR_ERR_INVALID_UTF8`.
///
/// # Safety
/// `input_responses` and `key` readable; `out` writable; `out_error` NULL or
/// writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_server_input_response(
    input_responses: mrtr_str,
    key: mrtr_str,
    expected: u32,
    out: *mut mrtr_server_answer,
    out_error: *mut mrtr_answer_error,
) -> mrtr_status {
    run(|a| {
        // SAFETY: caller contract; every pointer is checked as it is taken.
        let (out, out_error) = unsafe { (a.out(out)?, a.out_opt(out_error)?) };
        // SAFETY: as above.
        let (map, key) = unsafe { (a.str(input_responses)?, a.str(key)?) };
        let expected = kind_of(expected)?;
        // The answer read through a reference (no copy of it out of the
        // result, nor out of the option).
        let read = any_answer(responses_of(map)?, key, expected);
        let f = match &read {
            Ok(Some(f)) => f,
            Ok(None) => {
                out.write(mrtr_server_answer::default());
                return Ok(());
            }
            Err(e) => {
                let code = |k: Option<ResponseKind>| k.map_or(0, |k| k as u32);
                let (error, found) = (e.error.number(), code(e.error.found()));
                let expected = code(e.kind_known.then(|| e.error.expected()));
                out_error.put(mrtr_answer_error {
                    error,
                    expected,
                    found,
                });
                return Err(S::MRTR_ERR_PROTOCOL_VIOLATION);
            }
        };
        let (result, wrapped) = (mrtr_str::of_bytes(f.result), f.wrapped);
        // Each kind's view is written where it is built.
        match &f.answer {
            AnyAnswer::Elicit(e) => out.write(mrtr_server_answer {
                kind: mrtr_answer_kind::of(ResponseKind::Elicit as u32),
                action: e.action as u32,
                content: raw(e.content),
                result,
                wrapped,
                ..Default::default()
            }),
            AnyAnswer::Sampling(s) => out.write(mrtr_server_answer {
                kind: mrtr_answer_kind::of(ResponseKind::Sampling as u32),
                content: mrtr_str::of_bytes(s.content.raw()),
                role: token(Some(s.role)),
                model: token(Some(s.model)),
                stop_reason: token(s.stop_reason),
                text: token(s.text()),
                result,
                wrapped,
                ..Default::default()
            }),
            AnyAnswer::Roots(r) => out.write(mrtr_server_answer {
                kind: mrtr_answer_kind::of(ResponseKind::Roots as u32),
                root_count: r.len(),
                result,
                wrapped,
                ..Default::default()
            }),
        }
        Ok(())
    })
}

/// One root of a roots answer: `uri` and `name` (when sent), JSON tokens.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(missing_docs)]
pub struct mrtr_server_root {
    pub uri: mrtr_str,
    pub name: mrtr_str,
}

/// Writes root `index` of the roots answer under `key` to `*out`.
///
/// Returns `MRTR_OK`, `MRTR_ERR_NOT_FOUND` (no roots answer, or no such index),
/// `MRTR_ERR_PROTOCOL_VIOLATION` (unusable), the map statuses of
/// `mrtr_server_input_response`.
///
/// # Safety
/// `input_responses` and `key` readable; `out` writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_server_root_at(
    input_responses: mrtr_str,
    key: mrtr_str,
    index: usize,
    out: *mut mrtr_server_root,
) -> mrtr_status {
    run(|a| {
        // SAFETY: caller contract; every pointer is checked as it is taken.
        let (out, map, key) = unsafe { (a.out(out)?, a.str(input_responses)?, a.str(key)?) };
        let roots = roots_answer(responses_of(map)?, key)
            .map_err(|_| S::MRTR_ERR_PROTOCOL_VIOLATION)?
            .ok_or(S::MRTR_ERR_NOT_FOUND)?;
        let r = roots.iter().nth(index).ok_or(S::MRTR_ERR_NOT_FOUND)?;
        out.write(mrtr_server_root {
            uri: token(Some(r.uri)),
            name: token(r.name),
        });
        Ok(())
    })
}

// ----------------------------------------------------------------- writers

/// One input request: `kind` (`mrtr_input_kind`), `key` (1 to 256 bytes,
/// unique), then form `message`, `requested_schema`; URL `message`, `url`;
/// sampling `params` (raw JSON); roots nothing.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(missing_docs)]
pub struct mrtr_input_spec {
    pub kind: u32,
    pub key: mrtr_str,
    pub message: mrtr_str,
    pub requested_schema: mrtr_str,
    pub url: mrtr_str,
    pub params: mrtr_str,
}

/// An `InputRequiredResult`: the request's `id`, `method`
/// (`mrtr_server_method`) and `client_caps`; `input_count` `inputs` (0 with a
/// state: a state-only round); `request_state` (sealed token) and
/// `related_task` (SEP task dialect), `{NULL, 0}` for none.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(missing_docs)]
pub struct mrtr_input_required {
    pub id: mrtr_request_id,
    pub method: u32,
    pub client_caps: u32,
    pub inputs: *const mrtr_input_spec,
    pub input_count: usize,
    pub request_state: mrtr_str,
    pub related_task: mrtr_str,
}

/// Why `mrtr_server_write_input_required` refused: the input's `index`
/// (`SIZE_MAX`: no input), the `MRTR_CAP_*` bits the client lacks
/// (`missing_caps`: answer with `mrtr_server_write_missing_capability`), and
/// the cause's static name (`reason`, for every failure).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(missing_docs)]
pub struct mrtr_build_error {
    pub index: usize,
    pub missing_caps: u32,
    pub reason: *const c_char,
}

impl Views for mrtr_input_spec {
    /// The key and what is asked, with the strings its kind uses.
    type Read<'a> = (&'a str, Ask<'a>);

    fn read<'a>(&self, t: &mut Take<'_, 'a>) -> Result<Self::Read<'a>, S> {
        use InputKind as K;
        let kind = K::from_code(self.kind).ok_or(S::MRTR_ERR_INVALID_ARGUMENT)?;
        let key = t.str(self.key)?;
        let ask = match kind {
            K::ElicitForm => Ask::Form {
                message: t.str(self.message)?,
                requested_schema: t.str(self.requested_schema)?.as_bytes(),
            },
            K::ElicitUrl => Ask::Url {
                message: t.str(self.message)?,
                url: t.str(self.url)?,
            },
            K::Sampling => Ask::Sampling {
                params: t.str(self.params)?.as_bytes(),
            },
            K::Roots => Ask::Roots,
        };
        Ok((key, ask))
    }
}

/// Writes an `InputRequiredResult`; every input is checked first (declared
/// kind; key; form schema; URL scheme; sampling `messages`, `maxTokens`).
/// Output convention of `mrtr_json_write_string`.
///
/// Returns `MRTR_OK`; `MRTR_ERR_BUFFER_TOO_SMALL`;
/// `MRTR_ERR_UNDECLARED_CAPABILITY`, `MRTR_ERR_INVALID_VALUE` (an input
/// refused: `*out_error`); `MRTR_ERR_LIMIT_EXCEEDED` (over 64);
/// `MRTR_ERR_WRONG_STATE` (method); `MRTR_ERR_INVALID_ARGUMENT` (nothing to
/// send, unknown value, bad id); `MRTR_ERR_INVALID_UTF8`. Every failure names
/// its cause in `out_error->reason` (`"Empty"`, `"NoId"`, `"UnknownMethod"`,
/// `"UnknownKind"`, `"UnknownCapability"`, an input's refusal, ...).
///
/// # Safety
/// `ir` readable, with its strings and `inputs` array; `out` writable for
/// `out_len` bytes (unless 0); `out_written` writable; `out_error` NULL or
/// writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_server_write_input_required(
    ir: *const mrtr_input_required,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
    out_error: *mut mrtr_build_error,
) -> mrtr_status {
    run(|a| {
        // SAFETY: caller contract; every pointer is checked as it is taken:
        // the struct, the id's token, the state, the related task, the spec
        // array and every string of every spec (one list), then the output.
        let (out_written, out_error) = unsafe { (a.out(out_written)?, a.out_opt(out_error)?) };
        // The input refused and the capabilities it lacks (`usize::MAX`: no
        // input). A pointer the checks refuse leaves `*out_error` untouched,
        // as every out-param.
        let mut at = (usize::MAX, 0);
        // SAFETY: as above.
        let r = unsafe { write_input_required(a, ir, (out, out_len), out_written, &mut at) };
        if let (Err(st), Some(o)) = (r, out_error) {
            if a.pointer_refused(st) {
                return r;
            }
            let (index, missing_caps) = at;
            o.write(mrtr_build_error {
                index,
                missing_caps,
                reason: a.reason(st).as_ptr(),
            });
        }
        r
    })
}

/// The body of [`mrtr_server_write_input_required`] after its out-params:
/// the refused input's index and missing capabilities go to `at`, the
/// cause's name to `a`.
///
/// # Safety
/// As [`mrtr_server_write_input_required`].
unsafe fn write_input_required(
    a: &mut Args,
    ir: *const mrtr_input_required,
    (out, out_len): (*mut u8, usize),
    out_written: Out<'_, usize>,
    at: &mut (usize, u32),
) -> Result<(), S> {
    let bad = S::MRTR_ERR_INVALID_ARGUMENT;
    // SAFETY: caller contract; every pointer is checked as it is taken.
    let ir = unsafe { a.reference(ir) }?;
    // SAFETY: as above.
    let id = unsafe { ir.id.read(a) }?.ok_or_else(|| a.refuse(bad, c"NoId"))?;
    // SAFETY: as above.
    let (state, task) = unsafe { (a.str_opt(ir.request_state)?, a.str_opt(ir.related_task)?) };
    // SAFETY: as above.
    let specs = unsafe { a.list(ir.inputs, ir.input_count) }
        .map_err(|s| a.refuse(s, if s == bad { c"UnknownKind" } else { c"" }))?;
    // SAFETY: as above.
    let out = unsafe { a.out_buf(out, out_len) }?;
    let method = Method::from_code(ir.method).ok_or_else(|| a.refuse(bad, c"UnknownMethod"))?;
    if !method.allows_input_required() {
        return Err(S::MRTR_ERR_WRONG_STATE);
    }
    let caps = caps_of(ir.client_caps).map_err(|s| a.refuse(s, c"UnknownCapability"))?;
    if specs.len() > MAX_INPUT_REQUESTS_CAPACITY {
        return Err(a.refuse(S::MRTR_ERR_LIMIT_EXCEEDED, c"TooManyRequests"));
    }
    let mut b = InputRequiredBuilder::new(out, &id, &caps);
    for (index, spec) in specs.iter().enumerate() {
        let (key, ask) = spec?;
        let Err(e) = b.input(key, ask) else {
            continue;
        };
        let (status, missing_caps) = match e {
            BuildError::MissingCapability { missing } => {
                (S::MRTR_ERR_UNDECLARED_CAPABILITY, missing.bits())
            }
            BuildError::TooManyRequests { .. } => (S::MRTR_ERR_LIMIT_EXCEEDED, 0),
            e if e.is_bad_input() => (S::MRTR_ERR_INVALID_VALUE, 0),
            _ => (S::MRTR_ERR_INTERNAL, 0),
        };
        *at = (index, missing_caps);
        return Err(a.refuse(status, e.name()));
    }
    if let Some(s) = state {
        b.request_state(s);
    }
    if let Some(t) = task {
        b.related_task(t);
    }
    match b.finish() {
        Ok(n) => finish_output(Ok(n), out_written),
        Err(BuildError::BufferTooSmall { needed }) => {
            finish_output(Err(BufferTooSmall { needed }), out_written)
        }
        Err(e @ BuildError::Empty) => Err(a.refuse(bad, e.name())),
        Err(e) => Err(a.refuse(S::MRTR_ERR_INTERNAL, e.name())),
    }
}

/// What a writer produces: the bytes written, or the size it needs.
type Written = Result<Result<usize, BufferTooSmall>, S>;

/// The frame of every id-taking writer: `id` (when `required`, NULL is
/// `MRTR_ERR_NULL_POINTER` and `MRTR_ID_NONE` `MRTR_ERR_INVALID_ARGUMENT`),
/// the inputs `take` reads, `out_written`, the id's token, then the output
/// buffer, in that order; then `write`.
///
/// # Safety
/// `take` must read every pointer through the `Args` it is given; `id` NULL
/// or readable (with a readable token); `out` writable for `out_len` bytes;
/// `out_written` writable.
unsafe fn reply<'x, T>(
    (id, required): (*const mrtr_request_id, bool),
    (out, out_len, out_written): (*mut u8, usize, *mut usize),
    take: impl FnOnce(&mut Args) -> Result<T, S>,
    write: impl FnOnce(Option<Id<'x>>, T, &mut [u8]) -> Written,
) -> S {
    run(|a| {
        if required && id.is_null() {
            return Err(S::MRTR_ERR_NULL_POINTER);
        }
        let taken = take(a)?;
        // SAFETY: caller contract.
        let (id, out, out_written) =
            unsafe { frame(a, (id, required), (out, out_len, out_written)) }?;
        finish_output(write(id, taken, out)?, out_written)
    })
}

/// What [`frame`] hands a writer: the id, the output buffer, `out_written`.
type Framed<'x, 'o> = (Option<Id<'x>>, &'o mut [u8], Out<'o, usize>);

/// The part of [`reply`] after its inputs, one body for every writer (not
/// generic): `out_written`, the id and its token (`MRTR_ID_NONE` refused
/// when `required`), then the output buffer, in that order.
///
/// # Safety
/// As [`reply`].
unsafe fn frame<'x, 'o>(
    a: &mut Args,
    (id, required): (*const mrtr_request_id, bool),
    (out, out_len, out_written): (*mut u8, usize, *mut usize),
) -> Result<Framed<'x, 'o>, S> {
    // SAFETY: caller contract; every pointer is checked as it is taken.
    let (out_written, id) = unsafe { (a.out(out_written)?, a.reference_opt(id)?) };
    // SAFETY: caller contract.
    let id = unsafe { id.map(|r| r.read(a)).transpose() }?.flatten();
    if required && id.is_none() {
        return Err(S::MRTR_ERR_INVALID_ARGUMENT);
    }
    // SAFETY: caller contract; overlaps with every argument refused.
    let out = unsafe { a.out_buf(out, out_len) }?;
    Ok((id, out, out_written))
}

/// The id of a writer that requires one (`reply` refused none already).
fn must(id: Option<Id<'_>>) -> Result<Id<'_>, S> {
    id.ok_or(S::MRTR_ERR_INTERNAL)
}

/// Writes a complete result for `id`: `result` is the result object or its
/// members alone (`resultType` goes first). Output convention of
/// `mrtr_json_write_string`.
///
/// Returns `MRTR_OK`, `MRTR_ERR_BUFFER_TOO_SMALL`, `MRTR_ERR_JSON`,
/// `MRTR_ERR_INVALID_VALUE` (a `resultType` not `"complete"`),
/// `MRTR_ERR_INVALID_ARGUMENT` (no id, a bad id), `MRTR_ERR_INVALID_UTF8`.
///
/// # Safety
/// `id` readable; `result` readable; `out` writable for `out_len` bytes
/// (unless 0); `out_written` writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_server_write_complete(
    id: *const mrtr_request_id,
    result: mrtr_str,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    let write =
        |id, body: &str, out: &mut [u8]| match write_complete(out, &must(id)?, body.as_bytes()) {
            Ok(n) => Ok(Ok(n)),
            Err(CompleteError::BufferTooSmall { needed }) => Ok(Err(BufferTooSmall { needed })),
            Err(CompleteError::InvalidJson(_)) => Err(S::MRTR_ERR_JSON),
            Err(CompleteError::ConflictingResultType) => Err(S::MRTR_ERR_INVALID_VALUE),
        };
    // SAFETY: caller contract (the string this reads).
    let take = |a: &mut Args| unsafe { a.str(result) };
    // SAFETY: caller contract; `take` reads through the collector.
    unsafe { reply((id, true), (out, out_len, out_written), take, write) }
}

/// Writes a JSON-RPC error: `code`, `message` (text), `data` (raw JSON; `{NULL,
/// 0}`: none). `id` NULL or `MRTR_ID_NONE` omits the id. Output as
/// `mrtr_server_write_complete`.
///
/// Returns `MRTR_OK`, `MRTR_ERR_BUFFER_TOO_SMALL`, `MRTR_ERR_JSON`,
/// `MRTR_ERR_INVALID_UTF8`, `MRTR_ERR_INVALID_ARGUMENT` (a bad id).
///
/// # Safety
/// `id` NULL or readable; `message` and `data` readable; `out` writable for
/// `out_len` bytes (unless 0); `out_written` writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_server_write_error(
    id: *const mrtr_request_id,
    code: i32,
    message: mrtr_str,
    data: mrtr_str,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    // SAFETY: caller contract (the strings and struct this reads).
    let take = |a: &mut Args| unsafe {
        let (message, data) = (a.str(message)?, a.str_opt(data)?);
        data.map(|d| json::parse(d.as_bytes())).transpose()?;
        Ok((message, data))
    };
    let write = |id: Option<Id>, (m, d): (&str, Option<&str>), out: &mut [u8]| {
        let mut w = Writer::new(out);
        write_error_response(&mut w, id.as_ref(), code, m, d.map(str::as_bytes));
        Ok(w.finish())
    };
    // SAFETY: caller contract; `take` reads through the collector.
    unsafe { reply((id, false), (out, out_len, out_written), take, write) }
}

/// Writes `-32021` with `data.requiredCapabilities` from `required_caps`
/// (`MRTR_CAP_*`, e.g. `mrtr_build_error.missing_caps`). Output and statuses as
/// `mrtr_server_write_complete`.
///
/// # Safety
/// As `mrtr_server_write_complete`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_server_write_missing_capability(
    id: *const mrtr_request_id,
    required_caps: u32,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    let write = |id, c, out: &mut [u8]| Ok(write_missing_capability(out, &must(id)?, &c));
    let take = |_: &mut Args| caps_of(required_caps);
    // SAFETY: caller contract; `take` reads no pointer.
    unsafe { reply((id, true), (out, out_len, out_written), take, write) }
}

/// Writes `-32022` with `data.requested` (`requested_json`, a quoted JSON
/// string; else `MRTR_ERR_JSON`) and `data.supported`. `id` may be NULL. Output
/// and statuses as `mrtr_server_write_error`.
///
/// # Safety
/// As `mrtr_server_write_error`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_server_write_unsupported_version(
    id: *const mrtr_request_id,
    requested_json: mrtr_str,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    // SAFETY: caller contract (the strings and struct this reads).
    let take = |a: &mut Args| unsafe {
        let v = json::parse(a.str(requested_json)?.as_bytes())?;
        v.as_str().ok_or(S::MRTR_ERR_JSON)
    };
    let supported = [PROTOCOL_VERSION];
    let write = |id: Option<Id>, t, o: &mut [u8]| {
        Ok(write_unsupported_version(o, id.as_ref(), &t, &supported))
    };
    // SAFETY: caller contract; `take` reads through the collector.
    unsafe { reply((id, false), (out, out_len, out_written), take, write) }
}

/// Writes `-32602` "Invalid or expired requestState", the answer to every
/// `requestState` that fails to unseal. As `mrtr_server_write_complete`.
///
/// # Safety
/// As `mrtr_server_write_complete`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_server_write_invalid_request_state(
    id: *const mrtr_request_id,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    let write = |id, (), out: &mut [u8]| Ok(write_invalid_request_state(out, &must(id)?));
    // SAFETY: caller contract; `take` reads no pointer.
    unsafe { reply((id, true), (out, out_len, out_written), |_| Ok(()), write) }
}

/// Writes `-32602` for the unusable answer `*err` under `key` (from
/// `mrtr_server_input_response`). As `mrtr_server_write_complete`.
///
/// # Safety
/// As `mrtr_server_write_complete`; `key` readable; `err` a readable
/// `mrtr_answer_error`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_server_write_answer_error(
    id: *const mrtr_request_id,
    key: mrtr_str,
    err: *const mrtr_answer_error,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    // SAFETY: caller contract (the strings and struct this reads).
    let take = |a: &mut Args| unsafe {
        let (key, e) = (a.str(key)?, a.reference(err)?);
        let (x, found) = (e.expected, ResponseKind::from_code(e.found));
        let error =
            ResponseKind::from_code(x).and_then(|x| UnusableAnswer::from_number(e.error, x, found));
        Ok((key, error.ok_or(S::MRTR_ERR_INVALID_ARGUMENT)?))
    };
    let write = |id, (k, e), out: &mut [u8]| Ok(write_answer_error(out, &must(id)?, k, &e));
    // SAFETY: caller contract; `take` reads through the collector.
    unsafe { reply((id, true), (out, out_len, out_written), take, write) }
}

// `mrtr_param_header_error.reason` values: the core's `ParamHeaderError`
// numbers (asserted below).
#[allow(missing_docs)]
pub const MRTR_PARAM_HEADER_MISSING: u32 = 1;
#[allow(missing_docs)]
pub const MRTR_PARAM_HEADER_UNEXPECTED: u32 = 2;
#[allow(missing_docs)]
pub const MRTR_PARAM_HEADER_BAD_ENCODING: u32 = 3;
#[allow(missing_docs)]
pub const MRTR_PARAM_HEADER_MISMATCH: u32 = 4;
#[allow(missing_docs)]
pub const MRTR_PARAM_HEADER_REPEATED: u32 = 5;
#[allow(missing_docs)]
pub const MRTR_PARAM_HEADER_REPEATED_MEMBER: u32 = 6;
same! {
    MRTR_PARAM_HEADER_MISSING => ParamHeaderError::Missing,
    MRTR_PARAM_HEADER_UNEXPECTED => ParamHeaderError::Unexpected,
    MRTR_PARAM_HEADER_BAD_ENCODING => ParamHeaderError::BadEncoding,
    MRTR_PARAM_HEADER_MISMATCH => ParamHeaderError::Mismatch,
    MRTR_PARAM_HEADER_REPEATED => ParamHeaderError::Repeated,
    MRTR_PARAM_HEADER_REPEATED_MEMBER => ParamHeaderError::RepeatedMember,
}

impl Views for mrtr_http_header {
    type Read<'a> = (&'a str, &'a str);

    fn read<'a>(&self, take: &mut Take<'_, 'a>) -> Result<(&'a str, &'a str), S> {
        Ok((take.str(self.name)?, take.str(self.value)?))
    }
}

/// Why `mrtr_server_check_param_headers` refused: `reason` `MRTR_PARAM_HEADER_`
/// `MISSING`, `UNEXPECTED` (no such argument), `BAD_ENCODING` (base64),
/// `MISMATCH` (value or type), `REPEATED` (header twice), `REPEATED_MEMBER` (in
/// the body); `header`: the designated name after `Mcp-Param-`, a view into
/// `input_schema`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(missing_docs)]
pub struct mrtr_param_header_error {
    pub reason: u32,
    pub header: mrtr_str,
}

/// SEP-2243: checks the `n` `headers` of a `tools/call` (as received) against
/// its `arguments` (`{NULL, 0}`: none) for the tool's `input_schema` (rules:
/// docs/ARCHITECTURE.md, section 5).
///
/// Returns `MRTR_OK`; `MRTR_ERR_INVALID_VALUE` (no match: `*out_error`; answer
/// `-32020`, HTTP 400); `MRTR_ERR_INVALID_SCHEMA`; `MRTR_ERR_INVALID_ARGUMENT`
/// (`arguments` not an object); `MRTR_ERR_INVALID_UTF8`.
///
/// # Safety
/// `input_schema`, `arguments` and each header's strings readable; `headers`
/// NULL (with `n` 0) or `n` readable `mrtr_http_header`; `out_error` NULL or
/// writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_server_check_param_headers(
    input_schema: mrtr_str,
    arguments: mrtr_str,
    headers: *const mrtr_http_header,
    n: usize,
    out_error: *mut mrtr_param_header_error,
) -> mrtr_status {
    run(|a| {
        // SAFETY: caller contract; each pointer is checked as it is taken,
        // every header's name and value included (one list).
        let (out_error, schema) = unsafe { (a.out_opt(out_error)?, a.str(input_schema)?) };
        // SAFETY: as above.
        let (args, headers) = unsafe { (a.str_opt(arguments)?, a.list(headers, n)?) };
        let designations =
            Designations::parse(schema.as_bytes()).map_err(|_| S::MRTR_ERR_INVALID_SCHEMA)?;
        let not_object = S::MRTR_ERR_INVALID_ARGUMENT;
        let arguments = match args.map(|s| json::parse(s.as_bytes())) {
            None => None,
            Some(Ok(v)) if v.is_null() => None,
            Some(v) => Some(v.ok().and_then(|v| v.as_object()).ok_or(not_object)?),
        };
        let list = headers.iter().filter_map(Result::ok);
        check_param_header_list(&designations, arguments, list).map_err(|(why, d)| {
            let (reason, header) = (why as u32, mrtr_str::of_bytes(d.header.raw_inner()));
            out_error.put(mrtr_param_header_error { reason, header });
            S::MRTR_ERR_INVALID_VALUE
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_server_methods_are_the_core_numbers() {
        use mrtr_server_method as M;
        let pairs = [
            (M::MRTR_SERVER_METHOD_TOOLS_CALL, Method::ToolsCall),
            (M::MRTR_SERVER_METHOD_PROMPTS_GET, Method::PromptsGet),
            (M::MRTR_SERVER_METHOD_RESOURCES_READ, Method::ResourcesRead),
            (M::MRTR_SERVER_METHOD_TASKS_GET, Method::TasksGet),
            (M::MRTR_SERVER_METHOD_TASKS_RESULT, Method::TasksResult),
            (M::MRTR_SERVER_METHOD_TASKS_CANCEL, Method::TasksCancel),
            (
                M::MRTR_SERVER_METHOD_TASKS_INPUT_RESPONSE,
                Method::TasksInputResponse,
            ),
            (M::MRTR_SERVER_METHOD_TASKS_UPDATE, Method::TasksUpdate),
        ];
        for (c, m) in pairs {
            assert_eq!(M::of(m.code()), c);
        }
        assert_eq!(M::of(0), M::MRTR_SERVER_METHOD_OTHER);
        assert_eq!(M::of(9), M::MRTR_SERVER_METHOD_OTHER);
    }

    /// `mrtr_input_spec.kind` is read as the `mrtr_input_kind` numbers
    /// (the spec reader matches 1 to 4 by number).
    #[cfg(feature = "client")]
    #[test]
    fn input_spec_kinds_are_the_c_input_kind_numbers() {
        use crate::client::mrtr_input_kind as K;
        let kinds = [
            K::MRTR_INPUT_ELICIT_FORM,
            K::MRTR_INPUT_ELICIT_URL,
            K::MRTR_INPUT_SAMPLING,
            K::MRTR_INPUT_ROOTS,
        ];
        assert_eq!(kinds.map(|k| k as u32), [1, 2, 3, 4]);
    }

    #[test]
    fn c_answer_kinds_are_the_core_numbers() {
        use mrtr_answer_kind as A;
        let pairs = [
            (A::MRTR_ANSWER_ELICIT, ResponseKind::Elicit),
            (A::MRTR_ANSWER_SAMPLING, ResponseKind::Sampling),
            (A::MRTR_ANSWER_ROOTS, ResponseKind::Roots),
        ];
        for (c, k) in pairs {
            assert_eq!(A::of(k as u32), c);
            assert_eq!(kind_of(c as u32), Ok(Some(k)));
        }
        assert_eq!(kind_of(0), Ok(None));
        assert_eq!(kind_of(4), Err(S::MRTR_ERR_INVALID_ARGUMENT));
    }

    #[test]
    fn c_answer_error_numbers_are_the_cores() {
        let expected = ResponseKind::Roots;
        let wrong = UnusableAnswer::WrongKind {
            expected,
            found: expected,
        };
        assert_eq!(wrong.number(), MRTR_ANSWER_WRONG_KIND);
        assert_eq!(
            UnusableAnswer::Malformed { expected }.number(),
            MRTR_ANSWER_MALFORMED
        );
    }

    #[test]
    fn request_errors_map_to_their_statuses() {
        use RequestErrorKind as K;
        let cases = [
            (K::Missing(Field::Name), S::MRTR_ERR_PROTOCOL_VIOLATION),
            (K::TooManyInputResponses, S::MRTR_ERR_LIMIT_EXCEEDED),
            (K::TooManyMembers { offset: 0 }, S::MRTR_ERR_LIMIT_EXCEEDED),
            (
                K::RepeatedMember { offset: 0 },
                S::MRTR_ERR_PROTOCOL_VIOLATION,
            ),
            (
                K::Envelope(mrtr_core::wire::EnvelopeError::BadId),
                S::MRTR_ERR_ENVELOPE,
            ),
        ];
        for (k, s) in cases {
            assert_eq!(request_error_status(&k), s);
        }
    }
}
