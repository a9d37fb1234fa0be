//! C ABI over `mrtr-core` (filled in by the C ABI work; see DESIGN.md section 5).
#![no_std]
