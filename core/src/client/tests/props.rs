//! Property: whatever a server sends (valid, invalid, other ids,
//! notifications, random bytes), the call never panics, every request it
//! emits obeys the retry rules (checked with the wire parser), and it ends
//! within its caps.

use super::*;
use crate::client::call::{Answer, Event, Phase};
use crate::wire::{parse_message, ElicitAction, InputKind, Message, Root, WireLimits};
use proptest::prelude::*;
use std::format;
use std::string::ToString;

/// Distinct keys (decoded), some spelled with escapes the call must echo.
const KEYS: [&str; 5] = ["a", "b", r"c\/x", r"d\u00e9", "e"];
/// `requestState` values, some with escapes.
const STATES: [&str; 4] = ["s1", r"a\/b\u00e9", r#"x\"y"#, "eyJ0IjoxfQ"];

#[derive(Debug, Clone)]
enum Reply {
    Complete,
    Ask {
        keys: Vec<(usize, u8)>,
        state: Option<usize>,
    },
    StateOnly(usize),
    RpcError,
    OtherId(i64),
    StringId,
    Notification,
    ServerRequest,
    NullIdError,
    Garbage(Vec<u8>),
    OursMalformed,
    Undeclared,
    Neither,
    UnknownType,
    TaskResult,
    Resend,
}

fn reply() -> impl Strategy<Value = Reply> {
    let ask = (
        proptest::sample::subsequence((0..KEYS.len()).collect::<Vec<_>>(), 1..=KEYS.len()),
        proptest::collection::vec(0u8..3, KEYS.len()),
        proptest::option::of(0..STATES.len()),
    )
        .prop_map(|(idx, kinds, state)| Reply::Ask {
            keys: idx.into_iter().map(|i| (i, kinds[i])).collect(),
            state,
        });
    prop_oneof![
        3 => Just(Reply::Complete),
        10 => ask,
        5 => (0..STATES.len()).prop_map(Reply::StateOnly),
        1 => Just(Reply::RpcError),
        2 => (1i64..5).prop_map(Reply::OtherId),
        1 => Just(Reply::StringId),
        2 => Just(Reply::Notification),
        1 => Just(Reply::ServerRequest),
        1 => Just(Reply::NullIdError),
        1 => proptest::collection::vec(any::<u8>(), 0..40).prop_map(Reply::Garbage),
        1 => Just(Reply::OursMalformed),
        1 => Just(Reply::Undeclared),
        1 => Just(Reply::Neither),
        1 => Just(Reply::UnknownType),
        1 => Just(Reply::TaskResult),
        2 => Just(Reply::Resend),
    ]
}

fn request_json(kind: u8) -> &'static str {
    match kind {
        0 => {
            r#"{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object"}}}"#
        }
        1 => r#"{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":10}}"#,
        _ => r#"{"method":"roots/list"}"#,
    }
}

fn render(reply: &Reply, ours: i64) -> Vec<u8> {
    let result = |r: &str| format!(r#"{{"jsonrpc":"2.0","id":{ours},"result":{r}}}"#);
    let s = match reply {
        Reply::Complete => result(r#"{"resultType":"complete","content":[]}"#),
        Reply::Ask { keys, state } => {
            let reqs: Vec<String> = keys
                .iter()
                .map(|&(k, kind)| format!(r#""{}":{}"#, KEYS[k], request_json(kind)))
                .collect();
            let st = state.map_or(String::new(), |s| format!(r#","requestState":"{}""#, STATES[s]));
            result(&format!(
                r#"{{"resultType":"input_required","inputRequests":{{{}}}{st}}}"#,
                reqs.join(",")
            ))
        }
        Reply::StateOnly(s) => result(&format!(
            r#"{{"resultType":"input_required","requestState":"{}"}}"#,
            STATES[*s]
        )),
        Reply::RpcError => format!(
            r#"{{"jsonrpc":"2.0","id":{ours},"error":{{"code":-32603,"message":"boom"}}}}"#
        ),
        Reply::OtherId(d) => format!(
            r#"{{"jsonrpc":"2.0","id":{},"result":{{"resultType":"complete"}}}}"#,
            ours + d
        ),
        Reply::StringId => format!(r#"{{"jsonrpc":"2.0","id":"{ours}","result":{{}}}}"#),
        Reply::Notification => {
            r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}"#.into()
        }
        Reply::ServerRequest => {
            format!(r#"{{"jsonrpc":"2.0","id":{ours},"method":"roots/list"}}"#)
        }
        Reply::NullIdError => {
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#.into()
        }
        Reply::Garbage(b) => return b.clone(),
        Reply::OursMalformed => format!(r#"{{"jsonrpc":"2.0","id":{ours},"result":[]}}"#),
        Reply::Undeclared => result(
            r#"{"resultType":"input_required","inputRequests":{"u":{"method":"elicitation/create","params":{"mode":"url","message":"m","url":"https://x.example"}}}}"#,
        ),
        Reply::Neither => result(r#"{"resultType":"input_required"}"#),
        Reply::UnknownType => result(r#"{"resultType":"later"}"#),
        Reply::TaskResult => result(r#"{"resultType":"task","taskId":"t","status":"working"}"#),
        Reply::Resend => String::new(),
    };
    s.into_bytes()
}

/// What the next emitted request must carry.
#[derive(Debug, Default, Clone)]
struct Expect {
    keys: Option<Vec<Vec<u8>>>,
    state: Option<Vec<u8>>,
}

/// Checks one emitted request against the rules; returns its id.
fn check_request(
    bytes: &[u8],
    expect: &Expect,
    prev_id: Option<i64>,
) -> Result<i64, TestCaseError> {
    let msg = parse_message(bytes, &WireLimits::default())
        .map_err(|e| TestCaseError::fail(format!("unparseable request {e:?}")))?;
    let Message::Request { id, method, params } = msg else {
        return Err(TestCaseError::fail("not a request"));
    };
    prop_assert!(method.eq_str("tools/call"));
    let crate::wire::Id::Number(id) = id else {
        return Err(TestCaseError::fail("string id"));
    };
    if let Some(p) = prev_id {
        prop_assert!(id > p, "id {id} not fresh after {p}");
    }
    let params = params.ok_or_else(|| TestCaseError::fail("no params"))?;
    let meta = params
        .get_unique("_meta")
        .unwrap()
        .unwrap()
        .as_object()
        .unwrap();
    prop_assert!(meta
        .get("io.modelcontextprotocol/protocolVersion")
        .unwrap()
        .as_str()
        .unwrap()
        .eq_str("2026-07-28"));
    prop_assert!(params.get_unique("name").unwrap().is_some());
    let responses = params.get_unique("inputResponses").unwrap();
    match (&expect.keys, responses) {
        (None, None) => {}
        (Some(keys), Some(r)) => {
            let got: Vec<Vec<u8>> = r
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, _)| k.raw_token().to_vec())
                .collect();
            prop_assert_eq!(&got, keys);
        }
        (e, got) => {
            return Err(TestCaseError::fail(format!(
                "inputResponses {e:?} vs {got:?}"
            )))
        }
    }
    let state = params
        .get_unique("requestState")
        .unwrap()
        .map(|v| v.as_str().unwrap().raw_token().to_vec());
    prop_assert_eq!(&state, &expect.state);
    Ok(id)
}

fn answer_all(call: &mut Call<'_>) {
    let roots = [Root {
        uri: "file:///w",
        name: None,
    }];
    for i in 0..call.input_count() {
        let kind = call.input_at(i).unwrap().1.kind();
        let answer = match kind {
            InputKind::ElicitForm => Answer::Elicit {
                action: ElicitAction::Accept,
                content: Some(br#"{"v":1}"#),
            },
            InputKind::Sampling => Answer::Sampling(
                br#"{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}"#,
            ),
            InputKind::Roots => Answer::Roots(&roots),
            InputKind::ElicitUrl => Answer::Elicit {
                action: ElicitAction::Accept,
                content: None,
            },
        };
        call.answer_at(i, answer).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 1024 }))]

    #[test]
    fn any_server_sequence_keeps_every_retry_rule_and_ends_within_the_caps(
        replies in proptest::collection::vec(reply(), 0..48)
    ) {
        let caps = ClientCapabilities {
            elicitation_form: true,
            sampling: true,
            roots: true,
            ..ClientCapabilities::default()
        };
        let mut h = Harness::new(&tool_config(r#"{"name":"t","arguments":{"q":[1,2]}}"#, caps));
        let mut call = h.call();
        let limits = *call.limits();
        let mut out = vec![0u8; 1 << 14];
        let mut next_id = 1i64;
        let mut prev_id = None;
        let mut writes = 0u32;
        let mut expect = Expect::default();
        let mut last_sent: Vec<u8> = Vec::new();
        let mut replies = replies.into_iter();
        loop {
            match call.phase() {
                Phase::Answering => {
                    answer_all(&mut call);
                    prop_assert_eq!(call.phase(), Phase::Ready);
                }
                Phase::Ready => {
                    let n = call.write_request(next_id, &mut out).unwrap();
                    prev_id = Some(check_request(&out[..n], &expect, prev_id)?);
                    last_sent = out[..n].to_vec();
                    next_id += 1;
                    writes += 1;
                    prop_assert!(writes <= limits.max_rounds + 1);
                }
                Phase::Sent => {
                    let Some(r) = replies.next() else { break };
                    let ours = call.in_flight_id().unwrap();
                    if let Reply::Resend = r {
                        let n = call.resend(next_id, &mut out).unwrap();
                        prev_id = Some(check_request(&out[..n], &expect, prev_id)?);
                        let old = format!("\"id\":{ours},");
                        let new = format!("\"id\":{next_id},");
                        let expected = String::from_utf8(last_sent.clone()).unwrap().replacen(&old, &new, 1);
                        prop_assert_eq!(&out[..n], expected.as_bytes());
                        last_sent = out[..n].to_vec();
                        next_id += 1;
                        continue;
                    }
                    let bytes = render(&r, ours);
                    let ev = call.feed(&bytes);
                    match (&r, ev) {
                        (Reply::Ask { keys, state }, Ok(Event::InputRequired(n))) => {
                            prop_assert_eq!(n, keys.len());
                            expect.keys = Some(keys.iter().map(|&(k, _)| format!("\"{}\"", KEYS[k]).into_bytes()).collect());
                            expect.state = state.map(|s| format!("\"{}\"", STATES[s]).into_bytes());
                        }
                        (Reply::StateOnly(s), Ok(Event::RetryAfter(ms))) => {
                            prop_assert!((limits.backoff_initial_ms..=limits.backoff_max_ms).contains(&ms));
                            expect.keys = None;
                            expect.state = Some(format!("\"{}\"", STATES[*s]).into_bytes());
                        }
                        (_, Ok(Event::Unrelated(_))) => prop_assert_eq!(call.phase(), Phase::Sent),
                        (Reply::Complete, Ok(Event::Complete(_))) | (Reply::RpcError, Ok(Event::RpcError(_))) => {
                            prop_assert_eq!(call.phase(), Phase::Done);
                        }
                        (_, Ok(other)) => return Err(TestCaseError::fail(format!("{r:?} gave {other:?}"))),
                        (_, Err(e)) => {
                            prop_assert!(e.is_terminal(), "{e:?}");
                            prop_assert_eq!(call.phase(), Phase::Failed);
                            prop_assert_eq!(call.error(), Some(e));
                        }
                    }
                }
                Phase::Done | Phase::Failed => break,
            }
        }
        prop_assert!(call.round() <= limits.max_rounds + 1);
    }
}

/// Task-shaped replies, valid and not, for either dialect.
fn task_reply() -> impl Strategy<Value = String> {
    let status = prop_oneof![
        Just("working"),
        Just("input_required"),
        Just("completed"),
        Just("failed"),
        Just("cancelled"),
        Just("Working"),
        Just("paused"),
    ];
    let extra = prop_oneof![
        Just(""),
        Just(r#","pollIntervalMs":0"#),
        Just(r#","pollInterval":5000000000"#),
        Just(r#","inputRequests":{"k":{"method":"roots/list"}}"#),
        Just(
            r#","inputRequests":{"u":{"method":"elicitation/create","params":{"mode":"url","message":"m","url":"https://x"}}}"#
        ),
        Just(r#","result":{"content":[]}"#),
        Just(r#","error":{"code":1,"message":"m"}"#),
        Just(r#","requestState":"s""#),
    ];
    let result_type = prop_oneof![
        Just(""),
        Just(r#""resultType":"complete","#),
        Just(r#""resultType":"input_required","#),
        Just(r#""resultType":"task","#),
    ];
    let task_id = prop_oneof![Just("t"), Just(r"\u0074"), Just("other")];
    prop_oneof![
        8 => (result_type, task_id, status, extra).prop_map(|(rt, id, st, ex)| {
            format!(r#"{{"jsonrpc":"2.0","id":ID,"result":{{{rt}"taskId":"{id}","status":"{st}"{ex}}}}}"#)
        }),
        2 => Just(r#"{"jsonrpc":"2.0","id":ID,"result":{"resultType":"input_required","inputRequests":{"k":{"method":"roots/list"}},"requestState":"s"}}"#.to_string()),
        1 => Just(r#"{"jsonrpc":"2.0","id":ID,"result":{}}"#.to_string()),
        1 => Just(r#"{"jsonrpc":"2.0","id":ID,"error":{"code":-1,"message":"no"}}"#.to_string()),
        1 => Just(r#"{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{}}"#.to_string()),
        1 => proptest::collection::vec(any::<u8>(), 0..24)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 512 }))]

    #[test]
    fn any_task_reply_sequence_ends_within_polls_and_rounds(
        seed in any::<bool>(),
        replies in proptest::collection::vec(task_reply(), 0..64)
    ) {
        let dialect = if seed { crate::wire::TaskDialect::Seed } else { crate::wire::TaskDialect::Extension };
        let limits = crate::client::call::CallLimits {
            max_polls: 5,
            max_rounds: 3,
            ..Default::default()
        };
        let caps = ClientCapabilities { roots: true, tasks: true, ..ClientCapabilities::default() };
        let mut th = TaskHarness::new(&TaskConfig { caps, limits, ..TaskConfig::new(dialect, "t") });
        let mut task = th.task();
        let mut out = vec![0u8; 4096];
        let roots = [Root { uri: "file:///w", name: None }];
        let mut id = 0i64;
        let mut writes = 0u32;
        let mut replies = replies.into_iter();
        loop {
            match task.phase() {
                Phase::Ready => {
                    id += 1;
                    let n = task.write_request(id, &mut out).unwrap();
                    prop_assert!(parse_message(&out[..n], &WireLimits::default()).is_ok());
                    writes += 1;
                    // Gets are capped by max_polls, the rest by rounds (two
                    // requests per round in the seed dialect) plus the end.
                    prop_assert!(writes <= 5 + 2 * 3 + 2, "{writes} writes");
                    prop_assert!(task.polls() <= 5);
                }
                Phase::Answering => {
                    for i in 0..task.input_count() {
                        task.answer_at(i, Answer::Roots(&roots)).unwrap();
                    }
                }
                Phase::Sent => {
                    let Some(r) = replies.next() else { break };
                    let bytes = r.replace("ID", &format!("{id}"));
                    match task.feed(bytes.as_bytes()) {
                        Ok(_) => {}
                        Err(e) => {
                            prop_assert!(e.is_terminal(), "{e:?}");
                            prop_assert_eq!(task.phase(), Phase::Failed);
                        }
                    }
                }
                Phase::Done | Phase::Failed => break,
            }
        }
        prop_assert!(task.round() <= 4);
    }
}
