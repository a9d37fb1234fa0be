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
            Err(HttpError::NotARequest),
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

#[test]
fn unsupported_version_errors_retry_only_when_ours_is_listed() {
    let limits = WireLimits::default();
    let err = |data: &str| {
        std::format!(
            r#"{{"jsonrpc":"2.0","id":1,"error":{{"code":-32022,"message":"Unsupported protocol version"{data}}}}}"#
        )
    };
    let answer = |m: &str| version_answer(m.as_bytes(), &limits);
    assert_eq!(
        answer(&err(
            r#","data":{"supported":["2026-07-28"],"requested":"2026-07-28"}"#
        )),
        Some(VersionAnswer::Retry)
    );
    assert_eq!(
        answer(&err(r#","data":{"supported":["2025-11-25","2026-07-28"]}"#)),
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
            answer(&err(data)),
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
