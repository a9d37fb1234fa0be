//! Argument checking shared by every exported function: the one place where
//! raw C pointers become Rust references.
//!
//! Rules (docs/ARCHITECTURE.md, section 9):
//! - an input `(ptr, len)` with `len == 0` is the empty input, whatever `ptr`
//!   is (NULL included); a NULL `ptr` with `len > 0` is `MRTR_ERR_NULL_POINTER`;
//! - a length above `isize::MAX` (`PTRDIFF_MAX`), or a range that wraps the
//!   address space, is `MRTR_ERR_INVALID_ARGUMENT`: Rust slices cannot
//!   describe it, so it can only be a caller bug;
//! - a required out-param that is NULL is `MRTR_ERR_NULL_POINTER`, and one
//!   that is misaligned for its type is `MRTR_ERR_MISALIGNED`;
//! - an output that overlaps an input or another output is
//!   `MRTR_ERR_INVALID_ARGUMENT` (Rust may not hold a `&mut` to memory that a
//!   `&` also covers, and the result would be garbage anyway);
//! - workspaces are checked for NULL, alignment and size (`crate::object`).

use core::marker::PhantomData;
use core::ptr::NonNull;

use crate::mrtr_status;
use crate::types::mrtr_str;

/// The largest length a C caller may pass for one buffer: Rust slices (and
/// C objects, via `ptrdiff_t`) cannot be larger than `isize::MAX` bytes.
pub(crate) const MAX_LEN: usize = isize::MAX as usize;

/// An address range `[start, start + len)`, used to reject overlaps before
/// any reference is created. Empty ranges overlap nothing.
#[derive(Clone, Copy)]
pub(crate) struct Span {
    start: usize,
    len: usize,
}

impl Span {
    /// The span of `len` bytes at `ptr`. Pointers are only compared here,
    /// never dereferenced.
    pub(crate) fn of<T>(ptr: *const T, len: usize) -> Span {
        Span {
            start: ptr as usize,
            len,
        }
    }

    /// The span of one `T` at `ptr` (empty when `ptr` is NULL).
    pub(crate) fn of_one<T>(ptr: *const T) -> Span {
        let len = if ptr.is_null() {
            0
        } else {
            core::mem::size_of::<T>()
        };
        Span::of(ptr, len)
    }

    /// Whether the two spans share at least one byte.
    pub(crate) fn overlaps(self, other: Span) -> bool {
        if self.len == 0 || other.len == 0 {
            return false;
        }
        // Ends saturate: `check_range` has already refused wrapping ranges,
        // and a saturated end still orders correctly.
        let self_end = self.start.saturating_add(self.len);
        let other_end = other.start.saturating_add(other.len);
        self.start < other_end && other.start < self_end
    }
}

/// Refuses a range Rust cannot describe: longer than `isize::MAX` or
/// wrapping around the end of the address space.
fn check_range(addr: usize, len: usize) -> Result<(), mrtr_status> {
    if len > MAX_LEN || addr.checked_add(len).is_none() {
        return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
    }
    Ok(())
}

/// Borrows a caller's input bytes.
///
/// # Safety
/// When `len > 0` and `ptr` is not NULL, `ptr` must point to `len` readable
/// bytes that nothing writes to during `'a` (the C contract of an input
/// buffer).
pub(crate) unsafe fn in_bytes<'a>(ptr: *const u8, len: usize) -> Result<&'a [u8], mrtr_status> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(mrtr_status::MRTR_ERR_NULL_POINTER);
    }
    check_range(ptr as usize, len)?;
    // SAFETY: `ptr` is non-NULL, `len` fits in `isize` and the range does
    // not wrap (checked above); the caller guarantees the bytes are readable
    // and unchanged for `'a`. `u8` has alignment 1 and no invalid values.
    Ok(unsafe { core::slice::from_raw_parts(ptr, len) })
}

/// Borrows a caller's output buffer, after checking that it overlaps none
/// of `inputs` (spans of the call's other arguments).
///
/// `ptr` may be NULL when `len == 0`: that is the "tell me the size" call
/// of the `out, out_len, out_written` convention.
///
/// # Safety
/// When `len > 0` and `ptr` is not NULL, `ptr` must point to `len` writable
/// bytes that nothing else reads or writes during `'a`, except through the
/// arguments named in `inputs`.
pub(crate) unsafe fn out_bytes<'a>(
    ptr: *mut u8,
    len: usize,
    inputs: &[Span],
) -> Result<&'a mut [u8], mrtr_status> {
    if len == 0 {
        return Ok(&mut []);
    }
    if ptr.is_null() {
        return Err(mrtr_status::MRTR_ERR_NULL_POINTER);
    }
    check_range(ptr as usize, len)?;
    let me = Span::of(ptr, len);
    if inputs.iter().any(|s| s.overlaps(me)) {
        return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
    }
    // SAFETY: non-NULL, length and range checked above, disjoint from every
    // other argument the function reads or writes; the caller guarantees the
    // bytes are writable and unaliased for `'a`. Any byte pattern is a
    // valid `u8`, so uninitialised C memory is fine to overwrite.
    Ok(unsafe { core::slice::from_raw_parts_mut(ptr, len) })
}

/// Borrows a caller's array of `n` plain-data `T` (C structs whose every
/// bit pattern is valid: integers and pointers only). `n == 0` is the empty
/// array, whatever `ptr` is.
///
/// # Safety
/// When `n > 0` and `ptr` is not NULL, `ptr` must point to `n` readable
/// `T` that nothing writes to during `'a`.
pub(crate) unsafe fn in_array<'a, T>(ptr: *const T, n: usize) -> Result<&'a [T], mrtr_status> {
    if n == 0 {
        return Ok(&[]);
    }
    check_array(ptr, n)?;
    // SAFETY: non-NULL, aligned, `n * size_of::<T>()` fits in `isize` and
    // does not wrap (checked above); the caller guarantees `n` readable,
    // unchanging `T` whose every bit pattern is valid.
    Ok(unsafe { core::slice::from_raw_parts(ptr, n) })
}

/// Checks an array of `n` `T` at `ptr`: non-NULL, aligned, and a byte
/// range Rust can describe. Returns its length in bytes.
fn check_array<T>(ptr: *const T, n: usize) -> Result<usize, mrtr_status> {
    if ptr.is_null() {
        return Err(mrtr_status::MRTR_ERR_NULL_POINTER);
    }
    if !ptr.is_aligned() {
        return Err(mrtr_status::MRTR_ERR_MISALIGNED);
    }
    let bytes = n
        .checked_mul(core::mem::size_of::<T>())
        .ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?;
    check_range(ptr as usize, bytes)?;
    Ok(bytes)
}

/// Borrows a caller's input struct: non-NULL and aligned.
///
/// # Safety
/// When not NULL, `ptr` must point to a readable `T` (every bit pattern
/// valid) that nothing writes to during `'a`.
pub(crate) unsafe fn in_ref<'a, T>(ptr: *const T) -> Result<&'a T, mrtr_status> {
    if ptr.is_null() {
        return Err(mrtr_status::MRTR_ERR_NULL_POINTER);
    }
    if !ptr.is_aligned() {
        return Err(mrtr_status::MRTR_ERR_MISALIGNED);
    }
    // SAFETY: non-NULL and aligned (checked); readable and unchanging for
    // `'a` by the caller's contract.
    Ok(unsafe { &*ptr })
}

/// Borrows a caller's UTF-8 string.
///
/// # Safety
/// As [`in_bytes`] for `s.ptr` and `s.len`.
// Only the server functions take strings this way.
#[cfg_attr(not(feature = "server"), allow(dead_code))]
pub(crate) unsafe fn in_str<'a>(s: mrtr_str) -> Result<&'a str, mrtr_status> {
    // SAFETY: forwarded contract of `in_bytes`.
    let bytes = unsafe { in_bytes(s.ptr.cast::<u8>(), s.len) }?;
    core::str::from_utf8(bytes).map_err(|_| mrtr_status::MRTR_ERR_INVALID_UTF8)
}

/// A checked out-param: non-NULL and aligned. Writing consumes it, so an
/// out-param is written at most once, and only where a function decides to.
pub(crate) struct Out<'a, T> {
    ptr: NonNull<T>,
    _borrow: PhantomData<&'a mut T>,
}

impl<'a, T: Copy> Out<'a, T> {
    /// Checks a required out-param.
    ///
    /// # Safety
    /// When not NULL, `ptr` must be valid for a write of one `T` during `'a`
    /// (it may point to uninitialised memory).
    pub(crate) unsafe fn required(ptr: *mut T) -> Result<Self, mrtr_status> {
        let ptr = NonNull::new(ptr).ok_or(mrtr_status::MRTR_ERR_NULL_POINTER)?;
        if !ptr.as_ptr().is_aligned() {
            return Err(mrtr_status::MRTR_ERR_MISALIGNED);
        }
        Ok(Out {
            ptr,
            _borrow: PhantomData,
        })
    }

    /// Checks an optional out-param: NULL means "not wanted".
    ///
    /// # Safety
    /// As [`Out::required`].
    pub(crate) unsafe fn optional(ptr: *mut T) -> Result<Option<Self>, mrtr_status> {
        if ptr.is_null() {
            return Ok(None);
        }
        // SAFETY: forwarded contract.
        unsafe { Out::required(ptr) }.map(Some)
    }

    /// The bytes this out-param covers, for overlap checks.
    pub(crate) fn span(&self) -> Span {
        Span::of_one(self.ptr.as_ptr().cast_const())
    }

    /// Stores `value`.
    pub(crate) fn write(self, value: T) {
        // SAFETY: non-NULL and aligned (checked at construction); the
        // constructor's contract makes it valid for a write during `'a`.
        // `write` does not read or drop the old value, so uninitialised
        // memory is fine.
        unsafe { self.ptr.as_ptr().write(value) }
    }
}

/// Most pointer arguments one function takes (inputs and outputs).
const MAX_ARGS: usize = 12;

/// The pointer arguments of one exported function, checked as they are
/// taken: the only way a function body gets at a caller's pointer, so a
/// forgotten check cannot happen. Every argument is refused
/// (`MRTR_ERR_INVALID_ARGUMENT`) when it overlaps the object's workspace;
/// an output also when it overlaps any other argument. Inputs may overlap
/// each other (two strings may share bytes).
pub(crate) struct Args {
    ws: Span,
    reads: [Span; MAX_ARGS],
    writes: [Span; MAX_ARGS],
    n_reads: usize,
    n_writes: usize,
}

impl Args {
    /// The arguments of a function working on the object whose workspace
    /// is `ws` (an empty span for functions without one).
    pub(crate) fn new(ws: Span) -> Self {
        let none = Span::of_one(core::ptr::null::<u8>());
        Args {
            ws,
            reads: [none; MAX_ARGS],
            writes: [none; MAX_ARGS],
            n_reads: 0,
            n_writes: 0,
        }
    }

    /// The arguments of a function without an object (nothing is a
    /// workspace).
    pub(crate) fn free() -> Self {
        Args::new(Span::of_one(core::ptr::null::<u8>()))
    }

    /// Every span taken, for a workspace placed after the checks.
    pub(crate) fn spans(&self) -> impl Iterator<Item = Span> + '_ {
        let r = self.reads.get(..self.n_reads).unwrap_or(&[]);
        let w = self.writes.get(..self.n_writes).unwrap_or(&[]);
        r.iter().chain(w).copied()
    }

    /// Claims a span checked elsewhere (a buffer lent to callbacks).
    pub(crate) fn claim_span(&mut self, s: Span, write: bool) -> Result<(), mrtr_status> {
        self.claim(s, write)
    }

    fn claim(&mut self, s: Span, write: bool) -> Result<(), mrtr_status> {
        let clash = s.overlaps(self.ws)
            || self
                .writes
                .iter()
                .take(self.n_writes)
                .any(|w| w.overlaps(s))
            || (write && self.reads.iter().take(self.n_reads).any(|r| r.overlaps(s)));
        if clash {
            return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
        }
        let (list, n) = if write {
            (&mut self.writes, &mut self.n_writes)
        } else {
            (&mut self.reads, &mut self.n_reads)
        };
        *list.get_mut(*n).ok_or(mrtr_status::MRTR_ERR_INTERNAL)? = s;
        *n = n.saturating_add(1);
        Ok(())
    }

    /// A required out-param (see [`Out::required`]).
    ///
    /// # Safety
    /// As [`Out::required`].
    pub(crate) unsafe fn out<'a, T: Copy>(&mut self, p: *mut T) -> Result<Out<'a, T>, mrtr_status> {
        // SAFETY: forwarded contract.
        let o = unsafe { Out::required(p) }?;
        self.claim(o.span(), true)?;
        Ok(o)
    }

    /// An in-out param: its value now, and the out-param to write it back
    /// (claimed as an output: it may overlap no other argument).
    ///
    /// # Safety
    /// When not NULL, `p` must be valid for a read of an initialised `T`
    /// and for a write of one during `'a`.
    pub(crate) unsafe fn inout<'a, T: Copy>(
        &mut self,
        p: *mut T,
    ) -> Result<(T, Out<'a, T>), mrtr_status> {
        // SAFETY: forwarded contract.
        let o = unsafe { self.out(p) }?;
        // SAFETY: `out` checked `p` non-NULL and aligned; the contract makes
        // it readable and initialised.
        let v = unsafe { p.read() };
        Ok((v, o))
    }

    /// An optional out-param: NULL is `None`.
    ///
    /// # Safety
    /// As [`Out::optional`].
    pub(crate) unsafe fn out_opt<'a, T: Copy>(
        &mut self,
        p: *mut T,
    ) -> Result<Option<Out<'a, T>>, mrtr_status> {
        // SAFETY: forwarded contract.
        let o = unsafe { Out::optional(p) }?;
        if let Some(o) = &o {
            self.claim(o.span(), true)?;
        }
        Ok(o)
    }

    /// Input bytes (see [`in_bytes`]).
    ///
    /// # Safety
    /// As [`in_bytes`].
    pub(crate) unsafe fn bytes<'a>(
        &mut self,
        ptr: *const u8,
        len: usize,
    ) -> Result<&'a [u8], mrtr_status> {
        // SAFETY: forwarded contract.
        let b = unsafe { in_bytes(ptr, len) }?;
        self.claim(Span::of(b.as_ptr(), b.len()), false)?;
        Ok(b)
    }

    /// An input string (see [`in_str`]).
    ///
    /// # Safety
    /// As [`in_str`].
    pub(crate) unsafe fn str<'a>(&mut self, s: mrtr_str) -> Result<&'a str, mrtr_status> {
        // SAFETY: forwarded contract.
        let b = unsafe { self.bytes(s.ptr.cast::<u8>(), s.len) }?;
        core::str::from_utf8(b).map_err(|_| mrtr_status::MRTR_ERR_INVALID_UTF8)
    }

    /// An input struct (see [`in_ref`]).
    ///
    /// # Safety
    /// As [`in_ref`].
    pub(crate) unsafe fn reference<'a, T>(&mut self, p: *const T) -> Result<&'a T, mrtr_status> {
        // SAFETY: forwarded contract.
        let r = unsafe { in_ref(p) }?;
        self.claim(Span::of_one(p), false)?;
        Ok(r)
    }

    /// An optional input struct: NULL is `None`.
    ///
    /// # Safety
    /// As [`in_ref`].
    pub(crate) unsafe fn reference_opt<'a, T>(
        &mut self,
        p: *const T,
    ) -> Result<Option<&'a T>, mrtr_status> {
        if p.is_null() {
            return Ok(None);
        }
        // SAFETY: forwarded contract.
        unsafe { self.reference(p) }.map(Some)
    }

    /// An input array (see [`in_array`]).
    ///
    /// # Safety
    /// As [`in_array`].
    pub(crate) unsafe fn array<'a, T>(
        &mut self,
        ptr: *const T,
        n: usize,
    ) -> Result<&'a [T], mrtr_status> {
        // SAFETY: forwarded contract.
        let a = unsafe { in_array(ptr, n) }?;
        self.claim(
            Span::of(a.as_ptr().cast::<u8>(), core::mem::size_of_val(a)),
            false,
        )?;
        Ok(a)
    }

    /// An output array of `n` `T` (non-NULL, aligned; `n` may be 0), for
    /// writing through the returned pointer.
    ///
    /// # Safety
    /// When not NULL, `ptr` must be valid for writes of `n` `T`.
    pub(crate) unsafe fn out_array<T>(
        &mut self,
        ptr: *mut T,
        n: usize,
    ) -> Result<*mut T, mrtr_status> {
        let bytes = check_array(ptr.cast_const(), n)?;
        self.claim(Span::of(ptr.cast_const().cast::<u8>(), bytes), true)?;
        Ok(ptr)
    }

    /// An output buffer of the `out, out_len, out_written` convention
    /// (NULL allowed when `len` is 0), taken after every other argument.
    ///
    /// # Safety
    /// As [`out_bytes`].
    pub(crate) unsafe fn out_buf<'a>(
        &mut self,
        ptr: *mut u8,
        len: usize,
    ) -> Result<&'a mut [u8], mrtr_status> {
        if len > 0 && !ptr.is_null() {
            check_range(ptr as usize, len)?;
            self.claim(Span::of(ptr.cast_const(), len), true)?;
        }
        // SAFETY: forwarded contract; overlaps refused by `claim`.
        unsafe { out_bytes(ptr, len, &[]) }
    }
}

/// Ends a function of the `out, out_len, out_written` convention: on success
/// writes the length produced, on a short buffer writes the size needed and
/// returns `MRTR_ERR_BUFFER_TOO_SMALL`.
pub(crate) fn finish_output(
    result: Result<usize, mrtr_core::json::BufferTooSmall>,
    out_written: Out<'_, usize>,
) -> Result<(), mrtr_status> {
    match result {
        Ok(n) => {
            out_written.write(n);
            Ok(())
        }
        Err(short) => {
            out_written.write(short.needed);
            Err(mrtr_status::MRTR_ERR_BUFFER_TOO_SMALL)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_input_accepts_null_and_dangling_pointers() {
        // SAFETY: len 0: nothing is read.
        assert_eq!(unsafe { in_bytes(core::ptr::null(), 0) }, Ok(&[][..]));
        // SAFETY: len 0: nothing is read.
        let r = unsafe { in_bytes(core::ptr::without_provenance(8), 0) };
        assert_eq!(r, Ok(&[][..]));
    }

    #[test]
    fn null_input_with_length_is_refused() {
        // SAFETY: refused before any read.
        let r = unsafe { in_bytes(core::ptr::null(), 1) };
        assert_eq!(r, Err(mrtr_status::MRTR_ERR_NULL_POINTER));
    }

    #[test]
    fn oversized_and_wrapping_ranges_are_refused() {
        let b = [0u8; 4];
        // SAFETY: refused before any read.
        let r = unsafe { in_bytes(b.as_ptr(), MAX_LEN + 1) };
        assert_eq!(r, Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT));
        // SAFETY: refused before any read.
        let r = unsafe { in_bytes(core::ptr::without_provenance(usize::MAX), 2) };
        assert_eq!(r, Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT));
        // SAFETY: refused before any read.
        let r = unsafe { in_bytes(core::ptr::without_provenance(usize::MAX), usize::MAX) };
        assert_eq!(r, Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT));
    }

    #[test]
    fn input_borrows_exactly_the_given_bytes() {
        let b = *b"abc";
        // SAFETY: `b` is live and 3 bytes long.
        assert_eq!(unsafe { in_bytes(b.as_ptr(), 2) }, Ok(&b"ab"[..]));
    }

    #[test]
    fn strings_must_be_utf8() {
        let bad = [b'a', 0xff];
        let s = mrtr_str {
            ptr: bad.as_ptr().cast(),
            len: 2,
        };
        // SAFETY: `bad` is live for the call.
        let r = unsafe { in_str(s) };
        assert_eq!(r, Err(mrtr_status::MRTR_ERR_INVALID_UTF8));
        let good = "h\u{e9}";
        let s = mrtr_str {
            ptr: good.as_ptr().cast(),
            len: good.len(),
        };
        // SAFETY: `good` is live for the call.
        assert_eq!(unsafe { in_str(s) }, Ok("h\u{e9}"));
    }

    #[test]
    fn output_may_not_overlap_inputs() {
        let mut buf = [0u8; 16];
        let base = buf.as_mut_ptr();
        let input = Span::of(base.cast_const(), 4);
        // SAFETY: refused before any write (overlap on byte 3).
        let r = unsafe { out_bytes(base.wrapping_add(3), 4, &[input]) };
        assert_eq!(r.err(), Some(mrtr_status::MRTR_ERR_INVALID_ARGUMENT));
        // Adjacent is fine.
        // SAFETY: bytes 4..8 of `buf` are live and not otherwise borrowed.
        let r = unsafe { out_bytes(base.wrapping_add(4), 4, &[input]) };
        assert_eq!(r.map(|s| s.len()), Ok(4));
    }

    #[test]
    fn zero_length_output_is_a_size_query() {
        // SAFETY: len 0: nothing is written.
        let r = unsafe { out_bytes(core::ptr::null_mut(), 0, &[]) };
        assert_eq!(r.map(|s| s.len()), Ok(0));
        // SAFETY: refused before any write.
        let r = unsafe { out_bytes(core::ptr::null_mut(), 1, &[]) };
        assert_eq!(r.err(), Some(mrtr_status::MRTR_ERR_NULL_POINTER));
    }

    #[test]
    fn out_params_are_checked_for_null_and_alignment() {
        // SAFETY: refused before any write.
        let r = unsafe { Out::<usize>::required(core::ptr::null_mut()) };
        assert_eq!(r.err(), Some(mrtr_status::MRTR_ERR_NULL_POINTER));
        // SAFETY: NULL optional is simply absent.
        let r = unsafe { Out::<usize>::optional(core::ptr::null_mut()) };
        assert!(matches!(r, Ok(None)));

        let mut words = [0usize; 2];
        let odd = words
            .as_mut_ptr()
            .cast::<u8>()
            .wrapping_add(1)
            .cast::<usize>();
        // SAFETY: refused before any write.
        let r = unsafe { Out::required(odd) };
        assert_eq!(r.err(), Some(mrtr_status::MRTR_ERR_MISALIGNED));

        // SAFETY: `words[1]` is live, aligned and not otherwise borrowed.
        let out = unsafe { Out::required(words.as_mut_ptr().wrapping_add(1)) }.unwrap();
        out.write(7);
        assert_eq!(words, [0, 7]);
    }

    #[test]
    fn finish_output_reports_written_or_needed() {
        let mut n = 0usize;
        // SAFETY: `n` is live and aligned.
        let out = unsafe { Out::required(&mut n) }.unwrap();
        assert_eq!(finish_output(Ok(5), out), Ok(()));
        assert_eq!(n, 5);
        // SAFETY: `n` is live and aligned.
        let out = unsafe { Out::required(&mut n) }.unwrap();
        let short = mrtr_core::json::BufferTooSmall { needed: 9 };
        assert_eq!(
            finish_output(Err(short), out),
            Err(mrtr_status::MRTR_ERR_BUFFER_TOO_SMALL)
        );
        assert_eq!(n, 9);
    }
}
