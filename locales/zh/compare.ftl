## The comparison's sentences (`credence compare`, the comparison report).

## On P50 TTFT, when episodes were excluded: the clean change beside the measured one.
clean-compare = P50 TTFT 的变化：干净窗口 { $clean } [{ $clean_lo }, { $clean_hi }]（{ $clean_verdict }），实测 { $measured } [{ $measured_lo }, { $measured_hi }]（{ $measured_verdict }）。{ $arms }。
clean-compare-arm = { $arm ->
        [base] 基线
       *[cand] 候选
    }有 { $share } % 的测量窗口受 { $causes } 影响
verdict-word = { $verdict ->
        [regression] 退化
        [improvement] 改进
        [equivalent] 持平
       *[inconclusive] 无法判断
    }

## A metric as a reader says it.
metric-label = { $metric ->
        [output_tokens_per_s] 输出 token 吞吐量
        [requests_per_s] 请求吞吐量
        [error_rate] 错误率
       *[other] { $metric }
    }
metric-percentile = { $percentile } { $family ->
        [ttft] TTFT
        [tpot] TPOT
        [e2e] E2E
        [itl] ITL
        [service] 自计划发送起的 E2E
       *[other] { $family }
    }
metric-unit = { $unit ->
        [tokens_per_s] tokens/s
        [requests_per_s] req/s
        [percent] %
       *[ms] ms
    }
status = { $status ->
        [PASS] 通过
        [WARN] 警告
        [FAIL] 未通过
       *[NOT_CHECKED] 未检查
    }
empty = {""}

## The headline.
compare-headline = { $parts }。
compare-invalid = 对比无效（{ $gates }）
compare-gate-failed = { $gate }未通过
compare-a-gate-failed = 有一项有效性门槛未通过
## (The count of changes selects nothing: the Chinese lists them without a count or a plural.)
compare-changes = { $verdict ->
        [regression] { $n ->
           *[other] 退化
        }
       *[improvement] { $n ->
           *[other] 改进
        }
    }{ $lead }：{ $changes }
compare-lead = { $condition ->
        [clean] （干净窗口）
        [measured] （实测）
       *[none] {""}
    }
compare-decided = { $metric } 变化 { $change }，超出容差 { $tolerance }（{ $base } → { $cand } { $unit }）
compare-others = { $equivalent } 项持平，{ $inconclusive } 项无法判断
compare-none-beyond = { $lower ->
        [yes] 没有
       *[no] 没有
    }超出容差的退化或改进{ $lead }：{ $others }
compare-other-decided = { $condition ->
        [clean] 干净窗口
       *[measured] 实测
    }的判定：{ $changes }
compare-other-change = { $change }（{ $verdict }）
compare-other-counted = { $condition ->
        [clean] 干净窗口
       *[measured] 实测
    }的判定：{ $equivalent ->
        [0] 均无法判断
       *[other] { $inconclusive ->
            [0] 均持平
           *[other] { $equivalent } 项持平，{ $inconclusive } 项无法判断
        }
    }
compare-why = { $why ->
        [alike] 两组处于异常时段的时间占比相近（基线 { $base } %，候选 { $cand } %），因此以干净窗口的判定为准
       *[differ] 异常时段占候选测量窗口的 { $cand } %，占基线的 { $base } %。异常可能由切换本身引起，因此以实测判定为准
    }
compare-credibility = 可信度：{ $grade }（{ $note }）
compare-runs = { $single ->
        [yes] 每组单次运行
       *[no] 基线 { $base } 次、候选 { $cand } 次运行
    }
compare-runs-failed = { $runs }；未通过：{ $checks }
compare-arm-check = { $arm ->
        [base] 基线
       *[cand] 候选
    }的{ $check }

## The top part under the headline.
compare-column = { $column ->
        [metric] 指标
        [base] 基线 [95 % 置信区间]
        [cand] 候选 [95 % 置信区间]
        [change] 变化 [95 % 置信区间]
        [tolerance] 容差
       *[verdict] 判定
    }
compare-table-note = 基线与候选：各组的统计量及其 95 % 置信区间。它们与变化量使用同一方差模型（{ $method }，重抽样 { $resamples } 次，种子 { $seed }；错误率用 Wilson 区间）。容差 τ 即命令中给定的容差；运行间的离散计入置信区间，不计入 τ。判定：95 % 置信区间完全落在 ±τ 之外，为退化或改进；90 % 置信区间完全落在 ±τ 之内，为持平；其余为无法判断。
compare-by-adapter-note = 每个适配器在每次运行中的中位数按其自身的 95 % 置信区间计入（{ $method }，种子 { $seed }）；判定使用与整体相同的容差。
compare-by-adapter-no-interval = 无置信区间（某次运行中该适配器的请求过少）
compare-gates = 有效性门槛：{ $tally }{ $details }。
compare-gates-details = ；{ $items }
compare-gate-count = { $status } { $n } 项
compare-gate-detail = { $gate }为{ $status }（{ $reason }）
compare-no-gates = 无
compare-summary = 对比的可信度取较弱的一组：{ $grade }。{ $gates } 项有效性门槛中 { $passed } 项通过。{ $replication }{ $changed }
compare-replication = { $single ->
        [yes] 每组只有一次运行，运行间噪声未测量：单是环境差异就可能让指标变化这么多。请每组至少重复运行 3 次。
       *[no] 基线 { $base } 次、候选 { $cand } 次运行：运行间噪声已测量，并计入每个置信区间。
    }
compare-changed = { $n ->
        [0] 两份运行清单没有差异。
        [1] 两份运行清单之间只有 { $key } 不同：{ $base } → { $cand }。
       *[other] 两份运行清单之间有 { $n } 个字段不同：{ $keys }。
    }
compare-arm = { $arm ->
        [base] 基线组
       *[cand] 候选组
    }（{ $runs }），可信度：{ $grade }；{ $checks } 项检查中 { $passed } 项通过{ $statuses }。
compare-arm-statuses = ；{ $items }
compare-arm-status = { $status }：{ $names }

## The details.
compare-details = { $valid ->
        [no] 对比无效。
       *[yes] {""}
    }基线：{ $base }。候选：{ $cand }。{ $replication }。方法：{ $method }，重抽样 { $resamples } 次，种子 { $seed }。
compare-replication-short = { $single ->
        [yes] 每组单次运行，配置本身的影响与运行间噪声无法区分
       *[no] 基线 { $base } 次、候选 { $cand } 次运行
    }
compare-too-few-groups = { $metrics }：无法判断。某次运行的稳态窗口只有 { $groups } 个重抽样组，至少需要 { $min } 个才能衡量请求间的相关性
compare-not-compared = { $metric }：未比较：某次运行中该值超过超时时间（只有下限，不是数值），无法计算变化
compare-note = { $metric }：{ $advice }
advice = { $kind ->
        [runs-or-longer] 要作出判断，每组需 { $runs } 次运行，或把每次运行的请求数增加到约 { $factor } 倍（{ $source }）
        [runs-dominated] 要作出判断，每组需 { $runs } 次运行；{ $dominates }
        [runs] 要作出判断，每组需 { $runs } 次运行（{ $source }）
        [longer] 要作出判断，需把每次运行的请求数增加到约 { $factor } 倍（{ $source }）
        [pooled] 要作出判断，每组需约 { $factor } 倍的请求，分几次运行均可（{ $source }）
       *[cannot-tell] 现有运行不足以估计还需多少数据才能作出判断（按此估算超过当前的 { $max } 倍；{ $source }）。请每组先至少运行 { $pilot } 个请求，再用 `credence plan` 规划
    }
advice-source = { $basis ->
        [measured] 实测运行间变异系数 { $cv } %
        [assumed] 运行间差异按假设的 { $cv } % 计，每组一次运行无法实测
       *[pooled] 错误率把各次运行的请求合并计算
    }
advice-dominates = { $basis ->
        [measured] 实测运行间噪声（变异系数 { $cv } %）占主导，延长单次运行无济于事
       *[assumed] 如果运行间差异如假设的 { $cv } %（每组一次运行无法实测），延长单次运行也无济于事
    }

## The validity gates' reasons.
gate-lengths = 双样本 KS 检验：D = { $d }（上限 { $limit }），p = { $p }
gate-no-token-counts = 没有 token 计数
gate-arrival = 基线：{ $base }；候选：{ $cand }
load = { $arrival }{ $rate }{ $concurrency }，{ $streaming ->
        [yes] 流式
        [no] 非流式
       *[unknown] 是否流式未知
    }
load-rate = ，每秒 { $rate } 个请求
load-concurrency = ，并发 { $n }
gate-manifests-same = 两份运行清单没有差异，没有记录切换了什么
gate-one-switch = 只有一处变化：{ $key }
gate-many-switches = 有 { $n } 处不同，无法把影响归于某一处变化：{ $keys }
gate-steady = { $class }
gate-left-out = { $class }：已从该组剔除，该组剩余运行仍足以比较
steady-class = { $class ->
        [Flat] 平稳
        [Warmup] 有预热段，之后平稳
        [Slowdown] 运行中逐渐变慢
       *[NoSteadyState] 没有稳态
    }
gate-replicated = 基线每组 { $base } 次运行，候选 { $cand } 次
gate-cache-state = 前缀缓存命中率：基线 { $base } %，候选 { $cand } %{ $differ ->
        [yes] ：这次比较既测到了开关的影响，也测到了缓存状态的影响（两组都加 `--reset-prefix-cache`，或以相同方式预热）
       *[no] ：在噪声范围内相同
    }
gate-cache-one-arm = 只有一组报告了前缀缓存命中：无法比较缓存状态
gate-single-run = 单次运行，配置本身的影响与运行间噪声无法区分
gate-one-arm-single = { $arm ->
        [base] 基线
       *[cand] 候选
    }组只有一次运行，运行间噪声只在另一组的 { $runs } 次运行上测得
gate-drift = 前后两次基线运行的 P50 TTFT 相差 { $percent } %
gate-run-spread = 同一组内各次运行的 P50 TTFT 最多相差 { $spread } %，两组相差 { $change } %{ $as_much ->
        [yes] ：同一配置的各次运行之间，差异与两种配置之间一样大
       *[no] {""}
    }
manifest-absent = （未设置）

## 有效性门槛在句中的名称（`$gate` 为把 "." 换成 "-" 的门槛名；steady_state 另带运行名 `$run`）。
gate-name = { $gate ->
        [same_workload-input_lengths] 输入长度一致
        [same_workload-output_lengths] 输出长度一致
        [same_workload-arrival] 到达方式一致
        [what_changed] 单一变更
        [steady_state] 稳态（{ $run }）
        [cache_state] 前缀缓存状态
        [replication] 重复运行
        [run_spread] 组内运行离散
        [drift] 基线漂移
       *[other] { $name }
    }

## 纯文本输出（`credence compare`、`credence baseline check`）的小节标题和干净窗口各行。
text-clean-title = 干净窗口（基线排除 { $base_s } s，占其窗口的 { $base_share } %；候选排除 { $cand_s } s，占 { $cand_share } %）：
text-gate-line = [{ $status }] { $gate }  { $reason }
text-what-changed = 变更项：
text-by-adapter = 按适配器：
text-environment = 实测环境（仅作背景，不是变更项）：
text-credibility = 可信度：{ $grade }。{ $summary }
text-baseline-drift = 警告：这些运行的配置与基线相同，但 { $metrics } 的变化超出了容差，说明基线本身已经漂移（环境、驱动或硬件）。
      提示：先找出原因；如果新的水平才是真实值，就重新保存基线。
