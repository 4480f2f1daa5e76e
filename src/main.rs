//! The `credence` binary: parse, dispatch to the subcommand, print the error, exit with its
//! code.

use clap::Parser;

use credence::cli::Cli;

#[global_allocator]
static ALLOCATOR: credence::cli::huge_pages::HugePageAdvice = credence::cli::huge_pages::HugePageAdvice;

fn main() -> std::process::ExitCode {
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
