## 仅有遥测的审计（GPU 采样，没有请求）：哪些样本处于负载下、各 GPU 的状态、异常时段、时钟稳定性和方法。

telemetry-load-rule = GPU 利用率不低于 { $util } % 的样本视为处于负载下（未采集利用率时：时钟事件原因已知且 GPU 空闲位 0x1 未置位）。负载下样本少于 { $min } 个的 GPU 视为空闲，不纳入分析。
telemetry-util-max = 利用率最高 { $max } %
telemetry-util-none = 未采集利用率
telemetry-load-unknown = 其 { $samples } 个样本中既没有利用率也没有时钟事件原因：无法判断它是否繁忙
telemetry-load-idle = { $samples } 个样本中有 { $loaded } 个处于负载下（{ $util }；{ $idle } 个样本的 GPU 空闲位置位）；少于 { $min } 个，因此其时钟不作为负载下的时钟解读
telemetry-load-loaded = { $samples } 个样本中有 { $loaded } 个处于负载下（{ $util }）
telemetry-gpu-state = { $state ->
        [loaded] 纳入分析：{ $reason }。
        [idle] 空闲，不纳入分析：{ $reason }。
       *[unknown] 负载未知，不纳入分析：{ $reason }。
    }
telemetry-captured = { $samples } 个样本，采样间隔中位数 { $interval } s；采集项：{ $fields }。
telemetry-unreadable = 无法读取、按缺失处理的值：{ $items }。
telemetry-unreadable-item = { $field }（{ $samples } 个样本）
telemetry-summary = { $source }：{ $gpus } 块 GPU 的 { $samples } 个样本，共 { $seconds } s，起始于 { $date } { $time } UTC（即所有图表的时间零点）。没有记录任何请求。
telemetry-stability-descriptive = 基于 { $n } 个负载下样本的描述性统计；1 Hz 时钟样本存在自相关，因此不给出置信区间
telemetry-stability-few = 负载下只有 { $n } 个带 SM 时钟的样本（需要 { $min } 个）：离散程度不作为该 GPU 的特征解读
telemetry-stability-note = 负载下样本的 SM 时钟。变异系数：标准差除以均值。占比按负载下样本计（等间隔采样，即按负载时间计）。稳定：变异系数 ≤ { $cv } %，且低于最高时钟 90 % 的负载时间不超过 { $fallen } %。描述性统计：1 Hz 时钟样本存在自相关，因此不给出置信区间。
telemetry-reason = { $reason ->
        [thermal_slowdown] 过热降频
        [hw_power_brake] 硬件功率制动
        [hw_slowdown] 硬件降频
        [power_cap] 功耗受限
       *[clock_drop] SM 时钟下降，原因不明
    }
telemetry-episodes-note = { $case ->
        [none-loaded] 没有 GPU 处于负载下，因此没有查找异常时段。
        [not-looked] 负载下的 GPU 都没有 SM 时钟或时钟事件原因，因此无法查找异常时段。
        [none-with-bits] 负载下的 GPU 没有降频、功耗受限时段或 SM 时钟下降（已读取时钟事件原因位和 SM 时钟）。
        [none-without-bits] 负载下的 GPU 没有功耗受限时段或 SM 时钟下降。采集中没有时钟事件原因位，因此只能看到 SM 时钟的下降。
       *[found] 负载下 GPU 的异常时段：某一原因持续两个或更多样本，中间夹一个正常样本时视为连续。降频是时钟被强制降低（DCGM 的故障原因：过热、硬件降频、功率制动）；功耗受限是 GPU 维持在功耗上限，不是故障。没有原因位时，功耗在上限 5 % 以内且 SM 时钟比负载下最高值低 10 % 以上视为功耗受限；两者都不满足的时钟下降记为原因不明。
    }
telemetry-method-load = 负载判定
telemetry-method-episodes = 异常时段
telemetry-method-episodes-text = 过热降频（原因位 0x20、0x40）、硬件功率制动（0x80）和硬件降频（0x08）按 DCGM 的诊断掩码属于降频故障；软件功耗上限（0x04）属于功耗受限，不是故障。没有原因位时：功耗 ≥ 上限的 95 % 且 SM 时钟 < 负载下最高值的 90 % 视为功耗受限；两者都无法解释的 SM 时钟跌破 90 % 记为原因不明的时钟下降。至少两个样本；中间夹一个正常样本时视为连续。
telemetry-method-stability = 时钟稳定性
telemetry-method-stability-text = 负载下样本的 SM 时钟均值、标准差、变异系数、中位数和范围；负载下样本中低于负载下最高时钟、以及低于其 90 % 的占比。
telemetry-method-times = 时间
telemetry-method-times-text = 自采集第一个样本起的秒数，以及 UTC 时间。nvidia-smi 和 dmon 写的是不带时区的本地时间；时区偏移由 --tz 给出。
telemetry-method-unchecked = 未检查
telemetry-method-unchecked-text = 一切需要请求数据的内容：稳态、延迟百分位数及其置信区间、请求吞吐量、错误率、压测客户端饱和、由逐请求数据重算的工具声称值，以及任何异常时段与延迟的关联。
