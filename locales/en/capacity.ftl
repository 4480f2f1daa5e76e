## A capacity search (`bench --find-capacity`): its progress lines, its headline (page 1, the
## terminal, the Markdown and HTML) and its table. Loads are offered requests/s or clients.

capacity-unit = { $unit ->
        [concurrency] clients
       *[rate] requests/s
    }
capacity-outcome = { $outcome ->
        [met] within every objective
        [violated] beyond an objective
        [overloaded] overloaded (its queue grew)
       *[undecided] undecided by the intervals
    }
capacity-objective = { $key } { $value } against { $threshold } ms: { $verdict ->
        [met] met
        [violated] violated
       *[undecided] undecided
    }
capacity-step = capacity: step { $step } at { $load } { $unit }: { $outcome }; { $objectives }; bracket [{ $low }, { $high }]
capacity-budget = capacity: the time or step budget ran out before the bracket narrowed to its precision; the interval says how far it got.
## The headline: the capacity with its interval and what limits it, or why there is no number.
capacity-found = Capacity at { $slo }: { $capacity } { $unit }, limited by { $limited }{ $saturation }
capacity-limited = { $limited ->
        [overload] overload (the queue grew before any objective failed)
       *[other] { $metric }
    }
capacity-saturation = ; saturation throughput { $throughput } requests/s
capacity-no-saturation = ; no step overloaded the server (saturation not reached)
capacity-below = Capacity at { $slo }: below the lowest load tried ({ $lowest } { $unit }): the objectives failed there. Lower the starting load, or relax the objectives.
capacity-above = Capacity at { $slo }: above the highest load tried ({ $highest } { $unit }): the objectives held there.
capacity-undecided = Capacity at { $slo }: undecided: no step was decided against the objectives within the budget.
## The table's columns and a step's result.
capacity-col-load = Offered
capacity-col-outcome = Result
capacity-col-throughput = Completed req/s
capacity-col-goodput = Goodput req/s
capacity-title = Capacity search
capacity-slo-item = { $metric } ≤ { $threshold } ms
capacity-short-steps = capacity: no step below the crossing was decided within the objectives (a percentile with no upper bound: too few requests), so the interval has no low end. Run longer steps (--max-step-duration, or drop --duration: each step then runs until decided).
## Two capacity searches compared (`report --base A --cand B`, `compare --base A --cand B`):
## the candidate's capacity relative to the base's, with its interval, and the verdict.
capacity-compare = Capacity at { $slo }: { $change } ({ $cand } against { $base } { $unit }): { $verdict }
capacity-compare-verdict = { $verdict ->
        [improvement] an improvement beyond ±{ $tolerance } %
        [regression] a regression beyond ±{ $tolerance } %
        [equivalent] equivalent within ±{ $tolerance } %
       *[undecided] undecided against ±{ $tolerance } %: longer steps or a finer --precision narrow the intervals
    }
capacity-compare-not-comparable = Capacity at { $slo }: not comparable: { $why ->
        [different] the two searches have different objectives or load parameters
       *[no_capacity] a search found no capacity (below its lowest load, above its highest, or undecided)
    }
## A search without a capacity, in its table cell: below or above the loads tried.
capacity-short = { $finding ->
        [below] below { $load }
        [above] above { $load }
       *[undecided] undecided
    }
capacity-col-arm = Search
capacity-col-capacity = Capacity
capacity-col-limited = Limited by
capacity-col-saturation = Saturation req/s
capacity-col-steps = Steps
capacity-arm = { $arm ->
        [base] base
       *[cand] candidate
    }
