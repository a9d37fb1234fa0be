//! The persisted formats are the same bytes on every target: saved calls and
//! tasks (`Call::save` / `Task::save`) and sealed tokens (`Sealer::seal`).
//!
//! `tests/fixtures/portable.json` holds, for a fixed set of scenarios, the
//! save bytes with the state a restore must show, and the tokens sealed from
//! fixed keys, audiences, nonces and clocks with the state they unseal to.
//! The file is committed from x86_64; the cross stages (`scripts/test-cross`)
//! run this same test on aarch64, armv7 (32-bit) and s390x (big-endian), so:
//! - every committed save restores there to exactly the recorded state, and
//!   saving the restored call again gives the committed bytes;
//! - every committed token unseals there to exactly the recorded state;
//! - the target's own saves and seals of the same scenarios are the committed
//!   bytes (the document built on the target equals the file, byte for byte;
//!   `MRTR_PORTABLE_OUT=FILE` also writes it out for the stage to compare).
//!
//! Regenerate (after a deliberate format change, on x86_64) and commit:
//!
//! ```text
//! MRTR_REGEN_FIXTURES=1 cargo test -p mrtr-core --test portable
//! ```
#![cfg(all(feature = "client", feature = "seal"))]

use mrtr_core::client::{
    Answer, Call, CallConfig, CallLimits, CallMethod, CallSlot, Event, Phase, Task, TaskConfig,
    TaskEvent, TaskSlot,
};
use mrtr_core::json;
use mrtr_core::seal::{binding_digest, SealConfig, Sealer};
use mrtr_core::wire::{ClientCapabilities, ClientInfo, ElicitAction, TaskDialect};
use serde_json::{json, Map, Value};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/portable.json");
const REGENERATE: &str = "MRTR_REGEN_FIXTURES=1 cargo test -p mrtr-core --test portable";

const CLIENT: ClientInfo<'static> = ClientInfo {
    name: "PortableClient",
    version: "1.0.0",
};

const FORM_AND_SAMPLING: ClientCapabilities = ClientCapabilities {
    elicitation_form: true,
    elicitation_url: false,
    sampling: true,
    sampling_tools: false,
    sampling_context: false,
    roots: false,
    tasks: false,
};

const EXT_CAPS: ClientCapabilities = ClientCapabilities {
    elicitation_form: true,
    elicitation_url: true,
    sampling: false,
    sampling_tools: false,
    sampling_context: false,
    roots: false,
    tasks: true,
};

/// JSON-RPC ids past 32 bits, so that a 32-bit target carries them whole.
const BIG_ID: i64 = 4_294_967_297;

const TWO_QUESTIONS: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"github_login":{"method":"elicitation/create","params":{"mode":"form","message":"Please provide your GitHub username","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}},"capital_of_france":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Quelle est la capitale de la France ? \u00e9\u00e8 \ud83d\uddfc"}}],"maxTokens":100}}},"requestState":"AEAD-protected blob \u00e9"}}"#;

const SAMPLING_ANSWER: &[u8] = br#"{"role":"assistant","content":{"type":"text","text":"Paris \u00e9"},"model":"m-1","stopReason":"endTurn"}"#;

// ---------------------------------------------------------------- scenarios

/// A call's state and workspace, owned.
struct OwnedCall {
    st: CallSlot,
    buf: Vec<u8>,
}

impl OwnedCall {
    fn new(method: CallMethod, params: &str, caps: ClientCapabilities) -> Self {
        let config = CallConfig {
            caps,
            client_info: Some(CLIENT),
            limits: CallLimits::default(),
            ..CallConfig::new(method, params.as_bytes())
        };
        let mut st = CallSlot::default();
        let mut buf = vec![0u8; Call::workspace_size(&config.limits)];
        Call::init(&mut st, &mut buf, &config).expect("init");
        OwnedCall { st, buf }
    }

    fn call(&mut self) -> Call<'_> {
        Call::attach(&mut self.st, &mut self.buf).expect("attach")
    }
}

/// A task's state and workspace, owned.
struct OwnedTask {
    st: TaskSlot,
    buf: Vec<u8>,
}

impl OwnedTask {
    fn new(config: &TaskConfig<'_>) -> Self {
        let mut st = TaskSlot::default();
        let mut buf = vec![0u8; Task::workspace_size(&config.limits)];
        Task::init(&mut st, &mut buf, config).expect("init");
        OwnedTask { st, buf }
    }

    fn task(&mut self) -> Task<'_> {
        Task::attach(&mut self.st, &mut self.buf).expect("attach")
    }
}

fn send(call: &mut Call<'_>, id: i64) {
    let mut out = vec![0u8; 1 << 16];
    call.write_request(id, &mut out).expect("write_request");
}

fn send_task(task: &mut Task<'_>, id: i64) {
    let mut out = vec![0u8; 1 << 16];
    task.write_request(id, &mut out).expect("write_request");
}

fn save_call(call: &Call<'_>) -> Vec<u8> {
    let mut out = vec![0u8; 1 << 16];
    let n = call.save(&mut out).expect("save");
    out.truncate(n);
    out
}

fn save_task(task: &Task<'_>) -> Vec<u8> {
    let mut out = vec![0u8; 1 << 16];
    let n = task.save(&mut out).expect("save");
    out.truncate(n);
    out
}

fn call_answering() -> OwnedCall {
    let mut c = OwnedCall::new(
        CallMethod::ToolsCall,
        r#"{"name":"get_weather","arguments":{"location":"New York","days":3,"ratio":-1.5e-3}}"#,
        FORM_AND_SAMPLING,
    );
    let mut call = c.call();
    send(&mut call, 1);
    assert_eq!(
        call.feed(TWO_QUESTIONS.as_bytes()),
        Ok(Event::InputRequired(2))
    );
    call.answer(
        "github_login",
        Answer::Elicit {
            action: ElicitAction::Accept,
            content: Some(br#"{"name":"octocat \u00e9"}"#),
        },
    )
    .expect("answer");
    c
}

/// The scenarios' saves, driven through the public API on this target.
fn saves() -> Vec<(&'static str, &'static str, Vec<u8>)> {
    let mut all = Vec::new();

    // A call before its first leg.
    let mut c = OwnedCall::new(
        CallMethod::PromptsGet,
        r#"{"name":"code_review","arguments":{"code":"fn main() {}"}}"#,
        ClientCapabilities::default(),
    );
    all.push(("call-ready-fresh", "call", save_call(&c.call())));

    // A call with its first leg in flight, under an id past 32 bits.
    let mut c = OwnedCall::new(
        CallMethod::ResourcesRead,
        r#"{"uri":"file:///docs/r\u00e9sum\u00e9.txt"}"#,
        FORM_AND_SAMPLING,
    );
    let mut call = c.call();
    send(&mut call, BIG_ID);
    all.push(("call-sent", "call", save_call(&call)));

    // Two questions asked, one answered.
    let mut c = call_answering();
    all.push(("call-answering", "call", save_call(&c.call())));

    // Both answered: ready for the second leg.
    let mut c = call_answering();
    let mut call = c.call();
    call.answer("capital_of_france", Answer::Sampling(SAMPLING_ANSWER))
        .expect("answer");
    all.push(("call-ready-answered", "call", save_call(&call)));

    // The second leg in flight, under an id past 40 bits.
    send(&mut call, 1 << 40);
    all.push(("call-sent-round-2", "call", save_call(&call)));

    // Two state-only rounds (load shedding): ready to retry with the state.
    let mut c = OwnedCall::new(
        CallMethod::ToolsCall,
        r#"{"name":"crunch"}"#,
        ClientCapabilities::default(),
    );
    let mut call = c.call();
    for (id, state, backoff) in [(1, "s1", 50), (2, "s2/\u{e9}", 100)] {
        send(&mut call, id);
        let msg = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"input_required","requestState":"{state}"}}}}"#
        );
        assert_eq!(call.feed(msg.as_bytes()), Ok(Event::RetryAfter(backoff)));
    }
    all.push(("call-state-only", "call", save_call(&call)));

    // A seed-dialect task: fresh, polling, then asked a question.
    let config = TaskConfig {
        caps: FORM_AND_SAMPLING,
        client_info: Some(CLIENT),
        poll_ms: Some(250),
        ..TaskConfig::new(
            TaskDialect::Seed,
            "echo_dc792e24-01b5-4c0a-abcb-0559848ca3c5",
        )
    };
    let mut t = OwnedTask::new(&config);
    let mut task = t.task();
    all.push(("task-seed-ready-get", "task", save_task(&task)));
    send_task(&mut task, 2);
    all.push(("task-seed-sent-get", "task", save_task(&task)));
    let status = br#"{"jsonrpc":"2.0","id":2,"result":{"taskId":"echo_dc792e24-01b5-4c0a-abcb-0559848ca3c5","status":"input_required","pollInterval":5000}}"#;
    assert_eq!(task.feed(status), Ok(TaskEvent::Next));
    all.push(("task-seed-ready-result", "task", save_task(&task)));
    send_task(&mut task, BIG_ID);
    let questions = format!(
        r#"{{"jsonrpc":"2.0","id":{BIG_ID},"result":{{"resultType":"input_required","inputRequests":{{"echo_input":{{"method":"elicitation/create","params":{{"mode":"form","message":"Input?","requestedSchema":{{"type":"object","properties":{{"input":{{"type":"string"}}}}}}}}}},"model":{{"method":"sampling/createMessage","params":{{"messages":[],"maxTokens":1}}}}}},"requestState":"t\/1"}}}}"#
    );
    assert_eq!(
        task.feed(questions.as_bytes()),
        Ok(TaskEvent::InputRequired(2))
    );
    task.answer(
        "echo_input",
        Answer::Elicit {
            action: ElicitAction::Accept,
            content: Some(br#"{"input":"Hello World!"}"#),
        },
    )
    .expect("answer");
    all.push(("task-seed-answering", "task", save_task(&task)));

    // An extension-dialect task with its answer in flight.
    let config = TaskConfig {
        caps: EXT_CAPS,
        client_info: Some(CLIENT),
        ..TaskConfig::new(TaskDialect::Extension, "b-7")
    };
    let mut t = OwnedTask::new(&config);
    let mut task = t.task();
    send_task(&mut task, 1);
    let working = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","taskId":"b-7","status":"working","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:01Z","ttlMs":null,"pollIntervalMs":2000}}"#;
    assert_eq!(task.feed(working), Ok(TaskEvent::Poll(2000)));
    send_task(&mut task, 2);
    let ask = br#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","taskId":"b-7","status":"input_required","createdAt":"2026-07-28T10:00:00Z","lastUpdatedAt":"2026-07-28T10:00:02Z","ttlMs":60000,"inputRequests":{"confirm":{"method":"elicitation/create","params":{"message":"Deploy?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}}}}}"#;
    assert_eq!(task.feed(ask), Ok(TaskEvent::InputRequired(1)));
    task.answer(
        "confirm",
        Answer::Elicit {
            action: ElicitAction::Accept,
            content: Some(br#"{"ok":true}"#),
        },
    )
    .expect("answer");
    all.push(("task-ext-ready-respond", "task", save_task(&task)));
    send_task(&mut task, 3);
    all.push(("task-ext-sent-respond", "task", save_task(&task)));
    all
}

// ---------------------------------------------------------------- restoring

fn text(bytes: Option<&[u8]>) -> Value {
    match bytes {
        Some(b) => Value::String(String::from_utf8(b.to_vec()).expect("utf-8")),
        None => Value::Null,
    }
}

fn id(id: Option<i64>) -> Value {
    id.map_or(Value::Null, |i| json!(i))
}

/// Restores a call save and describes everything observable about it: the
/// accessors, and the next request it writes (under the next id). Also returns
/// the restored call saved again.
fn restore_call(saved: &[u8]) -> Result<(Value, Vec<u8>), String> {
    let limits = CallLimits::default();
    let mut st = CallSlot::default();
    let mut buf = vec![0x5Au8; Call::workspace_size(&limits)];
    let mut call = Call::restore(&mut st, &mut buf, &limits, saved)
        .map_err(|e| format!("restore failed: {e}"))?;
    let resaved = save_call(&call);
    let answers: Vec<Value> = (0..call.input_count())
        .map(|i| text(call.answer_json(i)))
        .collect();
    let mut d = Map::new();
    d.insert("phase".into(), json!(format!("{:?}", call.phase())));
    d.insert("method".into(), json!(call.method().as_str()));
    d.insert("caps".into(), json!(format!("{:?}", call.caps())));
    d.insert("round".into(), json!(call.round()));
    d.insert("state_only_rounds".into(), json!(call.state_only_rounds()));
    d.insert("last_id".into(), id(call.last_id()));
    d.insert("in_flight_id".into(), id(call.in_flight_id()));
    d.insert("params".into(), text(Some(call.params())));
    d.insert("inputs".into(), text(call.inputs_json()));
    d.insert("input_count".into(), json!(call.input_count()));
    d.insert("answered_count".into(), json!(call.answered_count()));
    d.insert("answers".into(), Value::Array(answers));
    d.insert("request_state".into(), text(call.request_state()));
    let mut out = vec![0u8; 1 << 16];
    let next_id = call.last_id().map_or(1, |i| i + 1);
    let next = match call.phase() {
        // Nothing to send until every question is answered.
        Phase::Answering => None,
        Phase::Sent => Some(call.resend(next_id, &mut out)),
        _ => Some(call.write_request(next_id, &mut out)),
    };
    let next = next.transpose().map_err(|e| format!("next request: {e}"))?;
    d.insert("next_request".into(), text(next.map(|n| &out[..n])));
    Ok((Value::Object(d), resaved))
}

/// The same for a task save.
fn restore_task(saved: &[u8]) -> Result<(Value, Vec<u8>), String> {
    let limits = mrtr_core::client::CallLimits::default();
    let mut st = TaskSlot::default();
    let mut buf = vec![0x5Au8; Task::workspace_size(&limits)];
    let mut task = Task::restore(&mut st, &mut buf, &limits, saved)
        .map_err(|e| format!("restore failed: {e}"))?;
    let resaved = save_task(&task);
    let answers: Vec<Value> = (0..task.input_count())
        .map(|i| text(task.answer_json(i)))
        .collect();
    let mut d = Map::new();
    d.insert("phase".into(), json!(format!("{:?}", task.phase())));
    d.insert("dialect".into(), json!(format!("{:?}", task.dialect())));
    d.insert("next".into(), json!(format!("{:?}", task.next_request())));
    d.insert("task_id".into(), text(Some(task.task_id())));
    d.insert("caps".into(), json!(format!("{:?}", task.caps())));
    d.insert("poll_ms".into(), json!(task.poll_ms()));
    d.insert("polls".into(), json!(task.polls()));
    d.insert("round".into(), json!(task.round()));
    d.insert("last_id".into(), id(task.last_id()));
    d.insert("in_flight_id".into(), id(task.in_flight_id()));
    d.insert("inputs".into(), text(task.inputs_json()));
    d.insert("input_count".into(), json!(task.input_count()));
    d.insert("answered_count".into(), json!(task.answered_count()));
    d.insert("answers".into(), Value::Array(answers));
    d.insert("request_state".into(), text(task.request_state()));
    let mut out = vec![0u8; 1 << 16];
    let next_id = task.last_id().map_or(1, |i| i + 1);
    let next = match task.phase() {
        // Nothing to send until every question is answered.
        Phase::Answering => None,
        Phase::Sent => Some(task.resend(next_id, &mut out)),
        _ => Some(task.write_request(next_id, &mut out)),
    };
    let next = next.transpose().map_err(|e| format!("next request: {e}"))?;
    d.insert("next_request".into(), text(next.map(|n| &out[..n])));
    Ok((Value::Object(d), resaved))
}

fn restore(kind: &str, saved: &[u8]) -> Result<(Value, Vec<u8>), String> {
    match kind {
        "call" => restore_call(saved),
        "task" => restore_task(saved),
        other => Err(format!("unknown kind {other:?}")),
    }
}

// ---------------------------------------------------------------- sealing

/// One sealing scenario: every input of `Sealer::new`, `binding_digest`,
/// `Sealer::seal` and `Sealer::unseal`.
struct SealCase {
    name: &'static str,
    keys: Vec<Vec<u8>>,
    audience: &'static str,
    ttl_seconds: u64,
    now: u64,
    nonce: [u8; 24],
    method: &'static str,
    target: &'static str,
    arguments: Option<&'static str>,
    principal: Option<&'static str>,
    state: Vec<u8>,
    /// The clock of the unsealing instance.
    unseal_now: u64,
    /// The key ring of the unsealing instance (indices into `keys`).
    unseal_ring: Vec<usize>,
}

fn seal_cases() -> Vec<SealCase> {
    let key_a = b"the sealing key: 32 bytes at least".to_vec();
    let key_b: Vec<u8> = (0u8..48).map(|i| i.wrapping_mul(37) ^ 0xA5).collect();
    vec![
        SealCase {
            name: "principal-and-arguments",
            keys: vec![key_a.clone()],
            audience: "weather-server",
            ttl_seconds: 600,
            now: 1_780_000_000,
            nonce: [7; 24],
            method: "tools/call",
            target: "get_weather",
            arguments: Some(
                r#"{"city": "Par\u00eds", "days": 3, "t": -0.0, "big": 1e400, "opts": {"z": [1.50, 2E3, true, null], "a": "\ud83d\uddfc"}}"#,
            ),
            principal: Some("issuer|client|alice"),
            state: (0u16..300).map(|i| (i * 131 % 251) as u8).collect(),
            // The last second the token is accepted: exp + the 60 s skew.
            unseal_now: 1_780_000_000 + 600 + 60,
            unseal_ring: vec![0],
        },
        SealCase {
            name: "empty-state-no-arguments",
            keys: vec![key_b.clone(), key_a.clone()],
            audience: "a",
            ttl_seconds: 1,
            now: 0,
            nonce: core::array::from_fn(|i| (i as u8) * 11),
            method: "resources/read",
            target: "file:///r\u{e9}sum\u{e9}.txt",
            arguments: None,
            principal: None,
            state: Vec::new(),
            unseal_now: 0,
            // A rotated ring: the sealing key is no longer first.
            unseal_ring: vec![1, 0],
        },
        SealCase {
            name: "times-past-32-bits",
            keys: vec![key_b],
            audience: "https://mcp.example.com/\u{1F5FC}",
            ttl_seconds: 86_400,
            // Past 2^32, within the sealer's clock range (MAX_UNIX_TIME).
            now: 0x3A_0000_0000,
            nonce: [0xFF; 24],
            method: "prompts/get",
            target: "review",
            arguments: Some("{}"),
            principal: Some(""),
            state: b"{\"step\":2,\"cart\":[\"a\",\"b\"]}".to_vec(),
            unseal_now: 0x3A_0000_0000 - 60,
            unseal_ring: vec![0],
        },
    ]
}

fn sealer(keys: &[&[u8]], audience: &str, ttl_seconds: u64) -> Sealer {
    let config = SealConfig {
        ttl_seconds,
        ..SealConfig::default()
    };
    Sealer::new(keys, audience.as_bytes(), config).expect("sealer")
}

fn binding(case: &SealCase) -> [u8; 32] {
    let args = case
        .arguments
        .map(|a| json::parse(a.as_bytes()).expect("arguments"));
    binding_digest(case.method, case.target, args).expect("binding")
}

/// Seals the case on this target.
fn seal(case: &SealCase) -> String {
    let keys: Vec<&[u8]> = case.keys.iter().map(Vec::as_slice).collect();
    let s = sealer(&keys, case.audience, case.ttl_seconds);
    let mut out = vec![0u8; 8192];
    let n = s
        .seal(
            case.now,
            &case.nonce,
            &binding(case),
            case.principal.map(str::as_bytes),
            &case.state,
            &mut out,
        )
        .expect("seal");
    String::from_utf8(out[..n].to_vec()).expect("token is text")
}

/// Unseals `token` as the case's unsealing instance.
fn unseal(case: &SealCase, token: &str) -> Result<Vec<u8>, String> {
    let keys: Vec<&[u8]> = case
        .unseal_ring
        .iter()
        .map(|&i| case.keys[i].as_slice())
        .collect();
    let s = sealer(&keys, case.audience, case.ttl_seconds);
    let mut scratch = vec![0u8; 8192];
    s.unseal(
        case.unseal_now,
        token.as_bytes(),
        &binding(case),
        case.principal.map(str::as_bytes),
        &mut scratch,
    )
    .map(|u| u.state.to_vec())
    .map_err(|e| format!("unseal failed: {}", e.reason()))
}

// ---------------------------------------------------------------- the document

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd hex length");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// The fixtures document as this target makes it.
fn document() -> Value {
    let saves: Vec<Value> = saves()
        .into_iter()
        .map(|(name, kind, bytes)| {
            let (restored, resaved) =
                restore(kind, &bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(
                hex(&resaved),
                hex(&bytes),
                "{name}: a restored save saves to other bytes"
            );
            json!({ "name": name, "kind": kind, "save": hex(&bytes), "restored": restored })
        })
        .collect();
    let seals: Vec<Value> = seal_cases()
        .iter()
        .map(|c| {
            let token = seal(c);
            let state = unseal(c, &token).unwrap_or_else(|e| panic!("{}: {e}", c.name));
            assert_eq!(hex(&state), hex(&c.state), "{}: round trip", c.name);
            json!({
                "name": c.name,
                "keys": c.keys.iter().map(|k| hex(k)).collect::<Vec<_>>(),
                "audience": c.audience,
                "ttl_seconds": c.ttl_seconds,
                "now": c.now,
                "nonce": hex(&c.nonce),
                "method": c.method,
                "target": c.target,
                "arguments": c.arguments,
                "binding": hex(&binding(c)),
                "principal": c.principal,
                "unseal_now": c.unseal_now,
                "unseal_ring": c.unseal_ring,
                "token": token,
                "state": hex(&c.state),
            })
        })
        .collect();
    json!({
        "about": "Saved calls and tasks, and sealed tokens, with the state each restores or unseals to; the same bytes on every target (core/tests/portable.rs).",
        "regenerate": REGENERATE,
        "saves": saves,
        "seals": seals,
    })
}

fn render(doc: &Value) -> String {
    let mut s = serde_json::to_string_pretty(doc).expect("render");
    s.push('\n');
    s
}

fn field<'v>(v: &'v Value, key: &str) -> &'v Value {
    v.get(key)
        .unwrap_or_else(|| panic!("fixture has no {key:?}"))
}

fn str_field<'v>(v: &'v Value, key: &str) -> &'v str {
    field(v, key)
        .as_str()
        .unwrap_or_else(|| panic!("fixture {key:?} is no string"))
}

#[test]
fn persisted_formats_are_the_same_bytes_on_every_target() {
    let ours = document();
    let rendered = render(&ours);
    if let Some(path) = std::env::var_os("MRTR_PORTABLE_OUT") {
        std::fs::write(&path, &rendered).expect("write MRTR_PORTABLE_OUT");
    }
    if std::env::var_os("MRTR_REGEN_FIXTURES").is_some() {
        std::fs::write(FIXTURES, &rendered).expect("write the fixtures");
        eprintln!("regenerated {FIXTURES}");
    }
    let committed_text = std::fs::read_to_string(FIXTURES)
        .unwrap_or_else(|e| panic!("{FIXTURES}: {e} (regenerate with: {REGENERATE})"));
    let committed: Value = serde_json::from_str(&committed_text).expect("fixtures are JSON");
    let stale = format!(
        "(on {}: if the format changed on purpose, regenerate on x86_64 with: {REGENERATE})",
        std::env::consts::ARCH
    );

    // Committed saves restore here to exactly the recorded state, and save
    // again to the committed bytes.
    let saves = field(&committed, "saves").as_array().expect("saves");
    for s in saves {
        let name = str_field(s, "name");
        let saved = unhex(str_field(s, "save"));
        let (restored, resaved) = restore(str_field(s, "kind"), &saved)
            .unwrap_or_else(|e| panic!("committed save {name}: {e} {stale}"));
        assert_eq!(
            &restored,
            field(s, "restored"),
            "committed save {name} restores to another state {stale}"
        );
        assert_eq!(
            hex(&resaved),
            hex(&saved),
            "committed save {name}, restored, saves to other bytes {stale}"
        );
    }

    // Committed tokens unseal here to exactly the recorded state.
    let seals = field(&committed, "seals").as_array().expect("seals");
    let cases = seal_cases();
    for s in seals {
        let name = str_field(s, "name");
        let case = cases
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no seal case {name} {stale}"));
        let state = unseal(case, str_field(s, "token"))
            .unwrap_or_else(|e| panic!("committed token {name}: {e} {stale}"));
        assert_eq!(
            hex(&state),
            str_field(s, "state"),
            "committed token {name} unseals to another state {stale}"
        );
    }

    // What this target saves and seals is the committed bytes, entry by
    // entry (for a readable failure), then the whole document.
    let our_saves = field(&ours, "saves").as_array().expect("saves");
    assert_eq!(our_saves.len(), saves.len(), "number of saves {stale}");
    for (a, b) in our_saves.iter().zip(saves) {
        assert_eq!(a, b, "save {} {stale}", str_field(a, "name"));
    }
    let our_seals = field(&ours, "seals").as_array().expect("seals");
    assert_eq!(our_seals.len(), seals.len(), "number of seals {stale}");
    for (a, b) in our_seals.iter().zip(seals) {
        assert_eq!(a, b, "seal {} {stale}", str_field(a, "name"));
    }
    assert!(
        rendered == committed_text,
        "the fixtures file differs from this target's document {stale}"
    );
}
