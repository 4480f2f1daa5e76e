//! Value parsers and value enums shared by several commands: durations, tolerances, `k=v`
//! pairs, the report format and the GPU mode.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::error::CliError;

/// Parses a duration: `300`, `300s`, `5m`, `1h`, `250ms`. Returns seconds.
pub fn parse_duration(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let (num, scale) = if let Some(v) = t.strip_suffix("ms") {
        (v, 1e-3)
    } else if let Some(v) = t.strip_suffix('s') {
        (v, 1.0)
    } else if let Some(v) = t.strip_suffix('m') {
        (v, 60.0)
    } else if let Some(v) = t.strip_suffix('h') {
        (v, 3600.0)
    } else {
        (t, 1.0)
    };
    let v: f64 = num.trim().parse().map_err(|_| format!("{text:?} is not a duration; use e.g. 300s, 5m or 1h"))?;
    // Checked after scaling: a huge number of hours overflows to infinity, a tiny number of
    // milliseconds underflows to zero.
    let seconds = v * scale;
    if !seconds.is_finite() || seconds <= 0.0 {
        return Err(format!("{text:?}: a duration must be positive and finite"));
    }
    Ok(seconds)
}

/// A duration flag's value in seconds, or a bad-input error that names the flag.
pub fn duration_flag(flag: &str, text: &str) -> Result<f64, CliError> {
    parse_duration(text).map_err(|e| CliError::bad_input(format!("{flag} {e}")))
}

/// A delay that may be zero (`0`, `0ms`, `20ms`, `1s`).
pub fn delay_flag(flag: &str, text: &str) -> Result<Duration, CliError> {
    if text.trim().trim_end_matches("ms").trim_end_matches('s') == "0" {
        return Ok(Duration::ZERO);
    }
    let seconds = duration_flag(flag, text)?;
    // `Duration::from_secs_f64` panics past about 584 billion years.
    Duration::try_from_secs_f64(seconds).map_err(|_| CliError::bad_input(format!("{flag} {text:?}: too long a delay")))
}

/// Parses a percentage (`5%`) or a fraction (`0.05`).
pub fn parse_fraction(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let v = match t.strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().map(|x| x / 100.0),
        None => t.parse::<f64>(),
    }
    .map_err(|_| format!("{t:?} is not a percentage (e.g. 5%)"))?;
    if !(v.is_finite() && (0.0..1.0).contains(&v)) {
        return Err(format!("{t:?}: a tolerance lies between 0% and 100%"));
    }
    Ok(v)
}

/// `--tolerance` values: a global one (`5%`) and per-metric ones (`ttft_p99=10%,throughput=2%`).
pub fn parse_tolerances(values: &[String]) -> Result<(f64, BTreeMap<String, f64>), CliError> {
    let mut global = 0.05;
    let mut per = BTreeMap::new();
    for v in values {
        for part in v.split(',') {
            match part.split_once('=') {
                Some((k, x)) => {
                    let k = k.trim();
                    let k = if k == "throughput" { "output_tokens_per_s" } else { k };
                    per.insert(k.to_string(), parse_fraction(x).map_err(|e| CliError::bad_input(format!("--tolerance {e}")))?);
                }
                None => global = parse_fraction(part).map_err(|e| CliError::bad_input(format!("--tolerance {e}")))?,
            }
        }
    }
    Ok((global, per))
}

/// `--order base1,cand1,base2`: run folder names in execution order.
pub fn parse_order(order: Option<String>) -> Option<Vec<String>> {
    order.map(|o| o.split(',').map(|s| s.trim().to_string()).collect())
}

/// Repeatable `--FLAG k=v` values as a map.
pub fn parse_pairs(flag: &str, items: &[String]) -> Result<BTreeMap<String, String>, CliError> {
    items
        .iter()
        .map(|l| {
            l.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| CliError::bad_input(format!("--{flag} {l:?}: expected k=v")))
        })
        .collect()
}

/// Import options from `--tz`, `--start` and `--label k=v` (import and audit).
pub fn import_options(tz: Option<&str>, start: Option<&str>, labels: &[String]) -> Result<crate::import::ImportOptions, CliError> {
    let tz_offset_s = tz.map(crate::import::time::parse_offset).transpose().map_err(CliError::bad_input)?;
    let start_ns = start.map(crate::import::time::parse_start).transpose().map_err(CliError::bad_input)?;
    Ok(crate::import::ImportOptions {
        tz_offset_s,
        tz_text: tz.map(String::from),
        start_ns,
        start_text: start.map(String::from),
        labels: parse_pairs("label", labels)?,
        lang: crate::report::i18n::Lang::En,
    })
}

/// `--slo ttft_p99=500ms,tpot_p99=50ms`: the objectives, checked (exit 2 lists what is
/// accepted); none when not given.
pub fn slo_flag(spec: Option<&str>) -> Result<Vec<crate::analyze::slo::ObjectiveSpec>, CliError> {
    spec.map_or(Ok(Vec::new()), |s| crate::analyze::slo::parse(s).map_err(CliError::bad_input))
}

/// How a benchmark tool's output, given where a run is expected, is imported (in memory).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ImportFlags {
    /// For a tool's output given as a run: the UTC offset of its zone-less local times, e.g.
    /// +02:00.
    #[arg(long)]
    pub tz: Option<String>,
    /// For a tool's output given as a run: when its first request was sent (RFC 3339), for
    /// files whose times carry no date (inference-perf without its stage YAML).
    #[arg(long)]
    pub start: Option<String>,
}

impl ImportFlags {
    pub fn options(&self) -> Result<crate::import::ImportOptions, CliError> {
        import_options(self.tz.as_deref(), self.start.as_deref(), &[])
    }
}

/// `[FORMAT] PATH...`: the first argument is a format when it names one and files follow,
/// even where a file of that name exists (name it `./vllm` to mean the file).
pub fn format_and_paths(args: &[String]) -> Result<(crate::import::Format, Vec<std::path::PathBuf>), CliError> {
    use crate::import::Format;
    use std::path::{Path, PathBuf};
    let paths = |a: &[String]| a.iter().map(PathBuf::from).collect();
    match args.split_first() {
        Some((first, rest)) if !rest.is_empty() => match Format::from_name(first) {
            Some(f) => Ok((f, paths(rest))),
            None if !Path::new(first).exists() => {
                Err(CliError::bad_input(format!("{first:?} is neither a file nor a format")).hint(format!("formats: {}", Format::NAMES.join(", "))))
            }
            None => Ok((Format::Auto, paths(args))),
        },
        _ => Ok((Format::Auto, paths(args))),
    }
}

/// `--server-metrics` takes a plain http:// URL (the scraper speaks HTTP/1.1 without TLS), and
/// the endpoint must answer one scrape with samples before anything starts: metrics asked for
/// and not recorded would otherwise be lost in silence, as an unreachable `--url` is not.
pub fn check_metrics_url(url: Option<&str>) -> Result<(), CliError> {
    let Some(u) = url else { return Ok(()) };
    if !u.starts_with("http://") {
        return Err(CliError::bad_input(format!("--server-metrics {u:?}: expected http://host:port/path")));
    }
    crate::collect::scrape::scrape(u, 0).map(drop).map_err(|e| {
        CliError::bad_input(format!("--server-metrics {u}: the first scrape, made before anything starts, failed: {e}"))
            .hint("check the URL and that the server exposes Prometheus text there (vLLM and SGLang: http://HOST:PORT/metrics)")
    })
}

/// `--resamples` below this give unstable 95 % intervals.
pub fn check_resamples(resamples: usize) -> Result<(), CliError> {
    if resamples < 200 {
        return Err(CliError::bad_input("--resamples: at least 200 are needed"));
    }
    Ok(())
}

/// `credence report --format` (and `audit --format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    Pdf,
    Md,
    Json,
    Html,
}

impl ReportFormat {
    /// `--format` when given, else the one `out`'s extension names (`.md`, `.json`, `.html`),
    /// else PDF.
    pub fn of(format: Option<ReportFormat>, out: &std::path::Path) -> ReportFormat {
        format.unwrap_or_else(|| match out.extension().and_then(|x| x.to_str()).map(str::to_ascii_lowercase).as_deref() {
            Some("md") => ReportFormat::Md,
            Some("json") => ReportFormat::Json,
            Some("html" | "htm") => ReportFormat::Html,
            _ => ReportFormat::Pdf,
        })
    }
}

/// `credence collect --gpu` and `bench --collect-gpu`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GpuArg {
    Auto,
    On,
    Off,
}

impl GpuArg {
    pub fn mode(self) -> crate::collect::GpuMode {
        match self {
            GpuArg::Auto => crate::collect::GpuMode::Auto,
            GpuArg::On => crate::collect::GpuMode::On,
            GpuArg::Off => crate::collect::GpuMode::Off,
        }
    }
}

/// `--lang`: a language credence has, or `auto` for the locale's (English when it names none
/// of them). The default stays `en`, so a script's output does not change with its machine.
pub fn parse_lang(code: &str) -> Result<crate::report::i18n::Lang, CliError> {
    if code == "auto" {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        return Ok(lang_of_locale(var("LC_ALL").or_else(|| var("LC_MESSAGES")).or_else(|| var("LANG")).as_deref()));
    }
    crate::report::i18n::Lang::parse(code).ok_or_else(|| CliError::bad_input(format!("--lang {code:?}: expected en, zh or auto")))
}

/// The language a POSIX locale (`zh_CN.UTF-8`, `en_US`, `C`) names; English for any other.
fn lang_of_locale(locale: Option<&str>) -> crate::report::i18n::Lang {
    let code = locale.unwrap_or("").split(['_', '.', '@', '-']).next().unwrap_or("");
    crate::report::i18n::Lang::parse(code).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::{delay_flag, lang_of_locale, parse_duration};
    use crate::report::i18n::Lang;

    #[test]
    fn auto_reads_the_locales_language() {
        assert_eq!(lang_of_locale(Some("zh_CN.UTF-8")), Lang::Zh);
        assert_eq!(lang_of_locale(Some("zh_TW")), Lang::Zh);
        assert_eq!(lang_of_locale(Some("en_US.UTF-8")), Lang::En);
        assert_eq!(lang_of_locale(Some("C")), Lang::En);
        assert_eq!(lang_of_locale(Some("fr_FR")), Lang::En);
        assert_eq!(lang_of_locale(None), Lang::En);
    }

    /// Found by the `args` fuzz target: `--ttft 4444444444444444444444444ms` panicked turning
    /// the delay into a `Duration`; a duration that overflows or underflows was accepted.
    #[test]
    fn durations_beyond_range_are_errors() {
        assert!(delay_flag("--ttft", "4444444444444444444444444ms").is_err());
        assert!(parse_duration("1e308h").is_err());
        assert!(parse_duration("5e-324ms").is_err());
        assert_eq!(parse_duration("5m"), Ok(300.0));
    }

    #[test]
    fn tolerances() {
        let (g, per) = super::parse_tolerances(&["3%".into(), "ttft_p99=10%,throughput=0.02".into()]).unwrap();
        assert_eq!(g, 0.03);
        assert_eq!(per["ttft_p99"], 0.10);
        assert_eq!(per["output_tokens_per_s"], 0.02);
        assert!(super::parse_tolerances(&["lots".into()]).is_err());
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("300s").unwrap(), 300.0);
        assert_eq!(parse_duration("5m").unwrap(), 300.0);
        assert_eq!(parse_duration("1h").unwrap(), 3600.0);
        assert_eq!(parse_duration("250ms").unwrap(), 0.25);
        assert_eq!(parse_duration("42").unwrap(), 42.0);
        assert!(parse_duration("-1s").is_err());
        assert!(parse_duration("abc").is_err());
    }
}

/// `--slo`, and the capacity search's flags (`bench` and `simulate`).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct CapacityFlags {
    /// Service-level objectives, e.g. ttft_p99=500ms,tpot_p99=50ms: judged on the run (met,
    /// violated or undecided by the interval), with SLO attainment and goodput.
    #[arg(long, value_name = "SPEC")]
    pub slo: Option<String>,
    /// Search for the highest load at which every --slo objective holds: steps from --rate (or
    /// --concurrency; default 1 request/s), doubling then refining, each run until its objectives
    /// are decided; OUT/capacity.json holds the capacity with its interval. --max-duration
    /// bounds the whole search.
    #[arg(long)]
    pub find_capacity: bool,
    /// With --find-capacity: the bracket's relative width at which the search ends.
    #[arg(long, default_value = "5%")]
    pub precision: String,
    /// With --find-capacity: the longest one step may run (--duration instead gives every step
    /// that fixed length).
    #[arg(long, value_name = "DURATION", default_value = "5m")]
    pub max_step_duration: String,
}

impl CapacityFlags {
    /// The search's plan from `start` (the parameter and its first load), the bounds
    /// (`--min-duration` per step, `--max-duration` in all, `--duration` for fixed steps) and
    /// the seed; the objectives are required.
    pub fn plan(
        &self,
        (parameter, start): (crate::ops::bench::sweep::SweepParameter, f64),
        (min, max, fixed): (&str, &str, Option<&str>),
        seed: u64,
    ) -> Result<crate::ops::bench::capacity::CapacityPlan, CliError> {
        let Some(spec) = self.slo.as_deref() else {
            return Err(CliError::bad_input(format!("--find-capacity needs --slo SPEC, e.g. ttft_p99=500ms,tpot_p99=50ms; METRIC one of {}", crate::analyze::slo::known_keys().join(", "))));
        };
        let objectives = crate::analyze::slo::parse(spec).map_err(CliError::bad_input)?;
        let precision = self.precision.trim().strip_suffix('%').and_then(|p| p.trim().parse::<f64>().ok()).filter(|p| *p >= 0.5 && *p <= 50.0);
        let precision = precision.ok_or_else(|| CliError::bad_input(format!("--precision {:?}: expected a percentage from 0.5 % to 50 %, e.g. 5%", self.precision)))? / 100.0;
        let whole = parameter == crate::ops::bench::sweep::SweepParameter::Concurrency;
        let (lowest, highest) = if whole { (1.0, 4096.0) } else { (start / 64.0, start * 4096.0) };
        let search = crate::analyze::capacity::search::SearchPlan { start, precision, factor: 2.0, lowest, highest, whole, max_steps: 24 };
        let max_total_s = duration_flag("--max-duration", max)?;
        let max_step_s = duration_flag("--max-step-duration", &self.max_step_duration)?.min(max_total_s);
        let min_step_s = duration_flag("--min-duration", min)?.min(max_step_s);
        let fixed_step_s = fixed.map(|d| duration_flag("--duration", d)).transpose()?;
        let slo = crate::analyze::slo::canonical(&objectives);
        Ok(crate::ops::bench::capacity::CapacityPlan { search, parameter, objectives, slo, max_step_s, min_step_s, fixed_step_s, max_total_s, seed })
    }
}
