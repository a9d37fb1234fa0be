//! # mrtr-demo-server
//!
//! An MCP `2026-07-28` server on `mrtr-core`'s server half and `requestState`
//! sealing, with one tool per MRTR feature, the conformance suite's tools and
//! prompt, and two task tools (one per task dialect). Transports: stdio
//! (newline-delimited JSON-RPC) and Streamable HTTP (`POST /mcp`, JSON
//! responses). See the README beside this crate for the tool list.
//!
//! Layout: [`server`] handles one message (parse, check, verify state,
//! route, emit); [`flows`] holds the tools, prompts and resource template;
//! [`tasks`] the task tools and methods; [`http`] and [`stdio`] the
//! transports; [`state`] the sealed state and request binding; [`config`] the
//! command line and keys; [`replay_store`] one-shot tokens across a fleet;
//! [`emit`] owned buffers over the core's writers.

#![forbid(unsafe_code)]

pub mod config;
pub mod emit;
pub mod flows;
pub mod http;
pub mod replay_store;
pub mod server;
pub mod state;
pub mod stdio;
pub mod subscriptions;
pub mod tasks;

pub use server::{Caller, Demo, ReplayCache, ReplayRefusal, Reply, REPLAY_STORE_DOWN_MESSAGE};
