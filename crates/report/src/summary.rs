//! The plain-text summary `credence analyze` prints.

use std::fmt::Write;

use super::format::estimate;
use credence_analyze::Analysis;

const STATS: [(&str, &str); 5] = [("p50", "P50"), ("p90", "P90"), ("p99", "P99"), ("p999", "P99.9"), ("mean", "mean")];

pub fn summary(a: &Analysis) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "run {} ({} {})", a.run.run_id, a.run.source_kind, a.run.source_name);
    steady_state(&mut s, a);
    metrics(&mut s, a);
    let t = &a.throughput;
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "throughput: {} requests/s, {} output tokens/s ({} windows of {} s, stationary bootstrap)",
        estimate(&t.requests_per_s, 1.0),
        estimate(&t.output_tokens_per_s, 1.0),
        t.windows,
        t.window_s
    );
    let _ = writeln!(s, "errors: {} of {} requests: {} %", a.errors.errors, a.errors.requests, estimate(&a.errors.rate, 100.0));
    if let Some(slo) = &a.slo {
        let lang = credence_messages::Lang::En;
        let _ = writeln!(s, "slo: {}", super::slo_view::objectives(slo, lang));
        let _ = writeln!(s, "goodput: {}", super::slo_view::goodput(slo, lang));
    }
    if let Some(cache) = &a.cache {
        let lang = credence_messages::Lang::En;
        let _ = writeln!(s, "prefix cache: {}", super::workload_view::hit_rate(cache, lang));
        if let Some(turns) = super::workload_view::turns(cache, lang) {
            let _ = writeln!(s, "ttft by turn: {turns}");
        }
    }
    if let Some(split) = super::workload_view::adapters(&a.adapters, credence_messages::Lang::En) {
        let _ = writeln!(s, "by adapter: {split}");
    }
    if let Some(p) = &a.prompt_lengths {
        let _ = writeln!(s, "prompt lengths: {}", super::workload_view::prompt_lengths(p, credence_messages::Lang::En));
    }
    for (k, e) in &a.errors.by_kind {
        let _ = writeln!(s, "  {k}: {} %", estimate(e, 100.0));
    }
    let _ = writeln!(
        s,
        "intervals: {:.0} % confidence; percentiles {}; seed {}, {} resamples",
        a.options.confidence * 100.0,
        a.options.quantile_definition,
        a.options.seed,
        a.options.resamples
    );
    findings(&mut s, a);
    credibility(&mut s, &a.credibility);
    for w in &a.warnings {
        let _ = writeln!(s, "warning: {}", w.message);
        for h in &w.hints {
            let _ = writeln!(s, "  hint: {h}");
        }
    }
    s
}

/// The steady window, how each series classified, and how the detectors agreed.
fn steady_state(s: &mut String, a: &Analysis) {
    let st = &a.steady_state;
    let _ = writeln!(
        s,
        "steady state: {:?}, {:.1} s to {:.1} s: {} of {} requests (dropped {} at the start, {} at the end){}",
        st.classification,
        st.start_s,
        st.end_s,
        st.requests_in_window,
        a.requests.total,
        st.dropped_start_requests,
        st.dropped_end_requests,
        if st.overridden { ", window set by --steady-from/--steady-to" } else { "" }
    );
    for v in &st.series {
        let _ = writeln!(s, "  {}: {:?} from {:.1} s: {}", v.series, v.classification, v.start_s, v.reason);
    }
    let _ = writeln!(s, "  {}", st.agreement);
    let _ = writeln!(s);
}

/// One line per metric: its percentile estimates and sample size.
fn metrics(s: &mut String, a: &Analysis) {
    let _ = writeln!(s, "{:<26} {}", "metric", STATS.map(|x| format!("{:<36}", x.1)).join(""));
    for (name, stats) in &a.metrics {
        let unit = a.metric_definitions.get(name).map_or("", |d| d.unit);
        let cells: Vec<String> = STATS.iter().map(|(k, _)| stats.get(*k).map_or("n/a".into(), |e| estimate(e, 1.0))).collect();
        let n = stats.get("p50").map_or(0, |e| e.n);
        let label = format!("{name} ({unit})");
        // A long cell (a bound with its reason) keeps a space before the next.
        let _ = writeln!(s, "{:<26} {}  n={n}", label, cells.iter().map(|c| format!("{c:<35} ")).collect::<String>());
    }
}

fn findings(s: &mut String, a: &Analysis) {
    let _ = writeln!(s);
    if a.findings.is_empty() {
        let _ = writeln!(s, "findings: none");
    }
    for (i, f) in a.findings.iter().enumerate() {
        let _ = writeln!(
            s,
            "finding {}: {} [{}] ({} link{})",
            i + 1,
            f.title,
            f.cause,
            f.strength.label,
            if f.in_steady_window { ", inside the measured window" } else { ", outside the measured window" }
        );
        for e in &f.evidence {
            let _ = writeln!(s, "  {e}");
        }
        let _ = writeln!(s, "  action: {}", f.action);
    }
    for u in &a.attribution.unexplained {
        let _ = writeln!(
            s,
            "unexplained: {} {} from {:.0} s to {:.0} s (robust z {:.1}); no detector found a cause",
            u.series,
            u.peak_change_text(),
            u.start_s,
            u.end_s,
            u.peak_z
        );
    }
    let unchecked: Vec<&str> = a.attribution.detectors.iter().filter(|d| d.status == "not_checked").map(|d| d.cause.id()).collect();
    if !unchecked.is_empty() {
        let _ = writeln!(s, "not checked (evidence absent): {}", unchecked.join(", "));
    }
}

fn credibility(s: &mut String, c: &credence_analyze::credibility::Credibility) {
    let _ = writeln!(s);
    let _ = writeln!(s, "credibility: {}", c.grade.label());
    for k in &c.checks {
        let _ = writeln!(s, "  [{}] {}: {}", k.status.label(), k.name, k.reason);
    }
    let _ = writeln!(s, "{}", c.statement);
    let _ = writeln!(s);
}
