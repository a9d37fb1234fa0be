//! The jobs, the contenders, and the startup check that they agree.

use crate::contenders::{ffi, mrtr, rmcp_sdk, serde_raw, serde_value, simd};
use crate::inputs::Input;
pub use crate::kit::{answers, Runner, ServerSummary, Summary};

/// The retry request mrtr's client writes for `input`: the bytes of every
/// contender's `server parse` job.
pub fn retry_request(input: &Input) -> Vec<u8> {
    mrtr::Leg::new()
        .run(&input.bytes)
        .expect("mrtr writes a retry for every input")
        .to_vec()
}

/// A job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Job {
    /// Only check that the bytes are one valid JSON document (the C ABI's
    /// one entry point on main; also run through the Rust API to show what
    /// crossing the boundary costs).
    Validate,
    /// Parse, classify, expose keys / kinds / messages / state.
    Parse,
    /// Parse, answer every input, write the retry request.
    Leg,
    /// The server's side of the retry: parse the request mrtr's `leg`
    /// writes for the input (envelope, `_meta`, `name`, `arguments`,
    /// `inputResponses`, `requestState`) and expose what a server reads.
    ServerParse,
}

impl Job {
    /// Every job.
    pub const ALL: [Job; 4] = [Job::Validate, Job::Parse, Job::Leg, Job::ServerParse];

    /// Its name in tables and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Job::Validate => "validate",
            Job::Parse => "parse+classify",
            Job::Leg => "client leg",
            Job::ServerParse => "server parse",
        }
    }

    /// The job named `name`.
    pub fn parse(name: &str) -> Option<Job> {
        Job::ALL.into_iter().find(|j| j.name() == name)
    }
}

/// A contender.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contender {
    /// mrtr-core through its Rust API.
    Mrtr,
    /// mrtr through the C ABI of the release `libmrtr.a`.
    MrtrC,
    /// mrtr's Rust `Call` doing what the C ABI's `parse` does (init, first
    /// request, feed, every input): the Rust side of the C ABI comparison.
    MrtrCall,
    /// rmcp 3.11.0 model types with serde_json.
    Rmcp,
    /// serde_json into borrowed structs with `RawValue`.
    SerdeRaw,
    /// serde_json borrowed with `RawValue`, reading only what classifies
    /// (`method`, `params.mode`) to a kind, the params kept raw: issue 27's
    /// floor. Its `validate` is one `&RawValue` parse of the message.
    SerdeKind,
    /// serde_json into `Value`.
    SerdeValue,
    /// simd-json's tape.
    SimdTape,
    /// simd-json's borrowed value.
    SimdBorrowed,
}

impl Contender {
    /// Every contender, mrtr first.
    pub const ALL: [Contender; 9] = [
        Contender::Mrtr,
        Contender::MrtrC,
        Contender::MrtrCall,
        Contender::Rmcp,
        Contender::SerdeRaw,
        Contender::SerdeKind,
        Contender::SerdeValue,
        Contender::SimdTape,
        Contender::SimdBorrowed,
    ];

    /// Its name in tables and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Contender::Mrtr => "mrtr",
            Contender::MrtrC => "mrtr C ABI",
            Contender::MrtrCall => "mrtr Call",
            Contender::Rmcp => "rmcp 3.11.0",
            Contender::SerdeRaw => "serde_json RawValue",
            Contender::SerdeKind => "serde_json RawValue kind",
            Contender::SerdeValue => "serde_json Value",
            Contender::SimdTape => "simd-json tape",
            Contender::SimdBorrowed => "simd-json borrowed",
        }
    }

    /// The contender named `name`.
    pub fn parse(name: &str) -> Option<Contender> {
        Contender::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Whether this contender is mrtr (its jobs must not allocate).
    pub fn is_mrtr(self) -> bool {
        matches!(
            self,
            Contender::Mrtr | Contender::MrtrC | Contender::MrtrCall
        )
    }
}

/// The runner of `job` by `contender` on `input`, or `None` when the
/// contender does not do that job (simd-json's tape cannot build a retry).
pub fn runner(contender: Contender, job: Job, input: &Input) -> Option<Runner> {
    let bytes = input.bytes.clone();
    match (contender, job) {
        (Contender::Mrtr, Job::ServerParse) => {
            Some(mrtr::server_parse_runner(retry_request(input)))
        }
        (Contender::SerdeRaw, Job::ServerParse) => {
            Some(serde_raw::server_parse_runner(retry_request(input)))
        }
        (Contender::Mrtr, Job::Validate) => Some(mrtr::validate_runner(bytes)),
        (Contender::MrtrC, Job::Validate) => Some(ffi::validate_runner(bytes)),
        (Contender::MrtrC, Job::Parse) => Some(ffi::parse_runner(bytes)),
        (Contender::MrtrCall, Job::Parse) => Some(mrtr::call_parse_runner(bytes)),
        (Contender::MrtrC, Job::Leg) => Some(ffi::leg_runner(bytes)),
        (Contender::Mrtr, Job::Parse) => Some(mrtr::parse_runner(bytes)),
        (Contender::Mrtr, Job::Leg) => Some(mrtr::leg_runner(bytes)),
        (Contender::Rmcp, Job::Parse) => Some(rmcp_sdk::parse_runner(bytes)),
        (Contender::Rmcp, Job::Leg) => Some(rmcp_sdk::leg_runner(bytes)),
        (Contender::SerdeRaw, Job::Validate) => Some(serde_raw::validate_runner(bytes)),
        (Contender::SerdeRaw, Job::Parse) => Some(serde_raw::parse_runner(bytes)),
        (Contender::SerdeRaw, Job::Leg) => Some(serde_raw::leg_runner(bytes)),
        (Contender::SerdeKind, Job::Validate) => Some(serde_raw::raw_value_runner(bytes)),
        (Contender::SerdeKind, Job::Parse) => Some(serde_raw::parse_kind_runner(bytes)),
        (Contender::SerdeValue, Job::Parse) => Some(serde_value::parse_runner(bytes)),
        (Contender::SerdeValue, Job::Leg) => Some(serde_value::leg_runner(bytes)),
        (Contender::SimdTape, Job::Validate) => Some(simd::validate_runner(bytes)),
        (Contender::SimdTape, Job::Parse) => Some(simd::tape_parse_runner(bytes)),
        (Contender::SimdBorrowed, Job::Parse) => Some(simd::borrowed_parse_runner(bytes)),
        (Contender::SimdBorrowed, Job::Leg) => Some(simd::borrowed_leg_runner(bytes)),
        _ => None,
    }
}

/// The summary `contender` produces for `input`.
fn summary(contender: Contender, input: &Input) -> Option<Summary> {
    let b = &input.bytes;
    match contender {
        Contender::Mrtr => mrtr::parse(b),
        Contender::Rmcp => rmcp_sdk::parse(b),
        Contender::SerdeRaw => serde_raw::parse(b),
        Contender::SerdeKind => serde_raw::parse_kind(b),
        Contender::SerdeValue => serde_value::parse(b),
        Contender::SimdTape => simd::tape_parse(b, &mut simd::Scratch::default()),
        Contender::SimdBorrowed => simd::borrowed_parse(b, &mut simd::Scratch::default()),
        Contender::MrtrC => ffi::CLeg::new().parse(b),
        Contender::MrtrCall => mrtr::Leg::new().parse(b),
    }
}

/// The retry request `contender` writes for `input`.
fn retry(contender: Contender, input: &Input) -> Option<Vec<u8>> {
    let b = &input.bytes;
    match contender {
        Contender::Mrtr => mrtr::Leg::new().run(b).map(<[u8]>::to_vec),
        Contender::MrtrC => ffi::CLeg::new().run(b).map(<[u8]>::to_vec),
        Contender::Rmcp => rmcp_sdk::leg(b, &rmcp_sdk::Original::new()),
        Contender::SerdeRaw => serde_raw::leg(b, &serde_raw::Original::new()),
        Contender::SerdeValue => serde_value::leg(b, &serde_value::Original::new()),
        Contender::SimdBorrowed => {
            simd::borrowed_leg(b, &mut simd::Scratch::default(), &simd::Original::new())
        }
        _ => None,
    }
}

/// Checks that every contender does the same job on `input`: equal
/// summaries (and the input's known request count), retry requests equal as
/// JSON values, and validation accepting the input. Panics with the
/// difference otherwise.
pub fn check(input: &Input) {
    let reference = summary(Contender::Mrtr, input)
        .unwrap_or_else(|| panic!("mrtr rejected input {}", input.name));
    assert!(
        reference.input_required,
        "{}: not input_required",
        input.name
    );
    assert_eq!(
        reference.inputs, input.inputs,
        "{}: input count",
        input.name
    );
    for c in Contender::ALL {
        if c == Contender::Mrtr {
            continue;
        }
        let s = summary(c, input)
            .unwrap_or_else(|| panic!("{} rejected input {}", c.name(), input.name));
        // The kind-only floor reads no message.
        let reference = match c {
            Contender::SerdeKind => Summary {
                message_bytes: 0,
                ..reference
            },
            _ => reference,
        };
        assert_eq!(
            s,
            reference,
            "{} disagrees with mrtr on {}",
            c.name(),
            input.name
        );
    }
    let expected = retry(Contender::Mrtr, input).expect("mrtr leg");
    let expected: serde_json::Value =
        serde_json::from_slice(&expected).expect("mrtr retry is JSON");
    for c in Contender::ALL {
        if let Some(out) = retry(c, input) {
            let got: serde_json::Value = serde_json::from_slice(&out).unwrap_or_else(|e| {
                panic!("{} retry on {} is not JSON: {e}", c.name(), input.name)
            });
            assert_eq!(
                got,
                expected,
                "{} writes a different retry on {}",
                c.name(),
                input.name
            );
        }
    }
    let request = retry_request(input);
    let expected = mrtr::server_parse(&request).expect("mrtr parses its own retry");
    assert_eq!(
        expected.responses, input.inputs,
        "{}: inputResponses count",
        input.name
    );
    let got = serde_raw::server_parse(&request).expect("serde_json parses the retry");
    assert_eq!(
        got, expected,
        "serde_json RawValue disagrees with mrtr on the retry of {}",
        input.name
    );
    for c in Contender::ALL {
        if let Some(mut r) = runner(c, Job::Validate, input) {
            assert_eq!(r(), 1, "{} does not validate {}", c.name(), input.name);
        }
    }
}
