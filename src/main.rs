//! The `credence` binary: parse, dispatch to the subcommand, print the error, exit with its
//! code.

use clap::Parser;

use credence::cli::Cli;

fn main() -> std::process::ExitCode {
    keep_freed_memory();
    let cli = Cli::parse();
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

/// Lets freed memory be reused instead of returned to the kernel. A large analysis frees and
/// allocates buffers of hundreds of MB, metric after metric; glibc serves each from fresh mmapped
/// pages that the kernel must fault in and zero again (over 40 % of the time on a
/// 100-million-request run). With no mmap, no trim below 2 GB and one arena, the next buffer
/// reuses the last one's pages: that run took 107 s instead of 122 (`benches/analyze_long.rs`).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn keep_freed_memory() {
    // SAFETY: mallopt only sets allocator parameters; it runs before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_MAX, 0);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 2_000_000_000);
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_freed_memory() {}
