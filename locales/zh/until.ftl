## `bench --until`: how the run ended, on page 1 (`run.stop` in the analysis).
until-stopped = 于 { $at } s 停止{ $warmup }{ $excluded }：{ $reason }；{ $targets }
## Why the run stopped (`phases.stop.reason`).
until-reason = { $reason ->
        [targets_met] 所有目标均已达到
        [decided] 每个目标都已相对其阈值判定
        [error_rate] 错误率超过上限
        [client_saturated] 压测客户端跟不上发送计划
        [overloaded] 服务端过载：给定负载超过其完成能力，队列持续增长
        [no_steady_state] 时间上限内未进入稳态
        [unreachable] 时间上限内无法达到某个目标
        [interrupted] 被中断
        [workload_end] 负载先行结束（所有会话已完成，或轨迹的最后一条记录已发出）
       *[max_duration] 先到达时间上限
    }
## A replayed trace stopped early (`config.extra.trace_replayed`, and stderr).
until-trace-replayed = 轨迹 { $total } 条记录中的前 { $n } 条（轨迹的前 { $seconds } s）
until-warmup = （预热 { $warmup } s 之后）
until-target = { $metric } ±{ $width } %（目标 { $goal } %）
until-target-open = { $metric } 无界（目标 { $goal } %）
until-excluded = （已剔除{ $causes }时段，共 { $seconds } s）

## The live view of `bench --until` (stderr): a head line, one line per target, the client,
## one line per GPU. On a terminal they refresh in place; in a CI log they come joined by " | ".
live-head = --until · { $t } s · { $phase } · { $requests } 个请求，{ $errors } 个错误 · { $eta }{ $stopping }
live-phase = { $phase ->
        [warming_up] 预热中
        [pilot] 自 { $since } s 起稳态，试测
        [measuring] 自 { $since } s 起稳态
        [unsettled] 本次检查稳态不确定
       *[episode] 异常时段：{ $causes }，已剔除
    }
live-eta = 预计还需 { $eta } s
live-eta-unknown = 预计时间未知
live-stopping = {" "}· 停止：{ $reason }
live-target = { $metric } { $value } { $width }（目标 { $goal } %）{ $met }
live-threshold = { $metric } { $value } [{ $low }, { $high }] ms，阈值 { $threshold } ms：{ $verdict ->
        [met] 达标
        [violated] 未达标
       *[undecided] 尚无法判定
    }
live-width = ±{ $width } %
live-width-open = ±?
live-met = {" "}✓
live-client = 客户端：{ $rate } · { $in_flight } 个在途 · P99 发送延迟 { $lag } · CPU { $cpu }{ $behind }
live-rate-open = 实际 { $achieved }/s，计划 { $offered }/s
live-rate-closed = 实际 { $achieved }/s（闭环）
live-behind = {" "}· 落后于发送计划
live-gpu = GPU { $index }：SM 时钟 { $clock } · { $temp } · { $power }
live-clock-of = { $clock } / { $max } MHz
live-clock = { $clock } MHz
live-na = 无

## `bench --repeat`: the series' progress lines.
series-run = --repeat：第 { $run } 次运行，{ $most ->
        [auto] 最多 { $max } 次
       *[fixed] 共 { $max } 次
    }
series-run-unmet = --repeat：第 { $run } 次运行未达到目标即停止（{ $reason }）；--repeat auto 到此结束
series-across = --repeat：{ $runs } 次运行之间：{ $targets }
until-target-met = { $target }{ $met }
