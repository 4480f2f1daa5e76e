//! Link-time only. The binary is position-independent, and its 3.4 MB of relative
//! relocations (`.rela.dyn`, one 24-byte entry per pointer in read-only data) pack into 40 KB
//! of RELR (GNU ld 2.38+, glibc 2.36+; an older ld ignores the option with a warning). Given to
//! the binary's link alone, it rebuilds nothing else.
fn main() {
    let target = std::env::var("TARGET").unwrap_or_default();
    if target.contains("-linux-gnu") {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
