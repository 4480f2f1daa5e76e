//! Number formatting in one place. Digits follow the interval's half-width, so no renderer
//! prints more precision than the interval supports, and `insufficient_data` never shows as a
//! bare number; a percentile beyond the censoring level shows as the bound it is.

use credence_analyze::{CensoredBefore, Estimate, Status};

use crate::i18n::{Lang, fill, tr};
pub use credence_run::text::{decimals_for, significant};

/// `36.1 [35.6, 36.7]`, `≥ 12.3 (insufficient data)`, `> 20000 (83 % timed out or cancelled
/// before their first token)`, or `n/a`.
pub fn estimate(e: &Estimate, scale: f64) -> String {
    estimate_in(e, scale, Lang::En)
}

/// An estimate with its interval in `lang`: `42.0 [40.1, 44.2]`, a lower bound only when the
/// data support no more, or the language's word for a value that does not apply.
pub fn estimate_in(e: &Estimate, scale: f64, lang: Lang) -> String {
    let d = e.decimals(scale);
    let number = |x: f64| format!("{:.d$}", x * scale);
    match (e.status, e.estimate) {
        (Status::InsufficientData, None) if e.is_censored_bound() => censored_bound(e, &number, lang),
        (Status::NotApplicable, _) | (_, None) => not_available(lang),
        (Status::Ok, Some(v)) => format!("{} [{}, {}]", number(v), number(e.ci_low.unwrap_or(v)), number(e.ci_high.unwrap_or(v))),
        (Status::InsufficientData, Some(v)) => match e.ci_low {
            Some(lo) => fill(lang, "view.insufficient_bound", &[("v", &number(v)), ("lo", &number(lo))]),
            None => fill(lang, "view.insufficient", &[("v", &number(v))]),
        },
    }
}

/// A statistic beyond the censoring level: only its lower bound, with the share of requests
/// that ended (timed out, cancelled) before the metric was observed.
fn censored_bound(e: &Estimate, number: &dyn Fn(f64) -> String, lang: Lang) -> String {
    let Some(c) = e.censored else { return not_available(lang) };
    let before = match c.before {
        CensoredBefore::FirstToken => "first_token",
        CensoredBefore::End => "end",
    };
    let share = format!("{:.0}", c.share * 100.0);
    let lo = e.ci_low.map_or_else(|| "?".to_string(), number);
    fill(lang, "view.censored", &[("lo", &lo), ("share", &share), ("before", before)])
}

/// A table cell with no value.
pub fn not_available(lang: Lang) -> String {
    tr(lang, "view.not_available")
}

#[cfg(test)]
mod tests {
    use super::*;
    use credence_analyze::Method;

    #[test]
    fn digits_follow_the_interval() {
        assert_eq!(decimals_for(0.5), 2);
        assert_eq!(decimals_for(0.05), 3);
        assert_eq!(decimals_for(12.0), 0);
        let e = Estimate::two_sided(36.123, (35.61, 36.72), 0.95, Method::OrderStatistic, 100);
        assert_eq!(estimate(&e, 1.0), "36.12 [35.61, 36.72]");
        let e = Estimate::two_sided(1234.5, (1100.0, 1400.0), 0.95, Method::OrderStatistic, 100);
        assert_eq!(estimate(&e, 1.0), "1234 [1100, 1400]");
        assert_eq!(significant(897.079, 3), "897");
        assert_eq!(significant(13.8822, 3), "13.9");
        assert_eq!(significant(0.0123456, 3), "0.0123");
        let e = Estimate::insufficient(80.0, Some(70.0), None, 0.95, Method::OrderStatistic, 10, "x");
        assert_eq!(estimate(&e, 1.0), "~80.0 (>= 70.0, insufficient data)");
    }

    #[test]
    fn a_bound_beyond_the_timeouts_is_no_number() {
        use credence_analyze::Censoring;
        let c = Censoring { count: 83, share: 0.83, before: CensoredBefore::FirstToken };
        let e = Estimate::beyond_censoring(Some(20_000.4), 0.95, Method::KaplanMeier, 100, c, "beyond");
        assert_eq!(estimate(&e, 1.0), "> 20000 (83 % timed out or cancelled before their first token)");
        let e = Estimate::beyond_censoring(Some(20_000.4), 0.95, Method::KaplanMeier, 100, Censoring { before: CensoredBefore::End, ..c }, "beyond");
        assert_eq!(estimate(&e, 1.0), "> 20000 (83 % timed out or cancelled before completing)");
        let zh = estimate_in(&e, 1.0, Lang::Zh);
        assert!(zh.starts_with("> 20000") && zh.contains("83 %"), "{zh}");
    }
}
