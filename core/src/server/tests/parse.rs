//! Reading requests: the official examples, every method the server half
//! names, both task dialects, notifications and responses.

use super::*;
use crate::wire::{ClientCapabilities, ResponseKind};

/// The official 2026-07-28 example `CallToolRequest/call-tool-request.json`.
const CALL_TOOL_EXAMPLE: &str = r#"{
  "jsonrpc": "2.0",
  "id": "call-tool-example",
  "method": "tools/call",
  "params": {
    "_meta": {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": {
        "name": "ExampleClient",
        "version": "1.0.0"
      },
      "io.modelcontextprotocol/clientCapabilities": {}
    },
    "name": "get_weather",
    "arguments": {
      "location": "New York"
    }
  }
}"#;

#[test]
fn the_official_call_tool_example_parses_with_its_meta() {
    let r = request(CALL_TOOL_EXAMPLE.as_bytes());
    assert!(matches!(r.id, Id::Str(s) if s.eq_str("call-tool-example")));
    assert_eq!(r.method, Method::ToolsCall);
    assert!(r.name.unwrap().eq_str("get_weather"));
    assert_eq!(
        r.arguments.unwrap().raw(),
        b"{\n      \"location\": \"New York\"\n    }"
    );
    let meta = r.meta.unwrap();
    assert!(meta.protocol_version.unwrap().eq_str("2026-07-28"));
    assert_eq!(
        meta.client_capabilities,
        Some(ClientCapabilities::default())
    );
    let info = meta.client_info.unwrap();
    assert!(info.name.eq_str("ExampleClient") && info.version.eq_str("1.0.0"));
    assert_eq!(r.client_capabilities(), ClientCapabilities::default());
    assert_eq!(r.input_responses, None);
    assert_eq!(r.request_state, None);
    assert_eq!(r.task_id, None);
    assert!(r.protocol_header_matches("2026-07-28"));
    assert!(r.protocol_header_matches(" 2026-07-28"));
    assert!(!r.protocol_header_matches("2025-11-25"));
}

#[test]
fn prompts_get_and_resources_read_examples_parse() {
    let prompt = br#"{"jsonrpc":"2.0","id":"get-prompt-example","method":"prompts/get","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}},"name":"code_review","arguments":{"code":"def hello():\n    print('world')"}}}"#;
    let r = request(prompt);
    assert_eq!(r.method, Method::PromptsGet);
    assert!(r.name.unwrap().eq_str("code_review"));
    assert!(r.method.allows_input_required());
    let read = br#"{"jsonrpc":"2.0","id":"read-resource-example","method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}},"uri":"file:///project/src/main.rs"}}"#;
    let r = request(read);
    assert_eq!(r.method, Method::ResourcesRead);
    assert!(r.uri.unwrap().eq_str("file:///project/src/main.rs"));
    assert_eq!(r.name, None);
}

#[test]
fn a_retry_carries_answers_in_both_shapes_and_the_state_token_as_sent() {
    let bytes = tools_call(
        5,
        r#"{"elicitation":{"form":{},"url":{}},"sampling":{"tools":{}},"roots":{}}"#,
        "t",
        r#","inputResponses":{"a":{"action":"accept","content":{"x":1}},"b":{"result":{"roots":[{"uri":"file:///r"}]}}},"requestState":"m1.AAA\/BBB""#,
    );
    let r = request(&bytes);
    let caps = r.client_capabilities();
    assert!(caps.elicitation_form && caps.elicitation_url && caps.sampling && caps.sampling_tools);
    assert!(caps.roots && !caps.sampling_context && !caps.tasks);
    let a = r.elicit_answer("a").unwrap().unwrap();
    assert_eq!(a.action, crate::wire::ElicitAction::Accept);
    assert_eq!(a.content.unwrap().raw(), br#"{"x":1}"#);
    assert_eq!(a.field("x").unwrap().unwrap().as_u64(), Some(1));
    assert_eq!(a.field("y").unwrap(), None);
    let b = r.roots_answer("b").unwrap().unwrap();
    assert_eq!(b.len(), 1);
    let roots: std::vec::Vec<_> = b.iter().collect();
    assert!(roots[0].uri.eq_str("file:///r") && roots[0].name.is_none());
    // The token exactly as sent, and its decoded text.
    assert_eq!(r.request_state.unwrap().raw_token(), br#""m1.AAA\/BBB""#);
    let mut buf = [0u8; 32];
    assert_eq!(r.request_state_text(&mut buf), Ok(Some("m1.AAA/BBB")));
    let mut small = [0u8; 9];
    assert_eq!(
        r.request_state_text(&mut small),
        Err(crate::json::BufferTooSmall { needed: 10 })
    );
    // A token without escapes is borrowed from the request, no buffer needed.
    let plain = tools_call(6, "{}", "t", r#","requestState":"abc""#);
    let r = request(&plain);
    assert_eq!(r.request_state_text(&mut []), Ok(Some("abc")));
}

#[test]
fn a_lookup_answers_none_when_the_client_sent_nothing_for_the_key() {
    let none = tools_call(1, "{}", "t", "");
    let r = request(&none);
    assert_eq!(r.elicit_answer("k"), Ok(None));
    assert_eq!(r.sampling_answer("k"), Ok(None));
    assert_eq!(r.roots_answer("k"), Ok(None));
    let other = tools_call(
        1,
        "{}",
        "t",
        r#","inputResponses":{"other":{"action":"cancel"}}"#,
    );
    let r = request(&other);
    assert_eq!(r.elicit_answer("k"), Ok(None));
    // decline and cancel never expose content, even when some was sent
    let declined = tools_call(
        1,
        "{}",
        "t",
        r#","inputResponses":{"k":{"action":"decline","content":{"x":"y"}}}"#,
    );
    let r = request(&declined);
    let a = r.elicit_answer("k").unwrap().unwrap();
    assert_eq!(a.action, crate::wire::ElicitAction::Decline);
    assert_eq!(a.content, None);
    assert_eq!(a.field("x"), Ok(None));
}

#[test]
fn a_sampling_answer_exposes_role_model_content_and_text() {
    let bytes = tools_call(
        1,
        "{}",
        "t",
        r#","inputResponses":{"capital_of_france":{"role":"assistant","content":{"type":"text","text":"The capital of France is Paris."},"model":"claude-3-sonnet-20240307","stopReason":"endTurn"}}"#,
    );
    let r = request(&bytes);
    let s = r.sampling_answer("capital_of_france").unwrap().unwrap();
    assert!(s.role.eq_str("assistant"));
    assert!(s.model.eq_str("claude-3-sonnet-20240307"));
    assert!(s.stop_reason.unwrap().eq_str("endTurn"));
    assert!(s.text().unwrap().eq_str("The capital of France is Paris."));
    // An array of content blocks has no single text.
    let bytes = tools_call(
        1,
        "{}",
        "t",
        r#","inputResponses":{"k":{"role":"assistant","content":[{"type":"text","text":"a"}],"model":"m"}}"#,
    );
    let r = request(&bytes);
    let s = r.sampling_answer("k").unwrap().unwrap();
    assert_eq!(s.text(), None);
    assert_eq!(s.content.raw(), br#"[{"type":"text","text":"a"}]"#);
    assert_eq!(
        r.elicit_answer("k"),
        Err(UnusableAnswer::WrongKind {
            expected: ResponseKind::Elicit,
            found: ResponseKind::Sampling
        })
    );
}

#[test]
fn method_names_are_compared_decoded() {
    let bytes = br#"{"jsonrpc":"2.0","id":1,"method":"tools\/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"x"}}"#;
    assert_eq!(request(bytes).method, Method::ToolsCall);
    assert!(request(bytes).method.is("tools/call"));
}

#[test]
fn notifications_and_responses_get_no_answer() {
    // The official 2026-07-28 example of CancelledNotification.
    let cancelled = br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"123","reason":"User requested cancellation"}}"#;
    match ServerRequest::parse(cancelled, &WireLimits::default()).unwrap() {
        Incoming::Notification(n) => {
            assert!(n.method.eq_str("notifications/cancelled"));
            assert!(n.params.unwrap().get("requestId").is_some());
        }
        other => panic!("{other:?}"),
    }
    let result = br#"{"jsonrpc":"2.0","id":9,"result":{}}"#;
    assert_eq!(
        ServerRequest::parse(result, &WireLimits::default()),
        Ok(Incoming::Response)
    );
    let error = br#"{"jsonrpc":"2.0","id":9,"error":{"code":-1,"message":"x"}}"#;
    assert_eq!(
        ServerRequest::parse(error, &WireLimits::default()),
        Ok(Incoming::Response)
    );
}

#[test]
fn core_methods_need_meta_but_unknown_methods_do_not() {
    let list = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}},"inputResponses":7}}"#;
    let r = request(list);
    assert!(matches!(r.method, Method::Other(m) if m.eq_str("tools/list")));
    assert!(r.method.requires_meta());
    assert!(r.client_capabilities().roots);
    // inputResponses only mean something on the MRTR methods: not read here.
    assert_eq!(r.input_responses, None);
    let bare = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    assert_eq!(refused(bare).kind, RequestErrorKind::Missing(Field::Params));
    // An unknown method parses so the app can answer -32601 itself.
    let unknown = br#"{"jsonrpc":"2.0","id":1,"method":"vendor/frobnicate"}"#;
    let r = request(unknown);
    assert!(matches!(r.method, Method::Other(m) if m.eq_str("vendor/frobnicate")));
    assert!(!r.method.requires_meta() && !r.method.allows_input_required());
    assert_eq!(r.client_capabilities(), ClientCapabilities::default());
    assert_eq!(
        emit(|o| write_method_not_found(o, &r.id)),
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#
    );
}

#[test]
fn the_seed_task_dialect_requests_parse_as_in_the_sep() {
    // SEP step 3/5: tasks/get and tasks/result with a taskId, no _meta.
    let get = br#"{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"echo_dc792e24-01b5-4c0a-abcb-0559848ca3c5"}}"#;
    let r = request(get);
    assert_eq!(r.method, Method::TasksGet);
    assert!(r
        .task_id
        .unwrap()
        .eq_str("echo_dc792e24-01b5-4c0a-abcb-0559848ca3c5"));
    assert_eq!(r.meta, None);
    let result = br#"{"jsonrpc":"2.0","id":3,"method":"tasks/result","params":{"taskId":"t1"}}"#;
    let r = request(result);
    assert_eq!(r.method, Method::TasksResult);
    assert!(r.method.allows_input_required());
    // SEP step 7: tasks/input_response, the task named in _meta.
    let input = br#"{
    "jsonrpc": "2.0",
    "id": 4,
    "method": "tasks/input_response",
    "params": {
      "inputResponses":{
        "echo_input":{
          "result":{
            "action": "accept",
            "content":{
              "input": "Hello World!"
            }
          }
        }
      },
      "_meta":{
        "io.modelcontextprotocol/related-task":{
          "taskId": "echo_dc792e24-01b5-4c0a-abcb-0559848ca3c5"
        }
      }
    }
}"#;
    let r = request(input);
    assert_eq!(r.method, Method::TasksInputResponse);
    assert!(r
        .task_id
        .unwrap()
        .eq_str("echo_dc792e24-01b5-4c0a-abcb-0559848ca3c5"));
    let a = r.elicit_answer("echo_input").unwrap().unwrap();
    let text = a.field("input").unwrap().unwrap().as_str().unwrap();
    assert!(text.eq_str("Hello World!"));
    let cancel = br#"{"jsonrpc":"2.0","id":8,"method":"tasks/cancel","params":{"taskId":"t1"}}"#;
    assert_eq!(request(cancel).method, Method::TasksCancel);
}

#[test]
fn the_extension_tasks_update_request_parses() {
    let update = br#"{"jsonrpc":"2.0","id":12,"method":"tasks/update","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}},"taskId":"task-7","inputResponses":{"confirm":{"action":"accept","content":{"ok":true}}}}}"#;
    let r = request(update);
    assert_eq!(r.method, Method::TasksUpdate);
    assert!(r.task_id.unwrap().eq_str("task-7"));
    assert!(r.client_capabilities().tasks);
    let a = r.elicit_answer("confirm").unwrap().unwrap();
    assert_eq!(a.field("ok").unwrap().unwrap().as_bool(), Some(true));
    // tasks/update carries no requestState in the extension schema.
    assert_eq!(r.request_state, None);
    assert!(!r.method.allows_input_required());
}

#[test]
fn task_methods_without_their_task_id_or_answers_are_invalid_params() {
    let cases: [(&[u8], Field); 5] = [
        (br#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{}}"#, Field::TaskId),
        (br#"{"jsonrpc":"2.0","id":1,"method":"tasks/get"}"#, Field::Params),
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"tasks/update","params":{"taskId":"t"}}"#,
            Field::InputResponses,
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"tasks/input_response","params":{"inputResponses":{}}}"#,
            Field::RelatedTask,
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"tasks/input_response","params":{"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t"}}}}"#,
            Field::InputResponses,
        ),
    ];
    for (bytes, field) in cases {
        let e = refused(bytes);
        assert_eq!(
            e.kind,
            RequestErrorKind::Missing(field),
            "{}",
            String::from_utf8_lossy(bytes)
        );
        assert_eq!(e.code(), crate::wire::ErrorCode::InvalidParams);
        assert_eq!(e.id, Some(num(1)));
    }
    let e = refused(br#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":5}}"#);
    assert_eq!(
        error_response(&e),
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params: malformed taskId"}}"#
    );
    let e = refused(br#"{"jsonrpc":"2.0","id":1,"method":"tasks/input_response","params":{"_meta":{"io.modelcontextprotocol/related-task":{"id":"t"}},"inputResponses":{}}}"#);
    assert_eq!(e.kind, RequestErrorKind::Malformed(Field::RelatedTask));
}

#[test]
fn task_methods_with_meta_are_held_to_the_revision() {
    let future = br#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01"},"taskId":"t"}}"#;
    let e = refused(future);
    assert_eq!(e.code(), crate::wire::ErrorCode::UnsupportedProtocolVersion);
    assert_eq!(
        error_response(&e),
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"2099-01-01","supported":["2026-07-28"]}}}"#
    );
}

#[test]
fn under_the_optional_meta_policy_a_sep_draft_request_parses_with_nothing_declared() {
    // The SEP's weather retry: no _meta, wrapped answers.
    let sep = br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_weather","arguments":{"location":"New York"},"inputResponses":{"github_login":{"result":{"action":"accept","content":{"name":"octocat"}}}},"requestState":"foo"}}"#;
    let limits = WireLimits::default();
    assert_eq!(refused(sep).kind, RequestErrorKind::Missing(Field::Meta));
    let Ok(Incoming::Request(r)) = ServerRequest::parse_with(sep, &limits, MetaPolicy::Optional)
    else {
        panic!()
    };
    assert_eq!(r.meta, None);
    assert_eq!(r.client_capabilities(), ClientCapabilities::default());
    assert!(!r.protocol_header_matches("2026-07-28"));
    assert!(r.elicit_answer("github_login").unwrap().is_some());
    // Nothing declared, so nothing may be asked.
    let mut buf = [0u8; 256];
    let mut b = InputRequiredBuilder::for_request(&mut buf, &r).unwrap();
    assert!(matches!(
        b.elicit_form("k", "m", br#"{"type":"object","properties":{}}"#),
        Err(BuildError::MissingCapability { .. })
    ));
    // _meta is still read when present: another revision, broken capabilities.
    let other = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"},"name":"x"}}"#;
    let e = ServerRequest::parse_with(other, &limits, MetaPolicy::Optional).unwrap_err();
    assert!(matches!(
        e.kind,
        RequestErrorKind::UnsupportedProtocolVersion { .. }
    ));
    let broken = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":[]},"name":"x"}}"#;
    let e = ServerRequest::parse_with(broken, &limits, MetaPolicy::Optional).unwrap_err();
    assert_eq!(
        e.kind,
        RequestErrorKind::Malformed(Field::ClientCapabilities)
    );
    // Only _meta becomes optional: the name is still required.
    let nameless = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#;
    let e = ServerRequest::parse_with(nameless, &limits, MetaPolicy::Optional).unwrap_err();
    assert_eq!(e.kind, RequestErrorKind::Missing(Field::Name));
}

#[test]
fn any_answer_reads_typed_or_by_shape_and_tells_unknown_kinds_apart() {
    use crate::server::{any_answer, AnyAnswer, AnyAnswerError, UnusableAnswer};
    let bytes = tools_call(
        1,
        r#"{"elicitation":{"form":{}},"roots":{}}"#,
        "t",
        r#","inputResponses":{"f":{"action":"accept","content":{"x":1}},"w":{"result":{"roots":[]}},"odd":{"colour":"red"}}"#,
    );
    let r = request(&bytes);
    let map = r.input_responses;
    // By shape, bare: an elicitation with its exact bytes.
    let f = any_answer(map, "f", None).unwrap().unwrap();
    assert!(
        matches!(f.answer, AnyAnswer::Elicit(e) if e.action == crate::wire::ElicitAction::Accept)
    );
    assert_eq!(f.result, br#"{"action":"accept","content":{"x":1}}"#);
    assert!(!f.wrapped);
    // By shape, in the SEP draft's wrapping.
    let w = any_answer(map, "w", None).unwrap().unwrap();
    assert!(matches!(w.answer, AnyAnswer::Roots(ref roots) if roots.is_empty()));
    assert_eq!((w.result, w.wrapped), (&br#"{"roots":[]}"#[..], true));
    // Typed: the kind asked decides, and a mismatch is named.
    assert!(matches!(
        any_answer(map, "f", Some(ResponseKind::Roots)),
        Err(AnyAnswerError {
            error: UnusableAnswer::WrongKind { .. },
            kind_known: true
        })
    ));
    // No recognisable kind: refused, and said so.
    let odd = any_answer(map, "odd", None).unwrap_err();
    assert!(!odd.kind_known);
    // The same entry asked as an elicitation: malformed, kind known.
    assert_eq!(
        any_answer(map, "odd", Some(ResponseKind::Elicit)),
        Err(AnyAnswerError {
            error: UnusableAnswer::Malformed {
                expected: ResponseKind::Elicit
            },
            kind_known: true
        })
    );
    // Absent: ask again, typed or not.
    assert_eq!(any_answer(map, "none", None), Ok(None));
    assert_eq!(
        any_answer(map, "none", Some(ResponseKind::Sampling)),
        Ok(None)
    );
    assert_eq!(any_answer(None, "f", None), Ok(None));
    // Present but no result object (a map read on its own, where entries
    // are judged only on lookup): of no kind untyped, malformed typed.
    let raw = crate::json::parse(br#"{"n":[1],"r":{"result":5}}"#).unwrap();
    let map = Some(crate::wire::InputResponses::parse(raw, &WireLimits::default()).unwrap());
    for key in ["n", "r"] {
        assert_eq!(
            any_answer(map, key, None),
            Err(AnyAnswerError {
                error: UnusableAnswer::Malformed {
                    expected: ResponseKind::Elicit
                },
                kind_known: false
            })
        );
        assert_eq!(
            any_answer(map, key, Some(ResponseKind::Roots)),
            Err(AnyAnswerError {
                error: UnusableAnswer::Malformed {
                    expected: ResponseKind::Roots
                },
                kind_known: true
            })
        );
    }
}

/// Only a lone `result` member is the SEP draft's wrapping: a `result`
/// beside other members, or after another member, is part of a bare
/// answer, and a lone `result` that is not an object is no answer. (The
/// retry parse looks for a second member only after a first `result`.)
#[test]
fn input_response_is_wrapped_only_by_a_lone_result_member() {
    use crate::wire::InputResponse;
    fn read(doc: &[u8]) -> Option<(&[u8], bool)> {
        let v = crate::json::parse(doc).unwrap();
        InputResponse::parse(v).map(|r| (r.value.raw(), r.wrapped))
    }
    let roots = &br#"{"roots":[]}"#[..];
    assert_eq!(read(br#"{"result":{"roots":[]}}"#), Some((roots, true)));
    let beside = &br#"{"result":{"roots":[]},"x":1}"#[..];
    assert_eq!(read(beside), Some((beside, false)));
    let after = &br#"{"x":1,"result":{"roots":[]}}"#[..];
    assert_eq!(read(after), Some((after, false)));
    assert_eq!(read(br#"{"result":[]}"#), None);
    assert_eq!(read(br#"{}"#), Some((&b"{}"[..], false)));
    assert_eq!(read(br#"[]"#), None);
}

/// The first key of an answer is read on its own (its value not skipped)
/// and compared by its decoded text: whitespace around it and an escaped
/// spelling of `result` read as they do in a walk of the members.
#[test]
fn input_response_first_key_reads_as_in_a_walk() {
    use crate::wire::InputResponse;
    fn read(doc: &[u8]) -> Option<(&[u8], bool)> {
        let v = crate::json::parse(doc).unwrap();
        InputResponse::parse(v).map(|r| (r.value.raw(), r.wrapped))
    }
    let roots = &br#"{"roots":[]}"#[..];
    assert_eq!(
        read(b"{ \n\t\"result\" :\n {\"roots\":[]} \n}"),
        Some((roots, true))
    );
    assert_eq!(
        read(br#"{"res\u0075lt":{"roots":[]}}"#),
        Some((roots, true))
    );
    assert_eq!(read(br#"{ "result" : 1 }"#), None);
    let near = &br#"{"results":{"roots":[]}}"#[..];
    assert_eq!(read(near), Some((near, false)));
    let spaced = &b"{ \n }"[..];
    assert_eq!(read(spaced), Some((spaced, false)));
}
