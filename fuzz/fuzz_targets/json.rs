#![no_main]
//! Fuzz target `json`: see [`mrtr_fuzz::json`] for the input format and the
//! properties checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| mrtr_fuzz::json::run(data));
