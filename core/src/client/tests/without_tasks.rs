//! A machine built without the `tasks` feature: it refuses, with
//! [`CallError::TasksNotBuilt`] and its slot unchanged, everything that
//! could follow a task, and runs every other call as before.

use super::*;
use crate::client::machine::{Flow, Machine, MachineConfig, MachineEvent, MachineSlot, Start};
use crate::client::task::TaskIdRef;
use crate::client::{CallError, Event, Phase};
use crate::wire::{TaskDialect, Violation};

const TASKS: ClientCapabilities = ClientCapabilities {
    tasks: true,
    ..FORM
};

fn config(params: &str, caps: ClientCapabilities) -> MachineConfig<'_> {
    MachineConfig {
        caps,
        client_info: Some(EXAMPLE_CLIENT),
        ..MachineConfig::call(CallMethod::ToolsCall, params.as_bytes())
    }
}

/// Inits a machine on a fresh slot and workspace; returns the result and
/// whether the slot is still the default one.
fn init(config: &MachineConfig<'_>) -> (Result<Flow, CallError>, bool) {
    let mut slot = MachineSlot::default();
    let mut buf = vec![0u8; Machine::workspace_size(&config.limits)];
    let r = Machine::init(&mut slot, &mut buf, config).map(|m| m.flow());
    (r, slot == MachineSlot::default())
}

#[test]
fn without_tasks_a_task_start_the_tasks_capability_and_a_task_param_are_refused() {
    let task = MachineConfig {
        start: Start::Task {
            dialect: TaskDialect::Extension,
            task_id: TaskIdRef::Text("t-1"),
            poll_ms: None,
        },
        ..config("", FORM)
    };
    assert_eq!(init(&task), (Err(CallError::TasksNotBuilt), true));
    assert_eq!(
        init(&config(r#"{"name":"t"}"#, TASKS)),
        (Err(CallError::TasksNotBuilt), true)
    );
    assert_eq!(
        init(&config(r#"{"name":"t","task":{"ttl":1000}}"#, FORM)),
        (Err(CallError::TasksNotBuilt), true)
    );
    // Params the call refuses anyway keep their own error.
    assert!(matches!(
        init(&config(r#"{"name":"t","task":7}"#, FORM)).0,
        Err(CallError::BadParams(_))
    ));
    assert_eq!(
        init(&config(r#"{"name":"t"}"#, FORM)),
        (Ok(Flow::Call), false)
    );
}

#[test]
fn without_tasks_a_call_runs_and_a_task_result_is_an_undeclared_capability() {
    let cfg = config(r#"{"name":"t"}"#, FORM);
    let mut slot = MachineSlot::default();
    let mut buf = vec![0u8; Machine::workspace_size(&cfg.limits)];
    let mut m = Machine::init(&mut slot, &mut buf, &cfg).unwrap();
    let mut out = vec![0u8; 4096];
    m.write_next(&mut out).unwrap();
    let done = br#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#;
    assert_eq!(
        m.feed(done),
        Ok(MachineEvent::Call(Event::Complete(br#"{"content":[]}"#)))
    );
    assert_eq!(m.phase(), Phase::Done);

    let mut slot = MachineSlot::default();
    let mut m = Machine::init(&mut slot, &mut buf, &cfg).unwrap();
    m.write_next(&mut out).unwrap();
    let created = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"task","taskId":"t","status":"working","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:00Z","ttlMs":null}}"#;
    assert_eq!(
        m.feed(created),
        Err(CallError::Protocol(Violation::UndeclaredCapability))
    );
    assert_eq!((m.flow(), m.phase()), (Flow::Call, Phase::Failed));
}

#[test]
fn without_tasks_saves_that_could_follow_a_task_do_not_restore() {
    let limits = CallLimits::default();
    let mut out = vec![0u8; 1 << 16];
    let restore = |saved: &[u8]| {
        let mut slot = MachineSlot::default();
        let mut buf = vec![0u8; Machine::workspace_size(&limits)];
        let r = Machine::restore(&mut slot, &mut buf, &limits, saved).map(|m| m.flow());
        (r, slot == MachineSlot::default())
    };
    // A task's save.
    let mut th = TaskHarness::new(&TaskConfig {
        caps: TASKS,
        client_info: None,
        ..TaskConfig::new(TaskDialect::Extension, "t-1")
    });
    let n = th.task().save(&mut out).unwrap();
    assert_eq!(restore(&out[..n]), (Err(CallError::TasksNotBuilt), true));
    // Any other call's save restores, and one of a call that declares the
    // Tasks extension or asks for a task (as a build with tasks writes it:
    // the same bytes with another head) does not.
    let form = |task: &str| {
        std::format!(
            r#"{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{"elicitation":{{"form":{{}}}}{task}}},"io.modelcontextprotocol/clientInfo":{{"name":"ExampleClient","version":"1.0.0"}}}},"name":"t""#
        )
    };
    let head = std::format!("{}}}", form(""));
    let mut h = Harness::new(&tool_config(r#"{"name":"t"}"#, FORM));
    let n = h.call().save(&mut out).unwrap();
    assert_eq!(out[..n], save_of(&head));
    assert_eq!(restore(&out[..n]), (Ok(Flow::Call), false));
    let declares = std::format!(
        "{}}}",
        form(r#","extensions":{"io.modelcontextprotocol/tasks":{}}"#)
    );
    let asks = std::format!(r#"{},"task":{{}}}}"#, form(""));
    for head in [declares, asks] {
        assert_eq!(
            restore(&save_of(&head)),
            (Err(CallError::TasksNotBuilt), true)
        );
    }
}

/// The save of a call in `Ready` that has sent nothing, whose head (the
/// params it renders) is `head`: the saved-call format's bytes.
fn save_of(head: &str) -> Vec<u8> {
    let mut v = b"MRTR\x01\x01\x01\x01".to_vec();
    v.extend([0u8; 9]);
    // The head's length, a postcard varint.
    let mut n = head.len();
    while n >= 0x80 {
        v.push((n as u8) | 0x80);
        n >>= 7;
    }
    v.push(n as u8);
    v.extend(head.as_bytes());
    v.extend([0u8; 3]);
    v
}
