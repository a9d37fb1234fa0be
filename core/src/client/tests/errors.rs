//! The `Display` text and `source` of every client error.

use crate::client::call::{AnswerError, CallError, ParamsError, Phase, RpcError, SaveError};
#[cfg(feature = "form")]
use crate::client::form::{ContentError, FieldError, SchemaError, SchemaErrorKind, WriteError};
use crate::client::http::HttpError;
use crate::client::roots::{PathError, RootUriError, RootsError};
use crate::json::{self, ErrorKind, JsonStr};
use crate::wire::{EnvelopeError, InputKind, Violation, WireError};
use core::error::Error as _;
use std::string::ToString;

fn json_str(token: &'static str) -> JsonStr<'static> {
    json::parse(token.as_bytes()).unwrap().as_str().unwrap()
}

const JSON_ERROR: json::Error = json::Error {
    kind: ErrorKind::TrailingCharacters,
    offset: 3,
};

#[test]
fn call_errors_display_their_numbers_and_causes() {
    let cases = [
        (CallError::BadLimits, "limits cannot be laid out"),
        (
            CallError::WorkspaceTooSmall { needed: 4096 },
            "workspace too small: needs 4096 bytes",
        ),
        (
            CallError::BadParams(ParamsError::Reserved),
            "bad params: params contain inputResponses or requestState",
        ),
        (
            CallError::BadParams(ParamsError::NotJson(JSON_ERROR)),
            "bad params: params are not valid JSON: TrailingCharacters at byte 3",
        ),
        (
            CallError::ParamsTooLarge {
                needed: 900,
                limit: 512,
            },
            "params too large: needs 900 bytes, limit 512",
        ),
        (
            CallError::WrongState(Phase::Answering),
            "not possible in phase Answering",
        ),
        (
            CallError::IdNotFresh { id: 3, last: 7 },
            "id 3 is not greater than the last id 7",
        ),
        (
            CallError::IdOutOfRange(1 << 60),
            "id 1152921504606846976 is outside +-(2^53-1)",
        ),
        (
            CallError::BufferTooSmall { needed: 77 },
            "output buffer too small: needs 77 bytes",
        ),
        (
            CallError::Unanswered { index: 2 },
            "input 2 has no answer yet",
        ),
        (
            CallError::BadAnswer {
                index: 1,
                error: AnswerError::KindMismatch {
                    expected: InputKind::Roots,
                },
            },
            "answer to input 1 refused: answer does not match the Roots request",
        ),
        (
            CallError::Malformed(WireError::Envelope(EnvelopeError::BadId)),
            "malformed response: not JSON-RPC 2.0: id is missing or not a string or integer",
        ),
        (
            CallError::Protocol(Violation::BadRequestState),
            "protocol violation: requestState is not a string",
        ),
        (
            CallError::StateTooLarge {
                needed: 70_000,
                limit: 65_536,
            },
            "requestState too large: needs 70000 bytes, limit 65536",
        ),
        (
            CallError::TooManyRounds { limit: 8 },
            "more than 8 input_required rounds",
        ),
        (
            CallError::TooManyPolls { limit: 100 },
            "task polled more than 100 times",
        ),
        (
            CallError::AnsweredWithError { index: 0, code: -1 },
            "input 0 answered with error -1",
        ),
        (
            CallError::BadSave(SaveError::Version(9)),
            "bad save: save of format version 9, expected 1",
        ),
    ];
    for (error, text) in cases {
        assert_eq!(error.to_string(), text, "{error:?}");
    }
}

#[test]
fn call_error_sources_are_the_wrapped_errors() {
    let inner = ParamsError::NotJson(JSON_ERROR);
    let e = CallError::BadParams(inner);
    let source = e.source().expect("BadParams has a source");
    assert_eq!(source.to_string(), inner.to_string());
    // And one level further down, the JSON error itself.
    assert_eq!(
        source.source().expect("NotJson has a source").to_string(),
        "TrailingCharacters at byte 3"
    );
    let e = CallError::Malformed(WireError::Protocol(Violation::BadTask));
    assert_eq!(
        e.source().unwrap().to_string(),
        "MRTR violation: malformed task record"
    );
    let e = CallError::BadAnswer {
        index: 4,
        error: AnswerError::Wrapped,
    };
    assert_eq!(
        e.source().unwrap().to_string(),
        AnswerError::Wrapped.to_string()
    );
    assert!(CallError::WorkspaceTooSmall { needed: 1 }
        .source()
        .is_none());
}

#[test]
fn params_answer_and_save_errors_display() {
    assert_eq!(
        ParamsError::MissingTarget.to_string(),
        "params lack a string name or uri"
    );
    assert_eq!(ParamsError::BadTaskId.to_string(), "task id is empty");
    assert_eq!(
        AnswerError::NotJson(JSON_ERROR).to_string(),
        "answer is not valid JSON: TrailingCharacters at byte 3"
    );
    assert_eq!(
        AnswerError::Wrapped.to_string(),
        "answer is wrapped in {\"result\": ..}"
    );
    assert_eq!(
        AnswerError::ContentRequired.to_string(),
        "form accept needs content"
    );
    assert_eq!(SaveError::Decode.to_string(), "not a save");
    assert_eq!(
        SaveError::WrongKind.to_string(),
        "save of a task given to a call, or the reverse"
    );
}

#[test]
fn rpc_error_displays_code_and_decoded_message() {
    let e = RpcError {
        code: -32602,
        message: json_str(r#""Invalid params: \u00e9t\u00e9 \"x\"""#),
        data: None,
    };
    assert_eq!(
        e.to_string(),
        "JSON-RPC error -32602: Invalid params: \u{e9}t\u{e9} \"x\""
    );
}

#[test]
fn roots_errors_display_offsets_and_indexes() {
    assert_eq!(RootUriError::NotFileUri.to_string(), "not a file:// URI");
    assert_eq!(
        RootUriError::EncodedSlash { offset: 12 }.to_string(),
        "encoded slash at byte 12"
    );
    assert_eq!(
        RootUriError::MustBeEncoded { offset: 9 }.to_string(),
        "character that must be percent-encoded at byte 9"
    );
    let e = RootsError::InvalidRoot {
        index: 2,
        error: RootUriError::DotSegment,
    };
    assert_eq!(e.to_string(), "root 2: path has a . or .. segment");
    assert_eq!(
        e.source().unwrap().to_string(),
        RootUriError::DotSegment.to_string()
    );
    assert_eq!(
        RootsError::BufferTooSmall { needed: 31 }.to_string(),
        "output buffer too small: needs 31 bytes"
    );
    assert_eq!(PathError::NotAbsolute.to_string(), "path is not absolute");
    assert_eq!(
        PathError::BufferTooSmall { needed: 18 }.to_string(),
        "output buffer too small: needs 18 bytes"
    );
}

#[cfg(feature = "form")]
#[test]
fn form_errors_display_the_field_and_cause() {
    let name = json_str(r#""e\u006dail""#);
    let e = ContentError {
        field: name,
        error: FieldError::BadEmail,
    };
    assert_eq!(e.to_string(), "field \"email\": not an email address");
    assert_eq!(e.source().unwrap().to_string(), "not an email address");
    assert_eq!(
        WriteError::MissingRequired(name).to_string(),
        "required field \"email\" not set"
    );
    let e = WriteError::Invalid(FieldError::TooLong { max: 8 });
    assert_eq!(e.to_string(), "invalid value: at most 8 characters");
    assert_eq!(e.source().unwrap().to_string(), "at most 8 characters");
    assert_eq!(
        WriteError::BufferTooSmall { needed: 5 }.to_string(),
        "output buffer too small: needs 5 bytes"
    );
    assert_eq!(WriteError::AlreadySet.to_string(), "field already set");

    // The kind alone reads as the error did after its prefix.
    let kind = SchemaErrorKind::UnsupportedKeyword(json_str(r#""$ref""#));
    assert_eq!(kind.to_string(), "unsupported keyword \"$ref\"");
    let e = SchemaError {
        property: Some(name),
        kind: SchemaErrorKind::InvalidDefault(FieldError::Missing),
    };
    assert_eq!(
        e.to_string(),
        "property \"email\": invalid default: required"
    );
    assert_eq!(e.source().unwrap().to_string(), "required");
}

#[test]
fn http_error_source_is_the_wire_error() {
    let inner = WireError::Json(JSON_ERROR);
    let e = HttpError::Wire(inner);
    assert_eq!(e.source().unwrap().to_string(), inner.to_string());
    assert!(HttpError::BadMethod.source().is_none());
    // The inner error's own text, not its Debug form.
    assert_eq!(
        e.to_string(),
        "unreadable message: invalid JSON: TrailingCharacters at byte 3"
    );
    assert_eq!(
        HttpError::Wire(WireError::Envelope(EnvelopeError::BadMethod)).to_string(),
        "unreadable message: not JSON-RPC 2.0: method is not a string"
    );
}

#[cfg(all(feature = "form", feature = "url"))]
#[test]
fn helper_errors_display_and_are_errors() {
    use crate::client::sse::SseError;
    use crate::client::url::UrlError;
    fn is_error<E: core::error::Error>(e: E) -> std::string::String {
        e.to_string()
    }
    assert_eq!(
        is_error(UrlError::BadHost { offset: 11 }),
        "invalid host character at byte 11"
    );
    assert_eq!(
        is_error(SseError::EventTooLarge { limit: 64 }),
        "SSE event data exceeds 64 bytes"
    );
    assert_eq!(
        is_error(HttpError::BufferTooSmall { needed: 40 }),
        "header buffer too small: 40 bytes needed"
    );
    assert_eq!(is_error(FieldError::NotAnOption), "not one of the options");
}

#[test]
fn failure_records_exist_exactly_for_terminal_errors_with_their_numbers() {
    use crate::client::errors::{Failure, FailureKind};
    let of = |kind| Failure {
        kind,
        offset: 0,
        index: 0,
        code: 0,
        needed: 0,
        limit: 0,
    };
    let cases = [
        (
            CallError::Malformed(WireError::Json(JSON_ERROR)),
            Some(Failure {
                offset: 3,
                ..of(FailureKind::Json)
            }),
        ),
        (
            CallError::Malformed(WireError::Envelope(EnvelopeError::BadId)),
            Some(of(FailureKind::Envelope)),
        ),
        (
            CallError::Malformed(WireError::Protocol(Violation::BadTask)),
            Some(of(FailureKind::Protocol)),
        ),
        (
            CallError::Protocol(Violation::UndeclaredCapability),
            Some(of(FailureKind::Protocol)),
        ),
        (
            CallError::InputsTooLarge {
                needed: 9,
                limit: 8,
            },
            Some(Failure {
                needed: 9,
                limit: 8,
                ..of(FailureKind::InputsTooLarge)
            }),
        ),
        (
            CallError::StateTooLarge {
                needed: 5,
                limit: 4,
            },
            Some(Failure {
                needed: 5,
                limit: 4,
                ..of(FailureKind::StateTooLarge)
            }),
        ),
        (
            CallError::TooManyRounds { limit: 10 },
            Some(Failure {
                limit: 10,
                ..of(FailureKind::TooManyRounds)
            }),
        ),
        (
            CallError::TooManyStateOnlyRounds { limit: 3 },
            Some(Failure {
                limit: 3,
                ..of(FailureKind::TooManyStateOnlyRounds)
            }),
        ),
        (
            CallError::TooManyPolls { limit: 7 },
            Some(Failure {
                limit: 7,
                ..of(FailureKind::TooManyPolls)
            }),
        ),
        (
            CallError::AnsweredWithError { index: 2, code: -9 },
            Some(Failure {
                index: 2,
                code: -9,
                ..of(FailureKind::AnsweredWithError)
            }),
        ),
        (CallError::BadLimits, None),
        (CallError::UnknownKey, None),
        (CallError::WrongState(Phase::Done), None),
    ];
    for (e, want) in cases {
        assert_eq!(e.failure(), want, "{e:?}");
        assert_eq!(e.failure().is_some(), e.is_terminal(), "{e:?}");
    }
    assert_eq!(FailureKind::Json as u8, 1);
    assert_eq!(FailureKind::AnsweredWithError as u8, 9);
    assert_eq!(
        FailureKind::TooManyStateOnlyRounds.name().to_str(),
        Ok("TooManyStateOnlyRounds")
    );
}

/// A C caller learns which cause it met: `CallError::name` goes down to the
/// refused answer's and the refused save's own cause, not the wrapper's.
#[test]
fn call_error_names_the_answer_and_save_cause_not_the_wrapper() {
    use crate::client::call::SaveInvariant;
    let name = |e: CallError| e.name().to_str().unwrap();
    let answer = |error| CallError::BadAnswer { index: 1, error };
    assert_eq!(
        name(answer(AnswerError::ContentRequired)),
        "ContentRequired"
    );
    assert_eq!(
        name(answer(AnswerError::ContentNotAllowed)),
        "ContentNotAllowed"
    );
    assert_eq!(name(answer(AnswerError::Wrapped)), "Wrapped");
    assert_eq!(
        name(answer(AnswerError::BadMember { member: "role" })),
        "BadMember"
    );
    assert_eq!(name(answer(AnswerError::NotJson(JSON_ERROR))), "NotJson");
    #[cfg(feature = "form")]
    assert_eq!(
        name(answer(AnswerError::FormContent {
            error: FieldError::NotAnOption
        })),
        "NotAnOption"
    );
    assert_eq!(name(CallError::BadSave(SaveError::Decode)), "Decode");
    assert_eq!(name(CallError::BadSave(SaveError::Version(9))), "Version");
    assert_eq!(
        name(CallError::BadSave(SaveError::Invariant(
            SaveInvariant::BadHead
        ))),
        "BadHead"
    );
    assert_eq!(
        name(CallError::BadSave(SaveError::Invariant(
            SaveInvariant::PartlyAnswered {
                answered: 1,
                inputs: 2
            }
        ))),
        "PartlyAnswered"
    );
    assert_eq!(
        name(CallError::AlreadyAnswered { index: 0 }),
        "AlreadyAnswered"
    );
    assert_eq!(
        name(CallError::Protocol(Violation::InputRequiredWithoutFields)),
        "InputRequiredWithoutFields"
    );
    assert_eq!(
        name(CallError::Malformed(WireError::Json(JSON_ERROR))),
        "TrailingCharacters"
    );
}

/// The client's errors take their names from packed tables (one string per
/// enum, a name found by its offset, `crate::names`): each name is still
/// its variant's identifier, byte for byte, including names that end
/// another name in the same table.
#[test]
fn packed_client_error_names_are_the_variant_names() {
    use crate::client::call::{SaveInvariant as I, SaveRegion};
    use crate::client::errors::FailureKind as K;
    use std::format;
    // The identifier Debug prints before any fields.
    fn check(name: &core::ffi::CStr, debug: std::string::String) {
        let ident: std::string::String = debug
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        assert_eq!(name.to_str(), Ok(ident.as_str()), "{debug}");
    }
    let kinds = [
        K::Json,
        K::Envelope,
        K::Protocol,
        K::InputsTooLarge,
        K::StateTooLarge,
        K::TooManyRounds,
        K::TooManyStateOnlyRounds,
        K::TooManyPolls,
        K::AnsweredWithError,
    ];
    for k in kinds {
        check(k.name(), format!("{k:?}"));
    }
    let params = [
        ParamsError::NotJson(JSON_ERROR),
        ParamsError::NotAnObject,
        ParamsError::Reserved,
        ParamsError::MissingTarget,
        ParamsError::BadMeta,
        ParamsError::BadTask,
        ParamsError::BadTaskId,
        ParamsError::TasksNotDeclared,
        ParamsError::RepeatedMember,
        ParamsError::TooManyMembers,
    ];
    for p in params {
        check(p.name(), format!("{p:?}"));
    }
    let invariants = [
        I::UnknownPhase(9),
        I::UnknownVariant(9),
        I::UnknownNextRequest(9),
        I::TooLarge {
            region: SaveRegion::Head,
            len: 2,
            limit: 1,
        },
        I::BadHead,
        I::ProtocolVersion,
        I::TasksNotDeclared,
        I::BadInputs,
        I::UndeclaredInput,
        I::BadRequestState,
        I::BadAnswerRecord,
        I::AnswerKeyNotAsked { index: 1 },
        I::DuplicateAnswer { index: 1 },
        I::BadAnswer {
            index: 1,
            error: AnswerError::Wrapped,
        },
        I::TooManyRounds {
            rounds: 2,
            limit: 1,
        },
        I::TooManyStateOnlyRounds { count: 2, limit: 1 },
        I::TooManyPolls { polls: 2, limit: 1 },
        I::RoundNotCounted,
        I::StateOnlyWithInputs,
        I::IdOutOfRange(-1),
        I::SentWithoutRequest,
        I::InFlightNotLast,
        I::InFlightOutsideSent,
        I::PartlyAnswered {
            answered: 1,
            inputs: 2,
        },
        I::AnsweringWithoutInputs,
        I::AnsweringOtherRequest,
        I::RespondWithoutInputs,
        I::CancelNotSent,
    ];
    for i in invariants {
        check(i.name(), format!("{i:?}"));
    }
    // A name that ends a longer one is found inside it: the same C string.
    assert_eq!(
        I::TooLarge {
            region: SaveRegion::Head,
            len: 2,
            limit: 1
        }
        .name(),
        c"TooLarge"
    );
    assert_eq!(SaveError::Version(9).name(), c"Version");
    assert_eq!(CallError::IdsExhausted.name(), c"IdsExhausted");
    assert_eq!(CallError::NotATask.name(), c"NotATask");
}
