//! Target `unseal`: tokens against [`Sealer::unseal`].
//!
//! Input byte 0 picks the mode.
//!
//! Even: *arbitrary tokens*. Bytes 1..8: byte 1 picks the ring (bits 0-1),
//! the audience (bit 2), a principal (bit 3) and a short scratch (bit 4);
//! bytes 2..8 are `now` (LE, 48 bits); the rest is the token. Nobody without
//! a key can produce a valid tag, so every token must be refused, and a
//! scratch of [`unseal_scratch_len`] must always be enough.
//!
//! Odd: *genuine tokens, then mutated*. Byte 1 ring, audience, principal,
//! config (as above; bit 5 a 1-second TTL without skew, bit 6 the smallest
//! `max_token_bytes` that holds 40 bytes of state); bytes 2..10 `now` (LE);
//! bytes 10..34 the nonce; bytes 34..50 four mutations `(op, pos lo, pos hi,
//! value)`; the rest is the state (cut to what fits). The harness seals,
//! then checks: the genuine token unseals to the state, also under a ring
//! that only holds the sealing key among others, and within the exact
//! validity window (`[iat - skew, exp + skew]`); outside it, or for another
//! request, principal, audience or ring, it fails with the precise error.
//! Then the mutations are applied to the token text: any token that differs
//! from the genuine one by a single byte must be refused.
//!
//! Nonce misuse (issue 16): a second state (the first with its last byte
//! changed, or one byte longer) is sealed with the *same* caller nonce. The
//! two tokens must carry different nonces, each must unseal to its own
//! state, and a token made of one's nonce and the other's ciphertext and
//! tag (or its ciphertext with the other's tag) must be refused: a
//! repeated caller nonce reveals nothing that forges. A `now` past
//! `MAX_UNIX_TIME` must be refused by both operations.

use mrtr_core::seal::{
    binding_digest, sealed_len, token_len, unseal_scratch_len, SealConfig, SealError, Sealer,
    UnsealError, MAX_UNIX_TIME, NONCE_BYTES,
};

const KEYS: [&[u8]; 3] = [
    b"fuzz key zero: 32 bytes of secret",
    b"fuzz key one: 32 bytes of secret!",
    b"fuzz key two: 32 bytes of secret!",
];
const AUDIENCES: [&[u8]; 2] = [b"weather-server", b"weather-server-2"];
const PRINCIPALS: [&[u8]; 2] = [b"sub=alice", b"sub=bob"];

/// The key rings: keys[0] seals.
fn ring(sel: u8) -> Vec<&'static [u8]> {
    match sel & 3 {
        0 => vec![KEYS[0]],
        1 => vec![KEYS[0], KEYS[1]],
        2 => vec![KEYS[1], KEYS[0]],
        _ => vec![KEYS[2]],
    }
}

fn binding(which: u8) -> [u8; 32] {
    let args = mrtr_core::json::parse(br#"{"city":"Paris","days":3}"#).unwrap();
    binding_digest(
        "tools/call",
        if which == 0 { "get_weather" } else { "other" },
        Some(args),
    )
    .unwrap()
}

fn unseal(
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

fn u64_le(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    for (d, s) in b.iter_mut().zip(bytes) {
        *d = *s;
    }
    u64::from_le_bytes(b)
}

/// The target.
pub fn run(data: &[u8]) {
    match data.first() {
        None => {}
        Some(m) if m & 1 == 0 => arbitrary(data),
        Some(_) => genuine(data),
    }
}

fn arbitrary(data: &[u8]) {
    let sel = data.get(1).copied().unwrap_or(0);
    let now = u64_le(data.get(2..8).unwrap_or(&[]));
    let token = data.get(8..).unwrap_or(&[]);
    let aud = AUDIENCES[usize::from(sel >> 2 & 1)];
    let s = Sealer::new(&ring(sel), aud, SealConfig::default()).expect("sealer");
    let principal = (sel & 8 != 0).then_some(PRINCIPALS[0]);
    let need = unseal_scratch_len(token.len());
    let mut scratch = vec![0u8; if sel & 16 != 0 { need / 2 } else { need }];
    let r = s.unseal(now, token, &binding(0), principal, &mut scratch);
    match r {
        Ok(state) => panic!("a token nobody sealed was accepted: {state:?}"),
        Err(UnsealError::BufferTooSmall { needed }) => {
            assert!(sel & 16 != 0, "unseal_scratch_len was not enough");
            assert!(needed <= need && needed > scratch.len());
        }
        Err(_) => {}
    }
}

fn genuine(data: &[u8]) {
    let sel = data.get(1).copied().unwrap_or(0);
    let raw_now = u64_le(data.get(2..10).unwrap_or(&[]));
    let now = raw_now % (MAX_UNIX_TIME + 1);
    let mut nonce = [0u8; NONCE_BYTES];
    for (d, s) in nonce.iter_mut().zip(data.get(10..34).unwrap_or(&[])) {
        *d = *s;
    }
    let ops = data.get(34..50).unwrap_or(&[]);
    let state_in = data.get(50..).unwrap_or(&[]);

    let config = SealConfig {
        ttl_seconds: if sel & 32 != 0 { 1 } else { 600 },
        clock_skew_seconds: if sel & 32 != 0 { 0 } else { 60 },
        max_token_bytes: if sel & 64 != 0 {
            sealed_len(40)
        } else {
            SealConfig::default().max_token_bytes
        },
    };
    let keys = ring(sel);
    let aud = AUDIENCES[usize::from(sel >> 2 & 1)];
    let s = Sealer::new(&keys, aud, config).expect("sealer");
    let principal = (sel & 8 != 0).then_some(PRINCIPALS[0]);
    let state = &state_in[..state_in.len().min(s.max_state_len())];
    let bind = binding(0);

    let mut out = vec![0u8; sealed_len(state.len())];
    if raw_now > MAX_UNIX_TIME {
        assert_eq!(
            s.seal(raw_now, &nonce, &bind, principal, state, &mut out),
            Err(SealError::ClockOutOfRange)
        );
    }
    let n = match s.seal(now, &nonce, &bind, principal, state, &mut out) {
        Ok(n) => n,
        Err(SealError::TooLarge { needed, max }) => panic!(
            "max_state_len {} does not fit: {needed} > {max}",
            s.max_state_len()
        ),
        Err(e) => panic!("sealing into sealed_len bytes failed: {e:?}"),
    };
    assert_eq!(n, token_len(state.len(), principal.is_some()));
    let token = &out[..n];
    assert!(token.starts_with(b"m2."));
    assert!(token[3..]
        .iter()
        .all(|c| c.is_ascii_alphanumeric() || *c == b'-' || *c == b'_'));

    // The genuine token, as presented by its own request.
    assert_eq!(
        unseal(&s, now, token, &bind, principal).as_deref(),
        Ok(state)
    );
    // Any ring holding the sealing key opens it; one without it does not.
    let sealing_key = keys[0];
    let others: Vec<&[u8]> = KEYS.iter().copied().filter(|k| *k != sealing_key).collect();
    let rotated = Sealer::new(&[others[0], sealing_key], aud, config).expect("ring");
    assert_eq!(
        unseal(&rotated, now, token, &bind, principal).as_deref(),
        Ok(state)
    );
    let foreign = Sealer::new(&others, aud, config).expect("ring");
    assert_eq!(
        unseal(&foreign, now, token, &bind, principal),
        Err(UnsealError::UnknownKey)
    );
    let other_aud = AUDIENCES[usize::from(!(sel >> 2) & 1)];
    let other = Sealer::new(&keys, other_aud, config).expect("sealer");
    assert_eq!(
        unseal(&other, now, token, &bind, principal),
        Err(UnsealError::Tampered)
    );
    // The validity window, to the second.
    let (ttl, skew) = (config.ttl_seconds, config.clock_skew_seconds);
    if let Some(last) = now.checked_add(ttl).and_then(|e| e.checked_add(skew)) {
        // Past the end of year 9999 the clock itself is refused.
        let at = |t: u64| {
            if t > MAX_UNIX_TIME {
                Err(UnsealError::ClockOutOfRange)
            } else {
                Ok(())
            }
        };
        assert_eq!(
            unseal(&s, last, token, &bind, principal),
            at(last).map(|()| state.to_vec())
        );
        if let Some(late) = last.checked_add(1) {
            assert_eq!(
                unseal(&s, late, token, &bind, principal),
                at(late).and(Err(UnsealError::Expired))
            );
        }
    }
    if let Some(first) = now.checked_sub(skew) {
        assert_eq!(
            unseal(&s, first, token, &bind, principal).as_deref(),
            Ok(state)
        );
        if let Some(early) = first.checked_sub(1) {
            assert_eq!(
                unseal(&s, early, token, &bind, principal),
                Err(UnsealError::NotYetValid)
            );
        }
    }
    // Another request, another principal.
    assert_eq!(
        unseal(&s, now, token, &binding(1), principal),
        Err(UnsealError::WrongRequest)
    );
    let wrong = match principal {
        Some(_) => Some(PRINCIPALS[1]),
        None => Some(PRINCIPALS[0]),
    };
    assert_eq!(
        unseal(&s, now, token, &bind, wrong),
        Err(UnsealError::WrongPrincipal)
    );
    if principal.is_some() {
        assert_eq!(
            unseal(&s, now, token, &bind, None),
            Err(UnsealError::WrongPrincipal)
        );
    }

    if raw_now > MAX_UNIX_TIME {
        assert_eq!(
            unseal(&s, raw_now, token, &bind, principal),
            Err(UnsealError::ClockOutOfRange)
        );
    }
    nonce_reuse(&s, now, &nonce, &bind, principal, state, token);

    // Mutations of the text: each single step must be refused unless it
    // gave the genuine token back.
    let mut t = token.to_vec();
    for op in ops.chunks_exact(4) {
        let (kind, pos, value) = (
            op[0],
            usize::from(u16::from_le_bytes([op[1], op[2]])),
            op[3],
        );
        mutate(&mut t, kind, pos, value);
        let r = unseal(&s, now, &t, &bind, principal);
        if t == token {
            assert_eq!(r.as_deref(), Ok(state));
        } else {
            assert!(
                r.is_err(),
                "a modified token was accepted: {}",
                String::from_utf8_lossy(&t)
            );
        }
    }
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn mutate(t: &mut Vec<u8>, kind: u8, pos: usize, value: u8) {
    let len = t.len();
    let at = if len == 0 { 0 } else { pos % len };
    match kind % 8 {
        // Flip one bit.
        0 => {
            if let Some(b) = t.get_mut(at) {
                *b ^= 1 << (value % 8);
            }
        }
        // Another alphabet character.
        1 => {
            if let Some(b) = t.get_mut(at) {
                *b = ALPHABET[usize::from(value % 64)];
            }
        }
        // Insert an alphabet character.
        2 => t.insert(at.min(len), ALPHABET[usize::from(value % 64)]),
        // Delete one byte.
        3 => {
            if at < len {
                t.remove(at);
            }
        }
        // Truncate.
        4 => t.truncate(at),
        // Swap two bytes.
        5 => {
            let other = usize::from(value) % len.max(1);
            if at < len && other < len {
                t.swap(at, other);
            }
        }
        // Append padding or a raw byte.
        6 => t.push(if value & 1 == 0 { b'=' } else { value }),
        // Any byte.
        _ => {
            if let Some(b) = t.get_mut(at) {
                *b = value;
            }
        }
    }
}

/// Seals a second, different state with the same caller nonce and checks
/// that nothing of one token helps forge another (see the module docs).
fn nonce_reuse(
    s: &Sealer,
    now: u64,
    nonce: &[u8; NONCE_BYTES],
    bind: &[u8; 32],
    principal: Option<&[u8]>,
    state: &[u8],
    token: &[u8],
) {
    let mut second = state.to_vec();
    let full = second.len() >= s.max_state_len();
    match second.last_mut() {
        Some(b) if full => *b ^= 0x01,
        _ => second.push(0x5a),
    }
    let mut out = vec![0u8; sealed_len(second.len())];
    let n = s
        .seal(now, nonce, bind, principal, &second, &mut out)
        .expect("the second state fits");
    let token2 = &out[..n];
    assert_eq!(
        unseal(s, now, token2, bind, principal).as_deref(),
        Ok(&second[..])
    );
    let (b1, b2) = (decode(&token[3..]), decode(&token2[3..]));
    // kid 4, nonce 24, then ciphertext, then a 16-byte tag.
    assert_ne!(b1[4..28], b2[4..28], "two plaintexts, one nonce");
    // The same seal again is the same token (deterministic, no leak).
    let mut again = vec![0u8; sealed_len(state.len())];
    let m = s
        .seal(now, nonce, bind, principal, state, &mut again)
        .expect("seal");
    assert_eq!(&again[..m], token);
    // Splices: one token's nonce with the other's body; one's ciphertext
    // with the other's tag (equal lengths only).
    let mut splice = b1[..28].to_vec();
    splice.extend_from_slice(&b2[28..]);
    assert!(unseal(s, now, &encode(&splice), bind, principal).is_err());
    if b1.len() == b2.len() {
        let mut mixed = b1[..b1.len() - 16].to_vec();
        mixed.extend_from_slice(&b2[b2.len() - 16..]);
        assert!(unseal(s, now, &encode(&mixed), bind, principal).is_err());
    }
}

fn sextet(c: u8) -> u32 {
    ALPHABET.iter().position(|a| *a == c).expect("base64url") as u32
}

/// base64url without padding, decoded (the harness's own, for splicing).
pub(crate) fn decode(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    for chunk in text.chunks(4) {
        let mut acc = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            acc |= sextet(*c) << (18 - 6 * i);
        }
        let bytes = acc.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}

/// base64url without padding, with the token prefix.
pub(crate) fn encode(bin: &[u8]) -> Vec<u8> {
    let mut out = b"m2.".to_vec();
    for chunk in bin.chunks(3) {
        let mut acc = 0u32;
        for (i, b) in chunk.iter().enumerate() {
            acc |= u32::from(*b) << (16 - 8 * i);
        }
        for i in 0..=chunk.len() {
            out.push(ALPHABET[((acc >> (18 - 6 * i)) & 63) as usize]);
        }
    }
    out
}
