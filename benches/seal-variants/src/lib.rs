//! Sealing jobs: mrtr's `Sealer` against the floor (the raw AEAD it uses plus
//! one SHA-256), on 0 / 64 / 256 / 1024 bytes of application state.
//!
//! A separate crate from the main benchmarks so that `scripts/bench` can
//! rebuild it cheaply under each crypto backend configuration.

use chacha20poly1305::aead::{AeadInOut, KeyInit};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use mrtr_core::json;
use mrtr_core::seal::{binding_digest, sealed_len, SealConfig, Sealer};
use sha2::{Digest, Sha256};

/// The state sizes measured.
pub const SIZES: [usize; 4] = [0, 64, 256, 1024];

/// The server's key (fixed: the benchmark needs no secrecy).
pub const KEY: [u8; 32] = *b"bench key: 32 bytes, not uniform";
/// The audience.
pub const AUDIENCE: &[u8] = b"bench.example";
/// The principal bound into every token.
pub const PRINCIPAL: &[u8] = b"https://issuer.example|client-7|user-42";
/// The request the tokens are bound to.
pub const TOOL_NAME: &str = "deploy";
/// Its arguments.
pub const TOOL_ARGUMENTS: &str =
    r#"{"repo":"octocat/hello-world","environment":"production","replicas":3}"#;
/// "now", unix seconds.
pub const NOW: u64 = 1_785_000_000;

/// A sealing job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SealJob {
    /// `Sealer::seal` + `Sealer::unseal`, binding digest given, principal
    /// bound: what a server pays per round once it knows the request.
    Mrtr,
    /// The same plus `binding_digest` on each side (canonical arguments
    /// hashed when sealing and when checking the echo): the whole cost of
    /// protecting one round.
    MrtrWithBinding,
    /// The floor: XChaCha20-Poly1305 encrypt + decrypt of the state bytes
    /// (detached tag, no associated data) plus one SHA-256 over them.
    RawAead,
    /// `Sealer::unseal` alone of a token sealed once beforehand (binding
    /// digest given, principal bound): the server's cost of opening the
    /// echo (issue 27's unseal goal).
    MrtrUnseal,
    /// Its floor: XChaCha20-Poly1305 decrypt of the state bytes (detached
    /// tag, sealed once beforehand) plus one SHA-256 over them.
    RawOpen,
}

impl SealJob {
    /// Every job.
    pub const ALL: [SealJob; 3] = [SealJob::Mrtr, SealJob::MrtrWithBinding, SealJob::RawAead];

    /// The open-only jobs (issue 27), apart from [`SealJob::ALL`] so the
    /// crypto-backend table of `scripts/bench` keeps its rows.
    pub const OPEN: [SealJob; 2] = [SealJob::MrtrUnseal, SealJob::RawOpen];

    /// Its name in tables.
    pub fn name(self) -> &'static str {
        match self {
            SealJob::Mrtr => "mrtr seal+unseal",
            SealJob::MrtrWithBinding => "mrtr seal+unseal+binding",
            SealJob::RawAead => "raw XChaCha20-Poly1305+SHA-256",
            SealJob::MrtrUnseal => "mrtr unseal",
            SealJob::RawOpen => "raw XChaCha20-Poly1305 open+SHA-256",
        }
    }

    /// The job named `name`.
    pub fn parse(name: &str) -> Option<SealJob> {
        SealJob::ALL
            .into_iter()
            .chain(SealJob::OPEN)
            .find(|j| j.name() == name)
    }
}

/// One prepared sealing job on `size` bytes of state: each call seals and
/// opens once and returns a checksum.
pub struct SealRunner {
    job: SealJob,
    sealer: Sealer,
    binding: [u8; 32],
    state: Vec<u8>,
    token: Vec<u8>,
    scratch: Vec<u8>,
    nonce: [u8; 24],
    /// The open-only jobs: the token (`MrtrUnseal`) or ciphertext
    /// (`RawOpen`) length, and the detached tag (`RawOpen`).
    sealed: usize,
    tag: [u8; 16],
}

impl SealRunner {
    /// Prepares `job` on `size` bytes of state.
    pub fn new(job: SealJob, size: usize) -> SealRunner {
        let sealer = Sealer::new(&[&KEY], AUDIENCE, SealConfig::default()).expect("sealer");
        let mut r = SealRunner {
            job,
            sealer,
            binding: binding(),
            state: (0..size).map(|i| (i * 31 % 251) as u8).collect(),
            token: vec![0; sealed_len(size)],
            scratch: vec![0; sealed_len(size)],
            nonce: [7; 24],
            sealed: 0,
            tag: [0; 16],
        };
        match job {
            SealJob::MrtrUnseal => {
                r.sealed = r
                    .sealer
                    .seal(
                        NOW,
                        &r.nonce,
                        &r.binding,
                        Some(PRINCIPAL),
                        &r.state,
                        &mut r.token,
                    )
                    .expect("seal");
            }
            SealJob::RawOpen => {
                let n = r.state.len();
                let buf = &mut r.token[..n];
                buf.copy_from_slice(&r.state);
                let cipher = XChaCha20Poly1305::new(&KEY.into());
                let tag = cipher
                    .encrypt_inout_detached(&XNonce::from(r.nonce), &[], buf.into())
                    .expect("encrypt");
                r.tag.copy_from_slice(&tag);
                r.sealed = n;
            }
            _ => {}
        }
        r
    }

    /// One seal + open. Panics if opening fails (it never should).
    pub fn run(&mut self) -> u64 {
        // A fresh nonce per seal, as a server draws one (cheap stand-in for
        // a CSPRNG: the cost measured is the sealing, not the randomness).
        self.nonce[0] = self.nonce[0].wrapping_add(1);
        match self.job {
            SealJob::Mrtr => self.mrtr(self.binding, self.binding),
            SealJob::MrtrWithBinding => {
                let at_seal = binding();
                let at_unseal = binding();
                self.mrtr(at_seal, at_unseal)
            }
            SealJob::RawAead => self.raw(),
            SealJob::MrtrUnseal => self.unseal(),
            SealJob::RawOpen => self.raw_open(),
        }
    }

    fn unseal(&mut self) -> u64 {
        let token = &self.token[..self.sealed];
        let state = self
            .sealer
            .unseal(
                NOW + 1,
                token,
                &self.binding,
                Some(PRINCIPAL),
                &mut self.scratch,
            )
            .expect("unseal");
        state.state.len() as u64 + 1
    }

    fn raw_open(&mut self) -> u64 {
        let n = self.sealed;
        let buf = &mut self.scratch[..n];
        buf.copy_from_slice(&self.token[..n]);
        let cipher = XChaCha20Poly1305::new(&KEY.into());
        cipher
            .decrypt_inout_detached(&XNonce::from([7; 24]), &[], buf.into(), (&self.tag).into())
            .expect("decrypt");
        let digest = Sha256::digest(&*buf);
        u64::from(digest[0]) + n as u64 + 1
    }

    fn mrtr(&mut self, at_seal: [u8; 32], at_unseal: [u8; 32]) -> u64 {
        let n = self
            .sealer
            .seal(
                NOW,
                &self.nonce,
                &at_seal,
                Some(PRINCIPAL),
                &self.state,
                &mut self.token,
            )
            .expect("seal");
        let token = &self.token[..n];
        let state = self
            .sealer
            .unseal(
                NOW + 1,
                token,
                &at_unseal,
                Some(PRINCIPAL),
                &mut self.scratch,
            )
            .expect("unseal");
        (n + state.state.len()) as u64
    }

    fn raw(&mut self) -> u64 {
        let n = self.state.len();
        let buf = &mut self.scratch[..n];
        buf.copy_from_slice(&self.state);
        let cipher = XChaCha20Poly1305::new(&KEY.into());
        let nonce = XNonce::from(self.nonce);
        let tag = cipher
            .encrypt_inout_detached(&nonce, &[], buf.into())
            .expect("encrypt");
        let cipher = XChaCha20Poly1305::new(&KEY.into());
        cipher
            .decrypt_inout_detached(&nonce, &[], buf.into(), &tag)
            .expect("decrypt");
        let digest = Sha256::digest(&*buf);
        u64::from(digest[0]) + u64::from(tag[0]) + n as u64
    }
}

/// The binding digest of the benchmark's request.
pub fn binding() -> [u8; 32] {
    let args = json::parse(TOOL_ARGUMENTS.as_bytes()).expect("arguments");
    binding_digest("tools/call", TOOL_NAME, Some(args)).expect("binding")
}
