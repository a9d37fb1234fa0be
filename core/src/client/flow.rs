//! What a call and a task share, written once: the view of a slot and its
//! workspace ([`FlowView`]), the phase, the ids, the rounds, the inputs,
//! the answers, the result and the save. A call ([`super::call`]) and a
//! task ([`super::task`]) supply only what differs: their slot's own
//! fields, how the next request is rendered, and how a response is read.

use super::errors::CallError;
use super::events::{Answer, Phase};
use super::exchange::{Exchange, ResultSpan};
use super::layout::Layout;
use super::limits::CallLimits;
use super::persist::{self, Saved};
use crate::json::JsonStr;
use crate::wire::{ClientCapabilities, InputRequest};

/// The fields every flow's slot has, in that slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Shared {
    /// The slot's magic once initialized (0 before).
    pub magic: u32,
    /// What the client declared.
    pub caps: ClientCapabilities,
    /// The phase.
    pub phase: Phase,
    /// Rounds, ids, the inputs and answers regions.
    pub ex: Exchange,
    /// The terminal error, once failed.
    pub error: Option<CallError>,
    /// Where the result sits in the bytes that completed the flow.
    pub result: Option<ResultSpan>,
}

impl Shared {
    /// A live slot's shared part, `Ready`.
    pub fn ready(magic: u32, caps: ClientCapabilities, ex: Exchange) -> Self {
        Shared {
            magic,
            caps,
            phase: Phase::Ready,
            ex,
            error: None,
            result: None,
        }
    }
}

impl Default for Shared {
    fn default() -> Self {
        Shared {
            magic: 0,
            caps: ClientCapabilities::default(),
            phase: Phase::Failed,
            ex: Exchange::default(),
            error: None,
            result: None,
        }
    }
}

pub(crate) mod sealed {
    /// Only this crate's flows.
    pub trait Sealed {}
}

/// The plain data of one flow (no references): what every flow has, and
/// the flow's own fields `F` ([`super::call::CallFields`] or
/// [`super::task::TaskFields`]). Place it anywhere (`Slot::default()`),
/// then `init` or `restore` it together with a workspace.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Slot<F> {
    pub(crate) sh: Shared,
    pub(crate) limits: CallLimits,
    pub(crate) f: F,
}

/// What a flow supplies: its magic, how its next request is rendered, and
/// its save (sealed: the flows are this crate's).
pub trait Flavor: sealed::Sealed + Sized {
    #[doc(hidden)]
    const MAGIC: u32;
    /// Renders the request `write_request` sends next (or `resend` again).
    #[doc(hidden)]
    fn render(
        slot: &Slot<Self>,
        buf: &[u8],
        layout: &Layout,
        id: i64,
        out: &mut [u8],
    ) -> Result<usize, CallError>;
    /// Called when a request from `write_request` went out.
    #[doc(hidden)]
    fn on_written(slot: &mut Slot<Self>) {
        let _ = slot;
    }
    /// The flow's own fields of its save record.
    #[doc(hidden)]
    fn save_fields(slot: &Slot<Self>) -> SaveFields;
}

/// What a flow's save record holds beyond what every flow has.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, Default)]
pub struct SaveFields {
    pub kind: u8,
    pub variant: u8,
    pub next: u8,
    pub state_only: u32,
    pub polls: u32,
    pub poll_ms: u64,
    pub head_split: u32,
    pub head_len: usize,
}

/// Saves a slot with its workspace `buf` (laid out as `layout`) into `out`
/// (in `Ready`, `Sent` or `Answering`); returns the length or the size
/// needed.
pub(crate) fn save_slot<F: Flavor>(
    slot: &Slot<F>,
    buf: &[u8],
    layout: &Layout,
    out: &mut [u8],
) -> Result<usize, CallError> {
    let phase = persist::phase_code(slot.sh.phase).ok_or(CallError::WrongState(slot.sh.phase))?;
    let ex = &slot.sh.ex;
    let own = F::save_fields(slot);
    let saved = Saved {
        magic: persist::SAVE_MAGIC,
        version: persist::SAVE_VERSION,
        kind: own.kind,
        phase,
        variant: own.variant,
        next: own.next,
        flags: 0,
        rounds: ex.rounds,
        state_only: own.state_only,
        polls: own.polls,
        poll_ms: own.poll_ms,
        last_id: ex.last_id,
        in_flight: ex.in_flight,
        head_split: own.head_split,
        head: layout.head.prefix(buf, own.head_len),
        inputs: layout.inputs.prefix(buf, ex.inputs_len),
        state: layout.state.prefix(buf, ex.state_len),
        answers: layout.answers.prefix(buf, ex.answers_len),
    };
    persist::save(&saved, out)
}

/// What a view does, on the slot with its workspace `buf` laid out as
/// `layout`: a [`FlowView`] passes its own layout, a
/// [`Machine`](super::machine::Machine) the one it derived (no view, so no
/// copy of the layout per call).
impl<F: Flavor> Slot<F> {
    /// [`FlowView::write_request`].
    pub(crate) fn write_request(
        &mut self,
        buf: &[u8],
        layout: &Layout,
        id: i64,
        out: &mut [u8],
    ) -> Result<usize, CallError> {
        self.send(buf, layout, id, out, false)
    }

    /// [`FlowView::resend`].
    pub(crate) fn resend(
        &mut self,
        buf: &[u8],
        layout: &Layout,
        id: i64,
        out: &mut [u8],
    ) -> Result<usize, CallError> {
        self.send(buf, layout, id, out, true)
    }

    /// Writes the next request (`Ready`, `again` false) or the request in
    /// flight again (`Sent`, `again` true) with `id`: one body for both.
    pub(crate) fn send(
        &mut self,
        buf: &[u8],
        layout: &Layout,
        id: i64,
        out: &mut [u8],
        again: bool,
    ) -> Result<usize, CallError> {
        match self.sh.phase {
            Phase::Ready if !again => {}
            Phase::Sent if again => {}
            Phase::Answering if !again => {
                let index = self.sh.ex.first_unanswered(buf, layout).unwrap_or(0);
                return Err(CallError::Unanswered { index });
            }
            p => return Err(CallError::WrongState(p)),
        }
        self.sh.ex.check_id(id)?;
        let n = F::render(self, buf, layout, id, out)?;
        if !again {
            F::on_written(self);
        }
        let sh = &mut self.sh;
        sh.ex.sent(id);
        sh.phase = Phase::Sent;
        Ok(n)
    }

    /// [`FlowView::answer_at`].
    pub(crate) fn answer_at(
        &mut self,
        buf: &mut [u8],
        layout: &Layout,
        index: usize,
        answer: Answer<'_>,
    ) -> Result<(), CallError> {
        if self.sh.phase != Phase::Answering {
            return Err(CallError::WrongState(self.sh.phase));
        }
        let kind = self.sh.ex.open_input(buf, layout, index)?;
        if let Answer::Error { code } = answer {
            self.fail(CallError::AnsweredWithError { index, code });
            return Ok(());
        }
        let sh = &mut self.sh;
        sh.ex
            .store_answer(buf, layout, &self.limits, (index, kind), &answer)?;
        if sh.ex.all_answered() {
            sh.phase = Phase::Ready;
        }
        Ok(())
    }

    /// Ends the flow with `e` (`Failed`) and returns it.
    pub(crate) fn fail(&mut self, e: CallError) -> CallError {
        let sh = &mut self.sh;
        sh.phase = Phase::Failed;
        sh.error = Some(e);
        sh.ex.in_flight = None;
        e
    }
}

/// A view of one flow: its slot and its workspace. Use it as
/// [`Call`](super::Call) or [`Task`](super::Task).
#[derive(Debug)]
pub struct FlowView<'w, F> {
    pub(crate) st: &'w mut Slot<F>,
    pub(crate) buf: &'w mut [u8],
    /// The workspace's layout under the slot's limits, derived once when
    /// the view is made (`init`, `restore`, `attach`), not on every use.
    pub(crate) layout: Layout,
}

impl<'w, F: Flavor> FlowView<'w, F> {
    /// Bytes of workspace a flow with these limits needs (see
    /// [`CallLimits::workspace_size`]); `usize::MAX` for limits that cannot
    /// be laid out. A `const fn` (static workspaces).
    pub const fn workspace_size(limits: &CallLimits) -> usize {
        limits.workspace_size()
    }

    /// Rebuilds the view over a slot and workspace that `init` or `restore`
    /// prepared (O(1)).
    pub fn attach(st: &'w mut Slot<F>, buf: &'w mut [u8]) -> Result<Self, CallError> {
        if st.sh.magic != F::MAGIC {
            return Err(CallError::NotInitialized);
        }
        // Read through a reference: `?` would copy the layout out whole.
        match &st.limits.layout_in(buf.len()) {
            Ok(layout) => Ok(FlowView {
                layout: *layout,
                st,
                buf,
            }),
            Err(e) => Err(*e),
        }
    }

    /// [`FlowView::attach`] for the machine, which derived `layout` when it
    /// attached, checking the workspace against the same limits (a flow's
    /// slot and its machine's slot hold the same limits): the layout is not
    /// derived a second time on every call through a machine.
    pub(crate) fn attach_laid_out(
        st: &'w mut Slot<F>,
        buf: &'w mut [u8],
        layout: Layout,
    ) -> Result<Self, CallError> {
        if st.sh.magic != F::MAGIC {
            return Err(CallError::NotInitialized);
        }
        Ok(FlowView { st, buf, layout })
    }

    fn sh(&self) -> &Shared {
        &self.st.sh
    }

    // ----------------------------------------------------------------- accessors

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.sh().phase
    }

    /// The capabilities declared on every request.
    pub fn caps(&self) -> ClientCapabilities {
        self.sh().caps
    }

    /// Input rounds received so far.
    pub fn round(&self) -> u32 {
        self.sh().ex.rounds
    }

    /// The current round's input requests: key token and request.
    pub fn inputs(&self) -> impl Iterator<Item = (JsonStr<'_>, InputRequest<'_>)> + '_ {
        (0..self.sh().ex.input_count).filter_map(move |i| self.input_at(i))
    }

    /// The current round's `inputRequests` object exactly as received
    /// (for logs and audits).
    pub fn inputs_json(&self) -> Option<&[u8]> {
        let ex = &self.sh().ex;
        (ex.input_count > 0).then(|| self.layout.inputs.prefix(self.buf, ex.inputs_len))
    }

    /// Number of input requests in the current round.
    pub fn input_count(&self) -> usize {
        self.sh().ex.input_count
    }

    /// The input request at `index` (server order).
    pub fn input_at(&self, index: usize) -> Option<(JsonStr<'_>, InputRequest<'_>)> {
        self.sh().ex.input_at(self.buf, &self.layout, index)
    }

    /// The index of the input whose key decodes to `key`.
    pub fn index_of(&self, key: &str) -> Result<usize, CallError> {
        self.sh().ex.index_of(self.buf, &self.layout, key)
    }

    /// The stored answer to input `index`, as it will be sent.
    pub fn answer_json(&self, index: usize) -> Option<&[u8]> {
        self.sh().ex.answer_of(self.buf, &self.layout, index)
    }

    /// Number of inputs answered in the current round.
    pub fn answered_count(&self) -> usize {
        self.sh().ex.answered
    }

    /// The `requestState` the next request echoes, as its raw token.
    pub fn request_state(&self) -> Option<&[u8]> {
        self.sh().ex.request_state(self.buf, &self.layout)
    }

    /// The last JSON-RPC id used.
    pub fn last_id(&self) -> Option<i64> {
        self.sh().ex.last_id
    }

    /// The id for the next request: `first` before any, else one past
    /// [`last_id`](Self::last_id). [`CallError::IdOutOfRange`] for a `first`
    /// outside +-(2^53-1), [`CallError::IdsExhausted`] once 2^53-1 is used.
    pub fn next_id(&self, first: i64) -> Result<i64, CallError> {
        self.sh().ex.next_id(first)
    }

    /// The id of the request in flight.
    pub fn in_flight_id(&self) -> Option<i64> {
        self.sh().ex.in_flight
    }

    /// The terminal error, once [`Phase::Failed`].
    pub fn error(&self) -> Option<CallError> {
        self.sh().error
    }

    /// The final result: found again in `fed`, the bytes whose feeding
    /// completed the flow (only the position is kept: results can be larger
    /// than any workspace). `None` before completion or for other bytes.
    pub fn result<'b>(&self, fed: &'b [u8]) -> Option<&'b [u8]> {
        self.sh().result.and_then(|s| s.get(fed))
    }

    /// The final result's offset and length in the fed bytes.
    pub fn result_span(&self) -> Option<(usize, usize)> {
        self.sh().result.map(|s| (s.offset, s.len))
    }

    // ------------------------------------------------------------------- writing

    /// Writes the next request with `id` into `out` and returns its length.
    /// `Ready` -> `Sent`. In `Answering` this fails with
    /// [`CallError::Unanswered`] naming the first unanswered input.
    pub fn write_request(&mut self, id: i64, out: &mut [u8]) -> Result<usize, CallError> {
        self.st.write_request(self.buf, &self.layout, id, out)
    }

    /// After a transport failure: writes the request in flight again with a
    /// fresh `id` (answers and state kept). A late response to the old id is
    /// then unrelated. Only in `Sent`.
    pub fn resend(&mut self, id: i64, out: &mut [u8]) -> Result<usize, CallError> {
        self.st.resend(self.buf, &self.layout, id, out)
    }

    // ------------------------------------------------------------------ answering

    /// Answers the input whose key decodes to `key`.
    pub fn answer(&mut self, key: &str, answer: Answer<'_>) -> Result<(), CallError> {
        let index = self.index_of(key)?;
        self.answer_at(index, answer)
    }

    /// Answers the input at `index`, checked against the request's kind (a
    /// root by [`super::roots::check_root_uri`]); the last answer makes the
    /// flow `Ready` to send them. [`Answer::Error`] ends the flow locally
    /// (`Failed` with [`CallError::AnsweredWithError`]) and is `Ok`.
    pub fn answer_at(&mut self, index: usize, answer: Answer<'_>) -> Result<(), CallError> {
        self.st.answer_at(self.buf, &self.layout, index, answer)
    }

    /// Ends the flow with `e` (`Failed`) and returns it.
    pub(crate) fn fail(&mut self, e: CallError) -> CallError {
        self.st.fail(e)
    }

    /// Ends the flow (`Done`).
    pub(crate) fn done(&mut self) {
        let sh = &mut self.st.sh;
        sh.phase = Phase::Done;
        sh.ex.in_flight = None;
    }

    // ---------------------------------------------------------------- persistence

    /// Saves the flow (in `Ready`, `Sent` or `Answering`) into `out` as a
    /// versioned postcard record; returns its length or the size needed.
    /// After a restore in `Sent` the response to the old request is lost
    /// with the old process: call [`resend`](Self::resend).
    pub fn save(&self, out: &mut [u8]) -> Result<usize, CallError> {
        save_slot(self.st, self.buf, &self.layout, out)
    }
}
