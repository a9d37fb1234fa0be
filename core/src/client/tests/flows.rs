//! The flows of the spec and the SEP as recorded server messages; every
//! emitted request is compared byte for byte.

use super::*;
use crate::client::call::{Answer, Event, Phase, Unrelated};
use crate::wire::{ElicitAction, InputKind, InputRequest, Message};
use std::format;

/// The MRTR page's `InputRequiredResult` example, as the server sends it.
const SPEC_INPUT_REQUIRED: &str = r#"{
  "jsonrpc": "2.0",
  "id": 1,
  "result": {
    "resultType": "input_required",
    "inputRequests": {
      "github_login": {
        "method": "elicitation/create",
        "params": {
          "mode": "form",
          "message": "Please provide your GitHub username",
          "requestedSchema": {
            "type": "object",
            "properties": {
              "name": { "type": "string" }
            },
            "required": ["name"]
          }
        }
      },
      "capital_of_france": {
        "method": "sampling/createMessage",
        "params": {
          "messages": [
            {
              "role": "user",
              "content": {
                "type": "text",
                "text": "What is the capital of France?"
              }
            }
          ],
          "modelPreferences": {
            "hints": [{ "name": "claude-3-sonnet" }],
            "intelligencePriority": 0.8,
            "speedPriority": 0.5
          },
          "systemPrompt": "You are a helpful assistant.",
          "maxTokens": 100
        }
      }
    },
    "requestState": "AEAD-protected blob"
  }
}"#;

const SAMPLING_ANSWER: &str = r#"{"role":"assistant","content":{"type":"text","text":"The capital of France is Paris."},"model":"claude-3-sonnet-20240307","stopReason":"endTurn"}"#;

#[test]
fn github_login_and_capital_of_france_are_answered_in_one_round() {
    let mut h = Harness::new(&tool_config(
        r#"{"name":"get_weather","arguments":{"location":"New York"}}"#,
        FORM_AND_SAMPLING,
    ));
    let mut call = h.call();
    assert_eq!(call.phase(), Phase::Ready);
    assert_eq!(
        leg(&mut call, 1),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},"sampling":{}},"io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"}},"name":"get_weather","arguments":{"location":"New York"}}}"#
    );
    assert_eq!(call.phase(), Phase::Sent);

    let ev = call.feed(SPEC_INPUT_REQUIRED.as_bytes()).unwrap();
    assert_eq!(ev, Event::InputRequired(2));
    assert_eq!(call.phase(), Phase::Answering);
    assert_eq!(call.round(), 1);
    assert_eq!(call.request_state(), Some(&br#""AEAD-protected blob""#[..]));
    let (k0, r0) = call.input_at(0).unwrap();
    assert_eq!(k0.raw_token(), br#""github_login""#);
    assert_eq!(r0.kind(), InputKind::ElicitForm);
    assert!(r0
        .message()
        .unwrap()
        .eq_str("Please provide your GitHub username"));
    let (k1, r1) = call.input_at(1).unwrap();
    assert_eq!(k1.raw_token(), br#""capital_of_france""#);
    let InputRequest::Sampling { max_tokens, .. } = r1 else {
        panic!("{r1:?}")
    };
    assert_eq!(max_tokens, 100);
    assert!(call.input_at(2).is_none());

    call.answer(
        "github_login",
        Answer::Elicit {
            action: ElicitAction::Accept,
            content: Some(br#"{"name":"octocat"}"#),
        },
    )
    .unwrap();
    assert_eq!(call.phase(), Phase::Answering);
    call.answer(
        "capital_of_france",
        Answer::Sampling(SAMPLING_ANSWER.as_bytes()),
    )
    .unwrap();
    assert_eq!(call.phase(), Phase::Ready);
    assert_eq!(
        leg(&mut call, 2),
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},"sampling":{}},"io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"}},"name":"get_weather","arguments":{"location":"New York"},"inputResponses":{"github_login":{"action":"accept","content":{"name":"octocat"}},"capital_of_france":{"role":"assistant","content":{"type":"text","text":"The capital of France is Paris."},"model":"claude-3-sonnet-20240307","stopReason":"endTurn"}},"requestState":"AEAD-protected blob"}}"#
    );

    let done = "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":\"Current weather in New York:\\nTemperature: 72\u{b0}F\\nConditions: Partly cloudy\"}],\"isError\":false}}";
    let ev = call.feed(done.as_bytes()).unwrap();
    let expected_result = &done[33..done.len() - 1];
    assert!(expected_result.starts_with("{\"resultType\""));
    assert_eq!(ev, Event::Complete(expected_result.as_bytes()));
    assert_eq!(call.phase(), Phase::Done);
    assert_eq!(
        call.result(done.as_bytes()),
        Some(expected_result.as_bytes())
    );
    assert_eq!(call.result_span(), Some((33, expected_result.len())));
    assert_eq!(call.result(b"other bytes"), None);
}

/// The params the work-item call sends on every leg: `_meta` first, the
/// caller's member values exactly as given.
fn work_item_params_prefix() -> String {
    format!(
        r#"{{{},"name":"update_work_item","arguments":{{"workItemId": 4522, "fields": {{ "System.State": "Resolved" }}}}"#,
        example_meta(r#"{"elicitation":{"form":{}}}"#)
    )
}

#[test]
fn the_work_item_takes_two_rounds_and_the_second_echoes_request_state() {
    let mut h = Harness::new(&tool_config(work_item::PARAMS, FORM));
    let mut call = h.call();
    let p = work_item_params_prefix();
    assert_eq!(
        leg(&mut call, 1),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{p}}}}}"#)
    );
    assert_eq!(
        call.feed(work_item::ROUND_1.as_bytes()),
        Ok(Event::InputRequired(1))
    );
    assert_eq!(call.request_state(), None, "round 1 carries no state");
    call.answer(
        "resolution",
        Answer::Elicit {
            action: ElicitAction::Accept,
            content: Some(br#"{ "resolution": "Duplicate" }"#),
        },
    )
    .unwrap();
    assert_eq!(
        leg(&mut call, 2),
        format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{p},"inputResponses":{{"resolution":{{"action":"accept","content":{{ "resolution": "Duplicate" }}}}}}}}}}"#
        )
    );
    assert_eq!(
        call.feed(work_item::ROUND_2.as_bytes()),
        Ok(Event::InputRequired(1))
    );
    assert_eq!(call.round(), 2);
    call.answer(
        "duplicate_of",
        Answer::Elicit {
            action: ElicitAction::Accept,
            content: Some(br#"{"duplicateOfId":4301}"#),
        },
    )
    .unwrap();
    assert_eq!(
        leg(&mut call, 3),
        format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{p},"inputResponses":{{"duplicate_of":{{"action":"accept","content":{{"duplicateOfId":4301}}}}}},"requestState":"eyJyZXNvbHV0aW9uIjoiRHVwbGljYXRlIn0..."}}}}"#
        )
    );
    let ev = call.feed(work_item::DONE.as_bytes()).unwrap();
    let Event::Complete(result) = ev else {
        panic!("{ev:?}")
    };
    assert!(result.starts_with(b"{\n    \"content\""));
    assert!(result.ends_with(b"\"isError\": false\n  }"));
    assert_eq!(call.phase(), Phase::Done);
}

/// The recorded legs the Cortex-M example checks on the device (the file it
/// includes) are the ones the call writes here, byte for byte.
#[test]
fn the_recorded_work_item_legs_are_the_bytes_the_call_writes() {
    let mut h = Harness::new(&tool_config(work_item::PARAMS, FORM));
    let mut call = h.call();
    let answers = [
        ("resolution", work_item::ANSWER_1),
        ("duplicate_of", work_item::ANSWER_2),
    ];
    let rounds = [work_item::ROUND_1, work_item::ROUND_2];
    for (n, (expected, reply)) in [work_item::LEG_1, work_item::LEG_2]
        .into_iter()
        .zip(rounds)
        .enumerate()
    {
        assert_eq!(leg(&mut call, n as i64 + 1), expected, "leg {}", n + 1);
        assert_eq!(call.feed(reply.as_bytes()), Ok(Event::InputRequired(1)));
        let (key, content) = answers[n];
        let answer = Answer::Elicit {
            action: ElicitAction::Accept,
            content: Some(content),
        };
        call.answer(key, answer).unwrap();
    }
    assert_eq!(call.request_state(), Some(work_item::STATE_TOKEN));
    assert_eq!(leg(&mut call, 3), work_item::LEG_3);
    assert_eq!(
        call.feed(work_item::DONE.as_bytes()),
        Ok(Event::Complete(work_item::DONE_RESULT.as_bytes()))
    );
}

/// Runs the work-item flow under `limits`; the first error, if any.
fn run_work_item(limits: CallLimits) -> Result<(), CallError> {
    let config = CallConfig {
        limits,
        ..tool_config(work_item::PARAMS, FORM)
    };
    let mut st = CallSlot::default();
    let mut buf = vec![0u8; Call::workspace_size(&limits)];
    let mut call = Call::init(&mut st, &mut buf, &config)?;
    let mut out = [0u8; 1024];
    let answers: [(&str, &[u8]); 2] = [
        ("resolution", br#"{"resolution":"Duplicate"}"#),
        ("duplicate_of", br#"{"duplicateOfId":4301}"#),
    ];
    for (id, (reply, (key, content))) in [work_item::ROUND_1, work_item::ROUND_2]
        .into_iter()
        .zip(answers)
        .enumerate()
    {
        call.write_request(id as i64 + 1, &mut out)?;
        call.feed(reply.as_bytes())?;
        let answer = Answer::Elicit {
            action: ElicitAction::Accept,
            content: Some(content),
        };
        call.answer(key, answer)?;
    }
    call.write_request(3, &mut out)?;
    match call.feed(work_item::DONE.as_bytes())? {
        Event::Complete(_) => Ok(()),
        other => panic!("{other:?}"),
    }
}

/// The raw `inputRequests` of a recorded reply.
fn raw_inputs(reply: &str) -> usize {
    let doc = crate::json::parse(reply.as_bytes()).unwrap();
    let result = doc.as_object().unwrap().get("result").unwrap();
    let ir = result.as_object().unwrap().get("inputRequests").unwrap();
    ir.raw().len()
}

/// The work-item flow needs, region by region, exactly its high-water mark;
/// one byte less in any region fails with that region's error.
#[test]
fn the_work_item_flow_fits_in_a_workspace_sized_to_its_high_water_marks() {
    let params = work_item_params_prefix().len() + 1;
    let inputs = raw_inputs(work_item::ROUND_1).max(raw_inputs(work_item::ROUND_2));
    let state = r#""eyJyZXNvbHV0aW9uIjoiRHVwbGljYXRlIn0...""#.len();
    let answers = r#"{"action":"accept","content":{"resolution":"Duplicate"}}"#.len();
    let mut tight = CallLimits {
        max_params_bytes: params,
        max_inputs_bytes: inputs,
        max_state_bytes: state,
        max_answers_bytes: answers,
        ..CallLimits::default()
    };
    tight.wire.max_input_requests = 1;
    assert_eq!((params, inputs, state, answers), (320, 572, 40, 56));
    assert_eq!(Call::workspace_size(&tight), 994 + 17);
    assert_eq!(run_work_item(tight), Ok(()));
    let less = |f: fn(&mut CallLimits)| {
        let mut l = tight;
        f(&mut l);
        run_work_item(l)
    };
    assert_eq!(
        less(|l| l.max_params_bytes -= 1),
        Err(CallError::ParamsTooLarge {
            needed: 320,
            limit: 319
        })
    );
    assert_eq!(
        less(|l| l.max_inputs_bytes -= 1),
        Err(CallError::InputsTooLarge {
            needed: 572,
            limit: 571
        })
    );
    assert_eq!(
        less(|l| l.max_state_bytes -= 1),
        Err(CallError::StateTooLarge {
            needed: 40,
            limit: 39
        })
    );
    assert_eq!(
        less(|l| l.max_answers_bytes -= 1),
        Err(CallError::AnswersTooLarge {
            needed: 56,
            limit: 55
        })
    );
    // The default limits, for comparison.
    assert_eq!(Call::workspace_size(&CallLimits::default()), 54_720);
}

/// `Call::workspace_size` is a `const fn`: firmware sizes a `static`
/// workspace at compile time (examples/cortex-m does) from `const` limits.
#[test]
fn the_workspace_size_is_known_at_compile_time() {
    use crate::json::{ParseLimits, DEFAULT_MAX_DEPTH, DEFAULT_MAX_MESSAGE_BYTES};
    use crate::wire::{WireLimits, DEFAULT_MAX_KEY_BYTES};
    const WORK_ITEM_LIMITS: CallLimits = CallLimits {
        wire: WireLimits {
            json: ParseLimits {
                max_depth: DEFAULT_MAX_DEPTH,
                max_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            },
            max_input_requests: 1,
            max_key_bytes: DEFAULT_MAX_KEY_BYTES,
        },
        max_params_bytes: 320,
        max_inputs_bytes: 572,
        max_state_bytes: 40,
        max_answers_bytes: 56,
        max_rounds: 10,
        max_state_only_rounds: 3,
        backoff_initial_ms: 50,
        backoff_max_ms: 250,
        max_polls: 100_000,
        default_poll_ms: 1_000,
        min_poll_ms: 100,
        max_poll_ms: 60_000,
    };
    const BYTES: usize = Call::workspace_size(&WORK_ITEM_LIMITS);
    static WORKSPACE: [u8; BYTES] = [0; BYTES];
    assert_eq!(WORKSPACE.len(), 1_011);
    const NO_INPUTS: CallLimits = CallLimits {
        wire: WireLimits {
            max_input_requests: 0,
            ..WORK_ITEM_LIMITS.wire
        },
        ..WORK_ITEM_LIMITS
    };
    const UNUSABLE: usize = Call::workspace_size(&NO_INPUTS);
    assert_eq!(UNUSABLE, usize::MAX);
}

#[test]
fn a_rolling_upgrade_reasks_a_different_key_and_state_carries_the_first_answer() {
    let mut h = Harness::new(&tool_config(r#"{"name":"deploy"}"#, FORM));
    let mut call = h.call();
    let p = format!(
        r#"{{{},"name":"deploy""#,
        example_meta(r#"{"elicitation":{"form":{}}}"#)
    );
    let ask = |id: u32, keys: &[&str], state: Option<&str>| {
        let reqs: Vec<String> = keys
            .iter()
            .map(|k| format!(r#""{k}":{{"method":"elicitation/create","params":{{"message":"{k}?","requestedSchema":{{"type":"object","properties":{{"user":{{"type":"string"}}}}}}}}}}"#))
            .collect();
        let state = state.map_or(String::new(), |s| format!(r#","requestState":"{s}""#));
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"input_required","inputRequests":{{{}}}{state}}}}}"#,
            reqs.join(",")
        )
    };
    let login = |user: &str| format!(r#"{{"user":"{user}"}}"#);
    leg(&mut call, 1);
    // An old instance asks for two logins.
    let old = ask(1, &["github_login", "google_login"], None);
    assert_eq!(call.feed(old.as_bytes()), Ok(Event::InputRequired(2)));
    for (k, u) in [("github_login", "octocat"), ("google_login", "octo@gmail")] {
        let c = login(u);
        call.answer(
            k,
            Answer::Elicit {
                action: ElicitAction::Accept,
                content: Some(c.as_bytes()),
            },
        )
        .unwrap();
    }
    assert_eq!(
        leg(&mut call, 2),
        format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{p},"inputResponses":{{"github_login":{{"action":"accept","content":{{"user":"octocat"}}}},"google_login":{{"action":"accept","content":{{"user":"octo@gmail"}}}}}}}}}}"#
        )
    );
    // A new instance keeps github_login in its state and asks for microsoft_login.
    let new = ask(2, &["microsoft_login"], Some("github=octocat"));
    assert_eq!(call.feed(new.as_bytes()), Ok(Event::InputRequired(1)));
    assert_eq!(call.index_of("github_login"), Err(CallError::UnknownKey));
    let c = login("octo@outlook");
    call.answer(
        "microsoft_login",
        Answer::Elicit {
            action: ElicitAction::Accept,
            content: Some(c.as_bytes()),
        },
    )
    .unwrap();
    // Only the key asked now; the earlier answers are gone.
    assert_eq!(
        leg(&mut call, 3),
        format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{p},"inputResponses":{{"microsoft_login":{{"action":"accept","content":{{"user":"octo@outlook"}}}}}},"requestState":"github=octocat"}}}}"#
        )
    );
    let done = r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[]}}"#;
    assert_eq!(
        call.feed(done.as_bytes()),
        Ok(Event::Complete(
            br#"{"resultType":"complete","content":[]}"#
        ))
    );
}

#[test]
fn load_shedding_retries_with_state_only_after_a_doubling_backoff() {
    let mut h = Harness::new(&tool_config(
        r#"{"name":"crunch"}"#,
        ClientCapabilities::default(),
    ));
    let mut call = h.call();
    let p = format!(r#"{{{},"name":"crunch""#, example_meta("{}"));
    assert_eq!(
        leg(&mut call, 1),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{p}}}}}"#)
    );
    let shed = |id: i64, s: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"input_required","requestState":"{s}"}}}}"#
        )
    };
    for (id, state, backoff) in [(1, "s1", 50), (2, "s2", 100), (3, "s3", 200)] {
        let msg = shed(id, state);
        assert_eq!(call.feed(msg.as_bytes()), Ok(Event::RetryAfter(backoff)));
        assert_eq!(call.phase(), Phase::Ready);
        assert_eq!(call.input_count(), 0);
        assert_eq!(
            leg(&mut call, id + 1),
            format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{p},"requestState":"{state}"}}}}"#,
                id + 1
            )
        );
    }
    let done = r#"{"jsonrpc":"2.0","id":4,"result":{"resultType":"complete","content":[{"type":"text","text":"42"}]}}"#;
    assert!(matches!(call.feed(done.as_bytes()), Ok(Event::Complete(_))));
    assert_eq!(call.round(), 3);
}

#[test]
fn the_backoff_doubles_from_50_ms_to_a_250_ms_ceiling() {
    let l = CallLimits::default();
    let got: Vec<u32> = (1..=6).map(|n| l.backoff_ms(n)).collect();
    assert_eq!(got, [50, 100, 200, 250, 250, 250]);
    assert_eq!(l.backoff_ms(40), 250, "no overflow for long runs");
}

#[test]
fn the_client_must_echo_back_the_exact_value_of_request_state() {
    let mut h = Harness::new(&tool_config(r#"{"name":"t"}"#, FORM));
    let mut call = h.call();
    leg(&mut call, 1);
    let msg = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"a\/b\u00e9"}}"#;
    assert_eq!(call.feed(msg), Ok(Event::RetryAfter(50)));
    assert_eq!(call.request_state(), Some(&br#""a\/b\u00e9""#[..]));
    let out = leg(&mut call, 2);
    assert!(
        out.ends_with(r#""name":"t","requestState":"a\/b\u00e9"}}"#),
        "{out}"
    );
}

#[test]
fn answers_of_an_earlier_round_never_leak_into_a_later_one() {
    let mut h = Harness::new(&tool_config(r#"{"name":"t"}"#, FORM_AND_SAMPLING));
    let mut call = h.call();
    let p = format!(
        r#"{{{},"name":"t""#,
        example_meta(r#"{"elicitation":{"form":{}},"sampling":{}}"#)
    );
    let form = |k: &str| {
        format!(
            r#""{k}":{{"method":"elicitation/create","params":{{"message":"m","requestedSchema":{{"type":"object"}}}}}}"#
        )
    };
    leg(&mut call, 1);
    let r1 = format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","inputRequests":{{{},{}}},"requestState":"S1"}}}}"#,
        form("a"),
        form("b")
    );
    assert_eq!(call.feed(r1.as_bytes()), Ok(Event::InputRequired(2)));
    let yes = Answer::Elicit {
        action: ElicitAction::Accept,
        content: Some(br#"{"x":1}"#),
    };
    call.answer("a", yes).unwrap();
    call.answer(
        "b",
        Answer::Elicit {
            action: ElicitAction::Decline,
            content: None,
        },
    )
    .unwrap();
    leg(&mut call, 2);
    // Round 2 asks `a` again (a new question under the same key) and `c`,
    // without state: nothing from round 1 may come along.
    let r2 = format!(
        r#"{{"jsonrpc":"2.0","id":2,"result":{{"resultType":"input_required","inputRequests":{{{},{}}}}}}}"#,
        form("c"),
        form("a")
    );
    assert_eq!(call.feed(r2.as_bytes()), Ok(Event::InputRequired(2)));
    assert_eq!(call.request_state(), None);
    assert_eq!(call.answered_count(), 0);
    assert_eq!(call.answer_json(1), None);
    assert_eq!(
        call.write_request(3, &mut [0u8; 1024]),
        Err(CallError::Unanswered { index: 0 })
    );
    call.answer(
        "c",
        Answer::Elicit {
            action: ElicitAction::Cancel,
            content: None,
        },
    )
    .unwrap();
    assert_eq!(
        call.write_request(3, &mut [0u8; 1024]),
        Err(CallError::Unanswered { index: 1 }),
        "the re-asked key needs a fresh answer"
    );
    call.answer(
        "a",
        Answer::Elicit {
            action: ElicitAction::Accept,
            content: Some(br#"{"x":2}"#),
        },
    )
    .unwrap();
    assert_eq!(
        leg(&mut call, 3),
        format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{p},"inputResponses":{{"c":{{"action":"cancel"}},"a":{{"action":"accept","content":{{"x":2}}}}}}}}}}"#
        )
    );
    // Round 3 is state only: no inputResponses at all.
    let r3 =
        br#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"input_required","requestState":"S3"}}"#;
    assert_eq!(call.feed(r3), Ok(Event::RetryAfter(50)));
    assert_eq!(
        leg(&mut call, 4),
        format!(
            r#"{{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{p},"requestState":"S3"}}}}"#
        )
    );
}

#[test]
fn resend_after_a_transport_failure_uses_a_fresh_id_and_keeps_answers() {
    let mut h = Harness::new(&tool_config(r#"{"name":"t"}"#, FORM));
    let mut call = h.call();
    leg(&mut call, 1);
    let r1 = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object"}}}},"requestState":"S"}}"#;
    call.feed(r1).unwrap();
    call.answer(
        "k",
        Answer::Elicit {
            action: ElicitAction::Decline,
            content: None,
        },
    )
    .unwrap();
    let first = leg(&mut call, 2);
    let mut out = [0u8; 2048];
    assert_eq!(
        call.resend(2, &mut out),
        Err(CallError::IdNotFresh { id: 2, last: 2 })
    );
    let n = call.resend(7, &mut out).unwrap();
    let again = core::str::from_utf8(&out[..n]).unwrap();
    assert_eq!(again, first.replace("\"id\":2,", "\"id\":7,"));
    assert_eq!(call.in_flight_id(), Some(7));
    // The superseded request's late answer is not ours any more.
    let late = br#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[]}}"#;
    assert!(matches!(
        call.feed(late),
        Ok(Event::Unrelated(Unrelated::Message(Message::Result { .. })))
    ));
    assert_eq!(call.phase(), Phase::Sent);
    let done = br#"{"jsonrpc":"2.0","id":7,"result":{"resultType":"complete","content":[]}}"#;
    assert!(matches!(call.feed(done), Ok(Event::Complete(_))));
    assert_eq!(
        call.resend(8, &mut out),
        Err(CallError::WrongState(Phase::Done))
    );
}

use crate::client::call::CallError;
