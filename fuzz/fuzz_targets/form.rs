#![no_main]
//! Fuzz target `form`: see [`mrtr_fuzz::form`] for the input format and the
//! properties checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| mrtr_fuzz::form::run(data));
