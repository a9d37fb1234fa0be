//! mrtr-core through its Rust API.

use mrtr_core::client::{Answer, Call, CallConfig, CallLimits, CallMethod, CallSlot, Event};
use mrtr_core::json;
use mrtr_core::wire::{
    classify_result, parse_message_indexed, ClientCapabilities, ClientInfo, ElicitAction,
    InputKind, InputRequest, Message, ResultOutcome, Root, WireLimits,
};

use mrtr_core::server::{Incoming, MetaPolicy, ServerRequest};

use crate::inputs::TOOL_PARAMS;
use crate::kit::{answers, Runner, ServerSummary, Summary};

/// What the benchmark's client declares: every kind of input request.
pub const CAPS: ClientCapabilities = ClientCapabilities {
    elicitation_form: true,
    elicitation_url: true,
    sampling: true,
    sampling_tools: false,
    sampling_context: false,
    roots: true,
    tasks: false,
};

impl Summary {
    /// Counts one input request: its key, its kind, its message.
    fn count(&mut self, key: json::JsonStr<'_>, req: &InputRequest<'_>) {
        self.inputs += 1;
        self.key_bytes += key.decoded_len();
        match req.kind() {
            InputKind::ElicitForm => self.forms += 1,
            InputKind::ElicitUrl => self.urls += 1,
            InputKind::Sampling => self.samplings += 1,
            InputKind::Roots => self.roots += 1,
        }
        if let Some(m) = req.message() {
            self.message_bytes += m.decoded_len();
        }
    }
}

/// `validate`: one pass of the JSON reader with the default limits.
pub fn validate_runner(bytes: Vec<u8>) -> Runner {
    let limits = json::ParseLimits::default();
    Box::new(move || json::parse_with(&bytes, &limits).is_ok() as u64)
}

/// Skip-index slots for a message of `len` bytes: one per 48 bytes, as
/// `json::parse_indexed` suggests (allocated once per runner, like a call's
/// workspace).
pub fn index_slots(len: usize) -> Vec<json::IndexSlot> {
    vec![json::IndexSlot::EMPTY; len / 48 + 16]
}

/// `parse`: `wire::parse_message_indexed` (skip index in `slots`) +
/// `classify_result` + iterate the inputs.
pub fn parse_in(bytes: &[u8], slots: &mut [json::IndexSlot]) -> Option<Summary> {
    let limits = WireLimits::default();
    let Message::Result { result, .. } = parse_message_indexed(bytes, &limits, slots).ok()? else {
        return None;
    };
    let mut s = Summary::default();
    if let ResultOutcome::InputRequired(irr) =
        classify_result(result, "tools/call", &limits).ok()?
    {
        s.input_required = true;
        if let Some(reqs) = irr.input_requests {
            for (key, req) in reqs.iter() {
                s.count(key, &req);
            }
        }
        if let Some(state) = irr.request_state {
            s.state_bytes = state.decoded_len();
        }
    }
    Some(s)
}

/// [`parse_in`] with slots of its own (for checks, not for timing).
pub fn parse(bytes: &[u8]) -> Option<Summary> {
    parse_in(bytes, &mut index_slots(bytes.len()))
}

/// Runner of [`parse_in`].
pub fn parse_runner(bytes: Vec<u8>) -> Runner {
    let mut slots = index_slots(bytes.len());
    Box::new(move || parse_in(&bytes, &mut slots).map_or(0, |s| s.checksum()))
}

/// Limits of the benchmark's calls: the defaults, except room for the
/// 1 MB input's `inputRequests` (the call copies them into its workspace).
pub fn call_limits() -> CallLimits {
    CallLimits {
        max_inputs_bytes: 1 << 20,
        ..CallLimits::default()
    }
}

const ROOTS: [Root<'static>; 1] = [Root {
    uri: answers::ROOT_URI,
    name: Some(answers::ROOT_NAME),
}];

/// The answer the benchmark's app gives to an input of `kind`.
pub fn answer_for(kind: InputKind) -> Answer<'static> {
    match kind {
        InputKind::ElicitForm => Answer::Elicit {
            action: ElicitAction::Accept,
            content: Some(answers::FORM_CONTENT.as_bytes()),
        },
        InputKind::ElicitUrl => Answer::Elicit {
            action: ElicitAction::Accept,
            content: None,
        },
        InputKind::Sampling => Answer::Sampling(answers::SAMPLING.as_bytes()),
        InputKind::Roots => Answer::Roots(&ROOTS),
    }
}

/// A client leg through `client::Call`, with its state, workspace and
/// output buffer allocated once (as an app would).
pub struct Leg {
    state: CallSlot,
    workspace: Vec<u8>,
    out: Vec<u8>,
    limits: CallLimits,
}

impl Default for Leg {
    fn default() -> Self {
        Leg::new()
    }
}

impl Leg {
    /// A leg with a workspace of `Call::workspace_size` and a 2 MiB output.
    pub fn new() -> Self {
        let limits = call_limits();
        Leg {
            state: CallSlot::default(),
            workspace: vec![0; Call::workspace_size(&limits)],
            out: vec![0; 2 << 20],
            limits,
        }
    }

    fn config(&self) -> CallConfig<'static> {
        CallConfig {
            method: CallMethod::ToolsCall,
            params: TOOL_PARAMS.as_bytes(),
            caps: CAPS,
            client_info: Some(ClientInfo::DEFAULT),
            limits: self.limits,
        }
    }

    /// What the C ABI's `parse` does (a C application reads a response
    /// inside a call), through the Rust API: init the call, write the
    /// first request (id 1), feed the response, then read every input's
    /// key, kind and message, and the `requestState`. The contender
    /// `mrtr Call` runs this, so the C ABI is compared with the same work.
    pub fn parse(&mut self, response: &[u8]) -> Option<Summary> {
        let config = self.config();
        let mut call = Call::init(&mut self.state, &mut self.workspace, &config).ok()?;
        call.write_request(1, &mut self.out).ok()?;
        let Event::InputRequired(n) = call.feed(response).ok()? else {
            return None;
        };
        let mut s = Summary {
            input_required: true,
            ..Summary::default()
        };
        for i in 0..n {
            let (key, req) = call.input_at(i)?;
            s.count(key, &req);
        }
        if let Some(state) = call.request_state() {
            s.state_bytes = json::parse(state).ok()?.as_str()?.decoded_len();
        }
        Some(s)
    }

    /// One leg: init the call (renders the params and `_meta`), write the
    /// first request (id 1), feed the response, answer every input, write
    /// the retry (id 2). Returns the retry request.
    pub fn run(&mut self, response: &[u8]) -> Option<&[u8]> {
        let config = self.config();
        let mut call = Call::init(&mut self.state, &mut self.workspace, &config).ok()?;
        call.write_request(1, &mut self.out).ok()?;
        let Event::InputRequired(n) = call.feed(response).ok()? else {
            return None;
        };
        for i in 0..n {
            let kind = call.input_at(i)?.1.kind();
            call.answer_at(i, answer_for(kind)).ok()?;
        }
        let len = call.write_request(2, &mut self.out).ok()?;
        self.out.get(..len)
    }
}

/// Runner of [`Leg::parse`] (the contender `mrtr Call`).
pub fn call_parse_runner(bytes: Vec<u8>) -> Runner {
    let mut leg = Leg::new();
    Box::new(move || leg.parse(&bytes).map_or(0, |s| s.checksum()))
}

/// Runner of [`Leg::run`].
pub fn leg_runner(bytes: Vec<u8>) -> Runner {
    let mut leg = Leg::new();
    Box::new(move || leg.run(&bytes).map_or(0, |r| r.len() as u64))
}

/// The `_meta` object mrtr writes on every leg (the other contenders send
/// the same bytes, prepared once).
pub fn meta_json() -> String {
    let mut leg = Leg::new();
    let config = CallConfig {
        method: CallMethod::ToolsCall,
        params: TOOL_PARAMS.as_bytes(),
        caps: CAPS,
        client_info: Some(ClientInfo::DEFAULT),
        limits: leg.limits,
    };
    let call = Call::init(&mut leg.state, &mut leg.workspace, &config).expect("init");
    let params = json::parse(call.params()).expect("params are JSON");
    let meta = params
        .as_object()
        .and_then(|p| p.get("_meta"))
        .expect("params carry _meta");
    String::from_utf8(meta.raw().to_vec()).expect("UTF-8")
}

/// `server parse`: `ServerRequest::parse_indexed` of a retry request
/// (envelope, `_meta` with its version, capabilities and client info,
/// `name`, `arguments`, `inputResponses` with unique keys, `requestState`;
/// the skip index in `slots`, kept by the server like its request buffer),
/// then every response entry and the state.
pub fn server_parse_in(bytes: &[u8], slots: &mut [json::IndexSlot]) -> Option<ServerSummary> {
    let limits = WireLimits::default();
    let Incoming::Request(r) =
        ServerRequest::parse_indexed(bytes, &limits, MetaPolicy::Required, slots).ok()?
    else {
        return None;
    };
    let mut s = ServerSummary {
        name_bytes: r.name?.decoded_len(),
        argument_bytes: r.arguments.map_or(0, |a| a.raw().len()),
        version_bytes: r.meta?.protocol_version?.decoded_len(),
        ..ServerSummary::default()
    };
    if let Some(responses) = r.input_responses {
        for (key, value) in responses.raw().iter() {
            s.responses += 1;
            s.key_bytes += key.decoded_len();
            s.response_bytes += value.raw().len();
        }
    }
    s.state_bytes = r.request_state.map_or(0, |t| t.decoded_len());
    Some(s)
}

/// [`server_parse_in`] with slots of its own (for checks, not for timing).
pub fn server_parse(bytes: &[u8]) -> Option<ServerSummary> {
    server_parse_in(bytes, &mut index_slots(bytes.len()))
}

/// Runner of [`server_parse_in`].
pub fn server_parse_runner(bytes: Vec<u8>) -> Runner {
    let mut slots = index_slots(bytes.len());
    Box::new(move || server_parse_in(&bytes, &mut slots).map_or(0, |s| s.checksum()))
}
