## Why a cause detector did not run (`attribution.detectors[].reason`), and what it found.

detector-client = 没有压测客户端遥测，也没有计划发送时间
detector-clock-reasons = 没有时钟事件原因位
detector-clock-util = 没有 SM 时钟或利用率数据
detector-cpu-steal = 主机遥测中没有 CPU 抢占时间或调频策略数据
detector-foreign = 没有其他进程的数据列
detector-memory = 没有 GPU 显存数据列
detector-network = 主机遥测中没有网络计数器
detector-no-gpu = 本次运行没有 GPU 遥测
detector-no-requests = 没有请求
detector-no-timestamps = 数据源没有逐请求时间戳
detector-no-timestamps-short = 没有逐请求时间戳
detector-power = 没有时钟事件原因位，也没有功耗或功耗上限数据
detector-overload-closed = 闭环负载等待每个应答：给定负载不会超过服务端的完成能力
detector-overload-unknown = 既没有给定速率，也没有足够长的负载（8 个窗口）可供判断
detector-no-cache = 没有任何响应报告提示词中由缓存提供的 token 数
detector-server = 没有服务端队列或 KV 缓存指标
detector-thermal = 没有时钟事件原因位或过热违规计数

detector-checked = { $episodes ->
    [0] 已检查：没有时段
   *[other] { $episodes } 个时段
}
