//! The wire layer (client side) against every shared `server_response` vector:
//! what `wire::parse_message` + `classify_result_from` + the capability check
//! conclude must equal the vector's `expect`, field for field.

#[path = "support/vectors.rs"]
#[allow(dead_code)]
mod vectors;

use mrtr_core::json;
use mrtr_core::wire::{
    self, classify_result_from, parse_message, parse_message_indexed, ClientCapabilities,
    InputRequest, Message, ResultOutcome, ServerRevision, WireError, WireLimits,
};
use serde_json::{json as j, Value as J};

fn s(t: json::JsonStr<'_>) -> J {
    J::String(t.chars().collect())
}

fn category(e: &WireError) -> J {
    j!({"outcome": "invalid", "error": match e {
        WireError::Json(_) => "json",
        WireError::Envelope(_) => "envelope",
        WireError::Protocol(_) => "protocol",
    }})
}

/// What a 2026-07-28 client concludes about one response, read with a skip
/// index of `slots` slots (0: `parse_message`).
fn client_view(
    bytes: &[u8],
    method: &str,
    revision: ServerRevision,
    caps: &ClientCapabilities,
    slots: usize,
) -> J {
    let limits = WireLimits::default();
    let mut index = vec![json::IndexSlot::EMPTY; slots];
    let parsed = if slots == 0 {
        parse_message(bytes, &limits)
    } else {
        parse_message_indexed(bytes, &limits, &mut index)
    };
    let msg = match parsed {
        Ok(m) => m,
        Err(e) => return category(&e),
    };
    let result = match msg {
        Message::Result { result, .. } => result,
        Message::Error { code, message, .. } => {
            return j!({"outcome": "rpc_error", "code": code, "message": s(message)})
        }
        // A request or notification is not a response.
        _ => return j!({"outcome": "invalid", "error": "envelope"}),
    };
    match classify_result_from(result, method, revision, &limits) {
        Err(e) => category(&e),
        Ok(ResultOutcome::Complete(_)) => j!({"outcome": "complete"}),
        Ok(ResultOutcome::Task(_)) => j!({"outcome": "task"}),
        Ok(ResultOutcome::InputRequired(ir)) => {
            let mut inputs = Vec::new();
            if let Some(reqs) = ir.input_requests {
                if !caps.covers(&reqs.required_capabilities()) {
                    return j!({"outcome": "invalid", "error": "protocol"});
                }
                for (key, req) in reqs.iter() {
                    inputs.push(match req {
                        InputRequest::ElicitForm { message, .. } => {
                            j!({"key": s(key), "kind": "elicit_form", "message": s(message)})
                        }
                        InputRequest::ElicitUrl { message, url } => {
                            j!({"key": s(key), "kind": "elicit_url", "message": s(message), "url": s(url)})
                        }
                        InputRequest::Sampling { max_tokens, system_prompt, has_tools, params, .. } => {
                            // `hasTools` in the vectors means "a tools member is present".
                            let _ = has_tools;
                            j!({"key": s(key), "kind": "sampling", "maxTokens": max_tokens,
                                "systemPrompt": system_prompt.map(s).unwrap_or(J::Null),
                                "hasTools": params.get("tools").is_some()})
                        }
                        InputRequest::Roots => j!({"key": s(key), "kind": "roots"}),
                    });
                }
            }
            j!({"outcome": "input_required",
                "requestState": ir.request_state.map(s).unwrap_or(J::Null),
                "inputs": inputs})
        }
    }
}

#[test]
fn client_side_wire_agrees_with_every_server_response_vector() {
    let dir = vectors::default_dir();
    let all = vectors::load_all(&dir).expect("vectors load");
    let mut checked = 0;
    let mut disagree = Vec::new();
    for v in &all {
        let file: J =
            serde_json::from_slice(&std::fs::read(dir.join(format!("{}.json", v.name))).unwrap())
                .unwrap();
        if file["direction"] != "server_response" {
            continue;
        }
        let method = file["method"].as_str().expect("method");
        let revision = match file.get("server_protocol_version").and_then(J::as_str) {
            None | Some(wire::PROTOCOL_VERSION) => ServerRevision::Current,
            Some(_) => ServerRevision::Earlier,
        };
        let caps_json = file.get("client_capabilities").cloned().unwrap_or(
            j!({"elicitation": {"form": {}, "url": {}}, "sampling": {"tools": {}}, "roots": {}}),
        );
        let caps_text = serde_json::to_vec(&caps_json).unwrap();
        let caps = ClientCapabilities::parse(json::parse(&caps_text).unwrap().as_object().unwrap())
            .unwrap();
        let got = client_view(&v.message, method, revision, &caps, 0);
        // The skip index changes nothing, whether it holds a few of the
        // containers or all of them.
        for slots in [2, 32] {
            assert_eq!(
                client_view(&v.message, method, revision, &caps, slots),
                got,
                "{} with {slots} index slots",
                v.name
            );
        }
        let mut want = file["expect"].clone();
        if want["outcome"] == "input_required" {
            // Compare only the documented fields.
            want = j!({"outcome": "input_required", "requestState": want["requestState"], "inputs": want["inputs"]});
        }
        if want["outcome"] == "rpc_error" {
            want = j!({"outcome": "rpc_error", "code": want["code"], "message": want["message"]});
        }
        if got != want {
            disagree.push(format!("{}:\n   want {}\n   got  {}", v.name, want, got));
        }
        checked += 1;
    }
    assert!(checked >= 150, "only {checked} server_response vectors");
    assert!(
        disagree.is_empty(),
        "{} of {checked} disagree:\n{}",
        disagree.len(),
        disagree.join("\n")
    );
}
