## The credibility of a report without runs: a GPU capture audited alone, or a tool's summary
## files alone. Each check's reason and the statement.

capture-needs-requests = { $check ->
        [steady_state] needs per-request latencies over time; a GPU capture has none
        [sample_size] no requests were recorded, so there is no latency percentile to bound
        [dependence] no request latencies to measure dependence in
        [client_saturation] needs the load generator's CPU, send lag or scheduled sends; the capture holds GPU counters only
        [interference] needs per-process GPU columns or host and network counters; the capture has neither
        [error_rate] no requests were recorded, so there is no error rate
        [interval_width] no latency or throughput statistic exists to give an interval
        [attribution] no request timeline: the episodes cannot be tied to any change in latency or throughput
       *[replication] one capture of GPU counters; run-to-run noise needs repeated benchmark runs
    }
capture-telemetry-only = GPU telemetry only: no request was recorded, so no latency, throughput or error rate can be measured or checked from these files
capture-data = { $samples } samples of { $gpus } { $gpus ->
        [one] GPU
       *[other] GPUs
    } over { $seconds } s, median interval { $interval } s{ $gaps ->
        [0] ; no gap longer than 3 intervals
       *[other] ; { $gaps } gaps longer than 3 intervals: an episode inside a gap is not seen
    }
capture-no-gpu-loaded = no GPU was under load (utilization ≥ { $threshold } %): the capture shows no workload{ $aside }
capture-gpus-loaded = { $loaded } of { $gpus } GPUs under load (utilization ≥ { $threshold } %): { $names }{ $aside }
capture-set-aside = ; set aside: { $items }
capture-gpu-reason = { $gpu } ({ $reason })
capture-episode = { $gpu } { $reason } { $start }–{ $end } s ({ $seconds } s)
capture-throttling-none-looked = no GPU under load with an SM clock or clock-event reasons
capture-basis = { $bits ->
        [yes] from the clock-event reason bits, and the SM clock where they are absent
       *[no] from SM clock and power only: no clock-event reasons were captured, so the cause of a clock fall may be unknown
    }
capture-throttling-faults = { $faults }: clocks were forced down (DCGM's failure reasons); numbers measured then describe a slowed GPU{ $rest } ({ $basis })
capture-throttling-also = ; also { $others }
capture-throttling-limits = { $others }: compare only with runs at the same power limit and cooling ({ $basis })
capture-throttling-clear = no throttle, power-limited stretch or clock fall under load ({ $basis })
capture-clock-none = no GPU under load has enough SM clock samples (10 needed)
capture-clock-gpu = { $gpu } CV { $cv } %, { $fallen } % of loaded time below 90 % of its highest clock ({ $max } MHz)
capture-clock = { $gpus } (stable: CV ≤ { $cv } % and ≤ { $fallen } % of loaded time below 90 % of the highest clock)
capture-claims = { $checked } of { $claims } claims cross-checked between the tool's own files, { $differ } differ; none can be recomputed without per-request data
capture-claims-none = the files hold no tool's summary numbers to check
capture-quantity = { $quantity ->
        [sm_clock] SM clock
        [power] power
        [temperature] temperature
        [utilization] utilization
       *[clock_event_reasons] clock-event reasons
    }
capture-statement = Credibility { $grade } as a benchmark result: { $source } is GPU telemetry only, with no request records. It shows how { $gpus } { $gpus ->
        [one] GPU
       *[other] GPUs
    } ran over { $seconds } s ({ $quantities }); it cannot show latency, throughput, error rates, steady state or a tool's claims, and it cannot tie any episode to a change in latency or throughput, so those checks are NOT_CHECKED. { $loaded } { $loaded ->
        [one] GPU was
       *[other] GPUs were
    } under load (utilization ≥ { $threshold } %); { $aside } { $aside ->
        [one] GPU was
       *[other] GPUs were
    } set aside. { $episodes }
capture-episodes-found = Episodes under load: { $items }.
capture-episodes-no-load = With no GPU under load, no episode was looked for.
capture-episodes-not-looked = No GPU under load has an SM clock or clock-event reasons, so no episode could be looked for.
capture-episodes-clear = No throttle, power-limited stretch or clock fall was found under load.
capture-summary-only = the files hold summary statistics only: no percentile, interval or steady state can be recomputed
capture-fact = { $name }: { $status } ({ $reason }).
capture-aggregate-statement = Credibility LOW. { $source } holds no per-request data, so none of its numbers can be recomputed or given an interval; { $checked } of its { $claims } claims could be cross-checked between the tool's own files. { $facts }
