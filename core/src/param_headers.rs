//! `x-mcp-header` designations (SEP-2243), read the same way by both
//! halves: a client mirrors designated arguments into `Mcp-Param-*` headers
//! (`client::tools`), a server checks those headers against the body
//! (`server::check_param_headers`).
//!
//! Where a designation may stand: a tool's `inputSchema` may designate any
//! property schema reachable from the root through a chain of `properties`
//! keys, at any depth (`properties.target.properties.zone` designates the
//! argument `arguments.target.zone`). Anywhere else it makes the tool
//! invalid ([`DesignationError::Unreachable`]): on the root itself, or
//! under any other subschema keyword (`items`, `prefixItems`,
//! `additionalItems`, `contains`, `additionalProperties`,
//! `patternProperties`, `propertyNames`, `unevaluatedItems`,
//! `unevaluatedProperties`, `dependentSchemas`, `dependencies`, `allOf`,
//! `anyOf`, `oneOf`, `not`, `if`, `then`, `else`, `contentSchema`, `$defs`,
//! `definitions`), at any depth below it. Data keywords (`const`, `enum`,
//! `default`, `examples`) hold values, not schemas, and unknown keywords
//! and `$ref` are not followed: an `x-mcp-header` member there is data. A
//! property *named* `x-mcp-header` (a key of `properties`) is a name, not
//! an annotation. (The official Python and TypeScript SDKs walk the same
//! keywords; `additionalItems` and `dependencies`, the draft-07 spellings,
//! are walked here as well.)
//!
//! A designation is valid when the name is a non-empty HTTP token (RFC 9110
//! `tchar`), the property's `type` is exactly `"string"`, `"integer"` or
//! `"boolean"`, the property schema has one `x-mcp-header` and at most one
//! `type` member, no other designation of the tool, at any depth, has the
//! same name (ASCII case ignored), the tool has at most
//! [`MAX_DESIGNATIONS`], and the walk stays within [`MAX_SCHEMA_DEPTH`]. A
//! tool with an invalid designation must not be used:
//! [`Designations::parse`] is the check.
//!
//! How arguments are found: the designation's path of property names is
//! followed through `arguments`; an intermediate member that is missing,
//! `null` or not an object, or a designated member that is missing or
//! `null`, means the argument is absent (no header is sent, and one that
//! is sent is unexpected). A member repeated on the way makes the body
//! ambiguous, and it is refused.
//!
//! Integers: an `"integer"` designation takes a JSON number whose value is
//! an integer of magnitude at most [`MAX_SAFE_INTEGER`] (2^53 - 1), in any
//! JSON form (`100`, `1e2` and `100.0` are the integer 100, as JSON Schema
//! and both official SDKs read them); it is mirrored in canonical decimal
//! form (`100`), as the TypeScript SDK does. `1.5`, `9007199254740993` and
//! `1e400` are not safe integers: a client refuses such a call and a
//! server fails the header check. A server compares the header as a
//! decimal number (`-?[0-9]+(\.[0-9]+)?`, so `100.0` equals `100`, as both
//! official SDKs compare).

use crate::json::{self, Elements, JsonStr, Members, Object, Value};

/// Longest header value mirrored or checked, in bytes (the limit SEP-2243
/// sets for mirrored values; common HTTP servers cap a header line at
/// 8 KiB).
pub const MAX_HEADER_VALUE_BYTES: usize = 8192;

/// The schema keyword that designates a parameter.
pub const X_MCP_HEADER: &str = "x-mcp-header";
/// The prefix of a mirrored parameter's header name.
pub const MCP_PARAM_PREFIX: &str = "Mcp-Param-";
/// Most designations one tool may have: each becomes a header of every
/// call, and HTTP servers cap the header count (commonly near 100). It
/// also bounds the work of the uniqueness check on a hostile schema.
pub const MAX_DESIGNATIONS: usize = 64;
/// Deepest JSON nesting, below and including the `inputSchema` object, that
/// the designation walk follows: a schema whose subschemas (or their
/// `properties`, lists and maps) nest deeper is refused
/// ([`DesignationError::TooDeep`]). It bounds the walk's stack (one
/// iterator per level, no recursion); a schema read with the default
/// parse depth ([`json::DEFAULT_MAX_DEPTH`]) never reaches it.
pub const MAX_SCHEMA_DEPTH: usize = 32;
/// The largest integer a designated `"integer"` argument may have (and
/// the negative of the smallest): 2^53 - 1, the largest integer every
/// JSON reader (IEEE 754 doubles included) reads exactly.
pub const MAX_SAFE_INTEGER: i64 = crate::json::MAX_SAFE_INTEGER;

/// Why a tool's `x-mcp-header` designations are invalid (the tool must not
/// be used).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DesignationError {
    /// The `inputSchema` is not a JSON object, or its `properties` is
    /// present and not an object.
    Schema,
    /// An `x-mcp-header` is not a string, or is the empty string.
    Empty,
    /// An `x-mcp-header` has a character outside the HTTP token set, or is
    /// longer than [`MAX_HEADER_VALUE_BYTES`].
    Charset,
    /// A designated property's `type` is not `"string"`, `"integer"` or
    /// `"boolean"`.
    NotPrimitive,
    /// Two properties designate the same name (ignoring ASCII case), at
    /// any depths.
    Duplicate,
    /// More than [`MAX_DESIGNATIONS`] properties are designated.
    TooMany,
    /// An `x-mcp-header` stands where no designation may: on the root
    /// schema, or in a subschema that is not reached from the root through
    /// `properties` alone (under `items`, `anyOf`, `additionalProperties`,
    /// `$defs`, ...).
    Unreachable,
    /// A designated property schema has `x-mcp-header` or `type` twice
    /// (readers that keep the first and the last would disagree).
    Repeated,
    /// The schema nests deeper than [`MAX_SCHEMA_DEPTH`].
    TooDeep,
}

impl core::fmt::Display for DesignationError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            DesignationError::Schema => "inputSchema is not an object with object properties",
            DesignationError::Empty => "x-mcp-header is not a non-empty string",
            DesignationError::Charset => "x-mcp-header is not an HTTP token",
            DesignationError::NotPrimitive => {
                "x-mcp-header on a property whose type is not string, integer or boolean"
            }
            DesignationError::Duplicate => "two x-mcp-header names are equal (ignoring case)",
            DesignationError::TooMany => "more x-mcp-header designations than allowed",
            DesignationError::Unreachable => {
                "x-mcp-header outside a chain of properties from the root schema"
            }
            DesignationError::Repeated => "a designated property repeats x-mcp-header or type",
            DesignationError::TooDeep => "inputSchema nests deeper than the designation walk goes",
        })
    }
}

impl core::error::Error for DesignationError {}

/// The JSON type a designated parameter has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// `"type": "string"`.
    String,
    /// `"type": "integer"` (a safe integer: see [`MAX_SAFE_INTEGER`]).
    Integer,
    /// `"type": "boolean"`.
    Boolean,
}

/// One designated parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Designation<'a> {
    /// The property (argument) name: the last name of its path (see
    /// [`Designation::path`]).
    pub property: JsonStr<'a>,
    /// The header name after `Mcp-Param-` (a validated HTTP token).
    pub header: JsonStr<'a>,
    /// The property's type.
    pub kind: ParamKind,
    /// The `inputSchema` the designation was read from (to find its path).
    root: Object<'a>,
}

/// The body repeats a member on the path of a designated argument: it
/// means two things, and is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RepeatedMember;

impl<'a> Designation<'a> {
    /// The property names from the root to the designated property
    /// (`target`, `zone` for `properties.target.properties.zone`); the last
    /// is [`Designation::property`].
    pub fn path(&self) -> impl Iterator<Item = JsonStr<'a>> + 'a {
        let leaf = self.property;
        let mut schema = Some(self.root);
        core::iter::from_fn(move || {
            let s = schema.take()?;
            let props = s
                .iter()
                .filter(|(k, _)| k.eq_str("properties"))
                .filter_map(|(_, v)| v.as_object())
                .find(|p| within(leaf.raw_token(), p.raw()))?;
            for (k, v) in props.iter() {
                if k.raw_token().as_ptr() == leaf.raw_token().as_ptr() {
                    return Some(k);
                }
                if within(leaf.raw_token(), v.raw()) {
                    schema = v.as_object();
                    return Some(k);
                }
            }
            None
        })
    }

    /// The designated argument in `arguments` (a `tools/call`'s
    /// `arguments`), following [`Designation::path`]: `Ok(None)` when it is
    /// absent (a member on the way missing, `null` or not an object, or the
    /// argument itself missing or `null`); [`RepeatedMember`] when an
    /// object on the way has the member twice.
    pub fn argument<'v>(
        &self,
        arguments: Option<Object<'v>>,
    ) -> Result<Option<Value<'v>>, RepeatedMember> {
        let mut cur = arguments.map(|a| a.as_value());
        for name in self.path() {
            let Some(obj) = cur.and_then(|v| v.as_object()) else {
                return Ok(None);
            };
            let mut found = None;
            for (k, v) in obj.iter() {
                if k.eq_json_str(&name) {
                    if found.is_some() {
                        return Err(RepeatedMember);
                    }
                    found = Some(v);
                }
            }
            cur = found;
        }
        Ok(cur.filter(|v| !v.is_null()))
    }
}

/// Whether `inner` is a part of `outer` (both spans of one document).
fn within(inner: &[u8], outer: &[u8]) -> bool {
    let (o, i) = (outer.as_ptr() as usize, inner.as_ptr() as usize);
    i >= o && i.saturating_add(inner.len()) <= o.saturating_add(outer.len())
}

/// The validated designations of one tool's `inputSchema`.
#[derive(Debug, Clone, Copy)]
pub struct Designations<'a> {
    root: Object<'a>,
}

/// An HTTP token character (RFC 9110 `tchar`).
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// Reads the designation of the schema `schema` at a position reached
/// through `properties` alone when `property` is its name (`None`: the root
/// or a position off that chain), if it has one.
fn designation<'a>(
    root: Object<'a>,
    property: Option<JsonStr<'a>>,
    schema: Object<'a>,
) -> Result<Option<Designation<'a>>, DesignationError> {
    let [header, ty] = schema.get_unique_many([X_MCP_HEADER, "type"]);
    let Some(header) = header.map_err(|_| DesignationError::Repeated)? else {
        return Ok(None);
    };
    let property = property.ok_or(DesignationError::Unreachable)?;
    let ty = ty.map_err(|_| DesignationError::Repeated)?;
    let header = header.as_str().ok_or(DesignationError::Empty)?;
    if header.chars().next().is_none() {
        return Err(DesignationError::Empty);
    }
    if !header.chars().all(is_tchar)
        || header.decoded_len() > MAX_HEADER_VALUE_BYTES - MCP_PARAM_PREFIX.len()
    {
        return Err(DesignationError::Charset);
    }
    let kind = match ty.and_then(|t| t.as_str()) {
        Some(t) if t.eq_str("string") => ParamKind::String,
        Some(t) if t.eq_str("integer") => ParamKind::Integer,
        Some(t) if t.eq_str("boolean") => ParamKind::Boolean,
        _ => return Err(DesignationError::NotPrimitive),
    };
    Ok(Some(Designation {
        property,
        header,
        kind,
        root,
    }))
}

/// Keywords whose value is one subschema (an array: a list of them).
const SUBSCHEMA_ONE: [&str; 12] = [
    "items",
    "additionalItems",
    "contains",
    "additionalProperties",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "not",
    "if",
    "then",
    "else",
    "contentSchema",
];
/// Keywords whose value is a list of subschemas.
const SUBSCHEMA_LIST: [&str; 4] = ["allOf", "anyOf", "oneOf", "prefixItems"];
/// Keywords whose value maps names to subschemas.
/// (`dependencies`, draft-07: a value may also be a list of names, data.)
const SUBSCHEMA_MAP: [&str; 5] = [
    "patternProperties",
    "dependentSchemas",
    "dependencies",
    "$defs",
    "definitions",
];

/// One level of the designation walk.
#[derive(Clone)]
enum Frame<'a> {
    /// The keywords of a schema; `on_chain`: reached through `properties`
    /// alone.
    Schema {
        members: Members<'a>,
        on_chain: bool,
    },
    /// A `properties` map: each value a property schema.
    Properties {
        members: Members<'a>,
        on_chain: bool,
    },
    /// A map of subschemas (`$defs`, ...), off the chain.
    Map(Members<'a>),
    /// A list of subschemas (`anyOf`, ...), off the chain.
    List(Elements<'a>),
}

/// The walk over every schema position of an `inputSchema`, in document
/// order, yielding each designation (or the first error, then nothing).
struct Walk<'a> {
    root: Object<'a>,
    stack: [Option<Frame<'a>>; MAX_SCHEMA_DEPTH],
    len: usize,
    done: bool,
    /// An error found before the walk started (on the root).
    pending: Option<DesignationError>,
}

impl<'a> Walk<'a> {
    fn new(root: Object<'a>) -> Self {
        let mut w = Walk {
            root,
            stack: core::array::from_fn(|_| None),
            len: 0,
            done: false,
            pending: None,
        };
        // The root is a position of its own: off the chain for its own
        // `x-mcp-header`, on it for its properties.
        match designation(root, None, root) {
            Err(e) => w.pending = Some(e),
            Ok(_) => {
                let _ = w.push(Frame::Schema {
                    members: root.iter(),
                    on_chain: true,
                });
            }
        }
        w
    }

    fn push(&mut self, f: Frame<'a>) -> Result<(), DesignationError> {
        let slot = self
            .stack
            .get_mut(self.len)
            .ok_or(DesignationError::TooDeep)?;
        *slot = Some(f);
        self.len += 1;
        Ok(())
    }

    /// Enters the schema `v` (a property schema named `property` when on
    /// the chain): its designation, if any, and its keywords next.
    fn visit(
        &mut self,
        v: Value<'a>,
        property: Option<JsonStr<'a>>,
    ) -> Result<Option<Designation<'a>>, DesignationError> {
        let Some(schema) = v.as_object() else {
            return Ok(None);
        };
        let d = designation(self.root, property, schema)?;
        self.push(Frame::Schema {
            members: schema.iter(),
            on_chain: property.is_some(),
        })?;
        Ok(d)
    }

    /// Enters the value of keyword `k` of a schema.
    fn keyword(
        &mut self,
        k: JsonStr<'a>,
        v: Value<'a>,
        on_chain: bool,
    ) -> Result<Option<Designation<'a>>, DesignationError> {
        // Only an object or an array can hold a schema: most keywords
        // (`type`, `description`, ...) are passed without a name compared.
        if !matches!(v.kind(), json::Kind::Object | json::Kind::Array) {
            return Ok(None);
        }
        let is = |names: &[&str]| names.iter().any(|n| k.eq_str(n));
        if k.eq_str("properties") {
            if let Some(p) = v.as_object() {
                self.push(Frame::Properties {
                    members: p.iter(),
                    on_chain,
                })?;
            }
            return Ok(None);
        }
        if !(is(&SUBSCHEMA_ONE) || is(&SUBSCHEMA_LIST) || is(&SUBSCHEMA_MAP)) {
            return Ok(None); // data, `$ref` or an unknown keyword
        }
        if let Some(list) = v.as_array() {
            self.push(Frame::List(list.iter()))?;
            return Ok(None);
        }
        match v.as_object() {
            Some(m) if is(&SUBSCHEMA_MAP) => {
                self.push(Frame::Map(m.iter()))?;
                Ok(None)
            }
            Some(_) => self.visit(v, None),
            None => Ok(None),
        }
    }

    fn step(&mut self) -> Result<Option<Designation<'a>>, DesignationError> {
        let top = self.len.wrapping_sub(1);
        let next = match self.stack.get_mut(top).and_then(Option::as_mut) {
            None => {
                self.done = true;
                return Ok(None);
            }
            Some(Frame::Schema { members, on_chain }) => {
                let on_chain = *on_chain;
                members.next().map(|(k, v)| (Some(k), v, on_chain, true))
            }
            Some(Frame::Properties { members, on_chain }) => {
                let on_chain = *on_chain;
                members.next().map(|(k, v)| (Some(k), v, on_chain, false))
            }
            Some(Frame::Map(members)) => members.next().map(|(_, v)| (None, v, false, false)),
            Some(Frame::List(elements)) => elements.next().map(|v| (None, v, false, false)),
        };
        match next {
            None => {
                if let Some(f) = self.stack.get_mut(top) {
                    *f = None;
                }
                self.len = top;
                Ok(None)
            }
            Some((Some(k), v, on_chain, true)) => self.keyword(k, v, on_chain),
            Some((name, v, on_chain, _)) => self.visit(v, name.filter(|_| on_chain)),
        }
    }
}

impl<'a> Iterator for Walk<'a> {
    type Item = Result<Designation<'a>, DesignationError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(e) = self.pending.take() {
            self.done = true;
            return Some(Err(e));
        }
        while !self.done {
            match self.step() {
                Ok(None) => {}
                Ok(Some(d)) => return Some(Ok(d)),
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
        None
    }
}

fn same_name(a: &JsonStr<'_>, b: &JsonStr<'_>) -> bool {
    same_chars(a.chars(), b.chars())
}

/// Whether two names are the same ignoring ASCII case.
fn same_chars(mut x: impl Iterator<Item = char>, mut y: impl Iterator<Item = char>) -> bool {
    loop {
        match (x.next(), y.next()) {
            (None, None) => return true,
            (Some(p), Some(q)) if p.eq_ignore_ascii_case(&q) => {}
            _ => return false,
        }
    }
}

impl<'a> Designations<'a> {
    /// Reads and validates the designations of `input_schema` (a tool's
    /// `inputSchema`, the raw JSON). A schema without designations is valid
    /// and has none.
    pub fn parse(input_schema: &'a [u8]) -> Result<Self, DesignationError> {
        let schema = json::parse(input_schema).map_err(|_| DesignationError::Schema)?;
        Self::from_schema(schema.as_object().ok_or(DesignationError::Schema)?)
    }

    /// As [`Self::parse`], for an already parsed schema.
    pub fn from_schema(schema: Object<'a>) -> Result<Self, DesignationError> {
        if schema
            .get("properties")
            .is_some_and(|p| p.as_object().is_none())
        {
            return Err(DesignationError::Schema);
        }
        // One walk: each designation valid, few enough, and its name unique
        // among those before it (at most MAX_DESIGNATIONS names held).
        let mut names: [Option<JsonStr<'a>>; MAX_DESIGNATIONS] = [None; MAX_DESIGNATIONS];
        for (n, d) in Walk::new(schema).enumerate() {
            let d = d?;
            if names.iter().flatten().any(|h| same_name(h, &d.header)) {
                return Err(DesignationError::Duplicate);
            }
            *names.get_mut(n).ok_or(DesignationError::TooMany)? = Some(d.header);
        }
        Ok(Designations { root: schema })
    }

    /// The designations, in document order (a property before the
    /// properties nested in it).
    pub fn iter(&self) -> impl Iterator<Item = Designation<'a>> + 'a {
        // Validated in `from_schema`: no error is left to skip.
        Walk::new(self.root).filter_map(Result::ok)
    }

    /// How many properties are designated.
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// Whether no property is designated.
    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }
}

/// The value of the JSON number `text` when it is an integer of magnitude
/// at most [`MAX_SAFE_INTEGER`], whatever its form (`100`, `1e2`, `100.0`,
/// `-0`); `None` for a fraction (`1.5`), a larger magnitude
/// (`9007199254740993`, `1e400`) or text that is not a JSON number.
pub fn safe_integer(text: &[u8]) -> Option<i64> {
    decimal_integer(text, true)
}

/// The digits at the start of `b`, and the rest.
fn digits(b: &[u8]) -> (&[u8], &[u8]) {
    let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
    b.split_at(n)
}

/// `-?D+(\.D+)?` (with `exponent`: then `([eE][+-]?D+)?`), as a safe
/// integer. Leading zeros are allowed (a header may have them; validated
/// JSON has none).
fn decimal_integer(text: &[u8], exponent: bool) -> Option<i64> {
    let (neg, rest) = match text.split_first() {
        Some((b'-', r)) => (true, r),
        _ => (false, text),
    };
    let (int, rest) = digits(rest);
    if int.is_empty() {
        return None;
    }
    let (frac, rest) = match rest.split_first() {
        Some((b'.', r)) => match digits(r) {
            ([], _) => return None,
            f => f,
        },
        _ => (&[][..], rest),
    };
    let mut exp: i64 = 0;
    let rest = match rest.split_first() {
        None => rest,
        Some((b'e' | b'E', r)) if exponent => {
            let (eneg, r) = match r.split_first() {
                Some((b'-', r)) => (true, r),
                Some((b'+', r)) => (false, r),
                _ => (false, r),
            };
            let (e, r) = digits(r);
            if e.is_empty() {
                return None;
            }
            for &d in e {
                exp = (exp * 10 + i64::from(d - b'0')).min(1 << 20);
            }
            if eneg {
                exp = -exp;
            }
            r
        }
        Some(_) => return None,
    };
    if !rest.is_empty() {
        return None;
    }
    // The value is D * 10^scale, D the digits of int and frac together.
    let all = || int.iter().chain(frac.iter()).copied();
    let zeros_after = all().rev().take_while(|&d| d == b'0').count();
    let zeros_before = all().take_while(|&d| d == b'0').count();
    let len = int.len() + frac.len();
    if zeros_before == len {
        return Some(0);
    }
    let scale = exp - (frac.len() as i64) + (zeros_after as i64);
    let significant = len - zeros_after - zeros_before;
    if scale < 0 || significant as i64 + scale > 16 {
        return None;
    }
    let mut m: i64 = 0;
    for d in all().skip(zeros_before).take(significant) {
        m = m * 10 + i64::from(d - b'0');
    }
    for _ in 0..scale {
        m = m.checked_mul(10)?;
    }
    (m <= MAX_SAFE_INTEGER).then_some(if neg { -m } else { m })
}

/// The canonical decimal text of `n` (`-` and digits): its bytes and length.
#[cfg_attr(not(feature = "client"), allow(dead_code))] // used by client::tools
pub(crate) fn integer_text(n: i64) -> ([u8; 20], usize) {
    let mut out = [0u8; 20];
    let mut digits = [0u8; 20];
    let mut k = 0usize;
    let mut v = n.unsigned_abs();
    loop {
        if let Some(d) = digits.get_mut(k) {
            *d = b'0' + (v % 10) as u8;
        }
        k += 1;
        v /= 10;
        if v == 0 || k >= digits.len() {
            break;
        }
    }
    let mut len = 0usize;
    let sign = (n < 0).then_some(b'-');
    for b in sign.into_iter().chain(digits.iter().take(k).rev().copied()) {
        if let Some(o) = out.get_mut(len) {
            *o = b;
            len += 1;
        }
    }
    (out, len)
}

/// Why the `Mcp-Param-*` headers of a `tools/call` do not match its body
/// (answer `-32020`, header mismatch). The discriminants are the C API's
/// `MRTR_PARAM_HEADER_*` numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum ParamHeaderError {
    /// A designated argument is in the body (not `null`) and its header is
    /// missing.
    Missing = 1,
    /// The header is sent and the body has no such argument (or `null`).
    Unexpected = 2,
    /// The header's `=?base64?...?=` payload is not strict standard base64
    /// (alphabet, padding, canonical trailing bits).
    BadEncoding = 3,
    /// The header's value is not the body's value (or the argument is not
    /// of the designated type, or, for an integer, not a safe integer:
    /// see [`MAX_SAFE_INTEGER`]).
    Mismatch = 4,
    /// The designated header was sent more than once (names compared
    /// ignoring case): the request means two things
    /// ([`check_param_header_list`]).
    Repeated = 5,
    /// An object on the designated argument's path has that member twice:
    /// the body means two things (see [`RepeatedMember`]).
    RepeatedMember = 6,
}

impl core::fmt::Display for ParamHeaderError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            ParamHeaderError::Missing => "header missing for a designated argument",
            ParamHeaderError::Unexpected => "header sent for an argument the body does not have",
            ParamHeaderError::BadEncoding => "header value is not valid base64",
            ParamHeaderError::Mismatch => "header value does not match the body",
            ParamHeaderError::Repeated => "header sent more than once",
            ParamHeaderError::RepeatedMember => {
                "the body repeats a member on a designated argument's path"
            }
        })
    }
}

impl core::error::Error for ParamHeaderError {}

fn base64_value(c: u8) -> Option<u32> {
    Some(u32::from(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    }))
}

/// One 4-character group: its bytes and how many of them count, or `None`
/// when the group is not strict base64 (`last`: padding allowed).
fn base64_group(g: &[u8], last: bool) -> Option<([u8; 3], usize)> {
    let pad = g.iter().rev().take_while(|&&c| c == b'=').count();
    if g.len() != 4 || pad > 2 || (pad > 0 && !last) {
        return None;
    }
    let mut n = 0u32;
    for (j, &c) in g.iter().enumerate() {
        let v = if j >= 4 - pad { 0 } else { base64_value(c)? };
        n = n << 6 | v;
    }
    let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
    // Canonical: the bits under the padding are zero.
    if (pad == 1 && bytes[2] != 0) || (pad == 2 && (bytes[1] != 0 || bytes[2] != 0)) {
        return None;
    }
    Some((bytes, 3 - pad))
}

/// Whether `name`, the part of a received header name after
/// [`MCP_PARAM_PREFIX`] (or any header-name text), names the designated
/// header `designated`, ASCII case ignored (HTTP header names are
/// case-insensitive).
pub fn header_name_eq(name: &str, designated: &JsonStr<'_>) -> bool {
    same_chars(name.chars(), designated.chars())
}

/// The bytes a received header value stands for: the payload of a
/// `=?base64?...?=` wrapper decoded (strict standard base64: alphabet,
/// padding, canonical trailing bits, else [`ParamHeaderError::BadEncoding`]),
/// or the value itself. Used for `Mcp-Param-*` and `Mcp-Name` alike.
pub fn decode_header_value(
    value: &[u8],
) -> Result<impl Iterator<Item = u8> + '_, ParamHeaderError> {
    let wrapped = value
        .strip_prefix(b"=?base64?")
        .and_then(|v| v.strip_suffix(b"?="));
    let (literal, payload): (&[u8], &[u8]) = match wrapped {
        Some(p) => (&[], p),
        None => (value, &[]),
    };
    if payload.len() % 4 != 0 {
        return Err(ParamHeaderError::BadEncoding);
    }
    let groups = payload.len() / 4;
    let group = move |(i, g): (usize, &[u8])| base64_group(g, i + 1 == groups);
    if payload.chunks(4).enumerate().any(|x| group(x).is_none()) {
        return Err(ParamHeaderError::BadEncoding);
    }
    let decoded = payload
        .chunks(4)
        .enumerate()
        .filter_map(group)
        .flat_map(|(b, n)| b.into_iter().take(n));
    Ok(literal.iter().copied().chain(decoded))
}

/// The UTF-8 bytes of a decoded JSON string.
fn utf8_bytes<'a>(s: &JsonStr<'a>) -> impl Iterator<Item = u8> + 'a {
    s.chars().flat_map(|c| {
        let mut b = [0u8; 4];
        let n = c.encode_utf8(&mut b).len();
        b.into_iter().take(n)
    })
}

/// Server side of SEP-2243: checks the `Mcp-Param-*` headers of a
/// `tools/call` against its `arguments`, for the called tool's
/// `designations` (at any depth: each argument is found by its path, see
/// [`Designation::argument`]). `header(name)` returns the value (optional
/// whitespace trimmed) of header `Mcp-Param-<name>`, names compared without
/// regard to ASCII case, or `None` when it was not sent. A
/// `=?base64?...?=` value is decoded (strictly) before comparing; any other
/// value is taken literally. A string argument compares with its decoded
/// text, a boolean with its JSON text, an integer by value: the argument
/// must be a safe integer ([`safe_integer`]) and the header a decimal
/// number (`-?[0-9]+(\.[0-9]+)?`) of the same value. A member repeated on
/// an argument's path fails with [`ParamHeaderError::RepeatedMember`]. On
/// a mismatch, returns the reason and the designation at fault.
pub fn check_param_headers<'a, 'h>(
    designations: &Designations<'a>,
    arguments: Option<Object<'_>>,
    mut header: impl FnMut(&JsonStr<'a>) -> Option<&'h [u8]>,
) -> Result<(), (ParamHeaderError, Designation<'a>)> {
    for d in designations.iter() {
        let value = d
            .argument(arguments)
            .map_err(|_| (ParamHeaderError::RepeatedMember, d))?;
        let sent = header(&d.header);
        let (value, sent) = match (value, sent) {
            (None, None) => continue,
            (None, Some(_)) => return Err((ParamHeaderError::Unexpected, d)),
            (Some(_), None) => return Err((ParamHeaderError::Missing, d)),
            (Some(v), Some(h)) => (v, h),
        };
        let got = decode_header_value(sent).map_err(|e| (e, d))?;
        let same = match (d.kind, value.as_str()) {
            (ParamKind::String, Some(s)) => got.eq(utf8_bytes(&s)),
            (ParamKind::String, None) => false,
            (ParamKind::Integer, _) => {
                let body = (value.kind() == json::Kind::Number)
                    .then(|| safe_integer(value.raw()))
                    .flatten();
                // A safe integer's decimal text is short: a longer header
                // cannot be one (64 bytes allow trailing `.000...`).
                let mut text = [0u8; 64];
                let mut len = 0usize;
                let mut fits = true;
                for b in got {
                    match text.get_mut(len) {
                        Some(t) => *t = b,
                        None => fits = false,
                    }
                    len += 1;
                }
                let sent = text
                    .get(..len)
                    .filter(|_| fits)
                    .and_then(|t| decimal_integer(t, false));
                body.is_some() && body == sent
            }
            (ParamKind::Boolean, _) => {
                value.kind() == json::Kind::Bool && got.eq(value.raw().iter().copied())
            }
        };
        if !same {
            return Err((ParamHeaderError::Mismatch, d));
        }
    }
    Ok(())
}

/// [`check_param_headers`] over the headers a request came with, as
/// received (`(name, value)` pairs, any headers): the `Mcp-Param-*` ones are
/// picked by name (prefix compared ignoring case), their values trimmed of
/// spaces and tabs. A designated header sent more than once is refused
/// first ([`ParamHeaderError::Repeated`]), before anything is compared.
pub fn check_param_header_list<'a, 'h, I>(
    designations: &Designations<'a>,
    arguments: Option<Object<'_>>,
    headers: I,
) -> Result<(), (ParamHeaderError, Designation<'a>)>
where
    I: Iterator<Item = (&'h str, &'h str)> + Clone,
{
    // A header's name after `Mcp-Param-`, and its trimmed value.
    let params = headers.filter_map(|(name, value)| {
        let prefix = name.get(..MCP_PARAM_PREFIX.len())?;
        let suffix = name.get(MCP_PARAM_PREFIX.len()..)?;
        (prefix.eq_ignore_ascii_case(MCP_PARAM_PREFIX) && !suffix.is_empty())
            .then(|| (suffix, value.trim_matches([' ', '\t'])))
    });
    for d in designations.iter() {
        let named = |(s, _): &(&str, &str)| header_name_eq(s, &d.header);
        if params.clone().filter(named).nth(1).is_some() {
            return Err((ParamHeaderError::Repeated, d));
        }
    }
    check_param_headers(designations, arguments, |want| {
        params
            .clone()
            .find(|(s, _)| header_name_eq(s, want))
            .map(|(_, v)| v.as_bytes())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::String;

    const SCHEMA: &[u8] = br#"{"type":"object","properties":{
        "region":{"type":"string","x-mcp-header":"Region"},
        "priority":{"type":"integer","x-mcp-header":"Priority"},
        "urgent":{"type":"boolean","x-mcp-header":"Urgent"},
        "note":{"type":"string"}}}"#;

    /// Checks `args` against `headers` (name, value), names ignoring case.
    fn check(args: &[u8], headers: &[(&str, &str)]) -> Result<(), (ParamHeaderError, String)> {
        check_with(SCHEMA, args, headers)
    }

    /// [`check`] for the designations of `schema`.
    fn check_with(
        schema: &[u8],
        args: &[u8],
        headers: &[(&str, &str)],
    ) -> Result<(), (ParamHeaderError, String)> {
        let d = Designations::parse(schema).unwrap();
        let args = json::parse(args).unwrap();
        check_param_headers(&d, args.as_object(), |name| {
            headers
                .iter()
                .find(|(n, _)| header_name_eq(n, name))
                .map(|(_, v)| v.as_bytes())
        })
        .map_err(|(e, d)| (e, d.header.chars().collect()))
    }

    #[test]
    fn the_conformance_suite_cases() {
        // "Hello" in the body; the suite's header values.
        let body = br#"{"region":"Hello"}"#;
        assert_eq!(check(body, &[("Region", "=?base64?SGVsbG8=?=")]), Ok(()));
        assert_eq!(
            check(body, &[("Region", "=?base64?SGVsbG8?=")]),
            Err((ParamHeaderError::BadEncoding, "Region".into()))
        );
        assert_eq!(
            check(body, &[("Region", "=?base64?SGVs!!!bG8=?=")]),
            Err((ParamHeaderError::BadEncoding, "Region".into()))
        );
        // Without the whole wrapper the value is literal.
        assert_eq!(
            check(br#"{"region":"SGVsbG8="}"#, &[("Region", "SGVsbG8=")]),
            Ok(())
        );
        assert_eq!(
            check(
                br#"{"region":"=?base64?SGVsbG8="}"#,
                &[("Region", "=?base64?SGVsbG8=")]
            ),
            Ok(())
        );
        assert_eq!(
            check(br#"{"region":"test-value"}"#, &[]),
            Err((ParamHeaderError::Missing, "Region".into()))
        );
    }

    #[test]
    fn values_compare_by_type() {
        let all = [("region", "eu"), ("PRIORITY", "3"), ("Urgent", "true")];
        assert_eq!(
            check(br#"{"region":"eu","priority":3,"urgent":true}"#, &all),
            Ok(())
        );
        assert_eq!(
            check(br#"{"region":"eu","priority":4,"urgent":true}"#, &all),
            Err((ParamHeaderError::Mismatch, "Priority".into()))
        );
        assert_eq!(
            check(br#"{"region":"eu","priority":"3","urgent":true}"#, &all),
            Err((ParamHeaderError::Mismatch, "Priority".into()))
        );
        assert_eq!(
            check(br#"{"region":"eu","priority":3,"urgent":false}"#, &all),
            Err((ParamHeaderError::Mismatch, "Urgent".into()))
        );
        // Escapes in the body compare by their text; non-ASCII goes base64.
        assert_eq!(
            check(
                br#"{"region":"\u00e9t\u00e9"}"#,
                &[("Region", "=?base64?w6l0w6k=?=")]
            ),
            Ok(())
        );
        // Non-canonical: bits under the padding set ("l" where "k" is).
        assert_eq!(
            check(
                br#"{"region":"\u00e9t\u00e9"}"#,
                &[("Region", "=?base64?w6l0w6l=?=")]
            ),
            Err((ParamHeaderError::BadEncoding, "Region".into()))
        );
        assert_eq!(
            check(
                br#"{"region":"\u00e9t\u00e8"}"#,
                &[("Region", "=?base64?w6l0w6k=?=")]
            ),
            Err((ParamHeaderError::Mismatch, "Region".into()))
        );
        // Null and absent arguments need no header, and take none.
        assert_eq!(check(br#"{"region":null}"#, &[]), Ok(()));
        assert_eq!(
            check(br#"{}"#, &[("Urgent", "true")]),
            Err((ParamHeaderError::Unexpected, "Urgent".into()))
        );
        // An undesignated argument is never looked at.
        assert_eq!(check(br#"{"note":"x"}"#, &[]), Ok(()));
        // Empty payload: the empty string.
        assert_eq!(
            check(br#"{"region":""}"#, &[("Region", "=?base64??=")]),
            Ok(())
        );
        assert_eq!(
            check(br#"{"region":"a"}"#, &[("Region", "=?base64??=")]),
            Err((ParamHeaderError::Mismatch, "Region".into()))
        );
    }

    /// The designations of `schema`: (path joined with `.`, header, kind).
    fn designated(
        schema: &str,
    ) -> Result<std::vec::Vec<(String, String, ParamKind)>, DesignationError> {
        let d = Designations::parse(schema.as_bytes())?;
        let out: std::vec::Vec<_> = d
            .iter()
            .map(|d| {
                let path: std::vec::Vec<String> = d.path().map(|k| k.chars().collect()).collect();
                (path.join("."), d.header.chars().collect(), d.kind)
            })
            .collect();
        assert_eq!(d.len(), out.len());
        Ok(out)
    }

    const NESTED: &str = r#"{"type":"object","properties":{
        "region":{"type":"string","x-mcp-header":"Region"},
        "target":{"type":"object","properties":{
            "zone":{"type":"string","x-mcp-header":"Zone"},
            "deep":{"type":"object","properties":{
                "rack":{"type":"integer","x-mcp-header":"Rack"}}}}},
        "after":{"type":"boolean","x-mcp-header":"After"}}}"#;

    /// `check` for [`NESTED`].
    fn check_nested(
        args: &[u8],
        headers: &[(&str, &str)],
    ) -> Result<(), (ParamHeaderError, String)> {
        check_with(NESTED.as_bytes(), args, headers)
    }

    #[test]
    fn a_designation_at_any_depth_of_properties_is_read_with_its_path() {
        assert_eq!(
            designated(NESTED).unwrap(),
            [
                ("region".into(), "Region".into(), ParamKind::String),
                ("target.zone".into(), "Zone".into(), ParamKind::String),
                ("target.deep.rack".into(), "Rack".into(), ParamKind::Integer),
                ("after".into(), "After".into(), ParamKind::Boolean),
            ]
        );
        // A second `properties` of one schema is walked too, each path its own.
        assert_eq!(
            designated(
                r#"{"properties":{"a":{"properties":{"x":{"type":"string","x-mcp-header":"X"}}}},
                   "properties":{"a":{"properties":{"y":{"type":"string","x-mcp-header":"Y"}}}}}"#
            )
            .unwrap(),
            [
                ("a.x".into(), "X".into(), ParamKind::String),
                ("a.y".into(), "Y".into(), ParamKind::String),
            ]
        );
    }

    #[test]
    fn a_designation_off_the_properties_chain_makes_the_tool_invalid() {
        let leaf = r#"{"type":"string","x-mcp-header":"H"}"#;
        let cases = [
            // The root itself.
            r#"{"type":"string","x-mcp-header":"H"}"#.into(),
            std::format!(r#"{{"properties":{{"a":{{"type":"array","items":{leaf}}}}}}}"#),
            std::format!(r#"{{"properties":{{"a":{{"items":[{leaf}]}}}}}}"#),
            std::format!(r#"{{"properties":{{"a":{{"prefixItems":[{leaf}]}}}}}}"#),
            std::format!(r#"{{"properties":{{"a":{{"additionalItems":{leaf}}}}}}}"#),
            std::format!(r#"{{"properties":{{"a":{{"contains":{leaf}}}}}}}"#),
            std::format!(r#"{{"additionalProperties":{leaf}}}"#),
            std::format!(r#"{{"patternProperties":{{"^a":{leaf}}}}}"#),
            std::format!(r#"{{"propertyNames":{leaf}}}"#),
            std::format!(r#"{{"unevaluatedProperties":{leaf}}}"#),
            std::format!(r#"{{"unevaluatedItems":{leaf}}}"#),
            std::format!(r#"{{"anyOf":[{{"type":"object"}},{leaf}]}}"#),
            std::format!(r#"{{"oneOf":[{leaf}]}}"#),
            std::format!(r#"{{"allOf":[{leaf}]}}"#),
            std::format!(r#"{{"not":{leaf}}}"#),
            std::format!(r#"{{"if":{leaf}}}"#),
            std::format!(r#"{{"then":{leaf}}}"#),
            std::format!(r#"{{"else":{leaf}}}"#),
            std::format!(r#"{{"contentSchema":{leaf}}}"#),
            std::format!(r#"{{"$defs":{{"d":{leaf}}}}}"#),
            std::format!(r#"{{"definitions":{{"d":{leaf}}}}}"#),
            std::format!(r#"{{"dependentSchemas":{{"a":{leaf}}}}}"#),
            std::format!(r#"{{"dependencies":{{"a":{leaf}}}}}"#),
            // Off the chain once, off it for good: `properties` below `anyOf`.
            std::format!(r#"{{"anyOf":[{{"properties":{{"a":{leaf}}}}}]}}"#),
            std::format!(r#"{{"properties":{{"t":{{"items":{{"properties":{{"z":{leaf}}}}}}}}}}}"#),
            // Even a valid-looking one beside valid designations.
            std::format!(
                r#"{{"properties":{{"ok":{{"type":"string","x-mcp-header":"Ok"}}}},"$defs":{{"d":{leaf}}}}}"#
            ),
        ];
        for schema in cases {
            assert_eq!(
                designated(&schema),
                Err(DesignationError::Unreachable),
                "{schema}"
            );
        }
    }

    #[test]
    fn data_keywords_and_a_property_named_x_mcp_header_are_not_designations() {
        let leaf = r#"{"type":"string","x-mcp-header":"H"}"#;
        for schema in [
            std::format!(r#"{{"properties":{{"a":{{"type":"object","const":{leaf}}}}}}}"#),
            std::format!(r#"{{"properties":{{"a":{{"enum":[{leaf}]}}}}}}"#),
            std::format!(r#"{{"properties":{{"a":{{"default":{leaf}}}}}}}"#),
            std::format!(r#"{{"properties":{{"a":{{"examples":[{leaf}]}}}}}}"#),
            std::format!(r#"{{"default":{leaf},"examples":[{leaf}],"const":{leaf}}}"#),
            std::format!(r##"{{"x-vendor":{leaf},"$ref":"#/$defs/x"}}"##),
            // A property *named* x-mcp-header, of any type.
            r#"{"properties":{"x-mcp-header":{"type":"object"}}}"#.into(),
            r#"{"properties":{"x-mcp-header":{"type":"string"},"b":{"type":"number"}}}"#.into(),
            // Boolean and non-object subschemas hold nothing.
            r#"{"properties":{"a":true},"items":false,"anyOf":[true,1,"x"]}"#.into(),
        ] {
            assert_eq!(designated(&schema).unwrap(), [], "{schema}");
        }
        // A property named x-mcp-header may itself be designated.
        assert_eq!(
            designated(r#"{"properties":{"x-mcp-header":{"type":"string","x-mcp-header":"X"}}}"#)
                .unwrap(),
            [("x-mcp-header".into(), "X".into(), ParamKind::String)]
        );
    }

    #[test]
    fn a_designated_property_that_repeats_x_mcp_header_or_type_is_refused() {
        for schema in [
            r#"{"properties":{"a":{"type":"string","x-mcp-header":"A","x-mcp-header":"B"}}}"#,
            r#"{"properties":{"a":{"type":"string","x-mcp-header":"A","x-mcp-header":"A"}}}"#,
            r#"{"properties":{"a":{"type":"string","type":"object","x-mcp-header":"A"}}}"#,
            r#"{"properties":{"a":{"type":"string","x-mcp-header":"A","type":"string"}}}"#,
            r#"{"properties":{"t":{"properties":{"a":{"type":"integer","type":"integer","x-mcp-header":"A"}}}}}"#,
        ] {
            assert_eq!(
                designated(schema),
                Err(DesignationError::Repeated),
                "{schema}"
            );
        }
        // `type` repeated on an undesignated property is no designation's.
        assert_eq!(
            designated(r#"{"properties":{"a":{"type":"string","type":"number"}}}"#).unwrap(),
            []
        );
    }

    #[test]
    fn header_names_are_unique_ignoring_case_across_depths() {
        let schema = r#"{"properties":{
            "region":{"type":"string","x-mcp-header":"Region"},
            "t":{"properties":{"r":{"type":"string","x-mcp-header":"REGION"}}}}}"#;
        assert_eq!(designated(schema), Err(DesignationError::Duplicate));
        let schema = r#"{"properties":{
            "a":{"properties":{"r":{"type":"string","x-mcp-header":"Zone"}}},
            "b":{"properties":{"r":{"type":"string","x-mcp-header":"zone"}}}}}"#;
        assert_eq!(designated(schema), Err(DesignationError::Duplicate));
    }

    #[test]
    fn the_designation_walk_is_bounded_in_depth_and_count() {
        // Property schemas nested n deep: each is 2 JSON levels (the schema
        // and its properties), under the root's own 2.
        let nested = |n: usize| {
            let mut s = String::from(r#"{"type":"string","x-mcp-header":"Leaf"}"#);
            for _ in 0..n {
                s = std::format!(r#"{{"properties":{{"p":{s}}}}}"#);
            }
            s
        };
        let parse = |s: &str| {
            let limits = json::ParseLimits {
                max_depth: json::MAX_DEPTH_LIMIT,
                ..Default::default()
            };
            let v = json::parse_with(s.as_bytes(), &limits).unwrap();
            let o = v.as_object().unwrap();
            Designations::from_schema(o).map(|d| d.len())
        };
        // n levels put the leaf at JSON depth 2n + 1.
        let fits = (MAX_SCHEMA_DEPTH - 1) / 2;
        assert_eq!(parse(&nested(fits)), Ok(1));
        assert_eq!(parse(&nested(fits + 1)), Err(DesignationError::TooDeep));
        // Off the chain counts too: a deep `anyOf` tower without any
        // designation is refused, not walked without end.
        let mut tower = String::from("{}");
        for _ in 0..100 {
            tower = std::format!(r#"{{"anyOf":[{tower}]}}"#);
        }
        assert_eq!(parse(&tower), Err(DesignationError::TooDeep));
        // MAX_DESIGNATIONS across depths, one more refused.
        let many = |n: usize| {
            let inner: std::vec::Vec<String> = (0..n)
                .map(|i| std::format!(r#""p{i}":{{"type":"integer","x-mcp-header":"H{i}"}}"#))
                .collect();
            std::format!(
                r#"{{"properties":{{"top":{{"type":"string","x-mcp-header":"Top"}},"t":{{"properties":{{{}}}}}}}}}"#,
                inner.join(",")
            )
        };
        assert_eq!(parse(&many(MAX_DESIGNATIONS - 1)), Ok(MAX_DESIGNATIONS));
        assert_eq!(
            parse(&many(MAX_DESIGNATIONS)),
            Err(DesignationError::TooMany)
        );
    }

    #[test]
    fn a_nested_argument_is_checked_by_its_path() {
        let all = [("Zone", "eu-1"), ("Rack", "7")];
        assert_eq!(
            check_nested(br#"{"target":{"zone":"eu-1","deep":{"rack":7}}}"#, &all),
            Ok(())
        );
        assert_eq!(
            check_nested(br#"{"target":{"zone":"eu-2","deep":{"rack":7}}}"#, &all),
            Err((ParamHeaderError::Mismatch, "Zone".into()))
        );
        assert_eq!(
            check_nested(
                br#"{"target":{"zone":"eu-1","deep":{"rack":7}}}"#,
                &all[1..]
            ),
            Err((ParamHeaderError::Missing, "Zone".into()))
        );
        // A top-level member of the leaf's name is not the nested argument.
        assert_eq!(
            check_nested(br#"{"zone":"eu-1"}"#, &all[..1]),
            Err((ParamHeaderError::Unexpected, "Zone".into()))
        );
    }

    #[test]
    fn a_missing_null_or_non_object_intermediate_means_the_argument_is_absent() {
        for body in [
            &br#"{}"#[..],
            br#"{"target":null}"#,
            br#"{"target":{}}"#,
            br#"{"target":{"zone":null,"deep":null}}"#,
            br#"{"target":{"deep":{}}}"#,
            br#"{"target":"eu-1"}"#,
            br#"{"target":["eu-1"]}"#,
        ] {
            let text = core::str::from_utf8(body).unwrap();
            assert_eq!(check_nested(body, &[]), Ok(()), "{text}");
            assert_eq!(
                check_nested(body, &[("Zone", "eu-1")]),
                Err((ParamHeaderError::Unexpected, "Zone".into())),
                "{text}"
            );
        }
    }

    #[test]
    fn a_member_repeated_on_an_arguments_path_fails_the_header_check() {
        for (body, at) in [
            (&br#"{"region":"eu","region":"us"}"#[..], "Region"),
            (br#"{"target":{"zone":"a"},"target":{"zone":"b"}}"#, "Zone"),
            (br#"{"target":{"zone":"a","zone":"a"}}"#, "Zone"),
        ] {
            let text = core::str::from_utf8(body).unwrap();
            assert_eq!(
                check_nested(body, &[(at, if at == "Zone" { "a" } else { "eu" })]),
                Err((ParamHeaderError::RepeatedMember, at.into())),
                "{text}"
            );
        }
        assert_eq!(
            check(br#"{"region":"eu","region":"us"}"#, &[("Region", "eu")]),
            Err((ParamHeaderError::RepeatedMember, "Region".into()))
        );
    }

    #[test]
    fn only_safe_integers_qualify_as_integers() {
        let max = MAX_SAFE_INTEGER;
        for (text, want) in [
            ("0", Some(0)),
            ("-0", Some(0)),
            ("42", Some(42)),
            ("-42", Some(-42)),
            ("9007199254740991", Some(max)),
            ("-9007199254740991", Some(-max)),
            // Integral values in other JSON forms are those integers.
            ("1e2", Some(100)),
            ("1E+2", Some(100)),
            ("100e-2", Some(1)),
            ("3.0", Some(3)),
            ("3.000e1", Some(30)),
            ("0.5e1", Some(5)),
            ("0e400", Some(0)),
            ("0.0", Some(0)),
            ("9.007199254740991e15", Some(max)),
            // Fractions, unsafe magnitudes, not numbers.
            ("1.5", None),
            ("1e-1", None),
            ("9007199254740992", None),
            ("9007199254740993", None),
            ("-9007199254740993", None),
            ("1e400", None),
            ("1e16", None),
            ("123456789012345678901234567890", None),
            ("", None),
            ("-", None),
            ("1.", None),
            (".5", None),
            ("1e", None),
            ("true", None),
            ("\"1\"", None),
        ] {
            assert_eq!(safe_integer(text.as_bytes()), want, "{text}");
        }
        for n in [0, 1, -1, 42, -7, max, -max, i64::MIN, i64::MAX] {
            let (b, len) = integer_text(n);
            assert_eq!(&b[..len], std::format!("{n}").as_bytes());
        }
    }

    #[test]
    fn an_integer_header_compares_by_value_with_a_safe_integer_body() {
        let h = |v: &'static str| [("Priority", v)];
        // The body's form does not matter, its value does.
        for body in [
            &br#"{"priority":100}"#[..],
            br#"{"priority":1e2}"#,
            br#"{"priority":100.0}"#,
        ] {
            let text = core::str::from_utf8(body).unwrap();
            for header in ["100", "100.0", "0100"] {
                assert_eq!(check(body, &h(header)), Ok(()), "{text} {header}");
            }
            for header in ["100.5", "1e2", "+100", "99", " 100x", ""] {
                assert_eq!(
                    check(body, &h(header)),
                    Err((ParamHeaderError::Mismatch, "Priority".into())),
                    "{text} {header}"
                );
            }
        }
        // A body that is not a safe integer matches no header.
        for (body, header) in [
            (&br#"{"priority":1.5}"#[..], "1.5"),
            (br#"{"priority":9007199254740993}"#, "9007199254740993"),
            (br#"{"priority":9007199254740992}"#, "9007199254740992"),
            (br#"{"priority":1e400}"#, "1e400"),
        ] {
            let text = core::str::from_utf8(body).unwrap();
            assert_eq!(
                check(body, &h(header)),
                Err((ParamHeaderError::Mismatch, "Priority".into())),
                "{text}"
            );
        }
        assert_eq!(
            check(br#"{"priority":9007199254740991}"#, &h("9007199254740991")),
            Ok(())
        );
        assert_eq!(check(br#"{"priority":-0}"#, &h("0")), Ok(()));
    }
}
