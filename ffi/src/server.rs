//! `mrtr_server_*`: the server half for C. Every function is stateless:
//! parse a request into views of its bytes, look answers up by key, and
//! write each response (input required, complete, errors) into a caller
//! buffer in one call.
//!
//! String members of a request are given as JSON string tokens (quotes and
//! escapes included, exactly as sent): compare or decode them with
//! `mrtr_json_decode_string`. Every view points into the request bytes and
//! stays valid while the caller keeps them.
//!
//! The loop of a tool handler on every leg:
//! 1. `mrtr_server_parse_request`; on failure answer
//!    `mrtr_server_write_request_error`.
//! 2. If `request_state` is set, unseal it (`mrtr_unseal`); on failure
//!    answer `mrtr_server_write_invalid_request_state`.
//! 3. `mrtr_server_input_response` for each key the handler needs.
//! 4. `mrtr_server_write_complete`, or ask with
//!    `mrtr_server_write_input_required` (kinds the client declared only).

use core::ffi::{c_char, CStr};

use mrtr_core::json::{self, BufferTooSmall, IndexSlot, JsonStr, Object, Writer};
use mrtr_core::server::{
    any_answer, roots_answer, write_answer_error, write_complete, write_invalid_request_state,
    write_missing_capability, write_request_error, write_unsupported_version, AnswerError,
    AnyAnswer, BuildError, CompleteError, Field, Incoming, InputRequiredBuilder, MetaPolicy,
    Method, RequestErrorKind, ServerRequest,
};
use mrtr_core::wire::reply::write_error_response;
use mrtr_core::wire::{
    ClientCapabilities, ElicitAction, Id, InputResponses, ResponseKind, WireLimits,
    PROTOCOL_VERSION,
};

use crate::abi::{finish_output, Args, Out, Take, Views};
use crate::mrtr_status;
use crate::names;
use crate::status::status_of;
use crate::types::mrtr_str;

/// Skip-index slots `mrtr_server_parse_request` keeps on its stack: every
/// container of a request of about 1.5 KB (one per 48 bytes).
const SERVER_INDEX_SLOTS: usize = 32;

/// The caps helpers live with the client's; the server shares the bits.
fn caps_bits(c: &ClientCapabilities) -> u32 {
    [
        (c.elicitation_form, 1u32),
        (c.elicitation_url, 1 << 1),
        (c.sampling, 1 << 2),
        (c.sampling_tools, 1 << 3),
        (c.sampling_context, 1 << 4),
        (c.roots, 1 << 5),
        (c.tasks, 1 << 6),
    ]
    .into_iter()
    .filter(|(on, _)| *on)
    .fold(0, |m, (_, b)| m | b)
}

fn caps_of(bits: u32) -> Result<ClientCapabilities, mrtr_status> {
    if bits & !((1 << 7) - 1) != 0 {
        return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
    }
    let has = |b: u32| bits & b != 0;
    Ok(ClientCapabilities {
        elicitation_form: has(1),
        elicitation_url: has(1 << 1),
        sampling: has(1 << 2) || has(1 << 3) || has(1 << 4),
        sampling_tools: has(1 << 3),
        sampling_context: has(1 << 4),
        roots: has(1 << 5),
        tasks: has(1 << 6),
    })
}

// ---------------------------------------------------------------- ids, methods

/// `mrtr_request_id.kind`: no id (an error answered without one).
pub const MRTR_ID_NONE: u32 = 0;
/// `mrtr_request_id.kind`: an integer id in `number`.
pub const MRTR_ID_NUMBER: u32 = 1;
/// `mrtr_request_id.kind`: a string id, its JSON token in `token`.
pub const MRTR_ID_STRING: u32 = 2;

/// A JSON-RPC request id, to answer with.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_request_id {
    /// `MRTR_ID_NONE`, `MRTR_ID_NUMBER` or `MRTR_ID_STRING`.
    pub kind: u32,
    /// The integer id.
    pub number: i64,
    /// The string id's JSON token, quotes included (a view into the request).
    pub token: mrtr_str,
}

impl mrtr_request_id {
    fn none() -> Self {
        mrtr_request_id {
            kind: MRTR_ID_NONE,
            number: 0,
            token: mrtr_str::EMPTY,
        }
    }

    fn of(id: Option<&Id<'_>>) -> Self {
        match id {
            None => Self::none(),
            Some(Id::Number(n)) => mrtr_request_id {
                kind: MRTR_ID_NUMBER,
                number: *n,
                token: mrtr_str::EMPTY,
            },
            Some(Id::Str(s)) => mrtr_request_id {
                kind: MRTR_ID_STRING,
                number: 0,
                token: mrtr_str::of_bytes(s.raw_token()),
            },
        }
    }
}

/// Reads a caller's id: `Ok(None)` for `MRTR_ID_NONE`.
///
/// # Safety
/// A string id's token must be readable.
unsafe fn id_of<'a>(a: &mut Args, id: &mrtr_request_id) -> Result<Option<Id<'a>>, mrtr_status> {
    match id.kind {
        MRTR_ID_NONE => Ok(None),
        MRTR_ID_NUMBER => Ok(Some(Id::Number(id.number))),
        MRTR_ID_STRING => {
            // SAFETY: caller contract.
            let token = unsafe { a.str(id.token) }?;
            let s = json::parse(token.as_bytes())
                .ok()
                .and_then(|v| v.as_str())
                .ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?;
            Ok(Some(Id::Str(s)))
        }
        _ => Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT),
    }
}

/// A request method the server half reads.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum mrtr_server_method {
    /// Any other method (route it by `method_json`, or answer `-32601`).
    MRTR_SERVER_METHOD_OTHER = 0,
    /// `tools/call` (may be answered with `input_required`).
    MRTR_SERVER_METHOD_TOOLS_CALL = 1,
    /// `prompts/get` (may be answered with `input_required`).
    MRTR_SERVER_METHOD_PROMPTS_GET = 2,
    /// `resources/read` (may be answered with `input_required`).
    MRTR_SERVER_METHOD_RESOURCES_READ = 3,
    /// `tasks/get`.
    MRTR_SERVER_METHOD_TASKS_GET = 4,
    /// `tasks/result` (SEP dialect; may be answered with `input_required`).
    MRTR_SERVER_METHOD_TASKS_RESULT = 5,
    /// `tasks/cancel`.
    MRTR_SERVER_METHOD_TASKS_CANCEL = 6,
    /// `tasks/input_response` (SEP dialect).
    MRTR_SERVER_METHOD_TASKS_INPUT_RESPONSE = 7,
    /// `tasks/update` (Tasks extension).
    MRTR_SERVER_METHOD_TASKS_UPDATE = 8,
}

fn method_code(m: &Method<'_>) -> mrtr_server_method {
    use mrtr_server_method as M;
    match m {
        Method::ToolsCall => M::MRTR_SERVER_METHOD_TOOLS_CALL,
        Method::PromptsGet => M::MRTR_SERVER_METHOD_PROMPTS_GET,
        Method::ResourcesRead => M::MRTR_SERVER_METHOD_RESOURCES_READ,
        Method::TasksGet => M::MRTR_SERVER_METHOD_TASKS_GET,
        Method::TasksResult => M::MRTR_SERVER_METHOD_TASKS_RESULT,
        Method::TasksCancel => M::MRTR_SERVER_METHOD_TASKS_CANCEL,
        Method::TasksInputResponse => M::MRTR_SERVER_METHOD_TASKS_INPUT_RESPONSE,
        Method::TasksUpdate => M::MRTR_SERVER_METHOD_TASKS_UPDATE,
        Method::Other(_) => M::MRTR_SERVER_METHOD_OTHER,
    }
}

// --------------------------------------------------------------------- parsing

/// `mrtr_server_parse_request` flag: accept core requests without `_meta`
/// (SEP-draft clients, which sent none; nothing is then declared, so
/// nothing may be asked).
pub const MRTR_SERVER_META_OPTIONAL: u32 = 1;

/// What arrived.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum mrtr_incoming_kind {
    /// A request to answer: the other fields are set.
    MRTR_INCOMING_REQUEST = 1,
    /// A notification: no response (HTTP: `202 Accepted`).
    MRTR_INCOMING_NOTIFICATION = 2,
    /// A JSON-RPC response from the client: no response (HTTP: `202`).
    MRTR_INCOMING_RESPONSE = 3,
}

/// `mrtr_server_request.flags`: `_meta` is present.
pub const MRTR_REQUEST_HAS_META: u32 = 1;
/// `mrtr_server_request.flags`: the client declared capabilities
/// (`client_caps` is meaningful).
pub const MRTR_REQUEST_HAS_CAPS: u32 = 1 << 1;

/// A parsed message, as views into its bytes. String members are JSON
/// tokens (quotes included); objects are raw JSON; absent members are empty.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_server_request {
    /// What arrived; only `MRTR_INCOMING_REQUEST` sets the other fields
    /// (a notification sets `method_json`).
    pub kind: mrtr_incoming_kind,
    /// The method, when it is one the server half reads.
    pub method: mrtr_server_method,
    /// The method's JSON token.
    pub method_json: mrtr_str,
    /// The id to answer with.
    pub id: mrtr_request_id,
    /// `MRTR_REQUEST_*` flags.
    pub flags: u32,
    /// The `MRTR_CAP_*` bits the client declared on this request.
    pub client_caps: u32,
    /// `params`, raw.
    pub params: mrtr_str,
    /// `params._meta`, raw.
    pub meta: mrtr_str,
    /// `io.modelcontextprotocol/protocolVersion` token, when sent (always
    /// `"2026-07-28"`: another revision fails the parse with `-32022`).
    /// Compare an HTTP `MCP-Protocol-Version` header with it (`-32020` when
    /// they differ).
    pub protocol_version: mrtr_str,
    /// `clientInfo.name` token, when sent.
    pub client_name: mrtr_str,
    /// `clientInfo.version` token, when sent.
    pub client_version: mrtr_str,
    /// `name` token (`tools/call`, `prompts/get`).
    pub name: mrtr_str,
    /// `uri` token (`resources/read`).
    pub uri: mrtr_str,
    /// `arguments`, raw (`tools/call`, `prompts/get`): bind seals to it
    /// with `mrtr_binding_digest`.
    pub arguments: mrtr_str,
    /// `task`, raw (task augmentation, seed dialect).
    pub task: mrtr_str,
    /// `inputResponses`, raw: pass it to `mrtr_server_input_response`.
    pub input_responses: mrtr_str,
    /// The number of entries of `inputResponses`.
    pub input_response_count: usize,
    /// `requestState` token, exactly as sent: decode it, then unseal it.
    pub request_state: mrtr_str,
    /// The task id token of task methods.
    pub task_id: mrtr_str,
}

/// Why a message cannot be served, from `mrtr_server_parse_request`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_server_error {
    /// The JSON-RPC code the answer carries (`-32700`, `-32600`, `-32602`,
    /// `-32022`).
    pub code: i32,
    /// The id to answer with, when it could be read.
    pub id: mrtr_request_id,
    /// A static NUL-terminated name of the cause (`"Missing"`,
    /// `"Malformed"`, a JSON or envelope detail), for logs.
    pub reason: *const c_char,
    /// The wire name of the member at fault (static, NUL-terminated), or
    /// `""`.
    pub field: *const c_char,
}

fn field_name(f: Field) -> &'static CStr {
    match f {
        Field::Params => c"params",
        Field::Meta => c"_meta",
        Field::ProtocolVersion => c"io.modelcontextprotocol/protocolVersion",
        Field::ClientCapabilities => c"io.modelcontextprotocol/clientCapabilities",
        Field::ClientInfo => c"io.modelcontextprotocol/clientInfo",
        Field::RelatedTask => c"io.modelcontextprotocol/related-task",
        Field::Name => c"name",
        Field::Uri => c"uri",
        Field::Arguments => c"arguments",
        Field::Task => c"task",
        Field::InputResponses => c"inputResponses",
        Field::RequestState => c"requestState",
        Field::TaskId => c"taskId",
    }
}

fn request_error_status(
    kind: &RequestErrorKind<'_>,
) -> (mrtr_status, &'static CStr, &'static CStr) {
    use RequestErrorKind as K;
    match *kind {
        K::Json(e) => (e.into(), names::json_kind(e.kind), c""),
        K::Envelope(e) => (mrtr_status::MRTR_ERR_ENVELOPE, names::envelope(e), c""),
        K::Missing(f) => (
            mrtr_status::MRTR_ERR_PROTOCOL_VIOLATION,
            c"Missing",
            field_name(f),
        ),
        K::Malformed(f) => (
            mrtr_status::MRTR_ERR_PROTOCOL_VIOLATION,
            c"Malformed",
            field_name(f),
        ),
        K::Duplicate(f) => (
            mrtr_status::MRTR_ERR_PROTOCOL_VIOLATION,
            c"Duplicate",
            field_name(f),
        ),
        K::UnsupportedProtocolVersion { .. } => (
            mrtr_status::MRTR_ERR_UNSUPPORTED_VERSION,
            c"UnsupportedProtocolVersion",
            field_name(Field::ProtocolVersion),
        ),
        K::TooManyInputResponses => (
            mrtr_status::MRTR_ERR_LIMIT_EXCEEDED,
            c"TooManyInputResponses",
            field_name(Field::InputResponses),
        ),
        K::InputResponseKeyTooLong => (
            mrtr_status::MRTR_ERR_LIMIT_EXCEEDED,
            c"InputResponseKeyTooLong",
            field_name(Field::InputResponses),
        ),
        K::DuplicateInputResponseKey => (
            mrtr_status::MRTR_ERR_PROTOCOL_VIOLATION,
            c"DuplicateInputResponseKey",
            field_name(Field::InputResponses),
        ),
        K::InputResponseNotAnObject => (
            mrtr_status::MRTR_ERR_PROTOCOL_VIOLATION,
            c"InputResponseNotAnObject",
            field_name(Field::InputResponses),
        ),
        K::RepeatedMember { .. } => (
            mrtr_status::MRTR_ERR_PROTOCOL_VIOLATION,
            c"RepeatedMember",
            field_name(Field::Params),
        ),
        K::TooManyMembers { .. } => (
            mrtr_status::MRTR_ERR_LIMIT_EXCEEDED,
            c"TooManyMembers",
            field_name(Field::Params),
        ),
    }
}

fn policy_of(flags: u32) -> Result<MetaPolicy, mrtr_status> {
    match flags {
        0 => Ok(MetaPolicy::Required),
        MRTR_SERVER_META_OPTIONAL => Ok(MetaPolicy::Optional),
        _ => Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT),
    }
}

fn token(s: Option<JsonStr<'_>>) -> mrtr_str {
    s.map_or(mrtr_str::EMPTY, |s| mrtr_str::of_bytes(s.raw_token()))
}

fn raw(o: Option<Object<'_>>) -> mrtr_str {
    o.map_or(mrtr_str::EMPTY, |o| mrtr_str::of_bytes(o.raw()))
}

fn request_view(req: &ServerRequest<'_>) -> mrtr_server_request {
    let meta = req.meta;
    let mut flags = 0;
    if meta.is_some() {
        flags |= MRTR_REQUEST_HAS_META;
    }
    if meta.and_then(|m| m.client_capabilities).is_some() {
        flags |= MRTR_REQUEST_HAS_CAPS;
    }
    let info = meta.and_then(|m| m.client_info);
    let method_json = match req.method {
        Method::Other(n) => mrtr_str::of_bytes(n.raw_token()),
        _ => mrtr_str::EMPTY,
    };
    mrtr_server_request {
        kind: mrtr_incoming_kind::MRTR_INCOMING_REQUEST,
        method: method_code(&req.method),
        method_json,
        id: mrtr_request_id::of(Some(&req.id)),
        flags,
        client_caps: caps_bits(&req.client_capabilities()),
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
    }
}

/// Reads one incoming message (`len` bytes at `msg`) under the 2026-07-28
/// rules: JSON, the JSON-RPC envelope, `params` an object, `_meta` with the
/// protocol version and the client's capabilities on core requests
/// (`MRTR_SERVER_META_OPTIONAL` in `flags` relaxes that), the method's own
/// members, unique members (no object anywhere in `params`, arguments
/// included, may have a member twice: reason `"RepeatedMember"`; one of
/// more than 1024 members that the check cannot hold at once is
/// `"TooManyMembers"`, `MRTR_ERR_LIMIT_EXCEEDED`, both `-32602`), a bounded
/// `inputResponses`. Writes the views to
/// `*out` (for a request; `kind` tells notifications and responses apart;
/// see `mrtr_server_request` for the members).
///
/// Returns `MRTR_OK`; on a message that cannot be served (answer it with
/// `mrtr_server_write_request_error`; `*out_error`, when not NULL, says why):
/// `MRTR_ERR_JSON` / `MRTR_ERR_LIMIT_EXCEEDED` (`-32700`; too deep, too large,
/// too many or too long `inputResponses` keys give the limit status with the
/// matching code), `MRTR_ERR_ENVELOPE` (`-32600`),
/// `MRTR_ERR_UNSUPPORTED_VERSION` (`-32022`), `MRTR_ERR_PROTOCOL_VIOLATION`
/// (`-32602`); `MRTR_ERR_INVALID_ARGUMENT` (unknown flag).
///
/// # Safety
/// `msg` must point to `len` readable bytes; `out` to a writable
/// `mrtr_server_request`; `out_error` NULL or writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_server_parse_request(
    msg: *const u8,
    len: usize,
    flags: u32,
    out: *mut mrtr_server_request,
    out_error: *mut mrtr_server_error,
) -> mrtr_status {
    status_of((|| {
        let mut a = Args::free();
        // SAFETY: caller contract; every pointer is checked as it is taken.
        let (out, out_error, bytes) =
            unsafe { (a.out(out)?, a.out_opt(out_error)?, a.bytes(msg, len)?) };
        let policy = policy_of(flags)?;
        // A skip index on the stack (256 B on 32-bit targets): reading the
        // request's levels does not rescan nested containers. The views
        // written below point into `msg`, never into the slots.
        let mut slots = [IndexSlot::EMPTY; SERVER_INDEX_SLOTS];
        match ServerRequest::parse_indexed(bytes, &WireLimits::default(), policy, &mut slots) {
            Ok(Incoming::Request(req)) => {
                out.write(request_view(&req));
                Ok(())
            }
            Ok(Incoming::Notification(n)) => {
                let mut v = empty_request(mrtr_incoming_kind::MRTR_INCOMING_NOTIFICATION);
                v.method_json = mrtr_str::of_bytes(n.method.raw_token());
                v.params = raw(n.params);
                out.write(v);
                Ok(())
            }
            Ok(Incoming::Response) => {
                out.write(empty_request(mrtr_incoming_kind::MRTR_INCOMING_RESPONSE));
                Ok(())
            }
            Err(e) => {
                let (status, reason, field) = request_error_status(&e.kind);
                if let Some(o) = out_error {
                    o.write(mrtr_server_error {
                        code: e.code().code(),
                        id: mrtr_request_id::of(e.id.as_ref()),
                        reason: reason.as_ptr(),
                        field: field.as_ptr(),
                    });
                }
                Err(status)
            }
        }
    })())
}

fn empty_request(kind: mrtr_incoming_kind) -> mrtr_server_request {
    mrtr_server_request {
        kind,
        method: mrtr_server_method::MRTR_SERVER_METHOD_OTHER,
        method_json: mrtr_str::EMPTY,
        id: mrtr_request_id::none(),
        flags: 0,
        client_caps: 0,
        params: mrtr_str::EMPTY,
        meta: mrtr_str::EMPTY,
        protocol_version: mrtr_str::EMPTY,
        client_name: mrtr_str::EMPTY,
        client_version: mrtr_str::EMPTY,
        name: mrtr_str::EMPTY,
        uri: mrtr_str::EMPTY,
        arguments: mrtr_str::EMPTY,
        task: mrtr_str::EMPTY,
        input_responses: mrtr_str::EMPTY,
        input_response_count: 0,
        request_state: mrtr_str::EMPTY,
        task_id: mrtr_str::EMPTY,
    }
}

/// Writes the error response for a message that `mrtr_server_parse_request`
/// refused (same `msg`, `len` and `flags`): `-32700` without an id,
/// `-32600`, `-32022` with `data.requested` and `data.supported`, or
/// `-32602` naming the member at fault (`requestState` problems all read
/// `"Invalid or expired requestState"`). Output convention of
/// `mrtr_json_write_string`.
///
/// Returns `MRTR_OK`, `MRTR_ERR_BUFFER_TOO_SMALL`, `MRTR_ERR_WRONG_STATE` (the
/// message is fine: nothing to report), `MRTR_ERR_INVALID_ARGUMENT`.
///
/// # Safety
/// `msg` must point to `len` readable bytes; `out` to `out_len` writable
/// bytes (unless 0); `out_written` to a writable `size_t`.
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
    status_of((|| {
        let mut a = Args::free();
        // SAFETY: caller contract; every pointer is checked as it is taken.
        let (out_written, bytes, out) = unsafe {
            (
                a.out(out_written)?,
                a.bytes(msg, len)?,
                a.out_buf(out, out_len)?,
            )
        };
        let policy = policy_of(flags)?;
        match ServerRequest::parse_with(bytes, &WireLimits::default(), policy) {
            Ok(_) => Err(mrtr_status::MRTR_ERR_WRONG_STATE),
            Err(e) => finish_output(write_request_error(out, &e), out_written),
        }
    })())
}

// ----------------------------------------------------------------- answers

/// The kind of an input response.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum mrtr_answer_kind {
    /// The client sent nothing under the key: ask (again).
    MRTR_ANSWER_NONE = 0,
    /// An `ElicitResult`.
    MRTR_ANSWER_ELICIT = 1,
    /// A `CreateMessageResult`.
    MRTR_ANSWER_SAMPLING = 2,
    /// A `ListRootsResult`.
    MRTR_ANSWER_ROOTS = 3,
}

/// One answer, as views into the request bytes (strings are JSON tokens).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_server_answer {
    /// What was found.
    pub kind: mrtr_answer_kind,
    /// Elicitation: the `MRTR_ELICIT_*` action.
    pub action: u32,
    /// Elicitation `accept`: the content object (empty otherwise);
    /// sampling: the `content` value.
    pub content: mrtr_str,
    /// Sampling: `role` token.
    pub role: mrtr_str,
    /// Sampling: `model` token.
    pub model: mrtr_str,
    /// Sampling: `stopReason` token, when sent.
    pub stop_reason: mrtr_str,
    /// Sampling: the text token when the content is one text block.
    pub text: mrtr_str,
    /// Roots: the number of roots (`mrtr_server_root_at`).
    pub root_count: usize,
    /// The bare result object.
    pub result: mrtr_str,
    /// It came in the SEP draft's `{"result": ..}` wrapping (accepted).
    pub wrapped: bool,
}

/// Why an answer cannot be used.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_answer_error {
    /// `MRTR_ANSWER_WRONG_KIND` or `MRTR_ANSWER_MALFORMED`.
    pub error: u32,
    /// The kind looked for (a `mrtr_answer_kind`; `NONE` when no kind was
    /// asked and the shape is unknown).
    pub expected: u32,
    /// `MRTR_ANSWER_WRONG_KIND`: the kind found (a `mrtr_answer_kind`).
    pub found: u32,
}

/// `mrtr_answer_error.error`: a result of another kind.
pub const MRTR_ANSWER_WRONG_KIND: u32 = 1;
/// `mrtr_answer_error.error`: a malformed result.
pub const MRTR_ANSWER_MALFORMED: u32 = 2;

fn answer_kind_of(k: ResponseKind) -> mrtr_answer_kind {
    match k {
        ResponseKind::Elicit => mrtr_answer_kind::MRTR_ANSWER_ELICIT,
        ResponseKind::Sampling => mrtr_answer_kind::MRTR_ANSWER_SAMPLING,
        ResponseKind::Roots => mrtr_answer_kind::MRTR_ANSWER_ROOTS,
    }
}

fn response_kind_of(k: u32) -> Result<Option<ResponseKind>, mrtr_status> {
    match k {
        0 => Ok(None),
        1 => Ok(Some(ResponseKind::Elicit)),
        2 => Ok(Some(ResponseKind::Sampling)),
        3 => Ok(Some(ResponseKind::Roots)),
        _ => Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT),
    }
}

fn answer_error_of(e: AnswerError) -> mrtr_answer_error {
    match e {
        AnswerError::WrongKind { expected, found } => mrtr_answer_error {
            error: MRTR_ANSWER_WRONG_KIND,
            expected: answer_kind_of(expected) as u32,
            found: answer_kind_of(found) as u32,
        },
        AnswerError::Malformed { expected } => mrtr_answer_error {
            error: MRTR_ANSWER_MALFORMED,
            expected: answer_kind_of(expected) as u32,
            found: 0,
        },
    }
}

/// Reads a request's raw `inputResponses` again (as `mrtr_server_request`
/// gives it; empty: none).
fn responses_of(raw: &[u8]) -> Result<Option<InputResponses<'_>>, mrtr_status> {
    if raw.is_empty() {
        return Ok(None);
    }
    let limits = WireLimits::default();
    let v = json::parse_with(raw, &limits.json)?;
    InputResponses::parse(v, &limits)
        .map(Some)
        .map_err(mrtr_status::from)
}

/// Looks up the answer the client sent under `key` in a request's
/// `input_responses` (the raw object of `mrtr_server_request`) and writes it to
/// `*out`. `expected` is a `mrtr_answer_kind`: the kind the handler asked under
/// that key, or `MRTR_ANSWER_NONE` to take whatever kind is there. Both the
/// released bare results and the SEP draft's `{"result": ..}` wrapping are
/// accepted. Answers under keys the handler does not look up are never judged.
///
/// Returns `MRTR_OK` (`out->kind` is `MRTR_ANSWER_NONE` when the key is absent:
/// ask again); `MRTR_ERR_PROTOCOL_VIOLATION` when what is there is not a usable
/// result of the kind (`*out_error`, when not NULL, says how; answer with
/// `mrtr_server_write_answer_error`); `MRTR_ERR_JSON` /
/// `MRTR_ERR_PROTOCOL_VIOLATION` / `MRTR_ERR_LIMIT_EXCEEDED` for an
/// `input_responses` that is not a valid map; `MRTR_ERR_INVALID_UTF8`,
/// `MRTR_ERR_INVALID_ARGUMENT`.
///
/// # Safety
/// `input_responses` and `key` readable; `out` writable; `out_error` NULL
/// or writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_server_input_response(
    input_responses: mrtr_str,
    key: mrtr_str,
    expected: u32,
    out: *mut mrtr_server_answer,
    out_error: *mut mrtr_answer_error,
) -> mrtr_status {
    status_of((|| {
        let mut a = Args::free();
        // SAFETY: caller contract; every pointer is checked as it is taken.
        let (out, out_error, map, key) = unsafe {
            (
                a.out(out)?,
                a.out_opt(out_error)?,
                a.str(input_responses)?,
                a.str(key)?,
            )
        };
        let expected = response_kind_of(expected)?;
        let responses = responses_of(map.as_bytes())?;
        let found = match any_answer(responses, key, expected) {
            Ok(found) => found,
            Err(e) => {
                if let Some(o) = out_error {
                    let mut err = answer_error_of(e.error);
                    if !e.kind_known {
                        err.expected = 0;
                    }
                    o.write(err);
                }
                return Err(mrtr_status::MRTR_ERR_PROTOCOL_VIOLATION);
            }
        };
        let mut a = mrtr_server_answer {
            kind: mrtr_answer_kind::MRTR_ANSWER_NONE,
            action: 0,
            content: mrtr_str::EMPTY,
            role: mrtr_str::EMPTY,
            model: mrtr_str::EMPTY,
            stop_reason: mrtr_str::EMPTY,
            text: mrtr_str::EMPTY,
            root_count: 0,
            result: mrtr_str::EMPTY,
            wrapped: false,
        };
        if let Some(f) = found {
            a.result = mrtr_str::of_bytes(f.result);
            a.wrapped = f.wrapped;
            match f.answer {
                AnyAnswer::Elicit(e) => {
                    a.kind = answer_kind_of(ResponseKind::Elicit);
                    a.action = match e.action {
                        ElicitAction::Accept => 1,
                        ElicitAction::Decline => 2,
                        ElicitAction::Cancel => 3,
                    };
                    a.content = raw(e.content);
                }
                AnyAnswer::Sampling(s) => {
                    a.kind = answer_kind_of(ResponseKind::Sampling);
                    a.role = mrtr_str::of_bytes(s.role.raw_token());
                    a.model = mrtr_str::of_bytes(s.model.raw_token());
                    a.stop_reason = token(s.stop_reason);
                    a.text = token(s.text());
                    a.content = mrtr_str::of_bytes(s.content.raw());
                }
                AnyAnswer::Roots(r) => {
                    a.kind = answer_kind_of(ResponseKind::Roots);
                    a.root_count = r.len();
                }
            }
        }
        out.write(a);
        Ok(())
    })())
}

/// One root of a roots answer: JSON tokens.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_server_root {
    /// The `uri` token.
    pub uri: mrtr_str,
    /// The `name` token, when sent.
    pub name: mrtr_str,
}

/// Writes root `index` of the roots answer under `key` to `*out`.
///
/// Returns `MRTR_OK`, `MRTR_ERR_NOT_FOUND` (no roots answer under `key`, or no
/// such index), `MRTR_ERR_PROTOCOL_VIOLATION` (not a usable roots result), the
/// map statuses of `mrtr_server_input_response`.
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
    status_of((|| {
        let mut a = Args::free();
        // SAFETY: caller contract; every pointer is checked as it is taken.
        let (out, map, key) = unsafe { (a.out(out)?, a.str(input_responses)?, a.str(key)?) };
        let responses = responses_of(map.as_bytes())?;
        let roots = roots_answer(responses, key)
            .map_err(|_| mrtr_status::MRTR_ERR_PROTOCOL_VIOLATION)?
            .ok_or(mrtr_status::MRTR_ERR_NOT_FOUND)?;
        let r = roots
            .iter()
            .nth(index)
            .ok_or(mrtr_status::MRTR_ERR_NOT_FOUND)?;
        out.write(mrtr_server_root {
            uri: mrtr_str::of_bytes(r.uri.raw_token()),
            name: token(r.name),
        });
        Ok(())
    })())
}

// ----------------------------------------------------------------- writers

/// One input request for `mrtr_server_write_input_required`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_input_spec {
    /// A `mrtr_input_kind` value.
    pub kind: u32,
    /// The key (text; unique, 1 to 256 bytes).
    pub key: mrtr_str,
    /// Elicitations: the message for the user (text).
    pub message: mrtr_str,
    /// Form: the `requestedSchema` object, raw JSON.
    pub requested_schema: mrtr_str,
    /// URL mode: the URL (text).
    pub url: mrtr_str,
    /// Sampling: the `CreateMessageRequestParams` object, raw JSON.
    pub params: mrtr_str,
}

/// Everything an `InputRequiredResult` says.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_input_required {
    /// The request's id.
    pub id: mrtr_request_id,
    /// The request's method (a `mrtr_server_method`); only `tools/call`,
    /// `prompts/get`, `resources/read` and `tasks/result` may be answered
    /// with `input_required`.
    pub method: u32,
    /// The `MRTR_CAP_*` bits the client declared on this request
    /// (`mrtr_server_request.client_caps`).
    pub client_caps: u32,
    /// The input requests, in the order to send them.
    pub inputs: *const mrtr_input_spec,
    /// Their number (0 with a `request_state`: a state-only round, e.g. for
    /// load shedding).
    pub input_count: usize,
    /// The sealed `requestState` (text); `{NULL, 0}` for none.
    pub request_state: mrtr_str,
    /// `_meta["io.modelcontextprotocol/related-task"].taskId` (text, SEP
    /// task dialect); `{NULL, 0}` for none.
    pub related_task: mrtr_str,
}

/// Why `mrtr_server_write_input_required` refused.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_build_error {
    /// The index of the input at fault (`SIZE_MAX`: none in particular).
    pub index: usize,
    /// `MRTR_ERR_UNDECLARED_CAPABILITY`: the `MRTR_CAP_*` bits the client
    /// lacks for it (answer `-32021` with
    /// `mrtr_server_write_missing_capability`).
    pub missing_caps: u32,
    /// A static NUL-terminated name of the cause, for logs.
    pub reason: *const c_char,
}

/// An input spec with its strings read: the ones its kind uses.
pub(crate) enum SpecRead<'a> {
    Form {
        key: &'a str,
        message: &'a str,
        schema: &'a str,
    },
    Url {
        key: &'a str,
        message: &'a str,
        url: &'a str,
    },
    Sampling {
        key: &'a str,
        params: &'a str,
    },
    Roots {
        key: &'a str,
    },
}

impl Views for mrtr_input_spec {
    type Read<'a> = SpecRead<'a>;

    fn read<'a>(&self, take: &mut Take<'_, 'a>) -> Result<SpecRead<'a>, mrtr_status> {
        Ok(match self.kind {
            1 => SpecRead::Form {
                key: take.str(self.key)?,
                message: take.str(self.message)?,
                schema: take.str(self.requested_schema)?,
            },
            2 => SpecRead::Url {
                key: take.str(self.key)?,
                message: take.str(self.message)?,
                url: take.str(self.url)?,
            },
            3 => SpecRead::Sampling {
                key: take.str(self.key)?,
                params: take.str(self.params)?,
            },
            4 => SpecRead::Roots {
                key: take.str(self.key)?,
            },
            _ => return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT),
        })
    }
}

fn server_method(code: u32) -> Result<Method<'static>, mrtr_status> {
    Ok(match code {
        1 => Method::ToolsCall,
        2 => Method::PromptsGet,
        3 => Method::ResourcesRead,
        4 => Method::TasksGet,
        5 => Method::TasksResult,
        6 => Method::TasksCancel,
        7 => Method::TasksInputResponse,
        8 => Method::TasksUpdate,
        _ => return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT),
    })
}

/// Writes an `InputRequiredResult` for request `ir->id`: the input requests
/// in order, then `requestState` and the related task when given. Every
/// input is checked before anything is sent: a kind the client did not
/// declare is refused (the spec forbids asking it), as are empty, long or
/// repeated keys, schemas that are not `{"type":"object","properties":{..}}`,
/// URLs without a scheme, sampling params without `messages` and integer
/// `maxTokens`. Output convention of `mrtr_json_write_string`.
///
/// Returns `MRTR_OK`; `MRTR_ERR_BUFFER_TOO_SMALL`;
/// `MRTR_ERR_UNDECLARED_CAPABILITY` (`out_error->missing_caps`, `index`);
/// `MRTR_ERR_INVALID_VALUE` (a refused input: `out_error->index`, `reason`);
/// `MRTR_ERR_LIMIT_EXCEEDED` (more than 64 inputs); `MRTR_ERR_WRONG_STATE` (the
/// method cannot carry `input_required`); `MRTR_ERR_INVALID_ARGUMENT` (no input
/// and no state, unknown kind or method or capability bit, a bad id);
/// `MRTR_ERR_INVALID_UTF8`. `*out_error` (optional) is written on the refusals
/// that name an input.
///
/// # Safety
/// `ir` must point to a readable `mrtr_input_required` whose strings and
/// `inputs` array are readable; `out` to `out_len` writable bytes (unless
/// 0); `out_written` to a writable `size_t`; `out_error` NULL or writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_server_write_input_required(
    ir: *const mrtr_input_required,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
    out_error: *mut mrtr_build_error,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of(unsafe { write_input_required(ir, out, out_len, out_written, out_error) })
}

/// # Safety
/// As [`mrtr_server_write_input_required`].
unsafe fn write_input_required(
    ir: *const mrtr_input_required,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
    out_error: *mut mrtr_build_error,
) -> Result<(), mrtr_status> {
    let mut a = Args::free();
    // SAFETY: caller contract; every pointer is checked as it is taken:
    // the struct, the id's token, the state, the related task, the spec
    // array and every string of every spec (one list), then the outputs.
    let (out_written, out_error, ir) =
        unsafe { (a.out(out_written)?, a.out_opt(out_error)?, a.reference(ir)?) };
    // SAFETY: caller contract.
    let id = unsafe { id_of(&mut a, &ir.id) }?.ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?;
    // SAFETY: caller contract.
    let (state, task, specs) = unsafe {
        (
            a.str_opt(ir.request_state)?,
            a.str_opt(ir.related_task)?,
            a.list(ir.inputs, ir.input_count)?,
        )
    };
    // SAFETY: caller contract; overlaps with every argument above refused.
    let out = unsafe { a.out_buf(out, out_len) }?;
    if !server_method(ir.method)?.allows_input_required() {
        return Err(mrtr_status::MRTR_ERR_WRONG_STATE);
    }
    let caps = caps_of(ir.client_caps)?;
    if specs.len() > mrtr_core::server::MAX_INPUT_REQUESTS_CAPACITY {
        return Err(mrtr_status::MRTR_ERR_LIMIT_EXCEEDED);
    }
    let fail = |index: usize, missing: u32, reason: &'static CStr, status: mrtr_status| {
        move |o: Option<Out<'_, mrtr_build_error>>| {
            if let Some(o) = o {
                o.write(mrtr_build_error {
                    index,
                    missing_caps: missing,
                    reason: reason.as_ptr(),
                });
            }
            Err(status)
        }
    };
    let mut b = InputRequiredBuilder::new(out, &id, &caps);
    for (index, spec) in specs.iter().enumerate() {
        let r = match spec? {
            SpecRead::Form {
                key,
                message,
                schema,
            } => b.elicit_form(key, message, schema.as_bytes()),
            SpecRead::Url { key, message, url } => b.elicit_url(key, message, url),
            SpecRead::Sampling { key, params } => b.sampling(key, params.as_bytes()),
            SpecRead::Roots { key } => b.roots(key),
        };
        if let Err(e) = r {
            let (status, reason, missing): (mrtr_status, &'static CStr, u32) = match e {
                BuildError::MissingCapability { missing } => (
                    mrtr_status::MRTR_ERR_UNDECLARED_CAPABILITY,
                    c"MissingCapability",
                    caps_bits(&missing),
                ),
                BuildError::EmptyKey => (mrtr_status::MRTR_ERR_INVALID_VALUE, c"EmptyKey", 0),
                BuildError::KeyTooLong { .. } => {
                    (mrtr_status::MRTR_ERR_INVALID_VALUE, c"KeyTooLong", 0)
                }
                BuildError::DuplicateKey => {
                    (mrtr_status::MRTR_ERR_INVALID_VALUE, c"DuplicateKey", 0)
                }
                BuildError::InvalidSchema => {
                    (mrtr_status::MRTR_ERR_INVALID_VALUE, c"InvalidSchema", 0)
                }
                BuildError::InvalidUrl => (mrtr_status::MRTR_ERR_INVALID_VALUE, c"InvalidUrl", 0),
                BuildError::InvalidSamplingParams => (
                    mrtr_status::MRTR_ERR_INVALID_VALUE,
                    c"InvalidSamplingParams",
                    0,
                ),
                BuildError::TooManyRequests { .. } => {
                    (mrtr_status::MRTR_ERR_LIMIT_EXCEEDED, c"TooManyRequests", 0)
                }
                _ => (mrtr_status::MRTR_ERR_INTERNAL, c"Internal", 0),
            };
            return fail(index, missing, reason, status)(out_error);
        }
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
        Err(BuildError::Empty) => Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT),
        Err(_) => Err(mrtr_status::MRTR_ERR_INTERNAL),
    }
}

/// Checks a writer's id, output buffer and out-param; runs `write`.
///
/// # Safety
/// `id` NULL or readable (with a readable token); `out` writable for
/// `out_len` bytes; `out_written` writable; `inputs` are the spans of the
/// other inputs.
unsafe fn emit(
    id: *const mrtr_request_id,
    a: &mut Args,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
    write: impl FnOnce(Option<&Id<'_>>, &mut [u8]) -> Result<Result<usize, BufferTooSmall>, mrtr_status>,
) -> Result<(), mrtr_status> {
    // SAFETY: caller contract; every pointer is checked as it is taken.
    let out_written = unsafe { a.out(out_written) }?;
    // SAFETY: caller contract.
    let id_value = match unsafe { a.reference_opt(id) }? {
        None => None,
        // SAFETY: caller contract.
        Some(r) => unsafe { id_of(a, r) }?,
    };
    // SAFETY: caller contract; overlaps refused.
    let out = unsafe { a.out_buf(out, out_len) }?;
    let r = write(id_value.as_ref(), out)?;
    finish_output(r, out_written)
}

/// Writes a complete result for request `id`: `result` is either the whole
/// result object (`{"content":[..]}`; `resultType` is put first, and one
/// already saying `"complete"` is kept) or its members alone
/// (`"content":[..],"isError":false`, or empty). Output convention of
/// `mrtr_json_write_string`.
///
/// Returns `MRTR_OK`, `MRTR_ERR_BUFFER_TOO_SMALL`, `MRTR_ERR_JSON` (not a JSON
/// object or members), `MRTR_ERR_INVALID_VALUE` (a `resultType` other than
/// `"complete"`), `MRTR_ERR_INVALID_ARGUMENT` (no id, a bad id),
/// `MRTR_ERR_INVALID_UTF8`.
///
/// # Safety
/// `id` must point to a readable `mrtr_request_id`; `result` readable;
/// `out` writable for `out_len` bytes (unless 0); `out_written` writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_server_write_complete(
    id: *const mrtr_request_id,
    result: mrtr_str,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    status_of((|| {
        if id.is_null() {
            return Err(mrtr_status::MRTR_ERR_NULL_POINTER);
        }
        let mut a = Args::free();
        // SAFETY: caller contract.
        let body = unsafe { a.str(result) }?;
        // SAFETY: caller contract.
        unsafe {
            emit(id, &mut a, out, out_len, out_written, |id, out| {
                let id = id.ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?;
                match write_complete(out, id, body.as_bytes()) {
                    Ok(n) => Ok(Ok(n)),
                    Err(CompleteError::BufferTooSmall { needed }) => {
                        Ok(Err(BufferTooSmall { needed }))
                    }
                    Err(CompleteError::InvalidJson(_)) => Err(mrtr_status::MRTR_ERR_JSON),
                    Err(CompleteError::ConflictingResultType) => {
                        Err(mrtr_status::MRTR_ERR_INVALID_VALUE)
                    }
                }
            })
        }
    })())
}

/// Writes a JSON-RPC error response: `code`, `message` (text, escaped as
/// needed) and optional `data` (raw JSON, validated; `{NULL, 0}` for none).
/// `id` NULL (or `MRTR_ID_NONE`) omits the id member, as for errors about
/// unreadable requests. Output convention of `mrtr_json_write_string`.
///
/// Returns `MRTR_OK`, `MRTR_ERR_BUFFER_TOO_SMALL`, `MRTR_ERR_JSON` (`data` not
/// JSON), `MRTR_ERR_INVALID_UTF8`, `MRTR_ERR_INVALID_ARGUMENT`.
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
    status_of((|| {
        let mut a = Args::free();
        // SAFETY: caller contract.
        let message = unsafe { a.str(message) }?;
        // SAFETY: caller contract.
        let data = unsafe { a.str_opt(data) }?;
        if let Some(d) = data {
            json::parse(d.as_bytes())?;
        }
        // SAFETY: caller contract.
        unsafe {
            emit(id, &mut a, out, out_len, out_written, |id, out| {
                let mut w = Writer::new(out);
                write_error_response(&mut w, id, code, message, data.map(str::as_bytes));
                Ok(w.finish())
            })
        }
    })())
}

/// Writes error `-32021` ("Missing required client capability") with
/// `data.requiredCapabilities` built from `required_caps` (`MRTR_CAP_*`
/// bits; e.g. `mrtr_build_error.missing_caps`). Output convention and
/// statuses as `mrtr_server_write_complete` (an unknown bit is
/// `MRTR_ERR_INVALID_ARGUMENT`).
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
    status_of((|| {
        let caps = caps_of(required_caps)?;
        if id.is_null() {
            return Err(mrtr_status::MRTR_ERR_NULL_POINTER);
        }
        // SAFETY: caller contract.
        unsafe {
            emit(
                id,
                &mut Args::free(),
                out,
                out_len,
                out_written,
                |id, out| {
                    let id = id.ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?;
                    Ok(write_missing_capability(out, id, &caps))
                },
            )
        }
    })())
}

/// Writes error `-32022` ("Unsupported protocol version") with
/// `data.requested` (`requested_json`: the client's value as its JSON
/// string token, e.g. from a header, quoted) and `data.supported`
/// (`["2026-07-28"]`). `id` may be NULL. Output convention and statuses as
/// `mrtr_server_write_error` (`MRTR_ERR_JSON`: `requested_json` is not a
/// JSON string).
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
    status_of((|| {
        let mut a = Args::free();
        // SAFETY: caller contract.
        let requested = unsafe { a.str(requested_json) }?;
        let token = json::parse(requested.as_bytes())?
            .as_str()
            .ok_or(mrtr_status::MRTR_ERR_JSON)?;
        // SAFETY: caller contract.
        unsafe {
            emit(id, &mut a, out, out_len, out_written, |id, out| {
                Ok(write_unsupported_version(
                    out,
                    id,
                    &token,
                    &[PROTOCOL_VERSION],
                ))
            })
        }
    })())
}

/// Writes `-32602` "Invalid or expired requestState": the one answer to
/// every `requestState` that fails to unseal, whatever the reason. Output
/// convention and statuses as `mrtr_server_write_complete`.
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
    status_of((|| {
        if id.is_null() {
            return Err(mrtr_status::MRTR_ERR_NULL_POINTER);
        }
        // SAFETY: caller contract.
        unsafe {
            emit(
                id,
                &mut Args::free(),
                out,
                out_len,
                out_written,
                |id, out| {
                    let id = id.ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?;
                    Ok(write_invalid_request_state(out, id))
                },
            )
        }
    })())
}

/// Writes `-32602` for an answer the server cannot use (`*err`, from
/// `mrtr_server_input_response`), naming `key`. Output convention and
/// statuses as `mrtr_server_write_complete` (`MRTR_ERR_INVALID_ARGUMENT`
/// for an error record that names no kind).
///
/// # Safety
/// As `mrtr_server_write_complete`; `key` readable; `err` must point to a
/// readable `mrtr_answer_error`.
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
    status_of((|| {
        if id.is_null() {
            return Err(mrtr_status::MRTR_ERR_NULL_POINTER);
        }
        let mut a = Args::free();
        // SAFETY: caller contract; every pointer is checked as it is taken.
        let (key, e) = unsafe { (a.str(key)?, a.reference(err)?) };
        let kind = |raw: u32| response_kind_of(raw).ok().flatten();
        let expected = kind(e.expected).ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?;
        let answer_error = match e.error {
            MRTR_ANSWER_WRONG_KIND => AnswerError::WrongKind {
                expected,
                found: kind(e.found).ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?,
            },
            MRTR_ANSWER_MALFORMED => AnswerError::Malformed { expected },
            _ => return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT),
        };
        // SAFETY: caller contract.
        unsafe {
            emit(id, &mut a, out, out_len, out_written, |id, out| {
                let id = id.ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?;
                Ok(write_answer_error(out, id, key, &answer_error))
            })
        }
    })())
}

/// `mrtr_param_header_error.reason`: a designated argument is in the body
/// (not `null`) and its `Mcp-Param-*` header is missing.
pub const MRTR_PARAM_HEADER_MISSING: u32 = 1;
/// `mrtr_param_header_error.reason`: the header is sent and the body has no
/// such argument (or `null`).
pub const MRTR_PARAM_HEADER_UNEXPECTED: u32 = 2;
/// `mrtr_param_header_error.reason`: a `=?base64?...?=` value that is not
/// strict standard base64 (alphabet, padding, canonical trailing bits).
pub const MRTR_PARAM_HEADER_BAD_ENCODING: u32 = 3;
/// `mrtr_param_header_error.reason`: the value is not the body's value (or
/// the argument is not of the designated type, or, for an integer, not a
/// safe integer, at most 2^53 - 1 in magnitude).
pub const MRTR_PARAM_HEADER_MISMATCH: u32 = 4;
/// `mrtr_param_header_error.reason`: the same `Mcp-Param-*` header is sent
/// twice (names compared ignoring case).
pub const MRTR_PARAM_HEADER_REPEATED: u32 = 5;
/// `mrtr_param_header_error.reason`: an object on the designated
/// argument's path in `arguments` has that member twice (the body means
/// two things, as `{"region":"eu","region":"us"}` does).
pub const MRTR_PARAM_HEADER_REPEATED_MEMBER: u32 = 6;

impl Views for crate::types::mrtr_http_header {
    type Read<'a> = (&'a str, &'a str);

    fn read<'a>(&self, take: &mut Take<'_, 'a>) -> Result<(&'a str, &'a str), mrtr_status> {
        Ok((take.str(self.name)?, take.str(self.value)?))
    }
}

/// Why `mrtr_server_check_param_headers` refused a request.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_param_header_error {
    /// A `MRTR_PARAM_HEADER_*` value.
    pub reason: u32,
    /// The designated header name after `Mcp-Param-` (text, a view into
    /// `input_schema`), for the error message.
    pub header: mrtr_str,
}

/// Server side of SEP-2243, for a `tools/call` that came over Streamable
/// HTTP: checks the request's `Mcp-Param-*` headers against its
/// `arguments` (`mrtr_server_request.arguments`, raw JSON; `ptr` NULL for
/// none), for the called tool's `input_schema` (the server's own
/// `inputSchema`, raw JSON). `headers` are the `n` headers the request came
/// with, as received (names compared ignoring case, values trimmed of
/// spaces and tabs). Designations stand at any depth reached through
/// `properties` (`target.zone`); each argument is found by its path, and a
/// member on the way that is missing, `null` or not an object means the
/// argument is absent. A `=?base64?...?=` value is decoded strictly before
/// comparing, any other value taken literally; a string argument compares
/// with its decoded text, a boolean with its JSON text, an integer by
/// value: the argument must be a safe integer (at most 2^53 - 1 in
/// magnitude; `1e2` is 100, `1.5` fails) and the header a decimal number
/// (`100` and `100.0` both match 100). A member repeated on an argument's
/// path fails (`MRTR_PARAM_HEADER_REPEATED_MEMBER`).
///
/// Returns `MRTR_OK`; `MRTR_ERR_INVALID_VALUE` when the headers do not
/// match (`*out_error`, when not NULL, says which and why: answer `-32020`
/// with HTTP 400); `MRTR_ERR_INVALID_SCHEMA` (`input_schema` has invalid
/// designations); `MRTR_ERR_INVALID_ARGUMENT` (`arguments` not a JSON
/// object); `MRTR_ERR_INVALID_UTF8`.
///
/// # Safety
/// `input_schema`, `arguments` and each header's strings readable;
/// `headers` NULL (with `n` 0) or `n` readable `mrtr_http_header`;
/// `out_error` NULL or a writable `mrtr_param_header_error`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_server_check_param_headers(
    input_schema: mrtr_str,
    arguments: mrtr_str,
    headers: *const crate::types::mrtr_http_header,
    n: usize,
    out_error: *mut mrtr_param_header_error,
) -> mrtr_status {
    use mrtr_core::params::{
        check_param_headers, header_name_eq, Designations, ParamHeaderError, MCP_PARAM_PREFIX,
    };
    status_of((|| {
        let mut a = Args::free();
        // SAFETY: caller contract; each pointer is checked as it is taken,
        // every header's name and value included (one list).
        let (out_error, schema, args, headers) = unsafe {
            (
                a.out_opt(out_error)?,
                a.str(input_schema)?,
                a.str(arguments)?,
                a.list(headers, n)?,
            )
        };
        // The Mcp-Param-* headers: (name after the prefix, trimmed value).
        let mut params = 0usize;
        for h in headers.iter() {
            let (name, _) = h?;
            if name.len() > MCP_PARAM_PREFIX.len()
                && name
                    .get(..MCP_PARAM_PREFIX.len())
                    .is_some_and(|p| p.eq_ignore_ascii_case(MCP_PARAM_PREFIX))
            {
                params += 1;
            }
        }
        let designations = Designations::parse(schema.as_bytes())
            .map_err(|_| mrtr_status::MRTR_ERR_INVALID_SCHEMA)?;
        let arguments = if args.is_empty() && arguments.ptr.is_null() {
            None
        } else {
            let v =
                json::parse(args.as_bytes()).map_err(|_| mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?;
            if v.is_null() {
                None
            } else {
                Some(
                    v.as_object()
                        .ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?,
                )
            }
        };
        // A header's name after `Mcp-Param-`, and its trimmed value.
        fn suffix_of<'a>(h: Result<(&'a str, &'a str), mrtr_status>) -> Option<(&'a str, &'a str)> {
            let (name, value) = h.ok()?;
            let suffix = name
                .get(..MCP_PARAM_PREFIX.len())
                .filter(|p| p.eq_ignore_ascii_case(MCP_PARAM_PREFIX))
                .and_then(|_| name.get(MCP_PARAM_PREFIX.len()..))?;
            Some((suffix, value.trim_matches([' ', '\t'])))
        }
        let header_text = |d: &JsonStr<'_>| mrtr_str::of_bytes(d.raw_inner());
        // A repeated header is refused before anything is compared.
        if params > 1 {
            for d in designations.iter() {
                let count = headers
                    .iter()
                    .filter_map(suffix_of)
                    .filter(|(s, _)| header_name_eq(s, &d.header))
                    .count();
                if count > 1 {
                    if let Some(o) = out_error {
                        o.write(mrtr_param_header_error {
                            reason: MRTR_PARAM_HEADER_REPEATED,
                            header: header_text(&d.header),
                        });
                    }
                    return Err(mrtr_status::MRTR_ERR_INVALID_VALUE);
                }
            }
        }
        check_param_headers(&designations, arguments, |want| {
            headers
                .iter()
                .filter_map(suffix_of)
                .find(|(s, _)| header_name_eq(s, want))
                .map(|(_, v)| v.as_bytes())
        })
        .map_err(|(why, d)| {
            if let Some(o) = out_error {
                o.write(mrtr_param_header_error {
                    reason: match why {
                        ParamHeaderError::Missing => MRTR_PARAM_HEADER_MISSING,
                        ParamHeaderError::Unexpected => MRTR_PARAM_HEADER_UNEXPECTED,
                        ParamHeaderError::BadEncoding => MRTR_PARAM_HEADER_BAD_ENCODING,
                        ParamHeaderError::Mismatch => MRTR_PARAM_HEADER_MISMATCH,
                        ParamHeaderError::RepeatedMember => MRTR_PARAM_HEADER_REPEATED_MEMBER,
                    },
                    header: header_text(&d.header),
                });
            }
            mrtr_status::MRTR_ERR_INVALID_VALUE
        })
    })())
}
