//! Proof that the server half never allocates: a counting global allocator
//! around a whole MRTR exchange (parse, answers, builder, complete, every
//! error writer, both task dialects), success and failure paths.
#![cfg(feature = "server")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use mrtr_core::json;
use mrtr_core::server::*;
use mrtr_core::wire::{ClientCapabilities, Id, WireLimits};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(|c| c.get())
}

const RETRY: &[u8] = br#"{"jsonrpc":"2.0","id":"leg-3","method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}},"sampling":{"tools":{},"context":{}},"roots":{}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}},"name":"plan","arguments":{"city":"Lisbon"},"inputResponses":{"dates":{"action":"accept","content":{"start":"2026-05-01"}},"idea":{"result":{"role":"assistant","content":{"type":"text","text":"Porto"},"model":"m"}},"dirs":{"roots":[{"uri":"file:///a","name":"A"},{"uri":"file:///b"}]},"junk":{"x":7}},"requestState":"m1.\u0041BC"}}"#;

const HOSTILE: [&[u8]; 6] = [
    br#"{"jsonrpc":"2.0","id":1,"#,
    br#"{"jsonrpc":"1.0","id":1,"method":"tools/call"}"#,
    br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01"}}}"#,
    br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"x","requestState":7}}"#,
    br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"x","inputResponses":{"a":{},"\u0061":{}}}}"#,
    br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"x","name":"y"}}"#,
];

/// One pass over the whole server API; returns a checksum of what it wrote
/// so the work cannot be optimised away and its results are checked.
fn exchange(out: &mut [u8], scratch: &mut [u8]) -> usize {
    let limits = WireLimits::default();
    let mut total = 0usize;
    let Ok(Incoming::Request(req)) = ServerRequest::parse(RETRY, &limits) else {
        panic!("the retry must parse")
    };
    let dates = req.elicit_answer("dates").unwrap().unwrap();
    assert!(dates
        .field("start")
        .unwrap()
        .unwrap()
        .as_str()
        .unwrap()
        .eq_str("2026-05-01"));
    let idea = req.sampling_answer("idea").unwrap().unwrap();
    assert!(idea.text().unwrap().eq_str("Porto"));
    let dirs = req.roots_answer("dirs").unwrap().unwrap();
    assert_eq!(dirs.iter().filter(|r| r.name.is_some()).count(), 1);
    assert_eq!(req.elicit_answer("missing"), Ok(None));
    assert!(req.elicit_answer("dirs").is_err());
    assert_eq!(req.request_state_text(scratch).unwrap(), Some("m1.ABC"));

    let mut b = InputRequiredBuilder::for_request(out, &req).unwrap();
    b.elicit_form(
        "when",
        "When?",
        br#"{"type":"object","properties":{"d":{"type":"string"}}}"#,
    )
    .unwrap()
    .elicit_url("login", "Sign in", "https://example.com/login")
    .unwrap()
    .sampling(
        "idea",
        br#"{"messages":[],"maxTokens":5,"tools":[{"name":"t"}]}"#,
    )
    .unwrap()
    .roots("dirs")
    .unwrap()
    .request_state("m1.next");
    assert!(b.roots("dirs").is_err());
    total += b.finish().unwrap();
    let mut tiny = [0u8; 8];
    let mut b = InputRequiredBuilder::new(&mut tiny, &req.id, &ClientCapabilities::default());
    assert!(matches!(
        b.roots("r"),
        Err(BuildError::MissingCapability { .. })
    ));
    b.request_state("s");
    assert!(matches!(b.finish(), Err(BuildError::BufferTooSmall { .. })));

    total += write_complete(out, &req.id, br#""content":[],"isError":false"#).unwrap();
    total += write_complete(out, &req.id, br#"{"content":[]}"#).unwrap();
    assert!(write_complete(out, &req.id, br#"{"resultType":"task"}"#).is_err());

    let id = Id::Number(9);
    total += write_parse_error(out).unwrap();
    total += write_invalid_request(out, None).unwrap();
    total += write_method_not_found(out, &id).unwrap();
    total += write_invalid_params(out, &id, "Unknown tool").unwrap();
    total += write_internal_error(out, Some(&id)).unwrap();
    total += write_header_mismatch(out, Some(&id), "mismatch").unwrap();
    total += write_missing_capability(out, &id, &ClientCapabilities::ALL).unwrap();
    total += write_invalid_request_state(out, &id).unwrap();
    let err = req.elicit_answer("dirs").unwrap_err();
    total += write_answer_error(out, &id, "dirs", &err).unwrap();
    for bytes in HOSTILE {
        let e = ServerRequest::parse(bytes, &limits).unwrap_err();
        total += e.write(out).unwrap();
    }

    let mut when = [0u8; 20];
    let at = format_rfc3339(1_785_232_800, &mut when).unwrap();
    let task = TaskInfo {
        task_id: "t1",
        status: TaskStatus::InputRequired,
        status_message: Some("waiting"),
        created_at: at,
        last_updated_at: at,
        ttl_ms: Some(60_000),
        poll_interval_ms: Some(100),
    };
    total += write_create_task(out, &id, TaskDialect::Seed, &task).unwrap();
    total += write_create_task(out, &id, TaskDialect::Extension, &task).unwrap();
    total += write_task_status_seed(out, &id, &task).unwrap();
    let mut b = TaskInputRequiredBuilder::new(out, &id, &task, &ClientCapabilities::ALL).unwrap();
    b.roots("r").unwrap();
    total += b.finish().unwrap();
    let done = TaskInfo {
        status: TaskStatus::Completed,
        ..task
    };
    total +=
        write_detailed_task(out, &id, &done, TaskDetail::Result(br#"{"content":[]}"#)).unwrap();
    total += write_input_response_ack(out, &id, "t1").unwrap();
    total += write_update_task_result(out, &id).unwrap();
    let _ = json::parse(b"{}");
    total
}

#[test]
fn the_server_half_never_allocates() {
    let mut out = vec![0u8; 8192];
    let mut scratch = vec![0u8; 256];
    // Warm-up outside the measurement (first-use lazies in std, if any).
    let expected = exchange(&mut out, &mut scratch);
    let before = allocations();
    let total = exchange(&mut out, &mut scratch);
    let after = allocations();
    assert_eq!(total, expected);
    assert!(total > 3000, "the exchange wrote {total} bytes");
    assert_eq!(after - before, 0, "the server half allocated");
    // The counter works: an allocation on this thread is seen.
    let v = std::hint::black_box(vec![1u8; 16]);
    assert_eq!(allocations(), after + 1);
    drop(v);
}
