#![no_main]
//! Fuzz target `client_feed`: see [`mrtr_fuzz::client_feed`] for the input format and the
//! properties checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| mrtr_fuzz::client_feed::run(data));
