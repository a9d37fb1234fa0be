use super::*;
use std::string::{String, ToString};
use std::vec::Vec;

fn check(schema: &str) -> Result<Vec<(String, String, ParamKind)>, DesignationError> {
    let d = Designations::parse(schema.as_bytes())?;
    let out: Vec<_> = d
        .iter()
        .map(|d| {
            (
                d.property.chars().collect::<String>(),
                d.header.chars().collect::<String>(),
                d.kind,
            )
        })
        .collect();
    assert_eq!(d.len(), out.len());
    assert_eq!(d.is_empty(), out.is_empty());
    Ok(out)
}

fn prop(ty: &str, header: &str) -> String {
    std::format!(
        r#"{{"type":"object","properties":{{"v":{{"type":{ty},"x-mcp-header":{header}}}}}}}"#
    )
}

#[test]
fn valid_designations_are_listed_in_property_order() {
    let schema = r#"{"type":"object","properties":{
        "region":{"type":"string","x-mcp-header":"Region"},
        "priority":{"type":"integer","x-mcp-header":"Priority"},
        "float_val":{"type":"number"},
        "verbose":{"type":"boolean","x-mcp-header":"Verbose"},
        "odd":{"type":"string","x-mcp-header":"a!#$%&'*+-.^_`|~9"},
        "query":{"type":"string"}},"required":["region"]}"#;
    assert_eq!(
        check(schema).unwrap(),
        [
            ("region".into(), "Region".into(), ParamKind::String),
            ("priority".into(), "Priority".into(), ParamKind::Integer),
            ("verbose".into(), "Verbose".into(), ParamKind::Boolean),
            ("odd".into(), "a!#$%&'*+-.^_`|~9".into(), ParamKind::String),
        ]
    );
}

#[test]
fn schemas_without_designations_have_none() {
    for s in [
        r#"{}"#,
        r#"{"type":"object"}"#,
        r#"{"type":"object","properties":{}}"#,
        r#"{"type":"object","properties":{"a":{"type":"number"},"b":true}}"#,
        r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"p":{"$ref":"http://x/y"}}}"#,
    ] {
        assert_eq!(check(s).unwrap(), [], "{s}");
    }
}

#[test]
fn the_conformance_suite_invalid_tools_are_refused() {
    // http-invalid-tool-headers: each tool and the rule it breaks.
    let cases = [
        (prop(r#""string""#, r#""""#), DesignationError::Empty),
        (prop(r#""object""#, r#""Data""#), DesignationError::NotPrimitive),
        (prop(r#""array""#, r#""Items""#), DesignationError::NotPrimitive),
        (prop(r#""null""#, r#""Nil""#), DesignationError::NotPrimitive),
        (prop(r#""number""#, r#""Score""#), DesignationError::NotPrimitive),
        (prop(r#""string""#, r#""My Region""#), DesignationError::Charset),
        (prop(r#""string""#, r#""Region:Primary""#), DesignationError::Charset),
        (prop(r#""string""#, r#""Région""#), DesignationError::Charset),
        (prop(r#""string""#, r#""R\u00e9gion""#), DesignationError::Charset),
        (prop(r#""string""#, r#""Region	1""#.replace('\t', "\\t").as_str()), DesignationError::Charset),
        (prop(r#""string""#, "7"), DesignationError::Empty),
        (prop(r#"["string","null"]"#, r#""Both""#), DesignationError::NotPrimitive),
        (
            r#"{"type":"object","properties":{"v":{"x-mcp-header":"NoType"}}}"#.to_string(),
            DesignationError::NotPrimitive,
        ),
        (
            r#"{"properties":{"field1":{"type":"string","x-mcp-header":"Region"},"field2":{"type":"string","x-mcp-header":"Region"}}}"#.to_string(),
            DesignationError::Duplicate,
        ),
        (
            r#"{"properties":{"field1":{"type":"string","x-mcp-header":"MyField"},"x":{"type":"integer"},"field2":{"type":"boolean","x-mcp-header":"myfield"}}}"#.to_string(),
            DesignationError::Duplicate,
        ),
        (r#"{"properties":[]}"#.to_string(), DesignationError::Schema),
        (r#"[]"#.to_string(), DesignationError::Schema),
        (r#"{"properties":"#.to_string(), DesignationError::Schema),
    ];
    for (schema, want) in cases {
        assert_eq!(check(&schema), Err(want), "{schema}");
    }
}

#[test]
fn at_most_max_designations() {
    let schema = |n: usize| {
        let props: Vec<String> = (0..n)
            .map(|i| std::format!(r#""p{i}":{{"type":"integer","x-mcp-header":"H{i}"}}"#))
            .collect();
        std::format!(r#"{{"properties":{{{}}}}}"#, props.join(","))
    };
    assert_eq!(
        check(&schema(MAX_DESIGNATIONS)).unwrap().len(),
        MAX_DESIGNATIONS
    );
    assert_eq!(
        check(&schema(MAX_DESIGNATIONS + 1)),
        Err(DesignationError::TooMany)
    );
}

#[test]
fn a_name_at_the_length_limit_is_kept_one_more_is_refused() {
    let max = MAX_HEADER_VALUE_BYTES - MCP_PARAM_PREFIX.len();
    let ok = prop(r#""string""#, &std::format!("\"{}\"", "a".repeat(max)));
    assert_eq!(check(&ok).unwrap().len(), 1);
    let long = prop(r#""string""#, &std::format!("\"{}\"", "a".repeat(max + 1)));
    assert_eq!(check(&long), Err(DesignationError::Charset));
}

const CUSTOM_SCHEMA: &str = r#"{"type":"object","properties":{
    "region":{"type":"string","x-mcp-header":"Region"},
    "priority":{"type":"integer","x-mcp-header":"Priority"},
    "verbose":{"type":"boolean","x-mcp-header":"Verbose"},
    "float_val":{"type":"number"},
    "non_ascii_val":{"type":"string","x-mcp-header":"NonAscii"},
    "leading_space_val":{"type":"string","x-mcp-header":"LeadingSpace"},
    "internal_space_val":{"type":"string","x-mcp-header":"InternalSpace"},
    "crlf_val":{"type":"string","x-mcp-header":"CrLf"},
    "empty_val":{"type":"string","x-mcp-header":"EmptyVal"},
    "missing":{"type":"string","x-mcp-header":"Missing"},
    "query":{"type":"string"}}}"#;

pub(super) fn headers(body: &str, schema: &str) -> Result<Vec<(String, String)>, HttpError> {
    let limits = WireLimits::default();
    let h = ParamHeaders::for_message(body.as_bytes(), schema.as_bytes(), &limits)?;
    let mut buf = std::vec![0u8; h.buffer_len()];
    let mut out = Vec::new();
    h.write(&mut buf, |n, v| out.push((n.to_string(), v.to_string())))?;
    assert_eq!(out.len(), h.count());
    let mut short = std::vec![0u8; h.buffer_len().saturating_sub(1)];
    if !out.is_empty() {
        assert_eq!(
            h.write(&mut short, |_, _| panic!(
                "nothing is written to a short buffer"
            )),
            Err(HttpError::BufferTooSmall {
                needed: h.buffer_len()
            })
        );
    }
    Ok(out)
}

pub(super) fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
    p.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn designated_arguments_become_mcp_param_headers() {
    let body = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"test_custom_headers","arguments":{
        "query":"SELECT * FROM users","crlf_val":"line1\r\nline2","region":"us-west1","priority":42,
        "verbose":false,"float_val":3.14159,"non_ascii_val":"Hello, \u4e16界","leading_space_val":" us-west1",
        "internal_space_val":"us west 1","empty_val":""}}}"#;
    assert_eq!(
        headers(body, CUSTOM_SCHEMA).unwrap(),
        pairs(&[
            ("Mcp-Param-Region", "us-west1"),
            ("Mcp-Param-Priority", "42"),
            ("Mcp-Param-Verbose", "false"),
            ("Mcp-Param-NonAscii", "=?base64?SGVsbG8sIOS4lueVjA==?="),
            ("Mcp-Param-LeadingSpace", "=?base64?IHVzLXdlc3Qx?="),
            ("Mcp-Param-InternalSpace", "us west 1"),
            ("Mcp-Param-CrLf", "=?base64?bGluZTENCmxpbmUy?="),
            ("Mcp-Param-EmptyVal", ""),
        ])
    );
}

#[test]
fn null_or_absent_arguments_send_no_header() {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"region":"us-east1","priority":1,"verbose":null,"query":"SELECT 1"}}}"#;
    assert_eq!(
        headers(body, CUSTOM_SCHEMA).unwrap(),
        pairs(&[
            ("Mcp-Param-Region", "us-east1"),
            ("Mcp-Param-Priority", "1")
        ])
    );
    for args in ["", r#","arguments":null"#, r#","arguments":{}"#] {
        let body = std::format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t"{args}}}}}"#
        );
        assert_eq!(headers(&body, CUSTOM_SCHEMA).unwrap(), [], "{body}");
    }
    let plain = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":1}}}"#;
    assert_eq!(headers(plain, r#"{"type":"object"}"#).unwrap(), []);
}

#[test]
fn refusals() {
    let call = |args: &str| {
        std::format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{args}}}}}"#
        )
    };
    // An argument of another type than designated.
    for args in [
        r#"{"region":7}"#,
        r#"{"priority":"42"}"#,
        r#"{"verbose":"true"}"#,
        r#"{"verbose":1}"#,
        r#"{"region":["a"]}"#,
        r#"[]"#,
    ] {
        assert_eq!(
            headers(&call(args), CUSTOM_SCHEMA),
            Err(HttpError::ParamType),
            "{args}"
        );
    }
    // An invalid schema, another method, a response.
    assert_eq!(
        headers(&call("{}"), &prop(r#""number""#, r#""N""#)),
        Err(HttpError::Designation(DesignationError::NotPrimitive))
    );
    for body in [
        r#"{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"t"}}"#,
        r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"t"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
    ] {
        assert_eq!(
            headers(body, CUSTOM_SCHEMA),
            Err(HttpError::NotAToolCall),
            "{body}"
        );
    }
    // A value whose encoding exceeds the limit.
    let long = "é".repeat(MAX_HEADER_VALUE_BYTES / 2);
    assert_eq!(
        headers(
            &call(&std::format!(r#"{{"region":"{long}"}}"#)),
            CUSTOM_SCHEMA
        ),
        Err(HttpError::ValueTooLong {
            len: (MAX_HEADER_VALUE_BYTES).div_ceil(3) * 4 + 11
        })
    );
}

fn version_error(data: &str) -> String {
    std::format!(
        r#"{{"jsonrpc":"2.0","id":1,"error":{{"code":-32022,"message":"Unsupported protocol version"{data}}}}}"#
    )
}

#[test]
fn unsupported_version_errors_retry_only_when_ours_is_listed() {
    let limits = WireLimits::default();
    let answer = |m: &str| version_answer(m.as_bytes(), &limits, 0).unwrap();
    assert_eq!(
        answer(&version_error(
            r#","data":{"supported":["2025-11-25","2026-07-28"],"requested":"2025-11-25"}"#
        )),
        Some(VersionAnswer::Retry)
    );
    assert_eq!(
        answer(&version_error(
            r#","data":{"supported":["2025-11-25","2026-07-28"]}"#
        )),
        Some(VersionAnswer::Retry)
    );
    for data in [
        r#","data":{"supported":["2025-11-25","2025-06-18"]}"#,
        r#","data":{"supported":[]}"#,
        r#","data":{"supported":"2026-07-28"}"#,
        r#","data":{}"#,
        "",
    ] {
        assert_eq!(
            answer(&version_error(data)),
            Some(VersionAnswer::Unsupported),
            "{data}"
        );
    }
    for other in [
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"x","data":{"supported":["2026-07-28"]}}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        "not json",
    ] {
        assert_eq!(answer(other), None, "{other}");
    }
}

#[test]
fn a_version_already_refused_is_final_not_sent_again() {
    let limits = WireLimits::default();
    assert_eq!(MAX_VERSION_RETRIES, 1);
    // The server refuses the very revision it lists: final at once.
    let ours = version_error(r#","data":{"requested":"2026-07-28","supported":["2026-07-28"]}"#);
    for retries in [0, 1, 2, 1000, u32::MAX] {
        assert_eq!(
            version_answer(ours.as_bytes(), &limits, retries),
            Ok(Some(VersionAnswer::Refused)),
            "{retries}"
        );
    }
    // It names another revision: one resend at ours, then final, however
    // often it answers the same way.
    let other = version_error(r#","data":{"requested":"2025-11-25","supported":["2026-07-28"]}"#);
    assert_eq!(
        version_answer(other.as_bytes(), &limits, 0),
        Ok(Some(VersionAnswer::Retry))
    );
    let mut sent_again = 0u32;
    for retries in 0..1000u32 {
        match version_answer(other.as_bytes(), &limits, retries) {
            Ok(Some(VersionAnswer::Retry)) => sent_again += 1,
            Ok(Some(VersionAnswer::Refused)) => break,
            a => panic!("{a:?}"),
        }
    }
    assert_eq!(sent_again, MAX_VERSION_RETRIES);
    // A server that lists none of ours stays unsupported at any count.
    let none = version_error(r#","data":{"requested":"2026-07-28","supported":["2025-11-25"]}"#);
    assert_eq!(
        version_answer(none.as_bytes(), &limits, 1),
        Ok(Some(VersionAnswer::Unsupported))
    );
}

#[test]
fn a_repeated_member_in_version_error_data_is_refused() {
    let limits = WireLimits::default();
    for (data, offset) in [
        (
            r#","data":{"supported":["2025-11-25"],"supported":["2026-07-28"]}"#,
            40,
        ),
        (
            r#","data":{"supported":["2026-07-28"],"supported":["2025-11-25"]}"#,
            40,
        ),
        (
            r#","data":{"requested":"2025-11-25","supported":["2026-07-28"],"requested":"2026-07-28"}"#,
            65,
        ),
        (r#","data":{"x":1,"x":2}"#, 11),
    ] {
        assert_eq!(
            version_answer(version_error(data).as_bytes(), &limits, 0),
            Err(crate::json::Error {
                kind: crate::json::ErrorKind::DuplicateKey,
                offset
            }),
            "{data}"
        );
    }
}

#[test]
fn a_tools_list_page_is_read_in_place_and_invalid_designations_marked() {
    let result = br#"{"tools":[
        {"name":"get_weather","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}},
        {"name":"bad_space","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"My Header"}}}},
        {"name":"bad_number","inputSchema":{"type":"object","properties":{"n":{"type":"number","x-mcp-header":"N"}}}},
        {"name":"bad_duplicate","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"X"},"b":{"type":"string","x-mcp-header":"x"}}}},
        {"name":"caf\u00e9","inputSchema":{"type":"object"}}
    ],"nextCursor":"page-2"}"#;
    let list = ToolList::parse(result).unwrap();
    assert_eq!(list.len(), 5);
    assert!(!list.is_empty());
    assert!(list.next_cursor().unwrap().eq_str("page-2"));
    let seen: Vec<(String, Result<usize, DesignationError>)> = list
        .iter()
        .map(|t| {
            let t = t.unwrap();
            assert_eq!(t.usable(), t.designations.is_ok());
            (t.name.chars().collect(), t.designations.map(|d| d.len()))
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("get_weather".to_string(), Ok(1)),
            ("bad_space".to_string(), Err(DesignationError::Charset)),
            (
                "bad_number".to_string(),
                Err(DesignationError::NotPrimitive)
            ),
            (
                "bad_duplicate".to_string(),
                Err(DesignationError::Duplicate)
            ),
            ("caf\u{e9}".to_string(), Ok(0)),
        ]
    );
    // get(i) is the same tool as the i-th of iter(); the schema is raw.
    let first = list.get(0).unwrap().unwrap();
    assert_eq!(
        first.input_schema,
        &br#"{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}"#
            [..]
    );
    assert!(list.get(5).is_none());
}

#[test]
fn a_malformed_tools_list_is_refused_and_a_malformed_tool_named() {
    for bad in [
        &b"[]"[..],
        br#"{"tools":{}}"#,
        br#"{}"#,
        br#"{"tools":[],"nextCursor":5}"#,
        br#"{"tools":[],"tools":[]}"#,
    ] {
        assert_eq!(
            ToolList::parse(bad).unwrap_err(),
            ToolListError::NotAList,
            "{bad:?}"
        );
    }
    assert!(matches!(
        ToolList::parse(b"{\"tools\":[").unwrap_err(),
        ToolListError::Json(_)
    ));
    let list = ToolList::parse(
        br#"{"tools":[{"name":"ok","inputSchema":{}},{"inputSchema":{}},{"name":"s","inputSchema":"x"},7],"nextCursor":null}"#,
    )
    .unwrap();
    assert!(list.next_cursor().is_none());
    let got: Vec<_> = list.iter().map(|t| t.err()).collect();
    assert_eq!(
        got,
        [
            None,
            Some(ToolListError::Tool { index: 1 }),
            Some(ToolListError::Tool { index: 2 }),
            Some(ToolListError::Tool { index: 3 })
        ]
    );
    // A page of more than MAX_TOOLS_PER_PAGE tools is refused whole.
    let mut many = String::from(r#"{"tools":["#);
    for i in 0..=MAX_TOOLS_PER_PAGE {
        if i > 0 {
            many.push(',');
        }
        many.push_str(r#"{"name":"t","inputSchema":{}}"#);
    }
    many.push_str("]}");
    assert_eq!(
        ToolList::parse(many.as_bytes()).unwrap_err(),
        ToolListError::TooMany
    );
}

/// A `tools/list` result of `n` tools of about `tool_bytes` bytes each,
/// every one with a designated property.
fn big_page(n: usize, tool_bytes: usize) -> String {
    let mut page = String::from(r#"{"tools":["#);
    for i in 0..n {
        if i > 0 {
            page.push(',');
        }
        let head = std::format!(
            r#"{{"name":"tool-{i:04}","inputSchema":{{"type":"object","properties":{{"region":{{"type":"string","x-mcp-header":"Region"}},"n":{{"type":"integer"}}}}}},"description":""#
        );
        let pad = tool_bytes.saturating_sub(head.len() + 2);
        page.push_str(&head);
        page.extend(core::iter::repeat_n('x', pad));
        page.push_str(r#""}"#);
    }
    page.push_str(r#"],"nextCursor":"c2"}"#);
    page
}

#[test]
fn reading_every_tool_of_a_page_walks_it_a_bounded_number_of_times() {
    // About 1 MiB (the default message limit) of 1,024 tools.
    let page = big_page(MAX_TOOLS_PER_PAGE, 1020);
    let bytes = page.as_bytes();
    assert!(
        bytes.len() > 1_040_000 && bytes.len() <= 1 << 20,
        "{}",
        bytes.len()
    );
    let len = bytes.len();
    crate::json::walked::take();
    let list = ToolList::parse(bytes).unwrap();
    let parse = crate::json::walked::take();
    assert_eq!(len, 1_045_533);
    // The validation and one count of the tools (the walk of the members
    // steps over the array through a skip index).
    assert_eq!(parse, 2 * len - 1045);
    let list_opened = ToolList::open(bytes).unwrap();
    let open = crate::json::walked::take();
    assert_eq!(open, len + 8);
    assert_eq!(list_opened.start(bytes), list.start(bytes));
    // Every tool through the cursor, as the C ABI reads them.
    let mut cursor = list.start(bytes);
    assert_eq!(cursor, ToolCursor::from_parts(0, 10));
    let mut names = Vec::new();
    while let Some(t) = next_tool(bytes, &mut cursor) {
        let t = t.unwrap();
        assert!(t.usable());
        names.push(t.name.chars().collect::<String>());
        // The cursor stands just past the tool it read.
        assert_eq!(cursor.index(), names.len());
        assert_eq!(bytes[cursor.offset() - 1], b'}');
    }
    let walked = crate::json::walked::take();
    assert_eq!(names.len(), MAX_TOOLS_PER_PAGE);
    assert_eq!(names[1023], "tool-1023");
    assert_eq!(cursor.index(), MAX_TOOLS_PER_PAGE);
    // At the end it stays at the end.
    assert!(next_tool(bytes, &mut cursor).is_none());
    // Linear: each tool validated once more, its members walked once and
    // its schema read for designations; one tool at a time from the start
    // would walk about 512 pages (the quadratic read this test keeps out).
    assert_eq!(walked, 2_415_616);
    assert!(walked < 3 * len);
    // The one-pass iterator too.
    let it: usize = list.iter().filter(|t| t.is_ok()).count();
    assert_eq!(it, MAX_TOOLS_PER_PAGE);
    let walked = crate::json::walked::take();
    assert_eq!(walked, 2_415_616);
    // Random access stays correct (and costs O(index)).
    let t = list.get(700).unwrap().unwrap();
    assert_eq!(t.name.chars().collect::<String>(), "tool-0700");
    crate::json::walked::take();
}

#[test]
fn a_cursor_reads_the_same_tools_as_random_access_and_skips_a_bad_one() {
    let page = br#"{"tools":[ {"name":"a","inputSchema":{}} , 7 ,{"name":"b","inputSchema":{"type":"object","properties":{"v":{"type":"number","x-mcp-header":"V"}}}},{"name":"c","inputSchema":{}}] }"#;
    let list = ToolList::parse(page).unwrap();
    let mut cursor = list.start(page);
    let mut seen = Vec::new();
    while let Some(t) = next_tool(page, &mut cursor) {
        let i = cursor.index() - 1;
        let at = list.get(i).unwrap();
        match (t, at) {
            (Ok(t), Ok(a)) => {
                assert_eq!(t.name, a.name);
                assert_eq!(t.input_schema, a.input_schema);
                assert_eq!(t.usable(), a.usable());
                seen.push((t.name.chars().collect::<String>(), t.usable()));
            }
            (Err(e), Err(f)) => {
                assert_eq!(e, f);
                assert_eq!(e, ToolListError::Tool { index: 1 });
                seen.push((String::from("?"), false));
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(
        seen,
        [
            (String::from("a"), true),
            (String::from("?"), false),
            (String::from("b"), false),
            (String::from("c"), true)
        ]
    );
    // A cursor that does not fit the page reads safely.
    let mut wrong = ToolCursor::from_parts(0, page.len() + 5);
    assert!(next_tool(page, &mut wrong).is_none());
    let mut mid = ToolCursor::from_parts(0, 3);
    assert!(matches!(
        next_tool(page, &mut mid),
        Some(Err(ToolListError::Json(_)))
    ));
    assert!(next_tool(page, &mut mid).is_none());
}
