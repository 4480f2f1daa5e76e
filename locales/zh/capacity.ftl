## A capacity search (`bench --find-capacity`): its progress lines, its headline (page 1, the
## terminal, the Markdown and HTML) and its table. Loads are offered requests/s or clients.

capacity-unit = { $unit ->
        [concurrency] 个客户端
       *[rate] req/s
    }
capacity-outcome = { $outcome ->
        [met] 满足全部目标
        [violated] 超出某个目标
        [overloaded] 过载（队列持续增长）
       *[undecided] 置信区间无法判定
    }
capacity-objective = { $key } { $value }，阈值 { $threshold } ms：{ $verdict ->
        [met] 达标
        [violated] 未达标
       *[undecided] 无法判定
    }
capacity-step = 容量：第 { $step } 档，{ $load } { $unit }：{ $outcome }；{ $objectives }；区间 [{ $low }, { $high }]
capacity-budget = 容量：时间或档数预算已用完，区间尚未缩小到所需精度。置信区间反映的是目前达到的精度。
## The headline: the capacity with its interval and what limits it, or why there is no number.
capacity-found = 满足 { $slo } 的容量：{ $capacity } { $unit }，受限于{ $limited }{ $saturation }
capacity-limited = { $limited ->
        [overload] 过载（任何目标失效之前队列已开始增长）
       *[other] { $metric }
    }
capacity-saturation = ；饱和时的请求吞吐量为 { $throughput } req/s
capacity-no-saturation = ；没有一档使服务端过载（未达到饱和）
capacity-below = 满足 { $slo } 的容量：低于所试最低负载（{ $lowest } { $unit }）：该负载下目标已失效。请降低起始负载，或放宽目标。
capacity-above = 满足 { $slo } 的容量：高于所试最高负载（{ $highest } { $unit }）：该负载下目标仍然满足。
capacity-undecided = 满足 { $slo } 的容量：无法判定：预算之内没有一档能相对目标作出判定。
## The table's columns and a step's result.
capacity-col-load = 给定负载
capacity-col-outcome = 结果
capacity-col-throughput = 完成 req/s
capacity-col-goodput = 有效吞吐 req/s
capacity-title = 容量搜索
capacity-slo-item = { $metric } ≤ { $threshold } ms
capacity-short-steps = 容量：交点以下没有一档被判定为满足目标（请求太少，分位数没有上界），因此置信区间没有下限。请延长每档时长（--max-step-duration；或去掉 --duration，每档将运行到可以判定为止）。
## Two capacity searches compared (`report --base A --cand B`, `compare --base A --cand B`):
## the candidate's capacity relative to the base's, with its interval, and the verdict.
capacity-compare = 满足 { $slo } 的容量：{ $change }（候选 { $cand }，基线 { $base } { $unit }）：{ $verdict }
capacity-compare-verdict = { $verdict ->
        [improvement] 提升，超出 ±{ $tolerance } %
        [regression] 退化，超出 ±{ $tolerance } %
        [equivalent] 在 ±{ $tolerance } % 之内相当
       *[undecided] 相对 ±{ $tolerance } % 无法判定：延长每档时长或提高 --precision 可缩小置信区间
    }
capacity-compare-not-comparable = 满足 { $slo } 的容量：无法比较：{ $why ->
        [different] 两次搜索的目标或负载参数不同
       *[no_capacity] 有一次搜索没有得出容量（低于最低负载、高于最高负载，或无法判定）
    }
## A search without a capacity, in its table cell: below or above the loads tried.
capacity-short = { $finding ->
        [below] 低于 { $load }
        [above] 高于 { $load }
       *[undecided] 无法判定
    }
capacity-col-arm = 搜索
capacity-col-capacity = 容量
capacity-col-limited = 受限于
capacity-col-saturation = 饱和请求吞吐量 req/s
capacity-col-steps = 档数
capacity-arm = { $arm ->
        [base] 基线
       *[cand] 候选
    }
