## The findings' causes: what each is called, and what to do about it. `$cause` is the
## cause's identifier in the JSON (`findings[].cause`).

cause-title = { $cause ->
    [overload] Server overloaded: offered more than it completes
    [thermal_throttle] GPU thermal throttling
    [power_cap] GPU power-limited (SW power cap)
    [hw_power_brake] GPU HW power brake (external)
    [hw_slowdown] GPU HW slowdown without a thermal cause
    [clock_change] GPU clock change without a reason bit
    [memory_pressure] GPU memory pressure
    [foreign_process] Another process on the GPU
    [client_saturation] Load generator saturated
    [network] Network retransmits or drops
    [host] Host CPU steal or frequency governor
    [server_queueing] Requests queued at the server
    [error_burst] Burst of failed requests
    [drift] Performance drifted through the run
    [ramp_down] Offered load ramped down
    [cache_warming] The run began on a cold prefix cache
   *[other] Unknown cause
}

cause-action = { $cause ->
    [overload] At this offered rate the server's queue grows without bound: latency measures the queue's age (and the client's timeout), not the server, and no steady state exists. Lower the rate below what it completes, or find its capacity with a sweep; do not quote this run's latencies.
    [thermal_throttle] Improve cooling (airflow, fan, inlet temperature) until the GPU stays below its slowdown temperature under load; lock clocks with `nvidia-smi -lgc` so that throttling is visible; rerun.
    [power_cap] The GPU ran at its power limit, which lowers clocks. This is normal operation, not a fault: compare only with runs at the same enforced power limit, or raise it with `nvidia-smi -pl`; rerun.
    [hw_power_brake] The power supply asserted the HW power brake: check the PSU, cabling and rack power budget; rerun.
    [hw_slowdown] Check `nvidia-smi -q -d PERFORMANCE` and the board's power delivery; rerun.
    [clock_change] Clocks moved under load with no throttle reason: lock clocks with `nvidia-smi -lgc` and check application clocks before rerunning.
    [memory_pressure] GPU memory was nearly full (batches shrink, requests are preempted): lower the engine's memory share or maximum batch, or free the memory another process holds; rerun.
    [foreign_process] Stop the other compute process (`nvidia-smi --query-compute-apps=pid,name,used_memory --format=csv`) or give the server a dedicated GPU; rerun.
    [client_saturation] The load generator was its own bottleneck: add connections, client processes or hosts, or lower the rate; rerun. Latencies from this episode include client delay.
    [network] Check the NIC, the network path and the listen backlog (`net.core.somaxconn`); rerun.
    [host] Use a dedicated host and the `performance` governor (`cpupower frequency-set -g performance`); rerun.
    [server_queueing] The offered load exceeded the server's capacity in this episode (waiting queue or full KV cache): lower the rate, or report the result as overload.
    [error_burst] Read the error messages of this episode (timeouts and OOM point at overload or memory); fix and rerun. Latency statistics exclude failed requests, which flatters them.
    [drift] There is no steady state to report: find the trend's cause (heat soak, memory fragmentation, cache growth) or run longer until it settles; do not quote a single number.
    [ramp_down] The send rate fell at the end of the run; the steady window excludes it. If it was not intended, check the load generator's schedule.
    [cache_warming] TTFT fell while the prefix cache's hit share climbed to its level: a warmup that is the cache, not the GPU. Leave it out as warmup, and before comparing, reset the cache before each arm (`bench --reset-prefix-cache`) or warm both arms alike: a cache warmed by an earlier run would hide it.
   *[other] Inspect the timelines.
}
