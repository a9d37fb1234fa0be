//! `mrtr-demo-server`: see `--help` and the crate README.

use std::io;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use mrtr_demo_server::config::{self, parse_args, parse_keys, USAGE};
use mrtr_demo_server::replay_store::ReplayStore;
use mrtr_demo_server::{http, stdio, Demo};

fn os_random(buf: &mut [u8]) {
    if let Err(e) = getrandom::fill(buf) {
        // Without randomness no nonce is safe: stop rather than repeat one.
        eprintln!("mrtr-demo-server: OS random number generator failed: {e}");
        std::process::abort();
    }
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

fn run() -> Result<(), String> {
    let opts = parse_args(std::env::args().skip(1)).map_err(|e| e.to_string())?;
    if opts.help {
        print!("{USAGE}");
        return Ok(());
    }
    let keys = match std::env::var("MRTR_KEYS") {
        Ok(v) => parse_keys(&v).map_err(|e| e.to_string())?,
        Err(std::env::VarError::NotPresent) => {
            eprintln!(
                "{}: warning: MRTR_KEYS not set; sealing requestState with a random per-process key \
                 (state does not survive a restart or reach another instance)",
                opts.audience
            );
            let mut key = vec![0u8; 32];
            os_random(&mut key);
            vec![key]
        }
        Err(e) => return Err(format!("MRTR_KEYS: {e}")),
    };
    let demo = Demo::new(
        &opts.audience,
        &keys,
        Box::new(unix_now),
        Box::new(os_random),
        opts.log,
    )
    .map_err(|e| format!("MRTR_KEYS: {e}"))?;
    let demo = match opts.replay_cache {
        Some(n) => demo.with_replay_cache(n),
        None => demo,
    };
    let demo = match opts.replay_store {
        Some(addr) => {
            eprintln!(
                "{}: replay store at {addr}: every requestState token is one-shot across the fleet",
                opts.audience
            );
            demo.with_replay_store(ReplayStore::new(addr, &opts.audience))
        }
        None => demo,
    };
    let demo = if opts.seed_tasks {
        demo.with_seed_tasks()
    } else {
        demo
    };
    let key_ids: Vec<String> = demo_key_ids(&keys);
    if opts.log {
        eprintln!("{}: key ids {}", opts.audience, key_ids.join(","));
    }
    match opts.http {
        Some(addr) => {
            http::serve(Arc::new(demo), addr, opts.workers).map_err(|e| format!("http: {e}"))
        }
        None => {
            let stdin = io::stdin();
            let stdout = io::stdout();
            stdio::serve(&demo, &mut stdin.lock(), &mut stdout.lock())
                .map_err(|e| format!("stdio: {e}"))
        }
    }
}

fn demo_key_ids(keys: &[Vec<u8>]) -> Vec<String> {
    let refs: Vec<&[u8]> = keys.iter().map(Vec::as_slice).collect();
    mrtr_core::seal::Sealer::new(&refs, b"ids", Default::default())
        .map(|s| s.key_ids().map(|k| config::hex(&k)).collect())
        .unwrap_or_default()
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mrtr-demo-server: {e}");
            ExitCode::from(2)
        }
    }
}
