## A finding's evidence: the peak values of an episode (`key` names the value, as the
## analysis's JSON does; `v` is the number; `kind` the error kind of `errors_<kind>`).

peak = { $key ->
        [sm_clock_drop_share] SM clock down { $v } % from its baseline under load
        [temp_max_c] temperature up to { $v } °C
        [thermal_violation_s] { $v } s of thermal violation time
        [power_share_of_limit_max] power up to { $v } % of the enforced limit
        [memory_used_share_max] GPU memory up to { $v } % used
        [preemptions] { $v } preemptions
        [foreign_processes_max] { $v } foreign compute process(es)
        [foreign_memory_gib_max] { $v } GiB held by foreign processes
        [lg_cpu_pct_max] load-generator CPU up to { $v } % of a core
        [lg_thread_pct_max] hottest load-generator thread up to { $v } %
        [send_lag_p99_ms_max] P99 send lag up to { $v } ms
        [send_lag_gaps_max] up to { $v } gaps between sends behind the schedule
        [achieved_share_min] achieved send rate down to { $v } % of the offered rate
        [retransmit_ratio_max] TCP retransmit ratio up to { $v } %
        [interface_errors] { $v } interface errors
        [interface_drops] { $v } interface drops
        [listen_overflows] { $v } listen overflows
        [cpu_steal_pct_max] CPU steal up to { $v } %
        [samples_not_performance_governor] { $v } samples with a governor other than performance
        [waiting_requests_max] up to { $v } requests waiting
        [kv_cache_used_share_max] KV cache up to { $v } % full
        [error_share_max] up to { $v } % of requests failing per window
        [send_rate_share_min] send rate down to { $v } % of its steady level
       *[errors] { $v } { $kind } error(s)
    }

## One line of a finding's evidence: an episode (where it was seen, when, its peak values),
## the effect on the metric, or a consequence (server queueing inside the cause's episodes).
evidence-episode = { $source } from { $start } s to { $end } s{ $peaks }
evidence-peaks = :{" "}{ $items }
evidence-effect = { $metric } { $change }{ $interval } inside the episodes compared with the rest of the measured run
evidence-change = { $unit ->
        [percent] { $value } %
        [points] { $value } percentage points
       *[other] { $value } { $unit }
    }
evidence-interval = {" "}[{ $low }, { $high }]
## An overloaded open loop: what was offered, completed and left unserved (with its interval),
## how (queue growth, timeouts), and the rate to stay below.
evidence-overload = offered { $offered }/s, completed { $completed }/s; unserved { $unserved }/s [{ $low }, { $high }] (requests in flight growing { $growth }/s, { $shed }/s timed out or cancelled; up to { $max } in flight): this rate has no steady state; lower it below about { $completed }/s
evidence-consequence = consequence: { $cause } from { $start } s to { $end } s ({ $items })
## Where a drift was seen: the steady-state detector, with its test's numbers.
evidence-drift-source = steady-state detector: { $trend }
evidence-drift-source-bare = steady-state detector
steady-trend = p = { $p }, Sen slope { $drift } % over the window (drift limit ±{ $limit } %), { $windows } windows of { $window } s
steady-whole-run-trend = { $series } gets slower through the whole run: { $drift } % (p = { $p })
## An interval's method as a reader says it; English keeps the identifier the JSON records.
method-name = { $method ->
       *[other] { $method }
    }
## Why an effect has its interval or none.
effect-sampled = computed on a systematic sample of 1 in { $every } requests
effect-few-groups = only { $inside } and { $outside } five-second groups inside and outside: no interval
## Where an episode was seen, when credence names the series (a device keeps its own name).
source-requests = requests
source-schedule = requests (scheduled vs sent)
source-loadgen = { $host } load generator
