## The report's words beside the sentences of the analysis: ids are `<group>-<name>`,
## and the view looks a word up by `<group>.<name>`. Arguments are filled in as written.

## The charts' titles, axes and legends.
chart-achieved_axis = achieved requests/s (steady window)
chart-cdf_e2e = E2E CDF
chart-cdf_itl = ITL CDF
chart-cdf_tpot = TPOT CDF
chart-cdf_ttft = TTFT CDF
chart-cdf_y = % of requests
chart-cdf_y_itl = % of intervals
chart-change = change
chart-client_cpu = Load-generator CPU
chart-client_cpu_axis = % of one core
chart-client_lag = Load-generator send lag (P99 per second)
chart-completed = completed req/s
chart-concurrency = Concurrency
chart-concurrency_axis = requests in flight
chart-concurrency_mean = mean in flight
chart-forest = Relative change (candidate / base − 1) with 95 % intervals; grey: ±τ
chart-gpu_clock = GPU SM clock
chart-gpu_memory = GPU memory used
chart-gpu_memory_axis = % of total
chart-gpu_power = GPU power
chart-gpu_temperature = GPU temperature
chart-gpu_utilization = GPU utilization
chart-hist_e2e = E2E histogram
chart-hist_itl = ITL histogram
chart-hist_tpot = TPOT histogram
chart-hist_ttft = TTFT histogram
chart-hist_x = ms, log-spaced bins
chart-hist_x_log = ms, log-spaced bins (log scale)
chart-hist_y = requests
chart-hist_y_itl = intervals
chart-latency_e2e = E2E per window (log scale)
chart-latency_tpot = TPOT per window (log scale)
chart-latency_ttft = TTFT per window (log scale)
chart-limit = limit
chart-maximum = maximum
chart-ms_log = ms (log scale)
chart-offered = scheduled req/s (offered)
chart-power = power
chart-rated_maximum = rated maximum
chart-requests_axis = requests/s
chart-retransmits = TCP retransmits
chart-seconds = seconds from the first send
chart-seconds_sample = seconds from the first sample
chart-sent = sent req/s (achieved)
chart-slowdown = slowdown
chart-sm_clock = SM clock
chart-sweep = Latency against achieved throughput, one point per step
chart-throughput = Throughput, offered and achieved rate
chart-under_load = under-load threshold
chart-utilization = utilization
chart-hottest_thread = { $host } hottest thread
chart-segments_axis = segments/s
chart-of_gpu = { $gpu }: { $what }
chart-temperature = temperature

## The comparison's arms.
cmp-arm_base_title = Base
cmp-arm_cand_title = Candidate

## Conditions: clean windows against episodes.
cond-cause_separator = ;{" "}
cond-cause_windows = { $cause } ({ $windows })
cond-clean_note = { $s } s and { $n } requests ({ $windows }); excluded { $ex } s and { $exn } requests ({ $share } % of the steady window).
cond-clean_title = Clean windows
cond-episode_note = { $s } s and { $n } requests inside the episodes: { $windows }.
cond-excluded = { $ex } s, { $exn } requests ({ $share } % of the steady window): { $causes }
cond-excluded_label = Excluded
cond-headline = P50 { $p50 } ms · P99 { $p99 } ms in clean windows ({ $s } s); as measured P50 { $mp50 } ms · P99 { $mp99 } ms
cond-note = Episodes with an environmental cause, widened by the lag found and one 5-s attribution window on each side, are set apart from the steady window. Intervals come from a block bootstrap over each condition's own time groups. The contrast table gives point ratios; the findings give the effect's interval.
cond-run_title = run { $run }
cond-throughput = throughput
cond-throughput_rps = throughput (requests/s)
cond-windows = { $n } windows

## The methodology appendix.
method-attribution = Robust z-scores of 5-second windows against the steady window's median and MAD find anomalies; telemetry detectors (NVML reason bits and violation counters, power, memory, foreign processes, load-generator CPU and send lag, network counters, server queue) find causes; episodes match within ±2 s.
method-attribution_term = Attribution
method-grade_term = Credibility grade
method-intervals = { $confidence } % confidence. Exact order-statistic intervals for independent requests (at the effective n when mildly dependent); a grouped stationary block bootstrap over { $groups }-second groups when requests are correlated, widened by t/z for few blocks and for the block bootstrap's first-order variance bias; Wilson for error rates. Seed { $seed }, { $resamples } resamples.
method-intervals_term = Intervals
method-itl = Every gap between consecutive streamed chunks; a chunk may carry several tokens.
method-percentiles_term = Percentiles
method-service = End minus the *scheduled* send time: includes the client's own lag, so coordinated omission shows here and not in E2E.
method-steady = PELT ({ $penalty } penalty) on per-window log median TTFT and TPOT with a { $delta } % equivalence delta, cross-checked by MSER-5 and Mann–Kendall/Pettitt inside the window.
method-steady_term = Steady state
method-tpot = (end − first token) / (output tokens − 1).
method-ttft = Time to first token, measured from the actual send (first token minus sent).

## A fixed note of the analysis.
quantile-type7 = Hyndman-Fan type 7 (linear interpolation, numpy default)

## A fixed note of the analysis.
replication-single = single-run: cannot separate the configuration effect from run-to-run noise

## The telemetry audit.
telemetry-basis-clock_only = SM clock only
telemetry-basis-power_at_limit = power at its limit, no reason bits
telemetry-basis-reason_bits = reason bits
telemetry-episode-a_throttle = , a throttle
telemetry-episode-what = { $label }{ $fault } ({ $basis })
telemetry-evidence-bits = reason bits { $bits }
telemetry-evidence-clock = SM clock median { $median } MHz (min { $min }) against { $highest } MHz, the highest under load ({ $change } %)
telemetry-evidence-no_bits = no reason bits captured
telemetry-evidence-power = power max { $max } W of a { $limit } W limit ({ $share })
telemetry-evidence-power_no_limit = power max { $max } W (no limit captured)
telemetry-evidence-temp = temperature max { $max } °C
telemetry-evidence-util = utilization mean { $mean } %
telemetry-headline-capture = Capture
telemetry-headline-capture_value = GPU telemetry only, { $seconds } s from { $date } { $time } UTC; no request records
telemetry-headline-clock = SM clock under load
telemetry-headline-clock_of_gpu = { $gpu }: median { $median } MHz, CV { $cv }
telemetry-headline-episodes = Episodes
telemetry-headline-episodes_value = { $n } under load: { $throttles }, { $others } power-limited or clock-drop
telemetry-headline-gpus = GPUs
telemetry-headline-gpus_value = { $n }: { $loaded } under load, { $aside } set aside
telemetry-headline-no_gpu_under_load = no GPU under load
telemetry-not_available = n/a
telemetry-seconds_of_samples = { $seconds } s ({ $samples } samples)
telemetry-sep = ;{" "}
telemetry-stability-clock = { $median } ({ $min }–{ $max }) MHz
telemetry-stability-insufficient = insufficient data: { $note }
telemetry-stability-stable = stable
telemetry-stability-unstable = unstable

## The templates' headings, column names and fixed words (`tpl.md_` the Markdown's own).
tpl-col_achieved = achieved req/s
tpl-col_base = base
tpl-col_below_90 = below 90 % of highest
tpl-col_below_highest = below highest
tpl-col_bytes = bytes
tpl-col_candidate = candidate
tpl-col_check = check
tpl-col_claim = claim
tpl-col_credence = credence (steady state, 95 %)
tpl-col_credence_whole_run = credence (all requests, 95 %)
tpl-col_definition = definition
tpl-col_duration = duration
tpl-col_errors_pct = errors %
tpl-col_estimate = estimate [95 % interval]
tpl-col_evidence = evidence
tpl-col_fact = fact
tpl-col_file = file
tpl-col_gate = gate
tpl-col_grade = grade
tpl-col_item = item
tpl-col_key = key
tpl-col_loaded = loaded
tpl-col_metric = metric
tpl-col_offered = offered req/s
tpl-col_rate = rate
tpl-col_reason = reason
tpl-col_recomputed = recomputed
tpl-col_run = run
tpl-col_seconds = seconds
tpl-col_sm_clock = SM clock median (min–max)
tpl-col_status = status
tpl-col_term = term
tpl-col_tool = tool
tpl-col_value = value
tpl-col_verdict = verdict
tpl-col_reproduction = verdict
tpl-col_what = what
tpl-col_why = why
tpl-cond_col_cause = cause
tpl-cond_col_inside = inside
tpl-cond_col_inside_outside = inside / outside
tpl-cond_col_metric = metric
tpl-cond_col_outside = outside (clean)
tpl-cond_h_contrast = Inside against outside each episode
tpl-credibility_badge = Credibility:{" "}
tpl-distributions_note = Steady window only. Red lines mark the reported percentiles.
tpl-distributions_note_whole_run = Every request (the source has no timestamps: no steady window). The red lines mark the percentiles reported.
tpl-grade_HIGH = HIGH
tpl-grade_LOW = LOW
tpl-grade_MEDIUM = MEDIUM
tpl-h_appendix = Appendix
tpl-h_audit = Audit of the source's claims
tpl-h_checks = Credibility checks
tpl-h_clock_stability = Clock stability under load
tpl-h_comparison_details = Comparison details
tpl-h_conditions = Conditions,
tpl-h_decide = What would decide the inconclusive metrics
tpl-h_distributions = Distributions
tpl-h_environment = Environment snapshot
tpl-h_environment_changed = Measured environment: context, not a switch
tpl-h_episodes = Episodes
tpl-h_findings = Findings
tpl-h_gates = Validity gates
tpl-h_gpu_telemetry = GPU telemetry
tpl-h_key_metrics = Key metrics
tpl-h_methodology = Methodology
tpl-h_provenance = Provenance
tpl-h_set_aside = GPUs set aside
tpl-h_timelines = Timelines
tpl-h_unexplained = Unexplained anomalies
tpl-h_what_changed = What changed between the manifests
tpl-h_by_adapter = By adapter
tpl-col_adapter = adapter
tpl-md_col_changed = changed
tpl-md_col_environment = measured (not a switch)
tpl-md_details_checks = Checks, { $title }
tpl-md_details_comparison = Comparison details: method, every gate, what would decide, what changed
tpl-md_details_conditions = Conditions of each run
tpl-md_details_metrics = Key metrics of each run
tpl-md_finding = - **{ $title }** (`{ $cause }`, { $strength }): { $episodes }. Effect: { $effect }. Action: { $action }
tpl-md_key_metrics = Key metrics, { $title }
tpl-md_ms_intervals = (ms, 95 % intervals)
tpl-md_unexplained = unexplained:{" "}
tpl-no_cause = No cause was found.
tpl-none_all_loaded = None: every GPU was under load.
tpl-nothing_differs = Nothing differs between the manifests.
tpl-row_action = action
tpl-row_cause = cause
tpl-row_effect = effect
tpl-row_episodes = episodes
tpl-row_evidence = evidence
tpl-row_link = link
tpl-status_FAIL = FAIL
tpl-status_NOT_CHECKED = NOT_CHECKED
tpl-status_PASS = PASS
tpl-status_WARN = WARN
tpl-sweep_note = Each step analyzed on its own steady window; 95 % intervals. (client): the load generator warned that it was near its own limit in that step. The per-step tables and findings follow; timelines and distributions show the highest step.
tpl-under_load = Under load:

## The view's sentences.
view-change_percent = { $peak } %
view-effect = { $metric } inside versus outside: { $change }{ $ci }; n = { $inside } inside, { $outside } outside
view-effect_ci = {" "}[{ $lo }, { $hi }] (95 %, { $method }, seed { $seed }, { $resamples } resamples)
view-effect_none = not measurable
view-errors_cancelled = ; { $n } more cancelled by the load generator, not counted
view-errors_line = { $errors } of { $requests } requests: { $rate } %
view-every_detector = Every detector had its evidence.
view-findings_none = { $ran ->
        [0] No cause can be named: no detector had its evidence, so none could run (see below).
       *[other] No cause was found: the { $ran } detectors with their evidence found nothing; { $lacking } more lacked it and could not run (see below).
    }
view-findings_none_all = Every detector found nothing.
view-from_zero_baseline = above a zero baseline
view-grade_rule = LOW if any check fails; HIGH if there are at least three runs and every check passes; MEDIUM otherwise (a single run is at most MEDIUM)
view-not_available = n/a
view-censored = > { $lo } ({ $share } % timed out or cancelled { $before ->
        [first_token] before their first token
       *[end] before completing
    })
view-insufficient = ~{ $v } (insufficient data)
view-insufficient_bound = ~{ $v } (>= { $lo }, insufficient data)
view-kind_comparison = comparison
view-kind_replicated = replicated runs
view-kind_single = single run
view-kind_sweep = load sweep
view-load_concurrency = concurrency { $n }
view-load_rate = { $arrival } at { $rate } requests/s
view-metric_service = E2E from scheduled
view-metric_ttfot = Time to first output token
view-metrics_note = Estimates with 95 % intervals, in ms, over the steady window. '~x (>= y, insufficient data)' means too few samples for a two-sided interval: only the lower bound y is supported.
view-metrics_note_whole_run = Estimates with 95 % intervals, in ms, over the whole run (no steady window: the source has no timestamps). '~x (>= y, insufficient data)' means too few samples for a two-sided interval: only the lower bound y is supported.
view-named_checks = Named checks
view-no_detector = No cause detector ran: there is no request timeline to attribute.
view-no_interval = no interval
view-no_request_records = no request records
view-not_checked = Not checked (evidence absent): { $items }.
view-prov_error = error ({ $kind }, { $n }x)
view-prov_label = label { $key }
view-prov_source = { $tool } { $tool_version } (run directory format { $format }); source { $kind } { $name }{ $version }
view-source_kind = { $kind ->
        [collector] collector
        [importer] importer
        [simulator] simulator
       *[other] { $kind }
    }
view-prov_version = {" "}version { $v }
view-rate_errors = { $id }: error rate (%)
view-rate_requests = { $id }: requests/s
view-rate_tokens = { $id }: output tokens/s
view-row_errors = Errors
view-row_throughput = Throughput
view-row_tpot = TPOT
view-row_ttfot = Time to first output token
view-row_ttft = TTFT
view-run_prefix = run{" "}
view-strength = { $label }: { $overlap } % of the episode time overlaps a latency, throughput or error anomaly; correlation { $corr }
view-strength_lag = {" "}at lag { $lag } s
view-strength_moderate = moderate
view-strength_strong = strong
view-strength_weak = weak
view-sut_model = model { $model }
view-sut_parallelism = parallelism { $p }
view-sut_unknown = system under test not recorded
view-telemetry_only = GPU telemetry only
view-throughput_line = { $requests } requests/s, { $tokens } output tokens/s
view-timeline_note = Seconds from the first send. Grey: dropped warmup and ramp-down. Red: episodes of the findings.
view-title_benchmark = Benchmark report
view-title_comparison = Comparison report
view-undated = undated
view-unexplained = { $id }: { $series } { $change } from { $start } s to { $end } s (robust z { $z }); no detector found a cause
view-unknown = unknown
view-unknown_note = unknown: { $note }
view-title_audit_of = Audit of { $source }
view-file_as_format = { $file } ({ $format })
view-title_sut = { $what }: { $sut }
view-sut_pair = { $model } on { $engine }
view-load_swept = { $arrival } swept from { $from } to { $to } requests/s
view-load_swept_sessions = {" "}(conversations: { $from } to { $to } sessions/s)
view-parenthesized = { $text } ({ $note })
view-p50_p99_ms = P50 { $p50 } ms · P99 { $p99 } ms
view-episode_of = { $span } ({ $source })
view-row_stopped = Stopped
view-row_slo = SLO
view-row_goodput = Goodput
## One objective of --slo: its percentile against the threshold, decided by the interval.
slo-objective = { $metric } ≤ { $threshold } ms: { $verdict ->
        [met] met
        [violated] violated
       *[undecided] undecided by the interval
    } ({ $estimate } ms)
slo-goodput = { $goodput } requests/s within every objective: { $attainment } % of the requests, failed ones missing{ $limited }
slo-limited = ; { $metric } fails first
view-row_cache = Prefix cache
view-row_turns = TTFT by turn
cache-hit-rate = { $rate } % of prompt tokens served from the cache{ $server }
cache-server = { " " }(server counters over the run: { $rate } %)
cache-turn = turn { $turn }: P50 { $ttft } ms over { $n } requests{ $cached }
cache-turn-cached = , { $rate } % of its prompt cached
view-row_adapters = By adapter
adapter-split = { $adapter }: P50 TTFT { $ttft } ms, P50 TPOT { $tpot } ms over { $n } requests
view-row_prompt_lengths = Prompt lengths
prompt-lengths = { $exact ->
        [exact] exact (built with the tokenizer)
       *[approximate] approximate (built in words: no --tokenizer)
    }: the server counted { $server } tokens for { $intended } built (medians, { $difference } %); { $beyond } % of { $n } requests differ by more than 1 %
view-row_runs = Runs
view-runs_line = { $n } runs; headline numbers below are from the first ({ $first })
view-row_sweep = Sweep
view-step_title = step at { $rate } requests/s (run { $id })
view-sweep_top_step = The sweep's highest step ({ $rate } requests/s).{" "}
view-arm_title = { $arm } arm: { $grade }
view-effect_no_ci = {" "}({ $note })
view-yes = true
view-no = false
