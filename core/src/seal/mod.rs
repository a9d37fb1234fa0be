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
//! token = "m2." || base64url_nopad( kid[4] || nonce[24] || ciphertext || tag[16] )
//! AEAD  = XChaCha20-Poly1305, associated data = "m2." || kid || audience
//! nonce = HMAC-SHA-256( K_siv, "mrtr requestState v2 siv\0" || caller_nonce[24]
//!                              || len(AD) as u16 LE || AD || plaintext )[0..24]
//! ```
//!
//! [`Sealer::unseal`] checks the Poly1305 tag under the encryption key and
//! the nonce the token carries, then the claims; it does not recompute the
//! synthetic nonce. The tag authenticates the key id, the nonce, the
//! associated data and the ciphertext, so a token that passes was made by a
//! holder of the key; forging one is a Poly1305 forgery. The synthetic
//! nonce does its work when sealing (below); docs/ARCHITECTURE.md,
//! "Sealing requestState", gives the argument in full.
//!
//! The nonce in the token is *synthetic* (the SIV construction): derived
//! inside the library from a key of its own and from everything sealed, the
//! caller's nonce included. Two seals share a nonce only when they seal the
//! same claims with the same caller nonce, and then they are the same token,
//! so a repeated caller nonce (a device without a random source that counts
//! from zero after every reboot, a buggy RNG, a caller that passes a
//! constant) never reuses a (key, nonce) pair for two different plaintexts:
//! it reveals at most that two identical seals are identical. The caller's
//! nonce still matters for one thing: two seals of the *same* state for the
//! same request in the same second give the same token unless the caller's
//! nonces differ, so a counter (or random bytes) keeps the tokens, and the
//! [`Unsealed::token_id`] a replay cache keys on, distinct.
//!
//! Tokens of the first format (`"m1."`, caller nonce used as given) are
//! refused as [`UnsealError::Malformed`]: they lived at most one TTL. So
//! are `"m2."` tokens with claims version 1 (an interim build of this
//! format that kept the caller's nonce out of the claims, so its synthetic
//! nonce could not be checked on unseal).
//!
//! The plaintext is the claims record in postcard 1's encoding (written and
//! read by the seal's own codec; the tests check it against postcard):
//!
//! | field       | encoding                    | meaning                                   |
//! |-------------|-----------------------------|-------------------------------------------|
//! | version     | `u8` = 2                    | claims format                             |
//! | nonce       | 24 bytes                    | the caller's nonce, as given to `seal`    |
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
//! Each input key must be at least [`MIN_KEY_BYTES`] of secret bytes from a
//! CSPRNG or a KDF; a key whose bytes are all equal (all zero, an erased
//! flash page of `0xff`) is refused as [`KeyError::WeakKey`]. Three keys are
//! derived from it with HMAC-SHA-256 under distinct labels: the AEAD key
//! `K_enc = HMAC(key, "mrtr requestState v2 enc")`, the nonce key
//! `K_siv = HMAC(key, "mrtr requestState v2 siv")` and the key id, the first
//! four bytes of `HMAC(key, "mrtr requestState v2 kid")`.
//! Derived keys are zeroized when the [`Sealer`] is dropped, as are the
//! AEAD and hash states the operations build; [`scrub_stack`] overwrites what
//! the operations leave in dead stack memory (the C ABI calls it after every
//! sealing operation). `keys[0]` seals; every
//! key unseals, chosen by the token's key id, so a token under an unknown key
//! is rejected before any AEAD work and no key is ever tried in turn.
//! Rotation without dropping in-flight tokens is three roll-outs:
//! `[OLD, NEW]`, then `[NEW, OLD]`, then, one TTL later, `[NEW]`.
//!
//! # Sans-IO
//!
//! Nothing here reads a clock or draws randomness: the caller passes `now`
//! (unix seconds, at most [`MAX_UNIX_TIME`]) and 24 caller-nonce bytes. The
//! caller nonce need not be secret nor random: 24 random bytes, or a counter
//! that only has to differ between seals of the same state for the same
//! request within one second (see above), are both safe.
//!
//! # Time
//!
//! [`SealConfig::ttl_seconds`] is 1 to [`MAX_TTL_SECONDS`] and
//! [`SealConfig::clock_skew_seconds`] at most [`MAX_CLOCK_SKEW_SECONDS`]
//! ([`KeyError::TtlOutOfRange`], [`KeyError::SkewOutOfRange`]); `now` past
//! [`MAX_UNIX_TIME`] (the end of year 9999) is refused by both operations,
//! so no expiry arithmetic saturates into "never expires".
//!
//! # Replay
//!
//! A token is valid for any number of presentations until it expires. A
//! server that wants one-shot tokens keeps a replay cache keyed by
//! [`Unsealed::token_id`] until [`Unsealed::expires_at`] (after that the
//! token is refused as expired anyway). The id is computed from the decoded
//! token, so re-spelling the JSON string (`\u006d2.` for `m2.`) does not
//! change it. A server that wants a token usable for one round only can also
//! put a round number into its state and check it.
//!
//! # Errors on the wire
//!
//! Every [`UnsealError`] is answered with the one JSON-RPC error
//! ([`UnsealError::WIRE_CODE`], [`UnsealError::WIRE_MESSAGE`]) so the wire
//! never reveals which check failed; [`UnsealError::reason`] is for the log.

mod aead;
mod base64;
mod canon;

#[cfg(test)]
mod tests;

pub use canon::{
    binding_digest, write_canonical, CanonError, MAX_CANON_DEPTH, MAX_CANON_MEMBERS,
    MAX_CANON_OPEN_MEMBERS,
};

use core::ffi::CStr;
use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};
use zeroize::Zeroize;

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
/// Default largest token, in bytes of token text: 4,094, so that the token
/// with its two quotes fits the client's default `requestState` bound of
/// 4 KiB (`client::DEFAULT_MAX_STATE_BYTES`).
pub const DEFAULT_MAX_TOKEN_BYTES: usize = 4094;
/// Longest token lifetime a [`SealConfig`] accepts: one day. Every round
/// re-seals, so this bounds the think time of one round.
pub const MAX_TTL_SECONDS: u64 = 86_400;
/// Largest clock skew allowance a [`SealConfig`] accepts: five minutes.
pub const MAX_CLOCK_SKEW_SECONDS: u64 = 300;
/// Latest `now` either operation accepts: 9999-12-31T23:59:59Z in unix
/// seconds. Later clocks are refused, never saturated.
pub const MAX_UNIX_TIME: u64 = 253_402_300_799;
/// The token's text prefix, which also names the format version.
pub const TOKEN_PREFIX: &[u8] = b"m2.";
/// Size of the nonce the caller supplies for each seal.
pub const NONCE_BYTES: usize = 24;
/// Size of [`Unsealed::token_id`]: the key id and the first 12 bytes of the
/// token's synthetic nonce.
pub const TOKEN_ID_BYTES: usize = 16;
/// Bytes of stack [`scrub_stack`] overwrites: 8 KiB on 64-bit targets, 4 KiB
/// on smaller ones (above the deepest sealing operation in a release
/// build), 32 KiB in builds with debug assertions (unoptimised frames).
pub const SCRUB_STACK_BYTES: usize = if cfg!(debug_assertions) {
    32 * 1024
} else if usize::BITS >= 64 {
    8 * 1024
} else {
    4 * 1024
};

/// Domain label of the AEAD key derivation.
const ENC_LABEL: &[u8] = b"mrtr requestState v2 enc";
/// Domain label of the nonce key derivation.
const SIV_KEY_LABEL: &[u8] = b"mrtr requestState v2 siv";
/// Domain label of the key id derivation.
const KID_LABEL: &[u8] = b"mrtr requestState v2 kid";
/// Domain label that starts the input of the synthetic nonce.
const SIV_LABEL: &[u8] = b"mrtr requestState v2 siv\0";
/// The claims format version: 2 carries the caller's nonce (version 1, an
/// interim `m2.` build, did not and is refused as malformed).
const CLAIMS_VERSION: u8 = 2;

const KID_BYTES: usize = 4;
const TAG_BYTES: usize = 16;
/// kid + nonce: the bytes before the ciphertext.
const HEADER_BYTES: usize = KID_BYTES + NONCE_BYTES;
/// Claims bytes before the state's length prefix: version 1 + caller
/// nonce 24 + iat 8 + exp 8 + audience 32 + binding 32 + principal tag 1.
const CLAIMS_FIXED_BYTES: usize = 1 + NONCE_BYTES + 8 + 8 + 32 + 32 + 1;
/// The principal digest, when one is bound.
const PRINCIPAL_BYTES: usize = 32;
/// Associated data: prefix + kid + audience.
const AD_MAX_BYTES: usize = TOKEN_PREFIX.len() + KID_BYTES + MAX_AUDIENCE_BYTES;
/// The smallest decoded token: header, claims with empty state, tag.
const MIN_BINARY_BYTES: usize = HEADER_BYTES + CLAIMS_FIXED_BYTES + 1 + TAG_BYTES;

/// Bytes of the varint (postcard's: 7 bits a byte, low first) of a length.
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
    /// 1 to [`MAX_TTL_SECONDS`]; default [`DEFAULT_TTL_SECONDS`].
    pub ttl_seconds: u64,
    /// Allowance for clock disagreement between the sealing and the
    /// unsealing instance, applied to both expiry and issue time. At most
    /// [`MAX_CLOCK_SKEW_SECONDS`]; default [`DEFAULT_CLOCK_SKEW_SECONDS`].
    pub clock_skew_seconds: u64,
    /// Largest token in bytes of text, on both sides: sealing a state that
    /// would exceed it fails, and a longer token is rejected before it is
    /// decoded. Must be at least [`sealed_len`]`(0)`. Default
    /// [`DEFAULT_MAX_TOKEN_BYTES`].
    pub max_token_bytes: usize,
}

impl SealConfig {
    /// A configuration where 0 selects the default lifetime and the default
    /// largest token (the C API's `mrtr_sealer_init`); the skew is taken as
    /// given.
    pub fn or_defaults(ttl_seconds: u64, clock_skew_seconds: u64, max_token_bytes: usize) -> Self {
        SealConfig {
            ttl_seconds: if ttl_seconds == 0 {
                DEFAULT_TTL_SECONDS
            } else {
                ttl_seconds
            },
            clock_skew_seconds,
            max_token_bytes: if max_token_bytes == 0 {
                DEFAULT_MAX_TOKEN_BYTES
            } else {
                max_token_bytes
            },
        }
    }
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
    /// A key's bytes are all equal (all zero, or an erased flash page): not
    /// a secret, whatever its length.
    WeakKey {
        /// Position of the key in the list.
        index: usize,
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
    /// [`SealConfig::ttl_seconds`] is 0 or above [`MAX_TTL_SECONDS`].
    TtlOutOfRange {
        /// The configured lifetime.
        ttl_seconds: u64,
    },
    /// [`SealConfig::clock_skew_seconds`] is above [`MAX_CLOCK_SKEW_SECONDS`].
    SkewOutOfRange {
        /// The configured allowance.
        clock_skew_seconds: u64,
    },
}

variant_names! {
    /// The variant's name, NUL-terminated for C (`"WeakKey"`), so a C
    /// caller learns which cause of its status it met.
    KeyError: NoKeys TooManyKeys KeyTooShort WeakKey DuplicateKeyId EmptyAudience AudienceTooLong
    MaxTokenTooSmall TtlOutOfRange SkewOutOfRange
}

impl KeyError {
    /// Whether the keys themselves are refused (none, too many, too short,
    /// weak, a repeated key id), rather than the other settings.
    pub fn is_about_keys(&self) -> bool {
        matches!(
            self,
            KeyError::NoKeys
                | KeyError::TooManyKeys { .. }
                | KeyError::KeyTooShort { .. }
                | KeyError::WeakKey { .. }
                | KeyError::DuplicateKeyId { .. }
        )
    }

    /// A short, stable description for logs.
    pub fn reason(&self) -> &'static str {
        match self {
            KeyError::NoKeys => "no keys given",
            KeyError::TooManyKeys { .. } => "more keys than MAX_KEYS",
            KeyError::KeyTooShort { .. } => "key shorter than MIN_KEY_BYTES",
            KeyError::WeakKey { .. } => "key bytes all equal",
            KeyError::DuplicateKeyId { .. } => "two keys share a key id",
            KeyError::EmptyAudience => "audience is empty",
            KeyError::AudienceTooLong { .. } => "audience longer than MAX_AUDIENCE_BYTES",
            KeyError::MaxTokenTooSmall { .. } => "max_token_bytes cannot hold an empty token",
            KeyError::TtlOutOfRange { .. } => "ttl_seconds out of range",
            KeyError::SkewOutOfRange { .. } => "clock_skew_seconds out of range",
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
            KeyError::WeakKey { index } => write!(f, ": key {index}"),
            KeyError::TtlOutOfRange { ttl_seconds } => {
                write!(f, ": {ttl_seconds}, must be 1 to {MAX_TTL_SECONDS}")
            }
            KeyError::SkewOutOfRange { clock_skew_seconds } => {
                write!(
                    f,
                    ": {clock_skew_seconds}, at most {MAX_CLOCK_SKEW_SECONDS}"
                )
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
    /// `now` is past [`MAX_UNIX_TIME`]: a broken clock, refused rather than
    /// sealed with an expiry that never comes.
    ClockOutOfRange,
}

impl SealError {
    /// A short, stable description for logs.
    pub fn reason(&self) -> &'static str {
        match self {
            SealError::TooLarge { .. } => "state too large for the maximum token size",
            SealError::BufferTooSmall { .. } => "output buffer too small for the token",
            SealError::ClockOutOfRange => "now is past MAX_UNIX_TIME",
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
            SealError::ClockOutOfRange => f.write_str(self.reason()),
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
    /// Authentication failed: the Poly1305 tag does not verify, so the token
    /// was modified (any bit of its key id, nonce or ciphertext) or sealed
    /// for another audience under the same key.
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
    /// `now` is past [`MAX_UNIX_TIME`]: the server's clock is broken, and
    /// no expiry can be judged with it.
    ClockOutOfRange,
}

impl UnsealError {
    /// The JSON-RPC error code every failure is answered with.
    pub const WIRE_CODE: i64 = -32602;
    /// The one message every failure is answered with.
    pub const WIRE_MESSAGE: &'static str = "Invalid or expired requestState";

    /// The refusals with their number (entry n is number n + 1: the C
    /// API's `mrtr_unseal_reason`) and their cause for the log.
    const REASONS: [(UnsealError, &'static CStr); 10] = [
        (UnsealError::Malformed, c"malformed token"),
        (UnsealError::TooLarge, c"token larger than the maximum"),
        (
            UnsealError::UnknownKey,
            c"token sealed under an unknown key",
        ),
        (UnsealError::Tampered, c"token failed authentication"),
        (UnsealError::Expired, c"token expired"),
        (UnsealError::NotYetValid, c"token issued in the future"),
        (
            UnsealError::WrongAudience,
            c"token sealed for another audience",
        ),
        (UnsealError::WrongRequest, c"token bound to another request"),
        (
            UnsealError::WrongPrincipal,
            c"token bound to another principal",
        ),
        (UnsealError::ClockOutOfRange, c"now is past MAX_UNIX_TIME"),
    ];

    /// The refusal's number (1 to 10, the C API's `mrtr_unseal_reason`);
    /// `None` for [`UnsealError::BufferTooSmall`], which refuses no token.
    pub fn code(&self) -> Option<u32> {
        let i = Self::REASONS.iter().position(|(e, _)| e == self)?;
        u32::try_from(i + 1).ok()
    }

    /// The refusal numbered `code` (see [`UnsealError::code`]).
    pub fn from_code(code: u32) -> Option<UnsealError> {
        let i = usize::try_from(code.checked_sub(1)?).ok()?;
        Self::REASONS.get(i).map(|(e, _)| *e)
    }

    /// The precise cause, for the server's log (never for the wire),
    /// NUL-terminated for C.
    pub fn reason_c(&self) -> &'static CStr {
        match Self::REASONS.iter().find(|(e, _)| e == self) {
            Some((_, r)) => r,
            None => c"scratch buffer too small",
        }
    }

    /// The precise cause, for the server's log (never for the wire).
    pub fn reason(&self) -> &'static str {
        self.reason_c().to_str().unwrap_or("")
    }
}

impl core::fmt::Display for UnsealError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.reason())
    }
}

impl core::error::Error for UnsealError {}

/// One key of the ring, derived; zeroized on drop.
#[derive(Clone)]
struct RingKey {
    kid: [u8; KID_BYTES],
    /// `K_enc`, the XChaCha20-Poly1305 key.
    enc: [u8; 32],
    /// `K_siv`, the key of the synthetic nonce.
    siv: [u8; 32],
}

impl Drop for RingKey {
    fn drop(&mut self) {
        self.enc.zeroize();
        self.siv.zeroize();
    }
}

/// SHA-256 of a principal, the form a token binds it in: computed once with
/// [`PrincipalDigest::of`] and passed to [`Sealer::seal_with`] and
/// [`Sealer::unseal_with`], so a request that unseals and seals again hashes
/// its principal once.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PrincipalDigest([u8; 32]);

impl PrincipalDigest {
    /// The digest of `principal` (the bytes [`Sealer::seal`] takes).
    pub fn of(principal: &[u8]) -> PrincipalDigest {
        PrincipalDigest(sha256(&[principal]))
    }

    /// The digest's 32 bytes (SHA-256 of the principal): what a token binds.
    /// Not the credential itself, so a fleet can key shared records by it
    /// (revoking every token of one caller, per-caller counts) without
    /// putting bearer tokens in its store. C: `mrtr_principal_digest`.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl core::fmt::Debug for PrincipalDigest {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Who the caller is stays out of logs.
        f.debug_struct("PrincipalDigest").finish_non_exhaustive()
    }
}

/// What [`Sealer::unseal`] returns for a token that passed every check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unsealed<'o> {
    /// The application state the token carries (in the caller's scratch).
    pub state: &'o [u8],
    /// A stable identifier of this token: its key id and the first 12 bytes
    /// of its synthetic nonce, taken from the decoded token (so escaping the
    /// JSON string differently does not change it). Distinct seals get
    /// distinct ids; key a replay cache on it.
    pub token_id: [u8; TOKEN_ID_BYTES],
    /// The last unix second at which the token is accepted (its expiry plus
    /// the clock skew allowance): a replay cache can forget the id after it.
    pub expires_at: u64,
}
/// A key ring plus audience and limits: seals and unseals `requestState`.
///
/// Holds everything by value (no borrows, no heap), so it can live anywhere,
/// including caller memory behind a C ABI. Build it once and share it: both
/// operations take `&self`.
#[derive(Clone)]
pub struct Sealer {
    keys: heapless::Vec<RingKey, MAX_KEYS>,
    /// `"m2." || kid || audience`, with the kid slot filled per operation.
    associated_data: [u8; AD_MAX_BYTES],
    associated_data_len: usize,
    audience_digest: [u8; 32],
    config: SealConfig,
    max_state_len: usize,
    /// HMAC-SHA-256 keyed with the sealing key's `K_siv`, the key already
    /// absorbed (two compressions fewer per seal); cloned for each seal.
    /// Its hash states zeroize on drop (sha2's `zeroize` feature).
    siv_mac: Hmac<Sha256>,
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

/// Checks one input key (`index` is its position, for the error) and
/// derives its key id, `K_enc` and `K_siv`. The key is absorbed once and the
/// keyed HMAC state cloned for each label (the same three HMAC values as
/// keying three times, four compressions fewer).
fn derive_key(input: &[u8], index: usize) -> Result<RingKey, KeyError> {
    if input.len() < MIN_KEY_BYTES {
        return Err(KeyError::KeyTooShort {
            index,
            len: input.len(),
        });
    }
    if input.iter().all(|b| Some(b) == input.first()) {
        return Err(KeyError::WeakKey { index });
    }
    // HMAC takes keys of any length: this cannot fail.
    let Ok(keyed) = <Hmac<Sha256> as KeyInit>::new_from_slice(input) else {
        return Err(KeyError::KeyTooShort {
            index,
            len: input.len(),
        });
    };
    let derive = |label: &[u8]| -> [u8; 32] {
        let mut mac = keyed.clone();
        mac.update(label);
        mac.finalize().into_bytes().into()
    };
    let id = derive(KID_LABEL);
    Ok(RingKey {
        kid: [id[0], id[1], id[2], id[3]],
        enc: derive(ENC_LABEL),
        siv: derive(SIV_KEY_LABEL),
    })
}

/// Overwrites [`SCRUB_STACK_BYTES`] of the stack below the caller's frame
/// with zeros (volatile writes the compiler keeps), so that key schedules,
/// subkeys and plaintext copies the sealing operations left in dead stack
/// memory are gone. The C ABI calls it after every sealing operation; a Rust
/// server that cares calls it after [`Sealer::seal`] / [`Sealer::unseal`].
#[inline(never)]
pub fn scrub_stack() {
    let mut area = [0u8; SCRUB_STACK_BYTES];
    area.zeroize();
    core::hint::black_box(&area);
}

/// Runs `f` in a frame of its own below the caller's (`inline(never)` keeps
/// the frame), then [`scrub_stack`]: the dead stack where `f` and all it
/// called lived (key schedules, subkeys, plaintext copies) is zeroed before
/// this returns. Not generic, so every caller shares this one frame and
/// scrub (the C ABI runs each sealing function in it).
#[inline(never)]
pub fn in_own_frame_then_scrub(f: &mut dyn FnMut()) {
    #[inline(never)]
    fn own_frame(f: &mut dyn FnMut()) {
        f()
    }
    own_frame(f);
    scrub_stack();
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
    bytes_equal(a, b)
}

/// Compares two equally long secrets without an early exit (the time
/// depends on the length only).
fn bytes_equal<const N: usize>(a: &[u8; N], b: &[u8; N]) -> bool {
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    core::hint::black_box(diff) == 0
}

/// The sealed claims (see the module documentation for the layout: the
/// bytes postcard 1 writes for this record, with fixed-width times).
struct Claims<'a> {
    version: u8,
    nonce: [u8; NONCE_BYTES],
    iat: u64,
    exp: u64,
    audience: [u8; 32],
    binding: [u8; 32],
    principal: Option<[u8; 32]>,
    state: &'a [u8],
}

/// Largest varint of a `usize` (postcard's `varint_max::<usize>()`).
const VARINT_MAX_BYTES: usize = (usize::BITS as usize).div_ceil(7);

impl<'a> Claims<'a> {
    /// Writes the claims into `out`, which must be exactly
    /// [`plaintext_len`] long; false (nothing promised about `out`) when it
    /// is not.
    fn encode(&self, out: &mut [u8]) -> bool {
        let total = out.len();
        if total != plaintext_len(self.state.len(), self.principal.is_some()) {
            return false;
        }
        let mut w = ClaimsWriter { out, at: 0 };
        w.put(&[self.version]);
        w.put(&self.nonce);
        w.put(&self.iat.to_le_bytes());
        w.put(&self.exp.to_le_bytes());
        w.put(&self.audience);
        w.put(&self.binding);
        match &self.principal {
            None => w.put(&[0]),
            Some(p) => {
                w.put(&[1]);
                w.put(p);
            }
        }
        let mut n = self.state.len();
        while n >= 0x80 {
            w.put(&[(n as u8) | 0x80]);
            n >>= 7;
        }
        w.put(&[n as u8]);
        w.put(self.state);
        w.at == total
    }

    /// Reads claims that fill `bytes` exactly, as postcard 1 reads them
    /// (an option tag other than 0 or 1, a varint longer than a `usize`'s
    /// or with bits beyond it, a short input or trailing bytes: `None`).
    fn decode(bytes: &'a [u8]) -> Option<Claims<'a>> {
        let mut r = ClaimsReader(bytes);
        let version = r.byte()?;
        let nonce = r.array::<NONCE_BYTES>()?;
        let iat = u64::from_le_bytes(r.array::<8>()?);
        let exp = u64::from_le_bytes(r.array::<8>()?);
        let audience = r.array::<32>()?;
        let binding = r.array::<32>()?;
        let principal = match r.byte()? {
            0 => None,
            1 => Some(r.array::<32>()?),
            _ => return None,
        };
        let mut len: usize = 0;
        let mut done = false;
        for i in 0..VARINT_MAX_BYTES {
            let b = r.byte()?;
            let part = usize::from(b & 0x7f);
            let shifted = part << (7 * i);
            if shifted >> (7 * i) != part {
                return None;
            }
            len |= shifted;
            if b & 0x80 == 0 {
                done = true;
                break;
            }
        }
        // The remaining bytes are the state: exactly `len` of them.
        if !done || r.0.len() != len {
            return None;
        }
        Some(Claims {
            version,
            nonce,
            iat,
            exp,
            audience,
            binding,
            principal,
            state: r.0,
        })
    }
}

/// Appends to a claims buffer (writes past its end are dropped; `encode`
/// checks the length first).
struct ClaimsWriter<'o> {
    out: &'o mut [u8],
    at: usize,
}

impl ClaimsWriter<'_> {
    fn put(&mut self, bytes: &[u8]) {
        if let Some(dst) = self.out.get_mut(self.at..) {
            self.at += crate::bytes::copy(dst, bytes);
        }
    }
}

/// Takes the claims fields from the front of the plaintext.
struct ClaimsReader<'a>(&'a [u8]);

impl<'a> ClaimsReader<'a> {
    fn byte(&mut self) -> Option<u8> {
        let (first, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(*first)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, rest) = self.0.split_first_chunk::<N>()?;
        self.0 = rest;
        Some(*head)
    }
}

impl Sealer {
    /// Builds a sealer. `keys[0]` seals; every key unseals. Each key must be
    /// at least [`MIN_KEY_BYTES`] of secret bytes from a CSPRNG or a KDF
    /// (keys of all-equal bytes are refused); at most [`MAX_KEYS`]. The
    /// configuration is checked against [`MAX_TTL_SECONDS`] and
    /// [`MAX_CLOCK_SKEW_SECONDS`]. `audience` (1 to [`MAX_AUDIENCE_BYTES`] bytes) names the
    /// service, so a token minted by another service that shares a key is
    /// still refused.
    pub fn new(keys: &[&[u8]], audience: &[u8], config: SealConfig) -> Result<Sealer, KeyError> {
        let mut slot = None;
        Sealer::new_in(&mut slot, keys, audience, config)?;
        slot.ok_or(KeyError::NoKeys)
    }

    /// [`Sealer::new`] into caller memory: builds the sealer in `slot` (a
    /// `static` on a microcontroller, say) without first building it on the
    /// stack and moving it there, and returns it. The checks and their order
    /// are [`Sealer::new`]'s; on an error `slot` is left as it was.
    pub fn new_in<'s>(
        slot: &'s mut Option<Sealer>,
        keys: &[&[u8]],
        audience: &[u8],
        config: SealConfig,
    ) -> Result<&'s mut Sealer, KeyError> {
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
        if config.ttl_seconds == 0 || config.ttl_seconds > MAX_TTL_SECONDS {
            return Err(KeyError::TtlOutOfRange {
                ttl_seconds: config.ttl_seconds,
            });
        }
        if config.clock_skew_seconds > MAX_CLOCK_SKEW_SECONDS {
            return Err(KeyError::SkewOutOfRange {
                clock_skew_seconds: config.clock_skew_seconds,
            });
        }
        // Every key is checked, and the key ids compared, before `slot` is
        // touched; the keys are derived again when the ring is filled.
        let mut ids = [[0u8; KID_BYTES]; MAX_KEYS];
        let mut siv_key = [0u8; 32];
        for (index, input) in keys.iter().enumerate() {
            let key = derive_key(input, index)?;
            let earlier = ids.get(..index).unwrap_or(&[]);
            if let Some(earlier) = earlier.iter().position(|k| *k == key.kid) {
                return Err(KeyError::DuplicateKeyId { index, earlier });
            }
            if let Some(id) = ids.get_mut(index) {
                *id = key.kid;
            }
            if index == 0 {
                siv_key = key.siv;
            }
        }
        // HMAC takes keys of any length: this cannot fail.
        let keyed = <Hmac<Sha256> as KeyInit>::new_from_slice(&siv_key);
        siv_key.zeroize();
        let Ok(siv_mac) = keyed else {
            return Err(KeyError::NoKeys);
        };
        // The sealer is written where it will live: an empty ring and a
        // zeroed associated data buffer, filled in place (the old sealer, if
        // any, drops and zeroizes first).
        *slot = None;
        let sealer = slot.insert(Sealer {
            keys: heapless::Vec::new(),
            associated_data: [0u8; AD_MAX_BYTES],
            associated_data_len: TOKEN_PREFIX.len() + KID_BYTES + audience.len(),
            audience_digest: sha256(&[audience]),
            config,
            max_state_len: max_state_for(config.max_token_bytes),
            siv_mac,
        });
        if let Some(dst) = sealer.associated_data.get_mut(..TOKEN_PREFIX.len()) {
            crate::bytes::copy(dst, TOKEN_PREFIX);
        }
        let ad_len = sealer.associated_data_len;
        if let Some(dst) = sealer
            .associated_data
            .get_mut(TOKEN_PREFIX.len() + KID_BYTES..ad_len)
        {
            crate::bytes::copy(dst, audience);
        }
        // Cannot fail: at most MAX_KEYS keys, each checked above.
        for (index, input) in keys.iter().enumerate() {
            if let Ok(key) = derive_key(input, index) {
                let _ = sealer.keys.push(key);
            }
        }
        Ok(sealer)
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

    /// `"m2." || kid || audience`, on the stack.
    fn associated_data(&self, kid: &[u8; KID_BYTES]) -> ([u8; AD_MAX_BYTES], usize) {
        let mut ad = self.associated_data;
        if let Some(slot) = ad.get_mut(TOKEN_PREFIX.len()..TOKEN_PREFIX.len() + KID_BYTES) {
            crate::bytes::copy(slot, kid);
        }
        (ad, self.associated_data_len)
    }

    /// Seals `state` into a token written at the start of `out`; returns its
    /// length, which is always [`token_len`]`(state.len(), principal.is_some())`
    /// and at most [`sealed_len`]`(state.len())`.
    ///
    /// `now` is the current unix time in seconds (at most [`MAX_UNIX_TIME`]).
    /// `nonce` is the caller's nonce: 24 random bytes or a counter; a repeated
    /// one is harmless (the nonce the token uses is derived from it, the key
    /// and everything sealed; see the module documentation), it only makes
    /// two seals of the same claims the same token. `binding` is the
    /// [`binding_digest`] of the request being answered; `principal`
    /// identifies the authenticated caller (for example issuer, client and
    /// subject of a validated access token), or `None` when there is none.
    /// Nothing is written on error.
    pub fn seal(
        &self,
        now: u64,
        nonce: &[u8; NONCE_BYTES],
        binding: &[u8; 32],
        principal: Option<&[u8]>,
        state: &[u8],
        out: &mut [u8],
    ) -> Result<usize, SealError> {
        let principal = principal.map(PrincipalDigest::of);
        self.seal_with(now, nonce, binding, principal.as_ref(), state, out)
    }

    /// [`Sealer::seal`] with the principal given as its [`PrincipalDigest`]:
    /// a server that unseals the echoed token and seals the next one in the
    /// same request hashes its principal once for both. Same token, same
    /// errors.
    pub fn seal_with(
        &self,
        now: u64,
        nonce: &[u8; NONCE_BYTES],
        binding: &[u8; 32],
        principal: Option<&PrincipalDigest>,
        state: &[u8],
        out: &mut [u8],
    ) -> Result<usize, SealError> {
        if now > MAX_UNIX_TIME {
            return Err(SealError::ClockOutOfRange);
        }
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
        // Both bounded (MAX_UNIX_TIME, MAX_TTL_SECONDS), so this cannot
        // overflow; checked all the same: an expiry is never saturated.
        let Some(exp) = now.checked_add(self.config.ttl_seconds) else {
            return Err(SealError::ClockOutOfRange);
        };
        let claims = Claims {
            version: CLAIMS_VERSION,
            nonce: *nonce,
            iat: now,
            exp,
            audience: self.audience_digest,
            binding: *binding,
            principal: principal.map(|p| p.0),
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
        crate::bytes::copy(kid_out, &key.kid);
        if !claims.encode(plaintext) {
            // Unreachable: the slice is exactly the claims' encoded length.
            return Err(SealError::BufferTooSmall { needed: total });
        }
        let (ad, ad_len) = self.associated_data(&key.kid);
        let ad = ad.get(..ad_len).unwrap_or(&[]);
        let synthetic = synthetic_nonce(self.siv_mac.clone(), nonce, ad, plaintext);
        crate::bytes::copy(nonce_out, &synthetic);
        let Some(tag) = aead::seal(&key.enc, &synthetic, ad, plaintext) else {
            // Unreachable: XChaCha20 rejects only messages of 256 GiB and more.
            return Err(SealError::TooLarge {
                needed: total,
                max: self.config.max_token_bytes,
            });
        };
        // Both are TAG_BYTES long.
        crate::bytes::copy(tag_out, &tag);

        if !base64::encode_in_place(out, bin_start, TOKEN_PREFIX.len()) {
            // Unreachable: the layout above satisfies the precondition.
            return Err(SealError::BufferTooSmall { needed: total });
        }
        if let Some(prefix) = out.get_mut(..TOKEN_PREFIX.len()) {
            crate::bytes::copy(prefix, TOKEN_PREFIX);
        }
        Ok(total)
    }

    /// Checks a token and returns the application state it carries, decoded
    /// and decrypted in `scratch` (at least [`unseal_scratch_len`]`(token.len())`
    /// bytes; `max_token_bytes` always suffices), with the token's
    /// [`Unsealed::token_id`] and [`Unsealed::expires_at`] for a replay cache.
    ///
    /// `now`, `binding` and `principal` are those of the request that echoed
    /// the token; `token` is the decoded JSON string (escapes resolved, as
    /// the server request parser hands it out). The checks run in this
    /// order, each failing with its own [`UnsealError`]: clock range, size
    /// (before any decoding), prefix, strict base64url, length, key id,
    /// authentication (the AEAD tag under the key the token names, then the
    /// claims version), claims decoding, audience, expiry
    /// (`now > exp + skew`), issue time (`iat > now + skew`), request binding,
    /// principal. On every refusal the bytes written to `scratch` are
    /// zeroed, so a token refused after decryption leaves no plaintext
    /// behind.
    pub fn unseal<'o>(
        &self,
        now: u64,
        token: &[u8],
        binding: &[u8; 32],
        principal: Option<&[u8]>,
        scratch: &'o mut [u8],
    ) -> Result<Unsealed<'o>, UnsealError> {
        let principal = principal.map(PrincipalDigest::of);
        self.unseal_with(now, token, binding, principal.as_ref(), scratch)
    }

    /// [`Sealer::unseal`] with the principal given as its
    /// [`PrincipalDigest`] (see [`Sealer::seal_with`]). Same checks in the
    /// same order, same errors.
    pub fn unseal_with<'o>(
        &self,
        now: u64,
        token: &[u8],
        binding: &[u8; 32],
        principal: Option<&PrincipalDigest>,
        scratch: &'o mut [u8],
    ) -> Result<Unsealed<'o>, UnsealError> {
        let mut written = 0usize;
        match self.unseal_in(now, token, binding, principal, scratch, &mut written) {
            Ok(found) => {
                let scratch: &'o [u8] = scratch;
                let state = scratch
                    .get(found.state_start..found.state_end)
                    .unwrap_or(&[]);
                Ok(Unsealed {
                    state,
                    token_id: found.token_id,
                    expires_at: found.expires_at,
                })
            }
            Err(e) => {
                if let Some(used) = scratch.get_mut(..written) {
                    used.zeroize();
                }
                Err(e)
            }
        }
    }

    /// [`Sealer::unseal`] without the wipe: `written` is how many scratch
    /// bytes were written (to zero on a refusal).
    fn unseal_in(
        &self,
        now: u64,
        token: &[u8],
        binding: &[u8; 32],
        principal: Option<&PrincipalDigest>,
        scratch: &mut [u8],
        written: &mut usize,
    ) -> Result<Found, UnsealError> {
        if now > MAX_UNIX_TIME {
            return Err(UnsealError::ClockOutOfRange);
        }
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
        // The decoder may write before it finds a bad character.
        *written = bin_len;
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
        // The key id and the first 12 bytes of the nonce, as they lie.
        let token_id = *header
            .first_chunk::<TOKEN_ID_BYTES>()
            .ok_or(UnsealError::Malformed)?;
        let key = self
            .keys
            .iter()
            .find(|k| k.kid == kid)
            .ok_or(UnsealError::UnknownKey)?;
        let token_nonce: [u8; NONCE_BYTES] =
            nonce.try_into().map_err(|_| UnsealError::Malformed)?;
        let tag: [u8; aead::TAG] = (&*tag).try_into().map_err(|_| UnsealError::Malformed)?;
        let (ad, ad_len) = self.associated_data(&kid);
        let ad = ad.get(..ad_len).unwrap_or(&[]);
        if !aead::open(&key.enc, &token_nonce, ad, ciphertext, &tag) {
            return Err(UnsealError::Tampered);
        }

        let plain_end = bin_len.saturating_sub(TAG_BYTES);
        let plaintext = scratch
            .get(HEADER_BYTES..plain_end)
            .ok_or(UnsealError::Malformed)?;
        // Only a holder of the key can produce these bytes, so a claims record
        // that does not decode comes from another format version.
        if plaintext.first() != Some(&CLAIMS_VERSION) {
            return Err(UnsealError::Malformed);
        }
        // No synthetic-nonce check here: the Poly1305 tag, verified above
        // under K_enc with the nonce the token carries, already proves that
        // a key holder made these exact bytes. The synthetic nonce does its
        // work when sealing (two plaintexts never share a nonce); see
        // docs/ARCHITECTURE.md, "Sealing requestState".
        let claims = Claims::decode(plaintext).ok_or(UnsealError::Malformed)?;
        // A lifetime no sealer of this format makes.
        if claims.exp < claims.iat || claims.exp - claims.iat > MAX_TTL_SECONDS {
            return Err(UnsealError::Malformed);
        }
        if !digests_equal(&claims.audience, &self.audience_digest) {
            return Err(UnsealError::WrongAudience);
        }
        let expires_at = claims
            .exp
            .checked_add(self.config.clock_skew_seconds)
            .ok_or(UnsealError::Malformed)?;
        if now > expires_at {
            return Err(UnsealError::Expired);
        }
        // now <= MAX_UNIX_TIME and skew <= MAX_CLOCK_SKEW_SECONDS.
        if claims.iat > now.saturating_add(self.config.clock_skew_seconds) {
            return Err(UnsealError::NotYetValid);
        }
        if !digests_equal(&claims.binding, binding) {
            return Err(UnsealError::WrongRequest);
        }
        let principal_matches = match (principal, &claims.principal) {
            (None, None) => true,
            (Some(p), Some(sealed)) => digests_equal(sealed, &p.0),
            _ => false,
        };
        if !principal_matches {
            return Err(UnsealError::WrongPrincipal);
        }
        // The state is the tail of the plaintext (it is written last).
        let state_end = plain_end;
        let state_start = state_end
            .checked_sub(claims.state.len())
            .ok_or(UnsealError::Malformed)?;
        Ok(Found {
            state_start,
            state_end,
            token_id,
            expires_at,
        })
    }
}

/// Where an accepted token's state lies in the scratch, and its replay data.
struct Found {
    state_start: usize,
    state_end: usize,
    token_id: [u8; TOKEN_ID_BYTES],
    expires_at: u64,
}

/// The nonce a token uses: HMAC-SHA-256 under `K_siv` of the label, the
/// caller's nonce, the associated data (length-prefixed) and the plaintext,
/// cut to 24 bytes. `m` is HMAC-SHA-256 already keyed with `K_siv`.
fn synthetic_nonce(
    mut m: Hmac<Sha256>,
    caller_nonce: &[u8; NONCE_BYTES],
    ad: &[u8],
    plaintext: &[u8],
) -> [u8; NONCE_BYTES] {
    // AD is at most AD_MAX_BYTES (263), well within a u16.
    let ad_len = u16::try_from(ad.len()).unwrap_or(u16::MAX).to_le_bytes();
    for part in [SIV_LABEL, caller_nonce, &ad_len, ad, plaintext] {
        m.update(part);
    }
    let mac: [u8; 32] = m.finalize().into_bytes().into();
    let mut out = [0u8; NONCE_BYTES];
    crate::bytes::copy(&mut out, &mac);
    out
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
