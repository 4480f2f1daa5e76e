## `credence history`: the headline (the verdict that sets the exit code) and the words of the
## Markdown and the PDF. `metric` is a metric's name as a reader says it (`P50 TTFT`); the
## tables keep its identifier (`ttft_p50`).

history-headline = { $parts }.
history-no-runs = No runs: nothing to judge.
history-regressions = Regression in the newest segment: { $items }
history-drifts = { $first ->
        [yes] Drift
       *[no] drift
    } worse beyond tolerance: { $items }
history-beyond = { $what } beyond ±{ $tolerance } %
history-change = { $metric } { $size } since run #{ $index } ({ $run }), { $before } → { $after }
history-size = { $estimate } % [{ $low } %, { $high } %]
history-size-unknown = size n/a
history-level = { $value } { $unit ->
        [tokens_per_s] tokens/s
        [requests_per_s] requests/s
        [percent] %
       *[ms] ms
    }
history-drift = { $metric } { $total } % over { $runs } runs ({ $slope } % per run)
history-quiet-none = No regression in the newest segment and no drift beyond tolerance: no change point in { $runs } runs of { $metrics } { $metrics ->
        [one] metric
       *[other] metrics
    }
history-quiet-changes = No regression in the newest segment and no drift beyond tolerance: newest change { $changes }{ $without ->
        [0] {""}
        [one] ; { $without } other metric without a change point in { $runs } runs
       *[other] ; { $without } other metrics without a change point in { $runs } runs
    }
history-change-verdict = { $change } ({ $verdict })
history-verdict = { $verdict ->
        [regression] regression
        [improvement] improvement
        [equivalent] within tolerance
       *[inconclusive] inconclusive
    }
history-exit = exit { $code } (--fail-on { $asked })

## The document's words (Markdown and PDF).
history-title = credence history
history-subtitle = { $runs } runs, { $configs } { $configs ->
        [one] configuration
       *[other] configurations
    }
history-intro = { $runs } runs, { $configs } { $configs ->
        [one] configuration
       *[other] configurations
    }, ordered by { $order ->
        [time] start time
       *[given] the order given
    }. Change points: E-divisive means with a permutation test (significance level { $significance }, { $permutations } permutations, seed { $seed }, at least { $min_runs } runs per segment); drift: Mann–Kendall (Hamed–Rao) with Sen's slope, worse or better only beyond the runs' noise. A run enters a metric's series when its estimate has an interval, whatever its grade (LOW runs are marked ⚠); an estimate without an interval (marked †) is shown but defines no change point.
history-method = Change points: E-divisive means with a permutation test (significance level { $significance }, { $permutations } permutations, seed { $seed }, at least { $min_runs } runs per segment), searched on the log of each run's estimate. Size: hierarchical bootstrap of the segments' runs ({ $resamples } resamples, 95 %). Drift: Mann–Kendall (Hamed–Rao) and Sen's slope, worse or better only beyond the runs' noise. A run enters a metric's series when its estimate has an interval, whatever its grade; LOW runs are grey (and marked ⚠ in the table); estimates without an interval (hollow, † in the table) define no change point. Shaded: a configuration after a break.
history-newest-label = Newest run
history-newest-quiet = no metric's newest segment is a regression against the one before it.
history-newest-regression = regression
history-newest-items = in { $items }.
history-since = { $metric } { $change } since run #{ $index }
history-h-trends = Trends
history-h-change-points = Change points
history-h-drift = Drift
history-h-breaks = Configuration breaks
history-h-configurations = Configurations
history-h-runs = Runs
history-no-change-points = None: every series holds only noise at this significance level.
history-no-drift = No significant drift{ $few ->
        [0] {""}
       *[other] { " " }({ $few } series had too few runs with an interval to test)
    }.
history-breaks-note = A new configuration starts a new series; the step is not judged.
history-runs-note = The newest { $shown } runs; { $older } older runs are in the JSON.
history-col-metric = metric
history-col-index = #
history-col-from-run = from run
history-col-before = before
history-col-after = after
history-col-change = change (95 % CI)
history-col-tolerance = tolerance
history-col-verdict = verdict
history-col-p = p
history-col-configuration = configuration
history-col-runs = runs
history-col-slope = slope
history-col-over-series = over the series
history-col-noise = noise
history-col-direction = direction
history-col-p-mk = p (Mann–Kendall)
history-col-from = from
history-col-to = to
history-col-fingerprint = fingerprint
history-col-run = run
history-col-start = start
history-col-config = config
history-col-grade = grade
history-col-from-index = from #
history-col-to-index = to #
history-runs-count = { $value } ({ $runs } runs)
history-per-run = { $slope } % per run
history-within-segments = { $slope } (within segments)
history-direction = { $direction ->
        [worse] worse
        [better] better
        [within_noise] within noise
       *[other] {""}
    }
history-table-verdict = { $verdict ->
        [regression] REGRESSION
        [improvement] improvement
        [equivalent] within tolerance
       *[inconclusive] inconclusive
    }
history-unknown = unknown
history-na = n/a
history-chart-caption = { $metric }: each run's estimate and 95 % interval
history-chart-x = run (position in the series)
history-footer = credence { $version } · history
history-newest-run = { $run } (#{ $index }):{ " " }
