## The credibility checks (`credibility.checks[]`): one message per check, its outcome a
## selector. Written for the engineer who signs the report: the terms of GLOSSARY.md.

check-clocks-locked = { $status ->
    [pass] GPU 频率已锁定
   *[warn] GPU 频率未锁定：加速频率随温度和功耗浮动，会放大运行间差异
}
check-cpu-governor = { $status ->
    [pass] CPU 调频策略为“performance”
   *[warn] CPU 调频策略为“{ $governor }”：客户端频率调节会给延迟带来抖动
}
check-gpu-idle-and-cool = { $state ->
    [cool] 开始时 GPU 温度为 { $temp } °C，不在上一轮负载后的降温过程中
    [warm] 开始时 GPU 温度已达 { $temp } °C：上一轮负载的余热可能让本次运行降频
    [cooling] 开始时 GPU 温度为 { $temp } °C，且仍在降温：上一轮负载的余热可能让本次运行降频
   *[unknown] 未知：没有记录开始时的 GPU 温度
}
check-foreign-processes = { $n ->
    [0] 开始时 GPU 上没有其他计算进程
   *[other] 开始时 GPU 上有 { $n } 个其他计算进程：它们会争用算力和显存
}
check-page-cache = { $status ->
    [pass] 运行前已清空页缓存
   *[warn] 未清空页缓存：模型和数据的加载可能比冷启动时更快
}
check-prefix-cache-reset = { $status ->
    [pass] 运行前已清空前缀缓存
   *[warn] 运行前未清空前缀缓存：之前运行预热的缓存会使 TTFT 偏低（可加 `--reset-prefix-cache`）
}
check-server-restarted = { $status ->
    [pass] 运行前已重启服务
   *[warn] 服务未重启：之前运行留下的前缀缓存可能使 TTFT 偏低
}

check-steady-state = { $outcome ->
    [reached] 已进入稳态；去掉开头 { $warm_s } s（{ $warm_n } 个请求）{ $tail_n ->
        [0] {""}
       *[other] 和 { $tail_s } s 的收尾段（{ $tail_n } 个请求）
    }后，测量窗口为 { $start } s 至 { $end } s
    [shifted] 运行中性能水平发生了偏移；去掉开头 { $warm_s } s（{ $warm_n } 个请求）{ $tail_n ->
        [0] {""}
       *[other] 和 { $tail_s } s 的收尾段（{ $tail_n } 个请求）
    }后，测量窗口为 { $start } s 至 { $end } s
    [none] 未进入稳态：性能水平持续变化，无法用单个数值描述本次运行
    [overloaded] 未进入稳态：给定负载超过服务端的完成能力，队列持续增长，延迟反映的是排队时间
   *[no_timestamps] 数据源没有逐请求时间戳，无法检查稳态
}

check-sample-size = { $status ->
    [pass] P99 TTFT 以上的尾部有 { $beyond } 个有效观测（至少需要 10 个）
   *[fail] P99 TTFT 以上的尾部仅有 { $beyond } 个有效观测，少于所需的 10 个，因此 P99 TTFT 无法给出置信区间；请延长运行时间或增加运行次数
}

check-dependence = { $outcome ->
    [trend] 测量窗口内仍有残余趋势（Mann–Kendall 检验）；{ $measured }
    [few] { $measured }。置信区间已计入请求间的相关性，但独立观测偏少（有效观测少于 { $n_eff_warn } 个或设计效应高于 { $deff_warn } 即给出警告）；请延长运行，或找出请求相关的原因
    [replicated] { $measured }；置信区间已计入请求间的相关性。重复运行达到 { $replicated } 次及以上时，区间由运行间的离散决定
    [ok] { $measured }；置信区间已计入请求间的相关性
   *[no_values] 没有 TTFT 数据
}
dependence-measured = TTFT 的设计效应为 { $deff }{ $clean ->
        [yes] （干净窗口）
       *[no] {""}
    }，{ $n } 个请求相当于 { $n_eff } 个有效观测

check-client-saturation = { $status ->
    [fail] 测量窗口内出现{ $findings }：延迟含客户端自身的延迟，给定负载也没有全部发出
   *[pass] 压测客户端跟上了发送计划（CPU、发送延迟和实际速率均正常）
}
check-throttling = { $status ->
    [fail] 测量窗口内出现{ $findings }
    [warn] 出现{ $findings }：只能与相同功耗上限下的运行比较
   *[pass] 测量窗口内没有降频原因，负载下时钟也没有下降
}
check-interference = { $status ->
    [pass] 测量窗口内没有其他 GPU 进程、显存压力、网络或主机问题
   *[found] 测量窗口内出现{ $findings }
}

check-error-rate = { $requests } 个请求中有 { $errors } 个失败（{ $percent } %）

check-interval-width = { $status ->
    [pass] 主要指标的置信区间均在 ±{ $limit } % 以内：{ $items }
   *[warn] 置信区间过宽或无界：{ $items }
}
interval-half-width = { $label } ±{ $percent } %
interval-unbounded = { $label }无界
## The headline intervals' names.
headline-label = { $metric ->
    [throughput] 请求吞吐量
    [ttft_p50] P50 TTFT
    [ttft_p99] P99 TTFT
   *[tpot_p50] P50 TPOT
}

check-data-quality = { $status ->
    [pass] 共 { $total } 个请求，其中 { $missing } 个没有 TTFT（含失败请求）
   *[warn] 测量窗口内有 { $ok_missing } 个成功请求缺少 TTFT
}

check-source-limits = { $status ->
    [pass] 数据源记录了 credence 用到的全部时间点
   *[limited] { $limits }
}
source-limit = { $limit ->
    [no_timestamps] 没有逐请求时间戳（无法检查稳态、漂移等依赖时间的项目）
    [no_schedule] 没有计划发送时间（无法衡量协调遗漏）
   *[no_chunks] 没有逐块时间（无法计算 ITL）
}

check-unexplained-anomalies = { $status ->
    [pass] 测量窗口内的异常均已找到原因，或没有异常
    [no_timestamps] 数据源没有逐请求时间戳，无法按时间寻找异常
   *[warn] 未找到原因的异常：{ $items }
}
anomaly-span = { $series } { $start }–{ $end } s

## 用 --server-metrics 要求的服务端指标是否记录下来；$kinds 按类别列出失败的采集（scrape-failure）。
check-prompt-lengths = { $status ->
    [pass] 服务端按构造长度计数：构造 { $intended } 个 token，计为 { $server } 个（中位数，相差 { $difference } %）
    [warn] 构造 { $intended } 个 token，服务端计为 { $server } 个（中位数，相差 { $difference } %）。服务端的分词器或对话模板与构造时所用的不同，实际负载不是要求的负载
   *[not_checked] 提示词不是按分词器构造的
}
check-server-metrics = { $status ->
    [none] 对 { $endpoint } 的 { $attempts } 次采集全部失败（{ $kinds }）：服务端的队列和缓存没有观测数据
    [gaps] 对 { $endpoint } 的 { $attempts } 次采集中有 { $failed } 次失败（{ $kinds }）：服务端指标有缺口
    [pass] 对 { $endpoint } 采集 { $attempts } 次，{ $failed } 次失败
   *[not_asked] 未采集服务端指标
}
scrape-failure = { $kind ->
    [refused] 无法连接
    [timeout] 超时
    [http_status] HTTP 错误
   *[unparseable] 无法解析
} { $count } 次

check-replication = { $k ->
    [0] 只有一次运行：配置本身的影响与运行间噪声无法区分；请至少重复运行 3 次
    [1] 只有一次运行：配置本身的影响与运行间噪声无法区分；请至少重复运行 3 次
    [2] 只有 2 次运行：不足以可靠估计运行间噪声，需要 3 次或更多
   *[other] 该配置共运行 { $k } 次
}

check-no-runs = 没有运行
