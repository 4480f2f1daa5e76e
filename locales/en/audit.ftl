## The audit of a tool's claims: the summary, each claim's cells and why the numbers agree or
## not. `definition` is the importer's sentence on how the tool defines a number.

audit-summary = { $claims } claims from { $source }: { $reproduced } reproduced ({ $raw } from the tool's raw per-request data, { $summary } only cross-checked against its summary file), { $differ } differ, { $unchecked } could not be checked.
audit-summary-cut = {" "}The table lists { $shown } of them: every claim that differs, then the headline latencies and rates; the JSON report lists all { $claims }.
audit-verdict = { $verdict ->
        [reproduced] reproduced
        [differs] differs
       *[other] not_recomputable
    }
audit-recomputed = { $value } ({ $from ->
        [summary] summary
       *[raw] raw
    })
audit-credence-interval = { $value } [{ $low }, { $high }]
audit-credence-point = ~{ $value } (no interval)
audit-credence-none = n/a: { $note }
audit-credence-noted = { $cell }; { $note }
audit-reproduced-summary = the summary file states the same number as the detail log; no per-request data exists to recompute it from
audit-reproduced-raw = the summary matches the tool's own raw data
audit-differs-summary = the summary file says { $value }: the tool's two files disagree (rounding or a different run)
audit-differs-raw = the summary does not match the tool's raw data (recomputed { $value }): another percentile definition, or rows filtered before summarising
audit-no-raw = the raw values behind this number are not in the files{ $definition }
audit-no-raw-definition = :{" "}{ $definition }
audit-credence-differs = { $reason }; credence's steady-state value differs by { $by } %{ $why }
audit-why-list = {" "}({ $items })
audit-definition = { $definition }
audit-why = { $why ->
        [dropped] credence dropped { $warmup } warmup and { $ramp_down } ramp-down requests; the tool used all
        [tail] means and SDs are pulled by the tail; credence's headline numbers are percentiles
        [itl-chunk] ITL here is per streamed chunk, not per token
        [tpot-definitions] TPOT definitions differ between tools (per-request mean versus pooled gaps)
        [not-anchored] times are not anchored to wall-clock time
       *[few-tail] tail percentiles rest on few samples
    }
audit-metric-words = { $metric ->
        [service] end minus the scheduled send
        [send_lag] sent minus scheduled
        [ttfot] first answer token minus sent
       *[other] the per-request mean gap after the first token
    }
audit-note = { $note ->
        [descriptive] the steady window's { $stat_word } (descriptive: credence gives no interval for it)
        [estimated-as] credence's { $as }: { $words }
        [no-chunk-times] { $source } saves no chunk times: per-token ITL cannot be computed; its ITL is the per-request mean gap, compared with credence's TPOT
        [no-schedule] the files hold no scheduled send times: credence cannot compute the send lag or the latency from the schedule
        [successful-only] credence estimates { $metric } over successful requests only
        [not-estimated] credence does not estimate { $metric }
        [window-dependent] a count or total depends on the window: credence reports rates and percentiles
        [one-rate] credence estimates { $metric } as one rate over the steady window, with its interval: it has no distribution of instantaneous rates
        [not-described] credence gives no min, max or SD of { $metric }: it describes the distributions of TTFT, TPOT and E2E
        [stat-not-computed] credence does not compute this statistic ({ $stat }): it reports percentiles and means, each with its own interval
        [needs-slo] credence's goodput counts the requests within the objectives: audit with --slo and the tool's thresholds (e.g. --slo ttft_p99=500ms for vLLM's --goodput ttft:500)
       *[no-steady-value] no steady-state value: too few values in the steady window, or no steady window
    }
audit-stat = { $stat ->
        [min] min
        [max] max
       *[other] SD
    }

## A claim as its row names it: the tool's key, and the metric and statistic credence reads it as.
audit-claim = { $key } ({ $metric } { $stat })
audit-claim-metric = { $metric }
## English keeps the statistic's identifier; the percentile (`P50` for `p50`) is for a language
## that words it.
audit-claim-stat = { $percentile ->
       *[other] { $stat }
    }
