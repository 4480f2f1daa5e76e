## `credence plan`: what the plan rests on, why no design fits, and the words of its table.
## Percentages arrive as numbers of percent; `basis` is `measured` or `assumed`.

plan-title = plan: detect a { $effect } % change against a { $tolerance } % tolerance with { $power } % power
plan-pilot = pilot: { $runs } { $runs ->
        [one] run
       *[other] runs
    }, { $requests } steady requests ({ $rate } requests/s, { $steady } s steady and { $warmup } s warm-up per run)
plan-column = { $column ->
        [metric] metric
        [within] within-run CV
        [between] between-run CV
        [runs] runs/arm
        [run] run
        [requests] requests/run
        [power] power
       *[cost] cost
    }
plan-basis = { $basis ->
        [assumed] (ASSUMED)
       *[measured] (measured)
    }
plan-designs = designs: the fewest runs per arm that reach the power, per run length{ $basis ->
        [assumed] {" "}(power rests on the ASSUMED between-run CV)
       *[measured] {""}
    }
plan-recommended = * recommended: the cheapest, at { $cost } of fixed cost per run (both arms counted)
plan-assumptions = assumptions:

## Why no design fits. `closest` is `plan-closest` or `empty`.
plan-cannot-tell = this pilot cannot tell: reaching { $power } % power would need more than { $limit }× the pilot's { $requests } requests per arm{ $closest }; run a pilot of at least { $need } requests and plan again
plan-no-design = no design with up to { $max } runs per arm reaches { $power } % power{ $closest }: the run-to-run variance ({ $basis ->
        [assumed] assumed
       *[measured] measured
    }) is too large next to the gap between the effect ({ $effect } %) and the tolerance ({ $tolerance } %){ $basis ->
        [assumed] ; measure it with 2 or more pilot runs
       *[measured] {""}
    }
plan-closest = {" "}(the best design within reach, { $runs } runs per arm of { $duration } s, reaches { $power } %)

## What every number rests on.
plan-between-measured = between-run variance measured (Kalibera–Jones over { $runs } pilot runs, { $df } { $df ->
        [one] degree
       *[other] degrees
    } of freedom: a rough estimate with few runs)
plan-between-assumed = between-run variance ASSUMED: one pilot run cannot measure it; planned with a { $cv } % run-to-run CV (--between-run-cv), and every power and design depends on it
plan-within-sampling = within-run sampling variance from each pilot run's block bootstrap, falling with 1/(steady length); runs shorter than the pilot are not offered
plan-within-df = the pilot measured its within-run noise with about { $df } degrees of freedom (as few as that for the least certain metric), so each power is averaged over what that noise may be (assurance), not taken at the estimate: a pilot that happened to measure its noise low would otherwise plan too small an experiment
plan-within-known = the within-run noise is taken as known (its degrees of freedom were not measured)
plan-compare-rule = compare's verdict: a regression when the 95 % interval lies beyond the tolerance (which the spread of the runs never moves); the interval pools the runs' spread with a { $cv } % run-to-run prior worth { $df } degrees of freedom
plan-power-method = power by a normal approximation on the log ratio; designs use at most { $limit }× the pilot's requests per arm and at least 2 runs per arm
plan-same-setup = the same server, workload and rate as the pilot ({ $rate } requests/s in the steady window, { $warmup } s of warm-up per run)
## A duration in the designs table: seconds, minutes or hours.
plan-span = { $unit ->
        [s] { $n } s
        [min] { $n } min
       *[h] { $n } h
    }
