//! simd-json, the fast-parser reference: its tape (a flat array of nodes
//! pointing into the input) and its borrowed value (a tree of `Cow`s).
//!
//! simd-json parses in place (it unescapes strings into the input buffer),
//! so every operation first copies the message into a reusable buffer; its
//! parser buffers and tape are reused across operations too, which is
//! simd-json's fastest way to run.

use simd_json::prelude::*;
use simd_json::{BorrowedValue, Buffers, Tape};

use crate::contenders::mrtr::meta_json;
use crate::inputs::{TOOL_ARGUMENTS, TOOL_NAME};
use crate::kit::{answers, Runner, Summary};

/// Buffers reused across operations.
pub struct Scratch {
    input: Vec<u8>,
    buffers: Buffers,
    tape: Option<Tape<'static>>,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            input: Vec::new(),
            buffers: Buffers::default(),
            tape: Some(Tape(Vec::new())),
        }
    }
}

/// Copies the message into the reusable input buffer.
fn load<'a>(input: &'a mut Vec<u8>, bytes: &[u8]) -> &'a mut [u8] {
    input.clear();
    input.extend_from_slice(bytes);
    input
}

/// Kinds, as mrtr's `InputKind`.
#[derive(Clone, Copy)]
enum Kind {
    Form,
    Url,
    Sampling,
    Roots,
}

/// Adds one input to the summary.
fn count(s: &mut Summary, key: &str, kind: Kind, message: Option<&str>) {
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

// ------------------------------------------------------------------- tape

type TapeValue<'t, 'i> = simd_json::tape::Value<'t, 'i>;

fn tape_input<'i>(req: TapeValue<'_, 'i>) -> Option<(Kind, Option<&'i str>)> {
    let method = req.get("method")?.into_string()?;
    match method {
        "elicitation/create" => {
            let p = req.get("params")?;
            p.as_object()?;
            let message = p.get("message")?.into_string()?;
            match p.get("mode").map(|m| m.into_string()) {
                Some(Some("url")) => {
                    p.get("url")?.into_string()?;
                    Some((Kind::Url, Some(message)))
                }
                None | Some(Some("form")) => {
                    p.get_object("requestedSchema")?;
                    Some((Kind::Form, Some(message)))
                }
                _ => None,
            }
        }
        "sampling/createMessage" => {
            let p = req.get("params")?;
            p.get_array("messages")?;
            p.get_u64("maxTokens")?;
            Some((Kind::Sampling, None))
        }
        "roots/list" => Some((Kind::Roots, None)),
        _ => None,
    }
}

fn tape_summary(msg: TapeValue<'_, '_>) -> Option<Summary> {
    if msg.get("jsonrpc")?.into_string()? != "2.0" || msg.contains_key("error") {
        return None;
    }
    let r = msg.get("result")?;
    r.as_object()?;
    let mut s = Summary::default();
    match r.get("resultType").map(|t| t.into_string()) {
        None | Some(Some("complete")) => return Some(s),
        Some(Some("input_required")) => {}
        _ => return None,
    }
    let reqs = r.get("inputRequests");
    let state = r.get("requestState");
    if reqs.is_none() && state.is_none() {
        return None;
    }
    s.input_required = true;
    if let Some(reqs) = reqs {
        for (key, req) in &reqs.as_object()? {
            let (kind, message) = tape_input(req)?;
            count(&mut s, key, kind, message);
        }
    }
    if let Some(st) = state {
        s.state_bytes = st.into_string()?.len();
    }
    Some(s)
}

/// `parse` on simd-json's tape.
pub fn tape_parse(bytes: &[u8], scratch: &mut Scratch) -> Option<Summary> {
    let Scratch {
        input,
        buffers,
        tape: spare,
    } = scratch;
    let mut tape: Tape<'_> = spare.take().unwrap_or(Tape(Vec::new())).reset();
    let result = match simd_json::fill_tape(load(input, bytes), buffers, &mut tape) {
        Ok(()) => tape_summary(tape.as_value()),
        Err(_) => None,
    };
    *spare = Some(tape.reset());
    result
}

/// Runner of [`tape_parse`].
pub fn tape_parse_runner(bytes: Vec<u8>) -> Runner {
    let mut scratch = Scratch::default();
    Box::new(move || tape_parse(&bytes, &mut scratch).map_or(0, |s| s.checksum()))
}

/// `validate`: build the tape, nothing else.
pub fn validate_runner(bytes: Vec<u8>) -> Runner {
    let mut scratch = Scratch::default();
    Box::new(move || {
        let Scratch {
            input,
            buffers,
            tape: spare,
        } = &mut scratch;
        let mut tape: Tape<'_> = spare.take().unwrap_or(Tape(Vec::new())).reset();
        let ok = simd_json::fill_tape(load(input, &bytes), buffers, &mut tape).is_ok();
        *spare = Some(tape.reset());
        ok as u64
    })
}

// --------------------------------------------------------------- borrowed

fn borrowed_input<'v>(req: &'v BorrowedValue<'_>) -> Option<(Kind, Option<&'v str>)> {
    let method = req.get_str("method")?;
    match method {
        "elicitation/create" => {
            let p = req.get("params")?;
            p.as_object()?;
            let message = p.get_str("message")?;
            match p.get("mode").map(|m| m.as_str()) {
                Some(Some("url")) => {
                    p.get_str("url")?;
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
            let p = req.get("params")?;
            p.get("messages")?.as_array()?;
            p.get_u64("maxTokens")?;
            Some((Kind::Sampling, None))
        }
        "roots/list" => Some((Kind::Roots, None)),
        _ => None,
    }
}

/// The `input_required` result object, `None` inside when complete.
fn borrowed_classify<'v, 'i>(msg: &'v BorrowedValue<'i>) -> Option<Option<&'v BorrowedValue<'i>>> {
    if msg.get_str("jsonrpc")? != "2.0" || msg.contains_key("error") {
        return None;
    }
    let r = msg.get("result")?;
    r.as_object()?;
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

/// `parse` on simd-json's borrowed value.
pub fn borrowed_parse(bytes: &[u8], scratch: &mut Scratch) -> Option<Summary> {
    let Scratch { input, buffers, .. } = scratch;
    let input = load(input, bytes);
    let result = (|| {
        let msg = simd_json::to_borrowed_value_with_buffers(input, buffers).ok()?;
        let mut s = Summary::default();
        let Some(r) = borrowed_classify(&msg)? else {
            return Some(s);
        };
        s.input_required = true;
        if let Some(reqs) = r.get("inputRequests") {
            for (key, req) in reqs.as_object()?.iter() {
                let (kind, message) = borrowed_input(req)?;
                count(&mut s, key, kind, message);
            }
        }
        if let Some(st) = r.get("requestState") {
            s.state_bytes = st.as_str()?.len();
        }
        Some(s)
    })();
    result
}

/// Runner of [`borrowed_parse`].
pub fn borrowed_parse_runner(bytes: Vec<u8>) -> Runner {
    let mut scratch = Scratch::default();
    Box::new(move || borrowed_parse(&bytes, &mut scratch).map_or(0, |s| s.checksum()))
}

/// The app's original params and answers as owned simd-json values.
pub struct Original {
    params: simd_json::OwnedValue,
    form: simd_json::OwnedValue,
    url: simd_json::OwnedValue,
    sampling: simd_json::OwnedValue,
    roots: simd_json::OwnedValue,
}

impl Default for Original {
    fn default() -> Self {
        Original::new()
    }
}

impl Original {
    /// Parses the prepared JSON once.
    pub fn new() -> Self {
        let v = |s: &str| -> simd_json::OwnedValue {
            let mut b = s.as_bytes().to_vec();
            simd_json::to_owned_value(&mut b).expect("JSON")
        };
        let mut params = simd_json::owned::Object::default();
        params.insert("_meta".into(), v(&meta_json()));
        params.insert("name".into(), TOOL_NAME.into());
        params.insert("arguments".into(), v(TOOL_ARGUMENTS));
        Original {
            params: simd_json::OwnedValue::from(params),
            form: v(answers::FORM),
            url: v(answers::URL),
            sampling: v(answers::SAMPLING),
            roots: v(answers::ROOTS),
        }
    }
}

/// `leg` on the borrowed value: parse, build the retry as a borrowed value
/// (params and answers converted from the prepared owned values), encode.
pub fn borrowed_leg(bytes: &[u8], scratch: &mut Scratch, original: &Original) -> Option<Vec<u8>> {
    let Scratch { input, buffers, .. } = scratch;
    let input = load(input, bytes);
    let result = (|| {
        let msg = simd_json::to_borrowed_value_with_buffers(input, buffers).ok()?;
        let r = borrowed_classify(&msg)??;
        let mut responses = simd_json::borrowed::Object::default();
        if let Some(reqs) = r.get("inputRequests") {
            for (key, req) in reqs.as_object()?.iter() {
                let answer = match borrowed_input(req)?.0 {
                    Kind::Form => &original.form,
                    Kind::Url => &original.url,
                    Kind::Sampling => &original.sampling,
                    Kind::Roots => &original.roots,
                };
                responses.insert(key.clone(), BorrowedValue::from(answer.clone()));
            }
        }
        let mut params = BorrowedValue::from(original.params.clone());
        let p = params.as_object_mut()?;
        p.insert("inputResponses".into(), BorrowedValue::from(responses));
        if let Some(st) = r.get("requestState") {
            p.insert("requestState".into(), st.clone());
        }
        let mut out = simd_json::borrowed::Object::default();
        out.insert("jsonrpc".into(), "2.0".into());
        out.insert("id".into(), 2u64.into());
        out.insert("method".into(), "tools/call".into());
        out.insert("params".into(), params);
        let mut bytes = Vec::new();
        BorrowedValue::from(out).write(&mut bytes).ok()?;
        Some(bytes)
    })();
    result
}

/// Runner of [`borrowed_leg`].
pub fn borrowed_leg_runner(bytes: Vec<u8>) -> Runner {
    let mut scratch = Scratch::default();
    let original = Original::new();
    Box::new(move || borrowed_leg(&bytes, &mut scratch, &original).map_or(0, |r| r.len() as u64))
}
