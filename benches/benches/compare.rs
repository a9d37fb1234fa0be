//! The criterion benchmarks: every contender on every input, one group per
//! (job, input) so the contenders of a row run back to back.
//!
//! Before measuring, for every input, `mrtr_bench::check` proves that the
//! contenders agree, and the counting allocator measures allocations per
//! operation of every job (asserted zero for mrtr). Those counts go to
//! `$MRTR_BENCH_RAW/allocs.json` for the report (`scripts/bench`).
//!
//! `MRTR_BENCH_QUICK=1` shortens every measurement (for trying changes).

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkGroup, Criterion, SamplingMode, Throughput};
use mrtr_bench::alloc_count::{self, Counting};
use mrtr_bench::contenders::{ffi, rmcp_sdk};
use mrtr_bench::inputs::{self, Input};
use mrtr_bench::jobs::{check, retry_request, runner, Contender, Job};
use mrtr_seal_variants::{SealJob, SealRunner, SIZES};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Inputs of the `validate` job (the C ABI's only job on main).
const VALIDATE_INPUTS: [&str; 4] = ["0.5KB", "1.6KB", "16KB", "1MB"];

struct Allocs(Vec<String>);

impl Allocs {
    fn record(&mut self, contender: &str, job: &str, input: &str, per_op: f64) {
        self.0.push(format!(
            "{{\"contender\":\"{contender}\",\"job\":\"{job}\",\"input\":\"{input}\",\"allocs\":{per_op}}}"
        ));
    }
}

fn configure<M: criterion::measurement::Measurement>(
    group: &mut BenchmarkGroup<'_, M>,
    bytes: usize,
) {
    if bytes > 100_000 {
        // One slow iteration per sample instead of criterion's growing
        // iteration counts (which would take minutes on rmcp).
        group.sampling_mode(SamplingMode::Flat);
    }
}

fn bench_input(c: &mut Criterion, allocs: &mut Allocs, job: Job, input: &Input) {
    let mut group = c.benchmark_group(format!("{} {}", job.name(), input.name));
    // The server job reads the retry request, not the input.
    let bytes = match job {
        Job::ServerParse => retry_request(input).len(),
        _ => input.bytes.len(),
    };
    group.throughput(Throughput::Bytes(bytes as u64));
    configure(&mut group, bytes);
    for contender in Contender::ALL {
        let Some(mut run) = runner(contender, job, input) else {
            continue;
        };
        let per_op = alloc_count::per_op(5, &mut run);
        if contender.is_mrtr() {
            assert_eq!(
                per_op,
                0.0,
                "{} {} {} allocates",
                contender.name(),
                job.name(),
                input.name
            );
        }
        allocs.record(contender.name(), job.name(), input.name, per_op);
        group.bench_function(contender.name(), |b| b.iter(|| black_box(run())));
    }
    group.finish();
}

fn bench_seal(c: &mut Criterion, allocs: &mut Allocs) {
    for size in SIZES {
        let name = format!("{size}B");
        let mut group = c.benchmark_group(format!("seal {name}"));
        for job in SealJob::ALL {
            let mut r = SealRunner::new(job, size);
            let per_op = alloc_count::per_op(5, || r.run());
            if job != SealJob::RawAead {
                assert_eq!(per_op, 0.0, "{} allocates", job.name());
            }
            allocs.record(job.name(), "seal", &name, per_op);
            group.bench_function(job.name(), |b| b.iter(|| black_box(r.run())));
        }
        let mut r = rmcp_sdk::HmacSeal::new(size);
        let per_op = alloc_count::per_op(5, || r.run());
        allocs.record(rmcp_sdk::HMAC_SEAL, "seal", &name, per_op);
        group.bench_function(rmcp_sdk::HMAC_SEAL, |b| b.iter(|| black_box(r.run())));
        group.finish();
    }
}

fn main() {
    let quick = std::env::var_os("MRTR_BENCH_QUICK").is_some();
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(if quick { 50 } else { 300 }))
        .measurement_time(Duration::from_millis(if quick { 200 } else { 1000 }))
        .sample_size(if quick { 10 } else { 20 })
        .without_plots()
        .configure_from_args();

    eprintln!("C ABI: libmrtr {}", ffi::version());
    let all = inputs::all();
    for input in &all {
        check(input);
        eprintln!(
            "input {:>6}: {:>9} bytes, {:>2} input requests; contenders agree",
            input.name,
            input.bytes.len(),
            input.inputs
        );
    }
    let mut allocs = Allocs(Vec::new());
    for input in all.iter().filter(|i| VALIDATE_INPUTS.contains(&i.name)) {
        bench_input(&mut c, &mut allocs, Job::Validate, input);
    }
    for job in [Job::Parse, Job::Leg, Job::ServerParse] {
        for input in &all {
            bench_input(&mut c, &mut allocs, job, input);
        }
    }
    bench_seal(&mut c, &mut allocs);
    c.final_summary();

    if let Some(dir) = std::env::var_os("MRTR_BENCH_RAW") {
        let path = std::path::Path::new(&dir).join("allocs.json");
        std::fs::write(&path, format!("[\n{}\n]\n", allocs.0.join(",\n")))
            .expect("write allocs.json");
        eprintln!("wrote {}", path.display());
    }
}
