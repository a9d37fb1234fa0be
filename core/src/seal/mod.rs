//! Sealing `requestState`: an encrypted, authenticated, bound and expiring
//! token that only the server's key ring can open.
//!
//! The client holds `requestState` between legs and echoes it back, so what
//! comes back is client-supplied input: it can be modified, expired, or lifted
//! from another call. A [`Sealer`] turns the application's own state bytes
//! into a token and checks every echo.
//!
//! # Token format
//!
//! ```text
//! token = "m1." || base64url_nopad( kid[4] || nonce[24] || ciphertext || tag[16] )
//! AEAD  = XChaCha20-Poly1305, associated data = "m1." || kid || audience
//! ```
//!
//! The plaintext is a postcard-encoded claims record:
//!
//! | field       | encoding                    | meaning                                   |
//! |-------------|-----------------------------|-------------------------------------------|
//! | version     | `u8` = 1                    | claims format                             |
//! | iat         | `u64` LE, fixed 8 bytes     | issued at (unix seconds)                  |
//! | exp         | `u64` LE, fixed 8 bytes     | expires at = iat + ttl                    |
//! | audience    | 32 bytes                    | SHA-256(audience)                         |
//! | binding     | 32 bytes                    | [`binding_digest`] of the request         |
//! | principal   | `Option<[u8; 32]>`          | SHA-256(principal), if one is bound       |
//! | state       | varint length + bytes       | the application's state                   |
//!
//! Fixed-width integers make the token length a function of the state length
//! and of whether a principal is bound: [`token_len`] is exact, and
//! [`sealed_len`] is the bound to size buffers with (the length with a
//! principal).
//!
//! # Keys
//!
//! Each input key (at least [`MIN_KEY_BYTES`]) is turned into the AEAD key
//! `SHA-256("mrtr requestState v1\0" || key)`; its key id is the first four
//! bytes of `SHA-256("mrtr kid v1\0" || derived key)`. `keys[0]` seals; every
//! key unseals, chosen by the token's key id, so a token under an unknown key
//! is rejected before any AEAD work and no key is ever tried in turn.
//! Rotation without dropping in-flight tokens is three roll-outs:
//! `[OLD, NEW]`, then `[NEW, OLD]`, then, one TTL later, `[NEW]`.
//!
//! # Sans-IO
//!
//! Nothing here reads a clock or draws randomness: the caller passes `now`
//! (unix seconds) and 24 nonce bytes, which must come from a CSPRNG (random
//! 24-byte nonces make a repeat under one key negligible).
//!
//! # Errors on the wire
//!
//! Every [`UnsealError`] is answered with the one JSON-RPC error
//! ([`UnsealError::WIRE_CODE`], [`UnsealError::WIRE_MESSAGE`]) so the wire
//! never reveals which check failed; [`UnsealError::reason`] is for the log.

mod base64;
mod canon;

#[cfg(test)]
mod tests;

pub use canon::{
    binding_digest, write_canonical, CanonError, MAX_CANON_DEPTH, MAX_CANON_MEMBERS,
    MAX_CANON_OPEN_MEMBERS,
};

use chacha20poly1305::aead::{AeadInOut, KeyInit};
use chacha20poly1305::{Tag, XChaCha20Poly1305, XNonce};
use serde::{Deserialize, Serialize, Serializer};
use sha2::{Digest, Sha256};

/// Most keys a [`Sealer`] holds.
pub const MAX_KEYS: usize = 8;
/// Shortest input key accepted, in bytes.
pub const MIN_KEY_BYTES: usize = 32;
/// Longest audience accepted, in bytes.
pub const MAX_AUDIENCE_BYTES: usize = 256;
/// Default lifetime of a token: 600 seconds.
pub const DEFAULT_TTL_SECONDS: u64 = 600;
/// Default allowance for clocks that disagree between instances: 60 seconds.
pub const DEFAULT_CLOCK_SKEW_SECONDS: u64 = 60;
/// Default largest token, in bytes of token text: 4 KiB.
pub const DEFAULT_MAX_TOKEN_BYTES: usize = 4096;
/// The token's text prefix, which also names the format version.
pub const TOKEN_PREFIX: &[u8] = b"m1.";
/// Size of the nonce the caller supplies for each seal.
pub const NONCE_BYTES: usize = 24;

/// Domain label of the AEAD key derivation.
const KEY_LABEL: &[u8] = b"mrtr requestState v1\0";
/// Domain label of the key id derivation.
const KID_LABEL: &[u8] = b"mrtr kid v1\0";
/// The claims format version.
const CLAIMS_VERSION: u8 = 1;

const KID_BYTES: usize = 4;
const TAG_BYTES: usize = 16;
/// kid + nonce: the bytes before the ciphertext.
const HEADER_BYTES: usize = KID_BYTES + NONCE_BYTES;
/// Claims bytes before the state's length prefix:
/// version 1 + iat 8 + exp 8 + audience 32 + binding 32 + principal tag 1.
const CLAIMS_FIXED_BYTES: usize = 1 + 8 + 8 + 32 + 32 + 1;
/// The principal digest, when one is bound.
const PRINCIPAL_BYTES: usize = 32;
/// Associated data: prefix + kid + audience.
const AD_MAX_BYTES: usize = TOKEN_PREFIX.len() + KID_BYTES + MAX_AUDIENCE_BYTES;
/// The smallest decoded token: header, claims with empty state, tag.
const MIN_BINARY_BYTES: usize = HEADER_BYTES + CLAIMS_FIXED_BYTES + 1 + TAG_BYTES;

/// Bytes of the varint that postcard writes for a length.
const fn varint_len(mut n: usize) -> usize {
    let mut len = 1;
    while n >= 0x80 {
        n >>= 7;
        len += 1;
    }
    len
}

const fn plaintext_len(state_len: usize, principal: bool) -> usize {
    CLAIMS_FIXED_BYTES
        .saturating_add(if principal { PRINCIPAL_BYTES } else { 0 })
        .saturating_add(varint_len(state_len))
        .saturating_add(state_len)
}

const fn binary_len(state_len: usize, principal: bool) -> usize {
    HEADER_BYTES
        .saturating_add(plaintext_len(state_len, principal))
        .saturating_add(TAG_BYTES)
}

/// Exact length, in bytes of token text, of a token carrying `state_len`
/// bytes of application state, with or without a bound principal
/// (saturating at `usize::MAX`).
pub const fn token_len(state_len: usize, principal: bool) -> usize {
    TOKEN_PREFIX
        .len()
        .saturating_add(base64::encoded_len(binary_len(state_len, principal)))
}

/// Buffer size that holds any token carrying `state_len` bytes of state:
/// [`token_len`]`(state_len, true)`. Without a principal the token is
/// 42 or 43 bytes shorter.
pub const fn sealed_len(state_len: usize) -> usize {
    token_len(state_len, true)
}

/// Scratch bytes [`Sealer::unseal`] needs for a token of `token_len` bytes:
/// its decoded length, which is under `token_len`. A scratch as long as the
/// token, or as [`SealConfig::max_token_bytes`], always suffices.
pub const fn unseal_scratch_len(token_len: usize) -> usize {
    let body = token_len.saturating_sub(TOKEN_PREFIX.len());
    match base64::decoded_len(body) {
        Some(n) => n,
        // Such a token is rejected as malformed before the scratch is used.
        None => (body / 4) * 3,
    }
}

/// Tunables of a [`Sealer`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SealConfig {
    /// Lifetime of a token in seconds: `exp = now + ttl_seconds`. Every round
    /// re-seals, so this bounds think time per round, not the whole flow.
    /// Default [`DEFAULT_TTL_SECONDS`].
    pub ttl_seconds: u64,
    /// Allowance for clock disagreement between the sealing and the
    /// unsealing instance, applied to both expiry and issue time. Default
    /// [`DEFAULT_CLOCK_SKEW_SECONDS`].
    pub clock_skew_seconds: u64,
    /// Largest token in bytes of text, on both sides: sealing a state that
    /// would exceed it fails, and a longer token is rejected before it is
    /// decoded. Must be at least [`sealed_len`]`(0)`. Default
    /// [`DEFAULT_MAX_TOKEN_BYTES`].
    pub max_token_bytes: usize,
}

impl Default for SealConfig {
    fn default() -> Self {
        SealConfig {
            ttl_seconds: DEFAULT_TTL_SECONDS,
            clock_skew_seconds: DEFAULT_CLOCK_SKEW_SECONDS,
            max_token_bytes: DEFAULT_MAX_TOKEN_BYTES,
        }
    }
}

/// Why a [`Sealer`] could not be built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyError {
    /// The key list is empty: there is nothing to seal with.
    NoKeys,
    /// More than [`MAX_KEYS`] keys.
    TooManyKeys {
        /// How many keys were given.
        count: usize,
    },
    /// A key is shorter than [`MIN_KEY_BYTES`].
    KeyTooShort {
        /// Position of the key in the list.
        index: usize,
        /// Its length in bytes.
        len: usize,
    },
    /// Two keys have the same key id (most likely the same key twice), so a
    /// token could not name which one sealed it.
    DuplicateKeyId {
        /// Position of the later key.
        index: usize,
        /// Position of the earlier key with the same id.
        earlier: usize,
    },
    /// The audience is empty: it must name the service.
    EmptyAudience,
    /// The audience is longer than [`MAX_AUDIENCE_BYTES`].
    AudienceTooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// [`SealConfig::max_token_bytes`] cannot hold even a token with no
    /// state.
    MaxTokenTooSmall {
        /// The smallest workable limit, [`sealed_len`]`(0)`.
        needed: usize,
    },
}

impl KeyError {
    /// A short, stable description for logs.
    pub fn reason(&self) -> &'static str {
        match self {
            KeyError::NoKeys => "no keys given",
            KeyError::TooManyKeys { .. } => "more keys than MAX_KEYS",
            KeyError::KeyTooShort { .. } => "key shorter than MIN_KEY_BYTES",
            KeyError::DuplicateKeyId { .. } => "two keys share a key id",
            KeyError::EmptyAudience => "audience is empty",
            KeyError::AudienceTooLong { .. } => "audience longer than MAX_AUDIENCE_BYTES",
            KeyError::MaxTokenTooSmall { .. } => "max_token_bytes cannot hold an empty token",
        }
    }
}

impl core::fmt::Display for KeyError {
    /// [`KeyError::reason`], then the numbers the variant carries.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.reason())?;
        match self {
            KeyError::NoKeys | KeyError::EmptyAudience => Ok(()),
            KeyError::TooManyKeys { count } => {
                write!(f, ": {count} given, at most {MAX_KEYS}")
            }
            KeyError::KeyTooShort { index, len } => {
                write!(f, ": key {index} has {len} bytes, at least {MIN_KEY_BYTES}")
            }
            KeyError::DuplicateKeyId { index, earlier } => {
                write!(f, ": key {index} and key {earlier}")
            }
            KeyError::AudienceTooLong { len } => {
                write!(f, ": {len} bytes, at most {MAX_AUDIENCE_BYTES}")
            }
            KeyError::MaxTokenTooSmall { needed } => {
                write!(f, ": needs at least {needed} bytes")
            }
        }
    }
}

impl core::error::Error for KeyError {}

/// Why [`Sealer::seal`] wrote no token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SealError {
    /// The token would be longer than [`SealConfig::max_token_bytes`].
    TooLarge {
        /// Length of the token this state needs ([`token_len`]).
        needed: usize,
        /// The configured maximum.
        max: usize,
    },
    /// `out` is shorter than the token.
    BufferTooSmall {
        /// Exact length of the token.
        needed: usize,
    },
}

impl SealError {
    /// A short, stable description for logs.
    pub fn reason(&self) -> &'static str {
        match self {
            SealError::TooLarge { .. } => "state too large for the maximum token size",
            SealError::BufferTooSmall { .. } => "output buffer too small for the token",
        }
    }
}

impl core::fmt::Display for SealError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SealError::TooLarge { needed, max } => {
                write!(f, "{}: needs {needed} bytes, max {max}", self.reason())
            }
            SealError::BufferTooSmall { needed } => {
                write!(f, "{}: needs {needed} bytes", self.reason())
            }
        }
    }
}

impl core::error::Error for SealError {}

/// Why an echoed `requestState` was refused. Every variant goes to the wire
/// as the same error ([`Self::WIRE_CODE`], [`Self::WIRE_MESSAGE`]); the
/// variant is for the server's log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnsealError {
    /// Not a token of this format: wrong prefix, bad or non-canonical
    /// base64url, impossible length, or claims that do not decode.
    Malformed,
    /// Longer than [`SealConfig::max_token_bytes`]; rejected before decoding.
    TooLarge,
    /// Sealed under a key id that is not in the key ring (a retired key, a
    /// sibling with other keys, or a forgery). No decryption was attempted.
    UnknownKey,
    /// Authentication failed: the token was modified, or sealed for another
    /// audience under the same key.
    Tampered,
    /// Past its expiry (plus the clock skew allowance).
    Expired,
    /// Issued in the future (beyond the clock skew allowance).
    NotYetValid,
    /// The audience claim names another service. The audience is also in the
    /// associated data, so a token another service sealed under a shared key
    /// already fails as [`UnsealError::Tampered`]; this check is the second
    /// line.
    WrongAudience,
    /// Replayed against another method, target or arguments.
    WrongRequest,
    /// Presented by another principal, or with a principal when sealed
    /// without one, or without one when sealed with one.
    WrongPrincipal,
    /// The scratch buffer is shorter than [`unseal_scratch_len`] of the token.
    BufferTooSmall {
        /// Scratch bytes needed.
        needed: usize,
    },
}

impl UnsealError {
    /// The JSON-RPC error code every failure is answered with.
    pub const WIRE_CODE: i64 = -32602;
    /// The one message every failure is answered with.
    pub const WIRE_MESSAGE: &'static str = "Invalid or expired requestState";

    /// The precise cause, for the server's log (never for the wire).
    pub fn reason(&self) -> &'static str {
        match self {
            UnsealError::Malformed => "malformed token",
            UnsealError::TooLarge => "token larger than the maximum",
            UnsealError::UnknownKey => "token sealed under an unknown key",
            UnsealError::Tampered => "token failed authentication",
            UnsealError::Expired => "token expired",
            UnsealError::NotYetValid => "token issued in the future",
            UnsealError::WrongAudience => "token sealed for another audience",
            UnsealError::WrongRequest => "token bound to another request",
            UnsealError::WrongPrincipal => "token bound to another principal",
            UnsealError::BufferTooSmall { .. } => "scratch buffer too small",
        }
    }
}

impl core::fmt::Display for UnsealError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.reason())
    }
}

impl core::error::Error for UnsealError {}

/// One derived key of the ring.
#[derive(Clone)]
struct RingKey {
    kid: [u8; KID_BYTES],
    key: [u8; 32],
}

/// A key ring plus audience and limits: seals and unseals `requestState`.
///
/// Holds everything by value (no borrows, no heap), so it can live anywhere,
/// including caller memory behind a C ABI. Build it once and share it: both
/// operations take `&self`.
#[derive(Clone)]
pub struct Sealer {
    keys: heapless::Vec<RingKey, MAX_KEYS>,
    /// `"m1." || kid || audience`, with the kid slot filled per operation.
    associated_data: [u8; AD_MAX_BYTES],
    associated_data_len: usize,
    audience_digest: [u8; 32],
    config: SealConfig,
    max_state_len: usize,
}

impl core::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Key material stays out of logs; key ids identify the ring.
        struct KeyIds<'a>(&'a [RingKey]);
        impl core::fmt::Debug for KeyIds<'_> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_list()
                    .entries(self.0.iter().map(|k| k.kid))
                    .finish()
            }
        }
        f.debug_struct("Sealer")
            .field("key_ids", &KeyIds(&self.keys))
            .field("audience_len", &self.audience().len())
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

fn sha256(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

/// Compares digests without an early exit.
fn digests_equal(a: &[u8; 32], b: &[u8; 32]) -> bool {
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// `serde` writes `&[u8]` element by element; this writes it as one run of
/// bytes (postcard's encoding is the same: varint length, then the bytes).
fn serialize_bytes<S: Serializer>(bytes: &&[u8], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_bytes(bytes)
}

/// The sealed claims (see the module documentation for the layout).
#[derive(Serialize, Deserialize)]
struct Claims<'a> {
    version: u8,
    #[serde(with = "postcard::fixint::le")]
    iat: u64,
    #[serde(with = "postcard::fixint::le")]
    exp: u64,
    audience: [u8; 32],
    binding: [u8; 32],
    principal: Option<[u8; 32]>,
    #[serde(borrow, serialize_with = "serialize_bytes")]
    state: &'a [u8],
}

impl Sealer {
    /// Builds a sealer. `keys[0]` seals; every key unseals. Each key must be
    /// at least [`MIN_KEY_BYTES`] of secret, high-entropy bytes; at most
    /// [`MAX_KEYS`]. `audience` (1 to [`MAX_AUDIENCE_BYTES`] bytes) names the
    /// service, so a token minted by another service that shares a key is
    /// still refused.
    pub fn new(keys: &[&[u8]], audience: &[u8], config: SealConfig) -> Result<Sealer, KeyError> {
        if keys.is_empty() {
            return Err(KeyError::NoKeys);
        }
        if keys.len() > MAX_KEYS {
            return Err(KeyError::TooManyKeys { count: keys.len() });
        }
        if audience.is_empty() {
            return Err(KeyError::EmptyAudience);
        }
        if audience.len() > MAX_AUDIENCE_BYTES {
            return Err(KeyError::AudienceTooLong {
                len: audience.len(),
            });
        }
        let min_token = sealed_len(0);
        if config.max_token_bytes < min_token {
            return Err(KeyError::MaxTokenTooSmall { needed: min_token });
        }
        let mut ring = heapless::Vec::<RingKey, MAX_KEYS>::new();
        for (index, input) in keys.iter().enumerate() {
            if input.len() < MIN_KEY_BYTES {
                return Err(KeyError::KeyTooShort {
                    index,
                    len: input.len(),
                });
            }
            let key = sha256(&[KEY_LABEL, input]);
            let id = sha256(&[KID_LABEL, &key]);
            let kid = [id[0], id[1], id[2], id[3]];
            if let Some(earlier) = ring.iter().position(|k| k.kid == kid) {
                return Err(KeyError::DuplicateKeyId { index, earlier });
            }
            if ring.push(RingKey { kid, key }).is_err() {
                return Err(KeyError::TooManyKeys { count: keys.len() });
            }
        }
        let mut associated_data = [0u8; AD_MAX_BYTES];
        let associated_data_len = TOKEN_PREFIX.len() + KID_BYTES + audience.len();
        if let Some(dst) = associated_data.get_mut(..TOKEN_PREFIX.len()) {
            dst.copy_from_slice(TOKEN_PREFIX);
        }
        if let Some(dst) =
            associated_data.get_mut(TOKEN_PREFIX.len() + KID_BYTES..associated_data_len)
        {
            dst.copy_from_slice(audience);
        }
        Ok(Sealer {
            keys: ring,
            associated_data,
            associated_data_len,
            audience_digest: sha256(&[audience]),
            config,
            max_state_len: max_state_for(config.max_token_bytes),
        })
    }

    /// The configuration this sealer was built with.
    pub fn config(&self) -> &SealConfig {
        &self.config
    }

    /// The audience this sealer seals for and accepts.
    pub fn audience(&self) -> &[u8] {
        self.associated_data
            .get(TOKEN_PREFIX.len() + KID_BYTES..self.associated_data_len)
            .unwrap_or(&[])
    }

    /// Key ids of the ring, sealing key first (for logs and diagnostics).
    pub fn key_ids(&self) -> impl Iterator<Item = [u8; 4]> + '_ {
        self.keys.iter().map(|k| k.kid)
    }

    /// The most application state bytes one token can carry under
    /// [`SealConfig::max_token_bytes`], principal or not (without a principal
    /// up to 24 bytes more may fit; [`Sealer::seal`] checks the exact size).
    pub fn max_state_len(&self) -> usize {
        self.max_state_len
    }

    /// `"m1." || kid || audience`, on the stack.
    fn associated_data(&self, kid: &[u8; KID_BYTES]) -> ([u8; AD_MAX_BYTES], usize) {
        let mut ad = self.associated_data;
        if let Some(slot) = ad.get_mut(TOKEN_PREFIX.len()..TOKEN_PREFIX.len() + KID_BYTES) {
            slot.copy_from_slice(kid);
        }
        (ad, self.associated_data_len)
    }

    /// Seals `state` into a token written at the start of `out`; returns its
    /// length, which is always [`token_len`]`(state.len(), principal.is_some())`
    /// and at most [`sealed_len`]`(state.len())`.
    ///
    /// `now` is the current unix time in seconds; `nonce` must be 24 fresh
    /// bytes from a CSPRNG. `binding` is the [`binding_digest`] of the request
    /// being answered; `principal` identifies the authenticated caller (for
    /// example issuer, client and subject of a validated access token), or
    /// `None` when there is none. Nothing is written on error.
    pub fn seal(
        &self,
        now: u64,
        nonce: &[u8; NONCE_BYTES],
        binding: &[u8; 32],
        principal: Option<&[u8]>,
        state: &[u8],
        out: &mut [u8],
    ) -> Result<usize, SealError> {
        let bound = principal.is_some();
        let total = token_len(state.len(), bound);
        if total > self.config.max_token_bytes {
            return Err(SealError::TooLarge {
                needed: total,
                max: self.config.max_token_bytes,
            });
        }
        let Some(out) = out.get_mut(..total) else {
            return Err(SealError::BufferTooSmall { needed: total });
        };
        let Some(key) = self.keys.first() else {
            // A Sealer always has a key (checked in `new`).
            return Err(SealError::BufferTooSmall { needed: total });
        };
        let claims = Claims {
            version: CLAIMS_VERSION,
            iat: now,
            exp: now.saturating_add(self.config.ttl_seconds),
            audience: self.audience_digest,
            binding: *binding,
            principal: principal.map(|p| sha256(&[p])),
            state,
        };

        // The binary token goes at the end of `out` and is then base64url
        // encoded in place towards the front: the state is copied once (into
        // the plaintext) and encrypted where it lies.
        let bin_len = binary_len(state.len(), bound);
        // total = 3 + encoded_len(bin_len) > bin_len
        let Some(bin_start) = total.checked_sub(bin_len) else {
            return Err(SealError::BufferTooSmall { needed: total });
        };
        let Some((_, bin)) = out.split_at_mut_checked(bin_start) else {
            return Err(SealError::BufferTooSmall { needed: total });
        };
        let Some((header, rest)) = bin.split_at_mut_checked(HEADER_BYTES) else {
            return Err(SealError::BufferTooSmall { needed: total });
        };
        let Some((plaintext, tag_out)) =
            rest.split_at_mut_checked(plaintext_len(state.len(), bound))
        else {
            return Err(SealError::BufferTooSmall { needed: total });
        };
        let Some((kid_out, nonce_out)) = header.split_at_mut_checked(KID_BYTES) else {
            return Err(SealError::BufferTooSmall { needed: total });
        };
        kid_out.copy_from_slice(&key.kid);
        nonce_out.copy_from_slice(nonce);
        if postcard::to_slice(&claims, plaintext).is_err() {
            // Unreachable: the slice is exactly the claims' encoded length.
            return Err(SealError::BufferTooSmall { needed: total });
        }
        let (ad, ad_len) = self.associated_data(&key.kid);
        let cipher = XChaCha20Poly1305::new(&key.key.into());
        let Ok(tag) = cipher.encrypt_inout_detached(
            &XNonce::from(*nonce),
            ad.get(..ad_len).unwrap_or(&[]),
            plaintext.into(),
        ) else {
            // Unreachable: XChaCha20 rejects only messages of 256 GiB and more.
            return Err(SealError::TooLarge {
                needed: total,
                max: self.config.max_token_bytes,
            });
        };
        // Both are TAG_BYTES long; a zip copies without a length-mismatch
        // panic path.
        for (dst, src) in tag_out.iter_mut().zip(tag.as_slice()) {
            *dst = *src;
        }

        if !base64::encode_in_place(out, bin_start, TOKEN_PREFIX.len()) {
            // Unreachable: the layout above satisfies the precondition.
            return Err(SealError::BufferTooSmall { needed: total });
        }
        if let Some(prefix) = out.get_mut(..TOKEN_PREFIX.len()) {
            prefix.copy_from_slice(TOKEN_PREFIX);
        }
        Ok(total)
    }

    /// Checks a token and returns the application state it carries, decoded
    /// and decrypted in `scratch` (at least [`unseal_scratch_len`]`(token.len())`
    /// bytes; `max_token_bytes` always suffices).
    ///
    /// `now`, `binding` and `principal` are those of the request that echoed
    /// the token. The checks run in this order, each failing with its own
    /// [`UnsealError`]: size (before any decoding), prefix, strict base64url,
    /// length, key id, authentication, claims decoding and version, audience,
    /// expiry (`now > exp + skew`), issue time (`iat > now + skew`), request
    /// binding, principal.
    pub fn unseal<'o>(
        &self,
        now: u64,
        token: &[u8],
        binding: &[u8; 32],
        principal: Option<&[u8]>,
        scratch: &'o mut [u8],
    ) -> Result<&'o [u8], UnsealError> {
        if token.len() > self.config.max_token_bytes {
            return Err(UnsealError::TooLarge);
        }
        let body = token
            .strip_prefix(TOKEN_PREFIX)
            .ok_or(UnsealError::Malformed)?;
        let bin_len = base64::decoded_len(body.len()).ok_or(UnsealError::Malformed)?;
        if scratch.len() < bin_len {
            return Err(UnsealError::BufferTooSmall { needed: bin_len });
        }
        if base64::decode(body, scratch) != Some(bin_len) {
            return Err(UnsealError::Malformed);
        }
        if bin_len < MIN_BINARY_BYTES {
            return Err(UnsealError::Malformed);
        }
        let bin = scratch.get_mut(..bin_len).ok_or(UnsealError::Malformed)?;
        let (header, rest) = bin
            .split_at_mut_checked(HEADER_BYTES)
            .ok_or(UnsealError::Malformed)?;
        let (ciphertext, tag) = rest
            .split_at_mut_checked(rest.len().saturating_sub(TAG_BYTES))
            .ok_or(UnsealError::Malformed)?;
        let (kid, nonce) = header
            .split_at_checked(KID_BYTES)
            .ok_or(UnsealError::Malformed)?;
        let kid: [u8; KID_BYTES] = kid.try_into().map_err(|_| UnsealError::Malformed)?;
        let key = self
            .keys
            .iter()
            .find(|k| k.kid == kid)
            .ok_or(UnsealError::UnknownKey)?;
        let nonce = XNonce::try_from(nonce).map_err(|_| UnsealError::Malformed)?;
        let tag = Tag::try_from(&*tag).map_err(|_| UnsealError::Malformed)?;
        let (ad, ad_len) = self.associated_data(&kid);
        XChaCha20Poly1305::new(&key.key.into())
            .decrypt_inout_detached(
                &nonce,
                ad.get(..ad_len).unwrap_or(&[]),
                ciphertext.into(),
                &tag,
            )
            .map_err(|_| UnsealError::Tampered)?;

        let scratch: &'o [u8] = scratch;
        let plaintext = scratch
            .get(HEADER_BYTES..bin_len.saturating_sub(TAG_BYTES))
            .ok_or(UnsealError::Malformed)?;
        // Only a holder of the key can produce these bytes, so a claims record
        // that does not decode comes from another format version.
        if plaintext.first() != Some(&CLAIMS_VERSION) {
            return Err(UnsealError::Malformed);
        }
        let (claims, trailing) = postcard::take_from_bytes::<Claims<'o>>(plaintext)
            .map_err(|_| UnsealError::Malformed)?;
        if !trailing.is_empty() {
            return Err(UnsealError::Malformed);
        }
        if !digests_equal(&claims.audience, &self.audience_digest) {
            return Err(UnsealError::WrongAudience);
        }
        if now > claims.exp.saturating_add(self.config.clock_skew_seconds) {
            return Err(UnsealError::Expired);
        }
        if claims.iat > now.saturating_add(self.config.clock_skew_seconds) {
            return Err(UnsealError::NotYetValid);
        }
        if !digests_equal(&claims.binding, binding) {
            return Err(UnsealError::WrongRequest);
        }
        let principal_matches = match (principal, &claims.principal) {
            (None, None) => true,
            (Some(p), Some(sealed)) => digests_equal(sealed, &sha256(&[p])),
            _ => false,
        };
        if !principal_matches {
            return Err(UnsealError::WrongPrincipal);
        }
        Ok(claims.state)
    }
}

/// The largest state whose token fits in `max_token_bytes`.
fn max_state_for(max_token_bytes: usize) -> usize {
    // sealed_len is monotonic: binary search the last state length that fits.
    let (mut lo, mut hi) = (0usize, max_token_bytes);
    if sealed_len(0) > max_token_bytes {
        return 0;
    }
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if sealed_len(mid) <= max_token_bytes {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}
