//! `mrtr_seal*` / `mrtr_unseal`: sealing `requestState` (docs/ARCHITECTURE.md,
//! section 7) for servers written in C. A sealer is a key ring, an audience and
//! limits, held by value in caller memory (`mrtr_sealer_size` bytes); it
//! holds key material, so wipe it with `mrtr_sealer_wipe` when done.

use core::ffi::{c_char, c_void, CStr};

use mrtr_core::json::{self, ParseLimits};
use mrtr_core::seal::{
    binding_digest, scrub_stack, token_len, unseal_scratch_len, CanonError, KeyError,
    PrincipalDigest, SealConfig, SealError, Sealer, UnsealError, DEFAULT_CLOCK_SKEW_SECONDS,
    DEFAULT_MAX_TOKEN_BYTES, DEFAULT_TTL_SECONDS, MAX_CLOCK_SKEW_SECONDS, MAX_KEYS,
    MAX_TTL_SECONDS, MAX_UNIX_TIME, MIN_KEY_BYTES, NONCE_BYTES, SCRUB_STACK_BYTES, TOKEN_ID_BYTES,
};

use crate::abi::{finish_output, Args};
use crate::mrtr_status;
use crate::object::{self, magic, Obj};
use crate::status::status_of;
use crate::types::{mrtr_bytes, mrtr_str};

/// A sealer living in caller memory (opaque).
#[allow(non_camel_case_types)]
pub struct mrtr_sealer {
    _opaque: [u8; 0],
}

/// Most keys in a ring (`keys[0]` seals, every key unseals).
pub const MRTR_SEAL_MAX_KEYS: usize = 8;
/// Shortest key, in bytes (secret bytes from a CSPRNG or a KDF; keys whose
/// bytes are all equal are refused).
pub const MRTR_SEAL_MIN_KEY_BYTES: usize = 32;
/// Bytes of the caller's nonce each seal takes: random bytes or a counter.
/// A repeated caller nonce is safe (the nonce the token uses is derived
/// from it, the key and everything sealed, and checked on unseal): a device
/// without a random source may pass a persisted counter, or even one that
/// restarts from zero at every boot. A unique-ish value only keeps two
/// seals of the same state for the same request in the same second
/// distinct tokens (with distinct token ids).
pub const MRTR_SEAL_NONCE_BYTES: usize = 24;
/// Longest token lifetime `mrtr_sealer_init` accepts: one day.
pub const MRTR_SEAL_MAX_TTL_SECONDS: u64 = 86_400;
/// Largest clock skew allowance `mrtr_sealer_init` accepts: five minutes.
pub const MRTR_SEAL_MAX_SKEW_SECONDS: u64 = 300;
/// Latest `now` `mrtr_seal` and `mrtr_unseal` accept: 9999-12-31T23:59:59Z.
pub const MRTR_SEAL_MAX_UNIX_TIME: u64 = 253_402_300_799;
/// Bytes of `mrtr_unsealed_info.token_id`.
pub const MRTR_SEAL_TOKEN_ID_BYTES: usize = 16;
/// Bytes of stack below their own frame that `mrtr_sealer_init`,
/// `mrtr_seal`, `mrtr_unseal` and `mrtr_sealer_wipe` overwrite with zeros
/// before returning, in a release build (32 KiB in a build with debug
/// assertions): the stack they need is this much plus their own frames.
pub const MRTR_SEAL_SCRUB_STACK_BYTES: usize = if usize::BITS >= 64 { 8192 } else { 4096 };
/// Bytes of a binding digest.
pub const MRTR_BINDING_BYTES: usize = 32;
/// Bytes of a principal digest (`mrtr_principal_digest`).
pub const MRTR_PRINCIPAL_DIGEST_BYTES: usize = 32;
/// Default token lifetime (`ttl_seconds` 0 selects it): 600 s.
pub const MRTR_SEAL_DEFAULT_TTL_SECONDS: u64 = 600;
/// Suggested clock skew allowance: 60 s.
pub const MRTR_SEAL_DEFAULT_SKEW_SECONDS: u64 = 60;
/// Default largest token (`max_token` 0 selects it): 4,094 bytes, so that
/// with its quotes it fits a default call's `requestState` bound (4 KiB).
pub const MRTR_SEAL_DEFAULT_MAX_TOKEN_BYTES: usize = 4094;
/// The JSON-RPC error code for every `requestState` that fails to unseal.
pub const MRTR_INVALID_REQUEST_STATE_CODE: i32 = -32602;

const _: () = assert!(MRTR_SEAL_MAX_KEYS == MAX_KEYS);
const _: () = assert!(MRTR_SEAL_MIN_KEY_BYTES == MIN_KEY_BYTES);
const _: () = assert!(MRTR_SEAL_NONCE_BYTES == NONCE_BYTES);
const _: () = assert!(MRTR_SEAL_DEFAULT_TTL_SECONDS == DEFAULT_TTL_SECONDS);
const _: () = assert!(MRTR_SEAL_DEFAULT_SKEW_SECONDS == DEFAULT_CLOCK_SKEW_SECONDS);
const _: () = assert!(MRTR_SEAL_DEFAULT_MAX_TOKEN_BYTES == DEFAULT_MAX_TOKEN_BYTES);
const _: () = assert!(MRTR_INVALID_REQUEST_STATE_CODE as i64 == UnsealError::WIRE_CODE);
const _: () = assert!(MRTR_SEAL_MAX_TTL_SECONDS == MAX_TTL_SECONDS);
const _: () = assert!(MRTR_SEAL_MAX_SKEW_SECONDS == MAX_CLOCK_SKEW_SECONDS);
const _: () = assert!(MRTR_SEAL_MAX_UNIX_TIME == MAX_UNIX_TIME);
const _: () = assert!(MRTR_SEAL_TOKEN_ID_BYTES == TOKEN_ID_BYTES);
const _: () = assert!(cfg!(debug_assertions) || MRTR_SEAL_SCRUB_STACK_BYTES == SCRUB_STACK_BYTES);

/// The message for every `requestState` that fails to unseal, NUL-terminated.
const WIRE_MESSAGE: &CStr = c"Invalid or expired requestState";

/// Why a token was refused (for the server's log: the wire answer is the
/// same for every reason).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum mrtr_unseal_reason {
    /// Not a token of this format (prefix, base64url, length, claims).
    MRTR_UNSEAL_MALFORMED = 1,
    /// Longer than the sealer's maximum token size.
    MRTR_UNSEAL_TOO_LARGE = 2,
    /// Sealed under a key id not in the ring (retired key, forgery).
    MRTR_UNSEAL_UNKNOWN_KEY = 3,
    /// Authentication failed: modified, sealed for another audience, or a
    /// nonce that is not the synthetic nonce of the token's own claims.
    MRTR_UNSEAL_TAMPERED = 4,
    /// Past its expiry (plus the skew).
    MRTR_UNSEAL_EXPIRED = 5,
    /// Issued in the future (beyond the skew).
    MRTR_UNSEAL_NOT_YET_VALID = 6,
    /// Sealed for another audience.
    MRTR_UNSEAL_WRONG_AUDIENCE = 7,
    /// Bound to another method, target or arguments.
    MRTR_UNSEAL_WRONG_REQUEST = 8,
    /// Bound to another principal (or to one / none).
    MRTR_UNSEAL_WRONG_PRINCIPAL = 9,
    /// `now` is past `MRTR_SEAL_MAX_UNIX_TIME`: the server's clock is broken.
    MRTR_UNSEAL_CLOCK_OUT_OF_RANGE = 10,
}

/// What `mrtr_unseal` reports about an accepted token, for a replay cache.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct mrtr_unsealed_info {
    /// A stable id of the token (its key id and the first 12 bytes of its
    /// nonce, from the decoded token: re-escaping the JSON string does not
    /// change it). Distinct seals have distinct ids.
    pub token_id: [u8; MRTR_SEAL_TOKEN_ID_BYTES],
    /// The last unix second the token is accepted (expiry plus skew): a
    /// replay cache may forget the id after it.
    pub expires_at: u64,
}

fn reason_of(e: UnsealError) -> Option<mrtr_unseal_reason> {
    use mrtr_unseal_reason as R;
    Some(match e {
        UnsealError::Malformed => R::MRTR_UNSEAL_MALFORMED,
        UnsealError::TooLarge => R::MRTR_UNSEAL_TOO_LARGE,
        UnsealError::UnknownKey => R::MRTR_UNSEAL_UNKNOWN_KEY,
        UnsealError::Tampered => R::MRTR_UNSEAL_TAMPERED,
        UnsealError::Expired => R::MRTR_UNSEAL_EXPIRED,
        UnsealError::NotYetValid => R::MRTR_UNSEAL_NOT_YET_VALID,
        UnsealError::WrongAudience => R::MRTR_UNSEAL_WRONG_AUDIENCE,
        UnsealError::WrongRequest => R::MRTR_UNSEAL_WRONG_REQUEST,
        UnsealError::WrongPrincipal => R::MRTR_UNSEAL_WRONG_PRINCIPAL,
        UnsealError::ClockOutOfRange => R::MRTR_UNSEAL_CLOCK_OUT_OF_RANGE,
        UnsealError::BufferTooSmall { .. } => return None,
    })
}

/// Returns a short description of an unseal reason (`"token expired"`, ...) as a
/// static NUL-terminated string, never NULL; other integers give `"unknown
/// reason"`. For logs only: the wire answer is always
/// `mrtr_invalid_request_state_message()`.
#[unsafe(no_mangle)]
pub extern "C" fn mrtr_unseal_reason_str(reason: i32) -> *const c_char {
    let s: &'static CStr = match reason {
        1 => c"malformed token",
        2 => c"token larger than the maximum",
        3 => c"token sealed under an unknown key",
        4 => c"token failed authentication",
        5 => c"token expired",
        6 => c"token issued in the future",
        7 => c"token sealed for another audience",
        8 => c"token bound to another request",
        9 => c"token bound to another principal",
        10 => c"now is past MAX_UNIX_TIME",
        _ => c"unknown reason",
    };
    s.as_ptr()
}

/// Returns the one JSON-RPC error message for every `requestState` that
/// fails to unseal, `"Invalid or expired requestState"` (with code
/// `MRTR_INVALID_REQUEST_STATE_CODE`), as a static NUL-terminated string.
#[unsafe(no_mangle)]
pub extern "C" fn mrtr_invalid_request_state_message() -> *const c_char {
    WIRE_MESSAGE.as_ptr()
}

/// Returns the bytes (and the alignment is `MRTR_WORKSPACE_ALIGN`) of the
/// memory `mrtr_sealer_init` needs.
#[unsafe(no_mangle)]
pub extern "C" fn mrtr_sealer_size() -> usize {
    object::record_size::<Sealer>()
}

/// Returns the exact length of a token carrying `state_len` bytes of state
/// (with a principal bound when `principal`); saturates at `SIZE_MAX`.
#[unsafe(no_mangle)]
pub extern "C" fn mrtr_seal_token_len(state_len: usize, principal: bool) -> usize {
    token_len(state_len, principal)
}

/// Returns the scratch bytes `mrtr_unseal` needs for a token of
/// `token_len` bytes (a scratch as long as the token always suffices).
#[unsafe(no_mangle)]
pub extern "C" fn mrtr_unseal_scratch_len(token_len: usize) -> usize {
    unseal_scratch_len(token_len)
}

/// Runs `f` in a frame of its own below the caller's (`inline(never)`
/// keeps its frame), then zeroes `SCRUB_STACK_BYTES` of the dead stack
/// below the caller's frame, where that frame and everything it called
/// lived: what the sealing code left there (key schedules, subkeys,
/// plaintext copies) is gone when a sealing function returns. Not generic:
/// every sealing function shares this one frame and scrub.
#[inline(never)]
fn in_own_frame_then_scrub(f: &mut dyn FnMut() -> mrtr_status) -> mrtr_status {
    #[inline(never)]
    fn own_frame(f: &mut dyn FnMut() -> mrtr_status) -> mrtr_status {
        f()
    }
    let r = own_frame(f);
    scrub_stack();
    r
}

/// Runs `f` on the live sealer behind `sealer`.
///
/// # Safety
/// `sealer` must be NULL or a live handle from `mrtr_sealer_init`.
unsafe fn with_sealer<R>(
    sealer: *const mrtr_sealer,
    f: impl FnOnce(&Sealer, &mut Args) -> Result<R, mrtr_status>,
) -> Result<R, mrtr_status> {
    // SAFETY: forwarded contract.
    let mut obj: Obj<'_, Sealer> = unsafe { object::attach(sealer.cast(), magic::SEALER) }?;
    let mut args = Args::new(obj.span());
    f(obj.value(), &mut args)
}

/// Builds a sealer in `mem` (`len` bytes, at least `mrtr_sealer_size()`,
/// aligned to `MRTR_WORKSPACE_ALIGN`) and writes its handle to `*out`.
///
/// `keys` (1 to `MRTR_SEAL_MAX_KEYS`, each at least
/// `MRTR_SEAL_MIN_KEY_BYTES` of secret bytes from a CSPRNG or a KDF, not all
/// equal): `keys[0]` seals,
/// every key unseals, chosen by the token's key id. Rotate with `[OLD,
/// NEW]`, then `[NEW, OLD]`, then one TTL later `[NEW]`. `audience` (1 to
/// 256 bytes) names the service. `ttl_seconds` is the token lifetime (0:
/// `MRTR_SEAL_DEFAULT_TTL_SECONDS`; at most `MRTR_SEAL_MAX_TTL_SECONDS`);
/// `skew_seconds` the allowance for clocks that disagree (taken as given, at
/// most `MRTR_SEAL_MAX_SKEW_SECONDS`; `MRTR_SEAL_DEFAULT_SKEW_SECONDS` is a
/// good value); `max_token` the largest token in bytes on both sides (0:
/// `MRTR_SEAL_DEFAULT_MAX_TOKEN_BYTES`). The keys are copied (derived):
/// they need not outlive the call.
///
/// Returns `MRTR_OK`, `MRTR_ERR_KEY_ERROR` (no key, too many, one too short,
/// one of all-equal bytes, two with the same key id),
/// `MRTR_ERR_INVALID_ARGUMENT` (empty or too long audience, `max_token` below
/// the smallest token, `ttl_seconds` or `skew_seconds` above its maximum),
/// `MRTR_ERR_WORKSPACE_TOO_SMALL`,
/// `MRTR_ERR_INVALID_UTF8`.
///
/// # Safety
/// `mem` must point to `len` writable bytes lent to the sealer while it is
/// used; `keys` to `nkeys` readable `mrtr_bytes` whose bytes are readable;
/// `audience` readable; `out` must point to a writable `mrtr_sealer *`.
#[must_use]
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mrtr_sealer_init(
    mem: *mut c_void,
    len: usize,
    keys: *const mrtr_bytes,
    nkeys: usize,
    audience: mrtr_str,
    ttl_seconds: u64,
    skew_seconds: u64,
    max_token: usize,
    out: *mut *mut mrtr_sealer,
) -> mrtr_status {
    in_own_frame_then_scrub(&mut || {
        status_of((|| {
            let mut a = Args::free();
            // SAFETY: caller contract; every pointer is checked as it is taken.
            let (out, given) = unsafe { (a.out(out)?, a.array(keys, nkeys)?) };
            if given.len() > MAX_KEYS {
                return Err(mrtr_status::MRTR_ERR_KEY_ERROR);
            }
            let mut ring: [&[u8]; MAX_KEYS] = [&[]; MAX_KEYS];
            for (slot, k) in ring.iter_mut().zip(given) {
                // SAFETY: caller contract.
                *slot = unsafe { a.bytes(k.ptr, k.len) }?;
            }
            // SAFETY: caller contract.
            let audience = unsafe { a.str(audience) }?;
            let config = SealConfig {
                ttl_seconds: if ttl_seconds == 0 {
                    DEFAULT_TTL_SECONDS
                } else {
                    ttl_seconds
                },
                clock_skew_seconds: skew_seconds,
                max_token_bytes: if max_token == 0 {
                    DEFAULT_MAX_TOKEN_BYTES
                } else {
                    max_token
                },
            };
            let keys = ring.get(..given.len()).unwrap_or(&[]);
            let sealer = Sealer::new(keys, audience.as_bytes(), config).map_err(|e| match e {
                KeyError::NoKeys
                | KeyError::TooManyKeys { .. }
                | KeyError::KeyTooShort { .. }
                | KeyError::WeakKey { .. }
                | KeyError::DuplicateKeyId { .. } => mrtr_status::MRTR_ERR_KEY_ERROR,
                KeyError::EmptyAudience
                | KeyError::AudienceTooLong { .. }
                | KeyError::MaxTokenTooSmall { .. }
                | KeyError::TtlOutOfRange { .. }
                | KeyError::SkewOutOfRange { .. } => mrtr_status::MRTR_ERR_INVALID_ARGUMENT,
            })?;
            let ws = mem.cast::<u8>();
            // SAFETY: caller contract; overlaps refused.
            let mut obj = unsafe { object::init::<Sealer>(ws, len, 0, sealer, &a) }?;
            obj.activate(magic::SEALER);
            out.write(ws.cast());
            Ok(())
        })())
    })
}

/// Overwrites the sealer's memory (derived keys included) with zeros, and
/// `MRTR_SEAL_SCRUB_STACK_BYTES` of dead stack below this call; the handle
/// is invalid afterwards. A NULL or invalid handle is ignored.
///
/// # Safety
/// `sealer` must be NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_sealer_wipe(sealer: *mut mrtr_sealer) {
    // SAFETY: forwarded contract: a live handle's record is writable.
    let live =
        unsafe { object::attach::<Sealer>(sealer.cast_const().cast(), magic::SEALER) }.is_ok();
    if !live {
        return;
    }
    let p = sealer.cast::<u8>();
    for i in 0..object::record_size::<Sealer>() {
        // SAFETY: inside the record of a live sealer (checked above);
        // volatile so the compiler keeps the stores of memory it may
        // consider dead.
        unsafe { p.add(i).write_volatile(0) };
    }
    scrub_stack();
}

/// Writes to `out` (32 bytes) the binding digest of a request: SHA-256 over
/// the method, the target (tool or prompt name, resource URI) and the
/// canonical form of the arguments (whitespace, key order and escape
/// spelling do not matter; any change of value does). `arguments` is the
/// JSON of `params.arguments`, NULL (with `arguments_len` 0) when the
/// request has none.
///
/// Returns `MRTR_OK`, `MRTR_ERR_JSON` (arguments not JSON, or an object with a
/// duplicate key), `MRTR_ERR_LIMIT_EXCEEDED` (too deep, too many members),
/// `MRTR_ERR_INVALID_UTF8`.
///
/// # Safety
/// `method`, `target` readable; `arguments` NULL or pointing to
/// `arguments_len` readable bytes; `out` to 32 writable bytes.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_binding_digest(
    method: mrtr_str,
    target: mrtr_str,
    arguments: *const u8,
    arguments_len: usize,
    out: *mut u8,
) -> mrtr_status {
    status_of((|| {
        let mut a = Args::free();
        // SAFETY: caller contract; every pointer is checked as it is taken.
        let (method, target) = unsafe { (a.str(method)?, a.str(target)?) };
        // SAFETY: caller contract.
        let args = unsafe { a.bytes_opt(arguments, arguments_len) }?;
        // SAFETY: caller contract; NULL (with its length of 32) and
        // overlaps refused.
        let out = unsafe { a.out_buf(out, MRTR_BINDING_BYTES) }?;
        let value = match args {
            None => None,
            Some(a) => Some(json::parse_with(a, &ParseLimits::default())?),
        };
        let digest = binding_digest(method, target, value).map_err(|e| match e {
            CanonError::DuplicateKey => mrtr_status::MRTR_ERR_JSON,
            CanonError::TooManyMembers
            | CanonError::TooDeep
            | CanonError::TooManyOpenMembers
            | CanonError::TooLarge => mrtr_status::MRTR_ERR_LIMIT_EXCEEDED,
        })?;
        out.copy_from_slice(&digest);
        Ok(())
    })())
}

/// Writes to `out` (32 bytes) the digest a token binds for `principal`
/// (the bytes `mrtr_seal` and `mrtr_unseal` take): SHA-256 of them. Not the
/// credential itself, so a fleet can key shared records by it (revoking
/// every token of one caller, per-caller counts) without putting bearer
/// tokens in its store. With `mrtr_unsealed_info` (token id, last valid
/// second) it is what a server sharing a replay store needs from the core.
///
/// Returns `MRTR_OK`, `MRTR_ERR_NULL_POINTER` (`out` NULL, or `principal.ptr`
/// NULL with a non-zero length), `MRTR_ERR_INVALID_ARGUMENT` (`out` overlaps
/// the principal).
///
/// # Safety
/// `principal` readable; `out` must point to 32 writable bytes.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_principal_digest(principal: mrtr_bytes, out: *mut u8) -> mrtr_status {
    status_of((|| {
        let mut a = Args::free();
        // SAFETY: caller contract; the pointer is checked as it is taken.
        let principal = unsafe { a.bytes(principal.ptr, principal.len) }?;
        if out.is_null() {
            return Err(mrtr_status::MRTR_ERR_NULL_POINTER);
        }
        // SAFETY: caller contract; overlaps with the principal refused.
        let out = unsafe { a.out_buf(out, MRTR_PRINCIPAL_DIGEST_BYTES) }?;
        out.copy_from_slice(PrincipalDigest::of(principal).as_bytes());
        Ok(())
    })())
}

/// Reads an optional principal.
///
/// # Safety
/// `p` must be NULL or point to a readable `mrtr_bytes` whose bytes are
/// readable.
unsafe fn principal_of<'a>(
    a: &mut Args,
    p: *const mrtr_bytes,
) -> Result<Option<&'a [u8]>, mrtr_status> {
    // SAFETY: caller contract.
    let Some(b) = unsafe { a.reference_opt(p) }? else {
        return Ok(None);
    };
    // SAFETY: caller contract.
    Ok(Some(unsafe { a.bytes(b.ptr, b.len) }?))
}

/// Seals `state` (the server's own bytes, up to what `max_token` allows)
/// into a token written to `out`: the `requestState` to send. `now` is the
/// current unix time in seconds (at most `MRTR_SEAL_MAX_UNIX_TIME`); `nonce`
/// 24 bytes, random or a counter (a repeated one is safe: the nonce the
/// token uses is derived from it, the key and everything sealed; distinct
/// caller nonces only keep two seals of the same state for the same request
/// in the same second distinct tokens);
/// `binding` the 32-byte `mrtr_binding_digest` of the request being
/// answered; `principal` (NULL for none) identifies the authenticated
/// caller. The token is ASCII (`m2.` + base64url) and
/// `mrtr_seal_token_len(state.len, principal != NULL)` bytes long. Output
/// convention of `mrtr_json_write_string`.
///
/// Returns `MRTR_OK`, `MRTR_ERR_BUFFER_TOO_SMALL`, `MRTR_ERR_LIMIT_EXCEEDED`
/// (the token would exceed `max_token`), `MRTR_ERR_INVALID_ARGUMENT` (`now`
/// past `MRTR_SEAL_MAX_UNIX_TIME`). Scrubs
/// `MRTR_SEAL_SCRUB_STACK_BYTES` of dead stack before returning.
///
/// # Safety
/// `sealer` must be a live handle; `nonce` must point to 24 and `binding`
/// to 32 readable bytes; `principal` NULL or readable; `state` readable;
/// `out` must point to `out_len` writable bytes (unless 0); `out_written`
/// to a writable `size_t`.
#[must_use]
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mrtr_seal(
    sealer: *const mrtr_sealer,
    now: u64,
    nonce: *const u8,
    binding: *const u8,
    principal: *const mrtr_bytes,
    state: mrtr_bytes,
    out: *mut u8,
    out_len: usize,
    out_written: *mut usize,
) -> mrtr_status {
    in_own_frame_then_scrub(&mut || {
        // SAFETY: forwarded contract.
        status_of(unsafe {
            with_sealer(sealer, |s, a| {
                let out_written = a.out(out_written)?;
                let nonce = a.bytes(nonce, NONCE_BYTES)?;
                let binding = a.bytes(binding, MRTR_BINDING_BYTES)?;
                let principal = principal_of(a, principal)?;
                let state = a.bytes(state.ptr, state.len)?;
                let out = a.out_buf(out, out_len)?;
                let nonce: &[u8; NONCE_BYTES] = nonce
                    .try_into()
                    .map_err(|_| mrtr_status::MRTR_ERR_INTERNAL)?;
                let binding: &[u8; 32] = binding
                    .try_into()
                    .map_err(|_| mrtr_status::MRTR_ERR_INTERNAL)?;
                match s.seal(now, nonce, binding, principal, state, out) {
                    Ok(n) => finish_output(Ok(n), out_written),
                    Err(SealError::BufferTooSmall { needed }) => {
                        finish_output(Err(json::BufferTooSmall { needed }), out_written)
                    }
                    Err(SealError::TooLarge { .. }) => Err(mrtr_status::MRTR_ERR_LIMIT_EXCEEDED),
                    Err(SealError::ClockOutOfRange) => Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT),
                }
            })
        })
    })
}

/// Checks an echoed `token` and writes the state it carries to
/// `*out_state` (a view into `scratch`, which receives the decrypted
/// bytes: at least `mrtr_unseal_scratch_len(token.len)` bytes;
/// `max_token` bytes always suffice). `now`, `binding` and `principal`
/// are those of the request that echoed the token; `token` is the decoded
/// JSON string (`mrtr_json_decode_string` of the raw `request_state`; a
/// token still carrying escapes is refused as malformed). After the AEAD
/// tag, the token's nonce is recomputed from the decrypted claims (which
/// carry the caller's nonce) and compared in constant time, so a token
/// verifies only for what was sealed. `out_info` (NULL
/// when not wanted) receives the token id and last valid second of an
/// accepted token, for a replay cache: a server that wants one-shot tokens
/// refuses a `token_id` it has seen before `expires_at`. On every refusal
/// the scratch bytes written are zeroed (no decrypted state stays behind),
/// and `MRTR_SEAL_SCRUB_STACK_BYTES` of dead stack are scrubbed.
///
/// Returns `MRTR_OK`; `MRTR_ERR_INVALID_REQUEST_STATE` with the precise reason
/// in `*out_reason` (for the log; answer the client with error
/// `MRTR_INVALID_REQUEST_STATE_CODE` and `mrtr_invalid_request_state_message()`
/// whatever the reason); `MRTR_ERR_BUFFER_TOO_SMALL` (scratch shorter than
/// `mrtr_unseal_scratch_len`).
///
/// # Safety
/// `sealer` must be a live handle; `token` readable; `binding` must point
/// to 32 readable bytes; `principal` NULL or readable; `scratch` must point
/// to `scratch_len` writable bytes (unless 0); `out_state` and `out_reason`
/// writable; `out_info` NULL or writable.
#[must_use]
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mrtr_unseal(
    sealer: *const mrtr_sealer,
    now: u64,
    token: mrtr_bytes,
    binding: *const u8,
    principal: *const mrtr_bytes,
    scratch: *mut u8,
    scratch_len: usize,
    out_state: *mut mrtr_bytes,
    out_reason: *mut mrtr_unseal_reason,
    out_info: *mut mrtr_unsealed_info,
) -> mrtr_status {
    in_own_frame_then_scrub(&mut || {
        // SAFETY: forwarded contract.
        status_of(unsafe {
            with_sealer(sealer, |s, a| {
                let out_state = a.out(out_state)?;
                let out_reason = a.out(out_reason)?;
                let out_info = a.out_opt(out_info)?;
                let token = a.bytes(token.ptr, token.len)?;
                let binding = a.bytes(binding, MRTR_BINDING_BYTES)?;
                let principal = principal_of(a, principal)?;
                let scratch = a.out_buf(scratch, scratch_len)?;
                let binding: &[u8; 32] = binding
                    .try_into()
                    .map_err(|_| mrtr_status::MRTR_ERR_INTERNAL)?;
                match s.unseal(now, token, binding, principal, scratch) {
                    Ok(u) => {
                        out_state.write(mrtr_bytes {
                            ptr: u.state.as_ptr(),
                            len: u.state.len(),
                        });
                        if let Some(info) = out_info {
                            info.write(mrtr_unsealed_info {
                                token_id: u.token_id,
                                expires_at: u.expires_at,
                            });
                        }
                        Ok(())
                    }
                    Err(e) => match reason_of(e) {
                        Some(r) => {
                            out_reason.write(r);
                            Err(mrtr_status::MRTR_ERR_INVALID_REQUEST_STATE)
                        }
                        None => Err(mrtr_status::MRTR_ERR_BUFFER_TOO_SMALL),
                    },
                }
            })
        })
    })
}
