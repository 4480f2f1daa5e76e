//! A capacity search in words: the headline (the capacity with its interval, what limits it
//! and the saturation throughput, or why there is no number) and the steps' table; two
//! searches compared: the change with its interval and verdict, and a row per search. Page 1,
//! the Markdown, the HTML page and the terminal say the same.

use credence_analyze::capacity::compare::CapacityComparison;
use credence_analyze::capacity::{Capacity, Finding, Outcome, Step};
use credence_analyze::{Estimate, Status};
use credence_messages::{Lang, Message, Sep, metric_label};

use super::format::estimate_in;

/// The objectives: "P99 TTFT ≤ 500 ms, P99 TPOT ≤ 50 ms".
fn objectives(c: &Capacity) -> Message {
    let items = c
        .objectives
        .iter()
        .map(|o| Message::new("capacity-slo-item").msg("metric", metric_label(&o.key)).text("threshold", credence_run::text::significant(o.threshold_ms, 3)))
        .collect();
    Message::new("as-written").list("text", items, Sep::Comma)
}

/// The capacity's unit, worded.
fn unit(c: &Capacity) -> Message {
    Message::new("capacity-unit").text("unit", c.parameter.as_str())
}

/// "Capacity at P99 TTFT ≤ 500 ms: 17.2 [16.6, 17.9] requests/s, limited by P99 TTFT;
/// saturation throughput 18.1 [17.8, 18.4] requests/s", or why there is no number.
pub fn headline(c: &Capacity, lang: Lang) -> Message {
    let loads = || c.steps.iter().map(|s| s.load);
    let n = |v: f64| credence_run::text::significant(v, 3);
    match c.finding {
        Finding::Found => {
            let limited = c.limited_by.as_deref().unwrap_or("overload");
            let limited = Message::new("capacity-limited").text("limited", if limited == "overload" { "overload" } else { "other" }).msg("metric", metric_label(limited));
            let saturation = match &c.saturation {
                Some(s) => Message::new("capacity-saturation").text("throughput", estimate_in(s, 1.0, lang)),
                None => Message::new("capacity-no-saturation"),
            };
            Message::new("capacity-found").msg("slo", objectives(c)).text("capacity", estimate_in(&c.capacity, 1.0, lang)).msg("unit", unit(c)).msg("limited", limited).msg("saturation", saturation)
        }
        Finding::BelowLowest => Message::new("capacity-below").msg("slo", objectives(c)).text("lowest", n(loads().fold(f64::INFINITY, f64::min))).msg("unit", unit(c)),
        Finding::AboveHighest => Message::new("capacity-above").msg("slo", objectives(c)).text("highest", n(loads().fold(0.0, f64::max))).msg("unit", unit(c)),
        Finding::Undecided => Message::new("capacity-undecided").msg("slo", objectives(c)),
    }
}

/// A step's result, worded.
pub fn outcome(s: &Step) -> Message {
    let id = match (s.outcome, s.overloaded) {
        (_, true) => "overloaded",
        (Outcome::Met, _) => "met",
        (Outcome::Violated, _) => "violated",
        (Outcome::Undecided, _) => "undecided",
    };
    Message::new("capacity-outcome").text("outcome", id)
}

/// The steps' table: load, result, each objective's percentile, completed and good requests/s.
pub fn rows(c: &Capacity, lang: Lang) -> (Vec<String>, Vec<Vec<String>>) {
    let mut head = vec![Message::new("capacity-col-load").render(lang), Message::new("capacity-col-outcome").render(lang)];
    head.extend(c.objectives.iter().map(|o| format!("{} ms", metric_label(&o.key).render(lang))));
    head.push(Message::new("capacity-col-throughput").render(lang));
    head.push(Message::new("capacity-col-goodput").render(lang));
    let rows = c
        .steps
        .iter()
        .map(|s| {
            let mut row = vec![credence_run::text::significant(s.load, 4), outcome(s).render(lang)];
            for o in &c.objectives {
                let e = s.objectives.iter().find(|x| x.key == o.key).map(|x| estimate_in(&x.estimate, 1.0, lang));
                row.push(e.unwrap_or_else(|| super::format::not_available(lang)));
            }
            row.push(estimate_in(&s.throughput, 1.0, lang));
            row.push(s.goodput.as_ref().map_or_else(|| super::format::not_available(lang), |g| estimate_in(g, 1.0, lang)));
            row
        })
        .collect();
    (head, rows)
}

/// "+28 % [+19 %, +38 %]": a relative change with its interval, signed.
fn signed_change(e: &Estimate, lang: Lang) -> String {
    let d = e.decimals(100.0);
    let pct = |x: f64| format!("{:+.d$} %", x * 100.0);
    match (e.status, e.estimate, e.ci_low, e.ci_high) {
        (Status::Ok, Some(v), Some(lo), Some(hi)) => format!("{} [{}, {}]", pct(v), pct(lo), pct(hi)),
        _ => estimate_in(e, 100.0, lang) + " %",
    }
}

/// "Capacity at P90 TTFT ≤ 500 ms: +28 % [+19 %, +38 %] (8.0 [7.7, 8.3] against 6.2 [6.0,
/// 6.5] requests/s): an improvement beyond ±5 %", or why the two cannot be compared.
pub fn comparison_headline(c: &CapacityComparison, lang: Lang) -> Message {
    let slo = objectives(&c.base);
    if c.verdict == "not_comparable" {
        let different = c.base.slo != c.cand.slo || c.base.parameter != c.cand.parameter;
        return Message::new("capacity-compare-not-comparable").msg("slo", slo).text("why", if different { "different" } else { "no_capacity" });
    }
    let tolerance = format!("{}", (c.tolerance * 1e5).round() / 1e3);
    Message::new("capacity-compare")
        .msg("slo", slo)
        .text("change", signed_change(&c.change, lang))
        .text("cand", estimate_in(&c.cand.capacity, 1.0, lang))
        .text("base", estimate_in(&c.base.capacity, 1.0, lang))
        .msg("unit", unit(&c.base))
        .msg("verdict", Message::new("capacity-compare-verdict").text("verdict", c.verdict.as_str()).text("tolerance", tolerance))
}

/// One row per search: its capacity, what limits it, its saturation throughput, its steps.
pub fn comparison_rows(c: &CapacityComparison, lang: Lang) -> (Vec<String>, Vec<Vec<String>>) {
    let head = ["arm", "capacity", "limited", "saturation", "steps"].map(|k| Message::new(&format!("capacity-col-{k}")).render(lang)).to_vec();
    let row = |arm: &str, s: &Capacity| {
        let limited = match s.limited_by.as_deref() {
            Some("overload") => Message::new("capacity-outcome").text("outcome", "overloaded").render(lang),
            Some(key) => metric_label(key).render(lang),
            None => super::format::not_available(lang),
        };
        let n = |v: f64| credence_run::text::significant(v, 3);
        let short = |finding: &str, load: f64| Message::new("capacity-short").text("finding", finding).text("load", n(load)).render(lang);
        let capacity = match s.finding {
            Finding::Found => estimate_in(&s.capacity, 1.0, lang),
            Finding::BelowLowest => short("below", s.steps.iter().map(|x| x.load).fold(f64::INFINITY, f64::min)),
            Finding::AboveHighest => short("above", s.steps.iter().map(|x| x.load).fold(0.0, f64::max)),
            Finding::Undecided => short("undecided", 0.0),
        };
        let saturation = s.saturation.as_ref().map_or_else(|| super::format::not_available(lang), |e| estimate_in(e, 1.0, lang));
        vec![Message::new("capacity-arm").text("arm", arm).render(lang), capacity, limited, saturation, s.steps.len().to_string()]
    };
    (head, vec![row("base", &c.base), row("cand", &c.cand)])
}
