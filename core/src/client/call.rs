//! One logical `tools/call`, `prompts/get` or `resources/read` through all
//! its legs (docs/ARCHITECTURE.md, section 4).
//!
//! ```text
//!  init(config) -> [Ready]
//!  Ready:     write_request(id, out) -> [Sent]          a fresh id every leg
//!  Sent:      feed(bytes) -> Complete(result)           -> [Done]
//!                          | TaskCreated(task)          -> [Done] (hand to a Task)
//!                          | InputRequired(n)           -> [Answering]
//!                          | RetryAfter(ms)  state only -> [Ready]
//!                          | RpcError(code, msg, data)  -> [Done]
//!                          | Unrelated(..)              (state kept)
//!             resend(id, out): same request, fresh id (transport failure)
//!  Answering: inputs() / answer(key, ..) ... last key answered -> [Ready]
//!  any terminal error -> [Failed] (see `error()`)
//! ```
//!
//! # Memory
//! A call is a plain-data [`CallSlot`] (no references, no lifetimes) plus a
//! caller-provided byte workspace of [`Call::workspace_size`] bytes, viewed
//! together as a [`Call`]. [`Call::attach`] rebuilds the view in O(1), so a C
//! shell can keep both in caller memory and reattach on every call. The
//! workspace holds these regions, each bounded by a [`CallLimits`] field:
//! - params: the request's params rendered once at init: the caller's
//!   members with `_meta` first, carrying the protocol version, the call's
//!   capabilities, the client info and the caller's other `_meta` members;
//! - inputs: the last round's `inputRequests` object, copied raw, plus a
//!   17-byte index entry per possible key (validated once, read in O(1));
//! - state: the last round's `requestState` token, quotes and escapes
//!   included, echoed byte for byte;
//! - answers: the answers to the current round, raw JSON per key (plus 6
//!   bytes of bookkeeping per possible key).
//!
//! A complete result is not copied: [`Event::Complete`] borrows it from the
//! fed bytes, [`Call::result`] finds it again in those bytes, and
//! [`Call::feed_copy`] copies it into a caller buffer (C apps that reuse
//! their receive buffer). Results can be far larger than any workspace.
//!
//! # Rules
//! - Retry = the original params + `inputResponses` (the bare results, keys
//!   written as the server spelled them) + `requestState` (only when the last
//!   round had one). A new round replaces everything of the previous one, so
//!   no answer or state leaks into a later leg, and nothing leaves the call.
//! - Ids: every leg needs an id greater than every id the call used before
//!   (and within +-(2^53-1)); responses are matched by that number id, a
//!   string id never matches. After a restore in a fresh process, seed the id
//!   source past [`Call::last_id`] (see [`Counter::after`]).
//! - A request kind the call did not declare is a protocol violation, not a
//!   prompt. `input_required` without fields, an unknown `resultType`, or a
//!   `task` result without the Tasks extension declared are violations too.
//! - Caps: `max_rounds` `input_required` results (default 10), and
//!   `max_state_only_rounds` consecutive state-only rounds (default 3, the
//!   count resets when a round asks questions) with a backoff of 50 ms
//!   doubling up to 250 ms, surfaced as [`Event::RetryAfter`].
//! - Every key must be answered before the retry; [`Answer::Error`] ends the
//!   call locally with [`CallError::AnsweredWithError`]: MRTR has no error
//!   shape for an input response (the official Python SDK raises likewise).
//!
//! # Bytes that are not the answer
//! While [`Phase::Sent`], fed bytes are the transport's candidate answer to
//! the request in flight. A well-formed message for another id, a
//! notification, a server request or an error with a `null` id is
//! [`Event::Unrelated`]. A message that fails validation is ours if its `id`
//! is ours, unrelated if it names another id, and otherwise (no readable id,
//! or not JSON at all) a transport failure: both end the call with
//! [`CallError::Malformed`]. Garbage on the connection of our request means
//! the connection is broken; an app that multiplexes many requests over one
//! stream routes by id before feeding.

use super::exchange::{self, Exchange, Incoming, ResultSpan};
use super::flow::{Flavor, FlowView, SaveFields, Shared, Slot};
use super::layout::Layout;
use super::persist::{self};
use crate::json::{self, JsonStr, Object, Writer};
use crate::wire::caps::write_request_meta_members;
use crate::wire::envelope::write_request_head;
use crate::wire::result::classify_result_into;
use crate::wire::task::created_task;
use crate::wire::{
    ClientCapabilities, ClientInfo, Id, InputRequiredResult, ResultOutcome, ServerRevision,
    TaskDialect, Violation, META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION,
};

pub use super::errors::{
    AnswerError, CallError, ParamsError, SaveError, SaveInvariant, SaveRegion,
};
pub use super::events::{Answer, Event, Phase, RpcError, TaskHandoff, Unrelated};
pub use super::ids::{check_id_range, id_after, Counter, IdSource, MAX_SAFE_ID};
pub use super::layout::MAX_INPUT_REQUESTS_LIMIT;
pub use super::limits::*;

/// The methods that carry multi round-trip requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u8)]
pub enum CallMethod {
    /// `tools/call` (params need `name`).
    #[default]
    ToolsCall = 1,
    /// `prompts/get` (params need `name`).
    PromptsGet = 2,
    /// `resources/read` (params need `uri`).
    ResourcesRead = 3,
}

impl CallMethod {
    /// The JSON-RPC method name.
    pub const fn as_str(self) -> &'static str {
        match self {
            CallMethod::ToolsCall => "tools/call",
            CallMethod::PromptsGet => "prompts/get",
            CallMethod::ResourcesRead => "resources/read",
        }
    }

    /// The method for a name, if it is one of the three.
    pub fn parse(name: &str) -> Option<Self> {
        [
            CallMethod::ToolsCall,
            CallMethod::PromptsGet,
            CallMethod::ResourcesRead,
        ]
        .into_iter()
        .find(|m| m.as_str() == name)
    }

    fn from_code(code: u8) -> Option<Self> {
        [
            CallMethod::ToolsCall,
            CallMethod::PromptsGet,
            CallMethod::ResourcesRead,
        ]
        .into_iter()
        .find(|m| *m as u8 == code)
    }

    /// The params member that names the target.
    const fn target_member(self) -> &'static str {
        match self {
            CallMethod::ToolsCall | CallMethod::PromptsGet => "name",
            CallMethod::ResourcesRead => "uri",
        }
    }
}

/// How to start a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallConfig<'a> {
    /// The method.
    pub method: CallMethod,
    /// The caller's params object, e.g. `{"name":"x","arguments":{..}}`.
    /// Copied at init; must not contain `inputResponses`/`requestState`.
    /// A `_meta` object is merged (its members kept except the three keys
    /// the call owns); a `task` object marks a seed-dialect task request.
    pub params: &'a [u8],
    /// What the call declares it can answer, sent on every leg.
    pub caps: ClientCapabilities,
    /// Sent as `io.modelcontextprotocol/clientInfo`; `None` omits it.
    pub client_info: Option<ClientInfo<'a>>,
    /// Capacities and caps.
    pub limits: CallLimits,
}

impl<'a> CallConfig<'a> {
    /// A config with no capabilities, this library's client info and the
    /// default limits.
    pub fn new(method: CallMethod, params: &'a [u8]) -> Self {
        CallConfig {
            method,
            params,
            caps: ClientCapabilities::default(),
            client_info: Some(ClientInfo::DEFAULT),
            limits: CallLimits::default(),
        }
    }
}

const CALL_MAGIC: u32 = 0x4D52_4331; // "MRC1"

/// A call's own fields (see [`Slot`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CallFields {
    pub(crate) method: CallMethod,
    pub(crate) seed_task: bool,
    pub(crate) params_len: usize,
    pub(crate) state_only: u32,
}

/// The plain data of a call: lengths, counters and flags, no references.
/// Place it anywhere (`CallSlot::default()`), then [`Call::init`] or
/// [`Call::restore`] it together with a workspace.
pub type CallSlot = Slot<CallFields>;

impl CallSlot {
    /// The slot of a call [`Call::prepare`] started: `Ready`, no round yet.
    #[inline]
    pub(crate) fn ready(caps: &ClientCapabilities, limits: &CallLimits, f: CallFields) -> Self {
        CallSlot {
            sh: Shared::ready(CALL_MAGIC, *caps, Exchange::default()),
            limits: *limits,
            f,
        }
    }
}

impl super::flow::sealed::Sealed for CallFields {}

impl Flavor for CallFields {
    const MAGIC: u32 = CALL_MAGIC;

    fn render(
        slot: &CallSlot,
        buf: &[u8],
        layout: &Layout,
        id: i64,
        out: &mut [u8],
    ) -> Result<usize, CallError> {
        let ex = &slot.sh.ex;
        let mut w = Writer::new(out);
        write_request_head(&mut w, &Id::Number(id), slot.f.method.as_str());
        let params = layout.head.prefix(buf, slot.f.params_len);
        // Drop the params' closing brace, append this leg's members, close.
        w.raw(params.get(..params.len().saturating_sub(1)).unwrap_or(&[]));
        if ex.input_count > 0 {
            w.raw(b",\"inputResponses\":");
            ex.write_responses(&mut w, buf, layout);
        }
        if let Some(s) = ex.request_state(buf, layout) {
            w.raw(b",\"requestState\":").raw(s);
        }
        w.raw(b"}}");
        w.finish()
            .map_err(|e| CallError::BufferTooSmall { needed: e.needed })
    }

    fn save_fields(slot: &CallSlot) -> SaveFields {
        SaveFields {
            kind: persist::KIND_CALL,
            variant: slot.f.method as u8,
            state_only: slot.f.state_only,
            head_len: slot.f.params_len,
            ..SaveFields::default()
        }
    }
}

/// A call: its slot and its workspace.
pub type Call<'w> = FlowView<'w, CallFields>;

/// Checks the caller's params; returns whether they ask for a (seed) task.
fn check_params(params: Object<'_>, method: CallMethod) -> Result<bool, ParamsError> {
    // One walk of the params for the five members, checked in this order.
    let [responses, state, meta, target, task] = &params.get_unique_many([
        "inputResponses",
        "requestState",
        "_meta",
        method.target_member(),
        "task",
    ]);
    // Present at all (a duplicate is present too).
    if !matches!(responses, Ok(None)) || !matches!(state, Ok(None)) {
        return Err(ParamsError::Reserved);
    }
    match meta {
        Ok(None) => {}
        Ok(Some(m)) if m.as_object().is_some() => {}
        _ => return Err(ParamsError::BadMeta),
    }
    match target {
        Ok(Some(v)) if v.as_str().is_some() => {}
        _ => return Err(ParamsError::MissingTarget),
    }
    let seed_task = match task {
        Ok(None) => false,
        Ok(Some(t)) if t.as_object().is_some() => true,
        _ => return Err(ParamsError::BadTask),
    };
    // Last, one pass over everything: no member twice at any depth.
    params
        .as_value()
        .check_unique_keys_deep()
        .map_err(|e| match e.kind {
            json::ErrorKind::TooManyMembers => ParamsError::TooManyMembers,
            _ => ParamsError::RepeatedMember,
        })?;
    Ok(seed_task)
}

/// Whether a `_meta` key is one the call writes itself.
pub(crate) fn is_owned_meta_key(k: &JsonStr<'_>) -> bool {
    k.eq_str(META_PROTOCOL_VERSION)
        || k.eq_str(META_CLIENT_CAPABILITIES)
        || k.eq_str(META_CLIENT_INFO)
}

/// Renders `{"_meta":{..},<caller members>}`.
fn render_params(
    w: &mut Writer<'_>,
    params: Object<'_>,
    caps: &ClientCapabilities,
    info: Option<&ClientInfo<'_>>,
) {
    w.raw(b"{\"_meta\":{");
    write_request_meta_members(w, caps, info);
    if let Some(meta) = params.get("_meta").and_then(|m| m.as_object()) {
        for (k, v) in meta.iter() {
            if !is_owned_meta_key(&k) {
                w.byte(b',').json_str_raw(&k).byte(b':').raw(v.raw());
            }
        }
    }
    w.byte(b'}');
    for (k, v) in params.iter() {
        if !k.eq_str("_meta") {
            w.byte(b',').json_str_raw(&k).byte(b':').raw(v.raw());
        }
    }
    w.byte(b'}');
}

/// Refuses, in a build without the `tasks` feature, a call that could
/// become a task: one that declares the Tasks extension or whose params ask
/// for a task (the seed dialect's `task` member).
fn check_tasks_built(seed_task: bool, caps: &ClientCapabilities) -> Result<(), CallError> {
    if !cfg!(feature = "tasks") && (seed_task || caps.tasks) {
        return Err(CallError::TasksNotBuilt);
    }
    Ok(())
}

impl<'w> Call<'w> {
    /// Starts a call: checks the limits and the workspace size, validates and
    /// renders the params into the workspace. On error `state` is unchanged.
    pub fn init(
        state: &'w mut CallSlot,
        buf: &'w mut [u8],
        config: &CallConfig<'_>,
    ) -> Result<Self, CallError> {
        let layout = config.limits.layout_in(buf.len())?;
        Self::start(
            state,
            buf,
            layout,
            (config.method, config.params),
            &config.caps,
            config.client_info.as_ref(),
            &config.limits,
        )
    }

    /// [`Call::init`] in a workspace laid out as `layout` under `limits`
    /// (a [`Machine`](super::Machine) derived it already): the config's
    /// parts by reference, nothing of it copied but into `state`.
    pub(crate) fn start(
        state: &'w mut CallSlot,
        buf: &'w mut [u8],
        layout: Layout,
        (method, params): (CallMethod, &[u8]),
        caps: &ClientCapabilities,
        client_info: Option<&ClientInfo<'_>>,
        limits: &CallLimits,
    ) -> Result<Self, CallError> {
        let f = Self::prepare(buf, layout, (method, params), caps, client_info, limits)?;
        *state = CallSlot::ready(caps, limits, f);
        Ok(Call {
            st: state,
            buf,
            layout,
        })
    }

    /// The work of [`Call::start`] that can fail: validates the params and
    /// renders them into the workspace's head; the call's own fields for
    /// [`CallSlot::ready`]. Writes no slot, so a caller builds its slot
    /// once, where it keeps it.
    pub(crate) fn prepare(
        buf: &mut [u8],
        layout: Layout,
        (method, params): (CallMethod, &[u8]),
        caps: &ClientCapabilities,
        client_info: Option<&ClientInfo<'_>>,
        limits: &CallLimits,
    ) -> Result<CallFields, CallError> {
        let doc = json::parse_with(params, &limits.wire.json)
            .map_err(|e| CallError::BadParams(ParamsError::NotJson(e)))?;
        let params = doc
            .as_object()
            .ok_or(CallError::BadParams(ParamsError::NotAnObject))?;
        let seed_task = check_params(params, method).map_err(CallError::BadParams)?;
        check_tasks_built(seed_task, caps)?;
        let mut w = Writer::new(layout.head.tail_mut(buf, 0));
        render_params(&mut w, params, caps, client_info);
        let params_len = w.finish().map_err(|e| CallError::ParamsTooLarge {
            needed: e.needed,
            limit: limits.max_params_bytes,
        })?;
        Ok(CallFields {
            method,
            seed_task,
            params_len,
            state_only: 0,
        })
    }

    // ----------------------------------------------------------------- accessors

    /// The method.
    pub fn method(&self) -> CallMethod {
        self.st.f.method
    }

    /// The limits.
    pub fn limits(&self) -> &CallLimits {
        &self.st.limits
    }

    /// Consecutive state-only rounds so far.
    pub fn state_only_rounds(&self) -> u32 {
        self.st.f.state_only
    }

    /// The params as sent on every leg (rendered at init).
    pub fn params(&self) -> &[u8] {
        self.layout.head.prefix(self.buf, self.st.f.params_len)
    }

    // ------------------------------------------------------------------- writing

    /// [`Call::write_request`] with the id drawn from `ids`.
    pub fn write_request_from(
        &mut self,
        ids: &mut impl IdSource,
        out: &mut [u8],
    ) -> Result<usize, CallError> {
        self.write_request(ids.next_id(), out)
    }

    // ------------------------------------------------------------------ answering

    // -------------------------------------------------------------------- feeding

    /// Feeds bytes received while `Sent` (see the module doc for how they
    /// are attributed). Terminal errors move the call to `Failed`.
    ///
    /// Reading a result builds a skip index on the stack (see
    /// [`json::parse_indexed`]): about one slot per 48 bytes of result, up
    /// to 256 slots, 4 KiB, on 64-bit targets; 32 slots, 256 bytes,
    /// elsewhere.
    pub fn feed<'a>(&mut self, bytes: &'a [u8]) -> Result<Event<'a>, CallError> {
        self.feed_inner(bytes, None, &mut 0)
    }

    /// [`Call::feed`], and on completion also copies the result into
    /// `result_out`, returning its length. If `result_out` is too small this
    /// fails with [`CallError::BufferTooSmall`] and the call is unchanged, so
    /// the same bytes can be fed again with a larger buffer.
    pub fn feed_copy<'a>(
        &mut self,
        bytes: &'a [u8],
        result_out: &mut [u8],
    ) -> Result<(Event<'a>, usize), CallError> {
        let mut copied = 0;
        let ev = self.feed_inner(bytes, Some(result_out), &mut copied)?;
        Ok((ev, copied))
    }

    /// The body of [`Call::feed`] and [`Call::feed_copy`]: the length of a
    /// result copied into `copy` goes to `copied` (the event is returned on
    /// its own, not in a pair each caller takes apart).
    fn feed_inner<'a>(
        &mut self,
        bytes: &'a [u8],
        copy: Option<&mut [u8]>,
        copied: &mut usize,
    ) -> Result<Event<'a>, CallError> {
        let ours = match (self.st.sh.phase, self.st.sh.ex.in_flight) {
            (Phase::Sent, Some(id)) => id,
            (p, _) => return Err(CallError::WrongState(p)),
        };
        // Classification and the input requests walk the result level by
        // level: the message is parsed with a skip index (on the stack) so
        // those walks skip nested values without rescanning them.
        exchange::with_feed_slots(bytes.len(), |slots| {
            if let Some((result, indexed)) =
                exchange::receive_result_indexed(bytes, &self.st.limits.wire, ours, slots)
            {
                return self.on_result(bytes, result, indexed, copy, copied);
            }
            match exchange::receive(bytes, &self.st.limits.wire, ours) {
                Err(e) => Err(self.fail(e)),
                Ok(Incoming::Unrelated(u)) => Ok(Event::Unrelated(u)),
                Ok(Incoming::Error(e)) => {
                    self.done();
                    Ok(Event::RpcError(e))
                }
                // A result of ours took the indexed way above.
                Ok(Incoming::Result(r)) => self.on_result(bytes, r, r, copy, copied),
            }
        })
    }

    /// [`Call::feed`] once a result of ours is in: classify `indexed` (the
    /// result with a skip index). What the event borrows comes from
    /// `result` itself, the same object. Every error ends the call (one
    /// place for all of them) except a result too large for the caller's
    /// copy buffer, after which the same bytes can be fed again.
    fn on_result<'a>(
        &mut self,
        bytes: &'a [u8],
        result: json::Object<'a>,
        indexed: json::Object<'_>,
        copy: Option<&mut [u8]>,
        copied: &mut usize,
    ) -> Result<Event<'a>, CallError> {
        match self.read_result(bytes, result, indexed, copy, copied) {
            Err(e) if !matches!(e, CallError::BufferTooSmall { .. }) => Err(self.fail(e)),
            r => r,
        }
    }

    /// The body of [`Call::on_result`], whose caller ends the call on its
    /// errors.
    fn read_result<'a>(
        &mut self,
        bytes: &'a [u8],
        result: json::Object<'a>,
        indexed: json::Object<'_>,
        copy: Option<&mut [u8]>,
        copied: &mut usize,
    ) -> Result<Event<'a>, CallError> {
        // Classified in place and read through a reference: the outcome of
        // a round carries its input requests, and moved it is copied whole.
        let mut outcome = ResultOutcome::Complete(indexed);
        if let Err(e) = classify_result_into(
            indexed,
            self.st.f.method.as_str(),
            ServerRevision::Current,
            &self.st.limits.wire,
            &mut outcome,
        ) {
            return Err(exchange::wire_to_call(e));
        }
        let dialect = match &outcome {
            ResultOutcome::InputRequired(ir) => {
                return self.take_input_required(ir);
            }
            ResultOutcome::Task(_) => {
                if !cfg!(feature = "tasks") || !self.st.sh.caps.tasks {
                    return Err(CallError::Protocol(Violation::UndeclaredCapability));
                }
                Some(TaskDialect::Extension)
            }
            ResultOutcome::Complete(_) => {
                (cfg!(feature = "tasks") && self.st.f.seed_task).then_some(TaskDialect::Seed)
            }
        };
        // One read of the task record for both dialects: an extension's
        // `CreateTaskResult` always holds one (or is refused); a seed
        // result without a `task` member is the server answering directly.
        if let Some(dialect) = dialect {
            match created_task(result, dialect) {
                Err(v) => return Err(CallError::Protocol(v)),
                Ok(Some(task)) => {
                    self.done();
                    return Ok(Event::TaskCreated(TaskHandoff { dialect, task }));
                }
                Ok(None) if dialect == TaskDialect::Extension => {
                    return Err(CallError::Protocol(Violation::BadTask));
                }
                Ok(None) => {}
            }
        }
        let raw = result.raw();
        if let Some(out) = copy {
            let dst = out
                .get_mut(..raw.len())
                .ok_or(CallError::BufferTooSmall { needed: raw.len() })?;
            crate::bytes::copy(dst, raw);
            *copied = raw.len();
        }
        self.st.sh.result = Some(ResultSpan::of(bytes, raw));
        self.done();
        Ok(Event::Complete(raw))
    }

    /// `read_result` for an `InputRequiredResult`: counts the
    /// round, takes its questions and state into the workspace.
    fn take_input_required<'a>(
        &mut self,
        ir: &InputRequiredResult<'_>,
    ) -> Result<Event<'a>, CallError> {
        self.st.sh.ex.in_flight = None;
        self.st.sh.ex.count_round(&self.st.limits)?;
        let reqs = ir.input_requests.as_ref();
        // A round without questions is state-only: capped before
        // anything of it is kept.
        if reqs.is_none() {
            self.st.f.state_only = self.st.f.state_only.saturating_add(1);
            if self.st.f.state_only > self.st.limits.max_state_only_rounds {
                let limit = self.st.limits.max_state_only_rounds;
                return Err(CallError::TooManyStateOnlyRounds { limit });
            }
        }
        let sh = &mut self.st.sh;
        sh.ex.take_round(
            self.buf,
            &self.layout,
            &self.st.limits,
            &sh.caps,
            reqs,
            ir.request_state,
        )?;
        match reqs {
            Some(reqs) => {
                self.st.f.state_only = 0;
                self.st.sh.phase = Phase::Answering;
                Ok(Event::InputRequired(reqs.len()))
            }
            None => {
                self.st.sh.phase = Phase::Ready;
                let ms = self.st.limits.backoff_ms(self.st.f.state_only);
                Ok(Event::RetryAfter(ms))
            }
        }
    }

    // ---------------------------------------------------------------- persistence

    /// Restores a saved call into `state` and `buf` under `limits` (the
    /// app's current limits bound the restored regions; a save cannot raise
    /// them). Every region is re-validated as untrusted input and every
    /// invariant of a live call is checked (the shared ones by the same
    /// function as [`Task::restore`](super::task::Task::restore));
    /// a breach is [`SaveError::Invariant`] naming it. On error `state` is
    /// unchanged while `buf` may have been written (it is scratch until a
    /// state owns it).
    pub fn restore(
        state: &'w mut CallSlot,
        buf: &'w mut [u8],
        limits: &CallLimits,
        saved: &[u8],
    ) -> Result<Self, CallError> {
        // The save's fields read through a reference (`?` would copy them
        // out of the result whole); the layout is copied.
        let opened = persist::open(limits, buf.len(), saved, persist::KIND_CALL);
        let (layout, s, phase) = match &opened {
            Ok((layout, s, phase)) => (*layout, s, *phase),
            Err(e) => return Err(*e),
        };
        let broken = persist::broken;
        let method = CallMethod::from_code(s.variant)
            .ok_or(broken(SaveInvariant::UnknownVariant(s.variant)))?;
        // The params must read back as this method's params with our _meta.
        let bad_head = broken(SaveInvariant::BadHead);
        let doc = json::parse_with(s.head, &limits.wire.json).map_err(|_| bad_head)?;
        let params = doc.as_object().ok_or(bad_head)?;
        if doc.raw().len() != s.head.len() {
            return Err(bad_head);
        }
        // The protocol version is judged first: a head that names another
        // one (or ours twice) is refused as such, not as a bad head.
        let checked = check_params(params, method);
        let meta = params
            .get_unique("_meta")
            .ok()
            .flatten()
            .and_then(|m| m.as_object())
            .ok_or(bad_head)?;
        persist::check_meta_version(meta)?;
        let seed_task = checked.map_err(|_| bad_head)?;
        let caps = persist::caps_of_meta(meta).ok_or(bad_head)?;
        check_tasks_built(seed_task, &caps)?;
        persist::copy_regions(s, buf, &layout, limits)?;
        let mut ex = persist::exchange_of(s);
        // A call's request in flight with inputs in the round is the retry
        // that carries their answers.
        let phase = ex
            .check_invariants(buf, &layout, limits, &caps, phase, true)
            .map_err(broken)?;
        // What only a call has: the state-only streak.
        if s.state_only > limits.max_state_only_rounds {
            return Err(broken(SaveInvariant::TooManyStateOnlyRounds {
                count: s.state_only,
                limit: limits.max_state_only_rounds,
            }));
        }
        if s.state_only > 0 && ex.input_count > 0 {
            return Err(broken(SaveInvariant::StateOnlyWithInputs));
        }
        *state = CallSlot {
            sh: Shared {
                phase,
                ..Shared::ready(CALL_MAGIC, caps, ex)
            },
            limits: *limits,
            f: CallFields {
                method,
                seed_task,
                params_len: s.head.len(),
                state_only: s.state_only,
            },
        };
        Ok(Call {
            st: state,
            buf,
            layout,
        })
    }
}
