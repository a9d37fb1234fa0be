//! The demo's own state inside `requestState`, and the request binding.
//!
//! The plaintext is a small JSON object written with the core's writer and
//! read back with its reader (`{"t":"plan_trip","travelers":2}`); the core's
//! `Sealer` encrypts it and binds it to the request, the principal, the
//! audience and a time window. `"t"` names the flow that minted it, so a state
//! is never read by a flow whose questions it does not answer.

use mrtr_core::json::{self, Value};
use mrtr_core::seal::{binding_digest, CanonError};
use mrtr_core::server::{Method, ServerRequest};

/// The application state carried by one verified `requestState`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppState {
    plaintext: Vec<u8>,
}

impl AppState {
    /// Wraps the unsealed plaintext.
    pub fn new(plaintext: Vec<u8>) -> Self {
        AppState { plaintext }
    }

    /// The plaintext bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.plaintext
    }

    fn member(&self, key: &str) -> Option<Value<'_>> {
        json::parse(&self.plaintext)
            .ok()?
            .as_object()?
            .get_unique(key)
            .ok()
            .flatten()
    }

    /// Whether the state was minted by flow `tool`.
    pub fn is_from(&self, tool: &str) -> bool {
        self.str("t").as_deref() == Some(tool)
    }

    /// A string member, decoded.
    pub fn str(&self, key: &str) -> Option<String> {
        self.member(key)?.as_str().map(|s| s.chars().collect())
    }

    /// An integer member.
    pub fn int(&self, key: &str) -> Option<i64> {
        self.member(key)?.as_i64()
    }

    /// An array of strings member.
    pub fn strings(&self, key: &str) -> Option<Vec<String>> {
        let arr = self.member(key)?.as_array()?;
        arr.iter()
            .map(|v| v.as_str().map(|s| s.chars().collect()))
            .collect()
    }
}

/// The text of the request's target: tool or prompt name, resource URI, or
/// task id (`""` when the method has none).
pub fn target(req: &ServerRequest<'_>) -> String {
    req.name
        .or(req.uri)
        .or(req.task_id)
        .map(|s| s.chars().collect())
        .unwrap_or_default()
}

/// The wire name of the request's method.
pub fn method_name(req: &ServerRequest<'_>) -> String {
    match req.method {
        Method::Other(name) => name.chars().collect(),
        m => m.name().unwrap_or_default().to_string(),
    }
}

/// The binding digest of a request: method, target and canonical
/// arguments. Absent arguments and `{}` bind alike: clients differ on
/// whether they send an empty object, and the meaning is the same.
pub fn binding(req: &ServerRequest<'_>) -> Result<[u8; 32], CanonError> {
    let args = req
        .arguments
        .filter(|a| !a.is_empty())
        .and_then(|a| json::parse(a.raw()).ok());
    binding_digest(&method_name(req), &target(req), args)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit;

    #[test]
    fn state_members_read_back() {
        let bytes = emit::json(|w| {
            w.raw(br#"{"t":"plan_trip","n":3,"s":"a\"b","l":["x","y"]}"#);
        });
        let s = AppState::new(bytes);
        assert!(s.is_from("plan_trip"));
        assert!(!s.is_from("plan"));
        assert_eq!(s.int("n"), Some(3));
        assert_eq!(s.str("s").as_deref(), Some("a\"b"));
        assert_eq!(s.strings("l"), Some(vec!["x".to_string(), "y".to_string()]));
        assert_eq!(s.str("missing"), None);
        assert_eq!(AppState::new(b"not json".to_vec()).str("t"), None);
    }
}
