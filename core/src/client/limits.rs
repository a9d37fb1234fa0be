//! The one set of limits of a call and of the task it may become
//! ([`CallLimits`], `mrtr_call_limits` in C), with their defaults.

use super::errors::CallError;
use super::layout::{self, Layout};
use crate::wire::WireLimits;

/// Default bound of the rendered params (caller params + `_meta`): 16 KiB.
pub const DEFAULT_MAX_PARAMS_BYTES: usize = 16 * 1024;
/// Default bound of one round's `inputRequests` copy: 16 KiB.
pub const DEFAULT_MAX_INPUTS_BYTES: usize = 16 * 1024;
/// Default bound of the `requestState` token, quotes included: 4 KiB (the
/// size of a sealed state in this project's seal module).
pub const DEFAULT_MAX_STATE_BYTES: usize = 4 * 1024;
/// Default bound of one round's answers (JSON bytes, all keys): 16 KiB.
pub const DEFAULT_MAX_ANSWERS_BYTES: usize = 16 * 1024;
/// Default cap on `input_required` results per call (the Python SDK's).
pub const DEFAULT_MAX_ROUNDS: u32 = 10;
/// Default cap on consecutive state-only rounds.
pub const DEFAULT_MAX_STATE_ONLY_ROUNDS: u32 = 3;
/// Default first backoff after a state-only round.
pub const DEFAULT_BACKOFF_INITIAL_MS: u32 = 50;
/// Default ceiling of the doubling backoff.
pub const DEFAULT_BACKOFF_MAX_MS: u32 = 250;
/// Default cap on `tasks/get` requests per task (about a day at 1 s).
pub const DEFAULT_MAX_POLLS: u32 = 100_000;
/// Default poll interval when the server gives none.
pub const DEFAULT_POLL_MS: u64 = 1_000;
/// Default floor of the poll interval.
pub const DEFAULT_MIN_POLL_MS: u64 = 100;
/// Default ceiling of the poll interval.
pub const DEFAULT_MAX_POLL_MS: u64 = 60_000;

/// Every capacity and cap of a call and of the task it may become (one
/// set of limits for both flows, as `mrtr_call_limits` in C).
///
/// The largest server message a call reads is `wire.json.max_bytes`
/// ([`Self::max_message_bytes`]); the `max_*_bytes` fields here bound the
/// copies the call keeps of its parts, not the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallLimits {
    /// Limits for reading server messages (size, depth, number of input
    /// requests, key length).
    pub wire: WireLimits,
    /// Bound of the fixed request part: a call's rendered params, a task's
    /// `_meta` and id.
    pub max_params_bytes: usize,
    /// Bound of the `inputRequests` copy.
    pub max_inputs_bytes: usize,
    /// Bound of the `requestState` token copy.
    pub max_state_bytes: usize,
    /// Bound of the answers of one round (JSON bytes; the region adds 6
    /// bytes of bookkeeping per possible key).
    pub max_answers_bytes: usize,
    /// Maximum `input_required` results one call accepts.
    pub max_rounds: u32,
    /// Maximum consecutive state-only `input_required` results.
    pub max_state_only_rounds: u32,
    /// Backoff after the first state-only round, in milliseconds.
    pub backoff_initial_ms: u32,
    /// Ceiling of the doubling backoff, in milliseconds.
    pub backoff_max_ms: u32,
    /// Task flow: maximum `tasks/get` requests.
    pub max_polls: u32,
    /// Task flow: poll interval when the server gives none, in milliseconds.
    pub default_poll_ms: u64,
    /// Task flow: floor of the poll interval (a hostile hint cannot make
    /// the app busy-poll).
    pub min_poll_ms: u64,
    /// Task flow: ceiling of the poll interval.
    pub max_poll_ms: u64,
}

impl Default for CallLimits {
    fn default() -> Self {
        CallLimits {
            wire: WireLimits::default(),
            max_params_bytes: DEFAULT_MAX_PARAMS_BYTES,
            max_inputs_bytes: DEFAULT_MAX_INPUTS_BYTES,
            max_state_bytes: DEFAULT_MAX_STATE_BYTES,
            max_answers_bytes: DEFAULT_MAX_ANSWERS_BYTES,
            max_rounds: DEFAULT_MAX_ROUNDS,
            max_state_only_rounds: DEFAULT_MAX_STATE_ONLY_ROUNDS,
            backoff_initial_ms: DEFAULT_BACKOFF_INITIAL_MS,
            backoff_max_ms: DEFAULT_BACKOFF_MAX_MS,
            max_polls: DEFAULT_MAX_POLLS,
            default_poll_ms: DEFAULT_POLL_MS,
            min_poll_ms: DEFAULT_MIN_POLL_MS,
            max_poll_ms: DEFAULT_MAX_POLL_MS,
        }
    }
}

/// The syntax a request adds around what it copies from the workspace:
/// the envelope with the longest id (`-9007199254740991`) and method, the
/// `inputResponses` and `requestState` member names, the task members, the
/// closing braces; with room to spare (the test
/// `max_request_bytes_bounds_every_request_at_the_limits` writes requests
/// at every limit).
pub const REQUEST_SYNTAX_BYTES: usize = 256;

impl CallLimits {
    /// The largest server message (one JSON-RPC message, in bytes) a call
    /// reads: `wire.json.max_bytes`. A transport needs a receive buffer of
    /// at least this size to hand any acceptable message over whole.
    pub const fn max_message_bytes(&self) -> usize {
        self.wire.json.max_bytes
    }

    /// The largest request (any leg of the call or of the task it becomes:
    /// `tools/call` and its retries, `tasks/get`, `tasks/update`,
    /// `tasks/cancel`) a call under these limits writes, in bytes; a send
    /// buffer of this size never gets `CallError::BufferTooSmall`.
    /// [`CallError::BadLimits`] (or the wire-limit error) for limits a call
    /// refuses.
    ///
    /// Every byte a request copies comes from one workspace region, each
    /// region at most once (the rendered params or the task's head, the
    /// input keys as the server spelled them, the `requestState` token,
    /// the rendered answers), so the bound is those regions (the keys: at
    /// most 6 bytes per decoded byte and quotes, within the inputs region)
    /// plus the request's own syntax: [`REQUEST_SYNTAX_BYTES`] and two
    /// bytes (`,` and `:`) per input.
    pub const fn max_request_bytes(&self) -> Result<usize, CallError> {
        let l = match self.layout() {
            Ok(l) => l,
            Err(e) => return Err(e),
        };
        let n = self.wire.max_input_requests;
        // A key token is at most 6 bytes per decoded byte (`\u00XX`) and
        // its quotes, and all of them lie in the inputs region.
        let keys = match self.wire.max_key_bytes.checked_mul(6) {
            Some(k) => match k.checked_add(2) {
                Some(k) => match k.checked_mul(n) {
                    Some(k) if k < l.inputs.len => k,
                    _ => l.inputs.len,
                },
                None => l.inputs.len,
            },
            None => l.inputs.len,
        };
        let parts = [
            l.head.len,
            l.state.len,
            l.answers.len,
            keys,
            n,
            n,
            REQUEST_SYNTAX_BYTES,
        ];
        let mut total = 0usize;
        let mut i = 0;
        while i < parts.len() {
            total = match total.checked_add(parts[i]) {
                Some(t) => t,
                None => return Err(CallError::BadLimits),
            };
            i += 1;
        }
        Ok(total)
    }

    /// These limits checked as a call checks them, once: the
    /// [`CheckedLimits`] an init takes without checking them again, or
    /// [`CallError::BadLimits`] (or the wire-limit error) for limits a call
    /// refuses.
    pub const fn checked(&self) -> Result<CheckedLimits<'_>, CallError> {
        match self.layout() {
            Ok(_) => Ok(CheckedLimits(self)),
            Err(e) => Err(e),
        }
    }

    /// The one check of the limits: the wire limits, the poll bounds and
    /// the layout of the regions.
    pub(crate) const fn layout(&self) -> Result<Layout, CallError> {
        if let Err(e) = layout::check_wire_limits(&self.wire) {
            return Err(e);
        }
        if self.min_poll_ms > self.max_poll_ms {
            return Err(CallError::BadLimits);
        }
        match Layout::new(
            self.max_params_bytes,
            self.max_inputs_bytes,
            self.max_state_bytes,
            self.max_answers_bytes,
            self.wire.max_input_requests,
        ) {
            Some(layout) => Ok(layout),
            None => Err(CallError::BadLimits),
        }
    }

    /// Bytes of workspace a call or task with these limits needs: the four
    /// region bounds plus 23 bytes per possible input key (index and answer
    /// bookkeeping). With the defaults: 54,720 bytes. Saturates to
    /// `usize::MAX` for limits that cannot be laid out; `init` refuses those
    /// with [`CallError::BadLimits`]. A `const fn`, so firmware can size a
    /// `static` workspace at compile time from `const` limits.
    pub const fn workspace_size(&self) -> usize {
        match self.layout() {
            Ok(layout) => layout.total(),
            Err(_) => usize::MAX,
        }
    }

    /// The layout of these limits over a workspace of `buf_len` bytes:
    /// [`CallError::BadLimits`] or [`CallError::WorkspaceTooSmall`].
    pub(crate) const fn layout_in(&self, buf_len: usize) -> Result<Layout, CallError> {
        match self.layout() {
            Ok(layout) => layout.within(buf_len),
            Err(e) => Err(e),
        }
    }

    /// [`CallLimits::layout_in`] for limits a live slot holds (checked by
    /// `layout` when the slot was initialized or restored): the layout is
    /// derived without checking the limits again; only the workspace's
    /// length is checked.
    pub(crate) const fn accepted_layout_in(&self, buf_len: usize) -> Result<Layout, CallError> {
        self.accepted_layout().within(buf_len)
    }

    /// The layout of limits `layout` accepted before, derived without
    /// checking them again ([`Layout::new_accepted`]).
    const fn accepted_layout(&self) -> Layout {
        Layout::new_accepted(
            self.max_params_bytes,
            self.max_inputs_bytes,
            self.max_state_bytes,
            self.max_answers_bytes,
            self.wire.max_input_requests,
        )
    }

    /// The poll interval for a server hint (or none), clamped to
    /// `[min_poll_ms, max_poll_ms]`. Out of line: a task inlined it at
    /// each of its three callers (init, a status, a restore).
    #[inline(never)]
    pub fn poll_interval(&self, hint: Option<u64>) -> u64 {
        hint.unwrap_or(self.default_poll_ms)
            .clamp(self.min_poll_ms, self.max_poll_ms.max(self.min_poll_ms))
    }

    /// The backoff after the `n`-th consecutive state-only round (n >= 1):
    /// `initial * 2^(n-1)`, capped at the ceiling.
    pub fn backoff_ms(&self, n: u32) -> u32 {
        let factor = 1u32.checked_shl(n.saturating_sub(1)).unwrap_or(u32::MAX);
        self.backoff_initial_ms
            .saturating_mul(factor)
            .min(self.backoff_max_ms)
    }
}

/// Limits that passed [`CallLimits::checked`]: what
/// [`Machine::init_checked`](super::Machine::init_checked) takes, so that
/// limits checked once (as the C ABI checks them before it places a call)
/// are not checked again. Only `checked` makes one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckedLimits<'a>(&'a CallLimits);

impl<'a> CheckedLimits<'a> {
    /// The limits.
    pub const fn limits(&self) -> &'a CallLimits {
        self.0
    }

    /// Bytes of workspace a call or task with these limits needs (as
    /// [`CallLimits::workspace_size`]).
    pub const fn workspace_size(&self) -> usize {
        self.0.accepted_layout().total()
    }

    /// The layout over a workspace of `buf_len` bytes (derived without
    /// checking the limits again), or [`CallError::WorkspaceTooSmall`].
    pub(crate) const fn layout_in(&self, buf_len: usize) -> Result<Layout, CallError> {
        self.0.accepted_layout_in(buf_len)
    }
}
