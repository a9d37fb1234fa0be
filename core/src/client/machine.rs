//! One client machine for one logical request: a call
//! (`tools/call`, `prompts/get`, `resources/read`) that, when the server
//! moves it to a task, follows the task in place; or a task restarted from a
//! stored id. This is what the C ABI and every binding drive, so every
//! protocol decision (ids, the hand-over, which request comes next) is made
//! here once.
//!
//! ```text
//!  init(Start::Call)  -> [Ready]  write_request -> [Sent] feed ->
//!     Complete / RpcError                       -> [Done]
//!     InputRequired(n) -> [Answering] answer_at ... -> [Ready]
//!     RetryAfter(ms)                            -> [Ready]
//!     TaskCreated(handoff)                      -> [Ready] now a task
//!  init(Start::Task)  -> [Ready] as a task: see [`super::task`]
//! ```
//!
//! The machine is a [`Call`] or a [`Task`] underneath: [`MachineSlot`]
//! is their plain data, the workspace is sized for either
//! ([`Machine::workspace_size`]), so the hand-over needs no new memory. The
//! task keeps the call's `_meta` (protocol version, capabilities, client
//! info, byte for byte) and its ids continue after the call's.

use core::mem::MaybeUninit;

use super::call::{
    check_id_range, is_owned_meta_key, Answer, Call, CallError, CallLimits, CallMethod, CallSlot,
    Event, Phase,
};
use super::events::{ErrorRecord, EventKind, EventRecord};
use super::flow::{save_slot, Flavor, Shared, Slot};
use super::layout::Layout;
use super::limits::CheckedLimits;
use super::persist;
use super::task::{Task, TaskConfig, TaskEvent, TaskIdRef, TaskRequest, TaskSlot};
use crate::json::{self, JsonStr};
use crate::wire::{ClientCapabilities, ClientInfo, InputRequest, TaskDialect};

/// How a machine starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start<'a> {
    /// A call: the method and the caller's params object (see
    /// [`CallConfig::params`](super::CallConfig::params)).
    Call {
        /// The method.
        method: CallMethod,
        /// The params object, raw JSON.
        params: &'a [u8],
    },
    /// A task restarted from a stored id.
    Task {
        /// Which task protocol the server speaks.
        dialect: TaskDialect,
        /// The server's task id.
        task_id: TaskIdRef<'a>,
        /// The poll hint the task was created with.
        poll_ms: Option<u64>,
    },
}

/// How to start a machine. Everything is copied at init.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MachineConfig<'a> {
    /// A call or a task.
    pub start: Start<'a>,
    /// What the client declares it can answer, sent on every request.
    pub caps: ClientCapabilities,
    /// Sent as `io.modelcontextprotocol/clientInfo`; `None` omits it.
    pub client_info: Option<ClientInfo<'a>>,
    /// Capacities and caps.
    pub limits: CallLimits,
    /// The id [`Machine::next_id`] suggests before the first request:
    /// within +-(2^53-1).
    pub first_id: i64,
}

impl<'a> MachineConfig<'a> {
    /// A call with no capabilities, this library's client info, the default
    /// limits and ids from 1.
    pub fn call(method: CallMethod, params: &'a [u8]) -> Self {
        MachineConfig {
            start: Start::Call { method, params },
            caps: ClientCapabilities::default(),
            client_info: Some(ClientInfo::DEFAULT),
            limits: CallLimits::default(),
            first_id: 1,
        }
    }
}

/// Which flow a machine is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Flow {
    /// The call's own request and its retries.
    Call = 1,
    /// A task's polls, answers and cancel.
    Task = 2,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Inner {
    Call(CallSlot),
    Task(TaskSlot, Tasks),
}

/// What the task flow's variant carries beside its slot: a unit value in a
/// build with the `tasks` feature, an uninhabited type without it, so that
/// no [`Inner::Task`] can be made there and the compiler drops every task
/// arm below (and the task flow's code with them).
#[cfg(feature = "tasks")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Tasks;

/// See the `tasks` build's [`Tasks`].
#[cfg(not(feature = "tasks"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tasks {}

impl Tasks {
    /// The value [`Inner::Task`] needs, or [`CallError::TasksNotBuilt`] in a
    /// build without the `tasks` feature.
    fn built() -> Result<Tasks, CallError> {
        #[cfg(feature = "tasks")]
        return Ok(Tasks);
        #[cfg(not(feature = "tasks"))]
        return Err(CallError::TasksNotBuilt);
    }
}

const MACHINE_MAGIC: u32 = 0x4D52_4D31; // "MRM1"

/// The plain data of a machine (no references): place it anywhere with
/// `MachineSlot::default()`, then [`Machine::init`] or
/// [`Machine::restore`] it together with a workspace (or leave it
/// uninitialized for [`Machine::init_checked`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachineSlot {
    magic: u32,
    limits: CallLimits,
    first_id: i64,
    inner: Inner,
}

impl Default for MachineSlot {
    fn default() -> Self {
        MachineSlot {
            magic: 0,
            limits: CallLimits::default(),
            first_id: 1,
            inner: Inner::Call(CallSlot::default()),
        }
    }
}

/// What a fed response meant, in the flow that read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MachineEvent<'a> {
    /// Read by the call. After [`Event::TaskCreated`] the machine follows
    /// the task: [`Phase::Ready`] for its first `tasks/get`.
    Call(Event<'a>),
    /// Read by the task.
    Task(TaskEvent<'a>),
}

impl<'a> MachineEvent<'a> {
    /// The event as one flat record (what the C ABI and the bindings read).
    pub fn record(&self) -> EventRecord<'a> {
        match self {
            MachineEvent::Call(e) => e.into(),
            MachineEvent::Task(e) => e.into(),
        }
    }
}

impl<'a> From<&Event<'a>> for EventRecord<'a> {
    fn from(ev: &Event<'a>) -> Self {
        use EventKind as K;
        // One record of the event's kind, then the one field it sets.
        let mut r = EventRecord::of(match ev {
            Event::Complete(_) => K::Complete,
            Event::InputRequired(_) => K::InputRequired,
            Event::RetryAfter(_) => K::RetryAfter,
            Event::RpcError(_) => K::RpcError,
            Event::TaskCreated(_) => K::TaskCreated,
            Event::Unrelated(_) => K::Unrelated,
        });
        match *ev {
            Event::Complete(x) => r.result = Some(x),
            Event::InputRequired(n) => r.input_count = n,
            Event::RetryAfter(ms) => r.wait_ms = u64::from(ms),
            Event::RpcError(e) => r.error = Some(ErrorRecord::of(e.code, e.message, e.data)),
            Event::TaskCreated(h) => r.task = Some(h),
            Event::Unrelated(_) => {}
        }
        r
    }
}

impl<'a> From<&TaskEvent<'a>> for EventRecord<'a> {
    fn from(ev: &TaskEvent<'a>) -> Self {
        use EventKind as K;
        // One record of the event's kind, then the one field it sets.
        let mut r = EventRecord::of(match ev {
            TaskEvent::Poll(_) => K::TaskPoll,
            TaskEvent::Next => K::TaskNext,
            TaskEvent::InputRequired(_) => K::InputRequired,
            TaskEvent::Complete(_) => K::Complete,
            TaskEvent::Failed(_) => K::TaskFailed,
            TaskEvent::Cancelled => K::TaskCancelled,
            TaskEvent::RpcError(_) => K::RpcError,
            TaskEvent::Unrelated(_) => K::Unrelated,
        });
        match *ev {
            TaskEvent::Poll(ms) => r.wait_ms = ms,
            TaskEvent::InputRequired(n) => r.input_count = n,
            TaskEvent::Complete(x) => r.result = Some(x),
            TaskEvent::Failed(t) => r.error = Some(ErrorRecord::of(t.code, t.message, t.data)),
            TaskEvent::RpcError(e) => r.error = Some(ErrorRecord::of(e.code, e.message, e.data)),
            TaskEvent::Next | TaskEvent::Cancelled | TaskEvent::Unrelated(_) => {}
        }
        r
    }
}

/// A view of one machine: its slot and its workspace.
#[derive(Debug)]
pub struct Machine<'w> {
    slot: &'w mut MachineSlot,
    buf: &'w mut [u8],
    /// The workspace's layout under the slot's limits, derived once.
    layout: Layout,
}

/// Runs `$body` with `$v` bound to the flow's live slot (its magic
/// checked, as [`Call::attach_laid_out`] does), for what a slot does with
/// the machine's workspace and layout.
macro_rules! with_slot {
    ($self:ident, $v:ident => $body:expr) => {
        match &mut $self.slot.inner {
            Inner::Call(st) => {
                let $v = live(st)?;
                $body
            }
            Inner::Task(st, _) => {
                let $v = live(st)?;
                $body
            }
        }
    };
}

/// The slot if it is a live flow of its kind ([`CallError::NotInitialized`]
/// otherwise).
fn live<F: Flavor>(st: &mut Slot<F>) -> Result<&mut Slot<F>, CallError> {
    if st.sh.magic != F::MAGIC {
        return Err(CallError::NotInitialized);
    }
    Ok(st)
}

impl<'w> Machine<'w> {
    /// Bytes of workspace a machine with these limits needs (either flow);
    /// `usize::MAX` for limits that cannot be laid out. A `const fn`, so
    /// firmware can size a `static` workspace.
    pub const fn workspace_size(limits: &CallLimits) -> usize {
        limits.workspace_size()
    }

    /// Starts a machine. On error `slot` is unchanged (the workspace is
    /// scratch until a slot owns it).
    pub fn init(
        slot: &'w mut MachineSlot,
        buf: &'w mut [u8],
        config: &MachineConfig<'_>,
    ) -> Result<Self, CallError> {
        let limits = config.limits.checked()?;
        let parts = (config.start, &config.caps, config.client_info.as_ref());
        Self::start(buf, parts, limits, config.first_id, |v| {
            *slot = v;
            slot
        })
    }

    /// [`Machine::init`] into a slot not initialized yet, under limits
    /// checked already ([`CallLimits::checked`]): the config's parts by
    /// reference, the limits neither checked nor copied again but into the
    /// slot, and the slot written once, whole, on success; the errors, and
    /// which comes first, as `init`'s. On error nothing is written to `slot`.
    pub fn init_checked(
        slot: &'w mut MaybeUninit<MachineSlot>,
        buf: &'w mut [u8],
        start: Start<'_>,
        caps: &ClientCapabilities,
        client_info: Option<&ClientInfo<'_>>,
        limits: CheckedLimits<'_>,
        first_id: i64,
    ) -> Result<Self, CallError> {
        Self::start(buf, (start, caps, client_info), limits, first_id, |v| {
            slot.write(v)
        })
    }

    /// The body of both inits: checks the workspace's size and `first_id`,
    /// starts the flow in `buf`, then hands the finished slot to `put`
    /// (nothing is put on error). Each flow builds the slot where `put`
    /// writes it, so no slot is built and then copied.
    fn start(
        buf: &'w mut [u8],
        (start, caps, client_info): (Start<'_>, &ClientCapabilities, Option<&ClientInfo<'_>>),
        limits: CheckedLimits<'_>,
        first_id: i64,
        put: impl FnOnce(MachineSlot) -> &'w mut MachineSlot,
    ) -> Result<Self, CallError> {
        let layout = limits.layout_in(buf.len())?;
        let first_id = check_id_range(first_id)?;
        let limits = limits.limits();
        let slot = match start {
            Start::Call { method, params } => {
                let f = Call::prepare(buf, layout, (method, params), caps, client_info, limits)?;
                put(MachineSlot {
                    inner: Inner::Call(CallSlot::ready(caps, limits, f)),
                    magic: MACHINE_MAGIC,
                    limits: *limits,
                    first_id,
                })
            }
            Start::Task {
                dialect,
                task_id,
                poll_ms,
            } => {
                let cfg = TaskConfig {
                    dialect,
                    task_id,
                    caps: *caps,
                    client_info: client_info.copied(),
                    limits: *limits,
                    poll_ms,
                };
                let tasks = Tasks::built()?;
                let mut st = TaskSlot::default();
                Task::init_with(&mut st, buf, &cfg, None, None)?;
                put(MachineSlot {
                    magic: MACHINE_MAGIC,
                    limits: *limits,
                    first_id,
                    inner: Inner::Task(st, tasks),
                })
            }
        };
        Ok(Machine { slot, buf, layout })
    }

    /// Rebuilds the view over a slot and workspace that `init` or `restore`
    /// prepared (O(1)).
    pub fn attach(slot: &'w mut MachineSlot, buf: &'w mut [u8]) -> Result<Self, CallError> {
        if slot.magic != MACHINE_MAGIC {
            return Err(CallError::NotInitialized);
        }
        // The magic says `init` or `restore` laid these limits out already.
        let layout = slot.limits.accepted_layout_in(buf.len())?;
        Ok(Machine { slot, buf, layout })
    }

    /// Restores a save of either flow (from [`Machine::save`], or from a
    /// [`Call`] or [`Task`]) under `limits`, which bound the restored
    /// regions. Every region is re-validated as untrusted input; see
    /// [`Call::restore`]. The next id is one past the saved last id (1 if
    /// the save used none). On error `slot` is unchanged.
    pub fn restore(
        slot: &'w mut MachineSlot,
        buf: &'w mut [u8],
        limits: &CallLimits,
        saved: &[u8],
    ) -> Result<Self, CallError> {
        let layout = limits.layout_in(buf.len())?;
        let inner = match persist::kind_of(saved)? {
            persist::KIND_CALL => {
                let mut st = CallSlot::default();
                Call::restore(&mut st, buf, limits, saved)?;
                Inner::Call(st)
            }
            _ => {
                let tasks = Tasks::built()?;
                let mut st = TaskSlot::default();
                Task::restore(&mut st, buf, limits, saved)?;
                Inner::Task(st, tasks)
            }
        };
        *slot = MachineSlot {
            magic: MACHINE_MAGIC,
            limits: *limits,
            first_id: 1,
            inner,
        };
        Ok(Machine { slot, buf, layout })
    }

    /// The live flow's shared part (its exchange: rounds, ids, the inputs
    /// and answers), read beside the machine's own layout.
    fn shared(&self) -> &Shared {
        match &self.slot.inner {
            Inner::Call(st) => &st.sh,
            Inner::Task(st, _) => &st.sh,
        }
    }

    // ----------------------------------------------------------------- accessors

    /// The flow the machine is in.
    pub fn flow(&self) -> Flow {
        match self.slot.inner {
            Inner::Call(_) => Flow::Call,
            Inner::Task(_, _) => Flow::Task,
        }
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.shared().phase
    }

    /// The capabilities declared on every request.
    pub fn caps(&self) -> ClientCapabilities {
        self.shared().caps
    }

    /// The limits.
    pub fn limits(&self) -> &CallLimits {
        &self.slot.limits
    }

    /// The call's method (`None` for a task restarted from an id).
    pub fn method(&self) -> Option<CallMethod> {
        match &self.slot.inner {
            Inner::Call(st) => Some(st.f.method),
            Inner::Task(_, _) => None,
        }
    }

    /// The task's dialect (task flow only).
    pub fn dialect(&self) -> Option<TaskDialect> {
        match &self.slot.inner {
            Inner::Call(_) => None,
            Inner::Task(st, _) => Some(st.f.dialect),
        }
    }

    /// The task request written next (in `Ready`) or in flight (in `Sent`);
    /// task flow only.
    pub fn task_request(&self) -> Option<TaskRequest> {
        match &self.slot.inner {
            Inner::Call(_) => None,
            Inner::Task(st, _) => Some(st.f.next),
        }
    }

    /// The task id token as sent, quotes included (task flow only).
    pub fn task_id(&self) -> Option<&[u8]> {
        match &self.slot.inner {
            Inner::Call(_) => None,
            Inner::Task(st, _) => Some(st.task_id(self.buf, &self.layout)),
        }
    }

    /// The current poll interval in milliseconds (0 in the call flow).
    pub fn poll_ms(&self) -> u64 {
        match &self.slot.inner {
            Inner::Call(_) => 0,
            Inner::Task(st, _) => st.f.poll_ms,
        }
    }

    /// `tasks/get` requests written so far (0 in the call flow).
    pub fn polls(&self) -> u32 {
        match &self.slot.inner {
            Inner::Call(_) => 0,
            Inner::Task(st, _) => st.f.polls,
        }
    }

    /// Input rounds received so far in the current flow.
    pub fn round(&self) -> u32 {
        self.shared().ex.rounds
    }

    /// Number of input requests in the current round.
    pub fn input_count(&self) -> usize {
        self.shared().ex.input_count
    }

    /// Number of inputs answered in the current round.
    pub fn answered_count(&self) -> usize {
        self.shared().ex.answered
    }

    /// The input request at `index` (server order): key token and request.
    #[inline]
    pub fn input_at(&self, index: usize) -> Option<(JsonStr<'_>, InputRequest<'_>)> {
        self.shared().ex.input_at(self.buf, &self.layout, index)
    }

    /// The current round's input requests.
    pub fn inputs(&self) -> impl Iterator<Item = (JsonStr<'_>, InputRequest<'_>)> + '_ {
        (0..self.input_count()).filter_map(move |i| self.input_at(i))
    }

    /// The current round's `inputRequests` object exactly as received.
    pub fn inputs_json(&self) -> Option<&[u8]> {
        let ex = &self.shared().ex;
        (ex.input_count > 0).then(|| self.layout.inputs.prefix(self.buf, ex.inputs_len))
    }

    /// The index of the input whose key decodes to `key`.
    pub fn index_of(&self, key: &str) -> Result<usize, CallError> {
        self.shared().ex.index_of(self.buf, &self.layout, key)
    }

    /// The stored answer to input `index`, as it will be sent.
    pub fn answer_json(&self, index: usize) -> Option<&[u8]> {
        self.shared().ex.answer_of(self.buf, &self.layout, index)
    }

    /// The `requestState` the next request echoes, as its raw token.
    pub fn request_state(&self) -> Option<&[u8]> {
        self.shared().ex.request_state(self.buf, &self.layout)
    }

    /// The last JSON-RPC id used (the call's ids count for its task).
    pub fn last_id(&self) -> Option<i64> {
        self.shared().ex.last_id
    }

    /// The id for the next request: the configured first id before any,
    /// else one past [`last_id`](Self::last_id);
    /// [`CallError::IdsExhausted`] once 2^53-1 is used.
    pub fn next_id(&self) -> Result<i64, CallError> {
        self.shared().ex.next_id(self.slot.first_id)
    }

    /// The id of the request in flight.
    pub fn in_flight_id(&self) -> Option<i64> {
        self.shared().ex.in_flight
    }

    /// The terminal error, once [`Phase::Failed`].
    pub fn error(&self) -> Option<CallError> {
        self.shared().error
    }

    /// The final result, found again in `fed` (the bytes whose feeding
    /// completed the request); `None` before completion or for other bytes.
    pub fn result<'b>(&self, fed: &'b [u8]) -> Option<&'b [u8]> {
        self.shared().result.and_then(|s| s.get(fed))
    }

    /// The final result's offset and length in the fed bytes, once done.
    pub fn result_span(&self) -> Option<(usize, usize)> {
        self.shared().result.map(|s| (s.offset, s.len))
    }

    // ------------------------------------------------------------------- writing

    /// Writes the next request with `id` (the call's leg, or the request
    /// [`task_request`](Self::task_request) names) and returns its length.
    /// `Ready` -> `Sent`; in `Answering`, [`CallError::Unanswered`].
    pub fn write_request(&mut self, id: i64, out: &mut [u8]) -> Result<usize, CallError> {
        self.send(id, out, false)
    }

    /// [`write_request`](Self::write_request) with [`next_id`](Self::next_id).
    pub fn write_next(&mut self, out: &mut [u8]) -> Result<usize, CallError> {
        let id = self.next_id()?;
        self.write_request(id, out)
    }

    /// After a transport failure (`Sent`): the request in flight again with
    /// a fresh `id`.
    pub fn resend(&mut self, id: i64, out: &mut [u8]) -> Result<usize, CallError> {
        self.send(id, out, true)
    }

    /// [`write_request`](Self::write_request) (`again` false) or
    /// [`resend`](Self::resend) (`again` true): one body for both.
    pub(crate) fn send(
        &mut self,
        id: i64,
        out: &mut [u8],
        again: bool,
    ) -> Result<usize, CallError> {
        with_slot!(self, st => st.send(self.buf, &self.layout, id, out, again))
    }

    /// Writes `tasks/cancel` (task flow, in `Ready`, `Sent` or
    /// `Answering`); [`CallError::NotATask`] in the call flow.
    pub fn write_cancel(&mut self, id: i64, out: &mut [u8]) -> Result<usize, CallError> {
        match &mut self.slot.inner {
            Inner::Call(_) => Err(CallError::NotATask),
            Inner::Task(st, _) => {
                Task::attach_laid_out(st, self.buf, self.layout)?.write_cancel(id, out)
            }
        }
    }

    // ------------------------------------------------------------------ answering

    /// Answers the input whose key decodes to `key`.
    pub fn answer(&mut self, key: &str, answer: Answer<'_>) -> Result<(), CallError> {
        let index = self.index_of(key)?;
        self.answer_at(index, answer)
    }

    /// Answers the input at `index`: checked against the request's kind
    /// (roots by [`super::roots::check_root_uri`]) and stored; the last
    /// answer makes the machine `Ready`. [`Answer::Error`] ends it locally
    /// ([`Phase::Failed`], [`CallError::AnsweredWithError`]) and is `Ok`.
    pub fn answer_at(&mut self, index: usize, answer: Answer<'_>) -> Result<(), CallError> {
        with_slot!(self, st => st.answer_at(self.buf, &self.layout, index, answer))
    }

    // -------------------------------------------------------------------- feeding

    /// Feeds one complete message received while `Sent`. Terminal errors
    /// move the machine to `Failed`. When the server moves the call to a
    /// task, the machine follows it in place: [`Flow::Task`], `Ready` for
    /// its first `tasks/get`.
    pub fn feed<'a>(&mut self, bytes: &'a [u8]) -> Result<MachineEvent<'a>, CallError> {
        match &mut self.slot.inner {
            Inner::Task(st, _) => Task::attach_laid_out(st, self.buf, self.layout)?
                .feed(bytes)
                .map(MachineEvent::Task),
            Inner::Call(st) => {
                let ev = Call::attach_laid_out(st, self.buf, self.layout)?.feed(bytes);
                if let Ok(Event::TaskCreated(h)) = &ev {
                    self.follow(h.dialect, h.task.task_id, h.task.poll_interval_ms)?;
                }
                ev.map(MachineEvent::Call)
            }
        }
    }

    /// Turns the (done) call into its task, in the same workspace.
    fn follow(
        &mut self,
        dialect: TaskDialect,
        task_id: JsonStr<'_>,
        poll_ms: Option<u64>,
    ) -> Result<(), CallError> {
        let Inner::Call(call) = &mut self.slot.inner else {
            return Ok(());
        };
        let result = Tasks::built().and_then(|tasks| {
            let meta_len = move_meta_to_task_head(call, self.buf, &self.layout)?;
            let cfg = TaskConfig {
                dialect,
                task_id: TaskIdRef::Token(task_id),
                caps: call.sh.caps,
                client_info: None,
                limits: self.slot.limits,
                poll_ms,
            };
            let mut st = TaskSlot::default();
            Task::init_with(&mut st, self.buf, &cfg, Some(meta_len), call.sh.ex.last_id)?;
            Ok((st, tasks))
        });
        match result {
            Ok((st, tasks)) => {
                self.slot.inner = Inner::Task(st, tasks);
                Ok(())
            }
            Err(e) => {
                call.sh.phase = Phase::Failed;
                call.sh.error = Some(e);
                Err(e)
            }
        }
    }

    // ---------------------------------------------------------------- persistence

    /// Saves the machine (in `Ready`, `Sent` or `Answering`) as a versioned
    /// record of its flow; returns its length or the size needed.
    pub fn save(&self, out: &mut [u8]) -> Result<usize, CallError> {
        match &self.slot.inner {
            Inner::Call(st) => save_slot(st, self.buf, &self.layout, out),
            Inner::Task(st, _) => save_slot(st, self.buf, &self.layout, out),
        }
    }
}

/// The `_meta` members the call wrote itself (protocol version,
/// capabilities, client info) are the first members of its rendered params
/// `{"_meta":{M,...},...}`. Moves `M` to offset 1 of the head, where a
/// task's `{M}` starts, and returns its length (`layout`: the workspace's).
fn move_meta_to_task_head(
    call: &CallSlot,
    buf: &mut [u8],
    layout: &Layout,
) -> Result<usize, CallError> {
    const PREFIX: &[u8] = b"{\"_meta\":{";
    let head = layout.head;
    let params = head.prefix(buf, call.f.params_len);
    let broken = CallError::NotInitialized;
    if !params.starts_with(PREFIX) {
        return Err(broken);
    }
    let doc = json::parse_with(params, &call.limits.wire.json).map_err(|_| broken)?;
    let meta = doc
        .as_object()
        .and_then(|o| o.get("_meta"))
        .and_then(|m| m.as_object())
        .ok_or(broken)?;
    let base = params.as_ptr() as usize;
    let mut end = PREFIX.len();
    for (k, v) in meta.iter() {
        if !is_owned_meta_key(&k) {
            break;
        }
        let raw = v.raw();
        end = (raw.as_ptr() as usize)
            .saturating_sub(base)
            .saturating_add(raw.len());
    }
    let len = end.saturating_sub(PREFIX.len());
    let from = head.start.saturating_add(PREFIX.len());
    let to = head.start.saturating_add(1);
    if len == 0 || end > params.len() || !crate::bytes::copy_down(buf, from, len, to) {
        return Err(broken);
    }
    Ok(len)
}
