//! Links the release C library of the root workspace (`libmrtr.a`, built by
//! `cargo build -p mrtr-ffi --release`; `scripts/bench` does it first), so
//! the C contender calls the very archive a C application links.

use std::env;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=MRTR_FFI_LIB_DIR");
    let dir = match env::var("MRTR_FFI_LIB_DIR") {
        Ok(d) => PathBuf::from(d),
        Err(_) => PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"))
            .join("../target/release"),
    };
    let lib = dir.join("libmrtr.a");
    if !lib.is_file() {
        panic!(
            "{} not found: build it at the repository root with \
             `cargo build -p mrtr-ffi --release` (scripts/bench does), or point \
             MRTR_FFI_LIB_DIR at its directory",
            lib.display()
        );
    }
    println!("cargo:rerun-if-changed={}", lib.display());
    println!("cargo:rustc-link-search=native={}", dir.display());
    // `-bundle`: hand the archive to the final link as is. Bundled into
    // this rlib, LTO would look for bitcode in its (native) objects.
    println!("cargo:rustc-link-lib=static:-bundle=mrtr");
}
