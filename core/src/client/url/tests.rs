use super::*;

fn ok(url: &str) -> UrlConsent<'_> {
    UrlConsent::parse(url).unwrap_or_else(|e| panic!("{url}: {e:?}"))
}

fn err(url: &str) -> UrlError {
    UrlConsent::parse(url).unwrap_err()
}

#[test]
fn plain_https_url_has_no_warnings() {
    let u = ok("https://mcp.example.com/ui/set_api_key?step=1#top");
    assert_eq!(
        u,
        UrlConsent {
            scheme: "https",
            userinfo: None,
            host: "mcp.example.com",
            port: None,
            path: "/ui/set_api_key",
            query: Some("step=1"),
            fragment: Some("top"),
            warnings: Warnings::empty(),
        }
    );
    let u = ok("HTTPS://Example.COM:8443");
    assert_eq!(
        (u.scheme, u.host, u.port, u.path),
        ("HTTPS", "Example.COM", Some(8443), "")
    );
    assert!(u.warnings.is_empty());
    assert_eq!(ok("https://example.com:/x").port, None);
}

#[test]
fn http_is_warned_and_other_schemes_are_unsupported() {
    let u = ok("http://example.com/");
    assert_eq!(u.warnings, Warnings::NOT_HTTPS);
    assert_eq!(u.warnings.bits(), 1);
    let u = ok("javascript:alert(1)");
    assert_eq!(
        u.warnings,
        Warnings::NOT_HTTPS | Warnings::UNSUPPORTED_SCHEME | Warnings::NO_HOST
    );
    assert_eq!((u.host, u.path), ("", "alert(1)"));
    let u = ok("file:///etc/passwd");
    assert_eq!(
        u.warnings,
        Warnings::NOT_HTTPS | Warnings::UNSUPPORTED_SCHEME | Warnings::NO_HOST
    );
    assert_eq!(u.path, "/etc/passwd");
    let u = ok("mailto:someone@example.com");
    assert!(!u.warnings.contains(Warnings::USERINFO));
    assert_eq!(u.userinfo, None);
    let u = ok("ftp://files.example.com/a");
    assert_eq!(
        u.warnings,
        Warnings::NOT_HTTPS | Warnings::UNSUPPORTED_SCHEME
    );
    assert_eq!(u.host, "files.example.com");
}

#[test]
fn userinfo_shows_the_real_host() {
    let u = ok("https://good.com@evil.com/");
    assert_eq!(
        (u.userinfo, u.host, u.path),
        (Some("good.com"), "evil.com", "/")
    );
    assert_eq!(u.warnings, Warnings::USERINFO);
    // The last @ decides, as in browsers.
    let u = ok("https://a@good.com@evil.com:444/x");
    assert_eq!(
        (u.userinfo, u.host, u.port),
        (Some("a@good.com"), "evil.com", Some(444))
    );
    let u = ok("https://good.com:pass@evil.com");
    assert_eq!((u.userinfo, u.host), (Some("good.com:pass"), "evil.com"));
    // An @ after the authority is not userinfo.
    let u = ok("https://good.com/@evil.com");
    assert_eq!((u.host, u.path), ("good.com", "/@evil.com"));
    assert!(u.warnings.is_empty());
    let u = ok("https://good.com?@evil.com");
    assert_eq!((u.host, u.query), ("good.com", Some("@evil.com")));
    let u = ok("https://evil.com#@good.com");
    assert_eq!((u.host, u.fragment), ("evil.com", Some("@good.com")));
}

#[test]
fn backslash_is_refused_not_guessed() {
    assert_eq!(
        err("https://evil.com\\@good.com"),
        UrlError::Backslash { offset: 16 }
    );
    assert_eq!(err("https:\\\\evil.com"), UrlError::Backslash { offset: 6 });
    assert_eq!(
        err("https://good.com/\\evil"),
        UrlError::Backslash { offset: 17 }
    );
}

#[test]
fn punycode_labels_are_flagged_in_any_case() {
    assert_eq!(ok("https://xn--pple-43d.com/").warnings, Warnings::PUNYCODE);
    assert_eq!(
        ok("https://login.XN--pple-43d.com").warnings,
        Warnings::PUNYCODE
    );
    assert_eq!(
        ok("https://Xn--80ak6aa92e.com").warnings,
        Warnings::PUNYCODE
    );
    assert!(ok("https://axn--b.com").warnings.is_empty());
    assert!(ok("https://xn-b.com").warnings.is_empty());
    assert_eq!(ok("https://a.xn--b.").warnings, Warnings::PUNYCODE);
    // Full-width "xn--" is folded by browsers too.
    assert_eq!(
        ok("https://ｘｎ--pple-43d.com").warnings,
        Warnings::PUNYCODE | Warnings::NON_ASCII_HOST
    );
}

#[test]
fn non_ascii_hosts_are_flagged() {
    let u = ok("https://аpple.com/"); // Cyrillic а
    assert_eq!(
        (u.host, u.warnings),
        ("аpple.com", Warnings::NON_ASCII_HOST)
    );
    let u = ok("https://evil。com/"); // ideographic full stop
    assert_eq!(u.warnings, Warnings::NON_ASCII_HOST);
    // Non-ASCII in the path is not a host warning.
    assert!(ok("https://example.com/café").warnings.is_empty());
}

#[test]
fn ip_literals_are_flagged_and_ambiguous_numbers_refused() {
    let u = ok("http://192.168.0.1:8080/admin");
    assert_eq!((u.host, u.port), ("192.168.0.1", Some(8080)));
    assert_eq!(u.warnings, Warnings::NOT_HTTPS | Warnings::IP_LITERAL);
    assert_eq!(ok("https://0.0.0.0").warnings, Warnings::IP_LITERAL);
    let u = ok("https://[2001:db8::1]:443/");
    assert_eq!((u.host, u.port), ("[2001:db8::1]", Some(443)));
    assert_eq!(u.warnings, Warnings::IP_LITERAL);
    for v6 in [
        "[::]",
        "[::1]",
        "[1:2:3:4:5:6:7:8]",
        "[1::8]",
        "[::ffff:192.0.2.1]",
        "[1:2:3:4:5:6:1.2.3.4]",
        "[FE80::ABCD]",
    ] {
        assert_eq!(ok(&std::format!("https://{v6}/")).host, v6);
    }
    for bad in [
        "https://[1:2:3:4:5:6:7:8:9]/",
        "https://[1::2::3]/",
        "https://[12345::]/",
        "https://[fe80::1%25eth0]/",
        "https://[v1.x]/",
        "https://[::1/",
        "https://[::1]x/",
        "https://[1:2:3:4:5:6:7]/",
        "https://[1.2.3.4::]/",
        "https://[::256.1.1.1]/",
    ] {
        let e = err(bad);
        assert!(
            e == UrlError::BadIpLiteral || e == UrlError::BadPort,
            "{bad}: {e:?}"
        );
    }
    assert_eq!(err("https://[::1]x/"), UrlError::BadPort);
    // Forms browsers read as IPv4 in surprising ways.
    for bad in [
        "http://2130706433/",
        "http://0x7f.1/",
        "http://127.1/",
        "http://010.0.0.1/",
        "http://1.2.3.256/",
        "http://1.2.3.4./",
        "http://example.0x10/",
        "http://example.123/",
        "http://0x/",
    ] {
        assert_eq!(err(bad), UrlError::AmbiguousIpv4, "{bad}");
    }
    // Full-width digits and dots are read as ASCII by browsers.
    assert_eq!(err("https://１２７．０．０．１/"), UrlError::AmbiguousIpv4);
    assert_eq!(err("https://127。0。0。1/"), UrlError::AmbiguousIpv4);
    assert_eq!(err("https://example．０ｘ１/"), UrlError::AmbiguousIpv4);
    // A label that merely contains digits is a name.
    assert!(ok("https://1password.com").warnings.is_empty());
    assert!(ok("https://a.b2").warnings.is_empty());
}

/// Found by the `url` fuzz target (WHATWG parser as oracle): `https://D@1²/`
/// was shown as the name `1²` while a browser maps `²` to `2` (UTS #46) and
/// connects to the IPv4 address 0.0.0.12. Digits, `x` and dots that IDNA
/// maps to ASCII now count as such in the last label, so such hosts are
/// refused as ambiguous like their full-width forms.
#[test]
fn a_host_a_browser_maps_to_an_ipv4_address_is_refused() {
    for bad in [
        "https://D@1\u{b2}/ckkikk&kkkkkkom/",
        "https://1\u{b2}/",
        "https://x.\u{2460}/",
        "https://\u{1d7cf}\u{1d7d0}\u{1d7d5}.0.0.1/",
        "https://127.0.0.\u{2081}/",
        "https://0\u{2e3}7f/",
        "https://127\u{2024}0\u{2024}0\u{2024}1/",
        "https://127\u{fe52}0\u{fe52}0\u{fe52}1/",
    ] {
        assert_eq!(err(bad), UrlError::AmbiguousIpv4, "{bad}");
    }
    // Names in other scripts, and digits inside names, are still names.
    let u = ok("https://b\u{fc}cher.example/");
    assert_eq!(
        (u.host, u.warnings),
        ("b\u{fc}cher.example", Warnings::NON_ASCII_HOST)
    );
    let u = ok("https://\u{4f8b}\u{3048}.\u{30c6}\u{30b9}\u{30c8}/");
    assert_eq!(u.warnings, Warnings::NON_ASCII_HOST);
    assert_eq!(ok("https://a\u{b2}b.example/").host, "a\u{b2}b.example");
}

#[test]
fn hidden_characters_are_refused() {
    assert_eq!(
        err("https://exa mple.com"),
        UrlError::ForbiddenCharacter { offset: 11 }
    );
    assert_eq!(
        err(" https://example.com"),
        UrlError::ForbiddenCharacter { offset: 0 }
    );
    assert_eq!(
        err("https://example.com\t"),
        UrlError::ForbiddenCharacter { offset: 19 }
    );
    assert_eq!(
        err("java\nscript:alert(1)"),
        UrlError::ForbiddenCharacter { offset: 4 }
    );
    assert_eq!(
        err("https://a.com/\u{202E}gpj.exe"),
        UrlError::ForbiddenCharacter { offset: 14 }
    );
    assert_eq!(
        err("https://goo\u{200B}gle.com"),
        UrlError::ForbiddenCharacter { offset: 11 }
    );
    assert_eq!(
        err("https://a.com/\u{00A0}"),
        UrlError::ForbiddenCharacter { offset: 14 }
    );
    assert_eq!(
        err("https://a.com/\u{85}"),
        UrlError::ForbiddenCharacter { offset: 14 }
    );
    assert_eq!(
        err("https://a.com/\u{7f}"),
        UrlError::ForbiddenCharacter { offset: 14 }
    );
}

#[test]
fn malformed_urls_get_precise_errors() {
    assert_eq!(err(""), UrlError::Empty);
    assert_eq!(err("example.com/path"), UrlError::MissingScheme);
    assert_eq!(err("//example.com"), UrlError::MissingScheme);
    assert_eq!(err(":foo"), UrlError::MissingScheme);
    assert_eq!(err("1https://a.com"), UrlError::BadScheme);
    assert_eq!(err("ht_tp://a.com"), UrlError::BadScheme);
    assert_eq!(err("https:example.com"), UrlError::MissingAuthority);
    assert_eq!(err("https:/example.com"), UrlError::MissingAuthority);
    assert_eq!(err("https:///example.com"), UrlError::EmptyHost);
    assert_eq!(err("https://user@/"), UrlError::EmptyHost);
    assert_eq!(err("https://:443/"), UrlError::EmptyHost);
    assert_eq!(err("https://a.com:65536/"), UrlError::BadPort);
    assert_eq!(err("https://a.com:-1/"), UrlError::BadPort);
    assert_eq!(err("https://a.com:1:2/"), UrlError::BadPort);
    assert_eq!(err("https://a.com:+80/"), UrlError::BadPort);
    assert_eq!(ok("https://a.com:65535/").port, Some(65535));
    assert_eq!(err("https://ev%69l.com/"), UrlError::BadHost { offset: 10 });
    assert_eq!(err("https://a<b.com/"), UrlError::BadHost { offset: 9 });
    assert_eq!(
        err("https://a.com/%zz"),
        UrlError::BadPercentEncoding { offset: 14 }
    );
    assert_eq!(
        err("https://a.com/x?q=%4"),
        UrlError::BadPercentEncoding { offset: 18 }
    );
    assert_eq!(
        err("https://a.com/#%"),
        UrlError::BadPercentEncoding { offset: 15 }
    );
    assert_eq!(
        err("https://%zz@a.com/"),
        UrlError::BadPercentEncoding { offset: 8 }
    );
    assert_eq!(ok("https://a.com/%41%e9").path, "/%41%e9");
}

#[test]
fn huge_inputs_are_handled() {
    let ats = std::format!("https://{}evil.com/", "a@".repeat(100_000));
    let u = ok(&ats);
    assert_eq!((u.host, u.warnings), ("evil.com", Warnings::USERINFO));
    assert_eq!(u.userinfo.map(str::len), Some(199_999));
    let long = std::format!("https://example.com/{}", "a".repeat(1 << 20));
    assert_eq!(ok(&long).path.len(), (1 << 20) + 1);
    let colons = std::format!("https://[{}]/", ":".repeat(10_000));
    assert_eq!(err(&colons), UrlError::BadIpLiteral);
    let dots = std::format!("https://{}1/", "1.".repeat(10_000));
    assert_eq!(err(&dots), UrlError::AmbiguousIpv4);
}

#[test]
fn errors_display() {
    assert_eq!(
        std::format!("{}", UrlError::Backslash { offset: 16 }),
        "backslash at byte 16"
    );
}

mod proptests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn random_input_never_panics(s in "\\PC{0,80}") {
            let _ = UrlConsent::parse(&s);
        }

        #[test]
        fn url_like_input_never_panics_and_parts_are_substrings(
            s in "(https?|ftp|x)://[a-z0-9.@:\\[\\]%/?#\\\\-]{0,40}"
        ) {
            if let Ok(u) = UrlConsent::parse(&s) {
                prop_assert!(s.contains(u.host));
                prop_assert!(s.contains(u.path));
                if u.host.contains('@') || u.host.contains(':') && !u.host.starts_with('[') {
                    prop_assert!(false, "host {} of {}", u.host, s);
                }
            }
        }
    }
}

#[test]
fn url_errors_carry_their_name_and_offset() {
    let e = err("https://a\\b");
    assert_eq!((e.name().to_str(), e.offset()), (Ok("Backslash"), Some(9)));
    let e = err("");
    assert_eq!((e.name().to_str(), e.offset()), (Ok("Empty"), None));
    assert_eq!(err("https://0x7f.1/").name().to_str(), Ok("AmbiguousIpv4"));
    assert_eq!(UrlError::BadPercentEncoding { offset: 4 }.offset(), Some(4));
    assert_eq!(UrlError::BadPort.name().to_str(), Ok("BadPort"));
}
