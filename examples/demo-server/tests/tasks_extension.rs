//! The Tasks extension (SEP-2663) surface: gating on the declared
//! extension, the conformance suite's fixtures (`tasks-*` scenarios), and
//! the simulated work on the server's clock.

mod common;

use common::*;
use serde_json::{json, Value};

const TASK_ID: &str = "task-42424242424242424242424242424242";
/// `NOW` as RFC 3339.
const STAMP: &str = "2027-01-15T08:00:00Z";
const MISSING_TASKS: &str = r#""error":{"code":-32021,"message":"Missing required client capability","data":{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}}"#;

/// Form elicitation plus the Tasks extension.
fn ext() -> Value {
    json!({"elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}})
}

fn task_request(id: i64, method: &str, params: Value, caps: &Value) -> Vec<u8> {
    let mut p = json!({"taskId": TASK_ID});
    if let Value::Object(m) = params {
        for (k, v) in m {
            p[k] = v;
        }
    }
    request(id, method, p, caps)
}

fn get(h: &Harness, id: i64) -> String {
    text(&h.send(&task_request(id, "tasks/get", json!({}), &ext())))
}

/// The members every `DetailedTask` / `CreateTaskResult` of the harness
/// task carries, from `status` on.
fn members(status: &str, message: &str, updated: &str) -> String {
    format!(
        r#""taskId":"{TASK_ID}","status":"{status}","statusMessage":"{message}","createdAt":"{STAMP}","lastUpdatedAt":"{updated}","ttlMs":600000,"pollIntervalMs":100"#
    )
}

fn created(id: i64) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"task",{}}}}}"#,
        members("working", "Task started", STAMP)
    )
}

fn ack(id: i64) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"complete"}}}}"#)
}

#[test]
fn task_methods_need_the_extension_declared() {
    let h = harness();
    for (id, method, params) in [
        (1, "tasks/get", json!({})),
        (2, "tasks/update", json!({"inputResponses": {}})),
        (3, "tasks/cancel", json!({})),
    ] {
        assert_eq!(
            text(&h.send(&task_request(id, method, params, &all_caps()))),
            format!(r#"{{"jsonrpc":"2.0","id":{id},{MISSING_TASKS}"#),
            "{method}"
        );
    }
    // tasks/result and tasks/input_response are not extension methods.
    let not_found = |id: i64| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32601,"message":"Method not found"}}}}"#
        )
    };
    assert_eq!(
        text(&h.send(&task_request(4, "tasks/result", json!({}), &ext()))),
        not_found(4)
    );
    assert_eq!(
        text(&h.send(&task_request(5, "tasks/result", json!({}), &all_caps()))),
        not_found(5)
    );
    let related = json!({"io.modelcontextprotocol/related-task": {"taskId": TASK_ID}});
    let answer = json!({"inputResponses": {}, "_meta": related});
    assert_eq!(
        text(&h.send(&request(6, "tasks/input_response", answer, &Value::Null))),
        not_found(6)
    );
    // Even with the seed dialect served, a request that declares the
    // extension gets -32601 for tasks/result.
    let h = seed_harness();
    assert_eq!(
        text(&h.send(&task_request(7, "tasks/result", json!({}), &ext()))),
        not_found(7)
    );
    // Declared: an unknown task is -32602.
    assert_eq!(
        get(&h, 8),
        format!(
            r#"{{"jsonrpc":"2.0","id":8,"error":{{"code":-32602,"message":"Unknown taskId: {TASK_ID}"}}}}"#
        )
    );
}

#[test]
fn a_required_task_tool_without_the_extension_is_32021() {
    let h = harness();
    for (id, name) in [
        (1, "failing_job"),
        (2, "protocol_error_job"),
        (3, "test_tool_with_task"),
    ] {
        assert_eq!(
            text(&h.send(&tool_call(id, name, &json!({}), json!({}), &all_caps()))),
            format!(r#"{{"jsonrpc":"2.0","id":{id},{MISSING_TASKS}"#),
            "{name}"
        );
    }
}

#[test]
fn optional_task_tools_run_inline_without_the_extension() {
    let h = harness();
    let args = json!({"seconds": 0, "label": "x"});
    let r = h.send(&tool_call(1, "slow_compute", &args, json!({}), &all_caps()));
    assert_eq!(
        text(&r),
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"Computed 'x' in 0 s."}],"isError":false}}"#
    );
    // A sync-only tool stays sync with the extension declared, and a legacy
    // params.task does not make it a task.
    let legacy = json!({"task": {"ttl": 60000, "pollInterval": 100}});
    let r = h.send(&tool_call(
        2,
        "greet",
        &json!({"name": "legacy-hint"}),
        legacy,
        &ext(),
    ));
    assert_eq!(
        text(&r),
        r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"Hello, legacy-hint!"}],"isError":false}}"#
    );
    // Nor does it make long_export a seed task unless --seed-tasks.
    let r = h.send(&tool_call(
        3,
        "long_export",
        &json!({}),
        json!({"task": {}}),
        &all_caps(),
    ));
    assert_eq!(parsed(&r)["result"]["resultType"], "input_required");
    // confirm_delete asks inline.
    let r = parsed(&h.send(&tool_call(
        4,
        "confirm_delete",
        &json!({"filename": "a.txt"}),
        json!({}),
        &all_caps(),
    )));
    assert_eq!(
        r["result"]["inputRequests"]["confirm"]["params"]["message"],
        "Delete 'a.txt'?"
    );
    let answer = json!({"inputResponses": {"confirm": accept(json!({"confirm": true}))}});
    assert_eq!(
        result_text(&h.send(&tool_call(
            5,
            "confirm_delete",
            &json!({"filename": "a.txt"}),
            answer,
            &all_caps()
        ))),
        "Deleted 'a.txt'."
    );
    // Out-of-range seconds: -32602, inline or as a task.
    for (id, caps) in [(6, all_caps()), (7, ext())] {
        assert_eq!(
            text(&h.send(&tool_call(
                id,
                "slow_compute",
                &json!({"seconds": -1}),
                json!({}),
                &caps
            ))),
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32602,"message":"slow_compute: seconds must be an integer from 0 to 600"}}}}"#
            )
        );
    }
}

#[test]
fn slow_compute_works_for_its_seconds_then_completes() {
    let h = harness();
    let args = json!({"seconds": 2, "label": "lifecycle"});
    assert_eq!(
        text(&h.send(&tool_call(1, "slow_compute", &args, json!({}), &ext()))),
        created(1)
    );
    // Working, no result or error, until the two seconds have passed.
    h.set_now(NOW + 1);
    assert_eq!(
        get(&h, 2),
        format!(
            r#"{{"jsonrpc":"2.0","id":2,"result":{{"resultType":"complete",{}}}}}"#,
            members("working", "Task started", STAMP)
        )
    );
    h.set_now(NOW + 5);
    assert_eq!(
        get(&h, 3),
        format!(
            r#"{{"jsonrpc":"2.0","id":3,"result":{{"resultType":"complete",{},"result":{{"resultType":"complete","content":[{{"type":"text","text":"Computed 'lifecycle' in 2 s."}}],"isError":false}}}}}}"#,
            members("completed", "Task completed", "2027-01-15T08:00:02Z")
        )
    );
    // Cancelling a finished task: the same empty ack, the task unchanged.
    assert_eq!(
        text(&h.send(&task_request(4, "tasks/cancel", json!({}), &ext()))),
        ack(4)
    );
    assert_eq!(
        parsed(&h.send(&task_request(5, "tasks/get", json!({}), &ext())))["result"]["status"],
        "completed"
    );
}

#[test]
fn slow_compute_cancelled_while_running_settles_to_cancelled() {
    let h = harness();
    let args = json!({"seconds": 60});
    assert_eq!(
        text(&h.send(&tool_call(1, "slow_compute", &args, json!({}), &ext()))),
        created(1)
    );
    h.set_now(NOW + 3);
    assert_eq!(
        text(&h.send(&task_request(2, "tasks/cancel", json!({}), &ext()))),
        ack(2)
    );
    h.set_now(NOW + 61);
    assert_eq!(
        get(&h, 3),
        format!(
            r#"{{"jsonrpc":"2.0","id":3,"result":{{"resultType":"complete",{}}}}}"#,
            members("cancelled", "Task cancelled", "2027-01-15T08:00:03Z")
        )
    );
}

#[test]
fn failing_job_completes_with_a_tool_error() {
    let h = harness();
    assert_eq!(
        text(&h.send(&tool_call(1, "failing_job", &json!({}), json!({}), &ext()))),
        created(1)
    );
    h.set_now(NOW + 1);
    assert_eq!(
        get(&h, 2),
        format!(
            r#"{{"jsonrpc":"2.0","id":2,"result":{{"resultType":"complete",{},"result":{{"resultType":"complete","content":[{{"type":"text","text":"failing_job: the job ran and reported an error."}}],"isError":true}}}}}}"#,
            members("completed", "Task completed", "2027-01-15T08:00:01Z")
        )
    );
}

#[test]
fn protocol_error_job_fails_with_an_inlined_error_and_no_result() {
    let h = harness();
    assert_eq!(
        text(&h.send(&tool_call(
            1,
            "protocol_error_job",
            &json!({}),
            json!({}),
            &ext()
        ))),
        created(1)
    );
    h.set_now(NOW + 2);
    assert_eq!(
        get(&h, 2),
        format!(
            r#"{{"jsonrpc":"2.0","id":2,"result":{{"resultType":"complete",{},"error":{{"code":-32603,"message":"Internal error: protocol_error_job crashed"}}}}}}"#,
            members("failed", "Task failed", "2027-01-15T08:00:01Z")
        )
    );
}

#[test]
fn confirm_delete_waits_for_its_answer_and_ignores_unknown_keys() {
    let h = harness();
    let args = json!({"filename": "mrtr-input.txt"});
    assert_eq!(
        text(&h.send(&tool_call(1, "confirm_delete", &args, json!({}), &ext()))),
        created(1)
    );
    let waiting = format!(
        r#"{{"jsonrpc":"2.0","id":2,"result":{{"resultType":"complete",{},"inputRequests":{{"confirm":{{"method":"elicitation/create","params":{{"mode":"form","message":"Delete 'mrtr-input.txt'?","requestedSchema":{{"type":"object","properties":{{"confirm":{{"type":"boolean"}}}},"required":["confirm"]}}}}}}}}}}}}"#,
        members("input_required", "Waiting for input", STAMP)
    );
    assert_eq!(get(&h, 2), waiting);
    let unknown = json!({"inputResponses": {"unknown-key": {"ignored": true}}});
    assert_eq!(
        text(&h.send(&task_request(3, "tasks/update", unknown, &ext()))),
        ack(3)
    );
    assert_eq!(get(&h, 2), waiting);
    let yes = json!({"inputResponses": {"confirm": accept(json!({"confirm": true}))}});
    assert_eq!(
        text(&h.send(&task_request(4, "tasks/update", yes, &ext()))),
        ack(4)
    );
    assert_eq!(
        parsed(&h.send(&task_request(5, "tasks/get", json!({}), &ext())))["result"]["result"]
            ["content"][0]["text"],
        "Deleted 'mrtr-input.txt'."
    );
}

#[test]
fn multi_input_takes_partial_answers() {
    let h = harness();
    assert_eq!(
        text(&h.send(&tool_call(1, "multi_input", &json!({}), json!({}), &ext()))),
        created(1)
    );
    let keys = |v: &Value| -> Vec<String> {
        v["result"]["inputRequests"]
            .as_object()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default()
    };
    let first = parsed(&h.send(&task_request(2, "tasks/get", json!({}), &ext())));
    assert_eq!(keys(&first), ["first", "second"]);
    assert_eq!(
        first["result"]["inputRequests"]["second"]["params"]["message"],
        "Second name?"
    );
    // The second question answered first: only "first" is left.
    let one = json!({"inputResponses": {"second": accept(json!({"name": "partial-2", "confirm": true}))}});
    assert_eq!(
        text(&h.send(&task_request(3, "tasks/update", one, &ext()))),
        ack(3)
    );
    let after = parsed(&h.send(&task_request(4, "tasks/get", json!({}), &ext())));
    assert_eq!(after["result"]["status"], "input_required");
    assert_eq!(keys(&after), ["first"]);
    let other = json!({"inputResponses": {"first": accept(json!({"name": "partial-1"}))}});
    assert_eq!(
        text(&h.send(&task_request(5, "tasks/update", other, &ext()))),
        ack(5)
    );
    let done = parsed(&h.send(&task_request(6, "tasks/get", json!({}), &ext())));
    assert_eq!(done["result"]["status"], "completed");
    assert_eq!(
        done["result"]["result"]["content"][0]["text"],
        "Received 'partial-1' and 'partial-2'."
    );
    assert!(done["result"].get("inputRequests").is_none());
}

#[test]
fn test_tool_with_task_asks_inline_then_escalates_to_a_task() {
    let h = harness();
    let r1 = h.send(&tool_call(
        1,
        "test_tool_with_task",
        &json!({}),
        json!({}),
        &ext(),
    ));
    assert_eq!(
        text(&r1),
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"user_name":{"method":"elicitation/create","params":{"mode":"form","message":"What is your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}}}}"#
    );
    let answer = json!({"inputResponses": {"user_name": accept(json!({"name": "Alice"}))}});
    assert_eq!(
        text(&h.send(&tool_call(
            2,
            "test_tool_with_task",
            &json!({}),
            answer,
            &ext()
        ))),
        created(2)
    );
    assert_eq!(
        get(&h, 3),
        format!(
            r#"{{"jsonrpc":"2.0","id":3,"result":{{"resultType":"complete",{},"result":{{"resultType":"complete","content":[{{"type":"text","text":"Hello, Alice! (greeted by a task)"}}],"isError":false}}}}}}"#,
            members("completed", "Task completed", STAMP)
        )
    );
}
