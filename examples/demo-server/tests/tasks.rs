//! The task tools in both dialects, and the conformance tools.

mod common;

use common::*;
use serde_json::{json, Value};

const TASK_ID: &str = "task-42424242424242424242424242424242";
const STAMP: &str = "2027-01-15T08:00:00Z";

fn seed(id: i64, method: &str, params: Value) -> Vec<u8> {
    // Task methods carry no _meta in the seed dialect's examples.
    request(id, method, params, &Value::Null)
}

#[test]
fn long_export_runs_the_seed_dialect() {
    let h = seed_harness();
    let create = tool_call(
        1,
        "long_export",
        &json!({"dataset": "users"}),
        json!({"task": {"ttl": 60000}}),
        &all_caps(),
    );
    assert_eq!(
        text(&h.send(&create)),
        format!(
            concat!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"task","task":{{"taskId":"{}","status":"working","statusMessage":"Task started","#,
                r#""createdAt":"{s}","lastUpdatedAt":"{s}","ttl":600000,"pollInterval":100}}}}}}"#
            ),
            TASK_ID,
            s = STAMP
        )
    );
    // tasks/get: the task reached its question.
    assert_eq!(
        text(&h.send(&seed(2, "tasks/get", json!({"taskId": TASK_ID})))),
        format!(
            concat!(
                r#"{{"jsonrpc":"2.0","id":2,"result":{{"resultType":"complete","taskId":"{}","status":"input_required","statusMessage":"Waiting for input","#,
                r#""createdAt":"{s}","lastUpdatedAt":"{s}","ttl":600000,"pollInterval":100}}}}"#
            ),
            TASK_ID,
            s = STAMP
        )
    );
    // tasks/result: the input requests, tied to the task.
    assert_eq!(
        text(&h.send(&seed(3, "tasks/result", json!({"taskId": TASK_ID})))),
        format!(
            concat!(
                r#"{{"jsonrpc":"2.0","id":3,"result":{{"resultType":"input_required","inputRequests":{{"format":{{"method":"elicitation/create","params":{{"mode":"form","#,
                r#""message":"Export 'users' in which format?","requestedSchema":{{"type":"object","properties":{{"format":{{"type":"string","enum":["csv","json","parquet"]}}}},"required":["format"]}}}}}}}},"#,
                r#""_meta":{{"io.modelcontextprotocol/related-task":{{"taskId":"{}"}}}}}}}}"#
            ),
            TASK_ID
        )
    );
    // An answer that does not do leaves it waiting; the ack is the same.
    let related = json!({"io.modelcontextprotocol/related-task": {"taskId": TASK_ID}});
    let ack = format!(
        r#"{{"jsonrpc":"2.0","id":4,"result":{{"resultType":"complete","_meta":{{"io.modelcontextprotocol/related-task":{{"taskId":"{TASK_ID}"}}}}}}}}"#
    );
    let unusable =
        json!({"inputResponses": {"format": accept(json!({"format": "xml"}))}, "_meta": related});
    assert_eq!(
        text(&h.send(&seed(4, "tasks/input_response", unusable))),
        ack
    );
    assert_eq!(
        parsed(&h.send(&seed(5, "tasks/get", json!({"taskId": TASK_ID}))))["result"]["status"],
        "input_required"
    );
    let answer =
        json!({"inputResponses": {"format": accept(json!({"format": "csv"}))}, "_meta": related});
    assert_eq!(text(&h.send(&seed(4, "tasks/input_response", answer))), ack);
    assert_eq!(
        parsed(&h.send(&seed(6, "tasks/get", json!({"taskId": TASK_ID}))))["result"]["status"],
        "completed"
    );
    assert_eq!(
        text(&h.send(&seed(7, "tasks/result", json!({"taskId": TASK_ID})))),
        format!(
            concat!(
                r#"{{"jsonrpc":"2.0","id":7,"result":{{"resultType":"complete","content":[{{"type":"text","text":"Exported dataset 'users' (1204 rows) as csv."}}],"#,
                r#""isError":false,"_meta":{{"io.modelcontextprotocol/related-task":{{"taskId":"{}"}}}}}}}}"#
            ),
            TASK_ID
        )
    );
}

#[test]
fn long_import_runs_the_tasks_extension() {
    let h = harness();
    let mut caps = all_caps();
    caps["extensions"] = json!({"io.modelcontextprotocol/tasks": {}});
    let create = parsed(&h.send(&tool_call(
        1,
        "long_import",
        &json!({"source": "a.csv"}),
        json!({}),
        &caps,
    )));
    assert_eq!(create["result"]["resultType"], "task");
    assert_eq!(create["result"]["taskId"], TASK_ID);
    assert_eq!(create["result"]["status"], "working");
    assert_eq!(create["result"]["ttlMs"], 600000);
    assert!(
        create["result"].get("task").is_none(),
        "extension: no nested task"
    );
    // tasks/get carries the input requests.
    let get = |id: i64| h.send(&request(id, "tasks/get", json!({"taskId": TASK_ID}), &caps));
    assert_eq!(
        text(&get(2)),
        format!(
            concat!(
                r#"{{"jsonrpc":"2.0","id":2,"result":{{"resultType":"complete","taskId":"{}","status":"input_required","statusMessage":"Waiting for input","#,
                r#""createdAt":"{s}","lastUpdatedAt":"{s}","ttlMs":600000,"pollIntervalMs":100,"inputRequests":{{"policy":{{"method":"elicitation/create","params":{{"mode":"form","#,
                r#""message":"Some rows of 'a.csv' already exist. Skip or overwrite them?","requestedSchema":{{"type":"object","properties":{{"policy":{{"type":"string","enum":["skip","overwrite"],"description":"What to do with rows that already exist"}}}},"required":["policy"]}}}}}}}}}}}}"#
            ),
            TASK_ID,
            s = STAMP
        )
    );
    let update = request(
        3,
        "tasks/update",
        json!({"taskId": TASK_ID, "inputResponses": {"policy": accept(json!({"policy": "overwrite"}))}}),
        &caps,
    );
    assert_eq!(
        text(&h.send(&update)),
        r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete"}}"#
    );
    assert_eq!(
        text(&get(4)),
        format!(
            concat!(
                r#"{{"jsonrpc":"2.0","id":4,"result":{{"resultType":"complete","taskId":"{}","status":"completed","statusMessage":"Task completed","#,
                r#""createdAt":"{s}","lastUpdatedAt":"{s}","ttlMs":600000,"pollIntervalMs":100,"result":{{"resultType":"complete","content":[{{"type":"text","text":"Imported 'a.csv': 873 rows, existing rows handled with policy 'overwrite'."}}],"isError":false}}}}}}"#
            ),
            TASK_ID,
            s = STAMP
        )
    );
    // The seed dialect's methods are not served by default (-32601, by
    // SEP-2663 tasks/result is not an extension method; this asserted the
    // -32602 below before the seed dialect became opt-in).
    let r = h.send(&seed(5, "tasks/result", json!({"taskId": TASK_ID})));
    assert_eq!(
        text(&r),
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"Method not found"}}"#
    );
    // With the seed dialect served, they do not apply to an extension task.
    let h = seed_harness();
    let create = tool_call(6, "long_import", &json!({}), json!({}), &caps);
    assert_eq!(parsed(&h.send(&create))["result"]["taskId"], TASK_ID);
    let r = h.send(&seed(5, "tasks/result", json!({"taskId": TASK_ID})));
    assert_eq!(
        text(&r),
        format!(
            r#"{{"jsonrpc":"2.0","id":5,"error":{{"code":-32602,"message":"Task {TASK_ID} was created in the other task dialect; tasks/result does not apply to it"}}}}"#
        )
    );
}

#[test]
fn task_tools_run_inline_without_a_task() {
    let h = harness();
    let r = parsed(&h.send(&tool_call(
        1,
        "long_import",
        &json!({}),
        json!({}),
        &all_caps(),
    )));
    assert_eq!(r["result"]["resultType"], "input_required");
    let answer = json!({"inputResponses": {"policy": accept(json!({"policy": "skip"}))}});
    assert_eq!(
        result_text(&h.send(&tool_call(
            2,
            "long_import",
            &json!({}),
            answer,
            &all_caps()
        ))),
        "Imported 'orders.csv': 873 rows, existing rows handled with policy 'skip'."
    );
    let answer = json!({"inputResponses": {"format": accept(json!({"format": "json"}))}});
    assert_eq!(
        result_text(&h.send(&tool_call(
            3,
            "long_export",
            &json!({}),
            answer,
            &all_caps()
        ))),
        "Exported dataset 'customers' (1204 rows) as json."
    );
}

#[test]
fn tasks_belong_to_their_principal_and_can_be_cancelled() {
    let h = seed_harness();
    let alice = Some([1u8; 32]);
    let create = tool_call(
        1,
        "long_export",
        &json!({}),
        json!({"task": {}}),
        &all_caps(),
    );
    assert_eq!(h.send_as(&create, alice).error, None);
    let unknown = format!(
        r#"{{"jsonrpc":"2.0","id":2,"error":{{"code":-32602,"message":"Unknown taskId: {TASK_ID}"}}}}"#
    );
    assert_eq!(
        text(&h.send_as(
            &seed(2, "tasks/get", json!({"taskId": TASK_ID})),
            Some([2u8; 32])
        )),
        unknown
    );
    assert_eq!(
        text(&h.send(&seed(2, "tasks/get", json!({"taskId": TASK_ID})))),
        unknown
    );
    let cancelled = parsed(&h.send_as(&seed(3, "tasks/cancel", json!({"taskId": TASK_ID})), alice));
    assert_eq!(cancelled["result"]["status"], "cancelled");
    assert_eq!(
        text(&h.send_as(&seed(4, "tasks/result", json!({"taskId": TASK_ID})), alice)),
        format!(
            r#"{{"jsonrpc":"2.0","id":4,"error":{{"code":-32602,"message":"Task {TASK_ID} has no result: it is cancelled"}}}}"#
        )
    );
    // Expired tasks are gone.
    h.set_now(NOW + 601);
    assert_eq!(
        parsed(&h.send_as(&seed(5, "tasks/get", json!({"taskId": TASK_ID})), alice))["error"]
            ["code"],
        -32602
    );
}

#[test]
fn conformance_capabilities_tool_asks_only_what_was_declared() {
    let h = harness();
    let name = "test_input_required_result_capabilities";
    let sampling_only = json!({"sampling": {}});
    let r = parsed(&h.send(&tool_call(1, name, &json!({}), json!({}), &sampling_only)));
    let keys: Vec<&String> = r["result"]["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(keys, ["capital_question"]);
    assert_eq!(
        text(&h.send(&tool_call(2, name, &json!({}), json!({}), &json!({})))),
        r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32021,"message":"Missing required client capability","data":{"requiredCapabilities":{"sampling":{}}}}}"#
    );
    let answer = json!({"inputResponses": {"capital_question": {"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m"}}});
    assert_eq!(
        result_text(&h.send(&tool_call(3, name, &json!({}), answer, &sampling_only))),
        "Answers received for: sampling."
    );
}

#[test]
fn conformance_missing_capability_tool_needs_sampling() {
    let h = harness();
    let name = "test_missing_capability";
    assert_eq!(
        text(&h.send(&tool_call(
            1,
            name,
            &json!({}),
            json!({}),
            &json!({"elicitation": {}})
        ))),
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"Missing required client capability","data":{"requiredCapabilities":{"sampling":{}}}}}"#
    );
    let r = parsed(&h.send(&tool_call(2, name, &json!({}), json!({}), &all_caps())));
    assert_eq!(
        r["result"]["inputRequests"]["capital_question"]["method"],
        "sampling/createMessage"
    );
}

#[test]
fn conformance_multi_round_evolves_its_state() {
    let h = harness();
    let caps = all_caps();
    let name = "test_input_required_result_multi_round";
    let s1 = token(
        "tools/call",
        name,
        None,
        r#"{"t":"test_input_required_result_multi_round","round":1}"#,
    );
    let r1 = parsed(&h.send(&tool_call(1, name, &json!({}), json!({}), &caps)));
    assert_eq!(r1["result"]["requestState"], s1.as_str());
    assert_eq!(
        r1["result"]["inputRequests"]["step1"]["params"]["message"],
        "Step 1: What is your name?"
    );
    let a1 =
        json!({"inputResponses": {"step1": accept(json!({"name": "Ada"}))}, "requestState": s1});
    let s2 = token(
        "tools/call",
        name,
        None,
        r#"{"t":"test_input_required_result_multi_round","round":2,"name":"Ada"}"#,
    );
    let r2 = parsed(&h.send(&tool_call(2, name, &json!({}), a1, &caps)));
    assert_eq!(r2["result"]["requestState"], s2.as_str());
    assert_eq!(
        r2["result"]["inputRequests"]["step2"]["params"]["message"],
        "Step 2: What is your favorite color?"
    );
    let a2 =
        json!({"inputResponses": {"step2": accept(json!({"color": "teal"}))}, "requestState": s2});
    assert_eq!(
        result_text(&h.send(&tool_call(3, name, &json!({}), a2, &caps))),
        "Hello, Ada! Your favorite color is teal."
    );
}

#[test]
fn conformance_request_state_needs_its_state_back() {
    let h = harness();
    let caps = all_caps();
    let name = "test_input_required_result_request_state";
    let st = token(
        "tools/call",
        name,
        None,
        r#"{"t":"test_input_required_result_request_state"}"#,
    );
    let r1 = parsed(&h.send(&tool_call(1, name, &json!({}), json!({}), &caps)));
    assert_eq!(r1["result"]["requestState"], st.as_str());
    // The answer without the state: asked again, with a state.
    let ok = json!({"confirm": accept(json!({"ok": true}))});
    let r2 = parsed(&h.send(&tool_call(
        2,
        name,
        &json!({}),
        json!({"inputResponses": ok}),
        &caps,
    )));
    assert_eq!(r2["result"]["resultType"], "input_required");
    let r3 = h.send(&tool_call(
        3,
        name,
        &json!({}),
        json!({"inputResponses": ok, "requestState": st}),
        &caps,
    ));
    assert_eq!(
        result_text(&r3),
        "state-ok: requestState verified; confirmed=true"
    );
}

#[test]
fn conformance_input_validation() {
    let h = harness();
    let caps = all_caps();
    let name = "test_input_required_result_elicitation";
    // Wrong keys: asked again (not an error).
    let wrong = json!({"inputResponses": {"wrong_key": accept(json!({"data": "x"}))}});
    assert_eq!(
        parsed(&h.send(&tool_call(1, name, &json!({}), wrong, &caps)))["result"]["resultType"],
        "input_required"
    );
    // Extra keys beside the right one: ignored.
    let extra = json!({"inputResponses": {"user_name": accept(json!({"name": "Al"})), "x": accept(json!({"y": 1}))}});
    assert_eq!(
        result_text(&h.send(&tool_call(2, name, &json!({}), extra, &caps))),
        "Hello, Al!"
    );
    // Not an object / null: -32602.
    assert_eq!(
        text(&h.send(&tool_call(
            3,
            name,
            &json!({}),
            json!({"inputResponses": {"user_name": 12345}}),
            &caps
        ))),
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params: an inputResponses entry is not an object"}}"#
    );
    assert_eq!(
        parsed(&h.send(&tool_call(
            4,
            name,
            &json!({}),
            json!({"inputResponses": null}),
            &caps
        )))["error"]["code"],
        -32602
    );
}
