## A telemetry-only audit (GPU samples, no requests): which samples are under load, each
## GPU's state, the episodes, clock stability and the methodology.

telemetry-load-rule = A sample is under load when GPU utilization is at least { $util } % (where utilization was not captured: when the clock-event reasons are known and the GPU-idle bit 0x1 is clear). A GPU with fewer than { $min } samples under load is set aside as idle.
telemetry-util-max = utilization at most { $max } %
telemetry-util-none = utilization not captured
telemetry-load-unknown = neither utilization nor clock-event reasons were captured in its { $samples } samples: whether it was busy cannot be told
telemetry-load-idle = under load in { $loaded } of { $samples } samples ({ $util }; GPU-idle bit set in { $idle }); fewer than { $min }, so its clocks are not read as a workload's
telemetry-load-loaded = under load in { $loaded } of { $samples } samples ({ $util })
telemetry-gpu-state = { $state ->
        [loaded] Analyzed: { $reason }.
        [idle] Idle, set aside: { $reason }.
       *[unknown] Load unknown, set aside: { $reason }.
    }
telemetry-captured = { $samples } samples, median interval { $interval } s; captured: { $fields }.
telemetry-unreadable = Unreadable values, read as missing: { $items }.
telemetry-unreadable-item = { $field } in { $samples } samples
telemetry-summary = { $source }: { $samples } samples of { $gpus } GPUs over { $seconds } s from { $date } { $time } UTC (time 0 of every chart and table). No request was recorded.
telemetry-stability-descriptive = descriptive over { $n } loaded samples; 1 Hz clock samples are autocorrelated, so no interval is given
telemetry-stability-few = only { $n } loaded samples with an SM clock ({ $min } needed): the spread is not read as the GPU's
telemetry-stability-note = SM clock over the samples under load. CV: standard deviation over mean. Shares are of loaded samples (equally spaced, so of loaded time). Stable: CV ≤ { $cv } % and at most { $fallen } % of loaded time below 90 % of the highest clock. Descriptive: 1 Hz clock samples are autocorrelated, so no interval is given.
telemetry-reason = { $reason ->
        [thermal_slowdown] thermal slowdown
        [hw_power_brake] HW power brake
        [hw_slowdown] HW slowdown
        [power_cap] power-limited
       *[clock_drop] SM clock drop, cause unknown
    }
telemetry-episodes-note = { $case ->
        [none-loaded] No GPU was under load, so no episode was looked for.
        [not-looked] No GPU under load has an SM clock or clock-event reasons, so no episode could be looked for.
        [none-with-bits] No throttle, power-limited stretch or SM clock fall was found on the GPUs under load (clock-event reason bits and SM clock read).
        [none-without-bits] No power-limited stretch or SM clock fall was found on the GPUs under load. The capture has no clock-event reason bits, so only falls of the SM clock could be seen.
       *[found] Episodes on the GPUs under load: two or more samples where a reason held, one clear sample bridged. A throttle forces clocks down (DCGM's failure reasons: thermal, HW slowdown, power brake); power-limited is a GPU held at its power limit, not a fault. Without reason bits, power within 5 % of its limit while the SM clock is more than 10 % below its highest loaded value is read as power-limited, and a clock fall without either has its cause unknown.
    }
telemetry-method-load = Under load
telemetry-method-episodes = Episodes
telemetry-method-episodes-text = Thermal slowdown (reason bits 0x20, 0x40), HW power brake (0x80) and HW slowdown (0x08) are throttles, by DCGM's diagnostic mask; the SW power cap (0x04) is power-limited, not a fault. Without reason bits: power ≥ 95 % of its limit while the SM clock is < 90 % of its highest loaded value is power-limited; a fall of the SM clock below 90 % with neither explanation is a clock drop of unknown cause. Two samples at least; one clear sample inside is bridged.
telemetry-method-stability = Clock stability
telemetry-method-stability-text = Mean, standard deviation, CV, median and range of the SM clock over the loaded samples; shares of loaded samples below the highest loaded clock and below 90 % of it.
telemetry-method-times = Times
telemetry-method-times-text = Seconds from the capture's first sample, and UTC. nvidia-smi and dmon write local time without a zone; --tz gave the offset.
telemetry-method-unchecked = Not checked
telemetry-method-unchecked-text = Everything that needs requests: steady state, latency percentiles and their intervals, throughput, error rates, client saturation, claims recomputed from per-request data, and the link of any episode to latency.
