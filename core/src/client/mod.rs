//! The client half: drive one logical request through its legs ([`call`]),
//! follow a task in either dialect ([`task`]), and the helpers a UI and an
//! HTTP stack need around a call ([`form`], [`url`], [`roots`], [`http`],
//! [`tools`], [`sse`]). `form` and `url` are UI helpers behind features of
//! the same names (on by default).

pub mod call;
pub mod errors;
pub mod events;
mod flow;
#[cfg(feature = "form")]
pub mod form;
pub mod http;
pub mod ids;
pub mod limits;
pub mod machine;
pub mod roots;
pub mod run;
pub mod sse;
pub mod task;
pub mod tools;
#[cfg(feature = "url")]
pub mod url;

mod exchange;
mod layout;
mod persist;

pub use call::{Call, CallConfig, CallFields, CallMethod, CallSlot};
pub use errors::{AnswerError, CallError, ParamsError, SaveError, SaveInvariant, SaveRegion};
pub use errors::{Failure, FailureKind};
pub use events::{
    Answer, ErrorRecord, Event, EventKind, EventRecord, Phase, RpcError, TaskHandoff, Unrelated,
};
pub use flow::{Flavor, FlowView, Slot};
pub use ids::{Counter, IdSource};
pub use limits::{CallLimits, CheckedLimits, REQUEST_SYNTAX_BYTES};
pub use machine::{Flow, Machine, MachineConfig, MachineEvent, MachineSlot, Start};
pub use task::{Task, TaskConfig, TaskEvent, TaskFields, TaskRequest, TaskSlot};

#[cfg(test)]
mod tests;
