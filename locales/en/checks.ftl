## The credibility checks (`credibility.checks[]`): one message per check, its outcome a
## selector. The English is also the `reason` the JSON keeps beside the message.

check-clocks-locked = { $status ->
    [pass] GPU clocks were locked
   *[warn] GPU clocks were not locked: boost clocks follow temperature and power, which adds run-to-run variance
}
check-cpu-governor = { $status ->
    [pass] CPU governor performance
   *[warn] CPU governor "{ $governor }": frequency scaling on the client adds latency jitter
}
check-gpu-idle-and-cool = { $state ->
    [cool] GPU at { $temp } °C and not cooling from an earlier load
    [warm] GPU at { $temp } °C at the start: an earlier load's heat can throttle this run
    [cooling] GPU at { $temp } °C and still cooling at the start: an earlier load's heat can throttle this run
   *[unknown] unknown: GPU temperature at the start was not recorded
}
check-foreign-processes = { $n ->
    [0] no other compute process on the GPUs at the start
    [one] { $n } other compute process on the GPUs at the start: it competes for compute and memory
   *[other] { $n } other compute processes on the GPUs at the start: they compete for compute and memory
}
check-page-cache = { $status ->
    [pass] page cache dropped before the run
   *[warn] page cache not dropped: model and data loads may be faster than from a cold start
}
check-prefix-cache-reset = { $status ->
    [pass] prefix cache emptied before the run
   *[warn] prefix cache not emptied before the run: a cache warmed by earlier runs flatters TTFT (give --reset-prefix-cache)
}
check-server-restarted = { $status ->
    [pass] server restarted before the run
   *[warn] server not restarted: warm prefix caches from earlier runs can flatter TTFT
}

check-steady-state = { $outcome ->
    [reached] steady state reached; measured { $start } s to { $end } s after dropping { $warm_s } s ({ $warm_n } requests) at the start{ $tail_n ->
        [0] {""}
       *[other] {" "}and { $tail_s } s ({ $tail_n } requests) at the end
    }
    [shifted] the level shifted during the run; measured { $start } s to { $end } s after dropping { $warm_s } s ({ $warm_n } requests) at the start{ $tail_n ->
        [0] {""}
       *[other] {" "}and { $tail_s } s ({ $tail_n } requests) at the end
    }
    [none] no steady state: the level keeps moving, so no single number describes the run
    [overloaded] no steady state: the offered load exceeds what the server completes, so its queue grows and latency measures the queue
   *[no_timestamps] the source has no per-request timestamps: steady state cannot be checked
}

check-sample-size = { $status ->
    [pass] { $beyond } effective observations beyond P99 TTFT (at least 10 needed)
   *[fail] only { $beyond } effective observations beyond P99 TTFT (10 needed): P99 TTFT cannot be bounded; run longer or add runs
}

check-dependence = { $outcome ->
    [trend] a residual trend remains in the measured window (Mann–Kendall); { $measured }
    [few] { $measured }: the intervals account for it, but rest on few independent observations (warns below { $n_eff_warn } or above a design effect of { $deff_warn }); run longer, or find what correlates the requests
    [replicated] { $measured }; the intervals account for it, and across { $replicated } or more replicated runs they come from the spread between runs
    [ok] { $measured }; the intervals account for it
   *[no_values] no TTFT values
}
dependence-measured = TTFT design effect { $deff }{ $clean ->
        [yes] {" "}in clean windows
       *[no] {""}
    }: effective n { $n_eff } of { $n }

check-client-saturation = { $status ->
    [fail] { $findings } inside the measured window: latencies include client delay and the offered load was not delivered
   *[pass] the load generator kept up with its schedule (CPU, send lag, achieved rate)
}
check-throttling = { $status ->
    [fail] { $findings } inside the measured window
    [warn] { $findings }: compare only with runs at the same power limit
   *[pass] no throttle reason or clock drop under load in the measured window
}
check-interference = { $status ->
    [pass] no foreign GPU process, memory pressure, network or host trouble in the measured window
   *[found] { $findings } inside the measured window
}

check-error-rate = { $errors } of { $requests } requests failed ({ $percent } %)

check-interval-width = { $status ->
    [pass] headline intervals within ±{ $limit } %: { $items }
   *[warn] wide or unbounded intervals: { $items }
}
interval-half-width = { $label } ±{ $percent } %
interval-unbounded = { $label } unbounded
## The headline intervals' names.
headline-label = { $metric ->
    [throughput] throughput
    [ttft_p50] P50 TTFT
    [ttft_p99] P99 TTFT
   *[tpot_p50] P50 TPOT
}

check-data-quality = { $status ->
    [pass] { $total } requests, { $missing } without TTFT (failed requests included)
   *[warn] { $ok_missing } successful requests in the measured window lack a TTFT
}

check-source-limits = { $status ->
    [pass] the source records every timing credence uses
   *[limited] { $limits }
}
source-limit = { $limit ->
    [no_timestamps] no per-request timestamps (steady state, drift and time-based checks are impossible)
    [no_schedule] no scheduled send times (coordinated omission cannot be measured)
   *[no_chunks] no per-chunk times (no ITL)
}

check-unexplained-anomalies = { $status ->
    [pass] every anomaly in the measured window has a cause, or there is none
    [no_timestamps] the source has no per-request timestamps: no anomaly in time can be looked for
   *[warn] anomalies with no cause found: { $items }
}
anomaly-span = { $series } { $start }–{ $end } s

## Whether the server's metrics asked for with --server-metrics were recorded; $kinds lists
## the failed scrapes by kind (scrape-failure).
check-prompt-lengths = { $status ->
    [pass] the server counted the prompts as built: { $server } tokens for { $intended } (medians, { $difference } %)
    [warn] the server counted { $server } tokens for { $intended } built (medians, { $difference } %): its tokenizer or chat template is not the one the prompts were built with, so the load is not the one asked for
   *[not_checked] the prompts were not built with a tokenizer
}
check-server-metrics = { $status ->
    [none] no scrape of { $endpoint } succeeded ({ $attempts } tried: { $kinds }): the server's queue and cache went unobserved
    [gaps] { $failed } of { $attempts } scrapes of { $endpoint } failed ({ $kinds }): the server's metrics have gaps
    [pass] { $attempts } scrapes of { $endpoint }, { $failed } failed
   *[not_asked] the server's metrics were not scraped
}
scrape-failure = { $count } { $kind ->
    [refused] without a connection
    [timeout] timed out
    [http_status] with an HTTP error
   *[unparseable] unparseable
}

check-replication = { $k ->
    [0] single run: the configuration effect cannot be separated from run-to-run noise; repeat the run at least 3 times
    [1] single run: the configuration effect cannot be separated from run-to-run noise; repeat the run at least 3 times
    [2] 2 runs: too few to estimate run-to-run noise reliably; 3 or more are needed
   *[other] { $k } runs of this configuration
}

check-no-runs = no runs
