//! Validated options built from what the user typed. Nothing downstream sees clap types.

use crate::analyze::{AnalyzeOptions, Penalty};
use crate::cli::{ArrivalArg, PenaltyArg};
use crate::error::CliError;
use crate::simulate::{ArrivalProcess, Effect, Scenario, SimOptions};

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
    if !v.is_finite() || v <= 0.0 {
        return Err(format!("{text:?}: a duration must be positive"));
    }
    Ok(v * scale)
}

/// Raw `simulate` arguments.
pub struct SimulateArgs<'a> {
    pub scenario: &'a str,
    pub seed: u64,
    pub duration: &'a str,
    pub rate: f64,
    pub arrival: ArrivalArg,
    pub concurrency: Option<u32>,
    pub effect: Option<&'a str>,
    pub gpus: u32,
    pub output_median: f64,
}

pub fn simulate_options(a: SimulateArgs<'_>) -> Result<SimOptions, CliError> {
    let scenario = Scenario::from_name(a.scenario).ok_or_else(|| {
        let names: Vec<_> = Scenario::ALL.iter().map(|s| s.name()).collect();
        CliError::bad_input(format!("--scenario {:?} is not a scenario", a.scenario)).hint(format!("choose one of: {}", names.join(", ")))
    })?;
    let mut opts = SimOptions::new(scenario, a.seed);
    opts.duration_s = parse_duration(a.duration).map_err(|e| CliError::bad_input(format!("--duration {e}")))?;
    opts.arrival = match (a.arrival, a.concurrency) {
        (ArrivalArg::Poisson, None) => ArrivalProcess::Poisson { rate: a.rate },
        (ArrivalArg::Constant, None) => ArrivalProcess::Constant { rate: a.rate },
        (ArrivalArg::ClosedLoop, Some(c)) => ArrivalProcess::ClosedLoop { clients: c },
        (ArrivalArg::ClosedLoop, None) => {
            return Err(CliError::bad_input("--arrival closed-loop needs --concurrency N"));
        }
        (_, Some(_)) => {
            return Err(CliError::bad_input("--concurrency applies only to --arrival closed-loop"));
        }
    };
    opts.effect = a.effect.map(Effect::parse).transpose().map_err(CliError::bad_input)?;
    opts.gpus = a.gpus;
    if !(a.output_median.is_finite() && (2.0..=4096.0).contains(&a.output_median)) {
        return Err(CliError::bad_input("--output-median must lie between 2 and 4096 tokens"));
    }
    opts.lengths.output_median = a.output_median;
    Ok(opts)
}

/// Raw `analyze` arguments.
pub struct AnalyzeArgs<'a> {
    pub window: &'a str,
    pub confidence: f64,
    pub seed: u64,
    pub resamples: usize,
    pub penalty: PenaltyArg,
    pub steady_from: Option<&'a str>,
    pub steady_to: Option<&'a str>,
}

pub fn analyze_options(a: AnalyzeArgs<'_>) -> Result<AnalyzeOptions, CliError> {
    let window_s = parse_duration(a.window).map_err(|e| CliError::bad_input(format!("--window {e}")))?;
    if !(a.confidence > 0.5 && a.confidence < 1.0) {
        return Err(CliError::bad_input(format!("--confidence {}: must lie between 0.5 and 1 (e.g. 0.95)", a.confidence)));
    }
    if a.resamples < 200 {
        return Err(CliError::bad_input(format!("--resamples {}: at least 200 are needed for stable 95 % intervals", a.resamples)).hint("the default is 9999"));
    }
    let seconds = |flag: &str, v: Option<&str>| -> Result<Option<f64>, CliError> {
        v.map(|t| {
            let t = t.trim();
            if t == "0" || t == "0s" { Ok(0.0) } else { parse_duration(t).map_err(|e| CliError::bad_input(format!("{flag} {e}"))) }
        })
        .transpose()
    };
    let steady_from = seconds("--steady-from", a.steady_from)?;
    let steady_to = seconds("--steady-to", a.steady_to)?;
    if let (Some(f), Some(t)) = (steady_from, steady_to)
        && t <= f
    {
        return Err(CliError::bad_input(format!("--steady-to {t} s must come after --steady-from {f} s")));
    }
    Ok(AnalyzeOptions {
        window_s,
        confidence: a.confidence,
        seed: a.seed,
        resamples: a.resamples,
        penalty: match a.penalty {
            PenaltyArg::Mbic => Penalty::Mbic,
            PenaltyArg::Conservative => Penalty::Conservative,
        },
        steady_from,
        steady_to,
        ..AnalyzeOptions::default()
    })
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
pub fn parse_tolerances(values: &[String]) -> Result<(f64, std::collections::BTreeMap<String, f64>), CliError> {
    let mut global = 0.05;
    let mut per = std::collections::BTreeMap::new();
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

#[cfg(test)]
mod tests {
    use super::parse_duration;

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
