## `bench --until`: how the run ended, on page 1 (`run.stop` in the analysis).
until-stopped = 于 { $at } s 停止{ $warmup }：{ $reason ->
        [targets_met] 所有目标均已达到
        [error_rate] 错误率超过上限
        [client_saturated] 压测客户端跟不上发送计划
        [no_steady_state] 时间上限内未进入稳态
        [unreachable] 时间上限内无法达到某个目标
        [interrupted] 被中断
       *[max_duration] 先到达时间上限
    }；{ $targets }
until-warmup = （预热 { $warmup } s 之后）
until-target = { $metric } ±{ $width } %（目标 { $goal } %）
until-target-open = { $metric } 无界（目标 { $goal } %）
