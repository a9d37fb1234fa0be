//! Restore checks every invariant a live call or task holds, with one check
//! for both (`SaveError::Invariant`). Saves are untrusted input: these are
//! valid saves re-encoded with one field changed, as a tampered file or a
//! buggy writer would produce them.
//!
//! The defect this pins (issue 16): a call saved as `Sent` with its round
//! only partly answered restored, and `resend` then wrote a retry missing
//! answers (the task restore already refused it).
#![cfg(feature = "client")]

use mrtr_core::client::call::{AnswerError, SaveError, SaveInvariant, SaveRegion, MAX_SAFE_ID};
use mrtr_core::client::{
    Answer, Call, CallConfig, CallError, CallLimits, CallMethod, CallSlot, Event, Phase, Task,
    TaskConfig, TaskSlot,
};
use mrtr_core::wire::{ClientCapabilities, ElicitAction, TaskDialect};
use serde::{Deserialize, Serialize};

/// The save record, field for field (client/persist.rs `Saved`).
#[derive(Serialize, Deserialize, Clone)]
struct Saved {
    magic: [u8; 4],
    version: u8,
    kind: u8,
    phase: u8,
    variant: u8,
    next: u8,
    flags: u8,
    rounds: u32,
    state_only: u32,
    polls: u32,
    poll_ms: u64,
    last_id: Option<i64>,
    in_flight: Option<i64>,
    head_split: u32,
    #[serde(with = "serde_bytes_compat")]
    head: Vec<u8>,
    #[serde(with = "serde_bytes_compat")]
    inputs: Vec<u8>,
    #[serde(with = "serde_bytes_compat")]
    state: Vec<u8>,
    #[serde(with = "serde_bytes_compat")]
    answers: Vec<u8>,
}

/// postcard writes `&[u8]` as a varint length and the bytes, as for a
/// `Vec<u8>` of bytes; this keeps the mirror's encoding identical.
mod serde_bytes_compat {
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(v)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        <&[u8]>::deserialize(d).map(<[u8]>::to_vec)
    }
}

const SENT: u8 = 2;
const READY: u8 = 1;
const ANSWERING: u8 = 3;

const CAPS: ClientCapabilities = ClientCapabilities {
    elicitation_form: true,
    elicitation_url: false,
    sampling: true,
    sampling_tools: false,
    sampling_context: false,
    roots: false,
    tasks: true,
};

const TWO_QUESTIONS: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"name":{"method":"elicitation/create","params":{"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}},"capital":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Capital of France?"}}],"maxTokens":10}}},"requestState":"st"}}"#;

fn decode(bytes: &[u8]) -> Saved {
    let (s, rest) = postcard::take_from_bytes::<Saved>(bytes).expect("a save");
    assert!(rest.is_empty());
    s
}

fn encode(s: &Saved) -> Vec<u8> {
    let mut out = vec![0u8; 1 << 15];
    let n = postcard::to_slice(s, &mut out).expect("encode").len();
    out.truncate(n);
    out
}

/// A call answering TWO_QUESTIONS with only `name` answered, saved.
fn call_partly_answered() -> Vec<u8> {
    let config = CallConfig {
        caps: CAPS,
        ..CallConfig::new(CallMethod::ToolsCall, br#"{"name":"t"}"#)
    };
    let mut st = CallSlot::default();
    let mut buf = vec![0u8; Call::workspace_size(&config.limits)];
    Call::init(&mut st, &mut buf, &config).unwrap();
    let mut call = Call::attach(&mut st, &mut buf).unwrap();
    let mut out = vec![0u8; 1 << 14];
    call.write_request(1, &mut out).unwrap();
    assert_eq!(
        call.feed(TWO_QUESTIONS.as_bytes()),
        Ok(Event::InputRequired(2))
    );
    call.answer(
        "name",
        Answer::Elicit {
            action: ElicitAction::Accept,
            content: Some(br#"{"name":"Ada"}"#),
        },
    )
    .unwrap();
    let mut save = vec![0u8; 1 << 14];
    let n = call.save(&mut save).unwrap();
    save.truncate(n);
    save
}

fn restore_call(bytes: &[u8]) -> Result<Phase, CallError> {
    restore_call_under(&CallLimits::default(), bytes)
}

fn restore_call_under(limits: &CallLimits, bytes: &[u8]) -> Result<Phase, CallError> {
    let limits = *limits;
    let mut st = CallSlot::default();
    let mut buf = vec![0u8; Call::workspace_size(&limits)];
    Call::restore(&mut st, &mut buf, &limits, bytes).map(|c| c.phase())
}

fn invariant(i: SaveInvariant) -> Result<Phase, CallError> {
    Err(CallError::BadSave(SaveError::Invariant(i)))
}

#[test]
fn the_genuine_save_restores_answering() {
    let save = call_partly_answered();
    assert_eq!(decode(&save).phase, ANSWERING);
    assert_eq!(restore_call(&save), Ok(Phase::Answering));
    // The mirror re-encodes it byte for byte.
    assert_eq!(encode(&decode(&save)), save);
}

#[test]
fn a_call_saved_sent_with_a_round_partly_answered_is_refused() {
    let mut s = decode(&call_partly_answered());
    s.phase = SENT;
    s.last_id = Some(2);
    s.in_flight = Some(2);
    assert_eq!(
        restore_call(&encode(&s)),
        invariant(SaveInvariant::PartlyAnswered {
            answered: 1,
            inputs: 2
        })
    );
    // Saved ready with the same partial round: the same invariant.
    s.phase = READY;
    assert_eq!(
        restore_call(&encode(&s)),
        invariant(SaveInvariant::PartlyAnswered {
            answered: 1,
            inputs: 2
        })
    );
}

#[test]
fn sent_needs_the_last_request_in_flight() {
    let mut s = decode(&call_partly_answered());
    s.phase = SENT;
    s.in_flight = None;
    assert_eq!(
        restore_call(&encode(&s)),
        invariant(SaveInvariant::SentWithoutRequest)
    );
    s.last_id = Some(5);
    s.in_flight = Some(4);
    assert_eq!(
        restore_call(&encode(&s)),
        invariant(SaveInvariant::InFlightNotLast)
    );
}

#[test]
fn answering_needs_inputs() {
    let mut s = decode(&call_partly_answered());
    s.inputs.clear();
    s.answers.clear();
    s.state.clear();
    assert_eq!(
        restore_call(&encode(&s)),
        invariant(SaveInvariant::AnsweringWithoutInputs)
    );
}

/// A task saved answering its round (extension dialect), partly answered.
fn task_partly_answered() -> Vec<u8> {
    let config = TaskConfig {
        caps: CAPS,
        ..TaskConfig::new(TaskDialect::Extension, "task-1")
    };
    let mut st = TaskSlot::default();
    let mut buf = vec![0u8; Task::workspace_size(&config.limits)];
    Task::init(&mut st, &mut buf, &config).unwrap();
    let mut task = Task::attach(&mut st, &mut buf).unwrap();
    let mut out = vec![0u8; 1 << 14];
    task.write_request(1, &mut out).unwrap();
    let status = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","taskId":"task-1","status":"input_required","createdAt":"2026-07-28T00:00:00Z","lastUpdatedAt":"2026-07-28T00:00:00Z","ttlMs":60000,"inputRequests":{"name":{"method":"elicitation/create","params":{"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}},"capital":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Capital?"}}],"maxTokens":10}}}}}"#;
    task.feed(status.as_bytes()).expect("input_required status");
    task.answer(
        "name",
        Answer::Elicit {
            action: ElicitAction::Accept,
            content: Some(br#"{"name":"Ada"}"#),
        },
    )
    .unwrap();
    let mut save = vec![0u8; 1 << 14];
    let n = task.save(&mut save).unwrap();
    save.truncate(n);
    save
}

fn restore_task(bytes: &[u8]) -> Result<Phase, CallError> {
    let limits = CallLimits::default();
    let mut st = TaskSlot::default();
    let mut buf = vec![0u8; Task::workspace_size(&limits)];
    Task::restore(&mut st, &mut buf, &limits, bytes).map(|t| t.phase())
}

#[test]
fn a_task_breaks_the_same_invariants_with_the_same_errors() {
    let save = task_partly_answered();
    let genuine = decode(&save);
    assert_eq!(genuine.phase, ANSWERING);
    assert_eq!(restore_task(&save), Ok(Phase::Answering));
    let mut s = genuine.clone();
    s.phase = SENT;
    s.last_id = Some(2);
    s.in_flight = Some(2);
    assert_eq!(
        restore_task(&encode(&s)),
        invariant(SaveInvariant::PartlyAnswered {
            answered: 1,
            inputs: 2
        })
    );
    s.in_flight = None;
    assert_eq!(
        restore_task(&encode(&s)),
        invariant(SaveInvariant::SentWithoutRequest)
    );
    s.in_flight = Some(1);
    assert_eq!(
        restore_task(&encode(&s)),
        invariant(SaveInvariant::InFlightNotLast)
    );
}

#[test]
fn invariant_errors_say_what_is_wrong() {
    assert_eq!(
        SaveError::Invariant(SaveInvariant::PartlyAnswered {
            answered: 1,
            inputs: 2
        })
        .to_string(),
        "save breaks an invariant: a retry with the round partly answered: 1 of 2 inputs"
    );
}

/// `s` re-encoded, restored as a call.
fn call_with(s: &Saved) -> Result<Phase, CallError> {
    restore_call(&encode(s))
}

/// An answer record: the input's index (u16 LE), the length (u32 LE), the
/// body.
fn record(index: u16, body: &[u8]) -> Vec<u8> {
    let mut r = index.to_le_bytes().to_vec();
    r.extend_from_slice(&u32::try_from(body.len()).unwrap().to_le_bytes());
    r.extend_from_slice(body);
    r
}

#[test]
fn codes_a_save_cannot_hold_are_named() {
    let genuine = decode(&call_partly_answered());
    let mut s = genuine.clone();
    s.phase = 9;
    assert_eq!(call_with(&s), invariant(SaveInvariant::UnknownPhase(9)));
    s.phase = 4; // Done: never saved
    assert_eq!(call_with(&s), invariant(SaveInvariant::UnknownPhase(4)));
    let mut s = genuine.clone();
    s.variant = 7;
    assert_eq!(call_with(&s), invariant(SaveInvariant::UnknownVariant(7)));
}

#[test]
fn regions_must_fit_the_limits_restored_under() {
    let save = call_partly_answered();
    let genuine = decode(&save);
    let small = |f: fn(&mut CallLimits)| {
        let mut l = CallLimits::default();
        f(&mut l);
        restore_call_under(&l, &save)
    };
    assert_eq!(
        small(|l| l.max_params_bytes = 10),
        invariant(SaveInvariant::TooLarge {
            region: SaveRegion::Head,
            len: genuine.head.len(),
            limit: 10
        })
    );
    assert_eq!(
        small(|l| l.max_inputs_bytes = 100),
        invariant(SaveInvariant::TooLarge {
            region: SaveRegion::Inputs,
            len: genuine.inputs.len(),
            limit: 100
        })
    );
    // The request-state token `"st"` is 4 bytes, quotes included.
    assert_eq!(genuine.state, br#""st""#);
    assert_eq!(
        small(|l| l.max_state_bytes = 3),
        invariant(SaveInvariant::TooLarge {
            region: SaveRegion::State,
            len: 4,
            limit: 3
        })
    );
    assert_eq!(
        small(|l| l.max_answers_bytes = 10),
        invariant(SaveInvariant::TooLarge {
            region: SaveRegion::Answers,
            len: genuine.answers.len() - 6,
            limit: 10
        })
    );
    assert_eq!(
        small(|l| l.max_rounds = 0),
        invariant(SaveInvariant::TooManyRounds {
            rounds: 1,
            limit: 0
        })
    );
}

#[test]
fn every_region_is_checked_as_untrusted_input() {
    let genuine = decode(&call_partly_answered());
    let with = |f: &dyn Fn(&mut Saved)| {
        let mut s = genuine.clone();
        f(&mut s);
        call_with(&s)
    };
    // Params without the target, or with trailing bytes.
    assert_eq!(
        with(&|s| s.head = b"{}".to_vec()),
        invariant(SaveInvariant::BadHead)
    );
    assert_eq!(
        with(&|s| s.head.push(b' ')),
        invariant(SaveInvariant::BadHead)
    );
    // Inputs: not a map, an empty map, a kind the call did not declare.
    assert_eq!(
        with(&|s| s.inputs = b"[]".to_vec()),
        invariant(SaveInvariant::BadInputs)
    );
    assert_eq!(
        with(&|s| {
            s.inputs = b"{}".to_vec();
            s.answers.clear();
        }),
        invariant(SaveInvariant::BadInputs)
    );
    assert_eq!(
        with(&|s| {
            s.inputs = br#"{"r":{"method":"roots/list"}}"#.to_vec();
            s.answers.clear();
        }),
        invariant(SaveInvariant::UndeclaredInput)
    );
    assert_eq!(
        with(&|s| s.state = b"12".to_vec()),
        invariant(SaveInvariant::BadRequestState)
    );
    // Answers: broken framing, a key not asked, a key twice, an answer
    // the call would refuse.
    assert_eq!(
        with(&|s| {
            s.answers.pop();
        }),
        invariant(SaveInvariant::BadAnswerRecord)
    );
    assert_eq!(
        with(&|s| s.answers[0] = 5),
        invariant(SaveInvariant::AnswerKeyNotAsked { index: 5 })
    );
    assert_eq!(
        with(&|s| s.answers = [s.answers.clone(), s.answers.clone()].concat()),
        invariant(SaveInvariant::DuplicateAnswer { index: 0 })
    );
    assert_eq!(
        with(&|s| s.answers = record(0, br#"{"action":"accept"}"#)),
        invariant(SaveInvariant::BadAnswer {
            index: 0,
            error: AnswerError::ContentRequired
        })
    );
    // The sampling question answered with a duplicate member.
    assert_eq!(
        with(&|s| {
            s.answers = record(1, br#"{"role":"assistant","role":"user","content":{"type":"text","text":"Paris"},"model":"m"}"#)
        }),
        invariant(SaveInvariant::BadAnswer {
            index: 1,
            error: AnswerError::Duplicate { member: "role" }
        })
    );
}

#[test]
fn counters_and_ids_hold_what_a_live_call_holds() {
    let genuine = decode(&call_partly_answered());
    let with = |f: &dyn Fn(&mut Saved)| {
        let mut s = genuine.clone();
        f(&mut s);
        call_with(&s)
    };
    assert_eq!(
        with(&|s| s.rounds = 11),
        invariant(SaveInvariant::TooManyRounds {
            rounds: 11,
            limit: 10
        })
    );
    assert_eq!(
        with(&|s| s.rounds = 0),
        invariant(SaveInvariant::RoundNotCounted)
    );
    assert_eq!(
        with(&|s| s.state_only = 4),
        invariant(SaveInvariant::TooManyStateOnlyRounds { count: 4, limit: 3 })
    );
    assert_eq!(
        with(&|s| s.state_only = 1),
        invariant(SaveInvariant::StateOnlyWithInputs)
    );
    for bad in [MAX_SAFE_ID + 1, -MAX_SAFE_ID - 1, i64::MIN, i64::MAX] {
        assert_eq!(
            with(&|s| s.last_id = Some(bad)),
            invariant(SaveInvariant::IdOutOfRange(bad))
        );
    }
    // The top of the range is a live id.
    assert_eq!(
        with(&|s| s.last_id = Some(MAX_SAFE_ID)),
        Ok(Phase::Answering)
    );
    assert_eq!(
        with(&|s| s.in_flight = Some(1)),
        invariant(SaveInvariant::InFlightOutsideSent)
    );
    assert_eq!(
        with(&|s| {
            s.phase = SENT;
            s.last_id = None;
            s.in_flight = Some(1);
        }),
        invariant(SaveInvariant::InFlightNotLast)
    );
}

/// A fresh task (nothing asked yet), saved ready to poll.
fn task_fresh(dialect: TaskDialect, caps: ClientCapabilities) -> Vec<u8> {
    let config = TaskConfig {
        caps,
        ..TaskConfig::new(dialect, "task-1")
    };
    let mut st = TaskSlot::default();
    let mut buf = vec![0u8; Task::workspace_size(&config.limits)];
    let task = Task::init(&mut st, &mut buf, &config).unwrap();
    let mut save = vec![0u8; 1 << 14];
    let n = task.save(&mut save).unwrap();
    save.truncate(n);
    save
}

#[test]
fn a_task_holds_the_shared_invariants_and_its_own() {
    let genuine = decode(&task_partly_answered());
    let with = |f: &dyn Fn(&mut Saved)| {
        let mut s = genuine.clone();
        f(&mut s);
        restore_task(&encode(&s))
    };
    // Shared with calls, by the same check.
    assert_eq!(
        with(&|s| s.rounds = 0),
        invariant(SaveInvariant::RoundNotCounted)
    );
    assert_eq!(
        with(&|s| s.answers[0] = 2),
        invariant(SaveInvariant::AnswerKeyNotAsked { index: 2 })
    );
    assert_eq!(
        with(&|s| s.last_id = Some(i64::MIN)),
        invariant(SaveInvariant::IdOutOfRange(i64::MIN))
    );
    assert_eq!(
        with(&|s| s.inputs = b"[]".to_vec()),
        invariant(SaveInvariant::BadInputs)
    );
    // A task's own.
    assert_eq!(
        with(&|s| s.variant = 3),
        invariant(SaveInvariant::UnknownVariant(3))
    );
    assert_eq!(
        with(&|s| s.next = 9),
        invariant(SaveInvariant::UnknownNextRequest(9))
    );
    assert_eq!(
        with(&|s| s.head_split = 0),
        invariant(SaveInvariant::BadHead)
    );
    assert_eq!(
        with(&|s| s.next = 1),
        invariant(SaveInvariant::AnsweringOtherRequest)
    );
    assert_eq!(
        with(&|s| s.polls = 100_001),
        invariant(SaveInvariant::TooManyPolls {
            polls: 100_001,
            limit: 100_000
        })
    );
    assert_eq!(
        with(&|s| {
            s.phase = READY;
            s.inputs.clear();
            s.answers.clear();
        }),
        invariant(SaveInvariant::RespondWithoutInputs)
    );
    assert_eq!(
        with(&|s| {
            s.phase = READY;
            s.next = 4;
            s.inputs.clear();
            s.answers.clear();
        }),
        invariant(SaveInvariant::CancelNotSent)
    );
    // An extension task needs the Tasks extension declared.
    let no_tasks = ClientCapabilities {
        tasks: false,
        ..CAPS
    };
    let seed = task_fresh(TaskDialect::Seed, no_tasks);
    assert_eq!(restore_task(&seed), Ok(Phase::Ready));
    let mut s = decode(&seed);
    s.variant = 2;
    assert_eq!(
        restore_task(&encode(&s)),
        invariant(SaveInvariant::TasksNotDeclared)
    );
}

#[test]
fn every_invariant_names_itself() {
    let cases = [
        (
            SaveInvariant::TooLarge {
                region: SaveRegion::State,
                len: 4,
                limit: 3,
            },
            "state region of 4 bytes over the limit 3",
        ),
        (
            SaveInvariant::AnswerKeyNotAsked { index: 5 },
            "an answer to input 5, which was not asked",
        ),
        (
            SaveInvariant::IdOutOfRange(i64::MIN),
            "id -9223372036854775808 outside +-(2^53-1)",
        ),
        (
            SaveInvariant::InFlightOutsideSent,
            "a request in flight outside the sent phase",
        ),
    ];
    for (i, text) in cases {
        assert_eq!(i.to_string(), text);
    }
}

/// The head with `from` replaced by `to` (once, and present).
fn head_replaced(head: &[u8], from: &str, to: &str) -> Vec<u8> {
    let text = std::str::from_utf8(head).unwrap();
    assert_eq!(text.matches(from).count(), 1, "{text}");
    text.replacen(from, to, 1).into_bytes()
}

const OUR_VERSION: &str = r#""io.modelcontextprotocol/protocolVersion":"2026-07-28""#;

#[test]
fn a_saved_call_or_task_restores_only_at_our_protocol_version() {
    let other = r#""io.modelcontextprotocol/protocolVersion":"2025-11-25""#;
    let not_a_string = r#""io.modelcontextprotocol/protocolVersion":20260728"#;
    let twice = [OUR_VERSION, ",", OUR_VERSION].concat();
    for (save, restore) in [
        (
            call_partly_answered(),
            restore_call as fn(&[u8]) -> Result<Phase, CallError>,
        ),
        (task_partly_answered(), restore_task),
    ] {
        let genuine = decode(&save);
        // The genuine save names ours, and restores.
        assert!(restore(&save).is_ok());
        let with_head = |head: Vec<u8>| {
            let mut s = genuine.clone();
            // A task's head is its _meta, then its id: keep the split.
            if s.head_split != 0 {
                let grown = head.len() as i64 - s.head.len() as i64;
                s.head_split = (i64::from(s.head_split) + grown) as u32;
            }
            s.head = head;
            restore(&encode(&s))
        };
        for to in [other, not_a_string, twice.as_str()] {
            assert_eq!(
                with_head(head_replaced(&genuine.head, OUR_VERSION, to)),
                invariant(SaveInvariant::ProtocolVersion),
                "{to}"
            );
        }
        // None at all (the member removed with its comma).
        let text = std::str::from_utf8(&genuine.head).unwrap();
        let none = if text.contains(&[OUR_VERSION, ","].concat()) {
            head_replaced(&genuine.head, &[OUR_VERSION, ","].concat(), "")
        } else {
            head_replaced(&genuine.head, &[",", OUR_VERSION].concat(), "")
        };
        assert_eq!(with_head(none), invariant(SaveInvariant::ProtocolVersion));
    }
    // The machine restores either flow through the same check.
    let mut s = decode(&call_partly_answered());
    s.head = head_replaced(&s.head, OUR_VERSION, other);
    let limits = CallLimits::default();
    let mut slot = mrtr_core::client::MachineSlot::default();
    let mut buf = vec![0u8; Call::workspace_size(&limits)];
    assert_eq!(
        mrtr_core::client::Machine::restore(&mut slot, &mut buf, &limits, &encode(&s)).err(),
        Some(CallError::BadSave(SaveError::Invariant(
            SaveInvariant::ProtocolVersion
        )))
    );
    assert_eq!(
        SaveInvariant::ProtocolVersion.to_string(),
        "the saved _meta names no protocol version or another than 2026-07-28"
    );
}
