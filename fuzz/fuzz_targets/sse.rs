#![no_main]
//! Fuzz target `sse`: see [`mrtr_fuzz::sse`] for the input format and the
//! properties checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| mrtr_fuzz::sse::run(data));
