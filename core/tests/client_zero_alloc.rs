//! Proof: every client flow (calls, both task dialects, resend, save and
//! restore, failures) runs without a single heap allocation.
//!
//! A counting global allocator counts allocations made on the test's own
//! thread while the flows run; buffers are allocated before counting starts.

use mrtr_core::client::call::{Answer, Call, CallConfig, CallMethod, CallSlot, Event, Phase};
use mrtr_core::client::task::{Task, TaskConfig, TaskEvent, TaskSlot};
use mrtr_core::client::CallLimits;
use mrtr_core::wire::{ClientCapabilities, ElicitAction, Root};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    // Per thread, so tests running in parallel do not see each other.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn note() {
    if COUNTING.with(Cell::get) {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
    }
}

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

// SAFETY: delegates to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const ALL: ClientCapabilities = ClientCapabilities::ALL;

const SPEC_ROUND: &[u8] = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"github_login":{"method":"elicitation/create","params":{"mode":"form","message":"Please provide your GitHub username","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}},"capital_of_france":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"What is the capital of France?"}}],"systemPrompt":"You are a helpful assistant.","maxTokens":100}}},"requestState":"AEAD-protected blob"}}"#;
const SPEC_DONE: &[u8] = br#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"72F"}],"isError":false}}"#;
const SAMPLING: &[u8] =
    br#"{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"m"}"#;

const ADO_1: &[u8] = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"resolution":{"method":"elicitation/create","params":{"message":"How was this bug resolved?","requestedSchema":{"type":"object","properties":{"resolution":{"type":"string","enum":["Fixed","Duplicate"]}},"required":["resolution"]}}}}}}"#;
const ADO_2: &[u8] = br#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","inputRequests":{"duplicate_of":{"method":"elicitation/create","params":{"message":"Which item is the original?","requestedSchema":{"type":"object","properties":{"duplicateOfId":{"type":"number"}},"required":["duplicateOfId"]}}}},"requestState":"eyJyZXNvbHV0aW9uIjoiRHVwbGljYXRlIn0..."}}"#;
const ADO_DONE: &[u8] = br#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"resolved"}],"isError":false}}"#;

fn elicit(content: &'static [u8]) -> Answer<'static> {
    Answer::Elicit {
        action: ElicitAction::Accept,
        content: Some(content),
    }
}

fn spec_flow(st: &mut CallSlot, buf: &mut [u8], out: &mut [u8]) {
    let config = CallConfig {
        caps: ALL,
        ..CallConfig::new(
            CallMethod::ToolsCall,
            br#"{"name":"get_weather","arguments":{"location":"New York"}}"#,
        )
    };
    let mut call = Call::init(st, buf, &config).unwrap();
    call.write_request(1, out).unwrap();
    assert_eq!(call.feed(SPEC_ROUND), Ok(Event::InputRequired(2)));
    assert_eq!(call.inputs().count(), 2);
    call.answer("github_login", elicit(br#"{"name":"octocat"}"#))
        .unwrap();
    call.answer("capital_of_france", Answer::Sampling(SAMPLING))
        .unwrap();
    call.write_request(2, out).unwrap();
    // Re-attach as the C shell does on every call.
    let mut call = Call::attach(st, buf).unwrap();
    let mut copy = [0u8; 256];
    let (ev, n) = call.feed_copy(SPEC_DONE, &mut copy).unwrap();
    assert!(matches!(ev, Event::Complete(_)));
    assert_eq!(call.result(SPEC_DONE), Some(&copy[..n]));
}

fn work_item_flow(st: &mut CallSlot, buf: &mut [u8], out: &mut [u8]) {
    let config = CallConfig {
        caps: ALL,
        ..CallConfig::new(
            CallMethod::ToolsCall,
            br#"{"name":"update_work_item","arguments":{"workItemId":4522,"fields":{"System.State":"Resolved"}}}"#,
        )
    };
    let mut call = Call::init(st, buf, &config).unwrap();
    call.write_request(1, out).unwrap();
    call.feed(ADO_1).unwrap();
    call.answer("resolution", elicit(br#"{"resolution":"Duplicate"}"#))
        .unwrap();
    call.write_request(2, out).unwrap();
    call.feed(ADO_2).unwrap();
    call.answer("duplicate_of", elicit(br#"{"duplicateOfId":4301}"#))
        .unwrap();
    // Transport failure: resend the last leg with a fresh id.
    call.write_request(3, out).unwrap();
    call.resend(4, out).unwrap();
    let late = ADO_DONE; // id 3: superseded
    assert!(matches!(call.feed(late), Ok(Event::Unrelated(_))));
    let done = br#"{"jsonrpc":"2.0","id":4,"result":{"content":[],"isError":false}}"#;
    assert!(matches!(call.feed(done), Ok(Event::Complete(_))));
}

fn load_shedding_and_failures(st: &mut CallSlot, buf: &mut [u8], out: &mut [u8]) {
    let config = CallConfig::new(CallMethod::PromptsGet, br#"{"name":"p"}"#);
    let mut call = Call::init(st, buf, &config).unwrap();
    let replies: [&[u8]; 3] = [
        br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"a\/b\u00e9"}}"#,
        br#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","requestState":"s2"}}"#,
        br#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"input_required","requestState":"s3"}}"#,
    ];
    for (i, r) in replies.iter().enumerate() {
        call.write_request(i as i64 + 1, out).unwrap();
        assert!(matches!(call.feed(r), Ok(Event::RetryAfter(_))));
    }
    call.write_request(4, out).unwrap();
    assert!(call.feed(b"<html>502</html>").is_err());
    assert_eq!(call.phase(), Phase::Failed);
    let mut call = Call::init(st, buf, &config).unwrap();
    call.write_request(1, out).unwrap();
    let err = br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid or expired requestState"}}"#;
    assert!(matches!(call.feed(err), Ok(Event::RpcError(_))));
}

fn save_restore(st: &mut CallSlot, buf: &mut [u8], out: &mut [u8], save: &mut [u8]) {
    let config = CallConfig {
        caps: ALL,
        ..CallConfig::new(CallMethod::ToolsCall, br#"{"name":"get_weather"}"#)
    };
    let mut call = Call::init(st, buf, &config).unwrap();
    call.write_request(1, out).unwrap();
    call.feed(SPEC_ROUND).unwrap();
    call.answer("github_login", elicit(br#"{"name":"octocat"}"#))
        .unwrap();
    let n = call.save(save).unwrap();
    let mut fresh = CallSlot::default();
    let mut call = Call::restore(&mut fresh, buf, &CallLimits::default(), &save[..n]).unwrap();
    let roots = [Root {
        uri: "file:///x",
        name: None,
    }];
    assert!(call
        .answer("capital_of_france", Answer::Roots(&roots))
        .is_err());
    call.answer("capital_of_france", Answer::Sampling(SAMPLING))
        .unwrap();
    call.write_request(2, out).unwrap();
}

fn seed_task(
    st: &mut CallSlot,
    buf: &mut [u8],
    ts: &mut TaskSlot,
    tbuf: &mut [u8],
    out: &mut [u8],
) {
    let config = CallConfig {
        caps: ALL,
        ..CallConfig::new(
            CallMethod::ToolsCall,
            br#"{"name":"echo","task":{"ttl":60000}}"#,
        )
    };
    let mut call = Call::init(st, buf, &config).unwrap();
    call.write_request(1, out).unwrap();
    let created = br#"{"id":1,"jsonrpc":"2.0","result":{"task":{"taskId":"echo-1","status":"Working","createdAt":"2026-01-27T03:32:48Z","ttl":60000,"pollInterval":100}}}"#;
    let Ok(Event::TaskCreated(handoff)) = call.feed(created) else {
        panic!()
    };
    let mut task = Task::init(ts, tbuf, &TaskConfig::from_handoff(&handoff, ALL)).unwrap();
    task.write_request(2, out).unwrap();
    let ir = br#"{"id":2,"jsonrpc":"2.0","result":{"taskId":"echo-1","status":"input_required","pollInterval":100}}"#;
    assert_eq!(task.feed(ir), Ok(TaskEvent::Next));
    task.write_request(3, out).unwrap();
    let q = br#"{"id":3,"jsonrpc":"2.0","result":{"resultType":"input_required","inputRequests":{"echo_input":{"method":"elicitation/create","params":{"message":"Input?","requestedSchema":{"type":"object"}}}},"requestState":"rs"}}"#;
    assert_eq!(task.feed(q), Ok(TaskEvent::InputRequired(1)));
    task.answer("echo_input", elicit(br#"{"input":"Hello World!"}"#))
        .unwrap();
    task.write_request(4, out).unwrap();
    assert_eq!(
        task.feed(br#"{"id":4,"jsonrpc":"2.0","result":{}}"#),
        Ok(TaskEvent::Poll(100))
    );
    task.write_request(5, out).unwrap();
    let done = br#"{"id":5,"jsonrpc":"2.0","result":{"taskId":"echo-1","status":"completed"}}"#;
    assert_eq!(task.feed(done), Ok(TaskEvent::Next));
    task.write_request(6, out).unwrap();
    let result = br#"{"id":6,"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"Echo: Hello World!"}]}}"#;
    assert!(matches!(task.feed(result), Ok(TaskEvent::Complete(_))));
}

fn extension_task(
    st: &mut CallSlot,
    buf: &mut [u8],
    ts: &mut TaskSlot,
    tbuf: &mut [u8],
    out: &mut [u8],
) {
    let config = CallConfig {
        caps: ALL,
        ..CallConfig::new(CallMethod::ToolsCall, br#"{"name":"build"}"#)
    };
    let mut call = Call::init(st, buf, &config).unwrap();
    call.write_request(1, out).unwrap();
    let created = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"task","taskId":"b-7","status":"working","createdAt":"x","lastUpdatedAt":"x","ttlMs":null,"pollIntervalMs":500}}"#;
    let Ok(Event::TaskCreated(handoff)) = call.feed(created) else {
        panic!()
    };
    let mut task = Task::init(ts, tbuf, &TaskConfig::from_handoff(&handoff, ALL)).unwrap();
    task.write_request(2, out).unwrap();
    let ask = br#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","taskId":"b-7","status":"input_required","createdAt":"x","lastUpdatedAt":"x","ttlMs":null,"inputRequests":{"roots":{"method":"roots/list"}}}}"#;
    assert_eq!(task.feed(ask), Ok(TaskEvent::InputRequired(1)));
    let roots = [Root {
        uri: "file:///src",
        name: Some("src"),
    }];
    task.answer("roots", Answer::Roots(&roots)).unwrap();
    task.write_request(3, out).unwrap();
    assert_eq!(
        task.feed(br#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete"}}"#),
        Ok(TaskEvent::Poll(500))
    );
    task.write_request(4, out).unwrap();
    let done = br#"{"jsonrpc":"2.0","id":4,"result":{"resultType":"complete","taskId":"b-7","status":"completed","createdAt":"x","lastUpdatedAt":"x","ttlMs":null,"result":{"content":[]}}}"#;
    assert_eq!(
        task.feed(done),
        Ok(TaskEvent::Complete(br#"{"content":[]}"#))
    );
    let mut save = [0u8; 16];
    assert!(
        task.save(&mut save).is_err(),
        "finished tasks are not saved"
    );
}

#[test]
fn every_client_flow_runs_without_allocating() {
    let limits = CallLimits::default();
    let mut buf = vec![0u8; Call::workspace_size(&limits)];
    let mut tbuf = vec![0u8; Task::workspace_size(&Default::default())];
    let mut out = vec![0u8; 8192];
    let mut save = vec![0u8; 4096];
    let mut st = CallSlot::default();
    let mut ts = TaskSlot::default();

    COUNTING.with(|c| c.set(true));
    spec_flow(&mut st, &mut buf, &mut out);
    work_item_flow(&mut st, &mut buf, &mut out);
    load_shedding_and_failures(&mut st, &mut buf, &mut out);
    save_restore(&mut st, &mut buf, &mut out, &mut save);
    seed_task(&mut st, &mut buf, &mut ts, &mut tbuf, &mut out);
    extension_task(&mut st, &mut buf, &mut ts, &mut tbuf, &mut out);
    COUNTING.with(|c| c.set(false));

    assert_eq!(allocations(), 0);
}

#[test]
fn the_counter_sees_allocations() {
    // The proof above is only as good as the counter: check it counts.
    let before = allocations();
    COUNTING.with(|c| c.set(true));
    let v: Vec<u8> = Vec::with_capacity(std::hint::black_box(32));
    COUNTING.with(|c| c.set(false));
    drop(v);
    assert_eq!(allocations(), before + 1);
}
