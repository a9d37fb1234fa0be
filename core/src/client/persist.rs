//! The saved form of a call or task: a versioned postcard record that
//! borrows the workspace regions, so saving copies nothing but the output.
//! It is written and read here by hand (postcard 1's exact bytes, checked
//! against postcard by the tests), without serde.
//!
//! Format (version 1), postcard-encoded fields in this order: magic `"MRTR"`,
//! version, kind (call / task), phase, variant (method / dialect), next
//! request (task), flags, counters, ids, then the head, inputs, state and
//! answers regions as length-prefixed bytes. Loading checks the magic, the
//! version, that nothing trails the record; the owner then re-validates every
//! region as if it came from the network (a save file is untrusted input).

use super::errors::{CallError, SaveError, SaveInvariant, SaveRegion};
use super::events::Phase;
use super::exchange::Exchange;
use super::layout::Layout;
use super::limits::CallLimits;
use crate::json::Object;
use crate::wire::{
    ClientCapabilities, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, PROTOCOL_VERSION,
};

/// First bytes of every save.
pub(crate) const SAVE_MAGIC: [u8; 4] = *b"MRTR";
pub(crate) use super::errors::SAVE_VERSION;
/// Save of a [`super::call::Call`].
pub(crate) const KIND_CALL: u8 = 1;
/// Save of a [`super::task::Task`].
pub(crate) const KIND_TASK: u8 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(test, derive(serde::Serialize, serde::Deserialize))]
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
///
/// Encoded by hand in postcard's format (the same bytes as
/// `postcard::to_slice`, checked by a test), and read back by [`decode`]:
/// postcard's varint writer slices `out[..=i]` in a loop the size
/// opt-levels do not unroll, which left a panic path in the image, and its
/// serde reader is generic machinery a device pays for in flash.
pub(crate) fn save(saved: &Saved<'_>, out: &mut [u8]) -> Result<usize, CallError> {
    let needed = encode(saved, &mut []);
    if out.len() < needed {
        return Err(CallError::BufferTooSmall { needed });
    }
    Ok(encode(saved, out))
}

/// A postcard encoder into `out` that counts the full length even when
/// `out` is too short (writing only what fits).
struct Encoder<'o> {
    out: &'o mut [u8],
    len: usize,
}

impl Encoder<'_> {
    fn bytes(&mut self, b: &[u8]) {
        if let Some(dst) = self.out.get_mut(self.len..) {
            crate::bytes::copy(dst, b);
        }
        self.len = self.len.saturating_add(b.len());
    }

    fn byte(&mut self, b: u8) {
        if let Some(dst) = self.out.get_mut(self.len) {
            *dst = b;
        }
        self.len = self.len.saturating_add(1);
    }

    /// LEB128, as postcard writes every unsigned integer wider than u8.
    fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.byte((v as u8) | 0x80);
            v >>= 7;
        }
        self.byte(v as u8);
    }

    /// `None` as 0; `Some(v)` as 1 then the zigzag varint of `v`.
    fn option_i64(&mut self, v: Option<i64>) {
        match v {
            None => self.byte(0),
            Some(v) => {
                self.byte(1);
                self.varint(((v << 1) ^ (v >> 63)) as u64);
            }
        }
    }

    /// Length-prefixed bytes.
    fn slice(&mut self, b: &[u8]) {
        self.varint(b.len() as u64);
        self.bytes(b);
    }
}

/// Encodes `s` (fields in declaration order) into `out`; returns the full
/// length, which is more than `out.len()` when it did not fit.
fn encode(s: &Saved<'_>, out: &mut [u8]) -> usize {
    let mut e = Encoder { out, len: 0 };
    e.bytes(&s.magic);
    for b in [s.version, s.kind, s.phase, s.variant, s.next, s.flags] {
        e.byte(b);
    }
    for v in [s.rounds, s.state_only, s.polls] {
        e.varint(u64::from(v));
    }
    e.varint(s.poll_ms);
    e.option_i64(s.last_id);
    e.option_i64(s.in_flight);
    e.varint(u64::from(s.head_split));
    for region in [s.head, s.inputs, s.state, s.answers] {
        e.slice(region);
    }
    e.len
}

/// Takes the fields of a save from the front of its bytes, as postcard 1
/// reads them.
struct Decoder<'a>(&'a [u8]);

impl<'a> Decoder<'a> {
    fn byte(&mut self) -> Option<u8> {
        let (first, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(*first)
    }

    /// An unsigned LEB128 of a `bits`-wide integer, as postcard reads one:
    /// at most `ceil(bits / 7)` bytes, no bit beyond `bits` set (an
    /// overlong encoding of a small value is accepted, as postcard does).
    fn varint(&mut self, bits: u32) -> Option<u64> {
        let mut out = 0u64;
        for i in 0..bits.div_ceil(7) {
            let b = self.byte()?;
            let part = u64::from(b & 0x7f);
            let shift = 7 * i;
            if shift + (u64::BITS - part.leading_zeros()) > bits {
                return None;
            }
            out |= part << shift;
            if b & 0x80 == 0 {
                return Some(out);
            }
        }
        None
    }

    fn u32(&mut self) -> Option<u32> {
        self.varint(u32::BITS).and_then(|v| u32::try_from(v).ok())
    }

    /// `None` as 0; `Some(v)` as 1 then the zigzag varint of `v`.
    fn option_i64(&mut self) -> Option<Option<i64>> {
        match self.byte()? {
            0 => Some(None),
            1 => {
                let z = self.varint(u64::BITS)?;
                Some(Some(((z >> 1) as i64) ^ -((z & 1) as i64)))
            }
            _ => None,
        }
    }

    /// Length-prefixed bytes (the length a `usize` varint).
    fn slice(&mut self) -> Option<&'a [u8]> {
        let len = usize::try_from(self.varint(usize::BITS)?).ok()?;
        let (head, rest) = self.0.split_at_checked(len)?;
        self.0 = rest;
        Some(head)
    }
}

/// Reads a save's fields (the inverse of [`encode`]) and what trails them.
fn decode(bytes: &[u8]) -> Option<(Saved<'_>, &[u8])> {
    let mut d = Decoder(bytes);
    let (magic, rest) = d.0.split_first_chunk::<4>()?;
    d.0 = rest;
    let saved = Saved {
        magic: *magic,
        version: d.byte()?,
        kind: d.byte()?,
        phase: d.byte()?,
        variant: d.byte()?,
        next: d.byte()?,
        flags: d.byte()?,
        rounds: d.u32()?,
        state_only: d.u32()?,
        polls: d.u32()?,
        poll_ms: d.varint(u64::BITS)?,
        last_id: d.option_i64()?,
        in_flight: d.option_i64()?,
        head_split: d.u32()?,
        head: d.slice()?,
        inputs: d.slice()?,
        state: d.slice()?,
        answers: d.slice()?,
    };
    Some((saved, d.0))
}

/// Reads a save of `kind`: magic, version, kind and exact length checked.
pub(crate) fn load(bytes: &[u8], kind: u8) -> Result<Saved<'_>, CallError> {
    let (saved, rest) = decode(bytes).ok_or(CallError::BadSave(SaveError::Decode))?;
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

/// The kind of a save (magic, version and exact length checked).
pub(crate) fn kind_of(bytes: &[u8]) -> Result<u8, CallError> {
    let (saved, _) = decode(bytes).ok_or(CallError::BadSave(SaveError::Decode))?;
    if saved.kind != KIND_CALL && saved.kind != KIND_TASK {
        return Err(CallError::BadSave(SaveError::WrongKind));
    }
    load(bytes, saved.kind).map(|s| s.kind)
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
        c => Err(CallError::BadSave(SaveError::Invariant(
            SaveInvariant::UnknownPhase(c),
        ))),
    }
}

/// A broken invariant of a save, as the error `restore` returns.
pub(crate) fn broken(i: SaveInvariant) -> CallError {
    CallError::BadSave(SaveError::Invariant(i))
}

/// The start every restore shares: the limits laid out, a workspace of
/// `buf_len` bytes large enough, the save of `kind` read, its phase known
/// and its head within `max_params_bytes`.
pub(crate) fn open<'s>(
    limits: &CallLimits,
    buf_len: usize,
    saved: &'s [u8],
    kind: u8,
) -> Result<(Layout, Saved<'s>, Phase), CallError> {
    // Both results read through a reference: `?` would copy each out whole.
    let laid = limits.layout_in(buf_len);
    let layout = match &laid {
        Ok(layout) => layout,
        Err(e) => return Err(*e),
    };
    // Read through a reference: the save is copied once, into the result.
    let loaded = load(saved, kind);
    let s = match &loaded {
        Ok(s) => s,
        Err(e) => return Err(*e),
    };
    let phase = phase_of(s.phase)?;
    if s.head.len() > limits.max_params_bytes {
        return Err(broken(SaveInvariant::TooLarge {
            region: SaveRegion::Head,
            len: s.head.len(),
            limit: limits.max_params_bytes,
        }));
    }
    Ok((*layout, *s, phase))
}

/// Checks that a saved `_meta` object names [`PROTOCOL_VERSION`], once:
/// another revision, none, a repeated or non-string member is
/// [`SaveInvariant::ProtocolVersion`]. (The call writes the version
/// itself, so a genuine save always carries it.)
pub(crate) fn check_meta_version(meta: Object<'_>) -> Result<(), CallError> {
    match meta.get_unique(META_PROTOCOL_VERSION) {
        Ok(Some(v)) if v.as_str().is_some_and(|v| v.eq_str(PROTOCOL_VERSION)) => Ok(()),
        _ => Err(broken(SaveInvariant::ProtocolVersion)),
    }
}

/// The capabilities a saved `_meta` object declares.
pub(crate) fn caps_of_meta(meta: Object<'_>) -> Option<ClientCapabilities> {
    meta.get_unique(META_CLIENT_CAPABILITIES)
        .ok()
        .flatten()
        .and_then(|c| c.as_object())
        .and_then(|c| ClientCapabilities::parse(c).ok())
}

/// Copies the regions of a save into the workspace `buf` (then
/// [`exchange_of`] describes them). A region larger than its workspace
/// region is [`SaveInvariant::TooLarge`].
pub(crate) fn copy_regions(
    s: &Saved<'_>,
    buf: &mut [u8],
    layout: &Layout,
    limits: &CallLimits,
) -> Result<(), CallError> {
    for (region, bytes, area, limit) in [
        (SaveRegion::Head, s.head, layout.head, layout.head.len),
        (
            SaveRegion::Inputs,
            s.inputs,
            layout.inputs,
            limits.max_inputs_bytes,
        ),
        (
            SaveRegion::State,
            s.state,
            layout.state,
            limits.max_state_bytes,
        ),
        (
            SaveRegion::Answers,
            s.answers,
            layout.answers,
            layout.answers.len,
        ),
    ] {
        let too_large = CallError::BadSave(SaveError::Invariant(SaveInvariant::TooLarge {
            region,
            len: bytes.len(),
            limit,
        }));
        if bytes.len() > limit {
            return Err(too_large);
        }
        let dst = area
            .tail_mut(buf, 0)
            .get_mut(..bytes.len())
            .ok_or(too_large)?;
        crate::bytes::copy(dst, bytes);
    }
    Ok(())
}

/// The exchange the regions of a save describe, once [`copy_regions`]
/// placed them (counts not yet derived: the owner runs
/// [`Exchange::check_invariants`] next). Infallible, so it is built where
/// it is used rather than copied out of a result.
pub(crate) fn exchange_of(s: &Saved<'_>) -> Exchange {
    Exchange {
        inputs_len: s.inputs.len(),
        state_len: s.state.len(),
        answers_len: s.answers.len(),
        rounds: s.rounds,
        last_id: s.last_id,
        in_flight: s.in_flight,
        ..Exchange::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hand_encoder_writes_postcard_bytes() {
        let head = [7u8; 200];
        let big = std::vec![0xA5u8; 20_000];
        let cases = [
            Saved {
                magic: SAVE_MAGIC,
                version: SAVE_VERSION,
                kind: KIND_CALL,
                phase: 0,
                variant: 0,
                next: 0,
                flags: 0,
                rounds: 0,
                state_only: 0,
                polls: 0,
                poll_ms: 0,
                last_id: None,
                in_flight: None,
                head_split: 0,
                head: &[],
                inputs: &[],
                state: &[],
                answers: &[],
            },
            Saved {
                magic: *b"XYZW",
                version: 255,
                kind: KIND_TASK,
                phase: 3,
                variant: 200,
                next: 1,
                flags: 0x81,
                rounds: 127,
                state_only: 128,
                polls: u32::MAX,
                poll_ms: u64::MAX,
                last_id: Some(i64::MIN),
                in_flight: Some(-1),
                head_split: 16_384,
                head: &head,
                inputs: b"{}",
                state: &big,
                answers: b"x",
            },
            Saved {
                magic: SAVE_MAGIC,
                version: 1,
                kind: 1,
                phase: 1,
                variant: 1,
                next: 1,
                flags: 1,
                rounds: 300,
                state_only: 1,
                polls: 2,
                poll_ms: 1 << 35,
                last_id: Some(i64::MAX),
                in_flight: Some(0),
                head_split: 1,
                head: b"h",
                inputs: &big[..128],
                state: &big[..127],
                answers: &[],
            },
        ];
        for saved in &cases {
            let mut want = std::vec![0u8; 30_000];
            let n = postcard::to_slice(saved, &mut want).unwrap().len();
            let mut got = std::vec![0u8; 30_000];
            assert_eq!(save(saved, &mut got), Ok(n));
            assert_eq!(got[..n], want[..n]);
            assert_eq!(
                save(saved, &mut got[..n - 1]),
                Err(CallError::BufferTooSmall { needed: n })
            );
            let kind = saved.kind;
            if saved.magic == SAVE_MAGIC && saved.version == SAVE_VERSION {
                assert_eq!(load(&got[..n], kind).as_ref(), Ok(saved));
            }
            let (read, rest) = both_decode(&got[..n]).unwrap();
            assert_eq!(&read, saved);
            assert!(rest.is_empty());
            // Every truncation and a trailing byte, read alike by both.
            for cut in (0..n).step_by(7).chain([n - 1]) {
                both_decode(&got[..cut]);
            }
            let mut longer = got[..n].to_vec();
            longer.push(9);
            assert_eq!(both_decode(&longer).map(|(_, rest)| rest), Some(&[9u8][..]));
        }
    }

    /// Decodes with the hand decoder and with postcard; both must agree on
    /// whether the bytes are a save, on its fields and on what trails it.
    fn both_decode(bytes: &[u8]) -> Option<(Saved<'_>, &[u8])> {
        let own = decode(bytes);
        let reference = postcard::take_from_bytes::<Saved<'_>>(bytes).ok();
        assert_eq!(own, reference, "decoders disagree on {bytes:02x?}");
        own
    }

    fn save_of(s: &Saved<'_>) -> std::vec::Vec<u8> {
        let mut out = std::vec![0u8; 1024];
        let n = save(s, &mut out).unwrap();
        out.truncate(n);
        out
    }

    #[test]
    fn the_hand_decoder_reads_and_refuses_what_postcard_does() {
        let mut saved = Saved {
            magic: SAVE_MAGIC,
            version: SAVE_VERSION,
            kind: KIND_CALL,
            phase: 2,
            variant: 1,
            next: 0,
            flags: 3,
            rounds: 2,
            state_only: 0,
            polls: 0,
            poll_ms: 0,
            last_id: Some(5),
            in_flight: Some(-6),
            head_split: 4,
            head: b"head",
            inputs: b"{}",
            state: b"st",
            answers: b"[]",
        };
        let good = save_of(&saved);
        // Every byte of a valid save set to every value.
        for i in 0..good.len() {
            for v in 0..=255u8 {
                let mut b = good.clone();
                b[i] = v;
                both_decode(&b);
            }
        }
        // Varints at their widths: u32 fields (5 bytes, last <= 0x0f), u64
        // (10 bytes, last <= 0x01), overlong but in range, too long.
        let at = 4 + 6; // rounds
        for tail in [
            &[0x80, 0x80, 0x80, 0x80, 0x0f][..],
            &[0x80, 0x80, 0x80, 0x80, 0x10],
            &[0x80, 0x80, 0x80, 0x80, 0x80, 0x00],
            &[0x81, 0x00],
        ] {
            let b = [&good[..at], tail, &good[at + 1..]].concat();
            both_decode(&b);
        }
        saved.poll_ms = u64::MAX;
        saved.last_id = Some(i64::MIN);
        let wide = save_of(&saved);
        assert!(both_decode(&wide).is_some());
        let pm = 4 + 6 + 3; // poll_ms
        let mut over = wide.clone();
        over[pm + 9] = 0x02;
        assert_eq!(both_decode(&over), None);
    }

    proptest::proptest! {
        #[test]
        fn the_hand_decoder_agrees_with_postcard_on_any_bytes(
            tail in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..80),
            keep in 0usize..24,
        ) {
            // A valid prefix of a save, then arbitrary bytes.
            let mut out = std::vec![0u8; 256];
            let saved = Saved {
                magic: SAVE_MAGIC, version: SAVE_VERSION, kind: KIND_TASK, phase: 1,
                variant: 0, next: 1, flags: 0, rounds: 1, state_only: 1, polls: 9,
                poll_ms: 1000, last_id: None, in_flight: Some(1), head_split: 0,
                head: b"", inputs: b"", state: b"", answers: b"",
            };
            let n = save(&saved, &mut out).unwrap();
            let bytes = [&out[..keep.min(n)], &tail[..]].concat();
            both_decode(&bytes);
        }
    }
}
