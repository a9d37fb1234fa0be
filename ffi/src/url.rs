//! `mrtr_url_consent`: the facts a consent screen shows before the user
//! opens a URL-mode elicitation's link.

use core::ffi::{c_char, CStr};

use mrtr_core::client::url::{UrlConsent, UrlError, Warnings};

use crate::abi::Args;
use crate::mrtr_status;
use crate::status::status_of;
use crate::types::mrtr_str;

/// URL warning: the scheme is not `https`.
pub const MRTR_URL_WARN_NOT_HTTPS: u32 = 1;
/// URL warning: the scheme is neither `http` nor `https` (a browser may
/// hand it to another application).
pub const MRTR_URL_WARN_UNSUPPORTED_SCHEME: u32 = 1 << 1;
/// URL warning: a host label is punycode (`xn--`): it may display as
/// look-alike Unicode.
pub const MRTR_URL_WARN_PUNYCODE: u32 = 1 << 2;
/// URL warning: the URL has a userinfo part (`user@`), often used to make
/// it look like it starts with a trusted name.
pub const MRTR_URL_WARN_USERINFO: u32 = 1 << 3;
/// URL warning: the host is an IP address.
pub const MRTR_URL_WARN_IP_LITERAL: u32 = 1 << 4;
/// URL warning: the host has non-ASCII characters (possible look-alikes).
pub const MRTR_URL_WARN_NON_ASCII_HOST: u32 = 1 << 5;
/// URL warning: the URL has no host (`mailto:`, `file:///...`).
pub const MRTR_URL_WARN_NO_HOST: u32 = 1 << 6;

const _: () = assert!(MRTR_URL_WARN_NOT_HTTPS == Warnings::NOT_HTTPS.bits() as u32);
const _: () =
    assert!(MRTR_URL_WARN_UNSUPPORTED_SCHEME == Warnings::UNSUPPORTED_SCHEME.bits() as u32);
const _: () = assert!(MRTR_URL_WARN_PUNYCODE == Warnings::PUNYCODE.bits() as u32);
const _: () = assert!(MRTR_URL_WARN_USERINFO == Warnings::USERINFO.bits() as u32);
const _: () = assert!(MRTR_URL_WARN_IP_LITERAL == Warnings::IP_LITERAL.bits() as u32);
const _: () = assert!(MRTR_URL_WARN_NON_ASCII_HOST == Warnings::NON_ASCII_HOST.bits() as u32);
const _: () = assert!(MRTR_URL_WARN_NO_HOST == Warnings::NO_HOST.bits() as u32);

/// A URL split for the consent screen: views into the URL given.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_url_info {
    /// The scheme as written (compare case-insensitively).
    pub scheme: mrtr_str,
    /// The userinfo before the last `@` of the authority (when
    /// `has_userinfo`): show it as what it is, not as the destination.
    pub userinfo: mrtr_str,
    /// The host the link goes to (IPv6 with brackets); empty when none.
    pub host: mrtr_str,
    /// The path (possibly empty).
    pub path: mrtr_str,
    /// The query without `?` (when `has_query`).
    pub query: mrtr_str,
    /// The fragment without `#` (when `has_fragment`).
    pub fragment: mrtr_str,
    /// `MRTR_URL_WARN_*` bits.
    pub warnings: u32,
    /// The explicit port (when `has_port`).
    pub port: u16,
    /// A port is given.
    pub has_port: bool,
    /// A userinfo part is present.
    pub has_userinfo: bool,
    /// A query is present.
    pub has_query: bool,
    /// A fragment is present.
    pub has_fragment: bool,
}

/// Why a URL was refused.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mrtr_url_refusal {
    /// A static NUL-terminated name of the cause (`"Backslash"`,
    /// `"AmbiguousIpv4"`, ...), for logs.
    pub reason: *const c_char,
    /// The byte offset of the offending character (when `has_offset`).
    pub offset: usize,
    /// The cause names a position.
    pub has_offset: bool,
}

fn refusal_of(e: UrlError) -> mrtr_url_refusal {
    let (reason, offset): (&'static CStr, Option<usize>) = match e {
        UrlError::Empty => (c"Empty", None),
        UrlError::ForbiddenCharacter { offset } => (c"ForbiddenCharacter", Some(offset)),
        UrlError::Backslash { offset } => (c"Backslash", Some(offset)),
        UrlError::MissingScheme => (c"MissingScheme", None),
        UrlError::BadScheme => (c"BadScheme", None),
        UrlError::MissingAuthority => (c"MissingAuthority", None),
        UrlError::EmptyHost => (c"EmptyHost", None),
        UrlError::BadHost { offset } => (c"BadHost", Some(offset)),
        UrlError::AmbiguousIpv4 => (c"AmbiguousIpv4", None),
        UrlError::BadIpLiteral => (c"BadIpLiteral", None),
        UrlError::BadPort => (c"BadPort", None),
        UrlError::BadPercentEncoding { offset } => (c"BadPercentEncoding", Some(offset)),
    };
    mrtr_url_refusal {
        reason: reason.as_ptr(),
        offset: offset.unwrap_or(0),
        has_offset: offset.is_some(),
    }
}

/// Splits `url` (a URL-mode elicitation's `url`, decoded text) for the consent
/// screen and computes its warnings, or refuses it: a URL that browsers would
/// read differently than it looks (backslashes, spaces or invisible characters,
/// numeric hosts like `0x7f.1`, percent-encoded hosts, `https:host` without
/// `//`, ...). Never offer to open a refused URL.
///
/// Returns `MRTR_OK` (`*out` written, views into `url`); `MRTR_ERR_REFUSED_URL`
/// (`*out_refusal` written when not NULL); `MRTR_ERR_INVALID_UTF8`.
///
/// # Safety
/// `url.ptr` must point to `url.len` readable bytes; `out` to a writable
/// `mrtr_url_info`; `out_refusal` NULL or writable.
#[must_use]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mrtr_url_consent(
    url: mrtr_str,
    out: *mut mrtr_url_info,
    out_refusal: *mut mrtr_url_refusal,
) -> mrtr_status {
    status_of((|| {
        let mut a = Args::free();
        // SAFETY: caller contract; every pointer is checked as it is taken.
        let (out, refusal, text) = unsafe { (a.out(out)?, a.out_opt(out_refusal)?, a.str(url)?) };
        match UrlConsent::parse(text) {
            Ok(u) => {
                let opt = |s: Option<&str>| s.map_or(mrtr_str::EMPTY, mrtr_str::from_str);
                out.write(mrtr_url_info {
                    scheme: mrtr_str::from_str(u.scheme),
                    userinfo: opt(u.userinfo),
                    host: mrtr_str::from_str(u.host),
                    path: mrtr_str::from_str(u.path),
                    query: opt(u.query),
                    fragment: opt(u.fragment),
                    warnings: u32::from(u.warnings.bits()),
                    port: u.port.unwrap_or(0),
                    has_port: u.port.is_some(),
                    has_userinfo: u.userinfo.is_some(),
                    has_query: u.query.is_some(),
                    has_fragment: u.fragment.is_some(),
                });
                Ok(())
            }
            Err(e) => {
                if let Some(r) = refusal {
                    r.write(refusal_of(e));
                }
                Err(mrtr_status::MRTR_ERR_REFUSED_URL)
            }
        }
    })())
}
