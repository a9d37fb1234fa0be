//! The workspace of a call or task: one caller buffer in five regions,
//! `[head | inputs | index | state | answers]`, their sizes from the call's
//! limits, and the checks those limits pass first. `head` is the machine's
//! fixed request part (a call's rendered params, a task's `_meta` and id);
//! `inputs` the raw `inputRequests` object; `index` one entry per input;
//! `state` the `requestState` token; `answers` the answer records. What the
//! regions hold, and how they are read, is the exchange's
//! ([`super::exchange`]).

use super::errors::CallError;
use crate::json;
use crate::wire::WireLimits;

/// Bytes in front of each stored answer: the input's index (`u16`) and the
/// answer's length (`u32`), little endian.
pub(crate) const ANSWER_HEADER: usize = 6;

/// Bytes of one input's index entry: four u32 offsets/lengths and the kind.
pub(crate) const INDEX_ENTRY: usize = 17;

/// The largest `max_input_requests` a call accepts: the key-uniqueness check
/// on receipt and the answer lookup are quadratic in the number of keys.
pub const MAX_INPUT_REQUESTS_LIMIT: usize = 256;

/// One region of the workspace. (`pub` in this private module only
/// because a flow's sealed, hidden `render` takes the layout: it cannot be
/// named outside the crate.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Region {
    /// Its first byte's offset in the workspace.
    pub start: usize,
    /// Its length in bytes.
    pub len: usize,
}

impl Region {
    fn end(&self) -> usize {
        self.start.saturating_add(self.len)
    }

    /// The first `n` bytes of the region (clamped to the region). Kept out
    /// of line: it is called from a dozen places, each inlined copy larger
    /// than the call.
    #[inline(never)]
    pub fn prefix<'b>(&self, buf: &'b [u8], n: usize) -> &'b [u8] {
        let end = self.start.saturating_add(n.min(self.len));
        buf.get(self.start..end).unwrap_or(&[])
    }

    /// Bytes `from..` of the region, mutable.
    pub fn tail_mut<'b>(&self, buf: &'b mut [u8], from: usize) -> &'b mut [u8] {
        let start = self.start.saturating_add(from.min(self.len));
        buf.get_mut(start..self.end()).unwrap_or(&mut [])
    }
}

/// The five regions of a workspace (`pub` as [`Region`] is).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Layout {
    /// The fixed request part.
    pub head: Region,
    /// The `inputRequests` copy (and its facts records).
    pub inputs: Region,
    /// One index entry per input.
    pub index: Region,
    /// The `requestState` token.
    pub state: Region,
    /// The answers (the last region: it ends where the regions do).
    pub answers: Region,
}

impl Layout {
    /// Lays the regions out back to back; `None` on arithmetic overflow or
    /// a region larger than `u32::MAX` (offsets are stored in 32 bits).
    /// `const` for the `workspace_size` functions.
    pub const fn new(
        head: usize,
        inputs: usize,
        state: usize,
        answers: usize,
        max_inputs: usize,
    ) -> Option<Layout> {
        let Some(answer_headers) = ANSWER_HEADER.checked_mul(max_inputs) else {
            return None;
        };
        let Some(all_answers) = answers.checked_add(answer_headers) else {
            return None;
        };
        let Some(index) = INDEX_ENTRY.checked_mul(max_inputs) else {
            return None;
        };
        let limit = u32::MAX as usize;
        if head > limit || inputs > limit || state > limit || all_answers > limit {
            return None;
        }
        // The regions end where their running sum does; `checked_add` keeps
        // it in range, so the sums `new_accepted` takes cannot wrap.
        let Some(end) = head.checked_add(inputs) else {
            return None;
        };
        let Some(end) = end.checked_add(index) else {
            return None;
        };
        let Some(end) = end.checked_add(state) else {
            return None;
        };
        if end.checked_add(all_answers).is_none() {
            return None;
        }
        Some(Layout::new_accepted(
            head, inputs, state, answers, max_inputs,
        ))
    }

    /// The layout [`Layout::new`] returns for sizes it accepted before (a
    /// live slot's limits, checked when the slot was initialized or
    /// restored), without checking them again: plain running sums, wrapping
    /// instead of failing, so sizes that were never accepted give a
    /// meaningless layout (whose regions are only ever read through `get`)
    /// rather than a panic.
    pub(crate) const fn new_accepted(
        head: usize,
        inputs: usize,
        state: usize,
        answers: usize,
        max_inputs: usize,
    ) -> Layout {
        let answers = answers.wrapping_add(ANSWER_HEADER.wrapping_mul(max_inputs));
        let index = INDEX_ENTRY.wrapping_mul(max_inputs);
        let index_start = head.wrapping_add(inputs);
        let state_start = index_start.wrapping_add(index);
        Layout {
            head: Region {
                start: 0,
                len: head,
            },
            inputs: Region {
                start: head,
                len: inputs,
            },
            index: Region {
                start: index_start,
                len: index,
            },
            state: Region {
                start: state_start,
                len: state,
            },
            answers: Region {
                start: state_start.wrapping_add(state),
                len: answers,
            },
        }
    }

    /// Bytes of workspace the regions need (`new` checked the sum).
    pub const fn total(&self) -> usize {
        self.answers.start.saturating_add(self.answers.len)
    }

    /// This layout over a workspace of `buf_len` bytes, or
    /// [`CallError::WorkspaceTooSmall`] with the bytes it needs.
    pub(crate) const fn within(self, buf_len: usize) -> Result<Layout, CallError> {
        if buf_len < self.total() {
            return Err(CallError::WorkspaceTooSmall {
                needed: self.total(),
            });
        }
        Ok(self)
    }
}

/// Checks the wire limits a call depends on.
pub(crate) const fn check_wire_limits(wire: &WireLimits) -> Result<(), CallError> {
    if wire.max_input_requests == 0
        || wire.max_input_requests > MAX_INPUT_REQUESTS_LIMIT
        || wire.max_key_bytes == 0
        || wire.json.max_depth < 4
        || wire.json.max_depth > json::MAX_DEPTH_LIMIT
    {
        return Err(CallError::BadLimits);
    }
    Ok(())
}
