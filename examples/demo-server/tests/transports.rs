//! Streamable HTTP (header checks, status codes, principals) and stdio
//! framing, without sockets.

mod common;

use common::*;
use mrtr_demo_server::http::{self, MAX_BODY_BYTES};
use mrtr_demo_server::stdio;
use serde_json::{json, Value};

fn body(r: &http::HttpResponse) -> String {
    String::from_utf8(r.body.clone()).unwrap()
}

fn list(id: i64) -> Vec<u8> {
    request(id, "tools/list", json!({}), &all_caps())
}

fn elicit_call(id: i64) -> Vec<u8> {
    tool_call(
        id,
        "test_input_required_result_elicitation",
        &json!({}),
        json!({}),
        &all_caps(),
    )
}

const ELICIT: &str = "test_input_required_result_elicitation";

#[test]
fn a_well_formed_post_gets_json() {
    let h = harness();
    let r = h.post(&list(1), "tools/list", None, &[]);
    assert_eq!(r.status, 200);
    assert_eq!(r.content_type, Some("application/json"));
    assert!(body(&r)
        .starts_with(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":["#));
    let r = h.post(&elicit_call(2), "tools/call", Some(ELICIT), &[]);
    assert_eq!(r.status, 200);
    assert!(body(&r).contains(r#""resultType":"input_required""#));
}

#[test]
fn protocol_version_header_must_match_meta() {
    let h = harness();
    let r = h.post(
        &list(1),
        "tools/list",
        None,
        &[("MCP-Protocol-Version", "")],
    );
    assert_eq!(
        (r.status, body(&r).as_str()),
        (
            400,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"Missing MCP-Protocol-Version header"}}"#
        )
    );
    let r = h.post(
        &list(2),
        "tools/list",
        None,
        &[("MCP-Protocol-Version", "2025-11-25")],
    );
    assert_eq!(
        (r.status, body(&r).as_str()),
        (
            400,
            r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32020,"message":"MCP-Protocol-Version header does not match params._meta protocolVersion"}}"#
        )
    );
    // Header and body agree on a revision the server does not speak: -32022.
    let mut old = json!({"_meta": meta(&all_caps())});
    old["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("2025-11-25");
    let r = h.post(
        &request(3, "tools/list", old.clone(), &all_caps()),
        "tools/list",
        None,
        &[("MCP-Protocol-Version", "2025-11-25")],
    );
    assert_eq!(
        (r.status, body(&r).as_str()),
        (
            400,
            r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"2025-11-25","supported":["2026-07-28"]}}}"#
        )
    );
    // ... and disagree: the mismatch is reported first.
    let r = h.post(
        &request(4, "tools/list", old, &all_caps()),
        "tools/list",
        None,
        &[],
    );
    assert_eq!(r.status, 400);
    assert!(body(&r).contains(r#""code":-32020"#), "{}", body(&r));
    // A method without _meta: the header alone names the revision.
    let get = request(5, "tasks/get", json!({"taskId": "t"}), &Value::Null);
    let r = h.post(
        &get,
        "tasks/get",
        None,
        &[("MCP-Protocol-Version", "2025-06-18")],
    );
    assert_eq!(
        (r.status, body(&r).as_str()),
        (
            400,
            r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"2025-06-18","supported":["2026-07-28"]}}}"#
        )
    );
    // Optional whitespace around the value is not part of it.
    let r = h.post(
        &list(6),
        "tools/list",
        None,
        &[("MCP-Protocol-Version", " 2026-07-28\t")],
    );
    assert_eq!(r.status, 200);
}

#[test]
fn mcp_method_and_mcp_name_must_match_the_body() {
    let h = harness();
    let mismatch = |id: i64, what: &str| {
        format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32020,"message":"{what}"}}}}"#)
    };
    let r = h.post(&list(1), "tools/list", None, &[("Mcp-Method", "")]);
    assert_eq!(
        (r.status, body(&r)),
        (400, mismatch(1, "Missing Mcp-Method header"))
    );
    let r = h.post(&list(2), "TOOLS/LIST", None, &[]);
    assert_eq!(
        (r.status, body(&r)),
        (
            400,
            mismatch(
                2,
                "Mcp-Method header does not match the request body's method"
            )
        )
    );
    let r = h.post(
        &list(3),
        "tools/list",
        None,
        &[("mcp-method", "tools/list")],
    );
    assert_eq!(r.status, 200, "header names are case-insensitive");
    let r = h.post(&elicit_call(4), "tools/call", None, &[]);
    assert_eq!(
        (r.status, body(&r)),
        (400, mismatch(4, "Missing Mcp-Name header"))
    );
    let r = h.post(&elicit_call(5), "tools/call", Some("wrong_tool_name"), &[]);
    assert_eq!(
        (r.status, body(&r)),
        (
            400,
            mismatch(
                5,
                "Mcp-Name header does not match the request body's name, uri or taskId"
            )
        )
    );
    let r = h.post(
        &elicit_call(6),
        "tools/call",
        Some(&format!("  {ELICIT}  ")),
        &[],
    );
    assert_eq!(r.status, 200, "whitespace around the value is trimmed");
    // A name that is not plain ASCII travels base64-wrapped.
    let uri = "notes://caf\u{e9}";
    let read = request(7, "resources/read", json!({"uri": uri}), &all_caps());
    let r = h.post(
        &read,
        "resources/read",
        Some("=?base64?bm90ZXM6Ly9jYWbDqQ==?="),
        &[],
    );
    assert_eq!(r.status, 400);
    assert_eq!(
        body(&r),
        r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Resource not found: notes://café","data":{"uri":"notes://café"}}}"#
    );
    let r = h.post(
        &read,
        "resources/read",
        Some("=?base64?bm90ZXM6Ly9jYWbDqQ=?="),
        &[],
    );
    assert_eq!(r.status, 400);
    assert!(
        body(&r).contains("-32020"),
        "malformed base64 matches nothing"
    );
    // Task methods: Mcp-Name optional, but must match when sent.
    let get = request(8, "tasks/get", json!({"taskId": "t-1"}), &Value::Null);
    let r = h.post(&get, "tasks/get", Some("t-2"), &[]);
    assert_eq!(
        (r.status, body(&r)),
        (
            400,
            mismatch(
                8,
                "Mcp-Name header does not match the request body's name, uri or taskId"
            )
        )
    );
    // A routing header sent twice.
    let headers = vec![
        ("Content-Type".to_string(), "application/json".to_string()),
        ("MCP-Protocol-Version".to_string(), "2026-07-28".to_string()),
        ("Mcp-Method".to_string(), "tools/list".to_string()),
        ("mcp-method".to_string(), "tools/list".to_string()),
    ];
    let r = http::respond(&h.demo, "POST", "/mcp", &headers, &list(9), true);
    assert_eq!(
        (r.status, body(&r)),
        (400, mismatch(9, "Mcp-Method header appears more than once"))
    );
}

#[test]
fn status_codes_follow_the_error_code() {
    let h = harness();
    // -32021
    let r = h.post(
        &tool_call(1, "scan_project", &json!({}), json!({}), &json!({})),
        "tools/call",
        Some("scan_project"),
        &[],
    );
    assert_eq!(
        (r.status, body(&r).as_str()),
        (
            400,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"Missing required client capability","data":{"requiredCapabilities":{"roots":{}}}}}"#
        )
    );
    // -32601
    let r = h.post(
        &request(2, "nope/nope", json!({}), &all_caps()),
        "nope/nope",
        None,
        &[],
    );
    assert_eq!(r.status, 404);
    // -32700, id null
    let r = h.post(b"{\"jsonrpc\":", "tools/list", None, &[]);
    assert_eq!(r.status, 400);
    assert!(
        body(&r).starts_with(r#"{"jsonrpc":"2.0","error":{"code":-32700,"#),
        "{}",
        body(&r)
    );
    // -32602: missing _meta on a core method
    let r = h.post(
        &request(3, "tools/list", json!({}), &Value::Null),
        "tools/list",
        None,
        &[],
    );
    assert_eq!(r.status, 400);
    assert!(body(&r).contains(r#""code":-32602"#));
    // Notifications and responses: 202, no body.
    let note = br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#;
    let r = h.post(note, "notifications/cancelled", None, &[]);
    assert_eq!((r.status, r.body.len(), r.content_type), (202, 0, None));
    let resp = br#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
    assert_eq!(h.post(resp, "", None, &[]).status, 202);
}

#[test]
fn http_layer_refusals() {
    let h = harness();
    let ok_headers = vec![
        ("Content-Type".to_string(), "application/json".to_string()),
        ("MCP-Protocol-Version".to_string(), "2026-07-28".to_string()),
        ("Mcp-Method".to_string(), "tools/list".to_string()),
    ];
    let get = http::respond(&h.demo, "GET", "/mcp", &ok_headers, b"", true);
    assert_eq!((get.status, get.allow), (405, Some("POST")));
    assert_eq!(
        http::respond(&h.demo, "DELETE", "/mcp", &ok_headers, b"", true).status,
        405
    );
    assert_eq!(
        http::respond(&h.demo, "POST", "/other", &ok_headers, &list(1), true).status,
        404
    );
    assert_eq!(
        http::respond(&h.demo, "POST", "/mcp?x=1", &ok_headers, &list(1), true).status,
        200
    );
    let r = h.post(
        &list(1),
        "tools/list",
        None,
        &[("Content-Type", "text/plain")],
    );
    assert_eq!(r.status, 415);
    let r = h.post(
        &list(1),
        "tools/list",
        None,
        &[("Content-Type", "application/json; charset=utf-8")],
    );
    assert_eq!(r.status, 200);
    let r = h.post(&list(1), "tools/list", None, &[("Accept", "text/html")]);
    assert_eq!(r.status, 406);
    let big = vec![b' '; MAX_BODY_BYTES + 1];
    assert_eq!(h.post(&big, "tools/list", None, &[]).status, 413);
    // DNS rebinding: a loopback server refuses foreign Host and Origin.
    assert_eq!(
        h.post(
            &list(1),
            "tools/list",
            None,
            &[("Host", "evil.example.com")]
        )
        .status,
        403
    );
    assert_eq!(
        h.post(
            &list(1),
            "tools/list",
            None,
            &[("Origin", "http://evil.example.com")]
        )
        .status,
        403
    );
    assert_eq!(
        h.post(
            &list(1),
            "tools/list",
            None,
            &[("Origin", "http://localhost:3000")]
        )
        .status,
        200
    );
    let mut foreign = ok_headers.clone();
    foreign.push(("Host".to_string(), "evil.example.com".to_string()));
    assert_eq!(
        http::respond(&h.demo, "POST", "/mcp", &foreign, &list(1), false).status,
        200
    );
}

#[test]
fn dns_rebinding_host_and_origin_policy() {
    // The conformance suite's dns-rebinding-protection requests: a
    // server/discover with Host and Origin naming the server, then naming
    // evil.example.com.
    let h = harness();
    let discover = request(1, "server/discover", json!({}), &json!({}));
    let post = |host: &str, origin: &str| {
        h.post(
            &discover,
            "server/discover",
            None,
            &[("Host", host), ("Origin", origin)],
        )
        .status
    };
    // Accepted: localhost, 127.0.0.0/8 and [::1], with or without a port;
    // an Origin over http or https with any port, or no Origin at all.
    for host in [
        "127.0.0.1:8080",
        "127.0.0.1",
        "localhost",
        "localhost:3000",
        "[::1]",
        "[::1]:8080",
    ] {
        for origin in [
            format!("http://{host}"),
            format!("https://{host}"),
            "http://localhost:5173".to_string(),
            "https://[::1]".to_string(),
            String::new(),
        ] {
            assert_eq!(post(host, &origin), 200, "Host {host}, Origin {origin:?}");
        }
    }
    let ok = h.post(
        &discover,
        "server/discover",
        None,
        &[
            ("Host", "127.0.0.1:8080"),
            ("Origin", "http://127.0.0.1:8080"),
        ],
    );
    assert_eq!(ok.content_type, Some("application/json"));
    assert!(
        body(&ok).starts_with(r#"{"jsonrpc":"2.0","id":1,"result":{"#),
        "{}",
        body(&ok)
    );
    // Refused with 403 and no body: a foreign Host, a foreign Origin, or
    // either one malformed.
    for (host, origin) in [
        ("evil.example.com", "http://evil.example.com"),
        ("evil.example.com", ""),
        ("evil.example.com:8080", "http://127.0.0.1:8080"),
        ("127.0.0.1:8080", "http://evil.example.com"),
        ("127.0.0.1:8080", "https://evil.example.com:443"),
        ("127.0.0.1:8080", "null"),
        ("localhost:80.evil.com", ""),
        ("127.0.0.1:8080", "http://localhost.evil.com"),
        ("[::1]evil.com", ""),
        ("10.0.0.1:8080", ""),
    ] {
        let r = h.post(
            &discover,
            "server/discover",
            None,
            &[("Host", host), ("Origin", origin)],
        );
        assert_eq!(
            (r.status, r.body.len(), r.content_type),
            (403, 0, None),
            "Host {host}, Origin {origin:?}"
        );
    }
    // Not bound to loopback: Host and Origin are not checked.
    let headers: Vec<(String, String)> = [
        ("Content-Type", "application/json"),
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "server/discover"),
        ("Host", "evil.example.com"),
        ("Origin", "http://evil.example.com"),
    ]
    .iter()
    .map(|(n, v)| (n.to_string(), v.to_string()))
    .collect();
    assert_eq!(
        http::respond(&h.demo, "POST", "/mcp", &headers, &discover, false).status,
        200
    );
}

#[test]
fn bearer_tokens_bind_state_to_their_user() {
    let h = harness();
    let name = "test_input_required_result_request_state";
    let call = |id: i64, extra: Value| tool_call(id, name, &json!({}), extra, &all_caps());
    let alice = [("Authorization", "Bearer alice-token")];
    let r1: Value = serde_json::from_slice(
        &h.post(&call(1, json!({})), "tools/call", Some(name), &alice)
            .body,
    )
    .unwrap();
    let state = r1["result"]["requestState"].as_str().unwrap().to_string();
    let retry = |id| {
        call(
            id,
            json!({"inputResponses": {"confirm": accept(json!({"ok": true}))}, "requestState": state}),
        )
    };
    let bob = h.post(
        &retry(2),
        "tools/call",
        Some(name),
        &[("Authorization", "Bearer bob-token")],
    );
    assert_eq!((bob.status, body(&bob)), (400, invalid_state(2)));
    let anonymous = h.post(&retry(3), "tools/call", Some(name), &[]);
    assert_eq!(
        (anonymous.status, body(&anonymous)),
        (400, invalid_state(3))
    );
    let again = h.post(&retry(4), "tools/call", Some(name), &alice);
    assert_eq!(again.status, 200);
    assert!(body(&again).contains("state-ok: requestState verified; confirmed=true"));
}

#[test]
fn stdio_answers_each_line_in_order_and_skips_notifications() {
    let h = harness();
    let mut input = Vec::new();
    input.extend_from_slice(&list(1));
    input.extend_from_slice(b"\n\n  \n");
    input.extend_from_slice(br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}"#);
    input.extend_from_slice(b"\r\n");
    input.extend_from_slice(&elicit_call(2));
    input.extend_from_slice(b"\nnot json\n");
    input.extend_from_slice(&request(3, "resources/list", json!({}), &all_caps()));
    let mut out = Vec::new();
    stdio::serve(&h.demo, &mut &input[..], &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0]
        .starts_with(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":"#));
    assert!(
        lines[1].starts_with(r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required""#)
    );
    assert!(
        lines[2].starts_with(r#"{"jsonrpc":"2.0","error":{"code":-32700"#),
        "{}",
        lines[2]
    );
    assert_eq!(
        lines[3],
        r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","resources":[],"ttlMs":0,"cacheScope":"public"}}"#
    );
}

#[test]
fn mcp_param_headers_must_match_the_designated_arguments() {
    let h = harness();
    let call = |id: i64, args: Value| tool_call(id, "route_ticket", &args, json!({}), &all_caps());
    let mismatch = |id: i64, what: &str| {
        format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32020,"message":"{what}"}}}}"#)
    };
    let ok = |id: i64, text: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"complete","content":[{{"type":"text","text":"{text}"}}],"isError":false}}}}"#
        )
    };
    // Literal and base64 values, header names in any case.
    let r = h.post(
        &call(1, json!({"region": "eu"})),
        "tools/call",
        Some("route_ticket"),
        &[("Mcp-Param-Region", "eu")],
    );
    assert_eq!((r.status, body(&r)), (200, ok(1, "Ticket routed to eu.")));
    let r = h.post(
        &call(2, json!({"region": "Hello", "priority": 3})),
        "tools/call",
        Some("route_ticket"),
        &[
            ("mcp-param-region", " =?base64?SGVsbG8=?= "),
            ("MCP-PARAM-PRIORITY", "3"),
        ],
    );
    assert_eq!(
        (r.status, body(&r)),
        (200, ok(2, "Ticket routed to Hello with priority 3."))
    );
    // Each refusal is -32020 naming the header and why.
    let cases = [
        (
            3,
            json!({"region": "eu"}),
            vec![],
            "Mcp-Param-Region: header missing for a designated argument",
        ),
        (
            4,
            json!({"region": "eu"}),
            vec![("Mcp-Param-Region", "us")],
            "Mcp-Param-Region: header value does not match the body",
        ),
        (
            5,
            json!({"region": "Hello"}),
            vec![("Mcp-Param-Region", "=?base64?SGVsbG8?=")],
            "Mcp-Param-Region: header value is not valid base64",
        ),
        (
            6,
            json!({"region": "Hello"}),
            vec![("Mcp-Param-Region", "=?base64?SGVs!!!bG8=?=")],
            "Mcp-Param-Region: header value is not valid base64",
        ),
        (
            7,
            json!({"region": "eu"}),
            vec![("Mcp-Param-Region", "eu"), ("Mcp-Param-Priority", "1")],
            "Mcp-Param-Priority: header sent for an argument the body does not have",
        ),
        (
            8,
            json!({"region": "eu", "priority": 2}),
            vec![("Mcp-Param-Region", "eu"), ("Mcp-Param-Priority", "3")],
            "Mcp-Param-Priority: header value does not match the body",
        ),
    ];
    for (id, args, headers, why) in cases {
        let r = h.post(
            &call(id, args),
            "tools/call",
            Some("route_ticket"),
            &headers,
        );
        assert_eq!((r.status, body(&r)), (400, mismatch(id, why)), "case {id}");
    }
    // An integer header compares by value, as the official SDKs compare it
    // (issue 25, item 5): "02" and "2.0" are the body's 2.
    for (id, value) in [(11, "02"), (12, "2.0")] {
        let r = h.post(
            &call(id, json!({"region": "eu", "priority": 2})),
            "tools/call",
            Some("route_ticket"),
            &[("Mcp-Param-Region", "eu"), ("Mcp-Param-Priority", value)],
        );
        assert_eq!(r.status, 200, "priority header {value}: {}", body(&r));
    }
    // Tools without designations ignore Mcp-Param-* headers.
    let r = h.post(
        &elicit_call(10),
        "tools/call",
        Some(ELICIT),
        &[("Mcp-Param-Region", "eu")],
    );
    assert_eq!(r.status, 200);
}

#[test]
fn subscriptions_listen_streams_only_the_changes_asked_for() {
    let h = harness();
    let listen = |id: i64, filter: Value| {
        request(
            id,
            "subscriptions/listen",
            json!({ "notifications": filter }),
            &all_caps(),
        )
    };
    let trigger = |id: i64, tool: &str| tool_call(id, tool, &json!({}), json!({}), &all_caps());
    // Over stdio: the acknowledgement answers the listen, and each change
    // follows the answer of the request that caused it, tagged with the
    // listen's id; a stream gets only the types it asked for.
    let mut input = Vec::new();
    for line in [
        listen(7, json!({"toolsListChanged": true})),
        listen(
            8,
            json!({"promptsListChanged": true, "resourcesListChanged": true}),
        ),
        trigger(9, "test_trigger_tool_change"),
        trigger(10, "test_trigger_prompt_change"),
    ] {
        input.extend_from_slice(&line);
        input.push(b'\n');
    }
    let mut out = Vec::new();
    stdio::serve(&h.demo, &mut &input[..], &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let ack = |id: i64, honored: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{{"_meta":{{"io.modelcontextprotocol/subscriptionId":{id}}},"notifications":{{{honored}}}}}}}"#
        )
    };
    let changed = |what: &str, id: i64| {
        format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/{what}/list_changed","params":{{"_meta":{{"io.modelcontextprotocol/subscriptionId":{id}}}}}}}"#
        )
    };
    let done = |id: i64, text: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"complete","content":[{{"type":"text","text":"{text}"}}],"isError":false}}}}"#
        )
    };
    assert_eq!(
        lines,
        [
            ack(7, r#""toolsListChanged":true"#),
            ack(8, r#""promptsListChanged":true"#),
            done(9, "Tool-list change announced to 1 subscription(s)."),
            changed("tools", 7),
            done(10, "Prompt-list change announced to 1 subscription(s)."),
            changed("prompts", 8),
        ],
        "{text}"
    );
    // Over HTTP the listen answers 200 with an event stream whose first
    // event is the acknowledgement.
    let r = h.post(
        &listen(11, json!({"toolsListChanged": true})),
        "subscriptions/listen",
        None,
        &[],
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.content_type, Some("text/event-stream"));
    assert_eq!(
        body(&r),
        format!("data: {}\n\n", ack(11, r#""toolsListChanged":true"#))
    );
    assert!(r.listen.is_some());
}
