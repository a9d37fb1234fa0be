//! The run loop decided in the core: ids, waits, questions, refusals,
//! unrelated messages and the ends of a run, over a scripted transport.

use super::*;
use crate::client::machine::{Machine, MachineConfig, MachineSlot};
use crate::client::run::{
    run, Answerer, Outcome, Reply, RunConfig, RunEnd, RunError, Runner, Step, Transport,
};
use crate::client::{Answer, CallError, Phase};
use crate::wire::ElicitAction;
use std::string::ToString;

/// Replies with the scripted messages in order and records what it saw.
struct Script {
    replies: Vec<&'static str>,
    sent: Vec<String>,
    reads: usize,
    waits: Vec<u64>,
}

impl Script {
    fn new(replies: &[&'static str]) -> Self {
        Script {
            replies: replies.to_vec(),
            sent: Vec::new(),
            reads: 0,
            waits: Vec::new(),
        }
    }
}

impl Transport for Script {
    type Error = &'static str;
    fn exchange(
        &mut self,
        request: Option<&[u8]>,
        response: &mut [u8],
    ) -> Result<usize, Self::Error> {
        match request {
            Some(r) => self.sent.push(String::from_utf8(r.to_vec()).unwrap()),
            None => self.reads += 1,
        }
        if self.replies.is_empty() {
            return Err("script exhausted");
        }
        let msg = self.replies.remove(0).as_bytes();
        response[..msg.len()].copy_from_slice(msg);
        Ok(msg.len())
    }
    fn wait(&mut self, ms: u64) {
        self.waits.push(ms);
    }
}

/// Accepts forms with `{"ok":true}`; refuses everything else with `reply`.
struct Ui(Reply);

impl Answerer for Ui {
    fn answer(&mut self, m: &mut Machine<'_>, index: usize) -> Reply {
        match m.input_at(index).map(|(_, r)| r.kind()) {
            Some(crate::wire::InputKind::ElicitForm) if self.0 == Reply::Answered => {
                let a = Answer::Elicit {
                    action: ElicitAction::Accept,
                    content: Some(br#"{"ok":true}"#),
                };
                m.answer_at(index, a)
                    .map(|_| Reply::Answered)
                    .unwrap_or(Reply::Abort)
            }
            _ => self.0,
        }
    }
}

const CAPS: ClientCapabilities = ClientCapabilities {
    elicitation_form: true,
    elicitation_url: false,
    sampling: true,
    sampling_tools: false,
    sampling_context: false,
    roots: false,
    tasks: true,
};

fn machine(slot: &mut MachineSlot, buf: &mut Vec<u8>) -> MachineConfig<'static> {
    let cfg = MachineConfig {
        caps: CAPS,
        client_info: None,
        ..MachineConfig::call(CallMethod::ToolsCall, br#"{"name":"t"}"#)
    };
    buf.resize(Machine::workspace_size(&cfg.limits), 0);
    Machine::init(slot, buf, &cfg).unwrap();
    cfg
}

const ASK_FORM: &str = r#"{"jsonrpc":"2.0","id":ID,"result":{"resultType":"input_required","inputRequests":{"f":{"method":"elicitation/create","params":{"message":"ok?","requestedSchema":{"type":"object"}}}},"requestState":"s"}}"#;
const ASK_SAMPLING: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"s":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}}}}"#;
const NOTE: &str = r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#;

fn ask_form(id: u32) -> &'static str {
    std::boxed::Box::leak(ASK_FORM.replace("ID", &id.to_string()).into_boxed_str())
}

#[test]
fn a_run_answers_retries_with_the_state_and_ends_with_the_result() {
    let (mut slot, mut buf) = (MachineSlot::default(), Vec::new());
    machine(&mut slot, &mut buf);
    let mut m = Machine::attach(&mut slot, &mut buf).unwrap();
    let done = r#"{"jsonrpc":"2.0","id":12,"result":{"resultType":"complete","content":[]}}"#;
    let mut t = Script::new(&[
        ask_form(10),
        NOTE,
        r#"{"jsonrpc":"2.0","id":11,"result":{"resultType":"input_required","requestState":"s2"}}"#,
        done,
    ]);
    let cfg = RunConfig {
        first_id: Some(10),
        ..RunConfig::default()
    };
    let mut io = [0u8; 4096];
    let end = run(&mut m, &mut t, &mut Ui(Reply::Answered), &cfg, &mut io).unwrap();
    assert_eq!(end.outcome, Outcome::Complete);
    assert_eq!(t.sent.len(), 3);
    assert!(t.sent[1].contains(r#""id":11,"#) && t.sent[1].contains(r#""inputResponses":{"f":{"action":"accept","content":{"ok":true}}},"requestState":"s""#));
    assert!(t.sent[2].contains(r#""id":12,"#) && t.sent[2].contains(r#""requestState":"s2""#));
    // One notification was read past; the state-only round waited 50 ms.
    assert_eq!((t.reads, t.waits.as_slice()), (1, &[50u64][..]));
    let RunEnd { offset, len, .. } = end;
    assert_eq!(
        m.result(&io[offset..offset + len]),
        Some(&br#"{"resultType":"complete","content":[]}"#[..])
    );
    assert_eq!(m.phase(), Phase::Done);
}

#[test]
fn a_run_follows_the_task_waiting_its_hints() {
    let (mut slot, mut buf) = (MachineSlot::default(), Vec::new());
    machine(&mut slot, &mut buf);
    let mut m = Machine::attach(&mut slot, &mut buf).unwrap();
    let created = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"task","taskId":"j","status":"working","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:00Z","ttlMs":null,"pollIntervalMs":700}}"#;
    let working = r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","taskId":"j","status":"working","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:01Z","ttlMs":null,"pollIntervalMs":300}}"#;
    let failed = r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","taskId":"j","status":"failed","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:01Z","ttlMs":null,"error":{"code":-1,"message":"x"}}}"#;
    let mut t = Script::new(&[created, working, failed]);
    let mut io = [0u8; 4096];
    let end = run(
        &mut m,
        &mut t,
        &mut Ui(Reply::Answered),
        &RunConfig::default(),
        &mut io,
    )
    .unwrap();
    assert_eq!(end.outcome, Outcome::TaskFailed);
    assert_eq!(t.waits, [700, 300]);
    assert!(t.sent[1].contains(r#""id":2,"method":"tasks/get""#));
    assert!(t.sent[2].contains(r#""id":3,"method":"tasks/get""#));
    assert_eq!(m.polls(), 2);
}

#[test]
fn refusals_unanswered_questions_and_unrelated_floods_stop_the_run() {
    let mut io = [0u8; 4096];
    // A declined form is answered `decline` and the run goes on.
    let (mut slot, mut buf) = (MachineSlot::default(), Vec::new());
    machine(&mut slot, &mut buf);
    let mut m = Machine::attach(&mut slot, &mut buf).unwrap();
    let mut t = Script::new(&[
        ask_form(1),
        r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete"}}"#,
    ]);
    let end = run(
        &mut m,
        &mut t,
        &mut Ui(Reply::Decline),
        &RunConfig::default(),
        &mut io,
    )
    .unwrap();
    assert_eq!(end.outcome, Outcome::Complete);
    assert!(t.sent[1].contains(r#""inputResponses":{"f":{"action":"decline"}}"#));
    // Sampling has no refusal: declining stops the run, still answering.
    let (mut slot, mut buf) = (MachineSlot::default(), Vec::new());
    machine(&mut slot, &mut buf);
    let mut m = Machine::attach(&mut slot, &mut buf).unwrap();
    let mut t = Script::new(&[ASK_SAMPLING]);
    assert_eq!(
        run(
            &mut m,
            &mut t,
            &mut Ui(Reply::Decline),
            &RunConfig::default(),
            &mut io
        ),
        Err(RunError::Aborted)
    );
    assert_eq!(m.phase(), Phase::Answering);
    // Saying "answered" without answering is caught.
    let mut runner = Runner::new::<()>(&m, &RunConfig::default()).unwrap();
    assert_eq!(
        runner.next::<()>(&mut m, &mut io),
        Ok(Step::Ask {
            index: 0,
            kind: crate::wire::InputKind::Sampling
        })
    );
    assert_eq!(
        runner.answered::<()>(&mut m, 0, Reply::Answered),
        Err(RunError::Unanswered { index: 0 })
    );
    // An error answer ends the machine and the run.
    m.answer_at(0, Answer::Error { code: 7 }).unwrap();
    assert_eq!(
        runner.answered::<()>(&mut m, 0, Reply::Answered),
        Err(RunError::Aborted)
    );
    assert_eq!(
        runner.next::<()>(&mut m, &mut io),
        Err(RunError::NotRunnable(Phase::Failed))
    );
    // More unrelated messages than allowed.
    let (mut slot, mut buf) = (MachineSlot::default(), Vec::new());
    machine(&mut slot, &mut buf);
    let mut m = Machine::attach(&mut slot, &mut buf).unwrap();
    let mut t = Script::new(&[NOTE, NOTE, NOTE]);
    let cfg = RunConfig {
        max_unrelated: 2,
        ..RunConfig::default()
    };
    assert_eq!(
        run(&mut m, &mut t, &mut Ui(Reply::Answered), &cfg, &mut io),
        Err(RunError::TooManyUnrelated)
    );
    assert_eq!((m.phase(), t.reads), (Phase::Sent, 2));
    // The transport's error comes through; the machine stays Sent.
    assert_eq!(
        run(&mut m, &mut t, &mut Ui(Reply::Answered), &cfg, &mut io),
        Err(RunError::Transport("script exhausted"))
    );
}

#[test]
fn ids_follow_the_config_and_stop_at_the_top() {
    let (mut slot, mut buf) = (MachineSlot::default(), Vec::new());
    machine(&mut slot, &mut buf);
    let mut m = Machine::attach(&mut slot, &mut buf).unwrap();
    for bad in [
        RunConfig {
            id_step: 0,
            ..RunConfig::default()
        },
        RunConfig {
            first_id: Some(1 << 53),
            ..RunConfig::default()
        },
    ] {
        assert_eq!(Runner::new::<()>(&m, &bad), Err(RunError::BadConfig));
    }
    let top = crate::client::call::MAX_SAFE_ID;
    let cfg = RunConfig {
        first_id: Some(top),
        id_step: 2,
        ..RunConfig::default()
    };
    let mut t = Script::new(&[
        r#"{"jsonrpc":"2.0","id":9007199254740991,"result":{"resultType":"input_required","requestState":"s"}}"#,
    ]);
    let mut io = [0u8; 4096];
    assert_eq!(
        run(&mut m, &mut t, &mut Ui(Reply::Answered), &cfg, &mut io),
        Err(RunError::Call(CallError::IdsExhausted))
    );
    // Nothing was written with a wrapped id: one request went out.
    assert_eq!((t.sent.len(), m.phase()), (1, Phase::Ready));
}

#[test]
fn zero_selects_each_default_of_a_numeric_config() {
    assert_eq!(RunConfig::or_defaults(0, 0, 0), RunConfig::default());
    assert_eq!(
        RunConfig::or_defaults(7, 2, 3),
        RunConfig {
            first_id: Some(7),
            id_step: 2,
            max_unrelated: 3,
        }
    );
    // Other values are taken as given, for `Runner::new` to check.
    let bad = RunConfig::or_defaults(-5, -1, 1);
    assert_eq!((bad.first_id, bad.id_step), (Some(-5), -1));
}
