//! Tests of the server half. Flows are written as request bytes -> app logic
//! (in the test) -> exact response bytes.

use std::string::String;
use std::vec::Vec;

use super::*;
use crate::wire::{Id, WireLimits};

mod builder;
mod errors;
mod flows;
mod hostile;
mod numbering;
mod parse;
mod tasks;

/// `_meta` of a 2026-07-28 request declaring `caps` (a JSON object).
fn meta(caps: &str) -> String {
    std::format!(
        r#"{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{caps},"io.modelcontextprotocol/clientInfo":{{"name":"test-client","version":"1.0.0"}}}}"#
    )
}

/// A `tools/call` request with `rest` appended to its params (after `name`).
fn tools_call(id: i64, caps: &str, name: &str, rest: &str) -> Vec<u8> {
    std::format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"_meta":{},"name":"{name}"{rest}}}}}"#,
        meta(caps)
    )
    .into_bytes()
}

/// Parses bytes that must be a request.
fn request(bytes: &[u8]) -> ServerRequest<'_> {
    match ServerRequest::parse(bytes, &WireLimits::default()) {
        Ok(Incoming::Request(r)) => r,
        other => panic!("not a request: {other:?}"),
    }
}

/// Parses bytes that must fail, returning the error.
fn refused(bytes: &[u8]) -> ServerRequestError<'_> {
    match ServerRequest::parse(bytes, &WireLimits::default()) {
        Err(e) => e,
        Ok(other) => panic!("accepted: {other:?}"),
    }
}

/// Runs a writer into a roomy buffer and returns the text written; also
/// checks that the size reported for a one-byte-short buffer is exact.
fn emit<E: core::fmt::Debug>(mut write: impl FnMut(&mut [u8]) -> Result<usize, E>) -> String {
    let mut buf = std::vec![0u8; 1 << 16];
    let n = write(&mut buf).expect("writer failed");
    let mut short = std::vec![0u8; n - 1];
    let e = write(&mut short).expect_err("a one-byte-short buffer must fail");
    let needed = std::format!("{e:?}");
    assert!(
        needed.contains(&std::format!("needed: {n}")),
        "short buffer must report needed = {n}, got {needed}"
    );
    String::from_utf8(buf[..n].to_vec()).unwrap()
}

/// The error response for a parse failure.
fn error_response(e: &ServerRequestError<'_>) -> String {
    emit(|out| e.write(out))
}

/// Checks a message with serde_json too (a second, independent reader).
fn assert_json(s: &str) -> serde_json::Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("invalid JSON {e}: {s}"))
}

fn num(id: i64) -> Id<'static> {
    Id::Number(id)
}

/// Any writer failure, for app logic written in tests.
#[derive(Debug)]
enum Fail {
    Short {
        #[allow(dead_code)]
        needed: usize,
    },
    Other(#[allow(dead_code)] String),
}

impl From<BuildError> for Fail {
    fn from(e: BuildError) -> Self {
        match e {
            BuildError::BufferTooSmall { needed } => Fail::Short { needed },
            e => Fail::Other(std::format!("{e:?}")),
        }
    }
}

impl From<CompleteError> for Fail {
    fn from(e: CompleteError) -> Self {
        match e {
            CompleteError::BufferTooSmall { needed } => Fail::Short { needed },
            e => Fail::Other(std::format!("{e:?}")),
        }
    }
}

impl From<crate::json::BufferTooSmall> for Fail {
    fn from(e: crate::json::BufferTooSmall) -> Self {
        Fail::Short { needed: e.needed }
    }
}

impl From<TaskWriteError> for Fail {
    fn from(e: TaskWriteError) -> Self {
        match e {
            TaskWriteError::BufferTooSmall { needed } => Fail::Short { needed },
            e => Fail::Other(std::format!("{e:?}")),
        }
    }
}
