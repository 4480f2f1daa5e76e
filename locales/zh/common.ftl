## Pieces many messages share: list separators, a run named before its reason, and the notes
## a producer writes into run.json beside a value it could not read.

sep-comma = ，
sep-semicolon = ；
sep-enumeration = 、
sep-and = 和
sep-phrases = ；
sep-sentence = {""}

## Text shown as written (an English reason saved before messages existed).
as-written = { $text }
grade = { $grade ->
        [HIGH] 高
        [MEDIUM] 中
       *[LOW] 低
    }
## The credibility statement: its sentences (`statement.ftl`) as one paragraph.
statement = { $sentences }

in-run = { $run }：{ $reason }

## A value no producer recorded: `$note` says why (a note of credence's collectors, or a
## note other tools wrote, shown as written).
unknown = 未知：{ $note }
note-not-recorded = 未记录
note-not-recorded-by = { $tool } 未记录此项
note-gpu-sampling-off = 已关闭 GPU 采样（{ $flag } off）
note-collector = { $note ->
    [no_cpufreq] sysfs 中没有 cpufreq（虚拟机和容器中常见）
    [nvml_did_not_say] NVML 未给出
    [nvml_could_not_read] NVML 无法读取
    [nvml_no_application_clocks] NVML 无法读取应用时钟
    [clocks_locked_unreported] NVML 不报告锁频状态；请用 `nvidia-smi -q -d CLOCK` 检查
    [not_read] 未读取
    [no_gpu_data] 没有 GPU 数据
    [meminfo_unreadable] /proc/meminfo 无法读取
    [server_restart_unknown] credence 无法判断；请用 --label server_restarted=true 记录
    [model_path_unknown] 采集器不知道；请用 --config model=… 指定
    [engine_version_unknown] 采集器不知道；请用 --config engine_version=… 指定
    [unreadable] 无法读取
    [gpus_not_sampled] 未采集 GPU 数据：请使用 --collect-gpu auto，或在压测旁运行 credence collect
    [fake_gpus] 模拟 GPU（CREDENCE_FAKE_GPUS 测试钩子）
    [telemetry_only_phases] 仅遥测：请求数据来自压测工具自己的运行目录或导入的文件
   *[warmup_marked] 预热请求标记为 phase=warmup，并未删除
}

## An arrival process (the manifest's `workload.arrival`).
arrival = { $arrival ->
        [poisson] 泊松到达
        [constant] 匀速到达
        [closed_loop] 闭环并发
        [trace_replay] 按轨迹回放
       *[unknown] 到达方式未知
    }
