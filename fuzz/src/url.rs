//! Target `url`: [`UrlConsent::parse`], with the WHATWG URL parser (the
//! `url` crate, what browsers implement) as the oracle for the host.
//!
//! Input: the URL's bytes (not UTF-8: skipped, the API takes `&str`).
//!
//! Properties: no panic; every part is a slice of the input, in URL order,
//! and the input is exactly `scheme ":" ["//" authority] path ["?" query]
//! ["#" fragment]`; the warning flags match the parts (scheme, userinfo,
//! missing host, non-ASCII host). For an accepted `http`/`https` URL that a
//! WHATWG parser also reads: the host it connects to is the host shown
//! (ASCII case aside), an IP address is flagged as one and a name is not,
//! and the port and userinfo agree.

use std::net::Ipv6Addr;

use mrtr_core::client::url::{UrlConsent, Warnings};

/// Byte offset of `part` in `whole` (it must be a slice of it).
fn offset(whole: &str, part: &str) -> usize {
    let o = (part.as_ptr() as usize)
        .checked_sub(whole.as_ptr() as usize)
        .expect("part before the input");
    assert!(o + part.len() <= whole.len(), "part past the input");
    o
}

/// The target.
pub fn run(data: &[u8]) {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(u) = UrlConsent::parse(s) else { return };
    structure(s, &u);
    let web = u.scheme.eq_ignore_ascii_case("http") || u.scheme.eq_ignore_ascii_case("https");
    if web {
        whatwg(s, &u);
    }
}

fn structure(s: &str, u: &UrlConsent<'_>) {
    assert_eq!(offset(s, u.scheme), 0);
    assert_eq!(s.as_bytes().get(u.scheme.len()), Some(&b':'));
    // The tail: path, query, fragment, back to back.
    let path_at = offset(s, u.path);
    let mut tail = String::from(u.path);
    if let Some(q) = u.query {
        tail.push('?');
        tail.push_str(q);
    }
    if let Some(f) = u.fragment {
        tail.push('#');
        tail.push_str(f);
    }
    assert_eq!(&s[path_at..], tail, "path, query and fragment end the URL");
    // The head: scheme, then an authority when there is one.
    let head = &s[u.scheme.len() + 1..path_at];
    if let Some(authority) = head.strip_prefix("//") {
        assert!(!authority.contains('/'));
        let host_port = match u.userinfo {
            Some(ui) => {
                assert_eq!(offset(s, ui), u.scheme.len() + 3);
                authority
                    .strip_prefix(ui)
                    .and_then(|r| r.strip_prefix('@'))
                    .expect("userinfo@ starts the authority")
            }
            None => authority,
        };
        assert!(!host_port.contains('@') || u.userinfo.is_none());
        let port_text = host_port
            .strip_prefix(u.host)
            .expect("host follows userinfo");
        match u.port {
            None => assert!(port_text.is_empty() || port_text == ":"),
            Some(p) => {
                let digits = port_text.strip_prefix(':').expect(":port");
                assert_eq!(digits.parse::<u16>().ok(), Some(p));
            }
        }
    } else {
        assert!(
            head.is_empty(),
            "only an authority sits between scheme and path"
        );
        assert!(u.userinfo.is_none() && u.host.is_empty() && u.port.is_none());
    }
    let w = u.warnings;
    assert_eq!(
        w.contains(Warnings::NOT_HTTPS),
        !u.scheme.eq_ignore_ascii_case("https")
    );
    let web = u.scheme.eq_ignore_ascii_case("http") || u.scheme.eq_ignore_ascii_case("https");
    assert_eq!(w.contains(Warnings::UNSUPPORTED_SCHEME), !web);
    assert_eq!(w.contains(Warnings::USERINFO), u.userinfo.is_some());
    assert_eq!(w.contains(Warnings::NO_HOST), u.host.is_empty());
    assert!(!web || !u.host.is_empty());
    assert_eq!(w.contains(Warnings::NON_ASCII_HOST), !u.host.is_ascii());
    // Nothing a browser strips or hides.
    assert!(!s
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || c == '\\'));
}

fn whatwg(s: &str, u: &UrlConsent<'_>) {
    // A URL the browser cannot parse cannot be opened: nothing to compare.
    let Ok(w) = ::url::Url::parse(s) else { return };
    let ip = u.warnings.contains(Warnings::IP_LITERAL);
    match w.host() {
        Some(::url::Host::Domain(d)) => {
            assert!(!ip, "{s}: flagged as an IP, the browser reads the name {d}");
            // Punycode may be re-encoded by IDNA mapping: same name.
            if u.host.is_ascii() && !u.warnings.contains(Warnings::PUNYCODE) {
                assert_eq!(
                    d,
                    u.host.to_ascii_lowercase(),
                    "{s}: the browser goes elsewhere"
                );
            }
        }
        Some(::url::Host::Ipv4(a)) => {
            assert!(
                ip,
                "{s}: the browser reads the IPv4 address {a}, shown as a name"
            );
            assert_eq!(a.to_string(), u.host, "{s}: another IPv4 address");
        }
        Some(::url::Host::Ipv6(a)) => {
            assert!(
                ip,
                "{s}: the browser reads the IPv6 address {a}, shown as a name"
            );
            let shown = u
                .host
                .strip_prefix('[')
                .and_then(|h| h.strip_suffix(']'))
                .and_then(|h| h.parse::<Ipv6Addr>().ok());
            assert_eq!(shown, Some(a), "{s}: another IPv6 address");
        }
        None => panic!("{s}: shown with host {:?}, the browser sees none", u.host),
    }
    match u.port {
        Some(p) => assert_eq!(w.port_or_known_default(), Some(p), "{s}: port"),
        None => assert_eq!(w.port(), None, "{s}: port"),
    }
    let browser_userinfo = !w.username().is_empty() || w.password().is_some();
    if browser_userinfo {
        assert!(u.userinfo.is_some(), "{s}: the browser sees userinfo");
    }
}
