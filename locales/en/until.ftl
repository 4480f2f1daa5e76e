## `bench --until`: how the run ended, on page 1 (`run.stop` in the analysis).
until-stopped = stopped at { $at } s{ $warmup }: { $reason ->
        [targets_met] every goal reached
        [error_rate] the error rate passed its limit
        [client_saturated] the load generator fell behind its schedule
        [no_steady_state] no steady state within the time limit
        [unreachable] a goal was out of reach within the time limit
        [interrupted] interrupted
       *[max_duration] the time limit came first
    }; { $targets }
until-warmup = {" "}after { $warmup } s of warmup
until-target = { $metric } ±{ $width } % (goal { $goal } %)
until-target-open = { $metric } unbounded (goal { $goal } %)
