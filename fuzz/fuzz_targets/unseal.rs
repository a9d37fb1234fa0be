#![no_main]
//! Fuzz target `unseal`: see [`mrtr_fuzz::unseal`] for the input format and the
//! properties checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| mrtr_fuzz::unseal::run(data));
