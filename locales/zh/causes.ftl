## The findings' causes: what each is called, and what to do about it. `$cause` is the
## cause's identifier in the JSON (`findings[].cause`).

cause-title = { $cause ->
    [overload] 服务端过载
    [thermal_throttle] GPU 过热降频
    [power_cap] GPU 受功耗上限限制
    [hw_power_brake] 外部触发的 GPU 硬件功耗制动
    [hw_slowdown] 非过热原因的 GPU 硬件降频
    [clock_change] 没有原因位的 GPU 时钟变化
    [memory_pressure] GPU 显存压力
    [foreign_process] GPU 上有其他进程
    [client_saturation] 压测客户端饱和
    [network] 网络重传或丢包
    [host] 主机 CPU 被抢占或调频策略不当
    [server_queueing] 请求在服务端排队
    [error_burst] 失败请求集中爆发
    [drift] 性能在运行中持续漂移
    [ramp_down] 给定负载在收尾段下降
    [cache_warming] 运行开始时前缀缓存为空
   *[other] 未知原因
}

cause-action = { $cause ->
    [overload] 在此给定速率下，服务端队列无限增长，不存在稳态。延迟反映的是排队时间（以及客户端超时），而不是服务端本身。请把速率降到服务端的完成速率以下，或用负载扫描找出其容量；不要引用本次运行的延迟。
    [thermal_throttle] 改善散热（风道、风扇、进风温度），直到 GPU 在负载下保持在降频温度以下；用 `nvidia-smi -lgc` 锁定时钟，使降频可见；然后重新测试。
    [power_cap] GPU 运行在功耗上限，时钟因此降低。这是正常运行，不是故障：只与相同功耗上限下的运行比较，或用 `nvidia-smi -pl` 提高上限，然后重新测试。
    [hw_power_brake] 电源触发了硬件功耗制动：检查电源、线缆和机柜功率预算；然后重新测试。
    [hw_slowdown] 检查 `nvidia-smi -q -d PERFORMANCE` 和板卡供电；然后重新测试。
    [clock_change] 负载下时钟发生变化，但没有降频原因：用 `nvidia-smi -lgc` 锁定时钟，并在重新测试前检查应用时钟。
    [memory_pressure] GPU 显存几乎占满（批次缩小、请求被抢占）：降低引擎的显存占比或最大批次，或释放其他进程占用的显存；然后重新测试。
    [foreign_process] 停止其他计算进程（`nvidia-smi --query-compute-apps=pid,name,used_memory --format=csv`），或为服务分配独占的 GPU；然后重新测试。
    [client_saturation] 压测客户端本身成了瓶颈：增加连接数、客户端进程或主机，或降低速率；然后重新测试。该时段的延迟包含客户端延迟。
    [network] 检查网卡、网络路径和监听队列（`net.core.somaxconn`）；然后重新测试。
    [host] 使用独占主机和 `performance` 调频策略（`cpupower frequency-set -g performance`）；然后重新测试。
    [server_queueing] 该时段的给定负载超过了服务能力（等待队列或 KV 缓存已满）：降低速率，或将结果报告为过载。
    [error_burst] 查看该时段的错误信息（超时和 OOM 指向过载或显存不足）；修复后重新测试。延迟统计不含失败请求，因此会偏乐观。
    [drift] 没有可报告的稳态：找出趋势的原因（持续升温、显存碎片、缓存增长），或延长运行直到稳定；不要引用单个数值。
    [ramp_down] 收尾段的发送速率下降，稳态窗口已将其排除。如果并非有意为之，请检查压测客户端的发送计划。
    [cache_warming] 前缀缓存命中率逐渐上升并趋于稳定，TTFT 随之下降：这段预热来自缓存，不是 GPU。请把这段作为预热排除。比较之前，在每组运行前清空缓存（`bench --reset-prefix-cache`），或以相同方式预热两组：之前运行留下的热缓存会掩盖这一现象。
   *[other] 请查看时间线。
}
