//! Results: `resultType` and the `InputRequiredResult`.

use super::error::{Violation, WireError};
use super::input::InputRequests;
use super::{method_allows_input_required, WireLimits};
use crate::json::{JsonStr, Object};

/// The declared type of a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultKind {
    /// `"complete"`, or absent (a server of an earlier revision).
    Complete,
    /// `"input_required"`.
    InputRequired,
    /// `"task"`: a Tasks-extension `CreateTaskResult`.
    Task,
}

/// An `InputRequiredResult`: at least one of the two fields is present.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputRequiredResult<'a> {
    /// The questions, when any (never an empty map).
    pub input_requests: Option<InputRequests<'a>>,
    /// The opaque state token exactly as received (quotes and escapes
    /// included), to echo byte for byte.
    pub request_state: Option<JsonStr<'a>>,
}

/// A classified result.
// `InputRequired` carries the requests validation already parsed (see
// `INPUT_REQUESTS_KEPT`): without allocation there is nothing to box it in.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultOutcome<'a> {
    /// The final result object.
    Complete(Object<'a>),
    /// The server needs input (or asks for a state-only retry).
    InputRequired(InputRequiredResult<'a>),
    /// The server created a task (Tasks extension).
    Task(Object<'a>),
}

/// Classifies the `result` of a response to `method`.
///
/// Rules: an unknown `resultType` is a violation; `input_required` needs at
/// least one of `inputRequests` (non-empty) and `requestState` and is only
/// allowed for the MRTR methods; a result without `resultType` is complete
/// (the schema: "the client MUST treat the absent field as complete"; the
/// conformance suite checks this against 2026-07-28 servers too), unless it
/// carries `inputRequests` or `requestState`: that is a SEP-draft
/// `IncompleteResult`, which no released revision sends, and reading it as
/// complete would hand the app a result that is not one.
pub fn classify_result<'a>(
    result: Object<'a>,
    method: &str,
    limits: &WireLimits,
) -> Result<ResultOutcome<'a>, WireError> {
    classify_result_from(result, method, ServerRevision::Current, limits)
}

/// The protocol revision the server is known to speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ServerRevision {
    /// `2026-07-28` (or not known to be older): the default.
    #[default]
    Current,
    /// A revision before MRTR existed (e.g. `2025-11-25`): a result without
    /// `resultType` is complete whatever it contains.
    Earlier,
}

/// [`classify_result`] for a server of a known revision.
pub fn classify_result_from<'a>(
    result: Object<'a>,
    method: &str,
    revision: ServerRevision,
    limits: &WireLimits,
) -> Result<ResultOutcome<'a>, WireError> {
    let mut out = ResultOutcome::Complete(result);
    classify_result_into(result, method, revision, limits, &mut out)?;
    Ok(out)
}

/// [`classify_result_from`] written into `out` (which holds nothing of
/// use after an error): an `InputRequiredResult`'s requests are parsed
/// where the caller keeps the outcome, not returned and copied there (with
/// their kept requests they are most of the outcome's bytes).
pub(crate) fn classify_result_into<'a>(
    result: Object<'a>,
    method: &str,
    revision: ServerRevision,
    limits: &WireLimits,
    out: &mut ResultOutcome<'a>,
) -> Result<(), WireError> {
    // One pass over the result for the three members, read through
    // references (no copy of the found array's entries).
    let found = &result.get_unique_many(["resultType", "inputRequests", "requestState"]);
    let [Ok(rt), Ok(ir), Ok(rs)] = found else {
        return Err(Violation::DuplicateResultMember.into());
    };
    let kind = match rt {
        None if revision == ServerRevision::Earlier => ResultKind::Complete,
        None => {
            if ir.is_some() || rs.is_some() {
                return Err(Violation::MissingResultType.into());
            }
            ResultKind::Complete
        }
        Some(v) => {
            let s = v.as_str().ok_or(Violation::UnknownResultType)?;
            if s.eq_str("complete") {
                ResultKind::Complete
            } else if s.eq_str("input_required") {
                ResultKind::InputRequired
            } else if s.eq_str("task") {
                ResultKind::Task
            } else {
                return Err(Violation::UnknownResultType.into());
            }
        }
    };
    match kind {
        ResultKind::Complete => *out = ResultOutcome::Complete(result),
        ResultKind::Task => *out = ResultOutcome::Task(result),
        ResultKind::InputRequired => {
            if !method_allows_input_required(method) {
                return Err(Violation::InputRequiredNotAllowed.into());
            }
            // Parsed in place, in the outcome (the map carries its first
            // requests: built elsewhere it would be copied there), an
            // empty map as none.
            *out = ResultOutcome::InputRequired(InputRequiredResult {
                input_requests: None,
                request_state: None,
            });
            let ResultOutcome::InputRequired(found) = out else {
                // Written just above.
                return Ok(());
            };
            if let Some(v) = ir {
                InputRequests::parse_into(*v, limits, &mut found.input_requests)?;
                if found
                    .input_requests
                    .as_ref()
                    .is_some_and(InputRequests::is_empty)
                {
                    found.input_requests = None;
                }
            }
            if let Some(v) = rs {
                found.request_state = Some(v.as_str().ok_or(Violation::BadRequestState)?);
            }
            if found.input_requests.is_none() && found.request_state.is_none() {
                return Err(Violation::InputRequiredWithoutFields.into());
            }
        }
    }
    Ok(())
}
