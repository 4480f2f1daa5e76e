## The credibility statement (`credibility.statement`): page 1's paragraph, one message per
## sentence, each present only when it says something.

stmt-measured = 可信度：{ $grade }。{ $k ->
        [1] 本次为单次运行
       *[other] 共 { $k } 次运行
    }{ $timestamps ->
        [absent] ，测量了 { $measured } 个请求。数据源没有逐请求时间戳，因此无法检查预热、稳态和漂移，全部请求都计入结果。
        [overloaded] 。给定负载超过了服务端的完成能力，队列在运行中持续增长，因此不存在稳态。分析窗口内有 { $measured } 个请求，它们的延迟反映的是排队，而不是服务端本身。
       *[present] ：舍弃开头 { $warm_s } s 的预热（{ $warm_n } 个请求）{ $tail_n ->
            [0] {""}
           *[other] 和 { $tail_s } s 的收尾段（{ $tail_n } 个请求）
        }后，在 { $seconds } s 的稳态窗口内测量了 { $measured } 个请求。
    }

stmt-clean = { $several ->
        [yes] 运行 { $run }：
       *[no] {""}
    }干净窗口（{ $seconds } s，{ $requests } 个请求）内，P50 TTFT 为 { $p50_clean }，P99 TTFT 为 { $p99_clean }。实测（含全部窗口）P50 TTFT 为 { $p50 }，P99 TTFT 为 { $p99 }。已排除 { $excluded_s } s（{ $excluded_n } 个请求，占稳态窗口的 { $excluded_pct } %），原因：{ $causes }。
stmt-cause-seconds = { $cause }（{ $seconds } s）
quoted-ms = { $kind ->
        [bounded] { $x } [{ $lo }, { $hi }] ms
        [lower] ~{ $x } ms（≥ { $lo }，数据不足）
        [point] ~{ $x } ms（数据不足）
        [beyond] > { $lo } ms（超过超时时间）
       *[none] 无法测量
    }

## `$condition` 为 measured 时，前一句已给出干净窗口的数值：这几句说的是含全部窗口的实测值。
stmt-widths = { $condition ->
        [measured] 实测的 95 % 置信区间半宽：{ $items }。
       *[all] 95 % 置信区间的半宽：{ $items }。
    }
stmt-unbounded = { $condition ->
        [measured] 实测的 { $items } 在现有数据量下无法给出有界区间，不能作为数值引用。
       *[all] { $items } 在现有数据量下无法给出有界区间，不能作为数值引用。
    }
stmt-short-tails = { $condition ->
        [measured] 实测的 { $items } 样本过少，无法给出区间。报告中只给出近似值（~）和可确认的下界（如有），并标为“数据不足”，不能作为数值引用。
       *[all] { $items } 的样本过少，无法给出区间。报告中只给出近似值（~）和可确认的下界（如有），并标为“数据不足”，不能作为数值引用。
    }
tail-label = { $p } { $metric }

stmt-env-failed = 未通过的环境检查：{ $items }。
stmt-env-failed-item = { $item }（{ $bias }）
stmt-env-unknown = 以下环境项情况未知：{ $items }。它们可能带来的偏差无法排除。
stmt-env-passed = 环境检查全部通过。
## An environment check's name (the part after `environment.`), and what its failure can do.
env-item = { $item ->
        [clocks_locked] GPU 锁频
        [cpu_governor] 客户端 CPU 调频策略
        [gpu_idle_and_cool] 开始时 GPU 空闲且已冷却
        [no_foreign_gpu_processes] GPU 上无其他计算进程
        [page_cache] 页缓存已清空
        [prefix_cache_reset] 前缀缓存已清空
       *[server_restarted] 服务已重启
    }
env-bias = { $item ->
        [clocks_locked] 未锁频时结果随温度和功耗浮动
        [cpu_governor] 客户端调频会给延迟带来抖动
        [gpu_idle_and_cool] 开始时 GPU 较热或繁忙，可能过早降频
        [no_foreign_gpu_processes] 其他进程会争用 GPU
        [page_cache] 页缓存未清空会让加载时间偏短
        [prefix_cache_reset] 之前运行预热的前缀缓存会让 TTFT 偏低
       *[server_restarted] 服务端缓存未清空会让 TTFT 偏低
    }

stmt-failed = 未通过的检查：{ $items }。
stmt-failed-item = { $check }（{ $reason }）

stmt-caution = 需谨慎对待：{ $items }。
caution-single-run = 与另一次单次运行的比较（运行间噪声未测量）
caution-findings = { $findings }时段内的数值
caution-warned = 依赖{ $checks }的判断
## A check's name in running text (`$check` is its name with "." as "-").
check-name = { $check ->
        [steady_state] 稳态
        [sample_size-ttft_p99] P99 TTFT 样本量
        [dependence] 请求间相关性
        [client_saturation] 压测客户端饱和
        [throttling] 降频
        [interference] 干扰
        [error_rate] 错误率
        [interval_width] 置信区间宽度
        [data_quality] 数据质量
        [source_limits] 数据源限制
        [unexplained_anomalies] 无法解释的异常
        [replication] 重复运行
        [attribution] 归因
        [server_metrics] 服务端指标
        [per_request_data] 逐请求数据
        [gpu_telemetry] GPU 遥测
        [gpus_under_load] 负载下的 GPU
        [clock_stability] 时钟稳定性
        [claims] 工具声称值
        [environment-clocks_locked] GPU 锁频
        [environment-cpu_governor] 客户端 CPU 调频策略
        [environment-gpu_idle_and_cool] 开始时 GPU 空闲且已冷却
        [environment-no_foreign_gpu_processes] GPU 上无其他计算进程
        [environment-page_cache] 页缓存已清空
        [environment-prefix_cache_reset] 前缀缓存已清空
        [environment-server_restarted] 服务已重启
        [prompt_lengths] 提示词长度
       *[other] { $style ->
            [spaced] { $spaced }
           *[raw] { $name }
        }
    }
