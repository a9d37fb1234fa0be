//! The saved form of a call or task: a versioned postcard record that
//! borrows the workspace regions, so saving copies nothing but the output.
//!
//! Format (version 1), postcard-encoded fields in this order: magic `"MRTR"`,
//! version, kind (call / task), phase, variant (method / dialect), next
//! request (task), flags, counters, ids, then the head, inputs, state and
//! answers regions as length-prefixed bytes. Loading checks the magic, the
//! version, that nothing trails the record; the owner then re-validates every
//! region as if it came from the network (a save file is untrusted input).

use super::call::{CallError, Phase, SaveError};
use serde::{Deserialize, Serialize};

/// First bytes of every save.
pub(crate) const SAVE_MAGIC: [u8; 4] = *b"MRTR";
/// The format version written; loading accepts only this one.
pub(crate) const SAVE_VERSION: u8 = 1;
/// Save of a [`super::call::Call`].
pub(crate) const KIND_CALL: u8 = 1;
/// Save of a [`super::task::TaskCall`].
pub(crate) const KIND_TASK: u8 = 2;

#[derive(Serialize, Deserialize, Debug, PartialEq, Eq)]
pub(crate) struct Saved<'a> {
    pub magic: [u8; 4],
    pub version: u8,
    pub kind: u8,
    pub phase: u8,
    pub variant: u8,
    pub next: u8,
    pub flags: u8,
    pub rounds: u32,
    pub state_only: u32,
    pub polls: u32,
    pub poll_ms: u64,
    pub last_id: Option<i64>,
    pub in_flight: Option<i64>,
    pub head_split: u32,
    pub head: &'a [u8],
    pub inputs: &'a [u8],
    pub state: &'a [u8],
    pub answers: &'a [u8],
}

/// Writes `saved` into `out`, or reports the size needed.
pub(crate) fn save(saved: &Saved<'_>, out: &mut [u8]) -> Result<usize, CallError> {
    let needed = postcard::serialize_with_flavor(saved, postcard::ser_flavors::Size::default())
        .map_err(|_| CallError::BadSave(SaveError::Decode))?;
    if out.len() < needed {
        return Err(CallError::BufferTooSmall { needed });
    }
    postcard::to_slice(saved, out)
        .map(|s| s.len())
        .map_err(|_| CallError::BufferTooSmall { needed })
}

/// Reads a save of `kind`: magic, version, kind and exact length checked.
pub(crate) fn load(bytes: &[u8], kind: u8) -> Result<Saved<'_>, CallError> {
    let (saved, rest) = postcard::take_from_bytes::<Saved<'_>>(bytes)
        .map_err(|_| CallError::BadSave(SaveError::Decode))?;
    if saved.magic != SAVE_MAGIC {
        return Err(CallError::BadSave(SaveError::Decode));
    }
    if saved.version != SAVE_VERSION {
        return Err(CallError::BadSave(SaveError::Version(saved.version)));
    }
    if saved.kind != kind {
        return Err(CallError::BadSave(SaveError::WrongKind));
    }
    if !rest.is_empty() {
        return Err(CallError::BadSave(SaveError::Decode));
    }
    Ok(saved)
}

/// The phase code of a savable phase.
pub(crate) fn phase_code(p: Phase) -> Option<u8> {
    match p {
        Phase::Ready => Some(1),
        Phase::Sent => Some(2),
        Phase::Answering => Some(3),
        Phase::Done | Phase::Failed => None,
    }
}

/// The phase of a phase code.
pub(crate) fn phase_of(code: u8) -> Result<Phase, CallError> {
    match code {
        1 => Ok(Phase::Ready),
        2 => Ok(Phase::Sent),
        3 => Ok(Phase::Answering),
        _ => Err(CallError::BadSave(SaveError::Inconsistent)),
    }
}
