//! `mrtr_run`: a blocking loop over a call for simple apps (a command-line
//! tool, a microcontroller without an event loop). Apps with an async UI
//! drive the step functions (`mrtr_call_write_request`, `_feed`,
//! `_answer_*`) themselves.

use core::ffi::c_void;

use mrtr_core::client::run::{Outcome, Reply, RunConfig, RunError, Runner, Step};
use mrtr_core::wire::InputKind;

use crate::call::{mrtr_call, with_call};
use crate::exchange::{self, machine_event, mrtr_event, mrtr_event_kind, mrtr_input, status_of};
use crate::mrtr_status;
use crate::status::status_of as status_of_result;

/// UI callback result: the callback answered the input through
/// `mrtr_call_answer_*`.
pub const MRTR_CB_ANSWERED: i32 = 0;
/// UI callback result: the user declined. Elicitations are answered
/// `decline` by the runner; sampling and roots have no refusal in MRTR,
/// so the run stops with `MRTR_ERR_ABORTED` (the call stays `ANSWERING`).
pub const MRTR_CB_DECLINE: i32 = 1;
/// UI callback result: the user dismissed the question. Elicitations are
/// answered `cancel`; otherwise as `MRTR_CB_DECLINE`.
pub const MRTR_CB_CANCEL: i32 = 2;
/// Callback result: stop the run now with `MRTR_ERR_ABORTED` (any other
/// non-zero value does the same). The call is left as it is.
pub const MRTR_CB_ABORT: i32 = 3;

/// Default of `mrtr_run_callbacks.max_unrelated`.
pub const MRTR_RUN_DEFAULT_MAX_UNRELATED: u32 = 16;

/// Sends a request and receives the next message (`transport`).
type TransportFn = unsafe extern "C" fn(
    user: *mut c_void,
    req: *const u8,
    req_len: usize,
    resp: *mut u8,
    resp_cap: usize,
    resp_len: *mut usize,
) -> i32;

/// Asks about one input (`elicit`, `sampling`, `roots`).
type InputFn = unsafe extern "C" fn(
    user: *mut c_void,
    call: *mut mrtr_call,
    index: usize,
    input: *const mrtr_input,
) -> i32;

/// The application side of `mrtr_run`. Zero-initialize, then set.
#[repr(C)]
#[derive(Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_run_callbacks {
    /// Required: sends a request and receives the next message.
    /// `req`, `req_len`: the request to send; NULL and 0 when the runner
    /// only wants the next message for the request already sent (after an
    /// unrelated message, such as a notification on the same stream).
    /// Write one complete JSON-RPC message of at most `resp_cap` bytes to
    /// `resp` and its length to `*resp_len`. Return 0, or non-zero to stop
    /// the run with `MRTR_ERR_ABORTED` (the call stays `SENT`; the app may
    /// `mrtr_call_resend` later).
    pub transport: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            req: *const u8,
            req_len: usize,
            resp: *mut u8,
            resp_cap: usize,
            resp_len: *mut usize,
        ) -> i32,
    >,
    /// Form and URL elicitations: ask the user about input `index`,
    /// described by `*input` (valid during the callback); answer with
    /// `mrtr_call_answer_*` and return `MRTR_CB_ANSWERED`, or return
    /// `MRTR_CB_DECLINE`, `MRTR_CB_CANCEL` or `MRTR_CB_ABORT`. NULL: such
    /// an input ends the run with `MRTR_ERR_UNANSWERED_INPUT`.
    pub elicit: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            call: *mut mrtr_call,
            index: usize,
            input: *const mrtr_input,
        ) -> i32,
    >,
    /// Sampling requests, as `elicit` (answer with
    /// `mrtr_call_answer_json`).
    pub sampling: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            call: *mut mrtr_call,
            index: usize,
            input: *const mrtr_input,
        ) -> i32,
    >,
    /// Roots requests, as `elicit` (answer with `mrtr_call_answer_roots`).
    pub roots: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            call: *mut mrtr_call,
            index: usize,
            input: *const mrtr_input,
        ) -> i32,
    >,
    /// Optional: waits `ms` milliseconds before a state-only round is
    /// retried; NULL retries at once.
    pub sleep_ms: Option<unsafe extern "C" fn(user: *mut c_void, ms: u64)>,
    /// The id of the first request this run writes; 0: `mrtr_progress.next_id`.
    /// Within +-(2^53-1), or the run returns `MRTR_ERR_INVALID_ARGUMENT`
    /// before sending anything. When a further request would need an id
    /// past 2^53-1 the run stops with `MRTR_ERR_LIMIT_EXCEEDED` before
    /// writing it.
    pub first_id: i64,
    /// Added to the id for each further request (> 0; 0 means 1), e.g. 2
    /// when two runs share a connection with odd and even ids.
    pub id_step: i64,
    /// Most unrelated messages accepted while waiting for one answer
    /// (0: `MRTR_RUN_DEFAULT_MAX_UNRELATED`); one more ends the run with
    /// `MRTR_ERR_LIMIT_EXCEEDED` (the call stays `SENT`).
    pub max_unrelated: u32,
}

/// Runs `call` to its end: writes each leg into `buf`, has the transport
/// send it and receive the answer into the rest of `buf`, feeds it, asks
/// the UI callbacks for every input, waits the backoff of state-only
/// rounds, and repeats. A call restored in `SENT` is first resent with a
/// fresh id.
///
/// `buf` (`buf_len` bytes) holds one request at its start and the response
/// after it, so it must hold the largest request plus the largest
/// response. On return `*out_event` (spans into `buf`, valid until `buf`
/// is reused) describes the last message:
/// - `MRTR_OK` with `MRTR_EVENT_COMPLETE` (`result`);
/// - `MRTR_ERR_RPC_ERROR` with `MRTR_EVENT_RPC_ERROR` or
///   `MRTR_EVENT_TASK_FAILED` (`error_code`, `error_message`,
///   `error_data`); a `-32022` (unsupported protocol version) ends the run
///   here too, never resent by the run: the app may pass the message to
///   `mrtr_version_retry` with `retries` 0 and start one more run at most;
/// - `MRTR_ERR_ABORTED` with `MRTR_EVENT_TASK_CANCELLED` (the server
///   cancelled the task).
///
/// When the server moves the call to a task, the run follows it: it waits
/// the task's poll interval (`sleep_ms`), polls, answers its input rounds
/// and waits each `MRTR_EVENT_TASK_POLL` hint, to the task's end.
///
/// Other statuses: the call's terminal errors as `mrtr_call_feed` returns them
/// (`MRTR_ERR_ROUND_CAP`, `MRTR_ERR_PROTOCOL_VIOLATION`,
/// `MRTR_ERR_UNDECLARED_CAPABILITY`, `MRTR_ERR_JSON`, ...); `MRTR_ERR_ABORTED` (a
/// callback asked to stop, or declined a sampling or roots request);
/// `MRTR_ERR_UNANSWERED_INPUT` (no callback for a kind, or one returned
/// `MRTR_CB_ANSWERED` without answering); `MRTR_ERR_BUFFER_TOO_SMALL` (a
/// request does not fit `buf`); `MRTR_ERR_LIMIT_EXCEEDED` (too many unrelated
/// messages, or the ids are used up: the next would pass 2^53-1);
/// `MRTR_ERR_WRONG_STATE` (the call is `DONE` or `FAILED`);
/// `MRTR_ERR_INVALID_ARGUMENT` (`id_step` < 0, a `first_id` outside
/// +-(2^53-1) or not above the call's last id, a transport that reports
/// more bytes than `resp_cap`);
/// `MRTR_ERR_NULL_POINTER` (no `transport`). Whatever the status, the call's own phase tells where
/// it stopped.
///
/// # Safety
/// `call` must be a live handle; `cb` must point to a readable
/// `mrtr_run_callbacks` whose function pointers are NULL or valid; `buf`
/// must point to `buf_len` writable bytes that only the runner and the
/// transport touch during the run; `out_event` to a writable
/// `mrtr_event`. Callbacks must not free or re-initialize the call.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_run(
    call: *mut mrtr_call,
    cb: *const mrtr_run_callbacks,
    user: *mut c_void,
    buf: *mut u8,
    buf_len: usize,
    out_event: *mut mrtr_event,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    status_of_result(unsafe { run(call, cb, user, buf, buf_len, out_event) })
}

/// Borrows `len` bytes at `ptr` for one step.
///
/// # Safety
/// `ptr..ptr+len` must lie within the run's checked buffer and not be
/// borrowed otherwise for the step.
unsafe fn bytes_mut<'a>(ptr: *mut u8, len: usize) -> &'a mut [u8] {
    if len == 0 {
        return &mut [];
    }
    // SAFETY: caller contract.
    unsafe { core::slice::from_raw_parts_mut(ptr, len) }
}

/// # Safety
/// As [`mrtr_run`].
unsafe fn run(
    call: *mut mrtr_call,
    cb: *const mrtr_run_callbacks,
    user: *mut c_void,
    buf: *mut u8,
    buf_len: usize,
    out_event: *mut mrtr_event,
) -> Result<(), mrtr_status> {
    // SAFETY: caller contract (live handle); every pointer is checked as
    // it is taken: the event and the buffer lie outside the workspace and
    // apart, the callbacks outside both. Nothing is borrowed from the
    // buffer here.
    let (out_event, cb, transport, mut runner) = unsafe {
        with_call(call, |m, a| {
            let out_event = a.out(out_event)?;
            let cb = *a.reference(cb)?;
            let transport = cb.transport.ok_or(mrtr_status::MRTR_ERR_NULL_POINTER)?;
            a.out_raw(buf, buf_len)?;
            let config = RunConfig {
                first_id: (cb.first_id != 0).then_some(cb.first_id),
                id_step: if cb.id_step == 0 { 1 } else { cb.id_step },
                max_unrelated: match cb.max_unrelated {
                    0 => MRTR_RUN_DEFAULT_MAX_UNRELATED,
                    n => n,
                },
            };
            let runner = Runner::new(m, &config).map_err(run_status)?;
            Ok((out_event, cb, transport, runner))
        })
    }?;
    let mut last = mrtr_event::empty(mrtr_event_kind::MRTR_EVENT_UNRELATED);
    loop {
        // SAFETY: caller contract (live handle); `buf` is checked and only
        // borrowed for this step.
        let step = unsafe {
            with_call(call, |m, _| {
                runner.next(m, bytes_mut(buf, buf_len)).map_err(run_status)
            })
        }?;
        match step {
            Step::Send { len } => {
                // SAFETY: caller contract (transport, buffer, live handle).
                last = unsafe { exchange(call, &mut runner, transport, user, buf, buf_len, len) }?;
            }
            Step::Ask { index, kind } => {
                // SAFETY: caller contract (live handle, callbacks).
                unsafe { ask(call, &mut runner, &cb, user, index, kind) }?;
            }
            Step::Wait(ms) => {
                if let Some(sleep) = cb.sleep_ms {
                    // SAFETY: a valid callback (caller contract).
                    unsafe { sleep(user, ms) };
                }
            }
            Step::Done(outcome) => {
                out_event.write(last);
                return match outcome {
                    Outcome::Complete => Ok(()),
                    Outcome::RpcError | Outcome::TaskFailed => Err(mrtr_status::MRTR_ERR_RPC_ERROR),
                    Outcome::TaskCancelled => Err(mrtr_status::MRTR_ERR_ABORTED),
                };
            }
        }
    }
}

/// The status of a run that stopped early.
fn run_status(e: RunError) -> mrtr_status {
    match e {
        RunError::Call(e) => status_of(&e),
        RunError::BadConfig | RunError::BadLength => mrtr_status::MRTR_ERR_INVALID_ARGUMENT,
        RunError::NotRunnable(_) => mrtr_status::MRTR_ERR_WRONG_STATE,
        RunError::TooManyUnrelated => mrtr_status::MRTR_ERR_LIMIT_EXCEEDED,
        RunError::Aborted | RunError::Transport(_) => mrtr_status::MRTR_ERR_ABORTED,
        RunError::Unanswered { .. } => mrtr_status::MRTR_ERR_UNANSWERED_INPUT,
    }
}

/// Sends the request at the start of `buf` (`n` bytes) and feeds what
/// comes back, past unrelated messages; returns the event (spans into
/// `buf`).
///
/// # Safety
/// As `mrtr_run`; `n <= buf_len`.
unsafe fn exchange(
    call: *mut mrtr_call,
    runner: &mut Runner,
    transport: TransportFn,
    user: *mut c_void,
    buf: *mut u8,
    buf_len: usize,
    n: usize,
) -> Result<mrtr_event, mrtr_status> {
    let resp = buf.wrapping_add(n);
    let cap = buf_len.saturating_sub(n);
    let mut send = true;
    loop {
        let mut resp_len = 0usize;
        let (req, req_len) = if send {
            (buf.cast_const(), n)
        } else {
            (core::ptr::null(), 0)
        };
        // SAFETY: a valid callback (caller contract); `req` and `resp` are
        // disjoint parts of `buf`, not borrowed by Rust during the call.
        let rc = unsafe { transport(user, req, req_len, resp, cap, &mut resp_len) };
        send = false;
        if rc != 0 {
            return Err(mrtr_status::MRTR_ERR_ABORTED);
        }
        if resp_len > cap {
            return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
        }
        // SAFETY: within `buf` (checked length), not otherwise borrowed.
        let msg: &[u8] = unsafe { bytes_mut(resp, resp_len) };
        // SAFETY: caller contract (live handle); `msg` lies outside the
        // workspace (the buffer was checked against it).
        let (ev, again) = unsafe {
            with_call(call, |m, _| {
                let (ev, again) = runner.received(m, msg).map_err(run_status)?;
                Ok((machine_event(msg, &ev), again))
            })
        }?;
        if !again {
            return Ok(ev.shifted(n));
        }
    }
}

/// Asks the app's callback about input `index` and reports its reply.
///
/// # Safety
/// As `mrtr_run`.
unsafe fn ask(
    call: *mut mrtr_call,
    runner: &mut Runner,
    cb: &mrtr_run_callbacks,
    user: *mut c_void,
    index: usize,
    kind: InputKind,
) -> Result<(), mrtr_status> {
    // SAFETY: caller contract (live handle).
    let input = unsafe { with_call(call, |m, _| exchange::input_view(m, index)) }?;
    let f = match kind {
        InputKind::ElicitForm | InputKind::ElicitUrl => cb.elicit,
        InputKind::Sampling => cb.sampling,
        InputKind::Roots => cb.roots,
    };
    let f: InputFn = f.ok_or(mrtr_status::MRTR_ERR_UNANSWERED_INPUT)?;
    // SAFETY: a valid callback (caller contract); no Rust reference to the
    // call is live while it runs, so it may call mrtr_call_*.
    let rc = unsafe { f(user, call, index, &input) };
    let reply = match rc {
        MRTR_CB_ANSWERED => Reply::Answered,
        MRTR_CB_DECLINE => Reply::Decline,
        MRTR_CB_CANCEL => Reply::Cancel,
        _ => Reply::Abort,
    };
    // SAFETY: caller contract (live handle).
    unsafe {
        with_call(call, |m, _| {
            runner.answered(m, index, reply).map_err(run_status)
        })
    }
}
