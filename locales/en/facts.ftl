## Why a run-level fact of an audited tool came out as it did. What a tool or its log wrote
## (a validity word, a log line's counts, an incomplete_reason) arrives as written.

fact-detail = {" "}({ $text })
fact-mlperf-conditions-unrecorded = the log says { $validity } but records none of the conditions
fact-mlperf-validity = the log says { $validity }; its conditions give { $expected }{ $failed }
fact-mlperf-failed = {" "}(failed: { $items })
fact-mlperf-min-queries = { $queries } queries against a minimum of { $min }
fact-mlperf-truncated = the log ends before any result_* key: the run did not finish or the log was truncated
fact-mlperf-summary-matches = summary says { $summary }, detail says { $detail }
fact-llmperf-error-rate = the tool's own error rate is { $rate } %; its percentiles cover only the successful requests
fact-aiperf-errors-uncounted = the summary counts { $claimed } errors{ $detail }; profile_export.jsonl is needed to count them
fact-aiperf-errors-counted = the summary counts { $claimed } errors{ $detail }; profile_export.jsonl has { $records } profiling records with an error
fact-aiperf-cancelled = AIPerf says the run was cancelled and is incomplete{ $why }: { $records }{ $in_flight }
fact-records-held = profile_export.jsonl holds { $n } profiling records;{" "}
fact-in-flight-logged = logs/aiperf.log says { $counts }: { $lost } requests sent but not completed are absent from every file and statistic
fact-in-flight-unlogged = requests cancelled in flight are absent from every file and statistic, and only logs/aiperf.log counts them: pass it to see how many
fact-aiperf-cut-per-log = the summary says is_complete: true, but logs/aiperf.log says { $line }: { $cancelled } requests in flight when the phase ended were cancelled and are absent from profile_export.jsonl and from every statistic
fact-aiperf-cancelled-records = the summary says is_complete: true, but { $records } profiling records were cancelled (was_cancelled)
fact-aiperf-complete-logged = is_complete: true, and logs/aiperf.log says { $line }
fact-aiperf-complete-clean = is_complete: true, and logs/aiperf.log says no request was cancelled
fact-aiperf-complete-unchecked = the summary says is_complete: true, which cannot be checked here: { $limit }AIPerf leaves requests cancelled in flight out of profile_export.jsonl and of its summary, and only logs/aiperf.log counts them (pass it to check)
fact-phase-limit-grace = this phase was limited to { $duration } s with a grace period of { $grace } s, so requests still in flight at its end are cancelled;{" "}
fact-phase-limit = this phase was limited to { $duration } s;{" "}
fact-phase = { $phase ->
        [warmup] warmup
        [profiling] profiling
       *[other] { $phase }
    }
fact-phase-manifest-uncounted = phase_manifest.json lists { $listed } { $phase } requests; profile_export.jsonl is needed to count them
fact-phase-manifest-counted = phase_manifest.json lists { $listed } { $phase } requests; profile_export.jsonl has { $records } { $phase } records
## A line quoted from a log: its number, then its text as the log wrote it.
fact-log-line = line { $line }: { $text }
