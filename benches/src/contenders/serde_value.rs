//! serde_json's `Value`: the generic tree most applications start with.

use serde_json::{Map, Value};

use crate::contenders::mrtr::meta_json;
use crate::inputs::{TOOL_ARGUMENTS, TOOL_NAME};
use crate::kit::{answers, Runner, Summary};

/// Kinds, as mrtr's `InputKind`.
#[derive(Clone, Copy)]
enum Kind {
    Form,
    Url,
    Sampling,
    Roots,
}

/// The same checks as the other contenders: method known, required params
/// present with the right types.
fn read_input(req: &Value) -> Option<(Kind, Option<&str>)> {
    let method = req.get("method")?.as_str()?;
    let params = req.get("params");
    match method {
        "elicitation/create" => {
            let p = params?.as_object()?;
            let message = p.get("message")?.as_str()?;
            match p.get("mode").map(|m| m.as_str()) {
                Some(Some("url")) => {
                    p.get("url")?.as_str()?;
                    Some((Kind::Url, Some(message)))
                }
                None | Some(Some("form")) => {
                    p.get("requestedSchema")?.as_object()?;
                    Some((Kind::Form, Some(message)))
                }
                _ => None,
            }
        }
        "sampling/createMessage" => {
            let p = params?.as_object()?;
            p.get("messages")?.as_array()?;
            p.get("maxTokens")?.as_u64()?;
            Some((Kind::Sampling, None))
        }
        "roots/list" => Some((Kind::Roots, None)),
        _ => None,
    }
}

/// The `input_required` result, `None` inside when complete.
fn classify(msg: &Value) -> Option<Option<&Map<String, Value>>> {
    if msg.get("jsonrpc")?.as_str()? != "2.0" || msg.get("error").is_some() {
        return None;
    }
    let r = msg.get("result")?.as_object()?;
    match r.get("resultType").map(|t| t.as_str()) {
        None | Some(Some("complete")) => Some(None),
        Some(Some("input_required")) => {
            if r.get("inputRequests").is_none() && r.get("requestState").is_none() {
                return None;
            }
            Some(Some(r))
        }
        _ => None,
    }
}

/// `parse`: `from_slice::<Value>`, then navigate.
pub fn parse(bytes: &[u8]) -> Option<Summary> {
    let msg: Value = serde_json::from_slice(bytes).ok()?;
    let mut s = Summary::default();
    let Some(r) = classify(&msg)? else {
        return Some(s);
    };
    s.input_required = true;
    if let Some(reqs) = r.get("inputRequests") {
        for (key, req) in reqs.as_object()? {
            let (kind, message) = read_input(req)?;
            s.inputs += 1;
            s.key_bytes += key.len();
            match kind {
                Kind::Form => s.forms += 1,
                Kind::Url => s.urls += 1,
                Kind::Sampling => s.samplings += 1,
                Kind::Roots => s.roots += 1,
            }
            s.message_bytes += message.map_or(0, str::len);
        }
    }
    if let Some(st) = r.get("requestState") {
        s.state_bytes = st.as_str()?.len();
    }
    Some(s)
}

/// Runner of [`parse`].
pub fn parse_runner(bytes: Vec<u8>) -> Runner {
    Box::new(move || parse(&bytes).map_or(0, |s| s.checksum()))
}

/// The app's original params and answers as values, built once.
pub struct Original {
    params: Value,
    form: Value,
    url: Value,
    sampling: Value,
    roots: Value,
}

impl Default for Original {
    fn default() -> Self {
        Original::new()
    }
}

impl Original {
    /// Parses the prepared JSON once.
    pub fn new() -> Self {
        let v = |s: &str| -> Value { serde_json::from_str(s).expect("JSON") };
        let mut params = Map::new();
        params.insert("_meta".into(), v(&meta_json()));
        params.insert("name".into(), Value::String(TOOL_NAME.into()));
        params.insert("arguments".into(), v(TOOL_ARGUMENTS));
        Original {
            params: Value::Object(params),
            form: v(answers::FORM),
            url: v(answers::URL),
            sampling: v(answers::SAMPLING),
            roots: v(answers::ROOTS),
        }
    }
}

/// `leg`: parse, clone the params, insert the answers and the state,
/// serialize.
pub fn leg(bytes: &[u8], original: &Original) -> Option<Vec<u8>> {
    let msg: Value = serde_json::from_slice(bytes).ok()?;
    let r = classify(&msg)??;
    let mut responses = Map::new();
    if let Some(reqs) = r.get("inputRequests") {
        for (key, req) in reqs.as_object()? {
            let answer = match read_input(req)?.0 {
                Kind::Form => &original.form,
                Kind::Url => &original.url,
                Kind::Sampling => &original.sampling,
                Kind::Roots => &original.roots,
            };
            responses.insert(key.clone(), answer.clone());
        }
    }
    let mut params = original.params.clone();
    let p = params.as_object_mut()?;
    p.insert("inputResponses".into(), Value::Object(responses));
    if let Some(st) = r.get("requestState") {
        p.insert("requestState".into(), st.clone());
    }
    let mut out = Map::new();
    out.insert("jsonrpc".into(), Value::String("2.0".into()));
    out.insert("id".into(), Value::from(2));
    out.insert("method".into(), Value::String("tools/call".into()));
    out.insert("params".into(), params);
    serde_json::to_vec(&Value::Object(out)).ok()
}

/// Runner of [`leg`].
pub fn leg_runner(bytes: Vec<u8>) -> Runner {
    let original = Original::new();
    Box::new(move || leg(&bytes, &original).map_or(0, |r| r.len() as u64))
}
