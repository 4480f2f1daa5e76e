//! The telemetry-only audit as display strings: the capture, the GPUs set aside, the
//! episodes with their evidence, clock stability under load, and one block per GPU for its
//! charts. Built from the `TelemetryAudit` alone; the PDF template and the Markdown exporter
//! print the same strings.

use serde::Serialize;

use super::document::{utc_date, utc_time};
use super::format::significant;
use super::i18n::{Lang, fill, tr};
use credence_analyze::telemetry_audit::episodes::{Basis, ThrottleEpisode};
use credence_analyze::telemetry_audit::load::{LoadState, load_rule_message};
use credence_messages::{Message, Sep};
use credence_analyze::telemetry_audit::stability::{ClockStability, STABLE_CV, STABLE_SHARE_FALLEN};
use credence_analyze::telemetry_audit::{TelemetryAudit, short_gpu};

#[derive(Debug, Clone, Serialize)]
pub struct TelemetryView {
    pub summary: String,
    pub load_rule: String,
    /// How episodes were found, or that there were none.
    pub episodes_note: String,
    /// GPU, what, from–to (UTC), seconds from the first sample, duration, evidence.
    pub episodes: Vec<[String; 6]>,
    /// GPU, why it was set aside.
    pub set_aside: Vec<[String; 2]>,
    pub stability_note: String,
    /// GPU, loaded time, SM clock median (range), CV, below the highest clock, below 90 % of it, verdict.
    pub stability: Vec<[String; 7]>,
    pub gpus: Vec<TelemetryGpuView>,
    pub unreadable: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct TelemetryGpuView {
    pub title: String,
    pub state: String,
    pub captured: String,
    /// Chart names; filled in by the PDF exporter from the charts it drew.
    pub charts: Vec<String>,
}

/// "1 throttle", "2 throttles".
fn count(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

fn pct(x: f64) -> String {
    format!("{:.1} %", x * 100.0)
}

fn basis(b: Basis, lang: Lang) -> String {
    tr(
        lang,
        match b {
            Basis::ReasonBits => "telemetry.basis.reason_bits",
            Basis::PowerAtLimit => "telemetry.basis.power_at_limit",
            Basis::ClockOnly => "telemetry.basis.clock_only",
        },
    )
}

/// The episode's numbers in one line, units spelled out, in the report's language.
fn evidence(e: &ThrottleEpisode, lang: Lang) -> String {
    let v = |k: &str| e.evidence.get(k).copied();
    let mut parts = Vec::new();
    if let (Some(med), Some(min), Some(r)) = (v("sm_clock_median_mhz"), v("sm_clock_min_mhz"), v("sm_clock_reference_mhz")) {
        let (med_s, min_s, r_s, change) = (format!("{med:.0}"), format!("{min:.0}"), format!("{r:.0}"), format!("{:+.1}", (med / r - 1.0) * 100.0));
        parts.push(fill(lang, "telemetry.evidence.clock", &[("median", &med_s), ("min", &min_s), ("highest", &r_s), ("change", &change)]));
    }
    match (v("power_max_w"), v("power_limit_w"), v("power_share_of_limit_max")) {
        (Some(p), Some(l), Some(s)) => {
            parts.push(fill(lang, "telemetry.evidence.power", &[("max", &significant(p, 3)), ("limit", &significant(l, 3)), ("share", &pct(s))]))
        }
        (Some(p), _, _) => parts.push(fill(lang, "telemetry.evidence.power_no_limit", &[("max", &significant(p, 3))])),
        _ => {}
    }
    if let Some(t) = v("temp_max_c") {
        parts.push(fill(lang, "telemetry.evidence.temp", &[("max", &format!("{t:.0}"))]));
    }
    if let Some(u) = v("util_mean_pct") {
        parts.push(fill(lang, "telemetry.evidence.util", &[("mean", &format!("{u:.0}"))]));
    }
    parts.push(
        e.reason_bits.as_ref().map_or_else(|| tr(lang, "telemetry.evidence.no_bits").to_string(), |b| fill(lang, "telemetry.evidence.bits", &[("bits", b)])),
    );
    parts.join(&tr(lang, "telemetry.sep"))
}

/// "12.0 s (12 samples)" in the report's language.
fn seconds_of_samples(seconds: String, samples: usize, lang: Lang) -> String {
    fill(lang, "telemetry.seconds_of_samples", &[("seconds", &seconds), ("samples", &samples.to_string())])
}

/// One episode's row; `label` names its reason in the report's language.
pub(crate) fn episode_row(t: &TelemetryAudit, e: &ThrottleEpisode, label: &str, lang: Lang) -> [String; 6] {
    let date = if utc_date(e.start_ns) == utc_date(t.t0_ns) { String::new() } else { format!("{} ", utc_date(e.start_ns)) };
    let fault = if e.fault { tr(lang, "telemetry.episode.a_throttle") } else { String::new() };
    [
        short_gpu(&e.gpu).to_string(),
        fill(lang, "telemetry.episode.what", &[("label", label), ("fault", &fault), ("basis", &basis(e.basis, lang))]),
        format!("{date}{}–{} UTC", utc_time(e.start_ns), utc_time(e.end_ns)),
        format!("{:.1}–{:.1} s", e.start_s, e.end_s),
        seconds_of_samples(format!("{:.1}", e.duration_s), e.samples, lang),
        evidence(e, lang),
    ]
}

/// One GPU's clock stability row; `note` says why its data are insufficient, when they are.
pub(crate) fn stability_row(gpu: &str, s: &ClockStability, note: &str, lang: Lang) -> [String; 7] {
    let na = || tr(lang, "telemetry.not_available").to_string();
    let mhz = |x: Option<f64>| x.map_or_else(na, |v| format!("{v:.0}"));
    let share = |x: Option<f64>| x.map_or_else(na, pct);
    let verdict = match s.stable {
        Some(true) => tr(lang, "telemetry.stability.stable").to_string(),
        Some(false) => tr(lang, "telemetry.stability.unstable").to_string(),
        None => fill(lang, "telemetry.stability.insufficient", &[("note", note)]),
    };
    let clock = fill(
        lang,
        "telemetry.stability.clock",
        &[("median", &mhz(s.sm_clock_median_mhz)), ("min", &mhz(s.sm_clock_min_mhz)), ("max", &mhz(s.sm_clock_max_observed_mhz))],
    );
    [
        short_gpu(gpu).to_string(),
        seconds_of_samples(format!("{:.0}", s.loaded_s), s.loaded_samples, lang),
        clock,
        share(s.sm_clock_cv),
        share(s.share_below_max_observed),
        share(s.share_below_90pct_of_max_observed),
        verdict,
    ]
}

/// The view of a telemetry-only audit, in `lang`.
pub fn telemetry_view(t: &TelemetryAudit, lang: Lang) -> TelemetryView {
    let loaded = t.gpus_in(LoadState::Loaded).count();
    let case = match (t.episodes.is_empty(), loaded, t.reasons_captured()) {
        (_, 0, _) => "none-loaded",
        (true, _, _) if !t.episodes_looked_for() => "not-looked",
        (true, _, true) => "none-with-bits",
        (true, _, false) => "none-without-bits",
        (false, _, _) => "found",
    };
    let stability_note = Message::new("telemetry-stability-note").num("cv", STABLE_CV * 100.0, 0).num("fallen", STABLE_SHARE_FALLEN * 100.0, 0);
    TelemetryView {
        summary: summary(t).render(lang),
        load_rule: load_rule_message().render(lang),
        episodes_note: Message::new("telemetry-episodes-note").text("case", case).render(lang),
        episodes: t.episodes.iter().map(|e| episode_row(t, e, &e.reason.message().render(lang), lang)).collect(),
        set_aside: t
            .gpus
            .iter()
            .filter(|g| g.load.state != LoadState::Loaded)
            .map(|g| [short_gpu(&g.gpu).to_string(), g.load.reason_message.render(lang)])
            .collect(),
        stability_note: stability_note.render(lang),
        stability: t.gpus.iter().filter_map(|g| g.stability.as_ref().map(|s| stability_row(&g.gpu, s, &s.note_message.render(lang), lang))).collect(),
        gpus: t.gpus.iter().map(|g| gpu_block(g, lang)).collect(),
        unreadable: unreadable(t, lang),
    }
}

fn summary(t: &TelemetryAudit) -> Message {
    Message::new("telemetry-summary")
        .text("source", &t.source)
        .int("samples", t.samples)
        .int("gpus", t.gpus.len())
        .num("seconds", t.duration_s, 0)
        .text("date", utc_date(t.t0_ns))
        .text("time", utc_time(t.t0_ns))
}

fn gpu_block(g: &credence_analyze::telemetry_audit::GpuAudit, lang: Lang) -> TelemetryGpuView {
    let state = match g.load.state {
        LoadState::Loaded => "loaded",
        LoadState::Idle => "idle",
        LoadState::Unknown => "unknown",
    };
    let fields = g.captured.iter().map(|f| Message::new("as-written").text("text", *f)).collect();
    TelemetryGpuView {
        title: g.gpu.clone(),
        state: Message::new("telemetry-gpu-state").text("state", state).msg("reason", g.load.reason_message.clone()).render(lang),
        captured: Message::new("telemetry-captured").int("samples", g.samples).num("interval", g.interval_s, 3).list("fields", fields, Sep::Enumeration).render(lang),
        charts: Vec::new(),
    }
}

fn unreadable(t: &TelemetryAudit, lang: Lang) -> String {
    if t.unreadable.is_empty() {
        return String::new();
    }
    let items = t.unreadable.iter().map(|u| Message::new("telemetry-unreadable-item").text("field", &u.field).int("samples", u.samples)).collect();
    Message::new("telemetry-unreadable").list("items", items, Sep::Comma).render(lang)
}

/// The first page's headline rows, in the report's language.
pub fn headline(t: &TelemetryAudit, lang: Lang) -> Vec<[String; 2]> {
    let loaded = t.gpus_in(LoadState::Loaded).count();
    let faults = t.episodes.iter().filter(|e| e.fault).count();
    let stability: Vec<String> = t
        .gpus_in(LoadState::Loaded)
        .filter_map(|g| {
            let s = g.stability.as_ref()?;
            let (median, cv) = (format!("{:.0}", s.sm_clock_median_mhz?), s.sm_clock_cv.map_or_else(|| tr(lang, "telemetry.not_available").to_string(), pct));
            Some(fill(lang, "telemetry.headline.clock_of_gpu", &[("gpu", short_gpu(&g.gpu)), ("median", &median), ("cv", &cv)]))
        })
        .collect();
    let (date, time) = (utc_date(t.t0_ns), utc_time(t.t0_ns));
    let capture = fill(lang, "telemetry.headline.capture_value", &[("seconds", &format!("{:.0}", t.duration_s)), ("date", &date), ("time", &time)]);
    let (n, aside) = (t.gpus.len().to_string(), (t.gpus.len() - loaded).to_string());
    let gpus = fill(lang, "telemetry.headline.gpus_value", &[("n", &n), ("loaded", &loaded.to_string()), ("aside", &aside)]);
    // English counts its throttles with the noun ("1 throttle", "2 throttles"); Chinese needs no plural.
    let throttles = if lang == Lang::En { count(faults, "throttle") } else { faults.to_string() };
    let (episodes, others) = (t.episodes.len().to_string(), (t.episodes.len() - faults).to_string());
    let episodes = fill(lang, "telemetry.headline.episodes_value", &[("n", &episodes), ("throttles", &throttles), ("others", &others)]);
    let clock = if stability.is_empty() { tr(lang, "telemetry.headline.no_gpu_under_load").to_string() } else { stability.join(&tr(lang, "telemetry.sep")) };
    vec![
        [tr(lang, "telemetry.headline.capture").into(), capture],
        [tr(lang, "telemetry.headline.gpus").into(), gpus],
        [tr(lang, "telemetry.headline.episodes").into(), episodes],
        [tr(lang, "telemetry.headline.clock").into(), clock],
    ]
}

/// How the telemetry audit defines its terms, in `lang`.
pub fn methodology(lang: Lang) -> Vec<[String; 2]> {
    let say = |id: &str| Message::new(id).render(lang);
    let row = |id: &str| [say(id), say(&format!("{id}-text"))];
    vec![
        [say("telemetry-method-load"), load_rule_message().render(lang)],
        row("telemetry-method-episodes"),
        row("telemetry-method-stability"),
        row("telemetry-method-times"),
        row("telemetry-method-unchecked"),
    ]
}
