//! The server half of MRTR: read a request with its answers, ask for more,
//! finish, fail — all into caller buffers, without allocating.
//!
//! The loop a tool handler runs on every leg (each leg is an independent
//! request; nothing is kept between legs but what `requestState` carries):
//!
//! 1. [`ServerRequest::parse`] the bytes. A parse failure is answered with
//!    [`ServerRequestError::write`] (`-32700`, `-32600`, `-32602`, `-32022`).
//!    Notifications and responses get no JSON-RPC answer (HTTP: `202`).
//! 2. If the request has a `requestState`, unseal and verify it (the `seal`
//!    module, or the app's own codec); on any failure answer
//!    [`write_invalid_request_state`], whatever the cause.
//! 3. Look up each answer the handler needs ([`ServerRequest::elicit_answer`],
//!    [`ServerRequest::sampling_answer`], [`ServerRequest::roots_answer`]).
//!    `Ok(None)` means the client did not send it: ask (again). Answers under
//!    keys the handler does not look up are ignored, however malformed.
//! 4. Either finish with [`write_complete`], or ask with
//!    [`InputRequiredBuilder`] (only kinds the client declared; answers worth
//!    keeping go into a freshly sealed `requestState`).
//!
//! The task side (both dialects) is in [`task`].

mod answer;
mod builder;
mod emit;
mod request;
pub mod task;

pub use answer::{
    any_answer, elicit_answer, roots_answer, sampling_answer, write_answer_error, AnyAnswer,
    AnyAnswerError, ElicitAnswer, FoundAnswer, RootEntry, RootsAnswer, SamplingAnswer,
    UnusableAnswer,
};
pub use builder::{
    write_build_error, Ask, BuildError, InputRequiredBuilder, MAX_INPUT_REQUESTS_CAPACITY,
};
pub use emit::{
    write_complete, write_header_mismatch, write_internal_error, write_invalid_params,
    write_invalid_request, write_invalid_request_state, write_method_not_found,
    write_missing_capability, write_parse_error, write_unsupported_version, CompleteError,
};
pub use request::{
    write_request_error, DeclaredClientInfo, Field, Incoming, MetaPolicy, Method, RequestErrorKind,
    RequestMeta, ServerNotification, ServerRequest, ServerRequestError, CORE_REQUEST_METHODS,
};
pub use task::{
    format_rfc3339, write_create_task, write_detailed_task, write_input_response_ack,
    write_task_result_seed, write_task_status_seed, write_update_task_result, TaskDetail,
    TaskDialect, TaskInfo, TaskInputRequiredBuilder, TaskStatus, TaskWriteError,
};

#[cfg(test)]
mod tests;
