//! The edge where commands touch the outside: stdout that tolerates a closed pipe, reports
//! rendered to a file, and a progress bar (files are written by `ops::files`).

use std::io::Write;
use std::path::Path;

use crate::cli::args::ReportFormat;
use crate::error::CliError;
use crate::report::i18n::Lang;
use crate::report::{Exporter, Json, Report};

pub use crate::ops::files::{check_writable, json_text, write_atomic, write_json};
pub use crate::ops::inputs::print_skipped;

/// Writes to stdout; a closed pipe (e.g. `| head`) is not an error.
pub fn print_stdout(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError::failure(format!("cannot write to stdout: {e}"))),
        _ => Ok(()),
    }
}

/// Writes the report in `format` and `lang` to `out`; the JSON is the same in every language.
pub fn write_report_in(report: &Report, format: ReportFormat, lang: Lang, out: &Path) -> Result<usize, CliError> {
    let bytes = match format {
        ReportFormat::Pdf => crate::report::pdf::render(report, lang),
        ReportFormat::Md => crate::report::markdown::render(report, lang),
        ReportFormat::Json => Json.export(report),
        ReportFormat::Html => crate::report::html::render(report, lang),
    };
    let bytes = bytes.map_err(|e| CliError::bad_input(e.to_string()))?;
    write_atomic(out, &bytes)?;
    Ok(bytes.len())
}

/// A progress bar for `analyze` on stderr, only when stderr is a terminal: the stage running,
/// the share done and an estimate of the time left. The analysis marks its stage ends through
/// `timing::observe_stages`; each stage's share is its typical share of the time on the
/// 10-million-request soak run of `benches/analyze_long.rs`, so the estimate is rough but steady.
pub struct Progress {
    bar: Option<std::sync::Arc<std::sync::Mutex<Bar>>>,
}

/// What `analyze` does, in order: the `timing` mark that ends a stage, what the bar says while
/// it runs, and its share of the whole.
const ANALYZE_STAGES: [(&str, &str, f64); 9] = [
    ("loaded", "reading the requests", 0.18),
    ("request view and telemetry series built", "ordering the requests and telemetry", 0.04),
    ("steady state", "finding the steady state", 0.14),
    ("attribution", "tying anomalies to causes", 0.14),
    ("per-request metrics, intervals and throughput", "latency percentiles and intervals", 0.46),
    ("inter-token latency", "inter-token latency", 0.01),
    ("conditions", "clean and disturbed conditions", 0.01),
    ("credibility and warnings", "credibility", 0.01),
    ("JSON written", "writing the analysis", 0.01),
];

struct Bar {
    start: std::time::Instant,
    /// Stages ended so far.
    ended: usize,
}

impl Bar {
    fn draw(&self) {
        eprint!("\r\x1b[2K{}", Bar::line(self.ended, self.start.elapsed().as_secs_f64()));
    }

    /// The bar after `ended` stages and `elapsed` seconds; the time left once a tenth is done.
    fn line(ended: usize, elapsed: f64) -> String {
        // A fold from +0.0, not `sum`: an empty float sum is −0.0, printed "-0 %".
        let done = ANALYZE_STAGES[..ended.min(ANALYZE_STAGES.len())].iter().fold(0.0, |sum, s| sum + s.2).min(1.0);
        let running = ANALYZE_STAGES.get(ended).map_or("done", |s| s.1);
        let filled = (20.0 * done).round() as usize;
        let left = if (0.1..1.0).contains(&done) { format!(", about {:.0} s left", elapsed * (1.0 - done) / done) } else { String::new() };
        format!("[{}{}] {:>3.0} % {running} ({elapsed:.1} s{left})", "#".repeat(filled), "-".repeat(20 - filled), done * 100.0)
    }
}

impl Progress {
    /// A bar over `analyze`'s stages (inert when stderr is not a terminal).
    pub fn for_analysis() -> Progress {
        use std::io::IsTerminal;
        if !std::io::stderr().is_terminal() {
            return Progress { bar: None };
        }
        let bar = std::sync::Arc::new(std::sync::Mutex::new(Bar { start: std::time::Instant::now(), ended: 0 }));
        let observer = bar.clone();
        crate::timing::observe_stages(move |stage| {
            if let Ok(mut b) = observer.lock()
                && let Some(i) = ANALYZE_STAGES.iter().position(|s| s.0 == stage)
            {
                b.ended = b.ended.max(i + 1);
                b.draw();
            }
        });
        if let Ok(b) = bar.lock() {
            b.draw();
        }
        Progress { bar: Some(bar) }
    }

    /// Ends the bar's line.
    pub fn done(&self) {
        if let Some(b) = &self.bar
            && let Ok(mut b) = b.lock()
        {
            b.ended = ANALYZE_STAGES.len();
            b.draw();
            eprintln!();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_bar_names_the_stage_and_estimates_the_time_left() {
        assert_eq!(Bar::line(0, 0.5), "[--------------------]   0 % reading the requests (0.5 s)");
        // Loading, ordering, steady state and attribution done: 50 % of the work in 5.0 s.
        let line = Bar::line(4, 5.0);
        assert!(line.starts_with("[##########----------]  50 % latency percentiles and intervals (5.0 s, about 5 s left)"), "{line}");
        assert!(Bar::line(ANALYZE_STAGES.len(), 20.0).contains("100 % done (20.0 s)"));
        let total: f64 = ANALYZE_STAGES.iter().map(|s| s.2).sum();
        assert!((total - 1.0).abs() < 1e-9, "the shares add up to the whole: {total}");
    }
}
