//! Save and restore: an app killed while the user fills a form resumes in a
//! fresh process; corrupted or truncated saves are errors, never panics.

use super::*;
use crate::client::call::CallLimits;
use crate::client::call::{
    Answer, CallError, Counter, Event, Phase, SaveError, SaveInvariant, SaveRegion,
};
use crate::client::task::{TaskEvent, TaskRequest};
use crate::wire::{ElicitAction, TaskDialect};
use proptest::prelude::*;

const TWO_QUESTIONS: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"github_login":{"method":"elicitation/create","params":{"mode":"form","message":"Please provide your GitHub username","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}},"capital_of_france":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"What is the capital of France?"}}],"maxTokens":100}}},"requestState":"AEAD-protected blob"}}"#;

const SAMPLING_ANSWER: &[u8] = br#"{"role":"assistant","content":{"type":"text","text":"The capital of France is Paris."},"model":"claude-3-sonnet-20240307","stopReason":"endTurn"}"#;

/// A call mid-form: one of two questions answered; returns its save.
fn mid_form_save() -> Vec<u8> {
    let mut h = Harness::new(&tool_config(
        r#"{"name":"get_weather","arguments":{"location":"New York"}}"#,
        FORM_AND_SAMPLING,
    ));
    let mut call = h.call();
    leg(&mut call, 1);
    call.feed(TWO_QUESTIONS.as_bytes()).unwrap();
    call.answer(
        "github_login",
        Answer::Elicit {
            action: ElicitAction::Accept,
            content: Some(br#"{"name":"octocat"}"#),
        },
    )
    .unwrap();
    let mut out = vec![0u8; 4096];
    let n = call.save(&mut out).unwrap();
    out.truncate(n);
    out
}

#[test]
fn a_call_saved_mid_form_resumes_in_a_fresh_process() {
    let saved = mid_form_save();
    assert_eq!(&saved[..6], b"MRTR\x01\x01");
    // A fresh process: new state, new (dirty) workspace.
    let limits = CallLimits::default();
    let mut st = CallSlot::default();
    let mut buf = vec![0xAAu8; Call::workspace_size(&limits)];
    let mut call = Call::restore(&mut st, &mut buf, &limits, &saved).unwrap();
    assert_eq!(call.phase(), Phase::Answering);
    assert_eq!((call.input_count(), call.answered_count()), (2, 1));
    assert_eq!(call.round(), 1);
    assert_eq!(call.last_id(), Some(1));
    assert_eq!(call.caps(), FORM_AND_SAMPLING);
    assert_eq!(call.request_state(), Some(&br#""AEAD-protected blob""#[..]));
    // The save is 18 bytes of header and counters plus the four regions,
    // each behind its varint length: nothing else is stored.
    let (params, inputs) = (call.params().len(), call.inputs_json().unwrap().len());
    let answer = call.answer_json(0).unwrap().len();
    assert_eq!((params, inputs, answer), (290, 395, 48));
    assert_eq!(
        saved.len(),
        18 + (2 + params) + (2 + inputs) + (1 + 21) + (1 + 6 + answer)
    );
    assert_eq!(
        call.answer("github_login", Answer::Json(br#"{"action":"cancel"}"#)),
        Err(CallError::AlreadyAnswered { index: 0 })
    );
    call.answer("capital_of_france", Answer::Sampling(SAMPLING_ANSWER))
        .unwrap();
    let mut ids = Counter::after(call.last_id());
    let mut out = [0u8; 2048];
    let n = call.write_request_from(&mut ids, &mut out).unwrap();
    assert_eq!(
        core::str::from_utf8(&out[..n]).unwrap(),
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},"sampling":{}},"io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"}},"name":"get_weather","arguments":{"location":"New York"},"inputResponses":{"github_login":{"action":"accept","content":{"name":"octocat"}},"capital_of_france":{"role":"assistant","content":{"type":"text","text":"The capital of France is Paris."},"model":"claude-3-sonnet-20240307","stopReason":"endTurn"}},"requestState":"AEAD-protected blob"}}"#
    );
}

#[test]
fn a_call_saved_in_flight_is_resent_with_a_fresh_id() {
    let mut h = Harness::new(&tool_config(r#"{"name":"t"}"#, FORM));
    let mut call = h.call();
    let first = leg(&mut call, 41);
    let mut saved = [0u8; 1024];
    let n = call.save(&mut saved).unwrap();
    let limits = CallLimits::default();
    let mut st = CallSlot::default();
    let mut buf = vec![0u8; Call::workspace_size(&limits)];
    let mut call = Call::restore(&mut st, &mut buf, &limits, &saved[..n]).unwrap();
    assert_eq!(call.phase(), Phase::Sent);
    assert_eq!(call.in_flight_id(), Some(41));
    let mut out = [0u8; 1024];
    let m = call.resend(42, &mut out).unwrap();
    assert_eq!(
        core::str::from_utf8(&out[..m]).unwrap(),
        first.replace("\"id\":41", "\"id\":42")
    );
    let done = br#"{"jsonrpc":"2.0","id":42,"result":{"resultType":"complete"}}"#;
    assert!(matches!(call.feed(done), Ok(Event::Complete(_))));
}

#[test]
fn saving_reports_the_size_needed_and_refuses_finished_calls() {
    let mut h = Harness::new(&tool_config(r#"{"name":"t"}"#, FORM));
    let mut call = h.call();
    let mut big = [0u8; 1024];
    let n = call.save(&mut big).unwrap();
    let mut small = vec![0u8; n - 1];
    assert_eq!(
        call.save(&mut small),
        Err(CallError::BufferTooSmall { needed: n })
    );
    leg(&mut call, 1);
    call.feed(br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}"#)
        .unwrap();
    assert_eq!(call.save(&mut big), Err(CallError::WrongState(Phase::Done)));
}

#[test]
fn a_save_is_checked_against_kind_version_and_the_current_limits() {
    let saved = mid_form_save();
    let limits = CallLimits::default();
    let mut st = CallSlot::default();
    let mut buf = vec![0u8; Call::workspace_size(&limits)];
    let restore = |bytes: &[u8], limits: &CallLimits, st: &mut CallSlot, buf: &mut Vec<u8>| {
        Call::restore(st, buf, limits, bytes).map(|_| ())
    };
    let mut v2 = saved.clone();
    v2[4] = 2;
    assert_eq!(
        restore(&v2, &limits, &mut st, &mut buf),
        Err(CallError::BadSave(SaveError::Version(2)))
    );
    let mut task_kind = saved.clone();
    task_kind[5] = 2;
    assert_eq!(
        restore(&task_kind, &limits, &mut st, &mut buf),
        Err(CallError::BadSave(SaveError::WrongKind))
    );
    let mut trailing = saved.clone();
    trailing.push(0);
    assert_eq!(
        restore(&trailing, &limits, &mut st, &mut buf),
        Err(CallError::BadSave(SaveError::Decode))
    );
    let small = CallLimits {
        max_inputs_bytes: 100,
        ..CallLimits::default()
    };
    let mut buf2 = vec![0u8; Call::workspace_size(&small)];
    let r = restore(&saved, &small, &mut st, &mut buf2);
    assert!(
        matches!(
            r,
            Err(CallError::BadSave(SaveError::Invariant(SaveInvariant::TooLarge {
                region: SaveRegion::Inputs,
                len,
                limit: 100,
            }))) if len > 100
        ),
        "{r:?}"
    );
    // Capabilities are part of the saved params: a save cannot claim less
    // than the questions it holds need.
    let from: &[u8] = br#","sampling":{}}"#;
    let to: &[u8] = br#","roots":{}   }"#;
    let at = saved.windows(from.len()).position(|w| w == from).unwrap();
    let mut tampered = saved.clone();
    tampered[at..at + from.len()].copy_from_slice(to);
    assert_eq!(
        restore(&tampered, &limits, &mut st, &mut buf),
        Err(CallError::BadSave(SaveError::Invariant(
            SaveInvariant::UndeclaredInput
        )))
    );
    assert_eq!(st, CallSlot::default(), "failed restores leave the state");
}

#[test]
fn a_task_saved_mid_form_resumes_in_a_fresh_process() {
    let config = TaskConfig {
        caps: FORM,
        ..TaskConfig::new(TaskDialect::Seed, "t-1")
    };
    let mut th = TaskHarness::new(&config);
    let mut task = th.task();
    task_leg(&mut task, 1);
    task.feed(br#"{"jsonrpc":"2.0","id":1,"result":{"taskId":"t-1","status":"input_required","pollInterval":300}}"#)
        .unwrap();
    task_leg(&mut task, 2);
    let q = br#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object"}}},"b":{"method":"elicitation/create","params":{"message":"n","requestedSchema":{"type":"object"}}}},"requestState":"rs"}}"#;
    assert_eq!(task.feed(q), Ok(TaskEvent::InputRequired(2)));
    task.answer(
        "a",
        Answer::Elicit {
            action: ElicitAction::Decline,
            content: None,
        },
    )
    .unwrap();
    let mut saved = [0u8; 2048];
    let n = task.save(&mut saved).unwrap();
    let limits = CallLimits::default();
    let mut st = TaskSlot::default();
    let mut buf = vec![0u8; Task::workspace_size(&limits)];
    let mut task = Task::restore(&mut st, &mut buf, &limits, &saved[..n]).unwrap();
    assert_eq!(task.phase(), Phase::Answering);
    assert_eq!(task.next_request(), TaskRequest::Respond);
    assert_eq!(task.poll_ms(), 300);
    assert_eq!(task.polls(), 1);
    assert_eq!(task.task_id(), br#""t-1""#);
    task.answer(
        "b",
        Answer::Elicit {
            action: ElicitAction::Cancel,
            content: None,
        },
    )
    .unwrap();
    assert_eq!(
        task_leg(&mut task, 3),
        r#"{"jsonrpc":"2.0","id":3,"method":"tasks/input_response","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}},"io.modelcontextprotocol/clientInfo":{"name":"mrtr","version":"0.1.0"},"io.modelcontextprotocol/related-task":{"taskId":"t-1"}},"inputResponses":{"a":{"action":"decline"},"b":{"action":"cancel"}},"requestState":"rs"}}"#
    );
    // A call save is not a task save.
    let call_save = mid_form_save();
    let mut st2 = TaskSlot::default();
    assert_eq!(
        Task::restore(&mut st2, &mut buf, &limits, &call_save).map(|_| ()),
        Err(CallError::BadSave(SaveError::WrongKind))
    );
}

#[test]
fn every_truncation_of_a_save_is_an_error() {
    let saved = mid_form_save();
    let limits = CallLimits::default();
    let mut buf = vec![0u8; Call::workspace_size(&limits)];
    for cut in 0..saved.len() {
        let mut st = CallSlot::default();
        let r = Call::restore(&mut st, &mut buf, &limits, &saved[..cut]).map(|_| ());
        assert!(
            matches!(r, Err(CallError::BadSave(_))),
            "cut at {cut}: {r:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 512 }))]

    /// Flipped bytes give an error or a call whose invariants hold; never a
    /// panic.
    #[test]
    fn corrupted_saves_never_panic(flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..8)) {
        let mut saved = mid_form_save();
        for (at, byte) in flips {
            let i = at % saved.len();
            saved[i] ^= byte | 1;
        }
        let limits = CallLimits::default();
        let mut st = CallSlot::default();
        let mut buf = vec![0u8; Call::workspace_size(&limits)];
        if let Ok(mut call) = Call::restore(&mut st, &mut buf, &limits, &saved) {
            // Whatever survived validation must be usable.
            let n = call.input_count();
            prop_assert!(call.answered_count() <= n);
            let _ = call.inputs().count();
            let mut out = vec![0u8; 8192];
            let next = call.last_id().map_or(1, |l| l.saturating_add(1));
            if let Ok(len) = call.write_request(next, &mut out) {
                prop_assert!(crate::json::parse(&out[..len]).is_ok());
            }
        }
    }

    #[test]
    fn random_bytes_never_restore(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let limits = CallLimits::default();
        let mut st = CallSlot::default();
        let mut buf = vec![0u8; Call::workspace_size(&limits)];
        prop_assert!(Call::restore(&mut st, &mut buf, &limits, &bytes).is_err());
        let tl = CallLimits::default();
        let mut ts = TaskSlot::default();
        let mut tbuf = vec![0u8; Task::workspace_size(&tl)];
        prop_assert!(Task::restore(&mut ts, &mut tbuf, &tl, &bytes).is_err());
    }
}
