## The one line a command prints on the terminal (stderr) after it wrote its file.
cli-wrote-report = wrote { $path } ({ $bytes } bytes, credibility { $grade })
cli-wrote-audit = wrote { $path } ({ $bytes } bytes): { $outcome }
cli-audit-claims = { $claims } claims, { $reproduced } reproduced, { $differ } differ
cli-audit-telemetry = GPU telemetry only: GPUs { $gpus }, under load { $loaded }, set aside { $aside }; episodes { $episodes }; no request-based check could run
cli-history-store = history store { $dir }: { $added } run(s) added, { $present } already there
cli-baseline-saved = saved baseline { $name } with { $runs } run(s) in { $path }{ $single ->
        [yes] {" "}(one run: its run-to-run noise is assumed, not measured; save three or more runs)
       *[no] {""}
    }

## A file a folder's walk set aside (`import`, `audit`, and a tool's folder given to `report`,
## `compare`, `plan` or `baseline`), one line each on stderr.
cli-skipped = skipped { $path }: { $why }
skip-unsupported = { $file ->
        [aiperf-raw] AIPerf raw export (profile_export_raw.jsonl: every SSE event; import profile_export.jsonl instead)
        [aiperf-csv] AIPerf's CSV summary (profile_export_aiperf.csv): its JSON twin profile_export_aiperf.json is read
        [aiperf-console] AIPerf's console tables (profile_export_console.txt): profile_export_aiperf.json holds the same numbers
        [inference-perf-validation] inference-perf's validation.json (its checks of its own reports; credence checks the reports itself)
        [aiperf-ready] AIPerf's results-ready marker (.aiperf_results_ready.json)
        [aiperf-inputs] AIPerf's inputs.json (the request payloads it sent)
       *[unknown-json] unknown JSON
    }
skip-unknown-json = a JSON file of no known benchmark format
skip-unrecognised = the format could not be recognised from the content
skip-symlink = a symbolic link: not followed
skip-too-deep = a folder more than { $depth } levels down: not searched
skip-ambiguous = beside { $n } runs' files in { $dir }: which run it belongs to cannot be told
skip-no-run = no per-request file in its folder or above it: it belongs to no run
skip-another = another { $format } file is read for this run: { $path }
