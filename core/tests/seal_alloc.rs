//! Sealing never touches the heap: seal + unseal (and the binding digest
//! feeding them) perform zero allocations. The global allocator is
//! process-wide, so this check lives in its own test binary and counts only
//! the allocations of the thread under test.
#![cfg(feature = "seal")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use mrtr_core::json;
use mrtr_core::seal::{binding_digest, sealed_len, SealConfig, Sealer};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: the slot may already be gone while a thread shuts down.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every call is forwarded unchanged to the system allocator; the only
// addition is a thread-local counter, which itself never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: same contract as our caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

#[test]
fn seal_and_unseal_perform_zero_allocations() {
    let request =
        br#"{"city": "Paris", "days": 3, "opts": {"units": "\u0043", "tags": ["a", "b"]}}"#;
    let state = [0x5Au8; 256];
    let mut token = [0u8; 4096];
    let mut scratch = [0u8; 4096];

    let before = allocations();
    let sealer = Sealer::new(
        &[
            b"the sealing key: 32 bytes at least",
            b"an older key, still accepted.....",
        ],
        b"weather-server",
        SealConfig::default(),
    )
    .expect("sealer");
    let args = json::parse(request).expect("arguments");
    let binding = binding_digest("tools/call", "get_weather", Some(args)).expect("binding");
    let n = sealer
        .seal(
            1_780_000_000,
            &[7; 24],
            &binding,
            Some(b"alice"),
            &state,
            &mut token,
        )
        .expect("seal");
    let token = token.get(..n).expect("token");
    let args = json::parse(request).expect("arguments");
    let binding = binding_digest("tools/call", "get_weather", Some(args)).expect("binding");
    let opened = sealer
        .unseal(1_780_000_030, token, &binding, Some(b"alice"), &mut scratch)
        .expect("unseal");
    let after = allocations();

    assert_eq!(opened.state, &state[..]);
    assert_eq!(n, sealed_len(state.len()));
    assert_eq!(after - before, 0, "seal + unseal allocated");

    // The counter does count: a heap allocation on this thread is seen.
    let boxed = std::hint::black_box(Box::new(1u8));
    assert!(allocations() > after);
    drop(boxed);
}
