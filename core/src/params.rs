//! `x-mcp-header` designations (SEP-2243), read the same way by both
//! halves: a client mirrors designated arguments into `Mcp-Param-*` headers
//! (`client::tools`), a server checks those headers against the body
//! (`server::check_param_headers`).
//!
//! A tool's `inputSchema` may designate top-level properties with
//! `"x-mcp-header": "Name"`. A designation is valid when the name is a
//! non-empty HTTP token (RFC 9110 `tchar`), the property's `type` is exactly
//! `"string"`, `"integer"` or `"boolean"`, no other designation of the tool
//! has the same name (ASCII case ignored), and the tool has at most
//! [`MAX_DESIGNATIONS`]. A tool with an invalid designation must not be
//! used: [`Designations::parse`] is the check.

use crate::json::{self, JsonStr, Object, Value};

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
    /// Two properties designate the same name (ignoring ASCII case).
    Duplicate,
    /// More than [`MAX_DESIGNATIONS`] properties are designated.
    TooMany,
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
        })
    }
}

impl core::error::Error for DesignationError {}

/// The JSON type a designated parameter has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// `"type": "string"`.
    String,
    /// `"type": "integer"`.
    Integer,
    /// `"type": "boolean"`.
    Boolean,
}

/// One designated parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Designation<'a> {
    /// The property (argument) name.
    pub property: JsonStr<'a>,
    /// The header name after `Mcp-Param-` (a validated HTTP token).
    pub header: JsonStr<'a>,
    /// The property's type.
    pub kind: ParamKind,
}

/// The validated designations of one tool's `inputSchema`.
#[derive(Debug, Clone, Copy)]
pub struct Designations<'a> {
    properties: Option<Object<'a>>,
}

/// An HTTP token character (RFC 9110 `tchar`).
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// Reads one property's designation, if it has one.
fn designation<'a>(
    property: JsonStr<'a>,
    schema: Value<'a>,
) -> Result<Option<Designation<'a>>, DesignationError> {
    let Some(schema) = schema.as_object() else {
        return Ok(None);
    };
    let Some(header) = schema.get(X_MCP_HEADER) else {
        return Ok(None);
    };
    let header = header.as_str().ok_or(DesignationError::Empty)?;
    if header.chars().next().is_none() {
        return Err(DesignationError::Empty);
    }
    if !header.chars().all(is_tchar)
        || header.decoded_len() > MAX_HEADER_VALUE_BYTES - MCP_PARAM_PREFIX.len()
    {
        return Err(DesignationError::Charset);
    }
    let ty = schema.get("type").and_then(|t| t.as_str());
    let kind = match ty {
        Some(t) if t.eq_str("string") => ParamKind::String,
        Some(t) if t.eq_str("integer") => ParamKind::Integer,
        Some(t) if t.eq_str("boolean") => ParamKind::Boolean,
        _ => return Err(DesignationError::NotPrimitive),
    };
    Ok(Some(Designation {
        property,
        header,
        kind,
    }))
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
        let properties = match schema.get("properties") {
            None => None,
            Some(p) => Some(p.as_object().ok_or(DesignationError::Schema)?),
        };
        let d = Designations { properties };
        // Each designation valid and few enough, then each name unique
        // (quadratic, no allocation: a tool has few designations).
        let mut n = 0usize;
        for a in d.try_iter() {
            a?;
            n += 1;
            if n > MAX_DESIGNATIONS {
                return Err(DesignationError::TooMany);
            }
        }
        for (i, a) in d.try_iter().enumerate() {
            let a = a?;
            for b in d.try_iter().skip(i + 1) {
                if same_name(&a.header, &b?.header) {
                    return Err(DesignationError::Duplicate);
                }
            }
        }
        Ok(d)
    }

    fn try_iter(&self) -> impl Iterator<Item = Result<Designation<'a>, DesignationError>> + 'a {
        self.properties
            .into_iter()
            .flat_map(|p| p.iter())
            .filter_map(|(k, v)| designation(k, v).transpose())
    }

    /// The designations, in the schema's property order.
    pub fn iter(&self) -> impl Iterator<Item = Designation<'a>> + 'a {
        // Validated in `from_schema`: no error is left to skip.
        self.try_iter().filter_map(Result::ok)
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

/// Why the `Mcp-Param-*` headers of a `tools/call` do not match its body
/// (answer `-32020`, header mismatch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamHeaderError {
    /// A designated argument is in the body (not `null`) and its header is
    /// missing.
    Missing,
    /// The header is sent and the body has no such argument (or `null`).
    Unexpected,
    /// The header's `=?base64?...?=` payload is not strict standard base64
    /// (alphabet, padding, canonical trailing bits).
    BadEncoding,
    /// The header's value is not the body's value (or the argument is not
    /// of the designated type).
    Mismatch,
}

impl core::fmt::Display for ParamHeaderError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            ParamHeaderError::Missing => "header missing for a designated argument",
            ParamHeaderError::Unexpected => "header sent for an argument the body does not have",
            ParamHeaderError::BadEncoding => "header value is not valid base64",
            ParamHeaderError::Mismatch => "header value does not match the body",
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
/// `designations`. `header(name)` returns the value (optional whitespace
/// trimmed) of header `Mcp-Param-<name>`, names compared without regard to
/// ASCII case, or `None` when it was not sent. A `=?base64?...?=` value is
/// decoded (strictly) before comparing; any other value is taken
/// literally. A string argument compares with its decoded text, an integer
/// or boolean with its JSON text. On a mismatch, returns the reason and the
/// designation at fault.
pub fn check_param_headers<'a, 'h>(
    designations: &Designations<'a>,
    arguments: Option<Object<'_>>,
    mut header: impl FnMut(&JsonStr<'a>) -> Option<&'h [u8]>,
) -> Result<(), (ParamHeaderError, Designation<'a>)> {
    for d in designations.iter() {
        let value = arguments
            .and_then(|a| a.iter().find(|(k, _)| k.eq_json_str(&d.property)))
            .map(|(_, v)| v)
            .filter(|v| !v.is_null());
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
                value.kind() == json::Kind::Number && got.eq(value.raw().iter().copied())
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
        let d = Designations::parse(SCHEMA).unwrap();
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
}
