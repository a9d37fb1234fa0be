//! Shared test harness: a demo server with a fixed key, a settable clock and
//! a constant "RNG", so every emitted byte (sealed tokens included) is known.

#![allow(dead_code)]

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use mrtr_core::json;
use mrtr_core::seal::{binding_digest, sealed_len, SealConfig, Sealer};
use mrtr_demo_server::http::{self, HttpResponse};
use mrtr_demo_server::{Caller, Demo, Reply};
use serde_json::{json, Value};

/// The harness key: fixed, so every sealed token is known (not all one byte:
/// such keys are refused as weak).
pub const KEY: [u8; 32] = *b"demo harness key, 32 bytes long!";
pub const NOW: u64 = 1_800_000_000;
pub const NAME: &str = "mrtr-demo-server";
/// Every random byte the harness hands out.
pub const RANDOM_BYTE: u8 = 0x42;

pub struct Harness {
    pub demo: Demo,
    pub clock: Arc<AtomicU64>,
}

pub fn harness() -> Harness {
    harness_with(|d| d)
}

/// A harness whose server also serves the seed task dialect (`--seed-tasks`).
pub fn seed_harness() -> Harness {
    harness_with(Demo::with_seed_tasks)
}

/// A harness whose server is configured by `setup`.
pub fn harness_with(setup: impl FnOnce(Demo) -> Demo) -> Harness {
    let clock = Arc::new(AtomicU64::new(NOW));
    let c = Arc::clone(&clock);
    let demo = Demo::new(
        NAME,
        &[KEY.to_vec()],
        Box::new(move || c.load(Ordering::SeqCst)),
        Box::new(|buf: &mut [u8]| buf.fill(RANDOM_BYTE)),
        false,
    )
    .expect("valid key");
    Harness {
        demo: setup(demo),
        clock,
    }
}

/// Every client capability MRTR knows (no tasks extension).
pub fn all_caps() -> Value {
    json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}})
}

pub fn meta(caps: &Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": caps,
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"}
    })
}

/// A request; `params._meta` is added with `caps` unless `caps` is null or
/// params already has `_meta`.
pub fn request(id: i64, method: &str, mut params: Value, caps: &Value) -> Vec<u8> {
    if !caps.is_null() && params.get("_meta").is_none() {
        params["_meta"] = meta(caps);
    }
    serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
        .unwrap()
}

/// `tools/call` of `name` with `args`, plus `extra` members (inputResponses,
/// requestState, task).
pub fn tool_call(id: i64, name: &str, args: &Value, extra: Value, caps: &Value) -> Vec<u8> {
    let mut params = json!({"name": name, "arguments": args});
    if let Value::Object(m) = extra {
        for (k, v) in m {
            params[k] = v;
        }
    }
    request(id, "tools/call", params, caps)
}

pub fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

impl Harness {
    pub fn send(&self, bytes: &[u8]) -> Reply {
        self.send_as(bytes, None)
    }

    pub fn send_as(&self, bytes: &[u8], principal: Option<[u8; 32]>) -> Reply {
        self.demo
            .handle(bytes, &Caller { principal }, None)
            .expect("a request gets a response")
    }

    pub fn set_now(&self, t: u64) {
        self.clock.store(t, Ordering::SeqCst);
    }

    /// POST /mcp with the standard headers for `method`/`name` plus `extra`
    /// (an extra with an empty value removes the header).
    pub fn post(
        &self,
        body: &[u8],
        method: &str,
        name: Option<&str>,
        extra: &[(&str, &str)],
    ) -> HttpResponse {
        let mut headers: Vec<(String, String)> = vec![
            ("Content-Type".into(), "application/json".into()),
            (
                "Accept".into(),
                "application/json, text/event-stream".into(),
            ),
            ("Host".into(), "127.0.0.1:8080".into()),
            ("MCP-Protocol-Version".into(), "2026-07-28".into()),
            ("Mcp-Method".into(), method.into()),
        ];
        if let Some(n) = name {
            headers.push(("Mcp-Name".into(), n.into()));
        }
        for (k, v) in extra {
            headers.retain(|(n, _)| !n.eq_ignore_ascii_case(k));
            if !v.is_empty() {
                headers.push(((*k).into(), (*v).into()));
            }
        }
        http::respond(&self.demo, "POST", "/mcp", &headers, body, true)
    }
}

pub fn text(reply: &Reply) -> String {
    String::from_utf8(reply.body.clone()).unwrap()
}

pub fn parsed(reply: &Reply) -> Value {
    serde_json::from_slice(&reply.body).unwrap()
}

/// The tool result text of a complete reply.
pub fn result_text(reply: &Reply) -> String {
    let v = parsed(reply);
    assert_eq!(v["result"]["resultType"], "complete", "{v}");
    v["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The token the harness's server mints for `plaintext` on a request of
/// `method` at `target` with `args`, at time `now`.
pub fn token_at(
    now: u64,
    method: &str,
    target: &str,
    args: Option<&Value>,
    principal: Option<&[u8]>,
    plaintext: &str,
) -> String {
    let sealer = Sealer::new(&[&KEY], NAME.as_bytes(), SealConfig::default()).unwrap();
    let args_bytes = args
        .filter(|a| a.as_object().is_none_or(|o| !o.is_empty()))
        .map(|a| serde_json::to_vec(a).unwrap());
    let value = args_bytes.as_deref().map(|b| json::parse(b).unwrap());
    let binding = binding_digest(method, target, value).unwrap();
    let mut out = vec![0u8; sealed_len(plaintext.len())];
    let n = sealer
        .seal(
            now,
            &[RANDOM_BYTE; 24],
            &binding,
            principal,
            plaintext.as_bytes(),
            &mut out,
        )
        .unwrap();
    String::from_utf8(out[..n].to_vec()).unwrap()
}

pub fn token(method: &str, target: &str, args: Option<&Value>, plaintext: &str) -> String {
    token_at(NOW, method, target, args, None, plaintext)
}

/// The frozen answer to every requestState failure.
pub fn invalid_state(id: i64) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32602,"message":"Invalid or expired requestState"}}}}"#
    )
}
