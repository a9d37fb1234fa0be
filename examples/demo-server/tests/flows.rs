//! Every tool, prompt and resource flow of the demo server, in process:
//! request bytes in, exact response bytes (or fields) out.

mod common;

use common::*;
use serde_json::{json, Value};

fn wi_args() -> Value {
    json!({"workItemId": 4522, "fields": {"System.State": "Resolved"}})
}

const RESOLUTION_SCHEMA: &str = r#"{"type":"object","properties":{"resolution":{"type":"string","enum":["Fixed","Won't Fix","Duplicate","By Design"],"description":"Resolution type for this bug"}},"required":["resolution"]}"#;
const DUPLICATE_SCHEMA: &str = r#"{"type":"object","properties":{"duplicateOfId":{"type":"number","description":"Work item ID of the original bug"}},"required":["duplicateOfId"]}"#;

#[test]
fn discover_names_the_revision_the_server_and_its_capabilities() {
    let h = harness();
    let r = h.send(&request(1, "server/discover", json!({}), &all_caps()));
    assert_eq!(
        text(&r),
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"#,
            r#""capabilities":{"tools":{"listChanged":true},"prompts":{"listChanged":true},"resources":{},"extensions":{"io.modelcontextprotocol/tasks":{}}},"#,
            r#""instructions":"Demo of MCP multi round-trip requests: its tools ask for input mid-call (a few conformance fixtures complete at once).","#,
            r#""ttlMs":0,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mrtr-demo-server","version":"0.1.0"}}}}"#
        )
    );
}

#[test]
fn lists_carry_every_tool_prompt_and_template_with_cache_hints() {
    let h = harness();
    let tools = parsed(&h.send(&request(1, "tools/list", json!({}), &all_caps())));
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "provision_database",
            "update_work_item",
            "summarize",
            "scan_project",
            "link_account",
            "generate_report",
            "plan_trip",
            "long_export",
            "long_import",
            "test_input_required_result_elicitation",
            "test_input_required_result_sampling",
            "test_input_required_result_list_roots",
            "test_input_required_result_request_state",
            "test_input_required_result_multiple_inputs",
            "test_input_required_result_multi_round",
            "test_input_required_result_tampered_state",
            "test_input_required_result_capabilities",
            "route_ticket",
            "test_streaming_elicitation",
            "test_logging_tool",
            "test_trigger_tool_change",
            "test_trigger_prompt_change",
            "test_missing_capability",
            "greet",
            "slow_compute",
            "failing_job",
            "protocol_error_job",
            "confirm_delete",
            "multi_input",
            "test_tool_with_task",
        ]
    );
    // Task support (Tasks extension): listed only on the tools that have it.
    let support: Vec<(&str, &Value)> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t.get("execution").is_some())
        .map(|t| (t["name"].as_str().unwrap(), &t["execution"]))
        .collect();
    let optional = json!({"taskSupport": "optional"});
    let required = json!({"taskSupport": "required"});
    assert_eq!(
        support,
        [
            ("long_import", &optional),
            ("slow_compute", &optional),
            ("failing_job", &required),
            ("protocol_error_job", &required),
            ("confirm_delete", &optional),
            ("multi_input", &optional),
            ("test_tool_with_task", &required),
        ]
    );
    assert_eq!(tools["result"]["ttlMs"], 0);
    assert_eq!(tools["result"]["cacheScope"], "public");
    let prompts = parsed(&h.send(&request(2, "prompts/list", json!({}), &all_caps())));
    assert_eq!(prompts["result"]["prompts"][0]["name"], "team_greeting");
    assert_eq!(
        prompts["result"]["prompts"][1]["name"],
        "test_input_required_result_prompt"
    );
    let templates = parsed(&h.send(&request(
        3,
        "resources/templates/list",
        json!({}),
        &all_caps(),
    )));
    assert_eq!(
        templates["result"]["resourceTemplates"][0]["uriTemplate"],
        "notes://{topic}"
    );
    // 2026-07-28 removed ping.
    assert_eq!(
        text(&h.send(&request(4, "ping", json!({}), &Value::Null))),
        r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"Method not found"}}"#
    );
}

#[test]
fn update_work_item_runs_the_seps_azure_devops_example() {
    let h = harness();
    let caps = all_caps();
    // Round 1: Resolved needs a resolution; no requestState yet.
    let r1 = h.send(&tool_call(
        1,
        "update_work_item",
        &wi_args(),
        json!({}),
        &caps,
    ));
    assert_eq!(
        text(&r1),
        format!(
            concat!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","inputRequests":{{"resolution":"#,
                r#"{{"method":"elicitation/create","params":{{"mode":"form","message":"Resolving Bug #4522 requires a resolution. How was this bug resolved?","#,
                r#""requestedSchema":{}}}}}}}}}}}"#
            ),
            RESOLUTION_SCHEMA
        )
    );
    // Round 2: Duplicate needs the original; the resolution rides in the state.
    let answer =
        json!({"inputResponses": {"resolution": accept(json!({"resolution": "Duplicate"}))}});
    let r2 = h.send(&tool_call(2, "update_work_item", &wi_args(), answer, &caps));
    let state = token(
        "tools/call",
        "update_work_item",
        Some(&wi_args()),
        r#"{"t":"update_work_item","resolution":"Duplicate"}"#,
    );
    assert_eq!(
        text(&r2),
        format!(
            concat!(
                r#"{{"jsonrpc":"2.0","id":2,"result":{{"resultType":"input_required","inputRequests":{{"duplicate_of":"#,
                r#"{{"method":"elicitation/create","params":{{"mode":"form","message":"Since this is a duplicate, which work item is the original?","#,
                r#""requestedSchema":{}}}}}}},"requestState":"{}"}}}}"#
            ),
            DUPLICATE_SCHEMA, state
        )
    );
    // Round 3: the state's resolution plus the new answer complete it.
    let answer = json!({
        "inputResponses": {"duplicate_of": accept(json!({"duplicateOfId": 4301}))},
        "requestState": state,
    });
    let r3 = h.send(&tool_call(3, "update_work_item", &wi_args(), answer, &caps));
    assert_eq!(
        text(&r3),
        r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[{"type":"text","text":"Bug #4522 resolved as Duplicate of Bug #4301. State set to Resolved and duplicate link created."}],"isError":false}}"#
    );
}

#[test]
fn update_work_item_other_paths() {
    let h = harness();
    let caps = all_caps();
    let fixed = json!({"inputResponses": {"resolution": accept(json!({"resolution": "Fixed"}))}});
    assert_eq!(
        result_text(&h.send(&tool_call(1, "update_work_item", &wi_args(), fixed, &caps))),
        "Bug #4522 resolved as Fixed. State set to Resolved."
    );
    // SEP-draft wrapping {"result": ..} is read the same.
    let wrapped = json!({"inputResponses": {"resolution": {"result": accept(json!({"resolution": "By Design"}))}}});
    assert_eq!(
        result_text(&h.send(&tool_call(
            2,
            "update_work_item",
            &wi_args(),
            wrapped,
            &caps
        ))),
        "Bug #4522 resolved as By Design. State set to Resolved."
    );
    // A value outside the enum is asked again, not an error.
    let bogus = json!({"inputResponses": {"resolution": accept(json!({"resolution": "Maybe"}))}});
    let again = parsed(&h.send(&tool_call(3, "update_work_item", &wi_args(), bogus, &caps)));
    assert_eq!(again["result"]["resultType"], "input_required");
    assert!(again["result"]["inputRequests"]["resolution"].is_object());
    // Declining is a tool-level error the model sees.
    let declined = json!({"inputResponses": {"resolution": {"action": "decline"}}});
    let v = parsed(&h.send(&tool_call(
        4,
        "update_work_item",
        &wi_args(),
        declined,
        &caps,
    )));
    assert_eq!(v["result"]["isError"], true);
    assert_eq!(
        v["result"]["content"][0]["text"],
        "Bug #4522 was not resolved: the resolution question was declined."
    );
    // Another state transition asks nothing.
    let active = json!({"workItemId": 7, "fields": {"System.State": "Active"}});
    assert_eq!(
        result_text(&h.send(&tool_call(5, "update_work_item", &active, json!({}), &caps))),
        "Bug #7 updated: State set to Active."
    );
    // Bad arguments are -32602.
    assert_eq!(
        text(&h.send(&tool_call(
            6,
            "update_work_item",
            &json!({"workItemId": "x"}),
            json!({}),
            &caps
        ))),
        r#"{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"update_work_item: workItemId must be an integer"}}"#
    );
    // A number with no fraction is an id too.
    let st = token(
        "tools/call",
        "update_work_item",
        Some(&wi_args()),
        r#"{"t":"update_work_item","resolution":"Duplicate"}"#,
    );
    let float = json!({"inputResponses": {"duplicate_of": accept(json!({"duplicateOfId": 4301.0}))}, "requestState": st});
    assert_eq!(
        result_text(&h.send(&tool_call(7, "update_work_item", &wi_args(), float, &caps))),
        "Bug #4522 resolved as Duplicate of Bug #4301. State set to Resolved and duplicate link created."
    );
}

#[test]
fn provision_database_asks_one_region() {
    let h = harness();
    let caps = all_caps();
    let args = json!({"name": "orders"});
    assert_eq!(
        text(&h.send(&tool_call(1, "provision_database", &args, json!({}), &caps))),
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"region":{"method":"elicitation/create","params":{"mode":"form","#,
            r#""message":"Which region should database 'orders' live in?","requestedSchema":{"type":"object","properties":{"region":{"type":"string","title":"Region","enum":["us-east-1","eu-west-1","ap-southeast-2"]}},"required":["region"]}}}}}}"#
        )
    );
    let answer = json!({"inputResponses": {"region": accept(json!({"region": "eu-west-1"}))}});
    assert_eq!(
        result_text(&h.send(&tool_call(2, "provision_database", &args, answer, &caps))),
        "Provisioned database 'orders' in eu-west-1."
    );
}

#[test]
fn summarize_samples_and_quotes_the_answer() {
    let h = harness();
    let caps = all_caps();
    let args = json!({"text": "A \"long\" text."});
    assert_eq!(
        text(&h.send(&tool_call(1, "summarize", &args, json!({}), &caps))),
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"summary":{"method":"sampling/createMessage","params":"#,
            r#"{"messages":[{"role":"user","content":{"type":"text","text":"Summarize in one sentence:\n\nA \"long\" text."}}],"#,
            r#""systemPrompt":"You are a concise technical writer.","maxTokens":200}}}}}"#
        )
    );
    let answer = json!({"inputResponses": {"summary": {
        "role": "assistant", "content": {"type": "text", "text": "Short."}, "model": "m-1", "stopReason": "endTurn"}}});
    assert_eq!(
        result_text(&h.send(&tool_call(2, "summarize", &args, answer, &caps))),
        "Summary by m-1: \"Short.\""
    );
    // An answer of another kind under the key is -32602 naming the key.
    let wrong = json!({"inputResponses": {"summary": {"roots": []}}});
    assert_eq!(
        text(&h.send(&tool_call(3, "summarize", &args, wrong, &caps))),
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params: inputResponses[\"summary\"] is not a sampling result"}}"#
    );
}

#[test]
fn scan_project_lists_the_roots() {
    let h = harness();
    let caps = all_caps();
    assert_eq!(
        text(&h.send(&tool_call(1, "scan_project", &json!({}), json!({}), &caps))),
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"project_roots":{"method":"roots/list","params":{}}}}}"#
    );
    let answer = json!({"inputResponses": {"project_roots": {"roots": [
        {"uri": "file:///a", "name": "A"}, {"uri": "file:///b"}]}}});
    assert_eq!(
        result_text(&h.send(&tool_call(2, "scan_project", &json!({}), answer, &caps))),
        "Scanned 2 root(s): file:///a (A), file:///b."
    );
    let none = json!({"inputResponses": {"project_roots": {"roots": []}}});
    assert_eq!(
        result_text(&h.send(&tool_call(3, "scan_project", &json!({}), none, &caps))),
        "Scanned 0 roots: the client shared none."
    );
}

#[test]
fn link_account_uses_url_mode_and_needs_its_capability() {
    let h = harness();
    let args = json!({"service": "github"});
    let state = token(
        "tools/call",
        "link_account",
        Some(&args),
        r#"{"t":"link_account","session":"4242424242424242"}"#,
    );
    assert_eq!(
        text(&h.send(&tool_call(1, "link_account", &args, json!({}), &all_caps()))),
        format!(
            concat!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","inputRequests":{{"link":{{"method":"elicitation/create","params":"#,
                r#"{{"mode":"url","message":"Open the page to link your github account, then come back.","#,
                r#""url":"https://auth.example.com/link?service=github&session=4242424242424242"}}}}}},"requestState":"{}"}}}}"#
            ),
            state
        )
    );
    let done = json!({"inputResponses": {"link": {"action": "accept"}}, "requestState": state});
    assert_eq!(
        result_text(&h.send(&tool_call(2, "link_account", &args, done, &all_caps()))),
        "Account github linked (session 4242424242424242)."
    );
    // Form-only elicitation: URL mode was not declared.
    let form_only = json!({"elicitation": {}});
    assert_eq!(
        text(&h.send(&tool_call(3, "link_account", &args, json!({}), &form_only))),
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32021,"message":"Missing required client capability","data":{"requiredCapabilities":{"elicitation":{"url":{}}}}}}"#
    );
    assert_eq!(
        text(&h.send(&tool_call(
            4,
            "link_account",
            &json!({"service": "Git Hub"}),
            json!({}),
            &all_caps()
        ))),
        r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"link_account: service must match ^[a-z0-9-]{1,32}$"}}"#
    );
}

#[test]
fn generate_report_sheds_load_twice_with_state_only_results() {
    let h = harness();
    let caps = all_caps();
    let args = json!({"topic": "Q3"});
    let s1 = token(
        "tools/call",
        "generate_report",
        Some(&args),
        r#"{"t":"generate_report","sections":1}"#,
    );
    assert_eq!(
        text(&h.send(&tool_call(1, "generate_report", &args, json!({}), &caps))),
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","requestState":"{s1}"}}}}"#
        )
    );
    let s2 = token(
        "tools/call",
        "generate_report",
        Some(&args),
        r#"{"t":"generate_report","sections":2}"#,
    );
    assert_eq!(
        text(&h.send(&tool_call(
            2,
            "generate_report",
            &args,
            json!({"requestState": s1}),
            &caps
        ))),
        format!(
            r#"{{"jsonrpc":"2.0","id":2,"result":{{"resultType":"input_required","requestState":"{s2}"}}}}"#
        )
    );
    assert_eq!(
        result_text(&h.send(&tool_call(
            3,
            "generate_report",
            &args,
            json!({"requestState": s2}),
            &caps
        ))),
        "Report on Q3: 3 sections (Summary, Trends, Outlook), compiled over 3 requests."
    );
}

#[test]
fn plan_trip_asks_three_kinds_and_keeps_partial_answers() {
    let h = harness();
    let caps = all_caps();
    let args = json!({"destination": "Lisbon"});
    let r1 = parsed(&h.send(&tool_call(1, "plan_trip", &args, json!({}), &caps)));
    let asked = &r1["result"]["inputRequests"];
    assert_eq!(asked["travelers"]["method"], "elicitation/create");
    assert_eq!(asked["itinerary"]["method"], "sampling/createMessage");
    assert_eq!(
        asked["workspace"],
        json!({"method": "roots/list", "params": {}})
    );
    assert!(r1["result"].get("requestState").is_none());
    // Only the form answered: the other two are asked again, the answer kept.
    let partial = json!({"inputResponses": {"travelers": accept(json!({"travelers": 2}))}});
    let kept = token(
        "tools/call",
        "plan_trip",
        Some(&args),
        r#"{"t":"plan_trip","travelers":2}"#,
    );
    let r2 = parsed(&h.send(&tool_call(2, "plan_trip", &args, partial, &caps)));
    let keys: Vec<&String> = r2["result"]["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(keys, ["itinerary", "workspace"]);
    assert_eq!(r2["result"]["requestState"], kept.as_str());
    let rest = json!({
        "inputResponses": {
            "itinerary": {"role": "assistant", "content": {"type": "text", "text": "Tram 28, then pastries."}, "model": "m"},
            "workspace": {"roots": [{"uri": "file:///trips"}]},
        },
        "requestState": kept,
    });
    assert_eq!(
        result_text(&h.send(&tool_call(3, "plan_trip", &args, rest, &caps))),
        "Trip to Lisbon for 2 traveler(s). Itinerary: Tram 28, then pastries. Plan saved under file:///trips."
    );
    // A client without roots gets -32021 naming roots only.
    let no_roots = json!({"elicitation": {}, "sampling": {}});
    assert_eq!(
        text(&h.send(&tool_call(4, "plan_trip", &args, json!({}), &no_roots))),
        r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32021,"message":"Missing required client capability","data":{"requiredCapabilities":{"roots":{}}}}}"#
    );
}

#[test]
fn team_greeting_prompt_asks_who_it_is_from() {
    let h = harness();
    let caps = all_caps();
    let get = |id: i64, extra: Value| {
        let mut p = json!({"name": "team_greeting", "arguments": {"team": "core"}});
        if let Value::Object(m) = extra {
            for (k, v) in m {
                p[k] = v;
            }
        }
        h.send(&request(id, "prompts/get", p, &caps))
    };
    let r1 = parsed(&get(1, json!({})));
    assert_eq!(
        r1["result"]["inputRequests"]["sender"]["params"]["message"],
        "Who is the greeting for the core team from?"
    );
    let r2 = get(
        2,
        json!({"inputResponses": {"sender": accept(json!({"name": "Ada"}))}}),
    );
    assert_eq!(
        text(&r2),
        r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","description":"A greeting for the core team","messages":[{"role":"user","content":{"type":"text","text":"Write a short, warm greeting from Ada to the core team."}}]}}"#
    );
}

#[test]
fn notes_resource_template_asks_the_detail_level() {
    let h = harness();
    let caps = all_caps();
    let read = |id: i64, uri: &str, extra: Value| {
        let mut p = json!({"uri": uri});
        if let Value::Object(m) = extra {
            for (k, v) in m {
                p[k] = v;
            }
        }
        h.send(&request(id, "resources/read", p, &caps))
    };
    let r1 = parsed(&read(1, "notes://rust", json!({})));
    assert_eq!(
        r1["result"]["inputRequests"]["detail"]["params"]["message"],
        "How detailed should the notes on rust be?"
    );
    let r2 = read(
        2,
        "notes://rust",
        json!({"inputResponses": {"detail": accept(json!({"level": "full"}))}}),
    );
    assert_eq!(
        text(&r2),
        r##"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","contents":[{"uri":"notes://rust","mimeType":"text/markdown","text":"# Notes on rust\n\nDetail level: full."}],"ttlMs":0,"cacheScope":"private"}}"##
    );
    assert_eq!(
        text(&read(3, "file:///etc/passwd", json!({}))),
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Resource not found: file:///etc/passwd","data":{"uri":"file:///etc/passwd"}}}"#
    );
}

#[test]
fn unknown_resource_is_invalid_params_naming_the_uri() {
    // SEP-2164: -32602 with data.uri, never an empty contents array.
    let h = harness();
    let caps = all_caps();
    let uri = "test://nonexistent-resource-for-conformance-testing";
    let r = h.send(&request(1, "resources/read", json!({"uri": uri}), &caps));
    assert_eq!(r.error, Some(-32602));
    assert_eq!(
        text(&r),
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Resource not found: test://nonexistent-resource-for-conformance-testing","data":{"uri":"test://nonexistent-resource-for-conformance-testing"}}}"#
    );
    let v = parsed(&r);
    assert_eq!(v["error"]["data"]["uri"], uri);
    assert!(v.get("result").is_none());
    // A notes:// URI whose topic is not allowed is unknown too; the URI is
    // echoed as sent, JSON-escaped.
    let odd = "notes://a\"b";
    let r = h.send(&request(2, "resources/read", json!({"uri": odd}), &caps));
    assert_eq!(
        text(&r),
        r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Resource not found: notes://a\"b","data":{"uri":"notes://a\"b"}}}"#
    );
    assert_eq!(parsed(&r)["error"]["data"]["uri"], odd);
}

#[test]
fn unknown_tool_prompt_and_method() {
    let h = harness();
    let caps = all_caps();
    assert_eq!(
        text(&h.send(&tool_call(1, "nope", &json!({}), json!({}), &caps))),
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unknown tool: nope"}}"#
    );
    assert_eq!(
        text(&h.send(&request(2, "prompts/get", json!({"name": "nope"}), &caps))),
        r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Unknown prompt: nope"}}"#
    );
    let r = h.send(&request(3, "sampling/createMessage", json!({}), &caps));
    assert_eq!(
        text(&r),
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found"}}"#
    );
    assert_eq!(r.error, Some(-32601));
}

#[test]
fn every_request_state_failure_is_the_one_frozen_error() {
    let h = harness();
    let caps = all_caps();
    let args = wi_args();
    let st = token(
        "tools/call",
        "update_work_item",
        Some(&args),
        r#"{"t":"update_work_item","resolution":"Duplicate"}"#,
    );
    let dup = || json!({"duplicate_of": accept(json!({"duplicateOfId": 4301}))});
    let with = |state: &str| json!({"inputResponses": dup(), "requestState": state});
    // Tampered (last character changed), truncated, garbage.
    let mut tampered = st.clone();
    let last = tampered.pop().unwrap();
    tampered.push(if last == 'A' { 'B' } else { 'A' });
    for (id, bad) in [
        (1, tampered.as_str()),
        (2, &st[..st.len() - 4]),
        (3, "m1.garbage"),
        (4, ""),
    ] {
        assert_eq!(
            text(&h.send(&tool_call(id, "update_work_item", &args, with(bad), &caps))),
            invalid_state(id),
            "{bad}"
        );
    }
    // Replayed on other arguments, another tool, another method.
    let other = json!({"workItemId": 4523, "fields": {"System.State": "Resolved"}});
    assert_eq!(
        text(&h.send(&tool_call(5, "update_work_item", &other, with(&st), &caps))),
        invalid_state(5)
    );
    assert_eq!(
        text(&h.send(&tool_call(6, "provision_database", &args, with(&st), &caps))),
        invalid_state(6)
    );
    // Bound to no principal: a bearer principal cannot use it, and a state
    // bound to one principal fails for another.
    let alice = [1u8; 32];
    let r = h.send_as(
        &tool_call(7, "update_work_item", &args, with(&st), &caps),
        Some(alice),
    );
    assert_eq!(text(&r), invalid_state(7));
    let st_alice = token_at(
        NOW,
        "tools/call",
        "update_work_item",
        Some(&args),
        Some(&alice),
        r#"{"t":"update_work_item","resolution":"Duplicate"}"#,
    );
    let r = h.send_as(
        &tool_call(8, "update_work_item", &args, with(&st_alice), &caps),
        Some([2u8; 32]),
    );
    assert_eq!(text(&r), invalid_state(8));
    let r = h.send_as(
        &tool_call(9, "update_work_item", &args, with(&st_alice), &caps),
        Some(alice),
    );
    assert_eq!(result_text(&r), "Bug #4522 resolved as Duplicate of Bug #4301. State set to Resolved and duplicate link created.");
    // Expired: TTL 600 s plus 60 s of skew allowance.
    h.set_now(NOW + 660);
    assert_eq!(
        result_text(&h.send(&tool_call(10, "update_work_item", &args, with(&st), &caps))),
        "Bug #4522 resolved as Duplicate of Bug #4301. State set to Resolved and duplicate link created."
    );
    h.set_now(NOW + 661);
    assert_eq!(
        text(&h.send(&tool_call(11, "update_work_item", &args, with(&st), &caps))),
        invalid_state(11)
    );
    // Another key ring (another deployment) cannot open it.
    let sibling = mrtr_demo_server::Demo::new(
        NAME,
        &[b"another deployment: another key!".to_vec()],
        Box::new(|| NOW),
        Box::new(|b: &mut [u8]| b.fill(1)),
        false,
    )
    .unwrap();
    let r = sibling
        .handle(
            &tool_call(12, "update_work_item", &args, with(&st), &caps),
            &Default::default(),
            None,
        )
        .unwrap();
    assert_eq!(text(&r), invalid_state(12));
}

#[test]
fn a_state_for_one_flow_is_not_read_by_another_with_the_same_binding() {
    // Same tool name and arguments, but the plaintext names another flow:
    // the flow ignores it and asks from scratch.
    let h = harness();
    let st = token(
        "tools/call",
        "update_work_item",
        Some(&wi_args()),
        r#"{"t":"plan_trip","resolution":"Duplicate"}"#,
    );
    let r = parsed(&h.send(&tool_call(
        1,
        "update_work_item",
        &wi_args(),
        json!({"requestState": st}),
        &all_caps(),
    )));
    assert!(
        r["result"]["inputRequests"]["resolution"].is_object(),
        "{r}"
    );
}

#[test]
fn empty_arguments_and_no_arguments_bind_alike() {
    let h = harness();
    let caps = all_caps();
    let st = token(
        "tools/call",
        "generate_report",
        None,
        r#"{"t":"generate_report","sections":2}"#,
    );
    let no_args = request(
        1,
        "tools/call",
        json!({"name": "generate_report", "requestState": st}),
        &caps,
    );
    assert_eq!(
        result_text(&h.send(&no_args)),
        "Report on quarterly sales: 3 sections (Summary, Trends, Outlook), compiled over 3 requests."
    );
    let empty = tool_call(
        2,
        "generate_report",
        &json!({}),
        json!({"requestState": st}),
        &caps,
    );
    assert_eq!(
        result_text(&h.send(&empty)),
        "Report on quarterly sales: 3 sections (Summary, Trends, Outlook), compiled over 3 requests."
    );
}

#[test]
fn hostile_state_and_arguments() {
    let h = harness();
    let caps = all_caps();
    // A requestState far over the 4 KiB token limit: the frozen error.
    let huge = format!("m1.{}", "A".repeat(200_000));
    let r = h.send(&tool_call(
        1,
        "generate_report",
        &json!({}),
        json!({"requestState": huge}),
        &caps,
    ));
    assert_eq!(text(&r), invalid_state(1));
    // Arguments with a duplicate key mean two things (a last-wins reader
    // would run another call): the request parser refuses them before any
    // flow runs, so no token is minted over them (issue 25, item 4).
    let dup = br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"generate_report","arguments":{"topic":"a","x":1,"x":2},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    assert_eq!(
        text(&h.send(dup)),
        r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid params: a member is repeated in params"}}"#
    );
}

/// `--replay-cache`: a token is accepted once; the same token again, even
/// with its JSON string re-escaped (`\u006d2.` for `m2.`), is the frozen
/// invalid-state error. Without the cache the replay is accepted.
#[test]
fn a_replay_cache_refuses_a_token_presented_twice_however_it_is_escaped() {
    let caps = all_caps();
    let state = token(
        "tools/call",
        "update_work_item",
        Some(&wi_args()),
        r#"{"t":"update_work_item","resolution":"Duplicate"}"#,
    );
    assert!(state.starts_with("m2."), "{state}");
    let retry = |id: i64, escaped: bool| {
        let text = String::from_utf8(tool_call(
            id,
            "update_work_item",
            &wi_args(),
            json!({
                "inputResponses": {"duplicate_of": accept(json!({"duplicateOfId": 4301}))},
                "requestState": state,
            }),
            &caps,
        ))
        .unwrap();
        if escaped {
            let quoted = format!("\"{state}\"");
            assert!(text.contains(&quoted));
            text.replace(&quoted, &format!("\"\\u006d{}\"", &state[1..]))
                .into_bytes()
        } else {
            text.into_bytes()
        }
    };
    let done = "Bug #4522 resolved as Duplicate of Bug #4301. State set to Resolved and duplicate link created.";

    // Control: without the cache a token may be replayed in its lifetime.
    let h = harness();
    assert_eq!(result_text(&h.send(&retry(1, false))), done);
    assert_eq!(result_text(&h.send(&retry(2, true))), done);
    assert_eq!(result_text(&h.send(&retry(3, false))), done);

    // With it: once, then refused, escaped or not.
    let h = harness();
    let h = Harness {
        demo: h.demo.with_replay_cache(2),
        clock: h.clock,
    };
    assert_eq!(result_text(&h.send(&retry(1, false))), done);
    assert_eq!(text(&h.send(&retry(2, true))), invalid_state(2));
    assert_eq!(text(&h.send(&retry(3, false))), invalid_state(3));
    // The escaped spelling first: the plain one is then the replay.
    let h = harness();
    let h = Harness {
        demo: h.demo.with_replay_cache(2),
        clock: h.clock,
    };
    assert_eq!(result_text(&h.send(&retry(4, true))), done);
    assert_eq!(text(&h.send(&retry(5, false))), invalid_state(5));
}

#[test]
fn the_replay_cache_forgets_expired_ids_and_fails_closed_when_full() {
    use mrtr_demo_server::{ReplayCache, ReplayRefusal};
    let mut c = ReplayCache::new(2);
    assert_eq!(c.admit([1; 16], 100, 10), Ok(()));
    assert_eq!(c.admit([1; 16], 100, 11), Err(ReplayRefusal::Replayed));
    assert_eq!(c.admit([2; 16], 50, 12), Ok(()));
    // Full of live ids: a new token is refused, not an old id forgotten.
    assert_eq!(c.admit([3; 16], 100, 13), Err(ReplayRefusal::Full));
    assert_eq!(c.admit([1; 16], 100, 14), Err(ReplayRefusal::Replayed));
    // Id 2 lived until 50: at 51 it is gone, and there is room again.
    assert_eq!(c.admit([3; 16], 100, 51), Ok(()));
    assert_eq!(c.len(), 2);
    // At 101 everything has expired (the token itself would be refused).
    assert_eq!(c.admit([1; 16], 200, 101), Ok(()));
    assert_eq!(c.len(), 1);
}
