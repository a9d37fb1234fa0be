//! Reading every shared vector through the JSON and wire layers, and writing
//! the wire layer's messages, performs no heap allocation: a counting global
//! allocator watches the whole pass.

#[path = "support/vectors.rs"]
#[allow(dead_code)]
mod vectors;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use mrtr_core::json::{self, Writer};
use mrtr_core::wire::{
    self, classify_result, parse_message, reply, ClientCapabilities, Id, Message, ResultOutcome,
    WireLimits,
};

struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

std::thread_local! {
    // Only the measuring thread counts, so the test harness's own threads
    // cannot make the result flaky.
    static MEASURING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

// SAFETY: forwards to the system allocator; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if MEASURING.with(|m| m.get()) {
            ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Touches every part of a message the way a client would; returns a checksum
/// so the work cannot be optimised away.
fn read_everything(bytes: &[u8], out: &mut [u8]) -> usize {
    let limits = WireLimits::default();
    let mut sum = 0usize;
    if let Ok(msg) = parse_message(bytes, &limits) {
        match msg {
            Message::Result { id, result } => {
                for method in ["tools/call", "prompts/get", "resources/read"] {
                    if let Ok(ResultOutcome::InputRequired(ir)) =
                        classify_result(result, method, &limits)
                    {
                        if let Some(reqs) = ir.input_requests {
                            sum += reqs.required_capabilities().roots as usize;
                            for (k, r) in reqs.iter() {
                                sum += k.decoded_len() + r.message().map_or(0, |m| m.decoded_len());
                            }
                        }
                        sum += ir.request_state.map_or(0, |s| s.raw_token().len());
                    }
                }
                let mut w = Writer::new(out);
                reply::write_missing_capability(&mut w, Some(&id), &ClientCapabilities::ALL);
                sum += w.len();
            }
            Message::Request {
                params: Some(p), ..
            } => {
                if let Some(Ok(caps)) = p
                    .get("_meta")
                    .and_then(|m| m.as_object())
                    .and_then(|m| m.get(wire::META_CLIENT_CAPABILITIES))
                    .and_then(|c| c.as_object())
                    .map(ClientCapabilities::parse)
                {
                    let mut w = Writer::new(out);
                    caps.write(&mut w);
                    sum += w.len();
                }
            }
            Message::Error { message, .. } => {
                let mut w = Writer::new(out);
                reply::write_error_response(&mut w, Some(&Id::Number(1)), -32602, "x", None);
                w.str_chars(message.chars());
                sum += w.len();
            }
            _ => {}
        }
    } else if let Ok(v) = json::parse(bytes) {
        sum += v.raw().len();
    }
    sum
}

#[test]
fn counting_allocator_sees_allocations() {
    MEASURING.with(|m| m.set(true));
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    let v = std::hint::black_box(std::vec![1u8; 64]);
    let after = ALLOCATIONS.load(Ordering::SeqCst);
    MEASURING.with(|m| m.set(false));
    assert_eq!(v.len(), 64);
    assert!(after > before, "the allocator hook must count");
}

#[test]
fn parsing_and_emitting_every_vector_allocates_nothing() {
    let all = vectors::load_all(&vectors::default_dir()).expect("vectors load");
    assert!(all.len() >= 200);
    let mut out = [0u8; 4096];
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    MEASURING.with(|m| m.set(true));
    let mut sum = 0usize;
    for v in &all {
        sum += read_everything(&v.message, &mut out);
    }
    MEASURING.with(|m| m.set(false));
    let after = ALLOCATIONS.load(Ordering::SeqCst);
    assert!(sum > 0);
    assert_eq!(
        after - before,
        0,
        "allocations while reading {} vectors",
        all.len()
    );
}
