//! Side-by-side benchmarks of mrtr against what a user would pick instead.
//!
//! Every contender does the same two jobs on the same bytes:
//! - `parse`: read a server response, classify it (complete or
//!   input_required) and expose each input request's key, kind and (for
//!   elicitations) message, plus the `requestState`;
//! - `leg`: the client's whole turn: `parse`, answer every input request, and
//!   write the retry request (original params + `inputResponses` +
//!   `requestState`) as bytes.
//!
//! [`check`] proves at startup that the contenders agree: the same
//! [`Summary`] for `parse` and retry requests equal as JSON values for `leg`.
//! Sealing jobs live in the `mrtr-seal-variants` crate, so they can be rebuilt
//! cheaply under each crypto backend configuration.

pub mod alloc_count;
pub mod contenders;
pub mod inputs;
pub mod jobs;
pub mod kit;

pub use jobs::{check, Contender, Job, Runner, Summary};
