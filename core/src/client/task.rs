//! A task through its polls and input rounds, in either dialect
//! (see [`crate::wire::task`] for the two).
//!
//! ```text
//!  init(config) -> [Ready: tasks/get]
//!  Ready:     write_request(id, out) -> [Sent]   (the request `next_request()` names)
//!  Sent(tasks/get): feed ->
//!     working                       Poll(ms)          -> [Ready: tasks/get]
//!     input_required  extension:    InputRequired(n)  -> [Answering]
//!                     seed:         Next              -> [Ready: tasks/result]
//!     completed       extension:    Complete(result)  -> [Done]
//!                     seed:         Next              -> [Ready: tasks/result]
//!     failed          extension:    Failed(error)     -> [Done]
//!                     seed:         Next              -> [Ready: tasks/result]
//!     cancelled                     Cancelled         -> [Done]
//!  Sent(tasks/result) (seed): input_required -> InputRequired(n) -> [Answering]
//!                             complete       -> Complete(result) -> [Done]
//!                             JSON-RPC error -> RpcError          -> [Done]
//!  Answering: answer(key, ..) ... -> [Ready: tasks/update | tasks/input_response]
//!  Sent(answers): acknowledged -> Poll(ms) -> [Ready: tasks/get]
//!  write_cancel(id, out) (any live phase) -> [Sent: tasks/cancel] -> Cancelled
//! ```
//!
//! The poll interval is the server's latest hint (`pollInterval` /
//! `pollIntervalMs`), else [`CallLimits::default_poll_ms`], clamped to
//! `[min_poll_ms, max_poll_ms]` so a hostile hint can neither busy-poll nor
//! stall the app. Every request carries the `_meta` of the revision. Input
//! rounds follow the call's rules (declared kinds only, every key answered,
//! nothing from an earlier round re-sent, `requestState` echoed byte for
//! byte in the seed dialect). Memory and attribution of fed bytes work as
//! for [`Call`](super::call::Call).

use super::errors::{CallError, ParamsError, SaveInvariant};
use super::events::{Phase, RpcError, TaskHandoff, Unrelated};
use super::exchange::{self, Exchange, Incoming, ResultSpan};
use super::flow::{Flavor, FlowView, SaveFields, Shared, Slot};
use super::layout::Layout;
use super::limits::CallLimits;
use super::persist::{self};
use crate::json::{self, JsonStr, Object, Writer};
use crate::wire::caps::write_request_meta_members;
use crate::wire::envelope::write_request_head;
use crate::wire::result::classify_result_into;
use crate::wire::task::{TaskError, META_RELATED_TASK};
use crate::wire::{
    ClientCapabilities, ClientInfo, Id, InputRequests, ResultOutcome, ServerRevision, TaskDialect,
    TaskRecord, TaskStatus, Violation,
};

/// The request a task sends next (or has in flight).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum TaskRequest {
    /// `tasks/get`: poll the status.
    Get = 1,
    /// `tasks/result` (seed): fetch the questions or the outcome.
    Result = 2,
    /// The answers: `tasks/input_response` (seed) or `tasks/update`
    /// (extension).
    Respond = 3,
    /// `tasks/cancel`.
    Cancel = 4,
}

impl TaskRequest {
    /// The JSON-RPC method in `dialect`.
    pub const fn method(self, dialect: TaskDialect) -> &'static str {
        match (self, dialect) {
            (TaskRequest::Get, _) => "tasks/get",
            (TaskRequest::Result, _) => "tasks/result",
            (TaskRequest::Respond, TaskDialect::Seed) => "tasks/input_response",
            (TaskRequest::Respond, TaskDialect::Extension) => "tasks/update",
            (TaskRequest::Cancel, _) => "tasks/cancel",
        }
    }

    fn from_code(code: u8) -> Option<Self> {
        [
            TaskRequest::Get,
            TaskRequest::Result,
            TaskRequest::Respond,
            TaskRequest::Cancel,
        ]
        .into_iter()
        .find(|r| *r as u8 == code)
    }
}

/// A task id as the app has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskIdRef<'a> {
    /// Decoded text (escaped when written).
    Text(&'a str),
    /// A validated JSON string token, echoed exactly as the server wrote it.
    Token(JsonStr<'a>),
}

impl<'a> TaskIdRef<'a> {
    /// An id given as a JSON string token (quotes and escapes included, as
    /// the server wrote it); `None` when `token` is not one JSON string.
    pub fn token(token: &'a str) -> Option<Self> {
        crate::json::parse(token.as_bytes())
            .ok()?
            .as_str()
            .map(TaskIdRef::Token)
    }
}

/// How to start following a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskConfig<'a> {
    /// Which task protocol the server speaks.
    pub dialect: TaskDialect,
    /// The server's task id.
    pub task_id: TaskIdRef<'a>,
    /// Capabilities declared on every request (the extension dialect needs
    /// `tasks`).
    pub caps: ClientCapabilities,
    /// Sent as `io.modelcontextprotocol/clientInfo`; `None` omits it.
    pub client_info: Option<ClientInfo<'a>>,
    /// Capacities and caps.
    pub limits: CallLimits,
    /// The poll hint the task was created with.
    pub poll_ms: Option<u64>,
}

impl<'a> TaskConfig<'a> {
    /// A config for a task id given as text, with default limits and this
    /// library's client info; `caps.tasks` is set for the extension dialect.
    pub fn new(dialect: TaskDialect, task_id: &'a str) -> Self {
        TaskConfig {
            dialect,
            task_id: TaskIdRef::Text(task_id),
            caps: ClientCapabilities {
                tasks: dialect == TaskDialect::Extension,
                ..ClientCapabilities::default()
            },
            client_info: Some(ClientInfo::DEFAULT),
            limits: CallLimits::default(),
            poll_ms: None,
        }
    }

    /// A config for the task a call handed over (set `caps` to the call's).
    pub fn from_handoff(handoff: &TaskHandoff<'a>, caps: ClientCapabilities) -> Self {
        TaskConfig {
            dialect: handoff.dialect,
            task_id: TaskIdRef::Token(handoff.task.task_id),
            caps,
            client_info: Some(ClientInfo::DEFAULT),
            limits: CallLimits::default(),
            poll_ms: handoff.task.poll_interval_ms,
        }
    }
}

/// What a fed response meant for a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskEvent<'a> {
    /// Wait this many milliseconds, then write the next `tasks/get`.
    Poll(u64),
    /// Write the next request now (seed: `tasks/result`).
    Next,
    /// The server asked `n` questions. -> `Answering`
    InputRequired(usize),
    /// The task's result object, borrowed from the fed bytes. -> `Done`
    Complete(&'a [u8]),
    /// The task failed with this error (extension). -> `Done`
    Failed(TaskError<'a>),
    /// The task was cancelled. -> `Done`
    Cancelled,
    /// A JSON-RPC error response to our request. -> `Done`
    RpcError(RpcError<'a>),
    /// Not the answer to our request; nothing changed.
    Unrelated(Unrelated<'a>),
}

const TASK_MAGIC: u32 = 0x4D52_5431; // "MRT1"

/// A task's own fields (see [`Slot`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskFields {
    pub(crate) dialect: TaskDialect,
    pub(crate) next: TaskRequest,
    pub(crate) meta_len: usize,
    pub(crate) id_len: usize,
    pub(crate) polls: u32,
    pub(crate) poll_ms: u64,
}

impl Default for TaskFields {
    fn default() -> Self {
        TaskFields {
            dialect: TaskDialect::Extension,
            next: TaskRequest::Get,
            meta_len: 0,
            id_len: 0,
            polls: 0,
            poll_ms: 0,
        }
    }
}

/// The plain data of a task (see [`super::call::CallSlot`]).
pub type TaskSlot = Slot<TaskFields>;

impl Slot<TaskFields> {
    /// The task id token as sent, read from the workspace `buf` (laid out
    /// as `layout`).
    pub(crate) fn task_id<'b>(&self, buf: &'b [u8], layout: &Layout) -> &'b [u8] {
        let head = layout
            .head
            .prefix(buf, self.f.meta_len.saturating_add(self.f.id_len));
        head.get(self.f.meta_len..).unwrap_or(&[])
    }

    pub(crate) fn render_kind(
        &self,
        buf: &[u8],
        layout: &Layout,
        kind: TaskRequest,
        id: i64,
        out: &mut [u8],
    ) -> Result<usize, CallError> {
        let head = layout
            .head
            .prefix(buf, self.f.meta_len.saturating_add(self.f.id_len));
        let meta = head.get(..self.f.meta_len).unwrap_or(&[]);
        let token = head.get(self.f.meta_len..).unwrap_or(&[]);
        let seed = self.f.dialect == TaskDialect::Seed;
        let mut w = Writer::new(out);
        write_request_head(&mut w, &Id::Number(id), kind.method(self.f.dialect));
        w.raw(b"{\"_meta\":");
        if kind == TaskRequest::Respond && seed {
            // The SEP names the task in `_meta` only.
            w.raw(meta.get(..meta.len().saturating_sub(1)).unwrap_or(&[]))
                .byte(b',')
                .key(META_RELATED_TASK)
                .raw(b"{\"taskId\":")
                .raw(token)
                .raw(b"}}");
        } else {
            w.raw(meta).raw(b",\"taskId\":").raw(token);
        }
        if kind == TaskRequest::Respond {
            w.raw(b",\"inputResponses\":");
            self.sh.ex.write_responses(&mut w, buf, layout);
            if let (true, Some(s)) = (seed, self.sh.ex.request_state(buf, layout)) {
                w.raw(b",\"requestState\":").raw(s);
            }
        }
        w.raw(b"}}");
        w.finish()
            .map_err(|e| CallError::BufferTooSmall { needed: e.needed })
    }
}

impl super::flow::sealed::Sealed for TaskFields {}

impl Flavor for TaskFields {
    const MAGIC: u32 = TASK_MAGIC;

    fn render(
        slot: &TaskSlot,
        buf: &[u8],
        layout: &Layout,
        id: i64,
        out: &mut [u8],
    ) -> Result<usize, CallError> {
        slot.render_kind(buf, layout, slot.f.next, id, out)
    }

    fn on_written(slot: &mut TaskSlot) {
        if slot.f.next == TaskRequest::Get {
            slot.f.polls = slot.f.polls.saturating_add(1);
        }
    }

    fn save_fields(slot: &TaskSlot) -> SaveFields {
        SaveFields {
            kind: persist::KIND_TASK,
            variant: slot.f.dialect as u8,
            next: slot.f.next as u8,
            polls: slot.f.polls,
            poll_ms: slot.f.poll_ms,
            head_split: u32::try_from(slot.f.meta_len).unwrap_or(u32::MAX),
            head_len: slot.f.meta_len.saturating_add(slot.f.id_len),
            ..SaveFields::default()
        }
    }
}

/// A task: its slot and its workspace.
pub type Task<'w> = FlowView<'w, TaskFields>;

impl<'w> Task<'w> {
    /// Starts following a task. On error `state` is unchanged.
    pub fn init(
        state: &'w mut TaskSlot,
        buf: &'w mut [u8],
        config: &TaskConfig<'_>,
    ) -> Result<Self, CallError> {
        Self::init_with(state, buf, config, None, None)
    }

    /// [`Task::init`] for a task that continues a call in place: with
    /// `meta = Some(n)` the head already holds the call's own `_meta`
    /// members at offset 1 (`n` bytes, moved there by the machine), so the
    /// task declares byte for byte what the call declared; ids continue
    /// after `last_id`. On error `state` is unchanged.
    pub(crate) fn init_with(
        state: &'w mut TaskSlot,
        buf: &'w mut [u8],
        config: &TaskConfig<'_>,
        meta: Option<usize>,
        last_id: Option<i64>,
    ) -> Result<Self, CallError> {
        // By reference: the limits are copied once, into the slot.
        let limits = &config.limits;
        let layout = limits.layout_in(buf.len())?;
        if config.dialect == TaskDialect::Extension && !config.caps.tasks {
            return Err(CallError::BadParams(ParamsError::TasksNotDeclared));
        }
        let empty = match config.task_id {
            TaskIdRef::Text(t) => t.is_empty(),
            TaskIdRef::Token(t) => t.decoded_len() == 0,
        };
        if empty {
            return Err(CallError::BadParams(ParamsError::BadTaskId));
        }
        let skip = match meta {
            // `{` then the members already in place.
            Some(n) if n.saturating_add(2) <= layout.head.len => n.saturating_add(1),
            Some(n) => {
                return Err(CallError::ParamsTooLarge {
                    needed: n.saturating_add(2),
                    limit: limits.max_params_bytes,
                })
            }
            None => 0,
        };
        if skip > 0 {
            if let Some(b) = layout.head.tail_mut(buf, 0).first_mut() {
                *b = b'{';
            }
        }
        let mut w = Writer::new(layout.head.tail_mut(buf, skip));
        if meta.is_none() {
            w.byte(b'{');
            write_request_meta_members(&mut w, &config.caps, config.client_info.as_ref());
        }
        w.byte(b'}');
        let meta_len = skip.saturating_add(w.len());
        match config.task_id {
            TaskIdRef::Text(t) => w.str(t),
            TaskIdRef::Token(t) => w.json_str_raw(&t),
        };
        let total = skip.saturating_add(w.finish().map_err(|e| CallError::ParamsTooLarge {
            needed: e.needed.saturating_add(skip),
            limit: limits.max_params_bytes,
        })?);
        let ex = Exchange {
            last_id,
            ..Exchange::default()
        };
        *state = TaskSlot {
            sh: Shared::ready(TASK_MAGIC, config.caps, ex),
            limits: *limits,
            f: TaskFields {
                dialect: config.dialect,
                next: TaskRequest::Get,
                meta_len,
                id_len: total.saturating_sub(meta_len),
                polls: 0,
                poll_ms: limits.poll_interval(config.poll_ms),
            },
        };
        Ok(Task {
            st: state,
            buf,
            layout,
        })
    }

    // ----------------------------------------------------------------- accessors

    /// The dialect.
    pub fn dialect(&self) -> TaskDialect {
        self.st.f.dialect
    }

    /// The request `write_request` sends next (in `Ready`) or the one in
    /// flight (in `Sent`).
    pub fn next_request(&self) -> TaskRequest {
        self.st.f.next
    }

    /// The task id token as sent.
    pub fn task_id(&self) -> &[u8] {
        self.st.task_id(self.buf, &self.layout)
    }

    /// The current poll interval in milliseconds.
    pub fn poll_ms(&self) -> u64 {
        self.st.f.poll_ms
    }

    /// `tasks/get` requests written so far.
    pub fn polls(&self) -> u32 {
        self.st.f.polls
    }

    /// The limits.
    pub fn limits(&self) -> &CallLimits {
        &self.st.limits
    }

    // ------------------------------------------------------------------- writing

    /// Writes `tasks/cancel` (from `Ready`, `Answering` or `Sent`; a response
    /// to a request in flight then counts as unrelated). -> `Sent`; the
    /// acknowledgement yields [`TaskEvent::Cancelled`].
    pub fn write_cancel(&mut self, id: i64, out: &mut [u8]) -> Result<usize, CallError> {
        if !matches!(
            self.st.sh.phase,
            Phase::Ready | Phase::Answering | Phase::Sent
        ) {
            return Err(CallError::WrongState(self.st.sh.phase));
        }
        self.st.sh.ex.check_id(id)?;
        let n = self
            .st
            .render_kind(self.buf, &self.layout, TaskRequest::Cancel, id, out)?;
        self.st.sh.ex.sent(id);
        self.st.f.next = TaskRequest::Cancel;
        self.st.sh.phase = Phase::Sent;
        Ok(n)
    }

    // -------------------------------------------------------------------- feeding

    fn poll(&mut self) -> Result<TaskEvent<'static>, CallError> {
        if self.st.f.polls >= self.st.limits.max_polls {
            let limit = self.st.limits.max_polls;
            return Err(CallError::TooManyPolls { limit });
        }
        self.st.sh.phase = Phase::Ready;
        self.st.f.next = TaskRequest::Get;
        Ok(TaskEvent::Poll(self.st.f.poll_ms))
    }

    fn complete<'a>(&mut self, fed: &'a [u8], result: Object<'a>) -> TaskEvent<'a> {
        self.st.sh.result = Some(ResultSpan::of(fed, result.raw()));
        self.done();
        TaskEvent::Complete(result.raw())
    }

    fn same_task(&self, id: &JsonStr<'_>) -> bool {
        json::parse(self.task_id())
            .ok()
            .and_then(|v| v.as_str())
            .is_some_and(|ours| ours.eq_json_str(id))
    }

    /// Takes a round of questions (and state) into the workspace.
    fn take_inputs(
        &mut self,
        reqs: &InputRequests<'_>,
        state: Option<JsonStr<'_>>,
    ) -> Result<TaskEvent<'static>, CallError> {
        let limits = &self.st.limits;
        let layout = &self.layout;
        let caps = self.st.sh.caps;
        let taken = self.st.sh.ex.count_round(limits).and_then(|()| {
            self.st
                .sh
                .ex
                .take_round(self.buf, layout, limits, &caps, Some(reqs), state)
        });
        taken?;
        self.st.sh.phase = Phase::Answering;
        self.st.f.next = TaskRequest::Respond;
        Ok(TaskEvent::InputRequired(reqs.len()))
    }

    /// Feeds bytes received while `Sent`.
    pub fn feed<'a>(&mut self, bytes: &'a [u8]) -> Result<TaskEvent<'a>, CallError> {
        let ours = match (self.st.sh.phase, self.st.sh.ex.in_flight) {
            (Phase::Sent, Some(id)) => id,
            (p, _) => return Err(CallError::WrongState(p)),
        };
        // As in `Call::feed`: parse with a skip index on the stack.
        exchange::with_feed_slots(bytes.len(), |slots| {
            if let Some((result, indexed)) =
                exchange::receive_result_indexed(bytes, &self.st.limits.wire, ours, slots)
            {
                return self.on_result(bytes, result, indexed);
            }
            match exchange::receive(bytes, &self.st.limits.wire, ours) {
                Err(e) => Err(self.fail(e)),
                Ok(Incoming::Unrelated(u)) => Ok(TaskEvent::Unrelated(u)),
                Ok(Incoming::Error(e)) => {
                    self.done();
                    Ok(TaskEvent::RpcError(e))
                }
                // A result of ours took the indexed way above.
                Ok(Incoming::Result(r)) => self.on_result(bytes, r, r),
            }
        })
    }

    /// [`Task::feed`] once a result of ours is in: classify `indexed` (the
    /// result with a skip index); what the event borrows comes from
    /// `result` itself, the same object. Every error ends the task, at
    /// this one place.
    fn on_result<'a>(
        &mut self,
        bytes: &'a [u8],
        result: json::Object<'a>,
        indexed: json::Object<'_>,
    ) -> Result<TaskEvent<'a>, CallError> {
        match self.read_result(bytes, result, indexed) {
            Err(e) => Err(self.fail(e)),
            ok => ok,
        }
    }

    /// The body of [`Task::on_result`], whose caller ends the task on its
    /// errors (as on those of `on_status`, `take_inputs` and `poll`, which
    /// only it calls).
    fn read_result<'a>(
        &mut self,
        bytes: &'a [u8],
        result: json::Object<'a>,
        indexed: json::Object<'_>,
    ) -> Result<TaskEvent<'a>, CallError> {
        self.st.sh.ex.in_flight = None;
        let kind = self.st.f.next;
        // Classified in place and read through a reference (see
        // `Call::feed`).
        let mut outcome = ResultOutcome::Complete(indexed);
        if let Err(e) = classify_result_into(
            indexed,
            kind.method(self.st.f.dialect),
            ServerRevision::Current,
            &self.st.limits.wire,
            &mut outcome,
        ) {
            return Err(exchange::wire_to_call(e));
        }
        match (kind, &outcome) {
            (_, ResultOutcome::Task(_)) => {
                Err(CallError::Protocol(Violation::UnexpectedResultType))
            }
            (TaskRequest::Get, ResultOutcome::Complete(_)) => self.on_status(bytes, result),
            (TaskRequest::Result, ResultOutcome::Complete(_)) => Ok(self.complete(bytes, result)),
            (TaskRequest::Result, ResultOutcome::InputRequired(ir)) => match &ir.input_requests {
                // The MRTR page: tasks/result MUST carry inputRequests.
                None => Err(CallError::Protocol(Violation::BadTask)),
                Some(reqs) => self.take_inputs(reqs, ir.request_state),
            },
            (TaskRequest::Respond, ResultOutcome::Complete(_)) => {
                // Delivered: nothing of this round may reach a later request.
                self.st.sh.ex.clear_round();
                self.poll()
            }
            (TaskRequest::Cancel, ResultOutcome::Complete(_)) => {
                self.done();
                Ok(TaskEvent::Cancelled)
            }
            // classify_result refuses input_required for every other method.
            (_, ResultOutcome::InputRequired(_)) => {
                Err(CallError::Protocol(Violation::InputRequiredNotAllowed))
            }
        }
    }

    fn on_status<'a>(
        &mut self,
        fed: &'a [u8],
        obj: Object<'a>,
    ) -> Result<TaskEvent<'a>, CallError> {
        let dialect = self.st.f.dialect;
        // Read through a reference: moved, the record is copied whole.
        let parsed = TaskRecord::parse(obj, dialect);
        let rec = match &parsed {
            Ok(r) => r,
            Err(v) => return Err(CallError::Protocol(*v)),
        };
        if !self.same_task(&rec.task_id) {
            return Err(CallError::Protocol(Violation::TaskIdMismatch));
        }
        if let Some(hint) = rec.poll_interval_ms {
            self.st.f.poll_ms = self.st.limits.poll_interval(Some(hint));
        }
        let bad = CallError::Protocol(Violation::BadTask);
        match (dialect, rec.status) {
            (_, TaskStatus::Working) => self.poll(),
            (_, TaskStatus::Cancelled) => {
                self.done();
                Ok(TaskEvent::Cancelled)
            }
            (TaskDialect::Seed, _) => {
                // input_required, completed, failed: tasks/result tells.
                self.st.sh.phase = Phase::Ready;
                self.st.f.next = TaskRequest::Result;
                Ok(TaskEvent::Next)
            }
            (TaskDialect::Extension, TaskStatus::InputRequired) => {
                // Parsed in place (see `classify_result_into`).
                let mut reqs = None;
                let parsed = match obj.get_unique("inputRequests") {
                    Ok(Some(v)) => InputRequests::parse_into(v, &self.st.limits.wire, &mut reqs),
                    _ => Ok(()),
                };
                match (parsed, &reqs) {
                    (Err(v), _) => Err(CallError::Protocol(v)),
                    (Ok(()), Some(r)) if !r.is_empty() => self.take_inputs(r, None),
                    _ => Err(bad),
                }
            }
            (TaskDialect::Extension, TaskStatus::Completed) => {
                match obj
                    .get_unique("result")
                    .ok()
                    .flatten()
                    .and_then(|v| v.as_object())
                {
                    Some(r) => Ok(self.complete(fed, r)),
                    None => Err(bad),
                }
            }
            (TaskDialect::Extension, TaskStatus::Failed) => {
                match obj.get_unique("error").ok().flatten().map(TaskError::parse) {
                    Some(Ok(e)) => {
                        self.done();
                        Ok(TaskEvent::Failed(e))
                    }
                    _ => Err(bad),
                }
            }
        }
    }

    // ---------------------------------------------------------------- persistence

    /// Restores a saved task under `limits`; every region is re-validated
    /// and every invariant of a live task checked (the shared ones by the
    /// same function as [`Call::restore`](super::call::Call::restore)), a
    /// breach being [`SaveError::Invariant`](super::SaveError::Invariant). On error `state` is unchanged
    /// (the workspace is scratch).
    pub fn restore(
        state: &'w mut TaskSlot,
        buf: &'w mut [u8],
        limits: &CallLimits,
        saved: &[u8],
    ) -> Result<Self, CallError> {
        // The save read through a reference: `?` would copy its fields out
        // of the result whole.
        let opened = persist::open(limits, buf.len(), saved, persist::KIND_TASK);
        let (layout, s, phase) = match &opened {
            Ok((layout, s, phase)) => (layout, s, *phase),
            Err(e) => return Err(*e),
        };
        let broken = persist::broken;
        let dialect = match s.variant {
            1 => TaskDialect::Seed,
            2 => TaskDialect::Extension,
            v => return Err(broken(SaveInvariant::UnknownVariant(v))),
        };
        let next = TaskRequest::from_code(s.next)
            .ok_or(broken(SaveInvariant::UnknownNextRequest(s.next)))?;
        let bad_head = broken(SaveInvariant::BadHead);
        let meta_len = usize::try_from(s.head_split).map_err(|_| bad_head)?;
        let (meta, token) = s.head.split_at_checked(meta_len).ok_or(bad_head)?;
        let meta_doc = json::parse_with(meta, &limits.wire.json).map_err(|_| bad_head)?;
        let meta_obj = meta_doc
            .as_object()
            .filter(|_| meta_doc.raw().len() == meta.len())
            .ok_or(bad_head)?;
        let caps = persist::caps_of_meta(meta_obj).ok_or(bad_head)?;
        let id_ok = json::parse(token)
            .ok()
            .filter(|v| v.raw().len() == token.len())
            .and_then(|v| v.as_str())
            .is_some_and(|t| t.decoded_len() > 0);
        if !id_ok {
            return Err(bad_head);
        }
        persist::check_meta_version(meta_obj)?;
        if dialect == TaskDialect::Extension && !caps.tasks {
            return Err(broken(SaveInvariant::TasksNotDeclared));
        }
        persist::copy_regions(s, buf, layout, limits)?;
        let mut ex = persist::exchange_of(s);
        // The checks every machine shares (a task's answers travel with the
        // respond request), then the task's own.
        let phase = ex
            .check_invariants(
                buf,
                layout,
                limits,
                &caps,
                phase,
                next == TaskRequest::Respond,
            )
            .map_err(broken)?;
        // The first request goes out before any poll is counted against
        // the cap, so a live task can hold one poll under a cap of 0.
        if s.polls > limits.max_polls.max(1) {
            return Err(broken(SaveInvariant::TooManyPolls {
                polls: s.polls,
                limit: limits.max_polls,
            }));
        }
        let has_inputs = ex.input_count > 0;
        match (phase, next) {
            (Phase::Sent | Phase::Ready, TaskRequest::Respond) if !has_inputs => {
                return Err(broken(SaveInvariant::RespondWithoutInputs))
            }
            (Phase::Answering, TaskRequest::Respond) => {}
            (Phase::Answering, _) => return Err(broken(SaveInvariant::AnsweringOtherRequest)),
            (Phase::Ready, TaskRequest::Cancel) => {
                return Err(broken(SaveInvariant::CancelNotSent))
            }
            _ => {}
        }
        *state = TaskSlot {
            sh: Shared {
                phase,
                ..Shared::ready(TASK_MAGIC, caps, ex)
            },
            limits: *limits,
            f: TaskFields {
                dialect,
                next,
                meta_len,
                id_len: token.len(),
                polls: s.polls,
                poll_ms: limits.poll_interval(Some(s.poll_ms)),
            },
        };
        Ok(Task {
            st: state,
            buf,
            layout: *layout,
        })
    }
}
