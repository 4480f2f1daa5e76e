//! The plain-text table `credence plan` prints.

use std::fmt::Write;

use credence_analyze::plan::{Design, Plan};

/// Seconds as `45 s`, `12 min` or `3.5 h`.
fn span(s: f64) -> String {
    if s < 120.0 {
        format!("{s:.0} s")
    } else if s < 7200.0 {
        format!("{:.0} min", s / 60.0)
    } else {
        format!("{:.1} h", s / 3600.0)
    }
}

fn design_row(d: &Design, recommended: bool) -> String {
    format!(
        "{} {:>8} {:>10} {:>13} {:>7} {:>10}",
        if recommended { "*" } else { " " },
        d.runs_per_arm,
        span(d.duration_s),
        d.requests_per_run,
        format!("{:.0} %", d.power * 100.0),
        span(d.cost_s)
    )
}

pub fn summary(p: &Plan) -> String {
    let mut s = String::new();
    let o = &p.options;
    let _ = writeln!(s, "plan: detect a {:.1} % change against a {:.1} % tolerance with {:.0} % power", o.effect * 100.0, o.tolerance * 100.0, o.power * 100.0);
    let pi = &p.pilot;
    let _ = writeln!(
        s,
        "pilot: {} run(s), {} steady requests ({:.1} requests/s, {:.0} s steady and {:.0} s warm-up per run)",
        pi.runs, pi.steady_requests, pi.requests_per_s, pi.steady_s_per_run, pi.warmup_s_per_run
    );
    let _ = writeln!(s, "\n{:<22} {:>18} {:>18}", "metric", "within-run CV", "between-run CV");
    for (name, m) in &p.metrics {
        let label = if m.between_run == "assumed" { " (ASSUMED)" } else { " (measured)" };
        let _ = writeln!(s, "{:<22} {:>18} {:>18}{label}", name, format!("{:.2} %", m.within_run_cv * 100.0), format!("{:.2} %", m.between_run_cv * 100.0));
    }
    let _ = writeln!(s);
    match &p.cannot_tell {
        Some(why) => {
            let _ = writeln!(s, "{why}");
        }
        None => {
            let basis = p.designs.first().map_or("", |d| if d.between_run == "assumed" { " (power rests on the ASSUMED between-run CV)" } else { "" });
            let _ = writeln!(s, "designs: the fewest runs per arm that reach the power, per run length{basis}");
            let _ = writeln!(s, "  {:>8} {:>10} {:>13} {:>7} {:>10}", "runs/arm", "run", "requests/run", "power", "cost");
            for (i, d) in p.designs.iter().enumerate() {
                let _ = writeln!(s, "{}", design_row(d, i == 0));
            }
            let _ = writeln!(s, "* recommended: the cheapest, at {} of fixed cost per run (both arms counted)", span(o.cost_per_run_s));
        }
    }
    let _ = writeln!(s, "\nassumptions:");
    for a in &p.assumptions {
        let _ = writeln!(s, "  - {a}");
    }
    s
}
