//! mrtr-core on a Cortex-M4F, bare metal, no allocator: runs the SEP's
//! work-item flow and a seal round trip (see the library) from static
//! buffers, prints what it measured through semihosting, and exits with
//! the semihosting exit code: 0 and a last line `PASS`, or 1 and `FAIL`.
//!
//! Run: `scripts/test-cortex-m`, or `cargo run --release` in this directory
//! (QEMU `mps2-an386`).
#![no_std]
#![no_main]

use core::mem::size_of;
use core::ptr::{addr_of, read_volatile, write_volatile};

use cortex_m_rt::{entry, exception, ExceptionFrame};
use cortex_m_semihosting::{debug, hprintln};
use mrtr_core::client::CallSlot;
use mrtr_core::seal::Sealer;
use mrtr_cortex_m::{
    seal_round_trip, sealer_in, work_item, Failure, SealReport, WorkItemReport, REQUEST_BYTES,
    SCRATCH_BYTES, TOKEN_BYTES, WORKSPACE_BYTES,
};

/// What cortex-m-rt's `paint-stack` writes over the whole stack at reset.
const PAINT: u32 = 0xCCCC_CCCC;

extern "C" {
    /// Top of the stack (the initial stack pointer), from cortex-m-rt's
    /// `link.x`.
    static _stack_start: u32;
    /// Lowest address the stack may grow to (the end of `.bss`).
    static _stack_end: u32;
}

/// The painted stack region: `[bottom, top)`.
fn stack_bounds() -> (usize, usize) {
    // Only the addresses of the linker symbols are taken, never their
    // contents (safe since Rust 1.82).
    (
        addr_of!(_stack_end) as usize,
        addr_of!(_stack_start) as usize,
    )
}

/// Bytes of stack used so far: from the top down to the lowest word that no
/// longer holds the paint.
fn high_water() -> usize {
    let (bottom, top) = stack_bounds();
    let mut addr = bottom;
    while addr < top {
        // SAFETY: `addr` is word aligned (link.x aligns both bounds to 4)
        // and inside the stack region, which is RAM; the words below the
        // stack pointer belong to no live object.
        if unsafe { read_volatile(addr as *const u32) } != PAINT {
            break;
        }
        addr += 4;
    }
    top - addr
}

/// Bytes of stack in use at the caller (reset handler and main's frame).
#[inline(always)]
fn stack_in_use() -> usize {
    let (_, top) = stack_bounds();
    top.saturating_sub(cortex_m::register::msp::read() as usize)
}

/// Paints the stack again below the current stack pointer (minus a margin
/// for this function's own calls), so the next phase is measured alone:
/// what printing used before it is painted over.
#[inline(never)]
fn repaint() {
    let (bottom, _) = stack_bounds();
    let sp = cortex_m::register::msp::read() as usize;
    let end = sp.saturating_sub(64) & !3;
    let mut addr = bottom;
    while addr < end {
        // SAFETY: word aligned, inside the stack region and below the stack
        // pointer: memory no live object occupies.
        unsafe { write_volatile(addr as *mut u32, PAINT) };
        addr += 4;
    }
}

/// The work-item flow behind a call that is never inlined, so its frames
/// sit below main's and the stack it needs is measured apart from main's.
#[inline(never)]
fn run_work_item(
    state: &mut CallSlot,
    workspace: &mut [u8],
    out: &mut [u8],
) -> Result<WorkItemReport, Failure> {
    work_item(state, workspace, out)
}

/// Builds the key ring into its static slot, kept out of main's frame.
#[inline(never)]
fn build_sealer(slot: &mut Option<Sealer>) -> Result<&Sealer, Failure> {
    sealer_in(slot)
}

/// The seal round trip, likewise kept out of main's frame.
#[inline(never)]
fn run_seal_round_trip(
    sealer: &Sealer,
    request: &[u8],
    token: &mut [u8],
    scratch: &mut [u8],
) -> Result<SealReport, Failure> {
    seal_round_trip(sealer, request, token, scratch)
}

fn report_failure(f: &Failure) -> ! {
    hprintln!("FAIL: {}: {:?}", f.step, f.detail);
    exit(false)
}

fn exit(pass: bool) -> ! {
    debug::exit(if pass {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    // Without a debugger attached semihosting exit returns: park the core.
    loop {
        cortex_m::asm::wfi();
    }
}

#[entry]
fn main() -> ! {
    // `static mut` inside `#[entry]` becomes a `&'static mut` that only main
    // holds: the workspace and the buffers live in .bss, not on the stack.
    static mut CALL_STATE: Option<CallSlot> = None;
    static mut WORKSPACE: [u8; WORKSPACE_BYTES] = [0; WORKSPACE_BYTES];
    static mut REQUEST: [u8; REQUEST_BYTES] = [0; REQUEST_BYTES];
    static mut TOKEN: [u8; TOKEN_BYTES] = [0; TOKEN_BYTES];
    static mut SCRATCH: [u8; SCRATCH_BYTES] = [0; SCRATCH_BYTES];
    // The server's key ring, built once like a firmware's.
    static mut SEALER: Option<Sealer> = None;

    let (bottom, top) = stack_bounds();
    hprintln!(
        "mrtr-core {} on Cortex-M4F (QEMU mps2-an386), features client+seal",
        env!("CARGO_PKG_VERSION")
    );
    hprintln!(
        "static RAM: call workspace {} B (Call::workspace_size), CallSlot {} B, request buffer {} B, token {} B, unseal scratch {} B",
        WORKSPACE_BYTES,
        size_of::<CallSlot>(),
        REQUEST_BYTES,
        TOKEN_BYTES,
        SCRATCH_BYTES
    );
    let base = stack_in_use();
    hprintln!(
        "stack: {} B painted; main runs at {} B below the top (reset handler and main's frame)",
        top - bottom,
        base
    );

    let state = CALL_STATE.insert(CallSlot::default());
    repaint();
    let flow = match run_work_item(state, WORKSPACE, REQUEST) {
        Ok(r) => r,
        Err(f) => report_failure(&f),
    };
    let client_stack = high_water();
    hprintln!(
        "work-item flow: {} legs, {} input_required rounds, requestState echoed, every leg byte-exact (longest {} B): ok",
        flow.legs,
        flow.rounds,
        flow.longest_request
    );
    hprintln!(
        "stack high-water, work-item flow: {} B from the top ({} B below main)",
        client_stack,
        client_stack.saturating_sub(base)
    );

    repaint();
    let sealer = match build_sealer(SEALER) {
        Ok(s) => s,
        Err(f) => report_failure(&f),
    };
    let sealer_stack = high_water();
    repaint();
    let leg_3 = REQUEST.get(..flow.last_request).unwrap_or(&[]);
    let seal = match run_seal_round_trip(sealer, leg_3, TOKEN, SCRATCH) {
        Ok(r) => r,
        Err(f) => report_failure(&f),
    };
    let seal_stack = high_water();
    hprintln!(
        "seal: {} B token equals the host's, unsealed to the server state; refused: tampered ({}), other arguments ({}), expired ({}): ok",
        seal.token_len,
        seal.tampered.reason(),
        seal.replayed.reason(),
        seal.expired.reason()
    );
    hprintln!(
        "stack high-water, Sealer::new: {} B from the top ({} B below main; the Sealer, {} B, is static)",
        sealer_stack,
        sealer_stack.saturating_sub(base),
        size_of::<Sealer>()
    );
    hprintln!(
        "stack high-water, seal round trip: {} B from the top ({} B below main)",
        seal_stack,
        seal_stack.saturating_sub(base)
    );
    hprintln!(
        "stack high-water, full flow: {} B",
        client_stack.max(sealer_stack).max(seal_stack)
    );
    hprintln!("PASS");
    exit(true)
}

#[exception]
unsafe fn HardFault(frame: &ExceptionFrame) -> ! {
    hprintln!("FAIL: HardFault at pc {:#010x}", frame.pc());
    exit(false)
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    hprintln!("FAIL: panic: {}", info);
    exit(false)
}
