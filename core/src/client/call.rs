//! One logical `tools/call`, `prompts/get` or `resources/read` through all
//! its legs (docs/ARCHITECTURE.md, section 4).
//!
//! ```text
//!  init(config) -> [Ready]
//!  Ready:     write_request(id, out) -> [Sent]          a fresh id every leg
//!  Sent:      feed(bytes) -> Complete(result)           -> [Done]
//!                          | TaskCreated(task)          -> [Done] (hand to a Task)
//!                          | InputRequired(n)           -> [Answering]
//!                          | RetryAfter(ms)  state only -> [Ready]
//!                          | RpcError(code, msg, data)  -> [Done]
//!                          | Unrelated(..)              (state kept)
//!             resend(id, out): same request, fresh id (transport failure)
//!  Answering: inputs() / answer(key, ..) ... last key answered -> [Ready]
//!  any terminal error -> [Failed] (see `error()`)
//! ```
//!
//! # Memory
//! A call is a plain-data [`CallSlot`] (no references, no lifetimes) plus a
//! caller-provided byte workspace of [`Call::workspace_size`] bytes, viewed
//! together as a [`Call`]. [`Call::attach`] rebuilds the view in O(1), so a C
//! shell can keep both in caller memory and reattach on every call. The
//! workspace holds these regions, each bounded by a [`CallLimits`] field:
//! - params: the request's params rendered once at init: the caller's
//!   members with `_meta` first, carrying the protocol version, the call's
//!   capabilities, the client info and the caller's other `_meta` members;
//! - inputs: the last round's `inputRequests` object, copied raw, plus a
//!   17-byte index entry per possible key (validated once, read in O(1));
//! - state: the last round's `requestState` token, quotes and escapes
//!   included, echoed byte for byte;
//! - answers: the answers to the current round, raw JSON per key (plus 6
//!   bytes of bookkeeping per possible key).
//!
//! A complete result is not copied: [`Event::Complete`] borrows it from the
//! fed bytes, [`Call::result`] finds it again in those bytes, and
//! [`Call::feed_copy`] copies it into a caller buffer (C apps that reuse
//! their receive buffer). Results can be far larger than any workspace.
//!
//! # Rules
//! - Retry = the original params + `inputResponses` (the bare results, keys
//!   written as the server spelled them) + `requestState` (only when the last
//!   round had one). A new round replaces everything of the previous one, so
//!   no answer or state leaks into a later leg, and nothing leaves the call.
//! - Ids: every leg needs an id greater than every id the call used before
//!   (and within +-(2^53-1)); responses are matched by that number id, a
//!   string id never matches. After a restore in a fresh process, seed the id
//!   source past [`Call::last_id`] (see [`Counter::after`]).
//! - A request kind the call did not declare is a protocol violation, not a
//!   prompt. `input_required` without fields, an unknown `resultType`, or a
//!   `task` result without the Tasks extension declared are violations too.
//! - Caps: `max_rounds` `input_required` results (default 10), and
//!   `max_state_only_rounds` consecutive state-only rounds (default 3, the
//!   count resets when a round asks questions) with a backoff of 50 ms
//!   doubling up to 250 ms, surfaced as [`Event::RetryAfter`].
//! - Every key must be answered before the retry; [`Answer::Error`] ends the
//!   call locally with [`CallError::AnsweredWithError`]: MRTR has no error
//!   shape for an input response (the official Python SDK raises likewise).
//!
//! # Bytes that are not the answer
//! While [`Phase::Sent`], fed bytes are the transport's candidate answer to
//! the request in flight. A well-formed message for another id, a
//! notification, a server request or an error with a `null` id is
//! [`Event::Unrelated`]. A message that fails validation is ours if its `id`
//! is ours, unrelated if it names another id, and otherwise (no readable id,
//! or not JSON at all) a transport failure: both end the call with
//! [`CallError::Malformed`]. Garbage on the connection of our request means
//! the connection is broken; an app that multiplexes many requests over one
//! stream routes by id before feeding.

use super::exchange::{self, ExLimits, Exchange, Incoming, Layout, ResultSpan};
use super::flow::{Flavor, FlowView, SaveFields, Shared, Slot};
use super::persist::{self};
use crate::json::{self, JsonStr, Object, Value, Writer};
use crate::wire::caps::write_request_meta_members;
use crate::wire::envelope::write_request_head;
use crate::wire::task::created_task;
use crate::wire::{
    classify_result, ClientCapabilities, ClientInfo, ElicitAction, Id, InputKind, Message,
    ResultOutcome, Root, TaskDialect, TaskRecord, Violation, WireError, WireLimits,
    META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION,
};

pub use super::exchange::{MAX_INPUT_REQUESTS_LIMIT, MAX_SAFE_ID};

/// Default bound of the rendered params (caller params + `_meta`): 16 KiB.
pub const DEFAULT_MAX_PARAMS_BYTES: usize = 16 * 1024;
/// Default bound of one round's `inputRequests` copy: 16 KiB.
pub const DEFAULT_MAX_INPUTS_BYTES: usize = 16 * 1024;
/// Default bound of the `requestState` token, quotes included: 4 KiB (the
/// size of a sealed state in this project's seal module).
pub const DEFAULT_MAX_STATE_BYTES: usize = 4 * 1024;
/// Default bound of one round's answers (JSON bytes, all keys): 16 KiB.
pub const DEFAULT_MAX_ANSWERS_BYTES: usize = 16 * 1024;
/// Default cap on `input_required` results per call (the Python SDK's).
pub const DEFAULT_MAX_ROUNDS: u32 = 10;
/// Default cap on consecutive state-only rounds.
pub const DEFAULT_MAX_STATE_ONLY_ROUNDS: u32 = 3;
/// Default first backoff after a state-only round.
pub const DEFAULT_BACKOFF_INITIAL_MS: u32 = 50;
/// Default ceiling of the doubling backoff.
pub const DEFAULT_BACKOFF_MAX_MS: u32 = 250;
/// Default cap on `tasks/get` requests per task (about a day at 1 s).
pub const DEFAULT_MAX_POLLS: u32 = 100_000;
/// Default poll interval when the server gives none.
pub const DEFAULT_POLL_MS: u64 = 1_000;
/// Default floor of the poll interval.
pub const DEFAULT_MIN_POLL_MS: u64 = 100;
/// Default ceiling of the poll interval.
pub const DEFAULT_MAX_POLL_MS: u64 = 60_000;

/// Every capacity and cap of a call and of the task it may become (one
/// set of limits for both flows, as `mrtr_call_limits` in C).
///
/// The largest server message a call reads is `wire.json.max_bytes`
/// ([`Self::max_message_bytes`]); the `max_*_bytes` fields here bound the
/// copies the call keeps of its parts, not the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallLimits {
    /// Limits for reading server messages (size, depth, number of input
    /// requests, key length).
    pub wire: WireLimits,
    /// Bound of the fixed request part: a call's rendered params, a task's
    /// `_meta` and id.
    pub max_params_bytes: usize,
    /// Bound of the `inputRequests` copy.
    pub max_inputs_bytes: usize,
    /// Bound of the `requestState` token copy.
    pub max_state_bytes: usize,
    /// Bound of the answers of one round (JSON bytes; the region adds 6
    /// bytes of bookkeeping per possible key).
    pub max_answers_bytes: usize,
    /// Maximum `input_required` results one call accepts.
    pub max_rounds: u32,
    /// Maximum consecutive state-only `input_required` results.
    pub max_state_only_rounds: u32,
    /// Backoff after the first state-only round, in milliseconds.
    pub backoff_initial_ms: u32,
    /// Ceiling of the doubling backoff, in milliseconds.
    pub backoff_max_ms: u32,
    /// Task flow: maximum `tasks/get` requests.
    pub max_polls: u32,
    /// Task flow: poll interval when the server gives none, in milliseconds.
    pub default_poll_ms: u64,
    /// Task flow: floor of the poll interval (a hostile hint cannot make
    /// the app busy-poll).
    pub min_poll_ms: u64,
    /// Task flow: ceiling of the poll interval.
    pub max_poll_ms: u64,
}

impl Default for CallLimits {
    fn default() -> Self {
        CallLimits {
            wire: WireLimits::default(),
            max_params_bytes: DEFAULT_MAX_PARAMS_BYTES,
            max_inputs_bytes: DEFAULT_MAX_INPUTS_BYTES,
            max_state_bytes: DEFAULT_MAX_STATE_BYTES,
            max_answers_bytes: DEFAULT_MAX_ANSWERS_BYTES,
            max_rounds: DEFAULT_MAX_ROUNDS,
            max_state_only_rounds: DEFAULT_MAX_STATE_ONLY_ROUNDS,
            backoff_initial_ms: DEFAULT_BACKOFF_INITIAL_MS,
            backoff_max_ms: DEFAULT_BACKOFF_MAX_MS,
            max_polls: DEFAULT_MAX_POLLS,
            default_poll_ms: DEFAULT_POLL_MS,
            min_poll_ms: DEFAULT_MIN_POLL_MS,
            max_poll_ms: DEFAULT_MAX_POLL_MS,
        }
    }
}

impl CallLimits {
    /// The largest server message (one JSON-RPC message, in bytes) a call
    /// reads: `wire.json.max_bytes`. A transport needs a receive buffer of
    /// at least this size to hand any acceptable message over whole.
    pub const fn max_message_bytes(&self) -> usize {
        self.wire.json.max_bytes
    }

    pub(crate) const fn layout(&self) -> Result<Layout, CallError> {
        if let Err(e) = exchange::check_wire_limits(&self.wire) {
            return Err(e);
        }
        if self.min_poll_ms > self.max_poll_ms {
            return Err(CallError::BadLimits);
        }
        match Layout::new(
            self.max_params_bytes,
            self.max_inputs_bytes,
            self.max_state_bytes,
            self.max_answers_bytes,
            self.wire.max_input_requests,
        ) {
            Some(layout) => Ok(layout),
            None => Err(CallError::BadLimits),
        }
    }

    pub(crate) fn ex(&self) -> ExLimits {
        ExLimits {
            wire: self.wire,
            max_inputs_bytes: self.max_inputs_bytes,
            max_state_bytes: self.max_state_bytes,
            max_answers_bytes: self.max_answers_bytes,
            max_rounds: self.max_rounds,
        }
    }

    /// Bytes of workspace a call or task with these limits needs: the four
    /// region bounds plus 23 bytes per possible input key (index and answer
    /// bookkeeping). With the defaults: 54,720 bytes. Saturates to
    /// `usize::MAX` for limits that cannot be laid out; `init` refuses those
    /// with [`CallError::BadLimits`]. A `const fn`, so firmware can size a
    /// `static` workspace at compile time from `const` limits.
    pub const fn workspace_size(&self) -> usize {
        match self.layout() {
            Ok(layout) => layout.total,
            Err(_) => usize::MAX,
        }
    }

    /// The layout of these limits over a workspace of `buf_len` bytes:
    /// [`CallError::BadLimits`] or [`CallError::WorkspaceTooSmall`].
    pub(crate) const fn layout_in(&self, buf_len: usize) -> Result<Layout, CallError> {
        match self.layout() {
            Ok(layout) if buf_len < layout.total => Err(CallError::WorkspaceTooSmall {
                needed: layout.total,
            }),
            other => other,
        }
    }

    /// The poll interval for a server hint (or none), clamped to
    /// `[min_poll_ms, max_poll_ms]`.
    pub fn poll_interval(&self, hint: Option<u64>) -> u64 {
        hint.unwrap_or(self.default_poll_ms)
            .clamp(self.min_poll_ms, self.max_poll_ms.max(self.min_poll_ms))
    }

    /// The backoff after the `n`-th consecutive state-only round (n >= 1):
    /// `initial * 2^(n-1)`, capped at the ceiling.
    pub fn backoff_ms(&self, n: u32) -> u32 {
        let factor = 1u32.checked_shl(n.saturating_sub(1)).unwrap_or(u32::MAX);
        self.backoff_initial_ms
            .saturating_mul(factor)
            .min(self.backoff_max_ms)
    }
}

/// The methods that carry multi round-trip requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u8)]
pub enum CallMethod {
    /// `tools/call` (params need `name`).
    #[default]
    ToolsCall = 1,
    /// `prompts/get` (params need `name`).
    PromptsGet = 2,
    /// `resources/read` (params need `uri`).
    ResourcesRead = 3,
}

impl CallMethod {
    /// The JSON-RPC method name.
    pub const fn as_str(self) -> &'static str {
        match self {
            CallMethod::ToolsCall => "tools/call",
            CallMethod::PromptsGet => "prompts/get",
            CallMethod::ResourcesRead => "resources/read",
        }
    }

    /// The method for a name, if it is one of the three.
    pub fn parse(name: &str) -> Option<Self> {
        [
            CallMethod::ToolsCall,
            CallMethod::PromptsGet,
            CallMethod::ResourcesRead,
        ]
        .into_iter()
        .find(|m| m.as_str() == name)
    }

    fn from_code(code: u8) -> Option<Self> {
        [
            CallMethod::ToolsCall,
            CallMethod::PromptsGet,
            CallMethod::ResourcesRead,
        ]
        .into_iter()
        .find(|m| *m as u8 == code)
    }

    /// The params member that names the target.
    const fn target_member(self) -> &'static str {
        match self {
            CallMethod::ToolsCall | CallMethod::PromptsGet => "name",
            CallMethod::ResourcesRead => "uri",
        }
    }
}

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

/// Why the caller's params were refused at init.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamsError {
    /// Not valid JSON.
    NotJson(json::Error),
    /// Not a JSON object.
    NotAnObject,
    /// Contains `inputResponses` or `requestState`: the call owns them.
    Reserved,
    /// `name` (tools, prompts) or `uri` (resources) missing or not a string.
    MissingTarget,
    /// `_meta` is not an object, or occurs twice.
    BadMeta,
    /// `task` is not an object, or occurs twice.
    BadTask,
    /// The task id given to a task is empty.
    BadTaskId,
    /// An extension-dialect task without the Tasks extension in `caps`.
    TasksNotDeclared,
    /// An object somewhere in the params (at any depth, `arguments`
    /// included) has a member twice: a server reading the first and one
    /// reading the last would run different calls, so none is sent.
    RepeatedMember,
    /// An object in the params has more than [`json::DEEP_MAX_MEMBERS`]
    /// members and more keys than the repeat check holds at once: servers
    /// built on mrtr refuse it, so it is not sent.
    TooManyMembers,
}

/// Why an answer was refused (the call is unchanged).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerError {
    /// The answer (or elicitation content) is not valid JSON.
    NotJson(json::Error),
    /// The answer (or elicitation content) is not a JSON object.
    NotAnObject,
    /// The answer is in the SEP draft's `{"result": ..}` wrapping; a client
    /// sends the bare result.
    Wrapped,
    /// The answer is no `ElicitResult`, `CreateMessageResult` or
    /// `ListRootsResult`.
    UnknownShape,
    /// The answer's kind does not match the request (roots for an
    /// elicitation, ...); `expected` is the kind asked.
    KindMismatch {
        /// The kind of the input request.
        expected: InputKind,
    },
    /// A form `accept` needs the form's content.
    ContentRequired,
    /// URL mode, `decline` and `cancel` carry no content.
    ContentNotAllowed,
    /// A member of the result appears more than once (`role` twice, ...):
    /// the server half refuses such an answer, so the client never sends it.
    Duplicate {
        /// The member.
        member: &'static str,
    },
    /// A member of the result is missing, mistyped or not allowed (a
    /// sampling `role` other than `assistant`/`user`, `content` that is not
    /// an object or array, ...), as the server half judges it.
    BadMember {
        /// The member.
        member: &'static str,
    },
    /// Root `index` is not a root this library would send (the rules of
    /// [`crate::client::roots::check_root_uri`]: `file://`, no dot segments,
    /// strict percent-encoding, ...). A JSON answer's `uri` is checked
    /// decoded, as the server reads it, so `\u002e\u002e` is a dot segment.
    BadRoot {
        /// Position of the root in the list.
        index: usize,
        /// What is wrong with its URI.
        error: crate::client::roots::RootUriError,
    },
}

/// Why a save could not be restored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveError {
    /// Not a save (bad magic, truncated, trailing bytes, undecodable).
    Decode,
    /// A save of another format version.
    Version(u8),
    /// A task save given to a call, or the reverse.
    WrongKind,
    /// Decodes, but describes a machine no live call or task can be in (or
    /// one that does not fit the limits it is restored under): the
    /// invariant it breaks.
    Invariant(SaveInvariant),
}

/// A region of a saved call or task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveRegion {
    /// A call's rendered params, a task's `_meta` and id.
    Head,
    /// The round's `inputRequests` copy.
    Inputs,
    /// The round's `requestState` token.
    State,
    /// The round's answers.
    Answers,
}

/// An invariant of a live call or task that a save breaks. Restore checks
/// them all, the shared ones with one function for calls and tasks, in the
/// order listed here (codes, sizes, the head, the regions, the counters,
/// the ids, the phase).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveInvariant {
    /// The phase code is not `Ready`, `Sent` or `Answering` (the phases a
    /// save can hold).
    UnknownPhase(u8),
    /// The variant code is no method (call) or dialect (task).
    UnknownVariant(u8),
    /// A task's next-request code is no [`TaskRequest`](super::task::TaskRequest).
    UnknownNextRequest(u8),
    /// A region is larger than the limits it is restored under allow (a
    /// save cannot raise them).
    TooLarge {
        /// The region.
        region: SaveRegion,
        /// Its bytes (for the answers, the JSON bytes when over
        /// `max_answers_bytes`).
        len: usize,
        /// The bound.
        limit: usize,
    },
    /// The head is not what init renders: a call's params that are not
    /// this method's params with the call's `_meta` (capabilities
    /// included), a task's `_meta` and id that do not read back.
    BadHead,
    /// The head's `_meta` names another protocol version than
    /// [`PROTOCOL_VERSION`](crate::wire::PROTOCOL_VERSION) (the only
    /// revision this library speaks), or none: restored, the call would be
    /// sent at a revision it does not speak. Checked after
    /// [`SaveInvariant::BadHead`] (the head reads back otherwise).
    ProtocolVersion,
    /// An extension-dialect task without the Tasks extension declared.
    TasksNotDeclared,
    /// The inputs region is not a non-empty `inputRequests` map as a
    /// server may send it.
    BadInputs,
    /// The inputs ask a kind the machine does not declare.
    UndeclaredInput,
    /// The state region is not one JSON string token.
    BadRequestState,
    /// The answers region is not a sequence of answer records.
    BadAnswerRecord,
    /// An answer names input `index`, which the round does not have: every
    /// answer key must be an asked key.
    AnswerKeyNotAsked {
        /// The index named.
        index: usize,
    },
    /// Input `index` is answered twice.
    DuplicateAnswer {
        /// The input.
        index: usize,
    },
    /// The answer to input `index` is one the machine would refuse.
    BadAnswer {
        /// The input.
        index: usize,
        /// Why it would be refused.
        error: AnswerError,
    },
    /// More `input_required` rounds than `max_rounds` (a live machine
    /// fails instead).
    TooManyRounds {
        /// Rounds in the save.
        rounds: u32,
        /// The limit.
        limit: u32,
    },
    /// More consecutive state-only rounds than `max_state_only_rounds`.
    TooManyStateOnlyRounds {
        /// Rounds in the save.
        count: u32,
        /// The limit.
        limit: u32,
    },
    /// A task polled more often than `max_polls` allows.
    TooManyPolls {
        /// Polls in the save.
        polls: u32,
        /// The limit.
        limit: u32,
    },
    /// Inputs or a `requestState` without a round counted for them.
    RoundNotCounted,
    /// A call's state-only streak with questions in the round (a round
    /// that asks questions ends the streak).
    StateOnlyWithInputs,
    /// An id outside +-(2^53-1).
    IdOutOfRange(i64),
    /// Saved as sent, but no request is in flight.
    SentWithoutRequest,
    /// A request in flight that is not the last id used.
    InFlightNotLast,
    /// A request in flight outside `Sent`.
    InFlightOutsideSent,
    /// A retry in flight, or ready to go, with a round only partly
    /// answered: every key must be answered before the retry.
    PartlyAnswered {
        /// Inputs answered.
        answered: usize,
        /// Inputs in the round.
        inputs: usize,
    },
    /// Saved while answering, but the round has no inputs.
    AnsweringWithoutInputs,
    /// A task answering, but its next request is not the answers.
    AnsweringOtherRequest,
    /// A task's answers ready or in flight without a round of inputs.
    RespondWithoutInputs,
    /// A task ready to write `tasks/cancel`: cancel is written at once, so
    /// a live task has it in flight or not at all.
    CancelNotSent,
}

impl core::fmt::Display for SaveRegion {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            SaveRegion::Head => "head",
            SaveRegion::Inputs => "inputs",
            SaveRegion::State => "state",
            SaveRegion::Answers => "answers",
        })
    }
}

impl core::fmt::Display for SaveInvariant {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        use SaveInvariant as I;
        match self {
            I::UnknownPhase(c) => write!(f, "unknown phase code {c}"),
            I::UnknownVariant(c) => write!(f, "unknown method or dialect code {c}"),
            I::UnknownNextRequest(c) => write!(f, "unknown next request code {c}"),
            I::TooLarge { region, len, limit } => {
                write!(f, "{region} region of {len} bytes over the limit {limit}")
            }
            I::BadHead => f.write_str("the params or task head are not what init renders"),
            I::ProtocolVersion => write!(
                f,
                "the saved _meta names no protocol version or another than {}",
                crate::wire::PROTOCOL_VERSION
            ),
            I::TasksNotDeclared => {
                f.write_str("an extension task without the Tasks extension declared")
            }
            I::BadInputs => f.write_str("the inputs are not a valid inputRequests map"),
            I::UndeclaredInput => f.write_str("the inputs ask a kind that is not declared"),
            I::BadRequestState => f.write_str("the requestState is not a JSON string"),
            I::BadAnswerRecord => f.write_str("the answers region is not answer records"),
            I::AnswerKeyNotAsked { index } => {
                write!(f, "an answer to input {index}, which was not asked")
            }
            I::DuplicateAnswer { index } => write!(f, "input {index} answered twice"),
            I::BadAnswer { index, error } => write!(f, "answer to input {index}: {error}"),
            I::TooManyRounds { rounds, limit } => {
                write!(f, "{rounds} input_required rounds, over the cap {limit}")
            }
            I::TooManyStateOnlyRounds { count, limit } => {
                write!(f, "{count} state-only rounds, over the cap {limit}")
            }
            I::TooManyPolls { polls, limit } => write!(f, "{polls} polls, over the cap {limit}"),
            I::RoundNotCounted => f.write_str("a round that was never counted"),
            I::StateOnlyWithInputs => f.write_str("a state-only streak with inputs in the round"),
            I::IdOutOfRange(id) => write!(f, "id {id} outside +-(2^53-1)"),
            I::SentWithoutRequest => f.write_str("saved as sent with no request in flight"),
            I::InFlightNotLast => f.write_str("the request in flight is not the last one sent"),
            I::InFlightOutsideSent => f.write_str("a request in flight outside the sent phase"),
            I::PartlyAnswered { answered, inputs } => write!(
                f,
                "a retry with the round partly answered: {answered} of {inputs} inputs"
            ),
            I::AnsweringWithoutInputs => {
                f.write_str("saved while answering a round without inputs")
            }
            I::AnsweringOtherRequest => f.write_str("a task answering with another request next"),
            I::RespondWithoutInputs => f.write_str("a task's answers without a round of inputs"),
            I::CancelNotSent => f.write_str("a task ready to cancel (cancel goes out at once)"),
        }
    }
}

/// Everything that can go wrong with a call or a task.
///
/// Terminal errors (see [`CallError::is_terminal`]) move the machine to
/// [`Phase::Failed`]; every other error leaves it unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallError {
    /// Limits that cannot be laid out (zero input requests, more than
    /// [`MAX_INPUT_REQUESTS_LIMIT`], a region over 4 GiB, a JSON depth under
    /// 4, a poll floor over its ceiling, overflow).
    BadLimits,
    /// The workspace is smaller than `needed` bytes.
    WorkspaceTooSmall {
        /// Bytes the workspace needs.
        needed: usize,
    },
    /// `attach` on a state that was never initialized.
    NotInitialized,
    /// The caller's params were refused.
    BadParams(ParamsError),
    /// The rendered params need `needed` bytes, over the limit.
    ParamsTooLarge {
        /// Bytes needed.
        needed: usize,
        /// The configured bound.
        limit: usize,
    },
    /// The operation is not possible in this phase.
    WrongState(Phase),
    /// The id is not greater than the last id this call used.
    IdNotFresh {
        /// The id offered.
        id: i64,
        /// The last id used.
        last: i64,
    },
    /// The id is outside +-(2^53-1).
    IdOutOfRange(i64),
    /// No id is left: the next one would pass 2^53-1 (ids never wrap).
    IdsExhausted,
    /// The output buffer is too small; nothing changed.
    BufferTooSmall {
        /// Bytes needed.
        needed: usize,
    },
    /// The input at `index` (the first one) has no answer yet.
    Unanswered {
        /// Index of the first unanswered input.
        index: usize,
    },
    /// No input of this round has that key (or index).
    UnknownKey,
    /// The input at `index` is already answered.
    AlreadyAnswered {
        /// Index of the input.
        index: usize,
    },
    /// The answer for the input at `index` was refused.
    BadAnswer {
        /// Index of the input.
        index: usize,
        /// Why.
        error: AnswerError,
    },
    /// The round's answers would need `needed` bytes, over the limit.
    AnswersTooLarge {
        /// Bytes needed.
        needed: usize,
        /// The configured bound.
        limit: usize,
    },
    /// Terminal: a response to our request (or unattributable bytes) that
    /// is not valid JSON-RPC.
    Malformed(WireError),
    /// Terminal: a response that breaks an MRTR rule.
    Protocol(Violation),
    /// Terminal: the server's `inputRequests` exceed the inputs region.
    InputsTooLarge {
        /// Bytes needed.
        needed: usize,
        /// The configured bound.
        limit: usize,
    },
    /// Terminal: the server's `requestState` exceeds the state region.
    StateTooLarge {
        /// Bytes needed.
        needed: usize,
        /// The configured bound.
        limit: usize,
    },
    /// Terminal: more `input_required` results than the round cap.
    TooManyRounds {
        /// The configured cap.
        limit: u32,
    },
    /// Terminal: more consecutive state-only rounds than their cap.
    TooManyStateOnlyRounds {
        /// The configured cap.
        limit: u32,
    },
    /// Terminal: a task was polled more often than its cap.
    TooManyPolls {
        /// The configured cap.
        limit: u32,
    },
    /// Terminal: the app answered input `index` with an error.
    AnsweredWithError {
        /// Index of the input.
        index: usize,
        /// The error code the app gave.
        code: i64,
    },
    /// A save could not be restored.
    BadSave(SaveError),
    /// A task operation (`tasks/cancel`) on a machine in the call flow.
    NotATask,
}

impl CallError {
    /// Whether the error ended the call ([`Phase::Failed`]).
    pub fn is_terminal(&self) -> bool {
        matches!(
            self,
            CallError::Malformed(_)
                | CallError::Protocol(_)
                | CallError::InputsTooLarge { .. }
                | CallError::StateTooLarge { .. }
                | CallError::TooManyRounds { .. }
                | CallError::TooManyStateOnlyRounds { .. }
                | CallError::TooManyPolls { .. }
                | CallError::AnsweredWithError { .. }
        )
    }
}

impl core::fmt::Display for ParamsError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ParamsError::NotJson(e) => write!(f, "params are not valid JSON: {e}"),
            ParamsError::NotAnObject => write!(f, "params are not a JSON object"),
            ParamsError::Reserved => {
                write!(f, "params contain inputResponses or requestState")
            }
            ParamsError::MissingTarget => write!(f, "params lack a string name or uri"),
            ParamsError::BadMeta => write!(f, "params _meta is not an object or occurs twice"),
            ParamsError::BadTask => write!(f, "params task is not an object or occurs twice"),
            ParamsError::BadTaskId => write!(f, "task id is empty"),
            ParamsError::TasksNotDeclared => {
                write!(f, "extension task without the Tasks extension declared")
            }
            ParamsError::RepeatedMember => {
                write!(f, "params repeat a member (an object has a key twice)")
            }
            ParamsError::TooManyMembers => write!(
                f,
                "an object in params has more than {} members",
                json::DEEP_MAX_MEMBERS
            ),
        }
    }
}

impl core::error::Error for ParamsError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            ParamsError::NotJson(e) => Some(e),
            _ => None,
        }
    }
}

impl core::fmt::Display for AnswerError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            AnswerError::NotJson(e) => write!(f, "answer is not valid JSON: {e}"),
            AnswerError::NotAnObject => write!(f, "answer is not a JSON object"),
            AnswerError::Wrapped => write!(f, "answer is wrapped in {{\"result\": ..}}"),
            AnswerError::UnknownShape => {
                write!(f, "answer is no elicitation, sampling or roots result")
            }
            AnswerError::KindMismatch { expected } => {
                write!(f, "answer does not match the {expected:?} request")
            }
            AnswerError::ContentRequired => write!(f, "form accept needs content"),
            AnswerError::Duplicate { member } => {
                write!(f, "answer has member {member:?} more than once")
            }
            AnswerError::BadMember { member } => {
                write!(f, "answer member {member:?} is missing or invalid")
            }
            AnswerError::BadRoot { index, error } => write!(f, "root {index}: {error}"),
            AnswerError::ContentNotAllowed => {
                write!(f, "URL mode, decline and cancel carry no content")
            }
        }
    }
}

impl core::error::Error for AnswerError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            AnswerError::NotJson(e) => Some(e),
            _ => None,
        }
    }
}

impl core::fmt::Display for SaveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SaveError::Decode => write!(f, "not a save"),
            SaveError::Version(v) => write!(
                f,
                "save of format version {v}, expected {}",
                persist::SAVE_VERSION
            ),
            SaveError::WrongKind => write!(f, "save of a task given to a call, or the reverse"),
            SaveError::Invariant(i) => write!(f, "save breaks an invariant: {i}"),
        }
    }
}

impl core::error::Error for SaveError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            SaveError::Invariant(i) => Some(i),
            _ => None,
        }
    }
}

impl core::error::Error for SaveInvariant {}

impl core::fmt::Display for CallError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            CallError::BadLimits => write!(f, "limits cannot be laid out"),
            CallError::WorkspaceTooSmall { needed } => {
                write!(f, "workspace too small: needs {needed} bytes")
            }
            CallError::NotInitialized => write!(f, "state was never initialized"),
            CallError::BadParams(e) => write!(f, "bad params: {e}"),
            CallError::ParamsTooLarge { needed, limit } => {
                write!(f, "params too large: needs {needed} bytes, limit {limit}")
            }
            CallError::WrongState(phase) => write!(f, "not possible in phase {phase:?}"),
            CallError::IdNotFresh { id, last } => {
                write!(f, "id {id} is not greater than the last id {last}")
            }
            CallError::IdOutOfRange(id) => write!(f, "id {id} is outside +-(2^53-1)"),
            CallError::IdsExhausted => write!(f, "no id left: the next would pass 2^53-1"),
            CallError::BufferTooSmall { needed } => {
                write!(f, "output buffer too small: needs {needed} bytes")
            }
            CallError::Unanswered { index } => write!(f, "input {index} has no answer yet"),
            CallError::UnknownKey => write!(f, "no input of this round has that key"),
            CallError::AlreadyAnswered { index } => {
                write!(f, "input {index} is already answered")
            }
            CallError::BadAnswer { index, error } => {
                write!(f, "answer to input {index} refused: {error}")
            }
            CallError::AnswersTooLarge { needed, limit } => {
                write!(f, "answers too large: needs {needed} bytes, limit {limit}")
            }
            CallError::Malformed(e) => write!(f, "malformed response: {e}"),
            CallError::Protocol(v) => write!(f, "protocol violation: {v}"),
            CallError::InputsTooLarge { needed, limit } => write!(
                f,
                "inputRequests too large: needs {needed} bytes, limit {limit}"
            ),
            CallError::StateTooLarge { needed, limit } => write!(
                f,
                "requestState too large: needs {needed} bytes, limit {limit}"
            ),
            CallError::TooManyRounds { limit } => {
                write!(f, "more than {limit} input_required rounds")
            }
            CallError::TooManyStateOnlyRounds { limit } => {
                write!(f, "more than {limit} consecutive state-only rounds")
            }
            CallError::TooManyPolls { limit } => write!(f, "task polled more than {limit} times"),
            CallError::AnsweredWithError { index, code } => {
                write!(f, "input {index} answered with error {code}")
            }
            CallError::BadSave(e) => write!(f, "bad save: {e}"),
            CallError::NotATask => f.write_str("not a task: the machine is in the call flow"),
        }
    }
}

impl core::error::Error for CallError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            CallError::BadParams(e) => Some(e),
            CallError::BadAnswer { error, .. } => Some(error),
            CallError::Malformed(e) => Some(e),
            CallError::Protocol(v) => Some(v),
            CallError::BadSave(e) => Some(e),
            _ => None,
        }
    }
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

/// A source of JSON-RPC ids.
pub trait IdSource {
    /// The next id; a call refuses ids that do not increase.
    fn next_id(&mut self) -> i64;
}

/// Checks that `id` is one a request can carry: a JSON-RPC number within
/// +-(2^53-1) ([`MAX_SAFE_ID`], what a JavaScript peer echoes unchanged).
/// Returns it, or [`CallError::IdOutOfRange`].
pub const fn check_id_range(id: i64) -> Result<i64, CallError> {
    if id < -MAX_SAFE_ID || id > MAX_SAFE_ID {
        return Err(CallError::IdOutOfRange(id));
    }
    Ok(id)
}

/// The id `step` after `id`, or [`CallError::IdsExhausted`] when it would
/// pass [`MAX_SAFE_ID`] (ids never wrap). `step` must be positive
/// ([`CallError::IdOutOfRange`] otherwise: ids must increase).
pub const fn id_after(id: i64, step: i64) -> Result<i64, CallError> {
    if step <= 0 {
        return Err(CallError::IdOutOfRange(step));
    }
    match id.checked_add(step) {
        Some(next) if next <= MAX_SAFE_ID => check_id_range(next),
        _ => Err(CallError::IdsExhausted),
    }
}

/// The usual id source: a counter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counter {
    next: i64,
}

impl Counter {
    /// A counter whose first id is `first`, unchecked (`const`); an id
    /// outside +-(2^53-1) is refused by `write_request` when it is used.
    /// [`Counter::new`] refuses it at once.
    pub const fn starting_at(first: i64) -> Self {
        Counter { next: first }
    }

    /// A counter whose first id is `first`, which must be within
    /// +-(2^53-1) ([`CallError::IdOutOfRange`] otherwise).
    pub const fn new(first: i64) -> Result<Self, CallError> {
        match check_id_range(first) {
            Ok(next) => Ok(Counter { next }),
            Err(e) => Err(e),
        }
    }

    /// A counter that continues after `last` (1 when `None`): use it with
    /// [`Call::last_id`] after a restore.
    pub fn after(last: Option<i64>) -> Self {
        Counter {
            next: last.map_or(1, |l| l.saturating_add(1)),
        }
    }
}

impl IdSource for Counter {
    fn next_id(&mut self) -> i64 {
        let id = self.next;
        self.next = self.next.saturating_add(1);
        id
    }
}

/// How to start a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallConfig<'a> {
    /// The method.
    pub method: CallMethod,
    /// The caller's params object, e.g. `{"name":"x","arguments":{..}}`.
    /// Copied at init; must not contain `inputResponses`/`requestState`.
    /// A `_meta` object is merged (its members kept except the three keys
    /// the call owns); a `task` object marks a seed-dialect task request.
    pub params: &'a [u8],
    /// What the call declares it can answer, sent on every leg.
    pub caps: ClientCapabilities,
    /// Sent as `io.modelcontextprotocol/clientInfo`; `None` omits it.
    pub client_info: Option<ClientInfo<'a>>,
    /// Capacities and caps.
    pub limits: CallLimits,
}

impl<'a> CallConfig<'a> {
    /// A config with no capabilities, this library's client info and the
    /// default limits.
    pub fn new(method: CallMethod, params: &'a [u8]) -> Self {
        CallConfig {
            method,
            params,
            caps: ClientCapabilities::default(),
            client_info: Some(ClientInfo::DEFAULT),
            limits: CallLimits::default(),
        }
    }
}

const CALL_MAGIC: u32 = 0x4D52_4331; // "MRC1"

/// A call's own fields (see [`Slot`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CallFields {
    pub(crate) method: CallMethod,
    pub(crate) seed_task: bool,
    pub(crate) params_len: usize,
    pub(crate) state_only: u32,
}

/// The plain data of a call: lengths, counters and flags, no references.
/// Place it anywhere (`CallSlot::default()`), then [`Call::init`] or
/// [`Call::restore`] it together with a workspace.
pub type CallSlot = Slot<CallFields>;

impl Flavor for CallFields {
    const MAGIC: u32 = CALL_MAGIC;

    fn render(slot: &CallSlot, buf: &[u8], id: i64, out: &mut [u8]) -> Result<usize, CallError> {
        let layout = slot.limits.layout().unwrap_or_default();
        let ex = &slot.sh.ex;
        let mut w = Writer::new(out);
        write_request_head(&mut w, &Id::Number(id), slot.f.method.as_str());
        let params = layout.head.prefix(buf, slot.f.params_len);
        // Drop the params' closing brace, append this leg's members, close.
        w.raw(params.get(..params.len().saturating_sub(1)).unwrap_or(&[]));
        if ex.input_count > 0 {
            w.raw(b",\"inputResponses\":");
            ex.write_responses(&mut w, buf, &layout);
        }
        if let Some(s) = ex.request_state(buf, &layout) {
            w.raw(b",\"requestState\":").raw(s);
        }
        w.raw(b"}}");
        w.finish()
            .map_err(|e| CallError::BufferTooSmall { needed: e.needed })
    }

    fn save_fields(slot: &CallSlot) -> SaveFields {
        SaveFields {
            kind: persist::KIND_CALL,
            variant: slot.f.method as u8,
            state_only: slot.f.state_only,
            head_len: slot.f.params_len,
            ..SaveFields::default()
        }
    }
}

/// A call: its slot and its workspace.
pub type Call<'w> = FlowView<'w, CallFields>;

/// Checks the caller's params; returns whether they ask for a (seed) task.
fn check_params(params: Object<'_>, method: CallMethod) -> Result<bool, ParamsError> {
    // One walk of the params for the five members, checked in this order.
    let [responses, state, meta, target, task] = params.get_unique_many([
        "inputResponses",
        "requestState",
        "_meta",
        method.target_member(),
        "task",
    ]);
    // Present at all (a duplicate is present too).
    if !matches!(responses, Ok(None)) || !matches!(state, Ok(None)) {
        return Err(ParamsError::Reserved);
    }
    match meta {
        Ok(None) => {}
        Ok(Some(m)) if m.as_object().is_some() => {}
        _ => return Err(ParamsError::BadMeta),
    }
    match target {
        Ok(Some(v)) if v.as_str().is_some() => {}
        _ => return Err(ParamsError::MissingTarget),
    }
    let seed_task = match task {
        Ok(None) => false,
        Ok(Some(t)) if t.as_object().is_some() => true,
        _ => return Err(ParamsError::BadTask),
    };
    // Last, one pass over everything: no member twice at any depth.
    params
        .as_value()
        .check_unique_keys_deep()
        .map_err(|e| match e.kind {
            json::ErrorKind::TooManyMembers => ParamsError::TooManyMembers,
            _ => ParamsError::RepeatedMember,
        })?;
    Ok(seed_task)
}

/// Whether a `_meta` key is one the call writes itself.
fn is_owned_meta_key(k: &JsonStr<'_>) -> bool {
    k.eq_str(META_PROTOCOL_VERSION)
        || k.eq_str(META_CLIENT_CAPABILITIES)
        || k.eq_str(META_CLIENT_INFO)
}

/// Renders `{"_meta":{..},<caller members>}`.
fn render_params(
    w: &mut Writer<'_>,
    params: Object<'_>,
    caps: &ClientCapabilities,
    info: Option<&ClientInfo<'_>>,
) {
    w.raw(b"{\"_meta\":{");
    write_request_meta_members(w, caps, info);
    if let Some(meta) = params.get("_meta").and_then(|m| m.as_object()) {
        for (k, v) in meta.iter() {
            if !is_owned_meta_key(&k) {
                w.byte(b',').json_str_raw(&k).byte(b':').raw(v.raw());
            }
        }
    }
    w.byte(b'}');
    for (k, v) in params.iter() {
        if !k.eq_str("_meta") {
            w.byte(b',').json_str_raw(&k).byte(b':').raw(v.raw());
        }
    }
    w.byte(b'}');
}

impl<'w> Call<'w> {
    /// Starts a call: checks the limits and the workspace size, validates and
    /// renders the params into the workspace. On error `state` is unchanged.
    pub fn init(
        state: &'w mut CallSlot,
        buf: &'w mut [u8],
        config: &CallConfig<'_>,
    ) -> Result<Self, CallError> {
        let limits = config.limits;
        let layout = limits.layout_in(buf.len())?;
        let doc = json::parse_with(config.params, &limits.wire.json)
            .map_err(|e| CallError::BadParams(ParamsError::NotJson(e)))?;
        let params = doc
            .as_object()
            .ok_or(CallError::BadParams(ParamsError::NotAnObject))?;
        let seed_task = check_params(params, config.method).map_err(CallError::BadParams)?;
        let mut w = Writer::new(layout.head.tail_mut(buf, 0));
        render_params(&mut w, params, &config.caps, config.client_info.as_ref());
        let params_len = w.finish().map_err(|e| CallError::ParamsTooLarge {
            needed: e.needed,
            limit: limits.max_params_bytes,
        })?;
        *state = CallSlot {
            sh: Shared::ready(CALL_MAGIC, config.caps, Exchange::default()),
            limits,
            f: CallFields {
                method: config.method,
                seed_task,
                params_len,
                state_only: 0,
            },
        };
        Ok(Call { st: state, buf })
    }

    // ----------------------------------------------------------------- accessors

    /// The method.
    pub fn method(&self) -> CallMethod {
        self.st.f.method
    }

    /// The limits.
    pub fn limits(&self) -> &CallLimits {
        &self.st.limits
    }

    /// Consecutive state-only rounds so far.
    pub fn state_only_rounds(&self) -> u32 {
        self.st.f.state_only
    }

    /// The params as sent on every leg (rendered at init).
    pub fn params(&self) -> &[u8] {
        self.layout().head.prefix(self.buf, self.st.f.params_len)
    }

    // ------------------------------------------------------------------- writing

    /// [`Call::write_request`] with the id drawn from `ids`.
    pub fn write_request_from(
        &mut self,
        ids: &mut impl IdSource,
        out: &mut [u8],
    ) -> Result<usize, CallError> {
        self.write_request(ids.next_id(), out)
    }

    // ------------------------------------------------------------------ answering

    // -------------------------------------------------------------------- feeding

    /// Feeds bytes received while `Sent` (see the module doc for how they
    /// are attributed). Terminal errors move the call to `Failed`.
    ///
    /// Reading a result builds a skip index on the stack (see
    /// [`json::parse_indexed`]): about one slot per 48 bytes of result, up
    /// to 256 slots, 4 KiB, on 64-bit targets; 32 slots, 256 bytes,
    /// elsewhere.
    pub fn feed<'a>(&mut self, bytes: &'a [u8]) -> Result<Event<'a>, CallError> {
        self.feed_inner(bytes, None).map(|(e, _)| e)
    }

    /// [`Call::feed`], and on completion also copies the result into
    /// `result_out`, returning its length. If `result_out` is too small this
    /// fails with [`CallError::BufferTooSmall`] and the call is unchanged, so
    /// the same bytes can be fed again with a larger buffer.
    pub fn feed_copy<'a>(
        &mut self,
        bytes: &'a [u8],
        result_out: &mut [u8],
    ) -> Result<(Event<'a>, usize), CallError> {
        self.feed_inner(bytes, Some(result_out))
    }

    fn feed_inner<'a>(
        &mut self,
        bytes: &'a [u8],
        copy: Option<&mut [u8]>,
    ) -> Result<(Event<'a>, usize), CallError> {
        let ours = match (self.st.sh.phase, self.st.sh.ex.in_flight) {
            (Phase::Sent, Some(id)) => id,
            (p, _) => return Err(CallError::WrongState(p)),
        };
        let wire = self.st.limits.wire;
        // Classification and the input requests walk the result level by
        // level: the message is parsed with a skip index (on the stack) so
        // those walks skip nested values without rescanning them.
        exchange::with_feed_slots(bytes.len(), |slots| {
            if let Some((result, indexed)) =
                exchange::receive_result_indexed(bytes, &wire, ours, slots)
            {
                return self.on_result(bytes, result, indexed, copy);
            }
            match exchange::receive(bytes, &wire, ours) {
                Err(e) => Err(self.fail(e)),
                Ok(Incoming::Unrelated(u)) => Ok((Event::Unrelated(u), 0)),
                Ok(Incoming::Error(e)) => {
                    self.done();
                    Ok((Event::RpcError(e), 0))
                }
                // A result of ours took the indexed way above.
                Ok(Incoming::Result(r)) => self.on_result(bytes, r, r, copy),
            }
        })
    }

    /// [`Call::feed`] once a result of ours is in: classify `indexed` (the
    /// result with a skip index). What the event borrows comes from
    /// `result` itself, the same object.
    fn on_result<'a>(
        &mut self,
        bytes: &'a [u8],
        result: json::Object<'a>,
        indexed: json::Object<'_>,
        copy: Option<&mut [u8]>,
    ) -> Result<(Event<'a>, usize), CallError> {
        let outcome =
            match classify_result(indexed, self.st.f.method.as_str(), &self.st.limits.wire) {
                Ok(o) => o,
                Err(e) => return Err(self.fail(exchange::wire_to_call(e))),
            };
        match outcome {
            ResultOutcome::Complete(_) => {
                let obj = result;
                if self.st.f.seed_task {
                    match created_task(obj, TaskDialect::Seed) {
                        Err(v) => return Err(self.fail(CallError::Protocol(v))),
                        Ok(Some(task)) => {
                            self.done();
                            let handoff = TaskHandoff {
                                dialect: TaskDialect::Seed,
                                task,
                            };
                            return Ok((Event::TaskCreated(handoff), 0));
                        }
                        Ok(None) => {}
                    }
                }
                let raw = obj.raw();
                let copied = match copy {
                    None => 0,
                    Some(out) => {
                        let dst = out
                            .get_mut(..raw.len())
                            .ok_or(CallError::BufferTooSmall { needed: raw.len() })?;
                        crate::bytes::copy(dst, raw);
                        raw.len()
                    }
                };
                self.st.sh.result = Some(ResultSpan::of(bytes, raw));
                self.done();
                Ok((Event::Complete(raw), copied))
            }
            ResultOutcome::Task(_) => {
                let obj = result;
                if !self.st.sh.caps.tasks {
                    return Err(self.fail(CallError::Protocol(Violation::UndeclaredCapability)));
                }
                match created_task(obj, TaskDialect::Extension) {
                    Ok(Some(task)) => {
                        self.done();
                        let handoff = TaskHandoff {
                            dialect: TaskDialect::Extension,
                            task,
                        };
                        Ok((Event::TaskCreated(handoff), 0))
                    }
                    Ok(None) => Err(self.fail(CallError::Protocol(Violation::BadTask))),
                    Err(v) => Err(self.fail(CallError::Protocol(v))),
                }
            }
            ResultOutcome::InputRequired(ir) => {
                self.st.sh.ex.in_flight = None;
                let limits = self.st.limits.ex();
                if let Err(e) = self.st.sh.ex.count_round(&limits) {
                    return Err(self.fail(e));
                }
                let layout = self.layout();
                let caps = self.st.sh.caps;
                match ir.input_requests {
                    Some(reqs) => {
                        if let Err(e) = self.st.sh.ex.take_round(
                            self.buf,
                            &layout,
                            &limits,
                            &caps,
                            Some(reqs),
                            ir.request_state,
                        ) {
                            return Err(self.fail(e));
                        }
                        self.st.f.state_only = 0;
                        self.st.sh.phase = Phase::Answering;
                        Ok((Event::InputRequired(reqs.len()), 0))
                    }
                    None => {
                        self.st.f.state_only = self.st.f.state_only.saturating_add(1);
                        if self.st.f.state_only > self.st.limits.max_state_only_rounds {
                            let limit = self.st.limits.max_state_only_rounds;
                            return Err(self.fail(CallError::TooManyStateOnlyRounds { limit }));
                        }
                        if let Err(e) = self.st.sh.ex.take_round(
                            self.buf,
                            &layout,
                            &limits,
                            &caps,
                            None,
                            ir.request_state,
                        ) {
                            return Err(self.fail(e));
                        }
                        self.st.sh.phase = Phase::Ready;
                        let ms = self.st.limits.backoff_ms(self.st.f.state_only);
                        Ok((Event::RetryAfter(ms), 0))
                    }
                }
            }
        }
    }

    // ---------------------------------------------------------------- persistence

    /// Restores a saved call into `state` and `buf` under `limits` (the
    /// app's current limits bound the restored regions; a save cannot raise
    /// them). Every region is re-validated as untrusted input and every
    /// invariant of a live call is checked (the shared ones by the same
    /// function as [`Task::restore`](super::task::Task::restore));
    /// a breach is [`SaveError::Invariant`] naming it. On error `state` is
    /// unchanged while `buf` may have been written (it is scratch until a
    /// state owns it).
    pub fn restore(
        state: &'w mut CallSlot,
        buf: &'w mut [u8],
        limits: &CallLimits,
        saved: &[u8],
    ) -> Result<Self, CallError> {
        let (layout, s, phase) = persist::open(limits, buf.len(), saved, persist::KIND_CALL)?;
        let broken = persist::broken;
        let method = CallMethod::from_code(s.variant)
            .ok_or(broken(SaveInvariant::UnknownVariant(s.variant)))?;
        // The params must read back as this method's params with our _meta.
        let bad_head = broken(SaveInvariant::BadHead);
        let doc = json::parse_with(s.head, &limits.wire.json).map_err(|_| bad_head)?;
        let params = doc.as_object().ok_or(bad_head)?;
        if doc.raw().len() != s.head.len() {
            return Err(bad_head);
        }
        // The protocol version is judged first: a head that names another
        // one (or ours twice) is refused as such, not as a bad head.
        let checked = check_params(params, method);
        let meta = params
            .get_unique("_meta")
            .ok()
            .flatten()
            .and_then(|m| m.as_object())
            .ok_or(bad_head)?;
        persist::check_meta_version(meta)?;
        let seed_task = checked.map_err(|_| bad_head)?;
        let caps = persist::caps_of_meta(meta).ok_or(bad_head)?;
        let mut ex = persist::exchange_of(&s, buf, &layout, &limits.ex())?;
        // A call's request in flight with inputs in the round is the retry
        // that carries their answers.
        let phase = ex
            .check_invariants(buf, &layout, &limits.ex(), &caps, phase, true)
            .map_err(broken)?;
        // What only a call has: the state-only streak.
        if s.state_only > limits.max_state_only_rounds {
            return Err(broken(SaveInvariant::TooManyStateOnlyRounds {
                count: s.state_only,
                limit: limits.max_state_only_rounds,
            }));
        }
        if s.state_only > 0 && ex.input_count > 0 {
            return Err(broken(SaveInvariant::StateOnlyWithInputs));
        }
        *state = CallSlot {
            sh: Shared {
                phase,
                ..Shared::ready(CALL_MAGIC, caps, ex)
            },
            limits: *limits,
            f: CallFields {
                method,
                seed_task,
                params_len: s.head.len(),
                state_only: s.state_only,
            },
        };
        Ok(Call { st: state, buf })
    }
}
