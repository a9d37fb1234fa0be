use super::*;
use proptest::strategy::Strategy as _;

fn err(input: &str) -> ErrorKind {
    parse(input.as_bytes()).expect_err(input).kind
}

#[test]
fn accepts_rfc8259_documents() {
    for ok in [
        "0",
        "-0",
        "1.5e10",
        "-12.25E-3",
        "\"\"",
        "true",
        "false",
        "null",
        "[]",
        "{}",
        " {\"a\" : [1, {\"b\":null}], \"c\":\"\\u00e9\\ud83d\\ude00\"} ",
        "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
        "\"h\u{e9}llo \u{1f600}\"",
    ] {
        let v = parse(ok.as_bytes()).unwrap_or_else(|e| panic!("{ok}: {e}"));
        assert_eq!(v.raw(), ok.trim().as_bytes());
    }
}

#[test]
fn rejects_what_rfc8259_forbids() {
    assert_eq!(err("[1,]"), ErrorKind::UnexpectedByte);
    assert_eq!(err("{\"a\":1,}"), ErrorKind::UnexpectedByte);
    assert_eq!(err("01"), ErrorKind::InvalidNumber);
    assert_eq!(err("-"), ErrorKind::UnexpectedEnd);
    assert_eq!(err("1."), ErrorKind::UnexpectedEnd);
    assert_eq!(err("1.e5"), ErrorKind::InvalidNumber);
    assert_eq!(err("NaN"), ErrorKind::UnexpectedByte);
    assert_eq!(err("Infinity"), ErrorKind::UnexpectedByte);
    assert_eq!(err("+1"), ErrorKind::UnexpectedByte);
    assert_eq!(err("\"\\ud800\""), ErrorKind::LoneSurrogate);
    assert_eq!(err("\"\\udc00\""), ErrorKind::LoneSurrogate);
    assert_eq!(err("\"\\ud800\\u0041\""), ErrorKind::LoneSurrogate);
    assert_eq!(err("\"\\x\""), ErrorKind::InvalidEscape);
    assert_eq!(err("\"\\u12\""), ErrorKind::InvalidEscape);
    assert_eq!(err("\"a\tb\""), ErrorKind::ControlCharacter);
    assert_eq!(err("{'a':1}"), ErrorKind::UnexpectedByte);
    assert_eq!(err("[1 2]"), ErrorKind::UnexpectedByte);
    assert_eq!(err("{\"a\" 1}"), ErrorKind::UnexpectedByte);
    assert_eq!(err("{} {}"), ErrorKind::TrailingCharacters);
    assert_eq!(err(""), ErrorKind::UnexpectedEnd);
    assert_eq!(err("[1"), ErrorKind::UnexpectedEnd);
    assert_eq!(err("\"abc"), ErrorKind::UnexpectedEnd);
    assert_eq!(err("tru"), ErrorKind::UnexpectedEnd);
    assert_eq!(err("nul1"), ErrorKind::UnexpectedByte);
    assert_eq!(err("/*c*/1"), ErrorKind::UnexpectedByte);
    let bad_utf8 = [b'"', 0xC3, 0x28, b'"'];
    assert_eq!(parse(&bad_utf8).unwrap_err().kind, ErrorKind::InvalidUtf8);
    let overlong = [b'"', 0xC0, 0xAF, b'"'];
    assert_eq!(parse(&overlong).unwrap_err().kind, ErrorKind::InvalidUtf8);
    let surrogate_utf8 = [b'"', 0xED, 0xA0, 0x80, b'"'];
    assert_eq!(
        parse(&surrogate_utf8).unwrap_err().kind,
        ErrorKind::InvalidUtf8
    );
}

#[test]
fn depth_limit_is_enforced_without_recursion() {
    let limits = ParseLimits {
        max_depth: 32,
        max_bytes: usize::MAX,
    };
    let ok: std::string::String = "[".repeat(32) + &"]".repeat(32);
    assert!(parse_with(ok.as_bytes(), &limits).is_ok());
    let deep: std::string::String = "[".repeat(33) + &"]".repeat(33);
    assert_eq!(
        parse_with(deep.as_bytes(), &limits).unwrap_err().kind,
        ErrorKind::TooDeep
    );
    // 10,000-deep input fails fast at the limit, no stack growth.
    let hostile: std::string::String = "{\"a\":".repeat(10_000);
    let e = parse_with(hostile.as_bytes(), &limits).unwrap_err();
    assert_eq!(e.kind, ErrorKind::TooDeep);
    assert_eq!(e.offset, 32 * 5);
}

#[test]
fn size_limit_is_checked_before_reading() {
    let limits = ParseLimits {
        max_depth: 8,
        max_bytes: 4,
    };
    assert_eq!(
        parse_with(b"[1,2]", &limits).unwrap_err().kind,
        ErrorKind::TooLarge
    );
    assert!(parse_with(b"[12]", &limits).is_ok());
}

#[test]
fn navigation_and_unescape() {
    let doc = br#"{"k\u0065y": "v\n\u00e9", "n": -42, "big": 18446744073709551615, "arr": [1, [2], {"x": "]"}], "t": true}"#;
    let obj = parse(doc).unwrap().as_object().unwrap();
    let v = obj.get("key").unwrap().as_str().unwrap();
    let mut buf = [0u8; 16];
    assert_eq!(v.unescape_into(&mut buf).unwrap(), "v\n\u{e9}");
    let mut small = [0u8; 3];
    let e = v.unescape_into(&mut small).unwrap_err();
    assert_eq!((e.kind, e.offset), (ErrorKind::BufferTooSmall, 4));
    assert_eq!(obj.get("n").unwrap().as_i64(), Some(-42));
    assert_eq!(obj.get("n").unwrap().as_u64(), None);
    assert_eq!(obj.get("big").unwrap().as_u64(), Some(u64::MAX));
    assert_eq!(obj.get("big").unwrap().as_i64(), None);
    let arr = obj.get("arr").unwrap().as_array().unwrap();
    assert_eq!(arr.len(), 3);
    let raws: std::vec::Vec<&[u8]> = arr.iter().map(|v| v.raw()).collect();
    assert_eq!(raws, [&b"1"[..], b"[2]", br#"{"x": "]"}"#]);
    assert_eq!(obj.get("t").unwrap().as_bool(), Some(true));
    assert_eq!(obj.len(), 5);
    assert!(obj.get("missing").is_none());
}

#[test]
fn duplicate_key_policy() {
    let doc = br#"{"a":1,"\u0061":2,"b":3}"#;
    let obj = parse(doc).unwrap().as_object().unwrap();
    assert_eq!(obj.get("a").unwrap().raw(), b"1", "get returns the first");
    assert_eq!(
        obj.get_unique("a").unwrap_err().kind,
        ErrorKind::DuplicateKey
    );
    assert_eq!(obj.get_unique("b").unwrap().unwrap().raw(), b"3");
    assert_eq!(
        obj.check_unique_keys(10).unwrap_err().kind,
        ErrorKind::DuplicateKey
    );
    let ok = parse(br#"{"a":1,"b":2}"#).unwrap().as_object().unwrap();
    assert_eq!(ok.check_unique_keys(2), Ok(2));
    assert_eq!(
        ok.check_unique_keys(1).unwrap_err().kind,
        ErrorKind::TooManyMembers
    );
}

#[test]
fn unescape_into_copies_text_without_escapes() {
    let v = parse("\"caf\u{e9} \u{1f600} plain\"".as_bytes())
        .unwrap()
        .as_str()
        .unwrap();
    assert!(!v.has_escapes());
    let mut buf = [0u8; 32];
    assert_eq!(
        v.unescape_into(&mut buf).unwrap(),
        "caf\u{e9} \u{1f600} plain"
    );
    let mut small = [0u8; 4];
    assert_eq!(
        v.unescape_into(&mut small).unwrap_err(),
        Error::new(ErrorKind::BufferTooSmall, 16)
    );
}

/// The lookup as first written, independent of `get_unique_many` (which
/// `get_unique` now calls): the first member named `key`, or the offset of
/// the second one's value as the duplicate.
fn get_unique_reference<'a>(obj: &Object<'a>, key: &str) -> Result<Option<Value<'a>>, Error> {
    let mut named = obj.iter().filter(|(k, _)| k.eq_str(key)).map(|(_, v)| v);
    let first = named.next();
    match named.next() {
        Some(second) => Err(Error::new(
            ErrorKind::DuplicateKey,
            second.raw().as_ptr() as usize - obj.raw().as_ptr() as usize,
        )),
        None => Ok(first),
    }
}

#[test]
fn get_unique_many_equals_get_unique_per_key() {
    let doc = br#"{"a":1,"b":{"a":9},"c":"x","\u0061":2,"d":[1]}"#;
    let obj = parse(doc).unwrap().as_object().unwrap();
    let keys = ["a", "b", "d", "missing", "c"];
    let many = obj.get_unique_many(keys);
    for (key, got) in keys.iter().zip(many) {
        assert_eq!(got, obj.get_unique(key), "{key}");
        assert_eq!(got, get_unique_reference(&obj, key), "{key}");
    }
    // "a" occurs twice (once escaped): the error carries the offset of the
    // second value, like get_unique's.
    assert_eq!(
        many[0],
        Err(Error::new(ErrorKind::DuplicateKey, 36)),
        "duplicate reported at the second occurrence"
    );
    assert_eq!(many[1].unwrap().unwrap().raw(), br#"{"a":9}"#);
    assert_eq!(many[3], Ok(None));
    // The same key twice in the request fills both slots.
    let [x, y] = obj.get_unique_many(["c", "c"]);
    assert_eq!((x, y), (obj.get_unique("c"), obj.get_unique("c")));
}

#[test]
fn unique_keys_checked_across_blocks() {
    use std::format;
    use std::string::String;
    // Keys are compared in stack blocks; a duplicate is found wherever its
    // twin sits (same block, earlier block), at the second value's offset.
    let n = 4 * UNIQUE_KEYS_BLOCK + 6;
    let members: std::vec::Vec<String> = (0..n).map(|i| format!(r#""k{i}":[{i}]"#)).collect();
    let unique = format!("{{{}}}", members.join(","));
    let obj = parse(unique.as_bytes()).unwrap().as_object().unwrap();
    assert_eq!(obj.check_unique_keys(n), Ok(n));
    assert_eq!(
        obj.check_unique_keys(n - 1).unwrap_err().kind,
        ErrorKind::TooManyMembers
    );
    let b = UNIQUE_KEYS_BLOCK;
    for (first, second) in [(0, 3 * b + 3), (b - 1, b), (4 * b + 1, 4 * b + 5), (2, 5)] {
        let mut m = members.clone();
        m[second] = format!(r#""k{first}":"dup""#);
        let doc = format!("{{{}}}", m.join(","));
        let obj = parse(doc.as_bytes()).unwrap().as_object().unwrap();
        let at = doc.find(r#""dup""#).unwrap();
        assert_eq!(
            obj.check_unique_keys(n),
            Err(Error::new(ErrorKind::DuplicateKey, at)),
            "k{first} again at member {second}"
        );
    }
}

#[test]
fn word_at_a_time_scanning_at_every_offset() {
    use std::format;
    use std::string::{String, ToString};
    // Each interesting byte at every offset of an 8-byte word, in strings
    // the validator reads and in values the navigation skips.
    for pad in 0..20 {
        let p = "a".repeat(pad);
        for special in [
            r#"\""#,
            r#"\\"#,
            r#"\u00e9"#,
            r#"\ud83d\ude00"#,
            "\u{e9}",
            "\u{1f600}",
            "[",
            "]",
            "{",
            "}",
            "\\n",
            ",",
            ":",
            " ",
        ] {
            let text = format!("{p}{special}{p}");
            let doc = format!(
                r#"{{"k{p}":["{text}",{{"x{special}":"{text}","y":[["{text}"]]}}],"after":"{text}"}}"#
            );
            let obj = parse(doc.as_bytes())
                .unwrap_or_else(|e| panic!("{doc}: {e}"))
                .as_object()
                .unwrap();
            let serde: serde_json::Value = serde_json::from_str(&doc).unwrap();
            let want = serde["after"].as_str().unwrap().to_string();
            let got: String = obj
                .get("after")
                .unwrap()
                .as_str()
                .unwrap()
                .chars()
                .collect();
            assert_eq!(got, want, "{doc}");
            let skipped = obj.get(&format!("k{p}")).unwrap().as_array().unwrap();
            assert_eq!(skipped.len(), 2, "{doc}");
            assert_eq!(obj.check_unique_keys(4), Ok(2));
        }
        // A raw control character, a raw quote and invalid UTF-8 at that
        // offset are found at their exact position.
        let ctl = format!("\"{p}\u{1}{p}\"");
        assert_eq!(
            parse(ctl.as_bytes()).unwrap_err(),
            Error::new(ErrorKind::ControlCharacter, 1 + pad)
        );
        let mut bad = format!("\"{p}xx{p}\"").into_bytes();
        bad[1 + pad] = 0xC3; // a lead byte followed by 'x'
        assert_eq!(
            parse(&bad).unwrap_err(),
            Error::new(ErrorKind::InvalidUtf8, 1 + pad)
        );
        let long_ok = format!("\"{p}\u{e9}{p}{p}\"");
        assert!(parse(long_ok.as_bytes()).is_ok());
        // Indentation of any length.
        let indented = format!("{{\n{p}{p}\"a\":{p}[\n{p}1{p}]\n{p}}}", p = " ".repeat(pad));
        let v = parse(indented.as_bytes()).unwrap().as_object().unwrap();
        assert_eq!(v.get("a").unwrap().as_array().unwrap().len(), 1);
    }
}

#[test]
fn writer_escapes_every_control_byte_exactly() {
    // Every byte that needs an escape, and its exact escape: the five
    // short control escapes, `\"` and `\\`, else `\u00XX` in lower case.
    let mut expected = std::string::String::from("\"");
    let mut input = std::string::String::new();
    for b in 0u8..0x20 {
        input.push(char::from(b));
        let e = match b {
            0x08 => "\\b".into(),
            0x09 => "\\t".into(),
            0x0a => "\\n".into(),
            0x0c => "\\f".into(),
            0x0d => "\\r".into(),
            _ => std::format!("\\u{:04x}", b),
        };
        expected.push_str(&e);
    }
    input.push_str("\"\\ \u{7f}");
    expected.push_str("\\\"\\\\ \u{7f}\"");
    for write in [
        |w: &mut Writer<'_>, s: &str| {
            w.str(s);
        },
        |w: &mut Writer<'_>, s: &str| {
            w.str_chars(s.chars());
        },
    ] {
        let mut buf = [0u8; 256];
        let mut w = Writer::new(&mut buf);
        write(&mut w, &input);
        let n = w.finish().unwrap();
        assert_eq!(core::str::from_utf8(&buf[..n]).unwrap(), expected);
    }
    assert!(expected.contains("\\u000b\\f\\r\\u000e"));
}

#[test]
fn writer_escapes_and_reports_needed_size() {
    let mut buf = [0u8; 64];
    let mut w = Writer::new(&mut buf);
    w.str("a\"b\\c\n\u{1}\u{1f}é😀");
    let n = w.finish().unwrap();
    assert_eq!(&buf[..n], "\"a\\\"b\\\\c\\n\\u0001\\u001fé😀\"".as_bytes());
    // The output parses back to the same text.
    let v = parse(&buf[..n]).unwrap().as_str().unwrap();
    assert!(v.eq_str("a\"b\\c\n\u{1}\u{1f}é😀"));

    let mut short = [0u8; 5];
    let mut w = Writer::new(&mut short);
    w.raw(b"{").key("abc").i64(-1234567).raw(b"}");
    assert_eq!(w.finish(), Err(BufferTooSmall { needed: 16 }));
    let mut exact = [0u8; 16];
    let mut w = Writer::new(&mut exact);
    w.raw(b"{").key("abc").i64(-1234567).raw(b"}");
    assert_eq!(w.finish(), Ok(16));
    assert_eq!(&exact, b"{\"abc\":-1234567}");
    let mut b2 = [0u8; 43];
    let mut w = Writer::new(&mut b2);
    w.u64(0).byte(b' ').u64(u64::MAX).byte(b' ').i64(i64::MIN);
    let n = w.finish().unwrap();
    assert_eq!(&b2[..n], b"0 18446744073709551615 -9223372036854775808");
}

#[test]
fn every_two_byte_string_is_judged_as_std_judges_it() {
    // Each lead byte 0x80..=0xFF before each continuation-range byte and an
    // ASCII one: the string is valid exactly when std says the two bytes are
    // UTF-8, and otherwise the fault is the lead byte's (offset 1).
    for lead in 0x80u8..=0xFF {
        for next in (0x80u8..=0xFF).chain([b'a']) {
            let doc = [b'"', lead, next, b'"'];
            let want = match core::str::from_utf8(&[lead, next]) {
                Ok(_) => Ok(4),
                Err(_) => Err(Error::new(ErrorKind::InvalidUtf8, 1)),
            };
            let got = parse(&doc).map(|v| v.raw().len());
            assert_eq!(got, want, "{lead:#x} {next:#x}");
        }
    }
}

/// What the reader must say of a string literal whose contents are `inner`
/// (no quote, backslash or control byte in it): its length when std takes
/// the bytes as UTF-8, else invalid UTF-8 at the first bad sequence's lead.
fn judged_as_std(inner: &[u8]) -> Result<usize, Error> {
    match core::str::from_utf8(inner) {
        Ok(_) => Ok(inner.len() + 2),
        Err(e) => Err(Error::new(ErrorKind::InvalidUtf8, 1 + e.valid_up_to())),
    }
}

#[test]
fn byte_pairs_inside_long_strings_are_judged_as_std_judges_them() {
    // Each high byte before each byte of the continuation range and an
    // ASCII one, at every offset of the eight-byte words the scan reads
    // (after text long enough to leave the first fast loop), with a valid
    // two-byte sequence (é) beside it in the same word or not: accepted
    // exactly when std accepts, else refused at the first bad lead.
    for pad in 0..10 {
        for lead in 0x80u8..=0xFF {
            for next in (0x80u8..=0xBF).step_by(7).chain([0xBF, b'a', 0xC3]) {
                for before in [&b""[..], &[0xC3, 0xA9][..]] {
                    let mut inner = std::vec![b'x'; 9];
                    inner.extend_from_slice(before);
                    inner.extend(core::iter::repeat_n(b'a', pad));
                    inner.extend_from_slice(&[lead, next]);
                    inner.extend_from_slice(b"bcd\xc3\xa9efghijklmnop");
                    let mut doc = std::vec![b'"'];
                    doc.extend_from_slice(&inner);
                    doc.push(b'"');
                    let got = parse(&doc).map(|v| v.raw().len());
                    assert_eq!(got, judged_as_std(&inner), "{doc:x?}");
                }
            }
        }
    }
}

proptest::proptest! {
    /// Strings of ASCII, two-byte sequences, longer ones and stray high
    /// bytes, in any order: the reader accepts exactly what std accepts,
    /// refuses at the first bad sequence, and decodes the accepted text
    /// to the same characters.
    #[test]
    fn mixed_text_is_judged_and_decoded_as_std_does(
        parts in proptest::collection::vec(
            proptest::prop_oneof![
                4 => proptest::sample::select(std::vec![
                    &b"a"[..], b" ", b"word", b"\xc3\xa9", b"\xd0\x96", b"\xdf\xbf",
                    b"\xc2\x80", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80",
                ]).prop_map(<[u8]>::to_vec),
                1 => proptest::collection::vec(0x80u8..=0xFF, 1..3),
            ],
            0..40,
        ),
    ) {
        let inner: std::vec::Vec<u8> = parts.concat();
        let mut doc = std::vec![b'"'];
        doc.extend_from_slice(&inner);
        doc.push(b'"');
        let want = judged_as_std(&inner);
        let got = parse(&doc);
        proptest::prop_assert_eq!(got.map(|v| v.raw().len()), want);
        if let Ok(text) = core::str::from_utf8(&inner) {
            let decoded: std::string::String =
                parse(&doc).unwrap().as_str().unwrap().chars().collect();
            proptest::prop_assert_eq!(decoded, text);
        }
    }
}

proptest::proptest! {
    /// The integer writers spell every value as Rust's decimal formatting
    /// does (the 32-bit long division of `Writer::u64`, across the 32-bit
    /// boundary and at the extremes too).
    #[test]
    fn integers_written_in_decimal(
        v in proptest::prop_oneof![
            proptest::num::u64::ANY,
            0u64..1_000,
            (u64::from(u32::MAX) - 1_000)..(u64::from(u32::MAX) + 1_000),
            (u64::MAX - 1_000)..=u64::MAX,
        ],
        s in proptest::num::i64::ANY,
    ) {
        let mut buf = [0u8; 48];
        let mut w = Writer::new(&mut buf);
        w.u64(v).byte(b' ').i64(s);
        let n = w.finish().unwrap();
        let expected = std::format!("{v} {s}");
        proptest::prop_assert_eq!(&buf[..n], expected.as_bytes());
    }
}

#[test]
fn agrees_with_serde_json_on_fixed_corpus() {
    let cases: &[&[u8]] = &[
        b"[1,2",
        b"{\"a\":[}",
        b"\"\\u00\"",
        b"[-0.0e+1]",
        b"[1e]",
        b"{\"\":\"\"}",
        b"[\"\\ud83d\\ude00\"]",
        b"[\"\\uDFFF\"]",
        b"  ",
        b"[]]",
        b"{\"a\":1}x",
    ];
    for c in cases {
        let ours = parse(c).is_ok();
        let theirs = serde_json::from_slice::<serde_json::Value>(c).is_ok();
        assert_eq!(ours, theirs, "{}", std::string::String::from_utf8_lossy(c));
    }
}

mod properties {
    use super::super::*;
    use proptest::prelude::*;
    use std::string::{String, ToString};
    use std::vec::Vec;

    /// Our tree, rebuilt as a serde_json value, for structural comparison.
    fn to_serde(v: Value<'_>) -> serde_json::Value {
        match v.kind() {
            Kind::Null => serde_json::Value::Null,
            Kind::Bool => serde_json::Value::Bool(v.as_bool().unwrap()),
            Kind::Number => serde_json::from_slice(v.raw()).unwrap_or(serde_json::Value::Null),
            Kind::String => serde_json::Value::String(v.as_str().unwrap().chars().collect()),
            Kind::Array => {
                serde_json::Value::Array(v.as_array().unwrap().iter().map(to_serde).collect())
            }
            Kind::Object => {
                let mut m = serde_json::Map::new();
                for (k, val) in v.as_object().unwrap().iter() {
                    // serde_json keeps the last duplicate; do the same.
                    m.insert(k.chars().collect(), to_serde(val));
                }
                serde_json::Value::Object(m)
            }
        }
    }

    /// Every value of the tree in document order, as raw spans, through
    /// the navigation API (objects: key token, then value).
    fn spans<'a>(v: Value<'a>, out: &mut Vec<&'a [u8]>) {
        out.push(v.raw());
        if let Some(o) = v.as_object() {
            for (k, val) in o.iter() {
                out.push(k.raw_token());
                spans(val, out);
            }
        } else if let Some(a) = v.as_array() {
            for e in a.iter() {
                spans(e, out);
            }
        }
    }

    fn check_against_serde(bytes: &[u8]) {
        let limits = ParseLimits {
            max_depth: 64,
            max_bytes: usize::MAX,
        };
        let ours = parse_with(bytes, &limits);
        // With a skip index of any size: the same outcome and the very same
        // spans everywhere in the tree.
        let mut plain = Vec::new();
        if let Ok(v) = ours {
            spans(v, &mut plain);
        }
        for n in [0usize, 1, 3, 64] {
            let mut slots = std::vec![IndexSlot::EMPTY; n];
            let indexed = parse_indexed(bytes, &limits, &mut slots);
            assert_eq!(indexed.map(|v| v.raw()), ours.map(|v| v.raw()));
            let mut with_index = Vec::new();
            if let Ok(v) = indexed {
                spans(v, &mut with_index);
            }
            assert_eq!(
                with_index,
                plain,
                "{n} slots: {:?}",
                String::from_utf8_lossy(bytes)
            );
            // Indexed after parsing: the same again.
            if let Ok(v) = ours {
                let mut slots = std::vec![IndexSlot::EMPTY; n];
                let mut later = Vec::new();
                spans(v.with_index(&mut slots), &mut later);
                assert_eq!(later, plain, "{n} slots, indexed later");
            }
        }
        let theirs = serde_json::from_slice::<serde_json::Value>(bytes);
        match (&ours, &theirs) {
            (Ok(v), Ok(t)) => assert_eq!(&to_serde(*v), t, "{:?}", String::from_utf8_lossy(bytes)),
            (Err(_), Err(_)) => {}
            // RFC 8259 lets parsers limit number range; serde_json refuses
            // literals beyond f64 (1e400), which the grammar allows.
            (Ok(_), Err(e)) if e.to_string().starts_with("number out of range") => {}
            (Ok(_), Err(e)) => panic!(
                "we accept, serde_json rejects ({e}): {:?}",
                String::from_utf8_lossy(bytes)
            ),
            (Err(e), Ok(_)) => {
                // serde_json allows nesting to 128; ours is configured to 64 here.
                assert_eq!(
                    e.kind,
                    ErrorKind::TooDeep,
                    "{:?}",
                    String::from_utf8_lossy(bytes)
                )
            }
        }
    }

    fn json_text() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("null".to_string()),
            Just("true".to_string()),
            any::<i64>().prop_map(|n| n.to_string()),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(|f| std::format!("{f:e}")),
            "[ -~\u{e9}\u{1f600}]{0,12}".prop_map(|s| serde_json::to_string(&s).unwrap()),
            Just(r#""\ud83d\ude00\u00e9\/\n""#.to_string()),
        ];
        leaf.prop_recursive(6, 64, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6)
                    .prop_map(|v| std::format!("[{}]", v.join(" , "))),
                prop::collection::vec(("[a-z]{0,4}", inner), 0..6).prop_map(|v| {
                    let members: Vec<String> = v
                        .into_iter()
                        .map(|(k, val)| std::format!("\"{k}\":\t{val}"))
                        .collect();
                    std::format!("{{ {} }}", members.join(","))
                }),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: if cfg!(miri) { 8 } else { 100_000 }, ..ProptestConfig::default() })]
        #[test]
        fn random_bytes_never_panic_and_agree_with_serde_json(bytes in prop::collection::vec(any::<u8>(), 0..48)) {
            check_against_serde(&bytes);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: if cfg!(miri) { 8 } else { 20_000 }, ..ProptestConfig::default() })]
        #[test]
        fn generated_documents_parse_to_the_same_tree(doc in json_text()) {
            check_against_serde(doc.as_bytes());
        }

        #[test]
        fn mutated_documents_never_panic_and_agree(doc in json_text(), pos in any::<prop::sample::Index>(), byte in any::<u8>(), op in 0u8..3) {
            let mut b = doc.into_bytes();
            if !b.is_empty() {
                let i = pos.index(b.len());
                match op {
                    0 => b[i] = byte,
                    1 => { b.remove(i); }
                    _ => b.insert(i, byte),
                }
            }
            check_against_serde(&b);
        }

        #[test]
        fn long_strings_and_skipped_values_agree(s in "[ -~\u{e9}\u{1f600}\\[\\]{}]{0,70}", depth in 0usize..4) {
            let text = serde_json::to_string(&s).unwrap();
            let mut value = std::format!("[{text},{{\"k\":{text}}}]");
            for _ in 0..depth {
                value = std::format!("{{{text}:{value},\"n\":[{text}]}}");
            }
            let doc = std::format!("{{\"skip\":{value},\"after\":{text}}}");
            check_against_serde(doc.as_bytes());
            let obj = parse(doc.as_bytes()).unwrap().as_object().unwrap();
            prop_assert!(obj.get("after").unwrap().as_str().unwrap().eq_str(&s));
        }

        #[test]
        fn writer_output_always_parses_back(s in "\\PC{0,40}", ctl in prop::collection::vec(0u8..0x20, 0..4)) {
            let mut text = s.clone();
            for c in ctl { text.push(char::from(c)); }
            let mut buf = [0u8; 512];
            let mut w = Writer::new(&mut buf);
            w.str(&text);
            let n = w.finish().unwrap();
            let v = parse(&buf[..n]).unwrap();
            prop_assert!(v.as_str().unwrap().eq_str(&text));
            prop_assert_eq!(serde_json::from_slice::<String>(&buf[..n]).unwrap(), text);
        }

        /// `str`, `str_chars` and `str_parts` spell every string byte for
        /// byte as serde_json does: short escapes where JSON has them,
        /// `\u00xx` for the other control characters, everything else as
        /// UTF-8.
        #[test]
        fn writer_escapes_as_serde_json(s in "\\PC{0,24}", ctl in prop::collection::vec((0usize..30, 0u8..0x20), 0..6), split in 0usize..40) {
            let mut text = s.clone();
            for (at, c) in ctl {
                let at = (0..=at.min(text.len())).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
                text.insert(at, char::from(c));
            }
            text.push_str("\"\\");
            let expected = serde_json::to_string(&text).unwrap();
            let mut buf = [0u8; 512];
            let mut w = Writer::new(&mut buf);
            w.str(&text);
            let n = w.finish().unwrap();
            prop_assert_eq!(std::str::from_utf8(&buf[..n]).unwrap(), expected.as_str());
            let mut w = Writer::new(&mut buf);
            w.str_chars(text.chars());
            let n = w.finish().unwrap();
            prop_assert_eq!(std::str::from_utf8(&buf[..n]).unwrap(), expected.as_str());
            // In parts, split at any char boundary: the same one string.
            let cut = (0..=split.min(text.len())).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
            let (a, b) = text.split_at(cut);
            let mut w = Writer::new(&mut buf);
            w.str_parts(&[a, "", b]);
            let n = w.finish().unwrap();
            prop_assert_eq!(std::str::from_utf8(&buf[..n]).unwrap(), expected.as_str());
        }
    }
}

/// The check as first written: compare each key with every earlier one.
fn unique_keys_reference(obj: &Object<'_>, max: usize) -> Result<usize, Error> {
    let mut n = 0usize;
    for (i, (k, v)) in obj.iter().enumerate() {
        let offset = v.raw().as_ptr() as usize - obj.raw().as_ptr() as usize;
        if i >= max {
            return Err(Error::new(ErrorKind::TooManyMembers, offset));
        }
        if obj.iter().take(i).any(|(o, _)| o.eq_json_str(&k)) {
            return Err(Error::new(ErrorKind::DuplicateKey, offset));
        }
        n += 1;
    }
    Ok(n)
}

/// An object whose member `i` is keyed `k<keys[i]>` (its `k` escaped as
/// `\u006b` where `escape[i]`) with the value `[i]`: keys from a small
/// alphabet, so some repeat, some spelled differently.
fn keyed_object(keys: &[u8], escape: &[bool]) -> std::string::String {
    let members: std::vec::Vec<std::string::String> = keys
        .iter()
        .zip(escape.iter())
        .enumerate()
        .map(|(i, (k, e))| {
            let key = if *e {
                std::format!("\\u00{:02x}{k}", b'k')
            } else {
                std::format!("k{k}")
            };
            std::format!("\"{key}\":[{i}]")
        })
        .collect();
    std::format!("{{{}}}", members.join(","))
}

proptest::proptest! {
    #[test]
    fn unique_key_check_in_blocks_matches_the_pairwise_check(
        keys in proptest::collection::vec(0u8..60, 0..80),
        escape in proptest::collection::vec(proptest::bool::ANY, 80),
        max in 0usize..90,
    ) {
        // Keys from a small alphabet so duplicates (some spelled with
        // escapes) land in the same block, across blocks, and past the limit.
        let doc = keyed_object(&keys, &escape);
        let obj = parse(doc.as_bytes()).unwrap().as_object().unwrap();
        proptest::prop_assert_eq!(obj.check_unique_keys(max), unique_keys_reference(&obj, max));
    }
}

#[test]
fn unique_key_check_at_block_boundaries() {
    for n in [15usize, 16, 17, 32, 33] {
        let members: std::vec::Vec<_> = (0..n).map(|i| std::format!("\"k{i}\":{i}")).collect();
        let doc = std::format!("{{{}}}", members.join(","));
        let obj = parse(doc.as_bytes()).unwrap().as_object().unwrap();
        assert_eq!(obj.check_unique_keys(n), Ok(n));
        assert_eq!(
            obj.check_unique_keys(n - 1).unwrap_err().kind,
            ErrorKind::TooManyMembers
        );
        // The last key repeats the first: found across blocks.
        let doc = std::format!("{{{},\"k0\":0}}", members.join(","));
        let obj = parse(doc.as_bytes()).unwrap().as_object().unwrap();
        assert_eq!(
            obj.check_unique_keys(n + 1),
            unique_keys_reference(&obj, n + 1)
        );
        assert_eq!(
            obj.check_unique_keys(n + 1).unwrap_err().kind,
            ErrorKind::DuplicateKey
        );
    }
}

#[test]
fn errors_display_their_kind_and_position() {
    use std::string::ToString;
    assert_eq!(
        Error::new(ErrorKind::UnexpectedByte, 7).to_string(),
        "UnexpectedByte at byte 7"
    );
    assert_eq!(
        Error::new(ErrorKind::BufferTooSmall, 16).to_string(),
        "BufferTooSmall: needs 16 bytes"
    );
    assert_eq!(
        BufferTooSmall { needed: 42 }.to_string(),
        "output buffer too small: needs 42 bytes"
    );
}

/// Whether any object in `v`, at any depth, repeats a key (the pairwise
/// reference for [`Value::check_unique_keys_deep`]).
fn repeats_a_key_somewhere(v: Value<'_>) -> bool {
    let mut stack = std::vec![v];
    while let Some(v) = stack.pop() {
        if let Some(o) = v.as_object() {
            if unique_keys_reference(&o, usize::MAX).is_err() {
                return true;
            }
            stack.extend(o.iter().map(|(_, v)| v));
        } else if let Some(a) = v.as_array() {
            stack.extend(a.iter());
        }
    }
    false
}

#[test]
fn a_key_repeated_at_any_depth_is_found_in_one_pass() {
    let deep = |s: &str| {
        let v = parse(s.as_bytes()).unwrap();
        v.check_unique_keys_deep().map_err(|e| (e.kind, e.offset))
    };
    for ok in [
        r#"{}"#,
        r#"[]"#,
        r#""a""#,
        r#"{"a":1,"b":{"a":1,"b":[{"a":1},{"a":2}]},"c":"a"}"#,
        // Siblings may share keys; a string value equal to a key is no key.
        r#"{"x":{"k":1},"y":{"k":2},"k":"k"}"#,
        // Keys that differ only once decoded are different.
        r#"{"a":1,"\u0062":2,"A":3}"#,
    ] {
        assert_eq!(deep(ok), Ok(()), "{ok}");
    }
    // The error names the repeated member's value, at any depth.
    let s = r#"{"region":"eu","region":"us"}"#;
    assert_eq!(
        deep(s),
        Err((ErrorKind::DuplicateKey, s.find("\"us\"").unwrap()))
    );
    let s = r#"{"a":{"b":[1,{"c":0,"d":{"e":1,"\u0065":2}}]}}"#;
    assert_eq!(deep(s), Err((ErrorKind::DuplicateKey, s.len() - 6)));
    let s = r#"[{"k":1},{"k":1,"k" : 2}]"#;
    assert_eq!(deep(s), Err((ErrorKind::DuplicateKey, s.len() - 3)));
}

#[test]
fn string_values_are_never_read_as_keys_by_the_deep_check() {
    // The deep check skips a member's string value right after its key:
    // a value that spells a key (with a colon inside, escaped quotes,
    // whitespace around the colon) is no key, in objects and in arrays.
    let deep = |s: &str| {
        let v = parse(s.as_bytes()).unwrap();
        v.check_unique_keys_deep().map_err(|e| (e.kind, e.offset))
    };
    for ok in [
        r#"{"a" : "a" , "b" :"b:","c": "\"c\":"}"#,
        "{\n \"a\" :\t\"a\",\n \"b\": [\"a\", \"a\" , {\"a\": \"b\"}]\n}",
        r#"{"k":"k","v":["k","k"],"w":{"k":"k"}}"#,
    ] {
        assert_eq!(deep(ok), Ok(()), "{ok}");
    }
    // A repeat after a string value, with whitespace around the colon.
    let s = r#"{"a" : "x" , "b":"a", "a" :  "y"}"#;
    assert_eq!(
        deep(s),
        Err((ErrorKind::DuplicateKey, s.find("\"y\"").unwrap()))
    );
    let s = "[\"a\", {\"a\":\"a\",\n\"a\"\t:\t{}}]";
    assert_eq!(deep(s), Err((ErrorKind::DuplicateKey, s.len() - 4)));
}

#[test]
fn a_known_string_value_changes_no_result_of_the_deep_check() {
    // The deep check told of a string it may step over answers as it does
    // untold, whichever string it is told of: a member value (stepped
    // over), a key, an array element, a string of another document.
    let docs = [
        r#"{"s":"x\"y","a":{"k":1,"k":2}}"#,
        r#"{"a":{"k":1},"s" : "tok","k":[{"s":"tok"}],"s":"again"}"#,
        r#"{"s":"tok","b":["tok",{"s":"tok","s":1}]}"#,
        r#"{"s":"tok","t":"tok"}"#,
    ];
    let other = parse(br#""tok""#).unwrap().as_str().unwrap();
    for doc in docs {
        let v = parse(doc.as_bytes()).unwrap();
        let unknown = v.check_unique_keys_deep().map_err(|e| (e.kind, e.offset));
        let mut strings = std::vec![other];
        let mut stack = std::vec![v];
        while let Some(v) = stack.pop() {
            if let Some(s) = v.as_str() {
                strings.push(s);
            } else if let Some(o) = v.as_object() {
                for (k, v) in o.iter() {
                    strings.push(k);
                    stack.push(v);
                }
            } else if let Some(a) = v.as_array() {
                stack.extend(a.iter());
            }
        }
        for known in strings {
            assert_eq!(
                v.check_unique_keys_deep_past(Some(known))
                    .map_err(|e| (e.kind, e.offset)),
                unknown,
                "{doc} knowing {known}"
            );
        }
    }
}

#[test]
fn keys_hash_equally_however_escaped_at_any_length() {
    // The key hash reads an unescaped key four bytes at a time and an
    // escaped one character by character: every length around a word
    // boundary, the escape at the start, in a word, at the end, and a
    // character of two, three and four UTF-8 bytes.
    let texts = [
        "",
        "a",
        "ab",
        "abc",
        "abcd",
        "abcde",
        "abcdefg",
        "abcdefgh",
        "abcdefghi",
    ];
    for t in texts {
        for at in 0..t.len() {
            let escaped = std::format!("{}\\u{:04x}{}", &t[..at], t.as_bytes()[at], &t[at + 1..]);
            for (first, second) in [(t, escaped.as_str()), (escaped.as_str(), t)] {
                let doc = std::format!(r#"{{"{first}":1,"x":2,"{second}":3}}"#);
                let v = parse(doc.as_bytes()).unwrap();
                assert_eq!(
                    v.check_unique_keys_deep().map_err(|e| (e.kind, e.offset)),
                    Err((ErrorKind::DuplicateKey, doc.len() - 2)),
                    "{doc}"
                );
                let o = v.as_object().unwrap();
                assert_eq!(
                    o.check_unique_keys(usize::MAX).map_err(|e| e.kind),
                    Err(ErrorKind::DuplicateKey),
                    "{doc}"
                );
            }
        }
    }
    for escaped in [
        r"ab\u00e9",
        r"abc\u00e9",
        r"a\u20acb",
        r"abc\ud83d\ude00xyz",
    ] {
        let decoded = parse(std::format!("\"{escaped}\"").as_bytes())
            .unwrap()
            .as_str()
            .unwrap()
            .chars()
            .collect::<std::string::String>();
        let doc = std::format!(r#"{{"{decoded}":1,"{escaped}":2}}"#);
        let v = parse(doc.as_bytes()).unwrap();
        assert_eq!(
            v.check_unique_keys_deep().map_err(|e| (e.kind, e.offset)),
            Err((ErrorKind::DuplicateKey, doc.len() - 2)),
            "{doc}"
        );
        // One byte apart in the text: no duplicate.
        let doc = std::format!(r#"{{"{decoded}x":1,"{escaped}":2}}"#);
        assert_eq!(
            parse(doc.as_bytes()).unwrap().check_unique_keys_deep(),
            Ok(()),
            "{doc}"
        );
    }
}

/// Around [`DEEP_DIRECT_KEYS`] (keys compared directly, then by hash once
/// the object has more): in objects of 1 to 3 x that many keys, a repeat
/// of any earlier key at any later position is found and named (the
/// repeat's value), spelled plainly or escaped either way; keys of equal
/// token length that differ, and a plain key beside an escaped different
/// one, are no repeat.
#[test]
fn a_repeat_is_found_at_every_position_before_and_after_keys_are_hashed() {
    // Distinct keys, most of the same token length, one longer, one with
    // an escape of its own.
    let name = |i: usize| -> std::string::String {
        match i {
            3 => "longer key".into(),
            5 => r"k\u0035x".into(), // "k5x"
            _ => std::format!("k{i}"),
        }
    };
    // The same text spelled with its first character escaped.
    let escaped = |t: &str| -> std::string::String {
        match t.strip_prefix('k') {
            Some(rest) => std::format!(r"\u006b{rest}"),
            None => std::format!(r"\u{:04x}{}", t.as_bytes()[0], &t[1..]),
        }
    };
    let deep = |s: &str| {
        let v = parse(s.as_bytes()).unwrap();
        v.check_unique_keys_deep().map_err(|e| (e.kind, e.offset))
    };
    for n in 1..=3 * DEEP_DIRECT_KEYS {
        let names: std::vec::Vec<std::string::String> = (0..n).map(name).collect();
        let object = |names: &[std::string::String]| {
            let members: std::vec::Vec<std::string::String> = names
                .iter()
                .enumerate()
                .map(|(i, k)| std::format!(r#""{k}":{i}"#))
                .collect();
            std::format!(r#"{{"outer":{{{}}}}}"#, members.join(","))
        };
        assert_eq!(deep(&object(&names)), Ok(()), "{n} keys");
        // The same texts escaped: still distinct ("k5x" and "k5" too).
        let all_escaped: std::vec::Vec<std::string::String> =
            names.iter().map(|k| escaped(k)).collect();
        assert_eq!(deep(&object(&all_escaped)), Ok(()), "{n} keys escaped");
        for later in 1..n {
            for earlier in 0..later {
                let token = std::format!("\"{}\"", names[earlier]);
                let text = std::format!("{}", parse(token.as_bytes()).unwrap().as_str().unwrap());
                for spelling in [names[earlier].clone(), escaped(&text), text.clone()] {
                    let mut keys = names.clone();
                    keys[later] = spelling;
                    let s = object(&keys);
                    let value = s.find(&std::format!(r#"":{later}"#)).unwrap() + 2;
                    assert_eq!(deep(&s), Err((ErrorKind::DuplicateKey, value)), "{s}");
                }
            }
        }
    }
}

/// The repeat checks take keys in blocks sorted by hash, yet name the
/// first member, in document order, equal to an earlier one: two repeats
/// at every kind of place (the same block, later blocks, the earlier key in
/// an earlier block), in objects checked by `check_unique_keys` and, past
/// the key stack, by the deep check on their own.
#[test]
fn the_first_repeat_in_document_order_is_named_whatever_the_hash_order() {
    let b = UNIQUE_KEYS_BLOCK;
    for n in [12, b + 5, 3 * b, DEEP_KEYS + 40, 400] {
        // (original of the first repeat, first repeat, original of the
        // second, second repeat): first < second.
        let cases = [
            (1, 3, 0, 5),
            (0, n - 2, 2, n - 1),
            (b / 2, n - 3, 1, n - 1),
            (0, n / 2, 3, n / 2 + 1),
            (n / 3, n / 3 + 1, n - 3, n - 2),
        ];
        for (earlier1, first, earlier2, second) in cases {
            let mut keys: std::vec::Vec<std::string::String> =
                (0..n).map(|i| std::format!("key{i}")).collect();
            // The later repeat's original comes first in the document.
            let (e1, e2) = (earlier1.min(first - 1), earlier2.min(second - 1));
            keys[second] = keys[e2].clone();
            keys[first] = keys[e1].clone();
            let members: std::vec::Vec<std::string::String> = keys
                .iter()
                .enumerate()
                .map(|(i, k)| std::format!(r#""{k}":[{i}]"#))
                .collect();
            let object = std::format!("{{{}}}", members.join(","));
            let value_of = |doc: &str| doc.find(&std::format!(r#"":[{first}]"#)).unwrap() + 2;
            let o = parse(object.as_bytes()).unwrap();
            assert_eq!(
                o.as_object()
                    .unwrap()
                    .check_unique_keys(usize::MAX)
                    .map_err(|e| (e.kind, e.offset)),
                Err((ErrorKind::DuplicateKey, value_of(&object))),
                "{n} keys, repeats at {first} and {second}"
            );
            let doc = std::format!(r#"{{"a":[{object}]}}"#);
            let v = parse(doc.as_bytes()).unwrap();
            assert_eq!(
                v.check_unique_keys_deep().map_err(|e| (e.kind, e.offset)),
                Err((ErrorKind::DuplicateKey, value_of(&doc))),
                "deep: {n} keys, repeats at {first} and {second}"
            );
        }
    }
}

#[test]
fn objects_past_the_key_stack_or_the_depth_are_checked_on_their_own() {
    let limits = ParseLimits {
        max_depth: MAX_DEPTH_LIMIT,
        ..ParseLimits::default()
    };
    let deep = |s: &str| {
        let v = parse_with(s.as_bytes(), &limits).unwrap();
        assert_eq!(
            v.check_unique_keys_deep().is_err(),
            repeats_a_key_somewhere(v),
            "{s}"
        );
        v.check_unique_keys_deep().map_err(|e| e.kind)
    };
    // One object with more keys than the stack holds: the repeat is past it.
    let keys = |n: usize| -> std::vec::Vec<std::string::String> {
        (0..n).map(|i| std::format!(r#""k{i}":{i}"#)).collect()
    };
    let mut wide = keys(DEEP_KEYS + 10);
    assert_eq!(deep(&std::format!("{{{}}}", wide.join(","))), Ok(()));
    wide.push(r#""k3":0"#.into());
    assert_eq!(
        deep(&std::format!("{{{}}}", wide.join(","))),
        Err(ErrorKind::DuplicateKey)
    );
    // Ancestors fill the stack; the inner object repeats a key.
    let outer = keys(DEEP_KEYS).join(",");
    assert_eq!(
        deep(&std::format!(r#"{{{outer},"in":{{"a":1,"b":2,"a":3}}}}"#)),
        Err(ErrorKind::DuplicateKey)
    );
    assert_eq!(
        deep(&std::format!(r#"{{{outer},"in":{{"a":1,"b":2}},"z":0}}"#)),
        Ok(())
    );
    // Objects nested deeper than DEEP_OBJECTS.
    let nest = |inner: &str| {
        let mut s = std::string::String::from(inner);
        for i in 0..DEEP_OBJECTS + 20 {
            s = std::format!(r#"{{"n":{s},"m{i}":[{{"n":1}}]}}"#);
        }
        s
    };
    assert_eq!(deep(&nest(r#"{"a":1,"b":2}"#)), Ok(()));
    assert_eq!(
        deep(&nest(r#"{"a":1,"a":2}"#)),
        Err(ErrorKind::DuplicateKey)
    );
    assert_eq!(
        deep(&nest(r#"{"a":1,"b":{"c":1,"c":2}}"#)),
        Err(ErrorKind::DuplicateKey)
    );
}

proptest::proptest! {
    #[test]
    fn the_one_pass_deep_check_matches_the_pairwise_check(
        shape in proptest::collection::vec((0u8..6, 0u8..8), 0..120),
    ) {
        // A document built from (action, key) steps: open an object under
        // key, open an array, add a scalar, close; keys from a small set so
        // repeats happen at every depth.
        let mut s = std::string::String::from("{");
        let mut open: std::vec::Vec<(bool, bool)> = std::vec![(true, true)]; // (is_object, empty)
        for (action, key) in shape {
            let (is_obj, empty) = *open.last().unwrap();
            let lead = if empty { "" } else { "," };
            let name = if is_obj { std::format!(r#""k{key}":"#) } else { std::string::String::new() };
            match action {
                0 if open.len() < 30 => {
                    s.push_str(&std::format!("{lead}{name}{{"));
                    open.last_mut().unwrap().1 = false;
                    open.push((true, true));
                }
                1 if open.len() < 30 => {
                    s.push_str(&std::format!("{lead}{name}["));
                    open.last_mut().unwrap().1 = false;
                    open.push((false, true));
                }
                2 if open.len() > 1 => {
                    s.push(if is_obj { '}' } else { ']' });
                    open.pop();
                }
                _ => {
                    s.push_str(&std::format!("{lead}{name}{key}"));
                    open.last_mut().unwrap().1 = false;
                }
            }
        }
        while let Some((is_obj, _)) = open.pop() {
            s.push(if is_obj { '}' } else { ']' });
        }
        let v = parse(s.as_bytes()).unwrap();
        proptest::prop_assert_eq!(v.check_unique_keys_deep().is_err(), repeats_a_key_somewhere(v), "{}", s);
    }
}

#[test]
fn a_large_object_is_checked_in_sorted_blocks_up_to_its_member_limit() {
    let object = |keys: &[usize]| {
        let members: std::vec::Vec<std::string::String> = keys
            .iter()
            .map(|k| std::format!(r#""k{k}":[{k}]"#))
            .collect();
        std::format!("{{{}}}", members.join(","))
    };
    let deep = |s: &str| {
        let v = parse(s.as_bytes()).unwrap();
        v.check_unique_keys_deep().map_err(|e| e.kind)
    };
    let all: std::vec::Vec<usize> = (0..DEEP_MAX_MEMBERS).collect();
    assert_eq!(deep(&object(&all)), Ok(()));
    let mut over = all.clone();
    over.push(DEEP_MAX_MEMBERS);
    assert_eq!(deep(&object(&over)), Err(ErrorKind::TooManyMembers));
    // A repeat in one block (both past the first), and across blocks.
    for (a, b) in [(300, 310), (5, 700), (0, DEEP_MAX_MEMBERS - 1), (200, 201)] {
        let mut keys: std::vec::Vec<usize> = (0..DEEP_MAX_MEMBERS).collect();
        keys[b] = keys[a];
        assert_eq!(
            deep(&object(&keys)),
            Err(ErrorKind::DuplicateKey),
            "{a} {b}"
        );
    }
    // Equal once decoded.
    let mut s = object(&(0..300).collect::<std::vec::Vec<_>>());
    s.pop();
    s.push_str(r#","\u006b250":0}"#);
    assert_eq!(deep(&s), Err(ErrorKind::DuplicateKey));
}

proptest::proptest! {
    #[test]
    fn large_objects_agree_with_the_pairwise_check(
        keys in proptest::collection::vec(0u16..600, 100..500),
    ) {
        let members: std::vec::Vec<std::string::String> =
            keys.iter().map(|k| std::format!(r#""k{k}":{{"k{k}":1}}"#)).collect();
        let s = std::format!(r#"{{"a":[{{{}}}]}}"#, members.join(","));
        let v = parse(s.as_bytes()).unwrap();
        proptest::prop_assert_eq!(v.check_unique_keys_deep().is_err(), repeats_a_key_somewhere(v));
    }
}

/// The sorted-block repeat check's sort (binary insertion, no panic path)
/// orders every block as the library sort does: equal hashes, descending
/// and ascending runs, and pseudo-random blocks of every length up to the
/// block size.
#[test]
fn the_repeat_checks_block_sort_orders_like_the_library_sort() {
    let mut x = 0x9E37_79B9u32;
    for len in 0..=128usize {
        for pattern in 0..4 {
            let block: std::vec::Vec<(u32, usize)> = (0..len)
                .map(|i| {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    let h = match pattern {
                        0 => x,
                        1 => x % 4,
                        2 => (len - i) as u32,
                        _ => i as u32,
                    };
                    (h, i)
                })
                .collect();
            let mut ours = block.clone();
            super::reader::sort_block(&mut ours);
            let mut theirs = block;
            theirs.sort_unstable();
            assert_eq!(ours, theirs, "len {len}, pattern {pattern}");
        }
    }
}

proptest::proptest! {
    #[test]
    fn unique_key_check_visit_gives_what_a_check_then_a_walk_gives(
        keys in proptest::collection::vec(0u8..40, 0..70),
        escape in proptest::collection::vec(proptest::bool::ANY, 70),
        max in 0usize..80,
    ) {
        // check_unique_keys_visit returns exactly what check_unique_keys
        // returns, and hands `visit` a prefix of what iter() walks, in
        // order: every member when the check passes; on an error, none
        // past the limit and the repeated member itself for a duplicate.
        let doc = keyed_object(&keys, &escape);
        let obj = parse(doc.as_bytes()).unwrap().as_object().unwrap();
        let mut seen = std::vec::Vec::new();
        let got = obj.check_unique_keys_visit(max, &mut |k, v| seen.push((k, v.raw())));
        proptest::prop_assert_eq!(got, obj.check_unique_keys(max));
        let walked: std::vec::Vec<_> = obj.iter().map(|(k, v)| (k, v.raw())).collect();
        proptest::prop_assert_eq!(&seen[..], &walked[..seen.len()]);
        match got {
            Ok(n) => proptest::prop_assert_eq!((seen.len(), n), (walked.len(), walked.len())),
            Err(e) => {
                proptest::prop_assert!(seen.len() <= max);
                if e.kind == ErrorKind::DuplicateKey {
                    let base = obj.raw().as_ptr() as usize;
                    proptest::prop_assert!(seen
                        .iter()
                        .any(|(_, v)| v.as_ptr() as usize - base == e.offset));
                }
            }
        }
    }
}

#[test]
fn empty_containers_are_skipped_whole_in_a_walk() {
    // `{}` and `[]` end right after their opening bracket; with whitespace
    // inside, or followed by a sibling, they read as any container does.
    let doc = br#"{"a":{},"b":[],"c":{ },"d":[ ],"e":[{},[]],"f":{"g":{}},"h":[]}"#;
    let o = parse(doc).unwrap().as_object().unwrap();
    let raw: std::vec::Vec<&[u8]> = o.iter().map(|(_, v)| v.raw()).collect();
    assert_eq!(
        raw,
        [
            &b"{}"[..],
            b"[]",
            b"{ }",
            b"[ ]",
            b"[{},[]]",
            br#"{"g":{}}"#,
            b"[]"
        ]
    );
    let a = parse(b"[{},[],{ },[[]],{}]").unwrap().as_array().unwrap();
    assert_eq!(a.iter().count(), 5);
}

#[test]
fn depth_only_limits_default_zero_and_refuse_past_the_limit() {
    let at = |d| ParseLimits::depth_only(d).map(|l| (l.max_depth, l.max_bytes));
    assert_eq!(at(0), Some((DEFAULT_MAX_DEPTH, usize::MAX)));
    assert_eq!(at(1), Some((1, usize::MAX)));
    assert_eq!(at(MAX_DEPTH_LIMIT), Some((MAX_DEPTH_LIMIT, usize::MAX)));
    assert_eq!(at(MAX_DEPTH_LIMIT + 1), None);
}
