//! `mrtr_tool_list` / `mrtr_tool_at`: a `tools/list` page read in place,
//! with each tool's SEP-2243 `x-mcp-header` designations checked, so a
//! client offers only the tools it may call.

use mrtr_core::client::tools::{next_tool, ToolCursor, ToolEntry, ToolList, ToolListError};

use crate::abi::Args;
use crate::mrtr_status;
use crate::status::status_of;
use crate::types::mrtr_str;

/// The most tools one `tools/list` page may list
/// (`MRTR_ERR_LIMIT_EXCEEDED` beyond).
pub const MRTR_MAX_TOOLS_PER_PAGE: usize = 1024;
const _: () = assert!(MRTR_MAX_TOOLS_PER_PAGE == mrtr_core::client::tools::MAX_TOOLS_PER_PAGE);

/// One tool of a `tools/list` page: views into the page.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_tool {
    /// The name's JSON string token, quotes included (decode it with
    /// `mrtr_json_decode_string`; send it back as the `name` of
    /// `tools/call`).
    pub name: mrtr_str,
    /// The `inputSchema` object, raw JSON (pass it to
    /// `mrtr_http_headers_for_tool_call` when calling the tool over HTTP).
    pub input_schema: mrtr_str,
    /// Whether the client may call the tool: false when its `x-mcp-header`
    /// designations are invalid (SEP-2243: such a tool must not be used;
    /// the other tools stay usable).
    pub usable: bool,
    /// The number of designated properties (0 when not `usable`).
    pub designation_count: usize,
}

/// Where `mrtr_tool_next` stands in a `tools/list` page. Zero-initialize
/// it to start at the first tool; reuse it only with the same page.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
#[allow(non_camel_case_types)]
pub struct mrtr_tool_cursor {
    /// The index of the tool the next call reads (after a call, one past
    /// the tool it read or refused).
    pub index: usize,
    /// Private: the byte offset in the page where the next read starts (0:
    /// at the start, the page is not read yet).
    pub offset: usize,
    /// Private: the length of the page the cursor walks.
    pub page_len: usize,
}

fn tool_out(tool: &ToolEntry<'_>) -> mrtr_tool {
    mrtr_tool {
        name: mrtr_str::of_bytes(tool.name.raw_token()),
        input_schema: mrtr_str::of_bytes(tool.input_schema),
        usable: tool.usable(),
        designation_count: tool.designations.map_or(0, |d| d.len()),
    }
}

fn status_of_list(e: ToolListError) -> mrtr_status {
    match e {
        ToolListError::Json(j) => j.into(),
        ToolListError::TooMany => mrtr_status::MRTR_ERR_LIMIT_EXCEEDED,
        ToolListError::NotAList | ToolListError::Tool { .. } => {
            mrtr_status::MRTR_ERR_PROTOCOL_VIOLATION
        }
    }
}

/// Reads a `tools/list` result (the `result` object, e.g. the span of
/// `mrtr_call_result` or of a complete event) and writes the number of
/// tools on the page to `*out_count` and the `nextCursor` JSON token
/// (quotes included; `ptr` NULL when there is no next page) to
/// `*out_next_cursor` (optional, may be NULL).
///
/// Returns `MRTR_OK`, `MRTR_ERR_JSON` / `MRTR_ERR_INVALID_UTF8` (not one
/// valid JSON document), `MRTR_ERR_PROTOCOL_VIOLATION` (no `tools` array,
/// or a `nextCursor` that is not a string), `MRTR_ERR_LIMIT_EXCEEDED` (more
/// than `MRTR_MAX_TOOLS_PER_PAGE` tools, or the JSON too deep).
///
/// # Safety
/// `result` must point to `len` readable bytes; `out_count` to a writable
/// `size_t`; `out_next_cursor` NULL or a writable `mrtr_str`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_tool_list(
    result: *const u8,
    len: usize,
    out_count: *mut usize,
    out_next_cursor: *mut mrtr_str,
) -> mrtr_status {
    status_of((|| {
        let mut a = Args::free();
        // SAFETY: caller contract; each pointer is checked as it is taken.
        let (out_count, out_cursor) = unsafe { (a.out(out_count)?, a.out_opt(out_next_cursor)?) };
        // SAFETY: caller contract.
        let result = unsafe { a.bytes(result, len) }?;
        let list = ToolList::parse(result).map_err(status_of_list)?;
        out_count.write(list.len());
        if let Some(o) = out_cursor {
            o.write(
                list.next_cursor()
                    .map_or(mrtr_str::EMPTY, |c| mrtr_str::of_bytes(c.raw_token())),
            );
        }
        Ok(())
    })())
}

/// Writes tool `index` (list order) of the `tools/list` result `result` to
/// `*out` (views into `result`). Each call validates the page again and
/// walks it up to the tool: for random access. To read every tool, use
/// `mrtr_tool_next`, which reads the page once in all.
///
/// Returns `MRTR_OK`, `MRTR_ERR_NOT_FOUND` (no such index), the statuses of
/// `mrtr_tool_list`, and `MRTR_ERR_PROTOCOL_VIOLATION` for a tool that is
/// not an object with a string `name` and an object `inputSchema` (skip
/// it; the others stay readable).
///
/// # Safety
/// `result` must point to `len` readable bytes; `out` to a writable
/// `mrtr_tool`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_tool_at(
    result: *const u8,
    len: usize,
    index: usize,
    out: *mut mrtr_tool,
) -> mrtr_status {
    status_of((|| {
        let mut a = Args::free();
        // SAFETY: caller contract.
        let out = unsafe { a.out(out) }?;
        // SAFETY: caller contract.
        let result = unsafe { a.bytes(result, len) }?;
        let list = ToolList::parse(result).map_err(status_of_list)?;
        let tool = list
            .get(index)
            .ok_or(mrtr_status::MRTR_ERR_NOT_FOUND)?
            .map_err(status_of_list)?;
        out.write(tool_out(&tool));
        Ok(())
    })())
}

/// Writes the next tool of the `tools/list` result `result` to `*out`
/// (views into `result`) and moves `*cursor` past it: a loop from a
/// zero-initialized cursor reads every tool in list order, and all the
/// calls together read the page about three times (the first call
/// validates it; each call then validates and reads its own tool only),
/// where a loop of `mrtr_tool_at` validates and walks it once per tool.
///
/// Returns `MRTR_OK`; `MRTR_ERR_NOT_FOUND` past the last tool (the cursor
/// stays); `MRTR_ERR_PROTOCOL_VIOLATION` for a tool that is not an object
/// with a string `name` and an object `inputSchema` (tool
/// `cursor->index - 1`; the cursor moved past it: call again for the next
/// one); `MRTR_ERR_LIMIT_EXCEEDED` for a tool past
/// `MRTR_MAX_TOOLS_PER_PAGE` (the end); on the first call the statuses of
/// `mrtr_tool_list`; `MRTR_ERR_INVALID_ARGUMENT` for a cursor made for a
/// page of another length.
///
/// # Safety
/// `result` must point to `len` readable bytes, the same page for every
/// call with one cursor; `cursor` to a readable and writable
/// `mrtr_tool_cursor`; `out` to a writable `mrtr_tool`.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_tool_next(
    result: *const u8,
    len: usize,
    cursor: *mut mrtr_tool_cursor,
    out: *mut mrtr_tool,
) -> mrtr_status {
    status_of((|| {
        let mut a = Args::free();
        // SAFETY: caller contract; each pointer is checked as it is taken.
        let ((cursor, cursor_out), out) = unsafe { (a.inout(cursor)?, a.out(out)?) };
        // SAFETY: caller contract.
        let result = unsafe { a.bytes(result, len) }?;
        let mut at = if cursor.offset == 0 {
            // A result is an object: its tools never start at offset 0.
            ToolList::open(result)
                .map_err(status_of_list)?
                .start(result)
        } else if cursor.page_len != len {
            return Err(mrtr_status::MRTR_ERR_INVALID_ARGUMENT);
        } else {
            ToolCursor::from_parts(cursor.index, cursor.offset)
        };
        let read = next_tool(result, &mut at);
        cursor_out.write(mrtr_tool_cursor {
            index: at.index(),
            offset: at.offset(),
            page_len: len,
        });
        let tool = read
            .ok_or(mrtr_status::MRTR_ERR_NOT_FOUND)?
            .map_err(status_of_list)?;
        out.write(tool_out(&tool));
        Ok(())
    })())
}
