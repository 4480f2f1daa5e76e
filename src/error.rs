//! Exit codes, and the one mapping from errors to them.

use std::process::ExitCode as StdExitCode;

/// What the `credence` process returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitCode {
    /// The command did what was asked.
    Success = 0,
    /// Something failed that is not the input's fault (e.g. the output could not be written).
    Failure = 1,
    /// Bad input: an invalid run directory, a malformed file, a wrong argument.
    BadInput = 2,
    /// A `--fail-on` condition was met.
    ConditionMet = 3,
}

impl From<ExitCode> for StdExitCode {
    fn from(code: ExitCode) -> Self {
        StdExitCode::from(code as u8)
    }
}

/// An error that knows its exit code. Library errors convert into it at the edge.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct CliError {
    pub code: ExitCode,
    pub message: String,
    /// Lines printed as `hint: ...` after the error.
    pub hints: Vec<String>,
}

impl CliError {
    pub fn bad_input(message: impl Into<String>) -> Self {
        CliError { code: ExitCode::BadInput, message: message.into(), hints: Vec::new() }
    }

    pub fn failure(message: impl Into<String>) -> Self {
        CliError { code: ExitCode::Failure, message: message.into(), hints: Vec::new() }
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hints.push(hint.into());
        self
    }
}

impl From<crate::run::LoadError> for CliError {
    fn from(e: crate::run::LoadError) -> Self {
        CliError::bad_input(e.to_string()).hint("run `credence validate RUN` for a full list of problems")
    }
}

impl From<crate::run::write::WriteError> for CliError {
    fn from(e: crate::run::write::WriteError) -> Self {
        match e {
            crate::run::write::WriteError::Exists { .. } => CliError::bad_input(e.to_string()),
            _ => CliError::failure(e.to_string()),
        }
    }
}

impl From<crate::import::ImportError> for CliError {
    fn from(e: crate::import::ImportError) -> CliError {
        let hint = e.hint.clone();
        let err = CliError::bad_input(e.to_string());
        match hint {
            Some(h) => err.hint(h),
            None => err,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_code_numbers_are_stable() {
        assert_eq!(ExitCode::Success as u8, 0);
        assert_eq!(ExitCode::Failure as u8, 1);
        assert_eq!(ExitCode::BadInput as u8, 2);
        assert_eq!(ExitCode::ConditionMet as u8, 3);
    }

    #[test]
    fn load_errors_are_bad_input() {
        let e: CliError = crate::run::LoadError::Manifest("x".into()).into();
        assert_eq!(e.code, ExitCode::BadInput);
    }
}
