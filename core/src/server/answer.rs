//! Reading the client's answers out of `inputResponses`, by key and kind,
//! and writing the error for an answer the server cannot use.
//!
//! The lookup returns `Ok(None)` when the key is absent: the natural next step
//! is to ask again (the spec: a missing answer is re-requested, never an
//! error). Keys the server does not look up are never judged, however
//! malformed. An answer that is present under a key the server needs but is
//! of another kind, or unreadable, is an error (`-32602`): the client sent
//! something the server cannot use and asking again would loop.

use core::fmt;

use crate::json::{Array, BufferTooSmall, Object, Value};
pub use crate::wire::input_response::RootEntry;
use crate::wire::input_response::{
    read_elicit_result, read_root_entry, read_roots_result, read_sampling_result,
};
use crate::wire::{ElicitAction, ErrorCode, Id, InputResponse, InputResponses, ResponseKind};

use super::emit::write_error_parts;

/// A present answer the server cannot use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnusableAnswer {
    /// The answer is a complete result of another kind (e.g. a roots list
    /// where an elicitation result was asked for).
    WrongKind {
        /// The kind the server asked for.
        expected: ResponseKind,
        /// The kind the client sent.
        found: ResponseKind,
    },
    /// The answer is not an object, or lacks or mistypes the fields of the
    /// kind asked for (unknown `action`, `content` not an object, a root
    /// without a string `uri`, a duplicated member, ...).
    Malformed {
        /// The kind the server asked for.
        expected: ResponseKind,
    },
}

impl UnusableAnswer {
    /// The MCP error code to answer with: `-32602`.
    pub const fn code(&self) -> ErrorCode {
        ErrorCode::InvalidParams
    }

    /// The kind the server asked for.
    pub const fn expected(&self) -> ResponseKind {
        match *self {
            UnusableAnswer::WrongKind { expected, .. } | UnusableAnswer::Malformed { expected } => {
                expected
            }
        }
    }

    /// The error's number: 1 for a wrong kind, 2 for a malformed answer (the
    /// C API's `MRTR_ANSWER_WRONG_KIND`, `MRTR_ANSWER_MALFORMED`).
    pub const fn number(&self) -> u32 {
        match self {
            UnusableAnswer::WrongKind { .. } => 1,
            UnusableAnswer::Malformed { .. } => 2,
        }
    }

    /// The kind the client sent, for a wrong kind.
    pub const fn found(&self) -> Option<ResponseKind> {
        match *self {
            UnusableAnswer::WrongKind { found, .. } => Some(found),
            UnusableAnswer::Malformed { .. } => None,
        }
    }

    /// The error numbered `number` (see [`UnusableAnswer::number`]) about
    /// `expected`; a wrong kind needs the kind `found`.
    pub fn from_number(
        number: u32,
        expected: ResponseKind,
        found: Option<ResponseKind>,
    ) -> Option<UnusableAnswer> {
        match (number, found) {
            (1, Some(found)) => Some(UnusableAnswer::WrongKind { expected, found }),
            (2, _) => Some(UnusableAnswer::Malformed { expected }),
            _ => None,
        }
    }
}

impl fmt::Display for UnusableAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UnusableAnswer::WrongKind { expected, found } => write!(
                f,
                "expected {} result, found {} result",
                with_article(expected),
                with_article(found)
            ),
            UnusableAnswer::Malformed { expected } => {
                write!(f, "malformed {} result", kind_name(expected))
            }
        }
    }
}

/// The kind as the result's name says it: `elicitation`, `sampling`, `roots`.
fn kind_name(kind: ResponseKind) -> &'static str {
    match kind {
        ResponseKind::Elicit => "elicitation",
        ResponseKind::Sampling => "sampling",
        ResponseKind::Roots => "roots",
    }
}

/// [`kind_name`] with its indefinite article.
fn with_article(kind: ResponseKind) -> &'static str {
    match kind {
        ResponseKind::Elicit => "an elicitation",
        ResponseKind::Sampling => "a sampling",
        ResponseKind::Roots => "a roots",
    }
}

impl core::error::Error for UnusableAnswer {}

/// The user's answer to an elicitation (`ElicitResult`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ElicitAnswer<'a> {
    /// accept / decline / cancel.
    pub action: ElicitAction,
    /// The submitted form values (`accept` only; `None` for URL mode, and
    /// always `None` for decline and cancel, whatever was sent).
    pub content: Option<Object<'a>>,
}

impl<'a> ElicitAnswer<'a> {
    /// The submitted value of form field `name` (`Ok(None)` when absent or
    /// when nothing was accepted). A field sent twice is
    /// [`UnusableAnswer::Malformed`]: the server must not pick one of two
    /// answers the user may not have given.
    pub fn field(&self, name: &str) -> Result<Option<Value<'a>>, UnusableAnswer> {
        match self.content {
            None => Ok(None),
            Some(c) => c.get_unique(name).map_err(|_| UnusableAnswer::Malformed {
                expected: ResponseKind::Elicit,
            }),
        }
    }
}

/// An LLM's answer to a sampling request (`CreateMessageResult`): the
/// reader both halves share.
pub type SamplingAnswer<'a> = crate::wire::input_response::SamplingResult<'a>;

/// The client's roots (`ListRootsResult`). Every entry was validated on
/// lookup, so iteration cannot fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootsAnswer<'a> {
    roots: Array<'a>,
}

impl<'a> RootsAnswer<'a> {
    /// The roots in the order sent.
    pub fn iter(&self) -> impl Iterator<Item = RootEntry<'a>> + 'a {
        self.roots.iter().filter_map(|v| read_root_entry(v).ok())
    }

    /// Number of roots.
    pub fn len(&self) -> usize {
        self.roots.len()
    }

    /// Whether the client offered no roots.
    pub fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }
}

/// Finds `key` and checks it answers `expected`. `Ok(None)`: absent.
fn lookup<'a>(
    responses: Option<InputResponses<'a>>,
    key: &str,
    expected: ResponseKind,
) -> Result<Option<Object<'a>>, UnusableAnswer> {
    let Some(map) = responses else {
        return Ok(None);
    };
    // Keys are unique (checked at parse), so the first match is the only one.
    let Some(v) = map.raw().get(key) else {
        return Ok(None);
    };
    let bad = UnusableAnswer::Malformed { expected };
    let entry = InputResponse::parse(v).ok_or(bad)?;
    match entry.kind() {
        Some(found) if found == expected => Ok(Some(entry.value)),
        Some(found) => Err(UnusableAnswer::WrongKind { expected, found }),
        None => Err(bad),
    }
}

/// The elicitation answer under `key`.
pub fn elicit_answer<'a>(
    responses: Option<InputResponses<'a>>,
    key: &str,
) -> Result<Option<ElicitAnswer<'a>>, UnusableAnswer> {
    let Some(o) = lookup(responses, key, ResponseKind::Elicit)? else {
        return Ok(None);
    };
    let (action, content) = read_elicit_result(o).map_err(|_| UnusableAnswer::Malformed {
        expected: ResponseKind::Elicit,
    })?;
    Ok(Some(ElicitAnswer {
        action,
        content: if action == ElicitAction::Accept {
            content
        } else {
            None
        },
    }))
}

/// The sampling answer under `key`.
pub fn sampling_answer<'a>(
    responses: Option<InputResponses<'a>>,
    key: &str,
) -> Result<Option<SamplingAnswer<'a>>, UnusableAnswer> {
    let Some(o) = lookup(responses, key, ResponseKind::Sampling)? else {
        return Ok(None);
    };
    read_sampling_result(o)
        .map(Some)
        .map_err(|_| UnusableAnswer::Malformed {
            expected: ResponseKind::Sampling,
        })
}

/// The roots answer under `key`.
pub fn roots_answer<'a>(
    responses: Option<InputResponses<'a>>,
    key: &str,
) -> Result<Option<RootsAnswer<'a>>, UnusableAnswer> {
    let Some(o) = lookup(responses, key, ResponseKind::Roots)? else {
        return Ok(None);
    };
    let roots = read_roots_result(o).map_err(|_| UnusableAnswer::Malformed {
        expected: ResponseKind::Roots,
    })?;
    Ok(Some(RootsAnswer { roots }))
}

/// An answer of any kind (see [`any_answer`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AnyAnswer<'a> {
    /// An elicitation result.
    Elicit(ElicitAnswer<'a>),
    /// A `CreateMessageResult`.
    Sampling(SamplingAnswer<'a>),
    /// A `ListRootsResult`.
    Roots(RootsAnswer<'a>),
}

/// What [`any_answer`] found under a key.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FoundAnswer<'a> {
    /// The answer, read by its kind's reader.
    pub answer: AnyAnswer<'a>,
    /// The result object exactly as sent (unwrapped).
    pub result: &'a [u8],
    /// It came in the SEP draft's `{"result": ..}` wrapping.
    pub wrapped: bool,
}

/// Why [`any_answer`] refused what it found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnyAnswerError {
    /// How the answer is unusable.
    pub error: UnusableAnswer,
    /// Whether the kind was known (expected, or told by the answer's
    /// shape); `false` for an entry of no recognisable kind.
    pub kind_known: bool,
}

impl fmt::Display for AnyAnswerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind_known {
            fmt::Display::fmt(&self.error, f)
        } else {
            write!(f, "input response of no recognisable kind: {}", self.error)
        }
    }
}

impl core::error::Error for AnyAnswerError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// The answer under `key`: of the kind the handler asked (`expected`), or
/// of whatever kind is there (`None`, told by its shape). `Ok(None)` when
/// the client sent none (ask again). Both the released bare results and
/// the SEP draft's `{"result": ..}` wrapping are accepted; answers under
/// other keys are never judged. The one lookup every language uses.
pub fn any_answer<'a>(
    responses: Option<InputResponses<'a>>,
    key: &str,
    expected: Option<ResponseKind>,
) -> Result<Option<FoundAnswer<'a>>, AnyAnswerError> {
    let known = |error| AnyAnswerError {
        error,
        kind_known: true,
    };
    let unknown = AnyAnswerError {
        error: UnusableAnswer::Malformed {
            expected: ResponseKind::Elicit,
        },
        kind_known: false,
    };
    let entry = responses.and_then(|r| r.get(key));
    let kind = match (expected, entry) {
        (Some(kind), _) => kind,
        (None, Some(entry)) => entry.kind().ok_or(unknown)?,
        // Present but not a result object: of no kind at all.
        (None, None) if responses.is_some_and(|r| r.raw().get(key).is_some()) => {
            return Err(unknown)
        }
        (None, None) => return Ok(None),
    };
    // Each kind's reader once. With no entry (absent, or present but not a
    // result object) it finds nothing or tells what is wrong.
    // Each answer wrapped once, where it is read: matched as it comes, not
    // mapped through the reader's Result, an Option and a pair (a copy at
    // each step). Nothing read is nothing found.
    let answer = match kind {
        ResponseKind::Elicit => match elicit_answer(responses, key) {
            Ok(Some(a)) => AnyAnswer::Elicit(a),
            Ok(None) => return Ok(None),
            Err(e) => return Err(known(e)),
        },
        ResponseKind::Sampling => match sampling_answer(responses, key) {
            Ok(Some(a)) => AnyAnswer::Sampling(a),
            Ok(None) => return Ok(None),
            Err(e) => return Err(known(e)),
        },
        ResponseKind::Roots => match roots_answer(responses, key) {
            Ok(Some(a)) => AnyAnswer::Roots(a),
            Ok(None) => return Ok(None),
            Err(e) => return Err(known(e)),
        },
    };
    let Some(entry) = entry else {
        return Ok(None);
    };
    Ok(Some(FoundAnswer {
        answer,
        result: entry.value.raw(),
        wrapped: entry.wrapped,
    }))
}

impl<'a> super::ServerRequest<'a> {
    /// The elicitation answer under `key`: `Ok(None)` when the client sent
    /// none (ask again), an error when what it sent under `key` is not a
    /// usable elicitation result.
    pub fn elicit_answer(&self, key: &str) -> Result<Option<ElicitAnswer<'a>>, UnusableAnswer> {
        elicit_answer(self.input_responses, key)
    }

    /// The sampling answer under `key` (see [`Self::elicit_answer`]).
    pub fn sampling_answer(&self, key: &str) -> Result<Option<SamplingAnswer<'a>>, UnusableAnswer> {
        sampling_answer(self.input_responses, key)
    }

    /// The roots answer under `key` (see [`Self::elicit_answer`]).
    pub fn roots_answer(&self, key: &str) -> Result<Option<RootsAnswer<'a>>, UnusableAnswer> {
        roots_answer(self.input_responses, key)
    }
}

/// `-32602` for an answer the server cannot use ([`UnusableAnswer`]), naming
/// the key: `Invalid params: inputResponses["key"] is not an elicitation
/// result` / `... is a malformed elicitation result`.
pub fn write_answer_error(
    out: &mut [u8],
    id: &Id<'_>,
    key: &str,
    err: &UnusableAnswer,
) -> Result<usize, BufferTooSmall> {
    // What is wrong, by cause (wrong kind, malformed), and the expected
    // kind (its number less one): composed, so each word is stored once
    // ("not an" before "elicitation").
    const CAUSE: [&str; 2] = ["\"] is not a", "\"] is a malformed"];
    const KIND: [&str; 3] = [" elicitation result", " sampling result", " roots result"];
    let c = (err.number() as usize).wrapping_sub(1);
    let k = (err.expected() as usize).wrapping_sub(1);
    let n = if c == 0 && k == 0 { "n" } else { "" };
    // Both or neither (no words for an error outside the tables).
    let (cause, kind) = CAUSE
        .get(c)
        .zip(KIND.get(k))
        .map_or(("", ""), |(c, k)| (*c, *k));
    let parts = ["Invalid params: inputResponses[\"", key, cause, n, kind];
    write_error_parts(out, Some(id), err.code(), &parts)
}
