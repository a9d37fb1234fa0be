//! Objects in caller memory (the `ZSTD_initStaticCCtx` pattern).
//!
//! A workspace starts with a record: a magic word naming the object type,
//! the record's own address, the length of the byte region that follows,
//! and the Rust value (a call's plain-data state, a sealer, ...). The
//! object's byte region follows the record. A handle (`mrtr_call *`, ...)
//! is the workspace's address.
//!
//! Every function that takes a handle checks, before it creates any
//! reference: non-NULL, aligned, the magic of that object type, and the
//! stored address equal to the handle. That turns a handle of another type,
//! a never-initialized or zeroed workspace, a workspace whose `_init`
//! failed, and a workspace that was copied or moved elsewhere into
//! `MRTR_ERR_INVALID_ARGUMENT`. It cannot catch a pointer to unmapped or
//! freed memory (reading the magic there is already undefined behaviour in
//! C), nor memory the application scribbled over after the magic: those
//! remain the caller's responsibility, as with any C handle.

use core::mem::{align_of, size_of};
use core::ptr::addr_of;

use crate::abi::{check_range, Args, Span, Why, MAX_LEN};
use crate::mrtr_status;

/// The alignment every mrtr workspace needs (`_init` functions return
/// `MRTR_ERR_MISALIGNED` otherwise). `malloc`, `static uint64_t ws[N]` and
/// `MRTR_ALIGNED(8) static uint8_t ws[N]` all satisfy it.
pub const MRTR_WORKSPACE_ALIGN: usize = 8;

/// The record at the start of a workspace.
#[repr(C)]
pub(crate) struct Record<T> {
    /// The object type's magic; 0 while the workspace holds no object.
    magic: u64,
    /// The record's own address: a copied or moved workspace fails the
    /// check instead of being used at its new place.
    addr: usize,
    /// Bytes of the region after the record.
    region_len: usize,
    /// The cause's name (a NUL-terminated static string) of the status the
    /// last function on the object returned: empty after `MRTR_OK`.
    reason: *const core::ffi::c_char,
    value: T,
}

/// Bytes before an object's region: its record, rounded up so the region
/// starts aligned too.
pub(crate) const fn record_size<T>() -> usize {
    const { assert!(align_of::<Record<T>>() <= MRTR_WORKSPACE_ALIGN) };
    let n = size_of::<Record<T>>();
    (n + (MRTR_WORKSPACE_ALIGN - 1)) & !(MRTR_WORKSPACE_ALIGN - 1)
}

/// The workspace size for an object of type `T` with `region` bytes after
/// its record; `None` on overflow.
pub(crate) fn workspace_size<T>(region: usize) -> Option<usize> {
    record_size::<T>()
        .checked_add(region)
        .filter(|n| *n <= MAX_LEN)
}

/// A live object: its value, and (raw) its byte region.
// A sealer has no region: a seal-only build never reads it.
#[cfg_attr(not(feature = "client"), allow(dead_code))]
pub(crate) struct Obj<'a, T> {
    rec: &'a mut Record<T>,
    region_ptr: *mut u8,
    region_len: usize,
    span: Span,
}

#[cfg_attr(not(feature = "client"), allow(dead_code))]
impl<'a, T> Obj<'a, T> {
    /// The whole workspace, for overlap checks against other arguments.
    pub(crate) fn span(&self) -> Span {
        self.span
    }

    /// The value.
    pub(crate) fn value(&mut self) -> &mut T {
        &mut self.rec.value
    }

    /// The object's value and its byte region, borrowed together.
    pub(crate) fn split(&mut self) -> (&mut T, &mut [u8]) {
        // SAFETY: the region lies after the record (`record_size` rounds the
        // record up, never down), inside the workspace the caller lent for
        // `'a` (checked by `init` / `attach`), so it is disjoint from `rec`;
        // both borrows end with the borrow of `self`, so they are never
        // handed out twice at once.
        let region = unsafe { core::slice::from_raw_parts_mut(self.region_ptr, self.region_len) };
        (&mut self.rec.value, region)
    }

    /// Records the cause of the status a function on the object returns:
    /// `why` for a failure, empty for `MRTR_OK`.
    pub(crate) fn set_reason(&mut self, why: Why) {
        self.rec.reason = why.as_ptr();
    }

    /// The cause recorded by [`Obj::set_reason`] (NUL-terminated, static).
    pub(crate) fn reason(&self) -> *const core::ffi::c_char {
        self.rec.reason
    }

    /// The region's address and length, for values that keep their own
    /// reference to it (the SSE decoder).
    pub(crate) fn region_raw(&self) -> (*mut u8, usize) {
        (self.region_ptr, self.region_len)
    }

    /// Marks the workspace as holding a live object of this type: from now
    /// on `attach` with `magic` succeeds.
    pub(crate) fn activate(&mut self, magic: u64) {
        self.rec.addr = self.span_start();
        self.rec.magic = magic;
    }

    fn span_start(&self) -> usize {
        core::ptr::from_ref(&*self.rec) as usize
    }
}

/// Checks a workspace address: non-NULL (`MRTR_ERR_NULL_POINTER`) and
/// aligned to [`MRTR_WORKSPACE_ALIGN`] (`MRTR_ERR_MISALIGNED`).
fn check_handle(ws: *const u8) -> Result<(), mrtr_status> {
    if ws.is_null() {
        return Err(mrtr_status::MRTR_ERR_NULL_POINTER);
    }
    if !(ws as usize).is_multiple_of(MRTR_WORKSPACE_ALIGN) {
        return Err(mrtr_status::MRTR_ERR_MISALIGNED);
    }
    Ok(())
}

/// Places `value` at the start of a caller's workspace, not yet active.
///
/// Checks: `ws` non-NULL (`MRTR_ERR_NULL_POINTER`), aligned to
/// [`MRTR_WORKSPACE_ALIGN`] (`MRTR_ERR_MISALIGNED`), `len` at least the
/// record plus `region_needed` (`MRTR_ERR_WORKSPACE_TOO_SMALL`), a range Rust
/// can describe and disjoint from every argument `args` took
/// (`MRTR_ERR_INVALID_ARGUMENT`). Only then is anything written: the record,
/// with its magic cleared, so an object that lived in this workspace before
/// is gone even if the caller's `_init` fails later.
///
/// # Safety
/// `ws` must point to `len` writable bytes that nothing else reads or
/// writes during `'a`, except through the arguments `args` took.
/// Afterwards the record's padding bytes are uninitialized: Rust code must
/// copy a workspace untyped (`ptr::copy`, as C's `memcpy`), never read it as
/// `u8`s.
pub(crate) unsafe fn init<'a, T>(
    ws: *mut u8,
    len: usize,
    region_needed: usize,
    value: T,
    args: &Args,
) -> Result<Obj<'a, T>, mrtr_status> {
    check_handle(ws)?;
    let needed =
        workspace_size::<T>(region_needed).ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?;
    if len < needed {
        return Err(mrtr_status::MRTR_ERR_WORKSPACE_TOO_SMALL);
    }
    check_range(ws as usize, len)?;
    let span = Span::of(ws.cast_const(), len);
    if args.clashes(span) {
        return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
    }
    let head = record_size::<T>();
    let rec = ws.cast::<Record<T>>();
    // SAFETY: `ws` is non-NULL, aligned for `Record<T>` (its alignment is at
    // most MRTR_WORKSPACE_ALIGN, asserted in `record_size`) and points to at
    // least `record_size::<T>()` writable bytes (checked above). `write`
    // neither reads nor drops the old bytes, so uninitialized memory is fine.
    unsafe {
        rec.write(Record {
            magic: 0,
            addr: 0,
            region_len: len - head,
            reason: c"".as_ptr(),
            value,
        })
    };
    // SAFETY: just initialized; the caller lends the memory for `'a` and
    // nothing else references it.
    let rec = unsafe { &mut *rec };
    Ok(Obj {
        rec,
        // In bounds: `head <= needed <= len`.
        region_ptr: ws.wrapping_add(head),
        region_len: len - head,
        span,
    })
}

/// Reattaches to the live object of type `T` that `handle` names.
///
/// Checks, reading only the record's three header words first: non-NULL
/// (`MRTR_ERR_NULL_POINTER`), aligned (`MRTR_ERR_MISALIGNED`), the magic of
/// this type and the stored address equal to `handle`, and a region that
/// fits the address space (`MRTR_ERR_INVALID_ARGUMENT`).
///
/// # Safety
/// `handle` must be NULL or point to readable memory of at least the
/// record's header words; when the header matches, the workspace must be
/// the live one `init` prepared (see the module docs for what the check can
/// and cannot catch) and nothing else may reference it during `'a`.
pub(crate) unsafe fn attach<'a, T>(
    handle: *const u8,
    magic: u64,
) -> Result<Obj<'a, T>, mrtr_status> {
    let head = record_size::<T>();
    // SAFETY: forwarded contract.
    let region_len = unsafe { check_header(handle, magic, head) }?;
    let rec = handle.cast::<Record<T>>().cast_mut();
    // SAFETY: the header names a live object of this type at this address
    // (caller contract for a matching header), so the record holds a valid
    // `T`; the caller lends the workspace for `'a`.
    let rec = unsafe { &mut *rec };
    Ok(Obj {
        rec,
        region_ptr: handle.cast_mut().wrapping_add(head),
        region_len,
        // No overflow: `check_header` checked `head + region_len`.
        span: Span::of(handle, head + region_len),
    })
}

/// The checks of [`attach`] that do not depend on the object's type (one
/// copy for every type): the header words of the record at `handle`, whose
/// record takes `head` bytes, name a live object of `magic` there with a
/// region that fits the address space. Returns the region's length.
///
/// # Safety
/// As [`attach`].
unsafe fn check_header(handle: *const u8, magic: u64, head: usize) -> Result<usize, mrtr_status> {
    check_handle(handle)?;
    // Every `Record<T>` starts with the same three header words (`repr(C)`).
    let rec = handle.cast::<Record<()>>();
    // SAFETY: `rec` is non-NULL and aligned; the caller guarantees the
    // header words are readable. Plain integer reads through raw pointers,
    // no reference to the (possibly foreign) value is created.
    let (m, addr, region_len) = unsafe {
        (
            addr_of!((*rec).magic).read(),
            addr_of!((*rec).addr).read(),
            addr_of!((*rec).region_len).read(),
        )
    };
    if m != magic || addr != handle as usize {
        return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
    }
    let len = head
        .checked_add(region_len)
        .ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?;
    check_range(handle as usize, len)?;
    Ok(region_len)
}

/// Why [`attach`] refuses `handle` as an object of `magic`, as a static
/// name (`None`: it would not refuse it): `"Null"`, `"Misaligned"`,
/// `"MovedOrCopied"` (the record says it was started at another address:
/// the workspace was copied or moved), `"NotAnObject"` (no live object of
/// this type starts here: never initialized, wiped, or another type).
///
/// # Safety
/// As [`attach`].
#[cfg_attr(not(feature = "client"), allow(dead_code))]
pub(crate) unsafe fn refusal(handle: *const u8, magic: u64) -> Option<&'static core::ffi::CStr> {
    match check_handle(handle) {
        Err(mrtr_status::MRTR_ERR_NULL_POINTER) => return Some(c"Null"),
        Err(_) => return Some(c"Misaligned"),
        Ok(()) => {}
    }
    let rec = handle.cast::<Record<()>>();
    // SAFETY: as in `attach`: non-NULL, aligned, header words readable
    // (caller contract); plain integer reads.
    let (m, addr) = unsafe { (addr_of!((*rec).magic).read(), addr_of!((*rec).addr).read()) };
    match (m == magic, addr == handle as usize) {
        (true, false) => Some(c"MovedOrCopied"),
        (false, _) => Some(c"NotAnObject"),
        (true, true) => None,
    }
}

/// Reattaches to a second object beside the one `args` works on (a runner
/// beside its call): as [`attach`], and its header words, then its whole
/// workspace, are claimed through `args` before they are read, so it
/// overlaps neither that object nor any argument.
///
/// # Safety
/// As [`attach`].
#[cfg(feature = "client")]
pub(crate) unsafe fn attach_beside<'a, T>(
    handle: *const u8,
    magic: u64,
    args: &mut Args,
) -> Result<Obj<'a, T>, mrtr_status> {
    let header = Span::of(handle, size_of::<u64>() + 2 * size_of::<usize>());
    if !handle.is_null() && args.taken(header) {
        return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
    }
    // SAFETY: forwarded contract; the header words overlap nothing borrowed.
    let obj = unsafe { attach::<T>(handle, magic) }?;
    args.object(obj.span())?;
    Ok(obj)
}

/// Magic words of the object types ("mrtr" + a type tag + a layout
/// version, little endian).
pub(crate) mod magic {
    /// `mrtr_call`.
    #[cfg(feature = "client")]
    pub(crate) const CALL: u64 = u64::from_le_bytes(*b"mrtrCAL2");
    /// `mrtr_sse_decoder`.
    #[cfg(feature = "client")]
    pub(crate) const SSE: u64 = u64::from_le_bytes(*b"mrtrSSE1");
    /// `mrtr_runner`.
    #[cfg(feature = "client")]
    pub(crate) const RUNNER: u64 = u64::from_le_bytes(*b"mrtrRUN1");
    /// `mrtr_sealer`.
    #[cfg(feature = "seal")]
    pub(crate) const SEALER: u64 = u64::from_le_bytes(*b"mrtrSEA1");
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST_A: u64 = u64::from_le_bytes(*b"mrtrTSTA");
    const TEST_B: u64 = u64::from_le_bytes(*b"mrtrTSTB");

    #[repr(C, align(8))]
    struct Ws([u8; 128]);

    #[test]
    fn init_then_attach_round_trips_and_checks_the_header() {
        let mut ws = Ws([0xAA; 128]);
        let p = ws.0.as_mut_ptr();
        // SAFETY: `ws` is live, aligned and not otherwise borrowed.
        let mut obj = unsafe { init::<u32>(p, 128, 16, 7, &Args::free()) }.unwrap();
        assert_eq!(*obj.value(), 7);
        // Not active yet: attach refuses. (`obj` is not used after this
        // read through `p`: its unique borrow would be invalidated, which
        // Miri reports as undefined behaviour; an `_init` call never reads
        // the workspace through the handle while it holds the object.)
        // SAFETY: the header words are readable.
        let r = unsafe { attach::<u32>(p, TEST_A) };
        assert_eq!(r.err(), Some(mrtr_status::MRTR_ERR_INVALID_ARGUMENT));
        // SAFETY: as above; the same workspace, initialized again.
        unsafe { init::<u32>(p, 128, 16, 7, &Args::free()) }
            .unwrap()
            .activate(TEST_A);
        // SAFETY: live object of this type.
        let mut again = unsafe { attach::<u32>(p, TEST_A) }.unwrap();
        assert_eq!(*again.value(), 7);
        let (_, region) = again.split();
        assert_eq!(region.len(), 128 - record_size::<u32>());
        // Another type's magic is refused.
        // SAFETY: the header words are readable.
        let r = unsafe { attach::<u32>(p, TEST_B) };
        assert_eq!(r.err(), Some(mrtr_status::MRTR_ERR_INVALID_ARGUMENT));
    }

    #[test]
    fn a_copied_workspace_is_refused_at_its_new_address() {
        let mut ws = Ws([0; 128]);
        let p = ws.0.as_mut_ptr();
        // SAFETY: `ws` is live, aligned and not otherwise borrowed.
        unsafe { init::<u32>(p, 128, 0, 1, &Args::free()) }
            .unwrap()
            .activate(TEST_A);
        // Copied as C's memcpy does: untyped. The record's padding bytes are
        // uninitialized after `init` (a typed write leaves padding so), and
        // a typed copy of the array (`Ws(ws.0)`) reads them as `u8`, which
        // Miri reports as undefined behaviour.
        let mut copy = Ws([0; 128]);
        // SAFETY: both arrays are live, 128 bytes, and do not overlap.
        unsafe { core::ptr::copy_nonoverlapping(ws.0.as_ptr(), copy.0.as_mut_ptr(), 128) };
        // SAFETY: the header words are readable.
        let r = unsafe { attach::<u32>(copy.0.as_ptr(), TEST_A) };
        assert_eq!(r.err(), Some(mrtr_status::MRTR_ERR_INVALID_ARGUMENT));
    }

    #[test]
    fn init_checks_null_alignment_size_and_overlap() {
        let mut ws = Ws([0; 128]);
        let p = ws.0.as_mut_ptr();
        let need = record_size::<u32>() + 8;
        // SAFETY: refused before any write.
        let r = unsafe { init::<u32>(core::ptr::null_mut(), 128, 8, 0, &Args::free()) };
        assert_eq!(r.err(), Some(mrtr_status::MRTR_ERR_NULL_POINTER));
        // SAFETY: refused before any write.
        let r = unsafe { init::<u32>(p.wrapping_add(4), 100, 8, 0, &Args::free()) };
        assert_eq!(r.err(), Some(mrtr_status::MRTR_ERR_MISALIGNED));
        // SAFETY: refused before any write.
        let r = unsafe { init::<u32>(p, need - 1, 8, 0, &Args::free()) };
        assert_eq!(r.err(), Some(mrtr_status::MRTR_ERR_WORKSPACE_TOO_SMALL));
        let mut args = Args::free();
        // SAFETY: bytes 100..104 of `ws` are live; only read while `args`
        // holds them (never: the workspace is refused).
        unsafe { args.bytes(p.wrapping_add(100).cast_const(), 4) }.unwrap();
        // SAFETY: refused before any write.
        let r = unsafe { init::<u32>(p, 128, 8, 0, &args) };
        assert_eq!(r.err(), Some(mrtr_status::MRTR_ERR_INVALID_ARGUMENT));
        // SAFETY: `ws` is live, aligned and not otherwise borrowed.
        assert!(unsafe { init::<u32>(p, need, 8, 0, &Args::free()) }.is_ok());
    }
}
