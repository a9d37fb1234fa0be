//! Both task dialects end to end, and the task rules.

// Without the `tasks` feature only the rules of a task restarted from an id
// run here (a call cannot become a task).
#![cfg_attr(not(feature = "tasks"), allow(unused_imports, dead_code))]

use super::*;
use crate::client::call::CallLimits;
use crate::client::call::{Answer, CallError, Event, ParamsError, Phase};
use crate::client::task::{TaskEvent, TaskRequest};
use crate::wire::{ElicitAction, TaskDialect, TaskStatus, Violation};
use std::format;

const ECHO_ID: &str = "echo_dc792e24-01b5-4c0a-abcb-0559848ca3c5";

/// The SEP's "Example Flow for Persistent Tools", the messages as recorded
/// there (capitalized statuses included) with two repairs: trailing commas
/// removed (invalid JSON), and `resultType` added to the `tasks/result`
/// answer that carries `inputRequests` (required since 2026-07-28; without it
/// the result is a violation, see `missing_result_type_on_tasks_result`).
#[cfg(feature = "tasks")]
#[test]
fn the_seed_dialect_runs_the_seps_echo_task_end_to_end() {
    let mut h = Harness::new(&tool_config(
        r#"{"name":"echo","task":{"ttl":60000}}"#,
        FORM,
    ));
    let mut call = h.call();
    let meta = example_meta(r#"{"elicitation":{"form":{}}}"#);
    assert_eq!(
        leg(&mut call, 1),
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{{meta},"name":"echo","task":{{"ttl":60000}}}}}}"#
        )
    );
    let created = format!(
        r#"{{
    "id": 1,
    "jsonrpc": "2.0",
    "result":{{
        "task":{{
            "taskId": "{ECHO_ID}",
            "status": "Working",
            "statusMessage": "Task has been created for echo tool invocation.",
            "createdAt": "2026-01-27T03:32:48.3148180Z",
            "ttl": 60000,
            "pollInterval": 100
        }}
    }}
}}"#
    );
    let Ok(Event::TaskCreated(handoff)) = call.feed(created.as_bytes()) else {
        panic!()
    };
    assert_eq!(handoff.dialect, TaskDialect::Seed);
    assert_eq!(handoff.task.status, TaskStatus::Working);
    assert_eq!(handoff.task.poll_interval_ms, Some(100));
    assert_eq!(call.phase(), Phase::Done);

    let config = TaskConfig {
        client_info: Some(EXAMPLE_CLIENT),
        ..TaskConfig::from_handoff(&handoff, call.caps())
    };
    let mut th = TaskHarness::new(&config);
    let mut task = th.task();
    assert_eq!(task.poll_ms(), 100);
    assert_eq!(task.next_request(), TaskRequest::Get);
    let by_id = |id: u32, method: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{meta},"taskId":"{ECHO_ID}"}}}}"#
        )
    };
    assert_eq!(task_leg(&mut task, 2), by_id(2, "tasks/get"));
    let status = |id: u32, status: &str| {
        format!(
            r#"{{
    "id": {id},
    "jsonrpc": "2.0",
    "result":{{
      "taskId": "{ECHO_ID}",
      "status": "{status}",
      "statusMessage": "...",
      "createdAt": "2026-01-27T03:38:07.7534643Z",
      "ttl": 60000,
      "pollInterval": 100
    }}
}}"#
        )
    };
    assert_eq!(
        task.feed(status(2, "input_required").as_bytes()),
        Ok(TaskEvent::Next)
    );
    assert_eq!(
        (task.phase(), task.next_request()),
        (Phase::Ready, TaskRequest::Result)
    );
    assert_eq!(task_leg(&mut task, 3), by_id(3, "tasks/result"));
    let questions = format!(
        r#"{{
    "id": 3,
    "jsonrpc": "2.0",
    "result": {{
      "resultType": "input_required",
      "inputRequests":{{
        "echo_input":{{
          "method": "elicitation/create",
          "params":{{
            "mode": "form",
            "message": "Please provide the input string to echo back",
            "requestedSchema":{{
              "type": "object",
              "properties":{{
                "input": {{ "type": "string"}}
              }},
              "required": ["input"]
            }}
          }}
        }}
      }},
      "_meta":{{
        "io.modelcontextprotocol/related-task":{{
          "taskId": "{ECHO_ID}"
        }}
      }}
    }}
}}"#
    );
    assert_eq!(
        task.feed(questions.as_bytes()),
        Ok(TaskEvent::InputRequired(1))
    );
    assert_eq!(task.round(), 1);
    task.answer(
        "echo_input",
        Answer::Elicit {
            action: ElicitAction::Accept,
            content: Some(br#"{"input":"Hello World!"}"#),
        },
    )
    .unwrap();
    assert_eq!(task.next_request(), TaskRequest::Respond);
    let meta_members = meta
        .trim_start_matches(r#""_meta":{"#)
        .trim_end_matches('}');
    assert_eq!(
        task_leg(&mut task, 4),
        format!(
            r#"{{"jsonrpc":"2.0","id":4,"method":"tasks/input_response","params":{{"_meta":{{{meta_members}}},"io.modelcontextprotocol/related-task":{{"taskId":"{ECHO_ID}"}}}},"inputResponses":{{"echo_input":{{"action":"accept","content":{{"input":"Hello World!"}}}}}}}}}}"#
        )
    );
    let ack = format!(
        r#"{{"id":4,"jsonrpc":"2.0","result":{{"_meta":{{"io.modelcontextprotocol/related-task":{{"taskId":"{ECHO_ID}"}}}}}}}}"#
    );
    assert_eq!(task.feed(ack.as_bytes()), Ok(TaskEvent::Poll(100)));
    assert_eq!(task.input_count(), 0, "delivered answers are forgotten");
    assert_eq!(task_leg(&mut task, 5), by_id(5, "tasks/get"));
    assert_eq!(
        task.feed(status(5, "Completed").as_bytes()),
        Ok(TaskEvent::Next)
    );
    assert_eq!(task_leg(&mut task, 6), by_id(6, "tasks/result"));
    let done = format!(
        r#"{{"id":6,"jsonrpc":"2.0","result":{{"isError":false,"content":[{{"type":"text","text":"Echo: Hello World!"}}],"_meta":{{"io.modelcontextprotocol/related-task":{{"taskId":"{ECHO_ID}"}}}}}}}}"#
    );
    let ev = task.feed(done.as_bytes()).unwrap();
    let expected = &done[33..done.len() - 1];
    assert!(expected.starts_with(r#"{"isError""#));
    assert_eq!(ev, TaskEvent::Complete(expected.as_bytes()));
    assert_eq!(task.phase(), Phase::Done);
    assert_eq!(task.result(done.as_bytes()), Some(expected.as_bytes()));
    assert_eq!(task.polls(), 2);
}

#[test]
fn seed_tasks_echo_request_state_from_tasks_result_byte_for_byte() {
    let mut th = TaskHarness::new(&TaskConfig {
        caps: FORM,
        client_info: None,
        ..TaskConfig::new(TaskDialect::Seed, "t\"1")
    });
    let mut task = th.task();
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}}"#;
    assert_eq!(
        task_leg(&mut task, 1),
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{{{meta},"taskId":"t\"1"}}}}"#
        )
    );
    let st =
        br#"{"jsonrpc":"2.0","id":1,"result":{"taskId":"t\u00221","status":"input_required"}}"#;
    assert_eq!(task.feed(st), Ok(TaskEvent::Next));
    task_leg(&mut task, 2);
    let q = br#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object"}}}},"requestState":"x\/y"}}"#;
    assert_eq!(task.feed(q), Ok(TaskEvent::InputRequired(1)));
    task.answer(
        "k",
        Answer::Elicit {
            action: ElicitAction::Decline,
            content: None,
        },
    )
    .unwrap();
    assert_eq!(
        task_leg(&mut task, 3),
        r#"{"jsonrpc":"2.0","id":3,"method":"tasks/input_response","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}},"io.modelcontextprotocol/related-task":{"taskId":"t\"1"}},"inputResponses":{"k":{"action":"decline"}},"requestState":"x\/y"}}"#
    );
    assert_eq!(
        task.feed(br#"{"jsonrpc":"2.0","id":3,"result":{}}"#),
        Ok(TaskEvent::Poll(1000))
    );
    assert_eq!(task.request_state(), None);
}

#[test]
fn missing_result_type_on_tasks_result_is_a_violation() {
    let mut th = TaskHarness::new(&TaskConfig {
        caps: FORM,
        ..TaskConfig::new(TaskDialect::Seed, "t")
    });
    let mut task = th.task();
    task_leg(&mut task, 1);
    task.feed(br#"{"jsonrpc":"2.0","id":1,"result":{"taskId":"t","status":"input_required"}}"#)
        .unwrap();
    task_leg(&mut task, 2);
    let sep_draft =
        br#"{"jsonrpc":"2.0","id":2,"result":{"inputRequests":{"k":{"method":"roots/list"}}}}"#;
    assert_eq!(
        task.feed(sep_draft),
        Err(CallError::Protocol(Violation::MissingResultType))
    );
}

#[test]
fn servers_must_include_input_requests_in_tasks_result_when_input_is_required() {
    let mut th = TaskHarness::new(&TaskConfig::new(TaskDialect::Seed, "t"));
    let mut task = th.task();
    task_leg(&mut task, 1);
    task.feed(br#"{"jsonrpc":"2.0","id":1,"result":{"taskId":"t","status":"input_required"}}"#)
        .unwrap();
    task_leg(&mut task, 2);
    let state_only =
        br#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","requestState":"s"}}"#;
    assert_eq!(
        task.feed(state_only),
        Err(CallError::Protocol(Violation::BadTask))
    );
}

const EXT_CAPS: ClientCapabilities = ClientCapabilities {
    elicitation_form: true,
    elicitation_url: false,
    sampling: false,
    sampling_tools: false,
    sampling_context: false,
    roots: false,
    tasks: true,
};

fn detailed(id: u32, status: &str, extra: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"complete","taskId":"b-7","status":"{status}","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:01Z","ttlMs":null{extra}}}}}"#
    )
}

/// An extension-dialect task view at its first `tasks/get` (id 1).
fn ext_task(limits: CallLimits) -> TaskHarness {
    let mut th = TaskHarness::new(&TaskConfig {
        caps: EXT_CAPS,
        client_info: Some(EXAMPLE_CLIENT),
        limits,
        ..TaskConfig::new(TaskDialect::Extension, "b-7")
    });
    task_leg(&mut th.task(), 1);
    th
}

#[cfg(feature = "tasks")]
#[test]
fn the_extension_dialect_runs_from_create_task_to_result() {
    let mut h = Harness::new(&tool_config(r#"{"name":"build"}"#, EXT_CAPS));
    let mut call = h.call();
    leg(&mut call, 1);
    let created = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"task","taskId":"b-7","status":"working","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:00Z","ttlMs":60000,"pollIntervalMs":500}}"#;
    let Ok(Event::TaskCreated(handoff)) = call.feed(created) else {
        panic!()
    };
    assert_eq!(handoff.dialect, TaskDialect::Extension);
    let mut th = TaskHarness::new(&TaskConfig {
        client_info: Some(EXAMPLE_CLIENT),
        ..TaskConfig::from_handoff(&handoff, call.caps())
    });
    let mut task = th.task();
    assert_eq!(task.poll_ms(), 500);
    let meta = example_meta(
        r#"{"elicitation":{"form":{}},"extensions":{"io.modelcontextprotocol/tasks":{}}}"#,
    );
    let get = |id: u32| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tasks/get","params":{{{meta},"taskId":"b-7"}}}}"#
        )
    };
    assert_eq!(task_leg(&mut task, 2), get(2));
    let working = detailed(2, "working", r#","pollIntervalMs":2000"#);
    assert_eq!(task.feed(working.as_bytes()), Ok(TaskEvent::Poll(2000)));
    assert_eq!(task_leg(&mut task, 3), get(3));
    let ask = detailed(
        3,
        "input_required",
        r#","inputRequests":{"confirm":{"method":"elicitation/create","params":{"message":"Deploy?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}}}"#,
    );
    assert_eq!(task.feed(ask.as_bytes()), Ok(TaskEvent::InputRequired(1)));
    task.answer(
        "confirm",
        Answer::Elicit {
            action: ElicitAction::Accept,
            content: Some(br#"{"ok":true}"#),
        },
    )
    .unwrap();
    assert_eq!(
        task_leg(&mut task, 4),
        format!(
            r#"{{"jsonrpc":"2.0","id":4,"method":"tasks/update","params":{{{meta},"taskId":"b-7","inputResponses":{{"confirm":{{"action":"accept","content":{{"ok":true}}}}}}}}}}"#
        )
    );
    assert_eq!(
        task.feed(br#"{"jsonrpc":"2.0","id":4,"result":{"resultType":"complete"}}"#),
        Ok(TaskEvent::Poll(2000))
    );
    assert_eq!(task_leg(&mut task, 5), get(5));
    let done = detailed(
        5,
        "completed",
        r#","result":{"resultType":"complete","content":[{"type":"text","text":"deployed"}],"isError":false}"#,
    );
    assert_eq!(
        task.feed(done.as_bytes()),
        Ok(TaskEvent::Complete(
            br#"{"resultType":"complete","content":[{"type":"text","text":"deployed"}],"isError":false}"#
        ))
    );
    assert_eq!(task.phase(), Phase::Done);
}

#[test]
fn a_failed_task_carries_its_error_and_a_cancelled_task_ends() {
    let mut th = ext_task(CallLimits::default());
    let mut task = th.task();
    let failed = detailed(
        1,
        "failed",
        r#","error":{"code":-32603,"message":"disk full","data":{"free":0}}"#,
    );
    let Ok(TaskEvent::Failed(e)) = task.feed(failed.as_bytes()) else {
        panic!()
    };
    assert_eq!(e.code, -32603);
    assert!(e.message.eq_str("disk full"));
    assert_eq!(e.data.unwrap().raw(), br#"{"free":0}"#);
    assert_eq!(task.phase(), Phase::Done);

    let mut th = ext_task(CallLimits::default());
    let mut task = th.task();
    let cancelled = detailed(1, "cancelled", "");
    assert_eq!(task.feed(cancelled.as_bytes()), Ok(TaskEvent::Cancelled));

    // Missing the field its status requires.
    for (status, extra) in [("failed", ""), ("completed", ""), ("input_required", "")] {
        let mut th = ext_task(CallLimits::default());
        let mut task = th.task();
        let msg = detailed(1, status, extra);
        assert_eq!(
            task.feed(msg.as_bytes()),
            Err(CallError::Protocol(Violation::BadTask)),
            "{status}"
        );
    }
}

#[test]
fn task_status_is_checked_per_dialect() {
    let mut th = ext_task(CallLimits::default());
    let mut task = th.task();
    let msg = detailed(1, "Working", "");
    assert_eq!(
        task.feed(msg.as_bytes()),
        Err(CallError::Protocol(Violation::UnknownTaskStatus))
    );
    let mut th = ext_task(CallLimits::default());
    let mut task = th.task();
    let msg = detailed(1, "paused", "");
    assert_eq!(
        task.feed(msg.as_bytes()),
        Err(CallError::Protocol(Violation::UnknownTaskStatus))
    );
}

#[test]
fn a_status_for_another_task_is_a_violation() {
    let mut th = ext_task(CallLimits::default());
    let mut task = th.task();
    let msg = detailed(1, "working", "").replace("b-7", "b-8");
    assert_eq!(
        task.feed(msg.as_bytes()),
        Err(CallError::Protocol(Violation::TaskIdMismatch))
    );
    // The same id spelled with an escape is the same task.
    let mut th = ext_task(CallLimits::default());
    let mut task = th.task();
    let msg = detailed(1, "working", "").replace("b-7", r"b\u002d7");
    assert_eq!(task.feed(msg.as_bytes()), Ok(TaskEvent::Poll(1000)));
}

#[test]
fn the_poll_interval_is_the_servers_hint_clamped_to_the_limits() {
    for (hint, expected) in [
        ("", 1000),
        (r#","pollIntervalMs":0"#, 100),
        (r#","pollIntervalMs":-5"#, 100),
        (r#","pollIntervalMs":250"#, 250),
        (r#","pollIntervalMs":9007199254740991"#, 60_000),
    ] {
        let mut th = ext_task(CallLimits::default());
        let mut task = th.task();
        let msg = detailed(1, "working", hint);
        assert_eq!(
            task.feed(msg.as_bytes()),
            Ok(TaskEvent::Poll(expected)),
            "{hint}"
        );
    }
    let mut th = ext_task(CallLimits::default());
    let mut task = th.task();
    let msg = detailed(1, "working", r#","pollIntervalMs":"soon""#);
    assert_eq!(
        task.feed(msg.as_bytes()),
        Err(CallError::Protocol(Violation::BadTask))
    );
}

#[test]
fn a_task_is_polled_at_most_max_polls_times() {
    let limits = CallLimits {
        max_polls: 2,
        ..CallLimits::default()
    };
    let mut th = ext_task(limits);
    let mut task = th.task();
    let working = |id| detailed(id, "working", "");
    assert_eq!(task.feed(working(1).as_bytes()), Ok(TaskEvent::Poll(1000)));
    task_leg(&mut task, 2);
    assert_eq!(
        task.feed(working(2).as_bytes()),
        Err(CallError::TooManyPolls { limit: 2 })
    );
    assert_eq!(task.phase(), Phase::Failed);
}

#[test]
fn tasks_get_cannot_answer_input_required_or_task() {
    let mut th = ext_task(CallLimits::default());
    let mut task = th.task();
    let msg =
        br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"s"}}"#;
    assert_eq!(
        task.feed(msg),
        Err(CallError::Protocol(Violation::InputRequiredNotAllowed))
    );
    let mut th = ext_task(CallLimits::default());
    let mut task = th.task();
    let msg = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"task","taskId":"b-7","status":"working"}}"#;
    assert_eq!(
        task.feed(msg),
        Err(CallError::Protocol(Violation::UnexpectedResultType))
    );
}

#[test]
fn an_extension_task_needs_the_extension_declared_and_a_task_id() {
    let mut st = TaskSlot::default();
    let limits = CallLimits::default();
    let mut buf = vec![0u8; Task::workspace_size(&limits)];
    let no_ext = TaskConfig {
        caps: FORM,
        ..TaskConfig::new(TaskDialect::Extension, "x")
    };
    assert_eq!(
        Task::init(&mut st, &mut buf, &no_ext).map(|_| ()),
        Err(CallError::BadParams(ParamsError::TasksNotDeclared))
    );
    let empty = TaskConfig::new(TaskDialect::Seed, "");
    assert_eq!(
        Task::init(&mut st, &mut buf, &empty).map(|_| ()),
        Err(CallError::BadParams(ParamsError::BadTaskId))
    );
    // The fixed part (`_meta` and id) is bounded by `max_params_bytes`
    // (16 KiB by default, as for a call's params).
    let long = "x".repeat(20_000);
    let too_long = TaskConfig::new(TaskDialect::Seed, &long);
    assert!(matches!(
        Task::init(&mut st, &mut buf, &too_long).map(|_| ()),
        Err(CallError::ParamsTooLarge { limit: 16_384, .. })
    ));
}

#[test]
fn cancelling_a_task_sends_tasks_cancel_and_ends_on_the_acknowledgement() {
    let mut th = ext_task(CallLimits::default());
    let mut task = th.task();
    let mut out = [0u8; 1024];
    let n = task.write_cancel(2, &mut out).unwrap();
    let meta = example_meta(
        r#"{"elicitation":{"form":{}},"extensions":{"io.modelcontextprotocol/tasks":{}}}"#,
    );
    assert_eq!(
        core::str::from_utf8(&out[..n]).unwrap(),
        format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"tasks/cancel","params":{{{meta},"taskId":"b-7"}}}}"#
        )
    );
    // The poll that was in flight is no longer ours.
    let late = detailed(1, "working", "");
    assert!(matches!(
        task.feed(late.as_bytes()),
        Ok(TaskEvent::Unrelated(_))
    ));
    assert_eq!(
        task.feed(br#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete"}}"#),
        Ok(TaskEvent::Cancelled)
    );
    assert_eq!(task.phase(), Phase::Done);
    assert_eq!(
        task.write_cancel(3, &mut out),
        Err(CallError::WrongState(Phase::Done))
    );
}

#[test]
fn answers_of_one_task_round_never_reach_the_next() {
    let mut th = ext_task(CallLimits::default());
    let mut task = th.task();
    let ask = |id, keys: &[&str]| {
        let reqs: Vec<String> = keys
            .iter()
            .map(|k| format!(r#""{k}":{{"method":"elicitation/create","params":{{"message":"m","requestedSchema":{{"type":"object"}}}}}}"#))
            .collect();
        detailed(
            id,
            "input_required",
            &format!(r#","inputRequests":{{{}}}"#, reqs.join(",")),
        )
    };
    assert_eq!(
        task.feed(ask(1, &["a", "b"]).as_bytes()),
        Ok(TaskEvent::InputRequired(2))
    );
    for k in ["a", "b"] {
        task.answer(
            k,
            Answer::Elicit {
                action: ElicitAction::Cancel,
                content: None,
            },
        )
        .unwrap();
    }
    task_leg(&mut task, 2);
    task.feed(br#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete"}}"#)
        .unwrap();
    task_leg(&mut task, 3);
    assert_eq!(
        task.feed(ask(3, &["c"]).as_bytes()),
        Ok(TaskEvent::InputRequired(1))
    );
    task.answer(
        "c",
        Answer::Elicit {
            action: ElicitAction::Decline,
            content: None,
        },
    )
    .unwrap();
    let out = task_leg(&mut task, 4);
    assert!(
        out.ends_with(r#""taskId":"b-7","inputResponses":{"c":{"action":"decline"}}}}"#),
        "{out}"
    );
    assert_eq!(task.round(), 2);
}
