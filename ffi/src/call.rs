//! `mrtr_call_*`: one logical request (`tools/call`, `prompts/get`,
//! `resources/read`) through all its legs, and through its task when the
//! server moves it to one, in caller memory. One handle, one machine: the
//! core's [`Machine`].
//!
//! ```text
//!  mrtr_call_workspace_size(&limits, &size); ws = aligned memory of size
//!  mrtr_call_init(ws, size, &config, &call)                 -> READY
//!  READY:     mrtr_call_write_request(call, id, out, ..)    -> SENT
//!  SENT:      mrtr_call_feed(call, msg, len, &event)
//!               COMPLETE / RPC_ERROR                        -> DONE
//!               INPUT_REQUIRED                              -> ANSWERING
//!               RETRY_AFTER, TASK_POLL (wait event.wait_ms) -> READY
//!               TASK_CREATED: the call now follows its task -> READY
//!               TASK_NEXT (seed dialect)                    -> READY
//!               TASK_FAILED / TASK_CANCELLED                -> DONE
//!               UNRELATED (keep feeding)                    -> SENT
//!  ANSWERING: mrtr_call_input_at / mrtr_call_answer_* for every input -> READY
//!  any terminal error                                       -> FAILED
//! ```
//! The workspace holds the machine's record and its byte regions (the
//! rendered params or task id, the current round's `inputRequests` and
//! `requestState`, the answers); nothing else is kept anywhere. Views a
//! call hands out point into the workspace and stay valid until the next
//! function that mutates the call (`write_request`, `resend`,
//! `write_cancel`, `feed`, `answer_*`). One call is not safe to use from
//! two threads at once.

use core::ffi::c_void;

use mrtr_core::client::call::CallMethod;
use mrtr_core::client::task::TaskIdRef;
use mrtr_core::client::{
    CallError, CallLimits, Flow, Machine, MachineConfig, MachineSlot, Start, TaskRequest,
};
use mrtr_core::json::{self, ParseLimits};
use mrtr_core::wire::{ClientInfo, TaskDialect, WireLimits};

use crate::abi::{finish_output, Args, Out};
use crate::exchange::{
    self, caps_from_bits, dialect_of, machine_event, mrtr_event, mrtr_failure, mrtr_input,
    mrtr_phase, mrtr_root, mrtr_task_dialect, phase_of, status_of,
};
use crate::json::MRTR_JSON_MAX_DEPTH;
use crate::mrtr_status;
use crate::object::{self, magic, Obj};
use crate::status::status_of as status_of_result;
use crate::types::mrtr_str;

/// A call living in caller memory (opaque; the pointer is the workspace).
#[allow(non_camel_case_types)]
pub struct mrtr_call {
    _opaque: [u8; 0],
}

/// Every capacity and cap of a call and of the task it may become. Get the
/// defaults from `mrtr_call_limits_default`, then change what you need;
/// there are no "0 means default" fields.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_call_limits {
    /// Largest server message read, in bytes (default 1 MiB).
    pub max_message_bytes: usize,
    /// Deepest JSON nesting read (default 32; 4 to `MRTR_JSON_MAX_DEPTH`).
    pub max_depth: usize,
    /// Most input requests in one round (default 64; 1 to 256). Each costs
    /// 23 bytes of workspace.
    pub max_input_requests: usize,
    /// Longest input key, decoded bytes (default 256).
    pub max_key_bytes: usize,
    /// Bound of the params as sent, `_meta` included, or of a task's `_meta`
    /// and id (default 16 KiB).
    pub max_params_bytes: usize,
    /// Bound of one round's `inputRequests` (default 16 KiB).
    pub max_inputs_bytes: usize,
    /// Bound of the `requestState` token, quotes included (default 4 KiB).
    pub max_state_bytes: usize,
    /// Bound of one round's answers, JSON bytes (default 16 KiB).
    pub max_answers_bytes: usize,
    /// Most `input_required` rounds (default 10).
    pub max_rounds: u32,
    /// Most consecutive state-only rounds (default 3).
    pub max_state_only_rounds: u32,
    /// Backoff after the first state-only round, ms (default 50).
    pub backoff_initial_ms: u32,
    /// Ceiling of the doubling backoff, ms (default 250).
    pub backoff_max_ms: u32,
    /// Most `tasks/get` requests (default 100,000).
    pub max_polls: u32,
    /// Poll interval when the server gives none, ms (default 1,000).
    pub default_poll_ms: u64,
    /// Floor of the poll interval, ms (default 100): a hostile hint cannot
    /// make the app busy-poll.
    pub min_poll_ms: u64,
    /// Ceiling of the poll interval, ms (default 60,000).
    pub max_poll_ms: u64,
}

/// The method of a call.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum mrtr_method {
    /// `tools/call` (params need `name`).
    MRTR_METHOD_TOOLS_CALL = 1,
    /// `prompts/get` (params need `name`).
    MRTR_METHOD_PROMPTS_GET = 2,
    /// `resources/read` (params need `uri`).
    MRTR_METHOD_RESOURCES_READ = 3,
}

const _: () = assert!(mrtr_method::MRTR_METHOD_TOOLS_CALL as u8 == CallMethod::ToolsCall as u8);
const _: () = assert!(mrtr_method::MRTR_METHOD_PROMPTS_GET as u8 == CallMethod::PromptsGet as u8);
const _: () =
    assert!(mrtr_method::MRTR_METHOD_RESOURCES_READ as u8 == CallMethod::ResourcesRead as u8);

/// `mrtr_call_config.flags`: send no `io.modelcontextprotocol/clientInfo`.
pub const MRTR_CALL_NO_CLIENT_INFO: u32 = 1;
/// `mrtr_call_config.flags`: `task_id` is a JSON string token (quotes and
/// escapes included, as in `mrtr_progress.task_id`), echoed exactly as the
/// server wrote it; without the flag it is plain text.
pub const MRTR_CALL_TASK_ID_JSON: u32 = 1 << 1;

/// How to start a call: a method with params, or (with `task_dialect` set)
/// a task restarted from a stored id. Zero-initialize it, then set the
/// fields; everything is copied at init and need not outlive
/// `mrtr_call_init`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_call_config {
    /// A `mrtr_method` value; 0 when restarting a task.
    pub method: u32,
    /// The params object as JSON, e.g.
    /// `{"name":"get_weather","arguments":{"location":"Paris"}}`. It must
    /// not contain `inputResponses` or `requestState` (the call owns them),
    /// nor an object, at any depth, with a member twice (such params mean
    /// two things and are refused);
    /// a `_meta` object is merged (the three keys the call writes are
    /// replaced); a `task` object asks for a seed-dialect task. Empty when
    /// restarting a task.
    pub params: mrtr_str,
    /// `MRTR_CAP_*` bits: what the call declares it can answer, sent on
    /// every request. The server may only ask these kinds; the extension
    /// dialect needs `MRTR_CAP_TASKS`.
    pub caps: u32,
    /// `clientInfo.name`; with `{NULL, 0}` the library's own identity
    /// (`"mrtr"` and its version) is sent.
    pub client_name: mrtr_str,
    /// `clientInfo.version` (used when `client_name` is given).
    pub client_version: mrtr_str,
    /// `MRTR_CALL_*` flags.
    pub flags: u32,
    /// The first JSON-RPC id `mrtr_progress.next_id` suggests (0 means 1):
    /// within +-(2^53-1).
    pub first_id: i64,
    /// The limits; NULL for the defaults.
    pub limits: *const mrtr_call_limits,
    /// Optional: receives the workspace size needed when `mrtr_call_init`
    /// returns `MRTR_ERR_WORKSPACE_TOO_SMALL`.
    pub out_needed: *mut usize,
    /// Restart a task: a `mrtr_task_dialect` value; `NONE` (0) for a call.
    pub task_dialect: u32,
    /// Restart a task: the server's task id (see `MRTR_CALL_TASK_ID_JSON`).
    pub task_id: mrtr_str,
    /// Restart a task: the poll hint it was created with, ms; 0 for none.
    pub task_poll_ms: u64,
}

/// Which flow a call is in.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum mrtr_flow {
    /// The call's own request and its retries.
    MRTR_FLOW_CALL = 1,
    /// The task the call became (or was restarted as).
    MRTR_FLOW_TASK = 2,
}

/// The task request a call writes next (or has in flight).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum mrtr_task_request {
    /// Not a task: the call's own request.
    MRTR_TASK_REQUEST_NONE = 0,
    /// `tasks/get`: poll the status.
    MRTR_TASK_REQUEST_GET = 1,
    /// `tasks/result` (seed dialect): fetch the questions or the outcome.
    MRTR_TASK_REQUEST_RESULT = 2,
    /// The answers: `tasks/input_response` (seed) or `tasks/update`
    /// (extension).
    MRTR_TASK_REQUEST_RESPOND = 3,
    /// `tasks/cancel`.
    MRTR_TASK_REQUEST_CANCEL = 4,
}

/// Where a call is: every scalar at once. Views point into the workspace
/// (valid until the next mutating function).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_progress {
    /// The phase.
    pub phase: mrtr_phase,
    /// The flow.
    pub flow: mrtr_flow,
    /// Task flow: the request written next or in flight.
    pub task_request: mrtr_task_request,
    /// Task flow: the dialect.
    pub task_dialect: mrtr_task_dialect,
    /// Input rounds received in the current flow.
    pub round: u32,
    /// Task flow: `tasks/get` requests written.
    pub polls: u32,
    /// Inputs asked in the current round.
    pub input_count: usize,
    /// Inputs answered in the current round.
    pub answered_count: usize,
    /// The last JSON-RPC id used (when `has_last_id`).
    pub last_id: i64,
    /// The id to use for the next request: the config's `first_id` before
    /// the first, then one past `last_id` (when `has_next_id`; false once
    /// the ids are used up past 2^53-1).
    pub next_id: i64,
    /// Task flow: the poll interval, ms (the server's hint, clamped).
    pub poll_ms: u64,
    /// The `requestState` the next request echoes, raw token; empty when
    /// none.
    pub request_state: mrtr_str,
    /// Task flow: the task id as sent, a JSON string token.
    pub task_id: mrtr_str,
    /// `last_id` is set.
    pub has_last_id: bool,
    /// `next_id` is set.
    pub has_next_id: bool,
}

/// Wire limits from their C fields; a depth above the reader's maximum is
/// refused rather than clamped.
pub(crate) fn wire_limits(
    max_message_bytes: usize,
    max_depth: usize,
    max_input_requests: usize,
    max_key_bytes: usize,
) -> Result<WireLimits, mrtr_status> {
    if max_depth > MRTR_JSON_MAX_DEPTH {
        return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
    }
    Ok(WireLimits {
        json: ParseLimits {
            max_depth,
            max_bytes: max_message_bytes,
        },
        max_input_requests,
        max_key_bytes,
    })
}

fn limits_to_c(l: &CallLimits) -> mrtr_call_limits {
    mrtr_call_limits {
        max_message_bytes: l.wire.json.max_bytes,
        max_depth: l.wire.json.max_depth,
        max_input_requests: l.wire.max_input_requests,
        max_key_bytes: l.wire.max_key_bytes,
        max_params_bytes: l.max_params_bytes,
        max_inputs_bytes: l.max_inputs_bytes,
        max_state_bytes: l.max_state_bytes,
        max_answers_bytes: l.max_answers_bytes,
        max_rounds: l.max_rounds,
        max_state_only_rounds: l.max_state_only_rounds,
        backoff_initial_ms: l.backoff_initial_ms,
        backoff_max_ms: l.backoff_max_ms,
        max_polls: l.max_polls,
        default_poll_ms: l.default_poll_ms,
        min_poll_ms: l.min_poll_ms,
        max_poll_ms: l.max_poll_ms,
    }
}

/// The limits a caller passed (`None`: the defaults); limits the core
/// cannot lay out are `MRTR_ERR_INVALID_ARGUMENT`.
fn limits_from_c(l: Option<&mrtr_call_limits>) -> Result<CallLimits, mrtr_status> {
    let Some(l) = l else {
        return Ok(CallLimits::default());
    };
    let limits = CallLimits {
        wire: wire_limits(
            l.max_message_bytes,
            l.max_depth,
            l.max_input_requests,
            l.max_key_bytes,
        )?,
        max_params_bytes: l.max_params_bytes,
        max_inputs_bytes: l.max_inputs_bytes,
        max_state_bytes: l.max_state_bytes,
        max_answers_bytes: l.max_answers_bytes,
        max_rounds: l.max_rounds,
        max_state_only_rounds: l.max_state_only_rounds,
        backoff_initial_ms: l.backoff_initial_ms,
        backoff_max_ms: l.backoff_max_ms,
        max_polls: l.max_polls,
        default_poll_ms: l.default_poll_ms,
        min_poll_ms: l.min_poll_ms,
        max_poll_ms: l.max_poll_ms,
    };
    workspace_for(&limits).map(|_| limits)
}

/// The workspace bytes (record + regions) a call needs under `limits`.
fn workspace_for(limits: &CallLimits) -> Result<usize, mrtr_status> {
    object::workspace_size::<MachineSlot>(Machine::workspace_size(limits))
        .ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)
}

/// Runs `f` on the live machine behind `call`, with the arguments
/// collector of its workspace.
///
/// # Safety
/// `call` must be NULL or a handle from `mrtr_call_init` /
/// `mrtr_call_restore` whose workspace is still lent to the call.
pub(crate) unsafe fn with_call<R>(
    call: *const mrtr_call,
    f: impl FnOnce(&mut Machine<'_>, &mut Args) -> Result<R, mrtr_status>,
) -> Result<R, mrtr_status> {
    // SAFETY: forwarded contract.
    let mut obj: Obj<'_, MachineSlot> = unsafe { object::attach(call.cast(), magic::CALL) }?;
    let mut args = Args::new(obj.span());
    let (slot, region) = obj.split();
    let mut m = Machine::attach(slot, region).map_err(|e| status_of(&e))?;
    f(&mut m, &mut args)
}

/// Ends a function of the `out, out_len, out_written` convention with the
/// core's writer result.
///
/// # Safety
/// As `mrtr_call_write_request` for `out`, `out_len`, `out_written`.
pub(crate) unsafe fn write_with(
    args: &mut Args,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
    write: impl FnOnce(&mut [u8]) -> Result<usize, CallError>,
) -> Result<(), mrtr_status> {
    // SAFETY: caller contract.
    let out_written = unsafe { args.out(out_written) }?;
    // SAFETY: caller contract; overlaps are refused.
    let out = unsafe { args.out_buf(out, out_len) }?;
    match write(out) {
        Ok(n) => finish_output(Ok(n), out_written),
        Err(CallError::BufferTooSmall { needed }) => {
            finish_output(Err(mrtr_core::json::BufferTooSmall { needed }), out_written)
        }
        Err(e) => Err(status_of(&e)),
    }
}

/// Places a machine in `ws` with `start`; the needed size goes to
/// `out_needed` on `MRTR_ERR_WORKSPACE_TOO_SMALL`.
///
/// # Safety
/// As `mrtr_call_init`; every argument was taken through `args`.
unsafe fn place(
    ws: *mut u8,
    len: usize,
    args: &Args,
    limits: &CallLimits,
    out_needed: Option<Out<'_, usize>>,
    out_call: Out<'_, *mut mrtr_call>,
    start: impl FnOnce(&mut MachineSlot, &mut [u8]) -> Result<(), CallError>,
) -> Result<(), mrtr_status> {
    let region = Machine::workspace_size(limits);
    // SAFETY: caller contract; overlaps with every argument refused.
    let placed =
        unsafe { object::init::<MachineSlot>(ws, len, region, MachineSlot::default(), args) };
    let mut obj = match placed {
        Err(mrtr_status::MRTR_ERR_WORKSPACE_TOO_SMALL) => {
            if let (Some(o), Ok(n)) = (out_needed, workspace_for(limits)) {
                o.write(n);
            }
            return Err(mrtr_status::MRTR_ERR_WORKSPACE_TOO_SMALL);
        }
        other => other?,
    };
    {
        let (slot, region) = obj.split();
        start(slot, region).map_err(|e| status_of(&e))?;
    }
    obj.activate(magic::CALL);
    out_call.write(ws.cast());
    Ok(())
}

// ------------------------------------------------------------------- functions

/// Writes the default limits to `*out` (1 MiB messages, depth 32, 64 input
/// requests of keys up to 256 bytes, params/inputs/answers 16 KiB each,
/// `requestState` 4 KiB, 10 rounds, 3 state-only rounds, backoff 50 ms
/// doubling to 250 ms, 100,000 polls every 1 s clamped to 0.1-60 s).
/// Common statuses only.
///
/// # Safety
/// `out` must point to a writable `mrtr_call_limits`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_limits_default(out: *mut mrtr_call_limits) -> mrtr_status {
    // SAFETY: caller contract.
    status_of_result(
        unsafe { Args::free().out(out) }.map(|o| o.write(limits_to_c(&CallLimits::default()))),
    )
}

/// Writes to `*out_size` the workspace bytes a call needs under `limits`
/// (NULL: the defaults): enough for the call and the task it may become.
/// `MRTR_ERR_INVALID_ARGUMENT` for limits that cannot be laid out (0 or
/// more than 256 input requests, a depth under 4 or over
/// `MRTR_JSON_MAX_DEPTH`, a poll floor over its ceiling, a region over
/// 4 GiB, overflow).
///
/// # Safety
/// `limits` must be NULL or point to a readable `mrtr_call_limits`;
/// `out_size` to a writable `size_t`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_workspace_size(
    limits: *const mrtr_call_limits,
    out_size: *mut usize,
) -> mrtr_status {
    let mut args = Args::free();
    // SAFETY: caller contract.
    status_of_result(unsafe {
        (|| {
            let out = args.out(out_size)?;
            let limits = limits_from_c(args.reference_opt(limits)?)?;
            out.write(workspace_for(&limits)?);
            Ok(())
        })()
    })
}

/// Starts a call in `workspace` (`len` bytes, aligned to
/// `MRTR_WORKSPACE_ALIGN`, at least `mrtr_call_workspace_size` of the
/// config's limits) and writes its handle to `*out_call`. A call's params
/// are validated and rendered once, `_meta` first (protocol version,
/// capabilities, client info, then the caller's own `_meta` members). With
/// `config->task_dialect` set, the call restarts that task instead (its
/// first request is `tasks/get`).
///
/// Whatever lived in the workspace before is gone once the arguments pass
/// their checks, even if init then fails (old handles stop working).
///
/// Statuses: `MRTR_ERR_WORKSPACE_TOO_SMALL` (the size goes to
/// `config->out_needed` when set); `MRTR_ERR_INVALID_ARGUMENT` (an unknown
/// method, dialect, capability bit or flag, bad limits, a `first_id`
/// outside +-(2^53-1), params that are not an object, lack `name`/`uri`,
/// contain `inputResponses`/`requestState`, have a malformed
/// `_meta`/`task`, repeat a member in an object at any depth, or have an
/// object of more than 1024 members that the repeat check cannot hold at
/// once, an empty or malformed task id, the extension dialect
/// without `MRTR_CAP_TASKS`, params given with a task or a task id with a
/// method); `MRTR_ERR_INVALID_UTF8`; `MRTR_ERR_JSON` (params not JSON);
/// `MRTR_ERR_LIMIT_EXCEEDED` (params over `max_params_bytes`, too deep or
/// too large).
///
/// # Safety
/// `workspace` must point to `len` writable bytes lent to the call until
/// the application stops using it (no other use meanwhile; do not move or
/// copy it); `config` to a readable `mrtr_call_config` whose strings and
/// limits are readable; `out_call` to a writable `mrtr_call *`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_init(
    workspace: *mut c_void,
    len: usize,
    config: *const mrtr_call_config,
    out_call: *mut *mut mrtr_call,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe { init(workspace.cast(), len, config, out_call) })
}

/// # Safety
/// As [`mrtr_call_init`].
unsafe fn init(
    ws: *mut u8,
    len: usize,
    config: *const mrtr_call_config,
    out_call: *mut *mut mrtr_call,
) -> Result<(), mrtr_status> {
    let mut args = Args::free();
    // SAFETY: caller contract (whole function); every pointer goes through
    // `args`, and `place` refuses a workspace overlapping any of them.
    unsafe {
        let out_call = args.out(out_call)?;
        let cfg = args.reference(config)?;
        let out_needed = args.out_opt(cfg.out_needed)?;
        let known = MRTR_CALL_NO_CLIENT_INFO | MRTR_CALL_TASK_ID_JSON;
        if cfg.flags & !known != 0 {
            return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
        }
        let caps = caps_from_bits(cfg.caps)?;
        let client_info = if cfg.flags & MRTR_CALL_NO_CLIENT_INFO != 0 {
            None
        } else if let Some(name) = args.str_opt(cfg.client_name)? {
            Some(ClientInfo {
                name,
                version: args.str(cfg.client_version)?,
            })
        } else {
            Some(ClientInfo::DEFAULT)
        };
        let limits = limits_from_c(args.reference_opt(cfg.limits)?)?;
        let params = args.bytes(cfg.params.ptr.cast(), cfg.params.len)?;
        let id_text = args.str(cfg.task_id)?;
        let start = match (cfg.task_dialect, cfg.method) {
            (0, method) => {
                let method = match method {
                    1 => CallMethod::ToolsCall,
                    2 => CallMethod::PromptsGet,
                    3 => CallMethod::ResourcesRead,
                    _ => return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT),
                };
                if !id_text.is_empty() || cfg.flags & MRTR_CALL_TASK_ID_JSON != 0 {
                    return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
                }
                Start::Call { method, params }
            }
            (d @ (1 | 2), 0) if params.is_empty() => {
                let dialect = if d == 1 {
                    TaskDialect::Seed
                } else {
                    TaskDialect::Extension
                };
                let task_id = if cfg.flags & MRTR_CALL_TASK_ID_JSON != 0 {
                    let v = json::parse(id_text.as_bytes())
                        .map_err(|_| mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?;
                    TaskIdRef::Token(v.as_str().ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?)
                } else {
                    TaskIdRef::Text(id_text)
                };
                let poll_ms = (cfg.task_poll_ms != 0).then_some(cfg.task_poll_ms);
                Start::Task {
                    dialect,
                    task_id,
                    poll_ms,
                }
            }
            _ => return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT),
        };
        let config = MachineConfig {
            start,
            caps,
            client_info,
            limits,
            first_id: if cfg.first_id == 0 { 1 } else { cfg.first_id },
        };
        if let Err(e) = mrtr_core::client::call::check_id_range(config.first_id) {
            return Err(status_of(&e));
        }
        place(
            ws,
            len,
            &args,
            &limits,
            out_needed,
            out_call,
            |slot, region| Machine::init(slot, region, &config).map(|_| ()),
        )
    }
}

/// Writes the next request, with JSON-RPC id `id`, into `out` (`READY` ->
/// `SENT`): the call's leg, or the task request `mrtr_progress.task_request`
/// names. Ids must increase and stay within +-(2^53-1);
/// `mrtr_progress.next_id` suggests one.
///
/// Output convention of `mrtr_json_write_string`: `*out_written` receives
/// the length, or with `MRTR_ERR_BUFFER_TOO_SMALL` the size needed (the
/// call is unchanged then). Statuses: `MRTR_ERR_BUFFER_TOO_SMALL`,
/// `MRTR_ERR_WRONG_STATE` (not `READY`), `MRTR_ERR_UNANSWERED_INPUT`
/// (`ANSWERING` with inputs left), `MRTR_ERR_INVALID_ARGUMENT` (id not
/// fresh or out of range).
///
/// # Safety
/// `call` must be a live handle (see `mrtr_call_init`); `out` must point
/// to `out_len` writable bytes (unless 0); `out_written` to a writable
/// `size_t`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_write_request(
    call: *mut mrtr_call,
    id: i64,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_call(call, |m, a| {
            write_with(a, out, out_len, out_written, |o| m.write_request(id, o))
        })
    })
}

/// After a transport failure (`SENT`): writes the request in flight again
/// with a fresh `id`; answers and state are kept, and a late response to
/// the old id becomes `MRTR_EVENT_UNRELATED`. Output and statuses as
/// `mrtr_call_write_request` (`MRTR_ERR_WRONG_STATE` unless `SENT`).
///
/// # Safety
/// As `mrtr_call_write_request`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_resend(
    call: *mut mrtr_call,
    id: i64,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_call(call, |m, a| {
            write_with(a, out, out_len, out_written, |o| m.resend(id, o))
        })
    })
}

/// Task flow: writes `tasks/cancel` with `id` (from `READY`, `SENT` or
/// `ANSWERING`; a response to a request in flight then counts as
/// unrelated) -> `SENT`; the acknowledgement is `MRTR_EVENT_TASK_CANCELLED`.
/// Output and statuses as `mrtr_call_write_request`;
/// `MRTR_ERR_WRONG_STATE` in the call flow or once done.
///
/// # Safety
/// As `mrtr_call_write_request`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_write_cancel(
    call: *mut mrtr_call,
    id: i64,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_call(call, |m, a| {
            write_with(a, out, out_len, out_written, |o| m.write_cancel(id, o))
        })
    })
}

/// Feeds `len` bytes the transport received while `SENT`: one complete
/// JSON-RPC message. Writes what it meant to `*out_event` (see
/// `mrtr_event_kind`); spans point into `msg`. A valid message that is not
/// the answer (another id, a notification) is `MRTR_EVENT_UNRELATED` and
/// changes nothing. On `MRTR_EVENT_TASK_CREATED` the call follows the task
/// in place: `READY` for its first `tasks/get`, ids continuing.
///
/// Terminal errors end the call (`FAILED`, details from
/// `mrtr_call_failure`): `MRTR_ERR_JSON`, `MRTR_ERR_ENVELOPE`,
/// `MRTR_ERR_PROTOCOL_VIOLATION`, `MRTR_ERR_UNDECLARED_CAPABILITY`,
/// `MRTR_ERR_LIMIT_EXCEEDED`, `MRTR_ERR_ROUND_CAP`. `MRTR_ERR_WRONG_STATE`
/// (not `SENT`) leaves the call unchanged.
///
/// # Safety
/// `call` must be a live handle; `msg` must point to `len` readable bytes;
/// `out_event` to a writable `mrtr_event`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_feed(
    call: *mut mrtr_call,
    msg: *const u8,
    len: usize,
    out_event: *mut mrtr_event,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_call(call, |m, a| {
            let out = a.out(out_event)?;
            let bytes = a.bytes(msg, len)?;
            let ev = m.feed(bytes).map_err(|e| status_of(&e))?;
            out.write(machine_event(bytes, &ev));
            Ok(())
        })
    })
}

/// The progress of a live machine.
pub(crate) fn progress_of(m: &Machine<'_>) -> mrtr_progress {
    let task_request = match m.task_request() {
        None => mrtr_task_request::MRTR_TASK_REQUEST_NONE,
        Some(TaskRequest::Get) => mrtr_task_request::MRTR_TASK_REQUEST_GET,
        Some(TaskRequest::Result) => mrtr_task_request::MRTR_TASK_REQUEST_RESULT,
        Some(TaskRequest::Respond) => mrtr_task_request::MRTR_TASK_REQUEST_RESPOND,
        Some(TaskRequest::Cancel) => mrtr_task_request::MRTR_TASK_REQUEST_CANCEL,
    };
    let next_id = m.next_id().ok();
    mrtr_progress {
        phase: phase_of(m.phase()),
        flow: match m.flow() {
            Flow::Call => mrtr_flow::MRTR_FLOW_CALL,
            Flow::Task => mrtr_flow::MRTR_FLOW_TASK,
        },
        task_request,
        task_dialect: m
            .dialect()
            .map_or(mrtr_task_dialect::MRTR_TASK_DIALECT_NONE, dialect_of),
        round: m.round(),
        polls: m.polls(),
        input_count: m.input_count(),
        answered_count: m.answered_count(),
        last_id: m.last_id().unwrap_or(0),
        next_id: next_id.unwrap_or(0),
        poll_ms: m.poll_ms(),
        request_state: m
            .request_state()
            .map_or(mrtr_str::EMPTY, mrtr_str::of_bytes),
        task_id: m.task_id().map_or(mrtr_str::EMPTY, mrtr_str::of_bytes),
        has_last_id: m.last_id().is_some(),
        has_next_id: next_id.is_some(),
    }
}

/// Writes where the call is to `*out`: phase, flow, round, inputs, ids,
/// the task's next request and poll interval, the `requestState` echoed.
/// Common statuses only.
///
/// # Safety
/// `call` must be a live handle; `out` must point to a writable
/// `mrtr_progress`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_progress(
    call: *const mrtr_call,
    out: *mut mrtr_progress,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_call(call, |m, a| {
            a.out(out)?.write(progress_of(m));
            Ok(())
        })
    })
}

/// Writes input `index` of the current round (server order) to `*out`;
/// its strings are views into the workspace. `MRTR_ERR_NOT_FOUND` past the
/// last input.
///
/// # Safety
/// `call` must be a live handle; `out` must point to a writable
/// `mrtr_input`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_input_at(
    call: *const mrtr_call,
    index: usize,
    out: *mut mrtr_input,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_call(call, |m, a| {
            let out = a.out(out)?;
            out.write(exchange::input_view(m, index)?);
            Ok(())
        })
    })
}

/// Writes to `*out_index` the index of the input whose key decodes to
/// `key` (UTF-8). `MRTR_ERR_NOT_FOUND` when no input has it,
/// `MRTR_ERR_INVALID_UTF8`.
///
/// # Safety
/// `call` must be a live handle; `key` must be readable; `out_index` must
/// point to a writable `size_t`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_input_find(
    call: *const mrtr_call,
    key: mrtr_str,
    out_index: *mut usize,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_call(call, |m, a| {
            let out = a.out(out_index)?;
            let key = a.str(key)?;
            out.write(m.index_of(key).map_err(|e| status_of(&e))?);
            Ok(())
        })
    })
}

/// Decodes one text field of input `index` (`field`: one `MRTR_TEXT_*`
/// bit) into `out` as UTF-8, with the output convention of
/// `mrtr_json_write_string`. `MRTR_ERR_NOT_FOUND` (no such input, or the
/// input has no such field), `MRTR_ERR_INVALID_ARGUMENT` (not one known
/// bit), `MRTR_ERR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `call` must be a live handle; `out` must point to `out_len` writable
/// bytes (unless 0); `out_written` to a writable `size_t`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_input_text(
    call: *const mrtr_call,
    index: usize,
    field: u32,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_call(call, |m, a| {
            exchange::input_text(m, a, index, field, out, out_len, out_written)
        })
    })
}

/// Answers elicitation input `index`: `action` is `MRTR_ELICIT_ACCEPT`,
/// `_DECLINE` or `_CANCEL`; `content` is the form's answer as a JSON object
/// (form mode `accept` only; empty otherwise). Check content against the
/// form first with `mrtr_form_validate`. The last answer makes the call
/// `READY`. Statuses: `MRTR_ERR_WRONG_STATE` (not `ANSWERING`, or already
/// answered); `MRTR_ERR_NOT_FOUND`; `MRTR_ERR_JSON` (content not JSON);
/// `MRTR_ERR_INVALID_VALUE` (not an elicitation, content missing for a form
/// `accept`, content given for URL mode / decline / cancel, not an object);
/// `MRTR_ERR_LIMIT_EXCEEDED` (over `max_answers_bytes`);
/// `MRTR_ERR_INVALID_ARGUMENT` (unknown action).
///
/// # Safety
/// `call` must be a live handle; `content` must be readable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_answer_elicit(
    call: *mut mrtr_call,
    index: usize,
    action: u32,
    content: mrtr_str,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_call(call, |m, a| {
            exchange::answer_elicit(m, a, index, action, content)
        })
    })
}

/// Answers input `index` with a raw JSON result of its kind (a
/// `CreateMessageResult` for sampling, a `ListRootsResult` for roots, an
/// elicitation result; the bare result, never wrapped in `{"result": ..}`).
/// Statuses as `mrtr_call_answer_elicit` (`MRTR_ERR_INVALID_VALUE`: not an
/// object, wrapped, an unknown shape, a kind that does not match, or a root
/// URI the core refuses, checked decoded).
///
/// # Safety
/// `call` must be a live handle; `json` must be readable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_answer_json(
    call: *mut mrtr_call,
    index: usize,
    json: mrtr_str,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe { with_call(call, |m, a| exchange::answer_json(m, a, index, json)) })
}

/// Answers roots input `index` with `n` roots (at most `MRTR_MAX_ROOTS`);
/// every URI must be a `file://` URI without dot segments (the core's one
/// rule set, the same for every language). Statuses as
/// `mrtr_call_answer_elicit` (`MRTR_ERR_INVALID_VALUE`: a refused URI),
/// plus `MRTR_ERR_LIMIT_EXCEEDED` (too many roots) and
/// `MRTR_ERR_INVALID_UTF8`.
///
/// # Safety
/// `call` must be a live handle; `roots` must point to `n` readable
/// `mrtr_root` whose strings are readable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_answer_roots(
    call: *mut mrtr_call,
    index: usize,
    roots: *const mrtr_root,
    n: usize,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_call(call, |m, a| exchange::answer_roots(m, a, index, roots, n))
    })
}

/// Ends the call locally because the app cannot answer input `index`
/// (MRTR has no error input response): returns `MRTR_OK` and the call is
/// `FAILED` with `MRTR_FAILURE_ANSWERED_WITH_ERROR` carrying `code`.
/// `MRTR_ERR_WRONG_STATE` (not `ANSWERING`, or already answered),
/// `MRTR_ERR_NOT_FOUND`.
///
/// # Safety
/// `call` must be a live handle.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_answer_error(
    call: *mut mrtr_call,
    index: usize,
    code: i64,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_call(call, |m, _| {
            exchange::answer(m, index, mrtr_core::client::Answer::Error { code })
        })
    })
}

/// Writes to `*out` the final result, found again in `fed` (the bytes whose
/// feeding completed the call; the call keeps only its position).
/// `MRTR_ERR_WRONG_STATE` before completion, `MRTR_ERR_INVALID_ARGUMENT`
/// for other bytes.
///
/// # Safety
/// `call` must be a live handle; `fed` must point to `fed_len` readable
/// bytes; `out` to a writable `mrtr_str`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_result(
    call: *const mrtr_call,
    fed: *const u8,
    fed_len: usize,
    out: *mut mrtr_str,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_call(call, |m, a| {
            let out = a.out(out)?;
            let fed = a.bytes(fed, fed_len)?;
            if m.result_span().is_none() {
                return Err(mrtr_status::MRTR_ERR_WRONG_STATE);
            }
            let r = m
                .result(fed)
                .ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?;
            out.write(mrtr_str::of_bytes(r));
            Ok(())
        })
    })
}

/// Saves the call (`READY`, `SENT` or `ANSWERING`, either flow) into
/// `out`, with the output convention of `mrtr_json_write_string`. After a
/// restore in `SENT` the response to the old request is lost with the old
/// process: `mrtr_call_resend`. `MRTR_ERR_WRONG_STATE` once done or
/// failed, `MRTR_ERR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `call` must be a live handle; `out` must point to `out_len` writable
/// bytes (unless 0); `out_written` to a writable `size_t`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_save(
    call: *const mrtr_call,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_call(call, |m, a| {
            write_with(a, out, out_len, out_written, |o| m.save(o))
        })
    })
}

/// Restores a save into `workspace` under `limits` (NULL: the defaults),
/// which bound the restored regions: a save cannot raise them. Every
/// region is re-validated as untrusted input. The next id is one past the
/// saved last id. Statuses: `MRTR_ERR_WORKSPACE_TOO_SMALL`,
/// `MRTR_ERR_UNSUPPORTED_VERSION` (a save of another format version, or
/// params whose `_meta` names another protocol version than
/// `"2026-07-28"`, or none), `MRTR_ERR_INVALID_ARGUMENT` (not a save of
/// this format, a broken invariant, a region over its limit, bad limits).
///
/// # Safety
/// As `mrtr_call_init` for `workspace`, `len` and `out_call`; `limits` must
/// be NULL or readable; `saved` must point to `saved_len` readable bytes.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_restore(
    workspace: *mut c_void,
    len: usize,
    limits: *const mrtr_call_limits,
    saved: *const u8,
    saved_len: usize,
    out_call: *mut *mut mrtr_call,
) -> mrtr_status {
    let mut args = Args::free();
    // SAFETY: caller contract; every pointer goes through `args`.
    status_of_result(unsafe {
        (|| {
            let out_call = args.out(out_call)?;
            let limits = limits_from_c(args.reference_opt(limits)?)?;
            let saved = args.bytes(saved, saved_len)?;
            place(
                workspace.cast(),
                len,
                &args,
                &limits,
                None,
                out_call,
                |s, r| Machine::restore(s, r, &limits, saved).map(|_| ()),
            )
        })()
    })
}

/// Writes why the call failed to `*out` (`FAILED` only;
/// `MRTR_ERR_WRONG_STATE` otherwise).
///
/// # Safety
/// `call` must be a live handle; `out` must point to a writable
/// `mrtr_failure`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_failure(
    call: *const mrtr_call,
    out: *mut mrtr_failure,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe { with_call(call, |m, a| exchange::failure(m, a.out(out)?)) })
}
