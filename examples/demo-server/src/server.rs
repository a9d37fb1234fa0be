//! One request in, one response out: parse, check, verify `requestState`,
//! route, then finish the flow's step as a complete result, an
//! `InputRequiredResult` or an error. No transport here (see `http` and
//! `stdio`), so tests drive it with bytes.

use std::sync::Mutex;
use std::time::Instant;

use mrtr_core::json::{JsonStr, Value};
use mrtr_core::seal::{
    sealed_len, unseal_scratch_len, SealConfig, Sealer, NONCE_BYTES, TOKEN_ID_BYTES,
};
use mrtr_core::server::{
    write_answer_error, write_complete, write_internal_error, write_invalid_params,
    write_invalid_request_state, write_method_not_found, write_missing_capability, Incoming,
    InputRequiredBuilder, Method, RequestErrorKind, ServerRequest, UnusableAnswer,
};
use mrtr_core::wire::{ClientCapabilities, ElicitAction, ErrorCode, Id, InputKind, WireLimits};

use crate::emit;
use crate::flows;
use crate::http::HttpHeaders;
use crate::replay_store::{ReplayStore, Spend};
use crate::state::{self, AppState};
use crate::tasks::TaskStore;

/// The server's version, reported in `serverInfo`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A clock: unix seconds.
pub type Clock = Box<dyn Fn() -> u64 + Send + Sync>;
/// A source of random bytes (must be a CSPRNG outside tests).
pub type Rng = Box<dyn Fn(&mut [u8]) + Send + Sync>;

/// The demo server: key ring, clock, randomness, task table.
pub struct Demo {
    name: String,
    sealer: Sealer,
    clock: Clock,
    rng: Rng,
    /// Tasks live in this process: that is what tasks are for (state the
    /// server keeps); everything else lives in `requestState`.
    pub(crate) tasks: Mutex<TaskStore>,
    log: bool,
    limits: WireLimits,
    /// `--replay-cache`: ids of tokens already accepted.
    replay: Option<Mutex<ReplayCache>>,
    /// `--replay-store`: the same, in a store every instance shares.
    replay_store: Option<ReplayStore>,
    /// `--seed-tasks`: the seed task dialect is served too.
    seed_tasks: bool,
    /// Open `subscriptions/listen` streams.
    pub(crate) hub: crate::subscriptions::Hub,
}

/// The message of the `-32603` error that refuses a round whose token could
/// not be checked against the replay store (`--replay-store`).
pub const REPLAY_STORE_DOWN_MESSAGE: &str =
    "Replay store unavailable: requestState not accepted, try again later";

/// Why `open_state` refused a request.
enum StateRefusal {
    /// The token is invalid, expired or spent: the frozen -32602.
    Invalid(String),
    /// The replay store could not be asked: -32603, fail closed.
    StoreDown(String),
}

/// Ids of accepted `requestState` tokens until they expire (one-shot
/// tokens). Bounded: when every slot holds a live id, a new token is
/// refused rather than an old id forgotten, so a replay never slips through.
#[derive(Debug)]
pub struct ReplayCache {
    /// (token id, last second the token is valid).
    seen: Vec<([u8; TOKEN_ID_BYTES], u64)>,
    capacity: usize,
}

/// Why [`ReplayCache::admit`] refused a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplayRefusal {
    /// The token was accepted before.
    Replayed,
    /// Every slot holds a live id.
    Full,
}

impl ReplayCache {
    /// An empty cache of `capacity` ids (at least 1).
    pub fn new(capacity: usize) -> ReplayCache {
        ReplayCache {
            seen: Vec::with_capacity(capacity.min(4096)),
            capacity: capacity.max(1),
        }
    }

    /// Records `id` (valid until `expires_at`) at time `now`; refuses an id
    /// already recorded.
    pub fn admit(
        &mut self,
        id: [u8; TOKEN_ID_BYTES],
        expires_at: u64,
        now: u64,
    ) -> Result<(), ReplayRefusal> {
        self.seen.retain(|&(_, until)| until >= now);
        if self.seen.iter().any(|(seen, _)| *seen == id) {
            return Err(ReplayRefusal::Replayed);
        }
        if self.seen.len() >= self.capacity {
            return Err(ReplayRefusal::Full);
        }
        self.seen.push((id, expires_at));
        Ok(())
    }

    /// How many live ids it holds (after the last [`ReplayCache::admit`]).
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    /// Whether it holds no id.
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }
}

/// Who is calling, as far as the transport knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Caller {
    /// SHA-256 of the HTTP bearer token, when one was sent; `None` over
    /// stdio. Bound into every sealed state and every task.
    pub principal: Option<[u8; 32]>,
}

/// One JSON-RPC response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The whole message.
    pub body: Vec<u8>,
    /// The error code when the message is an error.
    pub error: Option<i32>,
    /// One line for the trace (`--log`).
    pub summary: String,
    /// A `subscriptions/listen` answer: `body` is the acknowledgement, the
    /// first message of the stream, and this the rest of it.
    pub listen: Option<crate::subscriptions::Listen>,
}

impl Reply {
    fn ok(body: Vec<u8>, summary: impl Into<String>) -> Self {
        Reply {
            body,
            error: None,
            summary: summary.into(),
            listen: None,
        }
    }

    fn err(body: Vec<u8>, code: ErrorCode, summary: impl Into<String>) -> Self {
        Reply {
            body,
            error: Some(code.code()),
            summary: summary.into(),
            listen: None,
        }
    }
}

/// What a flow decided on this leg.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Finished: the result object (`{"content":[..],..}`).
    Done(Vec<u8>),
    /// Needs more: these requests (possibly none) and the state to seal
    /// (possibly none; at least one of the two).
    Ask {
        /// The input requests, in order.
        asks: Vec<Ask>,
        /// Plaintext state to seal into `requestState`.
        state: Option<Vec<u8>>,
    },
}

/// One input request a flow wants to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask {
    /// Form-mode elicitation.
    Form {
        /// inputRequests key.
        key: &'static str,
        /// Message shown to the user.
        message: String,
        /// `requestedSchema`, raw JSON.
        schema: Vec<u8>,
    },
    /// URL-mode elicitation.
    Url {
        /// inputRequests key.
        key: &'static str,
        /// Message shown to the user.
        message: String,
        /// The URL to open.
        url: String,
    },
    /// `sampling/createMessage`.
    Sampling {
        /// inputRequests key.
        key: &'static str,
        /// `CreateMessageRequestParams`, raw JSON.
        params: Vec<u8>,
    },
    /// `roots/list`.
    Roots {
        /// inputRequests key.
        key: &'static str,
    },
}

impl Ask {
    /// The capability the client must have declared for this request.
    pub fn required(&self) -> ClientCapabilities {
        match self {
            Ask::Form { .. } => InputKind::ElicitForm.required_capability(),
            Ask::Url { .. } => InputKind::ElicitUrl.required_capability(),
            Ask::Sampling { .. } => InputKind::Sampling.required_capability(),
            Ask::Roots { .. } => InputKind::Roots.required_capability(),
        }
    }

    fn key(&self) -> &'static str {
        match self {
            Ask::Form { key, .. }
            | Ask::Url { key, .. }
            | Ask::Sampling { key, .. }
            | Ask::Roots { key } => key,
        }
    }
}

/// What the client answered under one key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer<T> {
    /// Nothing usable under the key: ask (again).
    Missing,
    /// The user declined or cancelled the elicitation.
    Refused(ElicitAction),
    /// The value.
    Given(T),
}

/// Roots as `(uri, name)` pairs.
pub type RootList = Vec<(String, Option<String>)>;

/// The union of two capability sets.
pub fn union(a: ClientCapabilities, b: ClientCapabilities) -> ClientCapabilities {
    ClientCapabilities {
        elicitation_form: a.elicitation_form || b.elicitation_form,
        elicitation_url: a.elicitation_url || b.elicitation_url,
        sampling: a.sampling || b.sampling,
        sampling_tools: a.sampling_tools || b.sampling_tools,
        sampling_context: a.sampling_context || b.sampling_context,
        roots: a.roots || b.roots,
        tasks: a.tasks || b.tasks,
    }
}

/// Decoded text of a JSON string.
pub fn text(s: &JsonStr<'_>) -> String {
    s.chars().collect()
}

/// What a flow sees of its request.
pub struct Ctx<'r, 'a> {
    /// The server (randomness, clock).
    pub demo: &'r Demo,
    /// The request.
    pub req: &'r ServerRequest<'a>,
    /// The verified state, when one came back.
    pub state: Option<&'r AppState>,
}

impl<'a> Ctx<'_, 'a> {
    /// A string argument.
    pub fn arg_str(&self, key: &str) -> Option<String> {
        let v = self.req.arguments?.get_unique(key).ok()??;
        v.as_str().map(|s| text(&s))
    }

    /// An integer argument.
    pub fn arg_int(&self, key: &str) -> Option<i64> {
        self.req.arguments?.get_unique(key).ok()??.as_i64()
    }

    /// An argument value, raw.
    pub fn arg(&self, key: &str) -> Option<Value<'a>> {
        self.req.arguments?.get_unique(key).ok()?
    }

    /// The state, when it was minted by `tool`.
    pub fn state_of(&self, tool: &str) -> Option<&AppState> {
        self.state.filter(|s| s.is_from(tool))
    }

    /// `-32602` with `message`.
    pub fn invalid(&self, message: &str) -> Reply {
        let body =
            emit::grow(|b| write_invalid_params(b, &self.req.id, message)).unwrap_or_default();
        Reply::err(body, ErrorCode::InvalidParams, message.to_string())
    }

    /// `-32602 Resource not found: <uri>` with `data.uri` echoing the
    /// requested URI (SEP-2164).
    pub fn resource_not_found(&self, uri: &str) -> Reply {
        let message = format!("Resource not found: {uri}");
        let body = emit::json(|w| {
            w.raw(br#"{"jsonrpc":"2.0","id":"#);
            self.req.id.write(w);
            w.raw(br#","error":{"code":-32602,"message":"#)
                .str(&message)
                .raw(br#","data":{"uri":"#)
                .str(uri)
                .raw(b"}}}");
        });
        Reply::err(body, ErrorCode::InvalidParams, message)
    }

    fn answer_error(&self, key: &str, e: UnusableAnswer) -> Reply {
        let body = emit::grow(|b| write_answer_error(b, &self.req.id, key, &e)).unwrap_or_default();
        Reply::err(
            body,
            ErrorCode::InvalidParams,
            format!("inputResponses[{key:?}]: {e}"),
        )
    }

    /// The value of form field `field` in the elicitation answer under `key`,
    /// converted by `read` (`None` from `read`: unusable, ask again).
    pub fn form<T>(
        &self,
        key: &str,
        field: &str,
        read: impl Fn(Value<'a>) -> Option<T>,
    ) -> Result<Answer<T>, Reply> {
        let answer = self
            .req
            .elicit_answer(key)
            .map_err(|e| self.answer_error(key, e))?;
        let Some(answer) = answer else {
            return Ok(Answer::Missing);
        };
        if answer.action != ElicitAction::Accept {
            return Ok(Answer::Refused(answer.action));
        }
        let value = answer.field(field).map_err(|e| self.answer_error(key, e))?;
        Ok(value.and_then(read).map_or(Answer::Missing, Answer::Given))
    }

    /// A string form field.
    pub fn form_str(&self, key: &str, field: &str) -> Result<Answer<String>, Reply> {
        self.form(key, field, |v| v.as_str().map(|s| text(&s)))
    }

    /// An integer form field.
    pub fn form_int(&self, key: &str, field: &str) -> Result<Answer<i64>, Reply> {
        self.form(key, field, |v| v.as_i64())
    }

    /// The action of a URL-mode elicitation answer under `key`.
    pub fn url_done(&self, key: &str) -> Result<Answer<()>, Reply> {
        match self.req.elicit_answer(key) {
            Err(e) => Err(self.answer_error(key, e)),
            Ok(None) => Ok(Answer::Missing),
            Ok(Some(a)) if a.action == ElicitAction::Accept => Ok(Answer::Given(())),
            Ok(Some(a)) => Ok(Answer::Refused(a.action)),
        }
    }

    /// The sampled text and model under `key` (non-text content reads as a
    /// placeholder: the demo only quotes text).
    pub fn sampled(&self, key: &str) -> Result<Answer<(String, String)>, Reply> {
        match self.req.sampling_answer(key) {
            Err(e) => Err(self.answer_error(key, e)),
            Ok(None) => Ok(Answer::Missing),
            Ok(Some(s)) => {
                let body = s
                    .text()
                    .map_or_else(|| "[non-text content]".to_string(), |t| text(&t));
                Ok(Answer::Given((body, text(&s.model))))
            }
        }
    }

    /// The roots under `key`: `(uri, name)` pairs.
    pub fn roots(&self, key: &str) -> Result<Answer<RootList>, Reply> {
        match self.req.roots_answer(key) {
            Err(e) => Err(self.answer_error(key, e)),
            Ok(None) => Ok(Answer::Missing),
            Ok(Some(r)) => Ok(Answer::Given(
                r.iter()
                    .map(|e| (text(&e.uri), e.name.map(|n| text(&n))))
                    .collect(),
            )),
        }
    }

    /// `n` random bytes as hex (for ids the flow makes up).
    pub fn random_hex(&self, n: usize) -> String {
        let mut b = vec![0u8; n];
        (self.demo.rng)(&mut b);
        crate::config::hex(&b)
    }
}

impl Demo {
    /// A server named `name` (also the `requestState` audience) sealing with
    /// `keys[0]` and unsealing with any of `keys`.
    pub fn new(
        name: &str,
        keys: &[Vec<u8>],
        clock: Clock,
        rng: Rng,
        log: bool,
    ) -> Result<Demo, mrtr_core::seal::KeyError> {
        let refs: Vec<&[u8]> = keys.iter().map(Vec::as_slice).collect();
        let sealer = Sealer::new(&refs, name.as_bytes(), SealConfig::default())?;
        Ok(Demo {
            name: name.to_string(),
            sealer,
            clock,
            rng,
            tasks: Mutex::new(TaskStore::default()),
            log,
            limits: WireLimits::default(),
            replay: None,
            replay_store: None,
            seed_tasks: false,
            hub: crate::subscriptions::Hub::default(),
        })
    }

    /// Makes every `requestState` token one-shot: a token accepted once is
    /// refused afterwards (the frozen invalid-state error), however its JSON
    /// string is escaped. Keeps up to `capacity` live ids.
    pub fn with_replay_cache(mut self, capacity: usize) -> Demo {
        self.replay = Some(Mutex::new(ReplayCache::new(capacity)));
        self
    }

    /// Makes every `requestState` token one-shot across every instance that
    /// shares `store`: a token is accepted by the first request that
    /// presents it, on any instance, and refused afterwards (the frozen
    /// invalid-state error). When the store cannot be asked, the round is
    /// refused with [`REPLAY_STORE_DOWN_MESSAGE`] (fail closed).
    pub fn with_replay_store(mut self, store: ReplayStore) -> Demo {
        self.replay_store = Some(store);
        self
    }

    /// Also serves the SEP's seed task dialect (`long_export` with
    /// `params.task`; `tasks/get`, `tasks/result`, `tasks/input_response`,
    /// `tasks/cancel` from requests that do not declare the Tasks
    /// extension). Off by default: the Tasks extension replaces it, and
    /// without it `tasks/result` and `tasks/input_response` are `-32601`.
    pub fn with_seed_tasks(mut self) -> Demo {
        self.seed_tasks = true;
        self
    }

    /// Whether the seed task dialect is served.
    pub fn seed_tasks(&self) -> bool {
        self.seed_tasks
    }

    /// The server name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Current unix time from the server's clock.
    pub fn now(&self) -> u64 {
        (self.clock)()
    }

    /// Fills `buf` from the server's RNG.
    pub fn fill_random(&self, buf: &mut [u8]) {
        (self.rng)(buf);
    }

    /// Handles one incoming message. `None`: nothing to send back (a
    /// notification or a response; HTTP answers `202`). `headers`: the HTTP
    /// headers to check against the body (`None` over stdio).
    pub fn handle(
        &self,
        bytes: &[u8],
        caller: &Caller,
        headers: Option<&HttpHeaders>,
    ) -> Option<Reply> {
        let started = Instant::now();
        let (reply, what) = match ServerRequest::parse(bytes, &self.limits) {
            Err(e) => {
                // A client that disagrees with itself is told so first.
                let mismatch = match (headers, e.kind) {
                    (Some(h), RequestErrorKind::UnsupportedProtocolVersion { requested }) => {
                        crate::http::version_mismatch(h, &requested, e.id.as_ref())
                    }
                    _ => None,
                };
                let reply = mismatch.unwrap_or_else(|| {
                    let body = emit::grow(|b| e.write(b)).unwrap_or_default();
                    Reply::err(body, e.code(), e.to_string())
                });
                (reply, "(unparsed)".to_string())
            }
            Ok(Incoming::Request(req)) => {
                let what = format!("{} {}", state::method_name(&req), state::target(&req));
                let checked = headers.and_then(|h| crate::http::check_headers(&req, h));
                (checked.unwrap_or_else(|| self.dispatch(&req, caller)), what)
            }
            Ok(Incoming::Notification(n)) => {
                if self.log {
                    eprintln!(
                        "[{}] notification {} (no response)",
                        self.name,
                        text(&n.method)
                    );
                }
                return None;
            }
            Ok(Incoming::Response) => return None,
        };
        if self.log {
            eprintln!(
                "[{}] {what} -> {} ({} us)",
                self.name,
                reply.summary,
                started.elapsed().as_micros()
            );
        }
        Some(reply)
    }

    fn dispatch(&self, req: &ServerRequest<'_>, caller: &Caller) -> Reply {
        match req.method {
            Method::ToolsCall | Method::PromptsGet | Method::ResourcesRead => {
                self.mrtr(req, caller)
            }
            Method::TasksGet
            | Method::TasksResult
            | Method::TasksCancel
            | Method::TasksInputResponse
            | Method::TasksUpdate => crate::tasks::handle(self, req, caller),
            Method::Other(name) if name.eq_str("subscriptions/listen") => self.listen(req),
            Method::Other(name) => match flows::listing(self, req, &text(&name)) {
                Some(result) => self.complete(req, &result, "complete"),
                None => {
                    let body =
                        emit::grow(|b| write_method_not_found(b, &req.id)).unwrap_or_default();
                    Reply::err(body, ErrorCode::MethodNotFound, "method not found")
                }
            },
        }
    }

    /// `subscriptions/listen`: opens a stream of the list-changed
    /// notifications asked for in `params.notifications` (the demo honors
    /// `toolsListChanged` and `promptsListChanged`).
    fn listen(&self, req: &ServerRequest<'_>) -> Reply {
        let wants = |key: &str| {
            req.params
                .and_then(|p| p.get("notifications"))
                .and_then(|n| n.as_object())
                .and_then(|n| n.get(key))
                .is_some_and(|v| v.raw() == b"true")
        };
        let id = emit::json(|w| {
            req.id.write(w);
        });
        match self
            .hub
            .listen(&id, wants("toolsListChanged"), wants("promptsListChanged"))
        {
            Some((ack, listen)) => Reply {
                listen: Some(listen),
                ..Reply::ok(ack, "subscription opened")
            },
            None => self.internal_error(&req.id, "too many open subscriptions"),
        }
    }

    /// `tools/call`, `prompts/get`, `resources/read`: verify the state, run
    /// the flow, finish its step.
    fn mrtr(&self, req: &ServerRequest<'_>, caller: &Caller) -> Reply {
        let state = match self.open_state(req, caller) {
            Ok(s) => s,
            Err(StateRefusal::StoreDown(why)) => {
                eprintln!(
                    "[{}] replay store unreachable on {} {}: {why}; round refused (fail closed)",
                    self.name,
                    state::method_name(req),
                    state::target(req)
                );
                let body = emit::json(|w| {
                    mrtr_core::wire::reply::write_error_response(
                        w,
                        Some(&req.id),
                        ErrorCode::InternalError.code(),
                        REPLAY_STORE_DOWN_MESSAGE,
                        None,
                    )
                });
                return Reply::err(
                    body,
                    ErrorCode::InternalError,
                    format!("replay store unavailable ({why})"),
                );
            }
            Err(StateRefusal::Invalid(reason)) => {
                // The precise reason goes to the log, always; the wire gets
                // the one frozen message.
                eprintln!(
                    "[{}] requestState rejected on {} {}: {reason}",
                    self.name,
                    state::method_name(req),
                    state::target(req)
                );
                let body =
                    emit::grow(|b| write_invalid_request_state(b, &req.id)).unwrap_or_default();
                return Reply::err(
                    body,
                    ErrorCode::InvalidParams,
                    format!("invalid requestState ({reason})"),
                );
            }
        };
        if let Some(reply) = crate::tasks::maybe_start(self, req, caller) {
            return reply;
        }
        let ctx = Ctx {
            demo: self,
            req,
            state: state.as_ref(),
        };
        match flows::run(&ctx) {
            Ok(step) => self.finish(req, caller, step),
            Err(reply) => reply,
        }
    }

    /// Unseals and verifies the request's `requestState`, if any. `Err` is
    /// the precise reason, for the log.
    fn open_state(
        &self,
        req: &ServerRequest<'_>,
        caller: &Caller,
    ) -> Result<Option<AppState>, StateRefusal> {
        self.open_state_checked(req, caller)
            .map_err(StateRefusal::Invalid)
            .and_then(|opened| match opened {
                None => Ok(None),
                Some((state, token_id, expires_at)) => {
                    if let Some(store) = &self.replay_store {
                        match store.spend(&token_id, expires_at) {
                            Ok(Spend::Fresh) => {}
                            Ok(Spend::Replayed) => {
                                return Err(StateRefusal::Invalid(
                                    "token replayed (replay store)".to_string(),
                                ))
                            }
                            Err(e) => return Err(StateRefusal::StoreDown(e.to_string())),
                        }
                    }
                    Ok(Some(state))
                }
            })
    }

    /// Unseals and verifies the token, and checks the in-process replay
    /// cache: the state, the token id and its last valid second.
    fn open_state_checked(
        &self,
        req: &ServerRequest<'_>,
        caller: &Caller,
    ) -> Result<Option<(AppState, [u8; TOKEN_ID_BYTES], u64)>, String> {
        let mut text_buf = vec![0u8; req.request_state.map_or(0, |s| s.raw_token().len())];
        let token = match req.request_state_text(&mut text_buf) {
            Ok(None) => return Ok(None),
            Ok(Some(t)) => t,
            Err(_) => return Err("token does not decode".to_string()),
        };
        let max = self.sealer.config().max_token_bytes;
        if token.len() > max {
            // Refused before any buffer is sized by the client's token.
            return Err(format!(
                "token of {} bytes, the maximum is {max}",
                token.len()
            ));
        }
        let binding =
            state::binding(req).map_err(|e| format!("arguments have no canonical form: {e}"))?;
        let mut scratch = vec![0u8; unseal_scratch_len(token.len())];
        let now = self.now();
        let opened = self
            .sealer
            .unseal(
                now,
                token.as_bytes(),
                &binding,
                caller.principal.as_ref().map(|p| &p[..]),
                &mut scratch,
            )
            .map_err(|e| e.reason().to_string())?;
        if let Some(cache) = &self.replay {
            // The id comes from the decoded token: `\u006d2.` for `m2.` is
            // the same token, the same id.
            let mut cache = cache
                .lock()
                .map_err(|_| "replay cache poisoned".to_string())?;
            cache
                .admit(opened.token_id, opened.expires_at, now)
                .map_err(|r| match r {
                    ReplayRefusal::Replayed => "token replayed".to_string(),
                    ReplayRefusal::Full => "replay cache full of live tokens".to_string(),
                })?;
        }
        Ok(Some((
            AppState::new(opened.state.to_vec()),
            opened.token_id,
            opened.expires_at,
        )))
    }

    /// Seals `plaintext` for this request and caller.
    fn seal(
        &self,
        req: &ServerRequest<'_>,
        caller: &Caller,
        plaintext: &[u8],
    ) -> Result<String, String> {
        let binding = state::binding(req).map_err(|e| e.reason().to_string())?;
        let mut nonce = [0u8; NONCE_BYTES];
        self.fill_random(&mut nonce);
        let mut out = vec![0u8; sealed_len(plaintext.len())];
        let n = self
            .sealer
            .seal(
                self.now(),
                &nonce,
                &binding,
                caller.principal.as_ref().map(|p| &p[..]),
                plaintext,
                &mut out,
            )
            .map_err(|e| e.to_string())?;
        out.truncate(n);
        String::from_utf8(out).map_err(|_| "token is not text".to_string())
    }

    pub(crate) fn internal_error(&self, id: &Id<'_>, why: &str) -> Reply {
        eprintln!("[{}] internal error: {why}", self.name);
        let body = emit::grow(|b| write_internal_error(b, Some(id))).unwrap_or_default();
        Reply::err(
            body,
            ErrorCode::InternalError,
            format!("internal error: {why}"),
        )
    }

    /// A complete result for `req` from the result object `result`.
    pub(crate) fn complete(&self, req: &ServerRequest<'_>, result: &[u8], summary: &str) -> Reply {
        match emit::grow(|b| write_complete(b, &req.id, result)) {
            Ok(body) => Reply::ok(body, summary),
            Err(e) => self.internal_error(&req.id, &e.to_string()),
        }
    }

    /// `-32021` naming what is missing.
    pub(crate) fn missing_capability(&self, id: &Id<'_>, missing: &ClientCapabilities) -> Reply {
        let body = emit::grow(|b| write_missing_capability(b, id, missing)).unwrap_or_default();
        Reply::err(
            body,
            ErrorCode::MissingRequiredClientCapability,
            format!("missing capability {missing:?}"),
        )
    }

    /// Turns a flow's step into the response.
    pub(crate) fn finish(&self, req: &ServerRequest<'_>, caller: &Caller, step: Step) -> Reply {
        let (asks, plain) = match step {
            Step::Done(result) => return self.complete(req, &result, "complete"),
            Step::Ask { asks, state } => (asks, state),
        };
        let needed = asks.iter().fold(ClientCapabilities::default(), |acc, a| {
            union(acc, a.required())
        });
        let missing = req.client_capabilities().missing(&needed);
        if !missing.is_empty() {
            return self.missing_capability(&req.id, &missing);
        }
        if plain.is_some() {
            if let Err(e) = state::binding(req) {
                // The state could never be verified on the retry.
                let ctx = Ctx {
                    demo: self,
                    req,
                    state: None,
                };
                return ctx.invalid(&format!("arguments have no canonical form: {}", e.reason()));
            }
        }
        let token = match plain.map(|p| self.seal(req, caller, &p)).transpose() {
            Ok(t) => t,
            Err(why) => return self.internal_error(&req.id, &format!("sealing failed: {why}")),
        };
        let built = emit::grow(|b| {
            let mut ir = InputRequiredBuilder::for_request(b, req)?;
            for ask in &asks {
                match ask {
                    Ask::Form {
                        key,
                        message,
                        schema,
                    } => ir.elicit_form(key, message, schema)?,
                    Ask::Url { key, message, url } => ir.elicit_url(key, message, url)?,
                    Ask::Sampling { key, params } => ir.sampling(key, params)?,
                    Ask::Roots { key } => ir.roots(key)?,
                };
            }
            if let Some(t) = &token {
                ir.request_state(t);
            }
            ir.finish()
        });
        let keys: Vec<&str> = asks.iter().map(Ask::key).collect();
        let summary = format!(
            "input_required [{}]{}",
            keys.join(", "),
            if token.is_some() {
                " + requestState"
            } else {
                ""
            }
        );
        match built {
            Ok(body) => Reply::ok(body, summary),
            Err(e) => self.internal_error(&req.id, &format!("input request refused: {e}")),
        }
    }
}
