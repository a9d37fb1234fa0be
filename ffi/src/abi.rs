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
//! - an optional input whose NULL `ptr` means "none" is none only with
//!   `len == 0`: NULL with `len > 0` is `MRTR_ERR_NULL_POINTER` too;
//! - an output that overlaps an input or another output is
//!   `MRTR_ERR_INVALID_ARGUMENT` (Rust may not hold a `&mut` to memory that a
//!   `&` also covers, and the result would be garbage anyway);
//! - the strings a struct or a caller-sized array points to are inputs like
//!   any other (`Args::list` checks arrays of any length);
//! - workspaces are checked for NULL, alignment and size (`crate::object`),
//!   and against every argument taken (`Args::clashes`).

use core::ffi::{c_char, CStr};
use core::marker::PhantomData;
use core::mem::MaybeUninit;
use core::ptr::NonNull;

use crate::mrtr_status;
use crate::types::mrtr_str;

/// The cause noted for an argument that overlaps another (or the
/// workspace). Kept behind a static: [`Args::pointer_refused`] knows it by
/// its address, which every note of it shares.
pub(crate) static OVERLAP: &CStr = c"Overlap";

/// The cause noted for a length or range Rust cannot describe (see
/// [`OVERLAP`]).
static BAD_RANGE: &CStr = c"BadRange";

/// The name of a cause, as C reads it (`out_reason`): a static
/// NUL-terminated string, made only from a `&'static CStr`. One pointer
/// (a `&CStr` is two words), and `Option<Why>` too.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Why(NonNull<c_char>);

impl Why {
    /// The name `s`.
    pub(crate) fn of(s: &'static CStr) -> Why {
        Why(NonNull::from(s).cast())
    }

    /// The name as C reads it.
    pub(crate) fn as_ptr(self) -> *const c_char {
        self.0.as_ptr()
    }
}

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
pub(crate) fn check_range(addr: usize, len: usize) -> Result<(), mrtr_status> {
    if len > MAX_LEN || addr.checked_add(len).is_none() {
        return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
    }
    Ok(())
}

/// Checks a caller's `(ptr, len)` bytes: `false` for the empty range
/// (whatever `ptr` is), `true` for a non-NULL range Rust can describe.
#[inline(always)]
fn check_bytes(ptr: *const u8, len: usize) -> Result<bool, mrtr_status> {
    if len == 0 {
        return Ok(false);
    }
    if ptr.is_null() {
        return Err(mrtr_status::MRTR_ERR_NULL_POINTER);
    }
    check_range(ptr as usize, len)?;
    Ok(true)
}

/// Borrows a caller's input bytes.
///
/// # Safety
/// When `len > 0` and `ptr` is not NULL, `ptr` must point to `len` readable
/// bytes that nothing writes to during `'a` (the C contract of an input
/// buffer).
unsafe fn in_bytes<'a>(ptr: *const u8, len: usize) -> Result<&'a [u8], mrtr_status> {
    if !check_bytes(ptr, len)? {
        return Ok(&[]);
    }
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
unsafe fn out_bytes<'a>(
    ptr: *mut u8,
    len: usize,
    inputs: &[Span],
) -> Result<&'a mut [u8], mrtr_status> {
    if !check_bytes(ptr, len)? {
        return Ok(&mut []);
    }
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

/// Checks an array of `n` items of `size` bytes, aligned to `align` (a
/// power of two), at `ptr`: non-NULL (`MRTR_ERR_NULL_POINTER`), aligned
/// (`MRTR_ERR_MISALIGNED`), and a byte range Rust can describe
/// (`MRTR_ERR_INVALID_ARGUMENT`). Returns its length in bytes.
#[inline(always)]
fn check_array(ptr: *const u8, n: usize, size: usize, align: usize) -> Result<usize, mrtr_status> {
    if ptr.is_null() {
        return Err(mrtr_status::MRTR_ERR_NULL_POINTER);
    }
    if ptr as usize & align.wrapping_sub(1) != 0 {
        return Err(mrtr_status::MRTR_ERR_MISALIGNED);
    }
    let bytes = n
        .checked_mul(size)
        .ok_or(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?;
    check_range(ptr as usize, bytes)?;
    Ok(bytes)
}

/// Borrows a caller's UTF-8 string.
///
/// # Safety
/// As [`in_bytes`] for `s.ptr` and `s.len`.
unsafe fn in_str<'a>(s: mrtr_str) -> Result<&'a str, mrtr_status> {
    // SAFETY: forwarded contract of `in_bytes`.
    utf8(unsafe { in_bytes(s.ptr.cast::<u8>(), s.len) }?)
}

/// Reads checked bytes as UTF-8 (`MRTR_ERR_INVALID_UTF8` otherwise).
fn utf8(b: &[u8]) -> Result<&str, mrtr_status> {
    core::str::from_utf8(b).map_err(|_| mrtr_status::MRTR_ERR_INVALID_UTF8)
}

/// A checked out-param: non-NULL and aligned. Writing consumes it, so an
/// out-param is written at most once, and only where a function decides to.
pub(crate) struct Out<'a, T> {
    ptr: NonNull<T>,
    _borrow: PhantomData<&'a mut T>,
}

impl<'a, T: Copy> Out<'a, T> {
    /// The out-param at `ptr`, already checked.
    ///
    /// # Safety
    /// `ptr` must be aligned for `T` and valid for a write of one `T`
    /// during `'a` (it may point to uninitialised memory).
    unsafe fn at(ptr: NonNull<T>) -> Self {
        Out {
            ptr,
            _borrow: PhantomData,
        }
    }

    /// Stores `value`.
    pub(crate) fn write(self, value: T) {
        // SAFETY: non-NULL and aligned (checked at construction); the
        // constructor's contract makes it valid for a write during `'a`.
        // `write` does not read or drop the old value, so uninitialised
        // memory is fine.
        unsafe { self.ptr.as_ptr().write(value) }
    }

    /// Stores `value` and lends the stored record, to finish filling it in
    /// place.
    #[cfg(feature = "client")]
    pub(crate) fn put(self, value: T) -> &'a mut T {
        // SAFETY: as in `write`; after the write the memory holds a valid
        // `T`, which the constructor's contract lends for `'a`.
        unsafe {
            self.ptr.as_ptr().write(value);
            &mut *self.ptr.as_ptr()
        }
    }

    /// Stores `value` as the last step of a function that succeeded.
    #[cfg(feature = "client")]
    pub(crate) fn done(self, value: T) -> Result<(), mrtr_status> {
        self.write(value);
        Ok(())
    }
}

/// Writing to an optional out-param: nothing when the caller passed NULL.
pub(crate) trait Put<T> {
    /// Stores `value` when the out-param was given.
    fn put(self, value: T);
}

impl<T: Copy> Put<T> for Option<Out<'_, T>> {
    fn put(self, value: T) {
        if let Some(o) = self {
            o.write(value);
        }
    }
}

/// Most pointer arguments of fixed number one function takes (inputs and
/// outputs); caller-sized arrays of strings are [`Args::list`]s.
const MAX_ARGS: usize = 12;

/// Most caller-sized arrays of strings one function takes.
const MAX_LISTS: usize = 2;

/// An item of a caller-sized array that points to more caller bytes (an
/// HTTP header, an input spec, a root): its strings are arguments too, and
/// [`Args::list`] takes them all, however many items there are.
pub(crate) trait Views {
    /// The item with its strings read.
    type Read<'a>;

    /// Reads the item, taking every string it uses through `take` and no
    /// other; the same strings every time (the collector reads an item again
    /// to check a later output against it). An item the function cannot use
    /// (an unknown kind) is an error.
    fn read<'a>(&self, take: &mut Take<'_, 'a>) -> Result<Self::Read<'a>, mrtr_status>;
}

/// How [`Views::read`] takes the strings of an item.
#[cfg_attr(not(any(feature = "client", feature = "server")), allow(dead_code))]
pub(crate) struct Take<'t, 'a> {
    f: &'t mut dyn FnMut(mrtr_str) -> Result<&'a str, mrtr_status>,
}

#[cfg_attr(not(any(feature = "client", feature = "server")), allow(dead_code))]
impl<'a> Take<'_, 'a> {
    /// A string the item must have (NULL only when empty).
    pub(crate) fn str(&mut self, s: mrtr_str) -> Result<&'a str, mrtr_status> {
        (self.f)(s)
    }

    /// An optional string: `ptr` NULL with `len` 0 is none; NULL with a
    /// length is `MRTR_ERR_NULL_POINTER`.
    // Only the client's roots have optional strings in a list.
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
    pub(crate) fn str_opt(&mut self, s: mrtr_str) -> Result<Option<&'a str>, mrtr_status> {
        if s.ptr.is_null() && s.len == 0 {
            return Ok(None);
        }
        self.str(s).map(Some)
    }
}

/// Reads every item of a caller-sized array through one [`Take`]: the
/// array's `n` items at `base` ([`visit`] for the item type). Stops at the
/// first item that fails.
#[cfg_attr(not(any(feature = "client", feature = "server")), allow(dead_code))]
type Visit = unsafe fn(*const u8, usize, &mut Take<'_, '_>) -> Result<(), mrtr_status>;

/// A caller-sized array taken by [`Args::list`], as the collector keeps
/// it: enough to check a later argument against its strings.
#[derive(Clone, Copy)]
#[cfg_attr(not(any(feature = "client", feature = "server")), allow(dead_code))]
struct ListSpan {
    base: *const u8,
    n: usize,
    /// Reads its items' strings ([`visit`] for the item type).
    visit: Visit,
}

/// Reads every item of the array of `n` `T` at `base` through `take`, the
/// one part of taking a list ([`Args::take_list`]) and of checking a span
/// against it ([`Args::in_lists`]) that depends on the item type.
///
/// # Safety
/// `base` and `n` must be an array [`Args::list`] took (checked) during
/// this call.
#[cfg_attr(not(any(feature = "client", feature = "server")), allow(dead_code))]
unsafe fn visit<T: Views>(
    base: *const u8,
    n: usize,
    take: &mut Take<'_, '_>,
) -> Result<(), mrtr_status> {
    // SAFETY: caller contract: `Args::list` checked the array (non-NULL,
    // aligned, `n` items Rust can describe) and the caller lends it for the
    // whole call.
    let items = unsafe { core::slice::from_raw_parts(base.cast::<T>(), n) };
    for item in items {
        item.read(take)?;
    }
    Ok(())
}

/// A caller-sized array of items whose strings the collector checked
/// (from [`Args::list`]).
#[cfg_attr(not(any(feature = "client", feature = "server")), allow(dead_code))]
pub(crate) struct List<'a, T> {
    items: &'a [T],
}

#[cfg_attr(not(any(feature = "client", feature = "server")), allow(dead_code))]
impl<'a, T: Views> List<'a, T> {
    /// The number of items.
    #[cfg_attr(not(feature = "server"), allow(dead_code))]
    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    /// The items, read (their strings checked when the list was taken).
    pub(crate) fn iter(
        &self,
    ) -> impl Iterator<Item = Result<T::Read<'a>, mrtr_status>> + Clone + '_ {
        self.items.iter().map(|item| {
            let mut f = |s: mrtr_str| {
                // SAFETY: `Args::list` took this string (checked it and its
                // overlaps); the caller lends it for the call.
                unsafe { in_str(s) }
            };
            item.read(&mut Take { f: &mut f })
        })
    }
}

/// A span as the collector keeps it: its bounds `[start, end)` (`end`
/// saturated, as in [`Span::overlaps`]), `[0, 0)` when empty, so that
/// testing two for a shared byte is two comparisons.
#[derive(Clone, Copy)]
struct Bounds {
    start: usize,
    end: usize,
}

impl Bounds {
    /// The bounds of `s`.
    fn of(s: Span) -> Bounds {
        match s.len {
            0 => Bounds { start: 0, end: 0 },
            len => Bounds {
                start: s.start,
                end: s.start.saturating_add(len),
            },
        }
    }

    /// Whether the two share at least one byte (`[0, 0)` shares none:
    /// no end is below 0).
    fn meets(self, other: Bounds) -> bool {
        self.start < other.end && other.start < self.end
    }
}

/// The spans of the arguments of one kind taken so far: at most
/// [`MAX_ARGS`], only the first `n` written. Every exported function builds
/// an [`Args`], so its arrays are not filled up front (that was about 25
/// stores on every call).
struct Spans {
    items: [MaybeUninit<Bounds>; MAX_ARGS],
    /// Items written, at most `MAX_ARGS` (only [`Spans::push`] raises it).
    n: usize,
}

impl Spans {
    const fn new() -> Self {
        Spans {
            items: [const { MaybeUninit::uninit() }; MAX_ARGS],
            n: 0,
        }
    }

    /// The spans taken, in order.
    fn as_slice(&self) -> &[Bounds] {
        let n = self.n.min(MAX_ARGS);
        // SAFETY: the first `n` items were written by `push` (`n` only
        // grows there, after the write, and never past `MAX_ARGS`);
        // `MaybeUninit<Bounds>` has the layout of `Bounds`.
        unsafe { core::slice::from_raw_parts(self.items.as_ptr().cast::<Bounds>(), n) }
    }

    /// Whether a span taken shares at least one byte with `b`.
    fn hit(&self, b: Bounds) -> bool {
        self.as_slice().iter().any(|t| t.meets(b))
    }

    /// Appends `b` (`MRTR_ERR_INTERNAL` past [`MAX_ARGS`]: a function takes
    /// more arguments than the bound, a bug caught by the tests).
    fn push(&mut self, b: Bounds) -> Result<(), mrtr_status> {
        let slot = self
            .items
            .get_mut(self.n)
            .ok_or(mrtr_status::MRTR_ERR_INTERNAL)?;
        slot.write(b);
        self.n += 1;
        Ok(())
    }
}

/// The pointer arguments of one exported function, checked as they are
/// taken: the only way a function body gets at a caller's pointer, so a
/// forgotten check cannot happen. Every argument is refused
/// (`MRTR_ERR_INVALID_ARGUMENT`) when it overlaps the object's workspace;
/// an output also when it overlaps any other argument, the strings of the
/// caller-sized arrays ([`Args::list`]) included. Inputs may overlap each
/// other (two strings may share bytes).
pub(crate) struct Args {
    ws: Bounds,
    reads: Spans,
    writes: Spans,
    lists: [Option<ListSpan>; MAX_LISTS],
    n_lists: usize,
    /// The name of the cause of the failure being returned, once noted
    /// (see [`Args::refuse`]); `None` until then.
    reason: Option<Why>,
}

impl Args {
    /// The arguments of a function working on the object whose workspace
    /// is `ws` (an empty span for functions without one).
    pub(crate) fn new(ws: Span) -> Self {
        Args {
            ws: Bounds::of(ws),
            reads: Spans::new(),
            writes: Spans::new(),
            lists: [None; MAX_LISTS],
            n_lists: 0,
            reason: None,
        }
    }

    /// Notes `why`, the name of the cause of the failure `status` about to
    /// be returned (the first cause noted stands; an empty `why` notes
    /// nothing), and returns `status`.
    pub(crate) fn refuse(&mut self, status: mrtr_status, why: &'static CStr) -> mrtr_status {
        if self.reason.is_none() && !why.is_empty() {
            self.reason = Some(Why::of(why));
        }
        status
    }

    /// The cause noted so far ([`Args::refuse`]); `None` when none was.
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
    pub(crate) fn noted(&self) -> Option<Why> {
        self.reason
    }

    /// The name of the cause of `status`, the failure the function returns:
    /// the cause noted ([`Args::refuse`]: a core error's name, `"Overlap"`,
    /// `"BadRange"`), else the status's own name (it has one cause there).
    pub(crate) fn reason(&self, status: mrtr_status) -> Why {
        match self.reason {
            Some(why) => why,
            None => Why::of(status.name()),
        }
    }

    /// Whether the failure `status` is a pointer the checks refused (NULL,
    /// misaligned, overlapping, a range C cannot describe): then no
    /// out-param may be written, not even a record of why. The last two
    /// are known by the address of their noted name ([`OVERLAP`],
    /// [`BAD_RANGE`]).
    pub(crate) fn pointer_refused(&self, status: mrtr_status) -> bool {
        matches!(
            status,
            mrtr_status::MRTR_ERR_NULL_POINTER | mrtr_status::MRTR_ERR_MISALIGNED
        ) || {
            let noted = self.reason.map_or(core::ptr::null(), Why::as_ptr);
            noted == OVERLAP.as_ptr() || noted == BAD_RANGE.as_ptr()
        }
    }

    /// Ends a function with an optional `out_reason`: on a failure it gets
    /// the cause's name ([`Args::reason`]), unless a pointer was refused
    /// ([`Args::pointer_refused`]: then nothing is written, and the status
    /// alone says it). Returns `r`.
    #[cfg_attr(not(any(feature = "client", feature = "seal")), allow(dead_code))]
    pub(crate) fn tell(
        &self,
        r: Result<(), mrtr_status>,
        why: Option<Out<'_, *const core::ffi::c_char>>,
    ) -> Result<(), mrtr_status> {
        if let (Err(st), Some(o)) = (r, why) {
            if !self.pointer_refused(st) {
                o.write(self.reason(st).as_ptr());
            }
        }
        r
    }

    /// Runs `body` after taking the optional `out_reason` (first, so every
    /// later argument is checked against it); on a failure it gets the
    /// cause, as [`Args::tell`] writes it.
    ///
    /// # Safety
    /// `out_reason` must be NULL or valid for a write of a `const char *`.
    #[cfg_attr(not(any(feature = "client", feature = "seal")), allow(dead_code))]
    pub(crate) unsafe fn told(
        &mut self,
        out_reason: *mut *const core::ffi::c_char,
        body: impl FnOnce(&mut Args) -> Result<(), mrtr_status>,
    ) -> Result<(), mrtr_status> {
        // SAFETY: forwarded contract.
        let why = unsafe { self.out_opt(out_reason) }?;
        let r = body(self);
        self.tell(r, why)
    }

    /// Notes `"BadRange"` for an `MRTR_ERR_INVALID_ARGUMENT` of the range
    /// checks (a length C cannot describe, a wrapping range).
    fn ranged<T>(&mut self, r: Result<T, mrtr_status>) -> Result<T, mrtr_status> {
        r.map_err(|s| match s {
            mrtr_status::MRTR_ERR_INVALID_ARGUMENT => self.refuse(s, BAD_RANGE),
            s => s,
        })
    }

    /// The arguments of a function without an object (nothing is a
    /// workspace).
    pub(crate) fn free() -> Self {
        Args::new(Span::of_one(core::ptr::null::<u8>()))
    }

    /// Whether `s` (a workspace placed after the checks) overlaps any
    /// argument taken, the strings of the lists included.
    // Only the objects (client, seal) place workspaces.
    #[cfg_attr(not(any(feature = "client", feature = "seal")), allow(dead_code))]
    pub(crate) fn clashes(&self, s: Span) -> bool {
        let b = Bounds::of(s);
        self.reads.hit(b) || self.writes.hit(b) || self.in_lists(s)
    }

    /// Whether `s` overlaps a string of a list taken. Only addresses are
    /// compared; no string is read.
    fn in_lists(&self, s: Span) -> bool {
        self.n_lists != 0 && self.lists_hit(s)
    }

    /// [`Args::in_lists`] once a list was taken (most functions take none).
    #[inline(never)]
    fn lists_hit(&self, s: Span) -> bool {
        let mut hit = false;
        let mut f = |v: mrtr_str| {
            hit |= Span::of(v.ptr, v.len).overlaps(s);
            Ok("")
        };
        let mut take = Take { f: &mut f };
        for l in self.lists.iter().take(self.n_lists).flatten() {
            // Every item was read once already, when the list was taken:
            // this cannot fail.
            // SAFETY: every entry is an array `list` took during this call.
            let _ = unsafe { (l.visit)(l.base, l.n, &mut take) };
        }
        hit
    }

    /// Claims a second object's workspace (a runner beside its call) as an
    /// output: it may overlap no argument taken before or after.
    // Only the runner is a second object.
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
    pub(crate) fn object(&mut self, s: Span) -> Result<(), mrtr_status> {
        self.claim(s, true)
    }

    /// Whether `s` overlaps the workspace or any argument taken.
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
    pub(crate) fn taken(&self, s: Span) -> bool {
        self.ws.meets(Bounds::of(s)) || self.clashes(s)
    }

    /// Refuses an input that overlaps the workspace or an output.
    fn check_read(&self, s: Span) -> Result<(), mrtr_status> {
        if self.read_clash(Bounds::of(s)) {
            return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
        }
        Ok(())
    }

    /// Whether an input at `b` would overlap the workspace or an output.
    fn read_clash(&self, b: Bounds) -> bool {
        self.ws.meets(b) || self.writes.hit(b)
    }

    fn claim(&mut self, s: Span, write: bool) -> Result<(), mrtr_status> {
        let b = Bounds::of(s);
        // Before any argument was taken (a function's first one), only the
        // workspace can clash: the lists are not walked.
        let taken = self.reads.n | self.writes.n | self.n_lists;
        let overlap = self.ws.meets(b)
            || taken != 0
                && (self.writes.hit(b) || write && (self.reads.hit(b) || self.in_lists(s)));
        if overlap {
            return Err(self.refuse(mrtr_status::MRTR_ERR_INVALID_ARGUMENT, OVERLAP));
        }
        match write {
            true => self.writes.push(b),
            false => self.reads.push(b),
        }
    }

    /// A required out-param (non-NULL, aligned for `T`).
    ///
    /// # Safety
    /// When not NULL, `p` must be valid for a write of one `T` during `'a`
    /// (it may point to uninitialised memory).
    // Always inlined: every function takes out-params, and the checks are
    // one body for every `T` ([`Args::claim_out`]).
    #[inline(always)]
    pub(crate) unsafe fn out<'a, T: Copy>(&mut self, p: *mut T) -> Result<Out<'a, T>, mrtr_status> {
        let (size, align) = (core::mem::size_of::<T>(), core::mem::align_of::<T>());
        self.claim_out(p.cast(), size, align)?;
        // SAFETY: `claim_out` checked `p` non-NULL and aligned for `T`; the
        // caller's contract makes it valid for a write of one `T`.
        Ok(unsafe { Out::at(NonNull::new_unchecked(p)) })
    }

    /// The checks of [`Args::out`], one body for every type: `p` non-NULL
    /// (`MRTR_ERR_NULL_POINTER`), aligned to `align`, a power of two
    /// (`MRTR_ERR_MISALIGNED`), and its `size` bytes claimed as an output.
    #[inline(never)]
    fn claim_out(&mut self, p: *mut u8, size: usize, align: usize) -> Result<(), mrtr_status> {
        self.claim_ptr(p.cast_const(), size, align, true)
    }

    /// The checks of [`Args::claim_out`] and [`Args::claim_in`], written
    /// once (each keeps its own compiled body: one body with the flag as an
    /// argument measured 104 B more on Cortex-M).
    #[inline(always)]
    fn claim_ptr(
        &mut self,
        p: *const u8,
        size: usize,
        align: usize,
        write: bool,
    ) -> Result<(), mrtr_status> {
        if p.is_null() {
            return Err(mrtr_status::MRTR_ERR_NULL_POINTER);
        }
        if p as usize & align.wrapping_sub(1) != 0 {
            return Err(mrtr_status::MRTR_ERR_MISALIGNED);
        }
        self.claim_early(Span::of(p, size), write)
    }

    /// [`Args::claim`] with its most common case inlined where pointers
    /// are taken: a function's first argument (an out-param, mostly), clear
    /// of the workspace, is recorded without a call.
    #[inline(always)]
    fn claim_early(&mut self, s: Span, write: bool) -> Result<(), mrtr_status> {
        let b = Bounds::of(s);
        if self.reads.n | self.writes.n | self.n_lists == 0 && !self.ws.meets(b) {
            return match write {
                true => self.writes.push(b),
                false => self.reads.push(b),
            };
        }
        self.claim(s, write)
    }

    /// An in-out param: its value now, and the out-param to write it back
    /// (claimed as an output: it may overlap no other argument).
    ///
    /// # Safety
    /// When not NULL, `p` must be valid for a read of an initialised `T`
    /// and for a write of one during `'a`.
    // Only the client's cursors are in-out params.
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
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
    /// As [`Args::out`].
    #[inline(always)]
    pub(crate) unsafe fn out_opt<'a, T: Copy>(
        &mut self,
        p: *mut T,
    ) -> Result<Option<Out<'a, T>>, mrtr_status> {
        if p.is_null() {
            return Ok(None);
        }
        // SAFETY: forwarded contract.
        unsafe { self.out(p) }.map(Some)
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
        // The empty input (whatever `ptr` is) shares no byte with anything:
        // there is nothing to claim.
        if len == 0 {
            return Ok(&[]);
        }
        // SAFETY: forwarded contract.
        let b = self.ranged(unsafe { in_bytes(ptr, len) })?;
        self.claim(Span::of(b.as_ptr(), b.len()), false)?;
        Ok(b)
    }

    /// Optional input bytes whose NULL `ptr` means none: `None` for NULL
    /// with `len` 0, `MRTR_ERR_NULL_POINTER` for NULL with a length.
    ///
    /// # Safety
    /// As [`in_bytes`].
    // Only the seal functions take bytes this way.
    #[cfg_attr(not(feature = "seal"), allow(dead_code))]
    pub(crate) unsafe fn bytes_opt<'a>(
        &mut self,
        ptr: *const u8,
        len: usize,
    ) -> Result<Option<&'a [u8]>, mrtr_status> {
        if ptr.is_null() && len == 0 {
            return Ok(None);
        }
        // SAFETY: forwarded contract.
        unsafe { self.bytes(ptr, len) }.map(Some)
    }

    /// An input string (see [`in_str`]).
    ///
    /// # Safety
    /// As [`in_str`].
    pub(crate) unsafe fn str<'a>(&mut self, s: mrtr_str) -> Result<&'a str, mrtr_status> {
        // The empty string, as `bytes` takes it (nothing to claim or check).
        if s.len == 0 {
            return Ok("");
        }
        // SAFETY: forwarded contract.
        utf8(unsafe { self.bytes(s.ptr.cast::<u8>(), s.len) }?)
    }

    /// An optional input string whose NULL `ptr` means none: `None` for
    /// NULL with `len` 0, `MRTR_ERR_NULL_POINTER` for NULL with a length.
    ///
    /// # Safety
    /// As [`in_str`].
    // Only the client and server functions take optional strings.
    #[cfg_attr(not(any(feature = "client", feature = "server")), allow(dead_code))]
    pub(crate) unsafe fn str_opt<'a>(
        &mut self,
        s: mrtr_str,
    ) -> Result<Option<&'a str>, mrtr_status> {
        if s.ptr.is_null() && s.len == 0 {
            return Ok(None);
        }
        // SAFETY: forwarded contract.
        unsafe { self.str(s) }.map(Some)
    }

    /// An input struct: non-NULL and aligned.
    ///
    /// # Safety
    /// When not NULL, `p` must point to a readable `T` (every bit pattern
    /// valid) that nothing writes to during `'a`.
    // Always inlined, as `Args::out`: the checks are one body for every `T`.
    #[inline(always)]
    pub(crate) unsafe fn reference<'a, T>(&mut self, p: *const T) -> Result<&'a T, mrtr_status> {
        let (size, align) = (core::mem::size_of::<T>(), core::mem::align_of::<T>());
        self.claim_in(p.cast(), size, align)?;
        // SAFETY: `claim_in` checked `p` non-NULL and aligned for `T`; the
        // caller's contract makes it readable and unchanging for `'a`.
        Ok(unsafe { &*p })
    }

    /// The checks of [`Args::reference`], one body for every type: `p`
    /// non-NULL (`MRTR_ERR_NULL_POINTER`), aligned to `align`, a power of
    /// two (`MRTR_ERR_MISALIGNED`), and its `size` bytes claimed as an
    /// input.
    #[inline(never)]
    fn claim_in(&mut self, p: *const u8, size: usize, align: usize) -> Result<(), mrtr_status> {
        self.claim_ptr(p, size, align, false)
    }

    /// An optional input struct: NULL is `None`.
    ///
    /// # Safety
    /// As [`Args::reference`].
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

    /// An input array of `n` plain-data `T` (C structs whose every bit
    /// pattern is valid: integers and pointers only): `n == 0` is the empty
    /// array, whatever `ptr` is; else non-NULL, aligned and a range Rust
    /// can describe ([`check_array`]). An array whose items point to
    /// strings is a [`Args::list`].
    ///
    /// # Safety
    /// When `n > 0` and `ptr` is not NULL, `ptr` must point to `n` readable
    /// `T` that nothing writes to during `'a`.
    // Always inlined: the checks are one body for every `T`.
    #[inline(always)]
    pub(crate) unsafe fn array<'a, T>(
        &mut self,
        ptr: *const T,
        n: usize,
    ) -> Result<&'a [T], mrtr_status> {
        let (size, align) = (core::mem::size_of::<T>(), core::mem::align_of::<T>());
        self.claim_array(ptr.cast(), n, size, align)?;
        if n == 0 {
            return Ok(&[]);
        }
        // SAFETY: non-NULL, aligned, `n * size_of::<T>()` fits in `isize`
        // and does not wrap (checked by `claim_array`); the caller
        // guarantees `n` readable, unchanging `T` whose every bit pattern is
        // valid.
        Ok(unsafe { core::slice::from_raw_parts(ptr, n) })
    }

    /// The checks of [`Args::array`], one body for every type: nothing for
    /// `n == 0`, else [`check_array`] (`"BadRange"` noted for a range Rust
    /// cannot describe); then the array's bytes claimed as an input.
    #[inline(never)]
    fn claim_array(
        &mut self,
        ptr: *const u8,
        n: usize,
        size: usize,
        align: usize,
    ) -> Result<(), mrtr_status> {
        let bytes = match n {
            0 => 0,
            _ => self.ranged(check_array(ptr, n, size, align))?,
        };
        self.claim(Span::of(ptr, bytes), false)
    }

    /// A caller-sized array of `n` items that point to strings: the array
    /// as [`Args::array`], then every string each item uses
    /// ([`Views::read`]) as [`Args::str`], however many there are. The
    /// collector keeps the array, not each string: an output taken later is
    /// checked against every string of it too.
    ///
    /// # Safety
    /// As [`Args::array`]; every string the items use must be readable for
    /// its length (NULL only when empty) and unchanged during `'a`.
    // Only the server and the client's roots answer take lists.
    #[cfg_attr(not(any(feature = "client", feature = "server")), allow(dead_code))]
    pub(crate) unsafe fn list<'a, T: Views>(
        &mut self,
        ptr: *const T,
        n: usize,
    ) -> Result<List<'a, T>, mrtr_status> {
        if self.n_lists >= MAX_LISTS {
            return Err(mrtr_status::MRTR_ERR_INTERNAL);
        }
        // SAFETY: forwarded contract.
        let items: &'a [T] = unsafe { self.array(ptr, n) }?;
        // SAFETY: `items` was just taken; forwarded contract for its strings.
        unsafe { self.take_list(items.as_ptr().cast(), items.len(), visit::<T>) }?;
        Ok(List { items })
    }

    /// The part of [`Args::list`] after the array, one body for every item
    /// type: every string of the `n` items at `base` (read by `visit`) as
    /// [`Args::str`], then the array kept for the later checks.
    ///
    /// # Safety
    /// As [`Args::list`]; `base` and `n` an array taken by [`Args::array`]
    /// and `visit` its item type's [`visit`].
    unsafe fn take_list(
        &mut self,
        base: *const u8,
        n: usize,
        visit: Visit,
    ) -> Result<(), mrtr_status> {
        let (mut range, mut overlap) = (false, false);
        let mut f = |s: mrtr_str| {
            // SAFETY: forwarded contract for each string of an item.
            let t: &str = unsafe { in_str(s) }
                .inspect_err(|e| range = *e == mrtr_status::MRTR_ERR_INVALID_ARGUMENT)?;
            self.check_read(Span::of(t.as_ptr(), t.len()))
                .inspect_err(|_| overlap = true)?;
            Ok(t)
        };
        // SAFETY: forwarded contract.
        let read = unsafe { visit(base, n, &mut Take { f: &mut f }) };
        if let Err(e) = read {
            let why = match (range, overlap) {
                (true, _) => BAD_RANGE,
                (_, true) => OVERLAP,
                _ => c"",
            };
            return Err(self.refuse(e, why));
        }
        let slot = self
            .lists
            .get_mut(self.n_lists)
            .ok_or(mrtr_status::MRTR_ERR_INTERNAL)?;
        *slot = Some(ListSpan { base, n, visit });
        self.n_lists += 1;
        Ok(())
    }

    /// An output array of `n` `T` (non-NULL, aligned; `n` may be 0), for
    /// writing through the returned pointer.
    ///
    /// # Safety
    /// When not NULL, `ptr` must be valid for writes of `n` `T`.
    // Only the HTTP helpers (client) write arrays.
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
    pub(crate) unsafe fn out_array<T>(
        &mut self,
        ptr: *mut T,
        n: usize,
    ) -> Result<*mut T, mrtr_status> {
        let (size, align) = (core::mem::size_of::<T>(), core::mem::align_of::<T>());
        let bytes = self.ranged(check_array(ptr.cast_const().cast(), n, size, align))?;
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
        let (ptr, len) = self.out_raw(ptr, len)?;
        // SAFETY: forwarded contract; checked and claimed by `out_raw`.
        unsafe { out_bytes(ptr, len, &[]) }
    }

    /// An output buffer that is borrowed later, piece by piece (the buffer
    /// `mrtr_run` lends its transport): checked and claimed as
    /// [`Args::out_buf`], handed back raw. NULL is allowed when `len` is 0.
    pub(crate) fn out_raw(
        &mut self,
        ptr: *mut u8,
        len: usize,
    ) -> Result<(*mut u8, usize), mrtr_status> {
        if self.ranged(check_bytes(ptr, len))? {
            self.claim(Span::of(ptr.cast_const(), len), true)?;
        }
        Ok((ptr, len))
    }
}

/// Runs the body of an exported function without an object: a fresh
/// collector, and the body's result as the status it returns.
pub(crate) fn run(body: impl FnOnce(&mut Args) -> Result<(), mrtr_status>) -> mrtr_status {
    crate::status::status_of(body(&mut Args::free()))
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

    /// Out-params checked alone, outside a collector, for the tests of
    /// `Out` (functions take theirs through [`Args::out`], which checks the
    /// same).
    impl<T: Copy> Out<'_, T> {
        /// Checks a required out-param alone.
        ///
        /// # Safety
        /// When not NULL, `ptr` must be valid for a write of one `T` while
        /// the `Out` lives (it may point to uninitialised memory).
        unsafe fn required(ptr: *mut T) -> Result<Self, mrtr_status> {
            let ptr = NonNull::new(ptr).ok_or(mrtr_status::MRTR_ERR_NULL_POINTER)?;
            if !ptr.as_ptr().is_aligned() {
                return Err(mrtr_status::MRTR_ERR_MISALIGNED);
            }
            // SAFETY: non-NULL and aligned (checked); the caller's contract.
            Ok(unsafe { Out::at(ptr) })
        }

        /// Checks an optional out-param alone: NULL means "not wanted".
        ///
        /// # Safety
        /// As [`Out::required`].
        unsafe fn optional(ptr: *mut T) -> Result<Option<Self>, mrtr_status> {
            if ptr.is_null() {
                return Ok(None);
            }
            // SAFETY: forwarded contract.
            unsafe { Out::required(ptr) }.map(Some)
        }
    }

    /// Every pair of spans from edge starts and lengths (both ends of the
    /// address space, neighbours, empty spans), the ranges `check_range`
    /// accepts: `overlaps` says whether they share a byte, computed here
    /// byte-range against byte-range in 128-bit arithmetic.
    #[test]
    fn spans_overlap_exactly_when_they_share_a_byte() {
        let top = usize::MAX;
        let starts = [
            0,
            1,
            2,
            7,
            8,
            9,
            100,
            top / 2,
            top - 9,
            top - 2,
            top - 1,
            top,
        ];
        let lens = [0, 1, 2, 3, 8, 9, 92, top / 2, top - 1, top];
        let spans: std::vec::Vec<Span> = starts
            .iter()
            .flat_map(|&s| lens.iter().map(move |&l| Span::of(s as *const u8, l)))
            .filter(|s| check_range(s.start, s.len).is_ok())
            .collect();
        assert!(spans.len() > 60);
        let mut shared = 0;
        for &a in &spans {
            for &b in &spans {
                let (a0, a1) = (a.start as u128, a.start as u128 + a.len as u128);
                let (b0, b1) = (b.start as u128, b.start as u128 + b.len as u128);
                let expected = a0.max(b0) < a1.min(b1);
                assert_eq!(
                    a.overlaps(b),
                    expected,
                    "{:?} {:?}",
                    (a.start, a.len),
                    (b.start, b.len)
                );
                shared += usize::from(expected);
            }
        }
        // Both answers occur, many times.
        assert!(shared > 500 && shared < spans.len() * spans.len() - 500);
    }

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

    /// An item with two strings, as a header.
    #[derive(Clone, Copy)]
    struct Pair {
        a: mrtr_str,
        b: mrtr_str,
    }

    impl Views for Pair {
        type Read<'a> = (&'a str, Option<&'a str>);

        fn read<'a>(&self, take: &mut Take<'_, 'a>) -> Result<Self::Read<'a>, mrtr_status> {
            Ok((take.str(self.a)?, take.str_opt(self.b)?))
        }
    }

    fn s(b: &[u8]) -> mrtr_str {
        mrtr_str {
            ptr: b.as_ptr().cast(),
            len: b.len(),
        }
    }

    const NONE: mrtr_str = mrtr_str {
        ptr: core::ptr::null(),
        len: 0,
    };

    #[test]
    fn a_list_takes_every_string_of_every_item_however_many() {
        let text = *b"abcdefghijklmnopqrstuvwxyz";
        // More strings than the collector's fixed slots.
        let items: [Pair; 20] = core::array::from_fn(|i| Pair {
            a: s(&text[i..i + 1]),
            b: if i % 2 == 0 {
                s(&text[i + 1..i + 3])
            } else {
                NONE
            },
        });
        let mut a = Args::free();
        // SAFETY: `items` and `text` are live and unchanged for the call.
        let list = unsafe { a.list(items.as_ptr(), items.len()) }.unwrap();
        assert_eq!(list.len(), 20);
        let read: std::vec::Vec<_> = list.iter().map(Result::unwrap).collect();
        assert_eq!(read[0], ("a", Some("bc")));
        assert_eq!(read[1], ("b", None));
        assert_eq!(read[19], ("t", None));
    }

    #[test]
    fn a_null_string_with_a_length_in_a_list_item_is_refused() {
        let text = *b"ab";
        let bad = mrtr_str {
            ptr: core::ptr::null(),
            len: 3,
        };
        for items in [
            [
                Pair {
                    a: s(&text),
                    b: NONE,
                },
                Pair { a: bad, b: NONE },
            ],
            [
                Pair {
                    a: s(&text),
                    b: NONE,
                },
                Pair {
                    a: s(&text),
                    b: bad,
                },
            ],
        ] {
            let mut a = Args::free();
            // SAFETY: refused before the NULL string is read.
            let r = unsafe { a.list(items.as_ptr(), items.len()) };
            assert_eq!(r.err(), Some(mrtr_status::MRTR_ERR_NULL_POINTER));
        }
        let mut a = Args::free();
        // SAFETY: refused before anything is read.
        let r = unsafe { a.list(core::ptr::null::<Pair>(), 1) };
        assert_eq!(r.err(), Some(mrtr_status::MRTR_ERR_NULL_POINTER));
    }

    #[test]
    fn an_output_overlapping_a_list_string_is_refused_either_order() {
        let mut buf = [0u8; 32];
        let base = buf.as_mut_ptr();
        let in_buf = mrtr_str {
            ptr: base.wrapping_add(20).cast_const().cast(),
            len: 4,
        };
        let items = [Pair { a: in_buf, b: NONE }];
        // The list first, then the output over its string.
        let mut a = Args::free();
        // SAFETY: `items` and `buf` are live; nothing is written.
        unsafe { a.list(items.as_ptr(), 1) }.unwrap();
        // SAFETY: refused before any write.
        let r = unsafe { a.out_buf(base, 32) };
        assert_eq!(r.err(), Some(mrtr_status::MRTR_ERR_INVALID_ARGUMENT));
        assert!(a.clashes(Span::of(base.cast_const(), 21)));
        assert!(!a.clashes(Span::of(base.cast_const(), 20)));
        // The output first, then the list.
        let mut a = Args::free();
        // SAFETY: bytes 16..32 of `buf`, checked, not otherwise borrowed.
        unsafe { a.out_buf(base.wrapping_add(16), 16) }.unwrap();
        // SAFETY: refused before the string is read.
        let r = unsafe { a.list(items.as_ptr(), 1) };
        assert_eq!(r.err(), Some(mrtr_status::MRTR_ERR_INVALID_ARGUMENT));
        // Beside the output is fine.
        let mut a = Args::free();
        // SAFETY: `items` and `buf` are live; nothing is written.
        unsafe { a.list(items.as_ptr(), 1) }.unwrap();
        // SAFETY: bytes 0..20 of `buf`, checked, not otherwise borrowed.
        assert_eq!(unsafe { a.out_buf(base, 20) }.map(|b| b.len()), Ok(20));
    }

    #[test]
    fn optional_inputs_are_none_only_when_null_and_empty() {
        let mut a = Args::free();
        // SAFETY: NULL with length 0: nothing is read.
        assert_eq!(unsafe { a.str_opt(NONE) }, Ok(None));
        // SAFETY: as above.
        assert_eq!(unsafe { a.bytes_opt(core::ptr::null(), 0) }, Ok(None));
        let bad = mrtr_str {
            ptr: core::ptr::null(),
            len: 5,
        };
        // SAFETY: refused before any read.
        let r = unsafe { a.str_opt(bad) };
        assert_eq!(r, Err(mrtr_status::MRTR_ERR_NULL_POINTER));
        // SAFETY: refused before any read.
        let r = unsafe { a.bytes_opt(core::ptr::null(), 5) };
        assert_eq!(r, Err(mrtr_status::MRTR_ERR_NULL_POINTER));
        let text = *b"x";
        // SAFETY: `text` is live.
        assert_eq!(unsafe { a.str_opt(s(&text)) }, Ok(Some("x")));
        // A non-NULL empty string is given, not absent.
        let empty = mrtr_str {
            ptr: text.as_ptr().cast(),
            len: 0,
        };
        // SAFETY: length 0: nothing is read.
        assert_eq!(unsafe { a.str_opt(empty) }, Ok(Some("")));
    }

    #[test]
    fn a_raw_output_is_checked_like_a_buffer() {
        let mut buf = [0u8; 8];
        let mut a = Args::free();
        assert_eq!(
            a.out_raw(core::ptr::null_mut(), 4).err(),
            Some(mrtr_status::MRTR_ERR_NULL_POINTER)
        );
        assert_eq!(a.out_raw(core::ptr::null_mut(), 0).map(|r| r.1), Ok(0));
        assert_eq!(a.out_raw(buf.as_mut_ptr(), 8).map(|r| r.1), Ok(8));
        assert_eq!(
            a.out_raw(buf.as_mut_ptr().wrapping_add(4), 2).err(),
            Some(mrtr_status::MRTR_ERR_INVALID_ARGUMENT)
        );
    }
}
