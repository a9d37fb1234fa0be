//! Runs one job many times so that `valgrind --tool=callgrind` can count
//! instructions per operation, and writes the inputs for the Python bench.
//!
//! ```text
//! mrtr-callgrind run CONTENDER JOB INPUT N   N operations of JOB
//! mrtr-callgrind seal JOB SIZE N             N seal+open (mrtr, floor, rmcp)
//! mrtr-callgrind dump DIR                    inputs + expected results as files
//! mrtr-callgrind list                        contender / job / input names
//! mrtr-callgrind check                       contenders agree, mrtr allocates 0
//! ```
//!
//! `check` is what the test command runs (`scripts/test`, stage bench-check):
//! for every input, every contender gives the same summary and retry
//! (`jobs::check`), every mrtr job (Rust and C ABI, sealing included)
//! runs without one allocation, and rmcp's seal job opens what it sealed,
//! in its key-id (`rs2`) format. No timing.
//!
//! Only `mrtr_bench_measured` is counted (`--collect-atstart=no
//! --toggle-collect=mrtr_bench_measured`): setup and one warm-up operation
//! run outside it, so instructions / N is the cost of one operation.

use std::hint::black_box;

use mrtr_bench::alloc_count::{self, Counting};
use mrtr_bench::contenders::{mrtr, rmcp_sdk};
use mrtr_bench::inputs;
use mrtr_bench::jobs::{check, runner, Contender, Job};
use mrtr_seal_variants::{SealJob, SealRunner, SIZES};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The loop callgrind counts.
#[inline(never)]
#[no_mangle]
pub extern "Rust" fn mrtr_bench_measured(op: &mut dyn FnMut() -> u64, n: u64) -> u64 {
    let mut acc = 0u64;
    for _ in 0..n {
        acc = acc.wrapping_add(black_box(op()));
    }
    acc
}

fn usage() -> ! {
    eprintln!(
        "usage: mrtr-callgrind run CONTENDER JOB INPUT N | seal JOB SIZE N | dump DIR | list"
    );
    std::process::exit(2)
}

fn arg(args: &[String], i: usize) -> &str {
    args.get(i).map(String::as_str).unwrap_or_else(|| usage())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match arg(&args, 1) {
        "run" => {
            let contender = Contender::parse(arg(&args, 2)).unwrap_or_else(|| usage());
            let job = Job::parse(arg(&args, 3)).unwrap_or_else(|| usage());
            let input = inputs::by_name(arg(&args, 4)).unwrap_or_else(|| usage());
            let n: u64 = arg(&args, 5).parse().unwrap_or_else(|_| usage());
            let mut op = runner(contender, job, &input).unwrap_or_else(|| {
                eprintln!("{} does not run {}", contender.name(), job.name());
                std::process::exit(2)
            });
            assert_ne!(op(), 0, "the job failed on this input");
            println!("{}", mrtr_bench_measured(&mut op, n));
        }
        "seal" => {
            let name = arg(&args, 2);
            let size: usize = arg(&args, 3).parse().unwrap_or_else(|_| usage());
            let n: u64 = arg(&args, 4).parse().unwrap_or_else(|_| usage());
            let mut op: Box<dyn FnMut() -> u64> = if name == rmcp_sdk::HMAC_SEAL {
                let mut r = rmcp_sdk::HmacSeal::new(size);
                Box::new(move || r.run())
            } else {
                let job = SealJob::parse(name).unwrap_or_else(|| usage());
                let mut r = SealRunner::new(job, size);
                Box::new(move || r.run())
            };
            op();
            println!("{}", mrtr_bench_measured(&mut op, n));
        }
        "dump" => dump(std::path::Path::new(arg(&args, 2))),
        "check" => check_all(),
        "list" => {
            for input in inputs::all() {
                for job in Job::ALL {
                    for c in Contender::ALL {
                        if runner(c, job, &input).is_some() {
                            println!("{}\t{}\t{}", c.name(), job.name(), input.name);
                        }
                    }
                }
            }
        }
        _ => usage(),
    }
}

/// `check`: the contenders agree on every input; every mrtr job runs
/// without allocating. Panics (exit 101) on the first disagreement.
fn check_all() {
    let mut jobs = 0;
    let all = inputs::all();
    for input in &all {
        check(input);
        for job in Job::ALL {
            for c in Contender::ALL {
                let Some(mut run) = runner(c, job, input) else {
                    continue;
                };
                assert_ne!(
                    run(),
                    0,
                    "{} {} {}: the job failed",
                    c.name(),
                    job.name(),
                    input.name
                );
                if c.is_mrtr() {
                    let per_op = alloc_count::per_op(3, &mut run);
                    assert_eq!(
                        per_op,
                        0.0,
                        "{} {} {} allocates",
                        c.name(),
                        job.name(),
                        input.name
                    );
                }
                jobs += 1;
            }
        }
    }
    for size in SIZES {
        for job in SealJob::ALL {
            let mut r = SealRunner::new(job, size);
            assert_ne!(r.run(), 0, "seal {} {size} B failed", job.name());
            if job != SealJob::RawAead {
                let per_op = alloc_count::per_op(3, || r.run());
                assert_eq!(per_op, 0.0, "seal {} {size} B allocates", job.name());
            }
            jobs += 1;
        }
        let mut r = rmcp_sdk::HmacSeal::new(size);
        r.check();
        assert_ne!(r.run(), 0, "seal {} {size} B failed", rmcp_sdk::HMAC_SEAL);
        jobs += 1;
    }
    println!(
        "bench check: {} inputs, contenders agree; {jobs} jobs ran; every mrtr job allocates 0",
        all.len()
    );
}

/// Writes, for the Python bench: `<input>.json` (the message), a manifest
/// with each input's name, size and mrtr's summary, mrtr's retry request
/// per input (`<input>.retry.json`), the `_meta` object and the answers.
fn dump(dir: &std::path::Path) {
    std::fs::create_dir_all(dir).expect("create dump dir");
    let mut manifest = Vec::new();
    for input in inputs::all() {
        let file = format!("{}.json", input.name);
        std::fs::write(dir.join(&file), &input.bytes).expect("write input");
        let s = mrtr::parse(&input.bytes).expect("mrtr parses every input");
        let retry = mrtr::Leg::new()
            .run(&input.bytes)
            .expect("mrtr leg")
            .to_vec();
        std::fs::write(dir.join(format!("{}.retry.json", input.name)), retry).expect("write retry");
        manifest.push(format!(
            concat!(
                "{{\"name\":\"{}\",\"file\":\"{}\",\"bytes\":{},\"inputs\":{},",
                "\"forms\":{},\"urls\":{},\"samplings\":{},\"roots\":{},",
                "\"key_bytes\":{},\"message_bytes\":{},\"state_bytes\":{}}}"
            ),
            input.name,
            file,
            input.bytes.len(),
            s.inputs,
            s.forms,
            s.urls,
            s.samplings,
            s.roots,
            s.key_bytes,
            s.message_bytes,
            s.state_bytes
        ));
    }
    std::fs::write(
        dir.join("manifest.json"),
        format!("[\n{}\n]\n", manifest.join(",\n")),
    )
    .expect("write manifest");
    std::fs::write(dir.join("meta.json"), mrtr::meta_json()).expect("write meta");
    eprintln!("wrote inputs to {}", dir.display());
}
