//! serde_json's fastest path: borrowed structs (`Cow<str>` that borrow when
//! a string has no escapes) and `&RawValue` for everything carried but not
//! read. One pass over the envelope; the params of each input request are
//! captured raw and read in a second, typed pass once `method` is known
//! (serde cannot pick the params type from a sibling member in one pass
//! without buffering).

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::contenders::mrtr::meta_json;
use crate::inputs::{TOOL_ARGUMENTS, TOOL_NAME};
use crate::kit::{answers, Runner, ServerSummary, Summary};

/// A string that borrows from the input unless it has escapes. serde
/// borrows a `Cow<str>` only for a field marked `borrow`, never inside an
/// `Option` or as a map key, hence this newtype.
#[derive(Deserialize, PartialEq)]
struct Text<'a>(#[serde(borrow)] Cow<'a, str>);

impl std::ops::Deref for Text<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(borrow)]
    jsonrpc: Text<'a>,
    #[serde(borrow)]
    #[allow(dead_code)] // read to require it
    id: &'a RawValue,
    #[serde(borrow, default)]
    result: Option<ResultHead<'a>>,
    #[serde(borrow, default)]
    error: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct ResultHead<'a> {
    #[serde(rename = "resultType", borrow, default)]
    result_type: Option<Text<'a>>,
    #[serde(rename = "inputRequests", borrow, default)]
    input_requests: Option<Entries<'a, InputReq<'a>>>,
    #[serde(rename = "requestState", borrow, default)]
    request_state: Option<Text<'a>>,
}

#[derive(Deserialize)]
struct InputReq<'a> {
    #[serde(borrow)]
    method: Text<'a>,
    #[serde(borrow, default)]
    params: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct ElicitParams<'a> {
    #[serde(borrow, default)]
    mode: Option<Text<'a>>,
    #[serde(borrow)]
    message: Text<'a>,
    #[serde(rename = "requestedSchema", borrow, default)]
    requested_schema: Option<&'a RawValue>,
    #[serde(borrow, default)]
    url: Option<Text<'a>>,
}

#[derive(Deserialize)]
#[allow(dead_code)] // fields are read to validate them, as mrtr does
struct SamplingParams<'a> {
    #[serde(borrow)]
    messages: &'a RawValue,
    #[serde(rename = "maxTokens")]
    max_tokens: u64,
    #[serde(rename = "systemPrompt", borrow, default)]
    system_prompt: Option<Text<'a>>,
    #[serde(borrow, default)]
    tools: Option<&'a RawValue>,
    #[serde(rename = "includeContext", borrow, default)]
    include_context: Option<Text<'a>>,
}

/// An open map kept in document order, duplicate keys refused (as mrtr
/// refuses them in `inputRequests` and `inputResponses`).
struct Entries<'a, V>(Vec<(Text<'a>, V)>);

impl<'de: 'a, 'a, V: Deserialize<'de>> Deserialize<'de> for Entries<'a, V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit<'a, V>(std::marker::PhantomData<(&'a (), V)>);
        impl<'de: 'a, 'a, V: Deserialize<'de>> Visitor<'de> for Visit<'a, V> {
            type Value = Entries<'a, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
                let mut v: Vec<(Text<'a>, V)> = Vec::new();
                while let Some(k) = map.next_key::<Text<'de>>()? {
                    if v.iter().any(|(seen, _)| *seen == k) {
                        return Err(de::Error::custom("duplicate key"));
                    }
                    let val = map.next_value::<V>()?;
                    v.push((k, val));
                }
                Ok(Entries(v))
            }
        }
        d.deserialize_map(Visit(std::marker::PhantomData))
    }
}

/// Kinds, as mrtr's `InputKind`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Form,
    Url,
    Sampling,
    Roots,
}

/// Reads one input request's params by its method; returns the kind and
/// the message (elicitations).
fn read_input<'a>(req: &'a InputReq<'a>) -> Option<(Kind, Option<Text<'a>>)> {
    match &*req.method {
        "elicitation/create" => {
            let p: ElicitParams<'a> = serde_json::from_str(req.params?.get()).ok()?;
            match p.mode.as_deref() {
                Some("url") => {
                    p.url?;
                    Some((Kind::Url, Some(p.message)))
                }
                None | Some("form") => {
                    if !p.requested_schema?.get().starts_with('{') {
                        return None;
                    }
                    Some((Kind::Form, Some(p.message)))
                }
                Some(_) => None,
            }
        }
        "sampling/createMessage" => {
            let p: SamplingParams<'a> = serde_json::from_str(req.params?.get()).ok()?;
            if !p.messages.get().starts_with('[') {
                return None;
            }
            Some((Kind::Sampling, None))
        }
        "roots/list" => Some((Kind::Roots, None)),
        _ => None,
    }
}

/// The classified result: `None` when complete.
fn classify<'a>(env: &'a Envelope<'a>) -> Option<Option<&'a ResultHead<'a>>> {
    if &*env.jsonrpc != "2.0" || env.error.is_some() {
        return None;
    }
    let r = env.result.as_ref()?;
    match r.result_type.as_deref() {
        None | Some("complete") => Some(None),
        Some("input_required") => {
            if r.input_requests.is_none() && r.request_state.is_none() {
                return None;
            }
            Some(Some(r))
        }
        Some(_) => None,
    }
}

/// `parse`: one typed pass, then each input's params by method.
pub fn parse(bytes: &[u8]) -> Option<Summary> {
    let env: Envelope<'_> = serde_json::from_slice(bytes).ok()?;
    let mut s = Summary::default();
    let Some(r) = classify(&env)? else {
        return Some(s);
    };
    s.input_required = true;
    if let Some(entries) = &r.input_requests {
        for (key, req) in &entries.0 {
            let (kind, message) = read_input(req)?;
            s.inputs += 1;
            s.key_bytes += key.len();
            match kind {
                Kind::Form => s.forms += 1,
                Kind::Url => s.urls += 1,
                Kind::Sampling => s.samplings += 1,
                Kind::Roots => s.roots += 1,
            }
            s.message_bytes += message.map_or(0, |m| m.len());
        }
    }
    s.state_bytes = r.request_state.as_ref().map_or(0, |st| st.len());
    Some(s)
}

/// Runner of [`parse`].
pub fn parse_runner(bytes: Vec<u8>) -> Runner {
    Box::new(move || parse(&bytes).map_or(0, |s| s.checksum()))
}

/// `validate`: serde_json's syntax check (`IgnoredAny`).
pub fn validate_runner(bytes: Vec<u8>) -> Runner {
    Box::new(move || serde_json::from_slice::<IgnoredAny>(&bytes).is_ok() as u64)
}

/// The app's original params and answers, prepared once as raw JSON.
pub struct Original {
    meta: Box<RawValue>,
    arguments: Box<RawValue>,
    form: Box<RawValue>,
    url: Box<RawValue>,
    sampling: Box<RawValue>,
    roots: Box<RawValue>,
}

impl Default for Original {
    fn default() -> Self {
        Original::new()
    }
}

impl Original {
    /// Prepares the raw values.
    pub fn new() -> Self {
        let raw = |s: String| RawValue::from_string(s).expect("JSON");
        Original {
            meta: raw(meta_json()),
            arguments: raw(TOOL_ARGUMENTS.to_owned()),
            form: raw(answers::FORM.to_owned()),
            url: raw(answers::URL.to_owned()),
            sampling: raw(answers::SAMPLING.to_owned()),
            roots: raw(answers::ROOTS.to_owned()),
        }
    }
}

#[derive(Serialize)]
struct RetryOut<'a> {
    jsonrpc: &'static str,
    id: u64,
    method: &'static str,
    params: RetryParams<'a>,
}

#[derive(Serialize)]
struct RetryParams<'a> {
    #[serde(rename = "_meta")]
    meta: &'a RawValue,
    name: &'a str,
    arguments: &'a RawValue,
    #[serde(rename = "inputResponses")]
    input_responses: Responses<'a>,
    #[serde(rename = "requestState", skip_serializing_if = "Option::is_none")]
    request_state: Option<&'a str>,
}

struct Responses<'a>(&'a [(&'a str, &'a RawValue)]);

impl Serialize for Responses<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// `leg`: parse, answer by kind, serialize the retry.
pub fn leg(bytes: &[u8], original: &Original) -> Option<Vec<u8>> {
    let env: Envelope<'_> = serde_json::from_slice(bytes).ok()?;
    let r = classify(&env)??;
    let mut responses: Vec<(&str, &RawValue)> = Vec::new();
    if let Some(entries) = &r.input_requests {
        for (key, req) in &entries.0 {
            let answer: &RawValue = match read_input(req)?.0 {
                Kind::Form => &original.form,
                Kind::Url => &original.url,
                Kind::Sampling => &original.sampling,
                Kind::Roots => &original.roots,
            };
            responses.push((&**key, answer));
        }
    }
    let out = RetryOut {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: RetryParams {
            meta: &original.meta,
            name: TOOL_NAME,
            arguments: &original.arguments,
            input_responses: Responses(&responses),
            request_state: r.request_state.as_deref(),
        },
    };
    serde_json::to_vec(&out).ok()
}

/// Runner of [`leg`].
pub fn leg_runner(bytes: Vec<u8>) -> Runner {
    let original = Original::new();
    Box::new(move || leg(&bytes, &original).map_or(0, |r| r.len() as u64))
}

// ------------------------------------------------------------ server side

#[derive(Deserialize)]
struct Request<'a> {
    #[serde(borrow)]
    jsonrpc: Text<'a>,
    #[serde(borrow)]
    #[allow(dead_code)] // read to require it
    id: &'a RawValue,
    #[serde(borrow)]
    method: Text<'a>,
    #[serde(borrow)]
    params: CallParams<'a>,
}

#[derive(Deserialize)]
struct CallParams<'a> {
    #[serde(rename = "_meta", borrow)]
    meta: RequestMeta<'a>,
    #[serde(borrow)]
    name: Text<'a>,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
    #[serde(rename = "inputResponses", borrow, default)]
    input_responses: Option<Entries<'a, &'a RawValue>>,
    #[serde(rename = "requestState", borrow, default)]
    request_state: Option<Text<'a>>,
}

/// The `_meta` members a server reads (mrtr's `RequestMeta`): the
/// protocol version, the capabilities and the client info.
#[derive(Deserialize)]
#[allow(dead_code)] // fields are read to validate them, as mrtr does
struct RequestMeta<'a> {
    #[serde(rename = "io.modelcontextprotocol/protocolVersion", borrow)]
    protocol_version: Text<'a>,
    #[serde(rename = "io.modelcontextprotocol/clientCapabilities", borrow)]
    client_capabilities: Capabilities<'a>,
    #[serde(rename = "io.modelcontextprotocol/clientInfo", borrow, default)]
    client_info: Option<ClientInfo<'a>>,
}

#[derive(Deserialize)]
#[allow(dead_code)] // fields are read to validate them, as mrtr does
struct Capabilities<'a> {
    #[serde(borrow, default)]
    elicitation: Option<&'a RawValue>,
    #[serde(borrow, default)]
    sampling: Option<&'a RawValue>,
    #[serde(borrow, default)]
    roots: Option<&'a RawValue>,
    #[serde(borrow, default)]
    extensions: Option<&'a RawValue>,
}

#[derive(Deserialize)]
#[allow(dead_code)] // fields are read to validate them, as mrtr does
struct ClientInfo<'a> {
    #[serde(borrow)]
    name: Text<'a>,
    #[serde(borrow)]
    version: Text<'a>,
}

/// `server parse`: one typed pass over the retry request, then every
/// response entry and the state.
pub fn server_parse(bytes: &[u8]) -> Option<ServerSummary> {
    let req: Request<'_> = serde_json::from_slice(bytes).ok()?;
    if &*req.jsonrpc != "2.0" || &*req.method != "tools/call" {
        return None;
    }
    let p = &req.params;
    let mut s = ServerSummary {
        name_bytes: p.name.len(),
        argument_bytes: p.arguments.map_or(0, |a| a.get().len()),
        version_bytes: p.meta.protocol_version.len(),
        ..ServerSummary::default()
    };
    if let Some(entries) = &p.input_responses {
        for (key, value) in &entries.0 {
            s.responses += 1;
            s.key_bytes += key.len();
            s.response_bytes += value.get().len();
        }
    }
    s.state_bytes = p.request_state.as_ref().map_or(0, |t| t.len());
    Some(s)
}

/// Runner of [`server_parse`].
pub fn server_parse_runner(bytes: Vec<u8>) -> Runner {
    Box::new(move || server_parse(&bytes).map_or(0, |s| s.checksum()))
}

/// The params of an input request, read for its kind only: `mode` (an
/// elicitation's), every other member skipped (the params stay raw).
#[derive(Deserialize)]
struct ModeOnly<'a> {
    #[serde(borrow, default)]
    mode: Option<Text<'a>>,
}

/// Issue 27's floor for parse+classify: the same borrowed envelope as
/// [`parse`], then each input request's `method` and (elicitations)
/// `params.mode` read to a kind, its params kept raw (no message, schema
/// or sampling fields read). Its summary is mrtr's without
/// `message_bytes`.
pub fn parse_kind(bytes: &[u8]) -> Option<Summary> {
    let env: Envelope<'_> = serde_json::from_slice(bytes).ok()?;
    let mut s = Summary::default();
    let Some(r) = classify(&env)? else {
        return Some(s);
    };
    s.input_required = true;
    if let Some(entries) = &r.input_requests {
        for (key, req) in &entries.0 {
            let kind = match &*req.method {
                "elicitation/create" => {
                    let p: ModeOnly<'_> = serde_json::from_str(req.params?.get()).ok()?;
                    match p.mode.as_deref() {
                        Some("url") => Kind::Url,
                        None | Some("form") => Kind::Form,
                        Some(_) => return None,
                    }
                }
                "sampling/createMessage" => Kind::Sampling,
                "roots/list" => Kind::Roots,
                _ => return None,
            };
            s.inputs += 1;
            s.key_bytes += key.len();
            match kind {
                Kind::Form => s.forms += 1,
                Kind::Url => s.urls += 1,
                Kind::Sampling => s.samplings += 1,
                Kind::Roots => s.roots += 1,
            }
        }
    }
    s.state_bytes = r.request_state.as_ref().map_or(0, |st| st.len());
    Some(s)
}

/// Runner of [`parse_kind`].
pub fn parse_kind_runner(bytes: Vec<u8>) -> Runner {
    Box::new(move || parse_kind(&bytes).map_or(0, |s| s.checksum()))
}

/// One `&RawValue` parse of the message (`serde_json::from_slice`):
/// the floor of issue 27's client-leg goal.
pub fn raw_value_runner(bytes: Vec<u8>) -> Runner {
    Box::new(move || serde_json::from_slice::<&RawValue>(&bytes).is_ok() as u64)
}
