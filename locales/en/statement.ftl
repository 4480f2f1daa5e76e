## The credibility statement (`credibility.statement`): page 1's paragraph, one message per
## sentence, each present only when it says something. The English is the JSON's `statement`.

stmt-measured = Credibility { $grade }. { $k ->
        [1] This single run
       *[other] These { $k } runs
    } { $timestamps ->
        [absent] measured { $measured } requests, but the source records no per-request timestamps: warmup, steady state and drift cannot be checked, and every request counts.
        [overloaded] was offered more than the server completes: its queue grew through the run, so there is no steady state, and the latencies of the { $measured } requests in the window analyzed measure the queue, not the server.
       *[present] measured { $measured } requests over { $seconds } s of steady state, after dropping { $warm_s } s ({ $warm_n } requests) of warmup{ $tail_n ->
            [0] {""}
           *[other] {" "}and { $tail_s } s ({ $tail_n } requests) at the end
        }.
    }

stmt-clean = { $several ->
        [yes] Run { $run }: in
       *[no] In
    } clean windows ({ $seconds } s, { $requests } requests), P50 TTFT is { $p50_clean } and P99 TTFT { $p99_clean }; as measured, P50 TTFT { $p50 } and P99 TTFT { $p99 }. Excluded { $excluded_s } s ({ $excluded_n } requests, { $excluded_pct } % of the window): { $causes }.
stmt-cause-seconds = { $cause } ({ $seconds } s)
quoted-ms = { $kind ->
        [bounded] { $x } [{ $lo }, { $hi }] ms
        [lower] ~{ $x } ms (>= { $lo }, insufficient data)
        [point] ~{ $x } ms (insufficient data)
        [beyond] > { $lo } ms (beyond the timeouts)
       *[none] not measurable
    }

## `$condition` is `measured` after a clean-window sentence: these numbers are of every window.
stmt-widths = { $condition ->
        [measured] As measured, the 95 % intervals reach { $items }.
       *[all] The 95 % intervals reach { $items }.
    }
stmt-unbounded = { $condition ->
        [measured] As measured, { $items } cannot be bounded with this much data and must not be quoted as a number.
       *[all] { $items } cannot be bounded with this much data and must not be quoted as a number.
    }
stmt-short-tails = { $condition ->
        [measured] As measured, too few samples to bound { $items }: the report gives only an approximate value (~) and, where one holds, its lower bound, marked insufficient data: not numbers to quote.
       *[all] Too few samples to bound { $items }: the report gives only an approximate value (~) and, where one holds, its lower bound, marked insufficient data: not numbers to quote.
    }
tail-label = { $p } { $metric }

stmt-env-failed = Environment checks that failed: { $items }.
stmt-env-failed-item = { $item } ({ $bias })
stmt-env-unknown = Unknown environment items: { $items }; their biases cannot be ruled out.
stmt-env-passed = Every environment check passed.
## An environment check's name (the part after `environment.`), and what its failure can do.
env-item = { $item ->
        [clocks_locked] clocks_locked
        [cpu_governor] cpu_governor
        [gpu_idle_and_cool] gpu_idle_and_cool
        [no_foreign_gpu_processes] no_foreign_gpu_processes
        [page_cache] page_cache
        [prefix_cache_reset] prefix_cache_reset
       *[server_restarted] server_restarted
    }
env-bias = { $item ->
        [clocks_locked] unlocked clocks let results vary with temperature and power
        [cpu_governor] frequency scaling on the client adds latency jitter
        [gpu_idle_and_cool] a warm or busy GPU at the start can throttle early
        [no_foreign_gpu_processes] another process competes for the GPU
        [page_cache] a warm page cache flatters load times
        [prefix_cache_reset] a prefix cache warmed by earlier runs flatters TTFT
       *[server_restarted] warm server caches can flatter TTFT
    }

stmt-failed = Failed checks: { $items }.
stmt-failed-item = { $check } ({ $reason })

stmt-caution = Compare with caution: { $items }.
caution-single-run = any comparison with another single run (run-to-run noise is unmeasured)
caution-findings = numbers from windows affected by { $findings }
caution-warned = anything that depends on { $checks }
## A check's name in running text (`$check` is its name with "." as "-"): as written, or with
## its underscores as spaces.
check-name = { $check ->
       *[other] { $style ->
            [spaced] { $spaced }
           *[raw] { $name }
        }
    }
