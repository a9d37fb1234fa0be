//! Times (or runs for callgrind) the sealing jobs of this build.
//!
//! ```text
//! mrtr-seal-variants time [ROUNDS]      one JSON line per job and size
//! mrtr-seal-variants count JOB SIZE N   run JOB N times (for callgrind)
//! ```
//!
//! `time` interleaves the jobs: each round runs one batch (about 2 ms) of
//! every job in turn, and the per-operation time is the median over rounds,
//! so machine noise falls on all jobs alike. `scripts/bench` builds this
//! binary once per crypto backend configuration and compares the lines.

use std::hint::black_box;
use std::time::Instant;

use mrtr_seal_variants::{SealJob, SealRunner, SIZES};

fn batch(r: &mut SealRunner, iters: u64) -> f64 {
    let start = Instant::now();
    for _ in 0..iters {
        black_box(r.run());
    }
    start.elapsed().as_nanos() as f64 / iters as f64
}

fn time(rounds: usize) {
    let mut jobs: Vec<(SealJob, usize, SealRunner, u64, Vec<f64>)> = Vec::new();
    for job in SealJob::ALL {
        for size in SIZES {
            let mut r = SealRunner::new(job, size);
            // Calibrate: iterations for a ~2 ms batch.
            let per_op = batch(&mut r, 200).max(1.0);
            let iters = ((2e6 / per_op) as u64).max(10);
            jobs.push((job, size, r, iters, Vec::new()));
        }
    }
    for _ in 0..rounds {
        for (_, _, r, iters, samples) in jobs.iter_mut() {
            samples.push(batch(r, *iters));
        }
    }
    for (job, size, _, iters, mut samples) in jobs {
        samples.sort_by(|a, b| a.total_cmp(b));
        let median = samples[samples.len() / 2];
        println!(
            "{{\"job\":\"{}\",\"size\":{},\"ns\":{:.1},\"min_ns\":{:.1},\"iters\":{}}}",
            job.name(),
            size,
            median,
            samples[0],
            iters
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("time") => time(args.get(2).and_then(|r| r.parse().ok()).unwrap_or(41)),
        Some("count") => {
            let job = args
                .get(2)
                .and_then(|j| SealJob::parse(j))
                .expect("job name");
            let size: usize = args.get(3).and_then(|s| s.parse().ok()).expect("size");
            let n: u64 = args
                .get(4)
                .and_then(|s| s.parse().ok())
                .expect("iterations");
            let mut r = SealRunner::new(job, size);
            black_box(r.run());
            measured(&mut r, n);
        }
        _ => {
            eprintln!("usage: mrtr-seal-variants time [ROUNDS] | count JOB SIZE N");
            std::process::exit(2);
        }
    }
}

/// The loop callgrind counts (`--toggle-collect=mrtr_bench_measured*`).
#[inline(never)]
#[no_mangle]
pub extern "Rust" fn mrtr_bench_measured(r: &mut SealRunner, n: u64) {
    for _ in 0..n {
        black_box(r.run());
    }
}

fn measured(r: &mut SealRunner, n: u64) {
    mrtr_bench_measured(r, n);
}
