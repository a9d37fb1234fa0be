//! JSON-RPC ids: the range a request may carry, the next id, and a counter.

use super::errors::CallError;

/// The largest JSON-RPC id a call emits in absolute value: 2^53 - 1, the
/// largest integer a JavaScript peer echoes back unchanged.
pub const MAX_SAFE_ID: i64 = crate::json::MAX_SAFE_INTEGER;

/// A source of JSON-RPC ids.
pub trait IdSource {
    /// The next id; a call refuses ids that do not increase.
    fn next_id(&mut self) -> i64;
}

/// Checks that `id` is one a request can carry: a JSON-RPC number within
/// +-(2^53-1) ([`MAX_SAFE_ID`], what a JavaScript peer echoes unchanged).
/// Returns it, or [`CallError::IdOutOfRange`].
pub const fn check_id_range(id: i64) -> Result<i64, CallError> {
    if id < -MAX_SAFE_ID || id > MAX_SAFE_ID {
        return Err(CallError::IdOutOfRange(id));
    }
    Ok(id)
}

/// The id `step` after `id`, or [`CallError::IdsExhausted`] when it would
/// pass [`MAX_SAFE_ID`] (ids never wrap). `step` must be positive
/// ([`CallError::IdOutOfRange`] otherwise: ids must increase).
pub const fn id_after(id: i64, step: i64) -> Result<i64, CallError> {
    if step <= 0 {
        return Err(CallError::IdOutOfRange(step));
    }
    match id.checked_add(step) {
        Some(next) if next <= MAX_SAFE_ID => check_id_range(next),
        _ => Err(CallError::IdsExhausted),
    }
}

/// The usual id source: a counter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counter {
    next: i64,
}

impl Counter {
    /// A counter whose first id is `first`, unchecked (`const`); an id
    /// outside +-(2^53-1) is refused by `write_request` when it is used.
    /// [`Counter::new`] refuses it at once.
    pub const fn starting_at(first: i64) -> Self {
        Counter { next: first }
    }

    /// A counter whose first id is `first`, which must be within
    /// +-(2^53-1) ([`CallError::IdOutOfRange`] otherwise).
    pub const fn new(first: i64) -> Result<Self, CallError> {
        match check_id_range(first) {
            Ok(next) => Ok(Counter { next }),
            Err(e) => Err(e),
        }
    }

    /// A counter that continues after `last` (1 when `None`): use it with
    /// [`Call::last_id`](super::FlowView::last_id) after a restore.
    pub fn after(last: Option<i64>) -> Self {
        Counter {
            next: last.map_or(1, |l| l.saturating_add(1)),
        }
    }
}

impl IdSource for Counter {
    fn next_id(&mut self) -> i64 {
        let id = self.next;
        self.next = self.next.saturating_add(1);
        id
    }
}
