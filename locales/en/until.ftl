## `bench --until`: how the run ended, on page 1 (`run.stop` in the analysis).
until-stopped = stopped at { $at } s{ $warmup }{ $excluded }: { $reason }; { $targets }
## Why the run stopped (`phases.stop.reason`).
until-reason = { $reason ->
        [targets_met] every goal reached
        [decided] every objective decided against its threshold
        [error_rate] the error rate passed its limit
        [client_saturated] the load generator fell behind its schedule
        [overloaded] the server was overloaded: offered more than it completes, its queue grew
        [no_steady_state] no steady state within the time limit
        [unreachable] a goal was out of reach within the time limit
        [interrupted] interrupted
        [workload_end] the workload ran out first (every session done, or the trace's last record sent)
       *[max_duration] the time limit came first
    }
## A replayed trace stopped early (`config.extra.trace_replayed`, and stderr).
until-trace-replayed = the first { $n } of { $total } records (the trace's first { $seconds } s)
until-warmup = {" "}after { $warmup } s of warmup
until-target = { $metric } ±{ $width } % (goal { $goal } %)
until-target-open = { $metric } unbounded (goal { $goal } %)
until-excluded = , { $seconds } s of { $causes } left out

## The live view of `bench --until` (stderr): a head line, one line per target, the client,
## one line per GPU. On a terminal they refresh in place; in a CI log they come joined by " | ".
live-head = until · { $t } s · { $phase } · { $requests } requests, { $errors } errors · { $eta }{ $stopping }
live-phase = { $phase ->
        [warming_up] warming up
        [pilot] steady since { $since } s, pilot
        [measuring] steady since { $since } s
        [unsettled] steady state in doubt at this look
       *[episode] episode: { $causes }, left out
    }
live-eta = ETA { $eta } s
live-eta-unknown = ETA unknown
live-stopping = {" "}· stopping: { $reason }
live-target = { $metric } { $value } { $width } (goal { $goal } %){ $met }
live-threshold = { $metric } { $value } [{ $low }, { $high }] ms against { $threshold } ms: { $verdict ->
        [met] met
        [violated] violated
       *[undecided] undecided yet
    }
live-width = ±{ $width } %
live-width-open = ±?
live-met = {" "}✓
live-client = client: { $rate } · { $in_flight } in flight · P99 send lag { $lag } · CPU { $cpu }{ $behind }
live-rate-open = achieved { $achieved }/s of { $offered }/s offered
live-rate-closed = achieved { $achieved }/s (closed loop)
live-behind = {" "}· BEHIND its schedule
live-gpu = GPU { $index }: SM clock { $clock } · { $temp } · { $power }
live-clock-of = { $clock } of { $max } MHz
live-clock = { $clock } MHz
live-na = n/a

## `bench --repeat`: the series' progress lines.
series-run = series: run { $run } of { $most ->
        [auto] at most { $max }
       *[fixed] { $max }
    }
series-run-unmet = series: run { $run } stopped without meeting its targets ({ $reason }); --repeat auto ends here
series-across = series: across { $runs } runs: { $targets }
until-target-met = { $target }{ $met }
