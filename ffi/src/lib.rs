//! C ABI over `mrtr-core` (filled in by the C ABI work; see DESIGN.md section 5).
#![no_std]

// The code here uses `core` only. A staticlib/cdylib still needs a panic
// runtime: on hosted targets it is std's (our code paths return errors and
// never panic on purpose); bare-metal targets get a minimal handler.
#[cfg(not(target_os = "none"))]
extern crate std;

#[cfg(target_os = "none")]
#[panic_handler]
fn panic(_info: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}
