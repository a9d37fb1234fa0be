//! One module per contender. Each exposes `parse` (returning a
//! [`Summary`](crate::Summary)) and, where it can build a retry, `leg`, plus
//! `*_runner` constructors that prepare everything reusable once.

pub mod ffi;
pub mod mrtr;
pub mod rmcp_sdk;
pub mod serde_raw;
pub mod serde_value;
pub mod simd;
