//! Hostile and broken requests: each gets one precise error, one code and
//! exact response bytes.

use std::string::String;

use super::*;
use crate::json::ErrorKind;
use crate::wire::{EnvelopeError, ErrorCode, ResponseKind};

const META: &str = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

/// A `tools/call` whose params are `{"_meta":META,` + `rest` + `}`.
fn call_with(rest: &str) -> Vec<u8> {
    std::format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"_meta":{META},{rest}}}}}"#
    )
    .into_bytes()
}

fn invalid_params(message: &str) -> String {
    std::format!(r#"{{"jsonrpc":"2.0","id":1,"error":{{"code":-32602,"message":"{message}"}}}}"#)
}

const FROZEN: &str = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid or expired requestState"}}"#;

#[track_caller]
fn check(bytes: &[u8], kind: RequestErrorKind<'_>, code: ErrorCode, response: &str) {
    let e = refused(bytes);
    assert_eq!(e.kind, kind, "{}", String::from_utf8_lossy(bytes));
    assert_eq!(e.code(), code);
    let written = error_response(&e);
    assert_eq!(written, response);
    assert_json(&written);
}

#[test]
fn unparseable_json_is_a_parse_error_without_an_id() {
    let parse_error = r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#;
    let cases: [(&[u8], ErrorKind); 7] = [
        (br#"{"jsonrpc":"2.0","id":1,"#, ErrorKind::UnexpectedEnd),
        (br#"{"jsonrpc":"2.0","id":1,}"#, ErrorKind::UnexpectedByte),
        (br#"{"jsonrpc":"2.0","id":NaN}"#, ErrorKind::UnexpectedByte),
        (
            b"{\"jsonrpc\":\"2.0\",\"method\":\"\xff\"}",
            ErrorKind::InvalidUtf8,
        ),
        (
            br#"{"jsonrpc":"2.0","method":"\ud800"}"#,
            ErrorKind::LoneSurrogate,
        ),
        (
            br#"{"jsonrpc":"2.0","id":1} {}"#,
            ErrorKind::TrailingCharacters,
        ),
        (b"", ErrorKind::UnexpectedEnd),
    ];
    for (bytes, kind) in cases {
        let e = refused(bytes);
        assert!(
            matches!(e.kind, RequestErrorKind::Json(j) if j.kind == kind),
            "{e:?}"
        );
        assert_eq!(e.id, None);
        assert_eq!(error_response(&e), parse_error);
    }
}

#[test]
fn nesting_past_the_depth_limit_and_oversized_messages_are_refused_before_use() {
    let deep = std::format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"arguments":{}{}}}}}"#,
        "[".repeat(40),
        "]".repeat(40)
    );
    let e = refused(deep.as_bytes());
    assert!(matches!(e.kind, RequestErrorKind::Json(j) if j.kind == ErrorKind::TooDeep));
    assert_eq!(e.code(), ErrorCode::ParseError);
    let limits = WireLimits {
        json: crate::json::ParseLimits {
            max_bytes: 64,
            ..Default::default()
        },
        ..Default::default()
    };
    let big = call_with(r#""name":"x""#);
    let e = ServerRequest::parse(&big, &limits).unwrap_err();
    assert!(matches!(e.kind, RequestErrorKind::Json(j) if j.kind == ErrorKind::TooLarge));
}

#[test]
fn a_message_that_is_not_a_json_rpc_request_is_an_invalid_request() {
    check(
        br#"{"jsonrpc":"1.0","id":7,"method":"tools/call"}"#,
        RequestErrorKind::Envelope(EnvelopeError::BadVersion),
        ErrorCode::InvalidRequest,
        r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request"}}"#,
    );
    check(
        br#"[{"jsonrpc":"2.0","id":1,"method":"tools/call"}]"#,
        RequestErrorKind::Envelope(EnvelopeError::NotAnObject),
        ErrorCode::InvalidRequest,
        r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}"#,
    );
    check(
        br#"{"jsonrpc":"2.0","id":null,"method":"tools/call"}"#,
        RequestErrorKind::Envelope(EnvelopeError::BadId),
        ErrorCode::InvalidRequest,
        r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}"#,
    );
    check(
        br#"{"jsonrpc":"2.0","id":1.5,"method":"tools/call"}"#,
        RequestErrorKind::Envelope(EnvelopeError::BadId),
        ErrorCode::InvalidRequest,
        r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}"#,
    );
    check(
        br#"{"jsonrpc":"2.0","id":"r-1","method":"tools/call","method":"tools/list"}"#,
        RequestErrorKind::Envelope(EnvelopeError::DuplicateMember),
        ErrorCode::InvalidRequest,
        r#"{"jsonrpc":"2.0","id":"r-1","error":{"code":-32600,"message":"Invalid Request"}}"#,
    );
    // Two ids: neither is trusted.
    check(
        br#"{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call"}"#,
        RequestErrorKind::Envelope(EnvelopeError::DuplicateMember),
        ErrorCode::InvalidRequest,
        r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}"#,
    );
    check(
        br#"{"jsonrpc":"2.0","id":3,"method":7}"#,
        RequestErrorKind::Envelope(EnvelopeError::BadMethod),
        ErrorCode::InvalidRequest,
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request"}}"#,
    );
}

#[test]
fn params_that_are_not_an_object_are_invalid_params_when_the_request_has_an_id() {
    // JSON-RPC allows array params, MCP does not: the request is readable, its
    // params are not.
    for params in ["[1]", "[]", "5", "\"x\"", "null"] {
        check(
            std::format!(r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{params}}}"#)
                .as_bytes(),
            RequestErrorKind::Malformed(Field::Params),
            ErrorCode::InvalidParams,
            r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params: malformed params"}}"#,
        );
    }
    // Without a usable id there is no request to answer by id.
    check(
        br#"{"jsonrpc":"2.0","method":"tools/call","params":[1]}"#,
        RequestErrorKind::Envelope(EnvelopeError::BadParams),
        ErrorCode::InvalidRequest,
        r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}"#,
    );
    check(
        br#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":[1]}"#,
        RequestErrorKind::Envelope(EnvelopeError::BadId),
        ErrorCode::InvalidRequest,
        r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}"#,
    );
}

#[test]
fn duplicate_keys_in_params_are_refused_not_resolved() {
    let dup = |bytes: &[u8], field: Field, message: &str| {
        check(
            bytes,
            RequestErrorKind::Duplicate(field),
            ErrorCode::InvalidParams,
            &invalid_params(message),
        )
    };
    dup(
        &call_with(r#""name":"safe","name":"rm_rf""#),
        Field::Name,
        "Invalid params: duplicate name",
    );
    dup(
        &call_with(r#""name":"x","_meta":{}"#),
        Field::Meta,
        "Invalid params: duplicate _meta",
    );
    dup(
        &call_with(r#""name":"x","arguments":{},"arguments":{"a":1}"#),
        Field::Arguments,
        "Invalid params: duplicate arguments",
    );
    dup(
        &call_with(r#""name":"x","inputResponses":{},"inputResponses":{}"#),
        Field::InputResponses,
        "Invalid params: duplicate inputResponses",
    );
    // Escapes do not hide a duplicate.
    dup(
        &call_with(r#""name":"x","\u006eame":"y""#),
        Field::Name,
        "Invalid params: duplicate name",
    );
    check(
        &call_with(r#""name":"x","requestState":"a","requestState":"b""#),
        RequestErrorKind::Duplicate(Field::RequestState),
        ErrorCode::InvalidParams,
        FROZEN,
    );
    let meta_dup = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}},"name":"x"}}"#;
    dup(
        meta_dup,
        Field::ProtocolVersion,
        "Invalid params: duplicate io.modelcontextprotocol/protocolVersion",
    );
    let caps_dup = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientCapabilities":{"sampling":{}}},"name":"x"}}"#;
    dup(
        caps_dup,
        Field::ClientCapabilities,
        "Invalid params: duplicate io.modelcontextprotocol/clientCapabilities",
    );
}

#[test]
fn members_of_the_wrong_type_are_invalid_params_naming_the_member() {
    let bad = |bytes: &[u8], field: Field, message: &str| {
        check(
            bytes,
            RequestErrorKind::Malformed(field),
            ErrorCode::InvalidParams,
            &invalid_params(message),
        )
    };
    bad(
        &call_with(r#""name":5"#),
        Field::Name,
        "Invalid params: malformed name",
    );
    bad(
        &call_with(r#""name":"x","arguments":["a"]"#),
        Field::Arguments,
        "Invalid params: malformed arguments",
    );
    bad(
        &call_with(r#""name":"x","task":60000"#),
        Field::Task,
        "Invalid params: malformed task",
    );
    bad(
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":[],"name":"x"}}"#,
        Field::Meta,
        "Invalid params: malformed _meta",
    );
    bad(
        br#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"uri":{}}}"#,
        Field::Uri,
        "Invalid params: malformed uri",
    );
    bad(
        br#"{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"p","arguments":{"n":1}}}"#,
        Field::Arguments,
        "Invalid params: malformed arguments",
    );
    bad(
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":7,"io.modelcontextprotocol/clientCapabilities":{}},"name":"x"}}"#,
        Field::ProtocolVersion,
        "Invalid params: malformed io.modelcontextprotocol/protocolVersion",
    );
    for caps in [
        r#""all""#,
        r#"{"roots":true}"#,
        r#"{"elicitation":{"form":1}}"#,
    ] {
        let bytes = std::format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{caps}}},"name":"x"}}}}"#
        );
        bad(
            bytes.as_bytes(),
            Field::ClientCapabilities,
            "Invalid params: malformed io.modelcontextprotocol/clientCapabilities",
        );
    }
    bad(
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c"}},"name":"x"}}"#,
        Field::ClientInfo,
        "Invalid params: malformed io.modelcontextprotocol/clientInfo",
    );
}

#[test]
fn a_request_without_the_required_meta_is_invalid_params() {
    let missing = |bytes: &[u8], field: Field, message: &str| {
        check(
            bytes,
            RequestErrorKind::Missing(field),
            ErrorCode::InvalidParams,
            &invalid_params(message),
        )
    };
    missing(
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
        Field::Params,
        "Invalid params: missing params",
    );
    // The SEP draft's example: no _meta at all.
    missing(
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"location":"New York"}}}"#,
        Field::Meta,
        "Invalid params: missing _meta",
    );
    missing(
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}},"name":"x"}}"#,
        Field::ProtocolVersion,
        "Invalid params: missing io.modelcontextprotocol/protocolVersion",
    );
    missing(
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"x"}}"#,
        Field::ClientCapabilities,
        "Invalid params: missing io.modelcontextprotocol/clientCapabilities",
    );
    missing(
        &call_with(r#""arguments":{}"#),
        Field::Name,
        "Invalid params: missing name",
    );
    missing(
        br#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
        Field::Uri,
        "Invalid params: missing uri",
    );
}

#[test]
fn another_revision_is_answered_with_requested_and_supported_before_anything_else() {
    // The name is missing too, but the revision decides how to read the rest.
    let old = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}}"#;
    let e = refused(old);
    assert!(
        matches!(e.kind, RequestErrorKind::UnsupportedProtocolVersion { requested } if requested.eq_str("2025-11-25"))
    );
    assert_eq!(
        error_response(&e),
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"2025-11-25","supported":["2026-07-28"]}}}"#
    );
    // The requested value is echoed as the client spelled it.
    let escaped = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900\u002d01-01\"x"}}}"#;
    assert_eq!(
        error_response(&refused(escaped)),
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"1900\u002d01-01\"x","supported":["2026-07-28"]}}}"#
    );
    // An escaped spelling of the supported revision is the supported revision.
    let same = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026\u002d07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"x"}}"#;
    assert_eq!(request(same).method, Method::ToolsCall);
}

fn responses(n: usize, key: impl Fn(usize) -> String) -> Vec<u8> {
    let entries: Vec<String> = (0..n)
        .map(|i| std::format!(r#""{}":{{"action":"cancel"}}"#, key(i)))
        .collect();
    call_with(&std::format!(
        r#""name":"x","inputResponses":{{{}}}"#,
        entries.join(",")
    ))
}

#[test]
fn input_response_entries_that_are_not_objects_are_refused_whatever_their_key() {
    // Not a result of any kind: the map is not a valid InputResponses object.
    for v in [
        "null",
        r#""accept""#,
        "42",
        "[]",
        r#"{"result":"accept"}"#,
        r#"{"result":null}"#,
    ] {
        check(
            &call_with(&std::format!(
                r#""name":"x","inputResponses":{{"unrequested":{v}}}"#
            )),
            RequestErrorKind::InputResponseNotAnObject,
            ErrorCode::InvalidParams,
            &invalid_params("Invalid params: an inputResponses entry is not an object"),
        );
    }
}

#[test]
fn more_input_responses_than_the_limit_are_refused() {
    let at_limit = responses(64, |i| std::format!("k{i}"));
    assert_eq!(
        request(&at_limit).input_responses.unwrap().keys().count(),
        64
    );
    check(
        &responses(65, |i| std::format!("k{i}")),
        RequestErrorKind::TooManyInputResponses,
        ErrorCode::InvalidParams,
        &invalid_params("Invalid params: too many inputResponses"),
    );
}

#[test]
fn input_responses_that_are_not_an_object_are_refused() {
    for v in ["[]", r#""answers""#, "null", "1"] {
        check(
            &call_with(&std::format!(r#""name":"x","inputResponses":{v}"#)),
            RequestErrorKind::Malformed(Field::InputResponses),
            ErrorCode::InvalidParams,
            &invalid_params("Invalid params: malformed inputResponses"),
        );
    }
}

#[test]
fn a_request_state_that_is_not_a_string_gets_the_frozen_message() {
    for v in ["7", "{}", "null", r#"["m1.x"]"#] {
        check(
            &call_with(&std::format!(r#""name":"x","requestState":{v}"#)),
            RequestErrorKind::Malformed(Field::RequestState),
            ErrorCode::InvalidParams,
            FROZEN,
        );
    }
}

#[test]
fn huge_and_duplicate_input_response_keys_are_refused() {
    let at_limit = responses(1, |_| "k".repeat(256));
    assert!(request(&at_limit).input_responses.is_some());
    check(
        &responses(1, |_| "k".repeat(257)),
        RequestErrorKind::InputResponseKeyTooLong,
        ErrorCode::InvalidParams,
        &invalid_params("Invalid params: inputResponses key too long"),
    );
    // The limit is on the decoded key: 64 escapes are 64 bytes.
    let escaped = responses(1, |_| "\\u0061".repeat(64));
    assert!(request(&escaped).input_responses.is_some());
    let huge = responses(2, |i| std::format!("{}{i}", "k".repeat(100_000)));
    assert_eq!(
        refused(&huge).kind,
        RequestErrorKind::InputResponseKeyTooLong
    );
    // Keys that decode to the same text are one key sent twice.
    check(
        &responses(2, |i| if i == 0 { "a".into() } else { "\\u0061".into() }),
        RequestErrorKind::DuplicateInputResponseKey,
        ErrorCode::InvalidParams,
        &invalid_params("Invalid params: duplicate inputResponses key"),
    );
}

/// The repeated-answer-key rule is enforced by the deep check of `params`
/// (one pass) and reported with its own error, before a malformed
/// `requestState` and before a member repeated elsewhere in `params`.
#[test]
fn duplicate_input_response_keys_are_refused_before_later_checks() {
    let dup = r#""inputResponses":{"a":{"action":"cancel"},"a":{"action":"cancel"}}"#;
    for rest in [
        std::format!(r#""name":"x",{dup}"#),
        std::format!(r#""name":"x",{dup},"requestState":1"#),
        std::format!(r#""name":"x",{dup},"arguments":{{"b":1,"b":2}}"#),
        std::format!(r#""name":"x","arguments":{{"b":1,"b":2}},{dup}"#),
    ] {
        check(
            &call_with(&rest),
            RequestErrorKind::DuplicateInputResponseKey,
            ErrorCode::InvalidParams,
            &invalid_params("Invalid params: duplicate inputResponses key"),
        );
    }
    // A repeat inside one answer is a repeated member, as before.
    let inner =
        call_with(r#""name":"x","inputResponses":{"a":{"action":"cancel","action":"cancel"}}"#);
    assert!(matches!(
        refused(&inner).kind,
        RequestErrorKind::RepeatedMember { .. }
    ));
    let state =
        call_with(r#""name":"x","inputResponses":{"a":{"action":"cancel"}},"requestState":1"#);
    assert_eq!(
        refused(&state).kind,
        RequestErrorKind::Malformed(Field::RequestState)
    );
}

#[test]
fn an_answer_of_the_wrong_kind_or_shape_under_a_needed_key_is_an_error() {
    let cases: [(&str, UnusableAnswer); 6] = [
        (
            r#"{"roots":[]}"#,
            UnusableAnswer::WrongKind {
                expected: ResponseKind::Elicit,
                found: ResponseKind::Roots,
            },
        ),
        (
            r#"{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}"#,
            UnusableAnswer::WrongKind {
                expected: ResponseKind::Elicit,
                found: ResponseKind::Sampling,
            },
        ),
        (
            r#"{"action":"maybe"}"#,
            UnusableAnswer::Malformed {
                expected: ResponseKind::Elicit,
            },
        ),
        (
            r#"{"action":"accept","content":"yes"}"#,
            UnusableAnswer::Malformed {
                expected: ResponseKind::Elicit,
            },
        ),
        (
            r#"{"result":{"action":"accept"},"extra":1}"#,
            UnusableAnswer::Malformed {
                expected: ResponseKind::Elicit,
            },
        ),
        (
            "{}",
            UnusableAnswer::Malformed {
                expected: ResponseKind::Elicit,
            },
        ),
    ];
    for (answer, err) in cases {
        let bytes = call_with(&std::format!(
            r#""name":"x","inputResponses":{{"region":{answer}}}"#
        ));
        let r = request(&bytes);
        assert_eq!(r.elicit_answer("region"), Err(err), "{answer}");
    }
    // An answer that repeats a member means two things: the request itself
    // is refused (issue 25), before any answer is read.
    let bytes = call_with(
        r#""name":"x","inputResponses":{"region":{"action":"accept","action":"decline"}}"#,
    );
    let e = refused(&bytes);
    assert!(
        matches!(e.kind, RequestErrorKind::RepeatedMember { .. }),
        "{e:?}"
    );
    assert_eq!(e.code(), ErrorCode::InvalidParams);
    let bytes = call_with(r#""name":"x","inputResponses":{"region":{"roots":[]}}"#);
    let r = request(&bytes);
    let err = r.elicit_answer("region").unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidParams);
    assert_eq!(
        emit(|o| write_answer_error(o, &r.id, "region", &err)),
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params: inputResponses[\"region\"] is not an elicitation result"}}"#
    );
    // A form answer with a field sent twice: the server must not pick one;
    // since issue 25 the whole request is refused when it is parsed.
    let bytes = call_with(
        r#""name":"x","inputResponses":{"region":{"action":"accept","content":{"r":"eu","r":"us"}}}"#,
    );
    assert!(matches!(
        refused(&bytes).kind,
        RequestErrorKind::RepeatedMember { .. }
    ));
}

#[test]
fn malformed_roots_and_sampling_answers_are_errors_with_their_kind() {
    let roots_bad = [
        r#"{"roots":[{"name":"no uri"}]}"#,
        r#"{"roots":[{"uri":7}]}"#,
        r#"{"roots":[{"uri":"file:///a","name":1}]}"#,
        r#"{"roots":["file:///a"]}"#,
    ];
    for answer in roots_bad {
        let bytes = call_with(&std::format!(
            r#""name":"x","inputResponses":{{"dirs":{answer}}}"#
        ));
        let r = request(&bytes);
        let err = r.roots_answer("dirs").unwrap_err();
        assert_eq!(
            err,
            UnusableAnswer::Malformed {
                expected: ResponseKind::Roots
            },
            "{answer}"
        );
        assert_eq!(
            emit(|o| write_answer_error(o, &r.id, "dirs", &err)),
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params: inputResponses[\"dirs\"] is a malformed roots result"}}"#
        );
    }
    let sampling_bad = [
        r#"{"role":"system","content":{"type":"text","text":"x"},"model":"m"}"#,
        r#"{"role":"assistant","content":"text","model":"m"}"#,
        r#"{"role":"assistant","content":{},"model":5}"#,
        r#"{"role":"assistant","content":{},"model":"m","stopReason":1}"#,
    ];
    for answer in sampling_bad {
        let bytes = call_with(&std::format!(
            r#""name":"x","inputResponses":{{"s":{answer}}}"#
        ));
        let r = request(&bytes);
        assert_eq!(
            r.sampling_answer("s"),
            Err(UnusableAnswer::Malformed {
                expected: ResponseKind::Sampling
            }),
            "{answer}"
        );
    }
    let bytes = call_with(r#""name":"x","inputResponses":{"s":{"action":"accept"}}"#);
    let r = request(&bytes);
    let err = r.sampling_answer("s").unwrap_err();
    assert_eq!(
        emit(|o| write_answer_error(o, &r.id, "s", &err)),
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params: inputResponses[\"s\"] is not a sampling result"}}"#
    );
}

use std::vec::Vec;

#[test]
fn errors_display_their_code_message_and_log_detail() {
    let e = refused(br#"{"jsonrpc":"2.0","id":1,"#);
    assert_eq!(
        std::format!("{e}"),
        "-32700 Parse error (UnexpectedEnd at byte 24)"
    );
    let e = refused(br#"{"jsonrpc":"2.0","id":1,"method":7}"#);
    assert_eq!(
        std::format!("{e}"),
        "-32600 Invalid Request (method is not a string)"
    );
    let bytes = call_with(r#""name":"x","requestState":1"#);
    let e = refused(&bytes);
    assert_eq!(
        std::format!("{e}"),
        "-32602 Invalid or expired requestState (not a string)"
    );
    let bytes = call_with(r#""name":1"#);
    let e = refused(&bytes);
    assert_eq!(std::format!("{e}"), "-32602 Invalid params: malformed name");
}

#[test]
fn a_member_repeated_anywhere_in_params_is_invalid_params() {
    for rest in [
        r#""name":"x","arguments":{"region":"eu","region":"us"}"#,
        r#""name":"x","arguments":{"region":"eu","re\u0067ion":"us"}"#,
        r#""name":"x","arguments":{"target":{"zone":"a","zone":"b"}}"#,
        r#""name":"x","arguments":{"l":[1,{"k":1,"k":1}]}"#,
        r#""name":"x","other":1,"other":2"#,
        r#""name":"x","inputResponses":{"r":{"action":"decline","_meta":{"a":1,"a":1}}}"#,
    ] {
        let bytes = call_with(rest);
        let e = refused(&bytes);
        assert!(
            matches!(e.kind, RequestErrorKind::RepeatedMember { .. }),
            "{rest}: {e:?}"
        );
        assert_eq!(e.code(), ErrorCode::InvalidParams, "{rest}");
        assert_eq!(
            emit(|o| e.write(o)),
            invalid_params("Invalid params: a member is repeated in params"),
            "{rest}"
        );
    }
    // The offset names the repeated member's value within params.
    let bytes = call_with(r#""name":"x","arguments":{"region":"eu","region":"us"}"#);
    let e = refused(&bytes);
    let params_at = std::str::from_utf8(&bytes)
        .unwrap()
        .find(r#"{"_meta""#)
        .unwrap();
    let us_at = std::str::from_utf8(&bytes)
        .unwrap()
        .find(r#""us""#)
        .unwrap();
    assert_eq!(
        e.kind,
        RequestErrorKind::RepeatedMember {
            offset: us_at - params_at
        }
    );
    assert_eq!(
        std::string::ToString::to_string(&e.kind),
        std::format!(
            "a member is repeated in params (value at byte {})",
            us_at - params_at
        )
    );
    // Equal keys in different objects are no repeat; the named members
    // keep their own, earlier errors.
    request(&call_with(
        r#""name":"x","arguments":{"a":{"k":1},"b":{"k":1},"k":[{"k":1}]}"#,
    ));
    assert_eq!(
        refused(&call_with(r#""name":"x","name":"y""#)).kind,
        RequestErrorKind::Duplicate(Field::Name)
    );
}

#[test]
fn an_object_in_params_too_large_for_the_repeat_check_is_invalid_params() {
    let members = |n: usize| {
        let m: std::vec::Vec<String> = (0..n).map(|i| std::format!(r#""m{i}":0"#)).collect();
        std::format!(r#""name":"x","arguments":{{"big":{{{}}}}}"#, m.join(","))
    };
    request(&call_with(&members(crate::json::DEEP_MAX_MEMBERS)));
    let bytes = call_with(&members(crate::json::DEEP_MAX_MEMBERS + 1));
    let e = refused(&bytes);
    assert!(
        matches!(e.kind, RequestErrorKind::TooManyMembers { .. }),
        "{e:?}"
    );
    assert_eq!(e.code(), ErrorCode::InvalidParams);
    assert_eq!(
        emit(|o| e.write(o)),
        invalid_params("Invalid params: an object has too many members in params")
    );
}

#[test]
fn a_member_is_judged_only_by_the_methods_that_read_it() {
    // Each method with the params it needs, and the members it reads: a
    // member it reads, sent twice, is `Duplicate(member)` at once; one it
    // does not read is carried, and only the deep check refuses it.
    let related = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/related-task":{"taskId":"t1"}}"#;
    let with_meta = std::format!(r#""_meta":{}"#, meta("{}"));
    let cases: [(&str, String, &[Field]); 9] = [
        (
            "tools/call",
            std::format!(r#"{with_meta},"name":"t""#),
            &[
                Field::Name,
                Field::Arguments,
                Field::Task,
                Field::InputResponses,
                Field::RequestState,
            ],
        ),
        (
            "prompts/get",
            std::format!(r#"{with_meta},"name":"p""#),
            &[
                Field::Name,
                Field::Arguments,
                Field::Task,
                Field::InputResponses,
                Field::RequestState,
            ],
        ),
        (
            "resources/read",
            std::format!(r#"{with_meta},"uri":"u""#),
            &[
                Field::Uri,
                Field::Task,
                Field::InputResponses,
                Field::RequestState,
            ],
        ),
        ("tasks/get", r#""taskId":"t1""#.into(), &[Field::TaskId]),
        ("tasks/cancel", r#""taskId":"t1""#.into(), &[Field::TaskId]),
        (
            "tasks/result",
            r#""taskId":"t1""#.into(),
            &[Field::TaskId, Field::InputResponses, Field::RequestState],
        ),
        (
            "tasks/update",
            r#""taskId":"t1","inputResponses":{}"#.into(),
            &[Field::TaskId, Field::InputResponses],
        ),
        (
            "tasks/input_response",
            std::format!(r#""_meta":{related},"inputResponses":{{}}"#),
            &[Field::InputResponses, Field::RequestState],
        ),
        ("ping", String::new(), &[]),
    ];
    let members = [
        (Field::Meta, "{}"),
        (Field::Name, r#""s""#),
        (Field::Uri, r#""s""#),
        (Field::Arguments, "{}"),
        (Field::Task, "{}"),
        (Field::InputResponses, "{}"),
        (Field::RequestState, r#""s""#),
        (Field::TaskId, r#""s""#),
    ];
    for (method, base, reads) in cases {
        let sep = if base.is_empty() { "" } else { "," };
        request(
            std::format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{{{base}}}}}"#)
                .as_bytes(),
        );
        for (field, value) in members {
            let name = field.wire_name();
            let bytes = std::format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{{{base}{sep}"{name}":{value},"{name}":{value}}}}}"#
            );
            let kind = refused(bytes.as_bytes()).kind;
            if field == Field::Meta || reads.contains(&field) {
                assert_eq!(kind, RequestErrorKind::Duplicate(field), "{method} {name}");
            } else {
                assert!(
                    matches!(kind, RequestErrorKind::RepeatedMember { .. }),
                    "{method} {name}: {kind:?}"
                );
            }
        }
    }
}

#[test]
fn client_info_and_the_related_task_hold_unique_strings_or_are_malformed() {
    let with_meta = |member: &str| {
        std::format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}},{member}}},"name":"x"}}}}"#
        )
    };
    for info in [
        r#"{"name":"a","name":"b","version":"1"}"#,
        r#"{"name":"a","version":"1","version":"1"}"#,
        r#"{"name":1,"version":"1"}"#,
        r#"{"name":"a","version":null}"#,
        r#"{"version":"1"}"#,
    ] {
        let bytes = with_meta(&std::format!(
            r#""io.modelcontextprotocol/clientInfo":{info}"#
        ));
        assert_eq!(
            refused(bytes.as_bytes()).kind,
            RequestErrorKind::Malformed(Field::ClientInfo),
            "{info}"
        );
    }
    for related in [r#"{"taskId":"t","taskId":"u"}"#, r#"{"taskId":5}"#, "{}"] {
        let bytes = with_meta(&std::format!(
            r#""io.modelcontextprotocol/related-task":{related}"#
        ));
        assert_eq!(
            refused(bytes.as_bytes()).kind,
            RequestErrorKind::Malformed(Field::RelatedTask),
            "{related}"
        );
    }
    let ok = with_meta(
        r#""io.modelcontextprotocol/clientInfo":{"version":"1","title":"T","name":"a"},"io.modelcontextprotocol/related-task":{"taskId":"t"}"#,
    );
    let meta = request(ok.as_bytes()).meta.unwrap();
    let info = meta.client_info.unwrap();
    assert!(info.name.eq_str("a") && info.version.eq_str("1"));
    assert!(meta.related_task.unwrap().eq_str("t"));
}
