//! Every error a server sends, and the complete-result writer.

use super::*;
use crate::wire::ClientCapabilities;

#[test]
fn every_mcp_error_has_its_code_and_shape() {
    let id = Id::Number(5);
    assert_eq!(
        emit(write_parse_error),
        r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#
    );
    assert_eq!(
        emit(|o| write_invalid_request(o, None)),
        r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}"#
    );
    assert_eq!(
        emit(|o| write_invalid_request(o, Some(&id))),
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"Invalid Request"}}"#
    );
    assert_eq!(
        emit(|o| write_method_not_found(o, &id)),
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"Method not found"}}"#
    );
    assert_eq!(
        emit(|o| write_invalid_params(o, &id, "Unknown tool: invalid_tool_name")),
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"Unknown tool: invalid_tool_name"}}"#
    );
    assert_eq!(
        emit(|o| write_internal_error(o, Some(&id))),
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32603,"message":"Internal error"}}"#
    );
    assert_eq!(
        emit(|o| write_header_mismatch(
            o,
            Some(&id),
            "Header mismatch: MCP-Protocol-Version 2025-11-25 does not match _meta 2026-07-28"
        )),
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32020,"message":"Header mismatch: MCP-Protocol-Version 2025-11-25 does not match _meta 2026-07-28"}}"#
    );
    let need = ClientCapabilities {
        elicitation_form: true,
        roots: true,
        ..Default::default()
    };
    assert_eq!(
        emit(|o| write_missing_capability(o, &id, &need)),
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32021,"message":"Missing required client capability","data":{"requiredCapabilities":{"elicitation":{"form":{}},"roots":{}}}}}"#
    );
    let v = crate::json::parse(br#""1900-01-01""#).unwrap();
    let requested = v.as_str().unwrap();
    assert_eq!(
        emit(|o| write_unsupported_version(
            o,
            Some(&id),
            &requested,
            &["2026-07-28", "2025-11-25"]
        )),
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"1900-01-01","supported":["2026-07-28","2025-11-25"]}}}"#
    );
    assert_eq!(
        emit(|o| write_invalid_request_state(o, &id)),
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"Invalid or expired requestState"}}"#
    );
}

#[test]
fn string_ids_are_echoed_as_sent() {
    let bytes = br#"{"jsonrpc":"2.0","id":"a\"b","method":"x/y"}"#;
    let r = request(bytes);
    assert_eq!(
        emit(|o| write_method_not_found(o, &r.id)),
        r#"{"jsonrpc":"2.0","id":"a\"b","error":{"code":-32601,"message":"Method not found"}}"#
    );
}

#[test]
fn a_complete_result_gets_result_type_complete_injected() {
    let id = num(3);
    // Members form.
    assert_eq!(
        emit(|o| write_complete(
            o,
            &id,
            br#""content":[{"type":"text","text":"hi"}],"isError":false"#
        )),
        r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[{"type":"text","text":"hi"}],"isError":false}}"#
    );
    // Object form: members kept as sent, resultType first.
    assert_eq!(
        emit(|o| write_complete(o, &id, b" {\"content\": [] , \"isError\":true}\n")),
        r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content": [] , "isError":true}}"#
    );
    // Already complete: written as is.
    assert_eq!(
        emit(|o| write_complete(o, &id, br#"{"content":[],"resultType":"complete"}"#)),
        r#"{"jsonrpc":"2.0","id":3,"result":{"content":[],"resultType":"complete"}}"#
    );
    // Empty results, both ways.
    for empty in [&b""[..], b"  ", b"{}", b"{ }"] {
        assert_eq!(
            emit(|o| write_complete(o, &id, empty)),
            r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete"}}"#
        );
    }
}

/// JSON whitespace (space, tab, newline, carriage return, nothing else)
/// around the result and inside an object's braces is dropped; whitespace
/// between members is kept as sent.
#[test]
fn a_complete_result_trims_exactly_json_whitespace() {
    let id = num(3);
    let head = r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","#;
    assert_eq!(
        emit(|o| write_complete(o, &id, b" \t\r\n\"a\":1 ,\t\"b\":2\n\r\t ")),
        std::format!("{head}\"a\":1 ,\t\"b\":2}}}}")
    );
    assert_eq!(
        emit(|o| write_complete(o, &id, b"\r\n{\t \"a\" : 1\n\r} \t")),
        std::format!("{head}\"a\" : 1}}}}")
    );
    assert_eq!(
        emit(|o| write_complete(o, &id, b"\t\r\n {\n\r\t }\t\r\n ")),
        r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete"}}"#
    );
    // A form feed is not JSON whitespace: the members are malformed.
    let mut buf = [0u8; 256];
    assert!(matches!(
        write_complete(&mut buf, &id, b"\x0c\"a\":1"),
        Err(CompleteError::InvalidJson(_))
    ));
}

#[test]
fn a_complete_result_refuses_a_conflicting_result_type_and_broken_json() {
    let id = num(3);
    let mut buf = [0u8; 256];
    for bad in [
        &br#"{"resultType":"input_required","requestState":"x"}"#[..],
        br#"{"resultType":"task"}"#,
        br#"{"resultType":7}"#,
        br#"{"resultType":"complete","resultType":"complete"}"#,
        br#""resultType":"complete""#,
        br#""content":[],"resultType":"input_required""#,
    ] {
        assert_eq!(
            write_complete(&mut buf, &id, bad),
            Err(CompleteError::ConflictingResultType),
            "{}",
            String::from_utf8_lossy(bad)
        );
    }
    for bad in [
        &br#"{"content":[}"#[..],
        br#""content":"#,
        br#""content":[],"#,
        // Members that close the result early to smuggle an envelope member.
        br#""content":[]},"error":{"code":1,"message":"x""#,
        br#"[1]"#,
    ] {
        assert!(
            matches!(
                write_complete(&mut buf, &id, bad),
                Err(CompleteError::InvalidJson(_))
            ),
            "{}",
            String::from_utf8_lossy(bad)
        );
    }
}

use std::string::String;

#[test]
fn server_errors_display_and_expose_their_sources() {
    use crate::json::{self, ErrorKind};
    use crate::wire::{EnvelopeError, ResponseKind};
    use core::error::Error as _;
    use std::string::ToString;

    let json_error = json::Error {
        kind: ErrorKind::InvalidUtf8,
        offset: 5,
    };
    let e = ServerRequestError {
        id: None,
        kind: RequestErrorKind::Json(json_error),
    };
    assert_eq!(e.to_string(), "-32700 Parse error (InvalidUtf8 at byte 5)");
    assert_eq!(e.source().unwrap().to_string(), json_error.to_string());
    assert_eq!(e.kind.to_string(), "invalid JSON: InvalidUtf8 at byte 5");
    assert_eq!(
        e.kind.source().unwrap().to_string(),
        "InvalidUtf8 at byte 5"
    );

    let kind = RequestErrorKind::Envelope(EnvelopeError::BadParams);
    assert_eq!(
        kind.to_string(),
        "not a JSON-RPC 2.0 request: params is not an object"
    );
    assert_eq!(
        kind.source().unwrap().to_string(),
        "params is not an object"
    );
    assert_eq!(
        RequestErrorKind::Missing(Field::RequestState).to_string(),
        "missing requestState"
    );
    assert_eq!(
        RequestErrorKind::Duplicate(Field::TaskId).to_string(),
        "duplicate taskId"
    );
    let requested = json::parse(br#""2025-\u00306-18""#)
        .unwrap()
        .as_str()
        .unwrap();
    let kind = RequestErrorKind::UnsupportedProtocolVersion { requested };
    assert_eq!(
        kind.to_string(),
        "unsupported protocol version \"2025-06-18\""
    );
    assert!(kind.source().is_none());
    assert_eq!(
        RequestErrorKind::InputResponseNotAnObject.to_string(),
        "an inputResponses entry is not an object"
    );

    let e = CompleteError::InvalidJson(json_error);
    assert_eq!(
        e.to_string(),
        "result is not a JSON object or object members: InvalidUtf8 at byte 5"
    );
    assert_eq!(e.source().unwrap().to_string(), json_error.to_string());
    assert!(CompleteError::ConflictingResultType.source().is_none());
    assert!(BuildError::EmptyKey.source().is_none());
    let e = UnusableAnswer::WrongKind {
        expected: ResponseKind::Elicit,
        found: ResponseKind::Roots,
    };
    assert_eq!(
        e.to_string(),
        "expected an elicitation result, found a roots result"
    );
    assert!(e.source().is_none());
}

#[test]
fn complete_errors_display_every_variant() {
    use std::string::ToString;
    let json_error = crate::json::Error {
        kind: crate::json::ErrorKind::UnexpectedEnd,
        offset: 9,
    };
    let cases = [
        (
            CompleteError::InvalidJson(json_error),
            "result is not a JSON object or object members: UnexpectedEnd at byte 9",
        ),
        (
            CompleteError::ConflictingResultType,
            "result has a resultType other than \"complete\", has it twice, \
             or names it in members form",
        ),
        (
            CompleteError::BufferTooSmall { needed: 81 },
            "output buffer too small: needs 81 bytes",
        ),
    ];
    for (e, text) in cases {
        assert_eq!(e.to_string(), text);
    }
}

#[test]
fn build_errors_display_every_variant() {
    use std::string::ToString;
    let need = ClientCapabilities {
        elicitation_url: true,
        sampling_tools: true,
        ..Default::default()
    };
    let cases = [
        (
            BuildError::MissingCapability { missing: need },
            "client did not declare the capabilities this request needs: \
             elicitation.url, sampling.tools",
        ),
        (
            BuildError::MissingCapability {
                missing: ClientCapabilities::ALL,
            },
            "client did not declare the capabilities this request needs: \
             elicitation.form, elicitation.url, sampling, sampling.tools, \
             sampling.context, roots, extension io.modelcontextprotocol/tasks",
        ),
        (BuildError::EmptyKey, "input request key is empty"),
        (
            BuildError::KeyTooLong { max: 64 },
            "input request key too long: at most 64 bytes",
        ),
        (
            BuildError::DuplicateKey,
            "input request key already used in this result",
        ),
        (
            BuildError::TooManyRequests { max: 16 },
            "too many input requests: at most 16",
        ),
        (
            BuildError::InvalidSchema,
            "requestedSchema is not a JSON object with \"type\":\"object\" \
             and object properties, or nests too deep",
        ),
        (
            BuildError::InvalidUrl,
            "URL has no scheme, or contains spaces or control characters",
        ),
        (
            BuildError::InvalidSamplingParams,
            "sampling params lack a messages array or an integer maxTokens, \
             or mistype a known member",
        ),
        (
            BuildError::Empty,
            "neither an input request nor a requestState",
        ),
        (
            BuildError::MethodNotAllowed,
            "method cannot be answered with input_required \
             (only tools/call, prompts/get, resources/read, tasks/result)",
        ),
        (
            BuildError::StatusNotInputRequired,
            "task status is not input_required",
        ),
        (
            BuildError::InvalidTask,
            "task ttl_ms or poll_interval_ms exceeds 9007199254740991",
        ),
        (
            BuildError::BufferTooSmall { needed: 300 },
            "output buffer too small: needs 300 bytes",
        ),
    ];
    for (e, text) in cases {
        assert_eq!(e.to_string(), text);
    }
}

#[test]
fn task_write_errors_display_every_variant() {
    use std::string::ToString;
    let cases = [
        (
            TaskWriteError::NumberOutOfRange,
            "task ttl_ms or poll_interval_ms exceeds 9007199254740991",
        ),
        (
            TaskWriteError::StatusMismatch,
            "task detail does not fit its status: completed needs a result, \
             failed an error, working and cancelled neither",
        ),
        (
            TaskWriteError::InvalidPayload,
            "task result is not a JSON object (or its _meta is not one, or already \
             names the related task), or error data is not JSON",
        ),
        (
            TaskWriteError::ConflictingResultType,
            "task result has a resultType other than \"complete\", or has it twice",
        ),
        (
            TaskWriteError::BufferTooSmall { needed: 12 },
            "output buffer too small: needs 12 bytes",
        ),
    ];
    for (e, text) in cases {
        assert_eq!(e.to_string(), text);
    }
}

#[test]
fn answer_errors_name_the_kinds_in_words() {
    use crate::wire::ResponseKind::{Elicit, Roots, Sampling};
    use std::string::ToString;
    assert_eq!(
        UnusableAnswer::WrongKind {
            expected: Elicit,
            found: Sampling
        }
        .to_string(),
        "expected an elicitation result, found a sampling result"
    );
    assert_eq!(
        UnusableAnswer::WrongKind {
            expected: Roots,
            found: Elicit
        }
        .to_string(),
        "expected a roots result, found an elicitation result"
    );
    assert_eq!(
        UnusableAnswer::Malformed { expected: Sampling }.to_string(),
        "malformed sampling result"
    );
    assert_eq!(
        UnusableAnswer::Malformed { expected: Roots }.to_string(),
        "malformed roots result"
    );
    assert_eq!(
        UnusableAnswer::Malformed { expected: Elicit }.to_string(),
        "malformed elicitation result"
    );
}

#[test]
fn an_envelope_error_shows_its_text_not_its_debug_form() {
    use crate::wire::EnvelopeError;
    use std::string::ToString;
    let e = ServerRequestError {
        id: None,
        kind: RequestErrorKind::Envelope(EnvelopeError::BadVersion),
    };
    assert_eq!(
        e.to_string(),
        "-32600 Invalid Request (jsonrpc is missing or not \"2.0\")"
    );
}

/// Each unusable answer's `-32602` names its key (escaped as any JSON
/// string) and says, in words, what is wrong with it: exact bytes for the
/// six kind and cause pairs.
#[test]
fn answer_error_messages_name_the_key_and_the_kind_exactly() {
    use crate::wire::ResponseKind::{Elicit, Roots, Sampling};
    let id = Id::Number(7);
    let head = std::format!(
        r#"{{"jsonrpc":"2.0","id":7,"error":{{"code":-32602,"message":"Invalid params: inputResponses[\"k\"ey{}\n\"] "#,
        '\u{e9}'
    );
    let cases = [
        (
            UnusableAnswer::WrongKind {
                expected: Elicit,
                found: Roots,
            },
            "is not an elicitation result",
        ),
        (
            UnusableAnswer::WrongKind {
                expected: Sampling,
                found: Elicit,
            },
            "is not a sampling result",
        ),
        (
            UnusableAnswer::WrongKind {
                expected: Roots,
                found: Sampling,
            },
            "is not a roots result",
        ),
        (
            UnusableAnswer::Malformed { expected: Elicit },
            "is a malformed elicitation result",
        ),
        (
            UnusableAnswer::Malformed { expected: Sampling },
            "is a malformed sampling result",
        ),
        (
            UnusableAnswer::Malformed { expected: Roots },
            "is a malformed roots result",
        ),
    ];
    for (e, words) in cases {
        let got = emit(|o| write_answer_error(o, &id, "k\"ey\u{e9}\n", &e));
        assert_eq!(got, std::format!("{head}{words}\"}}}}"));
    }
}
