//! What a newcomer reaches for in the first hour works as Rust users expect:
//! every error type is `Display` + `std::error::Error` (so `?` into
//! `Box<dyn Error>` works), `JsonStr` displays its decoded text, the message
//! size limit has a name, and every server build error has a reply writer.

use std::error::Error;
use std::string::ToString;

use mrtr_core::client::run::RunError;
use mrtr_core::client::{CallError, CallLimits};
use mrtr_core::json;
use mrtr_core::server::{write_build_error, AnyAnswerError, BuildError, UnusableAnswer};
use mrtr_core::wire::{ClientCapabilities, Id, ResponseKind, ShapeError};

const MALFORMED: UnusableAnswer = UnusableAnswer::Malformed {
    expected: ResponseKind::Elicit,
};

fn boxed<E: Error + 'static>(e: E) -> Result<(), Box<dyn Error>> {
    Err(e)?
}

#[test]
fn run_errors_are_std_errors_and_convert_with_question_mark() {
    let io = std::io::Error::other("connection reset");
    let e: RunError<std::io::Error> = RunError::Transport(io);
    assert_eq!(e.to_string(), "transport error: connection reset");
    assert_eq!(e.source().unwrap().to_string(), "connection reset");
    let r = boxed(RunError::<std::io::Error>::TooManyUnrelated);
    assert_eq!(
        r.unwrap_err().to_string(),
        "too many unrelated messages while waiting for the answer"
    );
    let call: RunError = RunError::Call(CallError::BadLimits);
    assert_eq!(
        call.to_string(),
        std::format!("the call failed: {}", CallError::BadLimits)
    );
    assert!(call.source().is_some());
    assert_eq!(
        RunError::<std::io::Error>::Unanswered { index: 2 }.to_string(),
        "the application did not answer input 2"
    );
}

#[test]
fn every_server_and_wire_error_is_a_std_error() {
    let shape = ShapeError::Duplicate("role");
    assert_eq!(
        boxed(shape).unwrap_err().to_string(),
        "member \"role\" appears more than once"
    );
    let any = AnyAnswerError {
        error: MALFORMED,
        kind_known: false,
    };
    assert_eq!(
        any.to_string(),
        std::format!("input response of no recognisable kind: {}", MALFORMED)
    );
    assert_eq!(any.source().unwrap().to_string(), MALFORMED.to_string());
    let known = AnyAnswerError {
        kind_known: true,
        ..any
    };
    assert_eq!(known.to_string(), MALFORMED.to_string());
    assert!(boxed(BuildError::EmptyKey).is_err());
}

#[test]
fn json_str_displays_its_decoded_text() {
    let v = json::parse(br#""He said \"hi\"\nok \u00e9""#).unwrap();
    let s = v.as_str().unwrap();
    assert_eq!(s.as_borrowed(), None);
    assert_eq!(s.to_string(), "He said \"hi\"\nok \u{e9}");
    let plain = json::parse(br#""plain""#).unwrap();
    assert_eq!(plain.as_str().unwrap().to_string(), "plain");
}

#[test]
fn the_message_size_limit_is_named_on_call_limits() {
    let mut limits = CallLimits::default();
    assert_eq!(limits.max_message_bytes(), limits.wire.json.max_bytes);
    limits.wire.json.max_bytes = 4096;
    assert_eq!(limits.max_message_bytes(), 4096);
}

#[test]
fn every_build_error_has_a_reply() {
    let mut out = [0u8; 512];
    let id = Id::Number(7);
    let missing = BuildError::MissingCapability {
        missing: ClientCapabilities {
            roots: true,
            ..Default::default()
        },
    };
    let n = write_build_error(&mut out, &id, &missing).unwrap();
    assert_eq!(
        core::str::from_utf8(&out[..n]).unwrap(),
        r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32021,"message":"Missing required client capability","data":{"requiredCapabilities":{"roots":{}}}}}"#
    );
    for e in [
        BuildError::EmptyKey,
        BuildError::DuplicateKey,
        BuildError::InvalidSchema,
        BuildError::BufferTooSmall { needed: 9000 },
    ] {
        let n = write_build_error(&mut out, &id, &e).unwrap();
        assert_eq!(
            core::str::from_utf8(&out[..n]).unwrap(),
            r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"Internal error"}}"#
        );
    }
}
