//! The plain-text table `credence plan` prints, in the language asked for.

use std::fmt::Write;

use credence_analyze::plan::{Design, Plan};
use credence_messages::{Lang, Message, metric_label};

use crate::terminal::{left, right};

/// Seconds as `45 s`, `12 min` or `3.5 h` (`plan-span`: Chinese says 分钟 and 小时).
fn span(s: f64, lang: Lang) -> String {
    let (unit, n) = if s < 120.0 {
        ("s", format!("{s:.0}"))
    } else if s < 7200.0 {
        ("min", format!("{:.0}", s / 60.0))
    } else {
        ("h", format!("{:.1}", s / 3600.0))
    };
    Message::new("plan-span").text("unit", unit).text("n", n).render(lang)
}

/// A row of the designs table: a marker, then five right-aligned cells.
fn row(marker: &str, cells: [&str; 5]) -> String {
    format!("{marker} {} {} {} {} {}", right(cells[0], 14), right(cells[1], 10), right(cells[2], 14), right(cells[3], 7), right(cells[4], 10))
}

fn design_row(d: &Design, recommended: bool, lang: Lang) -> String {
    let power = format!("{:.0} %", d.power * 100.0);
    let (runs, duration, requests, cost) = (d.runs_per_arm.to_string(), span(d.duration_s, lang), d.requests_per_run.to_string(), span(d.cost_s, lang));
    row(if recommended { "*" } else { " " }, [&runs, &duration, &requests, &power, &cost])
}

pub fn summary(p: &Plan, lang: Lang) -> String {
    let say = |m: Message| m.render(lang);
    let column = |c: &str| say(Message::new("plan-column").text("column", c));
    let mut s = String::new();
    let o = &p.options;
    let _ = writeln!(
        s,
        "{}",
        say(Message::new("plan-title").num("effect", o.effect * 100.0, 1).num("tolerance", o.tolerance * 100.0, 1).num("power", o.power * 100.0, 0))
    );
    let pi = &p.pilot;
    let pilot = Message::new("plan-pilot")
        .int("runs", pi.runs)
        .int("requests", pi.steady_requests)
        .num("rate", pi.requests_per_s, 1)
        .num("steady", pi.steady_s_per_run, 0)
        .num("warmup", pi.warmup_s_per_run, 0);
    let _ = writeln!(s, "{}", say(pilot));
    let _ = writeln!(s, "\n{} {} {}", left(&column("metric"), 22), right(&column("within"), 18), right(&column("between"), 18));
    for (name, m) in &p.metrics {
        let basis = say(Message::new("plan-basis").text("basis", m.between_run));
        let (within, between) = (format!("{:.2} %", m.within_run_cv * 100.0), format!("{:.2} %", m.between_run_cv * 100.0));
        let _ = writeln!(s, "{} {} {} {basis}", left(&say(metric_label(name)), 22), right(&within, 18), right(&between, 18));
    }
    let _ = writeln!(s);
    match &p.cannot_tell_message {
        Some(why) => {
            let _ = writeln!(s, "{}", say(why.clone()));
        }
        None => {
            let basis = p.designs.first().map_or("measured", |d| d.between_run);
            let _ = writeln!(s, "{}", say(Message::new("plan-designs").text("basis", basis)));
            let _ = writeln!(s, "{}", row(" ", [&column("runs"), &column("run"), &column("requests"), &column("power"), &column("cost")]));
            for (i, d) in p.designs.iter().enumerate() {
                let _ = writeln!(s, "{}", design_row(d, i == 0, lang));
            }
            let _ = writeln!(s, "{}", say(Message::new("plan-recommended").text("cost", span(o.cost_per_run_s, lang))));
        }
    }
    let _ = writeln!(s, "\n{}", say(Message::new("plan-assumptions")));
    for a in &p.assumption_messages {
        let _ = writeln!(s, "  - {}", say(a.clone()));
    }
    s
}
