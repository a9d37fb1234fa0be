//! `mrtr_sse_*`: an incremental Server-Sent Events decoder in caller
//! memory, for the Streamable HTTP transport (a response body of
//! `text/event-stream`).
//!
//! The workspace holds the decoder's state and, after it, the event data
//! buffer: its length is the largest event the decoder accepts. The
//! decoder keeps a pointer into its own workspace, so a workspace must not
//! be moved or copied while in use (handles of a moved workspace are
//! refused).

#![allow(non_camel_case_types)]

use core::ffi::c_void;

use mrtr_core::client::sse::SseDecoder;

use crate::abi::{run, Args};
use crate::mrtr_status;
use crate::object::{self, magic, Obj};
use crate::status::status_of;
use crate::types::mrtr_str;

/// An SSE decoder living in caller memory (opaque).
pub struct mrtr_sse_decoder {
    _opaque: [u8; 0],
}

/// One dispatched event: views into the decoder's workspace, valid until
/// the next call on the decoder.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mrtr_sse_event {
    /// An event was dispatched (the other fields are set only then).
    pub has_event: bool,
    /// The event type; `"message"` when the event named none (MCP
    /// messages are `message` events).
    pub event_type: mrtr_str,
    /// The data lines joined with `\n`: for MCP, one JSON-RPC message to
    /// feed to the call (copy it first if the call's feed must outlive the
    /// next decoder call).
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
        f(
            obj.value().as_mut().ok_or(mrtr_status::MRTR_ERR_INTERNAL)?,
            &mut args,
        )
    })())
}

/// Writes to `*out_size` the workspace bytes of a decoder whose events may
/// hold up to `max_event_bytes` bytes of data (1 MiB, the default maximum
/// message size, accepts every message a call reads with default limits).
///
/// Returns `MRTR_OK`, `MRTR_ERR_INVALID_ARGUMENT` (overflow).
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
            .write(size.ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?);
        Ok(())
    })
}

/// Starts a decoder in `workspace` (`len` bytes, aligned to
/// `MRTR_WORKSPACE_ALIGN`): everything after the decoder's state is the
/// event buffer (`mrtr_sse_decoder_size(0)` is the smallest workspace, and
/// accepts only empty events). Writes the handle to `*out_dec`.
///
/// Returns `MRTR_OK`, `MRTR_ERR_WORKSPACE_TOO_SMALL`,
/// `MRTR_ERR_INVALID_ARGUMENT`.
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
        out.write(ws.cast());
        Ok(())
    })
}

/// Feeds bytes of the event stream, in chunks of any size split anywhere.
/// Consumes bytes from `chunk` until an event is dispatched, an event
/// fails, or the chunk is used up, and writes the bytes consumed to
/// `*consumed` (on `MRTR_OK` and on the event errors below). Call again
/// with the rest of the chunk (`chunk + *consumed`) until it is empty.
///
/// Returns `MRTR_OK` (`out->has_event` tells whether an event completed);
/// `MRTR_ERR_LIMIT_EXCEEDED` (an event's data exceeds the buffer, or its type
/// or id is too long) or `MRTR_ERR_INVALID_UTF8`: that event failed, the
/// decoder has recovered and skips the rest of it, keep feeding.
///
/// # Safety
/// `dec` must be a live handle; `chunk` must point to `len` readable
/// bytes; `consumed` to a writable `size_t`; `out` to a writable
/// `mrtr_sse_event`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_sse_feed(
    dec: *mut mrtr_sse_decoder,
    chunk: *const u8,
    len: usize,
    consumed: *mut usize,
    out: *mut mrtr_sse_event,
) -> mrtr_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_decoder(dec, |d, a| {
            let (consumed, out, input) = (a.out(consumed)?, a.out(out)?, a.bytes(chunk, len)?);
            let mut rest = input;
            let result = d.feed(&mut rest);
            consumed.write(input.len().saturating_sub(rest.len()));
            let e = result.transpose()?;
            out.write(mrtr_sse_event {
                has_event: e.is_some(),
                event_type: mrtr_str::opt(e.as_ref().map(|e| e.event_type)),
                data: mrtr_str::opt(e.as_ref().map(|e| e.data)),
                last_event_id: mrtr_str::opt(e.as_ref().map(|e| e.last_event_id)),
            });
            Ok(())
        })
    }
}

/// Ends the current stream (the connection closed): an unfinished event or
/// line is discarded, as the standard requires. The decoder is then ready
/// for the next stream (a reconnection) and keeps the last event id and
/// the reconnection time. Writes whether anything was discarded to
/// `*out_discarded` (optional, may be NULL).
///
/// Common statuses only.
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
            let out = a.out_opt(out_discarded)?;
            let discarded = d.end_of_stream();
            if let Some(o) = out {
                o.write(discarded);
            }
            Ok(())
        })
    }
}

/// What a client needs to reconnect to the stream: the last event id
/// committed by a dispatch (send it as `Last-Event-ID`) and the server's
/// reconnection time.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mrtr_sse_reconnect {
    /// The last event id; empty when none. A view into the workspace, valid
    /// until the next call on the decoder.
    pub last_event_id: mrtr_str,
    /// The reconnection time the server set with `retry`, ms (values beyond
    /// `uint64_t` saturate), when `has_retry_ms`.
    pub retry_ms: u64,
    /// The server set a reconnection time.
    pub has_retry_ms: bool,
}

/// Writes to `*out` what a reconnection needs (`Last-Event-ID` and the
/// server's `retry`). Common statuses only.
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
            a.out(out)?.write(mrtr_sse_reconnect {
                last_event_id: mrtr_str::from_str(d.last_event_id()),
                retry_ms: retry.unwrap_or(0),
                has_retry_ms: retry.is_some(),
            });
            Ok(())
        })
    }
}
