//! `credence completions SHELL` and `credence man`: the shell's completion script and the
//! manual page, generated from the command line's own definition so they never drift from it.

use crate::cli::command;
use crate::cli::io::print_stdout;
use crate::error::{CliError, ExitCode};

#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    shell: Shell,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Shell {
    Bash,
    Zsh,
    Fish,
}

pub fn completions(a: CompletionsArgs) -> Result<ExitCode, CliError> {
    let shell = match a.shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
    };
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command(), "credence", &mut out);
    print_stdout(&String::from_utf8_lossy(&out))?;
    Ok(ExitCode::Success)
}

/// The manual page of `credence` (its options and the list of subcommands; each subcommand's
/// own options are in its `--help`).
pub fn man() -> Result<ExitCode, CliError> {
    let mut out = Vec::new();
    clap_mangen::Man::new(command()).render(&mut out).map_err(|e| CliError::failure(format!("cannot render the manual page: {e}")))?;
    print_stdout(&String::from_utf8_lossy(&out))?;
    Ok(ExitCode::Success)
}
