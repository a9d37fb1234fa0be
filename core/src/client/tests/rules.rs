//! One test per rule, named after the sentence it checks.

use super::*;
use crate::client::call::{
    Answer, AnswerError, CallConfig, CallError, CallLimits, CallSlot, Event, ParamsError, Phase,
    RpcError, Unrelated,
};
use crate::json::{ErrorKind, ParseLimits};
use crate::wire::{
    ElicitAction, EnvelopeError, InputKind, Message, Root, TaskDialect, TaskStatus, Violation,
    WireError,
};
use std::format;
use std::string::ToString;

/// Every capability this build can declare: the Tasks extension only with
/// the `tasks` feature (with it, `ClientCapabilities::ALL`).
const ALL_BUILT: ClientCapabilities = ClientCapabilities {
    tasks: cfg!(feature = "tasks"),
    ..ClientCapabilities::ALL
};

const ONE_FORM: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object"}}}}}}"#;

/// A call with `caps` whose first leg (id 1) is in flight.
fn sent(caps: ClientCapabilities) -> Harness {
    let mut h = Harness::new(&tool_config(r#"{"name":"t"}"#, caps));
    leg(&mut h.call(), 1);
    h
}

fn input_required(id: i64, requests: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"input_required","inputRequests":{requests}}}}}"#
    )
}

#[test]
fn servers_must_not_send_input_requests_the_client_has_not_declared() {
    let cases: [(ClientCapabilities, &str); 4] = [
        (
            ClientCapabilities::default(),
            r#"{"k":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object"}}}}"#,
        ),
        (
            FORM,
            r#"{"k":{"method":"elicitation/create","params":{"mode":"url","message":"m","url":"https://x.example"}}}"#,
        ),
        (FORM, r#"{"k":{"method":"roots/list"}}"#),
        (
            FORM_AND_SAMPLING,
            r#"{"k":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5,"tools":[{"name":"x","inputSchema":{"type":"object"}}]}}}"#,
        ),
    ];
    for (caps, reqs) in cases {
        let mut h = sent(caps);
        let mut call = h.call();
        let msg = input_required(1, reqs);
        let err = CallError::Protocol(Violation::UndeclaredCapability);
        assert_eq!(call.feed(msg.as_bytes()), Err(err), "{reqs}");
        assert_eq!(call.phase(), Phase::Failed);
        assert_eq!(call.error(), Some(err));
        assert_eq!(call.input_count(), 0, "nothing is offered as a prompt");
        assert_eq!(
            call.write_request(2, &mut [0u8; 512]),
            Err(CallError::WrongState(Phase::Failed))
        );
    }
}

#[test]
fn servers_must_include_at_least_one_of_input_requests_or_request_state() {
    for result in [
        r#"{"resultType":"input_required"}"#,
        r#"{"resultType":"input_required","inputRequests":{}}"#,
    ] {
        let mut h = sent(FORM);
        let mut call = h.call();
        let msg = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#);
        assert_eq!(
            call.feed(msg.as_bytes()),
            Err(CallError::Protocol(Violation::InputRequiredWithoutFields))
        );
        assert_eq!(call.phase(), Phase::Failed);
    }
}

#[test]
fn a_result_of_an_unknown_result_type_is_rejected() {
    let mut h = sent(FORM);
    let mut call = h.call();
    let msg = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"partial","content":[]}}"#;
    assert_eq!(
        call.feed(msg),
        Err(CallError::Protocol(Violation::UnknownResultType))
    );
    // Fields only this revision can send, without resultType, are rejected too.
    let mut h = sent(FORM);
    let mut call = h.call();
    let msg = br#"{"jsonrpc":"2.0","id":1,"result":{"requestState":"x"}}"#;
    assert_eq!(
        call.feed(msg),
        Err(CallError::Protocol(Violation::MissingResultType))
    );
}

#[test]
fn a_result_without_result_type_from_an_earlier_revision_is_complete() {
    let mut h = sent(FORM);
    let mut call = h.call();
    let msg = br#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#;
    assert_eq!(call.feed(msg), Ok(Event::Complete(br#"{"content":[]}"#)));
}

#[test]
fn a_result_is_read_by_its_result_type_never_by_its_shape() {
    // `_meta` first (as some SDKs write it), then resultType: still one
    // input_required round with its one input and its state.
    let mut h = sent(FORM);
    let mut call = h.call();
    let msg = br#"{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"},"resultType":"complete"},"inputRequests":{"k":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object"}}}},"requestState":"S","resultType":"input_required"}}"#;
    assert_eq!(call.feed(msg), Ok(Event::InputRequired(1)));
    assert_eq!(call.request_state(), Some(&br#""S""#[..]));
    // A complete result that carries members shaped like a round is still
    // complete: nothing in it is asked, and it comes back byte for byte.
    let mut h = sent(FORM);
    let mut call = h.call();
    let result = br#"{"resultType":"complete","inputRequests":{"k":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object"}}}},"requestState":"S","content":[]}"#;
    let msg = [&br#"{"jsonrpc":"2.0","id":1,"result":"#[..], result, b"}"].concat();
    assert_eq!(call.feed(&msg), Ok(Event::Complete(&result[..])));
    assert_eq!(call.input_count(), 0);
    assert_eq!(call.phase(), Phase::Done);
}

#[test]
fn a_task_result_needs_the_tasks_extension_declared() {
    let created = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"task","taskId":"t-1","status":"working","createdAt":"2026-07-28T00:00:00Z","lastUpdatedAt":"2026-07-28T00:00:00Z","ttlMs":null,"pollIntervalMs":250}}"#;
    let mut h = sent(FORM);
    let mut call = h.call();
    assert_eq!(
        call.feed(created),
        Err(CallError::Protocol(Violation::UndeclaredCapability))
    );
    let caps = ClientCapabilities {
        tasks: true,
        ..FORM
    };
    if !cfg!(feature = "tasks") {
        // A build without tasks cannot declare them.
        let config = tool_config(r#"{"name":"t"}"#, caps);
        let mut st = CallSlot::default();
        let mut buf = vec![0u8; Call::workspace_size(&config.limits)];
        assert_eq!(
            Call::init(&mut st, &mut buf, &config).err(),
            Some(CallError::TasksNotBuilt)
        );
        return;
    }
    let mut h = sent(caps);
    let mut call = h.call();
    let Ok(Event::TaskCreated(handoff)) = call.feed(created) else {
        panic!()
    };
    assert_eq!(handoff.dialect, TaskDialect::Extension);
    assert_eq!(handoff.task.task_id.raw_token(), br#""t-1""#);
    assert_eq!(handoff.task.status, TaskStatus::Working);
    assert_eq!(handoff.task.poll_interval_ms, Some(250));
    assert_eq!(call.phase(), Phase::Done);
    // A CreateTaskResult without taskId is malformed.
    let mut h = sent(caps);
    let mut call = h.call();
    let bad = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"task","status":"working"}}"#;
    assert_eq!(call.feed(bad), Err(CallError::Protocol(Violation::BadTask)));
}

#[test]
fn a_server_that_keeps_returning_input_required_past_the_cap_ends_the_call() {
    let mut h = sent(FORM);
    let mut call = h.call();
    for round in 1..=10 {
        let msg = ONE_FORM.replace("\"id\":1", &format!("\"id\":{round}"));
        assert_eq!(call.feed(msg.as_bytes()), Ok(Event::InputRequired(1)));
        call.answer_at(
            0,
            Answer::Elicit {
                action: ElicitAction::Cancel,
                content: None,
            },
        )
        .unwrap();
        leg(&mut call, round + 1);
    }
    let msg = ONE_FORM.replace("\"id\":1", "\"id\":11");
    assert_eq!(
        call.feed(msg.as_bytes()),
        Err(CallError::TooManyRounds { limit: 10 })
    );
    assert_eq!(call.round(), 11);
    assert_eq!(call.last_id(), Some(11), "eleven legs, no more");
}

#[test]
fn state_only_rounds_have_their_own_cap_reset_by_a_round_with_input_requests() {
    let shed = |id: i64| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"input_required","requestState":"s{id}"}}}}"#
        )
    };
    let mut h = sent(FORM);
    let mut call = h.call();
    // Feeds the reply for the leg in flight, then writes the next leg.
    fn step(call: &mut Call<'_>, reply: &str) -> Result<Event<'static>, CallError> {
        let ev = call.feed(reply.as_bytes()).map(|e| match e {
            Event::RetryAfter(ms) => Event::RetryAfter(ms),
            Event::InputRequired(n) => Event::InputRequired(n),
            other => panic!("{other:?}"),
        });
        ev
    }
    for backoff in [50, 100, 200] {
        let id = call.last_id().unwrap();
        assert_eq!(step(&mut call, &shed(id)), Ok(Event::RetryAfter(backoff)));
        leg(&mut call, id + 1);
    }
    // A round with questions resets the state-only count.
    let id = call.last_id().unwrap();
    let ask = ONE_FORM.replace("\"id\":1", &format!("\"id\":{id}"));
    assert_eq!(step(&mut call, &ask), Ok(Event::InputRequired(1)));
    assert_eq!(call.state_only_rounds(), 0);
    call.answer_at(
        0,
        Answer::Elicit {
            action: ElicitAction::Decline,
            content: None,
        },
    )
    .unwrap();
    leg(&mut call, id + 1);
    for backoff in [50, 100, 200] {
        let id = call.last_id().unwrap();
        assert_eq!(step(&mut call, &shed(id)), Ok(Event::RetryAfter(backoff)));
        leg(&mut call, id + 1);
    }
    let id = call.last_id().unwrap();
    assert_eq!(
        step(&mut call, &shed(id)),
        Err(CallError::TooManyStateOnlyRounds { limit: 3 })
    );
    assert_eq!(call.phase(), Phase::Failed);
    assert_eq!(call.round(), 8);
}

#[test]
fn the_json_rpc_id_must_be_different_between_the_initial_request_and_the_retry() {
    let mut h = sent(ClientCapabilities::default());
    let mut call = h.call();
    let msg =
        br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"s"}}"#;
    call.feed(msg).unwrap();
    let mut out = [0u8; 512];
    assert_eq!(
        call.write_request(1, &mut out),
        Err(CallError::IdNotFresh { id: 1, last: 1 })
    );
    assert_eq!(
        call.write_request(0, &mut out),
        Err(CallError::IdNotFresh { id: 0, last: 1 })
    );
    assert_eq!(
        call.write_request(1 << 53, &mut out),
        Err(CallError::IdOutOfRange(1 << 53))
    );
    assert_eq!(call.phase(), Phase::Ready, "refused ids change nothing");
    let mut ids = crate::client::Counter::after(call.last_id());
    assert!(call.write_request_from(&mut ids, &mut out).is_ok());
    assert_eq!(call.last_id(), Some(2));
}

#[test]
fn responses_are_matched_by_number_id_and_a_string_id_never_matches() {
    let mut h = sent(FORM);
    let mut call = h.call();
    let cases: [&[u8]; 5] = [
        br#"{"jsonrpc":"2.0","id":"1","result":{"resultType":"complete"}}"#,
        br#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete"}}"#,
        br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1}}"#,
        br#"{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"old style"}}"#,
        br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
    ];
    for bytes in cases {
        let ev = call.feed(bytes).unwrap();
        assert!(
            matches!(ev, Event::Unrelated(Unrelated::Message(_))),
            "{ev:?}"
        );
        assert_eq!(call.phase(), Phase::Sent);
    }
    let Event::Unrelated(Unrelated::Message(Message::Notification { method, .. })) =
        call.feed(cases[2]).unwrap()
    else {
        panic!()
    };
    assert!(method.eq_str("notifications/progress"));
    // An invalid message that names another id is not ours either.
    let other = br#"{"jsonrpc":"2.0","id":9,"result":[]}"#;
    assert_eq!(
        call.feed(other),
        Ok(Event::Unrelated(Unrelated::Invalid(WireError::Protocol(
            Violation::ResultNotObject
        ))))
    );
    assert!(matches!(
        call.feed(ONE_FORM.as_bytes()),
        Ok(Event::InputRequired(1))
    ));
}

#[test]
fn a_json_rpc_error_to_our_request_ends_the_call() {
    let mut h = sent(FORM);
    let mut call = h.call();
    let msg = br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid or expired requestState","data":{"x":1}}}"#;
    let Ok(Event::RpcError(RpcError {
        code,
        message,
        data,
    })) = call.feed(msg)
    else {
        panic!()
    };
    assert_eq!(code, -32602);
    assert!(message.eq_str("Invalid or expired requestState"));
    assert_eq!(data.unwrap().raw(), br#"{"x":1}"#);
    assert_eq!(call.phase(), Phase::Done);
    assert_eq!(call.error(), None);
    assert_eq!(call.feed(msg), Err(CallError::WrongState(Phase::Done)));
}

#[test]
fn a_malformed_response_to_our_id_ends_the_call_with_the_wire_error() {
    let cases: [(&[u8], WireError); 4] = [
        (
            br#"{"jsonrpc":"2.0","id":1,"result":[]}"#,
            WireError::Protocol(Violation::ResultNotObject),
        ),
        (
            br#"{"jsonrpc":"1.0","id":1,"result":{}}"#,
            WireError::Envelope(EnvelopeError::BadVersion),
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}"#,
            WireError::Envelope(EnvelopeError::BadErrorObject),
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"a":{"method":"roots/list"},"a":{"method":"roots/list"}}}}"#,
            WireError::Protocol(Violation::DuplicateInputKey),
        ),
    ];
    for (bytes, err) in cases {
        let mut h = sent(ALL_BUILT);
        let mut call = h.call();
        let expected = match err {
            WireError::Protocol(v) => CallError::Protocol(v),
            e => CallError::Malformed(e),
        };
        assert_eq!(call.feed(bytes), Err(expected));
        assert_eq!(call.phase(), Phase::Failed);
        assert_eq!(call.error(), Some(expected));
    }
}

#[test]
fn garbage_that_cannot_be_attributed_to_any_id_ends_the_call() {
    let cases: [(&[u8], WireError); 3] = [
        (
            b"HTTP/1.1 502 Bad Gateway",
            WireError::Json(crate::json::Error {
                kind: ErrorKind::UnexpectedByte,
                offset: 0,
            }),
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"res"#,
            WireError::Json(crate::json::Error {
                kind: ErrorKind::UnexpectedEnd,
                offset: 28,
            }),
        ),
        (
            br#"{"jsonrpc":"2.0","result":{}}"#,
            WireError::Envelope(EnvelopeError::BadId),
        ),
    ];
    for (bytes, err) in cases {
        let mut h = sent(FORM);
        let mut call = h.call();
        assert_eq!(call.feed(bytes), Err(CallError::Malformed(err)));
        assert_eq!(call.phase(), Phase::Failed);
    }
}

#[test]
fn every_key_must_be_answered_before_the_retry() {
    let mut h = sent(FORM_AND_SAMPLING);
    let mut call = h.call();
    let msg = input_required(
        1,
        r#"{"a":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object"}}},"b":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}}"#,
    );
    call.feed(msg.as_bytes()).unwrap();
    let mut out = [0u8; 1024];
    assert_eq!(
        call.write_request(2, &mut out),
        Err(CallError::Unanswered { index: 0 })
    );
    call.answer(
        "b",
        Answer::Sampling(
            br#"{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}"#,
        ),
    )
    .unwrap();
    assert_eq!(
        call.write_request(2, &mut out),
        Err(CallError::Unanswered { index: 0 })
    );
    call.answer(
        "a",
        Answer::Elicit {
            action: ElicitAction::Decline,
            content: None,
        },
    )
    .unwrap();
    assert!(call.write_request(2, &mut out).is_ok());
}

#[test]
fn answering_a_key_not_asked_twice_or_with_the_wrong_kind_is_an_error() {
    let mut h = sent(ALL_BUILT);
    let mut call = h.call();
    let msg = input_required(
        1,
        r#"{"form":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object"}}},"url":{"method":"elicitation/create","params":{"mode":"url","message":"m","url":"https://x.example"}},"roots":{"method":"roots/list"}}"#,
    );
    call.feed(msg.as_bytes()).unwrap();
    let roots = [Root {
        uri: "file:///home/u",
        name: Some("home"),
    }];
    assert_eq!(
        call.answer("nope", Answer::Roots(&roots)),
        Err(CallError::UnknownKey)
    );
    assert_eq!(
        call.answer_at(3, Answer::Roots(&roots)),
        Err(CallError::UnknownKey)
    );
    let mismatch = |index, expected| {
        Err(CallError::BadAnswer {
            index,
            error: AnswerError::KindMismatch { expected },
        })
    };
    assert_eq!(
        call.answer("form", Answer::Roots(&roots)),
        mismatch(0, InputKind::ElicitForm)
    );
    assert_eq!(
        call.answer("roots", Answer::Json(br#"{"action":"cancel"}"#)),
        mismatch(2, InputKind::Roots)
    );
    assert_eq!(
        call.answer("form", Answer::Sampling(br#"{"action":"cancel"}"#)),
        mismatch(0, InputKind::ElicitForm)
    );
    let elicit = |action, content| Answer::Elicit { action, content };
    assert_eq!(
        call.answer("form", elicit(ElicitAction::Accept, None)),
        Err(CallError::BadAnswer {
            index: 0,
            error: AnswerError::ContentRequired
        })
    );
    assert_eq!(
        call.answer("url", elicit(ElicitAction::Accept, Some(b"{}"))),
        Err(CallError::BadAnswer {
            index: 1,
            error: AnswerError::ContentNotAllowed
        })
    );
    assert_eq!(
        call.answer("form", elicit(ElicitAction::Accept, Some(b"[1]"))),
        Err(CallError::BadAnswer {
            index: 0,
            error: AnswerError::NotAnObject
        })
    );
    assert_eq!(
        call.answer("form", Answer::Json(br#"{"result":{"action":"cancel"}}"#)),
        Err(CallError::BadAnswer {
            index: 0,
            error: AnswerError::Wrapped
        })
    );
    assert_eq!(
        call.answer("form", Answer::Json(b"{\"action\":")),
        Err(CallError::BadAnswer {
            index: 0,
            error: AnswerError::NotJson(crate::json::Error {
                kind: ErrorKind::UnexpectedEnd,
                offset: 10
            })
        })
    );
    assert_eq!(call.answered_count(), 0, "refused answers store nothing");
    call.answer("form", elicit(ElicitAction::Accept, Some(br#"{"n":1}"#)))
        .unwrap();
    assert_eq!(
        call.answer("form", elicit(ElicitAction::Cancel, None)),
        Err(CallError::AlreadyAnswered { index: 0 })
    );
    call.answer("url", elicit(ElicitAction::Accept, None))
        .unwrap();
    call.answer("roots", Answer::Roots(&roots)).unwrap();
    assert_eq!(
        call.answer_json(2),
        Some(&br#"{"roots":[{"uri":"file:///home/u","name":"home"}]}"#[..])
    );
    assert_eq!(call.phase(), Phase::Ready);
    assert_eq!(
        call.answer("url", elicit(ElicitAction::Cancel, None)),
        Err(CallError::WrongState(Phase::Ready))
    );
}

#[test]
fn an_explicit_error_answer_ends_the_call_locally() {
    let mut h = sent(FORM);
    let mut call = h.call();
    call.feed(ONE_FORM.as_bytes()).unwrap();
    assert_eq!(
        call.answer("zz", Answer::Error { code: -1 }),
        Err(CallError::UnknownKey)
    );
    assert_eq!(call.phase(), Phase::Answering);
    let err = CallError::AnsweredWithError {
        index: 0,
        code: -32603,
    };
    // An error answer succeeds: it ends the call locally, which `error()` reports.
    assert_eq!(call.answer("k", Answer::Error { code: -32603 }), Ok(()));
    assert_eq!(call.phase(), Phase::Failed);
    assert_eq!(call.error(), Some(err));
    assert!(err.is_terminal());
    assert_eq!(
        call.write_request(2, &mut [0u8; 512]),
        Err(CallError::WrongState(Phase::Failed))
    );
}

#[test]
fn the_call_owns_input_responses_request_state_and_its_meta_keys() {
    let bad = |params: &str| {
        let mut st = CallSlot::default();
        let config = tool_config(params, FORM);
        let mut buf = vec![0u8; Call::workspace_size(&config.limits)];
        Call::init(&mut st, &mut buf, &config)
            .map(|_| ())
            .unwrap_err()
    };
    let p = |e| CallError::BadParams(e);
    assert_eq!(
        bad(r#"{"name":"t","inputResponses":{}}"#),
        p(ParamsError::Reserved)
    );
    assert_eq!(
        bad(r#"{"name":"t","request\u0053tate":"x"}"#),
        p(ParamsError::Reserved)
    );
    assert_eq!(bad(r#"{"arguments":{}}"#), p(ParamsError::MissingTarget));
    assert_eq!(bad(r#"{"name":7}"#), p(ParamsError::MissingTarget));
    assert_eq!(bad(r#"{"name":"t","_meta":[]}"#), p(ParamsError::BadMeta));
    assert_eq!(
        bad(r#"{"name":"t","_meta":{},"_meta":{}}"#),
        p(ParamsError::BadMeta)
    );
    assert_eq!(bad(r#"{"name":"t","task":5}"#), p(ParamsError::BadTask));
    assert_eq!(bad("[]"), p(ParamsError::NotAnObject));
    assert_eq!(
        bad("{\"name\":\"t\""),
        p(ParamsError::NotJson(crate::json::Error {
            kind: ErrorKind::UnexpectedEnd,
            offset: 11
        }))
    );
    // A caller _meta is merged: its own members stay, the three we own are ours.
    let config = CallConfig {
        method: CallMethod::ResourcesRead,
        client_info: None,
        ..tool_config(
            r#"{"uri":"file:///a.txt","_meta":{"progressToken":"p1","io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientInfo":{"name":"spoof","version":"0"}}}"#,
            ClientCapabilities::default(),
        )
    };
    let mut h = Harness::new(&config);
    let mut call = h.call();
    assert_eq!(
        leg(&mut call, 1),
        r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p1"},"uri":"file:///a.txt"}}"#
    );
}

#[test]
fn params_with_a_member_repeated_at_any_depth_are_refused() {
    let bad = |params: &str| {
        let mut st = CallSlot::default();
        let config = tool_config(params, FORM);
        let mut buf = vec![0u8; Call::workspace_size(&config.limits)];
        let r = Call::init(&mut st, &mut buf, &config).map(|_| ());
        if r.is_err() {
            // Nothing was started: the slot is as it was.
            assert_eq!(st, CallSlot::default());
        }
        r
    };
    let repeated = Err(CallError::BadParams(ParamsError::RepeatedMember));
    for params in [
        r#"{"name":"t","arguments":{"region":"eu","region":"us"}}"#,
        r#"{"name":"t","arguments":{"region":"eu","\u0072egion":"us"}}"#,
        r#"{"name":"t","arguments":{"target":{"zone":"a","zone":"b"}}}"#,
        r#"{"name":"t","arguments":{"list":[{"k":1,"k":2}]}}"#,
        r#"{"name":"t","arguments":{},"arguments":{}}"#,
        r#"{"name":"t","_meta":{"progressToken":1,"progressToken":2}}"#,
        r#"{"name":"t","extra":1,"extra":1}"#,
    ] {
        assert_eq!(bad(params), repeated, "{params}");
    }
    // The same keys in different objects are no repeat.
    assert_eq!(
        bad(r#"{"name":"t","arguments":{"a":{"k":1},"b":{"k":2},"k":[{"k":3}]}}"#),
        Ok(())
    );
    // The more precise errors keep their precedence.
    assert_eq!(
        bad(r#"{"name":"t","task":{},"task":{}}"#),
        Err(CallError::BadParams(ParamsError::BadTask))
    );
    assert_eq!(
        ParamsError::RepeatedMember.to_string(),
        "params repeat a member (an object has a key twice)"
    );
    // An object too large for the repeat check is not sent either.
    let big: Vec<String> = (0..=crate::json::DEEP_MAX_MEMBERS)
        .map(|i| format!(r#""m{i}":0"#))
        .collect();
    assert_eq!(
        bad(&format!(
            r#"{{"name":"t","arguments":{{{}}}}}"#,
            big.join(",")
        )),
        Err(CallError::BadParams(ParamsError::TooManyMembers))
    );
}

#[test]
fn a_too_small_output_buffer_reports_the_exact_size_and_changes_nothing() {
    let mut h = Harness::new(&tool_config(r#"{"name":"t"}"#, FORM));
    let mut call = h.call();
    let mut big = [0u8; 1024];
    let n = call.write_request(1, &mut big).unwrap();
    let full = big[..n].to_vec();
    let mut h = Harness::new(&tool_config(r#"{"name":"t"}"#, FORM));
    let mut call = h.call();
    let mut small = vec![0u8; n - 1];
    assert_eq!(
        call.write_request(1, &mut small),
        Err(CallError::BufferTooSmall { needed: n })
    );
    assert_eq!((call.phase(), call.last_id()), (Phase::Ready, None));
    let mut exact = vec![0u8; n];
    assert_eq!(call.write_request(1, &mut exact), Ok(n));
    assert_eq!(exact, full);
}

#[test]
fn feed_copy_copies_the_result_or_changes_nothing() {
    let mut h = sent(FORM);
    let mut call = h.call();
    let msg = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}}"#;
    let mut small = [0u8; 10];
    assert_eq!(
        call.feed_copy(msg, &mut small),
        Err(CallError::BufferTooSmall { needed: 38 })
    );
    assert_eq!(call.phase(), Phase::Sent);
    let mut out = [0u8; 38];
    let (ev, n) = call.feed_copy(msg, &mut out).unwrap();
    assert_eq!(n, 38);
    assert_eq!(&out[..], br#"{"resultType":"complete","content":[]}"#);
    assert_eq!(ev, Event::Complete(&out[..]));
}

#[test]
fn server_data_larger_than_its_region_ends_the_call_with_the_region_named() {
    let mut limits = CallLimits {
        max_state_bytes: 8,
        max_inputs_bytes: 64,
        ..CallLimits::default()
    };
    limits.wire.json = ParseLimits::default();
    let config = CallConfig {
        limits,
        ..tool_config(r#"{"name":"t"}"#, FORM)
    };
    let mut h = Harness::new(&config);
    let mut call = h.call();
    leg(&mut call, 1);
    let msg = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"123456789"}}"#;
    assert_eq!(
        call.feed(msg),
        Err(CallError::StateTooLarge {
            needed: 11,
            limit: 8
        })
    );
    let mut h = Harness::new(&config);
    let mut call = h.call();
    leg(&mut call, 1);
    assert_eq!(
        call.feed(ONE_FORM.as_bytes()),
        Err(CallError::InputsTooLarge {
            needed: 98,
            limit: 64
        })
    );
}

#[test]
fn workspace_and_state_misuse_is_refused() {
    let config = tool_config(r#"{"name":"t"}"#, FORM);
    let size = Call::workspace_size(&config.limits);
    let mut st = CallSlot::default();
    let mut buf = vec![0u8; size - 1];
    assert_eq!(
        Call::init(&mut st, &mut buf, &config).map(|_| ()),
        Err(CallError::WorkspaceTooSmall { needed: size })
    );
    assert_eq!(
        Call::attach(&mut st, &mut buf).map(|_| ()),
        Err(CallError::NotInitialized)
    );
    let mut limits = CallLimits::default();
    limits.wire.max_input_requests = 0;
    assert_eq!(Call::workspace_size(&limits), usize::MAX);
    limits.wire.max_input_requests = crate::client::call::MAX_INPUT_REQUESTS_LIMIT + 1;
    let bad = CallConfig { limits, ..config };
    assert_eq!(
        Call::init(&mut st, &mut buf, &bad).map(|_| ()),
        Err(CallError::BadLimits)
    );
    let mut buf = vec![0u8; size];
    Call::init(&mut st, &mut buf, &config).unwrap();
    let mut short = vec![0u8; size - 1];
    assert_eq!(
        Call::attach(&mut st, &mut short).map(|_| ()),
        Err(CallError::WorkspaceTooSmall { needed: size })
    );
    let mut call = Call::attach(&mut st, &mut buf).unwrap();
    assert_eq!(call.feed(b"{}"), Err(CallError::WrongState(Phase::Ready)));
    assert_eq!(
        call.answer_at(0, Answer::Error { code: 1 }),
        Err(CallError::WrongState(Phase::Ready))
    );
}

#[test]
fn limits_refuse_a_depth_over_the_reader_maximum() {
    let mut limits = CallLimits::default();
    limits.wire.json.max_depth = crate::json::MAX_DEPTH_LIMIT;
    assert_ne!(Call::workspace_size(&limits), usize::MAX);
    limits.wire.json.max_depth = crate::json::MAX_DEPTH_LIMIT + 1;
    assert_eq!(Call::workspace_size(&limits), usize::MAX);
    let config = tool_config(r#"{"name":"t"}"#, FORM);
    let mut st = CallSlot::default();
    let mut buf = vec![0u8; Call::workspace_size(&config.limits)];
    let bad = CallConfig { limits, ..config };
    assert_eq!(
        Call::init(&mut st, &mut buf, &bad).map(|_| ()),
        Err(CallError::BadLimits)
    );
}

#[cfg(feature = "form")]
#[test]
fn a_form_accept_is_checked_against_its_schema_in_the_core() {
    use crate::client::form::FieldError;
    let mut h = sent(ALL_BUILT);
    let mut call = h.call();
    let msg = input_required(
        1,
        r#"{"r":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{"resolution":{"type":"string","enum":["Fixed","Duplicate"]}},"required":["resolution"]}}},"loose":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object"}}}}"#,
    );
    assert_eq!(call.feed(msg.as_bytes()), Ok(Event::InputRequired(2)));
    let accept = |c: &'static [u8]| Answer::Elicit {
        action: ElicitAction::Accept,
        content: Some(c),
    };
    let refused = |error| {
        Err(CallError::BadAnswer {
            index: 0,
            error: AnswerError::FormContent { error },
        })
    };
    // Not one of the options, a required field missing, a field the form
    // does not define: refused, whether as content or as a raw result.
    assert_eq!(
        call.answer("r", accept(br#"{"resolution":"Nope"}"#)),
        refused(FieldError::NotAnOption)
    );
    assert_eq!(
        call.answer("r", accept(br#"{}"#)),
        refused(FieldError::Missing)
    );
    assert_eq!(
        call.answer("r", accept(br#"{"resolution":"Fixed","extra":1}"#)),
        refused(FieldError::UnknownField)
    );
    assert_eq!(
        call.answer(
            "r",
            Answer::Json(br#"{"action":"accept","content":{"resolution":"Nope"}}"#)
        ),
        refused(FieldError::NotAnOption)
    );
    // A refused answer stores nothing: the input is still open.
    assert_eq!(
        call.answer("r", accept(br#"{"resolution":"Duplicate"}"#)),
        Ok(())
    );
    // A schema outside the subset (no `properties`) cannot judge content.
    assert_eq!(call.answer("loose", accept(br#"{"anything":1}"#)), Ok(()));
    assert_eq!(call.phase(), Phase::Ready);
}

/// Small limits, so that each region can be filled to its last byte.
fn tight_limits() -> CallLimits {
    let mut l = CallLimits::default();
    l.wire.max_input_requests = 4;
    l.wire.max_key_bytes = 24;
    l.max_params_bytes = 600;
    l.max_inputs_bytes = 2048;
    l.max_state_bytes = 96;
    l.max_answers_bytes = 400;
    l
}

#[test]
fn max_request_bytes_bounds_every_request_at_the_limits() {
    let limits = tight_limits();
    let bound = limits.max_request_bytes().unwrap();
    // The longest params the call takes (filled byte by byte).
    let mut pad = 600;
    let params = loop {
        let p = format!(
            r#"{{"name":"t","arguments":{{"p":"{}"}}}}"#,
            "x".repeat(pad)
        );
        let cfg = CallConfig {
            limits,
            ..tool_config(&p, FORM)
        };
        let mut st = CallSlot::default();
        let mut ws = std::vec![0u8; Call::workspace_size(&limits)];
        if Call::init(&mut st, &mut ws, &cfg).is_ok() {
            break p;
        }
        pad -= 1;
    };
    let cfg = CallConfig {
        limits,
        ..tool_config(&params, FORM)
    };
    let mut h = Harness::new(&cfg);
    let mut out = std::vec![0u8; 1 << 16];
    let n = h
        .call()
        .write_request(-9_007_199_254_740_991, &mut out)
        .unwrap();
    assert!(n <= bound, "first leg {n} > {bound}");
    // Four inputs with the longest keys, the longest state token.
    let key = |i: usize| format!("{i}{}", "k".repeat(23));
    let inputs: std::vec::Vec<_> = (0..4)
        .map(|i| {
            format!(
                r#""{}":{{"method":"elicitation/create","params":{{"message":"m","requestedSchema":{{"type":"object"}}}}}}"#,
                key(i)
            )
        })
        .collect();
    let mut state = 96;
    let mut call = h.call();
    loop {
        let msg = format!(
            r#"{{"jsonrpc":"2.0","id":-9007199254740991,"result":{{"resultType":"input_required","inputRequests":{{{}}},"requestState":"{}"}}}}"#,
            inputs.join(","),
            "s".repeat(state)
        );
        match call.feed(msg.as_bytes()) {
            Ok(Event::InputRequired(4)) => break,
            Err(CallError::StateTooLarge { .. }) => {
                // The call failed; start again one byte shorter.
                h = Harness::new(&cfg);
                h.call()
                    .write_request(-9_007_199_254_740_991, &mut out)
                    .unwrap();
                call = h.call();
                state -= 1;
            }
            other => panic!("feed: {other:?}"),
        }
    }
    // Answers that fill the answer bytes: a quarter each, the last as long
    // as it still fits.
    for i in 0..4 {
        let mut len = if i < 3 { 60 } else { 400 };
        loop {
            let content = format!(r#"{{"v":"{}"}}"#, "a".repeat(len));
            let a = Answer::Elicit {
                action: ElicitAction::Accept,
                content: Some(content.as_bytes()),
            };
            match call.answer(&key(i), a) {
                Ok(()) => break,
                Err(CallError::AnswersTooLarge { .. }) if len > 0 => len -= 1,
                Err(e) => panic!("answer {i}: {e:?}"),
            }
        }
    }
    let n = call
        .write_request(-9_007_199_254_740_990, &mut out)
        .unwrap();
    assert!(n <= bound, "retry {n} > {bound}");
    // Every region was full: the bound is above the real maximum by the
    // syntax allowance, the keys' escape allowance (the keys here have no
    // escapes: 26 of 146 bytes each) and the answer headers at most.
    let slack = bound - n;
    assert!(
        slack < crate::client::REQUEST_SYNTAX_BYTES + 4 * (146 - 26) + 4 * 8,
        "slack {slack}"
    );
}

/// An input reads the same whether its facts record fit after the
/// `inputRequests` copy (read from the record) or not (parsed again), and
/// the same as the wire parse of the received map; after a save and a
/// restore too (the records are written again).
#[test]
fn an_input_reads_the_same_from_its_facts_record_as_parsed_again() {
    let requests = concat!(
        r#"{"f":{"method":"elicitation/create","params":{"message":"m\n","requestedSchema":{"type":"object"}}},"#,
        r#""u":{"method":"elicitation/create","params":{"mode":"url","message":"open","url":"https://x.example/a"}},"#,
        r#""s":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"systemPrompt":"be \"brief\"","maxTokens":5000000000,"tools":[{"name":"t"}],"includeContext":"thisServer"}},"#,
        r#""p":{"method":"sampling/createMessage","params":{"maxTokens":7,"messages":[]}},"#,
        r#""r":{"method":"roots/list"}}"#
    );
    let reply = input_required(1, requests);
    let expected: Vec<_> = {
        let v = crate::json::parse(requests.as_bytes()).unwrap();
        crate::wire::InputRequests::parse(v, &crate::wire::WireLimits::default())
            .unwrap()
            .iter()
            .map(|(k, r)| (k.raw_token().to_vec(), format!("{r:?}")))
            .collect()
    };
    let caps = ALL_BUILT;
    // Room for the records, and one byte short of it (the copy still fits).
    let roomy = CallLimits::default();
    let mut tight = CallLimits {
        max_inputs_bytes: requests.len() + 5 * super::super::exchange::FACTS_ENTRY - 1,
        ..CallLimits::default()
    };
    tight.wire.max_input_requests = 5;
    for limits in [roomy, tight] {
        let config = CallConfig {
            limits,
            ..tool_config(r#"{"name":"t"}"#, caps)
        };
        let mut h = Harness::new(&config);
        leg(&mut h.call(), 1);
        let mut call = h.call();
        assert_eq!(call.feed(reply.as_bytes()), Ok(Event::InputRequired(5)));
        let read = |call: &Call<'_>| -> Vec<_> {
            (0..5)
                .map(|i| {
                    let (k, r) = call.input_at(i).unwrap();
                    (k.raw_token().to_vec(), format!("{r:?}"))
                })
                .collect()
        };
        assert_eq!(read(&call), expected);
        let mut saved = vec![0u8; 8192];
        let n = call.save(&mut saved).unwrap();
        let (mut st, mut buf) = (
            CallSlot::default(),
            vec![0xa5u8; Call::workspace_size(&limits)],
        );
        let restored = Call::restore(&mut st, &mut buf, &limits, &saved[..n]).unwrap();
        assert_eq!(read(&restored), expected);
    }
}
