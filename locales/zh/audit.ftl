## 工具声称值核验：摘要、每项声称值的各列，以及数值一致或不一致的原因。definition 为导入器对该工具如何定义这一数值的说明。

audit-summary = { $source }共有 { $claims } 项工具声称值。其中 { $reproduced } 项已复现（{ $raw } 项用该工具的逐请求原始数据重算，{ $summary } 项只与其汇总文件交叉核对），{ $differ } 项不一致，{ $unchecked } 项无法核对。
audit-summary-cut = 表中列出其中 { $shown } 项：先列全部不一致的声称值，再列主要的延迟和速率；JSON 报告列出全部 { $claims } 项。
audit-verdict = { $verdict ->
        [reproduced] 已复现
        [differs] 不一致
       *[other] 无法重算
    }
audit-recomputed = { $value }（{ $from ->
        [summary] 汇总文件
       *[raw] 原始数据
    }）
audit-credence-interval = { $value } [{ $low }, { $high }]
audit-credence-point = ~{ $value }（无置信区间）
audit-credence-none = 无：{ $note }
audit-credence-noted = { $cell }；{ $note }
audit-reproduced-summary = 汇总文件与明细日志给出相同的数值；没有可供重算的逐请求数据
audit-reproduced-raw = 汇总值与该工具自身的原始数据一致
audit-differs-summary = 汇总文件给出 { $value }：该工具的两个文件不一致（舍入，或来自不同的运行）
audit-differs-raw = 汇总值与该工具的原始数据不一致（重算值 { $value }）：百分位定义不同，或汇总前过滤了部分记录
audit-no-raw = 文件中没有这一数值背后的原始数据{ $definition }
audit-no-raw-definition = ：{ $definition }
audit-credence-differs = { $reason }；credence 的稳态值相差 { $by } %{ $why }
audit-why-list = （{ $items }）
audit-definition = { $definition }
audit-why = { $why ->
        [dropped] credence 舍弃了 { $warmup } 个预热请求和 { $ramp_down } 个收尾段的请求，该工具使用了全部请求
        [tail] 均值和标准差受长尾牵动；credence 的主要指标是百分位数
        [itl-chunk] 此处的 ITL 按流式数据块计算，而非按 token
        [tpot-definitions] 各工具的 TPOT 定义不同（逐请求平均或合并全部间隔）
        [not-anchored] 时间未锚定到挂钟时间
       *[few-tail] 尾部百分位数的样本很少
    }
audit-metric-words = { $metric ->
        [service] 结束时刻减去计划发送时刻
        [send_lag] 实际发送时刻减去计划发送时刻
        [ttfot] 第一个输出 token 的时刻减去发送时刻
       *[other] 首个 token 之后逐请求的平均间隔
    }
audit-note = { $note ->
        [descriptive] 稳态窗口的{ $stat_word }（描述性统计，credence 不给出置信区间）
        [estimated-as] credence 的 { $as }：{ $words }
        [no-chunk-times] { $source } 不保存数据块时间：无法计算逐 token 的 ITL；它的 ITL 是逐请求的平均间隔，与 credence 的 TPOT 对比
        [no-schedule] 文件中没有计划发送时间：credence 无法计算发送延迟和从计划时间起算的延迟
        [successful-only] credence 只估计成功请求的 { $metric }
        [not-estimated] credence 不估计 { $metric }
        [window-dependent] 计数或总量取决于窗口：credence 报告速率和百分位数
        [one-rate] credence 把 { $metric } 估计为稳态窗口内的一个速率（带置信区间），不给出瞬时速率的分布
        [not-described] credence 不给出 { $metric } 的最小值、最大值或标准差，只描述 TTFT、TPOT 和 E2E 的分布
        [stat-not-computed] credence 不计算这一统计量（{ $stat }），只报告百分位数和均值，各带置信区间
        [needs-slo] credence 的有效吞吐只计入满足目标的请求：请用 --slo 给出该工具的阈值后再审计（例如 vLLM 的 `--goodput ttft:500` 对应 `--slo ttft_p99=500ms`）
       *[no-steady-value] 没有稳态值：稳态窗口内的数值过少，或没有稳态窗口
    }
audit-stat = { $stat ->
        [min] 最小值
        [max] 最大值
       *[other] 标准差
    }

## 表中声称值的名称：工具的键，以及 credence 对应的指标和统计量。
audit-claim = { $key }（{ $metric }，{ $stat }）
audit-claim-metric = { $metric ->
        [requests_per_s] 请求吞吐量
        [output_tokens_per_s] 输出 token 吞吐量
        [input_tokens_per_s] 输入 token 吞吐量
        [total_tokens_per_s] 总 token 吞吐量
        [goodput_per_s] 有效吞吐
        [ttft] TTFT
        [tpot] TPOT
        [itl] ITL
        [e2e] E2E
        [ttfot] 首个输出 token 延迟
        [service] 自计划发送起的 E2E
        [send_lag] 发送延迟
        [error_rate] 错误率
       *[other] { $metric }
    }
audit-claim-stat = { $stat ->
        [mean] 均值
        [value] 数值
        [median] 中位数
        [min] 最小值
        [max] 最大值
        [std] 标准差
        [std_sample] 样本标准差
        [variance] 方差
        [mode] 众数
        [count] 计数
        [sum] 总和
       *[other] { $percentile }
    }
