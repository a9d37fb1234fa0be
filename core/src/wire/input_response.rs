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
/// The discriminants are the C API's `mrtr_answer_kind` (0 is none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum ResponseKind {
    /// An `ElicitResult` (`action`).
    Elicit = 1,
    /// A `CreateMessageResult` (`role`, `content`, `model`).
    Sampling = 2,
    /// A `ListRootsResult` (`roots`).
    Roots = 3,
}

impl ResponseKind {
    /// The kind numbered `code` (its discriminant); `None` otherwise.
    pub fn from_code(code: u32) -> Option<ResponseKind> {
        [
            ResponseKind::Elicit,
            ResponseKind::Sampling,
            ResponseKind::Roots,
        ]
        .into_iter()
        .find(|k| *k as u32 == code)
    }
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
        // The members are walked only after a first key named `result`: a
        // bare answer's first key is read alone (its value not skipped).
        if obj.first_key().is_some_and(|k| k.eq_str("result")) {
            let mut it = obj.iter();
            if let Some((_, inner)) = it.next() {
                if it.next().is_none() {
                    return Some(InputResponse {
                        value: inner.as_object()?,
                        wrapped: true,
                    });
                }
            }
        }
        Some(InputResponse {
            value: obj,
            wrapped: false,
        })
    }

    /// Classifies the response by its required fields.
    ///
    /// `action` and `roots` are read at their first occurrence (as
    /// [`Object::get`] does); the three sampling members, which need only
    /// be present, are looked up in one walk.
    pub fn kind(&self) -> Option<ResponseKind> {
        let o = self.value;
        if o.get("action")
            .and_then(|a| a.as_str())
            .is_some_and(|a| ElicitAction::parse(&a).is_some())
        {
            Some(ResponseKind::Elicit)
        } else if o.get("roots").is_some_and(|r| r.as_array().is_some()) {
            Some(ResponseKind::Roots)
        } else if o
            .get_unique_many(["role", "content", "model"])
            .iter()
            // Present at all (a repeated one is present too).
            .all(|found| !matches!(found, Ok(None)))
        {
            Some(ResponseKind::Sampling)
        } else {
            None
        }
    }
}

/// Why a result object is not a valid answer of its kind. Both halves run
/// the same readers ([`read_elicit_result`], [`read_sampling_result`],
/// [`read_roots_result`]): what a client may send is exactly what a server
/// accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShapeError {
    /// The member appears more than once (`role` twice, ...).
    Duplicate(&'static str),
    /// The member is missing, of the wrong type, or has a value the schema
    /// does not allow.
    BadMember(&'static str),
}

impl core::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ShapeError::Duplicate(m) => write!(f, "member {m:?} appears more than once"),
            ShapeError::BadMember(m) => write!(f, "member {m:?} is missing or invalid"),
        }
    }
}

impl core::error::Error for ShapeError {}

/// A member that must appear at most once.
fn unique<'a>(o: Object<'a>, name: &'static str) -> Result<Option<Value<'a>>, ShapeError> {
    once(&o.get_unique(name), name)
}

/// What [`Object::get_unique`] (or an entry of `get_unique_many`) found
/// for `name`, its duplicate named: one small function for every member,
/// not a mapping of the whole array per key count.
fn once<'a>(
    found: &Result<Option<Value<'a>>, crate::json::Error>,
    name: &'static str,
) -> Result<Option<Value<'a>>, ShapeError> {
    match found {
        Ok(v) => Ok(*v),
        Err(_) => Err(ShapeError::Duplicate(name)),
    }
}

/// An optional string member (see [`once`]): absent is `None`, present it
/// must be a string.
fn optional_str<'a>(
    found: &Result<Option<Value<'a>>, crate::json::Error>,
    name: &'static str,
) -> Result<Option<JsonStr<'a>>, ShapeError> {
    match once(found, name)? {
        None => Ok(None),
        Some(v) => v.as_str().map(Some).ok_or(ShapeError::BadMember(name)),
    }
}

/// A required string member (see [`once`]).
fn required_str<'a>(
    found: &Result<Option<Value<'a>>, crate::json::Error>,
    name: &'static str,
) -> Result<JsonStr<'a>, ShapeError> {
    optional_str(found, name)?.ok_or(ShapeError::BadMember(name))
}

/// Reads an `ElicitResult`: `action` (accept, decline, cancel) and an
/// optional `content` object.
pub fn read_elicit_result(o: Object<'_>) -> Result<(ElicitAction, Option<Object<'_>>), ShapeError> {
    let [action, content] = &o.get_unique_many(["action", "content"]);
    let action = once(action, "action")?
        .and_then(|a| a.as_str())
        .and_then(|a| ElicitAction::parse(&a))
        .ok_or(ShapeError::BadMember("action"))?;
    let content = match once(content, "content")? {
        None => None,
        Some(c) => Some(c.as_object().ok_or(ShapeError::BadMember("content"))?),
    };
    Ok((action, content))
}

/// An LLM's answer to a sampling request (`CreateMessageResult`), read by
/// [`read_sampling_result`] (the server half calls it `SamplingAnswer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SamplingResult<'a> {
    /// `role` (`"assistant"` or `"user"`).
    pub role: JsonStr<'a>,
    /// `content`: one content block (object) or an array of them, raw.
    pub content: Value<'a>,
    /// `model`: the model that answered.
    pub model: JsonStr<'a>,
    /// `stopReason`, when given.
    pub stop_reason: Option<JsonStr<'a>>,
    /// The whole result object.
    pub raw: Object<'a>,
}

impl<'a> SamplingResult<'a> {
    /// The text of the answer when `content` is a single text block.
    pub fn text(&self) -> Option<JsonStr<'a>> {
        let c = self.content.as_object()?;
        let is_text = c.get("type").and_then(|t| t.as_str())?.eq_str("text");
        if is_text {
            c.get("text").and_then(|t| t.as_str())
        } else {
            None
        }
    }
}

/// Reads a `CreateMessageResult`: `role` (assistant or user), `content`
/// (object or array), `model` (string), optional `stopReason` (string);
/// each at most once.
pub fn read_sampling_result(o: Object<'_>) -> Result<SamplingResult<'_>, ShapeError> {
    // One walk for the four members; checked in the order they are listed.
    let [role, model, content, stop_reason] =
        &o.get_unique_many(["role", "model", "content", "stopReason"]);
    let role = required_str(role, "role")?;
    if !(role.eq_str("assistant") || role.eq_str("user")) {
        return Err(ShapeError::BadMember("role"));
    }
    let model = required_str(model, "model")?;
    let content = once(content, "content")?
        .filter(|c| c.as_object().is_some() || c.as_array().is_some())
        .ok_or(ShapeError::BadMember("content"))?;
    let stop_reason = optional_str(stop_reason, "stopReason")?;
    Ok(SamplingResult {
        role,
        content,
        model,
        stop_reason,
        raw: o,
    })
}

/// One entry of a `ListRootsResult`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootEntry<'a> {
    /// `uri`, as received (JSON string token).
    pub uri: JsonStr<'a>,
    /// `name`, when present.
    pub name: Option<JsonStr<'a>>,
}

/// Reads one `roots` entry: an object with a string `uri` and an optional
/// string `name`, each at most once.
pub fn read_root_entry(v: Value<'_>) -> Result<RootEntry<'_>, ShapeError> {
    let o = v.as_object().ok_or(ShapeError::BadMember("roots"))?;
    let [uri, name] = &o.get_unique_many(["uri", "name"]);
    let uri = required_str(uri, "uri")?;
    let name = optional_str(name, "name")?;
    Ok(RootEntry { uri, name })
}

/// Reads a `ListRootsResult`: a `roots` array (at most once) whose every
/// entry passes [`read_root_entry`].
pub fn read_roots_result(o: Object<'_>) -> Result<crate::json::Array<'_>, ShapeError> {
    let roots = unique(o, "roots")?
        .and_then(|r| r.as_array())
        .ok_or(ShapeError::BadMember("roots"))?;
    for r in roots.iter() {
        read_root_entry(r)?;
    }
    Ok(roots)
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

    /// The map of a request whose every object was already checked for
    /// repeated keys (the server's deep check of `params`).
    #[cfg(feature = "server")]
    pub(crate) fn trusting_unique_keys(obj: Object<'a>) -> Self {
        InputResponses { obj }
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
