## The comparison's sentences (`credence compare`, the comparison report).

## On P50 TTFT, when episodes were excluded: the clean change beside the measured one.
clean-compare = P50 TTFT { $clean } [{ $clean_lo }, { $clean_hi }] in clean conditions ({ $clean_verdict }); { $measured } [{ $measured_lo }, { $measured_hi }] as measured ({ $measured_verdict }) ({ $arms })
clean-compare-arm = { $arm ->
        [base] the base
       *[cand] the candidate
    } was affected by { $causes } for { $share } % of its window
verdict-word = { $verdict ->
        [regression] regression
        [improvement] improvement
        [equivalent] equivalent
       *[inconclusive] inconclusive
    }

## A metric as a reader says it: `P50 TTFT`, `output tokens/s`.
metric-label = { $metric ->
        [output_tokens_per_s] output tokens/s
        [requests_per_s] requests/s
        [error_rate] error rate
       *[other] { $metric }
    }
metric-percentile = { $percentile } { $family ->
        [ttft] TTFT
        [tpot] TPOT
        [e2e] E2E
        [itl] ITL
        [service] E2E from scheduled
       *[other] { $family }
    }
metric-unit = { $unit ->
        [tokens_per_s] tokens/s
        [requests_per_s] requests/s
        [percent] %
       *[ms] ms
    }
status = { $status ->
        [PASS] PASS
        [WARN] WARN
        [FAIL] FAIL
       *[NOT_CHECKED] NOT_CHECKED
    }
empty = {""}

## The headline: its parts (validity, the deciding verdicts, the other condition's, why one
## decides, the credibility) in one sentence.
compare-headline = { $parts }.
compare-invalid = Invalid comparison ({ $gates })
compare-gate-failed = { $gate } FAIL
compare-a-gate-failed = a validity gate failed
compare-changes = { $verdict ->
        [regression] { $n ->
            [one] Regression
           *[other] Regressions
        }
       *[improvement] { $n ->
            [one] Improvement
           *[other] Improvements
        }
    }{ $lead }: { $changes }
compare-lead = { $condition ->
        [clean] {" "}in clean conditions
        [measured] {" "}as measured
       *[none] {""}
    }
compare-decided = { $metric } { $change } beyond { $tolerance } ({ $base } → { $cand } { $unit })
compare-others = { $equivalent } { $equivalent ->
        [one] metric
       *[other] metrics
    } equivalent, { $inconclusive } inconclusive
compare-none-beyond = { $lower ->
        [yes] no
       *[no] No
    } regression or improvement beyond tolerance{ $lead }: { $others }
compare-other-decided = { $condition ->
        [clean] in clean conditions
       *[measured] as measured
    }: { $changes }
compare-other-change = { $verdict } { $change }
compare-other-counted = { $condition ->
        [clean] in clean conditions
       *[measured] as measured
    } { $equivalent ->
        [0] inconclusive
       *[other] { $inconclusive ->
            [0] equivalent
           *[other] { $equivalent } equivalent, { $inconclusive } inconclusive
        }
    }
compare-why = { $why ->
        [alike] both arms spent about the same share of their windows in episodes (base { $base } %, candidate { $cand } %), so the clean verdict decides
       *[differ] episodes took { $cand } % of the candidate's window and { $base } % of the base's: the switch may have caused them, so the as-measured verdict decides
    }
compare-credibility = credibility { $grade } ({ $note })
compare-runs = { $single ->
        [yes] single runs
       *[no] { $base } base and { $cand } candidate runs
    }
compare-runs-failed = { $runs }; failed: { $checks }
compare-arm-check = { $arm ->
        [base] base
       *[cand] candidate
    } { $check }

## The top part under the headline: the verdict table's header and note, the gates in one
## line, the comparison's credibility and one line per arm.
compare-column = { $column ->
        [metric] metric
        [base] base [95 % CI]
        [cand] candidate [95 % CI]
        [change] change [95 % CI]
        [tolerance] tolerance
       *[verdict] verdict
    }
compare-table-note = Base and candidate: each arm's statistic with its 95 % interval, from the same variance model as the change ({ $method }: within-run block bootstrap of { $resamples } resamples, seed { $seed }; Wilson for the error rate). Tolerance τ: the one asked for (the spread of the runs is in the interval, never in τ). Verdict: regression or improvement when the 95 % interval lies beyond ±τ; equivalent when the 90 % interval lies within it; inconclusive otherwise.
compare-by-adapter-note = Each adapter's median in each run enters by its own 95 % interval ({ $method }, seed { $seed }); the verdict against the same tolerance as the whole arms.
compare-by-adapter-no-interval = no interval (too few of its requests in a run)
compare-gates = Validity gates: { $tally }{ $details }.
compare-gates-details = {" "}({ $items })
compare-gate-count = { $n } { $status }
compare-gate-detail = { $gate } { $status }: { $reason }
compare-no-gates = none
compare-summary = The comparison is as credible as its weaker arm: { $grade }. { $passed } of { $gates } validity gates pass. { $replication } { $changed }
compare-replication = { $single ->
        [yes] One run per arm: run-to-run noise is unmeasured, so the environment alone could move a metric this much; repeat each arm at least 3 times.
       *[no] { $base } base and { $cand } candidate runs: run-to-run noise is measured and part of every interval.
    }
compare-changed = { $n ->
        [0] The manifests do not differ.
        [1] Between the manifests only { $key } changed: { $base } → { $cand }.
       *[other] Between the manifests { $n } fields changed: { $keys }.
    }
compare-arm = { $arm ->
        [base] Base
       *[cand] Candidate
    } ({ $runs }): { $grade }; { $passed } of { $checks } checks pass{ $statuses }.
compare-arm-statuses = ; { $items }
compare-arm-status = { $status }: { $names }

## The details: runs and method, and what more data would decide each inconclusive metric.
compare-details = { $valid ->
        [no] INVALID COMPARISON.{" "}
       *[yes] {""}
    }Base: { $base }. Candidate: { $cand }. { $replication }. Method: { $method } with { $resamples } resamples, seed { $seed }.
compare-replication-short = { $single ->
        [yes] single-run: cannot separate the configuration effect from run-to-run noise
       *[no] { $base } base and { $cand } candidate runs
    }
compare-too-few-groups = { $metrics }: inconclusive, a run's steady window holds { $groups } resampling { $groups ->
        [one] group
       *[other] groups
    } and at least { $min } are needed to measure how dependent its requests are
compare-not-compared = { $metric }: not compared: in a run it lies beyond the timeouts (a lower bound, not a number), so no change can be computed
compare-note = { $metric }: to decide, { $advice }
advice = { $kind ->
        [runs-or-longer] { $runs } runs per arm, or about { $factor }x more requests per run ({ $source })
        [runs-dominated] { $runs } runs per arm; { $dominates }
        [runs] { $runs } runs per arm ({ $source })
        [longer] about { $factor }x more requests per run ({ $source })
        [pooled] about { $factor }x more requests per arm, in any number of runs ({ $source })
       *[cannot-tell] these runs cannot tell how much more data would decide (more than { $max }x today's by this estimate; { $source }): run at least { $pilot } requests per arm, then `credence plan`
    }
advice-source = { $basis ->
        [measured] run-to-run CV { $cv } % measured
        [assumed] if runs differ by the assumed { $cv } %: one run per arm cannot measure it
       *[pooled] the error rate pools requests over runs
    }
advice-dominates = { $basis ->
        [measured] longer runs cannot reach it because the measured run-to-run noise (CV { $cv } %) dominates
       *[assumed] if runs differ by the assumed { $cv } % (one run per arm cannot measure it), longer single runs cannot reach it
    }

## The validity gates' reasons.
gate-lengths = two-sample KS: D = { $d } (limit { $limit }), p = { $p }
gate-no-token-counts = no token counts
gate-arrival = base { $base }; candidate { $cand }
load = { $arrival }{ $rate }{ $concurrency }, { $streaming ->
        [yes] streaming
        [no] not streaming
       *[unknown] streaming unknown
    }
load-rate = {" "}at { $rate } requests/s
load-concurrency = , concurrency { $n }
gate-manifests-same = the manifests do not differ: nothing records what the switch was
gate-one-switch = one switch: { $key }
gate-many-switches = { $n } things differ; the effect cannot be pinned on one switch: { $keys }
gate-steady = { $class }
gate-left-out = { $class }: left out of its arm, which keeps enough runs to compare
steady-class = { $class ->
        [Flat] Flat
        [Warmup] Warmup
        [Slowdown] Slowdown
       *[NoSteadyState] NoSteadyState
    }
gate-replicated = { $base } and { $cand } runs per arm
gate-cache-state = prefix-cache hit rate: base { $base } %, candidate { $cand } %{ $differ ->
        [yes] : the comparison measures the cache as well as the switch (give both arms --reset-prefix-cache, or warm both alike)
       *[no] : alike within their noise
    }
gate-cache-one-arm = only one arm reports its prefix-cache hits: the cache state cannot be compared
gate-single-run = single-run: cannot separate the configuration effect from run-to-run noise
gate-one-arm-single = the { $arm ->
        [base] base
       *[cand] candidate
    } arm has a single run: run-to-run noise is measured on the other arm's { $runs } runs only
gate-drift = bracketing base runs differ by { $percent } % in P50 TTFT
gate-run-spread = runs of one arm differ by up to { $spread } % in P50 TTFT; the arms differ by { $change } %{ $as_much ->
        [yes] : the runs of one configuration differ as much as the configurations do
       *[no] {""}
    }
manifest-absent = (absent)

## A validity gate's name in running text (`$gate` is its name with "." as "-", or
## `steady_state` with `$run` the run's name): as written.
gate-name = { $gate ->
        [steady_state] steady_state.{ $run }
       *[other] { $name }
    }

## The plain text `credence compare` and `credence baseline check` print, beyond the view's
## sentences: the section titles and the clean-window lines.
text-clean-title = on clean windows (excluded { $base_s } s of the base, { $base_share } % of its window; { $cand_s } s of the candidate, { $cand_share } %):
text-gate-line = [{ $status }] { $gate }: { $reason }
text-what-changed = what changed:
text-by-adapter = by adapter:
text-environment = measured environment (context, not a switch):
text-credibility = credibility { $grade }: { $summary }
text-baseline-drift = warning: these runs have the baseline's configuration, yet { $metrics } changed beyond the tolerance: the baseline itself has drifted (environment, driver, or hardware).
      hint: find the cause; if the new level is the truth, save a new baseline
