//! `mrtr_tool_list` / `mrtr_tool_at`: a `tools/list` page read in place,
//! with each tool's SEP-2243 `x-mcp-header` designations checked, so a
//! client offers only the tools it may call.

use core::ffi::c_char;

use mrtr_core::client::tools::{
    next_tool, ToolCursor, ToolEntry, ToolList, ToolListError, MAX_TOOLS_PER_PAGE,
};

use crate::abi::{run, Args, Put};
use crate::mrtr_status::{self, *};
use crate::types::{mrtr_str, same};

/// Most tools one `tools/list` page may list (`MRTR_ERR_LIMIT_EXCEEDED` beyond).
pub const MRTR_MAX_TOOLS_PER_PAGE: usize = 1024;
same! { MRTR_MAX_TOOLS_PER_PAGE => MAX_TOOLS_PER_PAGE }

// mrtr_tool_next reads the page about three times in all (the first call
// validates it, each call its own tool), where a loop of mrtr_tool_at walks
// it once per tool. A tool past MRTR_MAX_TOOLS_PER_PAGE is
// MRTR_ERR_LIMIT_EXCEEDED, the end of the walk.
/// One tool of a `tools/list` page: views into the page.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mrtr_tool {
    /// The name's JSON string token, quotes included (`mrtr_json_decode_string`).
    pub name: mrtr_str,
    /// The `inputSchema` object, raw JSON (for `mrtr_http_headers_for_tool_call`).
    pub input_schema: mrtr_str,
    /// False when its `x-mcp-header` designations are invalid: never call it.
    pub usable: bool,
    /// The number of designated properties (0 when not `usable`).
    pub designation_count: usize,
}

/// Where `mrtr_tool_next` stands in one page: zeroed to start; one page only.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mrtr_tool_cursor {
    /// The index of the tool the next call reads.
    pub index: usize,
    /// Private: where the next read starts (0: the page is not read yet).
    pub offset: usize,
    /// Private: the length of the page the cursor walks.
    pub page_len: usize,
}

fn tool_out(tool: ToolEntry<'_>) -> mrtr_tool {
    mrtr_tool {
        name: mrtr_str::of_bytes(tool.name.raw_token()),
        input_schema: mrtr_str::of_bytes(tool.input_schema),
        usable: tool.usable(),
        designation_count: tool.designations.map_or(0, |d| d.len()),
    }
}

/// Reads a `tools/list` `result` object: its number of tools and, if
/// `out_next_cursor` is not NULL, the `nextCursor` token (NULL: last page).
/// `MRTR_ERR_JSON`, `MRTR_ERR_INVALID_UTF8`, `MRTR_ERR_PROTOCOL_VIOLATION` (no
/// `tools` array), `MRTR_ERR_LIMIT_EXCEEDED` (too many tools, too deep). On a
/// failure `*out_reason` (optional) names the cause: `"NotAList"`,
/// `"TooMany"`, `"Tool"` (a malformed tool), a JSON error's kind
/// (`"TooDeep"`, `"UnexpectedByte"`, ...), or the status's own name.
///
/// # Safety
/// `result` must point to `len` readable bytes; `out_count` to a writable
/// `size_t`; `out_next_cursor` NULL or a writable `mrtr_str`; `out_reason`
/// NULL or a writable `const char *`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_tool_list(
    result: *const u8,
    len: usize,
    out_count: *mut usize,
    out_next_cursor: *mut mrtr_str,
    out_reason: *mut *const c_char,
) -> mrtr_status {
    // SAFETY: caller contract; each pointer is checked as it is taken.
    run(|a| unsafe {
        a.told(out_reason, |a| {
            let (count, cursor) = (a.out(out_count)?, a.out_opt(out_next_cursor)?);
            let list = ToolList::parse(a.bytes(result, len)?).map_err(|e| refused(a, e))?;
            let next = list.next_cursor().map(|c| c.raw_token());
            cursor.put(next.map_or(mrtr_str::EMPTY, mrtr_str::of_bytes));
            count.done(list.len())
        })
    })
}

/// The status of the core's refusal `e`, its name noted as the cause.
fn refused(a: &mut Args, e: ToolListError) -> mrtr_status {
    a.refuse(e.into(), e.name())
}

/// Writes tool `index` of the page to `*out` (random access; to read all,
/// `mrtr_tool_next`). `MRTR_ERR_NOT_FOUND` (no such index), those of
/// `mrtr_tool_list`; `MRTR_ERR_PROTOCOL_VIOLATION` also for a malformed tool;
/// `*out_reason` as for `mrtr_tool_list`.
///
/// # Safety
/// `result` must point to `len` readable bytes; `out` to a writable
/// `mrtr_tool`; `out_reason` NULL or a writable `const char *`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_tool_at(
    result: *const u8,
    len: usize,
    index: usize,
    out: *mut mrtr_tool,
    out_reason: *mut *const c_char,
) -> mrtr_status {
    // SAFETY: caller contract; each pointer is checked as it is taken.
    run(|a| unsafe {
        a.told(out_reason, |a| {
            let (out, result) = (a.out(out)?, a.bytes(result, len)?);
            let tool = ToolList::parse(result)
                .map_err(|e| refused(a, e))?
                .get(index)
                .ok_or(MRTR_ERR_NOT_FOUND)?
                .map_err(|e| refused(a, e))?;
            out.done(tool_out(tool))
        })
    })
}

/// Writes the next tool of the page to `*out` and moves `*cursor` past it.
/// `MRTR_ERR_NOT_FOUND` after the last; `MRTR_ERR_PROTOCOL_VIOLATION` (a
/// malformed tool, skipped: call again); `MRTR_ERR_INVALID_ARGUMENT` (a
/// cursor of another page: `"OtherPage"`); first call: those of
/// `mrtr_tool_list`; `*out_reason` as for `mrtr_tool_list`.
///
/// # Safety
/// `result` must point to `len` readable bytes, the same page for every
/// call with one cursor; `cursor` to a readable and writable
/// `mrtr_tool_cursor`; `out` to a writable `mrtr_tool`; `out_reason` NULL or
/// a writable `const char *`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_tool_next(
    result: *const u8,
    len: usize,
    cursor: *mut mrtr_tool_cursor,
    out: *mut mrtr_tool,
    out_reason: *mut *const c_char,
) -> mrtr_status {
    // SAFETY: caller contract; each pointer is checked as it is taken.
    run(|a| unsafe {
        a.told(out_reason, |a| {
            let ((cursor, cursor_out), out) = (a.inout(cursor)?, a.out(out)?);
            let result = a.bytes(result, len)?;
            let mut at = match (cursor.offset, cursor.page_len == len) {
                // A result is an object: its tools never start at offset 0.
                (0, _) => ToolList::open(result)
                    .map_err(|e| refused(a, e))?
                    .start(result),
                (_, false) => return Err(a.refuse(MRTR_ERR_INVALID_ARGUMENT, c"OtherPage")),
                (offset, true) => ToolCursor::from_parts(cursor.index, offset),
            };
            let read = next_tool(result, &mut at);
            let (index, offset, page_len) = (at.index(), at.offset(), len);
            cursor_out.write(mrtr_tool_cursor {
                index,
                offset,
                page_len,
            });
            let tool = read.ok_or(MRTR_ERR_NOT_FOUND)?;
            out.done(tool_out(tool.map_err(|e| refused(a, e))?))
        })
    })
}
