//! The server half against every shared `client_request` vector: what
//! `server::ServerRequest::parse` concludes must equal the vector's `expect`,
//! field for field.
#![cfg(feature = "server")]

#[path = "support/vectors.rs"]
#[allow(dead_code)]
mod vectors;

use mrtr_core::json::JsonStr;
use mrtr_core::server::{Incoming, MetaPolicy, Method, RequestErrorKind, ServerRequest};
use mrtr_core::wire::{InputResponse, WireLimits};
use serde_json::{json as j, Value as J};

fn s(t: JsonStr<'_>) -> J {
    J::String(t.chars().collect())
}

/// What a 2026-07-28 server concludes about one request. The vectors test the
/// parser, not the policy for requests without `_meta` ("what to answer then
/// is the server application's policy"), so the runner parses with
/// `MetaPolicy::Optional`; the default `Required` is covered by unit tests.
fn server_view(bytes: &[u8]) -> J {
    let req = match ServerRequest::parse_with(bytes, &WireLimits::default(), MetaPolicy::Optional) {
        Ok(Incoming::Request(r)) => r,
        // A call without an id is not a request (the vectors' reading).
        Ok(Incoming::Notification(_)) | Ok(Incoming::Response) => {
            return j!({"outcome": "invalid", "error": "envelope"})
        }
        Err(e) => {
            let category = match e.kind {
                RequestErrorKind::Json(_) => "json",
                RequestErrorKind::Envelope(_) => "envelope",
                _ => "protocol",
            };
            return j!({"outcome": "invalid", "error": category});
        }
    };
    let method = match req.method {
        Method::Other(m) => s(m),
        m => J::String(m.name().unwrap_or_default().into()),
    };
    let mut responses = Vec::new();
    if let Some(map) = req.input_responses {
        for (key, value) in map.raw().iter() {
            let shape = match InputResponse::parse(value) {
                Some(r) if r.wrapped => "wrapped",
                _ => "bare",
            };
            responses.push(j!({"key": s(key), "shape": shape}));
        }
    }
    let mut view = j!({
        "outcome": "request",
        "method": method,
        "hasRequestState": req.request_state.is_some(),
        "inputResponses": responses,
        "protocolVersion": req.meta.and_then(|m| m.protocol_version).map(s).unwrap_or(J::Null),
    });
    let extra = [
        ("name", req.name),
        ("uri", req.uri),
        ("taskId", req.task_id),
    ];
    for (field, value) in extra {
        if let Some(v) = value {
            view[field] = s(v);
        }
    }
    view
}

#[test]
fn the_server_half_agrees_with_every_client_request_vector() {
    let dir = vectors::default_dir();
    let all = vectors::load_all(&dir).expect("vectors load");
    let mut checked = 0;
    let mut disagree = Vec::new();
    for v in &all {
        let file: J =
            serde_json::from_slice(&std::fs::read(dir.join(format!("{}.json", v.name))).unwrap())
                .unwrap();
        if file["direction"] != "client_request" {
            continue;
        }
        let got = server_view(&v.message);
        let want = file["expect"].clone();
        if got != want {
            disagree.push(format!("{}:\n   want {}\n   got  {}", v.name, want, got));
        }
        checked += 1;
    }
    assert!(checked >= 70, "only {checked} client_request vectors");
    assert!(
        disagree.is_empty(),
        "{} of {checked} disagree:\n{}",
        disagree.len(),
        disagree.join("\n")
    );
}
