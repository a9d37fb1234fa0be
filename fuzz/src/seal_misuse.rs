//! Target `seal_misuse`: the nonce-misuse property of [`Sealer::seal`]
//! (issue 16). The caller's nonce is the fuzzer's, and so is everything
//! else, but two seals always share it and the key.
//!
//! Input: byte 0 picks the ring (bits 0-1: which key seals, and whether a
//! second key is in the ring), the audience (bit 2) and a principal (bit 3);
//! bytes 1..9 are `now` (LE, taken modulo `MAX_UNIX_TIME + 1`); bytes 9..33
//! the caller nonce; byte 33 where the rest splits into two states A and B
//! (B is changed by one byte when they come out equal); bytes 34.. the
//! states (each cut to what fits).
//!
//! Properties: A and B, sealed with the same caller nonce and key, get
//! different synthetic nonces (and different token ids); each token unseals
//! to exactly its own state; sealing A again gives A's token byte for byte
//! (a repeated caller nonce reveals only that two identical seals are
//! identical); every token assembled from the parts of the two (header =
//! kid and nonce, ciphertext, tag) other than the two genuine ones is
//! refused, and so is each genuine token presented for the other one's
//! request.

use mrtr_core::seal::{
    binding_digest, sealed_len, unseal_scratch_len, SealConfig, Sealer, Unsealed, MAX_UNIX_TIME,
    NONCE_BYTES,
};

use crate::unseal::{decode, encode};

const KEYS: [&[u8]; 2] = [
    b"misuse key zero: 32 bytes secret",
    b"misuse key one: 32 bytes, secret",
];
const AUDIENCES: [&[u8]; 2] = [b"weather-server", b"billing-server"];
const PRINCIPAL: &[u8] = b"sub=alice";
/// kid 4 + nonce 24.
const HEADER: usize = 28;
const TAG: usize = 16;

fn binding(target: &str) -> [u8; 32] {
    let args = mrtr_core::json::parse(br#"{"amount":1}"#).unwrap();
    binding_digest("tools/call", target, Some(args)).unwrap()
}

fn u64_le(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    for (d, s) in b.iter_mut().zip(bytes) {
        *d = *s;
    }
    u64::from_le_bytes(b)
}

/// Unseals `token`: the state and the token id, or None when refused.
fn open(
    s: &Sealer,
    now: u64,
    token: &[u8],
    bind: &[u8; 32],
    principal: Option<&[u8]>,
) -> Option<(Vec<u8>, [u8; 16])> {
    let mut scratch = vec![0u8; unseal_scratch_len(token.len())];
    match s.unseal(now, token, bind, principal, &mut scratch) {
        Ok(Unsealed {
            state, token_id, ..
        }) => Some((state.to_vec(), token_id)),
        Err(_) => {
            // A refusal leaves no decrypted byte behind.
            assert!(scratch.iter().all(|b| *b == 0), "scratch not wiped");
            None
        }
    }
}

/// The target.
pub fn run(data: &[u8]) {
    let sel = data.first().copied().unwrap_or(0);
    let now = u64_le(data.get(1..9).unwrap_or(&[])) % (MAX_UNIX_TIME + 1);
    let mut nonce = [0u8; NONCE_BYTES];
    for (d, s) in nonce.iter_mut().zip(data.get(9..33).unwrap_or(&[])) {
        *d = *s;
    }
    let split = usize::from(data.get(33).copied().unwrap_or(0));
    let rest = data.get(34..).unwrap_or(&[]);
    let (a, b) = rest.split_at(split.min(rest.len()));

    let sealing = KEYS[usize::from(sel & 1)];
    let ring: Vec<&[u8]> = if sel & 2 != 0 {
        vec![sealing, KEYS[usize::from(!sel & 1)]]
    } else {
        vec![sealing]
    };
    let s = Sealer::new(
        &ring,
        AUDIENCES[usize::from(sel >> 2 & 1)],
        SealConfig::default(),
    )
    .expect("sealer");
    let principal = (sel & 8 != 0).then_some(PRINCIPAL);
    let max = s.max_state_len();
    let a = &a[..a.len().min(max)];
    let mut b = b[..b.len().min(max)].to_vec();
    if b == a {
        let full = b.len() >= max;
        match b.last_mut() {
            Some(x) if full => *x ^= 0x80,
            _ => b.push(0xa5),
        }
    }
    let bind = binding("transfer");

    let seal = |state: &[u8]| {
        let mut out = vec![0u8; sealed_len(state.len())];
        let n = s
            .seal(now, &nonce, &bind, principal, state, &mut out)
            .expect("a state of at most max_state_len seals");
        out.truncate(n);
        out
    };
    let (ta, tb) = (seal(a), seal(&b));
    assert_eq!(seal(a), ta, "the same seal twice is the same token");
    let (ba, bb) = (decode(&ta[3..]), decode(&tb[3..]));
    assert_ne!(
        ba[4..HEADER],
        bb[4..HEADER],
        "two plaintexts got one nonce under one caller nonce"
    );

    let (sa, ida) = open(&s, now, &ta, &bind, principal).expect("A unseals");
    let (sb, idb) = open(&s, now, &tb, &bind, principal).expect("B unseals");
    assert_eq!(sa, a);
    assert_eq!(sb, b);
    assert_ne!(ida, idb, "distinct seals, one token id");

    // Each verifies only for its own request.
    let other = binding("refund");
    assert!(open(&s, now, &ta, &other, principal).is_none());
    assert!(open(&s, now, &tb, &other, principal).is_none());

    // Every mix of header, ciphertext and tag but the two genuine ones.
    let parts = |t: &[u8]| {
        let (h, rest) = t.split_at(HEADER);
        let (c, tag) = rest.split_at(rest.len() - TAG);
        (h.to_vec(), c.to_vec(), tag.to_vec())
    };
    let (pa, pb) = (parts(&ba), parts(&bb));
    for mask in 1u8..7 {
        let pick = |bit: u8| if mask & bit != 0 { &pb } else { &pa };
        let mut bin = pick(1).0.clone();
        bin.extend_from_slice(&pick(2).1);
        bin.extend_from_slice(&pick(4).2);
        let token = encode(&bin);
        if token == ta || token == tb {
            continue;
        }
        assert!(
            open(&s, now, &token, &bind, principal).is_none(),
            "a splice of two tokens under one caller nonce was accepted (mask {mask})"
        );
    }
    // Ciphertexts XORed: with one (key, nonce) pair c_a ^ c_b would equal
    // p_a ^ p_b over the shared length, and the keystream would leak. The
    // claims before the state are the same for A and B, so under a shared
    // keystream the ciphertexts would agree on those bytes.
    let fixed = pa.1.len().min(pb.1.len()).min(60);
    assert_ne!(
        pa.1[..fixed],
        pb.1[..fixed],
        "the ciphertexts share a keystream"
    );
}
