## `credence history`：标题句（决定退出码的判定）以及 Markdown 和 PDF 中的文字。
## 中文句子用指标的读法（P50 TTFT），不用标识符。

history-headline = { $parts }。
history-no-runs = 没有运行记录，无从判断。
history-regressions = 最新分段出现退化：{ $items }
# 英文用 first 决定首字母大写；中文没有大小写，两个分支相同。
history-drifts = { $first ->
       *[other] 持续向变差方向漂移且超出容差：{ $items }
    }
history-beyond = { $what }，超出 ±{ $tolerance } %
history-change = { $metric } 自第 { $index } 次运行（{ $run }）起变化 { $size }，{ $before } → { $after }
history-size = { $estimate } % [{ $low } %, { $high } %]
history-size-unknown = 变化幅度无法估计
history-level = { $value } { $unit ->
        [tokens_per_s] tokens/s
        [requests_per_s] req/s
        [percent] %
       *[ms] ms
    }
history-drift = { $metric } 在 { $runs } 次运行中共变化 { $total } %（每次运行 { $slope } %）
history-quiet-none = 最新分段没有退化，也没有超出容差的漂移：{ $runs } 次运行中，{ $metrics } 个指标均无变点
history-quiet-changes = 最新分段没有退化，也没有超出容差的漂移：最近的变点为 { $changes }{ $without ->
        [0] {""}
       *[other] ；另有 { $without } 个指标在 { $runs } 次运行中无变点
    }
history-change-verdict = { $change }（{ $verdict }）
history-verdict = { $verdict ->
        [regression] 退化
        [improvement] 改进
        [equivalent] 在容差内
       *[inconclusive] 无法判断
    }
history-exit = 退出码 { $code }（--fail-on { $asked }）

## 文档中的文字（Markdown 和 PDF）。
history-title = credence 历史趋势
history-subtitle = { $runs } 次运行，{ $configs } 种配置
history-intro = 共 { $runs } 次运行，{ $configs } 种配置，按{ $order ->
        [time] 开始时间
       *[given] 给定顺序
    }排列。变点检测：E-divisive 均值法加置换检验（显著性水平 { $significance }，置换 { $permutations } 次，种子 { $seed }，每段至少 { $min_runs } 次运行）。漂移：Mann–Kendall 检验（Hamed–Rao 修正）和 Sen 斜率，超出运行间噪声才判为变差或变好。估计值有置信区间的运行都进入该指标的序列，不论其可信度如何（低可信度的运行标记 ⚠）。没有置信区间的估计值（标记 †）照常列出，但不参与定义变点。
history-method = 变点检测：对每次运行的估计值取对数，再用 E-divisive 均值法加置换检验搜索变点（显著性水平 { $significance }，置换 { $permutations } 次，种子 { $seed }，每段至少 { $min_runs } 次运行）。变化幅度：对各段的运行做层次自助法（重抽样 { $resamples } 次，95 %）。漂移：Mann–Kendall 检验（Hamed–Rao 修正）和 Sen 斜率，超出运行间噪声才判为变差或变好。估计值有置信区间的运行都进入该指标的序列，不论其可信度如何。低可信度的运行显示为灰色（表中标记 ⚠）。没有置信区间的估计值（空心点，表中标记 †）不参与定义变点。阴影：配置变更之后的区段。
history-newest-label = 最新运行
history-newest-run = { $run }（#{ $index }）：
history-newest-quiet = 所有指标的最新分段相对前一分段均无退化。
history-newest-regression = 退化
history-newest-items = ：{ $items }。
history-since = { $metric } 自第 { $index } 次运行起变化 { $change }
history-h-trends = 趋势
history-h-change-points = 变点
history-h-drift = 漂移
history-h-breaks = 配置变更
history-h-configurations = 配置
history-h-runs = 运行
history-no-change-points = 无：在该显著性水平下，各序列只有噪声。
history-no-drift = 没有显著漂移{ $few ->
        [0] {""}
       *[other] （有 { $few } 个序列中带置信区间的运行太少，无法检验）
    }。
history-breaks-note = 新配置开始一个新序列；配置变更处的跃变不作判断。
history-runs-note = 列出最新的 { $shown } 次运行；更早的 { $older } 次运行见 JSON。
history-col-metric = 指标
history-col-index = #
history-col-from-run = 起始运行
history-col-before = 变化前
history-col-after = 变化后
history-col-change = 变化（95 % 置信区间）
history-col-tolerance = 容差
history-col-verdict = 判定
history-col-p = p
history-col-configuration = 配置
history-col-runs = 运行次数
history-col-slope = 斜率
history-col-over-series = 整个序列
history-col-noise = 噪声
history-col-direction = 方向
history-col-p-mk = p（Mann–Kendall）
history-col-from = 变更前
history-col-to = 变更后
history-col-fingerprint = 指纹
history-col-run = 运行
history-col-start = 开始时间
history-col-config = 配置
history-col-grade = 可信度
history-col-from-index = 起始 #
history-col-to-index = 结束 #
history-runs-count = { $value }（{ $runs } 次运行）
history-per-run = 每次运行 { $slope } %
history-within-segments = { $slope }（分段内）
history-direction = { $direction ->
        [worse] 变差
        [better] 变好
        [within_noise] 在噪声内
       *[other] {""}
    }
history-table-verdict = { $verdict ->
        [regression] 退化
        [improvement] 改进
        [equivalent] 在容差内
       *[inconclusive] 无法判断
    }
history-unknown = 未知
history-na = 无
history-chart-caption = { $metric }：每次运行的估计值及 95 % 置信区间
history-chart-x = 运行（在序列中的位置）
history-footer = credence { $version } · 历史趋势
