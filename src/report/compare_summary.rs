//! The plain-text table `credence compare` prints.

use std::fmt::Write;

use super::format::significant;
use crate::analyze::compare::Comparison;

pub fn summary(c: &Comparison) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "base: {}   candidate: {}", c.base_runs.join(", "), c.cand_runs.join(", "));
    let _ = writeln!(s, "{}{}", if c.valid { "" } else { "INVALID COMPARISON: " }, c.replication);
    for g in &c.gates {
        let _ = writeln!(s, "  [{}] {}: {}", g.status, g.name, g.reason);
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "{:<22} {:>12} {:>12} {:>28} {:>8}  verdict", "metric", "base", "cand", "change [95 % CI]", "tol");
    for (name, m) in &c.metrics {
        let pct = name != "error_rate";
        let fmt = |x: f64| {
            if pct { format!("{:+.1} %", x * 100.0) } else { format!("{:+.2} pp", x * 100.0) }
        };
        let _ = writeln!(
            s,
            "{:<22} {:>12} {:>12} {:>28} {:>8}  {:?}{}",
            name,
            if pct { significant(m.base, 3) } else { format!("{:.2} %", m.base * 100.0) },
            if pct { significant(m.cand, 3) } else { format!("{:.2} %", m.cand * 100.0) },
            format!("{} [{}, {}]", fmt(m.change.estimate), fmt(m.change.ci_low), fmt(m.change.ci_high)),
            if pct { format!("{:.1} %", m.tolerance * 100.0) } else { format!("{:.1} pp", m.tolerance * 100.0) },
            m.verdict,
            m.more_data.as_ref().map_or(String::new(), |d| format!(" (to decide: {})", d.advice)),
        );
    }
    s.push_str(&super::conditions_view::compare_text(c));
    if !c.what_changed.is_empty() {
        let _ = writeln!(s, "\nwhat changed:");
        for d in &c.what_changed {
            let _ = writeln!(s, "  {}: {} -> {}", d.key, d.base, d.cand);
        }
    }
    s
}
