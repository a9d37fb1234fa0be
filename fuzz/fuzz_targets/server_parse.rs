#![no_main]
//! Fuzz target `server_parse`: see [`mrtr_fuzz::server_parse`] for the input
//! format and the properties checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| mrtr_fuzz::server_parse::run(data));
