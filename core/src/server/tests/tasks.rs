//! The task side: the SEP's persistent workflow (seed dialect) and the Tasks
//! extension, by exact bytes.

use super::*;
use crate::wire::{ClientCapabilities, ElicitAction};

const TASK: &str = "echo_dc792e24-01b5-4c0a-abcb-0559848ca3c5";
const ECHO_SCHEMA: &str =
    r#"{"type":"object","properties":{"input":{"type":"string"}},"required":["input"]}"#;

fn at(unix: u64) -> String {
    let mut buf = [0u8; 20];
    format_rfc3339(unix, &mut buf).unwrap().into()
}

fn echo_task(status: TaskStatus, message: &'static str, times: &'static str) -> TaskInfo<'static> {
    TaskInfo {
        task_id: TASK,
        status,
        status_message: Some(message),
        created_at: times,
        last_updated_at: times,
        ttl_ms: Some(60_000),
        poll_interval_ms: Some(100),
    }
}

#[test]
fn the_seed_dialect_runs_the_seps_persistent_echo_flow() {
    let created = "2026-01-27T03:32:48Z";
    assert_eq!(at(1_769_484_768), created);
    // 1-2: a task-augmented tools/call is answered with a task.
    let call = std::format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"_meta":{},"name":"echo","task":{{"ttl":60000}}}}}}"#,
        meta(r#"{"elicitation":{}}"#)
    );
    let call = request(call.as_bytes());
    assert_eq!(call.task.unwrap().raw(), br#"{"ttl":60000}"#);
    // What the server keeps with the task: the capabilities declared here.
    let stored_caps = call.client_capabilities();
    let working = echo_task(
        TaskStatus::Working,
        "Task has been created for echo tool invocation.",
        created,
    );
    assert_eq!(
        emit(|o| write_create_task(o, &call.id, TaskDialect::Seed, &working)),
        std::format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"task","task":{{"taskId":"{TASK}","status":"working","statusMessage":"Task has been created for echo tool invocation.","createdAt":"{created}","lastUpdatedAt":"{created}","ttl":60000,"pollInterval":100}}}}}}"#
        )
    );
    // 3-4: tasks/get shows input_required.
    let get = std::format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{{"taskId":"{TASK}"}}}}"#
    );
    let get = request(get.as_bytes());
    let waiting = echo_task(
        TaskStatus::InputRequired,
        "Input Required to Proceed call tasks/result",
        created,
    );
    assert_eq!(
        emit(|o| write_task_status_seed(o, &get.id, &waiting)),
        std::format!(
            r#"{{"jsonrpc":"2.0","id":2,"result":{{"resultType":"complete","taskId":"{TASK}","status":"input_required","statusMessage":"Input Required to Proceed call tasks/result","createdAt":"{created}","lastUpdatedAt":"{created}","ttl":60000,"pollInterval":100}}}}"#
        )
    );
    // 5-6: tasks/result returns the inputRequests, tagged with the task. The
    // request declares no capabilities itself; the stored ones apply.
    let result = std::format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"tasks/result","params":{{"taskId":"{TASK}"}}}}"#
    );
    let result = request(result.as_bytes());
    let mut buf = [0u8; 1024];
    let mut b = InputRequiredBuilder::for_request(&mut buf, &result).unwrap();
    assert!(matches!(
        b.elicit_form("echo_input", "m", ECHO_SCHEMA.as_bytes()),
        Err(BuildError::MissingCapability { .. })
    ));
    let task_id: String = result.task_id.unwrap().chars().collect();
    let asked = emit(|o| {
        let mut b = InputRequiredBuilder::new(o, &result.id, &stored_caps);
        b.elicit_form(
            "echo_input",
            "Please provide the input string to echo back",
            ECHO_SCHEMA.as_bytes(),
        )?
        .related_task(&task_id);
        b.finish()
    });
    assert_eq!(
        asked,
        std::format!(
            r#"{{"jsonrpc":"2.0","id":3,"result":{{"resultType":"input_required","inputRequests":{{"echo_input":{{"method":"elicitation/create","params":{{"mode":"form","message":"Please provide the input string to echo back","requestedSchema":{ECHO_SCHEMA}}}}}}},"_meta":{{"io.modelcontextprotocol/related-task":{{"taskId":"{TASK}"}}}}}}}}"#
        )
    );
    // 7-8: the answers arrive in tasks/input_response and are acknowledged.
    let input = std::format!(
        r#"{{"jsonrpc":"2.0","id":4,"method":"tasks/input_response","params":{{"inputResponses":{{"echo_input":{{"result":{{"action":"accept","content":{{"input":"Hello World!"}}}}}}}},"_meta":{{"io.modelcontextprotocol/related-task":{{"taskId":"{TASK}"}}}}}}}}"#
    );
    let input = request(input.as_bytes());
    let answer = input.elicit_answer("echo_input").unwrap().unwrap();
    assert_eq!(answer.action, ElicitAction::Accept);
    assert!(answer
        .field("input")
        .unwrap()
        .unwrap()
        .as_str()
        .unwrap()
        .eq_str("Hello World!"));
    let ack = std::format!(
        r#"{{"jsonrpc":"2.0","id":4,"result":{{"resultType":"complete","_meta":{{"io.modelcontextprotocol/related-task":{{"taskId":"{TASK}"}}}}}}}}"#
    );
    assert_eq!(
        emit(|o| write_input_response_ack(o, &input.id, &task_id)),
        ack
    );
    // 9-12: completed, and the final result carries the task in _meta.
    let done = echo_task(
        TaskStatus::Completed,
        "Task has been completed successfully, call get/result",
        created,
    );
    assert_eq!(
        emit(|o| write_task_status_seed(o, &num(5), &done)),
        std::format!(
            r#"{{"jsonrpc":"2.0","id":5,"result":{{"resultType":"complete","taskId":"{TASK}","status":"completed","statusMessage":"Task has been completed successfully, call get/result","createdAt":"{created}","lastUpdatedAt":"{created}","ttl":60000,"pollInterval":100}}}}"#
        )
    );
    let members = std::format!(
        r#""isError":false,"content":[{{"type":"text","text":"Echo: Hello World!"}}],"_meta":{{"io.modelcontextprotocol/related-task":{{"taskId":"{TASK}"}}}}"#
    );
    assert_eq!(
        emit(|o| write_complete(o, &num(6), members.as_bytes())),
        std::format!(
            r#"{{"jsonrpc":"2.0","id":6,"result":{{"resultType":"complete",{members}}}}}"#
        )
    );
}

#[test]
fn unexpected_task_answers_are_acknowledged_and_the_task_stays_input_required() {
    let input = std::format!(
        r#"{{"jsonrpc":"2.0","id":4,"method":"tasks/input_response","params":{{"inputResponses":{{"echo_input":{{"result":{{"action":"accept","content":{{"not_requested_parameter":"Information the server did not request."}}}}}}}},"_meta":{{"io.modelcontextprotocol/related-task":{{"taskId":"{TASK}"}}}}}}}}"#
    );
    let input = request(input.as_bytes());
    let answer = input.elicit_answer("echo_input").unwrap().unwrap();
    // The needed field is missing: not an error; the app keeps asking.
    assert_eq!(answer.field("input"), Ok(None));
    assert_eq!(
        emit(|o| write_input_response_ack(o, &input.id, TASK)),
        std::format!(
            r#"{{"jsonrpc":"2.0","id":4,"result":{{"resultType":"complete","_meta":{{"io.modelcontextprotocol/related-task":{{"taskId":"{TASK}"}}}}}}}}"#
        )
    );
}

const T0: &str = "2026-07-28T10:00:00Z";

fn ext_task(status: TaskStatus) -> TaskInfo<'static> {
    TaskInfo {
        task_id: "task-7",
        status,
        status_message: None,
        created_at: T0,
        last_updated_at: "2026-07-28T10:00:05Z",
        ttl_ms: None,
        poll_interval_ms: Some(500),
    }
}

#[test]
fn the_extension_dialect_surfaces_input_requests_on_tasks_get_and_takes_answers_in_tasks_update() {
    assert_eq!(at(1_785_232_800), T0);
    // CreateTaskResult: the task's members at the top of the result.
    assert_eq!(
        emit(|o| write_create_task(
            o,
            &num(1),
            TaskDialect::Extension,
            &ext_task(TaskStatus::Working)
        )),
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"task","taskId":"task-7","status":"working","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:05Z","ttlMs":null,"pollIntervalMs":500}}"#
    );
    // tasks/get while waiting: a DetailedTask with inputRequests.
    let caps = ClientCapabilities {
        elicitation_form: true,
        tasks: true,
        ..Default::default()
    };
    let waiting = TaskInfo {
        status_message: Some("Waiting for confirmation"),
        ttl_ms: Some(60_000),
        ..ext_task(TaskStatus::InputRequired)
    };
    let schema = r#"{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}"#;
    let out = emit(|o| {
        let mut b = TaskInputRequiredBuilder::new(o, &num(2), &waiting, &caps)?;
        b.elicit_form("confirm", "Deploy to production?", schema.as_bytes())?;
        assert!(matches!(
            b.roots("dirs"),
            Err(BuildError::MissingCapability { .. })
        ));
        b.finish()
    });
    assert_eq!(
        out,
        std::format!(
            r#"{{"jsonrpc":"2.0","id":2,"result":{{"resultType":"complete","taskId":"task-7","status":"input_required","statusMessage":"Waiting for confirmation","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:05Z","ttlMs":60000,"pollIntervalMs":500,"inputRequests":{{"confirm":{{"method":"elicitation/create","params":{{"mode":"form","message":"Deploy to production?","requestedSchema":{schema}}}}}}}}}}}"#
        )
    );
    // tasks/update brings the answer; the result is a bare complete.
    let update = br#"{"jsonrpc":"2.0","id":3,"method":"tasks/update","params":{"taskId":"task-7","inputResponses":{"confirm":{"action":"accept","content":{"ok":true}}}}}"#;
    let update = request(update);
    let ok = update.elicit_answer("confirm").unwrap().unwrap();
    assert_eq!(ok.field("ok").unwrap().unwrap().as_bool(), Some(true));
    assert_eq!(
        emit(|o| write_update_task_result(o, &update.id)),
        r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete"}}"#
    );
    // Completed: the request's result rides in `result`.
    assert_eq!(
        emit(|o| write_detailed_task(
            o,
            &num(4),
            &ext_task(TaskStatus::Completed),
            TaskDetail::Result(
                br#" {"resultType":"complete","content":[{"type":"text","text":"deployed"}]} "#
            )
        )),
        r#"{"jsonrpc":"2.0","id":4,"result":{"resultType":"complete","taskId":"task-7","status":"completed","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:05Z","ttlMs":null,"pollIntervalMs":500,"result":{"resultType":"complete","content":[{"type":"text","text":"deployed"}]}}}"#
    );
    assert_eq!(
        emit(|o| write_detailed_task(
            o,
            &num(5),
            &ext_task(TaskStatus::Failed),
            TaskDetail::Error {
                code: -32603,
                message: "Internal error",
                data: Some(br#"{"reason":"disk full"}"#)
            }
        )),
        r#"{"jsonrpc":"2.0","id":5,"result":{"resultType":"complete","taskId":"task-7","status":"failed","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:05Z","ttlMs":null,"pollIntervalMs":500,"error":{"code":-32603,"message":"Internal error","data":{"reason":"disk full"}}}}"#
    );
    let cancelled = TaskInfo {
        poll_interval_ms: None,
        ..ext_task(TaskStatus::Cancelled)
    };
    assert_eq!(
        emit(|o| write_detailed_task(o, &num(6), &cancelled, TaskDetail::None)),
        r#"{"jsonrpc":"2.0","id":6,"result":{"resultType":"complete","taskId":"task-7","status":"cancelled","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:05Z","ttlMs":null}}"#
    );
}

#[test]
fn a_detailed_task_must_carry_what_its_status_requires() {
    let mut buf = [0u8; 512];
    let mismatch = [
        (TaskStatus::Completed, TaskDetail::None),
        (TaskStatus::Working, TaskDetail::Result(b"{}")),
        (TaskStatus::Failed, TaskDetail::Result(b"{}")),
        (
            TaskStatus::Cancelled,
            TaskDetail::Error {
                code: 1,
                message: "x",
                data: None,
            },
        ),
        (TaskStatus::InputRequired, TaskDetail::None),
    ];
    for (status, detail) in mismatch {
        assert_eq!(
            write_detailed_task(&mut buf, &num(1), &ext_task(status), detail),
            Err(TaskWriteError::StatusMismatch),
            "{status:?}"
        );
    }
    for bad in [&b"[]"[..], b"{", b"\"done\""] {
        assert_eq!(
            write_detailed_task(
                &mut buf,
                &num(1),
                &ext_task(TaskStatus::Completed),
                TaskDetail::Result(bad)
            ),
            Err(TaskWriteError::InvalidPayload)
        );
    }
    let bad_data = TaskDetail::Error {
        code: 1,
        message: "x",
        data: Some(b"{nope}"),
    };
    assert_eq!(
        write_detailed_task(&mut buf, &num(1), &ext_task(TaskStatus::Failed), bad_data),
        Err(TaskWriteError::InvalidPayload)
    );
    let huge = TaskInfo {
        ttl_ms: Some(MAX_SAFE_INTEGER + 1),
        ..ext_task(TaskStatus::Working)
    };
    assert_eq!(
        write_create_task(&mut buf, &num(1), TaskDialect::Extension, &huge),
        Err(TaskWriteError::NumberOutOfRange)
    );
    let max = TaskInfo {
        ttl_ms: Some(MAX_SAFE_INTEGER),
        ..ext_task(TaskStatus::Working)
    };
    assert!(write_create_task(&mut buf, &num(1), TaskDialect::Extension, &max).is_ok());
    // The input_required status builder: right status, at least one request.
    let caps = ClientCapabilities::ALL;
    assert_eq!(
        TaskInputRequiredBuilder::new(&mut buf, &num(1), &ext_task(TaskStatus::Working), &caps)
            .err(),
        Some(BuildError::StatusNotInputRequired)
    );
    let b = TaskInputRequiredBuilder::new(
        &mut buf,
        &num(1),
        &ext_task(TaskStatus::InputRequired),
        &caps,
    )
    .unwrap();
    assert_eq!(b.finish(), Err(BuildError::Empty));
    let slow = TaskInfo {
        poll_interval_ms: Some(u64::MAX),
        ..ext_task(TaskStatus::InputRequired)
    };
    assert_eq!(
        TaskInputRequiredBuilder::new(&mut buf, &num(1), &slow, &caps).err(),
        Some(BuildError::InvalidTask)
    );
}

#[test]
fn a_completed_tasks_result_always_carries_result_type_complete() {
    let done = ext_task(TaskStatus::Completed);
    let head = r#"{"jsonrpc":"2.0","id":4,"result":{"resultType":"complete","taskId":"task-7","status":"completed","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:05Z","ttlMs":null,"pollIntervalMs":500,"result":"#;
    // Extension dialect (tasks/get): an app result without resultType gets
    // it first, members kept as sent; one that says "complete" is kept.
    for (app, embedded) in [
        (
            &br#"{"content":[{"type":"text","text":"deployed"}],"isError":false}"#[..],
            r#"{"resultType":"complete","content":[{"type":"text","text":"deployed"}],"isError":false}"#,
        ),
        (
            br#" { "content" : [] } "#,
            r#"{"resultType":"complete","content" : []}"#,
        ),
        (b"{}", r#"{"resultType":"complete"}"#),
        (
            br#"{"isError":true,"resultType":"complete","content":[]}"#,
            r#"{"isError":true,"resultType":"complete","content":[]}"#,
        ),
    ] {
        assert_eq!(
            emit(|o| write_detailed_task(o, &num(4), &done, TaskDetail::Result(app))),
            std::format!("{head}{embedded}}}}}"),
            "{}",
            String::from_utf8_lossy(app)
        );
    }
    // Seed dialect (tasks/result): the same, and the task named in _meta
    // (first in it, the app's own _meta members after).
    let related = std::format!(r#""io.modelcontextprotocol/related-task":{{"taskId":"{TASK}"}}"#);
    for (app, result) in [
        (
            &br#"{"isError":false,"content":[{"type":"text","text":"Echo: Hello World!"}]}"#[..],
            std::format!(
                r#"{{"resultType":"complete","isError":false,"content":[{{"type":"text","text":"Echo: Hello World!"}}],"_meta":{{{related}}}}}"#
            ),
        ),
        (
            br#"{"_meta":{"trace":"t1"},"resultType":"complete","content":[]}"#,
            std::format!(
                r#"{{"resultType":"complete","content":[],"_meta":{{{related},"trace":"t1"}}}}"#
            ),
        ),
        (
            b"{}",
            std::format!(r#"{{"resultType":"complete","_meta":{{{related}}}}}"#),
        ),
    ] {
        assert_eq!(
            emit(|o| write_task_result_seed(o, &num(6), TASK, app)),
            std::format!(r#"{{"jsonrpc":"2.0","id":6,"result":{result}}}"#),
            "{}",
            String::from_utf8_lossy(app)
        );
    }
    // Another resultType, or two, is refused by both, before anything is
    // written.
    let mut buf = [0u8; 512];
    for bad in [
        &br#"{"resultType":"input_required","inputRequests":{}}"#[..],
        br#"{"resultType":"task"}"#,
        br#"{"resultType":7}"#,
        br#"{"resultType":"complete","resultType":"complete"}"#,
    ] {
        assert_eq!(
            write_detailed_task(&mut buf, &num(4), &done, TaskDetail::Result(bad)),
            Err(TaskWriteError::ConflictingResultType),
            "{}",
            String::from_utf8_lossy(bad)
        );
        assert_eq!(
            write_task_result_seed(&mut buf, &num(6), TASK, bad),
            Err(TaskWriteError::ConflictingResultType),
            "{}",
            String::from_utf8_lossy(bad)
        );
    }
    // The seed writer names the task itself: a result that already does, a
    // _meta that is not one object, or no object at all, is refused.
    for bad in [
        std::format!(r#"{{"content":[],"_meta":{{{related}}}}}"#),
        r#"{"content":[],"_meta":[]}"#.into(),
        r#"{"_meta":{},"_meta":{}}"#.into(),
        r#""content":[]"#.into(),
        "[]".into(),
        "{".into(),
    ] {
        assert_eq!(
            write_task_result_seed(&mut buf, &num(6), TASK, bad.as_bytes()),
            Err(TaskWriteError::InvalidPayload),
            "{bad}"
        );
    }
}

#[test]
fn unix_seconds_format_as_rfc3339() {
    let mut buf = [0u8; 20];
    assert_eq!(format_rfc3339(0, &mut buf), Some("1970-01-01T00:00:00Z"));
    assert_eq!(
        format_rfc3339(951_782_400, &mut buf),
        Some("2000-02-29T00:00:00Z")
    );
    assert_eq!(
        format_rfc3339(951_868_799, &mut buf),
        Some("2000-02-29T23:59:59Z")
    );
    assert_eq!(
        format_rfc3339(951_868_800, &mut buf),
        Some("2000-03-01T00:00:00Z")
    );
    assert_eq!(
        format_rfc3339(4_107_542_400, &mut buf),
        Some("2100-03-01T00:00:00Z")
    );
    assert_eq!(
        format_rfc3339(MAX_RFC3339_SECONDS, &mut buf),
        Some("9999-12-31T23:59:59Z")
    );
    assert_eq!(format_rfc3339(MAX_RFC3339_SECONDS + 1, &mut buf), None);
}

use super::task::{MAX_RFC3339_SECONDS, MAX_SAFE_INTEGER};
use std::string::String;

#[test]
fn what_the_server_writes_about_a_task_the_client_half_reads_back() {
    use crate::wire::task::{created_task, TaskError, TaskRecord};
    use crate::wire::{classify_result, parse_message, InputRequests, Message, ResultOutcome};
    let limits = WireLimits::default();
    fn result_of(bytes: &[u8]) -> crate::json::Object<'_> {
        match parse_message(bytes, &WireLimits::default()).unwrap() {
            Message::Result { result, .. } => result,
            other => panic!("{other:?}"),
        }
    }
    let info = TaskInfo {
        task_id: "t\"1",
        status: TaskStatus::Working,
        status_message: Some("busy"),
        created_at: T0,
        last_updated_at: T0,
        ttl_ms: Some(1000),
        poll_interval_ms: Some(250),
    };
    for dialect in [TaskDialect::Seed, TaskDialect::Extension] {
        let mut buf = [0u8; 512];
        let n = write_create_task(&mut buf, &num(1), dialect, &info).unwrap();
        let result = result_of(&buf[..n]);
        let ResultOutcome::Task(obj) = classify_result(result, "tools/call", &limits).unwrap()
        else {
            panic!("{dialect:?}: not a task result")
        };
        let record = created_task(obj, dialect).unwrap().unwrap();
        assert!(record.task_id.eq_str("t\"1"));
        assert_eq!(record.status, TaskStatus::Working);
        assert_eq!(record.poll_interval_ms, Some(250));
        assert!(record.status_message.unwrap().eq_str("busy"));
    }
    let mut buf = [0u8; 512];
    let waiting = TaskInfo {
        status: TaskStatus::InputRequired,
        ..info
    };
    let n = write_task_status_seed(&mut buf, &num(2), &waiting).unwrap();
    let record = TaskRecord::parse(result_of(&buf[..n]), TaskDialect::Seed).unwrap();
    assert_eq!(record.status, TaskStatus::InputRequired);
    // Extension: input_required carries the requests; failed carries the error.
    let mut b =
        TaskInputRequiredBuilder::new(&mut buf, &num(3), &waiting, &ClientCapabilities::ALL)
            .unwrap();
    b.roots("dirs").unwrap();
    let n = b.finish().unwrap();
    let result = result_of(&buf[..n]);
    let record = TaskRecord::parse(result, TaskDialect::Extension).unwrap();
    assert_eq!(record.status, TaskStatus::InputRequired);
    let reqs = InputRequests::parse(result.get("inputRequests").unwrap(), &limits).unwrap();
    assert_eq!(reqs.len(), 1);
    let failed = TaskInfo {
        status: TaskStatus::Failed,
        ..info
    };
    let detail = TaskDetail::Error {
        code: -32603,
        message: "boom",
        data: None,
    };
    let n = write_detailed_task(&mut buf, &num(4), &failed, detail).unwrap();
    let result = result_of(&buf[..n]);
    assert_eq!(
        TaskRecord::parse(result, TaskDialect::Extension)
            .unwrap()
            .status,
        TaskStatus::Failed
    );
    let err = TaskError::parse(result.get("error").unwrap()).unwrap();
    assert_eq!(err.code, -32603);
    assert!(err.message.eq_str("boom"));
}

/// `roots/list` may go without `params`, but the official Go SDK (v1.7.0)
/// fails the whole call on an input request without them: every writer
/// sends `"params":{}`, the form every official SDK reads.
#[test]
fn a_roots_input_request_always_carries_empty_params() {
    let caps = ClientCapabilities::ALL;
    let mut buf = [0u8; 512];
    let mut b = crate::server::InputRequiredBuilder::new(&mut buf, &num(1), &caps);
    b.roots("dirs").unwrap();
    let n = b.finish().unwrap();
    assert_eq!(
        core::str::from_utf8(&buf[..n]).unwrap(),
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"dirs":{"method":"roots/list","params":{}}}}}"#
    );
    let mut b = TaskInputRequiredBuilder::new(
        &mut buf,
        &num(2),
        &ext_task(TaskStatus::InputRequired),
        &caps,
    )
    .unwrap();
    b.roots("dirs").unwrap();
    let n = b.finish().unwrap();
    assert_eq!(
        core::str::from_utf8(&buf[..n]).unwrap(),
        r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","taskId":"task-7","status":"input_required","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:05Z","ttlMs":null,"pollIntervalMs":500,"inputRequests":{"dirs":{"method":"roots/list","params":{}}}}}"#
    );
}
