//! Runs one job many times so that `valgrind --tool=callgrind` can count
//! instructions per operation, and writes the inputs for the Python bench.
//!
//! ```text
//! mrtr-callgrind run CONTENDER JOB INPUT N   N operations of JOB
//! mrtr-callgrind seal JOB SIZE N             N seal+open (mrtr, floor, rmcp)
//! mrtr-callgrind dump DIR                    inputs + expected results as files
//! mrtr-callgrind list                        contender / job / input names
//! mrtr-callgrind check                       contenders agree, mrtr allocates 0
//! mrtr-callgrind goals-specs                  what `goals` needs counted
//! mrtr-callgrind goals ROUNDS [COUNTS]        issue 27's goals, MET or MISSED
//! ```
//!
//! `goals` measures every goal of issue 27 against its floor in one run:
//! median times from `ROUNDS` rounds that interleave every contender of
//! every goal round-robin (so machine load falls on both sides of each
//! ratio alike), and the instruction counts in `COUNTS` (lines `KEY<TAB>
//! instructions per op`, which `scripts/bench goals` writes by running
//! callgrind on each line of `goals-specs`). It prints one markdown table,
//! each goal MET or MISSED with its ratios.
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
        "usage: mrtr-callgrind run CONTENDER JOB INPUT N | seal JOB SIZE N | dump DIR | list \
         | check | goals-specs | goals ROUNDS [COUNTS]"
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
        "goals-specs" => {
            for side in goal_sides() {
                println!("{}\t{}", side.key(), side.driver_args().join("\t"));
            }
        }
        "goals" => {
            let rounds: usize = arg(&args, 2).parse().unwrap_or_else(|_| usage());
            let counts = args.get(3).map(|f| read_counts(f)).unwrap_or_default();
            goals(rounds, &counts);
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
        for job in SealJob::OPEN {
            let mut r = SealRunner::new(job, size);
            assert_ne!(r.run(), 0, "seal {} {size} B failed", job.name());
            if job == SealJob::MrtrUnseal {
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

/// One side of a goal: a job of a contender on an input, or a sealing job
/// on a state of some size.
#[derive(Clone, Copy)]
enum Side {
    Run(Contender, Job, &'static str),
    Seal(SealJob, usize),
}

impl Side {
    /// A stable name (the key of its instruction count).
    fn key(self) -> String {
        match self {
            Side::Run(c, j, i) => format!("{}|{}|{}", c.name(), j.name(), i),
            Side::Seal(j, n) => format!("{}|{}B", j.name(), n),
        }
    }

    /// Operations callgrind counts (fewer on the large inputs).
    fn count(self) -> u64 {
        match self {
            Side::Run(_, _, "1MB") => 2,
            Side::Run(_, _, "256KB") => 5,
            Side::Run(_, _, "16KB" | "n=16" | "n=64") => 20,
            _ => 200,
        }
    }

    /// This driver's arguments that run it `count` times.
    fn driver_args(self) -> Vec<String> {
        match self {
            Side::Run(c, j, i) => vec![
                "run".into(),
                c.name().into(),
                j.name().into(),
                i.into(),
                self.count().to_string(),
            ],
            Side::Seal(j, n) => vec![
                "seal".into(),
                j.name().into(),
                n.to_string(),
                self.count().to_string(),
            ],
        }
    }

    fn runner(self) -> Box<dyn FnMut() -> u64> {
        match self {
            Side::Run(c, j, i) => {
                let input = inputs::by_name(i).expect("a goal names a known input");
                runner(c, j, &input).expect("a goal names a job its contender runs")
            }
            Side::Seal(j, n) => {
                let mut r = SealRunner::new(j, n);
                Box::new(move || r.run())
            }
        }
    }
}

/// Whether a goal is judged on instructions and time, or on time alone.
#[derive(Clone, Copy, PartialEq)]
enum Judged {
    Both,
    Time,
}

/// One goal: `ours` costs at most `limit` times `floor`.
struct Goal {
    name: String,
    ours: Side,
    floor: Side,
    limit: f64,
    judged: Judged,
}

/// Issue 27's goals, each against the floor the issue names.
fn goal_list() -> Vec<Goal> {
    use Contender::*;
    let mut g = Vec::new();
    let mut add = |name: String, ours, floor, limit, judged| {
        g.push(Goal {
            name,
            ours,
            floor,
            limit,
            judged,
        })
    };
    for i in ["0.5KB", "0.9KB", "1.6KB", "16KB", "256KB", "1MB"] {
        add(
            format!("parse+classify {i} <= 0.8x serde_json RawValue kind"),
            Side::Run(Mrtr, Job::Parse, i),
            Side::Run(SerdeKind, Job::Parse, i),
            0.8,
            Judged::Both,
        );
    }
    for i in ["1.6KB", "16KB"] {
        add(
            format!("parse+classify {i} <= 0.8x simd-json tape (issue 18)"),
            Side::Run(Mrtr, Job::Parse, i),
            Side::Run(SimdTape, Job::Parse, i),
            0.8,
            Judged::Both,
        );
    }
    for i in ["0.5KB", "1.6KB", "16KB"] {
        add(
            format!("client leg {i} <= 2x one RawValue parse"),
            Side::Run(Mrtr, Job::Leg, i),
            Side::Run(SerdeKind, Job::Validate, i),
            2.0,
            Judged::Both,
        );
    }
    for i in ["0.5KB", "1.6KB", "n=64"] {
        add(
            format!("server retry parse (retry of {i}) <= 0.9x serde_json RawValue"),
            Side::Run(Mrtr, Job::ServerParse, i),
            Side::Run(SerdeRaw, Job::ServerParse, i),
            0.9,
            Judged::Both,
        );
    }
    add(
        "unseal 256 B <= 1.1x raw open + SHA-256".into(),
        Side::Seal(SealJob::MrtrUnseal, 256),
        Side::Seal(SealJob::RawOpen, 256),
        1.1,
        Judged::Both,
    );
    add(
        "seal+unseal 256 B <= 1.3x raw floor, in time".into(),
        Side::Seal(SealJob::Mrtr, 256),
        Side::Seal(SealJob::RawAead, 256),
        1.3,
        Judged::Time,
    );
    for i in ["0.5KB", "1.6KB", "16KB", "n=64"] {
        add(
            format!("C ABI parse+classify {i} within 1.1x of mrtr Call"),
            Side::Run(MrtrC, Job::Parse, i),
            Side::Run(MrtrCall, Job::Parse, i),
            1.1,
            Judged::Both,
        );
        add(
            format!("C ABI client leg {i} within 1.1x of mrtr"),
            Side::Run(MrtrC, Job::Leg, i),
            Side::Run(Mrtr, Job::Leg, i),
            1.1,
            Judged::Both,
        );
    }
    g
}

/// Every side of every goal, once each.
fn goal_sides() -> Vec<Side> {
    let mut out: Vec<Side> = Vec::new();
    for g in goal_list() {
        for s in [g.ours, g.floor] {
            if !out.iter().any(|o| o.key() == s.key()) {
                out.push(s);
            }
        }
    }
    out
}

/// Instruction counts per operation, by side key (`KEY<TAB>count` lines).
fn read_counts(path: &str) -> std::collections::HashMap<String, u64> {
    let text = std::fs::read_to_string(path).expect("read the counts file");
    text.lines()
        .filter_map(|l| {
            let (k, v) = l.rsplit_once('\t')?;
            Some((k.to_string(), v.trim().parse().ok()?))
        })
        .collect()
}

/// Median of `v` (sorted in place).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Times every side of every goal in `rounds` interleaved rounds (each
/// round runs a batch of about 0.1 ms of every side, round-robin, in
/// alternating order: short batches, so that on a loaded machine most of
/// them run unpreempted and the median is theirs) and prints the goals
/// with their ratios.
fn goals(rounds: usize, counts: &std::collections::HashMap<String, u64>) {
    let list = goal_list();
    let sides = goal_sides();
    let mut runs: Vec<(Box<dyn FnMut() -> u64>, u64, Vec<f64>)> = sides
        .iter()
        .map(|s| {
            let mut op = s.runner();
            assert_ne!(op(), 0, "{} failed", s.key());
            let t = std::time::Instant::now();
            let mut n = 0u64;
            while t.elapsed().as_secs_f64() < 0.0001 {
                black_box(op());
                n += 1;
            }
            (op, n.max(1), Vec::with_capacity(rounds))
        })
        .collect();
    for r in 0..rounds {
        let order: Vec<usize> = if r % 2 == 0 {
            (0..runs.len()).collect()
        } else {
            (0..runs.len()).rev().collect()
        };
        for k in order {
            let (op, n, times) = &mut runs[k];
            let t = std::time::Instant::now();
            for _ in 0..*n {
                black_box(op());
            }
            times.push(t.elapsed().as_secs_f64() * 1e9 / *n as f64);
        }
    }
    let med: Vec<f64> = runs.iter_mut().map(|(_, _, t)| median(t)).collect();
    let at = |s: Side| sides.iter().position(|o| o.key() == s.key()).expect("side");
    println!("| goal | mrtr instr | floor instr | ratio instr | mrtr median ns | floor median ns | ratio time | result |");
    println!("|---|---:|---:|---:|---:|---:|---:|---|");
    let (mut met, mut missed) = (0, 0);
    for g in &list {
        let (ti, tf) = (med[at(g.ours)], med[at(g.floor)]);
        let rt = ti / tf;
        let ci = counts.get(&g.ours.key()).copied();
        let cf = counts.get(&g.floor.key()).copied();
        let ri = match (ci, cf) {
            (Some(a), Some(b)) if b > 0 => Some(a as f64 / b as f64),
            _ => None,
        };
        let ok = rt <= g.limit && (g.judged == Judged::Time || ri.is_none_or(|r| r <= g.limit));
        if ok {
            met += 1;
        } else {
            missed += 1;
        }
        let show = |c: Option<u64>| c.map_or("n/a".to_string(), |c| c.to_string());
        println!(
            "| {} | {} | {} | {} | {:.0} | {:.0} | {:.2}x | {} |",
            g.name,
            show(ci),
            show(cf),
            ri.map_or("n/a".to_string(), |r| format!("{r:.2}x")),
            ti,
            tf,
            rt,
            if ok { "MET" } else { "MISSED" }
        );
    }
    println!();
    println!("{met} goals MET, {missed} MISSED ({rounds} interleaved rounds; instructions from callgrind{})",
        if counts.is_empty() { ": none given" } else { "" });
}
