//! Random bytes and mutations of valid requests never make the server half
//! panic, and whatever it writes is valid JSON of the promised shape.
#![cfg(feature = "server")]

use mrtr_core::server::*;
use mrtr_core::wire::{ClientCapabilities, Id, WireLimits};
use proptest::prelude::*;

const VALID: [&str; 6] = [
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"sampling":{"tools":{}},"roots":{}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}},"name":"t","arguments":{"a":[1,{"b":null}]},"inputResponses":{"e":{"action":"accept","content":{"x":"y"}},"s":{"result":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}},"r":{"roots":[{"uri":"file:///x","name":"X"}]}},"requestState":"m1.A\u0042C"}}"#,
    r#"{"jsonrpc":"2.0","id":"p","method":"prompts/get","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"p","arguments":{"k":"v"}}}"#,
    r#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"url":{}}}},"uri":"file:///a","inputResponses":{"u":{"action":"cancel"}}}}"#,
    r#"{"jsonrpc":"2.0","id":4,"method":"tasks/input_response","params":{"inputResponses":{"echo_input":{"result":{"action":"accept","content":{"input":"Hello"}}}},"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t"}}}}"#,
    r#"{"jsonrpc":"2.0","id":5,"method":"tasks/update","params":{"taskId":"t","inputResponses":{"k":{"roots":[]}}}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"1"}}"#,
];

const KEYS: [&str; 6] = ["e", "s", "r", "u", "echo_input", "k"];

fn valid_json(bytes: &[u8]) -> serde_json::Value {
    serde_json::from_slice(bytes)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(bytes)))
}

/// Everything an app would do with what it parsed.
fn exercise(bytes: &[u8]) {
    let mut out = [0u8; 4096];
    let mut scratch = [0u8; 64];
    match ServerRequest::parse(bytes, &WireLimits::default()) {
        Err(e) => {
            let _ = e.code();
            let _ = std::format!("{e}");
            let n = e.write(&mut out).expect("4 KiB holds any request error");
            let v = valid_json(&out[..n]);
            assert_eq!(v["error"]["code"], i64::from(e.code().code()));
        }
        Ok(Incoming::Request(req)) => {
            for key in KEYS {
                if let Ok(Some(a)) = req.elicit_answer(key) {
                    let _ = a.field("x");
                }
                if let Ok(Some(s)) = req.sampling_answer(key) {
                    let _ = s.text();
                }
                if let Ok(Some(r)) = req.roots_answer(key) {
                    assert_eq!(r.iter().count(), r.len());
                }
                if let Err(e) = req.elicit_answer(key) {
                    let n = write_answer_error(&mut out, &req.id, key, &e).unwrap();
                    valid_json(&out[..n]);
                }
            }
            let _ = req.request_state_text(&mut scratch);
            let _ = req.protocol_header_matches("2026-07-28");
            if let Ok(mut b) = InputRequiredBuilder::for_request(&mut out, &req) {
                let _ = b.roots("r");
                let _ = b.elicit_form("f", "m", br#"{"type":"object","properties":{}}"#);
                b.request_state("s");
                let n = b.finish().unwrap();
                valid_json(&out[..n]);
            }
        }
        Ok(_) => {}
    }
}

/// A mutation of a valid request.
#[derive(Debug, Clone)]
enum Mutation {
    Replace(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    Truncate(usize),
    DuplicateSpan(usize, usize),
}

fn apply(base: &[u8], muts: &[Mutation]) -> Vec<u8> {
    let mut b = base.to_vec();
    for m in muts {
        let len = b.len().max(1);
        match *m {
            Mutation::Replace(i, v) => {
                if let Some(x) = b.get_mut(i % len) {
                    *x = v;
                }
            }
            Mutation::Insert(i, v) => b.insert(i % (b.len() + 1), v),
            Mutation::Delete(i) => {
                if !b.is_empty() {
                    b.remove(i % len);
                }
            }
            Mutation::Truncate(i) => b.truncate(i % len),
            Mutation::DuplicateSpan(i, n) => {
                let start = i % len;
                let end = (start + n % 40).min(b.len());
                let span = b[start..end].to_vec();
                b.splice(start..start, span);
            }
        }
    }
    b
}

fn mutation() -> impl Strategy<Value = Mutation> {
    // Bytes that matter to JSON are more likely than arbitrary ones.
    let byte = prop_oneof![
        any::<u8>(),
        prop::sample::select(b"{}[]\":,\\0123456789tfnu -.eE\x00\xff".to_vec()),
    ];
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, v)| Mutation::Replace(i, v)),
        (any::<usize>(), byte).prop_map(|(i, v)| Mutation::Insert(i, v)),
        any::<usize>().prop_map(Mutation::Delete),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), any::<usize>()).prop_map(|(i, n)| Mutation::DuplicateSpan(i, n)),
    ]
}

/// `parse_indexed` concludes exactly what `parse_with` does (the same
/// request, member for member, or the same error) with any number of slots,
/// and the answers read from it are the same.
fn indexed_agrees(bytes: &[u8], slots: usize) {
    let limits = WireLimits::default();
    for policy in [MetaPolicy::Required, MetaPolicy::Optional] {
        let plain = ServerRequest::parse_with(bytes, &limits, policy);
        let mut ix = vec![mrtr_core::json::IndexSlot::EMPTY; slots];
        let indexed = ServerRequest::parse_indexed(bytes, &limits, policy, &mut ix);
        assert_eq!(
            indexed,
            plain,
            "{slots} slots: {}",
            String::from_utf8_lossy(bytes)
        );
        if let (Ok(Incoming::Request(a)), Ok(Incoming::Request(b))) = (&plain, &indexed) {
            for key in KEYS {
                assert_eq!(a.elicit_answer(key), b.elicit_answer(key));
                assert_eq!(a.sampling_answer(key), b.sampling_answer(key));
                assert_eq!(
                    a.roots_answer(key).map(|r| r.map(|r| r.len())),
                    b.roots_answer(key).map(|r| r.map(|r| r.len()))
                );
            }
        }
    }
}

#[test]
fn parse_indexed_agrees_on_the_valid_requests() {
    for v in VALID {
        for slots in [0, 1, 2, 3, 8, 64] {
            indexed_agrees(v.as_bytes(), slots);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 8 } else { 2000 }))]

    #[test]
    fn parse_indexed_agrees_on_mutated_requests(
        which in 0..VALID.len(),
        muts in prop::collection::vec(mutation(), 1..8),
        slots in 0usize..12,
    ) {
        let bytes = apply(VALID[which].as_bytes(), &muts);
        indexed_agrees(&bytes, slots);
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        exercise(&bytes);
    }

    #[test]
    fn mutated_valid_requests_never_panic(
        which in 0..VALID.len(),
        muts in prop::collection::vec(mutation(), 1..8),
    ) {
        let bytes = apply(VALID[which].as_bytes(), &muts);
        exercise(&bytes);
    }

    #[test]
    fn the_builder_never_panics_and_writes_valid_json(
        keys in prop::collection::vec(".{0,12}", 0..6),
        message in "\\PC{0,40}",
        url in "[a-z]{0,5}:?[^ ]{0,20}",
        raw in prop::collection::vec(any::<u8>(), 0..64),
        state in prop::option::of("\\PC{0,20}"),
        cap in 0usize..600,
    ) {
        let caps = ClientCapabilities::ALL;
        let mut buf = vec![0u8; cap];
        let mut b = InputRequiredBuilder::new(&mut buf, &Id::Number(1), &caps);
        for (i, k) in keys.iter().enumerate() {
            let _ = match i % 4 {
                0 => b.elicit_form(k, &message, &raw).map(drop),
                1 => b.elicit_url(k, &message, &url).map(drop),
                2 => b.sampling(k, &raw).map(drop),
                _ => b.roots(k).map(drop),
            };
        }
        if let Some(s) = &state {
            b.request_state(s);
        }
        match b.finish() {
            Ok(n) => {
                let v = valid_json(&buf[..n]);
                prop_assert_eq!(&v["result"]["resultType"], "input_required");
            }
            Err(BuildError::BufferTooSmall { needed }) => {
                prop_assert!(needed > cap);
                // The reported size is exact: the same calls fit in it.
                let mut exact = vec![0u8; needed];
                let mut b = InputRequiredBuilder::new(&mut exact, &Id::Number(1), &caps);
                for (i, k) in keys.iter().enumerate() {
                    let _ = match i % 4 {
                        0 => b.elicit_form(k, &message, &raw).map(drop),
                        1 => b.elicit_url(k, &message, &url).map(drop),
                        2 => b.sampling(k, &raw).map(drop),
                        _ => b.roots(k).map(drop),
                    };
                }
                if let Some(s) = &state {
                    b.request_state(s);
                }
                prop_assert_eq!(b.finish(), Ok(needed));
                valid_json(&exact);
            }
            Err(BuildError::Empty) => prop_assert!(state.is_none()),
            Err(e) => prop_assert!(false, "unexpected {:?}", e),
        }
    }

    #[test]
    fn write_complete_never_panics_and_writes_one_complete_result(
        raw in prop_oneof![
            prop::collection::vec(any::<u8>(), 0..64),
            "[\"a-z:,{}\\[\\] 0-9]{0,40}".prop_map(String::into_bytes),
        ],
    ) {
        let mut buf = [0u8; 512];
        if let Ok(n) = write_complete(&mut buf, &Id::Number(1), &raw) {
            let v = valid_json(&buf[..n]);
            prop_assert_eq!(&v["result"]["resultType"], "complete");
            prop_assert!(v.get("error").is_none());
        }
    }
}
