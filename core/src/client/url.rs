//! Facts about an elicitation URL for the user's consent screen.
//!
//! URL-mode elicitation asks the user to open a link the server chose. The
//! client must show where the link really goes before the user agrees.
//! [`UrlConsent::parse`] splits the URL (RFC 3986) into the parts a consent
//! screen shows — scheme, host, port, path — and raises warnings for the
//! tricks used to disguise a destination.
//!
//! This is for *showing the real destination*, not for validating a URL
//! before fetching it: it accepts links a fetcher might not and it does not
//! normalize. Where browsers disagree with RFC 3986 or guess (backslashes
//! read as slashes, tabs and newlines silently removed, `https:host` without
//! `//`, numeric hosts such as `0x7f.1` or `2130706433`, percent-encoded
//! hosts), the URL is refused with a precise [`UrlError`] instead of shown
//! with a guess; a client should not offer to open a refused URL.
//!
//! The host is the text after the *last* `@` of the authority, the one a
//! browser connects to: `https://good.com@evil.com/` shows host `evil.com`
//! with [`Warnings::USERINFO`].

use crate::bytes;

/// Warnings for the consent screen, as bit flags (stable values, so they
/// can cross the C ABI as an integer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Warnings(u16);

impl Warnings {
    /// The scheme is not `https` (set for `http` and every other scheme).
    pub const NOT_HTTPS: Warnings = Warnings(1);
    /// The scheme is neither `http` nor `https`: a browser may hand it to
    /// another application (`file:`, `javascript:`, custom schemes).
    pub const UNSUPPORTED_SCHEME: Warnings = Warnings(1 << 1);
    /// A host label starts with `xn--` (any case): an internationalized
    /// name that a browser may display as look-alike Unicode.
    pub const PUNYCODE: Warnings = Warnings(1 << 2);
    /// The authority has a userinfo part (`user@`), often used to make a
    /// URL appear to start with a trusted name.
    pub const USERINFO: Warnings = Warnings(1 << 3);
    /// The host is an IP address (dotted IPv4 or a bracketed IPv6).
    pub const IP_LITERAL: Warnings = Warnings(1 << 4);
    /// The host contains non-ASCII characters (possible look-alikes; a
    /// browser converts them, and full-width dots become dots).
    pub const NON_ASCII_HOST: Warnings = Warnings(1 << 5);
    /// The URL has no host (`mailto:`, `file:///...`).
    pub const NO_HOST: Warnings = Warnings(1 << 6);

    /// No warnings.
    pub const fn empty() -> Self {
        Warnings(0)
    }

    /// The flags as an integer.
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Whether every flag of `other` is set.
    pub const fn contains(self, other: Warnings) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether no flag is set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    fn set(&mut self, flag: Warnings) {
        self.0 |= flag.0;
    }
}

impl core::ops::BitOr for Warnings {
    type Output = Warnings;
    fn bitor(self, rhs: Warnings) -> Warnings {
        Warnings(self.0 | rhs.0)
    }
}

/// Why a URL is refused. Offsets are byte offsets into the URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlError {
    /// The URL is empty.
    Empty,
    /// A space, control character, Unicode white space or invisible
    /// formatting character (bidi overrides, zero-width characters), which
    /// browsers strip or render misleadingly.
    ForbiddenCharacter {
        /// Where it is.
        offset: usize,
    },
    /// A backslash: browsers read it as `/` in some positions, so the
    /// destination would be a guess.
    Backslash {
        /// Where it is.
        offset: usize,
    },
    /// No `scheme:` at the start (relative URLs have no destination of
    /// their own).
    MissingScheme,
    /// The scheme is not `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    BadScheme,
    /// An `http`/`https` URL without `//` (browsers guess a host).
    MissingAuthority,
    /// An `http`/`https` URL with an empty host.
    EmptyHost,
    /// A host character outside RFC 3986 `reg-name`, or a `%` (browsers
    /// decode percent-escapes in hosts, so the shown host would not be the
    /// real one).
    BadHost {
        /// Where it is.
        offset: usize,
    },
    /// A host that ends in a number but is not a dotted-decimal IPv4
    /// address with four parts of 0..=255 without leading zeros (browsers
    /// read such hosts as hex, octal or 32-bit numbers, and full-width
    /// digits as ASCII ones).
    AmbiguousIpv4,
    /// A bracketed host that is not a plain IPv6 address (zone ids and
    /// `IPvFuture` are refused).
    BadIpLiteral,
    /// A port that is not digits or is above 65535.
    BadPort,
    /// A `%` not followed by two hex digits.
    BadPercentEncoding {
        /// Where it is.
        offset: usize,
    },
}

impl UrlError {
    /// The variant's name (`"Backslash"`), for logs; the C API's `reason`.
    pub const fn name(self) -> &'static core::ffi::CStr {
        packed_name!(self, UrlError:
            Empty ForbiddenCharacter Backslash MissingScheme BadScheme MissingAuthority EmptyHost
            BadHost AmbiguousIpv4 BadIpLiteral BadPort BadPercentEncoding
        )
    }

    /// The byte offset of the offending character, when the cause names
    /// one.
    pub const fn offset(self) -> Option<usize> {
        match self {
            UrlError::ForbiddenCharacter { offset }
            | UrlError::Backslash { offset }
            | UrlError::BadHost { offset }
            | UrlError::BadPercentEncoding { offset } => Some(offset),
            _ => None,
        }
    }
}

impl core::fmt::Display for UrlError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            UrlError::Empty => write!(f, "empty URL"),
            UrlError::ForbiddenCharacter { offset } => {
                write!(f, "space, control or invisible character at byte {offset}")
            }
            UrlError::Backslash { offset } => write!(f, "backslash at byte {offset}"),
            UrlError::MissingScheme => write!(f, "no scheme"),
            UrlError::BadScheme => write!(f, "malformed scheme"),
            UrlError::MissingAuthority => write!(f, "http(s) URL without //host"),
            UrlError::EmptyHost => write!(f, "http(s) URL with an empty host"),
            UrlError::BadHost { offset } => write!(f, "invalid host character at byte {offset}"),
            UrlError::AmbiguousIpv4 => write!(f, "numeric host that is not a dotted IPv4 address"),
            UrlError::BadIpLiteral => write!(f, "malformed IPv6 address"),
            UrlError::BadPort => write!(f, "malformed port"),
            UrlError::BadPercentEncoding { offset } => {
                write!(f, "malformed percent-encoding at byte {offset}")
            }
        }
    }
}

impl core::error::Error for UrlError {}

/// A URL split for the consent screen. All parts borrow the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UrlConsent<'a> {
    /// The scheme as written (compare case-insensitively).
    pub scheme: &'a str,
    /// The userinfo before the last `@` of the authority, if any. Show it
    /// as what it is (not the destination) or not at all.
    pub userinfo: Option<&'a str>,
    /// The host the link goes to, as written (IPv6 with its brackets);
    /// empty when there is none.
    pub host: &'a str,
    /// The explicit port, if any.
    pub port: Option<u16>,
    /// The path (possibly empty).
    pub path: &'a str,
    /// The query, without `?`.
    pub query: Option<&'a str>,
    /// The fragment, without `#`.
    pub fragment: Option<&'a str>,
    /// What the user should be warned about.
    pub warnings: Warnings,
}

impl<'a> UrlConsent<'a> {
    /// Splits `url` and computes its warnings, or refuses it.
    pub fn parse(url: &'a str) -> Result<Self, UrlError> {
        if url.is_empty() {
            return Err(UrlError::Empty);
        }
        for (offset, c) in url.char_indices() {
            if c == '\\' {
                return Err(UrlError::Backslash { offset });
            }
            if c == ' ' || bytes::is_white_space(c) || c.is_control() || is_invisible(c) {
                return Err(UrlError::ForbiddenCharacter { offset });
            }
        }
        let (scheme, rest) = bytes::split_once_byte(url, b':').ok_or(UrlError::MissingScheme)?;
        check_scheme(scheme)?;
        let mut warnings = Warnings::empty();
        let web = scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https");
        if !scheme.eq_ignore_ascii_case("https") {
            warnings.set(Warnings::NOT_HTTPS);
        }
        if !web {
            warnings.set(Warnings::UNSUPPORTED_SCHEME);
        }
        let base = scheme.len() + 1;
        let (rest, fragment) = split_off(rest, b'#');
        let (rest, query) = split_off(rest, b'?');
        let (authority, path, path_at) = match rest.strip_prefix("//") {
            Some(after) => {
                let end = bytes::find_byte(after.as_bytes(), b'/').unwrap_or(after.len());
                let (authority, path) = bytes::split_at(after, end).unwrap_or((after, ""));
                (Some(authority), path, base + 2 + end)
            }
            None if web => return Err(UrlError::MissingAuthority),
            None => (None, rest, base),
        };
        let mut parsed = UrlConsent {
            scheme,
            userinfo: None,
            host: "",
            port: None,
            path,
            query,
            fragment,
            warnings,
        };
        if let Some(authority) = authority {
            parsed.read_authority(authority, base + 2)?;
        }
        if parsed.host.is_empty() {
            if web {
                return Err(UrlError::EmptyHost);
            }
            parsed.warnings.set(Warnings::NO_HOST);
        }
        check_percent(path, path_at)?;
        let query_at = path_at + path.len() + 1;
        check_percent(query.unwrap_or(""), query_at)?;
        let fragment_at = query_at + query.map_or(0, |q| q.len() + 1);
        check_percent(fragment.unwrap_or(""), fragment_at)?;
        Ok(parsed)
    }

    /// Reads `[userinfo@]host[:port]` starting at byte `at` of the URL.
    fn read_authority(&mut self, authority: &'a str, at: usize) -> Result<(), UrlError> {
        // A byte search: `str::rfind` brings core's pattern searcher and its
        // panic paths; '@' is ASCII, so the index is a char boundary.
        let (host_port, host_at) = match authority.bytes().rposition(|b| b == b'@') {
            Some(i) => {
                let userinfo = authority.get(..i).unwrap_or("");
                check_percent(userinfo, at)?;
                self.userinfo = Some(userinfo);
                self.warnings.set(Warnings::USERINFO);
                (authority.get(i + 1..).unwrap_or(""), at + i + 1)
            }
            None => (authority, at),
        };
        let (host, port) = if host_port.starts_with('[') {
            let close =
                bytes::find_byte(host_port.as_bytes(), b']').ok_or(UrlError::BadIpLiteral)?;
            let (host, after) = host_port
                .split_at_checked(close + 1)
                .ok_or(UrlError::BadIpLiteral)?;
            let inner = host.get(1..close).unwrap_or("");
            if !is_ipv6(inner) {
                return Err(UrlError::BadIpLiteral);
            }
            self.warnings.set(Warnings::IP_LITERAL);
            match after {
                "" => (host, None),
                _ => (
                    host,
                    Some(after.strip_prefix(':').ok_or(UrlError::BadPort)?),
                ),
            }
        } else {
            let (host, port) = split_off(host_port, b':');
            self.check_reg_name(host, host_at)?;
            (host, port)
        };
        self.host = host;
        self.port = match port {
            None | Some("") => None,
            Some(p) if p.bytes().all(|b| b.is_ascii_digit()) => {
                Some(p.parse::<u16>().map_err(|_| UrlError::BadPort)?)
            }
            Some(_) => return Err(UrlError::BadPort),
        };
        Ok(())
    }

    /// Checks a registered name or IPv4 address and sets its warnings.
    fn check_reg_name(&mut self, host: &str, at: usize) -> Result<(), UrlError> {
        for (i, c) in host.char_indices() {
            let ok = !c.is_ascii()
                || c.is_ascii_alphanumeric()
                || bytes::is_one_of(c, b"-._~!$&'()*+,;=");
            if !ok {
                return Err(UrlError::BadHost { offset: at + i });
            }
        }
        if !host.is_ascii() {
            self.warnings.set(Warnings::NON_ASCII_HOST);
        }
        let (last, punycode) = scan_labels(host);
        if punycode {
            self.warnings.set(Warnings::PUNYCODE);
        }
        if last.is_number() {
            if !host.is_ascii() || !is_dotted_ipv4(host) {
                return Err(UrlError::AmbiguousIpv4);
            }
            self.warnings.set(Warnings::IP_LITERAL);
        }
        Ok(())
    }
}

/// Splits `s` at the first `sep` (ASCII) into (before, after-without-sep).
fn split_off(s: &str, sep: u8) -> (&str, Option<&str>) {
    match bytes::split_once_byte(s, sep) {
        Some((a, b)) => (a, Some(b)),
        None => (s, None),
    }
}

fn check_scheme(scheme: &str) -> Result<(), UrlError> {
    let mut bytes = scheme.bytes();
    match bytes.next() {
        None => Err(UrlError::MissingScheme),
        Some(b) if b.is_ascii_alphabetic() => {
            if bytes.all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b)) {
                Ok(())
            } else {
                Err(UrlError::BadScheme)
            }
        }
        Some(_) => Err(UrlError::BadScheme),
    }
}

/// Every `%` in `s` is followed by two hex digits; `at` is `s`'s offset.
fn check_percent(s: &str, at: usize) -> Result<(), UrlError> {
    let b = s.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        if c == b'%' {
            let hex = |k: usize| b.get(i + k).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(1) && hex(2)) {
                return Err(UrlError::BadPercentEncoding { offset: at + i });
            }
        }
    }
    Ok(())
}

/// Invisible formatting characters (Unicode Default_Ignorable_Code_Point,
/// which includes the bidi controls and zero-width characters) that would
/// make the text shown differ from the text used.
fn is_invisible(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x034F | 0x061C | 0x115F..=0x1160 | 0x17B4..=0x17B5
        | 0x180B..=0x180F | 0x200B..=0x200F | 0x202A..=0x202E
        | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F | 0xFEFF | 0xFFA0
        | 0xFFF0..=0xFFF8 | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A
        | 0xE0000..=0xE0FFF)
}

/// Characters browsers map to ASCII before reading a host (UTS #46):
/// full-width ASCII forms, and the full stops and dot leaders that map to
/// `.`. `１２７．０．０．１` reaches 127.0.0.1. Other characters that map to
/// ASCII digits or letters (`²`, `①`, `𝟏`, `ˣ`, ...) are judged by
/// [`Label::push`] instead of being mapped one by one.
fn fold(c: char) -> char {
    match c as u32 {
        0x2024..=0x2026 | 0x3002 | 0xFE52 | 0xFF0E | 0xFF61 => '.',
        v @ 0xFF01..=0xFF5E => char::from_u32(v - 0xFF01 + 0x21).unwrap_or(c),
        _ => c,
    }
}

/// What matters about one host label (read through [`fold`]).
#[derive(Debug, Clone, Copy, Default)]
struct Label {
    len: usize,
    /// Only ASCII digits so far.
    digits: bool,
    /// `0x` then only hex digits so far.
    hex: bool,
    /// How many characters of `xn--` it starts with (4: all).
    xn: usize,
}

impl Label {
    /// Reads one (folded) character. Beyond ASCII, a numeric character
    /// (`²`, `①`, `𝟏`: UTS #46 maps many to ASCII digits) counts as a digit,
    /// and a letter or number as a possible `x` or hex digit: a last label
    /// that could become a number in the browser must not be shown as a
    /// name. (Only the last label decides, and no top-level domain starts
    /// with a digit, so real names are not caught.)
    fn push(&mut self, c: char) {
        let i = self.len;
        self.len = self.len.saturating_add(1);
        let wide = !c.is_ascii();
        let digit = c.is_ascii_digit() || (wide && c.is_numeric());
        let letter_like = wide && c.is_alphanumeric();
        self.digits = (i == 0 || self.digits) && digit;
        self.hex = match i {
            0 => c == '0' || (wide && c.is_numeric()),
            1 => self.hex && (c == 'x' || c == 'X' || letter_like),
            _ => self.hex && (c.is_ascii_hexdigit() || letter_like),
        };
        let next = b"xn--".get(i).copied().map(char::from);
        if self.xn == i && next == Some(c.to_ascii_lowercase()) {
            self.xn += 1;
        }
    }

    /// The WHATWG "ends in a number" test for a last label: all digits, or
    /// `0x` and hex digits. Browsers then read the host as IPv4.
    fn is_number(&self) -> bool {
        (self.len > 0 && self.digits) || (self.len >= 2 && self.hex)
    }
}

/// The last label of `host` (ignoring one trailing dot) and whether any
/// label starts with `xn--` (any case, full-width forms folded).
fn scan_labels(host: &str) -> (Label, bool) {
    let (mut current, mut previous, mut punycode) = (Label::default(), None, false);
    for c in host.chars().map(fold) {
        if c == '.' {
            punycode |= current.xn == 4;
            previous = Some(current);
            current = Label::default();
        } else {
            current.push(c);
        }
    }
    punycode |= current.xn == 4;
    let last = match (current.len, previous) {
        (0, Some(p)) => p,
        _ => current,
    };
    (last, punycode)
}

/// Exactly four dot-separated decimal parts, each 0..=255, no leading
/// zeros: the only numeric host form every parser reads the same way.
fn is_dotted_ipv4(host: &str) -> bool {
    let mut parts = 0;
    for part in bytes::split_byte(host, b'.') {
        parts += 1;
        let canonical = !part.is_empty()
            && part.len() <= 3
            && part.bytes().all(|b| b.is_ascii_digit())
            && (part == "0" || !part.starts_with('0'));
        if !canonical || part.parse::<u8>().is_err() {
            return false;
        }
    }
    parts == 4
}

/// RFC 4291 text form: eight groups of 1-4 hex digits, one `::` standing
/// for one or more zero groups, an optional trailing dotted IPv4 counting
/// as two groups.
fn is_ipv6(s: &str) -> bool {
    let count = |part: &str, may_end_ipv4: bool| -> Option<usize> {
        if part.is_empty() {
            return Some(0);
        }
        let mut n = 0usize;
        let mut groups = bytes::split_byte(part, b':').peekable();
        while let Some(g) = groups.next() {
            let last = groups.peek().is_none();
            if last && may_end_ipv4 && bytes::contains_byte(g.as_bytes(), b'.') {
                if !is_dotted_ipv4(g) {
                    return None;
                }
                n += 2;
            } else if (1..=4).contains(&g.len()) && g.bytes().all(|b| b.is_ascii_hexdigit()) {
                n += 1;
            } else {
                return None;
            }
        }
        Some(n)
    };
    match bytes::split_once(s, b"::") {
        Some((head, tail)) => {
            if bytes::find(tail.as_bytes(), b"::").is_some() {
                return false;
            }
            matches!((count(head, false), count(tail, true)), (Some(h), Some(t)) if h + t <= 7)
        }
        None => count(s, true) == Some(8),
    }
}

#[cfg(test)]
mod tests;
