## The one line a command prints on the terminal (stderr) after it wrote its file.
cli-wrote-report = wrote { $path } ({ $bytes } bytes, credibility { $grade })
cli-wrote-audit = wrote { $path } ({ $bytes } bytes): { $outcome }
cli-audit-claims = { $claims } claims, { $reproduced } reproduced, { $differ } differ
cli-audit-telemetry = GPU telemetry only: GPUs { $gpus }, under load { $loaded }, set aside { $aside }; episodes { $episodes }; no request-based check could run
cli-history-store = history store { $dir }: { $added } run(s) added, { $present } already there
