//! The client half: drive one logical request through its legs ([`call`])
//! and follow a task in either dialect ([`task`]).

pub mod call;
pub mod task;

mod exchange;
mod persist;

pub use call::{
    Answer, AnswerError, Call, CallConfig, CallError, CallLimits, CallMethod, CallState, Counter,
    Event, IdSource, Phase, RpcError, TaskHandoff, Unrelated,
};
pub use task::{TaskCall, TaskConfig, TaskEvent, TaskLimits, TaskRequest, TaskState};

#[cfg(test)]
mod tests;
