//! What a [`Call`](super::call::Call) and a [`Task`](super::task::Task)
//! share: the workspace layout, the server's last `inputRequests` (a raw
//! copy), its `requestState` (the raw token), the answers, the round counter,
//! the JSON-RPC ids, and the attribution of incoming bytes to our request.
//!
//! Workspace layout (one caller buffer, five regions, sizes from the limits):
//! `[head | inputs | index | state | answers]`. `head` is the machine's fixed
//! request part (a call's rendered params, a task's `_meta` and id). `inputs`
//! is the raw `inputRequests` object, validated once on receipt; `index`
//! holds one entry per input (`[key off, key len, value off, value len]` as
//! u32 LE, then the kind byte) so later accesses read one entry instead of
//! re-validating the whole map. When the inputs region has room after the
//! copy, a 25-byte facts record per input follows it there (the spans and
//! values an `InputRequest` holds), so reading an input does not walk it
//! again; without room inputs are parsed again. Answers are stored as records
//! `[index: u16 LE][len: u32 LE][answer JSON]` in the order they were given.

use super::errors::{AnswerError, CallError, SaveInvariant, SaveRegion};
use super::events::{Answer, Phase, RpcError, Unrelated};
use super::ids::{check_id_range, id_after, MAX_SAFE_ID};
use super::layout::{Layout, ANSWER_HEADER, INDEX_ENTRY};
use super::limits::CallLimits;
use super::roots::{check_root_uri, check_root_uri_json};
use crate::json::{self, JsonStr, Object, ParseLimits, Writer};
use crate::wire::input_response::{
    read_elicit_result, read_root_entry, read_roots_result, read_sampling_result,
    write_elicit_result, write_roots_result,
};
use crate::wire::{
    parse_message, parse_message_indexed, ClientCapabilities, ElicitAction, InputKind,
    InputRequest, InputRequests, InputResponse, Message, ResponseKind, ShapeError, Violation,
    WireError, WireLimits,
};

/// Bytes of one input's facts record, kept after the `inputRequests` copy
/// in the spare room of the inputs region when all of them fit there: what
/// an [`InputRequest`] holds besides its kind (two spans as u32 offset and
/// length relative to the map, `maxTokens` as u64, the sampling flags), so
/// that reading an input does not walk it again (a sampling request's
/// conversation can be most of the message). Without room, inputs are read
/// by parsing them again, as they were before facts existed.
pub(crate) const FACTS_ENTRY: usize = 25;

/// The per-round bookkeeping (plain data: lengths and counters only).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Exchange {
    /// Bytes of the `inputRequests` copy (0 = none).
    pub inputs_len: usize,
    /// Entries in the `inputRequests` copy.
    pub input_count: usize,
    /// Bytes of the `requestState` token (0 = none).
    pub state_len: usize,
    /// Bytes used in the answers region (headers included).
    pub answers_len: usize,
    /// Sum of the answer JSON lengths (headers excluded).
    pub answer_bytes: usize,
    /// Number of answers given.
    pub answered: usize,
    /// `input_required` rounds received so far.
    pub rounds: u32,
    /// The last id used (ids must increase).
    pub last_id: Option<i64>,
    /// The id of the request in flight, while one is.
    pub in_flight: Option<i64>,
}

impl Exchange {
    /// Input `i` of the round: its key token and its request, read through
    /// the index. The map was validated on receipt (or on restore) and the
    /// index records its members' exact spans, so they are read without
    /// validating them again, as `write_responses` copies the key tokens.
    pub fn input_at<'b>(
        &self,
        buf: &'b [u8],
        layout: &Layout,
        i: usize,
    ) -> Option<(JsonStr<'b>, InputRequest<'b>)> {
        let e = self.entry(buf, layout, i)?;
        let raw = layout.inputs.prefix(buf, self.inputs_len);
        let at = |r: core::ops::Range<usize>| raw.get(r).map(json::Value::of_validated);
        let key = at(e.key)?.as_str()?;
        let Some(f) = self.facts(buf, layout, i) else {
            return Some((key, InputRequest::parse(at(e.value)?).ok()?));
        };
        let w = |n: usize| word(f, n);
        let a = at(span(w(0)?, w(1)?)?)?;
        let b = at(span(w(2)?, w(3)?)?)?;
        // Each read once (a mismatched kind is `None`, never a wrong value).
        let (a_str, b_str) = (a.as_str(), b.as_str());
        let flags = *f.get(FACTS_ENTRY - 1)?;
        let req = match e.kind {
            InputKind::ElicitForm => InputRequest::ElicitForm {
                message: a_str?,
                requested_schema: b.as_object()?,
            },
            InputKind::ElicitUrl => InputRequest::ElicitUrl {
                message: a_str?,
                url: b_str?,
            },
            InputKind::Sampling => InputRequest::Sampling {
                params: a.as_object()?,
                // An absent prompt is recorded as an empty span: no string.
                system_prompt: b_str,
                max_tokens: u64::from(w(4)?) | u64::from(w(5)?) << 32,
                has_tools: flags & 1 != 0,
                wants_context: flags & 2 != 0,
            },
            InputKind::Roots => InputRequest::Roots,
        };
        Some((key, req))
    }

    /// The facts record of input `i`, when the records of the round fit
    /// after the `inputRequests` copy (see [`FACTS_ENTRY`]).
    fn facts<'b>(&self, buf: &'b [u8], layout: &Layout, i: usize) -> Option<&'b [u8]> {
        let end = self
            .input_count
            .checked_mul(FACTS_ENTRY)?
            .checked_add(self.inputs_len)?;
        if end > layout.inputs.len {
            return None;
        }
        let at = i.checked_mul(FACTS_ENTRY)?.checked_add(self.inputs_len)?;
        layout
            .inputs
            .prefix(buf, end)
            .get(at..at.checked_add(FACTS_ENTRY)?)
    }

    /// The raw key token of input `i`.
    fn key_token<'b>(&self, buf: &'b [u8], layout: &Layout, i: usize) -> Option<&'b [u8]> {
        let e = self.entry(buf, layout, i)?;
        layout.inputs.prefix(buf, self.inputs_len).get(e.key)
    }

    fn entry(&self, buf: &[u8], layout: &Layout, i: usize) -> Option<Entry> {
        if i >= self.input_count {
            return None;
        }
        let at = i.checked_mul(INDEX_ENTRY)?;
        let raw = layout
            .index
            .prefix(buf, at.checked_add(INDEX_ENTRY)?)
            .get(at..)?;
        let w = |n: usize| word(raw, n);
        Some(Entry {
            key: span(w(0)?, w(1)?)?,
            value: span(w(2)?, w(3)?)?,
            kind: InputKind::from_code(u32::from(*raw.get(INDEX_ENTRY - 1)?))?,
        })
    }

    /// The stored `requestState` token, quotes and escapes included.
    pub fn request_state<'b>(&self, buf: &'b [u8], layout: &Layout) -> Option<&'b [u8]> {
        (self.state_len > 0).then(|| layout.state.prefix(buf, self.state_len))
    }

    /// Forgets the round: questions, state and answers.
    pub fn clear_round(&mut self) {
        self.inputs_len = 0;
        self.input_count = 0;
        self.state_len = 0;
        self.answers_len = 0;
        self.answer_bytes = 0;
        self.answered = 0;
    }

    /// Counts one more `input_required` round against the cap.
    pub fn count_round(&mut self, limits: &CallLimits) -> Result<(), CallError> {
        self.rounds = self.rounds.saturating_add(1);
        if self.rounds > limits.max_rounds {
            return Err(CallError::TooManyRounds {
                limit: limits.max_rounds,
            });
        }
        Ok(())
    }

    /// Replaces the round with new questions and/or state, copying both into
    /// the workspace. Every kind asked must be covered by `caps`.
    pub fn take_round(
        &mut self,
        buf: &mut [u8],
        layout: &Layout,
        limits: &CallLimits,
        caps: &ClientCapabilities,
        requests: Option<&InputRequests<'_>>,
        state: Option<JsonStr<'_>>,
    ) -> Result<(), CallError> {
        self.clear_round();
        if let Some(reqs) = requests {
            if !caps.covers(&reqs.required_capabilities()) {
                return Err(CallError::Protocol(Violation::UndeclaredCapability));
            }
            let raw = reqs.raw().raw();
            if raw.len() > limits.max_inputs_bytes {
                return Err(CallError::InputsTooLarge {
                    needed: raw.len(),
                    limit: limits.max_inputs_bytes,
                });
            }
            copy_into(layout.inputs.tail_mut(buf, 0), raw)?;
            // The inputs region lies before the index region.
            let (lo, hi) = buf.split_at_mut(layout.index.start.min(buf.len()));
            write_index(
                hi.get_mut(..layout.index.len).unwrap_or(&mut []),
                layout.inputs.tail_mut(lo, raw.len()),
                reqs,
            )
            .ok_or(CallError::WorkspaceTooSmall {
                needed: layout.total(),
            })?;
            self.inputs_len = raw.len();
            self.input_count = reqs.len();
        }
        if let Some(s) = state {
            let raw = s.raw_token();
            if raw.len() > limits.max_state_bytes {
                self.clear_round();
                return Err(CallError::StateTooLarge {
                    needed: raw.len(),
                    limit: limits.max_state_bytes,
                });
            }
            copy_into(layout.state.tail_mut(buf, 0), raw)?;
            self.state_len = raw.len();
        }
        Ok(())
    }

    /// The stored answer records in the order given.
    pub fn records<'b>(&self, buf: &'b [u8], layout: &Layout) -> Records<'b> {
        Records {
            bytes: layout.answers.prefix(buf, self.answers_len),
            pos: 0,
        }
    }

    /// The answer stored for input `index`.
    pub fn answer_of<'b>(&self, buf: &'b [u8], layout: &Layout, index: usize) -> Option<&'b [u8]> {
        self.records(buf, layout)
            .find(|(i, _)| *i == index)
            .map(|(_, a)| a)
    }

    /// The first input without an answer.
    pub fn first_unanswered(&self, buf: &[u8], layout: &Layout) -> Option<usize> {
        (0..self.input_count).find(|&i| self.answer_of(buf, layout, i).is_none())
    }

    /// Whether every input has an answer.
    pub fn all_answered(&self) -> bool {
        self.answered >= self.input_count
    }

    /// The kind of input `index`, if it exists and has no answer yet.
    pub fn open_input(
        &self,
        buf: &[u8],
        layout: &Layout,
        index: usize,
    ) -> Result<InputKind, CallError> {
        let kind = self
            .entry(buf, layout, index)
            .map(|e| e.kind)
            .ok_or(CallError::UnknownKey)?;
        if self.answer_of(buf, layout, index).is_some() {
            return Err(CallError::AlreadyAnswered { index });
        }
        Ok(kind)
    }

    /// A form's `accept` answer against the form it answers: the content
    /// must satisfy the `requestedSchema` (the rules of
    /// [`crate::client::form::ElicitForm::validate`]), so every language
    /// accepts and refuses the same answers. Other actions, answers of the
    /// wrong shape (refused by `render_answer`) and forms whose schema is
    /// outside the subset pass here.
    #[cfg(feature = "form")]
    fn check_form_answer(
        &self,
        buf: &[u8],
        layout: &Layout,
        index: usize,
        answer: &Answer<'_>,
        json: &ParseLimits,
    ) -> Result<(), AnswerError> {
        use crate::client::form::ElicitForm;
        let content = match *answer {
            Answer::Elicit {
                action: ElicitAction::Accept,
                content: Some(c),
            } => parse_object(c, json)?,
            Answer::Json(bytes) => {
                let v = json::parse_with(bytes, json).map_err(AnswerError::NotJson)?;
                let Some(resp) = InputResponse::parse(v) else {
                    return Ok(());
                };
                let accept = resp.value.get("action").and_then(|a| a.as_str());
                if !accept.is_some_and(|a| a.eq_str("accept")) {
                    return Ok(());
                }
                match resp.value.get("content").and_then(|c| c.as_object()) {
                    Some(c) => c,
                    None => return Ok(()),
                }
            }
            _ => return Ok(()),
        };
        let Some((
            _,
            InputRequest::ElicitForm {
                requested_schema, ..
            },
        )) = self.input_at(buf, layout, index)
        else {
            return Ok(());
        };
        // A schema outside the subset cannot judge content: the app saw
        // that from `ElicitForm::parse` (`mrtr_form_parse`) before it showed
        // the form, and the answer goes as it is.
        match ElicitForm::parse(requested_schema) {
            Ok(form) => form
                .validate(content)
                .map_err(|e| AnswerError::FormContent { error: e.error }),
            Err(_) => Ok(()),
        }
    }

    /// The index of the input whose key decodes to `key`.
    pub fn index_of(&self, buf: &[u8], layout: &Layout, key: &str) -> Result<usize, CallError> {
        (0..self.input_count)
            .find(|&i| {
                // Validated on receipt, like the spans `input_at` reads.
                self.key_token(buf, layout, i)
                    .and_then(|t| json::Value::of_validated(t).as_str())
                    .is_some_and(|k| k.eq_str(key))
            })
            .ok_or(CallError::UnknownKey)
    }

    /// Validates and stores the answer to input `index` of `kind`, which
    /// [`Self::open_input`] found unanswered (not `Answer::Error`, which
    /// ends the machine and is handled by its owner).
    pub fn store_answer(
        &mut self,
        buf: &mut [u8],
        layout: &Layout,
        limits: &CallLimits,
        (index, kind): (usize, InputKind),
        answer: &Answer<'_>,
    ) -> Result<(), CallError> {
        #[cfg(feature = "form")]
        if kind == InputKind::ElicitForm {
            self.check_form_answer(buf, layout, index, answer, &limits.wire.json)
                .map_err(|error| CallError::BadAnswer { index, error })?;
        }
        let index16 = u16::try_from(index).map_err(|_| CallError::UnknownKey)?;
        let start = self.answers_len;
        let body_at = start.saturating_add(ANSWER_HEADER);
        let mut w = Writer::new(layout.answers.tail_mut(buf, body_at));
        render_answer(&mut w, kind, answer, &limits.wire.json)
            .map_err(|error| CallError::BadAnswer { index, error })?;
        let n = w.len();
        let total = self.answer_bytes.saturating_add(n);
        if total > limits.max_answers_bytes || !w.fits() {
            return Err(CallError::AnswersTooLarge {
                needed: total,
                limit: limits.max_answers_bytes,
            });
        }
        let len32 = u32::try_from(n).map_err(|_| CallError::AnswersTooLarge {
            needed: total,
            limit: limits.max_answers_bytes,
        })?;
        let header = layout.answers.tail_mut(buf, start);
        let [a, b] = index16.to_le_bytes();
        let [c, d, e, f] = len32.to_le_bytes();
        copy_into(header, &[a, b, c, d, e, f])?;
        self.answers_len = body_at.saturating_add(n);
        self.answer_bytes = total;
        self.answered = self.answered.saturating_add(1);
        Ok(())
    }

    /// Writes the `inputResponses` object: every asked key, spelled as the
    /// server spelled it, with its answer, in the server's order.
    pub fn write_responses(&self, w: &mut Writer<'_>, buf: &[u8], layout: &Layout) {
        w.byte(b'{');
        let mut first = true;
        for i in 0..self.input_count {
            if let (Some(key), Some(answer)) = (
                self.key_token(buf, layout, i),
                self.answer_of(buf, layout, i),
            ) {
                w.comma(&mut first).raw(key).byte(b':').raw(answer);
            }
        }
        w.byte(b'}');
    }

    /// Checks that `id` is usable for the next leg: within the safe integer
    /// range and greater than every id this machine used before.
    pub fn check_id(&self, id: i64) -> Result<(), CallError> {
        check_id_range(id)?;
        match self.last_id {
            Some(last) if id <= last => Err(CallError::IdNotFresh { id, last }),
            _ => Ok(()),
        }
    }

    /// The id for the next leg: `first` before any leg, else one past the
    /// last id used.
    pub fn next_id(&self, first: i64) -> Result<i64, CallError> {
        match self.last_id {
            None => check_id_range(first),
            Some(last) => id_after(last, 1),
        }
    }

    /// Records that a request with `id` went out.
    pub fn sent(&mut self, id: i64) {
        self.last_id = Some(id);
        self.in_flight = Some(id);
    }

    /// The one check of a restored save, for calls and tasks alike: every
    /// invariant a live machine holds over the shared state. The regions
    /// are re-validated as untrusted input (the `inputRequests` copy as the
    /// network would deliver it, the `requestState` token, each answer by
    /// the rules of [`render_answer`] for the key it names), then the
    /// limits, the ids and the phase. Fills in the derived counts and
    /// returns the phase to resume in (a round answered in full while
    /// `Answering` resumes `Ready`).
    ///
    /// `answers_in_flight`: the request in flight (or about to go) carries
    /// the round's answers (a call's retry, a task's respond request), so
    /// the round must be answered in full. The machine-specific checks
    /// (the head, a call's state-only count, a task's request kind and
    /// polls) stay with each restore.
    pub fn check_invariants(
        &mut self,
        buf: &mut [u8],
        layout: &Layout,
        limits: &CallLimits,
        caps: &ClientCapabilities,
        phase: Phase,
        answers_in_flight: bool,
    ) -> Result<Phase, SaveInvariant> {
        self.check_regions(buf, layout, limits, caps)?;
        if self.rounds > limits.max_rounds {
            return Err(SaveInvariant::TooManyRounds {
                rounds: self.rounds,
                limit: limits.max_rounds,
            });
        }
        if self.rounds == 0 && (self.inputs_len > 0 || self.state_len > 0) {
            return Err(SaveInvariant::RoundNotCounted);
        }
        for id in [self.last_id, self.in_flight].into_iter().flatten() {
            if !(-MAX_SAFE_ID..=MAX_SAFE_ID).contains(&id) {
                return Err(SaveInvariant::IdOutOfRange(id));
            }
        }
        self.check_phase(phase, answers_in_flight)
    }

    /// The regions of a save: sizes within the limits, the inputs a valid
    /// `inputRequests` map of declared kinds, the state one JSON string,
    /// the answers well-formed records for distinct asked keys.
    fn check_regions(
        &mut self,
        buf: &mut [u8],
        layout: &Layout,
        limits: &CallLimits,
        caps: &ClientCapabilities,
    ) -> Result<(), SaveInvariant> {
        use SaveInvariant as I;
        let wire = &limits.wire;
        for (region, len, limit) in [
            (SaveRegion::Inputs, self.inputs_len, limits.max_inputs_bytes),
            (SaveRegion::State, self.state_len, limits.max_state_bytes),
            (SaveRegion::Answers, self.answers_len, layout.answers.len),
        ] {
            if len > limit {
                return Err(I::TooLarge { region, len, limit });
            }
        }
        self.input_count = 0;
        if self.inputs_len > 0 {
            // The inputs region lies before the index region.
            let (lo, hi) = buf.split_at_mut(layout.index.start.min(buf.len()));
            // The copy, then the rest of its region (for the facts).
            let copy_end = layout.inputs.start.saturating_add(self.inputs_len);
            let (lo, spare) = lo.split_at_mut(copy_end.min(lo.len()));
            let raw = layout.inputs.prefix(lo, self.inputs_len);
            let v = json::parse_with(raw, &wire.json).map_err(|_| I::BadInputs)?;
            // Parsed in place (the map carries its first requests).
            let mut parsed = None;
            let reqs = match InputRequests::parse_into(v, wire, &mut parsed) {
                Ok(()) => parsed.as_ref().ok_or(I::BadInputs)?,
                Err(_) => return Err(I::BadInputs),
            };
            if reqs.is_empty() || v.raw().len() != raw.len() {
                return Err(I::BadInputs);
            }
            if !caps.covers(&reqs.required_capabilities()) {
                return Err(I::UndeclaredInput);
            }
            let index = hi.get_mut(..layout.index.len).ok_or(I::BadInputs)?;
            let spare = spare
                .get_mut(..layout.inputs.len.saturating_sub(self.inputs_len))
                .ok_or(I::BadInputs)?;
            write_index(index, spare, reqs).ok_or(I::BadInputs)?;
            self.input_count = reqs.len();
        }
        let buf: &[u8] = buf;
        if self.state_len > 0 {
            let raw = layout.state.prefix(buf, self.state_len);
            let v = json::parse_with(raw, &wire.json).map_err(|_| I::BadRequestState)?;
            if v.as_str().is_none() || v.raw().len() != raw.len() {
                return Err(I::BadRequestState);
            }
        }
        // Walk the records by hand: the iterator stops at the first defect,
        // which must be an error here.
        let bytes = layout.answers.prefix(buf, self.answers_len);
        if bytes.len() != self.answers_len {
            return Err(I::BadAnswerRecord);
        }
        let (mut pos, mut count, mut sum) = (0usize, 0usize, 0usize);
        while pos < bytes.len() {
            let (index, body, next) = read_record(bytes, pos).ok_or(I::BadAnswerRecord)?;
            if index >= self.input_count {
                return Err(I::AnswerKeyNotAsked { index });
            }
            if self
                .records(buf, layout)
                .take(count)
                .any(|(i, _)| i == index)
            {
                return Err(I::DuplicateAnswer { index });
            }
            let kind = self
                .entry(buf, layout, index)
                .map(|e| e.kind)
                .ok_or(I::BadInputs)?;
            let mut sink = Writer::new(&mut []);
            render_answer(&mut sink, kind, &Answer::Json(body), &wire.json)
                .map_err(|error| I::BadAnswer { index, error })?;
            count += 1;
            sum = sum.saturating_add(body.len());
            pos = next;
        }
        if sum > limits.max_answers_bytes {
            return Err(I::TooLarge {
                region: SaveRegion::Answers,
                len: sum,
                limit: limits.max_answers_bytes,
            });
        }
        self.answered = count;
        self.answer_bytes = sum;
        Ok(())
    }

    /// The phase against the round and the ids: `Sent` needs the last
    /// request in flight, no other phase has one; a retry in flight or
    /// ready needs every answer of its round; `Answering` needs inputs.
    fn check_phase(
        &mut self,
        phase: Phase,
        answers_in_flight: bool,
    ) -> Result<Phase, SaveInvariant> {
        let partly = SaveInvariant::PartlyAnswered {
            answered: self.answered,
            inputs: self.input_count,
        };
        let has_inputs = self.input_count > 0;
        if let (Some(f), last) = (self.in_flight, self.last_id) {
            if last.is_none_or(|l| f > l) {
                return Err(SaveInvariant::InFlightNotLast);
            }
        }
        let phase = match phase {
            Phase::Sent => {
                let Some(flight) = self.in_flight else {
                    return Err(SaveInvariant::SentWithoutRequest);
                };
                if self.last_id != Some(flight) {
                    return Err(SaveInvariant::InFlightNotLast);
                }
                if answers_in_flight && has_inputs && !self.all_answered() {
                    return Err(partly);
                }
                Phase::Sent
            }
            Phase::Answering if !has_inputs => return Err(SaveInvariant::AnsweringWithoutInputs),
            Phase::Answering if self.all_answered() => Phase::Ready,
            Phase::Ready if has_inputs && !self.all_answered() => return Err(partly),
            other => other,
        };
        if phase != Phase::Sent && self.in_flight.is_some() {
            return Err(SaveInvariant::InFlightOutsideSent);
        }
        Ok(phase)
    }
}

/// One decoded index entry: ranges relative to the inputs region.
struct Entry {
    key: core::ops::Range<usize>,
    value: core::ops::Range<usize>,
    kind: InputKind,
}

/// The `n`th u32 (little endian) of a record.
fn word(rec: &[u8], n: usize) -> Option<u32> {
    let at = n.checked_mul(4)?;
    let (&w, _) = rec.get(at..)?.split_first_chunk::<4>()?;
    Some(u32::from_le_bytes(w))
}

/// A span recorded as offset and length, as a range.
fn span(o: u32, l: u32) -> Option<core::ops::Range<usize>> {
    let o = usize::try_from(o).ok()?;
    Some(o..o.checked_add(usize::try_from(l).ok()?)?)
}

/// Writes `words` (little endian) then `last` into `rec`.
fn put_record(rec: &mut [u8], words: &[u32], last: u8) -> Option<()> {
    // Fixed-size chunks: a zip over `chunks_exact_mut(4)` is an out-of-line
    // `Zip::new` dividing by a runtime chunk size (a panic site).
    let (chunks, _) = rec.as_chunks_mut::<4>();
    for (chunk, n) in chunks.iter_mut().zip(words) {
        *chunk = n.to_le_bytes();
    }
    *rec.last_mut()? = last;
    Some(())
}

/// Writes the index of a validated `inputRequests` map into `dst`: for
/// each member the key token's and the value's offset and length relative
/// to the object's first byte, and the request kind; and, when all of them
/// fit in `spare` (the inputs region after the copy), each request's facts
/// record ([`FACTS_ENTRY`]). `None` if `dst` is too small or an entry does
/// not read back (neither happens for a validated map).
fn write_index(dst: &mut [u8], spare: &mut [u8], reqs: &InputRequests<'_>) -> Option<()> {
    let obj = reqs.raw();
    let base = obj.raw().as_ptr() as usize;
    // Address arithmetic only: members are sub-slices of `obj`; an empty
    // span (an absent member) is recorded as 0, 0.
    let off = |s: &[u8]| match s.is_empty() {
        true => Some(0),
        false => u32::try_from((s.as_ptr() as usize).checked_sub(base)?).ok(),
    };
    let len = |s: &[u8]| u32::try_from(s.len()).ok();
    let facts = spare.len() >= reqs.len().saturating_mul(FACTS_ENTRY);
    for (i, (k, v)) in obj.iter().enumerate() {
        let mut parsed = None;
        let req = reqs.request_at(i, v, &mut parsed)?;
        let at = i.checked_mul(INDEX_ENTRY)?;
        let (key, value) = (k.raw_token(), v.raw());
        put_record(
            dst.get_mut(at..at.checked_add(INDEX_ENTRY)?)?,
            &[off(key)?, len(key)?, off(value)?, len(value)?],
            req.kind() as u8,
        )?;
        if !facts {
            continue;
        }
        let (a, b, max_tokens, flags): (&[u8], &[u8], u64, u8) = match req {
            InputRequest::ElicitForm {
                message,
                requested_schema,
            } => (message.raw_token(), requested_schema.raw(), 0, 0),
            InputRequest::Sampling {
                params,
                system_prompt,
                max_tokens,
                has_tools,
                wants_context,
            } => (
                params.raw(),
                system_prompt.map_or(&[][..], |s| s.raw_token()),
                *max_tokens,
                u8::from(*has_tools) | u8::from(*wants_context) << 1,
            ),
            InputRequest::ElicitUrl { message, url } => {
                (message.raw_token(), url.raw_token(), 0, 0)
            }
            InputRequest::Roots => (&[], &[], 0, 0),
        };
        let at = i.checked_mul(FACTS_ENTRY)?;
        put_record(
            spare.get_mut(at..at.checked_add(FACTS_ENTRY)?)?,
            &[
                off(a)?,
                len(a)?,
                off(b)?,
                len(b)?,
                max_tokens as u32,
                (max_tokens >> 32) as u32,
            ],
            flags,
        )?;
    }
    Some(())
}

/// Skip-index slots for reading a fed result (`Call::feed`,
/// `Task::feed`): on the stack, two machine words each. 32 (256 bytes on
/// a 32-bit microcontroller) cover the containers of a typical
/// `InputRequiredResult`; 64-bit targets take 256 (4 KiB of stack), enough
/// for about 12 KB of input requests (64 of the benchmark's requests need
/// 291); containers past the last slot are scanned.
#[cfg(target_pointer_width = "64")]
pub(crate) const FEED_INDEX_SLOTS: usize = 256;
/// See the 64-bit definition.
#[cfg(not(target_pointer_width = "64"))]
pub(crate) const FEED_INDEX_SLOTS: usize = 32;

/// Runs `f` with skip-index slots on the stack for a result of `len`
/// bytes: about one slot per 48 bytes (see [`json::parse_indexed`]), in
/// three sizes up to [`FEED_INDEX_SLOTS`], so that a small result does not
/// pay for clearing 4 KiB of slots it cannot fill. The index only saves
/// rescans: what `f` reads does not depend on the number of slots.
pub(crate) fn with_feed_slots<R>(len: usize, f: impl FnOnce(&mut [json::IndexSlot]) -> R) -> R {
    const EMPTY: json::IndexSlot = json::IndexSlot::EMPTY;
    let want = len / 48 + 16;
    if want <= 32 || FEED_INDEX_SLOTS <= 32 {
        f(&mut [EMPTY; 32])
    } else if want <= 64 {
        f(&mut [EMPTY; 64])
    } else {
        f(&mut [EMPTY; FEED_INDEX_SLOTS])
    }
}

fn copy_into(dst: &mut [u8], src: &[u8]) -> Result<(), CallError> {
    match dst.get_mut(..src.len()) {
        Some(d) => {
            crate::bytes::copy(d, src);
            Ok(())
        }
        // The caller checked the limit and the layout sized the region, so
        // this only happens on a corrupted state.
        None => Err(CallError::WorkspaceTooSmall { needed: src.len() }),
    }
}

fn read_record(bytes: &[u8], pos: usize) -> Option<(usize, &[u8], usize)> {
    let h = bytes.get(pos..pos.checked_add(ANSWER_HEADER)?)?;
    let (&[a, b, c, d, e, f], _) = h.split_first_chunk::<ANSWER_HEADER>()?;
    let index = usize::from(u16::from_le_bytes([a, b]));
    let len = usize::try_from(u32::from_le_bytes([c, d, e, f])).ok()?;
    let body_at = pos.checked_add(ANSWER_HEADER)?;
    let end = body_at.checked_add(len)?;
    Some((index, bytes.get(body_at..end)?, end))
}

/// Iterator over stored answers: `(input index, answer JSON)`.
pub(crate) struct Records<'b> {
    bytes: &'b [u8],
    pos: usize,
}

impl<'b> Iterator for Records<'b> {
    type Item = (usize, &'b [u8]);
    fn next(&mut self) -> Option<Self::Item> {
        let (index, body, next) = read_record(self.bytes, self.pos)?;
        self.pos = next;
        Some((index, body))
    }
}

/// The result kind that answers an input kind.
fn expected_response(kind: InputKind) -> ResponseKind {
    match kind {
        InputKind::ElicitForm | InputKind::ElicitUrl => ResponseKind::Elicit,
        InputKind::Sampling => ResponseKind::Sampling,
        InputKind::Roots => ResponseKind::Roots,
    }
}

/// Elicitation rules: a form `accept` carries the form's content (an object);
/// URL mode, `decline` and `cancel` carry none.
fn check_elicit(kind: InputKind, action: ElicitAction, content: bool) -> Result<(), AnswerError> {
    match (kind, action, content) {
        (InputKind::ElicitForm, ElicitAction::Accept, false) => Err(AnswerError::ContentRequired),
        (InputKind::ElicitForm, ElicitAction::Accept, true) => Ok(()),
        (_, _, true) => Err(AnswerError::ContentNotAllowed),
        _ => Ok(()),
    }
}

fn parse_object<'a>(bytes: &'a [u8], json: &ParseLimits) -> Result<Object<'a>, AnswerError> {
    json::parse_with(bytes, json)
        .map_err(AnswerError::NotJson)?
        .as_object()
        .ok_or(AnswerError::NotAnObject)
}

/// Validates `answer` against the kind asked and writes the bare result.
pub(crate) fn render_answer(
    w: &mut Writer<'_>,
    kind: InputKind,
    answer: &Answer<'_>,
    json: &ParseLimits,
) -> Result<(), AnswerError> {
    let expected = expected_response(kind);
    match *answer {
        Answer::Elicit { action, content } => {
            if expected != ResponseKind::Elicit {
                return Err(AnswerError::KindMismatch { expected: kind });
            }
            check_elicit(kind, action, content.is_some())?;
            let content = match content {
                Some(c) => Some(parse_object(c, json)?.raw()),
                None => None,
            };
            write_elicit_result(w, action, content);
        }
        Answer::Roots(roots) => {
            if expected != ResponseKind::Roots {
                return Err(AnswerError::KindMismatch { expected: kind });
            }
            for (index, r) in roots.iter().enumerate() {
                check_root_uri(r.uri).map_err(|error| AnswerError::BadRoot { index, error })?;
            }
            write_roots_result(w, roots);
        }
        Answer::Sampling(bytes) | Answer::Json(bytes) => {
            if matches!(answer, Answer::Sampling(_)) && kind != InputKind::Sampling {
                return Err(AnswerError::KindMismatch { expected: kind });
            }
            let v = json::parse_with(bytes, json).map_err(AnswerError::NotJson)?;
            let obj = v.as_object().ok_or(AnswerError::NotAnObject)?;
            let resp = InputResponse::parse(v).ok_or(AnswerError::NotAnObject)?;
            if resp.wrapped {
                return Err(AnswerError::Wrapped);
            }
            let got = resp.kind().ok_or(AnswerError::UnknownShape)?;
            if got != expected {
                return Err(AnswerError::KindMismatch { expected: kind });
            }
            // The readers the server half runs: what it would refuse, the
            // client does not send.
            let shape = |e: ShapeError| match e {
                ShapeError::Duplicate(member) => AnswerError::Duplicate { member },
                ShapeError::BadMember("content") => AnswerError::NotAnObject,
                ShapeError::BadMember(member) => AnswerError::BadMember { member },
            };
            // The reader's error (the outer one) mapped at one place.
            let read: Result<Result<(), AnswerError>, ShapeError> = match got {
                ResponseKind::Elicit => read_elicit_result(obj)
                    .map(|(action, content)| check_elicit(kind, action, content.is_some())),
                ResponseKind::Sampling => read_sampling_result(obj).map(|_| Ok(())),
                ResponseKind::Roots => read_roots_result(obj).and_then(|roots| {
                    for (index, r) in roots.iter().enumerate() {
                        // The decoded uri, as the server reads it.
                        let entry = read_root_entry(r)?;
                        if let Err(error) = check_root_uri_json(&entry.uri) {
                            return Ok(Err(AnswerError::BadRoot { index, error }));
                        }
                    }
                    Ok(Ok(()))
                }),
            };
            read.map_err(shape)??;
            w.raw(obj.raw());
        }
        Answer::Error { .. } => return Err(AnswerError::UnknownShape),
    }
    Ok(())
}

/// What fed bytes are, relative to the request in flight.
pub(crate) enum Incoming<'a> {
    /// A result for our id.
    Result(Object<'a>),
    /// An error response for our id.
    Error(RpcError<'a>),
    /// Anything else that could be read or attributed elsewhere.
    Unrelated(Unrelated<'a>),
}

/// Reads `bytes` as the answer candidate for request `ours`.
///
/// Attribution: a well-formed response carrying our id is ours; every other
/// well-formed message (other ids, string ids, notifications, requests,
/// errors with a `null` id) is unrelated. A message that fails validation is
/// ours when its top-level `id` is our number, unrelated when it names
/// another id, and a transport failure (the `Err`) when it names none or
/// cannot be read as JSON at all: the transport handed these bytes to this
/// request, and nobody else can claim them.
///
/// Kept out of line: `Call::feed` and `Task::feed` share one body (a
/// firmware with both, through `Machine::feed`, carried it twice), and
/// results of ours, the hot path, are read by [`receive_result_indexed`].
#[inline(never)]
pub(crate) fn receive<'a>(
    bytes: &'a [u8],
    wire: &WireLimits,
    ours: i64,
) -> Result<Incoming<'a>, CallError> {
    // Matched by reference: only an unrelated message is copied out whole.
    let parsed = parse_message(bytes, wire);
    let msg = match &parsed {
        Ok(m) => m,
        Err(e) => {
            return match attribute(bytes, &wire.json, ours) {
                Attribution::Other => Ok(Incoming::Unrelated(Unrelated::Invalid(*e))),
                Attribution::Ours | Attribution::Unknown => Err(wire_to_call(*e)),
            }
        }
    };
    Ok(match msg {
        Message::Result { id, result } if id.is_number(ours) => Incoming::Result(*result),
        Message::Error {
            id: Some(id),
            code,
            message,
            data,
        } if id.is_number(ours) => Incoming::Error(RpcError {
            code: *code,
            message: *message,
            data: *data,
        }),
        _ => Incoming::Unrelated(Unrelated::Message(*msg)),
    })
}

/// [`receive`] over a skip index in `slots`, for the message worth
/// indexing: a result of ours. Returns that result twice, as a span of
/// `bytes` (what events borrow) and with the index (what classification
/// walks); `None` for anything else, which the caller then reads with
/// [`receive`] (the same parse, without the index: the same message).
pub(crate) fn receive_result_indexed<'a: 's, 's>(
    bytes: &'a [u8],
    wire: &WireLimits,
    ours: i64,
    slots: &'s mut [json::IndexSlot],
) -> Option<(Object<'a>, Object<'s>)> {
    // Matched by reference: the message is not copied out of the result.
    let parsed = parse_message_indexed(bytes, wire, slots);
    let Ok(Message::Result { id, result }) = &parsed else {
        return None;
    };
    if !id.is_number(ours) {
        return None;
    }
    // The same bytes, borrowed from `bytes` (address arithmetic only: the
    // result is a sub-slice of them).
    let raw = result.raw();
    let at = (raw.as_ptr() as usize).checked_sub(bytes.as_ptr() as usize)?;
    let span = bytes.get(at..at.checked_add(raw.len())?)?;
    let plain = json::Value::of_validated(span).as_object()?;
    Some((plain, *result))
}

enum Attribution {
    Ours,
    Other,
    Unknown,
}

fn attribute(bytes: &[u8], json: &ParseLimits, ours: i64) -> Attribution {
    let Some(obj) = json::parse_with(bytes, json)
        .ok()
        .and_then(|v| v.as_object())
    else {
        return Attribution::Unknown;
    };
    match obj.get_unique("id") {
        Ok(Some(v)) => match (v.as_i64(), v.as_str()) {
            (Some(n), _) if n == ours => Attribution::Ours,
            (Some(_), _) | (_, Some(_)) => Attribution::Other,
            _ => Attribution::Unknown,
        },
        _ => Attribution::Unknown,
    }
}

/// Maps a wire error from reading a result: rule breaches are protocol
/// violations, anything else is malformed input.
pub(crate) fn wire_to_call(e: WireError) -> CallError {
    match e {
        WireError::Protocol(v) => CallError::Protocol(v),
        other => CallError::Malformed(other),
    }
}

/// Where a complete result sits in the bytes that were fed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ResultSpan {
    pub offset: usize,
    pub len: usize,
    pub fed_len: usize,
}

impl ResultSpan {
    pub fn of(fed: &[u8], result: &[u8]) -> ResultSpan {
        // Pointer arithmetic on addresses only (no dereference): the result
        // is a sub-slice of `fed`.
        let offset = (result.as_ptr() as usize).wrapping_sub(fed.as_ptr() as usize);
        ResultSpan {
            offset,
            len: result.len(),
            fed_len: fed.len(),
        }
    }

    pub fn get<'b>(&self, fed: &'b [u8]) -> Option<&'b [u8]> {
        if fed.len() != self.fed_len {
            return None;
        }
        fed.get(self.offset..self.offset.checked_add(self.len)?)
    }
}
