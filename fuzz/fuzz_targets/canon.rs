#![no_main]
//! Fuzz target `canon`: see [`mrtr_fuzz::canon`] for the input format and the
//! properties checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| mrtr_fuzz::canon::run(data));
