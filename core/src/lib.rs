//! # mrtr-core
//!
//! A sans-IO, `no_std`, allocation-free implementation of MCP *Multi Round-Trip
//! Requests* (protocol revision `2026-07-28`): the JSON layer, the wire
//! vocabulary, the client call state machine, the server half and the sealing of
//! `requestState`.
//!
//! The core never performs I/O, never reads a clock and never draws randomness:
//! the application passes bytes, `now` and nonces in. Every buffer is borrowed
//! from the caller; every capacity is a named limit with a precise error.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

#[cfg(test)]
extern crate std;

mod bytes;
#[cfg(feature = "client")]
pub mod client;
pub mod json;
pub mod params;
#[cfg(feature = "seal")]
pub mod seal;
pub mod wire;

#[cfg(feature = "server")]
pub mod server;
