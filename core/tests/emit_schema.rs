//! Parse, then emit: every message mrtr writes is written here into
//! `$MRTR_EMIT_DIR` (when set) as `<SchemaDef>__<case>.json`, and
//! `tests/schema/validate.py --emitted DIR` (run by `scripts/test`) validates
//! each against the official 2026-07-28 schema. Without the variable the test
//! still drives every emitter and checks each output parses as JSON.
//!
//! Client side: for every shared `input_required` vector, a `Call` sends its
//! first leg, reads the vector's result, answers every input with a valid
//! answer of its kind, and writes the retry. Server side: the
//! `InputRequiredBuilder`, `write_complete`, every error writer and the task
//! writers (both dialects; a completed task's embedded result on its own).

#[path = "support/vectors.rs"]
#[allow(dead_code)]
mod vectors;

use std::path::PathBuf;

use mrtr_core::client::{
    Answer, AnswerError, Call, CallConfig, CallError, CallMethod, CallSlot, Event,
};
use mrtr_core::json;
use mrtr_core::server::{self, InputRequiredBuilder};
use mrtr_core::wire::{ClientCapabilities, ElicitAction, Id, InputKind, Root};
use serde_json::Value as J;

struct Sink {
    dir: Option<PathBuf>,
    count: usize,
}

impl Sink {
    fn emit(&mut self, def: &str, case: &str, bytes: &[u8]) {
        assert!(
            json::parse(bytes).is_ok(),
            "{def}/{case}: not JSON: {}",
            String::from_utf8_lossy(bytes)
        );
        self.count += 1;
        if let Some(dir) = &self.dir {
            let safe: String = case
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            std::fs::write(dir.join(format!("{def}__{safe}.json")), bytes).unwrap();
        }
    }
}

fn sink() -> Sink {
    let dir = std::env::var_os("MRTR_EMIT_DIR").map(PathBuf::from);
    if let Some(d) = &dir {
        std::fs::create_dir_all(d).unwrap();
    }
    Sink { dir, count: 0 }
}

/// The part of a message at `member` (e.g. the `result` object).
fn member<'a>(msg: &'a [u8], name: &str) -> &'a [u8] {
    json::parse(msg)
        .unwrap()
        .as_object()
        .unwrap()
        .get(name)
        .unwrap()
        .raw()
}

#[test]
fn client_requests_of_every_input_required_vector_validate() {
    let dir = vectors::default_dir();
    let mut out = sink();
    let mut flows = 0;
    for v in vectors::load_all(&dir).unwrap() {
        let file: J =
            serde_json::from_slice(&std::fs::read(dir.join(format!("{}.json", v.name))).unwrap())
                .unwrap();
        if file["direction"] != "server_response" || file["expect"]["outcome"] != "input_required" {
            continue;
        }
        let Some(id) = file["message"]["id"].as_i64() else {
            continue;
        };
        let (method, def, params): (CallMethod, &str, &[u8]) =
            match file["method"].as_str().unwrap() {
                "tools/call" => (
                    CallMethod::ToolsCall,
                    "CallToolRequest",
                    br#"{"name":"t","arguments":{"a":1}}"#,
                ),
                "prompts/get" => (
                    CallMethod::PromptsGet,
                    "GetPromptRequest",
                    br#"{"name":"p","arguments":{"x":"y"}}"#,
                ),
                "resources/read" => (
                    CallMethod::ResourcesRead,
                    "ReadResourceRequest",
                    br#"{"uri":"notes://a"}"#,
                ),
                _ => continue,
            };
        let mut cfg = CallConfig::new(method, params);
        cfg.caps = ClientCapabilities::ALL;
        let mut st = CallSlot::default();
        let mut ws = vec![0u8; Call::workspace_size(&cfg.limits)];
        let mut call = Call::init(&mut st, &mut ws, &cfg).unwrap();
        let mut buf = vec![0u8; 64 * 1024];
        let n = call.write_request(id, &mut buf).unwrap();
        out.emit(def, &format!("{}-leg1", v.name), &buf[..n]);
        let count = match call.feed(&v.message) {
            Ok(Event::InputRequired(count)) => count,
            Ok(Event::RetryAfter(_)) => 0, // state only: retry with the state alone
            other => panic!("{}: not input_required for the client: {other:?}", v.name),
        };
        for i in 0..count {
            let (_, req) = call.input_at(i).unwrap();
            let answer = match req.kind() {
                InputKind::ElicitForm => Answer::Elicit { action: ElicitAction::Accept, content: Some(br#"{"name":"octocat"}"#) },
                InputKind::ElicitUrl => Answer::Elicit { action: ElicitAction::Accept, content: None },
                InputKind::Sampling => Answer::Sampling(
                    br#"{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"m","stopReason":"endTurn"}"#,
                ),
                InputKind::Roots => Answer::Roots(&[Root { uri: "file:///home/u/project", name: Some("project") }]),
            };
            match call.answer_at(i, answer) {
                Ok(()) => {}
                // The core checks a form's content against its schema: a
                // form that does not take this content is declined.
                Err(CallError::BadAnswer {
                    error: AnswerError::FormContent { .. },
                    ..
                }) => call
                    .answer_at(
                        i,
                        Answer::Elicit {
                            action: ElicitAction::Decline,
                            content: None,
                        },
                    )
                    .unwrap(),
                Err(e) => panic!("{}: answer {i}: {e:?}", v.name),
            }
        }
        let n = call.write_request(id + 1, &mut buf).unwrap();
        out.emit(def, &format!("{}-retry", v.name), &buf[..n]);
        flows += 1;
    }
    assert!(flows >= 20, "only {flows} input_required flows");
}

#[test]
fn server_messages_validate() {
    let mut out = sink();
    let mut buf = vec![0u8; 8192];
    let id = Id::Number(7);
    let caps = ClientCapabilities::ALL;

    let mut b = InputRequiredBuilder::new(&mut buf, &id, &caps);
    b.elicit_form("region", "Which region?", br#"{"type":"object","properties":{"region":{"type":"string","enum":["eu","us"]}},"required":["region"]}"#)
        .unwrap()
        .elicit_url("link", "Link your account", "https://auth.example.com/link?x=1")
        .unwrap()
        .sampling("summary", br#"{"messages":[{"role":"user","content":{"type":"text","text":"Sum up"}}],"maxTokens":50,"systemPrompt":"Be brief"}"#)
        .unwrap()
        .roots("roots")
        .unwrap()
        .request_state("m1.opaque");
    let n = b.finish().unwrap();
    out.emit(
        "JSONRPCResultResponse",
        "input-required-all-kinds",
        &buf[..n],
    );
    out.emit(
        "InputRequiredResult",
        "input-required-all-kinds",
        member(&buf[..n], "result"),
    );

    let mut b = InputRequiredBuilder::new(&mut buf, &id, &caps);
    b.request_state("m1.state-only");
    let n = b.finish().unwrap();
    out.emit(
        "InputRequiredResult",
        "state-only",
        member(&buf[..n], "result"),
    );

    let n = server::write_complete(
        &mut buf,
        &id,
        br#"{"content":[{"type":"text","text":"done"}]}"#,
    )
    .unwrap();
    out.emit("CallToolResultResponse", "complete", &buf[..n]);
    out.emit("CallToolResult", "complete", member(&buf[..n], "result"));

    let n = server::write_parse_error(&mut buf).unwrap();
    out.emit("JSONRPCErrorResponse", "parse-error", &buf[..n]);
    let n = server::write_invalid_request(&mut buf, Some(&id)).unwrap();
    out.emit("JSONRPCErrorResponse", "invalid-request", &buf[..n]);
    let n = server::write_method_not_found(&mut buf, &id).unwrap();
    out.emit("JSONRPCErrorResponse", "method-not-found", &buf[..n]);
    let n = server::write_internal_error(&mut buf, Some(&id)).unwrap();
    out.emit("JSONRPCErrorResponse", "internal-error", &buf[..n]);
    let n = server::write_invalid_request_state(&mut buf, &id).unwrap();
    out.emit("JSONRPCErrorResponse", "invalid-request-state", &buf[..n]);
    let need = ClientCapabilities {
        sampling: true,
        sampling_tools: true,
        elicitation_url: true,
        ..Default::default()
    };
    let n = server::write_missing_capability(&mut buf, &id, &need).unwrap();
    out.emit(
        "MissingRequiredClientCapabilityError",
        "sampling-tools-url",
        &buf[..n],
    );
    let requested = json::parse(br#""2099-01-01""#).unwrap().as_str().unwrap();
    let n = server::write_unsupported_version(&mut buf, Some(&id), &requested, &["2026-07-28"])
        .unwrap();
    out.emit("UnsupportedProtocolVersionError", "future", &buf[..n]);
    task_messages(&mut out, &mut buf, &id);
    assert!(out.count >= 24);
}

/// The task writers. The Tasks extension's own definitions are not in the
/// 2026-07-28 schema, so each message is checked as a result response
/// (`JSONRPCResultResponse`: its `result` is a `Result`, `resultType`
/// required) and a completed task's embedded `result` as the request's own
/// result (`CallToolResult`, `resultType` required there too): the forms a
/// client decodes.
fn task_messages(out: &mut Sink, buf: &mut [u8], id: &Id<'_>) {
    use server::{TaskDetail, TaskDialect, TaskInfo, TaskStatus};
    let task = |status| TaskInfo {
        task_id: "task-7",
        status,
        status_message: Some("status"),
        created_at: "2026-07-28T10:00:00Z",
        last_updated_at: "2026-07-28T10:00:05Z",
        ttl_ms: Some(60_000),
        poll_interval_ms: Some(100),
    };
    // An app result without resultType: the writers add it.
    let tool_result = br#"{"content":[{"type":"text","text":"done"}],"isError":false}"#;
    for dialect in [TaskDialect::Seed, TaskDialect::Extension] {
        let n = server::write_create_task(buf, id, dialect, &task(TaskStatus::Working)).unwrap();
        out.emit(
            "JSONRPCResultResponse",
            &format!("create-task-{dialect:?}"),
            &buf[..n],
        );
    }
    for (status, detail, case) in [
        (TaskStatus::Working, TaskDetail::None, "working"),
        (
            TaskStatus::Completed,
            TaskDetail::Result(tool_result),
            "completed",
        ),
        (
            TaskStatus::Failed,
            TaskDetail::Error {
                code: -32603,
                message: "Internal error",
                data: Some(br#"{"reason":"disk full"}"#),
            },
            "failed",
        ),
        (TaskStatus::Cancelled, TaskDetail::None, "cancelled"),
    ] {
        let n = server::write_detailed_task(buf, id, &task(status), detail).unwrap();
        out.emit(
            "JSONRPCResultResponse",
            &format!("tasks-get-{case}"),
            &buf[..n],
        );
        if status == TaskStatus::Completed {
            let result = member(member(&buf[..n], "result"), "result");
            out.emit("CallToolResult", "tasks-get-completed-result", result);
        }
    }
    let mut b = server::TaskInputRequiredBuilder::new(
        buf,
        id,
        &task(TaskStatus::InputRequired),
        &ClientCapabilities::ALL,
    )
    .unwrap();
    b.elicit_form(
        "confirm",
        "Delete it?",
        br#"{"type":"object","properties":{"confirm":{"type":"boolean"}},"required":["confirm"]}"#,
    )
    .unwrap();
    let n = b.finish().unwrap();
    out.emit(
        "JSONRPCResultResponse",
        "tasks-get-input-required",
        &buf[..n],
    );
    let n = server::write_update_task_result(buf, id).unwrap();
    out.emit("JSONRPCResultResponse", "tasks-update", &buf[..n]);
    let n = server::write_task_status_seed(buf, id, &task(TaskStatus::Completed)).unwrap();
    out.emit("JSONRPCResultResponse", "seed-tasks-get", &buf[..n]);
    let n = server::write_input_response_ack(buf, id, "task-7").unwrap();
    out.emit(
        "JSONRPCResultResponse",
        "seed-input-response-ack",
        &buf[..n],
    );
    let n = server::write_task_result_seed(buf, id, "task-7", tool_result).unwrap();
    out.emit("CallToolResultResponse", "seed-tasks-result", &buf[..n]);
    out.emit(
        "CallToolResult",
        "seed-tasks-result",
        member(&buf[..n], "result"),
    );
}
