#![no_main]
//! Fuzz target `url`: see [`mrtr_fuzz::url`] for the input format and the
//! properties checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| mrtr_fuzz::url::run(data));
