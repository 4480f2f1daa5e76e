## 发现的证据：某一时段内的峰值（key 为分析 JSON 中的名称，v 为数值，kind 为 errors_<kind> 的错误类型）。

peak = { $key ->
        [sm_clock_drop_share] SM 时钟比负载下的常态水平降低 { $v } %
        [temp_max_c] 温度最高 { $v } °C
        [thermal_violation_s] 热限制累计 { $v } s
        [power_share_of_limit_max] 功耗最高达到功耗上限的 { $v } %
        [memory_used_share_max] GPU 显存占用最高 { $v } %
        [preemptions] 抢占 { $v } 次
        [foreign_processes_max] 其他计算进程 { $v } 个
        [foreign_memory_gib_max] 其他进程占用显存 { $v } GiB
        [lg_cpu_pct_max] 压测客户端 CPU 最高占单核的 { $v } %
        [lg_thread_pct_max] 压测客户端最忙线程最高 { $v } %
        [send_lag_p99_ms_max] P99 发送延迟最高 { $v } ms
        [send_lag_gaps_max] 最多落后发送计划 { $v } 个发送间隔
        [achieved_share_min] 实际发送速率最低为计划速率的 { $v } %
        [retransmit_ratio_max] TCP 重传率最高 { $v } %
        [interface_errors] 网卡错误 { $v } 个
        [interface_drops] 网卡丢包 { $v } 个
        [listen_overflows] 监听队列溢出 { $v } 次
        [cpu_steal_pct_max] CPU 被宿主机占用最高 { $v } %
        [samples_not_performance_governor] { $v } 个采样的 CPU 调频策略不是 performance
        [waiting_requests_max] 排队请求最多 { $v } 个
        [kv_cache_used_share_max] KV 缓存占用最高 { $v } %
        [error_share_max] 每窗口失败请求最高占 { $v } %
        [send_rate_share_min] 发送速率最低降至稳态水平的 { $v } %
       *[errors] { $kind } 错误 { $v } 个
    }

evidence-episode = { $source }：{ $start } s 至 { $end } s{ $peaks }
evidence-peaks = ，{ $items }
evidence-effect = 时段内的 { $metric } 相对测量窗口其余部分变化 { $change }{ $interval }
evidence-change = { $unit ->
        [percent] { $value } %
        [points] { $value } 个百分点
       *[other] { $value } { $unit }
    }
evidence-interval = {" "}[{ $low }, { $high }]
evidence-overload = 给定 { $offered }/s，成功完成 { $completed }/s；未得到服务 { $unserved }/s [{ $low }, { $high }]（在途请求每秒增加 { $growth } 个，超时或取消 { $shed }/s；在途最多 { $max } 个）：该速率下不存在稳态；请降到约 { $completed }/s 以下
evidence-consequence = 后果：{ $start } s 至 { $end } s，{ $cause }（{ $items }）
evidence-drift-source = 稳态检测器：{ $trend }
evidence-drift-source-bare = 稳态检测器
steady-trend = p = { $p }，窗口内 Sen 斜率 { $drift } %（漂移上限 ±{ $limit } %），{ $windows } 个 { $window } s 窗口
steady-whole-run-trend = { $series } 在整个运行中持续变慢：{ $drift } %（p = { $p }）
method-name = { $method ->
        [cluster_bootstrap_5s_groups] 按 5 s 分组的整群自助法
        [hierarchical_bootstrap] 层次自助法
        [t_over_runs_pooled_between_run_variance_block_bootstrap_within] 运行间合并方差的 t 区间加运行内块自助法
        [t_over_runs_pooled_between_run_variance_within_from_each_runs_interval] 运行间合并方差的 t 区间，运行内方差取自各次运行的置信区间
       *[other] { $method }
    }
effect-sampled = 按每 { $every } 个请求系统抽样 1 个计算
effect-few-groups = 时段内外分别只有 { $inside } 个和 { $outside } 个 5 s 分组：无置信区间
## Where an episode was seen, when credence names the series (a device keeps its own name).
source-requests = 请求
source-schedule = 请求（计划发送时刻与实际发送时刻对比）
source-loadgen = { $host } 上的压测客户端
