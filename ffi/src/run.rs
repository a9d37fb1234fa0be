//! The run loop of a call: the core's `Runner` as C step functions
//! (`mrtr_runner_*`), which event-loop apps and the Kotlin and Swift
//! bindings drive, and `mrtr_run`, the blocking loop over those steps for
//! simple apps (a command-line tool, a microcontroller without an event
//! loop). Every decision (ids, resends, waits, the unrelated-message cap,
//! the end) is the core's; this file only moves bytes and calls back.

use core::ffi::c_void;
use core::mem::size_of;

use mrtr_core::client::run::{Outcome, Reply, RunConfig, RunError, Runner, Step};
use mrtr_core::client::Machine;

use crate::abi::{Args, Put, Span};
use crate::call::{mrtr_call, mrtr_call_input_at, note_reason, with_call, CallHandle};
use crate::client::{machine_event, mrtr_event, mrtr_event_kind, mrtr_input, mrtr_input_kind};
use crate::mrtr_status;
use crate::object::{self, magic, record_size};
use crate::status::status_of;

/// A reply (UI callback, `mrtr_runner_answered`): answered through `mrtr_call_answer_*`.
pub const MRTR_CB_ANSWERED: i32 = 0;
/// A reply: declined (an elicitation is answered `decline`; sampling and
/// roots have no refusal: `MRTR_ERR_ABORTED`, the call stays `ANSWERING`).
pub const MRTR_CB_DECLINE: i32 = 1;
/// A reply: dismissed (an elicitation is answered `cancel`; else as DECLINE).
pub const MRTR_CB_CANCEL: i32 = 2;
/// A reply: stop with `MRTR_ERR_ABORTED` (so does any other value).
pub const MRTR_CB_ABORT: i32 = 3;

/// Default of `max_unrelated` (`mrtr_runner_init`, `mrtr_run_callbacks`).
pub const MRTR_RUN_DEFAULT_MAX_UNRELATED: u32 = 16;
const _: () =
    assert!(MRTR_RUN_DEFAULT_MAX_UNRELATED == mrtr_core::client::run::DEFAULT_MAX_UNRELATED);

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
pub struct mrtr_run_callbacks {
    /// Required: sends `req[0..req_len)` (NULL, 0: send nothing, the last
    /// message was unrelated) and writes the next message received, at most
    /// `resp_cap` bytes, to `resp`, its length to `*resp_len`; a message
    /// that does not fit: its length, over `resp_cap` (the run stops with
    /// `MRTR_ERR_BUFFER_TOO_SMALL`, see `out_needed`). Non-zero stops the
    /// run with `MRTR_ERR_ABORTED` (the call stays `SENT`).
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
    /// Form and URL elicitations: ask about input `index` (`*input`), answer
    /// with `mrtr_call_answer_*` and return a `MRTR_CB_*` reply. NULL: such
    /// an input ends the run with `MRTR_ERR_UNANSWERED_INPUT`.
    pub elicit: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            call: *mut mrtr_call,
            index: usize,
            input: *const mrtr_input,
        ) -> i32,
    >,
    /// Sampling requests, as `elicit`.
    pub sampling: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            call: *mut mrtr_call,
            index: usize,
            input: *const mrtr_input,
        ) -> i32,
    >,
    /// Roots requests, as `elicit`.
    pub roots: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            call: *mut mrtr_call,
            index: usize,
            input: *const mrtr_input,
        ) -> i32,
    >,
    /// Optional: waits `ms` milliseconds (a `WAIT` step); NULL: no wait.
    pub sleep_ms: Option<unsafe extern "C" fn(user: *mut c_void, ms: u64)>,
    /// As `mrtr_runner_init`'s.
    pub first_id: i64,
    /// As `mrtr_runner_init`'s.
    pub id_step: i64,
    /// As `mrtr_runner_init`'s.
    pub max_unrelated: u32,
    /// Optional: on `MRTR_ERR_BUFFER_TOO_SMALL`, receives the `buf_len` the
    /// run needs (a request that did not fit, or a transport that set
    /// `*resp_len` over `resp_cap`: the message did not fit). Run again
    /// with a buffer that large: the runner resends the request in flight.
    pub out_needed: *mut usize,
}

/// A run of one call in caller memory: `mrtr_runner r;` then
/// `mrtr_runner_init(&r, call, ...)`. Opaque; do not move or copy it.
#[repr(C, align(8))]
pub struct mrtr_runner {
    _opaque: [u64; 14],
}

/// What a `mrtr_runner` holds: the core's runner and the address of the
/// call it runs, so a step with another call is refused.
struct Bound {
    runner: Runner,
    call: usize,
}

const _: () = assert!(record_size::<Bound>() <= size_of::<mrtr_runner>());

/// What `mrtr_runner_next` says to do.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum mrtr_step_kind {
    /// Send `out[0..len)`, then pass each message received to
    /// `mrtr_runner_received` until it says `again` false.
    MRTR_STEP_SEND = 1,
    /// Ask the user about input `index` (`mrtr_call_input_at`), answer it
    /// (`mrtr_call_answer_*`) and report with `mrtr_runner_answered`.
    MRTR_STEP_ASK = 2,
    /// Wait `wait_ms` milliseconds, then ask for the next step.
    MRTR_STEP_WAIT = 3,
    /// The run is over: `status` is its result, the last event its message.
    MRTR_STEP_DONE = 4,
}

/// One step of a run. Fields a kind does not use are zero.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct mrtr_step {
    /// What to do.
    pub kind: mrtr_step_kind,
    /// `SEND`: the request's length (on `MRTR_ERR_BUFFER_TOO_SMALL`: the
    /// bytes `out` needs).
    pub len: usize,
    /// `ASK`: the input's index.
    pub index: usize,
    /// `ASK`: the input's kind.
    pub input_kind: mrtr_input_kind,
    /// `WAIT`: milliseconds.
    pub wait_ms: u64,
    /// `DONE`: `MRTR_OK` (`COMPLETE`), `MRTR_ERR_RPC_ERROR` (`RPC_ERROR`,
    /// `TASK_FAILED`) or `MRTR_ERR_ABORTED` (`TASK_CANCELLED`).
    pub status: mrtr_status,
}

impl mrtr_step {
    fn of(kind: mrtr_step_kind) -> mrtr_step {
        mrtr_step {
            kind,
            len: 0,
            index: 0,
            input_kind: mrtr_input_kind::MRTR_INPUT_ELICIT_FORM,
            wait_ms: 0,
            status: mrtr_status::MRTR_OK,
        }
    }
}

/// Attaches `runner` beside `call` (neither overlaps the other nor any
/// argument taken later) and runs `f` on both.
///
/// # Safety
/// As `with_call` for `call`; `runner` must be NULL or point to a readable
/// `mrtr_runner` that nothing else uses during the call.
unsafe fn with_runner<R>(
    runner: *mut mrtr_runner,
    call: impl CallHandle,
    f: impl FnOnce(&mut Runner, &mut Machine<'_>, &mut Args) -> Result<R, mrtr_status>,
) -> Result<R, mrtr_status> {
    let owner = call.ptr() as usize;
    // SAFETY: forwarded contract.
    unsafe {
        with_call(call, |m, a| {
            let mut r =
                object::attach_beside::<Bound>(runner.cast_const().cast(), magic::RUNNER, a)?;
            let b = r.value();
            if b.call != owner {
                return Err(a.refuse(
                    mrtr_status::MRTR_ERR_INVALID_ARGUMENT,
                    c"RunnerOfAnotherCall",
                ));
            }
            f(&mut b.runner, m, a)
        })
    }
}

/// Starts a run of `call` in `*runner`: `first_id` the first request's id
/// (0: the call's next id), `id_step` added per request (0 means 1; e.g. 2
/// for two runs sharing a connection), `max_unrelated` messages tolerated
/// while awaiting one answer (0: `MRTR_RUN_DEFAULT_MAX_UNRELATED`).
/// `MRTR_ERR_INVALID_ARGUMENT`: `id_step` < 0, `first_id` beyond +-(2^53-1).
///
/// # Safety
/// `runner` must point to a writable `mrtr_runner` lent to the run; `call`
/// must be a live handle.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_runner_init(
    runner: *mut mrtr_runner,
    call: *const mrtr_call,
    first_id: i64,
    id_step: i64,
    max_unrelated: u32,
) -> mrtr_status {
    let config = RunConfig::or_defaults(first_id, id_step, max_unrelated);
    // SAFETY: caller contract (live call; `runner` lent for the run); the
    // runner's memory is checked against the call's before it is written.
    status_of(unsafe {
        with_call(call, |m, a| {
            let runner_value = Runner::new(m, &config).map_err(|e| run_refused(a, e))?;
            let value = Bound {
                runner: runner_value,
                call: call as usize,
            };
            let len = size_of::<mrtr_runner>();
            if a.taken(Span::of(runner.cast_const(), len)) {
                return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
            }
            object::init(runner.cast(), len, 0, value, a)?.activate(magic::RUNNER);
            Ok(())
        })
    })
}

/// Writes the next step to `*out_step`, for `SEND` the request to `out`
/// (`out_len` bytes): a fresh leg, or the one in flight again with a fresh
/// id. Statuses: those of `mrtr_call_write_request`; `MRTR_ERR_WRONG_STATE`
/// (the call is `DONE` or `FAILED`); `MRTR_ERR_LIMIT_EXCEEDED` (the next id
/// would pass 2^53-1).
///
/// # Safety
/// `runner` must be a live runner of `call`; `out` must point to `out_len`
/// writable bytes, `out_step` to a writable `mrtr_step`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_runner_next(
    runner: *mut mrtr_runner,
    call: *mut mrtr_call,
    out: *mut u8,
    out_len: usize,
    out_step: *mut mrtr_step,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    unsafe { runner_step(runner, call, Op::Next(out, out_len, out_step)) }
}

/// What a runner step export asks of [`runner_step`].
enum Op {
    /// `mrtr_runner_next`: `out`, `out_len`, `out_step`.
    Next(*mut u8, usize, *mut mrtr_step),
    /// `mrtr_runner_received`: `msg`, `len`, `out_event`, `out_again`.
    Received(*const u8, usize, *mut mrtr_event, *mut bool),
    /// `mrtr_runner_answered`: `index`, `reply`.
    Answered(usize, Reply),
}

/// The one body of the runner's step exports: the runner and its call
/// attached once, then the step `op` names.
///
/// # Safety
/// As the export `op` names.
unsafe fn runner_step(runner: *mut mrtr_runner, call: *mut mrtr_call, op: Op) -> mrtr_status {
    // SAFETY: caller contract; every pointer goes through `a`.
    status_of(unsafe {
        with_runner(runner, call, |r, m, a| match op {
            Op::Next(out, out_len, out_step) => {
                let out_step = a.out(out_step)?;
                let out = a.out_buf(out, out_len)?;
                let step = match r.next(m, out) {
                    Err(RunError::Call(mrtr_core::client::CallError::BufferTooSmall {
                        needed,
                    })) => {
                        let mut s = mrtr_step::of(mrtr_step_kind::MRTR_STEP_SEND);
                        s.len = needed;
                        out_step.write(s);
                        return Err(mrtr_status::MRTR_ERR_BUFFER_TOO_SMALL);
                    }
                    step => step.map_err(|e| run_refused(a, e))?,
                };
                out_step.write(step_of(step));
                Ok(())
            }
            Op::Received(msg, len, out_event, out_again) => {
                let msg = a.bytes(msg, len)?;
                let out_event = a.out(out_event)?;
                let out_again = a.out(out_again)?;
                let (ev, again) = r.received(m, msg).map_err(|e| run_refused(a, e))?;
                out_event.write(machine_event(msg, &ev));
                out_again.write(again);
                Ok(())
            }
            Op::Answered(index, reply) => {
                r.answered(m, index, reply).map_err(|e| run_refused(a, e))
            }
        })
    })
}

/// The C step for a core step.
fn step_of(step: Step) -> mrtr_step {
    use mrtr_step_kind as K;
    match step {
        Step::Send { len } => mrtr_step {
            len,
            ..mrtr_step::of(K::MRTR_STEP_SEND)
        },
        Step::Ask { index, kind } => mrtr_step {
            index,
            input_kind: kind.into(),
            ..mrtr_step::of(K::MRTR_STEP_ASK)
        },
        Step::Wait(wait_ms) => mrtr_step {
            wait_ms,
            ..mrtr_step::of(K::MRTR_STEP_WAIT)
        },
        Step::Done(o) => mrtr_step {
            status: match o {
                Outcome::Complete => mrtr_status::MRTR_OK,
                Outcome::RpcError | Outcome::TaskFailed => mrtr_status::MRTR_ERR_RPC_ERROR,
                Outcome::TaskCancelled => mrtr_status::MRTR_ERR_ABORTED,
            },
            ..mrtr_step::of(K::MRTR_STEP_DONE)
        },
    }
}

/// Feeds a message received after `SEND` (as `mrtr_call_feed`, event to
/// `*out_event`); `*out_again`: it was unrelated, pass the next message.
/// `MRTR_ERR_LIMIT_EXCEEDED`: more than `max_unrelated` in a row.
///
/// # Safety
/// `runner` must be a live runner of `call`; `msg` must point to `len`
/// readable bytes; `out_event` and `out_again` to writable values.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_runner_received(
    runner: *mut mrtr_runner,
    call: *mut mrtr_call,
    msg: *const u8,
    len: usize,
    out_event: *mut mrtr_event,
    out_again: *mut bool,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    unsafe { runner_step(runner, call, Op::Received(msg, len, out_event, out_again)) }
}

/// Reports what the app did about input `index` after `ASK`: `reply` is a
/// `MRTR_CB_*` value. `MRTR_ERR_ABORTED`: `MRTR_CB_ABORT`, a refusal of a
/// sampling or roots input, or an error answer; `MRTR_ERR_UNANSWERED_INPUT`:
/// `MRTR_CB_ANSWERED` without an answer.
///
/// # Safety
/// `runner` must be a live runner of `call`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_runner_answered(
    runner: *mut mrtr_runner,
    call: *mut mrtr_call,
    index: usize,
    reply: i32,
) -> mrtr_status {
    let reply = match reply {
        MRTR_CB_ANSWERED => Reply::Answered,
        MRTR_CB_DECLINE => Reply::Decline,
        MRTR_CB_CANCEL => Reply::Cancel,
        _ => Reply::Abort,
    };
    // SAFETY: forwarded contract.
    unsafe { runner_step(runner, call, Op::Answered(index, reply)) }
}

/// Runs `call` to its end over the `mrtr_runner_*` steps: each request is
/// written at the start of `buf` (`buf_len` bytes: enough for any run is
/// `mrtr_call_request_size_max` plus `max_message_bytes` of the call's
/// limits) and the answer received after it; `cb` does the
/// I/O and answers the inputs. At `DONE`, `*out_event` (spans into `buf`)
/// is the last message and the status the step's (`MRTR_OK`;
/// `MRTR_ERR_RPC_ERROR`: a `-32022` may go to `mrtr_version_retry`;
/// `MRTR_ERR_ABORTED`: task cancelled). Else the first step's error, or
/// `MRTR_ERR_ABORTED` (a callback stopped the run), `MRTR_ERR_UNANSWERED_INPUT`
/// (no callback for a kind), `MRTR_ERR_BUFFER_TOO_SMALL` (a request or a
/// message did not fit: the size needed goes to `cb->out_needed`). The
/// call's phase tells where it stopped.
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
    status_of((|| {
        // SAFETY: caller contract (live handle); every pointer is checked as
        // it is taken: the event and the buffer lie outside the workspace and
        // apart, the callbacks outside both.
        let (out_event, cb, transport, needed) = unsafe {
            with_call(call, |_, a| {
                let out_event = a.out(out_event)?;
                let cb = *a.reference(cb)?;
                let transport = cb.transport.ok_or(mrtr_status::MRTR_ERR_NULL_POINTER)?;
                a.out_raw(buf, buf_len)?;
                let needed = a.out_opt(cb.out_needed)?;
                Ok((out_event, cb, transport, needed))
            })
        }?;
        let mut last = mrtr_event::empty(mrtr_event_kind::MRTR_EVENT_UNRELATED);
        let mut run = Run {
            call,
            cb: &cb,
            transport,
            user,
            buf: (buf, buf_len),
            need: 0,
            last: &mut last,
        };
        // SAFETY: forwarded contract; every pointer was checked above.
        let (res, need) = (unsafe { run.drive() }, run.need);
        match res {
            Ok(st) => {
                out_event.write(last);
                let why = match last.kind {
                    mrtr_event_kind::MRTR_EVENT_RPC_ERROR => c"RpcError",
                    mrtr_event_kind::MRTR_EVENT_TASK_FAILED => c"TaskFailed",
                    mrtr_event_kind::MRTR_EVENT_TASK_CANCELLED => c"TaskCancelled",
                    _ => c"",
                };
                if st != mrtr_status::MRTR_OK {
                    // SAFETY: caller contract (live handle).
                    unsafe { note_reason(call, why) };
                }
                result_of(st)
            }
            Err(mrtr_status::MRTR_ERR_BUFFER_TOO_SMALL) => {
                needed.put(need);
                Err(mrtr_status::MRTR_ERR_BUFFER_TOO_SMALL)
            }
            Err(e) => Err(e),
        }
    })())
}

/// A blocking run ([`mrtr_run`]): its arguments, checked, and what it
/// reports: with `MRTR_ERR_BUFFER_TOO_SMALL`, the buffer length needed
/// (`need`); at its end, the last message's event (`last`).
struct Run<'c> {
    call: *mut mrtr_call,
    cb: &'c mrtr_run_callbacks,
    transport: TransportFn,
    user: *mut c_void,
    buf: (*mut u8, usize),
    need: usize,
    last: &'c mut mrtr_event,
}

impl Run<'_> {
    /// The loop of [`mrtr_run`]: returns the `DONE` step's status, or the
    /// first error (`last` is then of no use).
    ///
    /// # Safety
    /// As [`mrtr_run`], every pointer checked.
    unsafe fn drive(&mut self) -> Result<mrtr_status, mrtr_status> {
        let (call, cb, (buf, buf_len)) = (self.call, self.cb, self.buf);
        let mut r = mrtr_runner { _opaque: [0; 14] };
        let r = &raw mut r;
        // SAFETY: `r` is this frame's; the call is live (caller contract).
        let st = unsafe { mrtr_runner_init(r, call, cb.first_id, cb.id_step, cb.max_unrelated) };
        result_of(st)?;
        loop {
            let mut step = mrtr_step::of(mrtr_step_kind::MRTR_STEP_DONE);
            // SAFETY: `buf` was checked against the call; nothing borrows it.
            let st = unsafe { mrtr_runner_next(r, call, buf, buf_len, &mut step) };
            if st == mrtr_status::MRTR_ERR_BUFFER_TOO_SMALL {
                self.need = step.len;
            }
            result_of(st)?;
            match step.kind {
                // SAFETY: caller contract (transport, buffer, live handle).
                mrtr_step_kind::MRTR_STEP_SEND => unsafe { self.exchange(r, step.len) }?,
                // SAFETY: caller contract (live handle, callbacks).
                mrtr_step_kind::MRTR_STEP_ASK => unsafe { self.ask(r, step) }?,
                mrtr_step_kind::MRTR_STEP_WAIT => {
                    if let Some(sleep) = cb.sleep_ms {
                        // SAFETY: a valid callback (caller contract).
                        unsafe { sleep(self.user, step.wait_ms) };
                    }
                }
                mrtr_step_kind::MRTR_STEP_DONE => return Ok(step.status),
            }
        }
    }

    /// Sends the request at the start of `buf` (its first `n` bytes) and
    /// passes what comes back to the runner until it is not unrelated; that
    /// event (spans into `buf`) goes to `last`.
    ///
    /// # Safety
    /// As [`mrtr_run`]; `n <= buf_len`; `r` a live runner of the call.
    unsafe fn exchange(&mut self, r: *mut mrtr_runner, n: usize) -> Result<(), mrtr_status> {
        let (call, (buf, buf_len)) = (self.call, self.buf);
        let resp = buf.wrapping_add(n);
        let cap = buf_len.saturating_sub(n);
        let (mut req, mut req_len) = (buf.cast_const(), n);
        loop {
            let mut resp_len = 0usize;
            // SAFETY: a valid callback (caller contract); `req` and `resp` are
            // disjoint parts of `buf`, not borrowed by Rust during the call.
            let rc = unsafe { (self.transport)(self.user, req, req_len, resp, cap, &mut resp_len) };
            (req, req_len) = (core::ptr::null(), 0);
            if rc != 0 {
                // SAFETY: caller contract (live handle).
                unsafe { note_reason(call, c"Transport") };
                return Err(mrtr_status::MRTR_ERR_ABORTED);
            }
            if resp_len > cap {
                // The message did not fit: the transport says how long it is.
                self.need = n.saturating_add(resp_len);
                // SAFETY: caller contract (live handle).
                unsafe { note_reason(call, c"MessageTooLarge") };
                return Err(mrtr_status::MRTR_ERR_BUFFER_TOO_SMALL);
            }
            let (mut again, ev) = (false, &mut *self.last);
            // SAFETY: `resp[..resp_len]` lies within `buf` (checked length).
            let st = unsafe { mrtr_runner_received(r, call, resp, resp_len, ev, &mut again) };
            result_of(st)?;
            if !again {
                ev.shift(n);
                return Ok(());
            }
        }
    }

    /// Asks the app's callback about the input of an `ASK` step and
    /// reports its reply.
    ///
    /// # Safety
    /// As [`mrtr_run`]; `r` a live runner of the call.
    unsafe fn ask(&self, r: *mut mrtr_runner, step: mrtr_step) -> Result<(), mrtr_status> {
        let (call, cb) = (self.call, self.cb);
        let mut input = core::mem::MaybeUninit::<mrtr_input>::uninit();
        // SAFETY: caller contract (live handle); `input` is this frame's.
        result_of(unsafe { mrtr_call_input_at(call, step.index, input.as_mut_ptr()) })?;
        // SAFETY: written by `mrtr_call_input_at`, which returned `MRTR_OK`.
        // Read in place (a reference, not a copy of the record).
        let input = unsafe { input.assume_init_ref() };
        use mrtr_input_kind as K;
        let f = match step.input_kind {
            K::MRTR_INPUT_ELICIT_FORM | K::MRTR_INPUT_ELICIT_URL => cb.elicit,
            K::MRTR_INPUT_SAMPLING => cb.sampling,
            K::MRTR_INPUT_ROOTS => cb.roots,
        };
        let Some(f): Option<InputFn> = f else {
            // SAFETY: caller contract (live handle).
            unsafe { note_reason(call, c"NoCallback") };
            return Err(mrtr_status::MRTR_ERR_UNANSWERED_INPUT);
        };
        // SAFETY: a valid callback (caller contract); no Rust reference to
        // the call is live while it runs, so it may call mrtr_call_*.
        let rc = unsafe { f(self.user, call, step.index, input) };
        // SAFETY: caller contract (live handle, live runner).
        result_of(unsafe { mrtr_runner_answered(r, call, step.index, rc) })
    }
}

/// `Err` for any status but `MRTR_OK`.
fn result_of(st: mrtr_status) -> Result<(), mrtr_status> {
    match st {
        mrtr_status::MRTR_OK => Ok(()),
        e => Err(e),
    }
}

/// The status of a run that stopped early.
fn run_refused(a: &mut Args, e: RunError) -> mrtr_status {
    a.refuse(run_status(&e), e.name())
}

/// The status of a run error.
fn run_status(e: &RunError) -> mrtr_status {
    match e {
        RunError::Call(e) => (*e).into(),
        RunError::BadConfig | RunError::BadLength => mrtr_status::MRTR_ERR_INVALID_ARGUMENT,
        RunError::NotRunnable(_) => mrtr_status::MRTR_ERR_WRONG_STATE,
        RunError::TooManyUnrelated => mrtr_status::MRTR_ERR_LIMIT_EXCEEDED,
        RunError::Aborted | RunError::Transport(_) => mrtr_status::MRTR_ERR_ABORTED,
        RunError::Unanswered { .. } => mrtr_status::MRTR_ERR_UNANSWERED_INPUT,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::call::{mrtr_call_answer_elicit, mrtr_call_config, mrtr_call_init};
    use crate::client::mrtr_method;
    use crate::client::{MRTR_CAP_ELICITATION_FORM, MRTR_CAP_ROOTS, MRTR_ELICIT_ACCEPT};
    use crate::types::mrtr_str;
    use std::vec;
    use std::vec::Vec;

    const ASK_FORM: &[u8] = br#"{"jsonrpc":"2.0","id":7,"result":{"resultType":"input_required","inputRequests":{"f":{"method":"elicitation/create","params":{"mode":"form","message":"m","requestedSchema":{"type":"object","properties":{}}}}},"requestState":"s"}}"#;
    const ASK_ROOTS: &[u8] = br#"{"jsonrpc":"2.0","id":7,"result":{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"}}}}"#;
    const NOTE: &[u8] = br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#;

    /// A live `tools/call` call declaring `caps`, in `ws`.
    fn call(ws: &mut Vec<u64>, caps: u32) -> *mut mrtr_call {
        let cfg = mrtr_call_config {
            method: mrtr_method::MRTR_METHOD_TOOLS_CALL as u32,
            params: mrtr_str::from_str(r#"{"name":"t"}"#),
            caps,
            ..crate::call::testing::empty_config()
        };
        let mut c = core::ptr::null_mut();
        // SAFETY: `ws` is live, 8-aligned and outlives the call's use.
        let st = unsafe { mrtr_call_init(ws.as_mut_ptr().cast(), ws.len() * 8, &cfg, &mut c) };
        assert_eq!(st, mrtr_status::MRTR_OK);
        c
    }

    /// Storage for a runner (started in place: a runner may not move).
    fn new_runner() -> mrtr_runner {
        mrtr_runner { _opaque: [0; 14] }
    }

    fn init(
        r: &mut mrtr_runner,
        c: *mut mrtr_call,
        first_id: i64,
        step: i64,
        max: u32,
    ) -> mrtr_status {
        // SAFETY: `r` and the call are live.
        unsafe { mrtr_runner_init(r, c, first_id, step, max) }
    }

    fn next(
        r: &mut mrtr_runner,
        c: *mut mrtr_call,
        out: &mut [u8],
    ) -> Result<mrtr_step, mrtr_status> {
        let mut s = mrtr_step::of(mrtr_step_kind::MRTR_STEP_DONE);
        // SAFETY: all live, apart.
        match unsafe { mrtr_runner_next(r, c, out.as_mut_ptr(), out.len(), &mut s) } {
            mrtr_status::MRTR_OK => Ok(s),
            e => Err(e),
        }
    }

    fn received(
        r: &mut mrtr_runner,
        c: *mut mrtr_call,
        msg: &[u8],
    ) -> Result<(mrtr_event_kind, bool), mrtr_status> {
        let mut ev = mrtr_event::empty(mrtr_event_kind::MRTR_EVENT_UNRELATED);
        let mut again = true;
        // SAFETY: all live, apart.
        match unsafe { mrtr_runner_received(r, c, msg.as_ptr(), msg.len(), &mut ev, &mut again) } {
            mrtr_status::MRTR_OK => Ok((ev.kind, again)),
            e => Err(e),
        }
    }

    fn answered(r: &mut mrtr_runner, c: *mut mrtr_call, index: usize, reply: i32) -> mrtr_status {
        // SAFETY: all live.
        unsafe { mrtr_runner_answered(r, c, index, reply) }
    }

    fn done(id: i64) -> Vec<u8> {
        std::format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[]}}}}"#).into_bytes()
    }

    #[test]
    fn the_steps_run_a_call_through_a_question_to_its_result() {
        let mut ws = vec![0u64; 8192];
        let c = call(&mut ws, MRTR_CAP_ELICITATION_FORM);
        let mut r = new_runner();
        assert_eq!(init(&mut r, c, 7, 2, 0), mrtr_status::MRTR_OK);
        let mut out = [0u8; 1024];
        let s = next(&mut r, c, &mut out).unwrap();
        assert_eq!(s.kind, mrtr_step_kind::MRTR_STEP_SEND);
        let req = core::str::from_utf8(&out[..s.len]).unwrap();
        assert!(req.contains(r#""id":7"#), "{req}");
        assert_eq!(
            received(&mut r, c, ASK_FORM),
            Ok((mrtr_event_kind::MRTR_EVENT_INPUT_REQUIRED, false))
        );
        let s = next(&mut r, c, &mut out).unwrap();
        assert_eq!(
            (s.kind, s.index, s.input_kind),
            (
                mrtr_step_kind::MRTR_STEP_ASK,
                0,
                mrtr_input_kind::MRTR_INPUT_ELICIT_FORM
            )
        );
        // ANSWERED without an answer is refused; then answered for real.
        assert_eq!(
            answered(&mut r, c, 0, MRTR_CB_ANSWERED),
            mrtr_status::MRTR_ERR_UNANSWERED_INPUT
        );
        // SAFETY: live call.
        let st =
            unsafe { mrtr_call_answer_elicit(c, 0, MRTR_ELICIT_ACCEPT, mrtr_str::from_str("{}")) };
        assert_eq!(st, mrtr_status::MRTR_OK);
        assert_eq!(
            answered(&mut r, c, 0, MRTR_CB_ANSWERED),
            mrtr_status::MRTR_OK
        );
        // The next leg gets the next id of the step (7 + 2).
        let s = next(&mut r, c, &mut out).unwrap();
        let req = core::str::from_utf8(&out[..s.len]).unwrap();
        assert!(
            req.contains(r#""id":9"#) && req.contains("inputResponses"),
            "{req}"
        );
        assert_eq!(
            received(&mut r, c, &done(9)),
            Ok((mrtr_event_kind::MRTR_EVENT_COMPLETE, false))
        );
        let s = next(&mut r, c, &mut out).unwrap();
        assert_eq!(
            (s.kind, s.status),
            (mrtr_step_kind::MRTR_STEP_DONE, mrtr_status::MRTR_OK)
        );
    }

    #[test]
    fn a_declined_elicitation_is_answered_decline_and_a_declined_root_aborts() {
        let mut ws = vec![0u64; 8192];
        let c = call(&mut ws, MRTR_CAP_ELICITATION_FORM);
        let mut r = new_runner();
        assert_eq!(init(&mut r, c, 7, 1, 0), mrtr_status::MRTR_OK);
        let mut out = [0u8; 1024];
        next(&mut r, c, &mut out).unwrap();
        received(&mut r, c, ASK_FORM).unwrap();
        next(&mut r, c, &mut out).unwrap();
        assert_eq!(
            answered(&mut r, c, 0, MRTR_CB_DECLINE),
            mrtr_status::MRTR_OK
        );
        let s = next(&mut r, c, &mut out).unwrap();
        let req = core::str::from_utf8(&out[..s.len]).unwrap();
        assert!(req.contains(r#""action":"decline""#), "{req}");

        let mut ws = vec![0u64; 8192];
        let c = call(&mut ws, MRTR_CAP_ROOTS);
        let mut r = new_runner();
        assert_eq!(init(&mut r, c, 7, 1, 0), mrtr_status::MRTR_OK);
        next(&mut r, c, &mut out).unwrap();
        received(&mut r, c, ASK_ROOTS).unwrap();
        let s = next(&mut r, c, &mut out).unwrap();
        assert_eq!(s.input_kind, mrtr_input_kind::MRTR_INPUT_ROOTS);
        assert_eq!(
            answered(&mut r, c, 0, MRTR_CB_DECLINE),
            mrtr_status::MRTR_ERR_ABORTED
        );
        assert_eq!(answered(&mut r, c, 0, 42), mrtr_status::MRTR_ERR_ABORTED);
    }

    #[test]
    fn more_unrelated_messages_than_max_unrelated_stop_the_run() {
        let mut ws = vec![0u64; 8192];
        let c = call(&mut ws, 0);
        let mut r = new_runner();
        assert_eq!(init(&mut r, c, 0, 0, 2), mrtr_status::MRTR_OK);
        let mut out = [0u8; 1024];
        next(&mut r, c, &mut out).unwrap();
        assert_eq!(
            received(&mut r, c, NOTE),
            Ok((mrtr_event_kind::MRTR_EVENT_UNRELATED, true))
        );
        assert_eq!(
            received(&mut r, c, NOTE),
            Ok((mrtr_event_kind::MRTR_EVENT_UNRELATED, true))
        );
        assert_eq!(
            received(&mut r, c, NOTE),
            Err(mrtr_status::MRTR_ERR_LIMIT_EXCEEDED)
        );
    }

    #[test]
    fn a_state_only_round_is_a_wait_then_a_resend_with_a_fresh_id() {
        let mut ws = vec![0u64; 8192];
        let c = call(&mut ws, 0);
        let mut r = new_runner();
        assert_eq!(init(&mut r, c, 1, 1, 0), mrtr_status::MRTR_OK);
        let mut out = [0u8; 1024];
        next(&mut r, c, &mut out).unwrap();
        let state_only = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"s"}}"#;
        assert_eq!(
            received(&mut r, c, state_only),
            Ok((mrtr_event_kind::MRTR_EVENT_RETRY_AFTER, false))
        );
        let s = next(&mut r, c, &mut out).unwrap();
        assert_eq!((s.kind, s.wait_ms), (mrtr_step_kind::MRTR_STEP_WAIT, 50));
        let s = next(&mut r, c, &mut out).unwrap();
        assert_eq!(s.kind, mrtr_step_kind::MRTR_STEP_SEND);
        assert!(core::str::from_utf8(&out[..s.len])
            .unwrap()
            .contains(r#""id":2"#));
    }

    #[test]
    fn a_short_buffer_reports_the_bytes_needed_and_the_run_goes_on() {
        let mut ws = vec![0u64; 8192];
        let c = call(&mut ws, 0);
        let mut r = new_runner();
        assert_eq!(init(&mut r, c, 1, 1, 0), mrtr_status::MRTR_OK);
        let mut small = [0u8; 8];
        let mut s = mrtr_step::of(mrtr_step_kind::MRTR_STEP_DONE);
        // SAFETY: all live, apart.
        let st = unsafe { mrtr_runner_next(&mut r, c, small.as_mut_ptr(), 8, &mut s) };
        assert_eq!(st, mrtr_status::MRTR_ERR_BUFFER_TOO_SMALL);
        assert_eq!(s.kind, mrtr_step_kind::MRTR_STEP_SEND);
        let mut out = vec![0u8; s.len];
        let s2 = next(&mut r, c, &mut out).unwrap();
        assert_eq!((s2.kind, s2.len), (mrtr_step_kind::MRTR_STEP_SEND, s.len));
        assert!(core::str::from_utf8(&out).unwrap().contains(r#""id":1"#));
    }

    #[test]
    fn a_runner_is_checked_like_every_handle() {
        let mut ws = vec![0u64; 8192];
        let c = call(&mut ws, 0);
        let mut out = [0u8; 256];
        // Never started: refused.
        let mut r = new_runner();
        assert_eq!(
            next(&mut r, c, &mut out).err(),
            Some(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)
        );
        // A bad configuration writes nothing.
        assert_eq!(
            init(&mut r, c, 0, -1, 0),
            mrtr_status::MRTR_ERR_INVALID_ARGUMENT
        );
        assert_eq!(
            init(&mut r, c, 1 << 53, 1, 0),
            mrtr_status::MRTR_ERR_INVALID_ARGUMENT
        );
        assert!(r._opaque.iter().all(|w| *w == 0));
        // A runner inside the call's workspace is refused before it is written.
        let inside = ws.as_mut_ptr().wrapping_add(4000).cast::<mrtr_runner>();
        // SAFETY: refused before any write (the span overlaps the call).
        let st = unsafe { mrtr_runner_init(inside, c, 0, 0, 0) };
        assert_eq!(st, mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
        // A NULL handle.
        // SAFETY: refused before any read.
        let st = unsafe { mrtr_runner_answered(core::ptr::null_mut(), c, 0, 0) };
        assert_eq!(st, mrtr_status::MRTR_ERR_NULL_POINTER);
        // A copied runner fails the own-address check.
        assert_eq!(init(&mut r, c, 0, 0, 0), mrtr_status::MRTR_OK);
        let mut copy = mrtr_runner { _opaque: [0; 14] };
        // SAFETY: both live, apart; copied untyped as C's memcpy does.
        unsafe { core::ptr::copy_nonoverlapping(&raw const r, &raw mut copy, 1) };
        assert_eq!(
            next(&mut copy, c, &mut out).err(),
            Some(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)
        );
        assert_eq!(
            next(&mut r, c, &mut out).map(|s| s.kind),
            Ok(mrtr_step_kind::MRTR_STEP_SEND)
        );
        // The output may not overlap the runner.
        let rp = (&raw mut r).cast::<u8>();
        let mut s = mrtr_step::of(mrtr_step_kind::MRTR_STEP_DONE);
        // SAFETY: refused before any write.
        let st = unsafe { mrtr_runner_next(&raw mut r, c, rp, 16, &mut s) };
        assert_eq!(st, mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
    }
}
