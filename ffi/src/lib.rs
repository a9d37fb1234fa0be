//! # mrtr-ffi: the C ABI over `mrtr-core`
//!
//! Builds `libmrtr.a` and `libmrtr.so` for C, C++, Swift and Kotlin (JNI).
//! No rlib: cargo runs LTO only when every crate type of a lib can take it,
//! and LTO is what keeps the libraries small (Rust tests are unit tests in
//! the crate; C tests are in `tests/c/`). The header `include/mrtr.h` is
//! generated from this crate by cbindgen (`scripts/gen-header`) and committed.
//!
//! The contract (docs/ARCHITECTURE.md, section 9), which every exported
//! function keeps:
//! - every fallible function returns [`mrtr_status`] (`MRTR_OK` = 0);
//! - out-params are written only on success, except where a function names
//!   one written on a specific failure (the needed size on
//!   `MRTR_ERR_BUFFER_TOO_SMALL`, error details such as the offset of
//!   `mrtr_json_validate` or the reason of `mrtr_unseal`);
//! - objects live in caller memory (`crate::object`): no `_free`, and every
//!   handle is checked (magic word, own address) before it is used;
//! - NULL (a NULL pointer with a non-zero length included), misaligned,
//!   oversized or overlapping arguments give a status, never a crash; all
//!   pointer handling goes through the `abi` module, and every exported
//!   function takes every pointer (the strings its structs and arrays point
//!   to included) through its one collector, `abi::Args`;
//! - no allocation, no globals, no thread-locals, no I/O: the crate is
//!   `no_std` and never links `alloc`;
//! - no panic crosses the boundary: the code returns errors instead of
//!   panicking, and the panic handler of the C libraries aborts.
//!
//! Rust names of exported types and constants are their C names, so the
//! header, the Rust code and `mrtr_status_str` spell everything alike: the
//! type names are C's lowercase ones, allowed once here for the crate.
#![no_std]
#![allow(non_camel_case_types)]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![deny(clippy::missing_safety_doc)]

#[cfg(test)]
extern crate std;

mod abi;
#[cfg(feature = "client")]
pub mod call;
#[cfg(feature = "client")]
pub mod client;
#[cfg(feature = "client")]
pub mod form;
#[cfg(feature = "client")]
pub mod http;
pub mod info;
pub mod json;
#[cfg(all(test, feature = "client", feature = "server", feature = "seal"))]
mod layout;
#[cfg(any(feature = "client", feature = "seal"))]
pub mod object;
#[cfg(feature = "client")]
pub mod run;
#[cfg(feature = "seal")]
pub mod seal;
#[cfg(feature = "server")]
pub mod server;
#[cfg(feature = "client")]
pub mod sse;
pub mod status;
#[cfg(feature = "client")]
pub mod tools;
pub mod types;
#[cfg(feature = "client")]
pub mod url;

pub use info::{mrtr_protocol_version, mrtr_version};
pub use json::{
    mrtr_json_validate, mrtr_json_write_string, MRTR_JSON_DEFAULT_MAX_DEPTH, MRTR_JSON_MAX_DEPTH,
};
pub use status::{mrtr_status, mrtr_status_str};
pub use types::mrtr_str;

/// The panic handler of the C libraries (`libmrtr.a`, `libmrtr.so`). The
/// code is written not to panic; should a bug panic anyway, the process
/// stops at once rather than unwinding into C frames. Left out of test
/// builds, which link `std` and its handler.
#[cfg(not(test))]
#[panic_handler]
fn on_panic(_info: &core::panic::PanicInfo<'_>) -> ! {
    abort()
}

// Builds without LTO (the dev profile) link the prebuilt `core`, whose
// objects carry unwind tables that name `rust_eh_personality` even though
// this crate aborts on panic. Nothing ever unwinds through them, so a trap
// stands in. It is a *weak* symbol: a program that also links `std` (another
// Rust library) keeps std's real one instead of failing with a duplicate.
// Release builds use LTO, which drops the reference; the weak symbol is then
// unused. Kept out of the header: cbindgen does not read assembly.
#[cfg(all(
    not(test),
    any(target_os = "linux", target_os = "android"),
    any(target_arch = "x86", target_arch = "x86_64")
))]
core::arch::global_asm!(
    ".pushsection .text.rust_eh_personality,\"ax\",%progbits",
    ".weak rust_eh_personality",
    ".type rust_eh_personality,%function",
    "rust_eh_personality:",
    "ud2",
    ".size rust_eh_personality, . - rust_eh_personality",
    ".popsection",
);
#[cfg(all(
    not(test),
    any(target_os = "linux", target_os = "android"),
    any(target_arch = "arm", target_arch = "aarch64")
))]
core::arch::global_asm!(
    ".pushsection .text.rust_eh_personality,\"ax\",%progbits",
    ".weak rust_eh_personality",
    ".type rust_eh_personality,%function",
    "rust_eh_personality:",
    "udf #0",
    ".size rust_eh_personality, . - rust_eh_personality",
    ".popsection",
);

/// Stops the program with the target's trap instruction (what
/// `core::intrinsics::abort` does, which is not stable): SIGILL on Unix, a
/// HardFault on Cortex-M. No libc, so it works freestanding.
#[cfg(not(test))]
fn abort() -> ! {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    // SAFETY: `ud2` raises an invalid-opcode exception; it reads and writes
    // no memory and never returns.
    unsafe {
        core::arch::asm!("ud2", options(noreturn, nomem, nostack))
    }
    #[cfg(any(target_arch = "arm", target_arch = "aarch64"))]
    // SAFETY: `udf` is a permanently undefined instruction: it traps, reads
    // and writes no memory and never returns.
    unsafe {
        core::arch::asm!("udf #0", options(noreturn, nomem, nostack))
    }
    #[cfg(any(target_arch = "riscv32", target_arch = "riscv64"))]
    // SAFETY: `unimp` is an illegal instruction: it traps, reads and writes
    // no memory and never returns.
    unsafe {
        core::arch::asm!("unimp", options(noreturn, nomem, nostack))
    }
    #[cfg(target_arch = "wasm32")]
    core::arch::wasm32::unreachable();
    #[cfg(not(any(
        target_arch = "x86",
        target_arch = "x86_64",
        target_arch = "arm",
        target_arch = "aarch64",
        target_arch = "riscv32",
        target_arch = "riscv64",
        target_arch = "wasm32"
    )))]
    loop {
        core::hint::spin_loop();
    }
}
