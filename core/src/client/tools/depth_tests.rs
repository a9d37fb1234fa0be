//! Designations below the top level, safe integers and repeated members
//! on an argument's path, as the client mirrors them (issue 25).

use super::tests::{headers, pairs};
use super::*;
use std::string::{String, ToString};
use std::vec::Vec;

const NESTED_SCHEMA: &str = r#"{"type":"object","properties":{
    "target":{"type":"object","properties":{
        "zone":{"type":"string","x-mcp-header":"Zone"},
        "rack":{"type":"integer","x-mcp-header":"Rack"}}},
    "priority":{"type":"integer","x-mcp-header":"Priority"}}}"#;

fn nested_call(args: &str) -> String {
    std::format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{args}}}}}"#
    )
}

#[test]
fn a_nested_designated_argument_is_mirrored_by_its_path() {
    assert_eq!(
        headers(
            &nested_call(r#"{"target":{"zone":"eu west","rack":7},"priority":1}"#),
            NESTED_SCHEMA
        )
        .unwrap(),
        pairs(&[
            ("Mcp-Param-Zone", "eu west"),
            ("Mcp-Param-Rack", "7"),
            ("Mcp-Param-Priority", "1"),
        ])
    );
    // A missing, null or non-object intermediate: the argument is absent.
    for args in [
        r#"{"priority":1}"#,
        r#"{"target":null,"priority":1}"#,
        r#"{"target":"eu","priority":1}"#,
        r#"{"target":{"zone":null},"priority":1,"zone":"top"}"#,
    ] {
        assert_eq!(
            headers(&nested_call(args), NESTED_SCHEMA).unwrap(),
            pairs(&[("Mcp-Param-Priority", "1")]),
            "{args}"
        );
    }
    // A member repeated on the path: refused, nothing mirrored.
    for args in [
        r#"{"target":{"zone":"a","zone":"b"}}"#,
        r#"{"target":{"zone":"a"},"target":{"zone":"b"}}"#,
        r#"{"priority":1,"priority":2}"#,
    ] {
        assert_eq!(
            headers(&nested_call(args), NESTED_SCHEMA),
            Err(HttpError::RepeatedMember),
            "{args}"
        );
    }
}

#[test]
fn a_designated_integer_must_be_a_safe_integer_and_is_sent_in_canonical_form() {
    for (value, sent) in [
        ("42", "42"),
        ("-7", "-7"),
        ("1e2", "100"),
        ("3.0", "3"),
        ("-0", "0"),
        ("9007199254740991", "9007199254740991"),
        ("-9007199254740991", "-9007199254740991"),
    ] {
        assert_eq!(
            headers(
                &nested_call(&std::format!(r#"{{"priority":{value}}}"#)),
                NESTED_SCHEMA
            )
            .unwrap(),
            pairs(&[("Mcp-Param-Priority", sent)]),
            "{value}"
        );
    }
    for value in [
        "1.5",
        "9007199254740992",
        "9007199254740993",
        "1e400",
        "-1e16",
    ] {
        assert_eq!(
            headers(
                &nested_call(&std::format!(r#"{{"priority":{value}}}"#)),
                NESTED_SCHEMA
            ),
            Err(HttpError::NotSafeInteger),
            "{value}"
        );
        // Nested too.
        assert_eq!(
            headers(
                &nested_call(&std::format!(r#"{{"target":{{"rack":{value}}}}}"#)),
                NESTED_SCHEMA
            ),
            Err(HttpError::NotSafeInteger),
            "{value}"
        );
    }
    assert_eq!(
        HttpError::NotSafeInteger.to_string(),
        "a designated integer argument is not a safe integer"
    );
}

#[test]
fn a_tool_with_a_designation_off_the_properties_chain_is_not_usable() {
    let result = br#"{"tools":[
        {"name":"nested","inputSchema":{"type":"object","properties":{"t":{"type":"object","properties":{"z":{"type":"string","x-mcp-header":"Z"}}}}}},
        {"name":"items","inputSchema":{"type":"object","properties":{"l":{"type":"array","items":{"type":"string","x-mcp-header":"L"}}}}},
        {"name":"anyof","inputSchema":{"type":"object","anyOf":[{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}]}},
        {"name":"twice","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A","x-mcp-header":"B"}}}}]}"#;
    let list = ToolList::parse(result).unwrap();
    let got: Vec<_> = list
        .iter()
        .map(|t| {
            let t = t.unwrap();
            (
                t.name.chars().collect::<String>(),
                t.designations.map(|d| d.len()),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("nested".to_string(), Ok(1)),
            ("items".to_string(), Err(DesignationError::Unreachable)),
            ("anyof".to_string(), Err(DesignationError::Unreachable)),
            ("twice".to_string(), Err(DesignationError::Repeated)),
        ]
    );
    // The client refuses to mirror (and so to call) the excluded tools.
    let schema =
        r#"{"properties":{"l":{"type":"array","items":{"type":"string","x-mcp-header":"L"}}}}"#;
    assert_eq!(
        headers(&nested_call(r#"{"l":["x"]}"#), schema),
        Err(HttpError::Designation(DesignationError::Unreachable))
    );
}
