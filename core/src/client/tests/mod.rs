//! Client tests: recorded flows (exact bytes), one test per rule, tasks,
//! persistence, and property tests over hostile server sequences.

use super::call::{Call, CallConfig, CallLimits, CallMethod, CallSlot};
use super::task::{Task, TaskConfig, TaskSlot};
use crate::wire::{ClientCapabilities, ClientInfo};
use std::string::String;
use std::vec;
use std::vec::Vec;

mod errors;
mod flows;
// The machine and run tests drive calls that declare the Tasks extension.
#[cfg(feature = "tasks")]
mod machine;
mod persist;
mod props;
mod rules;
#[cfg(feature = "tasks")]
mod run;
mod tasks;
#[cfg(not(feature = "tasks"))]
mod without_tasks;
mod work_item;

/// The client info of the spec's examples.
pub(super) const EXAMPLE_CLIENT: ClientInfo<'static> = ClientInfo {
    name: "ExampleClient",
    version: "1.0.0",
};

/// A call's state and workspace, owned, for tests.
pub(super) struct Harness {
    pub st: CallSlot,
    pub buf: Vec<u8>,
}

impl Harness {
    pub fn new(config: &CallConfig<'_>) -> Self {
        let mut st = CallSlot::default();
        let mut buf = vec![0u8; Call::workspace_size(&config.limits)];
        Call::init(&mut st, &mut buf, config).expect("init");
        Harness { st, buf }
    }

    pub fn call(&mut self) -> Call<'_> {
        Call::attach(&mut self.st, &mut self.buf).expect("attach")
    }
}

/// A task's state and workspace, owned, for tests.
pub(super) struct TaskHarness {
    pub st: TaskSlot,
    pub buf: Vec<u8>,
}

impl TaskHarness {
    pub fn new(config: &TaskConfig<'_>) -> Self {
        let mut st = TaskSlot::default();
        let mut buf = vec![0u8; Task::workspace_size(&config.limits)];
        Task::init(&mut st, &mut buf, config).expect("init");
        TaskHarness { st, buf }
    }

    pub fn task(&mut self) -> Task<'_> {
        Task::attach(&mut self.st, &mut self.buf).expect("attach")
    }
}

/// A tools/call config with the example client and `caps`.
pub(super) fn tool_config(params: &str, caps: ClientCapabilities) -> CallConfig<'_> {
    CallConfig {
        caps,
        client_info: Some(EXAMPLE_CLIENT),
        limits: CallLimits::default(),
        ..CallConfig::new(CallMethod::ToolsCall, params.as_bytes())
    }
}

/// Form elicitation and sampling.
pub(super) const FORM_AND_SAMPLING: ClientCapabilities = ClientCapabilities {
    elicitation_form: true,
    elicitation_url: false,
    sampling: true,
    sampling_tools: false,
    sampling_context: false,
    roots: false,
    tasks: false,
};

/// Form elicitation only.
pub(super) const FORM: ClientCapabilities = ClientCapabilities {
    elicitation_form: true,
    elicitation_url: false,
    sampling: false,
    sampling_tools: false,
    sampling_context: false,
    roots: false,
    tasks: false,
};

/// Writes the next leg as a string.
pub(super) fn leg(call: &mut Call<'_>, id: i64) -> String {
    let mut out = vec![0u8; 1 << 16];
    let n = call.write_request(id, &mut out).expect("write_request");
    String::from_utf8(out[..n].to_vec()).expect("utf-8")
}

/// Writes the next task request as a string.
pub(super) fn task_leg(task: &mut Task<'_>, id: i64) -> String {
    let mut out = vec![0u8; 1 << 16];
    let n = task.write_request(id, &mut out).expect("write_request");
    String::from_utf8(out[..n].to_vec()).expect("utf-8")
}

/// The `_meta` the example client sends with `caps_json`.
pub(super) fn example_meta(caps_json: &str) -> String {
    std::format!(
        r#""_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{caps_json},"io.modelcontextprotocol/clientInfo":{{"name":"ExampleClient","version":"1.0.0"}}}}"#
    )
}
