## The comparison's sentences (`credence compare`, the comparison report).

## On P50 TTFT, when episodes were excluded: the clean change beside the measured one.
clean-compare = P50 TTFT 在干净窗口中的变化为 { $clean } [{ $clean_lo }, { $clean_hi }]（{ $clean_verdict }），按全部数据为 { $measured } [{ $measured_lo }, { $measured_hi }]（{ $measured_verdict }）（{ $arms }）
clean-compare-arm = { $arm ->
        [base] 基线
       *[cand] 候选
    }有 { $share } % 的窗口受{ $causes }影响
verdict-word = { $verdict ->
        [regression] 退化
        [improvement] 改进
        [equivalent] 持平
       *[inconclusive] 无法判断
    }
