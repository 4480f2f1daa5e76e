//! A capacity search in words: the headline (the capacity with its interval, what limits it
//! and the saturation throughput, or why there is no number) and the steps' table. Page 1, the
//! Markdown, the HTML page and the terminal say the same.

use credence_analyze::capacity::{Capacity, Finding, Outcome, Step};
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
fn outcome(s: &Step) -> Message {
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
