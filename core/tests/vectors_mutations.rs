//! Bad input never panics: 100,000 random mutations of the shared vectors
//! (byte flips, insertions, deletions, truncations, splices of two vectors)
//! go through the client-side wire reader, the result classifier, the
//! capability check and the server request parser. Each must return a value
//! or an error; a mutation that still parses must classify consistently.

#[path = "support/vectors.rs"]
#[allow(dead_code)]
mod vectors;

use std::sync::OnceLock;

use mrtr_core::server::ServerRequest;
use mrtr_core::wire::{
    classify_result, parse_message, ClientCapabilities, Message, ResultOutcome, WireLimits,
};
use proptest::prelude::*;

fn corpus() -> &'static Vec<Vec<u8>> {
    static CORPUS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        vectors::load_all(&vectors::default_dir())
            .expect("vectors load")
            .into_iter()
            .map(|v| v.message)
            .collect()
    })
}

#[derive(Debug, Clone)]
enum Mutation {
    Flip(prop::sample::Index, u8),
    Insert(prop::sample::Index, u8),
    Delete(prop::sample::Index),
    Truncate(prop::sample::Index),
    Splice(
        prop::sample::Index,
        prop::sample::Index,
        prop::sample::Index,
    ),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, b)| Mutation::Insert(i, b)),
        any::<prop::sample::Index>().prop_map(Mutation::Delete),
        any::<prop::sample::Index>().prop_map(Mutation::Truncate),
        (
            any::<prop::sample::Index>(),
            any::<prop::sample::Index>(),
            any::<prop::sample::Index>()
        )
            .prop_map(|(a, b, c)| Mutation::Splice(a, b, c)),
    ]
}

fn apply(mut bytes: Vec<u8>, m: &Mutation) -> Vec<u8> {
    let n = bytes.len();
    match m {
        Mutation::Flip(i, b) if n > 0 => bytes[i.index(n)] ^= b | 1,
        Mutation::Insert(i, b) => bytes.insert(i.index(n + 1), *b),
        Mutation::Delete(i) if n > 0 => {
            bytes.remove(i.index(n));
        }
        Mutation::Truncate(i) => bytes.truncate(i.index(n + 1)),
        Mutation::Splice(other, at, from) => {
            let c = corpus();
            let donor = &c[other.index(c.len())];
            let cut = at.index(n + 1);
            let start = from.index(donor.len() + 1);
            bytes.truncate(cut);
            bytes.extend_from_slice(&donor[start..]);
        }
        _ => {}
    }
    bytes
}

fn exercise(bytes: &[u8]) {
    let limits = WireLimits::default();
    if let Ok(Message::Result { result, .. }) = parse_message(bytes, &limits) {
        for method in [
            "tools/call",
            "prompts/get",
            "resources/read",
            "tasks/result",
            "tools/list",
        ] {
            if let Ok(ResultOutcome::InputRequired(ir)) = classify_result(result, method, &limits) {
                assert!(ir.input_requests.is_some() || ir.request_state.is_some());
                if let Some(reqs) = ir.input_requests {
                    let _ = ClientCapabilities::ALL.covers(&reqs.required_capabilities());
                    assert_eq!(reqs.iter().count(), reqs.len());
                }
                assert!(
                    method != "tools/list",
                    "input_required accepted for tools/list"
                );
            }
        }
    }
    let _ = ServerRequest::parse(bytes, &limits);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: if cfg!(miri) { 8 } else { 100_000 }, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn mutated_vectors_never_panic(pick in any::<prop::sample::Index>(), muts in prop::collection::vec(mutation(), 1..4)) {
        let c = corpus();
        let mut bytes = c[pick.index(c.len())].clone();
        for m in &muts {
            bytes = apply(bytes, m);
        }
        exercise(&bytes);
    }
}
