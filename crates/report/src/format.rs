//! Number formatting in one place. Digits follow the interval's half-width, so no renderer
//! prints more precision than the interval supports, and `insufficient_data` never shows as a
//! bare number.

use credence_analyze::{Estimate, Status};

use crate::i18n::{Lang, fill, tr};
pub use credence_run::text::{decimals_for, significant};

/// `36.1 [35.6, 36.7]`, `≥ 12.3 (insufficient data)`, or `n/a`.
pub fn estimate(e: &Estimate, scale: f64) -> String {
    estimate_in(e, scale, Lang::En)
}

/// An estimate with its interval in `lang`: `42.0 [40.1, 44.2]`, a lower bound only when the
/// data support no more, or the language's word for a value that does not apply.
pub fn estimate_in(e: &Estimate, scale: f64, lang: Lang) -> String {
    let d = e.decimals(scale);
    let number = |x: f64| format!("{:.d$}", x * scale);
    match (e.status, e.estimate) {
        (Status::NotApplicable, _) | (_, None) => not_available(lang),
        (Status::Ok, Some(v)) => format!("{} [{}, {}]", number(v), number(e.ci_low.unwrap_or(v)), number(e.ci_high.unwrap_or(v))),
        (Status::InsufficientData, Some(v)) => match e.ci_low {
            Some(lo) => fill(lang, "view.insufficient_bound", &[("v", &number(v)), ("lo", &number(lo))]),
            None => fill(lang, "view.insufficient", &[("v", &number(v))]),
        },
    }
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
}
