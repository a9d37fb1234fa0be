//! rmcp 3.11.0, the Rust MCP SDK: its model types with serde_json, as its
//! client receives a message (`ServerJsonRpcMessage`, an untagged enum) and
//! sends a retry (`ClientJsonRpcMessage` with `CallToolRequestParams`
//! carrying `input_responses` and `request_state`).
//!
//! rmcp represents `InputRequiredResult` (`ServerResult::
//! InputRequiredResult`). Since 3.9 its URL-mode elicitation no longer
//! requires the `elicitationId` that revision 2026-07-28 removed (a missing
//! one reads as ""), and every Rust contender agrees on a form + URL +
//! sampling response; the inputs still carry forms and sampling requests
//! only, so that the published measurements (taken with rmcp 3.1.4, whose
//! URL mode required the id) stay comparable until a full `scripts/bench`
//! run can add a URL-mode input for every contender at once.
#![allow(deprecated)] // rmcp marks sampling types deprecated (SEP-2577)

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, ClientJsonRpcMessage, ClientRequest,
    CreateMessageResult, ElicitRequestParams, ElicitResult, ElicitationAction, InputRequest,
    InputRequiredResult, InputResponses, JsonObject, JsonRpcMessage, ListRootsResult, MetaObject,
    NumberOrString, RequestMetaObject, Root, SamplingMessage, ServerJsonRpcMessage, ServerResult,
};

use crate::contenders::mrtr::meta_json;
use crate::inputs::{TOOL_ARGUMENTS, TOOL_NAME};
use crate::kit::{answers, Runner, Summary};

fn input_required(bytes: &[u8]) -> Option<Option<InputRequiredResult>> {
    let msg: ServerJsonRpcMessage = serde_json::from_slice(bytes).ok()?;
    let JsonRpcMessage::Response(resp) = msg else {
        return None;
    };
    Some(match resp.result {
        ServerResult::InputRequiredResult(irr) => Some(irr),
        _ => None,
    })
}

/// `parse`: deserialize a `ServerJsonRpcMessage`, match the result variant,
/// walk the input requests.
pub fn parse(bytes: &[u8]) -> Option<Summary> {
    let mut s = Summary::default();
    let Some(irr) = input_required(bytes)? else {
        return Some(s);
    };
    s.input_required = true;
    for (key, req) in irr.input_requests.iter().flatten() {
        s.inputs += 1;
        s.key_bytes += key.len();
        match req {
            InputRequest::CreateMessage(_) => s.samplings += 1,
            InputRequest::Elicitation(e) => match &e.params {
                ElicitRequestParams::FormElicitationParams { message, .. } => {
                    s.forms += 1;
                    s.message_bytes += message.len();
                }
                ElicitRequestParams::UrlElicitationParams { message, .. } => {
                    s.urls += 1;
                    s.message_bytes += message.len();
                }
                _ => return None,
            },
            InputRequest::ListRoots(_) => s.roots += 1,
            _ => return None,
        }
    }
    s.state_bytes = irr.request_state.as_ref().map_or(0, String::len);
    Some(s)
}

/// Runner of [`parse`].
pub fn parse_runner(bytes: Vec<u8>) -> Runner {
    Box::new(move || parse(&bytes).map_or(0, |s| s.checksum()))
}

/// The app's original request params, built once.
pub struct Original {
    params: CallToolRequestParams,
}

impl Default for Original {
    fn default() -> Self {
        Original::new()
    }
}

impl Original {
    /// `{"_meta": <mrtr's>, "name": "deploy", "arguments": {..}}`.
    pub fn new() -> Self {
        let meta: JsonObject = serde_json::from_str(&meta_json()).expect("meta");
        let args: JsonObject = serde_json::from_str(TOOL_ARGUMENTS).expect("arguments");
        let mut params = CallToolRequestParams::new(TOOL_NAME).with_arguments(args);
        params.meta = Some(RequestMetaObject(MetaObject(meta)));
        Original { params }
    }
}

/// The typed result an rmcp client handler returns for `req`, as the value
/// the retry carries.
fn answer(req: &InputRequest) -> Option<serde_json::Value> {
    let v =
        match req {
            InputRequest::Elicitation(e) => match &e.params {
                ElicitRequestParams::FormElicitationParams { .. } => serde_json::to_value(
                    ElicitResult::new(ElicitationAction::Accept)
                        .with_content(serde_json::json!({"name": "octocat"})),
                ),
                _ => serde_json::to_value(ElicitResult::new(ElicitationAction::Accept)),
            },
            InputRequest::CreateMessage(_) => serde_json::to_value(
                CreateMessageResult::new(
                    SamplingMessage::assistant_text("Paris"),
                    "claude-3-sonnet".to_owned(),
                )
                .with_stop_reason(CreateMessageResult::STOP_REASON_END_TURN),
            ),
            InputRequest::ListRoots(_) => serde_json::to_value(ListRootsResult::new(vec![
                Root::new(answers::ROOT_URI).with_name(answers::ROOT_NAME),
            ])),
            _ => return None,
        };
    v.ok()
}

/// `leg`: parse, answer every input with typed results, clone the original
/// params, add `input_responses` and `request_state`, serialize the
/// `ClientJsonRpcMessage`.
pub fn leg(bytes: &[u8], original: &Original) -> Option<Vec<u8>> {
    let irr = input_required(bytes)??;
    let mut responses = InputResponses::new();
    for (key, req) in irr.input_requests.iter().flatten() {
        responses.insert(key.clone(), answer(req)?);
    }
    let mut params = original.params.clone();
    params.input_responses = Some(responses);
    params.request_state = irr.request_state;
    let msg = ClientJsonRpcMessage::request(
        ClientRequest::CallToolRequest(CallToolRequest::new(params)),
        NumberOrString::Number(2),
    );
    serde_json::to_vec(&msg).ok()
}

/// Runner of [`leg`].
pub fn leg_runner(bytes: Vec<u8>) -> Runner {
    let original = Original::new();
    Box::new(move || leg(&bytes, &original).map_or(0, |r| r.len() as u64))
}

/// The name of the rmcp sealing job.
pub const HMAC_SEAL: &str = "rmcp HMAC seal+open";

/// The key id the rmcp seal job seals under: four bytes, as long as the key
/// id in an mrtr token.
pub const HMAC_KEY_ID: &str = "k001";

/// rmcp's `requestState` codec (HMAC-SHA256, `request-state` feature) in
/// its current format: since rmcp 3.2 a keyring codec
/// (`RequestStateCodec::new_with_keyring`) seals `rs2` tokens, which carry
/// the key id (base64url, and bound into the HMAC) so that keys can rotate,
/// as mrtr's tokens carry theirs; `try_new` still seals the legacy,
/// id-less `rs1`. Seal + open of `size` bytes with associated data = the
/// binding digest and the principal (rmcp binds what the caller passes as
/// associated data) and a 600 s TTL. It signs but does not encrypt.
pub struct HmacSeal {
    codec: rmcp::model::RequestStateCodec,
    state: Vec<u8>,
    associated: Vec<u8>,
}

impl HmacSeal {
    /// Prepares the codec (a keyring of one key, active) and the state.
    pub fn new(size: usize) -> HmacSeal {
        use mrtr_seal_variants::{binding, KEY, PRINCIPAL};
        let mut associated = binding().to_vec();
        associated.extend_from_slice(PRINCIPAL);
        let codec = rmcp::model::RequestStateCodec::new_with_keyring(
            HMAC_KEY_ID,
            [(HMAC_KEY_ID, KEY.to_vec())],
        )
        .expect("keyring");
        HmacSeal {
            codec,
            state: (0..size).map(|i| (i * 31 % 251) as u8).collect(),
            associated,
        }
    }

    /// One seal: the token.
    pub fn seal(&self) -> String {
        let options = rmcp::model::SealOptions::new()
            .associated_data(&self.associated)
            .ttl(std::time::Duration::from_secs(600));
        self.codec.seal_with(&self.state, &options)
    }

    /// One seal + open.
    pub fn run(&mut self) -> u64 {
        let token = self.seal();
        let opened = self
            .codec
            .open_with(&token, &self.associated)
            .expect("open");
        (token.len() + opened.len()) as u64
    }

    /// For `check`: the token is `rs2` under [`HMAC_KEY_ID`] and opens to
    /// the state sealed.
    pub fn check(&self) {
        let token = self.seal();
        // base64url("k001") = "azAwMQ".
        assert!(
            token.starts_with("rs2.azAwMQ."),
            "rmcp seal: not an rs2 token under {HMAC_KEY_ID}: {token}"
        );
        let opened = self.codec.open_with(&token, &self.associated);
        assert_eq!(opened.ok().as_deref(), Some(&self.state[..]), "rmcp open");
    }
}
