//! `mrtr_call_*`: one logical `tools/call`, `prompts/get` or
//! `resources/read` through all its legs, in caller memory.
//!
//! ```text
//!  mrtr_call_workspace_size(&limits, &size); ws = aligned memory of size
//!  mrtr_call_init(ws, size, &config, &call)                 -> READY
//!  READY:     mrtr_call_write_request(call, id, out, ..)    -> SENT
//!  SENT:      mrtr_call_feed(call, msg, len, &event)
//!               COMPLETE / RPC_ERROR / TASK_CREATED         -> DONE
//!               INPUT_REQUIRED                              -> ANSWERING
//!               RETRY_AFTER (wait event.wait_ms)            -> READY
//!               UNRELATED (keep feeding)                    -> SENT
//!  ANSWERING: mrtr_call_input_at / mrtr_call_answer_* for every input -> READY
//!  any terminal error                                       -> FAILED
//! ```
//! The workspace holds the call's state record and its byte regions (the
//! rendered params, the current round's `inputRequests` and `requestState`,
//! the answers); nothing else is kept anywhere. Views a call hands out
//! point into the workspace and stay valid until the next function that
//! mutates the call (`write_request`, `resend`, `feed`, `answer_*`).
//! One call is not safe to use from two threads at once.

use core::ffi::c_void;

use mrtr_core::client::call::{check_id_range, CallMethod};
use mrtr_core::client::{Call, CallConfig, CallError, CallLimits, CallState};
use mrtr_core::json::ParseLimits;
use mrtr_core::wire::{ClientInfo, WireLimits};

use crate::abi::{finish_output, in_bytes, in_ref, in_str, out_bytes, Out, Span};
use crate::exchange::{
    self, call_event, caps_from_bits, mrtr_event, mrtr_failure, mrtr_input, mrtr_phase, mrtr_root,
    phase_of, status_of,
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

/// Every capacity and cap of a call. Get the defaults from
/// `mrtr_call_limits_default`, then change what you need; there are no
/// "0 means default" fields.
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
    /// Bound of the params as sent: the caller's params plus `_meta`
    /// (default 16 KiB).
    pub max_params_bytes: usize,
    /// Bound of one round's `inputRequests` (default 16 KiB).
    pub max_inputs_bytes: usize,
    /// Bound of the `requestState` token, quotes included (default 4 KiB).
    pub max_state_bytes: usize,
    /// Bound of one round's answers, JSON bytes (default 16 KiB).
    pub max_answers_bytes: usize,
    /// Most `input_required` rounds one call accepts (default 10).
    pub max_rounds: u32,
    /// Most consecutive state-only rounds (default 3).
    pub max_state_only_rounds: u32,
    /// Backoff after the first state-only round, ms (default 50).
    pub backoff_initial_ms: u32,
    /// Ceiling of the doubling backoff, ms (default 250).
    pub backoff_max_ms: u32,
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

/// How to start a call. Zero-initialize it, then set the fields; strings
/// and the params are copied at init and need not outlive `mrtr_call_init`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_call_config {
    /// A `mrtr_method` value.
    pub method: u32,
    /// The params object as JSON, e.g.
    /// `{"name":"get_weather","arguments":{"location":"Paris"}}`. It must
    /// not contain `inputResponses` or `requestState` (the call owns them);
    /// a `_meta` object is merged (the three keys the call writes are
    /// replaced); a `task` object asks for a seed-dialect task.
    pub params: mrtr_str,
    /// `MRTR_CAP_*` bits: what the call declares it can answer, sent on
    /// every leg. The server may only ask these kinds.
    pub caps: u32,
    /// `clientInfo.name`; with `ptr` NULL the library's own identity
    /// (`"mrtr"` and its version) is sent.
    pub client_name: mrtr_str,
    /// `clientInfo.version` (used when `client_name` is given).
    pub client_version: mrtr_str,
    /// `MRTR_CALL_*` flags.
    pub flags: u32,
    /// The first JSON-RPC id `mrtr_call_next_id` suggests (0 means 1):
    /// within +-(2^53-1), or `mrtr_call_init` refuses the config.
    pub first_id: i64,
    /// The limits; NULL for the defaults.
    pub limits: *const mrtr_call_limits,
    /// Optional: receives the workspace size needed when `mrtr_call_init`
    /// returns `MRTR_ERR_WORKSPACE_TOO_SMALL`.
    pub out_needed: *mut usize,
}

/// The record at the start of a call's workspace.
pub(crate) struct CallValue {
    state: CallState,
    first_id: i64,
}

impl Default for CallValue {
    fn default() -> Self {
        CallValue {
            state: CallState::default(),
            first_id: 1,
        }
    }
}

pub(crate) fn limits_to_c(l: &CallLimits) -> mrtr_call_limits {
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
    }
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

fn limits_from_c(l: &mrtr_call_limits) -> Result<CallLimits, mrtr_status> {
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
    };
    // Limits the core cannot lay out report usize::MAX.
    if Call::workspace_size(&limits) == usize::MAX {
        return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
    }
    Ok(limits)
}

/// The limits a C caller passed (NULL: the defaults), and the span of the
/// struct for overlap checks.
///
/// # Safety
/// `limits` must be NULL or point to a readable `mrtr_call_limits`.
unsafe fn read_limits(limits: *const mrtr_call_limits) -> Result<(CallLimits, Span), mrtr_status> {
    if limits.is_null() {
        return Ok((CallLimits::default(), Span::of_one(limits)));
    }
    // SAFETY: caller contract.
    let l = unsafe { in_ref(limits) }?;
    Ok((limits_from_c(l)?, Span::of_one(limits)))
}

/// The workspace size for a call under `limits`.
fn workspace_for(limits: &CallLimits) -> Result<usize, mrtr_status> {
    object::workspace_size::<CallValue>(Call::workspace_size(limits))
        .ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)
}

/// Runs `f` on the live call behind `call`.
///
/// # Safety
/// `call` must be NULL or a handle from `mrtr_call_init` /
/// `mrtr_call_restore` whose workspace is still lent to the call.
pub(crate) unsafe fn with_call<R>(
    call: *const mrtr_call,
    f: impl FnOnce(&mut Call<'_>, Span, i64) -> Result<R, mrtr_status>,
) -> Result<R, mrtr_status> {
    // SAFETY: forwarded contract.
    let mut obj: Obj<'_, CallValue> = unsafe { object::attach(call.cast(), magic::CALL) }?;
    let span = obj.span();
    let (v, region) = obj.split();
    let first_id = v.first_id;
    let mut c = Call::attach(&mut v.state, region).map_err(|e| status_of(&e))?;
    f(&mut c, span, first_id)
}

/// Checks an out-param of a call function: not inside the workspace.
fn out_outside<T: Copy>(out: &Out<'_, T>, ws: Span) -> Result<(), mrtr_status> {
    if out.span().overlaps(ws) {
        return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
    }
    Ok(())
}

/// Writes a request into the caller's buffer with `write`.
///
/// # Safety
/// As `mrtr_call_write_request`.
pub(crate) unsafe fn write_with(
    ws: Span,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
    write: impl FnOnce(&mut [u8]) -> Result<usize, CallError>,
) -> Result<(), mrtr_status> {
    // SAFETY: caller contract.
    let out_written = unsafe { Out::required(out_written) }?;
    out_outside(&out_written, ws)?;
    // SAFETY: caller contract; overlaps are refused.
    let out = unsafe { out_bytes(out, out_len, &[ws, out_written.span()]) }?;
    match write(out) {
        Ok(n) => finish_output(Ok(n), out_written),
        Err(CallError::BufferTooSmall { needed }) => {
            finish_output(Err(mrtr_core::json::BufferTooSmall { needed }), out_written)
        }
        Err(e) => Err(status_of(&e)),
    }
}

// ------------------------------------------------------------------- functions

/// Writes the default limits to `*out` (1 MiB messages, depth 32, 64 input
/// requests of keys up to 256 bytes, params/inputs/answers 16 KiB each,
/// `requestState` 4 KiB, 10 rounds, 3 state-only rounds, backoff 50 ms
/// doubling to 250 ms).
///
/// Returns `MRTR_OK`, `MRTR_ERR_NULL_POINTER` or `MRTR_ERR_MISALIGNED`.
///
/// # Safety
/// `out` must be NULL or point to a writable `mrtr_call_limits`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_limits_default(out: *mut mrtr_call_limits) -> mrtr_status {
    // SAFETY: caller contract.
    status_of_result(
        unsafe { Out::required(out) }.map(|o| o.write(limits_to_c(&CallLimits::default()))),
    )
}

/// Writes to `*out_size` the workspace bytes a call needs under `limits`
/// (NULL: the defaults, 54,720 bytes of regions plus the state record).
///
/// Returns `MRTR_OK`, `MRTR_ERR_NULL_POINTER`, `MRTR_ERR_MISALIGNED`, or
/// `MRTR_ERR_INVALID_ARGUMENT` for limits that cannot be laid out (0 or
/// more than 256 input requests, a depth under 4 or over
/// `MRTR_JSON_MAX_DEPTH`, a region over 4 GiB, overflow).
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
    status_of_result((|| {
        // SAFETY: caller contract.
        let out = unsafe { Out::required(out_size) }?;
        // SAFETY: caller contract.
        let (limits, _) = unsafe { read_limits(limits) }?;
        out.write(workspace_for(&limits)?);
        Ok(())
    })())
}

/// Starts a call in `workspace` (`len` bytes, aligned to
/// `MRTR_WORKSPACE_ALIGN`, at least `mrtr_call_workspace_size` of the
/// config's limits) and writes its handle to `*out_call`. The params are
/// validated and rendered once, with `_meta` first (protocol version,
/// capabilities, client info, then the caller's own `_meta` members).
///
/// Whatever lived in the workspace before is gone once the arguments pass
/// their checks, even if init then fails (old handles stop working).
///
/// Returns `MRTR_OK`; `MRTR_ERR_NULL_POINTER`; `MRTR_ERR_MISALIGNED`
/// (workspace or structs); `MRTR_ERR_WORKSPACE_TOO_SMALL` (the size needed
/// goes to `config->out_needed` when set); `MRTR_ERR_INVALID_ARGUMENT` (an
/// unknown method, capability bit or flag, bad limits, a `first_id` outside
/// +-(2^53-1), params that are not
/// an object, lack `name`/`uri`, contain `inputResponses`/`requestState`,
/// have a malformed `_meta`/`task`, or any argument inside the workspace);
/// `MRTR_ERR_INVALID_UTF8` (client name/version); `MRTR_ERR_JSON` (params
/// not JSON); `MRTR_ERR_LIMIT_EXCEEDED` (params over `max_params_bytes`,
/// too deep or too large).
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
    // SAFETY: caller contract.
    let out_call = unsafe { Out::required(out_call) }?;
    // SAFETY: caller contract.
    let cfg = unsafe { in_ref(config) }?;
    // SAFETY: caller contract.
    let out_needed = unsafe { Out::optional(cfg.out_needed) }?;
    let method = match cfg.method {
        1 => CallMethod::ToolsCall,
        2 => CallMethod::PromptsGet,
        3 => CallMethod::ResourcesRead,
        _ => return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT),
    };
    if cfg.flags & !MRTR_CALL_NO_CLIENT_INFO != 0 {
        return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
    }
    let caps = caps_from_bits(cfg.caps)?;
    // SAFETY: caller contract.
    let params = unsafe { in_bytes(cfg.params.ptr.cast(), cfg.params.len) }?;
    let client_info = if cfg.flags & MRTR_CALL_NO_CLIENT_INFO != 0 {
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
    let region = Call::workspace_size(&limits);
    // An id no request could carry would only fail at the first leg (and
    // `mrtr_run` would send nothing): refuse it here.
    let first_id = check_id_range(match cfg.first_id {
        0 => 1,
        id => id,
    })
    .map_err(|e| status_of(&e))?;
    let info_spans = client_info.map_or([Span::of_one(core::ptr::null::<u8>()); 2], |i| {
        [
            Span::of(i.name.as_ptr(), i.name.len()),
            Span::of(i.version.as_ptr(), i.version.len()),
        ]
    });
    let inputs = [
        Span::of_one(config),
        Span::of(params.as_ptr(), params.len()),
        info_spans[0],
        info_spans[1],
        limits_span,
        out_call.span(),
        out_needed
            .as_ref()
            .map_or(Span::of_one(core::ptr::null::<u8>()), |o| o.span()),
    ];
    // SAFETY: caller contract; overlaps with every other argument refused.
    let placed = unsafe {
        object::init::<CallValue>(
            ws,
            len,
            region,
            CallValue {
                state: CallState::default(),
                first_id,
            },
            &inputs,
        )
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
    let config = CallConfig {
        method,
        params,
        caps,
        client_info,
        limits,
    };
    {
        let (v, region) = obj.split();
        Call::init(&mut v.state, region, &config).map_err(|e| status_of(&e))?;
    }
    obj.activate(magic::CALL);
    out_call.write(ws.cast());
    Ok(())
}

/// Writes the next leg of the call, with JSON-RPC id `id`, into `out`
/// (`READY` -> `SENT`). Ids must increase over the call's life and stay
/// within +-(2^53-1); `mrtr_call_next_id` suggests one.
///
/// Output convention of `mrtr_json_write_string`: `*out_written` receives
/// the length, or with `MRTR_ERR_BUFFER_TOO_SMALL` the size needed (the
/// call is unchanged then).
///
/// Returns `MRTR_OK`, `MRTR_ERR_BUFFER_TOO_SMALL`, `MRTR_ERR_WRONG_STATE`
/// (not `READY`), `MRTR_ERR_UNANSWERED_INPUT` (`ANSWERING` with inputs
/// left), `MRTR_ERR_INVALID_ARGUMENT` (id not fresh or out of range, a bad
/// handle, `out` overlapping the workspace), `MRTR_ERR_NULL_POINTER`,
/// `MRTR_ERR_MISALIGNED`.
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
        with_call(call, |c, ws, _| {
            write_with(ws, out, out_len, out_written, |o| c.write_request(id, o))
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
        with_call(call, |c, ws, _| {
            write_with(ws, out, out_len, out_written, |o| c.resend(id, o))
        })
    })
}

/// Writes to `*out_id` the id to use for the next leg: one past the last
/// id the call used, or the config's `first_id` before the first leg.
/// (After a restore, one past the restored call's last id.)
///
/// Returns `MRTR_OK`, `MRTR_ERR_LIMIT_EXCEEDED` (the ids are used up:
/// past 2^53-1), `MRTR_ERR_NULL_POINTER`, `MRTR_ERR_MISALIGNED`,
/// `MRTR_ERR_INVALID_ARGUMENT` (bad handle).
///
/// # Safety
/// `call` must be a live handle; `out_id` must point to a writable
/// `int64_t`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_next_id(
    call: *const mrtr_call,
    out_id: *mut i64,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_call(call, |c, ws, first| {
            let out = Out::required(out_id)?;
            out_outside(&out, ws)?;
            out.write(c.next_id(first).map_err(|e| status_of(&e))?);
            Ok(())
        })
    })
}

/// Feeds `len` bytes the transport received while `SENT`: one complete
/// JSON-RPC message. Writes what it meant to `*out_event` (see
/// `mrtr_event_kind`); spans point into `msg`. A valid message that is not
/// the answer (another id, a notification) is `MRTR_EVENT_UNRELATED` and
/// changes nothing.
///
/// Terminal errors end the call (`FAILED`, details from
/// `mrtr_call_failure`): `MRTR_ERR_JSON`, `MRTR_ERR_ENVELOPE` (the answer,
/// or bytes no other request can claim, are unreadable),
/// `MRTR_ERR_PROTOCOL_VIOLATION`, `MRTR_ERR_UNDECLARED_CAPABILITY` (the
/// server asked a kind the call did not declare), `MRTR_ERR_LIMIT_EXCEEDED`
/// (too many inputs, inputs or state over their regions, too deep, too
/// large), `MRTR_ERR_ROUND_CAP`. Other statuses leave the call unchanged:
/// `MRTR_ERR_WRONG_STATE` (not `SENT`), `MRTR_ERR_NULL_POINTER`,
/// `MRTR_ERR_MISALIGNED`, `MRTR_ERR_INVALID_ARGUMENT` (bad handle, `msg`
/// or `out_event` inside the workspace or overlapping each other).
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
        with_call(call, |c, ws, _| {
            let out = Out::required(out_event)?;
            let bytes = in_bytes(msg, len)?;
            let msg_span = Span::of(bytes.as_ptr(), bytes.len());
            if msg_span.overlaps(ws) || out.span().overlaps(ws) || out.span().overlaps(msg_span) {
                return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
            }
            let ev = c.feed(bytes).map_err(|e| status_of(&e))?;
            out.write(call_event(bytes, &ev));
            Ok(())
        })
    })
}

/// Writes the call's phase to `*out_state`.
///
/// Returns `MRTR_OK`, `MRTR_ERR_NULL_POINTER`, `MRTR_ERR_MISALIGNED`,
/// `MRTR_ERR_INVALID_ARGUMENT` (bad handle).
///
/// # Safety
/// `call` must be a live handle; `out_state` must point to a writable
/// `mrtr_phase`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_state(
    call: *const mrtr_call,
    out_state: *mut mrtr_phase,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_call(call, |c, ws, _| {
            let out = Out::required(out_state)?;
            out_outside(&out, ws)?;
            out.write(phase_of(c.state()));
            Ok(())
        })
    })
}

/// Writes to `*out_round` the number of `input_required` results received
/// so far. Statuses as `mrtr_call_state`.
///
/// # Safety
/// `call` must be a live handle; `out_round` must point to a writable
/// `uint32_t`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_round(
    call: *const mrtr_call,
    out_round: *mut u32,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_call(call, |c, ws, _| {
            let out = Out::required(out_round)?;
            out_outside(&out, ws)?;
            out.write(c.round());
            Ok(())
        })
    })
}

/// Writes to `*out_count` the number of input requests of the current
/// round (0 before the first round and after a state-only round).
/// Statuses as `mrtr_call_state`.
///
/// # Safety
/// `call` must be a live handle; `out_count` must point to a writable
/// `size_t`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_input_count(
    call: *const mrtr_call,
    out_count: *mut usize,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_call(call, |c, ws, _| {
            let out = Out::required(out_count)?;
            out_outside(&out, ws)?;
            out.write(c.input_count());
            Ok(())
        })
    })
}

/// Writes input request `index` (0-based, in the server's order) to
/// `*out`, as views into the workspace valid until the next mutating call.
///
/// Returns `MRTR_OK`, `MRTR_ERR_NOT_FOUND` (no such index in this round),
/// `MRTR_ERR_NULL_POINTER`, `MRTR_ERR_MISALIGNED`,
/// `MRTR_ERR_INVALID_ARGUMENT` (bad handle, `out` inside the workspace).
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
        with_call(call, |c, ws, _| {
            let out = Out::required(out)?;
            out_outside(&out, ws)?;
            out.write(exchange::input_view(c, index)?);
            Ok(())
        })
    })
}

/// Writes to `*out_index` the index of the input whose key decodes to
/// `key` (compared after decoding JSON escapes).
///
/// Returns `MRTR_OK`, `MRTR_ERR_NOT_FOUND`, `MRTR_ERR_INVALID_UTF8`,
/// `MRTR_ERR_NULL_POINTER`, `MRTR_ERR_MISALIGNED`,
/// `MRTR_ERR_INVALID_ARGUMENT` (bad handle).
///
/// # Safety
/// `call` must be a live handle; `key.ptr` must point to `key.len`
/// readable bytes; `out_index` to a writable `size_t`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_input_find(
    call: *const mrtr_call,
    key: mrtr_str,
    out_index: *mut usize,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_call(call, |c, ws, _| exchange::input_find(c, ws, key, out_index))
    })
}

/// Decodes text field `field` (one `MRTR_TEXT_*` value) of input `index`
/// into `out`, JSON escapes resolved, not NUL-terminated. Output
/// convention of `mrtr_json_write_string`.
///
/// Returns `MRTR_OK`, `MRTR_ERR_BUFFER_TOO_SMALL`, `MRTR_ERR_NOT_FOUND` (no
/// such input, or the input has no such field), `MRTR_ERR_INVALID_ARGUMENT`
/// (unknown field, bad handle, `out` inside the workspace),
/// `MRTR_ERR_NULL_POINTER`, `MRTR_ERR_MISALIGNED`.
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
        with_call(call, |c, ws, _| {
            exchange::input_text(c, ws, index, field, out, out_len, out_written)
        })
    })
}

/// Answers elicitation input `index`: `action` is `MRTR_ELICIT_ACCEPT`,
/// `_DECLINE` or `_CANCEL`; `content` is the form's answer as a JSON object
/// (form mode `accept` only; empty otherwise). Check content against the
/// form first with `mrtr_form_validate`. The last answer makes the call
/// `READY`.
///
/// Returns `MRTR_OK`; `MRTR_ERR_WRONG_STATE` (not `ANSWERING`, or already
/// answered); `MRTR_ERR_NOT_FOUND`; `MRTR_ERR_JSON` (content not JSON);
/// `MRTR_ERR_INVALID_VALUE` (not an elicitation, content missing for a form
/// `accept`, content given for URL mode / decline / cancel, not an object);
/// `MRTR_ERR_LIMIT_EXCEEDED` (over `max_answers_bytes`);
/// `MRTR_ERR_INVALID_ARGUMENT` (unknown action, bad handle, content inside
/// the workspace); `MRTR_ERR_NULL_POINTER`; `MRTR_ERR_MISALIGNED`.
///
/// # Safety
/// `call` must be a live handle; `content.ptr` must point to `content.len`
/// readable bytes.
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
        with_call(call, |c, ws, _| {
            exchange::answer_elicit(c, ws, index, action, content)
        })
    })
}

/// Answers input `index` with a raw JSON result: a `CreateMessageResult`
/// for sampling (`{"role":"assistant","content":{..},"model":".."}`), or an
/// `ElicitResult` / `ListRootsResult` (the bare result, never wrapped in
/// `{"result": ..}`). Its shape must match the request's kind.
///
/// Returns as `mrtr_call_answer_elicit` (`MRTR_ERR_INVALID_VALUE`: not an
/// object, wrapped, an unknown shape, or a kind that does not match).
///
/// # Safety
/// `call` must be a live handle; `json.ptr` must point to `json.len`
/// readable bytes.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_answer_json(
    call: *mut mrtr_call,
    index: usize,
    json: mrtr_str,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_call(call, |c, ws, _| exchange::answer_json(c, ws, index, json))
    })
}

/// Answers `roots/list` input `index` with `n` roots (at most
/// `MRTR_MAX_ROOTS`; 0 is an empty list). Each URI must be a plain
/// `file://` URI (absolute path, no `.`/`..`, no query, well-formed
/// percent-escapes; see `mrtr_core::client::roots`).
///
/// Returns as `mrtr_call_answer_elicit`, plus `MRTR_ERR_INVALID_VALUE` (a
/// refused URI, or not a roots input), `MRTR_ERR_LIMIT_EXCEEDED` (more than
/// `MRTR_MAX_ROOTS`), `MRTR_ERR_INVALID_UTF8`.
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
        with_call(call, |c, ws, _| {
            exchange::answer_roots(c, ws, index, roots, n)
        })
    })
}

/// The application cannot or will not answer input `index`: MRTR has no
/// error input response, so the call ends here (`FAILED`, failure kind
/// `MRTR_FAILURE_ANSWERED_WITH_ERROR` recording `index` and `code`).
///
/// Returns `MRTR_OK` (the call is now `FAILED`), `MRTR_ERR_WRONG_STATE`
/// (not `ANSWERING`, or already answered), `MRTR_ERR_NOT_FOUND`,
/// `MRTR_ERR_NULL_POINTER`, `MRTR_ERR_MISALIGNED`,
/// `MRTR_ERR_INVALID_ARGUMENT` (bad handle).
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
    status_of_result(unsafe { with_call(call, |c, _, _| exchange::answer_error(c, index, code)) })
}

/// Writes to `*out` the final result object: a view into `fed`, the exact
/// bytes (same length) whose feeding completed the call. The call keeps
/// only the result's position, so results can be larger than any
/// workspace.
///
/// Returns `MRTR_OK`, `MRTR_ERR_WRONG_STATE` (no result: not completed, or
/// ended otherwise), `MRTR_ERR_INVALID_ARGUMENT` (`fed` is not the
/// completing message's length, bad handle), `MRTR_ERR_NULL_POINTER`,
/// `MRTR_ERR_MISALIGNED`.
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
        with_call(call, |c, ws, _| {
            let out = Out::required(out)?;
            out_outside(&out, ws)?;
            let fed = in_bytes(fed, fed_len)?;
            if c.result_span().is_none() {
                return Err(mrtr_status::MRTR_ERR_WRONG_STATE);
            }
            let r = c
                .result(fed)
                .ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?;
            out.write(mrtr_str::of_bytes(r));
            Ok(())
        })
    })
}

/// Saves the call (in `READY`, `SENT` or `ANSWERING`) into `out` as a
/// versioned record, for an app that must survive a restart mid-call.
/// Output convention of `mrtr_json_write_string`. After a restore in
/// `SENT`, the response to the old request is lost: `mrtr_call_resend`.
///
/// Returns `MRTR_OK`, `MRTR_ERR_BUFFER_TOO_SMALL`, `MRTR_ERR_WRONG_STATE`,
/// `MRTR_ERR_NULL_POINTER`, `MRTR_ERR_MISALIGNED`,
/// `MRTR_ERR_INVALID_ARGUMENT` (bad handle, `out` inside the workspace).
///
/// # Safety
/// As `mrtr_call_write_request`.
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
        with_call(call, |c, ws, _| {
            write_with(ws, out, out_len, out_written, |o| c.save(o))
        })
    })
}

/// Restores a saved call into `workspace` under `limits` (NULL: the
/// defaults; they bound the restored regions, a save cannot raise them)
/// and writes its handle to `*out_call`. The save is untrusted input:
/// every region is validated again. Workspace rules as `mrtr_call_init`.
///
/// Returns `MRTR_OK`, `MRTR_ERR_WORKSPACE_TOO_SMALL`,
/// `MRTR_ERR_UNSUPPORTED_VERSION` (a save of another format version),
/// `MRTR_ERR_INVALID_ARGUMENT` (not a call save, inconsistent, over the
/// limits, bad limits, arguments inside the workspace),
/// `MRTR_ERR_NULL_POINTER`, `MRTR_ERR_MISALIGNED`.
///
/// # Safety
/// `workspace` as for `mrtr_call_init`; `limits` NULL or readable; `saved`
/// must point to `saved_len` readable bytes; `out_call` to a writable
/// `mrtr_call *`.
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
    status_of_result((|| {
        // SAFETY: caller contract.
        let out_call = unsafe { Out::required(out_call) }?;
        // SAFETY: caller contract.
        let (limits, limits_span) = unsafe { read_limits(limits) }?;
        // SAFETY: caller contract.
        let saved = unsafe { in_bytes(saved, saved_len) }?;
        let inputs = [
            limits_span,
            Span::of(saved.as_ptr(), saved.len()),
            out_call.span(),
        ];
        let ws = workspace.cast::<u8>();
        // SAFETY: caller contract; overlaps refused.
        let mut obj = unsafe {
            object::init::<CallValue>(
                ws,
                len,
                Call::workspace_size(&limits),
                CallValue::default(),
                &inputs,
            )
        }?;
        {
            let (v, region) = obj.split();
            Call::restore(&mut v.state, region, &limits, saved).map_err(|e| status_of(&e))?;
        }
        obj.activate(magic::CALL);
        out_call.write(ws.cast());
        Ok(())
    })())
}

/// Writes to `*out` the `requestState` the next leg echoes: the raw JSON
/// string token exactly as the server sent it (quotes and escapes
/// included; decode it with `mrtr_json_decode_string`), a view into the
/// workspace valid until the next mutating call. For logs and audits: the
/// call echoes it by itself.
///
/// Returns `MRTR_OK`, `MRTR_ERR_NOT_FOUND` (the last round carried none),
/// `MRTR_ERR_NULL_POINTER`, `MRTR_ERR_MISALIGNED`,
/// `MRTR_ERR_INVALID_ARGUMENT` (bad handle).
///
/// # Safety
/// `call` must be a live handle; `out` must point to a writable
/// `mrtr_str`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_request_state(
    call: *const mrtr_call,
    out: *mut mrtr_str,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_call(call, |c, ws, _| {
            let out = Out::required(out)?;
            out_outside(&out, ws)?;
            let token = c.request_state().ok_or(mrtr_status::MRTR_ERR_NOT_FOUND)?;
            out.write(mrtr_str::of_bytes(token));
            Ok(())
        })
    })
}

/// Writes to `*out_id` the last JSON-RPC id the call used.
///
/// Returns `MRTR_OK`, `MRTR_ERR_NOT_FOUND` (no request written yet),
/// `MRTR_ERR_NULL_POINTER`, `MRTR_ERR_MISALIGNED`,
/// `MRTR_ERR_INVALID_ARGUMENT` (bad handle).
///
/// # Safety
/// `call` must be a live handle; `out_id` must point to a writable
/// `int64_t`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_call_last_id(
    call: *const mrtr_call,
    out_id: *mut i64,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe {
        with_call(call, |c, ws, _| {
            let out = Out::required(out_id)?;
            out_outside(&out, ws)?;
            out.write(c.last_id().ok_or(mrtr_status::MRTR_ERR_NOT_FOUND)?);
            Ok(())
        })
    })
}

/// Writes to `*out` why the call is `FAILED`.
///
/// Returns `MRTR_OK`, `MRTR_ERR_WRONG_STATE` (the call has not failed),
/// `MRTR_ERR_NULL_POINTER`, `MRTR_ERR_MISALIGNED`,
/// `MRTR_ERR_INVALID_ARGUMENT` (bad handle).
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
    status_of_result(unsafe {
        with_call(call, |c, ws, _| {
            exchange::failure(c, ws, Out::required(out)?)
        })
    })
}
