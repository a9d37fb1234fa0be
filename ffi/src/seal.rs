//! `mrtr_seal*` / `mrtr_unseal`: sealing `requestState` (docs/ARCHITECTURE.md,
//! section 7) for servers written in C. A sealer is a key ring, an audience and
//! limits, held by value in caller memory (`mrtr_sealer_size` bytes); it
//! holds key material, so wipe it with `mrtr_sealer_wipe` when done. Every
//! sealing function runs in the core's one scrubbed frame
//! (`in_own_frame_then_scrub`).

use core::ffi::{c_char, c_void, CStr};

use mrtr_core::json::{self, BufferTooSmall, ParseLimits};
use mrtr_core::seal::{
    binding_digest, in_own_frame_then_scrub, scrub_stack, token_len, unseal_scratch_len,
    CanonError, PrincipalDigest, SealConfig, SealError, Sealer, UnsealError,
    DEFAULT_CLOCK_SKEW_SECONDS, DEFAULT_MAX_TOKEN_BYTES, DEFAULT_TTL_SECONDS,
    MAX_CLOCK_SKEW_SECONDS, MAX_KEYS, MAX_TTL_SECONDS, MAX_UNIX_TIME, MIN_KEY_BYTES, NONCE_BYTES,
    SCRUB_STACK_BYTES, TOKEN_ID_BYTES,
};

use crate::abi::{finish_output, run, Args, Put};
use crate::mrtr_status;
use crate::mrtr_status as S;
use crate::object::{self, magic, Obj};
use crate::status::status_of;
use crate::types::{c_enum, mrtr_bytes, mrtr_str, same};

/// A sealer living in caller memory (opaque).
pub struct mrtr_sealer {
    _opaque: [u8; 0],
}

// Sizes and bounds whose names say what they are; each equals the core's
// (asserted below).
#[allow(missing_docs)]
pub const MRTR_SEAL_MAX_KEYS: usize = 8;
#[allow(missing_docs)]
pub const MRTR_SEAL_MIN_KEY_BYTES: usize = 32;
#[allow(missing_docs)]
pub const MRTR_SEAL_NONCE_BYTES: usize = 24;
#[allow(missing_docs)]
pub const MRTR_SEAL_MAX_TTL_SECONDS: u64 = 86_400;
#[allow(missing_docs)]
pub const MRTR_SEAL_MAX_SKEW_SECONDS: u64 = 300;
#[allow(missing_docs)]
pub const MRTR_SEAL_TOKEN_ID_BYTES: usize = 16;
#[allow(missing_docs)]
pub const MRTR_BINDING_BYTES: usize = 32;
#[allow(missing_docs)]
pub const MRTR_PRINCIPAL_DIGEST_BYTES: usize = 32;
#[allow(missing_docs)]
pub const MRTR_SEAL_DEFAULT_TTL_SECONDS: u64 = 600;
#[allow(missing_docs)]
pub const MRTR_INVALID_REQUEST_STATE_CODE: i32 = -32602;
/// Latest `now` `mrtr_seal` and `mrtr_unseal` accept: 9999-12-31T23:59:59Z.
pub const MRTR_SEAL_MAX_UNIX_TIME: u64 = 253_402_300_799;
/// Dead stack the sealing functions zero before returning (release build;
/// 32 KiB with debug assertions): they need this much plus their frames.
pub const MRTR_SEAL_SCRUB_STACK_BYTES: usize = if usize::BITS >= 64 { 8192 } else { 4096 };
/// Suggested clock skew allowance: 60 s.
pub const MRTR_SEAL_DEFAULT_SKEW_SECONDS: u64 = 60;
/// Default largest token (`max_token` 0): with its quotes, a call's 4 KiB.
pub const MRTR_SEAL_DEFAULT_MAX_TOKEN_BYTES: usize = 4094;

same! {
    MRTR_SEAL_MAX_KEYS => MAX_KEYS,
    MRTR_SEAL_MIN_KEY_BYTES => MIN_KEY_BYTES,
    MRTR_SEAL_NONCE_BYTES => NONCE_BYTES,
    MRTR_SEAL_DEFAULT_TTL_SECONDS => DEFAULT_TTL_SECONDS,
    MRTR_SEAL_DEFAULT_SKEW_SECONDS => DEFAULT_CLOCK_SKEW_SECONDS,
    MRTR_SEAL_DEFAULT_MAX_TOKEN_BYTES => DEFAULT_MAX_TOKEN_BYTES,
    MRTR_SEAL_MAX_TTL_SECONDS => MAX_TTL_SECONDS,
    MRTR_SEAL_MAX_SKEW_SECONDS => MAX_CLOCK_SKEW_SECONDS,
    MRTR_SEAL_MAX_UNIX_TIME => MAX_UNIX_TIME,
    MRTR_SEAL_TOKEN_ID_BYTES => TOKEN_ID_BYTES,
}
const _: () = assert!(MRTR_INVALID_REQUEST_STATE_CODE as i64 == UnsealError::WIRE_CODE);
const _: () = assert!(cfg!(debug_assertions) || MRTR_SEAL_SCRUB_STACK_BYTES == SCRUB_STACK_BYTES);

/// The message for every `requestState` that fails to unseal, NUL-terminated.
const WIRE_MESSAGE: &CStr = c"Invalid or expired requestState";

/// Why a token was refused, for the log (the wire answer is the same for all;
/// `mrtr_unseal_reason_str` says each in words).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum mrtr_unseal_reason {
    MRTR_UNSEAL_MALFORMED = 1,
    MRTR_UNSEAL_TOO_LARGE = 2,
    MRTR_UNSEAL_UNKNOWN_KEY = 3,
    MRTR_UNSEAL_TAMPERED = 4,
    MRTR_UNSEAL_EXPIRED = 5,
    MRTR_UNSEAL_NOT_YET_VALID = 6,
    MRTR_UNSEAL_WRONG_AUDIENCE = 7,
    MRTR_UNSEAL_WRONG_REQUEST = 8,
    MRTR_UNSEAL_WRONG_PRINCIPAL = 9,
    MRTR_UNSEAL_CLOCK_OUT_OF_RANGE = 10,
}
c_enum! { mrtr_unseal_reason: MRTR_UNSEAL_MALFORMED MRTR_UNSEAL_TOO_LARGE MRTR_UNSEAL_UNKNOWN_KEY MRTR_UNSEAL_TAMPERED
MRTR_UNSEAL_EXPIRED MRTR_UNSEAL_NOT_YET_VALID MRTR_UNSEAL_WRONG_AUDIENCE
MRTR_UNSEAL_WRONG_REQUEST MRTR_UNSEAL_WRONG_PRINCIPAL MRTR_UNSEAL_CLOCK_OUT_OF_RANGE }

/// An accepted token, for a replay cache: `token_id` (distinct per seal, stable
/// under re-escaping) and `expires_at`, its last valid unix second.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct mrtr_unsealed_info {
    pub token_id: [u8; MRTR_SEAL_TOKEN_ID_BYTES],
    pub expires_at: u64,
}

/// Returns a static description of an unseal reason for logs (`"token
/// expired"`; `"unknown reason"` for other numbers).
#[unsafe(no_mangle)]
pub extern "C" fn mrtr_unseal_reason_str(reason: i32) -> *const c_char {
    let e = u32::try_from(reason).ok().and_then(UnsealError::from_code);
    e.map_or(c"unknown reason", |e| e.reason_c()).as_ptr()
}

/// Returns `"Invalid or expired requestState"`, the message (with code
/// `MRTR_INVALID_REQUEST_STATE_CODE`) for every refused `requestState`.
#[unsafe(no_mangle)]
pub extern "C" fn mrtr_invalid_request_state_message() -> *const c_char {
    WIRE_MESSAGE.as_ptr()
}

/// Returns the bytes `mrtr_sealer_init` needs.
#[unsafe(no_mangle)]
pub extern "C" fn mrtr_sealer_size() -> usize {
    object::record_size::<Sealer>()
}

/// Returns the exact length of a token of `state_len` bytes of state (and a
/// principal when `principal`); saturates at `SIZE_MAX`.
#[unsafe(no_mangle)]
pub extern "C" fn mrtr_seal_token_len(state_len: usize, principal: bool) -> usize {
    token_len(state_len, principal)
}

/// Returns the scratch `mrtr_unseal` needs for a `token_len`-byte token (at
/// most `token_len`).
#[unsafe(no_mangle)]
pub extern "C" fn mrtr_unseal_scratch_len(token_len: usize) -> usize {
    unseal_scratch_len(token_len)
}

/// Runs a sealing function's body in the core's one scrubbed frame (not
/// generic: every sealing function shares it).
fn scrubbed(body: &mut dyn FnMut() -> Result<(), S>) -> S {
    let mut status = S::MRTR_ERR_INTERNAL;
    in_own_frame_then_scrub(&mut || status = status_of(body()));
    status
}

/// Runs `f` on the live sealer behind `sealer`.
///
/// # Safety
/// `sealer` must be NULL or a live handle from `mrtr_sealer_init`.
unsafe fn with_sealer(
    sealer: *const mrtr_sealer,
    f: impl FnOnce(&Sealer, &mut Args) -> Result<(), S>,
) -> Result<(), S> {
    // SAFETY: forwarded contract.
    let mut obj: Obj<'_, Sealer> = unsafe { object::attach(sealer.cast(), magic::SEALER) }?;
    let mut args = Args::new(obj.span());
    f(obj.value(), &mut args)
}

/// Reads an optional principal.
///
/// # Safety
/// `p` must be NULL or point to a readable `mrtr_bytes` whose bytes are
/// readable.
unsafe fn principal_of<'a>(a: &mut Args, p: *const mrtr_bytes) -> Result<Option<&'a [u8]>, S> {
    // SAFETY: caller contract.
    match unsafe { a.reference_opt(p) }? {
        // SAFETY: caller contract.
        Some(b) => Ok(Some(unsafe { a.bytes(b.ptr, b.len) }?)),
        None => Ok(None),
    }
}

/// A 32-byte binding digest the caller lends.
///
/// # Safety
/// `p` must point to 32 readable bytes (NULL is refused).
unsafe fn binding_of<'a>(a: &mut Args, p: *const u8) -> Result<&'a [u8; 32], S> {
    // SAFETY: caller contract.
    let b = unsafe { a.bytes(p, MRTR_BINDING_BYTES) }?;
    b.try_into().map_err(|_| S::MRTR_ERR_INTERNAL)
}

/// Builds a sealer in `mem` (`len` >= `mrtr_sealer_size()`), handle in `*out`.
/// `keys`: 1 to `MRTR_SEAL_MAX_KEYS` secrets (copied) of at least
/// `MRTR_SEAL_MIN_KEY_BYTES`; `keys[0]` seals, all unseal (rotation:
/// docs/ARCHITECTURE.md, section 7). `audience`: 1 to 256 bytes. 0 selects the
/// default `ttl_seconds` and `max_token`; `skew_seconds` is as given.
///
/// Returns `MRTR_OK`, `MRTR_ERR_KEY_ERROR` (count, length, all-equal bytes,
/// repeated key id), `MRTR_ERR_INVALID_ARGUMENT` (audience, `max_token`, ttl or
/// skew over its maximum), `MRTR_ERR_WORKSPACE_TOO_SMALL`,
/// `MRTR_ERR_INVALID_UTF8`. On a failure `*out_reason` (optional) names the
/// cause: `"NoKeys"`, `"TooManyKeys"`, `"KeyTooShort"`, `"WeakKey"`,
/// `"DuplicateKeyId"`, `"EmptyAudience"`, `"AudienceTooLong"`,
/// `"MaxTokenTooSmall"`, `"TtlOutOfRange"`, `"SkewOutOfRange"`, or the
/// status's own name.
///
/// # Safety
/// `mem` must point to `len` writable bytes lent to the sealer while it is
/// used; `keys` to `nkeys` readable `mrtr_bytes` whose bytes are readable;
/// `audience` readable; `out` must point to a writable `mrtr_sealer *`;
/// `out_reason` NULL or a writable `const char *`.
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
    out_reason: *mut *const c_char,
) -> mrtr_status {
    scrubbed(&mut || {
        // SAFETY: caller contract; every pointer is checked as it is taken
        // (`out_reason` first).
        unsafe {
            Args::free().told(out_reason, |a| {
                let (out, given) = (a.out(out)?, a.array(keys, nkeys)?);
                let mut ring: [&[u8]; MAX_KEYS] = [&[]; MAX_KEYS];
                for (slot, k) in ring.iter_mut().zip(given) {
                    *slot = a.bytes(k.ptr, k.len)?;
                }
                let keys = ring
                    .get(..given.len())
                    .ok_or_else(|| a.refuse(S::MRTR_ERR_KEY_ERROR, c"TooManyKeys"))?;
                let audience = a.str(audience)?;
                let config = SealConfig::or_defaults(ttl_seconds, skew_seconds, max_token);
                let mut slot = None;
                Sealer::new_in(&mut slot, keys, audience.as_bytes(), config).map_err(|e| {
                    let st = if e.is_about_keys() {
                        S::MRTR_ERR_KEY_ERROR
                    } else {
                        S::MRTR_ERR_INVALID_ARGUMENT
                    };
                    a.refuse(st, e.name())
                })?;
                let sealer = slot.ok_or(S::MRTR_ERR_INTERNAL)?;
                let ws = mem.cast::<u8>();
                // Overlaps with every argument taken refused.
                let mut obj = object::init::<Sealer>(ws, len, 0, sealer, a)?;
                obj.activate(magic::SEALER);
                out.write(ws.cast());
                Ok(())
            })
        }
    })
}

/// Zeroes the sealer (derived keys included) and dead stack; the handle is then
/// invalid. A NULL or invalid handle is ignored.
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

/// Writes to `out` (`MRTR_BINDING_BYTES`) the binding digest of a request: its
/// method, target (name or URI) and canonical `arguments` (NULL with length 0:
/// none).
///
/// Returns `MRTR_OK`, `MRTR_ERR_JSON` (not JSON, a duplicate key),
/// `MRTR_ERR_LIMIT_EXCEEDED` (too deep, too many members),
/// `MRTR_ERR_INVALID_UTF8`. On a failure `*out_reason` (optional) names the
/// cause: a JSON error's kind (`"UnexpectedByte"`, `"TooDeep"`, ...),
/// `"DuplicateKey"`, `"TooManyMembers"`, `"TooManyOpenMembers"`,
/// `"TooLarge"`, or the status's own name.
///
/// # Safety
/// `method`, `target` readable; `arguments` NULL or pointing to
/// `arguments_len` readable bytes; `out` to 32 writable bytes; `out_reason`
/// NULL or a writable `const char *`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_binding_digest(
    method: mrtr_str,
    target: mrtr_str,
    arguments: *const u8,
    arguments_len: usize,
    out: *mut u8,
    out_reason: *mut *const c_char,
) -> mrtr_status {
    // SAFETY: caller contract; every pointer is checked as it is taken
    // (`out_reason` first; `out` with its length of 32: NULL and overlaps
    // refused).
    run(|a| unsafe {
        a.told(out_reason, |a| {
            let (method, target) = (a.str(method)?, a.str(target)?);
            let args = a.bytes_opt(arguments, arguments_len)?;
            let out = a.out_buf(out, MRTR_BINDING_BYTES)?;
            let value = match args {
                Some(v) => Some(
                    json::parse_with(v, &ParseLimits::default())
                        .map_err(|e| a.refuse(e.into(), e.kind.name()))?,
                ),
                None => None,
            };
            let digest = binding_digest(method, target, value).map_err(|e| {
                let st = match e {
                    CanonError::DuplicateKey => S::MRTR_ERR_JSON,
                    _ => S::MRTR_ERR_LIMIT_EXCEEDED,
                };
                a.refuse(st, e.name())
            })?;
            out.copy_from_slice(&digest);
            Ok(())
        })
    })
}

/// Writes to `out` (`MRTR_PRINCIPAL_DIGEST_BYTES`) SHA-256 of `principal`, what
/// a token binds: a key for shared records that is not the credential. Returns
/// `MRTR_OK` or a common status.
///
/// # Safety
/// `principal` readable; `out` must point to 32 writable bytes.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_principal_digest(principal: mrtr_bytes, out: *mut u8) -> mrtr_status {
    run(|a| {
        // SAFETY: caller contract; the pointer is checked as it is taken.
        let principal = unsafe { a.bytes(principal.ptr, principal.len) }?;
        if out.is_null() {
            return Err(S::MRTR_ERR_NULL_POINTER);
        }
        // SAFETY: caller contract; overlaps with the principal refused.
        let out = unsafe { a.out_buf(out, MRTR_PRINCIPAL_DIGEST_BYTES) }?;
        out.copy_from_slice(PrincipalDigest::of(principal).as_bytes());
        Ok(())
    })
}

/// Seals `state` into a token (ASCII, `mrtr_seal_token_len` bytes) in `out`.
/// `now`: unix seconds; `nonce`: `MRTR_SEAL_NONCE_BYTES`, random or a counter
/// (a repeat is safe); `binding`: `mrtr_binding_digest`; `principal`: NULL
/// for none. Output convention of `mrtr_json_write_string`.
///
/// Returns `MRTR_OK`, `MRTR_ERR_BUFFER_TOO_SMALL`, `MRTR_ERR_LIMIT_EXCEEDED`
/// (over `max_token`), `MRTR_ERR_INVALID_ARGUMENT` (`now` out of range).
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
    // SAFETY: forwarded contract; every pointer is checked as it is taken.
    scrubbed(&mut || unsafe {
        with_sealer(sealer, |s, a| {
            let out_written = a.out(out_written)?;
            let nonce = a.bytes(nonce, NONCE_BYTES)?;
            let (binding, principal) = (binding_of(a, binding)?, principal_of(a, principal)?);
            let (state, out) = (a.bytes(state.ptr, state.len)?, a.out_buf(out, out_len)?);
            let nonce = nonce.try_into().map_err(|_| S::MRTR_ERR_INTERNAL)?;
            match s.seal(now, nonce, binding, principal, state, out) {
                Ok(n) => finish_output(Ok(n), out_written),
                Err(SealError::BufferTooSmall { needed }) => {
                    finish_output(Err(BufferTooSmall { needed }), out_written)
                }
                Err(SealError::TooLarge { .. }) => Err(S::MRTR_ERR_LIMIT_EXCEEDED),
                Err(SealError::ClockOutOfRange) => Err(S::MRTR_ERR_INVALID_ARGUMENT),
            }
        })
    })
}

/// Checks `token` (decoded JSON string) for the request that echoed it (`now`,
/// `binding`, `principal`) and views its state in `*out_state`, inside
/// `scratch` (`mrtr_unseal_scratch_len` bytes; zeroed on refusal). `out_info`:
/// NULL, or the token id and last valid second, for a replay cache.
///
/// Returns `MRTR_OK`; `MRTR_ERR_INVALID_REQUEST_STATE` with `*out_reason` (log
/// it; answer `mrtr_server_write_invalid_request_state`);
/// `MRTR_ERR_BUFFER_TOO_SMALL` (scratch).
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
    // SAFETY: forwarded contract; every pointer is checked as it is taken.
    scrubbed(&mut || unsafe {
        with_sealer(sealer, |s, a| {
            let (out_state, out_reason) = (a.out(out_state)?, a.out(out_reason)?);
            let (out_info, token) = (a.out_opt(out_info)?, a.bytes(token.ptr, token.len)?);
            let (binding, principal) = (binding_of(a, binding)?, principal_of(a, principal)?);
            let scratch = a.out_buf(scratch, scratch_len)?;
            let u = s
                .unseal(now, token, binding, principal, scratch)
                .map_err(|e| match e.code().map(mrtr_unseal_reason::of) {
                    Some(r) => {
                        out_reason.write(r);
                        S::MRTR_ERR_INVALID_REQUEST_STATE
                    }
                    None => S::MRTR_ERR_BUFFER_TOO_SMALL,
                })?;
            out_state.write(mrtr_bytes {
                ptr: u.state.as_ptr(),
                len: u.state.len(),
            });
            let (token_id, expires_at) = (u.token_id, u.expires_at);
            out_info.put(mrtr_unsealed_info {
                token_id,
                expires_at,
            });
            Ok(())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_unseal_reasons_are_the_core_numbers() {
        use mrtr_unseal_reason as R;
        let pairs = [
            (R::MRTR_UNSEAL_MALFORMED, UnsealError::Malformed),
            (R::MRTR_UNSEAL_TOO_LARGE, UnsealError::TooLarge),
            (R::MRTR_UNSEAL_UNKNOWN_KEY, UnsealError::UnknownKey),
            (R::MRTR_UNSEAL_TAMPERED, UnsealError::Tampered),
            (R::MRTR_UNSEAL_EXPIRED, UnsealError::Expired),
            (R::MRTR_UNSEAL_NOT_YET_VALID, UnsealError::NotYetValid),
            (R::MRTR_UNSEAL_WRONG_AUDIENCE, UnsealError::WrongAudience),
            (R::MRTR_UNSEAL_WRONG_REQUEST, UnsealError::WrongRequest),
            (R::MRTR_UNSEAL_WRONG_PRINCIPAL, UnsealError::WrongPrincipal),
            (
                R::MRTR_UNSEAL_CLOCK_OUT_OF_RANGE,
                UnsealError::ClockOutOfRange,
            ),
        ];
        for (c, e) in pairs {
            assert_eq!(e.code().map(R::of), Some(c));
        }
    }

    #[test]
    fn the_wire_message_is_the_cores() {
        assert_eq!(WIRE_MESSAGE.to_str(), Ok(UnsealError::WIRE_MESSAGE));
    }
}
