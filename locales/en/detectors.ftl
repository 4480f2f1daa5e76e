## Why a cause detector did not run (`attribution.detectors[].reason`), and what it found.

detector-client = no load-generator telemetry and no scheduled send times
detector-clock-reasons = no clock-event reasons
detector-clock-util = no SM clock or utilization
detector-cpu-steal = no CPU steal or governor in the host telemetry
detector-foreign = no foreign-process columns
detector-memory = no GPU memory columns
detector-network = no network counters in the host telemetry
detector-no-gpu = no GPU telemetry in the run
detector-no-requests = no requests
detector-no-timestamps = the source has no per-request timestamps
detector-no-timestamps-short = no per-request timestamps
detector-power = no clock-event reasons and no power or power limit
detector-overload-closed = a closed loop waits for each answer: it cannot offer more than the server completes
detector-overload-unknown = neither an offered rate nor enough of the load (8 windows) to judge
detector-no-cache = no response reported cached prompt tokens
detector-server = no server queue or KV-cache metrics
detector-thermal = no clock-event reasons or thermal violation counter

detector-checked = { $episodes ->
    [0] checked: no episode
    [one] { $episodes } episode
   *[other] { $episodes } episodes
}
