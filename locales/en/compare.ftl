## The comparison's sentences (`credence compare`, the comparison report).

## On P50 TTFT, when episodes were excluded: the clean change beside the measured one.
clean-compare = P50 TTFT { $clean } [{ $clean_lo }, { $clean_hi }] in clean conditions ({ $clean_verdict }); { $measured } [{ $measured_lo }, { $measured_hi }] as measured ({ $measured_verdict }) ({ $arms })
clean-compare-arm = { $arm ->
        [base] the base
       *[cand] the candidate
    } was affected by { $causes } for { $share } % of its window
verdict-word = { $verdict ->
        [regression] regression
        [improvement] improvement
        [equivalent] equivalent
       *[inconclusive] inconclusive
    }
