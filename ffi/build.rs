//! Gives the shared library a SONAME on ELF targets (Linux, Android), so a
//! program linked against it records which ABI it needs: `libmrtr.so.0.1`
//! while the version is 0.x (every 0.x minor release may break the ABI),
//! `libmrtr.so.MAJOR` from 1.0 on. The installed file is
//! `libmrtr.so.MAJOR.MINOR.PATCH` with links to it (scripts/install). The
//! library also names the C library as needed (scripts/test-abi checks
//! both).

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "linux" || os == "android" {
        let major = env!("CARGO_PKG_VERSION_MAJOR");
        let minor = env!("CARGO_PKG_VERSION_MINOR");
        let soname = if major == "0" {
            format!("libmrtr.so.0.{minor}")
        } else {
            format!("libmrtr.so.{major}")
        };
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{soname}");
        // The library calls memcpy and friends of the C library: say so, so
        // that libmrtr.so records libc as needed (a no_std cdylib is linked
        // with -nodefaultlibs and would otherwise leave them to whatever the
        // process has loaded). Placed after the objects, under --as-needed.
        println!("cargo:rustc-cdylib-link-arg=-lc");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
