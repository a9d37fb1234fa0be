//! Why a client flow refused something: [`CallError`] and the errors it
//! carries ([`ParamsError`], [`AnswerError`], [`SaveError`]).

use core::ffi::CStr;

use super::events::Phase;
use crate::json;
use crate::wire::{InputKind, Violation, WireError};

/// The saved-call format version this library writes, and the only one it
/// reads ([`SaveError::Version`] names another).
pub const SAVE_VERSION: u8 = 1;

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
    /// A form `accept` whose content the form refuses (a required field
    /// missing, a value of the wrong type, outside its bounds, not one of
    /// its options, a field the form does not define): the first error,
    /// in the order of [`crate::client::form::ElicitForm::errors`], which
    /// names the field.
    #[cfg(feature = "form")]
    FormContent {
        /// What is wrong with the first refused field.
        error: crate::client::form::FieldError,
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
    /// 256 (`MAX_INPUT_REQUESTS_LIMIT`), a region over 4 GiB, a JSON depth under
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
    /// In a build without the `tasks` feature: a call that could become a
    /// task (it declares the Tasks extension, or its params ask for a task
    /// with the seed dialect's `task` member), its save, or a
    /// [`Machine`](super::Machine) started or restored as a task.
    TasksNotBuilt,
}

/// Why a call or task ended in [`Phase::Failed`]: the class of its
/// terminal error. The values are the C ABI's `mrtr_failure_kind` and never
/// change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum FailureKind {
    /// The server's message is not acceptable JSON.
    Json = 1,
    /// The server's message is not JSON-RPC 2.0.
    Envelope = 2,
    /// The server's message breaks an MRTR rule.
    Protocol = 3,
    /// [`CallError::InputsTooLarge`].
    InputsTooLarge = 4,
    /// [`CallError::StateTooLarge`].
    StateTooLarge = 5,
    /// [`CallError::TooManyRounds`].
    TooManyRounds = 6,
    /// [`CallError::TooManyStateOnlyRounds`].
    TooManyStateOnlyRounds = 7,
    /// [`CallError::TooManyPolls`].
    TooManyPolls = 8,
    /// [`CallError::AnsweredWithError`].
    AnsweredWithError = 9,
}

impl FailureKind {
    /// The kind's name, NUL-terminated for C logs: the [`CallError`]
    /// variant it stands for (the wire error class for the first three).
    pub const fn name(self) -> &'static CStr {
        packed_name!(self, FailureKind:
            Json Envelope Protocol InputsTooLarge StateTooLarge TooManyRounds
            TooManyStateOnlyRounds TooManyPolls AnsweredWithError
        )
    }
}

/// The terminal error of a failed call or task as one flat record: its
/// kind and the numbers it carries (zero where the kind has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failure {
    /// The class.
    pub kind: FailureKind,
    /// `Json`: the byte offset in the message where reading stopped.
    pub offset: usize,
    /// `AnsweredWithError`: the input's index.
    pub index: usize,
    /// `AnsweredWithError`: the code the application gave.
    pub code: i64,
    /// `*TooLarge`: the bytes that would have been needed.
    pub needed: usize,
    /// `*TooLarge`, `TooMany*`: the configured limit.
    pub limit: u64,
}

impl CallError {
    /// The failure record of a terminal error ([`CallError::is_terminal`]);
    /// `None` for the others.
    pub fn failure(&self) -> Option<Failure> {
        use FailureKind as K;
        let of = |kind| Failure {
            kind,
            offset: 0,
            index: 0,
            code: 0,
            needed: 0,
            limit: 0,
        };
        let sized = |kind, needed, limit: usize| Failure {
            needed,
            limit: limit as u64,
            ..of(kind)
        };
        let capped = |kind, limit: u32| Failure {
            limit: u64::from(limit),
            ..of(kind)
        };
        Some(match *self {
            CallError::Malformed(WireError::Json(j)) => Failure {
                offset: j.offset,
                ..of(K::Json)
            },
            CallError::Malformed(WireError::Envelope(_)) => of(K::Envelope),
            CallError::Malformed(WireError::Protocol(_)) | CallError::Protocol(_) => {
                of(K::Protocol)
            }
            CallError::InputsTooLarge { needed, limit } => sized(K::InputsTooLarge, needed, limit),
            CallError::StateTooLarge { needed, limit } => sized(K::StateTooLarge, needed, limit),
            CallError::TooManyRounds { limit } => capped(K::TooManyRounds, limit),
            CallError::TooManyStateOnlyRounds { limit } => capped(K::TooManyStateOnlyRounds, limit),
            CallError::TooManyPolls { limit } => capped(K::TooManyPolls, limit),
            CallError::AnsweredWithError { index, code } => Failure {
                index,
                code,
                ..of(K::AnsweredWithError)
            },
            _ => return None,
        })
    }

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
            #[cfg(feature = "form")]
            AnswerError::FormContent { error } => {
                write!(f, "the form refuses the content: {error}")
            }

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
            SaveError::Version(v) => {
                write!(f, "save of format version {v}, expected {}", SAVE_VERSION)
            }
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
            CallError::TasksNotBuilt => f.write_str("tasks are not built in (the `tasks` feature)"),
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

impl ParamsError {
    /// The variant's name, NUL-terminated for C (`"MissingTarget"`).
    pub const fn name(&self) -> &'static CStr {
        packed_name!(self, ParamsError:
            NotJson NotAnObject Reserved MissingTarget BadMeta BadTask BadTaskId TasksNotDeclared
            RepeatedMember TooManyMembers
        )
    }
}

impl CallError {
    /// The cause's name, NUL-terminated for C: the variant, or for refused
    /// params, answers, saves and terminal wire errors the detail's (the
    /// [`WireError::name`]: `"InputRequiredWithoutFields"`; [`ParamsError::name`]:
    /// `"MissingTarget"`, params without `name`/`uri`; [`AnswerError::name`]:
    /// `"NotAnOption"`, a form value that is none of its options;
    /// [`SaveError::name`]: `"BadHead"`), so a C caller learns which of a
    /// status's causes it met. Stable across releases of the same major
    /// version.
    pub const fn name(&self) -> &'static CStr {
        packed_name!(self, CallError:
            BadLimits WorkspaceTooSmall NotInitialized ParamsTooLarge WrongState IdNotFresh
            IdOutOfRange IdsExhausted BufferTooSmall Unanswered UnknownKey AlreadyAnswered
            AnswersTooLarge InputsTooLarge StateTooLarge TooManyRounds TooManyStateOnlyRounds
            TooManyPolls AnsweredWithError NotATask TasksNotBuilt;
            CallError::BadParams(p) => p.name(),
            CallError::BadAnswer { error, .. } => error.name(),
            CallError::Malformed(w) => w.name(),
            CallError::Protocol(v) => v.name(),
            CallError::BadSave(e) => e.name(),
        )
    }
}

impl AnswerError {
    /// The cause's name, NUL-terminated for C: the variant
    /// (`"ContentRequired"`), or for a form's refusal the name of the
    /// form's field error (`"NotAnOption"`, `"Missing"`, ...).
    pub const fn name(&self) -> &'static CStr {
        packed_name!(self, AnswerError:
            NotJson NotAnObject Wrapped UnknownShape KindMismatch ContentRequired
            ContentNotAllowed Duplicate BadMember BadRoot;
            #[cfg(feature = "form")]
            AnswerError::FormContent { error } => error.name(),
        )
    }
}

impl SaveError {
    /// The cause's name, NUL-terminated for C: `"Decode"` (not a save),
    /// `"Version"`, `"WrongKind"`, or the broken [`SaveInvariant`]'s
    /// ([`SaveInvariant::name`]).
    pub const fn name(&self) -> &'static CStr {
        packed_name!(self, SaveError:
            Decode Version WrongKind;
            SaveError::Invariant(i) => i.name(),
        )
    }
}

variant_names! {
    /// The variant's name, NUL-terminated for C (`"TooLarge"`, `"BadHead"`).
    SaveInvariant: UnknownPhase UnknownVariant UnknownNextRequest TooLarge BadHead ProtocolVersion
    TasksNotDeclared BadInputs UndeclaredInput BadRequestState BadAnswerRecord AnswerKeyNotAsked
    DuplicateAnswer BadAnswer TooManyRounds TooManyStateOnlyRounds TooManyPolls RoundNotCounted
    StateOnlyWithInputs IdOutOfRange SentWithoutRequest InFlightNotLast InFlightOutsideSent
    PartlyAnswered AnsweringWithoutInputs AnsweringOtherRequest RespondWithoutInputs CancelNotSent
}
