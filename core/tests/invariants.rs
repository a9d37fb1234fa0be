//! Restore checks every invariant a live call or task holds, with one check
//! for both (`SaveError::Invariant`). Saves are untrusted input: these are
//! valid saves re-encoded with one field changed, as a tampered file or a
//! buggy writer would produce them.
//!
//! The defect this pins (issue 16): a call saved as `Sent` with its round
//! only partly answered restored, and `resend` then wrote a retry missing
//! answers (the task restore already refused it).
#![cfg(feature = "client")]

use mrtr_core::client::call::{SaveError, SaveInvariant};
use mrtr_core::client::{
    Answer, Call, CallConfig, CallError, CallLimits, CallMethod, CallState, Event, Phase, TaskCall,
    TaskConfig, TaskLimits, TaskState,
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
    let mut st = CallState::default();
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
    let limits = CallLimits::default();
    let mut st = CallState::default();
    let mut buf = vec![0u8; Call::workspace_size(&limits)];
    Call::restore(&mut st, &mut buf, &limits, bytes).map(|c| c.state())
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
    let mut st = TaskState::default();
    let mut buf = vec![0u8; TaskCall::workspace_size(&config.limits)];
    TaskCall::init(&mut st, &mut buf, &config).unwrap();
    let mut task = TaskCall::attach(&mut st, &mut buf).unwrap();
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
    let limits = TaskLimits::default();
    let mut st = TaskState::default();
    let mut buf = vec![0u8; TaskCall::workspace_size(&limits)];
    TaskCall::restore(&mut st, &mut buf, &limits, bytes).map(|t| t.state())
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
