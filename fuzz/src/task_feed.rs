//! Target `task_feed`: arbitrary server message sequences against a live
//! [`Task`], in both dialects.
//!
//! Input: `control 0xFF msg1 0xFF msg2 ...`. Control: byte 0 = capabilities
//! not declared (bits 0-5 as in [`crate::client_feed`]; the extension
//! dialect always declares tasks), bit 6 = seed dialect (else the Tasks
//! extension), bit 7 = the task id given as the escaped token `"\u0074"`
//! (else the text `t`); byte 1 = bit 0 tight limits, bit 1 a creation poll
//! hint of `byte 2 * 10` ms; the rest are choices. A segment `0xFE` resends
//! the request in flight, `0xFD` cancels the task (from `Ready`,
//! `Answering` or `Sent`); anything else is fed.
//!
//! Checked on every emitted request (re-parsed with the wire parser): a
//! fresh id; the method `next_request()` names in the task's dialect; the
//! task id exactly as configured (in `params.taskId`, or for the seed
//! dialect's `tasks/input_response` only in `_meta`'s related-task); the same
//! `_meta` on every request; `inputResponses` only on the answers request,
//! with exactly the asked keys in the server's order and the answers given;
//! `requestState` only in the seed dialect, echoed byte for byte iff the
//! round had one; a resend differs only by its id. Events agree with the
//! message; the poll interval stays within its bounds; polls, rounds and
//! requests stay within the caps.

use mrtr_core::client::call::Phase;
use mrtr_core::client::task::{TaskIdRef, TaskRequest};
use mrtr_core::client::{CallLimits, Task, TaskConfig, TaskEvent, TaskSlot};
use mrtr_core::json::{self, Object};
use mrtr_core::wire::TaskDialect;

use crate::client_feed::{caps_from, tight_wire};
use crate::oracle::{
    answer_all, check_round_members, pick_id, request_parts, result_of, round_of, Expect,
};
use crate::{segments, with_id, Choices, CANCEL, RESEND};

const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

fn limits(tight: bool) -> CallLimits {
    if !tight {
        return CallLimits::default();
    }
    CallLimits {
        wire: tight_wire(),
        max_params_bytes: 400,
        max_inputs_bytes: 600,
        max_state_bytes: 40,
        max_answers_bytes: 300,
        max_rounds: 2,
        max_polls: 4,
        default_poll_ms: 7,
        min_poll_ms: 5,
        max_poll_ms: 900,
        ..CallLimits::default()
    }
}

/// Checks one emitted request; returns its id.
fn check_request(
    task: &Task<'_>,
    bytes: &[u8],
    expect: &Expect,
    first_meta: &mut Option<Vec<u8>>,
) -> i64 {
    let (id, method, params) = request_parts(bytes);
    let kind = task.next_request();
    let seed = task.dialect() == TaskDialect::Seed;
    assert_eq!(method, kind.method(task.dialect()).as_bytes());
    let meta: Object<'_> = params
        .get_unique("_meta")
        .expect("_meta once")
        .and_then(|m| m.as_object())
        .expect("_meta object");
    let id_member = params.get_unique("taskId").expect("taskId once");
    if kind == TaskRequest::Respond && seed {
        assert!(
            id_member.is_none(),
            "seed answers name the task in _meta only"
        );
        let related = meta
            .get_unique(RELATED_TASK)
            .expect("related-task once")
            .and_then(|r| r.as_object())
            .expect("related-task object");
        let tid = related
            .get_unique("taskId")
            .expect("taskId once")
            .expect("taskId");
        assert_eq!(tid.raw(), task.task_id());
    } else {
        assert_eq!(id_member.expect("taskId").raw(), task.task_id());
        match first_meta {
            None => *first_meta = Some(meta.raw().to_vec()),
            Some(m) => assert_eq!(meta.raw(), &m[..], "_meta is the same on every request"),
        }
    }
    if kind == TaskRequest::Respond {
        check_round_members(params, expect);
    } else {
        check_round_members(params, &Expect::default());
    }
    id
}

/// The target.
pub fn run(data: &[u8]) {
    let (control, msgs) = segments(data);
    let mut ch = Choices::new(control);
    let flags = ch.byte();
    let options = ch.byte();
    let hint = ch.byte();
    let dialect = if flags & 0x40 != 0 {
        TaskDialect::Seed
    } else {
        TaskDialect::Extension
    };
    let mut caps = caps_from(flags & 0x3F);
    if dialect == TaskDialect::Extension {
        caps.tasks = true;
    }
    let escaped = json::parse(br#""\u0074""#)
        .ok()
        .and_then(|v| v.as_str())
        .expect("token");
    let config = TaskConfig {
        caps,
        limits: limits(options & 1 == 1),
        task_id: if flags & 0x80 != 0 {
            TaskIdRef::Token(escaped)
        } else {
            TaskIdRef::Text("t")
        },
        poll_ms: (options & 2 != 0).then_some(u64::from(hint) * 10),
        ..TaskConfig::new(dialect, "t")
    };
    let mut state = TaskSlot::default();
    let mut ws = vec![0u8; Task::workspace_size(&config.limits)];
    let mut task = Task::init(&mut state, &mut ws, &config).expect("init");
    let lim = *task.limits();
    let want_id: &[u8] = if flags & 0x80 != 0 {
        br#""\u0074""#
    } else {
        br#""t""#
    };
    assert_eq!(task.task_id(), want_id);
    let mut out = vec![0u8; 1 << 17];

    let mut expect = Expect::default();
    let mut first_meta = None;
    let mut last_sent: Vec<u8> = Vec::new();
    let mut writes = 0u32;
    let mut next = 0usize;
    loop {
        let phase = task.phase();
        if matches!(phase, Phase::Ready | Phase::Answering | Phase::Sent)
            && msgs.get(next).copied() == Some(CANCEL)
        {
            next += 1;
            let id = pick_id(msgs.get(next).copied(), task.last_id());
            let n = task
                .write_cancel(id, &mut out)
                .expect("cancel in a live phase");
            assert_eq!(task.next_request(), TaskRequest::Cancel);
            let got = check_request(&task, &out[..n], &Expect::default(), &mut first_meta);
            assert_eq!(got, id);
            last_sent = out[..n].to_vec();
            continue;
        }
        match phase {
            Phase::Ready => {
                let id = pick_id(msgs.get(next).copied(), task.last_id());
                let prev = task.last_id();
                let n = task
                    .write_request(id, &mut out)
                    .expect("write_request in Ready");
                let got = check_request(&task, &out[..n], &expect, &mut first_meta);
                assert_eq!(got, id);
                assert!(prev.is_none_or(|p| id > p), "fresh id");
                last_sent = out[..n].to_vec();
                writes += 1;
                assert!(task.polls() <= lim.max_polls);
                assert!(
                    writes <= 2 * lim.max_polls + lim.max_rounds + 1,
                    "{writes} requests"
                );
            }
            Phase::Answering => {
                if !answer_all(&mut task, &mut ch, &mut expect) {
                    break;
                }
                assert_eq!(task.next_request(), TaskRequest::Respond);
            }
            Phase::Sent => {
                let Some(&msg) = msgs.get(next) else { break };
                next += 1;
                let ours = task.in_flight_id().expect("in flight while Sent");
                if msg == RESEND {
                    let id = pick_id(msgs.get(next).copied(), task.last_id());
                    let n = task.resend(id, &mut out).expect("resend in Sent");
                    assert_eq!(&out[..n], &with_id(&last_sent, ours, id)[..]);
                    last_sent = out[..n].to_vec();
                    continue;
                }
                feed(&mut task, msg, ours, &mut expect, &lim);
            }
            Phase::Done | Phase::Failed => break,
        }
    }
    assert!(task.round() <= lim.max_rounds + 1);
}

fn feed(task: &mut Task<'_>, msg: &[u8], ours: i64, expect: &mut Expect, lim: &CallLimits) {
    let rounds = task.round();
    let kind = task.next_request();
    let seed = task.dialect() == TaskDialect::Seed;
    match task.feed(msg) {
        Ok(TaskEvent::Unrelated(_)) => {
            assert_eq!(task.phase(), Phase::Sent);
            assert_eq!(task.in_flight_id(), Some(ours));
            assert_eq!(task.round(), rounds);
        }
        Ok(TaskEvent::Poll(ms)) => {
            assert_eq!(task.phase(), Phase::Ready);
            assert_eq!(task.next_request(), TaskRequest::Get);
            assert!((lim.min_poll_ms..=lim.max_poll_ms.max(lim.min_poll_ms)).contains(&ms));
            assert_eq!(ms, task.poll_ms());
            // Nothing of a delivered or superseded round reaches a later request.
            *expect = Expect::default();
        }
        Ok(TaskEvent::Next) => {
            assert!(seed, "only the seed dialect fetches tasks/result");
            assert_eq!(task.phase(), Phase::Ready);
            assert_eq!(task.next_request(), TaskRequest::Result);
        }
        Ok(TaskEvent::InputRequired(n)) => {
            assert_eq!(task.phase(), Phase::Answering);
            let round = round_of(result_of(msg));
            let keys = round.keys.expect("questions come from inputRequests");
            assert_eq!(n, keys.len());
            assert_eq!(task.input_count(), n);
            for (i, k) in keys.iter().enumerate() {
                assert_eq!(task.input_at(i).expect("input").0.raw_token(), &k[..]);
            }
            let state = if seed { round.state } else { None };
            assert_eq!(task.request_state(), state.as_deref());
            expect.responses = Some(
                keys.into_iter()
                    .map(|k| (k, serde_json::Value::Null))
                    .collect(),
            );
            expect.state = state;
            assert_eq!(task.round(), rounds + 1);
        }
        Ok(TaskEvent::Complete(raw)) => {
            assert_eq!(task.phase(), Phase::Done);
            let result = result_of(msg);
            let want = match (kind, seed) {
                (TaskRequest::Get, false) => result
                    .get("result")
                    .expect("a completed task carries its result")
                    .raw(),
                _ => result.raw(),
            };
            assert_eq!(raw, want);
            assert_eq!(task.result(msg), Some(raw));
        }
        Ok(TaskEvent::Failed(_)) | Ok(TaskEvent::Cancelled) | Ok(TaskEvent::RpcError(_)) => {
            assert_eq!(task.phase(), Phase::Done);
        }
        Err(e) => {
            assert!(e.is_terminal(), "{e:?}");
            assert_eq!(task.phase(), Phase::Failed);
            assert_eq!(task.error(), Some(e));
        }
    }
}
