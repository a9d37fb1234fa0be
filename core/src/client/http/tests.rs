use super::*;
use std::string::String;
use std::vec::Vec;

fn enc(v: &str) -> String {
    let mut buf = [0u8; 512];
    String::from(encode_value(v, &mut buf).unwrap())
}

/// Test-only decoder of the sentinel form.
fn decode(v: &str) -> Option<Vec<u8>> {
    let inner = v.strip_prefix(BASE64_PREFIX)?.strip_suffix(BASE64_SUFFIX)?;
    let val = |c: u8| ALPHABET.iter().position(|&a| a == c).map(|p| p as u32);
    let mut out = Vec::new();
    for quad in inner.as_bytes().chunks(4) {
        assert_eq!(quad.len(), 4, "unpadded base64");
        let pads = quad.iter().filter(|&&c| c == b'=').count();
        let mut n = 0u32;
        for &c in quad {
            n = n << 6 | if c == b'=' { 0 } else { val(c)? };
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..3 - pads]);
    }
    Some(out)
}

#[test]
fn plain_printable_ascii_is_sent_as_is() {
    for v in [
        "us-west1",
        "my-tool_name",
        "get weather",
        "file:///path/to/file%20name.txt",
        "https://example.com/resource?id=123",
        "a=?base64?b",
        "",
    ] {
        assert!(!needs_encoding(v), "{v}");
        assert_eq!(enc(v), v);
        assert_eq!(encoded_len(v), v.len());
    }
}

#[test]
fn unsafe_values_use_the_base64_sentinel() {
    // The examples of SEP-2243.
    assert_eq!(enc("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
    assert_eq!(enc(" padded "), "=?base64?IHBhZGRlZCA=?=");
    assert_eq!(enc("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
    assert_eq!(enc("café"), "=?base64?Y2Fmw6k=?=");
    assert_eq!(
        enc("x\r\nSet-Cookie: a=b"),
        "=?base64?eA0KU2V0LUNvb2tpZTogYT1i?="
    );
    assert_eq!(enc("tab\there"), "=?base64?dGFiCWhlcmU=?=");
    assert_eq!(enc("trailing "), "=?base64?dHJhaWxpbmcg?=");
    assert_eq!(enc("\u{7f}"), "=?base64?fw==?=");
    // A value that looks like the sentinel is encoded, in any case.
    assert_eq!(enc("=?base64?x?="), "=?base64?PT9iYXNlNjQ/eD89?=");
    assert_eq!(enc("=?BASE64?"), "=?base64?PT9CQVNFNjQ/?=");
    assert_eq!(encoded_len("café"), 19);
}

#[test]
fn short_buffer_reports_the_exact_size() {
    let mut small = [0u8; 18];
    assert_eq!(
        encode_value("café", &mut small),
        Err(HttpError::BufferTooSmall { needed: 19 })
    );
    let mut exact = [0u8; 19];
    assert_eq!(encode_value("café", &mut exact), Ok("=?base64?Y2Fmw6k=?="));
}

#[test]
fn too_long_values_are_refused() {
    let plain = "a".repeat(MAX_HEADER_VALUE_BYTES);
    let mut buf = std::vec![0u8; MAX_HEADER_VALUE_BYTES + 16];
    assert_eq!(encode_value(&plain, &mut buf).map(str::len), Ok(8192));
    let over = "a".repeat(MAX_HEADER_VALUE_BYTES + 1);
    assert_eq!(
        encode_value(&over, &mut buf),
        Err(HttpError::ValueTooLong { len: 8193 })
    );
    // 6135 bytes encode to 11 + 4 * 2045 = 8191 bytes; 6136 to 8195.
    let ok = "é".repeat(3067) + "a";
    assert_eq!(encode_value(&ok, &mut buf).map(str::len), Ok(8191));
    let long = "é".repeat(3068);
    assert_eq!(
        encode_value(&long, &mut buf),
        Err(HttpError::ValueTooLong { len: 8195 })
    );
    let h = RequestHeaders::new("tools/call", Some(&over));
    assert_eq!(h.unwrap_err(), HttpError::ValueTooLong { len: 8193 });
}

fn pairs(h: &Headers<'_>) -> Vec<(&'static str, String)> {
    h.iter().map(|(k, v)| (k, String::from(v))).collect()
}

#[test]
fn tools_call_header_set() {
    let h = RequestHeaders::new("tools/call", Some("get_weather")).unwrap();
    assert_eq!(h.buffer_len(), 21);
    let mut buf = [0u8; 21];
    let out = h.write(&mut buf).unwrap();
    assert_eq!(
        pairs(&out),
        [
            ("MCP-Protocol-Version", "2026-07-28".into()),
            ("Mcp-Method", "tools/call".into()),
            ("Mcp-Name", "get_weather".into()),
            ("Accept", "application/json, text/event-stream".into()),
            ("Content-Type", "application/json".into()),
        ]
    );
    let mut short = [0u8; 20];
    assert_eq!(
        h.write(&mut short).unwrap_err(),
        HttpError::BufferTooSmall { needed: 21 }
    );
}

#[test]
fn notifications_and_other_methods_have_no_name() {
    let h = RequestHeaders::new("notifications/cancelled", None).unwrap();
    let mut buf = [0u8; 64];
    let out = h.write(&mut buf).unwrap();
    assert_eq!(out.method(), "notifications/cancelled");
    assert_eq!(out.name(), None);
    assert_eq!(out.iter().count(), 4);
    assert!(out.iter().all(|(k, _)| k != MCP_NAME));
}

#[test]
fn name_is_required_where_the_spec_mirrors_it() {
    for m in [
        "tools/call",
        "prompts/get",
        "resources/read",
        "tasks/get",
        "tasks/update",
        "tasks/cancel",
    ] {
        assert_eq!(
            RequestHeaders::new(m, None).unwrap_err(),
            HttpError::MissingName
        );
    }
    for m in ["", "tools call", "tools/call\r\nX: y", "outils/appelé"] {
        assert_eq!(
            RequestHeaders::new(m, Some("x")).unwrap_err(),
            HttpError::BadMethod,
            "{m:?}"
        );
    }
}

#[test]
fn headers_from_the_request_body() {
    let limits = WireLimits::default();
    let mut buf = [0u8; 128];
    let body = br#"{"jsonrpc":"2.0","id":3,"method":"tools\/call","params":{"name":"caf\u00e9","arguments":{}}}"#;
    let h = RequestHeaders::for_message(body, &limits).unwrap();
    let out = h.write(&mut buf).unwrap();
    assert_eq!(out.method(), "tools/call");
    assert_eq!(out.name(), Some("=?base64?Y2Fmw6k=?="));

    let body =
        br#"{"jsonrpc":"2.0","id":"r","method":"resources/read","params":{"uri":"file:///a b"}}"#;
    let out = RequestHeaders::for_message(body, &limits)
        .unwrap()
        .write(&mut buf)
        .unwrap();
    assert_eq!(out.name(), Some("file:///a b"));

    let body = br#"{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":" p"}}"#;
    let out = RequestHeaders::for_message(body, &limits)
        .unwrap()
        .write(&mut buf)
        .unwrap();
    assert_eq!(out.name(), Some("=?base64?IHA=?="));

    let body = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let out = RequestHeaders::for_message(body, &limits)
        .unwrap()
        .write(&mut buf)
        .unwrap();
    assert_eq!(
        (out.method(), out.name()),
        ("notifications/initialized", None)
    );

    for (body, err) in [
        (
            &br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":7}}"#[..],
            HttpError::MissingName,
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","name":"b"}}"#,
            HttpError::MissingName,
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"resources/read"}"#,
            HttpError::MissingName,
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            HttpError::NotARequest,
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"a\u0000b"}"#,
            HttpError::BadMethod,
        ),
    ] {
        assert_eq!(RequestHeaders::for_message(body, &limits).unwrap_err(), err);
    }
    assert!(matches!(
        RequestHeaders::for_message(b"{", &limits),
        Err(HttpError::Wire(_))
    ));
}

#[test]
fn task_requests_mirror_the_task_id_in_mcp_name() {
    let limits = WireLimits::default();
    let mut buf = [0u8; 128];
    for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
        let body = std::format!(
            r#"{{"jsonrpc":"2.0","id":9,"method":"{method}","params":{{"taskId":"t-\u00e9 1","inputResponses":{{}}}}}}"#
        );
        let out = RequestHeaders::for_message(body.as_bytes(), &limits)
            .unwrap()
            .write(&mut buf)
            .unwrap();
        assert_eq!(out.method(), method);
        assert_eq!(out.name(), Some("=?base64?dC3DqSAx?="));
        let body = std::format!(r#"{{"jsonrpc":"2.0","id":9,"method":"{method}","params":{{}}}}"#);
        assert_eq!(
            RequestHeaders::for_message(body.as_bytes(), &limits).unwrap_err(),
            HttpError::MissingName
        );
    }
    // The seed dialect's own methods carry no Mcp-Name.
    let body = br#"{"jsonrpc":"2.0","id":9,"method":"tasks/result","params":{"taskId":"t1"}}"#;
    let out = RequestHeaders::for_message(body, &limits)
        .unwrap()
        .write(&mut buf)
        .unwrap();
    assert_eq!(out.name(), None);
}

mod proptests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn any_value_round_trips_and_is_header_safe(v in ".{0,64}", edge in any::<bool>()) {
            let v = if edge { std::format!(" {v}") } else { v };
            let mut buf = [0u8; 512];
            let out = encode_value(&v, &mut buf).unwrap();
            prop_assert_eq!(out.len(), encoded_len(&v));
            prop_assert!(out.bytes().all(|b| (0x20..=0x7E).contains(&b)));
            prop_assert!(!out.starts_with(' ') && !out.ends_with(' '));
            if needs_encoding(&v) {
                prop_assert_eq!(decode(out).unwrap(), v.as_bytes());
            } else {
                prop_assert_eq!(out, v.as_str());
            }
        }

        #[test]
        fn arbitrary_bodies_never_panic(body in prop::collection::vec(any::<u8>(), 0..200)) {
            let mut buf = [0u8; 64];
            if let Ok(h) = RequestHeaders::for_message(&body, &WireLimits::default()) {
                let _ = h.write(&mut buf);
            }
        }
    }
}
