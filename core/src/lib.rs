//! # mrtr-core
//!
//! A sans-IO, `no_std`, allocation-free implementation of MCP *Multi Round-Trip
//! Requests* (protocol revision `2026-07-28`): the JSON layer, the wire
//! vocabulary, the client call state machine, the server half and the sealing of
//! `requestState`.
//!
//! The core never performs I/O, never reads a clock and never draws randomness:
//! the application passes bytes, `now` and nonces in. Every buffer is borrowed
//! from the caller; every capacity is a named limit with a precise error.
//!
//! ## Where to start
//!
//! - A client: [`client::Machine`] drives one call, and the task it may
//!   become, in a workspace you provide; [`client::run::run`] is the whole
//!   loop over your [`Transport`](client::run::Transport) and
//!   [`Answerer`](client::run::Answerer). ([`client::Call`] and
//!   [`client::Task`] are the two flows on their own, for callers that know
//!   which one they have; the machine is the one to start from.)
//! - A server: [`server::ServerRequest::parse`] reads a request,
//!   [`server::any_answer`] finds an answer the client sent,
//!   [`server::InputRequiredBuilder`] asks for input, [`server::write_complete`]
//!   answers, and [`seal::Sealer`] seals what the next round must remember.
//! - [`prelude`] imports the names both sides use most.
//!
//! ## A client run and a server leg
//!
//! The client calls `deploy`; the server (here in the transport, in-process)
//! asks for a confirmation form first, then completes when the answer comes
//! back with its `requestState`. A real server seals that state
//! ([`seal::Sealer::seal`]) instead of sending it in the clear.
//!
//! ```
//! use mrtr_core::prelude::*;
//! use mrtr_core::client::run::{run, Answerer, Outcome, Reply, RunConfig, Transport};
//! use mrtr_core::server::{any_answer, write_complete, Incoming, InputRequiredBuilder, ServerRequest};
//!
//! /// The server side of each leg, answering in the client's buffer.
//! struct InProcess;
//!
//! impl Transport for InProcess {
//!     type Error = std::io::Error;
//!     fn exchange(&mut self, request: Option<&[u8]>, out: &mut [u8]) -> Result<usize, Self::Error> {
//!         use std::io::Error as E;
//!         let request = request.ok_or_else(|| E::other("nothing sent"))?;
//!         let Ok(Incoming::Request(req)) = ServerRequest::parse(request, &WireLimits::default()) else {
//!             return Err(E::other("not a request"));
//!         };
//!         let answer = any_answer(req.input_responses, "confirm", Some(ResponseKind::Elicit));
//!         if let Ok(Some(found)) = answer {
//!             assert_eq!(req.request_state.map(|s| s.to_string()).as_deref(), Some("step-1"));
//!             let _ = found; // the form's values: found.answer
//!             return write_complete(out, &req.id, br#"{"content":[{"type":"text","text":"deployed"}]}"#)
//!                 .map_err(E::other);
//!         }
//!         let mut b = InputRequiredBuilder::for_request(out, &req).map_err(E::other)?;
//!         let schema = br#"{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}"#;
//!         b.elicit_form("confirm", "Deploy to production?", schema).map_err(E::other)?;
//!         b.request_state("step-1");
//!         b.finish().map_err(E::other)
//!     }
//! }
//!
//! /// The user: accepts every form with {"ok": true}.
//! struct User;
//!
//! impl Answerer for User {
//!     fn answer(&mut self, m: &mut Machine<'_>, index: usize) -> Reply {
//!         let accept = Answer::Elicit { action: ElicitAction::Accept, content: Some(br#"{"ok":true}"#) };
//!         match m.answer_at(index, accept) {
//!             Ok(()) => Reply::Answered,
//!             Err(_) => Reply::Abort,
//!         }
//!     }
//! }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let config = MachineConfig {
//!     caps: ClientCapabilities { elicitation_form: true, ..Default::default() },
//!     ..MachineConfig::call(CallMethod::ToolsCall, br#"{"name":"deploy"}"#)
//! };
//! let mut slot = MachineSlot::default();
//! let mut workspace = vec![0u8; Machine::workspace_size(&config.limits)];
//! let mut m = Machine::init(&mut slot, &mut workspace, &config)?;
//! // One buffer for the request written and the message received.
//! let mut io = vec![0u8; 2 * config.limits.max_message_bytes()];
//! let end = run(&mut m, &mut InProcess, &mut User, &RunConfig::default(), &mut io)?;
//! assert_eq!(end.outcome, Outcome::Complete);
//! let message = &io[end.offset..end.offset + end.len];
//! let result = m.result(message).ok_or("no result")?;
//! assert_eq!(result, br#"{"resultType":"complete","content":[{"type":"text","text":"deployed"}]}"#);
//! # Ok(())
//! # }
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

#[cfg(test)]
extern crate std;

/// The body of a `name()` function: `packed_name!(self, Enum: A B C; Enum::D(d)
/// => d.name())` gives each listed variant's identifier as a static C
/// string, and each arm after the `;` the name it returns (a detail's). The
/// identifiers are packed in one string, each variant keeping its offset
/// ([`names`](crate::names)), and the offsets are found at compile time.
macro_rules! packed_name {
    ($s:expr, $t:ident: $($v:ident)+ $(; $($(#[$dm:meta])* $d:pat => $e:expr),+ $(,)?)?) => {{
        const NAMES: &str = concat!($(stringify!($v), "\0"),+);
        let at = match $s {
            $($t::$v { .. } => const {
                $crate::names::offset(NAMES, concat!(stringify!($v), "\0"))
            },)+
            $($($(#[$dm])* $d => return $e,)+)?
        };
        $crate::names::at(NAMES, at)
    }};
}

/// Declares `name()` on an enum: each variant's identifier as a static C
/// string, written once (the C API's `reason` fields and logs).
macro_rules! variant_names {
    ($(#[$m:meta])* $t:ident: $($v:ident)+) => {
        impl $t {
            $(#[$m])*
            pub const fn name(&self) -> &'static core::ffi::CStr {
                packed_name!(self, $t: $($v)+)
            }
        }
    };
}

mod bytes;
#[cfg(feature = "client")]
pub mod client;
pub mod json;
pub mod names;
pub mod param_headers;
#[cfg(feature = "seal")]
pub mod seal;
pub mod wire;

#[cfg(feature = "server")]
pub mod server;

/// The names most programs use, for `use mrtr_core::prelude::*;`: the
/// client machine and its configuration, answers, limits and errors; the
/// wire vocabulary both sides share; and, with the `server` feature, the
/// server's request reader and builders.
pub mod prelude {
    #[cfg(feature = "client")]
    pub use crate::client::{
        Answer, CallError, CallLimits, CallMethod, Machine, MachineConfig, MachineSlot, Phase,
    };
    pub use crate::json::JsonStr;
    #[cfg(feature = "server")]
    pub use crate::server::{BuildError, Incoming, InputRequiredBuilder, ServerRequest};
    pub use crate::wire::{
        ClientCapabilities, ElicitAction, Id, InputKind, InputRequest, ResponseKind, WireLimits,
    };
}
