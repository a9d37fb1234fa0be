//! The one client machine: a call that follows its task in place, a task
//! restarted from a stored id, ids, saves of both flows, and the answer
//! rules every caller gets.

use super::*;
use crate::client::call::AnswerError;
use crate::client::call::CallLimits;
use crate::client::machine::{Flow, Machine, MachineConfig, MachineEvent, MachineSlot, Start};
use crate::client::roots::RootUriError;
use crate::client::task::{TaskEvent, TaskIdRef, TaskRequest};
use crate::client::{Answer, CallError, Event, Phase};
use crate::wire::{ElicitAction, Root, TaskDialect};
use std::format;

const CAPS: ClientCapabilities = ClientCapabilities {
    elicitation_form: true,
    elicitation_url: false,
    sampling: false,
    sampling_tools: false,
    sampling_context: false,
    roots: true,
    tasks: true,
};
const CAPS_JSON: &str =
    r#"{"elicitation":{"form":{}},"roots":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}"#;

struct Owned {
    slot: MachineSlot,
    buf: Vec<u8>,
}

impl Owned {
    fn new(config: &MachineConfig<'_>) -> Self {
        let mut o = Owned {
            slot: MachineSlot::default(),
            buf: vec![0u8; Machine::workspace_size(&config.limits)],
        };
        Machine::init(&mut o.slot, &mut o.buf, config).unwrap();
        o
    }

    fn m(&mut self) -> Machine<'_> {
        Machine::attach(&mut self.slot, &mut self.buf).unwrap()
    }
}

fn call_config(params: &str) -> MachineConfig<'_> {
    MachineConfig {
        caps: CAPS,
        client_info: Some(EXAMPLE_CLIENT),
        first_id: 7,
        ..MachineConfig::call(CallMethod::ToolsCall, params.as_bytes())
    }
}

fn write(m: &mut Machine<'_>) -> String {
    let mut out = vec![0u8; 4096];
    let n = m.write_next(&mut out).unwrap();
    String::from_utf8(out[..n].to_vec()).unwrap()
}

#[test]
fn a_call_follows_its_task_in_place_with_the_same_meta_and_the_next_id() {
    // The caller's own `_meta` member stays on the call and is not sent on
    // the task's requests; the three members the call wrote are.
    let mut o = Owned::new(&call_config(
        r#"{"name":"build","_meta":{"progressToken":"p1"}}"#,
    ));
    let mut m = o.m();
    assert_eq!(m.flow(), Flow::Call);
    assert_eq!(m.next_id(), Ok(7));
    let meta = example_meta(CAPS_JSON);
    let own = &meta[..meta.len() - 1];
    assert_eq!(
        write(&mut m),
        format!(
            r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{{own},"progressToken":"p1"}},"name":"build"}}}}"#
        )
    );
    let created = br#"{"jsonrpc":"2.0","id":7,"result":{"resultType":"task","taskId":"b\u002d7","status":"working","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:00Z","ttlMs":60000,"pollIntervalMs":500}}"#;
    let Ok(MachineEvent::Call(Event::TaskCreated(h))) = m.feed(created) else {
        panic!("expected the hand-over")
    };
    assert_eq!(h.dialect, TaskDialect::Extension);
    assert_eq!(m.flow(), Flow::Task);
    assert_eq!(m.phase(), Phase::Ready);
    assert_eq!(m.dialect(), Some(TaskDialect::Extension));
    assert_eq!(m.task_request(), Some(TaskRequest::Get));
    assert_eq!(m.task_id(), Some(&br#""b\u002d7""#[..]));
    assert_eq!(m.poll_ms(), 500);
    assert_eq!(m.method(), None);
    assert_eq!(m.last_id(), Some(7));
    assert_eq!(m.next_id(), Ok(8));
    // The id token is echoed exactly as the server wrote it.
    assert_eq!(
        write(&mut m),
        format!(
            r#"{{"jsonrpc":"2.0","id":8,"method":"tasks/get","params":{{{meta},"taskId":"b\u002d7"}}}}"#
        )
    );
    assert_eq!(m.polls(), 1);
    let done = br#"{"jsonrpc":"2.0","id":8,"result":{"resultType":"complete","taskId":"b-7","status":"completed","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:01Z","ttlMs":null,"result":{"resultType":"complete","content":[]}}}"#;
    assert_eq!(
        m.feed(done),
        Ok(MachineEvent::Task(TaskEvent::Complete(
            br#"{"resultType":"complete","content":[]}"#
        )))
    );
    assert_eq!(m.phase(), Phase::Done);
    assert_eq!(
        m.result(done),
        Some(&br#"{"resultType":"complete","content":[]}"#[..])
    );
}

#[test]
fn without_client_info_the_task_declares_what_the_call_declared() {
    let mut o = Owned::new(&MachineConfig {
        client_info: None,
        ..call_config(r#"{"name":"build"}"#)
    });
    let mut m = o.m();
    write(&mut m);
    let created = br#"{"jsonrpc":"2.0","id":7,"result":{"resultType":"task","taskId":"t","status":"working","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:00Z","ttlMs":null}}"#;
    assert!(matches!(
        m.feed(created),
        Ok(MachineEvent::Call(Event::TaskCreated(_)))
    ));
    assert_eq!(
        write(&mut m),
        format!(
            r#"{{"jsonrpc":"2.0","id":8,"method":"tasks/get","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{CAPS_JSON}}},"taskId":"t"}}}}"#
        )
    );
    // The poll interval is the default when the server gave no hint.
    assert_eq!(m.poll_ms(), 1_000);
}

#[test]
fn a_task_restarts_from_a_stored_id_and_cancel_is_a_task_operation() {
    let mut o = Owned::new(&MachineConfig {
        start: Start::Task {
            dialect: TaskDialect::Extension,
            task_id: TaskIdRef::Text("job \"9\""),
            poll_ms: Some(5),
        },
        ..call_config("")
    });
    let mut m = o.m();
    assert_eq!(m.flow(), Flow::Task);
    // A hint under the floor is raised to it (100 ms).
    assert_eq!(m.poll_ms(), 100);
    assert_eq!(m.task_id(), Some(&br#""job \"9\"""#[..]));
    let mut out = [0u8; 1024];
    let n = m.write_cancel(7, &mut out).unwrap();
    let meta = example_meta(CAPS_JSON);
    assert_eq!(
        std::str::from_utf8(&out[..n]).unwrap(),
        format!(
            r#"{{"jsonrpc":"2.0","id":7,"method":"tasks/cancel","params":{{{meta},"taskId":"job \"9\""}}}}"#
        )
    );
    assert_eq!(m.task_request(), Some(TaskRequest::Cancel));

    let mut c = Owned::new(&call_config(r#"{"name":"x"}"#));
    let mut m = c.m();
    assert_eq!(m.write_cancel(7, &mut out), Err(CallError::NotATask));
    assert_eq!(m.phase(), Phase::Ready);
    assert_eq!(m.task_request(), None);
}

#[test]
fn saves_of_either_flow_restore_into_a_machine() {
    let mut o = Owned::new(&call_config(r#"{"name":"build"}"#));
    let mut m = o.m();
    write(&mut m);
    let mut saved = [0u8; 2048];
    let n = m.save(&mut saved).unwrap();
    let limits = CallLimits::default();
    let mut slot = MachineSlot::default();
    let mut buf = vec![0u8; Machine::workspace_size(&limits)];
    let mut r = Machine::restore(&mut slot, &mut buf, &limits, &saved[..n]).unwrap();
    assert_eq!(
        (r.flow(), r.phase(), r.in_flight_id()),
        (Flow::Call, Phase::Sent, Some(7))
    );
    let created = br#"{"jsonrpc":"2.0","id":7,"result":{"resultType":"task","taskId":"t","status":"working","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:00Z","ttlMs":null}}"#;
    // After a restore the call still knows its `_meta` and follows.
    r.feed(created).unwrap();
    let first = write(&mut r);
    assert!(first.starts_with(r#"{"jsonrpc":"2.0","id":8,"method":"tasks/get""#));
    let n = r.save(&mut saved).unwrap();
    let mut slot2 = MachineSlot::default();
    let mut buf2 = vec![0u8; Machine::workspace_size(&limits)];
    let mut t = Machine::restore(&mut slot2, &mut buf2, &limits, &saved[..n]).unwrap();
    assert_eq!(
        (t.flow(), t.phase(), t.polls()),
        (Flow::Task, Phase::Sent, 1)
    );
    let mut out = [0u8; 2048];
    let k = t.resend(9, &mut out).unwrap();
    assert_eq!(&out[..k], first.replace("\"id\":8", "\"id\":9").as_bytes());
    // Anything else is not a save.
    assert!(matches!(
        Machine::restore(&mut slot2, &mut buf2, &limits, b"MRTR"),
        Err(CallError::BadSave(_))
    ));
}

#[test]
fn every_caller_of_the_core_gets_root_uris_checked() {
    let mut o = Owned::new(&call_config(r#"{"name":"ls"}"#));
    let mut m = o.m();
    write(&mut m);
    let ask = br#"{"jsonrpc":"2.0","id":7,"result":{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"}}}}"#;
    assert_eq!(m.feed(ask), Ok(MachineEvent::Call(Event::InputRequired(1))));
    for (uri, error) in [
        ("https://evil.example/x", RootUriError::NotFileUri),
        ("file:///srv/../etc", RootUriError::DotSegment),
    ] {
        let roots = [Root { uri, name: None }];
        assert_eq!(
            m.answer("r", Answer::Roots(&roots)),
            Err(CallError::BadAnswer {
                index: 0,
                error: AnswerError::BadRoot { index: 0, error },
            })
        );
        assert_eq!(m.answered_count(), 0);
    }
    let ok = [Root {
        uri: "file:///srv/app",
        name: None,
    }];
    m.answer("r", Answer::Roots(&ok)).unwrap();
    assert_eq!(
        m.answer_json(0),
        Some(&br#"{"roots":[{"uri":"file:///srv/app"}]}"#[..])
    );
    assert_eq!(m.phase(), Phase::Ready);
}

#[test]
fn an_error_answer_succeeds_and_ends_the_machine_locally() {
    let mut o = Owned::new(&call_config(r#"{"name":"x"}"#));
    let mut m = o.m();
    write(&mut m);
    let ask = br#"{"jsonrpc":"2.0","id":7,"result":{"resultType":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object"}}}}}}"#;
    m.feed(ask).unwrap();
    assert_eq!(m.answer("k", Answer::Error { code: -3 }), Ok(()));
    assert_eq!(m.phase(), Phase::Failed);
    assert_eq!(
        m.error(),
        Some(CallError::AnsweredWithError { index: 0, code: -3 })
    );
    assert_eq!(
        m.answer(
            "k",
            Answer::Elicit {
                action: ElicitAction::Decline,
                content: None
            }
        ),
        Err(CallError::WrongState(Phase::Failed))
    );
}

#[test]
fn bad_first_ids_and_small_workspaces_are_refused_and_leave_the_slot_alone() {
    let limits = CallLimits::default();
    let size = Machine::workspace_size(&limits);
    let mut slot = MachineSlot::default();
    let mut buf = vec![0u8; size];
    for id in [crate::client::call::MAX_SAFE_ID + 1, i64::MIN] {
        let cfg = MachineConfig {
            first_id: id,
            ..call_config(r#"{"name":"x"}"#)
        };
        assert_eq!(
            Machine::init(&mut slot, &mut buf, &cfg).map(|_| ()),
            Err(CallError::IdOutOfRange(id))
        );
    }
    assert_eq!(slot, MachineSlot::default());
    let mut short = vec![0u8; size - 1];
    assert_eq!(
        Machine::init(&mut slot, &mut short, &call_config(r#"{"name":"x"}"#)).map(|_| ()),
        Err(CallError::WorkspaceTooSmall { needed: size })
    );
    assert_eq!(
        Machine::attach(&mut slot, &mut buf).map(|_| ()),
        Err(CallError::NotInitialized)
    );
    // One workspace size for the machine and either flow.
    assert_eq!(size, Call::workspace_size(&limits));
    assert_eq!(size, Task::workspace_size(&limits));
    let bad = CallLimits {
        min_poll_ms: 10,
        max_poll_ms: 5,
        ..limits
    };
    assert_eq!(Machine::workspace_size(&bad), usize::MAX);
}

#[test]
fn event_records_flatten_every_kind_of_either_flow() {
    use crate::client::events::{ErrorRecord, EventKind, EventRecord, RpcError};
    use crate::json;
    use crate::wire::task::TaskError;
    let msg = json::parse(br#""boom""#).unwrap().as_str().unwrap();
    let data = json::parse(br#"{"a":1}"#).unwrap();
    let rpc = RpcError {
        code: -32000,
        message: msg,
        data: Some(data),
    };
    let error = Some(ErrorRecord {
        code: -32000,
        message: msg,
        data: Some(&br#"{"a":1}"#[..]),
    });
    let of = EventRecord::of;
    let cases = [
        (
            MachineEvent::Call(Event::Complete(b"{}")),
            EventRecord {
                result: Some(&b"{}"[..]),
                ..of(EventKind::Complete)
            },
        ),
        (
            MachineEvent::Call(Event::InputRequired(2)),
            EventRecord {
                input_count: 2,
                ..of(EventKind::InputRequired)
            },
        ),
        (
            MachineEvent::Call(Event::RetryAfter(50)),
            EventRecord {
                wait_ms: 50,
                ..of(EventKind::RetryAfter)
            },
        ),
        (
            MachineEvent::Call(Event::RpcError(rpc)),
            EventRecord {
                error,
                ..of(EventKind::RpcError)
            },
        ),
        (
            MachineEvent::Task(TaskEvent::Poll(1000)),
            EventRecord {
                wait_ms: 1000,
                ..of(EventKind::TaskPoll)
            },
        ),
        (MachineEvent::Task(TaskEvent::Next), of(EventKind::TaskNext)),
        (
            MachineEvent::Task(TaskEvent::InputRequired(1)),
            EventRecord {
                input_count: 1,
                ..of(EventKind::InputRequired)
            },
        ),
        (
            MachineEvent::Task(TaskEvent::Failed(TaskError {
                code: -32000,
                message: msg,
                data: Some(data),
            })),
            EventRecord {
                error,
                ..of(EventKind::TaskFailed)
            },
        ),
        (
            MachineEvent::Task(TaskEvent::Cancelled),
            of(EventKind::TaskCancelled),
        ),
        (
            MachineEvent::Task(TaskEvent::RpcError(rpc)),
            EventRecord {
                error,
                ..of(EventKind::RpcError)
            },
        ),
    ];
    for (ev, want) in cases {
        assert_eq!(ev.record(), want, "{ev:?}");
    }
    assert_eq!(
        [EventKind::Complete as u8, EventKind::TaskCancelled as u8],
        [1, 10]
    );
    assert_eq!(EventKind::TaskNext.name(), "TASK_NEXT");
}

#[test]
fn a_task_id_token_is_one_json_string() {
    let Some(TaskIdRef::Token(t)) = TaskIdRef::token(r#""t\u00e9-1""#) else {
        panic!("a JSON string is a token");
    };
    assert_eq!(t.raw_token(), br#""t\u00e9-1""#);
    assert_eq!(TaskIdRef::token("t-1"), None);
    assert_eq!(TaskIdRef::token(r#""a" "b""#), None);
    assert_eq!(TaskIdRef::token("1"), None);
}

#[test]
fn init_in_place_leaves_a_live_slot_unchanged_on_error_and_keeps_nothing_of_it() {
    use crate::client::call::ParamsError;
    let call = call_config(r#"{"name":"x"}"#);
    let task = MachineConfig {
        start: Start::Task {
            dialect: TaskDialect::Extension,
            task_id: TaskIdRef::Text("t-1"),
            poll_ms: None,
        },
        ..call_config("")
    };
    let mut o = Owned::new(&call);
    let mut out = [0u8; 1024];
    o.m().write_request(7, &mut out).unwrap();
    assert_eq!(o.m().phase(), Phase::Sent);
    let before = o.slot.clone();
    // A failed init of either flow over a live call leaves it as it was.
    assert_eq!(
        Machine::init(&mut o.slot, &mut o.buf, &call_config(r#"{"name":1}"#)).map(|_| ()),
        Err(CallError::BadParams(ParamsError::MissingTarget))
    );
    assert_eq!(o.slot, before);
    let empty_id = MachineConfig {
        start: Start::Task {
            dialect: TaskDialect::Extension,
            task_id: TaskIdRef::Text(""),
            poll_ms: None,
        },
        ..task
    };
    assert_eq!(
        Machine::init(&mut o.slot, &mut o.buf, &empty_id).map(|_| ()),
        Err(CallError::BadParams(ParamsError::BadTaskId))
    );
    assert_eq!(o.slot, before);
    // A live call initialized again (in place), as a task, then as a call:
    // each time the slot is exactly a fresh machine's.
    Machine::init(&mut o.slot, &mut o.buf, &call).unwrap();
    assert_eq!(o.slot, Owned::new(&call).slot);
    Machine::init(&mut o.slot, &mut o.buf, &task).unwrap();
    assert_eq!(o.slot, Owned::new(&task).slot);
    assert_eq!(o.m().flow(), Flow::Task);
    Machine::init(&mut o.slot, &mut o.buf, &call).unwrap();
    assert_eq!(o.slot, Owned::new(&call).slot);
    assert_eq!(o.m().flow(), Flow::Call);
    assert_eq!(o.m().phase(), Phase::Ready);
}

#[test]
fn write_request_and_resend_share_one_body_each_with_its_own_phase() {
    let mut o = Owned::new(&call_config(r#"{"name":"ls"}"#));
    let mut m = o.m();
    let mut out = [0u8; 2048];
    // Ready: only a first write.
    assert_eq!(
        m.resend(7, &mut out),
        Err(CallError::WrongState(Phase::Ready))
    );
    let n = m.write_request(7, &mut out).unwrap();
    let first = String::from_utf8(out[..n].to_vec()).unwrap();
    assert_eq!((m.phase(), m.in_flight_id()), (Phase::Sent, Some(7)));
    // Sent: only a resend, the same request with the fresh id.
    assert_eq!(
        m.write_request(8, &mut out),
        Err(CallError::WrongState(Phase::Sent))
    );
    let k = m.resend(8, &mut out).unwrap();
    assert_eq!(&out[..k], first.replace("\"id\":7", "\"id\":8").as_bytes());
    assert_eq!((m.phase(), m.in_flight_id()), (Phase::Sent, Some(8)));
    // Answering: a write names the first unanswered input, a resend is
    // out of place.
    let ask = br#"{"jsonrpc":"2.0","id":8,"result":{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"}}}}"#;
    assert_eq!(m.feed(ask), Ok(MachineEvent::Call(Event::InputRequired(1))));
    assert_eq!(
        m.write_request(9, &mut out),
        Err(CallError::Unanswered { index: 0 })
    );
    assert_eq!(
        m.resend(9, &mut out),
        Err(CallError::WrongState(Phase::Answering))
    );
    assert_eq!(m.last_id(), Some(8));
}
