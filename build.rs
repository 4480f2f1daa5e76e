//! Link-time only, and the git commit for `credence --version`.
//!
//! The binary is position-independent, and its 3.4 MB of relative relocations (`.rela.dyn`,
//! one 24-byte entry per pointer in read-only data) pack into 40 KB of RELR (GNU ld 2.38+,
//! glibc 2.36+; an older ld ignores the option with a warning). Given to the binary's link
//! alone, it rebuilds nothing else.
//!
//! The commit: a build script that reran on every commit would recompile the whole library
//! each time (cargo rebuilds every target of a package whose build script ran). So this script
//! runs once and only names the file that moves with HEAD, git's reflog of HEAD
//! (`CREDENCE_REFLOG`); `main.rs` includes it, so a commit relinks the binary alone. Outside a
//! git checkout (a source archive, a wheel's sdist) or without git, it names an empty file
//! and the version is the plain one.
use std::path::{Path, PathBuf};

fn main() {
    let target = std::env::var("TARGET").unwrap_or_default();
    if target.contains("-linux-gnu") {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
    println!("cargo:rerun-if-changed=build.rs");
    // A target folder shared by two checkouts (CI's persistent cache) would otherwise keep the
    // reflog path of whichever checkout ran this script first: a checkout's own `.git/HEAD`
    // (relative, so each checkout has its own, written when it was cloned) reruns it there.
    // Named by its absolute path too: a checkout that ran it and is gone since (a CI clone)
    // leaves a path that no longer exists, which reruns it here.
    if Path::new(".git").exists() {
        println!("cargo:rerun-if-changed=.git/HEAD");
        if let Ok(head) = std::path::absolute(".git/HEAD") {
            println!("cargo:rerun-if-changed={}", head.display());
        }
    }
    let reflog = git_dir().map(|d| d.join("logs").join("HEAD")).filter(|p| p.is_file());
    let reflog = reflog.unwrap_or_else(|| {
        let empty = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("no-reflog");
        std::fs::write(&empty, "").expect("OUT_DIR is writable");
        empty
    });
    println!("cargo:rustc-env=CREDENCE_REFLOG={}", reflog.display());
}

/// The checkout's git folder (a worktree's own), when the package root is a git checkout.
fn git_dir() -> Option<PathBuf> {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").ok()?);
    // Only this tree's own .git: an unpacked source archive inside another repository must
    // not name that repository's commit.
    if !root.join(".git").exists() {
        return None;
    }
    let out = std::process::Command::new("git").args(["rev-parse", "--absolute-git-dir"]).current_dir(&root).output().ok()?;
    let dir = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && Path::new(dir.trim()).is_dir()).then(|| PathBuf::from(dir.trim()))
}
