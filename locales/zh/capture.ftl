## 没有运行记录的报告的可信度：单独审计的 GPU 采集，或单独的工具汇总文件。各项检查的原因和可信度陈述。

capture-needs-requests = { $check ->
        [steady_state] 需要随时间变化的逐请求延迟；GPU 采集中没有
        [sample_size] 没有记录请求，因此没有可供界定的延迟百分位数
        [dependence] 没有可用于度量相关性的请求延迟
        [client_saturation] 需要压测客户端的 CPU、发送延迟或计划发送时间；采集中只有 GPU 计数器
        [interference] 需要按进程的 GPU 数据或主机与网络计数器；采集中两者都没有
        [error_rate] 没有记录请求，因此没有错误率
        [interval_width] 没有可给出置信区间的延迟或请求吞吐量统计量
        [attribution] 没有请求时间线：无法把异常时段与延迟或请求吞吐量的变化联系起来
       *[replication] 只有一次 GPU 计数器采集；运行间噪声需要重复压测才能测量
    }
capture-telemetry-only = 仅有 GPU 遥测：没有记录任何请求，这些文件无法测量或核对延迟、请求吞吐量和错误率
capture-data = { $gpus ->
       *[other] { $gpus } 块 GPU 的 { $samples } 个样本，共 { $seconds } s，采样间隔中位数 { $interval } s
    }{ $gaps ->
        [0] ；没有超过 3 个采样间隔的缺口
       *[other] ；有 { $gaps } 处缺口超过 3 个采样间隔：缺口内的异常时段无法看到
    }
capture-no-gpu-loaded = 没有 GPU 处于负载下（利用率 ≥ { $threshold } %）：采集中看不到任何负载{ $aside }
capture-gpus-loaded = { $gpus } 块 GPU 中有 { $loaded } 块处于负载下（利用率 ≥ { $threshold } %）：{ $names }{ $aside }
capture-set-aside = ；未纳入分析：{ $items }
capture-gpu-reason = { $gpu }（{ $reason }）
capture-episode = { $gpu } { $reason } { $start }–{ $end } s（{ $seconds } s）
capture-throttling-none-looked = 没有处于负载下且带 SM 时钟或时钟事件原因的 GPU
capture-basis = { $bits ->
        [yes] 依据时钟事件原因位，缺失处依据 SM 时钟
       *[no] 仅依据 SM 时钟和功耗：未采集时钟事件原因，时钟下降的原因可能不明
    }
capture-throttling-faults = { $faults }：时钟被强制降低（DCGM 的故障原因）；其间测得的数值反映的是降频后的 GPU{ $rest }（{ $basis }）
capture-throttling-also = ；另有 { $others }
capture-throttling-limits = { $others }：只应与相同功耗上限和散热条件下的运行比较（{ $basis }）
capture-throttling-clear = 负载下没有降频、功耗受限时段或时钟下降（{ $basis }）
capture-clock-none = 没有处于负载下且 SM 时钟样本足够（需要 10 个）的 GPU
capture-clock-gpu = { $gpu } 变异系数 { $cv } %，负载时间的 { $fallen } % 低于其最高时钟（{ $max } MHz）的 90 %
capture-clock = { $gpus }（稳定标准：变异系数 ≤ { $cv } %，且低于最高时钟 90 % 的负载时间 ≤ { $fallen } %）
capture-claims = { $claims } 项工具声称值中有 { $checked } 项已在该工具自身的文件之间交叉核对，{ $differ } 项不一致；没有逐请求数据，任何一项都无法重算
capture-claims-none = 文件中没有可供核对的工具汇总数值
capture-quantity = { $quantity ->
        [sm_clock] SM 时钟
        [power] 功耗
        [temperature] 温度
        [utilization] 利用率
       *[clock_event_reasons] 时钟事件原因
    }
capture-statement = 作为压测结果的可信度：{ $grade }。{ $source } 只有 GPU 遥测，没有请求记录。它展示了 { $gpus ->
       *[other] { $gpus } 块 GPU
    } 在 { $seconds } s 内的运行情况（{ $quantities }）。它无法展示延迟、请求吞吐量、错误率、稳态或工具声称值，也无法把异常时段与延迟或请求吞吐量的变化联系起来，因此这些检查均为“未检查”。{ $loaded ->
       *[other] { $loaded } 块 GPU
    } 处于负载下（利用率 ≥ { $threshold } %）；{ $aside ->
       *[other] { $aside } 块
    }未纳入分析。{ $episodes }
capture-episodes-found = 负载下的异常时段：{ $items }。
capture-episodes-no-load = 没有 GPU 处于负载下，因此没有查找异常时段。
capture-episodes-not-looked = 负载下的 GPU 都没有 SM 时钟或时钟事件原因，因此无法查找异常时段。
capture-episodes-clear = 负载下没有发现降频、功耗受限时段或时钟下降。
capture-summary-only = 文件中只有汇总统计量：无法重算任何百分位数、置信区间或稳态
capture-fact = { $name }：{ $status }（{ $reason }）。
capture-aggregate-statement = 可信度：低。{ $source } 没有逐请求数据，因此其数值都无法重算或给出置信区间；其 { $claims } 项工具声称值中有 { $checked } 项可以在该工具自身的文件之间交叉核对。{ $facts }
