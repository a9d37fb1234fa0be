//! The default sealer and the default client agree on sizes: every token a
//! default [`Sealer`] makes is accepted by a default [`Call`] as the
//! `requestState` of an `InputRequiredResult` and echoed byte for byte.
//! (The sealer's default maximum used to be 4,096 bytes of token text while
//! the client's 4 KiB bound counts the quotes: a 4,095-byte token from our
//! own server was refused by our own client.)
#![cfg(all(feature = "client", feature = "seal"))]

use mrtr_core::client::call::DEFAULT_MAX_STATE_BYTES;
use mrtr_core::client::{Call, CallConfig, CallMethod, CallSlot, Event};
use mrtr_core::seal::{
    binding_digest, token_len, SealConfig, SealError, Sealer, DEFAULT_MAX_TOKEN_BYTES,
};

#[test]
fn the_default_token_bound_leaves_room_for_the_quotes() {
    assert_eq!(DEFAULT_MAX_TOKEN_BYTES + 2, DEFAULT_MAX_STATE_BYTES);
}

#[test]
fn every_token_the_default_sealer_makes_is_accepted_by_a_default_call() {
    let key = b"a sealing key of 32 bytes or so!";
    let sealer = Sealer::new(&[key], b"size-test", SealConfig::default()).unwrap();
    let binding = binding_digest("tools/call", "t", None).unwrap();
    let params = br#"{"name":"t"}"#;
    let mut out = vec![0u8; DEFAULT_MAX_TOKEN_BYTES + 64];
    let mut longest = 0;
    let mut checked = 0;
    for principal in [None, Some(&b"issuer|client|subject"[..])] {
        for state_len in 0.. {
            let state = vec![b'x'; state_len];
            let n = match sealer.seal(
                1_780_000_000,
                &[3; 24],
                &binding,
                principal,
                &state,
                &mut out,
            ) {
                Ok(n) => n,
                Err(SealError::TooLarge { needed, max }) => {
                    assert_eq!(max, DEFAULT_MAX_TOKEN_BYTES);
                    assert_eq!(needed, token_len(state_len, principal.is_some()));
                    assert!(needed > DEFAULT_MAX_TOKEN_BYTES);
                    break;
                }
                Err(e) => panic!("{e}"),
            };
            let token = &out[..n];
            longest = longest.max(n);
            let mut result = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":""#.to_vec();
            result.extend_from_slice(token);
            result.extend_from_slice(br#""}}"#);

            let config = CallConfig::new(CallMethod::ToolsCall, params);
            let mut st = CallSlot::default();
            let mut buf = vec![0u8; Call::workspace_size(&config.limits)];
            Call::init(&mut st, &mut buf, &config).unwrap();
            let mut call = Call::attach(&mut st, &mut buf).unwrap();
            let mut req = vec![0u8; 1 << 14];
            call.write_request(1, &mut req).unwrap();
            match call.feed(&result) {
                Ok(Event::RetryAfter(_)) => {}
                other => panic!("state {state_len} (token {n} bytes): {other:?}"),
            }
            let echoed = call.request_state().unwrap();
            assert_eq!(&echoed[1..echoed.len() - 1], token, "token {n} bytes");
            let len = call.write_request(2, &mut req).unwrap();
            let retry = &req[..len];
            assert!(
                retry.windows(n).any(|w| w == token),
                "the retry carries the token of {n} bytes"
            );
            checked += 1;
        }
    }
    // The sweep reached the bound (token lengths step by 1 or 2 bytes of
    // base64 text per state byte).
    assert!(longest >= DEFAULT_MAX_TOKEN_BYTES - 1, "longest {longest}");
    assert!(checked > 5_000, "{checked}");
}
