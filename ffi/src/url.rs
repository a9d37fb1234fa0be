//! `mrtr_url_consent`: the facts a consent screen shows before the user
//! opens a URL-mode elicitation's link.

use core::ffi::c_char;

use mrtr_core::client::url::{UrlConsent, Warnings as W};

use crate::abi::{run, Put};
use crate::mrtr_status;
use crate::types::{mrtr_str, same};

/// URL warning: the scheme is not `https`.
pub const MRTR_URL_WARN_NOT_HTTPS: u32 = 1;
/// URL warning: neither `http` nor `https` (may open another application).
pub const MRTR_URL_WARN_UNSUPPORTED_SCHEME: u32 = 1 << 1;
/// URL warning: a punycode host label (`xn--`), may show as look-alike Unicode.
pub const MRTR_URL_WARN_PUNYCODE: u32 = 1 << 2;
/// URL warning: a userinfo part (`user@`), often posing as a trusted name.
pub const MRTR_URL_WARN_USERINFO: u32 = 1 << 3;
/// URL warning: the host is an IP address.
pub const MRTR_URL_WARN_IP_LITERAL: u32 = 1 << 4;
/// URL warning: the host has non-ASCII characters (possible look-alikes).
pub const MRTR_URL_WARN_NON_ASCII_HOST: u32 = 1 << 5;
/// URL warning: the URL has no host (`mailto:`, `file:///...`).
pub const MRTR_URL_WARN_NO_HOST: u32 = 1 << 6;

same! {
    MRTR_URL_WARN_NOT_HTTPS => W::NOT_HTTPS.bits(), MRTR_URL_WARN_PUNYCODE => W::PUNYCODE.bits(),
    MRTR_URL_WARN_UNSUPPORTED_SCHEME => W::UNSUPPORTED_SCHEME.bits(),
    MRTR_URL_WARN_USERINFO => W::USERINFO.bits(), MRTR_URL_WARN_IP_LITERAL => W::IP_LITERAL.bits(),
    MRTR_URL_WARN_NON_ASCII_HOST => W::NON_ASCII_HOST.bits(), MRTR_URL_WARN_NO_HOST => W::NO_HOST.bits(),
}

// Refused: backslashes, spaces or invisible characters, numeric hosts like
// 0x7f.1, percent-encoded hosts, https:host without //, ... (the core's
// UrlError lists them all).
/// A URL split for the consent screen: views into the URL given.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mrtr_url_info {
    /// The scheme as written (compare case-insensitively).
    pub scheme: mrtr_str,
    /// The userinfo (if `has_userinfo`): never show it as the destination.
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
#[derive(Clone, Copy)]
pub struct mrtr_url_refusal {
    /// A static name of the cause, for logs (`"Backslash"`, `"AmbiguousIpv4"`).
    pub reason: *const c_char,
    /// The byte offset of the offending character (when `has_offset`).
    pub offset: usize,
    /// The cause names a position.
    pub has_offset: bool,
}

/// Splits a URL-mode elicitation's decoded `url` for the consent screen, or
/// refuses one browsers would read otherwise than it looks: never open that.
/// `MRTR_ERR_REFUSED_URL` (`*out_refusal` if not NULL), `MRTR_ERR_INVALID_UTF8`.
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
    // SAFETY: caller contract; every pointer is checked as it is taken.
    run(|a| unsafe {
        let (out, refusal) = (a.out(out)?, a.out_opt(out_refusal)?);
        let u = UrlConsent::parse(a.str(url)?).map_err(|e| {
            let (reason, offset, has_offset) =
                (e.name().as_ptr(), e.offset(), e.offset().is_some());
            let offset = offset.unwrap_or(0);
            refusal.put(mrtr_url_refusal {
                reason,
                offset,
                has_offset,
            });
            mrtr_status::MRTR_ERR_REFUSED_URL
        })?;
        out.done(mrtr_url_info {
            scheme: mrtr_str::from_str(u.scheme),
            userinfo: mrtr_str::opt(u.userinfo),
            host: mrtr_str::from_str(u.host),
            path: mrtr_str::from_str(u.path),
            query: mrtr_str::opt(u.query),
            fragment: mrtr_str::opt(u.fragment),
            warnings: u32::from(u.warnings.bits()),
            port: u.port.unwrap_or(0),
            has_port: u.port.is_some(),
            has_userinfo: u.userinfo.is_some(),
            has_query: u.query.is_some(),
            has_fragment: u.fragment.is_some(),
        })
    })
}
