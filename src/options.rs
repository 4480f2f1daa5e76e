//! Validated options built from what the user typed. Nothing downstream sees clap types.

use crate::cli::ArrivalArg;
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
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a duration; use e.g. 300s, 5m or 1h"))?;
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
        CliError::bad_input(format!("--scenario {:?} is not a scenario", a.scenario))
            .hint(format!("choose one of: {}", names.join(", ")))
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

#[cfg(test)]
mod tests {
    use super::parse_duration;

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
