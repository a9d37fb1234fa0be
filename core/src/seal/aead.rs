//! XChaCha20-Poly1305 (RFC 8439's AEAD with the 24-byte nonce of
//! draft-irtf-cfrg-xchacha), the same bytes as the `chacha20poly1305`
//! crate's, with the keystream drawn in whole batches of the ChaCha20
//! backend.
//!
//! Why not that crate's own `encrypt_inout_detached`: it takes the
//! Poly1305 key (32 bytes of block 0) and the keystream's last, partial
//! block one block at a time, and a SIMD backend computes a whole batch
//! (4 blocks with SSE2 or AVX2, 8 with NEON) for every block it is asked
//! for alone. A token's plaintext is a few blocks, so that tripled the
//! ChaCha20 work of a 256-byte state. Here block 0 and the message's
//! blocks come from the same batches: a batch a SIMD backend computes at
//! once, one block on the portable backend (nothing is computed that is
//! not used there).
//!
//! Opening verifies the tag before it decrypts: the first batch is drawn,
//! the tag is checked with block 0's key, and only then is the ciphertext
//! decrypted (the rest of that batch first). A refused token is left as it
//! came. The keystream and key blocks are wiped before returning.

use chacha20::cipher::consts::U64;
use chacha20::cipher::{
    BlockSizeUser, KeyIvInit, ParBlocks, StreamCipherBackend, StreamCipherClosure, StreamCipherCore,
};
use chacha20::variants::Ietf;
use chacha20::{hchacha, ChaChaCore, R20};
use poly1305::universal_hash::{KeyInit, UniversalHash};
use poly1305::Poly1305;
use zeroize::Zeroize;

/// Bytes of a ChaCha20 block.
const BLOCK: usize = 64;

/// Length of a Poly1305 tag.
pub(crate) const TAG: usize = 16;

/// Encrypts `data` in place under `key` and the 24-byte `nonce`, with `ad`
/// authenticated; returns the tag. `None` only for a message of 2^32
/// blocks (256 GiB) or more, which the cipher's 32-bit counter cannot
/// reach.
pub(crate) fn seal(
    key: &[u8; 32],
    nonce: &[u8; 24],
    ad: &[u8],
    data: &mut [u8],
) -> Option<[u8; TAG]> {
    let mut tag = [0u8; TAG];
    run(key, nonce, ad, data, &mut tag, Mode::Seal).then_some(tag)
}

/// Decrypts `data` in place when `tag` authenticates it (with `ad`) under
/// `key` and the 24-byte `nonce`; returns whether it did. A refused
/// message is not touched.
pub(crate) fn open(
    key: &[u8; 32],
    nonce: &[u8; 24],
    ad: &[u8],
    data: &mut [u8],
    tag: &[u8; TAG],
) -> bool {
    let mut expected = *tag;
    run(key, nonce, ad, data, &mut expected, Mode::Open)
}

/// Which way [`run`] goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Seal,
    Open,
}

/// The body of [`seal`] and [`open`]: `tag` receives the tag (seal) or
/// holds the one to check (open).
fn run(
    key: &[u8; 32],
    nonce: &[u8; 24],
    ad: &[u8],
    data: &mut [u8],
    tag: &mut [u8; TAG],
    mode: Mode,
) -> bool {
    // The 32-bit block counter starts at 0 (the Poly1305 key) and must not
    // wrap within the message.
    if data.len() / BLOCK >= u32::MAX as usize {
        return false;
    }
    let Some((head, tail)) = nonce.split_first_chunk::<16>() else {
        return false;
    };
    // The IETF nonce: four zero bytes, then the nonce's last eight.
    let mut iv = [0u8; 12];
    if let Some(low) = iv.get_mut(4..) {
        crate::bytes::copy(low, tail);
    }
    // XChaCha20: ChaCha20 under the HChaCha20 subkey of the key and the
    // nonce's first 16 bytes, with its last 8 bytes as the IETF nonce.
    let mut subkey = hchacha::<R20>(key.into(), head.into());
    let mut core = ChaChaCore::<R20, Ietf>::new(&subkey, &iv.into());
    subkey.zeroize();
    let mut ok = false;
    core.process_with_backend(Batches {
        ad,
        data,
        tag,
        mode,
        ok: &mut ok,
    });
    ok
}

/// The work done with the cipher's backend (the closure
/// `process_with_backend` hands it to).
struct Batches<'a> {
    ad: &'a [u8],
    data: &'a mut [u8],
    tag: &'a mut [u8; TAG],
    mode: Mode,
    ok: &'a mut bool,
}

impl BlockSizeUser for Batches<'_> {
    type BlockSize = U64;
}

impl StreamCipherClosure for Batches<'_> {
    fn call<B: StreamCipherBackend<BlockSize = U64>>(self, backend: &mut B) {
        let Batches {
            ad,
            data,
            tag,
            mode,
            ok,
        } = self;
        let mut batch = ParBlocks::<B>::default();
        backend.gen_par_ks_blocks(&mut batch);
        let mac_key = batch.first().and_then(|b| b.get(..32));
        let Some(Ok(mac)) = mac_key.map(Poly1305::new_from_slice) else {
            wipe::<B>(&mut batch);
            return;
        };
        // Opening: the tag is checked before a byte is decrypted.
        let mac = match mode {
            Mode::Seal => Some(mac),
            Mode::Open => {
                if authenticator(mac, ad, data).verify(&(*tag).into()).is_err() {
                    wipe::<B>(&mut batch);
                    return;
                }
                None
            }
        };
        // Block 0 keyed the MAC; the message takes the blocks after it.
        let mut chunks = data.chunks_mut(BLOCK);
        let mut skip = 1;
        loop {
            // The batch's blocks drive the zip: a chunk is taken only when
            // a block is there for it.
            for (ks, chunk) in batch.iter().skip(skip).zip(chunks.by_ref()) {
                for (byte, k) in chunk.iter_mut().zip(ks.iter()) {
                    *byte ^= *k;
                }
            }
            if chunks.len() == 0 {
                break;
            }
            skip = 0;
            backend.gen_par_ks_blocks(&mut batch);
        }
        wipe::<B>(&mut batch);
        if let Some(mac) = mac {
            *tag = authenticator(mac, ad, data).finalize().into();
        }
        *ok = true;
    }
}

/// Poly1305 of `ad` and `ciphertext` as RFC 8439 lays them out: each
/// zero-padded to 16 bytes, then both lengths as little-endian `u64`s.
fn authenticator(mut mac: Poly1305, ad: &[u8], ciphertext: &[u8]) -> Poly1305 {
    mac.update_padded(ad);
    mac.update_padded(ciphertext);
    // Both lengths, u64 little-endian each: one u128's bytes (the
    // ciphertext's length above the AD's).
    let lengths = (((ciphertext.len() as u128) << 64) | ad.len() as u128).to_le_bytes();
    mac.update(&[lengths.into()]);
    mac
}

/// Zeroes every block of a batch (keystream, and block 0's Poly1305 key).
fn wipe<B: StreamCipherBackend<BlockSize = U64>>(batch: &mut ParBlocks<B>) {
    for block in batch.iter_mut() {
        block.as_mut_slice().zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chacha20poly1305::aead::AeadInOut;
    use chacha20poly1305::{Tag, XChaCha20Poly1305, XNonce};
    use std::vec::Vec;

    /// Deterministic bytes (a 64-bit LCG's high bytes).
    fn bytes(seed: u64, n: usize) -> Vec<u8> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (x >> 56) as u8
            })
            .collect()
    }

    #[test]
    fn seals_and_opens_the_bytes_chacha20poly1305_does() {
        // Every length up to eleven blocks (every remainder of every batch
        // size: 1, 4, 8 blocks), with associated data of several lengths.
        for len in 0..=11 * BLOCK + 1 {
            for ad_len in [0, 1, 15, 16, 17, 40] {
                let seed = (len * 64 + ad_len) as u64;
                let key: [u8; 32] = bytes(seed, 32).try_into().unwrap();
                let nonce: [u8; 24] = bytes(seed + 1, 24).try_into().unwrap();
                let ad = bytes(seed + 2, ad_len);
                let plain = bytes(seed + 3, len);

                let mut want = plain.clone();
                let want_tag = XChaCha20Poly1305::new(&key.into())
                    .encrypt_inout_detached(&XNonce::from(nonce), &ad, want.as_mut_slice().into())
                    .unwrap();
                let mut got = plain.clone();
                let tag = seal(&key, &nonce, &ad, &mut got).unwrap();
                assert_eq!(got, want, "ciphertext, {len} bytes, ad {ad_len}");
                assert_eq!(
                    &tag[..],
                    want_tag.as_slice(),
                    "tag, {len} bytes, ad {ad_len}"
                );

                assert!(open(&key, &nonce, &ad, &mut got, &tag), "{len} bytes");
                assert_eq!(got, plain, "opened, {len} bytes, ad {ad_len}");
            }
        }
    }

    #[test]
    fn a_changed_bit_anywhere_is_refused_and_nothing_is_decrypted() {
        let key = [7u8; 32];
        let nonce = [9u8; 24];
        let ad = b"m2.kid!audience";
        let plain = bytes(1, 300);
        let mut sealed = plain.clone();
        let tag = seal(&key, &nonce, ad, &mut sealed).unwrap();
        // The reference refuses the same changes.
        let refuses = |k: &[u8; 32], n: &[u8; 24], a: &[u8], c: &[u8], t: &[u8; 16]| {
            let mut c = c.to_vec();
            XChaCha20Poly1305::new(&(*k).into())
                .decrypt_inout_detached(
                    &XNonce::from(*n),
                    a,
                    c.as_mut_slice().into(),
                    &Tag::from(*t),
                )
                .is_err()
        };
        let check = |k: [u8; 32], n: [u8; 24], a: &[u8], c: &[u8], t: [u8; 16]| {
            let mut data = c.to_vec();
            assert!(!open(&k, &n, a, &mut data, &t));
            assert_eq!(data, c, "a refused message is left as it came");
            assert!(refuses(&k, &n, a, c, &t));
        };
        for bit in 0..8 {
            for at in [0, 1, 63, 64, 255, 299] {
                let mut c = sealed.clone();
                c[at] ^= 1 << bit;
                check(key, nonce, ad, &c, tag);
            }
            for at in [0, 15] {
                let mut t = tag;
                t[at] ^= 1 << bit;
                check(key, nonce, ad, &sealed, t);
            }
            for at in [0, 23] {
                let mut n = nonce;
                n[at] ^= 1 << bit;
                check(key, n, ad, &sealed, tag);
            }
            let mut k = key;
            k[31] ^= 1 << bit;
            check(k, nonce, ad, &sealed, tag);
            let mut a = ad.to_vec();
            a[3] ^= 1 << bit;
            check(key, nonce, &a, &sealed, tag);
        }
        // Shorter or longer: refused too.
        check(key, nonce, ad, &sealed[..299], tag);
        check(key, nonce, &ad[..14], &sealed, tag);
        let mut data = sealed.clone();
        assert!(open(&key, &nonce, ad, &mut data, &tag));
        assert_eq!(data, plain);
    }
}
