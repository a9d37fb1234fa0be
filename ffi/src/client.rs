//! The client's C vocabulary, shared by `mrtr_call_*` and `mrtr_run`:
//! capabilities, phases, inputs and answers, events, failures, and the
//! mapping of the core's `CallError` onto statuses. Every C enum here
//! mirrors a core enum whose discriminants it repeats; one `mirror!` list
//! per enum asserts that and converts.

use core::ffi::c_char;

use mrtr_core::client::call::CallMethod;
use mrtr_core::client::call::{AnswerError, ParamsError, SaveError, SaveInvariant};
use mrtr_core::client::{
    CallError, EventKind, EventRecord, FailureKind, Flow, Machine, MachineEvent, Phase, TaskRequest,
};
use mrtr_core::json::JsonStr;
use mrtr_core::wire::{
    ClientCapabilities, ElicitAction, InputKind, InputRequest, Root, TaskDialect, TaskStatus,
};

use crate::abi::{Args, Out, Take, Views};
use crate::mrtr_status;
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

crate::types::same! {
    MRTR_CAP_ELICITATION_FORM => ClientCapabilities::BIT_ELICITATION_FORM,
    MRTR_CAP_ELICITATION_URL => ClientCapabilities::BIT_ELICITATION_URL,
    MRTR_CAP_SAMPLING => ClientCapabilities::BIT_SAMPLING,
    MRTR_CAP_SAMPLING_TOOLS => ClientCapabilities::BIT_SAMPLING_TOOLS,
    MRTR_CAP_SAMPLING_CONTEXT => ClientCapabilities::BIT_SAMPLING_CONTEXT,
    MRTR_CAP_ROOTS => ClientCapabilities::BIT_ROOTS,
    MRTR_CAP_TASKS => ClientCapabilities::BIT_TASKS,
    MRTR_CAP_ALL => ClientCapabilities::ALL_BITS,
}

/// Reads a capability mask (the core's bits and implication rule); unknown
/// bits are a caller error.
pub(crate) fn caps_from_bits(bits: u32) -> Result<ClientCapabilities, mrtr_status> {
    ClientCapabilities::from_bits(bits).ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)
}

// --------------------------------------------------------------------- mirrors

/// Reads a C code (a `u32` field or argument) as the core value it names;
/// an unknown code is `MRTR_ERR_INVALID_ARGUMENT`.
pub(crate) trait FromC: Sized {
    /// The core value of `raw`.
    fn from_c(raw: u32) -> Result<Self, mrtr_status>;
}

/// One list per C mirror of a core enum, `C_VALUE = CoreVariant`: asserts
/// at compile time that each C value is the core's discriminant, and
/// emits the conversions (`From<core>` for a C enum, [`FromC`] for both).
macro_rules! mirror {
    ($core:ident => $c:ident { $($cv:ident = $rv:ident),+ $(,)? }) => {
        impl From<$core> for $c {
            fn from(v: $core) -> $c {
                match v { $($core::$rv => $c::$cv),+ }
            }
        }
        mirror!($core <= { $($c::$cv = $rv),+ });
    };
    ($core:ident <= { $($cv:path = $rv:ident),+ $(,)? }) => {
        $(const _: () = assert!($cv as u32 == $core::$rv as u32);)+
        impl FromC for $core {
            fn from_c(raw: u32) -> Result<$core, mrtr_status> {
                $(if raw == $cv as u32 { return Ok($core::$rv); })+
                Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)
            }
        }
    };
}

/// The method of a call.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum mrtr_method {
    /// `tools/call` (params need `name`).
    MRTR_METHOD_TOOLS_CALL = 1,
    /// `prompts/get` (params need `name`).
    MRTR_METHOD_PROMPTS_GET = 2,
    /// `resources/read` (params need `uri`).
    MRTR_METHOD_RESOURCES_READ = 3,
}

/// Which flow a call is in.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum mrtr_flow {
    /// The call's own request and its retries.
    MRTR_FLOW_CALL = 1,
    /// The task the call became (or restarted as).
    MRTR_FLOW_TASK = 2,
}

/// The task request written next (or in flight).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum mrtr_task_request {
    /// Not a task.
    MRTR_TASK_REQUEST_NONE = 0,
    /// `tasks/get`.
    MRTR_TASK_REQUEST_GET = 1,
    /// `tasks/result` (seed dialect).
    MRTR_TASK_REQUEST_RESULT = 2,
    /// The answers: `tasks/input_response` (seed), `tasks/update` (extension).
    MRTR_TASK_REQUEST_RESPOND = 3,
    /// `tasks/cancel`.
    MRTR_TASK_REQUEST_CANCEL = 4,
}

mirror!(Phase => mrtr_phase { MRTR_PHASE_READY = Ready, MRTR_PHASE_SENT = Sent,
    MRTR_PHASE_ANSWERING = Answering, MRTR_PHASE_DONE = Done, MRTR_PHASE_FAILED = Failed });
mirror!(InputKind => mrtr_input_kind { MRTR_INPUT_ELICIT_FORM = ElicitForm,
    MRTR_INPUT_ELICIT_URL = ElicitUrl, MRTR_INPUT_SAMPLING = Sampling, MRTR_INPUT_ROOTS = Roots });
mirror!(ElicitAction <= { MRTR_ELICIT_ACCEPT = Accept, MRTR_ELICIT_DECLINE = Decline,
    MRTR_ELICIT_CANCEL = Cancel });
mirror!(EventKind => mrtr_event_kind { MRTR_EVENT_COMPLETE = Complete,
    MRTR_EVENT_INPUT_REQUIRED = InputRequired, MRTR_EVENT_RETRY_AFTER = RetryAfter,
    MRTR_EVENT_RPC_ERROR = RpcError, MRTR_EVENT_TASK_CREATED = TaskCreated,
    MRTR_EVENT_UNRELATED = Unrelated, MRTR_EVENT_TASK_POLL = TaskPoll,
    MRTR_EVENT_TASK_NEXT = TaskNext, MRTR_EVENT_TASK_FAILED = TaskFailed,
    MRTR_EVENT_TASK_CANCELLED = TaskCancelled });
mirror!(TaskDialect => mrtr_task_dialect { MRTR_TASK_DIALECT_SEED = Seed,
    MRTR_TASK_DIALECT_EXTENSION = Extension });
mirror!(TaskStatus => mrtr_task_status { MRTR_TASK_STATUS_WORKING = Working,
    MRTR_TASK_STATUS_INPUT_REQUIRED = InputRequired, MRTR_TASK_STATUS_COMPLETED = Completed,
    MRTR_TASK_STATUS_FAILED = Failed, MRTR_TASK_STATUS_CANCELLED = Cancelled });
mirror!(FailureKind => mrtr_failure_kind { MRTR_FAILURE_JSON = Json,
    MRTR_FAILURE_ENVELOPE = Envelope, MRTR_FAILURE_PROTOCOL = Protocol,
    MRTR_FAILURE_INPUTS_TOO_LARGE = InputsTooLarge, MRTR_FAILURE_STATE_TOO_LARGE = StateTooLarge,
    MRTR_FAILURE_TOO_MANY_ROUNDS = TooManyRounds,
    MRTR_FAILURE_TOO_MANY_STATE_ONLY_ROUNDS = TooManyStateOnlyRounds,
    MRTR_FAILURE_TOO_MANY_POLLS = TooManyPolls,
    MRTR_FAILURE_ANSWERED_WITH_ERROR = AnsweredWithError });
mirror!(CallMethod => mrtr_method { MRTR_METHOD_TOOLS_CALL = ToolsCall,
    MRTR_METHOD_PROMPTS_GET = PromptsGet, MRTR_METHOD_RESOURCES_READ = ResourcesRead });
mirror!(Flow => mrtr_flow { MRTR_FLOW_CALL = Call, MRTR_FLOW_TASK = Task });
mirror!(TaskRequest => mrtr_task_request { MRTR_TASK_REQUEST_GET = Get,
    MRTR_TASK_REQUEST_RESULT = Result, MRTR_TASK_REQUEST_RESPOND = Respond,
    MRTR_TASK_REQUEST_CANCEL = Cancel });

// ---------------------------------------------------------------------- phases

/// Where a call is in its flow.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum mrtr_phase {
    /// Write the next request.
    MRTR_PHASE_READY = 1,
    /// A request is in flight: feed what arrives.
    MRTR_PHASE_SENT = 2,
    /// Answer every input.
    MRTR_PHASE_ANSWERING = 3,
    /// Finished: result, JSON-RPC error, or failed/cancelled task.
    MRTR_PHASE_DONE = 4,
    /// Ended by an error (`mrtr_call_failure`).
    MRTR_PHASE_FAILED = 5,
}

// ---------------------------------------------------------------------- inputs

/// The kind of an input request.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum mrtr_input_kind {
    /// Form elicitation: show `requested_schema` (`mrtr_form_*`), `mrtr_call_answer_elicit`.
    #[default]
    MRTR_INPUT_ELICIT_FORM = 1,
    /// URL elicitation: consent to open `url` (`mrtr_url_consent`), answer without content.
    MRTR_INPUT_ELICIT_URL = 2,
    /// Sampling: answer a `CreateMessageResult` (`mrtr_call_answer_json`).
    MRTR_INPUT_SAMPLING = 3,
    /// Roots: `mrtr_call_answer_roots`.
    MRTR_INPUT_ROOTS = 4,
}

/// Text field of an input: its key (also its bit in `mrtr_input.escaped`).
pub const MRTR_TEXT_KEY: u32 = 1;
/// Text field of an input: the elicitation message.
pub const MRTR_TEXT_MESSAGE: u32 = 1 << 1;
/// Text field of an input: the URL of a URL elicitation.
pub const MRTR_TEXT_URL: u32 = 1 << 2;
/// Text field of an input: the sampling `systemPrompt`.
pub const MRTR_TEXT_SYSTEM_PROMPT: u32 = 1 << 3;

/// One input request of the current round, as views into the workspace.
/// A text field the server escaped holds the JSON text and has its
/// `MRTR_TEXT_*` bit in `escaped` (decode: `mrtr_call_input_text`).
/// Absent fields are {NULL, 0}.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct mrtr_input {
    /// What is asked.
    pub kind: mrtr_input_kind,
    /// The server's key.
    pub key: mrtr_str,
    /// Elicitations: the message for the user.
    pub message: mrtr_str,
    /// URL mode: the URL to open after consent.
    pub url: mrtr_str,
    /// Form mode: `requestedSchema`, raw JSON.
    pub requested_schema: mrtr_str,
    /// Sampling: the whole `params`, raw JSON.
    pub params: mrtr_str,
    /// Sampling: `systemPrompt`.
    pub system_prompt: mrtr_str,
    /// Sampling: `maxTokens`.
    pub max_tokens: u64,
    /// `MRTR_TEXT_*` bits of the fields that hold escaped JSON text.
    pub escaped: u32,
    /// Sampling: `tools` present.
    pub has_tools: bool,
    /// Sampling: `includeContext` asks more than `"none"`.
    pub wants_context: bool,
    /// Sampling: `systemPrompt` present.
    pub has_system_prompt: bool,
    /// Already answered.
    pub answered: bool,
}

/// One root for `mrtr_call_answer_roots`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct mrtr_root {
    /// A `file://` URI (checked: `MRTR_ERR_INVALID_VALUE`).
    pub uri: mrtr_str,
    /// Display name; {NULL, 0} for none (an empty non-NULL string is sent as `""`).
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

/// Most roots one answer may carry.
pub const MRTR_MAX_ROOTS: usize = 32;

/// Elicitation action: submitted or confirmed.
pub const MRTR_ELICIT_ACCEPT: u32 = 1;
/// Elicitation action: explicitly declined.
pub const MRTR_ELICIT_DECLINE: u32 = 2;
/// Elicitation action: dismissed.
pub const MRTR_ELICIT_CANCEL: u32 = 3;

// ----------------------------------------------------------------------- events

/// What a fed message meant.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum mrtr_event_kind {
    /// The final `result`. -> DONE
    MRTR_EVENT_COMPLETE = 1,
    /// `input_count` questions. -> ANSWERING
    MRTR_EVENT_INPUT_REQUIRED = 2,
    /// State-only round: next request after `wait_ms`. -> READY
    MRTR_EVENT_RETRY_AFTER = 3,
    /// JSON-RPC error (`error_*`). -> DONE
    MRTR_EVENT_RPC_ERROR = 4,
    /// The call now follows task `task_*`. -> READY (`tasks/get` after `poll_ms`)
    MRTR_EVENT_TASK_CREATED = 5,
    /// Not the answer (another id, a notification): keep feeding. -> SENT
    MRTR_EVENT_UNRELATED = 6,
    /// Task: next request after `wait_ms`. -> READY
    MRTR_EVENT_TASK_POLL = 7,
    /// Task: next request now (seed dialect: `tasks/result`). -> READY
    MRTR_EVENT_TASK_NEXT = 8,
    /// Task failed with `error_*` (Tasks extension). -> DONE
    MRTR_EVENT_TASK_FAILED = 9,
    /// Task cancelled. -> DONE
    MRTR_EVENT_TASK_CANCELLED = 10,
}

/// A task protocol.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum mrtr_task_dialect {
    /// Not a task.
    MRTR_TASK_DIALECT_NONE = 0,
    /// SEP draft / 2025-11-25: `tasks/result`, `tasks/input_response`.
    MRTR_TASK_DIALECT_SEED = 1,
    /// Tasks extension: `inputRequests` on `tasks/get`, `tasks/update`.
    MRTR_TASK_DIALECT_EXTENSION = 2,
}

/// The status of a task.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum mrtr_task_status {
    /// Not a task.
    MRTR_TASK_STATUS_NONE = 0,
    /// `working`.
    MRTR_TASK_STATUS_WORKING = 1,
    /// `input_required`.
    MRTR_TASK_STATUS_INPUT_REQUIRED = 2,
    /// `completed`.
    MRTR_TASK_STATUS_COMPLETED = 3,
    /// `failed`.
    MRTR_TASK_STATUS_FAILED = 4,
    /// `cancelled`.
    MRTR_TASK_STATUS_CANCELLED = 5,
}

/// What a fed message meant. Spans point into the fed bytes; fields a kind
/// does not use are zero.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct mrtr_event {
    /// What happened.
    pub kind: mrtr_event_kind,
    /// `INPUT_REQUIRED`: the number of questions.
    pub input_count: usize,
    /// `RETRY_AFTER`, `TASK_POLL`: ms to wait before the next request.
    pub wait_ms: u64,
    /// `RPC_ERROR`, `TASK_FAILED`: the error code.
    pub error_code: i64,
    /// `COMPLETE`: the result object.
    pub result: mrtr_span,
    /// `RPC_ERROR`, `TASK_FAILED`: the message (a JSON string).
    pub error_message: mrtr_span,
    /// `RPC_ERROR`, `TASK_FAILED`: the data, raw JSON; empty when absent.
    pub error_data: mrtr_span,
    /// `TASK_CREATED`: the task id, a JSON string (to restart: `MRTR_CALL_TASK_ID_JSON`).
    pub task_id: mrtr_span,
    /// `TASK_CREATED`: the dialect.
    pub task_dialect: mrtr_task_dialect,
    /// `TASK_CREATED`: the task's status.
    pub task_status: mrtr_task_status,
    /// `TASK_CREATED`: the server's poll hint, ms (if `has_task_poll_ms`).
    pub task_poll_ms: u64,
    /// `TASK_CREATED`: the server gave a poll hint.
    pub has_task_poll_ms: bool,
}

impl mrtr_event {
    pub(crate) fn empty(kind: mrtr_event_kind) -> mrtr_event {
        mrtr_event {
            kind,
            ..event_of(&[], EventRecord::of(EventKind::Unrelated))
        }
    }

    /// Moves every span of the event `by` bytes, in place (the fed message
    /// sat `by` bytes into a larger buffer).
    pub(crate) fn shift(&mut self, by: usize) {
        for s in [
            &mut self.result,
            &mut self.error_message,
            &mut self.error_data,
            &mut self.task_id,
        ] {
            *s = s.shifted(by);
        }
    }
}

/// The C event for a core event record; spans into `fed`.
fn event_of(fed: &[u8], r: EventRecord<'_>) -> mrtr_event {
    let span = |b: Option<&[u8]>| b.map_or(mrtr_span::default(), |b| mrtr_span::of(fed, b));
    let task = r.task.map(|h| h.task);
    mrtr_event {
        kind: r.kind.into(),
        input_count: r.input_count,
        wait_ms: r.wait_ms,
        error_code: r.error.map_or(0, |e| e.code),
        result: span(r.result),
        error_message: span(r.error.map(|e| e.message.raw_token())),
        error_data: span(r.error.and_then(|e| e.data)),
        task_id: span(task.map(|t| t.task_id.raw_token())),
        task_dialect: r
            .task
            .map_or(mrtr_task_dialect::MRTR_TASK_DIALECT_NONE, |h| {
                h.dialect.into()
            }),
        task_status: task.map_or(mrtr_task_status::MRTR_TASK_STATUS_NONE, |t| t.status.into()),
        task_poll_ms: task.and_then(|t| t.poll_interval_ms).unwrap_or(0),
        has_task_poll_ms: task.is_some_and(|t| t.poll_interval_ms.is_some()),
    }
}

/// The C event for what the machine read.
pub(crate) fn machine_event(fed: &[u8], ev: &MachineEvent<'_>) -> mrtr_event {
    event_of(fed, ev.record())
}

// --------------------------------------------------------------------- failures

/// Why a call ended `FAILED`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum mrtr_failure_kind {
    /// Not acceptable JSON (syntax, UTF-8, depth, size); see `offset`.
    MRTR_FAILURE_JSON = 1,
    /// Not JSON-RPC 2.0.
    MRTR_FAILURE_ENVELOPE = 2,
    /// Breaks an MRTR rule (see `reason`).
    MRTR_FAILURE_PROTOCOL = 3,
    /// `inputRequests` over `max_inputs_bytes` (`needed`, `limit`).
    MRTR_FAILURE_INPUTS_TOO_LARGE = 4,
    /// `requestState` over `max_state_bytes` (`needed`, `limit`).
    MRTR_FAILURE_STATE_TOO_LARGE = 5,
    /// Over `max_rounds` (`limit`).
    MRTR_FAILURE_TOO_MANY_ROUNDS = 6,
    /// Over `max_state_only_rounds` (`limit`).
    MRTR_FAILURE_TOO_MANY_STATE_ONLY_ROUNDS = 7,
    /// Over `max_polls` (`limit`).
    MRTR_FAILURE_TOO_MANY_POLLS = 8,
    /// `mrtr_call_answer_error` on input `index` with `code`.
    MRTR_FAILURE_ANSWERED_WITH_ERROR = 9,
}

/// The terminal error of a failed call.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct mrtr_failure {
    /// The status the failing function returned.
    pub status: mrtr_status,
    /// The cause.
    pub kind: mrtr_failure_kind,
    /// Static NUL-terminated name of the precise cause, for logs
    /// (`"TooDeep"`, `"BadId"`, ...).
    pub reason: *const c_char,
    /// `JSON`: byte offset where reading stopped.
    pub offset: usize,
    /// `ANSWERED_WITH_ERROR`: the input's index.
    pub index: usize,
    /// `ANSWERED_WITH_ERROR`: the application's code.
    pub code: i64,
    /// `*_TOO_LARGE`: bytes needed.
    pub needed: usize,
    /// `*_TOO_LARGE`, `TOO_MANY_*`: the limit.
    pub limit: u64,
}

/// The status an exported function returns for a core error.
impl From<CallError> for mrtr_status {
    fn from(e: CallError) -> mrtr_status {
        use mrtr_status as S;
        use CallError as E;
        match e {
            E::BadParams(ParamsError::NotJson(j)) => j.into(),
            E::BadSave(
                SaveError::Version(_) | SaveError::Invariant(SaveInvariant::ProtocolVersion),
            ) => S::MRTR_ERR_UNSUPPORTED_VERSION,
            E::BadLimits
            | E::NotInitialized
            | E::BadParams(_)
            | E::BadSave(_)
            | E::TasksNotBuilt => S::MRTR_ERR_INVALID_ARGUMENT,
            E::IdNotFresh { .. } | E::IdOutOfRange(_) => S::MRTR_ERR_INVALID_ARGUMENT,
            E::WorkspaceTooSmall { .. } => S::MRTR_ERR_WORKSPACE_TOO_SMALL,
            E::ParamsTooLarge { .. } | E::AnswersTooLarge { .. } | E::IdsExhausted => {
                S::MRTR_ERR_LIMIT_EXCEEDED
            }
            E::InputsTooLarge { .. } | E::StateTooLarge { .. } => S::MRTR_ERR_LIMIT_EXCEEDED,
            E::WrongState(_) | E::AlreadyAnswered { .. } | E::NotATask => S::MRTR_ERR_WRONG_STATE,
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
            E::TooManyRounds { .. } | E::TooManyStateOnlyRounds { .. } | E::TooManyPolls { .. } => {
                S::MRTR_ERR_ROUND_CAP
            }
            E::AnsweredWithError { .. } => S::MRTR_ERR_ABORTED,
        }
    }
}

impl crate::abi::Args {
    /// The status of the core's refusal `e`, its name noted as the cause.
    pub(crate) fn refused(&mut self, e: CallError) -> mrtr_status {
        self.refuse(e.into(), e.name())
    }
}

/// The failure record of a terminal error (`None` for other errors).
pub(crate) fn failure_of(e: &CallError) -> Option<mrtr_failure> {
    let f = e.failure()?;
    let reason = match *e {
        CallError::Malformed(w) => w.name(),
        CallError::Protocol(v) => v.name(),
        _ => f.kind.name(),
    };
    Some(mrtr_failure {
        status: (*e).into(),
        kind: f.kind.into(),
        reason: reason.as_ptr(),
        offset: f.offset,
        index: f.index,
        code: f.code,
        needed: f.needed,
        limit: f.limit,
    })
}

// ---------------------------------------------------------------------- inputs

/// The JSON string behind text `field` (one `MRTR_TEXT_*` bit) of an input.
fn text_of<'m>(
    key: JsonStr<'m>,
    req: &InputRequest<'m>,
    field: u32,
) -> Result<Option<JsonStr<'m>>, mrtr_status> {
    Ok(match (field, req) {
        (MRTR_TEXT_KEY, _) => Some(key),
        (MRTR_TEXT_MESSAGE, r) => r.message(),
        (MRTR_TEXT_URL, InputRequest::ElicitUrl { url, .. }) => Some(*url),
        (MRTR_TEXT_SYSTEM_PROMPT, InputRequest::Sampling { system_prompt, .. }) => *system_prompt,
        (MRTR_TEXT_URL | MRTR_TEXT_SYSTEM_PROMPT, _) => None,
        _ => return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT),
    })
}

/// Writes input `index` to `out` as views into the machine's workspace
/// (filled in place: the record's defaults, then the kind's fields);
/// `out` is untouched when there is no such input.
pub(crate) fn input_view(
    m: &Machine<'_>,
    index: usize,
    out: Out<'_, mrtr_input>,
) -> Result<(), mrtr_status> {
    let (key, req) = m.input_at(index).ok_or(mrtr_status::MRTR_ERR_NOT_FOUND)?;
    let mut escaped = 0;
    let mut text = |field: u32, s: JsonStr<'_>| mrtr_str::json(Some(s), &mut escaped, field);
    let v = out.put(mrtr_input {
        kind: req.kind().into(),
        key: text(MRTR_TEXT_KEY, key),
        ..Default::default()
    });
    match req {
        InputRequest::ElicitForm {
            message,
            requested_schema,
        } => {
            v.message = text(MRTR_TEXT_MESSAGE, message);
            v.requested_schema = mrtr_str::of_bytes(requested_schema.raw());
        }
        InputRequest::ElicitUrl { message, url } => {
            v.message = text(MRTR_TEXT_MESSAGE, message);
            v.url = text(MRTR_TEXT_URL, url);
        }
        InputRequest::Sampling {
            params,
            system_prompt,
            max_tokens,
            has_tools,
            wants_context,
        } => {
            v.params = mrtr_str::of_bytes(params.raw());
            if let Some(p) = system_prompt {
                v.system_prompt = text(MRTR_TEXT_SYSTEM_PROMPT, p);
                v.has_system_prompt = true;
            }
            v.max_tokens = max_tokens;
            v.has_tools = has_tools;
            v.wants_context = wants_context;
        }
        InputRequest::Roots => {}
    }
    v.escaped = escaped;
    // No input of the round is answered yet (the first reads of a round):
    // no answer to look up.
    v.answered = m.answered_count() != 0 && m.answer_json(index).is_some();
    Ok(())
}

/// `mrtr_call_input_text`: decodes text `field` of input `index` into
/// `out`.
pub(crate) fn input_text(
    m: &Machine<'_>,
    a: &mut Args,
    index: usize,
    field: u32,
    out: &mut [u8],
    out_written: Out<'_, usize>,
) -> Result<(), mrtr_status> {
    let none = mrtr_status::MRTR_ERR_NOT_FOUND;
    let (key, req) = m
        .input_at(index)
        .ok_or_else(|| a.refuse(none, c"NoSuchInput"))?;
    let s = text_of(key, &req, field)
        .map_err(|s| a.refuse(s, c"UnknownField"))?
        .ok_or_else(|| a.refuse(none, c"NoSuchText"))?;
    crate::json::decode_json_str(&s, out, out_written)
}

/// `mrtr_call_answer_roots`: runs `f` on the roots, checked, on the stack.
///
/// # Safety
/// `roots` must point to `n` readable `mrtr_root` whose strings are
/// readable.
pub(crate) unsafe fn with_roots(
    args: &mut Args,
    roots: *const mrtr_root,
    n: usize,
    f: impl FnOnce(&[Root<'_>]) -> Result<(), CallError>,
) -> Result<(), mrtr_status> {
    // SAFETY: caller contract.
    let given = unsafe { args.list(roots, n) }?;
    let mut list = [Root {
        uri: "",
        name: None,
    }; MRTR_MAX_ROOTS];
    let list = list
        .get_mut(..n)
        .ok_or_else(|| args.refuse(mrtr_status::MRTR_ERR_LIMIT_EXCEEDED, c"TooManyRoots"))?;
    for (slot, r) in list.iter_mut().zip(given.iter()) {
        *slot = r?;
    }
    f(list).map_err(|e| args.refused(e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::ffi::CStr;
    use mrtr_core::json::{Error as JsonError, ErrorKind};
    use mrtr_core::wire::WireError;
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
            assert_eq!(mrtr_status::from(e), s, "{e:?}");
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
