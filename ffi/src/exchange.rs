//! What calls and tasks share at the C boundary: capabilities, phases, the
//! input and answer shapes, events, failures, and the mapping of the
//! core's `CallError` onto statuses.

use core::ffi::{c_char, CStr};

use mrtr_core::client::call::{AnswerError, ParamsError, SaveError, SaveInvariant};
use mrtr_core::client::task::TaskEvent;
use mrtr_core::client::{Answer, CallError, Event, Machine, MachineEvent, Phase};
use mrtr_core::json::JsonStr;
use mrtr_core::wire::{
    ClientCapabilities, ElicitAction, InputKind, InputRequest, Root, TaskDialect, TaskStatus,
    WireError,
};

use crate::abi::{finish_output, Args, Out, Take, Views};
use crate::mrtr_status;
use crate::names;
use crate::types::{mrtr_span, mrtr_str};

// ---------------------------------------------------------------- capabilities

/// Capability bit: form-mode elicitation (`elicitation.form`).
pub const MRTR_CAP_ELICITATION_FORM: u32 = 1;
/// Capability bit: URL-mode elicitation (`elicitation.url`).
pub const MRTR_CAP_ELICITATION_URL: u32 = 1 << 1;
/// Capability bit: sampling (`sampling`).
pub const MRTR_CAP_SAMPLING: u32 = 1 << 2;
/// Capability bit: sampling with tools (`sampling.tools`; implies sampling).
pub const MRTR_CAP_SAMPLING_TOOLS: u32 = 1 << 3;
/// Capability bit: sampling with context inclusion (`sampling.context`;
/// implies sampling).
pub const MRTR_CAP_SAMPLING_CONTEXT: u32 = 1 << 4;
/// Capability bit: roots (`roots`).
pub const MRTR_CAP_ROOTS: u32 = 1 << 5;
/// Capability bit: the Tasks extension
/// (`extensions["io.modelcontextprotocol/tasks"]`).
pub const MRTR_CAP_TASKS: u32 = 1 << 6;
/// Every capability bit mrtr knows; other bits are
/// `MRTR_ERR_INVALID_ARGUMENT`.
pub const MRTR_CAP_ALL: u32 = (1 << 7) - 1;

const _: () = {
    use ClientCapabilities as C;
    assert!(MRTR_CAP_ELICITATION_FORM == C::BIT_ELICITATION_FORM);
    assert!(MRTR_CAP_ELICITATION_URL == C::BIT_ELICITATION_URL);
    assert!(MRTR_CAP_SAMPLING == C::BIT_SAMPLING);
    assert!(MRTR_CAP_SAMPLING_TOOLS == C::BIT_SAMPLING_TOOLS);
    assert!(MRTR_CAP_SAMPLING_CONTEXT == C::BIT_SAMPLING_CONTEXT);
    assert!(MRTR_CAP_ROOTS == C::BIT_ROOTS);
    assert!(MRTR_CAP_TASKS == C::BIT_TASKS);
    assert!(MRTR_CAP_ALL == C::ALL_BITS);
};

/// Reads a capability mask (the core's bits and implication rule); unknown
/// bits are a caller error.
pub(crate) fn caps_from_bits(bits: u32) -> Result<ClientCapabilities, mrtr_status> {
    ClientCapabilities::from_bits(bits).ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)
}

// ---------------------------------------------------------------------- phases

/// Where a call or task is in its flow.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum mrtr_phase {
    /// The next request can be written.
    MRTR_PHASE_READY = 1,
    /// A request is in flight: feed what the transport receives.
    MRTR_PHASE_SENT = 2,
    /// The server asked questions: answer every input.
    MRTR_PHASE_ANSWERING = 3,
    /// Finished: a result, a JSON-RPC error, a task handoff, or (tasks) a
    /// failed or cancelled task.
    MRTR_PHASE_DONE = 4,
    /// Ended by an error; `_failure` tells which.
    MRTR_PHASE_FAILED = 5,
}

pub(crate) fn phase_of(p: Phase) -> mrtr_phase {
    match p {
        Phase::Ready => mrtr_phase::MRTR_PHASE_READY,
        Phase::Sent => mrtr_phase::MRTR_PHASE_SENT,
        Phase::Answering => mrtr_phase::MRTR_PHASE_ANSWERING,
        Phase::Done => mrtr_phase::MRTR_PHASE_DONE,
        Phase::Failed => mrtr_phase::MRTR_PHASE_FAILED,
    }
}

// ---------------------------------------------------------------------- inputs

/// The kind of an input request.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum mrtr_input_kind {
    /// `elicitation/create` in form mode: show `requested_schema` as a form
    /// (`mrtr_form_*`), answer with `mrtr_*_answer_elicit`.
    MRTR_INPUT_ELICIT_FORM = 1,
    /// `elicitation/create` in URL mode: ask consent to open `url`
    /// (`mrtr_url_consent`), answer with `mrtr_*_answer_elicit`, no content.
    MRTR_INPUT_ELICIT_URL = 2,
    /// `sampling/createMessage`: run `params` through an LLM, answer with
    /// `mrtr_*_answer_json` (a `CreateMessageResult`).
    MRTR_INPUT_SAMPLING = 3,
    /// `roots/list`: answer with `mrtr_*_answer_roots`.
    MRTR_INPUT_ROOTS = 4,
}

fn input_kind(k: InputKind) -> mrtr_input_kind {
    match k {
        InputKind::ElicitForm => mrtr_input_kind::MRTR_INPUT_ELICIT_FORM,
        InputKind::ElicitUrl => mrtr_input_kind::MRTR_INPUT_ELICIT_URL,
        InputKind::Sampling => mrtr_input_kind::MRTR_INPUT_SAMPLING,
        InputKind::Roots => mrtr_input_kind::MRTR_INPUT_ROOTS,
    }
}

/// Text field of an input: its key. Also the bit in `mrtr_input.escaped`.
pub const MRTR_TEXT_KEY: u32 = 1;
/// Text field of an input: the elicitation message.
pub const MRTR_TEXT_MESSAGE: u32 = 1 << 1;
/// Text field of an input: the URL of a URL-mode elicitation.
pub const MRTR_TEXT_URL: u32 = 1 << 2;
/// Text field of an input: the sampling request's `systemPrompt`.
pub const MRTR_TEXT_SYSTEM_PROMPT: u32 = 1 << 3;

/// One input request of the current round, as views into the call's (or
/// task's) workspace, valid until the next call that mutates that object.
///
/// Text fields (`key`, `message`, `url`, `system_prompt`) are the text
/// itself when the server wrote them without JSON escapes. When it used
/// escapes (`\n`, `\"`, `\u00e9`, ...) the view holds the escaped JSON text
/// and the field's `MRTR_TEXT_*` bit is set in `escaped`: get the decoded
/// text with `mrtr_call_input_text`. Absent fields
/// are empty (NULL, 0).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_input {
    /// What is asked.
    pub kind: mrtr_input_kind,
    /// The server's key for this input.
    pub key: mrtr_str,
    /// Elicitations: the message for the user.
    pub message: mrtr_str,
    /// URL mode: the URL to open after consent.
    pub url: mrtr_str,
    /// Form mode: the `requestedSchema` object, raw JSON.
    pub requested_schema: mrtr_str,
    /// Sampling: the whole `params` object, raw JSON.
    pub params: mrtr_str,
    /// Sampling: `systemPrompt`, when present.
    pub system_prompt: mrtr_str,
    /// Sampling: `maxTokens`.
    pub max_tokens: u64,
    /// `MRTR_TEXT_*` bits of the text fields that hold escaped JSON text.
    pub escaped: u32,
    /// Sampling: the request offers tools (`tools` present).
    pub has_tools: bool,
    /// Sampling: `includeContext` asks for more than `"none"`.
    pub wants_context: bool,
    /// Sampling: `systemPrompt` is present.
    pub has_system_prompt: bool,
    /// This input already has an answer.
    pub answered: bool,
}

/// One root for `mrtr_*_answer_roots`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_root {
    /// A `file://` URI (checked: see `MRTR_ERR_INVALID_VALUE`).
    pub uri: mrtr_str,
    /// Display name; `{NULL, 0}` for none (an empty non-NULL string is sent
    /// as `""`).
    pub name: mrtr_str,
}

impl Views for mrtr_root {
    type Read<'a> = Root<'a>;

    fn read<'a>(&self, take: &mut Take<'_, 'a>) -> Result<Root<'a>, mrtr_status> {
        Ok(Root {
            uri: take.str(self.uri)?,
            name: take.str_opt(self.name)?,
        })
    }
}

/// Most roots one answer may carry (the answer is built on the stack).
pub const MRTR_MAX_ROOTS: usize = 32;

/// Elicitation action: the user submitted the form or confirmed.
pub const MRTR_ELICIT_ACCEPT: u32 = 1;
/// Elicitation action: the user explicitly declined.
pub const MRTR_ELICIT_DECLINE: u32 = 2;
/// Elicitation action: the user dismissed without choosing.
pub const MRTR_ELICIT_CANCEL: u32 = 3;

const _: () = assert!(MRTR_ELICIT_ACCEPT == ElicitAction::Accept as u32);
const _: () = assert!(MRTR_ELICIT_DECLINE == ElicitAction::Decline as u32);
const _: () = assert!(MRTR_ELICIT_CANCEL == ElicitAction::Cancel as u32);

fn action_of(raw: u32) -> Result<ElicitAction, mrtr_status> {
    match raw {
        MRTR_ELICIT_ACCEPT => Ok(ElicitAction::Accept),
        MRTR_ELICIT_DECLINE => Ok(ElicitAction::Decline),
        MRTR_ELICIT_CANCEL => Ok(ElicitAction::Cancel),
        _ => Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT),
    }
}

/// A JSON string as a view: the text itself, or its escaped form (and
/// `true`).
fn text_view(s: &JsonStr<'_>) -> (mrtr_str, bool) {
    match s.as_borrowed() {
        Some(t) => (mrtr_str::from_str(t), false),
        None => (mrtr_str::of_bytes(s.raw_inner()), true),
    }
}

// ----------------------------------------------------------------------- events

/// What a fed message meant.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum mrtr_event_kind {
    /// The final result (`result`). The call (task) is done.
    MRTR_EVENT_COMPLETE = 1,
    /// The server asked `input_count` questions: answer them all.
    MRTR_EVENT_INPUT_REQUIRED = 2,
    /// A state-only round: write the next request after `wait_ms`.
    MRTR_EVENT_RETRY_AFTER = 3,
    /// A JSON-RPC error response (`error_code`, `error_message`,
    /// `error_data`). The call (task) is done.
    MRTR_EVENT_RPC_ERROR = 4,
    /// The server moved the call to a task (`task_*`). The call follows it
    /// in place: `READY` for its first `tasks/get` (after the task's poll
    /// interval, `mrtr_progress.poll_ms`).
    MRTR_EVENT_TASK_CREATED = 5,
    /// Not the answer to the request in flight (another id, a notification,
    /// a server request): nothing changed, keep feeding.
    MRTR_EVENT_UNRELATED = 6,
    /// Task: wait `wait_ms`, then write the next request (`tasks/get`).
    MRTR_EVENT_TASK_POLL = 7,
    /// Task: write the next request now (seed dialect: `tasks/result`).
    MRTR_EVENT_TASK_NEXT = 8,
    /// Task: the task failed with `error_code`, `error_message`,
    /// `error_data` (Tasks extension). The task is done.
    MRTR_EVENT_TASK_FAILED = 9,
    /// Task: the task was cancelled. The task is done.
    MRTR_EVENT_TASK_CANCELLED = 10,
}

/// A task protocol.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum mrtr_task_dialect {
    /// Not a task (event fields of other kinds).
    MRTR_TASK_DIALECT_NONE = 0,
    /// The SEP draft / 2025-11-25 flow: `tasks/result` and
    /// `tasks/input_response`.
    MRTR_TASK_DIALECT_SEED = 1,
    /// The Tasks extension: `inputRequests` on `tasks/get`, `tasks/update`.
    MRTR_TASK_DIALECT_EXTENSION = 2,
}

const _: () = assert!(mrtr_task_dialect::MRTR_TASK_DIALECT_SEED as u8 == TaskDialect::Seed as u8);
const _: () =
    assert!(mrtr_task_dialect::MRTR_TASK_DIALECT_EXTENSION as u8 == TaskDialect::Extension as u8);

pub(crate) fn dialect_of(d: TaskDialect) -> mrtr_task_dialect {
    match d {
        TaskDialect::Seed => mrtr_task_dialect::MRTR_TASK_DIALECT_SEED,
        TaskDialect::Extension => mrtr_task_dialect::MRTR_TASK_DIALECT_EXTENSION,
    }
}

/// The status of a task.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum mrtr_task_status {
    /// Not a task (event fields of other kinds).
    MRTR_TASK_STATUS_NONE = 0,
    /// The server is working on it.
    MRTR_TASK_STATUS_WORKING = 1,
    /// The server waits for input.
    MRTR_TASK_STATUS_INPUT_REQUIRED = 2,
    /// Finished with a result.
    MRTR_TASK_STATUS_COMPLETED = 3,
    /// Finished with an error.
    MRTR_TASK_STATUS_FAILED = 4,
    /// Cancelled.
    MRTR_TASK_STATUS_CANCELLED = 5,
}

fn task_status_of(s: TaskStatus) -> mrtr_task_status {
    match s {
        TaskStatus::Working => mrtr_task_status::MRTR_TASK_STATUS_WORKING,
        TaskStatus::InputRequired => mrtr_task_status::MRTR_TASK_STATUS_INPUT_REQUIRED,
        TaskStatus::Completed => mrtr_task_status::MRTR_TASK_STATUS_COMPLETED,
        TaskStatus::Failed => mrtr_task_status::MRTR_TASK_STATUS_FAILED,
        TaskStatus::Cancelled => mrtr_task_status::MRTR_TASK_STATUS_CANCELLED,
    }
}

/// What a fed message meant, with spans into that message. Spans stay
/// valid for as long as the caller keeps the fed bytes unchanged; fields a
/// kind does not use are zero.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_event {
    /// What happened.
    pub kind: mrtr_event_kind,
    /// `INPUT_REQUIRED`: the number of questions.
    pub input_count: usize,
    /// `RETRY_AFTER`, `TASK_POLL`: milliseconds to wait before the next
    /// request.
    pub wait_ms: u64,
    /// `RPC_ERROR`, `TASK_FAILED`: the error code.
    pub error_code: i64,
    /// `COMPLETE`: the result object.
    pub result: mrtr_span,
    /// `RPC_ERROR`, `TASK_FAILED`: the error message (a JSON string).
    pub error_message: mrtr_span,
    /// `RPC_ERROR`, `TASK_FAILED`: the error data, raw JSON; empty when
    /// absent.
    pub error_data: mrtr_span,
    /// `TASK_CREATED`: the task id (a JSON string; to restart the task
    /// later, store it and pass it as `mrtr_call_config.task_id` with
    /// `MRTR_CALL_TASK_ID_JSON`).
    pub task_id: mrtr_span,
    /// `TASK_CREATED`: the dialect that created the task.
    pub task_dialect: mrtr_task_dialect,
    /// `TASK_CREATED`: the task's status.
    pub task_status: mrtr_task_status,
    /// `TASK_CREATED`: the server's poll hint in milliseconds, when
    /// `has_task_poll_ms`.
    pub task_poll_ms: u64,
    /// `TASK_CREATED`: the server gave a poll hint.
    pub has_task_poll_ms: bool,
}

impl mrtr_event {
    pub(crate) fn empty(kind: mrtr_event_kind) -> mrtr_event {
        mrtr_event {
            kind,
            input_count: 0,
            wait_ms: 0,
            error_code: 0,
            result: mrtr_span::default(),
            error_message: mrtr_span::default(),
            error_data: mrtr_span::default(),
            task_id: mrtr_span::default(),
            task_dialect: mrtr_task_dialect::MRTR_TASK_DIALECT_NONE,
            task_status: mrtr_task_status::MRTR_TASK_STATUS_NONE,
            task_poll_ms: 0,
            has_task_poll_ms: false,
        }
    }

    /// The same event with every span moved `by` bytes (the fed message
    /// sat `by` bytes into a larger buffer).
    pub(crate) fn shifted(mut self, by: usize) -> mrtr_event {
        self.result = self.result.shifted(by);
        self.error_message = self.error_message.shifted(by);
        self.error_data = self.error_data.shifted(by);
        self.task_id = self.task_id.shifted(by);
        self
    }
}

fn rpc_error_event(
    kind: mrtr_event_kind,
    fed: &[u8],
    code: i64,
    message: &JsonStr<'_>,
    data: Option<&[u8]>,
) -> mrtr_event {
    let mut e = mrtr_event::empty(kind);
    e.error_code = code;
    e.error_message = mrtr_span::of(fed, message.raw_token());
    e.error_data = data.map_or(mrtr_span::default(), |d| mrtr_span::of(fed, d));
    e
}

/// The C event for a call event.
pub(crate) fn call_event(fed: &[u8], ev: &Event<'_>) -> mrtr_event {
    use mrtr_event_kind as K;
    match ev {
        Event::Complete(r) => {
            let mut e = mrtr_event::empty(K::MRTR_EVENT_COMPLETE);
            e.result = mrtr_span::of(fed, r);
            e
        }
        Event::InputRequired(n) => {
            let mut e = mrtr_event::empty(K::MRTR_EVENT_INPUT_REQUIRED);
            e.input_count = *n;
            e
        }
        Event::RetryAfter(ms) => {
            let mut e = mrtr_event::empty(K::MRTR_EVENT_RETRY_AFTER);
            e.wait_ms = u64::from(*ms);
            e
        }
        Event::RpcError(r) => rpc_error_event(
            K::MRTR_EVENT_RPC_ERROR,
            fed,
            r.code,
            &r.message,
            r.data.map(|d| d.raw()),
        ),
        Event::TaskCreated(h) => {
            let mut e = mrtr_event::empty(K::MRTR_EVENT_TASK_CREATED);
            e.task_id = mrtr_span::of(fed, h.task.task_id.raw_token());
            e.task_dialect = dialect_of(h.dialect);
            e.task_status = task_status_of(h.task.status);
            e.has_task_poll_ms = h.task.poll_interval_ms.is_some();
            e.task_poll_ms = h.task.poll_interval_ms.unwrap_or(0);
            e
        }
        Event::Unrelated(_) => mrtr_event::empty(K::MRTR_EVENT_UNRELATED),
    }
}

/// The C event for what the machine read.
pub(crate) fn machine_event(fed: &[u8], ev: &MachineEvent<'_>) -> mrtr_event {
    match ev {
        MachineEvent::Call(e) => call_event(fed, e),
        MachineEvent::Task(e) => task_event(fed, e),
    }
}

/// The C event for a task event.
pub(crate) fn task_event(fed: &[u8], ev: &TaskEvent<'_>) -> mrtr_event {
    use mrtr_event_kind as K;
    match ev {
        TaskEvent::Poll(ms) => {
            let mut e = mrtr_event::empty(K::MRTR_EVENT_TASK_POLL);
            e.wait_ms = *ms;
            e
        }
        TaskEvent::Next => mrtr_event::empty(K::MRTR_EVENT_TASK_NEXT),
        TaskEvent::InputRequired(n) => {
            let mut e = mrtr_event::empty(K::MRTR_EVENT_INPUT_REQUIRED);
            e.input_count = *n;
            e
        }
        TaskEvent::Complete(r) => {
            let mut e = mrtr_event::empty(K::MRTR_EVENT_COMPLETE);
            e.result = mrtr_span::of(fed, r);
            e
        }
        TaskEvent::Failed(t) => rpc_error_event(
            K::MRTR_EVENT_TASK_FAILED,
            fed,
            t.code,
            &t.message,
            t.data.map(|d| d.raw()),
        ),
        TaskEvent::Cancelled => mrtr_event::empty(K::MRTR_EVENT_TASK_CANCELLED),
        TaskEvent::RpcError(r) => rpc_error_event(
            K::MRTR_EVENT_RPC_ERROR,
            fed,
            r.code,
            &r.message,
            r.data.map(|d| d.raw()),
        ),
        TaskEvent::Unrelated(_) => mrtr_event::empty(K::MRTR_EVENT_UNRELATED),
    }
}

// --------------------------------------------------------------------- failures

/// Why a call or task ended in `MRTR_PHASE_FAILED`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum mrtr_failure_kind {
    /// The server's message is not acceptable JSON (syntax, UTF-8, depth,
    /// size); `offset` is where reading stopped.
    MRTR_FAILURE_JSON = 1,
    /// The server's message is not JSON-RPC 2.0.
    MRTR_FAILURE_ENVELOPE = 2,
    /// The server's message breaks an MRTR rule (an undeclared input kind,
    /// `input_required` without fields, ...).
    MRTR_FAILURE_PROTOCOL = 3,
    /// The server's `inputRequests` exceed the inputs region (`needed`,
    /// `limit`).
    MRTR_FAILURE_INPUTS_TOO_LARGE = 4,
    /// The server's `requestState` exceeds the state region.
    MRTR_FAILURE_STATE_TOO_LARGE = 5,
    /// More `input_required` rounds than `max_rounds` (`limit`).
    MRTR_FAILURE_TOO_MANY_ROUNDS = 6,
    /// More consecutive state-only rounds than `max_state_only_rounds`.
    MRTR_FAILURE_TOO_MANY_STATE_ONLY_ROUNDS = 7,
    /// A task was polled more often than `max_polls`.
    MRTR_FAILURE_TOO_MANY_POLLS = 8,
    /// The application answered input `index` with error `code`.
    MRTR_FAILURE_ANSWERED_WITH_ERROR = 9,
}

/// The terminal error of a failed call or task, for logs and for deciding
/// what to tell the user.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_failure {
    /// The status the failing function returned.
    pub status: mrtr_status,
    /// The cause.
    pub kind: mrtr_failure_kind,
    /// A static NUL-terminated name of the precise cause (`"TooDeep"`,
    /// `"UndeclaredCapability"`, `"BadId"`, ...), for logs.
    pub reason: *const c_char,
    /// `JSON`: the byte offset in the message where reading stopped.
    pub offset: usize,
    /// `ANSWERED_WITH_ERROR`: the input's index.
    pub index: usize,
    /// `ANSWERED_WITH_ERROR`: the code the application gave.
    pub code: i64,
    /// `*_TOO_LARGE`: the bytes that would have been needed.
    pub needed: usize,
    /// `*_TOO_LARGE`, `TOO_MANY_*`: the configured limit.
    pub limit: u64,
}

/// The status an exported function returns for a core error.
pub(crate) fn status_of(e: &CallError) -> mrtr_status {
    use mrtr_status as S;
    use CallError as E;
    match *e {
        E::BadLimits | E::NotInitialized => S::MRTR_ERR_INVALID_ARGUMENT,
        E::WorkspaceTooSmall { .. } => S::MRTR_ERR_WORKSPACE_TOO_SMALL,
        E::BadParams(ParamsError::NotJson(j)) => j.into(),
        E::BadParams(_) => S::MRTR_ERR_INVALID_ARGUMENT,
        E::ParamsTooLarge { .. } | E::AnswersTooLarge { .. } => S::MRTR_ERR_LIMIT_EXCEEDED,
        E::WrongState(_) | E::AlreadyAnswered { .. } => S::MRTR_ERR_WRONG_STATE,
        E::IdNotFresh { .. } | E::IdOutOfRange(_) => S::MRTR_ERR_INVALID_ARGUMENT,
        E::IdsExhausted => S::MRTR_ERR_LIMIT_EXCEEDED,
        E::BufferTooSmall { .. } => S::MRTR_ERR_BUFFER_TOO_SMALL,
        E::Unanswered { .. } => S::MRTR_ERR_UNANSWERED_INPUT,
        E::UnknownKey => S::MRTR_ERR_NOT_FOUND,
        E::BadAnswer {
            error: AnswerError::NotJson(j),
            ..
        } => j.into(),
        E::BadAnswer { .. } => S::MRTR_ERR_INVALID_VALUE,
        E::Malformed(w) => w.into(),
        E::Protocol(v) => v.into(),
        E::InputsTooLarge { .. } | E::StateTooLarge { .. } => S::MRTR_ERR_LIMIT_EXCEEDED,
        E::TooManyRounds { .. } | E::TooManyStateOnlyRounds { .. } | E::TooManyPolls { .. } => {
            S::MRTR_ERR_ROUND_CAP
        }
        E::AnsweredWithError { .. } => S::MRTR_ERR_ABORTED,
        E::BadSave(
            SaveError::Version(_) | SaveError::Invariant(SaveInvariant::ProtocolVersion),
        ) => S::MRTR_ERR_UNSUPPORTED_VERSION,
        E::BadSave(_) => S::MRTR_ERR_INVALID_ARGUMENT,
        E::NotATask => S::MRTR_ERR_WRONG_STATE,
    }
}

/// The failure record of a terminal error (`None` for other errors).
pub(crate) fn failure_of(e: &CallError) -> Option<mrtr_failure> {
    use mrtr_failure_kind as K;
    let mut f = mrtr_failure {
        status: status_of(e),
        kind: K::MRTR_FAILURE_PROTOCOL,
        reason: c"".as_ptr(),
        offset: 0,
        index: 0,
        code: 0,
        needed: 0,
        limit: 0,
    };
    let (kind, reason): (K, &'static CStr) = match *e {
        CallError::Malformed(w) => {
            let kind = match w {
                WireError::Json(j) => {
                    f.offset = j.offset;
                    K::MRTR_FAILURE_JSON
                }
                WireError::Envelope(_) => K::MRTR_FAILURE_ENVELOPE,
                WireError::Protocol(_) => K::MRTR_FAILURE_PROTOCOL,
            };
            (kind, names::wire(w))
        }
        CallError::Protocol(v) => (K::MRTR_FAILURE_PROTOCOL, names::violation(v)),
        CallError::InputsTooLarge { needed, limit } => {
            f.needed = needed;
            f.limit = limit as u64;
            (K::MRTR_FAILURE_INPUTS_TOO_LARGE, c"InputsTooLarge")
        }
        CallError::StateTooLarge { needed, limit } => {
            f.needed = needed;
            f.limit = limit as u64;
            (K::MRTR_FAILURE_STATE_TOO_LARGE, c"StateTooLarge")
        }
        CallError::TooManyRounds { limit } => {
            f.limit = u64::from(limit);
            (K::MRTR_FAILURE_TOO_MANY_ROUNDS, c"TooManyRounds")
        }
        CallError::TooManyStateOnlyRounds { limit } => {
            f.limit = u64::from(limit);
            (
                K::MRTR_FAILURE_TOO_MANY_STATE_ONLY_ROUNDS,
                c"TooManyStateOnlyRounds",
            )
        }
        CallError::TooManyPolls { limit } => {
            f.limit = u64::from(limit);
            (K::MRTR_FAILURE_TOO_MANY_POLLS, c"TooManyPolls")
        }
        CallError::AnsweredWithError { index, code } => {
            f.index = index;
            f.code = code;
            (K::MRTR_FAILURE_ANSWERED_WITH_ERROR, c"AnsweredWithError")
        }
        _ => return None,
    };
    f.kind = kind;
    f.reason = reason.as_ptr();
    Some(f)
}

// ---------------------------------------------------------- calls and tasks alike

/// Fills a `mrtr_input` for input `index`.
pub(crate) fn input_view(m: &Machine<'_>, index: usize) -> Result<mrtr_input, mrtr_status> {
    let (key, req) = m.input_at(index).ok_or(mrtr_status::MRTR_ERR_NOT_FOUND)?;
    let (key_view, key_esc) = text_view(&key);
    let mut input = mrtr_input {
        kind: input_kind(req.kind()),
        key: key_view,
        message: mrtr_str::EMPTY,
        url: mrtr_str::EMPTY,
        requested_schema: mrtr_str::EMPTY,
        params: mrtr_str::EMPTY,
        system_prompt: mrtr_str::EMPTY,
        max_tokens: 0,
        escaped: if key_esc { MRTR_TEXT_KEY } else { 0 },
        has_tools: false,
        wants_context: false,
        has_system_prompt: false,
        answered: m.answer_json(index).is_some(),
    };
    let mut text = |field: u32, s: &JsonStr<'_>| -> mrtr_str {
        let (v, esc) = text_view(s);
        if esc {
            input.escaped |= field;
        }
        v
    };
    match req {
        InputRequest::ElicitForm {
            message,
            requested_schema,
        } => {
            input.message = text(MRTR_TEXT_MESSAGE, &message);
            input.requested_schema = mrtr_str::of_bytes(requested_schema.raw());
        }
        InputRequest::ElicitUrl { message, url } => {
            input.message = text(MRTR_TEXT_MESSAGE, &message);
            input.url = text(MRTR_TEXT_URL, &url);
        }
        InputRequest::Sampling {
            params,
            system_prompt,
            max_tokens,
            has_tools,
            wants_context,
        } => {
            if let Some(p) = system_prompt {
                input.system_prompt = text(MRTR_TEXT_SYSTEM_PROMPT, &p);
                input.has_system_prompt = true;
            }
            input.params = mrtr_str::of_bytes(params.raw());
            input.max_tokens = max_tokens;
            input.has_tools = has_tools;
            input.wants_context = wants_context;
        }
        InputRequest::Roots => {}
    }
    Ok(input)
}

/// The JSON string behind text `field` of input `index`.
fn input_text_field<'m>(
    m: &'m Machine<'_>,
    index: usize,
    field: u32,
) -> Result<JsonStr<'m>, mrtr_status> {
    let (key, req) = m.input_at(index).ok_or(mrtr_status::MRTR_ERR_NOT_FOUND)?;
    let found = match (field, req) {
        (MRTR_TEXT_KEY, _) => Some(key),
        (MRTR_TEXT_MESSAGE, r) => r.message(),
        (MRTR_TEXT_URL, InputRequest::ElicitUrl { url, .. }) => Some(url),
        (MRTR_TEXT_SYSTEM_PROMPT, InputRequest::Sampling { system_prompt, .. }) => system_prompt,
        (MRTR_TEXT_URL | MRTR_TEXT_SYSTEM_PROMPT, _) => None,
        _ => return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT),
    };
    found.ok_or(mrtr_status::MRTR_ERR_NOT_FOUND)
}

/// Decodes text `field` of input `index` into the caller's buffer.
///
/// # Safety
/// `out` must point to `out_len` writable bytes (unless `out_len` is 0),
/// `out_written` to a writable `size_t`; `ws` is the object's workspace.
pub(crate) unsafe fn input_text(
    m: &Machine<'_>,
    args: &mut Args,
    index: usize,
    field: u32,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> Result<(), mrtr_status> {
    // SAFETY: caller contract.
    let out_written = unsafe { args.out(out_written) }?;
    // SAFETY: caller contract; overlaps refused by the collector.
    let out = unsafe { args.out_buf(out, out_len) }?;
    let s = input_text_field(m, index, field)?;
    decode_json_str(&s, out, out_written)
}

/// Decodes a validated JSON string into `out` (the `out, out_len,
/// out_written` convention).
pub(crate) fn decode_json_str(
    s: &JsonStr<'_>,
    out: &mut [u8],
    out_written: Out<'_, usize>,
) -> Result<(), mrtr_status> {
    let needed = s.decoded_len();
    if out.len() < needed {
        return finish_output(Err(mrtr_core::json::BufferTooSmall { needed }), out_written);
    }
    let n = s.unescape_into(out).map_err(mrtr_status::from)?.len();
    finish_output(Ok(n), out_written)
}

/// Stores an answer.
pub(crate) fn answer(m: &mut Machine<'_>, index: usize, a: Answer<'_>) -> Result<(), mrtr_status> {
    m.answer_at(index, a).map_err(|e| status_of(&e))
}

/// `mrtr_*_answer_elicit`.
///
/// # Safety
/// `content` must be readable.
pub(crate) unsafe fn answer_elicit(
    m: &mut Machine<'_>,
    args: &mut Args,
    index: usize,
    action: u32,
    content: mrtr_str,
) -> Result<(), mrtr_status> {
    let action = action_of(action)?;
    // SAFETY: caller contract.
    let content = unsafe { args.bytes(content.ptr.cast(), content.len) }?;
    let content = (!content.is_empty()).then_some(content);
    answer(m, index, Answer::Elicit { action, content })
}

/// `mrtr_*_answer_json`.
///
/// # Safety
/// `json` must be readable.
pub(crate) unsafe fn answer_json(
    m: &mut Machine<'_>,
    args: &mut Args,
    index: usize,
    json: mrtr_str,
) -> Result<(), mrtr_status> {
    // SAFETY: caller contract.
    let json = unsafe { args.bytes(json.ptr.cast(), json.len) }?;
    answer(m, index, Answer::Json(json))
}

/// `mrtr_*_answer_roots`.
///
/// # Safety
/// `roots` must point to `n` readable `mrtr_root` whose strings are
/// readable.
pub(crate) unsafe fn answer_roots(
    m: &mut Machine<'_>,
    args: &mut Args,
    index: usize,
    roots: *const mrtr_root,
    n: usize,
) -> Result<(), mrtr_status> {
    // SAFETY: caller contract.
    let given = unsafe { args.list(roots, n) }?;
    if given.len() > MRTR_MAX_ROOTS {
        return Err(mrtr_status::MRTR_ERR_LIMIT_EXCEEDED);
    }
    let mut list = [Root {
        uri: "",
        name: None,
    }; MRTR_MAX_ROOTS];
    for (slot, r) in list.iter_mut().zip(given.iter()) {
        *slot = r?;
    }
    let list = list.get(..given.len()).unwrap_or(&[]);
    answer(m, index, Answer::Roots(list))
}

/// `mrtr_call_failure`.
pub(crate) fn failure(m: &Machine<'_>, out: Out<'_, mrtr_failure>) -> Result<(), mrtr_status> {
    let f = m
        .error()
        .as_ref()
        .and_then(failure_of)
        .ok_or(mrtr_status::MRTR_ERR_WRONG_STATE)?;
    out.write(f);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use mrtr_core::json::{Error as JsonError, ErrorKind};
    use mrtr_core::wire::{EnvelopeError, Violation};
    use mrtr_status as S;

    fn every_error() -> std::vec::Vec<(CallError, mrtr_status)> {
        let j = JsonError {
            kind: ErrorKind::UnexpectedByte,
            offset: 3,
        };
        std::vec![
            (CallError::BadLimits, S::MRTR_ERR_INVALID_ARGUMENT),
            (
                CallError::WorkspaceTooSmall { needed: 9 },
                S::MRTR_ERR_WORKSPACE_TOO_SMALL
            ),
            (CallError::NotInitialized, S::MRTR_ERR_INVALID_ARGUMENT),
            (
                CallError::BadParams(ParamsError::NotJson(j)),
                S::MRTR_ERR_JSON
            ),
            (
                CallError::BadParams(ParamsError::MissingTarget),
                S::MRTR_ERR_INVALID_ARGUMENT
            ),
            (
                CallError::ParamsTooLarge {
                    needed: 2,
                    limit: 1
                },
                S::MRTR_ERR_LIMIT_EXCEEDED
            ),
            (CallError::WrongState(Phase::Done), S::MRTR_ERR_WRONG_STATE),
            (
                CallError::IdNotFresh { id: 1, last: 1 },
                S::MRTR_ERR_INVALID_ARGUMENT
            ),
            (
                CallError::IdOutOfRange(i64::MAX),
                S::MRTR_ERR_INVALID_ARGUMENT
            ),
            (
                CallError::BufferTooSmall { needed: 4 },
                S::MRTR_ERR_BUFFER_TOO_SMALL
            ),
            (
                CallError::Unanswered { index: 0 },
                S::MRTR_ERR_UNANSWERED_INPUT
            ),
            (CallError::UnknownKey, S::MRTR_ERR_NOT_FOUND),
            (
                CallError::AlreadyAnswered { index: 0 },
                S::MRTR_ERR_WRONG_STATE
            ),
            (
                CallError::BadAnswer {
                    index: 0,
                    error: AnswerError::NotJson(j),
                },
                S::MRTR_ERR_JSON,
            ),
            (
                CallError::BadAnswer {
                    index: 0,
                    error: AnswerError::Wrapped,
                },
                S::MRTR_ERR_INVALID_VALUE,
            ),
            (
                CallError::AnswersTooLarge {
                    needed: 2,
                    limit: 1
                },
                S::MRTR_ERR_LIMIT_EXCEEDED
            ),
            (CallError::Malformed(WireError::Json(j)), S::MRTR_ERR_JSON),
            (
                CallError::Malformed(WireError::Envelope(EnvelopeError::BadId)),
                S::MRTR_ERR_ENVELOPE,
            ),
            (
                CallError::Protocol(Violation::UndeclaredCapability),
                S::MRTR_ERR_UNDECLARED_CAPABILITY,
            ),
            (
                CallError::Protocol(Violation::BadTask),
                S::MRTR_ERR_PROTOCOL_VIOLATION
            ),
            (
                CallError::InputsTooLarge {
                    needed: 2,
                    limit: 1
                },
                S::MRTR_ERR_LIMIT_EXCEEDED
            ),
            (
                CallError::StateTooLarge {
                    needed: 2,
                    limit: 1
                },
                S::MRTR_ERR_LIMIT_EXCEEDED
            ),
            (
                CallError::TooManyRounds { limit: 10 },
                S::MRTR_ERR_ROUND_CAP
            ),
            (
                CallError::TooManyStateOnlyRounds { limit: 3 },
                S::MRTR_ERR_ROUND_CAP
            ),
            (CallError::TooManyPolls { limit: 5 }, S::MRTR_ERR_ROUND_CAP),
            (
                CallError::AnsweredWithError { index: 1, code: -7 },
                S::MRTR_ERR_ABORTED
            ),
            (
                CallError::BadSave(SaveError::Version(9)),
                S::MRTR_ERR_UNSUPPORTED_VERSION
            ),
            (
                CallError::BadSave(SaveError::Invariant(SaveInvariant::ProtocolVersion)),
                S::MRTR_ERR_UNSUPPORTED_VERSION
            ),
            (
                CallError::BadSave(SaveError::Invariant(SaveInvariant::BadHead)),
                S::MRTR_ERR_INVALID_ARGUMENT
            ),
            (
                CallError::BadSave(SaveError::Decode),
                S::MRTR_ERR_INVALID_ARGUMENT
            ),
        ]
    }

    #[test]
    fn every_call_error_has_its_status() {
        for (e, s) in every_error() {
            assert_eq!(status_of(&e), s, "{e:?}");
        }
    }

    #[test]
    fn failure_records_exist_exactly_for_terminal_errors() {
        for (e, s) in every_error() {
            let f = failure_of(&e);
            assert_eq!(f.is_some(), e.is_terminal(), "{e:?}");
            if let Some(f) = f {
                assert_eq!(f.status, s);
                // SAFETY: `reason` is a static NUL-terminated string.
                let reason = unsafe { CStr::from_ptr(f.reason) };
                assert!(!reason.to_bytes().is_empty(), "{e:?}");
            }
        }
        let f = failure_of(&CallError::Malformed(WireError::Json(JsonError {
            kind: ErrorKind::TooDeep,
            offset: 32,
        })))
        .unwrap();
        assert_eq!(
            (f.kind, f.offset, f.status),
            (
                mrtr_failure_kind::MRTR_FAILURE_JSON,
                32,
                S::MRTR_ERR_LIMIT_EXCEEDED
            )
        );
        let f = failure_of(&CallError::AnsweredWithError { index: 2, code: -9 }).unwrap();
        assert_eq!((f.index, f.code), (2, -9));
    }

    #[test]
    fn capability_bits_round_trip_and_unknown_bits_are_refused() {
        assert_eq!(caps_from_bits(0), Ok(ClientCapabilities::default()));
        assert_eq!(caps_from_bits(MRTR_CAP_ALL), Ok(ClientCapabilities::ALL));
        let tools_only = caps_from_bits(MRTR_CAP_SAMPLING_TOOLS).unwrap();
        assert!(tools_only.sampling && tools_only.sampling_tools && !tools_only.roots);
        assert_eq!(caps_from_bits(1 << 7), Err(S::MRTR_ERR_INVALID_ARGUMENT));
        assert_eq!(caps_from_bits(u32::MAX), Err(S::MRTR_ERR_INVALID_ARGUMENT));
    }
}
