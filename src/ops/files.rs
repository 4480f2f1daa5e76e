//! Files the commands write: output paths checked early, atomic writes, pretty JSON.

use std::path::Path;

use crate::error::CliError;

/// Fails early when the output's folder does not exist, before any long work.
pub fn check_writable(path: &Path) -> Result<(), CliError> {
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !parent.is_dir() {
        return Err(CliError::bad_input(format!("{}: the folder {} does not exist", path.display(), parent.display())));
    }
    Ok(())
}

/// Writes a file atomically: a temporary sibling, then a rename. `-` is standard output, as
/// the shell's tools take it (`-o -` pipes a report), never a file of that name.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    if path == Path::new("-") {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        return out.write_all(bytes).and_then(|()| out.flush()).map_err(|e| CliError::failure(format!("standard output: cannot write: {e}")));
    }
    let tmp = path.with_extension(format!("partial-{}", std::process::id()));
    std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path)).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        CliError::failure(format!("{}: cannot write: {e}", path.display()))
    })
}

/// Writes a value as pretty JSON with a final newline, atomically.
pub fn write_json(path: &Path, value: &impl serde::Serialize) -> Result<(), CliError> {
    write_atomic(path, json_text(value).as_bytes())
}

/// A value as pretty JSON with a final newline.
pub fn json_text(value: &impl serde::Serialize) -> String {
    serde_json::to_string_pretty(value).expect("credence's own types serialize") + "\n"
}
