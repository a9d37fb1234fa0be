//! `inputResponses`: the client's answers, keyed as the server asked.
//!
//! Clients emit the bare results of the 2026-07-28 schema. Servers accept the
//! bare shape and the SEP draft's `{"result": ...}` wrapping.

use super::error::Violation;
use super::WireLimits;
use crate::json::{JsonStr, Object, Value, Writer};

/// The user's answer to an elicitation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum ElicitAction {
    /// The user submitted the form or confirmed the action.
    Accept = 1,
    /// The user explicitly declined.
    Decline = 2,
    /// The user dismissed without choosing.
    Cancel = 3,
}

impl ElicitAction {
    /// The wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            ElicitAction::Accept => "accept",
            ElicitAction::Decline => "decline",
            ElicitAction::Cancel => "cancel",
        }
    }

    /// Parses the wire spelling.
    pub fn parse(s: &JsonStr<'_>) -> Option<Self> {
        if s.eq_str("accept") {
            Some(ElicitAction::Accept)
        } else if s.eq_str("decline") {
            Some(ElicitAction::Decline)
        } else if s.eq_str("cancel") {
            Some(ElicitAction::Cancel)
        } else {
            None
        }
    }
}

/// Writes an `ElicitResult`. `content` (raw JSON object) is written only
/// for `accept`.
pub fn write_elicit_result(w: &mut Writer<'_>, action: ElicitAction, content: Option<&[u8]>) {
    w.raw(b"{\"action\":").str(action.as_str());
    if let (ElicitAction::Accept, Some(c)) = (action, content) {
        w.raw(b",\"content\":").raw(c);
    }
    w.byte(b'}');
}

/// One root offered to the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Root<'a> {
    /// A `file://` URI.
    pub uri: &'a str,
    /// Optional display name.
    pub name: Option<&'a str>,
}

/// Writes a `ListRootsResult`.
pub fn write_roots_result(w: &mut Writer<'_>, roots: &[Root<'_>]) {
    w.raw(b"{\"roots\":[");
    let mut first = true;
    for r in roots {
        w.comma(&mut first).raw(b"{\"uri\":").str(r.uri);
        if let Some(n) = r.name {
            w.raw(b",\"name\":").str(n);
        }
        w.byte(b'}');
    }
    w.raw(b"]}");
}

/// The kind of a received input response, judged by its required fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResponseKind {
    /// An `ElicitResult` (`action`).
    Elicit,
    /// A `CreateMessageResult` (`role`, `content`, `model`).
    Sampling,
    /// A `ListRootsResult` (`roots`).
    Roots,
}

/// One received input response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputResponse<'a> {
    /// The bare result object (unwrapped if it came as `{"result": ..}`).
    pub value: Object<'a>,
    /// Whether it came in the SEP draft's `{"result": ..}` wrapping.
    pub wrapped: bool,
}

impl<'a> InputResponse<'a> {
    /// Reads one entry; `None` if it is not an object (servers ignore such
    /// entries unless they need that key).
    pub fn parse(v: Value<'a>) -> Option<Self> {
        let obj = v.as_object()?;
        let mut it = obj.iter();
        if let (Some((k, inner)), None) = (it.next(), it.next()) {
            if k.eq_str("result") {
                return Some(InputResponse {
                    value: inner.as_object()?,
                    wrapped: true,
                });
            }
        }
        Some(InputResponse {
            value: obj,
            wrapped: false,
        })
    }

    /// Classifies the response by its required fields.
    pub fn kind(&self) -> Option<ResponseKind> {
        let o = self.value;
        if o.get("action")
            .and_then(|a| a.as_str())
            .is_some_and(|a| ElicitAction::parse(&a).is_some())
        {
            Some(ResponseKind::Elicit)
        } else if o.get("roots").is_some_and(|r| r.as_array().is_some()) {
            Some(ResponseKind::Roots)
        } else if o.get("role").is_some() && o.get("content").is_some() && o.get("model").is_some()
        {
            Some(ResponseKind::Sampling)
        } else {
            None
        }
    }
}

/// A received `inputResponses` map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputResponses<'a> {
    obj: Object<'a>,
}

impl<'a> InputResponses<'a> {
    /// Validates the map itself: an object, unique keys, bounded size.
    /// Entries are judged only when looked up, so malformed entries under
    /// keys the server does not need are ignored as the spec asks.
    pub fn parse(v: Value<'a>, limits: &WireLimits) -> Result<Self, Violation> {
        let obj = v.as_object().ok_or(Violation::BadInputResponses)?;
        obj.check_unique_keys(limits.max_input_requests)
            .map_err(|e| match e.kind {
                crate::json::ErrorKind::TooManyMembers => Violation::TooManyInputRequests,
                _ => Violation::DuplicateInputKey,
            })?;
        Ok(InputResponses { obj })
    }

    /// The raw map.
    pub fn raw(&self) -> Object<'a> {
        self.obj
    }

    /// The response under `key`, if present and an object.
    pub fn get(&self, key: &str) -> Option<InputResponse<'a>> {
        self.obj.get(key).and_then(InputResponse::parse)
    }

    /// Every key, in document order.
    pub fn keys(&self) -> impl Iterator<Item = JsonStr<'a>> + 'a {
        self.obj.iter().map(|(k, _)| k)
    }
}
