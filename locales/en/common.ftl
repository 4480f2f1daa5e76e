## Pieces many messages share: list separators, a run named before its reason, and the notes
## a producer writes into run.json beside a value it could not read.

sep-comma = ,{ " " }
sep-semicolon = ;{ " " }
sep-enumeration = ,{ " " }
sep-and = {" "}and{" "}
sep-phrases = ,{ " " }
sep-sentence = {" "}

## Text shown as written (an English reason saved before messages existed).
as-written = { $text }
grade = { $grade ->
        [HIGH] HIGH
        [MEDIUM] MEDIUM
       *[LOW] LOW
    }
## The credibility statement: its sentences (`statement.ftl`) as one paragraph.
statement = { $sentences }

in-run = { $run }: { $reason }

## A value no producer recorded: `$note` says why (a note of credence's collectors, or a
## note other tools wrote, shown as written).
unknown = unknown: { $note }
note-not-recorded = not recorded
note-not-recorded-by = not recorded by { $tool }
note-gpu-sampling-off = GPU sampling off ({ $flag } off)
note-collector = { $note ->
    [no_cpufreq] no cpufreq in sysfs (common in VMs and containers)
    [nvml_did_not_say] NVML did not say
    [nvml_could_not_read] NVML could not read it
    [nvml_no_application_clocks] NVML could not read application clocks
    [clocks_locked_unreported] NVML does not report locked clocks; check `nvidia-smi -q -d CLOCK`
    [not_read] not read
    [no_gpu_data] no GPU data
    [meminfo_unreadable] /proc/meminfo unreadable
    [server_restart_unknown] credence cannot tell; record it with --label server_restarted=true
    [model_path_unknown] not known to the collector; use --config model=…
    [engine_version_unknown] not known to the collector; use --config engine_version=…
    [unreadable] unreadable
    [gpus_not_sampled] GPUs not sampled: give --collect-gpu auto, or run credence collect beside the benchmark
    [fake_gpus] fake GPUs (CREDENCE_FAKE_GPUS test hook)
    [telemetry_only_phases] telemetry only: the requests come from the load generator's own run directory or an import
   *[warmup_marked] warmup requests are marked phase=warmup, not deleted
}

## An arrival process (the manifest's `workload.arrival`).
arrival = { $arrival ->
        [closed_loop] closed loop
        [trace_replay] trace replay
        [unknown] unknown arrivals
       *[other] { $arrival } arrivals
    }
