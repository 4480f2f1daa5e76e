//! The mock server's behaviour over time: a warmup slowdown that decays, throttling episodes,
//! a steady drift and bursts of errors, so that `analyze` can be tested against a known truth.
//!
//! Time `t` is in seconds since the server's first completion request. The service factor
//! multiplies the time to first token and the delay between tokens; its parts multiply:
//!
//! - warmup `T:F`: `1 + (F - 1)·(1 - t/T)` for `t < T` (linear in the factor), 1 after;
//! - throttle `A-B:F`: `F` for `A ≤ t < B` (episodes that overlap multiply);
//! - drift `R`/min: `1 + R·t/60`, floored at 0.1.
//!
//! An error burst `A-B:P` fails each request arriving in `[A, B)` with probability `P`;
//! bursts that overlap act independently, `1 - Π(1 - P)`.

use std::fmt;

/// The drift factor never falls below this, so a negative drift slows to a tenth at most.
const DRIFT_FLOOR: f64 = 0.1;

/// A slowdown at the start that decays linearly to none.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Warmup {
    pub duration_s: f64,
    /// The factor at t = 0.
    pub factor: f64,
}

/// A factor (a throttle) or a probability (an error burst) inside `[start_s, end_s)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Episode {
    pub start_s: f64,
    pub end_s: f64,
    pub value: f64,
}

impl Episode {
    fn covers(&self, t_s: f64) -> bool {
        (self.start_s..self.end_s).contains(&t_s)
    }
}

/// The whole schedule; the default has no behaviour (factor 1, no errors).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Timeline {
    pub warmup: Option<Warmup>,
    pub throttles: Vec<Episode>,
    /// Growth of the service times per minute, as a fraction (0.05 for `+5%/min`).
    pub drift_per_min: f64,
    pub error_bursts: Vec<Episode>,
}

impl Timeline {
    /// No warmup, throttle, drift or error burst.
    pub fn is_empty(&self) -> bool {
        self.warmup.is_none() && self.throttles.is_empty() && self.drift_per_min == 0.0 && self.error_bursts.is_empty()
    }

    /// The service-time multiplier at `t_s` seconds: warmup × throttles × drift.
    pub fn factor_at(&self, t_s: f64) -> f64 {
        let warmup = match self.warmup {
            Some(w) if t_s < w.duration_s => 1.0 + (w.factor - 1.0) * (1.0 - t_s.max(0.0) / w.duration_s),
            _ => 1.0,
        };
        let throttle: f64 = self.throttles.iter().filter(|e| e.covers(t_s)).map(|e| e.value).product();
        let drift = if self.drift_per_min == 0.0 { 1.0 } else { (1.0 + self.drift_per_min * t_s / 60.0).max(DRIFT_FLOOR) };
        warmup * throttle * drift
    }

    /// The probability that a request arriving at `t_s` fails with HTTP 500.
    pub fn error_probability_at(&self, t_s: f64) -> f64 {
        let ok: f64 = self.error_bursts.iter().filter(|e| e.covers(t_s)).map(|e| 1.0 - e.value).product();
        1.0 - ok
    }

    /// `--warmup DURATION:FACTORx`, e.g. `60s:3x`.
    pub fn parse_warmup(text: &str) -> Result<Warmup, String> {
        let bad = || format!("--warmup {text:?}: expected DURATION:FACTORx with DURATION > 0 and FACTOR > 0, e.g. 60s:3x");
        let (d, f) = text.trim().split_once(':').ok_or_else(bad)?;
        let (duration_s, factor) = (parse_seconds(d).map_err(|e| format!("{}; {e}", bad()))?, parse_factor(f).ok_or_else(bad)?);
        if duration_s <= 0.0 {
            return Err(bad());
        }
        Ok(Warmup { duration_s, factor })
    }

    /// `--throttle START-END:FACTORx`, e.g. `120s-180s:1.5x`.
    pub fn parse_throttle(text: &str) -> Result<Episode, String> {
        let bad = || format!("--throttle {text:?}: expected START-END:FACTORx with START < END and FACTOR > 0, e.g. 120s-180s:1.5x");
        let (range, f) = text.trim().rsplit_once(':').ok_or_else(bad)?;
        let (start_s, end_s) = parse_range(range).map_err(|e| e.map_or_else(bad, |e| format!("{}; {e}", bad())))?;
        Ok(Episode { start_s, end_s, value: parse_factor(f).ok_or_else(bad)? })
    }

    /// `--drift ±RATE%/min`, e.g. `+5%/min` or `-2%/min`; returns the fraction per minute.
    pub fn parse_drift(text: &str) -> Result<f64, String> {
        let bad = || format!("--drift {text:?}: expected ±PERCENT%/min, e.g. +5%/min or -2%/min");
        let pct = text.trim().strip_suffix("%/min").ok_or_else(bad)?.trim();
        let v: f64 = pct.strip_prefix('+').unwrap_or(pct).parse().map_err(|_| bad())?;
        if !v.is_finite() {
            return Err(bad());
        }
        Ok(v / 100.0)
    }

    /// `--error-burst START-END:P`, e.g. `30s-40s:0.2`.
    pub fn parse_error_burst(text: &str) -> Result<Episode, String> {
        let bad = || format!("--error-burst {text:?}: expected START-END:P with START < END and P in [0, 1], e.g. 30s-40s:0.2");
        let (range, p) = text.trim().rsplit_once(':').ok_or_else(bad)?;
        let (start_s, end_s) = parse_range(range).map_err(|e| e.map_or_else(bad, |e| format!("{}; {e}", bad())))?;
        let value = p.trim().parse::<f64>().ok().filter(|p| (0.0..=1.0).contains(p)).ok_or_else(bad)?;
        Ok(Episode { start_s, end_s, value })
    }
}

/// One line for the server's start-up: `warmup 60s from 3x; throttle 120-180 s at 1.5x; ...`.
impl fmt::Display for Timeline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(w) = self.warmup {
            parts.push(format!("warmup {}s from {}x", w.duration_s, w.factor));
        }
        parts.extend(self.throttles.iter().map(|e| format!("throttle {}-{} s at {}x", e.start_s, e.end_s, e.value)));
        if self.drift_per_min != 0.0 {
            // Rounded so that 0.07 shows as +7%/min, not +7.000000000000001%/min.
            parts.push(format!("drift {:+}%/min", (self.drift_per_min * 1e11).round() / 1e9));
        }
        parts.extend(self.error_bursts.iter().map(|e| format!("error burst {}-{} s at p={}", e.start_s, e.end_s, e.value)));
        if parts.is_empty() { f.write_str("none") } else { f.write_str(&parts.join("; ")) }
    }
}

/// `START-END` in seconds with START < END; `Err(None)` for a malformed range, `Err(Some(why))`
/// for a bad duration.
fn parse_range(text: &str) -> Result<(f64, f64), Option<String>> {
    let (a, b) = text.split_once('-').ok_or(None)?;
    let (a, b) = (parse_seconds(a).map_err(Some)?, parse_seconds(b).map_err(Some)?);
    if a < b { Ok((a, b)) } else { Err(None) }
}

/// A factor `F` or `Fx`, finite and above 0.
fn parse_factor(text: &str) -> Option<f64> {
    let t = text.trim();
    t.strip_suffix('x').unwrap_or(t).trim().parse::<f64>().ok().filter(|f| f.is_finite() && *f > 0.0)
}

/// A duration with its unit, `500ms`, `90s` or `1.5m`, in seconds (0 or more).
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let number = t.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let scale = match &t[number.len()..] {
        "ms" => 1e-3,
        "s" => 1.0,
        "m" => 60.0,
        "" => return Err(format!("{t:?} has no unit (ms, s or m)")),
        unit => return Err(format!("{t:?} has an unknown unit {unit:?} (ms, s or m)")),
    };
    let v: f64 = number.trim().parse().map_err(|_| format!("{t:?} is not a duration (a number with ms, s or m)"))?;
    if !(v.is_finite() && v >= 0.0) {
        return Err(format!("{t:?}: a duration is 0 or more"));
    }
    Ok(v * scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn no_behaviour_by_default() {
        let t = Timeline::default();
        assert!(t.is_empty());
        assert_eq!((t.factor_at(0.0), t.factor_at(1e6), t.error_probability_at(5.0)), (1.0, 1.0, 0.0));
        assert_eq!(t.to_string(), "none");
    }

    #[test]
    fn warmup_decays_linearly_to_one() {
        let t = Timeline { warmup: Some(Timeline::parse_warmup("60s:3x").unwrap()), ..Timeline::default() };
        assert!(close(t.factor_at(0.0), 3.0));
        assert!(close(t.factor_at(30.0), 2.0));
        assert!(close(t.factor_at(45.0), 1.5));
        assert!(close(t.factor_at(60.0), 1.0));
        assert!(close(t.factor_at(600.0), 1.0));
    }

    #[test]
    fn throttles_apply_inside_their_half_open_windows() {
        let throttles = vec![Timeline::parse_throttle("120s-180s:1.5x").unwrap(), Timeline::parse_throttle("2m-4m:2x").unwrap()];
        let t = Timeline { throttles, ..Timeline::default() };
        assert!(close(t.factor_at(119.9), 1.0));
        assert!(close(t.factor_at(120.0), 3.0), "both episodes cover 120 s: 1.5 × 2");
        assert!(close(t.factor_at(180.0), 2.0), "the first ends at 180 s, exclusive");
        assert!(close(t.factor_at(240.0), 1.0));
    }

    #[test]
    fn drift_grows_per_minute_and_is_floored() {
        let up = Timeline { drift_per_min: Timeline::parse_drift("+5%/min").unwrap(), ..Timeline::default() };
        assert!(close(up.factor_at(0.0), 1.0));
        assert!(close(up.factor_at(60.0), 1.05));
        assert!(close(up.factor_at(600.0), 1.5));
        let down = Timeline { drift_per_min: Timeline::parse_drift("-2%/min").unwrap(), ..Timeline::default() };
        assert!(close(down.factor_at(60.0), 0.98));
        assert!(close(down.factor_at(3600.0), 0.1), "floored at 0.1, not negative");
        let seven = Timeline { drift_per_min: Timeline::parse_drift("7%/min").unwrap(), ..Timeline::default() };
        assert_eq!((down.to_string(), seven.to_string()), ("drift -2%/min".to_string(), "drift +7%/min".to_string()));
    }

    #[test]
    fn factors_multiply() {
        let t = Timeline {
            warmup: Some(Warmup { duration_s: 60.0, factor: 3.0 }),
            throttles: vec![Episode { start_s: 20.0, end_s: 40.0, value: 1.5 }],
            drift_per_min: 0.05,
            ..Timeline::default()
        };
        // At 30 s: warmup 2, throttle 1.5, drift 1.025.
        assert!(close(t.factor_at(30.0), 2.0 * 1.5 * 1.025));
        assert!(close(t.factor_at(120.0), 1.1), "warmup over, outside the throttle, drift 1.1");
        assert_eq!(t.to_string(), "warmup 60s from 3x; throttle 20-40 s at 1.5x; drift +5%/min");
    }

    #[test]
    fn error_probability_in_and_out_of_a_burst() {
        let t = Timeline { error_bursts: vec![Timeline::parse_error_burst("30s-40s:0.2").unwrap()], ..Timeline::default() };
        assert_eq!(t.error_probability_at(29.99), 0.0);
        assert!(close(t.error_probability_at(30.0), 0.2));
        assert!(close(t.error_probability_at(39.99), 0.2));
        assert_eq!(t.error_probability_at(40.0), 0.0);
        assert!(close(t.factor_at(35.0), 1.0), "a burst does not slow the service");
        let two = Timeline { error_bursts: vec![t.error_bursts[0], Episode { start_s: 35.0, end_s: 50.0, value: 0.5 }], ..Timeline::default() };
        assert!(close(two.error_probability_at(36.0), 1.0 - 0.8 * 0.5), "overlapping bursts act independently");
        assert!(two.to_string().starts_with("error burst 30-40 s at p=0.2; "));
    }

    #[test]
    fn durations_take_ms_s_and_m() {
        assert!(close(parse_seconds("500ms").unwrap(), 0.5));
        assert!(close(parse_seconds("90s").unwrap(), 90.0));
        assert!(close(parse_seconds("1.5m").unwrap(), 90.0));
        assert!(close(parse_seconds(" 0s ").unwrap(), 0.0));
        assert!(parse_seconds("10h").unwrap_err().contains("\"10h\""));
        assert!(parse_seconds("10").unwrap_err().contains("no unit"));
        assert!(parse_seconds("-1s").is_err());
    }

    #[test]
    fn bad_input_names_the_flag_the_value_and_the_form() {
        let e = Timeline::parse_throttle("120s-80s:1.5x").unwrap_err();
        assert_eq!(e, "--throttle \"120s-80s:1.5x\": expected START-END:FACTORx with START < END and FACTOR > 0, e.g. 120s-180s:1.5x");
        assert!(Timeline::parse_throttle("120s-180s:0x").unwrap_err().starts_with("--throttle \"120s-180s:0x\": expected"));
        assert!(Timeline::parse_throttle("120s-180s:-1x").is_err());
        assert!(Timeline::parse_throttle("120s-180s").is_err());
        let unit = Timeline::parse_throttle("120h-180h:2x").unwrap_err();
        assert!(unit.contains("e.g. 120s-180s:1.5x") && unit.contains("unknown unit \"h\""), "{unit}");
        assert!(Timeline::parse_warmup("60s").unwrap_err().starts_with("--warmup \"60s\": expected DURATION:FACTORx"));
        assert!(Timeline::parse_warmup("0s:3x").is_err());
        assert!(Timeline::parse_warmup("60s:0x").is_err());
        assert!(Timeline::parse_warmup("60q:3x").is_err());
        assert!(Timeline::parse_drift("5%").unwrap_err().starts_with("--drift \"5%\": expected ±PERCENT%/min"));
        assert!(Timeline::parse_drift("fast%/min").is_err());
        assert!(Timeline::parse_error_burst("30s-40s:1.2").unwrap_err().contains("P in [0, 1]"));
        assert!(Timeline::parse_error_burst("40s-30s:0.2").is_err());
        assert!(Timeline::parse_error_burst("30s:0.2").is_err());
        assert!(close(Timeline::parse_warmup("500ms:2").unwrap().duration_s, 0.5), "the x is optional");
    }
}
