//! The vocabulary every client flow shares: where a flow is ([`Phase`]),
//! what the app answers ([`Answer`]), and what feeding a message reports
//! ([`Event`] and its parts, and [`EventRecord`], one flat record for
//! either flow).

use crate::json::{JsonStr, Value};
use crate::wire::{ElicitAction, Message, Root, TaskDialect, TaskRecord, WireError};

/// Where a call (or task) is in its flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Phase {
    /// The next request can be written.
    Ready = 1,
    /// A request is in flight; feed the response.
    Sent = 2,
    /// The server asked questions; answer every key.
    Answering = 3,
    /// Finished: a result, a JSON-RPC error, a task handoff (or, for a task,
    /// cancelled / failed as reported by the server).
    Done = 4,
    /// Ended by an error (see `error()`).
    Failed = 5,
}

/// The app's answer to one input request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer<'a> {
    /// An elicitation result: `accept` with the form's content (a JSON
    /// object; none in URL mode), `decline` or `cancel` (no content).
    Elicit {
        /// What the user did.
        action: ElicitAction,
        /// The submitted form, raw JSON object (form mode `accept` only).
        content: Option<&'a [u8]>,
    },
    /// A `CreateMessageResult`, raw JSON (must be an object with `role`,
    /// `content` and `model`).
    Sampling(&'a [u8]),
    /// A `ListRootsResult` built from these roots.
    Roots(&'a [Root<'a>]),
    /// Any result as raw JSON; its kind must match the request.
    Json(&'a [u8]),
    /// The app cannot or will not answer: the call ends locally with
    /// [`CallError::AnsweredWithError`](super::CallError::AnsweredWithError) (MRTR has no error input response).
    Error {
        /// An error code for the app's own records.
        code: i64,
    },
}

/// A JSON-RPC error response to our request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RpcError<'a> {
    /// The error code.
    pub code: i64,
    /// The error message.
    pub message: JsonStr<'a>,
    /// Optional error data.
    pub data: Option<Value<'a>>,
}

impl core::fmt::Display for RpcError<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "JSON-RPC error {}: ", self.code)?;
        self.message.write_chars(f)
    }
}

impl core::error::Error for RpcError<'_> {}

/// Bytes that are not the answer to the request in flight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unrelated<'a> {
    /// A valid message: another id's response, a notification, a request.
    Message(Message<'a>),
    /// An invalid message that names another id.
    Invalid(WireError),
}

/// A task the server created for this call: hand it to a
/// [`Task`](super::task::Task) (see `TaskConfig::from_handoff`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskHandoff<'a> {
    /// Which task protocol created it.
    pub dialect: TaskDialect,
    /// The task record (id, status, poll hint).
    pub task: TaskRecord<'a>,
}

/// What a fed response meant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event<'a> {
    /// The final result object, borrowed from the fed bytes. -> `Done`
    Complete(&'a [u8]),
    /// The server asked `n` questions. -> `Answering`
    InputRequired(usize),
    /// A state-only round: retry after this many milliseconds. -> `Ready`
    RetryAfter(u32),
    /// A JSON-RPC error response to our request. -> `Done`
    RpcError(RpcError<'a>),
    /// The server moved the call to a task. -> `Done`
    TaskCreated(TaskHandoff<'a>),
    /// Not the answer to our request; nothing changed.
    Unrelated(Unrelated<'a>),
}

/// The kind of what a fed message meant, in either flow. The values are
/// the C ABI's `mrtr_event_kind` and never change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum EventKind {
    /// The final result.
    Complete = 1,
    /// The server asked questions.
    InputRequired = 2,
    /// A state-only round: retry after a wait.
    RetryAfter = 3,
    /// A JSON-RPC error response.
    RpcError = 4,
    /// The server moved the call to a task.
    TaskCreated = 5,
    /// Not the answer to the request in flight.
    Unrelated = 6,
    /// Task: poll again after a wait.
    TaskPoll = 7,
    /// Task: write the next request now.
    TaskNext = 8,
    /// Task: the task failed.
    TaskFailed = 9,
    /// Task: the task was cancelled.
    TaskCancelled = 10,
}

impl EventKind {
    /// The kind's name, as the C ABI spells it after `MRTR_EVENT_`.
    pub const fn name(self) -> &'static str {
        match self {
            EventKind::Complete => "COMPLETE",
            EventKind::InputRequired => "INPUT_REQUIRED",
            EventKind::RetryAfter => "RETRY_AFTER",
            EventKind::RpcError => "RPC_ERROR",
            EventKind::TaskCreated => "TASK_CREATED",
            EventKind::Unrelated => "UNRELATED",
            EventKind::TaskPoll => "TASK_POLL",
            EventKind::TaskNext => "TASK_NEXT",
            EventKind::TaskFailed => "TASK_FAILED",
            EventKind::TaskCancelled => "TASK_CANCELLED",
        }
    }
}

/// An error the server reported: a JSON-RPC error response or a failed
/// task (Tasks extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorRecord<'a> {
    /// The error code.
    pub code: i64,
    /// The error message (a JSON string).
    pub message: JsonStr<'a>,
    /// The error data, raw JSON.
    pub data: Option<&'a [u8]>,
}

impl<'a> ErrorRecord<'a> {
    /// The record of an error with these parts.
    pub(crate) fn of(code: i64, message: JsonStr<'a>, data: Option<Value<'a>>) -> Self {
        ErrorRecord {
            code,
            message,
            data: data.map(|d| d.raw()),
        }
    }
}

/// What a fed message meant, in either flow, as one flat record: what a
/// C caller or a binding reads. Fields the kind does not use are zero or
/// `None`; byte slices borrow from the fed message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventRecord<'a> {
    /// What happened.
    pub kind: EventKind,
    /// `InputRequired`: the number of questions.
    pub input_count: usize,
    /// `RetryAfter`, `TaskPoll`: milliseconds to wait.
    pub wait_ms: u64,
    /// `Complete`: the result object.
    pub result: Option<&'a [u8]>,
    /// `RpcError`, `TaskFailed`: the error.
    pub error: Option<ErrorRecord<'a>>,
    /// `TaskCreated`: the task.
    pub task: Option<TaskHandoff<'a>>,
}

impl<'a> EventRecord<'a> {
    /// A record of `kind` with no fields set.
    pub const fn of(kind: EventKind) -> Self {
        EventRecord {
            kind,
            input_count: 0,
            wait_ms: 0,
            result: None,
            error: None,
            task: None,
        }
    }
}
