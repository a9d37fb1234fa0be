//! The vocabulary every client flow shares: where a flow is ([`Phase`]),
//! what the app answers ([`Answer`]), and what feeding a message reports
//! ([`Event`] and its parts).

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
    /// [`CallError::AnsweredWithError`] (MRTR has no error input response).
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
