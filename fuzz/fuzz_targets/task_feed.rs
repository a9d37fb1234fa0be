#![no_main]
//! Fuzz target `task_feed`: see [`mrtr_fuzz::task_feed`] for the input format and the
//! properties checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| mrtr_fuzz::task_feed::run(data));
