//! Oracles shared by the targets: our JSON tree as a serde_json value, the
//! state machines' answers and their expected wire form, and the checks of
//! an emitted retry against what the server asked.

use mrtr_core::client::call::MAX_SAFE_ID;
use mrtr_core::client::call::{AnswerError, CallError, Phase};
use mrtr_core::client::{Answer, Flavor, FlowView};
use mrtr_core::json::{self, Kind, Object, Value};
use mrtr_core::wire::{
    parse_message, ElicitAction, Id, InputKind, InputRequest, Message, Root, WireLimits,
};
use serde_json::json;

use crate::Choices;

/// Our tree rebuilt as a serde_json value (serde_json keeps the last of
/// duplicate keys; so does this).
pub fn to_serde(v: Value<'_>) -> serde_json::Value {
    match v.kind() {
        Kind::Null => serde_json::Value::Null,
        Kind::Bool => serde_json::Value::Bool(v.as_bool().expect("bool")),
        Kind::Number => serde_json::from_slice(v.raw()).unwrap_or(serde_json::Value::Null),
        Kind::String => serde_json::Value::String(v.as_str().expect("string").chars().collect()),
        Kind::Array => {
            serde_json::Value::Array(v.as_array().expect("array").iter().map(to_serde).collect())
        }
        Kind::Object => {
            let mut m = serde_json::Map::new();
            for (k, val) in v.as_object().expect("object").iter() {
                m.insert(k.chars().collect(), to_serde(val));
            }
            serde_json::Value::Object(m)
        }
    }
}

/// The id for the next leg: the id of the next message to be fed when it is
/// a response with a usable number id (so recorded flows and vectors are
/// attributed to our request), else one past the last.
pub fn pick_id(next: Option<&[u8]>, last: Option<i64>) -> i64 {
    let floor = last.map_or(1, |l| l + 1);
    let named = next
        .and_then(|m| parse_message(m, &WireLimits::default()).ok())
        .and_then(|m| match m {
            Message::Result { id, .. } | Message::Error { id: Some(id), .. } => match id {
                Id::Number(n) => Some(n),
                _ => None,
            },
            _ => None,
        });
    match named {
        Some(n) if n >= floor && n.abs() <= MAX_SAFE_ID => n,
        _ => floor,
    }
}

/// What one round asked, read straight from the message that asked it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Round {
    /// Key tokens of `inputRequests`, as spelled, in document order (`None`
    /// when the result has no `inputRequests`).
    pub keys: Option<Vec<Vec<u8>>>,
    /// The `requestState` token, as spelled.
    pub state: Option<Vec<u8>>,
}

/// The `result` object of a response.
pub fn result_of(msg: &[u8]) -> Object<'_> {
    json::parse(msg)
        .expect("a message the machine accepted is JSON")
        .as_object()
        .and_then(|o| o.get("result"))
        .and_then(|r| r.as_object())
        .expect("a message the machine accepted has a result object")
}

/// The round a result asks for.
pub fn round_of(result: Object<'_>) -> Round {
    Round {
        keys: result.get("inputRequests").map(|r| {
            r.as_object()
                .expect("inputRequests is an object")
                .iter()
                .map(|(k, _)| k.raw_token().to_vec())
                .collect()
        }),
        state: result.get("requestState").map(|s| {
            s.as_str()
                .expect("requestState is a string")
                .raw_token()
                .to_vec()
        }),
    }
}

const ROOTS_TWO: &[Root<'static>] = &[
    Root {
        uri: "file:///home/u/proj",
        name: Some("proj \"main\""),
    },
    // A non-ASCII path percent-encoded, as a root URI must be: the raw
    // `file:///tmp/\u{e9}` is refused since every answer path checks roots
    // (issue 16).
    Root {
        uri: "file:///tmp/%C3%A9",
        name: None,
    },
];

const SAMPLING: &[u8] =
    br#"{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"m-1","stopReason":"endTurn"}"#;
const SAMPLING_JSON: &[u8] =
    br#"{ "model" : "m\u002d2", "role":"assistant","content":{"type":"text","text":"\ud83d\ude00"}}"#;
const CONTENT_EMPTY: &[u8] = b"{}";
const CONTENT: &[u8] = br#"{"name":"octocat","n":-1.5e3,"ok":true,"tags":["a","\u00e9"]}"#;
const ELICIT_JSON: &[u8] = br#"{"action":"accept","content":{"a":[1,2]},"_meta":{"k":null}}"#;
const URL_JSON: &[u8] = br#"{"action" : "decline"}"#;
const ROOTS_JSON: &[u8] = br#"{"roots":[{"uri":"file:///x","name":"x"}]}"#;

fn parsed(bytes: &[u8]) -> serde_json::Value {
    serde_json::from_slice(bytes).expect("fixture is JSON")
}

/// A valid answer for an input of `kind`, chosen by `ch`, and the bare
/// result it must appear as in `inputResponses`.
pub fn valid_answer(kind: InputKind, ch: &mut Choices<'_>) -> (Answer<'static>, serde_json::Value) {
    let elicit = |action: ElicitAction, content: Option<&'static [u8]>| {
        let mut v = json!({ "action": action.as_str() });
        if let Some(c) = content {
            v["content"] = parsed(c);
        }
        (Answer::Elicit { action, content }, v)
    };
    match (kind, ch.below(4)) {
        (InputKind::ElicitForm, 0) => elicit(ElicitAction::Accept, Some(CONTENT)),
        (InputKind::ElicitForm, 1) => elicit(ElicitAction::Accept, Some(CONTENT_EMPTY)),
        (InputKind::ElicitForm, 2) => (Answer::Json(ELICIT_JSON), parsed(ELICIT_JSON)),
        (InputKind::ElicitUrl, 0) => elicit(ElicitAction::Accept, None),
        (InputKind::ElicitUrl, 1) => (Answer::Json(URL_JSON), parsed(URL_JSON)),
        (InputKind::ElicitForm | InputKind::ElicitUrl, 3) => elicit(ElicitAction::Cancel, None),
        (InputKind::ElicitForm | InputKind::ElicitUrl, _) => elicit(ElicitAction::Decline, None),
        (InputKind::Sampling, 0 | 2) => (Answer::Sampling(SAMPLING), parsed(SAMPLING)),
        (InputKind::Sampling, _) => (Answer::Json(SAMPLING_JSON), parsed(SAMPLING_JSON)),
        (InputKind::Roots, 0) => (Answer::Roots(&[]), json!({ "roots": [] })),
        (InputKind::Roots, 1) => (
            Answer::Roots(ROOTS_TWO),
            json!({ "roots": [
                { "uri": "file:///home/u/proj", "name": "proj \"main\"" },
                { "uri": "file:///tmp/%C3%A9" }
            ] }),
        ),
        (InputKind::Roots, _) => (Answer::Json(ROOTS_JSON), parsed(ROOTS_JSON)),
    }
}

/// Whether the core's form check refuses `answer` for input `req` (as
/// `input_at` reads it): a form `accept` whose content the form does not
/// take (`AnswerError::FormContent`). A schema outside the subset judges
/// nothing. The harnesses then expect that refusal, the call unchanged,
/// and answer `decline` instead.
pub fn form_refuses(req: Option<InputRequest<'_>>, answer: &Answer<'_>) -> bool {
    use mrtr_core::client::form::ElicitForm;
    let schema = match req {
        Some(InputRequest::ElicitForm {
            requested_schema, ..
        }) => requested_schema,
        _ => return false,
    };
    let Ok(form) = ElicitForm::parse(schema) else {
        return false;
    };
    let content = match *answer {
        Answer::Elicit {
            action: ElicitAction::Accept,
            content: Some(c),
        } => json::parse(c).ok().and_then(|v| v.as_object()),
        Answer::Json(bytes) => json::parse(bytes)
            .ok()
            .and_then(|v| v.as_object())
            .and_then(|o| {
                let accept = o
                    .get("action")
                    .and_then(|a| a.as_str())
                    .is_some_and(|a| a.eq_str("accept"));
                if accept {
                    o.get("content").and_then(|c| c.as_object())
                } else {
                    None
                }
            }),
        _ => None,
    };
    content.is_some_and(|c| form.validate(c).is_err())
}

/// The `decline` answer and what the request must carry for it.
pub fn decline() -> (Answer<'static>, serde_json::Value) {
    (
        Answer::Elicit {
            action: ElicitAction::Decline,
            content: None,
        },
        json!({ "action": "decline" }),
    )
}

/// An answer of the wrong kind for `kind` (the machine must refuse it and
/// stay unchanged).
pub fn wrong_answer(kind: InputKind) -> Answer<'static> {
    match kind {
        InputKind::Roots | InputKind::Sampling => Answer::Elicit {
            action: ElicitAction::Decline,
            content: None,
        },
        InputKind::ElicitForm | InputKind::ElicitUrl => Answer::Roots(&[]),
    }
}

/// What the next emitted request must carry.
#[derive(Debug, Clone, Default)]
pub struct Expect {
    /// `inputResponses`: key tokens in the server's order with the bare
    /// results (`None`: no `inputResponses` member at all).
    pub responses: Option<Vec<(Vec<u8>, serde_json::Value)>>,
    /// The `requestState` token to echo byte for byte.
    pub state: Option<Vec<u8>>,
}

/// Checks a request's `inputResponses` and `requestState` members against
/// `expect`.
pub fn check_round_members(params: Object<'_>, expect: &Expect) {
    let responses = params
        .get_unique("inputResponses")
        .expect("inputResponses at most once");
    match (&expect.responses, responses) {
        (None, None) => {}
        (Some(want), Some(got)) => {
            let got: Vec<(Vec<u8>, serde_json::Value)> = got
                .as_object()
                .expect("inputResponses is an object")
                .iter()
                .map(|(k, v)| (k.raw_token().to_vec(), to_serde(v)))
                .collect();
            assert_eq!(
                &got, want,
                "inputResponses: keys as asked, answers as given"
            );
        }
        (want, got) => panic!(
            "inputResponses: want {want:?}, got {:?}",
            got.map(|g| String::from_utf8_lossy(g.raw()).into_owned())
        ),
    }
    let state = params
        .get_unique("requestState")
        .expect("requestState at most once")
        .map(|s| {
            s.as_str()
                .expect("requestState is a string")
                .raw_token()
                .to_vec()
        });
    assert_eq!(
        state.as_deref().map(String::from_utf8_lossy),
        expect.state.as_deref().map(String::from_utf8_lossy),
        "requestState echoed byte for byte iff the last round had one"
    );
}

/// Parses an emitted request: its id (a number), method and params.
pub fn request_parts<'a>(bytes: &'a [u8]) -> (i64, &'a [u8], Object<'a>) {
    let msg = parse_message(bytes, &WireLimits::default()).unwrap_or_else(|e| {
        panic!(
            "emitted request does not parse ({e:?}): {}",
            String::from_utf8_lossy(bytes)
        )
    });
    let Message::Request { id, method, params } = msg else {
        panic!("emitted message is not a request: {msg:?}");
    };
    let Id::Number(id) = id else {
        panic!("emitted request has a string id");
    };
    let params = params.expect("emitted request has params");
    params
        .check_unique_keys(usize::MAX)
        .expect("emitted params have unique keys");
    (id, method.raw_inner(), params)
}

/// The members of `params` other than the round's own, as (key, value)
/// bytes: they must be the same on every leg.
pub fn fixed_members(params: Object<'_>) -> Vec<(Vec<u8>, Vec<u8>)> {
    params
        .iter()
        .filter(|(k, _)| !k.eq_str("inputResponses") && !k.eq_str("requestState"))
        .map(|(k, v)| (k.raw_token().to_vec(), v.raw().to_vec()))
        .collect()
}

/// Answers every input of the round of a call or a task, in an order, by
/// key or index and with refused answers first as `ch` picks; `false` when
/// the answers did not fit (the flow then stays in `Answering` and the run
/// ends).
pub fn answer_all<F: Flavor>(
    call: &mut FlowView<'_, F>,
    ch: &mut Choices<'_>,
    expect: &mut Expect,
) -> bool {
    let n = call.input_count();
    let mut answers: Vec<Option<serde_json::Value>> = vec![None; n];
    let start = ch.below(n);
    for j in 0..n {
        let i = (start + j) % n;
        let (key, req) = call
            .input_at(i)
            .expect("every index below input_count reads");
        let key = key.chars().collect::<String>();
        let kind = req.kind();
        if ch.byte() & 0x80 != 0 {
            let before = call.answered_count();
            let e = call.answer_at(i, wrong_answer(kind)).unwrap_err();
            assert!(
                matches!(e, CallError::BadAnswer { index, .. } if index == i),
                "{e:?}"
            );
            assert_eq!(call.phase(), Phase::Answering);
            assert_eq!(call.answered_count(), before);
        }
        let (mut answer, mut want) = valid_answer(kind, ch);
        // A form accept the form does not take is refused by the core
        // (the call unchanged); the user declines instead.
        let refused = form_refuses(call.input_at(i).map(|(_, r)| r), &answer);
        if refused {
            let before = call.answered_count();
            let e = call.answer_at(i, answer).unwrap_err();
            assert!(
                matches!(e, CallError::BadAnswer { index, error: AnswerError::FormContent { .. } } if index == i),
                "{e:?}"
            );
            assert_eq!(call.phase(), Phase::Answering);
            assert_eq!(call.answered_count(), before);
            (answer, want) = decline();
        }
        let by_key = ch.flag();
        let r = if by_key {
            call.answer(&key, answer)
        } else {
            call.answer_at(i, answer)
        };
        match r {
            Ok(()) => answers[i] = Some(want),
            Err(CallError::AnswersTooLarge { needed, limit }) => {
                assert!(needed > limit);
                assert_eq!(call.phase(), Phase::Answering);
                return false;
            }
            Err(e) => panic!("valid answer {answer:?} for {kind:?} refused: {e:?}"),
        }
        // Answering twice is refused and changes nothing.
        if j == 0 && n > 1 {
            let again = call.answer_at(i, answer);
            assert_eq!(again, Err(CallError::AlreadyAnswered { index: i }));
        }
    }
    assert_eq!(call.phase(), Phase::Ready, "every input answered");
    let keys = expect
        .responses
        .take()
        .expect("an answering round has keys");
    expect.responses = Some(
        keys.into_iter()
            .zip(answers)
            .map(|((k, _), a)| (k, a.expect("answered")))
            .collect(),
    );
    true
}
