//! Tool parameters mirrored into HTTP headers (SEP-2243), and the client's
//! answer to an unsupported protocol version (`-32022`).
//!
//! A tool's `inputSchema` may designate properties with
//! `"x-mcp-header": "Name"`, at any depth reached from the root through
//! `properties` alone (`target.zone` is designated by
//! `properties.target.properties.zone`); on Streamable HTTP the client then
//! sends each designated argument of a `tools/call` as a header
//! `Mcp-Param-Name`, so a gateway can route without reading the body. A
//! designation is valid when it stands on such a property (not on the
//! root, not under `items`, `anyOf`, `additionalProperties`, `$defs`, ...),
//! the name is a non-empty HTTP token (RFC 9110 `tchar`: ASCII letters,
//! digits and ``!#$%&'*+-.^_`|~``, so no space, colon, control or
//! non-ASCII character), the property's `type` is exactly `"string"`,
//! `"integer"` or `"boolean"` (not `number`, whose text form is not
//! canonical, nor object, array or null), the property has one
//! `x-mcp-header` and one `type`, and no other designation of the tool has
//! the same name, compared case-insensitively (and a tool has at most
//! [`MAX_DESIGNATIONS`], nested at most [`MAX_SCHEMA_DEPTH`] deep). A
//! client must not use a tool with an invalid designation:
//! [`Designations::parse`] is the check (the rules in full are in
//! [`crate::param_headers`]).
//!
//! Values: a string argument is sent by the rule of [`super::http`]
//! (as it is when it is safe header text, else `=?base64?...?=`), an
//! integer, which must be a safe integer (at most [`MAX_SAFE_INTEGER`] in
//! magnitude, else [`HttpError::NotSafeInteger`]), in canonical decimal
//! form (`1e2` is sent as `100`), a boolean as `true` or `false`. An
//! argument that is absent or `null`, or below a member that is absent,
//! `null` or not an object, sends no header; a member repeated on its
//! path is [`HttpError::RepeatedMember`].

use crate::json::{JsonStr, Kind, Object};
use crate::param_headers::{integer_text, safe_integer, RepeatedMember};
use crate::wire::{parse_message, Message, WireLimits, PROTOCOL_VERSION};

pub use crate::param_headers::{
    Designation, DesignationError, Designations, ParamKind, MAX_DESIGNATIONS, MAX_SAFE_INTEGER,
    MAX_SCHEMA_DEPTH, MCP_PARAM_PREFIX, X_MCP_HEADER,
};

use super::http::{HttpError, TextBytes, MAX_HEADER_VALUE_BYTES};

/// The value text of one mirrored argument, before encoding.
#[derive(Debug, Clone, Copy)]
enum ParamText<'a> {
    Json(JsonStr<'a>),
    Raw(&'a [u8]),
    /// A safe integer's canonical decimal text (see [`integer_text`]).
    Integer([u8; 20], usize),
}

impl<'a> ParamText<'a> {
    fn bytes(&self) -> TextBytes<'_> {
        match self {
            ParamText::Raw(s) => TextBytes::raw(s),
            ParamText::Integer(b, n) => TextBytes::raw(b.get(..*n).unwrap_or(&[])),
            ParamText::Json(j) => TextBytes::json(*j),
        }
    }
}

/// The `Mcp-Param-*` headers of one `tools/call` request.
#[derive(Debug, Clone, Copy)]
pub struct ParamHeaders<'a> {
    designations: Designations<'a>,
    arguments: Option<Object<'a>>,
}

impl<'a> ParamHeaders<'a> {
    /// The headers for the `tools/call` request in `body` (the bytes about
    /// to be sent), calling the tool whose `inputSchema` is
    /// `input_schema`. Errors: [`HttpError::NotAToolCall`] for a message
    /// that is not a `tools/call` request, [`HttpError::Designation`] for
    /// an invalid designation, [`HttpError::ParamType`] for a designated
    /// argument whose JSON type is not the designated one,
    /// [`HttpError::NotSafeInteger`] for an integer argument that is not a
    /// safe integer, [`HttpError::RepeatedMember`] for a member repeated on
    /// a designated argument's path, [`HttpError::ValueTooLong`].
    pub fn for_message(
        body: &'a [u8],
        input_schema: &'a [u8],
        limits: &WireLimits,
    ) -> Result<Self, HttpError> {
        let params = match parse_message(body, limits).map_err(HttpError::Wire)? {
            Message::Request { method, params, .. } if method.eq_str("tools/call") => params,
            _ => return Err(HttpError::NotAToolCall),
        };
        let designations = Designations::parse(input_schema).map_err(HttpError::Designation)?;
        let arguments = match params.and_then(|p| p.get("arguments")) {
            None => None,
            Some(a) if a.is_null() => None,
            Some(a) => Some(a.as_object().ok_or(HttpError::ParamType)?),
        };
        let h = ParamHeaders {
            designations,
            arguments,
        };
        for p in h.params() {
            let (_, text) = p?;
            let len = super::http::value_len(text.bytes());
            if len > MAX_HEADER_VALUE_BYTES {
                return Err(HttpError::ValueTooLong { len });
            }
        }
        Ok(h)
    }

    /// The designated arguments present and not `null`, with their text.
    fn params(
        &self,
    ) -> impl Iterator<Item = Result<(Designation<'a>, ParamText<'a>), HttpError>> + 'a {
        let args = self.arguments;
        self.designations.iter().filter_map(move |d| {
            let v = match d.argument(args) {
                Ok(v) => v?,
                Err(RepeatedMember) => return Some(Err(HttpError::RepeatedMember)),
            };
            let text = match (d.kind, v.kind()) {
                (ParamKind::String, Kind::String) => v.as_str().map(ParamText::Json),
                (ParamKind::Integer, Kind::Number) => match safe_integer(v.raw()) {
                    Some(n) => {
                        let (b, len) = integer_text(n);
                        Some(ParamText::Integer(b, len))
                    }
                    None => return Some(Err(HttpError::NotSafeInteger)),
                },
                (ParamKind::Boolean, Kind::Bool) => Some(ParamText::Raw(v.raw())),
                _ => None,
            };
            Some(text.map(|t| (d, t)).ok_or(HttpError::ParamType))
        })
    }

    /// How many headers there are.
    pub fn count(&self) -> usize {
        self.params().count()
    }

    /// The exact buffer size [`Self::write`] needs (header names and
    /// values).
    pub fn buffer_len(&self) -> usize {
        self.params()
            .filter_map(Result::ok)
            .map(|(d, t)| {
                (MCP_PARAM_PREFIX.len() + d.header.decoded_len())
                    .saturating_add(super::http::value_len(t.bytes()))
            })
            .fold(0usize, usize::saturating_add)
    }

    /// Writes each header's name and value into `buf` and hands them to
    /// `each` as `(name, value)`, in the schema's property order.
    pub fn write<'b>(
        &self,
        buf: &'b mut [u8],
        mut each: impl FnMut(&'b str, &'b str),
    ) -> Result<(), HttpError> {
        let needed = self.buffer_len();
        if buf.len() < needed {
            return Err(HttpError::BufferTooSmall { needed });
        }
        let too_small = HttpError::BufferTooSmall { needed };
        let mut rest = buf;
        for p in self.params() {
            let (d, text) = p?;
            let name_len = MCP_PARAM_PREFIX.len() + d.header.decoded_len();
            let (name, r) = rest.split_at_mut_checked(name_len).ok_or(too_small)?;
            let value_len = super::http::value_len(text.bytes());
            let (value, r) = r.split_at_mut_checked(value_len).ok_or(too_small)?;
            rest = r;
            // The header is a validated token: ASCII, one byte a char.
            for (dst, b) in name.iter_mut().zip(TextBytes::raw_then(
                MCP_PARAM_PREFIX.as_bytes(),
                Some(d.header),
            )) {
                *dst = b;
            }
            super::http::write_value(text.bytes(), value);
            let ascii = |b: &'b [u8]| core::str::from_utf8(b).map_err(|_| too_small);
            each(ascii(name)?, ascii(value)?);
        }
        Ok(())
    }
}

/// Why a `tools/list` result, or one tool of it, cannot be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolListError {
    /// Not one valid JSON document within the parser's limits.
    Json(crate::json::Error),
    /// The result is not an object with a `tools` array (or `nextCursor`
    /// is present and not a string).
    NotAList,
    /// The page lists more than [`MAX_TOOLS_PER_PAGE`] tools.
    TooMany,
    /// Tool `index` is not an object with a string `name` and an object
    /// `inputSchema`.
    Tool {
        /// The tool's position in the list.
        index: usize,
    },
}

impl ToolListError {
    /// The cause's name, NUL-terminated for C: `"NotAList"`, `"TooMany"`,
    /// `"Tool"` (a malformed tool), or the JSON error's kind (`"TooDeep"`).
    pub const fn name(&self) -> &'static core::ffi::CStr {
        packed_name!(self, ToolListError:
            NotAList TooMany Tool;
            ToolListError::Json(e) => e.kind.name(),
        )
    }
}

impl core::fmt::Display for ToolListError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ToolListError::Json(e) => write!(f, "tools/list result is not valid JSON: {e}"),
            ToolListError::NotAList => f.write_str("tools/list result has no tools array"),
            ToolListError::TooMany => write!(f, "more than {MAX_TOOLS_PER_PAGE} tools in one page"),
            ToolListError::Tool { index } => write!(
                f,
                "tool {index} is not an object with a string name and an object inputSchema"
            ),
        }
    }
}

impl core::error::Error for ToolListError {}

/// The most tools one `tools/list` page may list. Reading tool `i` alone
/// ([`ToolList::get`]) is O(i) (nothing is allocated to index them); a
/// loop over every tool reads them in one pass instead ([`ToolList::iter`],
/// or [`next_tool`] with a [`ToolCursor`] when the list cannot be kept
/// between reads).
pub const MAX_TOOLS_PER_PAGE: usize = 1024;

/// Where a reading of a `tools/list` page stands: the index of the next
/// tool and the offset, in the page's bytes, where its search starts (just
/// past the previous tool). [`next_tool`] continues from here, so reading
/// every tool walks the page once; a caller that cannot keep a
/// [`ToolList`] between reads (the C ABI) keeps this instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ToolCursor {
    index: usize,
    offset: usize,
}

impl ToolCursor {
    /// A cursor from its parts (as [`Self::index`] and [`Self::offset`]
    /// gave them). A cursor that was not made for the page is read safely
    /// but may find no tool, or another value, there.
    pub fn from_parts(index: usize, offset: usize) -> Self {
        ToolCursor { index, offset }
    }

    /// The index of the tool the next read returns.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The byte offset in the page where the next read starts.
    pub fn offset(&self) -> usize {
        self.offset
    }
}

/// Reads the tool at `cursor` in `result`, a page [`ToolList::parse`]
/// accepted (the cursor from [`ToolList::start`] or from this function),
/// and moves the cursor past it: `None` at the end of the page. Only that
/// tool's bytes are read (and validated again, so a cursor that does not
/// fit the page cannot read out of it): reading every tool this way costs
/// about one validation of the page, not one per tool. A tool that is not
/// an object with a string `name` and an object `inputSchema` is
/// [`ToolListError::Tool`], and the cursor moves past it too; a tool past
/// [`MAX_TOOLS_PER_PAGE`] is [`ToolListError::TooMany`] (and the end).
pub fn next_tool<'a>(
    result: &'a [u8],
    cursor: &mut ToolCursor,
) -> Option<Result<ToolEntry<'a>, ToolListError>> {
    let ws = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    let skip_ws = |i: usize| {
        i + result
            .get(i..)
            .map_or(0, |r| r.iter().take_while(|b| ws(b)).count())
    };
    let mut i = skip_ws(cursor.offset);
    if cursor.index > 0 && result.get(i) == Some(&b',') {
        i = skip_ws(i + 1);
    }
    match result.get(i) {
        None | Some(b']') => return None,
        Some(_) if cursor.index >= MAX_TOOLS_PER_PAGE => {
            cursor.offset = result.len();
            return Some(Err(ToolListError::TooMany));
        }
        Some(_) => {}
    }
    // The tools sit at depth 3 of the page (result, tools array, tool).
    let depth = crate::json::DEFAULT_MAX_DEPTH.saturating_sub(2);
    let index = cursor.index;
    let (value, end) = match crate::json::parse_value_at(result, i, depth) {
        Ok(v) => v,
        Err(e) => {
            cursor.offset = result.len();
            return Some(Err(ToolListError::Json(e)));
        }
    };
    cursor.index = index.saturating_add(1);
    cursor.offset = end;
    Some(ToolList::entry(index, value))
}

/// One tool of a `tools/list` result, as a client offers it.
#[derive(Debug, Clone, Copy)]
pub struct ToolEntry<'a> {
    /// The tool's name.
    pub name: JsonStr<'a>,
    /// Its `inputSchema`, the raw JSON (pass it to [`ParamHeaders`] when
    /// calling the tool over HTTP).
    pub input_schema: &'a [u8],
    /// Its `x-mcp-header` designations, or why they are invalid: a tool
    /// with invalid designations must not be called (SEP-2243); the other
    /// tools of the list stay usable.
    pub designations: Result<Designations<'a>, DesignationError>,
}

impl ToolEntry<'_> {
    /// Whether a client may call the tool (its designations are valid).
    pub fn usable(&self) -> bool {
        self.designations.is_ok()
    }
}

/// A `tools/list` result (the `result` object, as a call's result span
/// gives it), read in place: one page of tools and the cursor of the next.
#[derive(Debug, Clone, Copy)]
pub struct ToolList<'a> {
    tools: crate::json::Array<'a>,
    next_cursor: Option<JsonStr<'a>>,
    /// The number of tools, when [`Self::parse`] counted them.
    count: Option<usize>,
}

impl<'a> ToolList<'a> {
    /// Validates `result` as JSON and finds its `tools` array; each tool is
    /// read when asked for ([`Self::get`]).
    pub fn parse(result: &'a [u8]) -> Result<Self, ToolListError> {
        let list = Self::open(result)?;
        let count = list.tools.iter().take(MAX_TOOLS_PER_PAGE + 1).count();
        if count > MAX_TOOLS_PER_PAGE {
            return Err(ToolListError::TooMany);
        }
        Ok(ToolList {
            count: Some(count),
            ..list
        })
    }

    /// [`Self::parse`] without counting the tools (a page of more than
    /// [`MAX_TOOLS_PER_PAGE`] opens; [`next_tool`] refuses the tool past
    /// the bound): for a reader that goes through the tools once anyway.
    pub fn open(result: &'a [u8]) -> Result<Self, ToolListError> {
        // A skip index of a few slots on the stack records the result
        // object and its `tools` array (the first containers), so the walk
        // of the members steps over the array without reading it again.
        let mut slots = [crate::json::IndexSlot::EMPTY; 4];
        let span_in = |part: &[u8]| {
            let at = (part.as_ptr() as usize).wrapping_sub(result.as_ptr() as usize);
            at..at.saturating_add(part.len())
        };
        let (tools, next_cursor) = {
            let limits = crate::json::ParseLimits::default();
            let v = crate::json::parse_indexed(result, &limits, &mut slots)
                .map_err(ToolListError::Json)?;
            let o = v.as_object().ok_or(ToolListError::NotAList)?;
            // One walk of the members for both.
            let [tools, next_cursor] = o.get_unique_many(["tools", "nextCursor"]);
            let tools = tools
                .map_err(|_| ToolListError::NotAList)?
                .and_then(|t| t.as_array())
                .ok_or(ToolListError::NotAList)?;
            let next_cursor = match next_cursor.map_err(|_| ToolListError::NotAList)? {
                None => None,
                Some(c) if c.is_null() => None,
                Some(c) => Some(c.as_str().ok_or(ToolListError::NotAList)?),
            };
            (
                span_in(tools.raw()),
                next_cursor.map(|c| span_in(c.raw_token())),
            )
        };
        // The same parts, borrowed from `result` alone (no index).
        let tools = result
            .get(tools)
            .map(crate::json::validated_array)
            .ok_or(ToolListError::NotAList)?;
        let next_cursor = match next_cursor {
            None => None,
            Some(c) => Some(
                result
                    .get(c)
                    .and_then(|c| crate::json::parse(c).ok())
                    .and_then(|c| c.as_str())
                    .ok_or(ToolListError::NotAList)?,
            ),
        };
        Ok(ToolList {
            tools,
            next_cursor,
            count: None,
        })
    }

    /// The cursor at the first tool, for [`next_tool`] over `result`, the
    /// bytes this list was parsed from.
    pub fn start(&self, result: &'a [u8]) -> ToolCursor {
        // The array is a part of `result`: its offset there, past `[`.
        let at = (self.tools.raw().as_ptr() as usize).wrapping_sub(result.as_ptr() as usize);
        ToolCursor {
            index: 0,
            offset: at.saturating_add(1).min(result.len()),
        }
    }

    /// How many tools the page lists (usable or not): counted once by
    /// [`Self::parse`] (a list from [`Self::open`] counts them here).
    pub fn len(&self) -> usize {
        self.count.unwrap_or_else(|| self.tools.len())
    }

    /// Whether the page lists no tool.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cursor of the next page, when there is one.
    pub fn next_cursor(&self) -> Option<JsonStr<'a>> {
        self.next_cursor
    }

    /// Tool `index` (list order); `None` past the end.
    pub fn get(&self, index: usize) -> Option<Result<ToolEntry<'a>, ToolListError>> {
        self.tools.iter().nth(index).map(|t| Self::entry(index, t))
    }

    fn entry(index: usize, t: crate::json::Value<'a>) -> Result<ToolEntry<'a>, ToolListError> {
        let bad = ToolListError::Tool { index };
        let t = t.as_object().ok_or(bad)?;
        // One walk of the tool's members for both.
        let [name, schema] = t.get_unique_many(["name", "inputSchema"]);
        let name = name.map_err(|_| bad)?.and_then(|n| n.as_str()).ok_or(bad)?;
        let schema = schema
            .map_err(|_| bad)?
            .and_then(|s| s.as_object())
            .ok_or(bad)?;
        Ok(ToolEntry {
            name,
            input_schema: schema.raw(),
            designations: Designations::from_schema(schema),
        })
    }

    /// Every tool, in list order (one pass).
    pub fn iter(&self) -> impl Iterator<Item = Result<ToolEntry<'a>, ToolListError>> + 'a {
        self.tools
            .iter()
            .enumerate()
            .map(|(i, t)| Self::entry(i, t))
    }
}

/// How many times a client sends one request again after error `-32022`
/// (unsupported protocol version): once. mrtr speaks one revision,
/// [`PROTOCOL_VERSION`], so every resend carries the same version; a
/// second `-32022` for it is the server refusing it, whatever its
/// `data.supported` says. Pass the number of resends already made to
/// [`version_answer`]: at this bound the answer is
/// [`VersionAnswer::Refused`], so no caller can loop.
pub const MAX_VERSION_RETRIES: u32 = 1;

/// What a client does after error `-32022` (unsupported protocol version).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VersionAnswer {
    /// `data.supported` lists [`PROTOCOL_VERSION`], the only revision mrtr
    /// speaks, the server did not refuse that revision itself, and fewer
    /// than [`MAX_VERSION_RETRIES`] resends were made: send the request
    /// again, unchanged, at that revision (with a new id).
    Retry,
    /// The server supports no revision mrtr speaks (`data.supported`
    /// missing, or without [`PROTOCOL_VERSION`]): give up, no retry.
    Unsupported,
    /// The server refused [`PROTOCOL_VERSION`] itself: `data.requested`
    /// names it, or the request was already sent again at it
    /// [`MAX_VERSION_RETRIES`] times. Final, even when `data.supported`
    /// lists it: sending it again would be refused again.
    Refused,
}

/// Reads an error response `body` to a request already sent again
/// `retries` times after `-32022` (0 for the first answer): for `-32022`
/// whether to retry (see [`VersionAnswer`]); `Ok(None)` for a message that
/// is not a `-32022` error response (or not readable). A `data` object
/// with a repeated member (`supported` twice, say) is an error
/// ([`crate::json::ErrorKind::DuplicateKey`]): the advice never depends on
/// which of two members a reader takes.
pub fn version_answer(
    body: &[u8],
    limits: &WireLimits,
    retries: u32,
) -> Result<Option<VersionAnswer>, crate::json::Error> {
    let Ok(Message::Error { code, data, .. }) = parse_message(body, limits) else {
        return Ok(None);
    };
    if code != i64::from(crate::wire::ErrorCode::UnsupportedProtocolVersion.code()) {
        return Ok(None);
    }
    let data = data.and_then(|d| d.as_object());
    if let Some(d) = data {
        d.check_unique_keys(usize::MAX)?;
    }
    let member = |k: &str| data.and_then(|d| d.get(k));
    let listed = member("supported")
        .and_then(|s| s.as_array())
        .is_some_and(|s| {
            s.iter()
                .any(|v| v.as_str().is_some_and(|v| v.eq_str(PROTOCOL_VERSION)))
        });
    let refused_ours = member("requested")
        .and_then(|r| r.as_str())
        .is_some_and(|r| r.eq_str(PROTOCOL_VERSION));
    Ok(Some(if !listed {
        VersionAnswer::Unsupported
    } else if refused_ours || retries >= MAX_VERSION_RETRIES {
        VersionAnswer::Refused
    } else {
        VersionAnswer::Retry
    }))
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod depth_tests;
