//! `answer_json` validates exactly as the typed answers and the server half
//! do (issue 16): the same readers (`wire::input_response::read_*_result`) and the
//! same root URI rules (`client::roots::check_root_uri`, on the decoded
//! `uri` for JSON answers) for every path.
//! Before, a sampling result with `role` twice (which the server refuses)
//! and a root `file:///etc/../root/.ssh` (which `mrtr_call_answer_roots`
//! refused) went out through `answer_json`, and `Answer::Roots` wrote any
//! URI unchecked.
#![cfg(all(feature = "client", feature = "server"))]

use mrtr_core::client::roots::RootUriError;
use mrtr_core::client::{
    Answer, AnswerError, Call, CallConfig, CallError, CallMethod, CallSlot, Event,
};
use mrtr_core::wire::{ClientCapabilities, Root};

const CAPS: ClientCapabilities = ClientCapabilities {
    elicitation_form: true,
    elicitation_url: false,
    sampling: true,
    sampling_tools: false,
    sampling_context: false,
    roots: true,
    tasks: false,
};

const ASK: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"llm":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Hi"}}],"maxTokens":10}},"dirs":{"method":"roots/list"},"form":{"method":"elicitation/create","params":{"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{"n":{"type":"string"}}}}}}}}"#;

struct Owned {
    st: CallSlot,
    buf: Vec<u8>,
}

fn asked() -> Owned {
    let config = CallConfig {
        caps: CAPS,
        ..CallConfig::new(CallMethod::ToolsCall, br#"{"name":"t"}"#)
    };
    let mut o = Owned {
        st: CallSlot::default(),
        buf: vec![0u8; Call::workspace_size(&config.limits)],
    };
    Call::init(&mut o.st, &mut o.buf, &config).unwrap();
    let mut call = Call::attach(&mut o.st, &mut o.buf).unwrap();
    let mut out = vec![0u8; 4096];
    call.write_request(1, &mut out).unwrap();
    assert_eq!(call.feed(ASK.as_bytes()), Ok(Event::InputRequired(3)));
    o
}

fn answer(o: &mut Owned, key: &str, a: Answer<'_>) -> Result<(), AnswerError> {
    let mut call = Call::attach(&mut o.st, &mut o.buf).unwrap();
    match call.answer(key, a) {
        Ok(()) => Ok(()),
        Err(CallError::BadAnswer { error, .. }) => Err(error),
        Err(e) => panic!("{e}"),
    }
}

const GOOD_SAMPLING: &[u8] =
    br#"{"role":"assistant","content":{"type":"text","text":"Hello"},"model":"m-1","stopReason":"endTurn"}"#;

#[test]
fn a_sampling_result_the_server_would_refuse_is_refused_on_every_path() {
    let cases: [(&[u8], AnswerError); 5] = [
        (
            br#"{"role":"assistant","role":"user","content":{"type":"text","text":"x"},"model":"m"}"#,
            AnswerError::Duplicate { member: "role" },
        ),
        (
            br#"{"role":"system","content":{"type":"text","text":"x"},"model":"m"}"#,
            AnswerError::BadMember { member: "role" },
        ),
        (
            br#"{"role":"user","content":{"type":"text","text":"x"},"model":7}"#,
            AnswerError::BadMember { member: "model" },
        ),
        (
            br#"{"role":"user","content":{"type":"text","text":"x"},"model":"m","stopReason":1}"#,
            AnswerError::BadMember { member: "stopReason" },
        ),
        (
            br#"{"role":"user","content":{"type":"text","text":"x"},"model":"m","model":"n"}"#,
            AnswerError::Duplicate { member: "model" },
        ),
    ];
    for (bytes, want) in cases {
        let mut o = asked();
        assert_eq!(answer(&mut o, "llm", Answer::Json(bytes)), Err(want));
        assert_eq!(answer(&mut o, "llm", Answer::Sampling(bytes)), Err(want));
        // The server half refuses the same bytes.
        let req = format!(
            concat!(
                r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"_meta":{{"#,
                r#""io.modelcontextprotocol/protocolVersion":"2026-07-28","#,
                r#""io.modelcontextprotocol/clientCapabilities":{{"sampling":{{}}}}}},"#,
                r#""name":"t","inputResponses":{{"llm":{}}}}}}}"#
            ),
            String::from_utf8_lossy(bytes)
        );
        let limits = mrtr_core::wire::WireLimits::default();
        let parsed = mrtr_core::server::ServerRequest::parse(req.as_bytes(), &limits);
        if let AnswerError::Duplicate { .. } = want {
            // A repeated member anywhere in params refuses the whole
            // request (issue 25), before the answer is read.
            let e = parsed.unwrap_err();
            assert!(
                matches!(
                    e.kind,
                    mrtr_core::server::RequestErrorKind::RepeatedMember { .. }
                ),
                "{req}: {e:?}"
            );
            continue;
        }
        let Ok(mrtr_core::server::Incoming::Request(parsed)) = parsed else {
            panic!("a request");
        };
        assert!(parsed.sampling_answer("llm").is_err(), "{req}");
    }
    let mut o = asked();
    assert_eq!(answer(&mut o, "llm", Answer::Json(GOOD_SAMPLING)), Ok(()));
}

#[test]
fn roots_are_checked_on_every_path_including_escaped_dot_segments() {
    let cases: [(&[u8], AnswerError); 7] = [
        (
            br#"{"roots":[{"uri":"file:///home/ada"},{"uri":"file:///etc/../root/.ssh"}]}"#,
            AnswerError::BadRoot {
                index: 1,
                error: RootUriError::DotSegment,
            },
        ),
        (
            br#"{"roots":[{"uri":"https://evil.example/x"}]}"#,
            AnswerError::BadRoot {
                index: 0,
                error: RootUriError::NotFileUri,
            },
        ),
        // The uri is checked decoded, as the server reads it: escapes
        // cannot hide a dot segment, whatever their case or mix.
        (
            br#"{"roots":[{"uri":"file:///etc/\u002e\u002e/root"}]}"#,
            AnswerError::BadRoot {
                index: 0,
                error: RootUriError::DotSegment,
            },
        ),
        (
            br#"{"roots":[{"uri":"file:///ok"},{"uri":"file:\/\/\/etc\/\u002E%2e\/root"}]}"#,
            AnswerError::BadRoot {
                index: 1,
                error: RootUriError::DotSegment,
            },
        ),
        // A decoded character that must be percent-encoded (offsets are
        // into the decoded text).
        (
            br#"{"roots":[{"uri":"file:///tmp/\u00e9"}]}"#,
            AnswerError::BadRoot {
                index: 0,
                error: RootUriError::MustBeEncoded { offset: 12 },
            },
        ),
        (
            br#"{"roots":[{"uri":"file:///a\u0000b"}]}"#,
            AnswerError::BadRoot {
                index: 0,
                error: RootUriError::MustBeEncoded { offset: 9 },
            },
        ),
        (
            br#"{"roots":[{"uri":"file:///a","uri":"file:///b"}]}"#,
            AnswerError::Duplicate { member: "uri" },
        ),
    ];
    for (bytes, want) in cases {
        let mut o = asked();
        assert_eq!(answer(&mut o, "dirs", Answer::Json(bytes)), Err(want));
    }
    // The typed answer: the same check (it wrote any URI before).
    let mut o = asked();
    let evil = [Root {
        uri: "https://evil.example/../x",
        name: None,
    }];
    assert_eq!(
        answer(&mut o, "dirs", Answer::Roots(&evil)),
        Err(AnswerError::BadRoot {
            index: 0,
            error: RootUriError::NotFileUri
        })
    );
    let dots = [
        Root {
            uri: "file:///home/ada",
            name: Some("home"),
        },
        Root {
            uri: "file:///etc/../root/.ssh",
            name: None,
        },
    ];
    assert_eq!(
        answer(&mut o, "dirs", Answer::Roots(&dots)),
        Err(AnswerError::BadRoot {
            index: 1,
            error: RootUriError::DotSegment
        })
    );
    // Valid roots still go out, byte for byte as before.
    let good = [Root {
        uri: "file:///home/ada/project",
        name: Some("project"),
    }];
    assert_eq!(answer(&mut o, "dirs", Answer::Roots(&good)), Ok(()));
    let mut o2 = asked();
    assert_eq!(
        answer(
            &mut o2,
            "dirs",
            Answer::Json(br#"{"roots":[{"uri":"file:///home/ada/project","name":"project"}]}"#)
        ),
        Ok(())
    );
}

#[test]
fn elicit_results_keep_their_rules_and_refuse_duplicates() {
    let mut o = asked();
    assert_eq!(
        answer(
            &mut o,
            "form",
            Answer::Json(br#"{"action":"accept","action":"decline","content":{}}"#)
        ),
        Err(AnswerError::Duplicate { member: "action" })
    );
    assert_eq!(
        answer(
            &mut o,
            "form",
            Answer::Json(br#"{"action":"accept","content":"x"}"#)
        ),
        Err(AnswerError::NotAnObject)
    );
    assert_eq!(
        answer(&mut o, "form", Answer::Json(br#"{"action":"accept"}"#)),
        Err(AnswerError::ContentRequired)
    );
    assert_eq!(
        answer(
            &mut o,
            "form",
            Answer::Json(br#"{"action":"accept","content":{"n":"Ada"}}"#)
        ),
        Ok(())
    );
}

#[test]
fn answer_errors_name_the_member_and_the_root() {
    assert_eq!(
        AnswerError::Duplicate { member: "role" }.to_string(),
        "answer has member \"role\" more than once"
    );
    assert_eq!(
        AnswerError::BadRoot {
            index: 1,
            error: RootUriError::DotSegment
        }
        .to_string(),
        "root 1: path has a . or .. segment"
    );
}

/// A valid root written with harmless escapes (`\/`, as some JSON encoders
/// write every slash) is the same root: accepted, and sent exactly as
/// given.
#[test]
fn a_valid_root_with_escaped_slashes_is_accepted_as_written() {
    let bytes: &[u8] = br#"{"roots":[{"uri":"file:\/\/\/home\/ada\/project","name":"project"}]}"#;
    let mut o = asked();
    assert_eq!(answer(&mut o, "dirs", Answer::Json(bytes)), Ok(()));
    let call = Call::attach(&mut o.st, &mut o.buf).unwrap();
    let i = call.index_of("dirs").unwrap();
    assert_eq!(call.answer_json(i), Some(bytes));
}
