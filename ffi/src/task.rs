//! `mrtr_task_*`: follow a task through its polls and input rounds, in
//! either dialect, in caller memory.
//!
//! ```text
//!  mrtr_task_init(ws, len, &config, &task)              -> READY (tasks/get)
//!  READY:     mrtr_task_write_request                   -> SENT
//!             (the request mrtr_task_next_request names)
//!  SENT:      mrtr_task_feed -> TASK_POLL (wait wait_ms)  -> READY (tasks/get)
//!                               TASK_NEXT (seed)          -> READY (tasks/result)
//!                               INPUT_REQUIRED            -> ANSWERING
//!                               COMPLETE / TASK_FAILED / TASK_CANCELLED /
//!                               RPC_ERROR                 -> DONE
//!  ANSWERING: mrtr_task_answer_* for every input          -> READY (answers)
//!  mrtr_task_write_cancel (READY, SENT, ANSWERING)        -> SENT (tasks/cancel)
//! ```
//! Inputs and answers work as for a call. The workspace and view rules are
//! those of `mrtr_call_*`.

use core::ffi::c_void;

use mrtr_core::client::call::check_id_range;
use mrtr_core::client::task::TaskIdRef;
use mrtr_core::client::{TaskCall, TaskConfig, TaskLimits, TaskRequest, TaskState};
use mrtr_core::json;
use mrtr_core::wire::{ClientInfo, TaskDialect};

use crate::abi::{in_bytes, in_ref, in_str, Out, Span};
use crate::call::{wire_limits, write_with};
use crate::exchange::{
    self, caps_from_bits, mrtr_event, mrtr_failure, mrtr_input, mrtr_phase, mrtr_root, phase_of,
    status_of, task_event,
};
use crate::mrtr_status;
use crate::object::{self, magic, Obj};
use crate::status::status_of as status_of_result;
use crate::types::mrtr_str;

/// A task living in caller memory (opaque; the pointer is the workspace).
#[allow(non_camel_case_types)]
pub struct mrtr_task {
    _opaque: [u8; 0],
}

/// Every capacity and cap of a task. Get the defaults from
/// `mrtr_task_limits_default`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_task_limits {
    /// Largest server message read, in bytes (default 1 MiB).
    pub max_message_bytes: usize,
    /// Deepest JSON nesting read (default 32; 4 to `MRTR_JSON_MAX_DEPTH`).
    pub max_depth: usize,
    /// Most input requests in one round (default 64; 1 to 256).
    pub max_input_requests: usize,
    /// Longest input key, decoded bytes (default 256).
    pub max_key_bytes: usize,
    /// Bound of the fixed request part: `_meta` and the task id (default
    /// 1 KiB).
    pub max_params_bytes: usize,
    /// Bound of one round's `inputRequests` (default 16 KiB).
    pub max_inputs_bytes: usize,
    /// Bound of the `requestState` token (seed dialect; default 4 KiB).
    pub max_state_bytes: usize,
    /// Bound of one round's answers (default 16 KiB).
    pub max_answers_bytes: usize,
    /// Most input rounds (default 10).
    pub max_rounds: u32,
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

/// The request a task sends next (or has in flight).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum mrtr_task_request {
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

/// `mrtr_task_config.flags`: `task_id` is a JSON string token (quotes and
/// escapes included, as in `mrtr_event.task_id`), echoed exactly as the
/// server wrote it; without the flag it is plain text.
pub const MRTR_TASK_ID_JSON: u32 = 1;
/// `mrtr_task_config.flags`: send no `io.modelcontextprotocol/clientInfo`.
pub const MRTR_TASK_NO_CLIENT_INFO: u32 = 1 << 1;

/// How to start following a task. Zero-initialize it, then set the
/// fields; everything is copied at init.
///
/// From a `MRTR_EVENT_TASK_CREATED` event `ev` of message `msg`:
/// `dialect = ev.task_dialect`, `task_id = {msg + ev.task_id.offset,
/// ev.task_id.len}`, `flags = MRTR_TASK_ID_JSON`, `poll_ms =
/// ev.task_poll_ms`, and the call's capabilities.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_task_config {
    /// A `mrtr_task_dialect` value (not `NONE`).
    pub dialect: u32,
    /// The server's task id (see `MRTR_TASK_ID_JSON`); not empty.
    pub task_id: mrtr_str,
    /// `MRTR_TASK_*` flags.
    pub flags: u32,
    /// `MRTR_CAP_*` bits declared on every request; the extension dialect
    /// needs `MRTR_CAP_TASKS`.
    pub caps: u32,
    /// `clientInfo.name`; with `ptr` NULL the library's own identity.
    pub client_name: mrtr_str,
    /// `clientInfo.version`.
    pub client_version: mrtr_str,
    /// The poll hint the task was created with, ms; 0 for none.
    pub poll_ms: u64,
    /// The first JSON-RPC id `mrtr_task_next_id` suggests (0 means 1):
    /// within +-(2^53-1), or `mrtr_task_init` refuses the config.
    pub first_id: i64,
    /// The limits; NULL for the defaults.
    pub limits: *const mrtr_task_limits,
    /// Optional: receives the workspace size needed on
    /// `MRTR_ERR_WORKSPACE_TOO_SMALL`.
    pub out_needed: *mut usize,
}

pub(crate) struct TaskValue {
    state: TaskState,
    first_id: i64,
}

fn limits_to_c(l: &TaskLimits) -> mrtr_task_limits {
    mrtr_task_limits {
        max_message_bytes: l.wire.json.max_bytes,
        max_depth: l.wire.json.max_depth,
        max_input_requests: l.wire.max_input_requests,
        max_key_bytes: l.wire.max_key_bytes,
        max_params_bytes: l.max_params_bytes,
        max_inputs_bytes: l.max_inputs_bytes,
        max_state_bytes: l.max_state_bytes,
        max_answers_bytes: l.max_answers_bytes,
        max_rounds: l.max_rounds,
        max_polls: l.max_polls,
        default_poll_ms: l.default_poll_ms,
        min_poll_ms: l.min_poll_ms,
        max_poll_ms: l.max_poll_ms,
    }
}

fn limits_from_c(l: &mrtr_task_limits) -> Result<TaskLimits, mrtr_status> {
    let limits = TaskLimits {
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
        max_polls: l.max_polls,
        default_poll_ms: l.default_poll_ms,
        min_poll_ms: l.min_poll_ms,
        max_poll_ms: l.max_poll_ms,
    };
    if TaskCall::workspace_size(&limits) == usize::MAX {
        return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
    }
    Ok(limits)
}

/// # Safety
/// `limits` must be NULL or point to a readable `mrtr_task_limits`.
unsafe fn read_limits(limits: *const mrtr_task_limits) -> Result<(TaskLimits, Span), mrtr_status> {
    if limits.is_null() {
        return Ok((TaskLimits::default(), Span::of_one(limits)));
    }
    // SAFETY: caller contract.
    let l = unsafe { in_ref(limits) }?;
    Ok((limits_from_c(l)?, Span::of_one(limits)))
}

fn workspace_for(limits: &TaskLimits) -> Result<usize, mrtr_status> {
    object::workspace_size::<TaskValue>(TaskCall::workspace_size(limits))
        .ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)
}

/// Runs `f` on the live task behind `task`.
///
/// # Safety
/// `task` must be NULL or a live handle from `mrtr_task_init` /
/// `mrtr_task_restore`.
unsafe fn with_task<R>(
    task: *const mrtr_task,
    f: impl FnOnce(&mut TaskCall<'_>, Span, i64) -> Result<R, mrtr_status>,
) -> Result<R, mrtr_status> {
    // SAFETY: forwarded contract.
    let mut obj: Obj<'_, TaskValue> = unsafe { object::attach(task.cast(), magic::TASK) }?;
    let span = obj.span();
    let (v, region) = obj.split();
    let first_id = v.first_id;
    let mut t = TaskCall::attach(&mut v.state, region).map_err(|e| status_of(&e))?;
    f(&mut t, span, first_id)
}

/// Writes a small value to a checked out-param outside the workspace.
///
/// # Safety
/// `ptr` must be NULL or point to a writable `T`.
unsafe fn put<T: Copy>(ptr: *mut T, ws: Span, value: T) -> Result<(), mrtr_status> {
    // SAFETY: caller contract.
    let out = unsafe { Out::required(ptr) }?;
    if out.span().overlaps(ws) {
        return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
    }
    out.write(value);
    Ok(())
}

/// Writes the default task limits to `*out` (those of a call, with 1 KiB
/// of params, 100,000 polls, polls every 1 s unless the server hints,
/// clamped to 100 ms .. 60 s).
///
/// Returns `MRTR_OK`, `MRTR_ERR_NULL_POINTER` or `MRTR_ERR_MISALIGNED`.
///
/// # Safety
/// `out` must be NULL or point to a writable `mrtr_task_limits`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_limits_default(out: *mut mrtr_task_limits) -> mrtr_status {
    // SAFETY: caller contract.
    status_of_result(
        unsafe { Out::required(out) }.map(|o| o.write(limits_to_c(&TaskLimits::default()))),
    )
}

/// Writes to `*out_size` the workspace bytes a task needs under `limits`
/// (NULL: the defaults). Statuses as `mrtr_call_workspace_size` (also
/// `MRTR_ERR_INVALID_ARGUMENT` for `min_poll_ms` above `max_poll_ms`).
///
/// # Safety
/// `limits` must be NULL or readable; `out_size` writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_workspace_size(
    limits: *const mrtr_task_limits,
    out_size: *mut usize,
) -> mrtr_status {
    status_of_result((|| {
        // SAFETY: caller contract.
        let out = unsafe { Out::required(out_size) }?;
        // SAFETY: caller contract.
        let (limits, _) = unsafe { read_limits(limits) }?;
        out.write(workspace_for(&limits)?);
        Ok(())
    })())
}

/// Starts following a task in `workspace` (rules of `mrtr_call_init`) and
/// writes its handle to `*out_task`. The first request is `tasks/get`.
///
/// Returns `MRTR_OK`, `MRTR_ERR_NULL_POINTER`, `MRTR_ERR_MISALIGNED`,
/// `MRTR_ERR_WORKSPACE_TOO_SMALL` (size to `config->out_needed`),
/// `MRTR_ERR_INVALID_ARGUMENT` (unknown dialect, flag or capability bit,
/// an empty task id, a `MRTR_TASK_ID_JSON` id that is not one JSON string,
/// the extension dialect without `MRTR_CAP_TASKS`, bad limits, arguments
/// inside the workspace), `MRTR_ERR_INVALID_UTF8`,
/// `MRTR_ERR_LIMIT_EXCEEDED` (over `max_params_bytes`).
///
/// # Safety
/// As `mrtr_call_init`, for a `mrtr_task_config` and a `mrtr_task *`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_init(
    workspace: *mut c_void,
    len: usize,
    config: *const mrtr_task_config,
    out_task: *mut *mut mrtr_task,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe { init(workspace.cast(), len, config, out_task) })
}

/// # Safety
/// As [`mrtr_task_init`].
unsafe fn init(
    ws: *mut u8,
    len: usize,
    config: *const mrtr_task_config,
    out_task: *mut *mut mrtr_task,
) -> Result<(), mrtr_status> {
    // SAFETY: caller contract.
    let out_task = unsafe { Out::required(out_task) }?;
    // SAFETY: caller contract.
    let cfg = unsafe { in_ref(config) }?;
    // SAFETY: caller contract.
    let out_needed = unsafe { Out::optional(cfg.out_needed) }?;
    let dialect = match cfg.dialect {
        1 => TaskDialect::Seed,
        2 => TaskDialect::Extension,
        _ => return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT),
    };
    if cfg.flags & !(MRTR_TASK_ID_JSON | MRTR_TASK_NO_CLIENT_INFO) != 0 {
        return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
    }
    let caps = caps_from_bits(cfg.caps)?;
    // SAFETY: caller contract.
    let id_text = unsafe { in_str(cfg.task_id) }?;
    let task_id = if cfg.flags & MRTR_TASK_ID_JSON != 0 {
        let v =
            json::parse(id_text.as_bytes()).map_err(|_| mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?;
        TaskIdRef::Token(v.as_str().ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?)
    } else {
        TaskIdRef::Text(id_text)
    };
    let client_info = if cfg.flags & MRTR_TASK_NO_CLIENT_INFO != 0 {
        None
    } else if cfg.client_name.ptr.is_null() {
        Some(ClientInfo::DEFAULT)
    } else {
        Some(ClientInfo {
            // SAFETY: caller contract.
            name: unsafe { in_str(cfg.client_name) }?,
            // SAFETY: caller contract.
            version: unsafe { in_str(cfg.client_version) }?,
        })
    };
    // SAFETY: caller contract.
    let (limits, limits_span) = unsafe { read_limits(cfg.limits) }?;
    let none = Span::of_one(core::ptr::null::<u8>());
    let info_spans = client_info.map_or([none; 2], |i| {
        [
            Span::of(i.name.as_ptr(), i.name.len()),
            Span::of(i.version.as_ptr(), i.version.len()),
        ]
    });
    let inputs = [
        Span::of_one(config),
        Span::of(id_text.as_ptr(), id_text.len()),
        info_spans[0],
        info_spans[1],
        limits_span,
        out_task.span(),
        out_needed.as_ref().map_or(none, |o| o.span()),
    ];
    let first_id = check_id_range(if cfg.first_id == 0 { 1 } else { cfg.first_id })
        .map_err(|e| status_of(&e))?;
    let value = TaskValue {
        state: TaskState::default(),
        first_id,
    };
    // SAFETY: caller contract; overlaps refused.
    let placed = unsafe {
        object::init::<TaskValue>(ws, len, TaskCall::workspace_size(&limits), value, &inputs)
    };
    let mut obj = match placed {
        Ok(o) => o,
        Err(mrtr_status::MRTR_ERR_WORKSPACE_TOO_SMALL) => {
            if let (Some(o), Ok(n)) = (out_needed, workspace_for(&limits)) {
                o.write(n);
            }
            return Err(mrtr_status::MRTR_ERR_WORKSPACE_TOO_SMALL);
        }
        Err(e) => return Err(e),
    };
    let config = TaskConfig {
        dialect,
        task_id,
        caps,
        client_info,
        limits,
        poll_ms: (cfg.poll_ms != 0).then_some(cfg.poll_ms),
    };
    {
        let (v, region) = obj.split();
        TaskCall::init(&mut v.state, region, &config).map_err(|e| status_of(&e))?;
    }
    obj.activate(magic::TASK);
    out_task.write(ws.cast());
    Ok(())
}

/// Writes the next request (the one `mrtr_task_next_request` names) with
/// `id` into `out` (`READY` -> `SENT`). Output convention and statuses as
/// `mrtr_call_write_request`.
///
/// # Safety
/// `task` must be a live handle; `out` must point to `out_len` writable
/// bytes (unless 0); `out_written` to a writable `size_t`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_write_request(
    task: *mut mrtr_task,
    id: i64,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_task(task, |t, ws, _| {
            write_with(ws, out, out_len, out_written, |o| t.write_request(id, o))
        })
    })
}

/// Writes `tasks/cancel` with `id` (from `READY`, `SENT` or `ANSWERING`;
/// a response to a request in flight then counts as unrelated) -> `SENT`;
/// the acknowledgement yields `MRTR_EVENT_TASK_CANCELLED`. Output and
/// statuses as `mrtr_call_write_request`.
///
/// # Safety
/// As `mrtr_task_write_request`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_write_cancel(
    task: *mut mrtr_task,
    id: i64,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_task(task, |t, ws, _| {
            write_with(ws, out, out_len, out_written, |o| t.write_cancel(id, o))
        })
    })
}

/// Writes the request in flight again with a fresh `id` (only in `SENT`).
/// Output and statuses as `mrtr_call_resend`.
///
/// # Safety
/// As `mrtr_task_write_request`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_resend(
    task: *mut mrtr_task,
    id: i64,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_task(task, |t, ws, _| {
            write_with(ws, out, out_len, out_written, |o| t.resend(id, o))
        })
    })
}

/// Writes to `*out_id` the id to use for the next request (as
/// `mrtr_call_next_id`).
///
/// # Safety
/// `task` must be a live handle; `out_id` writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_next_id(
    task: *const mrtr_task,
    out_id: *mut i64,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_task(task, |t, ws, first| {
            let out = Out::required(out_id)?;
            if out.span().overlaps(ws) {
                return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
            }
            out.write(t.next_id(first).map_err(|e| status_of(&e))?);
            Ok(())
        })
    })
}

/// Feeds one message received while `SENT` and writes what it meant to
/// `*out_event` (spans into `msg`). Statuses as `mrtr_call_feed`; a task
/// that names another task id, an unknown status or a malformed record is
/// `MRTR_ERR_PROTOCOL_VIOLATION`, polls past `max_polls`
/// `MRTR_ERR_ROUND_CAP`.
///
/// # Safety
/// `task` must be a live handle; `msg` must point to `len` readable bytes;
/// `out_event` to a writable `mrtr_event`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_feed(
    task: *mut mrtr_task,
    msg: *const u8,
    len: usize,
    out_event: *mut mrtr_event,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_task(task, |t, ws, _| {
            let out = Out::required(out_event)?;
            let bytes = in_bytes(msg, len)?;
            let msg_span = Span::of(bytes.as_ptr(), bytes.len());
            if msg_span.overlaps(ws) || out.span().overlaps(ws) || out.span().overlaps(msg_span) {
                return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
            }
            let ev = t.feed(bytes).map_err(|e| status_of(&e))?;
            out.write(task_event(bytes, &ev));
            Ok(())
        })
    })
}

/// Writes the task's phase to `*out_state`.
///
/// # Safety
/// `task` must be a live handle; `out_state` writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_state(
    task: *const mrtr_task,
    out_state: *mut mrtr_phase,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe { with_task(task, |t, ws, _| put(out_state, ws, phase_of(t.state()))) })
}

/// Writes to `*out` the request `mrtr_task_write_request` sends next (in
/// `READY`) or the one in flight (in `SENT`).
///
/// # Safety
/// `task` must be a live handle; `out` writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_next_request(
    task: *const mrtr_task,
    out: *mut mrtr_task_request,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_task(task, |t, ws, _| {
            let r = match t.next_request() {
                TaskRequest::Get => mrtr_task_request::MRTR_TASK_REQUEST_GET,
                TaskRequest::Result => mrtr_task_request::MRTR_TASK_REQUEST_RESULT,
                TaskRequest::Respond => mrtr_task_request::MRTR_TASK_REQUEST_RESPOND,
                TaskRequest::Cancel => mrtr_task_request::MRTR_TASK_REQUEST_CANCEL,
            };
            put(out, ws, r)
        })
    })
}

/// Writes to `*out_ms` the current poll interval: the server's latest
/// hint, else `default_poll_ms`, clamped to `[min_poll_ms, max_poll_ms]`.
///
/// # Safety
/// `task` must be a live handle; `out_ms` writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_poll_ms(
    task: *const mrtr_task,
    out_ms: *mut u64,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe { with_task(task, |t, ws, _| put(out_ms, ws, t.poll_ms())) })
}

/// Writes to `*out_round` the number of input rounds so far.
///
/// # Safety
/// `task` must be a live handle; `out_round` writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_round(
    task: *const mrtr_task,
    out_round: *mut u32,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe { with_task(task, |t, ws, _| put(out_round, ws, t.round())) })
}

/// Writes to `*out_count` the number of input requests of the current
/// round.
///
/// # Safety
/// `task` must be a live handle; `out_count` writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_input_count(
    task: *const mrtr_task,
    out_count: *mut usize,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe { with_task(task, |t, ws, _| put(out_count, ws, t.input_count())) })
}

/// Writes input request `index` to `*out` (as `mrtr_call_input_at`).
///
/// # Safety
/// `task` must be a live handle; `out` writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_input_at(
    task: *const mrtr_task,
    index: usize,
    out: *mut mrtr_input,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_task(task, |t, ws, _| {
            put(out, ws, exchange::input_view(t, index)?)
        })
    })
}

/// Writes to `*out_index` the index of the input keyed `key` (as
/// `mrtr_call_input_find`).
///
/// # Safety
/// `task` must be a live handle; `key` readable; `out_index` writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_input_find(
    task: *const mrtr_task,
    key: mrtr_str,
    out_index: *mut usize,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_task(task, |t, ws, _| exchange::input_find(t, ws, key, out_index))
    })
}

/// Decodes text field `field` of input `index` (as
/// `mrtr_call_input_text`).
///
/// # Safety
/// `task` must be a live handle; `out` must point to `out_len` writable
/// bytes (unless 0); `out_written` writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_input_text(
    task: *const mrtr_task,
    index: usize,
    field: u32,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_task(task, |t, ws, _| {
            exchange::input_text(t, ws, index, field, out, out_len, out_written)
        })
    })
}

/// Answers elicitation input `index` (as `mrtr_call_answer_elicit`).
///
/// # Safety
/// `task` must be a live handle; `content` readable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_answer_elicit(
    task: *mut mrtr_task,
    index: usize,
    action: u32,
    content: mrtr_str,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_task(task, |t, ws, _| {
            exchange::answer_elicit(t, ws, index, action, content)
        })
    })
}

/// Answers input `index` with a raw JSON result (as
/// `mrtr_call_answer_json`).
///
/// # Safety
/// `task` must be a live handle; `json` readable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_answer_json(
    task: *mut mrtr_task,
    index: usize,
    json: mrtr_str,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_task(task, |t, ws, _| exchange::answer_json(t, ws, index, json))
    })
}

/// Answers `roots/list` input `index` (as `mrtr_call_answer_roots`).
///
/// # Safety
/// `task` must be a live handle; `roots` must point to `n` readable
/// `mrtr_root`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_answer_roots(
    task: *mut mrtr_task,
    index: usize,
    roots: *const mrtr_root,
    n: usize,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_task(task, |t, ws, _| {
            exchange::answer_roots(t, ws, index, roots, n)
        })
    })
}

/// Ends the task locally because the app will not answer input `index`
/// (as `mrtr_call_answer_error`; cancel it on the server with a fresh
/// task if needed).
///
/// # Safety
/// `task` must be a live handle.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_answer_error(
    task: *mut mrtr_task,
    index: usize,
    code: i64,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe { with_task(task, |t, _, _| exchange::answer_error(t, index, code)) })
}

/// Writes to `*out` the task's result object, found again in `fed` (as
/// `mrtr_call_result`; `MRTR_ERR_NOT_FOUND` when the task ended without a
/// result or `fed` is not the completing message).
///
/// # Safety
/// `task` must be a live handle; `fed` must point to `fed_len` readable
/// bytes; `out` writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_result(
    task: *const mrtr_task,
    fed: *const u8,
    fed_len: usize,
    out: *mut mrtr_str,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_task(task, |t, ws, _| {
            let out = Out::required(out)?;
            if out.span().overlaps(ws) {
                return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
            }
            let fed = in_bytes(fed, fed_len)?;
            if t.state() != mrtr_core::client::Phase::Done {
                return Err(mrtr_status::MRTR_ERR_WRONG_STATE);
            }
            let r = t.result(fed).ok_or(mrtr_status::MRTR_ERR_NOT_FOUND)?;
            out.write(mrtr_str::of_bytes(r));
            Ok(())
        })
    })
}

/// Saves the task (in `READY`, `SENT` or `ANSWERING`; as
/// `mrtr_call_save`).
///
/// # Safety
/// As `mrtr_task_write_request`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_save(
    task: *const mrtr_task,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_task(task, |t, ws, _| {
            write_with(ws, out, out_len, out_written, |o| t.save(o))
        })
    })
}

/// Restores a saved task under `limits` (as `mrtr_call_restore`).
///
/// # Safety
/// As `mrtr_call_restore`, for `mrtr_task_limits` and `mrtr_task *`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_restore(
    workspace: *mut c_void,
    len: usize,
    limits: *const mrtr_task_limits,
    saved: *const u8,
    saved_len: usize,
    out_task: *mut *mut mrtr_task,
) -> mrtr_status {
    status_of_result((|| {
        // SAFETY: caller contract.
        let out_task = unsafe { Out::required(out_task) }?;
        // SAFETY: caller contract.
        let (limits, limits_span) = unsafe { read_limits(limits) }?;
        // SAFETY: caller contract.
        let saved = unsafe { in_bytes(saved, saved_len) }?;
        let inputs = [
            limits_span,
            Span::of(saved.as_ptr(), saved.len()),
            out_task.span(),
        ];
        let ws = workspace.cast::<u8>();
        let value = TaskValue {
            state: TaskState::default(),
            first_id: 1,
        };
        // SAFETY: caller contract; overlaps refused.
        let mut obj = unsafe {
            object::init::<TaskValue>(ws, len, TaskCall::workspace_size(&limits), value, &inputs)
        }?;
        {
            let (v, region) = obj.split();
            TaskCall::restore(&mut v.state, region, &limits, saved).map_err(|e| status_of(&e))?;
        }
        obj.activate(magic::TASK);
        out_task.write(ws.cast());
        Ok(())
    })())
}

/// Writes to `*out_id` the last JSON-RPC id the task used
/// (`MRTR_ERR_NOT_FOUND` before the first request).
///
/// # Safety
/// `task` must be a live handle; `out_id` writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_last_id(
    task: *const mrtr_task,
    out_id: *mut i64,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_task(task, |t, ws, _| {
            put(
                out_id,
                ws,
                t.last_id().ok_or(mrtr_status::MRTR_ERR_NOT_FOUND)?,
            )
        })
    })
}

/// Writes to `*out` why the task is `FAILED` (`MRTR_ERR_WRONG_STATE` when
/// it has not failed).
///
/// # Safety
/// `task` must be a live handle; `out` writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_task_failure(
    task: *const mrtr_task,
    out: *mut mrtr_failure,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_task(task, |t, ws, _| {
            exchange::failure(t, ws, Out::required(out)?)
        })
    })
}
