//! The inputs every contender reads: server responses taken from the shared
//! vectors (`tests/vectors/`), made realistic where the vector carries a
//! placeholder, and grown deterministically for the scaling series. Nothing
//! here is a committed blob: the large inputs are generated on each run from
//! the vectors, with a fixed pseudo-random sequence.

use mrtr_core::json;
use mrtr_core::seal::{binding_digest, SealConfig, Sealer};

/// The MRTR spec page's `InputRequiredResult` (a form and a sampling request).
const SPEC_VECTOR: &str = include_str!("../../tests/vectors/spec/input-required-result.json");
/// The official example of the revision with a form, a sampling request and
/// a `requestState`.
const EXAMPLE_VECTOR: &str = include_str!(
    "../../tests/vectors/examples/input-required-result-elicitation-sampling-state.json"
);

/// The tool every call in the benchmarks targets, and its arguments.
pub const TOOL_NAME: &str = "deploy";
/// The arguments of the original `tools/call` (the retry repeats them).
pub const TOOL_ARGUMENTS: &str =
    r#"{"repo":"octocat/hello-world","environment":"production","replicas":3}"#;
/// The original params object the app passes.
pub const TOOL_PARAMS: &str = r#"{"name":"deploy","arguments":{"repo":"octocat/hello-world","environment":"production","replicas":3}}"#;

/// Which family an input belongs to (the report groups by it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Series {
    /// The two documents of the headline comparison (0.5 KB, 1.6 KB).
    Headline,
    /// One document grown in size: MB/s should stay flat.
    Size,
    /// The same entries repeated: cost should grow linearly with the count.
    Count,
}

/// One input: a complete server response as bytes.
#[derive(Debug, Clone)]
pub struct Input {
    /// Short name used in tables and on the command line (`1.6KB`, `n=16`).
    pub name: &'static str,
    /// Its family.
    pub series: Series,
    /// The message.
    pub bytes: Vec<u8>,
    /// Number of input requests it carries.
    pub inputs: usize,
    /// Where it comes from, for the report.
    pub source: &'static str,
}

/// The raw text of the `message` member of a vector file, byte for byte.
fn vector_message(file: &str) -> Vec<u8> {
    let doc = json::parse(file.as_bytes()).expect("vector file is JSON");
    let obj = doc.as_object().expect("vector file is an object");
    obj.get("message")
        .expect("vector has a message")
        .raw()
        .to_vec()
}

/// Removes the whitespace between tokens of a valid JSON text (servers send
/// compact JSON; the vectors are indented for reading).
pub fn minify(src: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(src.len());
    let mut in_string = false;
    let mut escaped = false;
    for &b in src {
        if in_string {
            out.push(b);
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else if b == b'"' {
            in_string = true;
            out.push(b);
        } else if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            out.push(b);
        }
    }
    out
}

/// Replaces the first occurrence of `from` in `hay` by `to`.
fn replace_once(hay: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let at = hay
        .windows(from.len())
        .position(|w| w == from)
        .expect("pattern present");
    let mut out = Vec::with_capacity(hay.len() + to.len());
    out.extend_from_slice(&hay[..at]);
    out.extend_from_slice(to);
    out.extend_from_slice(&hay[at + from.len()..]);
    out
}

/// Key material and claims of the benchmark's sealed states.
pub mod sealing {
    /// The server's key (32 bytes, fixed for reproducible tokens).
    pub const KEY: [u8; 32] = *b"bench key: 32 bytes, not uniform";
    /// The audience (the server's name).
    pub const AUDIENCE: &[u8] = b"bench.example";
    /// The authenticated principal bound into tokens.
    pub const PRINCIPAL: &[u8] = b"https://issuer.example|client-7|user-42";
    /// "now" in unix seconds.
    pub const NOW: u64 = 1_785_000_000;
    /// The nonce of the recorded token (a real server draws it from a CSPRNG).
    pub const NONCE: [u8; 24] = [7; 24];
}

/// A `requestState` as an mrtr server seals it: 64 bytes of application
/// state, bound to the request and to a principal. Real flows carry such a
/// token; the vectors carry the placeholder "AEAD-protected blob".
pub fn recorded_token() -> String {
    let sealer = Sealer::new(&[&sealing::KEY], sealing::AUDIENCE, SealConfig::default())
        .expect("valid sealer");
    let args = json::parse(TOOL_ARGUMENTS.as_bytes()).expect("arguments are JSON");
    let binding = binding_digest("tools/call", TOOL_NAME, Some(args)).expect("binding");
    let state: Vec<u8> = (0u8..64).collect();
    let mut out = [0u8; 1024];
    let n = sealer
        .seal(
            sealing::NOW,
            &sealing::NONCE,
            &binding,
            Some(sealing::PRINCIPAL),
            &state,
            &mut out,
        )
        .expect("seal");
    String::from_utf8(out[..n].to_vec()).expect("token is ASCII")
}

/// A deterministic generator (64-bit LCG, Knuth's constants): the grown
/// inputs are the same bytes on every run and every machine.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
}

const WORDS: [&str; 24] = [
    "capital",
    "France",
    "river",
    "Seine",
    "museum",
    "Louvre",
    "tower",
    "Eiffel",
    "population",
    "million",
    "history",
    "revolution",
    "café",
    "crème brûlée",
    "\\\"quoted\\\"",
    "line\\nbreak",
    "Montmartre",
    "arrondissement",
    "boulevard",
    "Notre-Dame",
    "Versailles",
    "métro",
    "baguette",
    "1789",
];

/// One sampling message of about 200 bytes, as compact JSON (a valid
/// `SamplingMessage`: role + text content). Escapes and non-ASCII text
/// appear in it as in real conversations.
fn sampling_message(rng: &mut Lcg, turn: usize) -> String {
    let role = if turn.is_multiple_of(2) {
        "assistant"
    } else {
        "user"
    };
    let mut text = format!("Turn {turn}:");
    while text.len() < 170 {
        text.push(' ');
        text.push_str(WORDS[(rng.next() % WORDS.len() as u64) as usize]);
    }
    format!(r#",{{"role":"{role}","content":{{"type":"text","text":"{text}"}}}}"#)
}

/// The compact 1.6 KB document grown to at most `target` bytes by adding
/// sampling messages after the first one (the conversation the sampling
/// request carries grows; every other member stays).
fn grown(base: &[u8], target: usize) -> Vec<u8> {
    let anchor = br#""text":"What is the capital of France?"}}"#;
    let at = base
        .windows(anchor.len())
        .position(|w| w == anchor)
        .expect("anchor present")
        + anchor.len();
    let mut rng = Lcg(0x6d72_7472);
    let mut middle = String::new();
    let mut turn = 2;
    loop {
        let m = sampling_message(&mut rng, turn);
        if base.len() + middle.len() + m.len() > target {
            break;
        }
        middle.push_str(&m);
        turn += 1;
    }
    let mut out = Vec::with_capacity(target);
    out.extend_from_slice(&base[..at]);
    out.extend_from_slice(middle.as_bytes());
    out.extend_from_slice(&base[at..]);
    out
}

/// `n` input requests (alternately the spec's form and its sampling
/// request) plus the recorded token, compact.
fn with_count(spec_compact: &[u8], token: &str, n: usize) -> Vec<u8> {
    let doc = json::parse(spec_compact).expect("spec JSON");
    let reqs = doc
        .as_object()
        .and_then(|o| o.get("result"))
        .and_then(|r| r.as_object())
        .and_then(|r| r.get("inputRequests"))
        .and_then(|r| r.as_object())
        .expect("inputRequests");
    let form = reqs.get("github_login").expect("form").raw();
    let sampling = reqs.get("capital_of_france").expect("sampling").raw();
    let mut out = Vec::new();
    out.extend_from_slice(
        br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"#,
    );
    for i in 0..n {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(format!("\"input_{i:02}\":").as_bytes());
        out.extend_from_slice(if i.is_multiple_of(2) { form } else { sampling });
    }
    out.extend_from_slice(format!(r#"}},"requestState":"{token}"}}}}"#).as_bytes());
    out
}

/// Every input, in report order.
pub fn all() -> Vec<Input> {
    let token = recorded_token();
    let spec_raw = vector_message(SPEC_VECTOR);
    let quoted = format!("\"{token}\"");
    let spec = replace_once(&spec_raw, b"\"AEAD-protected blob\"", quoted.as_bytes());
    let spec_compact = minify(&spec);
    let example = minify(&vector_message(EXAMPLE_VECTOR));
    let mut v = vec![
        Input {
            name: "0.5KB",
            series: Series::Headline,
            bytes: example,
            inputs: 2,
            source: "examples/input-required-result-elicitation-sampling-state, compact",
        },
        Input {
            name: "1.6KB",
            series: Series::Headline,
            bytes: spec,
            inputs: 2,
            source: "spec/input-required-result as in the vector file (indented), \
                     requestState = a recorded mrtr token",
        },
        Input {
            name: "0.9KB",
            series: Series::Size,
            bytes: spec_compact.clone(),
            inputs: 2,
            source: "the 1.6KB document, compact",
        },
    ];
    for (name, target) in [
        ("16KB", 16 * 1024),
        ("256KB", 256 * 1024),
        ("1MB", 1_000_000),
    ] {
        v.push(Input {
            name,
            series: Series::Size,
            bytes: grown(&spec_compact, target),
            inputs: 2,
            source: "the 0.9KB document, sampling conversation grown",
        });
    }
    for (name, n) in [("n=1", 1), ("n=4", 4), ("n=16", 16), ("n=64", 64)] {
        v.push(Input {
            name,
            series: Series::Count,
            bytes: with_count(&spec_compact, &token, n),
            inputs: n,
            source: "n entries alternating the spec's form and sampling request, compact",
        });
    }
    v
}

/// The input named `name`.
pub fn by_name(name: &str) -> Option<Input> {
    all().into_iter().find(|i| i.name == name)
}
