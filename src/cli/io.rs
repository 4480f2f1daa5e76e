//! The edge where commands touch the outside: output paths checked early, atomic writes,
//! stdout that tolerates a closed pipe, reports rendered to a file, and a progress bar.

use std::io::Write;
use std::path::Path;

use crate::cli::args::ReportFormat;
use crate::error::CliError;
use crate::report::{Exporter, Json, Report, markdown::Markdown, pdf::Pdf};

/// Fails early when the output's folder does not exist, before any long work.
pub fn check_writable(path: &Path) -> Result<(), CliError> {
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !parent.is_dir() {
        return Err(CliError::bad_input(format!("{}: the folder {} does not exist", path.display(), parent.display())));
    }
    Ok(())
}

/// Writes a file atomically: a temporary sibling, then a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
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

/// Writes to stdout; a closed pipe (e.g. `| head`) is not an error.
pub fn print_stdout(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError::failure(format!("cannot write to stdout: {e}"))),
        _ => Ok(()),
    }
}

/// Renders `report` in `format` and writes it atomically; returns the size written.
pub fn write_report(report: &Report, format: ReportFormat, out: &Path) -> Result<usize, CliError> {
    let exporter: &dyn Exporter = match format {
        ReportFormat::Pdf => &Pdf,
        ReportFormat::Md => &Markdown,
        ReportFormat::Json => &Json,
    };
    let bytes = exporter.export(report).map_err(|e| CliError::bad_input(e.to_string()))?;
    write_atomic(out, &bytes)?;
    Ok(bytes.len())
}

/// A progress bar over a command's stages on stderr, only when stderr is a terminal.
pub struct Progress {
    on: bool,
    stages: usize,
    start: std::time::Instant,
    done_stages: std::cell::Cell<usize>,
}

impl Progress {
    pub fn new(stages: usize) -> Progress {
        use std::io::IsTerminal;
        Progress { on: std::io::stderr().is_terminal(), stages, start: std::time::Instant::now(), done_stages: std::cell::Cell::new(0) }
    }

    fn draw(&self, what: &str) {
        if self.on {
            let k = self.done_stages.get();
            let filled = 20 * k / self.stages;
            let bar: String = "#".repeat(filled) + &"-".repeat(20 - filled);
            eprint!("\r\x1b[2K[{bar}] {k}/{} {what} ({:.1} s)", self.stages, self.start.elapsed().as_secs_f64());
        }
    }

    pub fn stage(&self, what: &str) {
        self.draw(what);
        self.done_stages.set(self.done_stages.get() + 1);
    }

    pub fn done(&self) {
        self.done_stages.set(self.stages);
        self.draw("done");
        if self.on {
            eprintln!();
        }
    }
}

pub use crate::timing::Timing;
