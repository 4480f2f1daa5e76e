//! The `credence` binary: parse, dispatch to the subcommand, print the error, exit with its
//! code.

use clap::FromArgMatches;

use credence::cli::Cli;

mod allocator;

#[global_allocator]
static ALLOCATOR: allocator::HugePageAdvice = allocator::HugePageAdvice;

/// git's reflog of HEAD when built from a checkout, else empty (see build.rs). Read only while
/// compiling: the binary keeps the 9 digits of `COMMIT`, not the log.
const REFLOG: &[u8] = include_bytes!(env!("CREDENCE_REFLOG"));

/// The commit HEAD points at, abbreviated to 9 hex digits.
const COMMIT: Option<[u8; 9]> = last_commit(REFLOG);

/// The new hash of the reflog's last line (`OLD NEW name <mail> time zone<TAB>message`).
const fn last_commit(log: &[u8]) -> Option<[u8; 9]> {
    let mut end = log.len();
    while end > 0 && log[end - 1] == b'\n' {
        end -= 1;
    }
    let mut i = end;
    while i > 0 && log[i - 1] != b'\n' {
        i -= 1;
    }
    while i < end && log[i] != b' ' {
        i += 1;
    }
    i += 1;
    if i + 9 > end {
        return None;
    }
    let mut out = [0u8; 9];
    let mut k = 0;
    while k < 9 {
        if !log[i + k].is_ascii_hexdigit() {
            return None;
        }
        out[k] = log[i + k];
        k += 1;
    }
    Some(out)
}

/// `0.1.0 (git 1a2b3c4d5)` from a checkout, `0.1.0` otherwise.
fn version() -> &'static str {
    match COMMIT.as_ref().and_then(|c| std::str::from_utf8(c).ok()) {
        Some(c) => Box::leak(format!("{} (git {c})", env!("CARGO_PKG_VERSION")).into_boxed_str()),
        None => env!("CARGO_PKG_VERSION"),
    }
}

fn main() -> std::process::ExitCode {
    let matches = credence::cli::command().version(version()).get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    if cli.command.analyzes_runs() {
        allocator::keep_freed_memory();
    }
    match credence::cli::run(cli.command) {
        Ok(code) => code.into(),
        Err(e) => {
            eprintln!("error: {}", e.message);
            for hint in &e.hints {
                eprintln!("hint: {hint}");
            }
            e.code.into()
        }
    }
}
