//! `mrtr_sse_*`: an incremental Server-Sent Events decoder in caller
//! memory, for the Streamable HTTP transport (a response body of
//! `text/event-stream`).
//!
//! The workspace holds the decoder's state and, after it, the event data
//! buffer: its length is the largest event the decoder accepts. The
//! decoder keeps a pointer into its own workspace, so a workspace must not
//! be moved or copied while in use (handles of a moved workspace are
//! refused).

use core::ffi::{c_char, c_void};

use mrtr_core::client::sse::SseDecoder;

use crate::abi::{run, Args, Put};
use crate::mrtr_status::{self, *};
use crate::object::{self, magic, Obj};
use crate::status::status_of;
use crate::types::mrtr_str;

/// An SSE decoder living in caller memory (opaque).
pub struct mrtr_sse_decoder {
    _opaque: [u8; 0],
}

/// One dispatched event: views into the workspace, valid until the next call.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mrtr_sse_event {
    /// An event was dispatched (the other fields are set only then).
    pub has_event: bool,
    /// The event type; `"message"` when the event named none.
    pub event_type: mrtr_str,
    /// The data lines joined with `\n`: for MCP, one JSON-RPC message.
    pub data: mrtr_str,
    /// The last event id at dispatch (empty when none was ever set).
    pub last_event_id: mrtr_str,
}

type Decoder = Option<SseDecoder<'static>>;

/// Runs `f` on the live decoder behind `dec`.
///
/// # Safety
/// `dec` must be NULL or a live handle from `mrtr_sse_init`.
unsafe fn with_decoder(
    dec: *const mrtr_sse_decoder,
    f: impl FnOnce(&mut SseDecoder<'static>, &mut Args) -> Result<(), mrtr_status>,
) -> mrtr_status {
    status_of((|| {
        // SAFETY: forwarded contract.
        let mut obj: Obj<'_, Decoder> = unsafe { object::attach(dec.cast(), magic::SSE) }?;
        let mut args = Args::new(obj.span());
        let d = obj.value().as_mut().ok_or(MRTR_ERR_INTERNAL)?;
        f(d, &mut args)
    })())
}

/// Writes the workspace size of a decoder for events of up to
/// `max_event_bytes` of data (1 MiB fits any default-limit message).
/// `MRTR_ERR_INVALID_ARGUMENT` (overflow).
///
/// # Safety
/// `out_size` must point to a writable `size_t`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_sse_decoder_size(
    max_event_bytes: usize,
    out_size: *mut usize,
) -> mrtr_status {
    // SAFETY: caller contract.
    run(|a| unsafe {
        let size = object::workspace_size::<Decoder>(max_event_bytes);
        a.out(out_size)?
            .done(size.ok_or(MRTR_ERR_INVALID_ARGUMENT)?)
    })
}

/// Starts a decoder in `workspace`, the rest of it past the state being the
/// event buffer; writes the handle. `MRTR_ERR_WORKSPACE_TOO_SMALL` (below
/// `mrtr_sse_decoder_size(0)`).
///
/// # Safety
/// `workspace` must point to `len` writable bytes lent to the decoder
/// while it is used (not moved, copied or otherwise used meanwhile);
/// `out_dec` must point to a writable `mrtr_sse_decoder *`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_sse_init(
    workspace: *mut c_void,
    len: usize,
    out_dec: *mut *mut mrtr_sse_decoder,
) -> mrtr_status {
    run(|a| {
        // SAFETY: caller contract.
        let out = unsafe { a.out(out_dec) }?;
        let ws = workspace.cast::<u8>();
        // SAFETY: caller contract; `out_dec` may not lie inside.
        let mut obj = unsafe { object::init::<Decoder>(ws, len, 0, None, a) }?;
        let (ptr, n) = obj.region_raw();
        // SAFETY: the region lies inside the workspace the caller lends to
        // the decoder for as long as it is used, after the record and
        // disjoint from it; only the decoder stored in the record ever
        // references it (handles to a moved workspace are refused).
        let data: &'static mut [u8] = unsafe { core::slice::from_raw_parts_mut(ptr, n) };
        *obj.value() = Some(SseDecoder::new(data));
        obj.activate(magic::SSE);
        out.done(ws.cast())
    })
}

/// Feeds stream bytes, split anywhere, up to one event: writes the bytes used
/// to `*consumed` (also on the errors below); call again with the rest.
/// `MRTR_OK` (`out->has_event`); `MRTR_ERR_LIMIT_EXCEEDED` (event over the
/// buffer, type or id too long), `MRTR_ERR_INVALID_UTF8`: event skipped, go on.
/// On a failure `*out_reason` (optional) names the cause: `"EventTooLarge"`
/// (a larger decoder would take it), `"EventTypeTooLong"`,
/// `"EventIdTooLong"`, `"InvalidUtf8"`, or the status's own name.
///
/// # Safety
/// `dec` must be a live handle; `chunk` must point to `len` readable
/// bytes; `consumed` to a writable `size_t`; `out` to a writable
/// `mrtr_sse_event`; `out_reason` NULL or a writable `const char *`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_sse_feed(
    dec: *mut mrtr_sse_decoder,
    chunk: *const u8,
    len: usize,
    consumed: *mut usize,
    out: *mut mrtr_sse_event,
    out_reason: *mut *const c_char,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_decoder(dec, |d, a| {
            a.told(out_reason, |a| {
                let (consumed, out) = (a.out(consumed)?, a.out(out)?);
                let input = a.bytes(chunk, len)?;
                let mut rest = input;
                let result = d.feed(&mut rest);
                consumed.write(input.len().saturating_sub(rest.len()));
                let e = result
                    .transpose()
                    .map_err(|e| a.refuse(e.into(), e.name()))?;
                out.done(mrtr_sse_event {
                    has_event: e.is_some(),
                    event_type: mrtr_str::opt(e.as_ref().map(|e| e.event_type)),
                    data: mrtr_str::opt(e.as_ref().map(|e| e.data)),
                    last_event_id: mrtr_str::opt(e.as_ref().map(|e| e.last_event_id)),
                })
            })
        })
    }
}

/// The connection closed: drops an unfinished event (writes whether to
/// `*out_discarded` if not NULL), keeps the last id and retry for the next.
///
/// # Safety
/// `dec` must be a live handle; `out_discarded` NULL or writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_sse_end_of_stream(
    dec: *mut mrtr_sse_decoder,
    out_discarded: *mut bool,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_decoder(dec, |d, a| {
            a.out_opt(out_discarded)?.put(d.end_of_stream());
            Ok(())
        })
    }
}

/// What a reconnection needs: `Last-Event-ID` and the server's `retry`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mrtr_sse_reconnect {
    /// The last event id, empty when none (valid until the next call).
    pub last_event_id: mrtr_str,
    /// The server's `retry` in ms (saturating), when `has_retry_ms`.
    pub retry_ms: u64,
    /// The server set a reconnection time.
    pub has_retry_ms: bool,
}

/// Writes what a reconnection needs to `*out`.
///
/// # Safety
/// `dec` must be a live handle; `out` must point to a writable
/// `mrtr_sse_reconnect`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_sse_reconnect_info(
    dec: *const mrtr_sse_decoder,
    out: *mut mrtr_sse_reconnect,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_decoder(dec, |d, a| {
            let retry = d.reconnection_time_ms();
            a.out(out)?.done(mrtr_sse_reconnect {
                last_event_id: mrtr_str::from_str(d.last_event_id()),
                retry_ms: retry.unwrap_or(0),
                has_retry_ms: retry.is_some(),
            })
        })
    }
}
