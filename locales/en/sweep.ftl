## A load sweep: its statement (its weakest step's) and what its curve says. Rates are in
## requests/s as the sweep offered them.

sweep-statement = Sweep of { $steps } steps; its grade is that of its weakest step (offered { $offered } requests/s): { $statement }
sweep-summary = { $sentences }
sweep-range = { $steps } steps, { $from } to { $to } requests/s offered.
sweep-kept-up-throughout = The achieved rate kept up with the offered rate (≥ 95 %) at every step, up to { $top } requests/s: the sweep did not reach saturation.
sweep-kept-up-until = The achieved rate kept up with the offered rate (≥ 95 %) up to { $top } requests/s; beyond it the system saturated or the client was near its own limit.
sweep-fell-short = The achieved rate fell short of the offered rate (< 95 %, beyond its interval) from the first step, or the client was near its limit.
sweep-ttft-tail = TTFT P99 went from { $from } ms at { $from_rate } requests/s to { $to } ms at { $to_rate } requests/s.
sweep-client-limited = The load generator was near its own limit at { $rates } requests/s: those points measure the client as well as the server.
sweep-stopped-early = The sweep was stopped before its last planned step.
## A step's grade in the table, flagged when the client limited it.
sweep-grade = { $grade }{ $client ->
        [yes] {" "}(client)
       *[no] {""}
    }
