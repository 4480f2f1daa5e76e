## 负载扫描：可信度陈述（取最弱一档）以及曲线说明了什么。速率为各档给定的 requests/s。

sweep-statement = 负载扫描共 { $steps } 档，可信度取最弱的一档（给定速率 { $offered } req/s）：{ $statement }
sweep-summary = { $sentences }
sweep-range = 共 { $steps } 档，给定速率 { $from } 至 { $to } req/s。
sweep-kept-up-throughout = 每一档的实际速率都跟上了给定速率（≥ 95 %），直到 { $top } req/s：负载扫描没有达到饱和。
sweep-kept-up-until = 实际速率在 { $top } req/s 以内跟上了给定速率（≥ 95 %）；超过此值后系统饱和，或压测客户端接近自身极限。
sweep-fell-short = 从第一档起实际速率就低于给定速率（< 95 %，超出其置信区间），或压测客户端接近自身极限。
sweep-ttft-tail = P99 TTFT 从 { $from_rate } req/s 时的 { $from } ms 变为 { $to_rate } req/s 时的 { $to } ms。
sweep-client-limited = 在 { $rates } req/s 时压测客户端接近自身极限：这些点测到的既有服务端也有客户端。
sweep-stopped-early = 负载扫描在最后一个计划档位之前停止。
sweep-grade = { $grade }{ $client ->
        [yes] （客户端受限）
       *[no] {""}
    }
