//! The InputRequiredBuilder's rules, by exact bytes.

use std::string::String;

use super::*;
use crate::wire::ClientCapabilities;

const SCHEMA: &str = r#"{"type":"object","properties":{"name":{"type":"string"}}}"#;
const SAMPLING: &str =
    r#"{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":10}"#;

fn form_only() -> ClientCapabilities {
    ClientCapabilities {
        elicitation_form: true,
        ..Default::default()
    }
}

fn build<'k>(
    caps: ClientCapabilities,
    f: impl Fn(&mut InputRequiredBuilder<'_, 'k>) -> Result<(), BuildError>,
) -> Result<String, BuildError> {
    let mut buf = std::vec![0u8; 1 << 16];
    let mut b = InputRequiredBuilder::new(&mut buf, &num(1), &caps);
    f(&mut b)?;
    let n = b.finish()?;
    // Exact size for a short buffer.
    let mut short = std::vec![0u8; n - 1];
    let mut b = InputRequiredBuilder::new(&mut short, &num(1), &caps);
    f(&mut b)?;
    assert_eq!(b.finish(), Err(BuildError::BufferTooSmall { needed: n }));
    Ok(String::from_utf8(buf[..n].to_vec()).unwrap())
}

#[test]
fn a_kind_the_client_did_not_declare_is_refused_with_what_is_missing() {
    let need =
        |caps: ClientCapabilities,
         f: &dyn Fn(&mut InputRequiredBuilder<'_, '_>) -> Result<(), BuildError>| {
            match build(caps, |b| f(b)) {
                Err(BuildError::MissingCapability { missing }) => missing,
                other => panic!("{other:?}"),
            }
        };
    let sampling_only = ClientCapabilities {
        sampling: true,
        ..Default::default()
    };
    let m = need(form_only(), &|b| {
        b.sampling("s", SAMPLING.as_bytes()).map(drop)
    });
    assert_eq!(
        m,
        ClientCapabilities {
            sampling: true,
            ..Default::default()
        }
    );
    let m = need(form_only(), &|b| {
        b.elicit_url("u", "Sign in", "https://example.com/login")
            .map(drop)
    });
    assert_eq!(
        m,
        ClientCapabilities {
            elicitation_url: true,
            ..Default::default()
        }
    );
    let m = need(sampling_only, &|b| {
        b.elicit_form("f", "Name?", SCHEMA.as_bytes()).map(drop)
    });
    assert_eq!(
        m,
        ClientCapabilities {
            elicitation_form: true,
            ..Default::default()
        }
    );
    let m = need(form_only(), &|b| b.roots("r").map(drop));
    assert_eq!(
        m,
        ClientCapabilities {
            roots: true,
            ..Default::default()
        }
    );
    // Sampling with tools needs sampling.tools; includeContext beyond "none"
    // needs sampling.context.
    let with_tools =
        r#"{"messages":[],"maxTokens":10,"tools":[{"name":"t","inputSchema":{"type":"object"}}]}"#;
    let m = need(sampling_only, &|b| {
        b.sampling("s", with_tools.as_bytes()).map(drop)
    });
    assert_eq!(
        m,
        ClientCapabilities {
            sampling_tools: true,
            ..Default::default()
        }
    );
    let with_context = r#"{"messages":[],"maxTokens":10,"includeContext":"thisServer"}"#;
    let m = need(sampling_only, &|b| {
        b.sampling("s", with_context.as_bytes()).map(drop)
    });
    assert_eq!(
        m,
        ClientCapabilities {
            sampling_context: true,
            ..Default::default()
        }
    );
    // ... which the app answers with -32021 and requiredCapabilities.
    assert_eq!(
        emit(|o| write_missing_capability(o, &num(1), &m)),
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"Missing required client capability","data":{"requiredCapabilities":{"sampling":{"context":{}}}}}}"#
    );
    // Not needed: includeContext "none" and an empty tools list.
    let plain = r#"{"messages":[],"maxTokens":10,"includeContext":"none","tools":[]}"#;
    assert!(build(sampling_only, |b| b
        .sampling("s", plain.as_bytes())
        .map(drop))
    .is_ok());
}

#[test]
fn a_refused_request_leaves_the_output_as_if_it_was_never_made() {
    let out = build(form_only(), |b| {
        b.elicit_form("name", "Name?", SCHEMA.as_bytes())?;
        assert!(matches!(
            b.roots("dirs"),
            Err(BuildError::MissingCapability { .. })
        ));
        assert_eq!(
            b.elicit_form("name", "Again?", SCHEMA.as_bytes()).err(),
            Some(BuildError::DuplicateKey)
        );
        assert_eq!(b.len(), 1);
        Ok(())
    })
    .unwrap();
    assert_eq!(
        out,
        std::format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","inputRequests":{{"name":{{"method":"elicitation/create","params":{{"mode":"form","message":"Name?","requestedSchema":{SCHEMA}}}}}}}}}}}"#
        )
    );
}

#[test]
fn an_input_required_result_needs_requests_or_state() {
    assert_eq!(build(form_only(), |_| Ok(())), Err(BuildError::Empty));
    // A state-only round is fine.
    assert_eq!(
        build(form_only(), |b| {
            b.request_state("s1");
            Ok(())
        })
        .unwrap(),
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"s1"}}"#
    );
}

#[test]
fn keys_are_non_empty_bounded_unique_and_counted() {
    let caps = ClientCapabilities::ALL;
    assert_eq!(
        build(caps, |b| b.roots("").map(drop)),
        Err(BuildError::EmptyKey)
    );
    let long = "k".repeat(257);
    assert_eq!(
        build(caps, |b| b.roots(&long).map(drop)),
        Err(BuildError::KeyTooLong { max: 256 })
    );
    let ok = "k".repeat(256);
    assert!(build(caps, |b| b.roots(&ok).map(drop)).is_ok());
    assert_eq!(
        build(caps, |b| {
            b.roots("a")?;
            b.elicit_form("a", "m", SCHEMA.as_bytes())?;
            Ok(())
        }),
        Err(BuildError::DuplicateKey)
    );
    let keys: Vec<String> = (0..65).map(|i| std::format!("k{i}")).collect();
    let out = build(caps, |b| {
        for k in &keys[..64] {
            b.roots(k)?;
        }
        assert_eq!(
            b.roots(&keys[64]).err(),
            Some(BuildError::TooManyRequests { max: 64 })
        );
        Ok(())
    })
    .unwrap();
    assert_eq!(
        assert_json(&out)["result"]["inputRequests"]
            .as_object()
            .unwrap()
            .len(),
        64
    );
    // A lower configured limit.
    let mut buf = [0u8; 512];
    let limits = WireLimits {
        max_input_requests: 2,
        max_key_bytes: 4,
        ..Default::default()
    };
    let mut b = InputRequiredBuilder::with_limits(&mut buf, &num(1), &caps, &limits);
    assert_eq!(
        b.roots("12345").err(),
        Some(BuildError::KeyTooLong { max: 4 })
    );
    b.roots("a").unwrap().roots("b").unwrap();
    assert_eq!(
        b.roots("c").err(),
        Some(BuildError::TooManyRequests { max: 2 })
    );
    let n = b.finish().unwrap();
    assert_eq!(
        &buf[..n],
        br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"a":{"method":"roots/list","params":{}},"b":{"method":"roots/list","params":{}}}}}"#
    );
}

#[test]
fn raw_json_handed_to_the_builder_is_checked_before_it_is_copied() {
    let caps = ClientCapabilities::ALL;
    for schema in [
        "",
        "{",
        "[]",
        r#"{"type":"string","properties":{}}"#,
        r#"{"type":"object"}"#,
        r#"{"type":"object","properties":[]}"#,
        r#"{"type":"object","type":"object","properties":{}}"#,
        r#"{"type":"object","properties":{}} {}"#,
    ] {
        assert_eq!(
            build(caps, |b| b
                .elicit_form("f", "m", schema.as_bytes())
                .map(drop)),
            Err(BuildError::InvalidSchema),
            "{schema}"
        );
    }
    for params in [
        "{}",
        "[]",
        r#"{"messages":[]}"#,
        r#"{"maxTokens":1}"#,
        r#"{"messages":{},"maxTokens":1}"#,
        r#"{"messages":[],"maxTokens":"10"}"#,
        r#"{"messages":[],"maxTokens":-1}"#,
        r#"{"messages":[],"maxTokens":1,"tools":{}}"#,
        r#"{"messages":[],"maxTokens":1,"maxTokens":2}"#,
    ] {
        assert_eq!(
            build(caps, |b| b.sampling("s", params.as_bytes()).map(drop)),
            Err(BuildError::InvalidSamplingParams),
            "{params}"
        );
    }
    for url in [
        "",
        "example.com",
        "1http://x",
        "https:",
        "https://exa mple.com",
        "https://x\n",
        ":x",
    ] {
        assert_eq!(
            build(caps, |b| b.elicit_url("u", "m", url).map(drop)),
            Err(BuildError::InvalidUrl),
            "{url:?}"
        );
    }
}

#[test]
fn raw_json_is_limited_to_the_depth_a_client_can_read_back() {
    let caps = ClientCapabilities::ALL;
    // requestedSchema sits at depth 6 of the message: with the default limit
    // of 32 it may nest 27 deep itself.
    let schema = |depth: usize| {
        std::format!(
            r#"{{"type":"object","properties":{}{}}}"#,
            "{\"a\":".repeat(depth - 2) + "{}",
            "}".repeat(depth - 2)
        )
    };
    let ok = build(caps, |b| {
        b.elicit_form("f", "m", schema(27).as_bytes()).map(drop)
    })
    .unwrap();
    let limits = WireLimits::default();
    assert!(crate::wire::parse_message(ok.as_bytes(), &limits).is_ok());
    assert_eq!(
        build(caps, |b| b
            .elicit_form("f", "m", schema(28).as_bytes())
            .map(drop)),
        Err(BuildError::InvalidSchema)
    );
}

#[test]
fn text_is_escaped_and_raw_json_is_copied_as_given() {
    let caps = ClientCapabilities::ALL;
    let out = build(caps, |b| {
        b.elicit_url(
            "sign\"in",
            "Open \"this\"\nnow — ok",
            "https://example.com/a?b=c&d=\u{e9}",
        )?;
        b.sampling("s", b" {\"messages\" : [], \"maxTokens\":1}\n")?;
        b.request_state("a\"b\\c");
        b.request_state("final");
        Ok(())
    })
    .unwrap();
    assert_eq!(
        out,
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\",\"inputRequests\":{\"sign\\\"in\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"url\",\"message\":\"Open \\\"this\\\"\\nnow — ok\",\"url\":\"https://example.com/a?b=c&d=\u{e9}\"}},\"s\":{\"method\":\"sampling/createMessage\",\"params\":{\"messages\" : [], \"maxTokens\":1}}},\"requestState\":\"final\"}}"
    );
    let v = assert_json(&out);
    assert_eq!(
        v["result"]["inputRequests"]["sign\"in"]["params"]["message"],
        "Open \"this\"\nnow — ok"
    );
}

#[test]
fn only_the_mrtr_methods_may_be_answered_with_input_required() {
    let mut buf = [0u8; 256];
    let list = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    assert_eq!(
        InputRequiredBuilder::for_request(&mut buf, &request(list)).err(),
        Some(BuildError::MethodNotAllowed)
    );
    for m in ["tools/call", "prompts/get"] {
        let bytes = std::format!(
            r#"{{"jsonrpc":"2.0","id":"x","method":"{m}","params":{{"_meta":{},"name":"n"}}}}"#,
            meta(r#"{"roots":{}}"#)
        );
        let req = request(bytes.as_bytes());
        let mut b = InputRequiredBuilder::for_request(&mut buf, &req).unwrap();
        // The builder uses the capabilities declared on this very request.
        b.roots("r").unwrap();
        assert!(b.elicit_form("f", "m", SCHEMA.as_bytes()).is_err());
        let n = b.finish().unwrap();
        assert_eq!(
            &buf[..n],
            br#"{"jsonrpc":"2.0","id":"x","result":{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list","params":{}}}}}"#
        );
    }
}

use std::vec::Vec;

/// The URL check reads the scheme byte by byte and decides as the check by
/// characters did (the reference below), non-ASCII schemes included.
#[test]
fn url_scheme_check_by_bytes_decides_as_by_characters() {
    fn by_chars(url: &str) -> bool {
        let Some((scheme, rest)) = url.split_once(':') else {
            return false;
        };
        let mut chars = scheme.chars();
        let starts_alpha = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
        starts_alpha
            && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
            && !rest.is_empty()
            && !url
                .chars()
                .any(|c| crate::bytes::is_white_space(c) || c.is_control())
    }
    let pieces = [
        "",
        "a",
        "Z",
        "9",
        "+",
        "-",
        ".",
        ":",
        "/",
        " ",
        "\n",
        "\u{85}",
        "\u{a0}",
        "\u{e9}",
        "\u{3000}",
        "\u{1f600}",
        "x",
    ];
    let mut checked = 0;
    for a in pieces {
        for b in pieces {
            for c in pieces {
                for d in pieces {
                    let url = std::format!("{a}{b}{c}{d}");
                    assert_eq!(
                        crate::server::builder::url_is_plausible(&url),
                        by_chars(&url),
                        "{url:?}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 17 * 17 * 17 * 17);
    assert!(crate::server::builder::url_is_plausible(
        "https://example.com"
    ));
    assert!(crate::server::builder::url_is_plausible("a+b-c.d:x"));
    assert!(!crate::server::builder::url_is_plausible("h\u{e9}:x"));
}

/// One request asked of a builder, under a given key.
type AskKeyed = fn(&mut InputRequiredBuilder<'_, '_>, &'static str) -> Result<(), BuildError>;

/// One request asked of a builder.
type ByMethod = fn(&mut InputRequiredBuilder<'_, '_>) -> Result<(), BuildError>;

/// Every kind checks its key first, then what it asks (schema, URL,
/// sampling params), then the client's capabilities: with all three wrong
/// the key's error wins, with the key right the content's.
#[test]
fn each_request_is_checked_key_then_content_then_capabilities() {
    let none = ClientCapabilities::default();
    let bad: [(&str, AskKeyed, BuildError); 3] = [
        (
            "form",
            |b, k| b.elicit_form(k, "m", b"{}").map(drop),
            BuildError::InvalidSchema,
        ),
        (
            "url",
            |b, k| b.elicit_url(k, "m", "no scheme").map(drop),
            BuildError::InvalidUrl,
        ),
        (
            "sampling",
            |b, k| b.sampling(k, b"{}").map(drop),
            BuildError::InvalidSamplingParams,
        ),
    ];
    for (what, ask, content) in bad {
        assert_eq!(
            build(none, |b| ask(b, "")),
            Err(BuildError::EmptyKey),
            "{what}"
        );
        assert_eq!(build(none, |b| ask(b, "k")), Err(content), "{what}");
    }
    let good: [ByMethod; 4] = [
        |b| b.elicit_form("", "m", SCHEMA.as_bytes()).map(drop),
        |b| b.elicit_url("", "m", "https://x").map(drop),
        |b| b.sampling("", SAMPLING.as_bytes()).map(drop),
        |b| b.roots("").map(drop),
    ];
    for ask in good {
        assert_eq!(build(none, ask), Err(BuildError::EmptyKey));
    }
    let missing = |c: ClientCapabilities| Err(BuildError::MissingCapability { missing: c });
    let form = ClientCapabilities {
        elicitation_form: true,
        ..Default::default()
    };
    let url = ClientCapabilities {
        elicitation_url: true,
        ..Default::default()
    };
    let sampling = ClientCapabilities {
        sampling: true,
        ..Default::default()
    };
    let roots = ClientCapabilities {
        roots: true,
        ..Default::default()
    };
    assert_eq!(
        build(none, |b| b
            .elicit_form("k", "m", SCHEMA.as_bytes())
            .map(drop)),
        missing(form)
    );
    assert_eq!(
        build(none, |b| b.elicit_url("k", "m", "https://x").map(drop)),
        missing(url)
    );
    assert_eq!(
        build(none, |b| b.sampling("k", SAMPLING.as_bytes()).map(drop)),
        missing(sampling)
    );
    assert_eq!(build(none, |b| b.roots("k").map(drop)), missing(roots));
}

/// `input` (the C ABI's form) writes and refuses exactly as the method of
/// its kind: same bytes, same errors in the same order.
#[test]
fn input_by_kind_is_the_method_of_that_kind() {
    use crate::server::Ask as A;
    use crate::wire::InputKind as K;
    let all = ClientCapabilities {
        elicitation_form: true,
        elicitation_url: true,
        sampling: true,
        roots: true,
        ..Default::default()
    };
    let none = ClientCapabilities::default();
    for caps in [all, none, form_only()] {
        for key in ["k", ""] {
            // Good and bad content of every kind.
            let cases: [(A, K, ByMethod); 7] = [
                (
                    A::Form {
                        message: "m\n",
                        requested_schema: SCHEMA.as_bytes(),
                    },
                    K::ElicitForm,
                    |b| b.elicit_form("k", "m\n", SCHEMA.as_bytes()).map(drop),
                ),
                (
                    A::Form {
                        message: "m",
                        requested_schema: b"{}",
                    },
                    K::ElicitForm,
                    |b| b.elicit_form("k", "m", b"{}").map(drop),
                ),
                (
                    A::Url {
                        message: "m\"",
                        url: "https://x",
                    },
                    K::ElicitUrl,
                    |b| b.elicit_url("k", "m\"", "https://x").map(drop),
                ),
                (
                    A::Url {
                        message: "m",
                        url: "no scheme",
                    },
                    K::ElicitUrl,
                    |b| b.elicit_url("k", "m", "no scheme").map(drop),
                ),
                (
                    A::Sampling {
                        params: SAMPLING.as_bytes(),
                    },
                    K::Sampling,
                    |b| b.sampling("k", SAMPLING.as_bytes()).map(drop),
                ),
                (A::Sampling { params: b"{}" }, K::Sampling, |b| {
                    b.sampling("k", b"{}").map(drop)
                }),
                (A::Roots, K::Roots, |b| b.roots("k").map(drop)),
            ];
            for (ask, kind, method) in cases {
                assert_eq!(ask.kind(), kind);
                let by_input = build(caps, |b| b.input(key, ask).map(drop));
                if key == "k" {
                    assert_eq!(by_input, build(caps, method), "{ask:?}");
                } else {
                    assert_eq!(by_input, Err(BuildError::EmptyKey));
                }
            }
        }
    }
    // One accepted form, exactly.
    assert_eq!(
        build(all, |b| b.input("r", A::Roots).map(drop)).unwrap(),
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list","params":{}}}}}"#
    );
}

#[test]
fn a_form_schema_names_its_type_and_properties_once_each_in_any_order() {
    let caps = ClientCapabilities::ALL;
    let form = |schema: &str| {
        build(caps, |b| {
            b.elicit_form("f", "m", schema.as_bytes()).map(drop)
        })
    };
    for schema in [
        r#"{"properties":{},"type":"object"}"#,
        r#"{"x":1,"type":"object","y":[],"properties":{"a":{}}}"#,
        r#"{"\u0074ype":"object","properties":{}}"#,
    ] {
        assert!(form(schema).is_ok(), "{schema}");
    }
    for schema in [
        r#"{"type":"object","properties":{},"properties":{}}"#,
        r#"{"properties":{},"type":"object","type":"object"}"#,
        r#"{"type":1,"properties":{}}"#,
        r#"{"type":"objects","properties":{}}"#,
        r#"{"properties":{}}"#,
    ] {
        assert_eq!(form(schema), Err(BuildError::InvalidSchema), "{schema}");
    }
}
