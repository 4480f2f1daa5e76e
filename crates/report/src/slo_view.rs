//! The service-level objectives in words: each objective's percentile against its threshold
//! with its verdict, and the goodput with the share of requests within every objective (page
//! 1's rows, the Markdown, the HTML page and the terminal summary say the same).

use credence_analyze::slo::Slo;
use credence_messages::{Lang, Message, Sep, metric_label};

use super::format::estimate_in;

/// "P99 TTFT ≤ 500 ms: met (312 [298, 330] ms); …"
pub fn objectives(slo: &Slo, lang: Lang) -> String {
    let items = slo
        .objectives
        .iter()
        .map(|o| {
            Message::new("slo-objective")
                .msg("metric", metric_label(&o.key))
                .text("threshold", credence_run::text::significant(o.threshold_ms, 3))
                .text("verdict", o.verdict.as_str())
                .text("estimate", estimate_in(&o.estimate, 1.0, lang))
        })
        .collect();
    Message::new("as-written").list("text", items, Sep::Semicolon).render(lang)
}

/// "18.2 [17.8, 18.6] requests/s within every objective: 94.1 [92.0, 96.0] % of the requests
/// (P99 TTFT the first to fail)"
pub fn goodput(slo: &Slo, lang: Lang) -> String {
    let limited = slo.limited_by.as_deref().map_or(Message::new("empty"), |k| Message::new("slo-limited").msg("metric", metric_label(k)));
    Message::new("slo-goodput")
        .text("goodput", estimate_in(&slo.goodput_per_s, 1.0, lang))
        .text("attainment", estimate_in(&slo.attainment, 100.0, lang))
        .msg("limited", limited)
        .render(lang)
}
