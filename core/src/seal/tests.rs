use super::*;
use crate::json;
use chacha20poly1305::aead::AeadInOut;
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use proptest::prelude::*;
use std::{format, println, string::String, string::ToString, vec, vec::Vec};

const OLD: &[u8] = b"old key: 32 bytes of secret.....";
const NEW: &[u8] = b"new key: 32 bytes of secret.....";
const OTHER: &[u8] = b"unrelated key, never in the ring";
const AUDIENCE: &[u8] = b"weather-server";
const NOW: u64 = 1_780_000_000;
const PRINCIPAL: &[u8] = b"iss=https://auth.example|client=app|sub=alice";

fn sealer(keys: &[&[u8]]) -> Sealer {
    Sealer::new(keys, AUDIENCE, SealConfig::default()).expect("valid sealer")
}

fn nonce(n: u8) -> [u8; NONCE_BYTES] {
    let mut b = [0u8; NONCE_BYTES];
    for (i, x) in b.iter_mut().enumerate() {
        *x = n.wrapping_mul(31).wrapping_add(i as u8);
    }
    b
}

fn bind(method: &str, target: &str, args: Option<&str>) -> [u8; 32] {
    let value = args.map(|a| json::parse(a.as_bytes()).expect("valid JSON"));
    binding_digest(method, target, value).expect("canonical arguments")
}

fn call_binding() -> [u8; 32] {
    bind(
        "tools/call",
        "get_weather",
        Some(r#"{"city":"Paris","days":3}"#),
    )
}

fn state(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 + 3) as u8).collect()
}

fn seal_with(
    s: &Sealer,
    now: u64,
    binding: &[u8; 32],
    principal: Option<&[u8]>,
    state: &[u8],
) -> Vec<u8> {
    let mut out = vec![0u8; sealed_len(state.len())];
    let n = s
        .seal(now, &nonce(7), binding, principal, state, &mut out)
        .expect("seal");
    assert_eq!(n, token_len(state.len(), principal.is_some()));
    out.truncate(n);
    out
}

fn seal(s: &Sealer, state: &[u8]) -> Vec<u8> {
    seal_with(s, NOW, &call_binding(), None, state)
}

fn unseal_with(
    s: &Sealer,
    now: u64,
    token: &[u8],
    binding: &[u8; 32],
    principal: Option<&[u8]>,
) -> Result<Vec<u8>, UnsealError> {
    let mut scratch = vec![0u8; unseal_scratch_len(token.len())];
    s.unseal(now, token, binding, principal, &mut scratch)
        .map(|u| u.state.to_vec())
}

fn unseal(s: &Sealer, token: &[u8]) -> Result<Vec<u8>, UnsealError> {
    unseal_with(s, NOW, token, &call_binding(), None)
}

// ---------------------------------------------------------------------------
// Round trip and sizes

#[test]
fn round_trip_returns_the_state_for_0_64_256_1024_bytes() {
    let s = sealer(&[NEW]);
    for len in [0, 64, 256, 1024] {
        let st = state(len);
        let token = seal(&s, &st);
        assert!(token.starts_with(b"m2."));
        assert!(token[3..]
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'-' || *c == b'_'));
        assert_eq!(unseal(&s, &token).as_deref(), Ok(&st[..]), "{len} bytes");
    }
}

#[test]
fn token_length_is_sealed_len_and_scratch_len_is_enough() {
    let s = sealer(&[NEW]);
    let mut sizes = String::new();
    for len in [0, 1, 2, 3, 64, 127, 128, 256, 1024, s.max_state_len()] {
        let token = seal(&s, &state(len));
        assert_eq!(token.len(), token_len(len, false));
        let with = seal_with(&s, NOW, &call_binding(), Some(PRINCIPAL), &state(len));
        assert_eq!(with.len(), token_len(len, true));
        assert_eq!(with.len(), sealed_len(len));
        assert!((42..=43).contains(&(with.len() - token.len())));
        let mut scratch = vec![0u8; unseal_scratch_len(with.len())];
        assert!(s
            .unseal(NOW, &with, &call_binding(), Some(PRINCIPAL), &mut scratch)
            .is_ok());
        assert!(unseal_scratch_len(token.len()) < token.len());
        if [0, 64, 256, 1024].contains(&len) {
            sizes += &format!(
                "state {len:>4} B -> token {:>4} B ({:>4} B with a principal)\n",
                token.len(),
                with.len()
            );
        }
    }
    println!("{sizes}");
}

#[test]
fn each_seal_with_a_fresh_nonce_gives_a_different_token() {
    let s = sealer(&[NEW]);
    let b = call_binding();
    let mut t1 = vec![0u8; token_len(5, false)];
    let mut t2 = vec![0u8; token_len(5, false)];
    s.seal(NOW, &nonce(1), &b, None, b"hello", &mut t1).unwrap();
    s.seal(NOW, &nonce(2), &b, None, b"hello", &mut t2).unwrap();
    assert_ne!(t1, t2);
    assert_eq!(unseal(&s, &t1).unwrap(), b"hello");
    assert_eq!(unseal(&s, &t2).unwrap(), b"hello");
}

// ---------------------------------------------------------------------------
// Integrity

#[test]
fn every_single_bit_flip_of_the_token_text_is_rejected() {
    let s = sealer(&[NEW]);
    let token = seal(&s, &state(64));
    let mut scratch = vec![0u8; 4096];
    let b = call_binding();
    for i in 0..token.len() {
        for bit in 0..8 {
            let mut t = token.clone();
            t[i] ^= 1 << bit;
            let r = s.unseal(NOW, &t, &b, None, &mut scratch);
            assert!(r.is_err(), "flip of bit {bit} in byte {i} accepted");
        }
    }
}

#[test]
fn a_token_sealed_for_another_audience_is_rejected() {
    let ours = sealer(&[NEW]);
    let theirs = Sealer::new(&[NEW], b"billing-server", SealConfig::default()).unwrap();
    let token = seal(&theirs, b"x");
    // The audience is part of the associated data, so authentication fails
    // before the audience claim is even read.
    assert_eq!(unseal(&ours, &token), Err(UnsealError::Tampered));
}

#[test]
fn a_forged_claims_record_with_another_audience_is_wrong_audience() {
    // Defence in depth: a key holder that wrote the right associated data but
    // another audience claim is still refused.
    let s = sealer(&[NEW]);
    let mut claims = claims_for(&s, b"st");
    claims.audience = sha256(&[b"billing-server"]);
    let token = forge(&s, &encode_claims(&claims));
    assert_eq!(unseal(&s, &token), Err(UnsealError::WrongAudience));
}

#[test]
fn a_claims_record_of_another_version_or_shape_is_malformed() {
    let s = sealer(&[NEW]);
    // Version 1 (the interim m2 claims without the caller's nonce) and
    // any later one.
    for version in [1, 3] {
        let mut claims = claims_for(&s, b"st");
        claims.version = version;
        assert_eq!(
            unseal(&s, &forge(&s, &encode_claims(&claims))),
            Err(UnsealError::Malformed)
        );
    }
    let mut bytes = encode_claims(&claims_for(&s, b"st"));
    bytes.push(0);
    assert_eq!(unseal(&s, &forge(&s, &bytes)), Err(UnsealError::Malformed));
    let bytes = encode_claims(&claims_for(&s, b"st"));
    assert_eq!(
        unseal(&s, &forge(&s, &bytes[..bytes.len() - 1])),
        Err(UnsealError::Malformed)
    );
    // The principal's option tag sits after version, times and digests.
    let mut bytes = encode_claims(&claims_for(&s, b"st"));
    assert_eq!(bytes[CLAIMS_FIXED_BYTES - 1], 0);
    bytes[CLAIMS_FIXED_BYTES - 1] = 2;
    assert_eq!(unseal(&s, &forge(&s, &bytes)), Err(UnsealError::Malformed));
    // The forging helper itself produces accepted tokens.
    let good = forge(&s, &encode_claims(&claims_for(&s, b"st")));
    assert_eq!(unseal(&s, &good).unwrap(), b"st");
}

fn claims_for<'a>(s: &Sealer, st: &'a [u8]) -> Claims<'a> {
    Claims {
        version: CLAIMS_VERSION,
        nonce: nonce(9),
        iat: NOW,
        exp: NOW + 600,
        audience: s.audience_digest,
        binding: call_binding(),
        principal: None,
        state: st,
    }
}

/// The claims record as postcard 1 encodes it with serde (the format the
/// tokens were first written in): the reference the seal's own codec is
/// checked against.
#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
struct PostcardClaims<'a> {
    version: u8,
    nonce: [u8; NONCE_BYTES],
    #[serde(with = "postcard::fixint::le")]
    iat: u64,
    #[serde(with = "postcard::fixint::le")]
    exp: u64,
    audience: [u8; 32],
    binding: [u8; 32],
    principal: Option<[u8; 32]>,
    #[serde(borrow, serialize_with = "postcard_bytes")]
    state: &'a [u8],
}

fn postcard_bytes<S: serde::Serializer>(b: &&[u8], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_bytes(b)
}

impl<'a> From<&Claims<'a>> for PostcardClaims<'a> {
    fn from(c: &Claims<'a>) -> Self {
        PostcardClaims {
            version: c.version,
            nonce: c.nonce,
            iat: c.iat,
            exp: c.exp,
            audience: c.audience,
            binding: c.binding,
            principal: c.principal,
            state: c.state,
        }
    }
}

/// The claims encoded by postcard (not by the codec under test).
fn encode_claims(c: &Claims<'_>) -> Vec<u8> {
    let mut buf = vec![0u8; c.state.len() + 4096];
    let n = postcard::to_slice(&PostcardClaims::from(c), &mut buf)
        .unwrap()
        .len();
    buf.truncate(n);
    buf
}

/// The claims encoded by the seal's own codec.
fn own_encode(c: &Claims<'_>) -> Vec<u8> {
    let mut buf = vec![0u8; plaintext_len(c.state.len(), c.principal.is_some())];
    assert!(c.encode(&mut buf));
    buf
}

/// Decodes with the seal's codec and with postcard; both must agree on
/// whether the bytes are claims and on what they say.
fn both_decode(bytes: &[u8]) -> Option<PostcardClaims<'_>> {
    let own = Claims::decode(bytes).map(|c| PostcardClaims::from(&c));
    let reference = match postcard::take_from_bytes::<PostcardClaims<'_>>(bytes) {
        Ok((c, [])) => Some(c),
        _ => None,
    };
    assert_eq!(own, reference, "codecs disagree on {bytes:02x?}");
    own
}

#[test]
fn claims_codec_writes_and_reads_postcards_bytes() {
    let s = sealer(&[NEW]);
    let long = vec![0xa5u8; 20_000];
    for st in [
        &b""[..],
        b"st",
        &[0x7f; 127],
        &[1; 128],
        &[2; 300],
        &long[..16_384],
        &long,
    ] {
        for principal in [None, Some([0x33; 32])] {
            let mut c = claims_for(&s, st);
            c.principal = principal;
            c.iat = 0x0102_0304_0506_0708;
            c.exp = u64::MAX;
            let bytes = own_encode(&c);
            assert_eq!(bytes, encode_claims(&c), "state {} B", st.len());
            let back = both_decode(&bytes).unwrap();
            assert_eq!(back, PostcardClaims::from(&c));
            // A buffer of any other length is refused.
            let mut wrong = vec![0u8; bytes.len() + 1];
            assert!(!c.encode(&mut wrong));
            assert!(!c.encode(&mut wrong[..bytes.len() - 1]));
        }
    }
}

#[test]
fn claims_codec_refuses_what_postcard_refuses() {
    let s = sealer(&[NEW]);
    let good = encode_claims(&claims_for(&s, b"st"));
    let tag = CLAIMS_FIXED_BYTES - 1;
    // Every truncation, one trailing byte, every option tag.
    for n in 0..good.len() {
        assert_eq!(both_decode(&good[..n]), None);
    }
    let mut longer = good.clone();
    longer.push(0);
    assert_eq!(both_decode(&longer), None);
    for t in 0..=255u8 {
        let mut b = good.clone();
        b[tag] = t;
        both_decode(&b);
    }
    // Varints: overlong but in range (accepted by both), too long, bits
    // beyond a usize.
    let head = &good[..tag + 1];
    let max = usize::BITS.div_ceil(7) as usize;
    let last_max: u8 = (1u8 << (usize::BITS % 7)) - 1;
    let mut cases: Vec<Vec<u8>> = vec![
        [head, &[0x82, 0x00], b"st"].concat(),
        [head, &[0x80; 1][..], &[0x80; 1], &[0x00]].concat(),
        [head, &vec![0x80; max]].concat(),
        [head, &vec![0x80; max + 1], &[0]].concat(),
    ];
    let mut top = vec![0x80u8; max - 1];
    top.push(last_max + 1);
    cases.push([head, &top].concat());
    let mut top_ok = vec![0x80u8; max - 1];
    top_ok.push(0);
    cases.push([head, &top_ok].concat());
    for c in &cases {
        both_decode(c);
    }
}

proptest! {
    #[test]
    fn claims_codec_agrees_with_postcard_on_any_bytes(
        bytes in proptest::collection::vec(any::<u8>(), 0..200),
        head in any::<bool>(),
    ) {
        // Either arbitrary bytes, or a valid fixed head followed by
        // arbitrary bytes (so the tag, varint and state paths are reached).
        let s = sealer(&[NEW]);
        let input = if head {
            let good = encode_claims(&claims_for(&s, b""));
            [&good[..CLAIMS_FIXED_BYTES], &bytes[..]].concat()
        } else {
            bytes
        };
        both_decode(&input);
    }
}

/// Seals arbitrary plaintext under the sealing key, as only a key holder can,
/// with the synthetic nonce of its bytes (the caller nonce read where the
/// claims carry it, zeros when the plaintext is too short).
fn forge(s: &Sealer, plaintext: &[u8]) -> Vec<u8> {
    // Where the caller's nonce lies in the claims (after the version byte).
    const CLAIMS_NONCE: core::ops::Range<usize> = 1..1 + NONCE_BYTES;
    let key = &s.keys[0];
    let caller: [u8; NONCE_BYTES] = plaintext
        .get(CLAIMS_NONCE)
        .map_or([0; NONCE_BYTES], |n| n.try_into().unwrap());
    let (ad, ad_len) = s.associated_data(&key.kid);
    let synthetic = synthetic_nonce(s.siv_mac.clone(), &caller, &ad[..ad_len], plaintext);
    forge_with_nonce(s, plaintext, &synthetic)
}

/// Seals arbitrary plaintext under the sealing key with `token_nonce` as
/// the AEAD nonce: a token whose tag verifies, whatever its nonce.
fn forge_with_nonce(s: &Sealer, plaintext: &[u8], token_nonce: &[u8; NONCE_BYTES]) -> Vec<u8> {
    let key = &s.keys[0];
    let mut bin = Vec::new();
    bin.extend_from_slice(&key.kid);
    bin.extend_from_slice(token_nonce);
    let mut body = plaintext.to_vec();
    let (ad, ad_len) = s.associated_data(&key.kid);
    let tag = XChaCha20Poly1305::new(&key.enc.into())
        .encrypt_inout_detached(
            &XNonce::from(*token_nonce),
            &ad[..ad_len],
            body.as_mut_slice().into(),
        )
        .unwrap();
    bin.extend_from_slice(&body);
    bin.extend_from_slice(&tag);
    let mut token = b"m2.".to_vec();
    let mut text = vec![0u8; base64::encoded_len(bin.len())];
    base64::encode(&bin, &mut text).unwrap();
    token.extend_from_slice(&text);
    token
}

/// Unseal trusts the Poly1305 tag, not a recomputation of the synthetic
/// nonce: a token whose tag verifies under a key of the ring was made by a
/// holder of that key, whatever nonce it carries, and is accepted (before
/// issue 27 a token made with a non-synthetic nonce was refused; only a key
/// holder can make one, so the check guarded against no attacker and cost
/// an HMAC over the whole plaintext on every unseal). Any change to a
/// genuine token's nonce, ciphertext or tag is still `Tampered`.
#[test]
fn unseal_authenticates_by_the_tag_not_by_recomputing_the_nonce() {
    let s = sealer(&[NEW, OLD]);
    let claims = encode_claims(&claims_for(&s, b"st"));
    // The synthetic nonce, as seal makes it: accepted.
    let genuine = forge(&s, &claims);
    assert_eq!(unseal(&s, &genuine), Ok(b"st".to_vec()));
    // The caller's nonce used as given, by a key holder: the tag verifies.
    assert_eq!(
        unseal(&s, &forge_with_nonce(&s, &claims, &nonce(9))),
        Ok(b"st".to_vec())
    );
    // Without the key: every bit of the nonce, the ciphertext and the tag
    // is covered by the tag.
    let bin = decode_token(&genuine);
    for byte in [4, 15, 27, 28, bin.len() / 2, bin.len() - 17, bin.len() - 1] {
        let mut bad = bin.clone();
        bad[byte] ^= 1;
        assert_eq!(
            unseal(&s, &token_from_binary(&bad)),
            Err(UnsealError::Tampered),
            "byte {byte} flipped"
        );
    }
    // A token of the second key of the ring is checked under that key.
    let old_only = sealer(&[OLD]);
    let t = seal(&old_only, b"st");
    assert_eq!(unseal(&s, &t), Ok(b"st".to_vec()));
    let mut bad = decode_token(&t);
    bad[10] ^= 1;
    assert_eq!(
        unseal(&s, &token_from_binary(&bad)),
        Err(UnsealError::Tampered)
    );
}

/// Two tokens for `tests/c/test_seal.c` (its `KEY_A`, `NONCE`, audience,
/// and the binding of `{"to":"bob"}`), pinned here where the key schedule
/// is reachable: what `seal` makes, and the same claims encrypted with the
/// caller's nonce as the AEAD nonce (tag valid, nonce not synthetic), which
/// only a key holder can make and which unseal therefore accepts.
#[test]
fn the_c_tests_genuine_and_caller_nonce_tokens_are_pinned() {
    let s = Sealer::new(
        &[b"0123456789abcdef0123456789abcdef"],
        b"https://mcp.example.com",
        SealConfig::default(),
    )
    .unwrap();
    let caller: [u8; 24] = *b"nonce-nonce-nonce-nonce\0";
    let b = bind("tools/call", "get_weather", Some(r#"{"to":"bob"}"#));
    let st = br#"{"amount":1}"#;
    let mut out = vec![0u8; sealed_len(st.len())];
    let n = s.seal(1000, &caller, &b, None, st, &mut out).unwrap();
    let genuine = out[..n].to_vec();
    let claims = Claims {
        version: CLAIMS_VERSION,
        nonce: caller,
        iat: 1000,
        exp: 1600,
        audience: s.audience_digest,
        binding: b,
        principal: None,
        state: st,
    };
    assert_eq!(forge(&s, &encode_claims(&claims)), genuine);
    let as_given = forge_with_nonce(&s, &encode_claims(&claims), &caller);
    let text = |t: &[u8]| String::from_utf8(t.to_vec()).unwrap();
    println!("{}\n{}", text(&genuine), text(&as_given));
    assert_eq!(text(&genuine), GENUINE_FOR_C);
    assert_eq!(text(&as_given), CALLER_NONCE_FOR_C);
    assert_eq!(unseal_with(&s, 1000, &genuine, &b, None), Ok(st.to_vec()));
    assert_eq!(unseal_with(&s, 1000, &as_given, &b, None), Ok(st.to_vec()));
}

const GENUINE_FOR_C: &str = concat!(
    "m2.kVXE5_woHxwcgeBUfnK876ffCdc2pP3eJyiZGEA5HzOFVLahMDHOcNveese834RiFry",
    "yGoLwaPEBE53EW2yhkvmNffDJcGQxDaHs6lcgZo_0LgA8V0RnHwAG3MRzERs5gzS-7ddFK",
    "TK6dCxhh8wO5iy8p-5F8ycpqqZHlwvnF_uIi-zO-buFl9HgyYMianAzdTWantfUdmugruZ",
    "Qe1kACvQk_w",
);
const CALLER_NONCE_FOR_C: &str = concat!(
    "m2.kVXE525vbmNlLW5vbmNlLW5vbmNlLW5vbmNlAF_ujcChFptYliU6aDYQUJRAM_GU1Rt",
    "zMr0rLJ-lERagH3dVFkVEYLFfDK3vUw5VaIbM875He5kfEvfnZ1ox8105AP74WkbdjVBCa",
    "g0ILiS7yeIFncrL9KhcjRDiZ2PNBdCOku1eewP1M0HpJm8kHJ3J6e0lYDo2YiDsnPeTPmB",
    "fSzeQBP5iIA",
);

// ---------------------------------------------------------------------------
// Binding to the request, the principal and the time window

#[test]
fn replay_to_another_tool_is_wrong_request() {
    let s = sealer(&[NEW]);
    let token = seal(&s, b"st");
    let other = bind(
        "tools/call",
        "delete_file",
        Some(r#"{"city":"Paris","days":3}"#),
    );
    assert_eq!(
        unseal_with(&s, NOW, &token, &other, None),
        Err(UnsealError::WrongRequest)
    );
}

#[test]
fn replay_with_other_arguments_is_wrong_request() {
    let s = sealer(&[NEW]);
    let token = seal(&s, b"st");
    let other = bind(
        "tools/call",
        "get_weather",
        Some(r#"{"city":"Rome","days":3}"#),
    );
    assert_eq!(
        unseal_with(&s, NOW, &token, &other, None),
        Err(UnsealError::WrongRequest)
    );
}

#[test]
fn replay_to_another_method_is_wrong_request() {
    let s = sealer(&[NEW]);
    let token = seal(&s, b"st");
    let other = bind(
        "prompts/get",
        "get_weather",
        Some(r#"{"city":"Paris","days":3}"#),
    );
    assert_eq!(
        unseal_with(&s, NOW, &token, &other, None),
        Err(UnsealError::WrongRequest)
    );
}

#[test]
fn replay_by_another_principal_is_wrong_principal() {
    let s = sealer(&[NEW]);
    let b = call_binding();
    let token = seal_with(&s, NOW, &b, Some(PRINCIPAL), b"st");
    assert_eq!(
        unseal_with(&s, NOW, &token, &b, Some(PRINCIPAL)).unwrap(),
        b"st"
    );
    assert_eq!(
        unseal_with(
            &s,
            NOW,
            &token,
            &b,
            Some(b"iss=https://auth.example|client=app|sub=bob")
        ),
        Err(UnsealError::WrongPrincipal)
    );
}

#[test]
fn a_token_sealed_with_a_principal_presented_without_one_is_wrong_principal() {
    let s = sealer(&[NEW]);
    let b = call_binding();
    let token = seal_with(&s, NOW, &b, Some(PRINCIPAL), b"st");
    assert_eq!(
        unseal_with(&s, NOW, &token, &b, None),
        Err(UnsealError::WrongPrincipal)
    );
}

#[test]
fn a_token_sealed_without_a_principal_presented_with_one_is_wrong_principal() {
    let s = sealer(&[NEW]);
    let b = call_binding();
    let token = seal_with(&s, NOW, &b, None, b"st");
    assert_eq!(
        unseal_with(&s, NOW, &token, &b, Some(PRINCIPAL)),
        Err(UnsealError::WrongPrincipal)
    );
    // An empty principal is still a principal, distinct from none.
    assert_eq!(
        unseal_with(&s, NOW, &token, &b, Some(b"")),
        Err(UnsealError::WrongPrincipal)
    );
}

#[test]
fn a_token_is_valid_until_ttl_plus_skew_and_expired_after() {
    let s = sealer(&[NEW]);
    let b = call_binding();
    let token = seal(&s, b"st");
    assert!(unseal_with(&s, NOW + 600 + 60, &token, &b, None).is_ok());
    assert_eq!(
        unseal_with(&s, NOW + 600 + 61, &token, &b, None),
        Err(UnsealError::Expired)
    );
}

#[test]
fn a_token_from_the_future_beyond_the_skew_is_not_yet_valid() {
    let s = sealer(&[NEW]);
    let b = call_binding();
    let token = seal(&s, b"st");
    assert!(unseal_with(&s, NOW - 60, &token, &b, None).is_ok());
    assert_eq!(
        unseal_with(&s, NOW - 61, &token, &b, None),
        Err(UnsealError::NotYetValid)
    );
}

#[test]
fn ttl_and_skew_follow_the_config() {
    let cfg = SealConfig {
        ttl_seconds: 5,
        clock_skew_seconds: 0,
        ..SealConfig::default()
    };
    let s = Sealer::new(&[NEW], AUDIENCE, cfg).unwrap();
    let b = call_binding();
    let token = seal(&s, b"st");
    assert!(unseal_with(&s, NOW + 5, &token, &b, None).is_ok());
    assert_eq!(
        unseal_with(&s, NOW + 6, &token, &b, None),
        Err(UnsealError::Expired)
    );
    assert_eq!(
        unseal_with(&s, NOW - 1, &token, &b, None),
        Err(UnsealError::NotYetValid)
    );
    // Up to the end of year 9999 nothing overflows; past it the clock is
    // refused (it used to saturate into a token that never expires).
    let late = seal_with(&s, MAX_UNIX_TIME, &b, None, b"st");
    assert_eq!(
        unseal_with(&s, MAX_UNIX_TIME, &late, &b, None),
        Ok(b"st".to_vec())
    );
}

// ---------------------------------------------------------------------------
// Issue 16: bounded time, nonce misuse, wiping, weak keys, replay ids

#[test]
fn a_clock_past_year_9999_is_refused_by_seal_and_unseal() {
    let s = sealer(&[NEW]);
    let b = call_binding();
    let mut out = vec![0u8; sealed_len(2)];
    for now in [MAX_UNIX_TIME + 1, u64::MAX - 1, u64::MAX] {
        assert_eq!(
            s.seal(now, &nonce(1), &b, None, b"st", &mut out),
            Err(SealError::ClockOutOfRange)
        );
    }
    assert!(out.iter().all(|&x| x == 0), "nothing written");
    let token = seal(&s, b"st");
    for now in [MAX_UNIX_TIME + 1, u64::MAX] {
        assert_eq!(
            unseal_with(&s, now, &token, &b, None),
            Err(UnsealError::ClockOutOfRange)
        );
    }
}

#[test]
fn ttl_and_skew_out_of_range_are_refused_at_construction() {
    let cfg = SealConfig::default();
    for ttl in [0, MAX_TTL_SECONDS + 1, u64::MAX] {
        let c = SealConfig {
            ttl_seconds: ttl,
            ..cfg
        };
        assert_eq!(
            Sealer::new(&[NEW], AUDIENCE, c).unwrap_err(),
            KeyError::TtlOutOfRange { ttl_seconds: ttl }
        );
    }
    for skew in [MAX_CLOCK_SKEW_SECONDS + 1, u64::MAX] {
        let c = SealConfig {
            clock_skew_seconds: skew,
            ..cfg
        };
        assert_eq!(
            Sealer::new(&[NEW], AUDIENCE, c).unwrap_err(),
            KeyError::SkewOutOfRange {
                clock_skew_seconds: skew
            }
        );
    }
    let widest = SealConfig {
        ttl_seconds: MAX_TTL_SECONDS,
        clock_skew_seconds: MAX_CLOCK_SKEW_SECONDS,
        ..cfg
    };
    let s = Sealer::new(&[NEW], AUDIENCE, widest).unwrap();
    let b = call_binding();
    let token = seal(&s, b"st");
    let last = NOW + MAX_TTL_SECONDS + MAX_CLOCK_SKEW_SECONDS;
    assert!(unseal_with(&s, last, &token, &b, None).is_ok());
    assert_eq!(
        unseal_with(&s, last + 1, &token, &b, None),
        Err(UnsealError::Expired)
    );
    // A zero skew is allowed.
    let c = SealConfig {
        clock_skew_seconds: 0,
        ..cfg
    };
    assert!(Sealer::new(&[NEW], AUDIENCE, c).is_ok());
}

#[test]
fn a_claims_record_with_a_lifetime_no_sealer_makes_is_malformed() {
    let s = sealer(&[NEW]);
    let st = b"st";
    // exp before iat, and a lifetime past MAX_TTL_SECONDS (a forged
    // "never expires"): only a key holder can make them, none does.
    for (iat, exp) in [
        (NOW, NOW - 1),
        (NOW, NOW + MAX_TTL_SECONDS + 1),
        (NOW, u64::MAX),
    ] {
        let mut c = claims_for(&s, st);
        c.iat = iat;
        c.exp = exp;
        assert_eq!(
            unseal(&s, &forge(&s, &encode_claims(&c))),
            Err(UnsealError::Malformed)
        );
    }
    let c = claims_for(&s, st);
    assert_eq!(unseal(&s, &forge(&s, &encode_claims(&c))), Ok(st.to_vec()));
}

/// XChaCha20-Poly1305 with a repeated (key, nonce) gives away the keystream
/// and the Poly1305 key. With the caller's nonce used as given, two tokens
/// for the same request and a repeated caller nonce had the same nonce and
/// `c1 ^ c2 == p1 ^ p2`; now each has its own synthetic nonce.
#[test]
fn a_repeated_caller_nonce_gives_distinct_nonces_for_distinct_seals() {
    let s = sealer(&[NEW]);
    let b = call_binding();
    let (p1, p2) = (br#"{"amount":1}"#, br#"{"amount":9}"#);
    let mut t1 = vec![0u8; sealed_len(p1.len())];
    let mut t2 = vec![0u8; sealed_len(p2.len())];
    let n1 = s.seal(NOW, &[0u8; 24], &b, None, p1, &mut t1).unwrap();
    let n2 = s.seal(NOW, &[0u8; 24], &b, None, p2, &mut t2).unwrap();
    let (bin1, bin2) = (decode_token(&t1[..n1]), decode_token(&t2[..n2]));
    assert_eq!(bin1.len(), bin2.len());
    let (nonce1, nonce2) = (&bin1[4..28], &bin2[4..28]);
    assert_ne!(nonce1, nonce2, "distinct plaintexts, distinct nonces");
    assert_ne!(
        nonce1,
        &[0u8; 24][..],
        "the caller's nonce is not used as given"
    );
    // The ciphertexts are not one keystream XORed with two plaintexts.
    let xor_c: Vec<u8> = bin1[28..bin1.len() - 16]
        .iter()
        .zip(&bin2[28..bin2.len() - 16])
        .map(|(a, b)| a ^ b)
        .collect();
    let claims = |st: &[u8]| {
        let mut c = claims_for(&s, st);
        c.iat = NOW;
        c.exp = NOW + DEFAULT_TTL_SECONDS;
        c.binding = b;
        encode_claims(&c)
    };
    let xor_p: Vec<u8> = claims(p1)
        .iter()
        .zip(&claims(p2))
        .map(|(a, b)| a ^ b)
        .collect();
    assert_ne!(xor_c, xor_p);
    // Each token verifies for what it sealed, and splicing one's ciphertext
    // under the other's nonce and tag fails.
    assert_eq!(unseal(&s, &t1[..n1]), Ok(p1.to_vec()));
    assert_eq!(unseal(&s, &t2[..n2]), Ok(p2.to_vec()));
    let mut spliced = bin1.clone();
    spliced[28..bin1.len() - 16].copy_from_slice(&bin2[28..bin2.len() - 16]);
    assert_eq!(
        unseal(&s, &token_from_binary(&spliced)),
        Err(UnsealError::Tampered)
    );
    // The same claims with the same caller nonce: the same token.
    let n3 = s.seal(NOW, &[0u8; 24], &b, None, p1, &mut t2).unwrap();
    assert_eq!(&t2[..n3], &t1[..n1]);
}

#[test]
fn the_synthetic_nonce_depends_on_every_sealed_input() {
    let s = sealer(&[NEW]);
    let b = call_binding();
    let other_b = bind("tools/call", "get_weather", Some(r#"{"city":"Rome"}"#));
    let nonce_of = |s: &Sealer, now: u64, caller: u8, b: &[u8; 32], p: Option<&[u8]>, st: &[u8]| {
        let mut out = vec![0u8; sealed_len(st.len())];
        let n = s.seal(now, &nonce(caller), b, p, st, &mut out).unwrap();
        decode_token(&out[..n])[4..28].to_vec()
    };
    let base = nonce_of(&s, NOW, 1, &b, None, b"st");
    assert_eq!(base, nonce_of(&s, NOW, 1, &b, None, b"st"));
    let other_audience = Sealer::new(&[NEW], b"another", SealConfig::default()).unwrap();
    let other_key = sealer(&[OLD]);
    for variant in [
        nonce_of(&s, NOW + 1, 1, &b, None, b"st"),
        nonce_of(&s, NOW, 2, &b, None, b"st"),
        nonce_of(&s, NOW, 1, &other_b, None, b"st"),
        nonce_of(&s, NOW, 1, &b, Some(PRINCIPAL), b"st"),
        nonce_of(&s, NOW, 1, &b, None, b"sT"),
        nonce_of(&other_audience, NOW, 1, &b, None, b"st"),
        nonce_of(&other_key, NOW, 1, &b, None, b"st"),
    ] {
        assert_ne!(variant, base);
    }
}

/// The derivation, pinned: a change of labels or construction is a new
/// token format and must change [`TOKEN_PREFIX`] (or, within `m2.`, the
/// claims version: claims 2 put the caller's nonce into the plaintext and
/// changed the subkey). The C test `tests/c/test_seal_wipe.c` scans memory
/// for these same bytes. All four were recomputed independently with
/// Python's `hmac`/`hashlib` and a 20-line HChaCha20 from the documented
/// formulas (module documentation), not copied from this implementation.
#[test]
fn derived_keys_and_the_first_subkey_of_the_wipe_vector_are_pinned() {
    let key: Vec<u8> = (0..32u8)
        .map(|i| i.wrapping_mul(7).wrapping_add(1))
        .collect();
    let s = Sealer::new(&[&key], b"wipe-test", SealConfig::default()).unwrap();
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    let k = &s.keys[0];
    let mut out = vec![0u8; sealed_len(5)];
    let n = s
        .seal(
            1_780_000_000,
            &[0x5a; 24],
            &[0x11; 32],
            None,
            b"hello",
            &mut out,
        )
        .unwrap();
    let bin = decode_token(&out[..n]);
    let subkey = chacha20::hchacha::<chacha20::R20>(
        &k.enc.into(),
        &<[u8; 16]>::try_from(&bin[4..20]).unwrap().into(),
    );
    // The Poly1305 one-time key (r || s) of the token: the first 32 bytes
    // of the XChaCha20 keystream under K_enc and the token's nonce (block
    // 0; the message is encrypted from block 1).
    let mut poly_key = [0u8; 32];
    {
        use chacha20::cipher::{KeyIvInit, StreamCipher};
        let nonce = <[u8; 24]>::try_from(&bin[4..28]).unwrap();
        chacha20::XChaCha20::new(&k.enc.into(), &nonce.into()).apply_keystream(&mut poly_key);
    }
    let got = [
        hex(&k.kid),
        hex(&k.enc),
        hex(&k.siv),
        hex(&subkey),
        hex(&poly_key),
    ];
    println!("{got:?}");
    assert_eq!(
        got,
        [
            "d3d3f839".to_string(),
            "a580692c95fcc1e1b8a76fbcf3b86fc277677f4e8f11329b99a96d845d237cb6".to_string(),
            "825389c87d2fd5d872f61754a49711835123f6c85bdb0095c8d872ae969a2733".to_string(),
            "7e658cc3fa441059e85b9b3a8d48f3d4f43720b642dc4ba9016c235ea88c9ef9".to_string(),
            "85936dff02417679737ae007d5330b0ab29c6d77c0c782048e7d495558e5368a".to_string(),
        ]
    );
}

#[test]
fn a_refusal_after_decryption_leaves_no_plaintext_in_the_scratch() {
    let s = sealer(&[NEW]);
    let b = call_binding();
    let secret = b"the first answer: launch code 0000";
    let token = seal_with(&s, NOW, &b, Some(PRINCIPAL), secret);
    let other_b = bind("tools/call", "delete_everything", None);
    type Case<'a> = (u64, &'a [u8; 32], Option<&'a [u8]>, UnsealError);
    let cases: [Case<'_>; 4] = [
        (NOW + 10_000, &b, Some(PRINCIPAL), UnsealError::Expired),
        (NOW - 1_000, &b, Some(PRINCIPAL), UnsealError::NotYetValid),
        (NOW, &other_b, Some(PRINCIPAL), UnsealError::WrongRequest),
        (NOW, &b, Some(b"sub=mallory"), UnsealError::WrongPrincipal),
    ];
    for (now, binding, principal, expected) in cases {
        let mut scratch = vec![0xeeu8; unseal_scratch_len(token.len()) + 8];
        let used = unseal_scratch_len(token.len());
        assert_eq!(
            s.unseal(now, &token, binding, principal, &mut scratch),
            Err(expected)
        );
        assert!(
            scratch[..used].iter().all(|&x| x == 0),
            "{expected:?}: wiped"
        );
        assert!(
            scratch[used..].iter().all(|&x| x == 0xee),
            "beyond: untouched"
        );
    }
    // Malformed base64 and a tampered token: what was decoded is gone too.
    let mut bad = token.clone();
    let last = bad.len() - 1;
    bad[last] = b'*';
    let mut tampered = token.clone();
    tampered[40] = if tampered[40] == b'A' { b'B' } else { b'A' };
    for t in [bad, tampered] {
        let mut scratch = vec![0xeeu8; unseal_scratch_len(t.len())];
        assert!(s
            .unseal(NOW, &t, &b, Some(PRINCIPAL), &mut scratch)
            .is_err());
        assert!(scratch.iter().all(|&x| x == 0));
    }
    // Accepted: the state is there.
    let mut scratch = vec![0u8; unseal_scratch_len(token.len())];
    let u = s
        .unseal(NOW, &token, &b, Some(PRINCIPAL), &mut scratch)
        .unwrap();
    assert_eq!(u.state, secret);
}

#[test]
fn keys_of_all_equal_bytes_are_weak() {
    let cfg = SealConfig::default();
    for bad in [[0u8; 32], [0xff; 32], [7u8; 32]] {
        assert_eq!(
            Sealer::new(&[&bad], AUDIENCE, cfg).unwrap_err(),
            KeyError::WeakKey { index: 0 }
        );
        assert_eq!(
            Sealer::new(&[NEW, &bad[..], &[9u8; 64][..]], AUDIENCE, cfg).unwrap_err(),
            KeyError::WeakKey { index: 1 }
        );
    }
    let mut almost = [0u8; 32];
    almost[31] = 1;
    assert!(Sealer::new(&[&almost], AUDIENCE, cfg).is_ok());
    assert_eq!(
        KeyError::WeakKey { index: 1 }.to_string(),
        "key bytes all equal: key 1"
    );
}

#[test]
fn unseal_returns_a_token_id_stable_across_json_escapes_and_the_expiry() {
    let s = sealer(&[NEW]);
    let b = call_binding();
    let t1 = seal(&s, b"st");
    let mut scratch = vec![0u8; 4096];
    let u = s.unseal(NOW + 5, &t1, &b, None, &mut scratch).unwrap();
    let bin = decode_token(&t1);
    assert_eq!(&u.token_id[..4], &bin[..4]);
    assert_eq!(&u.token_id[4..], &bin[4..16]);
    assert_eq!(
        u.expires_at,
        NOW + DEFAULT_TTL_SECONDS + DEFAULT_CLOCK_SKEW_SECONDS
    );
    let id = u.token_id;
    // The same token again (a replay) has the same id; another seal does not.
    let again = s.unseal(NOW + 6, &t1, &b, None, &mut scratch).unwrap();
    assert_eq!(again.token_id, id);
    let mut out = vec![0u8; sealed_len(2)];
    let n = s.seal(NOW, &nonce(8), &b, None, b"st", &mut out).unwrap();
    let other = s.unseal(NOW, &out[..n], &b, None, &mut scratch).unwrap();
    assert_ne!(other.token_id, id);
    // A server reads the token from JSON: re-escaping one character gives
    // the same decoded token, so the same id.
    let mut json = br#"{"requestState":"\u006d"#.to_vec();
    json.extend_from_slice(&t1[1..]);
    json.extend_from_slice(br#""}"#);
    let v = json::parse(&json).unwrap();
    let text = v
        .as_object()
        .unwrap()
        .get_unique("requestState")
        .unwrap()
        .unwrap()
        .as_str()
        .unwrap();
    let mut decoded = vec![0u8; text.raw_inner().len()];
    let decoded = text.unescape_into(&mut decoded).unwrap();
    assert_ne!(text.raw_inner(), &t1[..]);
    let replay = s
        .unseal(NOW, decoded.as_bytes(), &b, None, &mut scratch)
        .unwrap();
    assert_eq!(replay.token_id, id);
}

// ---------------------------------------------------------------------------
// Canonical arguments

#[test]
fn the_same_arguments_reserialized_with_other_whitespace_order_and_escapes_are_accepted() {
    let s = sealer(&[NEW]);
    let sealed_for = bind(
        "tools/call",
        "search",
        Some(r#"{"q":"A/b \"c\" é","opts":{"limit":10,"tags":["x","y"]},"n":null,"ok":true}"#),
    );
    let token = seal_with(&s, NOW, &sealed_for, None, b"st");
    for respelled in [
        r#"{ "ok" : true, "n" : null, "opts" : { "tags" : [ "x" , "y" ] , "limit" : 10 }, "q" : "A/b \"c\" é" }"#,
        "{\n\t\"q\": \"\\u0041\\/b \\\"c\\\" \\u00e9\",\r\n\"opts\":{\"tags\":[\"\\u0078\",\"y\"],\"limit\":10},\"ok\":true,\"n\":null}",
        r#"{"\u006fk":true,"\u006e":null,"o\u0070ts":{"limit":10,"tags":["x","y"]},"q":"A\/b \u0022c\u0022 \u00E9"}"#,
    ] {
        let b = bind("tools/call", "search", Some(respelled));
        assert_eq!(b, sealed_for, "{respelled}");
        assert_eq!(unseal_with(&s, NOW, &token, &b, None).unwrap(), b"st");
    }
}

#[test]
fn a_changed_value_an_added_or_removed_key_or_another_number_literal_is_rejected() {
    let s = sealer(&[NEW]);
    let args = r#"{"city":"Paris","days":1,"units":{"temp":"C"}}"#;
    let token = seal_with(&s, NOW, &bind("tools/call", "w", Some(args)), None, b"st");
    for changed in [
        r#"{"city":"Paris ","days":1,"units":{"temp":"C"}}"#,
        r#"{"city":"paris","days":1,"units":{"temp":"C"}}"#,
        r#"{"city":"Paris","days":2,"units":{"temp":"C"}}"#,
        r#"{"city":"Paris","days":1.0,"units":{"temp":"C"}}"#,
        r#"{"city":"Paris","days":1e0,"units":{"temp":"C"}}"#,
        r#"{"city":"Paris","days":"1","units":{"temp":"C"}}"#,
        r#"{"city":"Paris","days":1,"units":{"temp":"F"}}"#,
        r#"{"city":"Paris","days":1,"units":{"temp":"C"},"x":null}"#,
        r#"{"city":"Paris","days":1,"units":{"temp":"C","x":null}}"#,
        r#"{"city":"Paris","days":1,"units":{}}"#,
        r#"{"city":"Paris","days":1}"#,
        r#"{"city":"Paris","days":1,"units":[{"temp":"C"}]}"#,
        r#"{"city":"Paris","days":1,"units":{"Temp":"C"}}"#,
    ] {
        let b = bind("tools/call", "w", Some(changed));
        assert_eq!(
            unseal_with(&s, NOW, &token, &b, None),
            Err(UnsealError::WrongRequest),
            "{changed}"
        );
    }
}

#[test]
fn absent_arguments_differ_from_empty_arguments() {
    assert_ne!(
        bind("tools/call", "t", None),
        bind("tools/call", "t", Some("{}"))
    );
    assert_ne!(
        bind("tools/call", "t", Some("{}")),
        bind("tools/call", "t", Some("[]"))
    );
    assert_ne!(
        bind("tools/call", "t", Some("null")),
        bind("tools/call", "t", None)
    );
}

#[test]
fn method_and_target_are_length_prefixed() {
    assert_ne!(bind("ab", "c", None), bind("a", "bc", None));
    assert_ne!(bind("tools/call", "", None), bind("tools/cal", "l", None));
}

#[test]
fn array_order_and_number_spelling_matter() {
    assert_ne!(bind("m", "t", Some("[1,2]")), bind("m", "t", Some("[2,1]")));
    assert_ne!(bind("m", "t", Some("[0]")), bind("m", "t", Some("[-0]")));
    assert_ne!(bind("m", "t", Some("[1E2]")), bind("m", "t", Some("[1e2]")));
    assert_eq!(
        bind("m", "t", Some("[ 1 , 2 ]")),
        bind("m", "t", Some("[1,2]"))
    );
}

fn canonical(text: &str) -> Result<String, CanonError> {
    let v = json::parse(text.as_bytes()).unwrap();
    let mut buf = vec![0u8; 4 * text.len() + 16];
    let mut w = json::Writer::new(&mut buf);
    write_canonical(v, &mut w)?;
    let n = w.finish().unwrap();
    Ok(String::from_utf8(buf[..n].to_vec()).unwrap())
}

#[test]
fn the_canonical_form_sorts_keys_strips_whitespace_and_escapes_one_way() {
    assert_eq!(
        canonical(
            r#" { "b" : [ 1 , { "z" : 1, "y" : 2 } ] , "a" : "\u0041\/\u00e9\ud83d\ude00" } "#
        )
        .unwrap(),
        r#"{"a":"A/é😀","b":[1,{"y":2,"z":1}]}"#
    );
    assert_eq!(
        canonical(r#""\"\\\b\f\n\r\t\u0001\u001F\u007f\u2028""#).unwrap(),
        "\"\\\"\\\\\\b\\f\\n\\r\\t\\u0001\\u001f\u{7f}\u{2028}\""
    );
    // Keys sort by code point: upper case before lower case, ASCII before é.
    assert_eq!(
        canonical(r#"{"é":1,"b":2,"B":3,"\u00e9a":4,"":5}"#).unwrap(),
        r#"{"":5,"B":3,"b":2,"é":1,"éa":4}"#
    );
    assert_eq!(canonical("12.50e+3").unwrap(), "12.50e+3");
    assert_eq!(
        canonical(r#"[true,false,null,{},[]]"#).unwrap(),
        r#"[true,false,null,{},[]]"#
    );
    // Canonical text is itself valid JSON and a fixed point.
    let c = canonical(r#"{"k":["\u0000",{"\n":"\\"}]}"#).unwrap();
    assert_eq!(canonical(&c).unwrap(), c);
}

#[test]
fn duplicate_keys_are_rejected_even_when_spelled_differently() {
    for text in [
        r#"{"a":1,"a":1}"#,
        r#"{"a":1,"b":2,"\u0061":3}"#,
        r#"{"x":{"k":1,"j":2,"k":3}}"#,
        r#"[{"ok":1},{"z":1,"y":2,"z":1}]"#,
    ] {
        let v = json::parse(text.as_bytes()).unwrap();
        assert_eq!(
            binding_digest("tools/call", "t", Some(v)),
            Err(CanonError::DuplicateKey),
            "{text}"
        );
    }
}

fn nested(depth: usize) -> String {
    let mut s = String::new();
    for i in 0..depth {
        s += if i % 2 == 0 { "[" } else { "{\"k\":" };
    }
    s += "0";
    for i in (0..depth).rev() {
        s += if i % 2 == 0 { "]" } else { "}" };
    }
    s
}

#[test]
fn arguments_nested_deeper_than_max_canon_depth_are_too_deep() {
    let ok = nested(MAX_CANON_DEPTH);
    let v = json::parse(ok.as_bytes()).unwrap();
    assert!(binding_digest("tools/call", "t", Some(v)).is_ok());
    let deep = nested(MAX_CANON_DEPTH + 1);
    let v = json::parse(deep.as_bytes()).unwrap();
    assert_eq!(
        binding_digest("tools/call", "t", Some(v)),
        Err(CanonError::TooDeep)
    );
}

fn wide(members: usize) -> String {
    let body: Vec<String> = (0..members).map(|i| format!("\"k{i}\":{i}")).collect();
    format!("{{\"outer\":{{{}}}}}", body.join(","))
}

#[test]
fn objects_wider_than_max_canon_members_are_too_many_members() {
    let ok = wide(MAX_CANON_MEMBERS);
    let v = json::parse(ok.as_bytes()).unwrap();
    assert!(binding_digest("tools/call", "t", Some(v)).is_ok());
    let too_wide = wide(MAX_CANON_MEMBERS + 1);
    let v = json::parse(too_wide.as_bytes()).unwrap();
    assert_eq!(
        binding_digest("tools/call", "t", Some(v)),
        Err(CanonError::TooManyMembers)
    );
    // Arrays have no member limit: order needs no sorting.
    let long_array = format!("[{}]", vec!["1"; 10_000].join(","));
    let v = json::parse(long_array.as_bytes()).unwrap();
    assert!(binding_digest("tools/call", "t", Some(v)).is_ok());
}

#[test]
fn member_order_does_not_change_the_digest_of_a_wide_object() {
    let forward: Vec<String> = (0..MAX_CANON_MEMBERS)
        .map(|i| format!("\"k{i}\":{i}"))
        .collect();
    let mut backward = forward.clone();
    backward.reverse();
    let a = format!("{{{}}}", forward.join(","));
    let b = format!("{{{}}}", backward.join(" , "));
    assert_eq!(bind("m", "t", Some(&a)), bind("m", "t", Some(&b)));
}

// ---------------------------------------------------------------------------
// Keys

#[test]
fn three_phase_key_rotation_keeps_every_in_flight_token_valid() {
    let b = call_binding();
    // Phase 1: every instance learns NEW; OLD still seals.
    let phase1 = sealer(&[OLD, NEW]);
    let t1 = seal(&phase1, b"one");
    // Phase 2: NEW seals; tokens sealed under OLD in phase 1 still open.
    let phase2 = sealer(&[NEW, OLD]);
    assert_eq!(unseal(&phase2, &t1).unwrap(), b"one");
    let t2 = seal(&phase2, b"two");
    // Instances still in phase 1 open phase 2 tokens (they know NEW).
    assert_eq!(unseal(&phase1, &t2).unwrap(), b"two");
    // Phase 3: OLD retired; NEW tokens keep opening.
    let phase3 = sealer(&[NEW]);
    assert_eq!(unseal(&phase3, &t2).unwrap(), b"two");
    let t3 = seal(&phase3, b"three");
    assert_eq!(unseal(&phase2, &t3).unwrap(), b"three");
    // An OLD token reaching a phase 3 instance names a key it no longer has.
    assert_eq!(
        unseal_with(&phase3, NOW, &t1, &b, None),
        Err(UnsealError::UnknownKey)
    );
    // The sealing key is keys[0]: phase 1 sealed under OLD.
    assert_eq!(phase1.key_ids().next(), phase2.key_ids().nth(1));
    assert_eq!(&decode_token(&t1)[..4], &phase2.key_ids().nth(1).unwrap());
}

#[test]
fn a_token_under_an_unknown_key_is_unknown_key_without_trial_decryption() {
    let ring = sealer(&[NEW, OLD]);
    let stranger = sealer(&[OTHER]);
    let token = seal(&stranger, b"st");
    assert_eq!(unseal(&ring, &token), Err(UnsealError::UnknownKey));

    // The key id is looked up before any AEAD work: a token with a foreign
    // key id and garbage ciphertext is UnknownKey, not Tampered, ...
    let mut bin = vec![0xA5u8; MIN_BINARY_BYTES + 10];
    bin[..4].copy_from_slice(&stranger.keys[0].kid);
    let garbage = token_from_binary(&bin);
    assert_eq!(unseal(&ring, &garbage), Err(UnsealError::UnknownKey));
    // ... while the same garbage under a known key id reaches the AEAD.
    bin[..4].copy_from_slice(&ring.keys[1].kid);
    assert_eq!(
        unseal(&ring, &token_from_binary(&bin)),
        Err(UnsealError::Tampered)
    );
    // A valid token re-labelled with another known key id is Tampered.
    let good = seal(&ring, b"st");
    let mut bin = decode_token(&good);
    bin[..4].copy_from_slice(&ring.keys[1].kid);
    assert_eq!(
        unseal(&ring, &token_from_binary(&bin)),
        Err(UnsealError::Tampered)
    );
}

fn token_from_binary(bin: &[u8]) -> Vec<u8> {
    let mut text = vec![0u8; base64::encoded_len(bin.len())];
    base64::encode(bin, &mut text).unwrap();
    let mut t = b"m2.".to_vec();
    t.extend_from_slice(&text);
    t
}

fn decode_token(token: &[u8]) -> Vec<u8> {
    let mut bin = vec![0u8; unseal_scratch_len(token.len())];
    let n = base64::decode(&token[3..], &mut bin).unwrap();
    bin.truncate(n);
    bin
}

#[test]
fn key_ring_construction_errors_are_precise() {
    let cfg = SealConfig::default();
    assert_eq!(
        Sealer::new(&[], AUDIENCE, cfg).unwrap_err(),
        KeyError::NoKeys
    );
    let many: Vec<Vec<u8>> = (0..9u8)
        .map(|i| (0..32u8).map(|j| i ^ j).collect())
        .collect();
    let many: Vec<&[u8]> = many.iter().map(Vec::as_slice).collect();
    assert!(Sealer::new(&many[..8], AUDIENCE, cfg).is_ok());
    assert_eq!(
        Sealer::new(&many, AUDIENCE, cfg).unwrap_err(),
        KeyError::TooManyKeys { count: 9 }
    );
    assert_eq!(
        Sealer::new(&[NEW, &[1u8; 31]], AUDIENCE, cfg).unwrap_err(),
        KeyError::KeyTooShort { index: 1, len: 31 }
    );
    let long: Vec<u8> = (0..64u8).collect();
    assert!(Sealer::new(&[&long], AUDIENCE, cfg).is_ok());
    assert_eq!(
        Sealer::new(&[NEW, OLD, NEW], AUDIENCE, cfg).unwrap_err(),
        KeyError::DuplicateKeyId {
            index: 2,
            earlier: 0
        }
    );
    assert_eq!(
        Sealer::new(&[NEW], b"", cfg).unwrap_err(),
        KeyError::EmptyAudience
    );
    assert!(Sealer::new(&[NEW], &[b'a'; 256], cfg).is_ok());
    assert_eq!(
        Sealer::new(&[NEW], &[b'a'; 257], cfg).unwrap_err(),
        KeyError::AudienceTooLong { len: 257 }
    );
    let tiny = SealConfig {
        max_token_bytes: sealed_len(0) - 1,
        ..cfg
    };
    assert_eq!(
        Sealer::new(&[NEW], AUDIENCE, tiny).unwrap_err(),
        KeyError::MaxTokenTooSmall {
            needed: sealed_len(0)
        }
    );
}

#[test]
fn key_errors_display_their_numbers() {
    let cases = [
        (KeyError::NoKeys, "no keys given"),
        (
            KeyError::TooManyKeys { count: 9 },
            "more keys than MAX_KEYS: 9 given, at most 8",
        ),
        (
            KeyError::KeyTooShort { index: 1, len: 31 },
            "key shorter than MIN_KEY_BYTES: key 1 has 31 bytes, at least 32",
        ),
        (
            KeyError::DuplicateKeyId {
                index: 2,
                earlier: 0,
            },
            "two keys share a key id: key 2 and key 0",
        ),
        (KeyError::EmptyAudience, "audience is empty"),
        (
            KeyError::AudienceTooLong { len: 257 },
            "audience longer than MAX_AUDIENCE_BYTES: 257 bytes, at most 256",
        ),
        (
            KeyError::MaxTokenTooSmall { needed: 77 },
            "max_token_bytes cannot hold an empty token: needs at least 77 bytes",
        ),
    ];
    for (e, text) in cases {
        assert_eq!(e.to_string(), text);
        // The text starts with the stable reason.
        assert!(text.starts_with(e.reason()), "{text}");
    }
}

#[test]
fn the_debug_form_shows_key_ids_but_no_key_material() {
    let s = sealer(&[NEW]);
    let text = format!("{s:?}");
    assert!(text.contains("key_ids"));
    assert!(!text.contains(&format!("{:?}", s.keys[0].enc)));
    assert!(!text.contains(&format!("{:?}", s.keys[0].siv)));
}

// ---------------------------------------------------------------------------
// Sizes and buffers

#[test]
fn sealing_more_state_than_the_maximum_token_allows_is_too_large_with_the_needed_size() {
    let s = sealer(&[NEW]);
    let max = s.max_state_len();
    assert!(sealed_len(max) <= DEFAULT_MAX_TOKEN_BYTES);
    assert!(sealed_len(max + 1) > DEFAULT_MAX_TOKEN_BYTES);
    let b = call_binding();
    let token = seal_with(&s, NOW, &b, Some(PRINCIPAL), &state(max));
    assert_eq!(
        unseal_with(&s, NOW, &token, &b, Some(PRINCIPAL)).unwrap(),
        state(max)
    );
    let mut out = vec![0u8; 8192];
    assert_eq!(
        s.seal(
            NOW,
            &nonce(1),
            &b,
            Some(PRINCIPAL),
            &state(max + 1),
            &mut out
        ),
        Err(SealError::TooLarge {
            needed: sealed_len(max + 1),
            max: DEFAULT_MAX_TOKEN_BYTES
        })
    );
    // The check is exact: without a principal a little more state fits.
    let mut extra = max;
    while token_len(extra + 1, false) <= DEFAULT_MAX_TOKEN_BYTES {
        extra += 1;
    }
    assert!(extra > max);
    assert!(s
        .seal(NOW, &nonce(1), &b, None, &state(extra), &mut out)
        .is_ok());
    assert_eq!(
        s.seal(NOW, &nonce(1), &b, None, &state(extra + 1), &mut out),
        Err(SealError::TooLarge {
            needed: token_len(extra + 1, false),
            max: DEFAULT_MAX_TOKEN_BYTES
        })
    );
    // A custom maximum moves the limit.
    let small = Sealer::new(
        &[NEW],
        AUDIENCE,
        SealConfig {
            max_token_bytes: 512,
            ..SealConfig::default()
        },
    )
    .unwrap();
    assert!(sealed_len(small.max_state_len()) <= 512);
    assert!(sealed_len(small.max_state_len() + 1) > 512);
}

#[test]
fn sealing_into_a_short_buffer_reports_the_exact_size_and_writes_nothing() {
    let s = sealer(&[NEW]);
    let needed = token_len(100, false);
    let mut out = vec![0xEEu8; needed - 1];
    assert_eq!(
        s.seal(NOW, &nonce(1), &call_binding(), None, &state(100), &mut out),
        Err(SealError::BufferTooSmall { needed })
    );
    assert!(out.iter().all(|&b| b == 0xEE));
    let mut out = vec![0u8; needed + 10];
    assert_eq!(
        s.seal(NOW, &nonce(1), &call_binding(), None, &state(100), &mut out),
        Ok(needed)
    );
}

#[test]
fn an_oversized_token_is_too_large_before_any_decoding() {
    let s = sealer(&[NEW]);
    // Not even base64, and no scratch at all: the size check comes first.
    let huge = vec![b'!'; DEFAULT_MAX_TOKEN_BYTES + 1];
    let mut scratch = [0u8; 0];
    assert_eq!(
        s.unseal(NOW, &huge, &call_binding(), None, &mut scratch),
        Err(UnsealError::TooLarge)
    );
    // A well-formed token over another sealer's smaller limit is TooLarge too.
    let small = Sealer::new(
        &[NEW],
        AUDIENCE,
        SealConfig {
            max_token_bytes: 512,
            ..SealConfig::default()
        },
    )
    .unwrap();
    let token = seal(&s, &state(1024));
    assert_eq!(unseal(&small, &token), Err(UnsealError::TooLarge));
}

#[test]
fn a_short_scratch_buffer_reports_the_size_needed() {
    let s = sealer(&[NEW]);
    let token = seal(&s, &state(10));
    let needed = unseal_scratch_len(token.len());
    let mut scratch = vec![0u8; needed - 1];
    assert_eq!(
        s.unseal(NOW, &token, &call_binding(), None, &mut scratch),
        Err(UnsealError::BufferTooSmall { needed })
    );
}

// ---------------------------------------------------------------------------
// Strict encoding

#[test]
fn non_canonical_base64_is_malformed() {
    let s = sealer(&[NEW]);
    let token = seal(&s, &state(1)); // pick a length whose encoding has a partial group
    let body_len = token.len() - 3;
    assert_ne!(body_len % 4, 0);
    // Setting unused trailing bits keeps the decoded bytes but is another spelling.
    let last = *token.last().unwrap();
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let sextet = alphabet.iter().position(|&c| c == last).unwrap() as u8;
    let unused_mask = if body_len % 4 == 2 { 0x0F } else { 0x03 };
    assert_eq!(sextet & unused_mask, 0);
    let mut t = token.clone();
    *t.last_mut().unwrap() = alphabet[(sextet | 1) as usize];
    assert_eq!(unseal(&s, &t), Err(UnsealError::Malformed));
    // Padding, standard-alphabet characters, whitespace, a dangling sextet.
    let mut padded = token.clone();
    padded.extend_from_slice(if body_len % 4 == 2 { b"==" } else { b"=" });
    assert_eq!(unseal(&s, &padded), Err(UnsealError::Malformed));
    for bad in [b'+', b'/', b'=', b' ', b'\n', b'.', 0, 0xC3] {
        let mut t = token.clone();
        t[10] = bad;
        assert_eq!(unseal(&s, &t), Err(UnsealError::Malformed), "byte {bad:#x}");
    }
    let mut dangling = seal(&s, &state(0));
    let len = dangling.len();
    if (len - 3).is_multiple_of(4) {
        dangling.push(b'A');
    } else {
        dangling.truncate(len - ((len - 3) % 4) + 1);
    }
    assert_eq!((dangling.len() - 3) % 4, 1);
    assert_eq!(unseal(&s, &dangling), Err(UnsealError::Malformed));
}

#[test]
fn a_wrong_prefix_or_impossible_length_is_malformed() {
    let s = sealer(&[NEW]);
    let token = seal(&s, b"st");
    let mut t = token.clone();
    t[1] = b'1';
    assert_eq!(unseal(&s, &t), Err(UnsealError::Malformed));
    assert_eq!(unseal(&s, &token[3..]), Err(UnsealError::Malformed));
    assert_eq!(unseal(&s, b""), Err(UnsealError::Malformed));
    assert_eq!(unseal(&s, b"m1."), Err(UnsealError::Malformed));
    assert!(unseal(&s, &token[..token.len() - 4]).is_err());
    let short = token_from_binary(&[0u8; MIN_BINARY_BYTES - 1]);
    assert_eq!(unseal(&s, &short), Err(UnsealError::Malformed));
}

#[test]
fn base64url_matches_rfc4648_vectors() {
    for (plain, text) in [
        ("", ""),
        ("f", "Zg"),
        ("fo", "Zm8"),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg"),
        ("fooba", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy"),
        ("\u{fb}\u{ff}", "w7vDvw"),
    ] {
        let mut out = vec![0u8; 16];
        let n = base64::encode(plain.as_bytes(), &mut out).unwrap();
        assert_eq!(&out[..n], text.as_bytes());
        let mut back = vec![0u8; 16];
        let n = base64::decode(text.as_bytes(), &mut back).unwrap();
        assert_eq!(&back[..n], plain.as_bytes());
    }
    // The url alphabet: 0xFB 0xFF encodes to "-_8".
    let mut out = [0u8; 3];
    base64::encode(&[0xFB, 0xFF], &mut out).unwrap();
    assert_eq!(&out, b"-_8");
}

#[test]
fn base64_in_place_encoding_equals_plain_encoding_for_every_length() {
    for n in 0..300usize {
        let src: Vec<u8> = (0..n).map(|i| (i * 89 + 17) as u8).collect();
        let mut expected = vec![0u8; base64::encoded_len(n)];
        base64::encode(&src, &mut expected).unwrap();
        let total = 3 + base64::encoded_len(n);
        let mut buf = vec![0u8; total];
        buf[total - n..].copy_from_slice(&src);
        assert!(base64::encode_in_place(&mut buf, total - n, 3));
        assert_eq!(&buf[3..], &expected[..], "length {n}");
        let mut back = vec![0u8; n];
        assert_eq!(base64::decode(&expected, &mut back), Some(n));
        assert_eq!(back, src);
    }
}

#[test]
fn base64_accepts_exactly_one_spelling_of_every_tail() {
    // Two-character tails (one byte) and three-character tails (two bytes):
    // exactly 256 and 65536 spellings decode, one per byte string.
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = [0u8; 2];
    let mut two = 0;
    for &a in alphabet {
        for &b in alphabet {
            two += usize::from(base64::decode(&[a, b], &mut out).is_some());
        }
    }
    assert_eq!(two, 256);
    let mut three = 0;
    for &a in alphabet {
        for &b in alphabet {
            for &c in alphabet {
                three += usize::from(base64::decode(&[a, b, c], &mut out).is_some());
            }
        }
    }
    assert_eq!(three, 65536);
    for bad in [&b"A"[..], b"AAAAA", b"AA==", b"AAA=", b"A+AA", b"A/AA"] {
        assert_eq!(base64::decode(bad, &mut [0u8; 8]), None, "{bad:?}");
    }
}

#[test]
fn every_failure_maps_to_one_wire_error() {
    assert_eq!(UnsealError::WIRE_CODE, -32602);
    assert_eq!(UnsealError::WIRE_MESSAGE, "Invalid or expired requestState");
    let all = [
        UnsealError::Malformed,
        UnsealError::TooLarge,
        UnsealError::UnknownKey,
        UnsealError::Tampered,
        UnsealError::Expired,
        UnsealError::NotYetValid,
        UnsealError::WrongAudience,
        UnsealError::WrongRequest,
        UnsealError::WrongPrincipal,
        UnsealError::BufferTooSmall { needed: 1 },
    ];
    let mut reasons: Vec<&str> = all.iter().map(UnsealError::reason).collect();
    reasons.sort_unstable();
    reasons.dedup();
    assert_eq!(reasons.len(), all.len(), "each reason is distinct");
}

// ---------------------------------------------------------------------------
// Fuzzing

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 2 } else { 512 }))]

    #[test]
    fn random_bytes_are_never_accepted(bytes in proptest::collection::vec(any::<u8>(), 0..700)) {
        let s = sealer(&[NEW, OLD]);
        let mut scratch = vec![0u8; 4096];
        prop_assert!(s.unseal(NOW, &bytes, &call_binding(), None, &mut scratch).is_err());
        let mut prefixed = b"m2.".to_vec();
        prefixed.extend_from_slice(&bytes);
        prop_assert!(s.unseal(NOW, &prefixed, &call_binding(), None, &mut scratch).is_err());
    }

    #[test]
    fn random_base64_bodies_are_never_accepted(bin in proptest::collection::vec(any::<u8>(), 0..600), kid in 0usize..3) {
        // Well-formed base64 of random bytes, optionally with a known key id:
        // this reaches the AEAD, which must refuse it.
        let s = sealer(&[NEW, OLD]);
        let mut bin = bin;
        if kid < 2 && bin.len() >= 4 {
            bin[..4].copy_from_slice(&s.keys[kid].kid);
        }
        let token = token_from_binary(&bin);
        let mut scratch = vec![0u8; 4096];
        prop_assert!(s.unseal(NOW, &token, &call_binding(), None, &mut scratch).is_err());
    }

    #[test]
    fn random_mutations_of_a_valid_token_are_never_accepted(
        len in 0usize..300,
        edits in proptest::collection::vec((any::<u16>(), any::<u8>(), 0u8..4), 1..6),
    ) {
        let s = sealer(&[NEW, OLD]);
        let token = seal(&s, &state(len));
        let mut t = token.clone();
        for (pos, byte, op) in edits {
            let i = usize::from(pos) % (t.len() + 1);
            match op {
                0 => { if i < t.len() { t[i] = byte; } }
                1 => t.insert(i, byte),
                2 => { if i < t.len() { t.remove(i); } }
                _ => t.truncate(i),
            }
        }
        prop_assume!(t != token);
        let mut scratch = vec![0u8; 4096];
        prop_assert!(s.unseal(NOW, &t, &call_binding(), None, &mut scratch).is_err());
    }

    #[test]
    fn binding_digest_never_panics_on_valid_json(text in "[\\[\\]{}\":,a-c0-9 .e\\\\u-]{0,80}") {
        if let Ok(v) = json::parse(text.as_bytes()) {
            let _ = binding_digest("tools/call", "t", Some(v));
        }
    }
}

fn nested_wide(levels: usize) -> String {
    // Each level: MAX_CANON_MEMBERS - 1 small members plus "zz" holding the next level.
    let mut s = String::new();
    for _ in 0..levels {
        s.push('{');
        for i in 0..MAX_CANON_MEMBERS - 1 {
            s += &format!("\"k{i}\":{i},");
        }
        s += "\"zz\":";
    }
    s += "0";
    for _ in 0..levels {
        s.push('}');
    }
    s
}

#[test]
fn nested_objects_with_more_than_max_canon_open_members_between_them_are_rejected() {
    let levels = MAX_CANON_OPEN_MEMBERS / MAX_CANON_MEMBERS;
    let ok = nested_wide(levels);
    let v = json::parse(ok.as_bytes()).unwrap();
    assert!(binding_digest("tools/call", "t", Some(v)).is_ok());
    let too_many = nested_wide(levels + 1);
    let v = json::parse(too_many.as_bytes()).unwrap();
    assert_eq!(
        binding_digest("tools/call", "t", Some(v)),
        Err(CanonError::TooManyOpenMembers)
    );
    // Siblings do not add up: only objects open at the same time count.
    let siblings = format!("[{}]", vec![wide(MAX_CANON_MEMBERS); 8].join(","));
    let v = json::parse(siblings.as_bytes()).unwrap();
    assert!(binding_digest("tools/call", "t", Some(v)).is_ok());
}

#[test]
fn the_canonical_form_of_nested_wide_objects_is_sorted_at_every_level() {
    let text = nested_wide(3);
    let c = canonical(&text).unwrap();
    let reparsed = json::parse(c.as_bytes()).unwrap();
    assert_eq!(canonical(&c).unwrap(), c);
    // Sorted: "k0" < "k1" < "k10" < ... < "zz".
    assert!(c.starts_with("{\"k0\":0,\"k1\":1,\"k10\":10,\"k100\":100,"));
    assert!(c.ends_with(",\"zz\":0}}}"));
    assert_eq!(
        binding_digest("m", "t", Some(reparsed)),
        binding_digest("m", "t", Some(json::parse(text.as_bytes()).unwrap()))
    );
}

// ---------------------------------------------------------------------------
// The canonical form against an independent reference: serde_json prints a
// `Value` compactly, with keys sorted by code point and the same escaping.

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value as J;
    let text = prop_oneof![
        ".{0,8}",
        "[\\x00-\\x20\"\\\\/aAzZ\u{7f}\u{e9}\u{2028}\u{1f600}]{0,8}",
    ];
    let leaf = prop_oneof![
        Just(J::Null),
        any::<bool>().prop_map(J::Bool),
        any::<i64>().prop_map(J::from),
        text.clone().prop_map(J::String),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(J::Array),
            proptest::collection::btree_map(text.clone(), inner, 0..6)
                .prop_map(|m| J::Object(m.into_iter().collect())),
        ]
    })
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Serializes `v` as a client might: random whitespace, member order and
/// escape spelling.
fn messy(v: &serde_json::Value, rng: &mut Rng, out: &mut String) {
    use serde_json::Value as J;
    const WS: [&str; 5] = ["", " ", "\n", "\t", "\r\n  "];
    let ws = |rng: &mut Rng, out: &mut String| out.push_str(WS[rng.pick(WS.len())]);
    match v {
        J::Null | J::Bool(_) | J::Number(_) => out.push_str(&v.to_string()),
        J::String(s) => messy_str(s, rng, out),
        J::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                ws(rng, out);
                messy(item, rng, out);
                ws(rng, out);
            }
            out.push(']');
        }
        J::Object(map) => {
            let mut members: Vec<_> = map.iter().collect();
            for i in (1..members.len()).rev() {
                members.swap(i, rng.pick(i + 1));
            }
            out.push('{');
            for (i, (k, item)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                ws(rng, out);
                messy_str(k, rng, out);
                ws(rng, out);
                out.push(':');
                ws(rng, out);
                messy(item, rng, out);
            }
            ws(rng, out);
            out.push('}');
        }
    }
}

fn messy_str(s: &str, rng: &mut Rng, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        let must = matches!(c, '"' | '\\') || (c as u32) < 0x20;
        if !must && rng.pick(3) > 0 {
            out.push(c);
            continue;
        }
        match (c, rng.pick(2)) {
            ('"', 0) => out.push_str("\\\""),
            ('\\', 0) => out.push_str("\\\\"),
            ('/', 0) => out.push_str("\\/"),
            ('\n', 0) => out.push_str("\\n"),
            ('\t', 0) => out.push_str("\\t"),
            _ => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    if rng.pick(2) == 0 {
                        out.push_str(&format!("\\u{:04x}", u));
                    } else {
                        out.push_str(&format!("\\u{:04X}", u));
                    }
                }
            }
        }
    }
    out.push('"');
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 2 } else { 256 }))]

    #[test]
    fn any_spelling_of_a_value_canonicalizes_to_the_reference_form(v in json_value(), seed in 1u64..) {
        let reference = serde_json::to_string(&v).unwrap();
        let mut rng = Rng(seed);
        let mut a = String::new();
        messy(&v, &mut rng, &mut a);
        let mut b = String::new();
        messy(&v, &mut rng, &mut b);
        prop_assert_eq!(canonical(&a).unwrap(), reference.clone());
        prop_assert_eq!(canonical(&b).unwrap(), reference);
        prop_assert_eq!(bind("tools/call", "t", Some(&a)), bind("tools/call", "t", Some(&b)));
    }
}

#[test]
fn seal_errors_display_and_are_errors() {
    fn is_error<E: core::error::Error>(e: E) -> String {
        e.to_string()
    }
    assert_eq!(
        is_error(KeyError::KeyTooShort { index: 1, len: 8 }),
        "key shorter than MIN_KEY_BYTES: key 1 has 8 bytes, at least 32"
    );
    assert_eq!(
        is_error(SealError::TooLarge {
            needed: 5000,
            max: 4096
        }),
        "state too large for the maximum token size: needs 5000 bytes, max 4096"
    );
    assert_eq!(
        is_error(UnsealError::WrongPrincipal),
        "token bound to another principal"
    );
    assert_eq!(
        is_error(canon::CanonError::TooDeep),
        "arguments nest too deeply"
    );
}

#[test]
fn new_in_builds_the_same_sealer_in_place_and_leaves_the_slot_alone_on_error() {
    let cfg = SealConfig::default();
    let mut slot = None;
    let built = Sealer::new_in(&mut slot, &[NEW, OLD], AUDIENCE, cfg).expect("valid ring");
    let reference = sealer(&[NEW, OLD]);
    assert_eq!(
        built.key_ids().collect::<Vec<_>>(),
        reference.key_ids().collect::<Vec<_>>()
    );
    assert_eq!(built.audience(), reference.audience());
    assert_eq!(built.max_state_len(), reference.max_state_len());
    let binding = call_binding();
    let (mut a, mut b) = (vec![0u8; sealed_len(40)], vec![0u8; sealed_len(40)]);
    let n = built
        .seal(NOW, &nonce(1), &binding, None, &state(40), &mut a)
        .unwrap();
    let m = reference
        .seal(NOW, &nonce(1), &binding, None, &state(40), &mut b)
        .unwrap();
    assert_eq!(a[..n], b[..m]);
    let mut scratch = vec![0u8; n];
    let opened = reference
        .unseal(NOW, &a[..n], &binding, None, &mut scratch)
        .unwrap();
    assert_eq!(opened.state, &state(40)[..]);

    // Every error of `new`, in the same order, and the slot keeps its sealer.
    for (keys, audience, err) in [
        (&[][..], AUDIENCE, KeyError::NoKeys),
        (
            &[NEW, &[1u8; 31]][..],
            AUDIENCE,
            KeyError::KeyTooShort { index: 1, len: 31 },
        ),
        (
            &[NEW, &[7u8; 32]][..],
            AUDIENCE,
            KeyError::WeakKey { index: 1 },
        ),
        (
            &[NEW, OLD, NEW][..],
            AUDIENCE,
            KeyError::DuplicateKeyId {
                index: 2,
                earlier: 0,
            },
        ),
        (&[OTHER][..], &b""[..], KeyError::EmptyAudience),
    ] {
        assert_eq!(Sealer::new(keys, audience, cfg).unwrap_err(), err);
        assert_eq!(
            Sealer::new_in(&mut slot, keys, audience, cfg).unwrap_err(),
            err
        );
        let kept = slot.as_ref().expect("slot untouched");
        assert_eq!(
            kept.key_ids().collect::<Vec<_>>(),
            reference.key_ids().collect::<Vec<_>>()
        );
    }
    // A second build replaces the first.
    let other = Sealer::new_in(&mut slot, &[OTHER], b"billing", cfg).unwrap();
    assert_eq!(other.audience(), b"billing");
    assert_eq!(other.key_ids().count(), 1);
}

#[test]
fn seal_with_and_unseal_with_a_principal_digest_match_seal_and_unseal() {
    let s = sealer(&[NEW]);
    let binding = call_binding();
    let digest = PrincipalDigest::of(PRINCIPAL);
    assert_eq!(digest, PrincipalDigest::of(PRINCIPAL));
    assert_ne!(digest, PrincipalDigest::of(b"sub=bob"));
    for principal in [None, Some(PRINCIPAL)] {
        let digest = principal.map(PrincipalDigest::of);
        let (mut a, mut b) = (vec![0u8; sealed_len(33)], vec![0u8; sealed_len(33)]);
        let n = s
            .seal(NOW, &nonce(3), &binding, principal, &state(33), &mut a)
            .unwrap();
        let m = s
            .seal_with(
                NOW,
                &nonce(3),
                &binding,
                digest.as_ref(),
                &state(33),
                &mut b,
            )
            .unwrap();
        assert_eq!(a[..n], b[..m]);
        let mut scratch = vec![0u8; n];
        let opened = s
            .unseal_with(NOW, &a[..n], &binding, digest.as_ref(), &mut scratch)
            .unwrap();
        assert_eq!(opened.state, &state(33)[..]);
        // The other principal, or none for some, is refused the same way.
        let other = PrincipalDigest::of(b"sub=mallory");
        let wrong = match principal {
            None => Some(&other),
            Some(_) => None,
        };
        assert_eq!(
            s.unseal_with(NOW, &a[..n], &binding, wrong, &mut scratch)
                .unwrap_err(),
            UnsealError::WrongPrincipal
        );
        if principal.is_some() {
            assert_eq!(
                s.unseal_with(NOW, &a[..n], &binding, Some(&other), &mut scratch)
                    .unwrap_err(),
                UnsealError::WrongPrincipal
            );
        }
    }
}

#[test]
fn a_principal_digest_does_not_debug_print_its_bytes() {
    let d = PrincipalDigest::of(PRINCIPAL);
    assert_eq!(format!("{d:?}"), "PrincipalDigest { .. }");
}

#[test]
fn the_principal_digest_is_the_sha256_of_the_principal_bytes() {
    // FIPS 180-2's "abc" vector: the bytes a fleet may key records by are
    // plain SHA-256, computable by any peer that knows the principal.
    let mut want = [0u8; 32];
    for (i, b) in want.iter_mut().enumerate() {
        let hex = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap();
    }
    assert_eq!(PrincipalDigest::of(b"abc").as_bytes(), &want);
}

#[test]
fn unseal_refusals_are_numbered_one_to_ten_with_their_log_reason() {
    let all = [
        (UnsealError::Malformed, "malformed token"),
        (UnsealError::TooLarge, "token larger than the maximum"),
        (UnsealError::UnknownKey, "token sealed under an unknown key"),
        (UnsealError::Tampered, "token failed authentication"),
        (UnsealError::Expired, "token expired"),
        (UnsealError::NotYetValid, "token issued in the future"),
        (
            UnsealError::WrongAudience,
            "token sealed for another audience",
        ),
        (UnsealError::WrongRequest, "token bound to another request"),
        (
            UnsealError::WrongPrincipal,
            "token bound to another principal",
        ),
        (UnsealError::ClockOutOfRange, "now is past MAX_UNIX_TIME"),
    ];
    for (i, (e, reason)) in all.into_iter().enumerate() {
        let code = i as u32 + 1;
        assert_eq!(e.code(), Some(code));
        assert_eq!(UnsealError::from_code(code), Some(e));
        assert_eq!(e.reason(), reason);
        assert_eq!(e.reason_c().to_str(), Ok(reason));
    }
    let short = UnsealError::BufferTooSmall { needed: 9 };
    assert_eq!(short.code(), None);
    assert_eq!(short.reason(), "scratch buffer too small");
    assert_eq!(UnsealError::from_code(0), None);
    assert_eq!(UnsealError::from_code(11), None);
}

#[test]
fn zero_selects_the_default_ttl_and_largest_token_but_not_the_skew() {
    assert_eq!(
        SealConfig::or_defaults(0, 0, 0),
        SealConfig {
            ttl_seconds: DEFAULT_TTL_SECONDS,
            clock_skew_seconds: 0,
            max_token_bytes: DEFAULT_MAX_TOKEN_BYTES,
        }
    );
    let given = SealConfig::or_defaults(30, 5, 900);
    assert_eq!(
        (
            given.ttl_seconds,
            given.clock_skew_seconds,
            given.max_token_bytes
        ),
        (30, 5, 900)
    );
}

#[test]
fn key_errors_about_keys_are_told_from_other_settings() {
    assert!(KeyError::NoKeys.is_about_keys());
    assert!(KeyError::WeakKey { index: 0 }.is_about_keys());
    assert!(!KeyError::EmptyAudience.is_about_keys());
    assert!(!KeyError::TtlOutOfRange { ttl_seconds: 0 }.is_about_keys());
}

#[test]
fn the_scrubbed_frame_runs_the_operation_once() {
    let mut runs = 0;
    in_own_frame_then_scrub(&mut || runs += 1);
    assert_eq!(runs, 1);
}

#[test]
fn every_ascii_character_escaped_in_input_has_serde_json_s_canonical_spelling() {
    // serde_json writes the same one escaping: `"`, `\` and the short
    // forms `\b \t \n \f \r`, `\u00xx` (lowercase) for the other controls,
    // everything else as itself.
    for code in 0u32..0x80 {
        let c = char::from_u32(code).unwrap();
        let text = format!("\"\\u{code:04X}\"");
        let want = serde_json::to_string(&c.to_string()).unwrap();
        assert_eq!(canonical(&text).unwrap(), want, "U+{code:04X}");
        let d = bind("tools/call", "t", Some(&format!("[{text}]")));
        assert_eq!(
            d,
            bind("tools/call", "t", Some(&format!("[{want}]"))),
            "U+{code:04X}"
        );
    }
}
