//! The staged rule's plan, the episodes it remembers and the window it estimates over.

use super::*;

fn options() -> UntilOptions {
    UntilOptions {
        targets: spec::parse("ttft_p50=3%").unwrap(),
        min_duration_s: 60.0,
        max_duration_s: 1800.0,
        max_error_rate: None,
        warmup_s: None,
        rule: Rule::Staged,
        seed: 1,
    }
}

/// A look after `measured_s` of steady data whose one target projects `needed_s`.
fn look(measured_s: f64, needed_s: f64) -> Look {
    let target = TargetState {
        key: "ttft_p50".into(),
        goal: 0.03,
        estimate: Some(20.0),
        low: None,
        high: None,
        half_width: Some(0.05),
        met: false,
        violated: false,
        threshold_ms: None,
        needed_s: Some(needed_s),
    };
    Look {
        t_s: measured_s,
        phase: Phase::Measuring,
        warmup_end_s: Some(0.0),
        measured_s,
        excluded: Vec::new(),
        requests: 0,
        errors: 0,
        targets: vec![target],
        eta_s: None,
        stop: None,
    }
}

#[test]
fn a_far_projection_only_plans_again_halfway_on_the_log_scale() {
    let m = Monitor::new(options());
    // From 100 s, a projection of 1600 s (2000 s with the margin) is more than twice the data.
    let p = m.next_plan(&look(100.0, 1600.0)).unwrap();
    assert!(!p.decides);
    assert!((p.at_s - (100.0f64 * 1600.0 * MARGIN).sqrt()).abs() < 1e-9, "{p:?}");
}

#[test]
fn a_near_projection_decides_there_with_the_margin() {
    let m = Monitor::new(options());
    let p = m.next_plan(&look(300.0, 400.0)).unwrap();
    assert!(p.decides);
    assert!((p.at_s - 400.0 * MARGIN).abs() < 1e-9, "{p:?}");
    // A projection already behind the data moves the decision on by at least MIN_STEP.
    let p = m.next_plan(&look(500.0, 100.0)).unwrap();
    assert!(p.decides && (p.at_s - 500.0 * MIN_STEP).abs() < 1e-9, "{p:?}");
}

#[test]
fn a_target_without_a_width_cannot_plan() {
    let m = Monitor::new(options());
    let mut l = look(300.0, 400.0);
    l.targets[0].needed_s = None;
    assert!(m.next_plan(&l).is_none());
}

#[test]
fn only_a_planned_deciding_point_or_the_time_limit_may_stop_the_staged_rule() {
    let mut m = Monitor::new(options());
    let l = look(300.0, 400.0);
    assert!(!m.deciding(&l, 300.0), "no plan yet");
    m.plan = Some(Plan { at_s: 290.0, decides: false });
    assert!(!m.deciding(&l, 300.0), "a point that only plans");
    m.plan = Some(Plan { at_s: 290.0, decides: true });
    assert!(m.deciding(&l, 300.0));
    assert!(!m.deciding(&l, 30.0), "never before --min-duration");
    m.plan = Some(Plan { at_s: 900.0, decides: true });
    assert!(!m.deciding(&l, 300.0));
    assert!(m.deciding(&l, 1800.0), "--max-duration is a fixed point");
}

/// The edges issue's fourth case: a goal hundreds of times out of reach ran to half the bound.
/// After the pilot, a projection beyond `FAR_OUT_OF_REACH` times the data the bound leaves
/// stops the run at once, as unreachable; one within that factor (which may yet narrow) does
/// not, and neither ever reports a goal met.
#[test]
fn a_goal_far_out_of_reach_stops_at_the_first_projection() {
    let mut m = Monitor::new(options());
    // 1800 s bound, warmup ended at 0: 1800 s left. 25 × out of reach after a 100-s pilot.
    let far = look(100.0, 25.0 * 1800.0);
    assert_eq!(m.decide(&far, 100.0, false), Some(StopReason::Unreachable { key: "ttft_p50".into(), needed_s: 45_000.0 }));
    let mut m = Monitor::new(options());
    let near = look(100.0, 8.0 * 1800.0);
    assert_eq!(m.decide(&near, 100.0, false), None, "8 × may yet narrow: the run goes on");
    // The bound left is what counts: a warmup that ended late leaves less.
    let mut late = look(100.0, 8.0 * 1800.0);
    late.warmup_end_s = Some(500.0);
    assert!(matches!(Monitor::new(options()).decide(&late, 600.0, false), Some(StopReason::Unreachable { .. })));
}

#[test]
fn an_episode_found_again_grows_and_a_new_one_is_kept_apart() {
    let mut e = Vec::new();
    remember(&mut e, Cause::ThermalThrottle, Span { start_s: 100.0, end_s: 120.0 });
    remember(&mut e, Cause::ThermalThrottle, Span { start_s: 110.0, end_s: 140.0 });
    assert_eq!(e, vec![(Cause::ThermalThrottle, Span { start_s: 100.0, end_s: 140.0 })]);
    remember(&mut e, Cause::ThermalThrottle, Span { start_s: 300.0, end_s: 320.0 });
    remember(&mut e, Cause::PowerCap, Span { start_s: 105.0, end_s: 115.0 });
    assert_eq!(e.len(), 3);
}

#[test]
fn the_window_keeps_what_its_episodes_leave() {
    let excluded = [Span { start_s: 100.0, end_s: 130.0 }, Span { start_s: 200.0, end_s: 400.0 }];
    let w = Window { start_s: 60.0, end_s: 300.0, excluded: &excluded };
    assert_eq!(w.kept(), vec![(60.0, 100.0), (130.0, 200.0)]);
}
