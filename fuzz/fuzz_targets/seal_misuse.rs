#![no_main]
//! Fuzz target `seal_misuse`: see [`mrtr_fuzz::seal_misuse`] for the input
//! format and the properties checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| mrtr_fuzz::seal_misuse::run(data));
