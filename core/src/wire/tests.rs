use super::envelope::write_request_head;
use super::error::EnvelopeError;
use super::error::Violation;
use super::reply::{write_missing_capability, write_unsupported_version};
use super::*;
use crate::json::Writer;

const SPEC_EXAMPLE: &str = r#"{
  "jsonrpc": "2.0", "id": 1,
  "result": {
    "resultType": "input_required",
    "inputRequests": {
      "github_login": {"method": "elicitation/create", "params": {"mode": "form",
        "message": "Please provide your GitHub username",
        "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}},
      "capital_of_france": {"method": "sampling/createMessage", "params": {
        "messages": [{"role": "user", "content": {"type": "text", "text": "What is the capital of France?"}}],
        "modelPreferences": {"hints": [{"name": "claude-3-sonnet"}], "intelligencePriority": 0.8, "speedPriority": 0.5},
        "systemPrompt": "You are a helpful assistant.", "maxTokens": 100}}
    },
    "requestState": "AEAD-protected blob"
  }
}"#;

fn result_of(msg: &str) -> Result<ResultOutcome<'_>, WireError> {
    let limits = WireLimits::default();
    match parse_message(msg.as_bytes(), &limits)? {
        Message::Result { result, .. } => classify_result(result, "tools/call", &limits),
        other => panic!("not a result: {other:?}"),
    }
}

#[test]
fn spec_example_classifies_as_input_required_with_two_kinds() {
    let ResultOutcome::InputRequired(ir) = result_of(SPEC_EXAMPLE).unwrap() else {
        panic!("expected input_required")
    };
    assert_eq!(
        ir.request_state.unwrap().raw_token(),
        br#""AEAD-protected blob""#
    );
    let reqs = ir.input_requests.unwrap();
    assert_eq!(reqs.len(), 2);
    let items: std::vec::Vec<_> = reqs.iter().collect();
    assert!(items[0].0.eq_str("github_login"));
    assert_eq!(items[0].1.kind(), InputKind::ElicitForm);
    assert!(items[0]
        .1
        .message()
        .unwrap()
        .eq_str("Please provide your GitHub username"));
    assert!(items[1].0.eq_str("capital_of_france"));
    match items[1].1 {
        InputRequest::Sampling {
            max_tokens,
            system_prompt,
            has_tools,
            ..
        } => {
            assert_eq!(max_tokens, 100);
            assert!(system_prompt
                .unwrap()
                .eq_str("You are a helpful assistant."));
            assert!(!has_tools);
        }
        other => panic!("{other:?}"),
    }
    let need = reqs.required_capabilities();
    assert!(need.elicitation_form && need.sampling && !need.roots && !need.elicitation_url);
}

/// The capabilities a map needs are the union over its requests, each
/// flag set by exactly the request that needs it.
#[test]
fn required_capabilities_are_the_union_of_the_requests() {
    let caps = |reqs: &str| {
        let msg = std::format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","inputRequests":{reqs}}}}}"#
        );
        let msg = std::boxed::Box::leak(msg.into_boxed_str());
        match result_of(msg) {
            Ok(ResultOutcome::InputRequired(ir)) => {
                ir.input_requests.unwrap().required_capabilities()
            }
            other => panic!("{other:?}"),
        }
    };
    let url = r#""u":{"method":"elicitation/create","params":{"mode":"url","message":"m","url":"https://a.example/"}}"#;
    let roots = r#""r":{"method":"roots/list"}"#;
    let tools = r#""s":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5,"tools":[{"name":"t","inputSchema":{"type":"object"}}]}}"#;
    let context = r#""c":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5,"includeContext":"thisServer"}}"#;
    let plain = r#""p":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5,"includeContext":"none","tools":[]}}"#;
    assert_eq!(
        caps(&std::format!("{{{url},{roots}}}")),
        ClientCapabilities {
            elicitation_url: true,
            roots: true,
            ..ClientCapabilities::default()
        }
    );
    assert_eq!(
        caps(&std::format!("{{{plain}}}")),
        ClientCapabilities {
            sampling: true,
            ..ClientCapabilities::default()
        }
    );
    assert_eq!(
        caps(&std::format!("{{{plain},{tools},{context}}}")),
        ClientCapabilities {
            sampling: true,
            sampling_tools: true,
            sampling_context: true,
            ..ClientCapabilities::default()
        }
    );
}

/// A result that names its kind or its MRTR fields twice is refused as a
/// duplicate, not read by whichever copy a reader happens to keep (a
/// hostile server's "input_required" then "complete" must not complete).
#[test]
fn duplicate_result_members_are_refused() {
    for dup in [
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","resultType":"complete","content":[]}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","resultType":"complete"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"a","requestState":"b"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{},"inputRequests":{"k":{"method":"roots/list"}}}}"#,
    ] {
        assert_eq!(
            result_of(dup),
            Err(WireError::Protocol(Violation::DuplicateResultMember)),
            "{dup}"
        );
    }
}

#[test]
fn result_type_rules() {
    let complete = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}}"#;
    assert!(matches!(
        result_of(complete),
        Ok(ResultOutcome::Complete(_))
    ));
    let legacy = r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#;
    assert!(matches!(result_of(legacy), Ok(ResultOutcome::Complete(_))));
    let unknown = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"partial"}}"#;
    assert_eq!(
        result_of(unknown),
        Err(WireError::Protocol(Violation::UnknownResultType))
    );
    let neither = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}}"#;
    assert_eq!(
        result_of(neither),
        Err(WireError::Protocol(Violation::InputRequiredWithoutFields))
    );
    let empty_map =
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{}}}"#;
    assert_eq!(
        result_of(empty_map),
        Err(WireError::Protocol(Violation::InputRequiredWithoutFields))
    );
    let state_only = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"a\"b"}}"#;
    let ResultOutcome::InputRequired(ir) = result_of(state_only).unwrap() else {
        panic!()
    };
    assert!(ir.input_requests.is_none());
    assert_eq!(ir.request_state.unwrap().raw_token(), br#""a\"b""#);
    let sep_era = r#"{"jsonrpc":"2.0","id":1,"result":{"requestState":"foo"}}"#;
    assert_eq!(
        result_of(sep_era),
        Err(WireError::Protocol(Violation::MissingResultType))
    );
    let bad_state =
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":7}}"#;
    assert_eq!(
        result_of(bad_state),
        Err(WireError::Protocol(Violation::BadRequestState))
    );
    // Only MRTR methods may be answered with input_required.
    let limits = WireLimits::default();
    let Message::Result { result, .. } = parse_message(state_only.as_bytes(), &limits).unwrap()
    else {
        panic!()
    };
    assert_eq!(
        classify_result(result, "tools/list", &limits),
        Err(WireError::Protocol(Violation::InputRequiredNotAllowed))
    );
    for m in ["prompts/get", "resources/read", "tasks/result"] {
        assert!(classify_result(result, m, &limits).is_ok(), "{m}");
    }
}

#[test]
fn a_task_records_members_are_judged_in_order_a_repeated_one_bad() {
    let parse = |rec: &'static str, dialect| {
        let v = crate::json::parse(rec.as_bytes()).unwrap();
        TaskRecord::parse(v.as_object().unwrap(), dialect).map(|r| {
            (
                r.task_id.raw_token().len(),
                r.status,
                r.poll_interval_ms,
                r.status_message.is_some(),
            )
        })
    };
    let (seed, ext) = (TaskDialect::Seed, TaskDialect::Extension);
    let bad = Err(Violation::BadTask);
    assert_eq!(
        parse(
            r#"{"taskId":"t","status":"Working","pollInterval":-5,"statusMessage":"s"}"#,
            seed
        ),
        Ok((3, TaskStatus::Working, Some(0), true))
    );
    assert_eq!(
        parse(
            r#"{"taskId":"t","status":"working","pollIntervalMs":null,"pollInterval":"x"}"#,
            ext
        ),
        Ok((3, TaskStatus::Working, None, false))
    );
    assert_eq!(
        parse(r#"{"taskId":"t","taskId":"t","status":"working"}"#, ext),
        bad
    );
    assert_eq!(
        parse(
            r#"{"taskId":"t","status":"working","status":"working"}"#,
            ext
        ),
        bad
    );
    assert_eq!(
        parse(
            r#"{"taskId":"t","status":"working","pollIntervalMs":1,"pollIntervalMs":1}"#,
            ext
        ),
        bad
    );
    assert_eq!(
        parse(
            r#"{"taskId":"t","status":"working","statusMessage":"a","statusMessage":"b"}"#,
            ext
        ),
        bad
    );
    // The status is judged before the members after it.
    assert_eq!(
        parse(
            r#"{"taskId":"t","status":"sleeping","statusMessage":"a","statusMessage":"b"}"#,
            ext
        ),
        Err(Violation::UnknownTaskStatus)
    );
    assert_eq!(parse(r#"{"taskId":1,"status":"sleeping"}"#, ext), bad);
}

#[test]
fn a_task_errors_members_are_read_once_each() {
    use super::task::TaskError;
    let parse = |e: &'static str| {
        let v = crate::json::parse(e.as_bytes()).unwrap();
        TaskError::parse(v).map(|e| (e.code, e.message.raw_token().len(), e.data.is_some()))
    };
    let bad = Err(Violation::BadTask);
    assert_eq!(parse(r#"{"code":-1,"message":"m"}"#), Ok((-1, 3, false)));
    assert_eq!(
        parse(r#"{"data":null,"message":"m","code":2}"#),
        Ok((2, 3, true))
    );
    assert_eq!(parse(r#"{"code":1,"message":"m","data":1,"data":2}"#), bad);
    assert_eq!(parse(r#"{"code":1,"code":1,"message":"m"}"#), bad);
    assert_eq!(parse(r#"{"code":1.5,"message":"m"}"#), bad);
    assert_eq!(parse(r#"{"code":1,"message":7}"#), bad);
    assert_eq!(parse(r#"{"message":"m"}"#), bad);
    assert_eq!(parse(r#"[]"#), bad);
}

#[test]
fn an_input_maps_capabilities_are_the_union_of_its_requests() {
    let maps = [
        r#"{"a":{"method":"roots/list"}}"#,
        r#"{"a":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{}}},"b":{"method":"roots/list"}}"#,
        r#"{"u":{"method":"elicitation/create","params":{"mode":"url","message":"m","url":"u"}}}"#,
        r#"{"s":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1,"tools":[{}]}},"t":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1,"includeContext":"thisServer"}}}"#,
        r#"{"s":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1,"tools":[]}},"r":{"method":"roots/list"},"u":{"method":"elicitation/create","params":{"mode":"url","message":"m","url":"u"}}}"#,
    ];
    for map in maps {
        let v = crate::json::parse(map.as_bytes()).unwrap();
        let reqs = InputRequests::parse(v, &WireLimits::default()).unwrap();
        let mut union = ClientCapabilities::default();
        for (_, r) in reqs.iter() {
            union = ClientCapabilities::from_bits(union.bits() | r.required_capabilities().bits())
                .unwrap();
        }
        assert_eq!(reqs.required_capabilities().bits(), union.bits(), "{map}");
    }
}

#[test]
fn an_input_requests_repeated_members_are_judged_as_the_mode_reads_them() {
    let parse = |req: &'static str| {
        let v = crate::json::parse(req.as_bytes()).unwrap();
        InputRequest::parse(v).map(|r| r.kind())
    };
    let bad = Err(Violation::BadInputRequest);
    // A member a mode does not read may repeat; one it reads may not.
    assert_eq!(
        parse(
            r#"{"method":"elicitation/create","params":{"mode":"url","message":"m","url":"u","requestedSchema":1,"requestedSchema":2}}"#
        ),
        Ok(InputKind::ElicitUrl)
    );
    assert_eq!(
        parse(
            r#"{"method":"elicitation/create","params":{"mode":"url","message":"m","url":"u","url":"v"}}"#
        ),
        bad
    );
    assert_eq!(
        parse(
            r#"{"method":"elicitation/create","params":{"message":"m","requestedSchema":{},"url":1,"url":2}}"#
        ),
        Ok(InputKind::ElicitForm)
    );
    assert_eq!(
        parse(
            r#"{"method":"elicitation/create","params":{"message":"m","message":"n","requestedSchema":{}}}"#
        ),
        bad
    );
    // The mode is judged before the members it would read.
    assert_eq!(
        parse(
            r#"{"method":"elicitation/create","params":{"mode":"popup","message":"m","message":"n"}}"#
        ),
        Err(Violation::BadElicitationMode)
    );
    assert_eq!(
        parse(
            r#"{"method":"elicitation/create","params":{"mode":"url","mode":"url","message":"m","url":"u"}}"#
        ),
        bad
    );
    // Sampling: any repeated member, whatever else is wrong.
    assert_eq!(
        parse(
            r#"{"method":"sampling/createMessage","params":{"maxTokens":1,"maxTokens":2,"messages":[]}}"#
        ),
        bad
    );
    assert_eq!(
        parse(
            r#"{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1,"tools":[],"tools":[]}}"#
        ),
        bad
    );
    assert_eq!(
        parse(
            r#"{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1,"includeContext":"none"}}"#
        ),
        Ok(InputKind::Sampling)
    );
    // The method is judged before a repeated params.
    assert_eq!(
        parse(r#"{"params":{},"params":{}}"#),
        Err(Violation::UnknownInputMethod)
    );
}

#[test]
fn input_request_validation() {
    let case = |reqs: &str| {
        let msg = std::format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","inputRequests":{reqs}}}}}"#
        );
        result_of(std::boxed::Box::leak(msg.into_boxed_str())).map(|_| ())
    };
    let v = |x| Err(WireError::Protocol(x));
    assert_eq!(
        case(r#"{"a":{"method":"ping"}}"#),
        v(Violation::UnknownInputMethod)
    );
    assert_eq!(
        case(r#"{"a":{"params":{}}}"#),
        v(Violation::UnknownInputMethod)
    );
    assert_eq!(
        case(r#"{"a":{"method":"elicitation/create","params":{"mode":"popup","message":"m"}}}"#),
        v(Violation::BadElicitationMode)
    );
    assert_eq!(
        case(r#"{"a":{"method":"elicitation/create","params":{"mode":"url","message":"m"}}}"#),
        v(Violation::BadInputRequest)
    );
    assert_eq!(
        case(r#"{"a":{"method":"elicitation/create","params":{"message":"m"}}}"#),
        v(Violation::BadInputRequest)
    );
    assert_eq!(
        case(r#"{"a":{"method":"sampling/createMessage"}}"#),
        v(Violation::BadInputRequest)
    );
    assert_eq!(
        case(r#"{"a":{"method":"sampling/createMessage","params":{"messages":[]}}}"#),
        v(Violation::BadInputRequest)
    );
    assert_eq!(
        case(r#"{"a":{"method":"roots/list"},"\u0061":{"method":"roots/list"}}"#),
        v(Violation::DuplicateInputKey)
    );
    assert_eq!(
        case(r#"{"":{"method":"roots/list"}}"#),
        v(Violation::BadInputKey)
    );
    assert_eq!(case(r#"[]"#), v(Violation::BadInputRequests));
    assert_eq!(case(r#"{"a":{"method":"roots/list"}}"#), Ok(()));
    assert_eq!(
        case(
            r#"{"u":{"method":"elicitation/create","params":{"mode":"url","message":"m","url":"https://x"}}}"#
        ),
        Ok(())
    );
    let many: std::string::String = (0..65)
        .map(|i| std::format!("\"k{i}\":{{\"method\":\"roots/list\"}}"))
        .collect::<std::vec::Vec<_>>()
        .join(",");
    assert_eq!(
        case(&std::format!("{{{many}}}")),
        v(Violation::TooManyInputRequests)
    );
    let long_key = "k".repeat(257);
    assert_eq!(
        case(&std::format!(
            r#"{{"{long_key}":{{"method":"roots/list"}}}}"#
        )),
        v(Violation::BadInputKey)
    );
}

#[test]
fn envelope_rules() {
    let l = WireLimits::default();
    let e = |m: &str| parse_message(m.as_bytes(), &l).unwrap_err();
    assert_eq!(e(r#"[]"#), WireError::Envelope(EnvelopeError::NotAnObject));
    assert_eq!(
        e(r#"{"jsonrpc":"1.0","id":1,"result":{}}"#),
        WireError::Envelope(EnvelopeError::BadVersion)
    );
    assert_eq!(
        e(r#"{"id":1,"result":{}}"#),
        WireError::Envelope(EnvelopeError::BadVersion)
    );
    assert_eq!(
        e(r#"{"jsonrpc":"2.0","id":1,"id":2,"result":{}}"#),
        WireError::Envelope(EnvelopeError::DuplicateMember)
    );
    assert_eq!(
        e(r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}"#),
        WireError::Envelope(EnvelopeError::ResultXorError)
    );
    assert_eq!(
        e(r#"{"jsonrpc":"2.0","id":1}"#),
        WireError::Envelope(EnvelopeError::ResultXorError)
    );
    assert_eq!(
        e(r#"{"jsonrpc":"2.0","id":1.5,"result":{}}"#),
        WireError::Envelope(EnvelopeError::BadId)
    );
    assert_eq!(
        e(r#"{"jsonrpc":"2.0","id":null,"result":{}}"#),
        WireError::Envelope(EnvelopeError::BadId)
    );
    assert_eq!(
        e(r#"{"jsonrpc":"2.0","id":1,"result":[]}"#),
        WireError::Protocol(Violation::ResultNotObject)
    );
    assert_eq!(
        e(r#"{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}"#),
        WireError::Envelope(EnvelopeError::BadErrorObject)
    );
    match parse_message(
        br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
        &l,
    )
    .unwrap()
    {
        Message::Error {
            id: None,
            code: -32700,
            message,
            data: None,
        } => assert!(message.eq_str("Parse error")),
        other => panic!("{other:?}"),
    }
    match parse_message(
        br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}"#,
        &l,
    )
    .unwrap()
    {
        Message::Notification {
            method,
            params: Some(_),
        } => assert!(method.eq_str("notifications/progress")),
        other => panic!("{other:?}"),
    }
    match parse_message(br#"{"jsonrpc":"2.0","id":"abc","method":"tools/call"}"#, &l).unwrap() {
        Message::Request {
            id: Id::Str(s),
            params: None,
            ..
        } => assert!(s.eq_str("abc")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn capabilities_parse_and_emit() {
    let parse = |s: &str| {
        ClientCapabilities::parse(
            crate::json::parse(s.as_bytes())
                .unwrap()
                .as_object()
                .unwrap(),
        )
    };
    let c = parse(r#"{"elicitation":{}}"#).unwrap();
    assert!(
        c.elicitation_form && !c.elicitation_url,
        "empty elicitation means form"
    );
    let c = parse(r#"{"elicitation":{"url":{}}}"#).unwrap();
    assert!(!c.elicitation_form && c.elicitation_url);
    let c = parse(
        r#"{"sampling":{"tools":{}},"roots":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}"#,
    )
    .unwrap();
    assert!(c.sampling && c.sampling_tools && !c.sampling_context && c.roots && c.tasks);
    assert_eq!(parse(r#"{"roots":true}"#), Err(Violation::BadMeta));
    // Every member read is unique, in any position; a non-object anywhere
    // fails, whichever member comes first.
    for bad in [
        r#"{"roots":{},"sampling":{},"roots":{}}"#,
        r#"{"elicitation":{},"elicitation":{}}"#,
        r#"{"extensions":{},"roots":{},"extensions":{}}"#,
        r#"{"elicitation":{"form":{},"form":{}}}"#,
        r#"{"elicitation":{"url":[]}}"#,
        r#"{"sampling":{},"elicitation":1}"#,
        r#"{"elicitation":{},"sampling":[]}"#,
    ] {
        assert_eq!(parse(bad), Err(Violation::BadMeta), "{bad}");
    }
    // Inside sampling the first `tools` and `context` count (not refused).
    let c = parse(r#"{"sampling":{"tools":{},"tools":1,"context":2,"context":{}}}"#).unwrap();
    assert!(c.sampling && c.sampling_tools && !c.sampling_context);
    let c = parse(r#"{"x":{"roots":1},"roots":{},"y":[{"sampling":{}}]}"#).unwrap();
    assert!(c.roots && !c.sampling && !c.elicitation_form);
    let mut buf = [0u8; 256];
    let mut w = Writer::new(&mut buf);
    ClientCapabilities::ALL.write(&mut w);
    let n = w.finish().unwrap();
    assert_eq!(
        &buf[..n],
        br#"{"elicitation":{"form":{},"url":{}},"sampling":{"tools":{},"context":{}},"roots":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}"#
    );
    assert_eq!(
        parse(core::str::from_utf8(&buf[..n]).unwrap()).unwrap(),
        ClientCapabilities::ALL
    );
    let mut w = Writer::new(&mut buf);
    ClientCapabilities::default().write(&mut w);
    let n = w.finish().unwrap();
    assert_eq!(&buf[..n], b"{}");
}

#[test]
fn error_emitters() {
    let mut buf = [0u8; 256];
    let mut w = Writer::new(&mut buf);
    let need = ClientCapabilities {
        sampling: true,
        ..Default::default()
    };
    write_missing_capability(&mut w, Some(&Id::Number(7)), &need);
    let n = w.finish().unwrap();
    assert_eq!(
        &buf[..n],
        br#"{"jsonrpc":"2.0","id":7,"error":{"code":-32021,"message":"Missing required client capability","data":{"requiredCapabilities":{"sampling":{}}}}}"#
    );
    let mut w = Writer::new(&mut buf);
    write_unsupported_version(
        &mut w,
        Some(&Id::Number(1)),
        "2099-01-01",
        &[PROTOCOL_VERSION],
    );
    let n = w.finish().unwrap();
    assert_eq!(
        &buf[..n],
        br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"2099-01-01","supported":["2026-07-28"]}}}"#
    );
    let mut w = Writer::new(&mut buf);
    super::reply::write_invalid_request_state(&mut w, None);
    let n = w.finish().unwrap();
    // No id known: the member is omitted (the schema forbids a null RequestId).
    assert_eq!(
        &buf[..n],
        br#"{"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid or expired requestState"}}"#
    );
    let mut w = Writer::new(&mut buf);
    write_request_head(&mut w, &Id::Number(3), "tools/call");
    w.raw(b"{}}");
    let n = w.finish().unwrap();
    assert_eq!(
        &buf[..n],
        br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{}}"#
    );
}

#[test]
fn input_requests_key_check_errors_come_before_entry_errors() {
    // One walk reads the entries while it checks the keys: a bad entry
    // before a repeated key, or before the member past the limit, still
    // fails the check; the first bad entry in document order wins when
    // the keys are fine; an entry past a check's block of keys counts.
    let limits = WireLimits {
        max_input_requests: 3,
        ..WireLimits::default()
    };
    let case = |reqs: &str, limits: &WireLimits| {
        let v = crate::json::parse(reqs.as_bytes()).unwrap();
        InputRequests::parse(v, limits).map(|r| r.len())
    };
    let roots = r#"{"method":"roots/list"}"#;
    let ping = r#"{"method":"ping"}"#;
    let url = r#"{"method":"elicitation/create","params":{"mode":"url","message":"m"}}"#;
    assert_eq!(
        case(
            &std::format!(r#"{{"a":{ping},"b":{roots},"a":{roots}}}"#),
            &limits
        ),
        Err(Violation::DuplicateInputKey)
    );
    assert_eq!(
        case(
            &std::format!(r#"{{"":{roots},"a":{ping},"b":{roots},"c":{roots}}}"#),
            &limits
        ),
        Err(Violation::TooManyInputRequests)
    );
    assert_eq!(
        case(
            &std::format!(r#"{{"a":{url},"b":{ping},"c":{roots}}}"#),
            &limits
        ),
        Err(Violation::BadInputRequest)
    );
    assert_eq!(
        case(
            &std::format!(r#"{{"a":{roots},"":{url},"c":{ping}}}"#),
            &limits
        ),
        Err(Violation::BadInputKey)
    );
    assert_eq!(
        case(
            &std::format!(r#"{{"a":{roots},"b":{roots},"c":{roots}}}"#),
            &limits
        ),
        Ok(3)
    );
    let keys = |n: usize, last: &str| {
        let mut body: std::vec::Vec<std::string::String> =
            (0..n).map(|i| std::format!(r#""k{i}":{roots}"#)).collect();
        body.push(std::format!(r#""last":{last}"#));
        std::format!("{{{}}}", body.join(","))
    };
    let defaults = WireLimits::default();
    let past_block = crate::json::UNIQUE_KEYS_BLOCK + 5;
    assert_eq!(
        case(&keys(past_block, ping), &defaults),
        Err(Violation::UnknownInputMethod)
    );
    assert_eq!(
        case(&keys(past_block, roots), &defaults),
        Ok(past_block + 1)
    );
    let dup_after_block = keys(past_block, ping).replace(r#""last""#, r#""k3""#);
    assert_eq!(
        case(&dup_after_block, &defaults),
        Err(Violation::DuplicateInputKey)
    );
}

#[test]
fn input_responses_accept_bare_and_wrapped() {
    let doc = br#"{"a":{"action":"accept","content":{"x":1}},"b":{"result":{"roots":[]}},"c":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"},"d":5}"#;
    let v = crate::json::parse(doc).unwrap();
    let r = InputResponses::parse(v, &WireLimits::default()).unwrap();
    let a = r.get("a").unwrap();
    assert_eq!((a.kind(), a.wrapped), (Some(ResponseKind::Elicit), false));
    let b = r.get("b").unwrap();
    assert_eq!((b.kind(), b.wrapped), (Some(ResponseKind::Roots), true));
    assert_eq!(r.get("c").unwrap().kind(), Some(ResponseKind::Sampling));
    assert!(r.get("d").is_none(), "malformed entries are ignored");
    assert!(r.get("zzz").is_none());
    let dup = crate::json::parse(br#"{"a":{},"a":{}}"#).unwrap();
    assert_eq!(
        InputResponses::parse(dup, &WireLimits::default()),
        Err(Violation::DuplicateInputKey)
    );
}

#[test]
fn response_kind_reads_each_member_at_its_first_occurrence_elicit_then_roots_then_sampling() {
    let kind = |doc: &[u8]| {
        let wrapped = [br#"{"k":"#.as_slice(), doc, b"}"].concat();
        let v = crate::json::parse(&wrapped).unwrap();
        let r = InputResponses::parse(v, &WireLimits::default()).unwrap();
        r.get("k").unwrap().kind()
    };
    // The first `action` decides: a later valid one does not count.
    assert_eq!(kind(br#"{"action":"maybe","action":"accept"}"#), None);
    assert_eq!(
        kind(br#"{"action":"cancel","action":"maybe"}"#),
        Some(ResponseKind::Elicit)
    );
    // Elicit is tried before roots, roots before sampling.
    assert_eq!(
        kind(br#"{"roots":[],"role":"user","content":{},"model":"m","action":"decline"}"#),
        Some(ResponseKind::Elicit)
    );
    assert_eq!(
        kind(br#"{"role":"user","content":{},"model":"m","roots":[]}"#),
        Some(ResponseKind::Roots)
    );
    // `roots` must be an array at its first occurrence.
    assert_eq!(kind(br#"{"roots":{},"roots":[]}"#), None);
    // Sampling needs all three of role, content, model (any values).
    assert_eq!(
        kind(br#"{"model":1,"content":2,"role":3}"#),
        Some(ResponseKind::Sampling)
    );
    assert_eq!(kind(br#"{"role":"user","content":{},"role":"x"}"#), None);
    assert_eq!(kind(br#"{"action":"accept0"}"#), None);
    assert_eq!(kind(br#"{}"#), None);
}

#[test]
fn wire_errors_display_specific_messages() {
    use crate::json::{Error as JsonError, ErrorKind};
    use core::error::Error as _;
    use std::string::ToString;

    let json = JsonError {
        kind: ErrorKind::UnexpectedEnd,
        offset: 9,
    };
    assert_eq!(
        WireError::Json(json).to_string(),
        "invalid JSON: UnexpectedEnd at byte 9"
    );
    assert_eq!(
        WireError::Envelope(EnvelopeError::BadVersion).to_string(),
        "not JSON-RPC 2.0: jsonrpc is missing or not \"2.0\""
    );
    assert_eq!(
        WireError::Protocol(Violation::DuplicateInputKey).to_string(),
        "MRTR violation: an input key occurs twice"
    );
    assert_eq!(
        EnvelopeError::ResultXorError.to_string(),
        "response needs exactly one of result and error"
    );
    assert_eq!(
        Violation::InputRequiredWithoutFields.to_string(),
        "input_required without inputRequests or requestState"
    );
    assert_eq!(Violation::BadTask.to_string(), "malformed task record");

    // The wrapping variants expose the inner error as their source.
    let e = WireError::Json(json);
    assert_eq!(e.source().unwrap().to_string(), json.to_string());
    let e = WireError::Protocol(Violation::BadMeta);
    assert_eq!(
        e.source().unwrap().to_string(),
        "_meta is missing or malformed"
    );
    assert!(EnvelopeError::BadId.source().is_none());
}

#[test]
fn task_error_displays_code_and_decoded_message() {
    use std::string::ToString;
    let v = crate::json::parse(br#"{"code":-32603,"message":"disk \u0066ull"}"#).unwrap();
    let e = task::TaskError::parse(v).unwrap();
    assert_eq!(e.to_string(), "task failed with error -32603: disk full");
}

#[test]
fn kind_of_validated_agrees_with_parse_on_accepted_requests() {
    let entries = [
        r#"{"method":"elicitation/create","params":{"mode":"form","message":"m","requestedSchema":{}}}"#,
        r#"{"params":{"message":"m","requestedSchema":{},"mode":"form"},"method":"elicitation/create"}"#,
        r#"{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object"}}}"#,
        r#"{"method":"elicitation/create","params":{"message":"m","url":"https://x","mode":"url"}}"#,
        r#"{"params":{"mode":"\u0075rl","message":"m","url":"u"},"method":"elicitation\/create"}"#,
        r#"{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}"#,
        r#"{"params":{"messages":[],"maxTokens":1,"tools":[{}]},"method":"sampling/createMessage"}"#,
        r#"{"method":"roots/list"}"#,
        r#"{"method":"roots/list","params":{}}"#,
    ];
    for e in entries {
        let v = crate::json::parse(e.as_bytes()).unwrap();
        let parsed = InputRequest::parse(v).unwrap();
        assert_eq!(
            InputRequest::kind_of_validated(v),
            Some(parsed.kind()),
            "{e}"
        );
    }
}

#[test]
fn input_requests_iterate_the_same_whether_kept_or_parsed_again() {
    let entries = [
        r#""a":{"method":"roots/list"}"#,
        r#""b":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{}}}"#,
        r#""c":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":7}}"#,
        r#""d":{"method":"elicitation/create","params":{"mode":"url","message":"m","url":"u"}}"#,
        r#""e":{"method":"roots/list","params":{}}"#,
        r#""f":{"method":"sampling/createMessage","params":{"systemPrompt":"s","messages":[],"maxTokens":1}}"#,
    ];
    for n in 1..=entries.len() {
        let doc = std::format!("{{{}}}", entries[..n].join(","));
        let v = crate::json::parse(doc.as_bytes()).unwrap();
        let reqs = InputRequests::parse(v, &WireLimits::default()).unwrap();
        let fresh = v
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k, InputRequest::parse(v).unwrap()));
        assert_eq!(reqs.len(), n);
        assert!(reqs.iter().eq(fresh), "{n} entries");
    }
}

/// The C API's reasons are the variant names, from one declaration each.
#[test]
fn wire_error_names_are_the_variant_names() {
    use crate::json::{Error, ErrorKind};
    assert_eq!(ErrorKind::TooDeep.name(), c"TooDeep");
    assert_eq!(ErrorKind::BufferTooSmall.name(), c"BufferTooSmall");
    assert_eq!(EnvelopeError::BadVersion.name(), c"BadVersion");
    assert_eq!(Violation::BadRequestState.name(), c"BadRequestState");
    assert_eq!(
        Violation::UnexpectedResultType.name(),
        c"UnexpectedResultType"
    );
    let json = Error {
        kind: ErrorKind::DuplicateKey,
        offset: 3,
    };
    assert_eq!(WireError::Json(json).name(), c"DuplicateKey");
    assert_eq!(WireError::Envelope(EnvelopeError::BadId).name(), c"BadId");
    assert_eq!(WireError::Protocol(Violation::BadMeta).name(), c"BadMeta");
}
