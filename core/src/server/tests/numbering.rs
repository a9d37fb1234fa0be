//! The numbers and names the C API shows, owned here: each table read both
//! ways, and the names agree with the wire.

use super::*;
use crate::param_headers::{check_param_header_list, Designations, ParamHeaderError};
use crate::wire::ResponseKind;

#[test]
fn each_named_method_has_one_number_and_other_methods_are_zero() {
    let named = [
        (1, Method::ToolsCall, "tools/call"),
        (2, Method::PromptsGet, "prompts/get"),
        (3, Method::ResourcesRead, "resources/read"),
        (4, Method::TasksGet, "tasks/get"),
        (5, Method::TasksResult, "tasks/result"),
        (6, Method::TasksCancel, "tasks/cancel"),
        (7, Method::TasksInputResponse, "tasks/input_response"),
        (8, Method::TasksUpdate, "tasks/update"),
    ];
    for (code, m, name) in named {
        assert_eq!(m.code(), code);
        assert_eq!(Method::from_code(code), Some(m));
        assert_eq!(m.name(), Some(name));
    }
    assert_eq!(Method::from_code(0), None);
    assert_eq!(Method::from_code(9), None);
    assert_eq!(Method::from_code(u32::MAX), None);
    let other = crate::json::parse(br#""ping""#).unwrap().as_str().unwrap();
    assert_eq!(Method::Other(other).code(), 0);
}

#[test]
fn field_c_name_is_the_wire_name() {
    let all = [
        Field::Params,
        Field::Meta,
        Field::ProtocolVersion,
        Field::ClientCapabilities,
        Field::ClientInfo,
        Field::RelatedTask,
        Field::Name,
        Field::Uri,
        Field::Arguments,
        Field::Task,
        Field::InputResponses,
        Field::RequestState,
        Field::TaskId,
    ];
    for f in all {
        assert_eq!(f.c_name().to_str(), Ok(f.wire_name()));
    }
}

#[test]
fn request_errors_name_their_kind_field_and_whether_a_bound_was_hit() {
    use RequestErrorKind as K;
    let cases = [
        (K::Missing(Field::Name), "Missing", Some(Field::Name), false),
        (
            K::Malformed(Field::Uri),
            "Malformed",
            Some(Field::Uri),
            false,
        ),
        (
            K::Duplicate(Field::Task),
            "Duplicate",
            Some(Field::Task),
            false,
        ),
        (
            K::TooManyInputResponses,
            "TooManyInputResponses",
            Some(Field::InputResponses),
            true,
        ),
        (
            K::InputResponseKeyTooLong,
            "InputResponseKeyTooLong",
            Some(Field::InputResponses),
            true,
        ),
        (
            K::DuplicateInputResponseKey,
            "DuplicateInputResponseKey",
            Some(Field::InputResponses),
            false,
        ),
        (
            K::InputResponseNotAnObject,
            "InputResponseNotAnObject",
            Some(Field::InputResponses),
            false,
        ),
        (
            K::RepeatedMember { offset: 3 },
            "RepeatedMember",
            Some(Field::Params),
            false,
        ),
        (
            K::TooManyMembers { offset: 3 },
            "TooManyMembers",
            Some(Field::Params),
            true,
        ),
        // JSON and envelope errors name their detail.
        (
            K::Envelope(crate::wire::EnvelopeError::BadId),
            "BadId",
            None,
            false,
        ),
        (
            K::Json(crate::json::Error {
                kind: crate::json::ErrorKind::TooDeep,
                offset: 9,
            }),
            "TooDeep",
            None,
            false,
        ),
    ];
    for (k, name, field, limit) in cases {
        assert_eq!(k.name().to_str(), Ok(name));
        assert_eq!(k.field(), field);
        assert_eq!(k.is_limit(), limit);
    }
}

#[test]
fn build_errors_name_themselves_and_only_input_faults_are_bad_input() {
    assert_eq!(BuildError::EmptyKey.name().to_str(), Ok("EmptyKey"));
    assert_eq!(
        BuildError::InvalidSamplingParams.name().to_str(),
        Ok("InvalidSamplingParams")
    );
    let missing = crate::wire::ClientCapabilities::default();
    assert_eq!(
        BuildError::MissingCapability { missing }.name().to_str(),
        Ok("MissingCapability")
    );
    assert!(BuildError::InvalidUrl.is_bad_input());
    assert!(BuildError::KeyTooLong { max: 1 }.is_bad_input());
    assert!(!BuildError::TooManyRequests { max: 1 }.is_bad_input());
    assert!(!BuildError::MissingCapability { missing }.is_bad_input());
    assert!(!BuildError::Empty.is_bad_input());
}

#[test]
fn response_kinds_are_numbered_one_to_three() {
    for (code, k) in [
        (1, ResponseKind::Elicit),
        (2, ResponseKind::Sampling),
        (3, ResponseKind::Roots),
    ] {
        assert_eq!(k as u32, code);
        assert_eq!(ResponseKind::from_code(code), Some(k));
    }
    assert_eq!(ResponseKind::from_code(0), None);
    assert_eq!(ResponseKind::from_code(4), None);
}

#[test]
fn input_kinds_are_numbered_one_to_four() {
    use crate::wire::InputKind;
    for (code, k) in [
        (1, InputKind::ElicitForm),
        (2, InputKind::ElicitUrl),
        (3, InputKind::Sampling),
        (4, InputKind::Roots),
    ] {
        assert_eq!(k as u32, code);
        assert_eq!(InputKind::from_code(code), Some(k));
    }
    assert_eq!(InputKind::from_code(0), None);
    assert_eq!(InputKind::from_code(5), None);
    assert_eq!(InputKind::from_code(u32::MAX), None);
}

const SCHEMA: &[u8] =
    br#"{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}"#;

#[test]
fn a_designated_param_header_sent_twice_is_refused_before_comparing() {
    let d = Designations::parse(SCHEMA).unwrap();
    let args = crate::json::parse(br#"{"region":"eu"}"#)
        .unwrap()
        .as_object();
    let twice = [("mcp-param-region", "eu"), ("Mcp-Param-REGION", "us")];
    let (why, at) = check_param_header_list(&d, args, twice.into_iter()).unwrap_err();
    assert_eq!(why, ParamHeaderError::Repeated);
    assert_eq!(at.header.raw_inner(), b"Region");
    // Once, with other headers around and the value padded: it matches.
    let once = [("Accept", "x"), ("MCP-PARAM-Region", " \teu ")];
    assert_eq!(check_param_header_list(&d, args, once.into_iter()), Ok(()));
    // A bare prefix names no header.
    let bare = [("Mcp-Param-", "eu")];
    let (why, _) = check_param_header_list(&d, args, bare.into_iter()).unwrap_err();
    assert_eq!(why, ParamHeaderError::Missing);
}

#[test]
fn param_header_errors_carry_the_c_numbers() {
    use ParamHeaderError as E;
    let all = [
        E::Missing,
        E::Unexpected,
        E::BadEncoding,
        E::Mismatch,
        E::Repeated,
        E::RepeatedMember,
    ];
    for (i, e) in all.into_iter().enumerate() {
        assert_eq!(e as u32, i as u32 + 1);
    }
}

#[test]
fn answer_errors_are_numbered_one_wrong_kind_two_malformed() {
    let (e, s) = (ResponseKind::Elicit, ResponseKind::Sampling);
    let wrong = UnusableAnswer::WrongKind {
        expected: e,
        found: s,
    };
    let malformed = UnusableAnswer::Malformed { expected: e };
    assert_eq!((wrong.number(), wrong.found()), (1, Some(s)));
    assert_eq!((malformed.number(), malformed.found()), (2, None));
    assert_eq!(UnusableAnswer::from_number(1, e, Some(s)), Some(wrong));
    assert_eq!(UnusableAnswer::from_number(2, e, Some(s)), Some(malformed));
    assert_eq!(UnusableAnswer::from_number(1, e, None), None);
    assert_eq!(UnusableAnswer::from_number(3, e, Some(s)), None);
}
