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

#![allow(non_camel_case_types)]

use core::ffi::c_void;
use core::ffi::{c_char, CStr};
use core::mem::{size_of, MaybeUninit};

use mrtr_core::client::call::{check_id_range, CallMethod};
use mrtr_core::client::task::TaskIdRef;
use mrtr_core::client::{
    Answer, CallError, CallLimits, CheckedLimits, Machine, MachineSlot, Start,
};
use mrtr_core::json::BufferTooSmall;
use mrtr_core::wire::{ClientInfo, ElicitAction, TaskDialect};

use crate::abi::{finish_output, run, Args, Out, Put, Why, OVERLAP};
use crate::client::{
    caps_from_bits, failure_of, input_text, input_view, machine_event, mrtr_event, mrtr_failure,
    mrtr_flow, mrtr_input, mrtr_phase, mrtr_root, mrtr_task_dialect, mrtr_task_request, with_roots,
    FromC,
};
use crate::mrtr_status;
use crate::object::{self, magic, Obj};
use crate::status::status_of as status_of_result;
use crate::types::mrtr_str;

/// A call in caller memory (opaque; the pointer is the workspace).
pub struct mrtr_call {
    _opaque: [u8; 0],
}

/// Every capacity and cap of a call and its task. Start from
/// `mrtr_call_limits_default`; 0 never means "default".
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct mrtr_call_limits {
    /// Largest server message, bytes (default 1 MiB).
    pub max_message_bytes: usize,
    /// Deepest JSON nesting (default 32; 4 to `MRTR_JSON_MAX_DEPTH`).
    pub max_depth: usize,
    /// Most inputs in one round (default 64; 1 to 256; 23 workspace bytes each).
    pub max_input_requests: usize,
    /// Longest input key, decoded bytes (default 256; at least 1).
    pub max_key_bytes: usize,
    /// Params as sent, `_meta` included, or a task's `_meta` and id (default 16 KiB).
    pub max_params_bytes: usize,
    /// One round's `inputRequests` (default 16 KiB).
    pub max_inputs_bytes: usize,
    /// The `requestState` token, quotes included (default 4 KiB).
    pub max_state_bytes: usize,
    /// One round's answers, JSON bytes (default 16 KiB).
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
    /// Poll interval floor, ms (default 100).
    pub min_poll_ms: u64,
    /// Poll interval ceiling, ms (default 60,000).
    pub max_poll_ms: u64,
}

/// One list, `C field = core field path`: both conversions of the limits,
/// and (below) the assert that no core field is left out.
macro_rules! limits_mirror {
    ($($c:ident = $($p:ident).+;)+) => {
        fn limits_to_c(l: &CallLimits) -> mrtr_call_limits {
            mrtr_call_limits { $($c: l.$($p).+),+ }
        }
        fn limits_of_c(c: &mrtr_call_limits) -> CallLimits {
            let mut l = CallLimits::default();
            $(l.$($p).+ = c.$c;)+
            l
        }
    };
}

limits_mirror! {
    max_message_bytes = wire.json.max_bytes; max_depth = wire.json.max_depth;
    max_input_requests = wire.max_input_requests; max_key_bytes = wire.max_key_bytes;
    max_params_bytes = max_params_bytes; max_inputs_bytes = max_inputs_bytes;
    max_state_bytes = max_state_bytes; max_answers_bytes = max_answers_bytes;
    max_rounds = max_rounds; max_state_only_rounds = max_state_only_rounds;
    backoff_initial_ms = backoff_initial_ms; backoff_max_ms = backoff_max_ms;
    max_polls = max_polls; default_poll_ms = default_poll_ms; min_poll_ms = min_poll_ms;
    max_poll_ms = max_poll_ms;
}

// The same fields of the same types: a core field added to `CallLimits`
// changes its size, and this fails until the list above names it.
const _: () = assert!(size_of::<CallLimits>() == size_of::<mrtr_call_limits>());

/// `mrtr_call_config.flags`: send no `io.modelcontextprotocol/clientInfo`.
pub const MRTR_CALL_NO_CLIENT_INFO: u32 = 1;
/// `mrtr_call_config.flags`: `task_id` is a JSON string token (as in
/// `mrtr_event.task_id`), echoed as written; otherwise plain text.
pub const MRTR_CALL_TASK_ID_JSON: u32 = 1 << 1;

/// How to start a call: a method with params, or (`task_dialect` set) a
/// task restarted from its id. Zero it, then set fields; copied at init.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct mrtr_call_config {
    /// A `mrtr_method`; 0 to restart a task.
    pub method: u32,
    /// Params object, e.g. `{"name":"get_weather","arguments":{..}}`; empty for a task.
    /// Its `_meta` is merged; a `task` member asks for a seed-dialect task.
    pub params: mrtr_str,
    /// `MRTR_CAP_*` bits declared on every request; extension tasks need `MRTR_CAP_TASKS`.
    pub caps: u32,
    /// `clientInfo.name`; {NULL, 0} sends mrtr's own name and version.
    pub client_name: mrtr_str,
    /// `clientInfo.version` (with `client_name`).
    pub client_version: mrtr_str,
    /// `MRTR_CALL_*` flags.
    pub flags: u32,
    /// First id `mrtr_progress.next_id` suggests (0 means 1), within +-(2^53-1).
    pub first_id: i64,
    /// The limits; NULL for the defaults.
    pub limits: *const mrtr_call_limits,
    /// Optional: the size needed on `MRTR_ERR_WORKSPACE_TOO_SMALL`.
    pub out_needed: *mut usize,
    /// Task restart: a `mrtr_task_dialect`; `NONE` (0) for a call.
    pub task_dialect: u32,
    /// Task restart: the task id (see `MRTR_CALL_TASK_ID_JSON`).
    pub task_id: mrtr_str,
    /// Task restart: its poll hint, ms; 0 for none.
    pub task_poll_ms: u64,
    /// Optional: on a failure with several causes, a static name of the
    /// cause (`"MissingTarget"`: params without `name`/`uri`;
    /// `"RepeatedMember"`, `"UnknownFlag"`, `"BadLimits"`, ...).
    pub out_reason: *mut *const c_char,
}

/// Where a call is; views point into the workspace.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct mrtr_progress {
    /// The phase.
    pub phase: mrtr_phase,
    /// The flow.
    pub flow: mrtr_flow,
    /// Task: the request next or in flight.
    pub task_request: mrtr_task_request,
    /// Task: the dialect.
    pub task_dialect: mrtr_task_dialect,
    /// Input rounds in the current flow.
    pub round: u32,
    /// Task: `tasks/get` requests written.
    pub polls: u32,
    /// Inputs asked in the current round.
    pub input_count: usize,
    /// Inputs answered in the current round.
    pub answered_count: usize,
    /// The last JSON-RPC id used (if `has_last_id`).
    pub last_id: i64,
    /// Next request's id: `first_id`, then `last_id` + 1 (if `has_next_id`; not past 2^53-1).
    pub next_id: i64,
    /// Task: the poll interval, ms (the hint, clamped).
    pub poll_ms: u64,
    /// The `requestState` the next request echoes, raw; empty when none.
    pub request_state: mrtr_str,
    /// Task: the task id as sent (a JSON string).
    pub task_id: mrtr_str,
    /// `last_id` is set.
    pub has_last_id: bool,
    /// `next_id` is set.
    pub has_next_id: bool,
}

/// The limits a caller passed (`None`: the defaults), converted once.
fn limits_from_c(l: Option<&mrtr_call_limits>) -> CallLimits {
    l.map_or_else(CallLimits::default, limits_of_c)
}

/// `limits` checked once, by the core's rule, with the workspace bytes
/// (record + regions) a call needs under them; refused when the core
/// cannot lay them out or the workspace would be too large to describe.
fn checked(limits: &CallLimits) -> Result<(CheckedLimits<'_>, usize), mrtr_status> {
    let bad = mrtr_status::MRTR_ERR_INVALID_ARGUMENT;
    let checked = limits.checked().map_err(|_| bad)?;
    let size = object::workspace_size::<MachineSlot>(checked.workspace_size()).ok_or(bad)?;
    Ok((checked, size))
}

/// Runs `f` on the live machine behind `call`, with the arguments
/// collector of its workspace.
///
/// The call remembers the cause of a failure; a success clears it only for
/// a function that takes the call mutably (`mrtr_call *`, see
/// [`CallHandle`]), so reading the call (`mrtr_call_progress`,
/// `mrtr_call_failure`, ...) after a failure keeps its reason.
///
/// # Safety
/// `call` must be NULL or a handle from `mrtr_call_init` /
/// `mrtr_call_restore` whose workspace is still lent to the call.
pub(crate) unsafe fn with_call<P: CallHandle, R>(
    call: P,
    f: impl FnOnce(&mut Machine<'_>, &mut Args) -> Result<R, mrtr_status>,
) -> Result<R, mrtr_status> {
    let call = call.ptr();
    // SAFETY: forwarded contract.
    let mut obj: Obj<'_, MachineSlot> = unsafe { object::attach(call.cast(), magic::CALL) }?;
    let mut args = Args::new(obj.span());
    let (slot, region) = obj.split();
    // The machine is used where `attach` returned it (bound by reference,
    // not moved out of the result first).
    let r = match &mut Machine::attach(slot, region) {
        Ok(m) => f(m, &mut args),
        Err(e) => Err(args.refused(*e)),
    };
    match &r {
        Err(s) => obj.set_reason(args.reason(*s)),
        Ok(_) if P::CLEARS => obj.set_reason(Why::of(c"")),
        Ok(_) => {}
    }
    r
}

/// A call handle as an export takes it: `mrtr_call *` (the function may
/// change the call, and its success clears the remembered reason) or
/// `const mrtr_call *` (it only reads the call).
pub(crate) trait CallHandle: Copy {
    /// Whether a success clears the reason the call remembers.
    const CLEARS: bool;
    /// The handle.
    fn ptr(self) -> *const mrtr_call;
}

impl CallHandle for *mut mrtr_call {
    const CLEARS: bool = true;
    fn ptr(self) -> *const mrtr_call {
        self.cast_const()
    }
}

impl CallHandle for *const mrtr_call {
    const CLEARS: bool = false;
    fn ptr(self) -> *const mrtr_call {
        self
    }
}

/// [`with_call`], as the status an export returns.
///
/// # Safety
/// As [`with_call`].
unsafe fn on_call(
    call: impl CallHandle,
    f: impl FnOnce(&mut Machine<'_>, &mut Args) -> Result<(), mrtr_status>,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe { with_call(call, f) })
}

/// [`on_call`] for an export with one out-param: `f`'s value goes to
/// `*out` (claimed first).
///
/// # Safety
/// As [`with_call`]; `out` must point to a writable `T`.
unsafe fn call_out<T: Copy>(
    call: impl CallHandle,
    out: *mut T,
    f: impl FnOnce(&mut Machine<'_>, &mut Args) -> Result<T, mrtr_status>,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    unsafe {
        on_call(call, |m, a| {
            let out = a.out(out)?;
            out.write(f(m, a)?);
            Ok(())
        })
    }
}

/// An export of the `out, out_len, out_written` convention around one of
/// the machine's writers.
///
/// # Safety
/// As [`with_call`]; `out` must point to `out_len` writable bytes (unless
/// 0), `out_written` to a writable `size_t`.
unsafe fn write_call(
    call: impl CallHandle,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
    write: impl FnOnce(&mut Machine<'_>, &mut [u8]) -> Result<usize, CallError>,
) -> mrtr_status {
    // SAFETY: forwarded contract; overlaps are refused by the collector.
    unsafe {
        on_call(call, |m, a| {
            let (out_written, out) = (a.out(out_written)?, a.out_buf(out, out_len)?);
            match write(m, out) {
                Err(CallError::BufferTooSmall { needed }) => {
                    finish_output(Err(BufferTooSmall { needed }), out_written)
                }
                r => finish_output(Ok(r.map_err(|e| a.refused(e))?), out_written),
            }
        })
    }
}

/// Places a machine in `ws` with `start`, under `limits` and the workspace
/// size `needed` they ask for (both from [`checked`]); `needed` goes to
/// `out_needed` on `MRTR_ERR_WORKSPACE_TOO_SMALL`. The record's slot is
/// left uninitialized for `start` to write whole: the call is activated
/// (and its slot ever read) only once `start` succeeded.
///
/// # Safety
/// As `mrtr_call_init`; every argument was taken through `args`.
unsafe fn place(
    ws: *mut u8,
    len: usize,
    args: &Args,
    (limits, needed): (CheckedLimits<'_>, usize),
    out_needed: Option<Out<'_, usize>>,
    out_call: Out<'_, *mut mrtr_call>,
    start: impl FnOnce(&mut MaybeUninit<MachineSlot>, &mut [u8]) -> Result<(), CallError>,
) -> Result<(), mrtr_status> {
    let region = limits.workspace_size();
    // SAFETY: caller contract; overlaps with every argument refused.
    let placed = unsafe { object::init(ws, len, region, MaybeUninit::uninit(), args) };
    let mut obj = match placed {
        Err(mrtr_status::MRTR_ERR_WORKSPACE_TOO_SMALL) => {
            if let Some(o) = out_needed {
                o.write(needed);
            }
            return Err(mrtr_status::MRTR_ERR_WORKSPACE_TOO_SMALL);
        }
        other => other?,
    };
    let (slot, region) = obj.split();
    start(slot, region)?;
    obj.activate(magic::CALL);
    out_call.write(ws.cast());
    Ok(())
}

// ------------------------------------------------------------------- functions

/// Writes the default limits to `*out` (see `mrtr_call_limits`).
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

/// Writes to `*out_size` the workspace bytes a call (and its task) needs
/// under `limits` (NULL: defaults). `MRTR_ERR_INVALID_ARGUMENT`: limits out
/// of their ranges, a poll floor over its ceiling, a region over 4 GiB.
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
    // SAFETY: forwarded contract.
    unsafe { size_under(limits, out_size, |_, needed| Ok(needed)) }
}

/// Writes `size(limits, needed)` (NULL limits: the defaults; `needed`:
/// the workspace bytes a call needs under them) to `*out_size`, once the
/// limits passed their check.
///
/// # Safety
/// As [`mrtr_call_workspace_size`].
unsafe fn size_under(
    limits: *const mrtr_call_limits,
    out_size: *mut usize,
    size: impl FnOnce(&CallLimits, usize) -> Result<usize, mrtr_status>,
) -> mrtr_status {
    let mut args = Args::free();
    // SAFETY: caller contract.
    status_of_result(unsafe { args.out(out_size) }.and_then(|out| {
        // SAFETY: caller contract.
        let limits = limits_from_c(unsafe { args.reference_opt(limits) }?);
        let (_, needed) = checked(&limits)?;
        out.done(size(&limits, needed)?)
    }))
}

/// Writes to `*out_size` the largest request a call (and its task) writes
/// under `limits` (NULL: defaults): a send buffer of this size never gets
/// `MRTR_ERR_BUFFER_TOO_SMALL`. A receive buffer needs
/// `limits->max_message_bytes`; `mrtr_run`'s buffer, both.
/// `MRTR_ERR_INVALID_ARGUMENT`: as `mrtr_call_workspace_size`.
///
/// # Safety
/// As [`mrtr_call_workspace_size`].
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_request_size_max(
    limits: *const mrtr_call_limits,
    out_size: *mut usize,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    unsafe {
        size_under(limits, out_size, |l, _| {
            l.max_request_bytes()
                .map_err(|_| mrtr_status::MRTR_ERR_INVALID_ARGUMENT)
        })
    }
}

/// Checks `call` and says why the last function on it failed: `MRTR_OK`
/// with, in `*out_reason` (optional), the name of the cause of the last
/// failure (`""` once a function taking `mrtr_call *` succeeded after it;
/// one taking `const mrtr_call *` leaves it): the core's cause
/// (`"AlreadyAnswered"`, `"ContentRequired"`, `"NotAnOption"`: a form value
/// that is none of its options, `"IdNotFresh"`, `"Transport"`: `mrtr_run`'s
/// transport failed), `"Overlap"` or `"BadRange"` (arguments the checks
/// refused), else the status's own name (`"MRTR_ERR_NULL_POINTER"`).
/// Or the status every `mrtr_call_*` function gives this handle, its cause
/// in `*out_reason`: `"Null"`, `"Misaligned"`, `"MovedOrCopied"` (the
/// workspace was copied or moved after init: a workspace is lent, never
/// copied), `"NotAnObject"` (no live call starts there).
///
/// # Safety
/// `call` must be NULL or point to readable memory of at least the
/// workspace header; `out_reason` NULL or a writable `const char *`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_check(
    call: *const mrtr_call,
    out_reason: *mut *const c_char,
) -> mrtr_status {
    run(|a| {
        // SAFETY: caller contract.
        let why = unsafe { a.out_opt(out_reason) }?;
        // SAFETY: caller contract; the record is only read.
        match unsafe { object::attach::<MachineSlot>(call.cast(), magic::CALL) } {
            Ok(obj) if !a.taken(obj.span()) => {
                why.put(obj.reason());
                Ok(())
            }
            Ok(_) => Err(a.refuse(mrtr_status::MRTR_ERR_INVALID_ARGUMENT, OVERLAP)),
            Err(s) => {
                // SAFETY: caller contract.
                let r = unsafe { object::refusal(call.cast(), magic::CALL) };
                why.put(r.unwrap_or(c"NotAnObject").as_ptr());
                Err(s)
            }
        }
    })
}

/// Records `why` as the cause of the status a function built on the
/// call's steps returns (`mrtr_run`); nothing for a handle that is no live
/// call.
///
/// # Safety
/// As [`with_call`].
pub(crate) unsafe fn note_reason(call: *const mrtr_call, why: &'static CStr) {
    // SAFETY: forwarded contract.
    if let Ok(mut obj) = unsafe { object::attach::<MachineSlot>(call.cast(), magic::CALL) } {
        obj.set_reason(Why::of(why));
    }
}

/// Starts a call in `workspace` (`len` bytes, `MRTR_WORKSPACE_ALIGN`ed, at
/// least `mrtr_call_workspace_size`) -> `READY`, handle in `*out_call`.
/// Params are validated and rendered once; a set `task_dialect` restarts
/// that task (first request `tasks/get`). Once the arguments pass their
/// checks the workspace's old contents are gone, even if init fails.
/// - `MRTR_ERR_WORKSPACE_TOO_SMALL`: size in `config->out_needed` if set.
/// - `MRTR_ERR_INVALID_ARGUMENT`: unknown method, dialect, cap bit or flag;
///   bad limits or `first_id`; params not an object, without `name`/`uri`,
///   with `inputResponses`/`requestState`, a bad `_meta`/`task`, a member
///   twice, an object over 1024 members; an empty or bad task id; the
///   extension dialect without `MRTR_CAP_TASKS`; params with a task.
/// - `MRTR_ERR_INVALID_UTF8`; `MRTR_ERR_JSON`: params not JSON.
/// - `MRTR_ERR_LIMIT_EXCEEDED`: params over `max_params_bytes` or too deep.
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
        let out_reason = args.out_opt(cfg.out_reason)?;
        let r = start(ws, len, cfg, &mut args, out_call);
        // Only a cause with a name of its own: init's `out_reason` says
        // nothing for a status with one cause.
        if let Err(st) = r {
            match args.noted() {
                Some(why) if !args.pointer_refused(st) => out_reason.put(why.as_ptr()),
                _ => {}
            }
        }
        r
    }
}

/// The body of `mrtr_call_init` after its config was taken; the cause's
/// name of a failure with several causes is noted in `args`.
///
/// # Safety
/// As [`mrtr_call_init`]; `cfg` taken through `args`.
unsafe fn start(
    ws: *mut u8,
    len: usize,
    cfg: &mrtr_call_config,
    args: &mut Args,
    out_call: Out<'_, *mut mrtr_call>,
) -> Result<(), mrtr_status> {
    let bad =
        |a: &mut Args, name: &'static CStr| a.refuse(mrtr_status::MRTR_ERR_INVALID_ARGUMENT, name);
    // SAFETY: caller contract (whole function).
    unsafe {
        let out_needed = args.out_opt(cfg.out_needed)?;
        if cfg.flags & !(MRTR_CALL_NO_CLIENT_INFO | MRTR_CALL_TASK_ID_JSON) != 0 {
            return Err(bad(args, c"UnknownFlag"));
        }
        let caps = caps_from_bits(cfg.caps).map_err(|_| bad(args, c"UnknownCapability"))?;
        let client_info = match cfg.flags & MRTR_CALL_NO_CLIENT_INFO {
            0 => Some(match args.str_opt(cfg.client_name)? {
                Some(name) => ClientInfo {
                    name,
                    version: args.str(cfg.client_version)?,
                },
                None => ClientInfo::DEFAULT,
            }),
            _ => None,
        };
        let converted = limits_from_c(args.reference_opt(cfg.limits)?);
        let (limits, needed) = checked(&converted).map_err(|_| bad(args, c"BadLimits"))?;
        let params = args.bytes(cfg.params.ptr.cast(), cfg.params.len)?;
        let id_text = args.str(cfg.task_id)?;
        let id_json = cfg.flags & MRTR_CALL_TASK_ID_JSON != 0;
        let start = if cfg.task_dialect == 0 {
            let method = CallMethod::from_c(cfg.method).map_err(|_| bad(args, c"UnknownMethod"))?;
            if !id_text.is_empty() || id_json {
                return Err(bad(args, c"TaskIdWithoutDialect"));
            }
            Start::Call { method, params }
        } else {
            let dialect =
                TaskDialect::from_c(cfg.task_dialect).map_err(|_| bad(args, c"UnknownDialect"))?;
            if cfg.method != 0 || !params.is_empty() {
                return Err(bad(args, c"MethodWithTask"));
            }
            let task_id = match id_json {
                true => TaskIdRef::token(id_text).ok_or_else(|| bad(args, c"BadTaskId"))?,
                false => TaskIdRef::Text(id_text),
            };
            let poll_ms = (cfg.task_poll_ms != 0).then_some(cfg.task_poll_ms);
            Start::Task {
                dialect,
                task_id,
                poll_ms,
            }
        };
        let first_id = if cfg.first_id == 0 { 1 } else { cfg.first_id };
        check_id_range(first_id).map_err(|_| bad(args, c"IdOutOfRange"))?;
        let mut refusal = None;
        let placed = place(
            ws,
            len,
            args,
            (limits, needed),
            out_needed,
            out_call,
            |s, r| {
                let info = client_info.as_ref();
                let started =
                    Machine::init_checked(s, r, start, &caps, info, limits, first_id).map(|_| ());
                refusal = started.err();
                started
            },
        );
        placed.map_err(|st| match refusal {
            Some(e) => args.refuse(st, e.name()),
            None => st,
        })
    }
}

/// `READY` -> `SENT`: writes the next request (the call's, or the task
/// request `mrtr_progress.task_request` names) with id `id` into `out`.
/// Ids must increase within +-(2^53-1) (`mrtr_progress.next_id`).
/// `*out_written` gets the length, or the size needed with
/// `MRTR_ERR_BUFFER_TOO_SMALL` (call unchanged). `MRTR_ERR_WRONG_STATE`
/// (not `READY`), `MRTR_ERR_UNANSWERED_INPUT` (inputs left),
/// `MRTR_ERR_INVALID_ARGUMENT` (id not fresh or out of range).
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
    unsafe {
        write_call(call, out, out_len, out_written, |m, o| {
            m.write_request(id, o)
        })
    }
}

/// `SENT`, after a transport failure: writes the request in flight again
/// with a fresh `id`; a late response to the old id is then `UNRELATED`.
/// As `mrtr_call_write_request` (`MRTR_ERR_WRONG_STATE` unless `SENT`).
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
    unsafe { write_call(call, out, out_len, out_written, |m, o| m.resend(id, o)) }
}

/// Task flow, `READY`/`SENT`/`ANSWERING` -> `SENT`: writes `tasks/cancel`
/// (a response to a request in flight becomes unrelated); acknowledged by
/// `MRTR_EVENT_TASK_CANCELLED`. As `mrtr_call_write_request`;
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
    unsafe {
        write_call(call, out, out_len, out_written, |m, o| {
            m.write_cancel(id, o)
        })
    }
}

/// `SENT`: feeds one complete JSON-RPC message; what it meant goes to
/// `*out_event` (spans into `msg`; see `mrtr_event_kind` for the phase
/// after each kind). `MRTR_ERR_WRONG_STATE` (not `SENT`) changes nothing.
/// Terminal (-> `FAILED`, see `mrtr_call_failure`): `MRTR_ERR_JSON`,
/// `_ENVELOPE`, `_PROTOCOL_VIOLATION`, `_UNDECLARED_CAPABILITY`,
/// `_LIMIT_EXCEEDED`, `_ROUND_CAP`.
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
    unsafe {
        call_out(call, out_event, |m, a| {
            let bytes = a.bytes(msg, len)?;
            // The event is read where `feed` returned it (matched by
            // reference, not moved out of the result first).
            match &m.feed(bytes) {
                Ok(ev) => Ok(machine_event(bytes, ev)),
                Err(e) => Err(a.refused(*e)),
            }
        })
    }
}

/// Where `m` is.
fn progress_of(m: &Machine<'_>) -> mrtr_progress {
    // The two views first: they are out-of-line calls, and nothing read
    // before them has to be kept across them.
    let request_state = m
        .request_state()
        .map_or(mrtr_str::EMPTY, mrtr_str::of_bytes);
    let task_id = m.task_id().map_or(mrtr_str::EMPTY, mrtr_str::of_bytes);
    let next_id = m.next_id().ok();
    mrtr_progress {
        phase: m.phase().into(),
        flow: m.flow().into(),
        task_request: m
            .task_request()
            .map_or(mrtr_task_request::MRTR_TASK_REQUEST_NONE, Into::into),
        task_dialect: m
            .dialect()
            .map_or(mrtr_task_dialect::MRTR_TASK_DIALECT_NONE, Into::into),
        round: m.round(),
        polls: m.polls(),
        input_count: m.input_count(),
        answered_count: m.answered_count(),
        last_id: m.last_id().unwrap_or(0),
        next_id: next_id.unwrap_or(0),
        poll_ms: m.poll_ms(),
        request_state,
        task_id,
        has_last_id: m.last_id().is_some(),
        has_next_id: next_id.is_some(),
    }
}

/// Writes where the call is to `*out`.
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
    unsafe { call_out(call, out, |m, _| Ok(progress_of(m))) }
}

/// Writes input `index` of the current round (server order) to `*out`.
/// `MRTR_ERR_NOT_FOUND` past the last input.
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
    unsafe { on_call(call, |m, a| input_view(m, index, a.out(out)?)) }
}

/// Writes to `*out_index` the index of the input whose key decodes to
/// `key`. `MRTR_ERR_NOT_FOUND`, `MRTR_ERR_INVALID_UTF8`.
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
    unsafe {
        call_out(call, out_index, |m, a| {
            m.index_of(a.str(key)?).map_err(|e| a.refused(e))
        })
    }
}

/// Decodes text `field` (one `MRTR_TEXT_*` bit) of input `index` into
/// `out` as UTF-8, output as `mrtr_call_write_request`.
/// `MRTR_ERR_NOT_FOUND` (no such input or field), `MRTR_ERR_INVALID_ARGUMENT`
/// (not one known bit), `MRTR_ERR_BUFFER_TOO_SMALL`.
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
    // SAFETY: forwarded contract; overlaps are refused by the collector.
    unsafe {
        on_call(call, |m, a| {
            let (out_written, out) = (a.out(out_written)?, a.out_buf(out, out_len)?);
            input_text(m, a, index, field, out, out_written)
        })
    }
}

/// `ANSWERING`: answers elicitation `index` with `MRTR_ELICIT_*` `action`
/// and, for a form `accept` only, `content` (a JSON object; check it with
/// `mrtr_form_validate`). The last answer makes the call `READY`.
/// - `MRTR_ERR_WRONG_STATE`: not `ANSWERING`, or already answered.
/// - `MRTR_ERR_NOT_FOUND`; `MRTR_ERR_JSON`: content not JSON.
/// - `MRTR_ERR_INVALID_VALUE`: not an elicitation, content missing for a
///   form `accept` or given otherwise, not an object.
/// - `MRTR_ERR_LIMIT_EXCEEDED` (`max_answers_bytes`);
///   `MRTR_ERR_INVALID_ARGUMENT` (unknown action).
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
    unsafe {
        on_call(call, |m, a| {
            let action = ElicitAction::from_c(action).map_err(|s| a.refuse(s, c"UnknownAction"))?;
            let content = a.bytes(content.ptr.cast(), content.len)?;
            let content = (!content.is_empty()).then_some(content);
            m.answer_at(index, Answer::Elicit { action, content })
                .map_err(|e| a.refused(e))
        })
    }
}

/// Answers input `index` with its bare JSON result (`CreateMessageResult`,
/// `ListRootsResult`, elicitation result; never `{"result": ..}`). As
/// `mrtr_call_answer_elicit`; `MRTR_ERR_INVALID_VALUE`: not an object,
/// wrapped, an unknown shape or kind, or a root URI refused.
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
    unsafe {
        on_call(call, |m, a| {
            let json = a.bytes(json.ptr.cast(), json.len)?;
            m.answer_at(index, Answer::Json(json))
                .map_err(|e| a.refused(e))
        })
    }
}

/// Answers roots input `index` with `n` roots (at most `MRTR_MAX_ROOTS`),
/// each a `file://` URI without dot segments. As `mrtr_call_answer_elicit`
/// (`MRTR_ERR_INVALID_VALUE`: a refused URI); `MRTR_ERR_LIMIT_EXCEEDED`
/// (too many), `MRTR_ERR_INVALID_UTF8`.
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
    unsafe {
        on_call(call, |m, a| {
            with_roots(a, roots, n, |r| m.answer_at(index, Answer::Roots(r)))
        })
    }
}

/// Ends the call because the app cannot answer input `index` (MRTR has no
/// error answer): `MRTR_OK`, and the call is `FAILED` with
/// `MRTR_FAILURE_ANSWERED_WITH_ERROR` and `code`. `MRTR_ERR_WRONG_STATE`
/// (not `ANSWERING`, or already answered), `MRTR_ERR_NOT_FOUND`.
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
    unsafe {
        on_call(call, |m, a| {
            m.answer_at(index, Answer::Error { code })
                .map_err(|e| a.refused(e))
        })
    }
}

/// Writes to `*out` the final result, found in `fed` (the bytes whose
/// feeding completed the call). `MRTR_ERR_WRONG_STATE` before completion,
/// `MRTR_ERR_INVALID_ARGUMENT` for other bytes.
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
    unsafe {
        call_out(call, out, |m, a| {
            let fed = a.bytes(fed, fed_len)?;
            m.result_span().ok_or(mrtr_status::MRTR_ERR_WRONG_STATE)?;
            let r = m
                .result(fed)
                .ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?;
            Ok(mrtr_str::of_bytes(r))
        })
    }
}

/// Saves a `READY`, `SENT` or `ANSWERING` call into `out`, output as
/// `mrtr_call_write_request` (restored in `SENT`: `mrtr_call_resend`).
/// `MRTR_ERR_WRONG_STATE` once done or failed, `MRTR_ERR_BUFFER_TOO_SMALL`.
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
    unsafe { write_call(call, out, out_len, out_written, |m, o| m.save(o)) }
}

/// Restores a save into `workspace` (as `mrtr_call_init`) under `limits`
/// (NULL: defaults; a save cannot raise them), re-validating every region;
/// the next id is one past the saved last id. `MRTR_ERR_WORKSPACE_TOO_SMALL`;
/// `MRTR_ERR_UNSUPPORTED_VERSION` (another save format, or `_meta` naming
/// another protocol version or none); `MRTR_ERR_INVALID_ARGUMENT` (not a
/// save, a broken invariant, a region over its limit, bad limits). On a
/// failure, `*out_reason` (optional) names the cause: `"Decode"` (not a
/// save), `"Version"`, `"ProtocolVersion"`, `"TooLarge"` (a region over its
/// limit), `"BadLimits"`, an invariant (`"BadHead"`, `"PartlyAnswered"`,
/// ...), or the status's own name.
///
/// # Safety
/// As `mrtr_call_init` for `workspace`, `len` and `out_call`; `limits` must
/// be NULL or readable; `saved` must point to `saved_len` readable bytes;
/// `out_reason` NULL or a writable `const char *`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_restore(
    workspace: *mut c_void,
    len: usize,
    limits: *const mrtr_call_limits,
    saved: *const u8,
    saved_len: usize,
    out_call: *mut *mut mrtr_call,
    out_reason: *mut *const c_char,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        restore(
            workspace.cast(),
            len,
            limits,
            (saved, saved_len),
            out_call,
            out_reason,
        )
    })
}

/// # Safety
/// As [`mrtr_call_restore`].
unsafe fn restore(
    ws: *mut u8,
    len: usize,
    limits: *const mrtr_call_limits,
    (saved, saved_len): (*const u8, usize),
    out_call: *mut *mut mrtr_call,
    out_reason: *mut *const c_char,
) -> Result<(), mrtr_status> {
    let mut args = Args::free();
    // SAFETY: caller contract; every pointer goes through `args`, and
    // `place` refuses a workspace overlapping any of them.
    unsafe {
        let why = args.out_opt(out_reason)?;
        let r = (|| {
            let out_call = args.out(out_call)?;
            let limits = limits_from_c(args.reference_opt(limits)?);
            let (checked, needed) = checked(&limits).map_err(|s| args.refuse(s, c"BadLimits"))?;
            let saved = args.bytes(saved, saved_len)?;
            let mut refusal = None;
            let placed = place(ws, len, &args, (checked, needed), None, out_call, |s, r| {
                let s = s.write(MachineSlot::default());
                let restored = Machine::restore(s, r, &limits, saved).map(|_| ());
                refusal = restored.err();
                restored
            });
            placed.map_err(|st| match refusal {
                Some(e) => args.refuse(st, e.name()),
                None => st,
            })
        })();
        args.tell(r, why)
    }
}

/// `FAILED`: writes why to `*out`; `MRTR_ERR_WRONG_STATE` otherwise.
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
    unsafe {
        call_out(call, out, |m, _| {
            let f = m.error().as_ref().and_then(failure_of);
            f.ok_or(mrtr_status::MRTR_ERR_WRONG_STATE)
        })
    }
}

/// What the tests of this crate share.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;

    /// A config with every member zero, empty or NULL (no method, no task),
    /// for tests to fill in.
    pub(crate) fn empty_config() -> mrtr_call_config {
        mrtr_call_config {
            method: 0,
            params: mrtr_str::EMPTY,
            caps: 0,
            client_name: mrtr_str::EMPTY,
            client_version: mrtr_str::EMPTY,
            flags: 0,
            first_id: 0,
            limits: core::ptr::null(),
            out_needed: core::ptr::null_mut(),
            out_reason: core::ptr::null_mut(),
            task_dialect: 0,
            task_id: mrtr_str::EMPTY,
            task_poll_ms: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::ffi::CStr;
    use std::vec;

    /// `mrtr_call_init` restarting task `t1` in the extension dialect
    /// (declaring the tasks capability): the status, the reason it names
    /// and whether a handle came out.
    fn restart_task() -> (mrtr_status, &'static str, bool) {
        let mut reason: *const c_char = core::ptr::null();
        let cfg = mrtr_call_config {
            caps: crate::client::MRTR_CAP_TASKS,
            out_reason: &mut reason,
            task_dialect: mrtr_task_dialect::MRTR_TASK_DIALECT_EXTENSION as u32,
            task_id: mrtr_str::from_str("t1"),
            ..testing::empty_config()
        };
        let mut size = 0usize;
        // SAFETY: `size` is a live local; NULL limits select the defaults.
        let st = unsafe { mrtr_call_workspace_size(core::ptr::null(), &mut size) };
        assert_eq!(st, mrtr_status::MRTR_OK);
        let mut ws = vec![0u64; size.div_ceil(8)];
        let mut call: *mut mrtr_call = core::ptr::null_mut();
        // SAFETY: `ws` is live and 8-aligned; every other pointer is to a
        // live local outside it.
        let st = unsafe { mrtr_call_init(ws.as_mut_ptr().cast(), size, &cfg, &mut call) };
        let why = match reason.is_null() {
            true => "",
            // SAFETY: the library writes static NUL-terminated names.
            false => unsafe { CStr::from_ptr(reason) }.to_str().unwrap_or("?"),
        };
        (st, why, !call.is_null())
    }

    #[cfg(feature = "tasks")]
    #[test]
    fn a_task_restarts_when_tasks_are_built() {
        assert_eq!(restart_task(), (mrtr_status::MRTR_OK, "", true));
    }

    /// A library built without `tasks` (a device's) refuses to restart a
    /// task, names why, and hands out no handle.
    #[cfg(not(feature = "tasks"))]
    #[test]
    fn a_task_restart_is_refused_without_tasks() {
        assert_eq!(
            restart_task(),
            (
                mrtr_status::MRTR_ERR_INVALID_ARGUMENT,
                "TasksNotBuilt",
                false
            )
        );
    }
}
