//! Target `server_parse`: the server's request parser on arbitrary bytes.
//!
//! Input: the bytes of one message, as a server receives them.
//!
//! Properties: [`ServerRequest::parse`] never panics. A refusal writes a
//! JSON-RPC error response (valid JSON, its code, the request's id when one
//! was readable, else `null`); bytes serde_json reads are refused as JSON
//! only for our depth or size limits. An accepted request agrees with
//! serde_json on id and method, and holds the documented invariants: the
//! method's required members (`name`, `uri`, `taskId`), `_meta` with this
//! revision and the client's capabilities where the revision requires it,
//! `inputResponses` with unique keys within the limits, `requestState` the
//! exact token sent; the lenient policy accepts the same request the same
//! way. Every answer lookup is total (errors write valid JSON), the state
//! text decodes into exactly the size reported, and an `input_required`
//! answer built for the request asks only what the client declared and is
//! read back by the client half with the same keys and state.

use mrtr_core::json::{self, ErrorKind};
use mrtr_core::server::{
    write_answer_error, BuildError, Incoming, InputRequiredBuilder, MetaPolicy, Method,
    RequestErrorKind, ServerRequest,
};
use mrtr_core::wire::{
    classify_result, parse_message, ClientCapabilities, Id, Message, ResultOutcome, WireLimits,
    PROTOCOL_VERSION,
};

fn id_json(id: &Id<'_>) -> serde_json::Value {
    match id {
        Id::Number(n) => serde_json::Value::from(*n),
        Id::Str(s) => serde_json::Value::from(s.chars().collect::<String>()),
    }
}

/// Whether serde_json's reading of an id is `id` (numbers by value: serde_json
/// reads `-0` as the float -0.0, which is the integer 0).
fn same_id(theirs: &serde_json::Value, id: &Id<'_>) -> bool {
    match (theirs, id) {
        (serde_json::Value::Number(t), Id::Number(n)) => {
            t.as_i64() == Some(*n) || t.as_f64() == Some(*n as f64)
        }
        _ => *theirs == id_json(id),
    }
}

/// The target.
pub fn run(data: &[u8]) {
    let limits = WireLimits::default();
    let theirs: Option<serde_json::Value> = serde_json::from_slice(data).ok();
    let mut out = vec![0u8; data.len() + 4096];
    let req = match ServerRequest::parse(data, &limits) {
        Err(e) => {
            let _ = e.to_string();
            let n = e
                .write(&mut out)
                .expect("an error response fits input + 4 KiB");
            let v: serde_json::Value =
                serde_json::from_slice(&out[..n]).expect("the error response is JSON");
            assert_eq!(v["jsonrpc"], "2.0");
            assert_eq!(v["error"]["code"], i64::from(e.code().code()));
            match &e.id {
                None => assert!(v["id"].is_null()),
                Some(id) => assert_eq!(v["id"], id_json(id)),
            }
            if let (RequestErrorKind::Json(j), Some(_)) = (e.kind, &theirs) {
                assert!(
                    matches!(j.kind, ErrorKind::TooDeep | ErrorKind::TooLarge),
                    "refused as JSON ({j}), serde_json reads it"
                );
            }
            return;
        }
        Ok(Incoming::Request(req)) => req,
        Ok(Incoming::Notification(n)) => {
            if let Some(t) = &theirs {
                assert!(t.get("id").is_none(), "a notification has no id");
                assert_eq!(t["method"], n.method.chars().collect::<String>());
            }
            return;
        }
        Ok(Incoming::Response) => {
            if let Some(t) = &theirs {
                assert!(t.get("method").is_none(), "a response has no method");
            }
            return;
        }
    };
    check_request(data, &req, theirs.as_ref(), &limits);
    answers(&req, &mut out);
    build(&req, &limits);
}

fn check_request(
    data: &[u8],
    req: &ServerRequest<'_>,
    theirs: Option<&serde_json::Value>,
    limits: &WireLimits,
) {
    let lenient = ServerRequest::parse_with(data, limits, MetaPolicy::Optional);
    assert_eq!(
        lenient,
        Ok(Incoming::Request(*req)),
        "the lenient policy reads it the same"
    );
    if let Some(t) = theirs {
        assert!(
            same_id(&t["id"], &req.id),
            "id {} read as {:?}",
            t["id"],
            req.id
        );
        let method: String = match req.method {
            Method::Other(n) => n.chars().collect(),
            m => m.name().expect("named").to_string(),
        };
        assert_eq!(t["method"], method);
    }
    match req.method {
        Method::ToolsCall | Method::PromptsGet => assert!(req.name.is_some()),
        Method::ResourcesRead => assert!(req.uri.is_some()),
        Method::TasksGet
        | Method::TasksResult
        | Method::TasksCancel
        | Method::TasksUpdate
        | Method::TasksInputResponse => assert!(req.task_id.is_some()),
        Method::Other(_) => {}
    }
    if req.method.requires_meta() {
        let meta = req.meta.expect("_meta where the revision requires it");
        assert!(meta
            .protocol_version
            .is_some_and(|v| v.eq_str(PROTOCOL_VERSION)));
        assert!(meta.client_capabilities.is_some());
    }
    if let Some(meta) = req.meta {
        if let Some(v) = meta.protocol_version {
            assert!(v.eq_str(PROTOCOL_VERSION), "another revision accepted");
        }
        if let Some(raw) = meta.client_capabilities_raw {
            assert_eq!(
                ClientCapabilities::parse(raw).ok(),
                meta.client_capabilities
            );
        }
    }
    if let Some(r) = req.input_responses {
        let keys: Vec<String> = r.keys().map(|k| k.chars().collect()).collect();
        assert!(keys.len() <= limits.max_input_requests);
        assert!(keys.iter().all(|k| k.len() <= limits.max_key_bytes));
        let mut sorted = keys.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), keys.len(), "inputResponses keys are unique");
    }
    if let (Some(state), Some(params)) = (req.request_state, req.params) {
        let sent = params
            .get("requestState")
            .and_then(|s| s.as_str())
            .expect("requestState is a string member of params");
        assert_eq!(state.raw_token(), sent.raw_token());
    }
}

fn answers(req: &ServerRequest<'_>, out: &mut [u8]) {
    let keys: Vec<String> = req
        .input_responses
        .map(|r| r.keys().map(|k| k.chars().collect()).collect())
        .unwrap_or_default();
    for key in keys.iter().map(String::as_str).chain(["absent"]) {
        match req.elicit_answer(key) {
            Ok(Some(a)) => {
                let _ = a.field("x");
            }
            Ok(None) => {}
            Err(e) => {
                let n = write_answer_error(out, &req.id, key, &e).expect("fits");
                serde_json::from_slice::<serde_json::Value>(&out[..n]).expect("JSON");
            }
        }
        if let Ok(Some(s)) = req.sampling_answer(key) {
            let _ = s.text();
        }
        if let Ok(Some(r)) = req.roots_answer(key) {
            assert_eq!(r.iter().count(), r.len());
        }
    }
    if let Some(token) = req.request_state {
        let text: String = token.chars().collect();
        let mut small = [0u8; 1];
        match req.request_state_text(&mut small) {
            Ok(Some(t)) => assert_eq!(t, text),
            Ok(None) => panic!("state present"),
            Err(e) => {
                assert_eq!(e.needed, text.len());
                let mut buf = vec![0u8; e.needed];
                assert_eq!(req.request_state_text(&mut buf), Ok(Some(text.as_str())));
            }
        }
    } else {
        assert_eq!(req.request_state_text(&mut []), Ok(None));
    }
}

fn build(req: &ServerRequest<'_>, limits: &WireLimits) {
    let mut out = vec![0u8; 4096];
    let mut b = match InputRequiredBuilder::for_request(&mut out, req) {
        Ok(b) => b,
        Err(e) => {
            assert_eq!(e, BuildError::MethodNotAllowed);
            assert!(!req.method.allows_input_required());
            return;
        }
    };
    let caps = req.client_capabilities();
    let mut asked: Vec<&str> = Vec::new();
    let mut ask = |r: Result<_, BuildError>, key: &'static str, declared: bool| match r {
        Ok(_) => {
            assert!(declared, "{key} asked though not declared");
            asked.push(key);
        }
        Err(BuildError::MissingCapability { .. }) => assert!(!declared, "{key} refused"),
        Err(e) => panic!("{key}: {e:?}"),
    };
    let r = b
        .elicit_form(
            "form",
            "Name?",
            br#"{"type":"object","properties":{"n":{"type":"string"}}}"#,
        )
        .map(|_| ());
    ask(r, "form", caps.elicitation_form);
    let r = b
        .elicit_url("url", "Open", "https://example.com/x")
        .map(|_| ());
    ask(r, "url", caps.elicitation_url);
    let r = b
        .sampling("s\"q", br#"{"messages":[],"maxTokens":5}"#)
        .map(|_| ());
    ask(r, "s\"q", caps.sampling);
    let r = b.roots("roots").map(|_| ());
    ask(r, "roots", caps.roots);
    b.request_state("st\u{e9}");
    let n = b.finish().expect("4 KiB holds the result");
    // The client half reads it back.
    let msg = parse_message(&out[..n], limits).expect("the client reads the result");
    let Message::Result { id, result } = msg else {
        panic!("not a result")
    };
    assert_eq!(id, req.id);
    let method = req.method.name().expect("an MRTR method is named");
    let Ok(ResultOutcome::InputRequired(ir)) = classify_result(result, method, limits) else {
        panic!("not input_required")
    };
    let keys: Vec<String> = ir
        .input_requests
        .map(|r| r.iter().map(|(k, _)| k.chars().collect()).collect())
        .unwrap_or_default();
    assert_eq!(keys, asked);
    assert!(ir.request_state.is_some_and(|s| s.eq_str("st\u{e9}")));
    let _ = json::parse(&out[..n]).expect("JSON");
}
