//! The `credence` binary: parse, dispatch to the subcommand, print the error, exit with its
//! code.

use clap::Parser;

use credence::cli::Cli;

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
