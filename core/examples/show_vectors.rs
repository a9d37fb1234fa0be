//! Prints every shared test vector with what `mrtr_core::json` makes of its
//! message bytes, and whether that agrees with the vector's expectation at the
//! JSON level. Usage: `cargo run -p mrtr-core --example show_vectors [DIR]`.

#[path = "../tests/support/vectors.rs"]
mod vectors;

use std::path::PathBuf;
use std::process::ExitCode;

use mrtr_core::json;

fn main() -> ExitCode {
    let dir = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(vectors::default_dir);
    let all = match vectors::load_all(&dir) {
        Ok(all) => all,
        Err(e) => {
            eprintln!("show_vectors: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (mut read, mut rejected, mut disagree) = (0, 0, 0);
    for v in &all {
        let parsed = json::parse(&v.message);
        let what = match &parsed {
            Ok(value) => {
                read += 1;
                format!("JSON {:?}, {} bytes", value.kind(), v.message.len())
            }
            Err(e) => {
                rejected += 1;
                format!("rejected: {e}")
            }
        };
        let expected = match &v.error {
            Some(category) => format!("{} ({category})", v.outcome),
            None => v.outcome.clone(),
        };
        let note = if parsed.is_err() == v.expects_json_error() {
            ""
        } else {
            disagree += 1;
            "   <-- disagrees with expect"
        };
        println!("{:<58} {:<44} expect {expected}{note}", v.name, what);
    }
    println!(
        "\n{} vectors: {read} read as JSON, {rejected} rejected by the JSON layer, {disagree} disagreeing",
        all.len()
    );
    if disagree == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
